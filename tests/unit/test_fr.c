/*
 * tests/unit/test_fr.c — Fr against the naive integer reference of test_fp.c
 * (schoolbook multiply, bit-serial reduction; shares no code with ff/), and
 * properties on seeded random inputs. Every test runs on both kernel paths.
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

/* The naive reference and the path runner, defined in test_fp.c. */
void ref_mulmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64);
void ref_addmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64);
void ref_submod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64);
void ref_reduce(uint64_t *out, const uint64_t *x, const uint64_t *m, int n64);
void ref_powmod(uint64_t *out, const uint64_t *a, const uint64_t *e, const uint64_t *m, int n64);
void ref_to_dec(char *buf, const uint64_t *x, int n64);
void ref_random_below(uint64_t *out, const uint64_t *m, int n64, test_rng_t *rng);
void test_on_paths(void (*body)(test_rng_t *rng), const char *who);

#define N FR_LIMBS
#define R FR_MODULUS

static void rand_fr(fr_t *out, uint64_t plain[N], test_rng_t *rng)
{
    uint64_t l[N];
    ref_random_below(l, R, N, rng);
    cr_assert_eq(fr_from_limbs(out, l), GM_OK);
    if (plain)
        memcpy(plain, l, sizeof l);
}

static void expect_plain(const fr_t *a, const uint64_t want[N], const char *what, int iter)
{
    uint64_t got[N];
    fr_to_limbs(got, a);
    cr_assert(memcmp(got, want, sizeof got) == 0, "%s: mismatch at iteration %d (path %s)", what,
              iter, ff_path_name());
}

static void check_arith(test_rng_t *rng)
{
    for (int it = 0; it < 400; it++) {
        uint64_t a[N], b[N], want[N];
        fr_t x, y, z;
        rand_fr(&x, a, rng);
        rand_fr(&y, b, rng);
        if (it == 0) { /* r - 1 squared */
            memcpy(a, R, sizeof a);
            a[0] -= 1;
            memcpy(b, a, sizeof b);
            cr_assert_eq(fr_from_limbs(&x, a), GM_OK);
            y = x;
        }
        ref_mulmod(want, a, b, R, N);
        fr_mul(&z, &x, &y);
        expect_plain(&z, want, "fr_mul", it);
        ref_mulmod(want, a, a, R, N);
        fr_sqr(&z, &x);
        expect_plain(&z, want, "fr_sqr", it);
        ref_addmod(want, a, b, R, N);
        fr_add(&z, &x, &y);
        expect_plain(&z, want, "fr_add", it);
        ref_submod(want, a, b, R, N);
        fr_sub(&z, &x, &y);
        expect_plain(&z, want, "fr_sub", it);
        ref_submod(want, (uint64_t[N]){0}, a, R, N);
        fr_neg(&z, &x);
        expect_plain(&z, want, "fr_neg", it);
        fr_half(&z, &x);
        fr_dbl(&z, &z);
        cr_assert(fr_eq(&z, &x), "2 * (a/2) != a");
    }
    fr_t z;
    fr_neg(&z, &FR_ZERO);
    cr_assert(fr_is_zero(&z));
    fr_set_u64(&z, 7);
    cr_assert(fr_eq(&z, &FR_GENERATOR), "FR_GENERATOR is 7");
}

Test(fr, arith_matches_reference) { test_on_paths(check_arith, "fr/arith_matches_reference"); }

static const uint64_t R_MINUS_2[N] = {
    0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL,
};

static void check_inv(test_rng_t *rng)
{
    for (int it = 0; it < 300; it++) {
        uint64_t a[N], want[N];
        fr_t x, y, z;
        rand_fr(&x, a, rng);
        if (it < 4) {
            memset(a, 0, sizeof a);
            a[0] = (uint64_t)it + 1;
            if (it >= 2)
                ref_submod(a, R, a, R, N);
            cr_assert_eq(fr_from_limbs(&x, a), GM_OK);
        }
        fr_inv(&y, &x);
        fr_mul(&z, &x, &y);
        cr_assert(fr_is_one(&z), "a * a^-1 != 1 at %d (path %s)", it, ff_path_name());
        if (it < 20) {
            ref_powmod(want, a, R_MINUS_2, R, N);
            expect_plain(&y, want, "fr_inv vs a^(r-2)", it);
        }
    }
    fr_t z;
    fr_inv(&z, &FR_ZERO);
    cr_assert(fr_is_zero(&z));
    enum { n = 20 };
    fr_t a[n], out[n], scratch[n];
    for (int i = 0; i < n; i++) {
        rand_fr(&a[i], NULL, rng);
        if (i % 6 == 1)
            a[i] = FR_ZERO;
    }
    fr_batch_inv(out, a, n, scratch);
    for (int i = 0; i < n; i++) {
        fr_inv(&z, &a[i]);
        cr_assert(fr_eq(&out[i], &z), "batch_inv[%d]", i);
    }
    fr_batch_inv(a, a, n, scratch);
    for (int i = 0; i < n; i++)
        cr_assert(fr_eq(&a[i], &out[i]), "in-place batch_inv[%d]", i);
}

