/*
 * gpu/gpu_cuda.cu — the CUDA backend of gpu_pipe.cuh and the device side of
 * gpu/gpu_internal.h: detection, device and pinned memory, streams, the
 * kernels (one generic launcher over the functors of gpu_pipe.cuh, a
 * shared-memory kernel per NTT pass), CUB radix sort and scan.
 *
 * DESIGN
 *  - Every CUDA call goes through gpu_cu_check (the GPU_CU macro at the call
 *    site, which returns the status; the caller's `goto fail` stays visible):
 *    it yields a gm status and "call: cudaErrorX (code): text (file:line)".
 *  - Two streams: `comp` runs every kernel and sort of a context in order
 *    (the host waits on it once per MSM, for the compacted item counts);
 *    `copy` uploads the next MSM's scalars while `comp` computes the current
 *    one (events order the two).
 *  - One arena holds every call's buffers (gpu.h, "device memory plan"):
 *    an MSM's streamed chunk (gpu.c puts it at the start), scalar buffers,
 *    workspace, sort and scan scratch; or an NTT's vectors and tables. The
 *    calls of a context never overlap, so the two share it; gpu.c sizes it
 *    (up front from the plan, or grown to the largest call) and it stays
 *    with the context, so a batch allocates once. The tables stay valid
 *    until an MSM or a new size overwrites them.
 *  - The radix sort runs on CUB's DoubleBuffer over the workspace's two
 *    key and value buffers, so its scratch is a histogram and look-back
 *    words, not another copy of the items.
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
    char *arena;
    size_t arena_bytes;
    /* MSM (device buffers in the arena) */
    fr_t *pin;
    size_t sc_n;
    void *pin_ws; /* 256 window sums of either curve */
    void *scan_tmp;
    size_t scan_tmp_bytes;
    /* NTT: the tables of 2^tab_log of tab_curve's Fr are at the arena's
     * start (tab_log 0: none) */
    unsigned tab_log;
    gpu_curve_t tab_curve;
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
    cudaFree(g->arena);
    cudaFreeHost(g->pin);
    cudaFreeHost(g->pin_ws);
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

extern "C" int gpuc_arena(gpuc_t *g, size_t bytes, err_t *err)
{
    int rc;
    if (bytes <= g->arena_bytes)
        return 0;
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)) || (rc = GPU_CU(cudaDeviceSynchronize(), err)))
        return rc;
    cudaFree(g->arena);
    g->arena = NULL;
    g->arena_bytes = 0;
    g->tab_log = 0;
    if ((rc = dev_alloc((void **)&g->arena, bytes, "arena (MSM workspace and NTT vectors)", err)))
        return rc;
    g->arena_bytes = bytes;
    return 0;
}

extern "C" void *gpuc_arena_ptr(gpuc_t *g) { return g->arena; }

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

/* One thread per index: the functors of gpu_pipe.cuh. Two blocks per SM at
 * least: the point kernels (a G1 addition inlined, its accumulators in
 * registers) would take 150 to 255 registers, one block of 256 per SM
 * (12.5 % occupancy); capped at 128 they keep two blocks resident, each
 * hiding the other's IMAD latency, for a few spilled words (their counts
 * per kernel are in docs/gpu.md). The other kernels need fewer anyway. */
template <class F> __global__ void __launch_bounds__(GPU_BLOCK, 2) k_each(F f, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        f(i);
}

/* One pass of the NTT (gpu_pipe.cuh, "NTT passes"): block t loads tile t
 * (2^(k + lc) values) into shared memory, runs the pass's k stages with one
 * butterfly per thread per stage, and stores the tile back.
 * (1) Why: at 2^27, three passes over device memory instead of 18 (the ten
 *     shared stages, then one per stage), so a transform with its
 *     bit-reversal pass reads and writes 8 n values instead of 38 n
 *     (docs/gpu.md); shared memory is limb-major (limb i of element
 *     e at word i T + e), so a warp's 32 consecutive elements fall in 32
 *     banks where 32-byte rows would put 8 threads on each bank.
 * (2) Invariants: blockDim.x = T / 2 = 2^(k + lc - 1) <= 512, T 32-byte
 *     values of dynamic shared memory (<= 32 KiB, under the 48 KiB default);
 *     the element and twiddle indices are gpu_ntt_bfly_at's, which the host
 *     emulation runs too.
 * (3) Predicted time per pass: docs/gpu.md ("Kernels: predicted times"). */
