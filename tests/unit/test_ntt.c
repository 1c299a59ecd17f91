/*
 * tests/unit/test_ntt.c — the NTT over Fr (ntt/ntt.c) against a naive O(n^2)
 * DFT written here for every size 2^1 .. 2^10, round trips up to 2^16, and
 * pool == caller's thread, each on the scalar and the 8-lane (AVX-512 IFMA)
 * paths, and the two paths against each other to 2^18. The roots are
 * recomputed here from r and the generator 7, sharing no code with the
 * module.
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
#include "ntt/ntt.h"

static void rand_fr(fr_t *out, test_rng_t *rng)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++)
        l[i] = test_rng_next(rng);
    l[3] &= (1ULL << 62) - 1; /* < 2^254 < r */
    cr_assert_eq(fr_from_limbs(out, l), 0);
}

/* 7^((r - 1) / 2^log_n): a primitive 2^log_n-th root of unity. */
static void naive_root(fr_t *out, unsigned log_n)
{
    uint64_t e[4];
    memcpy(e, FR_MODULUS, sizeof e);
    e[0] -= 1;
    for (unsigned s = 0; s < log_n; s++) { /* e >>= 1, log_n times */
        for (int i = 0; i < 3; i++)
            e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    fr_t g;
    fr_set_u64(&g, 7);
    fr_pow(out, &g, e, 4);
}

static void naive_inv(fr_t *out, const fr_t *a)
{
    uint64_t e[4];
    memcpy(e, FR_MODULUS, sizeof e);
    e[0] -= 2;
    fr_pow(out, a, e, 4);
}

/* out[k] = sum_j in[j] * w^(jk); out must not alias in. */
static void naive_dft(fr_t *out, const fr_t *in, size_t n, const fr_t *w)
{
    fr_t wk = FR_ONE;
    for (size_t k = 0; k < n; k++) {
        fr_t acc = FR_ZERO, t = FR_ONE;
        for (size_t j = 0; j < n; j++) {
            fr_t p;
            fr_mul(&p, &in[j], &t);
            fr_add(&acc, &acc, &p);
            fr_mul(&t, &t, &wk);
        }
        out[k] = acc;
        fr_mul(&wk, &wk, w);
    }
}

/* a[i] *= s * c^i */
static void naive_scale(fr_t *a, size_t n, const fr_t *s, const fr_t *c)
{
    fr_t t = *s;
    for (size_t i = 0; i < n; i++) {
        fr_mul(&a[i], &a[i], &t);
        fr_mul(&t, &t, c);
    }
}


/* The path under test, for the messages: every transform test below runs on
 * the scalar path and, when the CPU has AVX-512 IFMA, on the 8-lane one. */
static const char *path_name = "scalar";

static void on_both_paths(void (*body)(void))
{
    cr_assert_eq(fr_x8_init(FR_X8_OFF), 0);
    path_name = "scalar";
    body();
    if (fr_x8_init(FR_X8_ON) == 0) {
        path_name = "8-lane";
        body();
    }
    cr_assert_eq(fr_x8_init(FR_X8_AUTO), 0);
}

static void expect_equal(const fr_t *a, const fr_t *b, size_t n, const char *what, unsigned log_n)
{
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&a[i], &b[i])) {
            cr_expect(false, "%s path, %s, n = 2^%u: element %zu differs", path_name, what, log_n, i);
            return;
        }
}

typedef struct {
    ntt_domain_t *d;
    void *scratch;
} dom_t;

static dom_t dom_new(unsigned log_n, topo_pool_t *pool)
{
    dom_t r;
    err_t err;
    cr_assert_eq(ntt_domain_create(&r.d, log_n, &err), 0, "%s", err.msg);
    cr_assert_eq(ntt_domain_size(r.d), (size_t)1 << log_n);
    cr_assert_eq(ntt_domain_log_size(r.d), log_n);
    size_t bytes = ntt_scratch_size(r.d, topo_pool_size(pool));
    r.scratch = gm_alloc(bytes ? bytes : 1);
    cr_assert_not_null(r.scratch);
    return r;
}

static void dom_free(dom_t *r)
{
    ntt_domain_destroy(r->d);
    gm_free(r->scratch);
}

Test(ntt, root_is_primitive)
{
    for (unsigned k = 1; k <= 28; k++) {
        fr_t w, m1;
        naive_root(&w, k);
        for (unsigned i = 0; i + 1 < k; i++)
            fr_sqr(&w, &w);
        fr_neg(&m1, &FR_ONE);
        cr_expect(fr_eq(&w, &m1), "w_%u^(2^%u) != -1", k, k - 1);
    }
}

static const struct {
    const char *name;
    void (*fn)(const ntt_domain_t *, fr_t *, void *, topo_pool_t *);
} forms[4] = {
    {"forward", ntt_forward},
    {"inverse", ntt_inverse},
    {"coset forward", ntt_coset_forward},
    {"coset inverse", ntt_coset_inverse},
};

