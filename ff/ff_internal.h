/*
 * ff/ff_internal.h — the one shape of Montgomery arithmetic, instantiated by
 * fp.c (n = 6, modulus p) and fr.c (n = 4, modulus r). Included only by ff/.
 *
 * Every routine takes the limb count n as a compile-time constant at its call
 * site (always_inline), so the compiler unrolls it for 4 and 6 limbs.
 *
 * Invariant used throughout: both moduli leave the top bit of their top limb
 * clear (p < 2^381, r < 2^255), so a + b < 2m never overflows n limbs and the
 * CIOS multiply needs no extra carry word.
 */
#ifndef GM_FF_INTERNAL_H
#define GM_FF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"

#define FF_INLINE static inline __attribute__((always_inline))
typedef unsigned __int128 u128;

/* The selected kernel path (ff_init); read-only once threads run. */
extern ff_path_t ff_path_selected;

/* MULX/ADX kernels (ff/mont_adx.c): out = a*b*R^-1 mod m, inputs < m. */
void fp_mul_adx(fp_t *out, const fp_t *a, const fp_t *b);
void fp_sqr_adx(fp_t *out, const fp_t *a);
void fr_mul_adx(fr_t *out, const fr_t *a, const fr_t *b);
void fr_sqr_adx(fr_t *out, const fr_t *a);

/* Returns a < m as integers. */
FF_INLINE bool mont_lt(const uint64_t *a, const uint64_t *m, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        if (a[i] != m[i])
            return a[i] < m[i];
    }
    return false;
}

/* out = t - m when t >= m, else t. t < 2m. */
FF_INLINE void mont_reduce_once(uint64_t *out, const uint64_t *t, const uint64_t *m, int n)
{
    uint64_t d[8], borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 x = (u128)t[i] - m[i] - borrow;
        d[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    /* borrow == 1 means t < m: keep t. */
    uint64_t keep = -borrow;
    for (int i = 0; i < n; i++)
        out[i] = (t[i] & keep) | (d[i] & ~keep);
}

/* out = a + b mod m; a, b < m. */
FF_INLINE void mont_add(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t t[8], carry = 0;
    for (int i = 0; i < n; i++) {
        u128 x = (u128)a[i] + b[i] + carry;
        t[i] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    /* carry is 0: a + b < 2m < 2^(64n) (top bit of m clear). */
    mont_reduce_once(out, t, m, n);
}

/* out = a - b mod m; a, b < m. */
FF_INLINE void mont_sub(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t t[8], borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 x = (u128)a[i] - b[i] - borrow;
        t[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    uint64_t mask = -borrow, carry = 0;
    for (int i = 0; i < n; i++) {
        u128 x = (u128)t[i] + (m[i] & mask) + carry;
        out[i] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
}

/* out = -a mod m; a < m; -0 = 0. */
FF_INLINE void mont_neg(uint64_t *out, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t nz = 0;
    for (int i = 0; i < n; i++)
        nz |= a[i];
    uint64_t mask = -(uint64_t)(nz != 0), borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 x = (u128)m[i] - a[i] - borrow;
        out[i] = (uint64_t)x & mask;
        borrow = (uint64_t)(x >> 64) & 1;
    }
}

/* out = a / 2 mod m; a < m: add m when a is odd, then shift. */
FF_INLINE void mont_half(uint64_t *out, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t mask = -(a[0] & 1), t[8], carry = 0;
    for (int i = 0; i < n; i++) {
        u128 x = (u128)a[i] + (m[i] & mask) + carry;
        t[i] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    for (int i = 0; i < n - 1; i++)
        out[i] = (t[i] >> 1) | (t[i + 1] << 63);
    out[n - 1] = (t[n - 1] >> 1) | (carry << 63);
}

/*
 * Portable CIOS Montgomery multiply: out = a*b*2^(-64n) mod m.
 * Why this shape: one pass interleaving the product row a*b[i] with the
 * reduction by q*m, so the running sum t stays n+1 limbs.
 * Invariants: a, b < m; after each outer step t < 2m (t[n] is 0 or 1 only
 * transiently, and 0 once m's top bit is clear); the final subtraction makes
 * out < m.
 */
FF_INLINE void mont_mul(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                        uint64_t minv, int n)
{
    uint64_t t[9] = {0};
    for (int i = 0; i < n; i++) {
        u128 c = 0;
        for (int j = 0; j < n; j++) {
            c += (u128)a[j] * b[i] + t[j];
            t[j] = (uint64_t)c;
            c >>= 64;
        }
        u128 top = (u128)t[n] + c;
        uint64_t q = t[0] * minv;
        c = ((u128)q * m[0] + t[0]) >> 64;
        for (int j = 1; j < n; j++) {
            c += (u128)q * m[j] + t[j];
            t[j - 1] = (uint64_t)c;
            c >>= 64;
        }
        top += c;
        t[n - 1] = (uint64_t)top;
        t[n] = (uint64_t)(top >> 64);
    }
    mont_reduce_once(out, t, m, n);
}

FF_INLINE bool mont_is_zero(const uint64_t *a, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

FF_INLINE bool mont_eq(const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return acc == 0;
}

/* Big-endian / little-endian bytes <-> little-endian limbs (nbytes = 8n). */
FF_INLINE void limbs_from_be(uint64_t *out, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++)
            v = (v << 8) | in[(n - 1 - i) * 8 + k];
        out[i] = v;
    }
}

FF_INLINE void limbs_to_be(uint8_t *out, const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            out[(n - 1 - i) * 8 + k] = (uint8_t)(a[i] >> (56 - 8 * k));
}

FF_INLINE void limbs_from_le(uint64_t *out, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int k = 7; k >= 0; k--)
            v = (v << 8) | in[i * 8 + k];
        out[i] = v;
    }
}

FF_INLINE void limbs_to_le(uint8_t *out, const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            out[i * 8 + k] = (uint8_t)(a[i] >> (8 * k));
}

#endif /* GM_FF_INTERNAL_H */
