/*
 * tests/unit/test_witness.c — the compact witness: synth's compact values
 * (cs_compact_t, CS_FLAG_COMPACT, a/b/c from them), ec's sums of bases
 * chosen by a bitmap (msm_g1_bits, msm_g2_bits) against naive sums, and
 * proofs from a compact witness byte for byte equal to the dense witness's
 * (test-synthetic, test-sha256, the emulated device; a 2 KiB PoRep
 * partition synthesized compact is in test_backend.c's backend_porep, which
 * has its parameters when GROTHMPI_POREP_CACHE names a cache holding them).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "circuits/circuits.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "tests/unit/testutil.h"
#include "topo/topo.h"

/* A value that is 0, 1, -1, 2 or random, 0 and 1 most often (as a PoRep
 * witness). */
static void pick(fr_t *v, test_rng_t *rng)
{
    uint64_t k = test_rng_next(rng) % 10;
    if (k < 4) {
        *v = FR_ZERO;
    } else if (k < 8) {
        *v = FR_ONE;
    } else if (k == 8) {
        fr_set_u64(v, test_rng_next(rng) % 3 + 2);
        if (test_rng_next(rng) & 1)
            fr_neg(v, &FR_ONE);
    } else {
        uint8_t wide[64];
        for (int i = 0; i < 64; i++)
            wide[i] = (uint8_t)test_rng_next(rng);
        groth16_fr_from_wide(v, wide);
    }
}

static bool is_bit(const fr_t *v) { return fr_is_zero(v) || fr_is_one(v); }

/* ---- compact values --------------------------------------------------------------------- */

Test(compact, from_values_get_expand)
{
    test_rng_t rng;
    test_rng_init(&rng, "compact from_values_get_expand");
    static const uint64_t sizes[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 4097};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint64_t n = sizes[s], nd = 0;
        fr_t *v = malloc((n + 1) * sizeof *v), *x = malloc((n + 1) * sizeof *x);
        for (uint64_t j = 0; j < n; j++) {
            pick(&v[j], &rng);
            nd += !is_bit(&v[j]);
        }
        cs_compact_t c;
        err_t err;
        cr_assert_eq(cs_compact_from_values(&c, v, n, &err), 0, "%s", err.msg);
        cr_assert_eq(c.n, n);
        cr_assert_eq(c.n_dense, nd, "n %llu: %llu dense, want %llu", (unsigned long long)n,
                     (unsigned long long)c.n_dense, (unsigned long long)nd);
        for (uint64_t j = 0; j < n; j++) {
            fr_t g;
            cs_compact_get(&g, &c, j);
            cr_assert(fr_eq(&g, &v[j]), "n %llu: value %llu differs", (unsigned long long)n, (unsigned long long)j);
            cr_assert_eq((c.isbit[j / 64] >> (j % 64)) & 1, is_bit(&v[j]));
            cr_assert_eq((c.one[j / 64] >> (j % 64)) & 1, fr_is_one(&v[j]));
        }
        if (n) {
            uint64_t j0 = n / 3, j1 = n - n / 4;
            cs_compact_expand(x, &c, j0, j1);
            cr_assert(memcmp(x, v + j0, (size_t)(j1 - j0) * sizeof *x) == 0);
        }
        cr_assert(cs_compact_bytes(&c) >= (size_t)nd * sizeof(fr_t));
        cs_compact_free(&c);
        cs_compact_free(NULL);
        free(v);
        free(x);
    }
}

/* A cs_t in CS_FLAG_COMPACT mode keeps the values it is given (bits by the
 * gadgets' fast path too), reads them back with cs_value, and overwrites
 * them with cs_set_value, a value changing between bit and dense included;
 * a dense cs_t fed the same values agrees with it at every step. */
