/*
 * bn_fr.c — the BN254 scalar field Fr, r = 0x30644e72...f0000001 (254 bits),
 * four 64-bit limbs in Montgomery form with R = 2^256. The arithmetic is the
 * shape in ff_internal.h instantiated for n = 4; only the constants and what
 * is particular to r (2-adicity 28: roots of unity; reduction of any 256-bit
 * value) are written here.
 */
#include "ff/ff_internal.h"

const uint64_t BN254_FR_MODULUS[BN254_LIMBS] = {
    0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL,
};
const bn_fr_t BN254_FR_ZERO = {{0}};
const bn_fr_t BN254_FR_ONE = {{ /* R mod r */
    0xac96341c4ffffffbULL, 0x36fc76959f60cd29ULL, 0x666ea36f7879462eULL, 0x0e0a77c19a07df2fULL,
}};
/* R^2 mod r, to enter Montgomery form with one multiply. */
static const bn_fr_t BN254_FR_R2 = {{
    0x1bb8e645ae216da7ULL, 0x53fe3ab1e35c59e3ULL, 0x8c49833d53bb8085ULL, 0x0216d0b17f4e44a5ULL,
}};
/* (r - 1) / 2, plain. */
static const uint64_t BN254_FR_HALF[BN254_LIMBS] = {
    0xa1f0fac9f8000000ULL, 0x9419f4243cdcb848ULL, 0xdc2822db40c0ac2eULL, 0x183227397098d014ULL,
};
/* 5 and 5^t (r - 1 = 2^28 t, t odd), the 2^28-th primitive root of unity
 * 0x2a3c09f0...725b19f0 of snarkjs, in Montgomery form. */
const bn_fr_t BN254_FR_GENERATOR = {{
    0x1b0d0ef99fffffe6ULL, 0xeaba68a3a32a913fULL, 0x47d8eb76d8dd0689ULL, 0x15d0085520f5bbc3ULL,
}};
static const bn_fr_t BN254_FR_ROOT_OF_UNITY = {{
    0x636e735580d13d9cULL, 0xa22bf3742445ffd6ULL, 0x56452ac01eb203d8ULL, 0x1860ef942963f9e7ULL,
}};
/* Inversion: 18 rounds of 31 steps >= 2 * 254 - 1 (one spare round), and
 * 2^(33 * 18) * R^3 mod r, plain. */
#define BN254_FR_INV_ROUNDS 18
static const bn_fr_t BN254_FR_INV_FIX = {{
    0x41ce38dc6a8b5583ULL, 0xc5afcb82608f1457ULL, 0x8a67a206c073f127ULL, 0x19193a4df2c3015fULL,
}};

FF_DEFINE_FIELD(bn_fr, bn_fr_t, BN254_LIMBS, BN254_FR_MODULUS, BN254_FR_MINV, BN254_FR_ONE, BN254_FR_ZERO, BN254_FR_R2,
                BN254_FR_HALF, BN254_FR_INV_ROUNDS, BN254_FR_INV_FIX, BN254_DEC_MAX)

/* ---- the public functions of ff/ff.h (the arithmetic is the shape above) --- */