static void matches_naive_dft_every_size_to_2_10(void)
{
    test_rng_t rng;
    test_rng_init(&rng, "ntt/matches_naive_dft_every_size_to_2_10");
    size_t nmax = (size_t)1 << 10;
    fr_t *x = gm_alloc(nmax * sizeof(fr_t)), *y = gm_alloc(nmax * sizeof(fr_t));
    fr_t *want = gm_alloc(nmax * sizeof(fr_t)), *tmp = gm_alloc(nmax * sizeof(fr_t));
    cr_assert(x && y && want && tmp);
    fr_t g, g_inv;
    fr_set_u64(&g, 7);
    naive_inv(&g_inv, &g);
    for (unsigned L = 1; L <= 10; L++) {
        size_t n = (size_t)1 << L;
        dom_t D = dom_new(L, NULL);
        fr_t w, w_inv, n_fr, n_inv;
        naive_root(&w, L);
        naive_inv(&w_inv, &w);
        fr_set_u64(&n_fr, n);
        naive_inv(&n_inv, &n_fr);
        for (size_t i = 0; i < n; i++)
            rand_fr(&x[i], &rng);

        /* forward, inverse and the two coset forms, each against its naive
         * definition; every size, since the coset factors are split between
         * the column pass (g^(iC)), the row twiddles (g^j; g^-rev_R(p)) and a
         * per-position table after the row DIF (g^-(R rev_C(q))). */
        for (int form = 0; form < 4; form++) {
            bool inv = form & 1, coset = form & 2;
            memcpy(tmp, x, n * sizeof(fr_t));
            if (coset && !inv)
                naive_scale(tmp, n, &FR_ONE, &g);              /* x_i g^i */
            naive_dft(want, tmp, n, inv ? &w_inv : &w);
            if (inv)
                naive_scale(want, n, &n_inv, coset ? &g_inv : &FR_ONE); /* / n, g^-i */
            memcpy(y, x, n * sizeof(fr_t));
            forms[form].fn(D.d, y, D.scratch, NULL);
            expect_equal(y, want, n, forms[form].name, L);
        }
        dom_free(&D);
    }
    gm_free(x);
    gm_free(y);
    gm_free(want);
    gm_free(tmp);
}

static void edge_values(void)
{
    /* All zeros stay zero; a delta at 0 gives all ones; all ones give n*delta. */
    unsigned L = 9;
    size_t n = (size_t)1 << L;
    dom_t D = dom_new(L, NULL);
    fr_t *a = gm_calloc(n, sizeof(fr_t));
    cr_assert_not_null(a);
    ntt_forward(D.d, a, D.scratch, NULL);
    for (size_t i = 0; i < n; i++)
        cr_assert(fr_is_zero(&a[i]));
    a[0] = FR_ONE;
    ntt_forward(D.d, a, D.scratch, NULL);
    for (size_t i = 0; i < n; i++)
        cr_assert(fr_is_one(&a[i]), "delta: element %zu", i);
    ntt_forward(D.d, a, D.scratch, NULL);
    fr_t n_fr;
    fr_set_u64(&n_fr, n);
    cr_assert(fr_eq(&a[0], &n_fr));
    for (size_t i = 1; i < n; i++)
        cr_assert(fr_is_zero(&a[i]), "ones: element %zu", i);
    /* r - 1 everywhere: the largest value. */
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    for (size_t i = 0; i < n; i++)
        a[i] = m1;
    ntt_coset_forward(D.d, a, D.scratch, NULL);
    ntt_coset_inverse(D.d, a, D.scratch, NULL);
    for (size_t i = 0; i < n; i++)
        cr_assert(fr_eq(&a[i], &m1));
    gm_free(a);
    dom_free(&D);
}

static void round_trips_to_2_16(void)
{
    test_rng_t rng;
    test_rng_init(&rng, "ntt/round_trips_to_2_16");
    size_t nmax = (size_t)1 << 16;
    fr_t *x = gm_alloc(nmax * sizeof(fr_t)), *y = gm_alloc(nmax * sizeof(fr_t));
    cr_assert(x && y);
    for (unsigned L = 11; L <= 16; L++) {
        size_t n = (size_t)1 << L;
        dom_t D = dom_new(L, NULL);
        for (size_t i = 0; i < n; i++)
            rand_fr(&x[i], &rng);
        memcpy(y, x, n * sizeof(fr_t));
        ntt_forward(D.d, y, D.scratch, NULL);
        ntt_inverse(D.d, y, D.scratch, NULL);
        expect_equal(y, x, n, "inverse(forward)", L);
        ntt_coset_forward(D.d, y, D.scratch, NULL);
        ntt_coset_inverse(D.d, y, D.scratch, NULL);
        expect_equal(y, x, n, "coset_inverse(coset_forward)", L);
        dom_free(&D);
    }
    gm_free(x);
    gm_free(y);
}

