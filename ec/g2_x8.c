/*
 * g2_x8.c — BLS12-381's G2 batch-affine additions on 8 lanes with AVX-512
 * IFMA, the bucket additions of ec/msm.c's G2 MSM (a Groth16 proof's B) on
 * CPUs that have it: the batch of ec/add_x8_shape.h over Fp2 = Fp[u] / (u^2
 * + 1), each Fp2 lane value two of ec/fp_x8.h's Fp lane values
 * (ec/fp2_x8_shape.h, the Fp2 layer shared with BN254's ec/bn_g2_x8.c).
 * Three Fp lane-products per Fp2 product (Karatsuba), two per square.
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (a CPU without IFMA would fault on them).
 */
#include <stddef.h>

#include "ec/fp_x8.h"

_Static_assert(sizeof(fp2_t) == 96 && offsetof(fp2_t, c1) == 48, "c0 || c1, 6 words each");

#define FP2X8_B v48
#define FP2X8_NL 8
#define FP2X8_MEM fp2_t
#include "ec/fp2_x8_shape.h"

/* Lane b = the coordinates of *p[b], by address (a coordinate is 12 words,
 * c0 || c1: gathers, as ec/g1_x8.c's); lanes outside k 0. */
FF_X8_INLINE void load_xy(fp2x8_t *x, fp2x8_t *y, const g2_affine_t *const *p, __mmask8 k)
{
    __m512i a = _mm512_maskz_loadu_epi64(k, p);
    gather(x, _mm512_add_epi64(a, bc(offsetof(g2_affine_t, x))), k, &FP2_ZERO);
    gather(y, _mm512_add_epi64(a, bc(offsetof(g2_affine_t, y))), k, &FP2_ZERO);
}

/* The inverse of load_xy, into the lanes of k only (inf left alone). */
FF_X8_INLINE void store_xy(g2_affine_t *const *p, __mmask8 k, const fp2x8_t *x, const fp2x8_t *y)
{
    __m512i a = _mm512_maskz_loadu_epi64(k, p);
    scatter(_mm512_add_epi64(a, bc(offsetof(g2_affine_t, x))), k, x);
    scatter(_mm512_add_epi64(a, bc(offsetof(g2_affine_t, y))), k, y);
}

#define X8_V fp2x8_t
#define X8_NL 16
#define X8_FE fp2
#define X8_FE_ONE FP2_ONE
#define X8_FE_ZERO FP2_ZERO
#define X8_AFF g2_affine_t
#define X8_NAME g2_x8
#include "ec/add_x8_shape.h"
