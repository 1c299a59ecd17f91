/*
 * tests/unit/gpu_curve_tests.h — the device algorithms' tests written once
 * for both curves (a template: tests/unit/test_gpu.c (BLS12-381, suite gpu)
 * and tests/unit/test_gpu_bn.c (BN254, suite gpu_bn) define the parameters
 * and include it once): the MSM (gpu_emu_msm_g1 / gpu_emu_bn_msm_g1: the
 * kernel bodies, digits, sort and segmented reductions run on the host)
 * against ec/'s msm_g1 / bn_msm_g1 on random and adversarial inputs (every
 * n <= 40 and several windows, equal and opposite points, infinity,
 * r - 1, all-zero and 0/1 scalars, buckets far larger than a reduction
 * chunk, density bitmaps), and the NTT (gpu_emu_ntt / gpu_emu_bn_ntt)
 * against ntt/'s in every direction, every size up to 2^11 and sizes of
 * two and three passes; and an emulated context (gpu_init_emulated) with
 * its bases resident and streamed.
 *
 * Parameters:
 *   GT_SUITE              gpu | gpu_bn
 *   GT_FR(x), GT_FP(x)    fr_x | bn_fr_x, fp_x | bn_fp_x (ff/ff.h)
 *   GT_G1(x)              g1_x | bn_g1_x (ec/ec.h)
 *   GT_MSM(x), GT_NTT(x)  msm_x | bn_msm_x (ec/), ntt_x | bn_ntt_x (ntt/)
 *   GT_EMU(x), GT_GPU(x)  gpu_emu_x | gpu_emu_bn_x, gpu_x | gpu_bn_x (gpu/gpu.h)
 *   GT_FR_ONE, GT_FR_ZERO, GT_G1_GEN   the curve's constants
 *   GT_CURVE              GPU_CURVE_BLS12_381 | GPU_CURVE_BN254
 * The including file includes tests/unit/testutil.h first; the helpers
 * defined here (rand_fr, rand_points, cpu_msm, cpu_ntt) are its too.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "gpu/gpu.h"
#include "ntt/ntt.h"

static void rand_fr(GT_FR(t) *out, test_rng_t *rng)
{
    uint8_t b[32];
    for (int i = 0; i < 4; i++) {
        uint64_t x = test_rng_next(rng);
        memcpy(b + 8 * i, &x, 8);
    }
    GT_FR(from_bytes_le_mod)(out, b);
}

/* n points: a random multiple of G, then steps by another one (cheap, and
 * distinct in practice). */
static GT_G1(affine_t) *rand_points(size_t n, test_rng_t *rng)
{
    GT_G1(affine_t) *pts = gm_alloc((n ? n : 1) * sizeof *pts);
    GT_G1(jac_t) *jac = gm_alloc((n ? n : 1) * sizeof *jac);
    GT_FP(t) *scr = gm_alloc((n ? n : 1) * sizeof *scr);
    cr_assert(pts && jac && scr);
    GT_G1(jac_t) g, step, p;
    GT_FR(t) k;
    GT_G1(from_affine)(&g, &GT_G1_GEN);
    rand_fr(&k, rng);
    GT_G1(mul_fr)(&p, &g, &k);
    rand_fr(&k, rng);
    GT_G1(mul_fr)(&step, &g, &k);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        GT_G1(add)(&p, &p, &step);
    }
    GT_G1(batch_to_affine)(pts, jac, n, scr);
    gm_free(jac);
    gm_free(scr);
    return pts;
}

static void cpu_msm(GT_G1(jac_t) *out, const GT_G1(affine_t) *b, const GT_FR(t) *s, const uint64_t *d, size_t n)
{
    void *scr = gm_alloc(GT_MSM(g1_scratch_size)(n, 1, 0) + 64);
    cr_assert_not_null(scr);
    GT_MSM(g1)(out, b, s, d, n, 0, scr, NULL);
    gm_free(scr);
}

static void check_emu(const GT_G1(affine_t) *b, const GT_FR(t) *s, const uint64_t *d, size_t n, unsigned window,
                      const char *what)
{
    GT_G1(jac_t) want, got;
    err_t err;
    cpu_msm(&want, b, s, d, n);
    int rc = GT_EMU(msm_g1)(&got, b, s, d, n, window, &err);
    cr_assert_eq(rc, 0, "%s: n %zu window %u: %s", what, n, window, err.msg);
    cr_assert(GT_G1(jac_eq)(&want, &got), "%s: n %zu window %u: the emulated device MSM differs from msm_g1", what, n,
              window);
}

