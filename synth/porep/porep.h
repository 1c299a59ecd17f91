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
const porep_proof_t *porep_proof_find(uint64_t sector_size, porep_api_t api)
    __attribute__((warn_unused_result));

/* The registered seal proof with this id (0..19, the SyntheticPoRep and
 * NonInteractivePoRep features included), or NULL. */
const porep_proof_t *porep_proof_by_id(uint32_t id) __attribute__((warn_unused_result));

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

/* ==== sealing data and vanilla proofs ==========================================
 *
 * Everything below works on 32-byte "domains" as rust-fil-proofs stores
 * them: a label, a data node, a tree node or a commitment is 32 bytes, read
 * as a little-endian integer below the BLS12-381 scalar modulus r (Poseidon
 * inputs) or as the SHA-256 digest with its top two bits cleared. The byte
 * layout is exactly the one of Sha256Domain / PoseidonDomain, so the C1 JSON
 * (arrays of 32 numbers) maps to porep_dom_t directly.
 *
 * Sources of the algorithms: rust-fil-proofs @ 87348a7,
 * storage-proofs-porep/src/stacked/vanilla/{create_label/single.rs,
 * labeling_proof.rs, encoding_proof.rs, column.rs, params.rs, challenges.rs,
 * proof.rs}, storage-proofs-core/src/merkle/proof.rs, filecoin-hashers;
 * docs/porep.md tells how each was checked.
 */

#include "synth/synth.h"

#define POREP_MAX_LAYERS 11      /* 32 and 64 GiB sectors */
#define POREP_LABEL_PARENTS 37   /* parents hashed per label (with repetition) */
#define POREP_LABEL_PREIMAGE 1248 /* 64-byte prefix + 37 * 32 */
#define POREP_MAX_TREE_LEVELS 32 /* levels of one Merkle path (comm_d of 64 GiB: 31) */
#define POREP_MAX_ARITY 8

/* 32 bytes as rust-fil-proofs' Domain types hold them. */
typedef struct {
    uint8_t b[32];
} porep_dom_t;

/* The sector shape of a registered sector size (rust-fil-proofs constants.rs,
 * SectorShape*): layers, partitions, challenges per partition, and the tree
 * shape of tree_c / tree_r_last (oct base trees, then an optional sub level of
 * arity 8 and top level of arity 2). */
typedef struct {
    uint64_t sector_size, nodes;
    unsigned log2_nodes;
    unsigned layers;        /* 2 or 11 */
    unsigned partitions;    /* 1 or 10 */
    unsigned challenges;    /* per partition: 2 or 18 */
    unsigned base_levels;   /* oct levels of one base tree */
    unsigned sub_arity, top_arity; /* 0 (none), 8; 0, 2 */
    unsigned base_trees;    /* (sub ? sub : 1) * (top ? top : 1) */
} porep_shape_t;

/* Fills *s for 2 KiB, 8 MiB, 512 MiB, 32 GiB or 64 GiB. Returns 0 or
 * GM_EINVAL (err: "sector size N: not a registered PoRep sector size"). */
int porep_shape_init(porep_shape_t *s, uint64_t sector_size, err_t *err) __attribute__((warn_unused_result));

/* ---- labels, replica_id, challenges, encoding --------------------------------- */

/* replica_id = SHA256(prover_id || sector_id as u64 BE || ticket || comm_d ||
 * porep_id) with byte 31 &= 0x3F (storage-proofs-porep generate_replica_id). */
void porep_replica_id(porep_dom_t *out, const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const porep_dom_t *comm_d, const uint8_t porep_id[32]);

/* The prover_id of a miner actor id as lotus makes it: the ID address payload
 * (unsigned LEB128 of the id) in the first bytes, zeros after. */
void porep_prover_id_from_actor(uint8_t out[32], uint64_t actor_id);

/* One label: SHA256(replica_id || layer u32 BE || node u64 BE || 20 zero bytes
 * || parents[0..n]) with byte 31 &= 0x3F. n is 0 (node 0) or 37. */
