/*
 * synth/porep/porep_internal.h — what the files of synth/porep/ share and no
 * other folder includes: hex helpers and the sources of vanilla proofs.
 */
#ifndef GM_SYNTH_POREP_INTERNAL_H
#define GM_SYNTH_POREP_INTERNAL_H

#include <stdio.h>

#include "synth/porep/porep.h"

/* Lower-case hex of n bytes into out (2n + 1 chars). */
void porep_hex(char *out, const uint8_t *in, size_t n);

/* Parses exactly 2n hex digits; returns 0 or -1. */
int porep_unhex(uint8_t *out, const char *s, size_t n);

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
