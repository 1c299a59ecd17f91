/*
 * ff/ff.h — the BLS12-381 fields: Fp (base field, 381 bits, 6 x 64-bit limbs),
 * Fr (scalar field, 255 bits, 4 x 64-bit limbs) and the tower
 * Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (u + 1)), Fp12 = Fp6[w]/(w^2 - v);
 * and, in the last section, BN254's (bn_ prefix).
 *
 * Conventions for every function below unless it says otherwise:
 *  - fp_t and fr_t hold Montgomery form a*R mod m (R = 2^384 for Fp, 2^256 for
 *    Fr), limbs little-endian, and are always fully reduced: 0 <= value < m.
 *    Every function takes reduced inputs and returns reduced outputs
 *    (checked under GM_VERIFY). Bytes and integers go in and out only through
 *    the *_from_* / *_to_* functions.
 *  - Outputs come first; any output may alias any input.
 *  - No function allocates, prints or fails on a reduced input, except those
 *    returning int, which return 0 or a negative gm_status_t (base/base.h),
 *    and the square roots (false: no root). All of those are
 *    warn_unused_result; their outputs are untouched on failure.
 *  - Not constant time: grothmpi proves with public parameters and its
 *    randomness (r, s) is fresh per proof, and speed is the point. Do not use
 *    these functions for long-term secret keys.
 *
 * Thread safety: ff_init must run once, before any thread starts; afterwards
 * every function is safe to call from any thread on distinct outputs.
 */
#ifndef GM_FF_H
#define GM_FF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FP_LIMBS 6
#define FR_LIMBS 4
#define FP_BYTES 48
#define FR_BYTES 32

typedef struct { uint64_t l[FP_LIMBS]; } fp_t;
typedef struct { uint64_t l[FR_LIMBS]; } fr_t;
typedef struct { fp_t c0, c1; } fp2_t;           /* c0 + c1*u */
typedef struct { fp2_t c0, c1, c2; } fp6_t;      /* c0 + c1*v + c2*v^2 */
typedef struct { fp6_t c0, c1; } fp12_t;         /* c0 + c1*w */

/* ---- dispatch ---------------------------------------------------------------- */

/* The multiplication kernels: portable C on unsigned __int128, or MULX/ADX
 * (inline assembly), which needs a CPU with the BMI2 and ADX extensions. */
typedef enum {
    FF_PATH_AUTO = 0,     /* ADX when CPUID reports BMI2 and ADX, else portable */
    FF_PATH_PORTABLE = 1,
    FF_PATH_ADX = 2,
} ff_path_t;

/* Selects the kernel path; FF_PATH_AUTO asks CPUID. The environment variable
 * GROTHMPI_FF_PATH=portable|adx overrides an FF_PATH_AUTO request. Returns 0,
 * or GM_ENOTSUP when FF_PATH_ADX is asked for on a CPU without BMI2/ADX (the
 * path is then left unchanged). Call from main (or a test's setup) before any
 * thread starts; the choice is the project's one global, read-only afterwards. */
int ff_init(ff_path_t path) __attribute__((warn_unused_result));

/* The path in use now (never FF_PATH_AUTO); "portable" or "adx" as text. */
ff_path_t ff_path(void);
const char *ff_path_name(void);

/* ---- Fp ---------------------------------------------------------------------- */

/* Constants: 0, 1 (Montgomery), and the modulus p as plain little-endian limbs. */
/* (0 is FP_ZERO_ELEM, not FP_ZERO: <math.h> defines FP_ZERO.) */
extern const fp_t FP_ZERO_ELEM, FP_ONE;
extern const uint64_t FP_MODULUS[FP_LIMBS];

void fp_set_u64(fp_t *out, uint64_t v);
bool fp_is_zero(const fp_t *a);
bool fp_is_one(const fp_t *a);
bool fp_eq(const fp_t *a, const fp_t *b);
void fp_add(fp_t *out, const fp_t *a, const fp_t *b);
void fp_sub(fp_t *out, const fp_t *a, const fp_t *b);
void fp_neg(fp_t *out, const fp_t *a);          /* -0 = 0 */
void fp_dbl(fp_t *out, const fp_t *a);
void fp_half(fp_t *out, const fp_t *a);         /* a / 2 */
void fp_mul(fp_t *out, const fp_t *a, const fp_t *b);
void fp_sqr(fp_t *out, const fp_t *a);
/* out = a^-1; the inverse of 0 is 0. Binary extended GCD (variable time). */
void fp_inv(fp_t *out, const fp_t *a);
/* out[i] = a[i]^-1 for i < n with one inversion (Montgomery's trick); zeros map
 * to zero. scratch holds n elements; out may alias a but not scratch. */
void fp_batch_inv(fp_t *out, const fp_t *a, size_t n, fp_t *scratch);
/* out = a^e, e given as nlimbs little-endian 64-bit limbs (a plain integer). */
void fp_pow(fp_t *out, const fp_t *a, const uint64_t *e, size_t nlimbs);
/* Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for 0. */
int fp_legendre(const fp_t *a);
/* out = a square root of a (either one); returns false, out untouched, when a
 * is not a square. */
bool fp_sqrt(fp_t *out, const fp_t *a) __attribute__((warn_unused_result));
/* The "sign" of the Zcash encoding: true when the canonical value of a is
 * lexicographically largest, i.e. a > (p - 1) / 2. */
bool fp_is_lex_largest(const fp_t *a);

/* Canonical bytes: 48 bytes big-endian (the curve encodings) or little-endian.
 * from_* returns GM_ENONCANON when the value is >= p (out untouched). */
int fp_from_bytes_be(fp_t *out, const uint8_t in[FP_BYTES]) __attribute__((warn_unused_result));
int fp_from_bytes_le(fp_t *out, const uint8_t in[FP_BYTES]) __attribute__((warn_unused_result));
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a);
void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a);
/* Plain integer limbs (little-endian, not Montgomery) in and out; from returns
 * GM_ENONCANON when >= p. */
int fp_from_limbs(fp_t *out, const uint64_t in[FP_LIMBS]) __attribute__((warn_unused_result));
void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a);
/* Decimal strings, as snarkjs JSON writes them ("0" .. "p-1", no sign, no
 * leading zeros except "0"). from returns GM_EFORMAT for an empty string, a
 * non-digit or leading zeros, GM_ENONCANON for a value >= p. to writes at most
 * 116 bytes and a NUL; buf must hold FP_DEC_MAX. */
#define FP_DEC_MAX 118
int fp_from_dec(fp_t *out, const char *s) __attribute__((warn_unused_result));
void fp_to_dec(char buf[FP_DEC_MAX], const fp_t *a);

/* ---- Fr ------------------------------------------------------------------------ */

extern const fr_t FR_ZERO, FR_ONE;
extern const uint64_t FR_MODULUS[FR_LIMBS];