void porep_label_hash(porep_dom_t *out, const porep_dom_t *replica_id, uint32_t layer, uint64_t node,
                      const porep_dom_t *parents, unsigned n);

/* The 37 parent labels of a label from its 14 parents' values: layer 1 uses
 * the 6 DRG values 6 times and then the first again; layers > 1 use the 14
 * values (DRG at this layer, expander at the previous one) twice and then the
 * first 9. vals holds 6 (layer 1) or 14 values. */
void porep_label_parents_expand(porep_dom_t out[POREP_LABEL_PARENTS], const porep_dom_t *vals, uint32_t layer);

/* Computes every label of every layer, sequentially in node order (node i
 * depends on i - 1): labels holds layers * g->nodes domains, layer l (1-based)
 * at [(l - 1) * nodes]. progress (may be NULL) is called after each 2^16 nodes
 * with done and total = layers * nodes. Returns 0 or GM_ENOTSUP (libcrypto's
 * SHA-256 failed; err says so). */
int porep_labels_compute(porep_dom_t *labels, const porep_graph_t *g, unsigned layers, const porep_dom_t *replica_id,
                         porep_progress_fn progress, void *progress_arg, err_t *err)
    __attribute__((warn_unused_result));

/* The interactive PoRep challenges of partition k: for i < n, j = n * k + i,
 * h = SHA256(replica_id || seed || j as u32 LE), challenge = (h as LE integer
 * mod (nodes - 1)) + 1 (storage-proofs-porep challenges.rs). */
void porep_challenges_derive(uint64_t *out, unsigned n, uint64_t nodes, const porep_dom_t *replica_id,
                             const uint8_t seed[32], unsigned k);

/* Encoding: replica = data + key in Fr. replica may alias data or key.
 * Returns GM_ENONCANON when data or key is not below r (replica untouched). */
int porep_encode(porep_dom_t *replica, const porep_dom_t *key, const porep_dom_t *data)
    __attribute__((warn_unused_result));

/* ---- Merkle trees ---------------------------------------------------------------- */

typedef enum {
    POREP_HASH_SHA256 = 0,   /* binary, node = SHA256(l || r), byte 31 &= 0x3F (tree_d) */
    POREP_HASH_POSEIDON = 1, /* Poseidon of the children's Fr values (tree_c, tree_r_last) */
} porep_hash_t;

/* A Merkle tree shape: level arities from the leaves up (a compound tree's
 * base levels, then its sub and top level), so leaf index i has mixed-radix
 * digits (i mod a0, i / a0 mod a1, ...). leaves = product of the arities. */
typedef struct {
    porep_hash_t hash;
    unsigned n_levels;
    unsigned arity[POREP_MAX_TREE_LEVELS];
    uint64_t leaves;
    uint64_t level_off[POREP_MAX_TREE_LEVELS + 1]; /* node offset of each level in a dense tree; [n_levels] = root */
    uint64_t total;                                /* nodes of a dense tree, root included */
} porep_tree_shape_t;

/* tree_d of a shape: SHA-256, log2_nodes binary levels. */
void porep_tree_shape_d(porep_tree_shape_t *t, const porep_shape_t *s);
/* tree_c and tree_r_last of a shape: Poseidon, base oct levels, sub, top. */
void porep_tree_shape_rc(porep_tree_shape_t *t, const porep_shape_t *s);

/* One level of a Merkle path: the arity - 1 other children in order, and the
 * position of the path's own node among the arity children. */
typedef struct {
    uint8_t n_hashes; /* arity - 1 */
    uint8_t index;    /* 0..arity-1 */
    porep_dom_t hashes[POREP_MAX_ARITY - 1];
} porep_path_elem_t;

/* rust-fil-proofs' MerkleProof: Single (base path only), Sub (base + one sub
 * element) or Top (base + sub + top element). */
typedef enum { POREP_MP_SINGLE = 0, POREP_MP_SUB = 1, POREP_MP_TOP = 2 } porep_mp_kind_t;

