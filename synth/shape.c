/*
 * synth/shape.c — the SHAPE backend: recording constraints into CSR matrices
 * with interned coefficients, finalizing (the per-input constraints, z
 * numbering), the cache file, and the sparse products a = A·z, b = B·z,
 * c = C·z.
 *
 * File format 2 (all integers little-endian), written atomically and
 * loaded by mmap (the matrices are used where they lie in the file):
 *   "GMSHAPE2", u32 id_len, id bytes, zero padding to a multiple of 8,
 *   u64 n_constraints, n_rows, n_inputs, n_aux, u32 n_coeffs, u32 0,
 *   n_coeffs x 32 bytes (canonical Fr, little-endian),
 *   for A, B, C: u64 nnz, (n_rows + 1) x u64 row_ptr, nnz x u32 col,
 *                nnz x u32 coeff id.
 * Format 1 ("GMSHAPE1", no padding) was read into memory; a format-1 file
 * is refused with a message saying how to record it again, and the
 * campaign runner re-records it by itself (cs_shape_cached).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/synth_internal.h"

/* The file's integers are little-endian and mapped as they are. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the shape file is mapped in place: little-endian hosts only");

/* ---- coefficient table ----------------------------------------------------------- */

static uint32_t fr_hash(const fr_t *c)
{
    uint64_t h = c->l[0] * 0x9e3779b97f4a7c15ULL ^ c->l[1] * 0xc2b2ae3d27d4eb4fULL ^
                 c->l[2] * 0x165667b19e3779f9ULL ^ c->l[3];
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(h >> 32);
}

static bool table_rebuild(cs_rec_t *r, uint32_t size)
{
    uint32_t *t = gm_calloc(size, sizeof *t);
    if (!t)
        return false;
    gm_free(r->table);
    r->table = t;
    r->table_mask = size - 1;
    for (uint32_t id = 0; id < r->n_coeffs; id++) {
        uint32_t h = fr_hash(&r->coeffs[id]) & r->table_mask;
        while (t[h])
            h = (h + 1) & r->table_mask;
        t[h] = id + 1;
    }
    return true;
}

uint32_t cs_rec_coeff(cs_t *cs, const fr_t *c)
{
    cs_rec_t *r = &cs->rec;
    if (r->table) {
        uint32_t h = fr_hash(c) & r->table_mask;
        for (;;) {
            uint32_t e = r->table[h];
            if (!e)
                break;
            if (fr_eq(&r->coeffs[e - 1], c))
                return e - 1;
            h = (h + 1) & r->table_mask;
        }
    }
    uint64_t cap = r->coeffs_cap;
    if (!gm_grow((void **)&r->coeffs, &cap, (uint64_t)r->n_coeffs + 1, sizeof(fr_t), 1024)) {
        cs_fail(cs, GM_ENOMEM, "shape: out of memory for coefficient %u", r->n_coeffs);
        return UINT32_MAX;
    }
    r->coeffs_cap = (uint32_t)cap;
    uint32_t id = r->n_coeffs++;
    r->coeffs[id] = *c;
    if (!r->table || (uint64_t)r->n_coeffs * 2 > (uint64_t)r->table_mask + 1) {
        uint32_t size = r->table ? (r->table_mask + 1) * 2 : 1024;
        if (!table_rebuild(r, size)) {
            cs_fail(cs, GM_ENOMEM, "shape: out of memory for the coefficient table");
            return UINT32_MAX;
        }
    } else {
        uint32_t h = fr_hash(c) & r->table_mask;
        while (r->table[h])
            h = (h + 1) & r->table_mask;
        r->table[h] = id + 1;
    }
    return id;
}

/* ---- recording ------------------------------------------------------------------------ */

