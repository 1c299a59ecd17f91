/*
 * mpi/split.c — one proof on all the ranks of the job (mpi_split_prove,
 * `grothmpi prove --split`): each rank holds 1/R of every query of the key.
 *
 * Order of work, every rank (the calling thread makes every MPI call; the
 * pool only computes):
 *   1. load: this rank's slices of h, l, a, b_g1, b_g2 (pread at offsets,
 *      groth16_params_load_slice) — then agree: one status for all ranks;
 *   2. h: this rank's rows of a, b, c (cs_shape_abc_rows over its natural
 *      slice of the domain, zero past n_rows), then iNTT and coset NTT of
 *      each, the pointwise (a·b − c) / Z, and the coset iNTT, every NTT
 *      split over the ranks (mpi/split_ntt.c, three MPI_Alltoallv each),
 *      which leaves each rank exactly the h values of its H points — then
 *      agree, and r, s broadcast from rank 0 when the caller gave none;
 *   3. msm: the scalars of each slice are gathered into a dense array (for
 *      a and b_*, the z values of the density's set bits whose rank among
 *      the set bits is in [lo, hi); for l the aux values; for h the h
 *      values) and the five partial MSMs run on the pool;
 *   4. reduce: the partial sums go to rank 0 (one MPI_Gather of 4 G1 and
 *      1 G2 Jacobian points per rank, as bytes: the cluster runs one
 *      binary), which adds them in rank order, assembles the proof with
 *      groth16_proof_assemble and verifies it; its status is broadcast so
 *      every rank returns the same code.
 * The partial sums add up to the one-rank MSMs' sums (the point group is
 * commutative and the affine result unique), so the proof's bytes are those
 * of groth16_prove with the same r and s.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi.h"

const char *const mpi_split_stage_names[MPI_SPLIT_NSTAGES] = {"agree", "ntt", "reduce"};

/* The partial sums one rank sends to rank 0. */
typedef struct {
    g1_jac_t a, b_g1, l, h;
    g2_jac_t b_g2;
} split_sums_t;

typedef struct {
    MPI_Comm comm; /* the ranks proving together */
    int rank, size;
    mpi_split_rank_t st;
} split_ctx_t;

/* job->comm, or the world. */
static void ctx_init(split_ctx_t *c, const void *comm)
{
    memset(c, 0, sizeof *c);
    c->comm = comm ? *(const MPI_Comm *)comm : MPI_COMM_WORLD;
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    c->st.rank = c->rank;
}

/* Times an MPI call into stage s's wait. */
static uint64_t wait_begin(void) { return gm_now_ns(); }
static void wait_end(split_ctx_t *c, mpi_split_stage_t s, uint64_t t0) { c->st.wait_ns[s] += gm_now_ns() - t0; }

/* One status for all ranks: the lowest failing rank's code and message
 * ("rank R: ...") on every rank, or 0. */
static int agree(split_ctx_t *c, int rc, err_t *err)
{
    uint64_t t0 = wait_begin();
    int mine = rc ? c->rank : c->size, first = c->size;
    int mpirc = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->comm);
    c->st.sent[MPI_SPLIT_AGREE] += sizeof(int);
    c->st.recv[MPI_SPLIT_AGREE] += sizeof(int);
    if (mpirc != MPI_SUCCESS) {
        wait_end(c, MPI_SPLIT_AGREE, t0);
        return gm_err_set(err, GM_EMPI, "rank %d: MPI_Allreduce failed (%d)", c->rank, mpirc);
    }
    if (first == c->size) {
        wait_end(c, MPI_SPLIT_AGREE, t0);
        return 0;
    }
    struct {
        int code;
        char msg[sizeof err->msg];
    } m;
    memset(&m, 0, sizeof m);
    if (c->rank == first) {
        m.code = rc;
        snprintf(m.msg, sizeof m.msg, "%s", err->msg);
    }
    mpirc = MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, c->comm);
    if (c->rank == first)
        c->st.sent[MPI_SPLIT_AGREE] += sizeof m;
    else
        c->st.recv[MPI_SPLIT_AGREE] += sizeof m;
    wait_end(c, MPI_SPLIT_AGREE, t0);
    if (mpirc != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "rank %d: MPI_Bcast failed (%d)", c->rank, mpirc);
    /* The failing rank's message names the file and field already; the
     * prefix says which rank saw it. */
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", m.msg);
    return gm_err_set(err, m.code, "rank %d: %s", first, msg);
}

