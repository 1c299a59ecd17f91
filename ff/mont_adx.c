/*
 * mont_adx.c — Montgomery multiplication with MULX (flag-free 64x64 multiply)
 * and ADCX/ADOX (two independent carry chains, CF and OF), for CPUs with BMI2
 * and ADX. Compiled for those extensions only in this file; ff_init selects it
 * after checking CPUID, so no other code path executes these instructions.
 *
 * The kernels are inline assembly, fully unrolled by the ADX_* macros below:
 * one macro writes one row of the CIOS loop as text, and each kernel lists its
 * rows with the register names rotated by one limb per row (the shift of t
 * by 64 bits is a renaming, not a move).
 */
#include "ff/ff_internal.h"

/* t[tl] += lo(a[off] * rdx) on the CF chain, t[th] += hi(...) on the OF chain. */
#define ADX_MULADD(src, off, tl, th)                                                               \
    "mulxq " off "(%[" src "]), %[lo], %[hi]\n\t"                                                  \
    "adcxq %[lo], %[" tl "]\n\t"                                                                   \
    "adoxq %[hi], %[" th "]\n\t"

/*
 * One CIOS row for 6 limbs: t = (t + a*b[boff] + q*m) / 2^64 with
 * q = t0 * (-m^-1) mod 2^64. On entry t0..t5 hold t < 2m and t6 is free; on
 * exit t1..t6 hold the new t < 2m and t0 (which the reduction made 0) is free.
 * `xorl` on t6 zeroes it and clears CF and OF for the product chains; the top
 * carries land in t6 with `adcq $0` (t < 2^448 before the shift, so no carry
 * leaves t6).
 */
#define ADX_ROW6(boff, t0, t1, t2, t3, t4, t5, t6)                                                 \
    "movq " boff "(%[b]), %%rdx\n\t"                                                               \
    "xorl %k[" t6 "], %k[" t6 "]\n\t"                                                              \
    ADX_MULADD("a", "0", t0, t1) ADX_MULADD("a", "8", t1, t2) ADX_MULADD("a", "16", t2, t3)        \
    ADX_MULADD("a", "24", t3, t4) ADX_MULADD("a", "32", t4, t5) ADX_MULADD("a", "40", t5, t6)      \
    "adcq $0, %[" t6 "]\n\t"                                                                       \
    "movq %[" t0 "], %%rdx\n\t"                                                                    \
    "imulq %[minv], %%rdx\n\t"                                                                     \
    "xorl %k[lo], %k[lo]\n\t"                                                                      \
    ADX_MULADD("m", "0", t0, t1) ADX_MULADD("m", "8", t1, t2) ADX_MULADD("m", "16", t2, t3)        \
    ADX_MULADD("m", "24", t3, t4) ADX_MULADD("m", "32", t4, t5) ADX_MULADD("m", "40", t5, t6)      \
    "adcq $0, %[" t6 "]\n\t"

/* The same row for 4 limbs: t0..t3 in, t1..t4 out. */
#define ADX_ROW4(boff, t0, t1, t2, t3, t4)                                                         \
    "movq " boff "(%[b]), %%rdx\n\t"                                                               \
    "xorl %k[" t4 "], %k[" t4 "]\n\t"                                                              \
    ADX_MULADD("a", "0", t0, t1) ADX_MULADD("a", "8", t1, t2) ADX_MULADD("a", "16", t2, t3)        \
    ADX_MULADD("a", "24", t3, t4)                                                                  \
    "adcq $0, %[" t4 "]\n\t"                                                                       \
    "movq %[" t0 "], %%rdx\n\t"                                                                    \
    "imulq %[minv], %%rdx\n\t"                                                                     \
    "xorl %k[lo], %k[lo]\n\t"                                                                      \
    ADX_MULADD("m", "0", t0, t1) ADX_MULADD("m", "8", t1, t2) ADX_MULADD("m", "16", t2, t3)        \
    ADX_MULADD("m", "24", t3, t4)                                                                  \
    "adcq $0, %[" t4 "]\n\t"

