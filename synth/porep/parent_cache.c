/*
 * synth/porep/parent_cache.c — the parent cache file of rust-fil-proofs
 * (storage-proofs-porep stacked/vanilla/cache.rs): 14 u32 LE parents per node,
 * nodes in order, no header; its SHA-256 is what parent_cache.json publishes.
 *
 * DESIGN
 *  - The cache is made in chunks of CHUNK_NODES nodes (about 14 MiB), so the
 *    memory held does not grow with the sector (a 32 GiB cache is 56 GiB).
 *    Each chunk is cut into tiles of TILE_NODES nodes that the caller's pool
 *    runs (the graph is read-only, tiles write disjoint ranges); then the
 *    calling thread hashes the chunk, appends it to the temporary file and
 *    reports progress.
 *  - Atomic install (base/'s gm_afile_*): the temporary is written,
 *    checked against the expected digest, and only then committed (fsync,
 *    rename over the target, directory fsync). Any failure removes the
 *    temporary; the target is never half-written. Temporaries of dead
 *    earlier writers are removed first (GM_AFILE_SWEEP).
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "synth/porep/porep.h"

#define CHUNK_NODES (1u << 18) /* 14 MiB of entries per chunk */
#define TILE_NODES 1024u       /* nodes per pool task */

/* Fills count entries from node first on. Every node is independent: its
 * DRG parents need two ChaCha8 blocks, its expander parents 8 Feistel
 * permutations of 3 round-table loads times about 2 cycle-walk encodings.
 * (Hashing each Feistel round through EVP instead, 48 BLAKE2b-512 calls per
 * node, ran at 88 k nodes/s per thread.)
 * Invariant: first + count <= g->nodes <= UINT32_MAX, so nodes fit in u32.
 * docs/porep.md has the cost per node (the ChaCha8 blocks are about a third). */
void porep_parent_cache_fill(uint8_t *out, const porep_graph_t *g, uint64_t first, uint64_t count)
{
    GM_ASSERT(first <= g->nodes && count <= g->nodes - first);
    uint32_t parents[POREP_DEGREE];
    for (uint64_t k = 0; k < count; k++) {
        porep_graph_parents(parents, g, (uint32_t)(first + k));
        uint8_t *e = out + k * POREP_CACHE_ENTRY_BYTES;
        for (int i = 0; i < POREP_DEGREE; i++) {
            e[4 * i + 0] = (uint8_t)parents[i];
            e[4 * i + 1] = (uint8_t)(parents[i] >> 8);
            e[4 * i + 2] = (uint8_t)(parents[i] >> 16);
            e[4 * i + 3] = (uint8_t)(parents[i] >> 24);
        }
    }
}

/* rust-fil-proofs storage-proofs-porep/parent_cache.json (v28, commit
 * 87348a7): the <hex> of each production cache name and its SHA-256. The
 * graph that each name belongs to is established by porep_graph_init's name
 * derivation (checked in tests/unit/test_porep_graph.c). */
