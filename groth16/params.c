/*
 * groth16/params.c — the file formats: verifying keys, proofs, parameter
 * files (memory-mapped, validated in parallel), and the shape-side facts the formats are checked against (domain size, density).
 *
 * Parameter loading: the file is mapped read-only, the section offsets are
 * computed from the counts (each checked against the file size before it is
 * used, so a truncated file or a huge count never reads past the end), the
 * counts are compared with the shape, then the points are decoded into
 * affine arrays by tasks of POINTS_PER_TASK points on the pool. Each task
 * keeps its first failure; the reported one is the first in file order, so
 * the message does not depend on the pool.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/groth16_internal.h"

/* ---- small helpers ----------------------------------------------------------------- */

const char *g16_point_err_text(int code)
{
    switch (code) {
    case GM_EFLAGS: return "bad flag bits";
    case GM_ENONCANON: return "coordinate not canonical (>= p)";
    case GM_ENOTONCURVE: return "not on the curve";
    case GM_ESUBGROUP: return "not in the subgroup";
    case GM_ENOSQRT: return "x not on the curve (no square root)";
    case GM_EFORMAT: return "point at infinity";
    default: return gm_strerror(code);
    }
}

static uint32_t get_u32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_u32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

void groth16_fr_from_wide(fr_t *out, const uint8_t in[64])
{
    /* lo + hi * 2^256 mod r, 2^256 mod r = 2 * (2^255 mod r). */
    fr_t lo, hi, t;
    uint8_t top[32] = {0};
    top[31] = 0x80;
    fr_from_bytes_le_mod(&lo, in);
    fr_from_bytes_le_mod(&hi, in + 32);
    fr_from_bytes_le_mod(&t, top);
    fr_dbl(&t, &t);
    fr_mul(&hi, &hi, &t);
    fr_add(out, &lo, &hi);
}

static int fill_random(void *buf, size_t n, err_t *err)
{
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return gm_err_set(err, GM_ESYS, "getrandom: %s", strerror(errno));
        }
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

int groth16_random_fr(fr_t *out, size_t n, unsigned bits, err_t *err)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b[64];
        int rc = fill_random(b, sizeof b, err);
        if (rc)
            return rc;
        if (bits == 128) {
            memset(b + 16, 0, 48);
            fr_from_bytes_le_mod(&out[i], b);
        } else {
            groth16_fr_from_wide(&out[i], b);
        }
    }
    return 0;
}

int groth16_seed_random(uint8_t seed[GROTH16_SEED_BYTES], err_t *err)
{
    return fill_random(seed, GROTH16_SEED_BYTES, err);
}

/* ---- shape facts ---------------------------------------------------------------------- */

int g16_domain_of(unsigned *log_m, const cs_shape_t *shape, err_t *err)
{
    if (shape->n_rows < 2)
        return gm_err_set(err, GM_EINVAL, "circuit: %llu constraint rows; at least 2 are needed",
                          (unsigned long long)shape->n_rows);
    unsigned k = 1;
    while ((1ULL << k) < shape->n_rows)
        k++;
    if (k > 28)
        return gm_err_set(err, GM_EINVAL, "circuit: %llu constraint rows need a domain of 2^%u > 2^28",
                          (unsigned long long)shape->n_rows, k);
    *log_m = k;
    return 0;
}

uint64_t g16_density(uint64_t **out, const cs_shape_t *shape, int mat)
{
    uint64_t nv = shape->n_inputs + shape->n_aux;
    uint64_t *bm = gm_calloc((size_t)((nv + 63) / 64 + 1), sizeof(uint64_t));
    *out = bm;
    if (!bm)
        return 0;
    const cs_matrix_t *m = &shape->m[mat];
    uint64_t nnz = cs_shape_nnz(shape, mat);
    for (uint64_t k = 0; k < nnz; k++) {
        uint32_t j = m->col[k];
        bm[j >> 6] |= 1ULL << (j & 63);
    }
    uint64_t count = 0;
    for (uint64_t w = 0; w < (nv + 63) / 64; w++)
        count += (uint64_t)__builtin_popcountll(bm[w]);
    return count;
}

