/*
 * cmd_selfcheck.c — `grothmpi selfcheck`: the arithmetic of BLS12-381 and
 * BN254 against known answers computed by an implementation we did not write
 * (@noble/curves, `node` scripts in tests/vectors/gen), on every field kernel path this CPU
 * runs. The full vector suite is in the unit tests; this is the quick check a
 * user runs on a new machine (and `make demo` runs first).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "ec/ec.h"
#include "ff/ff.h"

/* e(G1, G2): the 12 Fp coefficients big-endian, c0.c0.c0 first (ff.h order). */
static const char *const pairing_g1_g2 =
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
static const char *const g1_gen_hex =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char *const g2_gen_hex =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
/* 5 * G1, compressed. */
static const char *const g1_5_hex =
    "b0e7791fb972fe014159aa33a98622da3cdc98ff707965e536d8636b5fcc5ac7a91a8c46e59a00dca575af0f18fb13dc";

/* BN254 (@noble/curves 1.9.7, bn254): 5 * G1 and 5 * G2 in the Ethereum
 * precompile encoding, e(G1, G2) as bn_fp12_to_bytes_be writes it. */
static const char *const bn_g1_5_hex =
    "17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa9"
    "01e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c";
static const char *const bn_g2_5_hex =
    "0a09ccf561b55fd99d1c1208dee1162457b57ac5af3759d50671e510e428b2a1"
    "2e539c423b302d13f4e5773c603948eaf5db5df8ae8a9a9113708390a06410d8"
    "19b763513924a736e4eebd0d78c91c1bc1d657fee4214057d21414011cfcc763"
    "2f8d9f9ab83727c77a2fec063cb7b6e5eb23044ccf535ad49d46d394fb6f6bf6";
static const char *const bn_pairing_g1_g2 =
    "262b253feda94cfe0da01bde280a3ed6f87e5feb898578b55e1f63739d870e95"
    "02e02d2cc795a2000a1b1f823879abbd397c4dea0918ed66b49d34b48efb8a4a"
    "13a9f2d6e29b128da5b1ad44b31977935fd2957387ecb1fc4e135402fdbd1de0"
    "040ba9fa500f1a5c4b31984a74e68659c4b420bd699ce630b130b08a6ea1162b"
    "0afc2f3fd870678fbe359d7f9873f052478f590b211ce30bf5e3eeaef89eafdb"
    "1c54a530398c9064bdc662d929e645cadda9a712cc5a8243f9cddbd2d98dd1f0"
    "095c0fbf5d5a1ac023794a0d856f92591ba990ecfd4b7aef5c0d58c5dc2429fe"
    "14d3d6ca72d8a950a31dc10f7b4053c9e9ad9ebb590cb4a60f8215d4b99f2b4a"
    "1dc0e7bbc3d70e6689dc206b4b91c85759dc1a23043c585fdfaf545838ca7429"
    "0b53320e5a6488cb98a855ffc837d2a75ab90d61ac16cc1b7ab2cd3ed5e22b97"
    "13a8afd3085dae4c6c91476ef36cd1d318ce07bac42a9c0f9bd7fddaf5ebd723"
    "00f97b5221474526b601f3730a3afa965ceee1b343940c383e5314859e762c97";

