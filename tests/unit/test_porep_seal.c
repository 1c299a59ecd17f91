/*
 * tests/unit/test_porep_seal.c — synth/porep/ sealing data: replica_id,
 * labels, tree_d / tree_c / tree_r_last, the encoding, comm_d / comm_r, and
 * the interactive challenges.
 *
 * Known answers (sources in tests/vectors/porep/README.md):
 *  - zero-piece commitments (SHA-256 tree_d over zero nodes) for padded
 *    sizes 128 B .. 64 GiB: lotus zerocomm/zerocomm.go (PieceComms), the 2 KiB
 *    one also pinned by rust-fil-proofs filecoin-proofs/tests/pieces.rs
 *    (test_compute_comm_d_empty);
 *  - replica_id of actor 123, sector 1, a fixed ticket and the 2 KiB zero
 *    comm_d for StackedDrg2KiBV1: go-state-types abi/sector_test.go
 *    (TestReplicaID, "extracted from rust-fil-proofs from a PreCommit1 call");
 *  - the last label of 11 layers over 64- and 128-node graphs, replica_id
 *    [9; 32], porep_id [0; 32] (API 1.0) and [123; 32] (API 1.1):
 *    rust-fil-proofs storage-proofs-porep create_label/multi.rs
 *    (test_create_labels).
 * The other checks recompute labels, trees and challenges with naive code
 * that shares nothing with the module but the graph's parents.
 */
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "synth/porep/porep.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

static void setup(void)
{
    cr_assert_eq(ff_init(FF_PATH_AUTO), 0);
}

TestSuite(porep_seal, .init = setup);

/* ---- naive helpers ---------------------------------------------------------------- */

