/*
 * tests/unit/test_bn254_fp.c — BN254's Fp against the naive reference of
 * tests/unit/ff_ref.h: the prime-field tests of tests/unit/prime_field_tests.h
 * instantiated for it (suite bn_fp), and what only it has here (the raw
 * Montgomery bytes of snarkjs). Every test runs on both kernel paths.
 */
#define PF bn_fp
#define PF_T bn_fp_t
#define PF_N BN254_LIMBS
#define PF_M BN254_FP_MODULUS
#define PF_BYTES BN254_BYTES
#define PF_DEC_MAX BN254_DEC_MAX
#define PF_DEC_LEN 77
#define PF_ZERO BN254_FP_ZERO
#define PF_ONE BN254_FP_ONE
#include "tests/unit/prime_field_tests.h"

/* to_mont_le writes a*2^256 mod p little-endian (checked with the
 * reference); from_mont_le reads it back and rejects stored values >= p. */
static void check_mont_bytes(test_rng_t *rng)
{
    uint64_t ones[N], one[N] = {1}, r1[N], mont[N];
    memset(ones, 0xff, sizeof ones);
    ref_reduce(r1, ones, M, N);
    ref_addmod(r1, r1, one, M, N); /* 2^256 mod p */
    for (int it = 0; it < 100; it++) {
        uint64_t a[N];
        bn_fp_t x, y;
        uint8_t b[BN254_BYTES];
        rand_fe(&x, a, rng);
        ref_mulmod(mont, a, r1, M, N);
        bn_fp_to_mont_le(b, &x);
        for (int i = 0; i < BN254_BYTES; i++)
            cr_assert_eq(b[i], (uint8_t)(mont[i / 8] >> (8 * (i % 8))), "byte %d at %d", i, it);
        cr_assert_eq(bn_fp_from_mont_le(&y, b), GM_OK);
        cr_assert(bn_fp_eq(&x, &y));
    }
    uint8_t b[BN254_BYTES];
    bn_fp_t x = BN254_FP_ONE;
    for (int i = 0; i < BN254_BYTES; i++)
        b[i] = (uint8_t)(M[i / 8] >> (8 * (i % 8)));
    cr_expect_eq(bn_fp_from_mont_le(&x, b), GM_ENONCANON, "stored p");
    memset(b, 0xff, sizeof b);
    cr_expect_eq(bn_fp_from_mont_le(&x, b), GM_ENONCANON, "stored 2^256 - 1");
    cr_expect(bn_fp_is_one(&x), "out untouched on failure");
}

Test(bn_fp, mont_bytes) { test_on_paths(check_mont_bytes, "bn_fp/mont_bytes"); }
