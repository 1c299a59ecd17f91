/*
 * tests/unit/g1_x8_tests.h — the tests of the batch-affine additions on 8
 * lanes written once for every instance of ec/add_x8_shape.h (a template:
 * tests/unit/test_g1_x8.c and test_g2_x8.c, BLS12-381's ec/g1_x8.c and
 * ec/g2_x8.c, test_bn_g1_x8.c and test_bn_g2_x8.c, BN254's ec/bn_g1_x8.c
 * and ec/bn_g2_x8.c, define the parameters and include it once; the suite
 * is named after the kernels):
 * every lane of the Fp product and square equals the field's mul / sqr (and
 * the naive reference of tests/unit/ff_ref.h), the difference the field's
 * sub, on random values and on edge values around the radix's and the
 * 64-bit limb boundaries, p and 2p (the products take factors < 2p); on G2
 * the same for Fp2's lanes, their halves edge or random values below p;
 * batches of additions, doublings, subtractions, P + (-P) both ways and
 * repeated points of every length from 1 to 41 and of 1001 equal the scalar
 * batch (G_add_batch on the scalar path) and Jacobian sums; the first point
 * off the curve in an array (G_first_off_curve) on lanes and off. Skipped
 * on a CPU without AVX-512 IFMA.
 *
 * Parameters:
 *   X8T          g1_x8 | g2_x8 | bn_g1_x8 | bn_g2_x8 (the suite name and the
 *                kernels' prefix)
 *   X8T_FE       fp | bn_fp;  X8T_N, X8T_M: its limb count and modulus
 *   X8T_BITS     bits of p (381 | 254);  X8T_RADIX: the lanes' limb bits (48 | 52)
 *   X8T_ZERO, X8T_ONE        0 and 1 in Fp
 *   X8T_G        g1 | g2 | bn_g1 | bn_g2;  X8T_GEN: its generator
 *   X8T_CF       the coordinates' field: X8T_FE on G1; on G2 its Fp2
 *                (fp2 | bn_fp2) and X8T_CF_ONE its 1, with X8T_G2 defined
 *   X8T_FR       fr | bn_fr;  X8T_FR_M, X8T_FR_ONE: its modulus (4 limbs) and 1
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

#define X8T_CAT_(a, b) a##b
#define X8T_CAT(a, b) X8T_CAT_(a, b)
#define X8T_(name) X8T_CAT(X8T, name)
#define FE_(name) X8T_CAT(X8T_FE, name)
#ifndef X8T_CF
#define X8T_CF X8T_FE
#define X8T_CF_ONE X8T_ONE
#endif
#define CF_(name) X8T_CAT(X8T_CF, name)
#define G_(name) X8T_CAT(X8T_G, name)
#define FR_(name) X8T_CAT(X8T_FR, name)
#define X8T_STR_(x) #x
#define X8T_STR(x) X8T_STR_(x)
#define X8T_WHO(test) X8T_STR(X8T) "/" test

static void need_ifma(void)
{
    if (fr_x8_init(FR_X8_ON) != 0)
        cr_skip_test("this CPU has no AVX-512 IFMA");
}

static FE_(_t) rand_fp(test_rng_t *rng)
{
    FE_(_t) a;
    ref_random_below(a.l, X8T_M, X8T_N, rng);
    return a;
}

/* a + p (a < p), a value the products take but FE_(_t) never holds. */
static FE_(_t) plus_p(const FE_(_t) *a)
{
    FE_(_t) o;
    unsigned char c = 0;
    for (int i = 0; i < X8T_N; i++)
        c = _addcarry_u64(c, a->l[i], X8T_M[i], (unsigned long long *)&o.l[i]);
    return o;
}

/* Stored values (the Montgomery integers themselves) at the edges of the
 * radix's and the 64-bit limbs and of p, then the same plus p: the first nlo are
 * < p, the rest in [p, 2p). */
