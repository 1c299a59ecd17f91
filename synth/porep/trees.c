/*
 * synth/porep/trees.c — the Merkle trees of SDR: tree_d (SHA-256, binary,
 * leaves are the raw data nodes) and tree_c / tree_r_last (Poseidon, oct base
 * trees with an optional sub and top level), their dense construction, empty
 * digests, inclusion proofs in rust-fil-proofs' MerkleProof form, and path
 * verification.
 *
 * A compound tree (LCTree<U8, U8, U2>) is handled as one mixed-arity tree:
 * its base trees cover contiguous leaf ranges, so leaf i lies in base tree
 * i / 8^base_levels and the sub and top levels are just two more levels of
 * arity 8 and 2. rust-fil-proofs' path_index (SubProof, TopProof) is the same
 * mixed-radix number (storage-proofs-core merkle/proof.rs).
 *
 * Threads: porep_tree_build splits each level into tiles run on a topo pool;
 * each tile writes a disjoint range of the next level.
 */
#include <openssl/evp.h>
#include <string.h>

#include "synth/porep/porep.h"

int porep_hashers_init(porep_hashers_t *h, err_t *err)
{
    memset(h, 0, sizeof *h);
    return poseidon_set_init(&h->ps, err);
}

void porep_hashers_free(porep_hashers_t *h)
{
    if (h)
        poseidon_set_free(&h->ps);
}

static void shape_offsets(porep_tree_shape_t *t)
{
    uint64_t n = t->leaves, off = 0;
    for (unsigned l = 0; l < t->n_levels; l++) {
        t->level_off[l] = off;
        off += n;
        n /= t->arity[l];
    }
    t->level_off[t->n_levels] = off;
    t->total = off + 1;
}

void porep_tree_shape_d(porep_tree_shape_t *t, const porep_shape_t *s)
{
    memset(t, 0, sizeof *t);
    t->hash = POREP_HASH_SHA256;
    t->n_levels = s->log2_nodes;
    for (unsigned l = 0; l < t->n_levels; l++)
        t->arity[l] = 2;
    t->leaves = s->nodes;
    shape_offsets(t);
}

void porep_tree_shape_rc(porep_tree_shape_t *t, const porep_shape_t *s)
{
    memset(t, 0, sizeof *t);
    t->hash = POREP_HASH_POSEIDON;
    unsigned n = 0;
    for (unsigned l = 0; l < s->base_levels; l++)
        t->arity[n++] = 8;
    if (s->sub_arity)
        t->arity[n++] = s->sub_arity;
    if (s->top_arity)
        t->arity[n++] = s->top_arity;
    t->n_levels = n;
    t->leaves = s->nodes;
    shape_offsets(t);
}

int porep_tree_hash(porep_dom_t *out, const porep_hashers_t *h, porep_hash_t hash, const porep_dom_t *children,
                    unsigned n)
{
    if (hash == POREP_HASH_SHA256) {
        GM_ASSERT(n == 2);
        unsigned len = 0;
        uint8_t d[32];
        /* EVP_Digest fails only when libcrypto lacks SHA-256 altogether */
        GM_ASSERT(EVP_Digest(children, 64, d, &len, EVP_sha256(), NULL) == 1 && len == 32);
        memcpy(out->b, d, 32);
        out->b[31] &= 0x3F;
        return 0;
    }
    const poseidon_t *p = poseidon_set_get(&h->ps, n);
    GM_ASSERT(p != NULL);
    fr_t in[POSEIDON_MAX_WIDTH], o;
    for (unsigned i = 0; i < n; i++)
        if (fr_from_bytes_le(&in[i], children[i].b) != 0)
            return GM_ENONCANON;
    poseidon_hash(p, &o, in);
    fr_to_bytes_le(out->b, &o);
    return 0;
}

int porep_column_hash(porep_dom_t *out, const porep_hashers_t *h, const porep_dom_t *rows, unsigned n)
{
    if (n != 2 && n != 11)
        return GM_EINVAL;
    return porep_tree_hash(out, h, POREP_HASH_POSEIDON, rows, n);
}

/* ---- dense build ------------------------------------------------------------------ */

typedef struct {
    porep_dom_t *nodes;
    const porep_tree_shape_t *t;
    const porep_hashers_t *h;
    unsigned level;
    uint64_t count, first, per_task; /* parents [first, count) of this round */
    int *status;        /* per task */
    uint64_t *bad;      /* per task: the first child index that failed */
} build_arg_t;

/* One tile: parents [task * per_task, ...) of level `level + 1`. Poseidon
 * dominates: 8 children cost one arity-8 permutation. */
