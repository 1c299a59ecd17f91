/*
 * serve/job.c — one job file of the spool (docs/serve.md, "Submitting a
 * job"): a bare C1, {"c1": PATH, ...}, a snarkjs proof {"zkey": PATH,
 * "wtns": PATH, ...}, or a test circuit {"circuit", "seed", ...}; each checked here on rank 0 before it joins a batch, so a bad
 * file goes to failed/ with its own line and never reaches a campaign.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "serve/serve_internal.h"
#include "snarkjs/snarkjs.h"
#include "synth/porep/porep.h"

/* Above this size a job file is a C1 (small forms are a few hundred bytes;
 * the smallest C1, 2 KiB's, is hundreds of KiB). */
#define SMALL_JOB_MAX (64u << 10)

static const char *const small_keys[] = {"c1", "circuit", "seed", "constraints", "compressions", "priority",
                                          "deadline", "zkey", "wtns"};

/* The job's name as messages show it: "incoming/NAME.json". */
#define WHAT "incoming/%s.json"

static int get_options(sv_job_t *j, json_t *o, err_t *err)
{
    json_t *p = json_object_get(o, "priority"), *d = json_object_get(o, "deadline");
    if (p && !json_is_integer(p))
        return gm_err_set(err, GM_EINVAL, WHAT ": priority: not an integer", j->name);
    if (d && (!json_is_number(d) || json_number_value(d) <= 0))
        return gm_err_set(err, GM_EINVAL, WHAT ": deadline: not a positive number (Unix seconds)", j->name);
    j->priority = p ? json_integer_value(p) : 0;
    j->deadline = d ? json_number_value(d) : 0;
    return 0;
}

/* A C1 file: its circuit (the sector size's) and partitions. */
static int check_c1(sv_job_t *j, const char *what, err_t *err)
{
    porep_c1_t c1;
    err_t e;
    int rc = porep_c1_read(&c1, j->c1, &e);
    size_t pl = strlen(j->c1);
    if (rc && !strncmp(e.msg, j->c1, pl) && !strncmp(e.msg + pl, ": ", 2))
        return gm_err_set(err, rc, "%s: %s", what, e.msg + pl + 2); /* the path once, as the user knows it */
    if (rc)
        return gm_err_set(err, rc, "%s: %s", what, e.msg);
    circuit_t from, want;
    porep_sector_size_format(j->sector_size, sizeof j->sector_size, c1.proof->sector_size);
    j->partitions = c1.partitions;
    if (!(rc = circuit_from_c1(&from, &c1, &e)) &&
        !(rc = circuit_parse(&want, "porep", 0, j->sector_size, &e)) && strcmp(from.id, want.id) != 0)
        rc = gm_err_set(&e, GM_ENOTSUP, "circuit %s: campaigns prove %s for sector size %s", from.id, want.id,
                        j->sector_size);
    porep_c1_free(&c1);
    if (rc)
        return gm_err_set(err, rc, "%s: %s", what, e.msg);
    j->circuit = want;
    snprintf(j->circuit_name, sizeof j->circuit_name, "porep");
    j->kind = SV_JOB_POREP;
    return 0;
}

const char *sv_kind_name(sv_kind_t k)
{
    return k == SV_JOB_POREP ? "porep" : k == SV_JOB_ZKEY ? "zkey" : "test";
}

/* A path key of a small job: absolute, or made so against the spool root. */
static int job_path(char *out, size_t n, json_t *o, const char *key, const sv_job_t *j, const sv_spool_t *s,
                    err_t *err)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || !json_string_value(v)[0])
        return gm_err_set(err, GM_EINVAL, WHAT ": %s: %s", j->name, key, v ? "not a path" : "missing");
    const char *p = json_string_value(v);
    if ((size_t)snprintf(out, n, "%s%s%s", p[0] == '/' ? "" : s->root, p[0] == '/' ? "" : "/", p) >= n)
        return gm_err_set(err, GM_EINVAL, WHAT ": %s: path too long", j->name, key);
    return 0;
}

/* {"zkey": PATH, "wtns": PATH}: both readable files of one curve (the
 * primes of their headers: BLS12-381 or bn128), the witness's header
 * sound; whether its length fits the zkey is known when the zkey is
 * loaded, and a job whose proof fails is proved alone and goes to failed/
 * with that line. */
