/*
 * tests/unit/test_porep_prove.c — the PoRep partition inside groth16/:
 * witnesses from C1 data (circuit_witness with a C1 source), the public inputs a
 * verifier derives from a C1 (circuit_porep_c1_inputs, rust-fil-proofs'
 * StackedCompound::generate_public_inputs), and proofs whose public inputs
 * were tampered with.
 *
 * A full 2 KiB PoRep proof needs a 2.69 M-constraint setup (minutes on two
 * cores); tests/integration/porep_prove.sh does that once, with its
 * parameter cache under the build directory. Here the Groth16 part runs on a
 * tiny circuit with the PoRep partition's 39 public inputs, so that the C1 ->
 * inputs -> verify path is exercised in milliseconds.
 *
 * The C1s come from synth/porep's sparse synthetic C1 (porep_c1_synthetic),
 * which porep_c1_verify accepts: its challenges and parents are the graph's,
 * so its vanilla proofs are an independent statement of the node indices
 * that the derived inputs must reproduce. Replay with GM_TEST_SEED=<seed>.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#include "synth/porep/porep.h"
#include "synth/synth.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#include "circuits/circuits.h"
#pragma GCC diagnostic pop

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(porep_prove, .init = init);

#define N_IN 39 /* public inputs of a 2 KiB .. 512 MiB partition, without ONE */

/* A synthetic C1 of a registered proof, its graph and its hashers. */
typedef struct {
    porep_hashers_t h;
    porep_c1_t c1;
    porep_graph_t g;
} c1fx_t;

static void c1_open(c1fx_t *f, uint32_t proof_id, test_rng_t *rng)
{
    err_t err;
    memset(f, 0, sizeof *f);
    cr_assert_eq(porep_hashers_init(&f->h, &err), 0, "%s", err.msg);
    uint8_t seed[32];
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)test_rng_next(rng);
    const porep_proof_t *p = porep_proof_by_id(proof_id);
    cr_assert(p);
    cr_assert_eq(porep_c1_synthetic(&f->c1, p, seed, &f->h, &err), 0, "%s", err.msg);
    cr_assert_eq(circuit_porep_graph(&f->g, &f->c1, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_c1_verify(&f->c1, &f->g, &f->h, "synthetic", &err), 0, "%s", err.msg);
}

static void c1_close(c1fx_t *f)
{
    porep_graph_destroy(&f->g);
    porep_c1_free(&f->c1);
    porep_hashers_free(&f->h);
}

static uint64_t fr_u64(const fr_t *a)
{
    uint8_t b[32];
    fr_to_bytes_le(b, a);
    for (int i = 8; i < 32; i++)
        cr_assert_eq(b[i], 0, "not a small number");
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void dom_to_fr(fr_t *out, const porep_dom_t *d) { cr_assert_eq(fr_from_bytes_le(out, d->b), 0); }

/* ---- the derived inputs against the vanilla proofs ---------------------------------------- */

/* The layout of generate_public_inputs, read back from the C1's own vanilla
 * proofs (not from the graph code): comm_d leaf index, the 14 columns'
 * indices, the challenge, the comm_r_last and comm_c leaf indices. */
static void check_inputs_against_vanilla(const porep_c1_t *c1, const fr_t *in, unsigned k)
{
    fr_t v;
    dom_to_fr(&v, &c1->replica_id);
    cr_assert(fr_eq(&in[0], &v), "replica_id");
    dom_to_fr(&v, &c1->comm_d);
    cr_assert(fr_eq(&in[1], &v), "comm_d");
    dom_to_fr(&v, &c1->comm_r);
    cr_assert(fr_eq(&in[2], &v), "comm_r");
    size_t n = 3;
    for (unsigned i = 0; i < c1->challenges; i++) {
        const porep_vproof_t *p = &c1->proofs[(size_t)k * c1->challenges + i];
        uint64_t c = p->c_x.index;
        cr_assert_eq(fr_u64(&in[n++]), c, "challenge %u: comm_d index", i);
        for (unsigned j = 0; j < POREP_BASE_DEGREE; j++)
            cr_assert_eq(fr_u64(&in[n++]), p->drg[j].index, "challenge %u: drg parent %u", i, j);
        for (unsigned j = 0; j < POREP_EXP_DEGREE; j++)
            cr_assert_eq(fr_u64(&in[n++]), p->exp[j].index, "challenge %u: exp parent %u", i, j);
        cr_assert_eq(fr_u64(&in[n++]), c, "challenge %u: the challenge", i);
        cr_assert_eq(fr_u64(&in[n++]), c, "challenge %u: comm_r_last index", i);
        cr_assert_eq(fr_u64(&in[n++]), c, "challenge %u: comm_c index", i);
        cr_assert_eq(c, p->labeling[0].node, "challenge %u: labeling node", i);
    }
    cr_assert_eq(n, circuit_porep_input_count(c1));
}

Test(porep_prove, c1_inputs_follow_the_vanilla_proofs, .timeout = 60)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_prove/c1_inputs_follow_the_vanilla_proofs");
    static const uint32_t ids[] = {0, 5, 6}; /* 2 KiB V1 and V1_1, 8 MiB V1_1 */
    for (size_t t = 0; t < sizeof ids / sizeof ids[0]; t++) {
        c1fx_t f;
        c1_open(&f, ids[t], &rng);
        cr_assert_eq(circuit_porep_input_count(&f.c1), N_IN);
        fr_t in[N_IN];
        err_t err;
        cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &f.g, 0, &err), 0, "%s", err.msg);
        check_inputs_against_vanilla(&f.c1, in, 0);
        c1_close(&f);
    }
}