static bool rec_matrix_row(cs_t *cs, cs_rec_matrix_t *m, const cs_term_t *t, uint32_t n)
{
    if (!gm_grow((void **)&m->row_ptr, &m->rows_cap, m->rows + 2, sizeof(uint64_t), 1024))
        return false;
    if (m->rows == 0)
        m->row_ptr[0] = 0;
    uint64_t cap_col = m->nnz_cap, cap_coeff = m->nnz_cap;
    if (!gm_grow((void **)&m->col, &cap_col, m->nnz + n, sizeof(uint32_t), 1024) ||
        !gm_grow((void **)&m->coeff, &cap_coeff, m->nnz + n, sizeof(uint32_t), 1024))
        return false;
    m->nnz_cap = cap_col < cap_coeff ? cap_col : cap_coeff;
    for (uint32_t i = 0; i < n; i++) {
        /* The two commonest coefficients skip the table. */
        uint32_t id;
        if (fr_eq(&t[i].c, &cs->one))
            id = 0;
        else if (fr_eq(&t[i].c, &cs->minus_one))
            id = 1;
        else
            id = cs_rec_coeff(cs, &t[i].c);
        if (id == UINT32_MAX)
            return true; /* sticky error already set */
        m->col[m->nnz] = t[i].v;
        m->coeff[m->nnz] = id;
        m->nnz++;
    }
    m->rows++;
    m->row_ptr[m->rows] = m->nnz;
    return true;
}

void cs_rec_row(cs_t *cs, cs_term_t *const sides[3], const uint32_t n[3])
{
    for (int s = 0; s < 3; s++)
        if (!rec_matrix_row(cs, &cs->rec.m[s], sides[s], n[s])) {
            cs_fail(cs, GM_ENOMEM, "shape: out of memory at constraint %llu",
                    (unsigned long long)cs->n_constraints);
            return;
        }
}

void cs_rec_free(cs_rec_t *r)
{
    for (int s = 0; s < 3; s++) {
        gm_free(r->m[s].row_ptr);
        gm_free(r->m[s].col);
        gm_free(r->m[s].coeff);
    }
    gm_free(r->coeffs);
    gm_free(r->table);
    memset(r, 0, sizeof *r);
}

int cs_shape_take(cs_t *cs, cs_shape_t **out, err_t *err)
{
    *out = NULL;
    if (cs->mode != CS_SHAPE || cs->rec.taken)
        return gm_err_set(err, GM_ESTATE, "cs_shape_take: not a SHAPE constraint system, or taken already");
    if (cs->err_code)
        return gm_err_set(err, cs->err_code, "%s", cs->err_msg);
    if (cs->n_inputs + cs->n_aux > UINT32_MAX)
        return gm_err_set(err, GM_EINVAL, "cs_shape_take: %llu variables do not fit 32-bit columns",
                          (unsigned long long)(cs->n_inputs + cs->n_aux));
    cs_shape_t *sh = gm_calloc(1, sizeof *sh);
    if (!sh)
        return gm_err_set(err, GM_ENOMEM, "cs_shape_take: out of memory");
    /* bellperson's prover appends input_i * 0 = 0 for every input (ONE too),
     * which makes the A-query of each input non-empty. */
    uint64_t n_constraints = cs->n_constraints;
    for (uint64_t i = 0; i < cs->n_inputs; i++) {
        cs_term_t t = {.c = cs->one, .v = (uint32_t)i};
        cs_term_t *sides[3] = {&t, NULL, NULL};
        uint32_t n[3] = {1, 0, 0};
        cs_rec_row(cs, sides, n);
    }
    if (cs->err_code) {
        gm_free(sh);
        return gm_err_set(err, cs->err_code, "%s", cs->err_msg);
    }
    sh->n_constraints = n_constraints;
    sh->n_rows = n_constraints + cs->n_inputs;
    sh->n_inputs = cs->n_inputs;
    sh->n_aux = cs->n_aux;
    sh->n_coeffs = cs->rec.n_coeffs;
    sh->coeffs = cs->rec.coeffs;
    cs->rec.coeffs = NULL;
    uint32_t base = (uint32_t)cs->n_inputs;
    for (int s = 0; s < 3; s++) {
        cs_rec_matrix_t *m = &cs->rec.m[s];
        GM_ASSERT(m->rows == sh->n_rows);
        for (uint64_t k = 0; k < m->nnz; k++) {
            uint32_t v = m->col[k];
            m->col[k] = (v & CS_VAR_AUX) ? base + (v & ~CS_VAR_AUX) : v;
        }
        sh->m[s].row_ptr = m->row_ptr;
        sh->m[s].col = m->col;
        sh->m[s].coeff = m->coeff;
        m->row_ptr = NULL;
        m->col = NULL;
        m->coeff = NULL;
    }
    cs->rec.taken = true;
    *out = sh;
    return 0;
}

