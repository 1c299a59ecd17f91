/*
 * tests/unit/test_snarkjs.c — the files of snarkjs/: circom's .r1cs / .wtns (whole and by ranges),
 * snarkjs's .zkey (whole and one rank's slices), proof.json / public.json / verification_key.json, the
 * snarkjs-convention prover and the development powers of tau.
 *
 * Known answers come from the peer: tests/vectors/snarkjs/ holds a
 * multiplier circuit compiled by circom2 and set up, proved and exported by
 * snarkjs (tests/vectors/snarkjs/README.md names versions and commands). The
 * prover's h and C are checked against a naive O(n^2) DFT written here with
 * ffjavascript's roots taken straight from their definition (5^((r-1)/2^k)),
 * sharing nothing with the NTT, the MSM or the root permutation. Every
 * reader is fed every truncation and every single-byte flip of the real
 * files: each must return an error or a valid object, never crash (the
 * sanitizer build runs the same cases). Replay with GM_TEST_SEED=<seed>.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#include "tests/unit/file_util.h"
#include "snarkjs/snarkjs.h"
#pragma GCC diagnostic pop

#define VDIR "tests/vectors/snarkjs/"

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(snarkjs, .init = init);

/* The file as a NUL-terminated string. */
static char *slurp_str(const char *path)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    char *s = gm_alloc(n + 1);
    cr_assert(s);
    memcpy(s, b, n);
    s[n] = 0;
    gm_free(b);
    return s;
}

static void write_text(const char *path, const char *t) { write_bytes(path, t, strlen(t)); }

static void fr_u64(fr_t *o, uint64_t v) { fr_set_u64(o, v); }

/* (r - 1) >> k as 4 limbs. */
static void r_minus_1_shr(uint64_t out[4], unsigned k)
{
    uint64_t m[4];
    memcpy(m, FR_MODULUS, sizeof m);
    m[0] -= 1;
    for (unsigned s = 0; s < k; s++) {
        for (int i = 0; i < 4; i++)
            m[i] = (m[i] >> 1) | (i < 3 ? m[i + 1] << 63 : 0);
    }
    memcpy(out, m, sizeof m);
}

/* ffjavascript's w_k from its definition: 5^((r - 1) / 2^k). */
static void ffjs_root(fr_t *out, unsigned k)
{
    uint64_t e[4];
    r_minus_1_shr(e, k);
    fr_t five;
    fr_u64(&five, 5);
    fr_pow(out, &five, e, 4);
}

Test(snarkjs, root_of_unity_is_ffjavascripts)
{
    /* The value snarkjs-formats.md quotes for Fr.w[32]. */
    static const uint8_t w32_be[32] = {
        0x02, 0x12, 0xd7, 0x9e, 0x5b, 0x41, 0x6b, 0x6f, 0x0f, 0xd5, 0x6d, 0xc8, 0xd1, 0x68, 0xd6, 0xc0,
        0xc4, 0x02, 0x4f, 0xf2, 0x70, 0xb3, 0xe0, 0x94, 0x1b, 0x78, 0x8f, 0x50, 0x0b, 0x91, 0x2f, 0x1f};
    fr_t want, got, x;
    cr_assert_eq(fr_from_bytes_be(&want, w32_be), 0);
    snarkjs_root_of_unity(&got, 32);
    cr_assert(fr_eq(&got, &want), "Fr.w[32] differs from ffjavascript's");
    for (unsigned k = 0; k <= 32; k++) {
        ffjs_root(&want, k);
        snarkjs_root_of_unity(&got, k);
        cr_assert(fr_eq(&got, &want), "w_%u", k);
        /* primitive: w^(2^(k-1)) = -1 */
        if (k > 0) {
            uint64_t e = k > 1 ? 1ull << (k - 1) : 1;
            if (k - 1 < 64) {
                fr_pow(&x, &got, &e, 1);
                fr_t m1;
                fr_neg(&m1, &FR_ONE);
                cr_assert(fr_eq(&x, &m1), "w_%u is not primitive", k);
            }
        }
    }
}

/* ---- readers on the known files ------------------------------------------------------------ */

Test(snarkjs, r1cs_and_wtns_of_the_multiplier)
{
    err_t err;
    snarkjs_r1cs_t *r;
    snarkjs_wtns_t w;
    cr_assert_eq(snarkjs_r1cs_load(&r, VDIR "multiplier.r1cs", &err), 0, "%s", err.msg);
    cr_assert_eq(r->n_wires, 4);
    cr_assert_eq(r->n_pub_out, 1);
    cr_assert_eq(r->n_pub_in, 1);
    cr_assert_eq(r->n_prv_in, 1);
    cr_assert_eq(r->n_constraints, 1);
    cr_assert_eq(r->n_labels, 4);
    cr_assert_eq(r->n_terms, 3);
    /* circom: A = {2: -1}, B = {3: 1}, C = {1: -1} (a * b = c, c is wire 1) */
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    cr_assert_eq(r->lc_start[1] - r->lc_start[0], 1);
    cr_assert_eq(r->wire[0], 2);
    cr_assert(fr_eq(&r->coef[0], &m1));
    cr_assert_eq(r->wire[1], 3);
    cr_assert(fr_eq(&r->coef[1], &FR_ONE));
    cr_assert_eq(r->wire[2], 1);
    cr_assert(fr_eq(&r->coef[2], &m1));

    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(w.n, 4);
    static const uint64_t want[4] = {1, 33, 3, 11};
    for (int i = 0; i < 4; i++) {
        fr_t v;
        fr_u64(&v, want[i]);
        cr_assert(fr_eq(&w.w[i], &v), "w[%d]", i);
    }
    cr_assert_eq(snarkjs_r1cs_check(r, w.w, w.n, "m.wtns", &err), 0, "%s", err.msg);
    fr_add(&w.w[3], &w.w[3], &FR_ONE);
    cr_assert_eq(snarkjs_r1cs_check(r, w.w, w.n, "m.wtns", &err), GM_EVERIFY);
    cr_assert(strstr(err.msg, "constraint 0"), "%s", err.msg);
    cr_assert_eq(snarkjs_r1cs_check(r, w.w, 3, "m.wtns", &err), GM_EINVAL);
    snarkjs_wtns_free(&w);
    snarkjs_r1cs_free(r);
}

Test(snarkjs, zkey_matches_snarkjs_exported_vk)
{
    err_t err;
    snarkjs_zkey_t *zk;
    groth16_vk_t vk;
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", SNARKJS_ZKEY_SUBGROUP, NULL, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(snarkjs_vk_read_json(&vk, VDIR "verification_key.json", &err), 0, "%s", err.msg);
    cr_assert_eq(zk->n_vars, 4);
    cr_assert_eq(zk->n_public, 2);
    cr_assert_eq(zk->domain_size, 4);
    cr_assert_eq(zk->log_domain, 2);
    cr_assert(g1_affine_eq(&zk->vk.alpha_g1, &vk.alpha_g1));
    cr_assert(g2_affine_eq(&zk->vk.beta_g2, &vk.beta_g2));
    cr_assert(g2_affine_eq(&zk->vk.gamma_g2, &vk.gamma_g2));
    cr_assert(g2_affine_eq(&zk->vk.gamma_g2, &G2_GENERATOR), "snarkjs's gamma is the generator");
    cr_assert(g2_affine_eq(&zk->vk.delta_g2, &vk.delta_g2));
    cr_assert_eq(vk.n_ic, 3);
    for (size_t i = 0; i < 3; i++)
        cr_assert(g1_affine_eq(&zk->vk.ic[i], &vk.ic[i]), "IC[%zu]", i);
    /* Section 4: A(c0, s2, -1), B(c0, s3, 1), then A(c1 + i, s i, 1) for the
     * nPublic + 1 input rows. */
    cr_assert_eq(zk->n_coefs, 5);
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    cr_assert(zk->coefs[0].matrix == 0 && zk->coefs[0].constraint == 0 && zk->coefs[0].signal == 2);
    cr_assert(fr_eq(&zk->coefs[0].value, &m1));
    cr_assert(zk->coefs[1].matrix == 1 && zk->coefs[1].constraint == 0 && zk->coefs[1].signal == 3);
    cr_assert(fr_eq(&zk->coefs[1].value, &FR_ONE));
    for (uint32_t i = 0; i < 3; i++) {
        const snarkjs_coef_t *c = &zk->coefs[2 + i];
        cr_assert(c->matrix == 0 && c->constraint == 1 + i && c->signal == i, "input row %u", i);
        cr_assert(fr_eq(&c->value, &FR_ONE));
    }
    /* delta1 and delta2 share the discrete log: e(delta1, G2) = e(G1, delta2). */
    fp12_t e1, e2;
    pairing(&e1, &zk->vk.delta_g1, &G2_GENERATOR);
    pairing(&e2, &G1_GENERATOR, &zk->vk.delta_g2);
    cr_assert(fp12_eq(&e1, &e2));
    groth16_vk_free(&vk);
    snarkjs_zkey_free(zk);
}

