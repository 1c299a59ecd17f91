/*
 * synth/porep/seal.c — sealing a 2 KiB, 8 MiB or 512 MiB sector into a
 * directory: data (generated, zero, or a file, fr32-padded when needed),
 * tree_d and comm_d, replica_id, the labels of every layer, tree_c (column
 * hashes) and comm_c, the replica and tree_r_last, comm_r; then the files
 * C1 needs, each written atomically, seal.json last (its presence means the
 * directory is complete).
 *
 * Memory: each structure is written out as soon as it is complete and freed
 * when no later phase needs it (porep_seal): at most 3.1 x the sector size
 * for 2 layers (labels and one Poseidon tree).
 * Threads: column hashes, encoding and tree levels run as tiles on the
 * caller's topo pool; labels are sequential (node i needs label i - 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"

/* ---- data --------------------------------------------------------------------------- */

/* Pseudo-random fr32 nodes: ChaCha8 keyed with the seed, top two bits of each
 * node's last byte cleared. */
static void data_random(porep_dom_t *d, uint64_t nodes, const uint8_t seed[32])
{
    for (uint64_t i = 0; i < nodes; i += 2) {
        uint32_t w[16];
        porep_chacha8_block(w, seed, i / 2, 0x64617461 /* "data" */);
        for (int j = 0; j < 2 && i + j < nodes; j++) {
            for (int k = 0; k < 8; k++) {
                uint32_t x = w[8 * j + k];
                for (int b = 0; b < 4; b++)
                    d[i + j].b[4 * k + b] = (uint8_t)(x >> (8 * b));
            }
            d[i + j].b[31] &= 0x3F;
        }
    }
}

/* fr32 padding: every 127 input bytes (1016 bits, least significant bit of
 * each byte first) become 4 nodes of 254 bits each, two zero bits on top. */
static void fr32_pad(porep_dom_t *out, uint64_t nodes, const uint8_t *in, size_t n)
{
    memset(out, 0, nodes * 32);
    uint64_t bits = (uint64_t)n * 8;
    for (uint64_t bit = 0; bit < bits; bit++) {
        if (!((in[bit >> 3] >> (bit & 7)) & 1))
            continue;
        uint64_t node = bit / 254, ob = bit % 254;
        out[node].b[ob >> 3] |= (uint8_t)(1u << (ob & 7));
    }
}

