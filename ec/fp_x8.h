/*
 * ec/fp_x8.h — BLS12-381's Fp on 8 lanes (AVX-512 IFMA) in 8 limbs of 48
 * bits: the lane helpers of ec/g1_x8.c (G1 over Fp) and ec/g2_x8.c (G2 over
 * Fp2 = two of these, ec/fp2_x8_shape.h), included by those two files only.
 *
 * 8 x 48 = 384, so the Montgomery product in radix 2^48 has R = 2^384, the
 * library's own R: v48_mont(aR, bR) = abR is exactly fp_mul's result, and a
 * value moves between memory (fp_t: 6 x 64-bit limbs) and lanes by shifts
 * alone, with no change of domain (a radix-2^52 product would need R =
 * 2^416 and a conversion product at each end). IFMA multiplies the low 52
 * bits of its inputs, so 48-bit limbs fit with 4 bits to spare; the high
 * half of a 48 x 48-bit product (bits 52 to 95) lands 4 bits above the next
 * limb's weight, so the high halves accumulate in their own columns (H) and
 * join a column shifted left by 4. 264 IFMA instructions per lane-product
 * (33 per round; a square: 36 partial products instead of 64).
 *
 * Everything here is FF_X8_INLINE: it runs only inside the FF_X8 functions
 * of the two files, which callers run only after fr_x8_enabled() said yes.
 */
#ifndef GM_EC_FP_X8_H
#define GM_EC_FP_X8_H

#define FF_X8_LANES /* ff/ff.h's lane helpers */
#include "base/base.h"
#include "ec/ec.h"
#include "ec/ec_internal.h"

_Static_assert(sizeof(fp_t) == 48, "gather assumes 6 x 64-bit limbs");

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
 * so, except v48_mont2p and v48_add_lazy: their outputs are normalised but
 * only < 2p, and go only into another product (v48_mont and v48_mont2p take
 * factors < 2p) or v48_reduce_once. Inside v48_mont_to() the columns are
 * unnormalised: each of 8 rounds adds at most two low halves (< 2^52) to a
 * low column and two high halves (< 2^45: a square's doubled factor is <
 * 2^49) to a high column, plus a carry (< 2^10), so low columns stay < 2^57
 * and high columns < 2^50, far inside 64 bits.
 */
typedef struct { __m512i l[8]; } v48_t;

#define bc ff_x8_bc /* the short name: constants are broadcast on most lines below */

/* o = a - b mod p (ff_x8_sub). */
FF_X8_INLINE void v48_sub(v48_t *o, const v48_t *a, const v48_t *b) { ff_x8_sub(o->l, a->l, b->l, 8, 48, P48); }

/* x in [0, 2p), normalised -> x mod p. */
FF_X8_INLINE void v48_reduce_once(v48_t *x) { ff_x8_reduce_once(x->l, 8, 48, P48); }

/* o = a b 2^-384 mod p, reduced when full, else only < 2p: operand
 * scanning, one limb of b per round, the reduction by m = t0 (-p^-1) mod
 * 2^48 interleaved. a, b < 2p suffice: (ab + mp) / R < (4p^2 + Rp) / R < 2p
 * as 4p < R = 2^384. o may alias a or b. */
FF_X8_INLINE void v48_mont_to(v48_t *o, const v48_t *a, const v48_t *b, bool full, bool sq)
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
        v48_reduce_once(o);
}

/* The reduced product, and the one left in [0, 2p) for a value whose only
 * use is as a factor of another product (it saves v48_reduce_once). */
FF_X8_INLINE void v48_mont(v48_t *o, const v48_t *a, const v48_t *b) { v48_mont_to(o, a, b, true, false); }
FF_X8_INLINE void v48_mont2p(v48_t *o, const v48_t *a, const v48_t *b) { v48_mont_to(o, a, b, false, false); }
/* o = a^2, reduced: 36 partial products instead of 64. */
FF_X8_INLINE void v48_sqr(v48_t *o, const v48_t *a) { v48_mont_to(o, a, a, true, true); }

/* o = a + b, not reduced: a, b < p give o < 2p < 2^382, normalised (the top
 * limb < 2^46), a factor for v48_mont (which takes factors < 2p). */
FF_X8_INLINE void v48_add_lazy(v48_t *o, const v48_t *a, const v48_t *b) { ff_x8_add_lazy(o->l, a->l, b->l, 8, 48); }

/* Lane b = the fp_t at address lane b of addr (masked-off lanes: the limbs
 * of fill), 6 x 64 -> 8 x 48 bits. */
FF_X8_INLINE void v48_gather(v48_t *o, __m512i addr, __mmask8 k, const fp_t *fill)
{
    __m512i L[6];
    ff_x8_gather_words(L, 6, addr, k, fill->l);
    const __m512i m = bc(M48);
    for (int h = 0; h < 2; h++) { /* limbs 3h .. 3h+2 hold 4 limbs of 48 */
        __m512i A = L[3 * h], B = L[3 * h + 1], C = L[3 * h + 2];
        o->l[4 * h] = _mm512_and_si512(A, m);
        o->l[4 * h + 1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(A, 48), _mm512_slli_epi64(B, 16)), m);
        o->l[4 * h + 2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(B, 32), _mm512_slli_epi64(C, 32)), m);
        o->l[4 * h + 3] = _mm512_srli_epi64(C, 16);
    }
}

/* The inverse of v48_gather, into the lanes of k only. */
FF_X8_INLINE void v48_scatter(__m512i addr, __mmask8 k, const v48_t *v)
{
    __m512i L[6];
    for (int h = 0; h < 2; h++) {
        const __m512i *l = &v->l[4 * h];
        L[3 * h] = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 48));
        L[3 * h + 1] = _mm512_or_si512(_mm512_srli_epi64(l[1], 16), _mm512_slli_epi64(l[2], 32));
        L[3 * h + 2] = _mm512_or_si512(_mm512_srli_epi64(l[2], 32), _mm512_slli_epi64(l[3], 16));
    }
    ff_x8_scatter_words(addr, k, L, 6);
}

#endif /* GM_EC_FP_X8_H */