static size_t edge_values(FE_(_t) *out, size_t *nlo)
{
    size_t n = 0;
    out[n++] = X8T_ZERO;
    out[n++] = X8T_ONE;
    out[n++] = (FE_(_t)){{1, 0, 0, 0}};
    FE_(_t) pm1;
    memcpy(pm1.l, X8T_M, sizeof pm1.l);
    pm1.l[0] -= 1; /* p - 1 */
    out[n++] = pm1;
    pm1.l[0] -= 1;
    out[n++] = pm1;
    for (unsigned k = X8T_RADIX; k < X8T_BITS; k += X8T_RADIX, n += 2) /* 2^k - 1, 2^k */
        ref_pow2_pair(out[n].l, out[n + 1].l, k, X8T_N);
    for (unsigned k = 64; k < X8T_BITS; k += 64, n += 2)
        ref_pow2_pair(out[n].l, out[n + 1].l, k, X8T_N);
    FE_(_t) top, half = X8T_ZERO;
    memset(top.l, 0xff, sizeof top.l);
    top.l[X8T_N - 1] = X8T_M[X8T_N - 1] - 1; /* every limb full below p's top */
    out[n++] = top;
    half.l[(X8T_BITS - 1) / 64] = 1ULL << ((X8T_BITS - 1) % 64); /* 2^(bits - 1) < p */
    out[n++] = half;
    *nlo = n;
    for (size_t i = 0; i < *nlo; i++) /* p .. 2p - 1 */
        out[n++] = plus_p(&out[i]);
    return n;
}

#ifndef X8T_G2
/* x mod p for x < 2p. */
static FE_(_t) mod_p(const FE_(_t) *x)
{
    FE_(_t) o = *x;
    unsigned char b = 0;
    FE_(_t) d;
    for (int i = 0; i < X8T_N; i++)
        b = _subborrow_u64(b, x->l[i], X8T_M[i], (unsigned long long *)&d.l[i]);
    return b ? o : d;
}

/* The lane operations on a and b (< 2p) against FE_(_mul) / FE_(_sqr) on
 * their residues and, on the plain values, the reference; the difference
 * where both are < p. */
static void check_ops(const FE_(_t) a[8], const FE_(_t) b[8])
{
    FE_(_t) mul[8], sqr[8], sub[8], want;
    X8T_(_fp_ops)(mul, sqr, sub, a, b);
    for (int k = 0; k < 8; k++) {
        FE_(_t) ra = mod_p(&a[k]), rb = mod_p(&b[k]);
        FE_(_mul)(&want, &ra, &rb);
        cr_assert(FE_(_eq)(&mul[k], &want), "mul lane %d: a = %016llx..%016llx b = %016llx..%016llx", k,
                  (unsigned long long)a[k].l[X8T_N - 1], (unsigned long long)a[k].l[0], (unsigned long long)b[k].l[X8T_N - 1],
                  (unsigned long long)b[k].l[0]);
        /* FE_(_mul) is a b R^-1: checked once more on the integers */
        uint64_t ab[X8T_N], gotR[X8T_N], d[X8T_N];
        ref_mulmod(ab, ra.l, rb.l, X8T_M, X8T_N);
        ref_mulmod(gotR, mul[k].l, X8T_ONE.l, X8T_M, X8T_N); /* ONE's integer: R mod p */
        cr_assert(memcmp(ab, gotR, sizeof ab) == 0, "mul lane %d: out R != a b", k);
        FE_(_sqr)(&want, &ra);
        cr_assert(FE_(_eq)(&sqr[k], &want), "sqr lane %d", k);
        if (FE_(_eq)(&ra, &a[k]) && FE_(_eq)(&rb, &b[k])) {
            ref_submod(d, a[k].l, b[k].l, X8T_M, X8T_N);
            cr_assert(memcmp(d, sub[k].l, sizeof d) == 0, "sub lane %d", k);
        }
    }
}

/* Every ordered pair of edge values, then random pairs (a quarter of the
 * factors lifted to [p, 2p)), 8 pairs at a time. */
Test(X8T, fp_lanes_match_field_and_reference)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, X8T_WHO("fp_lanes_match_field_and_reference"));
    FE_(_t) e[64];
    size_t nlo, ne = edge_values(e, &nlo);
    cr_assert(ne <= 64 && nlo < ne);
    size_t npairs = ne * ne + 8 * 2000;
    FE_(_t) a[8], b[8];
    for (size_t i = 0; i < npairs; i += 8) {
        for (size_t k = 0; k < 8; k++) {
            size_t q = i + k;
            bool edge = q < ne * ne;
            a[k] = edge ? e[q / ne] : rand_fp(&rng);
            b[k] = edge ? e[q % ne] : rand_fp(&rng);
            if (!edge && (q & 3) == 1)
                a[k] = plus_p(&a[k]);
            if (!edge && (q & 7) == 2)
                b[k] = plus_p(&b[k]);
        }
        check_ops(a, b);
    }
}

