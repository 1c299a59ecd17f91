/*
 * msm.c — the MSM of BLS12-381's G1 and G2 (ec/ec.h): the shape of
 * ec/msm_shape.h (its DESIGN comment) over Fp and Fp2, with G1's batches on
 * the 8 lanes of ec/g1_x8.c and G2's on those of ec/g2_x8.c where the CPU
 * has AVX-512 IFMA.
 */
#define MSM_G1 g1
#define MSM_G2 g2
#define MSM_FE1 fp
#define MSM_FE2 fp2
#define MSM_IFE1 ffp
#define MSM_IFE2 ffp2
#define MSM_FE1_ONE FP_ONE
#define MSM_FE2_ONE FP2_ONE
#define MSM_FR fr
#define MSM_FR_MODULUS FR_MODULUS
#define MSM_SCALAR_BITS 255
#define MSM_X8 g1_x8
#define MSM_X8_G2 g2_x8
#include "ec/msm_shape.h"

/* ---- the public functions of ec/ec.h (the shape above, by name) -------------------------- */

unsigned msm_window_auto(size_t n, unsigned nworkers) { return window_auto(n, nworkers); }
size_t msm_g1_scratch_size(size_t n, unsigned nworkers, unsigned window) { return scratch_size(1, n, nworkers, window); }
size_t msm_g2_scratch_size(size_t n, unsigned nworkers, unsigned window) { return scratch_size(2, n, nworkers, window); }

void msm_g1(g1_jac_t *out, const g1_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
            unsigned window, void *scratch, topo_pool_t *pool)
{
    msm_run(1, out, bases, scalars, density, n, window, scratch, pool);
}

void msm_g2(g2_jac_t *out, const g2_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
            unsigned window, void *scratch, topo_pool_t *pool)
{
    msm_run(2, out, bases, scalars, density, n, window, scratch, pool);
}

/* Batch-affine additions for other callers (groth16/setup.c's fixed-base tables). */

size_t g1_add_batch_scratch_size(size_t n)
{
    size_t s = add_batch_scratch_size(n), x = g1_x8_scratch_size(n);
    return s > x ? s : x;
}

size_t g2_add_batch_scratch_size(size_t n)
{
    size_t s = add_batch_scratch_size(n), x = g2_x8_scratch_size(n);
    return s > x ? s : x;
}

void g1_add_batch(size_t n, g1_affine_t *const *acc, const g1_affine_t *const *pt, const uint8_t *neg, void *scratch)
{
    if (fr_x8_enabled()) {
        GM_ASSERT(n <= EC_ADD_BATCH_MAX);
        g1_x8_add_batch(n, acc, pt, neg, scratch);
        return;
    }
    add_batch_run(1, n, (void *const *)acc, (const void *const *)pt, neg, scratch);
}

void g2_add_batch(size_t n, g2_affine_t *const *acc, const g2_affine_t *const *pt, const uint8_t *neg, void *scratch)
{
    if (fr_x8_enabled()) {
        GM_ASSERT(n <= EC_ADD_BATCH_MAX);
        g2_x8_add_batch(n, acc, pt, neg, scratch);
        return;
    }
    add_batch_run(2, n, (void *const *)acc, (const void *const *)pt, neg, scratch);
}

size_t g1_add_pairs_scratch_size(size_t m) { return add_pairs_scratch_size(1, m); }
size_t g2_add_pairs_scratch_size(size_t m) { return add_pairs_scratch_size(2, m); }
size_t g1_add_pairs(g1_affine_t *buf, size_t m, void *scratch) { return add_pairs_run(1, buf, m, scratch); }
size_t g2_add_pairs(g2_affine_t *buf, size_t m, void *scratch) { return add_pairs_run(2, buf, m, scratch); }