template <class F>
__global__ void __launch_bounds__(512) k_ntt_pass(F *a, const F *tw, gpu_ntt_pass p, unsigned log_n, bool inverse)
{
    extern __shared__ uint32_t sh[];
    const uint32_t T = 1u << (p.k + p.lc), u = threadIdx.x;
    const size_t t = blockIdx.x;
    /* Two elements per thread: u and u + T / 2 (runs of 2^lc contiguous
     * values per row, 16-byte loads). */
    GPU_UNROLL for (int h = 0; h < 2; h++) {
        const uint32_t e = u + h * (T / 2);
        const uint4 *src = (const uint4 *)(a + gpu_ntt_tile_index(p, t, e));
        uint4 lo = src[0], hi = src[1];
        sh[0 * T + e] = lo.x;
        sh[1 * T + e] = lo.y;
        sh[2 * T + e] = lo.z;
        sh[3 * T + e] = lo.w;
        sh[4 * T + e] = hi.x;
        sh[5 * T + e] = hi.y;
        sh[6 * T + e] = hi.z;
        sh[7 * T + e] = hi.w;
    }
    __syncthreads();
    for (unsigned l = 0; l < p.k; l++) {
        uint32_t e0, e1;
        size_t tj;
        gpu_ntt_bfly_at(p, log_n, t, u, l, &e0, &e1, &tj);
        F x0, x1;
        GPU_UNROLL for (int i = 0; i < 8; i++) {
            x0.l[i] = sh[i * T + e0];
            x1.l[i] = sh[i * T + e1];
        }
        gpu_ntt_bfly(x0, x1, tw, tj, log_n, inverse);
        GPU_UNROLL for (int i = 0; i < 8; i++) {
            sh[i * T + e0] = x0.l[i];
            sh[i * T + e1] = x1.l[i];
        }
        __syncthreads();
    }
    GPU_UNROLL for (int h = 0; h < 2; h++) {
        const uint32_t e = u + h * (T / 2);
        uint4 *dst = (uint4 *)(a + gpu_ntt_tile_index(p, t, e));
        dst[0] = make_uint4(sh[0 * T + e], sh[1 * T + e], sh[2 * T + e], sh[3 * T + e]);
        dst[1] = make_uint4(sh[4 * T + e], sh[5 * T + e], sh[6 * T + e], sh[7 * T + e]);
    }
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
        cub::DoubleBuffer<uint32_t> k(kin, kout), v(vin, vout);
        note(cub::DeviceRadixSort::SortPairs(tmp, bytes, k, v, (int64_t)n, 0, end_bit, g->comp),
             "cub::DeviceRadixSort::SortPairs");
        /* The pipeline reads the sorted pairs from (kout, vout): after an
         * odd number of passes CUB leaves them in (kin, vin). */
        if (k.Current() != kout) {
            note(cudaMemcpyAsync(kout, k.Current(), n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, g->comp),
                 "cudaMemcpyAsync (sorted keys)");
            note(cudaMemcpyAsync(vout, v.Current(), n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, g->comp),
                 "cudaMemcpyAsync (sorted values)");
        }
    }
    void scan(const uint32_t *in, uint32_t *out, size_t n)
    {
        size_t bytes = g->scan_tmp_bytes;
        note(cub::DeviceScan::ExclusiveSum(g->scan_tmp, bytes, in, out, (int64_t)n, g->comp),
             "cub::DeviceScan::ExclusiveSum");
    }
    void zero(void *p, size_t bytes) { note(cudaMemsetAsync(p, 0, bytes, g->comp), "cudaMemsetAsync"); }
    void to_host(void *dst, const void *src, size_t bytes)
    {
        note(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, g->comp), "cudaMemcpyAsync (counts)");
        note(cudaStreamSynchronize(g->comp), "cudaStreamSynchronize (counts)");
    }
    template <class F> void dit(F *a, unsigned log_n, const F *tw, bool inverse)
    {
        gpu_ntt_pass plan[4];
        unsigned np = gpu_ntt_plan(log_n, plan);
        for (unsigned i = 0; i < np; i++) {
            const unsigned tl = plan[i].k + plan[i].lc;
            k_ntt_pass<F><<<(unsigned)((size_t)1 << (log_n - tl)), 1u << (tl - 1), sizeof(F) << tl, g->comp>>>(
                a, tw, plan[i], log_n, inverse);
            note(cudaGetLastError(), "k_ntt_pass launch");
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

#define GPU_AL256(x) (((x) + 255) & ~(size_t)255)

/* CUB's scratch for the sort (DoubleBuffer) and the scan of one group of
 * L0.items items: what it asks for the most key bits any group needs. */
static int cub_scratch(gpuc_t *g, const gpu_msm_ws &L0, size_t *sort_bytes, size_t *scan_bytes, err_t *err)
{
    int rc;
    const int kbits = 32;
    cub::DoubleBuffer<uint32_t> k(NULL, NULL), v(NULL, NULL);
    *sort_bytes = 0;
    *scan_bytes = 0;
    if ((rc = GPU_CU(cub::DeviceRadixSort::SortPairs(NULL, *sort_bytes, k, v, (int64_t)L0.items, 0, kbits, g->comp),
                     err)) ||
        (rc = GPU_CU(cub::DeviceScan::ExclusiveSum(NULL, *scan_bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                  (int64_t)(L0.items + 2), g->comp), err)))
        return rc;
    return 0;
}

template <class K>
static int msm_bytes(gpuc_t *g, size_t n, unsigned c, size_t max_items, unsigned nbuf, size_t *bytes, err_t *err)
{
    gpu_msm_ws L0, L;
    size_t sort_b, scan_b;
    int rc;
    gpu_msm_layout<K>(&L0, n, c, 0, max_items);
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)) || (rc = cub_scratch(g, L0, &sort_b, &scan_b, err)))
        return rc;
    gpu_msm_layout<K>(&L, n, c, sort_b, max_items);
    *bytes = nbuf * GPU_AL256(n * sizeof(typename K::fr)) + L.total + GPU_AL256(scan_b);
    return 0;
}

