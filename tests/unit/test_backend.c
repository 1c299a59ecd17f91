/*
 * tests/unit/test_backend.c — the prover's backends (groth16/backend.c):
 * proofs made through the emulated device (gpu/'s kernels run on the host)
 * are byte-identical to the CPU prover's for the same r and s, and verify,
 * for a test-synthetic circuit and a snarkjs zkey of each curve (bls12381,
 * bn128); injected device faults
 * (GROTHMPI_GPU_FAULT=oom|error|corrupt) end in the same proofs, made on the
 * CPU, counted as fallbacks, the device retired after
 * GROTH16_BACKEND_MAX_FAILURES; `cuda` refuses to start without a device
 * and `auto` says why it chose the CPU.
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
#include "gpu/gpu.h"
#include "circuits/circuits.h"
#include "groth16/groth16.h"
#include "params/params.h"
#include "snarkjs/snarkjs.h"
#include "synth/synth.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop
#include "topo/topo.h"

static void init(void)
{
    cr_assert_eq(ff_init(FF_PATH_AUTO), 0);
    unsetenv("GROTHMPI_GPU_FAULT");
}

TestSuite(backend, .init = init);

enum { K = 4 };

/* test-synthetic with 2^10 rows, its parameters, K witnesses and K (r, s). */
typedef struct {
    char dir[64], params[128], vk[128];
    circuit_t circ;
    cs_shape_t *shape;
    groth16_params_t *pp;
    topo_pool_t *pool;
    cs_t *cs[K];
    groth16_witness_t w[K];
    fr_t rs[2 * K];
    groth16_proof_t want[K]; /* the CPU's proofs */
} fx_t;

