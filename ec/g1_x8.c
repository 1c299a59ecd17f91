/*
 * g1_x8.c — batch-affine G1 additions on 8 lanes with AVX-512 IFMA, the
 * MSM's bucket additions (ec/msm.c batch_run) on CPUs that have it.
 *
 * Fp lives here in 8 limbs of 48 bits. 8 x 48 = 384, so the Montgomery
 * product in radix 2^48 has R = 2^384, the library's own R: mont(aR, bR) =
 * abR is exactly fp_mul's result, and a value moves between memory (fp_t: 6
 * x 64-bit limbs) and lanes by shifts alone, with no change of domain (a
 * radix-2^52 product would need R = 2^416 and a conversion product at each
 * end). IFMA multiplies the low 52 bits of its inputs, so 48-bit limbs fit
 * with 4 bits to spare; the high half of a 48 x 48-bit product (bits 52 to
 * 95) lands 4 bits above the next limb's weight, so the high halves
 * accumulate in their own columns (H) and join a column shifted left by 4.
 *
 * The batch is the trick of batch_run, 8 entries per vector: the bucket's
 * and the point's coordinates gathered by address, den = x2 - x1 and num =
 * +-y2 - y1 in lanes (the rare equal x, a doubling or P + (-P), fixed up
 * per lane), and every lambda = num / den with one shared inversion.
 * Forward, two chains of running products (blocks alternate between them,
 * so two independent products are in flight); one scalar inversion of the
 * 16 lane products; backward, 1 / den per entry; then lambda, x3 = lambda^2
 * - x1 - x2 and y3 = lambda (x1 - x3) - y1 from the coordinates kept in
 * scratch, scattered back to the buckets. Six 8-lane products per 8
 * additions, 33 IFMA instructions per lane-product.
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (the same switch as Fr's lanes: a CPU without
 * IFMA would fault on them).
 */
#include <stddef.h>
#include <string.h>

#define FF_X8_LANES /* ff/ff.h's lane helpers */
#include "base/base.h"
#include "ec/ec.h"

_Static_assert(sizeof(fp_t) == 48, "fp_addrs assumes 6 x 64-bit limbs");


#define M48 0xffffffffffffULL

/* p in radix 2^48, and -p^-1 mod 2^48. */
static const uint64_t P48[8] = {
    0xffffffffaaabULL, 0xb153ffffb9feULL, 0xf6241eabfffeULL, 0x6730d2a0f6b0ULL,
    0x4b84f38512bfULL, 0x434bacd76477ULL, 0xe69a4b1ba7b6ULL, 0x1a0111ea397fULL,
};
#define PINV48 0xfffcfffcfffdULL

/*
 * v48_t: 8 lanes of 8 limbs. Every v48_t that leaves a helper below is
 * reduced (< p) with normalised limbs (< 2^48), and every helper takes them
 * so, except mont2p: its output is normalised but only < 2p, and goes only
 * into another product (mont and mont2p take factors < 2p) or reduce_once.
 * Inside mont_to() the columns are unnormalised: each of 8 rounds adds at
 * most two low halves (< 2^52) to a low column and two high halves (< 2^45:
 * a square's doubled factor is < 2^49) to a high column, plus a carry
 * (< 2^10), so low columns stay < 2^57 and high columns < 2^50, far inside
 * 64 bits.
 */
typedef struct { __m512i l[8]; } v48_t;

#define bc ff_x8_bc /* the short name: constants are broadcast on most lines below */

/* x in [-p, p) -> x mod p, normalised (ff_x8_fix); o = a - b mod p. */
FF_X8_INLINE void fix(v48_t *x) { ff_x8_fix(x->l, 8, 48, P48); }
FF_X8_INLINE void vsub(v48_t *o, const v48_t *a, const v48_t *b) { ff_x8_sub(o->l, a->l, b->l, 8, 48, P48); }

/* x in [0, 2p), normalised -> x mod p: p subtracted unless that goes
 * negative. */