int groth16_shape_counts(groth16_counts_t *out, const cs_shape_t *shape, err_t *err)
{
    unsigned log_m = 0;
    int rc = g16_domain_of(&log_m, shape, err);
    if (rc)
        return rc;
    uint64_t *da = NULL, *db = NULL;
    uint64_t na = g16_density(&da, shape, 0);
    uint64_t nb = g16_density(&db, shape, 1);
    if (!da || !db) {
        gm_free(da);
        gm_free(db);
        return gm_err_set(err, GM_ENOMEM, "circuit: out of memory for the density bitmaps");
    }
    /* Every input is in A through the input constraints; count them so even
     * a hand-made shape without them gets bellperson's count. */
    for (uint64_t j = 0; j < shape->n_inputs; j++)
        if (!g16_bit(da, j))
            na++;
    gm_free(da);
    gm_free(db);
    out->ic = shape->n_inputs;
    out->h = (1ULL << log_m) - 1;
    out->l = shape->n_aux;
    out->a = na;
    out->b_g1 = out->b_g2 = nb;
    return 0;
}

/* ---- verifying keys ---------------------------------------------------------------------- */

void groth16_vk_free(groth16_vk_t *vk)
{
    if (!vk)
        return;
    gm_free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

size_t groth16_vk_bytes(size_t n_ic) { return GROTH16_VK_FIXED_BYTES + 4 + n_ic * G1_UNCOMPRESSED_BYTES; }

void groth16_vk_to_bytes(uint8_t *out, const groth16_vk_t *vk)
{
    uint8_t *p = out;
    g1_to_bytes_uncompressed(p, &vk->alpha_g1), p += G1_UNCOMPRESSED_BYTES;
    g1_to_bytes_uncompressed(p, &vk->beta_g1), p += G1_UNCOMPRESSED_BYTES;
    g2_to_bytes_uncompressed(p, &vk->beta_g2), p += G2_UNCOMPRESSED_BYTES;
    g2_to_bytes_uncompressed(p, &vk->gamma_g2), p += G2_UNCOMPRESSED_BYTES;
    g1_to_bytes_uncompressed(p, &vk->delta_g1), p += G1_UNCOMPRESSED_BYTES;
    g2_to_bytes_uncompressed(p, &vk->delta_g2), p += G2_UNCOMPRESSED_BYTES;
    put_u32be(p, (uint32_t)vk->n_ic), p += 4;
    for (size_t i = 0; i < vk->n_ic; i++, p += G1_UNCOMPRESSED_BYTES)
        g1_to_bytes_uncompressed(p, &vk->ic[i]);
}

int groth16_vk_from_bytes(groth16_vk_t *out, const uint8_t *in, size_t len, size_t *consumed, const char *what,
                          err_t *err)
{
    memset(out, 0, sizeof *out);
    if (len < GROTH16_VK_FIXED_BYTES + 4)
        return gm_err_set(err, GM_EFORMAT, "%s: section vk: truncated: %zu bytes, at least %d needed", what, len,
                          GROTH16_VK_FIXED_BYTES + 4);
    static const char *const names[6] = {"alpha_g1", "beta_g1", "beta_g2", "gamma_g2", "delta_g1", "delta_g2"};
    const uint8_t *p = in;
    for (int i = 0; i < 6; i++) {
        int rc;
        bool g2 = (i == 2 || i == 3 || i == 5);
        if (g2) {
            g2_affine_t *dst = i == 2 ? &out->beta_g2 : i == 3 ? &out->gamma_g2 : &out->delta_g2;
            rc = g2_from_bytes_uncompressed(dst, p);
            p += G2_UNCOMPRESSED_BYTES;
        } else {
            g1_affine_t *dst = i == 0 ? &out->alpha_g1 : i == 1 ? &out->beta_g1 : &out->delta_g1;
            rc = g1_from_bytes_uncompressed(dst, p);
            p += G1_UNCOMPRESSED_BYTES;
        }
        if (rc)
            return gm_err_set(err, rc, "%s: section vk: %s: %s", what, names[i], g16_point_err_text(rc));
    }
    uint32_t n_ic = get_u32be(p);
    p += 4;
    size_t need = groth16_vk_bytes(n_ic);
    if (len < need)
        return gm_err_set(err, GM_EFORMAT, "%s: section vk: truncated: ic has %u points (%zu bytes in all), the file "
                          "has %zu", what, n_ic, need, len);
    out->ic = gm_alloc((n_ic ? n_ic : 1) * sizeof(g1_affine_t));
    if (!out->ic)
        return gm_err_set(err, GM_ENOMEM, "%s: section vk: out of memory for %u ic points", what, n_ic);
    out->n_ic = n_ic;
    for (uint32_t i = 0; i < n_ic; i++, p += G1_UNCOMPRESSED_BYTES) {
        int rc = g1_from_bytes_uncompressed(&out->ic[i], p);
        if (rc == 0 && out->ic[i].inf)
            rc = GM_EFORMAT;
        if (rc) {
            groth16_vk_free(out);
            return gm_err_set(err, rc, "%s: section ic: point %u: %s", what, i, g16_point_err_text(rc));
        }
    }
    if (consumed)
        *consumed = need;
    return 0;
}

int groth16_vk_load(groth16_vk_t *out, const char *path, err_t *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf;
    size_t len, used;
    int rc = gm_file_read(&buf, &len, path, err);
    if (rc)
        return rc;
    rc = groth16_vk_from_bytes(out, buf, len, &used, path, err);
    if (rc == 0 && used != len) {
        groth16_vk_free(out);
        rc = gm_err_set(err, GM_EFORMAT, "%s: %zu trailing bytes after the verifying key", path, len - used);
    }
    gm_free(buf);
    return rc;
}

int groth16_vk_save(const groth16_vk_t *vk, const char *path, err_t *err)
{
    size_t n = groth16_vk_bytes(vk->n_ic);
    uint8_t *buf = gm_alloc(n);
    if (!buf)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    groth16_vk_to_bytes(buf, vk);
    int rc = gm_file_write(path, buf, n, err);
    gm_free(buf);
    return rc;
}

/* ---- proofs ------------------------------------------------------------------------------- */

void groth16_proof_to_bytes(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *p)
{
    g1_to_bytes_compressed(out, &p->a);
    g2_to_bytes_compressed(out + G1_COMPRESSED_BYTES, &p->b);
    g1_to_bytes_compressed(out + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, &p->c);
}

int groth16_proof_from_bytes(groth16_proof_t *out, const uint8_t in[GROTH16_PROOF_BYTES], const char *what,
                             err_t *err)
{
    groth16_proof_t p;
    int rc = g1_from_bytes_compressed(&p.a, in);
    if (rc == 0 && p.a.inf)
        rc = GM_EFORMAT;
    if (rc)
        return gm_err_set(err, rc, "%s: A: %s", what, g16_point_err_text(rc));
    rc = g2_from_bytes_compressed(&p.b, in + G1_COMPRESSED_BYTES);
    if (rc == 0 && p.b.inf)
        rc = GM_EFORMAT;
    if (rc)
        return gm_err_set(err, rc, "%s: B: %s", what, g16_point_err_text(rc));
    rc = g1_from_bytes_compressed(&p.c, in + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES);
    if (rc == 0 && p.c.inf)
        rc = GM_EFORMAT;
    if (rc)
        return gm_err_set(err, rc, "%s: C: %s", what, g16_point_err_text(rc));
    *out = p;
    return 0;
}

/* ---- parameter files -------------------------------------------------------------------- */

const char *const g16_sec_names[GROTH16_NSEC] = {"h", "l", "a", "b_g1", "b_g2"};

int g16_point_decode(void *dst, const uint8_t *src, bool g2, bool trust)
{
    int rc;
    bool inf;
    if (g2) {
        g2_affine_t *d = dst;
        rc = trust ? g2_from_bytes_uncompressed_unchecked(d, src) : g2_from_bytes_uncompressed(d, src);
        inf = rc == 0 && d->inf;
    } else {
        g1_affine_t *d = dst;
        rc = trust ? g1_from_bytes_uncompressed_unchecked(d, src) : g1_from_bytes_uncompressed(d, src);
        inf = rc == 0 && d->inf;
    }
    return inf ? GM_EFORMAT : rc;
}

#define POINTS_PER_TASK 4096

typedef struct {
    const uint8_t *raw;
    void *dst;
    uint64_t n;
    bool g2, trust;
    int *task_rc;       /* per task: first error code, 0 */
    uint64_t *task_idx; /* per task: index (from raw) of that point */
} decode_job_t;

/* Hot loop of every parameter load: decoding and checking POINTS_PER_TASK
 * points.
 * (1) Why: the subgroup check dominates (one endomorphism check per point);
 *     tasks of 4096 points spread it over the pool with no shared state.
 * (2) Invariants: task t covers points [t·4096, min(n, (t+1)·4096)), whose
 *     bytes the caller has checked against the file size; it writes only
 *     its own slice of dst and its own task_rc / task_idx slot.
 * (3) The "load" stage of `grothmpi prove --verbose` (bench/README.md). */
static void decode_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const decode_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * POINTS_PER_TASK;
    uint64_t i1 = i0 + POINTS_PER_TASK < j->n ? i0 + POINTS_PER_TASK : j->n;
    size_t sz = j->g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    size_t psz = j->g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    for (uint64_t i = i0; i < i1; i++) {
        int rc = g16_point_decode((uint8_t *)j->dst + i * psz, j->raw + i * sz, j->g2, j->trust);
        if (rc) {
            j->task_rc[task] = rc;
            j->task_idx[task] = i;
            return;
        }
    }
}

