/*
 * jobs/split.c — a large campaign as N task campaigns for a Slurm job array
 * (docs/slurm.md), and the split's manifest (split.json), this format's one
 * reader and writer.
 *
 * Task i proves a contiguous share of the sectors, with every other key
 * unchanged, into OUTPUT/task-NNNN, which holds its own journal; so a
 * preempted or requeued task resumes from its own journal and never races
 * another task's. The split is deterministic: splitting again with the same
 * campaign and count writes the same files, and a different split of a
 * directory whose tasks have started is refused (it would reassign sectors
 * between journals) unless JOBS_SPLIT_FORCE.
 *
 * "setup": "auto" without a "setup_seed": every array task might generate the
 * parameters at the same time, each from its own random seed, and one task's
 * proofs would not verify against the parameters another task left in the
 * cache. The split therefore draws one seed and writes it into every task,
 * so that concurrent set-ups write identical files (each atomically).
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

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Sectors lo .. hi - 1 are task i's of n. */
static void task_range(size_t *lo, size_t *hi, const jobs_campaign_t *c, unsigned i, unsigned n)
{
    *lo = (size_t)i * c->nsectors / n;
    *hi = (size_t)(i + 1) * c->nsectors / n;
}

/* Pretty JSON text (2-space indent, key order kept) of o with a newline;
 * malloc'd, NULL when out of memory. */
static char *pretty(const json_t *o)
{
    char *t = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!t)
        return NULL;
    size_t n = strlen(t);
    char *r = realloc(t, n + 2);
    if (!r) {
        free(t);
        return NULL;
    }
    r[n] = '\n';
    r[n + 1] = 0;
    return r;
}

/* The manifest of a split: what status and a later split read back (a new
 * reference; NULL when out of memory). */
static json_t *manifest_json(const jobs_campaign_t *c, const char *campaign_abs, unsigned ntasks)
{
    json_t *m = json_object();
    json_object_set_new(m, "grothmpi_split", json_integer(1));
    json_object_set_new(m, "campaign", json_string(campaign_abs));
    json_object_set_new(m, "name", json_string(c->name));
    json_object_set_new(m, "tasks", json_integer(ntasks));
    json_object_set_new(m, "sectors", json_integer((json_int_t)c->nsectors));
    json_object_set_new(m, "partitions", json_integer(c->partitions));
    json_object_set_new(m, "units", json_integer((json_int_t)jobs_unit_count(c)));
    json_object_set_new(m, "output", json_string(c->output));
    char arr[32];
    snprintf(arr, sizeof arr, "0-%u", ntasks - 1);
    json_object_set_new(m, "array", json_string(arr));
    json_t *t = json_array();
    for (unsigned i = 0; i < ntasks; i++) {
        size_t lo, hi;
        task_range(&lo, &hi, c, i, ntasks);
        json_t *e = json_object();
        char f[32];
        snprintf(f, sizeof f, "task-%04u.json", i);
        json_object_set_new(e, "file", json_string(f));
        json_object_set_new(e, "first_sector", json_string(c->sectors[lo].id));
        json_object_set_new(e, "sectors", json_integer((json_int_t)(hi - lo)));
        json_object_set_new(e, "units", json_integer((json_int_t)((hi - lo) * c->partitions)));
        char out[JOBS_PATH_LEN + 16];
        snprintf(out, sizeof out, "%s/task-%04u", c->output, i);
        json_object_set_new(e, "output", json_string(out));
        json_array_append_new(t, e);
    }
    json_object_set_new(m, "task_list", t);
    return m;
}

/* Has any task of the split in manifest m started (a journal in its output)? */
static bool split_started(json_t *m)
{
    json_t *tl = json_object_get(m, "task_list"), *e;
    size_t i;
    json_array_foreach(tl, i, e)
    {
        const char *out = json_string_value(json_object_get(e, "output"));
        char j[JOBS_PATH_LEN + 32];
        if (out && snprintf(j, sizeof j, "%s/journal", out) < (int)sizeof j && is_file(j))
            return true;
    }
    return false;
}

