/*
 * tests/unit/test_msm.c — msm_g1 / msm_g2 (ec/msm.c) against a naive sum of
 * double-and-add products written here, for every n <= 64 and several window
 * widths; sums of chunks at large n; pool == caller's thread; adversarial
 * inputs (equal points, P and -P, infinity, scalars 0, 1 and r - 1, n = 0
 * and 1); bellperson density bitmaps. Each test runs on G1 and on G2 through
 * one table of group operations (grp_t), so the cases are written once.
 * G1 and G2 run on the 8-lane batches (ec/g1_x8.c, ec/g2_x8.c) where the
 * CPU has IFMA; the g1_scalar_path and g2_scalar_path tests run the same
 * cases with the lanes off.
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

/* Sanitizer builds are slow: smaller cases and fewer windows there. */
#ifdef GM_VERIFY_ON
#define LARGE_LOG 12
#define ADV_N 120
#define G1_WINDOWS {0, 1, 3, 8, 16}
#define G2_WINDOWS {0, 5}
#define AUTO_N_G1 1200
#define AUTO_N_G2 300
#else
#define LARGE_LOG 14
#define ADV_N 300
#define G1_WINDOWS {0, 1, 2, 3, 4, 5, 7, 8, 11, 16}
#define G2_WINDOWS {0, 1, 3, 6, 9}
#define AUTO_N_G1 2600
#define AUTO_N_G2 700
#endif

/* The group operations the tests use, behind void pointers. */
typedef struct {
    const char *name;
    size_t aff_size, jac_size;
    const void *gen;                                        /* affine generator */
    void (*jac_inf)(void *o);
    void (*from_affine)(void *o, const void *a);
    void (*add)(void *o, const void *p, const void *q);     /* Jacobian */
    void (*add_mixed)(void *o, const void *p, const void *a);
    void (*dbl)(void *o, const void *p);
    void (*neg_affine)(void *o, const void *a);
    void (*affine_inf)(void *o);
    bool (*jac_eq)(const void *p, const void *q);
    void (*batch_to_affine)(void *o, const void *p, size_t n);
    size_t (*scratch_size)(size_t n, unsigned nworkers, unsigned window);
    void (*msm)(void *out, const void *bases, const fr_t *s, const uint64_t *density, size_t n, unsigned window,
                void *scratch, topo_pool_t *pool);
} grp_t;

#define GROUP_OPS(G, FE)                                                                                       \
    static void G##_t_jac_inf(void *o) { G##_jac_set_inf(o); }                                                 \
    static void G##_t_from_affine(void *o, const void *a) { G##_from_affine(o, a); }                           \
    static void G##_t_add(void *o, const void *p, const void *q) { G##_add(o, p, q); }                         \
    static void G##_t_add_mixed(void *o, const void *p, const void *a) { G##_add_mixed(o, p, a); }             \
    static void G##_t_dbl(void *o, const void *p) { G##_dbl(o, p); }                                           \
    static void G##_t_neg_affine(void *o, const void *a) { G##_affine_neg(o, a); }                             \
    static void G##_t_affine_inf(void *o) { G##_affine_set_inf(o); }                                          \
    static bool G##_t_jac_eq(const void *p, const void *q) { return G##_jac_eq(p, q); }                        \
    static void G##_t_batch_to_affine(void *o, const void *p, size_t n)                                        \
    {                                                                                                          \
        FE *s = gm_alloc((n ? n : 1) * sizeof(FE));                                                            \
        cr_assert_not_null(s);                                                                                 \
        G##_batch_to_affine(o, p, n, s);                                                                       \
        gm_free(s);                                                                                            \
    }                                                                                                          \
    static void G##_t_msm(void *out, const void *b, const fr_t *s, const uint64_t *d, size_t n, unsigned w,    \
                          void *scratch, topo_pool_t *pool)                                                    \
    {                                                                                                          \
        msm_##G(out, b, s, d, n, w, scratch, pool);                                                            \
    }                                                                                                          \
    static const grp_t G##_grp = {                                                                             \
        #G, sizeof(G##_affine_t), sizeof(G##_jac_t), &G##_GEN, G##_t_jac_inf, G##_t_from_affine, G##_t_add,    \
        G##_t_add_mixed, G##_t_dbl, G##_t_neg_affine, G##_t_affine_inf, G##_t_jac_eq, G##_t_batch_to_affine,   \
        msm_##G##_scratch_size, G##_t_msm,                                                                     \
    };

