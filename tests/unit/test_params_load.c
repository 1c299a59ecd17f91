/*
 * tests/unit/test_params_load.c — suite "params_load": params/'s one loading
 * policy over a test-mul cache (setup in milliseconds): a set-up cache is
 * vouched for by its .checked stamp and then mapped from its points file; a
 * file without the stamp has every point checked and gets one; --check-params
 * checks whatever the stamps say; GROTHMPI_POINTS_CACHE=off neither writes nor
 * reads points; a damaged, truncated or foreign points file is converted
 * again, never used; a damaged parameter file is refused by the full check.
 * And groth16's points file itself: the mapped key equals the decoded one.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "params/params.h"

typedef struct {
    char dir[64];
    params_paths_t p;
    circuit_t c;
    cs_shape_t *shape;
    topo_pool_t *pool;
    char points[GM_PATH_MAX + 128];
} fix_t;

static void setup_cache(fix_t *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/gm-pload-XXXXXX");
    cr_assert_not_null(mkdtemp(f->dir));
    err_t err;
    cr_assert_eq(circuit_parse(&f->c, "test-mul", 0, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(params_paths(&f->p, f->dir, f->c.id, &err), 0, "%s", err.msg);
    params_ensure_t r;
    cr_assert_eq(params_ensure(&r, &f->p, &f->c, PARAMS_ENSURE_GENERATE, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(params_shape_load(&f->shape, NULL, &f->p, false, &err), 0, "%s", err.msg);
    cr_assert_eq(topo_pool_create_flat(&f->pool, 2, &err), 0, "%s", err.msg);
    snprintf(f->points, sizeof f->points, "%s.points", f->p.params);
    /* "on": the points file is written however full the test machine's
     * disk is (auto's free-space rule is not what these tests check) */
    setenv("GROTHMPI_POINTS_CACHE", "on", 1);
}

static void teardown_cache(fix_t *f)
{
    cs_shape_free(f->shape);
    topo_pool_destroy(f->pool);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    cr_expect_eq(system(cmd), 0);
    unsetenv("GROTHMPI_POINTS_CACHE");
}

static int load(fix_t *f, groth16_params_t **out, params_loaded_t *li, unsigned flags, err_t *err)
{
    return params_load(out, li, f->p.params, f->shape, flags, f->pool, NULL, NULL, err);
}

/* The five queries and the vk of a and b hold the same points. */
static void expect_same_key(const groth16_params_t *a, const groth16_params_t *b)
{
    groth16_counts_t na, nb;
    groth16_params_counts(&na, a);
    groth16_params_counts(&nb, b);
    cr_assert(memcmp(&na, &nb, sizeof na) == 0);
    cr_expect_eq(groth16_params_memory(a), groth16_params_memory(b));
    const groth16_vk_t *ka = groth16_params_vk(a), *kb = groth16_params_vk(b);
    cr_assert_eq(ka->n_ic, kb->n_ic);
    size_t len = groth16_vk_bytes(ka->n_ic);
    uint8_t *va = malloc(len), *vb = malloc(len);
    groth16_vk_to_bytes(va, ka);
    groth16_vk_to_bytes(vb, kb);
    cr_expect(memcmp(va, vb, len) == 0, "the verifying keys differ");
    free(va);
    free(vb);
}