/* ---- the device MSM algorithm on the host ---------------------------------------------------- */

Test(GT_SUITE, emu_msm_every_small_n)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_every_small_n");
    GT_G1(affine_t) *b = rand_points(40, &rng);
    GT_FR(t) s[40];
    for (size_t n = 1; n <= 40; n++) {
        for (size_t i = 0; i < n; i++)
            rand_fr(&s[i], &rng);
        static const unsigned windows[] = {0, 1, 2, 3, 5, 8};
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++)
            if (n <= 8 || windows[w] != 1) /* 256 windows: keep the test quick */
                check_emu(b, s, NULL, n, windows[w], "random");
    }
    gm_free(b);
}

Test(GT_SUITE, emu_msm_adversarial)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_adversarial");
    const size_t n = 300;
    GT_G1(affine_t) *b = rand_points(n, &rng);
    GT_FR(t) *s = gm_alloc(n * sizeof *s);
    cr_assert_not_null(s);
    GT_FR(t) rm1;
    GT_FR(neg)(&rm1, &GT_FR_ONE); /* r - 1 */
    for (size_t i = 0; i < n; i++) {
        switch (i % 7) {
        case 0: s[i] = GT_FR_ZERO; break;
        case 1: s[i] = GT_FR_ONE; break;
        case 2: s[i] = rm1; break;
        case 3: b[i] = b[i - 1]; rand_fr(&s[i], &rng); break;           /* equal points */
        case 4: GT_G1(affine_neg)(&b[i], &b[i - 1]); s[i] = s[i - 1]; break; /* P and -P, same scalar */
        case 5: GT_G1(affine_set_inf)(&b[i]); rand_fr(&s[i], &rng); break;   /* infinity */
        default: rand_fr(&s[i], &rng); break;
        }
    }
    check_emu(b, s, NULL, n, 0, "adversarial");
    check_emu(b, s, NULL, n, 6, "adversarial");
    check_emu(b, s, NULL, n, 16, "adversarial");
    gm_free(b);
    gm_free(s);
}

/* Zero digits never reach the sort: all-zero scalars (every window empty,
 * the sum the identity), Groth16-like 0/1 scalars (only window 0 has items)
 * and small values (the high windows empty), over windows 1 to 16. */
Test(GT_SUITE, emu_msm_zero_digits)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_zero_digits");
    const size_t n = 200;
    GT_G1(affine_t) *b = rand_points(n, &rng);
    GT_FR(t) *s = gm_alloc(n * sizeof *s);
    cr_assert_not_null(s);
    const unsigned windows[] = {1, 4, 6, 16};
    for (int kind = 0; kind < 3; kind++) {
        for (size_t i = 0; i < n; i++) {
            uint64_t r = test_rng_next(&rng);
            if (kind == 0)
                s[i] = GT_FR_ZERO;
            else if (kind == 1)
                s[i] = r % 16 == 0 ? GT_FR_ONE : GT_FR_ZERO;
            else
                GT_FR(set_u64)(&s[i], r % 8 == 0 ? (r >> 8) & 0xff : 0);
        }
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++)
            check_emu(b, s, NULL, n, windows[w], kind == 0 ? "zero scalars" : kind == 1 ? "0/1 scalars" : "small");
    }
    gm_free(b);
    gm_free(s);
}

/* Most scalars equal (Groth16 witnesses are full of 0 and 1): one bucket
 * holds far more than a reduction chunk, so the segmented reduction needs
 * several levels. */
Test(GT_SUITE, emu_msm_heavy_buckets)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_heavy_buckets");
    const size_t n = 3000;
    GT_G1(affine_t) *b = rand_points(n, &rng);
    GT_FR(t) *s = gm_alloc(n * sizeof *s);
    cr_assert_not_null(s);
    GT_FR(t) same;
    rand_fr(&same, &rng);
    for (size_t i = 0; i < n; i++) {
        if (i % 50 == 0)
            rand_fr(&s[i], &rng);
        else
            s[i] = (i % 3) ? GT_FR_ONE : same;
    }
    check_emu(b, s, NULL, n, 0, "heavy");
    check_emu(b, s, NULL, n, 10, "heavy");
    for (size_t i = 0; i < n; i++)
        s[i] = GT_FR_ONE;
    check_emu(b, s, NULL, n, 0, "all ones");
    gm_free(b);
    gm_free(s);
}

