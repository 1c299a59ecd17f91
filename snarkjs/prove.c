/*
 * snarkjs/prove.c — the prover of `snarkjs groth16 prove`
 * (src/groth16_prove.js) and rapidsnark, over a decoded .zkey:
 *
 *   Aev[c] += value w[s] for each section-4 entry of matrix 0 (Bev: 1);
 *   Cev = Aev . Bev rowwise (the zkey has no C matrix);
 *   for X in A, B, C: coefficients by an inverse NTT over <w_n>, then the
 *     evaluations on the odd coset g<w_n>, g = w_2n;
 *   h[i] = Aodd[i] Bodd[i] - Codd[i]  (no division by Z: the H points of
 *     the zkey absorb Z = -2 on the odd coset);
 *   pi_A = alpha1 + sum w_i A_i + r delta1
 *   pi_B = beta2 + sum w_i B2_i + s delta2,  B1 = beta1 + sum w_i B1_i + s delta1
 *   pi_C = sum_{i > nPublic} w_i C_i + sum h_j H_j + s pi_A + r B1 - r s delta1
 *
 * Roots of unity. snarkjs (ffjavascript) takes w_2^32 = 5^((r-1)/2^32); our
 * NTT (ntt/ntt.c) takes 7^((r-1)/2^32), bellperson's. Both generate the same
 * group of order 2^32, and 5's root is 7's raised to J = SNARKJS_ROOT_EXP
 * (odd), so for every k <= 32 w5_k = w7_k^(J mod 2^k). Row c of the zkey is
 * the point w5_n^c = w7_n^(J c mod n), so the rows are scattered to index
 * J c mod n of our NTT's natural order, and snarkjs's odd point
 * w5_2n^(2i+1) = w7_2n^(J (2i+1) mod 2n) is our coset point k with
 * 2k + 1 = J (2i + 1) mod 2n. Two index permutations, no second NTT.
 */
#include <string.h>

#include "snarkjs/snarkjs_internal.h"
#include "ntt/ntt.h"

struct snarkjs_prover {
    const snarkjs_zkey_t *zk;
    groth16_pvk_t pvk;
    unsigned log_n;
    uint64_t n;
    ntt_domain_t *dom;
    void *ntt_scratch, *msm_scratch;
    fr_t *a, *b, *c;
    fr_t shift; /* w7_2n: multiplying coefficient j by shift^j moves to the odd coset */
    groth16_backend_t *be;  /* NULL: the CPU */
    gpu_g1_bases_t *gb[4];  /* resident A, B1, C, H; NULL: that MSM on the CPU */
};

void snarkjs_root_of_unity(fr_t *out, unsigned k)
{
    fr_t w;
    fr_root_of_unity(&w, k);
    uint64_t e = (uint64_t)SNARKJS_ROOT_EXP & (k >= 32 ? 0xffffffffull : ((1ull << k) - 1));
    fr_pow(out, &w, &e, 1);
}

void snarkjs_prover_destroy(snarkjs_prover_t *pv)
{
    if (!pv)
        return;
    for (int i = 0; i < 4; i++)
        if (pv->be)
            groth16_backend_free_bases(pv->be, pv->gb[i]);
    groth16_pvk_free(&pv->pvk);
    ntt_domain_destroy(pv->dom);
    gm_free(pv->ntt_scratch);
    gm_free(pv->msm_scratch);
    gm_free(pv->a);
    gm_free(pv->b);
    gm_free(pv->c);
    gm_free(pv);
}

const groth16_pvk_t *snarkjs_prover_pvk(const snarkjs_prover_t *pv) { return &pv->pvk; }

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

