/*
 * synth/stacked_witness.c — a random but satisfying witness for one
 * partition of the SDR PoRep circuit, of any sector size, without sealing a
 * sector: the circuit checks only the challenged nodes, so it suffices to
 * pick data and parent columns at random, compute the challenged labels
 * with real SHA-256 and the column hashes with real Poseidon, and commit to
 * the touched leaves in sparse Merkle trees whose untouched subtrees hash
 * a default (zero) leaf. Cost: O(touched leaves x depth) hashes.
 *
 * Parent indices are random nodes outside the challenge set (so that every
 * node has one column), not the SDR graph's; the circuit takes them as
 * public inputs and does not check them against the graph.
 */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synth_internal.h"

/* ---- randomness (xoshiro256**, seeded by splitmix64) ------------------------------------ */

typedef struct {
    uint64_t s[4];
} rng_t;

static uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s, res = ((s[1] * 5) << 7 | (s[1] * 5) >> 57) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}

static void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed += 0x9e3779b97f4a7c15ULL;
        uint64_t x = seed;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = x ^ (x >> 31);
    }
}

/* A random element below 2^254, as Filecoin's 32-byte nodes are. */
static void rng_fr(rng_t *r, fr_t *out)
{
    uint64_t l[4] = {rng_next(r), rng_next(r), rng_next(r), rng_next(r) >> 2};
    int rc = fr_from_limbs(out, l);
    GM_ASSERT(rc == 0);
}

/* ---- native hashes ----------------------------------------------------------------------- */

static void sha256(uint8_t out[32], const uint8_t *in, size_t n)
{
    unsigned len = 32;
    int ok = EVP_Digest(in, n, out, &len, EVP_sha256(), NULL);
    GM_ASSERT(ok == 1 && len == 32);
}

/* SHA-256 trimmed to 254 bits and read little-endian, as Filecoin does. */
static void sha256_fr(fr_t *out, const uint8_t *in, size_t n)
{
    uint8_t d[32];
    sha256(d, in, n);
    d[31] &= 0x3f;
    int rc = fr_from_bytes_le(out, d);
    GM_ASSERT(rc == 0);
}

/* The hash of one tree node: SHA-256 of two LE nodes (comm_d) or Poseidon
 * of `arity` children. */
static void node_hash(fr_t *out, const poseidon_set_t *ps, bool sha, unsigned arity, const fr_t *children)
{
    if (sha) {
        uint8_t buf[64];
        fr_to_bytes_le(buf, &children[0]);
        fr_to_bytes_le(buf + 32, &children[1]);
        sha256_fr(out, buf, 64);
    } else {
        poseidon_hash(poseidon_set_get(ps, arity), out, children);
    }
}

/* ---- sparse Merkle trees -------------------------------------------------------------------- */

typedef struct {
    uint64_t idx;
    fr_t val;
} node_t;

typedef struct {
    unsigned nlev;
    unsigned arity[64];
    bool sha;
    const poseidon_set_t *ps;
    node_t *lev[65]; /* level k's present nodes, sorted by index */
    size_t n[65];
    fr_t empty[65];  /* the value of an untouched node at level k */
} sparse_tree_t;

static int node_cmp(const void *a, const void *b)
{
    uint64_t x = ((const node_t *)a)->idx, y = ((const node_t *)b)->idx;
    return (x > y) - (x < y);
}

static const fr_t *tree_get(const sparse_tree_t *t, unsigned k, uint64_t idx)
{
    size_t lo = 0, hi = t->n[k];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->lev[k][mid].idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n[k] && t->lev[k][lo].idx == idx ? &t->lev[k][lo].val : &t->empty[k];
}

/* Builds all levels from the leaves (which it sorts; duplicates must carry
 * the same value). Returns false when memory runs out. */
static bool tree_build(sparse_tree_t *t, node_t *leaves, size_t n)
{
    qsort(leaves, n, sizeof *leaves, node_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || leaves[m - 1].idx != leaves[i].idx)
            leaves[m++] = leaves[i];
    t->lev[0] = leaves;
    t->n[0] = m;
    t->empty[0] = FR_ZERO;
    for (unsigned k = 0; k < t->nlev; k++) {
        unsigned a = t->arity[k];
        fr_t kids[16];
        for (unsigned i = 0; i < a; i++)
            kids[i] = t->empty[k];
        node_hash(&t->empty[k + 1], t->ps, t->sha, a, kids);
        node_t *up = gm_alloc((t->n[k] ? t->n[k] : 1) * sizeof *up);
        if (!up)
            return false;
        size_t nu = 0;
        for (size_t i = 0; i < t->n[k];) {
            uint64_t g = t->lev[k][i].idx / a;
            for (unsigned j = 0; j < a; j++)
                kids[j] = *tree_get(t, k, g * a + j);
            while (i < t->n[k] && t->lev[k][i].idx / a == g)
                i++;
            up[nu].idx = g;
            node_hash(&up[nu].val, t->ps, t->sha, a, kids);
            nu++;
        }
        t->lev[k + 1] = up;
        t->n[k + 1] = nu;
    }
    return true;
}

