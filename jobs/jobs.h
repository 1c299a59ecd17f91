/*
 * jobs/jobs.h — proving campaigns: the campaign file (JSON; docs/campaign.md
 * is the user's page), its validation, the work units it expands to, and the
 * unit source that turns one unit into a witness.
 *
 * Conventions (besides base/base.h's):
 *  - Fallible functions return 0 or a negative gm_status_t and fill err with
 *    "<file>: <key>: <value> <what is wrong>", e.g.
 *    "demo.json: batch_size: 0 is not in 1..64". Unknown keys are errors.
 *  - A campaign is plain data after jobs_campaign_load / _parse: read-only,
 *    shareable between threads; freed by jobs_campaign_free.
 *  - Work units: a campaign of S sectors of P partitions has S * P units,
 *    numbered partition-major: unit u is partition u / S of sector u % S, so
 *    any k <= S consecutive units belong to k different sectors (that is what
 *    makes a dispatched batch a cross-sector batch).
 *  - A unit source (jobs_source_t) is driven by one thread at a time.
 *  - Nothing here prints, starts threads or touches MPI.
 */
#ifndef GM_JOBS_H
#define GM_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "circuits/circuits.h"

#define JOBS_MAX_SECTORS 100000
#define JOBS_MAX_PARTITIONS 64
#define JOBS_MAX_BATCH 64
#define JOBS_MAX_DOMAINS 64 /* resources.domains: 0..64 */
#define JOBS_MAX_GPUS 16    /* resources.gpus: 0..16 */
#define JOBS_MAX_SPLIT 4096 /* split: 1..4096 ranks per unit */
#define JOBS_ID_LEN 64   /* sector ids and the campaign name: 1..63 of [A-Za-z0-9._-] */
#define JOBS_PATH_LEN 1024

/* Who checks each proof before it is written. Every proof is checked by at
 * least one of them. */
typedef enum {
    JOBS_VERIFY_RANK = 0, /* the proving rank (groth16_prove's own check); the default */
    JOBS_VERIFY_ROOT = 1, /* rank 0, after the proof bytes arrive (ranks skip theirs) */
    JOBS_VERIFY_BOTH = 2, /* both */
} jobs_verify_t;

/* Where a sector's witnesses come from. */
typedef enum {
    JOBS_SOURCE_TEST = 0,   /* a built-in test circuit, deterministic witness per unit seed */
    JOBS_SOURCE_SEALED = 1, /* porep: a directory written by `grothmpi porep seal` */
    JOBS_SOURCE_C1 = 2,     /* porep: a C1 (SealCommitPhase1Output) JSON file */
    JOBS_SOURCE_ZKEY = 3,   /* snarkjs: a .zkey and a .wtns (one unit; proved by mpi/zkey_campaign.c) */
} jobs_source_kind_t;

typedef struct {
    char id[JOBS_ID_LEN];      /* names its proof files */
    jobs_source_kind_t kind;
    uint64_t seed;             /* TEST: the sector's witness seed */
    char path[JOBS_PATH_LEN];  /* SEALED / C1 / ZKEY (the .zkey): absolute (resolved against the campaign's directory) */
    char wtns[JOBS_PATH_LEN];  /* ZKEY: the .wtns, absolute */
} jobs_sector_t;

/* What a campaign does with each unit. */
typedef enum {
    JOBS_MODE_PROVE = 0, /* "prove": witness, prover, proof files, journal, report */
    JOBS_MODE_CHECK = 1, /* "check": each witness in synth's CS_CHECK mode (no parameters, no
                          * matrices): every constraint evaluated; OUT/check.json */
} jobs_mode_t;

