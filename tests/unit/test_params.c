/*
 * tests/unit/test_params.c — groth16/params.c: the parameter and verifying
 * key files. The layout is checked against offsets computed here from
 * bellperson's Parameters::write (vk; then h, l, a, b_g1, b_g2 as u32 BE
 * count + uncompressed points), then every validation path of the loader:
 * truncation in each section, trailing bytes, counts that do not match the
 * shape, a flipped byte (off curve), a non-canonical coordinate, flag bits,
 * a point at infinity, a point off the subgroup (and --trust-params), and
 * the verifying-key file's own errors; the slice loader of split proofs
 * (groth16_params_load_slice) against the file's bytes and on the same
 * errors. Tiny circuits (2^4 .. 2^6 rows).
 * Replay with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop
#include "topo/topo.h"
#include "circuits/circuits.h"
#include "params/params.h"

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(params, .init = init);

typedef struct {
    char dir[64], params[128], vk[128], bad[128];
    cs_shape_t *shape;
    uint8_t *bytes;  /* the params file */
    size_t len;
    size_t off[5];   /* offset of each section's count */
    uint64_t cnt[5];
} pf_t;

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static void pf_open(pf_t *f, uint64_t rows)
{
    memset(f, 0, sizeof *f);
    test_rng_t rng;
    test_rng_init(&rng, "params");
    err_t err;
    snprintf(f->dir, sizeof f->dir, "/tmp/gm_par_XXXXXX");
    cr_assert(mkdtemp(f->dir));
    snprintf(f->params, sizeof f->params, "%s/c.params", f->dir);
    snprintf(f->vk, sizeof f->vk, "%s/c.vk", f->dir);
    snprintf(f->bad, sizeof f->bad, "%s/bad.params", f->dir);
    circuit_t c;
    cr_assert_eq(circuit_parse(&c, "test-synthetic", rows, NULL, &err), 0);
    cr_assert_eq(circuit_shape(&f->shape, &c, &err), 0, "%s", err.msg);
    uint8_t seed[GROTH16_SEED_BYTES];
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        seed[i] = (uint8_t)test_rng_next(&rng);
    cr_assert_eq(groth16_setup(f->shape, seed, f->params, f->vk, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(gm_file_read(&f->bytes, &f->len, f->params, &err), 0);
    /* Offsets by hand: 3 G1 + 3 G2 uncompressed, n_ic, then the sections. */
    size_t o = 3 * 96 + 3 * 192;
    uint32_t n_ic = be32(f->bytes + o);
    o += 4 + (size_t)n_ic * 96;
    for (int s = 0; s < 5; s++) {
        f->off[s] = o;
        f->cnt[s] = be32(f->bytes + o);
        o += 4 + f->cnt[s] * (s == 4 ? 192 : 96);
    }
    cr_assert_eq(o, f->len, "sections end at %zu, the file has %zu bytes", o, f->len);
}

static void pf_close(pf_t *f)
{
    unlink(f->params);
    unlink(f->vk);
    unlink(f->bad);
    rmdir(f->dir);
    gm_free(f->bytes);
    cs_shape_free(f->shape);
}

/* Writes bytes[0 .. len) (possibly modified) to f->bad and loads it. */
static int load_bad(pf_t *f, const uint8_t *bytes, size_t len, groth16_load_flags_t flags, err_t *err)
{
    FILE *fp = fopen(f->bad, "wb");
    cr_assert(fp);
    cr_assert_eq(fwrite(bytes, 1, len, fp), len);
    fclose(fp);
    groth16_params_t *p = NULL;
    int rc = groth16_params_load(&p, f->bad, f->shape, flags, NULL, err);
    if (rc == 0)
        cr_assert(p);
    else
        cr_assert_null(p);
    groth16_params_free(p);
    return rc;
}

Test(params, layout_and_round_trip)
{
    pf_t f;
    pf_open(&f, 64);
    err_t err;
    groth16_counts_t need;
    cr_assert_eq(groth16_shape_counts(&need, f.shape, &err), 0);
    cr_assert_eq(need.h, 63);
    cr_assert_eq(f.cnt[0], need.h);
    cr_assert_eq(f.cnt[1], need.l);
    cr_assert_eq(f.cnt[1], f.shape->n_aux);
    cr_assert_eq(f.cnt[2], need.a);
    cr_assert_eq(f.cnt[3], need.b_g1);
    cr_assert_eq(f.cnt[4], need.b_g2);
    cr_assert(need.a < f.shape->n_inputs + f.shape->n_aux, "A should be sparse in this circuit");
    cr_assert(need.b_g1 < need.a, "B should be sparser than A in this circuit");

    groth16_params_t *p;
    topo_pool_t *pool;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0);
    cr_assert_eq(groth16_params_load(&p, f.params, f.shape, GROTH16_LOAD_DEFAULT, pool, &err), 0, "%s", err.msg);
    groth16_counts_t have;
    groth16_params_counts(&have, p);
    cr_assert(memcmp(&have, &need, sizeof need) == 0);
    cr_assert(groth16_params_memory(p) > 0);
    /* The vk file is the params' prefix, and re-encodes byte for byte. */
    uint8_t *vkb;
    size_t vkl;
    cr_assert_eq(gm_file_read(&vkb, &vkl, f.vk, &err), 0);
    cr_assert_eq(vkl, groth16_vk_bytes(f.shape->n_inputs));
    cr_assert(memcmp(vkb, f.bytes, vkl) == 0);
    uint8_t *re = gm_alloc(vkl);
    groth16_vk_to_bytes(re, groth16_params_vk(p));
    cr_assert(memcmp(re, vkb, vkl) == 0);
    groth16_vk_t vk;
    cr_assert_eq(groth16_vk_load(&vk, f.vk, &err), 0, "%s", err.msg);
    cr_assert(g2_affine_eq(&vk.delta_g2, &groth16_params_vk(p)->delta_g2));
    cr_assert_eq(vk.n_ic, f.shape->n_inputs);
    groth16_vk_free(&vk);
    /* Loading without a shape works too (no count check). */
    groth16_params_t *p2;
    cr_assert_eq(groth16_params_load(&p2, f.params, NULL, GROTH16_LOAD_DEFAULT, NULL, &err), 0, "%s", err.msg);
    groth16_params_free(p2);
    groth16_params_free(p);
    topo_pool_destroy(pool);
    gm_free(re);
    gm_free(vkb);
    pf_close(&f);
}

Test(params, truncated_in_every_section)
{
    pf_t f;
    pf_open(&f, 16);
    err_t err;
    static const char *const names[5] = {"section h", "section l", "section a", "section b_g1", "section b_g2"};
    cr_assert_eq(load_bad(&f, f.bytes, 0, 0, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section vk: truncated"), "%s", err.msg);
    cr_assert_eq(load_bad(&f, f.bytes, 900, 0, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section vk: truncated"), "%s", err.msg);
    for (int s = 0; s < 5; s++) {
        /* Inside the count, and inside the points. */
        cr_assert_eq(load_bad(&f, f.bytes, f.off[s] + 2, 0, &err), GM_EFORMAT);
        cr_assert(strstr(err.msg, names[s]) && strstr(err.msg, "truncated"), "%s", err.msg);
        cr_assert_eq(load_bad(&f, f.bytes, f.off[s] + 4 + 50, 0, &err), GM_EFORMAT);
        cr_assert(strstr(err.msg, names[s]) && strstr(err.msg, "truncated"), "%s", err.msg);
    }
    cr_assert_eq(load_bad(&f, f.bytes, f.len - 1, 0, &err), GM_EFORMAT);
    /* Trailing bytes. */
    uint8_t *more = gm_alloc(f.len + 3);
    memcpy(more, f.bytes, f.len);
    memset(more + f.len, 0, 3);
    cr_assert_eq(load_bad(&f, more, f.len + 3, 0, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "3 trailing bytes"), "%s", err.msg);
    gm_free(more);
    /* A missing file. */
    groth16_params_t *p;
    cr_assert_eq(groth16_params_load(&p, "/nonexistent/x.params", NULL, 0, NULL, &err), GM_EIO);
    cr_assert(strstr(err.msg, "/nonexistent/x.params"));
    pf_close(&f);
}

Test(params, counts_against_the_shape)
{
    pf_t f;
    pf_open(&f, 16);
    err_t err;
    /* Another shape: every count differs; the first section named is ic or h. */
    circuit_t c;
    cs_shape_t *other;
    cr_assert_eq(circuit_parse(&c, "test-synthetic", 32, NULL, &err), 0);
    cr_assert_eq(circuit_shape(&other, &c, &err), 0);
    groth16_params_t *p;
    cr_assert_eq(groth16_params_load(&p, f.params, other, 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section h: 15 points, the circuit needs 31"), "%s", err.msg);
    cs_shape_free(other);
    /* A count in the file that is one too small: the section ends early,
     * so the next count is read from point bytes, which the size check or
     * the count check rejects. */
    uint8_t *b = gm_alloc(f.len);
    memcpy(b, f.bytes, f.len);
    b[f.off[1] + 3]--;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section"), "%s", err.msg);
    /* The prover refuses parameters of another circuit. */
    cr_assert_eq(groth16_params_load(&p, f.params, NULL, 0, NULL, &err), 0);
    cr_assert_eq(circuit_shape(&other, &c, &err), 0);
    groth16_prover_t *pv;
    cr_assert_eq(groth16_prover_create(&pv, p, other, NULL, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "section"), "%s", err.msg);
    cs_shape_free(other);
    groth16_params_free(p);
    gm_free(b);
    pf_close(&f);
}

/* Corrupts point i of section s (count at f->off[s]) in a copy. */
static uint8_t *point_of(pf_t *f, uint8_t *copy, int s, uint64_t i)
{
    memcpy(copy, f->bytes, f->len);
    return copy + f->off[s] + 4 + i * (s == 4 ? 192 : 96);
}

Test(params, point_errors_name_section_and_index)
{
    pf_t f;
    pf_open(&f, 64);
    err_t err;
    uint8_t *b = gm_alloc(f.len);
    char want[256];

    /* Flipped byte in y: off the curve. */
    uint8_t *pt = point_of(&f, b, 1, 17);
    pt[95] ^= 0x01;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_ENOTONCURVE);
    snprintf(want, sizeof want, "%s: section l: point 17: not on the curve", f.bad);
    cr_assert(strstr(err.msg, want), "%s", err.msg);
    /* --trust-params still checks the curve equation. */
    cr_assert_eq(load_bad(&f, b, f.len, GROTH16_LOAD_TRUST, &err), GM_ENOTONCURVE);

    /* Non-canonical x (all ones below the flag bits). */
    pt = point_of(&f, b, 0, 3);
    memset(pt, 0xff, 48);
    pt[0] = 0x1f;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_ENONCANON);
    cr_assert(strstr(err.msg, "section h: point 3:"), "%s", err.msg);

    /* Compression flag on an uncompressed point. */
    pt = point_of(&f, b, 2, 0);
    pt[0] |= 0x80;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_EFLAGS);
    cr_assert(strstr(err.msg, "section a: point 0:"), "%s", err.msg);

    /* The identity: bellperson refuses it in every query. */
    pt = point_of(&f, b, 3, 1);
    memset(pt, 0, 96);
    pt[0] = 0x40;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section b_g1: point 1: point at infinity"), "%s", err.msg);

    /* G2: flipped byte. */
    pt = point_of(&f, b, 4, f.cnt[4] - 1);
    pt[191] ^= 0x04;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "section b_g2: point"), "%s", err.msg);

    /* Off the subgroup: refused, accepted with --trust-params. */
    g1_affine_t q;
    for (uint64_t x = 1;; x++) {
        fp_t fx, rhs, y, four;
        fp_set_u64(&fx, x);
        fp_set_u64(&four, 4);
        fp_sqr(&rhs, &fx);
        fp_mul(&rhs, &rhs, &fx);
        fp_add(&rhs, &rhs, &four);
        if (!fp_sqrt(&y, &rhs))
            continue;
        q.x = fx, q.y = y, q.inf = false;
        if (!g1_affine_in_subgroup(&q))
            break;
    }
    pt = point_of(&f, b, 1, 17);
    g1_to_bytes_uncompressed(pt, &q);
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_ESUBGROUP);
    snprintf(want, sizeof want, "%s: section l: point 17: not in the subgroup", f.bad);
    cr_assert(strstr(err.msg, want), "%s", err.msg);
    cr_assert_eq(load_bad(&f, b, f.len, GROTH16_LOAD_TRUST, &err), 0, "%s", err.msg);

    /* Two bad points: the first in file order is reported. */
    pt = point_of(&f, b, 4, 0);
    pt[191] ^= 1;
    pt = b + f.off[0] + 4 + 5 * 96;
    pt[95] ^= 1;
    cr_assert_eq(load_bad(&f, b, f.len, 0, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "section h: point 5:"), "%s", err.msg);

    /* The vk inside the params is always fully checked. */
    memcpy(b, f.bytes, f.len);
    b[96 + 95] ^= 1; /* beta_g1's y */
    cr_assert_eq(load_bad(&f, b, f.len, GROTH16_LOAD_TRUST, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "section vk: beta_g1"), "%s", err.msg);
    gm_free(b);
    pf_close(&f);
}

Test(params, vk_file_errors)
{
    pf_t f;
    pf_open(&f, 16);
    err_t err;
    groth16_vk_t vk;
    size_t n = groth16_vk_bytes(f.shape->n_inputs);
    uint8_t *b = gm_alloc(n + 1);
    memcpy(b, f.bytes, n);
    b[n] = 0;
    cr_assert_eq(gm_file_write(f.bad, b, n + 1, &err), 0);
    cr_assert_eq(groth16_vk_load(&vk, f.bad, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "1 trailing bytes"), "%s", err.msg);
    cr_assert_eq(gm_file_write(f.bad, b, n - 1, &err), 0);
    cr_assert_eq(groth16_vk_load(&vk, f.bad, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "truncated"), "%s", err.msg);
    /* An ic point at infinity. */
    memset(b + n - 96, 0, 96);
    b[n - 96] = 0x40;
    cr_assert_eq(gm_file_write(f.bad, b, n, &err), 0);
    cr_assert_eq(groth16_vk_load(&vk, f.bad, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section ic: point 1: point at infinity"), "%s", err.msg);
    /* gamma_g2 off the curve. */
    memcpy(b, f.bytes, n);
    b[2 * 96 + 192 + 191] ^= 2;
    cr_assert_eq(gm_file_write(f.bad, b, n, &err), 0);
    cr_assert_eq(groth16_vk_load(&vk, f.bad, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "gamma_g2"), "%s", err.msg);
    cr_assert_eq(groth16_vk_load(&vk, "/nonexistent.vk", &err), GM_EIO);
    /* Save and load round trip. */
    memcpy(b, f.bytes, n);
    cr_assert_eq(groth16_vk_from_bytes(&vk, b, n, NULL, "mem", &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_vk_save(&vk, f.bad, &err), 0);
    groth16_vk_t vk2;
    cr_assert_eq(groth16_vk_load(&vk2, f.bad, &err), 0);
    cr_assert(g1_affine_eq(&vk.ic[1], &vk2.ic[1]));
    groth16_vk_free(&vk);
    groth16_vk_free(&vk2);
    gm_free(b);
    pf_close(&f);
}

/* ---- digests and manifests (groth16/manifest.c) ------------------------------------ */

/* Known answers from coreutils 9.1 `b2sum` (BLAKE2b-512; RFC 7693 appendix A
 * gives the same for "abc"): printf abc | b2sum, printf '' | b2sum; first 32
 * hex digits, as Filecoin's parameters.json records digests. */
Test(params, file_digest_known_answers)
{
    char dir[] = "/tmp/gm-digest.XXXXXX", path[64], d[PARAMS_DIGEST_HEX + 1];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f", dir);
    err_t err;
    uint64_t size = 99;
    cr_assert_eq(gm_file_write(path, "abc", 3, &err), 0);
    cr_assert_eq(params_file_digest(d, &size, path, &err), 0, "%s", err.msg);
    cr_expect_str_eq(d, "ba80a53f981c4d0d6a2797b69f12f6e9");
    cr_expect_eq(size, 3);
    cr_assert_eq(gm_file_write(path, "", 0, &err), 0);
    cr_assert_eq(params_file_digest(d, &size, path, &err), 0, "%s", err.msg);
    cr_expect_str_eq(d, "786a02f742015903c6c6fd852552d272");
    cr_expect_eq(size, 0);
    unlink(path);
    cr_expect_eq(params_file_digest(d, NULL, path, &err), GM_EIO);
    cr_expect(strstr(err.msg, "cannot open"), "%s", err.msg);
    rmdir(dir);
}

Test(params, manifest_record_and_check)
{
    char dir[] = "/tmp/gm-manifest.XXXXXX", m[64];
    cr_assert(mkdtemp(dir));
    snprintf(m, sizeof m, "%s/manifest.json", dir);
    err_t err;
    bool listed = true;
    const char *d1 = "00112233445566778899aabbccddeeff", *d2 = "ffeeddccbbaa99887766554433221100";
    /* no manifest: not listed, not an error */
    cr_assert_eq(params_manifest_check(&listed, m, "a.params", d1, "a.params", &err), 0);
    cr_expect(!listed);
    cr_assert_eq(params_manifest_record(m, "a.params", d1, 10, "a", &err), 0, "%s", err.msg);
    cr_assert_eq(params_manifest_record(m, "b.params", d2, 20, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(params_manifest_check(&listed, m, "a.params", d1, "a.params", &err), 0, "%s", err.msg);
    cr_expect(listed, "a kept after b was recorded");
    cr_assert_eq(params_manifest_check(&listed, m, "b.params", d2, "b.params", &err), 0, "%s", err.msg);
    cr_expect(listed);
    cr_assert_eq(params_manifest_check(&listed, m, "c.params", d1, "c.params", &err), 0);
    cr_expect(!listed);
    /* another digest: refused, naming both */
    cr_expect_eq(params_manifest_check(&listed, m, "a.params", d2, "/x/a.params", &err), GM_EVERIFY);
    cr_expect(!listed);
    cr_expect(strstr(err.msg, "/x/a.params: BLAKE2b digest ffeeddcc") && strstr(err.msg, "lists 00112233"), "%s",
              err.msg);
    /* a damaged manifest is an error, never silently "not listed" */
    cr_assert_eq(gm_file_write(m, "{\"a.params\": {\"digest\": 7}}", 27, &err), 0);
    cr_expect_eq(params_manifest_check(&listed, m, "a.params", d1, "a.params", &err), GM_EFORMAT);
    cr_expect(strstr(err.msg, "a.params.digest"), "%s", err.msg);
    cr_assert_eq(gm_file_write(m, "[1", 2, &err), 0);
    cr_expect_eq(params_manifest_check(&listed, m, "a.params", d1, "a.params", &err), GM_EFORMAT);
    cr_expect_eq(params_manifest_record(m, "a.params", d1, 10, "a", &err), GM_EFORMAT, "not overwritten");
    unlink(m);
    rmdir(dir);
}

/* ---- slices (groth16_params_load_slice) ----------------------------------------------- */

Test(params, slice_range_tiles)
{
    for (uint64_t n = 0; n < 70; n++)
        for (unsigned parts = 1; parts <= 9; parts++) {
            uint64_t next = 0;
            for (unsigned p = 0; p < parts; p++) {
                uint64_t lo, hi;
                groth16_slice_range(&lo, &hi, n, p, parts);
                cr_assert_eq(lo, next, "n %llu parts %u part %u", (unsigned long long)n, parts, p);
                cr_assert(hi - lo == n / parts || hi - lo == n / parts + 1);
                next = hi;
            }
            cr_assert_eq(next, n);
        }
}

/* Every part of every split re-encodes to the file's own bytes at the
 * offsets computed by hand (pf_open), and the parts tile each section. */
Test(params, slice_points_are_the_files)
{
    pf_t f;
    pf_open(&f, 64);
    err_t err;
    topo_pool_t *pool;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0);
    groth16_params_t *whole;
    cr_assert_eq(groth16_params_load(&whole, f.params, f.shape, 0, NULL, &err), 0, "%s", err.msg);
    for (unsigned parts = 1; parts <= 5; parts++) {
        uint64_t next[5] = {0};
        size_t held = 0;
        for (unsigned part = 0; part < parts; part++) {
            groth16_params_slice_t ps;
            cr_assert_eq(groth16_params_load_slice(&ps, f.params, f.shape, part, parts, 0, part % 2 ? pool : NULL,
                                                   &err), 0, "%s", err.msg);
            groth16_counts_t have;
            groth16_params_counts(&have, whole);
            cr_assert(memcmp(&have, &ps.n, sizeof have) == 0);
            uint8_t vkb[4096];
            size_t vkl = groth16_vk_bytes(ps.vk.n_ic);
            cr_assert(vkl <= sizeof vkb);
            groth16_vk_to_bytes(vkb, &ps.vk);
            cr_assert(memcmp(vkb, f.bytes, vkl) == 0, "the slice's vk");
            const void *pts[5] = {ps.h, ps.l, ps.a, ps.b_g1, ps.b_g2};
            for (int s = 0; s < 5; s++) {
                cr_assert_eq(ps.lo[s], next[s], "parts %u part %u section %d", parts, part, s);
                next[s] = ps.hi[s];
                for (uint64_t i = ps.lo[s]; i < ps.hi[s]; i++) {
                    uint8_t b[192];
                    size_t sz = s == 4 ? 192 : 96;
                    if (s == 4)
                        g2_to_bytes_uncompressed(b, &((const g2_affine_t *)pts[s])[i - ps.lo[s]]);
                    else
                        g1_to_bytes_uncompressed(b, &((const g1_affine_t *)pts[s])[i - ps.lo[s]]);
                    cr_assert(memcmp(b, f.bytes + f.off[s] + 4 + i * sz, sz) == 0, "section %d point %llu", s,
                              (unsigned long long)i);
                }
            }
            held += groth16_params_slice_memory(&ps) - ps.vk.n_ic * sizeof(g1_affine_t);
            groth16_params_slice_free(&ps);
        }
        for (int s = 0; s < 5; s++)
            cr_assert_eq(next[s], f.cnt[s]);
        /* The parts hold the whole key's points between them, once. */
        cr_assert_eq(held + f.shape->n_inputs * sizeof(g1_affine_t), groth16_params_memory(whole));
    }
    groth16_params_free(whole);
    topo_pool_destroy(pool);
    pf_close(&f);
}

/* The loader's checks, on slices: the header's (every part), a bad point
 * (only the part holding it, named by its index in the whole section). */
Test(params, slice_errors)
{
    pf_t f;
    pf_open(&f, 64);
    err_t err;
    groth16_params_slice_t ps;
    uint8_t *b = gm_alloc(f.len);
    /* Truncated inside section b_g2 (every part sees it), and a missing file. */
    FILE *fp = fopen(f.bad, "wb");
    cr_assert_eq(fwrite(f.bytes, 1, f.len - 10, fp), f.len - 10);
    fclose(fp);
    for (unsigned part = 0; part < 3; part++) {
        cr_assert_eq(groth16_params_load_slice(&ps, f.bad, f.shape, part, 3, 0, NULL, &err), GM_EFORMAT);
        cr_assert(strstr(err.msg, "section b_g2: truncated"), "%s", err.msg);
        cr_assert_null(ps.h);
        groth16_params_slice_free(&ps);
    }
    cr_assert_eq(groth16_params_load_slice(&ps, "/nonexistent/x.params", f.shape, 0, 1, 0, NULL, &err), GM_EIO);
    /* Another circuit's shape. */
    circuit_t c;
    cs_shape_t *other;
    cr_assert_eq(circuit_parse(&c, "test-synthetic", 32, NULL, &err), 0);
    cr_assert_eq(circuit_shape(&other, &c, &err), 0);
    cr_assert_eq(groth16_params_load_slice(&ps, f.params, other, 0, 2, 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section h: 63 points, the circuit needs 31"), "%s", err.msg);
    cs_shape_free(other);
    /* A point of l off the curve, in the last of 4 parts. */
    uint64_t k = f.cnt[1] - 1;
    uint8_t *pt = point_of(&f, b, 1, k);
    pt[95] ^= 0x01;
    fp = fopen(f.bad, "wb");
    cr_assert_eq(fwrite(b, 1, f.len, fp), f.len);
    fclose(fp);
    for (unsigned part = 0; part < 4; part++) {
        int rc = groth16_params_load_slice(&ps, f.bad, f.shape, part, 4, 0, NULL, &err);
        if (part < 3) {
            cr_assert_eq(rc, 0, "part %u: %s", part, err.msg);
        } else {
            char want[256];
            snprintf(want, sizeof want, "%s: section l: point %llu: not on the curve", f.bad, (unsigned long long)k);
            cr_assert_eq(rc, GM_ENOTONCURVE);
            cr_assert(strstr(err.msg, want), "%s", err.msg);
        }
        groth16_params_slice_free(&ps);
    }
    gm_free(b);
    pf_close(&f);
}
