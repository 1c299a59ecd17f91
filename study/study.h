/*
 * study/study.h — topology-aware scaling studies (`grothmpi study`, docs/study.md)
 * and the comparison of two cluster reports (`grothmpi report compare`).
 *
 * A study is a base campaign (jobs/jobs.h) plus axes to sweep: threads per
 * rank, L3 domains per rank, pinning, batch size k, memory budget (which
 * can lower the pipeline depth), pipeline depth and ranks. Every point
 * of the cross product is run `repetitions` times by the campaign runner
 * (mpi/mpi.h: mpi_campaign_run, or `mpirun -np R grothmpi prove` for the
 * ranks axis), and its report.json is read back for throughput, per-stage
 * times and per-stage counters; the study keeps every repetition and the
 * median and spread of each point.
 *
 * Conventions (besides base/base.h's):
 *  - Fallible functions return 0 or a negative gm_status_t and fill err with
 *    "<file>: <key>: <value> <what is wrong>"; unknown keys are errors.
 *  - Nothing here prints except the functions named study_print_*, which
 *    write to the FILE * they are given (the cli passes stdout).
 *  - Files are written atomically (temporary name, fsync, rename, directory
 *    fsync).
 *  - A study_t is driven by one thread; it starts no threads itself.
 *  - Counter values that the machine does not have are NAN in memory, null
 *    in JSON, "NA" in the CSV and "n/a" in text and plots.
 */
#ifndef GM_STUDY_H
#define GM_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"

/* The axes a study may sweep, in the order they vary (the last one fastest). */
typedef enum {
    STUDY_AXIS_RANKS = 0,   /* MPI ranks: each point runs `mpirun -np R grothmpi prove` */
    STUDY_AXIS_DOMAINS,     /* prepare domains per rank (resources.domains: one prepare pool per L3 domain) */
    STUDY_AXIS_THREADS,     /* MSM pool threads per rank (resources.threads) */
    STUDY_AXIS_PIN,         /* resources.pin: false / true */
    STUDY_AXIS_BATCH,       /* batch_size k */
    STUDY_AXIS_MEM_BUDGET,  /* resources.mem_budget, bytes (bounds the pipeline depth) */
    STUDY_AXIS_DEPTH,       /* pipeline_depth d: units prepared ahead of the batch in its MSMs, 0..64 */
    STUDY_NAXES
} study_axis_t;

/* A loaded study (opaque). */
typedef struct study study_t;

/* Reads and validates a study file:
 *   {"name": "s", "campaign": "demo.json" | {...campaign object...},
 *    "axes": {"threads": [1, 2], "batch_size": [1, 2], "pin": [false, true],
 *             "domains": [1], "mem_budget": ["1GiB"], "ranks": [1, 2],
 *             "pipeline_depth": [0, 1, 2]},
 *    "repetitions": 3, "output": "DIR", "topology": "this" | "synthetic:..." | "xml:FILE"}
 * Relative paths are resolved against the study file's directory. The base
 * campaign is validated (jobs_campaign_load); its output key is replaced by
 * DIR/runs/<point>-r<rep> for each run. "repetitions" is 1..100 (default 3);
 * each axis is a non-empty array of at most 64 distinct values. "topology"
 * (default "this") other than "this" makes the study a plan only.
 * Returns 0, GM_EIO (unreadable), GM_EFORMAT (not JSON), GM_EINVAL (a
 * missing, unknown or bad key; err names file, key, value), or the topology's errors
 * (topo_load). *out is NULL on failure. */
int study_load(study_t **out, const char *path, err_t *err) __attribute__((warn_unused_result));

/* Frees a study; NULL allowed. */
void study_free(study_t *s);

/* Number of points (the product of the axis lengths; 1 without axes). */
size_t study_point_count(const study_t *s);

/* true when the study's topology is not this system (plan only), or when the
 * caller asked for a plan with study_set_plan_only. */
bool study_is_plan_only(const study_t *s);
void study_set_plan_only(study_t *s);

/* true when the study sweeps ranks (every run is then a separate
 * `mpirun -np R` job, started by the runner the caller passes). */
bool study_has_ranks_axis(const study_t *s);

/* The output directory (absolute). */
const char *study_output_dir(const study_t *s);

