/*
 * snarkjs/prove_shape.h — the prover of `snarkjs groth16 prove`
 * (src/groth16_prove.js) and rapidsnark over a decoded .zkey, written once
 * for every curve. A template, not a header: snarkjs/prove.c (BLS12-381)
 * and snarkjs/bn_prove.c (BN254), both with the device backends, include
 * it once after snarkjs_internal.h and wrap its static functions
 * (prover_create, prover_destroy, prove, prover_set_backend) by name.
 * Before the include the .c file defines
 *   SJ_ROOT_J      J: snarkjs's primitive 2^k-th root of unity is ours to the power J mod 2^k
 *   SJ_BE(x)       the device backends, through groth16_backend_x | groth16_backend_bn_x
 *   SJ_NTT(x)      ntt_x / bn_ntt_x (ntt/ntt.h),  SJ_MSM(g)  msm_g / bn_msm_g (ec/ec.h)
 *   sj_pvk_t and static pvk_prepare, pvk_free, pvk_verify (the proof's check
 *   against the zkey's key), proof_in_subgroup, random_rs (r and s from getrandom).
 *
 *   Aev[c] += value w[s] for each section-4 entry of matrix 0 (Bev: 1);
 *   Cev = Aev . Bev rowwise (the zkey has no C matrix);
 *   for X in A, B, C: coefficients by an inverse NTT over <w_n>, then the
 *     evaluations on the odd coset g<w_n>, g = w_2n;
 *   h[i] = Aodd[i] Bodd[i] - Codd[i]  (no division by Z: the H points of
 *     the zkey absorb Z = -2 on the odd coset);
 *   the MSMs over sections 5-9 (groth16/sums_shape.h, the one MSM stage)
 *   and the proof from their sums (groth16/assemble_shape.h, the one
 *   assembly of every prover).
 *
 * Roots of unity. snarkjs (ffjavascript) takes Fr.w[k] from the smallest
 * quadratic non-residue: 5 on both curves. Our BN254 NTT takes the same
 * root (bn_fr_root_of_unity; J = 1). Our BLS12-381 NTT (ntt/ntt.c) takes
 * 7^((r-1)/2^32), bellperson's; both generate the same group of order 2^32,
 * and 5's root is 7's raised to J = SNARKJS_ROOT_EXP (odd), so for every
 * k <= 32 w5_k = w7_k^(J mod 2^k). Row c of the zkey is the point
 * w5_n^c = w_n^(J c mod n), so the rows are scattered to index J c mod n of
 * our NTT's natural order, and snarkjs's odd point
 * w5_2n^(2i+1) = w_2n^(J (2i+1) mod 2n) is our coset point k with
 * 2k + 1 = J (2i + 1) mod 2n. Two index permutations, no second NTT (both
 * the identity when J = 1).
 *
 * Memory of one proof (`grothmpi snarkjs prove`, a streamed key:
 * SNARKJS_ZKEY_STREAM). Live throughout: the witness (nVars Fr), a, b, c (3 n
 * Fr, the prover's), the NTT and MSM scratch (prover_create's). Beside them,
 * one stage at a time: each MSM its section's decoded points (G1 72 bytes,
 * G2 136 on BN254; 104 / 200 on BLS12-381), freed after it; the abc stage
 * reads section 4's entries where they lie in the file (SJ_STREAM(abc)),
 * and the file's pages leave memory once read. SHA-256 of 64 bytes on bn128
 * (nVars 62,421, n = 2^16, 191,667 entries), MiB: witness 1.9, a b c 6.0,
 * scratch 3.8; B2 8.1 (the peak: 20.5 allocated), H 4.5, A, B1, C 4.3 each;
 * the process RSS peak 33 MiB (10 of it the binary and its libraries).
 * (Before section 4 was read in place, its 8.8 MiB of decoded entries were
 * the abc stage's, and the peak: 21.1 MiB.) A resident key (zkey_load without the flag: many proofs, a
 * device) holds all of them at once: 45.9 MiB allocated, and the load had
 * the whole 31 MiB file mapped beside them (RSS peak 79 MiB).
 */
