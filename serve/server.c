/*
 * serve/server.c — serve_run: the proving service on every rank of an MPI
 * job (docs/serve.md).
 *
 * DESIGN
 *  - No second prover driver: each batch is one campaign (a campaign file
 *    in the server's directory, its output directory beside it) run by
 *    mpi_campaign_run on every rank, so validation, parameter checks,
 *    dispatch, pipelining, batching, backends, verification and the atomic
 *    writes are the campaigns'. MPI is initialised once (mpi_study_init)
 *    and the ranks wait between batches in rank 0's next command
 *    (mpi_study_bcast: run this campaign, or stop), asleep. The runs are
 *    resident (mpi_opts_t.resident): a batch of the previous batch's shape
 *    takes its parameters, shape, pools and provers as they are.
 *  - Rank 0 alone touches the spool: it polls incoming/, claims by rename,
 *    checks each job (job.c), and forms batches of one shape (priority,
 *    deadline, max_wait). After a batch it moves each proved job's proof
 *    and public inputs to done/, then its receipt, then the job file: the
 *    receipt is the commit point (spool.c). A job of a failed batch is
 *    proved alone once, so one bad job fails alone.
 *  - A stop request (opts->interrupt) on rank 0 takes effect between
 *    batches; on any rank during a batch, the campaign drains (its units in
 *    flight are written) and returns GM_ECANCELED on every rank, and the
 *    batch's jobs without a proof go back to incoming/. Either way the
 *    server then stops with GM_ECANCELED.
 *  - Reports: after every batch and at exit, rank 0 rewrites
 *    servers/ID.report.json (the batches' cluster reports summed: units,
 *    busy, stage and parameter load times per rank) and servers/ID.jobs.csv
 *    (one row per job; at jobs_csv_max bytes it becomes ID.jobs.csv.1 and
 *    a new one starts, so a server that runs for months holds and writes
 *    at most that much), and every report_interval servers/ID.json (serve
 *    status, with each rank's and each shape's parameter loads).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <openssl/sha.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mpi/mpi.h"
#include "serve/serve_internal.h"

/* rank 0's command to every rank. */
typedef struct {
    int32_t cmd; /* CMD_* */
    char campaign[SERVE_PATH_LEN + 4 * SERVE_NAME_LEN + 128];
} wire_cmd_t;

enum { CMD_STOP = 0, CMD_RUN = 1 };

typedef struct {
    int32_t code;
    char msg[GM_ERR_MSG_LEN];
} wire_status_t;

#define RECOVER_EVERY_S 30.0
#define MAX_RANK_ROWS 64
#define MAX_SHAPE_ROWS 16
#define JOBS_CSV_MAX (4u << 20)

/* A circuit shape the server proved: its batches and parameter loads. */
typedef struct {
    char circuit[64];
    uint64_t batches, loads;
    double load_s;   /* the slowest rank's per load, summed */
    uint64_t bytes;  /* rank 0's parameters and provers */
} shape_row_t;

/* Rank 0's state. */
typedef struct {
    const serve_opts_t *o;
    mpi_opts_t mo;
    sv_spool_t sp;
    char id[SERVE_NAME_LEN + 64];
    char dir[SERVE_PATH_LEN + 2 * SERVE_NAME_LEN + 64]; /* active/ID */
    int lockfd;
    char params[SERVE_PATH_LEN]; /* --params, absolute (the campaign would resolve it against its own file) */
    int size;
    unsigned k; /* jobs per batch */
    sv_job_t *pending;
    size_t npending;
    uint64_t cap;
    uint64_t batches, proved, failed;
    double started, last_status, last_recover, last_activity;
    const char *state;
    size_t in_flight;
    mpi_report_t *total; /* the batches' reports summed */
    uint64_t rank_jobs[MAX_RANK_ROWS];
    uint64_t rank_loads[MAX_RANK_ROWS];
    double rank_load_s[MAX_RANK_ROWS];
    shape_row_t shapes[MAX_SHAPE_ROWS];
    unsigned nshapes;
    char *csv; /* the per-job rows since jobs.csv was last rotated */
    size_t csv_len;
    uint64_t csv_cap;
} root_t;

