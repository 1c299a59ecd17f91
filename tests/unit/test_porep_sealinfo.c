/*
 * tests/unit/test_porep_sealinfo.c — verify-seal's inputs: configs,
 * challenge kinds, Filecoin's parameter file names, commitment CIDs, and the
 * regression-record / SealVerifyInfo readers.
 *
 * Known answers, none produced by grothmpi (sources in
 * tests/vectors/porep/README.md):
 *  - the ten v28 stacked-proof-of-replication file names of rust-fil-proofs'
 *    parameters.json (87348a7);
 *  - SyntheticPoRep challenges of test_synth_challenges_against_hardcoded
 *    (rust-fil-proofs storage-proofs-porep challenges.rs);
 *  - the FRC-0069 piece CIDs of empty 32 GiB and 64 GiB pieces;
 *  - seven SealRegressionRecord lines of rust-fil-proofs'
 *    filecoin-proofs/tests/seal_regression_records-v16.json / -v18.json.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"
#include "testutil.h"

#define RECORDS "tests/vectors/porep/seal_regression_records.jsonl"

Test(porep_sealinfo, param_names_are_filecoins)
{
    static const struct {
        uint32_t id;
        const char *hex, *tree;
    } want[] = {
        {5, "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f", "8-0-0"},
        {6, "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb", "8-0-0"},
        {7, "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472", "8-0-0"},
        {8, "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820", "8-8-0"},
        {9, "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2", "8-8-2"},
    };
    err_t err;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        /* every registered proof of the size: V1, V1_1, synthetic, NI */
        for (uint32_t id = want[i].id - 5; id < 20; id += 5) {
            porep_config_t c;
            cr_assert_eq(porep_config_from_proof(&c, porep_proof_by_id(id), &err), 0, "%s", err.msg);
            char name[POREP_PARAM_NAME_LEN], expect[POREP_PARAM_NAME_LEN];
            for (int e = 0; e < 2; e++) {
                const char *ext = e ? "vk" : "params";
                porep_param_name(name, &c, ext);
                snprintf(expect, sizeof expect,
                         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%s-sha256_hasher-%s.%s",
                         want[i].tree, want[i].hex, ext);
                cr_assert_str_eq(name, expect, "proof id %u", id);
            }
        }
    }
}

Test(porep_sealinfo, config_partitions_and_challenges)
{
    err_t err;
    porep_config_t c;
    static const struct {
        uint32_t id;
        unsigned parts, ch;
        porep_chal_kind_t kind;
    } t[] = {{0, 1, 2, POREP_CHAL_INTERACTIVE}, {8, 10, 18, POREP_CHAL_INTERACTIVE},
             {10, 1, 2, POREP_CHAL_SYNTHETIC},  {13, 10, 18, POREP_CHAL_SYNTHETIC},
             {15, 13, 2, POREP_CHAL_NI},        {18, 126, 18, POREP_CHAL_NI}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        cr_assert_eq(porep_config_from_proof(&c, porep_proof_by_id(t[i].id), &err), 0, "%s", err.msg);
        cr_assert_eq(c.partitions, t[i].parts, "id %u", t[i].id);
        cr_assert_eq(c.challenges, t[i].ch, "id %u", t[i].id);
        cr_assert_eq(c.kind, t[i].kind, "id %u", t[i].id);
    }
    uint8_t id[32] = {0};
    cr_assert_eq(porep_config_init(&c, 2048, id, POREP_API_1_1, POREP_CHAL_SYNTHETIC, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "1.2"), "%s", err.msg);
    cr_assert_eq(porep_config_init(&c, 4096, id, POREP_API_1_1, POREP_CHAL_INTERACTIVE, &err), GM_EINVAL);
}

