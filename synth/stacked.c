/*
 * synth/stacked.c — Filecoin's SDR PoRep circuit (rust-fil-proofs
 * storage-proofs-porep stacked/circuit: StackedCircuit, Proof, create_label,
 * hash_single_column; storage-proofs-core gadgets: PoRCircuit, encode) for
 * every PoRep sector size, with the parameters of filecoin-proofs
 * constants.rs.
 *
 * DESIGN. One function per Rust gadget, called in the Rust order, so that
 * allocations, constraints and public inputs come out in bellperson's order
 * and counts: 130,278,541 constraints and 328 inputs for a 32 GiB partition.
 * The witness is optional: without one every value is zero (COUNT, SHAPE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "synth/synth_internal.h"

/* ---- parameters --------------------------------------------------------------------- */

int stacked_config_init(stacked_config_t *cfg, uint64_t sector_bytes, err_t *err)
{
    memset(cfg, 0, sizeof *cfg);
    unsigned log2_nodes, layers, partitions, min_challenges, sub = 0, top = 0;
    switch (sector_bytes) {
    case 2048ULL: log2_nodes = 6; layers = 2; partitions = 1; min_challenges = 2; break;
    case 8ULL << 20: log2_nodes = 18; layers = 2; partitions = 1; min_challenges = 2; break;
    case 512ULL << 20: log2_nodes = 24; layers = 2; partitions = 1; min_challenges = 2; break;
    case 32ULL << 30: log2_nodes = 30; layers = 11; partitions = 10; min_challenges = 176; sub = 8; break;
    case 64ULL << 30: log2_nodes = 31; layers = 11; partitions = 10; min_challenges = 176; sub = 8; top = 2; break;
    default:
        return gm_err_set(err, GM_EINVAL,
                          "sector size %llu: not a PoRep size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                          (unsigned long long)sector_bytes);
    }
    cfg->sector_bytes = sector_bytes;
    cfg->nodes = 1ULL << log2_nodes;
    cfg->layers = layers;
    cfg->partitions = partitions;
    unsigned ch = (min_challenges + partitions - 1) / partitions;
    cfg->challenges = ch > 18 ? 18 : ch;
    cfg->comm_d_depth = log2_nodes;
    /* base trees are octrees over nodes / (sub ? sub : 1) / (top ? top : 1) leaves */
    unsigned base_log2 = log2_nodes - (sub ? 3 : 0) - (top ? 1 : 0);
    cfg->base_levels = base_log2 / 3;
    cfg->sub_arity = sub;
    cfg->top_arity = top;
    unsigned n = 0;
    for (unsigned i = 0; i < cfg->base_levels; i++)
        cfg->level_arity[n++] = 8;
    if (sub)
        cfg->level_arity[n++] = sub;
    if (top)
        cfg->level_arity[n++] = top;
    cfg->n_levels = n;
    for (unsigned i = 0; i < n; i++)
        cfg->path_siblings += cfg->level_arity[i] - 1;
    return 0;
}

int stacked_sector_size_parse(uint64_t *out, const char *s, const char *what, err_t *err)
{
    char *end;
    if (!s || !*s || !(*s >= '0' && *s <= '9'))
        return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a size (like 32GiB)", what, s ? s : "");
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end) {
        if (!strcasecmp(end, "KiB") || !strcasecmp(end, "K"))
            shift = 10;
        else if (!strcasecmp(end, "MiB") || !strcasecmp(end, "M"))
            shift = 20;
        else if (!strcasecmp(end, "GiB") || !strcasecmp(end, "G"))
            shift = 30;
        else if (!strcasecmp(end, "B"))
            shift = 0;
        else
            return gm_err_set(err, GM_EINVAL, "%s: '%s': unknown unit '%s' (KiB, MiB or GiB)", what, s, end);
    }
    if (v == 0 || v > (UINT64_MAX >> shift))
        return gm_err_set(err, GM_EINVAL, "%s: '%s' is out of range", what, s);
    *out = (uint64_t)v << shift;
    return 0;
}

/* ---- gadgets of rust-fil-proofs ----------------------------------------------------------- */

/* reverse_bit_numbering(to_bits_le(x)): 255 LE bits padded to 256, each
 * byte's bits reversed (the LE bytes, MSB first within each byte). */
static void num_to_bits_msb_bytes(cs_t *cs, cs_bool_t out[256], const cs_num_t *x)
{
    cs_bool_t le[256];
    cs_num_to_bits_le(cs, le, x);
    le[255] = cs_bool_const(false);
    for (unsigned b = 0; b < 32; b++)
        for (unsigned j = 0; j < 8; j++)
            out[8 * b + j] = le[8 * b + 7 - j];
}

