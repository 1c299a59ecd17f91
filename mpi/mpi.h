/*
 * mpi/mpi.h — the rank driver: runs a proving campaign (jobs/jobs.h) on every
 * rank of an MPI job, and the cluster report it ends with; and split proofs,
 * one proof on all the ranks, each holding a slice of the key or zkey (mpi/split.c,
 * mpi/split_snarkjs.c, mpi/split_ntt.c, docs/split.md).
 *
 * This header does not include <mpi.h>: only the .c files of mpi/ do. MPI
 * runs at MPI_THREAD_SERIALIZED: at most one thread of a rank is inside MPI
 * at a time. In a campaign (mpi/run.c) the main thread makes the calls of
 * the phases before and after the units (MPI_Init_thread, which
 * mpi_campaign_run makes itself, the campaign's broadcast, the set-up's
 * gather and verdict, the report, MPI_Finalize), and the comm role
 * (mpi/dispatch.c) every call while units are handed out; the roles pool's
 * start and end order the two. Split proofs, split campaigns and check
 * campaigns (mpi/check.c) make every call from the calling thread. Run under
 * `mpirun -np N` or as a singleton.
 *
 * Conventions (besides base/base.h's):
 *  - Fallible functions return 0 or a negative gm_status_t and fill err
 *    ("<file>: <key>: <value> ..." for campaign errors, "rank 2 (host): ..."
 *    for an error on another rank).
 *  - Nothing here prints except the functions named mpi_report_print_* and
 *    mpi_split_print, and the progress callback the caller passes (called on
 *    rank 0 only).
 *  - Files (proofs, public inputs, the journal, report.json, report.csv) are
 *    written atomically: temporary name, fsync, rename, directory fsync; the
 *    journal is appended one fsynced line at a time and a torn last line is
 *    dropped when it is next opened.
 */
#ifndef GM_MPI_H
#define GM_MPI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"
#include "synth/synth.h"
#include "topo/topo.h"

/* What rank 0 reports while the campaign runs (every progress_interval
 * seconds, and once at the start and the end). */
typedef struct {
    size_t total;        /* units in the campaign */
    size_t done;         /* finished: resumed from the journal plus proved in this run */
    size_t resumed;      /* of done: found finished in the journal and files */
    size_t proved;       /* of done: proved and written in this run */
    double elapsed_s;    /* since the ranks started proving */
    double per_hour;     /* proofs per hour in this run, 0 until one is done */
    double eta_s;        /* remaining / rate; -1 when unknown */
    int ranks;
    const char *note;    /* when not NULL: a one-off line ("setup: generating ..."); the counts are stale */
} mpi_progress_t;

/* Called on rank 0 from the comm thread; must be quick. */
typedef void (*mpi_progress_fn)(void *arg, const mpi_progress_t *p);

/* Overrides of the campaign's resources (zero: keep the campaign's), and the
 * caller's stop request. */
typedef struct {
    uint64_t mem_budget; /* --mem-budget: bytes per rank */
    unsigned threads;    /* --threads: prover threads per rank */
    /* NULL, or a flag that a signal handler sets to the signal's number
     * (SIGTERM, SIGINT) to ask for a clean stop. The comm role reads it every
     * loop turn (at most 2 ms apart) once the ranks are proving; the flag is
     * only read, never written, here. See mpi_campaign_run for what a stop
     * does. */
    const volatile sig_atomic_t *interrupt;
    /* --check-params: the parameter file is hashed, every point checked and
     * the shape's every index checked, whatever the stamps say (params/). */
    bool check_params;
    /* Keep the set-up of the circuit shape (topology and pools, shape,
     * parameters, provers, rank 0's prepared vk) after a run that succeeds,
     * and take it in the next run with this flag of the same circuit,
     * parameter file and digest, threads, topology, domains and pin instead
     * of loading again (grothmpi serve: one campaign per batch). Several
     * shapes are kept, within the rank's memory budget (mem_budget, else the
     * campaign's): the least recently used are freed when another's load
     * would exceed it; a shape that alone exceeds it is kept alone. A failed
     * run frees its own; mpi_resident_release frees them all at the end.
     * Every rank must pass the same flag. Not for split or check campaigns
     * (ignored). "snarkjs" campaigns keep each rank's loaded zkeys instead,
     * in the same budget (mpi/zkey_campaign.c). */
    bool resident;
} mpi_opts_t;

/* A cluster report (below: rank 0 builds it, mpi_report_load reads it back). */
typedef struct mpi_report mpi_report_t;

