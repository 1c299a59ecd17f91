/*
 * tests/unit/test_porep_graph.c — synth/porep/ graph: ChaCha8, the Feistel
 * permutation, registered proofs and porep_id, DRG and expander parents, and
 * the parent cache against rust-fil-proofs' published digests.
 *
 * Known answers (see tests/vectors/porep/README.md for their sources):
 *  - ChaCha8 keystreams: draft-strombergson-chacha-test-vectors-01, TC1 and
 *    TC8, 256-bit key, 8 rounds.
 *  - Cache names and SHA-256 digests: rust-fil-proofs @ 87348a7,
 *    storage-proofs-porep/parent_cache.json.
 *  - porep_id layout: filecoin-proofs-api src/registry.rs (porep_id()).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/porep/porep.h"
/* testutil.h's usage comment holds a filter glob that -Wcomment flags. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

/* ---- helpers (naive, independent of the module) ---------------------------------- */

static void hex_decode(uint8_t *out, const char *hex, size_t n)
{
    cr_assert_eq(strlen(hex), 2 * n, "vector length");
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static void hex_encode(char *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", in[i]);
}

static void sha256_hex(char out[65], const uint8_t *data, size_t n)
{
    uint8_t d[32];
    unsigned len = 0;
    cr_assert_eq(EVP_Digest(data, n, d, &len, EVP_sha256(), NULL), 1);
    hex_encode(out, d, 32);
}

static void graph_for(porep_graph_t *g, uint64_t sector_size, porep_api_t api)
{
    const porep_proof_t *p = porep_proof_find(sector_size, api);
    cr_assert_not_null(p, "no proof for %llu / %d", (unsigned long long)sector_size, (int)api);
    uint8_t id[32];
    porep_id_make(id, p);
    err_t err;
    cr_assert_eq(porep_graph_init(g, sector_size / 32, id, api, &err), 0, "%s", err.msg);
}

static porep_scratch_t *scratch_new(void)
{
    porep_scratch_t *s = NULL;
    err_t err;
    cr_assert_eq(porep_scratch_create(&s, &err), 0, "%s", err.msg);
    return s;
}

/* ---- ChaCha8 ---------------------------------------------------------------------- */

static void check_chacha8(const char *key_hex, const char *iv_hex, const char *stream_hex)
{
    uint8_t key[32], iv[8], want[128], got[128];
    hex_decode(key, key_hex, 32);
    hex_decode(iv, iv_hex, 8);
    hex_decode(want, stream_hex, 128);
    uint64_t stream = 0;
    for (int i = 7; i >= 0; i--) /* the 8-byte IV is words 14..15, read LE */
        stream = stream << 8 | iv[i];
    for (uint64_t b = 0; b < 2; b++) {
        uint32_t w[16];
        porep_chacha8_block(w, key, b, stream);
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < 4; k++)
                got[64 * b + 4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    }
    cr_expect_arr_eq(got, want, 128, "ChaCha8 keystream for key %s", key_hex);
}

Test(porep_graph, chacha8_zero_key_and_nonce)
{
    check_chacha8("0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
                  "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
                  "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
                  "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
                  "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa");
}

Test(porep_graph, chacha8_random_key_and_nonce)
{
    check_chacha8("c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d", "1ada31d5cf688221",
                  "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c9"
                  "6ad848065871417b08f034e681fe46a93f7d5c61d1306614d4aaf257a7cff08b"
                  "16f2fda170cc18a4b58a2667ed962774af792a6e7f3c77992540711a7a136d7e"
                  "8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a2abd557228d9fe4f");
}

/* ---- Feistel ---------------------------------------------------------------------- */

Test(porep_graph, feistel_domain_is_smallest_power_of_four)
{
    static const uint64_t keys[4] = {1, 2, 3, 4};
    static const struct {
        uint64_t n;
        unsigned h;
    } cases[] = {{1, 1}, {4, 1}, {5, 2}, {16, 2}, {17, 3}, {512, 5}, {1024, 5}, {1025, 6},
                 {1ull << 21, 11}, {1ull << 33, 17}, {1ull << 34, 17}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        porep_feistel_t f;
        porep_feistel_init(&f, cases[i].n, keys);
        cr_expect_eq(f.half_bits, cases[i].h, "n = %llu", (unsigned long long)cases[i].n);
        cr_expect_eq(f.right_mask, (1ull << cases[i].h) - 1);
    }
}

Test(porep_graph, feistel_permute_is_a_bijection_on_small_domains)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_graph::feistel_permute_is_a_bijection_on_small_domains");
    porep_scratch_t *s = scratch_new();
    uint8_t *seen = malloc(1100);
    for (uint64_t n = 1; n <= 1100; n += (n < 70 ? 1 : 97)) {
        uint64_t keys[4] = {test_rng_next(&rng), test_rng_next(&rng), test_rng_next(&rng), 0};
        porep_feistel_t f, ft;
        err_t err;
        porep_feistel_init(&f, n, keys);
        porep_feistel_init(&ft, n, keys);
        cr_assert_eq(porep_feistel_tabulate(&ft, &err), 0, "%s", err.msg);
        memset(seen, 0, n);
        for (uint64_t x = 0; x < n; x++) {
            uint64_t y = porep_feistel_permute(&f, x, s);
            cr_assert_lt(y, n, "n = %llu: permute(%llu) = %llu", (unsigned long long)n,
                         (unsigned long long)x, (unsigned long long)y);
            cr_assert_eq(seen[y], 0, "n = %llu: %llu hit twice", (unsigned long long)n, (unsigned long long)y);
            seen[y] = 1;
            cr_assert_eq(porep_feistel_invert(&f, y, s), x, "n = %llu: invert(permute(%llu))",
                         (unsigned long long)n, (unsigned long long)x);
            cr_assert_eq(porep_feistel_permute(&ft, x, NULL), y, "n = %llu: table differs", (unsigned long long)n);
            cr_assert_eq(porep_feistel_invert(&ft, y, NULL), x);
        }
        porep_feistel_release(&ft);
        cr_expect_null(ft.table);
    }
    /* keys[3] is never used: 3 rounds */
    porep_feistel_t a, b;
    porep_feistel_init(&a, 1000, (const uint64_t[4]){5, 6, 7, 8});
    porep_feistel_init(&b, 1000, (const uint64_t[4]){5, 6, 7, 9});
    for (uint64_t x = 0; x < 1000; x += 37)
        cr_expect_eq(porep_feistel_permute(&a, x, s), porep_feistel_permute(&b, x, s));
    free(seen);
    porep_scratch_destroy(s);
}