/* s = r - m[off] with borrow (first limb: plain sub). */
#define ADX_SUB_FIRST(r, s) "movq %[" r "], %[" s "]\n\tsubq 0(%[m]), %[" s "]\n\t"
#define ADX_SUB(off, r, s) "movq %[" r "], %[" s "]\n\tsbbq " off "(%[m]), %[" s "]\n\t"
/* No borrow (t >= m): take t - m. */
#define ADX_TAKE(r, s) "cmovncq %[" s "], %[" r "]\n\t"

/*
 * fp: out = a*b/2^384 mod p, a, b < p.
 * Why: six CIOS rows, each a 6-limb product row and a 6-limb reduction row on
 * two carry chains (ADCX for low halves, ADOX for high halves) so no
 * instruction waits for the other chain's flags; t lives in seven registers,
 * a, b and p are read from memory.
 * Invariants: t < 2p after every row (p < 2^381 < 2^384/4); one conditional
 * subtraction (sub/sbb, cmovnc) brings the result below p.
 */
/* `grothmpi bench field` times it (Fp mul, Fp sqr); bench/README.md. */
static inline __attribute__((always_inline)) void mont_mul6_adx(uint64_t out[6], const uint64_t *a,
                                                                  const uint64_t *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi;
    const uint64_t *pa = a, *pb = b, *pm = FP_MODULUS;
    const uint64_t minv = 0x89f3fffcfffcfffdULL;
    __asm__("xorl %k[t0], %k[t0]\n\t"
            "xorl %k[t1], %k[t1]\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            "xorl %k[t5], %k[t5]\n\t"
            ADX_ROW6("0", "t0", "t1", "t2", "t3", "t4", "t5", "t6")
            ADX_ROW6("8", "t1", "t2", "t3", "t4", "t5", "t6", "t0")
            ADX_ROW6("16", "t2", "t3", "t4", "t5", "t6", "t0", "t1")
            ADX_ROW6("24", "t3", "t4", "t5", "t6", "t0", "t1", "t2")
            ADX_ROW6("32", "t4", "t5", "t6", "t0", "t1", "t2", "t3")
            ADX_ROW6("40", "t5", "t6", "t0", "t1", "t2", "t3", "t4")
            /* result in t6, t0, t1, t2, t3, t4; t5, lo, hi, a, b, rdx free */
            ADX_SUB_FIRST("t6", "t5") ADX_SUB("8", "t0", "lo") ADX_SUB("16", "t1", "hi")
            ADX_SUB("24", "t2", "a") ADX_SUB("32", "t3", "b")
            "movq %[t4], %%rdx\n\tsbbq 40(%[m]), %%rdx\n\t"
            ADX_TAKE("t6", "t5") ADX_TAKE("t0", "lo") ADX_TAKE("t1", "hi")
            ADX_TAKE("t2", "a") ADX_TAKE("t3", "b")
            "cmovncq %%rdx, %[t4]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+&r"(pa),
              [b] "+&r"(pb)
            : [m] "r"(pm), [minv] "m"(minv), "m"(*(const uint64_t(*)[6])a),
              "m"(*(const uint64_t(*)[6])b)
            : "rdx", "cc");
    out[0] = t6;
    out[1] = t0;
    out[2] = t1;
    out[3] = t2;
    out[4] = t3;
    out[5] = t4;
}

/* Any 4-limb modulus m < 2^255 with minv = -m^-1 mod 2^64 (BLS12-381's r,
 * BN254's p and r): out = a*b/2^256 mod m, a, b < m: the same shape with
 * four rows of four limbs; t in five registers; m < 2^256/2 keeps t < 2m.
 * always_inline with constant m and minv at every call: the same code as a
 * kernel written for one modulus. */
