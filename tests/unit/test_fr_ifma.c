/*
 * tests/unit/test_fr_ifma.c — BLS12-381's Fr on 8 lanes (ff/fr_ifma.c): the
 * tests of tests/unit/fr_x8_tests.h over BLS12-381's r, and the switch
 * between the lanes and the scalar path (fr_x8_init, shared by every field).
 */
#define FRT fr_ifma
#define FRT_FE fr
#define FRT_N FR_LIMBS
#define FRT_M FR_MODULUS
#define FRT_BITS 255
#define FRT_ZERO FR_ZERO
#define FRT_ONE FR_ONE
#include "tests/unit/fr_x8_tests.h"

Test(fr_ifma, modes)
{
    cr_assert_eq(fr_x8_init(FR_X8_OFF), 0);
    cr_assert(!fr_x8_enabled());
    cr_assert_eq(fr_x8_init(FR_X8_AUTO), 0);
    int on = fr_x8_init(FR_X8_ON);
    cr_assert(on == 0 || on == GM_ENOTSUP);
    cr_assert_eq(fr_x8_enabled(), on == 0);
}