Test(porep_prove, c1_inputs_of_a_32gib_partition, .timeout = 120)
{
    /* 10 partitions of 18 challenges: partition k takes challenges 18k.. */
    test_rng_t rng;
    test_rng_init(&rng, "porep_prove/c1_inputs_of_a_32gib_partition");
    c1fx_t f;
    c1_open(&f, 8, &rng); /* StackedDrg32GiBV1_1 */
    cr_assert_eq(f.c1.partitions, 10);
    cr_assert_eq(circuit_porep_input_count(&f.c1), 327);
    fr_t in[327];
    err_t err;
    unsigned k = (unsigned)(test_rng_next(&rng) % 10);
    cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &f.g, k, &err), 0, "%s", err.msg);
    check_inputs_against_vanilla(&f.c1, in, k);
    c1_close(&f);
}

/* ---- the C1 witness ------------------------------------------------------------------------- */

Test(porep_prove, c1_witness_satisfies_the_circuit, .timeout = 300)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_prove/c1_witness_satisfies_the_circuit");
    c1fx_t f;
    c1_open(&f, 5, &rng);
    err_t err;
    circuit_t circ;
    cr_assert_eq(circuit_from_c1(&circ, &f.c1, &err), 0, "%s", err.msg);
    cr_assert_str_eq(circ.id, "porep-2048-v2");

    /* the composition circuit_witness uses for a C1, in CHECK mode */
    stacked_config_t cfg;
    poseidon_set_t ps;
    stacked_witness_t *w;
    cr_assert_eq(stacked_config_init(&cfg, 2048, &err), 0);
    cr_assert_eq(poseidon_set_init(&ps, &err), 0);
    cr_assert_eq(stacked_witness_alloc(&w, &cfg, &err), 0);
    cr_assert_eq(porep_c1_witness(w, &cfg, &f.c1, 0, &err), 0, "%s", err.msg);
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, &err), 0);
    stacked_synthesize(cs, &cfg, &ps, w);
    cr_assert_eq(cs_status(cs, &err), 0, "%s", err.msg);
    uint64_t idx = 0;
    const char *path = NULL;
    cr_assert(cs_is_satisfied(cs, &idx, &path), "constraint %llu: %s", (unsigned long long)idx, path);
    cs_destroy(cs);

    /* the WITNESS-mode system: its inputs are the derived ones */
    circuit_witness_opts_t o = {.c1 = &f.c1, .graph = &f.g, .partition = 0, .mode = CS_WITNESS};
    cr_assert_eq(circuit_witness(&cs, &circ, &o, &err), 0, "%s", err.msg);
    cr_assert_eq(cs_num_inputs(cs), N_IN + 1);
    cr_assert_eq(cs_num_aux(cs), 2685673);
    fr_t in[N_IN];
    cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &f.g, 0, &err), 0, "%s", err.msg);
    const fr_t *got = cs_input_values(cs);
    cr_assert(fr_eq(&got[0], &FR_ONE));
    for (int j = 0; j < N_IN; j++)
        cr_assert(fr_eq(&got[j + 1], &in[j]), "input %d", j);
    /* and stacked_public_inputs of the same witness agrees */
    fr_t sp[N_IN];
    stacked_public_inputs(sp, &cfg, w);
    for (int j = 0; j < N_IN; j++)
        cr_assert(fr_eq(&sp[j], &in[j]), "stacked_public_inputs %d", j);
    cs_destroy(cs);
    stacked_witness_free(w, &cfg);
    poseidon_set_free(&ps);
    c1_close(&f);
}

