/*
 * bn_tower.c — the pairing tower of BN254 over ff/bn_fp.c:
 *   Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi) with xi = 9 + u,
 *   Fp12 = Fp6[w]/(w^2 - v),
 * the tower of snarkjs (ffjavascript), @noble/curves and EIP-197. It serves
 * only the verifier's pairing (ec/bn_pairing.c), a few per proof, so it is
 * written plainly over the public bn_fp_* calls (Karatsuba where it saves a
 * multiplication) rather than with the lazy reductions of the BLS12-381
 * tower, whose pairing the prover's checks run far more often. The exception
 * is the Fp2 product and square, which G2's points (ec/bn_g2.c, the MSM) run
 * on: on the ADX path they are ff/mont_adx.c's, with the Fp kernel inlined.
 */
#include "ff/ff_internal.h"

const bn_fp2_t BN254_FP2_ZERO = {{{0}}, {{0}}};
#define BN_ONE_INIT {{0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL}}
const bn_fp2_t BN254_FP2_ONE = {BN_ONE_INIT, {{0}}};
const bn_fp12_t BN254_FP12_ONE = {.c0 = {.c0 = {BN_ONE_INIT, {{0}}}}};

/* ---- Fp2 ---------------------------------------------------------------------- */

bool bn_fp2_is_zero(const bn_fp2_t *a) { return bn_fp_is_zero(&a->c0) && bn_fp_is_zero(&a->c1); }
bool bn_fp2_eq(const bn_fp2_t *a, const bn_fp2_t *b)
{
    return bn_fp_eq(&a->c0, &b->c0) && bn_fp_eq(&a->c1, &b->c1);
}
void bn_fp2_add(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b)
{
    bn_fp_add(&out->c0, &a->c0, &b->c0);
    bn_fp_add(&out->c1, &a->c1, &b->c1);
}
void bn_fp2_sub(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b)
{
    bn_fp_sub(&out->c0, &a->c0, &b->c0);
    bn_fp_sub(&out->c1, &a->c1, &b->c1);
}
void bn_fp2_neg(bn_fp2_t *out, const bn_fp2_t *a)
{
    bn_fp_neg(&out->c0, &a->c0);
    bn_fp_neg(&out->c1, &a->c1);
}
void bn_fp2_dbl(bn_fp2_t *out, const bn_fp2_t *a) { bn_fp2_add(out, a, a); }
void bn_fp2_conj(bn_fp2_t *out, const bn_fp2_t *a)
{
    out->c0 = a->c0;
    bn_fp_neg(&out->c1, &a->c1);
}

/* Karatsuba: a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u, 3M. */
static void bn_fp2_mul_portable(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b)
{
    bn_fp_t t0, t1, sa, sb;
    bn_fp_mul(&t0, &a->c0, &b->c0);
    bn_fp_mul(&t1, &a->c1, &b->c1);
    bn_fp_add(&sa, &a->c0, &a->c1);
    bn_fp_add(&sb, &b->c0, &b->c1);
    bn_fp_mul(&sa, &sa, &sb);
    bn_fp_sub(&out->c0, &t0, &t1);
    bn_fp_sub(&sa, &sa, &t0);
    bn_fp_sub(&out->c1, &sa, &t1);
}

/* (a0 + a1)(a0 - a1) + 2 a0 a1 u, 2M. */
static void bn_fp2_sqr_portable(bn_fp2_t *out, const bn_fp2_t *a)
{
    bn_fp_t s, d, m;
    bn_fp_add(&s, &a->c0, &a->c1);
    bn_fp_sub(&d, &a->c0, &a->c1);
    bn_fp_mul(&m, &a->c0, &a->c1);
    bn_fp_mul(&out->c0, &s, &d);
    bn_fp_dbl(&out->c1, &m);
}

/* The path is chosen once per Fp2 product: on ADX the whole product is one
 * function with the Fp kernel inlined (ff/mont_adx.c), which G2's MSM needs. */
void bn_fp2_mul(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b)
{
    if (ff_path_selected == FF_PATH_ADX)
        bn_fp2_mul_adx(out, a, b);
    else
        bn_fp2_mul_portable(out, a, b);
}

void bn_fp2_sqr(bn_fp2_t *out, const bn_fp2_t *a)
{
    if (ff_path_selected == FF_PATH_ADX)
        bn_fp2_sqr_adx(out, a);
    else
        bn_fp2_sqr_portable(out, a);
}

void bn_fp2_mul_fp(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp_t *b)
{
    bn_fp_mul(&out->c0, &a->c0, b);
    bn_fp_mul(&out->c1, &a->c1, b);
}

