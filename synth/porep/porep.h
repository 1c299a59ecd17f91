/*
 * synth/porep/porep.h — Filecoin SDR proof-of-replication outside the circuit:
 * registered seal proofs and their porep_id, the SDR graph (DRG bucket-sampling
 * parents plus Feistel expander parents, 14 per node) and the parent cache
 * file. The bytes produced here are those of rust-fil-proofs
 * (storage-proofs-core drgraph.rs and crypto/feistel.rs, storage-proofs-porep
 * stacked/vanilla/graph.rs and cache.rs); docs/porep.md tells the story and
 * the checks.
 *
 * Conventions (see base/base.h for the project-wide ones):
 *  - Fallible functions return 0 or a negative gm_status_t and fill err
 *    (which may be NULL) with a message naming the option, file and value.
 *  - Node indices are u32 (rust-fil-proofs stores them so); a graph has at
 *    most UINT32_MAX nodes. Sector sizes are in bytes; a node is 32 bytes.
 *  - Nothing here prints or starts threads; the parent-cache writer runs its
 *    tiles on a caller's topo_pool_t (or on the caller when it is NULL).
 *  - Thread safety: a porep_graph_t is read-only after porep_graph_init and
 *    may be shared by threads; a porep_scratch_t belongs to one thread at a
 *    time.
 *  - Ownership: porep_graph_init allocates the graph's Feistel round table
 *    (at most 3 MiB); porep_graph_destroy frees it. A copy of a graph shares
 *    the table and must not outlive the original.
 */
#ifndef GM_SYNTH_POREP_H
#define GM_SYNTH_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "topo/topo.h"

#define POREP_NODE_SIZE 32  /* bytes per node */
#define POREP_BASE_DEGREE 6 /* DRG parents per node, the predecessor included */
#define POREP_EXP_DEGREE 8  /* expander parents per node */
#define POREP_DEGREE 14     /* parents per node: base, then expander */
#define POREP_CACHE_ENTRY_BYTES (POREP_DEGREE * 4) /* one node in the cache file */

/* ---- registered seal proofs and porep_id ------------------------------------- */

/* The proofs API version of a seal proof (rust-fil-proofs ApiVersion). 1.0
 * graphs put the predecessor last among the DRG parents and truncate the
 * Feistel output to u32 before dividing; 1.1 and 1.2 graphs put it first and
 * divide in u64. */
typedef enum {
    POREP_API_1_0 = 0,
    POREP_API_1_1 = 1,
    POREP_API_1_2 = 2,
} porep_api_t;

/* One registered seal proof (filecoin-proofs-api RegisteredSealProof). */
typedef struct {
    uint32_t id;          /* its registered id, 0..19: byte 0 of its porep_id */
    uint64_t sector_size; /* bytes */
    porep_api_t api;
    const char *name;     /* "StackedDrg32GiBV1_1", ... */
} porep_proof_t;

/* The registered seal proof of this sector size and API version without a
 * feature (V1: ids 0..4, V1_1: ids 5..9), or NULL when there is none (an
 * unregistered size, or API 1.2, whose proofs all carry a feature). */
const porep_proof_t *porep_proof_find(uint64_t sector_size, porep_api_t api);

/* The registered seal proof with this id (0..19, the SyntheticPoRep and
 * NonInteractivePoRep features included), or NULL. */
const porep_proof_t *porep_proof_by_id(uint32_t id);

/* Writes the 32-byte porep_id of a registered seal proof as
 * filecoin-proofs-api computes it: the id as u64 little-endian in bytes 0..7,
 * the nonce (0 for every registered proof) as u64 LE in bytes 8..15, zeros in
 * 16..31. */
void porep_id_make(uint8_t out[32], const porep_proof_t *proof);

/* Parses a sector size: a decimal byte count, optionally followed by KiB,
 * MiB or GiB (case-insensitive), e.g. "2KiB", "536870912", "32gib". Any
 * positive size that fits in u64 parses; whether it is registered is
 * porep_proof_find's question. `what` names the source in messages (an
 * option such as "--sector-size", or "file: field"). Returns 0 or GM_EINVAL
 * (err: "<what>: '<s>' is not a sector size ..."); *out is untouched then. */
int porep_sector_size_parse(uint64_t *out, const char *s, const char *what, err_t *err)
    __attribute__((warn_unused_result));

/* Parses an API version: "1", "1.0", "1.0.0", "1.1", "1.1.0", "1.2",
 * "1.2.0". Returns 0 or GM_EINVAL (err names `what` and s). */
int porep_api_parse(porep_api_t *out, const char *s, const char *what, err_t *err)
    __attribute__((warn_unused_result));

