/*
 * ff/ff_internal.h — the one shape of Montgomery arithmetic, instantiated by
 * fp.c (n = 6, modulus p) and fr.c (n = 4, modulus r) for BLS12-381, and by
 * bn_fp.c and bn_fr.c (n = 4) for BN254. Included only by ff/.
 *
 * Every routine takes the limb count n as a compile-time constant at its call
 * site (always_inline), so the compiler unrolls it for 4 and 6 limbs.
 *
 * Invariant used throughout: every modulus leaves the top bit of its top limb
 * clear (p < 2^381, r < 2^255; BN254's p, r < 2^254), so a + b < 2m never overflows n limbs and the
 * CIOS multiply needs no extra carry word.
 */
#ifndef GM_FF_INTERNAL_H
#define GM_FF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"

typedef unsigned __int128 u128;

/* The selected kernel path (ff_init); read-only once threads run. */
extern ff_path_t ff_path_selected;

/* MULX/ADX kernels (ff/mont_adx.c): out = a*b*R^-1 mod m, inputs < m. */
void fp_mul_adx(fp_t *out, const fp_t *a, const fp_t *b);
void fp_sqr_adx(fp_t *out, const fp_t *a);
void fr_mul_adx(fr_t *out, const fr_t *a, const fr_t *b);
void fr_sqr_adx(fr_t *out, const fr_t *a);
void bn_fp_mul_adx(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b);
void bn_fp_sqr_adx(bn_fp_t *out, const bn_fp_t *a);
void bn_fr_mul_adx(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b);
void bn_fr_sqr_adx(bn_fr_t *out, const bn_fr_t *a);
/* BN254's Fp2 product and square with the 4-limb kernel inlined (the same
 * template as fp2_mul_adx_full / fp2_sqr_adx); reduced in and out, out may
 * alias. bn_fp2_mul / bn_fp2_sqr (ff/bn_tower.c) dispatch to them. */
void bn_fp2_mul_adx(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b);
void bn_fp2_sqr_adx(bn_fp2_t *out, const bn_fp2_t *a);

/* -m^-1 mod 2^64 for BN254's p and r (ff/bn_fp.c, ff/bn_fr.c, ff/mont_adx.c). */
#define BN254_FP_MINV 0x87d20782e4866389ULL
#define BN254_FR_MINV 0xc2e1f593efffffffULL

/* ff_addc / ff_subb (one limb of a carry chain) are in ff/ff.h. */

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
    uint64_t d[8];
    uint8_t borrow = 0;
    for (int i = 0; i < n; i++)
        borrow = ff_subb(borrow, t[i], m[i], &d[i]);
    /* borrow == 1 means t < m: keep t. */
    for (int i = 0; i < n; i++)
        out[i] = borrow ? t[i] : d[i];
}

/* out = a + b mod m; a, b < m. The public fp_add / fr_add: faster there than
 * ff.h's branch-free ff_mod_add on a dependent chain of add and sub through
 * the public calls (bench/README.md has the timings). ff_mod_sub and
 * ff_mod_neg (ff/ff.h) serve both. */
FF_INLINE void mont_add(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t t[8];
    uint8_t carry = 0;
    for (int i = 0; i < n; i++)
        carry = ff_addc(carry, a[i], b[i], &t[i]);
    /* carry is 0: a + b < 2m < 2^(64n) (top bit of m clear). */
    mont_reduce_once(out, t, m, n);
}