/* (a0 + a1 u)(9 + u) = (9 a0 - a1) + (a0 + 9 a1) u; 9a = 8a + a. */
void bn_fp2_mul_xi(bn_fp2_t *out, const bn_fp2_t *a)
{
    bn_fp2_t n = *a;
    bn_fp2_dbl(&n, &n);
    bn_fp2_dbl(&n, &n);
    bn_fp2_dbl(&n, &n);
    bn_fp2_add(&n, &n, a); /* 9a */
    bn_fp_sub(&n.c0, &n.c0, &a->c1);
    bn_fp_add(&n.c1, &n.c1, &a->c0);
    *out = n;
}

/* conj(a) / (a0^2 + a1^2). */
void bn_fp2_inv(bn_fp2_t *out, const bn_fp2_t *a)
{
    bn_fp_t n, t;
    bn_fp_sqr(&n, &a->c0);
    bn_fp_sqr(&t, &a->c1);
    bn_fp_add(&n, &n, &t);
    bn_fp_inv(&n, &n);
    bn_fp_mul(&out->c0, &a->c0, &n);
    bn_fp_mul(&t, &a->c1, &n);
    bn_fp_neg(&out->c1, &t);
}

/* ---- Fp6 ---------------------------------------------------------------------- */

bool bn_fp6_is_zero(const bn_fp6_t *a)
{
    return bn_fp2_is_zero(&a->c0) && bn_fp2_is_zero(&a->c1) && bn_fp2_is_zero(&a->c2);
}
bool bn_fp6_eq(const bn_fp6_t *a, const bn_fp6_t *b)
{
    return bn_fp2_eq(&a->c0, &b->c0) && bn_fp2_eq(&a->c1, &b->c1) && bn_fp2_eq(&a->c2, &b->c2);
}
void bn_fp6_add(bn_fp6_t *out, const bn_fp6_t *a, const bn_fp6_t *b)
{
    bn_fp2_add(&out->c0, &a->c0, &b->c0);
    bn_fp2_add(&out->c1, &a->c1, &b->c1);
    bn_fp2_add(&out->c2, &a->c2, &b->c2);
}
void bn_fp6_sub(bn_fp6_t *out, const bn_fp6_t *a, const bn_fp6_t *b)
{
    bn_fp2_sub(&out->c0, &a->c0, &b->c0);
    bn_fp2_sub(&out->c1, &a->c1, &b->c1);
    bn_fp2_sub(&out->c2, &a->c2, &b->c2);
}
void bn_fp6_neg(bn_fp6_t *out, const bn_fp6_t *a)
{
    bn_fp2_neg(&out->c0, &a->c0);
    bn_fp2_neg(&out->c1, &a->c1);
    bn_fp2_neg(&out->c2, &a->c2);
}

/* Karatsuba over three coefficients (6 Fp2 products), v^3 = xi:
 *   c0 = t0 + xi ((a1 + a2)(b1 + b2) - t1 - t2)
 *   c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2
 *   c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1,   ti = ai bi. */
