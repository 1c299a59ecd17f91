/*
 * jobs/campaign.c — the campaign file: parsing (jansson), validation with
 * messages that name the file, the key and the value, normalization back to
 * text (rank 0 broadcasts that text, so the other ranks never need the file),
 * and the work-unit numbering.
 *
 * Validation is strict: every key is known or the campaign is refused, every
 * value is range-checked, and (unless JOBS_PARSE_NO_FILES) the files a
 * campaign names are checked before any rank starts proving: sector inputs
 * must exist, and with "setup": "never" the parameter files must be readable.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs/jobs.h"
#include "synth/porep/porep.h"

/* ---- small helpers ------------------------------------------------------------- */

static bool id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= JOBS_ID_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return false;
    }
    return s[0] != '.';
}

/* Joins base and p unless p is absolute. Returns 0 or GM_EINVAL (too long). */
static int resolve(char out[JOBS_PATH_LEN], const char *base, const char *p, const char *what, err_t *err)
{
    int n;
    if (p[0] == '/' || !base || !base[0])
        n = snprintf(out, JOBS_PATH_LEN, "%s", p);
    else
        n = snprintf(out, JOBS_PATH_LEN, "%s/%s", base, p);
    if (n < 0 || n >= JOBS_PATH_LEN)
        return gm_err_set(err, GM_EINVAL, "%s: '%s' is too long (%d bytes at most)", what, p, JOBS_PATH_LEN - 1);
    return 0;
}

/* resources.topology: "this", "synthetic:DESC" (kept as written) or
 * "xml:FILE" (FILE made absolute against base, as every other path of the
 * campaign). Only the form is checked here: whether hwloc takes it is known
 * when a rank loads it (topo_load), which is where the message comes from.
 * Returns 0 or GM_EINVAL naming the file, key and value. */
static int topology_spec(char out[JOBS_PATH_LEN], const char *base, const char *v, const char *file, err_t *err)
{
    char what[JOBS_PATH_LEN + 64];
    snprintf(what, sizeof what, "%s: resources.topology", file);
    if (!strcmp(v, "this") || !v[0]) {
        snprintf(out, JOBS_PATH_LEN, "this");
        return 0;
    }
    if (!strncmp(v, "synthetic:", 10) && v[10]) {
        if (strlen(v) >= JOBS_PATH_LEN)
            return gm_err_set(err, GM_EINVAL, "%s: '%.40s...' is too long (%d bytes at most)", what, v,
                              JOBS_PATH_LEN - 1);
        snprintf(out, JOBS_PATH_LEN, "%s", v);
        return 0;
    }
    if (!strncmp(v, "xml:", 4) && v[4]) {
        char path[JOBS_PATH_LEN];
        int rc = resolve(path, base, v + 4, what, err);
        if (rc)
            return rc;
        int n = snprintf(out, JOBS_PATH_LEN, "xml:%s", path);
        if (n < 0 || n >= JOBS_PATH_LEN)
            return gm_err_set(err, GM_EINVAL, "%s: '%s' is too long (%d bytes at most)", what, v, JOBS_PATH_LEN - 1);
        return 0;
    }
    return gm_err_set(err, GM_EINVAL, "%s: '%s' is not \"this\", \"synthetic:DESC\" or \"xml:FILE\"", what, v);
}

int jobs_size_parse(uint64_t *out, const char *s, const char *what, err_t *err)
{
    char *end;
    errno = 0;
    if (!s || s[0] < '0' || s[0] > '9')
        goto bad;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        goto bad;
    unsigned shift = 0;
    if (*end) {
        if (!strcasecmp(end, "KiB"))
            shift = 10;
        else if (!strcasecmp(end, "MiB"))
            shift = 20;
        else if (!strcasecmp(end, "GiB"))
            shift = 30;
        else if (!strcasecmp(end, "TiB"))
            shift = 40;
        else
            goto bad;
    }
    if (shift && v > (UINT64_MAX >> shift))
        goto bad;
    *out = (uint64_t)v << shift;
    return 0;
bad:
    return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a size (bytes, or a number with KiB, MiB, GiB, TiB)", what,
                      s ? s : "");
}

/* An unsigned integer key in [lo, hi]; absent keeps *out. */
static int get_uint(uint64_t *out, json_t *obj, const char *key, uint64_t lo, uint64_t hi, const char *file,
                    const char *prefix, err_t *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) < lo ||
        (uint64_t)json_integer_value(v) > hi) {
        char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        int rc = gm_err_set(err, GM_EINVAL, "%s: %s%s: %s is not an integer in %llu..%llu", file, prefix, key,
                            t ? t : "?", (unsigned long long)lo, (unsigned long long)hi);
        free(t);
        return rc;
    }
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int get_string(const char **out, json_t *obj, const char *key, const char *file, const char *prefix,
                      err_t *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_string(v)) {
        char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        int rc = gm_err_set(err, GM_EINVAL, "%s: %s%s: %s is not a string", file, prefix, key, t ? t : "?");
        free(t);
        return rc;
    }
    *out = json_string_value(v);
    return 0;
}

