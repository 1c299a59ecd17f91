/*
 * gpu/gpu.c — the C side of the CUDA backend: argument checks, the host
 * work around the kernels (density compaction of the scalars into the pinned
 * upload buffer, base conversion to the device layout, the NTT tables from
 * ff/, the final combination of the window sums with ec/: the curve-typed
 * parts from gpu_curve_shape.h, once per curve), and the dispatch to gpu_cuda.cu (or gpu_stub.c in a build without nvcc, whose
 * gpuc_create says "built without CUDA") or to the host emulation.
 *
 * Device memory: resident bases, and one arena (gpu.h, "device memory
 * plan") that the MSM and NTT calls share, since a context runs one call at
 * a time. With a plan (gpu_plan_apply) the arena is sized once for every
 * call; without one it grows to the largest call. An emulated device counts
 * both against GROTHMPI_EMU_MEM exactly as CUDA allocates them, so a plan
 * that would not fit a card fails on the emulated device the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu.h"
#include "gpu/gpu_internal.h"

/* The tables of one domain size, kept by the context for the last size and
 * curve used. */
typedef struct {
    unsigned log_n; /* 0: none */
    gpu_curve_t curve;
    void *mem;
    gpu_ntt_tabs_t t;
} gpu_tabs_store_t;

/* The host work that depends on the curve's types (gpu_curve_shape.h),
 * over untyped pointers to the curve's ff/ and ec/ types. */
typedef struct {
    size_t jac_bytes, xyzz_bytes, aff_bytes; /* g1_jac_t, g1_xyzz_t, g1_affine_t (or bn_'s) */
    void (*tabs_fill)(gpu_ntt_tabs_t *t, void *mem, unsigned log_n);
    void (*combine)(void *out, const void *wsum, unsigned c);
    void (*conv)(void *dst, const void *src, size_t i0, size_t n);
    void (*jac_set_inf)(void *out);
    void (*jac_add)(void *out, const void *part);
    void (*spoil_msm)(void *out);
    void (*spoil_ntt)(void *a);
} gpu_curve_ops_t;

#define GC_FR(x) fr_##x
#define GC_G1(x) g1_##x
#define GC_FR_ONE FR_ONE
#define GC_FR_GEN FR_GENERATOR
#define GC_G1_GEN G1_GENERATOR
#define GC_FN(x) x##_bls
#define GC_OPS ops_bls
#include "gpu/gpu_curve_shape.h"

#define GC_FR(x) bn_fr_##x
#define GC_G1(x) bn_g1_##x
#define GC_FR_ONE BN254_FR_ONE
#define GC_FR_GEN BN254_FR_GENERATOR
#define GC_G1_GEN BN254_G1_GENERATOR
#define GC_FN(x) x##_bn
#define GC_OPS ops_bn
#include "gpu/gpu_curve_shape.h"

static const gpu_curve_ops_t *curve_ops(gpu_curve_t k) { return k == GPU_CURVE_BN254 ? &ops_bn : &ops_bls; }

/* GROTHMPI_GPU_FAULT: what every call after the first `after` does. */
typedef enum { FAULT_NONE = 0, FAULT_OOM, FAULT_ERROR, FAULT_CORRUPT } fault_kind_t;

struct gpu_ctx {
    gpuc_t *g;   /* NULL for an emulated device */
    bool emu;
    int device;
    gpu_tabs_store_t tabs;
    fault_kind_t fault;
    uint64_t fault_after, calls;
    size_t resident, peak; /* device bytes: resident bases held; the most held at once */
    size_t arena;          /* device bytes of the arena (emulated: counted) */
    double last_ms;        /* emulated devices: host wall time of the last call */
    size_t emu_mem;        /* emulated devices: GROTHMPI_EMU_MEM bytes (0: no limit) */
    bool planned;          /* plan holds gpu_plan_apply's plan */
    gpu_plan_t plan;
    topo_pool_t *pool;     /* host work (packing, conversion); NULL: the calling thread */
};

/* Resident (host NULL: dev holds all n points) or streamed (host: the
 * caller's points, refilled chunk points at a time per MSM call into the
 * arena's start; on an emulated device into dev, host memory the arena
 * counts). */
struct gpu_g1_bases {
    gpu_ctx_t *ctx;
    gpu_curve_t curve;
    void *dev;
    size_t n;
    const void *host; /* g1_affine_t or bn_g1_affine_t */
    size_t chunk;
    void *stage;      /* CUDA: pinned staging of one chunk */
    size_t max_items; /* the MSMs' cap on a group's items, and their scalar buffers: from the plan */
    unsigned nbuf;
};

#define GPU_AL(x) (((x) + 255) & ~(size_t)255)