int g16_decode_range(void *dst, const uint8_t *raw, uint64_t n, int sec, uint64_t first, bool trust,
                     const char *path, topo_pool_t *pool, err_t *err)
{
    if (!n)
        return 0;
    size_t ntasks = (size_t)((n + POINTS_PER_TASK - 1) / POINTS_PER_TASK);
    decode_job_t j = {raw, dst, n, sec == GROTH16_SEC_B_G2, trust, gm_calloc(ntasks, sizeof(int)),
                      gm_calloc(ntasks, sizeof(uint64_t))};
    int rc = 0;
    if (!j.task_rc || !j.task_idx) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: section %s: out of memory", path, g16_sec_names[sec]);
    } else {
        topo_pool_run(pool, ntasks, decode_task, &j);
        for (size_t t = 0; t < ntasks && !rc; t++)
            if (j.task_rc[t])
                rc = gm_err_set(err, j.task_rc[t], "%s: section %s: point %llu: %s", path, g16_sec_names[sec],
                                (unsigned long long)(first + j.task_idx[t]), g16_point_err_text(j.task_rc[t]));
    }
    gm_free(j.task_rc);
    gm_free(j.task_idx);
    return rc;
}

int g16_read_points(int fd, uint64_t sec_off, int sec, uint64_t i0, uint64_t i1, void *dst, uint8_t *raw,
                    bool trust, const char *path, topo_pool_t *pool, err_t *err)
{
    size_t sz = sec == GROTH16_SEC_B_G2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    uint64_t off = sec_off + i0 * sz;
    int e = gm_pread_full(fd, raw, (size_t)((i1 - i0) * sz), off);
    if (e)
        return gm_err_set(err, GM_EIO, "%s: section %s: cannot read points %llu to %llu (byte %llu): %s", path,
                          g16_sec_names[sec], (unsigned long long)i0, (unsigned long long)i1, (unsigned long long)off,
                          strerror(e));
    return g16_decode_range(dst, raw, i1 - i0, sec, i0, trust, path, pool, err);
}

