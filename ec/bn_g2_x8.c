/*
 * bn_g2_x8.c — BN254's G2 batch-affine additions on 8 lanes with AVX-512
 * IFMA, the bucket additions of ec/bn_msm.c's G2 MSM (a Groth16 proof's B)
 * on CPUs that have it: the batch of ec/add_x8_shape.h over Fp2 = Fp[u] /
 * (u^2 + 1), each Fp2 lane value two of ec/bn_fp_x8.h's Fp lane values.
 *
 * v52x2_t: 8 lanes of 10 limbs, c0 in l[0 .. 5) and c1 in l[5 .. 10) (one
 * flat array, so that the shape's lane-by-lane selects and zero tests cover
 * both halves). Every v52x2_t that leaves a helper below is reduced (both
 * halves < p) and normalised, and every helper takes them so: unlike Fp's,
 * the Fp2 product has no [0, 2p) form (its halves are differences of
 * products), so mont2p is mont.
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (a CPU without IFMA would fault on them).
 */
#include <stddef.h>

#include "ec/bn_fp_x8.h"

_Static_assert(sizeof(bn_fp2_t) == 64 && offsetof(bn_fp2_t, c1) == 32, "c0 || c1, 4 words each");
_Static_assert(offsetof(bn_g2_affine_t, x) == 0 && offsetof(bn_g2_affine_t, y) == 64, "x || y at the front");

typedef struct { __m512i l[10]; } v52x2_t;

/* Half h (0: c0, 1: c1) of a, and its inverse. */
FF_X8_INLINE v52_t half(const v52x2_t *a, int h)
{
    v52_t o;
    for (int i = 0; i < 5; i++)
        o.l[i] = a->l[5 * h + i];
    return o;
}
FF_X8_INLINE void set_half(v52x2_t *o, int h, const v52_t *v)
{
    for (int i = 0; i < 5; i++)
        o->l[5 * h + i] = v->l[i];
}

/* o = a - b. */
FF_X8_INLINE void vsub(v52x2_t *o, const v52x2_t *a, const v52x2_t *b)
{
    for (int h = 0; h < 2; h++) {
        v52_t x = half(a, h), y = half(b, h);
        v52_sub(&x, &x, &y);
        set_half(o, h, &x);
    }
}

/* Both halves in [0, 2p) -> mod p (the shape calls it on mont2p's and its
 * own running products, here already reduced: a no-op in value). */
FF_X8_INLINE void reduce_once(v52x2_t *x)
{
    for (int h = 0; h < 2; h++) {
        v52_t v = half(x, h);
        v52_reduce_once(&v);
        set_half(x, h, &v);
    }
}

/* o = a b, Karatsuba: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0
 * - a1 b1; the sums (< 2p) go into the product unreduced. Three Fp
 * products. o may alias a or b. */
FF_X8_INLINE void mont(v52x2_t *o, const v52x2_t *a, const v52x2_t *b)
{
    v52_t a0 = half(a, 0), a1 = half(a, 1), b0 = half(b, 0), b1 = half(b, 1), t0, t1, s, u;
    v52_mont(&t0, &a0, &b0);
    v52_mont(&t1, &a1, &b1);
    v52_add_lazy(&s, &a0, &a1);
    v52_add_lazy(&u, &b0, &b1);
    v52_mont(&s, &s, &u);
    v52_sub(&u, &t0, &t1);
    set_half(o, 0, &u);
    v52_sub(&s, &s, &t0);
    v52_sub(&s, &s, &t1);
    set_half(o, 1, &s);
}
FF_X8_INLINE void mont2p(v52x2_t *o, const v52x2_t *a, const v52x2_t *b) { mont(o, a, b); }

/* o = a^2: c0 = (a0 + a1)(a0 - a1), c1 = (a0 + a0) a1. Two Fp products. */
FF_X8_INLINE void msqr(v52x2_t *o, const v52x2_t *a)
{
    v52_t a0 = half(a, 0), a1 = half(a, 1), s, d;
    v52_add_lazy(&s, &a0, &a1);
    v52_sub(&d, &a0, &a1);
    v52_mont(&d, &s, &d);
    v52_add_lazy(&s, &a0, &a0);
    v52_mont(&s, &s, &a1);
    set_half(o, 0, &d);
    set_half(o, 1, &s);
}

/* Lane b = the bn_fp2_t at address lane b of addr (masked-off lanes: the
 * halves of fill). */
FF_X8_INLINE void gather(v52x2_t *o, __m512i addr, __mmask8 k, const bn_fp2_t *fill)
{
    v52_t c0, c1;
    v52_gather(&c0, addr, k, &fill->c0);
    v52_gather(&c1, _mm512_add_epi64(addr, bc(offsetof(bn_fp2_t, c1))), k, &fill->c1);
    set_half(o, 0, &c0);
    set_half(o, 1, &c1);
}

/* The inverse of gather, into the lanes of k only. */
FF_X8_INLINE void scatter(__m512i addr, __mmask8 k, const v52x2_t *v)
{
    v52_t c0 = half(v, 0), c1 = half(v, 1);
    v52_scatter(addr, k, &c0);
    v52_scatter(_mm512_add_epi64(addr, bc(offsetof(bn_fp2_t, c1))), k, &c1);
}

/* Lane b = the coordinates of *p[b], each a row of 64 bytes (c0 || c1);
 * lanes outside k 0. */
FF_X8_INLINE void load_xy(v52x2_t *x, v52x2_t *y, const bn_g2_affine_t *const *p, __mmask8 k)
{
    v52_t c0, c1;
    v52_load_row(&c0, &c1, (const void *const *)p, offsetof(bn_g2_affine_t, x), k);
    set_half(x, 0, &c0);
    set_half(x, 1, &c1);
    v52_load_row(&c0, &c1, (const void *const *)p, offsetof(bn_g2_affine_t, y), k);
    set_half(y, 0, &c0);
    set_half(y, 1, &c1);
}

/* The inverse of load_xy, into the lanes of k only (inf left alone). */
FF_X8_INLINE void store_xy(bn_g2_affine_t *const *p, __mmask8 k, const v52x2_t *x, const v52x2_t *y)
{
    v52_t c0 = half(x, 0), c1 = half(x, 1);
    v52_store_row((void *const *)p, offsetof(bn_g2_affine_t, x), k, &c0, &c1);
    c0 = half(y, 0);
    c1 = half(y, 1);
    v52_store_row((void *const *)p, offsetof(bn_g2_affine_t, y), k, &c0, &c1);
}

#define X8_V v52x2_t
#define X8_NL 10
#define X8_FE bn_fp2
#define X8_FE_ONE BN254_FP2_ONE
#define X8_FE_ZERO BN254_FP2_ZERO
#define X8_AFF bn_g2_affine_t
#define X8_NAME bn_g2_x8
#include "ec/add_x8_shape.h"
