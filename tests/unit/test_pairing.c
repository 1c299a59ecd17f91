/*
 * tests/unit/test_pairing.c — the optimal ate pairing of ec/pairing.c:
 * the known value of e(G1, G2) from @noble/curves, then properties on seeded
 * random scalars (non-degeneracy, order r, bilinearity, inverses, identities,
 * the n-pair Miller loop, pairing_product_is_one).
 * Points are built here from the Zcash-spec generator coordinates and
 * multiplied by a naive affine double-and-add (one inversion per step) that
 * shares no code with ec/.
 * Replay a failure with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
/* testutil.h's header comment nests a comment opener (its --filter example). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

/*
 * e(G1, G2), all 576 bytes in the fp12_to_bytes_be order (c0.c0.c0 first),
 * one 48-byte Fp coefficient per line. Produced by @noble/curves 1.9.1 (npm):
 *   import { bls12_381 } from '@noble/curves/bls12-381';
 *   const e = bls12_381.pairing(bls12_381.G1.ProjectivePoint.BASE,
 *                               bls12_381.G2.ProjectivePoint.BASE);
 *   console.log(Buffer.from(bls12_381.fields.Fp12.toBytes(e)).toString('hex'));
 */
static const char E_G1_G2_HEX[] =
    "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6"
    "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f"
    "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87"
    "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f"
    "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5"
    "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b6"
    "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d"
    "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a"
    "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba57"
    "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a2"
    "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef"
    "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631";

/* The generators of the Zcash BLS12-381 spec (as blst and @noble/curves). */
static const char G1_X[] = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G1_Y[] = "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
static const char G2_X0[] = "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
static const char G2_X1[] = "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
static const char G2_Y0[] = "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
static const char G2_Y1[] = "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";

static void hex_to_bytes(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static void fp_from_hex(fp_t *out, const char *hex)
{
    uint8_t b[FP_BYTES];
    hex_to_bytes(b, hex, FP_BYTES);
    cr_assert_eq(fp_from_bytes_be(out, b), GM_OK);
}

static void gen1(g1_affine_t *g)
{
    memset(g, 0, sizeof *g);
    fp_from_hex(&g->x, G1_X);
    fp_from_hex(&g->y, G1_Y);
}

static void gen2(g2_affine_t *g)
{
    memset(g, 0, sizeof *g);
    fp_from_hex(&g->x.c0, G2_X0);
    fp_from_hex(&g->x.c1, G2_X1);
    fp_from_hex(&g->y.c0, G2_Y0);
    fp_from_hex(&g->y.c1, G2_Y1);
}

/* ---- naive affine arithmetic (the reference; one inversion per step) ---- */

static void ref_g1_add(g1_affine_t *out, const g1_affine_t *a, const g1_affine_t *b)
{
    if (a->inf) { *out = *b; return; }
    if (b->inf) { *out = *a; return; }
    fp_t lam, t, x3, y3;
    if (fp_eq(&a->x, &b->x)) {
        if (!fp_eq(&a->y, &b->y) || fp_is_zero(&a->y)) {
            memset(out, 0, sizeof *out);
            out->inf = true;
            return;
        }
        fp_sqr(&lam, &a->x);            /* 3x^2 / 2y */
        fp_add(&t, &lam, &lam);
        fp_add(&lam, &lam, &t);
        fp_add(&t, &a->y, &a->y);
    } else {
        fp_sub(&lam, &b->y, &a->y);
        fp_sub(&t, &b->x, &a->x);
    }
    fp_inv(&t, &t);
    fp_mul(&lam, &lam, &t);
    fp_sqr(&x3, &lam);
    fp_sub(&x3, &x3, &a->x);
    fp_sub(&x3, &x3, &b->x);
    fp_sub(&t, &a->x, &x3);
    fp_mul(&y3, &lam, &t);
    fp_sub(&y3, &y3, &a->y);
    out->x = x3;
    out->y = y3;
    out->inf = false;
}

static void ref_g2_add(g2_affine_t *out, const g2_affine_t *a, const g2_affine_t *b)
{
    if (a->inf) { *out = *b; return; }
    if (b->inf) { *out = *a; return; }
    fp2_t lam, t, x3, y3;
    if (fp2_eq(&a->x, &b->x)) {
        if (!fp2_eq(&a->y, &b->y) || fp2_is_zero(&a->y)) {
            memset(out, 0, sizeof *out);
            out->inf = true;
            return;
        }
        fp2_sqr(&lam, &a->x);
        fp2_add(&t, &lam, &lam);
        fp2_add(&lam, &lam, &t);
        fp2_add(&t, &a->y, &a->y);
    } else {
        fp2_sub(&lam, &b->y, &a->y);
        fp2_sub(&t, &b->x, &a->x);
    }
    fp2_inv(&t, &t);
    fp2_mul(&lam, &lam, &t);
    fp2_sqr(&x3, &lam);
    fp2_sub(&x3, &x3, &a->x);
    fp2_sub(&x3, &x3, &b->x);
    fp2_sub(&t, &a->x, &x3);
    fp2_mul(&y3, &lam, &t);
    fp2_sub(&y3, &y3, &a->y);
    out->x = x3;
    out->y = y3;
    out->inf = false;
}

/* out = k p, k given as n little-endian limbs; double-and-add from the top. */
static void ref_g1_mul(g1_affine_t *out, const g1_affine_t *p, const uint64_t *k, size_t n)
{
    g1_affine_t acc = {.inf = true};
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            ref_g1_add(&acc, &acc, &acc);
            if ((k[i] >> b) & 1)
                ref_g1_add(&acc, &acc, p);
        }
    *out = acc;
}