Test(snarkjs, snarkjs_proof_verifies_and_tampering_fails)
{
    err_t err;
    groth16_vk_t vk;
    groth16_proof_t p, q;
    fr_t *pub;
    size_t n;
    cr_assert_eq(snarkjs_vk_read_json(&vk, VDIR "verification_key.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_proof_read_json(&p, VDIR "proof.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_public_read_json(&pub, &n, VDIR "public.json", &err), 0, "%s", err.msg);
    cr_assert_eq(n, 2);
    cr_assert_eq(snarkjs_verify(&vk, &p, pub, n, &err), 0, "%s", err.msg);
    fr_t v;
    fr_add(&v, &pub[0], &FR_ONE);
    fr_t bad[2] = {v, pub[1]};
    cr_assert_eq(snarkjs_verify(&vk, &p, bad, 2, &err), GM_EVERIFY);
    cr_assert_eq(snarkjs_verify(&vk, &p, pub, 1, &err), GM_EINVAL);
    q = p;
    q.a = p.c;
    q.c = p.a;
    cr_assert_eq(snarkjs_verify(&vk, &q, pub, n, &err), GM_EVERIFY);
    q = p;
    g1_affine_neg(&q.c, &p.c);
    cr_assert_eq(snarkjs_verify(&vk, &q, pub, n, &err), GM_EVERIFY);
    gm_free(pub);
    groth16_vk_free(&vk);
}

/* ---- the prover ------------------------------------------------------------------------------- */

static void g1_naive_sum(g1_jac_t *acc, const g1_affine_t *b, const fr_t *s, size_t n)
{
    g1_jac_set_inf(acc);
    for (size_t i = 0; i < n; i++) {
        g1_jac_t p, t;
        g1_from_affine(&p, &b[i]);
        g1_mul_fr(&t, &p, &s[i]);
        g1_add(acc, acc, &t);
    }
}

Test(snarkjs, prove_known_answer_against_naive_dft)
{
    err_t err;
    snarkjs_zkey_t *zk;
    snarkjs_wtns_t w;
    snarkjs_prover_t *pv;
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", SNARKJS_ZKEY_DEFAULT, NULL, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_prover_create(&pv, zk, NULL, &err), 0, "%s", err.msg);
    groth16_proof_t p;
    const fr_t rs0[2] = {FR_ZERO, FR_ZERO};
    cr_assert_eq(snarkjs_prove(pv, &p, w.w, w.n, rs0, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s", err.msg);

    /* A = alpha + sum w_i A_i, B = beta2 + sum w_i B2_i with r = s = 0. */
    g1_jac_t acc, want;
    g1_affine_t wa;
    g1_naive_sum(&acc, zk->a, w.w, w.n);
    g1_add_mixed(&acc, &acc, &zk->vk.alpha_g1);
    g1_to_affine(&wa, &acc);
    cr_assert(g1_affine_eq(&wa, &p.a), "pi_a");
    g2_jac_t acc2;
    g2_jac_set_inf(&acc2);
    for (size_t i = 0; i < w.n; i++) {
        g2_jac_t q, t;
        g2_from_affine(&q, &zk->b2[i]);
        g2_mul_fr(&t, &q, &w.w[i]);
        g2_add(&acc2, &acc2, &t);
    }
    g2_add_mixed(&acc2, &acc2, &zk->vk.beta_g2);
    g2_affine_t wb;
    g2_to_affine(&wb, &acc2);
    cr_assert(g2_affine_eq(&wb, &p.b), "pi_b");

    /* h by naive DFTs over ffjavascript's roots. */
    size_t n = zk->domain_size;
    fr_t aev[8] = {0}, bev[8] = {0}, cev[8], om, g, ninv;
    cr_assert(n <= 8);
    for (uint64_t i = 0; i < zk->n_coefs; i++) {
        const snarkjs_coef_t *c = &zk->coefs[i];
        fr_t t;
        fr_mul(&t, &c->value, &w.w[c->signal]);
        fr_t *v = c->matrix ? bev : aev;
        fr_add(&v[c->constraint], &v[c->constraint], &t);
    }
    for (size_t i = 0; i < n; i++)
        fr_mul(&cev[i], &aev[i], &bev[i]);
    ffjs_root(&om, zk->log_domain);
    ffjs_root(&g, zk->log_domain + 1);
    fr_u64(&ninv, n);
    fr_inv(&ninv, &ninv);
    fr_t omi;
    fr_inv(&omi, &om);
    fr_t *ev[3] = {aev, bev, cev}, odd[3][8];
    for (int m = 0; m < 3; m++) {
        fr_t coef[8];
        for (size_t j = 0; j < n; j++) { /* coef_j = 1/n sum_c ev[c] om^-jc */
            coef[j] = FR_ZERO;
            for (size_t c = 0; c < n; c++) {
                fr_t x, t;
                uint64_t e = (uint64_t)(j * c);
                fr_pow(&x, &omi, &e, 1);
                fr_mul(&t, &ev[m][c], &x);
                fr_add(&coef[j], &coef[j], &t);
            }
            fr_mul(&coef[j], &coef[j], &ninv);
        }
        for (size_t i = 0; i < n; i++) { /* odd[i] = sum_j coef_j (g om^i)^j */
            fr_t pt, x;
            uint64_t e = i;
            fr_pow(&x, &om, &e, 1);
            fr_mul(&pt, &x, &g);
            odd[m][i] = FR_ZERO;
            for (size_t j = n; j-- > 0;) { /* Horner */
                fr_mul(&odd[m][i], &odd[m][i], &pt);
                fr_add(&odd[m][i], &odd[m][i], &coef[j]);
            }
        }
    }
    fr_t h[8];
    for (size_t i = 0; i < n; i++) {
        fr_mul(&h[i], &odd[0][i], &odd[1][i]);
        fr_sub(&h[i], &h[i], &odd[2][i]);
    }
    g1_jac_t sc, sh;
    size_t np1 = zk->n_public + 1;
    g1_naive_sum(&sc, zk->c, w.w + np1, w.n - np1);
    g1_naive_sum(&sh, zk->h, h, n);
    g1_add(&want, &sc, &sh);
    g1_affine_t wc;
    g1_to_affine(&wc, &want);
    cr_assert(g1_affine_eq(&wc, &p.c), "pi_c differs from the naive DFT's");

    /* Random r, s: verifies with snarkjs's exported key. */
    groth16_vk_t vk;
    cr_assert_eq(snarkjs_vk_read_json(&vk, VDIR "verification_key.json", &err), 0, "%s", err.msg);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(snarkjs_prove(pv, &p, w.w, w.n, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s",
                     err.msg);
        cr_assert_eq(snarkjs_verify(&vk, &p, w.w + 1, 2, &err), 0, "%s", err.msg);
    }
    /* A witness that does not satisfy the circuit: no proof. */
    fr_add(&w.w[3], &w.w[3], &FR_ONE);
    cr_assert_eq(snarkjs_prove(pv, &p, w.w, w.n, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EVERIFY);
    cr_assert_eq(snarkjs_prove(pv, &p, w.w, w.n - 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EINVAL);
    groth16_vk_free(&vk);
    snarkjs_prover_destroy(pv);
    snarkjs_wtns_free(&w);
    snarkjs_zkey_free(zk);
}

Test(snarkjs, prove_on_a_pool_matches_single_thread)
{
    err_t err;
    snarkjs_zkey_t *zk;
    snarkjs_wtns_t w;
    snarkjs_prover_t *p1, *p2;
    topo_pool_t *pool;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", SNARKJS_ZKEY_DEFAULT, pool, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_prover_create(&p1, zk, NULL, &err), 0);
    cr_assert_eq(snarkjs_prover_create(&p2, zk, pool, &err), 0);
    test_rng_t rng;
    test_rng_init(&rng, "snarkjs/prove_on_a_pool_matches_single_thread");
    fr_t rs[2];
    fr_u64(&rs[0], test_rng_next(&rng));
    fr_u64(&rs[1], test_rng_next(&rng));
    groth16_proof_t a, b;
    cr_assert_eq(snarkjs_prove(p1, &a, w.w, w.n, rs, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_prove(p2, &b, w.w, w.n, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    cr_assert(g1_affine_eq(&a.a, &b.a) && g2_affine_eq(&a.b, &b.b) && g1_affine_eq(&a.c, &b.c));
    snarkjs_prover_destroy(p1);
    snarkjs_prover_destroy(p2);
    snarkjs_wtns_free(&w);
    snarkjs_zkey_free(zk);
    topo_pool_destroy(pool);
}

/* ---- JSON ---------------------------------------------------------------------------------------- */

/* Replaces every run of digits by one '0', so two proof files compare by layout. */
static void mask_digits(char *s)
{
    char *o = s;
    for (const char *p = s; *p;) {
        if (*p >= '0' && *p <= '9') {
            while (*p >= '0' && *p <= '9')
                p++;
            *o++ = '0';
        } else {
            *o++ = *p++;
        }
    }
    *o = 0;
}

Test(snarkjs, json_layout_is_snarkjs_byte_for_byte)
{
    err_t err;
    groth16_proof_t p;
    fr_t *pub;
    size_t n, len;
    cr_assert_eq(snarkjs_proof_read_json(&p, VDIR "proof.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_public_read_json(&pub, &n, VDIR "public.json", &err), 0, "%s", err.msg);
    /* Values round trip exactly: our text of snarkjs's proof is snarkjs's file. */
    char *t;
    uint8_t *f = slurp(VDIR "proof.json", &len);
    cr_assert_eq(snarkjs_proof_to_json(&t, &p, &err), 0);
    cr_assert_eq(strlen(t), len);
    cr_assert_eq(memcmp(t, f, len), 0, "proof.json differs:\n%s", t);
    gm_free(t);
    gm_free(f);
    f = slurp(VDIR "public.json", &len);
    cr_assert_eq(snarkjs_public_to_json(&t, pub, n, &err), 0);
    cr_assert_eq(strlen(t), len);
    cr_assert_eq(memcmp(t, f, len), 0, "public.json differs:\n%s", t);
    gm_free(t);
    gm_free(f);
    /* A fresh proof has the same layout (digits masked). */
    snarkjs_zkey_t *zk;
    snarkjs_wtns_t w;
    snarkjs_prover_t *pv;
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", SNARKJS_ZKEY_DEFAULT, NULL, &err), 0);
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0);
    cr_assert_eq(snarkjs_prover_create(&pv, zk, NULL, &err), 0);
    cr_assert_eq(snarkjs_prove(pv, &p, w.w, w.n, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0);
    char tmp[] = "/tmp/gm_sj_XXXXXX";
    cr_assert(mkdtemp(tmp));
    char pp[64], pubp[64];
    snprintf(pp, sizeof pp, "%s/proof.json", tmp);
    snprintf(pubp, sizeof pubp, "%s/public.json", tmp);
    cr_assert_eq(snarkjs_proof_write_json(pp, &p, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_public_write_json(pubp, w.w + 1, zk->n_public, &err), 0, "%s", err.msg);
    char *ours = slurp_str(pp), *theirs = slurp_str(VDIR "proof.json");
    mask_digits(ours);
    mask_digits(theirs);
    cr_assert_str_eq(ours, theirs);
    gm_free(ours);
    gm_free(theirs);
    ours = slurp_str(pubp);
    theirs = slurp_str(VDIR "public.json");
    cr_assert_str_eq(ours, theirs);
    gm_free(ours);
    gm_free(theirs);
    /* No temporary file is left behind. */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 2", tmp);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    cr_assert_eq(system(cmd), 0);
    gm_free(pub);
    snarkjs_prover_destroy(pv);
    snarkjs_wtns_free(&w);
    snarkjs_zkey_free(zk);
}

Test(snarkjs, json_reading_follows_ffjavascript)
{
    err_t err;
    char tmp[] = "/tmp/gm_sj_XXXXXX";
    cr_assert(mkdtemp(tmp));
    char path[64];
    snprintf(path, sizeof path, "%s/p.json", tmp);
    groth16_proof_t p, q;
    cr_assert_eq(snarkjs_proof_read_json(&p, VDIR "proof.json", &err), 0);
    /* Jacobian third coordinate: (X Z^2, Y Z^3, Z) with Z = 2; hex strings; infinity. */
    fp_t z, z2, z3, x, y;
    fp_set_u64(&z, 2);
    fp_sqr(&z2, &z);
    fp_mul(&z3, &z2, &z);
    fp_mul(&x, &p.a.x, &z2);
    fp_mul(&y, &p.a.y, &z3);
    char xs[FP_DEC_MAX], ys[FP_DEC_MAX], bx0[FP_DEC_MAX], bx1[FP_DEC_MAX], by0[FP_DEC_MAX], by1[FP_DEC_MAX];
    fp_to_dec(xs, &x);
    fp_to_dec(ys, &y);
    fp_to_dec(bx0, &p.b.x.c0);
    fp_to_dec(bx1, &p.b.x.c1);
    fp_to_dec(by0, &p.b.y.c0);
    fp_to_dec(by1, &p.b.y.c1);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"pi_a\": [\"%s\", \"%s\", \"2\"], \"pi_b\": [[\"%s\", \"%s\"], [\"%s\", \"%s\"]],"
             " \"pi_c\": [\"0x0\", 1, \"0\"], \"protocol\": \"groth16\"}", xs, ys, bx0, bx1, by0, by1);
    write_text(path, text);
    cr_assert_eq(snarkjs_proof_read_json(&q, path, &err), 0, "%s", err.msg);
    cr_assert(g1_affine_eq(&q.a, &p.a));
    cr_assert(g2_affine_eq(&q.b, &p.b));
    cr_assert(q.c.inf);
    /* Errors name the key. */
    static const struct {
        const char *text;
        int code;
        const char *needle;
    } bad[] = {
        {"not json", GM_EFORMAT, "line"},
        {"[1, 2]", GM_EFORMAT, "object"},
        {"{\"pi_b\": [], \"pi_c\": []}", GM_EFORMAT, "pi_a"},
        {"{\"pi_a\": [\"1\", \"2\", \"1\"], \"pi_b\": [], \"pi_c\": []}", GM_ENOTONCURVE, "pi_a"},
        {"{\"pi_a\": [\"x1\", \"2\"], \"pi_b\": [], \"pi_c\": []}", GM_EFORMAT, "pi_a[0]"},
        {"{\"pi_a\": [\"0\", \"1\", \"0\"], \"pi_b\": [[\"0\"], [\"1\", \"0\"]], \"pi_c\": []}", GM_EFORMAT,
         "pi_b[0]"},
        {"{\"pi_a\": [\"0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff"
         "aaab\", \"0\"], \"pi_b\": [], \"pi_c\": []}", GM_ENONCANON, "pi_a[0]"},
        {"{\"pi_a\": [\"0\", \"1\", \"0\"], \"pi_b\": [], \"pi_c\": [], \"curve\": \"bn128\"}", GM_ENOTSUP, "bn128"},
        {"{\"pi_a\": [\"0\", \"1\", \"0\"], \"pi_b\": [], \"pi_c\": [], \"protocol\": \"plonk\"}", GM_ENOTSUP,
         "plonk"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i].text);
        int rc = snarkjs_proof_read_json(&q, path, &err);
        cr_assert_eq(rc, bad[i].code, "case %zu: %d (%s)", i, rc, err.msg);
        cr_assert(strstr(err.msg, bad[i].needle), "case %zu: '%s' lacks '%s'", i, err.msg, bad[i].needle);
    }
    /* public.json: values >= r are refused (as snarkjs's verify refuses them). */
    fr_t *pub;
    size_t n;
    write_text(path, "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]");
    cr_assert_eq(snarkjs_public_read_json(&pub, &n, path, &err), GM_ENONCANON);
    write_text(path, "[\"0x10\", 7, \"0\"]");
    cr_assert_eq(snarkjs_public_read_json(&pub, &n, path, &err), 0, "%s", err.msg);
    cr_assert_eq(n, 3);
    fr_t v;
    fr_u64(&v, 16);
    cr_assert(fr_eq(&pub[0], &v));
    gm_free(pub);
    write_text(path, "{}");
    cr_assert_eq(snarkjs_public_read_json(&pub, &n, path, &err), GM_EFORMAT);
    /* verification_key.json: wrong curve, IC count. */
    groth16_vk_t vk;
    write_text(path, "{\"protocol\": \"groth16\", \"curve\": \"bn128\", \"nPublic\": 0, \"IC\": []}");
    cr_assert_eq(snarkjs_vk_read_json(&vk, path, &err), GM_ENOTSUP);
    write_text(path, "{\"protocol\": \"groth16\", \"curve\": \"bls12381\", \"nPublic\": 2, \"IC\": []}");
    cr_assert_eq(snarkjs_vk_read_json(&vk, path, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "IC"), "%s", err.msg);
    snprintf(path, sizeof path, "%s/missing.json", tmp);
    cr_assert_eq(snarkjs_vk_read_json(&vk, path, &err), GM_EIO);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    cr_assert_eq(system(cmd), 0);
}

/* ---- other curves, protocols, versions --------------------------------------------------------- */

Test(snarkjs, other_curves_protocols_and_versions_are_refused)
{
    err_t err;
    snarkjs_r1cs_t *r;
    snarkjs_wtns_t w;
    snarkjs_zkey_t *zk;
    cr_assert_eq(snarkjs_r1cs_load(&r, VDIR "multiplier_bn128.r1cs", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bn128") && strstr(err.msg, "bls12381"), "%s", err.msg);
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier_bn128.wtns", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bn128"), "%s", err.msg);
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier_bn128.zkey", 0, NULL, &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bn128"), "%s", err.msg);
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier_plonk.zkey", 0, NULL, &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "plonk"), "%s", err.msg);
    size_t n;
    uint8_t *buf = slurp(VDIR "multiplier.zkey", &n);
    buf[4] = 3; /* version 3 */
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, buf, n, "v.zkey", 0, NULL, &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "version 3"), "%s", err.msg);
    memcpy(buf, "wtns", 4);
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, buf, n, "v.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "magic"), "%s", err.msg);
    gm_free(buf);
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "nonexistent.zkey", 0, NULL, &err), GM_EIO);
}

/* Finds section id's data offset in a container (test-side parser). */
static size_t section_at(const uint8_t *b, size_t n, uint32_t id, uint64_t *size)
{
    size_t pos = 12;
    uint32_t ns = b[8] | b[9] << 8 | b[10] << 16 | (uint32_t)b[11] << 24;
    for (uint32_t i = 0; i < ns && pos + 12 <= n; i++) {
        uint32_t sid = b[pos] | b[pos + 1] << 8 | b[pos + 2] << 16 | (uint32_t)b[pos + 3] << 24;
        uint64_t sz = 0;
        for (int k = 7; k >= 0; k--)
            sz = sz << 8 | b[pos + 4 + k];
        if (sid == id) {
            *size = sz;
            return pos + 12;
        }
        pos += 12 + (size_t)sz;
    }
    cr_assert_fail("section %u not found", id);
    return 0;
}

Test(snarkjs, zkey_errors_name_section_and_value)
{
    err_t err;
    snarkjs_zkey_t *zk;
    size_t n;
    uint64_t sz;
    uint8_t *orig = slurp(VDIR "multiplier.zkey", &n), *b = gm_alloc(n);
    /* A point of section 5 moved off the curve. */
    memcpy(b, orig, n);
    size_t at = section_at(b, n, 5, &sz);
    b[at + 96 + 50] ^= 1; /* point 1, y */
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "c.zkey: section 5 (PointsA): point 1"), "%s", err.msg);
    /* A coordinate >= q in section 9. */
    memcpy(b, orig, n);
    at = section_at(b, n, 9, &sz);
    memset(b + at + 2 * 96, 0xff, 48);
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ENONCANON);
    cr_assert(strstr(err.msg, "section 9 (PointsH): point 2"), "%s", err.msg);
    /* A coefficient entry pointing past nVars. */
    memcpy(b, orig, n);
    at = section_at(b, n, 4, &sz);
    b[at + 4 + 8] = 9;
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 4 (Coefs): entry 0") && strstr(err.msg, "signal 9"), "%s", err.msg);
    /* nVars in the header no longer matches the section lengths. */
    memcpy(b, orig, n);
    at = section_at(b, n, 2, &sz);
    b[at + 88] = 5;
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 5 (PointsA): length 384, expected 480"), "%s", err.msg);
    /* domainSize not a power of two. */
    memcpy(b, orig, n);
    b[at + 96] = 3;
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "domainSize 3"), "%s", err.msg);
    /* Trailing bytes and a missing section. */
    uint8_t *big = gm_alloc(n + 1);
    memcpy(big, orig, n);
    big[n] = 0;
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, big, n + 1, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "trailing"), "%s", err.msg);
    gm_free(big);
    memcpy(b, orig, n);
    at = section_at(b, n, 9, &sz);
    b[at - 12] = 11; /* section 9 renamed 11 */
    cr_assert_eq(snarkjs_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 9 (PointsH) is missing"), "%s", err.msg);
    gm_free(b);
    gm_free(orig);
}