static void fx_open(fx_t *f, const char *who)
{
    memset(f, 0, sizeof *f);
    err_t err;
    test_rng_t rng;
    test_rng_init(&rng, who);
    snprintf(f->dir, sizeof f->dir, "/tmp/gm_be_XXXXXX");
    cr_assert(mkdtemp(f->dir));
    snprintf(f->params, sizeof f->params, "%s/c.params", f->dir);
    snprintf(f->vk, sizeof f->vk, "%s/c.vk", f->dir);
    cr_assert_eq(topo_pool_create_flat(&f->pool, 2, &err), 0, "%s", err.msg);
    cr_assert_eq(circuit_parse(&f->circ, "test-synthetic", 1024, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(circuit_shape(&f->shape, &f->circ, &err), 0, "%s", err.msg);
    uint8_t seed[GROTH16_SEED_BYTES];
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        seed[i] = (uint8_t)test_rng_next(&rng);
    cr_assert_eq(groth16_setup(f->shape, seed, f->params, f->vk, f->pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_params_load(&f->pp, f->params, f->shape, GROTH16_LOAD_DEFAULT, f->pool, &err), 0, "%s",
                 err.msg);
    for (int i = 0; i < K; i++) {
        circuit_witness_opts_t wo = {.seed = test_rng_next(&rng), .mode = CS_WITNESS};
        cr_assert_eq(circuit_witness(&f->cs[i], &f->circ, &wo, &err), 0, "%s", err.msg);
        f->w[i] = (groth16_witness_t){cs_input_values(f->cs[i]), cs_num_inputs(f->cs[i]), cs_aux_values(f->cs[i]),
                                      cs_num_aux(f->cs[i]), NULL};
        fr_set_u64(&f->rs[2 * i], test_rng_next(&rng));
        fr_set_u64(&f->rs[2 * i + 1], test_rng_next(&rng));
    }
    groth16_prover_t *pv;
    cr_assert_eq(groth16_prover_create(&pv, f->pp, f->shape, f->pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, f->want, f->w, K, f->rs, GROTH16_PROVE_DEFAULT, f->pool, NULL, &err), 0, "%s",
                 err.msg);
    groth16_prover_destroy(pv);
}

static void fx_close(fx_t *f)
{
    for (int i = 0; i < K; i++)
        cs_destroy(f->cs[i]);
    groth16_params_free(f->pp);
    cs_shape_free(f->shape);
    topo_pool_destroy(f->pool);
    unlink(f->params);
    unlink(f->vk);
    rmdir(f->dir);
}

/* The K proofs through an emulated device opened with GROTHMPI_GPU_FAULT =
 * fault (NULL: none), in two stages (prepare each, then one finish of K),
 * compared byte for byte with the CPU's; the backend's counters in *st. */
static void prove_emulated(fx_t *f, const char *fault, groth16_prove_flags_t flags, groth16_backend_stats_t *st)
{
    err_t err;
    if (fault)
        setenv("GROTHMPI_GPU_FAULT", fault, 1);
    groth16_backend_t *be;
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 1, NULL, 0, &err), 0, "%s", err.msg);
    unsetenv("GROTHMPI_GPU_FAULT");
    cr_assert_eq(groth16_backend_kind(be), GROTH16_BACKEND_EMULATE);
    groth16_prover_t *pv;
    cr_assert_eq(groth16_prover_create(&pv, f->pp, f->shape, f->pool, &err), 0, "%s", err.msg);
    groth16_prover_set_backend(pv, be);
    groth16_prepared_t *u[K];
    for (int i = 0; i < K; i++) {
        cr_assert_eq(groth16_prepared_create(&u[i], pv, &err), 0, "%s", err.msg);
        cr_assert_eq(groth16_prepare(pv, u[i], &f->w[i], f->pool, NULL, &err), 0, "%s", err.msg);
    }
    groth16_proof_t got[K];
    cr_assert_eq(groth16_finish(pv, got, u, K, f->rs, flags, f->pool, NULL, &err), 0, "%s", err.msg);
    for (int i = 0; i < K; i++) {
        uint8_t a[GROTH16_PROOF_BYTES], b[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(a, &f->want[i]);
        groth16_proof_to_bytes(b, &got[i]);
        cr_assert(memcmp(a, b, sizeof a) == 0, "fault %s: unit %d: the emulated device's proof differs from the CPU's",
                  fault ? fault : "none", i);
        groth16_prepared_free(u[i]);
    }
    groth16_prover_destroy(pv);
    groth16_backend_stats(be, st);
    groth16_backend_close(be);
}

Test(backend, emulate_equals_cpu_synthetic)
{
    fx_t f;
    fx_open(&f, "backend emulate_equals_cpu_synthetic");
    groth16_backend_stats_t st;
    /* NO_VERIFY is overridden: a device's proofs are always verified. */
    prove_emulated(&f, NULL, GROTH16_PROVE_NO_VERIFY, &st);
    cr_assert_eq(st.units, K);
    cr_assert_eq(st.fallbacks, 0);
    cr_assert_eq(st.failures, 0);
    cr_assert(!st.retired);
    cr_assert(st.msm_ns > 0 && st.ntt_ns > 0 && st.busy_ns >= st.msm_ns + st.ntt_ns);
    cr_assert(st.mem_peak > 0);
    cr_assert_str_eq(st.name, "emulate:1");
    fx_close(&f);
}

/* Each fault from the first call: the device fails, the units are proved on
 * the CPU (same bytes), and the device is retired at the limit. */
Test(backend, faults_fall_back_to_the_cpu)
{
    fx_t f;
    fx_open(&f, "backend faults_fall_back_to_the_cpu");
    static const char *const faults[] = {"oom", "error", "corrupt"};
    for (int i = 0; i < 3; i++) {
        groth16_backend_stats_t st;
        prove_emulated(&f, faults[i], GROTH16_PROVE_DEFAULT, &st);
        cr_assert_eq(st.units, K, "%s", faults[i]);
        cr_assert(st.fallbacks >= 1 && st.fallbacks <= K, "%s: %llu fallbacks", faults[i],
                  (unsigned long long)st.fallbacks);
        cr_assert(st.failures >= GROTH16_BACKEND_MAX_FAILURES, "%s", faults[i]);
        cr_assert(st.retired, "%s", faults[i]);
    }
    /* A fault after more calls than the run makes never fires. */
    groth16_backend_stats_t st;
    prove_emulated(&f, "corrupt:100000", GROTH16_PROVE_DEFAULT, &st);
    cr_assert_eq(st.fallbacks, 0);
    cr_assert(!st.retired);
    /* corrupt after the K units' h (one call each: the plan of an
     * unlimited device runs h whole): the first MSM's sum is wrong, caught
     * by the verification, the unit proved on the CPU. */
    prove_emulated(&f, "corrupt:4", GROTH16_PROVE_DEFAULT, &st);
    cr_assert(st.fallbacks >= 1 && st.failures >= 1);
    fx_close(&f);
}

Test(backend, kinds_and_refusals)
{
    err_t err;
    groth16_backend_kind_t k;
    cr_assert_eq(groth16_backend_kind_parse(&k, "emulate", "--backend", &err), 0);
    cr_assert_eq(k, GROTH16_BACKEND_EMULATE);
    cr_assert_eq(groth16_backend_kind_parse(&k, "gpu", "--backend", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "--backend: 'gpu' is not a backend"), "%s", err.msg);
    groth16_backend_t *be;
    setenv("GROTHMPI_GPU_FAULT", "melt", 1);
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 0, NULL, 0, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "GROTHMPI_GPU_FAULT: 'melt'"), "%s", err.msg);
    setenv("GROTHMPI_GPU_FAULT", "oom:x", 1);
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 0, NULL, 0, &err), GM_EINVAL);
    unsetenv("GROTHMPI_GPU_FAULT");
    gpu_ctx_t *probe;
    if (gpu_init(&probe, 0, &err) == 0) {
        gpu_destroy(probe);
        cr_skip("a CUDA device is present: the no-device refusals do not apply");
    }
    /* cuda is strict; auto says why it took the CPU. */
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_CUDA, 0, NULL, 0, &err), GM_ENODEV);
    cr_assert(be == NULL);
    cr_assert(strstr(err.msg, "backend cuda: no usable CUDA device"), "%s", err.msg);
    char note[512];
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_AUTO, 0, note, sizeof note, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_backend_kind(be), GROTH16_BACKEND_CPU);
    cr_assert(strstr(note, "backend auto: proving on the CPU ("), "%s", note);
    groth16_backend_close(be);
}