extern "C" int gpuc_msm_bytes(gpuc_t *g, gpu_curve_t k, size_t n, unsigned c, size_t max_items, unsigned nbuf,
                              size_t *bytes, err_t *err)
{
    return k == GPU_CURVE_BN254 ? msm_bytes<gpu_bn254>(g, n, c, max_items, nbuf, bytes, err)
                                : msm_bytes<gpu_bls12_381>(g, n, c, max_items, nbuf, bytes, err);
}

/* The pinned host buffers of an MSM of n points: the scalar staging and
 * the window sums (grown on demand). */
static int ensure_pinned(gpuc_t *g, size_t n, err_t *err)
{
    int rc;
    if (n > g->sc_n) {
        cudaFreeHost(g->pin);
        g->pin = NULL;
        g->sc_n = 0;
        if ((rc = gpuc_host_alloc(g, (void **)&g->pin, n * sizeof(fr_t), "MSM scalar staging", err)))
            return rc;
        g->sc_n = n;
    }
    if (!g->pin_ws && (rc = gpuc_host_alloc(g, &g->pin_ws, 256 * sizeof(g1_xyzz_t), "window sums", err)))
        return rc;
    return 0;
}

template <class K>
static int msm_g1_k(gpuc_t *g, void *wsum, const void *dev_bases, size_t n, unsigned c, size_t k,
                           size_t max_items, unsigned nbuf, size_t arena_off, gpuc_pack_fn pack, void *pack_arg,
                           err_t *err)
{
    int rc;
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)))
        return rc;
    gpu_msm_ws L0, L;
    gpu_msm_layout<K>(&L0, n, c, 0, max_items);
    cuda_backend b = {g, 0, cudaSuccess, ""};
    size_t scan_b, need;
    if ((rc = cub_scratch(g, L0, &b.sort_bytes, &scan_b, err)) || (rc = ensure_pinned(g, n, err)))
        return rc;
    gpu_msm_layout<K>(&L, n, c, b.sort_bytes, max_items);
    typedef typename K::fr F;
    const size_t sc_bytes = n * sizeof(F), ws_bytes = (size_t)L.nwin * sizeof(typename K::xyzz);
    need = arena_off + nbuf * GPU_AL256(sc_bytes) + L.total + GPU_AL256(scan_b);
    if (need > g->arena_bytes)
        return gm_err_set(err, GM_ENOMEM, "gpu: msm: %zu points need %zu bytes of the arena, it holds %zu (%s:%d)", n,
                          need, g->arena_bytes, __FILE__, __LINE__);
    /* The arena after the chunk: scalar buffers, workspace, scan scratch;
     * the tables that were there are gone. */
    g->tab_log = 0;
    F *dsc[2];
    dsc[0] = (F *)(g->arena + arena_off);
    dsc[1] = nbuf > 1 ? (F *)(g->arena + arena_off + GPU_AL256(sc_bytes)) : dsc[0];
    char *ws = g->arena + arena_off + nbuf * GPU_AL256(sc_bytes);
    g->scan_tmp = ws + L.total;
    g->scan_tmp_bytes = scan_b;
    /* MSM 0 has nothing to hide its packing behind but its own upload:
     * slice p goes up while slice p + 1 is packed. */
    for (size_t p = 0; p < GPU_PACK_SLICES; p++) {
        size_t lo, hi;
        pack(pack_arg, 0, g->pin, p, GPU_PACK_SLICES, &lo, &hi);
        if (hi > lo && (rc = GPU_CU(cudaMemcpyAsync(dsc[0] + lo, g->pin + lo, (hi - lo) * sizeof(F),
                                                    cudaMemcpyHostToDevice, g->copy), err)))
            return rc;
    }
    if ((rc = GPU_CU(cudaEventRecord(g->up[0], g->copy), err)))
        return rc;
    for (size_t j = 0; j < k; j++) {
        int s = (int)(j & 1);
        if ((rc = GPU_CU(cudaStreamWaitEvent(g->comp, g->up[s], 0), err)))
            return rc;
        b.note(cudaEventRecord(g->t0, g->comp), "cudaEventRecord");
        gpu_msm_windows<K>(b, L, ws, (const typename K::aff *)dev_bases, dsc[s], n);
        b.note(cudaEventRecord(g->t1, g->comp), "cudaEventRecord");
        g->timed = true;
        if ((rc = b.status(err)))
            return rc;
        if ((rc = GPU_CU(cudaMemcpyAsync(g->pin_ws, ws + L.wsum, ws_bytes, cudaMemcpyDeviceToHost, g->comp),
                         err)) ||
            (rc = GPU_CU(cudaEventRecord(g->done[s], g->comp), err)))
            return rc;
        if (j + 1 < k) {
            /* The staging buffer is free once upload j is done; pack j + 1
             * on this thread while the device computes MSM j. */
            if ((rc = GPU_CU(cudaEventSynchronize(g->up[s]), err)))
                return rc;
            size_t lo, hi;
            pack(pack_arg, j + 1, g->pin, 0, 1, &lo, &hi);
            /* The buffer of MSM j + 1 is free once the last MSM that read
             * it is done: MSM j - 1 with two buffers, MSM j with one. */
            if (nbuf > 1 && j >= 1 && (rc = GPU_CU(cudaStreamWaitEvent(g->copy, g->done[1 - s], 0), err)))
                return rc;
            if (nbuf == 1 && (rc = GPU_CU(cudaStreamWaitEvent(g->copy, g->done[s], 0), err)))
                return rc;
            if ((rc = GPU_CU(cudaMemcpyAsync(dsc[1 - s], g->pin, sc_bytes, cudaMemcpyHostToDevice, g->copy),
                             err)) ||
                (rc = GPU_CU(cudaEventRecord(g->up[1 - s], g->copy), err)))
                return rc;
        }
        if ((rc = GPU_CU(cudaEventSynchronize(g->done[s]), err)))
            return rc;
        memcpy((char *)wsum + j * ws_bytes, g->pin_ws, ws_bytes);
    }
    return 0;
}

