/* cli/cmd_campaign_run.c — `[mpirun -np N] grothmpi campaign run CAMPAIGN`,
 * and its alias `grothmpi prove CAMPAIGN`: every unit of a campaign proved
 * (or checked) on every rank of the MPI job by mpi_campaign_run, with rank
 * 0's progress lines, its cluster report (or the check summary) and one
 * error line; SIGTERM and SIGINT stop the campaign cleanly (exit 75).
 *
 * The lines printed begin with the name the campaign was run under
 * ("campaign run" or "prove"), so that the alias prints what it always
 * printed. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "jobs/jobs.h"
#include "mpi/mpi.h"

/* The exit status of an interrupted campaign (EX_TEMPFAIL of sysexits.h):
 * "stopped on request; rerun the same command to resume". */
#define CAMPAIGN_EXIT_INTERRUPTED 75

static void usage(FILE *f)
{
    fprintf(f,
            "usage: [mpirun -np N] grothmpi campaign run CAMPAIGN [--mem-budget SIZE] [--threads N]\n"
            "                                            [--check-params]\n"
            "       [mpirun -np N] grothmpi prove CAMPAIGN [options]   (an alias: the same run)\n\n"
            "Proves every unit of a campaign (docs/campaign.md) on every rank of the MPI job,\n"
            "resumes from the output directory's journal, and prints the cluster report (also in\n"
            "OUTPUT/report.json and report.csv); a campaign whose \"mode\" is \"check\" checks every\n"
            "unit's witness instead. With the campaign's \"split\": R, groups of R ranks prove each\n"
            "unit together (docs/split.md). The alias takes the campaign as its first argument\n"
            "or as --campaign FILE.\n"
            "  --campaign FILE      the campaign file, as an option\n"
            "  --mem-budget SIZE    per rank, e.g. 4GiB (default: the campaign's, else half\n"
            "                       the node's RAM over its ranks)\n"
            "  --threads N          worker threads per rank (default: the campaign's resources)\n"
            "  --check-params       hash the parameter file and check every point and shape\n"
            "                       index even where the cache's stamps say they are unchanged\n"
            "SIGTERM or SIGINT stops a campaign cleanly: no new units, the ones in flight are\n"
            "written and journaled, exit status 75 (rerun to resume); a second signal aborts.\n"
            "Exit status: 0 done, 1 failed, 2 usage (also \"backend\": \"cuda\" without a device),\n"
            "75 interrupted.\n");
}

/* The stop request of SIGTERM / SIGINT (Slurm preemption, Ctrl-C): the signal
 * number, read by the campaign's comm thread (mpi_opts_t.interrupt). A signal
 * handler can only reach a global; this is the one, and only the handler
 * writes it. */
static volatile sig_atomic_t stop_signal;

/* First signal: record it (nothing else is async-signal-safe to do here).
 * Second one: the default action at once (the journal and the proof files
 * are consistent at every instant; leftover temporaries are removed by the
 * next run). */
static void on_stop_signal(int sig)
{
    if (stop_signal) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        raise(sig);
        return;
    }
    stop_signal = sig;
}

const volatile sig_atomic_t *cli_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    return &stop_signal;
}

/* arg: the command's name, the prefix of every line. */
static void progress(void *arg, const mpi_progress_t *p)
{
    const char *cmd = arg;
    if (p->note) {
        printf("%s: %s\n", cmd, p->note);
    } else {
        char eta[32] = "-";
        if (p->eta_s >= 0)
            snprintf(eta, sizeof eta, "%.0f s", p->eta_s);
        printf("%s: %zu/%zu units done (%zu resumed, %zu proved), %d rank%s, %.1f s, %.0f proofs/h, ETA %s\n",
               cmd, p->done, p->total, p->resumed, p->proved, p->ranks, p->ranks == 1 ? "" : "s", p->elapsed_s,
               p->per_hour, eta);
    }
    fflush(stdout);
}

/* Rank 0's summary of a finished run (a check's or a proving campaign's) and
 * its error line. */
static void print_result(const char *cmd, int rc, const mpi_result_t *res, const err_t *err)
{
    if (res->check_text) {
        printf("\n%s", res->check_text);
        if (res->report_json[0])
            printf("\ncheck: %s\n", res->report_json);
        if (!rc)
            printf("%s: check done: %zu units, every constraint of each satisfied\n", cmd, res->total);
    } else {
        if (res->report) {
            printf("\n");
            mpi_report_print_text(res->report, stdout);
            if (res->report_json[0])
                printf("\nreport: %s, %s\n", res->report_json, res->report_csv);
        }
        if (!rc)
            printf("%s: campaign done: %zu units, %zu proved in this run, %zu resumed, every proof verified\n", cmd,
                   res->total, res->proved, res->resumed);
    }
    if (rc)
        fprintf(stderr, "grothmpi: %s: %s\n", cmd, err->msg);
}

int cli_campaign_run(int argc, char **argv, const char *cmd)
{
    static const struct option opts[] = {{"campaign", required_argument, 0, 'C'},
                                         {"mem-budget", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 't'},
                                         {"check-params", no_argument, 0, 'K'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *file = NULL;
    mpi_opts_t mo;
    memset(&mo, 0, sizeof mo);
    err_t err;
    gm_err_clear(&err);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'C': file = optarg; break;
        case 'm':
            if (jobs_size_parse(&mo.mem_budget, optarg, "--mem-budget", &err) || mo.mem_budget < (1u << 20)) {
                fprintf(stderr, "grothmpi: %s: %s\n", cmd, err.code ? err.msg : "--mem-budget: below 1 MiB");
                return 2;
            }
            break;
        case 't': mo.threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'K': mo.check_params = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!file && optind == argc - 1)
        file = argv[optind++];
    if (!file || optind != argc) {
        fprintf(stderr, "grothmpi: %s: one campaign file, please (grothmpi campaign run CAMPAIGN)\n", cmd);
        return 2;
    }
    mpi_result_t res;
    mo.interrupt = cli_stop_signals();
    int rc = mpi_campaign_run(file, &mo, progress, (void *)cmd, &res, &err);
    bool checked = res.check_text != NULL;
    if (res.rank == 0)
        print_result(cmd, rc, &res, &err);
    free(res.check_text);
    mpi_report_free(res.report);
    /* The failure is rank 0's to report: it prints after MPI_Finalize, and
     * mpirun kills the job as soon as any rank exits non-zero, so the other
     * ranks exit 0 and leave the job's status to rank 0. */
    if (res.rank != 0 || rc == 0)
        return 0;
    if (checked) /* a check that did not finish failed: nothing to resume */
        return 1;
    if (rc == GM_ECANCELED)
        return CAMPAIGN_EXIT_INTERRUPTED;
    /* "backend": "cuda" on a rank without a usable device is a usage error,
     * as --backend cuda is. */
    return rc == GM_ENODEV ? 2 : 1;
}
