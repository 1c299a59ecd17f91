/*
 * bn_g2_x8.c — BN254's G2 batch-affine additions on 8 lanes with AVX-512
 * IFMA, the bucket additions of ec/bn_msm.c's G2 MSM (a Groth16 proof's B)
 * on CPUs that have it: the batch of ec/add_x8_shape.h over Fp2 = Fp[u] /
 * (u^2 + 1), each Fp2 lane value two of ec/bn_fp_x8.h's Fp lane values
 * (ec/fp2_x8_shape.h, the Fp2 layer shared with BLS12-381's ec/g2_x8.c).
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (a CPU without IFMA would fault on them).
 */
#include <stddef.h>

#include "ec/bn_fp_x8.h"

_Static_assert(sizeof(bn_fp2_t) == 64 && offsetof(bn_fp2_t, c1) == 32, "c0 || c1, 4 words each");
_Static_assert(offsetof(bn_g2_affine_t, x) == 0 && offsetof(bn_g2_affine_t, y) == 64, "x || y at the front");

#define FP2X8_B v52
#define FP2X8_NL 5
#define FP2X8_MEM bn_fp2_t
#include "ec/fp2_x8_shape.h"

/* Lane b = the coordinates of *p[b], each a row of 64 bytes (c0 || c1);
 * lanes outside k 0. */
FF_X8_INLINE void load_xy(fp2x8_t *x, fp2x8_t *y, const bn_g2_affine_t *const *p, __mmask8 k)
{
    v52_t c0, c1;
    v52_load_row(&c0, &c1, (const void *const *)p, offsetof(bn_g2_affine_t, x), k);
    set_half(x, 0, &c0);
    set_half(x, 1, &c1);
    v52_load_row(&c0, &c1, (const void *const *)p, offsetof(bn_g2_affine_t, y), k);
    set_half(y, 0, &c0);
    set_half(y, 1, &c1);
}

/* The inverse of load_xy, into the lanes of k only (inf left alone). */
FF_X8_INLINE void store_xy(bn_g2_affine_t *const *p, __mmask8 k, const fp2x8_t *x, const fp2x8_t *y)
{
    v52_t c0 = half(x, 0), c1 = half(x, 1);
    v52_store_row((void *const *)p, offsetof(bn_g2_affine_t, x), k, &c0, &c1);
    c0 = half(y, 0);
    c1 = half(y, 1);
    v52_store_row((void *const *)p, offsetof(bn_g2_affine_t, y), k, &c0, &c1);
}

#define X8_V fp2x8_t
#define X8_NL 10
#define X8_FE bn_fp2
#define X8_FE_ONE BN254_FP2_ONE
#define X8_FE_ZERO BN254_FP2_ZERO
#define X8_AFF bn_g2_affine_t
#define X8_NAME bn_g2_x8
#include "ec/add_x8_shape.h"