extern "C" int gpuc_msm_g1(gpuc_t *g, gpu_curve_t kc, void *wsum, const void *dev_bases, size_t n, unsigned c,
                           size_t k, size_t max_items, unsigned nbuf, size_t arena_off, gpuc_pack_fn pack,
                           void *pack_arg, err_t *err)
{
    return kc == GPU_CURVE_BN254 ? msm_g1_k<gpu_bn254>(g, wsum, dev_bases, n, c, k, max_items, nbuf, arena_off,
                                                       pack, pack_arg, err)
                                 : msm_g1_k<gpu_bls12_381>(g, wsum, dev_bases, n, c, k, max_items, nbuf, arena_off,
                                                           pack, pack_arg, err);
}

/* ---- NTT ------------------------------------------------------------------------------------ */

/* The NTT's place in the arena: the tables at its start (twiddles, their
 * halves, the scale tables: gpu_plan_table_bytes), then `count` vectors of
 * n values. GM_ENOMEM when gpu.c did not make the arena large enough. */
template <class F> static int ntt_vectors(gpuc_t *g, size_t n, int count, size_t tab_bytes, F **v, err_t *err)
{
    const size_t vb = GPU_AL256(n * sizeof(F));
    if (tab_bytes + count * vb > g->arena_bytes)
        return gm_err_set(err, GM_ENOMEM, "gpu: ntt: %d vectors of %zu values and their tables need %zu bytes of the "
                          "arena, it holds %zu (%s:%d)", count, n, tab_bytes + count * vb, g->arena_bytes, __FILE__,
                          __LINE__);
    for (int i = 0; i < count; i++)
        v[i] = (F *)(g->arena + tab_bytes + i * vb);
    return 0;
}