/* What a run ended with. */
typedef struct {
    int rank, size;         /* this process's rank and the job's size */
    size_t total, proved, resumed;
    mpi_report_t *report;   /* rank 0 after a completed run (also after a failed one when the ranks finished); else NULL */
    char report_json[1100]; /* paths of the written report files (rank 0), "" otherwise; mode "check": check.json */
    char report_csv[1100];
    char *check_text;       /* mode "check", rank 0: the per-unit table (malloc'd; the caller frees it); else NULL */
    bool resident;          /* mpi_opts_t.resident: the shape's set-up was kept from an earlier run (not loaded) */
} mpi_result_t;

/* A campaign with "mode": "check" runs no prover: every rank checks its
 * share of the units (u = rank, rank + size, ...) in synth's CS_CHECK mode,
 * no parameters are read or made, and rank 0 writes OUT/check.json (path in
 * report_json) and fills check_text; proved counts the units that hold, and
 * the return is GM_EVERIFY (or the unit's own error) for the first that
 * does not (mpi/check.c, docs/campaign.md).
 * Runs the campaign at campaign_path on every rank of the job (every rank
 * calls it; only rank 0 reads the file, the others receive its normalized
 * text). Rank 0 validates the campaign, generates missing test parameters
 * ("setup": "auto"), reads the journal of the output directory (finished
 * units are skipped after their files are checked against it), then every
 * rank, rank 0 included, proves batches of units handed out dynamically;
 * proofs come back to rank 0, which verifies them when the policy asks,
 * writes them and appends them to the journal. With the campaign's
 * "split": R > 1 (R must divide the job's size, else GM_EINVAL naming the
 * file and the field), groups of R consecutive ranks prove one unit at a
 * time each with mpi_split_prove on the group's communicator, no batching
 * or pipelining (mpi/split_campaign.c, docs/campaign.md "Split units"); the
 * journal, resume, stop requests and the report work as below, the report
 * with the groups' split accounts. At the end the per-rank
 * metrics are gathered and rank 0 writes report.json and report.csv into
 * the output directory.
 * MPI is initialised here (MPI_THREAD_SERIALIZED) unless it already is, and
 * finalised before returning when it was initialised here.
 * Returns 0 on every rank when every unit is proved, or the same non-zero
 * code on every rank: GM_EINVAL / GM_EIO / GM_EFORMAT (a bad campaign or
 * unreadable parameters: err names file, key, value), GM_EVERIFY (a proof
 * failed rank 0's check), GM_EMPI, GM_ENOMEM, GM_ENOTSUP (an input kind not
 * available yet), GM_ECANCELED (opts->interrupt was set on some rank: see
 * below), or a prover's error ("rank 1 (h2): ..."). err's message
 * is meaningful on rank 0 (other ranks get "see rank 0"). *res is filled in
 * both cases; free res->report with mpi_report_free.
 * A stop request (opts->interrupt non-zero on any rank while proving): that
 * rank drops the units queued on it and not yet started and asks for no
 * more; rank 0 hands out nothing more (to any rank); the units whose witness
 * or proof is already being made are finished, sent, verified, written and
 * journaled as usual; then the run ends with GM_ECANCELED ("interrupted by
 * signal N: D of T units done ...; rerun to resume"). A request that arrives
 * before the ranks start proving (setup, parameter loading) takes effect
 * when they start. Rerunning the campaign resumes from the journal. */
int mpi_campaign_run(const char *campaign_path, const mpi_opts_t *opts, mpi_progress_fn progress, void *arg,
                     mpi_result_t *res, err_t *err) __attribute__((warn_unused_result));

/* Frees the set-up kept by runs with mpi_opts_t.resident (nothing kept:
 * nothing). Every rank, after its last such run, before MPI is finalised. */
void mpi_resident_release(void);

/* ---- the journal of an output directory -------------------------------------------- */

/* What OUTPUT/journal says, read without MPI (for `grothmpi campaign status`);
 * the same reader the prover resumes with, except that the proof files are
 * not hashed. */
typedef struct {
    bool exists;  /* false: no journal (the campaign has not started) */
    size_t done;  /* distinct units with a "done" line that checks */
    size_t torn;  /* lines that do not check (a torn last line after a kill) */
} mpi_journal_status_t;

/* Reads output_dir/journal into *out. A missing journal is not an error
 * (exists false). Returns 0, GM_EIO (unreadable), GM_EFORMAT (line 1 is not
 * a grothmpi journal header; err names the file), GM_EINVAL (path too long)
 * or GM_ENOMEM. */
int mpi_journal_status(mpi_journal_status_t *out, const char *output_dir, err_t *err)
    __attribute__((warn_unused_result));

/* The rank that proved unit `unit` (its file stem, "<sector id>-p<k>") by
 * output_dir/journal's last line for it that checks, in *rank; -1 when the
 * journal is missing or has no such line. Returns 0, or as
 * mpi_journal_status. */
