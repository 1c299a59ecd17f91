/*
 * groth16/prove.c — the CPU prover, bellperson's prover.rs step by step, in
 * two stages so that a campaign can overlap them (mpi/pipeline.c):
 *
 * prepare (groth16_prepare), per witness, into a prepared unit:
 *   a, b = A·z, B·z (synth's sparse product, zero-padded to m), each through
 *      iNTT then coset NTT, multiplied pointwise into a's buffer (the unit's
 *      h); c = C·z (the exact product) into b's freed buffer, iNTT, coset
 *      NTT; h = (a·b − c) / Z(g) (Z(x) = x^m − 1 is the constant g^m − 1 on
 *      the coset g<w>); coset iNTT; the first m − 1 coefficients are the H
 *      scalars. Two m-vectors are alive at once, not three: the peak of one
 *      partition is z (32 B per variable) + 2 × 32 B per domain row, and the
 *      unit keeps z and h only (bench/README.md "bench synth").
 * finish (groth16_finish), per batch of k units against the shared bases:
 *   MSMs: A and B (G1, G2) over z with the shape's column densities (the
 *      params hold only the non-empty columns), L over aux, H over h;
 *   A = alpha + sum_A + r delta, B = beta + sum_B2 + s delta,
 *   C = s sum_A + r sum_B1 + rs delta + s alpha + r beta + sum_H + sum_L;
 *   then the pairing check against the vk (unless NO_VERIFY).
 * groth16_prove is prepare + finish for one witness at a time. With a
 * device whose plan runs h whole, prepare makes a, b, c in one pass (three
 * m-vectors, b and c in the prover's pinned buffers) and h in one device
 * call (make_h_whole); otherwise the transforms go one at a time.
 *
 * The prover owns what the stages share, sized at creation: the density
 * bitmaps, the NTT domain, the prepare stage's second m-vector and NTT
 * scratch (one prepare at a time), and the MSM scratch (one finish at a
 * time); a prepare and a finish may run at once, on two different pools.
 * The params' bases are shared and only read.
 */
#include <string.h>

#include "groth16/groth16_internal.h"
#include "ntt/ntt.h"

/* The MSM stage and the transforms' device switch, one for every prover
 * (groth16/sums_shape.h), with compact witnesses and streamed parameters. */
#define SS_FR(x) fr_##x
#define SS_G1(x) g1_##x
#define SS_G2(x) g2_##x
#define SS_MSM(g) msm_##g
#define SS_NTT(x) ntt_##x
#define SS_DEVICE
#define SS_BE(x) groth16_backend_##x
#define SS_KEYFILE
#include "groth16/sums_shape.h"

struct groth16_prover {
    const groth16_params_t *params;
    const cs_shape_t *shape;
    groth16_pvk_t pvk;
    unsigned log_m;
    uint64_t m, nv;
    uint64_t *da, *db;         /* densities of A and B over z */
    uint64_t *da_aux, *db_aux; /* the same over aux alone (da, db shifted by n_inputs) */
    uint64_t na_in, nb_in;     /* set bits of da, db below n_inputs: the aux bases start there */
    ntt_domain_t *dom;
    void *ntt_scratch;   /* sized for ntt_workers workers */
    unsigned ntt_workers;
    fr_t *work;          /* prepare's second m-vector: b, then c */
    void *msm_scratch;
    void *gather;        /* compact witnesses: bases of a chunk of dense values (witness.c) */
    size_t gather_sz;    /* its bytes; made by gather_ready unless streamed */
    unsigned msm_workers;
    fr_t zinv; /* 1 / (g^m - 1) */
    size_t memory;
    groth16_backend_t *be;  /* NULL: the CPU */
    gpu_g1_bases_t *gb[SUM_G1]; /* resident bases of A (aux), B1 (aux), L, H; NULL: that MSM on the CPU */
    fr_t *hbuf[2];          /* the device plan's h is whole: b and c in the backend's (pinned) host memory */
    bool cpu_h;             /* no device plan fits: h on the CPU too */
    g16_stream_buf_t sbuf;  /* streamed parameters: one chunk of bases (stream.c) */
};

/* A prepared unit: h (m values; the first m - 1 are the H scalars) and the
 * witness it was prepared from (the caller's, not copied: z is the largest
 * thing a proof holds after h). full: prepare succeeded, finish may use it. */
struct groth16_prepared {
    fr_t *h;
    uint64_t nv, m;
    groth16_witness_t w;
    bool full;
    bool h_on_device; /* h came from a device: recomputed on the CPU if the proof fails */
    bool fell_back;   /* the device failed while making h: h was made again on the CPU */
};

static void device_free(groth16_prover_t *pv)
{
    bases_free(pv->be, pv->gb);
    for (int i = 0; i < 2; i++) {
        if (pv->be)
            groth16_backend_host_free(pv->be, pv->hbuf[i]);
        pv->hbuf[i] = NULL;
    }
}