Test(porep_graph, feistel_table_equals_hashing_on_sdr_domains)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_graph::feistel_table_equals_hashing_on_sdr_domains");
    porep_scratch_t *s = scratch_new();
    static const uint64_t domains[] = {8ull << 6, 8ull << 18, 8ull << 24, 8ull << 30, 8ull << 31};
    for (size_t k = 0; k < sizeof domains / sizeof domains[0]; k++) {
        uint64_t keys[4] = {test_rng_next(&rng), test_rng_next(&rng), test_rng_next(&rng), test_rng_next(&rng)};
        porep_feistel_t f, ft;
        err_t err;
        porep_feistel_init(&f, domains[k], keys);
        porep_feistel_init(&ft, domains[k], keys);
        cr_assert_eq(porep_feistel_tabulate(&ft, &err), 0, "%s", err.msg);
        for (int i = 0; i < 200; i++) {
            uint64_t x = test_rng_next(&rng) % domains[k];
            uint64_t y = porep_feistel_permute(&f, x, s);
            cr_expect_eq(porep_feistel_permute(&ft, x, NULL), y);
            cr_expect_eq(porep_feistel_invert(&ft, y, NULL), x);
        }
        porep_feistel_release(&ft);
    }
    /* too large a domain for a table */
    porep_feistel_t big;
    err_t err;
    porep_feistel_init(&big, 1ull << 42, (const uint64_t[4]){1, 2, 3, 4});
    cr_expect_eq(porep_feistel_tabulate(&big, &err), GM_EINVAL);
    cr_expect_null(big.table);
    porep_scratch_destroy(s);
}

/* ---- registered proofs, porep_id, parsing ------------------------------------------- */

