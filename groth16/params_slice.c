/*
 * groth16/params_slice.c — one rank's share of a parameter file, for a proof
 * split over R ranks (mpi/split.c): the vk whole, and part [lo, hi) of each
 * of the five queries, read with pread at offsets computed from the counts,
 * so a rank of a 2^27 circuit touches about 1/R of a ~75 GB file and holds
 * 1/R of its decoded points.
 *
 * Order of the work: the header (vk, then the five counts, each found by
 * skipping the previous section's bytes) is read and checked against the
 * file size and the shape first, exactly as groth16_params_load checks it;
 * then each slice is read with pread and decoded at most SLICE_CHUNK_POINTS
 * points at a time by the loader's own decoder (g16_read_points), so the raw bytes
 * never exist for the whole slice at once and the failure reported is the
 * first in file order, whatever the pool.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/groth16_internal.h"

/* Points read and decoded at a time: 2^16 (12 MiB of G2 encodings), so the
 * raw bytes never exist for the whole slice. */
#define SLICE_CHUNK_POINTS ((uint64_t)1 << 16)

void groth16_slice_range(uint64_t *lo, uint64_t *hi, uint64_t n, unsigned part, unsigned parts)
{
    GM_ASSERT(parts >= 1 && part < parts);
    /* n < 2^32 (a u32 count) and parts < 2^32: the products fit in 64 bits. */
    *lo = n * part / parts;
    *hi = n * (part + 1) / parts;
}

void groth16_params_slice_free(groth16_params_slice_t *p)
{
    if (!p)
        return;
    g16_points_free(&p->vk, p->h, p->l, p->a, p->b_g1, p->b_g2);
    memset(p, 0, sizeof *p);
}

size_t groth16_params_slice_memory(const groth16_params_slice_t *p)
{
    size_t b = 0;
    for (int s = 0; s < GROTH16_NSEC; s++)
        b += (size_t)(p->hi[s] - p->lo[s]) * (s == GROTH16_SEC_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t));
    return b + p->vk.n_ic * sizeof(g1_affine_t);
}

/* g16_params_header without the cleanup of *vk. */
static int params_header(groth16_vk_t *vk, groth16_counts_t *cnt, uint64_t off_of[GROTH16_NSEC], int fd,
                         uint64_t size, const char *path, const cs_shape_t *shape, err_t *err)
{
    uint8_t fixed[GROTH16_VK_FIXED_BYTES + 4];
    if (size < sizeof fixed)
        return gm_err_set(err, GM_EFORMAT, "%s: section vk: truncated: %llu bytes, at least %zu needed", path,
                          (unsigned long long)size, sizeof fixed);
    int e = gm_pread_full(fd, fixed, sizeof fixed, 0);
    if (e)
        return gm_err_set(err, GM_EIO, "%s: cannot read the verifying key: %s", path, strerror(e));
    const uint8_t *c = fixed + GROTH16_VK_FIXED_BYTES;
    uint32_t n_ic = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
    uint64_t vkb = groth16_vk_bytes(n_ic);
    /* A vk longer than the file is a truncation: groth16_vk_from_bytes
     * names it when given what there is (at most the file). */
    size_t have = (size_t)(vkb < size ? vkb : size);
    uint8_t *vkbuf = gm_alloc(have);
    if (!vkbuf)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory for the verifying key", path);
    int rc = 0;
    if ((e = gm_pread_full(fd, vkbuf, have, 0)))
        rc = gm_err_set(err, GM_EIO, "%s: cannot read the verifying key: %s", path, strerror(e));
    size_t used = 0;
    if (!rc)
        rc = groth16_vk_from_bytes(vk, vkbuf, have, &used, path, err);
    gm_free(vkbuf);
    if (rc)
        return rc;
    uint64_t off = used, n[GROTH16_NSEC];
    for (int s = 0; s < GROTH16_NSEC; s++) {
        size_t sz = s == GROTH16_SEC_B_G2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        uint8_t b[4];
        if (size - off < 4)
            return gm_err_set(err, GM_EFORMAT, "%s: section %s: truncated: the file ends at byte %llu before its "
                              "count", path, g16_sec_names[s], (unsigned long long)size);
        if ((e = gm_pread_full(fd, b, 4, off)))
            return gm_err_set(err, GM_EIO, "%s: section %s: cannot read its count: %s", path, g16_sec_names[s],
                              strerror(e));
        n[s] = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
        off += 4;
        if ((size - off) / sz < n[s])
            return gm_err_set(err, GM_EFORMAT, "%s: section %s: truncated: %llu points need %llu bytes from byte "
                              "%llu, the file has %llu", path, g16_sec_names[s], (unsigned long long)n[s],
                              (unsigned long long)(n[s] * sz), (unsigned long long)off,
                              (unsigned long long)(size - off));
        off_of[s] = off;
        off += n[s] * sz;
    }
    if (off != size)
        return gm_err_set(err, GM_EFORMAT, "%s: %llu trailing bytes after section b_g2", path,
                          (unsigned long long)(size - off));
    *cnt = (groth16_counts_t){.ic = vk->n_ic, .h = n[GROTH16_SEC_H], .l = n[GROTH16_SEC_L],
                              .a = n[GROTH16_SEC_A], .b_g1 = n[GROTH16_SEC_B_G1], .b_g2 = n[GROTH16_SEC_B_G2]};
    return g16_counts_check(path, cnt, shape, err);
}

