/* cli/cmd_serve.c — `[mpirun -np N] grothmpi serve SPOOL [options]`, `grothmpi
 * serve status SPOOL` and `grothmpi submit SPOOL FILE [--wait]`: parsing and
 * printing around serve/ (docs/serve.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "cli/cli.h"
#include "jobs/jobs.h"
#include "serve/serve.h"

/* As campaigns: EX_TEMPFAIL, "stopped on request; start it again". */
#define SERVE_EXIT_INTERRUPTED 75

static void serve_usage(FILE *f)
{
    fprintf(f,
            "usage: [mpirun -np N] grothmpi serve SPOOL --params DIR [options]\n"
            "       grothmpi serve status SPOOL\n\n"
            "Proves the jobs dropped into SPOOL/incoming/ (a PoRep C1 file, {\"c1\": PATH}, or a test\n"
            "circuit {\"circuit\", \"seed\"}) on every rank of the MPI job, in batches of one shape, each\n"
            "run as a campaign; verified proofs and receipts go to SPOOL/done/, bad jobs to\n"
            "SPOOL/failed/ with a one-line reason (docs/serve.md).\n"
            "  --params DIR          the parameter cache (required)\n"
            "  --setup never|auto    auto: generate missing test parameters (default never)\n"
            "  --trust-params        skip the parameter points' subgroup checks\n"
            "  --batch K             jobs per batch (default 2 x ranks)\n"
            "  --max-wait S          seconds a batch waits for its K-th job (default 1)\n"
            "  --poll S              seconds between listings of incoming/ (default 0.5)\n"
            "  --rank-batch K        units a rank finishes at once (the campaign's batch_size; default 1)\n"
            "  --verify rank|root|both   who checks each proof (default rank)\n"
            "  --backend auto|cpu|cuda|emulate   (default auto)\n"
            "  --mem-budget SIZE     per rank, e.g. 4GiB: the shapes kept resident and the batch in\n"
            "                        flight (default: half the node's RAM over its ranks)\n"
            "  --jobs-csv-max SIZE   rotate SPOOL/servers/ID.jobs.csv to .jobs.csv.1 at this size\n"
            "                        (default 4MiB)\n"
            "  --threads N           worker threads per rank\n"
            "  --report-interval S   seconds between rewrites of SPOOL/servers/ID.json (default 5)\n"
            "  --exit-when-idle S    exit 0 after S seconds with nothing to do\n"
            "SIGTERM or SIGINT: no new jobs, the batch in flight is finished, unproved claims go back\n"
            "to incoming/, exit status 75. Exit status: 0 idle exit, 1 failed, 2 usage, 75 stopped.\n");
}

static void submit_usage(FILE *f)
{
    fprintf(f, "usage: grothmpi submit SPOOL FILE [--wait] [--timeout S] [--name NAME]\n\n"
               "Puts FILE into SPOOL/incoming/ under a new unique name (printed) by an atomic rename.\n"
               "  --wait        poll until the job is done (prints the receipt's path, exit 0) or\n"
               "                failed (prints its reason, exit 1)\n"
               "  --timeout S   with --wait: give up after S seconds (exit 2)\n"
               "  --name NAME   the job's name (1..63 of [A-Za-z0-9._-]; default FILE's stem and a\n"
               "                unique suffix)\n");
}

static void line(void *arg, const char *text)
{
    (void)arg;
    printf("%s\n", text);
    fflush(stdout);
}

/* A positive number of seconds in [lo, hi]; -1 when it is not one. */
static double seconds(const char *s, double lo, double hi)
{
    char *end;
    double v = strtod(s, &end);
    return *s && !*end && v >= lo && v <= hi ? v : -1;
}

