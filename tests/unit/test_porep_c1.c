/*
 * tests/unit/test_porep_c1.c — synth/porep/ vanilla proofs and C1 JSON: a
 * sealed 2 KiB sector's C1 verifies and survives a JSON round trip; one-bit
 * changes in a label, a path or a column are caught with a message naming
 * the challenge and the check; malformed C1 JSON gives one error naming the
 * JSON path; sparse synthetic C1s (2 KiB and 512 MiB shapes) verify.
 *
 * The JSON layout follows serde_json over filecoin-proofs-api
 * SealCommitPhase1Output (see synth/porep/c1.c); the malformed inputs are
 * made here by editing a written file with jansson, independently of the
 * module's writer.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/porep/porep.h"

static porep_hashers_t H;

static void setup(void)
{
    err_t err;
    cr_assert_eq(ff_init(FF_PATH_AUTO), 0);
    cr_assert_eq(porep_hashers_init(&H, &err), 0, "%s", err.msg);
}

static void teardown(void)
{
    porep_hashers_free(&H);
}

TestSuite(porep_c1, .init = setup, .fini = teardown);

static void rm_sealed(const char *dir)
{
    const char *names[] = {"tree-d.dat", "labels.dat", "tree-c.dat", "tree-r-last.dat", "seal.json"};
    char p[512];
    for (size_t i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* Seals a 2 KiB V1_1 sector and builds its C1 for seed "c1-test". */
static void c1_2k(porep_c1_t *c)
{
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/gm-porep-c1-%ld", (long)getpid());
    porep_seal_opts_t o;
    memset(&o, 0, sizeof o);
    o.proof = porep_proof_find(2048, POREP_API_1_1);
    porep_seed_parse(o.seed, "c1 data");
    porep_seed_parse(o.ticket, "c1 ticket");
    o.sector_id = 3;
    porep_sealed_t s;
    err_t err;
    cr_assert_eq(porep_seal(&s, dir, &o, NULL, NULL, NULL, &err), 0, "%s", err.msg);
    uint8_t seed[32];
    porep_seed_parse(seed, "c1-test");
    cr_assert_eq(porep_c1_prove(c, dir, seed, &H, &err), 0, "%s", err.msg);
    cr_assert_arr_eq(c->comm_r.b, s.comm_r.b, 32);
    rm_sealed(dir);
}

static int verify(const porep_c1_t *c, err_t *err)
{
    porep_graph_t g;
    uint8_t id[32];
    porep_id_make(id, c->proof);
    cr_assert_eq(porep_graph_init(&g, c->shape.nodes, id, c->proof->api, err), 0);
    int rc = porep_c1_verify(c, &g, &H, "c1.json", err);
    porep_graph_destroy(&g);
    return rc;
}

static void expect_reject(const porep_c1_t *c, const char *needle)
{
    err_t err;
    cr_expect_eq(verify(c, &err), GM_EVERIFY, "accepted; expected: %s", needle);
    cr_expect(strstr(err.msg, needle) != NULL, "message '%s' lacks '%s'", err.msg, needle);
}

static void tmpfile_name(char *out, size_t n, const char *tag)
{
    snprintf(out, n, "/tmp/gm-porep-%s-%ld.json", tag, (long)getpid());
}

/* ---- verification ------------------------------------------------------------------- */