void groth16_prover_destroy(groth16_prover_t *pv)
{
    if (!pv)
        return;
    device_free(pv);
    groth16_pvk_free(&pv->pvk);
    gm_free(pv->da);
    gm_free(pv->db);
    gm_free(pv->da_aux);
    gm_free(pv->db_aux);
    ntt_domain_destroy(pv->dom);
    gm_free(pv->ntt_scratch);
    gm_free(pv->work);
    gm_free(pv->msm_scratch);
    gm_free(pv->gather);
    g16_stream_buf_free(&pv->sbuf);
    gm_free(pv);
}

size_t groth16_prover_memory(const groth16_prover_t *pv) { return pv->memory; }

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

/* The density bits [n_in, n_in + n_aux) of d as a bitmap of its own (*out,
 * gm_calloc'd; NULL when out of memory), and the set bits below n_in. */
static uint64_t density_split(uint64_t **out, const uint64_t *d, uint64_t n_in, uint64_t n_aux)
{
    uint64_t below = 0;
    for (uint64_t j = 0; j < n_in; j++)
        below += g16_bit(d, j);
    *out = gm_calloc((size_t)(n_aux / 64 + 1), sizeof(uint64_t));
    if (*out)
        for (uint64_t j = 0; j < n_aux; j++)
            (*out)[j >> 6] |= (uint64_t)g16_bit(d, n_in + j) << (j & 63);
    return below;
}

/* The parameters' counts against the shape's. */
static int counts_check(const groth16_params_t *params, const cs_shape_t *shape, err_t *err)
{
    groth16_counts_t need;
    int rc;
    if ((rc = groth16_shape_counts(&need, shape, err)))
        return rc;
    const groth16_counts_t *have = &params->n;
    static const char *const names[6] = {"ic", "h", "l", "a", "b_g1", "b_g2"};
    const uint64_t hv[6] = {have->ic, have->h, have->l, have->a, have->b_g1, have->b_g2};
    const uint64_t nd[6] = {need.ic, need.h, need.l, need.a, need.b_g1, need.b_g2};
    for (int i = 0; i < 6; i++)
        if (hv[i] != nd[i])
            return gm_err_set(err, GM_EINVAL, "prover: parameters: section %s: %llu points, the circuit needs %llu",
                              names[i], (unsigned long long)hv[i], (unsigned long long)nd[i]);
    return 0;
}

/* What finish needs: the prepared vk, the densities and the MSM scratch. */
static int finish_init(groth16_prover_t *pv, unsigned nw, err_t *err)
{
    const cs_shape_t *shape = pv->shape;
    int rc;
    if ((rc = groth16_pvk_prepare(&pv->pvk, &pv->params->vk, err)))
        return rc;
    g16_density(&pv->da, shape, 0);
    g16_density(&pv->db, shape, 1);
    if (!pv->da || !pv->db)
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory for the density bitmaps");
    /* Inputs always take part in A (their input constraints). */
    for (uint64_t j = 0; j < shape->n_inputs; j++)
        pv->da[j >> 6] |= 1ULL << (j & 63);
    /* The MSMs over z run as inputs + aux, two calls each, since z is the
     * caller's witness (two arrays), not a copy. */
    pv->na_in = density_split(&pv->da_aux, pv->da, shape->n_inputs, shape->n_aux);
    pv->nb_in = density_split(&pv->db_aux, pv->db, shape->n_inputs, shape->n_aux);
    pv->msm_workers = nw;
    size_t nmax = (size_t)max_sz(max_sz(pv->nv, shape->n_aux), pv->m - 1), nin = (size_t)shape->n_inputs;
    size_t n2 = (size_t)pv->nv;
    if (groth16_params_streamed(pv->params)) {
        /* one chunk of columns at a time (stream.c) */
        if ((rc = g16_stream_buf_init(&pv->sbuf, err)))
            return rc;
        pv->memory += g16_stream_buf_bytes();
        nmax = (size_t)max_sz(pv->sbuf.chunk_g1, nin) < nmax ? (size_t)max_sz(pv->sbuf.chunk_g1, nin) : nmax;
        n2 = (size_t)max_sz(pv->sbuf.chunk_g2, nin) < n2 ? (size_t)max_sz(pv->sbuf.chunk_g2, nin) : n2;
    }
    size_t msm_sz = max_sz(max_sz(msm_g1_scratch_size(nmax, nw, 0), msm_g2_scratch_size(n2, nw, 0)),
                           max_sz(msm_g1_scratch_size(nin, nw, 0), msm_g2_scratch_size(nin, nw, 0)));
    pv->msm_scratch = gm_alloc(msm_sz);
    /* The gather buffer serves streamed parameters and compact witnesses
     * only: made now for the first, at the first compact witness for the
     * second (gather_ready), counted in the prover's memory either way. */
    pv->gather_sz = g16_gather_bytes(shape->n_aux);
    if (groth16_params_streamed(pv->params))
        pv->gather = gm_alloc(pv->gather_sz);
    if (!pv->da_aux || !pv->db_aux || !pv->msm_scratch || (groth16_params_streamed(pv->params) && !pv->gather))
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory for the MSM scratch of a 2^%u domain", pv->log_m);
    pv->memory += msm_sz + pv->gather_sz;
    return 0;
}

