/*
 * serve/serve_internal.h — what the files of serve/ share (no one else
 * includes it):
 *   spool.c   the spool's directories, the server's lock, claims, recovery
 *             of dead servers' claims, failed/, submit, job states, status.
 *   job.c     a job file: its form (C1, {"c1"}, a test circuit), its shape,
 *             priority and deadline.
 *   server.c  serve_run: rank 0's loop (poll, claim, batch) and every rank's
 *             campaign per batch; done/ and the receipts; the reports.
 */
#ifndef GM_SERVE_INTERNAL_H
#define GM_SERVE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "circuits/circuits.h"
#include "serve/serve.h"

/* The spool's directories, absolute. */
typedef struct {
    char root[SERVE_PATH_LEN];
    char incoming[SERVE_PATH_LEN + 16], active[SERVE_PATH_LEN + 16], done[SERVE_PATH_LEN + 16],
        failed[SERVE_PATH_LEN + 16], servers[SERVE_PATH_LEN + 16];
} sv_spool_t;

/* Fills s for the spool at root (made absolute). create: make the missing
 * directories and check that each is writable (GM_EIO "ROOT: not writable:
 * ..."); else check that incoming/ exists (GM_EIO "ROOT: not a spool (no
 * incoming/)"). */
int sv_spool_init(sv_spool_t *s, const char *root, bool create, err_t *err) __attribute__((warn_unused_result));

/* Wall-clock time, seconds since the epoch. */
double sv_now(void);

/* Whether name is a job name (docs/serve.md): 1..63 of [A-Za-z0-9._-], no
 * leading '.'. */
bool sv_name_ok(const char *name);

/* A server's own directory: active/<id>, made with its lock file held
 * (flock, exclusive) before it appears under that name. *fd keeps the lock
 * for the process's life. */
int sv_server_lock(int *fd, char *dir, size_t n, const sv_spool_t *s, const char *id, err_t *err)
    __attribute__((warn_unused_result));

/* Releases a server's own directory at a clean exit: its remaining claims go
 * back to incoming/ (or to done/ when their receipt exists), batch
 * directories are removed, then the lock. */
void sv_server_unlock(int fd, const char *dir, const sv_spool_t *s);

/* Recovers the claims of every dead server (its lock can be taken) other
 * than self: jobs with a receipt to done/, the rest to incoming/. *requeued
 * counts the jobs put back. Returns 0 or GM_EIO (active/ cannot be listed). */
int sv_recover(const sv_spool_t *s, const char *self, unsigned *requeued, err_t *err)
    __attribute__((warn_unused_result));

/* A waiting job as listed: its name and the ordering keys read from it. */
typedef struct {
    char name[SERVE_NAME_LEN];
    long long priority;
    double deadline; /* 0: none */
    double mtime;
} sv_entry_t;

/* The order jobs are taken in (docs/serve.md): priority (higher first),
 * deadline (earlier first; 0, none, after every deadline), then time
 * (earlier first). Returns <0, 0 or >0 as a comes before, with, after b. */
int sv_order(long long pa, double da, double ta, long long pb, double db, double tb);

/* Lists incoming/ (names ending in .json, not beginning with '.'; their
 * priority and deadline peeked from small job files) sorted by priority,
 * deadline, then age. *out gm_alloc'd. Returns 0, GM_EIO or GM_ENOMEM. */
int sv_list_incoming(sv_entry_t **out, size_t *n, const sv_spool_t *s, err_t *err)
    __attribute__((warn_unused_result));

/* Whether done/<name>.receipt.json exists. */
bool sv_has_receipt(const sv_spool_t *s, const char *name);

/* Writes buf to `to` (in done/ or failed/) through a temporary in the
 * server's own directory `own` (written atomically there, then renamed
 * into place): a server killed while writing leaves its temporary where
 * the recovery of its directory removes it, never in done/. Returns 0,
 * GM_EINVAL or GM_EIO. */
int sv_publish(const char *own, const char *to, const void *buf, size_t len, err_t *err)
    __attribute__((warn_unused_result));

/* Moves the job file at path to failed/<name>.json after writing its reason
 * (one line) to failed/<name>.reason (sv_publish through own). Returns 0 or
 * GM_EIO. */
int sv_fail(const sv_spool_t *s, const char *own, const char *path, const char *name, const char *reason,
            err_t *err) __attribute__((warn_unused_result));

/* Moves the job file at path back to incoming/<name>.json (or to done/ when
 * its receipt exists). Returns 0 or GM_EIO. */
int sv_requeue(const sv_spool_t *s, const char *path, const char *name, err_t *err)
    __attribute__((warn_unused_result));

/* Removes a directory tree (a finished batch's campaign output). */
void sv_rmtree(const char *dir);

/* ---- job.c ---- */

typedef enum {
    SV_JOB_POREP = 0, /* a C1: a bare C1 file or {"c1": PATH} */
    SV_JOB_TEST = 1,  /* {"circuit": "test-...", "seed": N} */
    SV_JOB_ZKEY = 2,  /* {"zkey": PATH, "wtns": PATH}: a snarkjs circuit's proof */
} sv_kind_t;

/* A kind's name in receipts, jobs.csv and notes: "porep", "test", "zkey". */
const char *sv_kind_name(sv_kind_t k);

/* A claimed job. */
typedef struct {
    char name[SERVE_NAME_LEN];
    char path[SERVE_PATH_LEN + 4 * SERVE_NAME_LEN + 128]; /* its file, in the server's directory */
    sv_kind_t kind;
    circuit_t circuit;          /* circuit.id: the shape, the batch key */
    char circuit_name[32];      /* the campaign's "circuit" */
    const char *size_key;       /* TEST: "constraints", "compressions" or NULL */
    char sector_size[16];       /* POREP: the campaign's "sector_size" */
    char c1[SERVE_PATH_LEN + 4 * SERVE_NAME_LEN + 128]; /* POREP: the C1 file */
    char zkey[SERVE_PATH_LEN + 4 * SERVE_NAME_LEN + 128]; /* ZKEY: the .zkey, absolute */
    char wtns[SERVE_PATH_LEN + 4 * SERVE_NAME_LEN + 128]; /* ZKEY: the .wtns, absolute */
    uint64_t seed;              /* TEST */
    unsigned partitions;
    long long priority;
    double deadline;            /* 0: none */
    double submitted, claimed;  /* wall-clock seconds */
    bool solo;                  /* its batch failed: prove it alone */
} sv_job_t;

/* Reads and checks the claimed job file j->path (j->name set), relative
 * "c1", "zkey" and "wtns" paths against the spool root. Returns 0, or GM_EFORMAT / GM_EINVAL /
 * GM_EIO with the one-line reason in err ("incoming/NAME.json: ..."). */
int sv_job_parse(sv_job_t *j, const sv_spool_t *s, err_t *err) __attribute__((warn_unused_result));

/* The ordering keys of a job file (small forms only; a C1 has priority 0
 * and no deadline); anything unreadable gives the defaults. */
void sv_job_peek(long long *priority, double *deadline, const char *path);

#endif /* GM_SERVE_INTERNAL_H */