Test(compact, cs_flag_compact)
{
    test_rng_t rng;
    test_rng_init(&rng, "compact cs_flag_compact");
    err_t err;
    cs_t *cc, *cd;
    cr_assert_eq(cs_create(&cc, CS_WITNESS, CS_FLAG_COMPACT, &err), 0, "%s", err.msg);
    cr_assert_eq(cs_create(&cd, CS_WITNESS, CS_FLAG_NONE, &err), 0, "%s", err.msg);
    cs_reserve(cc, 100, 1);
    enum { N = 3000 };
    cs_var_t vc[N], vd[N];
    for (int i = 0; i < N; i++) {
        if (test_rng_next(&rng) % 3 == 0) {
            bool b = test_rng_next(&rng) & 1;
            vc[i] = cs_bit_alloc(cc, b).var;
            vd[i] = cs_bit_alloc(cd, b).var;
        } else {
            fr_t v;
            pick(&v, &rng);
            vc[i] = cs_alloc(cc, &v);
            vd[i] = cs_alloc(cd, &v);
        }
    }
    for (int k = 0; k < 200; k++) {
        int i = (int)(test_rng_next(&rng) % N);
        fr_t v;
        pick(&v, &rng);
        cs_set_value(cc, vc[i], &v);
        cs_set_value(cd, vd[i], &v);
    }
    cr_assert_eq(cs_status(cc, &err), 0, "%s", err.msg);
    cr_assert_null(cs_aux_values(cc));
    cr_assert_null(cs_aux_compact(cd));
    const cs_compact_t *c = cs_aux_compact(cc);
    cr_assert_not_null(c);
    cr_assert_eq(c->n, cs_num_aux(cd));
    const fr_t *dense = cs_aux_values(cd);
    uint64_t nd = 0;
    for (uint64_t j = 0; j < c->n; j++) {
        fr_t a, b;
        cs_value(cc, &a, vc[j] );
        cs_value(cd, &b, vd[j]);
        cr_assert(fr_eq(&a, &b), "variable %llu", (unsigned long long)j);
        cs_compact_get(&a, c, j);
        cr_assert(fr_eq(&a, &dense[j]));
        nd += !is_bit(&dense[j]);
    }
    cr_assert_eq(c->n_dense, nd);
    groth16_witness_t w;
    groth16_witness_of(&w, cc);
    cr_assert_eq(w.aux_compact, c);
    cr_assert_null(w.aux);
    cr_assert_eq(w.n_aux, (size_t)c->n);
    cs_destroy(cc);
    cs_destroy(cd);
}

/* ---- sums of bases chosen by bits --------------------------------------------------------- */

/* n G1 and G2 points: multiples of the generators by a random start and
 * step (so they are distinct, and a few repeat when asked). */
static void points(g1_affine_t *p1, g2_affine_t *p2, size_t n, test_rng_t *rng)
{
    fr_t k;
    fr_set_u64(&k, test_rng_next(rng) | 1);
    g1_jac_t a, s1, *j1 = malloc(n * sizeof *j1);
    g2_jac_t b, s2, *j2 = malloc(n * sizeof *j2);
    g1_from_affine(&a, &G1_GENERATOR);
    g2_from_affine(&b, &G2_GENERATOR);
    g1_mul_fr(&s1, &a, &k);
    g2_mul_fr(&s2, &b, &k);
    for (size_t i = 0; i < n; i++) {
        g1_add(&a, &a, &s1);
        g2_add(&b, &b, &s2);
        j1[i] = a;
        j2[i] = b;
    }
    fp_t *sc = malloc(n * sizeof(fp2_t));
    g1_batch_to_affine(p1, j1, n, sc);
    g2_batch_to_affine(p2, j2, n, (fp2_t *)(void *)sc);
    if (n > 12) {
        p1[7] = p1[3]; /* P + P in one sum */
        p2[7] = p2[3];
        p1[5] = p1[4]; /* P + P in one pair of the batch-affine sum */
        p2[5] = p2[4];
        p1[9] = p1[8]; /* P + (-P) in one pair */
        fp_neg(&p1[9].y, &p1[8].y);
        p2[9] = p2[8];
        fp2_neg(&p2[9].y, &p2[8].y);
        memset(&p1[12], 0, sizeof p1[12]); /* the identity */
        p1[12].inf = true;
        memset(&p2[12], 0, sizeof p2[12]);
        p2[12].inf = true;
    }
    free(sc);
    free(j1);
    free(j2);
}