static int get_bool(bool *out, json_t *obj, const char *key, const char *file, const char *prefix, err_t *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_boolean(v)) {
        char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        int rc = gm_err_set(err, GM_EINVAL, "%s: %s%s: %s is not true or false", file, prefix, key, t ? t : "?");
        free(t);
        return rc;
    }
    *out = json_is_true(v);
    return 0;
}

/* Refuses any key of obj not in the NULL-terminated list. */
static int check_keys(json_t *obj, const char *const *known, const char *file, const char *prefix, err_t *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        bool ok = false;
        for (size_t i = 0; known[i]; i++)
            if (!strcmp(key, known[i]))
                ok = true;
        if (!ok) {
            char list[512] = "";
            for (size_t i = 0; known[i]; i++) {
                strncat(list, known[i], sizeof list - strlen(list) - 1);
                if (known[i + 1])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            return gm_err_set(err, GM_EINVAL, "%s: %s%s: unknown key (known: %s)", file, prefix, key, list);
        }
    }
    return 0;
}

/* ---- sectors ------------------------------------------------------------------------ */

/* A "snarkjs" sector's file key: resolved, and (unless flags say not)
 * a readable regular file. */
static int zkey_file(char out[JOBS_PATH_LEN], json_t *s, const char *key, const char *file, const char *pre,
                     const char *base, jobs_parse_flags_t flags, err_t *err)
{
    const char *v = NULL;
    int rc;
    if ((rc = get_string(&v, s, key, file, pre, err)))
        return rc;
    if (!v || !v[0])
        return gm_err_set(err, GM_EINVAL, "%s: %s%s: missing (circuit snarkjs: every sector names a .zkey and a .wtns)",
                          file, pre, key);
    char what[JOBS_PATH_LEN + 96];
    snprintf(what, sizeof what, "%s: %s%s", file, pre, key);
    if ((rc = resolve(out, base, v, what, err)))
        return rc;
    struct stat st;
    if (!(flags & JOBS_PARSE_NO_FILES)) {
        if (stat(out, &st) != 0)
            return gm_err_set(err, GM_EINVAL, "%s: '%s': %s", what, out, strerror(errno));
        if (!S_ISREG(st.st_mode) || access(out, R_OK) != 0)
            return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a readable file", what, out);
    }
    return 0;
}