FF_X8_INLINE void reduce_once(v48_t *x)
{
    const __m512i m48 = bc(M48);
    v48_t d;
    for (int k = 0; k < 8; k++)
        d.l[k] = _mm512_sub_epi64(x->l[k], bc(P48[k]));
    for (int k = 0; k < 7; k++) {
        d.l[k + 1] = _mm512_add_epi64(d.l[k + 1], _mm512_srai_epi64(d.l[k], 48));
        d.l[k] = _mm512_and_si512(d.l[k], m48);
    }
    __mmask8 ge = _mm512_cmpge_epi64_mask(d.l[7], _mm512_setzero_si512());
    for (int k = 0; k < 8; k++)
        x->l[k] = _mm512_mask_mov_epi64(x->l[k], ge, d.l[k]);
}

/* o = a b 2^-384 mod p, reduced when full, else only < 2p: operand
 * scanning, one limb of b per round, the reduction by m = t0 (-p^-1) mod
 * 2^48 interleaved. a, b < 2p suffice: (ab + mp) / R < (4p^2 + Rp) / R < 2p
 * as 4p < R = 2^384. o may alias a or b. */
FF_X8_INLINE void mont_to(v48_t *o, const v48_t *a, const v48_t *b, bool full, bool sq)
{
    const __m512i z = _mm512_setzero_si512(), m48 = bc(M48);
    __m512i L[9], H[9]; /* column k = L[k] + 16 H[k] */
    for (int k = 0; k < 9; k++)
        L[k] = H[k] = z;
    /* unrolled, the columns stay in registers (rolled, GCC shifts them
     * down with register moves every round) */
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        /* a square (b = a) takes a_i a_j once, doubled, in row min(i, j):
         * column i is still complete after row i (rows i' <= i/2 feed it) */
        __m512i bi = b->l[i], bi2 = _mm512_add_epi64(bi, bi);
        for (int j = sq ? i : 0; j < 8; j++)
            L[j] = _mm512_madd52lo_epu64(L[j], a->l[j], sq && j > i ? bi2 : bi);
        for (int j = sq ? i : 0; j < 8; j++)
            H[j + 1] = _mm512_madd52hi_epu64(H[j + 1], a->l[j], sq && j > i ? bi2 : bi);
        /* IFMA reads t0's low 52 bits, enough for m mod 2^48 */
        __m512i t0 = _mm512_add_epi64(L[0], _mm512_slli_epi64(H[0], 4));
        __m512i m = _mm512_and_si512(_mm512_madd52lo_epu64(z, t0, bc(PINV48)), m48);
        for (int j = 0; j < 8; j++)
            L[j] = _mm512_madd52lo_epu64(L[j], m, bc(P48[j]));
        for (int j = 0; j < 8; j++)
            H[j + 1] = _mm512_madd52hi_epu64(H[j + 1], m, bc(P48[j]));
        /* column 0 is a multiple of 2^48 now: carry it up, shift down */
        t0 = _mm512_add_epi64(L[0], _mm512_slli_epi64(H[0], 4));
        L[1] = _mm512_add_epi64(L[1], _mm512_srli_epi64(t0, 48));
        for (int j = 0; j < 8; j++) {
            L[j] = L[j + 1];
            H[j] = H[j + 1];
        }
        L[8] = H[8] = z;
    }
    /* < 2p < 2^382: normalise, then subtract p unless that goes negative */
    __m512i c = z;
    for (int k = 0; k < 8; k++) {
        __m512i t = _mm512_add_epi64(_mm512_add_epi64(L[k], _mm512_slli_epi64(H[k], 4)), c);
        c = _mm512_srli_epi64(t, 48);
        o->l[k] = _mm512_and_si512(t, m48);
    }
    if (full)
        reduce_once(o);
}

/* The reduced product, and the one left in [0, 2p) for a value whose only
 * use is as a factor of another product (it saves reduce_once). */
FF_X8_INLINE void mont(v48_t *o, const v48_t *a, const v48_t *b) { mont_to(o, a, b, true, false); }
FF_X8_INLINE void mont2p(v48_t *o, const v48_t *a, const v48_t *b) { mont_to(o, a, b, false, false); }
/* o = a^2, reduced: 36 partial products instead of 64. */
FF_X8_INLINE void msqr(v48_t *o, const v48_t *a) { mont_to(o, a, a, true, true); }

