/*
 * synth/porep/c1.c — C1 (SealCommitPhase1Output) JSON: reading with a JSON
 * path in every error, and streaming writing in the same layout.
 *
 * The layout is serde_json's rendering of filecoin-proofs-api
 * SealCommitPhase1Output (src/seal.rs) over rust-fil-proofs' types
 * (@ 87348a7): field order as declared; [u8; 32] and the Domain newtypes as
 * arrays of 32 numbers; enums externally tagged ({"Single": {...}});
 * Column's PhantomData field "_h" as null (serde does not skip it, and a
 * reader of ours accepts it missing); LabelingProof, EncodingProof and
 * PathElement skip theirs. InclusionPath is a struct, hence "path":
 * {"path": [...]}.
 *
 *   {"registered_proof": "StackedDrg2KiBV1_1",
 *    "vanilla_proofs": {"StackedDrg2KiBV1": [[Proof, ...], ...]},
 *    "comm_r": [..32], "comm_d": [..], "replica_id": [..], "seed": [..], "ticket": [..]}
 *   Proof = {"comm_d_proofs": MP, "comm_r_last_proof": MP,
 *            "replica_column_proofs": {"c_x": CP, "drg_parents": [CP x6], "exp_parents": [CP x8]},
 *            "labeling_proofs": [LP x layers], "encoding_proof": LP}
 *   MP = {"data": {"Single": {"root", "leaf", "path": {"path": [E..]}}}}
 *      | {"data": {"Sub": {"base_proof": {"path"}, "sub_proof": {"path"}, "root", "leaf"}}}
 *      | {"data": {"Top": {"base_proof", "sub_proof", "top_proof", "root", "leaf"}}}
 *   E  = {"hashes": [..arity-1], "index": n}
 *   CP = {"column": {"index": n, "rows": [..layers], "_h": null}, "inclusion_proof": MP}
 *   LP = {"parents": [..37], "layer_index": l, "node": n}
 *
 * The reader uses jansson's tree (one C1 of 32 GiB is ~30 MB of JSON); the
 * writer streams, so writing needs no tree.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"

const char *porep_c1_variant(const porep_proof_t *proof)
{
    switch (proof->sector_size) {
    case 2048ULL: return "StackedDrg2KiBV1";
    case 8ULL << 20: return "StackedDrg8MiBV1";
    case 512ULL << 20: return "StackedDrg512MiBV1";
    case 32ULL << 30: return "StackedDrg32GiBV1";
    case 64ULL << 30: return "StackedDrg64GiBV1";
    default: return "?";
    }
}

int porep_c1_alloc(porep_c1_t *c, unsigned partitions, unsigned challenges, err_t *err)
{
    c->proofs = gm_calloc((size_t)partitions * challenges, sizeof *c->proofs);
    if (!c->proofs)
        return gm_err_set(err, GM_ENOMEM, "C1: no memory for %u x %u vanilla proofs", partitions, challenges);
    c->partitions = partitions;
    c->challenges = challenges;
    return 0;
}

void porep_c1_free(porep_c1_t *c)
{
    if (!c)
        return;
    gm_free(c->proofs);
    c->proofs = NULL;
}

/* ==== reading ============================================================== */

typedef struct {
    const char *file;
    char path[768];
    size_t len;
    err_t *err;
} rd_t;