static int parse_sectors(jobs_campaign_t *c, json_t *sv, const char *file, const char *base, bool porep,
                         jobs_parse_flags_t flags, err_t *err)
{
    int rc;
    if (json_is_object(sv) && c->zkey)
        return gm_err_set(err, GM_EINVAL, "%s: sectors: circuit snarkjs needs an array of {\"id\", \"zkey\", \"wtns\"}",
                          file);
    if (json_is_object(sv)) {
        /* The generator form: {"count": N, "prefix": "s", "first_seed": 1}. */
        static const char *const keys[] = {"count", "prefix", "first_seed", NULL};
        if ((rc = check_keys(sv, keys, file, "sectors.", err)))
            return rc;
        if (porep)
            return gm_err_set(err, GM_EINVAL,
                              "%s: sectors: the {\"count\": N} form makes test sectors; circuit porep needs an array "
                              "of {\"id\", \"sealed\" | \"c1\"}",
                              file);
        uint64_t count = 0, first = 1;
        const char *prefix = "s";
        if (!json_object_get(sv, "count"))
            return gm_err_set(err, GM_EINVAL, "%s: sectors.count: missing", file);
        if ((rc = get_uint(&count, sv, "count", 1, JOBS_MAX_SECTORS, file, "sectors.", err)) ||
            (rc = get_uint(&first, sv, "first_seed", 0, UINT64_MAX / 2, file, "sectors.", err)) ||
            (rc = get_string(&prefix, sv, "prefix", file, "sectors.", err)))
            return rc;
        if (strlen(prefix) > 40 || (prefix[0] && !id_ok(prefix)))
            return gm_err_set(err, GM_EINVAL, "%s: sectors.prefix: '%s' is not 0..40 of [A-Za-z0-9._-]", file, prefix);
        c->sectors = calloc(count, sizeof *c->sectors);
        if (!c->sectors)
            return gm_err_set(err, GM_ENOMEM, "%s: sectors: out of memory for %llu sectors", file,
                              (unsigned long long)count);
        c->nsectors = count;
        unsigned width = count <= 100 ? 2 : count <= 10000 ? 4 : 6;
        for (size_t i = 0; i < count; i++) {
            snprintf(c->sectors[i].id, JOBS_ID_LEN, "%s%0*zu", prefix, (int)width, i + 1);
            c->sectors[i].kind = JOBS_SOURCE_TEST;
            c->sectors[i].seed = first + i;
        }
        return 0;
    }
    if (!json_is_array(sv) || json_array_size(sv) == 0 || json_array_size(sv) > JOBS_MAX_SECTORS)
        return gm_err_set(err, GM_EINVAL,
                          "%s: sectors: not an array of 1..%d sectors or a {\"count\": N} object", file,
                          JOBS_MAX_SECTORS);
    size_t n = json_array_size(sv);
    c->sectors = calloc(n, sizeof *c->sectors);
    if (!c->sectors)
        return gm_err_set(err, GM_ENOMEM, "%s: sectors: out of memory", file);
    c->nsectors = n;
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(sv, i);
        char pre[48];
        snprintf(pre, sizeof pre, "sectors[%zu].", i);
        jobs_sector_t *sec = &c->sectors[i];
        if (!json_is_object(s))
            return gm_err_set(err, GM_EINVAL, "%s: sectors[%zu]: not an object", file, i);
        static const char *const keys[] = {"id", "seed", "sealed", "c1", NULL};
        static const char *const zkeys[] = {"id", "zkey", "wtns", NULL};
        if ((rc = check_keys(s, c->zkey ? zkeys : keys, file, pre, err)))
            return rc;
        const char *id = NULL, *sealed = NULL, *c1 = NULL;
        uint64_t seed = i + 1;
        if ((rc = get_string(&id, s, "id", file, pre, err)) || (rc = get_string(&sealed, s, "sealed", file, pre, err)) ||
            (rc = get_string(&c1, s, "c1", file, pre, err)) ||
            (rc = get_uint(&seed, s, "seed", 0, UINT64_MAX / 2, file, pre, err)))
            return rc;
        if (!id)
            return gm_err_set(err, GM_EINVAL, "%s: %sid: missing", file, pre);
        if (!id_ok(id))
            return gm_err_set(err, GM_EINVAL, "%s: %sid: '%s' is not 1..%d of [A-Za-z0-9._-] (not starting with '.')",
                              file, pre, id, JOBS_ID_LEN - 1);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(c->sectors[j].id, id))
                return gm_err_set(err, GM_EINVAL, "%s: %sid: '%s' is also sectors[%zu].id", file, pre, id, j);
        snprintf(sec->id, JOBS_ID_LEN, "%s", id);
        sec->seed = seed;
        if (c->zkey) {
            sec->kind = JOBS_SOURCE_ZKEY;
            if ((rc = zkey_file(sec->path, s, "zkey", file, pre, base, flags, err)) ||
                (rc = zkey_file(sec->wtns, s, "wtns", file, pre, base, flags, err)))
                return rc;
        } else if (porep) {
            if ((sealed != NULL) == (c1 != NULL))
                return gm_err_set(err, GM_EINVAL, "%s: sectors[%zu]: circuit porep needs exactly one of \"sealed\" "
                                  "(a `grothmpi porep seal` directory) and \"c1\" (a C1 JSON file)", file, i);
            /* A sealed sector's seed is the interactive randomness of its C1:
             * `grothmpi porep c1 DIR --seed <decimal seed>` (porep_seed_parse
             * of its decimal text). A C1 file carries its own. */
            if (c1 && json_object_get(s, "seed"))
                return gm_err_set(err, GM_EINVAL, "%s: %sseed: only for test circuits and \"sealed\" sectors (a C1 "
                                  "file carries its seed)", file, pre);
            char what[96];
            snprintf(what, sizeof what, "%s: %s%s", file, pre, sealed ? "sealed" : "c1");
            sec->kind = sealed ? JOBS_SOURCE_SEALED : JOBS_SOURCE_C1;
            if ((rc = resolve(sec->path, base, sealed ? sealed : c1, what, err)))
                return rc;
            if (!(flags & JOBS_PARSE_NO_FILES)) {
                struct stat st;
                if (stat(sec->path, &st) != 0)
                    return gm_err_set(err, GM_EINVAL, "%s: '%s': %s", what, sec->path, strerror(errno));
                if (sealed && !S_ISDIR(st.st_mode))
                    return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a directory", what, sec->path);
                if (c1 && (!S_ISREG(st.st_mode) || access(sec->path, R_OK) != 0))
                    return gm_err_set(err, GM_EINVAL, "%s: '%s' is not a readable file", what, sec->path);
            }
        } else {
            if (sealed || c1)
                return gm_err_set(err, GM_EINVAL, "%s: %s%s: only for circuit porep (this campaign proves %s)", file,
                                  pre, sealed ? "sealed" : "c1", c->circuit.id);
            sec->kind = JOBS_SOURCE_TEST;
        }
    }
    return 0;
}