int mpi_journal_rank(int *rank, const char *output_dir, const char *unit, err_t *err)
    __attribute__((warn_unused_result));

/* ---- the cluster report ------------------------------------------------------------
 * One typed summary of a campaign's run (docs/report.md): rank 0 builds it
 * from every rank's metrics, mpi_report_save writes it as report.json (each
 * field below is the key of the same name, in the same nesting; the split
 * accounts, mpi_split_rank_t's, are docs/report.md's "split" keys),
 * mpi_report_load reads a report.json back into it, and everything else
 * (the text and CSV printers, `grothmpi report`, studies, `grothmpi report
 * compare`) reads these fields and never the file. Times in seconds,
 * memory in bytes. A figure that could not be measured (a counter without
 * a PMU, a CPU time not taken, a rate over 0 s) is NAN here and null in
 * report.json. */

#define MPI_REPORT_FORMAT "grothmpi-report" /* report.json's "format" */
#define MPI_REPORT_VERSION 1                /* and its "version" */

/* The stages a rank's time is split into, in report.json's order. */
typedef enum {
    MPI_STAGE_WITNESS = 0, /* witness synthesis (witness thread) */
    MPI_STAGE_ABC,         /* a, b, c = A z, B z, C z (groth16_prepare, prepare pool) */
    MPI_STAGE_NTT,         /* h by NTTs (groth16_prepare, prepare pool) */
    MPI_STAGE_MSM,         /* the five MSMs and the assembly (groth16_finish, MSM pool) */
    MPI_STAGE_VERIFY,      /* verification: the rank's own (inside groth16_finish) plus rank 0's */
    MPI_STAGE_PROVE,       /* groth16_prepare + groth16_finish as a whole (abc + ntt + msm + rank verify) */
    MPI_STAGE_IO,          /* proof files and journal (rank 0), MPI sends and receives (all) */
    MPI_STAGE_WAIT,        /* the prover idle, waiting for witnesses or work */
    MPI_NSTAGES
} mpi_stage_t;

/* report.json's stage names: "witness", "abc", "ntt", "msm", "verify",
 * "prove", "io", "wait" (its "stages" array, and the keys of every
 * "stages" object). */
extern const char *const mpi_stage_names[MPI_NSTAGES];

/* The counter stages: the witness thread's own counters, and the prover
 * pool's (msm and verify). */
typedef enum { MPI_CSTAGE_WITNESS = 0, MPI_CSTAGE_PROVE, MPI_NCSTAGES } mpi_cstage_t;

/* Their names, the keys of every "counters" and "derived" object:
 * "witness", "prove". */
extern const char *const mpi_cstage_names[MPI_NCSTAGES];

/* The events the report knows by name: its derived ratios use
 * instructions, cycles and the L1D and dTLB misses; studies and `grothmpi
 * report compare` the branches and fills too. A report holds
 * whichever events its ranks counted (topo/'s set, GROTHMPI_EVENTS), so
 * each may be absent from one (mpi_report_event). */
typedef enum {
    MPI_EVENT_INSTRUCTIONS = 0,
    MPI_EVENT_CYCLES,
    MPI_EVENT_BRANCHES,
    MPI_EVENT_BRANCH_MISSES,
    MPI_EVENT_L1D_MISSES,    /* L1-dcache-load-misses: the L2 accesses of loads */
    MPI_EVENT_DTLB_MISSES,   /* dTLB-load-misses */
    MPI_EVENT_FILL_L2,       /* ls_dmnd_fills_from_sys.local_l2: L1 fills from L2 */
    MPI_EVENT_FILL_CCX,      /* ls_dmnd_fills_from_sys.local_ccx: fills from the local L3/CCX */
    MPI_EVENT_FILL_REMOTE,   /* ls_dmnd_fills_from_sys.remote_cache: another CCX */
    MPI_EVENT_FILL_DRAM,     /* ls_dmnd_fills_from_sys.dram_io_all */
    MPI_NEVENTS
} mpi_event_t;

/* Their names as report.json (and topo/'s event sets) spell them. */
extern const char *const mpi_event_names[MPI_NEVENTS];

#define MPI_REPORT_MAX_EVENTS 16  /* events of one rank */
#define MPI_REPORT_EV_NAME 48     /* an event's name, NUL included */
#define MPI_REPORT_MAX_DOMAINS 64 /* counted L3 domains, and prepare domains, of one rank */
#define MPI_REPORT_MAX_GPUS 16    /* finish workers with a device, of one rank */

/* A list of event names; a counters array is indexed like it. */
typedef struct {
    unsigned n;
    char name[MPI_REPORT_MAX_EVENTS][MPI_REPORT_EV_NAME];
} mpi_report_events_t;

