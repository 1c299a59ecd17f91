/*
 * g2_x8.c — BLS12-381's G2 batch-affine additions on 8 lanes with AVX-512
 * IFMA, the bucket additions of ec/msm.c's G2 MSM (a Groth16 proof's B) on
 * CPUs that have it: the batch of ec/add_x8_shape.h over Fp2 = Fp[u] / (u^2
 * + 1), each Fp2 lane value two of ec/fp_x8.h's Fp lane values
 * (ec/fp2_x8_shape.h, the Fp2 layer shared with BN254's ec/bn_g2_x8.c).
 * Three Fp lane-products per Fp2 product (Karatsuba), two per square; a
 * point's coordinates move by gathers and scatters (X8_XY_BY_GATHERS, as
 * G1's in ec/g1_x8.c).
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

#define X8_V fp2x8_t
#define X8_NL 16
#define X8_FE fp2
#define X8_FE_ONE FP2_ONE
#define X8_FE_ZERO FP2_ZERO
#define X8_AFF g2_affine_t
#define X8_XY_BY_GATHERS
#define X8_NAME g2_x8
#include "ec/add_x8_shape.h"