static void bits_equal_naive_sum(const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    err_t err;
    topo_pool_t *pool;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0, "%s", err.msg);
    static const size_t sizes[] = {0, 1, 64, 65, 200, 40000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s], nw = n / 64 + 1;
        uint64_t *sel = calloc(nw + 1, 8), *dens = calloc(nw + 1, 8);
        for (size_t w = 0; w < nw; w++) {
            sel[w] = test_rng_next(&rng);
            dens[w] = test_rng_next(&rng) | test_rng_next(&rng);
        }
        /* bits 4, 5 (P + P), 8, 9 (P - P) and 12 (the identity) and none
         * else below 13, so that without density 4 and 5, 8 and 9 are pairs
         * of the batch-affine sum's first level */
        sel[0] = (sel[0] & ~0x1fffULL) | 0x1330;
        if (n % 64)
            dens[n / 64] &= ~0ULL >> (64 - n % 64); /* a density of exactly n bits */
        else
            dens[n / 64] = 0;
        /* garbage in sel past n must be ignored */
        g1_affine_t *b1 = malloc((n + 1) * sizeof *b1);
        g2_affine_t *b2 = malloc((n + 1) * sizeof *b2);
        if (n)
            points(b1, b2, n, &rng);
        for (int with_density = 0; with_density < 2; with_density++) {
            g1_jac_t want1, got1, q1;
            g2_jac_t want2, got2, q2;
            g1_jac_set_inf(&want1);
            g2_jac_set_inf(&want2);
            size_t k = 0;
            for (size_t j = 0; j < n; j++) {
                bool in = !with_density || ((dens[j / 64] >> (j % 64)) & 1);
                if (in && ((sel[j / 64] >> (j % 64)) & 1) && !b1[with_density ? k : j].inf) {
                    g1_from_affine(&q1, &b1[with_density ? k : j]);
                    g1_add(&want1, &want1, &q1);
                    g2_from_affine(&q2, &b2[with_density ? k : j]);
                    g2_add(&want2, &want2, &q2);
                }
                k += in;
            }
            msm_g1_bits(&got1, b1, sel, with_density ? dens : NULL, n, pool);
            msm_g2_bits(&got2, b2, sel, with_density ? dens : NULL, n, pool);
            cr_assert(g1_jac_eq(&got1, &want1), "G1, n %zu, density %d", n, with_density);
            cr_assert(g2_jac_eq(&got2, &want2), "G2, n %zu, density %d", n, with_density);
            msm_g1_bits(&got1, b1, sel, with_density ? dens : NULL, n, NULL);
            cr_assert(g1_jac_eq(&got1, &want1), "G1 without a pool, n %zu, density %d", n, with_density);
        }
        free(sel);
        free(dens);
        free(b1);
        free(b2);
    }
    topo_pool_destroy(pool);
}

/* G1 and G2 on 8 lanes where the CPU has IFMA; then the scalar levels. */
Test(msm_bits, equals_naive_sum) { bits_equal_naive_sum("msm_bits equals_naive_sum"); }
Test(msm_bits, scalar_path_equals_naive_sum)
{
    cr_assert(fr_x8_init(FR_X8_OFF) == 0);
    bits_equal_naive_sum("msm_bits scalar_path_equals_naive_sum");
}

/* ---- proofs ------------------------------------------------------------------------------- */

