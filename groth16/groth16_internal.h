/*
 * groth16/groth16_internal.h — declarations shared inside groth16/ only.
 */
#ifndef GM_GROTH16_INTERNAL_H
#define GM_GROTH16_INTERNAL_H

#include <stdio.h>

#include "groth16/groth16.h"

/* The names of the five query sections (groth16.h's GROTH16_SEC_*), for messages. */
extern const char *const g16_sec_names[GROTH16_NSEC];

/* Reads a parameter file's verifying key (fully checked) and section header
 * from fd (size bytes, named path in messages): the counts into *n, each
 * section's first point's byte offset into off_of, every size checked
 * against the file's (truncation, trailing bytes) and the counts against
 * shape's (when not NULL; otherwise b_g1 and b_g2 must agree). Returns 0,
 * GM_EIO, GM_EFORMAT or the vk decoder's codes (*vk freed on failure). */
int g16_params_header(groth16_vk_t *vk, groth16_counts_t *n, uint64_t off_of[GROTH16_NSEC], int fd, uint64_t size,
                      const char *path, const cs_shape_t *shape, err_t *err);

/* Loaded parameters (params.c). Arrays are gm_alloc'd and owned, or point
 * into a mapped points file, or (streamed) are all NULL: the queries stay
 * in the parameter file, read and decoded a chunk at a time while proving
 * (stream.c), so a key larger than memory can prove. */
struct groth16_params {
    groth16_vk_t vk;
    groth16_counts_t n;
    g1_affine_t *h, *l, *a, *b_g1;
    g2_affine_t *b_g2;
    gm_map_t points; /* mapped points file: the arrays point into it (data NULL: they are gm_alloc'd) */
    int fd;          /* streamed: the parameter file, open; -1 otherwise */
    bool trust;      /* streamed: decode without the subgroup check (it passed before) */
    uint64_t off[GROTH16_NSEC]; /* streamed: byte offset of each section's first point */
    char path[GM_PATH_MAX];
};

/* Checks every section count of have against what shape needs (shape
 * NULL: only that b_g1 and b_g2 agree). Returns 0 or GM_EFORMAT ("path:
 * section l: 10 points, the circuit needs 12"). */
int g16_counts_check(const char *path, const groth16_counts_t *have, const cs_shape_t *shape, err_t *err);

/* ---- streamed parameters (stream.c) ---------------------------------------------------- */

/* Buffers for reading a streamed section a chunk at a time: raw bytes and
 * the decoded points of one chunk (sized for G2, used by G1 too). */
typedef struct {
    uint8_t *raw;
    void *pts;
    uint64_t chunk_g1, chunk_g2; /* points per chunk */
} g16_stream_buf_t;

/* Points per chunk of G1 and G2 sections (GROTHMPI_STREAM_CHUNK overrides
 * both, for tests; rounded to a multiple of 64) and the bytes of the two
 * buffers. */
void g16_stream_chunks(uint64_t *g1, uint64_t *g2);
size_t g16_stream_buf_bytes(void);

/* Allocates / frees the buffers. Returns 0 or GM_ENOMEM. */
int g16_stream_buf_init(g16_stream_buf_t *b, err_t *err);
void g16_stream_buf_free(g16_stream_buf_t *b);

/* One MSM over a streamed section, a chunk of columns at a time: *out (a
 * g1_jac_t, or g2_jac_t for b_g2) = sum over the columns j < ncols whose
 * density bit is set (all when density NULL) of z_j · base, the bases being
 * section sec's points from index b0 on, in column order. The scalars are
 * scalars[j], or the compact values cz (scalars NULL). Each base is read from
 * the file once. gather and scratch as g16_msm_compact's and msm_gX's for
 * one chunk. Returns as g16_read_points. */
int g16_stream_msm(void *out, const groth16_params_t *p, int sec, uint64_t b0, const uint64_t *density,
                   uint64_t ncols, const fr_t *scalars, const cs_compact_t *cz, g16_stream_buf_t *buf, void *gather,
                   void *scratch, topo_pool_t *pool, err_t *err);

/* Bytes this process has read from storage so far (/proc/self/io
 * read_bytes; 0 when the kernel does not say). */
uint64_t g16_io_read_bytes(void);

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

/* The one decoder of a run of parameter points (the whole load, a rank's
 * slice, a streamed chunk): the n encodings of section sec at raw into dst
 * (g1_affine_t, or g2_affine_t for GROTH16_SEC_B_G2) by g16_point_decode,
 * in tasks of 4096 points on pool (the subgroup check is the cost). first
 * is raw's first index in the section, for messages. Returns 0 or the
 * status of the first bad point in section order, err "path: section s:
 * point i: text" whatever the pool's schedule. */
int g16_decode_range(void *dst, const uint8_t *raw, uint64_t n, int sec, uint64_t first, bool trust,
                     const char *path, topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));

/* Points [i0, i1) of section sec (its point 0 at file offset sec_off of fd)
 * read with pread into raw (at least (i1 - i0) encodings) and decoded into
 * dst by g16_decode_range. Returns 0, GM_EIO (err: path, section, points,
 * byte offset) or g16_decode_range's status. */
int g16_read_points(int fd, uint64_t sec_off, int sec, uint64_t i0, uint64_t i1, void *dst, uint8_t *raw,
                    bool trust, const char *path, topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));

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