typedef struct {
    char name[JOBS_ID_LEN];
    char file[JOBS_PATH_LEN];       /* where it was read from (messages), "" when parsed from text */
    jobs_mode_t mode;
    circuit_t circuit;      /* id is the parameter cache key ("snarkjs" for zkey campaigns: no cache) */
    /* "circuit": "snarkjs": every sector a JOBS_SOURCE_ZKEY ({"id", "zkey",
     * "wtns"}), one unit each, each with its own key; no parameter cache,
     * partitions 1, verify "rank". */
    bool zkey;
    char params_dir[JOBS_PATH_LEN]; /* absolute */
    bool setup_auto;                /* "setup": "auto": generate missing parameters (test setup) */
    bool has_setup_seed;
    uint8_t setup_seed[GROTH16_SEED_BYTES];
    bool trust_params;
    jobs_sector_t *sectors;
    size_t nsectors;
    unsigned partitions;
    uint64_t units;                 /* "units": only the first N units (a trial of a large campaign); 0: all */
    unsigned batch_size;
    unsigned pipeline_depth;        /* units prepared ahead of the batch in its MSMs, 0..64; default batch_size */
    char output[JOBS_PATH_LEN];     /* absolute */
    jobs_verify_t verify;
    unsigned threads;               /* 0: the node's cores shared among its ranks */
    uint64_t mem_budget;            /* bytes; 0: from the node's RAM */
    bool pin;
    /* resources.domains: the L3 domains whose prepare pools a rank uses (one
     * pool and one unit in preparation per domain; mpi/pipeline.c). 0: every
     * domain of the node's topology; N: the first N (a rank whose node has
     * fewer refuses the campaign at set-up, naming this key). */
    unsigned domains;
    /* resources.topology: the topology the rank plans its pools on: "this"
     * (the machine, the default), "synthetic:DESC" or "xml:FILE" (topo_load's
     * specs; an xml path is made absolute against the campaign's directory).
     * Anything but "this" splits the machine's CPUs as described, unpinned:
     * for tests and studies on machines without the domains. */
    char topology[JOBS_PATH_LEN];
    double progress_interval;       /* seconds; 0: no progress lines */
    /* "backend": where the G1 MSMs and NTTs run (groth16.h's backends):
     * auto (the default: CUDA when a device answers, else the CPU), cpu,
     * cuda (a rank without a device fails the campaign), emulate. */
    groth16_backend_kind_t backend;
    /* resources.gpus: finish workers per rank, one per device, each with its
     * own resident bases. 0 (the default): every visible CUDA device
     * (CUDA_VISIBLE_DEVICES applied), one emulated device for emulate; N:
     * devices 0..N-1 (emulate: N emulated devices). Ignored for cpu. */
    unsigned gpus;
    /* "split": ranks per unit (default 1: each rank proves whole units).
     * R > 1: the job's P ranks form P / R groups of R consecutive ranks,
     * each proving one unit at a time split over its ranks (mpi_split_prove;
     * docs/split.md); only with mode "prove" and backend auto or cpu. That
     * R divides P is checked when the job's size is known (mpi/run.c). */
    unsigned split;
} jobs_campaign_t;

typedef enum {
    JOBS_PARSE_DEFAULT = 0,
    /* Do not check that sealed directories and C1 files exist (a rank that
     * receives rank 0's normalized campaign: rank 0 checked them). */
    JOBS_PARSE_NO_FILES = 1 << 0,
} jobs_parse_flags_t;

/* Reads and validates a campaign file; relative paths in it are resolved
 * against the file's directory. Returns 0, GM_EIO (unreadable), GM_EFORMAT
 * (not JSON: err has the line and column), GM_EINVAL (a missing, unknown or
 * bad key, a sector file that does not exist; err names file, key, value).
 * *out is zeroed on failure (jobs_campaign_free accepts it). */
int jobs_campaign_load(jobs_campaign_t *out, const char *path, jobs_parse_flags_t flags, err_t *err)
    __attribute__((warn_unused_result));

/* As jobs_campaign_load from JSON text; `what` names it in messages and
 * base_dir resolves relative paths (NULL: the working directory). */
int jobs_campaign_parse(jobs_campaign_t *out, const char *text, const char *what, const char *base_dir,
                        jobs_parse_flags_t flags, err_t *err) __attribute__((warn_unused_result));

/* The campaign as normalized JSON text (every key, absolute paths, sectors
 * as an explicit array), which jobs_campaign_parse reads back to an equal
 * campaign. malloc'd (free it); NULL when out of memory. */
char *jobs_campaign_to_text(const jobs_campaign_t *c) __attribute__((warn_unused_result));

/* Frees the sector array and zeroes *c; NULL allowed. */
void jobs_campaign_free(jobs_campaign_t *c);

/* Number of work units: nsectors * partitions, or the campaign's "units" when set. */
size_t jobs_unit_count(const jobs_campaign_t *c);

/* A unit's place: the sector index and the partition. u < jobs_unit_count. */
typedef struct {
    size_t sector;
    unsigned partition;
} jobs_unit_t;
jobs_unit_t jobs_unit_get(const jobs_campaign_t *c, size_t u);

/* The witness seed of a test-circuit unit: a fixed mix of the sector's seed
 * and the partition, so a unit's public inputs do not depend on which rank
 * proves it or when. */
uint64_t jobs_unit_seed(uint64_t sector_seed, unsigned partition);

/* A unit's file stem: "<sector id>-p<partition>" (buffer of JOBS_ID_LEN + 16). */
void jobs_unit_name(char *buf, size_t n, const jobs_campaign_t *c, size_t u);

/* Parses a byte size: digits, optionally followed by KiB, MiB, GiB or TiB.
 * `what` names the source ("x.json: resources.mem_budget"). Returns 0 or
 * GM_EINVAL. */
int jobs_size_parse(uint64_t *out, const char *s, const char *what, err_t *err) __attribute__((warn_unused_result));

