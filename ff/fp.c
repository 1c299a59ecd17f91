/*
 * fp.c — the BLS12-381 base field Fp, p = 0x1a0111ea...aaab (381 bits), six
 * 64-bit limbs in Montgomery form with R = 2^384. The arithmetic is the shape
 * in ff_internal.h instantiated for n = 6; only the constants and what is
 * particular to p (its square root, the Zcash sign) are written here.
 */
#include "ff/ff_internal.h"

const uint64_t FP_MODULUS[FP_LIMBS] = {
    0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
    0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL,
};
const fp_t FP_ZERO_ELEM = {{0}};
const fp_t FP_ONE = {{ /* R mod p */
    0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
    0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL,
}};
/* R^2 mod p, to enter Montgomery form with one multiply. */
static const fp_t FP_R2 = {{
    0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
    0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL,
}};
/* (p - 1) / 2 and (p + 1) / 4, plain. */
static const uint64_t FP_HALF[FP_LIMBS] = {
    0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL,
    0xb23ba5c279c2895fULL, 0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL,
};
static const uint64_t FP_SQRT_EXP[FP_LIMBS] = {
    0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL, 0xd9cc34a83dac3d89ULL,
    0xd91dd2e13ce144afULL, 0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL,
};
/* Inversion: 26 rounds of 31 steps >= 2 * 381 - 1 (one spare round), and
 * 2^(33 * 26) * R^3 mod p, plain. */
#define FP_INV_ROUNDS 26
static const fp_t FP_INV_FIX = {{
    0xcf600a8d4018fc0bULL, 0x4aa655268f35d6a8ULL, 0xdf0eb79953725e68ULL,
    0x75d127dd335cb131ULL, 0x37c85b80be2fae71ULL, 0x10f7c187a48da0a3ULL,
}};
/* -p^-1 mod 2^64 */
#define FP_MINV 0x89f3fffcfffcfffdULL

FF_DEFINE_FIELD(fp, fp_t, FP_LIMBS, FP_MODULUS, FP_MINV, FP_ONE, FP_ZERO_ELEM, FP_R2, FP_HALF,
                FP_INV_ROUNDS, FP_INV_FIX, FP_DEC_MAX)

/* ---- the public functions of ff/ff.h (the arithmetic is the shape above) --- */

void fp_set_u64(fp_t *out, uint64_t v) { fp_set_u64_impl(out, v); }
bool fp_is_zero(const fp_t *a) { return fp_is_zero_impl(a); }
bool fp_is_one(const fp_t *a) { return fp_is_one_impl(a); }
bool fp_eq(const fp_t *a, const fp_t *b) { return fp_eq_impl(a, b); }
void fp_add(fp_t *out, const fp_t *a, const fp_t *b) { fp_add_impl(out, a, b); }
void fp_sub(fp_t *out, const fp_t *a, const fp_t *b) { fp_sub_impl(out, a, b); }
void fp_neg(fp_t *out, const fp_t *a) { fp_neg_impl(out, a); }
void fp_dbl(fp_t *out, const fp_t *a) { fp_dbl_impl(out, a); }
void fp_half(fp_t *out, const fp_t *a) { fp_half_impl(out, a); }
void fp_mul(fp_t *out, const fp_t *a, const fp_t *b) { fp_mul_impl(out, a, b); }
void fp_sqr(fp_t *out, const fp_t *a) { fp_sqr_impl(out, a); }
void fp_inv(fp_t *out, const fp_t *a) { fp_inv_impl(out, a); }
void fp_batch_inv(fp_t *out, const fp_t *a, size_t n, fp_t *scratch)
{
    fp_batch_inv_impl(out, a, n, scratch);
}
void fp_pow(fp_t *out, const fp_t *a, const uint64_t *e, size_t nlimbs) { fp_pow_impl(out, a, e, nlimbs); }
int fp_legendre(const fp_t *a) { return fp_legendre_impl(a); }
int fp_from_bytes_be(fp_t *out, const uint8_t in[FP_BYTES]) { return fp_from_bytes_be_impl(out, in); }
int fp_from_bytes_le(fp_t *out, const uint8_t in[FP_BYTES]) { return fp_from_bytes_le_impl(out, in); }
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a) { fp_to_bytes_be_impl(out, a); }
void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a) { fp_to_bytes_le_impl(out, a); }
int fp_from_limbs(fp_t *out, const uint64_t in[FP_LIMBS]) { return fp_from_limbs_impl(out, in); }
void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a) { fp_to_limbs_impl(out, a); }
int fp_from_dec(fp_t *out, const char *s) { return fp_from_dec_impl(out, s); }
void fp_to_dec(char buf[FP_DEC_MAX], const fp_t *a) { fp_to_dec_impl(buf, a); }

/* p = 3 mod 4: a^((p+1)/4) is a root whenever one exists; one squaring
 * checks that it does. */
bool fp_sqrt(fp_t *out, const fp_t *a)
{
    fp_t s, s2;
    fp_pow(&s, a, FP_SQRT_EXP, FP_LIMBS);
    fp_sqr(&s2, &s);
    if (!fp_eq(&s2, a))
        return false;
    *out = s;
    return true;
}

bool fp_is_lex_largest(const fp_t *a)
{
    uint64_t l[FP_LIMBS];
    fp_to_limbs(l, a);
    return mont_lt(FP_HALF, l, FP_LIMBS); /* a > (p-1)/2 */
}