static size_t rd_push(rd_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t rd_push(rd_t *r, const char *fmt, ...)
{
    size_t old = r->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->path + r->len, sizeof r->path - r->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->len = r->len + (size_t)n < sizeof r->path ? r->len + (size_t)n : sizeof r->path - 1;
    return old;
}

static void rd_pop(rd_t *r, size_t old)
{
    r->len = old;
    r->path[old] = '\0';
}

static int rd_fail(rd_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rd_fail(rd_t *r, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gm_err_set(r->err, GM_EFORMAT, "%s: %s: %s", r->file, r->len ? r->path : "(top level)", msg);
}

static const char *jtype(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* obj.name, which must exist; pushes ".name" on the path (caller pops). */
static json_t *rd_field(rd_t *r, json_t *obj, const char *name, size_t *old, int *rc)
{
    if (!json_is_object(obj)) {
        *rc = rd_fail(r, "expected an object, got %s", jtype(obj));
        return NULL;
    }
    json_t *v = json_object_get(obj, name);
    if (!v) {
        *rc = rd_fail(r, "missing field '%s'", name);
        return NULL;
    }
    *old = rd_push(r, "%s%s", r->len ? "." : "", name);
    return v;
}

static int rd_u64(rd_t *r, json_t *v, uint64_t max, uint64_t *out)
{
    if (!json_is_integer(v))
        return rd_fail(r, "expected an integer, got %s", jtype(v));
    json_int_t x = json_integer_value(v);
    if (x < 0 || (uint64_t)x > max)
        return rd_fail(r, "%lld is out of range 0..%llu", (long long)x, (unsigned long long)max);
    *out = (uint64_t)x;
    return 0;
}

static int rd_bytes(rd_t *r, json_t *v, uint8_t out[32])
{
    if (!json_is_array(v))
        return rd_fail(r, "expected an array of 32 bytes, got %s", jtype(v));
    size_t n = json_array_size(v);
    if (n != 32)
        return rd_fail(r, "expected 32 bytes, got %zu", n);
    for (size_t i = 0; i < 32; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 255) {
            size_t o = rd_push(r, "[%zu]", i);
            int rc = json_is_integer(e) ? rd_fail(r, "%lld is not a byte (0..255)", (long long)json_integer_value(e))
                                        : rd_fail(r, "expected a byte (0..255), got %s", jtype(e));
            rd_pop(r, o);
            return rc;
        }
        out[i] = (uint8_t)json_integer_value(e);
    }
    return 0;
}

/* A field holding 32 bytes. */
static int rd_field_bytes(rd_t *r, json_t *obj, const char *name, uint8_t out[32])
{
    size_t o;
    int rc = 0;
    json_t *v = rd_field(r, obj, name, &o, &rc);
    if (!v)
        return rc;
    rc = rd_bytes(r, v, out);
    rd_pop(r, o);
    return rc;
}

static int rd_field_u64(rd_t *r, json_t *obj, const char *name, uint64_t max, uint64_t *out)
{
    size_t o;
    int rc = 0;
    json_t *v = rd_field(r, obj, name, &o, &rc);
    if (!v)
        return rc;
    rc = rd_u64(r, v, max, out);
    rd_pop(r, o);
    return rc;
}

/* An array of exactly n domains. */
static int rd_doms(rd_t *r, json_t *v, porep_dom_t *out, size_t n)
{
    if (!json_is_array(v))
        return rd_fail(r, "expected an array of %zu byte arrays, got %s", n, jtype(v));
    if (json_array_size(v) != n)
        return rd_fail(r, "expected %zu entries, got %zu", n, json_array_size(v));
    for (size_t i = 0; i < n; i++) {
        size_t o = rd_push(r, "[%zu]", i);
        int rc = rd_bytes(r, json_array_get(v, i), out[i].b);
        rd_pop(r, o);
        if (rc)
            return rc;
    }
    return 0;
}

/* An InclusionPath {"path": [E...]} of n elements whose hashes hold arity - 1. */
static int rd_incl(rd_t *r, json_t *v, porep_path_elem_t *out, unsigned n, unsigned arity)
{
    size_t o;
    int rc = 0;
    json_t *arr = rd_field(r, v, "path", &o, &rc);
    if (!arr)
        return rc;
    if (!json_is_array(arr))
        rc = rd_fail(r, "expected an array of path elements, got %s", jtype(arr));
    else if (json_array_size(arr) != n)
        rc = rd_fail(r, "expected %u path elements, got %zu", n, json_array_size(arr));
    for (unsigned i = 0; !rc && i < n; i++) {
        size_t oi = rd_push(r, "[%u]", i);
        json_t *e = json_array_get(arr, i);
        size_t oh;
        json_t *h = rd_field(r, e, "hashes", &oh, &rc);
        if (h) {
            rc = rd_doms(r, h, out[i].hashes, arity - 1);
            rd_pop(r, oh);
        }
        uint64_t idx = 0;
        if (!rc && !(rc = rd_field_u64(r, e, "index", arity - 1, &idx))) {
            out[i].n_hashes = (uint8_t)(arity - 1);
            out[i].index = (uint8_t)idx;
        }
        rd_pop(r, oi);
    }
    rd_pop(r, o);
    return rc;
}

/* Expected form of a Merkle proof. */
typedef struct {
    porep_mp_kind_t kind;
    unsigned base_levels, base_arity, sub_arity, top_arity;
} mp_form_t;

static const char *const MP_KIND[] = {"Single", "Sub", "Top"};

static int rd_mproof(rd_t *r, json_t *v, porep_merkle_proof_t *p, const mp_form_t *f)
{
    size_t o;
    int rc = 0;
    json_t *data = rd_field(r, v, "data", &o, &rc);
    if (!data)
        return rc;
    memset(p, 0, sizeof *p);
    if (!json_is_object(data) || json_object_size(data) != 1) {
        rc = json_is_object(data) ? rd_fail(r, "expected one of Single, Sub, Top, got %zu keys", json_object_size(data))
                                  : rd_fail(r, "expected an object, got %s", jtype(data));
        rd_pop(r, o);
        return rc;
    }
    const char *key = json_object_iter_key(json_object_iter(data));
    json_t *body = json_object_get(data, key);
    if (strcmp(key, MP_KIND[f->kind]) != 0) {
        rc = rd_fail(r, "expected a %s proof for this tree shape, got '%s'", MP_KIND[f->kind], key);
        rd_pop(r, o);
        return rc;
    }
    size_t ok = rd_push(r, ".%s", key);
    p->kind = f->kind;
    if (!(rc = rd_field_bytes(r, body, "root", p->root.b)) && !(rc = rd_field_bytes(r, body, "leaf", p->leaf.b))) {
        size_t ob;
        json_t *bp = rd_field(r, body, f->kind == POREP_MP_SINGLE ? "path" : "base_proof", &ob, &rc);
        if (bp) {
            rc = rd_incl(r, bp, p->path, f->base_levels, f->base_arity);
            rd_pop(r, ob);
        }
        unsigned n = f->base_levels;
        if (!rc && f->kind >= POREP_MP_SUB) {
            json_t *sp = rd_field(r, body, "sub_proof", &ob, &rc);
            if (sp) {
                rc = rd_incl(r, sp, &p->path[n++], 1, f->sub_arity);
                rd_pop(r, ob);
            }
        }
        if (!rc && f->kind == POREP_MP_TOP) {
            json_t *tp = rd_field(r, body, "top_proof", &ob, &rc);
            if (tp) {
                rc = rd_incl(r, tp, &p->path[n++], 1, f->top_arity);
                rd_pop(r, ob);
            }
        }
        p->n_path = n;
    }
    rd_pop(r, ok);
    rd_pop(r, o);
    return rc;
}

static int rd_column(rd_t *r, json_t *v, porep_column_proof_t *c, unsigned layers, const mp_form_t *f)
{
    size_t o;
    int rc = 0;
    json_t *col = rd_field(r, v, "column", &o, &rc);
    if (!col)
        return rc;
    uint64_t idx = 0;
    if (!(rc = rd_field_u64(r, col, "index", UINT32_MAX, &idx))) {
        c->index = (uint32_t)idx;
        size_t orow;
        json_t *rows = rd_field(r, col, "rows", &orow, &rc);
        if (rows) {
            rc = rd_doms(r, rows, c->rows, layers);
            c->n_rows = layers;
            rd_pop(r, orow);
        }
    }
    json_t *h = json_object_get(col, "_h");
    if (!rc && h && !json_is_null(h)) {
        size_t oh = rd_push(r, "._h");
        rc = rd_fail(r, "expected null, got %s", jtype(h));
        rd_pop(r, oh);
    }
    rd_pop(r, o);
    if (rc)
        return rc;
    json_t *ip = rd_field(r, v, "inclusion_proof", &o, &rc);
    if (!ip)
        return rc;
    rc = rd_mproof(r, ip, &c->proof, f);
    rd_pop(r, o);
    return rc;
}

static int rd_label(rd_t *r, json_t *v, porep_label_proof_t *l)
{
    size_t o;
    int rc = 0;
    json_t *par = rd_field(r, v, "parents", &o, &rc);
    if (!par)
        return rc;
    rc = rd_doms(r, par, l->parents, POREP_LABEL_PARENTS);
    l->n_parents = POREP_LABEL_PARENTS;
    rd_pop(r, o);
    uint64_t x = 0;
    if (rc || (rc = rd_field_u64(r, v, "layer_index", UINT32_MAX, &x)))
        return rc;
    l->layer_index = (uint32_t)x;
    return rd_field_u64(r, v, "node", UINT64_MAX >> 1, &l->node);
}

/* A list field of exactly n entries, each read by fn. */
typedef int (*rd_item_fn)(rd_t *r, json_t *v, void *item, const void *ctx);

static int rd_list(rd_t *r, json_t *obj, const char *name, size_t n, void *items, size_t size, rd_item_fn fn,
                   const void *ctx)
{
    size_t o;
    int rc = 0;
    json_t *arr = rd_field(r, obj, name, &o, &rc);
    if (!arr)
        return rc;
    if (!json_is_array(arr))
        rc = rd_fail(r, "expected an array, got %s", jtype(arr));
    else if (json_array_size(arr) != n)
        rc = rd_fail(r, "expected %zu entries, got %zu", n, json_array_size(arr));
    for (size_t i = 0; !rc && i < n; i++) {
        size_t oi = rd_push(r, "[%zu]", i);
        rc = fn(r, json_array_get(arr, i), (char *)items + i * size, ctx);
        rd_pop(r, oi);
    }
    rd_pop(r, o);
    return rc;
}

typedef struct {
    unsigned layers;
    mp_form_t rc_form;
} col_ctx_t;

static int rd_column_item(rd_t *r, json_t *v, void *item, const void *ctx)
{
    const col_ctx_t *cc = ctx;
    return rd_column(r, v, item, cc->layers, &cc->rc_form);
}

static int rd_label_item(rd_t *r, json_t *v, void *item, const void *ctx)
{
    (void)ctx;
    return rd_label(r, v, item);
}

static int rd_vproof(rd_t *r, json_t *v, porep_vproof_t *p, const porep_shape_t *s)
{
    mp_form_t dform = {POREP_MP_SINGLE, s->log2_nodes, 2, 0, 0};
    col_ctx_t cc = {s->layers,
                    {s->top_arity ? POREP_MP_TOP : s->sub_arity ? POREP_MP_SUB : POREP_MP_SINGLE, s->base_levels, 8,
                     s->sub_arity, s->top_arity}};
    size_t o;
    int rc = 0;
    json_t *x;
    if (!(x = rd_field(r, v, "comm_d_proofs", &o, &rc)))
        return rc;
    rc = rd_mproof(r, x, &p->comm_d_proof, &dform);
    rd_pop(r, o);
    if (rc || !(x = rd_field(r, v, "comm_r_last_proof", &o, &rc)))
        return rc;
    rc = rd_mproof(r, x, &p->comm_r_last_proof, &cc.rc_form);
    rd_pop(r, o);
    if (rc || !(x = rd_field(r, v, "replica_column_proofs", &o, &rc)))
        return rc;
    size_t oc;
    json_t *cx = rd_field(r, x, "c_x", &oc, &rc);
    if (cx) {
        rc = rd_column(r, cx, &p->c_x, s->layers, &cc.rc_form);
        rd_pop(r, oc);
    }
    if (!rc)
        rc = rd_list(r, x, "drg_parents", POREP_BASE_DEGREE, p->drg, sizeof p->drg[0], rd_column_item, &cc);
    if (!rc)
        rc = rd_list(r, x, "exp_parents", POREP_EXP_DEGREE, p->exp, sizeof p->exp[0], rd_column_item, &cc);
    p->n_drg = POREP_BASE_DEGREE;
    p->n_exp = POREP_EXP_DEGREE;
    rd_pop(r, o);
    if (rc)
        return rc;
    if ((rc = rd_list(r, v, "labeling_proofs", s->layers, p->labeling, sizeof p->labeling[0], rd_label_item, NULL)))
        return rc;
    p->n_labeling = s->layers;
    if (!(x = rd_field(r, v, "encoding_proof", &o, &rc)))
        return rc;
    rc = rd_label(r, x, &p->encoding);
    rd_pop(r, o);
    return rc;
}

static const porep_proof_t *proof_by_name(const char *name)
{
    for (uint32_t id = 0; id < 20; id++) {
        const porep_proof_t *p = porep_proof_by_id(id);
        if (p && strcmp(p->name, name) == 0)
            return p;
    }
    return NULL;
}

static int rd_c1(rd_t *r, json_t *root, porep_c1_t *c)
{
    size_t o;
    int rc = 0;
    json_t *x = rd_field(r, root, "registered_proof", &o, &rc);
    if (!x)
        return rc;
    if (!json_is_string(x))
        rc = rd_fail(r, "expected a string, got %s", jtype(x));
    else if (!(c->proof = proof_by_name(json_string_value(x))))
        rc = rd_fail(r, "'%s' is not a registered seal proof", json_string_value(x));
    rd_pop(r, o);
    if (rc)
        return rc;
    if ((rc = porep_shape_init(&c->shape, c->proof->sector_size, r->err)))
        return rc;
    const char *variant = porep_c1_variant(c->proof);
    if (!(x = rd_field(r, root, "vanilla_proofs", &o, &rc)))
        return rc;
    if (!json_is_object(x) || json_object_size(x) != 1) {
        rc = json_is_object(x) ? rd_fail(r, "expected one key (%s), got %zu", variant, json_object_size(x))
                               : rd_fail(r, "expected an object, got %s", jtype(x));
        rd_pop(r, o);
        return rc;
    }
    const char *key = json_object_iter_key(json_object_iter(x));
    if (strcmp(key, variant) != 0) {
        rc = rd_fail(r, "proof type %s does not match registered_proof %s (expected %s)", key, c->proof->name,
                     variant);
        rd_pop(r, o);
        return rc;
    }
    json_t *outer = json_object_get(x, key);
    size_t ov = rd_push(r, ".%s", key);
    unsigned P = c->shape.partitions, C = c->shape.challenges;
    if (!json_is_array(outer))
        rc = rd_fail(r, "expected an array of partitions, got %s", jtype(outer));
    else if (json_array_size(outer) != P)
        rc = rd_fail(r, "expected %u partitions, got %zu", P, json_array_size(outer));
    else
        rc = porep_c1_alloc(c, P, C, r->err);
    for (unsigned k = 0; !rc && k < P; k++) {
        size_t ok = rd_push(r, "[%u]", k);
        json_t *inner = json_array_get(outer, k);
        if (!json_is_array(inner))
            rc = rd_fail(r, "expected an array of challenge proofs, got %s", jtype(inner));
        else if (json_array_size(inner) != C)
            rc = rd_fail(r, "expected %u challenge proofs, got %zu", C, json_array_size(inner));
        for (unsigned i = 0; !rc && i < C; i++) {
            size_t oi = rd_push(r, "[%u]", i);
            rc = rd_vproof(r, json_array_get(inner, i), &c->proofs[(size_t)k * C + i], &c->shape);
            rd_pop(r, oi);
        }
        rd_pop(r, ok);
    }
    rd_pop(r, ov);
    rd_pop(r, o);
    if (rc)
        return rc;
    if ((rc = rd_field_bytes(r, root, "comm_r", c->comm_r.b)) || (rc = rd_field_bytes(r, root, "comm_d", c->comm_d.b)) ||
        (rc = rd_field_bytes(r, root, "replica_id", c->replica_id.b)) ||
        (rc = rd_field_bytes(r, root, "seed", c->seed)) || (rc = rd_field_bytes(r, root, "ticket", c->ticket)))
        return rc;
    return 0;
}

/* lotus-bench and curio keep the C1 as base64 in a wrapper, {"SectorNum",
 * "Phase1Out", "SectorSize"}: replaces *root by the JSON inside it. A file
 * without Phase1Out is the bare C1 and stays as it is. */
static int unwrap_phase1out(json_t **root, long long *sector_size, const char *path, err_t *err)
{
    *sector_size = -1;
    json_t *w = json_object_get(*root, "Phase1Out");
    if (!w)
        return 0;
    const char *t = json_string_value(w);
    if (!t)
        return gm_err_set(err, GM_EFORMAT, "%s: Phase1Out: expected a base64 string", path);
    size_t len = strlen(t), cap = len / 4 * 3 + 3;
    uint8_t *buf = gm_alloc(cap);
    if (!buf)
        return gm_err_set(err, GM_ENOMEM, "%s: Phase1Out: out of memory for %zu bytes", path, cap);
    err_t e;
    long n = gm_base64_decode(buf, cap, t, len, &e);
    if (n < 0) {
        gm_free(buf);
        return gm_err_set(err, GM_EFORMAT, "%s: Phase1Out: not base64: %s", path, e.msg);
    }
    json_error_t je;
    json_t *inner = json_loadb((const char *)buf, (size_t)n, JSON_REJECT_DUPLICATES, &je);
    gm_free(buf);
    if (!inner)
        return gm_err_set(err, GM_EFORMAT, "%s: Phase1Out: the decoded text is not valid JSON (line %d column %d: "
                          "%s)", path, je.line, je.column, je.text);
    json_t *size = json_object_get(*root, "SectorSize");
    *sector_size = json_is_integer(size) ? (long long)json_integer_value(size) : -1;
    json_decref(*root);
    *root = inner;
    return 0;
}

int porep_c1_read(porep_c1_t *c, const char *path, err_t *err)
{
    memset(c, 0, sizeof *c);
    struct stat st;
    if (access(path, R_OK) != 0 || stat(path, &st) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot read: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return gm_err_set(err, GM_EIO, "%s: is a directory, not a C1 file", path);
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root && je.line < 1) /* jansson could not open or read it */
        return gm_err_set(err, GM_EIO, "%s: cannot read: %s", path, je.text);
    if (!root)
        return gm_err_set(err, GM_EFORMAT, "%s: line %d column %d: not valid JSON: %s", path, je.line, je.column,
                          je.text);
    rd_t r = {.file = path, .err = err};
    r.path[0] = '\0';
    long long wrapped_size;
    int rc = unwrap_phase1out(&root, &wrapped_size, path, err);
    if (rc == 0)
        rc = rd_c1(&r, root, c);
    if (rc == 0 && wrapped_size >= 0 && (uint64_t)wrapped_size != c->shape.sector_size)
        rc = gm_err_set(err, GM_EFORMAT, "%s: SectorSize: %lld, but Phase1Out holds a %s C1 of %llu bytes", path,
                        wrapped_size, c->proof->name, (unsigned long long)c->shape.sector_size);
    json_decref(root);
    if (rc) {
        porep_c1_free(c);
        memset(c, 0, sizeof *c);
    }
    return rc;
}

/* ==== writing ============================================================== */

/* A byte array as serde_json writes it: [1,2,...]. */
static void wr_bytes(FILE *f, const uint8_t *b)
{
    char buf[32 * 4 + 3];
    size_t n = 0;
    buf[n++] = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = b[i];
        if (i)
            buf[n++] = ',';
        if (v >= 100)
            buf[n++] = (char)('0' + v / 100);
        if (v >= 10)
            buf[n++] = (char)('0' + v / 10 % 10);
        buf[n++] = (char)('0' + v % 10);
    }
    buf[n++] = ']';
    fwrite(buf, 1, n, f);
}

static void wr_doms(FILE *f, const porep_dom_t *d, unsigned n)
{
    fputc('[', f);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        wr_bytes(f, d[i].b);
    }
    fputc(']', f);
}

