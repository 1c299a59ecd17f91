/*
 * tests/unit/test_scale.c — the offset and count arithmetic of the file
 * readers past 2^31 elements and 2^32 bytes, as a 32 GiB PoRep partition
 * (2^27 domain, a 47 GB parameter file, a 9 GB shape) needs it, on sparse
 * files: ftruncate makes a file of several GiB that holds a few pages, the
 * bytes that matter are written where they lie (past 4 GiB) and everything
 * between reads as zeros without being stored. Each test reads only those
 * pages, so none needs more than a few MiB of memory or of disk.
 *
 * A reader that computed an offset in 32 bits would read the wrong bytes
 * (the count of the next section, the slice's points, the shape's matrix B)
 * from below 4 GiB, where the file holds zeros, and these tests would see a
 * truncation, a wrong count or the wrong points.
 *
 * Also without files: slice ranges of a u32 count, the PoRep tree offsets
 * of a 64 GiB sector, and the constraint system's 32-bit limits (arena
 * handles, 31-bit variable indices) met at their edge by setting its
 * counters there, without allocating what they count.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ec/ec.h"
#include "groth16/groth16_internal.h"
#include "params/params_internal.h"
#include "snarkjs/snarkjs_internal.h"
#include "synth/porep/porep.h"
#include "synth/synth.h"
#include "synth/synth_internal.h"
#include "topo/topo.h"

#define GIB ((uint64_t)1 << 30)

/* A scratch directory, removed with the files the test made in it by the
 * suite's fini, so that a failed assertion (which leaves the test at once)
 * leaves no multi-GiB sparse file behind either. One per test process. */
typedef struct {
    char dir[64];
    char path[4][128];
    int n;
} scratch_t;

static scratch_t SCRATCH;

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

static void fini(void)
{
    for (int i = 0; i < SCRATCH.n; i++)
        unlink(SCRATCH.path[i]);
    if (SCRATCH.dir[0])
        rmdir(SCRATCH.dir);
    memset(&SCRATCH, 0, sizeof SCRATCH);
}

TestSuite(scale, .init = init, .fini = fini);

static const char *scratch_file(scratch_t *s, const char *name)
{
    cr_assert(s->n < 4);
    size_t dl = strlen(s->dir);
    memcpy(s->path[s->n], s->dir, dl);
    snprintf(s->path[s->n] + dl, sizeof s->path[s->n] - dl, "/%s", name);
    return s->path[s->n++];
}

static scratch_t *scratch_new(void)
{
    scratch_t *s = &SCRATCH;
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/gm-scale.XXXXXX");
    cr_assert(mkdtemp(s->dir));
    return s;
}

/* Writes n bytes at off (any offset: the file grows sparse to it). */
static void put_at(int fd, const void *p, size_t n, uint64_t off)
{
    cr_assert_eq(pwrite(fd, p, n, (off_t)off), (ssize_t)n, "pwrite at %llu", (unsigned long long)off);
}

static void put_u32be_at(int fd, uint32_t v, uint64_t off)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put_at(fd, b, 4, off);
}

/* ---- slice ranges ------------------------------------------------------------------------ */

/* The parts of a u32 count (the largest a parameter file holds) over 2^20
 * ranks: n * part overflows 32 bits for every part but the first. */
Test(scale, slice_range_of_a_u32_count)
{
    const uint64_t n = UINT32_MAX;
    const unsigned parts = 1u << 20;
    const unsigned some[] = {1, 2, 4097, parts / 2, parts - 2, parts - 1};
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        unsigned part = some[i];
        uint64_t lo, hi;
        groth16_slice_range(&lo, &hi, n, part, parts);
        unsigned __int128 want_lo = (unsigned __int128)n * part / parts;
        unsigned __int128 want_hi = (unsigned __int128)n * (part + 1) / parts;
        cr_expect_eq(lo, (uint64_t)want_lo, "part %u: lo %llu", part, (unsigned long long)lo);
        cr_expect_eq(hi, (uint64_t)want_hi, "part %u: hi %llu", part, (unsigned long long)hi);
    }
    uint64_t lo, hi;
    groth16_slice_range(&lo, &hi, n, parts - 1, parts);
    cr_expect_eq(hi, n);
    cr_expect(lo > ((uint64_t)1 << 31));
}

/* ---- PoRep tree offsets of a 64 GiB sector (2^31 nodes) ------------------------------------------ */

/* tree_d of 2^31 leaves holds 2^32 - 1 nodes: its levels' offsets pass
 * 2^31 and the root lies at 2^32 - 2. tree_c / tree_r_last's levels end
 * with one root, whatever their arities. */