typedef struct {
    double wall_s, cpu_s; /* cpu_s NAN: not measured */
} mpi_report_time_t;

/* Ratios of a counter stage; NAN without the events. */
typedef struct {
    double ipc, l1d_miss_pki, dtlb_miss_pki;
} mpi_report_derived_t;

/* One counted L3 domain of a rank's MSM pool, stage prove. */
typedef struct {
    uint32_t domain;
    char cpus[64];
    double counters[MPI_REPORT_MAX_EVENTS]; /* by the rank's events */
    mpi_report_derived_t derived;
} mpi_report_domain_t;

/* One prepare domain: its pool's workers, the units prepared there, the
 * wall and CPU of their groth16_prepare calls. */
typedef struct {
    uint32_t domain, threads;
    uint64_t units;
    double wall_s, cpu_s;
} mpi_report_prepare_t;

/* One finish worker's device. */
typedef struct {
    char device[64];
    uint64_t units;
    double busy_s, msm_s, ntt_s;
    uint64_t mem_peak_bytes, fallbacks, failures;
    bool retired;
} mpi_report_gpu_t;

typedef struct {
    uint64_t budget_bytes, params_bytes, prover_bytes, witness_bytes, unit_bytes;
    uint32_t inflight_max, inflight_peak;
    uint64_t alloc_peak_bytes, rss_peak_bytes;
    /* streamed parameters (0 otherwise): bytes of points the MSMs used, and
     * the bytes the rank read from storage while they ran */
    uint64_t params_streamed_bytes, params_read_bytes;
} mpi_report_memory_t;

/* One rank (docs/report.md, ranks[]). */
typedef struct {
    int32_t rank;
    char host[64];
    uint32_t threads, l3_domains, prepare_threads, prepare_domains, domains_wanted;
    char topology[64];
    uint32_t pipeline_depth, pipeline_depth_wanted;
    uint64_t units;
    double busy_s, run_s, proofs_per_hour;
    /* Seconds this run spent loading the shape's set-up (topology, pools,
     * shape, parameters, provers); 0 when it was resident (mpi_opts_t). */
    double load_s;
    bool resident;
    mpi_report_memory_t memory;
    mpi_report_time_t stages[MPI_NSTAGES];
    /* The events this rank counted (the keys of its counters objects; rank
     * 0's are the report's events, another rank's may differ). */
    mpi_report_events_t events;
    double counters[MPI_NCSTAGES][MPI_REPORT_MAX_EVENTS];
    mpi_report_derived_t derived[MPI_NCSTAGES];
    unsigned ndomains;
    mpi_report_domain_t domains[MPI_REPORT_MAX_DOMAINS];
    unsigned nprepare;
    mpi_report_prepare_t prepare[MPI_REPORT_MAX_DOMAINS];
    char backend[16];
    unsigned ngpus;
    mpi_report_gpu_t gpus[MPI_REPORT_MAX_GPUS];
} mpi_report_rank_t;

struct mpi_report {
    struct {
        char name[64], file[1024], circuit[64], verify[8], output[1024];
        uint64_t sectors, units;
        uint32_t partitions, batch_size;
    } campaign;
    mpi_report_events_t events; /* the events of the tables and totals */
    char counter_model[16];     /* "zen4", "spr", "generic" or "none" */
    unsigned nranks;
    mpi_report_rank_t *ranks;   /* nranks, in rank order */
    struct {
        int32_t ranks;
        double wall_s;
        uint64_t proved, resumed, verified_by_root, gpu_fallbacks;
        double proofs_per_hour, load_imbalance;
        uint64_t units_per_rank_min, units_per_rank_max;
    } run;
    struct {
        mpi_report_time_t stages[MPI_NSTAGES];
        double counters[MPI_NCSTAGES][MPI_REPORT_MAX_EVENTS]; /* by events */
        double busy_s_max, busy_s_mean;
        uint64_t alloc_peak_bytes_max, rss_peak_bytes_max;
    } totals;
    /* A split campaign's accounts (report.json's "split"); ranks_per_group 0
     * and nsplit 0 otherwise (no "split" key). split[i].rank is i; a rank's
     * group is rank / ranks_per_group. */
    int32_t split_ranks_per_group, split_groups;
    unsigned nsplit;
    struct mpi_split_rank *split; /* mpi_split_rank_t, below */
};

/* Reads a report.json (docs/report.md) into *out (free it with
 * mpi_report_free). Keys the summary does not hold are ignored (a version
 * may gain keys); every key it holds must be there with its type. Returns
 * 0, GM_EIO (cannot open), GM_ENOMEM, or GM_EFORMAT with err naming the
 * file and the key: not JSON (line and column), not a grothmpi report of
 * version 1 ("format", "version"), or one key missing or of the wrong type
 * ("r.json: ranks[1].memory.rss_peak_bytes: missing", "... : not a
 * number"). *out is NULL on failure. */