Test(porep_sealinfo, synthetic_challenges_match_rust_fil_proofs)
{
    /* sector_nodes 2^10, replica_id = Fr(55), comm_r = Fr(101), 21
     * synthetic challenges, rand = [1; 32]: the ten porep challenges */
    static const uint64_t want[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    porep_dom_t rid = {{55}}, cr = {{101}};
    uint8_t seed[32];
    memset(seed, 1, 32);
    uint64_t got[10];
    err_t err;
    cr_assert_eq(porep_synth_challenges(got, 10, 0, 1024, 21, &rid, &cr, seed, &err), 0, "%s", err.msg);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(got[i], want[i], "challenge %d: %llu, want %llu", i, (unsigned long long)got[i],
                     (unsigned long long)want[i]);
    /* a later window of the same selection stream: challenges 3..6 */
    cr_assert_eq(porep_synth_challenges(got, 4, 3, 1024, 21, &rid, &cr, seed, &err), 0, "%s", err.msg);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(got[i], want[3 + i]);
}

Test(porep_sealinfo, ni_and_interactive_challenges_differ_by_partition)
{
    err_t err;
    porep_config_t c;
    cr_assert_eq(porep_config_from_proof(&c, porep_proof_by_id(15), &err), 0, "%s", err.msg);
    porep_dom_t rid = {{7}}, cr = {{9}};
    uint8_t seed[32] = {3};
    uint64_t a[2], b[2];
    cr_assert_eq(porep_challenges(a, &c, &rid, &cr, seed, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_challenges(b, &c, &rid, &cr, seed, 12, &err), 0, "%s", err.msg);
    cr_assert(a[0] >= 1 && a[0] < 64 && b[1] >= 1 && b[1] < 64);
    /* NI ignores the seed */
    seed[0] = 4;
    uint64_t a2[2];
    cr_assert_eq(porep_challenges(a2, &c, &rid, &cr, seed, 0, &err), 0, "%s", err.msg);
    cr_assert(a2[0] == a[0] && a2[1] == a[1]);
    cr_assert_eq(porep_challenges(a, &c, &rid, &cr, seed, 13, &err), GM_EINVAL);
}

/* The root of an all-zero piece of 2^levels leaves: SHA-256 pairs, top two
 * bits cleared. */
static void zero_root(porep_dom_t *out, unsigned levels)
{
    memset(out, 0, sizeof *out);
    for (unsigned l = 0; l < levels; l++) {
        uint8_t two[64];
        memcpy(two, out->b, 32);
        memcpy(two + 32, out->b, 32);
        unsigned n = 0;
        cr_assert(EVP_Digest(two, 64, out->b, &n, EVP_sha256(), NULL) == 1);
        out->b[31] &= 0x3F;
    }
}

Test(porep_sealinfo, cids_of_empty_pieces)
{
    static const struct {
        const char *cid;
        unsigned levels;
    } v[] = {{"baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq", 30},
             {"baga6ea4seaqomqafu276g53zko4k23xzh4h4uecjwicbmvhsuqi7o4bhthhm4aq", 31}};
    err_t err;
    for (int i = 0; i < 2; i++) {
        porep_dom_t d, z;
        cr_assert_eq(porep_cid_decode(&d, v[i].cid, POREP_CID_UNSEALED, "cid", &err), 0, "%s", err.msg);
        zero_root(&z, v[i].levels);
        cr_assert(memcmp(d.b, z.b, 32) == 0, "empty piece of 2^%u nodes", v[i].levels);
        char text[POREP_CID_TEXT_LEN];
        porep_cid_encode(text, &d, POREP_CID_UNSEALED);
        cr_assert_str_eq(text, v[i].cid);
        /* the wrong kind names both codecs */
        cr_assert_eq(porep_cid_decode(&d, v[i].cid, POREP_CID_SEALED, "SealedCID", &err), GM_EFORMAT);
        cr_assert(strstr(err.msg, "SealedCID") && strstr(err.msg, "fil-commitment-unsealed") &&
                      strstr(err.msg, "fil-commitment-sealed"),
                  "%s", err.msg);
    }
    porep_dom_t r = {{1, 2, 3}}, back;
    char text[POREP_CID_TEXT_LEN];
    porep_cid_encode(text, &r, POREP_CID_SEALED);
    cr_assert(strncmp(text, "bagboea4b5a", 11) == 0, "%s", text);
    cr_assert_eq(porep_cid_decode(&back, text, POREP_CID_SEALED, "c", &err), 0, "%s", err.msg);
    cr_assert(memcmp(&back, &r, 32) == 0);
    /* malformed: multibase, digit, truncation, CIDv0-like text */
    cr_assert_eq(porep_cid_decode(&back, "zabc", POREP_CID_SEALED, "c", &err), GM_EFORMAT);
    cr_assert_eq(porep_cid_decode(&back, "bag1oea", POREP_CID_SEALED, "c", &err), GM_EFORMAT);
    text[20] = '\0';
    cr_assert_eq(porep_cid_decode(&back, text, POREP_CID_SEALED, "c", &err), GM_EFORMAT);
    cr_assert_eq(porep_cid_decode(&back, "QmamahpFCstMUqHi2qGtVoDnRrsXhid86qsfvoyCTKJqHr", POREP_CID_SEALED, "c", &err),
                 GM_EFORMAT);
}

Test(porep_sealinfo, regression_records_of_rust_fil_proofs, .timeout = 60)
{
    porep_seal_info_t *s;
    size_t n;
    err_t err;
    cr_assert_eq(porep_seal_info_read(&s, &n, RECORDS, &err), 0, "%s", err.msg);
    cr_assert_eq(n, 7);
    static const struct {
        uint64_t size;
        porep_api_t api;
        porep_chal_kind_t kind;
        size_t proof_len;
    } want[7] = {{2048, POREP_API_1_0, POREP_CHAL_INTERACTIVE, 192},
                 {2048, POREP_API_1_1, POREP_CHAL_INTERACTIVE, 192},
                 {2048, POREP_API_1_2, POREP_CHAL_INTERACTIVE, 192},
                 {2048, POREP_API_1_2, POREP_CHAL_SYNTHETIC, 192},
                 {32ULL << 30, POREP_API_1_1, POREP_CHAL_INTERACTIVE, 1920},
                 {8ULL << 20, POREP_API_1_2, POREP_CHAL_SYNTHETIC, 192},
                 {8ULL << 20, POREP_API_1_2, POREP_CHAL_NI, 0}};
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(s[i].status, 0, "%s", s[i].msg);
        cr_assert_eq(s[i].cfg.shape.sector_size, want[i].size, "line %zu", i + 1);
        cr_assert_eq(s[i].cfg.api, want[i].api, "line %zu", i + 1);
        cr_assert_eq(s[i].cfg.kind, want[i].kind, "line %zu", i + 1);
        if (want[i].proof_len)
            cr_assert_eq(s[i].proof_len, want[i].proof_len, "line %zu", i + 1);
        else /* NI-PoRep: one SnarkPack aggregate, not 13 x 192 bytes */
            cr_assert(s[i].proof_len != s[i].cfg.partitions * 192u);
    }
    cr_assert_eq(s[5].cfg.porep_id[0], 129);
    /* the public inputs of every partition of the interactive and synthetic
     * records derive (what their .vk would check; see docs/porep.md) */
    for (size_t i = 0; i < 6; i++) {
        porep_public_t pub;
        porep_graph_t g;
        cr_assert_eq(porep_seal_info_public(&pub, &s[i], &err), 0, "%s", err.msg);
        cr_assert_eq(porep_config_graph(&g, &s[i].cfg, &err), 0, "%s", err.msg);
        size_t m = porep_public_input_count(&s[i].cfg);
        cr_assert_eq(m, s[i].cfg.shape.sector_size >= (32ULL << 30) ? 327u : 39u);
        fr_t in[327];
        for (unsigned k = 0; k < s[i].cfg.partitions; k++) {
            cr_assert_eq(porep_public_inputs(in, &pub, &g, k, &err), 0, "%s", err.msg);
            /* each challenge's PoR inputs repeat it, and its DRG parent 0 is
             * node - 1 (API 1.1+) or parent 5 is (1.0) */
            for (unsigned c = 0; c < s[i].cfg.challenges; c++) {
                const fr_t *b = in + 3 + 18 * c;
                cr_assert(fr_eq(&b[0], &b[15]) && fr_eq(&b[0], &b[16]) && fr_eq(&b[0], &b[17]));
                fr_t one, pred;
                fr_set_u64(&one, 1);
                fr_sub(&pred, &b[0], &one);
                cr_assert(fr_eq(&pred, &b[s[i].cfg.api == POREP_API_1_0 ? 6 : 1]));
            }
        }
        porep_graph_destroy(&g);
    }
    porep_seal_info_free(s, n);
}

Test(porep_sealinfo, a_bad_line_is_reported_and_the_rest_read)
{
    FILE *f = fopen(RECORDS, "rb");
    cr_assert_not_null(f);
    char *line = NULL;
    size_t cap = 0;
    cr_assert(getline(&line, &cap, f) > 0);
    fclose(f);
    char *text = malloc(3 * strlen(line) + 64);
    char *bad = strdup(line);
    char *p = strstr(bad, "\"seed\":[");
    cr_assert_not_null(p);
    p[8] = '9', p[9] = '9', p[10] = '9'; /* a byte above 255 (or longer number) */
    sprintf(text, "%s\n%s{\"porep_config\":1}\nnot json\n", line, bad);
    porep_seal_info_t *s;
    size_t n;
    err_t err;
    cr_assert_eq(porep_seal_info_parse(&s, &n, text, strlen(text), "r.jsonl", &err), 0, "%s", err.msg);
    cr_assert_eq(n, 4);
    cr_assert_eq(s[0].status, 0, "%s", s[0].msg);
    cr_assert_eq(s[1].status, GM_EFORMAT);
    cr_assert(strstr(s[1].msg, "r.jsonl line 3") && strstr(s[1].msg, "seed"), "%s", s[1].msg);
    cr_assert_eq(s[2].status, GM_EFORMAT);
    cr_assert(strstr(s[2].msg, "line 4") && strstr(s[2].msg, "sector_size"), "%s", s[2].msg);
    cr_assert(strstr(s[3].msg, "line 5") && strstr(s[3].msg, "not valid JSON"), "%s", s[3].msg);
    porep_seal_info_free(s, n);
    cr_assert_eq(porep_seal_info_parse(&s, &n, "\n\n", 2, "e.jsonl", &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "no seal"), "%s", err.msg);
    free(text);
    free(bad);
    free(line);
}

Test(porep_sealinfo, records_in_a_json_array_are_refused_saying_one_per_line)
{
    FILE *f = fopen(RECORDS, "rb");
    cr_assert_not_null(f);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = getline(&line, &cap, f);
    cr_assert(len > 0);
    fclose(f);
    char *text = malloc((size_t)len + 4);
    sprintf(text, "[%s]", line);
    porep_seal_info_t *s;
    size_t n;
    err_t err;
    cr_assert_eq(porep_seal_info_parse(&s, &n, text, strlen(text), "r.json", &err), GM_EFORMAT);
    cr_assert_null(s);
    cr_assert(strstr(err.msg, "r.json: a JSON array of SealRegressionRecord") &&
                  strstr(err.msg, "one per line (JSON Lines)"), "%s", err.msg);
    free(text);
    free(line);
}

Test(porep_sealinfo, reading_a_directory_says_so)
{
    porep_seal_info_t *s;
    size_t n;
    err_t err;
    cr_assert_eq(porep_seal_info_read(&s, &n, "tests/vectors", &err), GM_EIO);
    cr_assert(strstr(err.msg, "tests/vectors: cannot read: a directory, not a file of seals"), "%s", err.msg);
}

Test(porep_sealinfo, seed_parse_takes_hex_with_or_without_0x_and_says_when_it_hashed)
{
    char hex[67] = "0x";
    for (int i = 0; i < 32; i++)
        sprintf(hex + 2 + 2 * i, "%02x", 0xa0 + i);
    uint8_t a[32], b[32], h[32];
    cr_expect(!porep_seed_parse(a, hex + 2));
    cr_expect(!porep_seed_parse(b, hex));
    cr_expect(a[0] == 0xa0 && a[31] == 0xbf && memcmp(a, b, 32) == 0);
    hex[65] = '\0'; /* 63 digits after the 0x: a typo, hashed as text */
    cr_expect(porep_seed_parse(a, hex));
    unsigned hl = 0;
    EVP_Digest(hex, strlen(hex), h, &hl, EVP_sha256(), NULL);
    cr_expect(memcmp(a, h, 32) == 0, "the SHA-256 of the text");
    cr_expect(porep_seed_parse(a, "1"));
}

Test(porep_sealinfo, seal_verify_info)
{
    /* a SealVerifyInfo for record line 2 (StackedDrg2KiBV1_1, porep_id of id 5) */
    porep_seal_info_t *r;
    size_t n;
    err_t err;
    cr_assert_eq(porep_seal_info_read(&r, &n, RECORDS, &err), 0, "%s", err.msg);
    char sealed[POREP_CID_TEXT_LEN], unsealed[POREP_CID_TEXT_LEN], ticket[64], seed[64], proof[300];
    porep_cid_encode(sealed, &r[1].comm_r, POREP_CID_SEALED);
    porep_cid_encode(unsealed, &r[1].comm_d, POREP_CID_UNSEALED);
    gm_base64_encode(ticket, r[1].ticket, 32);
    gm_base64_encode(seed, r[1].seed, 32);
    gm_base64_encode(proof, r[1].proof, 192);
    char text[2048], sw[2048];
    const char *fmt = "{\"SealProof\": 5, \"SectorID\": {\"Miner\": 1000, \"Number\": 42}, \"DealIDs\": [], "
                      "\"Randomness\": \"%s\", \"InteractiveRandomness\": \"%s\", \"Proof\": \"%s\", "
                      "\"SealedCID\": {\"/\": \"%s\"}, \"UnsealedCID\": {\"/\": \"%s\"}}";
    snprintf(text, sizeof text, fmt, ticket, seed, proof, sealed, unsealed);
    snprintf(sw, sizeof sw, fmt, ticket, seed, proof, unsealed, sealed); /* the CIDs swapped */
    porep_seal_info_t *s;
    cr_assert_eq(porep_seal_info_parse(&s, &n, text, strlen(text), "svi.json", &err), 0, "%s", err.msg);
    cr_assert_eq(n, 1);
    cr_assert_eq(s[0].status, 0, "%s", s[0].msg);
    cr_assert(memcmp(&s[0].comm_r, &r[1].comm_r, 32) == 0 && memcmp(&s[0].comm_d, &r[1].comm_d, 32) == 0);
    cr_assert(memcmp(s[0].ticket, r[1].ticket, 32) == 0 && memcmp(s[0].seed, r[1].seed, 32) == 0);
    cr_assert(s[0].proof_len == 192 && memcmp(s[0].proof, r[1].proof, 192) == 0);
    cr_assert(memcmp(s[0].cfg.porep_id, r[1].cfg.porep_id, 32) == 0);
    uint8_t pid[32];
    porep_prover_id_from_actor(pid, 1000);
    cr_assert(memcmp(s[0].prover_id, pid, 32) == 0);
    porep_seal_info_free(s, n);

    /* an array of two, the second with the CIDs swapped */
    char arr[4200];
    snprintf(arr, sizeof arr, "[%s, %s]", text, sw);
    cr_assert_eq(porep_seal_info_parse(&s, &n, arr, strlen(arr), "svi.json", &err), 0, "%s", err.msg);
    cr_assert_eq(n, 2);
    cr_assert_eq(s[0].status, 0, "%s", s[0].msg);
    cr_assert_eq(s[1].status, GM_EFORMAT);
    cr_assert(strstr(s[1].msg, "svi.json[1]") && strstr(s[1].msg, "SealedCID") &&
                  strstr(s[1].msg, "fil-commitment-unsealed"),
              "%s", s[1].msg);
    porep_seal_info_free(s, n);
    porep_seal_info_free(r, 7);
}

Test(porep_sealinfo, c1_in_the_lotus_bench_wrapper, .timeout = 60)
{
    err_t err;
    porep_hashers_t h;
    cr_assert_eq(porep_hashers_init(&h, &err), 0, "%s", err.msg);
    porep_c1_t c, back;
    uint8_t seed[32] = {42};
    cr_assert_eq(porep_c1_synthetic(&c, porep_proof_by_id(5), seed, &h, &err), 0, "%s", err.msg);
    char dir[] = "/tmp/gm-c1wrap-XXXXXX", bare[64], wrapped[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(bare, sizeof bare, "%s/c1.json", dir);
    snprintf(wrapped, sizeof wrapped, "%s/c1.wrapped.json", dir);
    cr_assert_eq(porep_c1_write(&c, bare, &err), 0, "%s", err.msg);
    FILE *f = fopen(bare, "rb");
    cr_assert_not_null(f);
    static char text[1 << 20], b64[(1 << 20) / 3 * 4 + 8];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    cr_assert(n > 0 && n < sizeof text);
    gm_base64_encode(b64, (const uint8_t *)text, n);
    for (int size = 2048; size <= 4096; size *= 2) {
        f = fopen(wrapped, "wb");
        cr_assert_not_null(f);
        fprintf(f, "{\"SectorNum\": 1, \"Phase1Out\": \"%s\", \"SectorSize\": %d}\n", b64, size);
        fclose(f);
        int rc = porep_c1_read(&back, wrapped, &err);
        if (size == 2048) {
            cr_assert_eq(rc, 0, "%s", err.msg);
            cr_assert(memcmp(&back.comm_r, &c.comm_r, 32) == 0 && back.partitions == c.partitions);
            cr_assert(memcmp(&back.proofs[1], &c.proofs[1], sizeof c.proofs[1]) == 0);
            porep_c1_free(&back);
        } else {
            cr_assert_eq(rc, GM_EFORMAT);
            cr_assert(strstr(err.msg, "SectorSize: 4096"), "%s", err.msg);
        }
    }
    f = fopen(wrapped, "wb");
    fprintf(f, "{\"SectorNum\": 1, \"Phase1Out\": \"e30=!\", \"SectorSize\": 2048}\n");
    fclose(f);
    cr_assert_eq(porep_c1_read(&back, wrapped, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "Phase1Out: not base64"), "%s", err.msg);
    remove(bare);
    remove(wrapped);
    rmdir(dir);
    porep_c1_free(&c);
    porep_hashers_free(&h);
}

Test(porep_sealinfo, param_find_by_filecoins_names)
{
    err_t err;
    porep_config_t c;
    cr_assert_eq(porep_config_from_proof(&c, porep_proof_by_id(5), &err), 0, "%s", err.msg);
    char dir[] = "/tmp/gm-pfind-XXXXXX", params[4096], vk[4096], name[POREP_PARAM_NAME_LEN], path[4300];
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(porep_param_find(params, vk, sizeof vk, dir, &c, &err), GM_EIO);
    porep_param_name(name, &c, "vk");
    cr_assert(strstr(err.msg, name) && strstr(err.msg, "2KiB"), "%s", err.msg);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fclose(f);
    /* the vk alone is enough when params is not wanted */
    cr_assert_eq(porep_param_find(NULL, vk, sizeof vk, dir, &c, &err), 0, "%s", err.msg);
    cr_assert_str_eq(vk, path);
    cr_assert_eq(porep_param_find(params, vk, sizeof vk, dir, &c, &err), GM_EIO);
    porep_param_name(name, &c, "params");
    cr_assert(strstr(err.msg, name), "%s", err.msg);
    char small[16];
    cr_assert_eq(porep_param_find(NULL, small, sizeof small, dir, &c, &err), GM_EINVAL);
    remove(path);
    rmdir(dir);
}

Test(porep_sealinfo, synthetic_porep_c1_of_a_sealed_sector, .timeout = 120)
{
    /* StackedDrg2KiBV1_2_Feat_SyntheticPoRep (id 10): the C1 built from a
     * sealed sector carries the synthetic challenges (checked against
     * porep_challenges), verifies, and stops verifying when relabelled as
     * the interactive StackedDrg2KiBV1_1 (id 5) */
    err_t err;
    porep_hashers_t h;
    cr_assert_eq(porep_hashers_init(&h, &err), 0, "%s", err.msg);
    char dir[] = "/tmp/gm-synseal-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    porep_seal_opts_t o;
    memset(&o, 0, sizeof o);
    o.proof = porep_proof_by_id(10);
    porep_seed_parse(o.seed, "synthetic data");
    porep_seed_parse(o.ticket, "synthetic ticket");
    o.sector_id = 9;
    porep_sealed_t s;
    cr_assert_eq(porep_seal(&s, dir, &o, NULL, NULL, NULL, &err), 0, "%s", err.msg);
    uint8_t seed[32];
    porep_seed_parse(seed, "synthetic seed");
    porep_c1_t c;
    cr_assert_eq(porep_c1_prove(&c, dir, seed, &h, &err), 0, "%s", err.msg);
    porep_config_t cfg;
    cr_assert_eq(porep_config_from_proof(&cfg, c.proof, &err), 0, "%s", err.msg);
    uint64_t want[2];
    cr_assert_eq(porep_challenges(want, &cfg, &c.replica_id, &c.comm_r, seed, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(c.proofs[0].c_x.index, want[0]);
    cr_assert_eq(c.proofs[1].c_x.index, want[1]);
    porep_graph_t g;
    cr_assert_eq(porep_config_graph(&g, &cfg, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_c1_verify(&c, &g, &h, "syn.json", &err), 0, "%s", err.msg);
    porep_graph_destroy(&g);
    c.proof = porep_proof_by_id(5);
    porep_config_t c5;
    cr_assert_eq(porep_config_from_proof(&c5, c.proof, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_config_graph(&g, &c5, &err), 0, "%s", err.msg);
    cr_assert_eq(porep_c1_verify(&c, &g, &h, "syn.json", &err), GM_EVERIFY);
    porep_graph_destroy(&g);
    porep_c1_free(&c);
    for (int i = 0; i < POREP_SEAL_FILES; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, porep_seal_files[i]);
        remove(p);
    }
    rmdir(dir);
    porep_hashers_free(&h);
}