/* pv->gather made if units[0..k) hold a compact witness and it is not yet.
 * Returns 0 or GM_ENOMEM. */
static int gather_ready(groth16_prover_t *pv, groth16_prepared_t *const *units, size_t k, err_t *err)
{
    for (size_t i = 0; i < k && !pv->gather; i++)
        if (units[i]->w.aux_compact && !(pv->gather = gm_alloc(pv->gather_sz)))
            return gm_err_set(err, GM_ENOMEM, "prover: out of memory for the compact witness's gather buffer "
                              "(%zu bytes)", pv->gather_sz);
    return 0;
}

int groth16_prover_create(groth16_prover_t **out, const groth16_params_t *params, const cs_shape_t *shape,
                          topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    int rc;
    if (params && (rc = counts_check(params, shape, err)))
        return rc;
    groth16_prover_t *pv = gm_calloc(1, sizeof *pv);
    if (!pv)
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory");
    pv->params = params;
    pv->shape = shape;
    if ((rc = g16_domain_of(&pv->log_m, shape, err)))
        goto fail;
    pv->m = 1ULL << pv->log_m;
    pv->nv = shape->n_inputs + shape->n_aux;
    if ((rc = ntt_domain_create(&pv->dom, pv->log_m, err)))
        goto fail;
    unsigned nw = topo_pool_size(pool);
    pv->ntt_workers = nw;
    size_t ntt_sz = ntt_scratch_size(pv->dom, nw) + 64;
    pv->ntt_scratch = gm_alloc(ntt_sz);
    pv->work = gm_alloc((size_t)pv->m * sizeof(fr_t));
    if (!pv->ntt_scratch || !pv->work) {
        rc = gm_err_set(err, GM_ENOMEM, "prover: out of memory for the scratch of a 2^%u domain", pv->log_m);
        goto fail;
    }
    pv->memory = ntt_sz + (size_t)pv->m * sizeof(fr_t);
    if (params && (rc = finish_init(pv, nw, err)))
        goto fail;
    fr_t gm;
    fr_pow(&gm, &FR_GENERATOR, &pv->m, 1);
    fr_sub(&gm, &gm, &FR_ONE);
    fr_inv(&pv->zinv, &gm);
    *out = pv;
    return 0;
fail:
    groth16_prover_destroy(pv);
    return rc;
}

void groth16_prover_set_backend(groth16_prover_t *pv, groth16_backend_t *be)
{
    device_free(pv);
    pv->be = be;
    pv->cpu_h = false;
    const groth16_params_t *pp = pv->params;
    if (!pp || !groth16_backend_active(be))
        return;
    if (groth16_params_streamed(pp)) {
        gm_log(GM_LOG_WARN, "prover: streamed parameters: every MSM and h on the CPU (the device takes resident "
               "bases)");
        pv->cpu_h = true;
        return;
    }
    static const char *const names[SUM_G1] = {"A", "B1", "L", "H"};
    const g1_affine_t *const p[SUM_G1] = {pp->a + pv->na_in, pp->b_g1 + pv->nb_in, pp->l, pp->h};
    const uint64_t n[SUM_G1] = {pp->n.a - pv->na_in, pp->n.b_g1 - pv->nb_in, pp->n.l, pp->n.h};
    /* The device's memory planned for these sets and this domain before
     * anything is uploaded (gpu.h): which sets stay resident, the chunks of
     * the others, how h runs. */
    gpu_plan_t plan;
    err_t e;
    if (groth16_backend_plan(be, &plan, names, n, SUM_G1, pv->log_m, &e)) {
        gm_log(GM_LOG_WARN, "prover: no device memory plan for these parameters (%s): every G1 MSM and h on the CPU",
               e.msg);
        pv->cpu_h = true;
        return;
    }
    /* h whole on the device: b and c in host memory the device copies at
     * full speed (pinned), a in the unit's h; one upload of the three and
     * one download of h. */
    for (int i = 0; plan.h == GPU_PLAN_H_WHOLE && i < 2; i++)
        if (groth16_backend_host_alloc(be, (void **)&pv->hbuf[i], (size_t)pv->m * sizeof(fr_t), &e)) {
            gm_log(GM_LOG_WARN, "prover: h runs one transform at a time: %s", e.msg);
            break;
        }
    if (!pv->hbuf[0] || !pv->hbuf[1]) {
        groth16_backend_host_free(be, pv->hbuf[0]);
        groth16_backend_host_free(be, pv->hbuf[1]);
        pv->hbuf[0] = pv->hbuf[1] = NULL;
    }
    bases_upload(be, pv->gb, p, n, names, "prover");
}

/* ---- prepared units -------------------------------------------------------------------- */

size_t groth16_prepared_bytes(const groth16_prover_t *pv)
{
    return (size_t)pv->m * sizeof(fr_t) + sizeof(groth16_prepared_t);
}