/* out = a / 2 mod m; a < m: add m when a is odd, then shift. */
FF_INLINE void mont_half(uint64_t *out, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t mask = -(a[0] & 1), t[8];
    uint8_t carry = 0;
    for (int i = 0; i < n; i++)
        carry = ff_addc(carry, a[i], m[i] & mask, &t[i]);
    for (int i = 0; i < n - 1; i++)
        out[i] = (t[i] >> 1) | (t[i + 1] << 63);
    out[n - 1] = (t[n - 1] >> 1) | ((uint64_t)carry << 63);
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

/* Montgomery limbs stored as little-endian bytes (snarkjs's .zkey and .ptau)
 * -> out, unchanged; GM_ENONCANON (out untouched) when they are >= m. */
FF_INLINE int mont_from_raw_le(uint64_t *out, const uint8_t *in, const uint64_t *m, int n)
{
    uint64_t l[8];
    limbs_from_le(l, in, n);
    if (!mont_lt(l, m, n))
        return GM_ENONCANON;
    memcpy(out, l, (size_t)n * 8);
    return GM_OK;
}

/* ---- Fp kernels for the tower (fp2.c, fp6.c, fp12.c, mont_adx.c) ------------------- */

/* ffp_add, ffp_sub, ffp_neg, ffp_add_nr and the Fp2 forms are in ff/ff.h (inline kernels). */

/* The portable CIOS (mont_mul) out of line, for ffp_mul: a, b < 2p, out < p
 * (fp2.c; inlining it into every tower call site made the portable pairing
 * slower from code size, bench/README.md). */
void fp_mul_lazy_portable(fp_t *out, const fp_t *a, const fp_t *b);

/* out = a*b/R mod p, fully reduced; a, b < 2p (lazy inputs allowed: the CIOS
 * result before its final subtraction is (ab + Qp)/2^384 < (4p^2 + 2^384 p)/2^384
 * < 2p since 4p < 2^384, so one subtraction still suffices on both paths). */
FF_INLINE void ffp_mul(fp_t *out, const fp_t *a, const fp_t *b)
{
    if (ff_path_selected == FF_PATH_ADX)
        fp_mul_adx(out, a, b);
    else
        fp_mul_lazy_portable(out, a, b);
}

/* ---- Fp2 kernels for the tower (inline; fp2.c, fp6.c, fp12.c) ------------------- */

/* Whole Fp2 products on the ADX path with the Fp kernel inlined (ff/mont_adx.c):
 * the same arithmetic as ffp2_mul_portable / ffp2_sqr_portable. Reduced in
 * and out; out may alias. */
void fp2_mul_adx(fp2_t *out, const fp2_t *a, const fp2_t *b);   /* lazy reduction */
void fp2_mul_adx_full(fp2_t *out, const fp2_t *a, const fp2_t *b); /* 3 Montgomery products */
void fp2_sqr_adx(fp2_t *out, const fp2_t *a);
/* (z0 + z1 t)^2 in Fp4 = Fp2[t]/(t^2 - xi): o0 = z0^2 + xi z1^2,
 * o1 = 2 z0 z1, lazy reduction (6 half-products, 4 reductions); reduced in
 * and out, outputs may alias inputs. The step of fp12_cyclotomic_sqr. */
void fp4_sqr_adx(fp2_t *o0, fp2_t *o1, const fp2_t *z0, const fp2_t *z1);
/* The double-width ADX kernels behind fp2_mul_adx, exposed for the tests:
 * r = a*b as a plain 12-limb integer (a, b < 2^384, r not overlapping them);
 * out = t / 2^384 mod p for t < p 2^384 (out < p). */
void fp_mul_384_adx(uint64_t r[12], const fp_t *a, const fp_t *b);
void fp_redc_768_adx(fp_t *out, const uint64_t t[12]);

/* a * xi = (a0 - a1) + (a0 + a1) u. */
FF_INLINE void ffp2_mul_nonresidue(fp2_t *out, const fp2_t *a)
{
    fp_t t;
    ffp_sub(&t, &a->c0, &a->c1);
    ffp_add(&out->c1, &a->c0, &a->c1);
    out->c0 = t;
}

/* Karatsuba with unreduced sums a0 + a1, b0 + b1 (< 2p; ffp_mul accepts
 * inputs < 2p and returns < p): 3 products, 2 lazy adds, 3 subtractions. */
FF_INLINE void ffp2_mul_portable(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_t v0, v1, sa, sb;
    ffp_add_nr(&sa, &a->c0, &a->c1);     /* < 2p */
    ffp_add_nr(&sb, &b->c0, &b->c1);     /* < 2p */
    ffp_mul(&v0, &a->c0, &b->c0);
    ffp_mul(&v1, &a->c1, &b->c1);
    ffp_mul(&sa, &sa, &sb);              /* < p */
    ffp_sub(&out->c0, &v0, &v1);
    ffp_sub(&sa, &sa, &v0);
    ffp_sub(&out->c1, &sa, &v1);
}

/* Complex squaring (a0 + a1)(a0 - a1) + (2 a0) a1 u, with a0 + a1 and 2 a0
 * unreduced (< 2p). */
FF_INLINE void ffp2_sqr_portable(fp2_t *out, const fp2_t *a)
{
    fp_t s, d, a2;
    ffp_add_nr(&s, &a->c0, &a->c1);      /* < 2p */
    ffp_sub(&d, &a->c0, &a->c1);
    ffp_add_nr(&a2, &a->c0, &a->c0);     /* < 2p */
    ffp_mul(&out->c1, &a2, &a->c1);
    ffp_mul(&out->c0, &s, &d);
}

FF_INLINE void ffp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    if (ff_path_selected == FF_PATH_ADX)
        fp2_mul_adx(out, a, b);
    else
        ffp2_mul_portable(out, a, b);
}