void fr_set_u64(fr_t *out, uint64_t v);
bool fr_is_zero(const fr_t *a);
bool fr_is_one(const fr_t *a);
bool fr_eq(const fr_t *a, const fr_t *b);
void fr_add(fr_t *out, const fr_t *a, const fr_t *b);
void fr_sub(fr_t *out, const fr_t *a, const fr_t *b);
void fr_neg(fr_t *out, const fr_t *a);
void fr_dbl(fr_t *out, const fr_t *a);
void fr_half(fr_t *out, const fr_t *a);         /* a / 2 */
void fr_mul(fr_t *out, const fr_t *a, const fr_t *b);
void fr_sqr(fr_t *out, const fr_t *a);
void fr_inv(fr_t *out, const fr_t *a);          /* inverse of 0 is 0 */
void fr_batch_inv(fr_t *out, const fr_t *a, size_t n, fr_t *scratch);
void fr_pow(fr_t *out, const fr_t *a, const uint64_t *e, size_t nlimbs);
int fr_legendre(const fr_t *a);
bool fr_sqrt(fr_t *out, const fr_t *a) __attribute__((warn_unused_result));
/* 32 bytes; from_* returns GM_ENONCANON when >= r. */
int fr_from_bytes_be(fr_t *out, const uint8_t in[FR_BYTES]) __attribute__((warn_unused_result));
int fr_from_bytes_le(fr_t *out, const uint8_t in[FR_BYTES]) __attribute__((warn_unused_result));
void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a);
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a);
/* Any 32 bytes little-endian, reduced mod r (for hashes and random scalars). */
void fr_from_bytes_le_mod(fr_t *out, const uint8_t in[FR_BYTES]);
int fr_from_limbs(fr_t *out, const uint64_t in[FR_LIMBS]) __attribute__((warn_unused_result));
void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a);   /* plain integer */
#define FR_DEC_MAX 80
int fr_from_dec(fr_t *out, const char *s) __attribute__((warn_unused_result));
void fr_to_dec(char buf[FR_DEC_MAX], const fr_t *a);
/* The 2^32-th primitive root of unity 7^((r-1)/2^32) and the multiplicative
 * generator 7 (Fr's 2-adicity is 32). */
extern const fr_t FR_GENERATOR;
#define FR_TWO_ADICITY 32
/* out = a primitive 2^k-th root of unity (k <= 32), the one bellperson and
 * snarkjs use: FR_ROOT_OF_UNITY squared 32 - k times. */
void fr_root_of_unity(fr_t *out, unsigned k);

/* ---- Fp2 ----------------------------------------------------------------------- */

extern const fp2_t FP2_ZERO, FP2_ONE;

bool fp2_is_zero(const fp2_t *a);
bool fp2_is_one(const fp2_t *a);
bool fp2_eq(const fp2_t *a, const fp2_t *b);
void fp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b);
void fp2_sub(fp2_t *out, const fp2_t *a, const fp2_t *b);
void fp2_neg(fp2_t *out, const fp2_t *a);
void fp2_dbl(fp2_t *out, const fp2_t *a);
void fp2_conj(fp2_t *out, const fp2_t *a);                  /* c0 - c1*u */
void fp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b);
void fp2_sqr(fp2_t *out, const fp2_t *a);
void fp2_mul_fp(fp2_t *out, const fp2_t *a, const fp_t *b);
void fp2_mul_nonresidue(fp2_t *out, const fp2_t *a);        /* a * (u + 1) */
void fp2_inv(fp2_t *out, const fp2_t *a);                   /* inverse of 0 is 0 */
void fp2_batch_inv(fp2_t *out, const fp2_t *a, size_t n, fp2_t *scratch);
void fp2_pow(fp2_t *out, const fp2_t *a, const uint64_t *e, size_t nlimbs);
void fp2_frobenius(fp2_t *out, const fp2_t *a);             /* a^p = conj(a) */
int fp2_legendre(const fp2_t *a);                           /* via the norm */
bool fp2_sqrt(fp2_t *out, const fp2_t *a) __attribute__((warn_unused_result));                  /* false: no root */
/* Zcash sign of an Fp2 element: c1 lexicographically largest, or c1 == 0 and
 * c0 lexicographically largest. */
bool fp2_is_lex_largest(const fp2_t *a);

/* ---- inline kernels: add, sub, neg, is_zero ------------------------------------ */
/*
 * The arithmetic of fp_add, fp_sub, fp_neg, fp_is_zero (ffp_*), their Fp2
 * forms (ffp2_*) and Fr's (ffr_*) as static inline functions, for the hot
 * loops of ff/ itself and of other folders (ec/msm.c), where the call of the
 * out-of-line public function costs as much as the work. Same contracts as
 * the public functions (reduced in and out, outputs may alias inputs), minus
 * their GM_VERIFY checks; ffp_add_nr is the one exception (says so). ff_addc,
 * ff_subb and ff_mod_* are the limb-level pieces (any limb count n <= 8).
 */
/* Not for nvcc (gpu/gpu_cuda.cu needs only the types; it rejects the
 * assembly's output-only registers as unused variables). */
#ifndef __CUDACC__
#define FF_INLINE static inline __attribute__((always_inline))

/* One limb of an add-with-carry / subtract-with-borrow chain. On x86-64 the
 * intrinsics compile to adc/sbb (base ISA, no extension needed); GCC 12
 * turns the unsigned __int128 form into a slower setc/movzx sequence. */
#if defined(__x86_64__)
#include <x86intrin.h>
FF_INLINE uint8_t ff_addc(uint8_t c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned long long r;
    c = _addcarry_u64(c, a, b, &r);
    *out = r;
    return c;
}
FF_INLINE uint8_t ff_subb(uint8_t c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned long long r;
    c = _subborrow_u64(c, a, b, &r);
    *out = r;
    return c;
}
#else
FF_INLINE uint8_t ff_addc(uint8_t c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned __int128 x = (unsigned __int128)a + b + c;
    *out = (uint64_t)x;
    return (uint8_t)(x >> 64);
}
FF_INLINE uint8_t ff_subb(uint8_t c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned __int128 x = (unsigned __int128)a - b - c;
    *out = (uint64_t)x;
    return (uint8_t)((x >> 64) & 1);
}
#endif

/* out = a + b mod m; a, b < m < 2^(64n - 1) (so a + b does not carry out of
 * n limbs). Branch-free: t - m is kept unless it borrowed. */
FF_INLINE void ff_mod_add(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t t[8], d[8];
    uint8_t c = 0, bw = 0;
    for (int i = 0; i < n; i++)
        c = ff_addc(c, a[i], b[i], &t[i]);
    for (int i = 0; i < n; i++)
        bw = ff_subb(bw, t[i], m[i], &d[i]);
    uint64_t keep = -(uint64_t)bw; /* all ones: t < m, keep t */
    for (int i = 0; i < n; i++)
        out[i] = d[i] ^ ((t[i] ^ d[i]) & keep);
}

/* out = a - b mod m; a, b < m. */
FF_INLINE void ff_mod_sub(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t t[8];
    uint8_t borrow = 0, carry = 0;
    for (int i = 0; i < n; i++)
        borrow = ff_subb(borrow, a[i], b[i], &t[i]);
    uint64_t mask = -(uint64_t)borrow;
    for (int i = 0; i < n; i++)
        carry = ff_addc(carry, t[i], m[i] & mask, &out[i]);
}

/* out = -a mod m; a < m; -0 = 0. */
FF_INLINE void ff_mod_neg(uint64_t *out, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t nz = 0;
    for (int i = 0; i < n; i++)
        nz |= a[i];
    uint64_t mask = -(uint64_t)(nz != 0);
    uint8_t borrow = 0;
    for (int i = 0; i < n; i++)
        borrow = ff_subb(borrow, m[i] & mask, a[i], &out[i]);
}

