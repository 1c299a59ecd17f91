/*
 * mpi/resume.c — the output directory: proof files and the journal that
 * makes a campaign resumable. Used by rank 0 only (set-up on the main
 * thread, writes on the comm thread; never two at once).
 *
 * DESIGN
 *  - Layout: OUT/journal, OUT/proofs/<sector>-p<partition>.proof (192 bytes)
 *    and OUT/proofs/<sector>-p<partition>.public.json (snarkjs public.json:
 *    an array of decimal strings), OUT/report.json, OUT/report.csv.
 *  - Order of a write: public inputs, then proof (each atomically: temporary
 *    "<name>.tmp.<pid>", fsync, rename, directory fsync, by
 *    gm_file_write), then one journal line appended and fsynced. A crash
 *    at any point leaves either no journal line (the unit is proved again and
 *    its files replaced) or a line whose files are complete.
 *  - The journal is text. Line 1: "grothmpi-journal 1 circuit=<id>
 *    vk=<sha256 of the verifying key>", written atomically when the file is
 *    created. Then one line per finished unit:
 *      "done <unit name> <sha256 of proof> <sha256 of public.json> <rank> <check>"
 *    where check is the FNV-1a 64 of everything before " <check>" in hex.
 *    Units are keyed by name (sector id + partition), not by number, so
 *    adding sectors to a campaign does not confuse the journal.
 *  - Resume: a unit is done when its line checks and both files hash to what
 *    the line says. Lines that do not check (a torn last line after a kill)
 *    are dropped: the journal is rewritten atomically without them before
 *    anything is appended. Leftover temporary files are removed. A journal
 *    of another circuit or verifying key is an error, never overwritten.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"

struct mr_out {
    const jobs_campaign_t *c;
    char proofs[JOBS_PATH_LEN + 16];
    char journal[JOBS_PATH_LEN + 16];
    int fd;
};

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int mkdir_p(const char *path, err_t *err)
{
    char buf[JOBS_PATH_LEN + 16];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return gm_err_set(err, GM_EIO, "%s: cannot create: %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", buf, strerror(errno));
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return gm_err_set(err, GM_EIO, "%s: not a directory", buf);
    return 0;
}

/* sha256 of a whole file; 0 or -1 (missing, unreadable, size != want when want != 0). */
static int file_sha(uint8_t out[32], const char *path, size_t want)
{
    uint8_t *buf;
    size_t len;
    if (gm_file_read(&buf, &len, path, NULL))
        return -1;
    int rc = (want && len != want) ? -1 : 0;
    if (!rc)
        SHA256(buf, len, out);
    gm_free(buf);
    return rc;
}

typedef struct {
    char name[JOBS_ID_LEN + 16];
    size_t unit;
} name_idx_t;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const name_idx_t *)a)->name, ((const name_idx_t *)b)->name);
}

#define JOURNAL_MAGIC "grothmpi-journal 1 "
#define JOURNAL_LINE_MAX 400

/* One journal line that checks: "done <name> <proof sha> <public sha> <rank>
 * <check>". Returns false for anything else (a torn or edited line). */
typedef struct {
    char name[JOBS_ID_LEN + 16];
    char proof_sha[65], pub_sha[65];
    int rank;
} journal_line_t;

static bool journal_line(journal_line_t *e, const char *line, size_t ll)
{
    if (ll >= JOURNAL_LINE_MAX)
        return false;
    char tmp[JOURNAL_LINE_MAX];
    memcpy(tmp, line, ll);
    tmp[ll] = 0;
    const char *sp = strrchr(tmp, ' ');
    unsigned long long check;
    return sp && sscanf(tmp, "done %79s %64s %64s %d %llx", e->name, e->proof_sha, e->pub_sha, &e->rank, &check) == 5 &&
           fnv1a(tmp, (size_t)(sp - tmp)) == check && strlen(e->proof_sha) == 64 && strlen(e->pub_sha) == 64;
}

/* Calls fn for every line of buf[from .. len): e is the parsed line, or NULL
 * when it does not check; a last line without its newline is torn and never
 * checks. */
typedef void (*journal_fn)(void *arg, const char *line, size_t ll, const journal_line_t *e);

