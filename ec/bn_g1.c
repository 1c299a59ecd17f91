/*
 * ec/bn_g1.c — BN254's G1: y^2 = x^3 + 3 over BN254's Fp, of prime order r
 * (cofactor 1). The point arithmetic is the shape of ec/ec_shape.h over
 * bn_fp (without the BLS12-381 endomorphism parts); this file adds the
 * constants, the two encodings (Ethereum precompile, snarkjs) and the public
 * bn_g1_* functions of ec/ec.h, by name.
 */
#include "ec/ec_internal.h"

/* Constants in Montgomery form (R = 2^256), little-endian limbs. */
const bn_g1_affine_t BN254_G1_GENERATOR = {
    .x = {{0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL}}, /* 1 */
    .y = {{0xa6ba871b8b1e1b3aULL, 0x14f1d651eb8e167bULL, 0xccdd46def0f28c58ULL, 0x1c14ef83340fbe5eULL}}, /* 2 */
    .inf = false,
};

/* b = 3 */
static const bn_fp_t curve_b = {{0x7a17caa950ad28d7ULL, 0x1f6ac17ae15521b9ULL, 0x334bea4e696bd284ULL,
                                 0x2a1f6744ce179d8eULL}};

#define EC_PT bn_g1
#define EC_FE bn_fp
#define EC_FE_T bn_fp_t
#define EC_FE_ONE BN254_FP_ONE
#include "ec/ec_shape.h"

/* The point given two decoded coordinates: (0, 0) is the identity, anything
 * else must satisfy the curve equation. */
static int bn_g1_finish_decode(bn_g1_affine_t *out, const bn_fp_t *x, const bn_fp_t *y)
{
    bn_g1_affine_t p = {.x = *x, .y = *y, .inf = false};
    if (bn_fp_is_zero(x) && bn_fp_is_zero(y)) {
        affine_set_inf(out);
        return GM_OK;
    }
    if (!affine_on_curve(&p))
        return GM_ENOTONCURVE;
    *out = p;
    return GM_OK;
}

/* ---- the public functions of ec/ec.h (the shape above, by name) ---------------------- */

void bn_g1_affine_set_inf(bn_g1_affine_t *out) { affine_set_inf(out); }
void bn_g1_jac_set_inf(bn_g1_jac_t *out) { jac_set_inf(out); }
bool bn_g1_jac_is_inf(const bn_g1_jac_t *p) { return jac_is_inf(p); }
void bn_g1_from_affine(bn_g1_jac_t *out, const bn_g1_affine_t *p) { jac_from_affine(out, p); }
void bn_g1_to_affine(bn_g1_affine_t *out, const bn_g1_jac_t *p) { jac_to_affine(out, p); }
void bn_g1_batch_to_affine(bn_g1_affine_t *out, const bn_g1_jac_t *p, size_t n, bn_fp_t *scratch)
{
    jac_batch_to_affine(out, p, n, scratch);
}
bool bn_g1_affine_eq(const bn_g1_affine_t *a, const bn_g1_affine_t *b) { return affine_eq(a, b); }
bool bn_g1_jac_eq(const bn_g1_jac_t *a, const bn_g1_jac_t *b) { return jac_eq(a, b); }
void bn_g1_neg(bn_g1_jac_t *out, const bn_g1_jac_t *p) { jac_neg(out, p); }
void bn_g1_affine_neg(bn_g1_affine_t *out, const bn_g1_affine_t *p) { affine_neg(out, p); }
void bn_g1_dbl(bn_g1_jac_t *out, const bn_g1_jac_t *p) { jac_dbl(out, p); }
void bn_g1_add(bn_g1_jac_t *out, const bn_g1_jac_t *p, const bn_g1_jac_t *q) { jac_add(out, p, q); }
void bn_g1_add_mixed(bn_g1_jac_t *out, const bn_g1_jac_t *p, const bn_g1_affine_t *q)
{
    jac_add_mixed(out, p, q);
}
void bn_g1_mul(bn_g1_jac_t *out, const bn_g1_jac_t *p, const uint64_t k[4]) { jac_mul_plain(out, p, k); }
void bn_g1_mul_fr(bn_g1_jac_t *out, const bn_g1_jac_t *p, const bn_fr_t *k)
{
    uint64_t l[4];
    bn_fr_to_limbs(l, k);
    jac_mul_plain(out, p, l);
}
bool bn_g1_affine_on_curve(const bn_g1_affine_t *p) { return affine_on_curve(p); }
size_t bn_g1_first_off_curve(const bn_g1_affine_t *p, size_t n)
{
    return fr_x8_enabled() ? bn_g1_x8_first_off_curve(p, n, &curve_b) : affine_first_off_curve(p, n);
}
bool bn_g1_jac_on_curve(const bn_g1_jac_t *p) { return jac_on_curve(p); }
void bn_g1_xyzz_set_inf(bn_g1_xyzz_t *out) { xyzz_set_inf(out); }
void bn_g1_xyzz_add_affine(bn_g1_xyzz_t *out, const bn_g1_xyzz_t *p, const bn_g1_affine_t *q)
{
    xyzz_add_affine(out, p, q);
}
void bn_g1_xyzz_add(bn_g1_xyzz_t *out, const bn_g1_xyzz_t *p, const bn_g1_xyzz_t *q) { xyzz_add(out, p, q); }
void bn_g1_xyzz_dbl(bn_g1_xyzz_t *out, const bn_g1_xyzz_t *p) { xyzz_dbl(out, p); }
void bn_g1_xyzz_to_jac(bn_g1_jac_t *out, const bn_g1_xyzz_t *p) { xyzz_to_jac(out, p); }

