/*
 * tests/unit/prime_field_tests.h — the prime-field tests written once for Fp
 * and Fr (a template: tests/unit/test_fp.c and test_fr.c define the
 * parameters and include it once; the suite is named after the field).
 * Each field's own facts (lexicographic sign, roots of unity, ...) stay in
 * its .c file.
 *
 * Parameters:
 *   PF           fp | fr (the suite name and the function prefix)
 *   PF_T         fp_t | fr_t
 *   PF_N         FP_LIMBS | FR_LIMBS
 *   PF_M         FP_MODULUS | FR_MODULUS (little-endian limbs)
 *   PF_BYTES     FP_BYTES | FR_BYTES
 *   PF_DEC_MAX   FP_DEC_MAX | FR_DEC_MAX
 *   PF_DEC_LEN   decimal digits of m - 1
 *   PF_ZERO      FP_ZERO_ELEM | FR_ZERO
 *   PF_ONE       FP_ONE | FR_ONE
 *   PF_INL       ffp | ffr (the inline kernels of ff/ff.h: add, sub, neg, is_zero);
 *                left undefined for a field without them (BN254's)
 *   PF_NO_SQRT   defined for a field without a square root (BN254's Fr)
 *
 * Every test compares with the naive reference of tests/unit/ff_ref.h and
 * runs on every kernel path (test_on_paths). Defines, for the .c file:
 *   static void rand_fe(PF_T *out, uint64_t plain[PF_N], test_rng_t *rng);
 *   static void expect_plain(const PF_T *a, const uint64_t want[PF_N], const char *what, int it);
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

#define PF_CAT_(a, b) a##b
#define PF_CAT(a, b) PF_CAT_(a, b)
#define FE_(name) PF_CAT(PF, name)
#define PF_STR_(x) #x
#define PF_STR(x) PF_STR_(x)
#define PF_WHO(test) PF_STR(PF) "/" test
#define N PF_N
#define M PF_M

/* A uniform element; its plain integer in plain unless NULL. */
static void rand_fe(PF_T *out, uint64_t plain[N], test_rng_t *rng)
{
    uint64_t l[N];
    ref_random_below(l, M, N, rng);
    cr_assert_eq(FE_(_from_limbs)(out, l), GM_OK);
    if (plain)
        memcpy(plain, l, sizeof l);
}

static void expect_plain(const PF_T *a, const uint64_t want[N], const char *what, int iter)
{
    uint64_t got[N];
    FE_(_to_limbs)(got, a);
    cr_assert(memcmp(got, want, sizeof got) == 0, "%s: mismatch at iteration %d (path %s)", what,
              iter, ff_path_name());
}

/* The plain integer m - k, k small. */
static void m_minus(uint64_t out[N], uint64_t k)
{
    uint64_t kk[N] = {k};
    ref_submod(out, (uint64_t[N]){0}, kk, M, N);
}

static void check_arith(test_rng_t *rng)
{
    for (int it = 0; it < 400; it++) {
        uint64_t a[N], b[N], want[N];
        PF_T x, y, z;
        rand_fe(&x, a, rng);
        rand_fe(&y, b, rng);
        if (it == 0) { /* m - 1 squared */
            m_minus(a, 1);
            memcpy(b, a, sizeof b);
            cr_assert_eq(FE_(_from_limbs)(&x, a), GM_OK);
            y = x;
        }
        ref_mulmod(want, a, b, M, N);
        FE_(_mul)(&z, &x, &y);
        expect_plain(&z, want, "mul", it);
        ref_mulmod(want, a, a, M, N);
        FE_(_sqr)(&z, &x);
        expect_plain(&z, want, "sqr", it);
        ref_addmod(want, a, b, M, N);
        FE_(_add)(&z, &x, &y);
        expect_plain(&z, want, "add", it);
        ref_submod(want, a, b, M, N);
        FE_(_sub)(&z, &x, &y);
        expect_plain(&z, want, "sub", it);
        ref_submod(want, (uint64_t[N]){0}, a, M, N);
        FE_(_neg)(&z, &x);
        expect_plain(&z, want, "neg", it);
        ref_addmod(want, a, a, M, N);
        FE_(_dbl)(&z, &x);
        expect_plain(&z, want, "dbl", it);
        FE_(_half)(&z, &x);
        FE_(_dbl)(&z, &z);
        cr_assert(FE_(_eq)(&z, &x), "2 * (a/2) != a");
        FE_(_set_u64)(&z, a[0]);
        memset(want, 0, sizeof want);
        want[0] = a[0];
        expect_plain(&z, want, "set_u64", it);
    }
    PF_T z;
    FE_(_neg)(&z, &PF_ZERO);
    cr_assert(FE_(_is_zero)(&z), "-0 = 0");
    cr_assert(FE_(_is_one)(&PF_ONE) && !FE_(_is_one)(&PF_ZERO) && FE_(_is_zero)(&PF_ZERO));
}

