/*
 * tests/unit/test_fp2.c — Fp2 = Fp[u]/(u^2 + 1) against the naive integer
 * reference of tests/unit/ff_ref.h (schoolbook multiply, bit-serial reduction), and
 * properties on seeded random inputs. Every test runs on both kernel paths.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

#define N FP_LIMBS
#define P FP_MODULUS

typedef struct { uint64_t c0[N], c1[N]; } plain2_t;

static void rand_fp2(fp2_t *out, plain2_t *plain, test_rng_t *rng)
{
    plain2_t t;
    ref_random_below(t.c0, P, N, rng);
    ref_random_below(t.c1, P, N, rng);
    cr_assert_eq(fp_from_limbs(&out->c0, t.c0), GM_OK);
    cr_assert_eq(fp_from_limbs(&out->c1, t.c1), GM_OK);
    if (plain)
        *plain = t;
}

static void expect_plain2(const fp2_t *a, const plain2_t *want, const char *what, int it)
{
    uint64_t g0[N], g1[N];
    fp_to_limbs(g0, &a->c0);
    fp_to_limbs(g1, &a->c1);
    cr_assert(memcmp(g0, want->c0, sizeof g0) == 0 && memcmp(g1, want->c1, sizeof g1) == 0,
              "%s: mismatch at iteration %d (path %s)", what, it, ff_path_name());
}

/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u, schoolbook. */
static void ref_mul2(plain2_t *out, const plain2_t *a, const plain2_t *b)
{
    uint64_t t0[N], t1[N];
    plain2_t r;
    ref_mulmod(t0, a->c0, b->c0, P, N);
    ref_mulmod(t1, a->c1, b->c1, P, N);
    ref_submod(r.c0, t0, t1, P, N);
    ref_mulmod(t0, a->c0, b->c1, P, N);
    ref_mulmod(t1, a->c1, b->c0, P, N);
    ref_addmod(r.c1, t0, t1, P, N);
    *out = r;
}

static void check_mul(test_rng_t *rng)
{
    for (int it = 0; it < 150; it++) {
        plain2_t a, b, want;
        fp2_t x, y, z;
        rand_fp2(&x, &a, rng);
        rand_fp2(&y, &b, rng);
        ref_mul2(&want, &a, &b);
        fp2_mul(&z, &x, &y);
        expect_plain2(&z, &want, "fp2_mul", it);
        z = x;
        fp2_mul(&z, &z, &y); /* out aliases a */
        expect_plain2(&z, &want, "fp2_mul aliased", it);
        ref_mul2(&want, &a, &a);
        fp2_sqr(&z, &x);
        expect_plain2(&z, &want, "fp2_sqr", it);
        plain2_t nr = {{1}, {1}};
        ref_mul2(&want, &a, &nr);
        fp2_mul_nonresidue(&z, &x);
        expect_plain2(&z, &want, "fp2_mul_nonresidue", it);
        plain2_t bfp = b;
        memset(bfp.c1, 0, sizeof bfp.c1);
        ref_mul2(&want, &a, &bfp);
        fp2_mul_fp(&z, &x, &y.c0);
        expect_plain2(&z, &want, "fp2_mul_fp", it);
        ref_addmod(want.c0, a.c0, b.c0, P, N);
        ref_addmod(want.c1, a.c1, b.c1, P, N);
        fp2_add(&z, &x, &y);
        expect_plain2(&z, &want, "fp2_add", it);
        ref_submod(want.c0, a.c0, b.c0, P, N);
        ref_submod(want.c1, a.c1, b.c1, P, N);
        fp2_sub(&z, &x, &y);
        expect_plain2(&z, &want, "fp2_sub", it);
    }
}

Test(fp2, mul_sqr_add_sub_match_reference) { test_on_paths(check_mul, "fp2/mul_sqr_add_sub"); }