#define g1_GEN G1_GENERATOR
#define g2_GEN G2_GENERATOR
GROUP_OPS(g1, fp_t)
GROUP_OPS(g2, fp2_t)

/* Jacobian scratch big enough for either group. */
typedef struct { uint64_t w[3 * 2 * FP_LIMBS]; } jac_buf_t;

#define AT(base, i, size) ((void *)((char *)(base) + (size_t)(i) * (size)))

static void rand_fr(fr_t *out, test_rng_t *rng)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++)
        l[i] = test_rng_next(rng);
    l[3] &= (1ULL << 62) - 1;
    cr_assert_eq(fr_from_limbs(out, l), 0);
}

/* o = k * p by double-and-add over the canonical bits of k (MSB first). */
static void naive_mul(const grp_t *G, void *o, const void *p_aff, const fr_t *k)
{
    uint64_t l[4];
    fr_to_limbs(l, k);
    jac_buf_t acc, p;
    G->jac_inf(&acc);
    G->from_affine(&p, p_aff);
    for (int bit = 255; bit >= 0; bit--) {
        G->dbl(&acc, &acc);
        if ((l[bit / 64] >> (bit % 64)) & 1)
            G->add(&acc, &acc, &p);
    }
    memcpy(o, &acc, G->jac_size);
}

/* n affine points: random multiples of the generator (small n), or
 * P + i*D for larger n, one batch conversion. */
static void *rand_points(const grp_t *G, size_t n, test_rng_t *rng)
{
    void *aff = gm_alloc((n ? n : 1) * G->aff_size);
    void *jac = gm_alloc((n ? n : 1) * G->jac_size);
    cr_assert(aff && jac);
    fr_t k;
    if (n <= 128) {
        for (size_t i = 0; i < n; i++) {
            rand_fr(&k, rng);
            naive_mul(G, AT(jac, i, G->jac_size), G->gen, &k);
        }
    } else {
        jac_buf_t dj;
        char d[512];
        rand_fr(&k, rng);
        naive_mul(G, AT(jac, 0, G->jac_size), G->gen, &k);
        rand_fr(&k, rng);
        naive_mul(G, &dj, G->gen, &k);
        G->batch_to_affine(d, &dj, 1);
        for (size_t i = 1; i < n; i++)
            G->add_mixed(AT(jac, i, G->jac_size), AT(jac, i - 1, G->jac_size), d);
    }
    G->batch_to_affine(aff, jac, n);
    gm_free(jac);
    return aff;
}

static fr_t *rand_scalars(size_t n, test_rng_t *rng)
{
    fr_t *s = gm_alloc((n ? n : 1) * sizeof(fr_t));
    cr_assert_not_null(s);
    for (size_t i = 0; i < n; i++)
        rand_fr(&s[i], rng);
    return s;
}

static bool dens_bit(const uint64_t *d, size_t i) { return d == NULL || ((d[i / 64] >> (i % 64)) & 1); }

/* The naive sum with bellperson's density semantics. */
static void naive_msm(const grp_t *G, void *o, const void *bases, const fr_t *s, const uint64_t *d, size_t n)
{
    jac_buf_t acc, t;
    G->jac_inf(&acc);
    size_t b = 0;
    for (size_t i = 0; i < n; i++) {
        if (!dens_bit(d, i))
            continue;
        naive_mul(G, &t, AT(bases, b++, G->aff_size), &s[i]);
        G->add(&acc, &acc, &t);
    }
    memcpy(o, &acc, G->jac_size);
}

/* Runs the MSM under test with its own scratch. */
static void run_msm(const grp_t *G, void *o, const void *bases, const fr_t *s, const uint64_t *d, size_t n,
                    unsigned window, topo_pool_t *pool)
{
    size_t bytes = G->scratch_size(n, topo_pool_size(pool), window);
    void *scratch = gm_alloc(bytes ? bytes : 1);
    cr_assert_not_null(scratch);
    G->msm(o, bases, s, d, n, window, scratch, pool);
    gm_free(scratch);
}

static void expect_msm(const grp_t *G, const void *bases, const fr_t *s, const uint64_t *d, size_t n,
                       unsigned window, topo_pool_t *pool, const void *want, const char *what)
{
    jac_buf_t got;
    run_msm(G, &got, bases, s, d, n, window, pool);
    cr_expect(G->jac_eq(&got, want), "%s: %s, n = %zu, window %u", G->name, what, n, window);
}

