/* cli/cmd_campaign.c — `grothmpi campaign`: running a campaign, and tools
 * around campaign files that need no MPI.
 *
 *   run    proves (or checks) the campaign on every rank of the MPI job
 *          (cmd_campaign_run.c; `grothmpi prove CAMPAIGN` is its alias).
 *   info   the campaign's facts, one "key: value" line each, or one value
 *          (--key); slurm/grothmpi.sbatch asks it for the output directory.
 *   split  a large campaign as N task campaigns for a Slurm job array
 *          (docs/slurm.md): task i proves a contiguous share of the sectors,
 *          with every other key unchanged, into OUTPUT/task-NNNN, which holds
 *          its own journal; so a preempted or requeued task resumes from its
 *          own journal and never races another task's. The split is
 *          deterministic: splitting again with the same campaign and count
 *          writes the same files, and a different split of a campaign whose
 *          tasks have started is refused (it would reassign sectors between
 *          journals) unless --force.
 *   status per-task progress of a split (or one campaign): finished units
 *          counted from each journal by mpi/'s journal reader.
 *
 * "setup": "auto" without a "setup_seed": every array task might generate the
 * parameters at the same time, each from its own random seed, and one task's
 * proofs would not verify against the parameters another task left in the
 * cache. split therefore draws one seed and writes it into every task, so
 * that concurrent set-ups write identical files (each atomically).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "jobs/jobs.h"
#include "mpi/mpi.h"

#define SPLIT_MAX_TASKS 10000 /* task-NNNN.json; Slurm's MaxArraySize is 1001 by default */
#define SPLIT_MANIFEST "split.json"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi campaign <run|info|split|status> ...\n\n"
            "  [mpirun -np N] grothmpi campaign run CAMPAIGN [--mem-budget SIZE] [--threads N] [--check-params]\n"
            "      proves every unit of the campaign on every rank, resuming from its journal, and\n"
            "      prints the cluster report (grothmpi campaign run --help; alias: grothmpi prove CAMPAIGN)\n"
            "  grothmpi campaign info CAMPAIGN [--key KEY]\n"
            "      the campaign's facts (name, circuit, sectors, partitions, units, batch_size,\n"
            "      output, params, setup); --key prints one value alone\n"
            "  grothmpi campaign split CAMPAIGN (--tasks N | --sectors-per-task K) --out DIR [--force]\n"
            "      writes DIR/task-0000.json .. task-<N-1>.json and DIR/split.json: task i\n"
            "      proves a contiguous share of the sectors into OUTPUT/task-<i>, with its own\n"
            "      journal; submit with  sbatch --array=0-<N-1> slurm/grothmpi.sbatch DIR\n"
            "      --force   overwrite a different split of the same directory\n"
            "  grothmpi campaign status DIR|CAMPAIGN\n"
            "      finished units per task (from the journals); exit 0 when all are done\n");
}

/* ---- small helpers ------------------------------------------------------------ */

static int write_text(const char *path, const char *text, err_t *err)
{
    return gm_file_write(path, text, strlen(text), err);
}

/* Pretty JSON (2-space indent, key order kept) of compact JSON text, with a
 * newline; malloc'd, NULL when out of memory. */
static char *pretty(const char *compact)
{
    json_t *o = json_loads(compact, 0, NULL);
    if (!o)
        return NULL;
    char *t = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
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

static int parse_count(unsigned *out, const char *s, unsigned lo, unsigned hi)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* ---- info -------------------------------------------------------------------- */

static const char *setup_name(const jobs_campaign_t *c) { return c->setup_auto ? "auto" : "never"; }

static int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"key", required_argument, 0, 'k'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *key = NULL;
    int o;
    optind = 1;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'k': key = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "grothmpi: campaign info: one campaign file expected (grothmpi campaign --help)\n");
        return 2;
    }
    jobs_campaign_t c;
    err_t err;
    gm_err_clear(&err);
    if (jobs_campaign_load(&c, argv[optind], JOBS_PARSE_NO_FILES, &err)) {
        fprintf(stderr, "grothmpi: campaign info: %s\n", err.msg);
        return 1;
    }
    char units[32], sectors[32], parts[32], batch[32];
    snprintf(units, sizeof units, "%zu", jobs_unit_count(&c));
    snprintf(sectors, sizeof sectors, "%zu", c.nsectors);
    snprintf(parts, sizeof parts, "%u", c.partitions);
    snprintf(batch, sizeof batch, "%u", c.batch_size);
    const struct {
        const char *k, *v;
    } kv[] = {{"name", c.name},       {"circuit", c.circuit.id}, {"sectors", sectors},
              {"partitions", parts},  {"units", units},          {"batch_size", batch},
              {"output", c.output},   {"params", c.params_dir},  {"setup", setup_name(&c)}};
    int rc = 0;
    if (key) {
        rc = 2;
        for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
            if (!strcmp(key, kv[i].k)) {
                printf("%s\n", kv[i].v);
                rc = 0;
            }
        if (rc)
            fprintf(stderr, "grothmpi: campaign info: --key: '%s' is not one of name, circuit, sectors, partitions, "
                            "units, batch_size, output, params, setup\n", key);
    } else {
        for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
            printf("%-11s %s\n", kv[i].k, kv[i].v);
    }
    jobs_campaign_free(&c);
    return rc;
}