/* Sha256Function::hash_multi_leaf_circuit for two leaves: each leaf's bits
 * as above, SHA-256 of the 512 bits, the digest's bytes read LE and packed
 * into 254 bits. */
static cs_num_t sha_node(cs_t *cs, const cs_num_t in[2])
{
    cs_bool_t msg[512], digest[256], le[256];
    for (int k = 0; k < 2; k++) {
        cs_ns_push(cs, "%d_num_into_bits", k);
        num_to_bits_msb_bytes(cs, msg + 256 * k, &in[k]);
        cs_ns_pop(cs);
    }
    cs_ns_push(cs, "hash");
    cs_sha256(cs, digest, msg, 512);
    cs_ns_pop(cs);
    for (unsigned b = 0; b < 32; b++)
        for (unsigned j = 0; j < 8; j++)
            le[8 * b + j] = digest[8 * b + 7 - j];
    cs_ns_push(cs, "pack_le");
    cs_num_t r = cs_pack_bits(cs, le, 254);
    cs_ns_pop(cs);
    return r;
}

/* PoRCircuit::synthesize with a private root that is already allocated:
 * per level, log2(arity) index bits, arity - 1 siblings, insert, hash; then
 * the index bits packed into one input and computed root == root. sha:
 * the binary SHA-256 tree of comm_d (depth levels), else the Poseidon tree
 * of the sector's shape. path NULL: zeros. */
static void por(cs_t *cs, const stacked_config_t *cfg, const poseidon_set_t *ps, bool sha, const cs_num_t *leaf,
                const cs_num_t *root, const stacked_path_t *path)
{
    unsigned nlev = sha ? cfg->comm_d_depth : cfg->n_levels;
    cs_bool_t bits[64];
    unsigned nbits = 0, shift = 0, sib = 0;
    cs_num_t cur = *leaf;
    for (unsigned lvl = 0; lvl < nlev; lvl++) {
        unsigned arity = sha ? 2 : cfg->level_arity[lvl];
        unsigned lb = arity == 2 ? 1 : arity == 4 ? 2 : 3;
        bool base = sha || lvl < cfg->base_levels;
        cs_ns_push(cs, base ? "base" : (cfg->sub_arity && lvl == cfg->base_levels) ? "sub" : "top");
        cs_ns_push(cs, "merkle tree hash %u", base ? lvl : 0);
        uint64_t pos = path ? (path->index >> shift) & (arity - 1) : 0;
        cs_bool_t lbits[3];
        for (unsigned i = 0; i < lb; i++) {
            lbits[i] = cs_bit_alloc(cs, (pos >> i) & 1);
            bits[nbits++] = lbits[i];
        }
        cs_num_t sibs[7], ins[8];
        for (unsigned i = 0; i + 1 < arity; i++)
            sibs[i] = cs_num_alloc(cs, path ? &path->siblings[sib + i] : &FR_ZERO);
        cs_insert(cs, ins, &cur, lbits, lb, sibs);
        cs_ns_push(cs, "computation of commitment hash");
        cur = sha ? sha_node(cs, ins) : cs_poseidon(cs, poseidon_set_get(ps, arity), ins);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
        shift += lb;
        sib += arity - 1;
    }
    cs_ns_push(cs, "path");
    cs_pack_into_inputs(cs, bits, nbits);
    cs_ns_pop(cs);
    cs_ns_push(cs, "enforce root is correct");
    cs_num_enforce_equal(cs, &cur, root);
    cs_ns_pop(cs);
}

/* hash_single_column: Poseidon of arity 2 (2 layers) or 11 (11 layers). */
static cs_num_t column_hash(cs_t *cs, const poseidon_set_t *ps, const cs_num_t *rows, unsigned layers)
{
    return cs_poseidon(cs, poseidon_set_get(ps, layers), rows);
}

/* create_label_circuit: SHA-256 of replica_id (256 bits) || layer (u32 BE) ||
 * node (u64 BE) || zeros to 512 bits || 37 parents of 256 bits, the digest's
 * bit numbering reversed and the first 254 bits packed. */
