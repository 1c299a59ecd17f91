/*
 * synth/porep/graph.c — registered seal proofs, porep_id, and the SDR graph:
 * seeds, DRG bucket-sampling parents and expander parents.
 *
 * DESIGN
 *  - Everything a graph needs is derived once in porep_graph_init (two
 *    SHA-256 of the porep_id, the cache file name, and the Feistel round
 *    table); the parent functions are then pure functions of (graph, node)
 *    that neither hash nor allocate, so any thread can compute any node, in
 *    any order.
 *  - DRG parents (storage-proofs-core drgraph.rs, BucketGraph::parents): the
 *    RNG of node v is ChaCha8 keyed by drg_seed[28] || v as u32 LE; its u64
 *    draws come in pairs (bucket, distance) over the "metagraph" of 5 * v
 *    nodes, where n_buckets = ceil(log2(5 v)). rust-fil-proofs computes that
 *    logarithm in f64; for 5 v < 2^35 the float result is never within an
 *    ulp of an integer unless 5 v is a power of two, where it is exact, so
 *    the integer form used here (bit length of 5 v - 1) gives the same value.
 *  - Expander parents (storage-proofs-porep graph.rs, correspondent): the
 *    Feistel permutation of [0, 8 N) applied to 8 v + i, divided by 8. API
 *    1.0 truncated the permuted value to u32 before the division; that is
 *    kept for 1.0 graphs, and matters from 32 GiB on (8 N > 2^32).
 */
#include <ctype.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "synth/porep/porep.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)
#define KIB (1ull << 10)