typedef struct {
    porep_mp_kind_t kind;
    porep_dom_t root, leaf;
    unsigned n_path; /* all elements: base ones first, then sub, then top */
    porep_path_elem_t path[POREP_MAX_TREE_LEVELS];
} porep_merkle_proof_t;

/* The hash contexts the trees and the verifier need (Poseidon 2, 8, 11 and
 * the others), created once; read-only and shareable afterwards. */
typedef struct {
    poseidon_set_t ps;
} porep_hashers_t;

int porep_hashers_init(porep_hashers_t *h, err_t *err) __attribute__((warn_unused_result));
void porep_hashers_free(porep_hashers_t *h);

/* Hashes n children (n = 2 for SHA-256; 2, 4, 8 or 11 for Poseidon). Returns
 * 0, or GM_ENONCANON for a Poseidon child that is not below r (out
 * untouched). */
int porep_tree_hash(porep_dom_t *out, const porep_hashers_t *h, porep_hash_t hash, const porep_dom_t *children,
                    unsigned n) __attribute__((warn_unused_result));

/* The column hash (tree_c leaf): Poseidon of arity n (2 or 11) over the
 * layers' labels. GM_ENONCANON / GM_EINVAL (another n) as above. */
int porep_column_hash(porep_dom_t *out, const porep_hashers_t *h, const porep_dom_t *rows, unsigned n)
    __attribute__((warn_unused_result));

/* Builds a dense tree whose leaves are already in nodes[0..leaves): fills
 * every level above them, root last at nodes[t->total - 1]. Each level runs
 * in rounds of at most 2^15 parents, split into tiles on pool (NULL: the
 * caller); progress (may be NULL) is called from the calling thread after
 * each round with the parents done and the tree's total. Returns 0 or
 * GM_ENONCANON (a child not below r in a Poseidon tree; err names the
 * range). */
int porep_tree_build(porep_dom_t *nodes, const porep_tree_shape_t *t, const porep_hashers_t *h, topo_pool_t *pool,
                     porep_progress_fn progress, void *progress_arg, err_t *err) __attribute__((warn_unused_result));

/* The per-level digests of a tree whose leaves are all `leaf`: out[0] = leaf,
 * out[l + 1] = hash of arity[l] copies of out[l]; t->n_levels + 1 entries. */
int porep_tree_empty(porep_dom_t *out, const porep_tree_shape_t *t, const porep_hashers_t *h, const porep_dom_t *leaf)
    __attribute__((warn_unused_result));

/* Reads node `index` of level `level` of a tree (level 0: the leaves). */
typedef int (*porep_node_fn)(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err);

/* The inclusion proof of leaf `index` in the tree of shape t whose nodes
 * `get` reads, in rust-fil-proofs' form: kind Single when the shape has no
 * sub/top level (n_sub_top = 0), Sub (1) or Top (2) otherwise. */
int porep_tree_prove(porep_merkle_proof_t *out, const porep_tree_shape_t *t, unsigned n_sub_top, uint64_t index,
                     porep_node_fn get, void *arg, err_t *err) __attribute__((warn_unused_result));

/* The root computed from a proof's leaf and path (each level hashes the
 * element's hashes with the running value inserted at index), and the leaf
 * index its path encodes (mixed radix, leaf level first). Returns 0,
 * GM_EFORMAT (an element whose index or size does not fit its arity) or
 * GM_ENONCANON (a Poseidon value not below r). */
int porep_merkle_root(porep_dom_t *root, uint64_t *index, const porep_merkle_proof_t *p, porep_hash_t hash,
                      const porep_hashers_t *h) __attribute__((warn_unused_result));

/* ---- C1: SealCommitPhase1Output ------------------------------------------------- */

/* A column and its inclusion proof in tree_c (ColumnProof). */
typedef struct {
    uint32_t index;   /* column.index: the node */
    unsigned n_rows;  /* layers */
    porep_dom_t rows[POREP_MAX_LAYERS]; /* rows[0] = layer 1 */
    porep_merkle_proof_t proof;
} porep_column_proof_t;