static cs_num_t create_label(cs_t *cs, const cs_bool_t replica_id[256], cs_bool_t (*const parents[37])[256],
                             uint32_t layer, const cs_u64_t *node)
{
    static const size_t total = (1 + 1 + STACKED_LABEL_PARENTS) * 256;
    cs_bool_t msg[(1 + 1 + STACKED_LABEL_PARENTS) * 256];
    memcpy(msg, replica_id, 256 * sizeof *msg);
    cs_u32_t l;
    cs_u32_const(&l, layer);
    cs_u32_to_bits_be(msg + 256, &l);
    for (unsigned i = 0; i < 64; i++)
        msg[288 + i] = node->bits[63 - i];
    for (unsigned i = 352; i < 512; i++)
        msg[i] = cs_bool_const(false);
    for (unsigned p = 0; p < STACKED_LABEL_PARENTS; p++)
        memcpy(msg + 512 + 256 * p, *parents[p], 256 * sizeof *msg);
    cs_bool_t digest[256], rev[256];
    cs_ns_push(cs, "hash");
    cs_sha256(cs, digest, msg, total);
    cs_ns_pop(cs);
    for (unsigned b = 0; b < 32; b++)
        for (unsigned j = 0; j < 8; j++)
            rev[8 * b + j] = digest[8 * b + 7 - j];
    cs_ns_push(cs, "result_num");
    cs_num_t r = cs_pack_bits(cs, rev, 254);
    cs_ns_pop(cs);
    return r;
}

/* ---- one challenge (Proof::synthesize) ------------------------------------------------------ */

static void challenge_synthesize(cs_t *cs, const stacked_config_t *cfg, const poseidon_set_t *ps,
                                 const stacked_challenge_t *w, const cs_num_t *comm_d, const cs_num_t *comm_c,
                                 const cs_num_t *comm_r_last, const cs_bool_t replica_id_bits[256])
{
    unsigned L = cfg->layers;
    cs_ns_push(cs, "data_leaf");
    cs_num_t data_leaf = cs_num_alloc(cs, w ? &w->data_leaf : &FR_ZERO);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_d_inclusion");
    por(cs, cfg, ps, true, &data_leaf, comm_d, w ? &w->comm_d_path : NULL);
    cs_ns_pop(cs);

    /* the 14 parent columns: allocate, hash, prove inclusion in comm_c */
    cs_num_t cols[STACKED_PARENTS][STACKED_MAX_LAYERS];
    for (unsigned p = 0; p < STACKED_PARENTS; p++) {
        bool drg = p < STACKED_DRG_PARENTS;
        unsigned idx = drg ? p : p - STACKED_DRG_PARENTS;
        const stacked_column_t *col = w ? &w->parents[p] : NULL;
        cs_ns_push(cs, drg ? "drg_parent_%u_num" : "exp_parent_%u_num", idx);
        for (unsigned l = 0; l < L; l++)
            cols[p][l] = cs_num_alloc(cs, col ? &col->rows[l] : &FR_ZERO);
        cs_ns_pop(cs);
        cs_ns_push(cs, drg ? "drg_parent_%u_constraint" : "exp_parent_%u_constraint", idx);
        cs_num_t h = column_hash(cs, ps, cols[p], L);
        cs_ns_pop(cs);
        cs_ns_push(cs, drg ? "drg_parent_%u_inclusion" : "exp_parent_%u_inclusion", idx);
        por(cs, cfg, ps, false, &h, comm_c, col ? &col->path : NULL);
        cs_ns_pop(cs);
    }

    cs_u64_t challenge;
    cs_ns_push(cs, "challenge");
    cs_u64_alloc(cs, &challenge, w ? w->challenge : 0);
    cs_ns_pop(cs);
    cs_ns_push(cs, "challenge input");
    cs_u64_pack_into_input(cs, &challenge);
    cs_ns_pop(cs);

    /* labels of layers 1..L from the parents' bits */
    cs_num_t labels[STACKED_MAX_LAYERS];
    cs_bool_t pbits[STACKED_PARENTS][256];
    for (unsigned layer = 1; layer <= L; layer++) {
        cs_ns_push(cs, "labeling_%u", layer);
        unsigned np = 0;
        for (unsigned p = 0; p < STACKED_DRG_PARENTS; p++, np++) {
            cs_ns_push(cs, "drg_parent_%u_bits", np);
            num_to_bits_msb_bytes(cs, pbits[np], &cols[p][layer - 1]);
            cs_ns_pop(cs);
        }
        if (layer > 1)
            for (unsigned p = STACKED_DRG_PARENTS; p < STACKED_PARENTS; p++, np++) {
                cs_ns_push(cs, "exp_parent_%u_bits", np);
                num_to_bits_msb_bytes(cs, pbits[np], &cols[p][layer - 2]);
                cs_ns_pop(cs);
            }
        /* 37 parents: layer 1 repeats the 6 base parents six times and
         * then the first; later layers take 14 + 14 + the first 9 */
        cs_bool_t (*exp[STACKED_LABEL_PARENTS])[256];
        for (unsigned i = 0; i < STACKED_LABEL_PARENTS; i++)
            exp[i] = &pbits[layer == 1 ? (i < 36 ? i % 6 : 0) : i % 14];
        cs_ns_push(cs, "create_label");
        labels[layer - 1] = create_label(cs, replica_id_bits, (cs_bool_t (*const *)[256])exp, layer, &challenge);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
    }

    cs_ns_push(cs, "encode_node");
    cs_num_t encoded = cs_num_add(cs, &labels[L - 1], &data_leaf);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_r_last_data_inclusion");
    por(cs, cfg, ps, false, &encoded, comm_r_last, w ? &w->comm_r_last_path : NULL);
    cs_ns_pop(cs);

    cs_ns_push(cs, "c_x_column_hash");
    cs_num_t ch = column_hash(cs, ps, labels, L);
    cs_ns_pop(cs);
    cs_ns_push(cs, "c_x_inclusion");
    por(cs, cfg, ps, false, &ch, comm_c, w ? &w->comm_c_path : NULL);
    cs_ns_pop(cs);
}

