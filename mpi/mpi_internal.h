/*
 * mpi/mpi_internal.h — what the files of mpi/ share (no other folder
 * includes it): the per-rank state the three roles work on, the metrics a
 * rank sends to rank 0, and the entry points of each file.
 *
 * Files and what they own:
 *   run.c       mpi_campaign_run: MPI init, the set-up protocol (rank 0
 *               validates and broadcasts the campaign; every rank loads the
 *               parameters; one status for all), the roles, the final status.
 *   pipeline.c  the witness, prepare and finish roles and the rank state's queues.
 *   dispatch.c  the comm role: rank 0's dispatcher and writer, the other
 *               ranks' request/send loop; the message protocol.
 *   resume.c    the output directory: proof files and the journal.
 *   gather.c    a rank's metrics (stage times, counters, memory).
 *   report.c    the cluster report: JSON, text, CSV.
 *   split_campaign.c  a campaign with "split": R > 1: groups of R ranks,
 *               one unit at a time each (mpi_split_prove, or for a snarkjs
 *               sector its curve's mpi_split_prove_snarkjs*), the group
 *               leaders speaking dispatch.c's protocol.
 *   zkey_campaign.c  a "snarkjs" campaign without split: one zkey unit per
 *               rank at a time, keys kept between runs under grothmpi serve.
 */
#ifndef GM_MPI_INTERNAL_H
#define GM_MPI_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "groth16/groth16.h"
#include "jobs/jobs.h"
#include "mpi/mpi.h"
#include "params/params.h"
#include "snarkjs/snarkjs.h"
#include "topo/topo.h"

/* ---- stages and metrics ---------------------------------------------------------- */

/* The stages and counter stages (mpi.h's, which say what each times) by
 * the driver's names. */
enum {
    MR_WITNESS = MPI_STAGE_WITNESS,
    MR_ABC = MPI_STAGE_ABC,
    MR_NTT = MPI_STAGE_NTT,
    MR_MSM = MPI_STAGE_MSM,
    MR_VERIFY = MPI_STAGE_VERIFY,
    MR_PROVE = MPI_STAGE_PROVE,
    MR_IO = MPI_STAGE_IO,
    MR_WAIT = MPI_STAGE_WAIT,
    MR_NSTAGES = MPI_NSTAGES
};
enum { MR_CS_WITNESS = MPI_CSTAGE_WITNESS, MR_CS_PROVE = MPI_CSTAGE_PROVE, MR_NCS = MPI_NCSTAGES };

#define MR_MAX_EVENTS MPI_REPORT_MAX_EVENTS
#define MR_MAX_DOMAINS MPI_REPORT_MAX_DOMAINS /* >= JOBS_MAX_DOMAINS: every prepare domain has its slot */
#define MR_EV_NAME MPI_REPORT_EV_NAME
_Static_assert(MR_MAX_DOMAINS >= JOBS_MAX_DOMAINS, "a metrics slot for every prepare domain");

#define MR_MAX_GPUS MPI_REPORT_MAX_GPUS /* >= JOBS_MAX_GPUS: every finish worker has its row */
_Static_assert(MR_MAX_GPUS >= JOBS_MAX_GPUS, "a metrics row for every GPU");

/* One finish worker's device (groth16_backend_stats_t, fixed size). */
typedef struct {
    char name[64];
    uint64_t units, busy_ns, msm_ns, ntt_ns, mem_peak, fallbacks, failures;
    uint32_t retired, pad;
} mr_gpu_row_t;

/* One rank's metrics, sent to rank 0 as bytes (a homogeneous cluster: same
 * binary on every node). Times in ns. Counter values are NaN when the event
 * is not available. */
