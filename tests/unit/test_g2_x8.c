/*
 * tests/unit/test_g2_x8.c — BLS12-381's G2 batch-affine additions on 8
 * lanes (ec/g2_x8.c): the tests of tests/unit/g1_x8_tests.h over
 * BLS12-381's G2.
 */
#define X8T g2_x8
#define X8T_FE fp
#define X8T_N FP_LIMBS
#define X8T_M FP_MODULUS
#define X8T_BITS 381
#define X8T_RADIX 48
#define X8T_ZERO FP_ZERO_ELEM
#define X8T_ONE FP_ONE
#define X8T_G g2
#define X8T_G2
#define X8T_CF fp2
#define X8T_CF_ONE FP2_ONE
#define X8T_GEN G2_GENERATOR
#define X8T_FR fr
#define X8T_FR_M FR_MODULUS
#define X8T_FR_ONE FR_ONE
#include "tests/unit/g1_x8_tests.h"
