/*
 * tests/unit/test_fp12.c — Fp6 = Fp2[v]/(v^3 - (u + 1)) and
 * Fp12 = Fp6[w]/(w^2 - v): field axioms on seeded random elements, inverses,
 * the Frobenius maps against plain exponentiation by p (and their constants
 * recomputed with fp2_pow from big-integer exponents built here), the
 * cyclotomic squaring against fp12_sqr, the sparse line product against a
 * full product, and the byte order of fp12_to_bytes_be.
 * Replay a failure with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
/* testutil.h's header comment nests a comment opener (its --filter example). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

#define ITERS 8

/* ---- random elements ---------------------------------------------------- */

static void rand_fp(fp_t *out, test_rng_t *rng)
{
    uint64_t l[FP_LIMBS];
    for (int i = 0; i < FP_LIMBS; i++)
        l[i] = test_rng_next(rng);
    l[FP_LIMBS - 1] &= 0x0fffffffffffffffULL; /* < 2^380 < p */
    cr_assert_eq(fp_from_limbs(out, l), GM_OK);
}

static void rand_fp2(fp2_t *out, test_rng_t *rng)
{
    rand_fp(&out->c0, rng);
    rand_fp(&out->c1, rng);
}

static void rand_fp6(fp6_t *out, test_rng_t *rng)
{
    rand_fp2(&out->c0, rng);
    rand_fp2(&out->c1, rng);
    rand_fp2(&out->c2, rng);
}

static void rand_fp12(fp12_t *out, test_rng_t *rng)
{
    rand_fp6(&out->c0, rng);
    rand_fp6(&out->c1, rng);
}

static void setup(void)
{
    cr_assert_eq(ff_init(FF_PATH_AUTO), GM_OK);
}

/* ---- small big-integer helpers for exponents (plain limbs) ----------------- */

/* out[0 .. na+nb) = a * b, schoolbook. */
static void big_mul(uint64_t *out, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    memset(out, 0, (na + nb) * sizeof *out);
    for (size_t i = 0; i < na; i++) {
        unsigned __int128 c = 0;
        for (size_t j = 0; j < nb; j++) {
            c += (unsigned __int128)a[i] * b[j] + out[i + j];
            out[i + j] = (uint64_t)c;
            c >>= 64;
        }
        out[i + nb] = (uint64_t)c;
    }
}

/* a -= 1 (a > 0). */
static void big_dec(uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i]-- != 0)
            break;
}

/* a /= d, asserting the remainder is 0. */
static void big_div_exact(uint64_t *a, size_t n, uint64_t d)
{
    unsigned __int128 rem = 0;
    for (size_t i = n; i-- > 0;) {
        unsigned __int128 cur = (rem << 64) | a[i];
        a[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    cr_assert_eq((uint64_t)rem, 0, "exponent not divisible by %llu", (unsigned long long)d);
}

/* out = p^k as 6k limbs, k = 1..3. */
static void p_pow(uint64_t *out, unsigned k)
{
    uint64_t t[18];
    memcpy(out, FP_MODULUS, sizeof(uint64_t) * FP_LIMBS);
    for (unsigned i = 1; i < k; i++) {
        big_mul(t, out, FP_LIMBS * i, FP_MODULUS, FP_LIMBS);
        memcpy(out, t, sizeof(uint64_t) * FP_LIMBS * (i + 1));
    }
}

/* Plain square-and-multiply in Fp6 (the reference for fp6_frobenius). */
static void ref_fp6_pow(fp6_t *out, const fp6_t *a, const uint64_t *e, size_t n)
{
    fp6_t acc = FP6_ONE;
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            fp6_mul(&acc, &acc, &acc);
            if ((e[i] >> b) & 1)
                fp6_mul(&acc, &acc, a);
        }
    *out = acc;
}

/* The naive Fp6 product by its definition: 9 Fp2 products, v^3 = u + 1. */
static void ref_fp6_mul(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    const fp2_t *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    fp2_t t[5] = {FP2_ZERO, FP2_ZERO, FP2_ZERO, FP2_ZERO, FP2_ZERO}, m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            fp2_mul(&m, x[i], y[j]);
            fp2_add(&t[i + j], &t[i + j], &m);
        }
    fp2_t xi = {FP_ONE, FP_ONE};
    fp2_mul(&m, &t[3], &xi);
    fp2_add(&out->c0, &t[0], &m);
    fp2_mul(&m, &t[4], &xi);
    fp2_add(&out->c1, &t[1], &m);
    out->c2 = t[2];
}