typedef struct {
    int32_t rank;
    int32_t threads;      /* MSM pool workers */
    int32_t prep_threads; /* prepare pools' workers, all domains together */
    int32_t ndomains;     /* L3 domains of the node (topo) */
    int32_t prep_domains; /* prepare domains used (resources.domains resolved) */
    int32_t domains_wanted; /* the campaign's resources.domains (0: all) */
    char topology[64];    /* topo_source of the rank's topology, truncated */
    int32_t nev;          /* events in ev_name */
    char host[64];
    char model[16];       /* topo_evset_model, "" without counters */
    uint64_t units;       /* proofs made by this rank */
    uint64_t run_ns;      /* roles start to end */
    uint64_t busy_ns;     /* first unit taken to last proof made */
    uint64_t wall_ns[MR_NSTAGES];
    uint64_t cpu_ns[MR_NSTAGES];
    uint8_t cpu_known[MR_NSTAGES];
    uint64_t params_bytes, prover_bytes, witness_bytes, unit_bytes, mem_budget;
    uint32_t inflight_max, inflight_peak;
    uint32_t depth, depth_wanted;  /* pipeline depth used, and the campaign's */
    uint64_t alloc_peak, rss_peak;
    uint64_t params_streamed, params_read; /* streamed parameters: groth16_timings_t's params_bytes, read_* */
    uint64_t load_ns;                      /* the set-up's load (run.c); 0 when resident */
    uint8_t resident;                      /* the set-up was kept from an earlier run */
    char ev_name[MR_MAX_EVENTS][MR_EV_NAME];
    uint8_t ev_avail[MR_MAX_EVENTS];
    double ev[MR_NCS][MR_MAX_EVENTS];                   /* rank totals per counter stage */
    int32_t ndom_counted;                               /* domains in ev_dom */
    char dom_cpus[MR_MAX_DOMAINS][64];
    double ev_dom[MR_MAX_DOMAINS][MR_MAX_EVENTS];       /* prove stage, per L3 domain */
    /* per prepare domain (index = L3 domain, 0..prep_domains-1): units prepared there, and
     * the wall and CPU of their groth16_prepare calls */
    int32_t dom_prep_threads[MR_MAX_DOMAINS];
    uint64_t dom_prep_units[MR_MAX_DOMAINS];
    uint64_t dom_prep_wall_ns[MR_MAX_DOMAINS];
    uint64_t dom_prep_cpu_ns[MR_MAX_DOMAINS];
    char backend[16];              /* the backend the rank proved with: cpu, cuda, emulate */
    int32_t ngpu;                  /* finish workers with a device (0 on the CPU) */
    mr_gpu_row_t gpu[MR_MAX_GPUS];
} mr_metrics_t;

/* One finish worker: a device's backend (NULL: the CPU), the prover holding
 * that device's resident bases, and the CPU pool of its G2 MSM, fallbacks
 * and checks. Worker 0 uses the rank's prover and MSM pool. */
typedef struct {
    groth16_backend_t *be;
    groth16_prover_t *prover;
    topo_pool_t *pool;
    bool own; /* prover and pool are this worker's (workers 1..) */
} mr_finisher_t;

typedef struct mr_out mr_out_t;

/* ---- the rank state ------------------------------------------------------------------ */

/* The longest proof a unit makes: a bn128 one (SNARKJS_BN_PROOF_BYTES). */
#define MR_PROOF_MAX SNARKJS_BN_PROOF_BYTES

/* A finished proof on its way to rank 0's writer. Units of parameter files
 * and BLS12-381 zkeys make 192-byte bellperson proofs (GROTH16_PROOF_BYTES),
 * bn128 zkeys 256-byte ones (snarkjs_bn_proof_to_bytes); both curves' Fr
 * elements are 32 bytes. Filled by mr_result_bls or mr_result_bn. */
typedef struct {
    uint64_t unit;
    uint32_t rank;
    uint32_t verified;   /* 1: the proving rank checked it */
    uint32_t n_pub;      /* public inputs without ONE */
    uint32_t curve;      /* snarkjs_curve_t of the proof and the public inputs */
    uint32_t proof_len;  /* bytes of proof[] used */
    uint32_t pad;
    uint8_t proof[MR_PROOF_MAX];
    uint8_t *pub;        /* n_pub * 32 bytes, Fr little-endian (malloc'd) */
} mr_result_t;

/* A synthesized witness waiting for the prepare role (prep NULL), or a
 * prepared unit waiting for the finish role (prep holds its h; cs, its z). */
typedef struct {
    size_t unit;
    cs_t *cs;
    groth16_prepared_t *prep;
} mr_ready_t;

/* The state of one rank during the campaign. The lock guards every field
 * below it; the roles wait on cv, which every change broadcasts. */