int mpi_split_agree(const void *comm, int rc, err_t *err)
{
    split_ctx_t c;
    ctx_init(&c, comm);
    return agree(&c, rc, err);
}

/* z_j for j < n_inputs + n_aux. */
static const fr_t *z_at(const groth16_witness_t *w, uint64_t j)
{
    return j < w->n_inputs ? &w->inputs[j] : &w->aux[j - w->n_inputs];
}

/* out[0 .. hi - lo) = the z values of the set bits of d whose rank among
 * the set bits is in [lo, hi): the scalars of query slice [lo, hi). */
static void gather_dense(fr_t *out, const uint64_t *d, const groth16_witness_t *w, uint64_t lo, uint64_t hi)
{
    uint64_t nv = w->n_inputs + w->n_aux, k = 0;
    for (uint64_t word = 0; word * 64 < nv && k < hi; word++) {
        uint64_t bits = d[word];
        uint64_t pc = (uint64_t)__builtin_popcountll(bits);
        if (k + pc <= lo) { /* the whole word is below the slice */
            k += pc;
            continue;
        }
        while (bits && k < hi) {
            uint64_t j = word * 64 + (uint64_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (k >= lo)
                out[k - lo] = *z_at(w, j);
            k++;
        }
    }
}

/* The five partial MSMs of this rank's slices. */
static int partial_msms(split_sums_t *sums, const groth16_params_slice_t *ps, const mpi_split_job_t *job,
                        const fr_t *h, topo_pool_t *pool, err_t *err)
{
    const groth16_witness_t *w = job->w;
    uint64_t *da = NULL, *db = NULL;
    int rc = groth16_query_density(&da, &db, job->shape, err);
    if (rc)
        return rc;
    uint64_t nmax = 0;
    for (int s = 0; s < GROTH16_NSEC; s++)
        if (ps->hi[s] - ps->lo[s] > nmax)
            nmax = ps->hi[s] - ps->lo[s];
    unsigned nw = topo_pool_size(pool);
    size_t ssz = msm_g1_scratch_size((size_t)nmax, nw, 0), s2 = msm_g2_scratch_size((size_t)nmax, nw, 0);
    void *scratch = gm_alloc(ssz > s2 ? ssz : s2);
    fr_t *sc = gm_alloc((size_t)(nmax + 1) * sizeof(fr_t));
    if (!scratch || !sc) {
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory for the MSM scratch of %llu points",
                        (unsigned long long)nmax);
        goto out;
    }
    uint64_t lo, n;
    lo = ps->lo[GROTH16_SEC_A], n = ps->hi[GROTH16_SEC_A] - lo;
    gather_dense(sc, da, w, lo, lo + n);
    msm_g1(&sums->a, ps->a, sc, NULL, (size_t)n, 0, scratch, pool);
    lo = ps->lo[GROTH16_SEC_B_G1], n = ps->hi[GROTH16_SEC_B_G1] - lo;
    gather_dense(sc, db, w, lo, lo + n);
    msm_g1(&sums->b_g1, ps->b_g1, sc, NULL, (size_t)n, 0, scratch, pool);
    /* b_g1 and b_g2 are sliced alike (equal counts): the same scalars. */
    msm_g2(&sums->b_g2, ps->b_g2, sc, NULL, (size_t)n, 0, scratch, pool);
    lo = ps->lo[GROTH16_SEC_L], n = ps->hi[GROTH16_SEC_L] - lo;
    msm_g1(&sums->l, ps->l, w->aux + lo, NULL, (size_t)n, 0, scratch, pool);
    lo = ps->lo[GROTH16_SEC_H], n = ps->hi[GROTH16_SEC_H] - lo;
    msm_g1(&sums->h, ps->h, h, NULL, (size_t)n, 0, scratch, pool); /* h: this rank's slice, from lo */
out:
    gm_free(scratch);
    gm_free(sc);
    gm_free(da);
    gm_free(db);
    return rc;
}