static void wr_incl(FILE *f, const porep_path_elem_t *e, unsigned n)
{
    fputs("{\"path\":[", f);
    for (unsigned i = 0; i < n; i++) {
        fputs(i ? ",{\"hashes\":" : "{\"hashes\":", f);
        wr_doms(f, e[i].hashes, e[i].n_hashes);
        fprintf(f, ",\"index\":%u}", e[i].index);
    }
    fputs("]}", f);
}

static void wr_mproof(FILE *f, const porep_merkle_proof_t *p)
{
    unsigned extra = (unsigned)p->kind, nb = p->n_path - extra;
    fprintf(f, "{\"data\":{\"%s\":{", MP_KIND[p->kind]);
    if (p->kind == POREP_MP_SINGLE) {
        fputs("\"root\":", f);
        wr_bytes(f, p->root.b);
        fputs(",\"leaf\":", f);
        wr_bytes(f, p->leaf.b);
        fputs(",\"path\":", f);
        wr_incl(f, p->path, nb);
    } else {
        fputs("\"base_proof\":", f);
        wr_incl(f, p->path, nb);
        fputs(",\"sub_proof\":", f);
        wr_incl(f, &p->path[nb], 1);
        if (p->kind == POREP_MP_TOP) {
            fputs(",\"top_proof\":", f);
            wr_incl(f, &p->path[nb + 1], 1);
        }
        fputs(",\"root\":", f);
        wr_bytes(f, p->root.b);
        fputs(",\"leaf\":", f);
        wr_bytes(f, p->leaf.b);
    }
    fputs("}}}", f);
}

