/*
 * mpi/split_run_shape.h — the driver of a split proof (mpi_split_run's
 * body: the h stage and the order of work of mpi/split.c's DESIGN comment)
 * for every curve. A template, not a header: mpi/split.c includes it once
 * per curve, after its curve-free parts (the context, the agreements, the
 * waits) and after defining the parameters below; every name it defines is
 * prefixed by SR() so the two instances live side by side, and all are
 * #undef'd at the end. Parameters:
 *   SR(x)            the prefix of this instance's static names
 *   SR_FR(x)         fr_x | bn_fr_x;   SR_G1(x), SR_G2(x)   g1_x | bn_g1_x, ...
 *   SR_FR_ONE, SR_FR_GENERATOR          1 and bellperson's coset shift
 *   SR_NTT(x), SR_NTT_T                 the split NTT (mpi/mpi.h)
 *   SR_SUMS_T, SR_SOURCE_T, SR_PROOF_T  the partial sums, the source, the proof
 *   SR_ROOT_EXP      snarkjs's root of unity is ours to this power
 *   SR_RANDOM_RS(rs, err)               r, s drawn at random
 */
#define exch_t SR(exch_t)
#define mpi_alltoallv_fr SR(mpi_alltoallv_fr)
#define hpw_job_t SR(hpw_job_t)
#define hpw_task SR(hpw_task)
#define h_stage_t SR(h_stage_t)
#define hi_lo SR(hi_lo)
#define h_free SR(h_free)
#define h_prepare SR(h_prepare)
#define h_run SR(h_run)
#define split_run SR(split_run)

/* The all-to-all of the split NTT: MPI_Alltoallv in elements of 32 bytes
 * (counts fit an int: at most 2^28 / R values per rank), with its bytes to
 * and from other ranks and its wait in the stage "ntt". */
typedef struct {
    split_ctx_t *c;
    MPI_Datatype fr;
    int *sc, *sd, *rc, *rd; /* 4 x size ints */
} exch_t;

static int mpi_alltoallv_fr(void *arg, const SR_FR(t) *send, const uint64_t *scount, const uint64_t *sdispl, SR_FR(t) *recv,
                            const uint64_t *rcount, const uint64_t *rdispl, err_t *err)
{
    exch_t *x = arg;
    split_ctx_t *c = x->c;
    for (int r = 0; r < c->size; r++) {
        x->sc[r] = (int)scount[r], x->sd[r] = (int)sdispl[r];
        x->rc[r] = (int)rcount[r], x->rd[r] = (int)rdispl[r];
        if (r != c->rank) {
            c->st.sent[MPI_SPLIT_NTT] += scount[r] * sizeof(SR_FR(t));
            c->st.recv[MPI_SPLIT_NTT] += rcount[r] * sizeof(SR_FR(t));
        }
    }
    uint64_t t0 = wait_begin();
    int mpirc = MPI_Alltoallv(send, x->sc, x->sd, x->fr, recv, x->rc, x->rd, x->fr, c->comm);
    wait_end(c, MPI_SPLIT_NTT, t0);
    if (mpirc != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "rank %d: MPI_Alltoallv of the split NTT failed (%d)", c->rank, mpirc);
    return 0;
}

typedef struct {
    SR_FR(t) *h;
    const SR_FR(t) *b, *c, *zinv; /* zinv NULL: no division (snarkjs's h) */
    uint64_t n;
} hpw_job_t;

/* h = (a·b − c) / Z(g) (or a·b − c) on this rank's slice of the coset, a
 * already in h.
 * (1) Why: as groth16/prove.c's and snarkjs/prove.c's pointwise passes, on a slice.
 * (2) Invariants: reduced Fr values; task t owns [t·4096, (t+1)·4096).
 * (3) Part of the stage "h" of `grothmpi prove --split --verbose`. */