void cs_shape_free(cs_shape_t *sh)
{
    if (!sh)
        return;
    gm_file_unmap(&(gm_map_t){.data = sh->map, .size = sh->map_bytes});
    for (int s = 0; !sh->map && s < 3; s++) {
        gm_free(sh->m[s].row_ptr);
        gm_free(sh->m[s].col);
        gm_free(sh->m[s].coeff);
    }
    gm_free(sh->coeffs);
    gm_free(sh);
}

uint64_t cs_shape_nnz(const cs_shape_t *sh, int m)
{
    GM_ASSERT(m >= 0 && m < 3);
    return sh->m[m].row_ptr ? sh->m[m].row_ptr[sh->n_rows] : 0;
}

/* ---- the cache file ------------------------------------------------------------------ */

static const char SHAPE_MAGIC[8] = {'G', 'M', 'S', 'H', 'A', 'P', 'E', '2'};

static int check_id(const char *id, err_t *err)
{
    size_t n = strlen(id);
    if (n == 0 || n > 100)
        return gm_err_set(err, GM_EINVAL, "shape cache: circuit id '%s' must have 1..100 characters", id);
    for (size_t i = 0; i < n; i++) {
        char ch = id[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                  ch == '.' || ch == '_' || ch == '-';
        if (!ok || (i == 0 && ch == '.'))
            return gm_err_set(err, GM_EINVAL, "shape cache: circuit id '%s': character %zu is not in [A-Za-z0-9._-]",
                              id, i);
    }
    return 0;
}

/* Appends n bytes; false once a write has failed (gm_afile_commit reports it). */
static bool wr(gm_afile_t *a, const void *p, size_t n)
{
    gm_afile_write(a, p, n);
    return a->failed_errno == 0;
}

/* Bytes from the start of the file to the header's counts: magic, id
 * length, id, zero padding to a multiple of 8. Every later field then
 * starts on a multiple of 8 (the coefficients are 32 bytes each, a matrix
 * takes 8 + 8 (n_rows + 1) + 8 nnz bytes), so the mapped row pointers are
 * aligned u64 and the columns and ids aligned u32. */
static uint64_t header_bytes(uint32_t id_len) { return (12 + (uint64_t)id_len + 7) & ~(uint64_t)7; }

int cs_shape_save(const cs_shape_t *sh, const char *dir, const char *id, err_t *err)
{
    int rc = check_id(id, err);
    if (rc)
        return rc;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s.shape", dir, id) >= sizeof path)
        return gm_err_set(err, GM_EINVAL, "shape cache: directory name too long: %s", dir);
    gm_afile_t a;
    if ((rc = gm_afile_open(&a, path, 0, err)))
        return rc;
    gm_afile_t *f = &a;
    bool ok = wr(f, SHAPE_MAGIC, 8);
    uint32_t id_len = (uint32_t)strlen(id);
    static const uint8_t zeros[8];
    ok = ok && wr(f, &id_len, 4) && wr(f, id, id_len) && wr(f, zeros, header_bytes(id_len) - 12 - id_len);
    uint64_t hdr[4] = {sh->n_constraints, sh->n_rows, sh->n_inputs, sh->n_aux};
    uint32_t reserved = 0;
    ok = ok && wr(f, hdr, sizeof hdr) && wr(f, &sh->n_coeffs, 4) && wr(f, &reserved, 4);
    for (uint32_t i = 0; ok && i < sh->n_coeffs; i++) {
        uint8_t b[32];
        fr_to_bytes_le(b, &sh->coeffs[i]);
        ok = wr(f, b, 32);
    }
    for (int s = 0; ok && s < 3; s++) {
        uint64_t nnz = cs_shape_nnz(sh, s);
        ok = wr(f, &nnz, 8) && wr(f, sh->m[s].row_ptr, (size_t)(sh->n_rows + 1) * 8) &&
             wr(f, sh->m[s].col, (size_t)nnz * 4) && wr(f, sh->m[s].coeff, (size_t)nnz * 4);
    }
    (void)ok; /* a failed write is remembered in a and reported by the commit */
    return gm_afile_commit(&a, err);
}

bool cs_shape_cached(const char *dir, const char *id)
{
    char path[4200], magic[8];
    if (check_id(id, &(err_t){0}) || (size_t)snprintf(path, sizeof path, "%s/%s.shape", dir, id) >= sizeof path)
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, SHAPE_MAGIC, 8) == 0;
    fclose(f);
    return ok;
}