/* ---- the campaign -------------------------------------------------------------------- */

static const char *const top_keys[] = {"name",         "circuit",    "constraints", "compressions",
                                       "sector_size",  "params",     "setup",       "setup_seed",
                                       "trust_params", "sectors",    "partitions",  "batch_size",
                                       "output",       "verify",     "resources",   "progress_interval",
                                       "pipeline_depth", "mode",    "backend", "split", "units", NULL};

static int parse_obj(jobs_campaign_t *c, json_t *root, const char *file, const char *base, jobs_parse_flags_t flags,
                     err_t *err)
{
    int rc;
    if (!json_is_object(root))
        return gm_err_set(err, GM_EINVAL, "%s: the campaign is not a JSON object", file);
    if ((rc = check_keys(root, top_keys, file, "", err)))
        return rc;
    snprintf(c->topology, sizeof c->topology, "this");

    /* name */
    const char *name = NULL;
    if ((rc = get_string(&name, root, "name", file, "", err)))
        return rc;
    if (name && !id_ok(name))
        return gm_err_set(err, GM_EINVAL, "%s: name: '%s' is not 1..%d of [A-Za-z0-9._-]", file, name,
                          JOBS_ID_LEN - 1);
    snprintf(c->name, JOBS_ID_LEN, "%s", name ? name : "campaign");

    /* circuit and its size */
    const char *circ = NULL, *sector_size = NULL;
    if ((rc = get_string(&circ, root, "circuit", file, "", err)) ||
        (rc = get_string(&sector_size, root, "sector_size", file, "", err)))
        return rc;
    if (!circ)
        return gm_err_set(err, GM_EINVAL, "%s: circuit: missing (test-mul, test-synthetic, test-sha256, porep, snarkjs)", file);
    bool porep = !strcmp(circ, "porep");
    c->zkey = !strcmp(circ, "snarkjs");
    uint64_t constraints = 0, compressions = 0;
    if ((rc = get_uint(&constraints, root, "constraints", 8, 1ULL << 28, file, "", err)) ||
        (rc = get_uint(&compressions, root, "compressions", 1, 4096, file, "", err)))
        return rc;
    if (constraints && (constraints & (constraints - 1)))
        return gm_err_set(err, GM_EINVAL, "%s: constraints: %llu is not a power of two", file,
                          (unsigned long long)constraints);
    if (json_object_get(root, "constraints") && strcmp(circ, "test-synthetic"))
        return gm_err_set(err, GM_EINVAL, "%s: constraints: only for circuit test-synthetic (circuit is '%s')", file,
                          circ);
    if (json_object_get(root, "compressions") && strcmp(circ, "test-sha256"))
        return gm_err_set(err, GM_EINVAL, "%s: compressions: only for circuit test-sha256 (circuit is '%s')", file,
                          circ);
    uint64_t ssize = 0;
    if (porep) {
        if (!sector_size)
            return gm_err_set(err, GM_EINVAL, "%s: sector_size: missing (circuit porep needs it: 2KiB, 8MiB, 512MiB, "
                              "32GiB, 64GiB)", file);
        char what[JOBS_PATH_LEN + 32];
        snprintf(what, sizeof what, "%s: sector_size", file);
        if ((rc = porep_sector_size_parse(&ssize, sector_size, what, err)))
            return rc;
        if (!porep_proof_find(ssize, POREP_API_1_1))
            return gm_err_set(err, GM_EINVAL, "%s: sector_size: '%s' is not a registered sector size (2KiB, 8MiB, "
                              "512MiB, 32GiB, 64GiB)", file, sector_size);
    } else if (sector_size) {
        return gm_err_set(err, GM_EINVAL, "%s: sector_size: only for circuit porep (circuit is '%s')", file, circ);
    }
    err_t e2;
    gm_err_clear(&e2);
    if (c->zkey) /* no circuit_t of its own: each sector's zkey is its circuit */
        snprintf(c->circuit.id, sizeof c->circuit.id, "snarkjs");
    else if (circuit_parse(&c->circuit, circ, constraints ? constraints : compressions, sector_size, &e2))
        return gm_err_set(err, GM_EINVAL, "%s: circuit: '%s': %s", file, circ, e2.msg);
    if (c->zkey && (json_object_get(root, "constraints") || json_object_get(root, "compressions")))
        return gm_err_set(err, GM_EINVAL, "%s: %s: not for circuit snarkjs (each sector's zkey is its circuit)", file,
                          json_object_get(root, "constraints") ? "constraints" : "compressions");

    /* parameters */
    const char *params = NULL, *setup = "auto", *seed = NULL;
    if ((rc = get_string(&params, root, "params", file, "", err)) ||
        (rc = get_string(&setup, root, "setup", file, "", err)) ||
        (rc = get_string(&seed, root, "setup_seed", file, "", err)) ||
        (rc = get_bool(&c->trust_params, root, "trust_params", file, "", err)))
        return rc;
    const char *mode = "prove";
    if ((rc = get_string(&mode, root, "mode", file, "", err)))
        return rc;
    if (!strcmp(mode, "check"))
        c->mode = JOBS_MODE_CHECK;
    else if (strcmp(mode, "prove"))
        return gm_err_set(err, GM_EINVAL, "%s: mode: '%s' is not \"prove\" or \"check\"", file, mode);
    if (c->zkey && c->mode == JOBS_MODE_CHECK)
        return gm_err_set(err, GM_EINVAL, "%s: mode: \"check\" is not for circuit snarkjs (a .wtns is checked by "
                          "`grothmpi snarkjs check`)", file);
    if (c->zkey && (params || json_object_get(root, "setup") || seed || json_object_get(root, "trust_params")))
        return gm_err_set(err, GM_EINVAL, "%s: %s: not for circuit snarkjs (its keys are the sectors' zkeys)", file,
                          params ? "params" : json_object_get(root, "setup") ? "setup" : seed ? "setup_seed"
                                                                                                : "trust_params");
    if (!params && (c->mode == JOBS_MODE_CHECK || c->zkey))
        params = "."; /* a check needs no parameters, nor a zkey campaign; the key stays optional */
    if (!params)
        return gm_err_set(err, GM_EINVAL, "%s: params: missing (the parameter cache directory)", file);
    if (!strcmp(setup, "auto"))
        c->setup_auto = true;
    else if (!strcmp(setup, "never"))
        c->setup_auto = false;
    else
        return gm_err_set(err, GM_EINVAL, "%s: setup: '%s' is not \"auto\" or \"never\"", file, setup);
    if (seed) {
        err_t e;
        if (gm_hex_decode_exact(c->setup_seed, GROTH16_SEED_BYTES, seed, 0, &e))
            return gm_err_set(err, GM_EINVAL, "%s: setup_seed: '%s' is not 64 hex digits (%s)", file, seed, e.msg);
        c->has_setup_seed = true;
    }
    char what[JOBS_PATH_LEN + 32];
    snprintf(what, sizeof what, "%s: params", file);
    if ((rc = resolve(c->params_dir, base, params, what, err)))
        return rc;

    /* sectors and partitions */
    uint64_t partitions = 1, batch = 1, depth;
    if ((rc = get_uint(&partitions, root, "partitions", 1, JOBS_MAX_PARTITIONS, file, "", err)) ||
        (rc = get_uint(&batch, root, "batch_size", 1, JOBS_MAX_BATCH, file, "", err)))
        return rc;
    depth = batch; /* pipeline_depth: the next batch prepared while this one is in its MSMs */
    if ((rc = get_uint(&depth, root, "pipeline_depth", 0, JOBS_MAX_BATCH, file, "", err)))
        return rc;
    c->pipeline_depth = (unsigned)depth;
    if (porep) {
        /* One unit per partition of the registered proof: 1 (2 KiB .. 512 MiB) or 10. */
        porep_shape_t sh;
        err_t e3;
        gm_err_clear(&e3);
        if (porep_shape_init(&sh, c->circuit.size, &e3))
            return gm_err_set(err, GM_EINVAL, "%s: sector_size: %s", file, e3.msg);
        if (!json_object_get(root, "partitions"))
            partitions = sh.partitions;
        else if (partitions != sh.partitions)
            return gm_err_set(err, GM_EINVAL, "%s: partitions: %llu, but a %s sector has %u partition(s)", file,
                              (unsigned long long)partitions, c->circuit.id, sh.partitions);
    }
    if (c->zkey && partitions != 1)
        return gm_err_set(err, GM_EINVAL, "%s: partitions: %llu, but a snarkjs sector is one proof (1)", file,
                          (unsigned long long)partitions);
    c->partitions = (unsigned)partitions;
    c->batch_size = (unsigned)batch;
    json_t *sv = json_object_get(root, "sectors");
    if (!sv)
        return gm_err_set(err, GM_EINVAL, "%s: sectors: missing", file);
    if ((rc = parse_sectors(c, sv, file, base, porep, flags, err)))
        return rc;
    /* after the sectors: its bound is their units */
    if ((rc = get_uint(&c->units, root, "units", 1, (uint64_t)c->nsectors * c->partitions, file, "", err)))
        return rc;

    /* output, verification */
    const char *output = NULL, *verify = "rank";
    if ((rc = get_string(&output, root, "output", file, "", err)) ||
        (rc = get_string(&verify, root, "verify", file, "", err)))
        return rc;
    if (!output || !output[0])
        return gm_err_set(err, GM_EINVAL, "%s: output: missing (the directory for proofs, journal and report)", file);
    snprintf(what, sizeof what, "%s: output", file);
    if ((rc = resolve(c->output, base, output, what, err)))
        return rc;
    if (!strcmp(verify, "rank"))
        c->verify = JOBS_VERIFY_RANK;
    else if (!strcmp(verify, "root"))
        c->verify = JOBS_VERIFY_ROOT;
    else if (!strcmp(verify, "both"))
        c->verify = JOBS_VERIFY_BOTH;
    else
        return gm_err_set(err, GM_EINVAL, "%s: verify: '%s' is not \"rank\", \"root\" or \"both\"", file, verify);
    if (c->zkey && c->verify != JOBS_VERIFY_RANK)
        return gm_err_set(err, GM_EINVAL, "%s: verify: '%s', but circuit snarkjs is checked by the proving rank "
                          "against its zkey (\"rank\")", file, verify);

    /* resources */
    json_t *res = json_object_get(root, "resources");
    if (res) {
        static const char *const keys[] = {"threads", "mem_budget", "pin", "domains", "topology", "gpus", NULL};
        if (!json_is_object(res))
            return gm_err_set(err, GM_EINVAL, "%s: resources: not an object", file);
        if ((rc = check_keys(res, keys, file, "resources.", err)))
            return rc;
        uint64_t threads = 0;
        if ((rc = get_uint(&threads, res, "threads", 0, 4096, file, "resources.", err)) ||
            (rc = get_bool(&c->pin, res, "pin", file, "resources.", err)))
            return rc;
        c->threads = (unsigned)threads;
        uint64_t domains = 0;
        if ((rc = get_uint(&domains, res, "domains", 0, JOBS_MAX_DOMAINS, file, "resources.", err)))
            return rc;
        c->domains = (unsigned)domains;
        uint64_t gpus = 0;
        if ((rc = get_uint(&gpus, res, "gpus", 0, JOBS_MAX_GPUS, file, "resources.", err)))
            return rc;
        c->gpus = (unsigned)gpus;
        const char *topo = NULL;
        if ((rc = get_string(&topo, res, "topology", file, "resources.", err)))
            return rc;
        if (topo && (rc = topology_spec(c->topology, base, topo, file, err)))
            return rc;
        /* Pinning binds threads to the CPUs a topology names: only the
         * machine's own topology names real ones (topo_pool_create_domain
         * refuses it elsewhere, later and on every rank). */
        if (c->pin && strcmp(c->topology, "this") != 0)
            return gm_err_set(err, GM_EINVAL,
                              "%s: resources.pin: true needs resources.topology \"this\", not '%s' (a described "
                              "topology's CPUs are not bound)",
                              file, c->topology);
        json_t *mb = json_object_get(res, "mem_budget");
        if (mb) {
            snprintf(what, sizeof what, "%s: resources.mem_budget", file);
            if (json_is_integer(mb) && json_integer_value(mb) > 0)
                c->mem_budget = (uint64_t)json_integer_value(mb);
            else if (json_is_string(mb)) {
                if ((rc = jobs_size_parse(&c->mem_budget, json_string_value(mb), what, err)))
                    return rc;
            } else
                return gm_err_set(err, GM_EINVAL, "%s: not a size (\"2GiB\" or a positive byte count)", what);
            if (c->mem_budget < (1u << 20))
                return gm_err_set(err, GM_EINVAL, "%s: %llu bytes is below 1 MiB", what,
                                  (unsigned long long)c->mem_budget);
        }
    }
    const char *backend = NULL;
    if ((rc = get_string(&backend, root, "backend", file, "", err)))
        return rc;
    c->backend = GROTH16_BACKEND_AUTO;
    if (backend) {
        snprintf(what, sizeof what, "%s: backend", file);
        if ((rc = groth16_backend_kind_parse(&c->backend, backend, what, err)))
            return rc;
    }
    /* split: each unit proved by a group of R ranks (mpi/split_campaign.c);
     * that R divides the job's ranks is checked by rank 0, which knows them. */
    uint64_t split = 1;
    if ((rc = get_uint(&split, root, "split", 1, JOBS_MAX_SPLIT, file, "", err)))
        return rc;
    c->split = (unsigned)split;
    if (split > 1 && c->mode != JOBS_MODE_PROVE)
        return gm_err_set(err, GM_EINVAL, "%s: split: %llu, but a \"check\" campaign proves nothing (split needs "
                          "mode \"prove\")", file, (unsigned long long)split);
    if (split > 1 && c->backend != GROTH16_BACKEND_AUTO && c->backend != GROTH16_BACKEND_CPU)
        return gm_err_set(err, GM_EINVAL, "%s: split: %llu, but split units are proved on the CPU (backend is "
                          "'%s'; use \"cpu\" or \"auto\")", file, (unsigned long long)split,
                          groth16_backend_kind_name(c->backend));
    json_t *pi = json_object_get(root, "progress_interval");
    c->progress_interval = 5;
    if (pi) {
        if (!json_is_number(pi) || json_number_value(pi) < 0 || json_number_value(pi) > 86400)
            return gm_err_set(err, GM_EINVAL, "%s: progress_interval: not a number of seconds in 0..86400", file);
        c->progress_interval = json_number_value(pi);
    }
    /* Last, so that a bad key is reported before a missing cache. */
    if (!(flags & JOBS_PARSE_NO_FILES) && !c->setup_auto && c->mode == JOBS_MODE_PROVE && !c->zkey) {
        static const char *const ext[] = {"params", "vk", "shape"};
        for (int i = 0; i < 3; i++) {
            char p[JOBS_PATH_LEN + 80];
            snprintf(p, sizeof p, "%s/%s.%s", c->params_dir, c->circuit.id, ext[i]);
            if (access(p, R_OK) != 0)
                return gm_err_set(err, GM_EINVAL, "%s: params: '%s': %s (\"setup\": \"never\" needs the cache filled by "
                                  "`grothmpi setup`)", file, p, strerror(errno));
        }
    }
    return 0;
}