/* filecoin-proofs-api src/registry.rs: REGISTERED_PROOF_IDS and version(). */
static const porep_proof_t proofs[] = {
    {0, 2 * KIB, POREP_API_1_0, "StackedDrg2KiBV1"},
    {1, 8 * MIB, POREP_API_1_0, "StackedDrg8MiBV1"},
    {2, 512 * MIB, POREP_API_1_0, "StackedDrg512MiBV1"},
    {3, 32 * GIB, POREP_API_1_0, "StackedDrg32GiBV1"},
    {4, 64 * GIB, POREP_API_1_0, "StackedDrg64GiBV1"},
    {5, 2 * KIB, POREP_API_1_1, "StackedDrg2KiBV1_1"},
    {6, 8 * MIB, POREP_API_1_1, "StackedDrg8MiBV1_1"},
    {7, 512 * MIB, POREP_API_1_1, "StackedDrg512MiBV1_1"},
    {8, 32 * GIB, POREP_API_1_1, "StackedDrg32GiBV1_1"},
    {9, 64 * GIB, POREP_API_1_1, "StackedDrg64GiBV1_1"},
    {10, 2 * KIB, POREP_API_1_2, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep"},
    {11, 8 * MIB, POREP_API_1_2, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep"},
    {12, 512 * MIB, POREP_API_1_2, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep"},
    {13, 32 * GIB, POREP_API_1_2, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep"},
    {14, 64 * GIB, POREP_API_1_2, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep"},
    {15, 2 * KIB, POREP_API_1_2, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"},
    {16, 8 * MIB, POREP_API_1_2, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep"},
    {17, 512 * MIB, POREP_API_1_2, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep"},
    {18, 32 * GIB, POREP_API_1_2, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep"},
    {19, 64 * GIB, POREP_API_1_2, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"},
};
#define NPROOFS (sizeof proofs / sizeof proofs[0])

const porep_proof_t *porep_proof_find(uint64_t sector_size, porep_api_t api)
{
    if (api == POREP_API_1_2)
        return NULL;
    for (size_t i = 0; i < NPROOFS; i++)
        if (proofs[i].sector_size == sector_size && proofs[i].api == api)
            return &proofs[i];
    return NULL;
}

const porep_proof_t *porep_proof_by_id(uint32_t id)
{
    return id < NPROOFS ? &proofs[id] : NULL;
}

void porep_id_make(uint8_t out[32], const porep_proof_t *proof)
{
    const uint64_t nonce = 0; /* registry.rs nonce(): 0 for every proof */
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)((uint64_t)proof->id >> (8 * i));
        out[8 + i] = (uint8_t)(nonce >> (8 * i));
    }
}

/* ---- parsing and formatting ---------------------------------------------------- */

int porep_sector_size_parse(uint64_t *out, const char *s, const char *what, err_t *err)
{
    static const struct {
        const char *suffix;
        uint64_t unit;
    } units[] = {{"", 1}, {"KiB", KIB}, {"MiB", MIB}, {"GiB", GIB}};
    const char *p = s;
    uint64_t v = 0;
    if (!isdigit((unsigned char)*p))
        goto bad;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            goto bad;
        v = v * 10 + d;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(p, units[i].suffix) != 0)
            continue;
        if (v == 0 || v > UINT64_MAX / units[i].unit)
            goto bad;
        *out = v * units[i].unit;
        return 0;
    }
bad:
    return gm_err_set(err, GM_EINVAL,
                      "%s: '%s' is not a sector size (a positive byte count, optionally with KiB, "
                      "MiB or GiB, e.g. 2KiB or 32GiB)",
                      what, s);
}

int porep_api_parse(porep_api_t *out, const char *s, const char *what, err_t *err)
{
    static const struct {
        const char *text;
        porep_api_t api;
    } names[] = {
        {"1", POREP_API_1_0},     {"1.0", POREP_API_1_0}, {"1.0.0", POREP_API_1_0},
        {"1.1", POREP_API_1_1},   {"1.1.0", POREP_API_1_1}, {"1.2", POREP_API_1_2},
        {"1.2.0", POREP_API_1_2},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].text) == 0) {
            *out = names[i].api;
            return 0;
        }
    }
    return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a proofs API version (1.0, 1.1 or 1.2)", what, s);
}

const char *porep_api_name(porep_api_t api)
{
    switch (api) {
    case POREP_API_1_0:
        return "1.0.0";
    case POREP_API_1_1:
        return "1.1.0";
    case POREP_API_1_2:
        return "1.2.0";
    }
    return "?";
}

void porep_sector_size_format(char *buf, size_t n, uint64_t sector_size)
{
    if (sector_size >= GIB && sector_size % GIB == 0)
        snprintf(buf, n, "%lluGiB", (unsigned long long)(sector_size / GIB));
    else if (sector_size >= MIB && sector_size % MIB == 0)
        snprintf(buf, n, "%lluMiB", (unsigned long long)(sector_size / MIB));
    else if (sector_size >= KIB && sector_size % KIB == 0)
        snprintf(buf, n, "%lluKiB", (unsigned long long)(sector_size / KIB));
    else
        snprintf(buf, n, "%llu", (unsigned long long)sector_size);
}

/* ---- graph set-up --------------------------------------------------------------- */

/* SHA-256 of the concatenation of nparts byte strings. */
static int sha256_parts(uint8_t out[32], const void *const *parts, const size_t *lens, size_t nparts,
                        err_t *err)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1;
    for (size_t i = 0; ok && i < nparts; i++)
        ok = EVP_DigestUpdate(c, parts[i], lens[i]) == 1;
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(c, out, &len) == 1 && len == 32;
    EVP_MD_CTX_free(c);
    return ok ? 0 : gm_err_set(err, GM_ENOTSUP, "porep graph: libcrypto SHA-256 failed");
}

/* crypto/mod.rs derive_porep_domain_seed: SHA256(tag || porep_id). */
static int domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32], err_t *err)
{
    const void *parts[2] = {tag, porep_id};
    size_t lens[2] = {strlen(tag), 32};
    return sha256_parts(out, parts, lens, 2, err);
}

int porep_graph_init(porep_graph_t *g, uint64_t nodes, const uint8_t porep_id[32], porep_api_t api,
                     err_t *err)
{
    memset(g, 0, sizeof *g);
    if (nodes == 0 || nodes > UINT32_MAX)
        return gm_err_set(err, GM_EINVAL, "porep graph: %llu nodes is not in 1..%u",
                          (unsigned long long)nodes, UINT32_MAX);
    g->nodes = nodes;
    g->api = api;
    memcpy(g->porep_id, porep_id, 32);

    uint8_t seed[32];
    int rc = domain_seed(seed, "Filecoin_DRSample", porep_id, err);
    if (rc)
        return rc;
    memcpy(g->drg_seed, seed, sizeof g->drg_seed);

    rc = domain_seed(seed, "Filecoin_Feistel", porep_id, err);
    if (rc)
        return rc;
    uint64_t keys[4];
    for (int k = 0; k < 4; k++) {
        keys[k] = 0;
        for (int i = 7; i >= 0; i--)
            keys[k] = keys[k] << 8 | seed[8 * k + i];
    }
    porep_feistel_init(&g->feistel, nodes * POREP_EXP_DEGREE, keys);

    /* cache.rs cache_path: SHA256(H::name() || graph.identifier() || Feistel
     * keys as u64 LE || cache entries as u32 LE), H = PoseidonHasher for
     * every production tree shape. The identifier strings are those of
     * StackedGraph::new and BucketGraph's ParameterSetMetadata. */
    char ident[200];
    int len = snprintf(ident, sizeof ident,
                       "stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
                       "drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }",
                       POREP_EXP_DEGREE, (unsigned long long)nodes, POREP_BASE_DEGREE);
    GM_ASSERT(len > 0 && (size_t)len < sizeof ident);
    uint8_t keys_le[32], entries_le[4], name_hash[32];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 8; i++)
            keys_le[8 * k + i] = (uint8_t)(keys[k] >> (8 * i));
    for (int i = 0; i < 4; i++)
        entries_le[i] = (uint8_t)(nodes >> (8 * i));
    static const char hasher_name[] = "poseidon_hasher";
    const void *parts[4] = {hasher_name, ident, keys_le, entries_le};
    size_t lens[4] = {sizeof hasher_name - 1, (size_t)len, sizeof keys_le, sizeof entries_le};
    rc = sha256_parts(name_hash, parts, lens, 4, err);
    if (rc)
        return rc;
    char *p = g->cache_name;
    p += sprintf(p, "v28-sdr-parent-");
    gm_hex_encode(p, name_hash, 32);
    sprintf(p + 64, ".cache");

    /* last: the only allocation, so an earlier failure leaves nothing */
    return porep_feistel_tabulate(&g->feistel, err);
}

