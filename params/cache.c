/*
 * params/cache.c — a cache directory's file names, the stamps, the shapes,
 * and params_ensure: the one place where cached test parameters are made.
 *
 * DESIGN
 *  - Everything that decides whether files are there or must be made runs
 *    under the cache lock (manifest.c), from "are the files there?" to the
 *    manifest record, so two processes sharing a cache make each set once.
 *  - A stamp is one line, written atomically next to its file:
 *      "grothmpi-stamp 1 dev=D ino=I size=S mtime_ns=M[ digest=HEX]\n"
 *    It is only ever compared for equality with a line built from a fresh
 *    stat(2), so a stamp from another file, another version or a damaged
 *    one simply does not match, and the full work is done again.
 *  - The .setup record is one format for every maker of parameters
 *    (setup, campaigns with "setup": "auto", benches): circuit, seed,
 *    constraints, inputs, aux, and the section counts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "params/params.h"
#include "params/params_internal.h"
#include "topo/topo.h"

#define STAMP_MAGIC "grothmpi-stamp 1"
#define CHECKED_MAGIC "grothmpi-params-checked 1"

int params_paths(params_paths_t *p, const char *dir, const char *id, err_t *err)
{
    memset(p, 0, sizeof *p);
    if (strlen(dir) >= sizeof p->dir)
        return gm_err_set(err, GM_EINVAL, "%s: parameter cache directory name too long", dir);
    if (strlen(id) >= sizeof p->id)
        return gm_err_set(err, GM_EINVAL, "%s: circuit id too long", id);
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->id, sizeof p->id, "%s", id);
    snprintf(p->name, sizeof p->name, "%s.params", id);
    snprintf(p->params, sizeof p->params, "%s/%s.params", dir, id);
    snprintf(p->vk, sizeof p->vk, "%s/%s.vk", dir, id);
    snprintf(p->shape, sizeof p->shape, "%s/%s.shape", dir, id);
    snprintf(p->setup, sizeof p->setup, "%s/%s.setup", dir, id);
    snprintf(p->params_stamp, sizeof p->params_stamp, "%s/%s.params.stamp", dir, id);
    snprintf(p->shape_stamp, sizeof p->shape_stamp, "%s/%s.shape.stamp", dir, id);
    snprintf(p->checked, sizeof p->checked, "%s/%s.params.checked", dir, id);
    snprintf(p->manifest, sizeof p->manifest, "%s/%s", dir, PARAMS_MANIFEST_NAME);
    return 0;
}

/* ---- identity and stamps ------------------------------------------------------------------ */

int params_ident(params_ident_t *id, const char *path, err_t *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot stat: %s", path, strerror(errno));
    id->dev = (uint64_t)st.st_dev;
    id->ino = (uint64_t)st.st_ino;
    id->size = (uint64_t)st.st_size;
    id->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return 0;
}

