/*
 * tests/unit/split_ntt_harness.h — R ranks of a split NTT (mpi/mpi.h,
 * mpi_split_*ntt_*) as R threads of the test process, their all-to-all a
 * copy between them at a barrier (the exchange the transform takes as a
 * callback; mpi/split.c's is MPI_Alltoallv, run under mpirun by
 * tests/integration/split_prove.sh). Each rank transforms (or redistributes
 * to the odd coset) its slice of x and compares it with the same slice of
 * want, the whole-vector answer the test computed with ntt/.
 *
 * A template for the curves' tests: the including file defines
 *   SH_FR           the element type (fr_t, bn_fr_t)
 *   SH_EQ(a, b)     its equality (fr_eq, bn_fr_eq)
 *   SH_NTT_T        the split NTT type (mpi_split_ntt_t, mpi_split_bn_ntt_t)
 *   SH_NTT(name)    its functions (mpi_split_ntt_##name, mpi_split_bn_ntt_##name)
 * and gets rank_t, run_ranks and run_ranks_upto (up to SH_MAX_R ranks).
 */
#ifndef SH_FR
#error "split_ntt_harness.h is a template: define SH_FR, SH_EQ, SH_NTT_T and SH_NTT first"
#endif

#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#define SH_MAX_R 5

/* What the R threads share: each one's send side, posted before a barrier. */
typedef struct {
    unsigned R;
    pthread_barrier_t bar;
    const SH_FR *send[SH_MAX_R];
    const uint64_t *scount[SH_MAX_R], *sdispl[SH_MAX_R];
    int bad; /* a count mismatch seen by some receiver */
} world_t;

typedef struct {
    world_t *wd;
    unsigned rank, log_n;
    mpi_split_ntt_kind_t kind;
    const SH_FR *x, *want; /* whole vectors */
    const SH_FR *coset;    /* NULL: the default coset */
    uint64_t mult;         /* non-zero: odd_permute by mult instead of a transform */
    int rc;
    uint64_t lo, hi;
    int mismatch; /* first differing index + 1, 0 if none */
} rank_t;

static int fake_alltoallv(void *arg, const SH_FR *send, const uint64_t *scount, const uint64_t *sdispl, SH_FR *recv,
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
            memcpy(recv + rdispl[r], wd->send[r] + wd->sdispl[r][me->rank], n * sizeof(SH_FR));
    }
    pthread_barrier_wait(&wd->bar); /* the senders' buffers are free again */
    return 0;
}

static void *rank_main(void *arg)
{
    rank_t *me = arg;
    err_t err;
    SH_NTT_T *t = NULL;
    me->rc = SH_NTT(create)(&t, me->log_n, me->rank, me->wd->R, 1, &err);
    if (me->rc)
        return NULL;
    if (me->coset)
        SH_NTT(set_coset)(t, me->coset);
    SH_NTT(range)(t, &me->lo, &me->hi);
    uint64_t n = me->hi - me->lo;
    SH_FR *v = gm_alloc((n + 1) * sizeof(SH_FR)), *res = v;
    memcpy(v, me->x + me->lo, n * sizeof(SH_FR));
    if (me->mult) {
        /* the result is on the slices of all N values */
        groth16_slice_range(&me->lo, &me->hi, 1ULL << me->log_n, me->rank, me->wd->R);
        n = me->hi - me->lo;
        res = gm_alloc((n + 1) * sizeof(SH_FR));
        me->rc = SH_NTT(odd_permute)(t, res, v, me->mult, fake_alltoallv, me, &err);
    } else {
        me->rc = SH_NTT(transform)(t, v, me->kind, fake_alltoallv, me, NULL, &err);
    }
    for (uint64_t i = 0; i < n && !me->mismatch; i++)
        if (!SH_EQ(&res[i], &me->want[me->lo + i]))
            me->mismatch = (int)(me->lo + i) + 1;
    if (res != v)
        gm_free(res);
    gm_free(v);
    SH_NTT(destroy)(t);
    return NULL;
}

/* Runs R ranks as threads on tmpl's x with tmpl's operation; fails the test
 * when a rank fails, the slices do not tile the vector, or a rank's slice
 * differs from want's. */
static void run_ranks(unsigned R, const rank_t *tmpl, const char *what)
{
    cr_assert(R >= 1 && R <= SH_MAX_R);
    world_t wd;
    memset(&wd, 0, sizeof wd);
    wd.R = R;
    pthread_barrier_init(&wd.bar, NULL, R);
    rank_t rk[SH_MAX_R];
    pthread_t th[SH_MAX_R];
    for (unsigned r = 0; r < R; r++) {
        rk[r] = *tmpl;
        rk[r].wd = &wd, rk[r].rank = r;
        cr_assert_eq(pthread_create(&th[r], NULL, rank_main, &rk[r]), 0);
    }
    for (unsigned r = 0; r < R; r++)
        pthread_join(th[r], NULL);
    pthread_barrier_destroy(&wd.bar);
    cr_assert_eq(wd.bad, 0, "%s, %u ranks: send and receive counts differ", what, R);
    uint64_t next = 0;
    for (unsigned r = 0; r < R; r++) {
        cr_assert_eq(rk[r].rc, 0, "%s, %u ranks: rank %u failed", what, R, r);
        cr_assert_eq(rk[r].lo, next, "%s, %u ranks: the slices do not tile", what, R);
        next = rk[r].hi;
        cr_assert_eq(rk[r].mismatch, 0, "%s, %u ranks: element %d differs", what, R, rk[r].mismatch - 1);
    }
    cr_assert_eq(next, 1ULL << tmpl->log_n, "%s, %u ranks: the slices do not cover the vector", what, R);
}

/* run_ranks for every R in 1 .. max_r. */
static void run_ranks_upto(unsigned max_r, const rank_t *tmpl, const char *what)
{
    for (unsigned R = 1; R <= max_r; R++)
        run_ranks(R, tmpl, what);
}
