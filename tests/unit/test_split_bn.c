/*
 * tests/unit/test_split_bn.c — what a rank of a split bn128 proof reads:
 * the zkey's slices (snarkjs_bn_zkey_load_slice) against the whole reader
 * (snarkjs_bn_zkey_load) for every R in 1..5, their refusal of truncated
 * and damaged keys, and the mapped .wtns view (snarkjs_bn_wtns_open /
 * _values) against the whole witness, on the committed bn128 multiplier.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "snarkjs/snarkjs.h"

#define VDIR "tests/vectors/snarkjs/"

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(split_bn, .init = init);

static uint8_t *slurp(const char *path, size_t *n)
{
    uint8_t *buf;
    err_t err;
    cr_assert_eq(gm_file_read(&buf, n, path, &err), 0, "%s", err.msg);
    return buf;
}

static void write_bytes(const char *path, const void *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    cr_assert_eq(fwrite(buf, 1, n, f), n);
    fclose(f);
}

static char *temp_path(const char *stem)
{
    char *p = malloc(64);
    cr_assert(p);
    snprintf(p, 64, "/tmp/gm-%s.XXXXXX", stem);
    int fd = mkstemp(p);
    cr_assert(fd >= 0);
    close(fd);
    return p;
}

/* The payload offset of section id in a binary container (0: absent). */
static size_t section_offset(const uint8_t *b, size_t n, uint32_t id)
{
    size_t pos = 12;
    uint32_t ns = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    for (uint32_t i = 0; i < ns && pos + 12 <= n; i++) {
        uint32_t sid = (uint32_t)b[pos] | (uint32_t)b[pos + 1] << 8 | (uint32_t)b[pos + 2] << 16 |
                       (uint32_t)b[pos + 3] << 24;
        uint64_t sz = 0;
        for (int k = 7; k >= 0; k--)
            sz = sz << 8 | b[pos + 4 + k];
        if (sid == id)
            return pos + 12;
        pos += 12 + (size_t)sz;
    }
    return 0;
}