FF_INLINE void ffp2_sqr(fp2_t *out, const fp2_t *a)
{
    if (ff_path_selected == FF_PATH_ADX)
        fp2_sqr_adx(out, a);
    else
        ffp2_sqr_portable(out, a);
}

/* ---- decimal text <-> plain limbs ------------------------------------------ */

/* Parses s as a decimal integer below m into plain limbs. GM_EFORMAT: empty,
 * a non-digit, or a leading zero ("0" alone is fine); GM_ENONCANON: >= m.
 * Format is checked over the whole string first, so "99...9x" is a format
 * error however long it is. */
FF_INLINE int limbs_from_dec(uint64_t *out, const char *s, const uint64_t *m, int n)
{
    size_t len = 0;
    while (s[len]) {
        if (s[len] < '0' || s[len] > '9')
            return GM_EFORMAT;
        len++;
    }
    if (len == 0 || (s[0] == '0' && len > 1))
        return GM_EFORMAT;
    uint64_t acc[8] = {0};
    for (size_t i = 0; i < len; i++) {
        u128 c = (uint64_t)(s[i] - '0');
        for (int j = 0; j < n; j++) {
            c += (u128)acc[j] * 10;
            acc[j] = (uint64_t)c;
            c >>= 64;
        }
        if (c)
            return GM_ENONCANON; /* >= 2^(64n) > m */
    }
    if (!mont_lt(acc, m, n))
        return GM_ENONCANON;
    memcpy(out, acc, (size_t)n * 8);
    return GM_OK;
}

/* Writes the decimal text of plain limbs x and a NUL; buf holds at least
 * 20 * (n + 1) bytes (154 digits bound 2^512). */
FF_INLINE void limbs_to_dec(char *buf, const uint64_t *x, int n)
{
    const uint64_t CHUNK = 10000000000000000000ULL; /* 10^19 */
    uint64_t t[8], chunks[32];
    int nchunks = 0;
    memcpy(t, x, (size_t)n * 8);
    do {
        u128 rem = 0;
        for (int j = n - 1; j >= 0; j--) {
            u128 cur = rem << 64 | t[j];
            t[j] = (uint64_t)(cur / CHUNK);
            rem = cur % CHUNK;
        }
        chunks[nchunks++] = (uint64_t)rem;
    } while (!mont_is_zero(t, n));
    char *p = buf;
    for (int i = nchunks - 1; i >= 0; i--) {
        char d[20];
        int k = 0;
        uint64_t c = chunks[i];
        for (int j = 0; j < 19; j++) {
            d[k++] = (char)('0' + c % 10);
            c /= 10;
            if (c == 0 && i == nchunks - 1)
                break; /* the leading chunk has no zero padding */
        }
        while (k)
            *p++ = d[--k];
    }
    *p = 0;
}

/* ---- inversion: binary GCD with 31-step word approximations ----------------- */

/*
 * Why this shape: a plain binary extended GCD spends its time shifting and
 * subtracting n-limb numbers one bit at a time. Following T. Pornin, "Optimized
 * Binary GCD for Modular Inversion" (eprint 2020/972), 31 steps run on 64-bit
 * approximations of a and b (their top 33 and low 31 bits), collecting the
 * steps in a 2x2 matrix of signed integers, |f| + |g| <= 2^31; the matrix is
 * then applied once to the n-limb a, b (exact division by 2^31) and to the
 * coefficients u, v (with a Montgomery division by 2^64, so they stay < m).
 *
 * Invariants: a = u*x*2^(33k), b = v*x*2^(33k) (mod m) after k outer rounds;
 * a, b >= 0, b odd; 2*bitlen(m) - 1 steps make a = 0 and b = gcd(x, m) = 1,
 * so v*2^(33K) = x^-1 once the rounds are padded out to K. The approximation
 * can overshoot, making a new a or b negative: the row is then negated.
 * Variable time (ff.h: these fields handle no long-term secrets).
 */
