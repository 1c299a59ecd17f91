/*
 * groth16/backend.c — where the provers' G1 MSMs and NTTs run: on the CPU
 * (ec/), on a CUDA device (gpu/), or on an emulated device (gpu/'s host
 * emulation of the same kernels). The provers (prove.c, snarkjs_prove.c)
 * ask groth16_backend_active before each unit and fall back to the CPU for that unit
 * when a call fails or the proof it gave does not verify; after
 * GROTH16_BACKEND_MAX_FAILURES failures the backend is retired and every
 * later unit is proved on the CPU. Why one lock: the prepare stage (NTTs)
 * and the finish stage (MSMs) of a campaign run on two threads, and a gpu/
 * context is driven by one thread at a time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16_internal.h"

struct groth16_backend {
    groth16_backend_kind_t kind; /* resolved: never AUTO */
    gpu_ctx_t *ctx;              /* NULL for the CPU */
    topo_pool_t *side;           /* two workers: the device's G1 work and the CPU's G2 MSM at once */
    topo_pool_t *host;           /* the device's host work: scalar packing, base conversion */
    pthread_mutex_t mu;
    groth16_backend_stats_t st;
};

static const char *const kind_names[] = {"auto", "cpu", "cuda", "emulate"};

const char *groth16_backend_kind_name(groth16_backend_kind_t k)
{
    return (unsigned)k < 4 ? kind_names[k] : "?";
}

int groth16_backend_kind_parse(groth16_backend_kind_t *out, const char *s, const char *what, err_t *err)
{
    for (unsigned k = 0; k < 4; k++)
        if (s && strcmp(s, kind_names[k]) == 0) {
            *out = (groth16_backend_kind_t)k;
            return 0;
        }
    return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a backend (auto, cpu, cuda or emulate)", what, s ? s : "");
}

int groth16_backend_device_count(unsigned *n, groth16_backend_kind_t kind)
{
    *n = 0;
    if (kind == GROTH16_BACKEND_CPU)
        return 0;
    err_t e;
    if (kind == GROTH16_BACKEND_EMULATE) {
        /* Malformed: no limit here; opening the device names the error. */
        if (gpu_emulated_device_count(n, &e))
            *n = 0;
        return 0;
    }
    int c = 0;
    if (gpu_device_count(&c, &e) == 0 && c > 0)
        *n = (unsigned)c;
    return 0;
}

static int open_gpu(groth16_backend_t *be, int device, err_t *err)
{
    int rc = be->kind == GROTH16_BACKEND_EMULATE ? gpu_init_emulated(&be->ctx, device, err)
                                                 : gpu_init(&be->ctx, device, err);
    if (rc)
        return rc;
    gpu_info_t info;
    gpu_info(&info, be->ctx);
    if (be->kind == GROTH16_BACKEND_EMULATE)
        snprintf(be->st.name, sizeof be->st.name, "emulate:%d", info.device);
    else
        snprintf(be->st.name, sizeof be->st.name, "cuda:%d %s", info.device, info.name);
    be->st.device = info.device;
    be->st.mem_total = info.mem_total;
    rc = topo_pool_create_flat(&be->side, 2, err);
    if (rc || (rc = topo_pool_create_flat(&be->host, 0, err)))
        return rc;
    gpu_set_pool(be->ctx, be->host);
    return 0;
}

