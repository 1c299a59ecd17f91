/*
 * tests/unit/test_g1.c — G1 (y^2 = x^3 + 4 over Fp): the group tests of
 * tests/unit/ec_group_tests.h against a naive affine reference, plus what is
 * G1's own: the GLV endomorphism constants and small-order torsion.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

#include "ec/ec.h"

/* b = 4 = 4 * R mod p in Montgomery form: built at run time from fp_set_u64. */
#define test_b (*g1_test_b())
static const fp_t *g1_test_b(void)
{
    static fp_t b;
    fp_set_u64(&b, 4);
    return &b;
}

/* h1 = 0x396c8c005555e1568c00aaab0000aaab = 3 * 11^2 * 10177^2 * 859267^2 * 52437899^2 */
static const uint64_t test_cofactor[8] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};

#define EC_PT g1
#define EC_FE fp
#define EC_FE_T fp_t
#define EC_FE_ONE FP_ONE
#define EC_GEN G1_GENERATOR
#include "tests/unit/ec_group_tests.h"

static void rand_fe(fp_t *out, test_rng_t *rng) { test_rand_fp(out, rng); }

/* A point of order 3: (h1/3) * r * q for a random curve point q. */
Test(g1, subgroup_rejects_order_3_torsion, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, "g1/subgroup_rejects_order_3_torsion");
    static const uint64_t h_over_3[4] = {0x2eaae38e55558e39ULL, 0x13242eaac71ca072ULL};
    g1_jac_t t;
    do {
        g1_affine_t q = rand_curve_point(&rng);
        g1_from_affine(&t, &q);
        g1_mul_any(&t, &t, R_LIMBS);
        g1_mul_any(&t, &t, h_over_3);
    } while (g1_jac_is_inf(&t));
    g1_jac_t t3;
    uint64_t three[4] = {3};
    g1_mul_any(&t3, &t, three);
    cr_assert(g1_jac_is_inf(&t3), "3T = O");
    g1_affine_t ta, sa;
    g1_to_affine(&ta, &t);
    cr_assert(!g1_affine_in_subgroup(&ta), "T of order 3 rejected");
    g1_add_mixed(&t, &t, &G1_GENERATOR);
    g1_to_affine(&sa, &t);
    cr_assert(!g1_affine_in_subgroup(&sa), "G + T rejected");
}

/* The endomorphism: phi(G) = (beta x, y) equals lambda*G with lambda = -z^2
 * mod r, seen through the GLV split: multiplying by lambda and by z^2 must give
 * opposite points. */
Test(g1, glv_lambda, .init = setup)
{
    static const uint64_t z2[4] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
    /* lambda = r - z^2 */
    static const uint64_t lambda[4] = {0xfffffffe00000001ULL, 0xa7780001fffcb7fcULL,
                                       0x3339d80809a1d804ULL, 0x73eda753299d7d48ULL};
    g1_jac_t g, a, b;
    g1_from_affine(&g, &G1_GENERATOR);
    g1_mul(&a, &g, lambda);
    g1_mul_any(&b, &g, z2);
    g1_neg(&b, &b);
    cr_assert(g1_jac_eq(&a, &b));
    g1_affine_t aa = to_aff(&a);
    /* phi(G) has the same y as G */
    cr_assert(fp_eq(&aa.y, &G1_GENERATOR.y));
}