static int data_load(porep_dom_t *d, const porep_shape_t *s, const char *path, err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    int rc = 0;
    uint64_t max_unpadded = s->sector_size / 128 * 127;
    if (fstat(fileno(f), &st) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot stat: %s", path, strerror(errno));
    } else if ((uint64_t)st.st_size == s->sector_size) {
        if (fread(d, 1, s->sector_size, f) != s->sector_size)
            rc = gm_err_set(err, GM_EIO, "%s: short read", path);
        for (uint64_t i = 0; !rc && i < s->nodes; i++) {
            fr_t x;
            if (fr_from_bytes_le(&x, d[i].b) != 0)
                rc = gm_err_set(err, GM_EINVAL, "%s: node %llu (bytes %llu..%llu) is not below r: a file of the "
                                                "sector size must hold fr32-padded nodes",
                                path, (unsigned long long)i, (unsigned long long)i * 32,
                                (unsigned long long)i * 32 + 31);
        }
    } else if ((uint64_t)st.st_size <= max_unpadded) {
        uint8_t *buf = gm_alloc(st.st_size ? (size_t)st.st_size : 1);
        if (!buf)
            rc = gm_err_set(err, GM_ENOMEM, "%s: no memory", path);
        else if (st.st_size && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
            rc = gm_err_set(err, GM_EIO, "%s: short read", path);
        else
            fr32_pad(d, s->nodes, buf, (size_t)st.st_size);
        gm_free(buf);
    } else {
        rc = gm_err_set(err, GM_EINVAL, "%s: %llu bytes: expected the sector size %llu (fr32-padded) or at most "
                                        "%llu (unpadded)", path, (unsigned long long)st.st_size,
                        (unsigned long long)s->sector_size, (unsigned long long)max_unpadded);
    }
    fclose(f);
    return rc;
}

/* ---- tiles ---------------------------------------------------------------------------- */

typedef struct {
    const porep_dom_t *labels, *data;
    porep_dom_t *out;
    const porep_hashers_t *h;
    uint64_t nodes, first, per; /* tile k covers [first + k * per, + per) */
    unsigned layers;
    int encode; /* 0: column hashes, 1: replica = data + label_L */
    int *status;
} leaf_arg_t;

#define SEAL_TASKS 256

static void leaf_task(void *varg, size_t task, unsigned worker)
{
    (void)worker;
    leaf_arg_t *a = varg;
    uint64_t lo = a->first + task * a->per, hi = lo + a->per < a->nodes ? lo + a->per : a->nodes;
    for (uint64_t i = lo; i < hi; i++) {
        int rc;
        if (a->encode) {
            rc = porep_encode(&a->out[i], &a->labels[(uint64_t)(a->layers - 1) * a->nodes + i], &a->data[i]);
        } else {
            porep_dom_t rows[POREP_MAX_LAYERS];
            for (unsigned l = 0; l < a->layers; l++)
                rows[l] = a->labels[(uint64_t)l * a->nodes + i];
            rc = porep_column_hash(&a->out[i], a->h, rows, a->layers);
        }
        if (rc) {
            a->status[task] = rc;
            return;
        }
    }
}

/* A phase's progress, forwarded with its name. */
typedef struct {
    porep_seal_progress_fn fn;
    void *arg;
    const char *phase;
} phase_t;

static void phase_cb(void *arg, uint64_t done, uint64_t total)
{
    phase_t *p = arg;
    if (p->fn)
        p->fn(p->arg, p->phase, done, total);
}

/* Column hashes (encode 0) or replica nodes (encode 1) of every node, in
 * rounds of SEAL_TASKS tiles of at most 2^12 nodes, progress after each. */
static int leaves_fill(porep_dom_t *out, const porep_dom_t *labels, const porep_dom_t *data, const porep_shape_t *s,
                       const porep_hashers_t *h, int encode, topo_pool_t *pool, phase_t *ph, err_t *err)
{
    int status[SEAL_TASKS];
    uint64_t per = s->nodes / SEAL_TASKS < 4096 ? (s->nodes + SEAL_TASKS - 1) / SEAL_TASKS : 4096;
    for (uint64_t first = 0; first < s->nodes; first += per * SEAL_TASKS) {
        leaf_arg_t a = {labels, data, out, h, s->nodes, first, per, s->layers, encode, status};
        uint64_t left = s->nodes - first, ntasks = (left + per - 1) / per;
        if (ntasks > SEAL_TASKS)
            ntasks = SEAL_TASKS;
        memset(status, 0, sizeof status);
        topo_pool_run(pool, (size_t)ntasks, leaf_task, &a);
        for (size_t k = 0; k < ntasks; k++)
            if (status[k])
                return gm_err_set(err, status[k], "seal: a label or data node among %llu..%llu is not below r",
                                  (unsigned long long)(first + k * per), (unsigned long long)(first + (k + 1) * per - 1));
        uint64_t done = first + ntasks * per < s->nodes ? first + ntasks * per : s->nodes;
        phase_cb(ph, done, s->nodes);
    }
    return 0;
}

/* ---- seal.json -------------------------------------------------------------------------- */

static int sealed_save(const porep_sealed_t *s, const char *dir, err_t *err)
{
    char path[4096], h[10][65];
    snprintf(path, sizeof path, "%s/seal.json", dir);
    gm_hex_encode(h[0], s->prover_id, 32);
    gm_hex_encode(h[1], s->ticket, 32);
    gm_hex_encode(h[2], s->replica_id.b, 32);
    gm_hex_encode(h[3], s->comm_d.b, 32);
    gm_hex_encode(h[4], s->comm_c.b, 32);
    gm_hex_encode(h[5], s->comm_r_last.b, 32);
    gm_hex_encode(h[6], s->comm_r.b, 32);
    /* the CIDs lotus shows for them (SealVerifyInfo, chain state) */
    char cid_r[POREP_CID_TEXT_LEN], cid_d[POREP_CID_TEXT_LEN];
    porep_cid_encode(cid_r, &s->comm_r, POREP_CID_SEALED);
    porep_cid_encode(cid_d, &s->comm_d, POREP_CID_UNSEALED);
    char text[2048];
    int n = snprintf(text, sizeof text,
                     "{\n  \"registered_proof\": \"%s\",\n  \"sector_size\": %llu,\n  \"prover_id\": \"%s\",\n"
                     "  \"sector_id\": %llu,\n  \"ticket\": \"%s\",\n  \"replica_id\": \"%s\",\n"
                     "  \"comm_d\": \"%s\",\n  \"comm_c\": \"%s\",\n  \"comm_r_last\": \"%s\",\n  \"comm_r\": \"%s\",\n"
                     "  \"sealed_cid\": \"%s\",\n  \"unsealed_cid\": \"%s\",\n"
                     "  \"files\": [\"tree-d.dat\", \"labels.dat\", \"tree-c.dat\", \"tree-r-last.dat\"]\n}\n",
                     s->proof->name, (unsigned long long)s->shape.sector_size, h[0],
                     (unsigned long long)s->sector_id, h[1], h[2], h[3], h[4], h[5], h[6], cid_r, cid_d);
    return gm_file_write(path, text, (size_t)n, err);
}

int porep_sealed_load(porep_sealed_t *out, const char *dir, err_t *err)
{
    memset(out, 0, sizeof *out);
    char path[4096];
    snprintf(path, sizeof path, "%s/seal.json", dir);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return gm_err_set(err, errno == ENOENT ? GM_EIO : GM_EFORMAT, "%s: %s (line %d)", path, je.text, je.line);
    int rc = 0;
    json_t *x = json_object_get(root, "registered_proof");
    for (uint32_t id = 0; id < 20 && json_is_string(x); id++) {
        const porep_proof_t *p = porep_proof_by_id(id);
        if (p && strcmp(p->name, json_string_value(x)) == 0)
            out->proof = p;
    }
    if (!out->proof)
        rc = gm_err_set(err, GM_EFORMAT, "%s: registered_proof: missing or not a registered seal proof", path);
    if (!rc)
        rc = porep_shape_init(&out->shape, out->proof->sector_size, err);
    x = json_object_get(root, "sector_id");
    if (!rc && !json_is_integer(x))
        rc = gm_err_set(err, GM_EFORMAT, "%s: sector_id: missing or not an integer", path);
    if (!rc)
        out->sector_id = (uint64_t)json_integer_value(x);
    static const char *const names[] = {"prover_id", "ticket", "replica_id", "comm_d", "comm_c", "comm_r_last",
                                        "comm_r"};
    uint8_t *dst[] = {out->prover_id, out->ticket, out->replica_id.b, out->comm_d.b, out->comm_c.b,
                      out->comm_r_last.b, out->comm_r.b};
    for (int i = 0; !rc && i < 7; i++) {
        x = json_object_get(root, names[i]);
        err_t e;
        if (!json_is_string(x))
            rc = gm_err_set(err, GM_EFORMAT, "%s: %s: missing or not a string of 64 hex digits", path, names[i]);
        else if (gm_hex_decode_exact(dst[i], 32, json_string_value(x), 0, &e))
            rc = gm_err_set(err, GM_EFORMAT, "%s: %s: %s", path, names[i], e.msg);
    }
    json_decref(root);
    return rc;
}

/* ---- seal ------------------------------------------------------------------------------ */

const char *const porep_seal_files[POREP_SEAL_FILES] = {"tree-d.dat", "labels.dat", "tree-c.dat",
                                                         "tree-r-last.dat", "seal.json"};

/* Opens dir/name's temporary and writes n nodes into it, flushed (so it can
 * be read back) but not committed: porep_seal renames every file at its end. */
static int put_doms(gm_afile_t *a, const char *dir, const char *name, const porep_dom_t *d, uint64_t n,
                    err_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = gm_afile_open(a, path, GM_AFILE_SWEEP, err);
    if (rc)
        return rc;
    if (fwrite(d, 32, n, a->f) != n || fflush(a->f) != 0) {
        int e = errno;
        gm_afile_abort(a);
        return gm_err_set(err, GM_EIO, "%s: write failed: %s", a->tmp, strerror(e));
    }
    return 0;
}

/* Reads the first n nodes of the file at path back (the data leaves of
 * tree-d.dat's temporary, just written, so normally from the page cache). */
static int read_doms(porep_dom_t *out, const char *path, uint64_t n, err_t *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    uint64_t want = n * 32;
    int e = gm_pread_full(fd, out, (size_t)want, 0), rc = 0;
    if (e)
        rc = gm_err_set(err, GM_EIO, "%s: cannot read its first %llu bytes: %s", path, (unsigned long long)want,
                        e == EIO ? "file too short or I/O error" : strerror(e));
    close(fd);
    return rc;
}

/* Phases in order; each structure goes to its file as soon as it is complete
 * and leaves memory when nothing later needs it, so at most two large
 * buffers are live at once:
 *   tree_d (2N nodes)           -> tree-d.dat, freed (encoding reads the data back);
 *   labels (L N)                -> labels.dat, kept until the encoding;
 *   tree_c (8/7 N)              -> tree-c.dat, freed;
 *   tree_r (8/7 N, the data read back into its leaves, then + label_L)
 *                               -> labels freed -> tree_r_last -> tree-r-last.dat.
 * Peak: max(2N, (L + 8/7) N) nodes of 32 bytes, 3.1 x the sector for L = 2
 * (6.3 x if everything stayed in memory until the end).
 * Files: each is written to its temporary ("<name>.tmp.<pid>") when ready and
 * all are renamed at the very end, seal.json last: a seal interrupted
 * before that leaves only temporaries (removed by the next writer in this
 * directory, or by the command's signal handler) next to the previous
 * files, and only a directory with a seal.json holds one complete seal. */
int porep_seal(porep_sealed_t *out, const char *dir, const porep_seal_opts_t *o, topo_pool_t *pool,
               porep_seal_progress_fn progress, void *progress_arg, err_t *err)
{
    memset(out, 0, sizeof *out);
    phase_t ph = {progress, progress_arg, "tree_d"};
    porep_sealed_t s;
    memset(&s, 0, sizeof s);
    s.proof = o->proof;
    int rc = porep_shape_init(&s.shape, o->proof->sector_size, err);
    if (rc)
        return rc;
    if (s.shape.layers != 2)
        return gm_err_set(err, GM_ENOTSUP, "seal: %s: sealing is for 2KiB, 8MiB and 512MiB sectors; use "
                                           "`porep synthetic` for 32GiB and 64GiB", o->proof->name);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: cannot create directory: %s", dir, strerror(errno));
    /* seal.json is written last: without it the directory is not a sealed
     * sector, so an older one goes first and an interrupted seal is never
     * mistaken for a complete one */
    char meta[4096];
    snprintf(meta, sizeof meta, "%s/seal.json", dir);
    if (unlink(meta) != 0 && errno != ENOENT)
        return gm_err_set(err, GM_EIO, "%s: cannot remove the previous seal.json: %s", meta, strerror(errno));
    for (int k = 0; k < POREP_SEAL_FILES; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, porep_seal_files[k]);
        if ((rc = gm_file_sweep_temps(path, NULL, err)))
            return rc;
    }
    memcpy(s.prover_id, o->prover_id, 32);
    memcpy(s.ticket, o->ticket, 32);
    s.sector_id = o->sector_id;

    porep_tree_shape_t td, trc;
    porep_tree_shape_d(&td, &s.shape);
    porep_tree_shape_rc(&trc, &s.shape);
    uint64_t N = s.shape.nodes;
    porep_graph_t g;
    porep_hashers_t h;
    memset(&g, 0, sizeof g);
    memset(&h, 0, sizeof h);
    porep_dom_t *tree_d = NULL, *labels = NULL, *tree_c = NULL, *tree_r = NULL;
    gm_afile_t af[4]; /* the first four of porep_seal_files, committed at the end */
    memset(af, 0, sizeof af);
    if ((rc = porep_hashers_init(&h, err)))
        goto done;

    if (!(tree_d = gm_alloc(td.total * 32))) {
        rc = gm_err_set(err, GM_ENOMEM, "seal: no memory for tree_d (%llu bytes)", (unsigned long long)td.total * 32);
        goto done;
    }
    if (o->data)
        rc = data_load(tree_d, &s.shape, o->data, err);
    else if (o->zero)
        memset(tree_d, 0, N * 32);
    else
        data_random(tree_d, N, o->seed);
    if (rc || (rc = porep_tree_build(tree_d, &td, &h, pool, phase_cb, &ph, err)))
        goto done;
    s.comm_d = tree_d[td.total - 1];
    ph.phase = "writing tree-d.dat";
    if ((rc = put_doms(&af[0], dir, porep_seal_files[0], tree_d, td.total, err)))
        goto done;
    phase_cb(&ph, 1, 1);
    gm_free(tree_d);
    tree_d = NULL;

    uint8_t porep_id[32];
    porep_id_make(porep_id, o->proof);
    porep_replica_id(&s.replica_id, s.prover_id, s.sector_id, s.ticket, &s.comm_d, porep_id);
    if ((rc = porep_graph_for(&g, o->proof, err)))
        goto done;
    if (!(labels = gm_alloc(s.shape.layers * N * 32))) {
        rc = gm_err_set(err, GM_ENOMEM, "seal: no memory for %u layers of labels (%llu bytes)", s.shape.layers,
                        (unsigned long long)(s.shape.layers * N * 32));
        goto done;
    }
    ph.phase = "labels";
    if ((rc = porep_labels_compute(labels, &g, s.shape.layers, &s.replica_id, phase_cb, &ph, err)))
        goto done;
    ph.phase = "writing labels.dat";
    if ((rc = put_doms(&af[1], dir, porep_seal_files[1], labels, s.shape.layers * N, err)))
        goto done;
    phase_cb(&ph, 1, 1);

    if (!(tree_c = gm_alloc(trc.total * 32))) {
        rc = gm_err_set(err, GM_ENOMEM, "seal: no memory for tree_c (%llu bytes)", (unsigned long long)trc.total * 32);
        goto done;
    }
    ph.phase = "column hashes";
    if ((rc = leaves_fill(tree_c, labels, NULL, &s.shape, &h, 0, pool, &ph, err)))
        goto done;
    ph.phase = "tree_c";
    if ((rc = porep_tree_build(tree_c, &trc, &h, pool, phase_cb, &ph, err)))
        goto done;
    s.comm_c = tree_c[trc.total - 1];
    ph.phase = "writing tree-c.dat";
    if ((rc = put_doms(&af[2], dir, porep_seal_files[2], tree_c, trc.total, err)))
        goto done;
    phase_cb(&ph, 1, 1);
    gm_free(tree_c);
    tree_c = NULL;

    if (!(tree_r = gm_alloc(trc.total * 32))) {
        rc = gm_err_set(err, GM_ENOMEM, "seal: no memory for tree_r_last (%llu bytes)",
                        (unsigned long long)trc.total * 32);
        goto done;
    }
    ph.phase = "encoding";
    /* the data leaves come back into tree_r's leaves; each is then replaced
     * by data + label_L (leaf_task reads a node before it writes it) */
    if ((rc = read_doms(tree_r, af[0].tmp, N, err)) ||
        (rc = leaves_fill(tree_r, labels, tree_r, &s.shape, &h, 1, pool, &ph, err)))
        goto done;
    gm_free(labels);
    labels = NULL;
    ph.phase = "tree_r_last";
    if ((rc = porep_tree_build(tree_r, &trc, &h, pool, phase_cb, &ph, err)))
        goto done;
    s.comm_r_last = tree_r[trc.total - 1];
    porep_dom_t pair[2] = {s.comm_c, s.comm_r_last};
    if ((rc = porep_tree_hash(&s.comm_r, &h, POREP_HASH_POSEIDON, pair, 2)))
        goto done;
    ph.phase = "writing tree-r-last.dat, renaming the files";
    if ((rc = put_doms(&af[3], dir, porep_seal_files[3], tree_r, trc.total, err)))
        goto done;
    for (int k = 0; k < 4; k++)
        if ((rc = gm_afile_commit(&af[k], err)))
            goto done;
    if ((rc = sealed_save(&s, dir, err)))
        goto done;
    phase_cb(&ph, 1, 1);
    *out = s;
done:
    for (int k = 0; k < 4; k++)
        gm_afile_abort(&af[k]); /* no-op for committed or never opened ones */
    gm_free(tree_d);
    gm_free(labels);
    gm_free(tree_c);
    gm_free(tree_r);
    porep_graph_destroy(&g);
    porep_hashers_free(&h);
    return rc;
}
