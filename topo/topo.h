/*
 * topo/topo.h — topology (hwloc), L3-domain thread pools and pinning, and
 * hardware counters (libpfm4 + perf_event_open). The only folder that pins
 * threads or includes hwloc or libpfm4, and the only one that calls
 * pthread_create: every pool of the library is a topo_pool_t. The one other
 * place that starts threads is gpu/gpu_emu.cc, the host emulation of a
 * device launch, which splits a large launch over short-lived, unpinned
 * std::threads of its own (GROTHMPI_EMU_THREADS), standing in for the
 * device's threads rather than for a CPU pool.
 *
 * Conventions (besides base/base.h's):
 *  - Fallible functions return 0 or a negative gm_status_t and fill err_t with
 *    a message naming the thing ("--topology: synthetic string 'x': ...").
 *  - Objects are opaque, created by *_create / topo_load into an out pointer
 *    (NULL after a failure) and freed by the matching *_destroy (NULL allowed).
 *  - Indices are logical (0..count-1 in topology order) unless a field says
 *    "OS index" (the kernel's CPU or NUMA number).
 *  - An "L3 domain" is a set of cores sharing one last-level cache: an AMD
 *    CCD/CCX, an Intel sub-NUMA cluster (an L3 split by NUMA nodes), or, when
 *    the topology shows no L3, a NUMA node, else a package.
 *  - Thread safety: a loaded topo_t is read-only and may be queried from any
 *    thread; a pool is driven by one thread at a time; a counter set is
 *    driven (stage/begin/end/read) by one thread at a time.
 *  - Nothing here prints; cli/cmd_topo.c prints the map and the plan.
 *
 * Environment: GROTHMPI_EVENTS (read by topo_evset_create when names is NULL).
 */
#ifndef GM_TOPO_H
#define GM_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/base.h"

/* ---- thread pools -------------------------------------------------------------- */

/* A fixed set of worker threads. The calling thread of topo_pool_run takes
 * part as worker 0, so a pool of n workers starts n - 1 threads. */
typedef struct topo_pool topo_pool_t;

/* One task of a parallel loop: task in [0, ntasks), worker in [0, pool size),
 * unique among the workers running at the same moment (use it to index
 * per-worker scratch). */
typedef void (*topo_task_fn)(void *arg, size_t task, unsigned worker);

/* Creates a machine-wide pool of nthreads workers (0: one per online CPU),
 * not pinned. Returns 0, GM_ENOMEM or GM_ESYS (pthread_create failed; err
 * says why). *out is NULL on failure. */
int topo_pool_create_flat(topo_pool_t **out, unsigned nthreads, err_t *err)
    __attribute__((warn_unused_result));

/* Runs fn(arg, t, w) for every t in [0, ntasks) on the pool's workers, tasks
 * handed out dynamically in increasing order, and returns when all are done.
 * ntasks may be 0. Not reentrant: a task must not call topo_pool_run on the
 * same pool. pool may be NULL: then everything runs on the caller as worker 0. */
void topo_pool_run(topo_pool_t *pool, size_t ntasks, topo_task_fn fn, void *arg);

/* Number of workers (>= 1; 1 for a NULL pool). */
unsigned topo_pool_size(const topo_pool_t *pool);

/* CPU nanoseconds used so far by the threads the pool started
 * (CLOCK_THREAD_CPUTIME_ID of each, summed), not by the caller that runs as
 * worker 0 of its jobs: add the caller's own gm_thread_cpu_ns for that. The
 * difference of two calls around a job is the job's CPU on the pool's
 * threads (plus whatever else they ran meanwhile: nothing, since a pool runs
 * one job at a time). 0 for a NULL pool; a thread whose clock cannot be
 * read counts 0. Thread-safe. */
uint64_t topo_pool_cpu_ns(const topo_pool_t *pool);

/* Stops and joins the workers; NULL is allowed. */
void topo_pool_destroy(topo_pool_t *pool);


/* ---- topology ---------------------------------------------------------------- */

/* A loaded topology: this machine, a synthetic description or an XML file,
 * with its L3 domains, cores, PUs, NUMA nodes and GPUs extracted once. */
typedef struct topo topo_t;