int snarkjs_prover_create(snarkjs_prover_t **out, const snarkjs_zkey_t *zk, topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    int rc;
    snarkjs_prover_t *pv = gm_calloc(1, sizeof *pv);
    if (!pv)
        return gm_err_set(err, GM_ENOMEM, "snarkjs prover: out of memory");
    pv->zk = zk;
    pv->log_n = zk->log_domain;
    pv->n = zk->domain_size;
    if ((rc = groth16_pvk_prepare(&pv->pvk, &zk->vk, err)))
        goto fail;
    if ((rc = ntt_domain_create(&pv->dom, pv->log_n, err)))
        goto fail;
    unsigned nw = topo_pool_size(pool);
    size_t nmax = max_sz(zk->n_vars, (size_t)pv->n);
    size_t msm_sz = max_sz(msm_g1_scratch_size(nmax, nw, 0), msm_g2_scratch_size(zk->n_vars, nw, 0));
    pv->ntt_scratch = gm_alloc(ntt_scratch_size(pv->dom, nw) + 64);
    pv->msm_scratch = gm_alloc(msm_sz);
    pv->a = gm_alloc((size_t)pv->n * sizeof(fr_t));
    pv->b = gm_alloc((size_t)pv->n * sizeof(fr_t));
    pv->c = gm_alloc((size_t)pv->n * sizeof(fr_t));
    if (!pv->ntt_scratch || !pv->msm_scratch || !pv->a || !pv->b || !pv->c) {
        rc = gm_err_set(err, GM_ENOMEM, "snarkjs prover: out of memory for the scratch of a 2^%u domain", pv->log_n);
        goto fail;
    }
    fr_root_of_unity(&pv->shift, pv->log_n + 1);
    *out = pv;
    return 0;
fail:
    snarkjs_prover_destroy(pv);
    return rc;
}

void snarkjs_prover_set_backend(snarkjs_prover_t *pv, groth16_backend_t *be)
{
    const snarkjs_zkey_t *zk = pv->zk;
    for (int i = 0; i < 4; i++) {
        if (pv->be)
            groth16_backend_free_bases(pv->be, pv->gb[i]);
        pv->gb[i] = NULL;
    }
    pv->be = be;
    if (!groth16_backend_active(be))
        return;
    uint64_t np1 = (uint64_t)zk->n_public + 1;
    const struct {
        const g1_affine_t *p;
        size_t n;
        const char *name;
    } sets[4] = {{zk->a, zk->n_vars, "A"}, {zk->b1, zk->n_vars, "B1"}, {zk->c, (size_t)(zk->n_vars - np1), "C"},
                 {zk->h, (size_t)pv->n, "H"}};
    for (int i = 0; i < 4; i++) {
        err_t e;
        if (groth16_backend_upload(be, &pv->gb[i], sets[i].p, sets[i].n, &e))
            gm_log(GM_LOG_WARN, "snarkjs prover: the %s bases (%zu points) stay on the CPU: %s", sets[i].name,
                   sets[i].n, e.msg);
    }
    return;
}

/* ---- the evaluation vectors ------------------------------------------------------------------- */

#define ROW_TASK 8192

typedef struct {
    snarkjs_prover_t *pv;
    const fr_t *w;
    fr_t *vec[3];
    uint64_t perm; /* J mod n */
} abc_job_t;

/* Task m (0 = A, 1 = B) accumulates its matrix's entries.
 * (1) Why: snarkjs's buildABC1, with the row scattered to our NTT's order
 *     (index J c mod n). Entries of one matrix go to one vector, so the two
 *     tasks share nothing; coefficients 1 (most of circom's) skip the
 *     multiplication.
 * (2) Invariants: constraint < n and signal < nVars (checked at load);
 *     values reduced.
 * (3) The "abc" stage of `grothmpi snarkjs prove --verbose` (bench/README.md). */
static void abc_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    abc_job_t *j = arg;
    const snarkjs_zkey_t *zk = j->pv->zk;
    fr_t *v = j->vec[task];
    uint64_t mask = j->pv->n - 1;
    memset(v, 0, (size_t)j->pv->n * sizeof(fr_t));
    for (uint64_t i = 0; i < zk->n_coefs; i++) {
        const snarkjs_coef_t *c = &zk->coefs[i];
        if (c->matrix != task)
            continue;
        fr_t *dst = &v[(j->perm * c->constraint) & mask];
        const fr_t *x = &j->w[c->signal];
        if (fr_is_zero(x))
            continue;
        if (fr_is_one(&c->value)) {
            fr_add(dst, dst, x);
        } else {
            fr_t t;
            fr_mul(&t, &c->value, x);
            fr_add(dst, dst, &t);
        }
    }
}

