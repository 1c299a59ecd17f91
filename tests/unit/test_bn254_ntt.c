/*
 * tests/unit/test_bn254_ntt.c — the NTT over BN254's Fr (ntt/bn_ntt.c)
 * against an O(n^2) DFT written here from the definitions of ntt/ntt.h
 * (w = bn_fr_root_of_unity(log_n), g = 5), for every size up to 2^10, all
 * four forms, with the caller's thread and with a 3-worker pool; errors of
 * bn_ntt_domain_create. Seeded (GM_TEST_SEED), both field kernel paths,
 * each on the scalar and (with AVX-512 IFMA) the 8-lane transform; the two
 * transform paths give the same values for every size to 2^18 (the 8-lane
 * rows start at 2^13, beyond the DFT's sizes).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "ntt/ntt.h"
#include "tests/unit/ff_ref.h"
#include "topo/topo.h"

#define LOG_MAX 10

/* out[k] = s(k) sum_j a[j] c(j) w^(jk), the definitions of the four forms. */
static void naive(bn_fr_t *out, const bn_fr_t *a, unsigned log_n, bool inv, bool coset)
{
    size_t n = (size_t)1 << log_n;
    bn_fr_t w, g = BN254_FR_GENERATOR, ninv, wk = BN254_FR_ONE;
    bn_fr_root_of_unity(&w, log_n);
    if (inv)
        bn_fr_inv(&w, &w);
    bn_fr_set_u64(&ninv, n);
    bn_fr_inv(&ninv, &ninv);
    for (size_t k = 0; k < n; k++) {
        bn_fr_t acc = BN254_FR_ZERO, t = BN254_FR_ONE, x, gj = BN254_FR_ONE;
        for (size_t j = 0; j < n; j++) {
            x = a[j];
            if (coset && !inv)
                bn_fr_mul(&x, &x, &gj);
            bn_fr_mul(&x, &x, &t);
            bn_fr_add(&acc, &acc, &x);
            bn_fr_mul(&t, &t, &wk);
            bn_fr_mul(&gj, &gj, &g);
        }
        if (inv) {
            bn_fr_mul(&acc, &acc, &ninv);
            if (coset) { /* a[k] g^-k */
                bn_fr_t gi;
                uint64_t e = k;
                bn_fr_inv(&gi, &g);
                bn_fr_pow(&gi, &gi, &e, 1);
                bn_fr_mul(&acc, &acc, &gi);
            }
        }
        out[k] = acc;
        bn_fr_mul(&wk, &wk, &w);
    }
}

static const struct {
    const char *name;
    void (*fn)(const bn_ntt_domain_t *, bn_fr_t *, void *, topo_pool_t *);
    bool inv, coset;
} forms[] = {
    {"forward", bn_ntt_forward, false, false},
    {"inverse", bn_ntt_inverse, true, false},
    {"coset_forward", bn_ntt_coset_forward, false, true},
    {"coset_inverse", bn_ntt_coset_inverse, true, true},
};

static void check_against_dft_with(test_rng_t *rng, topo_pool_t *pool)
{
    for (unsigned L = 1; L <= LOG_MAX; L++) {
        size_t n = (size_t)1 << L;
        bn_ntt_domain_t *d;
        err_t err = {0};
        cr_assert_eq(bn_ntt_domain_create(&d, L, &err), GM_OK, "%s", err.msg);
        cr_assert_eq(bn_ntt_domain_size(d), n);
        cr_assert_eq(bn_ntt_domain_log_size(d), L);
        size_t bytes = bn_ntt_scratch_size(d, topo_pool_size(pool));
        void *scratch = gm_alloc(bytes ? bytes : 1);
        bn_fr_t *a = gm_alloc(n * sizeof *a), *x = gm_alloc(n * sizeof *x), *want = gm_alloc(n * sizeof *want);
        cr_assert(scratch && a && x && want);
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            ref_random_below(l, BN254_FR_MODULUS, 4, rng);
            cr_assert_eq(bn_fr_from_limbs(&a[i], l), GM_OK);
        }
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            memcpy(x, a, n * sizeof *x);
            forms[f].fn(d, x, scratch, pool);
            naive(want, a, L, forms[f].inv, forms[f].coset);
            for (size_t k = 0; k < n; k++)
                cr_assert(bn_fr_eq(&x[k], &want[k]), "%s 2^%u: index %zu (path %s, %s)", forms[f].name, L, k,
                          ff_path_name(), fr_x8_enabled() ? "8-lane" : "scalar");
        }
        memcpy(x, a, n * sizeof *x); /* round trips */
        bn_ntt_forward(d, x, scratch, pool);
        bn_ntt_inverse(d, x, scratch, pool);
        bn_ntt_coset_forward(d, x, scratch, pool);
        bn_ntt_coset_inverse(d, x, scratch, pool);
        cr_assert(memcmp(x, a, n * sizeof *x) == 0, "round trip 2^%u", L);
        gm_free(scratch);
        gm_free(a);
        gm_free(x);
        gm_free(want);
        bn_ntt_domain_destroy(d);
    }
}

