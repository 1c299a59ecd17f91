/*
 * fr_ifma.c — BLS12-381's Fr on 8 lanes with AVX-512 IFMA (fr_x8_*, the
 * kernels of the template ff/fr_ifma_shape.h, which explains the method),
 * and the one switch between the lanes and the scalar path that every lane
 * user asks (fr_x8_enabled: it is about the CPU, not the curve; BN254's Fr
 * lanes in ff/bn_fr_ifma.c and the G1 lanes of ec/ obey it too).
 */
#include <stdlib.h>
#include <string.h>

#define FF_X8_LANES /* ff/ff.h's lane helpers */
#include "base/base.h"
#include "ff/ff.h"

/* ---- dispatch ---------------------------------------------------------------- */

/* 0: not decided yet; 1: scalar; 2: 8 lanes. Written once by whichever thread
 * asks first (every writer stores the same value) or by fr_x8_init. */
static int x8_state;

static bool cpu_has_ifma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl");
}

int fr_x8_init(fr_x8_mode_t mode)
{
    int s;
    if (mode == FR_X8_ON) {
        if (!cpu_has_ifma())
            return GM_ENOTSUP;
        s = 2;
    } else if (mode == FR_X8_OFF) {
        s = 1;
    } else {
        const char *e = getenv("GROTHMPI_FR_X8");
        bool off = e && (strcmp(e, "off") == 0 || strcmp(e, "0") == 0);
        s = !off && cpu_has_ifma() ? 2 : 1;
    }
    __atomic_store_n(&x8_state, s, __ATOMIC_RELAXED);
    return GM_OK;
}

bool fr_x8_enabled(void)
{
    int s = __atomic_load_n(&x8_state, __ATOMIC_RELAXED);
    if (s == 0) {
        if (fr_x8_init(FR_X8_AUTO) != GM_OK) /* AUTO never fails */
            return false;
        s = __atomic_load_n(&x8_state, __ATOMIC_RELAXED);
    }
    return s == 2;
}

/* ---- the kernels ------------------------------------------------------------------ */

/* r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 * (< 2^255) in radix 2^52, and -r^-1 mod 2^52. */
#define FRX fr
#define FRX_T fr_t
#define FRX_R52 {0xfffff00000001ULL, 0x2fffe5bfefffULL, 0x9a1d80553bda4ULL, 0x7d483339d8080ULL, 0x73eda753299dULL}
#define FRX_RINV52 0xffffeffffffffULL
#include "ff/fr_ifma_shape.h"
