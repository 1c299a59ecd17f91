/*
 * tests/unit/test_params_cache.c — suite "params_cache": params/'s cache of
 * one circuit (test-mul, whose setup takes milliseconds): the file names,
 * generation once under params_ensure, the digest stamp (an unchanged file
 * is not hashed again; a touched or rewritten one is; PARAMS_ENSURE_FULL
 * always hashes), the shape stamp (index checks skipped only for the file
 * that passed them), and a shape recorded beforehand being used by the
 * setup instead of recorded again.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "params/params.h"

static void scratch(char dir[64], params_paths_t *p, circuit_t *c)
{
    snprintf(dir, 64, "/tmp/gm-pcache-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    err_t err;
    cr_assert_eq(circuit_parse(c, "test-mul", 0, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(params_paths(p, dir, c->id, &err), 0, "%s", err.msg);
}

static void cleanup(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* Sets path's mtime to a fixed time in the past: same bytes, new stamp. */
static void touch_back(const char *path)
{
    struct timespec ts[2] = {{1000000000, 5}, {1000000000, 5}};
    cr_assert_eq(utimensat(AT_FDCWD, path, ts, 0), 0, "%s", path);
}

Test(params_cache, paths_name_every_file)
{
    params_paths_t p;
    err_t err;
    cr_assert_eq(params_paths(&p, "/c", "porep-2048-v2", &err), 0);
    cr_expect_str_eq(p.params, "/c/porep-2048-v2.params");
    cr_expect_str_eq(p.vk, "/c/porep-2048-v2.vk");
    cr_expect_str_eq(p.shape, "/c/porep-2048-v2.shape");
    cr_expect_str_eq(p.setup, "/c/porep-2048-v2.setup");
    cr_expect_str_eq(p.params_stamp, "/c/porep-2048-v2.params.stamp");
    cr_expect_str_eq(p.shape_stamp, "/c/porep-2048-v2.shape.stamp");
    cr_expect_str_eq(p.checked, "/c/porep-2048-v2.params.checked");
    cr_expect_str_eq(p.manifest, "/c/manifest.json");
    cr_expect_str_eq(p.name, "porep-2048-v2.params");
    char big[GM_PATH_MAX + 10];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    cr_expect_eq(params_paths(&p, big, "x", &err), GM_EINVAL);
}

Test(params_cache, digest_is_taken_again_only_when_the_file_changed)
{
    char dir[64];
    params_paths_t p;
    circuit_t c;
    scratch(dir, &p, &c);
    err_t err;
    params_ensure_t r;
    /* missing and not generating: refused, naming the directory */
    cr_expect_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_DEFAULT, NULL, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, dir) && strstr(err.msg, "incomplete"), "%s", err.msg);

    cr_assert_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_GENERATE, NULL, &err), 0, "%s", err.msg);
    cr_expect(r.generated && r.shape_recorded && !r.digest_from_stamp);
    char d0[PARAMS_DIGEST_HEX + 1], full[PARAMS_DIGEST_HEX + 1];
    memcpy(d0, r.digest, sizeof d0);
    cr_assert_eq(params_file_digest(full, NULL, p.params, &err), 0);
    cr_expect_str_eq(d0, full);
    cr_expect_eq(access(p.setup, F_OK), 0);
    cr_expect_eq(access(p.params_stamp, F_OK), 0);

    /* unchanged: from the stamp, nothing generated */
    cr_assert_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_GENERATE, NULL, &err), 0, "%s", err.msg);
    cr_expect(!r.generated && r.digest_from_stamp);
    cr_expect_str_eq(r.digest, d0);
    /* --check-params: hashed whatever the stamp says */
    cr_assert_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_FULL, NULL, &err), 0, "%s", err.msg);
    cr_expect(!r.digest_from_stamp);
    cr_expect_str_eq(r.digest, d0);
    /* touched: hashed again (same bytes, same digest), then stamped anew */
    touch_back(p.params);
    cr_assert_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_DEFAULT, NULL, &err), 0, "%s", err.msg);
    cr_expect(!r.digest_from_stamp);
    cr_expect_str_eq(r.digest, d0);
    cr_assert_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_DEFAULT, NULL, &err), 0, "%s", err.msg);
    cr_expect(r.digest_from_stamp);
    /* rewritten with other bytes and the old mtime: the size and inode differ,
     * so it is hashed, and the manifest refuses the new digest */
    uint8_t *b;
    size_t n;
    cr_assert_eq(gm_file_read(&b, &n, p.params, &err), 0);
    b[n - 1] ^= 1;
    cr_assert_eq(gm_file_write(p.params, b, n, &err), 0);
    gm_free(b);
    touch_back(p.params);
    cr_expect_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_DEFAULT, NULL, &err), GM_EVERIFY);
    cr_expect(strstr(err.msg, p.params), "%s", err.msg);
    cleanup(dir);
}

Test(params_cache, shape_stamp_skips_checks_only_for_the_same_file)
{
    char dir[64];
    params_paths_t p;
    circuit_t c;
    scratch(dir, &p, &c);
    err_t err;
    cs_shape_t *sh = NULL;
    cr_assert_eq(params_shape_record(&sh, &p, &c, &err), 0, "%s", err.msg);
    uint64_t rows = sh->n_rows;
    cs_shape_free(sh);
    bool stamped = false;
    cr_assert_eq(params_shape_load(&sh, &stamped, &p, false, &err), 0, "%s", err.msg);
    cr_expect(stamped);
    cr_expect_eq(sh->n_rows, rows);
    cs_shape_free(sh);
    cr_assert_eq(params_shape_load(&sh, &stamped, &p, true, &err), 0, "%s", err.msg);
    cr_expect(!stamped, "full: every index checked");
    cs_shape_free(sh);
    touch_back(p.shape);
    cr_assert_eq(params_shape_load(&sh, &stamped, &p, false, &err), 0, "%s", err.msg);
    cr_expect(!stamped, "touched: checked again");
    cs_shape_free(sh);
    cr_assert_eq(params_shape_load(&sh, &stamped, &p, false, &err), 0, "%s", err.msg);
    cr_expect(stamped, "checked again: stamped anew");
    cs_shape_free(sh);
    /* a shape recorded before (as `grothmpi circuit shape` does) is used by
     * the setup, not recorded again */
    params_ensure_t r;
    cr_assert_eq(params_ensure(&r, &p, &c, PARAMS_ENSURE_GENERATE, NULL, &err), 0, "%s", err.msg);
    cr_expect(r.generated && !r.shape_recorded);
    cr_expect_eq(r.n_constraints + r.n_inputs, rows);
    cleanup(dir);
}
