/*
 * tests/unit/test_bn_g1_x8.c — BN254's G1 batch-affine additions on 8 lanes
 * (ec/bn_g1_x8.c): every lane of the radix-2^52 Fp product and square
 * equals bn_fp_mul / bn_fp_sqr (and the naive reference of
 * tests/unit/ff_ref.h), the difference bn_fp_sub, on random values and on
 * edge values around the 52- and 64-bit limb boundaries, p and 2p (the
 * products take factors < 2p); batches of additions, doublings,
 * subtractions, P + (-P) both ways and repeated points of every length from
 * 1 to 41 and of 1001 equal bn_g1_add_batch's scalar sums and Jacobian ones.
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

static bn_fp_t rand_fp(test_rng_t *rng)
{
    bn_fp_t a;
    ref_random_below(a.l, BN254_FP_MODULUS, BN254_LIMBS, rng);
    return a;
}

/* a + p (a < p), a value the products take but bn_fp_t never holds. */
static bn_fp_t plus_p(const bn_fp_t *a)
{
    bn_fp_t o;
    unsigned char c = 0;
    for (int i = 0; i < BN254_LIMBS; i++)
        c = _addcarry_u64(c, a->l[i], BN254_FP_MODULUS[i], (unsigned long long *)&o.l[i]);
    return o;
}

/* Stored values (the Montgomery integers themselves) at the edges of the
 * 52- and 64-bit limbs and of p, then the same plus p: the first nlo are
 * < p, the rest in [p, 2p). */
static size_t edge_values(bn_fp_t *out, size_t *nlo)
{
    size_t n = 0;
    out[n++] = BN254_FP_ZERO;
    out[n++] = BN254_FP_ONE;
    out[n++] = (bn_fp_t){{1, 0, 0, 0}};
    bn_fp_t pm1;
    memcpy(pm1.l, BN254_FP_MODULUS, sizeof pm1.l);
    pm1.l[0] -= 1; /* p - 1 */
    out[n++] = pm1;
    pm1.l[0] -= 1;
    out[n++] = pm1;
    for (unsigned k = 52; k < 254; k += 52) { /* 2^k - 1, 2^k */
        bn_fp_t lo = BN254_FP_ZERO, hi = BN254_FP_ZERO;
        for (unsigned b = 0; b < k; b++)
            lo.l[b / 64] |= 1ULL << (b % 64);
        hi.l[k / 64] = 1ULL << (k % 64);
        out[n++] = lo;
        out[n++] = hi;
    }
    for (unsigned k = 64; k < 254; k += 64) {
        bn_fp_t lo = BN254_FP_ZERO, hi = BN254_FP_ZERO;
        for (unsigned b = 0; b < k; b++)
            lo.l[b / 64] |= 1ULL << (b % 64);
        hi.l[k / 64] = 1;
        out[n++] = lo;
        out[n++] = hi;
    }
    out[n++] = (bn_fp_t){{~0ULL, ~0ULL, ~0ULL, BN254_FP_MODULUS[3] - 1}}; /* every limb full below p's top */
    *nlo = n;
    for (size_t i = 0; i < *nlo; i++) /* p .. 2p - 1 */
        out[n++] = plus_p(&out[i]);
    return n;
}

/* x mod p for x < 2p. */
static bn_fp_t mod_p(const bn_fp_t *x)
{
    bn_fp_t o = *x;
    unsigned char b = 0;
    bn_fp_t d;
    for (int i = 0; i < BN254_LIMBS; i++)
        b = _subborrow_u64(b, x->l[i], BN254_FP_MODULUS[i], (unsigned long long *)&d.l[i]);
    return b ? o : d;
}

/* The lane operations on a and b (< 2p) against bn_fp_mul / bn_fp_sqr on
 * their residues and, on the plain values, the reference; the difference
 * where both are < p. */
static void check_ops(const bn_fp_t a[8], const bn_fp_t b[8])
{
    bn_fp_t mul[8], sqr[8], sub[8], want;
    bn_g1_x8_fp_ops(mul, sqr, sub, a, b);
    for (int k = 0; k < 8; k++) {
        bn_fp_t ra = mod_p(&a[k]), rb = mod_p(&b[k]);
        bn_fp_mul(&want, &ra, &rb);
        cr_assert(bn_fp_eq(&mul[k], &want), "mul lane %d: a = %016llx..%016llx b = %016llx..%016llx", k,
                  (unsigned long long)a[k].l[3], (unsigned long long)a[k].l[0], (unsigned long long)b[k].l[3],
                  (unsigned long long)b[k].l[0]);
        /* bn_fp_mul is a b R^-1: checked once more on the integers */
        uint64_t ab[BN254_LIMBS], gotR[BN254_LIMBS], d[BN254_LIMBS];
        ref_mulmod(ab, ra.l, rb.l, BN254_FP_MODULUS, BN254_LIMBS);
        ref_mulmod(gotR, mul[k].l, BN254_FP_ONE.l, BN254_FP_MODULUS, BN254_LIMBS); /* ONE's integer: R mod p */
        cr_assert(memcmp(ab, gotR, sizeof ab) == 0, "mul lane %d: out R != a b", k);
        bn_fp_sqr(&want, &ra);
        cr_assert(bn_fp_eq(&sqr[k], &want), "sqr lane %d", k);
        if (bn_fp_eq(&ra, &a[k]) && bn_fp_eq(&rb, &b[k])) {
            ref_submod(d, a[k].l, b[k].l, BN254_FP_MODULUS, BN254_LIMBS);
            cr_assert(memcmp(d, sub[k].l, sizeof d) == 0, "sub lane %d", k);
        }
    }
}