/* `grothmpi bench field` times it (Fr mul); bench/README.md. */
static inline __attribute__((always_inline)) void mont_mul4_adx(uint64_t out[4], const uint64_t *a,
                                                                  const uint64_t *b,
                                                                  const uint64_t *m,
                                                                  uint64_t minv)
{
    uint64_t t0, t1, t2, t3, t4, lo, hi;
    const uint64_t *pa = a, *pb = b, *pm = m;
    __asm__("xorl %k[t0], %k[t0]\n\t"
            "xorl %k[t1], %k[t1]\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            ADX_ROW4("0", "t0", "t1", "t2", "t3", "t4")
            ADX_ROW4("8", "t1", "t2", "t3", "t4", "t0")
            ADX_ROW4("16", "t2", "t3", "t4", "t0", "t1")
            ADX_ROW4("24", "t3", "t4", "t0", "t1", "t2")
            /* result in t4, t0, t1, t2; t3, lo, hi, a free */
            ADX_SUB_FIRST("t4", "t3") ADX_SUB("8", "t0", "lo") ADX_SUB("16", "t1", "hi")
            ADX_SUB("24", "t2", "a")
            ADX_TAKE("t4", "t3") ADX_TAKE("t0", "lo") ADX_TAKE("t1", "hi") ADX_TAKE("t2", "a")
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+&r"(pa)
            : [b] "r"(pb), [m] "r"(pm), [minv] "m"(minv), "m"(*(const uint64_t(*)[4])a),
              "m"(*(const uint64_t(*)[4])b)
            : "rdx", "cc");
    out[0] = t4;
    out[1] = t0;
    out[2] = t1;
    out[3] = t2;
}

void fp_mul_adx(fp_t *out, const fp_t *a, const fp_t *b) { mont_mul6_adx(out->l, a->l, b->l); }
void fp_sqr_adx(fp_t *out, const fp_t *a) { mont_mul6_adx(out->l, a->l, a->l); }
#define FR_MINV_ADX 0xfffffffeffffffffULL
void fr_mul_adx(fr_t *out, const fr_t *a, const fr_t *b)
{
    mont_mul4_adx(out->l, a->l, b->l, FR_MODULUS, FR_MINV_ADX);
}
void fr_sqr_adx(fr_t *out, const fr_t *a) { mont_mul4_adx(out->l, a->l, a->l, FR_MODULUS, FR_MINV_ADX); }
void bn_fp_mul_adx(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b)
{
    mont_mul4_adx(out->l, a->l, b->l, BN254_FP_MODULUS, BN254_FP_MINV);
}
void bn_fp_sqr_adx(bn_fp_t *out, const bn_fp_t *a)
{
    mont_mul4_adx(out->l, a->l, a->l, BN254_FP_MODULUS, BN254_FP_MINV);
}
void bn_fr_mul_adx(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b)
{
    mont_mul4_adx(out->l, a->l, b->l, BN254_FR_MODULUS, BN254_FR_MINV);
}
void bn_fr_sqr_adx(bn_fr_t *out, const bn_fr_t *a)
{
    mont_mul4_adx(out->l, a->l, a->l, BN254_FR_MODULUS, BN254_FR_MINV);
}

/* ---- double-width (lazy) kernels ------------------------------------------------ */

/* One product row for 6 limbs: t0..t5 hold limbs i..i+5 of the running sum,
 * t6 is free; adds a*b[boff/8] and writes the finished limb i (t0) to
 * r[boff/8]; on exit t1..t6 hold limbs i+1..i+6 and t0 is free. */
#define ADX_MROW6(boff, t0, t1, t2, t3, t4, t5, t6)                                                \
    "movq " boff "(%[b]), %%rdx\n\t"                                                               \
    "xorl %k[" t6 "], %k[" t6 "]\n\t"                                                              \
    ADX_MULADD("a", "0", t0, t1) ADX_MULADD("a", "8", t1, t2) ADX_MULADD("a", "16", t2, t3)        \
    ADX_MULADD("a", "24", t3, t4) ADX_MULADD("a", "32", t4, t5) ADX_MULADD("a", "40", t5, t6)      \
    "adcq $0, %[" t6 "]\n\t"                                                                       \
    "movq %[" t0 "], " boff "(%[r])\n\t"

/*
 * r = a*b as a plain 768-bit integer (12 limbs), no reduction: the first half
 * of a Montgomery product, so that sums and differences of products can share
 * one reduction (lazy reduction, fp2_mul_adx). Any a, b < 2^384; r must not
 * overlap a or b.
 */
