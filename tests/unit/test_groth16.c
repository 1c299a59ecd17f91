/*
 * tests/unit/test_groth16.c — groth16/: setup, prover and verifier on tiny
 * circuits (2^2 .. 2^8 rows).
 *  - Known answer, independent of the NTT, MSM and pairing code: with the
 *    toxic waste of a seed, the QAP columns at tau are evaluated here by the
 *    closed-form Lagrange basis L_i(tau) = Z(tau) w^i / (m (tau - w^i)) and a
 *    naive pass over the constraints; every vk / query point and the proof's
 *    A, B, C must equal scalar * generator with the scalars of the Groth16
 *    equations (C from A B = alpha beta + IC gamma + C delta).
 *  - Properties: proofs verify (single and batch, on a NULL and a 2-worker
 *    pool), are randomized, and wrong inputs, altered, swapped or
 *    off-subgroup proofs and unsatisfied witnesses are rejected.
 * Replay with GM_TEST_SEED=<printed seed>.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop
#include "topo/topo.h"
#include "circuits/circuits.h"

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(groth16, .init = init);

/* ---- fixture: a circuit with parameters in a temporary directory ------------------------ */

typedef struct {
    char dir[64], params[128], vk[128];
    circuit_t circ;
    cs_shape_t *shape;
    groth16_params_t *pp;
    groth16_prover_t *pv;
    groth16_pvk_t pvk;
    uint8_t seed[GROTH16_SEED_BYTES];
    topo_pool_t *pool;
} fx_t;

