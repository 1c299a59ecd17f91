/*
 * bn_fp.c — the BN254 base field Fp, p = 0x30644e72...d87cfd47 (254 bits),
 * four 64-bit limbs in Montgomery form with R = 2^256. The arithmetic is the
 * shape in ff_internal.h instantiated for n = 4 (the MULX/ADX multiply is
 * ff/mont_adx.c's 4-limb kernel, shared with both Fr); only the constants and
 * what is particular to p (its square root, the raw Montgomery bytes of
 * snarkjs) are written here.
 */
#include "ff/ff_internal.h"

const uint64_t BN254_FP_MODULUS[BN254_LIMBS] = {
    0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL,
};
const bn_fp_t BN254_FP_ZERO = {{0}};
const bn_fp_t BN254_FP_ONE = {{ /* R mod p */
    0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL,
}};
/* R^2 mod p, to enter Montgomery form with one multiply. */
static const bn_fp_t BN254_FP_R2 = {{
    0xf32cfc5b538afa89ULL, 0xb5e71911d44501fbULL, 0x47ab1eff0a417ff6ULL, 0x06d89f71cab8351fULL,
}};
/* (p - 1) / 2 and (p + 1) / 4, plain. */
static const uint64_t BN254_FP_HALF[BN254_LIMBS] = {
    0x9e10460b6c3e7ea3ULL, 0xcbc0b548b438e546ULL, 0xdc2822db40c0ac2eULL, 0x183227397098d014ULL,
};
static const uint64_t BN254_FP_SQRT_EXP[BN254_LIMBS] = {
    0x4f082305b61f3f52ULL, 0x65e05aa45a1c72a3ULL, 0x6e14116da0605617ULL, 0x0c19139cb84c680aULL,
};
/* Inversion: 18 rounds of 31 steps >= 2 * 254 - 1 (one spare round), and
 * 2^(33 * 18) * R^3 mod p, plain. */
#define BN254_FP_INV_ROUNDS 18
static const bn_fp_t BN254_FP_INV_FIX = {{
    0xc50c15eae3d1f0f6ULL, 0xaab47c6b16a42966ULL, 0x57541ed546a7e7abULL, 0x17937994215bb09cULL,
}};

FF_DEFINE_FIELD(bn_fp, bn_fp_t, BN254_LIMBS, BN254_FP_MODULUS, BN254_FP_MINV, BN254_FP_ONE, BN254_FP_ZERO, BN254_FP_R2,
                BN254_FP_HALF, BN254_FP_INV_ROUNDS, BN254_FP_INV_FIX, BN254_DEC_MAX)

/* ---- the public functions of ff/ff.h (the arithmetic is the shape above) --- */

void bn_fp_set_u64(bn_fp_t *out, uint64_t v) { bn_fp_set_u64_impl(out, v); }
bool bn_fp_is_zero(const bn_fp_t *a) { return bn_fp_is_zero_impl(a); }
bool bn_fp_is_one(const bn_fp_t *a) { return bn_fp_is_one_impl(a); }
bool bn_fp_eq(const bn_fp_t *a, const bn_fp_t *b) { return bn_fp_eq_impl(a, b); }
void bn_fp_add(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b) { bn_fp_add_impl(out, a, b); }
void bn_fp_sub(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b) { bn_fp_sub_impl(out, a, b); }
void bn_fp_neg(bn_fp_t *out, const bn_fp_t *a) { bn_fp_neg_impl(out, a); }
void bn_fp_dbl(bn_fp_t *out, const bn_fp_t *a) { bn_fp_dbl_impl(out, a); }
void bn_fp_half(bn_fp_t *out, const bn_fp_t *a) { bn_fp_half_impl(out, a); }
void bn_fp_mul(bn_fp_t *out, const bn_fp_t *a, const bn_fp_t *b) { bn_fp_mul_impl(out, a, b); }
void bn_fp_sqr(bn_fp_t *out, const bn_fp_t *a) { bn_fp_sqr_impl(out, a); }
void bn_fp_inv(bn_fp_t *out, const bn_fp_t *a) { bn_fp_inv_impl(out, a); }
void bn_fp_batch_inv(bn_fp_t *out, const bn_fp_t *a, size_t n, bn_fp_t *scratch)
{
    bn_fp_batch_inv_impl(out, a, n, scratch);
}
void bn_fp_pow(bn_fp_t *out, const bn_fp_t *a, const uint64_t *e, size_t nlimbs)
{
    bn_fp_pow_impl(out, a, e, nlimbs);
}
int bn_fp_legendre(const bn_fp_t *a) { return bn_fp_legendre_impl(a); }
int bn_fp_from_bytes_be(bn_fp_t *out, const uint8_t in[BN254_BYTES]) { return bn_fp_from_bytes_be_impl(out, in); }
int bn_fp_from_bytes_le(bn_fp_t *out, const uint8_t in[BN254_BYTES]) { return bn_fp_from_bytes_le_impl(out, in); }
void bn_fp_to_bytes_be(uint8_t out[BN254_BYTES], const bn_fp_t *a) { bn_fp_to_bytes_be_impl(out, a); }
void bn_fp_to_bytes_le(uint8_t out[BN254_BYTES], const bn_fp_t *a) { bn_fp_to_bytes_le_impl(out, a); }
int bn_fp_from_mont_le(bn_fp_t *out, const uint8_t in[BN254_BYTES])
{
    return mont_from_raw_le(out->l, in, BN254_FP_MODULUS, BN254_LIMBS);
}
void bn_fp_to_mont_le(uint8_t out[BN254_BYTES], const bn_fp_t *a) { limbs_to_le(out, a->l, BN254_LIMBS); }
int bn_fp_from_limbs(bn_fp_t *out, const uint64_t in[BN254_LIMBS]) { return bn_fp_from_limbs_impl(out, in); }
void bn_fp_to_limbs(uint64_t out[BN254_LIMBS], const bn_fp_t *a) { bn_fp_to_limbs_impl(out, a); }
int bn_fp_from_dec(bn_fp_t *out, const char *s) { return bn_fp_from_dec_impl(out, s); }
void bn_fp_to_dec(char buf[BN254_DEC_MAX], const bn_fp_t *a) { bn_fp_to_dec_impl(buf, a); }

/* p = 3 mod 4: a^((p+1)/4) is a root whenever one exists; one squaring
 * checks that it does. */
bool bn_fp_sqrt(bn_fp_t *out, const bn_fp_t *a)
{
    bn_fp_t s, s2;
    bn_fp_pow(&s, a, BN254_FP_SQRT_EXP, BN254_LIMBS);
    bn_fp_sqr(&s2, &s);
    if (!bn_fp_eq(&s2, a))
        return false;
    *out = s;
    return true;
}