void groth16_params_free(groth16_params_t *p)
{
    if (!p)
        return;
    if (p->fd >= 0)
        close(p->fd);
    if (p->points.data) {
        groth16_vk_free(&p->vk);
        gm_file_unmap(&p->points);
    } else {
        g16_points_free(&p->vk, p->h, p->l, p->a, p->b_g1, p->b_g2);
    }
    gm_free(p);
}

void g16_points_free(groth16_vk_t *vk, g1_affine_t *h, g1_affine_t *l, g1_affine_t *a, g1_affine_t *b_g1,
                     g2_affine_t *b_g2)
{
    groth16_vk_free(vk);
    gm_free(h);
    gm_free(l);
    gm_free(a);
    gm_free(b_g1);
    gm_free(b_g2);
}

const groth16_vk_t *groth16_params_vk(const groth16_params_t *p) { return &p->vk; }
void groth16_params_counts(groth16_counts_t *out, const groth16_params_t *p) { *out = p->n; }

/* Bytes of the decoded points of sections with counts n (the vk's ic included). */
static uint64_t decoded_bytes(const groth16_counts_t *n)
{
    return (n->h + n->l + n->a + n->b_g1 + n->ic) * sizeof(g1_affine_t) + n->b_g2 * sizeof(g2_affine_t);
}

size_t groth16_params_memory(const groth16_params_t *p)
{
    if (p->fd >= 0)
        return (size_t)p->n.ic * sizeof(g1_affine_t);
    return (size_t)decoded_bytes(&p->n);
}

static int check_count(const char *path, const char *sec, uint64_t have, uint64_t need, err_t *err)
{
    if (have == need)
        return 0;
    return gm_err_set(err, GM_EFORMAT, "%s: section %s: %llu points, the circuit needs %llu", path, sec,
                      (unsigned long long)have, (unsigned long long)need);
}