Test(split_bn, zkey_slices_tile_the_whole_key)
{
    /* The parts' points are the whole reader's, slice for slice; their
     * section-4 entries are the whole list's entries of their rows (row =
     * constraint on bn128), in file order, each in exactly one part. */
    err_t err;
    snarkjs_bn_zkey_t *zk;
    cr_assert_eq(snarkjs_bn_zkey_load(&zk, VDIR "multiplier_bn128.zkey", SNARKJS_ZKEY_SUBGROUP, NULL, &err), 0, "%s",
                 err.msg);
    for (unsigned R = 1; R <= 5; R++) {
        uint64_t next[SNARKJS_NSEC] = {0}, coefs = 0, rows = 0;
        for (unsigned part = 0; part < R; part++) {
            snarkjs_bn_zkey_slice_t zs;
            cr_assert_eq(snarkjs_bn_zkey_load_slice(&zs, VDIR "multiplier_bn128.zkey", part, R,
                                                    SNARKJS_ZKEY_SUBGROUP, NULL, &err), 0, "%u of %u: %s", part, R,
                         err.msg);
            cr_assert_eq(zs.n_vars, zk->n_vars);
            cr_assert_eq(zs.n_public, zk->n_public);
            cr_assert_eq(zs.domain_size, zk->domain_size);
            cr_assert_eq(zs.n_coefs_file, zk->n_coefs);
            cr_assert_eq(zs.vk.n_ic, zk->vk.n_ic);
            cr_assert(bn_g2_affine_eq(&zs.vk.delta_g2, &zk->vk.delta_g2) &&
                      bn_g1_affine_eq(&zs.vk.alpha_g1, &zk->vk.alpha_g1) &&
                      bn_g1_affine_eq(&zs.vk.ic[zs.vk.n_ic - 1], &zk->vk.ic[zk->vk.n_ic - 1]));
            cr_assert_eq(zs.row_lo, rows, "%u of %u: the rows do not tile", part, R);
            rows = zs.row_hi;
            const bn_g1_affine_t *whole[SNARKJS_NSEC] = {zk->a, zk->b1, NULL, zk->c, zk->h};
            const bn_g1_affine_t *mine[SNARKJS_NSEC] = {zs.a, zs.b1, NULL, zs.c, zs.h};
            size_t bytes = zs.vk.n_ic * sizeof(bn_g1_affine_t) + zs.n_coefs * sizeof(snarkjs_bn_coef_t);
            for (int s = 0; s < SNARKJS_NSEC; s++) {
                cr_assert_eq(zs.lo[s], next[s], "%u of %u: section %d does not tile", part, R, s);
                next[s] = zs.hi[s];
                bytes += (zs.hi[s] - zs.lo[s]) * (s == SNARKJS_SEC_B2 ? sizeof(bn_g2_affine_t) : sizeof(bn_g1_affine_t));
                for (uint64_t i = zs.lo[s]; i < zs.hi[s]; i++)
                    cr_assert(s == SNARKJS_SEC_B2 ? bn_g2_affine_eq(&zs.b2[i - zs.lo[s]], &zk->b2[i])
                                                  : bn_g1_affine_eq(&mine[s][i - zs.lo[s]], &whole[s][i]),
                              "%u of %u: section %d's point %llu differs", part, R, s, (unsigned long long)i);
            }
            cr_assert_eq(snarkjs_bn_zkey_slice_memory(&zs), bytes);
            uint64_t k = 0;
            for (uint64_t i = 0; i < zk->n_coefs; i++) {
                uint64_t row = (uint64_t)SNARKJS_BN_ROOT_EXP * zk->coefs[i].constraint & (zk->domain_size - 1);
                if (row < zs.row_lo || row >= zs.row_hi)
                    continue;
                cr_assert_lt(k, zs.n_coefs);
                const snarkjs_bn_coef_t *x = &zs.coefs[k], *y = &zk->coefs[i];
                cr_assert(x->matrix == y->matrix && x->constraint == y->constraint && x->signal == y->signal &&
                              bn_fr_eq(&x->value, &y->value), "%u of %u: entry %llu", part, R, (unsigned long long)i);
                k++;
            }
            cr_assert_eq(k, zs.n_coefs);
            coefs += k;
            snarkjs_bn_zkey_slice_free(&zs);
            cr_assert_null(zs.a);
        }
        cr_assert_eq(rows, zk->domain_size);
        cr_assert_eq(coefs, zk->n_coefs);
        cr_assert_eq(next[SNARKJS_SEC_A], zk->n_vars);
        cr_assert_eq(next[SNARKJS_SEC_C], zk->n_vars - zk->n_public - 1);
        cr_assert_eq(next[SNARKJS_SEC_H], zk->domain_size);
    }
    snarkjs_bn_zkey_free(zk);
}