static inline __attribute__((always_inline)) void mul_384_adx(uint64_t r[12], const uint64_t *a,
                                                               const uint64_t *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi;
    __asm__("xorl %k[t0], %k[t0]\n\t"
            "xorl %k[t1], %k[t1]\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            "xorl %k[t5], %k[t5]\n\t"
            ADX_MROW6("0", "t0", "t1", "t2", "t3", "t4", "t5", "t6")
            ADX_MROW6("8", "t1", "t2", "t3", "t4", "t5", "t6", "t0")
            ADX_MROW6("16", "t2", "t3", "t4", "t5", "t6", "t0", "t1")
            ADX_MROW6("24", "t3", "t4", "t5", "t6", "t0", "t1", "t2")
            ADX_MROW6("32", "t4", "t5", "t6", "t0", "t1", "t2", "t3")
            ADX_MROW6("40", "t5", "t6", "t0", "t1", "t2", "t3", "t4")
            "movq %[t6], 48(%[r])\n\t"
            "movq %[t0], 56(%[r])\n\t"
            "movq %[t1], 64(%[r])\n\t"
            "movq %[t2], 72(%[r])\n\t"
            "movq %[t3], 80(%[r])\n\t"
            "movq %[t4], 88(%[r])\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi),
              "=m"(*(uint64_t(*)[12])r)
            : [a] "r"(a), [b] "r"(b), [r] "r"(r), "m"(*(const uint64_t(*)[6])a),
              "m"(*(const uint64_t(*)[6])b)
            : "rdx", "cc");
}

/* One reduction row: q = t0 * (-p^-1); t = (t + q p) / 2^64 over the six
 * registers t0..t5 (t0 becomes 0 and free, the new top lands in t6). */
#define ADX_RROW6(t0, t1, t2, t3, t4, t5, t6)                                                      \
    "movq %[" t0 "], %%rdx\n\t"                                                                    \
    "imulq %[minv], %%rdx\n\t"                                                                     \
    "xorl %k[" t6 "], %k[" t6 "]\n\t"                                                              \
    ADX_MULADD("m", "0", t0, t1) ADX_MULADD("m", "8", t1, t2) ADX_MULADD("m", "16", t2, t3)        \
    ADX_MULADD("m", "24", t3, t4) ADX_MULADD("m", "32", t4, t5) ADX_MULADD("m", "40", t5, t6)      \
    "adcq $0, %[" t6 "]\n\t"

/*
 * out = t / 2^384 mod p (Montgomery reduction of a double-width value),
 * out < p. Why: the second half of a Montgomery product, run once per sum of
 * products. Invariant: t < p * 2^384, so (t + Q p) / 2^384 < 2p with
 * Q < 2^384, and one conditional subtraction finishes. The six rows reduce
 * the low half (each leaves < 2^384 in six registers); the high half is added
 * after them (the exact sum is < 2p < 2^382, no carry out).
 */