/*
 * Why: the tower spends as much time in Fp additions as in multiplications
 * (the pairing: ~55k add/sub against ~14k mul). The public fp_add is a call,
 * and a C select of the reduced value compiles to a data-dependent branch
 * (mispredicted half the time) or a store/reload of both candidates. These
 * are always_inline, branch-free (mask select), registers only. They are
 * here, not in ff_internal.h, so that the hot loops of other folders (ec/'s
 * MSM: six subtractions per bucket addition) inline them too.
 * Invariants: inputs and outputs as each comment says; "< 2p" values are
 * *lazy*: valid only as multiplication inputs (ffp_mul) or to ffp_add_nr,
 * never stored in a public fp_t. p < 2^381, so 4p < 2^384 fits six limbs.
 */
#define FFP_P0 0xb9feffffffffaaabULL
#define FFP_P1 0x1eabfffeb153ffffULL
#define FFP_P2 0x6730d2a0f6b0f624ULL
#define FFP_P3 0x64774b84f38512bfULL
#define FFP_P4 0x4b1ba7b6434bacd7ULL
#define FFP_P5 0x1a0111ea397fe69aULL

/* p as limbs; one memory operand for the assembly ("8+%[p]" is limb 1). */
static const uint64_t FFP_PM[6] __attribute__((aligned(64))) = {FFP_P0, FFP_P1, FFP_P2,
                                                               FFP_P3, FFP_P4, FFP_P5};

#if defined(__x86_64__)
#define FFP_L6(op, src, off, dst) op " " off "(%[" src "]), %[" dst "]\n\t"

/* The six result registers of the assembly kernels below, into out. */
FF_INLINE void ffp_set6(fp_t *out, uint64_t r0, uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5)
{
    out->l[0] = r0;
    out->l[1] = r1;
    out->l[2] = r2;
    out->l[3] = r3;
    out->l[4] = r4;
    out->l[5] = r5;
}

#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__) && !defined(GM_VERIFY_ON)
/* out = a + b mod p; a, b < p. Inline assembly because GCC turns the C select
 * into either a branch or a vectorized store/reload (store-forwarding stall):
 * t = a + b (< 2p, no carry out) in six registers, d = t - p in six more,
 * cmovnc takes d when the subtraction did not borrow. 13 registers (a's
 * pointer is reused once a is loaded; a "memory" clobber instead of memory
 * operands for *a and *b, which would each want one more address register),
 * which GCC and clang find at -O3 even with a frame pointer; the sanitizer,
 * GM_VERIFY and fuzz builds (-O1, frame pointer, instrumentation: clang finds
 * too few) use the slower variant below. All of a and b is read before out is
 * written (aliasing is fine). bench/README.md has the timings of both. */
FF_INLINE void ffp_add(fp_t *out, const fp_t *a, const fp_t *b)
{
    uint64_t r0, r1, r2, r3, r4, r5, d1, d2, d3, d4, d5;
    const uint64_t *pa = a->l; /* a's register becomes d0 once a is loaded */
    __asm__("movq 0(%[a]), %[r0]\n\t" "movq 8(%[a]), %[r1]\n\t" "movq 16(%[a]), %[r2]\n\t"
            "movq 24(%[a]), %[r3]\n\t" "movq 32(%[a]), %[r4]\n\t" "movq 40(%[a]), %[r5]\n\t"
            FFP_L6("addq", "b", "0", "r0") FFP_L6("adcq", "b", "8", "r1")
            FFP_L6("adcq", "b", "16", "r2") FFP_L6("adcq", "b", "24", "r3")
            FFP_L6("adcq", "b", "32", "r4") FFP_L6("adcq", "b", "40", "r5")
            "movq %[r0], %[a]\n\t" "subq %[p], %[a]\n\t"
            "movq %[r1], %[d1]\n\t" "sbbq 8+%[p], %[d1]\n\t"
            "movq %[r2], %[d2]\n\t" "sbbq 16+%[p], %[d2]\n\t"
            "movq %[r3], %[d3]\n\t" "sbbq 24+%[p], %[d3]\n\t"
            "movq %[r4], %[d4]\n\t" "sbbq 32+%[p], %[d4]\n\t"
            "movq %[r5], %[d5]\n\t" "sbbq 40+%[p], %[d5]\n\t"
            "cmovncq %[a], %[r0]\n\t" "cmovncq %[d1], %[r1]\n\t" "cmovncq %[d2], %[r2]\n\t"
            "cmovncq %[d3], %[r3]\n\t" "cmovncq %[d4], %[r4]\n\t" "cmovncq %[d5], %[r5]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [d4] "=&r"(d4),
              [d5] "=&r"(d5), [a] "+&r"(pa)
            : [b] "r"(b->l), [p] "m"(FFP_PM)
            : "cc", "memory");
    ffp_set6(out, r0, r1, r2, r3, r4, r5);
}

/* out = a - b mod p; a, b < p. d = a - b; m = -borrow (in a's register, dead
 * by then); d + (p & m) in registers (b's register holds the top limb of
 * p & m). 13 registers. */
FF_INLINE void ffp_sub(fp_t *out, const fp_t *a, const fp_t *b)
{
    uint64_t r0, r1, r2, r3, r4, r5, d0, d1, d2, d3, d4;
    const uint64_t *pa = a->l, *pb = b->l; /* b's register becomes d5 */
    __asm__("movq 0(%[a]), %[r0]\n\t" "movq 8(%[a]), %[r1]\n\t" "movq 16(%[a]), %[r2]\n\t"
            "movq 24(%[a]), %[r3]\n\t" "movq 32(%[a]), %[r4]\n\t" "movq 40(%[a]), %[r5]\n\t"
            FFP_L6("subq", "b", "0", "r0") FFP_L6("sbbq", "b", "8", "r1")
            FFP_L6("sbbq", "b", "16", "r2") FFP_L6("sbbq", "b", "24", "r3")
            FFP_L6("sbbq", "b", "32", "r4") FFP_L6("sbbq", "b", "40", "r5")
            "sbbq %[a], %[a]\n\t"
            "movq %[p], %[d0]\n\t" "andq %[a], %[d0]\n\t"
            "movq 8+%[p], %[d1]\n\t" "andq %[a], %[d1]\n\t"
            "movq 16+%[p], %[d2]\n\t" "andq %[a], %[d2]\n\t"
            "movq 24+%[p], %[d3]\n\t" "andq %[a], %[d3]\n\t"
            "movq 32+%[p], %[d4]\n\t" "andq %[a], %[d4]\n\t"
            "movq 40+%[p], %[b]\n\t" "andq %[a], %[b]\n\t"
            "addq %[d0], %[r0]\n\t" "adcq %[d1], %[r1]\n\t" "adcq %[d2], %[r2]\n\t"
            "adcq %[d3], %[r3]\n\t" "adcq %[d4], %[r4]\n\t" "adcq %[b], %[r5]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
              [d4] "=&r"(d4), [a] "+&r"(pa), [b] "+&r"(pb)
            : [p] "m"(FFP_PM)
            : "cc", "memory");
    ffp_set6(out, r0, r1, r2, r3, r4, r5);
}
#else /* sanitizer, GM_VERIFY or unoptimized build: 8 registers, a stack temporary */
/* out = a + b mod p; a, b < p: t = a + b (< 2p, no carry out) is parked in tmp, d = t - p computed in
 * place, and cmovc takes t back when the subtraction borrowed. Eight
 * registers; all of a and b is read before out is written (aliasing is fine). */