Test(PF, arith_matches_reference) { test_on_paths(check_arith, PF_WHO("arith_matches_reference")); }

/* Edge values: 0, 1, m - 1 through mul/add/sub. */
static void check_edges(test_rng_t *rng)
{
    uint64_t vals[3][N] = {{0}, {1}, {0}};
    m_minus(vals[2], 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            uint64_t want[N];
            PF_T x, y, z;
            cr_assert_eq(FE_(_from_limbs)(&x, vals[i]), GM_OK);
            cr_assert_eq(FE_(_from_limbs)(&y, vals[j]), GM_OK);
            FE_(_mul)(&z, &x, &y);
            ref_mulmod(want, vals[i], vals[j], M, N);
            expect_plain(&z, want, "edge mul", 3 * i + j);
            FE_(_add)(&z, &x, &y);
            ref_addmod(want, vals[i], vals[j], M, N);
            expect_plain(&z, want, "edge add", 3 * i + j);
            FE_(_sub)(&z, &x, &y);
            ref_submod(want, vals[i], vals[j], M, N);
            expect_plain(&z, want, "edge sub", 3 * i + j);
        }
    (void)rng;
}

Test(PF, edge_values) { test_on_paths(check_edges, PF_WHO("edge_values")); }

#ifdef PF_INL
#define INL_(name) PF_CAT(PF_INL, name)

/* The inline kernels (ff.h) against the reference: random values and every
 * pair of 0, 1, m - 1, m - 2, with the output aliasing an input. */
static void check_inline(test_rng_t *rng)
{
    uint64_t vals[4][N] = {{0}, {1}, {0}, {0}};
    m_minus(vals[2], 1);
    m_minus(vals[3], 2);
    for (int it = 0; it < 216; it++) {
        uint64_t a[N], b[N], want[N];
        PF_T x, y, z;
        if (it < 16) {
            memcpy(a, vals[it / 4], sizeof a);
            memcpy(b, vals[it % 4], sizeof b);
            cr_assert_eq(FE_(_from_limbs)(&x, a), GM_OK);
            cr_assert_eq(FE_(_from_limbs)(&y, b), GM_OK);
        } else {
            rand_fe(&x, a, rng);
            rand_fe(&y, b, rng);
        }
        ref_addmod(want, a, b, M, N);
        INL_(_add)(&z, &x, &y);
        expect_plain(&z, want, "inline add", it);
        ref_submod(want, a, b, M, N);
        INL_(_sub)(&z, &x, &y);
        expect_plain(&z, want, "inline sub", it);
        ref_submod(want, (uint64_t[N]){0}, a, M, N);
        INL_(_neg)(&z, &x);
        expect_plain(&z, want, "inline neg", it);
        cr_assert_eq(INL_(_is_zero)(&x), FE_(_is_zero)(&x), "inline is_zero at %d", it);
        ref_submod(want, a, b, M, N);
        z = x;
        INL_(_sub)(&z, &z, &y); /* out aliases a */
        expect_plain(&z, want, "inline sub, aliased", it);
        ref_addmod(want, a, b, M, N);
        z = y;
        INL_(_add)(&z, &x, &z); /* out aliases b */
        expect_plain(&z, want, "inline add, aliased", it);
    }
}