Test(porep_graph, porep_id_bytes)
{
    /* registry.rs: id as u64 LE in bytes 0..7, nonce 0 in 8..15, zeros after. */
    static const struct {
        uint64_t size;
        porep_api_t api;
        uint8_t id;
    } cases[] = {{2048, POREP_API_1_0, 0},          {8ull << 20, POREP_API_1_0, 1},
                 {512ull << 20, POREP_API_1_0, 2},  {32ull << 30, POREP_API_1_0, 3},
                 {64ull << 30, POREP_API_1_0, 4},   {2048, POREP_API_1_1, 5},
                 {8ull << 20, POREP_API_1_1, 6},    {512ull << 20, POREP_API_1_1, 7},
                 {32ull << 30, POREP_API_1_1, 8},   {64ull << 30, POREP_API_1_1, 9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const porep_proof_t *p = porep_proof_find(cases[i].size, cases[i].api);
        cr_assert_not_null(p);
        cr_expect_eq(p->id, cases[i].id);
        cr_expect_eq(porep_proof_by_id(p->id), p);
        uint8_t want[32] = {cases[i].id}, got[32];
        memset(got, 0xaa, sizeof got);
        porep_id_make(got, p);
        cr_expect_arr_eq(got, want, 32, "porep_id of %s", p->name);
    }
    cr_expect_str_eq(porep_proof_find(32ull << 30, POREP_API_1_1)->name, "StackedDrg32GiBV1_1");
    cr_expect_str_eq(porep_proof_by_id(18)->name, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
    cr_expect_null(porep_proof_by_id(20));
    cr_expect_null(porep_proof_find(4096, POREP_API_1_1));
    cr_expect_null(porep_proof_find(2048, POREP_API_1_2));
}

Test(porep_graph, sector_size_and_api_parse)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {{"2KiB", 2048},         {"2kib", 2048},           {"2048", 2048},
                {"8MiB", 8ull << 20},   {"512MiB", 512ull << 20}, {"32GiB", 32ull << 30},
                {"64GIB", 64ull << 30}, {"34359738368", 32ull << 30}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 0;
        err_t err;
        cr_expect_eq(porep_sector_size_parse(&v, good[i].s, "--sector-size", &err), 0, "%s", good[i].s);
        cr_expect_eq(v, good[i].v, "%s", good[i].s);
    }
    static const char *bad[] = {"", "KiB", "2KB", "2 KiB", "-2KiB", "0", "0GiB", "2KiBx",
                                "99999999999999999999", "17179869184GiB"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        err_t err;
        gm_err_clear(&err);
        cr_expect_eq(porep_sector_size_parse(&v, bad[i], "--sector-size", &err), GM_EINVAL, "'%s'", bad[i]);
        cr_expect_eq(v, 7);
        cr_expect(strstr(err.msg, "--sector-size") && strstr(err.msg, bad[i]), "message: %s", err.msg);
    }
    char buf[32];
    porep_sector_size_format(buf, sizeof buf, 2048);
    cr_expect_str_eq(buf, "2KiB");
    porep_sector_size_format(buf, sizeof buf, 512ull << 20);
    cr_expect_str_eq(buf, "512MiB");
    porep_sector_size_format(buf, sizeof buf, 64ull << 30);
    cr_expect_str_eq(buf, "64GiB");
    porep_sector_size_format(buf, sizeof buf, 1000);
    cr_expect_str_eq(buf, "1000");

    porep_api_t api;
    err_t err;
    cr_expect_eq(porep_api_parse(&api, "1.1", "--api", &err), 0);
    cr_expect_eq(api, POREP_API_1_1);
    cr_expect_eq(porep_api_parse(&api, "1", "--api", &err), 0);
    cr_expect_eq(api, POREP_API_1_0);
    cr_expect_eq(porep_api_parse(&api, "1.0.0", "--api", &err), 0);
    cr_expect_eq(api, POREP_API_1_0);
    cr_expect_eq(porep_api_parse(&api, "1.2.0", "--api", &err), 0);
    cr_expect_eq(api, POREP_API_1_2);
    cr_expect_eq(porep_api_parse(&api, "2.0", "--api", &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "--api") && strstr(err.msg, "'2.0'"), "message: %s", err.msg);
    cr_expect_str_eq(porep_api_name(POREP_API_1_1), "1.1.0");
}

Test(porep_graph, graph_init_rejects_bad_node_counts)
{
    porep_graph_t g;
    uint8_t id[32] = {5};
    err_t err;
    cr_expect_eq(porep_graph_init(&g, 0, id, POREP_API_1_1, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "0 nodes") != NULL, "message: %s", err.msg);
    cr_expect_eq(porep_graph_init(&g, 1ull << 32, id, POREP_API_1_1, &err), GM_EINVAL);
    porep_graph_destroy(&g); /* zero-filled after a failure */
    cr_expect_eq(porep_graph_init(&g, UINT32_MAX, id, POREP_API_1_1, &err), 0);
    porep_graph_destroy(&g);
    porep_graph_destroy(NULL);
}

/* The cache file names of rust-fil-proofs' parent_cache.json, per registered
 * proof id 0..9: matching them checks porep_id, the Feistel key derivation
 * and which manifest entry belongs to which size and API version. */
Test(porep_graph, cache_names_match_the_manifest)
{
    static const char *names[10] = {
        "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899", /* 2KiB V1 */
        "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc", /* 8MiB V1 */
        "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42", /* 512MiB V1 */
        "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13", /* 32GiB V1 */
        "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6", /* 64GiB V1 */
        "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b", /* 2KiB V1_1 */
        "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5", /* 8MiB V1_1 */
        "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34", /* 512MiB V1_1 */
        "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117", /* 32GiB V1_1 */
        "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b", /* 64GiB V1_1 */
    };
    for (uint32_t id = 0; id < 10; id++) {
        const porep_proof_t *p = porep_proof_by_id(id);
        porep_graph_t g;
        graph_for(&g, p->sector_size, p->api);
        char want[POREP_CACHE_NAME_LEN];
        snprintf(want, sizeof want, "v28-sdr-parent-%s.cache", names[id]);
        cr_expect_str_eq(g.cache_name, want, "%s", p->name);
        cr_expect_not_null(porep_parent_cache_published(&g), "%s", p->name);
        porep_graph_destroy(&g);
    }
    /* a test-sized graph has no production cache */
    porep_graph_t g;
    uint8_t id[32] = {5};
    err_t err;
    cr_assert_eq(porep_graph_init(&g, 128, id, POREP_API_1_1, &err), 0);
    cr_expect_null(porep_parent_cache_published(&g));
    porep_graph_destroy(&g);
}

/* ---- parents ------------------------------------------------------------------------ */

static void check_base_parents(const porep_graph_t *g, uint32_t node)
{
    uint32_t p[POREP_BASE_DEGREE];
    porep_graph_base_parents(p, g, node);
    if (node < 2) {
        for (int i = 0; i < POREP_BASE_DEGREE; i++)
            cr_expect_eq(p[i], 0, "node %u parent %d", node, i);
        return;
    }
    int pred = g->api == POREP_API_1_0 ? POREP_BASE_DEGREE - 1 : 0;
    cr_expect_eq(p[pred], node - 1, "node %u: predecessor not in slot %d", node, pred);
    for (int i = 0; i < POREP_BASE_DEGREE; i++)
        cr_expect_lt(p[i], node, "node %u parent %d = %u", node, i, p[i]);
}

Test(porep_graph, base_parents_precede_the_node)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_graph::base_parents_precede_the_node");
    static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    for (int api = POREP_API_1_0; api <= POREP_API_1_1; api++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            porep_graph_t g;
            graph_for(&g, sizes[k], (porep_api_t)api);
            for (uint32_t v = 0; v < 64; v++)
                check_base_parents(&g, v);
            for (int i = 0; i < 2000; i++)
                check_base_parents(&g, (uint32_t)(test_rng_next(&rng) % g.nodes));
            check_base_parents(&g, (uint32_t)(g.nodes - 1));
            porep_graph_destroy(&g);
        }
    }
}

