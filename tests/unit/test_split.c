/*
 * tests/unit/test_split.c — mpi/split_ntt.c, the NTT of a vector spread
 * over R ranks: for every R in 1..4 (3 divides no size) and every size
 * 2^3 .. 2^12, each of the four transforms gives, slice for slice, what
 * ntt/ntt.h gives for the whole vector (ntt/ has its own tests against an
 * O(n^2) DFT). The ranks run as R threads of this process, their
 * all-to-all a copy between them at a barrier (the exchange the transform
 * takes as a callback; mpi/split.c's is MPI_Alltoallv, which
 * tests/integration/split_prove.sh runs under mpirun). Random inputs;
 * replay with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "mpi/mpi.h"
#include "ntt/ntt.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(split, .init = init);

#define MAX_R 4

/* What the R threads share: each one's send side, posted before a barrier. */
typedef struct {
    unsigned R;
    pthread_barrier_t bar;
    const fr_t *send[MAX_R];
    const uint64_t *scount[MAX_R], *sdispl[MAX_R];
    int bad; /* a count mismatch seen by some receiver */
} world_t;

typedef struct {
    world_t *wd;
    unsigned rank, log_n;
    mpi_split_ntt_kind_t kind;
    const fr_t *x, *want; /* whole vectors */
    int rc;
    uint64_t lo, hi;
    int mismatch; /* first differing index + 1, 0 if none */
} rank_t;

static int fake_alltoallv(void *arg, const fr_t *send, const uint64_t *scount, const uint64_t *sdispl, fr_t *recv,
                          const uint64_t *rcount, const uint64_t *rdispl, err_t *err)
{
    (void)err;
    rank_t *me = arg;
    world_t *wd = me->wd;
    wd->send[me->rank] = send, wd->scount[me->rank] = scount, wd->sdispl[me->rank] = sdispl;
    pthread_barrier_wait(&wd->bar);
    for (unsigned r = 0; r < wd->R; r++) {
        uint64_t n = wd->scount[r][me->rank];
        if (n != rcount[r])
            wd->bad = 1;
        else
            memcpy(recv + rdispl[r], wd->send[r] + wd->sdispl[r][me->rank], n * sizeof(fr_t));
    }
    pthread_barrier_wait(&wd->bar); /* the senders' buffers are free again */
    return 0;
}

static void *rank_main(void *arg)
{
    rank_t *me = arg;
    err_t err;
    mpi_split_ntt_t *t = NULL;
    me->rc = mpi_split_ntt_create(&t, me->log_n, me->rank, me->wd->R, 1, &err);
    if (me->rc)
        return NULL;
    mpi_split_ntt_range(t, &me->lo, &me->hi);
    uint64_t n = me->hi - me->lo;
    fr_t *v = gm_alloc((n + 1) * sizeof(fr_t));
    memcpy(v, me->x + me->lo, n * sizeof(fr_t));
    me->rc = mpi_split_ntt_transform(t, v, me->kind, fake_alltoallv, me, NULL, &err);
    for (uint64_t i = 0; i < n && !me->mismatch; i++)
        if (!fr_eq(&v[i], &me->want[me->lo + i]))
            me->mismatch = (int)(me->lo + i) + 1;
    gm_free(v);
    mpi_split_ntt_destroy(t);
    return NULL;
}

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
            for (unsigned R = 1; R <= MAX_R; R++) {
                world_t wd;
                memset(&wd, 0, sizeof wd);
                wd.R = R;
                pthread_barrier_init(&wd.bar, NULL, R);
                rank_t rk[MAX_R];
                pthread_t th[MAX_R];
                for (unsigned r = 0; r < R; r++) {
                    rk[r] = (rank_t){.wd = &wd, .rank = r, .log_n = log_n, .kind = (mpi_split_ntt_kind_t)kind,
                                     .x = x, .want = want};
                    cr_assert_eq(pthread_create(&th[r], NULL, rank_main, &rk[r]), 0);
                }
                for (unsigned r = 0; r < R; r++)
                    pthread_join(th[r], NULL);
                pthread_barrier_destroy(&wd.bar);
                cr_assert_eq(wd.bad, 0, "2^%u, %u ranks, %s: send and receive counts differ", log_n, R,
                             names[kind]);
                uint64_t next = 0;
                for (unsigned r = 0; r < R; r++) {
                    cr_assert_eq(rk[r].rc, 0, "2^%u, %u ranks: rank %u failed", log_n, R, r);
                    cr_assert_eq(rk[r].lo, next, "2^%u, %u ranks: the slices do not tile", log_n, R);
                    next = rk[r].hi;
                    cr_assert_eq(rk[r].mismatch, 0, "2^%u, %u ranks, %s: element %d differs", log_n, R,
                                 names[kind], rk[r].mismatch - 1);
                }
                cr_assert_eq(next, N);
            }
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
