/*
 * gpu/gpu.c — the C side of the CUDA backend: argument checks, the host
 * work around the kernels (density compaction of the scalars into the pinned
 * upload buffer, base conversion to the 96-byte device layout, the NTT
 * tables from ff/, the final combination of the window sums with ec/), and
 * the dispatch to gpu_cuda.cu (or gpu_stub.c in a build without nvcc, whose
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

#include "gpu/gpu.h"
#include "gpu/gpu_internal.h"

/* The tables of one domain size, kept by the context for the last size used. */
typedef struct {
    unsigned log_n; /* 0: none */
    fr_t *mem;
    gpu_ntt_tabs_t t;
} gpu_tabs_store_t;

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
    void *dev;
    size_t n;
    const g1_affine_t *host;
    size_t chunk;
    void *stage;      /* CUDA: pinned staging of one chunk */
    size_t max_items; /* the MSMs' cap on a group's items, and their scalar buffers: from the plan */
    unsigned nbuf;
};

#define GPU_AL(x) (((x) + 255) & ~(size_t)255)

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

/* out[k] = base^k * s for k < count. */
static void powers(fr_t *out, const fr_t *base, const fr_t *s, size_t count)
{
    fr_t x = *s;
    for (size_t k = 0; k < count; k++) {
        out[k] = x;
        fr_mul(&x, &x, base);
    }
}

/* A scale table for factor(i) = x^i * s: lo[k] = x^k s, hi[m] = x^(4096 m). */
static void scale_tab(gpu_scale_t *t, fr_t *hi, fr_t *lo, const fr_t *x, const fr_t *s, size_t nhi)
{
    fr_t x4096;
    uint64_t e = GPU_SCALE_NLO;
    fr_pow(&x4096, x, &e, 1);
    powers(lo, x, s, GPU_SCALE_NLO);
    powers(hi, &x4096, &FR_ONE, nhi);
    t->hi = hi;
    t->lo = lo;
}

static int tabs_build(gpu_tabs_store_t *s, unsigned log_n, err_t *err)
{
    if (s->log_n == log_n)
        return 0;
    tabs_free(s);
    unsigned lh = log_n - 1; /* n/2 = 2^lh twiddles */
    unsigned lb = (lh + 1) / 2;
    size_t nlo = (size_t)1 << lb, nhi = (size_t)1 << (lh - lb);
    size_t shi = GPU_SCALE_NHI(log_n);
    size_t total = nlo + nhi + 4 * (shi + GPU_SCALE_NLO);
    s->mem = gm_alloc(total * sizeof(fr_t));
    if (!s->mem)
        return gm_err_set(err, GM_ENOMEM, "gpu: out of host memory for the NTT tables of 2^%u", log_n);
    fr_t *p = s->mem, w, wb, g, gi, n1, gn, gin, one_over;
    fr_root_of_unity(&w, log_n);
    uint64_t e = nlo;
    fr_pow(&wb, &w, &e, 1);
    s->t.log_n = log_n;
    s->t.tw_lb = lb;
    s->t.tw_nlo = nlo;
    s->t.tw_nhi = nhi;
    powers(p, &w, &FR_ONE, nlo);
    s->t.tw_lo = p;
    p += nlo;
    powers(p, &wb, &FR_ONE, nhi);
    s->t.tw_hi = p;
    p += nhi;
    g = FR_GENERATOR;
    fr_inv(&gi, &g);
    fr_set_u64(&n1, (uint64_t)1 << log_n);
    fr_inv(&one_over, &n1);
    gn = one_over;
    gin = one_over;
    scale_tab(&s->t.g, p, p + shi, &g, &FR_ONE, shi);
    p += shi + GPU_SCALE_NLO;
    scale_tab(&s->t.gn, p, p + shi, &g, &gn, shi);
    p += shi + GPU_SCALE_NLO;
    scale_tab(&s->t.gin, p, p + shi, &gi, &gin, shi);
    p += shi + GPU_SCALE_NLO;
    scale_tab(&s->t.n1, p, p + shi, &FR_ONE, &one_over, shi);
    s->log_n = log_n;
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
    fr_t *dst;
    const fr_t *src;
    const uint64_t *density;
    const size_t *offs; /* density: the set bits before each block */
    size_t n, b0;       /* task t is block b0 + t */
} compact_job_t;

