/*
 * tests/unit/test_g1_x8.c — G1 batch-affine additions on 8 lanes
 * (ec/g1_x8.c): every lane of the radix-2^48 Fp product, square and
 * difference equals fp_mul / fp_sqr and the naive reference of
 * tests/unit/ff_ref.h, on random values and on edge values around the 48-
 * and 64-bit limb boundaries and p; a batch of additions, doublings,
 * subtractions and P + (-P) of every length from 1 to 41 (whole and partial
 * blocks, both chains) equals the same sums made in Jacobian coordinates.
 * Skipped on a CPU without AVX-512 IFMA.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

static void need_ifma(void)
{
    if (fr_x8_init(FR_X8_ON) != 0)
        cr_skip_test("this CPU has no AVX-512 IFMA");
}

static fp_t rand_fp(test_rng_t *rng)
{
    fp_t a;
    ref_random_below(a.l, FP_MODULUS, FP_LIMBS, rng);
    return a;
}

/* Stored values (the Montgomery integers themselves) at the edges of the
 * 48- and 64-bit limbs and of p: each is < p. */
static size_t edge_values(fp_t *out)
{
    size_t n = 0;
    out[n++] = FP_ZERO_ELEM;
    out[n++] = FP_ONE;
    out[n++] = (fp_t){{1, 0, 0, 0, 0, 0}};
    fp_t pm1, pm2;
    memcpy(pm1.l, FP_MODULUS, sizeof pm1.l);
    pm1.l[0] -= 1; /* p - 1 */
    pm2 = pm1;
    pm2.l[0] -= 1;
    out[n++] = pm1;
    out[n++] = pm2;
    for (unsigned k = 48; k < 381; k += 48) { /* 2^k - 1, 2^k */
        fp_t lo = FP_ZERO_ELEM, hi = FP_ZERO_ELEM;
        for (unsigned b = 0; b < k; b++)
            lo.l[b / 64] |= 1ULL << (b % 64);
        hi.l[k / 64] = 1ULL << (k % 64);
        out[n++] = lo;
        out[n++] = hi;
    }
    for (unsigned k = 64; k < 381; k += 64) {
        fp_t lo = FP_ZERO_ELEM, hi = FP_ZERO_ELEM;
        for (unsigned b = 0; b < k; b++)
            lo.l[b / 64] |= 1ULL << (b % 64);
        hi.l[k / 64] = 1;
        out[n++] = lo;
        out[n++] = hi;
    }
    fp_t top = {{~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, FP_MODULUS[5] - 1}}; /* every limb full below p's top */
    out[n++] = top;
    out[n++] = (fp_t){{0, 0, 0, 0, 0, 1ULL << 60}}; /* 2^380 */
    return n;
}

/* The two lane operations on a and b, lane by lane against fp_mul / fp_sub
 * and, on the plain values, against the reference. */
static void check_ops(const fp_t a[8], const fp_t b[8])
{
    fp_t mul[8], sqr[8], sub[8], want;
    g1_x8_fp_ops(mul, sqr, sub, a, b);
    for (int k = 0; k < 8; k++) {
        fp_mul(&want, &a[k], &b[k]);
        cr_assert(fp_eq(&mul[k], &want), "mul lane %d: a = %016llx..%016llx b = %016llx..%016llx", k,
                  (unsigned long long)a[k].l[5], (unsigned long long)a[k].l[0], (unsigned long long)b[k].l[5],
                  (unsigned long long)b[k].l[0]);
        /* fp_mul is a b R^-1: checked once more on the integers */
        uint64_t ab[FP_LIMBS], gotR[FP_LIMBS], d[FP_LIMBS];
        ref_mulmod(ab, a[k].l, b[k].l, FP_MODULUS, FP_LIMBS);
        ref_mulmod(gotR, mul[k].l, FP_ONE.l, FP_MODULUS, FP_LIMBS); /* FP_ONE's integer is R mod p */
        cr_assert(memcmp(ab, gotR, sizeof ab) == 0, "mul lane %d: out R != a b", k);
        fp_sqr(&want, &a[k]);
        cr_assert(fp_eq(&sqr[k], &want), "sqr lane %d", k);
        ref_submod(d, a[k].l, b[k].l, FP_MODULUS, FP_LIMBS);
        cr_assert(memcmp(d, sub[k].l, sizeof d) == 0, "sub lane %d", k);
    }
}

