/*
 * tests/unit/test_bn_fr_ifma.c — BN254's Fr on 8 lanes (ff/bn_fr_ifma.c):
 * the tests of tests/unit/fr_x8_tests.h over BN254's r.
 */
#define FRT bn_fr_ifma
#define FRT_FE bn_fr
#define FRT_N BN254_LIMBS
#define FRT_M BN254_FR_MODULUS
#define FRT_BITS 254
#define FRT_ZERO BN254_FR_ZERO
#define FRT_ONE BN254_FR_ONE
#include "tests/unit/fr_x8_tests.h"