Test(params_load, setup_vouches_then_points_are_mapped)
{
    fix_t f;
    setup_cache(&f);
    err_t err;
    cr_expect_eq(access(f.p.checked, F_OK), 0, "setup wrote no .checked stamp");
    groth16_params_t *a = NULL, *b = NULL;
    params_loaded_t li;
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(li.trusted && !li.checked_now && !li.mapped && li.points_written, "%s", li.how);
    cr_expect(li.digest_from_stamp);
    cr_expect(!groth16_params_mapped(a));
    cr_expect_eq(access(f.points, F_OK), 0);
    cr_assert_eq(load(&f, &b, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(li.trusted && li.mapped && !li.points_written, "%s", li.how);
    cr_expect(groth16_params_mapped(b));
    expect_same_key(a, b);
    /* the points themselves: the same r, s and witness give the same proof */
    cs_t *cs = NULL;
    circuit_witness_opts_t wo = {.seed = 1, .mode = CS_WITNESS};
    cr_assert_eq(circuit_witness(&cs, &f.c, &wo, &err), 0, "%s", err.msg);
    groth16_witness_t w;
    groth16_witness_of(&w, cs);
    fr_t rs[2];
    fr_set_u64(&rs[0], 12345);
    fr_set_u64(&rs[1], 67890);
    uint8_t bytes[2][GROTH16_PROOF_BYTES];
    const groth16_params_t *keys[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        groth16_prover_t *pv = NULL;
        groth16_proof_t proof;
        groth16_timings_t t;
        cr_assert_eq(groth16_prover_create(&pv, keys[k], f.shape, f.pool, &err), 0, "%s", err.msg);
        cr_assert_eq(groth16_prove(pv, &proof, &w, 1, rs, GROTH16_PROVE_DEFAULT, f.pool, &t, &err), 0, "%s",
                     err.msg);
        groth16_proof_to_bytes(bytes[k], &proof);
        groth16_prover_destroy(pv);
    }
    cr_expect(memcmp(bytes[0], bytes[1], GROTH16_PROOF_BYTES) == 0, "the mapped key proves other bytes");
    cs_destroy(cs);
    groth16_params_free(a);
    groth16_params_free(b);
    teardown_cache(&f);
}

Test(params_load, unvouched_file_is_checked_once_then_stamped)
{
    fix_t f;
    setup_cache(&f);
    err_t err;
    cr_assert_eq(unlink(f.p.checked), 0);
    groth16_params_t *a = NULL;
    params_loaded_t li;
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(!li.trusted && li.checked_now, "%s", li.how);
    cr_expect_eq(access(f.p.checked, F_OK), 0, "no stamp after a full check");
    groth16_params_free(a);
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(li.trusted && li.mapped, "%s", li.how);
    groth16_params_free(a);
    /* --check-params: every point, whatever the stamps and points say */
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_CHECK | PARAMS_LOAD_REHASH, &err), 0, "%s", err.msg);
    cr_expect(!li.trusted && li.checked_now && !li.mapped && !li.digest_from_stamp, "%s", li.how);
    groth16_params_free(a);
    teardown_cache(&f);
}

Test(params_load, points_cache_off_and_bad_mode)
{
    fix_t f;
    setup_cache(&f);
    err_t err;
    groth16_params_t *a = NULL;
    params_loaded_t li;
    setenv("GROTHMPI_POINTS_CACHE", "off", 1);
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(li.trusted && !li.points_written && !li.mapped);
    cr_expect_neq(access(f.points, F_OK), 0);
    groth16_params_free(a);
    setenv("GROTHMPI_POINTS_CACHE", "sometimes", 1);
    cr_expect_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "GROTHMPI_POINTS_CACHE") && strstr(err.msg, "sometimes"), "%s", err.msg);
    cr_expect_null(a);
    teardown_cache(&f);
}

/* GROTHMPI_PARAMS_STREAM=on streams a vouched-for file (no points file
 * read or written); with --check-params every point is checked, a chunk at a
 * time, and a damaged point is found; a bad mode is refused. */
Test(params_load, streamed)
{
    fix_t f;
    setup_cache(&f);
    err_t err;
    groth16_params_t *a = NULL;
    params_loaded_t li;
    setenv("GROTHMPI_PARAMS_STREAM", "on", 1);
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(li.trusted && li.streamed && !li.points_written && !li.mapped);
    cr_expect(groth16_params_streamed(a));
    cr_expect_neq(access(f.points, F_OK), 0);
    groth16_params_free(a);
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_CHECK, &err), 0, "%s", err.msg);
    cr_expect(li.checked_now && li.streamed);
    groth16_params_free(a);
    /* the last byte of the file is b_g2's last point's y: off the curve */
    uint8_t *b;
    size_t n;
    cr_assert_eq(gm_file_read(&b, &n, f.p.params, &err), 0);
    b[n - 1] ^= 1;
    cr_assert_eq(gm_file_write(f.p.params, b, n, &err), 0);
    gm_free(b);
    cr_expect_neq(load(&f, &a, &li, PARAMS_LOAD_CHECK | PARAMS_LOAD_REHASH, &err), 0);
    cr_expect(strstr(err.msg, "section b_g2") != NULL, "%s", err.msg);
    cr_expect_null(a);
    setenv("GROTHMPI_PARAMS_STREAM", "maybe", 1);
    cr_expect_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "GROTHMPI_PARAMS_STREAM") && strstr(err.msg, "maybe"), "%s", err.msg);
    unsetenv("GROTHMPI_PARAMS_STREAM");
    teardown_cache(&f);
}