int groth16_backend_open(groth16_backend_t **out, groth16_backend_kind_t kind, int device, char *note,
                         size_t note_len, err_t *err)
{
    *out = NULL;
    if (note && note_len)
        note[0] = 0;
    if ((unsigned)kind > GROTH16_BACKEND_EMULATE)
        return gm_err_set(err, GM_EINVAL, "backend: kind %d is not a groth16_backend_kind_t", (int)kind);
    groth16_backend_t *be = gm_calloc(1, sizeof *be);
    if (!be)
        return gm_err_set(err, GM_ENOMEM, "backend: out of memory");
    pthread_mutex_init(&be->mu, NULL);
    be->st.device = -1;
    be->kind = kind == GROTH16_BACKEND_AUTO ? GROTH16_BACKEND_CUDA : kind;
    int rc = 0;
    const char *why;
    if (kind == GROTH16_BACKEND_AUTO && gpu_built_with_cuda() && !gpu_driver_seen(&why)) {
        /* auto on a host without a driver: the CUDA probe would only say so,
         * a few milliseconds later (cuda, asked by name, still probes). */
        if (note && note_len)
            snprintf(note, note_len, "backend auto: proving on the CPU (%s)", why);
        be->kind = GROTH16_BACKEND_CPU;
    }
    if (be->kind != GROTH16_BACKEND_CPU) {
        err_t e;
        gm_err_clear(&e);
        rc = open_gpu(be, device, &e);
        if (rc && kind == GROTH16_BACKEND_AUTO && rc == GM_ENOTSUP) {
            /* auto: no device is not an error; say why once. */
            if (note && note_len)
                snprintf(note, note_len, "backend auto: proving on the CPU (%s)", e.msg);
            gpu_destroy(be->ctx);
            be->ctx = NULL;
            be->kind = GROTH16_BACKEND_CPU;
            rc = 0;
        } else if (rc) {
            /* gpu/ says GM_ENOTSUP for no device, no driver or a build
             * without CUDA: to the caller who asked for cuda by name, all
             * are one status, so that it decides on the code, not the text. */
            if (rc == GM_ENOTSUP)
                gm_err_set(err, rc = GM_ENODEV, "backend %s: no usable CUDA device (%s)", kind_names[kind], e.msg);
            else
                gm_err_set(err, rc, "backend %s: %s", kind_names[kind], e.msg);
            groth16_backend_close(be);
            return rc;
        } else if (note && note_len && kind == GROTH16_BACKEND_AUTO) {
            snprintf(note, note_len, "backend auto: proving on %s (a CUDA device answered)", be->st.name);
        }
    }
    if (be->kind == GROTH16_BACKEND_CPU)
        snprintf(be->st.name, sizeof be->st.name, "cpu");
    *out = be;
    return 0;
}

void groth16_backend_close(groth16_backend_t *be)
{
    if (!be)
        return;
    topo_pool_destroy(be->side);
    gpu_destroy(be->ctx);
    topo_pool_destroy(be->host);
    pthread_mutex_destroy(&be->mu);
    gm_free(be);
}

groth16_backend_kind_t groth16_backend_kind(const groth16_backend_t *be)
{
    return be ? be->kind : GROTH16_BACKEND_CPU;
}

void groth16_backend_stats(groth16_backend_t *be, groth16_backend_stats_t *out)
{
    memset(out, 0, sizeof *out);
    if (!be)
        return;
    pthread_mutex_lock(&be->mu);
    *out = be->st;
    out->mem_peak = gpu_mem_peak(be->ctx);
    pthread_mutex_unlock(&be->mu);
}

/* ---- for the provers ------------------------------------------------------------------------ */

bool groth16_backend_active(groth16_backend_t *be)
{
    if (!be || !be->ctx)
        return false;
    pthread_mutex_lock(&be->mu);
    bool on = !be->st.retired;
    pthread_mutex_unlock(&be->mu);
    return on;
}

typedef struct {
    groth16_backend_t *be;
    const groth16_backend_msm_t *msm;
    size_t n;
    void (*cpu)(void *);
    void *cpu_arg;
    int rc;
    err_t *err;
} beside_t;

/* One batch of MSMs on the device (gpu_msm_g1 or gpu_bn_msm_g1, by the
 * bases' curve), its wall time added to the stats. */
static int device_msm(groth16_backend_t *be, const groth16_backend_msm_t *m, err_t *err)
{
    pthread_mutex_lock(&be->mu);
    uint64_t t0 = gm_now_ns();
    int rc = gpu_g1_bases_curve(m->bases) == GPU_CURVE_BN254
                 ? gpu_bn_msm_g1(be->ctx, m->out, m->bases, (const bn_fr_t *const *)m->scalars, m->density, m->n,
                                 m->k, 0, err)
                 : gpu_msm_g1(be->ctx, m->out, m->bases, (const fr_t *const *)m->scalars, m->density, m->n, m->k, 0,
                              err);
    uint64_t dt = gm_now_ns() - t0;
    be->st.busy_ns += dt;
    be->st.msm_ns += dt;
    pthread_mutex_unlock(&be->mu);
    return rc;
}

/* Task 0: the device's MSMs in order (stopping at the first failure);
 * task 1: the caller's CPU work. */
static void beside_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    beside_t *b = arg;
    if (task == 1) {
        b->cpu(b->cpu_arg);
        return;
    }
    for (size_t i = 0; i < b->n && !b->rc; i++) {
        const groth16_backend_msm_t *m = &b->msm[i];
        uint64_t t0 = gm_now_ns();
        b->rc = device_msm(b->be, m, b->err);
        if (m->ns)
            *m->ns += gm_now_ns() - t0;
    }
}