static void ref_g2_mul(g2_affine_t *out, const g2_affine_t *p, const uint64_t *k, size_t n)
{
    g2_affine_t acc = {.inf = true};
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            ref_g2_add(&acc, &acc, &acc);
            if ((k[i] >> b) & 1)
                ref_g2_add(&acc, &acc, p);
        }
    *out = acc;
}

static void g1_negate(g1_affine_t *out, const g1_affine_t *p)
{
    *out = *p;
    fp_neg(&out->y, &p->y);
}

static void g2_negate(g2_affine_t *out, const g2_affine_t *p)
{
    *out = *p;
    fp2_neg(&out->y, &p->y);
}

/* A random scalar in [1, 2^bits) with bits <= 64. */
static uint64_t rand_scalar(test_rng_t *rng, unsigned bits)
{
    uint64_t k = test_rng_next(rng);
    if (bits < 64)
        k &= (1ULL << bits) - 1;
    return k ? k : 1;
}

static void setup(void)
{
    cr_assert_eq(ff_init(FF_PATH_AUTO), GM_OK);
}

TestSuite(pairing, .init = setup);

/* On both kernel paths (the ADX one when the CPU has it). */
Test(pairing, generators_known_answer)
{
    static const ff_path_t paths[] = {FF_PATH_PORTABLE, FF_PATH_ADX};
    uint8_t want[576];
    hex_to_bytes(want, E_G1_G2_HEX, sizeof want);

    for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        if (ff_init(paths[k]) != GM_OK)
            continue; /* no BMI2/ADX here */
        g1_affine_t g1;
        g2_affine_t g2;
        fp12_t e, f;
        uint8_t got[576];

        gen1(&g1);
        gen2(&g2);
        pairing(&e, &g1, &g2);
        fp12_to_bytes_be(got, &e);
        for (int i = 0; i < 12; i++)
            cr_assert(memcmp(got + i * FP_BYTES, want + i * FP_BYTES, FP_BYTES) == 0,
                      "e(G1, G2) Fp coefficient %d differs from @noble/curves (path %s)", i,
                      ff_path_name());

        /* final_exp(miller_loop) is pairing */
        pairing_miller_loop(&f, &g1, &g2);
        pairing_final_exp(&f, &f);
        cr_assert(fp12_eq(&f, &e));
    }
}

Test(pairing, non_degenerate_and_order_r)
{
    g1_affine_t g1;
    g2_affine_t g2;
    fp12_t e, t;

    gen1(&g1);
    gen2(&g2);
    pairing(&e, &g1, &g2);
    cr_assert(!fp12_is_one(&e), "e(G1, G2) != 1");
    fp12_pow(&t, &e, FR_MODULUS, FR_LIMBS);
    cr_assert(fp12_is_one(&t), "e(G1, G2)^r = 1");
    /* the value is in the cyclotomic subgroup: inverse = conjugate */
    fp12_inv(&t, &e);
    fp12_t c;
    fp12_conj(&c, &e);
    cr_assert(fp12_eq(&t, &c));
}