void bn_fp6_mul(bn_fp6_t *out, const bn_fp6_t *a, const bn_fp6_t *b)
{
    bn_fp2_t t0, t1, t2, x, y, c0, c1, c2;
    bn_fp2_mul(&t0, &a->c0, &b->c0);
    bn_fp2_mul(&t1, &a->c1, &b->c1);
    bn_fp2_mul(&t2, &a->c2, &b->c2);

    bn_fp2_add(&x, &a->c1, &a->c2);
    bn_fp2_add(&y, &b->c1, &b->c2);
    bn_fp2_mul(&c0, &x, &y);
    bn_fp2_sub(&c0, &c0, &t1);
    bn_fp2_sub(&c0, &c0, &t2);
    bn_fp2_mul_xi(&c0, &c0);
    bn_fp2_add(&c0, &c0, &t0);

    bn_fp2_add(&x, &a->c0, &a->c1);
    bn_fp2_add(&y, &b->c0, &b->c1);
    bn_fp2_mul(&c1, &x, &y);
    bn_fp2_sub(&c1, &c1, &t0);
    bn_fp2_sub(&c1, &c1, &t1);
    bn_fp2_mul_xi(&x, &t2);
    bn_fp2_add(&c1, &c1, &x);

    bn_fp2_add(&x, &a->c0, &a->c2);
    bn_fp2_add(&y, &b->c0, &b->c2);
    bn_fp2_mul(&c2, &x, &y);
    bn_fp2_sub(&c2, &c2, &t0);
    bn_fp2_sub(&c2, &c2, &t2);
    bn_fp2_add(&c2, &c2, &t1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void bn_fp6_sqr(bn_fp6_t *out, const bn_fp6_t *a) { bn_fp6_mul(out, a, a); }

/* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2. */
void bn_fp6_mul_by_v(bn_fp6_t *out, const bn_fp6_t *a)
{
    bn_fp2_t t;
    bn_fp2_mul_xi(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

/* The adjugate over the norm: A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1,
 * C = a1^2 - a0 a2, F = a0 A + xi (a2 B + a1 C); a^-1 = (A + B v + C v^2) / F. */
void bn_fp6_inv(bn_fp6_t *out, const bn_fp6_t *a)
{
    bn_fp2_t A, B, C, F, t;
    bn_fp2_sqr(&A, &a->c0);
    bn_fp2_mul(&t, &a->c1, &a->c2);
    bn_fp2_mul_xi(&t, &t);
    bn_fp2_sub(&A, &A, &t);
    bn_fp2_sqr(&B, &a->c2);
    bn_fp2_mul_xi(&B, &B);
    bn_fp2_mul(&t, &a->c0, &a->c1);
    bn_fp2_sub(&B, &B, &t);
    bn_fp2_sqr(&C, &a->c1);
    bn_fp2_mul(&t, &a->c0, &a->c2);
    bn_fp2_sub(&C, &C, &t);
    bn_fp2_mul(&F, &a->c2, &B);
    bn_fp2_mul(&t, &a->c1, &C);
    bn_fp2_add(&F, &F, &t);
    bn_fp2_mul_xi(&F, &F);
    bn_fp2_mul(&t, &a->c0, &A);
    bn_fp2_add(&F, &F, &t);
    bn_fp2_inv(&F, &F);
    bn_fp2_mul(&out->c0, &A, &F);
    bn_fp2_mul(&out->c1, &B, &F);
    bn_fp2_mul(&out->c2, &C, &F);
}

/* ---- Fp12 --------------------------------------------------------------------- */

bool bn_fp12_eq(const bn_fp12_t *a, const bn_fp12_t *b)
{
    return bn_fp6_eq(&a->c0, &b->c0) && bn_fp6_eq(&a->c1, &b->c1);
}
bool bn_fp12_is_one(const bn_fp12_t *a) { return bn_fp12_eq(a, &BN254_FP12_ONE); }

/* t0 = a0 b0, t1 = a1 b1: c0 = t0 + v t1, c1 = (a0 + a1)(b0 + b1) - t0 - t1. */
void bn_fp12_mul(bn_fp12_t *out, const bn_fp12_t *a, const bn_fp12_t *b)
{
    bn_fp6_t t0, t1, x, y;
    bn_fp6_mul(&t0, &a->c0, &b->c0);
    bn_fp6_mul(&t1, &a->c1, &b->c1);
    bn_fp6_add(&x, &a->c0, &a->c1);
    bn_fp6_add(&y, &b->c0, &b->c1);
    bn_fp6_mul(&x, &x, &y);
    bn_fp6_sub(&x, &x, &t0);
    bn_fp6_sub(&out->c1, &x, &t1);
    bn_fp6_mul_by_v(&t1, &t1);
    bn_fp6_add(&out->c0, &t0, &t1);
}

/* Complex squaring: t = a0 a1, c0 = (a0 + a1)(a0 + v a1) - t - v t,
 * c1 = 2t (2 Fp6 products). */
void bn_fp12_sqr(bn_fp12_t *out, const bn_fp12_t *a)
{
    bn_fp6_t t, vt, x, y;
    bn_fp6_mul(&t, &a->c0, &a->c1);
    bn_fp6_add(&x, &a->c0, &a->c1);
    bn_fp6_mul_by_v(&y, &a->c1);
    bn_fp6_add(&y, &y, &a->c0);
    bn_fp6_mul(&x, &x, &y);
    bn_fp6_sub(&x, &x, &t);
    bn_fp6_mul_by_v(&vt, &t);
    bn_fp6_sub(&out->c0, &x, &vt);
    bn_fp6_add(&out->c1, &t, &t);
}

/* (a0 - a1 w) / (a0^2 - v a1^2). */
void bn_fp12_inv(bn_fp12_t *out, const bn_fp12_t *a)
{
    bn_fp6_t n, t;
    bn_fp6_sqr(&n, &a->c0);
    bn_fp6_sqr(&t, &a->c1);
    bn_fp6_mul_by_v(&t, &t);
    bn_fp6_sub(&n, &n, &t);
    bn_fp6_inv(&n, &n);
    bn_fp6_mul(&out->c0, &a->c0, &n);
    bn_fp6_mul(&t, &a->c1, &n);
    bn_fp6_neg(&out->c1, &t);
}

void bn_fp12_conj(bn_fp12_t *out, const bn_fp12_t *a)
{
    out->c0 = a->c0;
    bn_fp6_neg(&out->c1, &a->c1);
}

/*
 * In the basis w^i (w^6 = xi; w^2 = v), a = sum a_i w^i with a_i in Fp2 and
 * a^p = sum conj(a_i) gamma_i w^i, gamma_i = xi^(i (p - 1) / 6) (Montgomery
 * form; the multiplication by gamma_0 = 1 is skipped). The coefficient of w^i sits at c(i % 2).c(i / 2).
 */
const bn_fp2_t BN254_FROB_GAMMA[6] = {
    {BN_ONE_INIT, {{0}}},
    {{{0xaf9ba69633144907ULL, 0xca6b1d7387afb78aULL, 0x11bded5ef08a2087ULL, 0x02f34d751a1f3a7cULL}},
     {{0xa222ae234c492d72ULL, 0xd00f02a4565de15bULL, 0xdc2ff3a253dfc926ULL, 0x10a75716b3899551ULL}}},
    {{{0xb5773b104563ab30ULL, 0x347f91c8a9aa6454ULL, 0x7a007127242e0991ULL, 0x1956bcd8118214ecULL}},
     {{0x6e849f1ea0aa4757ULL, 0xaa1c7b6d89f89141ULL, 0xb6e713cdfae0ca3aULL, 0x26694fbb4e82ebc3ULL}}},
    {{{0xe4bbdd0c2936b629ULL, 0xbb30f162e133bacbULL, 0x31a9d1b6f9645366ULL, 0x253570bea500f8ddULL}},
     {{0xa1d77ce45ffe77c7ULL, 0x07affd117826d1dbULL, 0x6d16bd27bb7edc6bULL, 0x2c87200285defeccULL}}},
    {{{0x7361d77f843abe92ULL, 0xa5bb2bd3273411fbULL, 0x9c941f314b3e2399ULL, 0x15df9cddbb9fd3ecULL}},
     {{0x5dddfd154bd8c949ULL, 0x62cb29a5a4445b60ULL, 0x37bc870a0c7dd2b9ULL, 0x24830a9d3171f0fdULL}}},
    {{{0xc970692f41690fe7ULL, 0xe240342127694b0bULL, 0x32bee66b83c459e8ULL, 0x12aabced0ab08841ULL}},
     {{0x0d485d2340aebfa9ULL, 0x05193418ab2fcc57ULL, 0xd3b0a40b8a4910f5ULL, 0x2f21ebb535d2925aULL}}},
};

static bn_fp2_t *fp12_coef(bn_fp12_t *a, int i)
{
    bn_fp6_t *h = i % 2 ? &a->c1 : &a->c0;
    return i / 2 == 0 ? &h->c0 : i / 2 == 1 ? &h->c1 : &h->c2;
}

void bn_fp12_frobenius(bn_fp12_t *out, const bn_fp12_t *a, unsigned k)
{
    bn_fp12_t t = *a;
    for (unsigned j = 0; j < k % 12; j++)
        for (int i = 0; i < 6; i++) {
            bn_fp2_t *c = fp12_coef(&t, i);
            bn_fp2_conj(c, c);
            if (i)
                bn_fp2_mul(c, c, &BN254_FROB_GAMMA[i]);
        }
    *out = t;
}

void bn_fp12_pow(bn_fp12_t *out, const bn_fp12_t *a, const uint64_t *e, size_t nlimbs)
{
    bn_fp12_t acc = BN254_FP12_ONE, base = *a;
    for (size_t i = nlimbs; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            bn_fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                bn_fp12_mul(&acc, &acc, &base);
        }
    *out = acc;
}

void bn_fp12_to_bytes_be(uint8_t out[BN254_FP12_BYTES], const bn_fp12_t *a)
{
    const bn_fp6_t *h[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const bn_fp2_t *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            bn_fp_to_bytes_be(out + (i * 6 + j * 2) * BN254_BYTES, &c[j]->c0);
            bn_fp_to_bytes_be(out + (i * 6 + j * 2 + 1) * BN254_BYTES, &c[j]->c1);
        }
    }
}
