/* cli/cmd_campaign.c — `grothmpi campaign`: running a campaign, and tools
 * around campaign files that need no MPI.
 *
 *   run    proves (or checks) the campaign on every rank of the MPI job
 *          (cmd_campaign_run.c; `grothmpi prove CAMPAIGN` is its alias).
 *   info   the campaign's facts, one "key: value" line each, or one value
 *          (--key); slurm/grothmpi.sbatch asks it for the output directory.
 *   split  a large campaign as N task campaigns for a Slurm job array
 *          (docs/slurm.md; jobs/split.c writes them and their manifest).
 *   status per-task progress of a split (or one campaign): finished units
 *          counted from each journal by mpi/'s journal reader.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "cli/cli.h"
#include "jobs/jobs.h"
#include "mpi/mpi.h"

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

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
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
            if (parse_count(&ntasks, optarg, 1, JOBS_SPLIT_MAX_TASKS)) {
                fprintf(stderr, "grothmpi: campaign split: --tasks: '%s' is not in 1..%d\n", optarg,
                        JOBS_SPLIT_MAX_TASKS);
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
    err_t err;
    gm_err_clear(&err);
    jobs_campaign_t c;
    if (jobs_campaign_load(&c, path, JOBS_PARSE_DEFAULT, &err)) {
        fprintf(stderr, "grothmpi: campaign split: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    if (jobs_split_plan(&ntasks, &c, ntasks, per, &err))
        rc = 2;
    else if (jobs_split_write(&c, path, dir, ntasks, force ? JOBS_SPLIT_FORCE : 0, &err))
        rc = 1;
    if (rc) {
        fprintf(stderr, "grothmpi: campaign split: %s\n", err.msg);
    } else {
        printf("%s: %zu sectors x %u partitions = %zu units in %u tasks of %zu..%zu sectors\n", path, c.nsectors,
               c.partitions, jobs_unit_count(&c), ntasks, c.nsectors / ntasks, (c.nsectors + ntasks - 1) / ntasks);
        printf("wrote %s/task-0000.json .. task-%04u.json and %s (outputs: %s/task-NNNN)\n", dir, ntasks - 1,
               JOBS_SPLIT_MANIFEST, c.output);
        printf("submit: sbatch --array=0-%u slurm/grothmpi.sbatch %s\n", ntasks - 1, dir);
    }
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
        jobs_split_task_t *t;
        size_t n;
        err_t err;
        if (jobs_split_tasks_read(&t, &n, p, &err)) {
            fprintf(stderr, "grothmpi: campaign status: %s\n", err.msg);
            return 1;
        }
        printf("%-16s %8s %8s  %s\n", "task", "done", "units", "output");
        for (size_t i = 0; i < n; i++) {
            long units = (long)t[i].units;
            long d = t[i].output[0] ? journal_done(t[i].output) : -1;
            if (d == -2) {
                gm_free(t);
                return 1;
            }
            printf("%-16s %8ld %8ld  %s%s\n", t[i].file, d < 0 ? 0 : d, units, t[i].output[0] ? t[i].output : "?",
                   d < 0 ? " (not started)" : d >= units ? " (complete)" : "");
            total += units;
            done += d < 0 ? 0 : d;
        }
        gm_free(t);
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