/* ---- every n up to nmax against the naive prefix sums --------------------------------- */

static void every_n(const grp_t *G, size_t nmax, const unsigned *windows, size_t nw, const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    void *bases = rand_points(G, nmax, &rng);
    fr_t *s = rand_scalars(nmax, &rng);
    /* A few trivial and extreme scalars among the random ones. */
    if (nmax > 10) {
        s[3] = FR_ZERO;
        s[5] = FR_ONE;
        fr_neg(&s[7], &FR_ONE);
        s[9] = FR_ONE;
    }
    jac_buf_t want, t;
    G->jac_inf(&want);
    for (size_t n = 0; n <= nmax; n++) {
        if (n > 0) {
            naive_mul(G, &t, AT(bases, n - 1, G->aff_size), &s[n - 1]);
            G->add(&want, &want, &t);
        }
        for (size_t w = 0; w < nw; w++)
            expect_msm(G, bases, s, NULL, n, windows[w], NULL, &want, "prefix");
    }
    gm_free(bases);
    gm_free(s);
}

Test(msm, g1_every_n_to_64_and_windows)
{
    static const unsigned windows[] = G1_WINDOWS;
    every_n(&g1_grp, 64, windows, sizeof windows / sizeof windows[0], "msm/g1_every_n_to_64_and_windows");
}

Test(msm, g2_every_n_to_64_and_windows)
{
    static const unsigned windows[] = G2_WINDOWS;
    every_n(&g2_grp, 64, windows, sizeof windows / sizeof windows[0], "msm/g2_every_n_to_64_and_windows");
}

/* ---- large n: the whole against the sum of its chunks ------------------------------------- */

static void chunks(const grp_t *G, size_t n, size_t chunk, const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    void *bases = rand_points(G, n, &rng);
    fr_t *s = rand_scalars(n, &rng);
    jac_buf_t sum, part, whole, naive;
    G->jac_inf(&sum);
    for (size_t lo = 0; lo < n; lo += chunk) {
        size_t len = n - lo < chunk ? n - lo : chunk;
        run_msm(G, &part, AT(bases, lo, G->aff_size), s + lo, NULL, len, 5, NULL);
        G->add(&sum, &sum, &part);
        if (lo == 0) { /* one chunk against the naive sum */
            naive_msm(G, &naive, bases, s, NULL, len > 32 ? 32 : len);
            run_msm(G, &part, bases, s, NULL, len > 32 ? 32 : len, 0, NULL);
            cr_expect(G->jac_eq(&part, &naive), "%s: first 32 against naive", G->name);
        }
    }
    run_msm(G, &whole, bases, s, NULL, n, 0, NULL);
    cr_expect(G->jac_eq(&whole, &sum), "%s: n = %zu against the sum of chunks of %zu", G->name, n, chunk);
    gm_free(bases);
    gm_free(s);
}

Test(msm, g1_large_equals_sum_of_chunks)
{
    chunks(&g1_grp, (size_t)1 << LARGE_LOG, 1000, "msm/g1_large_equals_sum_of_chunks");
}

Test(msm, g2_large_equals_sum_of_chunks)
{
    chunks(&g2_grp, (size_t)1 << (LARGE_LOG - 2), 700, "msm/g2_large_equals_sum_of_chunks");
}

/* ---- every window the automatic choice can take ----------------------------------------- */

/* Every width 2..17 (msm_window_auto never goes wider) on one input against
 * the naive sum: at n = 2600 (1200 under the sanitizers) the windows up to
 * 12 (11) reduce their buckets in the dense, segmented form (at least as
 * many points as buckets), the wider ones sparsely; every top window reaches fewer buckets than the rest. A
 * quarter of the scalars are equal, so one bucket per window is skewed. */
static void every_auto_window(const grp_t *G, size_t n, const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    void *bases = rand_points(G, n, &rng);
    fr_t *s = rand_scalars(n, &rng);
    for (size_t i = 0; i < n; i += 4)
        s[i] = s[1];
    jac_buf_t want;
    naive_msm(G, &want, bases, s, NULL, n);
    for (unsigned c = 2; c <= 17; c++)
        expect_msm(G, bases, s, NULL, n, c, NULL, &want, "every automatic window");
    for (size_t k = 1; k <= 4; k++) {
        unsigned c = msm_window_auto((size_t)1 << (4 * k + 4), 1);
        cr_expect(c >= 2 && c <= 17, "window_auto(2^%zu) = %u", 4 * k + 4, c);
    }
    gm_free(bases);
    gm_free(s);
}