static inline __attribute__((always_inline)) void redc_768_adx(uint64_t out[6], const uint64_t t[12])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, x;
    const uint64_t *pt = t, *pm = FP_MODULUS;
    const uint64_t minv = 0x89f3fffcfffcfffdULL;
    __asm__("movq 0(%[t]), %[t0]\n\t"
            "movq 8(%[t]), %[t1]\n\t"
            "movq 16(%[t]), %[t2]\n\t"
            "movq 24(%[t]), %[t3]\n\t"
            "movq 32(%[t]), %[t4]\n\t"
            "movq 40(%[t]), %[t5]\n\t"
            ADX_RROW6("t0", "t1", "t2", "t3", "t4", "t5", "t6")
            ADX_RROW6("t1", "t2", "t3", "t4", "t5", "t6", "t0")
            ADX_RROW6("t2", "t3", "t4", "t5", "t6", "t0", "t1")
            ADX_RROW6("t3", "t4", "t5", "t6", "t0", "t1", "t2")
            ADX_RROW6("t4", "t5", "t6", "t0", "t1", "t2", "t3")
            ADX_RROW6("t5", "t6", "t0", "t1", "t2", "t3", "t4")
            /* low half reduced into t6, t0, t1, t2, t3, t4; add the high half */
            "addq 48(%[t]), %[t6]\n\t"
            "adcq 56(%[t]), %[t0]\n\t"
            "adcq 64(%[t]), %[t1]\n\t"
            "adcq 72(%[t]), %[t2]\n\t"
            "adcq 80(%[t]), %[t3]\n\t"
            "adcq 88(%[t]), %[t4]\n\t"
            /* < 2p: subtract p when no borrow; t5, lo, hi, x, t, rdx free */
            ADX_SUB_FIRST("t6", "t5") ADX_SUB("8", "t0", "lo") ADX_SUB("16", "t1", "hi")
            ADX_SUB("24", "t2", "x") ADX_SUB("32", "t3", "t")
            "movq %[t4], %%rdx\n\tsbbq 40(%[m]), %%rdx\n\t"
            ADX_TAKE("t6", "t5") ADX_TAKE("t0", "lo") ADX_TAKE("t1", "hi")
            ADX_TAKE("t2", "x") ADX_TAKE("t3", "t")
            "cmovncq %%rdx, %[t4]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [x] "=&r"(x),
              [t] "+&r"(pt)
            : [m] "r"(pm), [minv] "m"(minv), "m"(*(const uint64_t(*)[12])t)
            : "rdx", "cc");
    out[0] = t6;
    out[1] = t0;
    out[2] = t1;
    out[3] = t2;
    out[4] = t3;
    out[5] = t4;
}

/* r = a - b over 12 limbs; returns the borrow. */
static inline __attribute__((always_inline)) uint64_t sub_768(uint64_t r[12], const uint64_t a[12],
                                                               const uint64_t b[12])
{
    uint8_t c = 0;
    for (int i = 0; i < 12; i++)
        c = ff_subb(c, a[i], b[i], &r[i]);
    return c;
}

/* r[6..11] += p & mask (r is a double-width value; adds p * 2^384). */
static inline __attribute__((always_inline)) void add_p_hi(uint64_t r[12], uint64_t mask)
{
    uint8_t c = 0;
    for (int i = 0; i < 6; i++)
        c = ff_addc(c, r[6 + i], FP_MODULUS[i] & mask, &r[6 + i]);
}

/* Test hooks for the double-width kernels (ff_internal.h). */
void fp_mul_384_adx(uint64_t r[12], const fp_t *a, const fp_t *b) { mul_384_adx(r, a->l, b->l); }
void fp_redc_768_adx(fp_t *out, const uint64_t t[12]) { redc_768_adx(out->l, t); }

/*
 * Fp2 product with lazy reduction (Karatsuba on double-width products):
 *   T0 = a0 b0, T1 = a1 b1, T2 = (a0 + a1)(b0 + b1)   (plain 768-bit)
 *   c0 = redc(T0 - T1 (+ p 2^384 when negative)),  c1 = redc(T2 - T0 - T1).
 * Why: 3 half-products and 2 reductions instead of 3 full Montgomery
 * products (180 instead of 216 MULX) and no Fp-level subtractions.
 * Invariants: a_i, b_i < p; a0 + a1, b0 + b1 < 2p (unreduced); T0, T1 < p^2;
 * T2 - T0 - T1 = a0 b1 + a1 b0 < 2p^2 < p 2^384; T0 - T1 in (-p^2, p^2), so
 * with p 2^384 added when negative it lies in [0, p 2^384); both redc inputs
 * are therefore < p 2^384 and the outputs < p. out may alias a or b.
 */
/* Faster than fp2_mul_adx_full below; bench/README.md has both timings. */
void fp2_mul_adx(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    uint64_t t0[12], t1[12], t2[12];
    fp_t sa, sb;
    ffp_add_nr(&sa, &a->c0, &a->c1);     /* < 2p */
    ffp_add_nr(&sb, &b->c0, &b->c1);     /* < 2p */
    mul_384_adx(t0, a->c0.l, b->c0.l);
    mul_384_adx(t1, a->c1.l, b->c1.l);
    mul_384_adx(t2, sa.l, sb.l);         /* < 4p^2 */
    sub_768(t2, t2, t0);
    sub_768(t2, t2, t1);                 /* a0 b1 + a1 b0 < 2p^2 */
    uint64_t neg = -sub_768(t0, t0, t1); /* T0 - T1 mod 2^768 */
    add_p_hi(t0, neg);                   /* in [0, p 2^384) */
    redc_768_adx(out->c0.l, t0);
    redc_768_adx(out->c1.l, t2);
}

