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
 *    chunk, every NTT size up to 2^11 in all four directions and sizes of
 *    two and three passes, Groth16's h;
 *  - the device's field arithmetic (its PTX carry chains run by their host
 *    twin) against ff/ on edge and random values of Fp and Fr.
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

#define GT_SUITE gpu
#define GT_FR(x) fr_##x
#define GT_FP(x) fp_##x
#define GT_G1(x) g1_##x
#define GT_MSM(x) msm_##x
#define GT_NTT(x) ntt_##x
#define GT_EMU(x) gpu_emu_##x
#define GT_GPU(x) gpu_##x
#define GT_CURVE GPU_CURVE_BLS12_381
#define GT_FR_ONE FR_ONE
#define GT_FR_ZERO FR_ZERO
#define GT_G1_GEN G1_GENERATOR
#include "tests/unit/gpu_curve_tests.h"

/* ---- the device's field arithmetic (its host twin) against ff/ ------------------------------ */

/* Raw Montgomery limbs (any value below the modulus is one): the edges of
 * the carry chains, from 0 and 1 to m - 1, words of all ones, single high
 * bits, R mod m, and values just below m. */
static size_t edge_values(uint64_t (*out)[6], const uint64_t *mod, const uint64_t *one, int limbs)
{
    size_t k = 0;
    const uint64_t small[] = {0, 1, 2, 0xffffffffu, 0x100000000u, 0xffffffffffffffffu};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++, k++) {
        memset(out[k], 0, sizeof out[k]);
        out[k][0] = small[i];
    }
    /* m - d for d = 1, 2, 2^32, 2^64 - 1: borrows through every limb. */
    const uint64_t below[] = {1, 2, 0x100000000u, 0xffffffffffffffffu};
    for (size_t i = 0; i < sizeof below / sizeof below[0]; i++, k++) {
        uint64_t borrow = below[i];
        for (int j = 0; j < limbs; j++) {
            uint64_t x = mod[j] - borrow;
            borrow = mod[j] < borrow;
            out[k][j] = x;
        }
    }
    /* One word of all ones at each 32-bit position below the top limb, and
     * the top limb's highest bit below m's. */
    for (int w = 0; w < 2 * limbs - 1; w++, k++) {
        memset(out[k], 0, sizeof out[k]);
        out[k][w / 2] = (uint64_t)0xffffffffu << (32 * (w % 2));
    }
    memset(out[k], 0, sizeof out[k]);
    out[k][limbs - 1] = (uint64_t)1 << (63 - __builtin_clzll(mod[limbs - 1]) - 1);
    k++;
    memcpy(out[k++], one, (size_t)limbs * 8);
    return k;
}

static void rand_limbs(uint64_t *l, const uint64_t *mod, int limbs, test_rng_t *rng)
{
    /* Half uniform below 2^(top bit of m), half m minus a random 64-bit
     * value: both ends of the range. */
    if (test_rng_next(rng) & 1) {
        for (int i = 0; i < limbs; i++)
            l[i] = test_rng_next(rng);
        l[limbs - 1] &= ((uint64_t)1 << (63 - __builtin_clzll(mod[limbs - 1]))) - 1;
    } else {
        uint64_t borrow = test_rng_next(rng) | 1;
        for (int i = 0; i < limbs; i++) {
            uint64_t x = mod[i] - borrow;
            borrow = mod[i] < borrow;
            l[i] = x;
        }
    }
}

/* One field as raw limbs: ff/'s operations and the device's twin. */
typedef struct {
    const char *name;
    int limbs;
    const uint64_t *mod, *one;
    void (*ff)(uint64_t *o, const uint64_t *a, const uint64_t *b, char op);
    void (*dev)(uint64_t *o, const uint64_t *a, const uint64_t *b, char op);
} chain_field_t;

/* T_ff (ff/) and T_dev (the device's twin) over raw limbs, for T = fp, fr,
 * bn_fp, bn_fr. */