/* ---- snarkjs ------------------------------------------------------------------------------------- */

#define VDIR "tests/vectors/snarkjs/"

/* The emulated device's snarkjs proof equals the CPU's (the same r and s)
 * with no fault, and with injected faults that fall back (one each):
 * prove(arg, be) proves once with a fresh prover on be and says whether
 * the proof is the CPU's. Both curves' zkeys go through it. */
static void emulate_equals_cpu(bool (*prove)(void *arg, groth16_backend_t *be), void *arg, const char *curve)
{
    err_t err;
    static const char *const faults[] = {NULL, "corrupt", "error:3"};
    for (int i = 0; i < 3; i++) {
        groth16_backend_t *be;
        if (faults[i])
            setenv("GROTHMPI_GPU_FAULT", faults[i], 1);
        cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 0, NULL, 0, &err), 0, "%s", err.msg);
        unsetenv("GROTHMPI_GPU_FAULT");
        cr_assert(prove(arg, be), "%s, fault %s: the emulated device's snarkjs proof differs from the CPU's", curve,
                  faults[i] ? faults[i] : "none");
        groth16_backend_stats_t st;
        groth16_backend_stats(be, &st);
        cr_assert_eq(st.units, 1, "%s", curve);
        cr_assert_eq(st.fallbacks, faults[i] ? 1 : 0, "%s, fault %s", curve, faults[i] ? faults[i] : "none");
        groth16_backend_close(be);
    }
}

typedef struct {
    const snarkjs_zkey_t *zk;
    const snarkjs_wtns_t *w;
    fr_t rs[2];
    groth16_proof_t want;
} bls_case_t;

static bool prove_bls(void *arg, groth16_backend_t *be)
{
    const bls_case_t *c = arg;
    snarkjs_prover_t *pv;
    groth16_proof_t got;
    err_t err;
    cr_assert_eq(snarkjs_prover_create(&pv, c->zk, NULL, &err), 0, "%s", err.msg);
    snarkjs_prover_set_backend(pv, be);
    cr_assert_eq(snarkjs_prove(pv, &got, c->w->w, c->w->n, c->rs, GROTH16_PROVE_NO_VERIFY, NULL, NULL, &err), 0,
                 "%s", err.msg);
    snarkjs_prover_destroy(pv);
    return g1_affine_eq(&got.a, &c->want.a) && g2_affine_eq(&got.b, &c->want.b) && g1_affine_eq(&got.c, &c->want.c);
}