/* Rewrites the points file with one byte changed at off (or cut to off
 * bytes), keeping its stamp valid, as a damaged disk or a hand edit would
 * that also reset the stamp. */
static void damage_points(fix_t *f, size_t off, bool truncate)
{
    uint8_t *b;
    size_t n;
    err_t err;
    cr_assert_eq(gm_file_read(&b, &n, f->points, &err), 0);
    if (!truncate)
        b[off] ^= 0x40;
    cr_assert_eq(gm_file_write(f->points, b, truncate ? off : n, &err), 0);
    gm_free(b);
    char stamp[GM_PATH_MAX + 160];
    snprintf(stamp, sizeof stamp, "%s.stamp", f->points);
    params_ident_t id;
    cr_assert_eq(params_ident(&id, f->points, &err), 0);
    char line[256];
    int len = snprintf(line, sizeof line, "grothmpi-stamp 1 dev=%llu ino=%llu size=%llu mtime_ns=%lld\n",
                       (unsigned long long)id.dev, (unsigned long long)id.ino, (unsigned long long)id.size,
                       (long long)id.mtime_ns);
    cr_assert_eq(gm_file_write(stamp, line, (size_t)len, &err), 0);
}

Test(params_load, damaged_points_are_converted_again)
{
    fix_t f;
    setup_cache(&f);
    err_t err;
    groth16_params_t *a = NULL;
    params_loaded_t li;
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    groth16_params_free(a);
    /* the magic, the source digest, a truncation: each refused, then rewritten */
    const size_t offs[3] = {0, 40, 4096 + 8};
    for (int k = 0; k < 3; k++) {
        damage_points(&f, offs[k], k == 2);
        cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
        cr_expect(!li.mapped && li.points_written, "case %d: %s", k, li.how);
        groth16_params_free(a);
        cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
        cr_expect(li.mapped, "case %d: not mapped after the rewrite", k);
        groth16_params_free(a);
    }
    /* a points file whose stamp no longer matches (edited in place): not used */
    uint8_t *b;
    size_t n;
    cr_assert_eq(gm_file_read(&b, &n, f.points, &err), 0);
    cr_assert_eq(gm_file_write(f.points, b, n, &err), 0);
    gm_free(b);
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect(!li.mapped && li.points_written);
    groth16_params_free(a);
    teardown_cache(&f);
}

Test(params_load, a_changed_parameter_file_is_checked_and_refused)
{
    fix_t f;
    setup_cache(&f);
    err_t err;
    groth16_params_t *a = NULL;
    params_loaded_t li;
    cr_assert_eq(load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err), 0, "%s", err.msg);
    groth16_params_free(a);
    /* another byte in the last point's y: a new digest, so neither .checked
     * nor the points file applies, and the full check finds the point */
    uint8_t *b;
    size_t n;
    cr_assert_eq(gm_file_read(&b, &n, f.p.params, &err), 0);
    b[n - 1] ^= 1;
    cr_assert_eq(gm_file_write(f.p.params, b, n, &err), 0);
    gm_free(b);
    int rc = load(&f, &a, &li, PARAMS_LOAD_DEFAULT, &err);
    cr_expect(rc == GM_ENOTONCURVE || rc == GM_ESUBGROUP, "rc %d: %s", rc, err.msg);
    cr_expect(strstr(err.msg, f.p.params) && strstr(err.msg, "b_g2"), "%s", err.msg);
    cr_expect_null(a);
    teardown_cache(&f);
}
