/*
 * ec/fp2_x8_shape.h — Fp2 = Fp[u] / (u^2 + 1) on 8 lanes (AVX-512 IFMA),
 * each Fp2 lane value two of a curve's Fp lane values: a template, not a
 * header. BN254's (ec/bn_g2_x8.c over ec/bn_fp_x8.h) and BLS12-381's
 * (ec/g2_x8.c over ec/fp_x8.h) G2 include it once, after their Fp's
 * helpers, and get ec/add_x8_shape.h's field helpers (vsub, reduce_once,
 * mont, mont2p, msqr, gather, scatter) over fp2x8_t; load_xy and store_xy
 * stay the instance's (a point's rows differ between the curves).
 *
 * Parameters (#define before the #include):
 *   FP2X8_B     v52 | v48: prefix of the Fp lane type (FP2X8_B##_t) and of
 *               its helpers _sub, _reduce_once, _mont, _add_lazy, _gather,
 *               _scatter (both curves' Fp products take factors < 2p, and
 *               _add_lazy of two values < p is < 2p)
 *   FP2X8_NL    that type's limb count (5 | 8)
 *   FP2X8_MEM   the Fp2 type in memory (bn_fp2_t | fp2_t: c0, then c1)
 *
 * fp2x8_t: 8 lanes of 2 FP2X8_NL limbs, c0 in l[0 .. NL) and c1 in l[NL ..
 * 2 NL) (one flat array, so that the batch's lane-by-lane selects and zero
 * tests cover both halves). Every fp2x8_t that leaves a helper below is
 * reduced (both halves < p) and normalised, and every helper takes them so:
 * unlike Fp's, the Fp2 product has no [0, 2p) form (its halves are
 * differences of products), so mont2p is mont. Neither product uses Fp's
 * square (the BLS one doubles limbs of one factor): Fp2's square is two
 * products of different factors.
 */
#ifndef FP2X8_B
#error "fp2_x8_shape.h is a template: define FP2X8_B, FP2X8_NL, FP2X8_MEM and include it once"
#endif

#define FP2X8_CAT_(a, b) a##b
#define FP2X8_CAT(a, b) FP2X8_CAT_(a, b)
#define B_(name) FP2X8_CAT(FP2X8_B, name)
#define fpx8_t B_(_t)

typedef struct { __m512i l[2 * FP2X8_NL]; } fp2x8_t;

/* Half h (0: c0, 1: c1) of a, and its inverse. */
FF_X8_INLINE fpx8_t half(const fp2x8_t *a, int h)
{
    fpx8_t o;
    for (int i = 0; i < FP2X8_NL; i++)
        o.l[i] = a->l[FP2X8_NL * h + i];
    return o;
}
FF_X8_INLINE void set_half(fp2x8_t *o, int h, const fpx8_t *v)
{
    for (int i = 0; i < FP2X8_NL; i++)
        o->l[FP2X8_NL * h + i] = v->l[i];
}

/* o = a - b. */
FF_X8_INLINE void vsub(fp2x8_t *o, const fp2x8_t *a, const fp2x8_t *b)
{
    for (int h = 0; h < 2; h++) {
        fpx8_t x = half(a, h), y = half(b, h);
        B_(_sub)(&x, &x, &y);
        set_half(o, h, &x);
    }
}

/* Both halves in [0, 2p) -> mod p (the shape calls it on mont2p's and its
 * own running products, here already reduced: a no-op in value). */
FF_X8_INLINE void reduce_once(fp2x8_t *x)
{
    for (int h = 0; h < 2; h++) {
        fpx8_t v = half(x, h);
        B_(_reduce_once)(&v);
        set_half(x, h, &v);
    }
}

/* o = a b, Karatsuba: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0
 * - a1 b1; the sums (< 2p) go into the product unreduced. Three Fp
 * products. o may alias a or b. */
FF_X8_INLINE void mont(fp2x8_t *o, const fp2x8_t *a, const fp2x8_t *b)
{
    fpx8_t a0 = half(a, 0), a1 = half(a, 1), b0 = half(b, 0), b1 = half(b, 1), t0, t1, s, u;
    B_(_mont)(&t0, &a0, &b0);
    B_(_mont)(&t1, &a1, &b1);
    B_(_add_lazy)(&s, &a0, &a1);
    B_(_add_lazy)(&u, &b0, &b1);
    B_(_mont)(&s, &s, &u);
    B_(_sub)(&u, &t0, &t1);
    set_half(o, 0, &u);
    B_(_sub)(&s, &s, &t0);
    B_(_sub)(&s, &s, &t1);
    set_half(o, 1, &s);
}
FF_X8_INLINE void mont2p(fp2x8_t *o, const fp2x8_t *a, const fp2x8_t *b) { mont(o, a, b); }

/* o = a^2: c0 = (a0 + a1)(a0 - a1), c1 = (a0 + a0) a1. Two Fp products. */
FF_X8_INLINE void msqr(fp2x8_t *o, const fp2x8_t *a)
{
    fpx8_t a0 = half(a, 0), a1 = half(a, 1), s, d;
    B_(_add_lazy)(&s, &a0, &a1);
    B_(_sub)(&d, &a0, &a1);
    B_(_mont)(&d, &s, &d);
    B_(_add_lazy)(&s, &a0, &a0);
    B_(_mont)(&s, &s, &a1);
    set_half(o, 0, &d);
    set_half(o, 1, &s);
}

/* Lane b = the FP2X8_MEM at address lane b of addr (masked-off lanes: the
 * halves of fill). */
FF_X8_INLINE void gather(fp2x8_t *o, __m512i addr, __mmask8 k, const FP2X8_MEM *fill)
{
    fpx8_t c0, c1;
    B_(_gather)(&c0, addr, k, &fill->c0);
    B_(_gather)(&c1, _mm512_add_epi64(addr, bc(offsetof(FP2X8_MEM, c1))), k, &fill->c1);
    set_half(o, 0, &c0);
    set_half(o, 1, &c1);
}

/* The inverse of gather, into the lanes of k only. */
FF_X8_INLINE void scatter(__m512i addr, __mmask8 k, const fp2x8_t *v)
{
    fpx8_t c0 = half(v, 0), c1 = half(v, 1);
    B_(_scatter)(addr, k, &c0);
    B_(_scatter)(_mm512_add_epi64(addr, bc(offsetof(FP2X8_MEM, c1))), k, &c1);
}