#define CHAIN_FIELD(T)                                                                                       \
    static void T##_ff(uint64_t *o, const uint64_t *a, const uint64_t *b, char op)                           \
    {                                                                                                        \
        T##_t x, y, r;                                                                                       \
        memcpy(x.l, a, sizeof x.l);                                                                          \
        memcpy(y.l, b, sizeof y.l);                                                                          \
        (op == '*' ? T##_mul : op == '+' ? T##_add : T##_sub)(&r, &x, &y);                                   \
        memcpy(o, r.l, sizeof r.l);                                                                          \
    }                                                                                                        \
    static void T##_dev(uint64_t *o, const uint64_t *a, const uint64_t *b, char op)                          \
    {                                                                                                        \
        T##_t x, y, r;                                                                                       \
        memcpy(x.l, a, sizeof x.l);                                                                          \
        memcpy(y.l, b, sizeof y.l);                                                                          \
        gpu_emu_##T##_op(&r, &x, &y, op);                                                                    \
        memcpy(o, r.l, sizeof r.l);                                                                          \
    }
CHAIN_FIELD(fp)
CHAIN_FIELD(fr)
CHAIN_FIELD(bn_fp)
CHAIN_FIELD(bn_fr)
#undef CHAIN_FIELD

static void check_chain_op(const chain_field_t *f, const uint64_t *a, const uint64_t *b, char op)
{
    uint64_t want[6] = {0}, got[6] = {0};
    f->ff(want, a, b, op);
    f->dev(got, a, b, op);
    cr_assert(memcmp(want, got, (size_t)f->limbs * 8) == 0,
              "%s %c: the device's carry chains differ from ff/ for a = %016llx..%016llx, b = %016llx..%016llx",
              f->name, op, (unsigned long long)a[f->limbs - 1], (unsigned long long)a[0],
              (unsigned long long)b[f->limbs - 1], (unsigned long long)b[0]);
}

/* Every pair of edge values, then random pairs (and squares), each through
 * the product, the sum and the difference. */
static void check_chains(const chain_field_t *f, const char *seed)
{
    uint64_t e[32][6];
    size_t ne = edge_values(e, f->mod, f->one, f->limbs);
    const char ops[] = {'*', '+', '-'};
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++)
            for (int o = 0; o < 3; o++)
                check_chain_op(f, e[i], e[j], ops[o]);
    test_rng_t rng;
    test_rng_init(&rng, seed);
    for (int it = 0; it < 3000; it++) {
        uint64_t a[6], b[6];
        rand_limbs(a, f->mod, f->limbs, &rng);
        rand_limbs(b, f->mod, f->limbs, &rng);
        for (int o = 0; o < 3; o++)
            check_chain_op(f, a, b, ops[o]);
        check_chain_op(f, a, a, '*');
    }
}

Test(gpu, emu_fp_carry_chains)
{
    const chain_field_t f = {"Fp", FP_LIMBS, FP_MODULUS, FP_ONE.l, fp_ff, fp_dev};
    check_chains(&f, "gpu/emu_fp_carry_chains");
}

Test(gpu, emu_fr_carry_chains)
{
    const chain_field_t f = {"Fr", FR_LIMBS, FR_MODULUS, FR_ONE.l, fr_ff, fr_dev};
    check_chains(&f, "gpu/emu_fr_carry_chains");
}

/* BN254's fields: the device's 8-limb Fp and Fr cfgs (modulus, R mod m,
 * -m^-1 mod 2^32) against ff/'s. */
