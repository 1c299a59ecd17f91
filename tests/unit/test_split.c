/*
 * tests/unit/test_split.c — mpi/split_ntt.c, the NTT of a vector spread
 * over R ranks: for every R in 1..4 (3 divides no size) and every size
 * 2^3 .. 2^12, each of the four transforms gives, slice for slice, what
 * ntt/ntt.h gives for the whole vector (ntt/ has its own tests against an
 * O(n^2) DFT). The ranks run as R threads of this process, their
 * all-to-all a copy between them at a barrier (the exchange the transform
 * takes as a callback: tests/unit/split_ntt_harness.h). Random inputs;
 * replay with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "mpi/mpi.h"
#include "ntt/ntt.h"
#include "snarkjs/snarkjs.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(split, .init = init);

#define MAX_R 4
#define SH_FR fr_t
#define SH_EQ fr_eq
#define SH_NTT_T mpi_split_ntt_t
#define SH_NTT(name) mpi_split_ntt_##name
#include "tests/unit/split_ntt_harness.h"

Test(split, ntt_matches_the_whole_vector)
{
    test_rng_t rng;
    test_rng_init(&rng, "split ntt");
    static const char *const names[4] = {"forward", "inverse", "coset_forward", "coset_inverse"};
    for (unsigned log_n = 3; log_n <= 12; log_n++) {
        uint64_t N = 1ULL << log_n;
        fr_t *x = gm_alloc(N * sizeof(fr_t)), *want = gm_alloc(N * sizeof(fr_t));
        for (uint64_t i = 0; i < N; i++)
            fr_set_u64(&x[i], test_rng_next(&rng)), fr_sqr(&x[i], &x[i]); /* full-width values */
        ntt_domain_t *d;
        err_t err;
        cr_assert_eq(ntt_domain_create(&d, log_n, &err), 0);
        void *sc = gm_alloc(ntt_scratch_size(d, 1) + 64);
        for (int kind = 0; kind < 4; kind++) {
            memcpy(want, x, N * sizeof(fr_t));
            if (kind == MPI_SPLIT_NTT_FORWARD)
                ntt_forward(d, want, sc, NULL);
            else if (kind == MPI_SPLIT_NTT_INVERSE)
                ntt_inverse(d, want, sc, NULL);
            else if (kind == MPI_SPLIT_NTT_COSET_FORWARD)
                ntt_coset_forward(d, want, sc, NULL);
            else
                ntt_coset_inverse(d, want, sc, NULL);
            rank_t tmpl = {.log_n = log_n, .kind = (mpi_split_ntt_kind_t)kind, .x = x, .want = want};
            char what[64];
            snprintf(what, sizeof what, "2^%u, %s", log_n, names[kind]);
            run_ranks_upto(MAX_R, &tmpl, what);
        }
        gm_free(sc);
        ntt_domain_destroy(d);
        gm_free(x);
        gm_free(want);
    }
}

Test(split, ntt_slices_are_the_h_querys)
{
    /* The natural slices of N values are groth16_slice_range's of the N - 1
     * H points, the last rank holding value N - 1 besides. */
    for (unsigned R = 1; R <= 7; R++)
        for (unsigned log_n = 2; log_n <= 6; log_n++)
            for (unsigned r = 0; r < R; r++) {
                mpi_split_ntt_t *t;
                err_t err;
                cr_assert_eq(mpi_split_ntt_create(&t, log_n, r, R, 1, &err), 0);
                uint64_t lo, hi, hlo, hhi;
                mpi_split_ntt_range(t, &lo, &hi);
                groth16_slice_range(&hlo, &hhi, (1ULL << log_n) - 1, r, R);
                cr_assert_eq(lo, hlo);
                cr_assert_eq(hi, r == R - 1 ? hhi + 1 : hhi);
                mpi_split_ntt_destroy(t);
            }
    mpi_split_ntt_t *t;
    err_t err;
    cr_assert_eq(mpi_split_ntt_create(&t, 1, 0, 1, 1, &err), GM_EINVAL);
    cr_assert_null(t);
    cr_assert_eq(mpi_split_ntt_create(&t, 8, 3, 3, 1, &err), GM_EINVAL);
}