Test(PF, inline_kernels) { test_on_paths(check_inline, PF_WHO("inline_kernels")); }
#endif /* PF_INL */

static void check_inv(test_rng_t *rng)
{
    uint64_t m_minus_2[N];
    m_minus(m_minus_2, 2);
    for (int it = 0; it < 300; it++) {
        uint64_t a[N], want[N];
        PF_T x, y, z;
        rand_fe(&x, a, rng);
        if (it < 6) { /* small values and m - small */
            memset(a, 0, sizeof a);
            a[0] = (uint64_t)it + 1;
            if (it >= 3)
                ref_submod(a, M, a, M, N); /* 0 - k = m - k */
            cr_assert_eq(FE_(_from_limbs)(&x, a), GM_OK);
        }
        FE_(_inv)(&y, &x);
        FE_(_mul)(&z, &x, &y);
        cr_assert(FE_(_is_one)(&z), "a * a^-1 != 1 at %d (path %s)", it, ff_path_name());
        if (it < 20) { /* against Fermat on the reference */
            ref_powmod(want, a, m_minus_2, M, N);
            expect_plain(&y, want, "inv vs a^(m-2)", it);
        }
        FE_(_inv)(&x, &x); /* aliased */
        cr_assert(FE_(_eq)(&x, &y));
    }
    PF_T z;
    FE_(_inv)(&z, &PF_ZERO);
    cr_assert(FE_(_is_zero)(&z), "inverse of 0 is 0");
    FE_(_inv)(&z, &PF_ONE);
    cr_assert(FE_(_is_one)(&z));
}

Test(PF, inv) { test_on_paths(check_inv, PF_WHO("inv")); }

static void check_batch_inv(test_rng_t *rng)
{
    enum { n = 33 };
    PF_T a[n], out[n], scratch[n], want;
    for (int i = 0; i < n; i++) {
        rand_fe(&a[i], NULL, rng);
        if (i % 7 == 0)
            a[i] = PF_ZERO;
    }
    FE_(_batch_inv)(out, a, n, scratch);
    for (int i = 0; i < n; i++) {
        FE_(_inv)(&want, &a[i]);
        cr_assert(FE_(_eq)(&out[i], &want), "batch_inv[%d] (path %s)", i, ff_path_name());
    }
    FE_(_batch_inv)(a, a, n, scratch);
    for (int i = 0; i < n; i++)
        cr_assert(FE_(_eq)(&a[i], &out[i]), "in-place batch_inv[%d]", i);
    PF_T zeros[3] = {PF_ZERO, PF_ZERO, PF_ZERO};
    FE_(_batch_inv)(zeros, zeros, 3, scratch);
    for (int i = 0; i < 3; i++)
        cr_assert(FE_(_is_zero)(&zeros[i]));
}

Test(PF, batch_inv) { test_on_paths(check_batch_inv, PF_WHO("batch_inv")); }

