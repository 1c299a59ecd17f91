/*
 * synth/porep/vanilla.c — vanilla SDR proofs: building one challenge's proof
 * from a sector (sealed files or a sparse synthetic sector), C1 of a sealed
 * directory, the native verifier, and the conversion to the circuit witness.
 *
 * The verifier checks more than rust-fil-proofs' Proof::verify (params.rs):
 * it also checks that the labeling proofs' parents are the parent columns'
 * values (the circuit takes them from the columns), that every tree_c root
 * is the same, and that the challenges are the derived ones. Each failure
 * names the JSON path of the offending value and the check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"

int porep_graph_for(porep_graph_t *g, const porep_proof_t *p, err_t *err)
{
    uint8_t id[32];
    porep_id_make(id, p);
    return porep_graph_init(g, p->sector_size / POREP_NODE_SIZE, id, p->api, err);
}

/* ---- building ---------------------------------------------------------------------- */

static unsigned sub_top(const porep_shape_t *s)
{
    return s->top_arity ? 2 : s->sub_arity ? 1 : 0;
}

static int build_column(porep_column_proof_t *c, const porep_src_t *src, const porep_shape_t *s,
                        const porep_tree_shape_t *trc, uint64_t node, err_t *err)
{
    c->index = (uint32_t)node;
    c->n_rows = s->layers;
    for (unsigned l = 1; l <= s->layers; l++) {
        int rc = src->label(src->arg, &c->rows[l - 1], l, node, err);
        if (rc)
            return rc;
    }
    return porep_tree_prove(&c->proof, trc, sub_top(s), node, src->tree_c, src->arg, err);
}

int porep_vproof_build(porep_vproof_t *p, const porep_src_t *src, const porep_shape_t *s, const porep_graph_t *g,
                       const porep_hashers_t *h, uint64_t challenge, err_t *err)
{
    (void)h;
    porep_tree_shape_t td, trc;
    porep_tree_shape_d(&td, s);
    porep_tree_shape_rc(&trc, s);
    memset(p, 0, sizeof *p);
    int rc;
    if ((rc = porep_tree_prove(&p->comm_d_proof, &td, 0, challenge, src->tree_d, src->arg, err)) ||
        (rc = porep_tree_prove(&p->comm_r_last_proof, &trc, sub_top(s), challenge, src->tree_r, src->arg, err)) ||
        (rc = build_column(&p->c_x, src, s, &trc, challenge, err)))
        return rc;
    uint32_t par[POREP_DEGREE];
    porep_graph_parents(par, g, (uint32_t)challenge);
    p->n_drg = POREP_BASE_DEGREE;
    p->n_exp = POREP_EXP_DEGREE;
    for (int i = 0; i < POREP_BASE_DEGREE; i++)
        if ((rc = build_column(&p->drg[i], src, s, &trc, par[i], err)))
            return rc;
    for (int i = 0; i < POREP_EXP_DEGREE; i++)
        if ((rc = build_column(&p->exp[i], src, s, &trc, par[POREP_BASE_DEGREE + i], err)))
            return rc;
    p->n_labeling = s->layers;
    for (unsigned l = 1; l <= s->layers; l++) {
        porep_dom_t vals[POREP_DEGREE];
        for (int i = 0; i < POREP_BASE_DEGREE; i++)
            vals[i] = p->drg[i].rows[l - 1];
        if (l > 1)
            for (int i = 0; i < POREP_EXP_DEGREE; i++)
                vals[POREP_BASE_DEGREE + i] = p->exp[i].rows[l - 2];
        porep_label_proof_t *lp = &p->labeling[l - 1];
        lp->layer_index = l;
        lp->node = challenge;
        lp->n_parents = POREP_LABEL_PARENTS;
        porep_label_parents_expand(lp->parents, vals, l);
    }
    p->encoding = p->labeling[s->layers - 1];
    return 0;
}

/* ---- C1 of a sealed directory -------------------------------------------------------- */

typedef struct {
    int fd_d, fd_c, fd_r, fd_l;
    porep_tree_shape_t td, trc;
    uint64_t nodes;
    const char *dir;
} files_t;

static int pread_node(int fd, porep_dom_t *out, uint64_t idx, const char *dir, const char *name, err_t *err)
{
    ssize_t n = pread(fd, out->b, 32, (off_t)(idx * 32));
    if (n != 32)
        return gm_err_set(err, GM_EIO, "%s/%s: cannot read node %llu: %s", dir, name, (unsigned long long)idx,
                          n < 0 ? strerror(errno) : "file too short");
    return 0;
}