static void check_unary(test_rng_t *rng)
{
    for (int it = 0; it < 100; it++) {
        fp2_t x, y, z, w;
        rand_fp2(&x, NULL, rng);
        fp2_neg(&y, &x);
        fp2_add(&z, &x, &y);
        cr_assert(fp2_is_zero(&z));
        fp2_dbl(&y, &x);
        fp2_add(&z, &x, &x);
        cr_assert(fp2_eq(&y, &z));
        fp2_conj(&y, &x);
        cr_assert(fp_eq(&y.c0, &x.c0));
        fp_add(&z.c1, &y.c1, &x.c1);
        cr_assert(fp_is_zero(&z.c1));
        /* Frobenius: a^p == conj(a) */
        fp2_pow(&z, &x, FP_MODULUS, FP_LIMBS);
        fp2_frobenius(&w, &x);
        cr_assert(fp2_eq(&z, &w), "a^p != conj(a) (path %s)", ff_path_name());
        /* pow by 5 = a*a*a*a*a */
        uint64_t five = 5;
        fp2_pow(&z, &x, &five, 1);
        w = x;
        for (int i = 0; i < 4; i++)
            fp2_mul(&w, &w, &x);
        cr_assert(fp2_eq(&z, &w));
    }
    fp2_t z;
    uint64_t zero = 0;
    fp2_pow(&z, &FP2_ZERO, &zero, 1);
    cr_assert(fp2_is_one(&z), "0^0 = 1");
    fp2_neg(&z, &FP2_ZERO);
    cr_assert(fp2_is_zero(&z));
    cr_assert(fp2_is_one(&FP2_ONE) && !fp2_is_zero(&FP2_ONE) && fp2_is_zero(&FP2_ZERO));
}

Test(fp2, neg_dbl_conj_frobenius_pow) { test_on_paths(check_unary, "fp2/unary"); }

static void check_inv(test_rng_t *rng)
{
    fp2_t x, y, z;
    for (int it = 0; it < 60; it++) {
        rand_fp2(&x, NULL, rng);
        if (it == 0)
            x.c1 = FP_ZERO_ELEM; /* a real element */
        if (it == 1)
            x.c0 = FP_ZERO_ELEM; /* a pure imaginary one */
        fp2_inv(&y, &x);
        fp2_mul(&z, &x, &y);
        cr_assert(fp2_is_one(&z), "a * a^-1 != 1 at %d (path %s)", it, ff_path_name());
        y = x;
        fp2_inv(&y, &y);
        fp2_mul(&z, &x, &y);
        cr_assert(fp2_is_one(&z), "aliased inverse");
    }
    fp2_inv(&z, &FP2_ZERO);
    cr_assert(fp2_is_zero(&z), "inverse of 0 is 0");
}

Test(fp2, inv) { test_on_paths(check_inv, "fp2/inv"); }

static void check_batch_inv(test_rng_t *rng)
{
    enum { n = 17 };
    fp2_t a[n], out[n], scratch[n], want;
    for (int i = 0; i < n; i++) {
        rand_fp2(&a[i], NULL, rng);
        if (i == 0 || i == 5 || i == n - 1)
            a[i] = FP2_ZERO;
    }
    fp2_batch_inv(out, a, n, scratch);
    for (int i = 0; i < n; i++) {
        fp2_inv(&want, &a[i]);
        cr_assert(fp2_eq(&out[i], &want), "batch_inv[%d] (path %s)", i, ff_path_name());
    }
    fp2_batch_inv(a, a, n, scratch); /* in place */
    for (int i = 0; i < n; i++)
        cr_assert(fp2_eq(&a[i], &out[i]), "in-place batch_inv[%d]", i);
    fp2_batch_inv(out, a, 0, scratch); /* n = 0 writes nothing */
    fp2_batch_inv(out, a, 1, scratch);
    fp2_inv(&want, &a[0]);
    cr_assert(fp2_eq(&out[0], &want));
}

Test(fp2, batch_inv) { test_on_paths(check_batch_inv, "fp2/batch_inv"); }

static void expect_sqrt_ok(const fp2_t *sq)
{
    fp2_t r, r2;
    cr_assert(fp2_sqrt(&r, sq), "square has no root (path %s)", ff_path_name());
    fp2_sqr(&r2, &r);
    cr_assert(fp2_eq(&r2, sq), "sqrt(x)^2 != x (path %s)", ff_path_name());
}