static int serve_status(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "grothmpi: serve status: one spool directory, please (grothmpi serve status SPOOL)\n");
        return 2;
    }
    serve_status_t st;
    err_t err;
    if (serve_status_read(&st, argv[1], &err)) {
        fprintf(stderr, "grothmpi: serve status: %s\n", err.msg);
        return 1;
    }
    printf("spool %s: %llu incoming, %llu active, %llu done, %llu failed\n", argv[1],
           (unsigned long long)st.incoming, (unsigned long long)st.active, (unsigned long long)st.done,
           (unsigned long long)st.failed);
    printf("  done: %llu in the last minute, %llu in the last hour\n", (unsigned long long)st.done_last_minute,
           (unsigned long long)st.done_last_hour);
    for (unsigned i = 0; i < st.nservers; i++) {
        const serve_server_status_t *v = &st.servers[i];
        printf("  server %s: %s, %s", v->id, v->alive ? "alive" : "not running", v->state);
        if (v->in_flight)
            printf(" batch %llu (%llu jobs)", (unsigned long long)v->batch, (unsigned long long)v->in_flight);
        printf(", %d rank%s, %llu proved, %llu failed, %.0f proofs/h\n", v->ranks, v->ranks == 1 ? "" : "s",
               (unsigned long long)v->proved, (unsigned long long)v->failed, v->proofs_per_hour);
        for (unsigned k = 0; v->alive && k < v->nranks; k++)
            printf("    rank %d (%s): %llu jobs, backend %s, %llu parameter load%s in %.2f s\n", v->rank[k].rank,
                   v->rank[k].host, (unsigned long long)v->rank[k].jobs, v->rank[k].backend,
                   (unsigned long long)v->rank[k].loads, v->rank[k].loads == 1 ? "" : "s", v->rank[k].load_s);
        for (unsigned k = 0; v->alive && k < v->nshapes; k++)
            printf("    shape %s: %llu batch%s, %llu load%s in %.2f s, %.1f MiB per rank\n", v->shape[k].circuit,
                   (unsigned long long)v->shape[k].batches, v->shape[k].batches == 1 ? "" : "es",
                   (unsigned long long)v->shape[k].loads, v->shape[k].loads == 1 ? "" : "s", v->shape[k].load_s,
                   (double)v->shape[k].bytes / 1048576.0);
    }
    serve_status_free(&st);
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "status"))
        return serve_status(argc - 1, argv + 1);
    static const struct option opts[] = {{"params", required_argument, 0, 'p'},
                                         {"setup", required_argument, 0, 's'},
                                         {"trust-params", no_argument, 0, 'T'},
                                         {"batch", required_argument, 0, 'k'},
                                         {"max-wait", required_argument, 0, 'w'},
                                         {"poll", required_argument, 0, 'P'},
                                         {"rank-batch", required_argument, 0, 'b'},
                                         {"verify", required_argument, 0, 'v'},
                                         {"backend", required_argument, 0, 'B'},
                                         {"mem-budget", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 't'},
                                         {"report-interval", required_argument, 0, 'r'},
                                         {"exit-when-idle", required_argument, 0, 'i'},
                                         {"jobs-csv-max", required_argument, 0, 'J'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    serve_opts_t o;
    memset(&o, 0, sizeof o);
    o.max_wait_s = 1;
    err_t err;
    gm_err_clear(&err);
    int c;
    optind = 1;
    const char *bad = NULL;
    while (!bad && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        double v;
        switch (c) {
        case 'p': o.params = optarg; break;
        case 's':
            if (strcmp(optarg, "never") && strcmp(optarg, "auto"))
                bad = "--setup: never or auto";
            o.setup_auto = !strcmp(optarg, "auto");
            break;
        case 'T': o.trust_params = true; break;
        case 'k':
            o.batch = (unsigned)strtoul(optarg, NULL, 10);
            if (o.batch < 1 || o.batch > JOBS_MAX_SECTORS)
                bad = "--batch: an integer in 1..100000";
            break;
        case 'w':
            if ((v = seconds(optarg, 0, 86400)) < 0)
                bad = "--max-wait: seconds in 0..86400";
            o.max_wait_s = v;
            break;
        case 'P':
            if ((v = seconds(optarg, 0.01, 60)) < 0)
                bad = "--poll: seconds in 0.01..60";
            o.poll_s = v;
            break;
        case 'b':
            o.rank_batch = (unsigned)strtoul(optarg, NULL, 10);
            if (o.rank_batch < 1 || o.rank_batch > JOBS_MAX_BATCH)
                bad = "--rank-batch: an integer in 1..64";
            break;
        case 'v':
            if (strcmp(optarg, "rank") && strcmp(optarg, "root") && strcmp(optarg, "both"))
                bad = "--verify: rank, root or both";
            o.verify = optarg;
            break;
        case 'B':
            if (strcmp(optarg, "auto") && strcmp(optarg, "cpu") && strcmp(optarg, "cuda") && strcmp(optarg, "emulate"))
                bad = "--backend: auto, cpu, cuda or emulate";
            o.backend = optarg;
            break;
        case 'm':
            if (jobs_size_parse(&o.mem_budget, optarg, "--mem-budget", &err) || o.mem_budget < (1u << 20))
                bad = err.code ? err.msg : "--mem-budget: below 1 MiB";
            break;
        case 't': o.threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'J':
            if (jobs_size_parse(&o.jobs_csv_max, optarg, "--jobs-csv-max", &err) || o.jobs_csv_max < 1024)
                bad = err.code ? err.msg : "--jobs-csv-max: below 1 KiB";
            break;
        case 'r':
            if ((v = seconds(optarg, 0.1, 86400)) < 0)
                bad = "--report-interval: seconds in 0.1..86400";
            o.report_interval_s = v;
            break;
        case 'i':
            if ((v = seconds(optarg, 0.01, 1e9)) < 0)
                bad = "--exit-when-idle: positive seconds";
            o.exit_when_idle_s = v;
            break;
        case 'h': serve_usage(stdout); return 0;
        default: serve_usage(stderr); return 2;
        }
    }
    if (bad) {
        fprintf(stderr, "grothmpi: serve: %s\n", bad);
        return 2;
    }
    if (optind != argc - 1 || !o.params) {
        fprintf(stderr, "grothmpi: serve: %s\n",
                optind != argc - 1 ? "one spool directory, please (grothmpi serve SPOOL --params DIR)"
                                   : "--params DIR: the parameter cache, please");
        return 2;
    }
    o.spool = argv[optind];
    o.interrupt = cli_stop_signals();
    o.line = line;
    serve_result_t res;
    int rc = serve_run(&o, &res, &err);
    /* As campaigns: rank 0 reports and decides the exit status (mpirun
     * kills the job as soon as one rank exits non-zero). */
    if (res.rank != 0)
        return 0;
    if (rc == GM_ECANCELED) {
        printf("serve: %s\n", err.msg);
        return SERVE_EXIT_INTERRUPTED;
    }
    if (rc) {
        fprintf(stderr, "grothmpi: serve: %s\n", err.msg);
        return 1;
    }
    printf("serve: idle for %.0f s: exiting (%llu proved, %llu failed in %llu batches)\n", o.exit_when_idle_s,
           (unsigned long long)res.proved, (unsigned long long)res.failed, (unsigned long long)res.batches);
    return 0;
}

int cmd_submit(int argc, char **argv)
{
    static const struct option opts[] = {{"wait", no_argument, 0, 'w'},
                                         {"timeout", required_argument, 0, 't'},
                                         {"name", required_argument, 0, 'n'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    bool wait = false;
    double timeout = 0;
    const char *name = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'w': wait = true; break;
        case 't':
            if ((timeout = seconds(optarg, 0.01, 1e9)) < 0) {
                fprintf(stderr, "grothmpi: submit: --timeout: positive seconds\n");
                return 2;
            }
            break;
        case 'n': name = optarg; break;
        case 'h': submit_usage(stdout); return 0;
        default: submit_usage(stderr); return 2;
        }
    }
    if (optind != argc - 2) {
        fprintf(stderr, "grothmpi: submit: a spool and a job file, please (grothmpi submit SPOOL FILE)\n");
        return 2;
    }
    const char *spool = argv[optind], *file = argv[optind + 1];
    char job[SERVE_NAME_LEN];
    err_t err;
    if (serve_submit(job, spool, file, name, &err)) {
        fprintf(stderr, "grothmpi: submit: %s\n", err.msg);
        return 1;
    }
    printf("%s\n", job);
    fflush(stdout);
    if (!wait)
        return 0;
    uint64_t t0 = gm_now_ns();
    /* The server writes the receipt last; polling is all a shared
     * filesystem offers. */
    const struct timespec nap = {0, 100 * 1000 * 1000};
    unsigned unknown = 0;
    for (;;) {
        char path[GM_PATH_MAX], reason[GM_ERR_MSG_LEN + 2];
        serve_job_state_t s = serve_job_state(spool, job, path, reason, sizeof reason);
        if (s == SERVE_JOB_DONE) {
            printf("%s\n", path);
            return 0;
        }
        if (s == SERVE_JOB_FAILED) {
            fprintf(stderr, "grothmpi: submit: %s failed: %s\n", job, reason);
            return 1;
        }
        /* A job between two directories reads as unknown for an instant. */
        unknown = s == SERVE_JOB_UNKNOWN ? unknown + 1 : 0;
        if (unknown >= 3) {
            fprintf(stderr, "grothmpi: submit: %s: no longer in %s\n", job, spool);
            return 1;
        }
        if (timeout > 0 && (double)(gm_now_ns() - t0) * 1e-9 >= timeout) {
            fprintf(stderr, "grothmpi: submit: %s: not done after %.0f s (still %s)\n", job, timeout,
                    s == SERVE_JOB_QUEUED ? "in incoming/" : "being proved");
            return 2;
        }
        nanosleep(&nap, NULL);
    }
}