typedef struct {
    const jobs_campaign_t *c;
    int rank, size;
    int node_rank, node_size; /* this rank among its node's (MPI_COMM_TYPE_SHARED); 0 and 1 by default */
    unsigned batch;           /* k */
    unsigned depth;           /* units prepared ahead of the batch being finished */
    unsigned max_inflight;    /* witnesses alive at once: k + depth + 1 */

    /* fixed for the run, set up by run.c */
    jobs_source_t *src;
    groth16_prover_t *prover;
    const groth16_params_t *params;
    const topo_t *topo;
    topo_pool_t *pool;        /* the machine-wide MSM pool (finish) */
    /* The prepare domains: one prepare role per domain, each running
     * groth16_prepare on its domain's pool with its own prover's prepare
     * scratch (a prover runs one prepare at a time; pipeline.c). */
    unsigned nprep;                   /* domains used, 1..MR_MAX_DOMAINS */
    topo_pool_t **prep_pools;         /* [nprep]: pool of L3 domain i */
    groth16_prover_t **prep_provers;  /* [nprep]: the prover domain i prepares with */
    const topo_slot_t *prep_leaders;  /* [nprep]: where role i binds itself; NULL: unpinned */
    /* The finish workers (mr_finish_setup): one per device, or one on the
     * CPU; with several, the finish role runs them on fin_pool. */
    unsigned nfin;
    mr_finisher_t *fin;
    topo_pool_t *fin_pool;
    char backend_note[600];   /* auto's choice, "rank R: backend auto: ..." ("" otherwise) */
    topo_counters_t *ctr_pool;
    const topo_evset_t *evset;
    unsigned cstage_prove;
    const groth16_pvk_t *pvk; /* rank 0: for its own checks */
    bool rank_verifies;       /* groth16_prove verifies (policy rank or both) */

    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t *todo;             /* units given to this rank, not yet taken by the witness thread */
    size_t todo_head, todo_len, todo_cap;
    bool no_more;             /* the dispatcher has nothing more for this rank */
    bool abort;               /* stop early (an error somewhere) */
    mr_ready_t *ready;        /* max_inflight slots: witnesses, in order */
    size_t nready;
    mr_ready_t *prepared;     /* nunits slots: prepared units, in order */
    size_t nprepared;
    groth16_prepared_t **units;      /* all k + depth units (owned) */
    groth16_prepared_t **free_units; /* those not prepared, being prepared or finished */
    size_t nunits, nfree;
    unsigned inflight;        /* witnesses being made, ready, prepared or being proved */
    unsigned in_witness;      /* units taken by the witness thread, not yet in ready */
    unsigned in_prepare;      /* units being prepared */
    unsigned in_prove;        /* units being finished */
    bool witness_done, prepare_done, prover_done; /* prepare_done: every prepare role ended */
    unsigned prep_ended;      /* prepare roles that ended */
    mr_result_t *results;     /* finished, not yet handed to the comm role */
    size_t nresults;
    uint64_t results_cap;
    int fatal;                /* first error of a local role */
    err_t ferr;
    mr_metrics_t m;           /* stage sums (witness/prover add under the lock) */
    uint64_t t_start, t_first, t_last;
    topo_counters_t *ctr_witness; /* opened by the witness thread (its own) */
    unsigned cstage_witness;
} mr_state_t;

/* pipeline.c */
/* The state with k + depth prepared units of prover's size (the budget is
 * run.c's business). Returns 0 or GM_ENOMEM. */
int mr_state_init(mr_state_t *s, const jobs_campaign_t *c, int rank, int size, unsigned depth,
                  groth16_prover_t *prover, err_t *err) __attribute__((warn_unused_result));
void mr_state_free(mr_state_t *s);
/* The finish workers of the campaign's backend and resources.gpus, once
 * run.c has set s->prover, s->params, s->pool and the prepare provers: one
 * per device (each a backend, a prover with that device's resident bases and
 * a CPU pool of max(1, T / N) threads, worker 0 the rank's prover and pool),
 * or one CPU worker; the prepare provers get the devices in turn (their
 * NTTs). auto's choice goes to s->backend_note (run.c shows rank 0's as a
 * progress note; every rank's backend is in the report). Returns 0, or the
 * backend's error (cuda without a device: GM_ENODEV; resources.gpus beyond
 * the rank's share of the node's devices: GM_EINVAL), err naming the rank;
 * mr_state_free
 * undoes it either way. */
int mr_finish_setup(mr_state_t *s, const cs_shape_t *shape, err_t *err) __attribute__((warn_unused_result));
/* The devices of rank node_rank among node_size ranks on a node with
 * `visible` devices (node_size >= 1, 0 <= node_rank < node_size, visible >=
 * 1): devices first .. first + count - 1, the node's devices split into
 * contiguous, near-equal shares (count >= 1; with fewer devices than ranks,
 * neighbouring ranks share one). mr_finish_setup opens these (resources.gpus
 * of them, at most count). */