static void compact_range(fr_t *dst, const fr_t *src, const uint64_t *density, size_t i0, size_t i1)
{
    if (!density) {
        memcpy(dst, src + i0, (i1 - i0) * sizeof(fr_t));
        return;
    }
    size_t o = 0;
    for (size_t i = i0; i < i1; i++)
        if ((density[i >> 6] >> (i & 63)) & 1)
            dst[o++] = src[i];
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
    compact_range(j->dst + (j->density ? j->offs[t] : i0), j->src, j->density, i0, i1);
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
static void compact(fr_t *dst, const fr_t *src, const uint64_t *density, const size_t *offs, size_t n, size_t b0,
                    size_t b1, topo_pool_t *pool)
{
    if (density && !offs) {
        compact_range(dst, src, density, 0, n);
        return;
    }
    compact_job_t j = {dst, src, density, offs, n, b0};
    topo_pool_run(pool, b1 - b0, compact_task, &j);
}

/* out = sum_w 2^(c w) wsum[w]: c doublings per window from the top. */
static void combine_windows(g1_jac_t *out, const g1_xyzz_t *wsum, unsigned c)
{
    unsigned nwin = 255 / c + 1;
    g1_xyzz_t acc = wsum[nwin - 1];
    for (unsigned w = nwin - 1; w-- > 0;) {
        for (unsigned i = 0; i < c; i++)
            g1_xyzz_dbl(&acc, &acc);
        g1_xyzz_add(&acc, &acc, &wsum[w]);
    }
    g1_xyzz_to_jac(out, &acc);
}

static void to_base96_range(gpu_base96_t *dst, const g1_affine_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (src[i].inf) {
            memset(&dst[i], 0, sizeof dst[i]);
        } else {
            dst[i].x = src[i].x;
            dst[i].y = src[i].y;
        }
    }
}

typedef struct {
    gpu_base96_t *dst;
    const g1_affine_t *src;
    size_t n;
} conv_job_t;

static void conv_task(void *arg, size_t t, unsigned worker)
{
    (void)worker;
    const conv_job_t *j = arg;
    size_t i0 = t * GPU_HOST_BLOCK, len = j->n - i0 < GPU_HOST_BLOCK ? j->n - i0 : GPU_HOST_BLOCK;
    to_base96_range(j->dst + i0, j->src + i0, len);
}