#ifndef SJ_CURVE
#error "prove_shape.h is a template: include snarkjs/snarkjs_internal.h first and this once"
#endif

/* The MSM stage and the transforms' device switch, one for every prover
 * (groth16/sums_shape.h). */
#define SS_FR(x) SJ_FR(x)
#define SS_G1(x) SJ_G1(x)
#define SS_G2(x) SJ_G2(x)
#define SS_MSM(g) SJ_MSM(g)
#define SS_NTT(x) SJ_NTT(x)
#define SS_DEVICE
#define SS_BE(x) SJ_BE(x)
#include "groth16/sums_shape.h"

struct SJ_API(prover) {
    const SJ_API(zkey_t) *zk;
    sj_pvk_t pvk;
    unsigned log_n;
    uint64_t n;
    SJ_NTT(domain_t) *dom;
    void *ntt_scratch, *msm_scratch;
    SJ_FR(t) *a, *b, *c;
    SJ_FR(t) shift; /* w_2n: multiplying coefficient j by shift^j moves to the odd coset */
    groth16_backend_t *be;  /* NULL: the CPU */
    gpu_g1_bases_t *gb[SUM_G1]; /* resident A, B1, C, H; NULL: that MSM on the CPU */
};

static void prover_destroy(SJ_API(prover_t) *pv)
{
    if (!pv)
        return;
    bases_free(pv->be, pv->gb);
    pvk_free(&pv->pvk);
    SJ_NTT(domain_destroy)(pv->dom);
    gm_free(pv->ntt_scratch);
    gm_free(pv->msm_scratch);
    gm_free(pv->a);
    gm_free(pv->b);
    gm_free(pv->c);
    gm_free(pv);
}

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

static int prover_create(SJ_API(prover_t) **out, const SJ_API(zkey_t) *zk, topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    int rc;
    SJ_API(prover_t) *pv = gm_calloc(1, sizeof *pv);
    if (!pv)
        return gm_err_set(err, GM_ENOMEM, "snarkjs prover: out of memory");
    pv->zk = zk;
    pv->log_n = zk->log_domain;
    pv->n = zk->domain_size;
    if ((rc = pvk_prepare(&pv->pvk, &zk->vk, err)))
        goto fail;
    if ((rc = SJ_NTT(domain_create)(&pv->dom, pv->log_n, err)))
        goto fail;
    unsigned nw = topo_pool_size(pool);
    size_t nmax = max_sz(zk->n_vars, (size_t)pv->n);
    size_t msm_sz = max_sz(SJ_MSM(g1_scratch_size)(nmax, nw, 0), SJ_MSM(g2_scratch_size)(zk->n_vars, nw, 0));
    pv->ntt_scratch = gm_alloc(SJ_NTT(scratch_size)(pv->dom, nw) + 64);
    pv->msm_scratch = gm_alloc(msm_sz);
    pv->a = gm_alloc((size_t)pv->n * sizeof(SJ_FR(t)));
    pv->b = gm_alloc((size_t)pv->n * sizeof(SJ_FR(t)));
    pv->c = gm_alloc((size_t)pv->n * sizeof(SJ_FR(t)));
    if (!pv->ntt_scratch || !pv->msm_scratch || !pv->a || !pv->b || !pv->c) {
        rc = gm_err_set(err, GM_ENOMEM, "snarkjs prover: out of memory for the scratch of a 2^%u domain", pv->log_n);
        goto fail;
    }
    SJ_FR(root_of_unity)(&pv->shift, pv->log_n + 1);
    *out = pv;
    return 0;
fail:
    prover_destroy(pv);
    return rc;
}

/* ---- the evaluation vectors ------------------------------------------------------------------- */

#define ROW_TASK 8192

typedef struct {
    SJ_API(prover_t) *pv;
    const SJ_API(coef_t) *coefs;
    const SJ_FR(t) *w;
    SJ_FR(t) *vec[2];
    SJ_FR(t) minus_one;
    uint64_t perm; /* J mod n */
} abc_job_t;