static void journal_scan(const uint8_t *buf, size_t len, size_t from, journal_fn fn, void *arg)
{
    size_t pos = from;
    while (pos < len) {
        size_t end = pos;
        while (end < len && buf[end] != '\n')
            end++;
        journal_line_t e;
        bool complete = end < len;
        const char *line = (const char *)buf + pos;
        fn(arg, line, end - pos, complete && journal_line(&e, line, end - pos) ? &e : NULL);
        pos = complete ? end + 1 : end;
    }
}

/* mr_out_open's pass over an existing journal. */
typedef struct {
    mr_out_t *o;
    const name_idx_t *names;
    size_t nunits;
    bool *done;
    size_t *ndone;
    char *keep; /* the lines that check, header first */
    size_t klen;
    bool dropped;
} resume_scan_t;

static void resume_line(void *arg, const char *line, size_t ll, const journal_line_t *e)
{
    resume_scan_t *r = arg;
    if (!e) {
        r->dropped = true;
        return;
    }
    memcpy(r->keep + r->klen, line, ll + 1);
    r->klen += ll + 1;
    name_idx_t key;
    memcpy(key.name, e->name, sizeof key.name);
    name_idx_t *hit = bsearch(&key, r->names, r->nunits, sizeof *r->names, cmp_name);
    if (!hit || r->done[hit->unit])
        return;
    char pp[JOBS_PATH_LEN + 128], qp[JOBS_PATH_LEN + 128], h1[65], h2[65];
    uint8_t s1[32], s2[32];
    if ((size_t)snprintf(pp, sizeof pp, "%s/%s.proof", r->o->proofs, e->name) < sizeof pp &&
        (size_t)snprintf(qp, sizeof qp, "%s/%s.public.json", r->o->proofs, e->name) < sizeof qp &&
        /* a snarkjs unit's proof is 192 or 256 bytes (its zkey's curve): the digest decides */
        file_sha(s1, pp, r->o->c->zkey ? 0 : GROTH16_PROOF_BYTES) == 0 && file_sha(s2, qp, 0) == 0) {
        gm_hex_encode(h1, s1, 32);
        gm_hex_encode(h2, s2, 32);
        if (!strcmp(h1, e->proof_sha) && !strcmp(h2, e->pub_sha)) {
            r->done[hit->unit] = true;
            (*r->ndone)++;
        }
    }
}

int mr_out_open(mr_out_t **out, const jobs_campaign_t *c, const uint8_t vk_sha[32], bool *done, size_t *ndone,
                err_t *err)
{
    *out = NULL;
    *ndone = 0;
    size_t nunits = jobs_unit_count(c);
    int rc;
    mr_out_t *o = calloc(1, sizeof *o);
    name_idx_t *names = calloc(nunits, sizeof *names);
    uint8_t *jbuf = NULL;
    char *keep = NULL;
    if (!o || !names) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", c->output);
        goto fail;
    }
    o->c = c;
    o->fd = -1;
    snprintf(o->proofs, sizeof o->proofs, "%s/proofs", c->output);
    snprintf(o->journal, sizeof o->journal, "%s/journal", c->output);
    if ((rc = mkdir_p(c->output, err)))
        goto fail;
    /* Unwritable output (a read-only mount: root passes every permission
     * check, not this one) must stop the campaign here, on rank 0, before
     * any rank loads parameters or proves, naming the directory. */
    if (access(c->output, W_OK) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: output directory is not writable: %s", c->output, strerror(errno));
        goto fail;
    }
    if ((rc = mkdir_p(o->proofs, err)))
        goto fail;
    if (access(o->proofs, W_OK) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: output directory is not writable: %s", o->proofs, strerror(errno));
        goto fail;
    }
    if ((rc = gm_dir_sweep_temps(c->output, NULL, err)) || (rc = gm_dir_sweep_temps(o->proofs, NULL, err)))
        goto fail;

    char header[256], vkhex[65];
    gm_hex_encode(vkhex, vk_sha, 32);
    snprintf(header, sizeof header, JOURNAL_MAGIC "circuit=%s vk=%s\n", c->circuit.id, vkhex);

    size_t jlen = 0;
    if (access(o->journal, F_OK) != 0) {
        if ((rc = gm_file_write(o->journal, header, strlen(header), err)))
            goto fail;
    } else {
        if ((rc = gm_file_read(&jbuf, &jlen, o->journal, err)))
            goto fail;
        size_t hl = strlen(header);
        if (jlen < hl || memcmp(jbuf, header, hl) != 0) {
            char first[200];
            size_t n = 0;
            while (n < jlen && n < sizeof first - 1 && jbuf[n] != '\n')
                first[n] = (char)jbuf[n], n++;
            first[n] = 0;
            rc = gm_err_set(err, GM_EINVAL,
                            "%s: belongs to another campaign ('%s'; this one needs circuit=%s vk=%.16s...): use "
                            "another output directory, or move it away to start over",
                            o->journal, first, c->circuit.id, vkhex);
            goto fail;
        }
        for (size_t u = 0; u < nunits; u++) {
            jobs_unit_name(names[u].name, sizeof names[u].name, c, u);
            names[u].unit = u;
        }
        qsort(names, nunits, sizeof *names, cmp_name);
        keep = malloc(jlen + 1);
        if (!keep) {
            rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", o->journal);
            goto fail;
        }
        memcpy(keep, header, hl);
        resume_scan_t r = {.o = o, .names = names, .nunits = nunits, .done = done, .ndone = ndone, .keep = keep,
                           .klen = hl};
        journal_scan(jbuf, jlen, hl, resume_line, &r);
        if (r.dropped && (rc = gm_file_write(o->journal, keep, r.klen, err)))
            goto fail;
    }
    o->fd = open(o->journal, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (o->fd < 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot open for appending: %s", o->journal, strerror(errno));
        goto fail;
    }
    gm_free(jbuf);
    free(keep);
    free(names);
    *out = o;
    return 0;
fail:
    gm_free(jbuf);
    free(keep);
    free(names);
    mr_out_close(o);
    return rc;
}