static void wr_column(FILE *f, const porep_column_proof_t *c)
{
    fprintf(f, "{\"column\":{\"index\":%u,\"rows\":", c->index);
    wr_doms(f, c->rows, c->n_rows);
    fputs(",\"_h\":null},\"inclusion_proof\":", f);
    wr_mproof(f, &c->proof);
    fputc('}', f);
}

static void wr_label(FILE *f, const porep_label_proof_t *l)
{
    fputs("{\"parents\":", f);
    wr_doms(f, l->parents, l->n_parents);
    fprintf(f, ",\"layer_index\":%u,\"node\":%llu}", l->layer_index, (unsigned long long)l->node);
}

static void wr_vproof(FILE *f, const porep_vproof_t *p)
{
    fputs("{\"comm_d_proofs\":", f);
    wr_mproof(f, &p->comm_d_proof);
    fputs(",\"comm_r_last_proof\":", f);
    wr_mproof(f, &p->comm_r_last_proof);
    fputs(",\"replica_column_proofs\":{\"c_x\":", f);
    wr_column(f, &p->c_x);
    fputs(",\"drg_parents\":[", f);
    for (unsigned i = 0; i < p->n_drg; i++) {
        if (i)
            fputc(',', f);
        wr_column(f, &p->drg[i]);
    }
    fputs("],\"exp_parents\":[", f);
    for (unsigned i = 0; i < p->n_exp; i++) {
        if (i)
            fputc(',', f);
        wr_column(f, &p->exp[i]);
    }
    fputs("]},\"labeling_proofs\":[", f);
    for (unsigned i = 0; i < p->n_labeling; i++) {
        if (i)
            fputc(',', f);
        wr_label(f, &p->labeling[i]);
    }
    fputs("],\"encoding_proof\":", f);
    wr_label(f, &p->encoding);
    fputc('}', f);
}