int groth16_prepared_create(groth16_prepared_t **out, const groth16_prover_t *pv, err_t *err)
{
    *out = NULL;
    groth16_prepared_t *u = gm_calloc(1, sizeof *u);
    if (!u)
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory for a prepared unit");
    u->nv = pv->nv;
    u->m = pv->m;
    u->h = gm_alloc((size_t)u->m * sizeof(fr_t));
    if (!u->h) {
        groth16_prepared_free(u);
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory for a prepared unit (%.1f MiB)",
                          (double)groth16_prepared_bytes(pv) / 1048576.0);
    }
    *out = u;
    return 0;
}

void groth16_prepared_free(groth16_prepared_t *u)
{
    if (!u)
        return;
    gm_free(u->h);
    gm_free(u);
}

const fr_t *groth16_prepared_inputs(const groth16_prepared_t *u, size_t *n)
{
    *n = u->full ? u->w.n_inputs : 0;
    return u->w.inputs;
}

/* ---- prepare: witness to (z, h) ----------------------------------------------------------- */

/* The CPU time of the pool's threads and of the calling thread (worker 0 of
 * the pool's jobs), for the per-stage CPU sums of groth16_timings_t. Right
 * while no one else runs jobs on the pool. */
static uint64_t stage_cpu(const topo_pool_t *pool) { return gm_thread_cpu_ns() + topo_pool_cpu_ns(pool); }

typedef struct {
    fr_t *h;
    const fr_t *x, *zinv;
    bool sub; /* false: h = h x; true: h = (h - x) zinv */
    uint64_t n, per_task;
} pw_job_t;

/* The two pointwise passes on the coset: h = a · b, then h = (h − c) / Z(g).
 * (1) Why: Z is the constant g^m - 1 on the coset, so the division is one
 *     multiplication by its inverse, computed once per prover; two passes
 *     (instead of one over a, b, c) because b and c share one buffer.
 * (2) Invariants: every value is a reduced Fr; task t owns [i0, i1).
 * (3) Part of the "ntt" stage of `grothmpi bench prove` (bench/README.md). */
static void pw_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const pw_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * j->per_task, i1 = i0 + j->per_task < j->n ? i0 + j->per_task : j->n;
    fr_t *restrict h = j->h;
    const fr_t *restrict x = j->x;
    if (!j->sub) {
        for (uint64_t i = i0; i < i1; i++)
            fr_mul(&h[i], &h[i], &x[i]);
    } else {
        for (uint64_t i = i0; i < i1; i++) {
            fr_sub(&h[i], &h[i], &x[i]);
            fr_mul(&h[i], &h[i], j->zinv);
        }
    }
}

static void pointwise(const groth16_prover_t *pv, fr_t *h, const fr_t *x, bool sub, topo_pool_t *pool)
{
    pw_job_t pw = {.h = h, .x = x, .zinv = &pv->zinv, .sub = sub, .n = pv->m, .per_task = 8192};
    topo_pool_run(pool, (size_t)((pv->m + pw.per_task - 1) / pw.per_task), pw_task, &pw);
}

/* a, b, c of w as cs_shape_abc_mode gives them, from dense or compact aux. */
static void abc_of(const cs_shape_t *sh, const groth16_witness_t *w, fr_t *a, fr_t *b, fr_t *c, cs_abc_mode_t mode,
                   topo_pool_t *pool)
{
    if (w->aux_compact)
        cs_shape_abc_compact(sh, w->inputs, w->aux_compact, a, b, c, mode, pool);
    else
        cs_shape_abc_mode(sh, w->inputs, w->aux, a, b, c, mode, pool);
}

/* v (n_rows values) zero-padded to m, then to the coset's evaluations. */
static bool to_coset(groth16_prover_t *pv, fr_t *v, bool gpu, void *scratch, topo_pool_t *pool, const char *who)
{
    uint64_t rows = pv->shape->n_rows;
    groth16_backend_t *be = gpu ? pv->be : NULL;
    memset(v + rows, 0, (size_t)(pv->m - rows) * sizeof(fr_t));
    return xform(be, pv->dom, pv->log_m, v, GPU_NTT_INVERSE, scratch, pool, who) &&
           xform(be, pv->dom, pv->log_m, v, GPU_NTT_COSET_FORWARD, scratch, pool, who);
}

/* The computation of h into u->h with work (an m-vector) and the NTT
 * scratch, its transforms on the device when gpu. false: the device failed
 * (h undefined: compute it again on the CPU). */