/* ---- the partition (StackedCircuit::synthesize) ----------------------------------------------- */

void stacked_synthesize(cs_t *cs, const stacked_config_t *cfg, const poseidon_set_t *ps, const stacked_witness_t *w)
{
    GM_ASSERT(cfg->layers == 2 || cfg->layers == 11);
    const fr_t *z = &FR_ZERO;
    cs_ns_push(cs, "replica_id");
    cs_num_t replica_id = cs_num_alloc(cs, w ? &w->replica_id : z);
    cs_ns_pop(cs);
    cs_ns_push(cs, "replica_id_input");
    cs_num_inputize(cs, &replica_id);
    cs_ns_pop(cs);
    cs_bool_t replica_id_bits[256];
    cs_ns_push(cs, "replica_id_bits");
    num_to_bits_msb_bytes(cs, replica_id_bits, &replica_id);
    cs_ns_pop(cs);

    cs_ns_push(cs, "comm_d");
    cs_num_t comm_d = cs_num_alloc(cs, w ? &w->comm_d : z);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_d_input");
    cs_num_inputize(cs, &comm_d);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_r");
    cs_num_t comm_r = cs_num_alloc(cs, w ? &w->comm_r : z);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_r_input");
    cs_num_inputize(cs, &comm_r);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_r_last");
    cs_num_t comm_r_last = cs_num_alloc(cs, w ? &w->comm_r_last : z);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_c");
    cs_num_t comm_c = cs_num_alloc(cs, w ? &w->comm_c : z);
    cs_ns_pop(cs);

    /* comm_r = H(comm_c || comm_r_last) */
    cs_num_t pre[2] = {comm_c, comm_r_last};
    cs_ns_push(cs, "H_comm_c_comm_r_last");
    cs_num_t h = cs_poseidon(cs, &ps->p2, pre);
    cs_ns_pop(cs);
    cs_ns_push(cs, "enforce comm_r = H(comm_c || comm_r_last)");
    cs_num_enforce_equal(cs, &comm_r, &h);
    cs_ns_pop(cs);

    for (unsigned i = 0; i < cfg->challenges; i++) {
        cs_ns_push(cs, "challenge_%u", i);
        challenge_synthesize(cs, cfg, ps, w ? &w->ch[i] : NULL, &comm_d, &comm_c, &comm_r_last, replica_id_bits);
        cs_ns_pop(cs);
    }
}

void stacked_public_inputs(fr_t *out, const stacked_config_t *cfg, const stacked_witness_t *w)
{
    size_t n = 0;
    out[n++] = w->replica_id;
    out[n++] = w->comm_d;
    out[n++] = w->comm_r;
    for (unsigned i = 0; i < cfg->challenges; i++) {
        const stacked_challenge_t *c = &w->ch[i];
        fr_set_u64(&out[n++], c->comm_d_path.index);
        for (unsigned p = 0; p < STACKED_PARENTS; p++)
            fr_set_u64(&out[n++], c->parents[p].path.index);
        fr_set_u64(&out[n++], c->challenge);
        fr_set_u64(&out[n++], c->comm_r_last_path.index);
        fr_set_u64(&out[n++], c->comm_c_path.index);
    }
}
