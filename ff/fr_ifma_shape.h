/*
 * ff/fr_ifma_shape.h — a scalar field's arithmetic on 8 independent lanes
 * with AVX-512 IFMA (vpmadd52luq / vpmadd52huq: the low or high 52 bits of
 * a 52 x 52-bit product added to a 64-bit lane), for the NTT's butterflies
 * and scalings. Written once and instantiated per field: ff/fr_ifma.c for
 * BLS12-381's Fr (fr_x8_*, with the shared dispatch fr_x8_enabled) and
 * ff/bn_fr_ifma.c for BN254's Fr (bn_fr_x8_*). A template, not a header: a
 * .c file defines FF_X8_LANES and the parameters below, includes ff/ff.h,
 * then this once; it defines the kernels ff/ff.h declares for that field.
 *
 * Parameters (#define before the #include; all are #undef'd at the end):
 *   FRX          fr | bn_fr          prefix of the field's functions and types
 *   FRX_T        fr_t | bn_fr_t
 *   FRX_R52      { 5 limbs }         r in radix 2^52, least significant first
 *   FRX_RINV52   -r^-1 mod 2^52
 * The field must have r < 2^255 (the bounds below) and keep elements in
 * memory as 4 x 64-bit limbs, Montgomery with R = 2^256, reduced.
 *
 * A kernel loads 8 elements, transposes them into limb vectors (lane b =
 * element b) and splits those into 5 limbs of 52 bits; it computes there
 * and joins and transposes back on the way out. The product is a
 * Montgomery product in radix 2^52 with R' = 2^260, so mont260(a, b) =
 * a b 2^-260; the second factor is a twiddle prepared once as 16 b (FRX_tw_t,
 * FRX_tw8_t), and mont260(a, 16 b) = a b 2^-256 is exactly FRX_mul's result.
 * Every value that leaves a helper below is reduced (< r) with normalised
 * limbs (< 2^52, the top one < 2^47 as r < 2^255), so nothing changes for a
 * caller but the speed.
 *
 * Why convert in every kernel rather than keep a 52-bit layout through a
 * pass: the split and join cost about 20 vector instructions per 8 elements
 * each way against about 145 per 8-lane product, and a radix-4 kernel loads
 * and stores each of its 4 points once around 4 products and 8 additions:
 * about 15 % of its instructions, against a second memory layout (5/4 the
 * bytes, a new scratch contract) for every caller. bench/README.md has the
 * measurement.
 *
 * Only the functions marked FF_X8 use AVX-512; they run only after
 * fr_x8_enabled() said yes (a CPU without IFMA would fault on them).
 */
#if !defined(FRX) || !defined(GM_FF_X8_LANES_H)
#error "fr_ifma_shape.h is a template: define FF_X8_LANES, include ff/ff.h, define FRX, FRX_T, ... and include it once"
#endif

#define FRX_CAT_(a, b) a##b
#define FRX_CAT(a, b) FRX_CAT_(a, b)
#define FE_(name) FRX_CAT(FRX, name)
#define fe_t FRX_T
#define tw_t FE_(_tw_t)
#define tw8_t FE_(_tw8_t)

#define M52 0xfffffffffffffULL

static const uint64_t R52[5] = FRX_R52;
#define RINV52 FRX_RINV52

/* ---- prepared factors (scalar) ------------------------------------------------- */

static void split52(uint64_t o[5], const uint64_t l[4])
{
    o[0] = l[0] & M52;
    o[1] = ((l[0] >> 52) | (l[1] << 12)) & M52;
    o[2] = ((l[1] >> 40) | (l[2] << 24)) & M52;
    o[3] = ((l[2] >> 28) | (l[3] << 36)) & M52;
    o[4] = l[3] >> 16;
}

void FE_(_tw_from)(tw_t *out, const fe_t *a)
{
    fe_t t;
    FE_(_dbl)(&t, a);
    FE_(_dbl)(&t, &t);
    FE_(_dbl)(&t, &t);
    FE_(_dbl)(&t, &t); /* 16 a: mont260(x, 16 a) = x a 2^-256 */
    split52(out->l, t.l);
}

void FE_(_tw8_set)(tw8_t *out, unsigned lane, const fe_t *a)
{
    tw_t t;
    FE_(_tw_from)(&t, a);
    for (int i = 0; i < 5; i++)
        out->l[i][lane & 7] = t.l[i];
}