/* The all-to-all of the split NTT: MPI_Alltoallv in elements of 32 bytes
 * (counts fit an int: at most 2^28 / R values per rank), with its bytes to
 * and from other ranks and its wait in the stage "ntt". */
typedef struct {
    split_ctx_t *c;
    MPI_Datatype fr;
    int *sc, *sd, *rc, *rd; /* 4 x size ints */
} exch_t;

static int mpi_alltoallv_fr(void *arg, const fr_t *send, const uint64_t *scount, const uint64_t *sdispl, fr_t *recv,
                            const uint64_t *rcount, const uint64_t *rdispl, err_t *err)
{
    exch_t *x = arg;
    split_ctx_t *c = x->c;
    for (int r = 0; r < c->size; r++) {
        x->sc[r] = (int)scount[r], x->sd[r] = (int)sdispl[r];
        x->rc[r] = (int)rcount[r], x->rd[r] = (int)rdispl[r];
        if (r != c->rank) {
            c->st.sent[MPI_SPLIT_NTT] += scount[r] * sizeof(fr_t);
            c->st.recv[MPI_SPLIT_NTT] += rcount[r] * sizeof(fr_t);
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
    fr_t *h;
    const fr_t *b, *c, *zinv;
    uint64_t n;
} hpw_job_t;

/* h = (a·b − c) / Z(g) on this rank's slice of the coset, a already in h.
 * (1) Why: as groth16/prove.c's pointwise passes, on a slice.
 * (2) Invariants: reduced Fr values; task t owns [t·4096, (t+1)·4096).
 * (3) Part of the stage "h" of `grothmpi prove --split --verbose`. */
static void hpw_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const hpw_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * 4096, i1 = i0 + 4096 < j->n ? i0 + 4096 : j->n;
    for (uint64_t i = i0; i < i1; i++) {
        fr_mul(&j->h[i], &j->h[i], &j->b[i]);
        fr_sub(&j->h[i], &j->h[i], &j->c[i]);
        fr_mul(&j->h[i], &j->h[i], j->zinv);
    }
}

/* This rank's slice of h over the domain of m values (H query indices [lo, hi) of groth16_slice_range,
 * plus index m - 1 on the last rank, which no H point meets): its rows of
 * a, b, c from the shape, then the seven NTTs split over the ranks. *h is
 * gm_alloc'd (the caller frees it). */
static int split_h(fr_t **h, split_ctx_t *c, const mpi_split_job_t *job, uint64_t m, err_t *err)
{
    *h = NULL;
    const cs_shape_t *sh = job->shape;
    unsigned log_m = (unsigned)__builtin_ctzll(m); /* m = H's count + 1, a power of two (checked against the shape) */
    mpi_split_ntt_t *t = NULL;
    fr_t *b = NULL, *cc = NULL;
    exch_t x = {.c = c};
    int rc = mpi_split_ntt_create(&t, log_m, (unsigned)c->rank, (unsigned)c->size, topo_pool_size(job->pool), err);
    if (rc)
        return rc;
    uint64_t lo, hi;
    mpi_split_ntt_range(t, &lo, &hi);
    uint64_t n = hi - lo, rows_hi = hi < sh->n_rows ? hi : sh->n_rows, rows = rows_hi > lo ? rows_hi - lo : 0;
    *h = gm_alloc((size_t)(n + 1) * sizeof(fr_t));
    b = gm_alloc((size_t)(n + 1) * sizeof(fr_t));
    cc = gm_alloc((size_t)(n + 1) * sizeof(fr_t));
    x.sc = malloc(4 * (size_t)c->size * sizeof(int));
    if (!*h || !b || !cc || !x.sc) {
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory for the h slice (%llu values)", (unsigned long long)n);
        goto out;
    }
    x.sd = x.sc + c->size, x.rc = x.sd + c->size, x.rd = x.rc + c->size;
    uint64_t t0 = gm_now_ns();
    /* A slice may start past the constraint rows (n_rows is often little
     * more than m/2): then it is all zero padding. */
    if (rows)
        cs_shape_abc_rows(sh, job->w->inputs, job->w->aux, *h, b, cc, CS_ABC_EXACT, lo, lo + rows, job->pool);
    memset(*h + rows, 0, (size_t)(n - rows) * sizeof(fr_t));
    memset(b + rows, 0, (size_t)(n - rows) * sizeof(fr_t));
    memset(cc + rows, 0, (size_t)(n - rows) * sizeof(fr_t));
    c->st.abc_ns = gm_now_ns() - t0;
    if (MPI_Type_contiguous((int)sizeof(fr_t), MPI_BYTE, &x.fr) != MPI_SUCCESS || MPI_Type_commit(&x.fr) != MPI_SUCCESS) {
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Type_contiguous failed", c->rank);
        goto out;
    }
    fr_t *v[3] = {*h, b, cc};
    for (int i = 0; i < 3 && !rc; i++)
        if (!(rc = mpi_split_ntt_transform(t, v[i], MPI_SPLIT_NTT_INVERSE, mpi_alltoallv_fr, &x, job->pool, err)))
            rc = mpi_split_ntt_transform(t, v[i], MPI_SPLIT_NTT_COSET_FORWARD, mpi_alltoallv_fr, &x, job->pool, err);
    if (!rc) {
        fr_t zinv, gm;
        fr_pow(&gm, &FR_GENERATOR, &m, 1);
        fr_sub(&gm, &gm, &FR_ONE);
        fr_inv(&zinv, &gm);
        hpw_job_t pj = {.h = *h, .b = b, .c = cc, .zinv = &zinv, .n = n};
        topo_pool_run(job->pool, (size_t)((n + 4095) / 4096), hpw_task, &pj);
        rc = mpi_split_ntt_transform(t, *h, MPI_SPLIT_NTT_COSET_INVERSE, mpi_alltoallv_fr, &x, job->pool, err);
    }
    MPI_Type_free(&x.fr);
    c->st.h_ns = gm_now_ns() - t0 - c->st.abc_ns;
    c->st.ntt_bytes = mpi_split_ntt_memory(t) + 3 * (n + 1) * sizeof(fr_t);
out:
    free(x.sc);
    gm_free(b);
    gm_free(cc);
    mpi_split_ntt_destroy(t);
    if (rc) {
        gm_free(*h);
        *h = NULL;
    }
    return rc;
}

/* Rank 0: the sum of every rank's partial sums, the proof, its check. */
static int assemble_root(groth16_proof_t *proof, const split_sums_t *all, int n, const groth16_params_slice_t *ps,
                         const mpi_split_job_t *job, const fr_t rs[2], err_t *err)
{
    split_sums_t t = all[0];
    for (int i = 1; i < n; i++) {
        g1_add(&t.a, &t.a, &all[i].a);
        g1_add(&t.b_g1, &t.b_g1, &all[i].b_g1);
        g2_add(&t.b_g2, &t.b_g2, &all[i].b_g2);
        g1_add(&t.l, &t.l, &all[i].l);
        g1_add(&t.h, &t.h, &all[i].h);
    }
    groth16_proof_assemble(proof, &ps->vk, &t.a, &t.b_g1, &t.b_g2, &t.l, &t.h, &rs[0], &rs[1]);
    if (job->prove_flags & GROTH16_PROVE_NO_VERIFY)
        return 0;
    groth16_pvk_t pvk;
    int rc = groth16_pvk_prepare(&pvk, &ps->vk, err);
    if (rc)
        return rc;
    err_t e2;
    rc = groth16_verify(&pvk, proof, job->w->inputs + 1, job->w->n_inputs - 1, &e2);
    groth16_pvk_free(&pvk);
    if (rc)
        return gm_err_set(err, rc == GM_EVERIFY ? GM_EVERIFY : rc,
                          "split: the proof does not verify (%s): the witness does not satisfy the circuit, or "
                          "the parameters are not for it", e2.msg);
    return 0;
}

static int split_prove(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_job_t *job, err_t *err);

/* A compact witness (groth16_witness_t.aux_compact: PoRep units of a
 * campaign) is expanded to the dense form the slices read, for the proof. */
int mpi_split_prove(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_job_t *job, err_t *err)
{
    const cs_compact_t *cz = job->w ? job->w->aux_compact : NULL;
    if (!cz)
        return split_prove(proof, ranks, job, err);
    *ranks = NULL;
    fr_t *aux = gm_alloc((size_t)(cz->n ? cz->n : 1) * sizeof(fr_t));
    if (!aux)
        return gm_err_set(err, GM_ENOMEM, "split proof: out of memory to expand a compact witness of %llu values",
                          (unsigned long long)cz->n);
    cs_compact_expand(aux, cz, 0, cz->n);
    groth16_witness_t w = *job->w;
    w.aux = aux;
    w.aux_compact = NULL;
    mpi_split_job_t j = *job;
    j.w = &w;
    int rc = split_prove(proof, ranks, &j, err);
    gm_free(aux);
    return rc;
}

static int split_prove(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_job_t *job, err_t *err)
{
    *ranks = NULL;
    split_ctx_t c;
    ctx_init(&c, job->comm);
    uint64_t start = gm_now_ns(), t0 = start;
    groth16_params_slice_t ps;
    fr_t *h = NULL;
    split_sums_t mine, *all = NULL;
    mpi_split_rank_t *stats = NULL;
    fr_t rs[2];

    /* 1. this rank's share of the key */
    int rc = groth16_params_load_slice(&ps, job->params_path, job->shape, (unsigned)c.rank, (unsigned)c.size,
                                       job->load_flags, job->pool, err);
    c.st.load_ns = gm_now_ns() - t0;
    if ((rc = agree(&c, rc, err)))
        goto out;
    c.st.key_bytes = groth16_params_slice_memory(&ps);
    for (int s = 0; s < GROTH16_NSEC; s++)
        c.st.points += ps.hi[s] - ps.lo[s];

    /* 2. h, and r, s. A failure inside the split NTT's collectives (MPI)
     * is not recoverable by agreement; the others are local and come
     * before the first exchange. */
    rc = split_h(&h, &c, job, ps.n.h + 1, err);
    if (!rc && c.rank == 0) {
        if (job->rs)
            rs[0] = job->rs[0], rs[1] = job->rs[1];
        else
            rc = groth16_random_fr(rs, 2, 256, err);
    }
    if ((rc = agree(&c, rc, err)))
        goto out;
    if (!job->rs) {
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
    rc = partial_msms(&mine, &ps, job, h, job->pool, err);
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
    if (mpirc != MPI_SUCCESS)
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Gather of the partial sums failed (%d)", c.rank, mpirc);
    else if (c.rank == 0)
        rc = assemble_root(proof, all, c.size, &ps, job, rs, err);
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
    free(stats);
    free(all);
    gm_free(h);
    groth16_params_slice_free(&ps);
    return rc;
}

void mpi_split_print(const mpi_split_rank_t *ranks, int n, FILE *f)
{
    fprintf(f, "split: %d rank%s; times in s, memory in MiB, bytes sent/received to/from other ranks\n", n,
            n == 1 ? "" : "s");
    fprintf(f, "split: %4s %8s %9s %8s %8s %7s %7s %7s %7s %7s %13s %13s %13s %7s\n", "rank", "key", "points",
            "h bufs", "mem pk", "load", "abc", "h", "msm", "total", "ntt sent", "ntt recv", "reduce s/r", "wait");
    for (int i = 0; i < n; i++) {
        const mpi_split_rank_t *r = &ranks[i];
        uint64_t wait = 0;
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++)
            wait += r->wait_ns[s];
        fprintf(f, "split: %4d %8.2f %9llu %8.2f %8.1f %7.3f %7.3f %7.3f %7.3f %7.3f %13llu %13llu %6llu/%-6llu %7.3f\n",
                (int)r->rank, (double)r->key_bytes / 1048576.0, (unsigned long long)r->points,
                (double)r->ntt_bytes / 1048576.0, (double)r->mem_peak / 1048576.0, (double)r->load_ns * 1e-9,
                (double)r->abc_ns * 1e-9, (double)r->h_ns * 1e-9, (double)r->msm_ns * 1e-9,
                (double)r->total_ns * 1e-9, (unsigned long long)r->sent[MPI_SPLIT_NTT],
                (unsigned long long)r->recv[MPI_SPLIT_NTT], (unsigned long long)r->sent[MPI_SPLIT_REDUCE],
                (unsigned long long)r->recv[MPI_SPLIT_REDUCE], (double)wait * 1e-9);
    }
}