static void hpw_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const hpw_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * 4096, i1 = i0 + 4096 < j->n ? i0 + 4096 : j->n;
    for (uint64_t i = i0; i < i1; i++) {
        SR_FR(mul)(&j->h[i], &j->h[i], &j->b[i]);
        SR_FR(sub)(&j->h[i], &j->h[i], &j->c[i]);
        if (j->zinv)
            SR_FR(mul)(&j->h[i], &j->h[i], j->zinv);
    }
}

/* The h stage's plan and buffers: made before the first exchange, with the
 * load's local work, so that a rank out of memory stops every rank at that
 * agreement rather than leaving them in an all-to-all. */
typedef struct {
    bool sj; /* snarkjs's h */
    unsigned log_m;
    SR_NTT_T *t;
    SR_FR(t) *a, *b, *cc, *out; /* a, b, c on the natural slice; out: snarkjs's h on the H slice */
    uint64_t lo, hi, olo, ohi;
    exch_t x;
    bool typed; /* x.fr committed */
} h_stage_t;

static uint64_t hi_lo(const h_stage_t *hs) { return hs->hi - hs->lo; }

static void h_free(h_stage_t *hs)
{
    if (hs->typed)
        MPI_Type_free(&hs->x.fr);
    free(hs->x.sc);
    gm_free(hs->a);
    gm_free(hs->b);
    gm_free(hs->cc);
    gm_free(hs->out);
    SR_NTT(destroy)(hs->t);
    memset(hs, 0, sizeof *hs);
}

/* Local: the split NTT of 2^log_m values for this rank, its slices and
 * buffers. */
static int h_prepare(h_stage_t *hs, split_ctx_t *c, mpi_split_h_kind_t kind, unsigned log_m, topo_pool_t *pool,
                     err_t *err)
{
    hs->sj = kind == MPI_SPLIT_H_SNARKJS;
    hs->log_m = log_m;
    hs->x.c = c;
    int rc = SR_NTT(create)(&hs->t, log_m, (unsigned)c->rank, (unsigned)c->size, topo_pool_size(pool), err);
    if (rc)
        return rc;
    SR_NTT(range)(hs->t, &hs->lo, &hs->hi);
    groth16_slice_range(&hs->olo, &hs->ohi, 1ULL << log_m, (unsigned)c->rank, (unsigned)c->size);
    uint64_t n = hi_lo(hs);
    hs->a = gm_alloc((size_t)(n + 1) * sizeof(SR_FR(t)));
    hs->b = gm_alloc((size_t)(n + 1) * sizeof(SR_FR(t)));
    hs->cc = gm_alloc((size_t)(n + 1) * sizeof(SR_FR(t)));
    hs->out = hs->sj ? gm_alloc((size_t)(hs->ohi - hs->olo + 1) * sizeof(SR_FR(t))) : NULL;
    hs->x.sc = malloc(4 * (size_t)c->size * sizeof(int));
    if (!hs->a || !hs->b || !hs->cc || (hs->sj && !hs->out) || !hs->x.sc)
        return gm_err_set(err, GM_ENOMEM, "split: out of memory for the h slice (%llu values)", (unsigned long long)n);
    hs->x.sd = hs->x.sc + c->size, hs->x.rc = hs->x.sd + c->size, hs->x.rd = hs->x.rc + c->size;
    if (MPI_Type_contiguous((int)sizeof(SR_FR(t)), MPI_BYTE, &hs->x.fr) != MPI_SUCCESS ||
        MPI_Type_commit(&hs->x.fr) != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "rank %d: MPI_Type_contiguous failed", c->rank);
    hs->typed = true;
    return 0;
}

/* This rank's slice of h, on the H query's slice: for bellperson's kind
 * indices [lo, hi) of groth16_slice_range(m - 1) plus index m - 1 on the
 * last rank, which no H point meets; for snarkjs's groth16_slice_range(m).
 * The source's rows of a, b, c, then the NTTs split over the ranks. *h is
 * taken from hs (gm_alloc'd: the caller frees it). */