FF_INLINE void ffp_add(fp_t *out, const fp_t *a, const fp_t *b)
{
    uint64_t r0, r1, r2, r3, r4, r5, tmp[6];
    __asm__("movq 0(%[a]), %[r0]\n\t" "movq 8(%[a]), %[r1]\n\t" "movq 16(%[a]), %[r2]\n\t"
            "movq 24(%[a]), %[r3]\n\t" "movq 32(%[a]), %[r4]\n\t" "movq 40(%[a]), %[r5]\n\t"
            FFP_L6("addq", "b", "0", "r0") FFP_L6("adcq", "b", "8", "r1")
            FFP_L6("adcq", "b", "16", "r2") FFP_L6("adcq", "b", "24", "r3")
            FFP_L6("adcq", "b", "32", "r4") FFP_L6("adcq", "b", "40", "r5")
            "movq %[r0], %[t]\n\t" "movq %[r1], 8+%[t]\n\t" "movq %[r2], 16+%[t]\n\t"
            "movq %[r3], 24+%[t]\n\t" "movq %[r4], 32+%[t]\n\t" "movq %[r5], 40+%[t]\n\t"
            "subq %[p], %[r0]\n\t" "sbbq 8+%[p], %[r1]\n\t" "sbbq 16+%[p], %[r2]\n\t"
            "sbbq 24+%[p], %[r3]\n\t" "sbbq 32+%[p], %[r4]\n\t" "sbbq 40+%[p], %[r5]\n\t"
            "cmovcq %[t], %[r0]\n\t" "cmovcq 8+%[t], %[r1]\n\t" "cmovcq 16+%[t], %[r2]\n\t"
            "cmovcq 24+%[t], %[r3]\n\t" "cmovcq 32+%[t], %[r4]\n\t" "cmovcq 40+%[t], %[r5]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [t] "=m"(tmp)
            : [a] "r"(a->l), [b] "r"(b->l), [p] "m"(FFP_PM), "m"(a->l), "m"(b->l)
            : "cc");
    ffp_set6(out, r0, r1, r2, r3, r4, r5);
}

/* out = a - b mod p; a, b < p. d = a - b; m = -borrow; d is parked, d + p
 * computed in place, and cmovz takes d back when there was no borrow. */
FF_INLINE void ffp_sub(fp_t *out, const fp_t *a, const fp_t *b)
{
    uint64_t r0, r1, r2, r3, r4, r5, tmp[6];
    const uint64_t *pa = a->l;
    __asm__("movq 0(%[a]), %[r0]\n\t" "movq 8(%[a]), %[r1]\n\t" "movq 16(%[a]), %[r2]\n\t"
            "movq 24(%[a]), %[r3]\n\t" "movq 32(%[a]), %[r4]\n\t" "movq 40(%[a]), %[r5]\n\t"
            FFP_L6("subq", "b", "0", "r0") FFP_L6("sbbq", "b", "8", "r1")
            FFP_L6("sbbq", "b", "16", "r2") FFP_L6("sbbq", "b", "24", "r3")
            FFP_L6("sbbq", "b", "32", "r4") FFP_L6("sbbq", "b", "40", "r5")
            "sbbq %[a], %[a]\n\t"
            "movq %[r0], %[t]\n\t" "movq %[r1], 8+%[t]\n\t" "movq %[r2], 16+%[t]\n\t"
            "movq %[r3], 24+%[t]\n\t" "movq %[r4], 32+%[t]\n\t" "movq %[r5], 40+%[t]\n\t"
            "addq %[p], %[r0]\n\t" "adcq 8+%[p], %[r1]\n\t" "adcq 16+%[p], %[r2]\n\t"
            "adcq 24+%[p], %[r3]\n\t" "adcq 32+%[p], %[r4]\n\t" "adcq 40+%[p], %[r5]\n\t"
            "testq %[a], %[a]\n\t"
            "cmovzq %[t], %[r0]\n\t" "cmovzq 8+%[t], %[r1]\n\t" "cmovzq 16+%[t], %[r2]\n\t"
            "cmovzq 24+%[t], %[r3]\n\t" "cmovzq 32+%[t], %[r4]\n\t" "cmovzq 40+%[t], %[r5]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [t] "=m"(tmp), [a] "+&r"(pa)
            : [b] "r"(b->l), [p] "m"(FFP_PM), "m"(a->l), "m"(b->l)
            : "cc");
    ffp_set6(out, r0, r1, r2, r3, r4, r5);
}
#endif
#else
/* out = a + b mod p; a, b < p. */
FF_INLINE void ffp_add(fp_t *out, const fp_t *a, const fp_t *b) { ff_mod_add(out->l, a->l, b->l, FFP_PM, 6); }

/* out = a - b mod p; a, b < p. */
FF_INLINE void ffp_sub(fp_t *out, const fp_t *a, const fp_t *b) { ff_mod_sub(out->l, a->l, b->l, FFP_PM, 6); }
#endif

/* out = a + b, no reduction; a + b < 2^384 (e.g. a, b < 2p gives < 4p). */
FF_INLINE void ffp_add_nr(fp_t *out, const fp_t *a, const fp_t *b)
{
    uint8_t c = 0;
    for (int i = 0; i < 6; i++)
        c = ff_addc(c, a->l[i], b->l[i], &out->l[i]);
}

FF_INLINE void ffp_dbl(fp_t *out, const fp_t *a) { ffp_add(out, a, a); }

/* out = -a mod p; a < p; -0 = 0. */
FF_INLINE void ffp_neg(fp_t *out, const fp_t *a) { ff_mod_neg(out->l, a->l, FFP_PM, 6); }

FF_INLINE bool ffp_is_zero(const fp_t *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}

FF_INLINE void ffp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    ffp_add(&out->c0, &a->c0, &b->c0);
    ffp_add(&out->c1, &a->c1, &b->c1);
}

FF_INLINE void ffp2_sub(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    ffp_sub(&out->c0, &a->c0, &b->c0);
    ffp_sub(&out->c1, &a->c1, &b->c1);
}

FF_INLINE void ffp2_dbl(fp2_t *out, const fp2_t *a)
{
    ffp_add(&out->c0, &a->c0, &a->c0);
    ffp_add(&out->c1, &a->c1, &a->c1);
}

FF_INLINE void ffp2_neg(fp2_t *out, const fp2_t *a)
{
    ffp_neg(&out->c0, &a->c0);
    ffp_neg(&out->c1, &a->c1);
}

FF_INLINE bool ffp2_is_zero(const fp2_t *a) { return ffp_is_zero(&a->c0) && ffp_is_zero(&a->c1); }

/* Fr: the same contracts as fr_add, fr_sub, fr_neg, fr_is_zero, inline (no
 * GM_VERIFY checks: the public functions keep those). */