typedef struct {
    fr_t *a, *b, *c;
    const fr_t *shift;
    uint64_t n, perm2; /* J mod 2n */
} pw_job_t;

static uint64_t task_end(uint64_t i0, uint64_t n) { return i0 + ROW_TASK < n ? i0 + ROW_TASK : n; }

static void c_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    for (uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n); i < e; i++)
        fr_mul(&j->c[i], &j->a[i], &j->b[i]);
}

/* a[i] *= shift^i for the three vectors (coefficients to the odd coset). */
static void shift_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * ROW_TASK;
    fr_t p;
    fr_pow(&p, j->shift, &i0, 1);
    for (uint64_t i = i0, e = task_end(i0, j->n); i < e; i++) {
        fr_mul(&j->a[i], &j->a[i], &p);
        fr_mul(&j->b[i], &j->b[i], &p);
        fr_mul(&j->c[i], &j->c[i], &p);
        fr_mul(&p, &p, j->shift);
    }
}

/* a[k] = a[k] b[k] - c[k] in our coset order (then read out permuted). */
static void join_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    for (uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n); i < e; i++) {
        fr_mul(&j->a[i], &j->a[i], &j->b[i]);
        fr_sub(&j->a[i], &j->a[i], &j->c[i]);
    }
}

/* c[i] = a[k(i)], 2 k(i) + 1 = J (2i + 1) mod 2n: snarkjs's order of h. */
static void perm_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t mask2 = 2 * j->n - 1;
    for (uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n); i < e; i++)
        j->c[i] = j->a[((j->perm2 * (2 * i + 1)) & mask2) >> 1];
}

/* ---- one proof ------------------------------------------------------------------------------------ */

/* One transform on the device (gpu) or the CPU. false: the device failed
 * (counted, logged). */
static bool xform(snarkjs_prover_t *pv, fr_t *v, bool inverse, bool gpu, topo_pool_t *pool)
{
    if (gpu) {
        err_t e;
        if (groth16_backend_ntt(pv->be, v, pv->log_n, inverse ? GPU_NTT_INVERSE : GPU_NTT_FORWARD, &e) == 0)
            return true;
        groth16_backend_failed(pv->be, "snarkjs proof", &e);
        return false;
    }
    if (inverse)
        ntt_inverse(pv->dom, v, pv->ntt_scratch, pool);
    else
        ntt_forward(pv->dom, v, pv->ntt_scratch, pool);
    return true;
}

typedef struct {
    snarkjs_prover_t *pv;
    const fr_t *w;
    topo_pool_t *pool;
    g2_jac_t *sb2;
    uint64_t *ns;
} g2_job_t;

/* The G2 MSM on the CPU pool, while the device runs the G1 ones. */
static void g2_job(void *arg)
{
    g2_job_t *j = arg;
    const snarkjs_zkey_t *zk = j->pv->zk;
    uint64_t t0 = gm_now_ns();
    msm_g2(j->sb2, zk->b2, j->w, NULL, zk->n_vars, 0, j->pv->msm_scratch, j->pool);
    *j->ns += gm_now_ns() - t0;
}

/* The proof for r_s, its transforms and G1 MSMs on the device when gpu.
 * false: the device failed (the caller proves again on the CPU). */