void bn_g1_to_bytes_eth(uint8_t out[BN254_G1_BYTES], const bn_g1_affine_t *p)
{
    if (p->inf) {
        memset(out, 0, BN254_G1_BYTES);
        return;
    }
    bn_fp_to_bytes_be(out, &p->x);
    bn_fp_to_bytes_be(out + BN254_BYTES, &p->y);
}

int bn_g1_from_bytes_eth(bn_g1_affine_t *out, const uint8_t in[BN254_G1_BYTES])
{
    bn_fp_t x, y;
    int rc = bn_fp_from_bytes_be(&x, in);
    if (rc == GM_OK)
        rc = bn_fp_from_bytes_be(&y, in + BN254_BYTES);
    return rc != GM_OK ? rc : bn_g1_finish_decode(out, &x, &y);
}

void bn_g1_to_bytes_snarkjs(uint8_t out[BN254_G1_BYTES], const bn_g1_affine_t *p)
{
    if (p->inf) {
        memset(out, 0, BN254_G1_BYTES);
        return;
    }
    bn_fp_to_mont_le(out, &p->x);
    bn_fp_to_mont_le(out + BN254_BYTES, &p->y);
}

int bn_g1_from_bytes_snarkjs_raw(bn_g1_affine_t *out, const uint8_t in[BN254_G1_BYTES])
{
    bn_g1_affine_t p = {.inf = false};
    int rc = bn_fp_from_mont_le(&p.x, in);
    if (rc == GM_OK)
        rc = bn_fp_from_mont_le(&p.y, in + BN254_BYTES);
    if (rc != GM_OK)
        return rc;
    if (bn_fp_is_zero(&p.x) && bn_fp_is_zero(&p.y))
        affine_set_inf(&p);
    *out = p;
    return GM_OK;
}

int bn_g1_from_bytes_snarkjs(bn_g1_affine_t *out, const uint8_t in[BN254_G1_BYTES])
{
    bn_g1_affine_t p;
    int rc = bn_g1_from_bytes_snarkjs_raw(&p, in);
    return rc != GM_OK ? rc : bn_g1_finish_decode(out, &p.x, &p.y);
}