/* The 96-byte device layout of n points, on pool (NULL: this thread). */
static void to_base96(gpu_base96_t *dst, const g1_affine_t *src, size_t n, topo_pool_t *pool)
{
    size_t nb = (n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK;
    if (!pool || nb <= 1) {
        to_base96_range(dst, src, n);
        return;
    }
    conv_job_t j = {dst, src, n};
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

#define GPU_STAGE_POINTS ((size_t)1 << 19) /* 48 MiB of 96-byte points per staging copy */

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

int gpu_plan_apply(gpu_ctx_t *ctx, gpu_plan_t *out, const char *const *names, const uint64_t *counts, size_t nsets,
                   unsigned log_n, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "plan");
    gpu_plan_t p;
    int rc = gpu_plan(&p, names, counts, nsets, log_n, dev_avail(ctx), ctx->emu ? 0 : GPU_PLAN_RESERVE,
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

/* Copies points [i0, i0 + m) of src to the device buffer dst (through
 * stage on CUDA). */
static int bases_put(gpu_ctx_t *ctx, void *dst, void *stage, size_t stage_pts, const g1_affine_t *src, size_t m,
                     err_t *err)
{
    if (ctx->emu) {
        to_base96(dst, src, m, ctx->pool);
        return 0;
    }
    for (size_t i = 0; i < m; i += stage_pts) {
        size_t c = m - i < stage_pts ? m - i : stage_pts;
        to_base96(stage, src + i, c, ctx->pool);
        int rc = gpuc_h2d(ctx->g, (gpu_base96_t *)dst + i, stage, c * sizeof(gpu_base96_t), err);
        if (rc)
            return rc;
    }
    return 0;
}

int gpu_g1_bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, const g1_affine_t *bases, size_t n, err_t *err)
{
    *out = NULL;
    if (!ctx)
        return no_ctx(err, "bases upload");
    if (n >= ((size_t)1 << 31))
        return gm_err_set(err, GM_EINVAL, "gpu: bases upload: %zu points, the limit is 2^31 - 1", n);
    gpu_g1_bases_t *b = gm_calloc(1, sizeof *b);
    if (!b)
        return gm_err_set(err, GM_ENOMEM, "gpu: out of memory");
    b->ctx = ctx;
    b->n = n;
    size_t np = n ? n : 1, chunk = np, bytes = np * sizeof(gpu_base96_t);
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
        rc = gpu_plan(&p1, nm, cnt, 1, 0, dev_avail(ctx), 0, min_chunk(ctx), &e2);
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
        else if (!rc && !(rc = arena_ensure(ctx, GPU_AL(chunk * sizeof(gpu_base96_t)), "bases chunk", &e2)) &&
                 ctx->emu && !(b->dev = gm_alloc(chunk * sizeof(gpu_base96_t))))
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
        (rc = gpuc_host_alloc(ctx->g, &b->stage, stage_pts * sizeof(gpu_base96_t), "bases staging", err)))
        goto fail;
    if (!b->host && (rc = bases_put(ctx, b->dev, b->stage, stage_pts, bases, n, err)))
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

void gpu_g1_bases_free(gpu_g1_bases_t *b)
{
    if (!b)
        return;
    if (b->dev && !b->host) {
        size_t bytes = (b->n ? b->n : 1) * sizeof(gpu_base96_t);
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

size_t gpu_g1_bases_count(const gpu_g1_bases_t *b) { return b ? b->n : 0; }

/* ---- MSM ------------------------------------------------------------------------------------ */

typedef struct {
    const fr_t *const *scalars;
    const uint64_t *density;
    const size_t *offs; /* block_offsets of density (NULL: one block) */
    size_t n, m;        /* scalars in, scalars out (the set bits) */
    topo_pool_t *pool;
} pack_arg_t;

/* Slice `part` of `parts`: a range of whole blocks of the input, so that
 * its compacted scalars are one range of the output. */
static void pack_scalars(void *arg, size_t j, fr_t *dst, size_t part, size_t parts, size_t *lo, size_t *hi)
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
        *bytes = gpu_plan_msm_bytes(m, c, b->max_items, b->nbuf);
        return 0;
    }
    return gpuc_msm_bytes(ctx->g, m, c, b->max_items, b->nbuf, bytes, err);
}

/* The window sums of k MSMs of m points over the device bases dev (b's,
 * or its chunk), the scalars of MSM j written by pack(arg, j, dst): the
 * emulation or CUDA, in the arena after its first `off` bytes (the chunk
 * of streamed bases). */
static int msm_run(gpu_ctx_t *ctx, const gpu_g1_bases_t *b, g1_xyzz_t *ws, void *dev, size_t m, unsigned c, size_t k,
                   size_t off, gpuc_pack_fn pack, void *arg, err_t *err)
{
    size_t need;
    int rc;
    if ((rc = msm_bytes(ctx, b, m, c, &need, err)) || (rc = arena_ensure(ctx, off + need, "msm", err)))
        return rc;
    if (!ctx->emu) {
        rc = gpuc_msm_g1(ctx->g, ws, dev, m, c, k, b->max_items, b->nbuf, off, pack, arg, err);
        note_mem(ctx);
        return rc;
    }
    uint64_t t0 = gm_now_ns();
    unsigned nwin = 255 / c + 1;
    fr_t *sc = gm_alloc(m * sizeof(fr_t));
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
        if (gpue_msm_g1_windows(ws + j * nwin, dev, sc, m, c, b->max_items))
            rc = gm_err_set(err, GM_ENOMEM, "gpu: emulated device %d: msm: out of memory for the workspace of "
                            "%zu points", ctx->device, m);
    }
    gm_free(sc);
    ctx->last_ms = (double)(gm_now_ns() - t0) * 1e-6;
    return rc;
}

/* Streamed bases: the scalars of chunk [c0, c0 + len) of each MSM. */
typedef struct {
    fr_t *const *vec;
    size_t c0, len;
} slice_arg_t;

static void pack_slice(void *arg, size_t j, fr_t *dst, size_t part, size_t parts, size_t *lo, size_t *hi)
{
    const slice_arg_t *a = arg;
    *lo = part * a->len / parts;
    *hi = (part + 1) * a->len / parts;
    memcpy(dst + *lo, a->vec[j] + a->c0 + *lo, (*hi - *lo) * sizeof(fr_t));
}

/* k MSMs over streamed bases: each chunk of points uploaded once into the
 * arena's start, its k partial MSMs run after it, their sums added into
 * out. The scalars are compacted into host arrays first (density) so that
 * a chunk's are contiguous. */
static int msm_streamed(gpu_ctx_t *ctx, g1_jac_t *out, const gpu_g1_bases_t *b, const fr_t *const *scalars,
                        const uint64_t *density, const size_t *offs, size_t n, size_t k, unsigned window, err_t *err)
{
    size_t m = b->n, off = GPU_AL(b->chunk * sizeof(gpu_base96_t)), need;
    fr_t **vec = gm_calloc(k, sizeof *vec);
    g1_xyzz_t *ws = gm_alloc(k * 256 * sizeof(g1_xyzz_t)); /* 255 / c + 1 <= 256 windows */
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
            vec[j] = (fr_t *)scalars[j]; /* only read (pack_slice) */
            continue;
        }
        if (!(vec[j] = gm_alloc(m * sizeof(fr_t))))
            rc = gm_err_set(err, GM_ENOMEM, "gpu: msm: out of host memory for %zu compacted scalars", m);
        else
            pack_scalars(&pa, j, vec[j], 0, 1, &lo, &hi);
    }
    for (size_t j = 0; !rc && j < k; j++)
        g1_jac_set_inf(&out[j]);
    void *dev = ctx->emu ? b->dev : gpuc_arena_ptr(ctx->g);
    size_t stage_pts = b->chunk < GPU_STAGE_POINTS ? b->chunk : GPU_STAGE_POINTS;
    for (size_t c0 = 0; !rc && c0 < m; c0 += b->chunk) {
        size_t len = m - c0 < b->chunk ? m - c0 : b->chunk;
        unsigned c = window ? window : gpu_msm_window(len);
        unsigned nwin = 255 / c + 1;
        slice_arg_t sa = {vec, c0, len};
        if ((rc = bases_put(ctx, dev, b->stage, stage_pts, b->host + c0, len, err)) ||
            (rc = msm_run(ctx, b, ws, dev, len, c, k, off, pack_slice, &sa, err)))
            break;
        for (size_t j = 0; j < k; j++) {
            g1_jac_t part;
            combine_windows(&part, ws + j * nwin, c);
            g1_add(&out[j], &out[j], &part);
        }
    }
    for (size_t j = 0; density && vec && j < k; j++)
        gm_free(vec[j]);
    gm_free(vec);
    gm_free(ws);
    return rc;
}

