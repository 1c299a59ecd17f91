/*
 * mont_adx.c — Montgomery multiplication with MULX (flag-free 64x64 multiply)
 * and ADCX/ADOX (two independent carry chains), for CPUs with BMI2 and ADX.
 * Compiled for those extensions only in this file; ff_init selects it after
 * checking CPUID, so no other code path executes these instructions.
 */
#include <immintrin.h>

#include "ff/ff_internal.h"

#define ADX __attribute__((target("bmi2,adx"), always_inline)) static inline

/*
 * CIOS with intrinsics: the product row and the reduction row each run one
 * carry chain. Invariants as in mont_mul (ff_internal.h): inputs < m, t < 2m
 * after each step, one final conditional subtraction.
 */
ADX void mont_mul_adx(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                      uint64_t minv, int n)
{
    unsigned long long t[9] = {0};
    for (int i = 0; i < n; i++) {
        unsigned long long hi, lo;
        unsigned char c1 = 0, c2 = 0;
        /* t += a * b[i]: low halves on one chain, high halves on the other. */
        for (int j = 0; j < n; j++) {
            lo = _mulx_u64(a[j], b[i], &hi);
            c1 = _addcarryx_u64(c1, t[j], lo, &t[j]);
            c2 = _addcarryx_u64(c2, t[j + 1], hi, &t[j + 1]);
        }
        c1 = _addcarryx_u64(c1, t[n], 0, &t[n]);
        /* Carries into t[n+1] cannot occur: t < 2m*2^64 fits n+1 limbs. */
        (void)c1;
        (void)c2;
        unsigned long long q = t[0] * minv;
        c1 = c2 = 0;
        for (int j = 0; j < n; j++) {
            lo = _mulx_u64(q, m[j], &hi);
            c1 = _addcarryx_u64(c1, t[j], lo, &t[j]);
            c2 = _addcarryx_u64(c2, t[j + 1], hi, &t[j + 1]);
        }
        c1 = _addcarryx_u64(c1, t[n], 0, &t[n]);
        /* t[0] is now 0: shift down one limb. */
        for (int j = 0; j < n; j++)
            t[j] = t[j + 1];
        t[n] = 0;
    }
    mont_reduce_once(out, (const uint64_t *)t, m, n);
}

__attribute__((target("bmi2,adx"))) void fp_mul_adx(fp_t *out, const fp_t *a, const fp_t *b)
{
    mont_mul_adx(out->l, a->l, b->l, FP_MODULUS, 0x89f3fffcfffcfffdULL, FP_LIMBS);
}

__attribute__((target("bmi2,adx"))) void fp_sqr_adx(fp_t *out, const fp_t *a)
{
    mont_mul_adx(out->l, a->l, a->l, FP_MODULUS, 0x89f3fffcfffcfffdULL, FP_LIMBS);
}

__attribute__((target("bmi2,adx"))) void fr_mul_adx(fr_t *out, const fr_t *a, const fr_t *b)
{
    mont_mul_adx(out->l, a->l, b->l, FR_MODULUS, 0xfffffffeffffffffULL, FR_LIMBS);
}

__attribute__((target("bmi2,adx"))) void fr_sqr_adx(fr_t *out, const fr_t *a)
{
    mont_mul_adx(out->l, a->l, a->l, FR_MODULUS, 0xfffffffeffffffffULL, FR_LIMBS);
}