static void same_proof(const groth16_proof_t *a, const groth16_proof_t *b, const char *what)
{
    uint8_t x[GROTH16_PROOF_BYTES], y[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(x, a);
    groth16_proof_to_bytes(y, b);
    cr_assert(memcmp(x, y, sizeof x) == 0, "%s: the compact witness's proof differs from the dense one's", what);
}

/* Proves circuit (name, size) once from the dense witness and once from its
 * compact form (same r, s), on the CPU and through an emulated device, and
 * compares the bytes; also a/b/c from both forms in every mode. */
static void compact_equals_dense(const char *name, uint64_t size)
{
    test_rng_t rng;
    test_rng_init(&rng, name);
    err_t err;
    char dir[64], params[128], vk[128];
    snprintf(dir, sizeof dir, "/tmp/gm_cw_XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(params, sizeof params, "%s/c.params", dir);
    snprintf(vk, sizeof vk, "%s/c.vk", dir);
    topo_pool_t *pool;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0, "%s", err.msg);
    circuit_t circ;
    cs_shape_t *shape;
    groth16_params_t *pp;
    cr_assert_eq(circuit_parse(&circ, name, size, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(circuit_shape(&shape, &circ, &err), 0, "%s", err.msg);
    uint8_t seed[GROTH16_SEED_BYTES];
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        seed[i] = (uint8_t)test_rng_next(&rng);
    cr_assert_eq(groth16_setup(shape, seed, params, vk, pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_params_load(&pp, params, shape, GROTH16_LOAD_DEFAULT, pool, &err), 0, "%s", err.msg);
    cs_t *cs;
    circuit_witness_opts_t wo = {.seed = test_rng_next(&rng), .mode = CS_WITNESS};
    cr_assert_eq(circuit_witness(&cs, &circ, &wo, &err), 0, "%s", err.msg);
    groth16_witness_t wd, wc;
    groth16_witness_of(&wd, cs);
    cr_assert_null(wd.aux_compact);
    cs_compact_t cz;
    cr_assert_eq(cs_compact_from_values(&cz, wd.aux, wd.n_aux, &err), 0, "%s", err.msg);
    wc = wd;
    wc.aux = NULL;
    wc.aux_compact = &cz;

    size_t nr = (size_t)shape->n_rows;
    fr_t *abc = malloc(6 * nr * sizeof *abc);
    for (int mode = CS_ABC_EXACT; mode <= CS_ABC_C_ONLY; mode++) {
        memset(abc, 0, 6 * nr * sizeof *abc);
        cs_shape_abc_mode(shape, wd.inputs, wd.aux, abc, abc + nr, abc + 2 * nr, (cs_abc_mode_t)mode, pool);
        cs_shape_abc_compact(shape, wc.inputs, &cz, abc + 3 * nr, abc + 4 * nr, abc + 5 * nr, (cs_abc_mode_t)mode,
                             pool);
        cr_assert(memcmp(abc, abc + 3 * nr, 3 * nr * sizeof *abc) == 0, "%s: a/b/c mode %d differ", name, mode);
    }
    free(abc);

    fr_t rs[2];
    fr_set_u64(&rs[0], test_rng_next(&rng));
    fr_set_u64(&rs[1], test_rng_next(&rng));
    groth16_prover_t *pv;
    groth16_proof_t want, got;
    cr_assert_eq(groth16_prover_create(&pv, pp, shape, pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, &want, &wd, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, &got, &wc, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    same_proof(&want, &got, name);
    cs_compact_t short_cz = cz; /* a compact form that does not hold n_aux values */
    short_cz.n--;
    groth16_witness_t wbad = wc;
    wbad.aux_compact = &short_cz;
    cr_assert_eq(groth16_prove(pv, &got, &wbad, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "compact") != NULL, "%s", err.msg);

    groth16_backend_t *be;
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 0, NULL, 0, &err), 0, "%s", err.msg);
    groth16_prover_set_backend(pv, be);
    cr_assert_eq(groth16_prove(pv, &got, &wc, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    same_proof(&want, &got, "emulated device");
    groth16_backend_stats_t st;
    groth16_backend_stats(be, &st);
    cr_assert_eq(st.fallbacks, 0, "the emulated device failed");
    groth16_prover_destroy(pv);

    /* streamed parameters (stream.c), in chunks of 128 columns so that the
     * chunk edges, the density words and the compact view's dense offsets
     * all take part: the same proof from both witness forms; a device
     * backend is declined (resident bases only) and the CPU proves */
    groth16_params_t *ps;
    setenv("GROTHMPI_STREAM_CHUNK", "128", 1);
    cr_assert_eq(groth16_params_load(&ps, params, shape, GROTH16_LOAD_STREAM, pool, &err), 0, "%s", err.msg);
    cr_assert(groth16_params_streamed(ps));
    cr_assert_eq(groth16_prover_create(&pv, ps, shape, pool, &err), 0, "%s", err.msg);
    unsetenv("GROTHMPI_STREAM_CHUNK");
    groth16_timings_t tm;
    cr_assert_eq(groth16_prove(pv, &got, &wd, 1, rs, GROTH16_PROVE_DEFAULT, pool, &tm, &err), 0, "%s", err.msg);
    same_proof(&want, &got, "streamed parameters, dense witness");
    groth16_counts_t n;
    groth16_params_counts(&n, ps);
    cr_expect_eq(tm.params_bytes, (n.a + n.b_g1 + n.l + n.h) * G1_UNCOMPRESSED_BYTES + n.b_g2 * G2_UNCOMPRESSED_BYTES);
    groth16_prover_set_backend(pv, be);
    cr_assert_eq(groth16_prove(pv, &got, &wc, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    same_proof(&want, &got, "streamed parameters, compact witness");
    groth16_prover_destroy(pv);
    groth16_params_free(ps);
    groth16_backend_close(be);

    cs_compact_free(&cz);
    cs_destroy(cs);
    groth16_params_free(pp);
    cs_shape_free(shape);
    topo_pool_destroy(pool);
    unlink(params);
    unlink(vk);
    rmdir(dir);
}

Test(witness, compact_proof_equals_dense_synthetic, .timeout = 300) { compact_equals_dense("test-synthetic", 1024); }

Test(witness, compact_proof_equals_dense_sha256, .timeout = 300) { compact_equals_dense("test-sha256", 1); }