/* Loads a topology. spec:
 *   NULL, "" or "this"   this machine (hwloc discovery, I/O devices included);
 *   "synthetic:DESC"     hwloc synthetic description, e.g. the 7995WX
 *                        "pack:1 numa:1(memory=256GiB) l3:12(size=32MiB) l2:8
 *                        l1d:1 l1i:1 core:1 pu:2(indexes=2*96:1*2)";
 *   "xml:FILE"           an hwloc XML export (lstopo -f file.xml, topo_export_xml).
 *                        hwloc does not validate an XML's sets and can crash
 *                        on a malformed file, so the file is first loaded in
 *                        a forked child process (one fork, a second parse);
 *                        if the child dies or hangs (60 s) the answer is
 *                        GM_EFORMAT "hwloc could not load it (crashed ...)".
 * Only "this" topologies can bind threads (see topo_is_this_system); the
 * others are for planning on any machine. For "this", hwloc's own variables
 * (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_THISSYSTEM) apply as hwloc documents
 * them; prefer the spec, which does not leak into mpirun.
 * Returns 0, or
 *   GM_EINVAL   spec has an unknown prefix (message lists the accepted ones);
 *   GM_EFORMAT  hwloc rejected the synthetic string or the XML file's content
 *               (or crashed or hung on it), or the topology has no core;
 *   GM_EIO      the XML file cannot be read (errno text in the message);
 *   GM_ENOMEM   out of memory;
 *   GM_ESYS     hwloc_topology_init/load failed on this machine.
 * *out is NULL on failure. */
int topo_load(topo_t **out, const char *spec, err_t *err) __attribute__((warn_unused_result));

/* Frees a topology; NULL is allowed. Pools created from it must be destroyed
 * first (they do not reference it, but their plan came from it). */
void topo_destroy(topo_t *t);

/* 1 when the topology describes the running machine (hwloc_topology_is_thissystem),
 * so binding is real; 0 for synthetic and XML topologies. */
int topo_is_this_system(const topo_t *t);

/* The spec it was loaded from, normalised ("this", "synthetic:...", "xml:FILE"). */
const char *topo_source(const topo_t *t);

/* Object counts of the whole topology. */
unsigned topo_package_count(const topo_t *t);
unsigned topo_numa_count(const topo_t *t);
unsigned topo_l3_count(const topo_t *t); /* L3 domains, as defined above; >= 1 */
unsigned topo_core_count(const topo_t *t);
/* The PUs (hardware threads) of the cores: the sum of topo_core_t.npus,
 * counted from the cores' cpusets as the cores and domains count them, not
 * from hwloc's PU objects. The two agree on any real machine; an XML whose
 * PU objects disagree with its cpusets (a torn PU element) thus still gives
 * counts that add up. */
unsigned topo_pu_count(const topo_t *t);
unsigned topo_gpu_count(const topo_t *t);

/* The largest CPU list text topo_*_get writes ("0-7,96-103"). */
#define TOPO_CPULIST_LEN 256

/* Kinds of L3 domain (what the domain is made of). */
typedef enum {
    TOPO_DOMAIN_L3 = 0,      /* one L3 cache (AMD CCD/CCX, Intel package without SNC) */
    TOPO_DOMAIN_L3_NUMA = 1, /* an L3 cache cut by NUMA nodes (Intel sub-NUMA cluster) */
    TOPO_DOMAIN_NUMA = 2,    /* no L3 in the topology: a NUMA node */
    TOPO_DOMAIN_PACKAGE = 3, /* no L3 and no NUMA node: a package (or the machine) */
} topo_domain_kind_t;

/* One L3 domain. */
typedef struct {
    unsigned index;           /* 0..topo_l3_count-1 */
    topo_domain_kind_t kind;
    unsigned package;         /* logical index of its package (0 if none) */
    int numa;                 /* logical index of its (first) NUMA node, -1 if none */
    unsigned first_core;      /* its cores are first_core .. first_core+ncores-1 */
    unsigned ncores;
    unsigned npus;
    uint64_t l3_bytes;        /* size of its L3, 0 when unknown or not an L3 */
    char cpus[TOPO_CPULIST_LEN]; /* its PUs' OS indexes as a list, "0-7,96-103" */
} topo_domain_t;

/* Fills *out with domain i. i must be < topo_l3_count (checked by GM_ASSERT). */
void topo_domain_get(const topo_t *t, unsigned i, topo_domain_t *out);

