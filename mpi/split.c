/*
 * mpi/split.c — one proof on all the ranks of the job (mpi_split_run, the
 * driver of `grothmpi prove --split` and `grothmpi snarkjs prove --split`):
 * each rank holds 1/R of every query of the key. What differs between a
 * parameter file with a built-in circuit (mpi_split_prove, here) and a
 * zkey with a .wtns (mpi/split_snarkjs.c) is a source of callbacks
 * (mpi/split_internal.h); the driver is one.
 *
 * Order of work, every rank (the calling thread makes every MPI call; the
 * pool only computes):
 *   1. load: the source's slices of the key (for a parameter file h, l, a,
 *      b_g1, b_g2 by pread at offsets, groth16_params_load_slice) and the
 *      h stage's plan and buffers — then agree: one status for all ranks
 *      (so a rank out of memory never leaves the others in an exchange);
 *      for a zkey, whose section 4 each rank reads in its share by index,
 *      the entries then go to the ranks of their rows (share_records: two
 *      all-to-alls, stage "coefs") and the source ends its load with them;
 *   2. h: this rank's rows of a, b, c (the source's, over its natural
 *      slice of the domain), then the NTTs of h's kind (bellperson's seven:
 *      iNTT and coset NTT of each, (a·b − c) / Z, coset iNTT; snarkjs's
 *      six: iNTT and odd-coset NTT of each, a·b − c, then one permutation
 *      into snarkjs's order), every NTT split over the ranks
 *      (mpi/split_ntt.c, three MPI_Alltoallv each), which leaves each rank
 *      exactly the h values of its H points — then agree, and r, s
 *      broadcast from rank 0 when the caller gave none;
 *   3. msm: the source's five partial MSMs on the pool, one term each
 *      through the MSM stage of every prover (groth16/sums_shape.h; for a
 *      parameter file, the scalars of a and b_* are the z values of the
 *      density's set bits whose rank among the set bits is in [lo, hi); for
 *      l the aux values; for h the h values);
 *   4. reduce: the partial sums go to rank 0 (one MPI_Gather of 4 G1 and
 *      1 G2 Jacobian points per rank, as bytes: the cluster runs one
 *      binary), which adds them in rank order, assembles the proof
 *      (groth16_proof_assemble) and verifies it; its status is broadcast so
 *      every rank returns the same code.
 * The partial sums add up to the one-rank MSMs' sums (the point group is
 * commutative and the affine result unique), so the proof's bytes are those
 * of the one-rank prover with the same r and s.
 */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/split_internal.h"

const char *const mpi_split_stage_names[MPI_SPLIT_NSTAGES] = {"agree", "ntt", "reduce", "coefs"};

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

/* ---- the source of a parameter file and a built-in circuit -------------------------- */

typedef struct {
    const mpi_split_job_t *job;
    groth16_params_slice_t ps;
} params_src_t;

static int params_load(void *arg, int rank, int nranks, topo_pool_t *pool, unsigned *log_m, uint64_t *key_bytes,
                       uint64_t *points, err_t *err)
{
    params_src_t *p = arg;
    const mpi_split_job_t *job = p->job;
    int rc = groth16_params_load_slice(&p->ps, job->params_path, job->shape, (unsigned)rank, (unsigned)nranks,
                                       job->load_flags, pool, err);
    if (rc)
        return rc;
    /* m = H's count + 1, a power of two (checked against the shape) */
    *log_m = (unsigned)__builtin_ctzll(p->ps.n.h + 1);
    *key_bytes = groth16_params_slice_memory(&p->ps);
    *points = 0;
    for (int s = 0; s < GROTH16_NSEC; s++)
        *points += p->ps.hi[s] - p->ps.lo[s];
    return 0;
}

/* A slice may start past the constraint rows (n_rows is often little more
 * than m/2): then it is all zero padding. */
