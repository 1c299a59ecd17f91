/*
 * tests/unit/test_gpu.c — gpu/ without a GPU:
 *  - detection: gpu_init on a machine without a driver or device returns
 *    GM_ENOTSUP and a NULL context, with a message naming the CUDA call and
 *    error (cudaErrorInsufficientDriver (35) on the CI VM) or, in a build
 *    without nvcc, "built without CUDA"; on a machine with a GPU these cases
 *    skip;
 *  - the contract with no device: every gpu_* call taking a NULL context
 *    returns GM_ENOTSUP with a message, so callers fall back consistently;
 *  - the device algorithms (gpu_emu_*: the kernel bodies, digits, sort and
 *    segmented reductions, NTT stages, run on the host) against ec/'s
 *    msm_g1 and ntt_* on random and adversarial inputs: every n <= 40 and
 *    several windows, density bitmaps, buckets far larger than a reduction
 *    chunk, every NTT size up to 2^11 in all four directions, Groth16's h.
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
#include "ntt/ntt.h"
#pragma GCC diagnostic pop

static void rand_fr(fr_t *out, test_rng_t *rng)
{
    uint8_t b[32];
    for (int i = 0; i < 4; i++) {
        uint64_t x = test_rng_next(rng);
        memcpy(b + 8 * i, &x, 8);
    }
    fr_from_bytes_le_mod(out, b);
}

/* n points: a random multiple of G, then steps by another one (cheap, and
 * distinct in practice). */
static g1_affine_t *rand_points(size_t n, test_rng_t *rng)
{
    g1_affine_t *pts = gm_alloc((n ? n : 1) * sizeof *pts);
    g1_jac_t *jac = gm_alloc((n ? n : 1) * sizeof *jac);
    fp_t *scr = gm_alloc((n ? n : 1) * sizeof *scr);
    cr_assert(pts && jac && scr);
    g1_jac_t g, step, p;
    fr_t k;
    g1_from_affine(&g, &G1_GENERATOR);
    rand_fr(&k, rng);
    g1_mul_fr(&p, &g, &k);
    rand_fr(&k, rng);
    g1_mul_fr(&step, &g, &k);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        g1_add(&p, &p, &step);
    }
    g1_batch_to_affine(pts, jac, n, scr);
    gm_free(jac);
    gm_free(scr);
    return pts;
}

static void cpu_msm(g1_jac_t *out, const g1_affine_t *b, const fr_t *s, const uint64_t *d, size_t n)
{
    void *scr = gm_alloc(msm_g1_scratch_size(n, 1, 0) + 64);
    cr_assert_not_null(scr);
    msm_g1(out, b, s, d, n, 0, scr, NULL);
    gm_free(scr);
}

static void check_emu(const g1_affine_t *b, const fr_t *s, const uint64_t *d, size_t n, unsigned window,
                      const char *what)
{
    g1_jac_t want, got;
    err_t err;
    cpu_msm(&want, b, s, d, n);
    int rc = gpu_emu_msm_g1(&got, b, s, d, n, window, &err);
    cr_assert_eq(rc, 0, "%s: n %zu window %u: %s", what, n, window, err.msg);
    cr_assert(g1_jac_eq(&want, &got), "%s: n %zu window %u: the emulated device MSM differs from msm_g1", what, n,
              window);
}

/* ---- detection and the no-device contract --------------------------------------------------- */

