/*
 * gpu/gpu_cuda.cu — the CUDA backend of gpu_pipe.cuh and the device side of
 * gpu/gpu_internal.h: detection, device and pinned memory, streams, the
 * kernels (one generic launcher over the functors of gpu_pipe.cuh, a
 * shared-memory kernel for the first NTT stages), CUB radix sort and scan.
 *
 * DESIGN
 *  - Every CUDA call goes through gpu_cu_check (the GPU_CU macro at the call
 *    site, which returns the status; the caller's `goto fail` stays visible):
 *    it yields a gm status and "call: cudaErrorX (code): text (file:line)".
 *  - Two streams: `comp` runs every kernel and sort of a context in order;
 *    `copy` uploads the next MSM's scalars while `comp` computes the current
 *    one (events order the two).
 *  - Buffers grow on demand and stay with the context (workspace, scalar
 *    buffers, NTT vectors, the twiddles and scale tables of the last size),
 *    so a batch allocates once.
 *  - tools/gpu-check measures these kernels on a GPU (docs/gpu.md, "The
 *    device check").
 *  - Built for every architecture of the Makefile's NVARCH (GPU_ARCHS);
 *    gpuc_create refuses a device none of them runs on (check_arch).
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_internal.h"
#include "gpu/gpu_pipe.cuh"

/* ---- the one check ------------------------------------------------------------------------ */

static int gpu_cu_check(cudaError_t e, const char *call, const char *file, int line, err_t *err)
{
    if (e == cudaSuccess)
        return 0;
    int code = GM_EGPU;
    if (e == cudaErrorMemoryAllocation)
        code = GM_ENOMEM;
    else if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e == cudaErrorInvalidDevice)
        code = GM_ENOTSUP;
    /* Clear a non-sticky error so the next call does not report it again. */
    (void)cudaGetLastError();
    return gm_err_set(err, code, "gpu: %s: %s (%d): %s (%s:%d)", call, cudaGetErrorName(e), (int)e,
                      cudaGetErrorString(e), file, line);
}

#define GPU_CU(call, err) gpu_cu_check((call), #call, __FILE__, __LINE__, (err))

/* ---- context ------------------------------------------------------------------------------ */

struct gpuc {
    int dev;
    cudaDeviceProp prop;
    int runtime_version, driver_version;
    cudaStream_t comp, copy;
    cudaEvent_t up[2], done[2];
    cudaEvent_t t0, t1; /* timing of the last compute */
    bool timed;
    /* MSM */
    char *ws;
    size_t ws_bytes;
    gfr_t *dsc[2];
    fr_t *pin;
    size_t sc_n;
    g1_xyzz_t *pin_ws;
    /* NTT */
    gfr_t *v[4];
    size_t v_n;
    int v_count;
    gfr_t *tw;
    unsigned tw_log;
    gfr_t *scale;
    unsigned scale_log;
    void *scan_tmp;
    size_t scan_tmp_bytes;
};

extern "C" int gpuc_device_count(int *n, err_t *err)
{
    *n = 0;
    int count = 0;
    if (GPU_CU(cudaGetDeviceCount(&count), err)) {
        if (err)
            err->code = GM_ENOTSUP;
        return GM_ENOTSUP;
    }
    *n = count;
    return 0;
}

#if !defined(GPU_ARCHS) || !defined(GPU_PTX_ARCH)
#error "GPU_ARCHS and GPU_PTX_ARCH (from the Makefile's NVARCH: the machine code and the PTX this object holds) must be defined"
#endif

__global__ void k_arch_probe() {}

/* Refuses a device this build has no kernel image for, before any launch
 * fails with "no kernel image": the runtime looks for SASS of the device's
 * major version and a minor one at most its own, else PTX of a version at
 * most the device's to compile. cudaFuncGetAttributes asks the same
 * question of one kernel, the others being in the same fat binary. */