Test(gpu, emu_bn_carry_chains)
{
    const chain_field_t f[2] = {
        {"BN254 Fp", BN254_LIMBS, BN254_FP_MODULUS, BN254_FP_ONE.l, bn_fp_ff, bn_fp_dev},
        {"BN254 Fr", BN254_LIMBS, BN254_FR_MODULUS, BN254_FR_ONE.l, bn_fr_ff, bn_fr_dev},
    };
    for (int i = 0; i < 2; i++)
        check_chains(&f[i], i ? "gpu/emu_bn_fr_carry_chains" : "gpu/emu_bn_fp_carry_chains");
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

/* ---- the device memory plan ------------------------------------------------------------------ */

/* What every plan must satisfy, whatever it decided: each region sized
 * from its parts, the phases sharing the arena, the total within the card
 * less the reserve, resident sets a prefix of the upload order. */
static void check_plan(const gpu_plan_t *p, const uint64_t *counts, size_t nsets, size_t min_chunk, const char *what)
{
    size_t res = 0, maxs = 0;
    bool streaming = false;
    for (size_t i = 0; i < nsets; i++) {
        cr_assert_eq(p->set[i].n, counts[i], "%s", what);
        if (p->set[i].streamed) {
            streaming = true;
            cr_assert_eq(p->set[i].bytes, 0, "%s", what);
            maxs = counts[i] > maxs ? (size_t)counts[i] : maxs;
        } else {
            cr_assert(!streaming, "%s: set %zu resident after a streamed one", what, i);
            cr_assert_eq(p->set[i].bytes, (size_t)counts[i] * 96, "%s", what);
            res += p->set[i].bytes;
        }
    }
    cr_assert_eq(p->bases_bytes, res, "%s", what);
    if (streaming) {
        cr_assert(p->chunk >= (min_chunk < maxs ? min_chunk : maxs) && p->chunk <= maxs, "%s: chunk %zu", what,
                  p->chunk);
        cr_assert(p->chunk_bytes >= p->chunk * 96, "%s", what);
    } else {
        cr_assert_eq(p->chunk, 0, "%s", what);
    }
    cr_assert(p->scalar_bufs == 1 || p->scalar_bufs == 2, "%s", what);
    cr_assert(p->scalar_bytes >= p->scalar_bufs * p->msm_n * 32, "%s", what);
    /* keys and values, sorted and unsorted: 16 bytes a group item */
    cr_assert(p->ws_bytes >= 16 * p->msm_n * (size_t)p->group_windows, "%s", what);
    cr_assert(p->group_windows >= 1 && (size_t)p->group_windows * p->msm_n <= (p->group_items > p->msm_n ?
                                                                                p->group_items : p->msm_n), "%s", what);
    cr_assert_eq(p->msm_phase, p->chunk_bytes + p->scalar_bytes + p->ws_bytes + p->sort_bytes, "%s", what);
    if (p->log_n) {
        cr_assert(p->h == GPU_PLAN_H_WHOLE || p->h == GPU_PLAN_H_STEPS, "%s", what);
        cr_assert_eq(p->ntt_vectors, p->h == GPU_PLAN_H_WHOLE ? 4u : 2u, "%s", what);
        cr_assert(p->ntt_bytes >= p->ntt_vectors * ((size_t)32 << p->log_n), "%s", what);
        /* the twiddles alone: n / 2 values */
        cr_assert(p->table_bytes >= ((size_t)16 << p->log_n), "%s", what);
        cr_assert_eq(p->h_phase, p->ntt_bytes + p->table_bytes, "%s", what);
    }
    cr_assert_eq(p->arena, p->msm_phase > p->h_phase ? p->msm_phase : p->h_phase, "%s", what);
    cr_assert_eq(p->total, p->bases_bytes + p->arena, "%s", what);
    cr_assert(p->total <= p->device_bytes - p->reserve, "%s: %zu bytes planned on %zu", what, p->total,
              p->device_bytes - p->reserve);
}

/* A partition with a 2^27 domain (the shape of a 32 GiB PoRep partition:
 * three sets of one point per auxiliary variable, H of 2^27 - 1) on cards
 * of 16 GB up: every plan holds its invariants, a larger card keeps at
 * least as many sets resident, a 16 GB card streams them all and a 141 GB
 * card keeps them all. */
Test(gpu, plan_cards)
{
    static const char *const names[4] = {"A", "B1", "L", "H"};
    const uint64_t na = 130169893, counts[4] = {na, na, na, ((uint64_t)1 << 27) - 1};
    static const size_t cards[] = {16000000000, 24000000000, 48000000000, 80000000000, 141000000000, 1000000000000};
    size_t last_resident = 0;
    bool last_whole = false;
    for (size_t k = 0; k < sizeof cards / sizeof cards[0]; k++) {
        gpu_plan_t p;
        err_t err;
        char what[64];
        snprintf(what, sizeof what, "%zu-byte card", cards[k]);
        cr_assert_eq(gpu_plan(&p, GPU_CURVE_BLS12_381, names, counts, 4, 27, cards[k], GPU_PLAN_RESERVE,
                              GPU_PLAN_MIN_CHUNK, &err), 0,
                     "%s: %s", what, err.msg);
        check_plan(&p, counts, 4, GPU_PLAN_MIN_CHUNK, what);
        size_t resident = 0;
        for (int i = 0; i < 4; i++)
            resident += !p.set[i].streamed;
        cr_assert(resident >= last_resident, "%s: %zu sets resident, fewer than a smaller card's", what, resident);
        cr_assert(!last_whole || p.h == GPU_PLAN_H_WHOLE, "%s: h in steps on a larger card", what);
        last_resident = resident;
        last_whole = p.h == GPU_PLAN_H_WHOLE;
        if (cards[k] == 16000000000)
            cr_assert_eq(resident, 0, "a 16 GB card cannot hold a 12 GiB set beside its workspace");
        if (cards[k] >= 141000000000)
            cr_assert_eq(resident, 4, "%s", what);
    }
}

Test(gpu, plan_refusals)
{
    static const char *const names[2] = {"A", "H"};
    const uint64_t counts[2] = {1000000, 1 << 20};
    gpu_plan_t p;
    err_t err;
    cr_assert_eq(gpu_plan(&p, GPU_CURVE_BLS12_381, names, counts, 2, 20, 1000000, GPU_PLAN_RESERVE,
                          GPU_PLAN_MIN_CHUNK, &err), GM_ENOMEM);
    cr_assert(strstr(err.msg, "holds nothing beyond"), "%s", err.msg);
    /* 16 MiB beyond the reserve: not even h in steps at 2^20 (64 MiB). */
    cr_assert_eq(gpu_plan(&p, GPU_CURVE_BLS12_381, names, counts, 2, 20, GPU_PLAN_RESERVE + (16 << 20),
                          GPU_PLAN_RESERVE, GPU_PLAN_MIN_CHUNK, &err), GM_ENOMEM);
    cr_assert(strstr(err.msg, "smallest workable plan"), "%s", err.msg);
    cr_assert_eq(gpu_plan(&p, GPU_CURVE_BLS12_381, names, counts, 2, 29, (size_t)1 << 40, 0, 64, &err), GM_EINVAL);
    const uint64_t huge[2] = {(uint64_t)1 << 31, 1};
    cr_assert_eq(gpu_plan(&p, GPU_CURVE_BLS12_381, names, huge, 2, 20, (size_t)1 << 40, 0, 64, &err), GM_EINVAL);
    cr_assert_eq(gpu_plan(&p, GPU_CURVE_BLS12_381, names, counts, GPU_PLAN_MAX_SETS + 1, 20, (size_t)1 << 40, 0,
                          64, &err), GM_EINVAL);
    cr_assert_eq(gpu_plan_apply(NULL, NULL, GPU_CURVE_BLS12_381, names, counts, 2, 20, &err), GM_ENOTSUP);
}

/* An emulated device too small for the all-resident plan even with one
 * scalar buffer: the plan streams, the uploads follow it, every MSM and h
 * equal the CPU's, and the device never holds more than the plan said. */
Test(gpu, plan_emulated_device_follows_it)
{
    enum { N = 3000, LOG = 12 };
    test_rng_t rng;
    test_rng_init(&rng, "gpu/plan_emulated_device_follows_it");
    static const char *const names[2] = {"P", "Q"};
    const uint64_t counts[2] = {N, N};
    gpu_plan_t all, p;
    err_t err;
    cr_assert_eq(gpu_plan(&all, GPU_CURVE_BLS12_381, names, counts, 2, LOG, (size_t)1 << 40, 0, 64, &err), 0, "%s",
                 err.msg);
    cr_assert(!all.set[0].streamed && !all.set[1].streamed && all.h == GPU_PLAN_H_WHOLE);
    char mem[32];
    size_t limit = all.total - all.scalar_bytes;
    snprintf(mem, sizeof mem, "%zu", limit);
    setenv("GROTHMPI_EMU_MEM", mem, 1);
    gpu_ctx_t *ctx;
    cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
    unsetenv("GROTHMPI_EMU_MEM");
    cr_assert_null(gpu_ctx_plan(ctx));
    cr_assert_eq(gpu_plan_apply(ctx, &p, GPU_CURVE_BLS12_381, names, counts, 2, LOG, &err), 0, "%s", err.msg);
    check_plan(&p, counts, 2, 64, "emulated");
    cr_assert(p.set[1].streamed, "without room for everything resident, a set must stream");
    cr_assert_not_null(gpu_ctx_plan(ctx));
    g1_affine_t *pts = rand_points(N, &rng);
    fr_t *s0 = gm_alloc(N * sizeof *s0), *s1 = gm_alloc(N * sizeof *s1);
    cr_assert(s0 && s1);
    for (size_t i = 0; i < N; i++) {
        rand_fr(&s0[i], &rng);
        rand_fr(&s1[i], &rng);
    }
    gpu_g1_bases_t *b[2];
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(gpu_g1_bases_upload(&b[i], ctx, pts, N, &err), 0, "%s", err.msg);
        cr_assert_eq(gpu_g1_bases_streamed(b[i]), p.set[i].streamed, "set %d", i);
    }
    const fr_t *sc[2] = {s0, s1};
    for (int i = 0; i < 2; i++) {
        g1_jac_t got[2], want;
        cr_assert_eq(gpu_msm_g1(ctx, got, b[i], sc, NULL, N, 2, 0, &err), 0, "%s", err.msg);
        for (int j = 0; j < 2; j++) {
            cpu_msm(&want, pts, sc[j], NULL, N);
            cr_assert(g1_jac_eq(&got[j], &want), "set %d msm %d differs from ec/'s", i, j);
        }
    }
    size_t n = (size_t)1 << LOG;
    fr_t *a = gm_alloc(n * sizeof *a), *bb = gm_alloc(n * sizeof *bb), *c = gm_alloc(n * sizeof *c),
         *g = gm_alloc(n * sizeof *g);
    cr_assert(a && bb && c && g);
    for (size_t i = 0; i < n; i++) {
        rand_fr(&a[i], &rng);
        rand_fr(&bb[i], &rng);
        rand_fr(&c[i], &rng);
    }
    memcpy(g, a, n * sizeof *a);
    cr_assert_eq(gpu_emu_groth16_h(g, bb, c, LOG, &err), 0, "%s", err.msg);
    int rc = gpu_groth16_h(ctx, a, bb, c, LOG, &err);
    if (p.h == GPU_PLAN_H_WHOLE) {
        cr_assert_eq(rc, 0, "%s", err.msg);
        cr_assert(memcmp(a, g, n * sizeof *a) == 0, "the planned device's h differs");
    }
    cr_assert(gpu_mem_peak(ctx) <= p.total, "peak %zu, plan %zu", gpu_mem_peak(ctx), p.total);
    cr_assert(gpu_mem_peak(ctx) <= limit);
    gpu_g1_bases_free(b[0]);
    gpu_g1_bases_free(b[1]);
    gpu_destroy(ctx);
    gm_free(pts);
    gm_free(s0);
    gm_free(s1);
    gm_free(a);
    gm_free(bb);
    gm_free(c);
    gm_free(g);
}