int mpi_report_load(mpi_report_t **out, const char *path, err_t *err) __attribute__((warn_unused_result));

/* The cluster total of event e in counter stage cs: NAN when the report's
 * events lack it or a rank could not count it. */
double mpi_report_event(const mpi_report_t *r, mpi_cstage_t cs, mpi_event_t e);

/* Writes the report as JSON to path (atomically). Returns 0, GM_EIO or GM_ENOMEM. */
int mpi_report_save(const mpi_report_t *r, const char *path, err_t *err) __attribute__((warn_unused_result));

/* Writes the report as CSV to path (atomically). Returns 0, GM_EIO or GM_ENOMEM. */
int mpi_report_save_csv(const mpi_report_t *r, const char *path, err_t *err) __attribute__((warn_unused_result));

/* Prints the text tables (summary, per rank, per stage, per L3 domain) / the
 * CSV (one row per rank and stage, then the cluster totals) to f. */
void mpi_report_print_text(const mpi_report_t *r, FILE *f);
void mpi_report_print_csv(const mpi_report_t *r, FILE *f);

/* Frees a report with its ranks and split arrays (free: a report put
 * together by hand has them from malloc); NULL allowed. */
void mpi_report_free(mpi_report_t *r);

/* ---- several runs in one process (grothmpi study; mpi/study_hook.c) ----------------- */

/* Initialises MPI (MPI_THREAD_SERIALIZED) unless it already is, so that
 * mpi_campaign_run neither initialises nor finalises it and can be called
 * again; writes this process's rank and the job's size. Main thread, before
 * any other thread starts. Returns 0 or GM_EMPI. */
int mpi_study_init(int *rank, int *size, err_t *err) __attribute__((warn_unused_result));

/* Finalises MPI when it is initialised and not yet finalised (after the last
 * mpi_campaign_run). */
void mpi_study_finalize(void);

/* Broadcasts n bytes of buf from rank 0 of MPI_COMM_WORLD to every rank
 * (collective: every rank calls it, main thread, between campaign runs).
 * A rank that waits sleeps between tests of the request (5 ms), so ranks
 * waiting for rank 0's next command (grothmpi serve) take no CPU. MPI must
 * be initialised (mpi_study_init). Returns 0 or GM_EMPI. */
int mpi_study_bcast(void *buf, size_t n, err_t *err) __attribute__((warn_unused_result));

/* ---- one proof split over the ranks (mpi/split.c) --------------------------------------
 * `grothmpi prove --split`: the R ranks of the job prove one witness
 * together. Each rank reads and checks only part [lo, hi) of each of the
 * five queries of the parameter file (groth16_params_load_slice), computes
 * the five partial MSMs over its parts (the scalars of A and B picked
 * through the query densities), and the partial sums (4 G1 + 1 G2 Jacobian
 * points per rank) are gathered to rank 0, which adds them, assembles the
 * proof with the same r, s as a one-rank proof (groth16_proof_assemble),
 * so the bytes are those of `grothmpi prove` with the same randomness, and
 * verifies it. h is split too: each rank computes its rows of a, b, c from
 * the shape (cs_shape_abc_rows) and the seven NTTs run split over the
 * ranks (mpi_split_ntt_transform below), leaving each rank the slice of h
 * its H points need. Every rank holds the shape and computes the whole
 * witness itself (cheap next to the MSMs; nothing about it crosses the
 * network).
 * MPI must be initialised (mpi_study_init) and every rank of the job's
 * communicator (MPI_COMM_WORLD by default; a campaign's group of ranks)
 * calls mpi_split_prove with the same circuit and witness. */

/* Network stages of a split proof, for the per-rank counts. */
typedef enum {
    MPI_SPLIT_AGREE = 0, /* the status after each local stage, and r, s from rank 0 */
    MPI_SPLIT_NTT,       /* the all-to-alls of the seven NTTs of h (21 of them) */
    MPI_SPLIT_REDUCE,    /* the partial MSM sums to rank 0 */
    MPI_SPLIT_COEFS,     /* a zkey: the section-4 entries to the ranks of their rows (two all-to-alls) */
    MPI_SPLIT_NSTAGES
} mpi_split_stage_t;

/* Names of the stages for reports: "agree", "ntt", "reduce", "coefs". */
extern const char *const mpi_split_stage_names[MPI_SPLIT_NSTAGES];

/* One rank's account of a split proof. Times in ns; bytes as this rank's
 * MPI calls sent and received (a collective's own relaying not counted). */
