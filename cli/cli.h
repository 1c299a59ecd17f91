/*
 * cli/cli.h — the subcommands of grothmpi, one file each (cli/cmd_<name>.c).
 * Each takes the arguments after its own name (argv[0] is the subcommand),
 * prints its output and errors itself (one clear line on stderr), and returns
 * the process exit status: 0 success, 1 failure, 2 usage error.
 */
#ifndef GM_CLI_H
#define GM_CLI_H

#include <signal.h>

int cmd_bench(int argc, char **argv);
int cmd_selfcheck(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_porep(int argc, char **argv);
/* `porep verify-seal` and `porep param-name` (cli/cmd_porep_seal.c): argv[0] is the action. */
int cmd_porep_seal(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_circuit(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_snarkjs(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_gpu(int argc, char **argv);
/* `grothmpi serve` and `grothmpi submit` (cmd_serve.c): the proving service
 * and its client (docs/serve.md). */
int cmd_serve(int argc, char **argv);
int cmd_submit(int argc, char **argv);

/* `[mpirun -np N] grothmpi campaign run CAMPAIGN [options]` and its alias
 * `grothmpi prove CAMPAIGN [options]` (cmd_campaign_run.c): argv[0] is
 * "run" or "prove"; cmd ("campaign run", "prove") begins every line
 * printed. Returns the exit status: 0, 1 failed, 2 usage (also a rank
 * whose "backend": "cuda" finds no device), 75 interrupted by a signal
 * (rerun to resume); ranks other than 0 return 0. */
int cli_campaign_run(int argc, char **argv, const char *cmd);

/* Installs the handlers of SIGTERM and SIGINT shared by campaigns and the
 * service (cmd_campaign_run.c): the first signal's number goes to the flag
 * returned (mpi_opts_t.interrupt, serve_opts_t.interrupt), a second one
 * kills at once. */
const volatile sig_atomic_t *cli_stop_signals(void);

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One option of a table-driven parser: its name and the offset of its field
 * (a const char * for a value option, an int for a flag). */
typedef struct {
    const char *name;
    size_t off;
} cli_opt_t;

#define CLI_NO_POSITIONAL SIZE_MAX

/* Reads argv[1..argc) into the struct at o: "--name value" and
 * "--name=value" of vals set their const char * field, a flag of flags sets
 * its int to 1, and (unless pos_off is CLI_NO_POSITIONAL) the first
 * argument not starting with '-' sets the const char * at pos_off. Messages
 * read "grothmpi porep <cmd>: ...". Returns 0, 2 (unknown option or a
 * missing value, printed on stderr) or -1 (--help: help(stdout) called).
 * Defined in opts.c. */
int cli_opts_parse(void *o, const cli_opt_t *vals, size_t nv, const cli_opt_t *flags, size_t nf, size_t pos_off,
                   int argc, char **argv, const char *cmd, void (*help)(FILE *));

#include <jansson.h>

#include "circuits/circuits.h"
#include "groth16/groth16.h"
#include "mpi/mpi.h"
#include "params/params.h"
#include "snarkjs/snarkjs.h"
#include "topo/topo.h"

/* ---- what the proving commands share (cli/proving.c) ---- */

/* The prover's stage rows of --verbose (abc, ntt, the five MSMs, verify),
 * one line each as "<prefix>: <stage> <seconds> s". snarkjs_names: the
 * MSMs named after the zkey's sections (msm_b1, msm_b2, msm_c) as
 * `grothmpi snarkjs prove` prints them; otherwise bellperson's (msm_b_g1,
 * msm_b_g2, msm_l). */
void cli_print_stages(const char *prefix, const groth16_timings_t *t, bool snarkjs_names);

/* --backend NAME (NULL: auto) of `prove` and `snarkjs prove`: opens the
 * backend on device 0 (early, so that cuda without a device fails before
 * any loading) and returns 0, with auto's choice in note (note_len bytes;
 * "" for the other kinds: the caller logs it, one info line, once its
 * inputs loaded, so that a bad input still gives one error line), or the
 * exit status after printing one error line prefixed by cmd: 2 for an
 * unknown name, cuda without a usable device or a malformed
 * GROTHMPI_GPU_FAULT (GM_ENODEV, GM_EINVAL), 1 otherwise. */
int cli_backend_open(groth16_backend_t **be, const char *name, const char *cmd, char *note, size_t note_len);

/* One line "<cmd>: backend NAME: units, busy, MSM/NTT time, device memory
 * peak, fallbacks, failures" for a device backend, when verbose or when it
 * failed at least once (nothing for the CPU). */
void cli_backend_summary(groth16_backend_t *be, const char *cmd, bool verbose);

/* The public inputs of w (without ONE) as a JSON array of decimal strings
 * (a new reference; NULL when out of memory). */
json_t *cli_inputs_json(const groth16_witness_t *w);

/* r = rs[0], s = rs[1] derived from seed (--proof-seed): the tau and alpha
 * of groth16_toxic_from_seed of a 32-byte seed holding `seed` (little
 * endian) and a label, so runs with one seed give one proof. For tests:
 * whoever knows r and s of a proof can recover the witness's secrets. */
void cli_proof_rs(fr_t rs[2], uint64_t seed);

/* `grothmpi prove --split`, parsed by cmd_prove (cmd_prove_split.c). */
typedef struct {
    const char *dir, *params, *out, *pub; /* the cache, its parameter file, the proof, the public inputs */
    const circuit_t *circ;
    uint64_t witness_seed;
    const uint64_t *proof_seed; /* NULL: random r, s */
    unsigned threads;
    bool trust, no_verify, verbose, json;
    bool check_params; /* --check-params: hash the parameter file whatever its stamp */
} cli_split_args_t;

/* Initialises MPI, proves one witness on every rank (mpi_split_prove);
 * rank 0 writes the public inputs, then the proof, and prints. Returns the
 * exit status: 0, or 1 on rank 0 after a failure (other ranks 0: mpirun
 * reports the job's status through rank 0, as the campaign form does). */
int cli_prove_split(const cli_split_args_t *a);

/* What every rank of a split proof makes for itself before mpi_split_prove
 * (cmd_prove_split.c): its pool, the cached shape and the seeded witness —
 * computed on each rank (cheap next to the MSMs) rather than sent, so
 * nothing of the witness crosses the network. */
typedef struct {
    topo_pool_t *pool;
    cs_shape_t *shape;
    cs_t *cs;
    groth16_witness_t w;
} cli_split_local_t;

/* Collective (MPI initialised, every rank of the world calls it): makes *l
 * (a pool of `threads`, the shape by params_shape_load(p, full), the
 * witness of c for seed) and agrees on the status over all ranks
 * (mpi_split_agree), so that a rank that failed does not leave the others
 * waiting in mpi_split_prove. Returns 0 or the lowest failing rank's status
 * (err "rank R: ..."); *l may be passed to cli_split_local_end either way. */
int cli_split_local(cli_split_local_t *l, const params_paths_t *p, const circuit_t *c, uint64_t seed, unsigned threads,
                    bool full, err_t *err) __attribute__((warn_unused_result));

/* The end of a split command on every rank: frees *l and the accounts
 * (NULL allowed), finalises MPI, and returns the exit status: 1 on rank 0
 * when rc is not 0, else 0 (mpirun reports the job's status through rank 0). */
int cli_split_local_end(cli_split_local_t *l, void *accounts, int rank, int rc);

/* `[mpirun -np R] grothmpi bench split` (cmd_bench_split.c): the arguments
 * after "bench"; returns the exit status (0, 1 on rank 0 after a failure,
 * 2 usage). */
int cmd_bench_split(int argc, char **argv);

/* The per-rank accounts of a split proof as JSON (`--split --json`):
 * {"ranks": n, "per_rank": [{rank, key_bytes, points, h_bytes, mem_peak,
 * rss_peak, load_s, abc_s, h_s, msm_s, total_s, stages: {agree, ntt,
 * reduce: {sent, recv, wait_s}}}, ...]} (a new reference; NULL when out of
 * memory). Defined in cmd_prove_split.c. */
json_t *cli_split_accounts_json(const mpi_split_rank_t *r, int n);

/* MPI for a split command (mpi_study_init): 0, or 1 after printing
 * "grothmpi: <cmd>: --split: <why>". Defined in cmd_prove_split.c. */
int cli_split_init(int *rank, int *size, const char *cmd);

/* Rank 0's output of a split command: the error line "grothmpi: <cmd>:
 * --split: <err>" on stderr when rc, else the accounts as JSON (json), else
 * `line` and, when verbose, the per-rank table (mpi_split_print). Defined in
 * cmd_prove_split.c. */
void cli_split_report(const char *cmd, int rc, const err_t *err, const mpi_split_rank_t *ranks, int size, bool json,
                      bool verbose, const char *line);

/* `grothmpi snarkjs prove --split`, parsed by cmd_snarkjs (cmd_snarkjs_split.c). */
typedef struct {
    const char *zkey, *wtns, *proof, *pub; /* inputs; proof.json and public.json written */
    const uint64_t *proof_seed;            /* NULL: random r, s */
    unsigned threads;
    bool subgroup, no_verify, verbose, json;
} cli_snarkjs_split_args_t;

/* Initialises MPI, proves the witness on every rank
 * (mpi_split_prove_snarkjs); rank 0 writes public.json, then proof.json, in
 * snarkjs's layout, and prints. Returns the exit status as cli_prove_split. */
int cli_snarkjs_prove_split(const cli_snarkjs_split_args_t *a);

#include "synth/synth.h"

/* Counts one partition of the SDR PoRep circuit of `bytes`-byte sectors
 * without building it (a counting constraint system): its configuration in
 * *cfg, its constraints, public inputs (with ONE) and auxiliary variables.
 * Returns 0 or the status of stacked_config_init (GM_EINVAL: not a sector
 * size) or of the synthesis (err says why). Defined in cmd_circuit.c. */
int cli_porep_count(uint64_t bytes, const poseidon_set_t *ps, stacked_config_t *cfg, uint64_t *nc, uint64_t *ni,
                    uint64_t *na, err_t *err) __attribute__((warn_unused_result));

#endif