/* About 9x faster than Fermat's a^(p-2) on the ADX path (`grothmpi bench
 * field` times Fp inverse; bench/README.md). */
typedef struct { int64_t f0, g0, f1, g1; } gcd_mat_t;

FF_INLINE int limbs_bitlen(const uint64_t *x, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (x[i])
            return 64 * i + 64 - __builtin_clzll(x[i]);
    return 0;
}

/* The bits [len - 33, len) of x over its low 31 bits (x itself when len <= 64). */
FF_INLINE uint64_t gcd_approx(const uint64_t *x, int len, int n)
{
    if (len <= 64)
        return x[0];
    int s = len - 33, w = s / 64, sh = s % 64;
    uint64_t hi = x[w] >> sh;
    if (sh > 31 && w + 1 < n)
        hi |= x[w + 1] << (64 - sh);
    return (hi & ((1ULL << 33) - 1)) << 31 | (x[0] & 0x7fffffffULL);
}

/* 31 binary-GCD steps on the approximations, branch-free; returns the matrix
 * with a' * 2^31 = f0*a + g0*b, b' * 2^31 = f1*a + g1*b. */
FF_INLINE gcd_mat_t gcd_inner(uint64_t ah, uint64_t bh)
{
    uint64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1, t;
    for (int i = 0; i < 31; i++) {
        uint64_t odd = -(ah & 1);
        uint64_t sw = odd & -(uint64_t)(ah < bh); /* a odd and a < b: swap rows */
        t = (ah ^ bh) & sw;
        ah ^= t;
        bh ^= t;
        t = (f0 ^ f1) & sw;
        f0 ^= t;
        f1 ^= t;
        t = (g0 ^ g1) & sw;
        g0 ^= t;
        g1 ^= t;
        ah -= bh & odd; /* a odd: a - b, even */
        f0 -= f1 & odd;
        g0 -= g1 & odd;
        ah >>= 1;       /* halve a; scale b's row instead of halving it */
        f1 <<= 1;
        g1 <<= 1;
    }
    return (gcd_mat_t){(int64_t)f0, (int64_t)g0, (int64_t)f1, (int64_t)g1};
}

/* t[0..n] = f*x + g*y, a signed (n+1)-limb two's-complement integer. */
FF_INLINE void gcd_lincomb(uint64_t *t, const uint64_t *x, const uint64_t *y, int64_t f, int64_t g,
                           int n)
{
    __int128 acc = 0;
    for (int i = 0; i < n; i++) {
        acc += (__int128)f * x[i] + (__int128)g * y[i]; /* |.| < 2^97 */
        t[i] = (uint64_t)acc;
        acc >>= 64;
    }
    t[n] = (uint64_t)acc;
}

/* Negates the (n+1)-limb two's-complement t in place. */
FF_INLINE void gcd_negate(uint64_t *t, int n)
{
    uint64_t c = 1;
    for (int i = 0; i <= n; i++) {
        t[i] = ~t[i] + c;
        c = c && t[i] == 0;
    }
}

/* a, b <- |f0*a + g0*b| / 2^31, |f1*a + g1*b| / 2^31, negating a row of the
 * matrix with its result. */
FF_INLINE void gcd_update_ab(uint64_t *a, uint64_t *b, gcd_mat_t *mm, int n)
{
    uint64_t ta[9], tb[9];
    gcd_lincomb(ta, a, b, mm->f0, mm->g0, n);
    gcd_lincomb(tb, a, b, mm->f1, mm->g1, n);
    if ((int64_t)ta[n] < 0) {
        gcd_negate(ta, n);
        mm->f0 = -mm->f0;
        mm->g0 = -mm->g0;
    }
    if ((int64_t)tb[n] < 0) {
        gcd_negate(tb, n);
        mm->f1 = -mm->f1;
        mm->g1 = -mm->g1;
    }
    for (int i = 0; i < n; i++) {
        a[i] = ta[i] >> 31 | ta[i + 1] << 33;
        b[i] = tb[i] >> 31 | tb[i + 1] << 33;
    }
}

