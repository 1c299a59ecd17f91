/*
 * groth16/stream.c — the MSMs of streamed parameters: bases read from the
 * parameter file a chunk at a time (groth16_internal.h).
 *
 * DESIGN. A 32 GiB PoRep key is 44 GiB of points, more than a 24 GiB node
 * holds, and the page cache cannot keep it either: an MSM that walked the
 * mapped file once per window would read it 15 times. So each MSM is cut
 * into chunks of columns (a multiple of 64, the density word): the chunk's
 * bases are read with pread into one buffer, decoded into another, and
 * every window of the chunk runs while they are there (msm_g1 / msm_g2 or
 * the compact witness's g16_msm_compact on that chunk); the partial sums
 * add up to the whole. Each base is read once per MSM. The cost of a chunk
 * over the whole is one more bucket reduction per window: with chunks of
 * 2^23 G1 points (2^22 G2) and the 2^16 buckets of a 17-bit window, under 2 %.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groth16/groth16_internal.h"

/* Raw bytes per chunk: 2^23 G1 points or 2^22 G2 points (768 MiB). */
#define STREAM_RAW_BYTES ((uint64_t)768 << 20)

void g16_stream_chunks(uint64_t *g1, uint64_t *g2)
{
    *g1 = STREAM_RAW_BYTES / G1_UNCOMPRESSED_BYTES / 64 * 64;
    *g2 = STREAM_RAW_BYTES / G2_UNCOMPRESSED_BYTES / 64 * 64;
    const char *v = getenv("GROTHMPI_STREAM_CHUNK");
    if (v && *v) {
        char *end;
        unsigned long long n = strtoull(v, &end, 10);
        if (*end == '\0' && n >= 64 && n <= *g2)
            *g1 = *g2 = n / 64 * 64;
    }
}

/* Decoded points per chunk take more room than raw ones (Montgomery form
 * plus the flag): the larger of the two sections' needs. */
static void buf_sizes(uint64_t *raw, uint64_t *pts)
{
    uint64_t g1, g2;
    g16_stream_chunks(&g1, &g2);
    uint64_t r1 = g1 * G1_UNCOMPRESSED_BYTES, r2 = g2 * G2_UNCOMPRESSED_BYTES;
    uint64_t p1 = g1 * sizeof(g1_affine_t), p2 = g2 * sizeof(g2_affine_t);
    *raw = r1 > r2 ? r1 : r2;
    *pts = p1 > p2 ? p1 : p2;
}

size_t g16_stream_buf_bytes(void)
{
    uint64_t raw, pts;
    buf_sizes(&raw, &pts);
    return (size_t)(raw + pts);
}

int g16_stream_buf_init(g16_stream_buf_t *b, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint64_t raw, pts;
    buf_sizes(&raw, &pts);
    g16_stream_chunks(&b->chunk_g1, &b->chunk_g2);
    b->raw = gm_alloc((size_t)raw);
    b->pts = gm_alloc((size_t)pts);
    if (!b->raw || !b->pts) {
        g16_stream_buf_free(b);
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory for the streamed parameters' buffers (%.1f GiB)",
                          (double)(raw + pts) / (1 << 30));
    }
    return 0;
}

void g16_stream_buf_free(g16_stream_buf_t *b)
{
    gm_free(b->raw);
    gm_free(b->pts);
    memset(b, 0, sizeof *b);
}

uint64_t g16_io_read_bytes(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    if (!f)
        return 0;
    char line[128];
    unsigned long long v = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "read_bytes: %llu", &v) == 1)
            break;
    fclose(f);
    return v;
}

/* The compact values of columns [j0, j1) of c as a form of their own
 * (j0 a multiple of 64): the word arrays from word j0 / 64 and the dense
 * values from the first one at or after j0. Its rank array is c's, offset,
 * so its counts are absolute: only the g16_msm_compact walk may use it. */
static cs_compact_t compact_view(const cs_compact_t *c, uint64_t j0, uint64_t j1)
{
    cs_compact_t v = *c;
    uint64_t d0 = j0 < c->n ? cs_compact_dense_index(c, j0) : c->n_dense;
    uint64_t d1 = j1 < c->n ? cs_compact_dense_index(c, j1) : c->n_dense;
    v.n = j1 - j0;
    v.n_dense = d1 - d0;
    v.isbit = c->isbit + j0 / 64;
    v.one = c->one + j0 / 64;
    v.rank = c->rank + j0 / 64;
    v.dense = c->dense + d0;
    return v;
}

/* Set bits of bm in [j0, j1), j0 a multiple of 64 (bits past j1 in its
 * word may be set: the inputs' part of a z-wide bitmap). */
static uint64_t popcount_range(const uint64_t *bm, uint64_t j0, uint64_t j1)
{
    uint64_t n = 0, w = j0 / 64;
    for (; w < j1 / 64; w++)
        n += (uint64_t)__builtin_popcountll(bm[w]);
    if (j1 % 64)
        n += (uint64_t)__builtin_popcountll(bm[w] & ((1ULL << (j1 % 64)) - 1));
    return n;
}

int g16_stream_msm(void *out, const groth16_params_t *p, int sec, uint64_t b0, const uint64_t *density,
                   uint64_t ncols, const fr_t *scalars, const cs_compact_t *cz, g16_stream_buf_t *buf, void *gather,
                   void *scratch, topo_pool_t *pool, err_t *err)
{
    bool g2 = sec == GROTH16_SEC_B_G2;
    uint64_t chunk = g2 ? buf->chunk_g2 : buf->chunk_g1, bi = b0;
    g1_jac_t s1, p1;
    g2_jac_t s2, p2;
    g1_jac_set_inf(&s1);
    g2_jac_set_inf(&s2);
    for (uint64_t j0 = 0; j0 < ncols; j0 += chunk) {
        uint64_t j1 = ncols - j0 < chunk ? ncols : j0 + chunk;
        uint64_t nb = density ? popcount_range(density, j0, j1) : j1 - j0;
        int rc = g16_read_points(p->fd, p->off[sec], sec, bi, bi + nb, buf->pts, buf->raw, p->trust, p->path, pool, err);
        if (rc)
            return rc;
        bi += nb;
        const uint64_t *d = density ? density + j0 / 64 : NULL;
        if (cz) {
            cs_compact_t v = compact_view(cz, j0, j1);
            g16_msm_compact(g2 ? (void *)&p2 : (void *)&p1, g2, buf->pts, d, &v, gather, scratch, pool);
        } else if (g2) {
            msm_g2(&p2, buf->pts, scalars + j0, d, (size_t)(j1 - j0), 0, scratch, pool);
        } else {
            msm_g1(&p1, buf->pts, scalars + j0, d, (size_t)(j1 - j0), 0, scratch, pool);
        }
        if (g2)
            g2_add(&s2, &s2, &p2);
        else
            g1_add(&s1, &s1, &p1);
    }
    if (g2)
        *(g2_jac_t *)out = s2;
    else
        *(g1_jac_t *)out = s1;
    return 0;
}