Test(msm, g1_every_auto_window) { every_auto_window(&g1_grp, AUTO_N_G1, "msm/g1_every_auto_window"); }
Test(msm, g2_every_auto_window) { every_auto_window(&g2_grp, AUTO_N_G2, "msm/g2_every_auto_window"); }

/* ---- pools ------------------------------------------------------------------------------ */

static void pool_vs_single(const grp_t *G, size_t n, const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    void *bases = rand_points(G, n, &rng);
    fr_t *s = rand_scalars(n, &rng);
    for (size_t i = 0; i < n; i += 3) /* a third ones, to run the ones tiles too */
        s[i] = FR_ONE;
    jac_buf_t one, many;
    run_msm(G, &one, bases, s, NULL, n, 0, NULL);
    /* 3 workers: one range per window; 12 workers with window 12 (22
     * windows): two ranges per window. */
    unsigned sizes[] = {3, 12}, windows[] = {0, 12};
    for (int k = 0; k < 2; k++) {
        topo_pool_t *pool;
        err_t err;
        cr_assert_eq(topo_pool_create_flat(&pool, sizes[k], &err), 0, "%s", err.msg);
        run_msm(G, &many, bases, s, NULL, n, windows[k], pool);
        cr_expect(G->jac_eq(&many, &one), "%s: %u workers, window %u", G->name, sizes[k], windows[k]);
        topo_pool_destroy(pool);
    }
    gm_free(bases);
    gm_free(s);
}

Test(msm, g1_pool_equals_single_thread) { pool_vs_single(&g1_grp, 3000, "msm/g1_pool_equals_single_thread"); }
Test(msm, g2_pool_equals_single_thread) { pool_vs_single(&g2_grp, 700, "msm/g2_pool_equals_single_thread"); }

/* ---- adversarial inputs ------------------------------------------------------------------ */

static void adversarial(const grp_t *G, const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    const size_t n = ADV_N;
    void *bases = gm_alloc(n * G->aff_size), *one_pt = rand_points(G, 2, &rng);
    fr_t *s = rand_scalars(n, &rng);
    cr_assert_not_null(bases);
    jac_buf_t want;
    static const unsigned windows[] = {0, 2, 4, 9};

    /* All points equal, random scalars, then all scalars equal too (one bucket
     * per window takes every point: doublings, then additions). */
    for (size_t i = 0; i < n; i++)
        memcpy(AT(bases, i, G->aff_size), one_pt, G->aff_size);
    naive_msm(G, &want, bases, s, NULL, n);
    for (size_t w = 0; w < 4; w++)
        expect_msm(G, bases, s, NULL, n, windows[w], NULL, &want, "all points equal");
    for (size_t i = 0; i < n; i++)
        s[i] = s[0];
    naive_msm(G, &want, bases, s, NULL, n);
    for (size_t w = 0; w < 4; w++)
        expect_msm(G, bases, s, NULL, n, windows[w], NULL, &want, "all points and scalars equal");

    /* P and -P alternating with equal scalars: the identity; P + P + (-P) ... in
     * one bucket. */
    for (size_t i = 1; i < n; i += 2)
        G->neg_affine(AT(bases, i, G->aff_size), one_pt);
    G->jac_inf(&want);
    for (size_t w = 0; w < 4; w++)
        expect_msm(G, bases, s, NULL, n, windows[w], NULL, &want, "P, -P with equal scalars");
    /* ... and with random scalars. */
    for (size_t i = 0; i < n; i++)
        rand_fr(&s[i], &rng);
    naive_msm(G, &want, bases, s, NULL, n);
    for (size_t w = 0; w < 4; w++)
        expect_msm(G, bases, s, NULL, n, windows[w], NULL, &want, "P, -P with random scalars");

    /* Random points with points at infinity, zeros, ones and r - 1 mixed in. */
    void *rnd = rand_points(G, n, &rng);
    memcpy(bases, rnd, n * G->aff_size);
    for (size_t i = 0; i < n; i += 7)
        G->affine_inf(AT(bases, i, G->aff_size));
    for (size_t i = 1; i < n; i += 5)
        s[i] = FR_ZERO;
    for (size_t i = 2; i < n; i += 6)
        s[i] = FR_ONE;
    for (size_t i = 4; i < n; i += 11)
        fr_neg(&s[i], &FR_ONE);
    naive_msm(G, &want, bases, s, NULL, n);
    for (size_t w = 0; w < 4; w++)
        expect_msm(G, bases, s, NULL, n, windows[w], NULL, &want, "infinity, 0, 1, r - 1");

    /* Only zeros; only ones; a single point; n = 0. */
    for (size_t i = 0; i < n; i++)
        s[i] = FR_ZERO;
    G->jac_inf(&want);
    expect_msm(G, bases, s, NULL, n, 0, NULL, &want, "all zero scalars");
    expect_msm(G, bases, s, NULL, 0, 0, NULL, &want, "n = 0");
    for (size_t i = 0; i < n; i++)
        s[i] = FR_ONE;
    naive_msm(G, &want, bases, s, NULL, n);
    expect_msm(G, bases, s, NULL, n, 0, NULL, &want, "all one scalars");
    rand_fr(&s[0], &rng);
    naive_msm(G, &want, rnd, s, NULL, 1);
    expect_msm(G, rnd, s, NULL, 1, 0, NULL, &want, "n = 1");
    expect_msm(G, rnd, s, NULL, 1, MSM_WINDOW_MAX, NULL, &want, "n = 1, widest window");

    gm_free(bases);
    gm_free(one_pt);
    gm_free(rnd);
    gm_free(s);
}