/* The scalar transform, then the 8-lane one where the CPU has IFMA. */
static void check_on_x8_paths(test_rng_t *rng, topo_pool_t *pool)
{
    cr_assert_eq(fr_x8_init(FR_X8_OFF), 0);
    check_against_dft_with(rng, pool);
    if (fr_x8_init(FR_X8_ON) == 0)
        check_against_dft_with(rng, pool);
    cr_assert_eq(fr_x8_init(FR_X8_AUTO), 0);
}

static void check_against_dft(test_rng_t *rng) { check_on_x8_paths(rng, NULL); }

static void check_against_dft_pool(test_rng_t *rng)
{
    topo_pool_t *pool;
    err_t err = {0};
    cr_assert_eq(topo_pool_create_flat(&pool, 3, &err), 0, "%s", err.msg);
    check_on_x8_paths(rng, pool);
    topo_pool_destroy(pool);
}

Test(bn254_ntt, against_dft, .timeout = 120) { test_on_paths(check_against_dft, "bn254_ntt/against_dft"); }
Test(bn254_ntt, against_dft_pool, .timeout = 120)
{
    test_on_paths(check_against_dft_pool, "bn254_ntt/against_dft_pool");
}

Test(bn254_ntt, x8_equals_scalar_every_size_to_2_18, .timeout = 120)
{
    if (fr_x8_init(FR_X8_ON) != 0)
        cr_skip_test("this CPU has no AVX-512 IFMA");
    test_rng_t rng;
    test_rng_init(&rng, "bn254_ntt/x8_equals_scalar_every_size_to_2_18");
    size_t nmax = (size_t)1 << 18;
    bn_fr_t *x = gm_alloc(nmax * sizeof *x), *y = gm_alloc(nmax * sizeof *y);
    cr_assert(x && y);
    for (unsigned L = 1; L <= 18; L++) {
        size_t n = (size_t)1 << L;
        bn_ntt_domain_t *d;
        err_t err = {0};
        cr_assert_eq(bn_ntt_domain_create(&d, L, &err), GM_OK, "%s", err.msg);
        size_t bytes = bn_ntt_scratch_size(d, 1);
        void *scratch = gm_alloc(bytes ? bytes : 1);
        cr_assert(scratch);
        for (size_t i = 0; i < n; i++)
            ref_random_below(x[i].l, BN254_FR_MODULUS, 4, &rng); /* any value < r is a stored element */
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            memcpy(y, x, n * sizeof *y);
            cr_assert_eq(fr_x8_init(FR_X8_OFF), 0);
            forms[f].fn(d, x, scratch, NULL);
            cr_assert_eq(fr_x8_init(FR_X8_ON), 0);
            forms[f].fn(d, y, scratch, NULL);
            cr_assert(memcmp(x, y, n * sizeof *x) == 0, "%s 2^%u: the 8-lane path differs", forms[f].name, L);
        }
        gm_free(scratch);
        bn_ntt_domain_destroy(d);
    }
    cr_assert_eq(fr_x8_init(FR_X8_AUTO), 0);
    gm_free(x);
    gm_free(y);
}

Test(bn254_ntt, domain_errors)
{
    bn_ntt_domain_t *d = (bn_ntt_domain_t *)&d;
    err_t err = {0};
    cr_expect_eq(bn_ntt_domain_create(&d, 0, &err), GM_EINVAL);
    cr_expect_null(d);
    cr_expect(strstr(err.msg, "bn_ntt") != NULL, "%s", err.msg);
    cr_expect_eq(bn_ntt_domain_create(&d, 29, &err), GM_EINVAL);
    bn_ntt_domain_destroy(NULL);
}
