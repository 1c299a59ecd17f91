/*
 * bn_fr_ifma.c — BN254's Fr on 8 lanes with AVX-512 IFMA (bn_fr_x8_*, the
 * kernels of the template ff/fr_ifma_shape.h, as ff/fr_ifma.c for
 * BLS12-381's Fr), run only while fr_x8_enabled() says yes.
 */
#define FF_X8_LANES /* ff/ff.h's lane helpers */
#include "base/base.h"
#include "ff/ff.h"

/* r = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
 * (254 bits: r < 2^255, as the template's bounds need) in radix 2^52, and
 * -r^-1 mod 2^52 (python3: [(r >> 52 * i) % 2**52 for i in range(5)],
 * -pow(r, -1, 2**52) % 2**52). */
#define FRX bn_fr
#define FRX_T bn_fr_t
#define FRX_R52 {0x1f593f0000001ULL, 0x4879b9709143eULL, 0x181585d2833e8ULL, 0xa029b85045b68ULL, 0x30644e72e131ULL}
#define FRX_RINV52 0x1f593efffffffULL
#include "ff/fr_ifma_shape.h"