int jobs_split_plan(unsigned *ntasks, const jobs_campaign_t *c, unsigned tasks, unsigned per, err_t *err)
{
    GM_ASSERT((tasks == 0) != (per == 0));
    if (c->units)
        return gm_err_set(err, GM_EINVAL, "units: %llu: a trial of the first units is not split into tasks (a task "
                          "proves whole sectors); remove the key", (unsigned long long)c->units);
    size_t n = tasks ? tasks : (c->nsectors + per - 1) / per;
    if (n > c->nsectors)
        return gm_err_set(err, GM_EINVAL, "--tasks: %zu tasks for %zu sectors (a task proves whole sectors)", n,
                          c->nsectors);
    if (n > JOBS_SPLIT_MAX_TASKS)
        return gm_err_set(err, GM_EINVAL, "%zu tasks, at most %d", n, JOBS_SPLIT_MAX_TASKS);
    *ntasks = (unsigned)n;
    return 0;
}

/* An earlier split in mpath: 0 when there is none or it is this very split
 * (then, with "setup": "auto", c takes the seed its task 0 carries, so a
 * re-split does not change the parameters), else the refusal. */
static int earlier_split(jobs_campaign_t *c, const char *dir, const char *mpath, const json_t *nm, bool force,
                         err_t *err)
{
    if (!is_file(mpath))
        return 0;
    json_error_t je;
    json_t *om = json_load_file(mpath, 0, &je);
    bool same = om && json_equal(om, nm);
    if (!same && !force) {
        int rc;
        if (!om)
            rc = gm_err_set(err, GM_ESTATE, "%s: not a split manifest (%s); --force replaces it", mpath, je.text);
        else
            rc = gm_err_set(err, GM_ESTATE, "%s holds a different split (of %s, %lld tasks)%s; --force replaces it",
                            dir, json_string_value(json_object_get(om, "campaign")),
                            (long long)json_integer_value(json_object_get(om, "tasks")),
                            split_started(om) ? ", and its tasks have started: a new split reassigns sectors "
                                                "between task journals, so finished proofs would be made again"
                                              : "");
        json_decref(om);
        return rc;
    }
    json_decref(om);
    if (same && c->setup_auto) {
        char t0[PATH_MAX];
        snprintf(t0, sizeof t0, "%s/task-0000.json", dir);
        json_t *t = json_load_file(t0, 0, NULL);
        const char *s = json_string_value(json_object_get(t, "setup_seed"));
        uint8_t seed[GROTH16_SEED_BYTES];
        if (s && gm_hex_decode_exact(seed, sizeof seed, s, 0, NULL) == 0)
            memcpy(c->setup_seed, seed, sizeof seed);
        json_decref(t);
    }
    return 0;
}

/* Writes task i's campaign file, after checking that it reads back. */
static int write_task(const jobs_campaign_t *c, const char *dir, unsigned i, unsigned ntasks, err_t *err)
{
    size_t name_len = strlen(c->name), lo, hi;
    if (name_len > JOBS_ID_LEN - 1 - 10)
        name_len = JOBS_ID_LEN - 1 - 10;
    task_range(&lo, &hi, c, i, ntasks);
    jobs_campaign_t part = *c;
    part.sectors = c->sectors + lo;
    part.nsectors = hi - lo;
    snprintf(part.name, sizeof part.name, "%.*s-t%04u", (int)name_len, c->name, i);
    /* Fits: jobs_split_write checked the output's length against JOBS_PATH_LEN - 16. */
    int on = snprintf(part.output, sizeof part.output, "%.*s/task-%04u", JOBS_PATH_LEN - 16, c->output, i);
    GM_ASSERT(on > 0 && on < (int)sizeof part.output);
    char *compact = jobs_campaign_to_text(&part);
    json_t *o = compact ? json_loads(compact, 0, NULL) : NULL;
    char *text = o ? pretty(o) : NULL;
    free(compact);
    json_decref(o);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "task-%04u.json: out of memory", i);
    /* What a task reads back must be a valid campaign equal to the part. */
    jobs_campaign_t back;
    char what[64];
    snprintf(what, sizeof what, "task-%04u.json", i);
    err_t e;
    int rc = jobs_campaign_parse(&back, text, what, dir, JOBS_PARSE_NO_FILES, &e);
    if (rc) {
        free(text);
        return gm_err_set(err, rc, "%s (bug: the split does not read back)", e.msg);
    }
    jobs_campaign_free(&back);
    char tpath[PATH_MAX];
    snprintf(tpath, sizeof tpath, "%s/task-%04u.json", dir, i);
    rc = gm_file_write(tpath, text, strlen(text), err);
    free(text);
    return rc;
}