Test(porep_c1, sealed_2kib_c1_verifies_and_round_trips)
{
    porep_c1_t c, r;
    c1_2k(&c);
    err_t err;
    cr_assert_eq(verify(&c, &err), 0, "%s", err.msg);
    char path[128];
    tmpfile_name(path, sizeof path, "rt");
    cr_assert_eq(porep_c1_write(&c, path, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_c1_read(&r, path, &err), 0, "%s", err.msg);
    cr_expect_eq(r.proof, c.proof);
    cr_expect_eq(r.partitions, 1);
    cr_expect_eq(r.challenges, 2);
    cr_expect_arr_eq(r.comm_d.b, c.comm_d.b, 32);
    cr_expect_arr_eq(r.seed, c.seed, 32);
    cr_expect_arr_eq(r.ticket, c.ticket, 32);
    for (unsigned i = 0; i < 2; i++)
        cr_expect_arr_eq(&r.proofs[i], &c.proofs[i], sizeof c.proofs[i], "proof %u", i);
    cr_expect_eq(verify(&r, &err), 0, "%s", err.msg);
    /* layout details a Rust reader needs */
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    cr_assert_not_null(root);
    json_t *p0 = json_array_get(json_array_get(json_object_get(json_object_get(root, "vanilla_proofs"),
                                                               "StackedDrg2KiBV1"), 0), 0);
    json_t *col = json_object_get(json_object_get(json_object_get(p0, "replica_column_proofs"), "c_x"), "column");
    cr_expect(json_is_null(json_object_get(col, "_h")), "Column._h must be null");
    json_t *single = json_object_get(json_object_get(json_object_get(p0, "comm_d_proofs"), "data"), "Single");
    cr_expect_eq(json_array_size(json_object_get(json_object_get(single, "path"), "path")), 6);
    cr_expect_str_eq(json_string_value(json_object_get(root, "registered_proof")), "StackedDrg2KiBV1_1");
    json_decref(root);
    unlink(path);
    porep_c1_free(&r);
    porep_c1_free(&c);
}

Test(porep_c1, one_bit_changes_are_caught)
{
    porep_c1_t c;
    c1_2k(&c);
    porep_vproof_t keep = c.proofs[1];
    char where[64];
    snprintf(where, sizeof where, "vanilla_proofs.StackedDrg2KiBV1[0][1] (challenge %u)", keep.c_x.index);

    /* a label: a parent inside a labeling proof */
    c.proofs[1].labeling[1].parents[3].b[0] ^= 1;
    expect_reject(&c, where);
    expect_reject(&c, "labeling_proofs[1].parents[3]: does not match the parent column");
    c.proofs[1] = keep;

    /* a label: the challenged column's row (changes its column hash) */
    c.proofs[1].c_x.rows[1].b[5] ^= 0x10;
    expect_reject(&c, "replica_column_proofs.c_x: column hash is not the leaf of its inclusion proof");
    c.proofs[1] = keep;

    /* a path: a comm_d sibling; a tree_r_last sibling */
    c.proofs[1].comm_d_proof.path[3].hashes[0].b[9] ^= 0x80;
    expect_reject(&c, "comm_d_proofs: path does not hash to its root");
    c.proofs[1] = keep;
    c.proofs[1].comm_r_last_proof.path[1].hashes[6].b[0] ^= 1;
    expect_reject(&c, "comm_r_last_proof: path does not hash to its root");
    c.proofs[1] = keep;
    c.proofs[1].comm_d_proof.path[0].index ^= 1;
    expect_reject(&c, "comm_d_proofs: path proves node");
    c.proofs[1] = keep;

    /* a column: an expander parent's row */
    c.proofs[1].exp[4].rows[0].b[2] ^= 4;
    expect_reject(&c, "replica_column_proofs.exp_parents[4]: column hash is not the leaf");
    c.proofs[1] = keep;
    /* a column's index (the wrong parent) */
    c.proofs[1].drg[2].index ^= 1;
    expect_reject(&c, "replica_column_proofs.drg_parents[2].column.index");
    c.proofs[1] = keep;

    /* the encoding: a data leaf (its comm_d path then fails too, caught first) */
    c.proofs[1].encoding.parents[0].b[0] ^= 1;
    expect_reject(&c, "encoding_proof.parents[0]");
    c.proofs[1] = keep;

    /* commitments and challenges */
    c.comm_r.b[0] ^= 1;
    expect_reject(&c, "comm_r: is not Poseidon2(comm_c, comm_r_last)");
    c.comm_r.b[0] ^= 1;
    c.seed[0] ^= 1;
    expect_reject(&c, "derived from replica_id and seed");
    c.seed[0] ^= 1;

    err_t err;
    cr_expect_eq(verify(&c, &err), 0, "%s", err.msg);
    porep_c1_free(&c);
}

/* ---- malformed JSON ------------------------------------------------------------------- */

typedef void (*mutate_fn)(json_t *root);

static json_t *proof1(json_t *root)
{
    return json_array_get(
        json_array_get(json_object_get(json_object_get(root, "vanilla_proofs"), "StackedDrg2KiBV1"), 0), 1);
}

static void m_short_row(json_t *root)
{
    json_t *rows = json_object_get(
        json_object_get(json_array_get(json_object_get(json_object_get(proof1(root), "replica_column_proofs"),
                                                       "drg_parents"),
                                       2),
                        "column"),
        "rows");
    json_array_remove(json_array_get(rows, 0), 31);
}

static void m_big_byte(json_t *root)
{
    json_array_set_new(json_object_get(root, "comm_r"), 5, json_integer(256));
}

static void m_string_byte(json_t *root)
{
    json_array_set_new(json_object_get(root, "ticket"), 0, json_string("x"));
}

static void m_missing(json_t *root)
{
    json_object_del(proof1(root), "encoding_proof");
}

static void m_wrong_type(json_t *root)
{
    json_t *vp = json_object_get(root, "vanilla_proofs");
    json_t *v = json_incref(json_object_get(vp, "StackedDrg2KiBV1"));
    json_object_del(vp, "StackedDrg2KiBV1");
    json_object_set_new(vp, "StackedDrg8MiBV1", v);
}

static void m_unknown_proof(json_t *root)
{
    json_object_set_new(root, "registered_proof", json_string("StackedDrg4KiBV1"));
}

static void m_extra_label(json_t *root)
{
    json_t *l = json_object_get(proof1(root), "labeling_proofs");
    json_array_append(l, json_array_get(l, 0));
}

static void m_sub_kind(json_t *root)
{
    json_t *data = json_object_get(json_object_get(proof1(root), "comm_r_last_proof"), "data");
    json_t *v = json_incref(json_object_get(data, "Single"));
    json_object_del(data, "Single");
    json_object_set_new(data, "Sub", v);
}

static void m_index_range(json_t *root)
{
    json_t *path = json_object_get(
        json_object_get(json_object_get(json_object_get(proof1(root), "comm_r_last_proof"), "data"), "Single"),
        "path");
    json_object_set_new(json_array_get(json_object_get(path, "path"), 1), "index", json_integer(8));
}

static void m_partitions(json_t *root)
{
    json_array_append_new(json_object_get(json_object_get(root, "vanilla_proofs"), "StackedDrg2KiBV1"),
                          json_array());
}

static void check_malformed(mutate_fn fn, const char *want)
{
    porep_c1_t c, r;
    c1_2k(&c);
    char path[128], bad[160];
    tmpfile_name(path, sizeof path, "good");
    snprintf(bad, sizeof bad, "%s.bad", path);
    err_t err;
    cr_assert_eq(porep_c1_write(&c, path, &err), 0, "%s", err.msg);
    porep_c1_free(&c);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    cr_assert_not_null(root);
    fn(root);
    cr_assert_eq(json_dump_file(root, bad, JSON_COMPACT), 0);
    json_decref(root);
    cr_expect_eq(porep_c1_read(&r, bad, &err), GM_EFORMAT);
    char full[600];
    snprintf(full, sizeof full, "%s: %s", bad, want);
    cr_expect_str_eq(err.msg, full);
    cr_expect_null(r.proofs);
    unlink(path);
    unlink(bad);
}

Test(porep_c1, json_wrong_length)
{
    check_malformed(m_short_row, "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents[2]."
                                 "column.rows[0]: expected 32 bytes, got 31");
}

Test(porep_c1, json_bad_bytes)
{
    check_malformed(m_big_byte, "comm_r[5]: 256 is not a byte (0..255)");
    check_malformed(m_string_byte, "ticket[0]: expected a byte (0..255), got a string");
}

Test(porep_c1, json_missing_field)
{
    check_malformed(m_missing, "vanilla_proofs.StackedDrg2KiBV1[0][1]: missing field 'encoding_proof'");
}

Test(porep_c1, json_wrong_proof_type)
{
    check_malformed(m_wrong_type, "vanilla_proofs: proof type StackedDrg8MiBV1 does not match registered_proof "
                                  "StackedDrg2KiBV1_1 (expected StackedDrg2KiBV1)");
    check_malformed(m_unknown_proof, "registered_proof: 'StackedDrg4KiBV1' is not a registered seal proof");
    check_malformed(m_sub_kind, "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data: expected a Single "
                                "proof for this tree shape, got 'Sub'");
}

Test(porep_c1, json_wrong_counts)
{
    check_malformed(m_extra_label, "vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs: expected 2 entries, got 3");
    check_malformed(m_partitions, "vanilla_proofs.StackedDrg2KiBV1: expected 1 partitions, got 2");
    check_malformed(m_index_range, "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.path.path[1]"
                                   ".index: 8 is out of range 0..7");
}

Test(porep_c1, json_not_json_or_missing_file)
{
    char path[128];
    tmpfile_name(path, sizeof path, "notjson");
    FILE *f = fopen(path, "w");
    fputs("{\"registered_proof\": \n  [1, 2,", f);
    fclose(f);
    porep_c1_t c;
    err_t err;
    cr_expect_eq(porep_c1_read(&c, path, &err), GM_EFORMAT);
    cr_expect(strstr(err.msg, "line 2") != NULL && strstr(err.msg, "not valid JSON") != NULL, "%s", err.msg);
    unlink(path);
    cr_expect_eq(porep_c1_read(&c, path, &err), GM_EIO);
    cr_expect(strstr(err.msg, path) != NULL, "%s", err.msg);
}

/* ---- synthetic sectors ------------------------------------------------------------------ */

static void synthetic_roundtrip(uint64_t size)
{
    porep_c1_t c, r;
    uint8_t seed[32];
    porep_seed_parse(seed, "synthetic");
    err_t err;
    cr_assert_eq(porep_c1_synthetic(&c, porep_proof_find(size, POREP_API_1_1), seed, &H, &err), 0, "%s", err.msg);
    cr_assert_eq(verify(&c, &err), 0, "%s", err.msg);
    char path[128];
    tmpfile_name(path, sizeof path, "syn");
    cr_assert_eq(porep_c1_write(&c, path, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_c1_read(&r, path, &err), 0, "%s", err.msg);
    cr_expect_eq(verify(&r, &err), 0, "%s", err.msg);
    r.proofs[0].drg[0].proof.path[1].hashes[1].b[3] ^= 2;
    cr_expect_eq(verify(&r, &err), GM_EVERIFY);
    cr_expect(strstr(err.msg, "replica_column_proofs.drg_parents[0].inclusion_proof: path does not hash") != NULL,
              "%s", err.msg);
    unlink(path);
    porep_c1_free(&r);
    porep_c1_free(&c);
}

Test(porep_c1, synthetic_2kib_verifies)
{
    synthetic_roundtrip(2048);
}

Test(porep_c1, synthetic_512mib_shape_verifies)
{
    synthetic_roundtrip(512ULL << 20);
}

/* ---- circuit witness ---------------------------------------------------------------------- */

Test(porep_c1, witness_takes_the_c1_values_and_satisfies_the_circuit)
{
    porep_c1_t c;
    c1_2k(&c);
    stacked_config_t cfg;
    err_t err;
    cr_assert_eq(stacked_config_init(&cfg, 2048, &err), 0);
    size_t D = cfg.comm_d_depth, S = cfg.path_siblings;
    fr_t *sib = calloc((D + 3 * S + 14 * S) * cfg.challenges, sizeof *sib);
    stacked_challenge_t ch[2];
    stacked_witness_t w = {.ch = ch};
    for (unsigned i = 0; i < cfg.challenges; i++) {
        fr_t *b = sib + i * (D + 17 * S);
        ch[i].comm_d_path.siblings = b;
        ch[i].comm_r_last_path.siblings = b + D;
        ch[i].comm_c_path.siblings = b + D + S;
        for (int p = 0; p < 14; p++)
            ch[i].parents[p].path.siblings = b + D + (size_t)(2 + p) * S;
    }
    cr_assert_eq(porep_c1_witness(&w, &cfg, &c, 0, &err), 0, "%s", err.msg);
    uint8_t b[32];
    fr_to_bytes_le(b, &w.comm_r);
    cr_expect_arr_eq(b, c.comm_r.b, 32);
    for (unsigned i = 0; i < 2; i++) {
        cr_expect_eq(ch[i].challenge, c.proofs[i].c_x.index);
        fr_to_bytes_le(b, &ch[i].comm_d_path.siblings[D - 1]);
        cr_expect_arr_eq(b, c.proofs[i].comm_d_proof.path[D - 1].hashes[0].b, 32);
        fr_to_bytes_le(b, &ch[i].parents[13].rows[1]);
        cr_expect_arr_eq(b, c.proofs[i].exp[7].rows[1].b, 32);
    }
    cr_expect_eq(porep_c1_witness(&w, &cfg, &c, 1, &err), GM_EINVAL);

    /* the circuit (synth/stacked.c) accepts the witness of a real sealed sector */
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, &err), 0);
    stacked_synthesize(cs, &cfg, &H.ps, &w);
    uint64_t idx = 0;
    const char *where = NULL;
    cr_expect_eq(cs_status(cs, &err), 0, "%s", err.msg);
    cr_expect(cs_is_satisfied(cs, &idx, &where), "constraint %llu (%s) fails", (unsigned long long)idx,
              where ? where : "?");
    cs_destroy(cs);
    free(sib);
    porep_c1_free(&c);
}

/* ---- feature proofs ------------------------------------------------------------------------ */

Test(porep_c1, feature_proofs_read_but_are_not_verified)
{
    porep_c1_t c, r;
    uint8_t seed[32];
    porep_seed_parse(seed, "feature");
    err_t err;
    cr_assert_eq(porep_c1_synthetic(&c, porep_proof_find(2048, POREP_API_1_1), seed, &H, &err), 0, "%s", err.msg);
    c.proof = porep_proof_by_id(15); /* StackedDrg2KiBV1_2_Feat_NonInteractivePoRep: same variant, same shape */
    char path[128];
    tmpfile_name(path, sizeof path, "feat");
    cr_assert_eq(porep_c1_write(&c, path, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_c1_read(&r, path, &err), 0, "%s", err.msg);
    cr_expect_eq(r.proof->id, 15);
    cr_expect_eq(verify(&r, &err), GM_ENOTSUP);
    cr_expect(strstr(err.msg, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep") != NULL, "%s", err.msg);
    unlink(path);
    porep_c1_free(&r);
    porep_c1_free(&c);
}