/* "1.0.0", "1.1.0" or "1.2.0". */
const char *porep_api_name(porep_api_t api);

/* Writes a sector size as "2KiB", "512MiB", "32GiB" (largest exact binary
 * unit) or a byte count into buf (NUL-terminated, truncated to n). */
void porep_sector_size_format(char *buf, size_t n, uint64_t sector_size);

/* ---- ChaCha8 ------------------------------------------------------------------ */

/* One 64-byte block of ChaCha with 8 rounds (4 double rounds), in D. J.
 * Bernstein's original layout as rand_chacha's ChaCha8Rng uses it: 256-bit
 * key read as 8 u32 LE words, 64-bit block counter in state words 12..13 and
 * 64-bit stream (nonce) in words 14..15. Writes the 16 output words; their
 * LE bytes are the keystream. ChaCha8Rng::from_seed(seed) yields blocks
 * counter = 0, 1, 2, ... with stream 0, and its next_u64 is word 2k | word
 * 2k+1 << 32. */
void porep_chacha8_block(uint32_t out[16], const uint8_t key[32], uint64_t counter, uint64_t stream);

/* ---- scratch for the hashing Feistel functions ------------------------------ */

/* Per-thread state of an untabulated Feistel permutation (a BLAKE2b-512
 * context). */
typedef struct porep_scratch porep_scratch_t;

/* Creates one. Returns 0, GM_ENOMEM, or GM_ENOTSUP (libcrypto has no
 * BLAKE2B-512; err says so). *out is NULL on failure. */
int porep_scratch_create(porep_scratch_t **out, err_t *err) __attribute__((warn_unused_result));

/* Frees one; NULL is allowed. */
void porep_scratch_destroy(porep_scratch_t *s);

/* ---- Feistel permutation ------------------------------------------------------ */

/* A pseudo-random permutation of [0, n) (storage-proofs-core feistel.rs):
 * 3 Feistel rounds over a domain of 4^h >= n values (h >= 1), halves of h
 * bits, round function F(r, k) = the first 8 bytes (big-endian) of
 * BLAKE2b-512(r as u64 BE || k as u64 BE) masked to h bits, and
 * cycle-walking until the value is below n.
 *
 * F takes only 2^h values of r per round key, so porep_feistel_tabulate can
 * store all 3 * 2^h of them; the permutation then needs no hashing and no
 * scratch. */
typedef struct {
    uint64_t n;          /* domain size, >= 1 */
    unsigned half_bits;  /* h */
    uint64_t right_mask; /* 2^h - 1 */
    uint64_t keys[4];    /* round keys; only keys[0..2] are used */
    uint32_t *table;     /* NULL, or F(r, keys[j]) at [j << h | r] (from porep_feistel_tabulate) */
} porep_feistel_t;

#define POREP_FEISTEL_TABLE_MAX_BITS 20 /* largest h porep_feistel_tabulate takes (12 MiB) */

/* Fills *f for the domain [0, n) and the keys, without a table. n must be
 * in 1..2^62. */
void porep_feistel_init(porep_feistel_t *f, uint64_t n, const uint64_t keys[4]);

/* Computes f's round table (3 * 2^h u32, from gm_alloc; 1.5 MiB for the
 * 32 and 64 GiB graphs). Returns 0, GM_EINVAL (h above
 * POREP_FEISTEL_TABLE_MAX_BITS), GM_ENOMEM or GM_ENOTSUP (no BLAKE2B-512 in
 * libcrypto); f is unchanged on failure. Call porep_feistel_release when done. */
int porep_feistel_tabulate(porep_feistel_t *f, err_t *err) __attribute__((warn_unused_result));

/* Frees f's table, if any (f->table becomes NULL). */
void porep_feistel_release(porep_feistel_t *f);

/* The image of idx (idx < f->n) under the permutation; in [0, f->n). With
 * a table s is not used and may be NULL; without one it must not be. */
uint64_t porep_feistel_permute(const porep_feistel_t *f, uint64_t idx, porep_scratch_t *s);

/* The preimage of idx under porep_feistel_permute (idx < f->n); s as there. */
uint64_t porep_feistel_invert(const porep_feistel_t *f, uint64_t idx, porep_scratch_t *s);

/* ---- the SDR graph ------------------------------------------------------------ */

#define POREP_CACHE_NAME_LEN 96