int jobs_split_write(jobs_campaign_t *c, const char *path, const char *dir, unsigned ntasks, unsigned flags,
                     err_t *err)
{
    GM_ASSERT(ntasks >= 1 && ntasks <= c->nsectors && ntasks <= JOBS_SPLIT_MAX_TASKS);
    int rc;
    if (strlen(c->output) + 16 >= JOBS_PATH_LEN)
        return gm_err_set(err, GM_EINVAL, "%s: output: '%s' leaves no room for /task-NNNN", path, c->output);
    if (c->setup_auto && !c->has_setup_seed) {
        if ((rc = groth16_seed_random(c->setup_seed, err)))
            return rc;
        c->has_setup_seed = true;
    }
    char campaign_abs[PATH_MAX];
    if (!realpath(path, campaign_abs))
        snprintf(campaign_abs, sizeof campaign_abs, "%s", path);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", dir, strerror(errno));
    if (!is_dir(dir))
        return gm_err_set(err, GM_EIO, "%s: not a directory", dir);
    json_t *nm = manifest_json(c, campaign_abs, ntasks);
    char *man = nm ? pretty(nm) : NULL;
    char mpath[PATH_MAX];
    snprintf(mpath, sizeof mpath, "%s/%s", dir, JOBS_SPLIT_MANIFEST);
    if (!man)
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", mpath);
    else
        rc = earlier_split(c, dir, mpath, nm, flags & JOBS_SPLIT_FORCE, err);
    json_decref(nm);
    for (unsigned i = 0; !rc && i < ntasks; i++)
        rc = write_task(c, dir, i, ntasks, err);
    if (!rc) {
        /* Task files of an earlier, larger split would be picked by a stray array index. */
        for (unsigned i = ntasks; i < JOBS_SPLIT_MAX_TASKS; i++) {
            char tpath[PATH_MAX];
            snprintf(tpath, sizeof tpath, "%s/task-%04u.json", dir, i);
            if (unlink(tpath) != 0)
                break;
        }
        rc = gm_file_write(mpath, man, strlen(man), err);
    }
    free(man);
    return rc;
}

int jobs_split_tasks_read(jobs_split_task_t **out, size_t *n, const char *dir, err_t *err)
{
    *out = NULL;
    *n = 0;
    char mpath[PATH_MAX];
    snprintf(mpath, sizeof mpath, "%s/%s", dir, JOBS_SPLIT_MANIFEST);
    json_error_t je;
    json_t *m = json_load_file(mpath, 0, &je);
    json_t *tl = json_object_get(m, "task_list");
    if (!m || !json_is_array(tl)) {
        json_decref(m);
        return gm_err_set(err, GM_EFORMAT, "%s: not a split manifest (%s)", mpath, m ? "no task_list" : je.text);
    }
    size_t cnt = json_array_size(tl);
    jobs_split_task_t *t = gm_calloc(cnt ? cnt : 1, sizeof *t);
    if (!t) {
        json_decref(m);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory for %zu tasks", mpath, cnt);
    }
    json_t *e;
    size_t i;
    json_array_foreach(tl, i, e)
    {
        const char *f = json_string_value(json_object_get(e, "file"));
        const char *o = json_string_value(json_object_get(e, "output"));
        snprintf(t[i].file, sizeof t[i].file, "%s", f ? f : "?");
        snprintf(t[i].output, sizeof t[i].output, "%s", o ? o : "");
        t[i].units = (size_t)json_integer_value(json_object_get(e, "units"));
    }
    json_decref(m);
    *out = t;
    *n = cnt;
    return 0;
}