static CF_(_t) rand_cf(test_rng_t *rng) { return rand_fp(rng); }
#else
/* Fp2's lane product, square and difference against the field's, lane by
 * lane (the lanes want both halves < p). */
static void check_ops2(const CF_(_t) a[8], const CF_(_t) b[8])
{
    CF_(_t) mul[8], sqr[8], sub[8], want;
    X8T_(_fp_ops)(mul, sqr, sub, a, b);
    for (int k = 0; k < 8; k++) {
        CF_(_mul)(&want, &a[k], &b[k]);
        cr_assert(CF_(_eq)(&mul[k], &want), "mul lane %d", k);
        CF_(_sqr)(&want, &a[k]);
        cr_assert(CF_(_eq)(&sqr[k], &want), "sqr lane %d", k);
        CF_(_sub)(&want, &a[k], &b[k]);
        cr_assert(CF_(_eq)(&sub[k], &want), "sub lane %d", k);
    }
}

/* Every ordered pair of edge values below p as the halves of a (b's halves
 * other edge values), then random values, 8 pairs at a time. */
Test(X8T, fp2_lanes_match_field)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, X8T_WHO("fp2_lanes_match_field"));
    FE_(_t) e[64];
    size_t nlo;
    edge_values(e, &nlo);
    size_t npairs = nlo * nlo + 8 * 2000;
    CF_(_t) a[8], b[8];
    for (size_t i = 0; i < npairs; i += 8) {
        for (size_t k = 0; k < 8; k++) {
            size_t q = i + k;
            if (q < nlo * nlo) {
                a[k] = (CF_(_t)){e[q / nlo], e[q % nlo]};
                b[k] = (CF_(_t)){e[(q * 7 + 3) % nlo], e[(q * 13 + 1) % nlo]};
            } else {
                a[k] = (CF_(_t)){rand_fp(&rng), rand_fp(&rng)};
                b[k] = (CF_(_t)){rand_fp(&rng), rand_fp(&rng)};
            }
        }
        check_ops2(a, b);
    }
}

static CF_(_t) rand_cf(test_rng_t *rng) { return (CF_(_t)){rand_fp(rng), rand_fp(rng)}; }
#endif

/* A random point of G1 (affine, not at infinity). */
static G_(_affine_t) rand_point(test_rng_t *rng)
{
    FR_(_t) k;
    uint64_t l[4];
    ref_random_below(l, X8T_FR_M, 4, rng);
    cr_assert(FR_(_from_limbs)(&k, l) == 0);
    if (FR_(_is_zero)(&k))
        k = X8T_FR_ONE;
    G_(_jac_t) j, g;
    G_(_from_affine)(&g, &X8T_GEN);
    G_(_mul_fr)(&j, &g, &k);
    G_(_affine_t) a;
    G_(_to_affine)(&a, &j);
    return a;
}

#define NMAX 1001

/* n entries acc[a] += +-pt[a] of six kinds in turn: an addition, a
 * doubling (pt a copy of acc), a subtraction, P + (-P) through neg (the
 * identity), P + (-P) through the point itself, and the previous entry's
 * point once more (one point added to several buckets); on the lanes, on
 * the scalar G_(_add_batch), and in Jacobian coordinates. */