static void say(const root_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const root_t *r, const char *fmt, ...)
{
    if (!r->o->line)
        return;
    char buf[GM_ERR_MSG_LEN + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    r->o->line(r->o->line_arg, buf);
}

static bool stop_asked(const root_t *r) { return r->o->interrupt && *r->o->interrupt; }

#define CSV_HEADER                                                                                               \
    "job,status,kind,circuit,batch,rank,backend,partitions,submitted,claimed,proved,written,queue_s,batch_wait_s," \
    "prove_s,write_s,total_s,setup,load_s\n"

/* The per-job rows as a whole file (header first) to path, atomically. */
static int csv_write(const root_t *r, const char *path, err_t *err)
{
    gm_afile_t a;
    int rc = gm_afile_open(&a, path, 0, err);
    if (rc)
        return rc;
    gm_afile_write(&a, CSV_HEADER, strlen(CSV_HEADER));
    gm_afile_write(&a, r->csv, r->csv_len);
    return gm_afile_commit(&a, err);
}

static void csv_add(root_t *r, const char *row)
{
    size_t l = strlen(row);
    uint64_t max = r->o->jobs_csv_max ? r->o->jobs_csv_max : JOBS_CSV_MAX;
    if (r->csv_len && strlen(CSV_HEADER) + r->csv_len + l > max) {
        /* The rows so far become the previous file (replacing the one
         * before), and the current file starts again. */
        char p[SERVE_PATH_LEN + 200];
        err_t e;
        snprintf(p, sizeof p, "%s/%s.jobs.csv.1", r->sp.servers, r->id);
        if (csv_write(r, p, &e))
            say(r, "serve: %s", e.msg);
        r->csv_len = 0;
    }
    if (!gm_grow((void **)&r->csv, &r->csv_cap, r->csv_len + l + 1, 1, 4096))
        return; /* the row is lost from the report, not the proof */
    memcpy(r->csv + r->csv_len, row, l + 1);
    r->csv_len += l;
}

/* ---- the status file and the reports ---- */

static void write_status(root_t *r)
{
    json_t *o = json_object();
    double now = sv_now(), up = now - r->started;
    json_object_set_new(o, "format", json_string("grothmpi-serve-status"));
    json_object_set_new(o, "version", json_integer(1));
    json_object_set_new(o, "server", json_string(r->id));
    json_object_set_new(o, "pid", json_integer(getpid()));
    json_object_set_new(o, "state", json_string(r->state));
    json_object_set_new(o, "ranks", json_integer(r->size));
    json_object_set_new(o, "started", json_real(r->started));
    json_object_set_new(o, "updated", json_real(now));
    json_object_set_new(o, "batch", json_integer((json_int_t)r->batches));
    json_object_set_new(o, "in_flight", json_integer((json_int_t)r->in_flight));
    json_object_set_new(o, "pending", json_integer((json_int_t)r->npending));
    json_object_set_new(o, "proved", json_integer((json_int_t)r->proved));
    json_object_set_new(o, "failed", json_integer((json_int_t)r->failed));
    json_object_set_new(o, "proofs_per_hour", json_real(up > 0 ? (double)r->proved * 3600.0 / up : 0));
    json_t *rs = json_array();
    for (int i = 0; i < r->size && i < MAX_RANK_ROWS; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "rank", json_integer(i));
        const mpi_report_rank_t *rr = r->total && (unsigned)i < r->total->nranks ? &r->total->ranks[i] : NULL;
        json_object_set_new(x, "host", json_string(rr ? rr->host : "?"));
        json_object_set_new(x, "backend", json_string(rr ? rr->backend : "-"));
        json_object_set_new(x, "jobs", json_integer((json_int_t)r->rank_jobs[i]));
        json_object_set_new(x, "loads", json_integer((json_int_t)r->rank_loads[i]));
        json_object_set_new(x, "load_s", json_real(r->rank_load_s[i]));
        json_array_append_new(rs, x);
    }
    json_object_set_new(o, "rank_state", rs);
    json_t *sh = json_array();
    for (unsigned i = 0; i < r->nshapes; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "circuit", json_string(r->shapes[i].circuit));
        json_object_set_new(x, "batches", json_integer((json_int_t)r->shapes[i].batches));
        json_object_set_new(x, "loads", json_integer((json_int_t)r->shapes[i].loads));
        json_object_set_new(x, "load_s", json_real(r->shapes[i].load_s));
        json_object_set_new(x, "bytes", json_integer((json_int_t)r->shapes[i].bytes));
        json_array_append_new(sh, x);
    }
    json_object_set_new(o, "shapes", sh);
    char *text = json_dumps(o, JSON_INDENT(1));
    json_decref(o);
    char p[SERVE_PATH_LEN + 200];
    snprintf(p, sizeof p, "%s/%s.json", r->sp.servers, r->id);
    err_t e;
    if (text && gm_file_write(p, text, strlen(text), &e))
        say(r, "serve: %s", e.msg);
    free(text);
    r->last_status = now;
}

static void write_reports(root_t *r)
{
    char p[SERVE_PATH_LEN + 200];
    err_t e;
    if (r->total) {
        snprintf(p, sizeof p, "%s/%s.report.json", r->sp.servers, r->id);
        if (mpi_report_save(r->total, p, &e))
            say(r, "serve: %s", e.msg);
    }
    snprintf(p, sizeof p, "%s/%s.jobs.csv", r->sp.servers, r->id);
    if (csv_write(r, p, &e))
        say(r, "serve: %s", e.msg);
}