static int h_run(SR_FR(t) **h, h_stage_t *hs, split_ctx_t *c, const SR_SOURCE_T *src, topo_pool_t *pool, err_t *err)
{
    *h = NULL;
    uint64_t n = hi_lo(hs), m = 1ULL << hs->log_m;
    uint64_t t0 = gm_now_ns();
    src->rows(src->arg, hs->a, hs->b, hs->cc, hs->lo, hs->hi, pool);
    c->st.abc_ns = gm_now_ns() - t0;
    if (hs->sj) {
        SR_FR(t) shift;
        SR_FR(root_of_unity)(&shift, hs->log_m + 1);
        SR_NTT(set_coset)(hs->t, &shift);
    }
    int rc = 0;
    SR_FR(t) *v[3] = {hs->a, hs->b, hs->cc};
    for (int i = 0; i < 3 && !rc; i++)
        if (!(rc = SR_NTT(transform)(hs->t, v[i], MPI_SPLIT_NTT_INVERSE, mpi_alltoallv_fr, &hs->x, pool, err)))
            rc = SR_NTT(transform)(hs->t, v[i], MPI_SPLIT_NTT_COSET_FORWARD, mpi_alltoallv_fr, &hs->x, pool,
                                         err);
    if (!rc) {
        SR_FR(t) zinv, gm;
        SR_FR(pow)(&gm, &SR_FR_GENERATOR, &m, 1);
        SR_FR(sub)(&gm, &gm, &SR_FR_ONE);
        SR_FR(inv)(&zinv, &gm);
        hpw_job_t pj = {.h = hs->a, .b = hs->b, .c = hs->cc, .zinv = hs->sj ? NULL : &zinv, .n = n};
        topo_pool_run(pool, (size_t)((n + 4095) / 4096), hpw_task, &pj);
        if (hs->sj)
            rc = SR_NTT(odd_permute)(hs->t, hs->out, hs->a, SR_ROOT_EXP, mpi_alltoallv_fr, &hs->x, err);
        else
            rc = SR_NTT(transform)(hs->t, hs->a, MPI_SPLIT_NTT_COSET_INVERSE, mpi_alltoallv_fr, &hs->x, pool,
                                         err);
    }
    c->st.h_ns = gm_now_ns() - t0 - c->st.abc_ns;
    c->st.ntt_bytes = SR_NTT(memory)(hs->t) + 3 * (n + 1) * sizeof(SR_FR(t)) +
                      (hs->sj ? (hs->ohi - hs->olo + 1) * sizeof(SR_FR(t)) : 0);
    if (!rc) {
        SR_FR(t) **res = hs->sj ? &hs->out : &hs->a;
        *h = *res;
        *res = NULL;
    }
    return rc;
}

