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
 * then the slices are decoded by tasks of SLICE_TASK_POINTS points on the
 * pool. Each task preads its points into its worker's buffer (so the raw
 * bytes never exist for the whole slice at once), decodes them with the
 * loader's own point decoder (g16_point_decode) and keeps its first
 * failure; the one reported is the first in file order, whatever the pool.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/groth16_internal.h"

#define SLICE_TASK_POINTS 4096


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

/* pread of exactly n bytes at off. Returns 0, or errno (EIO for a short file). */
typedef struct {
    int fd;
    bool trust;
    uint64_t off[GROTH16_NSEC];   /* file offset of the section's first point */
    uint64_t lo[GROTH16_NSEC], count[GROTH16_NSEC]; /* the slice: first index, points */
    void *dst[GROTH16_NSEC];
    uint64_t task_first[GROTH16_NSEC + 1];
    uint8_t *buf;                 /* per worker: SLICE_TASK_POINTS G2 points */
    int *task_rc;                 /* per task: first error (a status, or -errno-like GM_EIO) */
    uint64_t *task_idx;           /* per task: the section index of that point */
    int *task_errno;              /* per task: errno of a failed pread */
} slice_job_t;

/* Reads and decodes the points of one task.
 * (1) Why: pread per task keeps the raw bytes to one buffer per worker, and
 *     the subgroup check (the cost of loading) spreads over the pool.
 * (2) Invariants: task t covers slice points [i0, i1) of one section, whose
 *     file bytes were checked against the file size before any task ran;
 *     the task writes only its points of dst, its worker's buffer and its
 *     own task_* slots.
 * (3) Same per-point cost as groth16_params_load's decode_task (the stage
 *     "load" of grothmpi prove --verbose, bench/README.md). */
static void slice_task(void *arg, size_t task, unsigned worker)
{
    slice_job_t *j = arg;
    int s = 0;
    while (task >= j->task_first[s + 1])
        s++;
    bool g2 = s == GROTH16_SEC_B_G2;
    size_t sz = g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    uint64_t i0 = (uint64_t)(task - j->task_first[s]) * SLICE_TASK_POINTS;
    uint64_t i1 = i0 + SLICE_TASK_POINTS < j->count[s] ? i0 + SLICE_TASK_POINTS : j->count[s];
    uint8_t *buf = j->buf + (size_t)worker * SLICE_TASK_POINTS * G2_UNCOMPRESSED_BYTES;
    int e = gm_pread_full(j->fd, buf, (size_t)(i1 - i0) * sz, j->off[s] + (j->lo[s] + i0) * sz);
    if (e) {
        j->task_rc[task] = GM_EIO;
        j->task_errno[task] = e;
        j->task_idx[task] = j->lo[s] + i0;
        return;
    }
    for (uint64_t i = i0; i < i1; i++) {
        void *d = g2 ? (void *)((g2_affine_t *)j->dst[s] + i) : (void *)((g1_affine_t *)j->dst[s] + i);
        int rc = g16_point_decode(d, buf + (i - i0) * sz, g2, j->trust);
        if (rc) {
            j->task_rc[task] = rc;
            j->task_idx[task] = j->lo[s] + i;
            return;
        }
    }
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
    slice_job_t j;
    memset(&j, 0, sizeof j);
    int rc = 0;
    j.fd = open(path, O_RDONLY);
    if (j.fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(j.fd, &st) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot stat: %s", path, strerror(errno));
        goto fail;
    }
    if ((rc = g16_params_header(&out->vk, &out->n, j.off, j.fd, (uint64_t)st.st_size, path, shape, err)))
        goto fail;
    const uint64_t n[GROTH16_NSEC] = {out->n.h, out->n.l, out->n.a, out->n.b_g1, out->n.b_g2};
    void **dst[GROTH16_NSEC] = {(void **)&out->h, (void **)&out->l, (void **)&out->a, (void **)&out->b_g1,
                                (void **)&out->b_g2};
    for (int s = 0; s < GROTH16_NSEC; s++) {
        groth16_slice_range(&out->lo[s], &out->hi[s], n[s], part, parts);
        j.lo[s] = out->lo[s];
        j.count[s] = out->hi[s] - out->lo[s];
        size_t psz = s == GROTH16_SEC_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        *dst[s] = gm_alloc((size_t)(j.count[s] + 1) * psz);
        if (!*dst[s]) {
            rc = gm_err_set(err, GM_ENOMEM, "%s: section %s: out of memory for %llu points", path,
                            g16_sec_names[s], (unsigned long long)j.count[s]);
            goto fail;
        }
        j.dst[s] = *dst[s];
        j.task_first[s + 1] = j.task_first[s] + (j.count[s] + SLICE_TASK_POINTS - 1) / SLICE_TASK_POINTS;
    }
    size_t ntasks = (size_t)j.task_first[GROTH16_NSEC];
    unsigned nw = topo_pool_size(pool);
    j.trust = (flags & GROTH16_LOAD_TRUST) != 0;
    j.buf = gm_alloc((size_t)(nw ? nw : 1) * SLICE_TASK_POINTS * G2_UNCOMPRESSED_BYTES);
    j.task_rc = gm_calloc(ntasks + 1, sizeof(int));
    j.task_errno = gm_calloc(ntasks + 1, sizeof(int));
    j.task_idx = gm_calloc(ntasks + 1, sizeof(uint64_t));
    if (!j.buf || !j.task_rc || !j.task_errno || !j.task_idx) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    topo_pool_run(pool, ntasks, slice_task, &j);
    for (size_t t = 0; t < ntasks && !rc; t++) {
        if (!j.task_rc[t])
            continue;
        int s = 0;
        while (t >= j.task_first[s + 1])
            s++;
        if (j.task_rc[t] == GM_EIO)
            rc = gm_err_set(err, GM_EIO, "%s: section %s: cannot read from point %llu: %s", path, g16_sec_names[s],
                            (unsigned long long)j.task_idx[t], strerror(j.task_errno[t]));
        else
            rc = gm_err_set(err, j.task_rc[t], "%s: section %s: point %llu: %s", path, g16_sec_names[s],
                            (unsigned long long)j.task_idx[t], g16_point_err_text(j.task_rc[t]));
    }
fail:
    gm_free(j.buf);
    gm_free(j.task_rc);
    gm_free(j.task_errno);
    gm_free(j.task_idx);
    close(j.fd);
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