/* Lane b = the fp_t at address lane b of addr (masked-off lanes: the limbs
 * of fill), 6 x 64 -> 8 x 48 bits. */
FF_X8_INLINE void gather(v48_t *o, __m512i addr, __mmask8 k, const fp_t *fill)
{
    __m512i L[6];
    for (int i = 0; i < 6; i++)
        L[i] = _mm512_mask_i64gather_epi64(bc(fill->l[i]), k, _mm512_add_epi64(addr, bc(8 * (uint64_t)i)),
                                           (const void *)0, 1);
    const __m512i m = bc(M48);
    for (int h = 0; h < 2; h++) { /* limbs 3h .. 3h+2 hold 4 limbs of 48 */
        __m512i A = L[3 * h], B = L[3 * h + 1], C = L[3 * h + 2];
        o->l[4 * h] = _mm512_and_si512(A, m);
        o->l[4 * h + 1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(A, 48), _mm512_slli_epi64(B, 16)), m);
        o->l[4 * h + 2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(B, 32), _mm512_slli_epi64(C, 32)), m);
        o->l[4 * h + 3] = _mm512_srli_epi64(C, 16);
    }
}

/* The inverse of gather, into the lanes of k only. */
FF_X8_INLINE void scatter(__m512i addr, __mmask8 k, const v48_t *v)
{
    for (int h = 0; h < 2; h++) {
        const __m512i *l = &v->l[4 * h];
        __m512i L[3];
        L[0] = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 48));
        L[1] = _mm512_or_si512(_mm512_srli_epi64(l[1], 16), _mm512_slli_epi64(l[2], 32));
        L[2] = _mm512_or_si512(_mm512_srli_epi64(l[2], 32), _mm512_slli_epi64(l[3], 16));
        for (int i = 0; i < 3; i++)
            _mm512_mask_i64scatter_epi64((void *)0, k, _mm512_add_epi64(addr, bc(8 * (uint64_t)(3 * h + i))), L[i], 1);
    }
}

/* Addresses of x[0 .. 7] (an fp_t array). */
FF_X8_INLINE __m512i fp_addrs(const fp_t *x)
{
    const __m512i off = _mm512_setr_epi64(0, 48, 96, 144, 192, 240, 288, 336); /* lane * sizeof(fp_t) */
    return _mm512_add_epi64(bc((uint64_t)(uintptr_t)x), off);
}

/* Lanes of block b that hold one of the n entries. */
FF_X8_INLINE __mmask8 block_mask(size_t n, size_t b)
{
    size_t left = n - 8 * b;
    return left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
}

FF_X8_INLINE void v48_to_fp(fp_t out[8], const v48_t *v)
{
    uint64_t t[8][8];
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512(t[i], v->l[i]);
    for (int b = 0; b < 8; b++) {
        const uint64_t x[8] = {t[0][b], t[1][b], t[2][b], t[3][b], t[4][b], t[5][b], t[6][b], t[7][b]};
        out[b].l[0] = x[0] | x[1] << 48;
        out[b].l[1] = x[1] >> 16 | x[2] << 32;
        out[b].l[2] = x[2] >> 32 | x[3] << 16;
        out[b].l[3] = x[4] | x[5] << 48;
        out[b].l[4] = x[5] >> 16 | x[6] << 32;
        out[b].l[5] = x[6] >> 32 | x[7] << 16;
    }
}

FF_X8_INLINE void fp_to_v48(v48_t *o, const fp_t in[8]) { gather(o, fp_addrs(in), 0xff, &FP_ZERO_ELEM); }

/* Scratch per block of 8: the running product (then 1 / den), den, num,
 * x1, y1, x2; after the S_N vectors of every block, a byte per block. */
enum { S_PRE, S_DEN, S_NUM, S_X1, S_Y1, S_X2, S_N };

/* ---- the exported kernels (ec.h) -------------------------------------- */

size_t g1_x8_scratch_size(size_t n) { return (n + 7) / 8 * (S_N * sizeof(v48_t) + 1) + 64; }