/* Task m (0 = A, 1 = B) accumulates its matrix's entries (a resident key's,
 * decoded at load; a streamed key's are read from the file by SJ_STREAM(abc)).
 * (1) Why: snarkjs's buildABC1, with the row scattered to our NTT's order
 *     (index J c mod n). Entries of one matrix go to one vector, so the two
 *     tasks share nothing; coefficients +-1 and values 1 (most of circom's)
 *     skip the multiplication (sj_coef_apply).
 * (2) Invariants: constraint < n and signal < nVars (checked at load);
 *     values reduced.
 * (3) The "abc" stage of `grothmpi snarkjs prove --verbose` (bench/README.md). */
static void abc_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    abc_job_t *j = arg;
    const SJ_API(zkey_t) *zk = j->pv->zk;
    SJ_FR(t) *v = j->vec[task];
    uint64_t mask = j->pv->n - 1;
    memset(v, 0, (size_t)j->pv->n * sizeof(SJ_FR(t)));
    for (uint64_t i = 0; i < zk->n_coefs; i++) {
        const SJ_API(coef_t) *c = &j->coefs[i];
        if (c->matrix != task)
            continue;
        const SJ_FR(t) *x = &j->w[c->signal];
        if (SJ_FR(is_zero)(x))
            continue;
        sj_coef_kind_t k = !memcmp(&c->value, &SJ_FR_ONE, sizeof c->value)     ? SJ_COEF_ONE
                           : !memcmp(&c->value, &j->minus_one, sizeof c->value) ? SJ_COEF_MINUS_ONE
                                                                                : SJ_COEF_OTHER;
        sj_coef_apply(&v[(j->perm * c->constraint) & mask], x, k, &c->value);
    }
}

typedef struct {
    SJ_FR(t) *a, *b, *c;
    const SJ_FR(t) *shift;
    uint64_t n, perm2; /* J mod 2n */
} pw_job_t;

static uint64_t task_end(uint64_t i0, uint64_t n) { return i0 + ROW_TASK < n ? i0 + ROW_TASK : n; }

/* Rows [i0, i1) of a task (i0 a multiple of 8), and the end of their
 * whole blocks of 8: those run on the lanes where the CPU has them, the
 * rest (n < 8) one at a time. */
static uint64_t lanes_end(uint64_t i0, uint64_t i1) { return fr_x8_enabled() ? i0 + ((i1 - i0) & ~(uint64_t)7) : i0; }

/* c = a b rowwise (the zkey has no C matrix). */
static void c_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n);
    for (uint64_t e8 = lanes_end(i, e); i < e8; i += 8)
        SJ_FR(x8_mul)(&j->c[i], &j->a[i], &j->b[i]);
    for (; i < e; i++)
        SJ_FR(mul)(&j->c[i], &j->a[i], &j->b[i]);
}

/* a[i] *= shift^i for the three vectors (coefficients to the odd coset). */
static void shift_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n), e8 = lanes_end(i, e);
    SJ_FR(t) p;
    SJ_FR(pow)(&p, j->shift, &i, 1);
    if (i < e8) {
        /* lane l starts at shift^(i + l) and steps by shift^8 */
        SJ_FR(tw8_t) t0;
        SJ_FR(tw_t) step8;
        SJ_FR(t) s8;
        for (unsigned l = 0; l < 8; l++) {
            SJ_FR(tw8_set)(&t0, l, &p);
            SJ_FR(mul)(&p, &p, j->shift);
        }
        const uint64_t eight = 8;
        SJ_FR(pow)(&s8, j->shift, &eight, 1);
        SJ_FR(tw_from)(&step8, &s8);
        SJ_FR(t) *vec[3] = {j->a, j->b, j->c};
        for (int v = 0; v < 3; v++)
            SJ_FR(x8_scale_chain)(vec[v] + i, (size_t)(e8 - i), &t0, &step8);
        SJ_FR(pow)(&p, j->shift, &e8, 1);
        i = e8;
    }
    for (; i < e; i++) {
        SJ_FR(mul)(&j->a[i], &j->a[i], &p);
        SJ_FR(mul)(&j->b[i], &j->b[i], &p);
        SJ_FR(mul)(&j->c[i], &j->c[i], &p);
        SJ_FR(mul)(&p, &p, j->shift);
    }
}