/* ---- fuzz: every truncation and every byte flipped ------------------------------------------- */

typedef int (*parse_fn)(const uint8_t *b, size_t n, err_t *err);

static int parse_r1cs(const uint8_t *b, size_t n, err_t *err)
{
    snarkjs_r1cs_t *r;
    int rc = snarkjs_r1cs_from_bytes(&r, b, n, "f.r1cs", err);
    if (!rc) {
        fr_t w[64];
        size_t k = r->n_wires < 64 ? r->n_wires : 64;
        for (size_t i = 0; i < k; i++)
            fr_set_u64(&w[i], i + 1);
        w[0] = FR_ONE;
        int crc = snarkjs_r1cs_check(r, w, k, "f", err);
        cr_assert(crc == 0 || crc == GM_EVERIFY || crc == GM_EINVAL, "check: %d", crc);
        snarkjs_r1cs_free(r);
    }
    return rc;
}

static int parse_wtns(const uint8_t *b, size_t n, err_t *err)
{
    snarkjs_wtns_t w;
    int rc = snarkjs_wtns_from_bytes(&w, b, n, "f.wtns", err);
    snarkjs_wtns_free(&w);
    return rc;
}

static const snarkjs_wtns_t *g_fuzz_wtns;

static int parse_zkey(const uint8_t *b, size_t n, err_t *err)
{
    snarkjs_zkey_t *zk;
    int rc = snarkjs_zkey_from_bytes(&zk, b, n, "f.zkey", SNARKJS_ZKEY_DEFAULT, NULL, err);
    if (!rc) {
        /* A key that still parses must prove or fail cleanly. */
        snarkjs_prover_t *pv;
        groth16_proof_t p;
        if (snarkjs_prover_create(&pv, zk, NULL, err) == 0) {
            int prc = snarkjs_prove(pv, &p, g_fuzz_wtns->w, g_fuzz_wtns->n, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL,
                                    err);
            cr_assert(prc == 0 || prc == GM_EVERIFY || prc == GM_EINVAL, "prove: %d (%s)", prc, err->msg);
            snarkjs_prover_destroy(pv);
        }
        snarkjs_zkey_free(zk);
    }
    return rc;
}