static void check_sqrt(test_rng_t *rng)
{
    int squares = 0, non = 0;
    for (int it = 0; it < 40; it++) {
        fp2_t x, sq, r;
        rand_fp2(&x, NULL, rng);
        if (it == 0)
            x.c1 = FP_ZERO_ELEM; /* root of an Fp element */
        if (it == 1)
            x.c0 = FP_ZERO_ELEM; /* square is -x1^2: an Fp element that is not a square in Fp */
        fp2_sqr(&sq, &x);
        cr_assert_eq(fp2_legendre(&sq), 1);
        expect_sqrt_ok(&sq);
        int l = fp2_legendre(&x);
        r = FP2_ONE;
        bool ok = fp2_sqrt(&r, &x);
        cr_assert_eq(ok, l == 1, "sqrt result disagrees with legendre");
        if (!ok)
            cr_assert(fp2_is_one(&r), "out touched on failure");
        squares += l == 1;
        non += l == -1;
    }
    cr_assert(squares > 5 && non > 5, "random elements: %d squares, %d non-squares", squares, non);
    /* Fp elements: every one is a square in Fp2. */
    for (uint64_t v = 0; v < 12; v++) {
        fp2_t a = FP2_ZERO;
        fp_set_u64(&a.c0, v);
        expect_sqrt_ok(&a);
        fp_neg(&a.c0, &a.c0);
        expect_sqrt_ok(&a);
    }
    fp2_t r;
    cr_assert(fp2_sqrt(&r, &FP2_ZERO) && fp2_is_zero(&r));
    cr_assert_eq(fp2_legendre(&FP2_ZERO), 0);
}

Test(fp2, sqrt_legendre) { test_on_paths(check_sqrt, "fp2/sqrt_legendre"); }

static void check_lex(test_rng_t *rng)
{
    static const uint64_t half[N] = { /* (p - 1) / 2 */
        0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL,
        0xb23ba5c279c2895fULL, 0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL,
    };
    for (int it = 0; it < 100; it++) {
        plain2_t a;
        fp2_t x;
        rand_fp2(&x, &a, rng);
        if (it % 3 == 0) {
            x.c1 = FP_ZERO_ELEM;
            memset(a.c1, 0, sizeof a.c1);
        }
        const uint64_t *c = fp_is_zero(&x.c1) ? a.c0 : a.c1;
        bool big = false;
        for (int i = N - 1; i >= 0; i--)
            if (c[i] != half[i]) {
                big = c[i] > half[i];
                break;
            }
        cr_assert_eq(fp2_is_lex_largest(&x), big, "lex at %d", it);
        fp2_t y;
        fp2_neg(&y, &x);
        if (!fp2_is_zero(&x))
            cr_assert_neq(fp2_is_lex_largest(&y), big, "-x has the other sign");
    }
    fp2_t h = FP2_ZERO;
    cr_assert_eq(fp_from_limbs(&h.c1, half), GM_OK);
    cr_assert(!fp2_is_lex_largest(&h), "(p-1)/2 is not largest");
    fp_add(&h.c1, &h.c1, &FP_ONE);
    cr_assert(fp2_is_lex_largest(&h), "(p+1)/2 is largest");
    cr_assert(!fp2_is_lex_largest(&FP2_ZERO));
}

Test(fp2, is_lex_largest) { test_on_paths(check_lex, "fp2/is_lex_largest"); }

/* ---- lazy (unreduced) kernels: ff/ff_internal.h, ff/mont_adx.c ---------------------- */

/* The internal kernels behind fp2_mul / fp2_sqr / fp12_cyclotomic_sqr. */
#include "ff/ff_internal.h"

/* Edge components: 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, 2^383 mod p, then random. */
static void edge_fp(fp_t *out, uint64_t plain[N], int k, test_rng_t *rng)
{
    uint64_t l[N] = {0};
    switch (k) {
    case 0: break;
    case 1: l[0] = 1; break;
    case 2: l[0] = 2; break;
    case 3: memcpy(l, P, sizeof l); l[0] -= 1; break;
    case 4: memcpy(l, P, sizeof l); l[0] -= 2; break;
    case 5: case 6:
        memcpy(l, P, sizeof l);
        for (int i = 0; i < N; i++)
            l[i] = (l[i] >> 1) | (i + 1 < N ? l[i + 1] << 63 : 0);
        l[0] += (uint64_t)(k == 6);
        break;
    case 7: l[N - 1] = 1ULL << 63; ref_submod(l, l, P, P, N); ref_submod(l, l, P, P, N);
        ref_submod(l, l, P, P, N); ref_submod(l, l, P, P, N); break; /* 2^383 - 4p < p */
    default: ref_random_below(l, P, N, rng); break;
    }
    cr_assert_eq(fp_from_limbs(out, l), GM_OK);
    memcpy(plain, l, sizeof l);
}
#define N_EDGE 10