/* The naive Fp12 product on top of ref_fp6_mul: w^2 = v. */
static void ref_fp12_mul(fp12_t *out, const fp12_t *a, const fp12_t *b)
{
    fp6_t t0, t1, t2, t3, v = {FP2_ZERO, FP2_ONE, FP2_ZERO};
    ref_fp6_mul(&t0, &a->c0, &b->c0);
    ref_fp6_mul(&t1, &a->c1, &b->c1);
    ref_fp6_mul(&t1, &t1, &v);
    ref_fp6_mul(&t2, &a->c0, &b->c1);
    ref_fp6_mul(&t3, &a->c1, &b->c0);
    fp6_add(&out->c0, &t0, &t1);
    fp6_add(&out->c1, &t2, &t3);
}

/* ---- Fp6 --------------------------------------------------------------------- */

TestSuite(fp12, .init = setup);

Test(fp12, fp6_mul_matches_schoolbook)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp6_mul_matches_schoolbook");
    for (int it = 0; it < ITERS; it++) {
        fp6_t a, b, want, got;
        rand_fp6(&a, &rng);
        rand_fp6(&b, &rng);
        ref_fp6_mul(&want, &a, &b);
        fp6_mul(&got, &a, &b);
        cr_assert(fp6_eq(&got, &want), "fp6_mul, iteration %d", it);
        got = a;
        fp6_mul(&got, &got, &b);
        cr_assert(fp6_eq(&got, &want), "fp6_mul aliased, iteration %d", it);
        ref_fp6_mul(&want, &a, &a);
        fp6_sqr(&got, &a);
        cr_assert(fp6_eq(&got, &want), "fp6_sqr, iteration %d", it);
        fp6_t v = {FP2_ZERO, FP2_ONE, FP2_ZERO};
        ref_fp6_mul(&want, &a, &v);
        fp6_mul_by_v(&got, &a);
        cr_assert(fp6_eq(&got, &want), "fp6_mul_by_v, iteration %d", it);
    }
}

Test(fp12, fp6_field_axioms)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp6_field_axioms");
    for (int it = 0; it < ITERS; it++) {
        fp6_t a, b, c, l, r, t;
        rand_fp6(&a, &rng);
        rand_fp6(&b, &rng);
        rand_fp6(&c, &rng);
        /* commutativity, associativity, distributivity */
        fp6_mul(&l, &a, &b);
        fp6_mul(&r, &b, &a);
        cr_assert(fp6_eq(&l, &r));
        fp6_mul(&l, &l, &c);
        fp6_mul(&t, &b, &c);
        fp6_mul(&r, &a, &t);
        cr_assert(fp6_eq(&l, &r));
        fp6_add(&t, &b, &c);
        fp6_mul(&l, &a, &t);
        fp6_mul(&r, &a, &b);
        fp6_mul(&t, &a, &c);
        fp6_add(&r, &r, &t);
        cr_assert(fp6_eq(&l, &r));
        /* a - b + b = a, a + (-a) = 0 */
        fp6_sub(&t, &a, &b);
        fp6_add(&t, &t, &b);
        cr_assert(fp6_eq(&t, &a));
        fp6_neg(&t, &a);
        fp6_add(&t, &t, &a);
        cr_assert(fp6_is_zero(&t));
        /* a * a^-1 = 1, 1 neutral */
        fp6_inv(&t, &a);
        fp6_mul(&t, &t, &a);
        cr_assert(fp6_eq(&t, &FP6_ONE), "fp6_inv, iteration %d", it);
        fp6_mul(&t, &a, &FP6_ONE);
        cr_assert(fp6_eq(&t, &a));
    }
    fp6_t z;
    fp6_inv(&z, &FP6_ZERO);
    cr_assert(fp6_is_zero(&z), "the inverse of 0 is 0");
}