static int f_tree_d(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err)
{
    files_t *f = arg;
    return pread_node(f->fd_d, out, f->td.level_off[level] + index, f->dir, "tree-d.dat", err);
}

static int f_tree_c(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err)
{
    files_t *f = arg;
    return pread_node(f->fd_c, out, f->trc.level_off[level] + index, f->dir, "tree-c.dat", err);
}

static int f_tree_r(void *arg, porep_dom_t *out, unsigned level, uint64_t index, err_t *err)
{
    files_t *f = arg;
    return pread_node(f->fd_r, out, f->trc.level_off[level] + index, f->dir, "tree-r-last.dat", err);
}

static int f_label(void *arg, porep_dom_t *out, unsigned layer, uint64_t node, err_t *err)
{
    files_t *f = arg;
    return pread_node(f->fd_l, out, (uint64_t)(layer - 1) * f->nodes + node, f->dir, "labels.dat", err);
}

static int open_sized(int *fd, const char *dir, const char *name, uint64_t bytes, err_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(*fd, &st) != 0 || (uint64_t)st.st_size != bytes)
        return gm_err_set(err, GM_EFORMAT, "%s: expected %llu bytes, found %llu", path, (unsigned long long)bytes,
                          (unsigned long long)st.st_size);
    return 0;
}

/* The challenges of partition k of c, of its registered proof's kind
 * (interactive; SyntheticPoRep from replica_id, comm_r and the seed). */
static int c1_challenges(uint64_t *ch, const porep_c1_t *c, unsigned k, err_t *err)
{
    porep_config_t cfg;
    int rc = porep_config_from_proof(&cfg, c->proof, err);
    if (rc)
        return rc;
    if (cfg.challenges != c->challenges)
        return gm_err_set(err, GM_EINVAL, "C1 %s: %u challenges per partition, its config has %u", c->proof->name,
                          c->challenges, cfg.challenges);
    return porep_challenges(ch, &cfg, &c->replica_id, &c->comm_r, c->seed, k, err);
}