static void fuzz_file(const char *path, parse_fn fn)
{
    size_t n;
    err_t err;
    uint8_t *orig = slurp(path, &n);
    cr_assert_eq(fn(orig, n, &err), 0, "%s: %s", path, err.msg);
    /* Truncations: always an error, with a message. Each prefix is copied
     * to an exact-size buffer so ASan catches a read past it. */
    for (size_t k = 0; k < n; k++) {
        uint8_t *b = gm_alloc(k ? k : 1);
        memcpy(b, orig, k);
        gm_err_clear(&err);
        int rc = fn(b, k, &err);
        cr_assert(rc < 0, "%s: truncated to %zu bytes: accepted", path, k);
        cr_assert(err.msg[0], "%s: truncated to %zu: no message", path, k);
        gm_free(b);
    }
    /* Flips: an error with a message, or a valid object; never a crash. */
    uint8_t *b = gm_alloc(n);
    size_t accepted = 0;
    for (size_t k = 0; k < n; k++) {
        memcpy(b, orig, n);
        b[k] ^= (uint8_t)(1u << (k % 8)) | 0x80;
        gm_err_clear(&err);
        int rc = fn(b, n, &err);
        if (rc == 0)
            accepted++;
        else
            cr_assert(err.msg[0], "%s: byte %zu flipped: code %d, no message", path, k, rc);
    }
    cr_log_info("%s: %zu bytes, %zu flips still parse", path, n, accepted);
    gm_free(b);
    gm_free(orig);
}

Test(snarkjs, fuzz_r1cs_truncations_and_flips) { fuzz_file(VDIR "multiplier.r1cs", parse_r1cs); }
Test(snarkjs, fuzz_wtns_truncations_and_flips) { fuzz_file(VDIR "multiplier.wtns", parse_wtns); }

Test(snarkjs, fuzz_zkey_truncations_and_flips, .timeout = 600)
{
    err_t err;
    snarkjs_wtns_t w;
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0);
    g_fuzz_wtns = &w;
    fuzz_file(VDIR "multiplier.zkey", parse_zkey);
    snarkjs_wtns_free(&w);
}

/* ---- the development powers of tau --------------------------------------------------------------- */

static void lem_g1(g1_affine_t *p, const uint8_t *b)
{
    for (int c = 0; c < 2; c++) {
        fp_t *f = c ? &p->y : &p->x;
        for (int i = 0; i < 6; i++) {
            f->l[i] = 0;
            for (int k = 7; k >= 0; k--)
                f->l[i] = f->l[i] << 8 | b[48 * c + 8 * i + k];
        }
    }
    p->inf = false;
}