/* Prints, for every point, its parameters and the thread plan it gets on the
 * study's topology (the base campaign's resources.topology instead when the
 * study runs here and the campaign describes the machine otherwise): the
 * MSM pool's cores and CPUs per domain, and the prepare pools of the
 * point's domains (one per L3 domain, its cores and CPUs), without running
 * anything. Returns 0, or a plan error (GM_ENOMEM, GM_EINVAL: a point asks
 * for more threads or domains than the topology has). */
int study_print_plan(const study_t *s, FILE *f, err_t *err) __attribute__((warn_unused_result));

/* Runs one campaign (the file at campaign_path, written by the study on rank
 * 0) with ranks MPI ranks (0: in this process, on the current job's ranks),
 * and writes the path of the report.json it produced into report_path (rank 0;
 * "" elsewhere) and this process's rank into *rank. Returns 0 or the run's
 * error. */
typedef int (*study_run_fn)(void *arg, const char *campaign_path, unsigned ranks, int *rank, char *report_path,
                            size_t report_len, err_t *err);

/* The in-process runner: mpi_campaign_run (arg unused; ranks must be 0).
 * MPI must have been initialised by mpi_study_init (mpi/mpi.h) so that it
 * stays up between runs. */
int study_run_inprocess(void *arg, const char *campaign_path, unsigned ranks, int *rank, char *report_path,
                        size_t report_len, err_t *err) __attribute__((warn_unused_result));

/* Progress, called on rank 0 before each run (point 0-based, rep 0-based)
 * and after it (done true, proofs_per_hour of that run). */
typedef void (*study_progress_fn)(void *arg, size_t point, size_t npoints, unsigned rep, unsigned nreps, bool done,
                                  double proofs_per_hour);

/* Runs every point and repetition with run, in order, on every rank of the
 * job (every rank calls it with its rank, from mpi_study_init; only rank 0
 * writes files; 0 when the study runs alone or with the ranks axis). On rank 0, after the
 * last run, computes the medians and writes DIR/study.json, DIR/study.csv,
 * DIR/study.txt and the plots DIR/plots/ (SVG). Returns 0, the first run's
 * error (err says point and repetition), GM_EIO, GM_EFORMAT (a run's
 * report.json that cannot be read: mpi_report_load's errors, naming the
 * file and key) or GM_ENOMEM. Must not be called on a plan-only study
 * (GM_ESTATE). */
int study_run(study_t *s, int rank, study_run_fn run, void *run_arg, study_progress_fn progress, void *parg, err_t *err)
    __attribute__((warn_unused_result));

/* Prints the text table of a finished study (what DIR/study.txt holds). */
void study_print_text(const study_t *s, FILE *f);

/* ---- comparing two reports -------------------------------------------------------- */

/* One row of a comparison: a metric of a stage in report a and report b.
 * avail is false when either side lacks it (then a, b may be NAN). */
typedef struct {
    char stage[16];   /* a report stage, or "run" for the whole run */
    char metric[40];  /* "time_s", "instructions", "cycles", "ipc", "branches", "branch_misses",
                         "l2_accesses", "l1_fills_from_l2", "l3_ccx_fills", "remote_ccx_fills",
                         "dram_fills", "proofs_per_hour", "wall_s" */
    double a, b;
    bool avail;
} study_delta_t;

/* Reads two report.json files (docs/report.md) and lists, per stage, the
 * cluster totals of each: the wall time of every stage, and for the counter
 * stages (witness, prove) the metrics named in study_delta_t; then the run's
 * wall time and proofs per hour. *rows is malloc'd (free it). Returns 0,
 * or mpi_report_load's errors for either file: GM_EIO (cannot open),
 * GM_EFORMAT (not a grothmpi report, or a key missing or of the wrong type;
 * err names the file and key), GM_ENOMEM. */
int study_compare(study_delta_t **rows, size_t *nrows, const char *a_path, const char *b_path, err_t *err)
    __attribute__((warn_unused_result));

/* The absolute and relative difference of a row: b - a and (b - a) / a * 100.
 * Returns false (n/a) when the row is unavailable, and *pct is NAN when a is 0. */
bool study_delta_of(const study_delta_t *r, double *abs, double *pct)
    __attribute__((warn_unused_result));

/* Prints the comparison as a perf-stat-like table (n/a where unavailable). */
void study_print_compare(const study_delta_t *rows, size_t nrows, const char *a_name, const char *b_name, FILE *f);

#endif /* GM_STUDY_H */