Test(scale, porep_tree_offsets_of_64gib)
{
    porep_shape_t sh;
    err_t e = {0};
    cr_assert_eq(porep_shape_init(&sh, 64 * GIB, &e), 0, "%s", e.msg);
    cr_assert_eq(sh.nodes, (uint64_t)1 << 31);
    porep_tree_shape_t t;
    porep_tree_shape_d(&t, &sh);
    cr_expect_eq(t.n_levels, 31);
    cr_expect_eq(t.level_off[1], (uint64_t)1 << 31);
    cr_expect_eq(t.level_off[2], ((uint64_t)1 << 31) + ((uint64_t)1 << 30));
    cr_expect_eq(t.level_off[t.n_levels], ((uint64_t)1 << 32) - 2);
    cr_expect_eq(t.total, ((uint64_t)1 << 32) - 1);

    porep_tree_shape_rc(&t, &sh);
    uint64_t n = sh.nodes, off = 0;
    for (unsigned l = 0; l < t.n_levels; l++) {
        cr_expect_eq(t.level_off[l], off, "level %u", l);
        off += n;
        cr_assert(t.arity[l] >= 2 && n % t.arity[l] == 0);
        n /= t.arity[l];
    }
    cr_expect_eq(n, 1, "one root");
    cr_expect_eq(t.level_off[t.n_levels], off);
    cr_expect(off > ((uint64_t)1 << 31));
}

/* ---- parameter files past 4 GiB ---------------------------------------------------------- */

/* A parameter file of the circuit shape_big() describes (ic 1, h 1, l
 * L_BIG, a 1, b_g1 1, b_g2 1): its l section is 6.4 GB, so sections a,
 * b_g1 and b_g2 (their counts and points) lie past 4 GiB. Only the vk, the
 * first and last L_TAIL points of l and the points after it are written;
 * the rest of l is a hole. */
#define L_BIG ((uint64_t)1 << 26)
#define L_TAIL 1024

typedef struct {
    cs_shape_t sh;
    uint64_t row_ptr[3][3];
    uint32_t col[2], coeff[2];
} big_shape_t;

/* n_rows 2, one input (ONE, in A and B), L_BIG aux variables in no matrix. */
static void shape_big(big_shape_t *b)
{
    memset(b, 0, sizeof *b);
    b->sh.n_constraints = 1;
    b->sh.n_rows = 2;
    b->sh.n_inputs = 1;
    b->sh.n_aux = L_BIG;
    for (int s = 0; s < 3; s++) {
        b->row_ptr[s][0] = 0;
        b->row_ptr[s][1] = s < 2 ? 1 : 0;
        b->row_ptr[s][2] = s < 2 ? 1 : 0;
        b->sh.m[s].row_ptr = b->row_ptr[s];
        b->sh.m[s].col = b->col;
        b->sh.m[s].coeff = b->coeff;
    }
}

typedef struct {
    uint64_t off[GROTH16_NSEC]; /* file offset of each section's count */
    uint64_t size;
    g1_affine_t l_tail[L_TAIL], l_head, h, a, b_g1;
    g2_affine_t b_g2;
} big_params_t;

/* k·G1 for k = first, first + 1, ..., n of them. */
static void g1_run(g1_affine_t *out, uint64_t first, size_t n)
{
    g1_jac_t p;
    g1_from_affine(&p, &G1_GENERATOR);
    g1_mul(&p, &p, (const uint64_t[4]){first, 0, 0, 0});
    for (size_t i = 0; i < n; i++) {
        g1_to_affine(&out[i], &p);
        g1_add_mixed(&p, &p, &G1_GENERATOR);
    }
}

static void put_g1(int fd, const g1_affine_t *p, uint64_t off)
{
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    g1_to_bytes_uncompressed(b, p);
    put_at(fd, b, sizeof b, off);
}

/* Writes the file; b_g2_count and the size change let the tests lie about
 * the last section. */