Test(pairing, bilinearity)
{
    test_rng_t rng;
    test_rng_init(&rng, "pairing/bilinearity");
    g1_affine_t g1, ap, abp;
    g2_affine_t g2, bq;
    fp12_t e, lhs, rhs;

    gen1(&g1);
    gen2(&g2);
    pairing(&e, &g1, &g2);
    for (int it = 0; it < 2; it++) {
        uint64_t a = rand_scalar(&rng, 64), b = rand_scalar(&rng, 64);
        unsigned __int128 ab = (unsigned __int128)a * b;
        uint64_t abl[2] = {(uint64_t)ab, (uint64_t)(ab >> 64)};

        ref_g1_mul(&ap, &g1, &a, 1);
        ref_g2_mul(&bq, &g2, &b, 1);
        ref_g1_mul(&abp, &g1, abl, 2);

        pairing(&lhs, &ap, &bq);
        fp12_pow(&rhs, &e, abl, 2);
        cr_assert(fp12_eq(&lhs, &rhs), "e(aP, bQ) = e(P, Q)^(ab), a = %llu, b = %llu",
                  (unsigned long long)a, (unsigned long long)b);
        pairing(&rhs, &abp, &g2);
        cr_assert(fp12_eq(&lhs, &rhs), "e(aP, bQ) = e(abP, Q), a = %llu, b = %llu",
                  (unsigned long long)a, (unsigned long long)b);
    }
}

Test(pairing, negation_gives_inverse)
{
    test_rng_t rng;
    test_rng_init(&rng, "pairing/negation_gives_inverse");
    g1_affine_t g1, p, np;
    g2_affine_t g2, q, nq;
    fp12_t e1, e2, t;

    gen1(&g1);
    gen2(&g2);
    uint64_t a = rand_scalar(&rng, 16), b = rand_scalar(&rng, 16);
    ref_g1_mul(&p, &g1, &a, 1);
    ref_g2_mul(&q, &g2, &b, 1);
    g1_negate(&np, &p);
    g2_negate(&nq, &q);

    pairing(&e1, &p, &q);
    pairing(&e2, &np, &q);
    fp12_mul(&t, &e1, &e2);
    cr_assert(fp12_is_one(&t), "e(P, Q) e(-P, Q) = 1");
    pairing(&e2, &p, &nq);
    fp12_mul(&t, &e1, &e2);
    cr_assert(fp12_is_one(&t), "e(P, Q) e(P, -Q) = 1");
    pairing(&e2, &np, &nq);
    cr_assert(fp12_eq(&e1, &e2), "e(-P, -Q) = e(P, Q)");
}

Test(pairing, identity_gives_one)
{
    g1_affine_t g1, o1 = {.inf = true};
    g2_affine_t g2, o2 = {.inf = true};
    fp12_t e;

    gen1(&g1);
    gen2(&g2);
    pairing(&e, &o1, &g2);
    cr_assert(fp12_is_one(&e), "e(O, Q) = 1");
    pairing(&e, &g1, &o2);
    cr_assert(fp12_is_one(&e), "e(P, O) = 1");
    pairing_miller_loop(&e, &o1, &o2);
    cr_assert(fp12_is_one(&e), "miller_loop(O, O) = 1");
    pairing_miller_loop_n(&e, &g1, &g2, 0);
    cr_assert(fp12_is_one(&e), "empty product = 1");
    cr_assert(pairing_product_is_one(&g1, &g2, 0));
    cr_assert(pairing_product_is_one(&o1, &g2, 1));
}

/* n pairs (more than one chunk of pairing.c, identities mixed in): the
 * n-pair Miller loop equals the product of single loops after final exp. */
Test(pairing, miller_loop_n_is_product)
{
    enum { NP = 11 };
    test_rng_t rng;
    test_rng_init(&rng, "pairing/miller_loop_n_is_product");
    g1_affine_t g1, p[NP];
    g2_affine_t g2, q[NP];
    fp12_t f, single, prod = FP12_ONE;

    gen1(&g1);
    gen2(&g2);
    /* few distinct points, cheap to make: multiples by small scalars */
    for (int i = 0; i < NP; i++) {
        uint64_t a = rand_scalar(&rng, 8), b = rand_scalar(&rng, 8);
        ref_g1_mul(&p[i], &g1, &a, 1);
        ref_g2_mul(&q[i], &g2, &b, 1);
    }
    p[3].inf = true;     /* identities in the middle and at the end */
    q[NP - 1].inf = true;
    memset(&p[3].x, 0, sizeof p[3].x);

    for (int i = 0; i < NP; i++) {
        pairing_miller_loop(&single, &p[i], &q[i]);
        fp12_mul(&prod, &prod, &single);
    }
    pairing_final_exp(&prod, &prod);
    pairing_miller_loop_n(&f, p, q, NP);
    pairing_final_exp(&f, &f);
    cr_assert(fp12_eq(&f, &prod), "miller_loop_n = product of miller_loop after final exp");

    /* two pairs, one chunk */
    pairing_miller_loop_n(&f, p, q, 2);
    pairing_final_exp(&f, &f);
    fp12_t e0, e1;
    pairing(&e0, &p[0], &q[0]);
    pairing(&e1, &p[1], &q[1]);
    fp12_mul(&e0, &e0, &e1);
    cr_assert(fp12_eq(&f, &e0));
}