void bn_fr_set_u64(bn_fr_t *out, uint64_t v) { bn_fr_set_u64_impl(out, v); }
bool bn_fr_is_zero(const bn_fr_t *a) { return bn_fr_is_zero_impl(a); }
bool bn_fr_is_one(const bn_fr_t *a) { return bn_fr_is_one_impl(a); }
bool bn_fr_eq(const bn_fr_t *a, const bn_fr_t *b) { return bn_fr_eq_impl(a, b); }
void bn_fr_add(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b) { bn_fr_add_impl(out, a, b); }
void bn_fr_sub(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b) { bn_fr_sub_impl(out, a, b); }
void bn_fr_neg(bn_fr_t *out, const bn_fr_t *a) { bn_fr_neg_impl(out, a); }
void bn_fr_dbl(bn_fr_t *out, const bn_fr_t *a) { bn_fr_dbl_impl(out, a); }
void bn_fr_half(bn_fr_t *out, const bn_fr_t *a) { bn_fr_half_impl(out, a); }
void bn_fr_mul(bn_fr_t *out, const bn_fr_t *a, const bn_fr_t *b) { bn_fr_mul_impl(out, a, b); }
void bn_fr_sqr(bn_fr_t *out, const bn_fr_t *a) { bn_fr_sqr_impl(out, a); }
void bn_fr_inv(bn_fr_t *out, const bn_fr_t *a) { bn_fr_inv_impl(out, a); }
void bn_fr_batch_inv(bn_fr_t *out, const bn_fr_t *a, size_t n, bn_fr_t *scratch)
{
    bn_fr_batch_inv_impl(out, a, n, scratch);
}
void bn_fr_pow(bn_fr_t *out, const bn_fr_t *a, const uint64_t *e, size_t nlimbs)
{
    bn_fr_pow_impl(out, a, e, nlimbs);
}
int bn_fr_legendre(const bn_fr_t *a) { return bn_fr_legendre_impl(a); }
int bn_fr_from_bytes_be(bn_fr_t *out, const uint8_t in[BN254_BYTES]) { return bn_fr_from_bytes_be_impl(out, in); }
int bn_fr_from_bytes_le(bn_fr_t *out, const uint8_t in[BN254_BYTES]) { return bn_fr_from_bytes_le_impl(out, in); }
void bn_fr_to_bytes_be(uint8_t out[BN254_BYTES], const bn_fr_t *a) { bn_fr_to_bytes_be_impl(out, a); }
void bn_fr_to_bytes_le(uint8_t out[BN254_BYTES], const bn_fr_t *a) { bn_fr_to_bytes_le_impl(out, a); }
int bn_fr_from_mont_le(bn_fr_t *out, const uint8_t in[BN254_BYTES])
{
    return mont_from_raw_le(out->l, in, BN254_FR_MODULUS, BN254_LIMBS);
}
void bn_fr_to_mont_le(uint8_t out[BN254_BYTES], const bn_fr_t *a) { limbs_to_le(out, a->l, BN254_LIMBS); }
int bn_fr_from_limbs(bn_fr_t *out, const uint64_t in[BN254_LIMBS]) { return bn_fr_from_limbs_impl(out, in); }
void bn_fr_to_limbs(uint64_t out[BN254_LIMBS], const bn_fr_t *a) { bn_fr_to_limbs_impl(out, a); }
int bn_fr_from_dec(bn_fr_t *out, const char *s) { return bn_fr_from_dec_impl(out, s); }
void bn_fr_to_dec(char buf[BN254_DEC_MAX], const bn_fr_t *a) { bn_fr_to_dec_impl(buf, a); }

/* 2^256 < 6r: at most five subtractions of r. */
void bn_fr_from_bytes_le_mod(bn_fr_t *out, const uint8_t in[BN254_BYTES])
{
    bn_fr_t t;
    limbs_from_le(t.l, in, BN254_LIMBS);
    while (!mont_lt(t.l, BN254_FR_MODULUS, BN254_LIMBS)) {
        uint8_t borrow = 0;
        for (int i = 0; i < BN254_LIMBS; i++)
            borrow = ff_subb(borrow, t.l[i], BN254_FR_MODULUS[i], &t.l[i]);
    }
    bn_fr_mul(out, &t, &BN254_FR_R2);
}

void bn_fr_root_of_unity(bn_fr_t *out, unsigned k)
{
    GM_ASSERT(k <= BN254_FR_TWO_ADICITY);
    bn_fr_t w = BN254_FR_ROOT_OF_UNITY;
    for (unsigned i = k; i < BN254_FR_TWO_ADICITY; i++)
        bn_fr_sqr(&w, &w);
    *out = w;
}