static int zkey_job(sv_job_t *j, json_t *o, const sv_spool_t *s, err_t *err)
{
    if (json_object_get(o, "c1") || json_object_get(o, "circuit") || json_object_get(o, "seed"))
        return gm_err_set(err, GM_EINVAL, WHAT ": a zkey job takes no %s", j->name,
                          json_object_get(o, "c1") ? "c1" : json_object_get(o, "circuit") ? "circuit" : "seed");
    int rc;
    if ((rc = job_path(j->zkey, sizeof j->zkey, o, "zkey", j, s, err)) ||
        (rc = job_path(j->wtns, sizeof j->wtns, o, "wtns", j, s, err)))
        return rc;
    for (int k = 0; k < 2; k++) {
        const char *p = k ? j->wtns : j->zkey;
        struct stat st;
        if (stat(p, &st) != 0)
            return gm_err_set(err, GM_EINVAL, WHAT ": %s '%s': %s", j->name, k ? "wtns" : "zkey", p, strerror(errno));
        if (!S_ISREG(st.st_mode))
            return gm_err_set(err, GM_EINVAL, WHAT ": %s '%s': not a file", j->name, k ? "wtns" : "zkey", p);
    }
    snarkjs_curve_t kc, wc;
    snarkjs_wtns_view_t v;
    err_t e;
    if ((rc = snarkjs_curve_of_file(&kc, j->zkey, &e)))
        return gm_err_set(err, rc, WHAT ": zkey: %s", j->name, e.msg);
    if ((rc = snarkjs_curve_of_file(&wc, j->wtns, &e)))
        return gm_err_set(err, rc, WHAT ": wtns: %s", j->name, e.msg);
    if (kc != wc)
        return gm_err_set(err, GM_EINVAL, WHAT ": zkey '%s' is %s's, wtns '%s' %s's", j->name, j->zkey,
                          snarkjs_curve_name(kc), j->wtns, snarkjs_curve_name(wc));
    if ((rc = wc == SNARKJS_BN128 ? snarkjs_bn_wtns_open(&v, j->wtns, &e) : snarkjs_wtns_open(&v, j->wtns, &e)))
        return gm_err_set(err, rc, WHAT ": wtns: %s", j->name, e.msg);
    snarkjs_wtns_close(&v);
    snprintf(j->circuit.id, sizeof j->circuit.id, "snarkjs");
    snprintf(j->circuit_name, sizeof j->circuit_name, "snarkjs");
    j->partitions = 1;
    j->kind = SV_JOB_ZKEY;
    return 0;
}