static const fr_t *tree_root(const sparse_tree_t *t) { return tree_get(t, t->nlev, 0); }

static void tree_path(const sparse_tree_t *t, stacked_path_t *p, uint64_t leaf)
{
    p->index = leaf;
    uint64_t idx = leaf;
    size_t s = 0;
    for (unsigned k = 0; k < t->nlev; k++) {
        unsigned a = t->arity[k];
        uint64_t g = idx / a, pos = idx % a;
        for (unsigned j = 0; j < a; j++)
            if (j != pos)
                p->siblings[s++] = *tree_get(t, k, g * a + j);
        idx = g;
    }
}

static void tree_free(sparse_tree_t *t)
{
    for (unsigned k = 1; k <= t->nlev; k++)
        gm_free(t->lev[k]);
}

/* ---- the witness ------------------------------------------------------------------------------- */

/* label_l(node) = SHA-256(replica_id || l BE32 || node BE64 || 0^20 || 37
 * parents), trimmed (rust-fil-proofs create_label). */
static void label(fr_t *out, const fr_t *replica_id, unsigned layer, uint64_t node, const fr_t *const parents[37])
{
    uint8_t buf[64 + 37 * 32];
    memset(buf, 0, 64);
    fr_to_bytes_le(buf, replica_id);
    for (int i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (int p = 0; p < 37; p++)
        fr_to_bytes_le(buf + 64 + 32 * p, parents[p]);
    sha256_fr(out, buf, sizeof buf);
}

void stacked_witness_free(stacked_witness_t *w, const stacked_config_t *cfg)
{
    (void)cfg;
    if (!w)
        return;
    if (w->ch)
        gm_free(w->ch[0].comm_d_path.siblings);
    gm_free(w->ch);
    gm_free(w);
}

static bool in_set(const uint64_t *v, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return true;
    return false;
}

int stacked_witness_alloc(stacked_witness_t **out, const stacked_config_t *cfg, err_t *err)
{
    *out = NULL;
    unsigned nc = cfg->challenges, S = cfg->path_siblings, D = cfg->comm_d_depth;
    /* one block of siblings per challenge: comm_d (D), comm_r_last (S),
     * comm_c (S), then the 14 parent columns' paths (S each); the block
     * of challenge 0 starts the allocation that stacked_witness_free frees */
    size_t per = (size_t)D + (size_t)(2 + STACKED_PARENTS) * S;
    stacked_witness_t *w = gm_calloc(1, sizeof *w);
    fr_t *sib = NULL;
    if (!w || !(w->ch = gm_calloc(nc, sizeof *w->ch)) || !(sib = gm_calloc((size_t)nc * per, sizeof(fr_t)))) {
        if (w)
            gm_free(w->ch);
        gm_free(w);
        return gm_err_set(err, GM_ENOMEM, "stacked witness: out of memory for %u challenges", nc);
    }
    for (unsigned i = 0; i < nc; i++) {
        stacked_challenge_t *c = &w->ch[i];
        fr_t *base = sib + (size_t)i * per;
        c->comm_d_path.siblings = base;
        c->comm_r_last_path.siblings = base + D;
        c->comm_c_path.siblings = base + D + S;
        for (unsigned p = 0; p < STACKED_PARENTS; p++)
            c->parents[p].path.siblings = base + D + (size_t)(2 + p) * S;
    }
    *out = w;
    return 0;
}

int stacked_witness_random(stacked_witness_t **out, const stacked_config_t *cfg, const poseidon_set_t *ps,
                           uint64_t seed, err_t *err)
{
    *out = NULL;
    unsigned nc = cfg->challenges, L = cfg->layers, D = cfg->comm_d_depth;
    stacked_witness_t *w;
    int rc = stacked_witness_alloc(&w, cfg, err);
    if (rc)
        return rc;
    size_t nleaves = (size_t)nc * (1 + STACKED_PARENTS);
    node_t *c_leaves = gm_alloc(nleaves * sizeof(node_t)), *r_leaves = gm_alloc(nc * sizeof(node_t)),
           *d_leaves = gm_alloc(nc * sizeof(node_t));
    sparse_tree_t tc = {0}, tr = {0}, td = {0};
    if (!c_leaves || !r_leaves || !d_leaves) {
        rc = gm_err_set(err, GM_ENOMEM, "stacked witness: out of memory");
        goto done;
    }
    rng_t r;
    rng_seed(&r, seed);
    rng_fr(&r, &w->replica_id);

    /* challenges: distinct, in [1, nodes) */
    uint64_t chal[18];
    for (unsigned i = 0; i < nc; i++) {
        stacked_challenge_t *c = &w->ch[i];
        do
            chal[i] = 1 + rng_next(&r) % (cfg->nodes - 1);
        while (in_set(chal, i, chal[i]));
        c->challenge = chal[i];
        rng_fr(&r, &c->data_leaf);
    }
    /* parents: nodes outside the challenge set; a node drawn twice gets the
     * same column */
    size_t ncl = 0;
    for (unsigned i = 0; i < nc; i++)
        for (unsigned p = 0; p < STACKED_PARENTS; p++) {
            stacked_column_t *col = &w->ch[i].parents[p];
            do
                col->node = rng_next(&r) % cfg->nodes;
            while (in_set(chal, nc, col->node));
            const stacked_column_t *same = NULL;
            for (unsigned j = 0; j <= i && !same; j++)
                for (unsigned q = 0; q < (j == i ? p : STACKED_PARENTS) && !same; q++)
                    if (w->ch[j].parents[q].node == col->node)
                        same = &w->ch[j].parents[q];
            for (unsigned l = 0; l < L; l++) {
                if (same)
                    col->rows[l] = same->rows[l];
                else
                    rng_fr(&r, &col->rows[l]);
            }
            c_leaves[ncl].idx = col->node;
            poseidon_hash(poseidon_set_get(ps, L), &c_leaves[ncl].val, col->rows);
            ncl++;
        }
    /* the challenged nodes' labels, replica and column leaf */
    for (unsigned i = 0; i < nc; i++) {
        stacked_challenge_t *c = &w->ch[i];
        fr_t labels[STACKED_MAX_LAYERS];
        for (unsigned layer = 1; layer <= L; layer++) {
            const fr_t *pp[STACKED_PARENTS], *exp[37];
            for (unsigned p = 0; p < STACKED_DRG_PARENTS; p++)
                pp[p] = &c->parents[p].rows[layer - 1];
            for (unsigned p = STACKED_DRG_PARENTS; p < STACKED_PARENTS; p++)
                pp[p] = layer > 1 ? &c->parents[p].rows[layer - 2] : NULL;
            for (unsigned k = 0; k < 37; k++)
                exp[k] = pp[layer == 1 ? (k < 36 ? k % 6 : 0) : k % 14];
            label(&labels[layer - 1], &w->replica_id, layer, c->challenge, exp);
        }
        c_leaves[ncl].idx = c->challenge;
        poseidon_hash(poseidon_set_get(ps, L), &c_leaves[ncl].val, labels);
        ncl++;
        r_leaves[i].idx = c->challenge;
        fr_add(&r_leaves[i].val, &labels[L - 1], &c->data_leaf);
        d_leaves[i].idx = c->challenge;
        d_leaves[i].val = c->data_leaf;
    }
    /* trees */
    tc.nlev = tr.nlev = cfg->n_levels;
    for (unsigned k = 0; k < cfg->n_levels; k++)
        tc.arity[k] = tr.arity[k] = cfg->level_arity[k];
    tc.ps = tr.ps = ps;
    td.nlev = D;
    for (unsigned k = 0; k < D; k++)
        td.arity[k] = 2;
    td.sha = true;
    if (!tree_build(&tc, c_leaves, ncl) || !tree_build(&tr, r_leaves, nc) || !tree_build(&td, d_leaves, nc)) {
        rc = gm_err_set(err, GM_ENOMEM, "stacked witness: out of memory for the trees");
        goto done;
    }
    w->comm_c = *tree_root(&tc);
    w->comm_r_last = *tree_root(&tr);
    w->comm_d = *tree_root(&td);
    fr_t pre[2] = {w->comm_c, w->comm_r_last};
    poseidon_hash(&ps->p2, &w->comm_r, pre);
    for (unsigned i = 0; i < nc; i++) {
        stacked_challenge_t *c = &w->ch[i];
        tree_path(&td, &c->comm_d_path, c->challenge);
        tree_path(&tr, &c->comm_r_last_path, c->challenge);
        tree_path(&tc, &c->comm_c_path, c->challenge);
        for (unsigned p = 0; p < STACKED_PARENTS; p++)
            tree_path(&tc, &c->parents[p].path, c->parents[p].node);
    }
done:
    tree_free(&tc);
    tree_free(&tr);
    tree_free(&td);
    gm_free(c_leaves);
    gm_free(r_leaves);
    gm_free(d_leaves);
    if (rc) {
        stacked_witness_free(w, cfg);
        return rc;
    }
    *out = w;
    return 0;
}