FF_X8 void g1_x8_fp_ops(fp_t mul[8], fp_t sqr[8], fp_t sub[8], const fp_t a[8], const fp_t b[8])
{
    v48_t x, y, o;
    fp_to_v48(&x, a);
    fp_to_v48(&y, b);
    mont(&o, &x, &y);
    v48_to_fp(mul, &o);
    msqr(&o, &x);
    v48_to_fp(sqr, &o);
    vsub(&o, &x, &y);
    v48_to_fp(sub, &o);
}

FF_X8 void g1_x8_fp_mul_chain(fp_t x[8], const fp_t y[8], size_t reps)
{
    v48_t a, b, c;
    fp_to_v48(&a, x);
    fp_to_v48(&c, y);
    b = c;
    for (size_t i = 0; i < reps; i++) {
        mont(&a, &a, &c);
        mont(&b, &b, &c);
    }
    mont(&a, &a, &b);
    v48_to_fp(x, &a);
}

/* Lane l of inv[c] = 1 / lane l of acc[c], for the 16 lanes of the two
 * chains: one fp_inv and 45 products (Montgomery's trick once more). */
FF_X8 static void invert16(v48_t inv[2], const v48_t acc[2])
{
    fp_t t[16], s[16], u, w;
    v48_to_fp(t, &acc[0]);
    v48_to_fp(t + 8, &acc[1]);
    s[0] = t[0];
    for (int i = 1; i < 16; i++)
        fp_mul(&s[i], &s[i - 1], &t[i]);
    fp_inv(&u, &s[15]);
    for (int i = 15; i > 0; i--) {
        fp_mul(&w, &u, &s[i - 1]); /* 1 / t[i] */
        fp_mul(&u, &u, &t[i]);
        s[i] = w;
    }
    s[0] = u;
    fp_to_v48(&inv[0], s);
    fp_to_v48(&inv[1], s + 8);
}

/* Lanes of x that are 0. */
FF_X8_INLINE __mmask8 v48_zero(const v48_t *x)
{
    __m512i o = x->l[0];
    for (int i = 1; i < 8; i++)
        o = _mm512_or_si512(o, x->l[i]);
    return _mm512_cmpeq_epi64_mask(o, _mm512_setzero_si512());
}

/* The lanes z of block acc[0 .. 7] where x1 = x2 (den = 0): with y2 = y1
 * (num = 0) a doubling, the tangent 3 x1^2 / 2 y1 (y1 != 0: G1 has no
 * 2-torsion); otherwise P + (-P): the bucket becomes the identity (inf,
 * its coordinates left as they are) and the lane leaves *keep, with den = 1
 * so that the running products stay invertible. Rare: equal points or
 * scalars only. */
FF_X8_INLINE void equal_x(v48_t *den, v48_t *num, __mmask8 z, g1_affine_t *const *acc, __mmask8 *keep)
{
    fp_t d[8], q[8];
    v48_to_fp(d, den);
    v48_to_fp(q, num);
    for (int l = 0; l < 8; l++) {
        if (!((z >> l) & 1))
            continue;
        g1_affine_t *p = acc[l];
        if (fp_is_zero(&q[l])) {
            fp_t t;
            fp_add(&d[l], &p->y, &p->y);
            fp_sqr(&t, &p->x);
            fp_add(&q[l], &t, &t);
            fp_add(&q[l], &q[l], &t);
        } else {
            d[l] = FP_ONE;
            q[l] = FP_ZERO_ELEM;
            p->inf = true;
            *keep &= (__mmask8)~(1u << l);
        }
    }
    fp_to_v48(den, d);
    fp_to_v48(num, q);
}