static bool make_h(groth16_prover_t *pv, groth16_prepared_t *u, const groth16_witness_t *w, fr_t *work,
                   void *scratch, bool gpu, topo_pool_t *pool, groth16_timings_t *t, const char *who)
{
    const cs_shape_t *sh = pv->shape;
    fr_t *h = u->h;
    uint64_t t0 = gm_now_ns(), c0 = stage_cpu(pool), t1, c1;
    bool ok;

    /* a into h, b into work: A·z and B·z in one pass over the rows. */
    abc_of(sh, w, h, work, NULL, CS_ABC_NO_C, pool);
    t1 = gm_now_ns(), c1 = stage_cpu(pool);
    t->abc += t1 - t0, t->cpu_abc += c1 - c0, t0 = t1, c0 = c1;

    ok = to_coset(pv, h, gpu, scratch, pool, who) && to_coset(pv, work, gpu, scratch, pool, who);
    if (ok)
        pointwise(pv, h, work, false, pool);
    t1 = gm_now_ns(), c1 = stage_cpu(pool);
    t->ntt += t1 - t0, t->cpu_ntt += c1 - c0, t0 = t1, c0 = c1;
    if (!ok)
        return false;

    /* c = C·z, the exact product (bellperson's c), into b's freed buffer:
     * the price of holding two m-vectors instead of three is this pass
     * instead of c = a ∘ b (CS_ABC_C_FROM_AB), which needs a and b alive. */
    abc_of(sh, w, NULL, NULL, work, CS_ABC_C_ONLY, pool);
    t1 = gm_now_ns(), c1 = stage_cpu(pool);
    t->abc += t1 - t0, t->cpu_abc += c1 - c0, t0 = t1, c0 = c1;

    ok = to_coset(pv, work, gpu, scratch, pool, who);
    if (ok) {
        pointwise(pv, h, work, true, pool);
        ok = xform(gpu ? pv->be : NULL, pv->dom, pv->log_m, h, GPU_NTT_COSET_INVERSE, scratch, pool, who);
    }
    t1 = gm_now_ns(), c1 = stage_cpu(pool);
    t->ntt += t1 - t0, t->cpu_ntt += c1 - c0;
    return ok;
}

/* make_h with the whole h on the device (the plan's GPU_PLAN_H_WHOLE): a,
 * b, c in one pass into u->h and the prover's two host buffers, then one
 * device call. Three m-vectors are alive, not two: the price of one upload
 * of each instead of seven round trips. false: the device failed (counted;
 * h undefined). */
static bool make_h_whole(groth16_prover_t *pv, groth16_prepared_t *u, const groth16_witness_t *w, topo_pool_t *pool,
                         groth16_timings_t *t, const char *who)
{
    const cs_shape_t *sh = pv->shape;
    fr_t *v[3] = {u->h, pv->hbuf[0], pv->hbuf[1]};
    uint64_t t0 = gm_now_ns(), c0 = stage_cpu(pool), t1, c1;
    abc_of(sh, w, v[0], v[1], v[2], CS_ABC_EXACT, pool);
    for (int i = 0; i < 3; i++)
        memset(v[i] + sh->n_rows, 0, (size_t)(pv->m - sh->n_rows) * sizeof(fr_t));
    t1 = gm_now_ns(), c1 = stage_cpu(pool);
    t->abc += t1 - t0, t->cpu_abc += c1 - c0, t0 = t1, c0 = c1;
    err_t e;
    bool ok = groth16_backend_h(pv->be, v[0], v[1], v[2], pv->log_m, &e) == 0;
    if (!ok)
        groth16_backend_failed(pv->be, who, &e);
    t1 = gm_now_ns(), c1 = stage_cpu(pool);
    t->ntt += t1 - t0, t->cpu_ntt += c1 - c0;
    return ok;
}

/* who names the witness in messages ("witness", "witness 3"). */
static int prepare_one(groth16_prover_t *pv, groth16_prepared_t *u, const groth16_witness_t *w, topo_pool_t *pool,
                       groth16_timings_t *t, const char *who, err_t *err)
{
    const cs_shape_t *sh = pv->shape;
    u->full = false;
    if (u->nv != pv->nv || u->m != pv->m)
        return gm_err_set(err, GM_EINVAL, "prover: %s: the prepared unit was made for another prover (%llu "
                          "variables, domain %llu)", who, (unsigned long long)u->nv, (unsigned long long)u->m);
    if (w->n_inputs != sh->n_inputs || w->n_aux != sh->n_aux)
        return gm_err_set(err, GM_EINVAL, "prover: %s: %zu inputs and %zu aux values, the circuit has "
                          "%llu and %llu", who, w->n_inputs, w->n_aux, (unsigned long long)sh->n_inputs,
                          (unsigned long long)sh->n_aux);
    if (!fr_is_one(&w->inputs[0]))
        return gm_err_set(err, GM_EINVAL, "prover: %s: input 0 (ONE) is not 1", who);
    if (w->aux_compact && w->aux_compact->n != w->n_aux)
        return gm_err_set(err, GM_EINVAL, "prover: %s: the compact aux values hold %llu values, n_aux says %zu", who,
                          (unsigned long long)w->aux_compact->n, w->n_aux);
    if (topo_pool_size(pool) > pv->ntt_workers)
        return gm_err_set(err, GM_EINVAL, "prover: %s: a pool of %u workers, the prover's NTT scratch is sized "
                          "for %u", who, topo_pool_size(pool), pv->ntt_workers);
    bool gpu = groth16_backend_active(pv->be) && !pv->cpu_h;
    u->fell_back = false;
    bool dev_ok = gpu && (pv->hbuf[0] ? make_h_whole(pv, u, w, pool, t, who)
                                      : make_h(pv, u, w, pv->work, pv->ntt_scratch, true, pool, t, who));
    if (gpu && !dev_ok)
        gpu = false, u->fell_back = true; /* the device failed: the whole h again on the CPU */
    if (!gpu)
        (void)make_h(pv, u, w, pv->work, pv->ntt_scratch, false, pool, t, who);
    u->h_on_device = gpu;
    u->w = *w;
    u->full = true;
    return 0;
}

