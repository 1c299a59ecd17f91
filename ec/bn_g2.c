/*
 * ec/bn_g2.c — BN254's G2: the order-r subgroup of the D-type sextic twist
 * y^2 = x^3 + 3/xi over Fp2 (xi = 9 + u). The point arithmetic is the shape
 * of ec/ec_shape.h over bn_fp2 (without the BLS12-381 endomorphism parts);
 * this file adds the constants, the subgroup test, the two encodings
 * (Ethereum precompile, snarkjs) and the public bn_g2_* functions of ec/ec.h.
 */
#include "ec/ec_internal.h"

/* Constants in Montgomery form (R = 2^256), little-endian limbs. */
const bn_g2_affine_t BN254_G2_GENERATOR = {
    .x = {
        /* c0 = 0x1800deef...8ff8 (10857046999...655852781) */
        .c0 = {{0x8e83b5d102bc2026ULL, 0xdceb1935497b0172ULL, 0xfbb8264797811adfULL, 0x19573841af96503bULL}},
        /* c1 = 0x198e9393...c2ed (11559732032...391805634) */
        .c1 = {{0xafb4737da84c6140ULL, 0x6043dd5a5802d8c4ULL, 0x09e950fc52a02f86ULL, 0x14fef0833aea7b6bULL}},
    },
    .y = {
        /* c0 = 0x12c85ea5...7daa (8495653923...306958101930) */
        .c0 = {{0x619dfa9d886be9f6ULL, 0xfe7fd297f59e9b78ULL, 0xff9e1a62231b7dfeULL, 0x28fd7eebae9e4206ULL}},
        /* c1 = 0x090689d0...b85b (4082367875...214120093531) */
        .c1 = {{0x64095b56c71856eeULL, 0xdc57f922327d3cbbULL, 0x55f935be33351076ULL, 0x0da4a0e693fd6482ULL}},
    },
    .inf = false,
};

/* b' = 3 / (9 + u) = 0x2b149d40...e5 + 0x009713b0...d2 u */
static const bn_fp2_t curve_b = {
    .c0 = {{0x3bf938e377b802a8ULL, 0x020b1b273633535dULL, 0x26b7edf049755260ULL, 0x2514c6324384a86dULL}},
    .c1 = {{0x38e7ecccd1dcff67ULL, 0x65f0b37d93ce0d3eULL, 0xd749d0dd22ac00aaULL, 0x0141b9ce4a688d4dULL}},
};

#define EC_PT bn_g2
#define EC_FE bn_fp2
#define EC_FE_T bn_fp2_t
#define EC_FE_ONE BN254_FP2_ONE
#include "ec/ec_shape.h"

/* r * p == 0. The twist's order is r (2p - r), so a point outside G2 has a
 * component of order dividing 2p - r, coprime to r, which r*p keeps. */
static bool bn_g2_in_subgroup(const bn_g2_affine_t *p)
{
    if (p->inf)
        return true;
    bn_g2_jac_t j, rp;
    jac_from_affine(&j, p);
    jac_mul_plain(&rp, &j, BN254_FR_MODULUS);
    return jac_is_inf(&rp);
}

/* The point given two decoded coordinates: (0, 0) is the identity, anything
 * else must be on the twist and, when asked, in G2. */
static int bn_g2_finish_decode(bn_g2_affine_t *out, const bn_fp2_t *x, const bn_fp2_t *y, bool check_subgroup)
{
    bn_g2_affine_t p = {.x = *x, .y = *y, .inf = false};
    if (bn_fp2_is_zero(x) && bn_fp2_is_zero(y)) {
        affine_set_inf(out);
        return GM_OK;
    }
    if (!affine_on_curve(&p))
        return GM_ENOTONCURVE;
    if (check_subgroup && !bn_g2_in_subgroup(&p))
        return GM_ESUBGROUP;
    *out = p;
    return GM_OK;
}

/* snarkjs: x.c0 x.c1 y.c0 y.c1, Montgomery little-endian; the coordinates
 * only (bn_g2_from_bytes_snarkjs_raw). */
static int bn_g2_decode_snarkjs_raw(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
{
    bn_g2_affine_t p = {.inf = false};
    int rc = bn_fp_from_mont_le(&p.x.c0, in);
    if (rc == GM_OK)
        rc = bn_fp_from_mont_le(&p.x.c1, in + BN254_BYTES);
    if (rc == GM_OK)
        rc = bn_fp_from_mont_le(&p.y.c0, in + 2 * BN254_BYTES);
    if (rc == GM_OK)
        rc = bn_fp_from_mont_le(&p.y.c1, in + 3 * BN254_BYTES);
    if (rc != GM_OK)
        return rc;
    if (bn_fp2_is_zero(&p.x) && bn_fp2_is_zero(&p.y))
        affine_set_inf(&p);
    *out = p;
    return GM_OK;
}

static int bn_g2_decode_snarkjs(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES], bool check_subgroup)
{
    bn_g2_affine_t p;
    int rc = bn_g2_decode_snarkjs_raw(&p, in);
    return rc != GM_OK ? rc : bn_g2_finish_decode(out, &p.x, &p.y, check_subgroup);
}

/* ---- the public functions of ec/ec.h (the shape above, by name) ---------------------- */