static int check(const char *what, bool ok, int *failed)
{
    printf("  %-48s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok)
        (*failed)++;
    return ok;
}

static int run_checks(void)
{
    int failed = 0;
    uint8_t buf[576];
    char hex[2 * 576 + 1];

    g1_to_bytes_compressed(buf, &G1_GENERATOR);
    gm_hex_encode(hex, buf, 48);
    check("G1 generator encoding", strcmp(hex, g1_gen_hex) == 0, &failed);
    g2_to_bytes_compressed(buf, &G2_GENERATOR);
    gm_hex_encode(hex, buf, 96);
    check("G2 generator encoding", strcmp(hex, g2_gen_hex) == 0, &failed);

    g1_jac_t g, p;
    g1_affine_t a;
    g1_from_affine(&g, &G1_GENERATOR);
    uint64_t five[4] = {5, 0, 0, 0};
    g1_mul(&p, &g, five);
    g1_to_affine(&a, &p);
    g1_to_bytes_compressed(buf, &a);
    gm_hex_encode(hex, buf, 48);
    check("5 * G1", strcmp(hex, g1_5_hex) == 0, &failed);

    g1_mul(&p, &g, FR_MODULUS);
    check("r * G1 = identity", g1_jac_is_inf(&p), &failed);
    g2_jac_t h, q;
    g2_from_affine(&h, &G2_GENERATOR);
    g2_mul(&q, &h, FR_MODULUS);
    check("r * G2 = identity", g2_jac_is_inf(&q), &failed);

    fp12_t e;
    pairing(&e, &G1_GENERATOR, &G2_GENERATOR);
    fp12_to_bytes_be(buf, &e);
    gm_hex_encode(hex, buf, 576);
    check("e(G1, G2)", strcmp(hex, pairing_g1_g2) == 0, &failed);

    /* e(5 G1, G2) * e(-G1, 5 G2) = 1 */
    g1_affine_t p5, pn;
    g2_affine_t q5;
    g2_jac_t t;
    g1_mul(&p, &g, five);
    g1_to_affine(&p5, &p);
    g1_affine_neg(&pn, &G1_GENERATOR);
    g2_mul(&t, &h, five);
    g2_to_affine(&q5, &t);
    g1_affine_t ps[2] = {p5, pn};
    g2_affine_t qs[2] = {G2_GENERATOR, q5};
    check("e(5 G1, G2) * e(-G1, 5 G2) = 1", pairing_product_is_one(ps, qs, 2), &failed);
    return failed;
}

/* The same checks on BN254. */
static int run_checks_bn254(void)
{
    int failed = 0;
    uint8_t buf[BN254_FP12_BYTES];
    char hex[2 * BN254_FP12_BYTES + 1];
    uint64_t five[4] = {5, 0, 0, 0};

    bn_g1_jac_t g, p;
    bn_g1_affine_t p5, pn;
    bn_g1_from_affine(&g, &BN254_G1_GENERATOR);
    bn_g1_mul(&p, &g, five);
    bn_g1_to_affine(&p5, &p);
    bn_g1_to_bytes_eth(buf, &p5);
    gm_hex_encode(hex, buf, BN254_G1_BYTES);
    check("BN254: 5 * G1", strcmp(hex, bn_g1_5_hex) == 0, &failed);
    bn_g1_mul(&p, &g, BN254_FR_MODULUS);
    check("BN254: r * G1 = identity", bn_g1_jac_is_inf(&p), &failed);

    bn_g2_jac_t h, q;
    bn_g2_affine_t q5;
    bn_g2_from_affine(&h, &BN254_G2_GENERATOR);
    bn_g2_mul(&q, &h, five);
    bn_g2_to_affine(&q5, &q);
    bn_g2_to_bytes_eth(buf, &q5);
    gm_hex_encode(hex, buf, BN254_G2_BYTES);
    check("BN254: 5 * G2", strcmp(hex, bn_g2_5_hex) == 0, &failed);
    check("BN254: G2 generator in G2 (r * G2 = identity)", bn_g2_affine_in_subgroup(&BN254_G2_GENERATOR),
          &failed);

    bn_fp12_t e;
    bn_pairing(&e, &BN254_G1_GENERATOR, &BN254_G2_GENERATOR);
    bn_fp12_to_bytes_be(buf, &e);
    gm_hex_encode(hex, buf, BN254_FP12_BYTES);
    check("BN254: e(G1, G2)", strcmp(hex, bn_pairing_g1_g2) == 0, &failed);

    bn_g1_affine_neg(&pn, &BN254_G1_GENERATOR);
    bn_g1_affine_t ps[2] = {p5, pn};
    bn_g2_affine_t qs[2] = {BN254_G2_GENERATOR, q5};
    check("BN254: e(5 G1, G2) * e(-G1, 5 G2) = 1", bn_pairing_product_is_one(ps, qs, 2), &failed);
    return failed;
}

int cmd_selfcheck(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: grothmpi selfcheck\n\n"
               "Checks field, curve and pairing arithmetic (BLS12-381 and BN254) against known\n"
               "answers from @noble/curves on every field kernel path this CPU supports.\n"
               "Exit 0 when all pass.\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "grothmpi: selfcheck: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    ff_path_t chosen = ff_path();
    int failed = 0;
    const ff_path_t paths[2] = {FF_PATH_PORTABLE, FF_PATH_ADX};
    for (int i = 0; i < 2; i++) {
        if (ff_init(paths[i]) != 0)
            continue;
        printf("selfcheck, field kernels: %s\n", ff_path_name());
        failed += run_checks();
        failed += run_checks_bn254();
    }
    if (ff_init(chosen) != 0) {
        fprintf(stderr, "grothmpi: selfcheck: cannot return to the %s field kernels\n",
                chosen == FF_PATH_ADX ? "adx" : "portable");
        return 1;
    }
    if (failed) {
        fprintf(stderr, "grothmpi: selfcheck: %d check(s) FAILED: this build computes wrong results\n", failed);
        return 1;
    }
    printf("selfcheck: all checks passed\n");
    return 0;
}