int groth16_prepare(groth16_prover_t *pv, groth16_prepared_t *u, const groth16_witness_t *w, topo_pool_t *pool,
                    groth16_timings_t *times, err_t *err)
{
    groth16_timings_t t;
    memset(&t, 0, sizeof t);
    uint64_t start = gm_now_ns();
    int rc = prepare_one(pv, u, w, pool, &t, "witness", err);
    t.total = gm_now_ns() - start;
    if (times)
        *times = t;
    return rc;
}

/* ---- finish: MSMs, assembly, verification ------------------------------------------------ */

/* One assembly for every curve and prover (groth16/assemble_shape.h). */
#define AS_G1 g1
#define AS_G2 g2
#define AS_FR fr
#define AS_VK_T groth16_vk_t
#define AS_PROOF_T groth16_proof_t
#include "groth16/assemble_shape.h"

void groth16_proof_assemble(groth16_proof_t *out, const groth16_vk_t *vk, const g1_jac_t *sa, const g1_jac_t *sb1,
                            const g2_jac_t *sb2, const g1_jac_t *sl, const g1_jac_t *shh, const fr_t *r,
                            const fr_t *s)
{
    proof_assemble(out, vk, sa, sb1, sb2, sl, shh, r, s);
}

/* One term of a sum over the parameters' section sec (sums_shape.h): the
 * points from b0 on, resident or (streamed) read from the file. */
static sum_term_t term(const groth16_prover_t *pv, int sec, uint64_t b0, const uint64_t *d, uint64_t n,
                       const fr_t *sc, const cs_compact_t *cz)
{
    const groth16_params_t *pp = pv->params;
    sum_term_t t = {.scalars = cz ? NULL : sc, .density = d, .n = n, .cz = cz, .sec = -1};
    if (groth16_params_streamed(pp))
        t.sec = sec, t.b0 = b0;
    else if (sec == GROTH16_SEC_B_G2)
        t.bases = pp->b_g2 + b0;
    else
        t.bases = (sec == GROTH16_SEC_A ? pp->a : sec == GROTH16_SEC_B_G1 ? pp->b_g1 : sec == GROTH16_SEC_L ? pp->l
                                                                                                          : pp->h) +
                  b0;
    return t;
}

/* The key source of bellperson's parameters: the five sums of unit u as
 * terms. A and B over z are inputs + aux, since z is the caller's witness
 * (two arrays), with the densities of each (the parameters hold only the
 * non-empty columns: the aux bases start after the inputs' set bits); L
 * over aux, H over h's m - 1 scalars. Streamed: the bytes read counted. */
static void unit_sums(sums_spec_t *s, const groth16_prover_t *pv, const groth16_prepared_t *u, groth16_timings_t *t)
{
    const groth16_witness_t *w = &u->w;
    const cs_compact_t *cz = w->aux_compact;
    uint64_t ni = w->n_inputs, na = w->n_aux;
    bool st = groth16_params_streamed(pv->params);
    s->g1[SUM_A] = (sum_spec_t){{term(pv, GROTH16_SEC_A, 0, pv->da, ni, w->inputs, NULL),
                                 term(pv, GROTH16_SEC_A, pv->na_in, pv->da_aux, na, w->aux, cz)},
                                2, &t->msm_a, st ? &t->read_a : NULL};
    s->g1[SUM_B1] = (sum_spec_t){{term(pv, GROTH16_SEC_B_G1, 0, pv->db, ni, w->inputs, NULL),
                                  term(pv, GROTH16_SEC_B_G1, pv->nb_in, pv->db_aux, na, w->aux, cz)},
                                 2, &t->msm_b_g1, st ? &t->read_b_g1 : NULL};
    s->b2 = (sum_spec_t){{term(pv, GROTH16_SEC_B_G2, 0, pv->db, ni, w->inputs, NULL),
                          term(pv, GROTH16_SEC_B_G2, pv->nb_in, pv->db_aux, na, w->aux, cz)},
                         2, &t->msm_b_g2, st ? &t->read_b_g2 : NULL};
    s->g1[SUM_L] = (sum_spec_t){{term(pv, GROTH16_SEC_L, 0, NULL, na, w->aux, cz)}, 1, &t->msm_l,
                                st ? &t->read_l : NULL};
    s->g1[SUM_H] = (sum_spec_t){{term(pv, GROTH16_SEC_H, 0, NULL, pv->m - 1, u->h, NULL)}, 1, &t->msm_h,
                                st ? &t->read_h : NULL};
}