/* ---- split ------------------------------------------------------------------- */

/* The manifest of a split: what status and a later split read back. */
static char *manifest_text(const jobs_campaign_t *c, const char *campaign_abs, unsigned ntasks)
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
        size_t lo = (size_t)i * c->nsectors / ntasks, hi = (size_t)(i + 1) * c->nsectors / ntasks;
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
    char *text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(m);
    return text;
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

static int cmd_split(int argc, char **argv)
{
    static const struct option opts[] = {{"tasks", required_argument, 0, 'n'},
                                         {"sectors-per-task", required_argument, 0, 'k'},
                                         {"out", required_argument, 0, 'o'},
                                         {"force", no_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    unsigned ntasks = 0, per = 0;
    const char *dir = NULL;
    bool force = false;
    int o;
    optind = 1;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'n':
            if (parse_count(&ntasks, optarg, 1, SPLIT_MAX_TASKS)) {
                fprintf(stderr, "grothmpi: campaign split: --tasks: '%s' is not in 1..%d\n", optarg, SPLIT_MAX_TASKS);
                return 2;
            }
            break;
        case 'k':
            if (parse_count(&per, optarg, 1, JOBS_MAX_SECTORS)) {
                fprintf(stderr, "grothmpi: campaign split: --sectors-per-task: '%s' is not in 1..%d\n", optarg,
                        JOBS_MAX_SECTORS);
                return 2;
            }
            break;
        case 'o': dir = optarg; break;
        case 'f': force = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1 || !dir || (ntasks == 0) == (per == 0)) {
        fprintf(stderr, "grothmpi: campaign split: needs CAMPAIGN, --out DIR and one of --tasks N, "
                        "--sectors-per-task K (grothmpi campaign --help)\n");
        return 2;
    }
    const char *path = argv[optind];
    int rc = 1;
    err_t err;
    gm_err_clear(&err);
    jobs_campaign_t c, part;
    char *man = NULL;
    if (jobs_campaign_load(&c, path, JOBS_PARSE_DEFAULT, &err)) {
        fprintf(stderr, "grothmpi: campaign split: %s\n", err.msg);
        return 1;
    }
    if (per)
        ntasks = (unsigned)((c.nsectors + per - 1) / per);
    if (ntasks > c.nsectors) {
        fprintf(stderr, "grothmpi: campaign split: --tasks: %u tasks for %zu sectors (a task proves whole sectors)\n",
                ntasks, c.nsectors);
        rc = 2;
        goto done;
    }
    if (ntasks > SPLIT_MAX_TASKS) {
        fprintf(stderr, "grothmpi: campaign split: %u tasks, at most %d\n", ntasks, SPLIT_MAX_TASKS);
        rc = 2;
        goto done;
    }
    size_t name_len = strlen(c.name);
    if (name_len > JOBS_ID_LEN - 1 - 10)
        name_len = JOBS_ID_LEN - 1 - 10;
    if (strlen(c.output) + 16 >= JOBS_PATH_LEN) {
        fprintf(stderr, "grothmpi: campaign split: %s: output: '%s' leaves no room for /task-NNNN\n", path, c.output);
        goto done;
    }
    if (c.setup_auto && !c.has_setup_seed) {
        if (groth16_seed_random(c.setup_seed, &err)) {
            fprintf(stderr, "grothmpi: campaign split: %s\n", err.msg);
            goto done;
        }
        c.has_setup_seed = true;
    }

    char campaign_abs[PATH_MAX];
    if (!realpath(path, campaign_abs))
        snprintf(campaign_abs, sizeof campaign_abs, "%s", path);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "grothmpi: campaign split: %s: cannot create: %s\n", dir, strerror(errno));
        goto done;
    }
    if (!is_dir(dir)) {
        fprintf(stderr, "grothmpi: campaign split: %s: not a directory\n", dir);
        goto done;
    }
    man = manifest_text(&c, campaign_abs, ntasks);
    if (!man) {
        fprintf(stderr, "grothmpi: campaign split: out of memory\n");
        goto done;
    }

    /* An earlier split of this directory. The same split is rewritten as it
     * is, except the setup seed: keep the seed its tasks already carry. */
    char mpath[PATH_MAX];
    snprintf(mpath, sizeof mpath, "%s/%s", dir, SPLIT_MANIFEST);
    if (is_file(mpath)) {
        json_error_t je;
        json_t *om = json_load_file(mpath, 0, &je), *nm = json_loads(man, 0, NULL);
        bool same = om && nm && json_equal(om, nm);
        bool started = om && split_started(om);
        json_decref(nm);
        if (!same && !force) {
            if (!om)
                fprintf(stderr, "grothmpi: campaign split: %s: not a split manifest (%s); --force replaces it\n",
                        mpath, je.text);
            else
                fprintf(stderr,
                        "grothmpi: campaign split: %s holds a different split (of %s, %lld tasks)%s; --force "
                        "replaces it\n",
                        dir, json_string_value(json_object_get(om, "campaign")),
                        (long long)json_integer_value(json_object_get(om, "tasks")),
                        started ? ", and its tasks have started: a new split reassigns sectors between task "
                                  "journals, so finished proofs would be made again"
                                : "");
            json_decref(om);
            goto done;
        }
        json_decref(om);
        if (same && c.setup_auto) {
            /* Keep task 0's seed so a re-split does not change the parameters. */
            char t0[PATH_MAX];
            snprintf(t0, sizeof t0, "%s/task-0000.json", dir);
            json_t *t = json_load_file(t0, 0, NULL);
            const char *s = json_string_value(json_object_get(t, "setup_seed"));
            if (s && strlen(s) == 2 * GROTH16_SEED_BYTES)
                for (int i = 0; i < GROTH16_SEED_BYTES; i++) {
                    unsigned v;
                    if (sscanf(s + 2 * i, "%2x", &v) == 1)
                        c.setup_seed[i] = (uint8_t)v;
                }
            json_decref(t);
        }
    }

    for (unsigned i = 0; i < ntasks; i++) {
        size_t lo = (size_t)i * c.nsectors / ntasks, hi = (size_t)(i + 1) * c.nsectors / ntasks;
        part = c;
        part.sectors = c.sectors + lo;
        part.nsectors = hi - lo;
        snprintf(part.name, sizeof part.name, "%.*s-t%04u", (int)name_len, c.name, i);
        /* Fits: the output's length was checked against JOBS_PATH_LEN - 16 above. */
        int on = snprintf(part.output, sizeof part.output, "%.*s/task-%04u", JOBS_PATH_LEN - 16, c.output, i);
        GM_ASSERT(on > 0 && on < (int)sizeof part.output);
        char *compact = jobs_campaign_to_text(&part);
        char *text = compact ? pretty(compact) : NULL;
        free(compact);
        if (!text) {
            fprintf(stderr, "grothmpi: campaign split: out of memory\n");
            goto done;
        }
        /* What a task reads back must be a valid campaign equal to the part. */
        jobs_campaign_t back;
        char what[64];
        snprintf(what, sizeof what, "task-%04u.json", i);
        if (jobs_campaign_parse(&back, text, what, dir, JOBS_PARSE_NO_FILES, &err)) {
            fprintf(stderr, "grothmpi: campaign split: %s (bug: the split does not read back)\n", err.msg);
            free(text);
            goto done;
        }
        jobs_campaign_free(&back);
        char tpath[PATH_MAX];
        snprintf(tpath, sizeof tpath, "%s/task-%04u.json", dir, i);
        int w = write_text(tpath, text, &err);
        free(text);
        if (w) {
            fprintf(stderr, "grothmpi: campaign split: %s\n", err.msg);
            goto done;
        }
    }
    /* Task files of an earlier, larger split would be picked by a stray array index. */
    for (unsigned i = ntasks; i < SPLIT_MAX_TASKS; i++) {
        char tpath[PATH_MAX];
        snprintf(tpath, sizeof tpath, "%s/task-%04u.json", dir, i);
        if (unlink(tpath) != 0)
            break;
    }
    size_t mlen = strlen(man);
    char *m2 = realloc(man, mlen + 2);
    if (!m2) {
        fprintf(stderr, "grothmpi: campaign split: out of memory\n");
        goto done;
    }
    man = m2;
    man[mlen] = '\n';
    man[mlen + 1] = 0;
    if (write_text(mpath, man, &err)) {
        fprintf(stderr, "grothmpi: campaign split: %s\n", err.msg);
        goto done;
    }
    printf("%s: %zu sectors x %u partitions = %zu units in %u tasks of %zu..%zu sectors\n", path, c.nsectors,
           c.partitions, jobs_unit_count(&c), ntasks, c.nsectors / ntasks, (c.nsectors + ntasks - 1) / ntasks);
    printf("wrote %s/task-0000.json .. task-%04u.json and %s (outputs: %s/task-NNNN)\n", dir, ntasks - 1,
           SPLIT_MANIFEST, c.output);
    printf("submit: sbatch --array=0-%u slurm/grothmpi.sbatch %s\n", ntasks - 1, dir);
    rc = 0;