/* LabelingProof and EncodingProof: the 37 parent values hashed into one label. */
typedef struct {
    uint32_t layer_index; /* 1-based */
    uint64_t node;
    unsigned n_parents;   /* 37 */
    porep_dom_t parents[POREP_LABEL_PARENTS];
} porep_label_proof_t;

/* One challenge's vanilla proof (storage-proofs-porep stacked::Proof). */
typedef struct {
    porep_merkle_proof_t comm_d_proof;      /* SHA-256 tree_d, Single */
    porep_merkle_proof_t comm_r_last_proof; /* Poseidon tree_r_last */
    porep_column_proof_t c_x;               /* the challenged column */
    unsigned n_drg, n_exp;                  /* 6, 8 */
    porep_column_proof_t drg[POREP_BASE_DEGREE];
    porep_column_proof_t exp[POREP_EXP_DEGREE];
    unsigned n_labeling;                    /* layers */
    porep_label_proof_t labeling[POREP_MAX_LAYERS];
    porep_label_proof_t encoding;
} porep_vproof_t;

/* A whole C1 output. proofs holds partitions * challenges entries, partition
 * major: proofs[k * challenges + i]. This is what the circuit witness code
 * consumes (see porep_c1_witness). */
typedef struct {
    const porep_proof_t *proof; /* registered_proof */
    porep_shape_t shape;
    unsigned partitions, challenges;
    porep_vproof_t *proofs;
    porep_dom_t comm_r, comm_d, replica_id;
    uint8_t seed[32], ticket[32];
} porep_c1_t;

/* The VanillaSealProof variant name of a proof: "StackedDrg<size>V1" for every
 * API version and feature (filecoin-proofs-api seal.rs). */
const char *porep_c1_variant(const porep_proof_t *proof);

/* Allocates c->proofs for partitions * challenges entries (zeroed). Returns 0
 * or GM_ENOMEM. */
int porep_c1_alloc(porep_c1_t *c, unsigned partitions, unsigned challenges, err_t *err)
    __attribute__((warn_unused_result));

/* Frees c->proofs (c may be zero-filled). */
void porep_c1_free(porep_c1_t *c);

/* Reads a C1 JSON file (serde_json of filecoin-proofs-api
 * SealCommitPhase1Output, as lotus and curio write it). Every length, byte
 * array and field is checked; the first problem is GM_EFORMAT with a
 * message naming the file and the JSON path, e.g. "c1.json:
 * vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents[2].column.rows[0]:
 * expected 32 bytes, got 31" (an unknown registered_proof, a variant that
 * does not match it, a Merkle proof kind or path length that does not fit
 * the sector's tree shape included). Text that is not JSON is GM_EFORMAT
 * with line and column; a file that cannot be read is GM_EIO. Unknown fields
 * are ignored, as serde does. The wrapper lotus-bench and curio write,
 * {"SectorNum", "Phase1Out": base64 of that JSON, "SectorSize"}, is read
 * too (Phase1Out not base64 or not JSON, or a SectorSize that is not the
 * registered proof's, is GM_EFORMAT naming the field). Memory: jansson's tree while reading (about
 * 0.5 GB for the 37 MB C1 of a 32 GiB sector), then 25 MB of proofs. *c is
 * zero-filled on failure; on success call porep_c1_free. */
int porep_c1_read(porep_c1_t *c, const char *path, err_t *err) __attribute__((warn_unused_result));

/* Writes c as C1 JSON in the same layout, atomically (temporary file, fsync,
 * rename, directory fsync). Returns 0 or GM_EIO. */
int porep_c1_write(const porep_c1_t *c, const char *path, err_t *err) __attribute__((warn_unused_result));