int porep_c1_prove(porep_c1_t *c, const char *dir, const uint8_t seed[32], const porep_hashers_t *h, err_t *err)
{
    memset(c, 0, sizeof *c);
    porep_sealed_t s;
    int rc = porep_sealed_load(&s, dir, err);
    if (rc)
        return rc;
    files_t f = {-1, -1, -1, -1, .nodes = s.shape.nodes, .dir = dir};
    porep_tree_shape_d(&f.td, &s.shape);
    porep_tree_shape_rc(&f.trc, &s.shape);
    porep_graph_t g;
    memset(&g, 0, sizeof g);
    if ((rc = open_sized(&f.fd_d, dir, "tree-d.dat", f.td.total * 32, err)) ||
        (rc = open_sized(&f.fd_c, dir, "tree-c.dat", f.trc.total * 32, err)) ||
        (rc = open_sized(&f.fd_r, dir, "tree-r-last.dat", f.trc.total * 32, err)) ||
        (rc = open_sized(&f.fd_l, dir, "labels.dat", (uint64_t)s.shape.layers * s.shape.nodes * 32, err)) ||
        (rc = porep_graph_for(&g, s.proof, err)) ||
        (rc = porep_c1_alloc(c, s.shape.partitions, s.shape.challenges, err)))
        goto done;
    c->proof = s.proof;
    c->shape = s.shape;
    c->comm_r = s.comm_r;
    c->comm_d = s.comm_d;
    c->replica_id = s.replica_id;
    memcpy(c->seed, seed, 32);
    memcpy(c->ticket, s.ticket, 32);
    porep_src_t src = {&f, f_tree_d, f_tree_c, f_tree_r, f_label};
    for (unsigned k = 0; k < c->partitions && !rc; k++) {
        uint64_t ch[32];
        if ((rc = c1_challenges(ch, c, k, err)))
            break;
        for (unsigned i = 0; i < c->challenges && !rc; i++)
            rc = porep_vproof_build(&c->proofs[(size_t)k * c->challenges + i], &src, &s.shape, &g, h, ch[i], err);
    }
done:
    porep_graph_destroy(&g);
    int fds[] = {f.fd_d, f.fd_c, f.fd_r, f.fd_l};
    for (int i = 0; i < 4; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    if (rc) {
        porep_c1_free(c);
        memset(c, 0, sizeof *c);
    }
    return rc;
}

/* ---- verifier ------------------------------------------------------------------------ */

typedef struct {
    const porep_c1_t *c;
    const porep_hashers_t *h;
    const char *name;
    char where[160]; /* "vanilla_proofs.X[k][i] (challenge N)" */
    err_t *err;
} vctx_t;

static int vfail(vctx_t *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int vfail(vctx_t *v, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gm_err_set(v->err, GM_EVERIFY, "%s: %s: %s", v->name, v->where, msg);
}

static void dom_hex(char out[65], const porep_dom_t *d)
{
    gm_hex_encode(out, d->b, 32);
}

/* A Merkle proof: hashes to its own root, proves `node`, and (when want is
 * not NULL) has root *want. what is the JSON path below the challenge. */
static int check_mproof(vctx_t *v, const porep_merkle_proof_t *p, porep_hash_t hash, uint64_t node,
                        const porep_dom_t *want, const char *want_name, const char *what)
{
    porep_dom_t root;
    uint64_t idx;
    int rc = porep_merkle_root(&root, &idx, p, hash, v->h);
    if (rc == GM_ENONCANON)
        return vfail(v, "%s: a path value is not a field element (>= r)", what);
    if (rc)
        return vfail(v, "%s: malformed path (an index beyond its arity)", what);
    if (idx != node)
        return vfail(v, "%s: path proves node %llu, expected node %llu", what, (unsigned long long)idx,
                     (unsigned long long)node);
    if (memcmp(root.b, p->root.b, 32) != 0) {
        char a[65], b[65];
        dom_hex(a, &root);
        dom_hex(b, &p->root);
        return vfail(v, "%s: path does not hash to its root (computed %s, root %s)", what, a, b);
    }
    if (want && memcmp(p->root.b, want->b, 32) != 0) {
        char a[65], b[65];
        dom_hex(a, &p->root);
        dom_hex(b, want);
        return vfail(v, "%s: root %s is not %s %s", what, a, want_name, b);
    }
    return 0;
}

static int check_column(vctx_t *v, const porep_column_proof_t *col, uint64_t node, const porep_dom_t *comm_c,
                        const char *what)
{
    char w[200];
    if (col->index != node)
        return vfail(v, "%s.column.index: %u, expected node %llu", what, col->index, (unsigned long long)node);
    porep_dom_t hsh;
    int rc = porep_column_hash(&hsh, v->h, col->rows, col->n_rows);
    if (rc)
        return vfail(v, "%s.column.rows: a label is not a field element (>= r)", what);
    if (memcmp(hsh.b, col->proof.leaf.b, 32) != 0)
        return vfail(v, "%s: column hash is not the leaf of its inclusion proof", what);
    snprintf(w, sizeof w, "%s.inclusion_proof", what);
    return check_mproof(v, &col->proof, POREP_HASH_POSEIDON, node, comm_c, "comm_c", w);
}

static int check_label(vctx_t *v, const porep_label_proof_t *lp, uint32_t layer, uint64_t node,
                       const porep_dom_t *want_parents, const porep_dom_t *want_label, const char *what,
                       const char *label_src)
{
    if (lp->layer_index != layer)
        return vfail(v, "%s.layer_index: %u, expected %u", what, lp->layer_index, layer);
    if (lp->node != node)
        return vfail(v, "%s.node: %llu, expected the challenge %llu", what, (unsigned long long)lp->node,
                     (unsigned long long)node);
    for (unsigned i = 0; i < POREP_LABEL_PARENTS; i++)
        if (memcmp(lp->parents[i].b, want_parents[i].b, 32) != 0)
            return vfail(v, "%s.parents[%u]: does not match the parent column it comes from", what, i);
    if (!want_label)
        return 0;
    porep_dom_t lab;
    porep_label_hash(&lab, &v->c->replica_id, layer, node, lp->parents, POREP_LABEL_PARENTS);
    if (memcmp(lab.b, want_label->b, 32) != 0)
        return vfail(v, "%s: label does not match %s", what, label_src);
    return 0;
}

static int verify_one(vctx_t *v, const porep_vproof_t *p, const porep_graph_t *g, uint64_t challenge,
                      const porep_dom_t *comm_c)
{
    const porep_shape_t *s = &v->c->shape;
    int rc;
    if (p->c_x.index != challenge)
        return vfail(v, "replica_column_proofs.c_x.column.index: %u, but the challenge derived from replica_id "
                        "and seed is %llu", p->c_x.index, (unsigned long long)challenge);
    if ((rc = check_mproof(v, &p->comm_d_proof, POREP_HASH_SHA256, challenge, &v->c->comm_d, "comm_d",
                           "comm_d_proofs")) ||
        (rc = check_mproof(v, &p->comm_r_last_proof, POREP_HASH_POSEIDON, challenge,
                           &v->c->proofs[0].comm_r_last_proof.root, "comm_r_last", "comm_r_last_proof")) ||
        (rc = check_column(v, &p->c_x, challenge, comm_c, "replica_column_proofs.c_x")))
        return rc;
    uint32_t par[POREP_DEGREE];
    porep_graph_parents(par, g, (uint32_t)challenge);
    char w[96];
    for (int i = 0; i < POREP_BASE_DEGREE; i++) {
        snprintf(w, sizeof w, "replica_column_proofs.drg_parents[%d]", i);
        if ((rc = check_column(v, &p->drg[i], par[i], comm_c, w)))
            return rc;
    }
    for (int i = 0; i < POREP_EXP_DEGREE; i++) {
        snprintf(w, sizeof w, "replica_column_proofs.exp_parents[%d]", i);
        if ((rc = check_column(v, &p->exp[i], par[POREP_BASE_DEGREE + i], comm_c, w)))
            return rc;
    }
    for (unsigned l = 1; l <= s->layers; l++) {
        porep_dom_t vals[POREP_DEGREE], want[POREP_LABEL_PARENTS];
        for (int i = 0; i < POREP_BASE_DEGREE; i++)
            vals[i] = p->drg[i].rows[l - 1];
        if (l > 1)
            for (int i = 0; i < POREP_EXP_DEGREE; i++)
                vals[POREP_BASE_DEGREE + i] = p->exp[i].rows[l - 2];
        porep_label_parents_expand(want, vals, l);
        char src[96];
        snprintf(w, sizeof w, "labeling_proofs[%u]", l - 1);
        snprintf(src, sizeof src, "replica_column_proofs.c_x.column.rows[%u]", l - 1);
        if ((rc = check_label(v, &p->labeling[l - 1], l, challenge, want, &p->c_x.rows[l - 1], w, src)))
            return rc;
    }
    const porep_label_proof_t *last = &p->labeling[s->layers - 1];
    if ((rc = check_label(v, &p->encoding, s->layers, challenge, last->parents, NULL, "encoding_proof", NULL)))
        return rc;
    porep_dom_t key, enc;
    porep_label_hash(&key, &v->c->replica_id, s->layers, challenge, p->encoding.parents, POREP_LABEL_PARENTS);
    if (porep_encode(&enc, &key, &p->comm_d_proof.leaf) != 0)
        return vfail(v, "comm_d_proofs: data leaf is not a field element (>= r)");
    if (memcmp(enc.b, p->comm_r_last_proof.leaf.b, 32) != 0)
        return vfail(v, "encoding_proof: data leaf + key is not the replica leaf of comm_r_last_proof");
    return 0;
}

int porep_c1_verify(const porep_c1_t *c, const porep_graph_t *g, const porep_hashers_t *h, const char *name,
                    err_t *err)
{
    vctx_t v = {c, h, name, "", err};
    const char *variant = porep_c1_variant(c->proof);
    if (c->proof->id >= 15)
        return gm_err_set(err, GM_ENOTSUP, "%s: registered_proof: %s: NonInteractivePoRep C1s (13 or 126 partitions) "
                                           "are not checked here; interactive and SyntheticPoRep ones are",
                          name, c->proof->name);
    if (g->nodes != c->shape.nodes)
        return gm_err_set(err, GM_EINVAL, "%s: the graph has %llu nodes, the proof %llu", name,
                          (unsigned long long)g->nodes, (unsigned long long)c->shape.nodes);
    if (c->partitions != c->shape.partitions || c->challenges != c->shape.challenges)
        return gm_err_set(err, GM_EVERIFY, "%s: vanilla_proofs.%s: %u partitions of %u proofs, %s needs %u of %u",
                          name, variant, c->partitions, c->challenges, c->proof->name, c->shape.partitions,
                          c->shape.challenges);
    /* comm_c and comm_r_last from the first challenge; comm_r binds them */
    const porep_vproof_t *p0 = &c->proofs[0];
    const porep_dom_t *comm_c = &p0->c_x.proof.root;
    porep_dom_t pair[2] = {*comm_c, p0->comm_r_last_proof.root}, comm_r;
    snprintf(v.where, sizeof v.where, "comm_r");
    if (porep_tree_hash(&comm_r, h, POREP_HASH_POSEIDON, pair, 2) != 0)
        return vfail(&v, "comm_c or comm_r_last of %s[0][0] is not a field element", variant);
    if (memcmp(comm_r.b, c->comm_r.b, 32) != 0)
        return vfail(&v, "is not Poseidon2(comm_c, comm_r_last) of the roots in vanilla_proofs.%s[0][0]", variant);
    for (unsigned k = 0; k < c->partitions; k++) {
        uint64_t ch[32];
        int rc = c1_challenges(ch, c, k, err);
        if (rc)
            return rc;
        for (unsigned i = 0; i < c->challenges; i++) {
            snprintf(v.where, sizeof v.where, "vanilla_proofs.%s[%u][%u] (challenge %llu)", variant, k, i,
                     (unsigned long long)ch[i]);
            int rc = verify_one(&v, &c->proofs[(size_t)k * c->challenges + i], g, ch[i], comm_c);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ---- circuit witness ------------------------------------------------------------------ */

static int to_fr(fr_t *out, const porep_dom_t *d, const char *what, err_t *err)
{
    if (fr_from_bytes_le(out, d->b) != 0)
        return gm_err_set(err, GM_EINVAL, "C1 witness: %s is not a field element", what);
    return 0;
}

static int path_to_witness(stacked_path_t *w, const porep_merkle_proof_t *p, uint64_t index, err_t *err)
{
    w->index = index;
    size_t k = 0;
    for (unsigned l = 0; l < p->n_path; l++)
        for (unsigned j = 0; j < p->path[l].n_hashes; j++) {
            int rc = to_fr(&w->siblings[k++], &p->path[l].hashes[j], "a path sibling", err);
            if (rc)
                return rc;
        }
    return 0;
}

int porep_c1_witness(stacked_witness_t *w, const stacked_config_t *cfg, const porep_c1_t *c, unsigned k,
                     err_t *err)
{
    const porep_shape_t *s = &c->shape;
    if (k >= c->partitions || cfg->nodes != s->nodes || cfg->challenges != c->challenges ||
        cfg->layers != s->layers)
        return gm_err_set(err, GM_EINVAL, "C1 witness: partition %u or the circuit shape does not match the C1 "
                                          "(%u partitions of %u challenges, %llu nodes)",
                          k, c->partitions, c->challenges, (unsigned long long)s->nodes);
    const porep_vproof_t *p0 = &c->proofs[(size_t)k * c->challenges];
    int rc;
    if ((rc = to_fr(&w->replica_id, &c->replica_id, "replica_id", err)) ||
        (rc = to_fr(&w->comm_d, &c->comm_d, "comm_d", err)) || (rc = to_fr(&w->comm_r, &c->comm_r, "comm_r", err)) ||
        (rc = to_fr(&w->comm_r_last, &p0->comm_r_last_proof.root, "comm_r_last", err)) ||
        (rc = to_fr(&w->comm_c, &p0->c_x.proof.root, "comm_c", err)))
        return rc;
    for (unsigned i = 0; i < c->challenges; i++) {
        const porep_vproof_t *p = &c->proofs[(size_t)k * c->challenges + i];
        stacked_challenge_t *ch = &w->ch[i];
        uint64_t node = p->c_x.index;
        ch->challenge = node;
        if ((rc = to_fr(&ch->data_leaf, &p->comm_d_proof.leaf, "a data leaf", err)) ||
            (rc = path_to_witness(&ch->comm_d_path, &p->comm_d_proof, node, err)) ||
            (rc = path_to_witness(&ch->comm_r_last_path, &p->comm_r_last_proof, node, err)) ||
            (rc = path_to_witness(&ch->comm_c_path, &p->c_x.proof, node, err)))
            return rc;
        for (int j = 0; j < STACKED_PARENTS; j++) {
            const porep_column_proof_t *col = j < POREP_BASE_DEGREE ? &p->drg[j] : &p->exp[j - POREP_BASE_DEGREE];
            stacked_column_t *wc = &ch->parents[j];
            wc->node = col->index;
            for (unsigned l = 0; l < s->layers; l++)
                if ((rc = to_fr(&wc->rows[l], &col->rows[l], "a column label", err)))
                    return rc;
            if ((rc = path_to_witness(&wc->path, &col->proof, col->index, err)))
                return rc;
        }
    }
    return 0;
}