Test(pairing, product_is_one)
{
    test_rng_t rng;
    test_rng_init(&rng, "pairing/product_is_one");
    g1_affine_t g1, p[3];
    g2_affine_t g2, q[3];

    gen1(&g1);
    gen2(&g2);
    uint64_t a = rand_scalar(&rng, 20), b = rand_scalar(&rng, 20);
    uint64_t ab = a * b, ab1 = ab + 1;
    /* e(aG1, bG2) e(-abG1, G2) = 1 */
    ref_g1_mul(&p[0], &g1, &a, 1);
    ref_g2_mul(&q[0], &g2, &b, 1);
    ref_g1_mul(&p[1], &g1, &ab, 1);
    g1_negate(&p[1], &p[1]);
    q[1] = g2;
    cr_assert(pairing_product_is_one(p, q, 2), "a = %llu, b = %llu", (unsigned long long)a,
              (unsigned long long)b);
    /* an identity pair changes nothing */
    p[2].inf = true;
    q[2] = g2;
    cr_assert(pairing_product_is_one(p, q, 3));
    /* e(aG1, bG2) e(-(ab+1)G1, G2) != 1 */
    ref_g1_mul(&p[1], &g1, &ab1, 1);
    g1_negate(&p[1], &p[1]);
    cr_assert(!pairing_product_is_one(p, q, 2));
    /* one non-trivial pair alone is not one */
    cr_assert(!pairing_product_is_one(&g1, &g2, 1));
}

/* With the group code of ec/g1.c and ec/g2.c: the public generators are the
 * spec's, and bilinearity holds for full-size random scalars in Fr. */
Test(pairing, bilinearity_fr_scalars)
{
    test_rng_t rng;
    test_rng_init(&rng, "pairing/bilinearity_fr_scalars");
    g1_affine_t g1, ap, abp;
    g2_affine_t g2, bq;
    g1_jac_t j1;
    g2_jac_t j2;
    fp12_t e, lhs, rhs;

    gen1(&g1);
    gen2(&g2);
    cr_assert(g1_affine_eq(&g1, &G1_GENERATOR), "G1_GENERATOR is the spec's");
    cr_assert(g2_affine_eq(&g2, &G2_GENERATOR), "G2_GENERATOR is the spec's");
    pairing(&e, &g1, &g2);

    uint8_t bytes[FR_BYTES];
    fr_t a, b, ab;
    for (int i = 0; i < FR_BYTES; i++)
        bytes[i] = (uint8_t)test_rng_next(&rng);
    fr_from_bytes_le_mod(&a, bytes);
    for (int i = 0; i < FR_BYTES; i++)
        bytes[i] = (uint8_t)test_rng_next(&rng);
    fr_from_bytes_le_mod(&b, bytes);
    fr_mul(&ab, &a, &b);

    g1_from_affine(&j1, &g1);
    g1_mul_fr(&j1, &j1, &a);
    g1_to_affine(&ap, &j1);
    g2_from_affine(&j2, &g2);
    g2_mul_fr(&j2, &j2, &b);
    g2_to_affine(&bq, &j2);
    g1_from_affine(&j1, &g1);
    g1_mul_fr(&j1, &j1, &ab);
    g1_to_affine(&abp, &j1);

    uint64_t abl[FR_LIMBS];
    fr_to_limbs(abl, &ab);
    pairing(&lhs, &ap, &bq);
    fp12_pow(&rhs, &e, abl, FR_LIMBS);
    cr_assert(fp12_eq(&lhs, &rhs), "e(aP, bQ) = e(P, Q)^(ab)");
    pairing(&rhs, &abp, &g2);
    cr_assert(fp12_eq(&lhs, &rhs), "e(aP, bQ) = e(abP, Q)");
}