/* ---- 8-lane helpers -------------------------------------------------------------
 *
 * v52_t: 8 lanes of 5 limbs. Bounds, where each helper keeps them:
 *  - inputs of mont(): limbs < 2^52 (IFMA reads only the low 52 bits), the
 *    first factor < 2r (vsub_lazy's output), the second < r;
 *  - mont() accumulates unnormalised columns: each of 5 rounds adds at most
 *    two low and two high 52-bit halves (< 2^52 each) to a column and the
 *    carry of the column shifted out (< 2^7), so every column stays
 *    < 20 * 2^52 + 2^7 < 2^57; its value is (a b + m r) / 2^260 < r/16 + r
 *    < 2r (a < 2r, b < r < 2^255, m < 2^260);
 *  - fix() takes any value in [-r, r) whose limbs are signed 64-bit numbers
 *    of magnitude < 2^62 and returns it reduced into [0, r), limbs < 2^52.
 */
typedef struct { __m512i l[5]; } v52_t;

#define bc ff_x8_bc /* the short name: constants are broadcast on most lines below */

/* x in [-r, r) -> x mod r, normalised (ff_x8_fix). */
FF_X8_INLINE void fix(v52_t *x) { ff_x8_fix(x->l, 5, 52, R52); }

FF_X8_INLINE void vadd(v52_t *o, const v52_t *a, const v52_t *b)
{
    for (int i = 0; i < 5; i++) /* a + b - r in [-r, r) */
        o->l[i] = _mm512_sub_epi64(_mm512_add_epi64(a->l[i], b->l[i]), bc(R52[i]));
    fix(o);
}

FF_X8_INLINE void vsub(v52_t *o, const v52_t *a, const v52_t *b) { ff_x8_sub(o->l, a->l, b->l, 5, 52, R52); }

/* o = a - b + r in (0, 2r), normalised but not reduced: only for a factor of
 * mont() (which takes values < 2r, below), saving fix()'s correction. */
FF_X8_INLINE void vsub_lazy(v52_t *o, const v52_t *a, const v52_t *b)
{
    const __m512i m = bc(M52);
    for (int i = 0; i < 5; i++)
        o->l[i] = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], b->l[i]), bc(R52[i]));
    for (int i = 0; i < 4; i++) { /* limbs may be negative, the whole is not */
        o->l[i + 1] = _mm512_add_epi64(o->l[i + 1], _mm512_srai_epi64(o->l[i], 52));
        o->l[i] = _mm512_and_si512(o->l[i], m);
    }
}

/* o = a b 2^-260 mod r (operand scanning: one limb of b per round, the
 * reduction by m = t0 (-r^-1) mod 2^52 interleaved). o may alias a or b. */
FF_X8_INLINE void mont(v52_t *o, const v52_t *a, const v52_t *b)
{
    const __m512i z = _mm512_setzero_si512();
    __m512i t[6] = {z, z, z, z, z, z};
    for (int i = 0; i < 5; i++) {
        ff_x8_mont52_round(t, a->l, b->l[i], R52, RINV52, M52);
        /* t0's low 52 bits are 0 now: shift the columns down by one. */
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
        for (int j = 0; j < 5; j++)
            t[j] = t[j + 1];
        t[5] = z;
    }
    for (int i = 0; i < 5; i++) /* < 2r, so t - r is in [-r, r) */
        o->l[i] = _mm512_sub_epi64(t[i], bc(R52[i]));
    fix(o);
}

/* o = (v0 ia v1, v0 ib v1, v2 ia v3, v2 ib v3), "x i y" the vpermt2q of
 * x and y by i: one level of the 4 x 8 transposes below. */
FF_X8_INLINE void perm_pairs(__m512i o[4], __m512i v0, __m512i v1, __m512i v2, __m512i v3, __m512i ia, __m512i ib)
{
    o[0] = _mm512_permutex2var_epi64(v0, ia, v1);
    o[1] = _mm512_permutex2var_epi64(v0, ib, v1);
    o[2] = _mm512_permutex2var_epi64(v2, ia, v3);
    o[3] = _mm512_permutex2var_epi64(v2, ib, v3);
}

#define IDX_I0 _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13)
#define IDX_I1 _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15)
#define IDX_LO _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11)
#define IDX_HI _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15)

/* Lane b of the 8 points is x[b * ls]: 4 x 64-bit limbs -> limb vectors ->
 * 5 x 52 bits. A..D hold elements (0,1), (2,3), (4,5), (6,7). */