/* r = a + b over 12 limbs (callers keep the sums below 2^767). */
static inline __attribute__((always_inline)) void add_768(uint64_t r[12], const uint64_t a[12],
                                                           const uint64_t b[12])
{
    uint8_t c = 0;
    for (int i = 0; i < 12; i++)
        c = ff_addc(c, a[i], b[i], &r[i]);
}

/* A signed double-width value |v| < p 2^384 held mod 2^768: add p 2^384 when
 * it is negative (top bit set), giving [0, p 2^384), redc's input range. */
static inline __attribute__((always_inline)) void fix_sign_768(uint64_t r[12])
{
    add_p_hi(r, -(r[11] >> 63));
}

/* Double-width Fp2 square, no reduction: with a0 + a1, 2 a0 < 2p unreduced
 * and a0 - a1 reduced, r0 = (a0 + a1)(a0 - a1) < 2p^2, r1 = 2 a0 a1 < 2p^2;
 * r0 = a0^2 - a1^2 and r1 = 2 a0 a1 mod p. */
static inline __attribute__((always_inline)) void sqr_fp2x2_adx(uint64_t r0[12], uint64_t r1[12],
                                                                 const fp2_t *a)
{
    fp_t s, d, a2;
    ffp_add_nr(&s, &a->c0, &a->c1);
    ffp_sub(&d, &a->c0, &a->c1);
    ffp_add_nr(&a2, &a->c0, &a->c0);
    mul_384_adx(r0, s.l, d.l);
    mul_384_adx(r1, a2.l, a->c1.l);
}

/*
 * (z0 + z1 t)^2 in Fp4 = Fp2[t]/(t^2 - xi), the step of the cyclotomic
 * squaring (fp12.c), with lazy reduction as blst's sqr_fp4:
 *   T0 = z0^2, T1 = z1^2, T2 = (z0 + z1)^2 double-width (sqr_fp2x2_adx),
 *   o0 = redc(T0 + xi T1),  o1 = redc(T2 - T0 - T1).
 * Why: 6 half-products and 4 reductions instead of 6 Montgomery products,
 * and the Fp2 additions happen once, on the wide values.
 * Invariants (each T < 2p^2 componentwise): o0.c0 = T0.c0 + T1.c0 - T1.c1 in
 * (-2p^2, 4p^2), o0.c1 = T0.c1 + T1.c0 + T1.c1 < 6p^2 < p 2^384 (6p < 2^384);
 * o1's components lie in (-4p^2, 2p^2). Negative values (mod 2^768) get
 * p 2^384 added (fix_sign_768), so every redc input is in [0, p 2^384) and
 * every output < p. Outputs may alias inputs.
 */
void fp4_sqr_adx(fp2_t *o0, fp2_t *o1, const fp2_t *z0, const fp2_t *z1)
{
    uint64_t a0[12], a1[12], b0[12], b1[12], c0[12], c1[12];
    fp2_t s;
    ffp2_add(&s, z0, z1);
    sqr_fp2x2_adx(a0, a1, z0);
    sqr_fp2x2_adx(b0, b1, z1);
    sqr_fp2x2_adx(c0, c1, &s);
    /* o1 = T2 - T0 - T1 */
    sub_768(c0, c0, a0);
    sub_768(c0, c0, b0);
    fix_sign_768(c0);
    sub_768(c1, c1, a1);
    sub_768(c1, c1, b1);
    fix_sign_768(c1);
    /* o0 = T0 + xi T1 = (T0.c0 + T1.c0 - T1.c1) + (T0.c1 + T1.c0 + T1.c1) u */
    add_768(a0, a0, b0);
    sub_768(a0, a0, b1);
    fix_sign_768(a0);
    add_768(a1, a1, b0);
    add_768(a1, a1, b1);
    redc_768_adx(o1->c0.l, c0);
    redc_768_adx(o1->c1.l, c1);
    redc_768_adx(o0->c0.l, a0);
    redc_768_adx(o0->c1.l, a1);
}