void porep_graph_destroy(porep_graph_t *g)
{
    if (g)
        porep_feistel_release(&g->feistel);
}

/* ---- parents -------------------------------------------------------------------- */

void porep_graph_base_parents(uint32_t out[POREP_BASE_DEGREE], const porep_graph_t *g, uint32_t node)
{
    GM_ASSERT(node < g->nodes);
    if (node < 2) { /* node 0 refers to itself, node 1 to node 0 */
        for (int i = 0; i < POREP_BASE_DEGREE; i++)
            out[i] = 0;
        return;
    }

    /* 10 u64 draws = 20 words: blocks 0 and 1 of the node's ChaCha8 stream. */
    uint8_t key[32];
    uint32_t w[32];
    memcpy(key, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        key[28 + i] = (uint8_t)(node >> (8 * i));
    porep_chacha8_block(w, key, 0, 0);
    porep_chacha8_block(w + 16, key, 1, 0);

    const uint64_t m_prime = POREP_BASE_DEGREE - 1;
    const uint64_t meta = (uint64_t)node * m_prime; /* >= 10 */
    /* ceil(log2(meta)) for meta >= 2: the bit length of meta - 1 */
    const uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);

    uint32_t *sampled = g->api == POREP_API_1_0 ? out : out + 1;
    int draw = 0;
    for (uint64_t k = 0; k < m_prime; k++) {
        uint64_t r1 = (uint64_t)w[draw] | (uint64_t)w[draw + 1] << 32;
        uint64_t r2 = (uint64_t)w[draw + 2] | (uint64_t)w[draw + 3] << 32;
        draw += 4;
        uint64_t bucket = r1 % n_buckets + 1; /* 1..n_buckets */
        uint64_t hi = meta < (1ull << bucket) ? meta : (1ull << bucket);
        uint64_t lo = (hi >> 1) > 2 ? (hi >> 1) : 2;
        uint64_t dist = lo + r2 % (hi - lo + 1); /* 2 <= lo <= dist <= hi <= meta */
        uint32_t parent = (uint32_t)((meta - dist) / m_prime);
        sampled[k] = parent == node ? node - 1 : parent;
        GM_VERIFY(sampled[k] < node);
    }
    out[g->api == POREP_API_1_0 ? m_prime : 0] = node - 1;
}

void porep_graph_exp_parents(uint32_t out[POREP_EXP_DEGREE], const porep_graph_t *g, uint32_t node)
{
    GM_ASSERT(node < g->nodes && g->feistel.table);
    for (uint64_t i = 0; i < POREP_EXP_DEGREE; i++) {
        uint64_t t = porep_feistel_permute(&g->feistel, (uint64_t)node * POREP_EXP_DEGREE + i, NULL);
        if (g->api == POREP_API_1_0)
            out[i] = (uint32_t)t / POREP_EXP_DEGREE; /* the legacy u32 truncation */
        else
            out[i] = (uint32_t)(t / POREP_EXP_DEGREE);
        GM_VERIFY(out[i] < g->nodes);
    }
}

void porep_graph_parents(uint32_t out[POREP_DEGREE], const porep_graph_t *g, uint32_t node)
{
    porep_graph_base_parents(out, g, node);
    porep_graph_exp_parents(out + POREP_BASE_DEGREE, g, node);
}
