/*
 * tests/unit/test_gpu_bn.c — gpu/ on BN254 without a GPU: the device
 * algorithms' tests of tests/unit/gpu_curve_tests.h (suite gpu_bn: the
 * emulated MSM and NTT against ec/'s bn_msm_g1 and ntt/'s bn_ntt_*, an
 * emulated context with resident and streamed bases), and the curve checks
 * of the calls that take bases (a set of one curve refused by the other's
 * MSM, and by a context planned for the other), and the plan's sizes of
 * BN254's sets and workspace. The field's carry chains are test_gpu.c's (gpu/emu_bn_carry_chains).
 * Replay a failure with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "gpu/gpu.h"
/* testutil.h's header comment nests a comment opener (its --filter example). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

#define GT_SUITE gpu_bn
#define GT_FR(x) bn_fr_##x
#define GT_FP(x) bn_fp_##x
#define GT_G1(x) bn_g1_##x
#define GT_MSM(x) bn_msm_##x
#define GT_NTT(x) bn_ntt_##x
#define GT_EMU(x) gpu_emu_bn_##x
#define GT_GPU(x) gpu_bn_##x
#define GT_CURVE GPU_CURVE_BN254
#define GT_FR_ONE BN254_FR_ONE
#define GT_FR_ZERO BN254_FR_ZERO
#define GT_G1_GEN BN254_G1_GENERATOR
#include "tests/unit/gpu_curve_tests.h"

Test(gpu_bn, bad_arguments)
{
    err_t err;
    bn_g1_jac_t out;
    bn_fr_t a[2] = {BN254_FR_ONE, BN254_FR_ONE};
    cr_assert_eq(gpu_emu_bn_msm_g1(&out, &BN254_G1_GENERATOR, a, NULL, 1, MSM_WINDOW_MAX + 1, &err), GM_EINVAL);
    cr_assert_eq(gpu_emu_bn_ntt(a, 0, GPU_NTT_FORWARD, &err), GM_EINVAL);
    cr_assert_eq(gpu_emu_bn_ntt(a, 29, GPU_NTT_FORWARD, &err), GM_EINVAL);
    cr_assert_eq(gpu_emu_bn_msm_g1(&out, NULL, a, NULL, 0, 0, &err), 0);
    cr_assert(bn_g1_jac_is_inf(&out));
    const bn_fr_t *sc[1] = {a};
    cr_assert_eq(gpu_bn_msm_g1(NULL, &out, NULL, sc, NULL, 2, 1, 0, &err), GM_ENOTSUP);
    cr_assert_eq(gpu_bn_ntt(NULL, a, 1, GPU_NTT_FORWARD, &err), GM_ENOTSUP);
    gpu_g1_bases_t *b = (gpu_g1_bases_t *)1;
    cr_assert_eq(gpu_bn_g1_bases_upload(&b, NULL, &BN254_G1_GENERATOR, 1, &err), GM_ENOTSUP);
    cr_assert_null(b);
}

/* One context, both curves: each MSM refuses the other curve's bases, and
 * the NTT tables of one size are rebuilt when the curve changes. */