Test(backend, emulate_equals_cpu_snarkjs)
{
    err_t err;
    snarkjs_zkey_t *zk;
    snarkjs_wtns_t w;
    cr_assert_eq(snarkjs_zkey_load(&zk, VDIR "multiplier.zkey", SNARKJS_ZKEY_DEFAULT, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_wtns_load(&w, VDIR "multiplier.wtns", &err), 0, "%s", err.msg);
    test_rng_t rng;
    test_rng_init(&rng, "backend emulate_equals_cpu_snarkjs");
    bls_case_t c = {.zk = zk, .w = &w};
    fr_set_u64(&c.rs[0], test_rng_next(&rng));
    fr_set_u64(&c.rs[1], test_rng_next(&rng));
    snarkjs_prover_t *pc;
    cr_assert_eq(snarkjs_prover_create(&pc, zk, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_prove(pc, &c.want, w.w, w.n, c.rs, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s",
                 err.msg);
    emulate_equals_cpu(prove_bls, &c, "bls12381");
    snarkjs_prover_destroy(pc);
    snarkjs_wtns_free(&w);
    snarkjs_zkey_free(zk);
}

typedef struct {
    const snarkjs_bn_zkey_t *zk;
    const snarkjs_bn_wtns_t *w;
    bn_fr_t rs[2];
    snarkjs_bn_proof_t want;
} bn_case_t;

static bool prove_bn(void *arg, groth16_backend_t *be)
{
    const bn_case_t *c = arg;
    snarkjs_bn_prover_t *pv;
    snarkjs_bn_proof_t got;
    err_t err;
    cr_assert_eq(snarkjs_bn_prover_create(&pv, c->zk, NULL, &err), 0, "%s", err.msg);
    snarkjs_bn_prover_set_backend(pv, be);
    cr_assert_eq(snarkjs_bn_prove(pv, &got, c->w->w, c->w->n, c->rs, GROTH16_PROVE_NO_VERIFY, NULL, NULL, &err), 0,
                 "%s", err.msg);
    snarkjs_bn_prover_destroy(pv);
    return bn_g1_affine_eq(&got.a, &c->want.a) && bn_g2_affine_eq(&got.b, &c->want.b) &&
           bn_g1_affine_eq(&got.c, &c->want.c);
}

Test(backend, emulate_equals_cpu_snarkjs_bn128)
{
    err_t err;
    snarkjs_bn_zkey_t *zk;
    snarkjs_bn_wtns_t w;
    cr_assert_eq(snarkjs_bn_zkey_load(&zk, VDIR "multiplier_bn128.zkey", SNARKJS_ZKEY_DEFAULT, NULL, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(snarkjs_bn_wtns_load(&w, VDIR "multiplier_bn128.wtns", &err), 0, "%s", err.msg);
    test_rng_t rng;
    test_rng_init(&rng, "backend emulate_equals_cpu_snarkjs_bn128");
    bn_case_t c = {.zk = zk, .w = &w};
    bn_fr_set_u64(&c.rs[0], test_rng_next(&rng));
    bn_fr_set_u64(&c.rs[1], test_rng_next(&rng));
    snarkjs_bn_prover_t *pc;
    cr_assert_eq(snarkjs_bn_prover_create(&pc, zk, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(snarkjs_bn_prove(pc, &c.want, w.w, w.n, c.rs, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s",
                 err.msg);
    emulate_equals_cpu(prove_bn, &c, "bn128");
    snarkjs_bn_prover_destroy(pc);
    snarkjs_bn_wtns_free(&w);
    snarkjs_bn_zkey_free(zk);
}

/* ---- a 2 KiB PoRep partition (2^22 domain) -------------------------------------------------
 * Its parameters take minutes to set up, so these tests run only when
 * GROTHMPI_POREP_CACHE names a cache holding them (tests/integration/
 * gpu_porep.sh does, after the shared setup); otherwise they are skipped. */

typedef struct {
    circuit_t circ;
    topo_pool_t *pool;
    cs_shape_t *shape;
    groth16_params_t *params;
    cs_t *cs;
    groth16_witness_t w;
} porep2k_t;

/* The cached parameters and shape of the 2 KiB partition and a witness
 * (seed 1); skips the test when there is no cache. */
static void porep2k_open(porep2k_t *f)
{
    const char *dir = getenv("GROTHMPI_POREP_CACHE");
    if (!dir || !*dir)
        cr_skip("GROTHMPI_POREP_CACHE is not set (tests/integration/gpu_porep.sh sets it)");
    err_t err;
    cr_assert_eq(circuit_parse(&f->circ, "porep", 0, "2KiB", &err), 0, "%s", err.msg);
    params_paths_t paths;
    cr_assert_eq(params_paths(&paths, dir, f->circ.id, &err), 0, "%s", err.msg);
    cr_assert_eq(topo_pool_create_flat(&f->pool, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(params_shape_load(&f->shape, NULL, &paths, false, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_params_load(&f->params, paths.params, f->shape, GROTH16_LOAD_TRUST, f->pool, &err), 0, "%s",
                 err.msg);
    circuit_witness_opts_t wo = {.seed = 1, .mode = CS_WITNESS};
    cr_assert_eq(circuit_witness(&f->cs, &f->circ, &wo, &err), 0, "%s", err.msg);
    f->w = (groth16_witness_t){cs_input_values(f->cs), cs_num_inputs(f->cs), cs_aux_values(f->cs),
                               cs_num_aux(f->cs), NULL};
}

static void porep2k_close(porep2k_t *f)
{
    cs_destroy(f->cs);
    groth16_params_free(f->params);
    cs_shape_free(f->shape);
    topo_pool_destroy(f->pool);
}

Test(backend_porep, porep_2k_emulate_equals_cpu, .timeout = 2400)
{
    porep2k_t f;
    porep2k_open(&f);
    err_t err;
    circuit_t circ = f.circ;
    topo_pool_t *pool = f.pool;
    cs_shape_t *shape = f.shape;
    groth16_params_t *params = f.params;
    groth16_witness_t w = f.w;
    test_rng_t rng;
    test_rng_init(&rng, "backend porep_2k_emulate_equals_cpu");
    fr_t rs[2];
    fr_set_u64(&rs[0], test_rng_next(&rng));
    fr_set_u64(&rs[1], test_rng_next(&rng));
    /* The same partition synthesized compact (CS_FLAG_COMPACT, as campaigns
     * do): 0/1 values as bits, proved through the compact MSMs on the CPU
     * and expanded for the device; the same bytes. */
    cs_t *cc;
    circuit_witness_opts_t wo = {.seed = 1, .mode = CS_WITNESS, .flags = CS_FLAG_COMPACT};
    cr_assert_eq(circuit_witness(&cc, &circ, &wo, &err), 0, "%s", err.msg);
    groth16_witness_t wc;
    groth16_witness_of(&wc, cc);
    cr_assert_not_null(wc.aux_compact);
    fprintf(stderr, "porep 2KiB: %zu aux values, %llu not 0 or 1 (%.2f %%), compact %.1f MiB instead of %.1f\n",
            wc.n_aux, (unsigned long long)wc.aux_compact->n_dense,
            100.0 * (double)wc.aux_compact->n_dense / (double)wc.n_aux,
            (double)cs_compact_bytes(wc.aux_compact) / 1048576.0, (double)wc.n_aux * 32 / 1048576.0);
    groth16_proof_t want, got[3];
    groth16_prover_t *pv;
    cr_assert_eq(groth16_prover_create(&pv, params, shape, pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, &want, &w, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, &got[0], &wc, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    groth16_backend_t *be;
    cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 0, NULL, 0, &err), 0, "%s", err.msg);
    groth16_prover_set_backend(pv, be);
    cr_assert_eq(groth16_prove(pv, &got[1], &w, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, &got[2], &wc, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    groth16_backend_stats_t st;
    groth16_backend_stats(be, &st);
    static const char *const what[3] = {"the compact witness's proof (CPU)", "the emulated device's proof",
                                        "the emulated device's proof of the compact witness"};
    for (int i = 0; i < 3; i++) {
        uint8_t a[GROTH16_PROOF_BYTES], b[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(a, &want);
        groth16_proof_to_bytes(b, &got[i]);
        cr_assert(memcmp(a, b, sizeof a) == 0, "2 KiB partition: %s differs from the CPU's", what[i]);
    }
    cr_assert_eq(st.units, 2);
    cr_assert_eq(st.fallbacks, 0, "the emulated device failed: %llu failures", (unsigned long long)st.failures);
    groth16_prover_destroy(pv);
    groth16_backend_close(be);
    cs_destroy(cc);
    porep2k_close(&f);
}

/* The same partition through emulated devices of several sizes, sized from
 * the plan of its own sets: one just large enough for the plan that keeps
 * everything resident, one that cannot hold A and B1 beside the rest (so
 * sets stream), one just short of the whole h alone (so h runs in steps and
 * every set streams). Each proof is the CPU's, byte for byte, with
 * no fallback, and the device never holds more than its memory. Runs with
 * backend_porep/porep_2k_emulate_equals_cpu (tests/integration/gpu_porep.sh).
 * GROTHMPI_EMU_SIZES=LIST (e.g. "2,3") runs only those of the three sizes:
 * each emulated proof takes minutes on a small machine. */
Test(backend_porep, porep_2k_emulated_memory_sizes, .timeout = 3600)
{
    porep2k_t f;
    porep2k_open(&f);
    err_t err;
    topo_pool_t *pool = f.pool;
    groth16_params_t *params = f.params;
    groth16_witness_t w = f.w;
    fr_t rs[2];
    fr_set_u64(&rs[0], 5);
    fr_set_u64(&rs[1], 7);
    groth16_proof_t want, got;
    groth16_prover_t *pv;
    cr_assert_eq(groth16_prover_create(&pv, params, f.shape, pool, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prove(pv, &want, &w, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
    /* The plan of the whole sections (the prover's sets are these less a
     * few input columns): the sizes below straddle its decisions. */
    groth16_counts_t n;
    groth16_params_counts(&n, params);
    unsigned log_m = 0;
    while (((uint64_t)1 << log_m) < n.h + 1)
        log_m++;
    static const char *const names[4] = {"A", "B1", "L", "H"};
    const uint64_t counts[4] = {n.a, n.b_g1, n.l, n.h};
    gpu_plan_t all;
    cr_assert_eq(gpu_plan(&all, GPU_CURVE_BLS12_381, names, counts, 4, log_m, (size_t)1 << 50, 0, 64, &err), 0,
                 "%s", err.msg);
    cr_assert(!all.set[3].streamed && all.h == GPU_PLAN_H_WHOLE);
    const size_t sizes[3] = {all.total, all.total - (size_t)(n.a + n.b_g1) * 96, all.h_phase - 1};
    const char *only = getenv("GROTHMPI_EMU_SIZES");
    for (int k = 0; k < 3; k++) {
        if (only && *only && !strchr(only, '1' + k))
            continue;
        char mem[32];
        snprintf(mem, sizeof mem, "%zu", sizes[k]);
        setenv("GROTHMPI_EMU_MEM", mem, 1);
        groth16_backend_t *be;
        cr_assert_eq(groth16_backend_open(&be, GROTH16_BACKEND_EMULATE, 0, NULL, 0, &err), 0, "%s", err.msg);
        unsetenv("GROTHMPI_EMU_MEM");
        groth16_prover_set_backend(pv, be);
        cr_assert_eq(groth16_prove(pv, &got, &w, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err), 0, "%s", err.msg);
        groth16_backend_stats_t st;
        groth16_backend_stats(be, &st);
        groth16_prover_set_backend(pv, NULL);
        groth16_backend_close(be);
        uint8_t a[GROTH16_PROOF_BYTES], b[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(a, &want);
        groth16_proof_to_bytes(b, &got);
        fprintf(stderr, "porep 2KiB on an emulated device of %zu bytes: peak %llu bytes, %.1f s MSM, %.1f s h\n",
                sizes[k], (unsigned long long)st.mem_peak, (double)st.msm_ns / 1e9, (double)st.ntt_ns / 1e9);
        cr_assert(memcmp(a, b, sizeof a) == 0, "2 KiB partition on %zu device bytes: the proof differs from the CPU's",
                  sizes[k]);
        cr_assert_eq(st.fallbacks, 0, "%zu device bytes: %llu failures", sizes[k], (unsigned long long)st.failures);
        cr_assert(st.mem_peak <= sizes[k], "%zu device bytes: peak %llu", sizes[k], (unsigned long long)st.mem_peak);
    }
    groth16_prover_destroy(pv);
    porep2k_close(&f);
}

/* ---- streamed bases ------------------------------------------------------------------------- */

/* Bases that do not fit an emulated device of GROTHMPI_EMU_MEM bytes are
 * streamed in chunks; the MSMs over them (k = 2, with and without a
 * density bitmap) equal ec/'s. */
Test(backend, streamed_bases_equal_cpu)
{
    enum { N = 3000 };
    err_t err;
    test_rng_t rng;
    test_rng_init(&rng, "backend streamed_bases_equal_cpu");
    g1_affine_t *pts = malloc(N * sizeof *pts);
    fr_t *s0 = malloc(N * sizeof *s0), *s1 = malloc(N * sizeof *s1);
    uint64_t dens[N / 64 + 1];
    memset(dens, 0, sizeof dens);
    g1_jac_t g, acc;
    g1_from_affine(&g, &G1_GENERATOR);
    uint64_t k0[4] = {test_rng_next(&rng), 1, 0, 0};
    g1_mul(&acc, &g, k0);
    size_t nset = 0;
    for (size_t i = 0; i < N; i++) {
        g1_to_affine(&pts[i], &acc);
        g1_add(&acc, &acc, &g);
        fr_set_u64(&s0[i], test_rng_next(&rng));
        fr_set_u64(&s1[i], i % 7 == 0 ? 1 : test_rng_next(&rng));
        if (test_rng_next(&rng) & 1)
            dens[i >> 6] |= 1ULL << (i & 63), nset++;
    }
    /* Room for the points' 96 bytes each, but not for them and the
     * workspace of their MSM: the 3000 (and the nset) stream, in chunks
     * whose workspace fits beside them. */
    setenv("GROTHMPI_EMU_MEM", "2M", 1);
    gpu_ctx_t *ctx;
    cr_assert_eq(gpu_init_emulated(&ctx, 0, &err), 0, "%s", err.msg);
    unsetenv("GROTHMPI_EMU_MEM");
    gpu_g1_bases_t *full, *part;
    cr_assert_eq(gpu_g1_bases_upload(&full, ctx, pts, N, &err), 0, "%s", err.msg);
    cr_assert(gpu_g1_bases_streamed(full));
    cr_assert_eq(gpu_g1_bases_upload(&part, ctx, pts, nset, &err), 0, "%s", err.msg);
    cr_assert(gpu_g1_bases_streamed(part));
    const fr_t *sc[2] = {s0, s1};
    g1_jac_t got[2], want;
    size_t scr_sz = msm_g1_scratch_size(N, 1, 0);
    void *scr = malloc(scr_sz);
    cr_assert_eq(gpu_msm_g1(ctx, got, full, sc, NULL, N, 2, 0, &err), 0, "%s", err.msg);
    for (int j = 0; j < 2; j++) {
        msm_g1(&want, pts, sc[j], NULL, N, 0, scr, NULL);
        cr_assert(g1_jac_eq(&got[j], &want), "streamed msm %d (no density) differs from ec/'s", j);
    }
    cr_assert_eq(gpu_msm_g1(ctx, got, part, sc, dens, N, 2, 0, &err), 0, "%s", err.msg);
    for (int j = 0; j < 2; j++) {
        msm_g1(&want, pts, sc[j], dens, N, 0, scr, NULL);
        cr_assert(g1_jac_eq(&got[j], &want), "streamed msm %d (density) differs from ec/'s", j);
    }
    /* Too small for even one chunk: refused. */
    setenv("GROTHMPI_EMU_MEM", "1000", 1);
    gpu_ctx_t *tiny;
    cr_assert_eq(gpu_init_emulated(&tiny, 0, &err), 0, "%s", err.msg);
    unsetenv("GROTHMPI_EMU_MEM");
    gpu_g1_bases_t *none;
    cr_assert_eq(gpu_g1_bases_upload(&none, tiny, pts, N, &err), GM_ENOMEM);
    cr_assert(strstr(err.msg, "fit neither resident nor streamed"), "%s", err.msg);
    gpu_destroy(tiny);
    setenv("GROTHMPI_EMU_MEM", "12X", 1);
    cr_assert_eq(gpu_init_emulated(&tiny, 0, &err), GM_EINVAL);
    unsetenv("GROTHMPI_EMU_MEM");
    gpu_g1_bases_free(part);
    gpu_g1_bases_free(full);
    gpu_destroy(ctx);
    free(scr);
    free(pts);
    free(s0);
    free(s1);
}