/* One core. Cores are numbered so that each domain's cores are contiguous. */
typedef struct {
    unsigned index;      /* 0..topo_core_count-1, domain-major */
    unsigned domain;     /* its L3 domain */
    int numa;            /* its NUMA node's logical index, -1 if none */
    unsigned npus;       /* hardware threads */
    int first_cpu;       /* OS index of its first PU */
    char cpus[64];       /* its PUs' OS indexes, "0,96" (truncated past 63 chars) */
} topo_core_t;

/* Fills *out with core i. i must be < topo_core_count. */
void topo_core_get(const topo_t *t, unsigned i, topo_core_t *out);

/* One GPU (hwloc OS device of type GPU or CoProcessor: CUDA, NVML, OpenCL,
 * DRM; needs the topology to carry I/O devices, which this system's does). */
typedef struct {
    unsigned index;          /* 0..topo_gpu_count-1 */
    char name[64];           /* OS device name: "cuda0", "nvml0", "card0", ... */
    char model[96];          /* GPUModel / PCI device name when known, else "" */
    char pci[16];            /* PCI bus id "0000:41:00.0", "" when unknown */
    int numa;                /* logical index of the nearest NUMA node, -1 if unknown */
    unsigned domain;         /* the L3 domain the feeder thread goes to */
    char cpus[TOPO_CPULIST_LEN]; /* the CPUs local to it */
} topo_gpu_t;

/* Fills *out with GPU i. i must be < topo_gpu_count. */
void topo_gpu_get(const topo_t *t, unsigned i, topo_gpu_t *out);

/* Writes the topology as hwloc XML to path, atomically (gm_file_write).
 * Returns 0, GM_EIO (the write or rename failed; the message names the path)
 * or GM_ESYS (hwloc could not export). */
int topo_export_xml(const topo_t *t, const char *path, err_t *err) __attribute__((warn_unused_result));

/* ---- pools on a topology --------------------------------------------------- */

/* How pools built from a topology place their workers. Zero is the portable
 * default: one worker per core, not pinned, runs on any machine. */
typedef enum {
    TOPO_POOL_DEFAULT = 0,
    /* Pin each worker to the PUs of its own core. Only on this system
     * (topo_is_this_system); elsewhere creation fails with GM_ENOTSUP. Worker 0
     * is the caller of topo_pool_run and keeps its own binding, except in a
     * topo_domains_t, whose leaders are pinned like every other worker. */
    TOPO_POOL_PIN = 1 << 0,
    /* Pin each worker to the whole L3 domain of its core instead of the core
     * (the OS balances inside the domain). Same restriction as TOPO_POOL_PIN;
     * wins over it when both are set. */
    TOPO_POOL_PIN_DOMAIN = 1 << 1,
    /* One worker per PU (hardware thread) instead of one per core. */
    TOPO_POOL_SMT = 1 << 2,
} topo_pool_flags_t;

/* One worker's place in a plan. */
typedef struct {
    unsigned domain;  /* L3 domain */
    unsigned core;    /* core index (topo_core_get) */
    int cpu;          /* OS index of the PU it runs on (first PU of the core
                         unless TOPO_POOL_SMT) */
    char cpus[64];    /* what it would be bound to, as an OS-index list */
} topo_slot_t;

/* Where every thread goes: per-domain synthesis pools, the machine-wide
 * MSM/NTT pool and one GPU feeder per GPU. Plain data, freed by topo_plan_free. */
typedef struct {
    topo_pool_flags_t flags;
    unsigned ndomains;
    unsigned *domain_first; /* ndomains + 1 offsets into synth */
    topo_slot_t *synth;     /* domain-major; synth[domain_first[d]] leads domain d */
    unsigned nsynth;
    topo_slot_t *msm;       /* the machine-wide pool, worker order */
    unsigned nmsm;
    topo_slot_t *gpu_feeder; /* one per GPU: a core in the GPU's NUMA node, else 0 */
    unsigned ngpus;
} topo_plan_t;

/* Computes the plan for t with flags (TOPO_POOL_PIN* only change the cpus
 * text: the plan is the same whether or not it can be applied here). Works on
 * any topology. Returns 0 or GM_ENOMEM; *plan is zeroed on failure. */
int topo_plan_make(topo_plan_t *plan, const topo_t *t, topo_pool_flags_t flags, err_t *err)
    __attribute__((warn_unused_result));

/* Frees a plan's arrays; a zeroed plan is allowed. */
void topo_plan_free(topo_plan_t *plan);