int g16_counts_check(const char *path, const groth16_counts_t *have, const cs_shape_t *shape, err_t *err)
{
    if (!shape)
        return have->b_g1 == have->b_g2 ? 0 : gm_err_set(err, GM_EFORMAT, "%s: section b_g2: %llu points, section "
                                                         "b_g1 has %llu", path, (unsigned long long)have->b_g2,
                                                         (unsigned long long)have->b_g1);
    groth16_counts_t need;
    int rc = groth16_shape_counts(&need, shape, err);
    if (!rc && !(rc = check_count(path, "ic", have->ic, need.ic, err)) &&
        !(rc = check_count(path, "h", have->h, need.h, err)) && !(rc = check_count(path, "l", have->l, need.l, err)) &&
        !(rc = check_count(path, "a", have->a, need.a, err)) &&
        !(rc = check_count(path, "b_g1", have->b_g1, need.b_g1, err)))
        rc = check_count(path, "b_g2", have->b_g2, need.b_g2, err);
    return rc;
}

/* The check of every point of streamed parameters, a chunk at a time
 * (nothing kept): what --check-params costs on a key larger than memory. */
static int stream_check(groth16_params_t *p, topo_pool_t *pool, err_t *err)
{
    g16_stream_buf_t b;
    int rc = g16_stream_buf_init(&b, err);
    const uint64_t n[GROTH16_NSEC] = {p->n.h, p->n.l, p->n.a, p->n.b_g1, p->n.b_g2};
    for (int s = 0; !rc && s < GROTH16_NSEC; s++) {
        uint64_t chunk = s == GROTH16_SEC_B_G2 ? b.chunk_g2 : b.chunk_g1;
        for (uint64_t i = 0; !rc && i < n[s]; i += chunk)
            rc = g16_read_points(p->fd, p->off[s], s, i, n[s] - i < chunk ? n[s] : i + chunk, b.pts, b.raw, p->trust,
                                 p->path, pool, err);
    }
    g16_stream_buf_free(&b);
    return rc;
}

int groth16_params_load(groth16_params_t **out, const char *path, const cs_shape_t *shape,
                        groth16_load_flags_t flags, topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    int rc = 0;
    gm_map_t fm = {0};
    bool trust = (flags & GROTH16_LOAD_TRUST) != 0;
    groth16_params_t *p = gm_calloc(1, sizeof *p);
    if (!p)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    p->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (p->fd < 0 || fstat(p->fd, &st) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
        goto fail;
    }
    if ((rc = g16_params_header(&p->vk, &p->n, p->off, p->fd, (uint64_t)st.st_size, path, shape, err)))
        goto fail;
    if (flags & GROTH16_LOAD_STREAM) {
        p->trust = trust;
        snprintf(p->path, sizeof p->path, "%s", path);
        if (!p->trust && (rc = stream_check(p, pool, err)))
            goto fail;
        p->trust = true; /* every point passed: the prover's reads skip the subgroup check */
        *out = p;
        return 0;
    }
    close(p->fd);
    p->fd = -1;

    if ((rc = gm_file_map(&fm, path, GM_MAP_SEQUENTIAL, err)))
        goto fail;
    if (fm.size != (size_t)st.st_size) {
        rc = gm_err_set(err, GM_EVERIFY, "%s: changed while it was being loaded", path);
        goto fail;
    }
    p->h = gm_alloc((size_t)(p->n.h + 1) * sizeof(g1_affine_t));
    p->l = gm_alloc((size_t)(p->n.l + 1) * sizeof(g1_affine_t));
    p->a = gm_alloc((size_t)(p->n.a + 1) * sizeof(g1_affine_t));
    p->b_g1 = gm_alloc((size_t)(p->n.b_g1 + 1) * sizeof(g1_affine_t));
    p->b_g2 = gm_alloc((size_t)(p->n.b_g2 + 1) * sizeof(g2_affine_t));
    if (!p->h || !p->l || !p->a || !p->b_g1 || !p->b_g2) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory for the decoded points", path);
        goto fail;
    }
    const uint64_t cnt[GROTH16_NSEC] = {p->n.h, p->n.l, p->n.a, p->n.b_g1, p->n.b_g2};
    void *dst[GROTH16_NSEC] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    for (int s = 0; s < GROTH16_NSEC; s++)
        if ((rc = g16_decode_range(dst[s], (const uint8_t *)fm.data + p->off[s], cnt[s], s, 0, trust, path, pool,
                                   err)))
            goto fail;
    gm_file_unmap(&fm);
    *out = p;
    return 0;