static const uint64_t FFR_RM[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                   0x73eda753299d7d48ULL};
FF_INLINE void ffr_add(fr_t *out, const fr_t *a, const fr_t *b) { ff_mod_add(out->l, a->l, b->l, FFR_RM, 4); }
FF_INLINE void ffr_sub(fr_t *out, const fr_t *a, const fr_t *b) { ff_mod_sub(out->l, a->l, b->l, FFR_RM, 4); }
FF_INLINE void ffr_neg(fr_t *out, const fr_t *a) { ff_mod_neg(out->l, a->l, FFR_RM, 4); }
FF_INLINE bool ffr_is_zero(const fr_t *a) { return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0; }
#endif /* __CUDACC__ */

/* ---- Fp6 and Fp12 (pairing target) ------------------------------------------------ */

extern const fp6_t FP6_ZERO, FP6_ONE;
extern const fp12_t FP12_ONE;

bool fp6_is_zero(const fp6_t *a);
bool fp6_eq(const fp6_t *a, const fp6_t *b);
void fp6_add(fp6_t *out, const fp6_t *a, const fp6_t *b);
void fp6_sub(fp6_t *out, const fp6_t *a, const fp6_t *b);
void fp6_neg(fp6_t *out, const fp6_t *a);
void fp6_mul(fp6_t *out, const fp6_t *a, const fp6_t *b);
void fp6_sqr(fp6_t *out, const fp6_t *a);
void fp6_mul_by_v(fp6_t *out, const fp6_t *a);              /* a * v */
void fp6_inv(fp6_t *out, const fp6_t *a);                   /* inverse of 0 is 0 */
/* out = a^(p^k), k = 1, 2 or 3 (others: k mod 6 through repetition). */
void fp6_frobenius(fp6_t *out, const fp6_t *a, unsigned k);

bool fp12_is_one(const fp12_t *a);
bool fp12_eq(const fp12_t *a, const fp12_t *b);
void fp12_mul(fp12_t *out, const fp12_t *a, const fp12_t *b);
void fp12_sqr(fp12_t *out, const fp12_t *a);
void fp12_inv(fp12_t *out, const fp12_t *a);                /* inverse of 0 is 0 */
void fp12_conj(fp12_t *out, const fp12_t *a);               /* a^(p^6) */
/* out = a^(p^k): one pass for k = 1, 2, 3 (6: fp12_conj), other k by
 * repetition (k mod 12). */
void fp12_frobenius(fp12_t *out, const fp12_t *a, unsigned k);
/* Granger–Scott squaring; only valid for a in the cyclotomic subgroup, i.e.
 * a^(p^4 - p^2 + 1) = 1 (every value after the easy part of the final
 * exponentiation); on other inputs the result is garbage, not a^2. */
void fp12_cyclotomic_sqr(fp12_t *out, const fp12_t *a);
/* out = a * (l0 + l1*v + l4*v*w): the sparse line value the Miller loop of
 * ec/pairing.c produces on the M-type twist (the flat basis 1, v, v^2, w, vw,
 * v^2w has non-zero coefficients 0, 1 and 4 only; l1 carries xP, l4 carries
 * yP). 13 Fp2 multiplications instead of 18. */
void fp12_mul_by_014(fp12_t *out, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4);
/* out = a^e, e a plain integer of nlimbs little-endian limbs (a^0 = 1);
 * square-and-multiply with fp12_sqr, valid for any a. */
void fp12_pow(fp12_t *out, const fp12_t *a, const uint64_t *e, size_t nlimbs);
/* 576 bytes: the 12 Fp coefficients big-endian in the order c0.c0.c0, c0.c0.c1,
 * c0.c1.c0, ..., c1.c2.c1 (as blst and @noble/curves print them). */
void fp12_to_bytes_be(uint8_t out[576], const fp12_t *a);

/* ---- Fr on 8 lanes (AVX-512 IFMA, ff/fr_ifma.c) ------------------------------------
 *
 * Eight independent Fr operations at once, for the NTT. Values in memory are
 * ordinary fr_t (reduced, Montgomery); every output below is reduced and
 * equal, lane by lane, to what fr_mul / fr_add / fr_sub give. The kernels
 * need a CPU with AVX-512 F, VL and IFMA: call them only while
 * fr_x8_enabled() is true (they fault otherwise). A second factor that is
 * reused (a twiddle) is prepared once as an fr_tw_t (one factor for all 8
 * lanes) or an fr_tw8_t (one factor per lane): 16 a mod r in 5 limbs of 52
 * bits, so that the radix-2^52 Montgomery product (R = 2^260) gives fr_mul's
 * a b 2^-256. Lane b of "8 points at x with lane stride ls" is x[b * ls]. */

typedef enum {
    FR_X8_AUTO = 0,   /* on when the CPU has IFMA, unless GROTHMPI_FR_X8=off (or 0) */
    FR_X8_OFF = 1,    /* the scalar path everywhere */
    FR_X8_ON = 2,
} fr_x8_mode_t;

/* Chooses whether callers (ntt/ on both curves, with BN254's Fr lanes in
 * ff/bn_fr_ifma.c; ec/'s G1 MSMs, whose Fp lanes live in ec/g1_x8.c and
 * ec/bn_g1_x8.c) take the 8-lane path. Returns 0, or
 * GM_ENOTSUP for FR_X8_ON on a CPU without AVX-512 IFMA (the choice is then
 * unchanged). Without a call, the first fr_x8_enabled() decides as
 * FR_X8_AUTO. Call before threads that transform start (tests switch paths
 * between transforms). */
int fr_x8_init(fr_x8_mode_t mode) __attribute__((warn_unused_result));
/* True when the 8-lane kernels below may run (and callers should use them). */
bool fr_x8_enabled(void);

/* The types and kernels of one field (fe: its prefix, T: its element type),
 * declared once for both curves by FF_X8_DECLARE (fr here, bn_fr below):
 *
 * fe_tw_t, fe_tw8_t: one prepared factor, eight (limb-major: l[limb][lane]).
 *
 * Preparation (scalar, any CPU): fe_tw_from: out = the factor a in the
 * kernels' form; fe_tw8_set fills lane (lane & 7) of out.
 *
 * fe_x8_mul, _add, _sub: out[b] = a[b] * b[b], a[b] + b[b], a[b] - b[b] for
 * b < 8 (any aliasing). fe_x8_mul_tw: out[b] = a[b] * f (any aliasing);
 * fe_x8_mul_tw8: x[b] *= f lane b.
 *
 * fe_x8_scale_chain: x[j] *= t_j for j < n (n a multiple of 8): t_0 .. t_7
 * are the lanes of t0, and t_(j+8) = t_j * s with step8 = s prepared.
 *
 * fe_x8_dif4: the radix-4 DIF step of ntt/ntt.c on 8 lanes: the points P_k
 * (k < 4) are read as 8 points at src + k sqs (lane stride ls) and written
 * as 8 points at dst + k dqs (same lane stride), where
 *   y0 = P0 + P2, y2 = (P0 - P2) wa, y1 = P1 + P3, y3 = (P1 - P3) wb,
 *   P0 = y0 + y1, P1 = (y0 - y1) wc, P2 = y2 + y3, P3 = (y2 - y3) wc,
 * wa and wc NULL meaning 1. In place when dst == src and dqs == sqs;
 * otherwise the two sets of points must not overlap. fe_x8_dif4v: in place
 * at x + k qs, lane stride 1 and one twiddle per lane. fe_x8_dif2:
 * (P0, P1) <- (P0 + P1, P0 - P1), read at src and src + sqs, written at dst
 * and dst + dqs. */