static void check_batch(size_t n, test_rng_t *rng)
{
    static G_(_affine_t) acc[NMAX], ref[NMAX], pt[NMAX], want[NMAX];
    static G_(_affine_t) *accp[NMAX], *refp[NMAX];
    static const G_(_affine_t) *ptp[NMAX];
    static uint8_t neg[NMAX];
    static char scratch[1 << 20] __attribute__((aligned(64)));
    cr_assert(n <= NMAX && X8T_(_scratch_size)(n) <= sizeof scratch &&
              G_(_add_batch_scratch_size)(n) <= sizeof scratch);
    for (size_t a = 0; a < n; a++) {
        acc[a] = rand_point(rng);
        int kind = (int)(a % 6);
        pt[a] = kind >= 3 || kind == 1 ? acc[a] : rand_point(rng);
        if (kind == 4) /* -acc */
            CF_(_neg)(&pt[a].y, &acc[a].y);
        neg[a] = kind == 2 || kind == 3;
        ptp[a] = kind == 5 && a > 0 ? ptp[a - 1] : &pt[a];
        G_(_jac_t) s, p, q;
        G_(_from_affine)(&p, &acc[a]);
        G_(_affine_t) signed_pt = *ptp[a];
        if (neg[a])
            CF_(_neg)(&signed_pt.y, &signed_pt.y);
        G_(_from_affine)(&q, &signed_pt);
        G_(_add)(&s, &p, &q);
        G_(_to_affine)(&want[a], &s);
        ref[a] = acc[a];
        accp[a] = &acc[a];
        refp[a] = &ref[a];
    }
    cr_assert(fr_x8_init(FR_X8_OFF) == 0); /* the reference: G_add_batch's scalar path */
    G_(_add_batch)(n, refp, ptp, neg, scratch);
    cr_assert(fr_x8_init(FR_X8_ON) == 0);
    X8T_(_add_batch)(n, accp, ptp, neg, scratch);
    for (size_t a = 0; a < n; a++) {
        cr_assert(want[a].inf ? acc[a].inf : !acc[a].inf && G_(_affine_eq)(&acc[a], &want[a]),
                  "n = %zu: entry %zu (kind %d) differs from Jacobian", n, a, (int)(a % 6));
        cr_assert(acc[a].inf == ref[a].inf && (acc[a].inf || G_(_affine_eq)(&acc[a], &ref[a])),
                  "n = %zu: entry %zu (kind %d) differs from the scalar batch", n, a, (int)(a % 6));
    }
}

Test(X8T, batch_every_length)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, X8T_WHO("batch_every_length"));
    for (size_t n = 1; n <= 41; n++)
        check_batch(n, &rng);
    check_batch(NMAX, &rng); /* many blocks on both chains, a partial last one */
}

/* G_first_off_curve on lanes and on the scalar path: n points (some at
 * infinity) all on the curve give n; with points pushed off it (y + 1) at
 * chosen places, the first of them, wherever it falls in a block of 8. */
Test(X8T, first_off_curve)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, X8T_WHO("first_off_curve"));
    enum { N = 37 };
    static G_(_affine_t) p[N];
    for (size_t i = 0; i < N; i++) {
        p[i] = rand_point(&rng);
        if (i % 5 == 3)
            G_(_affine_set_inf)(&p[i]);
    }
    static const size_t bad[][2] = {{0, N}, {7, N}, {8, 30}, {9, 10}, {15, 36}, {36, N}, {12, 4}};
    for (int path = 0; path < 2; path++) {
        cr_assert(fr_x8_init(path ? FR_X8_OFF : FR_X8_ON) == 0);
        cr_assert_eq(G_(_first_off_curve)(p, N), N, "path %d: every point is on the curve", path);
        cr_assert_eq(G_(_first_off_curve)(p, 0), 0);
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            G_(_affine_t) q[N];
            memcpy(q, p, sizeof q);
            size_t want = N;
            for (int m = 0; m < 2; m++) {
                size_t i = bad[k][m];
                if (i >= N || i % 5 == 3) /* past the end, or an identity: left alone */
                    continue;
                CF_(_t) one = X8T_CF_ONE;
                CF_(_add)(&q[i].y, &q[i].y, &one);
                want = i < want ? i : want;
            }
            cr_assert_eq(G_(_first_off_curve)(q, N), want, "path %d, case %zu", path, k);
            cr_assert_eq(G_(_first_off_curve)(q, want), want, "path %d, case %zu, the prefix", path, k);
        }
    }
    cr_assert(fr_x8_init(FR_X8_AUTO) == 0);
}

/* bench msm's floor8 kernel: x y^(2 reps + 1), lane by lane. */
Test(X8T, mul_chain)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, X8T_WHO("mul_chain"));
    CF_(_t) x[8], y[8], want[8];
    for (int k = 0; k < 8; k++) {
        x[k] = rand_cf(&rng);
        y[k] = rand_cf(&rng);
        want[k] = x[k];
        for (int i = 0; i < 2 * 5 + 1; i++)
            CF_(_mul)(&want[k], &want[k], &y[k]);
    }
    X8T_(_fp_mul_chain)(x, y, 5);
    for (int k = 0; k < 8; k++)
        cr_assert(CF_(_eq)(&x[k], &want[k]), "lane %d", k);
}