Test(porep_graph, base_parents_reach_far_back)
{
    /* bucket sampling: distances of every scale, so some parent of a late
     * node lies in the first half of the graph */
    porep_graph_t g;
    graph_for(&g, 8ull << 20, POREP_API_1_1);
    int far = 0;
    for (uint32_t v = (uint32_t)g.nodes - 200; v < g.nodes; v++) {
        uint32_t p[POREP_BASE_DEGREE];
        porep_graph_base_parents(p, &g, v);
        for (int i = 1; i < POREP_BASE_DEGREE; i++)
            far += p[i] < g.nodes / 2;
    }
    cr_expect_gt(far, 0);
    porep_graph_destroy(&g);
}

Test(porep_graph, exp_parents_in_range)
{
    test_rng_t rng;
    test_rng_init(&rng, "porep_graph::exp_parents_in_range");
    porep_scratch_t *s = scratch_new();
    static const uint64_t sizes[] = {2048, 8ull << 20, 32ull << 30, 64ull << 30};
    for (int api = POREP_API_1_0; api <= POREP_API_1_1; api++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            porep_graph_t g;
            graph_for(&g, sizes[k], (porep_api_t)api);
            porep_feistel_t f_hash = g.feistel;
            f_hash.table = NULL;
            for (int i = 0; i < 300; i++) {
                uint32_t v = (uint32_t)(test_rng_next(&rng) % g.nodes), p[POREP_DEGREE], e[POREP_EXP_DEGREE];
                porep_graph_parents(p, &g, v);
                porep_graph_exp_parents(e, &g, v);
                for (int j = 0; j < POREP_EXP_DEGREE; j++) {
                    cr_expect_lt(e[j], g.nodes, "node %u exp parent %d = %u", v, j, e[j]);
                    cr_expect_eq(p[POREP_BASE_DEGREE + j], e[j]);
                    /* against the untabulated permutation */
                    uint64_t t = porep_feistel_permute(&f_hash, (uint64_t)v * 8 + (uint64_t)j, s);
                    uint32_t want = api == POREP_API_1_0 ? (uint32_t)t / 8 : (uint32_t)(t / 8);
                    cr_expect_eq(e[j], want, "node %u exp parent %d", v, j);
                }
            }
            porep_graph_destroy(&g);
        }
    }
    porep_scratch_destroy(s);
}

