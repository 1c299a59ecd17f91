/*
 * synth/porep/synthetic.c — sparse synthetic sectors: a C1 of any shape
 * (32 and 64 GiB included) whose vanilla proofs verify, without sealing.
 *
 * The verifier (and the circuit) only looks at the challenged nodes, their
 * 14 parents' columns and three Merkle paths per column or leaf. So:
 *  - the challenges are derived for real from replica_id and seed, and the
 *    parents come from the real SDR graph;
 *  - every touched node gets random labels (one per layer), except the
 *    challenged nodes, whose labels are computed with SHA-256 from their
 *    parents, layer by layer (layer l of every challenged node, in increasing
 *    node order, before layer l + 1: DRG parents are smaller nodes of the same
 *    layer, expander parents are of the previous layer), so a challenged node
 *    that is also another's parent stays consistent;
 *  - data leaves of the challenged nodes are random fr32 values, and the
 *    replica leaf is data + label_L;
 *  - the trees are sparse: only touched leaves are stored; any untouched
 *    subtree is the per-level digest of an all-zero subtree. Cost: O(touched
 *    leaves x depth) hashes (about 2,700 columns for 32 GiB).
 * replica_id is random rather than derived from comm_d (which depends on the
 * challenges, which depend on replica_id).
 */
#include <stdlib.h>
#include <string.h>

#include "synth/porep/porep_internal.h"

typedef struct {
    uint64_t index;
    porep_dom_t v;
} snode_t;

/* A sparse tree: per level, the stored nodes sorted by index. */
typedef struct {
    porep_tree_shape_t t;
    snode_t *lv[POREP_MAX_TREE_LEVELS + 1];
    size_t n[POREP_MAX_TREE_LEVELS + 1];
    porep_dom_t empty[POREP_MAX_TREE_LEVELS + 1];
} stree_t;

static int cmp_snode(const void *a, const void *b)
{
    uint64_t x = ((const snode_t *)a)->index, y = ((const snode_t *)b)->index;
    return x < y ? -1 : x > y;
}