static void check_pow_sqrt_legendre(test_rng_t *rng)
{
    int non = 0;
    PF_T m1;
    FE_(_neg)(&m1, &PF_ONE);
    int l_m1 = FE_(_legendre)(&m1);
    for (int it = 0; it < 60; it++) {
        uint64_t a[N], e[N], want[N];
        PF_T x, y, sq, r;
        rand_fe(&x, a, rng);
        if (it < 4) {
            ref_random_below(e, M, N, rng);
            ref_powmod(want, a, e, M, N);
            FE_(_pow)(&y, &x, e, N);
            expect_plain(&y, want, "pow", it);
        }
        FE_(_sqr)(&sq, &x);
        cr_assert_eq(FE_(_legendre)(&sq), 1);
        int l = FE_(_legendre)(&x);
#ifndef PF_NO_SQRT
        cr_assert(FE_(_sqrt)(&r, &sq), "square without root (path %s)", ff_path_name());
        FE_(_sqr)(&y, &r);
        cr_assert(FE_(_eq)(&y, &sq), "sqrt(x)^2 != x");
        FE_(_neg)(&y, &r);
        cr_assert(FE_(_eq)(&r, &x) || FE_(_eq)(&y, &x), "root is +-x");
        r = PF_ONE;
        bool ok = FE_(_sqrt)(&r, &x);
        cr_assert_eq(ok, l == 1, "sqrt vs legendre at %d", it);
        if (ok) {
            FE_(_sqr)(&y, &r);
            cr_assert(FE_(_eq)(&y, &x));
        } else {
            cr_assert(FE_(_is_one)(&r), "out untouched on failure");
        }
#else
        (void)r;
#endif
        non += l == -1;
        FE_(_neg)(&y, &x); /* the symbol is multiplicative */
        cr_assert_eq(FE_(_legendre)(&y), l_m1 * l);
    }
    cr_assert(non > 5, "%d non-squares in 60", non);
    PF_T r;
    cr_assert_eq(FE_(_legendre)(&PF_ZERO), 0);
#ifndef PF_NO_SQRT
    cr_assert(FE_(_sqrt)(&r, &PF_ZERO) && FE_(_is_zero)(&r));
#endif
    uint64_t zero = 0;
    FE_(_pow)(&r, &PF_ZERO, &zero, 1);
    cr_assert(FE_(_is_one)(&r), "0^0 = 1");
}

Test(PF, pow_sqrt_legendre) { test_on_paths(check_pow_sqrt_legendre, PF_WHO("pow_sqrt_legendre")); }

/* Bytes (both orders), limbs and decimal text against the plain integer. */
static void check_encodings(test_rng_t *rng)
{
    for (int it = 0; it < 200; it++) {
        uint64_t a[N], back[N];
        PF_T x, y;
        uint8_t be[PF_BYTES], le[PF_BYTES];
        char want[200], got[PF_DEC_MAX];
        rand_fe(&x, a, rng);
        if (it == 0) {
            memset(a, 0, sizeof a);
            x = PF_ZERO;
        }
        FE_(_to_bytes_be)(be, &x);
        FE_(_to_bytes_le)(le, &x);
        for (int i = 0; i < PF_BYTES; i++) { /* the plain integer, byte by byte */
            uint8_t b = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
            cr_assert_eq(le[i], b, "le byte %d", i);
            cr_assert_eq(be[PF_BYTES - 1 - i], b, "be byte %d", i);
        }
        cr_assert_eq(FE_(_from_bytes_be)(&y, be), GM_OK);
        cr_assert(FE_(_eq)(&x, &y));
        cr_assert_eq(FE_(_from_bytes_le)(&y, le), GM_OK);
        cr_assert(FE_(_eq)(&x, &y));
        FE_(_to_limbs)(back, &x);
        cr_assert(memcmp(back, a, sizeof a) == 0);
        ref_to_dec(want, a, N);
        FE_(_to_dec)(got, &x);
        cr_assert_str_eq(got, want);
        cr_assert_eq(FE_(_from_dec)(&y, want), GM_OK);
        cr_assert(FE_(_eq)(&x, &y));
    }
}

Test(PF, encodings_round_trip) { test_on_paths(check_encodings, PF_WHO("encodings_round_trip")); }