static void add_time(mpi_report_time_t *t, const mpi_report_time_t *b)
{
    t->wall_s += b->wall_s;
    t->cpu_s = isnan(t->cpu_s) || isnan(b->cpu_s) ? NAN : t->cpu_s + b->cpu_s;
}

/* Adds a batch's report b to the server's (taking b when it is the first). */
static void report_add(root_t *r, mpi_report_t *b)
{
    if (!r->total) {
        r->total = b;
        snprintf(r->total->campaign.name, sizeof r->total->campaign.name, "serve");
        snprintf(r->total->campaign.file, sizeof r->total->campaign.file, "%s", r->sp.root);
        return;
    }
    mpi_report_t *t = r->total;
    t->campaign.units += b->campaign.units;
    t->campaign.sectors += b->campaign.sectors;
    t->run.wall_s += b->run.wall_s;
    t->run.proved += b->run.proved;
    t->run.verified_by_root += b->run.verified_by_root;
    t->run.gpu_fallbacks += b->run.gpu_fallbacks;
    t->run.proofs_per_hour = t->run.wall_s > 0 ? (double)t->run.proved * 3600.0 / t->run.wall_s : NAN;
    for (unsigned i = 0; i < t->nranks && i < b->nranks; i++) {
        mpi_report_rank_t *x = &t->ranks[i];
        const mpi_report_rank_t *y = &b->ranks[i];
        x->units += y->units;
        x->busy_s += y->busy_s;
        x->run_s += y->run_s;
        x->load_s += y->load_s;
        x->resident = x->resident && y->resident;
        x->proofs_per_hour = x->run_s > 0 ? (double)x->units * 3600.0 / x->run_s : NAN;
        for (unsigned s = 0; s < MPI_NSTAGES; s++)
            add_time(&x->stages[s], &y->stages[s]);
        if (y->memory.rss_peak_bytes > x->memory.rss_peak_bytes)
            x->memory.rss_peak_bytes = y->memory.rss_peak_bytes;
        if (y->memory.alloc_peak_bytes > x->memory.alloc_peak_bytes)
            x->memory.alloc_peak_bytes = y->memory.alloc_peak_bytes;
        for (unsigned g = 0; g < x->ngpus && g < y->ngpus; g++) {
            x->gpus[g].units += y->gpus[g].units;
            x->gpus[g].busy_s += y->gpus[g].busy_s;
            x->gpus[g].msm_s += y->gpus[g].msm_s;
            x->gpus[g].ntt_s += y->gpus[g].ntt_s;
            x->gpus[g].fallbacks += y->gpus[g].fallbacks;
            x->gpus[g].failures += y->gpus[g].failures;
        }
    }
    for (unsigned s = 0; s < MPI_NSTAGES; s++)
        add_time(&t->totals.stages[s], &b->totals.stages[s]);
    double busy_max = 0, busy_sum = 0;
    uint64_t umin = UINT64_MAX, umax = 0;
    for (unsigned i = 0; i < t->nranks; i++) {
        busy_max = fmax(busy_max, t->ranks[i].busy_s);
        busy_sum += t->ranks[i].busy_s;
        umin = t->ranks[i].units < umin ? t->ranks[i].units : umin;
        umax = t->ranks[i].units > umax ? t->ranks[i].units : umax;
    }
    t->totals.busy_s_max = busy_max;
    t->totals.busy_s_mean = t->nranks ? busy_sum / t->nranks : 0;
    t->run.units_per_rank_min = t->nranks ? umin : 0;
    t->run.units_per_rank_max = umax;
    mpi_report_free(b);
}

/* ---- claiming ---- */

static int cmp_job(const void *a, const void *b)
{
    const sv_job_t *x = a, *y = b;
    return sv_order(x->priority, x->deadline, x->submitted, y->priority, y->deadline, y->submitted);
}

static void fail_job(root_t *r, sv_job_t *j, const char *reason)
{
    err_t e;
    if (sv_fail(&r->sp, r->dir, j->path, j->name, reason, &e))
        say(r, "serve: %s", e.msg);
    r->failed++;
    say(r, "serve: failed %s: %s", j->name, reason);
    char row[SERVE_NAME_LEN + 128];
    const char *kind = !j->circuit.id[0] ? "" : j->kind == SV_JOB_POREP ? "porep" : "test";
    snprintf(row, sizeof row, "%s,failed,%s,%s,,,,,%.3f,%.3f,,,,,,,,,\n", j->name, kind, j->circuit.id, j->submitted,
             j->claimed);
    csv_add(r, row);
}