int g16_params_header(groth16_vk_t *vk, groth16_counts_t *cnt, uint64_t off_of[GROTH16_NSEC], int fd, uint64_t size,
                      const char *path, const cs_shape_t *shape, err_t *err)
{
    /* Zeroed first: a file too short for the vk fails before the decoder
     * touches *vk, and the caller's *vk may be uninitialized. */
    memset(vk, 0, sizeof *vk);
    int rc = params_header(vk, cnt, off_of, fd, size, path, shape, err);
    if (rc)
        groth16_vk_free(vk);
    return rc;
}

int groth16_params_load_slice(groth16_params_slice_t *out, const char *path, const cs_shape_t *shape,
                              unsigned part, unsigned parts, groth16_load_flags_t flags, topo_pool_t *pool,
                              err_t *err)
{
    memset(out, 0, sizeof *out);
    int rc = 0;
    uint8_t *raw = NULL;
    uint64_t off[GROTH16_NSEC];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot stat: %s", path, strerror(errno));
        goto fail;
    }
    if ((rc = g16_params_header(&out->vk, &out->n, off, fd, (uint64_t)st.st_size, path, shape, err)))
        goto fail;
    bool trust = (flags & GROTH16_LOAD_TRUST) != 0;
    const uint64_t n[GROTH16_NSEC] = {out->n.h, out->n.l, out->n.a, out->n.b_g1, out->n.b_g2};
    void **dst[GROTH16_NSEC] = {(void **)&out->h, (void **)&out->l, (void **)&out->a, (void **)&out->b_g1,
                                (void **)&out->b_g2};
    /* The raw buffer holds one chunk of the longest slice, no more: a small
     * slice (many ranks, a small circuit) must not pay a 12 MiB buffer that
     * the split's per-rank memory bound does not scale. */
    uint64_t chunk = 1;
    for (int s = 0; s < GROTH16_NSEC; s++) {
        groth16_slice_range(&out->lo[s], &out->hi[s], n[s], part, parts);
        uint64_t len = out->hi[s] - out->lo[s];
        chunk = len > chunk ? len : chunk;
    }
    chunk = chunk < SLICE_CHUNK_POINTS ? chunk : SLICE_CHUNK_POINTS;
    if (!(raw = gm_alloc((size_t)chunk * G2_UNCOMPRESSED_BYTES))) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    for (int s = 0; s < GROTH16_NSEC && !rc; s++) {
        uint64_t lo = out->lo[s], hi = out->hi[s];
        size_t psz = s == GROTH16_SEC_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        if (!(*dst[s] = gm_alloc((size_t)(hi - lo + 1) * psz))) {
            rc = gm_err_set(err, GM_ENOMEM, "%s: section %s: out of memory for %llu points", path,
                            g16_sec_names[s], (unsigned long long)(hi - lo));
            goto fail;
        }
        for (uint64_t i = lo; i < hi && !rc; i += chunk) {
            uint64_t e = hi - i < chunk ? hi : i + chunk;
            rc = g16_read_points(fd, off[s], s, i, e, (uint8_t *)*dst[s] + (i - lo) * psz, raw, trust, path, pool,
                                 err);
        }
    }
fail:
    gm_free(raw);
    close(fd);
    if (rc)
        groth16_params_slice_free(out);
    return rc;
}

int groth16_query_density(uint64_t **da, uint64_t **db, const cs_shape_t *shape, err_t *err)
{
    g16_density(da, shape, 0);
    g16_density(db, shape, 1);
    if (!*da || !*db) {
        gm_free(*da);
        gm_free(*db);
        *da = *db = NULL;
        return gm_err_set(err, GM_ENOMEM, "circuit: out of memory for the density bitmaps");
    }
    for (uint64_t j = 0; j < shape->n_inputs; j++)
        (*da)[j >> 6] |= 1ULL << (j & 63);
    return 0;
}