void mr_device_share(unsigned *first, unsigned *count, int node_rank, int node_size, unsigned visible);
/* What the memory budget must hold, in bytes: the parameters and the
 * prover's scratch once, each witness alive, each prepared unit (h). */
typedef struct {
    uint64_t budget;
    const char *what;   /* names the budget in messages ("--mem-budget") */
    uint64_t params, prover, witness, unit;
} mr_budget_t;
/* The pipeline depth (pipeline.c) for a batch of k: the campaign's `want`,
 * lowered to what the budget holds (fixed + (k + d + 1) witnesses + (k + d)
 * units). Returns 0 or GM_EINVAL when not even d = 0 fits (err names the
 * budget and each part). */
int mr_pipeline_depth(unsigned *depth, const mr_budget_t *b, unsigned k, unsigned want, err_t *err)
    __attribute__((warn_unused_result));
/* The prepare domains a rank uses: want (resources.domains; 0: all) of the
 * ndomains L3 domains its topology has. Returns 0, or GM_EINVAL when want
 * exceeds ndomains or MR_MAX_DOMAINS: err names the campaign file, the key,
 * the value, the rank, its host and its topology (source), so a node with
 * fewer domains than the campaign asks is named. */
int mr_prepare_domains(unsigned *n, unsigned want, unsigned ndomains, const char *file, int rank, const char *host,
                       const char *source, err_t *err) __attribute__((warn_unused_result));
/* The roles: comm, witness, finish, and one prepare role per prepare
 * domain. mr_roles_count(nprep) is both the roles pool's size and the task
 * count of its one topo_pool_run with mr_roles_task; each task claims one
 * role (mr_roles_claim). Worker 0 (the caller, which created the MSM pool,
 * so that pool's counters see it as worker 0) takes the finish role; the
 * others take comm, witness, then the prepare roles in domain order (see
 * pipeline.c). claimed and prep_claimed start at 0; nprep = s->nprep. */
typedef enum { MR_ROLE_NONE = 0, MR_ROLE_COMM = 1, MR_ROLE_WITNESS = 2, MR_ROLE_PREPARE = 4, MR_ROLE_FINISH = 8 } mr_role_t;
typedef struct {
    mr_state_t *s;
    void (*comm)(void *comm_arg);
    void *comm_arg;
    unsigned nprep;
    _Atomic unsigned claimed;      /* MR_ROLE_* bits of the single roles taken */
    _Atomic unsigned prep_claimed; /* prepare roles handed out (may pass nprep) */
} mr_roles_t;
unsigned mr_roles_count(unsigned nprep);
/* Claims the first free role in worker's order of preference; for a
 * prepare role, *prep is its domain index. MR_ROLE_NONE when every role is
 * taken (never, with mr_roles_count tasks each claiming once). Thread-safe. */
mr_role_t mr_roles_claim(mr_roles_t *r, unsigned worker, unsigned *prep);
void mr_roles_task(void *arg, size_t task, unsigned worker);
/* Units queued or in flight on this rank (lock held). */
size_t mr_pending_locked(const mr_state_t *s);
/* Records a local fatal error (first wins) and aborts the rank's roles. */
void mr_fail(mr_state_t *s, int code, const err_t *e);

/* dispatch.c: the protocol's message tags (split_campaign.c speaks it too). */
#define MR_TAG_REQ 101
#define MR_TAG_WORK 102
#define MR_TAG_RESULT 103
#define MR_TAG_ERROR 104
#define MR_TAG_DONE 105
#define MR_TAG_INTR 106
#define MR_TAG_SPLIT 107 /* split campaigns: a group leader -> 0, its ranks' mpi_split_rank_t (summed over units) */