/* The stacked DRG of one sector: read-only after porep_graph_init. */
typedef struct {
    uint64_t nodes;         /* sector_size / 32, 1..UINT32_MAX */
    porep_api_t api;
    uint8_t porep_id[32];
    uint8_t drg_seed[28];   /* SHA256("Filecoin_DRSample" || porep_id)[0..28] */
    porep_feistel_t feistel; /* n = 8 * nodes, keys from SHA256("Filecoin_Feistel" || porep_id) as 4 u64 LE; tabulated */
    char cache_name[POREP_CACHE_NAME_LEN]; /* rust-fil-proofs' cache file name (see below) */
} porep_graph_t;

/* Derives the graph of `nodes` nodes for porep_id and api: the DRG seed,
 * the Feistel keys and their round table (3 * 2^h BLAKE2b-512 calls, 4^h >=
 * 8 * nodes: about 0.1 s for 32 GiB), and the parent cache file name that
 * rust-fil-proofs gives it, "v28-sdr-parent-<hex>.cache" with <hex> =
 * SHA256("poseidon_hasher" || graph identifier string || 4 Feistel keys as
 * u64 LE || nodes as u32 LE). Returns 0, GM_EINVAL (nodes is 0 or above
 * UINT32_MAX; err names the value), GM_ENOMEM or GM_ENOTSUP (libcrypto
 * failed to hash). Nothing needs freeing after a failure; after success,
 * call porep_graph_destroy. */
int porep_graph_init(porep_graph_t *g, uint64_t nodes, const uint8_t porep_id[32], porep_api_t api,
                     err_t *err) __attribute__((warn_unused_result));

/* Frees what porep_graph_init allocated; g may be NULL or zero-filled. */
void porep_graph_destroy(porep_graph_t *g);

/* The 6 DRG parents of node (< g->nodes) in rust-fil-proofs' order: nodes 0
 * and 1 have all parents 0; otherwise API 1.1/1.2 put node - 1 first and 5
 * bucket-sampled parents after it, API 1.0 the sampled ones first and node - 1
 * last. Every parent of a node >= 1 is < node. */
void porep_graph_base_parents(uint32_t out[POREP_BASE_DEGREE], const porep_graph_t *g, uint32_t node);

/* The 8 expander parents of node (< g->nodes), nodes of the previous layer,
 * each < g->nodes: parent i = feistel_permute(8 * node + i) / 8 (API 1.0:
 * the permuted value truncated to u32 first). */
void porep_graph_exp_parents(uint32_t out[POREP_EXP_DEGREE], const porep_graph_t *g, uint32_t node);

/* The 14 parents of node: the 6 base parents, then the 8 expander parents. */
void porep_graph_parents(uint32_t out[POREP_DEGREE], const porep_graph_t *g, uint32_t node);

/* ---- the parent cache --------------------------------------------------------- */

/* Writes the cache entries of nodes [first, first + count) into out
 * (count * POREP_CACHE_ENTRY_BYTES bytes): per node its 14 parents as u32
 * little-endian. first + count <= g->nodes. */
void porep_parent_cache_fill(uint8_t *out, const porep_graph_t *g, uint64_t first, uint64_t count);

/* The SHA-256 digest (lower-case hex, 64 characters) that rust-fil-proofs'
 * parent_cache.json publishes for g->cache_name, or NULL when the manifest
 * has no such entry (a size or porep_id without a production cache). */
const char *porep_parent_cache_published(const porep_graph_t *g);

/* Called from the calling thread after each chunk: done of total nodes. */
typedef void (*porep_progress_fn)(void *arg, uint64_t done, uint64_t total);

/* Generates the whole parent cache of g (g->nodes * 56 bytes) in chunks of
 * bounded size, tiles of each chunk on pool's workers (NULL: the caller),
 * and writes its SHA-256 into digest.
 *
 * path NULL: nothing is written (digest only). Otherwise the file is written
 * atomically: to "<path>.tmp.<pid>" in the same directory, fsynced, checked,
 * renamed over path, and the directory fsynced. When expect_hex is not NULL
 * and the digest differs from it (compared case-insensitively), nothing is
 * installed and GM_EVERIFY is returned (digest still holds what was
 * computed). progress may be NULL.
 *
 * Returns 0; GM_EIO (the temporary file could not be created, written,
 * synced or renamed; err names the path and the OS error); GM_EVERIFY;
 * GM_ENOMEM (the chunk buffer) or GM_ENOTSUP (libcrypto SHA-256 failed). After a failure no temporary file
 * remains and path is untouched, except when only the final fsync of the
 * directory fails (GM_EIO): the complete file is in place by then. */
int porep_parent_cache_write(uint8_t digest[32], const char *path, const porep_graph_t *g,
                             const char *expect_hex, topo_pool_t *pool, porep_progress_fn progress,
                             void *progress_arg, err_t *err) __attribute__((warn_unused_result));

#endif /* GM_SYNTH_POREP_H */
