/* cli/cmd_study.c — `grothmpi study STUDY.json`: a scaling study (study/,
 * docs/study.md). Runs every point of the study's axes with the campaign
 * runner, in this process (alone or under mpirun) or, for a study with a
 * ranks axis, as one `mpirun -np R grothmpi prove` job per run; prints
 * progress and the table, and names the files. With --plan, or on a
 * synthetic/XML topology, prints each point's thread plan and runs nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "mpi/mpi.h"
#include "study/study.h"

extern char **environ;

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi study [--plan] STUDY.json\n\n"
               "Runs a scaling study: a base campaign and axes to sweep (ranks, domains, threads,\n"
               "pin, batch_size, mem_budget), each point repeated (docs/study.md). Writes\n"
               "OUTPUT/study.json, study.csv, study.txt and plots/*.svg.\n"
               "  --plan   print each point's thread plan on the study's topology; run nothing\n"
               "           (also the default when \"topology\" is synthetic:... or xml:...)\n"
               "Run alone or under mpirun (every rank runs every point). A study with a ranks axis\n"
               "runs alone and starts `$GROTHMPI_MPIRUN -np R grothmpi prove` per run\n"
               "(GROTHMPI_MPIRUN defaults to mpirun; its output goes to OUTPUT/runs/*.log).\n");
}

static void progress(void *arg, size_t point, size_t npoints, unsigned rep, unsigned nreps, bool done, double pph)
{
    (void)arg;
    if (done)
        printf("study: point %zu/%zu repetition %u/%u: %.1f proofs/h\n", point + 1, npoints, rep + 1, nreps, pph);
    fflush(stdout);
}

/* The ranks-axis runner: `mpirun -np R <this binary> prove CAMPAIGN`, its
 * output in CAMPAIGN with .json replaced by .log. */
static int run_mpirun(void *arg, const char *campaign, unsigned ranks, int *rank, char *report, size_t rlen,
                      err_t *err)
{
    (void)arg;
    *rank = 0;
    report[0] = 0;
    char self[4096], np[16], log[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return gm_err_set(err, GM_ESYS, "/proc/self/exe: %s", strerror(errno));
    self[n] = 0;
    snprintf(np, sizeof np, "%u", ranks ? ranks : 1);
    snprintf(log, sizeof log, "%.*s.log", (int)(strlen(campaign) > 5 ? strlen(campaign) - 5 : strlen(campaign)),
             campaign);
    const char *launcher = getenv("GROTHMPI_MPIRUN");
    if (!launcher || !launcher[0])
        launcher = "mpirun";
    char *argv[] = {(char *)launcher, "-np", np, self, "prove", (char *)campaign, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, launcher, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return gm_err_set(err, GM_ESYS, "%s: cannot start: %s", launcher, strerror(rc));
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return gm_err_set(err, GM_ESYS, "waitpid: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return gm_err_set(err, GM_EIO, "%s -np %s grothmpi prove %s failed (status %d; see %s)", launcher, np,
                          campaign, WIFEXITED(st) ? WEXITSTATUS(st) : -1, log);
    (void)rlen;
    return 0;
}

int cmd_study(int argc, char **argv)
{
    static const struct option opts[] = {{"plan", no_argument, 0, 'p'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int plan = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p': plan = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "grothmpi: study: one study file, please\n");
        usage(stderr);
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    study_t *s = NULL;
    if (study_load(&s, argv[optind], &err)) {
        fprintf(stderr, "grothmpi: study: %s\n", err.msg);
        return 1;
    }
    if (plan)
        study_set_plan_only(s);
    if (study_is_plan_only(s)) {
        int rc = study_print_plan(s, stdout, &err);
        study_free(s);
        if (rc) {
            fprintf(stderr, "grothmpi: study: %s\n", err.msg);
            return 1;
        }
        return 0;
    }
    int rank = 0, size = 1, rc;
    bool spawn = study_has_ranks_axis(s);
    if (!spawn && (rc = mpi_study_init(&rank, &size, &err))) {
        fprintf(stderr, "grothmpi: study: %s\n", err.msg);
        study_free(s);
        return 1;
    }
    if (rank == 0)
        printf("study: %zu points, output %s\n", study_point_count(s), study_output_dir(s));
    rc = study_run(s, rank, spawn ? run_mpirun : study_run_inprocess, NULL, rank == 0 ? progress : NULL, NULL, &err);
    if (!spawn)
        mpi_study_finalize();
    if (rc) {
        if (rank == 0)
            fprintf(stderr, "grothmpi: study: %s\n", err.msg);
        study_free(s);
        return rank == 0 ? 1 : 0;
    }
    if (rank == 0) {
        printf("\n");
        study_print_text(s, stdout);
        const char *o = study_output_dir(s);
        printf("\nwrote %s/study.json, %s/study.csv, %s/study.txt, %s/plots/*.svg\n", o, o, o, o);
    }
    study_free(s);
    return 0;
}