Test(gpu, init_no_device)
{
    gpu_ctx_t *ctx = (gpu_ctx_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = gpu_init(&ctx, -1, &err);
    if (rc == 0) {
        gpu_destroy(ctx);
        cr_skip_test("a GPU is present: the no-device path cannot be checked here");
    }
    cr_assert_eq(rc, GM_ENOTSUP, "gpu_init: %d (%s)", rc, err.msg);
    cr_assert_null(ctx);
    cr_assert_eq(err.code, GM_ENOTSUP);
    if (gpu_built_with_cuda()) {
        /* The VM has no libcuda.so.1 (cudaErrorInsufficientDriver, 35); a
         * driver without a GPU gives cudaErrorNoDevice (100). */
        cr_assert(strstr(err.msg, "cudaGetDeviceCount") != NULL, "%s", err.msg);
        cr_assert(strstr(err.msg, "cudaErrorInsufficientDriver (35)") || strstr(err.msg, "cudaErrorNoDevice (100)"),
                  "%s", err.msg);
        cr_assert(strstr(err.msg, "gpu/gpu_cuda.cu:") != NULL, "the message names file and line: %s", err.msg);
    } else {
        cr_assert(strstr(err.msg, "built without CUDA") != NULL, "%s", err.msg);
    }
}

Test(gpu, init_bad_device)
{
    gpu_ctx_t *ctx = NULL;
    err_t err;
    int rc = gpu_init(&ctx, 4096, &err);
    cr_assert_neq(rc, 0, "device 4096 cannot exist");
    cr_assert(rc == GM_ENOTSUP, "rc %d: %s", rc, err.msg);
    cr_assert_null(ctx);
}

Test(gpu, null_context_is_enotsup)
{
    err_t err;
    g1_jac_t out;
    fr_t a[4] = {FR_ONE, FR_ONE, FR_ZERO, FR_ONE};
    const fr_t *sc[1] = {a};
    gpu_g1_bases_t *b = (gpu_g1_bases_t *)1;
    gm_err_clear(&err);
    cr_assert_eq(gpu_g1_bases_upload(&b, NULL, &G1_GENERATOR, 1, &err), GM_ENOTSUP);
    cr_assert_null(b);
    cr_assert(strstr(err.msg, "no device context") != NULL, "%s", err.msg);
    gm_err_clear(&err);
    cr_assert_eq(gpu_msm_g1(NULL, &out, NULL, sc, NULL, 4, 1, 0, &err), GM_ENOTSUP);
    cr_assert_eq(err.code, GM_ENOTSUP);
    gm_err_clear(&err);
    cr_assert_eq(gpu_ntt(NULL, a, 2, GPU_NTT_FORWARD, &err), GM_ENOTSUP);
    cr_assert_eq(err.code, GM_ENOTSUP);
    gm_err_clear(&err);
    cr_assert_eq(gpu_groth16_h(NULL, a, a, a, 2, &err), GM_ENOTSUP);
    cr_assert_eq(err.code, GM_ENOTSUP);
    /* Inputs untouched by a refused call. */
    cr_assert(fr_is_one(&a[0]) && fr_is_zero(&a[2]));
    gpu_destroy(NULL);
    gpu_g1_bases_free(NULL);
    cr_assert_eq(gpu_g1_bases_count(NULL), 0);
    gpu_info_t info;
    gpu_info(&info, NULL);
    cr_assert_eq(info.sm_count, 0);
}

Test(gpu, window_auto)
{
    cr_assert_eq(gpu_msm_window(0), 4);
    cr_assert_eq(gpu_msm_window(1), 4);
    cr_assert_eq(gpu_msm_window((size_t)1 << 20), 12);
    cr_assert_eq(gpu_msm_window((size_t)1 << 24), 16);
    cr_assert_eq(gpu_msm_window((size_t)1 << 30), 16);
    for (size_t n = 1; n < ((size_t)1 << 32); n = n * 3 + 1) {
        unsigned w = gpu_msm_window(n);
        cr_assert(w >= 4 && w <= 16 && w <= MSM_WINDOW_MAX);
    }
}

Test(gpu, bad_arguments)
{
    err_t err;
    g1_jac_t out;
    fr_t a[2] = {FR_ONE, FR_ONE};
    cr_assert_eq(gpu_emu_msm_g1(&out, &G1_GENERATOR, a, NULL, 1, MSM_WINDOW_MAX + 1, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "window") != NULL, "%s", err.msg);
    cr_assert_eq(gpu_emu_ntt(a, 0, GPU_NTT_FORWARD, &err), GM_EINVAL);
    cr_assert_eq(gpu_emu_ntt(a, 29, GPU_NTT_FORWARD, &err), GM_EINVAL);
    cr_assert_eq(gpu_emu_ntt(a, 1, (gpu_ntt_dir_t)7, &err), GM_EINVAL);
    cr_assert_eq(gpu_emu_msm_g1(&out, NULL, a, NULL, 0, 0, &err), 0);
    cr_assert(g1_jac_is_inf(&out));
}

/* ---- the device MSM algorithm on the host ---------------------------------------------------- */

Test(gpu, emu_msm_every_small_n)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_every_small_n");
    g1_affine_t *b = rand_points(40, &rng);
    fr_t s[40];
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

Test(gpu, emu_msm_adversarial)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_adversarial");
    const size_t n = 300;
    g1_affine_t *b = rand_points(n, &rng);
    fr_t *s = gm_alloc(n * sizeof *s);
    cr_assert_not_null(s);
    fr_t rm1;
    fr_neg(&rm1, &FR_ONE); /* r - 1 */
    for (size_t i = 0; i < n; i++) {
        switch (i % 7) {
        case 0: s[i] = FR_ZERO; break;
        case 1: s[i] = FR_ONE; break;
        case 2: s[i] = rm1; break;
        case 3: b[i] = b[i - 1]; rand_fr(&s[i], &rng); break;           /* equal points */
        case 4: g1_affine_neg(&b[i], &b[i - 1]); s[i] = s[i - 1]; break; /* P and -P, same scalar */
        case 5: g1_affine_set_inf(&b[i]); rand_fr(&s[i], &rng); break;   /* infinity */
        default: rand_fr(&s[i], &rng); break;
        }
    }
    check_emu(b, s, NULL, n, 0, "adversarial");
    check_emu(b, s, NULL, n, 6, "adversarial");
    check_emu(b, s, NULL, n, 16, "adversarial");
    gm_free(b);
    gm_free(s);
}

