/*
 * tests/unit/test_bn254_fr.c — BN254's Fr against the naive reference of
 * tests/unit/ff_ref.h: the prime-field tests of tests/unit/prime_field_tests.h
 * instantiated for it (suite bn_fr), and what only it has (the generator 5,
 * roots of unity of 2-power order up to 2^28, reduction of any 256-bit
 * string). Every test runs on both kernel paths.
 */
#define PF bn_fr
#define PF_T bn_fr_t
#define PF_N BN254_LIMBS
#define PF_M BN254_FR_MODULUS
#define PF_BYTES BN254_BYTES
#define PF_DEC_MAX BN254_DEC_MAX
#define PF_DEC_LEN 77
#define PF_ZERO BN254_FR_ZERO
#define PF_ONE BN254_FR_ONE
#define PF_NO_SQRT
#include "tests/unit/prime_field_tests.h"

/* The generator is 5 and not a square; bn_fr_root_of_unity(k) has order
 * exactly 2^k; the 2^28-th root is 5^((r-1)/2^28) (the reference's pow). */
static void check_roots(test_rng_t *rng)
{
    (void)rng;
    bn_fr_t g;
    bn_fr_set_u64(&g, 5);
    cr_assert(bn_fr_eq(&g, &BN254_FR_GENERATOR), "BN254_FR_GENERATOR is 5");
    cr_assert_eq(bn_fr_legendre(&g), -1, "5 is not a square");
    for (unsigned k = 0; k <= BN254_FR_TWO_ADICITY; k++) {
        bn_fr_t w, t;
        bn_fr_root_of_unity(&w, k);
        t = w;
        for (unsigned i = 0; i < k; i++) {
            cr_assert(!bn_fr_is_one(&t), "root 2^%u has order 2^%u", k, i);
            bn_fr_sqr(&t, &t);
        }
        cr_assert(bn_fr_is_one(&t), "root 2^%u: w^(2^k) != 1", k);
    }
    uint64_t e[N], want[N], five[N] = {5};
    memcpy(e, M, sizeof e);
    e[0] -= 1; /* r - 1, then / 2^28 */
    for (int i = 0; i < N; i++)
        e[i] = e[i] >> 28 | (i + 1 < N ? e[i + 1] << 36 : 0);
    cr_assert_eq(e[0] & 1, 1, "r - 1 = 2^28 t with t odd");
    ref_powmod(want, five, e, M, N);
    bn_fr_t w;
    bn_fr_root_of_unity(&w, BN254_FR_TWO_ADICITY);
    expect_plain(&w, want, "5^t", 0);
}

Test(bn_fr, roots_of_unity) { test_on_paths(check_roots, "bn_fr/roots_of_unity"); }

/* Any 32 bytes reduce to their value mod r (the reference's reduction). */
static void check_from_bytes_mod(test_rng_t *rng)
{
    for (int it = 0; it < 200; it++) {
        uint64_t l[N], want[N];
        uint8_t b[BN254_BYTES];
        for (int i = 0; i < N; i++)
            l[i] = test_rng_next(rng);
        if (it == 0)
            memset(l, 0xff, sizeof l);
        for (int i = 0; i < BN254_BYTES; i++)
            b[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
        ref_reduce(want, l, M, N);
        bn_fr_t x;
        bn_fr_from_bytes_le_mod(&x, b);
        expect_plain(&x, want, "from_bytes_le_mod", it);
    }
}

Test(bn_fr, from_bytes_le_mod) { test_on_paths(check_from_bytes_mod, "bn_fr/from_bytes_le_mod"); }
