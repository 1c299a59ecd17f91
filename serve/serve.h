/*
 * serve/serve.h — the proving service (docs/serve.md): a spool directory
 * that any tool submits jobs to, the server that proves them on every rank
 * of an MPI job (through mpi_campaign_run, one campaign per batch), and the
 * client side (submit, wait, status).
 *
 * Conventions (besides base/base.h's):
 *  - Fallible functions return 0 or a negative gm_status_t and fill err
 *    with one line naming the file (and the key) at fault.
 *  - The spool format and its paths belong to this folder alone: nobody
 *    else builds them.
 *  - Every file a server or a submitter writes into the spool is written
 *    atomically (gm_file_write: temporary, fsync, rename, directory fsync);
 *    a job moves between directories by rename() only, and the rename out of
 *    incoming/ is the claim.
 *  - Nothing here prints, except serve_run's line callback (rank 0 only).
 */
#ifndef GM_SERVE_H
#define GM_SERVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "groth16/groth16.h"

#define SERVE_NAME_LEN 64 /* a job's name: 1..63 of [A-Za-z0-9._-], not beginning with '.' */
#define SERVE_PATH_LEN 1024

/* ---- the server ---------------------------------------------------------------- */

/* The options of `grothmpi serve` (docs/serve.md); zero-initialise, then set
 * spool and params at least. */
typedef struct {
    const char *spool;       /* the spool directory (made absolute by serve_run) */
    const char *params;      /* the parameter cache (campaign key "params") */
    bool setup_auto;         /* --setup auto: generate missing test parameters */
    bool trust_params;       /* --trust-params */
    unsigned batch;          /* --batch K: jobs per batch; 0: 2 x ranks */
    double max_wait_s;       /* --max-wait: how long a batch waits for its K-th job */
    double poll_s;           /* --poll: seconds between listings of incoming/; 0: 0.5 */
    unsigned rank_batch;     /* --rank-batch: the campaign's batch_size; 0: 1 */
    const char *verify;      /* "rank" (NULL), "root", "both" */
    const char *backend;     /* "auto" (NULL), "cpu", "cuda", "emulate" */
    uint64_t mem_budget;     /* bytes per rank; 0: the campaign default */
    unsigned threads;        /* per rank; 0: the campaign default */
    double report_interval_s;/* seconds between rewrites of servers/SERVER.json; 0: 5 */
    double exit_when_idle_s; /* > 0: exit 0 after this long with nothing to do */
    uint64_t jobs_csv_max;   /* servers/ID.jobs.csv's size at which it becomes .jobs.csv.1; 0: 4 MiB */
    /* Set by a signal handler to the signal's number: stop taking jobs,
     * finish the batch in flight, exit with GM_ECANCELED. Read only. */
    const volatile sig_atomic_t *interrupt;
    /* Rank 0's one-line notes ("serve: proved NAME ..."); may be NULL. */
    void (*line)(void *arg, const char *text);
    void *line_arg;
} serve_opts_t;

/* What a server did (rank 0's counts; other ranks: zeros). */
typedef struct {
    int rank, size;
    char server[SERVE_NAME_LEN + 64]; /* its id, HOST-PID-START */
    uint64_t proved, failed, batches;
} serve_result_t;

/* Runs the service on every rank of the MPI job (every rank calls it; MPI
 * is initialised here and finalised before it returns). Rank 0 checks the
 * spool (created when missing; not writable: GM_EIO "SPOOL: not writable:
 * ..." before any rank does work), takes its lock, recovers dead servers'
 * claims, then polls incoming/, claims and checks jobs (a bad one goes to
 * failed/ with its reason), forms batches by shape (priority, deadline,
 * max_wait) and runs each as a campaign on all ranks; each proof goes to
 * done/ with its receipt after it verified. Returns 0 (exit_when_idle
 * reached), GM_ECANCELED (stopped by opts->interrupt after draining), or
 * the error that stopped the service (the spool, MPI); the same code on
 * every rank, err meaningful on rank 0. */
int serve_run(const serve_opts_t *opts, serve_result_t *res, err_t *err) __attribute__((warn_unused_result));

/* ---- the client side ------------------------------------------------------------ */

/* Copies the job file `file` into spool/incoming/ under a new unique name
 * (its stem, "-", the time in ns and the pid; or `name` when not NULL) and
 * writes that name into name_out (SERVE_NAME_LEN). A small JSON job's
 * relative "c1" path is made absolute against file's directory first.
 * Returns 0, GM_EIO (unreadable file, the spool is not a spool or not
 * writable), GM_EINVAL (a bad name, a name already in the spool). */
int serve_submit(char *name_out, const char *spool, const char *file, const char *name, err_t *err)
    __attribute__((warn_unused_result));

/* Where a job stands. */
typedef enum {
    SERVE_JOB_UNKNOWN = 0, /* in no directory of the spool */
    SERVE_JOB_QUEUED,      /* incoming/ */
    SERVE_JOB_ACTIVE,      /* claimed by a server */
    SERVE_JOB_DONE,        /* its receipt is in done/ */
    SERVE_JOB_FAILED,      /* in failed/ */
} serve_job_state_t;

/* The state of job `name` in the spool; with DONE, path receives the
 * receipt's path; with FAILED, reason its one-line reason (each n bytes). */
serve_job_state_t serve_job_state(const char *spool, const char *name, char *path, char *reason, size_t n);

/* One server as servers/SERVER.json says, and whether its lock is held. */
typedef struct {
    char id[SERVE_NAME_LEN + 64];
    bool alive;
    char state[16];            /* "idle", "proving", "draining", "stopped" */
    int ranks;
    uint64_t batch, in_flight, proved, failed;
    double proofs_per_hour, updated;
    unsigned nranks;           /* per-rank rows (at most 64) */
    struct {
        int rank;
        char host[64], backend[16];
        uint64_t jobs;
        uint64_t loads; /* batches whose set-up this rank loaded (not resident) */
        double load_s;  /* the seconds those loads took */
    } rank[64];
    unsigned nshapes; /* the circuit shapes proved (at most 16 rows) */
    struct {
        char circuit[64];
        uint64_t batches, loads;
        double load_s; /* the slowest rank's, summed over the loads */
        uint64_t bytes; /* parameters and provers per rank (rank 0's) */
    } shape[16];
} serve_server_status_t;

/* The spool's state for `grothmpi serve status`. */
typedef struct {
    uint64_t incoming, active, done, failed;
    uint64_t done_last_minute, done_last_hour;
    unsigned nservers;
    serve_server_status_t *servers; /* gm_alloc'd; serve_status_free */
} serve_status_t;

/* Reads the spool's state. Returns 0, GM_EIO (not a spool: no incoming/;
 * err names the spool) or GM_ENOMEM. */
int serve_status_read(serve_status_t *out, const char *spool, err_t *err) __attribute__((warn_unused_result));
void serve_status_free(serve_status_t *s);

#endif /* GM_SERVE_H */