Test(msm, g1_adversarial) { adversarial(&g1_grp, "msm/g1_adversarial"); }

/* The scalar batches (the only ones on a CPU without IFMA), where the tests
 * above ran the 8-lane ones (ec/g1_x8.c, ec/g2_x8.c): every n <= 64 on the
 * windows of nw, the adversarial inputs, and a pool of npool points. */
static void scalar_path(const grp_t *G, const unsigned *windows, size_t nw, size_t npool, const char *who)
{
    char name[128];
    cr_assert(fr_x8_init(FR_X8_OFF) == 0);
    every_n(G, 64, windows, nw, who);
    snprintf(name, sizeof name, "%s/adversarial", who);
    adversarial(G, name);
    snprintf(name, sizeof name, "%s/pool", who);
    pool_vs_single(G, npool, name);
    cr_assert(fr_x8_init(FR_X8_AUTO) == 0);
}
static const unsigned g1_windows[] = G1_WINDOWS, g2_windows[] = G2_WINDOWS;
Test(msm, g1_scalar_path)
{
    scalar_path(&g1_grp, g1_windows, sizeof g1_windows / sizeof g1_windows[0], 3000, "msm/g1_scalar_path");
}
Test(msm, g2_adversarial) { adversarial(&g2_grp, "msm/g2_adversarial"); }
Test(msm, g2_scalar_path)
{
    scalar_path(&g2_grp, g2_windows, sizeof g2_windows / sizeof g2_windows[0], 700, "msm/g2_scalar_path");
}

/* ---- density bitmaps -------------------------------------------------------------------- */

static void density(const grp_t *G, const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    const size_t n = 333;
    uint64_t d[(333 + 63) / 64];
    size_t m = 0;
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        d[i] = test_rng_next(&rng);
    d[0] &= ~1ULL; /* scalar 0 does not take part */
    d[1] = ~0ULL;  /* a full word */
    d[2] = 0;      /* an empty one */
    for (size_t i = 0; i < n; i++)
        m += dens_bit(d, i);
    void *bases = rand_points(G, m, &rng);
    fr_t *s = rand_scalars(n, &rng);
    for (size_t i = 0; i < n; i += 4)
        s[i] = FR_ONE;
    jac_buf_t want;
    naive_msm(G, &want, bases, s, d, n);
    expect_msm(G, bases, s, d, n, 0, NULL, &want, "density");
    expect_msm(G, bases, s, d, n, 3, NULL, &want, "density");
    topo_pool_t *pool;
    err_t err;
    cr_assert_eq(topo_pool_create_flat(&pool, 3, &err), 0, "%s", err.msg);
    expect_msm(G, bases, s, d, n, 0, pool, &want, "density, 3 workers");
    topo_pool_destroy(pool);
    /* A clear bit consumes a scalar and no base: all bits clear gives 0 with
     * no bases at all. */
    memset(d, 0, sizeof d);
    G->jac_inf(&want);
    expect_msm(G, NULL, s, d, n, 0, NULL, &want, "empty density");
    gm_free(bases);
    gm_free(s);
}

Test(msm, g1_density_bitmap) { density(&g1_grp, "msm/g1_density_bitmap"); }
Test(msm, g2_density_bitmap) { density(&g2_grp, "msm/g2_density_bitmap"); }