#define FF_X8_DECLARE(fe, T)                                                                                    \
    typedef struct { uint64_t l[5]; } fe##_tw_t;                                                                \
    typedef struct { uint64_t l[5][8]; } fe##_tw8_t;                                                            \
    void fe##_tw_from(fe##_tw_t *out, const T *a);                                                              \
    void fe##_tw8_set(fe##_tw8_t *out, unsigned lane, const T *a);                                              \
    void fe##_x8_mul(T out[8], const T a[8], const T b[8]);                                                     \
    void fe##_x8_add(T out[8], const T a[8], const T b[8]);                                                     \
    void fe##_x8_sub(T out[8], const T a[8], const T b[8]);                                                     \
    void fe##_x8_mul_tw(T out[8], const T a[8], const fe##_tw_t *f);                                            \
    void fe##_x8_mul_tw8(T x[8], const fe##_tw8_t *f);                                                          \
    void fe##_x8_scale_chain(T *x, size_t n, const fe##_tw8_t *t0, const fe##_tw_t *step8);                     \
    void fe##_x8_dif4(T *dst, size_t dqs, const T *src, size_t sqs, size_t ls, const fe##_tw_t *wa,             \
                      const fe##_tw_t *wb, const fe##_tw_t *wc);                                                \
    void fe##_x8_dif4v(T *x, size_t qs, const fe##_tw8_t *wa, const fe##_tw8_t *wb, const fe##_tw8_t *wc);      \
    void fe##_x8_dif2(T *dst, size_t dqs, const T *src, size_t sqs, size_t ls)

FF_X8_DECLARE(fr, fr_t);

/* ---- BN254 (alt_bn128, snarkjs's bn128) ----------------------------------------------
 *
 * The fields of BN254, beside BLS12-381's and with the same conventions (top
 * of this file): Fp, p = 0x30644e72...d87cfd47 (254 bits), and Fr,
 * r = 0x30644e72...f0000001 (254 bits), each 4 x 64-bit limbs in Montgomery
 * form with R = 2^256 (the form snarkjs stores in .zkey and .ptau files), and
 * the pairing tower Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi) with
 * xi = 9 + u, Fp12 = Fp6[w]/(w^2 - v) (the tower of snarkjs/ffjavascript,
 * @noble/curves and the Ethereum precompiles). Distinct types, so a BN254
 * element cannot be passed where a BLS12-381 one is expected.
 */

#define BN254_LIMBS 4
#define BN254_BYTES 32

typedef struct { uint64_t l[BN254_LIMBS]; } bn_fp_t;
typedef struct { uint64_t l[BN254_LIMBS]; } bn_fr_t;
typedef struct { bn_fp_t c0, c1; } bn_fp2_t;         /* c0 + c1*u */
typedef struct { bn_fp2_t c0, c1, c2; } bn_fp6_t;    /* c0 + c1*v + c2*v^2 */
typedef struct { bn_fp6_t c0, c1; } bn_fp12_t;       /* c0 + c1*w */

/* BN254 Fp: the same functions and contracts as Fp above (fp_*). */
extern const bn_fp_t BN254_FP_ZERO, BN254_FP_ONE;
extern const uint64_t BN254_FP_MODULUS[BN254_LIMBS];

void bn_fp_set_u64(bn_fp_t *out, uint64_t v);
bool bn_fp_is_zero(const bn_fp_t *a);
bool bn_fp_is_one(const bn_fp_t *a);
bool bn_fp_eq(const bn_fp_t *a, const bn_fp_t *b);
void bn_fp_add(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b);
void bn_fp_sub(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b);
void bn_fp_neg(bn_fp_t *out, const bn_fp_t *a);
void bn_fp_dbl(bn_fp_t *out, const bn_fp_t *a);
void bn_fp_half(bn_fp_t *out, const bn_fp_t *a);
void bn_fp_mul(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b);
void bn_fp_sqr(bn_fp_t *out, const bn_fp_t *a);
void bn_fp_inv(bn_fp_t *out, const bn_fp_t *a);                   /* inverse of 0 is 0 */
/* scratch holds n elements; out may alias a but not scratch; zeros map to 0. */
void bn_fp_batch_inv(bn_fp_t *out, const bn_fp_t *a, size_t n, bn_fp_t *scratch);
void bn_fp_pow(bn_fp_t *out, const bn_fp_t *a, const uint64_t *e, size_t nlimbs);
int bn_fp_legendre(const bn_fp_t *a);
/* p = 3 mod 4: a^((p+1)/4), checked; false (out untouched) for a non-square. */
bool bn_fp_sqrt(bn_fp_t *out, const bn_fp_t *a) __attribute__((warn_unused_result));
/* Canonical 32 bytes: big-endian (the Ethereum precompiles) or little-endian
 * (snarkjs's .wtns and public values); from_* returns GM_ENONCANON for a value
 * >= p, out untouched. */
int bn_fp_from_bytes_be(bn_fp_t *out, const uint8_t in[BN254_BYTES]) __attribute__((warn_unused_result));
int bn_fp_from_bytes_le(bn_fp_t *out, const uint8_t in[BN254_BYTES]) __attribute__((warn_unused_result));
void bn_fp_to_bytes_be(uint8_t out[BN254_BYTES], const bn_fp_t *a);
void bn_fp_to_bytes_le(uint8_t out[BN254_BYTES], const bn_fp_t *a);
/* Montgomery form as 32 bytes little-endian (a*R mod p: how snarkjs stores
 * field elements in .zkey and .ptau sections); from returns GM_ENONCANON when
 * the stored value is >= p. No multiplication: the bytes are the limbs. */
int bn_fp_from_mont_le(bn_fp_t *out, const uint8_t in[BN254_BYTES]) __attribute__((warn_unused_result));
void bn_fp_to_mont_le(uint8_t out[BN254_BYTES], const bn_fp_t *a);
int bn_fp_from_limbs(bn_fp_t *out, const uint64_t in[BN254_LIMBS]) __attribute__((warn_unused_result));
void bn_fp_to_limbs(uint64_t out[BN254_LIMBS], const bn_fp_t *a);
/* Decimal text as snarkjs JSON writes it (see fp_from_dec for the errors). */
#define BN254_DEC_MAX 80
int bn_fp_from_dec(bn_fp_t *out, const char *s) __attribute__((warn_unused_result));
void bn_fp_to_dec(char buf[BN254_DEC_MAX], const bn_fp_t *a);

/* BN254 Fr: the same functions and contracts as Fr above (fr_*). */
extern const bn_fr_t BN254_FR_ZERO, BN254_FR_ONE;
extern const uint64_t BN254_FR_MODULUS[BN254_LIMBS];