/* a[k] = a[k] b[k] - c[k] in our coset order (then read out permuted). */
static void join_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n);
    for (uint64_t e8 = lanes_end(i, e); i < e8; i += 8) {
        SJ_FR(x8_mul)(&j->a[i], &j->a[i], &j->b[i]);
        SJ_FR(x8_sub)(&j->a[i], &j->a[i], &j->c[i]);
    }
    for (; i < e; i++) {
        SJ_FR(mul)(&j->a[i], &j->a[i], &j->b[i]);
        SJ_FR(sub)(&j->a[i], &j->a[i], &j->c[i]);
    }
}

/* c[i] = a[k(i)], 2 k(i) + 1 = J (2i + 1) mod 2n: snarkjs's order of h. */
static void perm_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pw_job_t *j = arg;
    uint64_t mask2 = 2 * j->n - 1;
    for (uint64_t i = (uint64_t)task * ROW_TASK, e = task_end(i, j->n); i < e; i++)
        j->c[i] = j->a[((j->perm2 * (2 * i + 1)) & mask2) >> 1];
}

/* ---- one proof ------------------------------------------------------------------------------------ */

/* The key source of a zkey: its five sums, one term each (C over the
 * private values w[nPublic + 1 ..], H over h's n values in pv->c), over
 * the key's points (a streamed key's: NULL, for sums_streamed to set). */
static void zkey_sums(sums_spec_t *s, const SJ_API(prover_t) *pv, const SJ_FR(t) *w, groth16_timings_t *tm)
{
    const SJ_API(zkey_t) *zk = pv->zk;
    uint64_t np1 = (uint64_t)zk->n_public + 1;
    s->g1[SUM_A] = sum_dense(zk->a, w, zk->n_vars, &tm->msm_a);
    s->g1[SUM_B1] = sum_dense(zk->b1, w, zk->n_vars, &tm->msm_b_g1);
    s->b2 = sum_dense(zk->b2, w, zk->n_vars, &tm->msm_b_g2);
    s->g1[SUM_L] = sum_dense(zk->c, w + np1, zk->n_vars - np1, &tm->msm_l);
    s->g1[SUM_H] = sum_dense(zk->h, pv->c, pv->n, &tm->msm_h);
}

/* The sums of a streamed key on the CPU, in file order: each section's
 * points decoded just before its MSM and freed after it, so one section is
 * live at a time (the decoding is timed with the MSM). Returns 0 or the
 * decoder's error (a bad point, named as the load names it). */
static int sums_streamed(sums_t *x, sums_spec_t *sp, const SJ_API(prover_t) *pv, const sums_ctx_t *c, err_t *err)
{
    static const int sum_of[SNARKJS_NSEC] = {SUM_A, SUM_B1, SUM_G1, SUM_L, SUM_H}; /* SUM_G1: B2 */
    for (int s = 0; s < SNARKJS_NSEC; s++) {
        bool g2 = sum_of[s] == SUM_G1;
        sum_spec_t *t = g2 ? &sp->b2 : &sp->g1[sum_of[s]];
        uint64_t t0 = gm_now_ns(), *ns = t->ns;
        void *pts;
        int rc = SJ_STREAM(points)(&pts, pv->zk, (snarkjs_section_t)s, c->pool, err);
        if (rc)
            return rc;
        t->t[0].bases = pts;
        t->ns = NULL;
        (void)sum_cpu(g2 ? (void *)&x->b2 : (void *)&x->g1[sum_of[s]], g2, t, c, err); /* in memory: cannot fail */
        gm_free(pts);
        *ns += gm_now_ns() - t0;
    }
    return 0;
}