/* Creates the pool of one L3 domain: one worker per core (per PU with
 * TOPO_POOL_SMT) of domain `domain`, worker w on the domain's w-th core.
 * Returns 0, GM_ENOTSUP (pinning asked for on a topology that is not this
 * system), GM_ENOMEM, GM_ESYS (a thread could not start or be pinned). */
int topo_pool_create_domain(topo_pool_t **out, const topo_t *t, unsigned domain,
                            topo_pool_flags_t flags, err_t *err) __attribute__((warn_unused_result));

/* Creates the machine-wide pool used by MSM and NTT: one worker per core (per
 * PU with TOPO_POOL_SMT), in domain order. Same returns as
 * topo_pool_create_domain. */
int topo_pool_create_machine(topo_pool_t **out, const topo_t *t, topo_pool_flags_t flags,
                             err_t *err) __attribute__((warn_unused_result));

/* The L3 domain a pool was created for; -1 for machine-wide, flat or NULL pools. */
int topo_pool_domain(const topo_pool_t *pool);

/* Binds the calling thread to a slot of a plan (e.g. the GPU feeder).
 * Returns 0, GM_ENOTSUP (t is not this system: nothing bound), GM_ESYS
 * (the kernel refused; message names the CPUs). */
int topo_bind_self(const topo_t *t, const topo_slot_t *slot, err_t *err)
    __attribute__((warn_unused_result));

/* ---- the pool of pools ------------------------------------------------------ */

/* One pool per L3 domain and one leader thread per domain; each work unit is
 * handed to one domain, whose leader runs it as worker 0 of its domain pool. */
typedef struct topo_domains topo_domains_t;

/* A work unit: unit in [0, nunits), domain the L3 domain it runs in, pool that
 * domain's pool (the function uses it with topo_pool_run). */
typedef void (*topo_unit_fn)(void *arg, size_t unit, unsigned domain, topo_pool_t *pool);

/* Creates the domain pools of t (all domains) and their leaders. With
 * TOPO_POOL_PIN/PIN_DOMAIN every thread, leaders included, is pinned.
 * Returns as topo_pool_create_domain. */
int topo_domains_create(topo_domains_t **out, const topo_t *t, topo_pool_flags_t flags,
                        err_t *err) __attribute__((warn_unused_result));

/* Runs fn for each unit in [0, nunits), units handed out dynamically to the
 * first free domain, and returns when all are done (the caller only waits).
 * nunits may be 0. d may be NULL: units run one by one on the caller with a
 * NULL pool and domain 0. Not reentrant. */
void topo_domains_run(topo_domains_t *d, size_t nunits, topo_unit_fn fn, void *arg);

/* Number of domains (1 for NULL) and the pool of domain i (NULL for a NULL d). */
unsigned topo_domains_count(const topo_domains_t *d);
topo_pool_t *topo_domains_pool(topo_domains_t *d, unsigned i);

/* Stops and joins every thread; NULL is allowed. */
void topo_domains_destroy(topo_domains_t *d);

/* ---- hardware counters ---------------------------------------------------- */

/* An event set: names resolved to perf_event_open encodings (libpfm4, or the
 * built-in raw table for the model-specific defaults when libpfm4 does not
 * recognise the CPU). */
typedef struct topo_evset topo_evset_t;

/* Most events in one set. */
#define TOPO_MAX_EVENTS 32

/* Resolves an event set. names: comma-separated event names as libpfm4 takes
 * them ("instructions", "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS",
 * "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS") or names of the built-in table
 * ("ls_dmnd_fills_from_sys.local_ccx", "ocr.demand_data_rd.l3_miss"; see
 * docs/topo.md); NULL means $GROTHMPI_EVENTS when set, else the default set
 * for this CPU: instructions, cycles, branches, branch-misses,
 * L1-dcache-load-misses, dTLB-load-misses, then per model the L2 TLB misses
 * and L3 fill events (Zen 4: demand fills from local L2, local CCX, other
 * CCX, DRAM; Sapphire/Emerald Rapids: LLC misses, OCR demand-data L3 misses).
 * The software events task-clock, page-faults and context-switches are always
 * appended when not listed.
 * Returns 0, or GM_EINVAL (a name is unknown, empty, or there are more than
 * TOPO_MAX_EVENTS: the message names the event and where the list came from,
 * "GROTHMPI_EVENTS: event 'foo': not found"), GM_ENOMEM, GM_ESYS (libpfm4
 * failed to initialise). */