static void big_params_write(big_params_t *bp, const char *path, uint32_t b_g2_count, int64_t size_change)
{
    groth16_vk_t vk = {.alpha_g1 = G1_GENERATOR, .beta_g1 = G1_GENERATOR, .beta_g2 = G2_GENERATOR,
                       .gamma_g2 = G2_GENERATOR, .delta_g1 = G1_GENERATOR, .delta_g2 = G2_GENERATOR,
                       .ic = (g1_affine_t *)&G1_GENERATOR, .n_ic = 1};
    size_t vkb = groth16_vk_bytes(1);
    uint8_t *vkbuf = malloc(vkb);
    cr_assert(vkbuf);
    groth16_vk_to_bytes(vkbuf, &vk);

    g1_affine_t run[5];
    g1_run(run, 2, 5);
    bp->h = run[0], bp->l_head = run[1], bp->a = run[2], bp->b_g1 = run[3];
    g1_run(bp->l_tail, 1000, L_TAIL);
    g2_jac_t g2;
    g2_from_affine(&g2, &G2_GENERATOR);
    g2_dbl(&g2, &g2);
    g2_to_affine(&bp->b_g2, &g2);

    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    put_at(fd, vkbuf, vkb, 0);
    free(vkbuf);
    const uint64_t count[GROTH16_NSEC] = {1, L_BIG, 1, 1, b_g2_count};
    uint64_t off = vkb;
    for (int s = 0; s < GROTH16_NSEC; s++) {
        bp->off[s] = off;
        put_u32be_at(fd, (uint32_t)count[s], off);
        uint64_t first = off + 4, sz = s == GROTH16_SEC_B_G2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        switch (s) {
        case GROTH16_SEC_H: put_g1(fd, &bp->h, first); break;
        case GROTH16_SEC_L:
            put_g1(fd, &bp->l_head, first);
            for (uint64_t i = 0; i < L_TAIL; i++)
                put_g1(fd, &bp->l_tail[i], first + (L_BIG - L_TAIL + i) * sz);
            break;
        case GROTH16_SEC_A: put_g1(fd, &bp->a, first); break;
        case GROTH16_SEC_B_G1: put_g1(fd, &bp->b_g1, first); break;
        default: {
            uint8_t b[G2_UNCOMPRESSED_BYTES];
            g2_to_bytes_uncompressed(b, &bp->b_g2);
            for (uint64_t i = 0; i < count[s]; i++)
                put_at(fd, b, sizeof b, first + i * sz);
        }
        }
        off = first + count[s] * sz;
    }
    bp->size = (uint64_t)((int64_t)off + size_change);
    cr_assert_eq(ftruncate(fd, (off_t)bp->size), 0);
    close(fd);
    cr_assert(bp->off[GROTH16_SEC_A] > 4 * GIB, "the test file must put section a past 4 GiB");
}

static big_params_t BP; /* 100 KiB: static, not on the test's stack */

/* big_shape's shape, and its parameter file (BP) in s: the file's path. */
static const char *big_begin(scratch_t *s, big_shape_t *b, uint32_t b_g2_count)
{
    const char *path = scratch_file(s, "big.params");
    shape_big(b);
    big_params_write(&BP, path, b_g2_count, 0);
    return path;
}

static topo_pool_t *pool_of(unsigned threads)
{
    topo_pool_t *pool = NULL;
    err_t e = {0};
    cr_assert_eq(topo_pool_create_flat(&pool, threads, &e), 0, "%s", e.msg);
    return pool;
}

/* The header walk of both loaders and of the header-only size: the counts of
 * a, b_g1 and b_g2 are read past 4 GiB and checked against the shape, so a
 * wrong b_g2 count is named with the right numbers. */
Test(scale, params_header_past_4gib)
{
    scratch_t *s = scratch_new();
    big_shape_t b;
    const char *path = big_begin(s, &b, 2);
    topo_pool_t *pool = pool_of(1);
    err_t e = {0};

    char want[256];
    snprintf(want, sizeof want, "%s: section b_g2: 2 points, the circuit needs 1", path);
    groth16_params_t *p = NULL;
    cr_expect_neq(groth16_params_load(&p, path, &b.sh, GROTH16_LOAD_TRUST, pool, &e), 0);
    cr_expect_str_eq(e.msg, want);
    groth16_params_slice_t ps;
    e = (err_t){0};
    cr_expect_neq(groth16_params_load_slice(&ps, path, &b.sh, 3, 4, 0, pool, &e), 0);
    cr_expect_str_eq(e.msg, want);
    groth16_params_slice_free(&ps);
    /* The header alone (no shape): b_g1 and b_g2 must agree. */
    uint64_t bytes;
    e = (err_t){0};
    cr_expect_neq(groth16_params_decoded_bytes(&bytes, path, &e), 0);
    cr_expect(strstr(e.msg, "section b_g2: 2 points") != NULL, "%s", e.msg);

    /* One byte short: the truncation names the offset past 4 GiB. */
    big_params_write(&BP, path, 1, -1);
    uint64_t from = BP.off[GROTH16_SEC_B_G2] + 4;
    snprintf(want, sizeof want, "%s: section b_g2: truncated: 1 points need 192 bytes from byte %llu, the file has 191",
             path, (unsigned long long)from);
    e = (err_t){0};
    cr_expect_neq(groth16_params_load(&p, path, &b.sh, GROTH16_LOAD_TRUST, pool, &e), 0);
    cr_expect_str_eq(e.msg, want);
    e = (err_t){0};
    cr_expect_neq(groth16_params_load_slice(&ps, path, &b.sh, 0, 1, 0, pool, &e), 0);
    cr_expect_str_eq(e.msg, want);
    groth16_params_slice_free(&ps);
    e = (err_t){0};
    cr_expect_neq(groth16_params_decoded_bytes(&bytes, path, &e), 0);
    cr_expect_str_eq(e.msg, want);

    /* One byte over: trailing bytes after a section that ends past 4 GiB. */
    big_params_write(&BP, path, 1, 1);
    snprintf(want, sizeof want, "%s: 1 trailing bytes after section b_g2", path);
    e = (err_t){0};
    cr_expect_neq(groth16_params_load(&p, path, &b.sh, GROTH16_LOAD_TRUST, pool, &e), 0);
    cr_expect_str_eq(e.msg, want);
    e = (err_t){0};
    cr_expect_neq(groth16_params_decoded_bytes(&bytes, path, &e), 0);
    cr_expect_str_eq(e.msg, want);
    /* Whole: the header alone gives the decoded size, 2^26 points of l. */
    big_params_write(&BP, path, 1, 0);
    cr_expect_eq(groth16_params_decoded_bytes(&bytes, path, &e), 0, "%s", e.msg);
    cr_expect_eq(bytes, (1 + 1 + L_BIG + 1 + 1) * sizeof(g1_affine_t) + sizeof(g2_affine_t)); /* ic h l a b_g1 */
    /* Shorter than the vk's fixed part: refused before the vk decoder runs,
     * nothing freed that was never set (it crashed every prove of such a file). */
    cr_assert_eq(truncate(path, 7), 0);
    e = (err_t){0};
    cr_expect_neq(groth16_params_decoded_bytes(&bytes, path, &e), 0);
    cr_expect(strstr(e.msg, "section vk: truncated: 7 bytes") != NULL, "%s", e.msg);
    topo_pool_destroy(pool);
}

