/*
 * synth/porep/porep_internal.h — what the files of synth/porep/ share and no
 * other folder includes: the sources of vanilla proofs.
 */
#ifndef GM_SYNTH_POREP_INTERNAL_H
#define GM_SYNTH_POREP_INTERNAL_H

#include <stdio.h>

#include "synth/porep/porep.h"


/* A challenge from 32 random bytes, as rust-fil-proofs' bigint_to_challenge:
 * the bytes as a little-endian integer mod (nodes - 1), plus 1 (node 0 is
 * never challenged). nodes in 2..2^32. */
uint64_t porep_challenge_from_bytes(const uint8_t h[32], uint64_t nodes);

/* SyntheticPoRep challenges first .. first + n - 1 (n <= 64) of a sector of
 * `nodes` nodes with n_synth synthetic challenges (rust-fil-proofs uses
 * min(nodes, 2^18); its hard-coded test uses 21). Returns 0 or GM_ENOTSUP. */
int porep_synth_challenges(uint64_t *out, unsigned n, uint64_t first, uint64_t nodes, uint64_t n_synth,
                           const porep_dom_t *replica_id, const porep_dom_t *comm_r, const uint8_t seed[32], err_t *err)
    __attribute__((warn_unused_result));

#endif

/* ---- where the nodes of a sector come from (a sealed directory or a sparse
 * synthetic sector), for building vanilla proofs ---- */
typedef struct {
    void *arg;
    porep_node_fn tree_d, tree_c, tree_r; /* node of a level (0 = leaves) */
    int (*label)(void *arg, porep_dom_t *out, unsigned layer, uint64_t node, err_t *err);
} porep_src_t;

/* The vanilla proof of one challenge from src (storage-proofs-porep
 * Proof::from_parts). Returns the first error of src. */
int porep_vproof_build(porep_vproof_t *p, const porep_src_t *src, const porep_shape_t *s, const porep_graph_t *g,
                       const porep_hashers_t *h, uint64_t challenge, err_t *err) __attribute__((warn_unused_result));

/* The graph of a registered proof (porep_id from its id). */
int porep_graph_for(porep_graph_t *g, const porep_proof_t *p, err_t *err) __attribute__((warn_unused_result));