Test(gpu_bn, curves_share_a_context)
{
    gpu_ctx_t *ctx;
    err_t err;
    cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
    gpu_g1_bases_t *bls, *bn;
    cr_assert_eq(gpu_g1_bases_upload(&bls, ctx, &G1_GENERATOR, 1, &err), 0, "%s", err.msg);
    cr_assert_eq(gpu_bn_g1_bases_upload(&bn, ctx, &BN254_G1_GENERATOR, 1, &err), 0, "%s", err.msg);
    cr_assert_eq(gpu_g1_bases_curve(bls), GPU_CURVE_BLS12_381);
    cr_assert_eq(gpu_g1_bases_curve(bn), GPU_CURVE_BN254);
    fr_t one = FR_ONE;
    bn_fr_t bone = BN254_FR_ONE;
    const fr_t *s[1] = {&one};
    const bn_fr_t *bs[1] = {&bone};
    g1_jac_t o;
    bn_g1_jac_t bo;
    cr_assert_eq(gpu_msm_g1(ctx, &o, bn, s, NULL, 1, 1, 0, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "other curve"), "%s", err.msg);
    cr_assert_eq(gpu_bn_msm_g1(ctx, &bo, bls, bs, NULL, 1, 1, 0, &err), GM_EINVAL);
    cr_assert_eq(gpu_bn_msm_g1(ctx, &bo, bn, bs, NULL, 1, 1, 0, &err), 0, "%s", err.msg);
    bn_g1_jac_t g;
    bn_g1_from_affine(&g, &BN254_G1_GENERATOR);
    cr_assert(bn_g1_jac_eq(&bo, &g));
    gpu_g1_bases_free(bls);
    gpu_g1_bases_free(bn);
    /* 2^3 on BLS12-381, then on BN254: the second must not reuse the
     * first's tables. */
    fr_t a[8];
    bn_fr_t b[8], want[8];
    for (int i = 0; i < 8; i++) {
        fr_set_u64(&a[i], (uint64_t)i + 1);
        bn_fr_set_u64(&b[i], (uint64_t)i + 1);
    }
    memcpy(want, b, sizeof b);
    cr_assert_eq(gpu_ntt(ctx, a, 3, GPU_NTT_FORWARD, &err), 0, "%s", err.msg);
    cr_assert_eq(gpu_bn_ntt(ctx, b, 3, GPU_NTT_FORWARD, &err), 0, "%s", err.msg);
    cr_assert_eq(gpu_emu_bn_ntt(want, 3, GPU_NTT_FORWARD, &err), 0, "%s", err.msg);
    cr_assert(memcmp(b, want, sizeof b) == 0, "BN254's transform after BLS12-381's of the same size differs");
    gpu_destroy(ctx);
}

/* The plan sizes BN254's sets by its 64-byte points and its workspace by
 * its 128-byte XYZZ sums; scalars and NTT vectors are 32 bytes a value on
 * both curves. A context planned for one curve refuses the other's sets. */
Test(gpu_bn, plan_sizes_by_curve)
{
    static const char *const names[2] = {"A", "H"};
    const uint64_t counts[2] = {100000, 1 << 18};
    gpu_plan_t bls, bn;
    err_t err;
    cr_assert_eq(gpu_plan(&bls, GPU_CURVE_BLS12_381, names, counts, 2, 18, (size_t)1 << 40, 0, 64, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(gpu_plan(&bn, GPU_CURVE_BN254, names, counts, 2, 18, (size_t)1 << 40, 0, 64, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(bn.curve, GPU_CURVE_BN254);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(bls.set[i].bytes, counts[i] * 96);
        cr_assert_eq(bn.set[i].bytes, counts[i] * 64);
    }
    cr_assert_eq(bn.bases_bytes, (counts[0] + counts[1]) * 64);
    cr_assert_eq(bn.scalar_bytes, bls.scalar_bytes);
    cr_assert_eq(bn.ntt_bytes, bls.ntt_bytes);
    cr_assert(bn.ws_bytes < bls.ws_bytes, "BN254's workspace %zu, BLS12-381's %zu", bn.ws_bytes, bls.ws_bytes);
    gpu_ctx_t *ctx;
    cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
    const uint64_t one[1] = {1};
    cr_assert_eq(gpu_plan_apply(ctx, NULL, GPU_CURVE_BN254, names, one, 1, 0, &err), 0, "%s", err.msg);
    gpu_g1_bases_t *b;
    cr_assert_eq(gpu_g1_bases_upload(&b, ctx, &G1_GENERATOR, 1, &err), GM_EINVAL);
    cr_assert_eq(gpu_bn_g1_bases_upload(&b, ctx, &BN254_G1_GENERATOR, 1, &err), 0, "%s", err.msg);
    gpu_g1_bases_free(b);
    gpu_destroy(ctx);
}