/* The last rank's slice of 2^16: points [L_BIG - 1024, L_BIG) of l, at
 * bytes 6.4 GB, and the one point of each later section, all decoded and
 * checked (subgroup included) from where they lie. */
Test(scale, params_slice_past_4gib)
{
    scratch_t *s = scratch_new();
    big_shape_t b;
    const char *path = big_begin(s, &b, 1);
    topo_pool_t *pool = pool_of(2);
    err_t e = {0};

    const unsigned parts = 1u << 16;
    groth16_params_slice_t ps;
    cr_assert_eq(groth16_params_load_slice(&ps, path, &b.sh, parts - 1, parts, 0, pool, &e), 0, "%s", e.msg);
    cr_expect_eq(ps.n.l, L_BIG);
    cr_expect_eq(ps.lo[GROTH16_SEC_L], L_BIG - L_TAIL);
    cr_expect_eq(ps.hi[GROTH16_SEC_L], L_BIG);
    cr_expect((BP.off[GROTH16_SEC_L] + 4 + ps.lo[GROTH16_SEC_L] * G1_UNCOMPRESSED_BYTES) > 4 * GIB);
    for (size_t i = 0; i < L_TAIL; i++)
        cr_expect(g1_affine_eq(&ps.l[i], &BP.l_tail[i]), "l point %llu",
                  (unsigned long long)(ps.lo[GROTH16_SEC_L] + i));
    cr_expect_eq(ps.hi[GROTH16_SEC_A] - ps.lo[GROTH16_SEC_A], 1);
    cr_expect(g1_affine_eq(&ps.h[0], &BP.h));
    cr_expect(g1_affine_eq(&ps.a[0], &BP.a));
    cr_expect(g1_affine_eq(&ps.b_g1[0], &BP.b_g1));
    cr_expect(g2_affine_eq(&ps.b_g2[0], &BP.b_g2));
    groth16_params_slice_free(&ps);

    /* A slice that reaches into the hole: the zeros at the first point of
     * that task are named by their index past 2^25. */
    e = (err_t){0};
    cr_expect_neq(groth16_params_load_slice(&ps, path, &b.sh, parts - 2, parts, 0, pool, &e), 0);
    char want[256];
    snprintf(want, sizeof want, "%s: section l: point %llu: ", path,
             (unsigned long long)(L_BIG * (parts - 2) / parts));
    cr_expect(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
    groth16_params_slice_free(&ps);
    topo_pool_destroy(pool);
}

/* The converted points file (groth16/params.c's layout: a header page,
 * then each section's native points and one zeroed slot, page-aligned) of
 * the same circuit: l is 7 GB, so a, b_g1 and b_g2 are mapped from past
 * 4 GiB. The header is written here from the format, not by the saver
 * (which would need the 2^26 decoded points). */
typedef struct {
    char magic[16];
    uint32_t g1_size, g2_size;
    uint64_t source_size;
    char source_digest[72];
    uint64_t count[GROTH16_NSEC];
    uint64_t offset[GROTH16_NSEC];
    uint64_t file_size;
} points_header_t;

Test(scale, points_file_past_4gib)
{
    scratch_t *s = scratch_new();
    big_shape_t b;
    const char *params = big_begin(s, &b, 1);
    const char *points = scratch_file(s, "big.points");

    points_header_t h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "grothmpi-points1", 16);
    h.g1_size = sizeof(g1_affine_t);
    h.g2_size = sizeof(g2_affine_t);
    h.source_size = BP.size;
    snprintf(h.source_digest, sizeof h.source_digest, "feedface");
    const uint64_t n[GROTH16_NSEC] = {1, L_BIG, 1, 1, 1};
    uint64_t off = 4096;
    for (int i = 0; i < GROTH16_NSEC; i++) {
        h.count[i] = n[i];
        h.offset[i] = off;
        off += (n[i] + 1) * (i == GROTH16_SEC_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t));
        off = (off + 4095) / 4096 * 4096;
    }
    h.file_size = off;
    cr_assert(h.offset[GROTH16_SEC_A] > 4 * GIB);
    int fd = open(points, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    put_at(fd, &h, sizeof h, 0);
    put_at(fd, &BP.l_tail[L_TAIL - 1], sizeof(g1_affine_t),
           h.offset[GROTH16_SEC_L] + (L_BIG - 1) * sizeof(g1_affine_t));
    put_at(fd, &BP.a, sizeof BP.a, h.offset[GROTH16_SEC_A]);
    put_at(fd, &BP.b_g1, sizeof BP.b_g1, h.offset[GROTH16_SEC_B_G1]);
    put_at(fd, &BP.b_g2, sizeof BP.b_g2, h.offset[GROTH16_SEC_B_G2]);
    cr_assert_eq(ftruncate(fd, (off_t)h.file_size), 0);
    close(fd);

    groth16_params_t *p = NULL;
    err_t e = {0};
    cr_assert_eq(groth16_params_map_points(&p, points, params, "feedface", BP.size, &b.sh, &e), 0, "%s", e.msg);
    cr_expect(groth16_params_mapped(p));
    groth16_counts_t c;
    groth16_params_counts(&c, p);
    cr_expect_eq(c.l, L_BIG);
    cr_expect(g1_affine_eq(&p->l[L_BIG - 1], &BP.l_tail[L_TAIL - 1]));
    cr_expect(g1_affine_eq(&p->a[0], &BP.a));
    cr_expect(g1_affine_eq(&p->b_g1[0], &BP.b_g1));
    cr_expect(g2_affine_eq(&p->b_g2[0], &BP.b_g2));
    groth16_params_free(p);

    /* A page short: the size check sees it, past 4 GiB. */
    cr_assert_eq(truncate(points, (off_t)(h.file_size - 4096)), 0);
    e = (err_t){0};
    cr_expect_neq(groth16_params_map_points(&p, points, params, "feedface", BP.size, &b.sh, &e), 0);
    char want[256];
    snprintf(want, sizeof want, "%s: %llu bytes, its header describes %llu: truncated or damaged", points,
             (unsigned long long)(h.file_size - 4096), (unsigned long long)h.file_size);
    cr_expect_str_eq(e.msg, want);
}