Test(snarkjs, ptau_lagrange_blocks_sum_to_the_generator)
{
    err_t err;
    char tmp[] = "/tmp/gm_sj_XXXXXX";
    cr_assert(mkdtemp(tmp));
    char path[64];
    snprintf(path, sizeof path, "%s/t.ptau", tmp);
    uint8_t seed[GROTH16_SEED_BYTES] = {1, 2, 3};
    const unsigned power = 3;
    cr_assert_eq(snarkjs_ptau_write(path, power, seed, NULL, &err), 0, "%s", err.msg);
    size_t n;
    uint64_t sz;
    uint8_t *b = slurp(path, &n);
    cr_assert_eq(memcmp(b, "ptau", 4), 0);
    size_t at = section_at(b, n, 1, &sz);
    cr_assert_eq(sz, 60);
    cr_assert_eq(b[at + 52], power);
    /* tau^0 G1 is the generator. */
    at = section_at(b, n, 2, &sz);
    cr_assert_eq(sz, ((2u << power) - 1) * 96);
    g1_affine_t p;
    lem_g1(&p, b + at);
    cr_assert(g1_affine_eq(&p, &G1_GENERATOR));
    /* sum_i L_i(tau) = 1 for every block m of section 12. */
    at = section_at(b, n, 12, &sz);
    cr_assert_eq(sz, ((4u << power) - 1) * 96);
    size_t off = at;
    for (unsigned m = 0; m <= power + 1; m++) {
        g1_jac_t acc;
        g1_jac_set_inf(&acc);
        for (size_t i = 0; i < ((size_t)1 << m); i++, off += 96) {
            lem_g1(&p, b + off);
            cr_assert(g1_affine_on_curve(&p));
            g1_add_mixed(&acc, &acc, &p);
        }
        g1_affine_t s;
        g1_to_affine(&s, &acc);
        cr_assert(g1_affine_eq(&s, &G1_GENERATOR), "block %u", m);
    }
    gm_free(b);
    cr_assert_eq(snarkjs_ptau_write(path, 0, seed, NULL, &err), GM_EINVAL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    cr_assert_eq(system(cmd), 0);
}

/* ---- one rank's share (snarkjs/zkey_slice_shape.h, the .wtns view) ------------------------------------ */

Test(snarkjs, zkey_slices_tile_the_whole_key)
{
    /* For R = 1..5 the parts' points are the whole reader's, slice for
     * slice, and their section-4 entries are the whole list's entries of
     * their rows, in file order, every entry in exactly one part. */
    err_t err;
    snarkjs_zkey_t *zk;
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", SNARKJS_ZKEY_SUBGROUP, NULL, &err), 0, "%s", err.msg);
    const uint64_t mask = zk->domain_size - 1;
    for (unsigned R = 1; R <= 5; R++) {
        uint64_t next[SNARKJS_NSEC] = {0}, coefs = 0, rows = 0;
        for (unsigned part = 0; part < R; part++) {
            snarkjs_zkey_slice_t zs;
            cr_assert_eq(snarkjs_zkey_load_slice(&zs, VDIR "multiplier.zkey", part, R, SNARKJS_ZKEY_SUBGROUP, NULL,
                                                 &err), 0, "%u of %u: %s", part, R, err.msg);
            cr_assert_eq(zs.n_vars, zk->n_vars);
            cr_assert_eq(zs.domain_size, zk->domain_size);
            cr_assert(g2_affine_eq(&zs.vk.delta_g2, &zk->vk.delta_g2) && g1_affine_eq(&zs.vk.ic[1], &zk->vk.ic[1]));
            cr_assert_eq(zs.row_lo, rows, "%u of %u: the rows do not tile", part, R);
            rows = zs.row_hi;
            const g1_affine_t *whole[SNARKJS_NSEC] = {zk->a, zk->b1, NULL, zk->c, zk->h};
            const g1_affine_t *mine[SNARKJS_NSEC] = {zs.a, zs.b1, NULL, zs.c, zs.h};
            for (int s = 0; s < SNARKJS_NSEC; s++) {
                cr_assert_eq(zs.lo[s], next[s], "%u of %u: section %d does not tile", part, R, s);
                next[s] = zs.hi[s];
                for (uint64_t i = zs.lo[s]; i < zs.hi[s]; i++)
                    cr_assert(s == SNARKJS_SEC_B2 ? g2_affine_eq(&zs.b2[i - zs.lo[s]], &zk->b2[i])
                                                  : g1_affine_eq(&mine[s][i - zs.lo[s]], &whole[s][i]),
                              "%u of %u: section %d's point %llu differs", part, R, s, (unsigned long long)i);
            }
            uint64_t k = 0;
            for (uint64_t i = 0; i < zk->n_coefs; i++) {
                uint64_t row = ((uint64_t)SNARKJS_ROOT_EXP * zk->coefs[i].constraint) & mask;
                if (row < zs.row_lo || row >= zs.row_hi)
                    continue;
                cr_assert_lt(k, zs.n_coefs);
                const snarkjs_coef_t *x = &zs.coefs[k], *y = &zk->coefs[i];
                cr_assert(x->matrix == y->matrix && x->constraint == y->constraint && x->signal == y->signal &&
                              fr_eq(&x->value, &y->value), "%u of %u: entry %llu", part, R, (unsigned long long)i);
                k++;
            }
            cr_assert_eq(k, zs.n_coefs);
            coefs += k;
            snarkjs_zkey_slice_free(&zs);
        }
        cr_assert_eq(rows, zk->domain_size);
        cr_assert_eq(coefs, zk->n_coefs);
        cr_assert_eq(next[SNARKJS_SEC_H], zk->domain_size);
        cr_assert_eq(next[SNARKJS_SEC_C], zk->n_vars - zk->n_public - 1);
    }
    snarkjs_zkey_free(zk);
}

Test(snarkjs, zkey_coef_shares_exchanged_give_each_part_its_rows)
{
    /* With SNARKJS_ZKEY_COEF_SHARE part q decodes only its share of section
     * 4 by index (groth16_slice_range of nCoef), grouped by destination;
     * for R = 1..5 the groups for part p, taken in part order, are exactly
     * part p's entries without the flag, in file order. */
    err_t err;
    for (unsigned R = 1; R <= 5; R++) {
        snarkjs_zkey_slice_t sh[5], rows;
        uint64_t next = 0;
        for (unsigned q = 0; q < R; q++) {
            cr_assert_eq(snarkjs_zkey_load_slice(&sh[q], VDIR "multiplier.zkey", q, R, SNARKJS_ZKEY_COEF_SHARE,
                                                 NULL, &err), 0, "%u of %u: %s", q, R, err.msg);
            uint64_t lo, hi, sum = 0;
            groth16_slice_range(&lo, &hi, sh[q].n_coefs_file, q, R);
            cr_assert_eq(lo, next);
            next = hi;
            cr_assert_eq(sh[q].n_coefs, hi - lo, "%u of %u: %llu entries decoded", q, R,
                         (unsigned long long)sh[q].n_coefs);
            for (unsigned p = 0; p < R; p++)
                sum += sh[q].to_part[p];
            cr_assert_eq(sum, sh[q].n_coefs);
        }
        cr_assert_eq(next, sh[0].n_coefs_file);
        for (unsigned p = 0; p < R; p++) {
            cr_assert_eq(snarkjs_zkey_load_slice(&rows, VDIR "multiplier.zkey", p, R, SNARKJS_ZKEY_DEFAULT, NULL,
                                                 &err), 0, "%s", err.msg);
            cr_assert_null(rows.to_part);
            uint64_t k = 0;
            for (unsigned q = 0; q < R; q++) {
                uint64_t at = 0;
                for (unsigned x = 0; x < p; x++)
                    at += sh[q].to_part[x];
                for (uint64_t i = 0; i < sh[q].to_part[p]; i++, k++) {
                    cr_assert_lt(k, rows.n_coefs);
                    const snarkjs_coef_t *x = &sh[q].coefs[at + i], *y = &rows.coefs[k];
                    cr_assert(x->matrix == y->matrix && x->constraint == y->constraint && x->signal == y->signal &&
                                  fr_eq(&x->value, &y->value), "%u of %u: entry %llu", p, R, (unsigned long long)k);
                }
            }
            cr_assert_eq(k, rows.n_coefs, "%u of %u", p, R);
            snarkjs_zkey_slice_free(&rows);
        }
        for (unsigned q = 0; q < R; q++)
            snarkjs_zkey_slice_free(&sh[q]);
    }
}

Test(snarkjs, zkey_coef_shares_check_only_their_entries)
{
    /* A bad entry (matrix 2) fails only the part whose share by index
     * holds it, named by its index in the whole section. */
    size_t n;
    uint8_t *orig = slurp(VDIR "multiplier.zkey", &n);
    size_t s4 = section_offset(orig, n, 4);
    cr_assert(s4);
    uint32_t nc;
    memcpy(&nc, orig + s4, 4);
    uint64_t bad = nc - 1, lo, hi;
    groth16_slice_range(&lo, &hi, nc, 2, 3);
    cr_assert(bad >= lo && bad < hi);
    orig[s4 + 4 + 44 * bad] = 2;
    char path[] = "/tmp/gm-zkshare.XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    write_bytes(path, orig, n);
    err_t err;
    char want[96];
    snprintf(want, sizeof want, "section 4 (Coefs): entry %llu: matrix 2,", (unsigned long long)bad);
    for (unsigned part = 0; part < 3; part++) {
        snarkjs_zkey_slice_t zs;
        int rc = snarkjs_zkey_load_slice(&zs, path, part, 3, SNARKJS_ZKEY_COEF_SHARE, NULL, &err);
        if (part < 2) {
            cr_assert_eq(rc, 0, "part %u: %s", part, err.msg);
        } else {
            cr_assert_eq(rc, GM_EFORMAT);
            cr_assert(strstr(err.msg, want) && strstr(err.msg, path), "%s", err.msg);
        }
        snarkjs_zkey_slice_free(&zs);
    }
    unlink(path);
    gm_free(orig);
}

Test(snarkjs, zkey_slices_refuse_truncations_and_name_their_bad_points)
{
    /* Every truncation fails every part (the header sections are read
     * whole); a point damaged in part 2's slice of H (of 3) fails part 2
     * only, named by its index in the whole section. */
    size_t n;
    uint8_t *orig = slurp(VDIR "multiplier.zkey", &n);
    char path[] = "/tmp/gm-zkslice.XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    err_t err;
    snarkjs_zkey_slice_t zs;
    for (size_t k = 0; k < n; k += 3) {
        write_bytes(path, orig, k);
        for (unsigned part = 0; part < 3; part++) {
            gm_err_clear(&err);
            cr_assert_neq(snarkjs_zkey_load_slice(&zs, path, part, 3, SNARKJS_ZKEY_DEFAULT, NULL, &err), 0,
                          "truncated to %zu: part %u accepted", k, part);
            cr_assert(strstr(err.msg, path), "truncated to %zu: %s", k, err.msg);
            snarkjs_zkey_slice_free(&zs);
        }
    }
    size_t h = section_offset(orig, n, 9);
    cr_assert(h);
    memset(orig + h + 96 * 3, 0xff, 48); /* H point 3: x >= q */
    write_bytes(path, orig, n);
    for (unsigned part = 0; part < 3; part++) {
        int rc = snarkjs_zkey_load_slice(&zs, path, part, 3, SNARKJS_ZKEY_DEFAULT, NULL, &err);
        if (part < 2) {
            cr_assert_eq(rc, 0, "part %u: %s", part, err.msg);
        } else {
            cr_assert_eq(rc, GM_ENONCANON);
            cr_assert(strstr(err.msg, "section 9 (PointsH): point 3: a coordinate is not below q"), "%s", err.msg);
        }
        snarkjs_zkey_slice_free(&zs);
    }
    unlink(path);
    gm_free(orig);
}

Test(snarkjs, wtns_view_reads_the_values_of_the_whole_reader)
{
    err_t err;
    snarkjs_wtns_t w;
    snarkjs_wtns_view_t v;
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0);
    cr_assert_eq(snarkjs_wtns_open(&v, VDIR "multiplier.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(v.n, w.n);
    for (uint64_t lo = 0; lo <= w.n; lo++)
        for (uint64_t hi = lo; hi <= w.n; hi++) {
            fr_t out[8];
            cr_assert_eq(snarkjs_wtns_values(&v, out, lo, hi, &err), 0, "%s", err.msg);
            for (uint64_t i = lo; i < hi; i++)
                cr_assert(fr_eq(&out[i - lo], &w.w[i]), "value %llu", (unsigned long long)i);
        }
    snarkjs_wtns_close(&v);
    snarkjs_wtns_free(&w);
    /* a value >= r is named when read, not when opened */
    size_t n;
    uint8_t *b = slurp(VDIR "multiplier.wtns", &n);
    memset(b + n - 32, 0xff, 32);
    char path[] = "/tmp/gm-wtnsview.XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    write_bytes(path, b, n);
    cr_assert_eq(snarkjs_wtns_open(&v, path, &err), 0, "%s", err.msg);
    fr_t x;
    cr_assert_eq(snarkjs_wtns_values(&v, &x, v.n - 1, v.n, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 2 (witness values): value 3 is not below r"), "%s", err.msg);
    snarkjs_wtns_close(&v);
    write_bytes(path, b, n - 1);
    cr_assert_neq(snarkjs_wtns_open(&v, path, &err), 0);
    unlink(path);
    gm_free(b);
}

/* ---- BN254 (snarkjs's bn128) ------------------------------------------------------------------------ */

Test(snarkjs, bn_root_of_unity_is_ffjavascripts)
{
    /* ffjavascript's buildBn128 Fr.w[k] (node, snarkjs 0.7.6's ffjavascript):
     * the prover's J = 1 rests on these being ours. */
    static const struct {
        unsigned k;
        const char *w;
    } want[] = {
        {1, "21888242871839275222246405745257275088548364400416034343698204186575808495616"},
        {4, "14940766826517323942636479241147756311199852622225275649687664389641784935947"},
        {5, "4419234939496763621076330863786513495701855246241724391626358375488475697872"},
        {28, "19103219067921713944291392827692070036145651957329286315305642004821462161904"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bn_fr_t w, e;
        bn_fr_root_of_unity(&w, want[i].k);
        cr_assert_eq(bn_fr_from_dec(&e, want[i].w), 0);
        cr_assert(bn_fr_eq(&w, &e), "w[%u]", want[i].k);
    }
}

Test(snarkjs, bn_readers_match_snarkjs_files)
{
    err_t err;
    snarkjs_bn_zkey_t *zk;
    snarkjs_bn_vk_t vk;
    snarkjs_bn_r1cs_t *r;
    snarkjs_bn_wtns_t w;
    cr_assert_eq(snarkjs_bn_zkey_load(&zk, VDIR "multiplier_bn128.zkey", SNARKJS_ZKEY_SUBGROUP, NULL, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(snarkjs_bn_vk_read_json(&vk, VDIR "verification_key_bn128.json", &err), 0, "%s", err.msg);
    cr_assert(zk->n_vars == 4 && zk->n_public == 2 && zk->domain_size == 4 && zk->log_domain == 2);
    cr_assert(bn_g1_affine_eq(&zk->vk.alpha_g1, &vk.alpha_g1));
    cr_assert(bn_g2_affine_eq(&zk->vk.beta_g2, &vk.beta_g2));
    cr_assert(bn_g2_affine_eq(&zk->vk.gamma_g2, &BN254_G2_GENERATOR), "snarkjs's gamma is the generator");
    cr_assert(bn_g2_affine_eq(&zk->vk.delta_g2, &vk.delta_g2));
    cr_assert_eq(vk.n_ic, 3);
    for (size_t i = 0; i < 3; i++)
        cr_assert(bn_g1_affine_eq(&zk->vk.ic[i], &vk.ic[i]), "IC[%zu]", i);
    /* The coefficients as on BLS12-381: A(c0, s2, -1), B(c0, s3, 1), A(c1 + i, s i, 1). */
    cr_assert_eq(zk->n_coefs, 5);
    bn_fr_t m1;
    bn_fr_neg(&m1, &BN254_FR_ONE);
    cr_assert(zk->coefs[0].matrix == 0 && zk->coefs[0].signal == 2 && bn_fr_eq(&zk->coefs[0].value, &m1));
    cr_assert(zk->coefs[1].matrix == 1 && zk->coefs[1].signal == 3 && bn_fr_eq(&zk->coefs[1].value, &BN254_FR_ONE));
    /* delta1 and delta2 share the discrete log. */
    bn_g1_affine_t p[2];
    bn_g2_affine_t q[2] = {BN254_G2_GENERATOR, zk->vk.delta_g2};
    p[0] = zk->vk.delta_g1;
    bn_g1_affine_neg(&p[1], &BN254_G1_GENERATOR);
    cr_assert(bn_pairing_product_is_one(p, q, 2));
    /* The circuit and its witness: c = a b, 33 = 3 x 11. */
    cr_assert_eq(snarkjs_bn_r1cs_load(&r, VDIR "multiplier_bn128.r1cs", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_wtns_load(&w, VDIR "multiplier_bn128.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(w.n, 4);
    cr_assert_eq(snarkjs_bn_r1cs_check(r, w.w, w.n, "w", &err), 0, "%s", err.msg);
    bn_fr_t x;
    bn_fr_set_u64(&x, 33);
    cr_assert(bn_fr_eq(&w.w[1], &x));
    bn_fr_add(&w.w[3], &w.w[3], &BN254_FR_ONE);
    cr_assert_eq(snarkjs_bn_r1cs_check(r, w.w, w.n, "w", &err), GM_EVERIFY);
    snarkjs_bn_r1cs_free(r);
    snarkjs_bn_wtns_free(&w);
    snarkjs_bn_vk_free(&vk);
    snarkjs_bn_zkey_free(zk);
}

Test(snarkjs, bn_snarkjs_proof_verifies_and_tampering_fails)
{
    err_t err;
    snarkjs_bn_vk_t vk;
    snarkjs_bn_proof_t p, q;
    bn_fr_t *pub;
    size_t n;
    cr_assert_eq(snarkjs_bn_vk_read_json(&vk, VDIR "verification_key_bn128.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_proof_read_json(&p, VDIR "proof_bn128.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_public_read_json(&pub, &n, VDIR "public_bn128.json", &err), 0, "%s", err.msg);
    cr_assert_eq(n, 2);
    cr_assert_eq(snarkjs_bn_verify(&vk, &p, pub, n, &err), 0, "%s", err.msg);
    bn_fr_t bad[2] = {pub[0], pub[1]};
    bn_fr_add(&bad[0], &bad[0], &BN254_FR_ONE);
    cr_assert_eq(snarkjs_bn_verify(&vk, &p, bad, 2, &err), GM_EVERIFY);
    cr_assert_eq(snarkjs_bn_verify(&vk, &p, pub, 1, &err), GM_EINVAL);
    q = p;
    q.a = p.c;
    q.c = p.a;
    cr_assert_eq(snarkjs_bn_verify(&vk, &q, pub, n, &err), GM_EVERIFY);
    q = p;
    bn_g1_affine_neg(&q.c, &p.c);
    cr_assert_eq(snarkjs_bn_verify(&vk, &q, pub, n, &err), GM_EVERIFY);
    /* The other curve's files are refused, naming the curve. */
    groth16_vk_t bvk;
    cr_assert_eq(snarkjs_vk_read_json(&bvk, VDIR "verification_key_bn128.json", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bn128"), "%s", err.msg);
    cr_assert_eq(snarkjs_bn_proof_read_json(&q, VDIR "proof.json", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bls12381"), "%s", err.msg);
    gm_free(pub);
    snarkjs_bn_vk_free(&vk);
}

/* A decimal string (snarkjs JSON) as 32 big-endian bytes: the Ethereum
 * encoding's coordinates, computed apart from the code under test. */
static void dec_to_be32(uint8_t out[32], const char *dec)
{
    memset(out, 0, 32);
    for (const char *c = dec; *c; c++) {
        unsigned carry = (unsigned)(*c - '0');
        for (int i = 31; i >= 0; i--) {
            unsigned v = out[i] * 10u + carry;
            out[i] = (uint8_t)v;
            carry = v >> 8;
        }
    }
}

Test(snarkjs, bn_proof_bytes_are_the_ethereum_encoding_of_snarkjs_proof)
{
    err_t err;
    snarkjs_bn_proof_t p, q;
    cr_assert_eq(snarkjs_bn_proof_read_json(&p, VDIR "proof_bn128.json", &err), 0, "%s", err.msg);
    uint8_t b[SNARKJS_BN_PROOF_BYTES], want[32];
    snarkjs_bn_proof_to_bytes(b, &p);
    /* A.x A.y | B.x.c1 B.x.c0 B.y.c1 B.y.c0 | C.x C.y, from proof.json's decimals */
    json_error_t je;
    json_t *o = json_load_file(VDIR "proof_bn128.json", 0, &je);
    cr_assert(o);
    const char *dec[8] = {
        json_string_value(json_array_get(json_object_get(o, "pi_a"), 0)),
        json_string_value(json_array_get(json_object_get(o, "pi_a"), 1)),
        json_string_value(json_array_get(json_array_get(json_object_get(o, "pi_b"), 0), 1)),
        json_string_value(json_array_get(json_array_get(json_object_get(o, "pi_b"), 0), 0)),
        json_string_value(json_array_get(json_array_get(json_object_get(o, "pi_b"), 1), 1)),
        json_string_value(json_array_get(json_array_get(json_object_get(o, "pi_b"), 1), 0)),
        json_string_value(json_array_get(json_object_get(o, "pi_c"), 0)),
        json_string_value(json_array_get(json_object_get(o, "pi_c"), 1))};
    for (int i = 0; i < 8; i++) {
        cr_assert(dec[i]);
        dec_to_be32(want, dec[i]);
        cr_assert_eq(memcmp(b + 32 * i, want, 32), 0, "coordinate %d is not proof.json's", i);
    }
    json_decref(o);
    cr_assert_eq(snarkjs_bn_proof_from_bytes(&q, b, "p", &err), 0, "%s", err.msg);
    uint8_t b2[SNARKJS_BN_PROOF_BYTES];
    snarkjs_bn_proof_to_bytes(b2, &q);
    cr_assert_eq(memcmp(b, b2, sizeof b), 0);
    /* off the curve, per point, named */
    const char *names[3] = {"p: A: not on the curve", "p: B: not on the curve", "p: C: not on the curve"};
    const size_t at[3] = {63, 64 + 127, 64 + 128 + 63};
    for (int i = 0; i < 3; i++) {
        uint8_t t[SNARKJS_BN_PROOF_BYTES];
        memcpy(t, b, sizeof t);
        t[at[i]] ^= 1;
        cr_assert_neq(snarkjs_bn_proof_from_bytes(&q, t, "p", &err), 0);
        cr_assert_str_eq(err.msg, names[i]);
    }
}

Test(snarkjs, bn_json_layout_is_snarkjs_byte_for_byte)
{
    err_t err;
    snarkjs_bn_proof_t p;
    bn_fr_t *pub;
    size_t n, len;
    char *t;
    cr_assert_eq(snarkjs_bn_proof_read_json(&p, VDIR "proof_bn128.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_public_read_json(&pub, &n, VDIR "public_bn128.json", &err), 0, "%s", err.msg);
    uint8_t *f = slurp(VDIR "proof_bn128.json", &len);
    cr_assert_eq(snarkjs_bn_proof_to_json(&t, &p, &err), 0);
    cr_assert_eq(strlen(t), len);
    cr_assert_eq(memcmp(t, f, len), 0, "proof_bn128.json differs:\n%s", t);
    gm_free(t);
    gm_free(f);
    f = slurp(VDIR "public_bn128.json", &len);
    cr_assert_eq(snarkjs_bn_public_to_json(&t, pub, n, &err), 0);
    cr_assert_eq(strlen(t), len);
    cr_assert_eq(memcmp(t, f, len), 0, "public_bn128.json differs:\n%s", t);
    gm_free(t);
    gm_free(f);
    gm_free(pub);
}

Test(snarkjs, curve_of_each_file_and_unknown_primes)
{
    static const struct {
        const char *f;
        snarkjs_curve_t c;
    } files[] = {{"multiplier.zkey", SNARKJS_BLS12381},       {"multiplier.wtns", SNARKJS_BLS12381},
                 {"multiplier.r1cs", SNARKJS_BLS12381},       {"multiplier_bn128.zkey", SNARKJS_BN128},
                 {"multiplier_bn128.wtns", SNARKJS_BN128},    {"multiplier_bn128.r1cs", SNARKJS_BN128},
                 {"verification_key_bn128.json", SNARKJS_BN128}, {"verification_key.json", SNARKJS_BLS12381}};
    err_t err;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, VDIR "%s", files[i].f);
        snarkjs_curve_t c = (snarkjs_curve_t)-1;
        int rc = strstr(path, ".json") ? snarkjs_json_curve_of_file(&c, path, &err)
                                       : snarkjs_curve_of_file(&c, path, &err);
        cr_assert_eq(rc, 0, "%s: %s", path, err.msg);
        cr_assert_eq(c, files[i].c, "%s", path);
    }
    /* A prime of neither curve: one line naming file, section and field. */
    size_t n;
    uint64_t sz;
    snarkjs_curve_t c;
    snarkjs_bn_zkey_t *zk;
    snarkjs_bn_wtns_t w;
    uint8_t *b = slurp(VDIR "multiplier_bn128.zkey", &n);
    size_t at = section_at(b, n, 2, &sz);
    b[at + 4] ^= 2; /* q */
    cr_assert_eq(snarkjs_curve_of_bytes(&c, b, n, "u.zkey", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "u.zkey: section 2 (header): q") && strstr(err.msg, "neither") && !strchr(err.msg, '\n'),
              "%s", err.msg);
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "u.zkey", 0, NULL, &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "u.zkey: section 2 (header)"), "%s", err.msg);
    gm_free(b);
    b = slurp(VDIR "multiplier_bn128.wtns", &n);
    at = section_at(b, n, 1, &sz);
    b[at + 4 + 9] ^= 1; /* the prime */
    cr_assert_eq(snarkjs_curve_of_bytes(&c, b, n, "u.wtns", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "u.wtns: section 1 (header): prime"), "%s", err.msg);
    cr_assert_eq(snarkjs_bn_wtns_from_bytes(&w, b, n, "u.wtns", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "u.wtns: section 1 (header)") && strstr(err.msg, "unknown prime"), "%s", err.msg);
    gm_free(b);
    /* A witness of the other curve, named. */
    cr_assert_eq(snarkjs_bn_wtns_load(&w, VDIR "multiplier.wtns", &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bls12381") && strstr(err.msg, "bn128"), "%s", err.msg);
    cr_assert_eq(snarkjs_bn_zkey_load(&zk, VDIR "multiplier.zkey", 0, NULL, &err), GM_ENOTSUP);
    cr_assert(strstr(err.msg, "bls12381") && strstr(err.msg, "bn128"), "%s", err.msg);
    /* Not a circom file. */
    cr_assert_eq(snarkjs_curve_of_file(&c, VDIR "README.md", &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "README.md"), "%s", err.msg);
}

/* A point on BN254's twist outside G2: x = 1, y a square root of 1 + 3/(9 + u) (computed
 * independently, in Python; r times it is not the identity). */
static void bn_g2_off_subgroup(bn_g2_affine_t *p)
{
    p->inf = false;
    cr_assert_eq(bn_fp_from_dec(&p->x.c0, "1"), 0);
    cr_assert_eq(bn_fp_from_dec(&p->x.c1, "0"), 0);
    cr_assert_eq(bn_fp_from_dec(&p->y.c0, "18278151005453108793778860132295291098363647455926340152056652516292830556603"),
                 0);
    cr_assert_eq(bn_fp_from_dec(&p->y.c1, "5912654199736721486680175016176231956195085055698687135131307249486702594212"),
                 0);
    cr_assert(bn_g2_affine_on_curve(p));
    cr_assert(!bn_g2_affine_in_subgroup(p));
}

Test(snarkjs, bn_zkey_errors_name_section_and_value)
{
    err_t err;
    snarkjs_bn_zkey_t *zk;
    size_t n;
    uint64_t sz;
    uint8_t *orig = slurp(VDIR "multiplier_bn128.zkey", &n), *b = gm_alloc(n);
    /* A point of section 5 moved off the curve. */
    memcpy(b, orig, n);
    size_t at = section_at(b, n, 5, &sz);
    cr_assert_eq(sz, 4 * 64);
    b[at + 64 + 40] ^= 1; /* point 1, y */
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "c.zkey: section 5 (PointsA): point 1: not on the curve"), "%s", err.msg);
    /* Two bad points: the first is named, whichever its fault (the curve is
     * checked after the coordinates, for many points at once). */
    memset(b + at + 2 * 64, 0xff, 32); /* point 2, x >= q */
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ENOTONCURVE);
    cr_assert(strstr(err.msg, "section 5 (PointsA): point 1: not on the curve"), "%s", err.msg);
    memcpy(b, orig, n);
    memset(b + at + 1 * 64, 0xff, 32); /* point 1, x >= q */
    b[at + 2 * 64 + 40] ^= 1;          /* point 2 off the curve */
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ENONCANON);
    cr_assert(strstr(err.msg, "section 5 (PointsA): point 1: a coordinate is not below q"), "%s", err.msg);
    /* A coordinate >= q in section 9. */
    memcpy(b, orig, n);
    at = section_at(b, n, 9, &sz);
    memset(b + at + 2 * 64, 0xff, 32);
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ENONCANON);
    cr_assert(strstr(err.msg, "section 9 (PointsH): point 2"), "%s", err.msg);
    /* A G2 point of section 7 on the twist but outside G2: found with the
     * SUBGROUP flag only; in the header's beta2 always. */
    bn_g2_affine_t off;
    bn_g2_off_subgroup(&off);
    memcpy(b, orig, n);
    at = section_at(b, n, 7, &sz);
    bn_g2_to_bytes_snarkjs(b + at + 3 * 128, &off);
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", SNARKJS_ZKEY_SUBGROUP, NULL, &err), GM_ESUBGROUP);
    cr_assert(strstr(err.msg, "c.zkey: section 7 (PointsB2): point 3: not in the subgroup"), "%s", err.msg);
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), 0, "%s", err.msg);
    snarkjs_bn_zkey_free(zk);
    memcpy(b, orig, n);
    at = section_at(b, n, 2, &sz);
    cr_assert_eq(sz, 660);
    bn_g2_to_bytes_snarkjs(b + at + 84 + 2 * 64, &off); /* beta2: after n8q, q, n8r, r, 3 counts, alpha1, beta1 */
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_ESUBGROUP);
    cr_assert(strstr(err.msg, "c.zkey: section 2 (header): beta2: not in the subgroup"), "%s", err.msg);
    /* A coefficient entry pointing past nVars. */
    memcpy(b, orig, n);
    at = section_at(b, n, 4, &sz);
    b[at + 4 + 8] = 9;
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 4 (Coefs): entry 0") && strstr(err.msg, "signal 9"), "%s", err.msg);
    /* nVars no longer matches the sections: the first one too short is named. */
    memcpy(b, orig, n);
    at = section_at(b, n, 2, &sz);
    b[at + 4 + 32 + 4 + 32] = 5;
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, b, n, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "section 5 (PointsA): length 256, expected 320"), "%s", err.msg);
    /* Truncated: the section that runs past the end is named. */
    cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zk, orig, n - 10, "c.zkey", 0, NULL, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "c.zkey: truncated: section"), "%s", err.msg);
    gm_free(b);
    gm_free(orig);
}

static int parse_bn_r1cs(const uint8_t *b, size_t n, err_t *err)
{
    snarkjs_bn_r1cs_t *r;
    int rc = snarkjs_bn_r1cs_from_bytes(&r, b, n, "f.r1cs", err);
    if (!rc) {
        bn_fr_t w[64];
        size_t k = r->n_wires < 64 ? r->n_wires : 64;
        for (size_t i = 0; i < k; i++)
            bn_fr_set_u64(&w[i], i + 1);
        w[0] = BN254_FR_ONE;
        int crc = snarkjs_bn_r1cs_check(r, w, k, "f", err);
        cr_assert(crc == 0 || crc == GM_EVERIFY || crc == GM_EINVAL, "check: %d", crc);
        snarkjs_bn_r1cs_free(r);
    }
    return rc;
}

static int parse_bn_wtns(const uint8_t *b, size_t n, err_t *err)
{
    snarkjs_bn_wtns_t w;
    int rc = snarkjs_bn_wtns_from_bytes(&w, b, n, "f.wtns", err);
    snarkjs_bn_wtns_free(&w);
    return rc;
}

static int parse_bn_zkey(const uint8_t *b, size_t n, err_t *err)
{
    snarkjs_bn_zkey_t *zk;
    int rc = snarkjs_bn_zkey_from_bytes(&zk, b, n, "f.zkey", SNARKJS_ZKEY_SUBGROUP, NULL, err);
    if (!rc)
        snarkjs_bn_zkey_free(zk);
    return rc;
}

Test(snarkjs, bn_fuzz_r1cs_truncations_and_flips) { fuzz_file(VDIR "multiplier_bn128.r1cs", parse_bn_r1cs); }
Test(snarkjs, bn_fuzz_wtns_truncations_and_flips) { fuzz_file(VDIR "multiplier_bn128.wtns", parse_bn_wtns); }
Test(snarkjs, bn_fuzz_zkey_truncations_and_flips, .timeout = 600)
{
    fuzz_file(VDIR "multiplier_bn128.zkey", parse_bn_zkey);
}

Test(snarkjs, bn_prove_verifies_with_snarkjs_key)
{
    err_t err;
    snarkjs_bn_zkey_t *zk;
    snarkjs_bn_wtns_t w;
    snarkjs_bn_vk_t vk;
    snarkjs_bn_prover_t *pv, *pp;
    topo_pool_t *pool;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_zkey_load(&zk, VDIR "multiplier_bn128.zkey", SNARKJS_ZKEY_DEFAULT, NULL, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(snarkjs_bn_wtns_load(&w, VDIR "multiplier_bn128.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_vk_read_json(&vk, VDIR "verification_key_bn128.json", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prover_create(&pv, zk, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prover_create(&pp, zk, pool, &err), 0, "%s", err.msg);
    /* r = s = 0: A = alpha + sum w_i A_i, B = beta2 + sum w_i B2_i, by naive sums. */
    snarkjs_bn_proof_t p, q;
    const bn_fr_t rs0[2] = {BN254_FR_ZERO, BN254_FR_ZERO};
    cr_assert_eq(snarkjs_bn_prove(pv, &p, w.w, w.n, rs0, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s", err.msg);
    bn_g1_jac_t acc, t1, p1;
    bn_g2_jac_t acc2, t2, p2;
    bn_g1_jac_set_inf(&acc);
    bn_g2_jac_set_inf(&acc2);
    for (size_t i = 0; i < w.n; i++) {
        bn_g1_from_affine(&p1, &zk->a[i]);
        bn_g1_mul_fr(&t1, &p1, &w.w[i]);
        bn_g1_add(&acc, &acc, &t1);
        bn_g2_from_affine(&p2, &zk->b2[i]);
        bn_g2_mul_fr(&t2, &p2, &w.w[i]);
        bn_g2_add(&acc2, &acc2, &t2);
    }
    bn_g1_add_mixed(&acc, &acc, &zk->vk.alpha_g1);
    bn_g2_add_mixed(&acc2, &acc2, &zk->vk.beta_g2);
    bn_g1_affine_t wa;
    bn_g2_affine_t wb;
    bn_g1_to_affine(&wa, &acc);
    bn_g2_to_affine(&wb, &acc2);
    cr_assert(bn_g1_affine_eq(&wa, &p.a), "pi_a");
    cr_assert(bn_g2_affine_eq(&wb, &p.b), "pi_b");
    /* Fresh r, s: snarkjs's exported key accepts the proof; a pool gives the same proof. */
    test_rng_t rng;
    test_rng_init(&rng, "snarkjs/bn_prove_verifies_with_snarkjs_key");
    bn_fr_t rs[2];
    bn_fr_set_u64(&rs[0], test_rng_next(&rng));
    bn_fr_set_u64(&rs[1], test_rng_next(&rng));
    cr_assert_eq(snarkjs_bn_prove(pv, &p, w.w, w.n, rs, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prove(pp, &q, w.w, w.n, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    cr_assert(bn_g1_affine_eq(&p.a, &q.a) && bn_g2_affine_eq(&p.b, &q.b) && bn_g1_affine_eq(&p.c, &q.c));
    cr_assert_eq(snarkjs_bn_verify(&vk, &p, w.w + 1, 2, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prove(pv, &p, w.w, w.n, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_verify(&vk, &p, w.w + 1, 2, &err), 0, "%s", err.msg);
    /* A witness that does not satisfy the circuit, or of the wrong length: no proof. */
    cr_assert_eq(snarkjs_bn_prove(pv, &p, w.w, w.n - 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "nVars"), "%s", err.msg);
    bn_fr_add(&w.w[3], &w.w[3], &BN254_FR_ONE);
    cr_assert_eq(snarkjs_bn_prove(pv, &p, w.w, w.n, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), GM_EVERIFY);
    snarkjs_bn_prover_destroy(pv);
    snarkjs_bn_prover_destroy(pp);
    snarkjs_bn_vk_free(&vk);
    snarkjs_bn_wtns_free(&w);
    snarkjs_bn_zkey_free(zk);
    topo_pool_destroy(pool);
}

/* A streamed key (SNARKJS_ZKEY_STREAM) on either curve gives the resident
 * key's proof; its bad points and entries are found by the proof, in the
 * load's words. The multiplier's section 4 holds entries of A (0, 2, 3, 4)
 * and B (1), which the proof reads from the file, one task per matrix: the
 * first bad entry in file order is named whichever task met it. Breaks
 * (bad: the key's bytes, a copy): section 9's point 2; entry 1's matrix;
 * entry 1's signal (B) before entry 3's value (A); entry 0's constraint (A)
 * before entry 1's signal (B); entry 4's value alone. */
#define STREAM_BREAKS 5
static void stream_break(uint8_t *bad, const uint8_t *orig, size_t n, int what, size_t g1_bytes)
{
    uint64_t sz;
    memcpy(bad, orig, n);
    if (what == 0) {
        memset(bad + section_at(bad, n, 9, &sz) + 2 * g1_bytes, 0xff, g1_bytes / 2);
        return;
    }
    uint8_t *e = bad + section_at(bad, n, 4, &sz) + 4; /* entry i at e + 44 i: matrix, constraint, signal, value */
    if (what == 1)
        e[44] = 7;
    if (what == 2 || what == 3)
        memset(e + 44 + 8, 0xff, 4);
    if (what == 2)
        memset(e + 3 * 44 + 12, 0xff, 32);
    if (what == 3)
        memset(e + 4, 0xff, 4);
    if (what == 4)
        memset(e + 4 * 44 + 12, 0xff, 32);
}

static const char *const stream_msgs[STREAM_BREAKS][2] = {
    {"s.zkey: section 9 (PointsH): point 2", ""},
    {"s.zkey: section 4 (Coefs): entry 1: matrix 7", ""},
    {"s.zkey: section 4 (Coefs): entry 1: matrix 1,", "signal 4294967295"},
    {"s.zkey: section 4 (Coefs): entry 0: matrix 0, constraint 4294967295", ""},
    {"s.zkey: section 4 (Coefs): entry 4: value is not below r", ""},
};

Test(snarkjs, streamed_key_proves_alike_and_finds_bad_points)
{
    err_t err;
    size_t n;
    fr_t rs[2];
    fr_set_u64(&rs[0], 11), fr_set_u64(&rs[1], 12);
    snarkjs_zkey_t *zk, *zs;
    snarkjs_wtns_t w;
    snarkjs_prover_t *pv, *ps;
    groth16_proof_t p, q;
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", 0, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_zkey_load(&zs, VDIR "multiplier.zkey", SNARKJS_ZKEY_STREAM, NULL, &err), 0, "%s", err.msg);
    cr_assert(zs->a == NULL && zs->coefs == NULL && zs->stream.map.data != NULL);
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_prover_create(&pv, zk, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_prover_create(&ps, zs, NULL, &err), 0, "%s", err.msg);
    for (int k = 0; k < 2; k++) { /* twice: the dropped pages read again */
        cr_assert_eq(snarkjs_prove(pv, &p, w.w, w.n, rs, 0, NULL, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(snarkjs_prove(ps, &q, w.w, w.n, rs, 0, NULL, NULL, &err), 0, "%s", err.msg);
        cr_assert(g1_affine_eq(&p.a, &q.a) && g2_affine_eq(&p.b, &q.b) && g1_affine_eq(&p.c, &q.c));
    }
    snarkjs_prover_destroy(ps);
    snarkjs_zkey_free(zs);
    uint8_t *orig = slurp(VDIR "multiplier.zkey", &n), *bad = gm_alloc(n);
    for (int what = 0; what < STREAM_BREAKS; what++) {
        stream_break(bad, orig, n, what, 96);
        cr_assert_eq(snarkjs_zkey_from_bytes(&zs, bad, n, "s.zkey", SNARKJS_ZKEY_STREAM, NULL, &err), 0, "%s",
                     err.msg);
        cr_assert_eq(snarkjs_prover_create(&ps, zs, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(snarkjs_prove(ps, &q, w.w, w.n, rs, 0, NULL, NULL, &err), what ? GM_EFORMAT : GM_ENONCANON);
        cr_assert(strstr(err.msg, stream_msgs[what][0]) && strstr(err.msg, stream_msgs[what][1]), "%s", err.msg);
        snarkjs_prover_destroy(ps);
        snarkjs_zkey_free(zs);
    }
    gm_free(orig);
    gm_free(bad);
    snarkjs_prover_destroy(pv);
    snarkjs_wtns_free(&w);
    snarkjs_zkey_free(zk);
}

Test(snarkjs, bn_streamed_key_proves_alike_and_finds_bad_points)
{
    err_t err;
    size_t n;
    bn_fr_t rs[2];
    bn_fr_set_u64(&rs[0], 11), bn_fr_set_u64(&rs[1], 12);
    snarkjs_bn_zkey_t *zk, *zs;
    snarkjs_bn_wtns_t w;
    snarkjs_bn_prover_t *pv, *ps;
    snarkjs_bn_proof_t p, q;
    cr_assert_eq(snarkjs_bn_zkey_load(&zk, VDIR "multiplier_bn128.zkey", 0, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_zkey_load(&zs, VDIR "multiplier_bn128.zkey", SNARKJS_ZKEY_STREAM, NULL, &err), 0, "%s",
                 err.msg);
    cr_assert(zs->a == NULL && zs->coefs == NULL && zs->stream.map.data != NULL);
    cr_assert_eq(snarkjs_bn_wtns_load(&w, VDIR "multiplier_bn128.wtns", &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prover_create(&pv, zk, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prover_create(&ps, zs, NULL, &err), 0, "%s", err.msg);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(snarkjs_bn_prove(pv, &p, w.w, w.n, rs, 0, NULL, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(snarkjs_bn_prove(ps, &q, w.w, w.n, rs, 0, NULL, NULL, &err), 0, "%s", err.msg);
        cr_assert(bn_g1_affine_eq(&p.a, &q.a) && bn_g2_affine_eq(&p.b, &q.b) && bn_g1_affine_eq(&p.c, &q.c));
    }
    snarkjs_bn_prover_destroy(ps);
    snarkjs_bn_zkey_free(zs);
    uint8_t *orig = slurp(VDIR "multiplier_bn128.zkey", &n), *bad = gm_alloc(n);
    for (int what = 0; what < STREAM_BREAKS; what++) {
        stream_break(bad, orig, n, what, 64);
        cr_assert_eq(snarkjs_bn_zkey_from_bytes(&zs, bad, n, "s.zkey", SNARKJS_ZKEY_STREAM, NULL, &err), 0, "%s",
                     err.msg);
        cr_assert_eq(snarkjs_bn_prover_create(&ps, zs, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(snarkjs_bn_prove(ps, &q, w.w, w.n, rs, 0, NULL, NULL, &err), what ? GM_EFORMAT : GM_ENONCANON);
        cr_assert(strstr(err.msg, stream_msgs[what][0]) && strstr(err.msg, stream_msgs[what][1]), "%s", err.msg);
        snarkjs_bn_prover_destroy(ps);
        snarkjs_bn_zkey_free(zs);
    }
    gm_free(orig);
    gm_free(bad);
    snarkjs_bn_prover_destroy(pv);
    snarkjs_bn_wtns_free(&w);
    snarkjs_bn_zkey_free(zk);
}