static void unhex(uint8_t *out, const char *hex, size_t n)
{
    cr_assert_eq(strlen(hex), 2 * n);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static void sha(uint8_t out[32], const void *in, size_t n)
{
    unsigned len = 0;
    cr_assert_eq(EVP_Digest(in, n, out, &len, EVP_sha256(), NULL), 1);
}

static uint8_t *slurp(const char *dir, const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n ? *n : 1);
    cr_assert_eq(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void tmpdir(char *out, size_t n, const char *tag)
{
    snprintf(out, n, "/tmp/gm-porep-%s-%ld", tag, (long)getpid());
}

static void rmdir_all(const char *dir)
{
    const char *names[] = {"tree-d.dat", "labels.dat", "tree-c.dat", "tree-r-last.dat", "seal.json", "data.bin"};
    char p[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void seal_2k(porep_sealed_t *s, const char *dir, int zero, const char *data)
{
    porep_seal_opts_t o;
    memset(&o, 0, sizeof o);
    o.proof = porep_proof_find(2048, POREP_API_1_1);
    o.zero = zero;
    o.data = data;
    porep_seed_parse(o.seed, "unit");
    porep_seed_parse(o.ticket, "ticket");
    porep_prover_id_from_actor(o.prover_id, 1000);
    o.sector_id = 7;
    err_t err;
    cr_assert_eq(porep_seal(s, dir, &o, NULL, NULL, NULL, &err), 0, "%s", err.msg);
}

/* ---- known answers ------------------------------------------------------------------ */

/* lotus zerocomm.go PieceComms[i]: the root of a zero piece of 128 << i bytes. */
static const char *const ZERO_COMM[] = {
    "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
    "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
    "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
    "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
    "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833", /* 2 KiB */
    "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",
    "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",
    "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",
    "2c1a964bb90b59ebfe0f6da29ad65ae3e417724a8f7c11745a40cac1e5e74011",
    "fee378cef16404b199ede0b13e11b624ff9d784fbbed878d83297e795e024f02",
    "8e9e2403fa884cf6237f60df25f83ee40dca9ed879eb6f6352d15084f5ad0d3f",
    "752d9693fa167524395476e317a98580f00947afb7a30540d625a9291cc12a07",
    "7022f60f7ef6adfa17117a52619e30cea82c68075adf1c667786ec506eef2d19",
    "d99887b973573a96e11393645236c17b1f4c7034d723c7a99f709bb4da61162b",
    "d0b530dbb0b4f25c5d2f2a28dfee808b53412a02931f18c499f5a254086b1326",
    "84c0421ba0685a01bf795a2344064fe424bd52a9d24377b394ff4c4b4568e811",
    "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c", /* 8 MiB */
    "a2247508285850965b7e334b3127b0c042b1d046dc54402137627cd8799ce13a",
    "dafdab6da9364453c26d33726b9fefe343be8f81649ec009aad3faff50617508",
    "d941d5e0d6314a995c33ffbd4fbe69118d73d4e5fd2cd31f0f7c86ebdd14e706",
    "514c435c3d04d349a5365fbd59ffc713629111785991c1a3c53af22079741a2f",
    "ad06853969d37d34ff08e09f56930a4ad19a89def60cbfee7e1d3381c1e71c37",
    "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06", /* 512 MiB */
    "ccc3c012f5b05e811a2bbfdd0f6833b84275b47bf229c0052a82484f3c1a5b3d",
    "7df29b69773199e8f2b40b77919d048509eed768e2c7297b1f1437034fc3c62c",
    "66ce05a3667552cf45c02bcc4e8392919bdeac35de2ff56271848e9f7b675107",
    "d8610218425ab5e95b1ca6239d29a2e420d706a96f373e2f9c9a91d759d19b01",
    "6d364b1ef846441a5a4a68862314acc0a46f016717e53443e839eedf83c2853c",
    "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e", /* 32 GiB */
    "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02", /* 64 GiB */
};

Test(porep_seal, tree_empty_sha256_digests_are_the_zero_piece_commitments)
{
    porep_shape_t s;
    porep_tree_shape_t t;
    porep_hashers_t h;
    err_t err;
    cr_assert_eq(porep_shape_init(&s, 64ULL << 30, &err), 0);
    cr_assert_eq(porep_hashers_init(&h, &err), 0, "%s", err.msg);
    porep_tree_shape_d(&t, &s);
    cr_assert_eq(t.n_levels, 31);
    porep_dom_t e[POREP_MAX_TREE_LEVELS + 1], zero;
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(porep_tree_empty(e, &t, &h, &zero), 0);
    for (unsigned i = 0; i < sizeof ZERO_COMM / sizeof ZERO_COMM[0]; i++) {
        uint8_t want[32];
        unhex(want, ZERO_COMM[i], 32);
        cr_expect_arr_eq(e[i + 2].b, want, 32, "zero piece of %llu bytes", 128ULL << i);
    }
    porep_hashers_free(&h);
}

Test(porep_seal, zero_2kib_sector_has_the_published_comm_d)
{
    char dir[128];
    tmpdir(dir, sizeof dir, "z2k");
    porep_sealed_t s;
    seal_2k(&s, dir, 1, NULL);
    uint8_t want[32];
    unhex(want, ZERO_COMM[4], 32);
    cr_expect_arr_eq(s.comm_d.b, want, 32);
    porep_sealed_t l;
    err_t err;
    cr_assert_eq(porep_sealed_load(&l, dir, &err), 0, "%s", err.msg);
    cr_expect_arr_eq(l.comm_r.b, s.comm_r.b, 32);
    cr_expect_arr_eq(l.replica_id.b, s.replica_id.b, 32);
    cr_expect_eq(l.sector_id, 7);
    rmdir_all(dir);
}

Test(porep_seal, replica_id_matches_go_state_types)
{
    uint8_t prover[32], ticket[32], porep_id[32], want[32];
    porep_dom_t comm_d, got;
    static const uint8_t t[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6,
                                  7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2};
    memcpy(ticket, t, 32);
    porep_prover_id_from_actor(prover, 123);
    unhex(comm_d.b, ZERO_COMM[4], 32);
    porep_id_make(porep_id, porep_proof_find(2048, POREP_API_1_0));
    porep_replica_id(&got, prover, 1, ticket, &comm_d, porep_id);
    unhex(want, "1e2e06391a0d1b99dc896aa6f7fa113ff8e993cbdcbfb503e99571603b61a016", 32);
    cr_expect_arr_eq(got.b, want, 32);
}

Test(porep_seal, prover_id_is_leb128_of_the_actor)
{
    uint8_t p[32], want[32] = {0};
    porep_prover_id_from_actor(p, 1000); /* 1000 = 0x3e8 -> e8 07 */
    want[0] = 0xe8;
    want[1] = 0x07;
    cr_expect_arr_eq(p, want, 32);
}

/* rust-fil-proofs test_create_labels: graphs of 2048 and 4096 bytes (64 and
 * 128 nodes), 11 layers, replica_id [9; 32]; the expected value is the last
 * node of layer 11 as Fr::from_u64s_le limbs. */
Test(porep_seal, labels_match_rust_fil_proofs_test_create_labels)
{
    static const struct {
        uint64_t nodes;
        uint8_t porep_byte;
        porep_api_t api;
        uint64_t limbs[4];
    } cases[] = {
        {64, 0, POREP_API_1_0, {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37}},
        {128, 0, POREP_API_1_0, {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be}},
        {64, 123, POREP_API_1_1, {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
        {128, 123, POREP_API_1_1, {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t porep_id[32];
        memset(porep_id, cases[c].porep_byte, 32);
        porep_graph_t g;
        err_t err;
        cr_assert_eq(porep_graph_init(&g, cases[c].nodes, porep_id, cases[c].api, &err), 0, "%s", err.msg);
        porep_dom_t rid, *labels = calloc(11 * cases[c].nodes, sizeof *labels);
        memset(rid.b, 9, 32);
        cr_assert_eq(porep_labels_compute(labels, &g, 11, &rid, NULL, NULL, &err), 0, "%s", err.msg);
        uint8_t want[32];
        for (int i = 0; i < 32; i++)
            want[i] = (uint8_t)(cases[c].limbs[i / 8] >> (8 * (i % 8)));
        cr_expect_arr_eq(labels[11 * cases[c].nodes - 1].b, want, 32, "case %zu (%llu nodes, porep_id [%u; 32])", c,
                         (unsigned long long)cases[c].nodes, cases[c].porep_byte);
        free(labels);
        porep_graph_destroy(&g);
    }
}

/* ---- labels, trees, encoding against naive recomputation --------------------------------- */

Test(porep_seal, labels_trees_and_encoding_recompute_naively)
{
    char dir[128];
    tmpdir(dir, sizeof dir, "r2k");
    porep_sealed_t s;
    seal_2k(&s, dir, 0, NULL);
    size_t nd, nl, nc, nr;
    uint8_t *td = slurp(dir, "tree-d.dat", &nd), *lab = slurp(dir, "labels.dat", &nl);
    uint8_t *tc = slurp(dir, "tree-c.dat", &nc), *tr = slurp(dir, "tree-r-last.dat", &nr);
    cr_assert_eq(nd, (64 + 32 + 16 + 8 + 4 + 2 + 1) * 32);
    cr_assert_eq(nl, 2 * 64 * 32);
    cr_assert_eq(nc, (64 + 8 + 1) * 32);
    cr_assert_eq(nr, nc);
    porep_graph_t g;
    err_t err;
    uint8_t id[32];
    porep_id_make(id, s.proof);
    cr_assert_eq(porep_graph_init(&g, 64, id, s.proof->api, &err), 0);

    /* replica_id: SHA256(prover || sector BE || ticket || comm_d || porep_id), trimmed */
    uint8_t pre[136], d[32];
    porep_prover_id_from_actor(pre, 1000);
    for (int i = 0; i < 8; i++)
        pre[32 + i] = (uint8_t)(7ULL >> (56 - 8 * i));
    porep_seed_parse(pre + 40, "ticket");
    memcpy(pre + 72, td + (nd - 32), 32);
    memcpy(pre + 104, id, 32);
    sha(d, pre, 136);
    d[31] &= 0x3f;
    cr_expect_arr_eq(d, s.replica_id.b, 32, "replica_id");

    /* every label: a hand-built 1248-byte preimage */
    for (unsigned layer = 1; layer <= 2; layer++)
        for (uint32_t v = 0; v < 64; v++) {
            uint8_t buf[1248] = {0};
            memcpy(buf, s.replica_id.b, 32);
            buf[35] = (uint8_t)layer;
            buf[43] = (uint8_t)v;
            size_t len = 64;
            if (v) {
                uint32_t p[14];
                porep_graph_parents(p, &g, v);
                for (unsigned k = 0; k < 37; k++) {
                    unsigned j = layer == 1 ? k % 6 : k % 14;
                    unsigned lay = j < 6 ? layer : layer - 1;
                    memcpy(buf + 64 + 32 * k, lab + ((size_t)(lay - 1) * 64 + p[j]) * 32, 32);
                }
                len = 1248;
            }
            sha(d, buf, len);
            d[31] &= 0x3f;
            cr_expect_arr_eq(d, lab + ((size_t)(layer - 1) * 64 + v) * 32, 32, "label layer %u node %u", layer, v);
        }

    /* tree_d: pairwise SHA-256, level by level */
    size_t off = 0, n = 64;
    while (n > 1) {
        for (size_t i = 0; i < n / 2; i++) {
            sha(d, td + (off + 2 * i) * 32, 64);
            d[31] &= 0x3f;
            cr_expect_arr_eq(d, td + (off + n + i) * 32, 32, "tree_d node");
        }
        off += n;
        n /= 2;
    }

    /* tree_c leaves: Poseidon2(label_1, label_2); tree_r leaves: data + label_2; oct levels */
    poseidon_t p2, p8;
    cr_assert_eq(poseidon_init(&p2, 2, &err), 0);
    cr_assert_eq(poseidon_init(&p8, 8, &err), 0);
    for (int v = 0; v < 64; v++) {
        fr_t in[2], o, a, b;
        cr_assert_eq(fr_from_bytes_le(&in[0], lab + v * 32), 0);
        cr_assert_eq(fr_from_bytes_le(&in[1], lab + (64 + v) * 32), 0);
        poseidon_hash(&p2, &o, in);
        fr_to_bytes_le(d, &o);
        cr_expect_arr_eq(d, tc + v * 32, 32, "tree_c leaf %d", v);
        cr_assert_eq(fr_from_bytes_le(&a, td + v * 32), 0);
        fr_add(&b, &a, &in[1]);
        fr_to_bytes_le(d, &b);
        cr_expect_arr_eq(d, tr + v * 32, 32, "replica %d", v);
    }
    const uint8_t *trees[2] = {tc, tr};
    for (int t = 0; t < 2; t++) {
        fr_t mid[8], in[8], o;
        for (int j = 0; j < 8; j++) {
            for (int k = 0; k < 8; k++)
                cr_assert_eq(fr_from_bytes_le(&in[k], trees[t] + (8 * j + k) * 32), 0);
            poseidon_hash(&p8, &mid[j], in);
            fr_to_bytes_le(d, &mid[j]);
            cr_expect_arr_eq(d, trees[t] + (64 + j) * 32, 32);
        }
        poseidon_hash(&p8, &o, mid);
        fr_to_bytes_le(d, &o);
        cr_expect_arr_eq(d, trees[t] + 72 * 32, 32, "root of tree %d", t);
    }
    /* comm_r = Poseidon2(comm_c, comm_r_last) */
    fr_t cc[2], r;
    cr_assert_eq(fr_from_bytes_le(&cc[0], tc + 72 * 32), 0);
    cr_assert_eq(fr_from_bytes_le(&cc[1], tr + 72 * 32), 0);
    poseidon_hash(&p2, &r, cc);
    fr_to_bytes_le(d, &r);
    cr_expect_arr_eq(d, s.comm_r.b, 32, "comm_r");
    poseidon_free(&p2);
    poseidon_free(&p8);
    porep_graph_destroy(&g);
    free(td), free(lab), free(tc), free(tr);
    rmdir_all(dir);
}

Test(porep_seal, unpadded_data_file_is_fr32_padded)
{
    char dir[128], data[160];
    tmpdir(dir, sizeof dir, "pad");
    mkdir(dir, 0755);
    snprintf(data, sizeof data, "%s/data.bin", dir);
    uint8_t ones[127];
    memset(ones, 0xff, sizeof ones);
    FILE *f = fopen(data, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(ones, 1, 127, f), 127);
    fclose(f);
    porep_sealed_t s;
    seal_2k(&s, dir, 0, data);
    size_t n;
    uint8_t *td = slurp(dir, "tree-d.dat", &n), want[32];
    memset(want, 0xff, 32);
    want[31] = 0x3f; /* 254 one bits */
    for (int v = 0; v < 4; v++)
        cr_expect_arr_eq(td + v * 32, want, 32, "node %d", v);
    uint8_t zero[32] = {0};
    for (int v = 4; v < 64; v++)
        cr_expect_arr_eq(td + v * 32, zero, 32, "node %d", v);
    free(td);
    rmdir_all(dir);
}

Test(porep_seal, bad_data_file_size_is_rejected)
{
    char dir[128], data[160];
    tmpdir(dir, sizeof dir, "bad");
    mkdir(dir, 0755);
    snprintf(data, sizeof data, "%s/data.bin", dir);
    FILE *f = fopen(data, "wb");
    uint8_t b[2040] = {0};
    fwrite(b, 1, sizeof b, f);
    fclose(f);
    porep_seal_opts_t o;
    memset(&o, 0, sizeof o);
    o.proof = porep_proof_find(2048, POREP_API_1_1);
    o.data = data;
    porep_sealed_t s;
    err_t err;
    cr_expect_eq(porep_seal(&s, dir, &o, NULL, NULL, NULL, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "2040 bytes") != NULL, "%s", err.msg);
    rmdir_all(dir);
}

/* ---- challenges --------------------------------------------------------------------------- */

Test(porep_seal, challenges_match_a_naive_derivation)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_seal::challenges_match_a_naive_derivation");
    for (int trial = 0; trial < 50; trial++) {
        porep_dom_t rid;
        uint8_t seed[32];
        for (int i = 0; i < 32; i++) {
            rid.b[i] = (uint8_t)test_rng_next(&rng);
            seed[i] = (uint8_t)test_rng_next(&rng);
        }
        uint64_t nodes = 1ULL << (6 + trial % 26);
        unsigned k = trial % 10;
        uint64_t ch[18];
        porep_challenges_derive(ch, 18, nodes, &rid, seed, k);
        for (unsigned i = 0; i < 18; i++) {
            uint8_t buf[68], h[32];
            memcpy(buf, rid.b, 32);
            memcpy(buf + 32, seed, 32);
            uint32_t j = 18 * k + i;
            memcpy(buf + 64, &j, 4); /* x86 is little-endian */
            sha(h, buf, 68);
            /* h mod m via 128-bit limbs, most significant first */
            unsigned __int128 r = 0;
            uint64_t m = nodes - 1;
            for (int w = 3; w >= 0; w--) {
                uint64_t limb;
                memcpy(&limb, h + 8 * w, 8);
                r = ((r << 64) | limb) % m;
            }
            cr_expect_eq(ch[i], (uint64_t)r + 1, "trial %d challenge %u", trial, i);
            cr_expect(ch[i] >= 1 && ch[i] < nodes);
        }
    }
}

Test(porep_seal, shapes_of_registered_sizes)
{
    porep_shape_t s;
    err_t err;
    cr_assert_eq(porep_shape_init(&s, 32ULL << 30, &err), 0);
    cr_expect_eq(s.layers, 11);
    cr_expect_eq(s.base_levels, 9);
    cr_expect_eq(s.base_trees, 8);
    porep_tree_shape_t t;
    porep_tree_shape_rc(&t, &s);
    cr_expect_eq(t.n_levels, 10);
    cr_expect_eq(t.arity[9], 8);
    cr_assert_eq(porep_shape_init(&s, 64ULL << 30, &err), 0);
    porep_tree_shape_rc(&t, &s);
    cr_expect_eq(t.n_levels, 11);
    cr_expect_eq(t.arity[10], 2);
    cr_expect_eq(s.base_trees, 16);
    cr_expect_eq(porep_shape_init(&s, 4096, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "4096") != NULL);
}
