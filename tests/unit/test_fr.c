/*
 * tests/unit/test_fr.c — Fr against the naive reference of
 * tests/unit/ff_ref.h: the prime-field tests of tests/unit/prime_field_tests.h
 * instantiated for Fr, and what only Fr has (the generator 7, roots of unity,
 * reduction of any 256-bit string). Every test runs on both kernel paths.
 */
#define PF fr
#define PF_T fr_t
#define PF_N FR_LIMBS
#define PF_M FR_MODULUS
#define PF_BYTES FR_BYTES
#define PF_DEC_MAX FR_DEC_MAX
#define PF_DEC_LEN 77
#define PF_ZERO FR_ZERO
#define PF_ONE FR_ONE
#define PF_INL ffr
#include "tests/unit/prime_field_tests.h"

/* 7 generates: not a square; roots of unity of every order below 2^32 have roots. */
static void check_generator_sqrt(test_rng_t *rng)
{
    (void)rng;
    fr_t r;
    fr_set_u64(&r, 7);
    cr_assert(fr_eq(&r, &FR_GENERATOR), "FR_GENERATOR is 7");
    cr_assert_eq(fr_legendre(&FR_GENERATOR), -1, "7 generates: not a square");
    r = FR_ONE;
    cr_assert(!fr_sqrt(&r, &FR_GENERATOR));
    cr_assert(fr_is_one(&r), "out untouched on failure");
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

Test(fr, generator_sqrt) { test_on_paths(check_generator_sqrt, "fr/generator_sqrt"); }

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
    uint64_t t_exp[N], want[N], seven[N] = {7};
    memcpy(t_exp, M, sizeof t_exp); /* (r - 1) / 2^32 */
    t_exp[0] -= 1;
    for (int i = 0; i < N; i++)
        t_exp[i] = t_exp[i] >> 32 | (i + 1 < N ? t_exp[i + 1] << 32 : 0);
    ref_powmod(want, seven, t_exp, M, N);
    fr_t root;
    fr_root_of_unity(&root, FR_TWO_ADICITY);
    expect_plain(&root, want, "root of unity vs 7^((r-1)/2^32)", 0);
}

Test(fr, root_of_unity) { test_on_paths(check_roots, "fr/root_of_unity"); }

/* fr_from_bytes_le_mod reduces any 256-bit value. */
static void check_bytes_le_mod(test_rng_t *rng)
{
    for (int it = 0; it < 150; it++) {
        uint64_t any[N], want[N];
        uint8_t le[FR_BYTES];
        fr_t y;
        for (int i = 0; i < N; i++)
            any[i] = test_rng_next(rng);
        if (it == 0)
            memset(any, 0xff, sizeof any);
        if (it == 1)
            memcpy(any, M, sizeof any);
        for (int i = 0; i < FR_BYTES; i++)
            le[i] = (uint8_t)(any[i / 8] >> (8 * (i % 8)));
        fr_from_bytes_le_mod(&y, le);
        ref_reduce(want, any, M, N);
        expect_plain(&y, want, "fr_from_bytes_le_mod", it);
    }
}

Test(fr, bytes_le_mod) { test_on_paths(check_bytes_le_mod, "fr/bytes_le_mod"); }
