/*
 * fp.c — the BLS12-381 base field Fp, p = 0x1a0111ea...aaab (381 bits), six
 * 64-bit limbs in Montgomery form with R = 2^384. The arithmetic is the shape
 * in ff_internal.h instantiated for n = 6.
 */
#include "ff/ff_internal.h"

const uint64_t FP_MODULUS[FP_LIMBS] = {
    0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
    0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL,
};
/* -p^-1 mod 2^64 */
#define FP_MINV 0x89f3fffcfffcfffdULL
/* R^2 mod p, to enter Montgomery form with one multiply. */
static const fp_t FP_R2 = {{
    0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
    0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL,
}};
const fp_t FP_ZERO = {{0}};
const fp_t FP_ONE = {{ /* R mod p */
    0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
    0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL,
}};

#define N FP_LIMBS
#define M FP_MODULUS
#define VERIFY_REDUCED(a) GM_VERIFY(mont_lt((a)->l, M, N))

void fp_set_u64(fp_t *out, uint64_t v)
{
    fp_t t = {{v}};
    fp_mul(out, &t, &FP_R2);
}

bool fp_is_zero(const fp_t *a) { return mont_is_zero(a->l, N); }
bool fp_is_one(const fp_t *a) { return mont_eq(a->l, FP_ONE.l, N); }
bool fp_eq(const fp_t *a, const fp_t *b) { return mont_eq(a->l, b->l, N); }

void fp_add(fp_t *out, const fp_t *a, const fp_t *b)
{
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
    mont_add(out->l, a->l, b->l, M, N);
}

void fp_sub(fp_t *out, const fp_t *a, const fp_t *b)
{
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
    mont_sub(out->l, a->l, b->l, M, N);
}

void fp_neg(fp_t *out, const fp_t *a)
{
    VERIFY_REDUCED(a);
    mont_neg(out->l, a->l, M, N);
}

void fp_dbl(fp_t *out, const fp_t *a) { fp_add(out, a, a); }

void fp_half(fp_t *out, const fp_t *a)
{
    VERIFY_REDUCED(a);
    mont_half(out->l, a->l, M, N);
}

void fp_mul(fp_t *out, const fp_t *a, const fp_t *b)
{
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
    if (ff_path_selected == FF_PATH_ADX)
        fp_mul_adx(out, a, b);
    else
        mont_mul(out->l, a->l, b->l, M, FP_MINV, N);
    VERIFY_REDUCED(out);
}

void fp_sqr(fp_t *out, const fp_t *a)
{
    VERIFY_REDUCED(a);
    if (ff_path_selected == FF_PATH_ADX)
        fp_sqr_adx(out, a);
    else
        mont_mul(out->l, a->l, a->l, M, FP_MINV, N);
    VERIFY_REDUCED(out);
}

void fp_pow(fp_t *out, const fp_t *a, const uint64_t *e, size_t nlimbs)
{
    fp_t acc = FP_ONE, base = *a;
    for (size_t i = nlimbs; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            fp_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                fp_mul(&acc, &acc, &base);
        }
    *out = acc;
}

int fp_from_limbs(fp_t *out, const uint64_t in[FP_LIMBS])
{
    if (!mont_lt(in, M, N))
        return GM_ENONCANON;
    fp_t t;
    memcpy(t.l, in, sizeof t.l);
    fp_mul(out, &t, &FP_R2);
    return GM_OK;
}

void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a)
{
    fp_t one = {{1}}, t;
    fp_mul(&t, a, &one);            /* a*R * 1 * R^-1 = a */
    memcpy(out, t.l, sizeof t.l);
}

int fp_from_bytes_be(fp_t *out, const uint8_t in[FP_BYTES])
{
    uint64_t l[N];
    limbs_from_be(l, in, N);
    return fp_from_limbs(out, l);
}

int fp_from_bytes_le(fp_t *out, const uint8_t in[FP_BYTES])
{
    uint64_t l[N];
    limbs_from_le(l, in, N);
    return fp_from_limbs(out, l);
}

void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a)
{
    uint64_t l[N];
    fp_to_limbs(l, a);
    limbs_to_be(out, l, N);
}

void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a)
{
    uint64_t l[N];
    fp_to_limbs(l, a);
    limbs_to_le(out, l, N);
}