/* fp2_mul, fp2_sqr, fp2_add, fp2_sub on every pair of edge elements against
 * the schoolbook reference, on the path in use. */
static void check_lazy_edges(test_rng_t *rng)
{
    for (int i = 0; i < N_EDGE * N_EDGE; i++) {
        plain2_t a, b, want;
        fp2_t x, y, z;
        edge_fp(&x.c0, a.c0, i % N_EDGE, rng);
        edge_fp(&x.c1, a.c1, i / N_EDGE, rng);
        for (int j = 0; j < N_EDGE * N_EDGE; j += 7) {
            edge_fp(&y.c0, b.c0, j % N_EDGE, rng);
            edge_fp(&y.c1, b.c1, j / N_EDGE, rng);
            ref_mul2(&want, &a, &b);
            fp2_mul(&z, &x, &y);
            expect_plain2(&z, &want, "edge fp2_mul", i);
            ref_addmod(want.c0, a.c0, b.c0, P, N);
            ref_addmod(want.c1, a.c1, b.c1, P, N);
            fp2_add(&z, &x, &y);
            expect_plain2(&z, &want, "edge fp2_add", i);
            ref_submod(want.c0, a.c0, b.c0, P, N);
            ref_submod(want.c1, a.c1, b.c1, P, N);
            fp2_sub(&z, &x, &y);
            expect_plain2(&z, &want, "edge fp2_sub", i);
        }
        ref_mul2(&want, &a, &a);
        fp2_sqr(&z, &x);
        expect_plain2(&z, &want, "edge fp2_sqr", i);
    }
}

Test(fp2, lazy_edges_match_reference) { test_on_paths(check_lazy_edges, "fp2/lazy_edges"); }

/* x + p when that stays below 2^384 (always: p < 2^381), an unreduced
 * representative in [p, 2p). */
static void lazy_rep(fp_t *out, const fp_t *x)
{
    uint8_t c = 0;
    for (int i = 0; i < N; i++) {
        unsigned __int128 s = (unsigned __int128)x->l[i] + P[i] + c;
        out->l[i] = (uint64_t)s;
        c = (uint8_t)(s >> 64);
    }
}

/* ffp_mul (both paths) takes inputs < 2p: same value as fp_mul on the
 * reduced ones. */
static void check_lazy_mul_inputs(test_rng_t *rng)
{
    for (int it = 0; it < 200; it++) {
        uint64_t pa[N], pb[N];
        fp_t x, y, lx, ly, want, got;
        edge_fp(&x, pa, it % 12, rng);
        edge_fp(&y, pb, (it / 12) % 12, rng);
        lazy_rep(&lx, &x);
        lazy_rep(&ly, &y);
        fp_mul(&want, &x, &y);
        ffp_mul(&got, &lx, &ly);
        cr_assert(fp_eq(&got, &want), "ffp_mul lazy inputs at %d (path %s)", it, ff_path_name());
        ffp_mul(&got, &lx, &y);
        cr_assert(fp_eq(&got, &want), "ffp_mul one lazy input at %d (path %s)", it, ff_path_name());
        fp_t s;
        ffp_add_nr(&s, &x, &y);                    /* < 2p */
        fp_add(&want, &x, &y);
        fp_mul(&want, &want, &y);
        ffp_mul(&got, &s, &y);
        cr_assert(fp_eq(&got, &want), "ffp_add_nr then ffp_mul at %d", it);
    }
}

Test(fp2, lazy_mul_inputs) { test_on_paths(check_lazy_mul_inputs, "fp2/lazy_mul_inputs"); }