Test(fp12, fp6_frobenius_is_pow_p)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp6_frobenius_is_pow_p");
    uint64_t e[18];
    fp6_t a, want, got;
    rand_fp6(&a, &rng);
    for (unsigned k = 1; k <= 3; k++) {
        p_pow(e, k);
        ref_fp6_pow(&want, &a, e, FP_LIMBS * k);
        fp6_frobenius(&got, &a, k);
        cr_assert(fp6_eq(&got, &want), "fp6_frobenius k = %u", k);
    }
    /* k = 6 is the identity; k = 4 is k = 1 three more times */
    fp6_frobenius(&got, &a, 6);
    cr_assert(fp6_eq(&got, &a));
    fp6_frobenius(&want, &a, 1);
    fp6_frobenius(&want, &want, 3);
    fp6_frobenius(&got, &a, 4);
    cr_assert(fp6_eq(&got, &want));
}

/* The constants of fp6.c / fp12.c are what the Frobenius maps multiply v,
 * v^2 and w by; recompute them as xi^((p^k - 1) / d) with fp2_pow. */
Test(fp12, frobenius_constants_from_fp2_pow)
{
    const fp2_t xi = {FP_ONE, FP_ONE};
    for (unsigned k = 1; k <= 3; k++) {
        uint64_t e3[18], e6[18], e23[36];
        size_t n = FP_LIMBS * k;
        p_pow(e3, k);
        big_dec(e3, n);
        memcpy(e6, e3, n * sizeof(uint64_t));
        big_div_exact(e3, n, 3);
        big_div_exact(e6, n, 6);
        uint64_t two = 2;
        big_mul(e23, e3, n, &two, 1);

        fp2_t g1, g2, gw;
        fp2_pow(&g1, &xi, e3, n);
        fp2_pow(&g2, &xi, e23, n + 1);
        fp2_pow(&gw, &xi, e6, n);

        fp6_t v = {FP2_ZERO, FP2_ONE, FP2_ZERO}, v2 = {FP2_ZERO, FP2_ZERO, FP2_ONE}, t;
        fp6_frobenius(&t, &v, k);
        cr_assert(fp2_is_zero(&t.c0) && fp2_eq(&t.c1, &g1) && fp2_is_zero(&t.c2),
                  "v^(p^%u) = xi^((p^%u - 1)/3) v", k, k);
        fp6_frobenius(&t, &v2, k);
        cr_assert(fp2_is_zero(&t.c0) && fp2_is_zero(&t.c1) && fp2_eq(&t.c2, &g2),
                  "v^(2 p^%u) = xi^(2 (p^%u - 1)/3) v^2", k, k);

        fp12_t w = {FP6_ZERO, FP6_ONE}, f;
        fp12_frobenius(&f, &w, k);
        cr_assert(fp6_is_zero(&f.c0) && fp2_eq(&f.c1.c0, &gw) && fp2_is_zero(&f.c1.c1) &&
                      fp2_is_zero(&f.c1.c2),
                  "w^(p^%u) = xi^((p^%u - 1)/6) w", k, k);
    }
}

/* ---- Fp12 ---------------------------------------------------------------------- */