/* A C1 whose vanilla proofs state another challenged node than the seed
 * draws: circuit_witness refuses it, naming the partition, the input and
 * both values (the first three inputs, replica_id and the commitments,
 * agree; input 3 is challenge 0's comm_d leaf index). */
Test(porep_prove, c1_witness_with_a_tampered_input_names_the_partition, .timeout = 300)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_prove/c1_witness_with_a_tampered_input_names_the_partition");
    c1fx_t f;
    c1_open(&f, 5, &rng);
    err_t err;
    circuit_t circ;
    cr_assert_eq(circuit_from_c1(&circ, &f.c1, &err), 0, "%s", err.msg);
    porep_vproof_t *p = &f.c1.proofs[0];
    uint32_t drawn = p->c_x.index;
    p->c_x.index = (uint32_t)((drawn + 1) % (f.c1.shape.sector_size / 32));
    cs_t *cs = (cs_t *)&rng;
    circuit_witness_opts_t o = {.c1 = &f.c1, .graph = &f.g, .partition = 0, .mode = CS_WITNESS,
                                .flags = CS_FLAG_COMPACT};
    cr_assert_eq(circuit_witness(&cs, &circ, &o, &err), GM_EVERIFY, "%s", err.msg);
    cr_assert_null(cs);
    char want[160];
    snprintf(want, sizeof want, "partition 0: public input 3: the vanilla proofs give %u, the graph and seed give %u",
             p->c_x.index, drawn);
    cr_assert_str_eq(err.msg, want);
    c1_close(&f);
}

Test(porep_prove, witness_alloc_layout)
{
    static const uint64_t sizes[] = {2048, 8ULL << 20, 32ULL << 30, 64ULL << 30};
    for (size_t t = 0; t < 4; t++) {
        stacked_config_t cfg;
        stacked_witness_t *w;
        err_t err;
        cr_assert_eq(stacked_config_init(&cfg, sizes[t], &err), 0);
        cr_assert_eq(stacked_witness_alloc(&w, &cfg, &err), 0);
        /* every path's siblings are writable and disjoint: write a distinct
         * value everywhere, then read every one back */
        uint64_t tag = 1;
        for (unsigned i = 0; i < cfg.challenges; i++) {
            stacked_challenge_t *c = &w->ch[i];
            stacked_path_t *paths[3 + STACKED_PARENTS] = {&c->comm_d_path, &c->comm_r_last_path, &c->comm_c_path};
            for (unsigned p = 0; p < STACKED_PARENTS; p++)
                paths[3 + p] = &c->parents[p].path;
            for (unsigned p = 0; p < 3 + STACKED_PARENTS; p++) {
                unsigned n = p == 0 ? cfg.comm_d_depth : cfg.path_siblings;
                for (unsigned s = 0; s < n; s++) {
                    cr_assert(fr_eq(&paths[p]->siblings[s], &FR_ZERO));
                    fr_set_u64(&paths[p]->siblings[s], tag++);
                }
            }
        }
        tag = 1;
        for (unsigned i = 0; i < cfg.challenges; i++) {
            stacked_challenge_t *c = &w->ch[i];
            stacked_path_t *paths[3 + STACKED_PARENTS] = {&c->comm_d_path, &c->comm_r_last_path, &c->comm_c_path};
            for (unsigned p = 0; p < STACKED_PARENTS; p++)
                paths[3 + p] = &c->parents[p].path;
            for (unsigned p = 0; p < 3 + STACKED_PARENTS; p++) {
                unsigned n = p == 0 ? cfg.comm_d_depth : cfg.path_siblings;
                for (unsigned s = 0; s < n; s++)
                    cr_assert_eq(fr_u64(&paths[p]->siblings[s]), tag++);
            }
        }
        stacked_witness_free(w, &cfg);
    }
}