/* Checks every vanilla proof of c natively: the challenges are those derived
 * for its registered proof (porep_challenges: interactive from replica_id
 * and seed, SyntheticPoRep also from comm_r; NonInteractivePoRep proofs are
 * GM_ENOTSUP), every path hashes to its root and proves its node, the
 * parents are the graph's, columns hash to their tree_c leaves, tree_c roots
 * agree, comm_r = Poseidon2(comm_c, comm_r_last), each label is the hash of
 * its parents (which are the columns' values), and the encoding holds. The
 * first failure is GM_EVERIFY with a message naming `name` (the file), the
 * JSON path and the check, e.g. "c1.json:
 * vanilla_proofs.StackedDrg2KiBV1[0][1] (challenge 37): labeling_proofs[1]:
 * label does not match replica_column_proofs.c_x.column.rows[1]". g must be
 * the graph of c->proof (porep_graph_init). Returns 0 when all hold. */
int porep_c1_verify(const porep_c1_t *c, const porep_graph_t *g, const porep_hashers_t *h, const char *name,
                    err_t *err) __attribute__((warn_unused_result));

/* Fills the circuit witness of partition k (synth.h stacked_witness_t, whose
 * arrays the caller allocated for cfg->challenges challenges with
 * cfg->path_siblings / comm_d_depth siblings) from c. Returns 0 or
 * GM_EINVAL (k out of range or a shape that disagrees with cfg). */
int porep_c1_witness(stacked_witness_t *w, const stacked_config_t *cfg, const porep_c1_t *c, unsigned k,
                     err_t *err) __attribute__((warn_unused_result));

/* ---- sealing ---------------------------------------------------------------------- */

/* What a sealed sector directory holds (seal.json plus the data files). */
typedef struct {
    const porep_proof_t *proof;
    porep_shape_t shape;
    uint8_t prover_id[32], ticket[32];
    uint64_t sector_id;
    porep_dom_t replica_id, comm_d, comm_c, comm_r_last, comm_r;
} porep_sealed_t;

/* Seal options. data: NULL for generated data, else a file of the sector
 * size (fr32-padded nodes, each below r) or of at most sector_size * 127 /
 * 128 bytes (unpadded: it is fr32-padded and zero-filled here). gen: with no
 * file, 0 = pseudo-random nodes from seed, 1 = all zero (a CC sector). */
typedef struct {
    const porep_proof_t *proof;
    const char *data;
    int zero;
    uint8_t seed[32];
    uint8_t prover_id[32], ticket[32];
    uint64_t sector_id;
} porep_seal_opts_t;

/* Progress of a seal: phase is "tree_d", "labels", "column hashes",
 * "tree_c", "encoding", "tree_r_last" or "writing files"; done of total
 * units of that phase. Each phase ends with a call where done == total
 * (possibly two). */
typedef void (*porep_seal_progress_fn)(void *arg, const char *phase, uint64_t done, uint64_t total);

/* Seals into directory dir (created if missing): tree-d.dat (data and
 * tree_d, all levels), labels.dat (every layer), tree-c.dat, tree-r-last.dat
 * (replica leaves and all levels) and seal.json (metadata and commitments in
 * hex), each written atomically, seal.json last. Tiles run on pool.
 * progress (may be NULL) is called from the calling thread. Returns 0,
 * GM_EINVAL (bad data file size or a data node not below r), GM_ENOTSUP (32
 * or 64 GiB), GM_EIO, GM_ENOMEM. */
int porep_seal(porep_sealed_t *out, const char *dir, const porep_seal_opts_t *o, topo_pool_t *pool,
               porep_seal_progress_fn progress, void *progress_arg, err_t *err) __attribute__((warn_unused_result));

/* Reads dir/seal.json. Returns 0, GM_EIO or GM_EFORMAT (err names the file
 * and field). */
int porep_sealed_load(porep_sealed_t *out, const char *dir, err_t *err) __attribute__((warn_unused_result));

/* C1 of a sealed directory: derives the challenges of every partition
 * (porep_challenges for the sector's registered proof: interactive, or
 * SyntheticPoRep from replica_id, comm_r and the seed) and builds their
 * vanilla proofs from the sector files. c is filled (call porep_c1_free).
 * Returns 0, GM_EIO, GM_EFORMAT (files of the wrong size), GM_ENOMEM, or
 * porep_challenges' GM_ENOTSUP. */
