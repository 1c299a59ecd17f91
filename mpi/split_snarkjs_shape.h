/*
 * mpi/split_snarkjs_shape.h — the source of a split proof of a zkey and a
 * .wtns (`grothmpi snarkjs prove --split`) for the driver of mpi/split.c,
 * for every curve: the rank's slices of the zkey
 * (snarkjs_zkey_load_slice) with its share of section 4 by index
 * (SNARKJS_ZKEY_COEF_SHARE), which the driver exchanges so that the rank
 * holds its rows' entries, the witness values it needs read from the
 * mapped .wtns, its rows of A·z and B·z accumulated from those entries as
 * snarkjs/prove.c does for all rows, its five partial MSMs (one term each
 * through groth16/sums_shape.h, the MSM stage of every prover), and rank
 * 0's assembly and check.
 *
 * A template, not a header: mpi/split_snarkjs.c (BLS12-381,
 * mpi_split_prove_snarkjs) and mpi/split_snarkjs_bn.c (BN254,
 * mpi_split_prove_snarkjs_bn) define the parameters below and the proof's
 * assembly and checks (proof_assemble, proof_in_subgroup, proof_verify),
 * include it once and wrap its prove_snarkjs by name. Parameters:
 *   SP_API(x)       snarkjs_x | snarkjs_bn_x (the zkey slice, the .wtns view)
 *   SP_FR(x), SP_G1(x), SP_G2(x)   fr_x | bn_fr_x, g1_x | bn_g1_x, g2_x | bn_g2_x
 *   SP_MSM(g)       msm_g | bn_msm_g
 *   SP_ROOT_EXP     SNARKJS_ROOT_EXP | SNARKJS_BN_ROOT_EXP (the row of constraint c)
 *   SP_SUMS_T, SP_SOURCE_T, SP_PROOF_T, SP_RUN   the driver's (mpi/split_internal.h)
 *   SP_JOB_RS(job)  the job's r, s for this curve
 */
#ifndef SP_FR
#error "split_snarkjs_shape.h is a template: define SP_API, SP_FR, ... and include it once"
#endif

#include <stdlib.h>
#include <string.h>

#include "mpi/split_internal.h"

/* The MSM stage of every prover; the split has its own NTT (no SS_NTT). */
#define SS_FR(x) SP_FR(x)
#define SS_G1(x) SP_G1(x)
#define SS_G2(x) SP_G2(x)
#define SS_MSM(g) SP_MSM(g)
#include "groth16/sums_shape.h"

typedef struct {
    const mpi_split_snarkjs_job_t *job;
    int rank;
    SP_API(zkey_slice_t) zs;
    SP_FR(t) *zab;  /* z[lo .. hi) of the A slice (B1 and B2 are sliced alike) */
    SP_FR(t) *zc;   /* z[nPublic + 1 + lo .. + hi) of the C slice */
    SP_FR(t) *zrow; /* the values the rows' entries name; each entry's signal is its index here */
    SP_FR(t) *pub;  /* rank 0: z[1 .. nPublic] */
    snarkjs_wtns_view_t v; /* open from the load to the end of the exchange (sj_shared) */
} sj_src_t;

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct signals of the rows' entries, their values, and each entry's
 * signal replaced by its index among them. */