Test(fr, inv_batch_inv) { test_on_paths(check_inv, "fr/inv_batch_inv"); }

static void check_sqrt(test_rng_t *rng)
{
    int non = 0;
    for (int it = 0; it < 60; it++) {
        uint64_t a[N], e[N], want[N];
        fr_t x, y, sq, r;
        rand_fr(&x, a, rng);
        if (it < 4) {
            ref_random_below(e, R, N, rng);
            ref_powmod(want, a, e, R, N);
            fr_pow(&y, &x, e, N);
            expect_plain(&y, want, "fr_pow", it);
        }
        fr_sqr(&sq, &x);
        cr_assert_eq(fr_legendre(&sq), 1);
        cr_assert(fr_sqrt(&r, &sq), "square without root (path %s)", ff_path_name());
        fr_neg(&y, &r);
        cr_assert(fr_eq(&r, &x) || fr_eq(&y, &x), "root is +-x");
        int l = fr_legendre(&x);
        r = FR_ONE;
        bool ok = fr_sqrt(&r, &x);
        cr_assert_eq(ok, l == 1, "sqrt vs legendre at %d", it);
        if (ok) {
            fr_sqr(&y, &r);
            cr_assert(fr_eq(&y, &x));
        } else {
            cr_assert(fr_is_one(&r), "out untouched on failure");
        }
        non += l == -1;
    }
    cr_assert(non > 5, "%d non-squares in 60", non);
    fr_t r;
    cr_assert(fr_sqrt(&r, &FR_ZERO) && fr_is_zero(&r));
    cr_assert_eq(fr_legendre(&FR_ZERO), 0);
    cr_assert_eq(fr_legendre(&FR_GENERATOR), -1, "7 generates: not a square");
    cr_assert(!fr_sqrt(&r, &FR_GENERATOR));
    /* roots of unity of every order have roots */
    for (unsigned k = 0; k <= FR_TWO_ADICITY; k++) {
        fr_t w, s, s2;
        fr_root_of_unity(&w, k);
        bool ok = fr_sqrt(&s, &w);
        cr_assert_eq(ok, k < FR_TWO_ADICITY, "root of order 2^%u", k);
        if (ok) {
            fr_sqr(&s2, &s);
            cr_assert(fr_eq(&s2, &w));
        }
    }
}

Test(fr, pow_sqrt_legendre) { test_on_paths(check_sqrt, "fr/pow_sqrt_legendre"); }

/* fr_root_of_unity(k) has order exactly 2^k; the 2^32-th one is 7^((r-1)/2^32). */
static void check_roots(test_rng_t *rng)
{
    (void)rng;
    for (unsigned k = 0; k <= FR_TWO_ADICITY; k++) {
        fr_t w, t;
        fr_root_of_unity(&w, k);
        t = w;
        for (unsigned i = 0; i < k; i++) {
            cr_assert(!fr_is_one(&t), "root 2^%u has order 2^%u", k, i);
            fr_sqr(&t, &t);
        }
        cr_assert(fr_is_one(&t), "root 2^%u: w^(2^k) != 1", k);
    }
    uint64_t t_exp[N], want[N], seven[N] = {7}, w[N];
    memcpy(t_exp, R, sizeof t_exp); /* (r - 1) / 2^32 */
    t_exp[0] -= 1;
    for (int i = 0; i < N; i++)
        t_exp[i] = t_exp[i] >> 32 | (i + 1 < N ? t_exp[i + 1] << 32 : 0);
    ref_powmod(want, seven, t_exp, R, N);
    fr_t root;
    fr_root_of_unity(&root, FR_TWO_ADICITY);
    fr_to_limbs(w, &root);
    cr_assert(memcmp(w, want, sizeof w) == 0, "root of unity != 7^((r-1)/2^32)");
}

Test(fr, root_of_unity) { test_on_paths(check_roots, "fr/root_of_unity"); }