/* Uploads the domain's tables into the arena's start when they are not
 * there (another size, or an MSM used the arena since): the n/2 twiddles
 * (generated on the device from gpu.c's hi/lo halves) and the four scale
 * tables. */
template <class F>
static int ensure_tables(gpuc_t *g, gpu_curve_t k, cuda_backend &b, const gpu_ntt_tabs_t *t, gpu_tabs_dev<F> *T,
                         err_t *err)
{
    int rc;
    const size_t half = (size_t)1 << (t->log_n - 1), nhi = GPU_SCALE_NHI(t->log_n), per = nhi + GPU_SCALE_NLO;
    F *tw = (F *)g->arena, *hl = (F *)(g->arena + GPU_AL256(half * sizeof(F)));
    F *scale = hl + GPU_AL256((t->tw_nhi + t->tw_nlo) * sizeof(F)) / sizeof(F);
    if (g->tab_log != t->log_n || g->tab_curve != k) {
        /* On `comp`, the stream gpu_twgen_fn runs on: a plain cudaMemcpy
         * goes to the legacy stream, which a cudaStreamNonBlocking stream
         * does not wait for, so the kernel could read the halves before
         * they land. The host tables (gpu.c's) outlive the synchronize
         * below. */
        if ((rc = GPU_CU(cudaMemcpyAsync(hl, t->tw_hi, t->tw_nhi * sizeof(F), cudaMemcpyHostToDevice, g->comp),
                         err)) ||
            (rc = GPU_CU(cudaMemcpyAsync(hl + t->tw_nhi, t->tw_lo, t->tw_nlo * sizeof(F), cudaMemcpyHostToDevice,
                                         g->comp), err)))
            return rc;
        gpu_twgen_fn<F> tg = {tw, hl, hl + t->tw_nhi, t->tw_lb};
        b.each(half, tg);
        if ((rc = GPU_CU(cudaStreamSynchronize(g->comp), err)) || (rc = b.status(err)))
            return rc;
        /* On `comp` as well, ahead of the kernels that read them; the host
         * tables stay in gpu.c's store until the size changes, which is
         * after this call's synchronize. */
        const gpu_scale_t *src[4] = {&t->g, &t->gn, &t->gin, &t->n1};
        for (int i = 0; i < 4; i++)
            if ((rc = GPU_CU(cudaMemcpyAsync(scale + i * per, src[i]->hi, nhi * sizeof(F), cudaMemcpyHostToDevice,
                                             g->comp), err)) ||
                (rc = GPU_CU(cudaMemcpyAsync(scale + i * per + nhi, src[i]->lo, GPU_SCALE_NLO * sizeof(F),
                                             cudaMemcpyHostToDevice, g->comp), err)))
                return rc;
        g->tab_log = t->log_n;
        g->tab_curve = k;
    }
    T->tw = tw;
    gpu_ntt_tabs<F> *dst[4] = {&T->g, &T->gn, &T->gin, &T->n1};
    for (int i = 0; i < 4; i++) {
        dst[i]->hi = scale + i * per;
        dst[i]->lo = scale + i * per + nhi;
    }
    return 0;
}