static sums_ctx_t sums_ctx(groth16_prover_t *pv, topo_pool_t *pool)
{
    return (sums_ctx_t){.scratch = pv->msm_scratch, .pool = pool, .gather = pv->gather, .file = pv->params,
                        .sbuf = &pv->sbuf};
}

/* h again, on the CPU, into the unit (after its device-made h gave a proof
 * that does not verify). Returns 0 or GM_ENOMEM. */
static int redo_h(groth16_prover_t *pv, groth16_prepared_t *u, topo_pool_t *pool, groth16_timings_t *t,
                  const char *who, err_t *err)
{
    fr_t *work = gm_alloc((size_t)pv->m * sizeof(fr_t));
    void *scratch = gm_alloc(ntt_scratch_size(pv->dom, topo_pool_size(pool)) + 64);
    int rc = 0;
    if (!work || !scratch)
        rc = gm_err_set(err, GM_ENOMEM, "prover: %s: out of memory to compute h again on the CPU", who);
    else
        (void)make_h(pv, u, &u->w, work, scratch, false, pool, t, who);
    u->h_on_device = false;
    gm_free(work);
    gm_free(scratch);
    return rc;
}

/* Whether pv may finish u on pool (GM_EINVAL, err naming who, if not). */
static int unit_check(const groth16_prover_t *pv, const groth16_prepared_t *u, topo_pool_t *pool, const char *who,
                      err_t *err)
{
    if (!pv->params)
        return gm_err_set(err, GM_EINVAL, "prover: %s: a prepare-only prover (no parameters) cannot finish", who);
    if (!u->full || u->nv != pv->nv || u->m != pv->m)
        return gm_err_set(err, GM_EINVAL, "prover: %s: the unit is not prepared by this prover", who);
    if (topo_pool_size(pool) > pv->msm_workers)
        return gm_err_set(err, GM_EINVAL, "prover: %s: a pool of %u workers, the prover's MSM scratch is sized "
                          "for %u", who, topo_pool_size(pool), pv->msm_workers);
    return 0;
}

/* One proof from its five sums: dev, the sums a device made (NULL: the
 * CPU's, computed here); dev_failed: the device failed on this unit's batch
 * (proved on the CPU, counted). A device's result is always verified; one
 * that does not verify is done again on the CPU (h too, if the device made
 * it). */
static int finish_one(groth16_prover_t *pv, groth16_proof_t *out, groth16_prepared_t *u, const fr_t *r,
                      const fr_t *s, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *t,
                      const char *who, const sums_t *dev, bool dev_failed, err_t *err)
{
    const groth16_params_t *pp = pv->params;
    int rc = unit_check(pv, u, pool, who, err);
    if (!rc)
        rc = gather_ready(pv, &u, 1, err);
    if (rc)
        return rc;
    const groth16_witness_t *w = &u->w;
    bool attached = pv->be && groth16_backend_kind(pv->be) != GROTH16_BACKEND_CPU;
    bool fallback = dev_failed;
    if (dev_failed && u->h_on_device && (rc = redo_h(pv, u, pool, t, who, err)))
        return rc;
    for (;;) {
        uint64_t t0 = gm_now_ns(), c0 = stage_cpu(pool), t1, c1;
        sums_t x;
        bool gpu = dev != NULL;
        if (dev) {
            x = *dev;
            dev = NULL;
        } else {
            sums_spec_t sp;
            sums_ctx_t c = sums_ctx(pv, pool);
            unit_sums(&sp, pv, u, t);
            rc = sums_cpu(&x, &sp, &c, err);
            if (groth16_params_streamed(pp))
                t->params_bytes += (pp->n.a + pp->n.b_g1 + pp->n.l + pp->n.h) * G1_UNCOMPRESSED_BYTES +
                                   pp->n.b_g2 * G2_UNCOMPRESSED_BYTES;
            if (rc)
                return rc;
        }
        groth16_proof_assemble(out, &pp->vk, &x.g1[SUM_A], &x.g1[SUM_B1], &x.b2, &x.g1[SUM_L], &x.g1[SUM_H], r,
                               s);
        c1 = stage_cpu(pool);
        t->cpu_msm += c1 - c0, c0 = c1;
        t0 = gm_now_ns();

        /* A device's result is always verified: nothing it made leaves unchecked. */
        bool dev_made = gpu || u->h_on_device;
        if ((flags & GROTH16_PROVE_NO_VERIFY) && !dev_made)
            break;
        err_t e2;
        rc = groth16_verify(&pv->pvk, out, w->inputs + 1, w->n_inputs - 1, &e2);
        t1 = gm_now_ns(), t->verify += t1 - t0;
        t->cpu_verify += stage_cpu(pool) - c0;
        if (rc && dev_made) {
            err_t e3;
            gm_err_set(&e3, rc, "the proof made with the device does not verify (%s)", e2.msg);
            groth16_backend_failed(pv->be, who, &e3);
            fallback = true;
            if (u->h_on_device && (rc = redo_h(pv, u, pool, t, who, err)))
                return rc;
            continue;
        }
        if (rc)
            return gm_err_set(err, rc == GM_EVERIFY ? GM_EVERIFY : rc,
                              "prover: %s: the proof does not verify (%s): the witness does not satisfy "
                              "the circuit, or the parameters are not for it", who, e2.msg);
        break;
    }
    if (attached)
        groth16_backend_unit(pv->be, fallback || u->fell_back);
    return 0;
}