/* A "snarkjs" unit's proof also as snarkjs's proof.json ("<name>.proof.json"
 * beside "<name>.public.json", which is already snarkjs's public.json), so
 * `snarkjs groth16 verify` reads the pair as they are. */
static int zkey_proof_json(const mr_out_t *o, const char *name, const uint8_t *proof, snarkjs_curve_t curve,
                           err_t *err)
{
    char path[JOBS_PATH_LEN + 128];
    snprintf(path, sizeof path, "%s/%s.proof.json", o->proofs, name);
    if (curve == SNARKJS_BN128) {
        snarkjs_bn_proof_t pf;
        int rc = snarkjs_bn_proof_from_bytes(&pf, proof, path, err);
        return rc ? rc : snarkjs_bn_proof_write_json(path, &pf, err);
    }
    groth16_proof_t pf;
    int rc = groth16_proof_from_bytes(&pf, proof, path, err);
    return rc ? rc : snarkjs_proof_write_json(path, &pf, err);
}

int mr_out_write(mr_out_t *o, size_t u, const uint8_t *proof, size_t proof_len, snarkjs_curve_t curve,
                 const char *pub_json, int rank, err_t *err)
{
    char name[JOBS_ID_LEN + 16], pp[JOBS_PATH_LEN + 128], qp[JOBS_PATH_LEN + 128];
    jobs_unit_name(name, sizeof name, o->c, u);
    snprintf(pp, sizeof pp, "%s/%s.proof", o->proofs, name);
    snprintf(qp, sizeof qp, "%s/%s.public.json", o->proofs, name);
    int rc;
    size_t ql = strlen(pub_json);
    if ((rc = gm_file_write(qp, pub_json, ql, err)) ||
        (rc = gm_file_write(pp, proof, proof_len, err)))
        return rc;
    if (o->c->zkey && (rc = zkey_proof_json(o, name, proof, curve, err)))
        return rc;
    uint8_t s1[32], s2[32];
    SHA256(proof, proof_len, s1);
    SHA256((const uint8_t *)pub_json, ql, s2);
    char h1[65], h2[65], line[400];
    gm_hex_encode(h1, s1, 32);
    gm_hex_encode(h2, s2, 32);
    int n = snprintf(line, sizeof line, "done %s %s %s %d", name, h1, h2, rank);
    n += snprintf(line + n, sizeof line - (size_t)n, " %016llx\n", (unsigned long long)fnv1a(line, (size_t)n));
    ssize_t w = write(o->fd, line, (size_t)n);
    if (w != n)
        return gm_err_set(err, GM_EIO, "%s: append failed: %s", o->journal, w < 0 ? strerror(errno) : "short write");
    if (fdatasync(o->fd) != 0)
        return gm_err_set(err, GM_EIO, "%s: fdatasync failed: %s", o->journal, strerror(errno));
    return 0;
}