/* Claims jobs from incoming/ while fewer than 2 batches are pending. */
static void claim(root_t *r)
{
    if (r->npending >= 2 * (size_t)r->k)
        return;
    sv_entry_t *list;
    size_t n;
    err_t e;
    if (sv_list_incoming(&list, &n, &r->sp, &e)) {
        say(r, "serve: %s", e.msg);
        return;
    }
    for (size_t i = 0; i < n && r->npending < 2 * (size_t)r->k && !stop_asked(r); i++) {
        sv_job_t j;
        memset(&j, 0, sizeof j);
        memcpy(j.name, list[i].name, sizeof j.name);
        char from[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
        snprintf(from, sizeof from, "%s/%s.json", r->sp.incoming, j.name);
        snprintf(j.path, sizeof j.path, "%s/%s.json", r->dir, j.name);
        if (rename(from, j.path) != 0)
            continue; /* another server's now */
        r->last_activity = j.claimed = sv_now();
        j.submitted = list[i].mtime;
        j.priority = list[i].priority;
        j.deadline = list[i].deadline;
        if (sv_has_receipt(&r->sp, j.name)) {
            fail_job(r, &j, "a job of this name was proved already (done/ has its receipt); submit under a new name");
            continue;
        }
        if (sv_job_parse(&j, &r->sp, &e)) {
            fail_job(r, &j, e.msg);
            continue;
        }
        if (!gm_grow((void **)&r->pending, &r->cap, r->npending + 1, sizeof *r->pending, 16)) {
            err_t e2;
            if (sv_requeue(&r->sp, j.path, j.name, &e2))
                say(r, "serve: %s", e2.msg);
            break;
        }
        r->pending[r->npending++] = j;
    }
    gm_free(list);
    if (r->npending > 1)
        qsort(r->pending, r->npending, sizeof *r->pending, cmp_job);
}

/* ---- one batch ---- */

/* The campaign of jobs[0 .. n) (one circuit) into path, its output out. */
static int write_campaign(root_t *r, const sv_job_t *jobs, size_t n, const char *path, const char *out, err_t *err)
{
    const serve_opts_t *o = r->o;
    json_t *c = json_object();
    char name[64];
    snprintf(name, sizeof name, "serve-batch-%llu", (unsigned long long)r->batches);
    json_object_set_new(c, "name", json_string(name));
    json_object_set_new(c, "circuit", json_string(jobs[0].circuit_name));
    if (jobs[0].kind == SV_JOB_POREP)
        json_object_set_new(c, "sector_size", json_string(jobs[0].sector_size));
    else if (jobs[0].size_key)
        json_object_set_new(c, jobs[0].size_key, json_integer((json_int_t)jobs[0].circuit.size));
    json_object_set_new(c, "params", json_string(r->params));
    json_object_set_new(c, "setup", json_string(o->setup_auto ? "auto" : "never"));
    json_object_set_new(c, "trust_params", json_boolean(o->trust_params));
    json_t *secs = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_object();
        json_object_set_new(s, "id", json_string(jobs[i].name));
        if (jobs[i].kind == SV_JOB_POREP)
            json_object_set_new(s, "c1", json_string(jobs[i].c1));
        else
            json_object_set_new(s, "seed", json_integer((json_int_t)jobs[i].seed));
        json_array_append_new(secs, s);
    }
    json_object_set_new(c, "sectors", secs);
    json_object_set_new(c, "batch_size", json_integer(o->rank_batch ? o->rank_batch : 1));
    json_object_set_new(c, "output", json_string(out));
    json_object_set_new(c, "verify", json_string(o->verify ? o->verify : "rank"));
    json_object_set_new(c, "backend", json_string(o->backend ? o->backend : "auto"));
    json_object_set_new(c, "progress_interval", json_integer(0));
    char *text = json_dumps(c, JSON_INDENT(1));
    json_decref(c);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    int rc = gm_file_write(path, text, strlen(text), err);
    free(text);
    return rc;
}

/* Appends file's bytes to *buf. */
static int append_file(uint8_t **buf, size_t *len, uint64_t *cap, const char *file, err_t *err)
{
    uint8_t *b;
    size_t l;
    int rc = gm_file_read(&b, &l, file, err);
    if (rc)
        return rc;
    if (!gm_grow((void **)buf, cap, *len + l + 8, 1, 4096)) {
        gm_free(b);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", file);
    }
    memcpy(*buf + *len, b, l);
    *len += l;
    gm_free(b);
    return 0;
}

/* Whether every partition of j has its proof in out/proofs. */
static bool job_proved(const sv_job_t *j, const char *out)
{
    for (unsigned k = 0; k < j->partitions; k++) {
        char p[GM_PATH_MAX];
        snprintf(p, sizeof p, "%s/proofs/%s-p%u.proof", out, j->name, k);
        if (access(p, F_OK) != 0)
            return false;
    }
    return true;
}

typedef struct {
    uint64_t batch;
    double started, proved;
    const char *out;
    const mpi_report_t *rep;
    bool resident;  /* the shape's set-up was resident on every rank */
    double load_s;  /* else the slowest rank's load of it */
} batch_info_t;

/* Moves a proved job to done/: proof, public inputs, receipt (the commit
 * point), then the job file. */