static int split_run(SR_PROOF_T *proof, mpi_split_rank_t **ranks, const SR_SOURCE_T *src, const SR_FR(t) *rs_in,
                  const void *comm, topo_pool_t *pool, err_t *err)
{
    *ranks = NULL;
    split_ctx_t c;
    ctx_init(&c, comm);
    uint64_t start = gm_now_ns(), t0 = start;
    SR_FR(t) *h = NULL;
    SR_SUMS_T mine, *all = NULL;
    mpi_split_rank_t *stats = NULL;
    SR_FR(t) rs[2];
    unsigned log_m = 0;
    h_stage_t hs;
    memset(&hs, 0, sizeof hs);

    /* 1. this rank's share of the key, and the h stage's buffers; a zkey's
     * section-4 entries to the ranks of their rows */
    int rc = src->load(src->arg, c.rank, c.size, pool, &log_m, &c.st.key_bytes, &c.st.points, err);
    c.st.load_ns = gm_now_ns() - t0;
    if (!rc)
        rc = h_prepare(&hs, &c, src->h_kind, log_m, pool, err);
    if ((rc = agree(&c, rc, err)))
        goto out;
    if (src->share && (rc = share_coefs(&c, src->arg, src->share, src->shared, err)))
        goto out;

    /* 2. h, and r, s. A failure inside the split NTT's collectives (MPI)
     * is not recoverable by agreement; the local ones were agreed on above,
     * before the first exchange. */
    rc = h_run(&h, &hs, &c, src, pool, err);
    h_free(&hs);
    if (!rc && c.rank == 0) {
        if (rs_in)
            rs[0] = rs_in[0], rs[1] = rs_in[1];
        else
            rc = SR_RANDOM_RS(rs, err);
    }
    if ((rc = agree(&c, rc, err)))
        goto out;
    if (!rs_in) {
        uint64_t tw = wait_begin();
        int mpirc = MPI_Bcast(rs, (int)sizeof rs, MPI_BYTE, 0, c.comm);
        wait_end(&c, MPI_SPLIT_AGREE, tw);
        if (c.rank == 0)
            c.st.sent[MPI_SPLIT_AGREE] += sizeof rs * (uint64_t)(c.size - 1);
        else
            c.st.recv[MPI_SPLIT_AGREE] += sizeof rs;
        if (mpirc != MPI_SUCCESS && (rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Bcast of r, s failed", c.rank)))
            goto out;
    }

    /* 3. the partial MSMs */
    t0 = gm_now_ns();
    rc = src->msms(src->arg, &mine, h, pool, err);
    c.st.msm_ns = gm_now_ns() - t0;
    if ((rc = agree(&c, rc, err)))
        goto out;

    /* 4. the sums to rank 0, the proof there */
    if (c.rank == 0 && !(all = malloc((size_t)c.size * sizeof *all))) {
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory");
        goto out;
    }
    uint64_t tw = wait_begin();
    int mpirc = MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, c.comm);
    wait_end(&c, MPI_SPLIT_REDUCE, tw);
    if (c.rank == 0)
        c.st.recv[MPI_SPLIT_REDUCE] += sizeof mine * (uint64_t)(c.size - 1);
    else
        c.st.sent[MPI_SPLIT_REDUCE] += sizeof mine;
    if (mpirc != MPI_SUCCESS) {
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Gather of the partial sums failed (%d)", c.rank, mpirc);
    } else if (c.rank == 0) {
        SR_SUMS_T t = all[0];
        for (int i = 1; i < c.size; i++) {
            SR_G1(add)(&t.a, &t.a, &all[i].a);
            SR_G1(add)(&t.b_g1, &t.b_g1, &all[i].b_g1);
            SR_G2(add)(&t.b_g2, &t.b_g2, &all[i].b_g2);
            SR_G1(add)(&t.l, &t.l, &all[i].l);
            SR_G1(add)(&t.h, &t.h, &all[i].h);
        }
        rc = src->assemble(src->arg, proof, &t, rs, err);
    }
    if ((rc = agree(&c, rc, err)))
        goto out;

    /* the accounts, to rank 0 */
    c.st.total_ns = gm_now_ns() - start;
    c.st.mem_peak = gm_mem_peak();
    c.st.rss_peak = gm_rss_peak();
    if (c.rank == 0 && !(stats = malloc((size_t)c.size * sizeof *stats))) {
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory");
    }
    if ((rc = agree(&c, rc, err)))
        goto out;
    if (MPI_Gather(&c.st, (int)sizeof c.st, MPI_BYTE, stats, (int)sizeof c.st, MPI_BYTE, 0, c.comm) !=
        MPI_SUCCESS)
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Gather of the accounts failed", c.rank);
    if ((rc = agree(&c, rc, err)))
        goto out;
    if (c.rank == 0) {
        *ranks = stats;
        stats = NULL;
    }
out:
    h_free(&hs);
    free(stats);
    free(all);
    gm_free(h);
    return rc;
}

#undef exch_t
#undef mpi_alltoallv_fr
#undef hpw_job_t
#undef hpw_task
#undef h_stage_t
#undef hi_lo
#undef h_free
#undef h_prepare
#undef h_run
#undef split_run
#undef SR
#undef SR_FR
#undef SR_G1
#undef SR_G2
#undef SR_FR_ONE
#undef SR_FR_GENERATOR
#undef SR_NTT
#undef SR_NTT_T
#undef SR_SUMS_T
#undef SR_SOURCE_T
#undef SR_PROOF_T
#undef SR_ROOT_EXP
#undef SR_RANDOM_RS