int porep_c1_prove(porep_c1_t *c, const char *dir, const uint8_t seed[32], const porep_hashers_t *h, err_t *err)
    __attribute__((warn_unused_result));

/* A sparse synthetic C1 for any shape (32 and 64 GiB included): replica_id,
 * ticket and seed drawn from `seed`; the challenges derived for real; every
 * challenged node's and parent's column random except the challenged labels,
 * which are computed with SHA-256 from their parents layer by layer; data
 * leaves random; the three trees sparse (untouched subtrees take per-level
 * empty digests over zero leaves) so roots, paths, comm_c, comm_r_last and
 * comm_r are consistent and porep_c1_verify accepts the result. Returns 0 or
 * GM_ENOMEM / GM_ENOTSUP. */
int porep_c1_synthetic(porep_c1_t *c, const porep_proof_t *proof, const uint8_t seed[32], const porep_hashers_t *h,
                       err_t *err) __attribute__((warn_unused_result));

/* Parses a 32-byte value: 64 hex digits (an "0x" before them allowed), or
 * any other text, hashed with SHA-256 (so "--seed 1" is reproducible).
 * Returns true when s was hashed, so a caller can say so: 63 digits are
 * more likely a typo than a chosen text. */
bool porep_seed_parse(uint8_t out[32], const char *s);

/* ---- temporary files ------------------------------------------------------------- */

/* Every output of porep_seal, porep_c1_write and porep_parent_cache_write is
 * written atomically by base/'s gm_afile_* (temporary "<target>.tmp.<pid>",
 * gm_file_temp_name), and each first removes the temporaries of dead earlier
 * writers of its targets (gm_file_sweep_temps). */

/* The files porep_seal writes into its directory, seal.json last. */
#define POREP_SEAL_FILES 5
extern const char *const porep_seal_files[POREP_SEAL_FILES];

/* ==== verify-seal: a sector's public data ====================================
 *
 * What rust-fil-proofs' verify_seal takes (filecoin-proofs api/seal.rs):
 * a PoRepConfig (sector size, partitions, porep_id, API version, features),
 * comm_r, comm_d, prover_id, sector_id, ticket, seed and the proof bytes.
 * From these alone the verifier derives replica_id, the challenges and
 * every public input of each partition (porep_public_inputs); the C1 path
 * (circuit_porep_c1_inputs) feeds the same function.
 */

/* How the challenges of a partition are drawn (storage-proofs-porep
 * stacked/vanilla/challenges.rs): interactive (from replica_id and the seed),
 * SyntheticPoRep (the seed selects among 2^18 synthetic challenges drawn
 * from replica_id and comm_r) or NonInteractivePoRep (from replica_id and
 * comm_r; no seed). */
typedef enum {
    POREP_CHAL_INTERACTIVE = 0,
    POREP_CHAL_SYNTHETIC = 1,
    POREP_CHAL_NI = 2,
} porep_chal_kind_t;

/* rust-fil-proofs' PoRepConfig, with what it implies. */
typedef struct {
    porep_shape_t shape;      /* of sector_size */
    porep_api_t api;
    uint8_t porep_id[32];
    porep_chal_kind_t kind;
    unsigned partitions;      /* Groth16 proofs per sector: 1 or 10; NI: 13 or 126 */
    unsigned challenges;      /* per partition: ceil(minimum challenges / partitions) */
} porep_config_t;

/* Fills *c from its parts. The sector size must be registered (2KiB, 8MiB,
 * 512MiB, 32GiB, 64GiB); partitions and challenges follow from the size and
 * kind as rust-fil-proofs' PoRepConfig::new_groth16_with_features and
 * setup_params compute them (interactive and synthetic: 2 challenges in 1
 * partition below 32 GiB, 176 in 10 from 32 GiB; NI: 26 in 13, 2253 in 126).
 * Returns 0 or GM_EINVAL (err names the size, or an API version below 1.2
 * with a feature). */