static int check_arch(gpuc_t *g, err_t *err)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, k_arch_probe);
    if (e == cudaSuccess)
        return 0;
    (void)cudaGetLastError();
    if (e != cudaErrorNoKernelImageForDevice && e != cudaErrorInvalidDeviceFunction)
        return gpu_cu_check(e, "cudaFuncGetAttributes(k_arch_probe)", __FILE__, __LINE__, err);
    return gm_err_set(err, GM_ENOTSUP,
                      "gpu: device %d, %s, compute capability %d.%d: this build has no kernel image for it "
                      "(machine code for sm_%s, PTX for sm_%s and newer; rebuild with NVARCH naming %d%d) "
                      "(%s:%d)",
                      g->dev, g->prop.name, g->prop.major, g->prop.minor, GPU_ARCHS, GPU_PTX_ARCH, g->prop.major,
                      g->prop.minor, __FILE__, __LINE__);
}

extern "C" int gpuc_create(gpuc_t **out, int device, err_t *err)
{
    *out = NULL;
    int count = 0, rc;
    /* The fallback rule: any error here (no driver: cudaErrorInsufficientDriver,
     * no device: cudaErrorNoDevice) means "prove on the CPU". */
    if (GPU_CU(cudaGetDeviceCount(&count), err)) {
        if (err)
            err->code = GM_ENOTSUP;
        return GM_ENOTSUP;
    }
    if (device < 0)
        device = 0;
    if (count == 0)
        return gm_err_set(err, GM_ENOTSUP, "gpu: cudaGetDeviceCount: no CUDA device (%s:%d)", __FILE__, __LINE__);
    if (device >= count)
        return gm_err_set(err, GM_ENOTSUP, "gpu: device %d asked for, %d present (%s:%d)", device, count, __FILE__,
                          __LINE__);
    gpuc_t *g = (gpuc_t *)calloc(1, sizeof *g);
    if (!g)
        return gm_err_set(err, GM_ENOMEM, "gpu: out of memory");
    g->dev = device;
    if ((rc = GPU_CU(cudaSetDevice(device), err)) || (rc = GPU_CU(cudaGetDeviceProperties(&g->prop, device), err)) ||
        (rc = check_arch(g, err)) || (rc = GPU_CU(cudaRuntimeGetVersion(&g->runtime_version), err)) ||
        (rc = GPU_CU(cudaDriverGetVersion(&g->driver_version), err)) ||
        (rc = GPU_CU(cudaStreamCreateWithFlags(&g->comp, cudaStreamNonBlocking), err)) ||
        (rc = GPU_CU(cudaStreamCreateWithFlags(&g->copy, cudaStreamNonBlocking), err)))
        goto fail;
    for (int i = 0; i < 2; i++)
        if ((rc = GPU_CU(cudaEventCreateWithFlags(&g->up[i], cudaEventDisableTiming), err)) ||
            (rc = GPU_CU(cudaEventCreateWithFlags(&g->done[i], cudaEventDisableTiming), err)))
            goto fail;
    if ((rc = GPU_CU(cudaEventCreate(&g->t0), err)) || (rc = GPU_CU(cudaEventCreate(&g->t1), err)))
        goto fail;
    *out = g;
    return 0;
fail:
    gpuc_destroy(g);
    return rc;
}

extern "C" void gpuc_destroy(gpuc_t *g)
{
    if (!g)
        return;
    cudaSetDevice(g->dev);
    if (g->comp)
        cudaStreamSynchronize(g->comp);
    if (g->copy)
        cudaStreamSynchronize(g->copy);
    cudaFree(g->ws);
    cudaFree(g->dsc[0]);
    cudaFree(g->dsc[1]);
    cudaFreeHost(g->pin);
    cudaFreeHost(g->pin_ws);
    for (int i = 0; i < 4; i++)
        cudaFree(g->v[i]);
    cudaFree(g->tw);
    cudaFree(g->scale);
    cudaFree(g->scan_tmp);
    for (int i = 0; i < 2; i++) {
        if (g->up[i])
            cudaEventDestroy(g->up[i]);
        if (g->done[i])
            cudaEventDestroy(g->done[i]);
    }
    if (g->t0)
        cudaEventDestroy(g->t0);
    if (g->t1)
        cudaEventDestroy(g->t1);
    if (g->comp)
        cudaStreamDestroy(g->comp);
    if (g->copy)
        cudaStreamDestroy(g->copy);
    free(g);
}