/* ---- Groth16 with the partition's inputs on a tiny circuit -------------------------------- */

/* Each of the 39 inputs x_j is bound by x_j * 1 = a_j and a_j * a_j = s_j,
 * so a proof commits to all of them. */
static void tiny_synth(cs_t *cs, const fr_t *in)
{
    for (int j = 0; j < N_IN; j++) {
        fr_t sq;
        fr_mul(&sq, &in[j], &in[j]);
        cs_var_t x = cs_alloc_input(cs, &in[j]);
        cs_num_t a = cs_num_alloc(cs, &in[j]);
        cs_enforce_begin(cs);
        cs_term(cs, CS_A, x, NULL);
        cs_term(cs, CS_B, CS_ONE, NULL);
        cs_term(cs, CS_C, a.var, NULL);
        cs_enforce_end(cs, "x = a");
        (void)cs_num_square(cs, &a);
    }
}

Test(porep_prove, tampered_public_input_is_rejected, .timeout = 120)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_prove/tampered_public_input_is_rejected");
    c1fx_t f;
    c1_open(&f, 5, &rng);
    err_t err;
    fr_t in[N_IN];
    cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &f.g, 0, &err), 0, "%s", err.msg);

    char dir[64], pp[128], vkp[128];
    snprintf(dir, sizeof dir, "/tmp/gm_pp_XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(pp, sizeof pp, "%s/t.params", dir);
    snprintf(vkp, sizeof vkp, "%s/t.vk", dir);
    cs_t *cs;
    cs_shape_t *shape;
    cr_assert_eq(cs_create(&cs, CS_SHAPE, CS_FLAG_NONE, &err), 0);
    fr_t zeros[N_IN];
    for (int j = 0; j < N_IN; j++)
        zeros[j] = FR_ZERO;
    tiny_synth(cs, zeros);
    cr_assert_eq(cs_shape_take(cs, &shape, &err), 0, "%s", err.msg);
    cs_destroy(cs);
    uint8_t seed[GROTH16_SEED_BYTES];
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        seed[i] = (uint8_t)test_rng_next(&rng);
    cr_assert_eq(groth16_setup(shape, seed, pp, vkp, NULL, &err), 0, "%s", err.msg);
    groth16_params_t *params;
    groth16_prover_t *pv;
    cr_assert_eq(groth16_params_load(&params, pp, shape, GROTH16_LOAD_DEFAULT, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_prover_create(&pv, params, shape, NULL, &err), 0, "%s", err.msg);

    cr_assert_eq(cs_create(&cs, CS_WITNESS, CS_FLAG_NONE, &err), 0);
    tiny_synth(cs, in);
    groth16_witness_t w = {cs_input_values(cs), cs_num_inputs(cs), cs_aux_values(cs), cs_num_aux(cs), NULL};
    groth16_proof_t proof;
    cr_assert_eq(groth16_prove(pv, &proof, &w, 1, NULL, GROTH16_PROVE_DEFAULT, NULL, NULL, &err), 0, "%s",
                 err.msg);

    /* through the bytes, as grothmpi verify reads them */
    uint8_t bytes[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(bytes, &proof);
    cr_assert_eq(groth16_proof_from_bytes(&proof, bytes, "proof", &err), 0, "%s", err.msg);
    groth16_vk_t vk;
    groth16_pvk_t pvk;
    cr_assert_eq(groth16_vk_load(&vk, vkp, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_pvk_prepare(&pvk, &vk, &err), 0);
    cr_assert_eq(groth16_verify(&pvk, &proof, in, N_IN, &err), 0, "%s", err.msg);

    /* every input, changed by one, is rejected: replica_id, comm_d, comm_r,
     * the node indices and the challenge */
    for (int j = 0; j < N_IN; j++) {
        fr_t bad[N_IN];
        memcpy(bad, in, sizeof bad);
        fr_add(&bad[j], &bad[j], &FR_ONE);
        cr_assert_eq(groth16_verify(&pvk, &proof, bad, N_IN, &err), GM_EVERIFY, "input %d accepted", j);
    }
    /* the inputs of another C1 (another seed: other challenges) too */
    c1fx_t g;
    c1_open(&g, 5, &rng);
    fr_t other[N_IN];
    cr_assert_eq(circuit_porep_c1_inputs(other, &g.c1, &g.g, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(groth16_verify(&pvk, &proof, other, N_IN, &err), GM_EVERIFY);
    /* a C1 whose seed alone changed: same commitments, other challenges */
    f.c1.seed[0] ^= 1;
    cr_assert_eq(circuit_porep_c1_inputs(other, &f.c1, &f.g, 0, &err), 0, "%s", err.msg);
    cr_assert(memcmp(other, in, 3 * sizeof(fr_t)) == 0);
    cr_assert_eq(groth16_verify(&pvk, &proof, other, N_IN, &err), GM_EVERIFY);

    c1_close(&g);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
    cs_destroy(cs);
    groth16_prover_destroy(pv);
    groth16_params_free(params);
    cs_shape_free(shape);
    unlink(pp);
    unlink(vkp);
    rmdir(dir);
    c1_close(&f);
}

/* ---- errors ----------------------------------------------------------------------------------- */

Test(porep_prove, errors_name_the_problem, .timeout = 60)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_prove/errors_name_the_problem");
    c1fx_t f;
    c1_open(&f, 5, &rng);
    err_t err;
    fr_t in[N_IN];
    circuit_t circ;
    cs_t *cs = (cs_t *)&rng;

    /* partition out of range */
    cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &f.g, 1, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "partition 1"), "%s", err.msg);
    cr_assert_eq(circuit_from_c1(&circ, &f.c1, &err), 0, "%s", err.msg);
    circuit_witness_opts_t o = {.c1 = &f.c1, .graph = &f.g, .partition = 1, .mode = CS_WITNESS};
    cr_assert_eq(circuit_witness(&cs, &circ, &o, &err), GM_EINVAL);
    cr_assert_null(cs);
    cr_assert(strncmp(err.msg, "partition 1: ", 13) == 0 && strstr(err.msg, "0..0"), "%s", err.msg);

    /* a circuit of another size */
    circuit_t other;
    cr_assert_eq(circuit_parse(&other, "porep", 0, "8MiB", &err), 0, "%s", err.msg);
    o.partition = 0;
    cr_assert_eq(circuit_witness(&cs, &other, &o, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "porep-8388608"), "%s", err.msg);

    /* a C1 whose challenge count is not the circuit's */
    f.c1.challenges = 3;
    cr_assert_eq(circuit_from_c1(&circ, &f.c1, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "3 challenges"), "%s", err.msg);
    f.c1.challenges = 2;

    /* a commitment that is not a field element */
    porep_dom_t keep = f.c1.comm_r;
    memset(f.c1.comm_r.b, 0xff, 32);
    cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &f.g, 0, &err), GM_ENONCANON);
    cr_assert(strstr(err.msg, "comm_r"), "%s", err.msg);
    f.c1.comm_r = keep;

    /* a graph of another size */
    porep_graph_t g8;
    uint8_t id[32];
    porep_id_make(id, porep_proof_by_id(6));
    cr_assert_eq(porep_graph_init(&g8, 1u << 18, id, POREP_API_1_1, &err), 0);
    cr_assert_eq(circuit_porep_c1_inputs(in, &f.c1, &g8, 0, &err), GM_EINVAL);
    porep_graph_destroy(&g8);

    /* a feature proof (SyntheticPoRep, id 10: 2 KiB, API 1.2) draws other
     * challenges from the same public data: the first three inputs agree,
     * the challenge inputs do not */
    fr_t want[N_IN], syn[N_IN];
    cr_assert_eq(circuit_porep_c1_inputs(want, &f.c1, &f.g, 0, &err), 0, "%s", err.msg);
    const porep_proof_t *keep_p = f.c1.proof;
    f.c1.proof = porep_proof_by_id(10);
    porep_graph_t gf;
    cr_assert_eq(circuit_porep_graph(&gf, &f.c1, &err), 0, "%s", err.msg);
    cr_assert_eq(circuit_porep_c1_inputs(syn, &f.c1, &gf, 0, &err), 0, "%s", err.msg);
    porep_graph_destroy(&gf);
    cr_assert(memcmp(want, syn, 3 * sizeof(fr_t)) == 0);
    cr_assert(memcmp(want, syn, sizeof want) != 0);
    f.c1.proof = keep_p;
    c1_close(&f);
}