void bn_fr_set_u64(bn_fr_t *out, uint64_t v);
bool bn_fr_is_zero(const bn_fr_t *a);
bool bn_fr_is_one(const bn_fr_t *a);
bool bn_fr_eq(const bn_fr_t *a, const bn_fr_t *b);
void bn_fr_add(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b);
void bn_fr_sub(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b);
void bn_fr_neg(bn_fr_t *out, const bn_fr_t *a);
void bn_fr_dbl(bn_fr_t *out, const bn_fr_t *a);
void bn_fr_half(bn_fr_t *out, const bn_fr_t *a);
void bn_fr_mul(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b);
void bn_fr_sqr(bn_fr_t *out, const bn_fr_t *a);
void bn_fr_inv(bn_fr_t *out, const bn_fr_t *a);                   /* inverse of 0 is 0 */
void bn_fr_batch_inv(bn_fr_t *out, const bn_fr_t *a, size_t n, bn_fr_t *scratch);
void bn_fr_pow(bn_fr_t *out, const bn_fr_t *a, const uint64_t *e, size_t nlimbs);
int bn_fr_legendre(const bn_fr_t *a);
int bn_fr_from_bytes_be(bn_fr_t *out, const uint8_t in[BN254_BYTES]) __attribute__((warn_unused_result));
int bn_fr_from_bytes_le(bn_fr_t *out, const uint8_t in[BN254_BYTES]) __attribute__((warn_unused_result));
void bn_fr_to_bytes_be(uint8_t out[BN254_BYTES], const bn_fr_t *a);
void bn_fr_to_bytes_le(uint8_t out[BN254_BYTES], const bn_fr_t *a);
int bn_fr_from_mont_le(bn_fr_t *out, const uint8_t in[BN254_BYTES]) __attribute__((warn_unused_result));
void bn_fr_to_mont_le(uint8_t out[BN254_BYTES], const bn_fr_t *a);
/* Any 32 bytes little-endian, reduced mod r (2^256 < 6r). */
void bn_fr_from_bytes_le_mod(bn_fr_t *out, const uint8_t in[BN254_BYTES]);
int bn_fr_from_limbs(bn_fr_t *out, const uint64_t in[BN254_LIMBS]) __attribute__((warn_unused_result));
void bn_fr_to_limbs(uint64_t out[BN254_LIMBS], const bn_fr_t *a);
int bn_fr_from_dec(bn_fr_t *out, const char *s) __attribute__((warn_unused_result));
void bn_fr_to_dec(char buf[BN254_DEC_MAX], const bn_fr_t *a);
/* Fr's 2-adicity is 28; the multiplicative generator 5 (a non-residue, the
 * one snarkjs uses), and out = the 2^k-th primitive root of unity (k <= 28)
 * snarkjs uses: 5^((r-1)/2^28) squared 28 - k times. */
#define BN254_FR_TWO_ADICITY 28
extern const bn_fr_t BN254_FR_GENERATOR;
void bn_fr_root_of_unity(bn_fr_t *out, unsigned k);

/* BN254 Fr on 8 lanes (AVX-512 IFMA, ff/bn_fr_ifma.c): the same kernels and
 * contracts as Fr's above (FF_X8_DECLARE; the same template
 * ff/fr_ifma_shape.h) for BN254's r; they run only while fr_x8_enabled()
 * (one switch for every field's lanes). */
FF_X8_DECLARE(bn_fr, bn_fr_t); /* bn_fr_tw_t, bn_fr_x8_mul, ... */

/* BN254 Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), xi = 9 + u,
 * Fp12 = Fp6[w]/(w^2 - v) (ff/bn_tower.c): the same contracts as the
 * BLS12-381 tower above (reduced in and out, outputs may alias inputs, the
 * inverse of 0 is 0). */
extern const bn_fp2_t BN254_FP2_ZERO, BN254_FP2_ONE;
extern const bn_fp12_t BN254_FP12_ONE;

bool bn_fp2_is_zero(const bn_fp2_t *a);
bool bn_fp2_eq(const bn_fp2_t *a, const bn_fp2_t *b);
void bn_fp2_add(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b);
void bn_fp2_sub(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b);
void bn_fp2_neg(bn_fp2_t *out, const bn_fp2_t *a);
void bn_fp2_dbl(bn_fp2_t *out, const bn_fp2_t *a);
void bn_fp2_conj(bn_fp2_t *out, const bn_fp2_t *a);                 /* c0 - c1*u = a^p */
void bn_fp2_mul(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp2_t *b);
void bn_fp2_sqr(bn_fp2_t *out, const bn_fp2_t *a);
void bn_fp2_mul_fp(bn_fp2_t *out, const bn_fp2_t *a, const bn_fp_t *b);
void bn_fp2_mul_xi(bn_fp2_t *out, const bn_fp2_t *a);               /* a * (9 + u) */
void bn_fp2_inv(bn_fp2_t *out, const bn_fp2_t *a);

bool bn_fp6_is_zero(const bn_fp6_t *a);
bool bn_fp6_eq(const bn_fp6_t *a, const bn_fp6_t *b);
void bn_fp6_add(bn_fp6_t *out, const bn_fp6_t *a, const bn_fp6_t *b);
void bn_fp6_sub(bn_fp6_t *out, const bn_fp6_t *a, const bn_fp6_t *b);
void bn_fp6_neg(bn_fp6_t *out, const bn_fp6_t *a);
void bn_fp6_mul(bn_fp6_t *out, const bn_fp6_t *a, const bn_fp6_t *b);
void bn_fp6_sqr(bn_fp6_t *out, const bn_fp6_t *a);
void bn_fp6_mul_by_v(bn_fp6_t *out, const bn_fp6_t *a);             /* a * v */
void bn_fp6_inv(bn_fp6_t *out, const bn_fp6_t *a);

bool bn_fp12_is_one(const bn_fp12_t *a);
bool bn_fp12_eq(const bn_fp12_t *a, const bn_fp12_t *b);
void bn_fp12_mul(bn_fp12_t *out, const bn_fp12_t *a, const bn_fp12_t *b);
void bn_fp12_sqr(bn_fp12_t *out, const bn_fp12_t *a);
void bn_fp12_inv(bn_fp12_t *out, const bn_fp12_t *a);
void bn_fp12_conj(bn_fp12_t *out, const bn_fp12_t *a);              /* a^(p^6) */
/* xi^(i (p - 1) / 6) for i < 6: w^p = BN254_FROB_GAMMA[1] w, so a^p multiplies
 * the conjugated coefficient of w^i by entry i; [2] and [3] also give the
 * Frobenius map of the twist, (x, y) -> (conj(x) gamma_2, conj(y) gamma_3). */
extern const bn_fp2_t BN254_FROB_GAMMA[6];
/* out = a^(p^k) for any k (one pass per unit of k mod 12). */
void bn_fp12_frobenius(bn_fp12_t *out, const bn_fp12_t *a, unsigned k);
/* out = a^e, e a plain integer of nlimbs little-endian limbs (a^0 = 1). */
void bn_fp12_pow(bn_fp12_t *out, const bn_fp12_t *a, const uint64_t *e, size_t nlimbs);
/* 384 bytes: the 12 Fp coefficients, 32 bytes big-endian each, in the order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 (as fp12_to_bytes_be). */
#define BN254_FP12_BYTES 384
void bn_fp12_to_bytes_be(uint8_t out[BN254_FP12_BYTES], const bn_fp12_t *a);

#endif /* GM_FF_H */