/* dispatch.c: the comm role's context. */
typedef struct {
    mr_state_t *s;
    void *comm;               /* MPI_Comm * (this header does not include <mpi.h>) */
    const jobs_campaign_t *c;
    char host[64];
    const volatile sig_atomic_t *interrupt; /* mpi_opts_t.interrupt (may be NULL) */
    int interrupted;          /* the signal that stopped this rank (or, on rank 0, any rank); 0: none */
    /* rank 0 only */
    mr_out_t *out;
    size_t *pending;          /* units to hand out, in order */
    size_t npending, next;
    size_t local_refused;     /* rank 0's own queue length at its last "retry" (0: none) */
    bool *written;            /* per unit: written in this run */
    bool stop;                /* an error: hand out nothing more */
    int fatal;
    err_t ferr;
    mr_metrics_t *all;        /* size entries: DONE metrics by rank */
    size_t total, proved, resumed, root_verified;
    mpi_progress_fn progress;
    void *parg;
    uint64_t t0, last_progress;
    double wall_s;
    int ndone;                /* DONE messages received */
    uint64_t *units;          /* mr_root_serve's buffers (mr_root_buffers_free) */
    uint8_t *rbuf;
    size_t rbuflen;
    mpi_split_rank_t *split;  /* split campaigns: split_ranks accounts by world rank (MR_TAG_SPLIT); else NULL */
    int split_ranks;
} mr_comm_t;
void mr_comm_root(void *arg);
void mr_comm_worker(void *arg);
/* The pieces of the comm role that split_campaign.c's single-threaded loop
 * reuses (cm->s: a state with at least c, size, batch, pvk, m, mu and cv). */
/* What a request for `want` units gets: up to want units into units[], 0
 * ("no more": the list is exhausted, or the run is stopping), or MR_RETRY
 * (the requester still has requester_pending units and fewer than
 * cm->s->size * cm->s->batch are left: the tail goes to idle requesters). */
#define MR_RETRY ((size_t)-1)
size_t mr_hand_out(mr_comm_t *cm, uint64_t *units, size_t want, size_t requester_pending);
/* Rank 0: up to 64 waiting messages of other ranks handled (REQ answered,
 * RESULT checked and written, ERROR, INTR, DONE, MR_TAG_SPLIT recorded).
 * Returns whether there was any. */
bool mr_root_serve(mr_comm_t *cm);
void mr_root_buffers_free(mr_comm_t *cm);
/* Rank 0: checks (per the verify policy) and writes one of its own results,
 * unless the run is stopping on an error. */
void mr_root_local(mr_comm_t *cm, const mr_result_t *r);
/* Rank 0 of a main-thread loop (split_campaign.c, zkey_campaign.c), after
 * its own units: serves the other ranks (results, errors, requests) until
 * each of the size - 1 sent DONE, asleep 2 ms when nothing came; then
 * cm->wall_s and the last progress call. */
void mr_root_wait_done(mr_comm_t *cm, int size);
/* Rank 0: an error: hand out nothing more; the first error is the run's. */
void mr_root_fail(mr_comm_t *cm, int code, const err_t *e);
/* Rank 0: acts on its own stop request (cm->interrupt), once. */
void mr_root_check_stop(mr_comm_t *cm);
/* Rank 0: a stop request (signal sig) on some rank: hand out nothing more. */
void mr_root_interrupt(mr_comm_t *cm, int sig);
/* Rank 0: calls the progress function (every progress_interval, or now). */
void mr_progress(mr_comm_t *cm, bool force);
/* Other ranks: one result (RESULT) or error (ERROR) to rank 0 over comm (an
 * MPI_Comm *); *buf grows as needed (the caller frees it). */
void mr_send_result(void *comm, const mr_result_t *r, uint8_t **buf, size_t *buflen);
/* r as unit's result made on rank (verified: that rank checked the proof):
 * its proof's bytes and the public inputs pub[0 .. n_pub) (without ONE),
 * copied. Returns 0 or GM_ENOMEM (r->pub NULL). */
int mr_result_bls(mr_result_t *r, uint64_t unit, int rank, bool verified, const groth16_proof_t *proof,
                  const fr_t *pub, uint32_t n_pub) __attribute__((warn_unused_result));
int mr_result_bn(mr_result_t *r, uint64_t unit, int rank, bool verified, const snarkjs_bn_proof_t *proof,
                 const bn_fr_t *pub, uint32_t n_pub) __attribute__((warn_unused_result));
void mr_send_error(void *comm, const char *host, const err_t *e);

/* run.c: waits for a non-blocking collective (an MPI_Request *), asleep
 * 5 ms between tests: a blocking wait polls, and with mpi_yield_when_idle
 * that poll is a sched_yield loop billed on a core the working ranks need. */
void mr_wait_idle(void *request);