/* Most scalars equal (Groth16 witnesses are full of 0 and 1): one bucket
 * holds far more than a reduction chunk, so the segmented reduction needs
 * several levels. */
Test(gpu, emu_msm_heavy_buckets)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_msm_heavy_buckets");
    const size_t n = 3000;
    g1_affine_t *b = rand_points(n, &rng);
    fr_t *s = gm_alloc(n * sizeof *s);
    cr_assert_not_null(s);
    fr_t same;
    rand_fr(&same, &rng);
    for (size_t i = 0; i < n; i++) {
        if (i % 50 == 0)
            rand_fr(&s[i], &rng);
        else
            s[i] = (i % 3) ? FR_ONE : same;
    }
    check_emu(b, s, NULL, n, 0, "heavy");
    check_emu(b, s, NULL, n, 10, "heavy");
    for (size_t i = 0; i < n; i++)
        s[i] = FR_ONE;
    check_emu(b, s, NULL, n, 0, "all ones");
    gm_free(b);
    gm_free(s);
}

Test(gpu, emu_msm_density)
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
    g1_affine_t *b = rand_points(m, &rng);
    fr_t *s = gm_alloc(n * sizeof *s);
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

static void cpu_ntt(fr_t *a, unsigned log_n, gpu_ntt_dir_t dir)
{
    ntt_domain_t *d;
    err_t err;
    cr_assert_eq(ntt_domain_create(&d, log_n, &err), 0, "%s", err.msg);
    void *scr = gm_alloc(ntt_scratch_size(d, 1) + 64);
    cr_assert_not_null(scr);
    switch (dir) {
    case GPU_NTT_FORWARD: ntt_forward(d, a, scr, NULL); break;
    case GPU_NTT_INVERSE: ntt_inverse(d, a, scr, NULL); break;
    case GPU_NTT_COSET_FORWARD: ntt_coset_forward(d, a, scr, NULL); break;
    case GPU_NTT_COSET_INVERSE: ntt_coset_inverse(d, a, scr, NULL); break;
    }
    gm_free(scr);
    ntt_domain_destroy(d);
}

Test(gpu, emu_ntt_every_size)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_ntt_every_size");
    for (unsigned log_n = 1; log_n <= 11; log_n++) {
        size_t n = (size_t)1 << log_n;
        fr_t *a = gm_alloc(n * sizeof *a), *b = gm_alloc(n * sizeof *b);
        cr_assert(a && b);
        for (int dir = 0; dir < 4; dir++) {
            for (size_t i = 0; i < n; i++)
                rand_fr(&a[i], &rng);
            memcpy(b, a, n * sizeof *a);
            cpu_ntt(a, log_n, (gpu_ntt_dir_t)dir);
            err_t err;
            cr_assert_eq(gpu_emu_ntt(b, log_n, (gpu_ntt_dir_t)dir, &err), 0, "%s", err.msg);
            for (size_t i = 0; i < n; i++)
                cr_assert(fr_eq(&a[i], &b[i]), "2^%u direction %d: value %zu differs", log_n, dir, i);
        }
        gm_free(a);
        gm_free(b);
    }
}