int porep_c1_write(const porep_c1_t *c, const char *path, err_t *err)
{
    gm_afile_t a;
    int rc = gm_afile_open(&a, path, GM_AFILE_SWEEP, err);
    if (rc)
        return rc;
    FILE *f = a.f;
    fprintf(f, "{\"registered_proof\":\"%s\",\"vanilla_proofs\":{\"%s\":[", c->proof->name, porep_c1_variant(c->proof));
    for (unsigned k = 0; k < c->partitions; k++) {
        fputs(k ? ",[" : "[", f);
        for (unsigned i = 0; i < c->challenges; i++) {
            if (i)
                fputc(',', f);
            wr_vproof(f, &c->proofs[(size_t)k * c->challenges + i]);
        }
        fputc(']', f);
    }
    fputs("]},\"comm_r\":", f);
    wr_bytes(f, c->comm_r.b);
    fputs(",\"comm_d\":", f);
    wr_bytes(f, c->comm_d.b);
    fputs(",\"replica_id\":", f);
    wr_bytes(f, c->replica_id.b);
    fputs(",\"seed\":", f);
    wr_bytes(f, c->seed);
    fputs(",\"ticket\":", f);
    wr_bytes(f, c->ticket);
    fputs("}\n", f);
    return gm_afile_commit(&a, err);
}