FF_X8 void g1_x8_add_batch(size_t n, g1_affine_t *const *acc, const g1_affine_t *const *pt, const uint8_t *neg,
                        void *scratch)
{
    if (n == 0)
        return;
    size_t nblk = (n + 7) / 8;
    v48_t *S = (v48_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    __mmask8 *keep = (__mmask8 *)(S + S_N * nblk); /* per block: the lanes whose sum is written */
    const __m512i xoff = bc(offsetof(g1_affine_t, x)), yoff = bc(offsetof(g1_affine_t, y));
    v48_t one, run[2];
    gather(&one, _mm512_setzero_si512(), 0, &FP_ONE); /* no lane read: one in every lane */
    run[0] = run[1] = one;
    /* Coordinates, den = x2 - x1 and num = +-y2 - y1, and the running
     * products: pre = the product of the chain's earlier dens. */
    for (size_t b = 0; b < nblk; b++) {
        v48_t *B = S + S_N * b, y2, t;
        __mmask8 k = block_mask(n, b), ng = 0;
        for (size_t l = 0; l < 8 && 8 * b + l < n; l++) {
            ng |= (__mmask8)((neg[8 * b + l] != 0) << l);
            if (8 * b + 8 + l < n) { /* the next block's points */
                __builtin_prefetch(acc[8 * b + 8 + l]);
                __builtin_prefetch((const char *)acc[8 * b + 8 + l] + sizeof(g1_affine_t) - 1);
                __builtin_prefetch(pt[8 * b + 8 + l]);
                __builtin_prefetch((const char *)pt[8 * b + 8 + l] + sizeof(g1_affine_t) - 1);
            }
        }
        __m512i pa = _mm512_maskz_loadu_epi64(k, acc + 8 * b), pp = _mm512_maskz_loadu_epi64(k, pt + 8 * b);
        gather(&B[S_X1], _mm512_add_epi64(pa, xoff), k, &FP_ZERO_ELEM);
        gather(&B[S_Y1], _mm512_add_epi64(pa, yoff), k, &FP_ZERO_ELEM);
        gather(&B[S_X2], _mm512_add_epi64(pp, xoff), k, &FP_ZERO_ELEM);
        gather(&y2, _mm512_add_epi64(pp, yoff), k, &FP_ZERO_ELEM);
        if (ng) {
            v48_t zero;
            for (int i = 0; i < 8; i++)
                zero.l[i] = _mm512_setzero_si512();
            vsub(&t, &zero, &y2);
            for (int i = 0; i < 8; i++)
                y2.l[i] = _mm512_mask_mov_epi64(y2.l[i], ng, t.l[i]);
        }
        vsub(&B[S_DEN], &B[S_X2], &B[S_X1]);
        vsub(&B[S_NUM], &y2, &B[S_Y1]);
        for (int i = 0; i < 8; i++) /* lanes past n: den = 1 */
            B[S_DEN].l[i] = _mm512_mask_mov_epi64(one.l[i], k, B[S_DEN].l[i]);
        keep[b] = k;
        __mmask8 z = v48_zero(&B[S_DEN]) & k;
        if (z)
            equal_x(&B[S_DEN], &B[S_NUM], z, acc + 8 * b, &keep[b]);
        B[S_PRE] = run[b & 1];
        mont2p(&run[b & 1], &run[b & 1], &B[S_DEN]);
    }
    v48_t inv[2];
    reduce_once(&run[0]);
    reduce_once(&run[1]);
    invert16(inv, run);
    /* Backward: 1 / den = inv * pre, then inv *= den. */
    for (size_t b = nblk; b-- > 0;) {
        v48_t *B = S + S_N * b;
        mont2p(&B[S_PRE], &inv[b & 1], &B[S_PRE]);
        mont2p(&inv[b & 1], &inv[b & 1], &B[S_DEN]);
    }
    /* The sums: lambda = num / den, x3 = lambda^2 - x1 - x2, y3 = lambda
     * (x1 - x3) - y1. */
    for (size_t b = 0; b < nblk; b++) {
        v48_t *B = S + S_N * b, lam, x3, t;
        mont2p(&lam, &B[S_NUM], &B[S_PRE]);
        msqr(&x3, &lam);
        vsub(&x3, &x3, &B[S_X1]);
        vsub(&x3, &x3, &B[S_X2]);
        vsub(&t, &B[S_X1], &x3);
        mont(&t, &t, &lam);
        vsub(&t, &t, &B[S_Y1]);
        __m512i pa = _mm512_maskz_loadu_epi64(keep[b], acc + 8 * b);
        scatter(_mm512_add_epi64(pa, xoff), keep[b], &x3);
        scatter(_mm512_add_epi64(pa, yoff), keep[b], &t);
    }
}
