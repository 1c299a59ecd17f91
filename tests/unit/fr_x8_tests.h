/*
 * tests/unit/fr_x8_tests.h — the tests of a scalar field's 8-lane kernels
 * (ff/fr_ifma_shape.h) written once for both curves (a template:
 * tests/unit/test_fr_ifma.c, BLS12-381's ff/fr_ifma.c, and
 * test_bn_fr_ifma.c, BN254's ff/bn_fr_ifma.c, define the parameters and
 * include it once): every lane of every product, sum and difference equals
 * the naive reference of tests/unit/ff_ref.h (on the plain values) and the
 * field's mul / add / sub, on random values and on edge values around the
 * 52- and 64-bit limb boundaries and r; the butterfly and scaling kernels
 * equal their scalar definitions. Skipped on a CPU without AVX-512 IFMA.
 *
 * Parameters:
 *   FRT          fr_ifma | bn_fr_ifma (the suite name)
 *   FRT_FE       fr | bn_fr (the prefix of the field and its kernels)
 *   FRT_N, FRT_M its limb count and modulus;  FRT_BITS: bits of r (255 | 254)
 *   FRT_ZERO, FRT_ONE        0 and 1
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

#define FRT_CAT_(a, b) a##b
#define FRT_CAT(a, b) FRT_CAT_(a, b)
#define FE_(name) FRT_CAT(FRT_FE, name)
#define fe_t FE_(_t)
#define tw_t FE_(_tw_t)
#define tw8_t FE_(_tw8_t)
#define FRT_STR_(x) #x
#define FRT_STR(x) FRT_STR_(x)
#define FRT_WHO(test) FRT_STR(FRT) "/" test

static void need_ifma(void)
{
    if (fr_x8_init(FR_X8_ON) != 0)
        cr_skip_test("this CPU has no AVX-512 IFMA");
}

static fe_t rand_any(test_rng_t *rng)
{
    fe_t a;
    ref_random_below(a.l, FRT_M, FRT_N, rng);
    return a;
}

/* Stored values (the Montgomery integers themselves) at the edges of the
 * radix-2^52 and 2^64 limbs and of r: each is < r. */
static size_t edge_values(fe_t *out)
{
    size_t n = 0;
    out[n++] = FRT_ZERO;
    out[n++] = FRT_ONE;
    out[n++] = (fe_t){{1, 0, 0, 0}};
    fe_t rm1 = {{FRT_M[0] - 1, FRT_M[1], FRT_M[2], FRT_M[3]}};
    out[n++] = rm1;                                    /* r - 1 */
    out[n++] = (fe_t){{FRT_M[0] - 2, FRT_M[1], FRT_M[2], FRT_M[3]}};
    out[n++] = (fe_t){{0, FRT_M[1], FRT_M[2], FRT_M[3]}}; /* r with its low limb cleared */
    for (unsigned k = 52; k < FRT_BITS; k += 52, n += 2) /* 2^k - 1, 2^k */
        ref_pow2_pair(out[n].l, out[n + 1].l, k, FRT_N);
    for (unsigned k = 64; k < FRT_BITS; k += 64, n += 2)
        ref_pow2_pair(out[n].l, out[n + 1].l, k, FRT_N);
    fe_t top = {{~0ULL, ~0ULL, ~0ULL, FRT_M[3] - 1}}; /* all 52-bit limbs full below r's top */
    out[n++] = top;
    out[n++] = (fe_t){{0, 0, 0, 1ULL << (FRT_BITS - 193)}}; /* 2^(bits - 1) */
    return n;
}

static void expect_lanes(const fe_t got[8], const fe_t want[8], const char *what, const fe_t *a, const fe_t *b)
{
    for (int k = 0; k < 8; k++)
        if (!FE_(_eq)(&got[k], &want[k]))
            cr_assert(false, "%s lane %d: a = %016llx..%016llx b = %016llx..%016llx", what, k,
                      (unsigned long long)a[k].l[3], (unsigned long long)a[k].l[0],
                      (unsigned long long)b[k].l[3], (unsigned long long)b[k].l[0]);
}

/* out = the three 8-lane operations on a and b, checked lane by lane against
 * the field's and, on the plain values, against the reference. */