static void fx_open(fx_t *f, const char *circuit, uint64_t size, unsigned threads, test_rng_t *rng)
{
    memset(f, 0, sizeof *f);
    err_t err;
    snprintf(f->dir, sizeof f->dir, "/tmp/gm_g16_XXXXXX");
    cr_assert(mkdtemp(f->dir));
    snprintf(f->params, sizeof f->params, "%s/c.params", f->dir);
    snprintf(f->vk, sizeof f->vk, "%s/c.vk", f->dir);
    if (threads > 1)
        cr_assert_eq(topo_pool_create_flat(&f->pool, threads, &err), 0);
    cr_assert_eq(circuit_parse(&f->circ, circuit, size, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(circuit_shape(&f->shape, &f->circ, &err), 0, "%s", err.msg);
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        f->seed[i] = (uint8_t)test_rng_next(rng);
    cr_assert_eq(groth16_setup(f->shape, f->seed, f->params, f->vk, f->pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_params_load(&f->pp, f->params, f->shape, GROTH16_LOAD_DEFAULT, f->pool, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(groth16_prover_create(&f->pv, f->pp, f->shape, f->pool, &err), 0, "%s", err.msg);
    groth16_vk_t vk;
    cr_assert_eq(groth16_vk_load(&vk, f->vk, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_pvk_prepare(&f->pvk, &vk, &err), 0);
    groth16_vk_free(&vk);
}

static void fx_close(fx_t *f)
{
    groth16_prover_destroy(f->pv);
    groth16_params_free(f->pp);
    groth16_pvk_free(&f->pvk);
    cs_shape_free(f->shape);
    topo_pool_destroy(f->pool);
    unlink(f->params);
    unlink(f->vk);
    rmdir(f->dir);
}

static cs_t *fx_witness(fx_t *f, uint64_t seed, groth16_witness_t *w)
{
    cs_t *cs;
    err_t err;
    circuit_witness_opts_t wo = {.seed = seed, .mode = CS_WITNESS};
    cr_assert_eq(circuit_witness(&cs, &f->circ, &wo, &err), 0, "%s", err.msg);
    groth16_witness_of(w, cs);
    return cs;
}

static void fx_prove_verify(const char *circuit, uint64_t size, unsigned threads)
{
    test_rng_t rng;
    test_rng_init(&rng, "groth16 prove_verify");
    fx_t f;
    fx_open(&f, circuit, size, threads, &rng);
    groth16_witness_t w;
    cs_t *cs = fx_witness(&f, test_rng_next(&rng), &w);
    groth16_proof_t p;
    err_t err;
    groth16_timings_t t;
    cr_assert_eq(groth16_prove(f.pv, &p, &w, 1, NULL, GROTH16_PROVE_DEFAULT, f.pool, &t, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_verify(&f.pvk, &p, w.inputs + 1, w.n_inputs - 1, &err), 0, "%s", err.msg);
    uint8_t b[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(b, &p);
    groth16_proof_t q;
    cr_assert_eq(groth16_proof_from_bytes(&q, b, "proof", &err), 0, "%s", err.msg);
    cr_assert(g1_affine_eq(&q.a, &p.a) && g2_affine_eq(&q.b, &p.b) && g1_affine_eq(&q.c, &p.c));
    cs_destroy(cs);
    fx_close(&f);
}

Test(groth16, prove_verify_test_mul) { fx_prove_verify("test-mul", 0, 1); }
/* Sanitizer builds are slow: a smaller circuit there. */
#ifdef GM_VERIFY_ON
#define SYNTH_ROWS 64
#else
#define SYNTH_ROWS 256
#endif
Test(groth16, prove_verify_synthetic) { fx_prove_verify("test-synthetic", SYNTH_ROWS, 1); }
Test(groth16, prove_verify_synthetic_pool2) { fx_prove_verify("test-synthetic", 128, 2); }

/* ---- known answer: scalars computed here, compared as points --------------------------- */

/* Naive QAP at tau: L_i(tau) closed form, columns summed row by row. */
static void naive_qap(const cs_shape_t *sh, const fr_t *tau, fr_t *u, fr_t *v, fr_t *wc, fr_t *z_tau)
{
    unsigned k = 0;
    while ((1ULL << k) < sh->n_rows)
        k++;
    uint64_t m = 1ULL << k;
    fr_t w, wi = FR_ONE, mm, zt;
    fr_root_of_unity(&w, k);
    fr_set_u64(&mm, m);
    fr_pow(&zt, tau, &m, 1);
    fr_sub(&zt, &zt, &FR_ONE);
    *z_tau = zt;
    uint64_t nv = sh->n_inputs + sh->n_aux;
    for (uint64_t j = 0; j < nv; j++)
        u[j] = v[j] = wc[j] = FR_ZERO;
    fr_t *cols[3] = {u, v, wc};
    for (uint64_t i = 0; i < m; i++, fr_mul(&wi, &wi, &w)) {
        if (i >= sh->n_rows)
            continue;
        fr_t L, d;
        fr_sub(&d, tau, &wi);
        fr_mul(&d, &d, &mm);
        fr_inv(&d, &d);
        fr_mul(&L, &zt, &wi);
        fr_mul(&L, &L, &d);
        for (int s = 0; s < 3; s++) {
            const cs_matrix_t *mx = &sh->m[s];
            for (uint64_t t = mx->row_ptr[i]; t < mx->row_ptr[i + 1]; t++) {
                fr_t x;
                fr_mul(&x, &sh->coeffs[mx->coeff[t]], &L);
                fr_add(&cols[s][mx->col[t]], &cols[s][mx->col[t]], &x);
            }
        }
    }
}

static void expect_g1(const g1_affine_t *got, const fr_t *k, const char *what)
{
    g1_jac_t g, e;
    g1_from_affine(&g, &G1_GENERATOR);
    g1_mul_fr(&e, &g, k);
    g1_affine_t ea;
    g1_to_affine(&ea, &e);
    cr_assert(g1_affine_eq(got, &ea), "%s differs from the known answer", what);
}

static void expect_g2(const g2_affine_t *got, const fr_t *k, const char *what)
{
    g2_jac_t g, e;
    g2_from_affine(&g, &G2_GENERATOR);
    g2_mul_fr(&e, &g, k);
    g2_affine_t ea;
    g2_to_affine(&ea, &e);
    cr_assert(g2_affine_eq(got, &ea), "%s differs from the known answer", what);
}

static void known_answer(const char *circuit, uint64_t size)
{
    test_rng_t rng;
    test_rng_init(&rng, "groth16 known_answer");
    fx_t f;
    fx_open(&f, circuit, size, 1, &rng);
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, f.seed);
    const cs_shape_t *sh = f.shape;
    uint64_t nv = sh->n_inputs + sh->n_aux;
    fr_t *u = calloc(nv, sizeof(fr_t)), *v = calloc(nv, sizeof(fr_t)), *wc = calloc(nv, sizeof(fr_t));
    fr_t zt;
    naive_qap(sh, &tw.tau, u, v, wc, &zt);

    /* The verifying key. */
    const groth16_vk_t *vk = groth16_params_vk(f.pp);
    expect_g1(&vk->alpha_g1, &tw.alpha, "alpha_g1");
    expect_g1(&vk->beta_g1, &tw.beta, "beta_g1");
    expect_g2(&vk->beta_g2, &tw.beta, "beta_g2");
    expect_g2(&vk->gamma_g2, &tw.gamma, "gamma_g2");
    expect_g1(&vk->delta_g1, &tw.delta, "delta_g1");
    expect_g2(&vk->delta_g2, &tw.delta, "delta_g2");
    fr_t gi, di;
    fr_inv(&gi, &tw.gamma);
    fr_inv(&di, &tw.delta);
    fr_t *ext = calloc(nv, sizeof(fr_t));
    for (uint64_t j = 0; j < nv; j++) {
        fr_t t, s;
        fr_mul(&t, &tw.beta, &u[j]);
        fr_mul(&s, &tw.alpha, &v[j]);
        fr_add(&t, &t, &s);
        fr_add(&ext[j], &t, &wc[j]);
    }
    for (uint64_t j = 0; j < sh->n_inputs; j++) {
        fr_t k;
        fr_mul(&k, &ext[j], &gi);
        expect_g1(&vk->ic[j], &k, "ic");
    }

    /* A proof with chosen r, s. */
    groth16_witness_t w;
    cs_t *cs = fx_witness(&f, test_rng_next(&rng), &w);
    fr_t rs[2];
    fr_set_u64(&rs[0], test_rng_next(&rng));
    fr_set_u64(&rs[1], test_rng_next(&rng));
    groth16_proof_t p;
    err_t err;
    cr_assert_eq(groth16_prove(f.pv, &p, &w, 1, rs, GROTH16_PROVE_NO_VERIFY, NULL, NULL, &err), 0, "%s", err.msg);
    fr_t as = tw.alpha, bs = tw.beta, t, ics = FR_ZERO, cs_ = FR_ZERO;
    for (uint64_t j = 0; j < nv; j++) {
        const fr_t *zj = j < w.n_inputs ? &w.inputs[j] : &w.aux[j - w.n_inputs];
        fr_mul(&t, zj, &u[j]);
        fr_add(&as, &as, &t);
        fr_mul(&t, zj, &v[j]);
        fr_add(&bs, &bs, &t);
        fr_mul(&t, zj, &ext[j]);
        fr_add(j < w.n_inputs ? &ics : &cs_, j < w.n_inputs ? &ics : &cs_, &t);
    }
    fr_mul(&t, &rs[0], &tw.delta);
    fr_add(&as, &as, &t);
    fr_mul(&t, &rs[1], &tw.delta);
    fr_add(&bs, &bs, &t);
    expect_g1(&p.a, &as, "proof A");
    expect_g2(&p.b, &bs, "proof B");
    /* C delta = A B - alpha beta - IC (the public part, times gamma / gamma). */
    fr_t c;
    fr_mul(&c, &as, &bs);
    fr_mul(&t, &tw.alpha, &tw.beta);
    fr_sub(&c, &c, &t);
    fr_sub(&c, &c, &ics);
    fr_mul(&c, &c, &di);
    expect_g1(&p.c, &c, "proof C");
    cr_assert_eq(groth16_verify(&f.pvk, &p, w.inputs + 1, w.n_inputs - 1, &err), 0, "%s", err.msg);
    cs_destroy(cs);
    free(u);
    free(v);
    free(wc);
    free(ext);
    fx_close(&f);
}

Test(groth16, known_answer_test_mul) { known_answer("test-mul", 0); }
Test(groth16, known_answer_synthetic_16) { known_answer("test-synthetic", 16); }

/* ---- properties ------------------------------------------------------------------------------ */

Test(groth16, randomized_and_batch)
{
    test_rng_t rng;
    test_rng_init(&rng, "groth16 randomized_and_batch");
    fx_t f;
    fx_open(&f, "test-synthetic", 64, 1, &rng);
    groth16_witness_t w[3];
    cs_t *cs0 = fx_witness(&f, test_rng_next(&rng), &w[0]);
    cs_t *cs1 = fx_witness(&f, test_rng_next(&rng), &w[2]);
    w[1] = w[0];
    groth16_proof_t p[3];
    err_t err;
    groth16_timings_t t;
    cr_assert_eq(groth16_prove(f.pv, p, w, 3, NULL, GROTH16_PROVE_DEFAULT, NULL, &t, &err), 0, "%s", err.msg);
    cr_assert(t.total > 0);
    uint8_t b0[GROTH16_PROOF_BYTES], b1[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(b0, &p[0]);
    groth16_proof_to_bytes(b1, &p[1]);
    cr_assert(memcmp(b0, b1, sizeof b0) != 0, "two proofs of one witness are equal");
    size_t ni = w[0].n_inputs - 1;
    fr_t *in = malloc(3 * ni * sizeof(fr_t));
    for (int i = 0; i < 3; i++) {
        memcpy(in + i * ni, w[i].inputs + 1, ni * sizeof(fr_t));
        cr_assert_eq(groth16_verify(&f.pvk, &p[i], w[i].inputs + 1, ni, &err), 0, "%s", err.msg);
    }
    cr_assert_eq(groth16_verify_batch(&f.pvk, p, in, ni, 3, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_verify_batch(&f.pvk, p, in, ni, 0, &err), 0);
    /* Swap the statements of proofs 0 and 2: each fails, so does the batch. */
    if (!fr_eq(&w[0].inputs[1], &w[2].inputs[1])) {
        cr_assert_eq(groth16_verify(&f.pvk, &p[0], w[2].inputs + 1, ni, &err), GM_EVERIFY);
        groth16_proof_t sw[3] = {p[2], p[1], p[0]};
        cr_assert_eq(groth16_verify_batch(&f.pvk, sw, in, ni, 3, &err), GM_EVERIFY);
    }
    /* Wrong count. */
    cr_assert_eq(groth16_verify(&f.pvk, &p[0], in, ni + 1, &err), GM_EINVAL);
    cr_assert_eq(groth16_verify_batch(&f.pvk, p, in, ni + 1, 1, &err), GM_EINVAL);
    free(in);
    cs_destroy(cs0);
    cs_destroy(cs1);
    fx_close(&f);
}

/* The two stages: k witnesses prepared into k units (out of order, one
 * unit reused), then finished in one call, give proofs byte-equal to the
 * wrapper's for the same r, s; the witnesses of other units do not leak in;
 * a unit that was never prepared, a prepare-only prover and a failed
 * prepare are refused. */
static void split_equals_wrapper(unsigned threads)
{
    test_rng_t rng;
    test_rng_init(&rng, "groth16 split_equals_wrapper");
    fx_t f;
    fx_open(&f, "test-synthetic", 128, threads, &rng);
    enum { K = 3 };
    groth16_witness_t w[K];
    cs_t *cs[K];
    fr_t rs[2 * K];
    for (int i = 0; i < K; i++) {
        cs[i] = fx_witness(&f, test_rng_next(&rng), &w[i]);
        fr_set_u64(&rs[2 * i], test_rng_next(&rng));
        fr_set_u64(&rs[2 * i + 1], test_rng_next(&rng));
    }
    err_t err;
    groth16_proof_t want[K], got[K];
    cr_assert_eq(groth16_prove(f.pv, want, w, K, rs, GROTH16_PROVE_DEFAULT, f.pool, NULL, &err), 0, "%s", err.msg);
    groth16_prepared_t *u[K];
    for (int i = 0; i < K; i++)
        cr_assert_eq(groth16_prepared_create(&u[i], f.pv, &err), 0, "%s", err.msg);
    /* A unit that holds nothing yet is refused. */
    cr_assert_eq(groth16_finish(f.pv, got, u, 1, rs, GROTH16_PROVE_DEFAULT, f.pool, NULL, &err), GM_EINVAL);
    size_t nin;
    groth16_prepared_inputs(u[0], &nin);
    cr_assert_eq(nin, 0);
    /* Unit 0 first holds witness 2, then witness 0: the second prepare replaces it. */
    groth16_timings_t tp, tf;
    cr_assert_eq(groth16_prepare(f.pv, u[0], &w[2], f.pool, &tp, &err), 0, "%s", err.msg);
    for (int i = K - 1; i >= 0; i--)
        cr_assert_eq(groth16_prepare(f.pv, u[i], &w[i], f.pool, &tp, &err), 0, "%s", err.msg);
    cr_assert(tp.total > 0 && tp.msm_a == 0 && tp.verify == 0);
    const fr_t *in = groth16_prepared_inputs(u[1], &nin);
    cr_assert_eq(nin, w[1].n_inputs);
    cr_assert(in == w[1].inputs);
    cr_assert_eq(groth16_finish(f.pv, got, u, K, rs, GROTH16_PROVE_DEFAULT, f.pool, &tf, &err), 0, "%s", err.msg);
    cr_assert(tf.total > 0 && tf.abc == 0 && tf.ntt == 0);
    for (int i = 0; i < K; i++) {
        uint8_t a[GROTH16_PROOF_BYTES], b[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(a, &want[i]);
        groth16_proof_to_bytes(b, &got[i]);
        cr_assert(memcmp(a, b, sizeof a) == 0, "unit %d: the split path differs from groth16_prove", i);
        cr_assert_eq(groth16_verify(&f.pvk, &got[i], w[i].inputs + 1, w[i].n_inputs - 1, &err), 0, "%s", err.msg);
    }
    /* Finishing again with fresh r, s: other proofs, still valid. */
    cr_assert_eq(groth16_finish(f.pv, got, u, K, NULL, GROTH16_PROVE_DEFAULT, f.pool, NULL, &err), 0, "%s", err.msg);
    cr_assert(!g1_affine_eq(&got[0].a, &want[0].a));
    /* A failed prepare (wrong counts) leaves the unit unusable. */
    groth16_witness_t bad = w[0];
    bad.n_aux--;
    cr_assert_eq(groth16_prepare(f.pv, u[0], &bad, f.pool, NULL, &err), GM_EINVAL);
    cr_assert_eq(groth16_finish(f.pv, got, u, 1, rs, GROTH16_PROVE_DEFAULT, f.pool, NULL, &err), GM_EINVAL);
    /* A prepare-only prover prepares the same h but cannot finish. */
    groth16_prover_t *po;
    cr_assert_eq(groth16_prover_create(&po, NULL, f.shape, f.pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prepare(po, u[0], &w[0], f.pool, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_finish(po, got, u, 1, rs, GROTH16_PROVE_DEFAULT, f.pool, NULL, &err), GM_EINVAL);
    cr_assert_eq(groth16_finish(f.pv, got, u, 1, rs, GROTH16_PROVE_DEFAULT, f.pool, NULL, &err), 0, "%s", err.msg);
    cr_assert(g1_affine_eq(&got[0].c, &want[0].c), "prepare-only prover: another h");
    groth16_prover_destroy(po);
    for (int i = 0; i < K; i++) {
        groth16_prepared_free(u[i]);
        cs_destroy(cs[i]);
    }
    fx_close(&f);
}

Test(groth16, split_equals_wrapper) { split_equals_wrapper(1); }
Test(groth16, split_equals_wrapper_pool2) { split_equals_wrapper(2); }

Test(groth16, rejects_wrong_inputs_and_altered_proofs)
{
    test_rng_t rng;
    test_rng_init(&rng, "groth16 rejects");
    fx_t f;
    fx_open(&f, "test-mul", 0, 1, &rng);
    groth16_witness_t w;
    cs_t *cs = fx_witness(&f, test_rng_next(&rng), &w);
    groth16_proof_t p;
    err_t err;
    cr_assert_eq(groth16_prove(f.pv, &p, &w, 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s", err.msg);
    fr_t bad = w.inputs[1];
    fr_add(&bad, &bad, &FR_ONE);
    cr_assert_eq(groth16_verify(&f.pvk, &p, &bad, 1, &err), GM_EVERIFY);
    cr_assert(strstr(err.msg, "does not hold"));

    groth16_proof_t q = p; /* A and C swapped */
    q.a = p.c;
    q.c = p.a;
    cr_assert_eq(groth16_verify(&f.pvk, &q, w.inputs + 1, 1, &err), GM_EVERIFY);
    q = p; /* A + G */
    g1_jac_t j, g;
    g1_from_affine(&j, &p.a);
    g1_from_affine(&g, &G1_GENERATOR);
    g1_add(&j, &j, &g);
    g1_to_affine(&q.a, &j);
    cr_assert_eq(groth16_verify(&f.pvk, &q, w.inputs + 1, 1, &err), GM_EVERIFY);
    q = p; /* B negated */
    g2_affine_neg(&q.b, &p.b);
    cr_assert_eq(groth16_verify(&f.pvk, &q, w.inputs + 1, 1, &err), GM_EVERIFY);

    /* Byte-level: every single-bit flip of the encoding is rejected at
     * decoding or at verification. */
    uint8_t b[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(b, &p);
    for (int trial = 0; trial < 24; trial++) {
        size_t pos = (size_t)(test_rng_next(&rng) % GROTH16_PROOF_BYTES);
        uint8_t bit = (uint8_t)(1u << (test_rng_next(&rng) % 8));
        b[pos] ^= bit;
        int rc = groth16_proof_from_bytes(&q, b, "proof.bin: proof 0", &err);
        if (rc == 0)
            rc = groth16_verify(&f.pvk, &q, w.inputs + 1, 1, &err);
        cr_assert_neq(rc, 0, "flip of byte %zu bit %u accepted", pos, bit);
        b[pos] ^= bit;
    }
    cs_destroy(cs);
    fx_close(&f);
}

/* A point on E(Fp) outside G1 (x^3 + 4 a square for some small x; the
 * cofactor makes the subgroup rare). */
static void off_subgroup_g1(g1_affine_t *out)
{
    for (uint64_t x = 1;; x++) {
        fp_t fx, rhs, y, four;
        fp_set_u64(&fx, x);
        fp_set_u64(&four, 4);
        fp_sqr(&rhs, &fx);
        fp_mul(&rhs, &rhs, &fx);
        fp_add(&rhs, &rhs, &four);
        if (!fp_sqrt(&y, &rhs))
            continue;
        out->x = fx;
        out->y = y;
        out->inf = false;
        if (!g1_affine_in_subgroup(out))
            return;
    }
}

Test(groth16, proof_decoding_errors)
{
    err_t err;
    groth16_proof_t p, q;
    g1_jac_t g1, t1;
    g2_jac_t g2, t2;
    fr_t k;
    fr_set_u64(&k, 12345);
    g1_from_affine(&g1, &G1_GENERATOR);
    g2_from_affine(&g2, &G2_GENERATOR);
    g1_mul_fr(&t1, &g1, &k);
    g2_mul_fr(&t2, &g2, &k);
    g1_to_affine(&p.a, &t1);
    g2_to_affine(&p.b, &t2);
    p.c = G1_GENERATOR;
    uint8_t b[GROTH16_PROOF_BYTES], c[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(b, &p);
    cr_assert_eq(groth16_proof_from_bytes(&q, b, "pf", &err), 0, "%s", err.msg);

    memcpy(c, b, sizeof c); /* identity A */
    memset(c, 0, 48);
    c[0] = 0xc0;
    cr_assert_eq(groth16_proof_from_bytes(&q, c, "pf", &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "pf: A: point at infinity"), "%s", err.msg);

    memcpy(c, b, sizeof c); /* compression flag cleared on B */
    c[48] &= 0x7f;
    cr_assert_eq(groth16_proof_from_bytes(&q, c, "pf", &err), GM_EFLAGS);
    cr_assert(strstr(err.msg, "B:"), "%s", err.msg);

    memcpy(c, b, sizeof c); /* C's x = p: not canonical */
    static const uint8_t P_BE[48] = {0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6,
                                     0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf,
                                     0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe,
                                     0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
    memcpy(c + 144, P_BE, 48);
    c[144] |= 0x80;
    cr_assert_eq(groth16_proof_from_bytes(&q, c, "pf", &err), GM_ENONCANON);
    cr_assert(strstr(err.msg, "C:"), "%s", err.msg);

    g1_affine_t bad; /* A off the subgroup */
    off_subgroup_g1(&bad);
    memcpy(c, b, sizeof c);
    g1_to_bytes_compressed(c, &bad);
    cr_assert_eq(groth16_proof_from_bytes(&q, c, "pf", &err), GM_ESUBGROUP);
}

Test(groth16, unsatisfied_witness_is_not_returned)
{
    test_rng_t rng;
    test_rng_init(&rng, "groth16 unsatisfied");
    fx_t f;
    fx_open(&f, "test-synthetic", 32, 1, &rng);
    groth16_witness_t w;
    cs_t *cs = fx_witness(&f, test_rng_next(&rng), &w);
    fr_t *aux = malloc(w.n_aux * sizeof(fr_t));
    memcpy(aux, w.aux, w.n_aux * sizeof(fr_t));
    fr_add(&aux[1], &aux[1], &FR_ONE);
    groth16_witness_t bad = w;
    bad.aux = aux;
    groth16_proof_t p;
    err_t err;
    cr_assert_eq(groth16_prove(f.pv, &p, &bad, 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EVERIFY);
    cr_assert(strstr(err.msg, "witness 0"), "%s", err.msg);
    /* With --no-verify the proof comes back, and the verifier rejects it. */
    cr_assert_eq(groth16_prove(f.pv, &p, &bad, 1, NULL, GROTH16_PROVE_NO_VERIFY, NULL, NULL, &err), 0);
    cr_assert_eq(groth16_verify(&f.pvk, &p, w.inputs + 1, w.n_inputs - 1, &err), GM_EVERIFY);
    /* Wrong witness sizes and a broken ONE. */
    bad = w;
    bad.n_aux--;
    cr_assert_eq(groth16_prove(f.pv, &p, &bad, 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EINVAL);
    fr_t *in = malloc(w.n_inputs * sizeof(fr_t));
    memcpy(in, w.inputs, w.n_inputs * sizeof(fr_t));
    in[0] = FR_ZERO;
    bad = w;
    bad.inputs = in;
    cr_assert_eq(groth16_prove(f.pv, &p, &bad, 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EINVAL);
    free(in);
    free(aux);
    cs_destroy(cs);
    fx_close(&f);
}

Test(groth16, setup_is_deterministic_in_the_seed)
{
    err_t err;
    groth16_toxic_t a, b;
    uint8_t seed[GROTH16_SEED_BYTES] = {1, 2, 3};
    groth16_toxic_from_seed(&a, seed);
    groth16_toxic_from_seed(&b, seed);
    cr_assert(fr_eq(&a.tau, &b.tau) && fr_eq(&a.delta, &b.delta));
    cr_assert(!fr_eq(&a.tau, &a.alpha) && !fr_eq(&a.gamma, &a.delta));
    seed[31] ^= 1;
    groth16_toxic_from_seed(&b, seed);
    cr_assert(!fr_eq(&a.tau, &b.tau));
    uint8_t r1[GROTH16_SEED_BYTES], r2[GROTH16_SEED_BYTES];
    cr_assert_eq(groth16_seed_random(r1, &err), 0);
    cr_assert_eq(groth16_seed_random(r2, &err), 0);
    cr_assert(memcmp(r1, r2, sizeof r1) != 0);
}

Test(groth16, circuit_names)
{
    err_t err;
    circuit_t c;
    cr_assert_eq(circuit_parse(&c, "test-synthetic", 100, NULL, &err), GM_EINVAL);
    cr_assert_eq(circuit_parse(&c, "nope", 0, NULL, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "test-mul"));
    cr_assert_eq(circuit_parse(&c, "test-synthetic", 64, NULL, &err), 0);
    cr_assert_str_eq(c.id, "test-synthetic-64");
    cs_shape_t *sh;
    cr_assert_eq(circuit_shape(&sh, &c, &err), 0, "%s", err.msg);
    cr_assert_eq(sh->n_rows, 64);
    cs_shape_free(sh);
    cr_assert_eq(circuit_parse(&c, "porep", 0, "2KiB", &err), 0);
    cr_assert_str_eq(c.id, "porep-2048-v2");
    cr_assert_eq(c.size, 2048); /* its shape and witnesses: test_porep_prove.c, porep_prove.sh */
    cr_assert_eq(circuit_parse(&c, "porep", 0, "3KiB", &err), GM_EINVAL);
}
