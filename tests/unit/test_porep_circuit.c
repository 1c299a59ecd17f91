/*
 * tests/unit/test_porep_circuit.c — the SDR PoRep circuit (synth/stacked.c):
 * counts for every sector size, a satisfying 2 KiB witness, a broken one
 * named by path, and the public inputs' order.
 *
 * Known answers: rust-fil-proofs' circuitinfo for 32 GiB ("32 GiB PoRep
 * constraints: 130278541, public inputs: 328, partitions: 10", quoted in
 * rust-fil-proofs PR #1325). Other sizes: a per-gadget formula whose gadget
 * costs are pinned by bellperson / neptune / rust-fil-proofs tests; it is
 * recomputed here from those costs, independently of the circuit code.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "synth/synth.h"

static poseidon_set_t ps;

static void setup(void)
{
    cr_assert_eq(ff_init(FF_PATH_AUTO), 0);
    cr_assert_eq(poseidon_set_init(&ps, NULL), 0);
}

static void teardown(void) { poseidon_set_free(&ps); }

TestSuite(porep_circuit, .init = setup, .fini = teardown);

/* The reference formula: constraints of one partition. */
static uint64_t formula(unsigned comm_d_depth, unsigned oct_levels, unsigned bin_levels, unsigned layers,
                        unsigned challenges)
{
    const uint64_t oct = 3 + 22 + 505, bin = 1 + 2 + 311, sha_level = 45382, label = 522269;
    uint64_t P = oct * oct_levels + bin * bin_levels + 2;
    uint64_t Hc = layers == 2 ? 311 : 598;
    uint64_t c = (sha_level * comm_d_depth + 2) + 14 * (Hc + P) + 65 + (6 * 256 + label) +
                 (uint64_t)(layers - 1) * (14 * 256 + label) + (1 + P) + (Hc + P);
    return 571 + challenges * c;
}

static void count_case(uint64_t bytes, uint64_t want_constraints, uint64_t want_inputs)
{
    stacked_config_t cfg;
    cr_assert_eq(stacked_config_init(&cfg, bytes, NULL), 0);
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_COUNT, CS_FLAG_NONE, NULL), 0);
    stacked_synthesize(cs, &cfg, &ps, NULL);
    cr_assert_eq(cs_status(cs, NULL), 0);
    cr_expect_eq(cs_num_constraints(cs), want_constraints, "%llu bytes: %llu constraints, want %llu",
                 (unsigned long long)bytes, (unsigned long long)cs_num_constraints(cs),
                 (unsigned long long)want_constraints);
    cr_expect_eq(cs_num_inputs(cs), want_inputs, "%llu bytes: %llu inputs", (unsigned long long)bytes,
                 (unsigned long long)cs_num_inputs(cs));
    cs_destroy(cs);
}

Test(porep_circuit, counts_32gib_match_circuitinfo, .timeout = 60)
{
    count_case(32ULL << 30, 130278541, 328);
    cr_expect_eq(formula(30, 10, 0, 11, 18), 130278541);
}

Test(porep_circuit, counts_other_sizes_match_the_formula, .timeout = 60)
{
    count_case(2048, formula(6, 2, 0, 2, 2), 40);
    count_case(8ULL << 20, formula(18, 6, 0, 2, 2), 40);
    count_case(512ULL << 20, formula(24, 8, 0, 2, 2), 40);
    count_case(64ULL << 30, formula(31, 10, 1, 11, 18), 328);
}

Test(porep_circuit, config_and_sizes)
{
    stacked_config_t cfg;
    err_t e;
    cr_expect_eq(stacked_config_init(&cfg, 4096, &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "4096") != NULL, "%s", e.msg);
    uint64_t b;
    cr_expect_eq(stacked_sector_size_parse(&b, "32GiB", "--sector-size", NULL), 0);
    cr_expect_eq(b, 32ULL << 30);
    cr_expect_eq(stacked_sector_size_parse(&b, "2KiB", "x", NULL), 0);
    cr_expect_eq(b, 2048);
    cr_expect_eq(stacked_sector_size_parse(&b, "512mib", "x", NULL), 0);
    cr_expect_eq(b, 512ULL << 20);
    cr_expect_eq(stacked_sector_size_parse(&b, "32XB", "--sector-size", &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "--sector-size") && strstr(e.msg, "32XB"), "%s", e.msg);
    cr_expect_eq(stacked_config_init(&cfg, 64ULL << 30, NULL), 0);
    cr_expect_eq(cfg.n_levels, 11);
    cr_expect_eq(cfg.level_arity[9], 8);
    cr_expect_eq(cfg.level_arity[10], 2);
    cr_expect_eq(cfg.path_siblings, 10 * 7 + 1);
}