/* Without a plan the emulated device still counts every buffer a call
 * takes (the NTT's vectors and tables, the MSM's workspace and scalars)
 * against GROTHMPI_EMU_MEM, and fails as a full device does. */
Test(gpu, emulated_device_counts_every_buffer)
{
    test_rng_t rng;
    test_rng_init(&rng, "gpu/emulated_device_counts_every_buffer");
    err_t err;
    setenv("GROTHMPI_EMU_MEM", "4M", 1);
    gpu_ctx_t *ctx;
    cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
    unsetenv("GROTHMPI_EMU_MEM");
    size_t n = 1 << 16; /* two vectors (4 MiB) and the twiddles: more than the device */
    fr_t *a = gm_calloc(n, sizeof *a);
    cr_assert_not_null(a);
    cr_assert_eq(gpu_ntt(ctx, a, 16, GPU_NTT_FORWARD, &err), GM_ENOMEM);
    cr_assert(strstr(err.msg, "do not fit"), "%s", err.msg);
    cr_assert_eq(gpu_ntt(ctx, a, 12, GPU_NTT_FORWARD, &err), 0, "%s", err.msg);
    /* 100 resident points; their MSM at window 16 wants 2^16 buckets of
     * 192 bytes for each of 16 windows: far beyond the device. */
    g1_affine_t *pts = rand_points(100, &rng);
    fr_t *s = gm_calloc(100, sizeof *s);
    cr_assert_not_null(s);
    gpu_g1_bases_t *b;
    cr_assert_eq(gpu_g1_bases_upload(&b, ctx, pts, 100, &err), 0, "%s", err.msg);
    cr_assert(!gpu_g1_bases_streamed(b));
    const fr_t *sc[1] = {s};
    g1_jac_t out, want;
    cr_assert_eq(gpu_msm_g1(ctx, &out, b, sc, NULL, 100, 1, 16, &err), GM_ENOMEM);
    cr_assert(strstr(err.msg, "msm"), "%s", err.msg);
    cr_assert_eq(gpu_msm_g1(ctx, &out, b, sc, NULL, 100, 1, 0, &err), 0, "%s", err.msg);
    cpu_msm(&want, pts, s, NULL, 100);
    cr_assert(g1_jac_eq(&out, &want));
    cr_assert(gpu_mem_peak(ctx) <= 4 << 20, "peak %zu", gpu_mem_peak(ctx));
    gpu_g1_bases_free(b);
    gpu_destroy(ctx);
    gm_free(pts);
    gm_free(s);
    gm_free(a);
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