/* ---- params/: sizes past 4 GiB ----------------------------------------------------------- */

/* The .checked stamp and the identity stamp hold the size in 64 bits: a
 * 4 GiB + 1 file is neither a 1-byte nor a 4 GiB file to them. */
Test(scale, params_stamps_hold_64_bit_sizes)
{
    scratch_t *s = scratch_new();
    const char *path = scratch_file(s, "x.params");
    const char *checked = scratch_file(s, "x.params.checked");
    const char *stamp = scratch_file(s, "x.params.stamp");
    const uint64_t size = 4 * GIB + 1;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert_eq(ftruncate(fd, (off_t)size), 0);
    close(fd);

    const char *digest = "0123456789abcdef0123456789abcdef";
    err_t e = {0};
    cr_assert_eq(params_checked_write(checked, digest, size, &e), 0, "%s", e.msg);
    cr_expect(params_checked_at(checked, digest, size));
    cr_expect(!params_checked_at(checked, digest, 1));
    cr_expect(!params_checked_at(checked, digest, 4 * GIB));

    params_ident_t id;
    cr_assert_eq(params_ident(&id, path, &e), 0, "%s", e.msg);
    cr_expect_eq(id.size, size);
    cr_assert_eq(params_stamp_write(stamp, &id, &e), 0, "%s", e.msg);
    cr_expect(params_stamp_matches(stamp, &id));
    params_ident_t low = id;
    low.size = 1;
    cr_expect(!params_stamp_matches(stamp, &low));
}

/* ---- the shape loader -------------------------------------------------------------------- */