/* out = t / 2^64 mod m in [0, m), for signed t with |t| < 2^32 * m: add q*m
 * to clear the low limb, shift it out; the result lies in (-m, 2m). */
FF_INLINE void gcd_mont_div(uint64_t *out, const uint64_t *t, const uint64_t *m, uint64_t minv, int n)
{
    uint64_t q = t[0] * minv;
    u128 c = ((u128)q * m[0] + t[0]) >> 64;
    for (int j = 1; j < n; j++) {
        c += (u128)q * m[j] + t[j];
        out[j - 1] = (uint64_t)c;
        c >>= 64;
    }
    __int128 top = (__int128)c + (int64_t)t[n];
    out[n - 1] = (uint64_t)top;
    if (top < 0) { /* (-m, 0): add m (mod 2^(64n)) */
        uint64_t cc = 0;
        for (int j = 0; j < n; j++) {
            u128 x = (u128)out[j] + m[j] + cc;
            out[j] = (uint64_t)x;
            cc = (uint64_t)(x >> 64);
        }
    } else {
        mont_reduce_once(out, out, m, n);
    }
}

/* v = x^-1 * 2^(-33 * rounds) mod m for plain x < m (0 for x = 0); the caller
 * multiplies by 2^(33 * rounds) (folded into its Montgomery constant).
 * rounds * 31 >= 2 * bitlen(m) - 1. */
FF_INLINE void mont_inv_gcd(uint64_t *v_out, const uint64_t *x, const uint64_t *m, uint64_t minv,
                            int rounds, int n)
{
    uint64_t a[8], b[8], u[8] = {1}, v[8] = {0}, tu[9], tv[9];
    memcpy(a, x, (size_t)n * 8);
    memcpy(b, m, (size_t)n * 8);
    int k = 0;
    for (; k < rounds && !mont_is_zero(a, n); k++) {
        int la = limbs_bitlen(a, n), lb = limbs_bitlen(b, n);
        int len = la > lb ? la : lb;
        gcd_mat_t mm = gcd_inner(gcd_approx(a, len, n), gcd_approx(b, len, n));
        gcd_update_ab(a, b, &mm, n);
        gcd_lincomb(tu, u, v, mm.f0, mm.g0, n);
        gcd_lincomb(tv, u, v, mm.f1, mm.g1, n);
        gcd_mont_div(u, tu, m, minv, n);
        gcd_mont_div(v, tv, m, minv, n);
    }
    GM_VERIFY(mont_is_zero(a, n));
    /* Pad to `rounds`: with a = 0 a round leaves b and maps v to v*2^31/2^64. */
    for (; k < rounds; k++) {
        gcd_lincomb(tv, u, v, 0, (int64_t)1 << 31, n);
        gcd_mont_div(v, tv, m, minv, n);
    }
    memcpy(v_out, v, (size_t)n * 8);
}

/* ---- whole functions, one shape for every field ------------------------------ */

/* pre_pow_impl: square and multiply from the top bit of e (a plain integer). */
#define FF_DEFINE_POW(pre, T, ONE)                                                                 \
    FF_INLINE void pre##_pow_impl(T *out, const T *a, const uint64_t *e, size_t nlimbs)            \
    {                                                                                              \
        T acc = ONE, base = *a;                                                                    \
        for (size_t i = nlimbs; i-- > 0;)                                                          \
            for (int b = 63; b >= 0; b--) {                                                        \
                pre##_sqr(&acc, &acc);                                                             \
                if ((e[i] >> b) & 1)                                                               \
                    pre##_mul(&acc, &acc, &base);                                                  \
            }                                                                                      \
        *out = acc;                                                                                \
    }

/* pre_batch_inv_impl: Montgomery's trick, one inversion and 3(n-1) multiplications.
 * scratch[i] holds the product of the non-zero a[0..i]; zeros are skipped and
 * map to zero. a[i] is read before out[i] is written, so out may alias a. */