static void check_ops(const fe_t a[8], const fe_t b[8])
{
    fe_t got[8], want[8];
    FE_(_x8_mul)(got, a, b);
    for (int k = 0; k < 8; k++) {
        FE_(_mul)(&want[k], &a[k], &b[k]);
        uint64_t pa[4], pb[4], pg[4], pw[4];
        FE_(_to_limbs)(pa, &a[k]);
        FE_(_to_limbs)(pb, &b[k]);
        FE_(_to_limbs)(pg, &got[k]);
        ref_mulmod(pw, pa, pb, FRT_M, FRT_N);
        cr_assert(memcmp(pg, pw, sizeof pg) == 0, "mul lane %d against the reference", k);
    }
    expect_lanes(got, want, "mul", a, b);
    static const struct {
        const char *name;
        void (*x8)(fe_t *, const fe_t *, const fe_t *);
        void (*one)(fe_t *, const fe_t *, const fe_t *);
        void (*ref)(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, int);
    } ops[2] = {{"add", FE_(_x8_add), FE_(_add), ref_addmod}, {"sub", FE_(_x8_sub), FE_(_sub), ref_submod}};
    for (int op = 0; op < 2; op++) { /* Montgomery form is linear: the stored values add as plain ones */
        ops[op].x8(got, a, b);
        for (int k = 0; k < 8; k++) {
            ops[op].one(&want[k], &a[k], &b[k]);
            uint64_t w[4];
            ops[op].ref(w, a[k].l, b[k].l, FRT_M, FRT_N);
            cr_assert(memcmp(w, got[k].l, sizeof w) == 0, "%s lane %d against the reference", ops[op].name, k);
        }
        expect_lanes(got, want, ops[op].name, a, b);
    }
    /* the prepared forms: one factor for all lanes, one per lane */
    tw_t f;
    tw8_t f8;
    FE_(_tw_from)(&f, &b[3]);
    FE_(_x8_mul_tw)(got, a, &f);
    for (int k = 0; k < 8; k++) {
        FE_(_mul)(&want[k], &a[k], &b[3]);
        FE_(_tw8_set)(&f8, (unsigned)k, &b[k]);
    }
    expect_lanes(got, want, "mul_tw", a, b);
    memcpy(got, a, sizeof got);
    FE_(_x8_mul_tw8)(got, &f8);
    for (int k = 0; k < 8; k++)
        FE_(_mul)(&want[k], &a[k], &b[k]);
    expect_lanes(got, want, "mul_tw8", a, b);
}

Test(FE_(_ifma), random_lanes_match_scalar_and_reference)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "FE_(_ifma)/random_lanes_match_scalar_and_reference");
    for (int it = 0; it < 4000; it++) {
        fe_t a[8], b[8];
        for (int k = 0; k < 8; k++) {
            a[k] = rand_any(&rng);
            b[k] = rand_any(&rng);
        }
        check_ops(a, b);
    }
}

Test(FE_(_ifma), edge_values_every_pair)
{
    need_ifma();
    fe_t e[32];
    size_t n = edge_values(e);
    cr_assert(n <= 32);
    for (size_t i = 0; i < n; i++)
    {
        uint64_t red[4];
        ref_reduce(red, e[i].l, FRT_M, FRT_N);
        cr_assert(memcmp(red, e[i].l, sizeof red) == 0, "edge value %zu is not below r", i);
    }
    /* every ordered pair, 8 pairs per call, lanes rotated through */
    fe_t a[8], b[8];
    size_t fill = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            a[fill] = e[i];
            b[fill] = e[j];
            if (++fill == 8) {
                check_ops(a, b);
                fill = 0;
            }
        }
    for (; fill && fill < 8; fill++) {
        a[fill] = FRT_ONE;
        b[fill] = e[0];
    }
    if (fill)
        check_ops(a, b);
}

/* The butterfly kernels against the scalar formula, on random points with a
 * lane stride (columns) and with per-lane twiddles (rows). */
