/*
 * groth16/prove.c — the CPU prover, bellperson's prover.rs step by step:
 *   a, b = A·z, B·z (synth's sparse product, zero-padded to m) and c = a ∘ b,
 *      which is C·z for a satisfying witness (bellperson computes C·z);
 *   h: each of a, b, c through iNTT then coset NTT; a·b − c pointwise, times
 *      1 / Z(g) (Z(x) = x^m − 1 is the constant g^m − 1 on the coset g<w>);
 *      coset iNTT; the first m − 1 coefficients are the H scalars;
 *   MSMs: A and B (G1, G2) over z with the shape's column densities (the
 *      params hold only the non-empty columns), L over aux, H over h;
 *   A = alpha + sum_A + r delta, B = beta + sum_B2 + s delta,
 *   C = s sum_A + r sum_B1 + rs delta + s alpha + r beta + sum_H + sum_L.
 * A prover owns every buffer a proof needs, sized at creation, so a batch of
 * proofs allocates nothing after the first; the params' bases are shared.
 */
#include <string.h>

#include "groth16/groth16_internal.h"

struct groth16_prover {
    const groth16_params_t *params;
    const cs_shape_t *shape;
    groth16_pvk_t pvk;
    unsigned log_m;
    uint64_t m, nv;
    uint64_t *da, *db;
    ntt_domain_t *dom;
    void *ntt_scratch;
    fr_t *a, *b, *c, *z;
    void *msm_scratch;
    fr_t zinv; /* 1 / (g^m - 1) */
    size_t memory;
};

void groth16_prover_destroy(groth16_prover_t *pv)
{
    if (!pv)
        return;
    groth16_pvk_free(&pv->pvk);
    gm_free(pv->da);
    gm_free(pv->db);
    ntt_domain_destroy(pv->dom);
    gm_free(pv->ntt_scratch);
    gm_free(pv->a);
    gm_free(pv->b);
    gm_free(pv->c);
    gm_free(pv->z);
    gm_free(pv->msm_scratch);
    gm_free(pv);
}

size_t groth16_prover_memory(const groth16_prover_t *pv) { return pv->memory; }

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

int groth16_prover_create(groth16_prover_t **out, const groth16_params_t *params, const cs_shape_t *shape,
                          topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    int rc;
    groth16_counts_t need;
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

    groth16_prover_t *pv = gm_calloc(1, sizeof *pv);
    if (!pv)
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory");
    pv->params = params;
    pv->shape = shape;
    if ((rc = g16_domain_of(&pv->log_m, shape, err)))
        goto fail;
    pv->m = 1ULL << pv->log_m;
    pv->nv = shape->n_inputs + shape->n_aux;
    if ((rc = groth16_pvk_prepare(&pv->pvk, &params->vk, err)))
        goto fail;
    g16_density(&pv->da, shape, 0);
    g16_density(&pv->db, shape, 1);
    if ((rc = ntt_domain_create(&pv->dom, pv->log_m, err)))
        goto fail;
    unsigned nw = topo_pool_size(pool);
    size_t ntt_sz = ntt_scratch_size(pv->dom, nw) + 64;
    size_t nmax = (size_t)max_sz(max_sz(pv->nv, shape->n_aux), pv->m - 1);
    size_t msm_sz = max_sz(msm_g1_scratch_size(nmax, nw, 0), msm_g2_scratch_size((size_t)pv->nv, nw, 0));
    pv->ntt_scratch = gm_alloc(ntt_sz);
    pv->msm_scratch = gm_alloc(msm_sz);
    pv->a = gm_alloc((size_t)pv->m * sizeof(fr_t));
    pv->b = gm_alloc((size_t)pv->m * sizeof(fr_t));
    pv->c = gm_alloc((size_t)pv->m * sizeof(fr_t));
    pv->z = gm_alloc((size_t)(pv->nv + 1) * sizeof(fr_t));
    if (!pv->da || !pv->db || !pv->ntt_scratch || !pv->msm_scratch || !pv->a || !pv->b || !pv->c || !pv->z) {
        rc = gm_err_set(err, GM_ENOMEM, "prover: out of memory for the scratch of a 2^%u domain", pv->log_m);
        goto fail;
    }
    pv->memory = ntt_sz + msm_sz + 3 * (size_t)pv->m * sizeof(fr_t) + (size_t)(pv->nv + 1) * sizeof(fr_t);
    /* Inputs always take part in A (their input constraints). */
    for (uint64_t j = 0; j < shape->n_inputs; j++)
        pv->da[j >> 6] |= 1ULL << (j & 63);
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

/* ---- h ------------------------------------------------------------------------------------ */

typedef struct {
    fr_t *a;
    const fr_t *b, *c, *zinv;
    uint64_t n, per_task;
} pw_job_t;

/* a[i] = (a[i] b[i] - c[i]) / Z(g) on the coset.
 * (1) Why: Z is the constant g^m - 1 on the coset, so the division is one
 *     multiplication by its inverse, computed once per prover.
 * (2) Invariants: every value is a reduced Fr; task t owns [i0, i1).
 * (3) Part of the "ntt" stage: 45 ms for 2^14 (7 transforms plus this pass)
 *     on AMD EPYC, 1 thread, machine shared, grothmpi prove --verbose
 *     --circuit test-synthetic --constraints 16384, 2026-11-29 */
static void pw_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * j->per_task, i1 = i0 + j->per_task < j->n ? i0 + j->per_task : j->n;
    for (uint64_t i = i0; i < i1; i++) {
        fr_mul(&j->a[i], &j->a[i], &j->b[i]);
        fr_sub(&j->a[i], &j->a[i], &j->c[i]);
        fr_mul(&j->a[i], &j->a[i], j->zinv);
    }
}