FF_X8_INLINE void load8(v52_t *o, const fe_t *x, size_t ls)
{
    __m512i A, B, C, D;
    if (ls == 1) {
        A = _mm512_loadu_si512(x);
        B = _mm512_loadu_si512(x + 2);
        C = _mm512_loadu_si512(x + 4);
        D = _mm512_loadu_si512(x + 6);
    } else {
#define PAIR(k) _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const void *)(x + (k) * ls))), \
                                   _mm256_loadu_si256((const void *)(x + ((k) + 1) * ls)), 1)
        A = PAIR(0);
        B = PAIR(2);
        C = PAIR(4);
        D = PAIR(6);
#undef PAIR
    }
    __m512i X[4], L[4]; /* X: limbs 0-1 and 2-3 of elements 0-3, then of 4-7 */
    perm_pairs(X, A, B, C, D, IDX_I0, IDX_I1);
    perm_pairs(L, X[0], X[2], X[1], X[3], IDX_LO, IDX_HI);
    __m512i L0 = L[0], L1 = L[1], L2 = L[2], L3 = L[3];
    const __m512i m = bc(M52);
    /* (p | q) & m: ternary-logic truth table 0xA8 */
    o->l[0] = _mm512_and_si512(L0, m);
    o->l[1] = _mm512_ternarylogic_epi64(_mm512_srli_epi64(L0, 52), _mm512_slli_epi64(L1, 12), m, 0xA8);
    o->l[2] = _mm512_ternarylogic_epi64(_mm512_srli_epi64(L1, 40), _mm512_slli_epi64(L2, 24), m, 0xA8);
    o->l[3] = _mm512_ternarylogic_epi64(_mm512_srli_epi64(L2, 28), _mm512_slli_epi64(L3, 36), m, 0xA8);
    o->l[4] = _mm512_srli_epi64(L3, 16);
}

/* The inverse of load8; v normalised and < r (< 2^256). */
FF_X8_INLINE void store8(fe_t *x, size_t ls, const v52_t *v)
{
    __m512i L0 = _mm512_or_si512(v->l[0], _mm512_slli_epi64(v->l[1], 52));
    __m512i L1 = _mm512_or_si512(_mm512_srli_epi64(v->l[1], 12), _mm512_slli_epi64(v->l[2], 40));
    __m512i L2 = _mm512_or_si512(_mm512_srli_epi64(v->l[2], 24), _mm512_slli_epi64(v->l[3], 28));
    __m512i L3 = _mm512_or_si512(_mm512_srli_epi64(v->l[3], 36), _mm512_slli_epi64(v->l[4], 16));
    __m512i X[4], P[4]; /* X: limbs 0-1 of elements 0-3, of 4-7, limbs 2-3 of 0-3, of 4-7 */
    perm_pairs(X, L0, L1, L2, L3, IDX_LO, IDX_HI);
    perm_pairs(P, X[0], X[2], X[1], X[3], IDX_I0, IDX_I1);
    if (ls == 1) {
        for (int k = 0; k < 4; k++)
            _mm512_storeu_si512(x + 2 * k, P[k]);
    } else {
        for (int k = 0; k < 4; k++) {
            _mm256_storeu_si256((void *)(x + 2 * k * ls), _mm512_castsi512_si256(P[k]));
            _mm256_storeu_si256((void *)(x + (2 * k + 1) * ls), _mm512_extracti64x4_epi64(P[k], 1));
        }
    }
}

FF_X8_INLINE void bcast_tw(v52_t *o, const tw_t *w)
{
    for (int i = 0; i < 5; i++)
        o->l[i] = bc(w->l[i]);
}

FF_X8_INLINE void load_tw8(v52_t *o, const tw8_t *w)
{
    for (int i = 0; i < 5; i++)
        o->l[i] = _mm512_loadu_si512(w->l[i]);
}

/* (u, v) -> (u + v, (u - v) w) twice over, the radix-4 DIF of ntt/ntt.c:
 * the products by wa and wc are skipped when they are NULL (unit). */
FF_X8_INLINE void dif4_core(v52_t p[4], const v52_t *wa, const v52_t *wb, const v52_t *wc)
{
    v52_t y0, y1, y2, y3;
    /* a difference that a product follows need not be reduced first */
    vadd(&y0, &p[0], &p[2]);
    if (wa) {
        vsub_lazy(&y2, &p[0], &p[2]);
        mont(&y2, &y2, wa);
    } else {
        vsub(&y2, &p[0], &p[2]);
    }
    vadd(&y1, &p[1], &p[3]);
    vsub_lazy(&y3, &p[1], &p[3]);
    mont(&y3, &y3, wb);
    vadd(&p[0], &y0, &y1);
    vadd(&p[2], &y2, &y3);
    if (wc) {
        vsub_lazy(&p[1], &y0, &y1);
        vsub_lazy(&p[3], &y2, &y3);
        mont(&p[1], &p[1], wc);
        mont(&p[3], &p[3], wc);
    } else {
        vsub(&p[1], &y0, &y1);
        vsub(&p[3], &y2, &y3);
    }
}

