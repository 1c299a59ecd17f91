/*
 * bn_msm.c — the MSM of BN254's G1 and G2 (ec/ec.h, BN254 section): the
 * shape of ec/msm_shape.h (its DESIGN comment) over BN254's Fp and Fp2,
 * with G1's batches on the 8 lanes of ec/bn_g1_x8.c and G2's on those of
 * ec/bn_g2_x8.c where the CPU has AVX-512 IFMA.
 */
#include "ec/ec.h"
#include "ff/ff.h"

/* The inline add, sub, neg and is_zero the shape wants (ff.h's limb-level
 * kernels at four limbs; p < 2^255 as they require): six subtractions per
 * bucket addition cost as much as a product as out-of-line calls. */
static inline __attribute__((always_inline)) void bnp_add(bn_fp_t *o, const bn_fp_t *a, const bn_fp_t *b)
{
    ff_mod_add(o->l, a->l, b->l, BN254_FP_MODULUS, BN254_LIMBS);
}
static inline __attribute__((always_inline)) void bnp_sub(bn_fp_t *o, const bn_fp_t *a, const bn_fp_t *b)
{
    ff_mod_sub(o->l, a->l, b->l, BN254_FP_MODULUS, BN254_LIMBS);
}
static inline __attribute__((always_inline)) void bnp_neg(bn_fp_t *o, const bn_fp_t *a)
{
    ff_mod_neg(o->l, a->l, BN254_FP_MODULUS, BN254_LIMBS);
}
static inline __attribute__((always_inline)) bool bnp_is_zero(const bn_fp_t *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}
static inline __attribute__((always_inline)) void bnp2_add(bn_fp2_t *o, const bn_fp2_t *a, const bn_fp2_t *b)
{
    bnp_add(&o->c0, &a->c0, &b->c0);
    bnp_add(&o->c1, &a->c1, &b->c1);
}
static inline __attribute__((always_inline)) void bnp2_sub(bn_fp2_t *o, const bn_fp2_t *a, const bn_fp2_t *b)
{
    bnp_sub(&o->c0, &a->c0, &b->c0);
    bnp_sub(&o->c1, &a->c1, &b->c1);
}
static inline __attribute__((always_inline)) void bnp2_neg(bn_fp2_t *o, const bn_fp2_t *a)
{
    bnp_neg(&o->c0, &a->c0);
    bnp_neg(&o->c1, &a->c1);
}
static inline __attribute__((always_inline)) bool bnp2_is_zero(const bn_fp2_t *a)
{
    return bnp_is_zero(&a->c0) && bnp_is_zero(&a->c1);
}

#define MSM_G1 bn_g1
#define MSM_G2 bn_g2
#define MSM_FE1 bn_fp
#define MSM_FE2 bn_fp2
#define MSM_IFE1 bnp
#define MSM_IFE2 bnp2
#define MSM_FE1_ONE BN254_FP_ONE
#define MSM_FE2_ONE BN254_FP2_ONE
#define MSM_FR bn_fr
#define MSM_FR_MODULUS BN254_FR_MODULUS
#define MSM_SCALAR_BITS 254
#define MSM_X8 bn_g1_x8
#define MSM_X8_G2 bn_g2_x8
#include "ec/msm_shape.h"

/* ---- the public functions of ec/ec.h (the shape above, by name) -------------------------- */

unsigned bn_msm_window_auto(size_t n, unsigned nworkers) { return window_auto(n, nworkers); }
size_t bn_msm_g1_scratch_size(size_t n, unsigned nworkers, unsigned window)
{
    return scratch_size(1, n, nworkers, window);
}
size_t bn_msm_g2_scratch_size(size_t n, unsigned nworkers, unsigned window)
{
    return scratch_size(2, n, nworkers, window);
}

void bn_msm_g1(bn_g1_jac_t *out, const bn_g1_affine_t *bases, const bn_fr_t *scalars, const uint64_t *density,
               size_t n, unsigned window, void *scratch, topo_pool_t *pool)
{
    msm_run(1, out, bases, scalars, density, n, window, scratch, pool);
}

void bn_msm_g2(bn_g2_jac_t *out, const bn_g2_affine_t *bases, const bn_fr_t *scalars, const uint64_t *density,
               size_t n, unsigned window, void *scratch, topo_pool_t *pool)
{
    msm_run(2, out, bases, scalars, density, n, window, scratch, pool);
}

size_t bn_g1_add_batch_scratch_size(size_t n) { return add_batch_scratch_size(n); }
size_t bn_g2_add_batch_scratch_size(size_t n) { return add_batch_scratch_size(n); }

void bn_g1_add_batch(size_t n, bn_g1_affine_t *const *acc, const bn_g1_affine_t *const *pt, const uint8_t *neg,
                     void *scratch)
{
    add_batch_run(1, n, (void *const *)acc, (const void *const *)pt, neg, scratch);
}

void bn_g2_add_batch(size_t n, bn_g2_affine_t *const *acc, const bn_g2_affine_t *const *pt, const uint8_t *neg,
                     void *scratch)
{
    add_batch_run(2, n, (void *const *)acc, (const void *const *)pt, neg, scratch);
}

size_t bn_g1_add_pairs_scratch_size(size_t m) { return add_pairs_scratch_size(1, m); }
size_t bn_g2_add_pairs_scratch_size(size_t m) { return add_pairs_scratch_size(2, m); }
size_t bn_g1_add_pairs(bn_g1_affine_t *buf, size_t m, void *scratch) { return add_pairs_run(1, buf, m, scratch); }
size_t bn_g2_add_pairs(bn_g2_affine_t *buf, size_t m, void *scratch) { return add_pairs_run(2, buf, m, scratch); }