Test(GT_SUITE, emu_msm_density)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_density");
    const size_t n = 200;
    uint64_t d[4];
    for (int i = 0; i < 4; i++)
        d[i] = test_rng_next(&rng);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += (d[i >> 6] >> (i & 63)) & 1;
    GT_G1(affine_t) *b = rand_points(m, &rng);
    GT_FR(t) *s = gm_alloc(n * sizeof *s);
    cr_assert_not_null(s);
    for (size_t i = 0; i < n; i++)
        rand_fr(&s[i], &rng);
    check_emu(b, s, d, n, 0, "density");
    check_emu(b, s, d, n, 7, "density");
    memset(d, 0, sizeof d);
    check_emu(b, s, d, n, 0, "empty density");
    gm_free(b);
    gm_free(s);
}

/* ---- the device NTT algorithm on the host ---------------------------------------------------- */

static void cpu_ntt(GT_FR(t) *a, unsigned log_n, gpu_ntt_dir_t dir)
{
    GT_NTT(domain_t) *d;
    err_t err;
    cr_assert_eq(GT_NTT(domain_create)(&d, log_n, &err), 0, "%s", err.msg);
    void *scr = gm_alloc(GT_NTT(scratch_size)(d, 1) + 64);
    cr_assert_not_null(scr);
    switch (dir) {
    case GPU_NTT_FORWARD: GT_NTT(forward)(d, a, scr, NULL); break;
    case GPU_NTT_INVERSE: GT_NTT(inverse)(d, a, scr, NULL); break;
    case GPU_NTT_COSET_FORWARD: GT_NTT(coset_forward)(d, a, scr, NULL); break;
    case GPU_NTT_COSET_INVERSE: GT_NTT(coset_inverse)(d, a, scr, NULL); break;
    }
    gm_free(scr);
    GT_NTT(domain_destroy)(d);
}

/* Random vectors of 2^log_n values through directions 0 .. ndir - 1: the
 * emulated device equals ntt/. */
static void check_ntt_size(unsigned log_n, int ndir, test_rng_t *rng)
{
    size_t n = (size_t)1 << log_n;
    GT_FR(t) *a = gm_alloc(n * sizeof *a), *b = gm_alloc(n * sizeof *b);
    cr_assert(a && b);
    for (int dir = 0; dir < ndir; dir++) {
        for (size_t i = 0; i < n; i++)
            rand_fr(&a[i], rng);
        memcpy(b, a, n * sizeof *a);
        cpu_ntt(a, log_n, (gpu_ntt_dir_t)dir);
        err_t err;
        cr_assert_eq(GT_EMU(ntt)(b, log_n, (gpu_ntt_dir_t)dir, &err), 0, "%s", err.msg);
        for (size_t i = 0; i < n; i++)
            cr_assert(GT_FR(eq)(&a[i], &b[i]), "2^%u direction %d: value %zu differs", log_n, dir, i);
    }
    gm_free(a);
    gm_free(b);
}

Test(GT_SUITE, emu_ntt_every_size)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_ntt_every_size");
    for (unsigned log_n = 1; log_n <= 11; log_n++)
        check_ntt_size(log_n, 4, &rng);
}

/* Sizes past one shared-memory tile (2^10), so the transform takes two or
 * three passes, with stage counts that are not multiples of the tile's:
 * 2^13 (10 + 3 stages), 2^17 (10 + 7), 2^20 (10 + 5 + 5); forward and
 * inverse. */
Test(GT_SUITE, emu_ntt_passes)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_ntt_passes");
    const unsigned sizes[] = {13, 17, 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        check_ntt_size(sizes[k], 2, &rng);
}

/* The larger sizes above 2^12 cross the hi/lo split of the scale tables. */
Test(GT_SUITE, emu_ntt_scale_tables_split)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_ntt_scale_tables_split");
    const unsigned log_n = 13;
    size_t n = (size_t)1 << log_n;
    GT_FR(t) *a = gm_alloc(n * sizeof *a), *b = gm_alloc(n * sizeof *b);
    cr_assert(a && b);
    for (int dir = 2; dir < 4; dir++) {
        for (size_t i = 0; i < n; i++)
            rand_fr(&a[i], &rng);
        memcpy(b, a, n * sizeof *a);
        cpu_ntt(a, log_n, (gpu_ntt_dir_t)dir);
        err_t err;
        cr_assert_eq(GT_EMU(ntt)(b, log_n, (gpu_ntt_dir_t)dir, &err), 0, "%s", err.msg);
        cr_assert(memcmp(a, b, n * sizeof *a) == 0, "2^%u direction %d differs", log_n, dir);
    }
    gm_free(a);
    gm_free(b);
}