static void build_task(void *varg, size_t task, unsigned worker)
{
    (void)worker;
    build_arg_t *a = varg;
    unsigned ar = a->t->arity[a->level];
    const porep_dom_t *src = a->nodes + a->t->level_off[a->level];
    porep_dom_t *dst = a->nodes + a->t->level_off[a->level + 1];
    uint64_t lo = a->first + task * a->per_task, hi = lo + a->per_task;
    if (hi > a->count)
        hi = a->count;
    for (uint64_t i = lo; i < hi; i++) {
        if (porep_tree_hash(&dst[i], a->h, a->t->hash, &src[i * ar], ar) != 0) {
            a->status[task] = GM_ENONCANON;
            a->bad[task] = i * ar;
            return;
        }
    }
}

int porep_tree_build(porep_dom_t *nodes, const porep_tree_shape_t *t, const porep_hashers_t *h, topo_pool_t *pool,
                     porep_progress_fn progress, void *progress_arg, err_t *err)
{
    enum { MAX_TASKS = 256, ROUND = 1 << 15 };
    int status[MAX_TASKS];
    uint64_t bad[MAX_TASKS], done = 0, total = t->total - t->leaves;
    for (unsigned l = 0; l < t->n_levels; l++) {
        uint64_t count = (t->level_off[l + 1] - t->level_off[l]) / t->arity[l];
        /* rounds of at most ROUND parents, so a caller hears of progress */
        for (uint64_t first = 0; first < count; first += ROUND) {
            uint64_t n = count - first < ROUND ? count - first : ROUND;
            uint64_t ntasks = n < MAX_TASKS ? n : MAX_TASKS;
            build_arg_t a = {nodes, t, h, l, first + n, first, (n + ntasks - 1) / ntasks, status, bad};
            ntasks = (n + a.per_task - 1) / a.per_task;
            memset(status, 0, sizeof status);
            topo_pool_run(pool, (size_t)ntasks, build_task, &a);
            for (uint64_t k = 0; k < ntasks; k++)
                if (status[k])
                    return gm_err_set(err, status[k], "tree level %u: a node among %llu..%llu is not below r", l,
                                      (unsigned long long)bad[k], (unsigned long long)(bad[k] + t->arity[l] - 1));
            done += n;
            if (progress)
                progress(progress_arg, done, total);
        }
    }
    return 0;
}

int porep_tree_empty(porep_dom_t *out, const porep_tree_shape_t *t, const porep_hashers_t *h, const porep_dom_t *leaf)
{
    out[0] = *leaf;
    for (unsigned l = 0; l < t->n_levels; l++) {
        porep_dom_t ch[POREP_MAX_ARITY];
        for (unsigned i = 0; i < t->arity[l]; i++)
            ch[i] = out[l];
        int rc = porep_tree_hash(&out[l + 1], h, t->hash, ch, t->arity[l]);
        if (rc)
            return rc;
    }
    return 0;
}

int porep_tree_prove(porep_merkle_proof_t *out, const porep_tree_shape_t *t, unsigned n_sub_top, uint64_t index,
                     porep_node_fn get, void *arg, err_t *err)
{
    GM_ASSERT(index < t->leaves && n_sub_top <= 2 && t->n_levels <= POREP_MAX_TREE_LEVELS);
    memset(out, 0, sizeof *out);
    out->kind = (porep_mp_kind_t)n_sub_top;
    int rc;
    if ((rc = get(arg, &out->leaf, 0, index, err)) || (rc = get(arg, &out->root, t->n_levels, 0, err)))
        return rc;
    uint64_t idx = index;
    for (unsigned l = 0; l < t->n_levels; l++) {
        unsigned a = t->arity[l], pos = (unsigned)(idx % a);
        uint64_t first = idx - pos;
        porep_path_elem_t *e = &out->path[l];
        e->n_hashes = (uint8_t)(a - 1);
        e->index = (uint8_t)pos;
        for (unsigned i = 0, k = 0; i < a; i++) {
            if (i == pos)
                continue;
            if ((rc = get(arg, &e->hashes[k++], l, first + i, err)))
                return rc;
        }
        idx /= a;
    }
    out->n_path = t->n_levels;
    return 0;
}

int porep_merkle_root(porep_dom_t *root, uint64_t *index, const porep_merkle_proof_t *p, porep_hash_t hash,
                      const porep_hashers_t *h)
{
    porep_dom_t cur = p->leaf;
    uint64_t idx = 0, mult = 1;
    for (unsigned l = 0; l < p->n_path; l++) {
        const porep_path_elem_t *e = &p->path[l];
        unsigned a = e->n_hashes + 1u;
        if (e->index >= a || a > POREP_MAX_ARITY || (hash == POREP_HASH_SHA256 && a != 2))
            return GM_EFORMAT;
        porep_dom_t ch[POREP_MAX_ARITY];
        for (unsigned i = 0, k = 0; i < a; i++)
            ch[i] = i == e->index ? cur : e->hashes[k++];
        int rc = porep_tree_hash(&cur, h, hash, ch, a);
        if (rc)
            return rc;
        idx += e->index * mult;
        mult *= a;
    }
    *root = cur;
    *index = idx;
    return 0;
}