extern "C" void gpuc_info(gpuc_info_t *out, gpuc_t *g)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", g->prop.name);
    out->device = g->dev;
    out->sm_count = g->prop.multiProcessorCount;
    out->cc_major = g->prop.major;
    out->cc_minor = g->prop.minor;
    out->runtime_version = g->runtime_version;
    out->driver_version = g->driver_version;
    cudaSetDevice(g->dev);
    if (cudaMemGetInfo(&out->mem_free, &out->mem_total) != cudaSuccess) {
        (void)cudaGetLastError();
        out->mem_total = g->prop.totalGlobalMem;
    }
}

static int dev_alloc(void **p, size_t bytes, const char *what, err_t *err)
{
    *p = NULL;
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *p = NULL;
        return gm_err_set(err, GM_ENOMEM, "gpu: cudaMalloc: %s: %zu bytes: out of device memory (%s:%d)", what,
                          bytes, __FILE__, __LINE__);
    }
    return GPU_CU(e, err);
}

extern "C" int gpuc_malloc(gpuc_t *g, void **p, size_t bytes, const char *what, err_t *err)
{
    int rc = GPU_CU(cudaSetDevice(g->dev), err);
    return rc ? rc : dev_alloc(p, bytes, what, err);
}

extern "C" void gpuc_free(gpuc_t *g, void *p)
{
    if (g && p) {
        cudaSetDevice(g->dev);
        cudaFree(p);
    }
}

extern "C" int gpuc_host_alloc(gpuc_t *g, void **p, size_t bytes, const char *what, err_t *err)
{
    (void)g;
    *p = NULL;
    cudaError_t e = cudaHostAlloc(p, bytes ? bytes : 1, cudaHostAllocPortable);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *p = NULL;
        return gm_err_set(err, GM_ENOMEM, "gpu: cudaHostAlloc: %s: %zu bytes of pinned memory (%s:%d)", what, bytes,
                          __FILE__, __LINE__);
    }
    return GPU_CU(e, err);
}

extern "C" void gpuc_host_free(gpuc_t *g, void *p)
{
    (void)g;
    if (p)
        cudaFreeHost(p);
}

extern "C" int gpuc_h2d(gpuc_t *g, void *dst, const void *src, size_t bytes, err_t *err)
{
    int rc;
    if ((rc = GPU_CU(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g->copy), err)))
        return rc;
    return GPU_CU(cudaStreamSynchronize(g->copy), err);
}

