/*
 * tests/unit/test_split_bn.c — what a rank of a split bn128 proof reads:
 * the zkey's slices (snarkjs_bn_zkey_load_slice) against the whole reader
 * (snarkjs_bn_zkey_load) for every R in 1..5, their refusal of truncated
 * and damaged keys, and the mapped .wtns view (snarkjs_bn_wtns_open /
 * _values) against the whole witness, on the committed bn128 multiplier;
 * and the split NTT over BN254's Fr (mpi_split_bn_ntt_*) against
 * bn_ntt's whole-vector transforms, its ranks as threads as in
 * tests/unit/test_split.c (random inputs; replay with GM_TEST_SEED).
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "mpi/mpi.h"
#include "ntt/ntt.h"
#include "snarkjs/snarkjs.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#include "tests/unit/file_util.h"
#pragma GCC diagnostic pop

#define VDIR "tests/vectors/snarkjs/"

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(split_bn, .init = init);

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

/* ---- the split NTT over BN254's Fr ---- */

#define MAX_R 4
#define SH_FR bn_fr_t
#define SH_EQ bn_fr_eq
#define SH_NTT_T mpi_split_bn_ntt_t
#define SH_NTT(name) mpi_split_bn_ntt_##name
#include "tests/unit/split_ntt_harness.h"

Test(split_bn, ntt_matches_the_whole_vector)
{
    test_rng_t rng;
    test_rng_init(&rng, "split bn ntt");
    static const char *const names[4] = {"forward", "inverse", "coset_forward", "coset_inverse"};
    for (unsigned log_n = 3; log_n <= 11; log_n++) {
        uint64_t N = 1ULL << log_n;
        bn_fr_t *x = gm_alloc(N * sizeof(bn_fr_t)), *want = gm_alloc(N * sizeof(bn_fr_t));
        for (uint64_t i = 0; i < N; i++) {
            bn_fr_set_u64(&x[i], test_rng_next(&rng));
            bn_fr_mul(&x[i], &x[i], &x[i]); /* full-width values */
        }
        bn_ntt_domain_t *d;
        err_t err;
        cr_assert_eq(bn_ntt_domain_create(&d, log_n, &err), 0);
        void *sc = gm_alloc(bn_ntt_scratch_size(d, 1) + 64);
        for (int kind = 0; kind < 4; kind++) {
            memcpy(want, x, N * sizeof(bn_fr_t));
            if (kind == MPI_SPLIT_NTT_FORWARD)
                bn_ntt_forward(d, want, sc, NULL);
            else if (kind == MPI_SPLIT_NTT_INVERSE)
                bn_ntt_inverse(d, want, sc, NULL);
            else if (kind == MPI_SPLIT_NTT_COSET_FORWARD)
                bn_ntt_coset_forward(d, want, sc, NULL);
            else
                bn_ntt_coset_inverse(d, want, sc, NULL);
            rank_t tmpl = {.log_n = log_n, .kind = (mpi_split_ntt_kind_t)kind, .x = x, .want = want};
            char what[64];
            snprintf(what, sizeof what, "2^%u, %s", log_n, names[kind]);
            run_ranks_upto(MAX_R, &tmpl, what);
        }
        /* the odd-coset redistribution: out[i] = x[k], 2k + 1 = mult (2i + 1) mod 2N */
        static const uint64_t mults[3] = {SNARKJS_BN_ROOT_EXP, 3, 0x1234567u};
        for (int m = 0; m < 3; m++) {
            for (uint64_t i = 0; i < N; i++)
                want[i] = x[((mults[m] * (2 * i + 1)) & (2 * N - 1)) >> 1];
            rank_t tmpl = {.log_n = log_n, .x = x, .want = want, .mult = mults[m]};
            char what[64];
            snprintf(what, sizeof what, "2^%u, odd permutation by %llu", log_n, (unsigned long long)mults[m]);
            run_ranks_upto(MAX_R, &tmpl, what);
        }
        gm_free(sc);
        bn_ntt_domain_destroy(d);
        gm_free(x);
        gm_free(want);
    }
    mpi_split_bn_ntt_t *t;
    err_t err;
    cr_assert_eq(mpi_split_bn_ntt_create(&t, 1, 0, 1, 1, &err), GM_EINVAL);
    cr_assert_null(t);
}