/* A shape whose matrix A has 2^30 + 5 terms (8 GiB of columns and
 * coefficients, a hole of zeros: column 0, coefficient 0), so matrices B
 * and C start past 8 GiB. The unchecked load (what a stamped shape gets)
 * maps it and points B at its bytes there. */
Test(scale, shape_matrices_past_8gib)
{
    scratch_t *s = scratch_new();
    const char *id = "scale-test";
    char name[64];
    snprintf(name, sizeof name, "%s.shape", id);
    const char *path = scratch_file(s, name);
    const uint64_t nnz_a = GIB + 5;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    uint64_t off = 0;
    put_at(fd, "GMSHAPE2", 8, off), off += 8;
    uint32_t id_len = (uint32_t)strlen(id);
    put_at(fd, &id_len, 4, off), off += 4;
    put_at(fd, id, id_len, off), off += id_len;
    off = (off + 7) / 8 * 8;
    const uint64_t hdr[4] = {1, 2, 1, 1}; /* constraints, rows, inputs (ONE), aux */
    const uint32_t nc[2] = {2, 0};
    put_at(fd, hdr, sizeof hdr, off), off += sizeof hdr;
    put_at(fd, nc, sizeof nc, off), off += sizeof nc;
    uint8_t coeffs[64];
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    fr_to_bytes_le(coeffs, &FR_ONE);
    fr_to_bytes_le(coeffs + 32, &minus_one);
    put_at(fd, coeffs, sizeof coeffs, off), off += sizeof coeffs;
    /* A: row 0 holds every term. */
    const uint64_t a_rows[4] = {nnz_a, 0, nnz_a, nnz_a};
    put_at(fd, a_rows, sizeof a_rows, off), off += sizeof a_rows + nnz_a * 8;
    uint64_t b_at = off;
    /* B: one term in row 1, column 1 (the aux variable), coefficient 1. */
    const uint64_t b_rows[4] = {1, 0, 0, 1};
    const uint32_t b_terms[2] = {1, 1};
    put_at(fd, b_rows, sizeof b_rows, off), off += sizeof b_rows;
    put_at(fd, b_terms, sizeof b_terms, off), off += sizeof b_terms;
    /* C: empty. */
    const uint64_t c_rows[4] = {0, 0, 0, 0};
    put_at(fd, c_rows, sizeof c_rows, off), off += sizeof c_rows;
    close(fd);
    cr_assert(b_at > 8 * GIB);

    cs_shape_t *sh = NULL;
    err_t e = {0};
    cr_assert_eq(cs_shape_load_unchecked(&sh, s->dir, id, &e), 0, "%s", e.msg);
    cr_expect_eq(cs_shape_nnz(sh, 0), nnz_a);
    cr_expect_eq(cs_shape_nnz(sh, 1), 1);
    cr_expect_eq(cs_shape_nnz(sh, 2), 0);
    cr_expect_eq(sh->m[1].row_ptr[1], 0);
    cr_expect_eq(sh->m[1].col[0], 1);
    cr_expect_eq(sh->m[1].coeff[0], 1);
    cr_expect_eq((const uint8_t *)sh->m[1].row_ptr - (const uint8_t *)sh->map, (ptrdiff_t)(b_at + 8));
    cs_shape_free(sh);

    /* A byte less: matrix C's count is what is missing, past 8 GiB. */
    cr_assert_eq(truncate(path, (off_t)(off - 1)), 0);
    cr_expect_neq(cs_shape_load_unchecked(&sh, s->dir, id, &e), 0);
    cr_expect(strstr(e.msg, "matrix C") != NULL, "%s", e.msg);
}

/* ---- snarkjs: a witness of 2^27 + 16 values (4 GiB + 512 bytes) -------------------------- */

Test(scale, wtns_values_past_4gib)
{
    scratch_t *s = scratch_new();
    const char *path = scratch_file(s, "big.wtns");
    const uint32_t nw = (1u << 27) + 16;
    const uint64_t vals_len = 32 * (uint64_t)nw;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    uint8_t head[12 + 12 + 40 + 12];
    memcpy(head, "wtns", 4);
    const uint32_t version = 2, nsec = 2, sec1 = 1, sec2 = 2, n8 = 32;
    const uint64_t len1 = 40;
    memcpy(head + 4, &version, 4);
    memcpy(head + 8, &nsec, 4);
    memcpy(head + 12, &sec1, 4);
    memcpy(head + 16, &len1, 8);
    memcpy(head + 24, &n8, 4);
    memcpy(head + 28, SJ_R_LE, 32);
    memcpy(head + 60, &nw, 4);
    memcpy(head + 64, &sec2, 4);
    memcpy(head + 68, &vals_len, 8);
    put_at(fd, head, sizeof head, 0);
    const uint64_t vals = sizeof head;
    uint8_t v[32] = {1};
    put_at(fd, v, 32, vals); /* value 0: ONE */
    for (uint32_t i = nw - 16; i < nw; i++) {
        memset(v, 0, sizeof v);
        memcpy(v, &i, 4);
        v[31] = 0x11; /* below r, and not a value a wrapped offset could find */
        put_at(fd, v, 32, vals + 32 * (uint64_t)i);
    }
    cr_assert_eq(ftruncate(fd, (off_t)(vals + vals_len)), 0);
    close(fd);

    snarkjs_wtns_view_t view;
    err_t e = {0};
    cr_assert_eq(snarkjs_wtns_open(&view, path, &e), 0, "%s", e.msg);
    cr_expect_eq(view.n, nw);
    fr_t out[16];
    cr_assert_eq(snarkjs_wtns_values(&view, out, nw - 16, nw, &e), 0, "%s", e.msg);
    for (uint32_t k = 0; k < 16; k++) {
        uint8_t want[32] = {0}, got[32];
        uint32_t i = nw - 16 + k;
        memcpy(want, &i, 4);
        want[31] = 0x11;
        fr_to_bytes_le(got, &out[k]);
        cr_expect(memcmp(got, want, 32) == 0, "value %u", i);
    }
    snarkjs_wtns_close(&view);
}

