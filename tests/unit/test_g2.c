/*
 * tests/unit/test_g2.c — G2 (y^2 = x^3 + 4(u + 1) over Fp2): the group tests
 * of tests/unit/ec_group_tests.h against a naive affine reference, plus what
 * is G2's own: psi acts as multiplication by x on G2.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

#include "ec/ec.h"

/* b = 4 + 4u */
#define test_b (*g2_test_b())
static const fp2_t *g2_test_b(void)
{
    static fp2_t b;
    fp_set_u64(&b.c0, 4);
    b.c1 = b.c0;
    return &b;
}

/* h2 (508 bits): (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 */
static const uint64_t test_cofactor[8] = {
    0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL, 0xa628f1cb4d9e82efULL,
    0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL, 0x091d50792876a202ULL, 0x05d543a95414e7f1ULL,
};

#define EC_PT g2
#define EC_FE fp2
#define EC_FE_T fp2_t
#define EC_FE_ONE FP2_ONE
#define EC_GEN G2_GENERATOR
#include "tests/unit/ec_group_tests.h"

static void rand_fe(fp2_t *out, test_rng_t *rng)
{
    test_rand_fp(&out->c0, rng);
    test_rand_fp(&out->c1, rng);
}

/* psi(x, y) = (conj(x) c_x, conj(y) c_y) computed naively here (c_x, c_y as
 * powers of 1/(u+1), no constants shared with ec/g2.c) equals x*P, and
 * x*P = -(z*P) via mul_any. */
Test(g2, psi_is_mul_by_x, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, "g2/psi_is_mul_by_x");
    static const uint64_t pm1_3[FP_LIMBS] = { /* (p - 1) / 3 */
        0x9354ffffffffe38eULL, 0x0a395554e5c6aaaaULL, 0xcd104635a790520cULL,
        0xcc27c3d6fbd7063fULL, 0x190937e76bc3e447ULL, 0x08ab05f8bdd54cdeULL};
    static const uint64_t pm1_2[FP_LIMBS] = { /* (p - 1) / 2 */
        0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL,
        0xb23ba5c279c2895fULL, 0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    fp2_t xi = {FP_ONE, FP_ONE}, cx, cy;
    fp2_pow(&cx, &xi, pm1_3, FP_LIMBS);
    fp2_inv(&cx, &cx);
    fp2_pow(&cy, &xi, pm1_2, FP_LIMBS);
    fp2_inv(&cy, &cy);
    static const uint64_t z[4] = {0xd201000000010000ULL};
    for (int it = 0; it < 3; it++) {
        g2_affine_t a = rand_point(&rng), psi;
        fp2_conj(&psi.x, &a.x);
        fp2_mul(&psi.x, &psi.x, &cx);
        fp2_conj(&psi.y, &a.y);
        fp2_mul(&psi.y, &psi.y, &cy);
        psi.inf = false;
        g2_affine_t want = ref_neg(ref_mul(a, z, 1));
        cr_assert(g2_affine_eq(&psi, &want), "psi(P) = x P, iteration %d", it);
    }
}