bool gpu_driver_seen(const char **why)
{
    static const char *const paths[] = {"/dev/nvidiactl", "/proc/driver/nvidia", "/dev/dxg"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (access(paths[i], F_OK) == 0)
            return true;
    if (why)
        *why = "gpu: no NVIDIA driver on this host (none of /dev/nvidiactl, /proc/driver/nvidia, /dev/dxg)";
    return false;
}

bool gpu_built_with_cuda(void)
{
#ifdef GM_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

static int no_ctx(err_t *err, const char *what)
{
    return gm_err_set(err, GM_ENOTSUP, "gpu: %s: no device context (gpu_init failed or was not called)", what);
}

/* ---- NTT tables ------------------------------------------------------------------------ */

static void tabs_free(gpu_tabs_store_t *s)
{
    gm_free(s->mem);
    memset(s, 0, sizeof *s);
}

/* The tables of 2^log_n of curve k in s (kept when s holds them already). */
static int tabs_build(gpu_tabs_store_t *s, gpu_curve_t k, unsigned log_n, err_t *err)
{
    if (s->log_n == log_n && s->curve == k)
        return 0;
    tabs_free(s);
    unsigned lh = log_n - 1; /* n/2 = 2^lh twiddles */
    unsigned lb = (lh + 1) / 2;
    size_t nlo = (size_t)1 << lb, nhi = (size_t)1 << (lh - lb);
    size_t total = nlo + nhi + 4 * (GPU_SCALE_NHI(log_n) + GPU_SCALE_NLO);
    s->mem = gm_alloc(total * GPU_FR_BYTES);
    if (!s->mem)
        return gm_err_set(err, GM_ENOMEM, "gpu: out of host memory for the NTT tables of 2^%u", log_n);
    s->t.log_n = log_n;
    s->t.tw_lb = lb;
    s->t.tw_nlo = nlo;
    s->t.tw_nhi = nhi;
    curve_ops(k)->tabs_fill(&s->t, s->mem, log_n);
    s->log_n = log_n;
    s->curve = k;
    return 0;
}

/* ---- MSM host work --------------------------------------------------------------------- */

unsigned gpu_msm_window(size_t n)
{
    unsigned lg = 0;
    while (lg < 63 && ((size_t)1 << lg) < n)
        lg++;
    int c = (int)lg - 8;
    return c < 4 ? 4 : (c > 16 ? 16 : (unsigned)c);
}

static size_t popcount_bits(const uint64_t *bm, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n / 64; i++)
        c += (size_t)__builtin_popcountll(bm[i]);
    if (n % 64)
        c += (size_t)__builtin_popcountll(bm[n / 64] & ((1ULL << (n % 64)) - 1));
    return c;
}

/* Scalars per task of the packing and conversion on the host pool: 2 MiB
 * of scalars, a multiple of 64 so that a task's density words are its own. */
#define GPU_HOST_BLOCK ((size_t)1 << 16)

typedef struct {
    uint8_t *dst;
    const uint8_t *src; /* 32-byte scalars of either curve */
    const uint64_t *density;
    const size_t *offs; /* density: the set bits before each block */
    size_t n, b0;       /* task t is block b0 + t */
} compact_job_t;

static void compact_range(uint8_t *dst, const uint8_t *src, const uint64_t *density, size_t i0, size_t i1)
{
    if (!density) {
        memcpy(dst, src + i0 * GPU_FR_BYTES, (i1 - i0) * GPU_FR_BYTES);
        return;
    }
    size_t o = 0;
    for (size_t i = i0; i < i1; i++)
        if ((density[i >> 6] >> (i & 63)) & 1)
            memcpy(dst + GPU_FR_BYTES * o++, src + GPU_FR_BYTES * i, GPU_FR_BYTES);
}

/* Block t of dst = the scalars whose density bit is set (all when density
 * is NULL): each block writes from its own offset, so blocks run on any
 * worker. */
static void compact_task(void *arg, size_t t, unsigned worker)
{
    (void)worker;
    const compact_job_t *j = arg;
    t += j->b0;
    size_t i0 = t * GPU_HOST_BLOCK, i1 = i0 + GPU_HOST_BLOCK < j->n ? i0 + GPU_HOST_BLOCK : j->n;
    compact_range(j->dst + GPU_FR_BYTES * (j->density ? j->offs[t] : i0), j->src, j->density, i0, i1);
}

/* offs[t] = the set bits of density before block t, t <= blocks of n. */
static void block_offsets(size_t *offs, const uint64_t *density, size_t n)
{
    size_t nb = (n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK, o = 0;
    for (size_t t = 0; t < nb; t++) {
        offs[t] = o;
        size_t i1 = (t + 1) * GPU_HOST_BLOCK < n ? (t + 1) * GPU_HOST_BLOCK : n;
        for (size_t w = t * GPU_HOST_BLOCK / 64; w < i1 / 64; w++)
            o += (size_t)__builtin_popcountll(density[w]);
        if (i1 % 64)
            o += (size_t)__builtin_popcountll(density[i1 / 64] & ((1ULL << (i1 % 64)) - 1));
    }
    offs[nb] = o;
}

/* Blocks [b0, b1) of dst = the scalars whose density bit is set (all when
 * density is NULL), each at its own offset, on pool (NULL: this thread);
 * offs from block_offsets when density is set (NULL: one block, b0 = 0). */
static void compact(void *dst, const void *src, const uint64_t *density, const size_t *offs, size_t n, size_t b0,
                    size_t b1, topo_pool_t *pool)
{
    if (density && !offs) {
        compact_range(dst, src, density, 0, n);
        return;
    }
    compact_job_t j = {dst, src, density, offs, n, b0};
    topo_pool_run(pool, b1 - b0, compact_task, &j);
}

typedef struct {
    gpu_curve_t k;
    void *dst;
    const void *src;
    size_t n;
} conv_job_t;

static void conv_task(void *arg, size_t t, unsigned worker)
{
    (void)worker;
    const conv_job_t *j = arg;
    size_t i0 = t * GPU_HOST_BLOCK, len = j->n - i0 < GPU_HOST_BLOCK ? j->n - i0 : GPU_HOST_BLOCK;
    curve_ops(j->k)->conv((uint8_t *)j->dst + i0 * gpu_base_bytes(j->k), j->src, i0, len);
}

/* The device layout of n points of curve k, on pool (NULL: this thread). */
static void to_dev(gpu_curve_t k, void *dst, const void *src, size_t n, topo_pool_t *pool)
{
    size_t nb = (n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK;
    if (!pool || nb <= 1) {
        curve_ops(k)->conv(dst, src, 0, n);
        return;
    }
    conv_job_t j = {k, dst, src, n};
    topo_pool_run(pool, nb, conv_task, &j);
}

static int check_window(unsigned window, err_t *err)
{
    if (window > MSM_WINDOW_MAX)
        return gm_err_set(err, GM_EINVAL, "gpu: msm: window %u is not in 0..%u", window, MSM_WINDOW_MAX);
    return 0;
}

/* ---- context ------------------------------------------------------------------------------ */

/* GROTHMPI_GPU_FAULT=oom|error|corrupt[:N]: the fault every call after the
 * first N (default 0) of this context injects. */
static int fault_parse(gpu_ctx_t *ctx, err_t *err)
{
    const char *e = getenv("GROTHMPI_GPU_FAULT");
    if (!e || !*e)
        return 0;
    static const char *const names[] = {"oom", "error", "corrupt"};
    for (int k = 0; k < 3; k++) {
        size_t l = strlen(names[k]);
        if (strncmp(e, names[k], l) != 0 || (e[l] != 0 && e[l] != ':'))
            continue;
        ctx->fault = (fault_kind_t)(k + 1);
        if (e[l] == ':') {
            char *end = NULL;
            unsigned long long n = strtoull(e + l + 1, &end, 10);
            if (!e[l + 1] || *end || e[l + 1] == '-')
                break;
            ctx->fault_after = n;
        }
        return 0;
    }
    return gm_err_set(err, GM_EINVAL, "gpu: GROTHMPI_GPU_FAULT: '%s' is not oom, error or corrupt, optionally "
                      "followed by :N (the calls that succeed first)", e);
}

/* Counts a call; returns the injected error when one is due (corrupt: 0,
 * *corrupt set, the caller spoils its result). */
static int fault_before(gpu_ctx_t *ctx, const char *what, bool *corrupt, err_t *err)
{
    *corrupt = false;
    ctx->calls++;
    if (ctx->fault == FAULT_NONE || ctx->calls <= ctx->fault_after)
        return 0;
    if (ctx->fault == FAULT_OOM)
        return gm_err_set(err, GM_ENOMEM, "gpu: %s: out of device memory (injected: GROTHMPI_GPU_FAULT=oom, call %llu)",
                          what, (unsigned long long)ctx->calls);
    if (ctx->fault == FAULT_ERROR)
        return gm_err_set(err, GM_EGPU, "gpu: %s: device error (injected: GROTHMPI_GPU_FAULT=error, "
                          "call %llu)", what, (unsigned long long)ctx->calls);
    *corrupt = true;
    return 0;
}

/* The device memory in use after a call: the emulation counts what it
 * holds (resident bases and the arena); CUDA asks the driver. */
static void note_mem(gpu_ctx_t *ctx)
{
    size_t used = ctx->resident + ctx->arena;
    if (!ctx->emu) {
        gpuc_info_t i;
        gpuc_info(&i, ctx->g);
        used = i.mem_total > i.mem_free ? i.mem_total - i.mem_free : 0;
    }
    if (used > ctx->peak)
        ctx->peak = used;
}

static int ctx_new(gpu_ctx_t **out, int device, err_t *err)
{
    *out = gm_calloc(1, sizeof **out);
    if (!*out)
        return gm_err_set(err, GM_ENOMEM, "gpu: out of memory for a context");
    (*out)->device = device < 0 ? 0 : device;
    int rc = fault_parse(*out, err);
    if (rc) {
        gm_free(*out);
        *out = NULL;
    }
    return rc;
}

int gpu_init(gpu_ctx_t **out, int device, err_t *err)
{
    *out = NULL;
    gpu_ctx_t *ctx;
    int rc = ctx_new(&ctx, device, err);
    if (rc)
        return rc;
    if ((rc = gpuc_create(&ctx->g, device, err))) {
        gm_free(ctx);
        return rc;
    }
    *out = ctx;
    return 0;
}

int gpu_emulated_device_count(unsigned *n, err_t *err)
{
    *n = 0;
    const char *e = getenv("GROTHMPI_EMU_DEVICES");
    if (!e || !*e)
        return 0;
    char *end = NULL;
    unsigned long v = strtoul(e, &end, 10);
    if (*end || e[0] == '-' || v < 1 || v > GPU_EMU_DEVICES_MAX)
        return gm_err_set(err, GM_EINVAL, "gpu: GROTHMPI_EMU_DEVICES: '%s' is not a device count in 1..%d", e,
                          GPU_EMU_DEVICES_MAX);
    *n = (unsigned)v;
    return 0;
}

int gpu_init_emulated(gpu_ctx_t **out, int device, err_t *err)
{
    *out = NULL;
    gpu_ctx_t *ctx;
    unsigned ndev;
    int rc = gpu_emulated_device_count(&ndev, err);
    if (rc)
        return rc;
    /* A node of ndev emulated devices refuses the others, as CUDA does. */
    if (ndev && device >= (int)ndev)
        return gm_err_set(err, GM_ENOTSUP, "gpu: emulated device %d asked for, %u present (GROTHMPI_EMU_DEVICES)",
                          device, ndev);
    if ((rc = ctx_new(&ctx, device, err)))
        return rc;
    ctx->emu = true;
    /* GROTHMPI_EMU_MEM=N[KMG]: the emulated device's memory, so that bases
     * that do not fit (and their streaming) can be tested. */
    const char *e = getenv("GROTHMPI_EMU_MEM");
    if (e && *e) {
        char *end = NULL;
        unsigned long long v = strtoull(e, &end, 10);
        unsigned sh = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
        if (sh)
            end++;
        if (!v || *end || e[0] == '-') {
            gm_free(ctx);
            return gm_err_set(err, GM_EINVAL, "gpu: GROTHMPI_EMU_MEM: '%s' is not a size (bytes, or N with K, M or "
                              "G)", e);
        }
        ctx->emu_mem = (size_t)v << sh;
    }
    *out = ctx;
    return 0;
}

bool gpu_is_emulated(const gpu_ctx_t *ctx) { return ctx && ctx->emu; }

size_t gpu_mem_peak(const gpu_ctx_t *ctx) { return ctx ? ctx->peak : 0; }

int gpu_device_count(int *n, err_t *err) { return gpuc_device_count(n, err); }

void gpu_destroy(gpu_ctx_t *ctx)
{
    if (!ctx)
        return;
    if (!ctx->emu)
        gpuc_destroy(ctx->g);
    tabs_free(&ctx->tabs);
    gm_free(ctx);
}

void gpu_info(gpu_info_t *out, gpu_ctx_t *ctx)
{
    gpuc_info_t i;
    memset(out, 0, sizeof *out);
    if (!ctx)
        return;
    if (ctx->emu) {
        snprintf(out->name, sizeof out->name, "emulated device %d (host threads)", ctx->device);
        out->device = ctx->device;
        return;
    }
    gpuc_info(&i, ctx->g);
    memcpy(out->name, i.name, sizeof out->name);
    out->name[sizeof out->name - 1] = 0;
    out->device = i.device;
    out->sm_count = i.sm_count;
    out->cc_major = i.cc_major;
    out->cc_minor = i.cc_minor;
    out->runtime_version = i.runtime_version;
    out->driver_version = i.driver_version;
    out->mem_total = i.mem_total;
    out->mem_free = i.mem_free;
}

/* ---- device memory ------------------------------------------------------------------------- */

#define GPU_STAGE_POINTS ((size_t)1 << 19) /* 48 MiB of 96-byte points (BN254: 32 MiB) per staging copy */

/* The smallest chunk a context streams unplanned (GPU_PLAN_MIN_CHUNK on a
 * GPU; 64 on an emulated device, so that tests can stream small sets). */
static size_t min_chunk(const gpu_ctx_t *ctx) { return ctx->emu ? 64 : GPU_PLAN_MIN_CHUNK; }

/* Device bytes that are free: the emulated limit minus what is held, or
 * the driver's count. */
static size_t dev_free(gpu_ctx_t *ctx)
{
    if (ctx->emu) {
        size_t held = ctx->resident + ctx->arena;
        return ctx->emu_mem ? (ctx->emu_mem > held ? ctx->emu_mem - held : 0) : SIZE_MAX;
    }
    gpuc_info_t i;
    gpuc_info(&i, ctx->g);
    return i.mem_free;
}

/* What a plan may use: the device's memory free now (other ranks or
 * processes may hold some) plus the arena this context holds, which the
 * plan's calls reuse; an emulated device without GROTHMPI_EMU_MEM has no
 * limit. */
static size_t dev_avail(gpu_ctx_t *ctx)
{
    size_t avail = dev_free(ctx), lim = SIZE_MAX / 4;
    return avail > lim - ctx->arena ? lim : avail + ctx->arena;
}

/* A device buffer of `bytes` for resident bases (emulated: host memory
 * within the limit). */
static int bases_alloc(gpu_ctx_t *ctx, void **p, size_t bytes, err_t *err)
{
    *p = NULL;
    if (!ctx->emu)
        return gpuc_malloc(ctx->g, p, bytes, "bases", err);
    if (ctx->emu_mem && ctx->resident + ctx->arena + bytes > ctx->emu_mem)
        return gm_err_set(err, GM_ENOMEM, "gpu: emulated device %d: %zu bytes of bases do not fit (%zu of %zu in use)",
                          ctx->device, bytes, ctx->resident + ctx->arena, ctx->emu_mem);
    if (!(*p = gm_alloc(bytes)))
        return gm_err_set(err, GM_ENOMEM, "gpu: emulated device %d: out of host memory for %zu bytes of bases",
                          ctx->device, bytes);
    return 0;
}

/* The arena at least `bytes` (what: the call, for the message). CUDA
 * allocates it; an emulated device counts it against GROTHMPI_EMU_MEM,
 * the emulation's own buffers being host memory. */
static int arena_ensure(gpu_ctx_t *ctx, size_t bytes, const char *what, err_t *err)
{
    if (bytes <= ctx->arena)
        return 0;
    if (ctx->emu) {
        if (ctx->emu_mem && ctx->resident + bytes > ctx->emu_mem)
            return gm_err_set(err, GM_ENOMEM, "gpu: emulated device %d: %s: %zu bytes of workspace do not fit beside "
                              "%zu bytes of resident bases (device: %zu bytes%s)", ctx->device, what, bytes,
                              ctx->resident, ctx->emu_mem, ctx->planned ? "; more than the plan's arena" : "");
    } else {
        int rc = gpuc_arena(ctx->g, bytes, err);
        if (rc) {
            ctx->arena = 0; /* freed before the failed allocation */
            return rc;
        }
    }
    ctx->arena = bytes;
    note_mem(ctx);
    return 0;
}

int gpu_plan_apply(gpu_ctx_t *ctx, gpu_plan_t *out, gpu_curve_t curve, const char *const *names,
                   const uint64_t *counts, size_t nsets, unsigned log_n, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "plan");
    gpu_plan_t p;
    int rc = gpu_plan(&p, curve, names, counts, nsets, log_n, dev_avail(ctx), ctx->emu ? 0 : GPU_PLAN_RESERVE,
                      min_chunk(ctx), err);
    if (rc)
        return rc;
    if (ctx->resident)
        return gm_err_set(err, GM_EINVAL, "gpu: plan: %zu bytes of bases are already resident: plan before the "
                          "uploads", ctx->resident);
    if ((rc = arena_ensure(ctx, p.arena, "plan", err)))
        return rc;
    ctx->plan = p;
    ctx->planned = true;
    if (out)
        *out = p;
    return 0;
}

const gpu_plan_t *gpu_ctx_plan(const gpu_ctx_t *ctx) { return ctx && ctx->planned ? &ctx->plan : NULL; }

int gpu_host_alloc(gpu_ctx_t *ctx, void **p, size_t bytes, err_t *err)
{
    *p = NULL;
    if (!ctx)
        return no_ctx(err, "host alloc");
    if (!ctx->emu)
        return gpuc_host_alloc(ctx->g, p, bytes, "host transfer buffer", err);
    if (!(*p = gm_alloc(bytes ? bytes : 1)))
        return gm_err_set(err, GM_ENOMEM, "gpu: out of host memory for %zu bytes", bytes);
    return 0;
}

void gpu_host_free(gpu_ctx_t *ctx, void *p)
{
    if (!ctx || !p)
        return;
    if (ctx->emu)
        gm_free(p);
    else
        gpuc_host_free(ctx->g, p);
}

void gpu_set_pool(gpu_ctx_t *ctx, topo_pool_t *pool)
{
    if (ctx)
        ctx->pool = pool;
}

/* ---- bases --------------------------------------------------------------------------------- */

/* Copies the m points of curve k at src to the device buffer dst (through
 * stage on CUDA). */
static int bases_put(gpu_ctx_t *ctx, gpu_curve_t k, void *dst, void *stage, size_t stage_pts, const void *src,
                     size_t m, err_t *err)
{
    if (ctx->emu) {
        to_dev(k, dst, src, m, ctx->pool);
        return 0;
    }
    const size_t bb = gpu_base_bytes(k), ab = curve_ops(k)->aff_bytes;
    for (size_t i = 0; i < m; i += stage_pts) {
        size_t c = m - i < stage_pts ? m - i : stage_pts;
        to_dev(k, stage, (const uint8_t *)src + i * ab, c, ctx->pool);
        int rc = gpuc_h2d(ctx->g, (uint8_t *)dst + i * bb, stage, c * bb, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* gpu_g1_bases_upload for curve k (bases: its affine points). */
static int bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, gpu_curve_t k, const void *bases, size_t n,
                        err_t *err)
{
    *out = NULL;
    if (!ctx)
        return no_ctx(err, "bases upload");
    if (n >= ((size_t)1 << 31))
        return gm_err_set(err, GM_EINVAL, "gpu: bases upload: %zu points, the limit is 2^31 - 1", n);
    if (ctx->planned && ctx->plan.curve != k)
        return gm_err_set(err, GM_EINVAL, "gpu: bases upload: the context's plan is for the other curve");
    gpu_g1_bases_t *b = gm_calloc(1, sizeof *b);
    if (!b)
        return gm_err_set(err, GM_ENOMEM, "gpu: out of memory");
    b->ctx = ctx;
    b->curve = k;
    b->n = n;
    const size_t bb = gpu_base_bytes(k);
    size_t np = n ? n : 1, chunk = np, bytes = np * bb;
    int rc = 0;
    err_t e2;
    gm_err_clear(&e2);
    /* Planned: resident while the plan's resident bytes last (the sets come
     * in the plan's order), else streamed in its chunks. Unplanned: this
     * set alone planned on what is free now (the arena counts as free: the
     * calls share it), so that its MSMs' workspace fits beside it too. */
    bool resident;
    if (ctx->planned) {
        resident = ctx->resident + bytes <= ctx->plan.bases_bytes;
        chunk = resident ? np : ctx->plan.chunk;
        b->max_items = ctx->plan.group_items;
        b->nbuf = ctx->plan.scalar_bufs;
    } else {
        gpu_plan_t p1;
        static const char *const nm[1] = {"bases"};
        const uint64_t cnt[1] = {np};
        rc = gpu_plan(&p1, k, nm, cnt, 1, 0, dev_avail(ctx), 0, min_chunk(ctx), &e2);
        resident = !rc && !p1.set[0].streamed;
        chunk = resident ? np : rc ? min_chunk(ctx) : p1.chunk;
        b->max_items = p1.group_items;
        b->nbuf = p1.scalar_bufs;
    }
    if (!rc && resident && (rc = bases_alloc(ctx, &b->dev, bytes, err))) {
        gm_free(b);
        return rc;
    }
    if (!resident) {
        if (chunk > np)
            chunk = np;
        if (!rc && !chunk)
            rc = gm_err_set(&e2, GM_ENOMEM, "the plan streams no set and has no resident bytes left");
        else if (!rc && !(rc = arena_ensure(ctx, GPU_AL(chunk * bb), "bases chunk", &e2)) && ctx->emu &&
                 !(b->dev = gm_alloc(chunk * bb)))
            rc = gm_err_set(&e2, GM_ENOMEM, "out of host memory");
        if (rc) {
            gm_err_set(err, rc, "gpu: bases upload: %zu points fit neither resident nor streamed in chunks of %zu "
                       "(%s)", n, chunk, e2.msg);
            gm_free(b);
            return rc;
        }
        b->host = bases;
        b->chunk = chunk;
    } else {
        ctx->resident += bytes;
    }
    size_t stage_pts = chunk < GPU_STAGE_POINTS ? chunk : GPU_STAGE_POINTS;
    if (!ctx->emu &&
        (rc = gpuc_host_alloc(ctx->g, &b->stage, stage_pts * bb, "bases staging", err)))
        goto fail;
    if (!b->host && (rc = bases_put(ctx, k, b->dev, b->stage, stage_pts, bases, n, err)))
        goto fail;
    if (!b->host && !ctx->emu) {
        gpuc_host_free(ctx->g, b->stage);
        b->stage = NULL;
    }
    note_mem(ctx);
    *out = b;
    return 0;
fail:
    gpu_g1_bases_free(b);
    return rc;
}

int gpu_g1_bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, const g1_affine_t *bases, size_t n, err_t *err)
{
    return bases_upload(out, ctx, GPU_CURVE_BLS12_381, bases, n, err);
}

int gpu_bn_g1_bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, const bn_g1_affine_t *bases, size_t n, err_t *err)
{
    return bases_upload(out, ctx, GPU_CURVE_BN254, bases, n, err);
}

void gpu_g1_bases_free(gpu_g1_bases_t *b)
{
    if (!b)
        return;
    if (b->dev && !b->host) {
        size_t bytes = (b->n ? b->n : 1) * gpu_base_bytes(b->curve);
        b->ctx->resident -= bytes < b->ctx->resident ? bytes : b->ctx->resident;
    }
    if (b->ctx->emu) {
        gm_free(b->dev);
    } else {
        gpuc_free(b->ctx->g, b->dev);
        gpuc_host_free(b->ctx->g, b->stage);
    }
    gm_free(b);
}

bool gpu_g1_bases_streamed(const gpu_g1_bases_t *b) { return b && b->host; }

gpu_curve_t gpu_g1_bases_curve(const gpu_g1_bases_t *b) { return b ? b->curve : GPU_CURVE_BLS12_381; }

size_t gpu_g1_bases_count(const gpu_g1_bases_t *b) { return b ? b->n : 0; }

/* ---- MSM ------------------------------------------------------------------------------------ */

typedef struct {
    const void *const *scalars; /* fr_t or bn_fr_t arrays */
    const uint64_t *density;
    const size_t *offs; /* block_offsets of density (NULL: one block) */
    size_t n, m;        /* scalars in, scalars out (the set bits) */
    topo_pool_t *pool;
} pack_arg_t;

/* Slice `part` of `parts`: a range of whole blocks of the input, so that
 * its compacted scalars are one range of the output. */
static void pack_scalars(void *arg, size_t j, void *dst, size_t part, size_t parts, size_t *lo, size_t *hi)
{
    const pack_arg_t *p = arg;
    size_t nb = p->offs || !p->density ? (p->n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK : 1;
    size_t b0 = part * nb / parts, b1 = (part + 1) * nb / parts;
    if (!p->density) {
        *lo = b0 * GPU_HOST_BLOCK < p->n ? b0 * GPU_HOST_BLOCK : p->n;
        *hi = b1 * GPU_HOST_BLOCK < p->n ? b1 * GPU_HOST_BLOCK : p->n;
    } else if (p->offs) {
        *lo = p->offs[b0];
        *hi = p->offs[b1];
    } else { /* one block */
        *lo = b0 ? p->m : 0;
        *hi = b1 ? p->m : 0;
    }
    if (b1 > b0)
        compact(dst, p->scalars[j], p->density, p->offs, p->n, b0, b1, p->pool);
}

/* The arena bytes an MSM of m points at window c over b needs after the
 * chunk. */
static int msm_bytes(gpu_ctx_t *ctx, const gpu_g1_bases_t *b, size_t m, unsigned c, size_t *bytes, err_t *err)
{
    if (ctx->emu) {
        *bytes = gpu_plan_msm_bytes(b->curve, m, c, b->max_items, b->nbuf);
        return 0;
    }
    return gpuc_msm_bytes(ctx->g, b->curve, m, c, b->max_items, b->nbuf, bytes, err);
}

/* The window sums of k MSMs of m points over the device bases dev (b's,
 * or its chunk), the scalars of MSM j written by pack(arg, j, dst): the
 * emulation or CUDA, in the arena after its first `off` bytes (the chunk
 * of streamed bases). */
static int msm_run(gpu_ctx_t *ctx, const gpu_g1_bases_t *b, void *ws, void *dev, size_t m, unsigned c, size_t k,
                   size_t off, gpuc_pack_fn pack, void *arg, err_t *err)
{
    size_t need;
    int rc;
    if ((rc = msm_bytes(ctx, b, m, c, &need, err)) || (rc = arena_ensure(ctx, off + need, "msm", err)))
        return rc;
    if (!ctx->emu) {
        rc = gpuc_msm_g1(ctx->g, b->curve, ws, dev, m, c, k, b->max_items, b->nbuf, off, pack, arg, err);
        note_mem(ctx);
        return rc;
    }
    uint64_t t0 = gm_now_ns();
    size_t wsb = (255 / c + 1) * curve_ops(b->curve)->xyzz_bytes;
    uint8_t *sc = gm_alloc(m * GPU_FR_BYTES);
    if (!sc)
        rc = gm_err_set(err, GM_ENOMEM, "gpu: emulated device %d: msm: out of memory for %zu scalars", ctx->device, m);
    gpue_set_host_field(true);
    for (size_t j = 0; !rc && j < k; j++) {
        size_t lo, hi, parts = j ? 1 : GPU_PACK_SLICES, next = 0;
        for (size_t p = 0; p < parts; p++) {
            pack(arg, j, sc, p, parts, &lo, &hi);
            GM_ASSERT(lo == next && hi >= lo);
            next = hi;
        }
        GM_ASSERT(next == m);
        if (gpue_msm_g1_windows(b->curve, (uint8_t *)ws + j * wsb, dev, sc, m, c, b->max_items))
            rc = gm_err_set(err, GM_ENOMEM, "gpu: emulated device %d: msm: out of memory for the workspace of "
                            "%zu points", ctx->device, m);
    }
    gm_free(sc);
    ctx->last_ms = (double)(gm_now_ns() - t0) * 1e-6;
    return rc;
}

/* Streamed bases: the scalars of chunk [c0, c0 + len) of each MSM. */
typedef struct {
    uint8_t *const *vec; /* 32-byte scalars */
    size_t c0, len;
} slice_arg_t;

static void pack_slice(void *arg, size_t j, void *dst, size_t part, size_t parts, size_t *lo, size_t *hi)
{
    const slice_arg_t *a = arg;
    *lo = part * a->len / parts;
    *hi = (part + 1) * a->len / parts;
    memcpy((uint8_t *)dst + *lo * GPU_FR_BYTES, a->vec[j] + (a->c0 + *lo) * GPU_FR_BYTES,
           (*hi - *lo) * GPU_FR_BYTES);
}

/* k MSMs over streamed bases: each chunk of points uploaded once into the
 * arena's start, its k partial MSMs run after it, their sums added into
 * out. The scalars are compacted into host arrays first (density) so that
 * a chunk's are contiguous. */
static int msm_streamed(gpu_ctx_t *ctx, void *out, const gpu_g1_bases_t *b, const void *const *scalars,
                        const uint64_t *density, const size_t *offs, size_t n, size_t k, unsigned window, err_t *err)
{
    const gpu_curve_ops_t *ops = curve_ops(b->curve);
    size_t m = b->n, off = GPU_AL(b->chunk * gpu_base_bytes(b->curve)), need;
    uint8_t **vec = gm_calloc(k, sizeof *vec);
    uint8_t *ws = gm_alloc(k * 256 * ops->xyzz_bytes); /* 255 / c + 1 <= 256 windows */
    int rc = 0;
    if (!vec || !ws)
        rc = gm_err_set(err, GM_ENOMEM, "gpu: msm: out of host memory");
    /* The whole arena first: growing it later would lose the chunk. */
    if (!rc && !(rc = msm_bytes(ctx, b, b->chunk, window ? window : gpu_msm_window(b->chunk), &need, err)))
        rc = arena_ensure(ctx, off + need, "msm", err);
    pack_arg_t pa = {scalars, density, offs, n, m, ctx->pool};
    for (size_t j = 0; !rc && j < k; j++) {
        size_t lo, hi;
        if (!density) {
            vec[j] = (uint8_t *)scalars[j]; /* only read (pack_slice) */
            continue;
        }
        if (!(vec[j] = gm_alloc(m * GPU_FR_BYTES)))
            rc = gm_err_set(err, GM_ENOMEM, "gpu: msm: out of host memory for %zu compacted scalars", m);
        else
            pack_scalars(&pa, j, vec[j], 0, 1, &lo, &hi);
    }
    for (size_t j = 0; !rc && j < k; j++)
        ops->jac_set_inf((uint8_t *)out + j * ops->jac_bytes);
    void *dev = ctx->emu ? b->dev : gpuc_arena_ptr(ctx->g);
    size_t stage_pts = b->chunk < GPU_STAGE_POINTS ? b->chunk : GPU_STAGE_POINTS;
    for (size_t c0 = 0; !rc && c0 < m; c0 += b->chunk) {
        size_t len = m - c0 < b->chunk ? m - c0 : b->chunk;
        unsigned c = window ? window : gpu_msm_window(len);
        unsigned nwin = 255 / c + 1;
        slice_arg_t sa = {vec, c0, len};
        if ((rc = bases_put(ctx, b->curve, dev, b->stage, stage_pts, (const uint8_t *)b->host + c0 * ops->aff_bytes,
                            len, err)) ||
            (rc = msm_run(ctx, b, ws, dev, len, c, k, off, pack_slice, &sa, err)))
            break;
        for (size_t j = 0; j < k; j++) {
            union {
                g1_jac_t bls;
                bn_g1_jac_t bn;
            } part;
            ops->combine(&part, ws + j * nwin * ops->xyzz_bytes, c);
            ops->jac_add((uint8_t *)out + j * ops->jac_bytes, &part);
        }
    }
    for (size_t j = 0; density && vec && j < k; j++)
        gm_free(vec[j]);
    gm_free(vec);
    gm_free(ws);
    return rc;
}

/* gpu_msm_g1 for curve kc (out, scalars: its types). */
static int msm_curve(gpu_ctx_t *ctx, gpu_curve_t kc, void *out, const gpu_g1_bases_t *bases,
                     const void *const *scalars, const uint64_t *density, size_t n, size_t k, unsigned window,
                     err_t *err)
{
    if (!ctx)
        return no_ctx(err, "msm");
    int rc = check_window(window, err);
    if (rc)
        return rc;
    const gpu_curve_ops_t *ops = curve_ops(kc);
    size_t m = density ? popcount_bits(density, n) : n;
    if (!bases || bases->n != m)
        return gm_err_set(err, GM_EINVAL, "gpu: msm: %zu resident bases, the scalars (with density) need %zu",
                          bases ? bases->n : 0, m);
    if (bases->curve != kc)
        return gm_err_set(err, GM_EINVAL, "gpu: msm: the bases are of the other curve");
    if (k == 0)
        return 0;
    if (m == 0) {
        for (size_t j = 0; j < k; j++)
            ops->jac_set_inf((uint8_t *)out + j * ops->jac_bytes);
        return 0;
    }
    bool corrupt;
    if ((rc = fault_before(ctx, "msm", &corrupt, err)))
        return rc;
    /* Where each block of the compacted scalars starts, so that the pool's
     * workers pack blocks independently and a slice of blocks is one range
     * of the upload. */
    size_t *offs = NULL;
    if (density && n > GPU_HOST_BLOCK) {
        if (!(offs = gm_alloc(((n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK + 1) * sizeof *offs)))
            return gm_err_set(err, GM_ENOMEM, "gpu: msm: out of host memory");
        block_offsets(offs, density, n);
    }
    if (bases->host) {
        rc = msm_streamed(ctx, out, bases, scalars, density, offs, n, k, window, err);
    } else {
        unsigned c = window ? window : gpu_msm_window(m);
        size_t wsb = (255 / c + 1) * ops->xyzz_bytes;
        uint8_t *ws = gm_alloc(k * wsb);
        if (!ws) {
            gm_free(offs);
            return gm_err_set(err, GM_ENOMEM, "gpu: msm: out of host memory");
        }
        pack_arg_t pa = {scalars, density, offs, n, m, ctx->pool};
        rc = msm_run(ctx, bases, ws, bases->dev, m, c, k, 0, pack_scalars, &pa, err);
        if (!rc)
            for (size_t j = 0; j < k; j++)
                ops->combine((uint8_t *)out + j * ops->jac_bytes, ws + j * wsb, c);
        gm_free(ws);
    }
    gm_free(offs);
    if (!rc && corrupt) /* a wrong sum, as a failing device might give: the proof's verification must catch it */
        ops->spoil_msm(out);
    return rc;
}

int gpu_msm_g1(gpu_ctx_t *ctx, g1_jac_t *out, const gpu_g1_bases_t *bases, const fr_t *const *scalars,
               const uint64_t *density, size_t n, size_t k, unsigned window, err_t *err)
{
    return msm_curve(ctx, GPU_CURVE_BLS12_381, out, bases, (const void *const *)scalars, density, n, k, window, err);
}

int gpu_bn_msm_g1(gpu_ctx_t *ctx, bn_g1_jac_t *out, const gpu_g1_bases_t *bases, const bn_fr_t *const *scalars,
                  const uint64_t *density, size_t n, size_t k, unsigned window, err_t *err)
{
    return msm_curve(ctx, GPU_CURVE_BN254, out, bases, (const void *const *)scalars, density, n, k, window, err);
}

/* gpu_emu_msm_g1 for curve kc (out, bases, scalars: its types). */
static int emu_msm(gpu_curve_t kc, void *out, const void *bases, const void *scalars, const uint64_t *density,
                   size_t n, unsigned window, err_t *err)
{
    int rc = check_window(window, err);
    if (rc)
        return rc;
    if (n >= ((size_t)1 << 31))
        return gm_err_set(err, GM_EINVAL, "gpu: emu msm: %zu points, the limit is 2^31 - 1", n);
    const gpu_curve_ops_t *ops = curve_ops(kc);
    size_t m = density ? popcount_bits(density, n) : n;
    if (m == 0) {
        ops->jac_set_inf(out);
        return 0;
    }
    unsigned c = window ? window : gpu_msm_window(m);
    void *sc = gm_alloc(m * GPU_FR_BYTES), *dev = gm_alloc(m * gpu_base_bytes(kc));
    void *ws = gm_alloc((255 / c + 1) * ops->xyzz_bytes);
    if (!sc || !dev || !ws) {
        rc = gm_err_set(err, GM_ENOMEM, "gpu: emu msm: out of memory for %zu points", m);
        goto done;
    }
    compact(sc, scalars, density, NULL, n, 0, (n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK, NULL);
    to_dev(kc, dev, bases, m, NULL);
    gpue_set_host_field(false);
    if ((rc = gpue_msm_g1_windows(kc, ws, dev, sc, m, c, gpue_msm_group_items_default()))) {
        rc = gm_err_set(err, rc, "gpu: emu msm: out of memory for the workspace of %zu points", m);
        goto done;
    }
    ops->combine(out, ws, c);
done:
    gm_free(sc);
    gm_free(dev);
    gm_free(ws);
    return rc;
}

int gpu_emu_msm_g1(g1_jac_t *out, const g1_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
                   unsigned window, err_t *err)
{
    return emu_msm(GPU_CURVE_BLS12_381, out, bases, scalars, density, n, window, err);
}

int gpu_emu_bn_msm_g1(bn_g1_jac_t *out, const bn_g1_affine_t *bases, const bn_fr_t *scalars, const uint64_t *density,
                      size_t n, unsigned window, err_t *err)
{
    return emu_msm(GPU_CURVE_BN254, out, bases, scalars, density, n, window, err);
}

void gpu_emu_fp_op(fp_t *o, const fp_t *a, const fp_t *b, char op) { gpue_fp_op(GPU_CURVE_BLS12_381, o, a, b, op); }

void gpu_emu_fr_op(fr_t *o, const fr_t *a, const fr_t *b, char op) { gpue_fr_op(GPU_CURVE_BLS12_381, o, a, b, op); }

void gpu_emu_bn_fp_op(bn_fp_t *o, const bn_fp_t *a, const bn_fp_t *b, char op)
{
    gpue_fp_op(GPU_CURVE_BN254, o, a, b, op);
}

void gpu_emu_bn_fr_op(bn_fr_t *o, const bn_fr_t *a, const bn_fr_t *b, char op)
{
    gpue_fr_op(GPU_CURVE_BN254, o, a, b, op);
}

/* ---- NTT ------------------------------------------------------------------------------------ */

static int check_log(unsigned log_n, int dir, err_t *err)
{
    if (log_n < 1 || log_n > 28)
        return gm_err_set(err, GM_EINVAL, "gpu: ntt: log size %u is not in 1..28", log_n);
    if (dir < 0 || dir > 3)
        return gm_err_set(err, GM_EINVAL, "gpu: ntt: direction %d is not one of gpu_ntt_dir_t", dir);
    return 0;
}

/* 1 / (g^n - 1): the inverse of Z on the coset. */
static void z_inv(fr_t *out, unsigned log_n)
{
    uint64_t e = (uint64_t)1 << log_n;
    fr_pow(out, &FR_GENERATOR, &e, 1);
    fr_sub(out, out, &FR_ONE);
    fr_inv(out, out);
}

/* gpu_ntt for curve k (a: its Fr values). */
static int ntt_curve(gpu_ctx_t *ctx, gpu_curve_t k, void *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "ntt");
    int rc = check_log(log_n, (int)dir, err);
    bool corrupt;
    if (rc || (rc = tabs_build(&ctx->tabs, k, log_n, err)) || (rc = fault_before(ctx, "ntt", &corrupt, err)) ||
        (rc = arena_ensure(ctx, gpu_plan_ntt_bytes(log_n, 2), "ntt", err)))
        return rc;
    if (ctx->emu) {
        uint64_t t0 = gm_now_ns();
        gpue_set_host_field(true);
        if ((rc = gpue_ntt(k, a, &ctx->tabs.t, (int)dir)))
            rc = gm_err_set(err, rc, "gpu: emulated device %d: ntt: out of memory at 2^%u", ctx->device, log_n);
        ctx->last_ms = (double)(gm_now_ns() - t0) * 1e-6;
    } else {
        rc = gpuc_ntt(ctx->g, k, a, &ctx->tabs.t, (int)dir, err);
        note_mem(ctx);
    }
    if (!rc && corrupt)
        curve_ops(k)->spoil_ntt(a);
    return rc;
}

int gpu_ntt(gpu_ctx_t *ctx, fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    return ntt_curve(ctx, GPU_CURVE_BLS12_381, a, log_n, dir, err);
}

int gpu_bn_ntt(gpu_ctx_t *ctx, bn_fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    return ntt_curve(ctx, GPU_CURVE_BN254, a, log_n, dir, err);
}

int gpu_groth16_h(gpu_ctx_t *ctx, fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "groth16 h");
    int rc = check_log(log_n, 0, err);
    if (rc || (rc = tabs_build(&ctx->tabs, GPU_CURVE_BLS12_381, log_n, err)))
        return rc;
    bool corrupt;
    if ((rc = fault_before(ctx, "groth16 h", &corrupt, err)) ||
        (rc = arena_ensure(ctx, gpu_plan_ntt_bytes(log_n, 4), "groth16 h", err)))
        return rc;
    fr_t z;
    z_inv(&z, log_n);
    if (ctx->emu) {
        uint64_t t0 = gm_now_ns();
        gpue_set_host_field(true);
        if ((rc = gpue_h(a, b, c, &ctx->tabs.t, &z)))
            rc = gm_err_set(err, rc, "gpu: emulated device %d: h: out of memory at 2^%u", ctx->device, log_n);
        ctx->last_ms = (double)(gm_now_ns() - t0) * 1e-6;
    } else {
        rc = gpuc_h(ctx->g, a, b, c, &ctx->tabs.t, &z, err);
        note_mem(ctx);
    }
    if (!rc && corrupt)
        fr_add(&a[0], &a[0], &FR_ONE);
    return rc;
}

double gpu_last_device_ms(gpu_ctx_t *ctx) { return !ctx ? 0 : ctx->emu ? ctx->last_ms : gpuc_last_ms(ctx->g); }

/* gpu_emu_ntt for curve k (a: its Fr values). */
static int emu_ntt(gpu_curve_t k, void *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    gpu_tabs_store_t s;
    memset(&s, 0, sizeof s);
    int rc = check_log(log_n, (int)dir, err);
    if (rc || (rc = tabs_build(&s, k, log_n, err)))
        return rc;
    gpue_set_host_field(false);
    if ((rc = gpue_ntt(k, a, &s.t, (int)dir)))
        rc = gm_err_set(err, rc, "gpu: emu ntt: out of memory at 2^%u", log_n);
    tabs_free(&s);
    return rc;
}

int gpu_emu_ntt(fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    return emu_ntt(GPU_CURVE_BLS12_381, a, log_n, dir, err);
}

int gpu_emu_bn_ntt(bn_fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    return emu_ntt(GPU_CURVE_BN254, a, log_n, dir, err);
}

int gpu_emu_groth16_h(fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
{
    gpu_tabs_store_t s;
    memset(&s, 0, sizeof s);
    int rc = check_log(log_n, 0, err);
    if (rc || (rc = tabs_build(&s, GPU_CURVE_BLS12_381, log_n, err)))
        return rc;
    fr_t z;
    z_inv(&z, log_n);
    gpue_set_host_field(false);
    if ((rc = gpue_h(a, b, c, &s.t, &z)))
        rc = gm_err_set(err, rc, "gpu: emu h: out of memory at 2^%u", log_n);
    tabs_free(&s);
    return rc;
}
