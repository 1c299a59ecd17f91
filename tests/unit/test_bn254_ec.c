/*
 * tests/unit/test_bn254_ec.c — properties of BN254's G1, G2 and pairing on
 * seeded random scalars (the seed is printed; GM_TEST_SEED replays it), on
 * both kernel paths: small multiples against repeated addition, scalar
 * multiplication against the group law, the group orders, the encodings'
 * round trips and the identity, bilinearity and non-degeneracy of the
 * pairing. Known answers from @noble/curves are in test_bn254_vectors.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

static bn_fr_t rand_fr(test_rng_t *rng)
{
    uint64_t l[4];
    bn_fr_t x;
    ref_random_below(l, BN254_FR_MODULUS, 4, rng);
    cr_assert_eq(bn_fr_from_limbs(&x, l), GM_OK);
    return x;
}

/* The checks of one group, written once for G1 and G2. */
#define GROUP_PROPS(g, GEN, BYTES)                                                                 \
    static void g##_props(test_rng_t *rng)                                                         \
    {                                                                                              \
        bn_##g##_jac_t gen, acc, t, u;                                                             \
        bn_##g##_affine_t a, b;                                                                    \
        bn_##g##_from_affine(&gen, &GEN);                                                          \
        cr_assert(bn_##g##_affine_on_curve(&GEN));                                                 \
        /* k G == G + ... + G for every k <= 64, and k G + (64 - k) G == 64 G */                   \
        bn_##g##_jac_set_inf(&acc);                                                                \
        for (uint64_t k = 0; k <= 64; k++) {                                                       \
            uint64_t kk[4] = {k};                                                                  \
            bn_##g##_mul(&t, &gen, kk);                                                            \
            cr_assert(bn_##g##_jac_eq(&t, &acc), #g ": %llu G", (unsigned long long)k);            \
            cr_assert(bn_##g##_jac_on_curve(&t));                                                  \
            bn_##g##_add(&acc, &acc, &gen);                                                        \
        }                                                                                          \
        /* r G == 0, (r - 1) G == -G */                                                            \
        uint64_t r[4];                                                                             \
        memcpy(r, BN254_FR_MODULUS, sizeof r);                                                     \
        bn_##g##_mul(&t, &gen, r);                                                                 \
        cr_assert(bn_##g##_jac_is_inf(&t), #g ": r G != 0");                                       \
        r[0] -= 1;                                                                                 \
        bn_##g##_mul(&t, &gen, r);                                                                 \
        bn_##g##_neg(&u, &gen);                                                                    \
        cr_assert(bn_##g##_jac_eq(&t, &u), #g ": (r - 1) G != -G");                                \
        for (int it = 0; it < 8; it++) {                                                           \
            bn_fr_t x = rand_fr(rng), y = rand_fr(rng), z;                                         \
            bn_##g##_jac_t px, py, pz, s;                                                          \
            bn_fr_add(&z, &x, &y);                                                                 \
            bn_##g##_mul_fr(&px, &gen, &x);                                                        \
            bn_##g##_mul_fr(&py, &gen, &y);                                                        \
            bn_##g##_mul_fr(&pz, &gen, &z);                                                        \
            bn_##g##_add(&s, &px, &py);                                                            \
            cr_assert(bn_##g##_jac_eq(&s, &pz), #g ": xG + yG != (x + y)G at %d", it);             \
            /* mixed add, XYZZ, doubling through aliasing */                                       \
            bn_##g##_to_affine(&b, &py);                                                           \
            bn_##g##_add_mixed(&s, &px, &b);                                                       \
            cr_assert(bn_##g##_jac_eq(&s, &pz));                                                   \
            bn_##g##_xyzz_t xa, xb;                                                                \
            bn_##g##_to_affine(&a, &px);                                                           \
            bn_##g##_xyzz_set_inf(&xa);                                                            \
            bn_##g##_xyzz_add_affine(&xa, &xa, &a);                                                \
            bn_##g##_xyzz_set_inf(&xb);                                                            \
            bn_##g##_xyzz_add_affine(&xb, &xb, &b);                                                \
            bn_##g##_xyzz_add(&xa, &xa, &xb);                                                      \
            bn_##g##_xyzz_dbl(&xa, &xa);                                                           \
            bn_##g##_xyzz_to_jac(&s, &xa);                                                         \
            bn_##g##_dbl(&pz, &pz);                                                                \
            cr_assert(bn_##g##_jac_eq(&s, &pz), #g ": XYZZ at %d", it);                            \
            /* the encodings round-trip */                                                         \
            uint8_t e[BYTES];                                                                      \
            bn_##g##_affine_t back;                                                                \
            bn_##g##_to_bytes_eth(e, &a);                                                          \
            cr_assert_eq(bn_##g##_from_bytes_eth(&back, e), GM_OK);                                \
            cr_assert(bn_##g##_affine_eq(&a, &back));                                              \
            bn_##g##_to_bytes_snarkjs(e, &a);                                                      \
            cr_assert_eq(bn_##g##_from_bytes_snarkjs(&back, e), GM_OK);                            \
            cr_assert(bn_##g##_affine_eq(&a, &back));                                              \
        }                                                                                          \
        /* the identity: all zeros both ways */                                                    \
        uint8_t e[BYTES], zero[BYTES] = {0};                                                       \
        bn_##g##_affine_set_inf(&a);                                                               \
        bn_##g##_to_bytes_eth(e, &a);                                                              \
        cr_assert(memcmp(e, zero, BYTES) == 0);                                                    \
        bn_##g##_to_bytes_snarkjs(e, &a);                                                          \
        cr_assert(memcmp(e, zero, BYTES) == 0);                                                    \
        b = GEN;                                                                                   \
        cr_assert_eq(bn_##g##_from_bytes_eth(&b, zero), GM_OK);                                    \
        cr_assert(b.inf);                                                                          \
        b = GEN;                                                                                   \
        cr_assert_eq(bn_##g##_from_bytes_snarkjs(&b, zero), GM_OK);                                \
        cr_assert(b.inf);                                                                          \
        /* batch_to_affine with an identity in the middle */                                      \
        bn_##g##_jac_t pts[3] = {gen, acc, gen};                                                   \
        bn_##g##_affine_t out[3];                                                                  \
        bn_##g##_jac_set_inf(&pts[1]);                                                             \
        bn_##g##_dbl(&pts[2], &gen);                                                               \
        __typeof__(gen.z) scratch[3];                                                              \
        bn_##g##_batch_to_affine(out, pts, 3, scratch);                                            \
        cr_assert(out[1].inf && bn_##g##_affine_eq(&out[0], &GEN));                                \
        bn_##g##_to_affine(&a, &pts[2]);                                                           \
        cr_assert(bn_##g##_affine_eq(&out[2], &a));                                                \
    }

GROUP_PROPS(g1, BN254_G1_GENERATOR, BN254_G1_BYTES)
GROUP_PROPS(g2, BN254_G2_GENERATOR, BN254_G2_BYTES)

Test(bn254_ec, g1) { test_on_paths(g1_props, "bn254_ec/g1"); }
Test(bn254_ec, g2) { test_on_paths(g2_props, "bn254_ec/g2"); }

/* Decoders: a point off the curve, a coordinate >= p (eth and snarkjs),
 * G2's generator in G2; out untouched on failure. */
static void check_decode_errors(test_rng_t *rng)
{
    (void)rng;
    uint8_t e1[BN254_G1_BYTES], e2[BN254_G2_BYTES];
    bn_g1_affine_t p = BN254_G1_GENERATOR;
    bn_g2_affine_t q = BN254_G2_GENERATOR;
    cr_assert(bn_g2_affine_in_subgroup(&q));
    bn_g1_to_bytes_eth(e1, &p);
    e1[63] ^= 1; /* y = 2 -> 3 */
    cr_expect_eq(bn_g1_from_bytes_eth(&p, e1), GM_ENOTONCURVE);
    memset(e1, 0xff, 32);
    cr_expect_eq(bn_g1_from_bytes_eth(&p, e1), GM_ENONCANON);
    bn_g1_to_bytes_snarkjs(e1, &p);
    memset(e1 + 32, 0xff, 32);
    cr_expect_eq(bn_g1_from_bytes_snarkjs(&p, e1), GM_ENONCANON);
    cr_expect(bn_g1_affine_eq(&p, &BN254_G1_GENERATOR));
    bn_g2_to_bytes_snarkjs(e2, &q);
    e2[0] ^= 1;
    cr_expect_eq(bn_g2_from_bytes_snarkjs(&q, e2), GM_ENOTONCURVE);
    cr_expect_eq(bn_g2_from_bytes_snarkjs_unchecked(&q, e2), GM_ENOTONCURVE);
    memset(e2 + 96, 0xff, 32);
    cr_expect_eq(bn_g2_from_bytes_snarkjs(&q, e2), GM_ENONCANON);
    cr_expect(bn_g2_affine_eq(&q, &BN254_G2_GENERATOR));
}

Test(bn254_ec, decode_errors) { test_on_paths(check_decode_errors, "bn254_ec/decode_errors"); }

/* e(aP, bQ) == e(P, Q)^(ab) == e(abP, Q), e(P, Q) != 1, e(P, Q)^r == 1, and
 * the product check e(aP, Q) e(-P, aQ) == 1 (but not with a + 1). */
static void check_bilinear(test_rng_t *rng)
{
    bn_fp12_t e, e1, e2;
    const bn_g1_affine_t *P = &BN254_G1_GENERATOR;
    const bn_g2_affine_t *Q = &BN254_G2_GENERATOR;
    bn_pairing(&e, P, Q);
    cr_assert(!bn_fp12_is_one(&e), "e(G1, G2) == 1");
    bn_fp12_pow(&e1, &e, BN254_FR_MODULUS, 4);
    cr_assert(bn_fp12_is_one(&e1), "e^r != 1");
    bn_fr_t a = rand_fr(rng), b = rand_fr(rng), ab;
    bn_fr_mul(&ab, &a, &b);
    bn_g1_jac_t j1;
    bn_g2_jac_t j2;
    bn_g1_affine_t aP, abP, nP;
    bn_g2_affine_t bQ, aQ;
    bn_g1_from_affine(&j1, P);
    bn_g1_mul_fr(&j1, &j1, &a);
    bn_g1_to_affine(&aP, &j1);
    bn_g1_from_affine(&j1, P);
    bn_g1_mul_fr(&j1, &j1, &ab);
    bn_g1_to_affine(&abP, &j1);
    bn_g2_from_affine(&j2, Q);
    bn_g2_mul_fr(&j2, &j2, &b);
    bn_g2_to_affine(&bQ, &j2);
    bn_pairing(&e1, &aP, &bQ);
    bn_pairing(&e2, &abP, Q);
    cr_assert(bn_fp12_eq(&e1, &e2), "e(aP, bQ) != e(abP, Q)");
    uint64_t l[4];
    bn_fr_to_limbs(l, &ab);
    bn_fp12_pow(&e2, &e, l, 4);
    cr_assert(bn_fp12_eq(&e1, &e2), "e(aP, bQ) != e(P, Q)^(ab)");

    bn_g2_from_affine(&j2, Q);
    bn_g2_mul_fr(&j2, &j2, &a);
    bn_g2_to_affine(&aQ, &j2);
    bn_g1_affine_neg(&nP, P);
    bn_g1_affine_t ps[2] = {aP, nP};
    bn_g2_affine_t qs[2] = {*Q, aQ};
    cr_assert(bn_pairing_product_is_one(ps, qs, 2), "e(aP, Q) e(-P, aQ) != 1");
    qs[1] = bQ;
    cr_assert(!bn_pairing_product_is_one(ps, qs, 2), "e(aP, Q) e(-P, bQ) == 1");
    cr_assert(bn_pairing_product_is_one(ps, qs, 0), "the empty product");
    bn_g1_affine_set_inf(&ps[0]);
    bn_pairing(&e1, &ps[0], Q);
    cr_assert(bn_fp12_is_one(&e1), "e(0, Q) != 1");
}

Test(bn254_ec, pairing_bilinear, .timeout = 120) { test_on_paths(check_bilinear, "bn254_ec/pairing_bilinear"); }