#define FF_DEFINE_BATCH_INV(pre, T, ONE, ZERO)                                                     \
    FF_INLINE void pre##_batch_inv_impl(T *out, const T *a, size_t n, T *scratch)                  \
    {                                                                                              \
        T acc = ONE, inv, t;                                                                       \
        for (size_t i = 0; i < n; i++) {                                                           \
            if (!pre##_is_zero(&a[i]))                                                             \
                pre##_mul(&acc, &acc, &a[i]);                                                      \
            scratch[i] = acc;                                                                      \
        }                                                                                          \
        pre##_inv(&inv, &acc);                                                                     \
        for (size_t i = n; i-- > 0;) {                                                             \
            if (pre##_is_zero(&a[i])) {                                                            \
                out[i] = ZERO;                                                                     \
                continue;                                                                          \
            }                                                                                      \
            pre##_mul(&t, &inv, i ? &scratch[i - 1] : &ONE);                                       \
            pre##_mul(&inv, &inv, &a[i]);                                                          \
            out[i] = t;                                                                            \
        }                                                                                          \
    }

/*
 * The arithmetic of one prime field as static pre_<verb>_impl functions: pre
 * (fp, fr), its type T, limb count N, modulus MOD, MINV = -MOD^-1 mod 2^64,
 * ONE = R mod MOD, R2 = R^2 mod MOD, HALF = (MOD - 1)/2 (plain), INV_ROUNDS
 * outer GCD rounds and INV_FIX = 2^(33 INV_ROUNDS) R^3 mod MOD (plain),
 * DEC_MAX the to_dec buffer size. Each checks its contract (ff.h: inputs and
 * outputs reduced) under GM_VERIFY and dispatches the multiply on
 * ff_path_selected. The field's .c file defines the public functions of ff.h
 * by name, each a one-line call of its _impl; always_inline makes each public
 * function the whole routine (no extra call or jump on the hot path), and grep
 * finds every definition.
 */
#define FF_VERIFY_REDUCED(MOD, N, a) GM_VERIFY(mont_lt((a)->l, MOD, N))

#define FF_DEFINE_FIELD(pre, T, N, MOD, MINV, ONE, ZERO, R2, HALF, INV_ROUNDS, INV_FIX, DEC_MAX)   \
    FF_INLINE bool pre##_is_zero_impl(const T *a) { return mont_is_zero(a->l, N); }                \
    FF_INLINE bool pre##_is_one_impl(const T *a) { return mont_eq(a->l, ONE.l, N); }               \
    FF_INLINE bool pre##_eq_impl(const T *a, const T *b) { return mont_eq(a->l, b->l, N); }        \
    FF_INLINE void pre##_add_impl(T *out, const T *a, const T *b)                                  \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        FF_VERIFY_REDUCED(MOD, N, b);                                                              \
        mont_add(out->l, a->l, b->l, MOD, N);                                                      \
    }                                                                                              \
    FF_INLINE void pre##_sub_impl(T *out, const T *a, const T *b)                                  \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        FF_VERIFY_REDUCED(MOD, N, b);                                                              \
        ff_mod_sub(out->l, a->l, b->l, MOD, N);                                                      \
    }                                                                                              \
    FF_INLINE void pre##_neg_impl(T *out, const T *a)                                              \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        ff_mod_neg(out->l, a->l, MOD, N);                                                          \
    }                                                                                              \
    FF_INLINE void pre##_dbl_impl(T *out, const T *a) { pre##_add_impl(out, a, a); }               \
    FF_INLINE void pre##_half_impl(T *out, const T *a)                                             \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        mont_half(out->l, a->l, MOD, N);                                                           \
    }                                                                                              \
    /* Out of line: inlined beside the ADX call, the portable CIOS made the                        \
     * compiler save six registers and open a stack frame before the path                          \
     * test, on the ADX path too (bench/README.md, BN MSM). */                                     \
    static __attribute__((noinline)) void pre##_mul_portable(T *out, const T *a, const T *b)       \
    {                                                                                              \
        mont_mul(out->l, a->l, b->l, MOD, MINV, N);                                                \
    }                                                                                              \
    FF_INLINE void pre##_mul_impl(T *out, const T *a, const T *b)                                  \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        FF_VERIFY_REDUCED(MOD, N, b);                                                              \
        if (ff_path_selected == FF_PATH_ADX)                                                       \
            pre##_mul_adx(out, a, b);                                                              \
        else                                                                                       \
            pre##_mul_portable(out, a, b);                                                         \
        FF_VERIFY_REDUCED(MOD, N, out);                                                            \
    }                                                                                              \
    FF_INLINE void pre##_sqr_impl(T *out, const T *a)                                              \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        if (ff_path_selected == FF_PATH_ADX)                                                       \
            pre##_sqr_adx(out, a);                                                                 \
        else                                                                                       \
            pre##_mul_portable(out, a, a);                                                         \
        FF_VERIFY_REDUCED(MOD, N, out);                                                            \
    }                                                                                              \
    FF_INLINE void pre##_set_u64_impl(T *out, uint64_t v)                                          \
    {                                                                                              \
        T t = {{v}}; /* v < 2^64 < MOD */                                                          \
        pre##_mul(out, &t, &R2);                                                                   \
    }                                                                                              \
    /* Variable-time binary GCD (mont_inv_gcd), then one multiply by INV_FIX:                      \
     * x^-1 2^(-33K) * 2^(33K) R^3 / R = (x/R)^-1 R, the Montgomery inverse. */                    \
    FF_INLINE void pre##_inv_impl(T *out, const T *a)                                              \
    {                                                                                              \
        FF_VERIFY_REDUCED(MOD, N, a);                                                              \
        T v;                                                                                       \
        mont_inv_gcd(v.l, a->l, MOD, MINV, INV_ROUNDS, N);                                         \
        pre##_mul(out, &v, &INV_FIX);                                                              \
    }                                                                                              \
    FF_DEFINE_POW(pre, T, ONE)                                                                     \
    FF_DEFINE_BATCH_INV(pre, T, ONE, ZERO)                                                         \
    /* Euler's criterion: a^((MOD-1)/2) is 1, -1 or 0. */                                          \
    FF_INLINE int pre##_legendre_impl(const T *a)                                                  \
    {                                                                                              \
        T t;                                                                                       \
        pre##_pow_impl(&t, a, HALF, N);                                                            \
        return pre##_is_zero_impl(&t) ? 0 : pre##_is_one_impl(&t) ? 1 : -1;                        \
    }                                                                                              \
    FF_INLINE int pre##_from_limbs_impl(T *out, const uint64_t in[N])                              \
    {                                                                                              \
        if (!mont_lt(in, MOD, N))                                                                  \
            return GM_ENONCANON;                                                                   \
        T t;                                                                                       \
        memcpy(t.l, in, sizeof t.l);                                                               \
        pre##_mul(out, &t, &R2);                                                                   \
        return GM_OK;                                                                              \
    }                                                                                              \
    FF_INLINE void pre##_to_limbs_impl(uint64_t out[N], const T *a)                                \
    {                                                                                              \
        T one = {{1}}, t;                                                                          \
        pre##_mul(&t, a, &one); /* a*R * 1 * R^-1 = a */                                           \
        memcpy(out, t.l, sizeof t.l);                                                              \
    }                                                                                              \
    FF_INLINE int pre##_from_bytes_be_impl(T *out, const uint8_t in[8 * N])                        \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        limbs_from_be(l, in, N);                                                                   \
        return pre##_from_limbs_impl(out, l);                                                      \
    }                                                                                              \
    FF_INLINE int pre##_from_bytes_le_impl(T *out, const uint8_t in[8 * N])                        \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        limbs_from_le(l, in, N);                                                                   \
        return pre##_from_limbs_impl(out, l);                                                      \
    }                                                                                              \
    FF_INLINE void pre##_to_bytes_be_impl(uint8_t out[8 * N], const T *a)                          \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        pre##_to_limbs_impl(l, a);                                                                 \
        limbs_to_be(out, l, N);                                                                    \
    }                                                                                              \
    FF_INLINE void pre##_to_bytes_le_impl(uint8_t out[8 * N], const T *a)                          \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        pre##_to_limbs_impl(l, a);                                                                 \
        limbs_to_le(out, l, N);                                                                    \
    }                                                                                              \
    FF_INLINE int pre##_from_dec_impl(T *out, const char *s)                                       \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        int rc = limbs_from_dec(l, s, MOD, N);                                                     \
        if (rc != GM_OK)                                                                           \
            return rc;                                                                             \
        return pre##_from_limbs_impl(out, l);                                                      \
    }                                                                                              \
    FF_INLINE void pre##_to_dec_impl(char buf[DEC_MAX], const T *a)                                \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        pre##_to_limbs_impl(l, a);                                                                 \
        limbs_to_dec(buf, l, N);                                                                   \
    }

#endif /* GM_FF_INTERNAL_H */
