/*
 * tests/unit/test_g1_x8.c — BLS12-381's G1 batch-affine additions on 8
 * lanes (ec/g1_x8.c): the tests of tests/unit/g1_x8_tests.h over BLS12-381.
 */
#define X8T g1_x8
#define X8T_FE fp
#define X8T_N FP_LIMBS
#define X8T_M FP_MODULUS
#define X8T_BITS 381
#define X8T_RADIX 48
#define X8T_ZERO FP_ZERO_ELEM
#define X8T_ONE FP_ONE
#define X8T_G g1
#define X8T_GEN G1_GENERATOR
#define X8T_FR fr
#define X8T_FR_M FR_MODULUS
#define X8T_FR_ONE FR_ONE
#include "tests/unit/g1_x8_tests.h"