Test(fp12, fp12_mul_matches_schoolbook)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp12_mul_matches_schoolbook");
    for (int it = 0; it < ITERS; it++) {
        fp12_t a, b, want, got;
        rand_fp12(&a, &rng);
        rand_fp12(&b, &rng);
        ref_fp12_mul(&want, &a, &b);
        fp12_mul(&got, &a, &b);
        cr_assert(fp12_eq(&got, &want), "fp12_mul, iteration %d", it);
        got = b;
        fp12_mul(&got, &a, &got);
        cr_assert(fp12_eq(&got, &want), "fp12_mul aliased, iteration %d", it);
        ref_fp12_mul(&want, &a, &a);
        fp12_sqr(&got, &a);
        cr_assert(fp12_eq(&got, &want), "fp12_sqr, iteration %d", it);
        got = a;
        fp12_sqr(&got, &got);
        cr_assert(fp12_eq(&got, &want), "fp12_sqr aliased, iteration %d", it);
    }
}

Test(fp12, fp12_field_axioms)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp12_field_axioms");
    for (int it = 0; it < ITERS; it++) {
        fp12_t a, b, c, l, r, t;
        rand_fp12(&a, &rng);
        rand_fp12(&b, &rng);
        rand_fp12(&c, &rng);
        fp12_mul(&l, &a, &b);
        fp12_mul(&r, &b, &a);
        cr_assert(fp12_eq(&l, &r));
        fp12_mul(&l, &l, &c);
        fp12_mul(&t, &b, &c);
        fp12_mul(&r, &a, &t);
        cr_assert(fp12_eq(&l, &r));
        /* a (b + c) = a b + a c */
        fp6_add(&t.c0, &b.c0, &c.c0);
        fp6_add(&t.c1, &b.c1, &c.c1);
        fp12_mul(&l, &a, &t);
        fp12_mul(&r, &a, &b);
        fp12_mul(&t, &a, &c);
        fp6_add(&r.c0, &r.c0, &t.c0);
        fp6_add(&r.c1, &r.c1, &t.c1);
        cr_assert(fp12_eq(&l, &r));
        /* a * a^-1 = 1 */
        fp12_inv(&t, &a);
        fp12_mul(&t, &t, &a);
        cr_assert(fp12_is_one(&t), "fp12_inv, iteration %d", it);
        fp12_mul(&t, &a, &FP12_ONE);
        cr_assert(fp12_eq(&t, &a));
        cr_assert(!fp12_is_one(&a));
    }
}

Test(fp12, fp12_frobenius_is_pow_p)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp12_frobenius_is_pow_p");
    uint64_t e[18];
    fp12_t a, want, got;
    rand_fp12(&a, &rng);
    for (unsigned k = 1; k <= 3; k++) {
        p_pow(e, k);
        fp12_pow(&want, &a, e, FP_LIMBS * k);
        fp12_frobenius(&got, &a, k);
        cr_assert(fp12_eq(&got, &want), "fp12_frobenius k = %u", k);
        got = a;
        fp12_frobenius(&got, &got, k);
        cr_assert(fp12_eq(&got, &want), "fp12_frobenius aliased k = %u", k);
    }
    /* conj is the p^6 power: frobenius 3 twice */
    fp12_frobenius(&want, &a, 3);
    fp12_frobenius(&want, &want, 3);
    fp12_conj(&got, &a);
    cr_assert(fp12_eq(&got, &want), "fp12_conj = a^(p^6)");
    fp12_frobenius(&got, &a, 12);
    cr_assert(fp12_eq(&got, &a));
}

Test(fp12, fp12_pow_small)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/fp12_pow_small");
    fp12_t a, want, got;
    rand_fp12(&a, &rng);
    uint64_t e = 0;
    fp12_pow(&got, &a, &e, 1);
    cr_assert(fp12_is_one(&got), "a^0 = 1");
    want = FP12_ONE;
    for (e = 1; e <= 13; e++) {
        fp12_mul(&want, &want, &a);
        fp12_pow(&got, &a, &e, 1);
        cr_assert(fp12_eq(&got, &want), "a^%llu", (unsigned long long)e);
    }
    uint64_t e2[2] = {5, 0}; /* high zero limbs */
    fp12_pow(&got, &a, e2, 2);
    fp12_pow(&want, &a, e2, 1);
    cr_assert(fp12_eq(&got, &want));
}

