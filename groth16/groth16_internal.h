/*
 * groth16/groth16_internal.h — declarations shared inside groth16/ only.
 */
#ifndef GM_GROTH16_INTERNAL_H
#define GM_GROTH16_INTERNAL_H

#include <stdio.h>

#include "groth16/groth16.h"

/* Loaded parameters (params.c). Arrays are gm_alloc'd and owned. */
struct groth16_params {
    groth16_vk_t vk;
    groth16_counts_t n;
    g1_affine_t *h, *l, *a, *b_g1;
    g2_affine_t *b_g2;
    gm_map_t points; /* mapped points file: the arrays point into it (data NULL: they are gm_alloc'd) */
};

/* The size-m domain of a shape: m = smallest power of two >= n_rows, log m in
 * *log_m. Returns 0 or GM_EINVAL (n_rows < 2 or m > 2^28). */
int g16_domain_of(unsigned *log_m, const cs_shape_t *shape, err_t *err);

/* Column density of matrix mat (0 = A, 1 = B) over z: a bitmap of
 * ceil(n_vars / 64) words (gm_calloc'd into *out), bit j set when column j
 * has a term. Returns the number of set bits; *out NULL when out of memory. */
uint64_t g16_density(uint64_t **out, const cs_shape_t *shape, int mat);

/* The message text of a point decoder's status ("not in the subgroup",
 * "point at infinity" for GM_EFORMAT, ...), for "file: section s: point i:
 * <text>" messages. */
const char *g16_point_err_text(int code);

/* Decodes one uncompressed parameter point at src into dst (a g1_affine_t,
 * or a g2_affine_t when g2), fully checked, or without the subgroup check
 * when trust (--trust-params); the identity is refused (bellperson's
 * queries hold none). Returns 0 or the decoder's status (GM_EFLAGS,
 * GM_ENONCANON, GM_ENOTONCURVE, GM_ESUBGROUP), GM_EFORMAT for the identity. */
int g16_point_decode(void *dst, const uint8_t *src, bool g2, bool trust);

/* Frees a key's vk and its five query arrays (NULLs allowed): the whole
 * parameters (params.c) and a rank's slices of them (params_slice.c). */
void g16_points_free(groth16_vk_t *vk, g1_affine_t *h, g1_affine_t *l, g1_affine_t *a, g1_affine_t *b_g1,
                     g2_affine_t *b_g2);

/* Compact witnesses (witness.c): *out (a g1_jac_t, or a g2_jac_t when g2)
 * = sum_j z_j B(j) over the aux values of c, with bases g1_affine_t or
 * g2_affine_t and B(j) as msm_g1's density (density NULL: bases[j]), equal
 * to msm_g1 / msm_g2 over the expanded values. gather: g16_gather_bytes(c->n)
 * bytes (the gathered bases of at most G16_GATHER dense values at a time,
 * and their bitmap); scratch: msm_gX_scratch_size for at least
 * min(c->n, G16_GATHER) scalars on pool. */
#define G16_GATHER ((uint64_t)1 << 17)
size_t g16_gather_bytes(uint64_t n_aux);
void g16_msm_compact(void *out, bool g2, const void *bases, const uint64_t *density, const cs_compact_t *c,
                     void *gather, void *scratch, topo_pool_t *pool);

static inline bool g16_bit(const uint64_t *bm, uint64_t j) { return (bm[j >> 6] >> (j & 63)) & 1; }

#endif /* GM_GROTH16_INTERNAL_H */