/* Every ordered pair of edge values, then random pairs, 8 pairs at a time. */
Test(g1_x8, fp_lanes_match_fp_and_reference)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "g1_x8/fp_lanes_match_fp_and_reference");
    fp_t e[64];
    size_t ne = edge_values(e);
    cr_assert(ne <= 64);
    size_t npairs = ne * ne + 8 * 2000;
    fp_t a[8], b[8];
    for (size_t i = 0; i < npairs; i += 8) {
        for (size_t k = 0; k < 8; k++) {
            size_t q = i + k;
            bool edge = q < ne * ne;
            a[k] = edge ? e[q / ne] : rand_fp(&rng);
            b[k] = edge ? e[q % ne] : rand_fp(&rng);
        }
        check_ops(a, b);
    }
}

/* A random point of G1 (affine, not at infinity). */
static g1_affine_t rand_point(test_rng_t *rng)
{
    fr_t k;
    uint64_t l[4];
    ref_random_below(l, FR_MODULUS, FR_LIMBS, rng);
    cr_assert(fr_from_limbs(&k, l) == 0);
    if (fr_is_zero(&k))
        k = FR_ONE;
    g1_jac_t j, g;
    g1_from_affine(&g, &G1_GENERATOR);
    g1_mul_fr(&j, &g, &k);
    g1_affine_t a;
    g1_to_affine(&a, &j);
    return a;
}

/* n entries acc[a] += +-pt[a] of five kinds in turn: an addition, a
 * doubling (pt a copy of acc), a subtraction, P + (-P) through neg (the
 * identity), P + (-P) through the point itself; each against g1_add /
 * g1_dbl in Jacobian coordinates. */
static void check_batch(size_t n, test_rng_t *rng)
{
    g1_affine_t acc[48], pt[48], want[48];
    g1_affine_t *accp[48];
    const g1_affine_t *ptp[48];
    uint8_t neg[48];
    static char scratch[32768];
    cr_assert(n <= 48 && g1_x8_scratch_size(n) <= sizeof scratch);
    for (size_t a = 0; a < n; a++) {
        acc[a] = rand_point(rng);
        int kind = (int)(a % 5);
        pt[a] = kind >= 3 || kind == 1 ? acc[a] : rand_point(rng);
        if (kind == 4) /* -acc */
            fp_neg(&pt[a].y, &acc[a].y);
        neg[a] = kind == 2 || kind == 3;
        g1_jac_t s, p, q;
        g1_from_affine(&p, &acc[a]);
        g1_affine_t signed_pt = pt[a];
        if (neg[a])
            fp_neg(&signed_pt.y, &pt[a].y);
        g1_from_affine(&q, &signed_pt);
        g1_add(&s, &p, &q);
        g1_to_affine(&want[a], &s);
        accp[a] = &acc[a];
        ptp[a] = &pt[a];
    }
    g1_x8_add_batch(n, accp, ptp, neg, scratch);
    for (size_t a = 0; a < n; a++)
        cr_assert(want[a].inf ? acc[a].inf : g1_affine_eq(&acc[a], &want[a]), "n = %zu: entry %zu (kind %d) differs", n,
                  a, (int)(a % 5));
}

Test(g1_x8, batch_every_length)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "g1_x8/batch_every_length");
    for (size_t n = 1; n <= 41; n++)
        check_batch(n, &rng);
}

/* bench msm's floor8 kernel: x y^(2 reps + 1), lane by lane. */
Test(g1_x8, mul_chain)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "g1_x8/mul_chain");
    fp_t x[8], y[8], want[8];
    for (int k = 0; k < 8; k++) {
        x[k] = rand_fp(&rng);
        y[k] = rand_fp(&rng);
        want[k] = x[k];
        for (int i = 0; i < 2 * 5 + 1; i++)
            fp_mul(&want[k], &want[k], &y[k]);
    }
    g1_x8_fp_mul_chain(x, y, 5);
    for (int k = 0; k < 8; k++)
        cr_assert(fp_eq(&x[k], &want[k]), "lane %d", k);
}
