/*
 * ec/bn_fp_x8.h — BN254's Fp on 8 lanes (AVX-512 IFMA) in 5 limbs of 52
 * bits: the lane helpers of ec/bn_g1_x8.c (G1 over Fp) and ec/bn_g2_x8.c
 * (G2 over Fp2 = two of these), included by those two files only.
 *
 * 5 x 52 = 260 bits hold p < 2^254 with room for values < 2p. The library's
 * R for BN254 is 2^256 (bn_fp_t: 4 x 64-bit limbs), kept here so that a
 * value moves between memory and lanes by shifts alone, with no change of
 * domain: the Montgomery product runs four rounds in radix 2^52 (m mod 2^52,
 * a shift by 52) and a fifth with m mod 2^48 and a shift by 48, 4 x 52 + 48
 * = 256 bits in all. After the last round the columns' weights sit 4 bits
 * above the radix-2^52 limbs', so the final normalisation shifts each left
 * by 4. IFMA's high half of a 52 x 52-bit product is bits 52 to 103, exactly
 * the next column's weight (no separate high columns, unlike ec/g1_x8.c's
 * 48-bit radix). 105 IFMA instructions per lane-product (ec/fp_x8.h: 264).
 *
 * Everything here is FF_X8_INLINE: it runs only inside the FF_X8 functions
 * of the two files, which callers run only after fr_x8_enabled() said yes.
 */
#ifndef GM_EC_BN_FP_X8_H
#define GM_EC_BN_FP_X8_H

#define FF_X8_LANES /* ff/ff.h's lane helpers */
#include "base/base.h"
#include "ec/ec.h"
#include "ec/ec_internal.h"

_Static_assert(sizeof(bn_fp_t) == 32, "the lanes read 4 x 64-bit limbs");

#define M52 0xfffffffffffffULL
#define M48 0xffffffffffffULL

/* p in radix 2^52, and -p^-1 mod 2^52 (its low 48 bits are -p^-1 mod 2^48,
 * the last round's). */
static const uint64_t P52[5] = {
    0x8c16d87cfd47ULL, 0x916871ca8d3c2ULL, 0x181585d97816aULL, 0xa029b85045b68ULL, 0x30644e72e131ULL,
};
#define PINV52 0x20782e4866389ULL

/*
 * v52_t: 8 lanes of 5 limbs. Every v52_t that leaves a helper below is
 * reduced (< p) with normalised limbs (< 2^52), and every helper takes them
 * so, except v52_mont2p: its output is normalised but only < 2p, and goes only
 * into another product (v52_mont and v52_mont2p take factors < 2p) or v52_reduce_once.
 */
typedef struct { __m512i l[5]; } v52_t;

#define bc ff_x8_bc /* the short name: constants are broadcast on most lines below */

/* o = a - b mod p (ff_x8_sub). */
FF_X8_INLINE void v52_sub(v52_t *o, const v52_t *a, const v52_t *b) { ff_x8_sub(o->l, a->l, b->l, 5, 52, P52); }

/* x in [0, 2p), normalised -> x mod p. */
FF_X8_INLINE void v52_reduce_once(v52_t *x) { ff_x8_reduce_once(x->l, 5, 52, P52); }

/*
 * o = a b 2^-256 mod p, reduced when full, else only < 2p: operand scanning,
 * one limb of b per round, the reduction interleaved. o may alias a or b.
 *
 * Invariants. a, b < 2p, normalised (limbs < 2^52). T = the running sum
 * sum_k L[k] 2^(52 k) (columns unnormalised; ff_x8_mont52_round: IFMA's halves of
 * a_j b_i, each < 2^52, go to columns j and j + 1). Rounds i = 0 .. 3: T +=
 * a b_i; m = T (-p^-1) mod 2^52 (IFMA reads L[0]'s low 52 bits, all that m
 * needs); T += m p, so L[0] = 0 mod 2^52; its carry L[0] >> 52 joins L[1]
 * and the columns move down one (T /= 2^52, exactly). Round 4: the same
 * with m mod 2^48, so L[0] = 0 mod 2^48 only, and T /= 2^48: the result is
 * (L[0] >> 48) + sum_{k >= 1} L[k] 2^(52 (k - 1) + 4). In all, T = (a b + M
 * p) / 2^256 with M < 2^256, so T < (4p^2 + 2^256 p) / 2^256 < 2p as 4p <
 * 2^256 (p < 2^254). Bounds: a column takes at most four halves (< 2^52)
 * per round in at most five rounds, plus a carry (< 2^6): < 2^57, and < 2^61
 * once shifted left by 4, inside 64 bits. A square is this same product:
 * doubling a 52-bit limb would overflow the 52 bits IFMA reads.
 */
FF_X8_INLINE void v52_mont_to(v52_t *o, const v52_t *a, const v52_t *b, bool full)
{
    const __m512i z = _mm512_setzero_si512(), m52 = bc(M52);
    __m512i L[6];
    for (int k = 0; k < 6; k++)
        L[k] = z;
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        ff_x8_mont52_round(L, a->l, b->l[i], P52, PINV52, i < 4 ? M52 : M48);
        if (i == 4)
            break;
        /* column 0 is a multiple of 2^52 now: carry it up, shift down */
        L[1] = _mm512_add_epi64(L[1], _mm512_srli_epi64(L[0], 52));
        for (int j = 0; j < 5; j++)
            L[j] = L[j + 1];
        L[5] = z;
    }
    /* < 2p < 2^255: column k + 1 is limb k shifted left by 4, column 0's
     * carry the lowest bits; normalise, then subtract p unless that goes
     * negative */
    __m512i c = _mm512_srli_epi64(L[0], 48);
    for (int k = 0; k < 5; k++) {
        __m512i t = _mm512_add_epi64(_mm512_slli_epi64(L[k + 1], 4), c);
        c = _mm512_srli_epi64(t, 52);
        o->l[k] = _mm512_and_si512(t, m52);
    }
    if (full)
        v52_reduce_once(o);
}