static void check_noncanonical(test_rng_t *rng)
{
    (void)rng;
    uint8_t be[PF_BYTES], le[PF_BYTES];
    uint64_t l[N];
    PF_T x = PF_ONE;
    /* = m */
    for (int i = 0; i < PF_BYTES; i++) {
        le[i] = (uint8_t)(M[i / 8] >> (8 * (i % 8)));
        be[PF_BYTES - 1 - i] = le[i];
    }
    cr_expect_eq(FE_(_from_bytes_be)(&x, be), GM_ENONCANON);
    cr_expect_eq(FE_(_from_bytes_le)(&x, le), GM_ENONCANON);
    cr_expect_eq(FE_(_from_limbs)(&x, M), GM_ENONCANON);
    /* > m */
    memcpy(l, M, sizeof l);
    l[0] += 1;
    cr_expect_eq(FE_(_from_limbs)(&x, l), GM_ENONCANON);
    l[0] -= 1;
    l[1] += 1;
    cr_expect_eq(FE_(_from_limbs)(&x, l), GM_ENONCANON);
    be[PF_BYTES - 1]++;
    cr_expect_eq(FE_(_from_bytes_be)(&x, be), GM_ENONCANON);
    /* all 0xff */
    memset(be, 0xff, sizeof be);
    cr_expect_eq(FE_(_from_bytes_be)(&x, be), GM_ENONCANON);
    cr_expect_eq(FE_(_from_bytes_le)(&x, be), GM_ENONCANON);
    cr_expect(FE_(_is_one)(&x), "out untouched on failure");
    /* m - 1 is fine */
    m_minus(l, 1);
    cr_expect_eq(FE_(_from_limbs)(&x, l), GM_OK);
}

Test(PF, noncanonical_rejected) { test_on_paths(check_noncanonical, PF_WHO("noncanonical_rejected")); }

static void check_dec_errors(test_rng_t *rng)
{
    (void)rng;
    char mdec[200], big[201], out[PF_DEC_MAX];
    uint64_t m1[N];
    PF_T x = PF_ONE;
    ref_to_dec(mdec, M, N); /* m itself */
    cr_expect_eq(FE_(_from_dec)(&x, mdec), GM_ENONCANON);
    m_minus(m1, 1);
    ref_to_dec(mdec, m1, N);
    cr_expect_eq(strlen(mdec), PF_DEC_LEN);
    cr_expect_eq(FE_(_from_dec)(&x, mdec), GM_OK);
    FE_(_to_dec)(out, &x);
    cr_expect_str_eq(out, mdec);
    x = PF_ONE;
    static const char *const bad[] = {"", "01", "00", "12a", "-1", "+1", " 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(FE_(_from_dec)(&x, bad[i]), GM_EFORMAT, "\"%s\"", bad[i]);
    memset(big, '9', 200);
    big[200] = 0;
    cr_expect_eq(FE_(_from_dec)(&x, big), GM_ENONCANON);
    memset(big, '1', 200);
    cr_expect_eq(FE_(_from_dec)(&x, big), GM_ENONCANON);
    big[199] = 'x';
    cr_expect_eq(FE_(_from_dec)(&x, big), GM_EFORMAT);
    cr_expect(FE_(_is_one)(&x), "out untouched on failure");
    cr_expect_eq(FE_(_from_dec)(&x, "0"), GM_OK);
    cr_expect(FE_(_is_zero)(&x));
    cr_expect_eq(FE_(_from_dec)(&x, "1"), GM_OK);
    cr_expect(FE_(_is_one)(&x));
}

Test(PF, dec_errors) { test_on_paths(check_dec_errors, PF_WHO("dec_errors")); }

/* The two kernel paths agree on many random inputs (no reference needed). */
Test(PF, adx_matches_portable)
{
    if (ff_init(FF_PATH_ADX) != GM_OK)
        cr_skip_test("no BMI2/ADX on this CPU");
    test_rng_t rng;
    test_rng_init(&rng, PF_WHO("adx_matches_portable"));
    for (int it = 0; it < 5000; it++) {
        PF_T x, y, z1, z2, s1, s2;
        rand_fe(&x, NULL, &rng);
        rand_fe(&y, NULL, &rng);
        cr_assert_eq(ff_init(FF_PATH_PORTABLE), GM_OK);
        FE_(_mul)(&z1, &x, &y);
        FE_(_sqr)(&s1, &x);
        cr_assert_eq(ff_init(FF_PATH_ADX), GM_OK);
        FE_(_mul)(&z2, &x, &y);
        FE_(_sqr)(&s2, &x);
        cr_assert(FE_(_eq)(&z1, &z2) && FE_(_eq)(&s1, &s2), "paths differ at %d", it);
    }
}