int topo_evset_create(topo_evset_t **out, const char *names, err_t *err)
    __attribute__((warn_unused_result));

void topo_evset_destroy(topo_evset_t *es);

/* Number of events, and event i's name as given (or the default's name). */
unsigned topo_evset_count(const topo_evset_t *es);
const char *topo_evset_name(const topo_evset_t *es, unsigned i);

/* The CPU model the default set was chosen for: "zen4", "spr" (Sapphire or
 * Emerald Rapids) or "generic". */
const char *topo_evset_model(const topo_evset_t *es);

/* Counters opened for a set of threads, read at stage boundaries. */
typedef struct topo_counters topo_counters_t;

/* Most stages per counter set. */
#define TOPO_MAX_STAGES 32

/* Opens es's events for each thread of pool (worker 0 is the thread that
 * created the pool, or the caller for a NULL pool) / of every pool and leader
 * of d / of the calling thread only. Events are opened per thread (pid = tid,
 * user mode), hardware events in groups of at most 4, software events alone.
 * An event the kernel refuses with ENOENT, ENODEV, EOPNOTSUPP, EACCES, EPERM
 * or EINVAL is marked not available and everything else works; that is the
 * case of every hardware event on a machine without a PMU.
 * Returns 0, GM_ENOMEM, GM_ESYS (another perf_event_open error, e.g. EMFILE;
 * message names the event and errno). */
int topo_counters_open_pool(topo_counters_t **out, const topo_evset_t *es, const topo_pool_t *pool,
                            err_t *err) __attribute__((warn_unused_result));
int topo_counters_open_domains(topo_counters_t **out, const topo_evset_t *es,
                               const topo_domains_t *d, err_t *err) __attribute__((warn_unused_result));
int topo_counters_open_self(topo_counters_t **out, const topo_evset_t *es, err_t *err)
    __attribute__((warn_unused_result));

/* Closes the counters; NULL is allowed. */
void topo_counters_destroy(topo_counters_t *c);

/* Finds or adds the stage called name ("witness", "abc", "ntt", "msm", ...)
 * and writes its id. Returns 0 or GM_EINVAL (already TOPO_MAX_STAGES stages,
 * or an empty name). */
int topo_counters_stage(topo_counters_t *c, const char *name, unsigned *id, err_t *err)
    __attribute__((warn_unused_result));

/* Stage markers: begin reads every thread's counters; end reads them again
 * and adds the differences to the stage's totals. A stage may be begun and
 * ended many times (the totals add up); stages may overlap. end without a
 * matching begin is a bug (GM_ASSERT). */
void topo_counters_begin(topo_counters_t *c, unsigned stage);
void topo_counters_end(topo_counters_t *c, unsigned stage);

/* Number of stages and domains, and stage id's name. Domain -1 of the read
 * functions means the sum over all threads (the rank). */
unsigned topo_counters_nstages(const topo_counters_t *c);
unsigned topo_counters_ndomains(const topo_counters_t *c);
const char *topo_counters_stage_name(const topo_counters_t *c, unsigned stage);

/* Whether event ev could be opened (1) or reads "not available" (0). */
int topo_counters_available(const topo_counters_t *c, unsigned ev);

/* The total of event ev over a stage, summed over domain's threads (-1: all),
 * scaled for multiplexing (value * time_enabled / time_running). Returns 0, or
 * GM_ENOTSUP when the event is not available (then *value is 0). */
int topo_counters_value(const topo_counters_t *c, unsigned stage, int domain, unsigned ev,
                        double *value) __attribute__((warn_unused_result));

/* Writes a perf-stat-like table of a stage for domain (-1: all threads) into
 * buf (always NUL-terminated when len > 0): one line per event with its value
 * or "not available", then derived ratios when their inputs are available
 * (IPC, branch miss %, L1D misses per kilo-instruction, and the fill mix:
 * % of L1D fills from local L2 / local CCX / other CCX / DRAM, or LLC and
 * OCR misses per kilo-instruction). Returns the length the full text needs
 * (as snprintf), so a caller can retry with a larger buffer. */
size_t topo_counters_format(const topo_counters_t *c, unsigned stage, int domain, char *buf,
                            size_t len);

#endif /* GM_TOPO_H */