/* The mapped file as the loader walks it: every count is checked against
 * the bytes left before a pointer is formed from it or anything is
 * allocated for it, so a short or lying file is a format error, never a
 * read past the mapping nor a reservation the file cannot back (fuzz
 * finding F1, docs/reliability.md). */
typedef struct {
    const uint8_t *p;
    uint64_t off, size;
} cursor_t;

static const void *take(cursor_t *c, uint64_t n)
{
    if (n > c->size - c->off)
        return NULL;
    const void *at = c->p + c->off;
    c->off += n;
    return at;
}

static int load_coeffs(cs_shape_t *sh, cursor_t *c, const char *path, err_t *err)
{
    if ((uint64_t)sh->n_coeffs * 32 > c->size - c->off)
        return gm_err_set(err, GM_EFORMAT, "%s: header: n_coeffs %u needs %llu bytes, the file has %llu left", path,
                          sh->n_coeffs, (unsigned long long)sh->n_coeffs * 32,
                          (unsigned long long)(c->size - c->off));
    sh->coeffs = gm_alloc((size_t)sh->n_coeffs * sizeof(fr_t));
    if (!sh->coeffs)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory for %u coefficients", path, sh->n_coeffs);
    for (uint32_t i = 0; i < sh->n_coeffs; i++)
        if (fr_from_bytes_le(&sh->coeffs[i], take(c, 32)) != 0)
            return gm_err_set(err, GM_EFORMAT, "%s: coefficient %u: not below the modulus", path, i);
    /* synth.h promises coefficients 0 and 1 are 1 and -1; cs_shape_abc
     * adds / subtracts for those ids without looking at the table (F3). */
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    if (!fr_eq(&sh->coeffs[0], &FR_ONE) || !fr_eq(&sh->coeffs[1], &minus_one))
        return gm_err_set(err, GM_EFORMAT, "%s: coefficient %d: must be %s", path,
                          fr_eq(&sh->coeffs[0], &FR_ONE) ? 1 : 0, fr_eq(&sh->coeffs[0], &FR_ONE) ? "-1" : "1");
    return 0;
}

/* Points matrix s at its bytes in the mapping and, when check, checks every
 * index (the pass over every term that cs_shape_load_unchecked skips). */