/* split_campaign.c: a campaign with "split": R > 1 (see there). */
typedef struct {
    bool zkey;                    /* a "snarkjs" campaign: each unit its sector's zkey and .wtns; the members
                                     from params_path to src are then unused */
    const char *params_path;      /* the parameter file, digested per node by run.c */
    const params_ident_t *ident;  /* this rank's copy as its node digested it (compared before each unit) */
    bool trust;                   /* no subgroup checks at all (trust_params, or the .checked stamp) */
    const cs_shape_t *shape;
    jobs_source_t *src;
    topo_pool_t *pool;
    const volatile sig_atomic_t *interrupt;
} mr_split_env_t;
/* The rank state of a split campaign: c, rank, size = the number of groups
 * (the tail rule's requesters), batch 1, the lock; mr_state_free frees it.
 * Returns 0 or GM_ENOMEM. */
int mr_split_state_init(mr_state_t *s, const jobs_campaign_t *c, int rank, int ngroups, err_t *err)
    __attribute__((warn_unused_result));
/* Phase 4 of a split campaign on every rank: the groups prove the units;
 * on rank 0, cm is set up as for mr_comm_root, plus cm->split (split_ranks
 * = the job's size entries) for the accounts, and ends as mr_comm_root does
 * (counts, errors, every rank's metrics in cm->all). */
void mr_split_run(mr_comm_t *cm, const mr_split_env_t *env);

/* zkey_campaign.c: phase 4 of a "circuit": "snarkjs" campaign on every rank
 * (see there): each rank proves one unit at a time from its sector's .zkey
 * and .wtns on cm->s->pool (the state from mr_split_state_init with one
 * group per rank); rank 0 set up and ending as for mr_comm_root. resident:
 * zkeys are taken from and left in the rank's store of kept zkeys. */
void mr_zkey_run(mr_comm_t *cm, bool resident);
/* The kept zkeys: their bytes; the use time (mr_resident_tick) of the least
 * recently used (false: none kept); freeing it; freeing all. */
uint64_t mr_zkey_kept_bytes(void);
bool mr_zkey_oldest(uint64_t *used);
void mr_zkey_evict_oldest(void);
void mr_zkey_release(void);
/* run.c: the next value of the clock both stores of kept set-ups use. */
uint64_t mr_resident_tick(void);

/* gather.c: fills s->m's identity, memory and counters (after the roles). */
void mr_metrics_finish(mr_state_t *s);

/* resume.c ---- the output directory */
/* Opens (creating) the output directory and its journal for campaign c with
 * the verifying-key digest vk_sha; marks done[u] for every unit whose journal
 * entry and files agree. Returns 0, GM_EIO, GM_EINVAL (the journal belongs
 * to another circuit or parameter set) or GM_ENOMEM. */
int mr_out_open(mr_out_t **out, const jobs_campaign_t *c, const uint8_t vk_sha[32], bool *done, size_t *ndone,
                err_t *err) __attribute__((warn_unused_result));
/* Writes unit u's proof and public inputs (decimal strings) and appends the
 * journal line. Returns 0 or GM_EIO. */
int mr_out_write(mr_out_t *o, size_t u, const uint8_t *proof, size_t proof_len, snarkjs_curve_t curve,
                 const char *pub_json, int rank, err_t *err) __attribute__((warn_unused_result));
void mr_out_close(mr_out_t *o);
/* The journal's path (for messages). */
const char *mr_out_journal_path(const mr_out_t *o);

/* check.c: a "mode": "check" campaign on every rank, after phase 2 (comm
 * is an MPI_Comm *). Returns 0 or the same non-zero code on every rank;
 * rank 0 fills res (total, proved, check_text, report_json) and err. */
int mr_check_run(const jobs_campaign_t *c, void *comm, int rank, int size, mpi_result_t *res, err_t *err)
    __attribute__((warn_unused_result));

/* report.c */
/* Builds the report from every rank's metrics (m[r] for rank r). */
int mr_report_build(mpi_report_t **out, const jobs_campaign_t *c, const mr_metrics_t *m, int size, size_t total,
                    size_t proved, size_t resumed, size_t root_verified, double wall_s, err_t *err)
    __attribute__((warn_unused_result));
/* Adds a split campaign's accounts (acc[r] for world rank r, summed over the
 * units of its group; groups of `split` consecutive ranks) as "split". The
 * text report prints them per group with mpi_split_print. Returns 0 or
 * GM_ENOMEM. */
int mr_report_add_split(mpi_report_t *r, const mpi_split_rank_t *acc, int size, int split, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_MPI_INTERNAL_H */