void mr_out_close(mr_out_t *o)
{
    if (!o)
        return;
    if (o->fd >= 0)
        close(o->fd);
    free(o);
}

const char *mr_out_journal_path(const mr_out_t *o) { return o->journal; }

/* mpi_journal_status's pass: the names of the lines that check. */
typedef struct {
    char (*names)[JOBS_ID_LEN + 16];
    size_t n;
    uint64_t cap;
    size_t torn;
    bool nomem;
} status_scan_t;

static void status_line(void *arg, const char *line, size_t ll, const journal_line_t *e)
{
    (void)line, (void)ll;
    status_scan_t *t = arg;
    if (!e) {
        t->torn++;
        return;
    }
    if (!gm_grow((void **)&t->names, &t->cap, t->n + 1, sizeof *t->names, 256)) {
        t->nomem = true;
        return;
    }
    memcpy(t->names[t->n++], e->name, sizeof e->name);
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* Reads output_dir/journal into *buf, *len; *hl is the offset past its
 * header line. A missing journal: 0 with *buf NULL. */
static int journal_read(uint8_t **buf, size_t *len, size_t *hl, const char *output_dir, err_t *err)
{
    *buf = NULL;
    char path[JOBS_PATH_LEN + 16];
    if ((size_t)snprintf(path, sizeof path, "%s/journal", output_dir) >= sizeof path)
        return gm_err_set(err, GM_EINVAL, "%s: output directory name too long", output_dir);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return 0;
    int rc = gm_file_read(buf, len, path, err);
    if (rc)
        return rc;
    size_t h = 0;
    while (h < *len && (*buf)[h] != '\n')
        h++;
    if (h == *len || *len < strlen(JOURNAL_MAGIC) || memcmp(*buf, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) != 0) {
        gm_free(*buf);
        *buf = NULL;
        return gm_err_set(err, GM_EFORMAT, "%s: line 1: not a grothmpi journal header ('" JOURNAL_MAGIC "...')",
                          path);
    }
    *hl = h + 1;
    return 0;
}

int mpi_journal_status(mpi_journal_status_t *out, const char *output_dir, err_t *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf;
    size_t len, hl = 0;
    int rc = journal_read(&buf, &len, &hl, output_dir, err);
    if (rc || !buf)
        return rc;
    out->exists = true;
    status_scan_t t = {0};
    journal_scan(buf, len, hl, status_line, &t);
    gm_free(buf);
    if (t.nomem) {
        gm_free(t.names);
        return gm_err_set(err, GM_ENOMEM, "%s/journal: out of memory", output_dir);
    }
    /* A unit proved again (its files were missing on resume) has two lines. */
    qsort(t.names, t.n, sizeof *t.names, cmp_str);
    for (size_t i = 0; i < t.n; i++)
        out->done += i == 0 || strcmp(t.names[i], t.names[i - 1]) != 0;
    out->torn = t.torn;
    gm_free(t.names);
    return 0;
}

/* mpi_journal_rank's pass: the last line of one unit. */
typedef struct {
    const char *unit;
    int rank;
} rank_scan_t;

static void rank_line(void *arg, const char *line, size_t ll, const journal_line_t *e)
{
    (void)line, (void)ll;
    rank_scan_t *t = arg;
    if (e && !strcmp(e->name, t->unit))
        t->rank = e->rank;
}

int mpi_journal_rank(int *rank, const char *output_dir, const char *unit, err_t *err)
{
    *rank = -1;
    uint8_t *buf;
    size_t len, hl = 0;
    int rc = journal_read(&buf, &len, &hl, output_dir, err);
    if (rc || !buf)
        return rc;
    rank_scan_t t = {unit, -1};
    journal_scan(buf, len, hl, rank_line, &t);
    gm_free(buf);
    *rank = t.rank;
    return 0;
}