/* graph.rs test_graph_distribution_pathology / test_high_parent_bits: API 1.0
 * graphs of 32 and 64 GiB never reach the upper half of the sector (the u32
 * truncation); 1.1 graphs do at once, and 64 GiB ones pass 2^29. */
Test(porep_graph, exp_parents_legacy_truncation)
{
    static const uint64_t sizes[] = {32ull << 30, 64ull << 30};
    for (size_t k = 0; k < 2; k++) {
        porep_graph_t old, cur;
        graph_for(&old, sizes[k], POREP_API_1_0);
        graph_for(&cur, sizes[k], POREP_API_1_1);
        int old_high = 0, cur_high = 0;
        for (uint32_t v = 0; v < 300; v++) {
            uint32_t e[POREP_EXP_DEGREE];
            porep_graph_exp_parents(e, &old, v);
            for (int j = 0; j < POREP_EXP_DEGREE; j++)
                old_high += e[j] >= old.nodes / 2;
            porep_graph_exp_parents(e, &cur, v);
            for (int j = 0; j < POREP_EXP_DEGREE; j++)
                cur_high += e[j] >= cur.nodes / 2;
        }
        cr_expect_eq(old_high, 0, "API 1.0 %llu nodes", (unsigned long long)old.nodes);
        cr_expect_gt(cur_high, 0, "API 1.1 %llu nodes", (unsigned long long)cur.nodes);
        porep_graph_destroy(&old);
        porep_graph_destroy(&cur);
    }
    porep_graph_t g;
    graph_for(&g, 64ull << 30, POREP_API_1_1);
    int high = 0;
    for (uint32_t v = 0; v < 3; v++) {
        uint32_t e[POREP_EXP_DEGREE];
        porep_graph_exp_parents(e, &g, v);
        for (int j = 0; j < POREP_EXP_DEGREE; j++)
            high += e[j] >= (1u << 29);
    }
    cr_expect_gt(high, 0);
    porep_graph_destroy(&g);
}

/* ---- the parent cache --------------------------------------------------------------- */

/* The cache's SHA-256 two ways: the writer's digest (pool of 2), and a
 * one-shot SHA-256 of porep_parent_cache_fill's bytes (small sizes). */
static void check_cache_digest(uint64_t sector_size, porep_api_t api, const char *want)
{
    porep_graph_t g;
    graph_for(&g, sector_size, api);
    cr_expect_str_eq(porep_parent_cache_published(&g), want);

    topo_pool_t *pool = NULL;
    err_t err;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0, "%s", err.msg);
    uint8_t d[32];
    char hex[65];
    cr_assert_eq(porep_parent_cache_write(d, NULL, &g, want, pool, NULL, NULL, &err), 0, "%s", err.msg);
    hex_encode(hex, d, 32);
    cr_expect_str_eq(hex, want, "%s API %s", g.cache_name, porep_api_name(api));
    topo_pool_destroy(pool);

    if (g.nodes <= 4096) {
        size_t n = g.nodes * POREP_CACHE_ENTRY_BYTES;
        uint8_t *buf = malloc(n);
        porep_parent_cache_fill(buf, &g, 0, g.nodes);
        sha256_hex(hex, buf, n);
        cr_expect_str_eq(hex, want);
        free(buf);
    }
    porep_graph_destroy(&g);
}

