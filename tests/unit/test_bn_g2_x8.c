/*
 * tests/unit/test_bn_g2_x8.c — BN254's G2 batch-affine additions on 8 lanes
 * (ec/bn_g2_x8.c): the tests of tests/unit/g1_x8_tests.h over BN254.
 */
#define X8T bn_g2_x8
#define X8T_FE bn_fp
#define X8T_N BN254_LIMBS
#define X8T_M BN254_FP_MODULUS
#define X8T_BITS 254
#define X8T_RADIX 52
#define X8T_ZERO BN254_FP_ZERO
#define X8T_ONE BN254_FP_ONE
#define X8T_G bn_g2
#define X8T_G2
#define X8T_CF bn_fp2
#define X8T_CF_ONE BN254_FP2_ONE
#define X8T_GEN BN254_G2_GENERATOR
#define X8T_FR bn_fr
#define X8T_FR_M BN254_FR_MODULUS
#define X8T_FR_ONE BN254_FR_ONE
#include "tests/unit/g1_x8_tests.h"