typedef struct mpi_split_rank {
    int32_t rank;
    uint64_t key_bytes;          /* decoded key held: the slices' points, the vk's ic (a zkey: also its rows' section-4 entries) */
    uint64_t points;             /* of which query points: sum of hi - lo over the five queries */
    uint64_t coefs_read;         /* a zkey: the section-4 entries this rank decoded (its share by index) */
    uint64_t mem_peak, rss_peak; /* gm_mem_peak, gm_rss_peak at the end */
    uint64_t ntt_bytes;          /* the h stage's buffers: a, b, c slices and the NTT's own */
    uint64_t load_ns, abc_ns, h_ns, msm_ns, total_ns; /* h_ns: the NTTs and pointwise passes */
    uint64_t sent[MPI_SPLIT_NSTAGES], recv[MPI_SPLIT_NSTAGES];
    uint64_t wait_ns[MPI_SPLIT_NSTAGES]; /* wall time inside this stage's MPI calls */
} mpi_split_rank_t;

typedef struct {
    const char *params_path;       /* the parameter file, the same path on every rank */
    const cs_shape_t *shape;       /* the circuit's recorded shape */
    const groth16_witness_t *w;    /* this rank's copy of the witness (the same on every rank) */
    const fr_t *rs;                /* r = rs[0], s = rs[1]; NULL: rank 0 draws them and sends them */
    groth16_load_flags_t load_flags;
    groth16_prove_flags_t prove_flags;
    topo_pool_t *pool;             /* this rank's workers (NULL: the calling thread) */
    const void *comm;              /* an MPI_Comm * of the ranks proving together (NULL: MPI_COMM_WORLD);
                                      a void * because this header does not include <mpi.h> */
} mpi_split_job_t;

/* Proves job->w split over the ranks of job->comm. On rank 0, *proof
 * receives the proof (verified unless GROTH16_PROVE_NO_VERIFY) and *ranks a
 * malloc'd array of one mpi_split_rank_t per rank, in rank order (free it);
 * on other ranks *proof is untouched and *ranks NULL. Returns the same code
 * on every rank: 0, or the first failing rank's code (by rank): that
 * rank's groth16_params_load_slice or groth16_prepare errors, GM_ENOMEM,
 * GM_EVERIFY (the assembled proof fails rank 0's check), GM_ESYS
 * (getrandom), GM_EMPI; err reads "rank 2: <message>" on every rank. A rank
 * that dies aborts the MPI job (Open MPI's default): rank 0 never returns
 * a proof then. */
int mpi_split_prove(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_job_t *job, err_t *err)
    __attribute__((warn_unused_result));

/* `grothmpi snarkjs prove --split` (mpi/split_snarkjs.c): one proof of a
 * zkey and a .wtns on the ranks of comm, the same driver as
 * mpi_split_prove's. Each rank reads (snarkjs_zkey_load_slice) part
 * [lo, hi) of each of the zkey's point sections (A, B1, B2, C, H) and of
 * section 4's entries by index (SNARKJS_ZKEY_COEF_SHARE), which the ranks
 * then exchange (counts by MPI_Alltoall, entries by MPI_Alltoallv, stage
 * "coefs") so each holds the entries of its rows of the domain; from the .wtns
 * (snarkjs_wtns_open) only the values it needs: its A/B slice of z, its C
 * slice (z past the public inputs), the values its rows' entries name, and
 * on rank 0 the public inputs. h is snarkjs's (odd coset, no division by
 * Z), its NTTs split as above, then put in snarkjs's order of the H
 * points by one more all-to-all (mpi_split_ntt_odd_permute). Rank 0
 * assembles the proof with r, s (groth16_proof_assemble, the same point as
 * snarkjs_prove's) and checks it like snarkjs_prove (subgroup, then the
 * zkey's vk and the public inputs) unless GROTH16_PROVE_NO_VERIFY. */
typedef struct {
    const char *zkey_path, *wtns_path; /* the same paths on every rank */
    const fr_t *rs;                    /* as mpi_split_job_t's */
    const bn_fr_t *bn_rs;              /* the same for a bn128 zkey (mpi_split_prove_snarkjs_bn) */
    snarkjs_zkey_flags_t zkey_flags;   /* SNARKJS_ZKEY_SUBGROUP: the slices' points checked for the subgroup */
    groth16_prove_flags_t prove_flags;
    topo_pool_t *pool;
    const void *comm;                  /* as mpi_split_job_t's */
} mpi_split_snarkjs_job_t;

/* As mpi_split_prove, and on rank 0 *pub receives the public inputs
 * (w[1 .. nPublic], gm_alloc'd: gm_free it) and *n_pub their count (other
 * ranks: NULL, 0). Errors: snarkjs_zkey_load_slice's and
 * snarkjs_wtns_open/values' (a witness whose count is not the zkey's nVars:
 * GM_EINVAL naming both files), GM_ENOMEM, GM_EVERIFY, GM_ESYS, GM_EMPI,
 * "rank R: " first on every rank. */