int jobs_campaign_parse(jobs_campaign_t *out, const char *text, const char *what, const char *base_dir,
                        jobs_parse_flags_t flags, err_t *err)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return gm_err_set(err, GM_EFORMAT, "%s: line %d column %d: %s", what, je.line, je.column, je.text);
    char cwd[JOBS_PATH_LEN];
    if (!base_dir) {
        if (!getcwd(cwd, sizeof cwd))
            snprintf(cwd, sizeof cwd, ".");
        base_dir = cwd;
    }
    int rc = parse_obj(out, root, what, base_dir, flags, err);
    json_decref(root);
    if (rc) {
        jobs_campaign_free(out);
        return rc;
    }
    return 0;
}

int jobs_campaign_load(jobs_campaign_t *out, const char *path, jobs_parse_flags_t flags, err_t *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    uint64_t cap = 0;
    for (;;) {
        if (len + 4096 + 1 > (64u << 20)) {
            gm_free(buf);
            fclose(f);
            return gm_err_set(err, GM_EFORMAT, "%s: larger than 64 MiB", path);
        }
        if (!gm_grow((void **)&buf, &cap, len + 4096 + 1, 1, 8192)) {
            gm_free(buf);
            fclose(f);
            return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
        }
        errno = 0;
        size_t r = fread(buf + len, 1, 4096, f);
        len += r;
        if (r < 4096)
            break;
    }
    int bad = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (bad) {
        gm_free(buf);
        return gm_err_set(err, GM_EIO, "%s: cannot read: %s", path, bad == EISDIR ? "a directory" : strerror(bad));
    }
    buf[len] = 0;
    /* The base directory: the file's own, made absolute. */
    char base[JOBS_PATH_LEN], abs[PATH_MAX];
    char *slash = strrchr(path, '/');
    if (slash) {
        snprintf(base, sizeof base, "%.*s", (int)(slash - path), path);
        if (!base[0])
            snprintf(base, sizeof base, "/");
    } else
        snprintf(base, sizeof base, ".");
    if (realpath(base, abs) && strlen(abs) < sizeof base)
        memcpy(base, abs, strlen(abs) + 1);
    int rc = jobs_campaign_parse(out, buf, path, base, flags, err);
    gm_free(buf);
    if (!rc)
        snprintf(out->file, sizeof out->file, "%s", path);
    return rc;
}