/* r_s = the rs pair of proof i, or two fresh random values. */
static int draw_rs(fr_t r_s[2], const fr_t *rs, size_t i, err_t *err)
{
    if (!rs)
        return groth16_random_fr(r_s, 2, 256, err);
    r_s[0] = rs[2 * i];
    r_s[1] = rs[2 * i + 1];
    return 0;
}

/* The device's sums of the k units (*out, gm_alloc'd; NULL when the device
 * is not used: not active, bases not all resident, a unit the checks of
 * finish_one will refuse, or the device failed: *failed then, counted). */
static void device_batch(sums_t **out, bool *failed, groth16_prover_t *pv, groth16_prepared_t *const *units,
                         size_t k, topo_pool_t *pool, groth16_timings_t *t)
{
    *out = NULL;
    *failed = false;
    if (!k || !groth16_backend_active(pv->be) || !bases_all(pv->gb))
        return;
    err_t e;
    for (size_t i = 0; i < k; i++)
        if (unit_check(pv, units[i], pool, "unit", &e))
            return;
    if (gather_ready(pv, units, k, &e))
        return; /* finish_one reports it */
    sums_t *x = gm_alloc(k * sizeof *x);
    sums_spec_t *sp = gm_alloc(k * sizeof *sp);
    sums_ctx_t c = sums_ctx(pv, pool);
    for (size_t i = 0; x && sp && i < k; i++)
        unit_sums(&sp[i], pv, units[i], t);
    int rc = x && sp ? sums_device(pv->be, pv->gb, x, sp, k, &c, &e) : gm_err_set(&e, GM_ENOMEM, "out of memory");
    gm_free(sp);
    if (rc) {
        char who[48];
        snprintf(who, sizeof who, "a batch of %zu unit%s", k, k == 1 ? "" : "s");
        groth16_backend_failed(pv->be, who, &e);
        gm_free(x);
        *failed = true;
        return;
    }
    *out = x;
}

int groth16_finish(groth16_prover_t *pv, groth16_proof_t *out, groth16_prepared_t *const *units, size_t k,
                   const fr_t *rs, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times,
                   err_t *err)
{
    groth16_timings_t t;
    memset(&t, 0, sizeof t);
    uint64_t start = gm_now_ns();
    int rc = 0;
    sums_t *dev;
    bool failed;
    device_batch(&dev, &failed, pv, units, k, pool, &t);
    for (size_t i = 0; i < k; i++) {
        fr_t r_s[2];
        char who[32];
        snprintf(who, sizeof who, "unit %zu", i);
        if ((rc = draw_rs(r_s, rs, i, err)) ||
            (rc = finish_one(pv, &out[i], units[i], &r_s[0], &r_s[1], flags, pool, &t, who, dev ? &dev[i] : NULL,
                             failed, err)))
            break;
    }
    gm_free(dev);
    t.total = gm_now_ns() - start;
    if (times)
        *times = t;
    return rc;
}

/* ---- both ------------------------------------------------------------------------------- */

int groth16_prove(groth16_prover_t *pv, groth16_proof_t *out, const groth16_witness_t *w, size_t k,
                  const fr_t *rs, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times,
                  err_t *err)
{
    groth16_timings_t t;
    memset(&t, 0, sizeof t);
    uint64_t start = gm_now_ns();
    /* One unit for the whole call, reused by each witness: the proofs of a
     * batch allocate nothing after the first. */
    groth16_prepared_t *u = NULL;
    int rc = k ? groth16_prepared_create(&u, pv, err) : 0;
    for (size_t i = 0; !rc && i < k; i++) {
        fr_t r_s[2];
        char who[32];
        snprintf(who, sizeof who, "witness %zu", i);
        if ((rc = draw_rs(r_s, rs, i, err)) || (rc = prepare_one(pv, u, &w[i], pool, &t, who, err)))
            break;
        sums_t *dev;
        bool failed;
        device_batch(&dev, &failed, pv, &u, 1, pool, &t);
        rc = finish_one(pv, &out[i], u, &r_s[0], &r_s[1], flags, pool, &t, who, dev, failed, err);
        gm_free(dev);
        if (rc)
            break;
    }
    groth16_prepared_free(u);
    t.total = gm_now_ns() - start;
    if (times)
        *times = t;
    return rc;
}