Test(split_bn, zkey_slices_refuse_truncations_other_curves_and_name_their_bad_points)
{
    size_t n;
    uint8_t *orig = slurp(VDIR "multiplier_bn128.zkey", &n);
    char *path = temp_path("bnslice");
    err_t err;
    snarkjs_bn_zkey_slice_t zs;
    for (size_t k = 0; k < n; k += 5) {
        write_bytes(path, orig, k);
        for (unsigned part = 0; part < 3; part++) {
            gm_err_clear(&err);
            cr_assert_neq(snarkjs_bn_zkey_load_slice(&zs, path, part, 3, SNARKJS_ZKEY_DEFAULT, NULL, &err), 0,
                          "truncated to %zu: part %u accepted", k, part);
            cr_assert(strstr(err.msg, path), "truncated to %zu: %s", k, err.msg);
            snarkjs_bn_zkey_slice_free(&zs);
        }
    }
    /* a BLS12-381 key is refused by the bn128 slice reader and the other way round, naming both */
    cr_assert_eq(snarkjs_bn_zkey_load_slice(&zs, VDIR "multiplier.zkey", 0, 2, SNARKJS_ZKEY_DEFAULT, NULL, &err),
                 GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bls12381") && strstr(err.msg, "bn128"), "%s", err.msg);
    snarkjs_zkey_slice_t bls;
    cr_assert_eq(snarkjs_zkey_load_slice(&bls, VDIR "multiplier_bn128.zkey", 1, 2, SNARKJS_ZKEY_DEFAULT, NULL, &err),
                 GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bls12381") && strstr(err.msg, "bn128"), "%s", err.msg);
    /* H point 3 (64 bytes each) with x >= q: in part 2's slice of 3 only */
    size_t h = section_offset(orig, n, 9);
    cr_assert(h);
    memset(orig + h + 64 * 3, 0xff, 32);
    write_bytes(path, orig, n);
    for (unsigned part = 0; part < 3; part++) {
        int rc = snarkjs_bn_zkey_load_slice(&zs, path, part, 3, SNARKJS_ZKEY_DEFAULT, NULL, &err);
        if (part < 2) {
            cr_assert_eq(rc, 0, "part %u: %s", part, err.msg);
        } else {
            cr_assert_eq(rc, GM_ENONCANON);
            cr_assert(strstr(err.msg, "section 9 (PointsH): point 3: a coordinate is not below q"), "%s", err.msg);
        }
        snarkjs_bn_zkey_slice_free(&zs);
    }
    unlink(path);
    free(path);
    gm_free(orig);
}

Test(split_bn, wtns_view_reads_the_values_of_the_whole_reader)
{
    err_t err;
    snarkjs_bn_wtns_t w;
    snarkjs_wtns_view_t v;
    cr_assert_eq(snarkjs_bn_wtns_load(&w, VDIR "multiplier_bn128.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_wtns_open(&v, VDIR "multiplier_bn128.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(v.n, w.n);
    for (uint64_t lo = 0; lo <= w.n; lo++)
        for (uint64_t hi = lo; hi <= w.n; hi++) {
            bn_fr_t out[8];
            cr_assert_eq(snarkjs_bn_wtns_values(&v, out, lo, hi, &err), 0, "%s", err.msg);
            for (uint64_t i = lo; i < hi; i++)
                cr_assert(bn_fr_eq(&out[i - lo], &w.w[i]), "value %llu", (unsigned long long)i);
        }
    snarkjs_wtns_close(&v);
    snarkjs_bn_wtns_free(&w);
    /* each curve's view refuses the other's witness, naming the curve */
    cr_assert_eq(snarkjs_bn_wtns_open(&v, VDIR "multiplier.wtns", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "multiplier.wtns") && strstr(err.msg, "bls12381"), "%s", err.msg);
    cr_assert_eq(snarkjs_wtns_open(&v, VDIR "multiplier_bn128.wtns", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "multiplier_bn128.wtns") && strstr(err.msg, "bn128"), "%s", err.msg);
    /* a value >= r is named when read, not when opened */
    size_t n;
    uint8_t *b = slurp(VDIR "multiplier_bn128.wtns", &n);
    memset(b + n - 32, 0xff, 32);
    char *path = temp_path("bnwtns");
    write_bytes(path, b, n);
    cr_assert_eq(snarkjs_bn_wtns_open(&v, path, &err), 0, "%s", err.msg);
    bn_fr_t x;
    cr_assert_eq(snarkjs_bn_wtns_values(&v, &x, v.n - 1, v.n, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 2 (witness values): value 3 is not below r"), "%s", err.msg);
    snarkjs_wtns_close(&v);
    write_bytes(path, b, n - 1);
    cr_assert_neq(snarkjs_bn_wtns_open(&v, path, &err), 0);
    cr_assert(strstr(err.msg, path), "%s", err.msg);
    unlink(path);
    free(path);
    gm_free(b);
}