/* The proof for r_s, its transforms and G1 MSMs on the device when gpu.
 * Returns 0 (*device_failed: the device failed, the caller proves again
 * on the CPU) or a streamed key's decoding error. */
static int prove_core(SJ_API(prover_t) *pv, SJ_PROOF_T *out, const SJ_FR(t) *w, const SJ_FR(t) r_s[2], bool gpu,
                      topo_pool_t *pool, groth16_timings_t *tm, bool *device_failed, err_t *err)
{
    const SJ_API(zkey_t) *zk = pv->zk;
    uint64_t t0 = gm_now_ns(), t1;
    int rc;

    /* A, B, C evaluations (a streamed key's entries read from the file, checked as they are applied). */
    uint64_t perm = (uint64_t)SJ_ROOT_J & (pv->n - 1);
    SJ_FR(t) *ab[2] = {pv->a, pv->b};
    if (zk->stream.what) {
        if ((rc = SJ_STREAM(abc)(zk, w, ab, perm, pool, err)))
            return rc;
    } else {
        abc_job_t aj = {.pv = pv, .coefs = zk->coefs, .w = w, .vec = {pv->a, pv->b}, .perm = perm};
        SJ_FR(neg)(&aj.minus_one, &SJ_FR_ONE);
        topo_pool_run(pool, 2, abc_task, &aj);
    }
    pw_job_t pj = {.a = pv->a, .b = pv->b, .c = pv->c, .shift = &pv->shift, .n = pv->n,
                   .perm2 = (uint64_t)SJ_ROOT_J & (2 * pv->n - 1)};
    size_t ntasks = (size_t)((pv->n + ROW_TASK - 1) / ROW_TASK);
    topo_pool_run(pool, ntasks, c_task, &pj);
    t1 = gm_now_ns(), tm->abc += t1 - t0, t0 = t1;

    /* h on the odd coset. */
    SJ_FR(t) *v[3] = {pv->a, pv->b, pv->c};
    groth16_backend_t *be = gpu ? pv->be : NULL;
    for (int i = 0; i < 3; i++)
        if (!xform(be, pv->dom, pv->log_n, v[i], GPU_NTT_INVERSE, pv->ntt_scratch, pool, "snarkjs proof")) {
            *device_failed = true;
            return 0;
        }
    topo_pool_run(pool, ntasks, shift_task, &pj);
    for (int i = 0; i < 3; i++)
        if (!xform(be, pv->dom, pv->log_n, v[i], GPU_NTT_FORWARD, pv->ntt_scratch, pool, "snarkjs proof")) {
            *device_failed = true;
            return 0;
        }
    topo_pool_run(pool, ntasks, join_task, &pj);
    topo_pool_run(pool, ntasks, perm_task, &pj);
    t1 = gm_now_ns(), tm->ntt += t1 - t0, t0 = t1;

    /* MSMs. */
    sums_t x;
    sums_spec_t sp;
    sums_ctx_t c = {pv->msm_scratch, pool};
    err_t e;
    zkey_sums(&sp, pv, w, tm);
    if (gpu) {
        if (sums_device(pv->be, pv->gb, &x, &sp, 1, &c, &e)) {
            groth16_backend_failed(pv->be, "snarkjs proof", &e);
            *device_failed = true;
            return 0;
        }
    } else if (zk->stream.what) {
        if ((rc = sums_streamed(&x, &sp, pv, &c, err)))
            return rc;
    } else {
        (void)sums_cpu(&x, &sp, &c, &e); /* resident bases: it cannot fail */
    }

    proof_assemble(out, &zk->vk, &x.g1[SUM_A], &x.g1[SUM_B1], &x.b2, &x.g1[SUM_L], &x.g1[SUM_H], &r_s[0], &r_s[1]);
    return 0;
}