extern "C" double gpuc_last_ms(gpuc_t *g)
{
    float ms = 0;
    if (!g || !g->timed || cudaEventElapsedTime(&ms, g->t0, g->t1) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return ms;
}

/* ---- kernels -------------------------------------------------------------------------------- */

#define GPU_BLOCK 256

/* One thread per index: the functors of gpu_pipe.cuh. */
template <class F> __global__ void __launch_bounds__(GPU_BLOCK) k_each(F f, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        f(i);
}

/* The first `stages` DIT stages (h = 1 .. 2^(stages-1)) on blocks of 2^stages
 * contiguous values in shared memory, one butterfly per thread per stage.
 * (1) Why: the small-stride stages touch a block's values stages times; in
 *     shared memory that is one global read and write instead of `stages`.
 * (2) Invariants: blockDim.x = 2^(stages-1), stages <= 10 (32 KiB of
 *     shared memory); the butterfly and twiddle index are gpu_stage_fn's
 *     with the block's offset removed.
 * (3) Part of the NTT figure of gpu/check.sh (docs/gpu.md). */
__global__ void k_dit_shared(gfr_t *a, const gfr_t *tw, unsigned log_n, unsigned stages, bool inverse)
{
    extern __shared__ gfr_t sh[];
    const size_t base = (size_t)blockIdx.x << stages;
    const unsigned t = threadIdx.x, half = 1u << (stages - 1);
    sh[t] = a[base + t];
    sh[t + half] = a[base + t + half];
    __syncthreads();
    for (unsigned lh = 0; lh < stages; lh++) {
        unsigned h = 1u << lh, j = t & (h - 1);
        unsigned i0 = ((t >> lh) << (lh + 1)) | j, i1 = i0 + h;
        gfr_t w, u = sh[i0], v;
        gpu_twiddle(w, tw, (size_t)j << (log_n - 1 - lh), (size_t)1 << (log_n - 1), inverse);
        gf_mul(v, sh[i1], w);
        gf_add(sh[i0], u, v);
        gf_sub(sh[i1], u, v);
        __syncthreads();
    }
    a[base + t] = sh[t];
    a[base + t + half] = sh[t + half];
}

/* ---- the backend -------------------------------------------------------------------------- */

namespace {

struct cuda_backend {
    gpuc_t *g;
    size_t sort_bytes;
    cudaError_t first;
    const char *where;
    void note(cudaError_t e, const char *what)
    {
        if (e != cudaSuccess && first == cudaSuccess) {
            first = e;
            where = what;
        }
    }
    template <class F> void each(size_t n, const F &f)
    {
        if (!n)
            return;
        size_t blocks = (n + GPU_BLOCK - 1) / GPU_BLOCK;
        k_each<F><<<(unsigned)blocks, GPU_BLOCK, 0, g->comp>>>(f, n);
        note(cudaGetLastError(), "kernel launch");
    }
    void sort_pairs(uint32_t *kin, uint32_t *vin, uint32_t *kout, uint32_t *vout, size_t n, int end_bit, void *tmp)
    {
        size_t bytes = sort_bytes;
        note(cub::DeviceRadixSort::SortPairs(tmp, bytes, kin, kout, vin, vout, (int64_t)n, 0, end_bit, g->comp),
             "cub::DeviceRadixSort::SortPairs");
    }
    void scan(const uint32_t *in, uint32_t *out, size_t n)
    {
        size_t bytes = g->scan_tmp_bytes;
        note(cub::DeviceScan::ExclusiveSum(g->scan_tmp, bytes, in, out, (int64_t)n, g->comp),
             "cub::DeviceScan::ExclusiveSum");
    }
    void zero(void *p, size_t bytes) { note(cudaMemsetAsync(p, 0, bytes, g->comp), "cudaMemsetAsync"); }
    void dit(gfr_t *a, unsigned log_n, const gfr_t *tw, bool inverse)
    {
        unsigned s = log_n < 10 ? log_n : 10;
        size_t blocks = (size_t)1 << (log_n - s);
        k_dit_shared<<<(unsigned)blocks, 1u << (s - 1), sizeof(gfr_t) << s, g->comp>>>(a, tw, log_n, s, inverse);
        note(cudaGetLastError(), "k_dit_shared launch");
        for (unsigned lh = s; lh < log_n; lh++) {
            gpu_stage_fn sf = {a, tw, log_n, lh, inverse};
            each((size_t)1 << (log_n - 1), sf);
        }
    }
    int status(err_t *err)
    {
        if (first == cudaSuccess)
            return 0;
        return gpu_cu_check(first, where, __FILE__, __LINE__, err);
    }
};

} // namespace

/* The scan's temporary storage for up to n items (grown on demand). */
static int ensure_scan(gpuc_t *g, size_t n, err_t *err)
{
    size_t bytes = 0;
    int rc;
    if ((rc = GPU_CU(cub::DeviceScan::ExclusiveSum(NULL, bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                  (int64_t)n, g->comp), err)))
        return rc;
    if (bytes <= g->scan_tmp_bytes)
        return 0;
    cudaFree(g->scan_tmp);
    g->scan_tmp = NULL;
    g->scan_tmp_bytes = 0;
    if ((rc = dev_alloc(&g->scan_tmp, bytes, "scan workspace", err)))
        return rc;
    g->scan_tmp_bytes = bytes;
    return 0;
}

/* ---- MSM ------------------------------------------------------------------------------------ */

static int ensure_msm(gpuc_t *g, const gpu_msm_ws &L0, size_t n, size_t *sort_bytes, gpu_msm_ws *L, err_t *err)
{
    int rc;
    size_t bytes = 0;
    const int kbits = 32; /* the most any group needs; CUB's storage grows with the bits */
    if ((rc = GPU_CU(cub::DeviceRadixSort::SortPairs(NULL, bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                    (const uint32_t *)NULL, (uint32_t *)NULL, (int64_t)L0.items, 0,
                                                    kbits, g->comp), err)))
        return rc;
    *sort_bytes = bytes;
    gpu_msm_layout(L, n, L0.c, bytes);
    if ((rc = ensure_scan(g, L->items + 2, err)))
        return rc;
    if (L->total > g->ws_bytes) {
        cudaFree(g->ws);
        g->ws = NULL;
        g->ws_bytes = 0;
        if ((rc = dev_alloc((void **)&g->ws, L->total, "MSM workspace", err)))
            return rc;
        g->ws_bytes = L->total;
    }
    if (n > g->sc_n) {
        for (int i = 0; i < 2; i++) {
            cudaFree(g->dsc[i]);
            g->dsc[i] = NULL;
        }
        cudaFreeHost(g->pin);
        g->pin = NULL;
        g->sc_n = 0;
        for (int i = 0; i < 2; i++)
            if ((rc = dev_alloc((void **)&g->dsc[i], n * sizeof(gfr_t), "MSM scalars", err)))
                return rc;
        if ((rc = gpuc_host_alloc(g, (void **)&g->pin, n * sizeof(fr_t), "MSM scalar staging", err)))
            return rc;
        g->sc_n = n;
    }
    if (!g->pin_ws && (rc = gpuc_host_alloc(g, (void **)&g->pin_ws, 256 * sizeof(g1_xyzz_t), "window sums", err)))
        return rc;
    return 0;
}

extern "C" int gpuc_msm_g1(gpuc_t *g, g1_xyzz_t *wsum, const void *dev_bases, size_t n, unsigned c, size_t k,
                           gpuc_pack_fn pack, void *pack_arg, err_t *err)
{
    int rc;
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)))
        return rc;
    gpu_msm_ws L0, L;
    gpu_msm_layout(&L0, n, c, 0);
    cuda_backend b = {g, 0, cudaSuccess, ""};
    if ((rc = ensure_msm(g, L0, n, &b.sort_bytes, &L, err)))
        return rc;
    const size_t sc_bytes = n * sizeof(gfr_t), ws_bytes = (size_t)L.nwin * sizeof(g1_xyzz_t);
    pack(pack_arg, 0, g->pin);
    if ((rc = GPU_CU(cudaMemcpyAsync(g->dsc[0], g->pin, sc_bytes, cudaMemcpyHostToDevice, g->copy), err)) ||
        (rc = GPU_CU(cudaEventRecord(g->up[0], g->copy), err)))
        return rc;
    for (size_t j = 0; j < k; j++) {
        int s = (int)(j & 1);
        if ((rc = GPU_CU(cudaStreamWaitEvent(g->comp, g->up[s], 0), err)))
            return rc;
        b.note(cudaEventRecord(g->t0, g->comp), "cudaEventRecord");
        gpu_msm_windows(b, L, g->ws, (const gpu_g1_aff *)dev_bases, g->dsc[s], n);
        b.note(cudaEventRecord(g->t1, g->comp), "cudaEventRecord");
        g->timed = true;
        if ((rc = b.status(err)))
            return rc;
        if ((rc = GPU_CU(cudaMemcpyAsync(g->pin_ws, g->ws + L.wsum, ws_bytes, cudaMemcpyDeviceToHost, g->comp),
                         err)) ||
            (rc = GPU_CU(cudaEventRecord(g->done[s], g->comp), err)))
            return rc;
        if (j + 1 < k) {
            /* The staging buffer is free once upload j is done; pack j + 1
             * on this thread while the device computes MSM j. */
            if ((rc = GPU_CU(cudaEventSynchronize(g->up[s]), err)))
                return rc;
            pack(pack_arg, j + 1, g->pin);
            if (j >= 1 && (rc = GPU_CU(cudaStreamWaitEvent(g->copy, g->done[1 - s], 0), err)))
                return rc;
            if ((rc = GPU_CU(cudaMemcpyAsync(g->dsc[1 - s], g->pin, sc_bytes, cudaMemcpyHostToDevice, g->copy),
                             err)) ||
                (rc = GPU_CU(cudaEventRecord(g->up[1 - s], g->copy), err)))
                return rc;
        }
        if ((rc = GPU_CU(cudaEventSynchronize(g->done[s]), err)))
            return rc;
        memcpy(wsum + j * L.nwin, g->pin_ws, ws_bytes);
    }
    return 0;
}