/* The double-width ADX kernels against the reduced ones (ADX CPUs only). */
Test(fp2, adx_wide_kernels)
{
    test_rng_t rng;
    test_rng_init(&rng, "fp2/adx_wide_kernels");
    if (ff_init(FF_PATH_ADX) != GM_OK)
        return;             /* no ADX on this CPU: the kernels never run */
    for (int it = 0; it < 300; it++) {
        uint64_t pa[N], pb[N], w[12];
        fp_t x, y, lx, ly, want, got;
        edge_fp(&x, pa, it % 12, &rng);
        edge_fp(&y, pb, (it / 12) % 12, &rng);
        /* mul_384 then redc == Montgomery product, reduced and lazy inputs */
        fp_mul(&want, &x, &y);
        fp_mul_384_adx(w, &x, &y);
        fp_redc_768_adx(&got, w);
        cr_assert(fp_eq(&got, &want), "mul_384 + redc at %d", it);
        lazy_rep(&lx, &x);
        lazy_rep(&ly, &y);
        fp_mul_384_adx(w, &lx, &ly);               /* < 4p^2 < p 2^384 */
        fp_redc_768_adx(&got, w);
        cr_assert(fp_eq(&got, &want), "mul_384 + redc, lazy inputs, at %d", it);
        /* redc at the top of its range: t = (p - 1) 2^384 + lo, lo < p:
         * t / 2^384 = (p - 1) + lo / 2^384 mod p */
        uint64_t t[12];
        memcpy(t, x.l, sizeof x.l);
        memcpy(t + 6, P, sizeof x.l);
        t[6] -= 1;
        fp_t lo = x, one = {{1}}, m1;
        fp_mul(&lo, &lo, &one);                    /* x / 2^384 */
        memcpy(m1.l, P, sizeof m1.l);
        m1.l[0] -= 1;
        fp_add(&want, &m1, &lo);
        fp_redc_768_adx(&got, t);
        cr_assert(fp_eq(&got, &want), "redc near p 2^384 at %d", it);
    }
    for (int it = 0; it < 200; it++) {
        fp2_t a, b, r1, r2, r3, o0, o1, w0, w1, t;
        uint64_t pl[N];
        edge_fp(&a.c0, pl, it % 12, &rng);
        edge_fp(&a.c1, pl, (it / 12) % 12, &rng);
        edge_fp(&b.c0, pl, (it * 5) % 12, &rng);
        edge_fp(&b.c1, pl, (it * 7) % 13, &rng);
        fp2_mul_adx(&r1, &a, &b);
        fp2_mul_adx_full(&r2, &a, &b);
        ffp2_mul_portable(&r3, &a, &b);
        cr_assert(fp2_eq(&r1, &r2) && fp2_eq(&r1, &r3), "fp2 mul kernels differ at %d", it);
        r1 = a;
        fp2_mul_adx(&r1, &r1, &b);                 /* out aliases a */
        cr_assert(fp2_eq(&r1, &r2), "fp2_mul_adx aliased at %d", it);
        fp2_sqr_adx(&r1, &a);
        ffp2_sqr_portable(&r3, &a);
        fp2_mul_adx(&r2, &a, &a);
        cr_assert(fp2_eq(&r1, &r2) && fp2_eq(&r1, &r3), "fp2 sqr kernels differ at %d", it);
        /* Fp4 square: o0 = a^2 + xi b^2, o1 = 2 a b */
        fp4_sqr_adx(&o0, &o1, &a, &b);
        fp2_sqr(&w0, &a);
        fp2_sqr(&t, &b);
        fp2_mul_nonresidue(&t, &t);
        fp2_add(&w0, &w0, &t);
        fp2_mul(&w1, &a, &b);
        fp2_dbl(&w1, &w1);
        cr_assert(fp2_eq(&o0, &w0) && fp2_eq(&o1, &w1), "fp4_sqr_adx at %d", it);
        t = a;
        fp2_t u = b;
        fp4_sqr_adx(&t, &u, &t, &u);               /* outputs alias inputs */
        cr_assert(fp2_eq(&t, &w0) && fp2_eq(&u, &w1), "fp4_sqr_adx aliased at %d", it);
    }
    cr_assert_eq(ff_init(FF_PATH_PORTABLE), GM_OK);
}