bool params_ident_eq(const params_ident_t *a, const params_ident_t *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

static int stamp_line(char *out, size_t n, const params_ident_t *id, const char *digest)
{
    return snprintf(out, n, STAMP_MAGIC " dev=%llu ino=%llu size=%llu mtime_ns=%lld%s%s\n",
                    (unsigned long long)id->dev, (unsigned long long)id->ino, (unsigned long long)id->size,
                    (long long)id->mtime_ns, digest ? " digest=" : "", digest ? digest : "");
}

/* Reads the stamp at path into buf (NUL-terminated); false when missing,
 * unreadable or too long. */
static bool stamp_read(char *buf, size_t n, const char *path)
{
    uint8_t *b;
    size_t len;
    if (gm_file_read(&b, &len, path, NULL))
        return false;
    bool ok = len < n;
    if (ok) {
        memcpy(buf, b, len);
        buf[len] = 0;
    }
    gm_free(b);
    return ok;
}

/* The digest that the stamp at path records for a file with identity id,
 * into digest; false when there is no such stamp. */
static bool stamp_digest(char digest[PARAMS_DIGEST_HEX + 1], const char *path, const params_ident_t *id)
{
    char have[256], want[256];
    if (!stamp_read(have, sizeof have, path))
        return false;
    int n = stamp_line(want, sizeof want, id, NULL);
    want[n - 1] = 0; /* without the newline: the digest follows */
    size_t wl = strlen(want);
    if (strncmp(have, want, wl) != 0 || strncmp(have + wl, " digest=", 8) != 0)
        return false;
    const char *d = have + wl + 8;
    if (strlen(d) != PARAMS_DIGEST_HEX + 1 || d[PARAMS_DIGEST_HEX] != '\n')
        return false;
    for (int i = 0; i < PARAMS_DIGEST_HEX; i++)
        if (!((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
            return false;
    memcpy(digest, d, PARAMS_DIGEST_HEX);
    digest[PARAMS_DIGEST_HEX] = 0;
    return true;
}

static int stamp_write(const char *path, const params_ident_t *id, const char *digest, err_t *err)
{
    char line[256];
    int n = stamp_line(line, sizeof line, id, digest);
    return gm_file_write(path, line, (size_t)n, err);
}

/* ---- the parameter file's digest ------------------------------------------------------------ */

void params_notef(params_note_fn note, void *arg, const char *fmt, ...)
{
    if (!note)
        return;
    char line[3 * GM_PATH_MAX + GM_ERR_MSG_LEN + 400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    note(arg, line);
}

/* A line for params_ensure's caller (o may be NULL). */
#define say(o, ...) params_notef((o) ? (o)->note : NULL, (o) ? (o)->note_arg : NULL, __VA_ARGS__)

int params_digest_stamped(char digest[PARAMS_DIGEST_HEX + 1], params_ident_t *ident, bool *from_stamp,
                          const char *file, const char *stamp, bool full, err_t *err)
{
    *from_stamp = false;
    int rc = params_ident(ident, file, err);
    if (rc)
        return rc;
    if (!full && stamp_digest(digest, stamp, ident)) {
        *from_stamp = true;
        gm_log(GM_LOG_DEBUG, "%s: unchanged since %s: digest %s not computed again", file, stamp, digest);
        return 0;
    }
    uint64_t size = 0;
    params_ident_t after = {0};
    if ((rc = params_file_digest(digest, &size, file, err)) || (rc = params_ident(&after, file, err)))
        return rc;
    if (!params_ident_eq(ident, &after) || size != ident->size)
        return gm_err_set(err, GM_EVERIFY, "%s: changed while its digest was computed", file);
    gm_log(GM_LOG_DEBUG, "%s: digest %s computed (%llu bytes)", file, digest, (unsigned long long)size);
    /* No stamp (a read-only directory) only costs the next run the same work. */
    (void)stamp_write(stamp, ident, digest, NULL);
    return 0;
}

bool params_stamp_digest(char digest[PARAMS_DIGEST_HEX + 1], const char *stamp, const params_ident_t *id)
{
    return stamp_digest(digest, stamp, id);
}

bool params_stamp_matches(const char *stamp, const params_ident_t *id)
{
    char have[256], want[256];
    return stamp_read(have, sizeof have, stamp) && stamp_line(want, sizeof want, id, NULL) > 0 &&
           strcmp(have, want) == 0;
}

int params_stamp_write(const char *stamp, const params_ident_t *id, err_t *err)
{
    return stamp_write(stamp, id, NULL, err);
}

/* The digest of <id>.params and the identity it was taken under (refused
 * when the file changed while it was hashed). */
static int params_digest(params_ensure_t *r, const params_paths_t *p, bool full, err_t *err)
{
    return params_digest_stamped(r->digest, &r->ident, &r->digest_from_stamp, p->params, p->params_stamp, full, err);
}

/* The digest against the manifest: another digest is refused; none is
 * recorded now (trust on first use). */
static int manifest_step(params_ensure_t *r, const params_paths_t *p, const params_ensure_opts_t *o, err_t *err)
{
    bool listed = false;
    int rc = params_manifest_check(&listed, p->manifest, p->name, r->digest, p->params, err);
    if (rc || listed)
        return rc;
    /* A file whose own layout is broken (a truncated download or copy) is
     * refused here, before its digest is recorded: recorded, it would make
     * the manifest refuse the good file that replaces it. The header walk
     * (a few preads) checks every section's size against the file's. */
    uint64_t decoded;
    if (!r->generated && (rc = groth16_params_decoded_bytes(&decoded, p->params, err)))
        return rc;
    err_t e2;
    gm_err_clear(&e2);
    if (params_manifest_record(p->manifest, p->name, r->digest, r->ident.size, p->id, &e2)) {
        say(o, "params: %s is not in %s, which cannot be written (%s): used without a digest check", p->params,
            p->manifest, e2.msg);
    } else {
        r->first_use = !r->generated;
        if (!r->generated)
            say(o, "params: %s was not in %s: recorded its digest %s (first use; from now on a changed file is "
                   "refused)", p->params, p->manifest, r->digest);
    }
    return 0;
}

/* ---- shapes ------------------------------------------------------------------------------------ */

int params_shape_record(cs_shape_t **out, const params_paths_t *p, const circuit_t *c, err_t *err)
{
    *out = NULL;
    cs_shape_t *sh = NULL;
    int rc = circuit_shape(&sh, c, err);
    if (!rc)
        rc = cs_shape_save(sh, p->dir, p->id, err);
    if (rc) {
        cs_shape_free(sh);
        return rc;
    }
    /* What was just written is what the recorder made: checked by
     * construction, so the first load need not walk it again. */
    params_ident_t id = {0};
    if (params_ident(&id, p->shape, NULL) == 0)
        (void)stamp_write(p->shape_stamp, &id, NULL, NULL);
    *out = sh;
    return 0;
}

int params_shape_load(cs_shape_t **out, bool *stamped, const params_paths_t *p, bool full, err_t *err)
{
    *out = NULL;
    if (stamped)
        *stamped = false;
    params_ident_t id = {0};
    bool match = !full && params_ident(&id, p->shape, NULL) == 0 && params_stamp_matches(p->shape_stamp, &id);
    if (match) {
        gm_log(GM_LOG_DEBUG, "%s: unchanged since %s: index checks skipped", p->shape, p->shape_stamp);
        if (stamped)
            *stamped = true;
        return cs_shape_load_unchecked(out, p->dir, p->id, err);
    }
    int rc = cs_shape_load(out, p->dir, p->id, err);
    params_ident_t after = {0};
    if (!rc && params_ident(&after, p->shape, NULL) == 0)
        (void)stamp_write(p->shape_stamp, &after, NULL, NULL);
    return rc;
}

/* ---- the subgroup-check stamp ---------------------------------------------------------------- */

static int checked_line(char *out, size_t n, const char *digest, uint64_t size)
{
    return snprintf(out, n, CHECKED_MAGIC " digest=%s size=%llu level=subgroup\n", digest, (unsigned long long)size);
}

bool params_checked_at(const char *checked, const char *digest, uint64_t size)
{
    char have[256], want[256];
    checked_line(want, sizeof want, digest, size);
    return stamp_read(have, sizeof have, checked) && strcmp(have, want) == 0;
}

int params_checked_write(const char *checked, const char *digest, uint64_t size, err_t *err)
{
    char line[256];
    int n = checked_line(line, sizeof line, digest, size);
    return gm_file_write(checked, line, (size_t)n, err);
}

bool params_checked_matches(const params_paths_t *p, const char *digest, uint64_t size)
{
    return params_checked_at(p->checked, digest, size);
}

int params_checked_record(const params_paths_t *p, const char *digest, uint64_t size, err_t *err)
{
    return params_checked_write(p->checked, digest, size, err);
}

/* ---- making the files ------------------------------------------------------------------------ */

static int default_setup(void *arg, const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES],
                         const char *params_path, const char *vk_path, err_t *err)
{
    const unsigned *threads = arg;
    topo_pool_t *pool = NULL;
    int rc = topo_pool_create_flat(&pool, *threads, err);
    if (!rc)
        rc = groth16_setup(shape, seed, params_path, vk_path, pool, err);
    topo_pool_destroy(pool);
    return rc;
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

/* params_shape_record, noted in *r. */
static int record_shape(params_ensure_t *r, cs_shape_t **shape, const params_paths_t *p, const circuit_t *c,
                        err_t *err)
{
    int rc = params_shape_record(shape, p, c, err);
    if (rc)
        return rc;
    r->shape_recorded = true;
    r->n_constraints = (*shape)->n_constraints;
    r->n_inputs = (*shape)->n_inputs;
    r->n_aux = (*shape)->n_aux;
    return 0;
}

/* New test parameters: shape, parameters, vk, the .setup record. */
static int generate(params_ensure_t *r, const params_paths_t *p, const circuit_t *c, const params_ensure_opts_t *o,
                    err_t *err)
{
    int rc;
    if (o && o->seed) {
        memcpy(r->seed, o->seed, sizeof r->seed);
    } else if (groth16_setup_journal_seed(r->seed, p->params)) {
        /* An interrupted setup of these parameters: its seed lets it resume. */
        say(o, "setup: %s: continuing the interrupted setup with the seed of %s.journal", p->id, p->params);
    } else if ((rc = groth16_seed_random(r->seed, err))) {
        return rc;
    }
    /* A shape already in the cache (`grothmpi circuit shape`, an earlier
     * run) is the circuit's: it is deterministic, and recording a large one
     * takes minutes. */
    cs_shape_t *shape = NULL;
    if (cs_shape_cached(p->dir, p->id)) {
        if ((rc = params_shape_load(&shape, NULL, p, false, err)))
            return rc;
        say(o, "setup: %s: using the shape in %s", p->id, p->shape);
        r->n_constraints = shape->n_constraints;
        r->n_inputs = shape->n_inputs;
        r->n_aux = shape->n_aux;
    } else {
        if ((rc = record_shape(r, &shape, p, c, err)))
            return rc;
        /* The setup reads the shape from its mapped file, whose pages it
         * releases as it goes: the recorded copy would hold the whole shape
         * in memory through the setup. */
        cs_shape_free(shape);
        shape = NULL;
        if ((rc = params_shape_load(&shape, NULL, p, false, err)))
            return rc;
    }
    unsigned threads = o ? o->threads : 0;
    if (!(rc = groth16_shape_counts(&r->counts, shape, err))) {
        if (o && o->setup)
            rc = o->setup(o->setup_arg, shape, r->seed, p->params, p->vk, err);
        else
            rc = default_setup(&threads, shape, r->seed, p->params, p->vk, err);
    }
    cs_shape_free(shape);
    if (rc)
        return rc;
    r->generated = true;
    char hex[2 * GROTH16_SEED_BYTES + 1], rec[1024];
    gm_hex_encode(hex, r->seed, GROTH16_SEED_BYTES);
    const groth16_counts_t *n = &r->counts;
    int len = snprintf(rec, sizeof rec,
                       "circuit %s\nseed %s\nconstraints %llu\ninputs %llu\naux %llu\n"
                       "h %llu\nl %llu\na %llu\nb_g1 %llu\nb_g2 %llu\n",
                       p->id, hex, (unsigned long long)r->n_constraints, (unsigned long long)r->n_inputs,
                       (unsigned long long)r->n_aux, (unsigned long long)n->h, (unsigned long long)n->l,
                       (unsigned long long)n->a, (unsigned long long)n->b_g1, (unsigned long long)n->b_g2);
    return gm_file_write(p->setup, rec, (size_t)len, err);
}

/* What params_ensure does while it holds the lock. */
static int ensure_locked(params_ensure_t *r, const params_paths_t *p, const circuit_t *c, unsigned flags,
                         const params_ensure_opts_t *o, err_t *err)
{
    bool have_keys = exists(p->params) && exists(p->vk);
    bool shape_ok = cs_shape_cached(p->dir, p->id);
    int rc;
    if ((flags & PARAMS_ENSURE_FORCE) || (!have_keys && (flags & PARAMS_ENSURE_GENERATE))) {
        say(o, "setup: generating test parameters for %s in %s (once; cached)", p->id, p->dir);
        if ((rc = generate(r, p, c, o, err)))
            return rc;
    } else if (!have_keys) {
        const char *file = o && o->campaign ? o->campaign : NULL;
        return gm_err_set(err, GM_EINVAL, "%s%sparams: '%s' is incomplete (need %s.params, .vk, .shape)",
                          file ? file : "", file ? ": " : "", p->dir, p->id);
    } else if (!shape_ok) {
        /* A shape missing or in an older file format: the parameters are
         * still the circuit's, only the shape is recorded again (it is
         * deterministic). */
        say(o, exists(p->shape) ? "setup: %s is in an older format; recording it again"
                                : "setup: %s is missing; recording it", p->shape);
        cs_shape_t *shape = NULL;
        if ((rc = record_shape(r, &shape, p, c, err)))
            return rc;
        cs_shape_free(shape);
    }
    if ((rc = params_digest(r, p, r->generated || (flags & PARAMS_ENSURE_FULL), err)))
        return rc;
    /* Points this setup made need no subgroup checks (params_load). */
    if (r->generated && (rc = params_checked_record(p, r->digest, r->ident.size, err)))
        return rc;
    return manifest_step(r, p, o, err);
}

int params_ensure(params_ensure_t *out, const params_paths_t *p, const circuit_t *c, unsigned flags,
                  const params_ensure_opts_t *o, err_t *err)
{
    memset(out, 0, sizeof *out);
    if ((flags & (PARAMS_ENSURE_GENERATE | PARAMS_ENSURE_FORCE)) && mkdir(p->dir, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s%sparams: '%s': cannot create: %s", o && o->campaign ? o->campaign : "",
                          o && o->campaign ? ": " : "", p->dir, strerror(errno));
    int lock = -1;
    int rc = params_cache_lock(&lock, p->dir, false, err);
    if (rc == GM_ESTATE) {
        say(o, "params: waiting for another process's setup in %s (%s)", p->dir, PARAMS_LOCK_NAME);
        gm_err_clear(err);
        rc = params_cache_lock(&lock, p->dir, true, err);
    }
    if (!rc)
        rc = ensure_locked(out, p, c, flags, o, err);
    params_cache_unlock(lock);
    return rc;
}