static bool prove_core(snarkjs_prover_t *pv, groth16_proof_t *out, const fr_t *w, const fr_t r_s[2], bool gpu,
                       topo_pool_t *pool, groth16_timings_t *tm)
{
    const snarkjs_zkey_t *zk = pv->zk;
    uint64_t t0 = gm_now_ns(), t1;

    /* A, B, C evaluations. */
    abc_job_t aj = {.pv = pv, .w = w, .vec = {pv->a, pv->b, NULL},
                    .perm = (uint64_t)SNARKJS_ROOT_EXP & (pv->n - 1)};
    topo_pool_run(pool, 2, abc_task, &aj);
    pw_job_t pj = {.a = pv->a, .b = pv->b, .c = pv->c, .shift = &pv->shift, .n = pv->n,
                   .perm2 = (uint64_t)SNARKJS_ROOT_EXP & (2 * pv->n - 1)};
    size_t ntasks = (size_t)((pv->n + ROW_TASK - 1) / ROW_TASK);
    topo_pool_run(pool, ntasks, c_task, &pj);
    t1 = gm_now_ns(), tm->abc += t1 - t0, t0 = t1;

    /* h on the odd coset. */
    fr_t *v[3] = {pv->a, pv->b, pv->c};
    for (int i = 0; i < 3; i++)
        if (!xform(pv, v[i], true, gpu, pool))
            return false;
    topo_pool_run(pool, ntasks, shift_task, &pj);
    for (int i = 0; i < 3; i++)
        if (!xform(pv, v[i], false, gpu, pool))
            return false;
    topo_pool_run(pool, ntasks, join_task, &pj);
    topo_pool_run(pool, ntasks, perm_task, &pj);
    t1 = gm_now_ns(), tm->ntt += t1 - t0, t0 = t1;

    /* MSMs. */
    uint64_t np1 = (uint64_t)zk->n_public + 1;
    g1_jac_t sa, sb1, sc, sh;
    g2_jac_t sb2;
    if (gpu) {
        const fr_t *wz[1] = {w}, *wp[1] = {w + np1}, *hc[1] = {pv->c};
        const groth16_backend_msm_t m[4] = {{&sa, pv->gb[0], wz, NULL, zk->n_vars, 1, &tm->msm_a},
                                            {&sb1, pv->gb[1], wz, NULL, zk->n_vars, 1, &tm->msm_b_g1},
                                            {&sc, pv->gb[2], wp, NULL, (size_t)(zk->n_vars - np1), 1, &tm->msm_l},
                                            {&sh, pv->gb[3], hc, NULL, (size_t)pv->n, 1, &tm->msm_h}};
        g2_job_t g2 = {pv, w, pool, &sb2, &tm->msm_b_g2};
        err_t e;
        if (groth16_backend_msm_beside(pv->be, m, 4, g2_job, &g2, &e)) {
            groth16_backend_failed(pv->be, "snarkjs proof", &e);
            return false;
        }
        t0 = gm_now_ns();
    } else {
        msm_g1(&sa, zk->a, w, NULL, zk->n_vars, 0, pv->msm_scratch, pool);
        t1 = gm_now_ns(), tm->msm_a += t1 - t0, t0 = t1;
        msm_g1(&sb1, zk->b1, w, NULL, zk->n_vars, 0, pv->msm_scratch, pool);
        t1 = gm_now_ns(), tm->msm_b_g1 += t1 - t0, t0 = t1;
        msm_g2(&sb2, zk->b2, w, NULL, zk->n_vars, 0, pv->msm_scratch, pool);
        t1 = gm_now_ns(), tm->msm_b_g2 += t1 - t0, t0 = t1;
        msm_g1(&sc, zk->c, w + np1, NULL, (size_t)(zk->n_vars - np1), 0, pv->msm_scratch, pool);
        t1 = gm_now_ns(), tm->msm_l += t1 - t0, t0 = t1;
        msm_g1(&sh, zk->h, pv->c, NULL, (size_t)pv->n, 0, pv->msm_scratch, pool);
        t1 = gm_now_ns(), tm->msm_h += t1 - t0, t0 = t1;
    }

    /* Assemble. */
    const groth16_vk_t *vk = &zk->vk;
    const fr_t *r = &r_s[0], *s = &r_s[1];
    g1_jac_t ga, b1, gc, x, delta1;
    g2_jac_t gb, y;
    g1_from_affine(&delta1, &vk->delta_g1);

    g1_mul_fr(&ga, &delta1, r);
    g1_add_mixed(&ga, &ga, &vk->alpha_g1);
    g1_add(&ga, &ga, &sa);

    g2_from_affine(&y, &vk->delta_g2);
    g2_mul_fr(&gb, &y, s);
    g2_add_mixed(&gb, &gb, &vk->beta_g2);
    g2_add(&gb, &gb, &sb2);

    g1_mul_fr(&b1, &delta1, s);
    g1_add_mixed(&b1, &b1, &vk->beta_g1);
    g1_add(&b1, &b1, &sb1);

    fr_t rs_neg;
    fr_mul(&rs_neg, r, s);
    fr_neg(&rs_neg, &rs_neg);
    g1_mul_fr(&gc, &delta1, &rs_neg);
    g1_add(&gc, &gc, &sc);
    g1_add(&gc, &gc, &sh);
    g1_mul_fr(&x, &ga, s);
    g1_add(&gc, &gc, &x);
    g1_mul_fr(&x, &b1, r);
    g1_add(&gc, &gc, &x);

    g1_to_affine(&out->a, &ga);
    g2_to_affine(&out->b, &gb);
    g1_to_affine(&out->c, &gc);
    return true;
}