/* ---- snarkjs: a zkey past 8 GiB, PointsB2 longer than 4 GiB -------------------------------- */

/* The multiplier.zkey of tests/vectors/snarkjs with nVars raised to 2^25:
 * sections 1-4 as they are (nVars patched), sections 5-9 sized for it (16 GB
 * in all, PointsB2 alone 6.4 GB) and all zero (LEM's infinity) except the
 * last points of PointsB2 and PointsC and all of PointsH, which are the
 * small key's own points (PointsB2 and PointsA), past 8 GiB. The last
 * rank's slice decodes them from there. */
Test(scale, zkey_slice_past_4gib)
{
    uint8_t *src;
    size_t srcn;
    err_t e = {0};
    cr_assert_eq(gm_file_read(&src, &srcn, "tests/vectors/snarkjs/multiplier.zkey", &e), 0, "%s", e.msg);
    sj_bin_t b;
    cr_assert_eq(sj_bin_parse(&b, src, srcn, "zkey", 2, "multiplier.zkey", &e), 0, "%s", e.msg);
    snarkjs_zkey_t *small = NULL;
    cr_assert_eq(snarkjs_zkey_from_bytes(&small, src, srcn, "multiplier.zkey", 0, NULL, &e), 0, "%s", e.msg);
    const uint64_t nv0 = small->n_vars, np1 = (uint64_t)small->n_public + 1, ds = small->domain_size;
    const uint32_t nv = 1u << 25;

    scratch_t *s = scratch_new();
    const char *path = scratch_file(s, "big.zkey");
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    const uint32_t head[3] = {0, 2, 9};
    put_at(fd, "zkey", 4, 0);
    put_at(fd, &head[1], 8, 4);
    const uint64_t len[10] = {0, b.len[1], b.len[2], b.len[3], b.len[4], 96 * (uint64_t)nv, 96 * (uint64_t)nv,
                              192 * (uint64_t)nv, 96 * (nv - np1), 96 * ds};
    uint64_t off = 12, at[10] = {0};
    for (uint32_t id = 1; id <= 9; id++) {
        put_at(fd, &id, 4, off);
        put_at(fd, &len[id], 8, off + 4);
        at[id] = off + 12;
        if (id <= 4)
            put_at(fd, b.sec[id], (size_t)b.len[id], at[id]);
        off = at[id] + len[id];
    }
    put_at(fd, &nv, 4, at[2] + 88);
    put_at(fd, b.sec[7], (size_t)(nv0 * 192), at[7] + (nv - nv0) * 192);
    put_at(fd, b.sec[5], (size_t)(nv0 * 96), at[8] + (nv - np1 - nv0) * 96);
    put_at(fd, b.sec[9], (size_t)(ds * 96), at[9]);
    cr_assert_eq(ftruncate(fd, (off_t)off), 0);
    close(fd);
    cr_assert(at[8] > 8 * GIB && len[7] > 4 * GIB);

    topo_pool_t *pool = pool_of(2);
    const unsigned parts = 1u << 12;
    snarkjs_zkey_slice_t zs;
    cr_assert_eq(snarkjs_zkey_load_slice(&zs, path, parts - 1, parts, SNARKJS_ZKEY_DEFAULT, pool, &e), 0, "%s",
                 e.msg);
    cr_expect_eq(zs.n_vars, nv);
    cr_expect_eq(zs.hi[SNARKJS_SEC_B2], nv);
    cr_expect_eq(zs.hi[SNARKJS_SEC_C], nv - np1);
    for (uint64_t i = 0; i < nv0; i++) {
        uint64_t k2 = nv - nv0 + i - zs.lo[SNARKJS_SEC_B2], kc = nv - np1 - nv0 + i - zs.lo[SNARKJS_SEC_C];
        cr_expect(g2_affine_eq(&zs.b2[k2], &small->b2[i]), "PointsB2 %llu", (unsigned long long)(nv - nv0 + i));
        cr_expect(g1_affine_eq(&zs.c[kc], &small->a[i]), "PointsC %llu", (unsigned long long)(nv - np1 - nv0 + i));
    }
    for (uint64_t i = zs.lo[SNARKJS_SEC_H]; i < zs.hi[SNARKJS_SEC_H]; i++)
        cr_expect(g1_affine_eq(&zs.h[i - zs.lo[SNARKJS_SEC_H]], &small->h[i]), "PointsH %llu", (unsigned long long)i);
    cr_expect(zs.hi[SNARKJS_SEC_H] > zs.lo[SNARKJS_SEC_H]);
    snarkjs_zkey_slice_free(&zs);

    /* A byte short: section 9's size names what is left past 4 GiB. */
    cr_assert_eq(truncate(path, (off_t)(off - 1)), 0);
    e = (err_t){0};
    cr_expect_neq(snarkjs_zkey_load_slice(&zs, path, 0, parts, SNARKJS_ZKEY_DEFAULT, pool, &e), 0);
    char want[160];
    snprintf(want, sizeof want, "%s: truncated: section 9 is %llu bytes, %llu left in the file", path,
             (unsigned long long)len[9], (unsigned long long)(len[9] - 1));
    cr_expect_str_eq(e.msg, want);
    snarkjs_zkey_slice_free(&zs);
    topo_pool_destroy(pool);
    snarkjs_zkey_free(small);
    gm_free(src);
}