static int small_job(sv_job_t *j, json_t *o, const sv_spool_t *s, err_t *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        bool known = false;
        for (size_t i = 0; i < sizeof small_keys / sizeof *small_keys; i++)
            known |= !strcmp(key, small_keys[i]);
        if (!known)
            return gm_err_set(err, GM_EINVAL, WHAT ": %s: unknown key (a job is a C1, {\"c1\": PATH}, "
                              "{\"zkey\": PATH, \"wtns\": PATH} or {\"circuit\", \"seed\"}; docs/serve.md)", j->name, key);
    }
    int rc = get_options(j, o, err);
    if (rc)
        return rc;
    if (json_object_get(o, "zkey") || json_object_get(o, "wtns"))
        return zkey_job(j, o, s, err);
    json_t *c1 = json_object_get(o, "c1"), *circ = json_object_get(o, "circuit");
    if (c1) {
        if (circ || json_object_get(o, "seed"))
            return gm_err_set(err, GM_EINVAL, WHAT ": c1: a C1 job takes no circuit or seed", j->name);
        if (!json_is_string(c1) || !json_string_value(c1)[0])
            return gm_err_set(err, GM_EINVAL, WHAT ": c1: not a path", j->name);
        const char *p = json_string_value(c1);
        if ((size_t)snprintf(j->c1, sizeof j->c1, "%s%s%s", p[0] == '/' ? "" : s->root, p[0] == '/' ? "" : "/", p) >=
            sizeof j->c1)
            return gm_err_set(err, GM_EINVAL, WHAT ": c1: path too long", j->name);
        char what[GM_PATH_MAX];
        snprintf(what, sizeof what, WHAT ": c1 '%s'", j->name, j->c1);
        return check_c1(j, what, err);
    }
    if (!json_is_string(circ))
        return gm_err_set(err, GM_EINVAL, WHAT ": circuit: missing (or c1)", j->name);
    const char *cn = json_string_value(circ);
    if (!strcmp(cn, "porep"))
        return gm_err_set(err, GM_EINVAL, WHAT ": circuit: porep jobs are C1 files (or {\"c1\": PATH})", j->name);
    json_t *seed = json_object_get(o, "seed");
    if (!json_is_integer(seed) || json_integer_value(seed) < 0)
        return gm_err_set(err, GM_EINVAL, WHAT ": seed: missing or not a non-negative integer", j->name);
    uint64_t size = 0;
    j->size_key = NULL;
    for (const char *k = "constraints"; k; k = strcmp(k, "constraints") ? NULL : "compressions") {
        json_t *x = json_object_get(o, k);
        if (!x)
            continue;
        if (!json_is_integer(x) || json_integer_value(x) <= 0)
            return gm_err_set(err, GM_EINVAL, WHAT ": %s: not a positive integer", j->name, k);
        size = (uint64_t)json_integer_value(x);
        j->size_key = k;
    }
    err_t e;
    if ((rc = circuit_parse(&j->circuit, cn, size, NULL, &e)))
        return gm_err_set(err, rc, WHAT ": circuit: %s", j->name, e.msg);
    if (j->size_key && strcmp(j->size_key, j->circuit.kind == CIRCUIT_TEST_SYNTHETIC ? "constraints" :
                                          j->circuit.kind == CIRCUIT_TEST_SHA256 ? "compressions" : "-"))
        return gm_err_set(err, GM_EINVAL, WHAT ": %s: not a key of circuit %s", j->name, j->size_key, cn);
    snprintf(j->circuit_name, sizeof j->circuit_name, "%s", cn);
    j->seed = (uint64_t)json_integer_value(seed);
    j->partitions = 1;
    j->kind = SV_JOB_TEST;
    return 0;
}

int sv_job_parse(sv_job_t *j, const sv_spool_t *s, err_t *err)
{
    struct stat st;
    if (stat(j->path, &st) != 0)
        return gm_err_set(err, GM_EIO, WHAT ": %s", j->name, strerror(errno));
    if ((uint64_t)st.st_size > SMALL_JOB_MAX) {
        snprintf(j->c1, sizeof j->c1, "%s", j->path);
        char what[SERVE_NAME_LEN + 32];
        snprintf(what, sizeof what, WHAT, j->name);
        return check_c1(j, what, err);
    }
    json_error_t je;
    json_t *o = json_load_file(j->path, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        return gm_err_set(err, GM_EFORMAT, WHAT ": not JSON: line %d column %d: %s", j->name, je.line, je.column,
                          je.text);
    int rc;
    if (!json_is_object(o))
        rc = gm_err_set(err, GM_EFORMAT, WHAT ": not a JSON object", j->name);
    else if (json_object_get(o, "c1") || json_object_get(o, "circuit") || json_object_get(o, "zkey") ||
             json_object_get(o, "wtns"))
        rc = small_job(j, o, s, err);
    else {
        /* A small C1 (the lotus-bench wrapper, say): the C1 parser names
         * what is wrong with it. */
        snprintf(j->c1, sizeof j->c1, "%s", j->path);
        char what[SERVE_NAME_LEN + 32];
        snprintf(what, sizeof what, WHAT, j->name);
        rc = check_c1(j, what, err);
    }
    json_decref(o);
    return rc;
}

void sv_job_peek(long long *priority, double *deadline, const char *path)
{
    *priority = 0;
    *deadline = 0;
    struct stat st;
    if (stat(path, &st) != 0 || (uint64_t)st.st_size > SMALL_JOB_MAX)
        return;
    json_error_t je;
    json_t *o = json_load_file(path, 0, &je);
    json_t *p = json_object_get(o, "priority"), *d = json_object_get(o, "deadline");
    if (json_is_integer(p))
        *priority = json_integer_value(p);
    if (json_is_number(d) && json_number_value(d) > 0)
        *deadline = json_number_value(d);
    json_decref(o);
}