static void params_rows(void *arg, fr_t *a, fr_t *b, fr_t *c, uint64_t lo, uint64_t hi, topo_pool_t *pool)
{
    params_src_t *p = arg;
    const cs_shape_t *sh = p->job->shape;
    const groth16_witness_t *w = p->job->w;
    uint64_t n = hi - lo, rows_hi = hi < sh->n_rows ? hi : sh->n_rows, rows = rows_hi > lo ? rows_hi - lo : 0;
    if (rows)
        cs_shape_abc_rows(sh, w->inputs, w->aux, a, b, c, CS_ABC_EXACT, lo, lo + rows, pool);
    memset(a + rows, 0, (size_t)(n - rows) * sizeof(fr_t));
    memset(b + rows, 0, (size_t)(n - rows) * sizeof(fr_t));
    memset(c + rows, 0, (size_t)(n - rows) * sizeof(fr_t));
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

/* The MSM stage of every prover (groth16/sums_shape.h), for the parameter
 * file's slices; the split has its own NTT (no SS_NTT). */
#define SS_FR(x) fr_##x
#define SS_G1(x) g1_##x
#define SS_G2(x) g2_##x
#define SS_MSM(g) msm_##g
#include "groth16/sums_shape.h"

/* The five partial MSMs of this rank's slices, run together: A and B each
 * over their own gathered z values (the A and B slices' scalars are held
 * at once, a slice of scalars more than one buffer taken in turn). */
static int params_msms(void *arg, mpi_split_sums_t *sums, const fr_t *h, topo_pool_t *pool, err_t *err)
{
    params_src_t *p = arg;
    const groth16_params_slice_t *ps = &p->ps;
    const groth16_witness_t *w = p->job->w;
    const uint64_t *lo = ps->lo, *hi = ps->hi;
    uint64_t na = hi[GROTH16_SEC_A] - lo[GROTH16_SEC_A], nb = hi[GROTH16_SEC_B_G1] - lo[GROTH16_SEC_B_G1];
    uint64_t *da = NULL, *db = NULL;
    int rc = groth16_query_density(&da, &db, p->job->shape, err);
    if (rc)
        return rc;
    fr_t *sa = gm_alloc((size_t)(na + 1) * sizeof(fr_t)), *sb = gm_alloc((size_t)(nb + 1) * sizeof(fr_t));
    if (!sa || !sb) {
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory for %llu scalars", (unsigned long long)(na + nb));
        goto out;
    }
    gather_dense(sa, da, w, lo[GROTH16_SEC_A], hi[GROTH16_SEC_A]);
    gather_dense(sb, db, w, lo[GROTH16_SEC_B_G1], hi[GROTH16_SEC_B_G1]);
    sums_spec_t sp;
    sp.g1[SUM_A] = sum_dense(ps->a, sa, na, NULL);
    sp.g1[SUM_B1] = sum_dense(ps->b_g1, sb, nb, NULL);
    sp.b2 = sum_dense(ps->b_g2, sb, nb, NULL); /* b_g1 and b_g2 are sliced alike (equal counts): the same scalars */
    sp.g1[SUM_L] = sum_dense(ps->l, w->aux + lo[GROTH16_SEC_L], hi[GROTH16_SEC_L] - lo[GROTH16_SEC_L], NULL);
    sp.g1[SUM_H] = sum_dense(ps->h, h, hi[GROTH16_SEC_H] - lo[GROTH16_SEC_H], NULL); /* h: this rank's slice, from lo */
    sums_t x;
    sums_ctx_t c = {NULL, pool}; /* sums_cpu sizes the scratch for the largest slice */
    if (!(rc = sums_cpu(&x, &sp, &c, err)))
        *sums = (mpi_split_sums_t){.a = x.g1[SUM_A], .b_g1 = x.g1[SUM_B1], .l = x.g1[SUM_L], .h = x.g1[SUM_H],
                                   .b_g2 = x.b2};
out:
    gm_free(sa);
    gm_free(sb);
    gm_free(da);
    gm_free(db);
    return rc;
}

/* Rank 0: the proof, its check. */
static int params_assemble(void *arg, groth16_proof_t *proof, const mpi_split_sums_t *t, const fr_t rs[2], err_t *err)
{
    params_src_t *p = arg;
    const groth16_params_slice_t *ps = &p->ps;
    const mpi_split_job_t *job = p->job;
    groth16_proof_assemble(proof, &ps->vk, &t->a, &t->b_g1, &t->b_g2, &t->l, &t->h, &rs[0], &rs[1]);
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

/* A compact witness (groth16_witness_t.aux_compact: PoRep units of a
 * campaign) is expanded to the dense form the slices read, for the proof. */
int mpi_split_prove(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_job_t *job, err_t *err)
{
    *ranks = NULL;
    const cs_compact_t *cz = job->w ? job->w->aux_compact : NULL;
    fr_t *aux = NULL;
    groth16_witness_t w;
    mpi_split_job_t j = *job;
    if (cz) {
        if (!(aux = gm_alloc((size_t)(cz->n ? cz->n : 1) * sizeof(fr_t))))
            return gm_err_set(err, GM_ENOMEM, "split proof: out of memory to expand a compact witness of %llu values",
                              (unsigned long long)cz->n);
        cs_compact_expand(aux, cz, 0, cz->n);
        w = *job->w;
        w.aux = aux;
        w.aux_compact = NULL;
        j.w = &w;
    }
    params_src_t p = {.job = &j};
    mpi_split_source_t src = {.arg = &p, .h_kind = MPI_SPLIT_H_BELLPERSON, .load = params_load,
                              .rows = params_rows, .msms = params_msms, .assemble = params_assemble};
    int rc = mpi_split_run(proof, ranks, &src, j.rs, j.comm, j.pool, err);
    groth16_params_slice_free(&p.ps);
    gm_free(aux);
    return rc;
}

/* ---- the records a rank read for others (a zkey's section-4 entries) ------------------ */

/* to[r] records of size bytes from out (grouped by rank, in rank order) to
 * each rank r, and *in (gm_alloc'd) the *n_in records of all ranks to this
 * one, rank 0's first: the counts by MPI_Alltoall, the records by
 * MPI_Alltoallv in units of one record (counts and offsets must fit an
 * int, checked), each local step agreed on before the next collective so
 * that no rank is left in one. Bytes and waits in stage "coefs". Returns 0
 * or a status agreed on every rank. */
static int share_records(split_ctx_t *c, const void *out, const uint64_t *to, size_t size, void **in,
                         uint64_t *n_in, err_t *err)
{
    *in = NULL;
    *n_in = 0;
    uint64_t *from = malloc((size_t)c->size * sizeof *from), so = 0, ro = 0; /* so, ro: records out, in */
    int *iv = malloc(4 * (size_t)c->size * sizeof *iv); /* send counts, offsets, receive counts, offsets */
    MPI_Datatype rec;
    bool typed = false;
    int rc = !from || !iv ? gm_err_set(err, GM_ENOMEM, "split: out of memory") : 0;
    if ((rc = agree(c, rc, err)))
        goto out;
    uint64_t t0 = wait_begin();
    int mpirc = MPI_Alltoall(to, 1, MPI_UINT64_T, from, 1, MPI_UINT64_T, c->comm);
    wait_end(c, MPI_SPLIT_COEFS, t0);
    c->st.sent[MPI_SPLIT_COEFS] += sizeof *to * (uint64_t)(c->size - 1);
    c->st.recv[MPI_SPLIT_COEFS] += sizeof *to * (uint64_t)(c->size - 1);
    if (mpirc != MPI_SUCCESS)
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Alltoall of the section-4 counts failed (%d)", c->rank, mpirc);
    for (int r = 0; r < c->size && !rc; r++) {
        if (so + to[r] > INT_MAX || ro + from[r] > INT_MAX) {
            rc = gm_err_set(err, GM_ENOTSUP, "split: rank %d: more than %d section-4 entries to send or to "
                            "receive (MPI's int counts and offsets)", c->rank, INT_MAX);
            break;
        }
        iv[r] = (int)to[r], iv[c->size + r] = (int)so, iv[2 * c->size + r] = (int)from[r];
        iv[3 * c->size + r] = (int)ro;
        so += to[r], ro += from[r];
    }
    if (!rc && !(*in = gm_alloc((size_t)(ro ? ro : 1) * size)))
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory for %llu section-4 entries", (unsigned long long)ro);
    if (!rc && (MPI_Type_contiguous((int)size, MPI_BYTE, &rec) != MPI_SUCCESS || MPI_Type_commit(&rec) != MPI_SUCCESS))
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Type_contiguous failed", c->rank);
    else if (!rc)
        typed = true;
    if ((rc = agree(c, rc, err)))
        goto out;
    t0 = wait_begin();
    mpirc = MPI_Alltoallv(out, iv, iv + c->size, rec, *in, iv + 2 * c->size, iv + 3 * c->size, rec, c->comm);
    wait_end(c, MPI_SPLIT_COEFS, t0);
    c->st.sent[MPI_SPLIT_COEFS] += (so - to[c->rank]) * size;
    c->st.recv[MPI_SPLIT_COEFS] += (ro - from[c->rank]) * size;
    if (mpirc != MPI_SUCCESS)
        rc = gm_err_set(err, GM_EMPI, "rank %d: MPI_Alltoallv of the section-4 entries failed (%d)", c->rank, mpirc);
    if (!(rc = agree(c, rc, err)))
        *n_in = ro;
out:
    if (typed)
        MPI_Type_free(&rec);
    free(from);
    free(iv);
    if (rc) {
        gm_free(*in);
        *in = NULL;
    }
    return rc;
}

/* After the load's agreement: the source's share of section 4 (share) to
 * the ranks of its entries' rows, and the entries of this rank's rows to
 * the source (shared), which ends its load with them; the time counted in
 * load. Returns 0 or a status agreed on every rank. */
static int share_coefs(split_ctx_t *c, void *arg, void (*share)(void *, const void **, const uint64_t **, size_t *),
                       int (*shared)(void *, void *, uint64_t, uint64_t *, err_t *), err_t *err)
{
    const void *recs;
    const uint64_t *to;
    size_t size;
    void *in;
    uint64_t n_in, t0 = gm_now_ns();
    share(arg, &recs, &to, &size);
    for (int r = 0; r < c->size; r++)
        c->st.coefs_read += to[r];
    int rc = 0;
    if (c->size == 1) { /* every entry is this rank's own: the source keeps its buffer */
        in = (void *)recs;
        n_in = to[0];
    } else {
        rc = share_records(c, recs, to, size, &in, &n_in, err);
    }
    if (!rc)
        rc = agree(c, shared(arg, in, n_in, &c->st.key_bytes, err), err);
    c->st.load_ns += gm_now_ns() - t0;
    return rc;
}

/* ---- the driver ------------------------------------------------------------------------ */

#define SR(x) bls_##x
#define SR_FR(x) fr_##x
#define SR_G1(x) g1_##x
#define SR_G2(x) g2_##x
#define SR_FR_ONE FR_ONE
#define SR_FR_GENERATOR FR_GENERATOR
#define SR_NTT(x) mpi_split_ntt_##x
#define SR_NTT_T mpi_split_ntt_t
#define SR_SUMS_T mpi_split_sums_t
#define SR_SOURCE_T mpi_split_source_t
#define SR_PROOF_T groth16_proof_t
#define SR_ROOT_EXP SNARKJS_ROOT_EXP
#define SR_RANDOM_RS(rs, err) groth16_random_fr(rs, 2, 256, err)
#include "mpi/split_run_shape.h"

int mpi_split_run(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_source_t *src, const fr_t *rs,
                  const void *comm, topo_pool_t *pool, err_t *err)
{
    return bls_split_run(proof, ranks, src, rs, comm, pool, err);
}

#define SR(x) bn_##x
#define SR_FR(x) bn_fr_##x
#define SR_G1(x) bn_g1_##x
#define SR_G2(x) bn_g2_##x
#define SR_FR_ONE BN254_FR_ONE
#define SR_FR_GENERATOR BN254_FR_GENERATOR
#define SR_NTT(x) mpi_split_bn_ntt_##x
#define SR_NTT_T mpi_split_bn_ntt_t
#define SR_SUMS_T mpi_split_bn_sums_t
#define SR_SOURCE_T mpi_split_bn_source_t
#define SR_PROOF_T snarkjs_bn_proof_t
#define SR_ROOT_EXP SNARKJS_BN_ROOT_EXP
#define SR_RANDOM_RS(rs, err) snarkjs_bn_random_rs(rs, err)
#include "mpi/split_run_shape.h"

int mpi_split_bn_run(snarkjs_bn_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_bn_source_t *src,
                     const bn_fr_t *rs, const void *comm, topo_pool_t *pool, err_t *err)
{
    return bn_split_run(proof, ranks, src, rs, comm, pool, err);
}

void mpi_split_print(const mpi_split_rank_t *ranks, int n, FILE *f)
{
    fprintf(f, "split: %d rank%s; times in s, memory in MiB, bytes sent/received to/from other ranks\n", n,
            n == 1 ? "" : "s");
    fprintf(f, "split: %4s %8s %9s %10s %8s %8s %7s %7s %7s %7s %7s %13s %13s %13s %13s %7s\n", "rank", "key",
            "points", "coefs read", "h bufs", "mem pk", "load", "abc", "h", "msm", "total", "coefs sent", "ntt sent",
            "ntt recv", "reduce s/r", "wait");
    for (int i = 0; i < n; i++) {
        const mpi_split_rank_t *r = &ranks[i];
        uint64_t wait = 0;
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++)
            wait += r->wait_ns[s];
        fprintf(f, "split: %4d %8.2f %9llu %10llu %8.2f %8.1f %7.3f %7.3f %7.3f %7.3f %7.3f %13llu %13llu %13llu "
                "%6llu/%-6llu %7.3f\n",
                (int)r->rank, (double)r->key_bytes / 1048576.0, (unsigned long long)r->points,
                (unsigned long long)r->coefs_read, (double)r->ntt_bytes / 1048576.0, (double)r->mem_peak / 1048576.0,
                (double)r->load_ns * 1e-9, (double)r->abc_ns * 1e-9, (double)r->h_ns * 1e-9,
                (double)r->msm_ns * 1e-9, (double)r->total_ns * 1e-9, (unsigned long long)r->sent[MPI_SPLIT_COEFS],
                (unsigned long long)r->sent[MPI_SPLIT_NTT], (unsigned long long)r->recv[MPI_SPLIT_NTT],
                (unsigned long long)r->sent[MPI_SPLIT_REDUCE], (unsigned long long)r->recv[MPI_SPLIT_REDUCE],
                (double)wait * 1e-9);
    }
}