int gpu_msm_g1(gpu_ctx_t *ctx, g1_jac_t *out, const gpu_g1_bases_t *bases, const fr_t *const *scalars,
               const uint64_t *density, size_t n, size_t k, unsigned window, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "msm");
    int rc = check_window(window, err);
    if (rc)
        return rc;
    size_t m = density ? popcount_bits(density, n) : n;
    if (!bases || bases->n != m)
        return gm_err_set(err, GM_EINVAL, "gpu: msm: %zu resident bases, the scalars (with density) need %zu",
                          bases ? bases->n : 0, m);
    if (k == 0)
        return 0;
    if (m == 0) {
        for (size_t j = 0; j < k; j++)
            g1_jac_set_inf(&out[j]);
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
        unsigned nwin = 255 / c + 1;
        g1_xyzz_t *ws = gm_alloc(k * nwin * sizeof(g1_xyzz_t));
        if (!ws) {
            gm_free(offs);
            return gm_err_set(err, GM_ENOMEM, "gpu: msm: out of host memory");
        }
        pack_arg_t pa = {scalars, density, offs, n, m, ctx->pool};
        rc = msm_run(ctx, bases, ws, bases->dev, m, c, k, 0, pack_scalars, &pa, err);
        if (!rc)
            for (size_t j = 0; j < k; j++)
                combine_windows(&out[j], ws + j * nwin, c);
        gm_free(ws);
    }
    gm_free(offs);
    if (!rc && corrupt) /* a wrong sum, as a failing device might give: the proof's verification must catch it */
        g1_add_mixed(&out[0], &out[0], &G1_GENERATOR);
    return rc;
}