static int commit_done(root_t *r, sv_job_t *j, const batch_info_t *b, err_t *err)
{
    uint8_t *proof = NULL, *pub = NULL;
    size_t plen = 0, qlen = 0;
    uint64_t pcap = 0, qcap = 0;
    int rc = 0;
    if (j->partitions > 1 && gm_grow((void **)&pub, &qcap, 2, 1, 4096)) {
        pub[qlen++] = '[';
    }
    for (unsigned k = 0; k < j->partitions && !rc; k++) {
        char p[GM_PATH_MAX], q[GM_PATH_MAX];
        snprintf(p, sizeof p, "%s/proofs/%s-p%u.proof", b->out, j->name, k);
        snprintf(q, sizeof q, "%s/proofs/%s-p%u.public.json", b->out, j->name, k);
        if (!(rc = append_file(&proof, &plen, &pcap, p, err)) && j->partitions > 1 && k > 0 &&
            gm_grow((void **)&pub, &qcap, qlen + 2, 1, 4096))
            pub[qlen++] = ',';
        if (!rc)
            rc = append_file(&pub, &qlen, &qcap, q, err);
    }
    if (!rc && j->partitions > 1) {
        if (!pub || !gm_grow((void **)&pub, &qcap, qlen + 3, 1, 4096))
            rc = gm_err_set(err, GM_ENOMEM, "out of memory");
        else {
            pub[qlen++] = ']';
            pub[qlen++] = '\n';
        }
    }
    char pp[SERVE_PATH_LEN + SERVE_NAME_LEN + 32], qp[SERVE_PATH_LEN + SERVE_NAME_LEN + 32],
        rp[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
    snprintf(pp, sizeof pp, "%s/%s.proof", r->sp.done, j->name);
    snprintf(qp, sizeof qp, "%s/%s.public.json", r->sp.done, j->name);
    snprintf(rp, sizeof rp, "%s/%s.receipt.json", r->sp.done, j->name);
    if (!rc)
        rc = sv_publish(r->dir, pp, proof, plen, err);
    if (!rc)
        rc = sv_publish(r->dir, qp, pub, qlen, err);
    int rank = -1;
    char unit[SERVE_NAME_LEN + 16];
    snprintf(unit, sizeof unit, "%s-p0", j->name);
    err_t e2;
    if (!rc && mpi_journal_rank(&rank, b->out, unit, &e2))
        rank = -1;
    const char *backend = b->rep && rank >= 0 && (unsigned)rank < b->rep->nranks ? b->rep->ranks[rank].backend : "?";
    uint8_t sha[32];
    char shahex[65];
    SHA256(proof ? proof : (const uint8_t *)"", plen, sha);
    gm_hex_encode(shahex, sha, 32);
    double written = sv_now();
    if (!rc) {
        json_t *o = json_object();
        char pf[SERVE_NAME_LEN + 16], qf[SERVE_NAME_LEN + 16];
        snprintf(pf, sizeof pf, "%s.proof", j->name);
        snprintf(qf, sizeof qf, "%s.public.json", j->name);
        json_object_set_new(o, "format", json_string("grothmpi-receipt"));
        json_object_set_new(o, "version", json_integer(1));
        json_object_set_new(o, "job", json_string(j->name));
        json_object_set_new(o, "kind", json_string(j->kind == SV_JOB_POREP ? "porep" : "test"));
        json_object_set_new(o, "circuit", json_string(j->circuit.id));
        json_object_set_new(o, "server", json_string(r->id));
        json_object_set_new(o, "batch", json_integer((json_int_t)b->batch));
        json_object_set_new(o, "rank", json_integer(rank));
        json_object_set_new(o, "backend", json_string(backend));
        json_object_set_new(o, "ranks", json_integer(r->size));
        json_object_set_new(o, "partitions", json_integer(j->partitions));
        json_object_set_new(o, "proof", json_string(pf));
        json_object_set_new(o, "public", json_string(qf));
        json_object_set_new(o, "proof_sha256", json_string(shahex));
        json_object_set_new(o, "verified", json_string(r->o->verify ? r->o->verify : "rank"));
        json_object_set_new(o, "setup", json_string(b->resident ? "resident" : "loaded"));
        json_object_set_new(o, "submitted", json_real(j->submitted));
        json_object_set_new(o, "claimed", json_real(j->claimed));
        json_object_set_new(o, "proved", json_real(b->proved));
        json_object_set_new(o, "written", json_real(written));
        json_t *t = json_object();
        json_object_set_new(t, "queue_s", json_real(j->claimed - j->submitted));
        json_object_set_new(t, "batch_wait_s", json_real(b->started - j->claimed));
        json_object_set_new(t, "prove_s", json_real(b->proved - b->started));
        json_object_set_new(t, "load_s", json_real(b->load_s));
        json_object_set_new(t, "write_s", json_real(written - b->proved));
        json_object_set_new(t, "total_s", json_real(written - j->submitted));
        json_object_set_new(o, "timings", t);
        char *text = json_dumps(o, JSON_INDENT(1));
        json_decref(o);
        rc = text ? sv_publish(r->dir, rp, text, strlen(text), err) : gm_err_set(err, GM_ENOMEM, "out of memory");
        free(text);
    }
    gm_free(proof);
    gm_free(pub);
    if (rc)
        return rc;
    char to[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
    snprintf(to, sizeof to, "%s/%s.json", r->sp.done, j->name);
    if (rename(j->path, to) != 0)
        say(r, "serve: %s: cannot move to %s: %s (its receipt is written: it is done)", j->path, to,
            strerror(errno));
    r->proved++;
    if (rank >= 0 && rank < MAX_RANK_ROWS)
        r->rank_jobs[rank]++;
    char row[2 * SERVE_NAME_LEN + 400];
    snprintf(row, sizeof row, "%s,done,%s,%s,%llu,%d,%s,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%.3f\n",
             j->name, j->kind == SV_JOB_POREP ? "porep" : "test", j->circuit.id, (unsigned long long)b->batch, rank,
             backend, j->partitions, j->submitted, j->claimed, b->proved, written, j->claimed - j->submitted,
             b->started - j->claimed, b->proved - b->started, written - b->proved, written - j->submitted,
             b->resident ? "resident" : "loaded", b->load_s);
    csv_add(r, row);
    say(r, "serve: proved %s (batch %llu, rank %d, %s, %s, %.2f s after submission)", j->name,
        (unsigned long long)b->batch, rank, backend, b->resident ? "resident" : "loaded", written - j->submitted);
    return 0;
}

/* Counts a batch's parameter loads (per rank, per shape) from its report,
 * and sets b->load_s. */
static void note_loads(root_t *r, const char *circuit, batch_info_t *b, const mpi_report_t *rep)
{
    double slowest = 0;
    for (unsigned i = 0; i < rep->nranks && i < MAX_RANK_ROWS; i++) {
        if (rep->ranks[i].resident)
            continue;
        r->rank_loads[i]++;
        r->rank_load_s[i] += rep->ranks[i].load_s;
        slowest = fmax(slowest, rep->ranks[i].load_s);
    }
    b->load_s = b->resident ? 0 : slowest;
    unsigned k = 0;
    while (k < r->nshapes && strcmp(r->shapes[k].circuit, circuit) != 0)
        k++;
    if (k == r->nshapes) {
        if (k == MAX_SHAPE_ROWS)
            return; /* the status lists the first shapes only */
        memset(&r->shapes[k], 0, sizeof r->shapes[k]);
        snprintf(r->shapes[k].circuit, sizeof r->shapes[k].circuit, "%s", circuit);
        r->nshapes++;
    }
    shape_row_t *s = &r->shapes[k];
    s->batches++;
    s->loads += !b->resident;
    s->load_s += b->load_s;
    if (rep->nranks)
        s->bytes = rep->ranks[0].memory.params_bytes + rep->ranks[0].memory.prover_bytes;
}

/* Runs jobs pending[0 .. n) as one campaign on every rank. Returns the
 * campaign's status (GM_ECANCELED: stop). */
static int run_batch(root_t *r, size_t n)
{
    sv_job_t *jobs = r->pending;
    r->batches++;
    wire_cmd_t cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.cmd = CMD_RUN;
    char out[SERVE_PATH_LEN + 3 * SERVE_NAME_LEN + 96];
    /* Dot names: never taken for a claim (release_dir, recovery). */
    snprintf(out, sizeof out, "%s/.batch-%llu", r->dir, (unsigned long long)r->batches);
    snprintf(cmd.campaign, sizeof cmd.campaign, "%s.json", out);
    err_t e;
    gm_err_clear(&e);
    batch_info_t b = {.batch = r->batches, .started = sv_now(), .out = out};
    int rc = write_campaign(r, jobs, n, cmd.campaign, out, &e);
    mpi_result_t res;
    memset(&res, 0, sizeof res);
    if (!rc) {
        r->state = "proving";
        r->in_flight = n;
        write_status(r);
        err_t be;
        if ((rc = mpi_study_bcast(&cmd, sizeof cmd, &be)))
            return rc;
        rc = mpi_campaign_run(cmd.campaign, &r->mo, NULL, NULL, &res, &e);
    }
    b.proved = sv_now();
    b.rep = res.report;
    b.resident = res.resident;
    if (res.report)
        note_loads(r, jobs[0].circuit.id, &b, res.report);
    size_t keep = 0;
    for (size_t i = 0; i < n; i++) {
        sv_job_t *j = &jobs[i];
        err_t ce;
        if (job_proved(j, out)) {
            if (commit_done(r, j, &b, &ce))
                fail_job(r, j, ce.msg); /* the spool's disk is full, say: one line, and on */
        } else if (rc == GM_ECANCELED) {
            if (sv_requeue(&r->sp, j->path, j->name, &ce))
                say(r, "serve: %s", ce.msg);
        } else if (n > 1 && !j->solo) {
            j->solo = true; /* proved alone next: one bad job fails alone */
            jobs[keep++] = *j;
        } else {
            char why[GM_ERR_MSG_LEN + SERVE_NAME_LEN + 32];
            snprintf(why, sizeof why, "incoming/%s.json: not proved: %s", j->name,
                     rc ? e.msg : "the campaign ended without its proof");
            fail_job(r, j, why);
        }
    }
    memmove(r->pending + keep, r->pending + n, (r->npending - n) * sizeof *r->pending);
    r->npending = r->npending - n + keep;
    if (rc && rc != GM_ECANCELED)
        say(r, "serve: batch %llu (%zu job%s) failed: %s", (unsigned long long)b.batch, n, n == 1 ? "" : "s",
            e.msg);
    if (res.report)
        report_add(r, res.report);
    free(res.check_text);
    sv_rmtree(out);
    unlink(cmd.campaign);
    r->in_flight = 0;
    r->state = "idle";
    r->last_activity = sv_now();
    write_reports(r);
    write_status(r);
    return rc == GM_ECANCELED ? rc : 0;
}

/* How many of pending (sorted) make the next batch, or 0 when it should
 * wait: the first job's shape, up to k jobs, as soon as there are k, or its
 * oldest has waited max_wait, or a deadline is near. *wake: when to look
 * again at the latest. */
static size_t next_batch(root_t *r, double now, double *wake)
{
    if (!r->npending)
        return 0;
    sv_job_t *p = r->pending;
    if (p[0].solo)
        return 1;
    /* Gather the first job's shape to the front, keeping the order. */
    size_t n = 1;
    for (size_t i = 1; i < r->npending && n < r->k; i++) {
        if (p[i].solo || strcmp(p[i].circuit.id, p[0].circuit.id) != 0)
            continue;
        sv_job_t t = p[i];
        memmove(p + n + 1, p + n, (i - n) * sizeof *p);
        p[n++] = t;
    }
    if (n >= r->k)
        return n;
    double oldest = p[0].claimed, due = 1e300;
    for (size_t i = 0; i < n; i++) {
        oldest = fmin(oldest, p[i].claimed);
        if (p[i].deadline > 0)
            due = fmin(due, p[i].deadline);
    }
    double at = fmin(oldest + r->o->max_wait_s, due - r->o->max_wait_s);
    if (now >= at)
        return n;
    *wake = fmin(*wake, at);
    return 0;
}

static void nap(double s)
{
    if (s <= 0)
        return;
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Rank 0's loop. Returns 0 (idle exit) or GM_ECANCELED (stopped). */
static int root_loop(root_t *r)
{
    const serve_opts_t *o = r->o;
    double poll = o->poll_s > 0 ? o->poll_s : 0.5;
    double every = o->report_interval_s > 0 ? o->report_interval_s : 5;
    for (;;) {
        double now = sv_now();
        if (stop_asked(r))
            return GM_ECANCELED;
        if (now - r->last_recover >= RECOVER_EVERY_S) {
            unsigned back = 0;
            err_t e;
            if (sv_recover(&r->sp, r->id, &back, &e))
                say(r, "serve: %s", e.msg);
            else if (back)
                say(r, "serve: %u job%s of dead servers back in incoming/", back, back == 1 ? "" : "s");
            r->last_recover = now;
        }
        claim(r);
        if (stop_asked(r))
            return GM_ECANCELED; /* what claim took goes back at exit */
        double wake = now + poll;
        size_t n = next_batch(r, sv_now(), &wake);
        if (n) {
            if (run_batch(r, n) == GM_ECANCELED)
                return GM_ECANCELED;
            continue;
        }
        if (!r->npending && o->exit_when_idle_s > 0 && sv_now() - r->last_activity >= o->exit_when_idle_s)
            return 0;
        if (sv_now() - r->last_status >= every)
            write_status(r);
        nap(fmin(wake, now + poll) - sv_now());
    }
}

/* Rank 0's set-up: the spool, the server's id and lock, the first recovery. */
static int root_setup(root_t *r, err_t *err)
{
    int rc = sv_spool_init(&r->sp, r->o->spool, true, err);
    if (rc)
        return rc;
    const char *pa = r->o->params;
    char cwd[SERVE_PATH_LEN];
    if (pa[0] != '/' && !getcwd(cwd, sizeof cwd))
        return gm_err_set(err, GM_EIO, "--params %s: cannot resolve: getcwd: %s", pa, strerror(errno));
    if ((size_t)snprintf(r->params, sizeof r->params, "%s%s%s", pa[0] == '/' ? "" : cwd, pa[0] == '/' ? "" : "/",
                         pa) >= sizeof r->params)
        return gm_err_set(err, GM_EINVAL, "--params %s: path too long", pa);
    struct stat st;
    int se = stat(r->params, &st) != 0 ? errno : 0;
    if (!r->o->setup_auto && (se || !S_ISDIR(st.st_mode)))
        return gm_err_set(err, GM_EIO, "--params %s: not a parameter cache directory (%s)", pa,
                          se ? strerror(se) : "not a directory");
    char host[64] = "host";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = 0;
    for (char *c = host; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
            *c = '_';
    r->started = sv_now();
    snprintf(r->id, sizeof r->id, "%.40s-%ld-%lld", host, (long)getpid(), (long long)r->started);
    if ((rc = sv_server_lock(&r->lockfd, r->dir, sizeof r->dir, &r->sp, r->id, err)))
        return rc;
    r->state = "idle";
    r->last_activity = r->started;
    r->last_recover = -1e300;
    write_status(r);
    return 0;
}

int serve_run(const serve_opts_t *opts, serve_result_t *res, err_t *err)
{
    memset(res, 0, sizeof *res);
    int rank = 0, size = 1;
    int rc = mpi_study_init(&rank, &size, err);
    if (rc)
        return rc;
    res->rank = rank;
    res->size = size;
    root_t r;
    memset(&r, 0, sizeof r);
    r.o = opts;
    r.size = size;
    r.k = opts->batch ? opts->batch : 2 * (unsigned)size;
    r.mo.mem_budget = opts->mem_budget;
    r.mo.threads = opts->threads;
    r.mo.interrupt = opts->interrupt;
    r.mo.resident = true; /* the shape's parameters and provers stay loaded between batches */
    wire_status_t ws;
    memset(&ws, 0, sizeof ws);
    if (rank == 0) {
        err_t e;
        gm_err_clear(&e);
        ws.code = root_setup(&r, &e);
        snprintf(ws.msg, sizeof ws.msg, "%s", e.msg);
    }
    if ((rc = mpi_study_bcast(&ws, sizeof ws, err)))
        goto out;
    if (ws.code) {
        rc = rank == 0 ? gm_err_set(err, ws.code, "%s", ws.msg)
                       : gm_err_set(err, ws.code, "rank %d: the spool failed on rank 0 (see its message)", rank);
        goto out;
    }
    if (rank == 0) {
        snprintf(res->server, sizeof res->server, "%s", r.id);
        say(&r, "serve: server %s on %s, %d rank%s, batches of up to %u", r.id, r.sp.root, size,
            size == 1 ? "" : "s", r.k);
        rc = root_loop(&r);
        wire_cmd_t stop;
        memset(&stop, 0, sizeof stop);
        err_t be;
        int brc = mpi_study_bcast(&stop, sizeof stop, &be);
        r.state = "stopped";
        for (size_t i = 0; i < r.npending; i++) {
            err_t e;
            if (sv_requeue(&r.sp, r.pending[i].path, r.pending[i].name, &e))
                say(&r, "serve: %s", e.msg);
        }
        r.npending = 0;
        write_reports(&r);
        write_status(&r);
        sv_server_unlock(r.lockfd, r.dir, &r.sp);
        res->proved = r.proved;
        res->failed = r.failed;
        res->batches = r.batches;
        if (brc && !rc)
            rc = gm_err_set(err, brc, "%s", be.msg);
        else if (rc == GM_ECANCELED)
            gm_err_set(err, rc, "stopped on request: %llu proved, %llu failed in %llu batches; unproved claims are "
                       "back in incoming/",
                       (unsigned long long)r.proved, (unsigned long long)r.failed, (unsigned long long)r.batches);
    } else {
        for (;;) {
            wire_cmd_t cmd;
            if ((rc = mpi_study_bcast(&cmd, sizeof cmd, err)))
                break;
            if (cmd.cmd != CMD_RUN)
                break;
            mpi_result_t mr;
            err_t e;
            gm_err_clear(&e);
            if (mpi_campaign_run(cmd.campaign, &r.mo, NULL, NULL, &mr, &e))
                gm_log(GM_LOG_DEBUG, "rank %d: %s", rank, e.msg); /* rank 0 has the verdict */
            free(mr.check_text);
            mpi_report_free(mr.report);
        }
    }
    /* One verdict for every rank. */
    int32_t verdict = rc;
    err_t be;
    if (mpi_study_bcast(&verdict, sizeof verdict, &be) == 0 && rank != 0 && verdict)
        rc = gm_err_set(err, verdict, "rank %d: the service stopped (see rank 0's message)", rank);
out:
    mpi_resident_release();
    mpi_report_free(r.total);
    gm_free(r.pending);
    gm_free(r.csv);
    mpi_study_finalize();
    return rc;
}