/* ---- NTT ------------------------------------------------------------------------------------ */

static int ensure_vectors(gpuc_t *g, size_t n, int count, err_t *err)
{
    int rc;
    if (n <= g->v_n && count <= g->v_count)
        return 0;
    for (int i = 0; i < 4; i++) {
        cudaFree(g->v[i]);
        g->v[i] = NULL;
    }
    g->v_n = 0;
    g->v_count = 0;
    for (int i = 0; i < count; i++)
        if ((rc = dev_alloc((void **)&g->v[i], n * sizeof(gfr_t), "NTT vectors", err)))
            return rc;
    g->v_n = n;
    g->v_count = count;
    return 0;
}

/* Uploads the domain's tables when the size changed: the n/2 twiddles
 * (generated on the device from gpu.c's hi/lo halves) and the four scale
 * tables. */
static int ensure_tables(gpuc_t *g, cuda_backend &b, const gpu_ntt_tabs_t *t, gpu_tabs_dev *T, err_t *err)
{
    int rc;
    const size_t half = (size_t)1 << (t->log_n - 1), nhi = GPU_SCALE_NHI(t->log_n), per = nhi + GPU_SCALE_NLO;
    if (g->tw_log != t->log_n) {
        cudaFree(g->tw);
        g->tw = NULL;
        g->tw_log = 0;
        gfr_t *hl = NULL;
        if ((rc = dev_alloc((void **)&g->tw, half * sizeof(gfr_t), "NTT twiddles", err)) ||
            (rc = dev_alloc((void **)&hl, (t->tw_nhi + t->tw_nlo) * sizeof(gfr_t), "NTT twiddle halves", err))) {
            cudaFree(hl);
            return rc;
        }
        /* On `comp`, the stream gpu_twgen_fn runs on: a plain cudaMemcpy
         * goes to the legacy stream, which a cudaStreamNonBlocking stream
         * does not wait for, so the kernel could read the halves before
         * they land. The host tables (gpu.c's) outlive the synchronize
         * below. */
        if ((rc = GPU_CU(cudaMemcpyAsync(hl, t->tw_hi, t->tw_nhi * sizeof(gfr_t), cudaMemcpyHostToDevice, g->comp),
                         err)) ||
            (rc = GPU_CU(cudaMemcpyAsync(hl + t->tw_nhi, t->tw_lo, t->tw_nlo * sizeof(gfr_t), cudaMemcpyHostToDevice,
                                         g->comp), err))) {
            cudaFree(hl);
            return rc;
        }
        gpu_twgen_fn tg = {g->tw, hl, hl + t->tw_nhi, t->tw_lb};
        b.each(half, tg);
        rc = GPU_CU(cudaStreamSynchronize(g->comp), err);
        cudaFree(hl);
        if (rc || (rc = b.status(err)))
            return rc;
        g->tw_log = t->log_n;
    }
    if (g->scale_log != t->log_n) {
        cudaFree(g->scale);
        g->scale = NULL;
        g->scale_log = 0;
        if ((rc = dev_alloc((void **)&g->scale, 4 * per * sizeof(gfr_t), "NTT scale tables", err)))
            return rc;
        /* On `comp` as well, ahead of the kernels that read them; the host
         * tables stay in gpu.c's store until the size changes, which is
         * after this call's synchronize. */
        const gpu_scale_t *src[4] = {&t->g, &t->gn, &t->gin, &t->n1};
        for (int i = 0; i < 4; i++)
            if ((rc = GPU_CU(cudaMemcpyAsync(g->scale + i * per, src[i]->hi, nhi * sizeof(gfr_t),
                                             cudaMemcpyHostToDevice, g->comp), err)) ||
                (rc = GPU_CU(cudaMemcpyAsync(g->scale + i * per + nhi, src[i]->lo, GPU_SCALE_NLO * sizeof(gfr_t),
                                             cudaMemcpyHostToDevice, g->comp), err)))
                return rc;
        g->scale_log = t->log_n;
    }
    T->tw = g->tw;
    gpu_ntt_tabs *dst[4] = {&T->g, &T->gn, &T->gin, &T->n1};
    for (int i = 0; i < 4; i++) {
        dst[i]->hi = g->scale + i * per;
        dst[i]->lo = g->scale + i * per + nhi;
    }
    return 0;
}