static const char *verify_name(jobs_verify_t v)
{
    return v == JOBS_VERIFY_ROOT ? "root" : v == JOBS_VERIFY_BOTH ? "both" : "rank";
}

char *jobs_campaign_to_text(const jobs_campaign_t *c)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "name", json_string(c->name));
    const char *cname = c->circuit.kind == CIRCUIT_TEST_MUL         ? "test-mul"
                        : c->circuit.kind == CIRCUIT_TEST_SYNTHETIC ? "test-synthetic"
                        : c->circuit.kind == CIRCUIT_TEST_SHA256    ? "test-sha256"
                                                                            : "porep";
    json_object_set_new(o, "circuit", json_string(c->zkey ? "snarkjs" : cname));
    if (c->circuit.kind == CIRCUIT_TEST_SYNTHETIC)
        json_object_set_new(o, "constraints", json_integer((json_int_t)c->circuit.size));
    if (c->circuit.kind == CIRCUIT_TEST_SHA256)
        json_object_set_new(o, "compressions", json_integer((json_int_t)c->circuit.size));
    if (c->circuit.kind == CIRCUIT_POREP) {
        /* The string form jobs_campaign_parse reads ("2KiB"), not a number
         * (fuzz finding F2: the other ranks refused rank 0's text). */
        char ssize[32];
        porep_sector_size_format(ssize, sizeof ssize, c->circuit.size);
        json_object_set_new(o, "sector_size", json_string(ssize));
    }
    if (!c->zkey) {
        json_object_set_new(o, "params", json_string(c->params_dir));
        json_object_set_new(o, "setup", json_string(c->setup_auto ? "auto" : "never"));
        json_object_set_new(o, "trust_params", json_boolean(c->trust_params));
    }
    if (c->has_setup_seed) {
        char hex[2 * GROTH16_SEED_BYTES + 1];
        gm_hex_encode(hex, c->setup_seed, GROTH16_SEED_BYTES);
        json_object_set_new(o, "setup_seed", json_string(hex));
    }
    json_t *secs = json_array();
    for (size_t i = 0; i < c->nsectors; i++) {
        const jobs_sector_t *s = &c->sectors[i];
        json_t *so = json_object();
        json_object_set_new(so, "id", json_string(s->id));
        if (s->kind == JOBS_SOURCE_ZKEY) {
            json_object_set_new(so, "zkey", json_string(s->path));
            json_object_set_new(so, "wtns", json_string(s->wtns));
            json_array_append_new(secs, so);
            continue;
        }
        if (s->kind != JOBS_SOURCE_C1)
            json_object_set_new(so, "seed", json_integer((json_int_t)s->seed));
        if (s->kind != JOBS_SOURCE_TEST)
            json_object_set_new(so, s->kind == JOBS_SOURCE_SEALED ? "sealed" : "c1", json_string(s->path));
        json_array_append_new(secs, so);
    }
    json_object_set_new(o, "sectors", secs);
    json_object_set_new(o, "partitions", json_integer(c->partitions));
    if (c->units)
        json_object_set_new(o, "units", json_integer((json_int_t)c->units));
    json_object_set_new(o, "batch_size", json_integer(c->batch_size));
    json_object_set_new(o, "pipeline_depth", json_integer(c->pipeline_depth));
    json_object_set_new(o, "mode", json_string(c->mode == JOBS_MODE_CHECK ? "check" : "prove"));
    json_object_set_new(o, "output", json_string(c->output));
    json_object_set_new(o, "verify", json_string(verify_name(c->verify)));
    json_t *res = json_object();
    json_object_set_new(res, "threads", json_integer(c->threads));
    if (c->mem_budget)
        json_object_set_new(res, "mem_budget", json_integer((json_int_t)c->mem_budget));
    json_object_set_new(res, "pin", json_boolean(c->pin));
    json_object_set_new(res, "domains", json_integer(c->domains));
    json_object_set_new(res, "topology", json_string(c->topology));
    json_object_set_new(res, "gpus", json_integer(c->gpus));
    json_object_set_new(o, "resources", res);
    json_object_set_new(o, "backend", json_string(groth16_backend_kind_name(c->backend)));
    json_object_set_new(o, "split", json_integer(c->split));
    json_object_set_new(o, "progress_interval", json_real(c->progress_interval));
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return text;
}

void jobs_campaign_free(jobs_campaign_t *c)
{
    if (!c)
        return;
    free(c->sectors);
    memset(c, 0, sizeof *c);
}

size_t jobs_unit_count(const jobs_campaign_t *c) { return c->units ? (size_t)c->units : c->nsectors * c->partitions; }

jobs_unit_t jobs_unit_get(const jobs_campaign_t *c, size_t u)
{
    GM_ASSERT(u < jobs_unit_count(c));
    jobs_unit_t r = {.sector = u % c->nsectors, .partition = (unsigned)(u / c->nsectors)};
    return r;
}

uint64_t jobs_unit_seed(uint64_t sector_seed, unsigned partition)
{
    /* splitmix64 of (seed, partition): distinct units get unrelated witnesses. */
    uint64_t z = sector_seed * 0x100000001b3ULL + partition + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (z ^ (z >> 31)) >> 1;
}

void jobs_unit_name(char *buf, size_t n, const jobs_campaign_t *c, size_t u)
{
    jobs_unit_t un = jobs_unit_get(c, u);
    snprintf(buf, n, "%s-p%u", c->sectors[un.sector].id, un.partition);
}
