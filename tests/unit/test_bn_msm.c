/*
 * tests/unit/test_bn_msm.c — BN254's MSM (bn_msm_g1 / bn_msm_g2, ec/bn_msm.c)
 * against the naive sum of bn_g1_mul / bn_g2_mul products, for n = 1, 2, 7,
 * 100, 1000, 4097 and several windows (explicit and 0 = automatic), with
 * scalars 0, 1 and r - 1, points at infinity, repeated points and P, -P
 * (the batch-affine doubling and cancelling cases), density bitmaps that
 * skip points, a pool against the calling thread; the 0/1 sums
 * (bn_msm_gX_bits) against the general MSM; bn_gX_add_batch against
 * Jacobian additions. Each test runs on G1 and G2 through one macro; the
 * buckets on 8 lanes where the CPU has IFMA, and once more on the scalar
 * path (g1_scalar_path, g2_scalar_path).
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
#include "topo/topo.h"

/* Sanitizer builds are slow: fewer windows and a smaller largest n there. */
#ifdef GM_VERIFY_ON
#define N_MAX_G1 1000
#define N_MAX_G2 100
#else
#define N_MAX_G1 4097
#define N_MAX_G2 1000
#endif

static void rand_fr(bn_fr_t *out, test_rng_t *rng)
{
    uint8_t b[BN254_BYTES];
    for (int i = 0; i < BN254_BYTES; i += 8) {
        uint64_t v = test_rng_next(rng);
        memcpy(b + i, &v, 8);
    }
    bn_fr_from_bytes_le_mod(out, b);
}

/* n scalars: uniform, with every seventh 0, 1 or r - 1 in turn. */
static bn_fr_t *rand_scalars(size_t n, test_rng_t *rng)
{
    bn_fr_t *s = gm_alloc((n ? n : 1) * sizeof *s), rm1;
    cr_assert_not_null(s);
    bn_fr_neg(&rm1, &BN254_FR_ONE);
    for (size_t i = 0; i < n; i++) {
        rand_fr(&s[i], rng);
        if (i % 7 == 3)
            s[i] = (i / 7) % 3 == 0 ? BN254_FR_ZERO : (i / 7) % 3 == 1 ? BN254_FR_ONE : rm1;
    }
    return s;
}