static const struct {
    const char *name_hex;
    uint64_t sector_size;
    const char *digest;
} manifest[] = {
    {"21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117", 34359738368ull,
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {"2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42", 536870912ull,
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {"3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899", 2048ull,
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {"4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b", 68719476736ull,
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
    {"494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b", 2048ull,
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {"5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5", 8388608ull,
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {"7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34", 536870912ull,
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {"8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6", 68719476736ull,
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {"dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc", 8388608ull,
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {"e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13", 34359738368ull,
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
};

const char *porep_parent_cache_published(const porep_graph_t *g)
{
    static const char prefix[] = "v28-sdr-parent-";
    const char *hex = g->cache_name + sizeof prefix - 1;
    for (size_t i = 0; i < sizeof manifest / sizeof manifest[0]; i++)
        if (strncmp(hex, manifest[i].name_hex, 64) == 0 &&
            manifest[i].sector_size == g->nodes * POREP_NODE_SIZE)
            return manifest[i].digest;
    return NULL;
}

/* ---- generation and atomic write --------------------------------------------------- */

typedef struct {
    const porep_graph_t *g;
    uint8_t *buf;
    uint64_t first, count; /* the chunk */
} chunk_job_t;

static void chunk_tile(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    chunk_job_t *j = arg;
    uint64_t off = (uint64_t)task * TILE_NODES;
    uint64_t n = j->count - off < TILE_NODES ? j->count - off : TILE_NODES;
    porep_parent_cache_fill(j->buf + off * POREP_CACHE_ENTRY_BYTES, j->g, j->first + off, n);
}

static int hex_equal(const uint8_t d[32], const char *hex)
{
    char mine[65];
    gm_hex_encode(mine, d, 32);
    return strlen(hex) == 64 && strncasecmp(mine, hex, 64) == 0;
}

int porep_parent_cache_write(uint8_t digest[32], const char *path, const porep_graph_t *g,
                             const char *expect_hex, topo_pool_t *pool, porep_progress_fn progress,
                             void *progress_arg, err_t *err)
{
    int rc = 0;
    uint8_t *buf = NULL;
    EVP_MD_CTX *sha = NULL;
    gm_afile_t out = {0};

    uint64_t chunk = g->nodes < CHUNK_NODES ? g->nodes : CHUNK_NODES;
    buf = gm_alloc(chunk * POREP_CACHE_ENTRY_BYTES);
    sha = EVP_MD_CTX_new();
    if (!buf || !sha) {
        rc = gm_err_set(err, GM_ENOMEM, "porep parent cache: out of memory for a %llu-node chunk",
                        (unsigned long long)chunk);
        goto fail;
    }
    if (EVP_DigestInit_ex(sha, EVP_sha256(), NULL) != 1) {
        rc = gm_err_set(err, GM_ENOTSUP, "porep parent cache: libcrypto SHA-256 failed");
        goto fail;
    }
    if (path && (rc = gm_afile_open(&out, path, GM_AFILE_SWEEP, err)) != 0)
        goto fail;

    for (uint64_t first = 0; first < g->nodes; first += chunk) {
        uint64_t count = g->nodes - first < chunk ? g->nodes - first : chunk;
        chunk_job_t job = {.g = g, .buf = buf, .first = first, .count = count};
        topo_pool_run(pool, (size_t)((count + TILE_NODES - 1) / TILE_NODES), chunk_tile, &job);
        size_t bytes = (size_t)count * POREP_CACHE_ENTRY_BYTES;
        if (EVP_DigestUpdate(sha, buf, bytes) != 1) {
            rc = gm_err_set(err, GM_ENOTSUP, "porep parent cache: libcrypto SHA-256 failed");
            goto fail;
        }
        if (out.f) {
            gm_afile_write(&out, buf, bytes);
            if (out.failed_errno) {
                rc = gm_err_set(err, GM_EIO, "%s: write to %s failed: %s", path, out.tmp, strerror(out.failed_errno));
                goto fail;
            }
        }
        if (progress)
            progress(progress_arg, first + count, g->nodes);
    }
    unsigned dlen = 0;
    if (EVP_DigestFinal_ex(sha, digest, &dlen) != 1 || dlen != 32) {
        rc = gm_err_set(err, GM_ENOTSUP, "porep parent cache: libcrypto SHA-256 failed");
        goto fail;
    }

    if (expect_hex && !hex_equal(digest, expect_hex)) {
        rc = gm_err_set(err, GM_EVERIFY, "%s: parent cache SHA-256 differs from the published %s (%s)",
                        path ? path : "parent cache", expect_hex, g->cache_name);
        goto fail;
    }
    if (out.f)
        rc = gm_afile_commit(&out, err);

fail:
    gm_afile_abort(&out);
    EVP_MD_CTX_free(sha);
    gm_free(buf);
    return rc;
}