static void spot_values_at_2_14(void)
{
    /* Three outputs of a large forward transform, each one naive sum. */
    test_rng_t rng;
    test_rng_init(&rng, "ntt/spot_values_at_2_14");
    unsigned L = 14;
    size_t n = (size_t)1 << L;
    dom_t D = dom_new(L, NULL);
    fr_t *x = gm_alloc(n * sizeof(fr_t)), *y = gm_alloc(n * sizeof(fr_t));
    cr_assert(x && y);
    for (size_t i = 0; i < n; i++)
        rand_fr(&x[i], &rng);
    memcpy(y, x, n * sizeof(fr_t));
    ntt_coset_forward(D.d, y, D.scratch, NULL);
    fr_t w, g;
    naive_root(&w, L);
    fr_set_u64(&g, 7);
    size_t ks[3] = {1, n / 2 + 3, n - 1};
    for (int t = 0; t < 3; t++) {
        fr_t z, wk = FR_ONE, acc = FR_ZERO, zp = FR_ONE;
        for (size_t i = 0; i < ks[t]; i++)
            fr_mul(&wk, &wk, &w);
        fr_mul(&z, &g, &wk); /* evaluation point g * w^k */
        for (size_t j = 0; j < n; j++) {
            fr_t p;
            fr_mul(&p, &x[j], &zp);
            fr_add(&acc, &acc, &p);
            fr_mul(&zp, &zp, &z);
        }
        cr_expect(fr_eq(&acc, &y[ks[t]]), "%s path: coset forward at k = %zu", path_name, ks[t]);
    }
    gm_free(x);
    gm_free(y);
    dom_free(&D);
}

static void pool_equals_single_thread(void)
{
    test_rng_t rng;
    test_rng_init(&rng, "ntt/pool_equals_single_thread");
    topo_pool_t *pool;
    err_t err;
    cr_assert_eq(topo_pool_create_flat(&pool, 3, &err), 0, "%s", err.msg);
    unsigned sizes[] = {1, 5, 12, 15};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned L = sizes[s];
        size_t n = (size_t)1 << L;
        dom_t D1 = dom_new(L, NULL), DP = dom_new(L, pool);
        fr_t *x = gm_alloc(n * sizeof(fr_t)), *y = gm_alloc(n * sizeof(fr_t));
        cr_assert(x && y);
        for (size_t i = 0; i < n; i++)
            rand_fr(&x[i], &rng);
        memcpy(y, x, n * sizeof(fr_t));
        for (int form = 0; form < 4; form++) {
            forms[form].fn(D1.d, x, D1.scratch, NULL);
            forms[form].fn(DP.d, y, DP.scratch, pool);
            expect_equal(y, x, n, forms[form].name, L);
        }
        gm_free(x);
        gm_free(y);
        dom_free(&D1);
        dom_free(&DP);
    }
    topo_pool_destroy(pool);
}

Test(ntt, matches_naive_dft_every_size_to_2_10) { on_both_paths(matches_naive_dft_every_size_to_2_10); }
Test(ntt, edge_values) { on_both_paths(edge_values); }
Test(ntt, round_trips_to_2_16) { on_both_paths(round_trips_to_2_16); }
Test(ntt, spot_values_at_2_14) { on_both_paths(spot_values_at_2_14); }
Test(ntt, pool_equals_single_thread) { on_both_paths(pool_equals_single_thread); }

/* Both paths give the same values for every size to 2^18 and every form
 * (the 8-lane rows start at 2^13, its column blocks at 2^6). */
Test(ntt, x8_equals_scalar_every_size_to_2_18)
{
    if (fr_x8_init(FR_X8_ON) != 0)
        cr_skip_test("this CPU has no AVX-512 IFMA");
    test_rng_t rng;
    test_rng_init(&rng, "ntt/x8_equals_scalar_every_size_to_2_18");
    size_t nmax = (size_t)1 << 18;
    fr_t *x = gm_alloc(nmax * sizeof(fr_t)), *y = gm_alloc(nmax * sizeof(fr_t));
    cr_assert(x && y);
    path_name = "8-lane against scalar";
    for (unsigned L = 1; L <= 18; L++) {
        size_t n = (size_t)1 << L;
        dom_t D = dom_new(L, NULL);
        for (size_t i = 0; i < n; i++)
            rand_fr(&x[i], &rng);
        for (int form = 0; form < 4; form++) {
            memcpy(y, x, n * sizeof(fr_t));
            cr_assert_eq(fr_x8_init(FR_X8_OFF), 0);
            forms[form].fn(D.d, x, D.scratch, NULL);
            cr_assert_eq(fr_x8_init(FR_X8_ON), 0);
            forms[form].fn(D.d, y, D.scratch, NULL);
            expect_equal(y, x, n, forms[form].name, L);
        }
        dom_free(&D);
    }
    cr_assert_eq(fr_x8_init(FR_X8_AUTO), 0);
    gm_free(x);
    gm_free(y);
}

Test(ntt, domain_rejects_bad_sizes)
{
    ntt_domain_t *d = (ntt_domain_t *)1;
    err_t err;
    cr_expect_eq(ntt_domain_create(&d, 0, &err), GM_EINVAL);
    cr_expect_null(d);
    cr_expect_eq(ntt_domain_create(&d, 29, &err), GM_EINVAL);
    cr_expect_null(d);
    cr_expect(strstr(err.msg, "29") != NULL, "message names the value: %s", err.msg);
    ntt_domain_destroy(NULL);
}