/* ---- Slurm array splits (split.c) --------------------------------------------------
 *
 * A campaign as N task campaigns DIR/task-0000.json .. task-<N-1>.json for a
 * Slurm job array, with the manifest DIR/split.json (docs/slurm.md). Task i
 * proves sectors [i S / N, (i + 1) S / N) of the S sectors into
 * OUTPUT/task-<i>, with its own journal, every other key unchanged. */

#define JOBS_SPLIT_MAX_TASKS 10000 /* task-NNNN.json; Slurm's MaxArraySize is 1001 by default */
#define JOBS_SPLIT_MANIFEST "split.json"

/* Flags of jobs_split_write; 0 refuses to replace a different split. */
typedef enum {
    JOBS_SPLIT_FORCE = 1, /* replace a different split of DIR (even one whose tasks have started) */
} jobs_split_flags_t;

/* The number of tasks for --tasks N (tasks, per 0) or --sectors-per-task K
 * (per, tasks 0) of campaign c. Returns 0, or GM_EINVAL (more tasks than
 * sectors, or more than JOBS_SPLIT_MAX_TASKS; err says which). */
int jobs_split_plan(unsigned *ntasks, const jobs_campaign_t *c, unsigned tasks, unsigned per, err_t *err)
    __attribute__((warn_unused_result));

/* Writes the split of campaign c (read from path, named in messages) into
 * dir (created when missing): every task file, each checked to read back as
 * a campaign, then the manifest last, each atomically; task files of an
 * earlier, larger split are removed. The same split again rewrites the same
 * files. With "setup": "auto" and no setup_seed, c gets one seed for every
 * task: task 0's when dir already holds this split, else a random one.
 * ntasks from jobs_split_plan. Returns 0, GM_ESTATE (dir holds another
 * split, or a split.json that does not parse, and flags lack
 * JOBS_SPLIT_FORCE), GM_EINVAL (the output path leaves no room for
 * /task-NNNN), GM_EIO or GM_ENOMEM; err names the file. */
int jobs_split_write(jobs_campaign_t *c, const char *path, const char *dir, unsigned ntasks, unsigned flags,
                     err_t *err) __attribute__((warn_unused_result));

/* One task of a split manifest. */
typedef struct {
    char file[64];                      /* "task-0000.json" */
    char output[JOBS_PATH_LEN + 16];    /* its output directory ("" when the manifest has none) */
    size_t units;
} jobs_split_task_t;

/* Reads dir/split.json's tasks into *out (n of them; gm_free it). Returns
 * 0, GM_EFORMAT (missing, not JSON or no task_list: err names the file) or
 * GM_ENOMEM; *out is NULL after a failure. */
int jobs_split_tasks_read(jobs_split_task_t **out, size_t *n, const char *dir, err_t *err)
    __attribute__((warn_unused_result));

/* ---- unit sources -------------------------------------------------------------- */

/* Turns work units into witnesses. One implementation per jobs_source_kind_t:
 * TEST (the built-in test circuits, deterministic per-unit witnesses), and
 * SEALED / C1 (PoRep partitions: the C1 of a `grothmpi porep seal` directory
 * derived with the sector's seed, or read from a SealCommitPhase1Output file;
 * each rank caches the C1s and graphs of its last few sectors). */
typedef struct jobs_source jobs_source_t;

/* Opens the source of campaign c (c must outlive it). Returns 0, GM_ENOMEM,
 * GM_ENOTSUP (a "snarkjs" campaign: no synthesis), or another status with err naming the campaign, the sector and the key. */
int jobs_source_open(jobs_source_t **out, const jobs_campaign_t *c, err_t *err) __attribute__((warn_unused_result));

/* Synthesizes unit u's witness into a new CS_WITNESS cs_t (*out; the caller
 * reads it with groth16_witness_of, or cs_input_values / cs_aux_values, and
 * destroys it). PoRep units are synthesized compact (CS_FLAG_COMPACT: their
 * aux values through cs_aux_compact, cs_aux_values NULL), test circuits
 * dense; jobs_source_witness_compact says which. Returns 0,
 * GM_EINVAL (u out of range), GM_ENOTSUP, GM_ENOMEM or synth's errors, err
 * naming the unit ("sector s01 partition 1: ..."). */
int jobs_source_witness(jobs_source_t *s, size_t u, cs_t **out, err_t *err) __attribute__((warn_unused_result));
/* Whether campaign c's witnesses come compact from jobs_source_witness (for
 * the memory budget). */
bool jobs_source_witness_compact(const jobs_campaign_t *c);

/* As jobs_source_witness in synth's CS_CHECK mode: every constraint is
 * evaluated as it is enforced (no shape, no parameters); the caller asks
 * cs_is_satisfied. PoRep units' public inputs are compared with the derived
 * ones as for a witness. Returns as jobs_source_witness. */
int jobs_source_check(jobs_source_t *s, size_t u, cs_t **out, err_t *err) __attribute__((warn_unused_result));

/* Closes the source; NULL allowed. */
void jobs_source_close(jobs_source_t *s);

#endif /* GM_JOBS_H */