int groth16_backend_msm_beside(groth16_backend_t *be, const groth16_backend_msm_t *msm, size_t n,
                               void (*cpu)(void *arg), void *cpu_arg, err_t *err)
{
    beside_t b = {be, msm, n, cpu, cpu_arg, 0, err};
    topo_pool_run(be->side, 2, beside_task, &b);
    return b.rc;
}

int groth16_backend_upload(groth16_backend_t *be, gpu_g1_bases_t **out, const g1_affine_t *bases, size_t n, err_t *err)
{
    pthread_mutex_lock(&be->mu);
    int rc = gpu_g1_bases_upload(out, be->ctx, bases, n, err);
    pthread_mutex_unlock(&be->mu);
    return rc;
}

int groth16_backend_bn_upload(groth16_backend_t *be, gpu_g1_bases_t **out, const bn_g1_affine_t *bases, size_t n,
                              err_t *err)
{
    pthread_mutex_lock(&be->mu);
    int rc = gpu_bn_g1_bases_upload(out, be->ctx, bases, n, err);
    pthread_mutex_unlock(&be->mu);
    return rc;
}

void groth16_backend_free_bases(groth16_backend_t *be, gpu_g1_bases_t *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&be->mu);
    gpu_g1_bases_free(b);
    pthread_mutex_unlock(&be->mu);
}

/* One transform on the device (gpu_ntt; bn: gpu_bn_ntt), its wall time
 * added to the stats. */
static int device_ntt(groth16_backend_t *be, bool bn, void *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    pthread_mutex_lock(&be->mu);
    uint64_t t0 = gm_now_ns();
    int rc = bn ? gpu_bn_ntt(be->ctx, a, log_n, dir, err) : gpu_ntt(be->ctx, a, log_n, dir, err);
    uint64_t dt = gm_now_ns() - t0;
    be->st.busy_ns += dt;
    be->st.ntt_ns += dt;
    pthread_mutex_unlock(&be->mu);
    return rc;
}

int groth16_backend_ntt(groth16_backend_t *be, fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    return device_ntt(be, false, a, log_n, dir, err);
}

int groth16_backend_bn_ntt(groth16_backend_t *be, bn_fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
{
    return device_ntt(be, true, a, log_n, dir, err);
}

int groth16_backend_h(groth16_backend_t *be, fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
{
    pthread_mutex_lock(&be->mu);
    uint64_t t0 = gm_now_ns();
    int rc = gpu_groth16_h(be->ctx, a, b, c, log_n, err);
    uint64_t dt = gm_now_ns() - t0;
    be->st.busy_ns += dt;
    be->st.ntt_ns += dt;
    pthread_mutex_unlock(&be->mu);
    return rc;
}

int groth16_backend_plan(groth16_backend_t *be, gpu_plan_t *out, const char *const *names, const uint64_t *counts,
                         size_t nsets, unsigned log_n, err_t *err)
{
    pthread_mutex_lock(&be->mu);
    int rc = gpu_plan_apply(be->ctx, out, GPU_CURVE_BLS12_381, names, counts, nsets, log_n, err);
    pthread_mutex_unlock(&be->mu);
    return rc;
}

int groth16_backend_host_alloc(groth16_backend_t *be, void **p, size_t bytes, err_t *err)
{
    return gpu_host_alloc(be->ctx, p, bytes, err);
}

void groth16_backend_host_free(groth16_backend_t *be, void *p) { gpu_host_free(be ? be->ctx : NULL, p); }

void groth16_backend_failed(groth16_backend_t *be, const char *who, const err_t *e)
{
    pthread_mutex_lock(&be->mu);
    be->st.failures++;
    bool retire = !be->st.retired && be->st.failures >= GROTH16_BACKEND_MAX_FAILURES;
    if (retire)
        be->st.retired = true;
    uint64_t nf = be->st.failures;
    pthread_mutex_unlock(&be->mu);
    gm_log(GM_LOG_WARN, "backend %s: %s: %s; proving it on the CPU%s", be->st.name, who, e->msg,
           retire ? "" : " (failure counted)");
    if (retire)
        gm_log(GM_LOG_WARN, "backend %s: retired after %llu failures: the rest of the run proves on the CPU",
               be->st.name, (unsigned long long)nf);
}

void groth16_backend_unit(groth16_backend_t *be, bool fallback)
{
    pthread_mutex_lock(&be->mu);
    be->st.units++;
    if (fallback)
        be->st.fallbacks++;
    pthread_mutex_unlock(&be->mu);
}
