/*
 * snarkjs/bn_json.c — snarkjs's JSON files (snarkjs/json_shape.h) for BN254
 * ("curve": "bn128") under the snarkjs_bn_ names of snarkjs/snarkjs.h, and
 * BN254's verifier: snarkjs's own check, one pairing product
 * e(-A, B) e(alpha, beta) e(acc, gamma) e(C, delta) = 1.
 */
#include <jansson.h>
#include <stdio.h>

#define SJ_BN128
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/json_shape.h"

void snarkjs_bn_vk_free(snarkjs_bn_vk_t *vk)
{
    if (!vk)
        return;
    gm_free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

int snarkjs_bn_proof_to_json(char **out, const snarkjs_bn_proof_t *proof, err_t *err)
{
    return proof_to_json(out, proof, err);
}

int snarkjs_bn_public_to_json(char **out, const bn_fr_t *pub, size_t n, err_t *err)
{
    return public_to_json(out, pub, n, err);
}

int snarkjs_bn_proof_write_json(const char *path, const snarkjs_bn_proof_t *proof, err_t *err)
{
    return proof_write_json(path, proof, err);
}

int snarkjs_bn_public_write_json(const char *path, const bn_fr_t *pub, size_t n, err_t *err)
{
    return public_write_json(path, pub, n, err);
}

int snarkjs_bn_proof_read_json(snarkjs_bn_proof_t *out, const char *path, err_t *err)
{
    return proof_read_json(out, path, err);
}

int snarkjs_bn_public_read_json(bn_fr_t **out, size_t *n, const char *path, err_t *err)
{
    return public_read_json(out, n, path, err);
}

int snarkjs_bn_vk_read_json(snarkjs_bn_vk_t *out, const char *path, err_t *err) { return vk_read_json(out, path, err); }

int snarkjs_bn_verify(const snarkjs_bn_vk_t *vk, const snarkjs_bn_proof_t *proof, const bn_fr_t *pub, size_t n,
                      err_t *err)
{
    if (n + 1 != vk->n_ic)
        return gm_err_set(err, GM_EINVAL, "verify: %zu public values given, the verification key has nPublic = %zu", n,
                          vk->n_ic ? vk->n_ic - 1 : 0);
    bn_g1_jac_t acc, t, p;
    bn_g1_from_affine(&acc, &vk->ic[0]);
    for (size_t i = 0; i < n; i++) {
        if (bn_fr_is_zero(&pub[i]))
            continue;
        bn_g1_from_affine(&p, &vk->ic[i + 1]);
        bn_g1_mul_fr(&t, &p, &pub[i]);
        bn_g1_add(&acc, &acc, &t);
    }
    bn_g1_affine_t ps[4];
    bn_g2_affine_t qs[4] = {proof->b, vk->beta_g2, vk->gamma_g2, vk->delta_g2};
    bn_g1_affine_neg(&ps[0], &proof->a);
    ps[1] = vk->alpha_g1;
    bn_g1_to_affine(&ps[2], &acc);
    ps[3] = proof->c;
    if (!bn_pairing_product_is_one(ps, qs, 4))
        return gm_err_set(err, GM_EVERIFY, "verify: the pairing equation does not hold");
    return 0;
}

void snarkjs_bn_proof_to_bytes(uint8_t out[SNARKJS_BN_PROOF_BYTES], const snarkjs_bn_proof_t *proof)
{
    bn_g1_to_bytes_eth(out, &proof->a);
    bn_g2_to_bytes_eth(out + BN254_G1_BYTES, &proof->b);
    bn_g1_to_bytes_eth(out + BN254_G1_BYTES + BN254_G2_BYTES, &proof->c);
}

int snarkjs_bn_proof_from_bytes(snarkjs_bn_proof_t *out, const uint8_t in[SNARKJS_BN_PROOF_BYTES], const char *what,
                                err_t *err)
{
    snarkjs_bn_proof_t p;
    int rc;
    if ((rc = bn_g1_from_bytes_eth(&p.a, in)))
        return gm_err_set(err, rc, "%s: A: %s", what, sj_point_err(rc));
    if ((rc = bn_g2_from_bytes_eth(&p.b, in + BN254_G1_BYTES)))
        return gm_err_set(err, rc, "%s: B: %s", what, sj_point_err(rc));
    if ((rc = bn_g1_from_bytes_eth(&p.c, in + BN254_G1_BYTES + BN254_G2_BYTES)))
        return gm_err_set(err, rc, "%s: C: %s", what, sj_point_err(rc));
    *out = p;
    return 0;
}