static int load_matrix(cs_shape_t *sh, int s, cursor_t *c, bool check, const char *path, err_t *err)
{
    const char *name = s == 0 ? "A" : s == 1 ? "B" : "C";
    const uint64_t ncols = sh->n_inputs + sh->n_aux;
    const uint64_t *pnnz = take(c, 8);
    if (!pnnz || *pnnz > (1ULL << 40))
        return gm_err_set(err, GM_EFORMAT, "%s: matrix %s: nnz truncated or too large", path, name);
    const uint64_t nnz = *pnnz;
    /* n_rows and nnz are at most 2^40: the sum cannot overflow. */
    uint64_t need = (sh->n_rows + 1) * 8 + nnz * 8;
    if (need > c->size - c->off)
        return gm_err_set(err, GM_EFORMAT, "%s: matrix %s: nnz %llu and n_rows %llu need %llu bytes, the file has "
                          "%llu left", path, name, (unsigned long long)nnz, (unsigned long long)sh->n_rows,
                          (unsigned long long)need, (unsigned long long)(c->size - c->off));
    cs_matrix_t *m = &sh->m[s];
    /* const dropped: the mapping is read-only (PROT_READ); cs_matrix_t is
     * shared with the recorder, which writes its own arrays. */
    m->row_ptr = (uint64_t *)take(c, (sh->n_rows + 1) * 8);
    m->col = (uint32_t *)take(c, nnz * 4);
    m->coeff = (uint32_t *)take(c, nnz * 4);
    if (m->row_ptr[0] != 0 || m->row_ptr[sh->n_rows] != nnz)
        return gm_err_set(err, GM_EFORMAT, "%s: matrix %s: row pointers do not span 0..%llu", path, name,
                          (unsigned long long)nnz);
    if (!check)
        return 0;
    for (uint64_t r = 0; r < sh->n_rows; r++)
        if (m->row_ptr[r] > m->row_ptr[r + 1])
            return gm_err_set(err, GM_EFORMAT, "%s: matrix %s: row pointer %llu decreases", path, name,
                              (unsigned long long)r);
    for (uint64_t k = 0; k < nnz; k++)
        if (m->col[k] >= ncols || m->coeff[k] >= sh->n_coeffs)
            return gm_err_set(err, GM_EFORMAT, "%s: matrix %s: term %llu: column %u or coefficient %u out of range",
                              path, name, (unsigned long long)k, m->col[k], m->coeff[k]);
    /* synth.h: columns sorted increasing within a row, no duplicates. */
    for (uint64_t r = 0; r < sh->n_rows; r++)
        for (uint64_t k = m->row_ptr[r] + 1; k < m->row_ptr[r + 1]; k++)
            if (m->col[k - 1] >= m->col[k])
                return gm_err_set(err, GM_EFORMAT, "%s: matrix %s: row %llu: columns %u, %u not increasing "
                                  "(unsorted or duplicate)", path, name, (unsigned long long)r, m->col[k - 1],
                                  m->col[k]);
    return 0;
}

static int load_mapped(cs_shape_t *sh, cursor_t *c, const char *id, bool check, const char *path, err_t *err)
{
    const uint8_t *magic = take(c, 8);
    if (!magic || memcmp(magic, SHAPE_MAGIC, 7) != 0)
        return gm_err_set(err, GM_EFORMAT, "%s: magic: not a grothmpi shape file", path);
    if (magic[7] != SHAPE_MAGIC[7])
        return gm_err_set(err, GM_EFORMAT, "%s: magic: shape format %c, this build reads format %c: record it again "
                          "(a campaign on this cache does it by itself and keeps the parameters; for porep also `grothmpi circuit "
                          "shape`)",
                          path, magic[7], SHAPE_MAGIC[7]);
    const uint32_t *id_len = take(c, 4);
    if (!id_len || *id_len > 100 || !take(c, header_bytes(*id_len) - 12))
        return gm_err_set(err, GM_EFORMAT, "%s: circuit id: truncated or longer than 100", path);
    const char *fid = (const char *)c->p + 12;
    /* The padding is zero, as cs_shape_save writes it: a file loads only if
     * saving it again gives the same bytes (fuzz finding F7). */
    for (uint64_t k = 12 + *id_len; k < header_bytes(*id_len); k++)
        if (c->p[k] != 0)
            return gm_err_set(err, GM_EFORMAT, "%s: circuit id: padding byte %llu is not 0", path,
                              (unsigned long long)k);
    if (*id_len != strlen(id) || memcmp(fid, id, *id_len) != 0)
        return gm_err_set(err, GM_EFORMAT, "%s: circuit id: file holds '%.*s', expected '%s'", path, (int)*id_len,
                          fid, id);
    const uint64_t *hdr = take(c, 32);
    const uint32_t *nc = take(c, 8);
    if (!hdr || !nc)
        return gm_err_set(err, GM_EFORMAT, "%s: header: truncated", path);
    sh->n_constraints = hdr[0];
    sh->n_rows = hdr[1];
    sh->n_inputs = hdr[2];
    sh->n_aux = hdr[3];
    sh->n_coeffs = nc[0];
    if (sh->n_rows != sh->n_constraints + sh->n_inputs || sh->n_inputs == 0 ||
        sh->n_inputs + sh->n_aux > UINT32_MAX || sh->n_rows > (1ULL << 40) || sh->n_coeffs < 2 || nc[1] != 0)
        return gm_err_set(err, GM_EFORMAT, "%s: header: inconsistent counts (rows %llu, constraints %llu, inputs "
                          "%llu, aux %llu, coefficients %u, reserved %u)", path, (unsigned long long)sh->n_rows,
                          (unsigned long long)sh->n_constraints, (unsigned long long)sh->n_inputs,
                          (unsigned long long)sh->n_aux, sh->n_coeffs, nc[1]);
    int rc = load_coeffs(sh, c, path, err);
    for (int s = 0; !rc && s < 3; s++)
        rc = load_matrix(sh, s, c, check, path, err);
    if (!rc && c->off != c->size)
        rc = gm_err_set(err, GM_EFORMAT, "%s: trailing bytes after matrix C", path);
    return rc;
}