Test(split, coset_shift_matches_scaling_and_the_whole_ntt)
{
    /* snarkjs's odd coset (g = w_2N) and an arbitrary g: the coset forward
     * transform is x_j g^j then ntt_forward, the inverse ntt_inverse then
     * x_j g^-j, both computed here on the whole vector. */
    test_rng_t rng;
    test_rng_init(&rng, "split coset");
    for (unsigned log_n = 2; log_n <= 10; log_n++) {
        uint64_t N = 1ULL << log_n;
        fr_t *x = gm_alloc(N * sizeof(fr_t)), *want = gm_alloc(N * sizeof(fr_t));
        for (uint64_t i = 0; i < N; i++)
            fr_set_u64(&x[i], test_rng_next(&rng)), fr_sqr(&x[i], &x[i]);
        ntt_domain_t *d;
        err_t err;
        cr_assert_eq(ntt_domain_create(&d, log_n, &err), 0);
        void *sc = gm_alloc(ntt_scratch_size(d, 1) + 64);
        fr_t gs[2];
        fr_root_of_unity(&gs[0], log_n + 1);
        fr_set_u64(&gs[1], test_rng_next(&rng) | 1);
        for (int gi = 0; gi < 2; gi++) {
            fr_t ginv, p;
            fr_inv(&ginv, &gs[gi]);
            for (int inverse = 0; inverse < 2; inverse++) {
                memcpy(want, x, N * sizeof(fr_t));
                if (inverse)
                    ntt_inverse(d, want, sc, NULL);
                p = FR_ONE;
                for (uint64_t i = 0; i < N; i++) {
                    fr_mul(&want[i], &want[i], &p);
                    fr_mul(&p, &p, inverse ? &ginv : &gs[gi]);
                }
                if (!inverse)
                    ntt_forward(d, want, sc, NULL);
                rank_t tmpl = {.log_n = log_n, .x = x, .want = want, .coset = &gs[gi],
                               .kind = inverse ? MPI_SPLIT_NTT_COSET_INVERSE : MPI_SPLIT_NTT_COSET_FORWARD};
                char what[64];
                snprintf(what, sizeof what, "2^%u, g %s, %s", log_n, gi ? "random" : "w_2N",
                         inverse ? "coset inverse" : "coset forward");
                run_ranks_upto(MAX_R, &tmpl, what);
            }
        }
        gm_free(sc);
        ntt_domain_destroy(d);
        gm_free(x);
        gm_free(want);
    }
}

Test(split, odd_permute_moves_every_value_to_its_index)
{
    /* out[i] = x[k], 2k + 1 = mult (2i + 1) mod 2N, on the slices of all N
     * values, for snarkjs's J, the identity and 3; R up to 5 (more ranks
     * than values at N = 4). */
    test_rng_t rng;
    test_rng_init(&rng, "split permute");
    static const uint64_t mults[3] = {SNARKJS_ROOT_EXP, 1, 3};
    for (unsigned log_n = 2; log_n <= 10; log_n++) {
        uint64_t N = 1ULL << log_n;
        fr_t *x = gm_alloc(N * sizeof(fr_t)), *want = gm_alloc(N * sizeof(fr_t));
        for (uint64_t i = 0; i < N; i++)
            fr_set_u64(&x[i], test_rng_next(&rng));
        for (int mi = 0; mi < 3; mi++) {
            for (uint64_t i = 0; i < N; i++)
                want[i] = x[((mults[mi] * (2 * i + 1)) & (2 * N - 1)) >> 1];
            rank_t tmpl = {.log_n = log_n, .x = x, .want = want, .mult = mults[mi]};
            char what[64];
            snprintf(what, sizeof what, "2^%u, mult %llu", log_n, (unsigned long long)mults[mi]);
            run_ranks_upto(MAX_R + 1, &tmpl, what);
        }
        gm_free(x);
        gm_free(want);
    }
}