template <class F> static int ntt_k(gpuc_t *g, gpu_curve_t k, void *a, const gpu_ntt_tabs_t *t, int dir, err_t *err)
{
    int rc;
    const size_t n = (size_t)1 << t->log_n;
    cuda_backend b = {g, 0, cudaSuccess, ""};
    gpu_tabs_dev<F> T;
    F *v[2] = {NULL, NULL};
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)) ||
        (rc = ntt_vectors(g, n, 2, gpu_plan_table_bytes(t->log_n), v, err)) ||
        (rc = ensure_tables(g, k, b, t, &T, err)))
        return rc;
    F *x = v[0], *tmp = v[1];
    if ((rc = GPU_CU(cudaMemcpyAsync(x, a, n * sizeof(F), cudaMemcpyHostToDevice, g->comp), err)))
        return rc;
    b.note(cudaEventRecord(g->t0, g->comp), "cudaEventRecord");
    gpu_ntt_dir(b, &x, &tmp, t->log_n, T, dir);
    b.note(cudaEventRecord(g->t1, g->comp), "cudaEventRecord");
    g->timed = true;
    if ((rc = b.status(err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(a, x, n * sizeof(F), cudaMemcpyDeviceToHost, g->comp), err)))
        return rc;
    return GPU_CU(cudaStreamSynchronize(g->comp), err);
}

extern "C" int gpuc_ntt(gpuc_t *g, gpu_curve_t k, void *a, const gpu_ntt_tabs_t *t, int dir, err_t *err)
{
    return k == GPU_CURVE_BN254 ? ntt_k<gpu_bn254::fr>(g, k, a, t, dir, err)
                                : ntt_k<gpu_bls12_381::fr>(g, k, a, t, dir, err);
}

extern "C" int gpuc_h(gpuc_t *g, fr_t *a, const fr_t *bb, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z,
                      err_t *err)
{
    int rc;
    const size_t n = (size_t)1 << t->log_n, bytes = n * sizeof(fr_t);
    cuda_backend b = {g, 0, cudaSuccess, ""};
    typedef gpu_bls12_381::fr F;
    gpu_tabs_dev<F> T;
    F *v[4] = {NULL, NULL, NULL, NULL};
    if ((rc = GPU_CU(cudaSetDevice(g->dev), err)) ||
        (rc = ntt_vectors(g, n, 4, gpu_plan_table_bytes(t->log_n), v, err)) ||
        (rc = ensure_tables(g, GPU_CURVE_BLS12_381, b, t, &T, err)))
        return rc;
    if ((rc = GPU_CU(cudaMemcpyAsync(v[0], a, bytes, cudaMemcpyHostToDevice, g->comp), err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(v[1], bb, bytes, cudaMemcpyHostToDevice, g->comp), err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(v[2], c, bytes, cudaMemcpyHostToDevice, g->comp), err)))
        return rc;
    b.note(cudaEventRecord(g->t0, g->comp), "cudaEventRecord");
    gpu_h_run(b, v, t->log_n, T, (const F *)z);
    b.note(cudaEventRecord(g->t1, g->comp), "cudaEventRecord");
    g->timed = true;
    if ((rc = b.status(err)) ||
        (rc = GPU_CU(cudaMemcpyAsync(a, v[0], bytes, cudaMemcpyDeviceToHost, g->comp), err)))
        return rc;
    return GPU_CU(cudaStreamSynchronize(g->comp), err);
}
