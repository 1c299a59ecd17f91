/*
 * bn_g1_x8.c — BN254's G1 batch-affine additions on 8 lanes with AVX-512
 * IFMA, the bucket additions of ec/bn_msm.c on CPUs that have it: the batch
 * of ec/add_x8_shape.h over BN254's Fp on lanes (ec/bn_fp_x8.h). A batch's
 * points move between memory and lanes a row (a point's x || y, 64 bytes)
 * per lane and a transpose, not by gathers and scatters.
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (a CPU without IFMA would fault on them).
 */
#include <stddef.h>

#include "ec/bn_fp_x8.h"

_Static_assert(offsetof(bn_g1_affine_t, x) == 0 && offsetof(bn_g1_affine_t, y) == 32, "x || y at the front");

/* Lane b = the coordinates of *p[b]; lanes outside k 0 (BN254_FP_ZERO). */
FF_X8_INLINE void load_xy(v52_t *x, v52_t *y, const bn_g1_affine_t *const *p, __mmask8 k)
{
    v52_load_row(x, y, (const void *const *)p, 0, k);
}

/* The inverse of load_xy, into the lanes of k only (inf left alone). */
FF_X8_INLINE void store_xy(bn_g1_affine_t *const *p, __mmask8 k, const v52_t *x, const v52_t *y)
{
    v52_store_row((void *const *)p, 0, k, x, y);
}

/* The shape's field helpers: Fp's. */
#define mont v52_mont
#define mont2p v52_mont2p
#define msqr v52_sqr
#define reduce_once v52_reduce_once
#define vsub v52_sub
#define gather v52_gather
#define scatter v52_scatter

#define X8_V v52_t
#define X8_NL 5
#define X8_FE bn_fp
#define X8_FE_ONE BN254_FP_ONE
#define X8_FE_ZERO BN254_FP_ZERO
#define X8_AFF bn_g1_affine_t
#define X8_NAME bn_g1_x8
#include "ec/add_x8_shape.h"