/* Every ordered pair of edge values, then random pairs (a quarter of the
 * factors lifted to [p, 2p)), 8 pairs at a time. */
Test(bn_g1_x8, fp_lanes_match_bn_fp_and_reference)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "bn_g1_x8/fp_lanes_match_bn_fp_and_reference");
    bn_fp_t e[64];
    size_t nlo, ne = edge_values(e, &nlo);
    cr_assert(ne <= 64 && nlo < ne);
    size_t npairs = ne * ne + 8 * 2000;
    bn_fp_t a[8], b[8];
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

/* A random point of G1 (affine, not at infinity). */
static bn_g1_affine_t rand_point(test_rng_t *rng)
{
    bn_fr_t k;
    uint64_t l[4];
    ref_random_below(l, BN254_FR_MODULUS, BN254_LIMBS, rng);
    cr_assert(bn_fr_from_limbs(&k, l) == 0);
    if (bn_fr_is_zero(&k))
        k = BN254_FR_ONE;
    bn_g1_jac_t j, g;
    bn_g1_from_affine(&g, &BN254_G1_GENERATOR);
    bn_g1_mul_fr(&j, &g, &k);
    bn_g1_affine_t a;
    bn_g1_to_affine(&a, &j);
    return a;
}

#define NMAX 1001

/* n entries acc[a] += +-pt[a] of six kinds in turn: an addition, a
 * doubling (pt a copy of acc), a subtraction, P + (-P) through neg (the
 * identity), P + (-P) through the point itself, and the previous entry's
 * point once more (one point added to several buckets); on the lanes, on
 * the scalar bn_g1_add_batch, and in Jacobian coordinates. */
static void check_batch(size_t n, test_rng_t *rng)
{
    static bn_g1_affine_t acc[NMAX], ref[NMAX], pt[NMAX], want[NMAX];
    static bn_g1_affine_t *accp[NMAX], *refp[NMAX];
    static const bn_g1_affine_t *ptp[NMAX];
    static uint8_t neg[NMAX];
    static char scratch[1 << 20] __attribute__((aligned(64)));
    cr_assert(n <= NMAX && bn_g1_x8_scratch_size(n) <= sizeof scratch &&
              bn_g1_add_batch_scratch_size(n) <= sizeof scratch);
    for (size_t a = 0; a < n; a++) {
        acc[a] = rand_point(rng);
        int kind = (int)(a % 6);
        pt[a] = kind >= 3 || kind == 1 ? acc[a] : rand_point(rng);
        if (kind == 4) /* -acc */
            bn_fp_neg(&pt[a].y, &acc[a].y);
        neg[a] = kind == 2 || kind == 3;
        ptp[a] = kind == 5 && a > 0 ? ptp[a - 1] : &pt[a];
        bn_g1_jac_t s, p, q;
        bn_g1_from_affine(&p, &acc[a]);
        bn_g1_affine_t signed_pt = *ptp[a];
        if (neg[a])
            bn_fp_neg(&signed_pt.y, &signed_pt.y);
        bn_g1_from_affine(&q, &signed_pt);
        bn_g1_add(&s, &p, &q);
        bn_g1_to_affine(&want[a], &s);
        ref[a] = acc[a];
        accp[a] = &acc[a];
        refp[a] = &ref[a];
    }
    bn_g1_add_batch(n, refp, ptp, neg, scratch);
    bn_g1_x8_add_batch(n, accp, ptp, neg, scratch);
    for (size_t a = 0; a < n; a++) {
        cr_assert(want[a].inf ? acc[a].inf : !acc[a].inf && bn_g1_affine_eq(&acc[a], &want[a]),
                  "n = %zu: entry %zu (kind %d) differs from Jacobian", n, a, (int)(a % 6));
        cr_assert(acc[a].inf == ref[a].inf && (acc[a].inf || bn_g1_affine_eq(&acc[a], &ref[a])),
                  "n = %zu: entry %zu (kind %d) differs from bn_g1_add_batch", n, a, (int)(a % 6));
    }
}

Test(bn_g1_x8, batch_every_length)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "bn_g1_x8/batch_every_length");
    for (size_t n = 1; n <= 41; n++)
        check_batch(n, &rng);
    check_batch(NMAX, &rng); /* many blocks on both chains, a partial last one */
}

/* bench msm's floor8 kernel for BN254: x y^(2 reps + 1), lane by lane. */
Test(bn_g1_x8, mul_chain)
{
    need_ifma();
    test_rng_t rng;
    test_rng_init(&rng, "bn_g1_x8/mul_chain");
    bn_fp_t x[8], y[8], want[8];
    for (int k = 0; k < 8; k++) {
        x[k] = rand_fp(&rng);
        y[k] = rand_fp(&rng);
        want[k] = x[k];
        for (int i = 0; i < 2 * 5 + 1; i++)
            bn_fp_mul(&want[k], &want[k], &y[k]);
    }
    bn_g1_x8_fp_mul_chain(x, y, 5);
    for (int k = 0; k < 8; k++)
        cr_assert(bn_fp_eq(&x[k], &want[k]), "lane %d", k);
}
