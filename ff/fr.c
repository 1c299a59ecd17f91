/*
 * fr.c — the BLS12-381 scalar field Fr, r = 0x73eda753...00000001 (255 bits), four
 * 64-bit limbs in Montgomery form with R = 2^256. The arithmetic is the shape
 * in ff_internal.h instantiated for n = 4; only the constants and what is
 * particular to r (2-adicity 32: Tonelli-Shanks, roots of unity; reduction of
 * any 256-bit value) are written here.
 */
#include "ff/ff_internal.h"

const uint64_t FR_MODULUS[FR_LIMBS] = {
    0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL,
};
const fr_t FR_ZERO = {{0}};
const fr_t FR_ONE = {{ /* R mod r */
    0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL,
}};
/* R^2 mod r, to enter Montgomery form with one multiply. */
static const fr_t FR_R2 = {{
    0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, 0x0748d9d99f59ff11ULL,
}};
/* (r - 1) / 2, plain. */
static const uint64_t FR_HALF[FR_LIMBS] = {
    0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL, 0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL,
};
/* r - 1 = 2^32 * t, t odd; (t - 1) / 2, plain. */
static const uint64_t FR_T_MINUS_1_DIV_2[FR_LIMBS] = {
    0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL, 0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL,
};
/* 7 and 7^t, the 2^32-th primitive root of unity, in Montgomery form. */
const fr_t FR_GENERATOR = {{
    0x0000000efffffff1ULL, 0x17e363d300189c0fULL, 0xff9c57876f8457b0ULL, 0x351332208fc5a8c4ULL,
}};
static const fr_t FR_ROOT_OF_UNITY = {{
    0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL,
}};
/* Inversion: 18 rounds of 31 steps >= 2 * 255 - 1 (one spare round), and
 * 2^(33 * 18) * R^3 mod r, plain. */
#define FR_INV_ROUNDS 18
static const fr_t FR_INV_FIX = {{
    0xc73374641448d1dcULL, 0x1e42f40cc227a030ULL, 0xb83541f413af3fe3ULL, 0x54e85f0bd49273c2ULL,
}};
/* -r^-1 mod 2^64 */
#define FR_MINV 0xfffffffeffffffffULL

FF_DEFINE_FIELD(fr, fr_t, FR_LIMBS, FR_MODULUS, FR_MINV, FR_ONE, FR_ZERO, FR_R2, FR_HALF,
                FR_INV_ROUNDS, FR_INV_FIX, FR_DEC_MAX)

/* ---- the public functions of ff/ff.h (the arithmetic is the shape above) --- */

void fr_set_u64(fr_t *out, uint64_t v) { fr_set_u64_impl(out, v); }
bool fr_is_zero(const fr_t *a) { return fr_is_zero_impl(a); }
bool fr_is_one(const fr_t *a) { return fr_is_one_impl(a); }
bool fr_eq(const fr_t *a, const fr_t *b) { return fr_eq_impl(a, b); }
void fr_add(fr_t *out, const fr_t *a, const fr_t *b) { fr_add_impl(out, a, b); }
void fr_sub(fr_t *out, const fr_t *a, const fr_t *b) { fr_sub_impl(out, a, b); }
void fr_neg(fr_t *out, const fr_t *a) { fr_neg_impl(out, a); }
void fr_dbl(fr_t *out, const fr_t *a) { fr_dbl_impl(out, a); }
void fr_half(fr_t *out, const fr_t *a) { fr_half_impl(out, a); }
void fr_mul(fr_t *out, const fr_t *a, const fr_t *b) { fr_mul_impl(out, a, b); }
void fr_sqr(fr_t *out, const fr_t *a) { fr_sqr_impl(out, a); }
void fr_inv(fr_t *out, const fr_t *a) { fr_inv_impl(out, a); }
void fr_batch_inv(fr_t *out, const fr_t *a, size_t n, fr_t *scratch)
{
    fr_batch_inv_impl(out, a, n, scratch);
}
void fr_pow(fr_t *out, const fr_t *a, const uint64_t *e, size_t nlimbs) { fr_pow_impl(out, a, e, nlimbs); }
int fr_legendre(const fr_t *a) { return fr_legendre_impl(a); }
int fr_from_bytes_be(fr_t *out, const uint8_t in[FR_BYTES]) { return fr_from_bytes_be_impl(out, in); }
int fr_from_bytes_le(fr_t *out, const uint8_t in[FR_BYTES]) { return fr_from_bytes_le_impl(out, in); }
void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a) { fr_to_bytes_be_impl(out, a); }
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a) { fr_to_bytes_le_impl(out, a); }
int fr_from_limbs(fr_t *out, const uint64_t in[FR_LIMBS]) { return fr_from_limbs_impl(out, in); }
void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a) { fr_to_limbs_impl(out, a); }
int fr_from_dec(fr_t *out, const char *s) { return fr_from_dec_impl(out, s); }
void fr_to_dec(char buf[FR_DEC_MAX], const fr_t *a) { fr_to_dec_impl(buf, a); }

/* 2^256 < 3r: at most two subtractions of r. */
void fr_from_bytes_le_mod(fr_t *out, const uint8_t in[FR_BYTES])
{
    fr_t t;
    limbs_from_le(t.l, in, FR_LIMBS);
    while (!mont_lt(t.l, FR_MODULUS, FR_LIMBS)) {
        uint64_t borrow = 0;
        for (int i = 0; i < FR_LIMBS; i++) {
            u128 x = (u128)t.l[i] - FR_MODULUS[i] - borrow;
            t.l[i] = (uint64_t)x;
            borrow = (uint64_t)(x >> 64) & 1;
        }
    }
    fr_mul(out, &t, &FR_R2);
}

void fr_root_of_unity(fr_t *out, unsigned k)
{
    GM_ASSERT(k <= FR_TWO_ADICITY);
    fr_t w = FR_ROOT_OF_UNITY;
    for (unsigned i = k; i < FR_TWO_ADICITY; i++)
        fr_sqr(&w, &w);
    *out = w;
}

/*
 * Tonelli-Shanks with r - 1 = 2^32 t: x = a^((t+1)/2) is a root of a * b with
 * b = a^t of order 2^k, k <= 32; each round multiplies b by an element of
 * order exactly 2^k (a power of the 2^32-th root z), lowering the order of b,
 * and x by its square root. a is not a square when b has order 2^32.
 */
bool fr_sqrt(fr_t *out, const fr_t *a)
{
    if (fr_is_zero(a)) {
        *out = FR_ZERO;
        return true;
    }
    fr_t w, x, b, z = FR_ROOT_OF_UNITY;
    fr_pow(&w, a, FR_T_MINUS_1_DIV_2, FR_LIMBS); /* a^((t-1)/2) */
    fr_mul(&x, a, &w);                           /* a^((t+1)/2) */
    fr_mul(&b, &x, &w);                          /* a^t */
    unsigned v = FR_TWO_ADICITY;
    while (!fr_is_one(&b)) {
        unsigned k = 0;
        fr_t b2 = b;
        while (!fr_is_one(&b2)) { /* order of b is 2^k */
            fr_sqr(&b2, &b2);
            k++;
            if (k == v)
                return false; /* b of order 2^32: a is not a square */
        }
        w = z;
        for (unsigned i = k + 1; i < v; i++)
            fr_sqr(&w, &w); /* z^(2^(v-k-1)), order 2^(k+1) */
        fr_sqr(&z, &w);     /* order 2^k */
        fr_mul(&b, &b, &z);
        fr_mul(&x, &x, &w);
        v = k;
    }
    *out = x;
    return true;
}