/* Synthesizes the 2 KiB circuit in CHECK mode with a witness. */
static cs_t *check_2k(const stacked_config_t *cfg, const stacked_witness_t *w)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    stacked_synthesize(cs, cfg, &ps, w);
    cr_assert_eq(cs_status(cs, NULL), 0);
    return cs;
}

Test(porep_circuit, random_2kib_witness_satisfies, .timeout = 120)
{
    stacked_config_t cfg;
    cr_assert_eq(stacked_config_init(&cfg, 2048, NULL), 0);
    stacked_witness_t *w;
    cr_assert_eq(stacked_witness_random(&w, &cfg, &ps, 42, NULL), 0);
    cs_t *cs = check_2k(&cfg, w);
    const char *path = NULL;
    cr_expect(cs_is_satisfied(cs, NULL, &path), "unsatisfied at %s", path ? path : "?");
    /* the inputs the circuit allocated equal what a verifier computes */
    fr_t pub[3 + 2 * 18];
    stacked_public_inputs(pub, &cfg, w);
    cr_assert_eq(cs_num_inputs(cs), 40);
    const fr_t *in = cs_input_values(cs);
    cr_expect(fr_is_one(&in[0]));
    for (int i = 0; i < 39; i++)
        cr_expect(fr_eq(&in[1 + i], &pub[i]), "public input %d", i);
    cs_destroy(cs);
    stacked_witness_free(w, &cfg);
}

Test(porep_circuit, broken_witness_is_named, .timeout = 120)
{
    stacked_config_t cfg;
    cr_assert_eq(stacked_config_init(&cfg, 2048, NULL), 0);
    stacked_witness_t *w;
    cr_assert_eq(stacked_witness_random(&w, &cfg, &ps, 7, NULL), 0);
    /* a wrong comm_r: the very first Poseidon equality fails */
    fr_add(&w->comm_r, &w->comm_r, &FR_ONE);
    cs_t *cs = check_2k(&cfg, w);
    const char *path = NULL;
    cr_expect_not(cs_is_satisfied(cs, NULL, &path));
    cr_expect_str_eq(path, "enforce comm_r = H(comm_c || comm_r_last)/equal");
    cs_destroy(cs);
    fr_sub(&w->comm_r, &w->comm_r, &FR_ONE);
    /* a wrong data leaf in challenge 1: comm_d's root no longer matches */
    fr_add(&w->ch[1].data_leaf, &w->ch[1].data_leaf, &FR_ONE);
    cs = check_2k(&cfg, w);
    cr_expect_not(cs_is_satisfied(cs, NULL, &path));
    cr_expect_str_eq(path, "challenge_1/comm_d_inclusion/enforce root is correct/equal");
    cs_destroy(cs);
    stacked_witness_free(w, &cfg);
}

Test(porep_circuit, flipped_bit_in_witness_is_named, .timeout = 120)
{
    stacked_config_t cfg;
    cr_assert_eq(stacked_config_init(&cfg, 2048, NULL), 0);
    stacked_witness_t *w;
    cr_assert_eq(stacked_witness_random(&w, &cfg, &ps, 9, NULL), 0);
    /* flip the low bit of the second layer of challenge 0's third DRG
     * parent column: its column hash leaves comm_c */
    uint8_t b[32];
    fr_to_bytes_le(b, &w->ch[0].parents[2].rows[1]);
    b[0] ^= 1;
    cr_assert_eq(fr_from_bytes_le(&w->ch[0].parents[2].rows[1], b), 0);
    cs_t *cs = check_2k(&cfg, w);
    const char *path = NULL;
    uint64_t idx = 0;
    cr_expect_not(cs_is_satisfied(cs, &idx, &path));
    cr_expect_str_eq(path, "challenge_0/drg_parent_2_inclusion/enforce root is correct/equal");
    cs_destroy(cs);
    stacked_witness_free(w, &cfg);
}