static int shape_load(cs_shape_t **out, const char *dir, const char *id, bool check, err_t *err)
{
    *out = NULL;
    int rc = check_id(id, err);
    if (rc)
        return rc;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s.shape", dir, id) >= sizeof path)
        return gm_err_set(err, GM_EINVAL, "shape cache: directory name too long: %s", dir);
    /* Mapped, not read: the matrices stay in the page cache, shared by the
     * ranks of a node and reclaimable under pressure (a 32 GiB partition's
     * shape is 9 GB). The file is replaced only by rename (cs_shape_save),
     * so the mapped inode never changes under us. */
    gm_map_t m;
    if ((rc = gm_file_map(&m, path, GM_MAP_NORMAL, err)))
        return rc;
    if (m.size < 8) {
        gm_file_unmap(&m);
        return gm_err_set(err, GM_EFORMAT, "%s: magic: truncated", path);
    }
    cs_shape_t *sh = gm_calloc(1, sizeof *sh);
    if (!sh) {
        gm_file_unmap(&m);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    }
    sh->map = (void *)m.data;
    sh->map_bytes = m.size;
    cursor_t c = {.p = sh->map, .off = 0, .size = sh->map_bytes};
    if ((rc = load_mapped(sh, &c, id, check, path, err))) {
        cs_shape_free(sh);
        return rc;
    }
    *out = sh;
    return 0;
}

int cs_shape_load(cs_shape_t **out, const char *dir, const char *id, err_t *err)
{
    return shape_load(out, dir, id, true, err);
}

int cs_shape_load_unchecked(cs_shape_t **out, const char *dir, const char *id, err_t *err)
{
    return shape_load(out, dir, id, false, err);
}

/* ---- a, b, c = A·z, B·z, C·z --------------------------------------------------------
 * Why: one pass per task over a contiguous range of rows of all three
 * matrices, so the task's rows of a, b, c are written once and z is read
 * through the column indices. Coefficient ids 0 and 1 (1 and -1, most of
 * the terms) add or subtract without a multiplication; a non-unit
 * coefficient meeting a value 0 or 1 (the PoRep witness is mostly bits:
 * packing rows sum 2^i · bit_i) adds nothing or the coefficient itself, so
 * only the remaining terms pay fr_mul. CS_ABC_C_FROM_AB replaces the C·z
 * pass (9.4 M terms on the 512 MiB shape, most of them packing terms) by
 * one multiplication per row while a_r and b_r are still in registers:
 * c_r = a_r · b_r is exactly C·z for a satisfying witness.
 * Invariants: rows [r0, r1) belong to one task, which alone writes them;
 * z, the shape and the coefficients are read-only; every output is a
 * reduced Fr (fr_add/fr_sub/fr_mul keep [0, r)); columns < n_inputs +
 * n_aux and ids < n_coeffs (checked by the loader / the recorder).
 * `grothmpi bench synth` measures a/b/c (bench/README.md "bench synth" has the
 * figures of both modes). */