extern "C" int gpuc_ntt(gpuc_t *g, fr_t *a, const gpu_ntt_tabs_t *t, int dir, err_t *err)
{
    int rc;
    const size_t n = (size_t)1 << t->log_n;
    cuda_backend b = {g, 0, cudaSuccess, ""};
    gpu_tabs_dev T;
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)) || (rc = ensure_vectors(g, n, 2, err)) ||
        (rc = ensure_tables(g, b, t, &T, err)))
        return rc;
    gfr_t *x = g->v[0], *tmp = g->v[1];
    if ((rc = GPU_CU(cudaMemcpyAsync(x, a, n * sizeof(fr_t), cudaMemcpyHostToDevice, g->comp), err)))
        return rc;
    b.note(cudaEventRecord(g->t0, g->comp), "cudaEventRecord");
    gpu_ntt_dir(b, &x, &tmp, t->log_n, T, dir);
    b.note(cudaEventRecord(g->t1, g->comp), "cudaEventRecord");
    g->timed = true;
    if ((rc = b.status(err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(a, x, n * sizeof(fr_t), cudaMemcpyDeviceToHost, g->comp), err)))
        return rc;
    return GPU_CU(cudaStreamSynchronize(g->comp), err);
}

extern "C" int gpuc_h(gpuc_t *g, fr_t *a, const fr_t *bb, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z,
                      err_t *err)
{
    int rc;
    const size_t n = (size_t)1 << t->log_n, bytes = n * sizeof(fr_t);
    cuda_backend b = {g, 0, cudaSuccess, ""};
    gpu_tabs_dev T;
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)) || (rc = ensure_vectors(g, n, 4, err)) ||
        (rc = ensure_tables(g, b, t, &T, err)))
        return rc;
    gfr_t *v[4] = {g->v[0], g->v[1], g->v[2], g->v[3]};
    if ((rc = GPU_CU(cudaMemcpyAsync(v[0], a, bytes, cudaMemcpyHostToDevice, g->comp), err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(v[1], bb, bytes, cudaMemcpyHostToDevice, g->comp), err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(v[2], c, bytes, cudaMemcpyHostToDevice, g->comp), err)))
        return rc;
    b.note(cudaEventRecord(g->t0, g->comp), "cudaEventRecord");
    gpu_h_run(b, v, t->log_n, T, (const gfr_t *)z);
    b.note(cudaEventRecord(g->t1, g->comp), "cudaEventRecord");
    g->timed = true;
    if ((rc = b.status(err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(a, v[0], bytes, cudaMemcpyDeviceToHost, g->comp), err)))
        return rc;
    return GPU_CU(cudaStreamSynchronize(g->comp), err);
}