int mpi_split_prove_snarkjs(groth16_proof_t *proof, fr_t **pub, size_t *n_pub, mpi_split_rank_t **ranks,
                            const mpi_split_snarkjs_job_t *job, err_t *err) __attribute__((warn_unused_result));
/* The same for a bn128 zkey (mpi/split_snarkjs_bn.c, one body with the
 * above): snarkjs_bn_zkey_load_slice, snarkjs_bn_wtns_open, BN254's split
 * NTT with no permutation of h (snarkjs's roots are ours), job->bn_rs, and
 * the check of snarkjs_bn_prove (B in G2, snarkjs_bn_verify). The proof's
 * bytes are snarkjs_bn_prove's with the same r and s. */
int mpi_split_prove_snarkjs_bn(snarkjs_bn_proof_t *proof, bn_fr_t **pub, size_t *n_pub, mpi_split_rank_t **ranks,
                               const mpi_split_snarkjs_job_t *job, err_t *err) __attribute__((warn_unused_result));

/* One status for all ranks of comm (an MPI_Comm *, NULL: MPI_COMM_WORLD;
 * collective: every rank of it calls it): 0 when rc is 0 on every rank, else the lowest failing rank's rc with
 * err = "rank R: <its message>" on every rank, or GM_EMPI. For the steps a
 * caller takes on every rank before mpi_split_prove (its shape, its
 * witness), so that a failure on one rank stops all of them. */
int mpi_split_agree(const void *comm, int rc, err_t *err) __attribute__((warn_unused_result));

/* ---- the NTT of a vector spread over the ranks (mpi/split_ntt.c) ----
 * The vector of N = 2^log_n values is held in natural slices: rank r holds
 * [lo, hi) with lo = (N-1)·r/R, hi = (N-1)·(r+1)/R, except that the last
 * rank's hi is N (so the slices of N - 1 values are groth16_slice_range's,
 * those of the H query). A transform is the six-step algorithm: three
 * all-to-all exchanges, each element crossing the network at most three
 * times (3 · 32 · N/R · (R-1)/R bytes sent per rank per transform), and the
 * column and row NTTs (length about sqrt N) of ntt/ntt.h on the pool. The
 * results are those of ntt/ntt.h's transforms of the whole vector, slice
 * for slice. */
typedef enum {
    MPI_SPLIT_NTT_FORWARD = 0,  /* ntt_forward */
    MPI_SPLIT_NTT_INVERSE,      /* ntt_inverse */
    MPI_SPLIT_NTT_COSET_FORWARD,/* ntt_coset_forward */
    MPI_SPLIT_NTT_COSET_INVERSE /* ntt_coset_inverse */
} mpi_split_ntt_kind_t;

/* The all-to-all a transform calls (collective over the ranks): rank me
 * sends send[sdispl[r] .. + scount[r]) to each rank r (itself included) and
 * receives recv[rdispl[r] .. + rcount[r]) from each rank r; counts in
 * elements. mpi/split.c's is MPI_Alltoallv; a test may run the ranks as
 * threads. Returns 0 or a status (err set). */
typedef int (*mpi_split_exchange_fn)(void *arg, const fr_t *send, const uint64_t *scount, const uint64_t *sdispl,
                                     fr_t *recv, const uint64_t *rcount, const uint64_t *rdispl, err_t *err);

typedef struct mpi_split_ntt mpi_split_ntt_t;

/* A transform of 2^log_n values (2 <= log_n <= 28) for rank `rank` of
 * `nranks`, with scratch for pools of up to nworkers workers. Returns 0,
 * GM_EINVAL (sizes) or GM_ENOMEM; *out NULL on failure. */
int mpi_split_ntt_create(mpi_split_ntt_t **out, unsigned log_n, unsigned rank, unsigned nranks, unsigned nworkers,
                         err_t *err) __attribute__((warn_unused_result));
void mpi_split_ntt_destroy(mpi_split_ntt_t *t); /* NULL allowed */

/* The coset of the COSET kinds: g·<w> (g non-zero, GM_ASSERT); FR_GENERATOR
 * (ntt/ntt.h's) until set. snarkjs's h uses the odd coset, g = w_2N
 * (fr_root_of_unity(log_n + 1)). */
void mpi_split_ntt_set_coset(mpi_split_ntt_t *t, const fr_t *g);

/* This rank's natural slice [*lo, *hi). */
void mpi_split_ntt_range(const mpi_split_ntt_t *t, uint64_t *lo, uint64_t *hi);