typedef struct {
    const cs_shape_t *sh;
    const fr_t *inputs, *aux;
    const cs_compact_t *cz; /* not NULL: the aux values, compact (aux unused) */
    fr_t *out[3];
    cs_abc_mode_t mode;
    uint64_t rows_per_task;
    uint64_t r0, r1; /* the rows computed; out[i][r - r0] is row r */
} abc_job_t;

/* a value is 0 or 1 (Montgomery form, reduced): compared limb by limb,
 * far cheaper than the fr_mul it saves */
static inline bool is_zero_limbs(const fr_t *z) { return (z->l[0] | z->l[1] | z->l[2] | z->l[3]) == 0; }
static inline bool is_one_limbs(const fr_t *z, const fr_t *one)
{
    return ((z->l[0] ^ one->l[0]) | (z->l[1] ^ one->l[1]) | (z->l[2] ^ one->l[2]) | (z->l[3] ^ one->l[3])) == 0;
}

/* One shape for both storages of aux: cz NULL reads aux[], else the compact
 * form, where a bit adds 0 or the coefficient without reading 32 bytes. */
static inline __attribute__((always_inline)) void
abc_rows_of(const cs_shape_t *restrict sh, const cs_matrix_t *restrict m, const fr_t *restrict inputs,
            const fr_t *restrict aux, const cs_compact_t *restrict cz, fr_t *restrict out, uint64_t r0, uint64_t r1,
            uint64_t base)
{
    const uint32_t n_in = (uint32_t)sh->n_inputs;
    const fr_t one = FR_ONE;
    const uint64_t *restrict row_ptr = m->row_ptr;
    const uint32_t *restrict colv = m->col, *restrict idv = m->coeff;
    const fr_t *restrict coeffs = sh->coeffs;
    for (uint64_t r = r0; r < r1; r++) {
        fr_t acc = FR_ZERO, x;
        for (uint64_t k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
            uint32_t col = colv[k], id = idv[k];
            const fr_t *z;
            if (col < n_in) {
                z = &inputs[col];
            } else if (!cz) {
                z = &aux[col - n_in];
            } else {
                uint64_t j = col - n_in, w = j >> 6, b = j & 63;
                if ((cz->isbit[w] >> b) & 1) {
                    if (!((cz->one[w] >> b) & 1))
                        continue; /* coeff · 0 */
                    if (id == 1)
                        fr_sub(&acc, &acc, &one);
                    else
                        fr_add(&acc, &acc, id == 0 ? &one : &coeffs[id]);
                    continue;
                }
                z = &cz->dense[cz->rank[w] + (uint64_t)__builtin_popcountll(~cz->isbit[w] & ((1ULL << b) - 1))];
            }
            if (id == 0) {
                fr_add(&acc, &acc, z);
            } else if (id == 1) {
                fr_sub(&acc, &acc, z);
            } else if (is_zero_limbs(z)) {
                /* coeff · 0 */
            } else if (is_one_limbs(z, &one)) {
                fr_add(&acc, &acc, &coeffs[id]);
            } else {
                fr_mul(&x, z, &coeffs[id]);
                fr_add(&acc, &acc, &x);
            }
        }
        out[r - base] = acc;
    }
}

static void abc_rows(const abc_job_t *j, int mat, fr_t *out, uint64_t r0, uint64_t r1, uint64_t base)
{
    if (j->cz)
        abc_rows_of(j->sh, &j->sh->m[mat], j->inputs, NULL, j->cz, out, r0, r1, base);
    else
        abc_rows_of(j->sh, &j->sh->m[mat], j->inputs, j->aux, NULL, out, r0, r1, base);
}