/* The reduced product, the one left in [0, 2p) for a value whose only use
 * is as a factor of another product (it saves v52_reduce_once), and the square
 * (the same product: see v52_mont_to). */
FF_X8_INLINE void v52_mont(v52_t *o, const v52_t *a, const v52_t *b) { v52_mont_to(o, a, b, true); }
FF_X8_INLINE void v52_mont2p(v52_t *o, const v52_t *a, const v52_t *b) { v52_mont_to(o, a, b, false); }
FF_X8_INLINE void v52_sqr(v52_t *o, const v52_t *a) { v52_mont_to(o, a, a, true); }

/* o = a + b, not reduced: a, b < p give o < 2p, normalised, a factor for
 * v52_mont (which takes factors < 2p). */
FF_X8_INLINE void v52_add_lazy(v52_t *o, const v52_t *a, const v52_t *b) { ff_x8_add_lazy(o->l, a->l, b->l, 5, 52); }

/* 4 words of 64 bits -> 5 limbs of 52 (lane by lane). */
FF_X8_INLINE void v52_from_words(v52_t *o, const __m512i L[4])
{
    const __m512i m = bc(M52);
    o->l[0] = _mm512_and_si512(L[0], m);
    o->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(L[0], 52), _mm512_slli_epi64(L[1], 12)), m);
    o->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(L[1], 40), _mm512_slli_epi64(L[2], 24)), m);
    o->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(L[2], 28), _mm512_slli_epi64(L[3], 36)), m);
    o->l[4] = _mm512_srli_epi64(L[3], 16);
}

/* Its inverse. */
FF_X8_INLINE void v52_to_words(__m512i L[4], const v52_t *v)
{
    const __m512i *l = v->l;
    L[0] = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 52));
    L[1] = _mm512_or_si512(_mm512_srli_epi64(l[1], 12), _mm512_slli_epi64(l[2], 40));
    L[2] = _mm512_or_si512(_mm512_srli_epi64(l[2], 24), _mm512_slli_epi64(l[3], 28));
    L[3] = _mm512_or_si512(_mm512_srli_epi64(l[3], 36), _mm512_slli_epi64(l[4], 16));
}

/* Lane b = the bn_fp_t at address lane b of addr (masked-off lanes: the
 * limbs of fill). */
FF_X8_INLINE void v52_gather(v52_t *o, __m512i addr, __mmask8 k, const bn_fp_t *fill)
{
    __m512i L[4];
    ff_x8_gather_words(L, 4, addr, k, fill->l);
    v52_from_words(o, L);
}

/* The inverse of v52_gather, into the lanes of k only. */
FF_X8_INLINE void v52_scatter(__m512i addr, __mmask8 k, const v52_t *v)
{
    __m512i L[4];
    v52_to_words(L, v);
    ff_x8_scatter_words(addr, k, L, 4);
}

/* Word i of r[b] <-> word b of r[i]: the transpose of an 8 x 8 matrix of
 * words, in three rounds of pairs (words, then pairs, then quads). */
FF_X8_INLINE void v52_transpose8(__m512i r[8])
{
    __m512i t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]);
    }
    static const int word[4] = {0, 2, 1, 3};
    /* u[4h + q]: rows 4h .. 4h + 3, words word[q] (low half) and word[q] + 4 */
    for (int h = 0; h < 2; h++)
        for (int j = 0; j < 2; j++) {
            u[4 * h + 2 * j] = _mm512_shuffle_i64x2(t[4 * h + j], t[4 * h + j + 2], 0x88);
            u[4 * h + 2 * j + 1] = _mm512_shuffle_i64x2(t[4 * h + j], t[4 * h + j + 2], 0xdd);
        }
    for (int q = 0; q < 4; q++) {
        r[word[q]] = _mm512_shuffle_i64x2(u[q], u[4 + q], 0x88);
        r[word[q] + 4] = _mm512_shuffle_i64x2(u[q], u[4 + q], 0xdd);
    }
}

/* Lane b = the 64 bytes at p[b] + off as two field elements, words 0 .. 3
 * in lo and 4 .. 7 in hi (a G1 point's x and y, a G2 coordinate's c0 and
 * c1); lanes outside k 0 (p[b] not read there). One load per lane and a
 * transpose, against 8 gathers: BN254's G1 MSM at 2^20 on one thread took
 * 16 % less time so (bench/README.md). */
FF_X8_INLINE void v52_load_row(v52_t *lo, v52_t *hi, const void *const *p, size_t off, __mmask8 k)
{
    __m512i r[8];
    for (int b = 0; b < 8; b++)
        r[b] = (k >> b) & 1 ? _mm512_loadu_si512((const char *)p[b] + off) : _mm512_setzero_si512();
    v52_transpose8(r);
    v52_from_words(lo, r);
    v52_from_words(hi, r + 4);
}

/* The inverse of v52_load_row, into the lanes of k only. */
FF_X8_INLINE void v52_store_row(void *const *p, size_t off, __mmask8 k, const v52_t *lo, const v52_t *hi)
{
    __m512i r[8];
    v52_to_words(r, lo);
    v52_to_words(r + 4, hi);
    v52_transpose8(r);
    for (int b = 0; b < 8; b++)
        if ((k >> b) & 1)
            _mm512_storeu_si512((char *)p[b] + off, r[b]);
}

#endif /* GM_EC_BN_FP_X8_H */