done:
    free(man);
    jobs_campaign_free(&c);
    return rc;
}

/* ---- status ------------------------------------------------------------------- */

/* Distinct finished units of OUT/journal (mpi/'s reader), -1 when there is
 * no journal, -2 after printing why it cannot be read. */
static long journal_done(const char *out)
{
    mpi_journal_status_t js;
    err_t err;
    gm_err_clear(&err);
    if (mpi_journal_status(&js, out, &err)) {
        fprintf(stderr, "grothmpi: campaign status: %s\n", err.msg);
        return -2;
    }
    return js.exists ? (long)js.done : -1;
}

static int cmd_status(int argc, char **argv)
{
    if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc == 2 ? stdout : stderr);
        return argc == 2 ? 0 : 2;
    }
    const char *p = argv[1];
    long total = 0, done = 0;
    if (is_dir(p)) {
        char mpath[PATH_MAX];
        snprintf(mpath, sizeof mpath, "%s/%s", p, SPLIT_MANIFEST);
        json_error_t je;
        json_t *m = json_load_file(mpath, 0, &je);
        if (!m || !json_is_array(json_object_get(m, "task_list"))) {
            fprintf(stderr, "grothmpi: campaign status: %s: not a split manifest (%s)\n", mpath,
                    m ? "no task_list" : je.text);
            json_decref(m);
            return 1;
        }
        json_t *e;
        size_t i;
        printf("%-16s %8s %8s  %s\n", "task", "done", "units", "output");
        json_array_foreach(json_object_get(m, "task_list"), i, e)
        {
            const char *out = json_string_value(json_object_get(e, "output"));
            long units = (long)json_integer_value(json_object_get(e, "units"));
            long d = out ? journal_done(out) : -1;
            if (d == -2) {
                json_decref(m);
                return 1;
            }
            printf("%-16s %8ld %8ld  %s%s\n", json_string_value(json_object_get(e, "file")), d < 0 ? 0 : d, units,
                   out ? out : "?", d < 0 ? " (not started)" : d >= units ? " (complete)" : "");
            total += units;
            done += d < 0 ? 0 : d;
        }
        json_decref(m);
    } else {
        jobs_campaign_t c;
        err_t err;
        gm_err_clear(&err);
        if (jobs_campaign_load(&c, p, JOBS_PARSE_NO_FILES, &err)) {
            fprintf(stderr, "grothmpi: campaign status: %s\n", err.msg);
            return 1;
        }
        long d = journal_done(c.output);
        total = (long)jobs_unit_count(&c);
        if (d == -2) {
            jobs_campaign_free(&c);
            return 1;
        }
        done = d < 0 ? 0 : d;
        jobs_campaign_free(&c);
    }
    printf("%ld of %ld units done\n", done, total);
    return done >= total ? 0 : 1;
}

int cmd_campaign(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "run"))
        return cli_campaign_run(argc - 1, argv + 1, "campaign run");
    if (!strcmp(argv[1], "info"))
        return cmd_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "split"))
        return cmd_split(argc - 1, argv + 1);
    if (!strcmp(argv[1], "status"))
        return cmd_status(argc - 1, argv + 1);
    fprintf(stderr, "grothmpi: campaign: unknown subcommand '%s' (run, info, split, status)\n", argv[1]);
    return 2;
}