void bn_g2_affine_set_inf(bn_g2_affine_t *out) { affine_set_inf(out); }
void bn_g2_jac_set_inf(bn_g2_jac_t *out) { jac_set_inf(out); }
bool bn_g2_jac_is_inf(const bn_g2_jac_t *p) { return jac_is_inf(p); }
void bn_g2_from_affine(bn_g2_jac_t *out, const bn_g2_affine_t *p) { jac_from_affine(out, p); }
void bn_g2_to_affine(bn_g2_affine_t *out, const bn_g2_jac_t *p) { jac_to_affine(out, p); }
void bn_g2_batch_to_affine(bn_g2_affine_t *out, const bn_g2_jac_t *p, size_t n, bn_fp2_t *scratch)
{
    jac_batch_to_affine(out, p, n, scratch);
}
bool bn_g2_affine_eq(const bn_g2_affine_t *a, const bn_g2_affine_t *b) { return affine_eq(a, b); }
bool bn_g2_jac_eq(const bn_g2_jac_t *a, const bn_g2_jac_t *b) { return jac_eq(a, b); }
void bn_g2_neg(bn_g2_jac_t *out, const bn_g2_jac_t *p) { jac_neg(out, p); }
void bn_g2_affine_neg(bn_g2_affine_t *out, const bn_g2_affine_t *p) { affine_neg(out, p); }
void bn_g2_dbl(bn_g2_jac_t *out, const bn_g2_jac_t *p) { jac_dbl(out, p); }
void bn_g2_add(bn_g2_jac_t *out, const bn_g2_jac_t *p, const bn_g2_jac_t *q) { jac_add(out, p, q); }
void bn_g2_add_mixed(bn_g2_jac_t *out, const bn_g2_jac_t *p, const bn_g2_affine_t *q)
{
    jac_add_mixed(out, p, q);
}
void bn_g2_mul(bn_g2_jac_t *out, const bn_g2_jac_t *p, const uint64_t k[4]) { jac_mul_plain(out, p, k); }
void bn_g2_mul_fr(bn_g2_jac_t *out, const bn_g2_jac_t *p, const bn_fr_t *k)
{
    uint64_t l[4];
    bn_fr_to_limbs(l, k);
    jac_mul_plain(out, p, l);
}
bool bn_g2_affine_on_curve(const bn_g2_affine_t *p) { return affine_on_curve(p); }
size_t bn_g2_first_off_curve(const bn_g2_affine_t *p, size_t n)
{
    return fr_x8_enabled() ? bn_g2_x8_first_off_curve(p, n, &curve_b) : affine_first_off_curve(p, n);
}
bool bn_g2_jac_on_curve(const bn_g2_jac_t *p) { return jac_on_curve(p); }
bool bn_g2_affine_in_subgroup(const bn_g2_affine_t *p) { return bn_g2_in_subgroup(p); }
void bn_g2_xyzz_set_inf(bn_g2_xyzz_t *out) { xyzz_set_inf(out); }
void bn_g2_xyzz_add_affine(bn_g2_xyzz_t *out, const bn_g2_xyzz_t *p, const bn_g2_affine_t *q)
{
    xyzz_add_affine(out, p, q);
}
void bn_g2_xyzz_add(bn_g2_xyzz_t *out, const bn_g2_xyzz_t *p, const bn_g2_xyzz_t *q) { xyzz_add(out, p, q); }
void bn_g2_xyzz_dbl(bn_g2_xyzz_t *out, const bn_g2_xyzz_t *p) { xyzz_dbl(out, p); }
void bn_g2_xyzz_to_jac(bn_g2_jac_t *out, const bn_g2_xyzz_t *p) { xyzz_to_jac(out, p); }

/* EIP-197: x.c1 x.c0 y.c1 y.c0, big-endian. */
void bn_g2_to_bytes_eth(uint8_t out[BN254_G2_BYTES], const bn_g2_affine_t *p)
{
    if (p->inf) {
        memset(out, 0, BN254_G2_BYTES);
        return;
    }
    bn_fp_to_bytes_be(out, &p->x.c1);
    bn_fp_to_bytes_be(out + BN254_BYTES, &p->x.c0);
    bn_fp_to_bytes_be(out + 2 * BN254_BYTES, &p->y.c1);
    bn_fp_to_bytes_be(out + 3 * BN254_BYTES, &p->y.c0);
}

int bn_g2_from_bytes_eth(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
{
    bn_fp2_t x, y;
    int rc = bn_fp_from_bytes_be(&x.c1, in);
    if (rc == GM_OK)
        rc = bn_fp_from_bytes_be(&x.c0, in + BN254_BYTES);
    if (rc == GM_OK)
        rc = bn_fp_from_bytes_be(&y.c1, in + 2 * BN254_BYTES);
    if (rc == GM_OK)
        rc = bn_fp_from_bytes_be(&y.c0, in + 3 * BN254_BYTES);
    return rc != GM_OK ? rc : bn_g2_finish_decode(out, &x, &y, true);
}

void bn_g2_to_bytes_snarkjs(uint8_t out[BN254_G2_BYTES], const bn_g2_affine_t *p)
{
    if (p->inf) {
        memset(out, 0, BN254_G2_BYTES);
        return;
    }
    bn_fp_to_mont_le(out, &p->x.c0);
    bn_fp_to_mont_le(out + BN254_BYTES, &p->x.c1);
    bn_fp_to_mont_le(out + 2 * BN254_BYTES, &p->y.c0);
    bn_fp_to_mont_le(out + 3 * BN254_BYTES, &p->y.c1);
}

int bn_g2_from_bytes_snarkjs(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
{
    return bn_g2_decode_snarkjs(out, in, true);
}
int bn_g2_from_bytes_snarkjs_unchecked(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
{
    return bn_g2_decode_snarkjs(out, in, false);
}
int bn_g2_from_bytes_snarkjs_raw(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
{
    return bn_g2_decode_snarkjs_raw(out, in);
}