int gpu_emu_msm_g1(g1_jac_t *out, const g1_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
                   unsigned window, err_t *err)
{
    int rc = check_window(window, err);
    if (rc)
        return rc;
    if (n >= ((size_t)1 << 31))
        return gm_err_set(err, GM_EINVAL, "gpu: emu msm: %zu points, the limit is 2^31 - 1", n);
    size_t m = density ? popcount_bits(density, n) : n;
    if (m == 0) {
        g1_jac_set_inf(out);
        return 0;
    }
    unsigned c = window ? window : gpu_msm_window(m);
    unsigned nwin = 255 / c + 1;
    fr_t *sc = gm_alloc(m * sizeof(fr_t));
    gpu_base96_t *b96 = gm_alloc(m * sizeof(gpu_base96_t));
    g1_xyzz_t *ws = gm_alloc(nwin * sizeof(g1_xyzz_t));
    if (!sc || !b96 || !ws) {
        rc = gm_err_set(err, GM_ENOMEM, "gpu: emu msm: out of memory for %zu points", m);
        goto done;
    }
    compact(sc, scalars, density, NULL, n, 0, (n + GPU_HOST_BLOCK - 1) / GPU_HOST_BLOCK, NULL);
    to_base96(b96, bases, m, NULL);
    gpue_set_host_field(false);
    if ((rc = gpue_msm_g1_windows(ws, b96, sc, m, c, gpue_msm_group_items_default()))) {
        rc = gm_err_set(err, rc, "gpu: emu msm: out of memory for the workspace of %zu points", m);
        goto done;
    }
    combine_windows(out, ws, c);
done:
    gm_free(sc);
    gm_free(b96);
    gm_free(ws);
    return rc;
}

void gpu_emu_fp_op(fp_t *o, const fp_t *a, const fp_t *b, char op) { gpue_fp_op(o, a, b, op); }

void gpu_emu_fr_op(fr_t *o, const fr_t *a, const fr_t *b, char op) { gpue_fr_op(o, a, b, op); }

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

int gpu_ntt(gpu_ctx_t *ctx, fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "ntt");
    int rc = check_log(log_n, (int)dir, err);
    bool corrupt;
    if (rc || (rc = tabs_build(&ctx->tabs, log_n, err)) || (rc = fault_before(ctx, "ntt", &corrupt, err)) ||
        (rc = arena_ensure(ctx, gpu_plan_ntt_bytes(log_n, 2), "ntt", err)))
        return rc;
    if (ctx->emu) {
        uint64_t t0 = gm_now_ns();
        gpue_set_host_field(true);
        if ((rc = gpue_ntt(a, &ctx->tabs.t, (int)dir)))
            rc = gm_err_set(err, rc, "gpu: emulated device %d: ntt: out of memory at 2^%u", ctx->device, log_n);
        ctx->last_ms = (double)(gm_now_ns() - t0) * 1e-6;
    } else {
        rc = gpuc_ntt(ctx->g, a, &ctx->tabs.t, (int)dir, err);
        note_mem(ctx);
    }
    if (!rc && corrupt)
        fr_add(&a[0], &a[0], &FR_ONE);
    return rc;
}

int gpu_groth16_h(gpu_ctx_t *ctx, fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
{
    if (!ctx)
        return no_ctx(err, "groth16 h");
    int rc = check_log(log_n, 0, err);
    if (rc || (rc = tabs_build(&ctx->tabs, log_n, err)))
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

int gpu_emu_ntt(fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    gpu_tabs_store_t s;
    memset(&s, 0, sizeof s);
    int rc = check_log(log_n, (int)dir, err);
    if (rc || (rc = tabs_build(&s, log_n, err)))
        return rc;
    gpue_set_host_field(false);
    if ((rc = gpue_ntt(a, &s.t, (int)dir)))
        rc = gm_err_set(err, rc, "gpu: emu ntt: out of memory at 2^%u", log_n);
    tabs_free(&s);
    return rc;
}

int gpu_emu_groth16_h(fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
{
    gpu_tabs_store_t s;
    memset(&s, 0, sizeof s);
    int rc = check_log(log_n, 0, err);
    if (rc || (rc = tabs_build(&s, log_n, err)))
        return rc;
    fr_t z;
    z_inv(&z, log_n);
    gpue_set_host_field(false);
    if ((rc = gpue_h(a, b, c, &s.t, &z)))
        rc = gm_err_set(err, rc, "gpu: emu h: out of memory at 2^%u", log_n);
    tabs_free(&s);
    return rc;
}
