/*
 * bn_ntt.c — the number-theoretic transform over BN254's Fr (two-adicity 28:
 * sizes 2^1 .. 2^28), the same transform as ntt/ntt.c (its DESIGN comment),
 * instantiated from ntt/ntt_shape.h without the 8-lane paths (those kernels
 * are BLS12-381's Fr only).
 */
#define NTT_PRE bn_ntt
#define NTT_NAME "bn_ntt"
#define NTT_DOMAIN_STRUCT bn_ntt_domain
#define NTT_DOMAIN_T bn_ntt_domain_t
#define NTT_FE bn_fr
#define NTT_FE_T bn_fr_t
#define NTT_FE_ONE BN254_FR_ONE
#define NTT_FE_GENERATOR BN254_FR_GENERATOR
#include "ntt/ntt_shape.h"