static int prove(SJ_API(prover_t) *pv, SJ_PROOF_T *out, const SJ_FR(t) *w, size_t n, const SJ_FR(t) *rs,
                 groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
{
    const SJ_API(zkey_t) *zk = pv->zk;
    groth16_timings_t tm;
    memset(&tm, 0, sizeof tm);
    uint64_t start = gm_now_ns();
    int rc = 0;
    bool attached = pv->be && groth16_backend_kind(pv->be) != GROTH16_BACKEND_CPU;
    bool gpu = groth16_backend_active(pv->be) && bases_all(pv->gb), fallback = false;
    if (n != zk->n_vars) {
        rc = gm_err_set(err, GM_EINVAL, "snarkjs prove: the witness has %zu values, the zkey's circuit %u (nVars)", n,
                        zk->n_vars);
        goto done;
    }
    if (!SJ_FR(is_one)(&w[0])) {
        rc = gm_err_set(err, GM_EINVAL, "snarkjs prove: witness value 0 (the constant ONE) is not 1");
        goto done;
    }
    SJ_FR(t) r_s[2];
    if (rs) {
        r_s[0] = rs[0];
        r_s[1] = rs[1];
    } else if ((rc = random_rs(r_s, err))) {
        goto done;
    }
    for (;;) {
        bool device_failed = false;
        if ((rc = prove_core(pv, out, w, r_s, gpu, pool, &tm, &device_failed, err)))
            goto done;
        if (device_failed) {
            gpu = false; /* the device failed: the whole proof again on the CPU */
            fallback = true;
            continue;
        }
        /* A device's result is always verified. */
        if ((flags & GROTH16_PROVE_NO_VERIFY) && !gpu)
            break;
        uint64_t t0 = gm_now_ns();
        /* Sums over points outside the subgroup (a key decoded without
         * SNARKJS_ZKEY_SUBGROUP) would leave it: the pairing needs G1/G2. */
        if (!proof_in_subgroup(out)) {
            if (gpu) {
                err_t e;
                gm_err_set(&e, GM_EVERIFY, "the proof made with the device is not in the subgroup");
                groth16_backend_failed(pv->be, "snarkjs proof", &e);
                gpu = false, fallback = true;
                continue;
            }
            rc = gm_err_set(err, GM_EVERIFY, "snarkjs prove: the proof is not in the subgroup: the zkey holds points "
                            "outside it");
            goto done;
        }
        err_t e2;
        rc = pvk_verify(&pv->pvk, out, w + 1, zk->n_public, &e2);
        tm.verify += gm_now_ns() - t0;
        if (rc && gpu) {
            err_t e;
            gm_err_set(&e, rc, "the proof made with the device does not verify (%s)", e2.msg);
            groth16_backend_failed(pv->be, "snarkjs proof", &e);
            gpu = false, fallback = true;
            rc = 0;
            continue;
        }
        if (rc) {
            rc = gm_err_set(err, rc, "snarkjs prove: the proof does not verify against the zkey's key (%s): the "
                            "witness does not satisfy the circuit, or the zkey is not for it", e2.msg);
            goto done;
        }
        break;
    }
    if (attached)
        groth16_backend_unit(pv->be, fallback);
done:
    tm.total = gm_now_ns() - start;
    if (times)
        *times = tm;
    return rc;
}

/* snarkjs_prover_set_backend: the zkey's G1 sets resident on be. */
static void prover_set_backend(SJ_API(prover_t) *pv, groth16_backend_t *be)
{
    const SJ_API(zkey_t) *zk = pv->zk;
    bases_free(pv->be, pv->gb);
    pv->be = zk->stream.what ? NULL : be; /* a streamed key has no resident points: the CPU */
    if (!pv->be || !groth16_backend_active(be))
        return;
    uint64_t np1 = (uint64_t)zk->n_public + 1;
    static const char *const names[SUM_G1] = {"A", "B1", "C", "H"};
    const SJ_G1(affine_t) *const p[SUM_G1] = {zk->a, zk->b1, zk->c, zk->h};
    const uint64_t n[SUM_G1] = {zk->n_vars, zk->n_vars, zk->n_vars - np1, pv->n};
    bases_upload(be, pv->gb, p, n, names, "snarkjs prover");
}

#undef ROW_TASK