int snarkjs_prove(snarkjs_prover_t *pv, groth16_proof_t *out, const fr_t *w, size_t n, const fr_t *rs,
                  groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
{
    const snarkjs_zkey_t *zk = pv->zk;
    groth16_timings_t tm;
    memset(&tm, 0, sizeof tm);
    uint64_t start = gm_now_ns();
    int rc = 0;
    bool attached = pv->be && groth16_backend_kind(pv->be) != GROTH16_BACKEND_CPU;
    bool gpu = groth16_backend_active(pv->be) && pv->gb[0] && pv->gb[1] && pv->gb[2] && pv->gb[3], fallback = false;
    if (n != zk->n_vars) {
        rc = gm_err_set(err, GM_EINVAL, "snarkjs prove: the witness has %zu values, the zkey's circuit %u (nVars)", n,
                        zk->n_vars);
        goto done;
    }
    if (!fr_is_one(&w[0])) {
        rc = gm_err_set(err, GM_EINVAL, "snarkjs prove: witness value 0 (the constant ONE) is not 1");
        goto done;
    }
    fr_t r_s[2];
    if (rs) {
        r_s[0] = rs[0];
        r_s[1] = rs[1];
    } else if ((rc = groth16_random_fr(r_s, 2, 256, err))) {
        goto done;
    }
    for (;;) {
        if (!prove_core(pv, out, w, r_s, gpu, pool, &tm)) {
            gpu = false; /* the device failed: the whole proof again on the CPU */
            fallback = true;
            continue;
        }
        /* A device's result is always verified. */
        if ((flags & GROTH16_PROVE_NO_VERIFY) && !gpu)
            break;
        uint64_t t0 = gm_now_ns();
        /* Sums over points outside the subgroup (a key decoded without
         * SNARKJS_ZKEY_SUBGROUP) would leave it: the pairing needs G1/G2. */
        if (!g1_affine_in_subgroup(&out->a) || !g2_affine_in_subgroup(&out->b) || !g1_affine_in_subgroup(&out->c)) {
            if (gpu) {
                err_t e;
                gm_err_set(&e, GM_EVERIFY, "the proof made with the device is not in the subgroup");
                groth16_backend_failed(pv->be, "snarkjs proof", &e);
                gpu = false, fallback = true;
                continue;
            }
            rc = gm_err_set(err, GM_EVERIFY, "snarkjs prove: the proof is not in the subgroup: the zkey holds points "
                            "outside it");
            goto done;
        }
        err_t e2;
        rc = groth16_verify(&pv->pvk, out, w + 1, zk->n_public, &e2);
        tm.verify += gm_now_ns() - t0;
        if (rc && gpu) {
            err_t e;
            gm_err_set(&e, rc, "the proof made with the device does not verify (%s)", e2.msg);
            groth16_backend_failed(pv->be, "snarkjs proof", &e);
            gpu = false, fallback = true;
            rc = 0;
            continue;
        }
        if (rc) {
            rc = gm_err_set(err, rc, "snarkjs prove: the proof does not verify against the zkey's key (%s): the "
                            "witness does not satisfy the circuit, or the zkey is not for it", e2.msg);
            goto done;
        }
        break;
    }
    if (attached)
        groth16_backend_unit(pv->be, fallback);
done:
    tm.total = gm_now_ns() - start;
    if (times)
        *times = tm;
    return rc;
}