/* The larger sizes above 2^12 cross the hi/lo split of the scale tables. */
Test(gpu, emu_ntt_scale_tables_split)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_ntt_scale_tables_split");
    const unsigned log_n = 13;
    size_t n = (size_t)1 << log_n;
    fr_t *a = gm_alloc(n * sizeof *a), *b = gm_alloc(n * sizeof *b);
    cr_assert(a && b);
    for (int dir = 2; dir < 4; dir++) {
        for (size_t i = 0; i < n; i++)
            rand_fr(&a[i], &rng);
        memcpy(b, a, n * sizeof *a);
        cpu_ntt(a, log_n, (gpu_ntt_dir_t)dir);
        err_t err;
        cr_assert_eq(gpu_emu_ntt(b, log_n, (gpu_ntt_dir_t)dir, &err), 0, "%s", err.msg);
        cr_assert(memcmp(a, b, n * sizeof *a) == 0, "2^%u direction %d differs", log_n, dir);
    }
    gm_free(a);
    gm_free(b);
}

Test(gpu, emu_groth16_h)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emu_groth16_h");
    const unsigned log_n = 9;
    size_t n = (size_t)1 << log_n;
    fr_t *a = gm_alloc(n * sizeof *a), *b = gm_alloc(n * sizeof *b), *c = gm_alloc(n * sizeof *c),
         *g = gm_alloc(n * sizeof *g);
    cr_assert(a && b && c && g);
    for (size_t i = 0; i < n; i++) {
        rand_fr(&a[i], &rng);
        rand_fr(&b[i], &rng);
        rand_fr(&c[i], &rng);
    }
    memcpy(g, a, n * sizeof *a);
    err_t err;
    cr_assert_eq(gpu_emu_groth16_h(g, b, c, log_n, &err), 0, "%s", err.msg);
    /* The CPU prover's sequence (groth16/prove.c). */
    fr_t *v[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        cpu_ntt(v[i], log_n, GPU_NTT_INVERSE);
        cpu_ntt(v[i], log_n, GPU_NTT_COSET_FORWARD);
    }
    fr_t z;
    uint64_t e = n;
    fr_pow(&z, &FR_GENERATOR, &e, 1);
    fr_sub(&z, &z, &FR_ONE);
    fr_inv(&z, &z);
    for (size_t i = 0; i < n; i++) {
        fr_mul(&a[i], &a[i], &b[i]);
        fr_sub(&a[i], &a[i], &c[i]);
        fr_mul(&a[i], &a[i], &z);
    }
    cpu_ntt(a, log_n, GPU_NTT_COSET_INVERSE);
    for (size_t i = 0; i < n; i++)
        cr_assert(fr_eq(&a[i], &g[i]), "h value %zu differs", i);
    gm_free(a);
    gm_free(b);
    gm_free(c);
    gm_free(g);
}

/* GROTHMPI_EMU_DEVICES numbers a node's emulated devices: unset is no
 * limit, N refuses device N and up as CUDA refuses a missing device, and a
 * bad value is named. */
Test(gpu, emulated_device_count)
{
    err_t err;
    unsigned n = 99;
    gpu_ctx_t *ctx;
    unsetenv("GROTHMPI_EMU_DEVICES");
    cr_assert_eq(gpu_emulated_device_count(&n, &err), 0);
    cr_expect_eq(n, 0u);
    cr_assert_eq(gpu_init_emulated(&ctx, 40, &err), 0, "%s", err.msg);
    gpu_destroy(ctx);
    setenv("GROTHMPI_EMU_DEVICES", "2", 1);
    cr_assert_eq(gpu_emulated_device_count(&n, &err), 0, "%s", err.msg);
    cr_expect_eq(n, 2u);
    cr_assert_eq(gpu_init_emulated(&ctx, 1, &err), 0, "%s", err.msg);
    gpu_destroy(ctx);
    cr_expect_eq(gpu_init_emulated(&ctx, 2, &err), GM_ENOTSUP);
    cr_expect_null(ctx);
    cr_expect(strstr(err.msg, "emulated device 2 asked for, 2 present"), "%s", err.msg);
    static const char *const bad[] = {"0", "-1", "65", "2x", " "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("GROTHMPI_EMU_DEVICES", bad[i], 1);
        cr_expect_eq(gpu_emulated_device_count(&n, &err), GM_EINVAL, "'%s' accepted", bad[i]);
        cr_expect(strstr(err.msg, "GROTHMPI_EMU_DEVICES"), "%s", err.msg);
        cr_expect_eq(gpu_init_emulated(&ctx, 0, &err), GM_EINVAL, "'%s' accepted by gpu_init_emulated", bad[i]);
    }
    unsetenv("GROTHMPI_EMU_DEVICES");
}
