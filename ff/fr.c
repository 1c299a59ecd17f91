/*
 * fr.c — the BLS12-381 scalar field Fr, r = 0x73eda753...00000001 (255 bits), four
 * 64-bit limbs in Montgomery form with R = 2^256. The arithmetic is the shape
 * in ff_internal.h instantiated for n = 4.
 */
#include "ff/ff_internal.h"

const uint64_t FR_MODULUS[FR_LIMBS] = {
    0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL,
};
/* -r^-1 mod 2^64 */
#define FR_MINV 0xfffffffeffffffffULL
/* R^2 mod r, to enter Montgomery form with one multiply. */
static const fr_t FR_R2 = {{
    0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, 0x0748d9d99f59ff11ULL,
}};
const fr_t FR_ZERO = {{0}};
const fr_t FR_ONE = {{ /* R mod r */
    0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL,
}};

#define N FR_LIMBS
#define M FR_MODULUS
#define VERIFY_REDUCED(a) GM_VERIFY(mont_lt((a)->l, M, N))

void fr_set_u64(fr_t *out, uint64_t v)
{
    fr_t t = {{v}};
    fr_mul(out, &t, &FR_R2);
}

bool fr_is_zero(const fr_t *a) { return mont_is_zero(a->l, N); }
bool fr_is_one(const fr_t *a) { return mont_eq(a->l, FR_ONE.l, N); }
bool fr_eq(const fr_t *a, const fr_t *b) { return mont_eq(a->l, b->l, N); }

void fr_add(fr_t *out, const fr_t *a, const fr_t *b)
{
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
    mont_add(out->l, a->l, b->l, M, N);
}

void fr_sub(fr_t *out, const fr_t *a, const fr_t *b)
{
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
    mont_sub(out->l, a->l, b->l, M, N);
}

void fr_neg(fr_t *out, const fr_t *a)
{
    VERIFY_REDUCED(a);
    mont_neg(out->l, a->l, M, N);
}

void fr_dbl(fr_t *out, const fr_t *a) { fr_add(out, a, a); }

void fr_half(fr_t *out, const fr_t *a)
{
    VERIFY_REDUCED(a);
    mont_half(out->l, a->l, M, N);
}

void fr_mul(fr_t *out, const fr_t *a, const fr_t *b)
{
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
    if (ff_path_selected == FF_PATH_ADX)
        fr_mul_adx(out, a, b);
    else
        mont_mul(out->l, a->l, b->l, M, FR_MINV, N);
    VERIFY_REDUCED(out);
}

void fr_sqr(fr_t *out, const fr_t *a)
{
    VERIFY_REDUCED(a);
    if (ff_path_selected == FF_PATH_ADX)
        fr_sqr_adx(out, a);
    else
        mont_mul(out->l, a->l, a->l, M, FR_MINV, N);
    VERIFY_REDUCED(out);
}

void fr_pow(fr_t *out, const fr_t *a, const uint64_t *e, size_t nlimbs)
{
    fr_t acc = FR_ONE, base = *a;
    for (size_t i = nlimbs; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            fr_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                fr_mul(&acc, &acc, &base);
        }
    *out = acc;
}

int fr_from_limbs(fr_t *out, const uint64_t in[FR_LIMBS])
{
    if (!mont_lt(in, M, N))
        return GM_ENONCANON;
    fr_t t;
    memcpy(t.l, in, sizeof t.l);
    fr_mul(out, &t, &FR_R2);
    return GM_OK;
}

void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a)
{
    fr_t one = {{1}}, t;
    fr_mul(&t, a, &one);            /* a*R * 1 * R^-1 = a */
    memcpy(out, t.l, sizeof t.l);
}

int fr_from_bytes_be(fr_t *out, const uint8_t in[FR_BYTES])
{
    uint64_t l[N];
    limbs_from_be(l, in, N);
    return fr_from_limbs(out, l);
}

int fr_from_bytes_le(fr_t *out, const uint8_t in[FR_BYTES])
{
    uint64_t l[N];
    limbs_from_le(l, in, N);
    return fr_from_limbs(out, l);
}

void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a)
{
    uint64_t l[N];
    fr_to_limbs(l, a);
    limbs_to_be(out, l, N);
}

void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a)
{
    uint64_t l[N];
    fr_to_limbs(l, a);
    limbs_to_le(out, l, N);
}