int porep_config_init(porep_config_t *c, uint64_t sector_size, const uint8_t porep_id[32], porep_api_t api,
                      porep_chal_kind_t kind, err_t *err) __attribute__((warn_unused_result));

/* The config of a registered seal proof (ids 0..19; 10..14 are synthetic,
 * 15..19 non-interactive), with porep_id from porep_id_make. Returns 0 or
 * GM_EINVAL. */
int porep_config_from_proof(porep_config_t *c, const porep_proof_t *p, err_t *err)
    __attribute__((warn_unused_result));

/* "interactive", "SyntheticPoRep" or "NonInteractivePoRep". */
const char *porep_chal_kind_name(porep_chal_kind_t k);

/* The challenges of partition k (< c->partitions) into out (c->challenges
 * entries), each in 1 .. nodes - 1. comm_r is used by the synthetic and NI
 * kinds, seed by the interactive and synthetic ones. Returns 0, GM_EINVAL
 * (k out of range) or GM_ENOTSUP (libcrypto lacks ChaCha20 or BLAKE2BMAC). */
int porep_challenges(uint64_t *out, const porep_config_t *c, const porep_dom_t *replica_id,
                     const porep_dom_t *comm_r, const uint8_t seed[32], unsigned k, err_t *err)
    __attribute__((warn_unused_result));

/* What the circuit's public inputs are derived from. */
typedef struct {
    const porep_config_t *cfg;
    porep_dom_t replica_id, comm_d, comm_r;
    uint8_t seed[32];
} porep_public_t;

/* Public inputs per partition, without ONE: 3 + 18 per challenge (39 for
 * 2 KiB .. 512 MiB, 327 for 32 and 64 GiB). */
size_t porep_public_input_count(const porep_config_t *c);

/* The public inputs of partition k (porep_public_input_count entries) as
 * StackedCompound::generate_public_inputs derives them: replica_id, comm_d,
 * comm_r, then per challenge c: c (comm_d inclusion), the 6 DRG and 8
 * expander parents of c (their comm_c inclusions), c, c (comm_r_last
 * inclusion), c (comm_c inclusion). g is the graph of p->cfg (nodes,
 * porep_id, API). Returns 0, GM_EINVAL (k out of range, a graph of another
 * size), GM_ENONCANON (replica_id, comm_d or comm_r not below r; err names
 * it) or porep_challenges' errors. */
int porep_public_inputs(fr_t *out, const porep_public_t *p, const porep_graph_t *g, unsigned k, err_t *err)
    __attribute__((warn_unused_result));

/* The graph of a config (porep_graph_init with its nodes, porep_id, API). */
int porep_config_graph(porep_graph_t *g, const porep_config_t *c, err_t *err) __attribute__((warn_unused_result));

/* One seal to verify, as read from a regression record, a SealVerifyInfo or
 * flags. status is 0, or the error that reading this entry met (msg holds its
 * line); the other entries of the same file are still read. */
typedef struct {
    char label[96];           /* "records.json line 3", "svi.json[2]" */
    int status;
    char msg[GM_ERR_MSG_LEN];
    porep_config_t cfg;
    porep_dom_t comm_r, comm_d;
    uint8_t prover_id[32], ticket[32], seed[32];
    uint64_t sector_id;
    uint8_t *proof;           /* gm_alloc'd */
    size_t proof_len;
} porep_seal_info_t;

/* Frees an array of n entries from porep_seal_info_read (NULL allowed). */
void porep_seal_info_free(porep_seal_info_t *s, size_t n);

/* Reads seals to verify from text (len bytes, named `name` in messages):
 *  - JSON Lines of rust-fil-proofs' SealRegressionRecord (filecoin-proofs
 *    tests/regression.rs: porep_config{sector_size, partitions, porep_id,
 *    api_version "V1_x_0", api_features}, comm_r, comm_d, prover_id,
 *    sector_id, ticket, seed, proof; byte arrays as arrays of numbers);
 *    blank lines are skipped;
 *  - one lotus SealVerifyInfo object, or an array of them (go-state-types
 *    proof.SealVerifyInfo: SealProof, SectorID{Miner, Number}, Randomness and
 *    InteractiveRandomness and Proof in base64, SealedCID and UnsealedCID as
 *    {"/": "<cid>"}).
 * Each entry is one element of *out (n of them); an entry that does not
 * parse has status GM_EFORMAT and a message naming the line or index and
 * the field. Returns 0 (even when entries failed), GM_EFORMAT (no entry at
 * all, or not JSON) or GM_ENOMEM. *out is NULL on failure. */