/* ---- an emulated context -------------------------------------------------------------------- */

/* The emulated device end to end: the bases resident (no memory limit),
 * then streamed in chunks (GROTHMPI_EMU_MEM a byte short of what the
 * smaller set, resident, and its MSM's buffers need at the least), two
 * MSMs a call with and without a density bitmap, equal to ec/'s; and the
 * transforms through the context, equal to ntt/'s. */
Test(GT_SUITE, emulated_context_resident_and_streamed)
{
    enum { N = 2000, LOG = 10 };
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emulated_context_resident_and_streamed");
    GT_G1(affine_t) *pts = rand_points(N, &rng);
    GT_FR(t) *s0 = gm_alloc(N * sizeof *s0), *s1 = gm_alloc(N * sizeof *s1);
    cr_assert(s0 && s1);
    uint64_t dens[(N + 63) / 64];
    for (size_t i = 0; i < N; i++) {
        rand_fr(&s0[i], &rng);
        s1[i] = i % 3 ? GT_FR_ZERO : s0[i];
    }
    for (size_t w = 0; w < (N + 63) / 64; w++)
        dens[w] = test_rng_next(&rng);
    dens[N / 64] &= ((uint64_t)1 << (N % 64)) - 1;
    size_t m = 0;
    for (size_t i = 0; i < N; i++)
        m += (dens[i >> 6] >> (i & 63)) & 1;
    const GT_FR(t) *sc[2] = {s0, s1};
    err_t err;
    gpu_plan_t all;
    static const char *const names[1] = {"P"};
    const uint64_t counts[1] = {m};
    cr_assert_eq(gpu_plan(&all, GT_CURVE, names, counts, 1, 0, (size_t)1 << 40, 0, 64, &err), 0, "%s", err.msg);
    char mem[32];
    /* All resident with two scalar buffers; with one, a byte short. */
    snprintf(mem, sizeof mem, "%zu", all.total - all.scalar_bytes / 2 - 1);
    /* A fresh device for each set: an unplanned context keeps its arena. */
    for (int streamed = 0; streamed < 2; streamed++) {
        for (int d = 0; d < 2; d++) {
            gpu_ctx_t *ctx;
            if (streamed)
                setenv("GROTHMPI_EMU_MEM", mem, 1);
            cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
            unsetenv("GROTHMPI_EMU_MEM");
            gpu_g1_bases_t *b;
            cr_assert_eq(GT_GPU(g1_bases_upload)(&b, ctx, pts, d ? m : N, &err), 0, "%s", err.msg);
            cr_assert_eq(gpu_g1_bases_streamed(b), streamed, "streamed %d, density %d", streamed, d);
            GT_G1(jac_t) got[2], want;
            cr_assert_eq(GT_GPU(msm_g1)(ctx, got, b, sc, d ? dens : NULL, N, 2, 0, &err), 0, "%s", err.msg);
            for (int j = 0; j < 2; j++) {
                cpu_msm(&want, pts, sc[j], d ? dens : NULL, N);
                cr_assert(GT_G1(jac_eq)(&got[j], &want), "streamed %d density %d msm %d differs from ec/'s", streamed,
                          d, j);
            }
            gpu_g1_bases_free(b);
            gpu_destroy(ctx);
        }
    }
    gpu_ctx_t *ctx;
    cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
    size_t n = (size_t)1 << LOG;
    GT_FR(t) *a = gm_alloc(n * sizeof *a), *c = gm_alloc(n * sizeof *c);
    cr_assert(a && c);
    for (int dir = 0; dir < 4; dir++) {
        for (size_t i = 0; i < n; i++)
            rand_fr(&a[i], &rng);
        memcpy(c, a, n * sizeof *a);
        cr_assert_eq(GT_GPU(ntt)(ctx, a, LOG, (gpu_ntt_dir_t)dir, &err), 0, "%s", err.msg);
        cpu_ntt(c, LOG, (gpu_ntt_dir_t)dir);
        cr_assert(memcmp(a, c, n * sizeof *a) == 0, "direction %d: the context's transform differs", dir);
    }
    gm_free(a);
    gm_free(c);
    gpu_destroy(ctx);
    gm_free(pts);
    gm_free(s0);
    gm_free(s1);
}
