/*
 * ff/fp12.c — Fp12 = Fp6[w]/(w^2 - v), the pairing target group's field.
 *
 * An element is c0 + c1*w with Fp6 coefficients. Seen over Fp2 it is
 *   c0.c0 + c1.c0 w + c0.c1 w^2 + c1.c1 w^3 + c0.c2 w^4 + c1.c2 w^5,  w^6 = xi,
 * which is the view the Frobenius map, the cyclotomic squaring and the sparse
 * line product use. All functions keep the ff/ff.h contract (reduced in and
 * out, outputs may alias inputs) and are built on the Fp6 calls and the
 * inline Fp2 kernels of ff_internal.h (ffp2_*); on the ADX path the Fp4
 * squaring of the cyclotomic squaring is one lazily reduced kernel
 * (ff/mont_adx.c: fp4_sqr_adx).
 *
 * Cost in Fp2 multiplications (M) and squarings (S):
 *   fp12_mul 18M (Karatsuba: 3 fp6_mul), fp12_sqr 12M (complex squaring:
 *   2 fp6_mul), fp12_cyclotomic_sqr 6S (Granger–Scott), fp12_mul_by_014 13M.
 */
#include "ff/ff_internal.h"

#define FP_ONE_LIMBS {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, \
                      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}

const fp12_t FP12_ONE = {{{{FP_ONE_LIMBS}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}},
                         {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

/*
 * FP12_FROB_W[k-1] = xi^((p^k - 1) / 6) = w^(p^k) / w, Montgomery form
 * (value * 2^384 mod p). Derived with Python integers (pow in
 * Fp2 = Fp[u]/(u^2 + 1), then * 2^384 mod p, 64-bit little-endian limbs);
 * tests/unit/test_fp12.c recomputes them with fp2_pow. k = 2 lies in Fp.
 */
static const fp2_t FP12_FROB_W[3] = {
    /* k = 1 */ { {{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL,
                    0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
                  {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL,
                    0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}} },
    /* k = 2 */ { {{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL,
                    0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
                  {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
                    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}} },
    /* k = 3 */ { {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                    0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
                  {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                    0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}} },
};

bool fp12_eq(const fp12_t *a, const fp12_t *b)
{
    return fp6_eq(&a->c0, &b->c0) && fp6_eq(&a->c1, &b->c1);
}

bool fp12_is_one(const fp12_t *a)
{
    return fp12_eq(a, &FP12_ONE);
}

/* Karatsuba: c0 = t0 + v t1, c1 = (a0 + a1)(b0 + b1) - t0 - t1, t_i = a_i b_i. */
void fp12_mul(fp12_t *out, const fp12_t *a, const fp12_t *b)
{
    fp6_t t0, t1, s, u;

    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&u, &b->c0, &b->c1);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&out->c1, &s, &t1);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&out->c0, &t0, &t1);
}

/*
 * Complex squaring (2 fp6_mul): with t = a0 a1,
 *   c0 = (a0 + a1)(a0 + v a1) - t - v t = a0^2 + v a1^2,   c1 = 2t.
 */
void fp12_sqr(fp12_t *out, const fp12_t *a)
{
    fp6_t t, s, u;

    fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_v(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t);
    fp6_mul_by_v(&u, &t);
    fp6_sub(&out->c0, &s, &u);
    fp6_add(&out->c1, &t, &t);
}

/* (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - v a1^2); the inverse of 0 is 0. */
void fp12_inv(fp12_t *out, const fp12_t *a)
{
    fp6_t t0, t1;

    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_by_v(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    fp6_mul(&t1, &a->c1, &t0);
    fp6_mul(&out->c0, &a->c0, &t0);
    fp6_neg(&out->c1, &t1);
}

void fp12_conj(fp12_t *out, const fp12_t *a)
{
    out->c0 = a->c0;
    fp6_neg(&out->c1, &a->c1);
}

/*
 * a^(p^k) = c0^(p^k) + c1^(p^k) w^(p^k), and w^(p^k) = w * xi^((p^k - 1)/6):
 * the Fp6 Frobenius on both halves, then the three coefficients of the odd
 * half times FP12_FROB_W[k-1]. Any k works (k mod 12, repetition above 3).
 */
void fp12_frobenius(fp12_t *out, const fp12_t *a, unsigned k)
{
    k %= 12;
    if (k == 0) {
        *out = *a;
        return;
    }
    if (k == 6) {
        fp12_conj(out, a);
        return;
    }
    if (k > 3) {
        fp12_frobenius(out, a, 3);
        fp12_frobenius(out, out, k - 3);
        return;
    }
    fp6_frobenius(&out->c0, &a->c0, k);
    fp6_frobenius(&out->c1, &a->c1, k);
    const fp2_t *g = &FP12_FROB_W[k - 1];
    ffp2_mul(&out->c1.c0, &out->c1.c0, g);
    ffp2_mul(&out->c1.c1, &out->c1.c1, g);
    ffp2_mul(&out->c1.c2, &out->c1.c2, g);
}

/* (z0 + z1 t)^2 in Fp4 = Fp2[t]/(t^2 - xi), 2S + 1S: returns
 * (z0^2 + xi z1^2, (z0 + z1)^2 - z0^2 - z1^2). */
static void fp4_sqr(fp2_t *o0, fp2_t *o1, const fp2_t *z0, const fp2_t *z1)
{
    fp2_t t0, t1, s;

    if (ff_path_selected == FF_PATH_ADX) { /* same value, lazy reduction */
        fp4_sqr_adx(o0, o1, z0, z1);
        return;
    }

    ffp2_sqr(&t0, z0);
    ffp2_sqr(&t1, z1);
    ffp2_add(&s, z0, z1);
    ffp2_sqr(&s, &s);
    ffp2_sub(&s, &s, &t0);
    ffp2_sub(o1, &s, &t1);
    ffp2_mul_nonresidue(&t1, &t1);
    ffp2_add(o0, &t1, &t0);
}

/* o = 3 s - 2 z  (sign = -1)  or  3 s + 2 z  (sign = +1). */
static void fp2_3s_2z(fp2_t *o, const fp2_t *s, const fp2_t *z, int sign)
{
    fp2_t t;
    if (sign < 0)
        ffp2_sub(&t, s, z);
    else
        ffp2_add(&t, s, z);
    ffp2_dbl(&t, &t);
    ffp2_add(o, &t, s);
}

/*
 * Granger–Scott squaring for elements of the cyclotomic subgroup, those with
 * a^(p^4 - p^2 + 1) = 1 (every f^((p^6 - 1)(p^2 + 1)), i.e. every value after
 * the easy part of the final exponentiation).
 * Why this shape: with t = w^3 (t^2 = xi), Fp12 = Fp4[w]/(w^3 - t) and
 *   a = A + B w + C w^2,  A = c0.c0 + c1.c1 t,  B = c1.c0 + c0.c2 t,
 *                         C = c0.c1 + c1.c2 t;
 * for cyclotomic a the square is
 *   A' = 3 A^2 - 2 conj(A),  B' = 3 t C^2 + 2 conj(B),  C' = 3 B^2 - 2 conj(C)
 * (conj: t -> -t), three Fp4 squarings = 6 Fp2 squarings instead of 12M.
 * Invariant: only valid for cyclotomic a; tests/unit/test_fp12.c compares it
 * with fp12_sqr on elements after the easy part.
 */
void fp12_cyclotomic_sqr(fp12_t *out, const fp12_t *a)
{
    fp2_t A0, A1, B0, B1, C0, C1, t;

    fp4_sqr(&A0, &A1, &a->c0.c0, &a->c1.c1);
    fp4_sqr(&B0, &B1, &a->c1.c0, &a->c0.c2);
    fp4_sqr(&C0, &C1, &a->c0.c1, &a->c1.c2);

    /* t * C^2 = xi C1 + C0 t */
    ffp2_mul_nonresidue(&t, &C1);

    fp2_3s_2z(&out->c0.c0, &A0, &a->c0.c0, -1);
    fp2_3s_2z(&out->c1.c1, &A1, &a->c1.c1, +1);
    fp2_3s_2z(&out->c1.c0, &t, &a->c1.c0, +1);
    fp2_3s_2z(&out->c0.c2, &C0, &a->c0.c2, -1);
    fp2_3s_2z(&out->c0.c1, &B0, &a->c0.c1, -1);
    fp2_3s_2z(&out->c1.c2, &B1, &a->c1.c2, +1);
}

/* (a0 + a1 v + a2 v^2)(b0 + b1 v), 5M:
 *   c0 = a0 b0 + xi a2 b1,  c1 = a0 b1 + a1 b0,  c2 = a1 b1 + a2 b0. */
static void fp6_mul_by_01(fp6_t *out, const fp6_t *a, const fp2_t *b0, const fp2_t *b1)
{
    fp2_t t0, t1, s, u, c0, c1, c2;

    ffp2_mul(&t0, &a->c0, b0);
    ffp2_mul(&t1, &a->c1, b1);

    ffp2_add(&s, &a->c1, &a->c2);
    ffp2_mul(&c0, &s, b1);
    ffp2_sub(&c0, &c0, &t1);
    ffp2_mul_nonresidue(&c0, &c0);
    ffp2_add(&c0, &c0, &t0);

    ffp2_add(&s, &a->c0, &a->c1);
    ffp2_add(&u, b0, b1);
    ffp2_mul(&c1, &s, &u);
    ffp2_sub(&c1, &c1, &t0);
    ffp2_sub(&c1, &c1, &t1);

    ffp2_add(&s, &a->c0, &a->c2);
    ffp2_mul(&c2, &s, b0);
    ffp2_sub(&c2, &c2, &t0);
    ffp2_add(&c2, &c2, &t1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

/* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2, 3M. */
static void fp6_mul_by_1(fp6_t *out, const fp6_t *a, const fp2_t *b1)
{
    fp2_t c0, c1, c2;

    ffp2_mul(&c0, &a->c2, b1);
    ffp2_mul_nonresidue(&c0, &c0);
    ffp2_mul(&c1, &a->c0, b1);
    ffp2_mul(&c2, &a->c1, b1);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

/*
 * a * (l0 + l1 v + l4 v w): the line value is b = b0 + b1 w with
 * b0 = l0 + l1 v and b1 = l4 v, so Karatsuba over w with sparse Fp6 factors:
 *   t0 = a0 b0 (5M), t1 = a1 b1 (3M), c1 = (a0 + a1)(b0 + b1) - t0 - t1 (5M),
 *   c0 = t0 + v t1 — 13M instead of the 18M of fp12_mul.
 */
void fp12_mul_by_014(fp12_t *out, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4)
{
    fp6_t t0, t1, s;
    fp2_t l14;

    fp6_mul_by_01(&t0, &a->c0, l0, l1);
    fp6_mul_by_1(&t1, &a->c1, l4);
    ffp2_add(&l14, l1, l4);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_01(&s, &s, l0, &l14);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&out->c1, &s, &t1);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&out->c0, &t0, &t1);
}

/* Left-to-right square and multiply over the plain integer e. */
void fp12_pow(fp12_t *out, const fp12_t *a, const uint64_t *e, size_t nlimbs)
{
    fp12_t base = *a, acc = FP12_ONE;
    bool started = false;

    for (size_t i = nlimbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            if (started)
                fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1) {
                fp12_mul(&acc, &acc, &base);
                started = true;
            }
        }
    }
    *out = acc;
}

void fp12_to_bytes_be(uint8_t out[576], const fp12_t *a)
{
    const fp6_t *h[2] = {&a->c0, &a->c1};
    size_t off = 0;
    for (int i = 0; i < 2; i++) {
        const fp2_t *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            fp_to_bytes_be(out + off, &c[j]->c0);
            fp_to_bytes_be(out + off + FP_BYTES, &c[j]->c1);
            off += 2 * FP_BYTES;
        }
    }
}