static void abc_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const abc_job_t *j = arg;
    uint64_t r0 = j->r0 + (uint64_t)task * j->rows_per_task, r1 = r0 + j->rows_per_task, b = j->r0;
    if (r1 > j->r1)
        r1 = j->r1;
    if (j->mode == CS_ABC_C_ONLY) {
        abc_rows(j, 2, j->out[2], r0, r1, b);
        return;
    }
    abc_rows(j, 0, j->out[0], r0, r1, b);
    abc_rows(j, 1, j->out[1], r0, r1, b);
    if (j->mode == CS_ABC_EXACT) {
        abc_rows(j, 2, j->out[2], r0, r1, b);
    } else if (j->mode == CS_ABC_C_FROM_AB) {
        /* a, b of rows [r0, r1) were just written by this task: still in
         * L2. Most rows have a bit on one side (booleanity: (1 - x) x, one
         * factor 0; XOR: 2x · y), so 0 and 1 skip the fr_mul here too. */
        fr_t *restrict c = j->out[2];
        const fr_t *restrict a = j->out[0], *restrict bb = j->out[1];
        const fr_t one = FR_ONE;
        for (uint64_t r = r0 - b; r < r1 - b; r++) {
            if (is_zero_limbs(&a[r]) || is_zero_limbs(&bb[r]))
                c[r] = FR_ZERO;
            else if (is_one_limbs(&a[r], &one))
                c[r] = bb[r];
            else if (is_one_limbs(&bb[r], &one))
                c[r] = a[r];
            else
                fr_mul(&c[r], &a[r], &bb[r]);
        }
    }
}

void cs_shape_abc_mode(const cs_shape_t *sh, const fr_t *inputs, const fr_t *aux, fr_t *a, fr_t *b, fr_t *c,
                       cs_abc_mode_t mode, topo_pool_t *pool)
{
    cs_shape_abc_rows(sh, inputs, aux, a, b, c, mode, 0, sh->n_rows, pool);
}

static void abc_run(abc_job_t *j, topo_pool_t *pool)
{
    GM_ASSERT(j->r0 <= j->r1 && j->r1 <= j->sh->n_rows);
    cs_abc_mode_t mode = j->mode;
    GM_ASSERT(mode == CS_ABC_EXACT || mode == CS_ABC_C_FROM_AB || mode == CS_ABC_NO_C || mode == CS_ABC_C_ONLY);
    GM_ASSERT(mode == CS_ABC_NO_C || j->out[2] != NULL);
    GM_ASSERT(mode == CS_ABC_C_ONLY || (j->out[0] != NULL && j->out[1] != NULL));
    unsigned workers = topo_pool_size(pool);
    /* About 16 tasks per worker balance uneven rows (MultiEq rows are 100x
     * the boolean ones) without making tasks too small to amortise. */
    uint64_t tasks = (uint64_t)workers * 16;
    uint64_t n = j->r1 - j->r0;
    j->rows_per_task = (n + tasks - 1) / tasks;
    if (j->rows_per_task < 1024)
        j->rows_per_task = 1024;
    uint64_t ntasks = (n + j->rows_per_task - 1) / j->rows_per_task;
    topo_pool_run(pool, (size_t)ntasks, abc_task, j);
}

void cs_shape_abc_rows(const cs_shape_t *sh, const fr_t *inputs, const fr_t *aux, fr_t *a, fr_t *b, fr_t *c,
                       cs_abc_mode_t mode, uint64_t r0, uint64_t r1, topo_pool_t *pool)
{
    abc_job_t j = {.sh = sh, .inputs = inputs, .aux = aux, .out = {a, b, c}, .mode = mode, .r0 = r0, .r1 = r1};
    abc_run(&j, pool);
}

void cs_shape_abc_compact(const cs_shape_t *sh, const fr_t *inputs, const cs_compact_t *aux, fr_t *a, fr_t *b,
                          fr_t *c, cs_abc_mode_t mode, topo_pool_t *pool)
{
    GM_ASSERT(aux->n == sh->n_aux);
    abc_job_t j = {.sh = sh, .inputs = inputs, .cz = aux, .out = {a, b, c}, .mode = mode, .r0 = 0, .r1 = sh->n_rows};
    abc_run(&j, pool);
}

void cs_shape_abc(const cs_shape_t *sh, const fr_t *inputs, const fr_t *aux, fr_t *a, fr_t *b, fr_t *c,
                  topo_pool_t *pool)
{
    cs_shape_abc_mode(sh, inputs, aux, a, b, c, CS_ABC_EXACT, pool);
}