Test(FE_(_ifma), butterflies_match_scalar)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "FE_(_ifma)/butterflies_match_scalar");
    enum { LS = 3, QS = 40, DQS = 29 };
    fe_t x[4 * QS + 8 * LS], y[4 * QS + 8 * LS], e[32];
    size_t ne = edge_values(e);
    for (int it = 0; it < 400; it++) {
        /* odd rounds: points and twiddles drawn from the edge values (the
         * products' factors reach their bounds: r - 1 - 0 + r etc.) */
        bool edge = it & 1;
        for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
            x[i] = edge ? e[test_rng_next(&rng) % ne] : rand_any(&rng);
        fe_t w[3][8];
        tw_t tw[3];
        tw8_t tw8[3];
        for (int t = 0; t < 3; t++) {
            for (int k = 0; k < 8; k++) {
                w[t][k] = edge ? e[test_rng_next(&rng) % ne] : rand_any(&rng);
                FE_(_tw8_set)(&tw8[t], (unsigned)k, &w[t][k]);
            }
            FE_(_tw_from)(&tw[t], &w[t][0]);
        }
        for (int form = 0; form < 4; form++) {
            /* 0: broadcast twiddles, 1: wa = wc = 1, 2: per-lane, 3: radix 2 */
            size_t ls = form == 2 ? 1 : LS;
            memcpy(y, x, sizeof x);
            if (form == 0) { /* out of place, another point stride; copied back for the checks */
                fe_t z[4 * DQS + 8 * LS];
                FE_(_x8_dif4)(z, DQS, y, QS, ls, &tw[0], &tw[1], &tw[2]);
                for (size_t k = 0; k < 4; k++)
                    for (size_t b = 0; b < 8; b++)
                        y[k * QS + b * ls] = z[k * DQS + b * ls];
            } else if (form == 1) {
                FE_(_x8_dif4)(y, QS, y, QS, ls, NULL, &tw[1], NULL);
            } else if (form == 2) {
                FE_(_x8_dif4v)(y, QS, &tw8[0], &tw8[1], &tw8[2]);
            } else {
                FE_(_x8_dif2)(y, QS, y, QS, ls);
            }
            for (size_t b = 0; b < 8; b++) {
                fe_t p[4], y0, y1, y2, y3;
                for (int k = 0; k < 4; k++)
                    p[k] = x[k * QS + b * ls];
                const fe_t *wa = form == 2 ? &w[0][b] : &w[0][0], *wb = form == 2 ? &w[1][b] : &w[1][0],
                           *wc = form == 2 ? &w[2][b] : &w[2][0];
                if (form == 3) {
                    FE_(_add)(&y0, &p[0], &x[QS + b * ls]);
                    FE_(_sub)(&y1, &p[0], &x[QS + b * ls]);
                    cr_assert(FE_(_eq)(&y[b * ls], &y0) && FE_(_eq)(&y[QS + b * ls], &y1), "dif2 lane %zu", b);
                    continue;
                }
                FE_(_add)(&y0, &p[0], &p[2]);
                FE_(_sub)(&y2, &p[0], &p[2]);
                FE_(_add)(&y1, &p[1], &p[3]);
                FE_(_sub)(&y3, &p[1], &p[3]);
                FE_(_mul)(&y3, &y3, wb);
                if (form != 1)
                    FE_(_mul)(&y2, &y2, wa);
                FE_(_add)(&p[0], &y0, &y1);
                FE_(_sub)(&p[1], &y0, &y1);
                FE_(_add)(&p[2], &y2, &y3);
                FE_(_sub)(&p[3], &y2, &y3);
                if (form != 1) {
                    FE_(_mul)(&p[1], &p[1], wc);
                    FE_(_mul)(&p[3], &p[3], wc);
                }
                for (int k = 0; k < 4; k++)
                    cr_assert(FE_(_eq)(&y[k * QS + b * ls], &p[k]), "dif4 form %d lane %zu point %d", form, b, k);
            }
            /* points the kernel does not own are untouched */
            for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
                bool owned = false;
                for (size_t k = 0; k < (form == 3 ? 2u : 4u); k++)
                    for (size_t b = 0; b < 8; b++)
                        owned |= i == k * QS + b * ls;
                if (!owned)
                    cr_assert(FE_(_eq)(&x[i], &y[i]), "form %d wrote point %zu", form, i);
            }
        }
    }
}

Test(FE_(_ifma), scale_chain_matches_scalar)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "FE_(_ifma)/scale_chain_matches_scalar");
    enum { N = 64 };
    fe_t x[N], y[N], t0 = rand_any(&rng), s = rand_any(&rng), t = t0, s8 = s;
    for (int i = 0; i < 3; i++)
        FE_(_sqr)(&s8, &s8);
    tw8_t T;
    tw_t S8;
    for (unsigned k = 0; k < 8; k++) {
        FE_(_tw8_set)(&T, k, &t);
        FE_(_mul)(&t, &t, &s);
    }
    FE_(_tw_from)(&S8, &s8);
    for (int i = 0; i < N; i++)
        x[i] = y[i] = rand_any(&rng);
    FE_(_x8_scale_chain)(y, N, &T, &S8);
    t = t0;
    for (int i = 0; i < N; i++) {
        fe_t w;
        FE_(_mul)(&w, &x[i], &t);
        cr_assert(FE_(_eq)(&w, &y[i]), "element %d", i);
        FE_(_mul)(&t, &t, &s);
    }
}