int porep_seal_info_parse(porep_seal_info_t **out, size_t *n, const char *text, size_t len, const char *name,
                          err_t *err) __attribute__((warn_unused_result));

/* As porep_seal_info_parse on a file's contents; GM_EIO when it cannot be
 * read. */
int porep_seal_info_read(porep_seal_info_t **out, size_t *n, const char *path, err_t *err)
    __attribute__((warn_unused_result));

/* replica_id and the public-input source of one seal (pub->cfg points into
 * s). Refuses, as verify_seal does, an all-zero comm_r or comm_d, and one
 * that is not below r (GM_EINVAL / GM_ENONCANON, err names the field). */
int porep_seal_info_public(porep_public_t *pub, const porep_seal_info_t *s, err_t *err)
    __attribute__((warn_unused_result));

/* ---- commitments as CIDs (go-fil-commcid) ------------------------------------ */

/* A commitment CID: CIDv1, codec fil-commitment-unsealed (0xf101) with
 * multihash sha2-256-trunc254-padded (0x1012), or fil-commitment-sealed
 * (0xf102) with poseidon-bls12_381-a1-fc1 (0xb401); 32-byte digests. */
typedef enum { POREP_CID_UNSEALED = 0, POREP_CID_SEALED = 1 } porep_cid_kind_t;

#define POREP_CID_TEXT_LEN 80 /* "b" + base32 of 39 bytes, NUL */

/* Decodes a multibase string (base32 lower case, prefix 'b'; upper case 'B'
 * also) into a commitment of the given kind. `what` names the source in
 * messages ("svi.json[0]: SealedCID"). Returns 0 or GM_EFORMAT: not base32,
 * not CIDv1, another codec (err names the codec found and the one expected,
 * e.g. an unsealed CID where a sealed one belongs), another multihash or a
 * digest that is not 32 bytes. */
int porep_cid_decode(porep_dom_t *out, const char *cid, porep_cid_kind_t want, const char *what, err_t *err)
    __attribute__((warn_unused_result));

/* Encodes a commitment as its CID text ("baga6ea4sea..." / "bagboea4b5a..."). */
void porep_cid_encode(char out[POREP_CID_TEXT_LEN], const porep_dom_t *d, porep_cid_kind_t kind);

/* ---- Filecoin's parameter file names (storage-proofs-core parameter_cache.rs) -- */

#define POREP_PARAM_VERSION 28
#define POREP_PARAM_NAME_LEN 192

/* The file name rust-fil-proofs' parameter cache gives the Groth16
 * parameters of a config's circuit: "v28-" + the circuit's cache prefix
 * ("stacked-proof-of-replication-merkletree-poseidon_hasher-8-<sub>-<top>-sha256_hasher")
 * + "-" + SHA-256 (hex) of the public parameters' identifier string, then
 * "." and ext ("params", "vk"). The identifier names the graph's node count,
 * the layers and the challenges per partition and the tree shape, so
 * interactive, synthetic and NI configs of one size share their files. */
void porep_param_name(char out[POREP_PARAM_NAME_LEN], const porep_config_t *c, const char *ext);

/* Looks in dir for the config's files by those names: writes dir/<name>.vk
 * into vk and dir/<name>.params into params (n bytes each; params may be
 * NULL when only the vk is wanted). Returns 0, GM_EINVAL (a path longer than
 * n) or GM_EIO (err names the missing file and the sector size). */
int porep_param_find(char *params, char *vk, size_t n, const char *dir, const porep_config_t *c, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_SYNTH_POREP_H */