/*
 * Fp2 products with the Fp kernel inlined, one template for BLS12-381 (6
 * limbs, mont_mul6_adx) and BN254 (4 limbs, mont_mul4_adx on p): the same
 * arithmetic as ffp2_mul_portable / ffp2_sqr_portable (ff_internal.h) and
 * bn_tower.c's portable Fp2 on the dispatching Fp products.
 * Why: three calls per Fp2 product cost about as much as the Karatsuba adds;
 * inlined, the adds also stay in registers, and the path is chosen once per
 * Fp2 product instead of once per Fp product.
 * Invariants: the sums a0 + a1, b0 + b1, 2 a0 are < 2m, which both kernels
 * accept (4m < 2^(64 n) for p < 2^381 and BN254's p < 2^254, so the result
 * before the final subtraction is < (4m^2 + 2^(64 n) m) / 2^(64 n) < 2m);
 * outputs < m; out may alias a or b.
 */
#define FF_DEFINE_FP2_ADX(mul_name, sqr_name, FP2, FP, MULK, ADD_NR, SUB)                         \
    void mul_name(FP2 *out, const FP2 *a, const FP2 *b)                                            \
    {                                                                                              \
        FP v0, v1, sa, sb;                                                                         \
        ADD_NR(&sa, &a->c0, &a->c1); /* < 2m */                                                    \
        ADD_NR(&sb, &b->c0, &b->c1); /* < 2m */                                                    \
        MULK(v0.l, a->c0.l, b->c0.l);                                                              \
        MULK(v1.l, a->c1.l, b->c1.l);                                                              \
        MULK(sa.l, sa.l, sb.l); /* < m */                                                          \
        SUB(&out->c0, &v0, &v1);                                                                   \
        SUB(&sa, &sa, &v0);                                                                        \
        SUB(&out->c1, &sa, &v1);                                                                   \
    }                                                                                              \
    void sqr_name(FP2 *out, const FP2 *a)                                                          \
    {                                                                                              \
        FP s, d, a2;                                                                               \
        ADD_NR(&s, &a->c0, &a->c1); /* < 2m */                                                     \
        SUB(&d, &a->c0, &a->c1);                                                                   \
        ADD_NR(&a2, &a->c0, &a->c0); /* < 2m */                                                    \
        MULK(out->c1.l, a2.l, a->c1.l);                                                            \
        MULK(out->c0.l, s.l, d.l);                                                                 \
    }

FF_DEFINE_FP2_ADX(fp2_mul_adx_full, fp2_sqr_adx, fp2_t, fp_t, mont_mul6_adx, ffp_add_nr, ffp_sub)

/* BN254's Fp pieces for the template: the 4-limb kernel on p, the unreduced
 * sum (< 2p < 2^256) and the reduced difference. */
static inline __attribute__((always_inline)) void bn_mul4_adx(uint64_t out[4], const uint64_t *a,
                                                                const uint64_t *b)
{
    mont_mul4_adx(out, a, b, BN254_FP_MODULUS, BN254_FP_MINV);
}
static inline __attribute__((always_inline)) void bn_add_nr(bn_fp_t *out, const bn_fp_t *a,
                                                              const bn_fp_t *b)
{
    uint8_t c = 0;
    for (int i = 0; i < BN254_LIMBS; i++)
        c = ff_addc(c, a->l[i], b->l[i], &out->l[i]);
}
static inline __attribute__((always_inline)) void bn_sub(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b)
{
    ff_mod_sub(out->l, a->l, b->l, BN254_FP_MODULUS, BN254_LIMBS);
}

FF_DEFINE_FP2_ADX(bn_fp2_mul_adx, bn_fp2_sqr_adx, bn_fp2_t, bn_fp_t, bn_mul4_adx, bn_add_nr, bn_sub)