/* ---- the exported kernels (ff.h) ------------------------------------------------ */

FF_X8 void FE_(_x8_mul)(fe_t out[8], const fe_t a[8], const fe_t b[8])
{
    v52_t x, y;
    load8(&x, a, 1);
    load8(&y, b, 1);
    for (int k = 0; k < 4; k++) /* 16 b, the prepared form */
        vadd(&y, &y, &y);
    mont(&x, &x, &y);
    store8(out, 1, &x);
}

FF_X8_INLINE void add_or_sub(fe_t out[8], const fe_t a[8], const fe_t b[8], bool sub)
{
    v52_t x, y;
    load8(&x, a, 1);
    load8(&y, b, 1);
    if (sub)
        vsub(&x, &x, &y);
    else
        vadd(&x, &x, &y);
    store8(out, 1, &x);
}

FF_X8 void FE_(_x8_add)(fe_t out[8], const fe_t a[8], const fe_t b[8]) { add_or_sub(out, a, b, false); }
FF_X8 void FE_(_x8_sub)(fe_t out[8], const fe_t a[8], const fe_t b[8]) { add_or_sub(out, a, b, true); }

FF_X8 void FE_(_x8_mul_tw)(fe_t out[8], const fe_t a[8], const tw_t *f)
{
    v52_t x, y;
    load8(&x, a, 1);
    bcast_tw(&y, f);
    mont(&x, &x, &y);
    store8(out, 1, &x);
}

FF_X8 void FE_(_x8_mul_tw8)(fe_t x[8], const tw8_t *f)
{
    v52_t v, y;
    load8(&v, x, 1);
    load_tw8(&y, f);
    mont(&v, &v, &y);
    store8(x, 1, &v);
}

FF_X8 void FE_(_x8_scale_chain)(fe_t *x, size_t n, const tw8_t *t0, const tw_t *step8)
{
    v52_t t, s, v;
    load_tw8(&t, t0);
    bcast_tw(&s, step8);
    for (size_t j = 0; j < n; j += 8) {
        load8(&v, x + j, 1);
        mont(&v, &v, &t);
        store8(x + j, 1, &v);
        /* 16 t * 16 s8 * 2^-260 = 16 (t s8): t stays prepared */
        if (j + 8 < n)
            mont(&t, &t, &s);
    }
}

FF_X8 void FE_(_x8_dif4)(fe_t *dst, size_t dqs, const fe_t *src, size_t sqs, size_t ls, const tw_t *wa,
                   const tw_t *wb, const tw_t *wc)
{
    v52_t p[4], a, b, c;
    for (int k = 0; k < 4; k++)
        load8(&p[k], src + k * sqs, ls);
    if (wa)
        bcast_tw(&a, wa);
    bcast_tw(&b, wb);
    if (wc)
        bcast_tw(&c, wc);
    dif4_core(p, wa ? &a : NULL, &b, wc ? &c : NULL);
    for (int k = 0; k < 4; k++)
        store8(dst + k * dqs, ls, &p[k]);
}

FF_X8 void FE_(_x8_dif4v)(fe_t *x, size_t qs, const tw8_t *wa, const tw8_t *wb, const tw8_t *wc)
{
    v52_t p[4], a, b, c;
    for (int k = 0; k < 4; k++)
        load8(&p[k], x + k * qs, 1);
    load_tw8(&a, wa);
    load_tw8(&b, wb);
    load_tw8(&c, wc);
    dif4_core(p, &a, &b, &c);
    for (int k = 0; k < 4; k++)
        store8(x + k * qs, 1, &p[k]);
}

FF_X8 void FE_(_x8_dif2)(fe_t *dst, size_t dqs, const fe_t *src, size_t sqs, size_t ls)
{
    v52_t u, v, s;
    load8(&u, src, ls);
    load8(&v, src + sqs, ls);
    vadd(&s, &u, &v);
    vsub(&v, &u, &v);
    store8(dst, ls, &s);
    store8(dst + dqs, ls, &v);
}

#undef FRX_CAT_
#undef FRX_CAT
#undef FE_
#undef fe_t
#undef tw_t
#undef tw8_t
#undef M52
#undef RINV52
#undef bc
#undef IDX_I0
#undef IDX_I1
#undef IDX_LO
#undef IDX_HI
#undef FRX
#undef FRX_T
#undef FRX_R52
#undef FRX_RINV52
