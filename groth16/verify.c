/*
 * groth16/verify.c — the verifier: a prepared key, one proof (three Miller
 * loops against the cached e(alpha, beta)), and a batch of proofs by a random
 * linear combination (k + 3 Miller loops, one final exponentiation).
 *
 * Batch: with random 128-bit rho_i, the k equations
 *   e(A_i, B_i) = e(alpha, beta) e(acc_i, gamma) e(C_i, delta)
 * hold together (except with probability 2^-128 per wrong proof) when
 *   prod_i e(rho_i A_i, B_i) e(sum rho_i alpha, -beta)
 *          e(sum rho_i acc_i, -gamma) e(sum rho_i C_i, -delta) = 1,
 * and sum_i rho_i acc_i = sum_j (sum_i rho_i x_ij) ic_j is one pass over ic.
 */
#include <string.h>

#include "groth16/groth16_internal.h"

int groth16_pvk_prepare(groth16_pvk_t *out, const groth16_vk_t *vk, err_t *err)
{
    memset(out, 0, sizeof *out);
    out->ic = gm_alloc((vk->n_ic + 1) * sizeof(g1_affine_t));
    if (!out->ic)
        return gm_err_set(err, GM_ENOMEM, "verifying key: out of memory for %zu ic points", vk->n_ic);
    memcpy(out->ic, vk->ic, vk->n_ic * sizeof(g1_affine_t));
    out->n_ic = vk->n_ic;
    out->alpha_g1 = vk->alpha_g1;
    pairing(&out->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    g2_affine_neg(&out->neg_beta_g2, &vk->beta_g2);
    g2_affine_neg(&out->neg_gamma_g2, &vk->gamma_g2);
    g2_affine_neg(&out->neg_delta_g2, &vk->delta_g2);
    return 0;
}

void groth16_pvk_free(groth16_pvk_t *pvk)
{
    if (!pvk)
        return;
    gm_free(pvk->ic);
    memset(pvk, 0, sizeof *pvk);
}

/* out = sum_j s_j ic_j with s_0 given separately (naive: few inputs). */
static void ic_combine(g1_affine_t *out, const groth16_pvk_t *pvk, const fr_t *s0, const fr_t *s, size_t n)
{
    g1_jac_t acc, t, p;
    g1_from_affine(&p, &pvk->ic[0]);
    g1_mul_fr(&acc, &p, s0);
    for (size_t i = 0; i < n; i++) {
        if (fr_is_zero(&s[i]))
            continue;
        g1_from_affine(&p, &pvk->ic[i + 1]);
        if (fr_is_one(&s[i]))
            t = p;
        else
            g1_mul_fr(&t, &p, &s[i]);
        g1_add(&acc, &acc, &t);
    }
    g1_to_affine(out, &acc);
}

int groth16_verify(const groth16_pvk_t *pvk, const groth16_proof_t *proof, const fr_t *inputs, size_t n_inputs,
                   err_t *err)
{
    if (n_inputs + 1 != pvk->n_ic)
        return gm_err_set(err, GM_EINVAL, "verify: %zu public inputs given, the verifying key has %zu", n_inputs,
                          pvk->n_ic ? pvk->n_ic - 1 : 0);
    g1_affine_t p[3];
    g2_affine_t q[3];
    p[0] = proof->a;
    q[0] = proof->b;
    ic_combine(&p[1], pvk, &FR_ONE, inputs, n_inputs);
    q[1] = pvk->neg_gamma_g2;
    p[2] = proof->c;
    q[2] = pvk->neg_delta_g2;
    fp12_t f, e;
    pairing_miller_loop_n(&f, p, q, 3);
    pairing_final_exp(&e, &f);
    if (!fp12_eq(&e, &pvk->alpha_beta))
        return gm_err_set(err, GM_EVERIFY, "verify: the pairing equation does not hold");
    return 0;
}

int groth16_verify_batch(const groth16_pvk_t *pvk, const groth16_proof_t *proofs, const fr_t *inputs, size_t n_inputs,
                         size_t k, err_t *err)
{
    if (n_inputs + 1 != pvk->n_ic)
        return gm_err_set(err, GM_EINVAL, "verify: %zu public inputs per proof given, the verifying key has %zu",
                          n_inputs, pvk->n_ic ? pvk->n_ic - 1 : 0);
    if (k == 0)
        return 0;
    int rc = 0;
    g1_affine_t *p = gm_alloc((k + 3) * sizeof *p);
    g2_affine_t *q = gm_alloc((k + 3) * sizeof *q);
    fr_t *rho = gm_alloc(k * sizeof *rho);
    fr_t *coef = gm_calloc(n_inputs + 1, sizeof *coef);
    if (!p || !q || !rho || !coef) {
        rc = gm_err_set(err, GM_ENOMEM, "verify: out of memory for a batch of %zu proofs", k);
        goto done;
    }
    if ((rc = groth16_random_fr(rho, k, 128, err)))
        goto done;
    fr_t rsum = FR_ZERO;
    g1_jac_t csum, t, pj;
    g1_jac_set_inf(&csum);
    for (size_t i = 0; i < k; i++) {
        fr_add(&rsum, &rsum, &rho[i]);
        for (size_t j = 0; j < n_inputs; j++) {
            fr_t x;
            fr_mul(&x, &rho[i], &inputs[i * n_inputs + j]);
            fr_add(&coef[j], &coef[j], &x);
        }
        g1_from_affine(&pj, &proofs[i].a);
        g1_mul_fr(&t, &pj, &rho[i]);
        g1_to_affine(&p[i], &t);
        q[i] = proofs[i].b;
        g1_from_affine(&pj, &proofs[i].c);
        g1_mul_fr(&t, &pj, &rho[i]);
        g1_add(&csum, &csum, &t);
    }
    g1_from_affine(&pj, &pvk->alpha_g1);
    g1_mul_fr(&t, &pj, &rsum);
    g1_to_affine(&p[k], &t);
    q[k] = pvk->neg_beta_g2;
    ic_combine(&p[k + 1], pvk, &rsum, coef, n_inputs);
    q[k + 1] = pvk->neg_gamma_g2;
    g1_to_affine(&p[k + 2], &csum);
    q[k + 2] = pvk->neg_delta_g2;
    if (!pairing_product_is_one(p, q, k + 3))
        rc = gm_err_set(err, GM_EVERIFY, "verify: the batch of %zu proofs does not verify", k);
done:
    gm_free(p);
    gm_free(q);
    gm_free(rho);
    gm_free(coef);
    return rc;
}