/* ---- one proof ------------------------------------------------------------------------------ */

static int prove_one(groth16_prover_t *pv, groth16_proof_t *out, const groth16_witness_t *w, const fr_t *r,
                     const fr_t *s, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *t,
                     size_t idx, err_t *err)
{
    const cs_shape_t *sh = pv->shape;
    const groth16_params_t *pp = pv->params;
    if (w->n_inputs != sh->n_inputs || w->n_aux != sh->n_aux)
        return gm_err_set(err, GM_EINVAL, "prover: witness %zu: %zu inputs and %zu aux values, the circuit has "
                          "%llu and %llu", idx, w->n_inputs, w->n_aux, (unsigned long long)sh->n_inputs,
                          (unsigned long long)sh->n_aux);
    if (!fr_is_one(&w->inputs[0]))
        return gm_err_set(err, GM_EINVAL, "prover: witness %zu: input 0 (ONE) is not 1", idx);
    uint64_t t0 = gm_now_ns(), t1;

    /* a, b, c: c = a ∘ b instead of C·z (synth.h, CS_ABC_C_FROM_AB). The
     * two agree on every row for a satisfying witness; for any other, h
     * below no longer matches the proof's C (built from the L query, i.e.
     * from the true C·z), so the proof fails the verification that follows
     * unless GROTH16_PROVE_NO_VERIFY, as it did with C·z. */
    cs_shape_abc_mode(sh, w->inputs, w->aux, pv->a, pv->b, pv->c, CS_ABC_C_FROM_AB, pool);
    size_t pad = (size_t)(pv->m - sh->n_rows) * sizeof(fr_t);
    memset(pv->a + sh->n_rows, 0, pad);
    memset(pv->b + sh->n_rows, 0, pad);
    memset(pv->c + sh->n_rows, 0, pad);
    t1 = gm_now_ns(), t->abc += t1 - t0, t0 = t1;

    /* h. */
    fr_t *v[3] = {pv->a, pv->b, pv->c};
    for (int i = 0; i < 3; i++) {
        ntt_inverse(pv->dom, v[i], pv->ntt_scratch, pool);
        ntt_coset_forward(pv->dom, v[i], pv->ntt_scratch, pool);
    }
    pw_job_t pw = {.a = pv->a, .b = pv->b, .c = pv->c, .zinv = &pv->zinv, .n = pv->m, .per_task = 8192};
    topo_pool_run(pool, (size_t)((pv->m + pw.per_task - 1) / pw.per_task), pw_task, &pw);
    ntt_coset_inverse(pv->dom, pv->a, pv->ntt_scratch, pool);
    t1 = gm_now_ns(), t->ntt += t1 - t0, t0 = t1;

    /* MSMs. */
    memcpy(pv->z, w->inputs, w->n_inputs * sizeof(fr_t));
    memcpy(pv->z + w->n_inputs, w->aux, w->n_aux * sizeof(fr_t));
    g1_jac_t sa, sb1, sl, shh;
    g2_jac_t sb2;
    msm_g1(&sa, pp->a, pv->z, pv->da, (size_t)pv->nv, 0, pv->msm_scratch, pool);
    t1 = gm_now_ns(), t->msm_a += t1 - t0, t0 = t1;
    msm_g1(&sb1, pp->b_g1, pv->z, pv->db, (size_t)pv->nv, 0, pv->msm_scratch, pool);
    t1 = gm_now_ns(), t->msm_b_g1 += t1 - t0, t0 = t1;
    msm_g2(&sb2, pp->b_g2, pv->z, pv->db, (size_t)pv->nv, 0, pv->msm_scratch, pool);
    t1 = gm_now_ns(), t->msm_b_g2 += t1 - t0, t0 = t1;
    msm_g1(&sl, pp->l, w->aux, NULL, w->n_aux, 0, pv->msm_scratch, pool);
    t1 = gm_now_ns(), t->msm_l += t1 - t0, t0 = t1;
    msm_g1(&shh, pp->h, pv->a, NULL, (size_t)(pv->m - 1), 0, pv->msm_scratch, pool);
    t1 = gm_now_ns(), t->msm_h += t1 - t0, t0 = t1;

    /* Assemble. */
    const groth16_vk_t *vk = &pp->vk;
    g1_jac_t alpha, beta1, delta1, ga, gc, x;
    g2_jac_t beta2, delta2, gb;
    g1_from_affine(&alpha, &vk->alpha_g1);
    g1_from_affine(&beta1, &vk->beta_g1);
    g1_from_affine(&delta1, &vk->delta_g1);
    g2_from_affine(&beta2, &vk->beta_g2);
    g2_from_affine(&delta2, &vk->delta_g2);

    g1_mul_fr(&ga, &delta1, r);
    g1_add(&ga, &ga, &alpha);
    g1_add(&ga, &ga, &sa);

    g2_mul_fr(&gb, &delta2, s);
    g2_add(&gb, &gb, &beta2);
    g2_add(&gb, &gb, &sb2);

    fr_t rs;
    fr_mul(&rs, r, s);
    g1_mul_fr(&gc, &delta1, &rs);
    g1_mul_fr(&x, &alpha, s);
    g1_add(&gc, &gc, &x);
    g1_mul_fr(&x, &beta1, r);
    g1_add(&gc, &gc, &x);
    g1_mul_fr(&x, &sa, s);
    g1_add(&gc, &gc, &x);
    g1_mul_fr(&x, &sb1, r);
    g1_add(&gc, &gc, &x);
    g1_add(&gc, &gc, &shh);
    g1_add(&gc, &gc, &sl);

    g1_to_affine(&out->a, &ga);
    g2_to_affine(&out->b, &gb);
    g1_to_affine(&out->c, &gc);

    if (!(flags & GROTH16_PROVE_NO_VERIFY)) {
        err_t e2;
        int rc = groth16_verify(&pv->pvk, out, w->inputs + 1, w->n_inputs - 1, &e2);
        t1 = gm_now_ns(), t->verify += t1 - t0, t0 = t1;
        if (rc)
            return gm_err_set(err, rc == GM_EVERIFY ? GM_EVERIFY : rc,
                              "prover: witness %zu: the proof does not verify (%s): the witness does not satisfy "
                              "the circuit, or the parameters are not for it", idx, e2.msg);
    }
    return 0;
}

int groth16_prove(groth16_prover_t *pv, groth16_proof_t *out, const groth16_witness_t *w, size_t k,
                  const fr_t *rs, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times,
                  err_t *err)
{
    groth16_timings_t t;
    memset(&t, 0, sizeof t);
    uint64_t start = gm_now_ns();
    int rc = 0;
    for (size_t i = 0; i < k; i++) {
        fr_t r_s[2];
        if (rs) {
            r_s[0] = rs[2 * i];
            r_s[1] = rs[2 * i + 1];
        } else if ((rc = g16_random_fr(r_s, 2, 256, err))) {
            break;
        }
        if ((rc = prove_one(pv, &out[i], &w[i], &r_s[0], &r_s[1], flags, pool, &t, i, err)))
            break;
    }
    t.total = gm_now_ns() - start;
    if (times)
        *times = t;
    return rc;
}
