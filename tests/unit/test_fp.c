/*
 * tests/unit/test_fp.c — Fp against the deliberately naive reference of
 * tests/unit/ff_ref.h: the prime-field tests of tests/unit/prime_field_tests.h
 * instantiated for Fp, and what only Fp has (the lexicographic sign, -1 a
 * non-square). Every test runs on the portable path and, when the CPU has
 * it, on ADX.
 */
#define PF fp
#define PF_T fp_t
#define PF_N FP_LIMBS
#define PF_M FP_MODULUS
#define PF_BYTES FP_BYTES
#define PF_DEC_MAX FP_DEC_MAX
#define PF_DEC_LEN 115
#define PF_ZERO FP_ZERO_ELEM
#define PF_ONE FP_ONE
#define PF_INL ffp
#include "tests/unit/prime_field_tests.h"

static void check_lex_nonsquare(test_rng_t *rng)
{
    for (int it = 0; it < 200; it++) {
        uint64_t a[N], want[N];
        fp_t x;
        rand_fe(&x, a, rng);
        ref_addmod(want, a, a, M, N); /* a > (p-1)/2 <=> 2a >= p <=> 2a - p, odd */
        bool big = (want[0] & 1) != 0;
        cr_assert_eq(fp_is_lex_largest(&x), big, "lex sign at %d", it);
    }
    cr_assert(!fp_is_lex_largest(&FP_ZERO_ELEM));
    fp_t r, m1; /* -1 is a non-square (p = 3 mod 4) */
    fp_neg(&m1, &FP_ONE);
    cr_assert_eq(fp_legendre(&m1), -1);
    cr_assert(!fp_sqrt(&r, &m1));
}

Test(fp, lex_largest_nonsquare) { test_on_paths(check_lex_nonsquare, "fp/lex_largest_nonsquare"); }
