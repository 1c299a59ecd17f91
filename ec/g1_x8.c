/*
 * g1_x8.c — batch-affine G1 additions on 8 lanes with AVX-512 IFMA, the
 * MSM's bucket additions (ec/msm.c batch_run) on CPUs that have it: the
 * batch of ec/add_x8_shape.h (gather, running products, one inversion,
 * lambda, x3, y3, the fix-ups of equal x) over BLS12-381's Fp on lanes
 * (ec/fp_x8.h, 8 limbs of 48 bits): six 8-lane products per 8 additions.
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (the same switch as Fr's lanes: a CPU without
 * IFMA would fault on them).
 */
#include <stddef.h>

#include "ec/fp_x8.h"

/* The shape's field helpers: Fp's. */
#define mont v48_mont
#define mont2p v48_mont2p
#define msqr v48_sqr
#define reduce_once v48_reduce_once
#define vsub v48_sub
#define gather v48_gather
#define scatter v48_scatter

#define X8_V v48_t
#define X8_NL 8
#define X8_FE fp
#define X8_FE_ONE FP_ONE
#define X8_FE_ZERO FP_ZERO_ELEM
#define X8_AFF g1_affine_t
#define X8_XY_BY_GATHERS
#define X8_NAME g1_x8
#include "ec/add_x8_shape.h"