static const porep_dom_t *stree_find(const stree_t *s, unsigned level, uint64_t index)
{
    size_t lo = 0, hi = s->n[level];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint64_t x = s->lv[level][mid].index;
        if (x == index)
            return &s->lv[level][mid].v;
        if (x < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int stree_get(const stree_t *s, porep_dom_t *out, unsigned level, uint64_t index)
{
    const porep_dom_t *v = stree_find(s, level, index);
    *out = v ? *v : s->empty[level];
    return 0;
}

static void stree_free(stree_t *s)
{
    for (unsigned l = 0; l <= POREP_MAX_TREE_LEVELS; l++)
        gm_free(s->lv[l]);
}

/* Builds the tree over leaves (n entries, any order, distinct indices;
 * taken over by the tree). */
static int stree_build(stree_t *s, const porep_tree_shape_t *t, const porep_hashers_t *h, snode_t *leaves, size_t n,
                       err_t *err)
{
    memset(s, 0, sizeof *s);
    s->t = *t;
    s->lv[0] = leaves;
    s->n[0] = n;
    porep_dom_t zero;
    memset(&zero, 0, sizeof zero);
    int rc = porep_tree_empty(s->empty, t, h, &zero);
    if (rc)
        return gm_err_set(err, rc, "synthetic: empty digests failed");
    qsort(leaves, n, sizeof *leaves, cmp_snode);
    for (unsigned l = 0; l < t->n_levels; l++) {
        unsigned a = t->arity[l];
        snode_t *up = gm_alloc((s->n[l] ? s->n[l] : 1) * sizeof *up);
        if (!up)
            return gm_err_set(err, GM_ENOMEM, "synthetic: no memory for a sparse tree level");
        size_t m = 0;
        for (size_t i = 0; i < s->n[l]; i++) {
            uint64_t p = s->lv[l][i].index / a;
            if (m && up[m - 1].index == p)
                continue;
            porep_dom_t ch[POREP_MAX_ARITY];
            for (unsigned j = 0; j < a; j++)
                stree_get(s, &ch[j], l, p * a + j);
            up[m].index = p;
            if ((rc = porep_tree_hash(&up[m].v, h, t->hash, ch, a)))
                return gm_err_set(err, rc, "synthetic: a tree value is not below r");
            m++;
        }
        s->lv[l + 1] = up;
        s->n[l + 1] = m;
    }
    return 0;
}

/* ---- the synthetic sector ------------------------------------------------------------- */

typedef struct {
    uint64_t node;
    int challenged;
    porep_dom_t rows[POREP_MAX_LAYERS];
} scol_t;

typedef struct {
    scol_t *cols;
    size_t ncols;
    stree_t d, c, r;
} ssector_t;

static int cmp_scol(const void *a, const void *b)
{
    uint64_t x = ((const scol_t *)a)->node, y = ((const scol_t *)b)->node;
    return x < y ? -1 : x > y;
}

static scol_t *col_find(const ssector_t *s, uint64_t node)
{
    size_t lo = 0, hi = s->ncols;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->cols[mid].node == node)
            return &s->cols[mid];
        if (s->cols[mid].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int s_tree_d(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err)
{
    (void)err;
    return stree_get(&((ssector_t *)arg)->d, out, level, index);
}

static int s_tree_c(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err)
{
    (void)err;
    return stree_get(&((ssector_t *)arg)->c, out, level, index);
}

static int s_tree_r(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err)
{
    (void)err;
    return stree_get(&((ssector_t *)arg)->r, out, level, index);
}

static int s_label(void *arg, porep_dom_t *out, unsigned layer, uint64_t node, err_t *err)
{
    scol_t *c = col_find(arg, node);
    if (!c)
        return gm_err_set(err, GM_ESTATE, "synthetic: node %llu was not touched", (unsigned long long)node);
    *out = c->rows[layer - 1];
    return 0;
}

/* 32 pseudo-random bytes below 2^254 for (node, purpose) under key. */
static void rand_dom(porep_dom_t *out, const uint8_t key[32], uint64_t node, uint64_t purpose)
{
    uint32_t w[16];
    porep_chacha8_block(w, key, node, purpose);
    for (int k = 0; k < 8; k++)
        for (int b = 0; b < 4; b++)
            out->b[4 * k + b] = (uint8_t)(w[k] >> (8 * b));
    out->b[31] &= 0x3F;
}

static void tagged(uint8_t out[32], const uint8_t seed[32], const char *tag)
{
    uint8_t buf[64];
    size_t n = strlen(tag);
    memcpy(buf, seed, 32);
    memcpy(buf + 32, tag, n);
    buf[32 + n] = 0;
    char hex[2 * 64 + 1];
    gm_hex_encode(hex, buf, 32 + n);
    porep_seed_parse(out, hex); /* SHA-256 of the hex text: any fixed derivation will do */
}

int porep_c1_synthetic(porep_c1_t *c, const porep_proof_t *proof, const uint8_t seed[32], const porep_hashers_t *h,
                       err_t *err)
{
    memset(c, 0, sizeof *c);
    ssector_t ss;
    memset(&ss, 0, sizeof ss);
    porep_graph_t g;
    memset(&g, 0, sizeof g);
    porep_shape_t shape;
    int rc = porep_shape_init(&shape, proof->sector_size, err);
    if (rc)
        return rc;
    uint8_t key[32];
    tagged(key, seed, "labels");
    tagged(c->seed, seed, "seed");
    tagged(c->ticket, seed, "ticket");
    tagged(c->replica_id.b, seed, "replica_id");
    c->replica_id.b[31] &= 0x3F;
    c->proof = proof;
    c->shape = shape;
    unsigned P = shape.partitions, C = shape.challenges, L = shape.layers;
    size_t nch = (size_t)P * C, cap = nch * (1 + POREP_DEGREE);
    uint64_t *ch = gm_calloc(nch, sizeof *ch);
    snode_t *ld = NULL, *lr = NULL, *lc = NULL;
    ss.cols = gm_calloc(cap, sizeof *ss.cols);
    if (!ch || !ss.cols) {
        rc = gm_err_set(err, GM_ENOMEM, "synthetic: no memory");
        goto done;
    }
    if ((rc = porep_graph_for(&g, proof, err)) || (rc = porep_c1_alloc(c, P, C, err)))
        goto done;
    for (unsigned k = 0; k < P; k++)
        porep_challenges_derive(ch + (size_t)k * C, C, shape.nodes, &c->replica_id, c->seed, k);
    /* touched nodes: challenges and their parents */
    size_t n = 0;
    for (size_t i = 0; i < nch; i++) {
        uint32_t par[POREP_DEGREE];
        porep_graph_parents(par, &g, (uint32_t)ch[i]);
        ss.cols[n++].node = ch[i];
        for (int j = 0; j < POREP_DEGREE; j++)
            ss.cols[n++].node = par[j];
    }
    qsort(ss.cols, n, sizeof *ss.cols, cmp_scol);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || ss.cols[m - 1].node != ss.cols[i].node)
            ss.cols[m++].node = ss.cols[i].node;
    ss.ncols = m;
    for (size_t i = 0; i < m; i++)
        for (unsigned l = 0; l < L; l++)
            rand_dom(&ss.cols[i].rows[l], key, ss.cols[i].node, l);
    for (size_t i = 0; i < nch; i++)
        col_find(&ss, ch[i])->challenged = 1;
    /* challenged labels, layer by layer, in increasing node order */
    for (unsigned l = 1; l <= L; l++)
        for (size_t i = 0; i < m; i++) {
            scol_t *col = &ss.cols[i];
            if (!col->challenged)
                continue;
            uint32_t par[POREP_DEGREE];
            porep_graph_parents(par, &g, (uint32_t)col->node);
            porep_dom_t vals[POREP_DEGREE], p37[POREP_LABEL_PARENTS];
            for (int j = 0; j < POREP_BASE_DEGREE; j++)
                vals[j] = col_find(&ss, par[j])->rows[l - 1];
            if (l > 1)
                for (int j = POREP_BASE_DEGREE; j < POREP_DEGREE; j++)
                    vals[j] = col_find(&ss, par[j])->rows[l - 2];
            porep_label_parents_expand(p37, vals, l);
            porep_label_hash(&col->rows[l - 1], &c->replica_id, l, col->node, p37, POREP_LABEL_PARENTS);
        }
    /* leaves of the three trees */
    size_t nchal = 0;
    for (size_t i = 0; i < m; i++)
        nchal += (size_t)ss.cols[i].challenged;
    ld = gm_alloc(nchal * sizeof *ld);
    lr = gm_alloc(nchal * sizeof *lr);
    lc = gm_alloc(m * sizeof *lc);
    if (!ld || !lr || !lc) {
        rc = gm_err_set(err, GM_ENOMEM, "synthetic: no memory");
        goto done;
    }
    for (size_t i = 0, j = 0; i < m; i++) {
        scol_t *col = &ss.cols[i];
        lc[i].index = col->node;
        if ((rc = porep_column_hash(&lc[i].v, h, col->rows, L)))
            goto done;
        if (!col->challenged)
            continue;
        ld[j].index = lr[j].index = col->node;
        rand_dom(&ld[j].v, key, col->node, 1000);
        if ((rc = porep_encode(&lr[j].v, &col->rows[L - 1], &ld[j].v)))
            goto done;
        j++;
    }
    porep_tree_shape_t td, trc;
    porep_tree_shape_d(&td, &shape);
    porep_tree_shape_rc(&trc, &shape);
    rc = stree_build(&ss.d, &td, h, ld, nchal, err);
    ld = NULL;
    if (!rc) {
        rc = stree_build(&ss.r, &trc, h, lr, nchal, err);
        lr = NULL;
    }
    if (!rc) {
        rc = stree_build(&ss.c, &trc, h, lc, m, err);
        lc = NULL;
    }
    if (rc)
        goto done;
    stree_get(&ss.d, &c->comm_d, td.n_levels, 0);
    porep_dom_t pair[2];
    stree_get(&ss.c, &pair[0], trc.n_levels, 0);
    stree_get(&ss.r, &pair[1], trc.n_levels, 0);
    if ((rc = porep_tree_hash(&c->comm_r, h, POREP_HASH_POSEIDON, pair, 2)))
        goto done;
    porep_src_t src = {&ss, s_tree_d, s_tree_c, s_tree_r, s_label};
    for (size_t i = 0; i < nch && !rc; i++)
        rc = porep_vproof_build(&c->proofs[i], &src, &shape, &g, h, ch[i], err);
done:
    gm_free(ch);
    gm_free(ld);
    gm_free(lr);
    gm_free(lc);
    gm_free(ss.cols);
    stree_free(&ss.d);
    stree_free(&ss.c);
    stree_free(&ss.r);
    porep_graph_destroy(&g);
    if (rc) {
        porep_c1_free(c);
        memset(c, 0, sizeof *c);
    }
    return rc;
}