static void check_bytes_dec(test_rng_t *rng)
{
    for (int it = 0; it < 150; it++) {
        uint64_t a[N], want[N];
        fr_t x, y;
        uint8_t be[FR_BYTES], le[FR_BYTES];
        char dref[100], dgot[FR_DEC_MAX];
        rand_fr(&x, a, rng);
        fr_to_bytes_be(be, &x);
        fr_to_bytes_le(le, &x);
        for (int i = 0; i < FR_BYTES; i++) {
            uint8_t b = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
            cr_assert_eq(le[i], b);
            cr_assert_eq(be[FR_BYTES - 1 - i], b);
        }
        cr_assert_eq(fr_from_bytes_be(&y, be), GM_OK);
        cr_assert(fr_eq(&x, &y));
        cr_assert_eq(fr_from_bytes_le(&y, le), GM_OK);
        cr_assert(fr_eq(&x, &y));
        ref_to_dec(dref, a, N);
        fr_to_dec(dgot, &x);
        cr_assert_str_eq(dgot, dref);
        cr_assert_eq(fr_from_dec(&y, dref), GM_OK);
        cr_assert(fr_eq(&x, &y));
        /* from_bytes_le_mod on any 256-bit value */
        uint64_t any[N];
        for (int i = 0; i < N; i++)
            any[i] = test_rng_next(rng);
        if (it == 0)
            memset(any, 0xff, sizeof any);
        if (it == 1)
            memcpy(any, R, sizeof any);
        for (int i = 0; i < FR_BYTES; i++)
            le[i] = (uint8_t)(any[i / 8] >> (8 * (i % 8)));
        fr_from_bytes_le_mod(&y, le);
        ref_reduce(want, any, R, N);
        expect_plain(&y, want, "fr_from_bytes_le_mod", it);
    }
}

Test(fr, bytes_dec_round_trip) { test_on_paths(check_bytes_dec, "fr/bytes_dec_round_trip"); }

static void check_noncanonical_dec(test_rng_t *rng)
{
    (void)rng;
    uint8_t be[FR_BYTES], le[FR_BYTES];
    uint64_t l[N];
    fr_t x = FR_ONE;
    for (int i = 0; i < FR_BYTES; i++) {
        le[i] = (uint8_t)(R[i / 8] >> (8 * (i % 8)));
        be[FR_BYTES - 1 - i] = le[i];
    }
    cr_expect_eq(fr_from_bytes_be(&x, be), GM_ENONCANON);
    cr_expect_eq(fr_from_bytes_le(&x, le), GM_ENONCANON);
    memcpy(l, R, sizeof l);
    l[1] += 1;
    cr_expect_eq(fr_from_limbs(&x, l), GM_ENONCANON);
    memset(be, 0xff, sizeof be);
    cr_expect_eq(fr_from_bytes_be(&x, be), GM_ENONCANON);
    cr_expect_eq(fr_from_bytes_le(&x, be), GM_ENONCANON);
    char rdec[100], big[201];
    ref_to_dec(rdec, R, N);
    cr_expect_eq(fr_from_dec(&x, rdec), GM_ENONCANON);
    cr_expect_eq(fr_from_dec(&x, ""), GM_EFORMAT);
    cr_expect_eq(fr_from_dec(&x, "01"), GM_EFORMAT);
    cr_expect_eq(fr_from_dec(&x, "12a"), GM_EFORMAT);
    cr_expect_eq(fr_from_dec(&x, "-1"), GM_EFORMAT);
    memset(big, '1', 200);
    big[200] = 0;
    cr_expect_eq(fr_from_dec(&x, big), GM_ENONCANON);
    cr_expect(fr_is_one(&x), "out untouched on failure");
    memcpy(l, R, sizeof l);
    l[0] -= 1;
    ref_to_dec(rdec, l, N);
    cr_expect_eq(fr_from_dec(&x, rdec), GM_OK);
    char out[FR_DEC_MAX];
    fr_to_dec(out, &x);
    cr_expect_str_eq(out, rdec);
}

Test(fr, noncanonical_and_dec_errors) { test_on_paths(check_noncanonical_dec, "fr/noncanonical_and_dec_errors"); }

Test(fr, adx_matches_portable)
{
    if (ff_init(FF_PATH_ADX) != GM_OK)
        cr_skip_test("no BMI2/ADX on this CPU");
    test_rng_t rng;
    test_rng_init(&rng, "fr/adx_matches_portable");
    for (int it = 0; it < 5000; it++) {
        fr_t x, y, z1, z2, s1, s2;
        rand_fr(&x, NULL, &rng);
        rand_fr(&y, NULL, &rng);
        ff_init(FF_PATH_PORTABLE);
        fr_mul(&z1, &x, &y);
        fr_sqr(&s1, &x);
        ff_init(FF_PATH_ADX);
        fr_mul(&z2, &x, &y);
        fr_sqr(&s2, &x);
        cr_assert(fr_eq(&z1, &z2) && fr_eq(&s1, &s2), "paths differ at %d", it);
    }
}