/* ---- 8-lane helpers (AVX-512 IFMA) ------------------------------------------------
 *
 * For the lane kernels, ff/fr_ifma_shape.h (both curves' Fr in 5 limbs of
 * 52 bits), ec/g1_x8.c (BLS12-381's Fp in 8 limbs of 48 bits) and
 * ec/bn_g1_x8.c (BN254's Fp in 5 limbs of 52 bits): what they share,
 * written once for any limb count, limb width and modulus. A file that defines FF_X8_LANES
 * before including this header gets them (outside the header's guard, so the
 * order of includes does not matter); no other file pulls in <immintrin.h>.
 * Everything here is inlined into functions marked FF_X8, which callers run
 * only after fr_x8_enabled() said yes (a CPU without IFMA faults on them).
 * The arguments n, bits and mod are constants at every call, so the loops
 * unroll as if written for one field.
 */
#if defined(FF_X8_LANES) && !defined(GM_FF_X8_LANES_H)
#define GM_FF_X8_LANES_H

#include <immintrin.h>

#define FF_X8 __attribute__((target("avx512f,avx512ifma,avx512vl")))
#define FF_X8_INLINE static inline __attribute__((always_inline, target("avx512f,avx512ifma,avx512vl")))

/* x in every lane. */
FF_X8_INLINE __m512i ff_x8_bc(uint64_t x) { return _mm512_set1_epi64((long long)x); }

/* l[0 .. n) holds a value in [-m, m) for the modulus m = mod[0 .. n) (limbs
 * of `bits` bits), its limbs signed 64-bit numbers of magnitude < 2^62 ->
 * the value mod m, normalised (limbs < 2^bits): signed carries, m added back
 * in the lanes that came out negative, carries again. */
FF_X8_INLINE void ff_x8_fix(__m512i *l, int n, int bits, const uint64_t *mod)
{
    const __m512i m = ff_x8_bc((1ULL << bits) - 1);
    for (int i = 0; i < n - 1; i++) {
        l[i + 1] = _mm512_add_epi64(l[i + 1], _mm512_srai_epi64(l[i], (unsigned)bits));
        l[i] = _mm512_and_si512(l[i], m);
    }
    __mmask8 neg = _mm512_cmplt_epi64_mask(l[n - 1], _mm512_setzero_si512());
    for (int i = 0; i < n; i++)
        l[i] = _mm512_mask_add_epi64(l[i], neg, l[i], ff_x8_bc(mod[i]));
    for (int i = 0; i < n - 1; i++) { /* non-negative now: logical shifts */
        l[i + 1] = _mm512_add_epi64(l[i + 1], _mm512_srli_epi64(l[i], (unsigned)bits));
        l[i] = _mm512_and_si512(l[i], m);
    }
}

/* o = a - b mod m, a and b reduced (< m) and normalised; o may alias a or b. */
FF_X8_INLINE void ff_x8_sub(__m512i *o, const __m512i *a, const __m512i *b, int n, int bits, const uint64_t *mod)
{
    for (int i = 0; i < n; i++) /* a - b in (-m, m) */
        o[i] = _mm512_sub_epi64(a[i], b[i]);
    ff_x8_fix(o, n, bits, mod);
}

/* o = a + b, not reduced, normalised below the top limb (limbs of `bits`
 * bits, n of them): the caller's bound on a + b is its own (two values < m
 * give < 2m, a factor for the lanes' Montgomery products). */
FF_X8_INLINE void ff_x8_add_lazy(__m512i *o, const __m512i *a, const __m512i *b, int n, int bits)
{
    const __m512i m = ff_x8_bc((1ULL << bits) - 1);
    __m512i c = _mm512_setzero_si512();
    for (int i = 0; i < n; i++) {
        __m512i t = _mm512_add_epi64(_mm512_add_epi64(a[i], b[i]), c);
        c = _mm512_srli_epi64(t, (unsigned)bits);
        o[i] = i < n - 1 ? _mm512_and_si512(t, m) : t;
    }
}

/* w[i] = the 64-bit word at address lane b of addr plus 8 i (i < n), in
 * the lanes of k; the others fill[i]: the words of 8 field elements in
 * memory, read by address. */
FF_X8_INLINE void ff_x8_gather_words(__m512i *w, int n, __m512i addr, __mmask8 k, const uint64_t *fill)
{
    for (int i = 0; i < n; i++)
        w[i] = _mm512_mask_i64gather_epi64(ff_x8_bc(fill[i]), k, _mm512_add_epi64(addr, ff_x8_bc(8 * (uint64_t)i)),
                                           (const void *)0, 1);
}

/* The inverse of ff_x8_gather_words, into the lanes of k only. */
FF_X8_INLINE void ff_x8_scatter_words(__m512i addr, __mmask8 k, const __m512i *w, int n)
{
    for (int i = 0; i < n; i++)
        _mm512_mask_i64scatter_epi64((void *)0, k, _mm512_add_epi64(addr, ff_x8_bc(8 * (uint64_t)i)), w[i], 1);
}

/* One round of a Montgomery product in radix 2^52 over 5 limbs (ff/fr_ifma_shape.h,
 * ec/bn_g1_x8.c), columns t[0 .. 6) unnormalised: t += a bi; m = t0 minv
 * mod 2^52, masked by mmask; t += m mod. IFMA's low and high halves (each
 * < 2^52) of a_j bi and m mod_j go to columns j and j + 1; it reads t0's low
 * 52 bits only, all that m needs. Afterwards t0 = 0 mod mmask + 1; the
 * caller carries it and shifts the columns down. */
FF_X8_INLINE void ff_x8_mont52_round(__m512i t[6], const __m512i a[5], __m512i bi, const uint64_t mod[5],
                                     uint64_t minv, uint64_t mmask)
{
    for (int j = 0; j < 5; j++)
        t[j] = _mm512_madd52lo_epu64(t[j], a[j], bi);
    for (int j = 0; j < 5; j++)
        t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a[j], bi);
    __m512i m = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t[0], ff_x8_bc(minv)); /* < 2^52 */
    if (mmask != (1ULL << 52) - 1)
        m = _mm512_and_si512(m, ff_x8_bc(mmask));
    for (int j = 0; j < 5; j++)
        t[j] = _mm512_madd52lo_epu64(t[j], m, ff_x8_bc(mod[j]));
    for (int j = 0; j < 5; j++)
        t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, ff_x8_bc(mod[j]));
}

/* l[0 .. n) holds a value in [0, 2m), normalised -> the value mod m: m
 * subtracted in the lanes where that does not go negative. */
FF_X8_INLINE void ff_x8_reduce_once(__m512i *l, int n, int bits, const uint64_t *mod)
{
    const __m512i m = ff_x8_bc((1ULL << bits) - 1);
    __m512i d[8]; /* n <= 8 */
    for (int i = 0; i < n; i++)
        d[i] = _mm512_sub_epi64(l[i], ff_x8_bc(mod[i]));
    for (int i = 0; i < n - 1; i++) {
        d[i + 1] = _mm512_add_epi64(d[i + 1], _mm512_srai_epi64(d[i], (unsigned)bits));
        d[i] = _mm512_and_si512(d[i], m);
    }
    __mmask8 ge = _mm512_cmpge_epi64_mask(d[n - 1], _mm512_setzero_si512());
    for (int i = 0; i < n; i++)
        l[i] = _mm512_mask_mov_epi64(l[i], ge, d[i]);
}

#endif /* FF_X8_LANES */