static int load_row_values(sj_src_t *s, const snarkjs_wtns_view_t *v, err_t *err)
{
    SP_API(zkey_slice_t) *zs = &s->zs;
    uint64_t n = zs->n_coefs, k = 0;
    uint32_t *sig = gm_alloc((size_t)(n ? n : 1) * sizeof *sig);
    if (!sig)
        return gm_err_set(err, GM_ENOMEM, "split: out of memory for %llu signals", (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++)
        sig[i] = zs->coefs[i].signal;
    qsort(sig, (size_t)n, sizeof *sig, u32_cmp);
    for (uint64_t i = 0; i < n; i++)
        if (k == 0 || sig[k - 1] != sig[i])
            sig[k++] = sig[i];
    int rc = 0;
    s->zrow = gm_alloc((size_t)(k ? k : 1) * sizeof(SP_FR(t)));
    if (!s->zrow) {
        rc = gm_err_set(err, GM_ENOMEM, "split: out of memory for %llu witness values", (unsigned long long)k);
        goto out;
    }
    /* Runs of consecutive signals are read as one range. */
    for (uint64_t i = 0, j; i < k && !rc; i = j) {
        for (j = i + 1; j < k && sig[j] == sig[j - 1] + 1; j++)
            ;
        rc = SP_API(wtns_values)(v, s->zrow + i, sig[i], (uint64_t)sig[j - 1] + 1, err);
    }
    for (uint64_t i = 0; i < n && !rc; i++) {
        uint32_t *p = bsearch(&zs->coefs[i].signal, sig, (size_t)k, sizeof *sig, u32_cmp);
        zs->coefs[i].signal = (uint32_t)(p - sig);
    }
out:
    gm_free(sig);
    return rc;
}

static int sj_load(void *arg, int rank, int nranks, topo_pool_t *pool, unsigned *log_m, uint64_t *key_bytes,
                   uint64_t *points, err_t *err)
{
    sj_src_t *s = arg;
    const mpi_split_snarkjs_job_t *job = s->job;
    SP_API(zkey_slice_t) *zs = &s->zs;
    s->rank = rank;
    int rc = SP_API(zkey_load_slice)(zs, job->zkey_path, (unsigned)rank, (unsigned)nranks,
                                     job->zkey_flags | SNARKJS_ZKEY_COEF_SHARE, pool, err);
    if (rc)
        return rc;
    snarkjs_wtns_view_t *v = &s->v;
    if ((rc = SP_API(wtns_open)(v, job->wtns_path, err)))
        return rc;
    if (v->n != zs->n_vars)
        return gm_err_set(err, GM_EINVAL, "%s: %llu witness values, %s's circuit has nVars = %u", job->wtns_path,
                          (unsigned long long)v->n, job->zkey_path, zs->n_vars);
    uint64_t np1 = (uint64_t)zs->n_public + 1;
    uint64_t alo = zs->lo[SNARKJS_SEC_A], ahi = zs->hi[SNARKJS_SEC_A];
    uint64_t clo = zs->lo[SNARKJS_SEC_C], chi = zs->hi[SNARKJS_SEC_C];
    GM_ASSERT(zs->lo[SNARKJS_SEC_B1] == alo && zs->hi[SNARKJS_SEC_B2] == ahi);
    s->zab = gm_alloc((size_t)(ahi - alo + 1) * sizeof(SP_FR(t)));
    s->zc = gm_alloc((size_t)(chi - clo + 1) * sizeof(SP_FR(t)));
    s->pub = rank == 0 ? gm_alloc((size_t)np1 * sizeof(SP_FR(t))) : NULL;
    if (!s->zab || !s->zc || (rank == 0 && !s->pub))
        return gm_err_set(err, GM_ENOMEM, "split: out of memory for the witness slices");
    if ((rc = SP_API(wtns_values)(v, s->zab, alo, ahi, err)) ||
        (rc = SP_API(wtns_values)(v, s->zc, np1 + clo, np1 + chi, err)) ||
        (rank == 0 && (rc = SP_API(wtns_values)(v, s->pub, 1, np1, err))))
        return rc;
    *log_m = zs->log_domain;
    *key_bytes = SP_API(zkey_slice_memory)(zs);
    *points = 0;
    for (int i = 0; i < SNARKJS_NSEC; i++)
        *points += zs->hi[i] - zs->lo[i];
    return 0;
}

/* The share of section 4 this rank read, grouped by the ranks of their rows. */
static void sj_share(void *arg, const void **recs, const uint64_t **to, size_t *size)
{
    const sj_src_t *s = arg;
    *recs = s->zs.coefs;
    *to = s->zs.to_part;
    *size = sizeof(SP_API(coef_t));
}

/* The entries of this rank's rows, from every rank (on one rank, the
 * slice's own buffer): the slice's from here on, and the witness values
 * they name. */
static int sj_shared(void *arg, void *recs, uint64_t n, uint64_t *key_bytes, err_t *err)
{
    sj_src_t *s = arg;
    SP_API(zkey_slice_t) *zs = &s->zs;
    if (zs->coefs != recs) /* on one rank the share itself comes back */
        gm_free(zs->coefs);
    zs->coefs = recs;
    zs->n_coefs = n;
    int rc = load_row_values(s, &s->v, err);
    snarkjs_wtns_close(&s->v);
    *key_bytes = SP_API(zkey_slice_memory)(zs);
    return rc;
}

/* a (matrix 0) and b (matrix 1) at the rows [lo, hi) from the entries, c = a·b. */
static void sj_rows(void *arg, SP_FR(t) *a, SP_FR(t) *b, SP_FR(t) *c, uint64_t lo, uint64_t hi, topo_pool_t *pool)
{
    (void)pool;
    sj_src_t *s = arg;
    const SP_API(zkey_slice_t) *zs = &s->zs;
    uint64_t n = hi - lo, mask = zs->domain_size - 1;
    GM_ASSERT(lo == zs->row_lo && hi == zs->row_hi);
    memset(a, 0, (size_t)n * sizeof(SP_FR(t)));
    memset(b, 0, (size_t)n * sizeof(SP_FR(t)));
    for (uint64_t i = 0; i < zs->n_coefs; i++) {
        const SP_API(coef_t) *e = &zs->coefs[i];
        SP_FR(t) *dst = (e->matrix ? b : a) + ((((uint64_t)SP_ROOT_EXP * e->constraint) & mask) - lo);
        const SP_FR(t) *x = &s->zrow[e->signal];
        if (SP_FR(is_zero)(x))
            continue;
        SP_FR(t) t;
        SP_FR(mul)(&t, &e->value, x);
        SP_FR(add)(dst, dst, &t);
    }
    for (uint64_t i = 0; i < n; i++)
        SP_FR(mul)(&c[i], &a[i], &b[i]);
}

/* A, B1, B2 over the A/B slice of z, C over the C slice, H over h. */
static int sj_msms(void *arg, SP_SUMS_T *sums, const SP_FR(t) *h, topo_pool_t *pool, err_t *err)
{
    sj_src_t *s = arg;
    const SP_API(zkey_slice_t) *zs = &s->zs;
    uint64_t nab = zs->hi[SNARKJS_SEC_A] - zs->lo[SNARKJS_SEC_A];
    sums_spec_t sp;
    sp.g1[SUM_A] = sum_dense(zs->a, s->zab, nab, NULL);
    sp.g1[SUM_B1] = sum_dense(zs->b1, s->zab, nab, NULL);
    sp.b2 = sum_dense(zs->b2, s->zab, nab, NULL);
    sp.g1[SUM_L] = sum_dense(zs->c, s->zc, zs->hi[SNARKJS_SEC_C] - zs->lo[SNARKJS_SEC_C], NULL);
    sp.g1[SUM_H] = sum_dense(zs->h, h, zs->hi[SNARKJS_SEC_H] - zs->lo[SNARKJS_SEC_H], NULL);
    sums_t x;
    sums_ctx_t c = {NULL, pool}; /* sums_cpu sizes the scratch for the largest slice */
    int rc = sums_cpu(&x, &sp, &c, err);
    if (!rc)
        *sums = (SP_SUMS_T){.a = x.g1[SUM_A], .b_g1 = x.g1[SUM_B1], .l = x.g1[SUM_L], .h = x.g1[SUM_H], .b_g2 = x.b2};
    return rc;
}

/* Rank 0: the proof and snarkjs_prove's checks (sums over points outside
 * the subgroup, which a zkey read without SNARKJS_ZKEY_SUBGROUP may hold,
 * would leave it: the pairing needs G1/G2). */
static int sj_assemble(void *arg, SP_PROOF_T *proof, const SP_SUMS_T *t, const SP_FR(t) rs[2], err_t *err)
{
    sj_src_t *s = arg;
    const SP_API(zkey_slice_t) *zs = &s->zs;
    proof_assemble(proof, &zs->vk, &t->a, &t->b_g1, &t->b_g2, &t->l, &t->h, &rs[0], &rs[1]);
    if (s->job->prove_flags & GROTH16_PROVE_NO_VERIFY)
        return 0;
    if (!proof_in_subgroup(proof))
        return gm_err_set(err, GM_EVERIFY, "split: the proof is not in the subgroup: %s holds points outside it",
                          s->job->zkey_path);
    err_t e2;
    int rc = proof_verify(&zs->vk, proof, s->pub, zs->n_public, &e2);
    if (rc)
        return gm_err_set(err, rc, "split: the proof does not verify against the zkey's key (%s): the witness does "
                          "not satisfy the circuit, or the zkey is not for it", e2.msg);
    return 0;
}

static int prove_snarkjs(SP_PROOF_T *proof, SP_FR(t) **pub, size_t *n_pub, mpi_split_rank_t **ranks,
                         const mpi_split_snarkjs_job_t *job, err_t *err)
{
    *pub = NULL;
    *n_pub = 0;
    sj_src_t s = {.job = job};
    SP_SOURCE_T src = {.arg = &s, .h_kind = MPI_SPLIT_H_SNARKJS, .load = sj_load, .share = sj_share,
                       .shared = sj_shared, .rows = sj_rows, .msms = sj_msms, .assemble = sj_assemble};
    int rc = SP_RUN(proof, ranks, &src, SP_JOB_RS(job), job->comm, job->pool, err);
    if (!rc && s.rank == 0) {
        *pub = s.pub;
        *n_pub = s.zs.n_public;
        s.pub = NULL;
    }
    gm_free(s.pub);
    gm_free(s.zab);
    gm_free(s.zc);
    gm_free(s.zrow);
    snarkjs_wtns_close(&s.v);
    SP_API(zkey_slice_free)(&s.zs);
    return rc;
}