/* Everything below is written once for G1 and G2 (G: bn_g1 / bn_g2, S: g1 / g2). */
#define BN_MSM_TESTS(G, S, FE)                                                                                      \
    /* n points a*Gen + i*D (distinct), with, when `odd`, every 11th at infinity, every 13th a repeat of an  \
     * earlier one and every 17th the negation of an earlier one. */                                          \
    static G##_affine_t *G##_points(size_t n, test_rng_t *rng, bool odd)                                      \
    {                                                                                                          \
        G##_affine_t *aff = gm_alloc((n ? n : 1) * sizeof *aff), d;                                            \
        G##_jac_t *jac = gm_alloc((n ? n : 1) * sizeof *jac), g, dj;                                           \
        FE *scr = gm_alloc((n ? n : 1) * sizeof *scr);                                                         \
        cr_assert(aff && jac && scr);                                                                          \
        bn_fr_t k1, k2;                                                                                        \
        rand_fr(&k1, rng);                                                                                     \
        rand_fr(&k2, rng);                                                                                     \
        G##_from_affine(&g, &G##_GEN);                                                                         \
        G##_mul_fr(&jac[0], &g, &k1);                                                                          \
        G##_mul_fr(&dj, &g, &k2);                                                                              \
        G##_to_affine(&d, &dj);                                                                                \
        for (size_t i = 1; i < n; i++)                                                                         \
            G##_add_mixed(&jac[i], &jac[i - 1], &d);                                                           \
        G##_batch_to_affine(aff, jac, n, scr);                                                                 \
        for (size_t i = 1; odd && i < n; i++) {                                                                \
            if (i % 11 == 5)                                                                                   \
                G##_affine_set_inf(&aff[i]);                                                                   \
            else if (i % 13 == 6)                                                                              \
                aff[i] = aff[test_rng_next(rng) % i];                                                          \
            else if (i % 17 == 8)                                                                              \
                G##_affine_neg(&aff[i], &aff[test_rng_next(rng) % i]);                                         \
        }                                                                                                      \
        gm_free(jac);                                                                                          \
        gm_free(scr);                                                                                          \
        return aff;                                                                                            \
    }                                                                                                          \
                                                                                                               \
    /* out = sum of s[i] * B(i) by bn_gX_mul_fr, B(i) as the MSM's density contract says. */                  \
    static void G##_naive(G##_jac_t *out, const G##_affine_t *b, const bn_fr_t *s, const uint64_t *dens,      \
                          size_t n)                                                                            \
    {                                                                                                          \
        G##_jac_set_inf(out);                                                                                  \
        size_t k = 0;                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                                       \
            if (dens && !((dens[i / 64] >> (i % 64)) & 1))                                                     \
                continue;                                                                                      \
            G##_jac_t p, t;                                                                                    \
            G##_from_affine(&p, &b[k++]);                                                                      \
            G##_mul_fr(&t, &p, &s[i]);                                                                         \
            G##_add(out, out, &t);                                                                             \
        }                                                                                                      \
    }                                                                                                          \
                                                                                                               \
    static void G##_run(G##_jac_t *out, const G##_affine_t *b, const bn_fr_t *s, const uint64_t *dens,        \
                        size_t n, unsigned window, topo_pool_t *pool)                                          \
    {                                                                                                          \
        void *scratch = gm_alloc(bn_msm_##S##_scratch_size(n, topo_pool_size(pool), window));                  \
        cr_assert_not_null(scratch);                                                                           \
        bn_msm_##S(out, b, s, dens, n, window, scratch, pool);                                                 \
        gm_free(scratch);                                                                                      \
    }                                                                                                          \
                                                                                                               \
    /* Every n of the list up to nmax, every window of ws, against the naive sum; odd points or not. */       \
    static void G##_vs_naive(size_t nmax, const unsigned *ws, size_t nws, const char *who)                    \
    {                                                                                                          \
        static const size_t ns[] = {1, 2, 7, 100, 1000, 4097};                                                 \
        test_rng_t rng;                                                                                        \
        test_rng_init(&rng, who);                                                                              \
        for (size_t a = 0; a < sizeof ns / sizeof ns[0] && ns[a] <= nmax; a++)                                 \
            for (int odd = 0; odd < 2; odd++) {                                                                \
                size_t n = ns[a];                                                                              \
                G##_affine_t *b = G##_points(n, &rng, odd);                                                    \
                bn_fr_t *s = rand_scalars(n, &rng);                                                            \
                G##_jac_t want, got;                                                                           \
                G##_naive(&want, b, s, NULL, n);                                                               \
                for (size_t w = 0; w < nws; w++) {                                                             \
                    G##_run(&got, b, s, NULL, n, ws[w], NULL);                                                 \
                    cr_expect(G##_jac_eq(&got, &want), #G ": n = %zu, odd points %d, window %u", n, odd,       \
                              ws[w]);                                                                          \
                }                                                                                              \
                gm_free(b);                                                                                    \
                gm_free(s);                                                                                    \
            }                                                                                                  \
    }                                                                                                          \
                                                                                                               \
    /* One point many times with a few distinct scalars (every bucket addition a doubling or a cancel), and   \
     * P, -P alternating; then all scalars r - 1 (every window's digit the same) and all 1 or 0; then the     \
     * first two with every scalar 1 (the ones' pairwise sums: doublings, cancels). */                         \
    static void G##_adversarial(size_t n, const char *who)                                                     \
    {                                                                                                          \
        test_rng_t rng;                                                                                        \
        test_rng_init(&rng, who);                                                                              \
        G##_affine_t *b = G##_points(n, &rng, false);                                                          \
        bn_fr_t *s = rand_scalars(n, &rng), few[3];                                                            \
        for (int k = 0; k < 3; k++)                                                                            \
            rand_fr(&few[k], &rng);                                                                            \
        static const unsigned ws[] = {0, 1, 2, 4, 9, 13};                                                      \
        G##_jac_t want, got;                                                                                   \
        for (int kind = 0; kind < 7; kind++) {                                                                 \
            for (size_t i = 0; i < n; i++) {                                                                   \
                if (kind == 0 || kind == 5) {                                                                  \
                    b[i] = b[0];                                                                               \
                    s[i] = kind == 5 ? BN254_FR_ONE : few[i % 3];                                              \
                } else if (kind == 1 || kind == 6) {                                                           \
                    if (kind == 1 ? i % 2 : i % 3 == 1) /* kind 6: pairs that cancel among ones that do not */ \
                        G##_affine_neg(&b[i], &b[0]);                                                          \
                    else                                                                                       \
                        b[i] = b[0];                                                                           \
                    s[i] = kind == 6 ? BN254_FR_ONE : few[(i / 2) % 2];                                        \
                } else if (kind == 2) {                                                                        \
                    bn_fr_neg(&s[i], &BN254_FR_ONE);                                                           \
                } else {                                                                                       \
                    s[i] = kind == 3 ? BN254_FR_ONE : BN254_FR_ZERO;                                           \
                }                                                                                              \
            }                                                                                                  \
            G##_naive(&want, b, s, NULL, n);                                                                   \
            if (kind == 4)                                                                                     \
                cr_expect(G##_jac_is_inf(&want));                                                              \
            for (size_t w = 0; w < sizeof ws / sizeof ws[0]; w++) {                                            \
                G##_run(&got, b, s, NULL, n, ws[w], NULL);                                                     \
                cr_expect(G##_jac_eq(&got, &want), #G ": kind %d, n = %zu, window %u", kind, n, ws[w]);        \
            }                                                                                                  \
        }                                                                                                      \
        G##_run(&got, b, s, NULL, 0, 0, NULL);                                                                 \
        cr_expect(G##_jac_is_inf(&got), #G ": n = 0 is the identity");                                        \
        gm_free(b);                                                                                            \
        gm_free(s);                                                                                            \
    }                                                                                                          \
                                                                                                               \
    /* A density bitmap with about a third of the bits clear: the bases hold the set bits' points only. */    \
    static void G##_density(size_t n, const char *who)                                                         \
    {                                                                                                          \
        test_rng_t rng;                                                                                        \
        test_rng_init(&rng, who);                                                                              \
        uint64_t *dens = gm_calloc((n + 63) / 64 + 1, sizeof *dens);                                           \
        cr_assert_not_null(dens);                                                                              \
        size_t m = 0;                                                                                          \
        for (size_t i = 0; i < n; i++)                                                                         \
            if (test_rng_next(&rng) % 3) {                                                                     \
                dens[i / 64] |= 1ULL << (i % 64);                                                              \
                m++;                                                                                           \
            }                                                                                                  \
        G##_affine_t *b = G##_points(m, &rng, true);                                                           \
        bn_fr_t *s = rand_scalars(n, &rng);                                                                    \
        G##_jac_t want, got;                                                                                   \
        G##_naive(&want, b, s, dens, n);                                                                       \
        static const unsigned ws[] = {0, 3, 8};                                                                \
        for (size_t w = 0; w < sizeof ws / sizeof ws[0]; w++) {                                                \
            G##_run(&got, b, s, dens, n, ws[w], NULL);                                                         \
            cr_expect(G##_jac_eq(&got, &want), #G ": density, n = %zu, window %u", n, ws[w]);                  \
        }                                                                                                      \
        gm_free(b);                                                                                            \
        gm_free(s);                                                                                            \
        gm_free(dens);                                                                                         \
    }                                                                                                          \
                                                                                                               \
    /* 3 workers (one range per window) and 12 at window 12 (two ranges per window) against one thread. */    \
    static void G##_pool(size_t n, const char *who)                                                            \
    {                                                                                                          \
        test_rng_t rng;                                                                                        \
        test_rng_init(&rng, who);                                                                              \
        G##_affine_t *b = G##_points(n, &rng, true);                                                           \
        bn_fr_t *s = rand_scalars(n, &rng);                                                                    \
        for (size_t i = 0; i < n; i += 3) /* ones tiles too */                                                 \
            s[i] = BN254_FR_ONE;                                                                               \
        G##_jac_t one, many;                                                                                   \
        G##_run(&one, b, s, NULL, n, 0, NULL);                                                                 \
        unsigned sizes[] = {3, 12}, windows[] = {0, 12};                                                       \
        for (int k = 0; k < 2; k++) {                                                                          \
            topo_pool_t *pool;                                                                                 \
            err_t err;                                                                                         \
            cr_assert_eq(topo_pool_create_flat(&pool, sizes[k], &err), 0, "%s", err.msg);                      \
            G##_run(&many, b, s, NULL, n, windows[k], pool);                                                   \
            cr_expect(G##_jac_eq(&many, &one), #G ": %u workers, window %u", sizes[k], windows[k]);            \
            topo_pool_destroy(pool);                                                                           \
        }                                                                                                      \
        gm_free(b);                                                                                            \
        gm_free(s);                                                                                            \
    }                                                                                                          \
                                                                                                               \
    /* The 0/1 sum against the general MSM on the same 0/1 scalars, without and with a density, on the       \
     * calling thread and on a pool. */                                                                        \
    static void G##_bits_vs_msm(size_t n, const char *who)                                                     \
    {                                                                                                          \
        test_rng_t rng;                                                                                        \
        test_rng_init(&rng, who);                                                                              \
        size_t nw = (n + 63) / 64 + 1;                                                                         \
        uint64_t *sel = gm_calloc(nw, sizeof *sel), *dens = gm_calloc(nw, sizeof *dens);                       \
        bn_fr_t *s = gm_alloc(n * sizeof *s);                                                                  \
        cr_assert(sel && dens && s);                                                                           \
        size_t m = 0;                                                                                          \
        for (size_t i = 0; i < nw * 64; i++) {                                                                 \
            if (test_rng_next(&rng) % 2) /* bits at n and above too: they must be ignored */                   \
                sel[i / 64] |= 1ULL << (i % 64);                                                               \
            if (i < n && test_rng_next(&rng) % 4) {                                                            \
                dens[i / 64] |= 1ULL << (i % 64);                                                              \
                m++;                                                                                           \
            }                                                                                                  \
        }                                                                                                      \
        for (size_t i = 0; i < n; i++)                                                                         \
            s[i] = (sel[i / 64] >> (i % 64)) & 1 ? BN254_FR_ONE : BN254_FR_ZERO;                               \
        G##_affine_t *b = G##_points(n, &rng, true);                                                           \
        topo_pool_t *pool;                                                                                     \
        err_t err;                                                                                             \
        cr_assert_eq(topo_pool_create_flat(&pool, 3, &err), 0, "%s", err.msg);                                 \
        for (int d = 0; d < 2; d++) {                                                                          \
            const uint64_t *dn = d ? dens : NULL;                                                              \
            G##_jac_t want, got;                                                                               \
            G##_run(&want, b, s, dn, n, 0, NULL);                                                              \
            if (d) { /* the density's bases are the first m points: check the MSM too */                      \
                G##_jac_t ref;                                                                                 \
                G##_naive(&ref, b, s, dn, n);                                                                  \
                cr_expect(G##_jac_eq(&want, &ref), #G ": 0/1 MSM with density, n = %zu", n);                   \
            }                                                                                                  \
            bn_msm_##S##_bits(&got, b, sel, dn, n, NULL);                                                      \
            cr_expect(G##_jac_eq(&got, &want), #G ": bits, density %d, n = %zu, 1 thread", d, n);              \
            bn_msm_##S##_bits(&got, b, sel, dn, n, pool);                                                      \
            cr_expect(G##_jac_eq(&got, &want), #G ": bits, density %d, n = %zu, pool", d, n);                  \
        }                                                                                                      \
        (void)m;                                                                                               \
        topo_pool_destroy(pool);                                                                               \
        gm_free(b);                                                                                            \
        gm_free(s);                                                                                            \
        gm_free(sel);                                                                                          \
        gm_free(dens);                                                                                         \
    }                                                                                                          \
                                                                                                               \
    /* n entries of five kinds in turn (an addition, a doubling, a subtraction, P + (-P) through neg,        \
     * P + (-P) through the point), each against the Jacobian addition. */                                    \
    static void G##_check_add_batch(size_t n, test_rng_t *rng)                                                 \
    {                                                                                                          \
        G##_affine_t acc[40], pt[40], want[40], *accp[40];                                                     \
        const G##_affine_t *ptp[40];                                                                           \
        uint8_t neg[40];                                                                                       \
        void *scratch = gm_alloc(G##_add_batch_scratch_size(n));                                          \
        cr_assert(n <= 40 && scratch);                                                                         \
        G##_affine_t *p = G##_points(2 * n, rng, false);                                                       \
        for (size_t a = 0; a < n; a++) {                                                                       \
            acc[a] = p[2 * a];                                                                                 \
            pt[a] = p[2 * a + 1];                                                                              \
            int kind = (int)(a % 5);                                                                           \
            if (kind == 1 || kind == 3 || kind == 4)                                                           \
                pt[a] = acc[a];                                                                                \
            if (kind == 4)                                                                                     \
                G##_affine_neg(&pt[a], &acc[a]);                                                               \
            neg[a] = kind == 2 || kind == 3;                                                                   \
            G##_affine_t sp = pt[a];                                                                           \
            if (neg[a])                                                                                        \
                G##_affine_neg(&sp, &pt[a]);                                                                   \
            G##_jac_t x, y, z;                                                                                 \
            G##_from_affine(&x, &acc[a]);                                                                      \
            G##_from_affine(&y, &sp);                                                                          \
            G##_add(&z, &x, &y);                                                                               \
            G##_to_affine(&want[a], &z);                                                                       \
            accp[a] = &acc[a];                                                                                 \
            ptp[a] = &pt[a];                                                                                   \
        }                                                                                                      \
        G##_add_batch(n, accp, ptp, neg, scratch);                                                        \
        for (size_t a = 0; a < n; a++)                                                                         \
            cr_expect(want[a].inf ? acc[a].inf : G##_affine_eq(&acc[a], &want[a]),                             \
                      #G ": n = %zu: entry %zu (kind %d) differs", n, a, (int)(a % 5));                        \
        gm_free(p);                                                                                            \
        gm_free(scratch);                                                                                      \
    }

#define bn_g1_GEN BN254_G1_GENERATOR
#define bn_g2_GEN BN254_G2_GENERATOR
BN_MSM_TESTS(bn_g1, g1, bn_fp_t)
BN_MSM_TESTS(bn_g2, g2, bn_fp2_t)

#ifdef GM_VERIFY_ON
static const unsigned g1_ws[] = {0, 1, 5, 16};
static const unsigned g2_ws[] = {0, 6};
#else
static const unsigned g1_ws[] = {0, 1, 2, 3, 5, 8, 11, 16, 17};
static const unsigned g2_ws[] = {0, 1, 4, 9, 17};
#endif

Test(bn_msm, g1_vs_naive) { bn_g1_vs_naive(N_MAX_G1, g1_ws, sizeof g1_ws / sizeof g1_ws[0], "bn_msm/g1_vs_naive"); }
Test(bn_msm, g2_vs_naive) { bn_g2_vs_naive(N_MAX_G2, g2_ws, sizeof g2_ws / sizeof g2_ws[0], "bn_msm/g2_vs_naive"); }
/* 600 points: at window 13 the top window's 32 copies of one bucket (equal
 * scalars) fill the batch and the queue (388), and the rest spills. */
Test(bn_msm, g1_adversarial) { bn_g1_adversarial(600, "bn_msm/g1_adversarial"); }
/* The scalar batches (the only ones on a CPU without IFMA), where the
 * tests here ran the 8-lane ones (ec/bn_g1_x8.c, ec/bn_g2_x8.c) on a CPU
 * with IFMA. */
#define SCALAR_PATH(G, S, NMAX, WS, NADV, NPOOL)                                   \
    Test(bn_msm, S##_scalar_path)                                                \
    {                                                                            \
        cr_assert(fr_x8_init(FR_X8_OFF) == 0);                                   \
        G##_vs_naive(NMAX, WS, sizeof WS / sizeof WS[0], "bn_msm/" #S "_scalar_path"); \
        G##_adversarial(NADV, "bn_msm/" #S "_scalar_path/adversarial");          \
        G##_pool(NPOOL, "bn_msm/" #S "_scalar_path/pool");                       \
        cr_assert(fr_x8_init(FR_X8_AUTO) == 0);                                  \
    }
SCALAR_PATH(bn_g1, g1, N_MAX_G1, g1_ws, 300, 3000)
SCALAR_PATH(bn_g2, g2, N_MAX_G2, g2_ws, 120, 700)
Test(bn_msm, g2_adversarial) { bn_g2_adversarial(120, "bn_msm/g2_adversarial"); }
Test(bn_msm, g1_density_bitmap) { bn_g1_density(1500, "bn_msm/g1_density_bitmap"); }
Test(bn_msm, g2_density_bitmap) { bn_g2_density(400, "bn_msm/g2_density_bitmap"); }
Test(bn_msm, g1_pool_equals_single_thread) { bn_g1_pool(3000, "bn_msm/g1_pool_equals_single_thread"); }
Test(bn_msm, g2_pool_equals_single_thread) { bn_g2_pool(700, "bn_msm/g2_pool_equals_single_thread"); }
/* Enough words for several bit-sum tasks on the pool (256 words each). */
Test(bn_msm, g1_bits_equal_msm) { bn_g1_bits_vs_msm(40000, "bn_msm/g1_bits_equal_msm"); }
Test(bn_msm, g2_bits_equal_msm) { bn_g2_bits_vs_msm(3000, "bn_msm/g2_bits_equal_msm"); }
/* The 0/1 sums' scalar levels (the only ones on a CPU without IFMA), where
 * the two above ran the 8-lane ones on a CPU with IFMA. */
Test(bn_msm, bits_scalar_path)
{
    cr_assert(fr_x8_init(FR_X8_OFF) == 0);
    bn_g1_bits_vs_msm(20000, "bn_msm/bits_scalar_path/g1");
    bn_g2_bits_vs_msm(3000, "bn_msm/bits_scalar_path/g2");
    cr_assert(fr_x8_init(FR_X8_AUTO) == 0);
}

Test(bn_msm, add_batch_every_length)
{
    test_rng_t rng;
    test_rng_init(&rng, "bn_msm/add_batch_every_length");
    for (size_t n = 1; n <= 40; n++) {
        bn_g1_check_add_batch(n, &rng);
        bn_g2_check_add_batch(n, &rng);
    }
}

/* The automatic window is in range, and window 0's scratch covers it. */
Test(bn_msm, window_auto_in_range)
{
    size_t ns[] = {0, 1, 2, 3, 31, 1000, (size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 26};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (unsigned t = 1; t <= 64; t *= 4) {
            unsigned c = bn_msm_window_auto(ns[i], t);
            cr_expect(c >= 2 && c <= MSM_WINDOW_MAX, "n = %zu, %u workers: window %u", ns[i], t, c);
            if (ns[i] <= ((size_t)1 << 20))
                cr_expect(bn_msm_g1_scratch_size(ns[i], t, 0) >= bn_msm_g1_scratch_size(ns[i], t, c));
        }
}
