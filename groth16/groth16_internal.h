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
};

/* The size-m domain of a shape: m = smallest power of two >= n_rows, log m in
 * *log_m. Returns 0 or GM_EINVAL (n_rows < 2 or m > 2^28). */
int g16_domain_of(unsigned *log_m, const cs_shape_t *shape, err_t *err);

/* Column density of matrix mat (0 = A, 1 = B) over z: a bitmap of
 * ceil(n_vars / 64) words (gm_calloc'd into *out), bit j set when column j
 * has a term. Returns the number of set bits; *out NULL when out of memory. */
uint64_t g16_density(uint64_t **out, const cs_shape_t *shape, int mat);

static inline bool g16_bit(const uint64_t *bm, uint64_t j) { return (bm[j >> 6] >> (j & 63)) & 1; }

/* n uniformly random Fr values from getrandom (64 bytes each, reduced), or
 * with bits = 128 values below 2^128. Returns 0 or GM_ESYS. */
int g16_random_fr(fr_t *out, size_t n, unsigned bits, err_t *err);

/* out = 64 little-endian bytes reduced mod r (bias < 2^-250). */
void g16_fr_from_64(fr_t *out, const uint8_t in[64]);

/* An atomic streaming writer: writes go to "<path>.tmp.<pid>"; close renames
 * over path after fflush + fsync and fsyncs the directory; abort removes the
 * temporary file. */
typedef struct {
    FILE *f;
    char path[4096];
    char tmp[4200];
    int failed_errno;
} g16_writer_t;

int g16_writer_open(g16_writer_t *w, const char *path, err_t *err);
/* Buffered write; errors are remembered and reported by close. */
void g16_writer_put(g16_writer_t *w, const void *p, size_t n);
void g16_writer_put_u32be(g16_writer_t *w, uint32_t v);
int g16_writer_close(g16_writer_t *w, err_t *err);
void g16_writer_abort(g16_writer_t *w);

/* out[i] = scalars[i] times the generator of G1 (g2: G2), as affine points
 * (g1_affine_t or g2_affine_t arrays of n), by the setup's fixed-base tables
 * (setup.c), in tasks on pool. For setups other than groth16_setup (the
 * snarkjs powers of tau, snarkjs_ptau.c). Returns 0 or GM_ENOMEM. */
int g16_fixed_base_gen(void *out, bool g2, const fr_t *scalars, size_t n, topo_pool_t *pool, err_t *err);

#endif /* GM_GROTH16_INTERNAL_H */