fail:
    gm_file_unmap(&fm);
    groth16_params_free(p);
    return rc;
}

bool groth16_params_streamed(const groth16_params_t *p) { return p->fd >= 0; }

int groth16_params_file_counts(groth16_counts_t *out, const char *path, err_t *err)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int rc = gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return rc;
    }
    groth16_vk_t vk;
    uint64_t off[GROTH16_NSEC];
    int rc = g16_params_header(&vk, out, off, fd, (uint64_t)st.st_size, path, NULL, err);
    close(fd);
    if (rc)
        return rc;
    groth16_vk_free(&vk);
    return 0;
}

int groth16_params_decoded_bytes(uint64_t *out, const char *path, err_t *err)
{
    groth16_counts_t n;
    *out = 0;
    int rc = groth16_params_file_counts(&n, path, err);
    if (!rc)
        *out = decoded_bytes(&n);
    return rc;
}

/* ---- the converted points file ----------------------------------------------------------- */

#define POINTS_MAGIC "grothmpi-points1"
#define POINTS_PAGE 4096u

/* The header page's fields; the rest of the page is zero. Native byte order:
 * the file is this build's memory image (groth16.h). */
typedef struct {
    char magic[16];
    uint32_t g1_size, g2_size;
    uint64_t source_size;
    char source_digest[72];
    uint64_t count[GROTH16_NSEC];
    uint64_t offset[GROTH16_NSEC];
    uint64_t file_size;
} points_header_t;

_Static_assert(sizeof(points_header_t) <= POINTS_PAGE, "the header fits its page");

static uint64_t page_up(uint64_t n) { return (n + POINTS_PAGE - 1) / POINTS_PAGE * POINTS_PAGE; }

/* The header for p: counts and page-aligned offsets, each array holding its
 * points and one zeroed slot (as groth16_params_load allocates them). */
static void points_layout(points_header_t *h, const groth16_params_t *p)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, POINTS_MAGIC, sizeof h->magic);
    h->g1_size = (uint32_t)sizeof(g1_affine_t);
    h->g2_size = (uint32_t)sizeof(g2_affine_t);
    const uint64_t n[GROTH16_NSEC] = {p->n.h, p->n.l, p->n.a, p->n.b_g1, p->n.b_g2};
    uint64_t off = POINTS_PAGE;
    for (int s = 0; s < GROTH16_NSEC; s++) {
        h->count[s] = n[s];
        h->offset[s] = off;
        off = page_up(off + (n[s] + 1) * (s == GROTH16_SEC_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t)));
    }
    h->file_size = off;
}

uint64_t groth16_params_points_size(const groth16_params_t *p)
{
    points_header_t h;
    points_layout(&h, p);
    return h.file_size;
}

bool groth16_params_mapped(const groth16_params_t *p) { return p->points.data != NULL; }

int groth16_params_save_points(const groth16_params_t *p, const char *path, const char *source_digest,
                               uint64_t source_size, err_t *err)
{
    if (p->fd >= 0)
        return gm_err_set(err, GM_EINVAL, "%s: streamed parameters have no decoded points to write", path);
    points_header_t h;
    points_layout(&h, p);
    if (strlen(source_digest) >= sizeof h.source_digest)
        return gm_err_set(err, GM_EINVAL, "%s: source digest of %zu characters (at most %zu)", path,
                          strlen(source_digest), sizeof h.source_digest - 1);
    snprintf(h.source_digest, sizeof h.source_digest, "%s", source_digest);
    h.source_size = source_size;
    static const uint8_t zero[POINTS_PAGE];
    const void *arr[GROTH16_NSEC] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    gm_afile_t a;
    int rc = gm_afile_open(&a, path, GM_AFILE_SWEEP, err);
    if (rc)
        return rc;
    gm_afile_write(&a, &h, sizeof h);
    gm_afile_write(&a, zero, POINTS_PAGE - sizeof h);
    uint64_t at = POINTS_PAGE;
    for (int s = 0; s < GROTH16_NSEC && !a.failed_errno; s++) {
        size_t sz = s == GROTH16_SEC_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        /* The points, then the zeroed slot and the padding to the next page. */
        gm_afile_write(&a, arr[s], (size_t)h.count[s] * sz);
        at += h.count[s] * sz;
        uint64_t next = s + 1 < GROTH16_NSEC ? h.offset[s + 1] : h.file_size;
        while (at < next) {
            size_t k = next - at < POINTS_PAGE ? (size_t)(next - at) : POINTS_PAGE;
            gm_afile_write(&a, zero, k);
            at += k;
        }
    }
    return gm_afile_commit(&a, err);
}