Test(msm, window_auto_in_range)
{
    size_t ns[] = {0, 1, 2, 3, 31, 1000, (size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 26};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (unsigned t = 1; t <= 64; t *= 4) {
            unsigned c = msm_window_auto(ns[i], t);
            cr_expect(c >= 2 && c <= MSM_WINDOW_MAX, "n = %zu, %u workers: window %u", ns[i], t, c);
        }
}

/* ---- g1_add_batch / g2_add_batch (the setup's fixed-base additions) ------------------------ */

/* n entries of five kinds in turn (an addition, a doubling, a subtraction,
 * P + (-P) through neg, P + (-P) through the point itself), each against
 * the Jacobian g_add, on the path fr_x8_enabled() says. */
#define ADD_BATCH_CHECK(G, AFF, JAC, FE, NEG)                                                                  \
    static void G##_check_add_batch(size_t n, uint64_t seed)                                                   \
    {                                                                                                          \
        AFF acc[40], pt[40], want[40];                                                                         \
        AFF *accp[40];                                                                                         \
        const AFF *ptp[40];                                                                                    \
        uint8_t neg[40];                                                                                       \
        void *scratch = gm_alloc(G##_add_batch_scratch_size(n));                                               \
        cr_assert(n <= 40 && scratch);                                                                         \
        JAC g;                                                                                                 \
        G##_from_affine(&g, &G##_GEN);                                                                         \
        for (size_t a = 0; a < n; a++) {                                                                       \
            JAC j;                                                                                             \
            uint64_t k1[4] = {seed + 3 * a + 1, a, 0, 0}, k2[4] = {seed * 7 + a + 2, 1, 0, 0};                  \
            G##_mul(&j, &g, k1);                                                                               \
            G##_to_affine(&acc[a], &j);                                                                        \
            G##_mul(&j, &g, k2);                                                                               \
            G##_to_affine(&pt[a], &j);                                                                         \
            int kind = (int)(a % 5);                                                                           \
            if (kind == 1 || kind == 3 || kind == 4)                                                           \
                pt[a] = acc[a];                                                                                \
            if (kind == 4)                                                                                     \
                NEG(&pt[a].y, &acc[a].y);                                                                      \
            neg[a] = kind == 2 || kind == 3;                                                                   \
            AFF sp = pt[a];                                                                                    \
            if (neg[a])                                                                                        \
                NEG(&sp.y, &pt[a].y);                                                                          \
            JAC p, q, s;                                                                                       \
            G##_from_affine(&p, &acc[a]);                                                                      \
            G##_from_affine(&q, &sp);                                                                          \
            G##_add(&s, &p, &q);                                                                               \
            G##_to_affine(&want[a], &s);                                                                       \
            accp[a] = &acc[a];                                                                                 \
            ptp[a] = &pt[a];                                                                                   \
        }                                                                                                      \
        G##_add_batch(n, accp, ptp, neg, scratch);                                                             \
        for (size_t a = 0; a < n; a++)                                                                         \
            cr_assert(want[a].inf ? acc[a].inf : G##_affine_eq(&acc[a], &want[a]), #G ": n = %zu: entry %zu (kind %d) differs", \
                      n, a, (int)(a % 5));                                                                     \
        gm_free(scratch);                                                                                      \
    }

#define g1_GEN G1_GENERATOR
#define g2_GEN G2_GENERATOR
ADD_BATCH_CHECK(g1, g1_affine_t, g1_jac_t, fp_t, fp_neg)
ADD_BATCH_CHECK(g2, g2_affine_t, g2_jac_t, fp2_t, fp2_neg)

/* check for every n <= 40 on the scalar path and, with IFMA, on lanes. */
static void every_length_both_paths(void (*check)(size_t, uint64_t))
{
    for (int path = 0; path < 2; path++) {
        if (fr_x8_init(path ? FR_X8_ON : FR_X8_OFF) != 0)
            continue; /* no IFMA: the scalar path only */
        for (size_t n = 1; n <= 40; n++)
            check(n, 1000 * (uint64_t)path + n);
    }
    cr_assert(fr_x8_init(FR_X8_AUTO) == 0);
}

Test(add_batch, g1_every_length_both_paths) { every_length_both_paths(g1_check_add_batch); }
Test(add_batch, g2_every_length_both_paths) { every_length_both_paths(g2_check_add_batch); }