/* ---- the constraint system's arena: u32 handles ------------------------------------------ */

/* An arena filled to just below 2^32 terms (set, not allocated: 160 GB):
 * a new LC, or one grown in place, that would end past 2^32 is a sticky
 * error, before anything is allocated, not a handle whose offset wraps. */
Test(scale, arena_handles_stop_at_2_32_terms)
{
    cs_t *cs;
    err_t e = {0};
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs->arena_top = (size_t)UINT32_MAX - 2;
    cs_lc_t lc = cs_lc_new(cs, 4);
    cr_expect_eq(lc.cap, 0);
    cr_expect_eq(cs_status(cs, &e), GM_ENOMEM);
    cr_expect(strstr(e.msg, "arena over 2^32 terms") != NULL, "%s", e.msg);
    cs->arena_top = 0;
    cs_destroy(cs);

    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs->arena_top = UINT32_MAX;
    lc = (cs_lc_t){.off = UINT32_MAX - 4, .n = 4, .cap = 4}; /* the topmost block */
    cs_lc_add(cs, &lc, CS_ONE, NULL);
    cr_expect_eq(lc.n, 4);
    e = (err_t){0};
    cr_expect_eq(cs_status(cs, &e), GM_ENOMEM);
    cr_expect(strstr(e.msg, "arena over 2^32 terms") != NULL, "%s", e.msg);
    cr_expect_eq(cs->arena_top, UINT32_MAX);
    cs->arena_top = 0;
    cs_destroy(cs);
}

/* Variables are 31-bit indices (the top bit tells aux from input): the
 * 2^31 - 1st aux variable and input are refused with a sticky error, by
 * cs_alloc and by the bit gadgets' inline path alike, never wrapped. */
Test(scale, variables_stop_at_2_31)
{
    for (int path = 0; path < 3; path++) {
        cs_t *cs;
        err_t e = {0};
        cr_assert_eq(cs_create(&cs, CS_COUNT, CS_FLAG_NONE, NULL), 0);
        const char *want = "more than 2^31 aux variables";
        if (path == 2) {
            cs->n_inputs = CS_VAR_AUX - 1;
            cr_expect_eq(cs_alloc_input(cs, &FR_ONE), CS_ONE);
            want = "more than 2^31 inputs";
        } else {
            cs->n_aux = CS_VAR_AUX - 2;
            cs_var_t last = path ? cs_i_alloc_bit(cs, true) : cs_alloc(cs, &FR_ONE);
            cr_expect_eq(last, CS_VAR_AUX | (CS_VAR_AUX - 2));
            cr_expect_eq(path ? cs_i_alloc_bit(cs, true) : cs_alloc(cs, &FR_ONE), CS_ONE);
            cr_expect_eq(cs->n_aux, CS_VAR_AUX - 1);
        }
        cr_expect_eq(cs_status(cs, &e), GM_EINVAL, "path %d", path);
        cr_expect(strstr(e.msg, want) != NULL, "path %d: %s", path, e.msg);
        cs_destroy(cs);
    }
}