/* Bytes the transform holds (three buffers of the largest share, scratch). */
size_t mpi_split_ntt_memory(const mpi_split_ntt_t *t);

/* Transforms the distributed vector in place: v is this rank's natural
 * slice (hi - lo reduced Fr values). Every rank calls it with the same
 * kind; ex is called three times. pool no larger than nworkers (NULL: the
 * calling thread). Returns 0 or ex's status (v undefined then). */
int mpi_split_ntt_transform(mpi_split_ntt_t *t, fr_t *v, mpi_split_ntt_kind_t kind, mpi_split_exchange_fn ex,
                            void *ex_arg, topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));

/* Redistributes a vector of the odd coset into another order: with v this
 * rank's natural slice of V, out[i - lo] = V[k] with 2k + 1 = mult·(2i + 1)
 * mod 2N (mult odd, GM_ASSERT: a permutation of the odd residues), for i in
 * this rank's slice [lo, hi) = groth16_slice_range(N, rank, nranks) — the
 * slices of an N-point query. snarkjs's h: V on our coset order, mult =
 * SNARKJS_ROOT_EXP, out in snarkjs's order for its H points
 * (snarkjs/prove.c). out holds hi - lo values; one call of ex (collective).
 * Returns 0 or ex's status. */
int mpi_split_ntt_odd_permute(mpi_split_ntt_t *t, fr_t *out, const fr_t *v, uint64_t mult, mpi_split_exchange_fn ex,
                              void *ex_arg, err_t *err) __attribute__((warn_unused_result));

/* The same transform over BN254's Fr (mpi/split_ntt_bn.c, the one body of
 * mpi/split_ntt_shape.h): every function below has the contract of its
 * mpi_split_ntt_* namesake, with bn_fr_t values, BN254_FR_GENERATOR the
 * coset until set, and bn_fr_root_of_unity's roots, which are snarkjs's on
 * bn128 (so snarkjs's h needs no permutation there: mult 1). */
typedef int (*mpi_split_bn_exchange_fn)(void *arg, const bn_fr_t *send, const uint64_t *scount,
                                        const uint64_t *sdispl, bn_fr_t *recv, const uint64_t *rcount,
                                        const uint64_t *rdispl, err_t *err);
typedef struct mpi_split_bn_ntt mpi_split_bn_ntt_t;
int mpi_split_bn_ntt_create(mpi_split_bn_ntt_t **out, unsigned log_n, unsigned rank, unsigned nranks,
                            unsigned nworkers, err_t *err) __attribute__((warn_unused_result));
void mpi_split_bn_ntt_destroy(mpi_split_bn_ntt_t *t);
void mpi_split_bn_ntt_set_coset(mpi_split_bn_ntt_t *t, const bn_fr_t *g);
void mpi_split_bn_ntt_range(const mpi_split_bn_ntt_t *t, uint64_t *lo, uint64_t *hi);
size_t mpi_split_bn_ntt_memory(const mpi_split_bn_ntt_t *t);
int mpi_split_bn_ntt_transform(mpi_split_bn_ntt_t *t, bn_fr_t *v, mpi_split_ntt_kind_t kind,
                               mpi_split_bn_exchange_fn ex, void *ex_arg, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
int mpi_split_bn_ntt_odd_permute(mpi_split_bn_ntt_t *t, bn_fr_t *out, const bn_fr_t *v, uint64_t mult,
                                 mpi_split_bn_exchange_fn ex, void *ex_arg, err_t *err)
    __attribute__((warn_unused_result));

/* Prints the per-rank table of a split proof (rank 0's *ranks, n entries). */
void mpi_split_print(const mpi_split_rank_t *ranks, int n, FILE *f);

/* ---- per-node work of a split proof (mpi/split_node.c) ---- */

/* Collective over comm (an MPI_Comm *, NULL: MPI_COMM_WORLD): *leader is
 * true on the lowest rank of comm on each shared-memory node
 * (MPI_COMM_TYPE_SHARED) and false elsewhere, so that whole-file work (the
 * parameter digest) runs once per node; its status is then agreed over all
 * of comm with mpi_split_agree. Returns 0 or GM_EMPI (*leader false). */
int mpi_split_node_leader(const void *comm, bool *leader, err_t *err) __attribute__((warn_unused_result));

/* As mpi_split_agree, but a rank that arrives early sleeps (a barrier
 * tested every millisecond) instead of spinning inside the collective: for
 * ranks that wait while another works alone on cores they share (`grothmpi
 * bench split`'s unsplit reference proof). Returns as mpi_split_agree, or
 * GM_EMPI. */
int mpi_split_agree_idle(const void *comm, int rc, err_t *err) __attribute__((warn_unused_result));

#endif /* GM_MPI_H */
