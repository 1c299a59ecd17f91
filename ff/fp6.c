/*
 * ff/fp6.c — Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1: the middle of the tower.
 *
 * An element is c0 + c1*v + c2*v^2 with Fp2 coefficients (fp6_t in ff/ff.h).
 * Everything here is built on the inline Fp2 kernels of ff_internal.h
 * (ffp2_*: branch-free adds, and Fp2 products that are lazily reduced inside
 * on the ADX path); every intermediate between them is a reduced Fp2 element
 * and every function keeps the ff.h contract (reduced in, reduced out, any
 * output may alias any input).
 *
 * Cost in Fp2 multiplications (M) and squarings (S):
 *   fp6_mul  6M   (Karatsuba over three coefficients)
 *   fp6_sqr  2M + 3S  (Chung–Hasan SQR2)
 *   fp6_inv  9M + 3S + one fp2_inv
 * The sparse products used by the Miller loop (a * (b0 + b1*v) and a * b1*v)
 * live in ff/fp12.c next to their only caller, fp12_mul_by_014.
 */
#include "ff/ff_internal.h"

/* R mod p: the Montgomery form of 1. */
#define FP_ONE_LIMBS {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, \
                      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}

const fp6_t FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const fp6_t FP6_ONE = {{{FP_ONE_LIMBS}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};

/*
 * Frobenius constants, Montgomery form (value * 2^384 mod p), index k - 1:
 *   FP6_FROB_V[k-1]  = xi^((p^k - 1) / 3)      (the factor v^(p^k) / v)
 *   FP6_FROB_V2[k-1] = xi^(2 (p^k - 1) / 3)    (the factor v^(2 p^k) / v^2)
 * Derived with Python integers (pow in Fp2 = Fp[u]/(u^2 + 1), then * 2^384
 * mod p, split into 64-bit little-endian limbs); tests/unit/test_fp12.c
 * recomputes them with fp2_pow. For the record: V[0] = (0, c), V[1] and all of
 * V2 lie in Fp, V[2] = u and V2[2] = -1.
 */
static const fp2_t FP6_FROB_V[3] = {
    /* k = 1 */ { {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
                  {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                    0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}} },
    /* k = 2 */ { {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                    0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
                  {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}} },
    /* k = 3 */ { {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
                  {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                    0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}} },
};
static const fp2_t FP6_FROB_V2[3] = {
    /* k = 1 */ { {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                    0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
                  {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}} },
    /* k = 2 */ { {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                    0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
                  {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}} },
    /* k = 3 */ { {{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL,
                    0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
                  {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}} },
};

bool fp6_is_zero(const fp6_t *a)
{
    return fp2_is_zero(&a->c0) && fp2_is_zero(&a->c1) && fp2_is_zero(&a->c2);
}

bool fp6_eq(const fp6_t *a, const fp6_t *b)
{
    return fp2_eq(&a->c0, &b->c0) && fp2_eq(&a->c1, &b->c1) && fp2_eq(&a->c2, &b->c2);
}

void fp6_add(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    ffp2_add(&out->c0, &a->c0, &b->c0);
    ffp2_add(&out->c1, &a->c1, &b->c1);
    ffp2_add(&out->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    ffp2_sub(&out->c0, &a->c0, &b->c0);
    ffp2_sub(&out->c1, &a->c1, &b->c1);
    ffp2_sub(&out->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6_t *out, const fp6_t *a)
{
    ffp2_neg(&out->c0, &a->c0);
    ffp2_neg(&out->c1, &a->c1);
    ffp2_neg(&out->c2, &a->c2);
}

/*
 * Karatsuba over three coefficients (6M instead of 9M): with t_i = a_i b_i,
 *   c0 = t0 + xi ((a1 + a2)(b1 + b2) - t1 - t2)
 *   c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2
 *   c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1
 * (v^3 = xi folds the degree-3 and degree-4 terms back.) Works on locals, so
 * out may alias a or b.
 */
void fp6_mul(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    fp2_t t0, t1, t2, s, u, c0, c1, c2;

    ffp2_mul(&t0, &a->c0, &b->c0);
    ffp2_mul(&t1, &a->c1, &b->c1);
    ffp2_mul(&t2, &a->c2, &b->c2);

    ffp2_add(&s, &a->c1, &a->c2);
    ffp2_add(&u, &b->c1, &b->c2);
    ffp2_mul(&c0, &s, &u);
    ffp2_sub(&c0, &c0, &t1);
    ffp2_sub(&c0, &c0, &t2);
    ffp2_mul_nonresidue(&c0, &c0);
    ffp2_add(&c0, &c0, &t0);

    ffp2_add(&s, &a->c0, &a->c1);
    ffp2_add(&u, &b->c0, &b->c1);
    ffp2_mul(&c1, &s, &u);
    ffp2_sub(&c1, &c1, &t0);
    ffp2_sub(&c1, &c1, &t1);
    ffp2_mul_nonresidue(&s, &t2);
    ffp2_add(&c1, &c1, &s);

    ffp2_add(&s, &a->c0, &a->c2);
    ffp2_add(&u, &b->c0, &b->c2);
    ffp2_mul(&c2, &s, &u);
    ffp2_sub(&c2, &c2, &t0);
    ffp2_sub(&c2, &c2, &t2);
    ffp2_add(&c2, &c2, &t1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

/*
 * Chung–Hasan SQR2 (2M + 3S instead of 6M):
 *   s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2
 *   c0 = s0 + xi s3,  c1 = s1 + xi s4,  c2 = s1 + s2 + s3 - s0 - s4.
 */
void fp6_sqr(fp6_t *out, const fp6_t *a)
{
    fp2_t s0, s1, s2, s3, s4, t;

    ffp2_sqr(&s0, &a->c0);
    ffp2_mul(&s1, &a->c0, &a->c1);
    ffp2_dbl(&s1, &s1);
    ffp2_sub(&s2, &a->c0, &a->c1);
    ffp2_add(&s2, &s2, &a->c2);
    ffp2_sqr(&s2, &s2);
    ffp2_mul(&s3, &a->c1, &a->c2);
    ffp2_dbl(&s3, &s3);
    ffp2_sqr(&s4, &a->c2);

    ffp2_add(&t, &s1, &s2);
    ffp2_add(&t, &t, &s3);
    ffp2_sub(&t, &t, &s0);
    ffp2_sub(&out->c2, &t, &s4);
    ffp2_mul_nonresidue(&t, &s4);
    ffp2_add(&out->c1, &s1, &t);
    ffp2_mul_nonresidue(&t, &s3);
    ffp2_add(&out->c0, &s0, &t);
}

/* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2. */
void fp6_mul_by_v(fp6_t *out, const fp6_t *a)
{
    fp2_t t;
    ffp2_mul_nonresidue(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

/*
 * Inverse through the norm to Fp2: with
 *   A = a0^2 - xi a1 a2,  B = xi a2^2 - a0 a1,  C = a1^2 - a0 a2,
 * a (A + B v + C v^2) = a0 A + xi (a2 B + a1 C) =: N in Fp2, so
 * a^-1 = (A, B, C) / N. The inverse of 0 is 0 (N = 0 and fp2_inv(0) = 0).
 */
void fp6_inv(fp6_t *out, const fp6_t *a)
{
    fp2_t A, B, C, t, n;

    ffp2_sqr(&A, &a->c0);
    ffp2_mul(&t, &a->c1, &a->c2);
    ffp2_mul_nonresidue(&t, &t);
    ffp2_sub(&A, &A, &t);

    ffp2_sqr(&B, &a->c2);
    ffp2_mul_nonresidue(&B, &B);
    ffp2_mul(&t, &a->c0, &a->c1);
    ffp2_sub(&B, &B, &t);

    ffp2_sqr(&C, &a->c1);
    ffp2_mul(&t, &a->c0, &a->c2);
    ffp2_sub(&C, &C, &t);

    ffp2_mul(&n, &a->c2, &B);
    ffp2_mul(&t, &a->c1, &C);
    ffp2_add(&n, &n, &t);
    ffp2_mul_nonresidue(&n, &n);
    ffp2_mul(&t, &a->c0, &A);
    ffp2_add(&n, &n, &t);
    fp2_inv(&n, &n);

    ffp2_mul(&out->c0, &A, &n);
    ffp2_mul(&out->c1, &B, &n);
    ffp2_mul(&out->c2, &C, &n);
}

/*
 * a^(p^k) = c0^(p^k) + c1^(p^k) v^(p^k) + c2^(p^k) v^(2 p^k): each Fp2
 * coefficient is conjugated k times (x^p = conj(x) in Fp2) and the powers of
 * v pick up the constants above. k is taken mod 6 (v^(p^6) = v).
 */
void fp6_frobenius(fp6_t *out, const fp6_t *a, unsigned k)
{
    k %= 6;
    if (k == 0) {
        *out = *a;
        return;
    }
    if (k > 3) { /* p^k = p^3 p^(k-3) */
        fp6_frobenius(out, a, 3);
        fp6_frobenius(out, out, k - 3);
        return;
    }
    fp2_t c0 = a->c0, c1 = a->c1, c2 = a->c2;
    if (k & 1) {
        fp2_conj(&c0, &c0);
        fp2_conj(&c1, &c1);
        fp2_conj(&c2, &c2);
    }
    ffp2_mul(&c1, &c1, &FP6_FROB_V[k - 1]);
    ffp2_mul(&c2, &c2, &FP6_FROB_V2[k - 1]);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}