Test(porep_graph, parent_cache_2kib_v1_digest)
{
    check_cache_digest(2048, POREP_API_1_0, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d");
}

Test(porep_graph, parent_cache_2kib_v1_1_digest)
{
    check_cache_digest(2048, POREP_API_1_1, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97");
}

Test(porep_graph, parent_cache_8mib_v1_digest, .timeout = 60)
{
    check_cache_digest(8ull << 20, POREP_API_1_0,
                       "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce");
}

Test(porep_graph, parent_cache_8mib_v1_1_digest, .timeout = 60)
{
    check_cache_digest(8ull << 20, POREP_API_1_1,
                       "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab");
}

Test(porep_graph, parent_cache_fill_tiles_agree)
{
    /* any split of the node range gives the same bytes */
    porep_graph_t g;
    graph_for(&g, 2048, POREP_API_1_1);
    uint8_t whole[64 * POREP_CACHE_ENTRY_BYTES], parts[64 * POREP_CACHE_ENTRY_BYTES];
    porep_parent_cache_fill(whole, &g, 0, 64);
    for (uint64_t a = 0; a < 64; a += 7)
        porep_parent_cache_fill(parts + a * POREP_CACHE_ENTRY_BYTES, &g, a, a + 7 <= 64 ? 7 : 64 - a);
    cr_expect_arr_eq(whole, parts, sizeof whole);
    /* entry layout: 14 u32 LE, base then expander */
    uint32_t p[POREP_DEGREE];
    porep_graph_parents(p, &g, 37);
    for (int i = 0; i < POREP_DEGREE; i++) {
        const uint8_t *e = whole + 37 * POREP_CACHE_ENTRY_BYTES + 4 * i;
        cr_expect_eq((uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24, p[i]);
    }
    porep_graph_destroy(&g);
}

static char *make_tmpdir(void)
{
    char tmpl[] = "/tmp/gm_porep_XXXXXX";
    char *d = mkdtemp(tmpl);
    cr_assert_not_null(d, "mkdtemp: %s", strerror(errno));
    return strdup(d);
}

static int dir_entries(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = -1;
        pclose(f);
    }
    return n;
}

static uint64_t progress_last;
static void on_progress(void *arg, uint64_t done, uint64_t total)
{
    (void)arg;
    cr_expect_leq(done, total);
    cr_expect_gt(done, progress_last);
    progress_last = done;
}

Test(porep_graph, parent_cache_write_is_atomic)
{
    char *dir = make_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/cache", dir);
    porep_graph_t g;
    graph_for(&g, 2048, POREP_API_1_1);
    const char *want = "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97";
    uint8_t d[32];
    err_t err;

    /* a wrong expectation installs nothing */
    int rc = porep_parent_cache_write(d, path, &g, "00", NULL, NULL, NULL, &err);
    cr_expect_eq(rc, GM_EVERIFY);
    cr_expect(strstr(err.msg, path) != NULL, "message: %s", err.msg);
    cr_expect_eq(dir_entries(dir), 0, "something left behind");

    progress_last = 0;
    cr_assert_eq(porep_parent_cache_write(d, path, &g, want, NULL, on_progress, NULL, &err), 0, "%s", err.msg);
    cr_expect_eq(progress_last, g.nodes);
    cr_expect_eq(dir_entries(dir), 1, "a temporary file is left");
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    uint8_t buf[64 * POREP_CACHE_ENTRY_BYTES + 1];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cr_expect_eq(n, 64 * POREP_CACHE_ENTRY_BYTES);
    char hex[65];
    sha256_hex(hex, buf, n);
    cr_expect_str_eq(hex, want);

    /* an existing target is replaced whole */
    f = fopen(path, "wb");
    fputs("old", f);
    fclose(f);
    cr_assert_eq(porep_parent_cache_write(d, path, &g, NULL, NULL, NULL, NULL, &err), 0, "%s", err.msg);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_size, 64 * POREP_CACHE_ENTRY_BYTES);
    unlink(path);
    rmdir(dir);
    free(dir);
    porep_graph_destroy(&g);
}

Test(porep_graph, parent_cache_write_reports_unwritable_path)
{
    porep_graph_t g;
    graph_for(&g, 2048, POREP_API_1_1);
    uint8_t d[32];
    err_t err;
    const char *path = "/nonexistent-dir-gm/cache";
    cr_expect_eq(porep_parent_cache_write(d, path, &g, NULL, NULL, NULL, NULL, &err), GM_EIO);
    cr_expect(strstr(err.msg, path) && strstr(err.msg, "No such file"), "message: %s", err.msg);
    porep_graph_destroy(&g);
}