int groth16_params_map_points(groth16_params_t **out, const char *path, const char *params_path,
                              const char *source_digest, uint64_t source_size, const cs_shape_t *shape, err_t *err)
{
    *out = NULL;
    groth16_params_t *p = gm_calloc(1, sizeof *p);
    if (!p)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    p->fd = -1;
    gm_map_t src = {0};
    int rc = gm_file_map(&p->points, path, GM_MAP_NORMAL, err);
    if (rc)
        goto fail;
    points_header_t h;
    if (p->points.size < POINTS_PAGE) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: %zu bytes: not a points file", path, p->points.size);
        goto fail;
    }
    memcpy(&h, p->points.data, sizeof h);
    if (memcmp(h.magic, POINTS_MAGIC, sizeof h.magic) != 0 || h.g1_size != sizeof(g1_affine_t) ||
        h.g2_size != sizeof(g2_affine_t)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a points file of this build", path);
        goto fail;
    }
    if (h.source_digest[sizeof h.source_digest - 1] != '\0' || strcmp(h.source_digest, source_digest) != 0 ||
        h.source_size != source_size) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: made from another parameter file (digest %.64s, %llu bytes)", path,
                        h.source_digest[sizeof h.source_digest - 1] ? "?" : h.source_digest,
                        (unsigned long long)h.source_size);
        goto fail;
    }
    /* The layout is a function of the counts: recomputing it checks every
     * offset and the file size at once. */
    p->n.h = h.count[GROTH16_SEC_H];
    p->n.l = h.count[GROTH16_SEC_L];
    p->n.a = h.count[GROTH16_SEC_A];
    p->n.b_g1 = h.count[GROTH16_SEC_B_G1];
    p->n.b_g2 = h.count[GROTH16_SEC_B_G2];
    points_header_t want;
    points_layout(&want, p);
    if (h.count[GROTH16_SEC_H] > (1ULL << 40) || h.count[GROTH16_SEC_L] > (1ULL << 40) || h.count[GROTH16_SEC_A] > (1ULL << 40) ||
        h.count[GROTH16_SEC_B_G1] > (1ULL << 40) || h.count[GROTH16_SEC_B_G2] > (1ULL << 40) ||
        memcmp(h.offset, want.offset, sizeof h.offset) != 0 || h.file_size != want.file_size ||
        h.file_size != p->points.size) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: %zu bytes, its header describes %llu: truncated or damaged", path,
                        p->points.size, (unsigned long long)h.file_size);
        goto fail;
    }
    /* The verifying key from the source's head: it is small, and keeping it
     * out of the points file keeps one owner of its encoding. */
    if ((rc = gm_file_map(&src, params_path, GM_MAP_NORMAL, err)))
        goto fail;
    size_t off;
    if ((rc = groth16_vk_from_bytes(&p->vk, src.data ? src.data : (const uint8_t *)"", src.size, &off, params_path,
                                    err)))
        goto fail;
    gm_file_unmap(&src);
    p->n.ic = p->vk.n_ic;
    if (shape && (rc = g16_counts_check(path, &p->n, shape, err)))
        goto fail;
    const uint8_t *base = p->points.data;
    p->h = (g1_affine_t *)(uintptr_t)(base + h.offset[GROTH16_SEC_H]);
    p->l = (g1_affine_t *)(uintptr_t)(base + h.offset[GROTH16_SEC_L]);
    p->a = (g1_affine_t *)(uintptr_t)(base + h.offset[GROTH16_SEC_A]);
    p->b_g1 = (g1_affine_t *)(uintptr_t)(base + h.offset[GROTH16_SEC_B_G1]);
    p->b_g2 = (g2_affine_t *)(uintptr_t)(base + h.offset[GROTH16_SEC_B_G2]);
    *out = p;
    return 0;

fail:
    gm_file_unmap(&src);
    groth16_vk_free(&p->vk);
    gm_file_unmap(&p->points);
    gm_free(p);
    return rc;
}