/* m = f^((p^6 - 1)(p^2 + 1)): conj(f) / f, then times its p^2 power. */
static void easy_part(fp12_t *m, const fp12_t *f)
{
    fp12_t t;
    fp12_inv(&t, f);
    fp12_conj(m, f);
    fp12_mul(m, m, &t);
    fp12_frobenius(&t, m, 2);
    fp12_mul(m, m, &t);
}

Test(fp12, cyclotomic_sqr_matches_sqr)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/cyclotomic_sqr_matches_sqr");
    for (int it = 0; it < ITERS; it++) {
        fp12_t f, m, want, got;
        rand_fp12(&f, &rng);
        easy_part(&m, &f);
        fp12_sqr(&want, &m);
        fp12_cyclotomic_sqr(&got, &m);
        cr_assert(fp12_eq(&got, &want), "cyclotomic sqr, iteration %d", it);
        got = m;
        fp12_cyclotomic_sqr(&got, &got);
        cr_assert(fp12_eq(&got, &want), "cyclotomic sqr aliased, iteration %d", it);
        /* in the cyclotomic subgroup the inverse is the conjugate */
        fp12_inv(&want, &m);
        fp12_conj(&got, &m);
        cr_assert(fp12_eq(&got, &want));
    }
}

Test(fp12, mul_by_014_matches_mul)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp12/mul_by_014_matches_mul");
    for (int it = 0; it < ITERS; it++) {
        fp12_t a, line = {FP6_ZERO, FP6_ZERO}, want, got;
        fp2_t l0, l1, l4;
        rand_fp12(&a, &rng);
        rand_fp2(&l0, &rng);
        rand_fp2(&l1, &rng);
        rand_fp2(&l4, &rng);
        line.c0.c0 = l0; /* flat coefficient 0: 1 */
        line.c0.c1 = l1; /* 1: v */
        line.c1.c1 = l4; /* 4: v w */
        ref_fp12_mul(&want, &a, &line);
        fp12_mul_by_014(&got, &a, &l0, &l1, &l4);
        cr_assert(fp12_eq(&got, &want), "mul_by_014, iteration %d", it);
        got = a;
        fp12_mul_by_014(&got, &got, &l0, &l1, &l4);
        cr_assert(fp12_eq(&got, &want), "mul_by_014 aliased, iteration %d", it);
    }
}

Test(fp12, to_bytes_be_order)
{
    /* coefficient i (in the documented order) = i + 1 */
    fp12_t a;
    fp_t *c[12] = {&a.c0.c0.c0, &a.c0.c0.c1, &a.c0.c1.c0, &a.c0.c1.c1, &a.c0.c2.c0, &a.c0.c2.c1,
                   &a.c1.c0.c0, &a.c1.c0.c1, &a.c1.c1.c0, &a.c1.c1.c1, &a.c1.c2.c0, &a.c1.c2.c1};
    for (int i = 0; i < 12; i++)
        fp_set_u64(c[i], (uint64_t)i + 1);
    uint8_t out[576];
    fp12_to_bytes_be(out, &a);
    for (int i = 0; i < 12; i++) {
        for (int j = 0; j < FP_BYTES - 1; j++)
            cr_assert_eq(out[i * FP_BYTES + j], 0, "coefficient %d byte %d", i, j);
        cr_assert_eq(out[i * FP_BYTES + FP_BYTES - 1], i + 1, "coefficient %d", i);
    }
    fp12_to_bytes_be(out, &FP12_ONE);
    cr_assert_eq(out[FP_BYTES - 1], 1);
    for (int i = FP_BYTES; i < 576; i++)
        cr_assert_eq(out[i], 0);
}
