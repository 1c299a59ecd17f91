/*
 * cli/cli.h — the subcommands of grothmpi, one file each (cli/cmd_<name>.c).
 * Each takes the arguments after its own name (argv[0] is the subcommand),
 * prints its output and errors itself (one clear line on stderr), and returns
 * the process exit status: 0 success, 1 failure, 2 usage error.
 */
#ifndef GM_CLI_H
#define GM_CLI_H

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
 * Defined in cmd_porep.c. */
int cli_opts_parse(void *o, const cli_opt_t *vals, size_t nv, const cli_opt_t *flags, size_t nf, size_t pos_off,
                   int argc, char **argv, const char *cmd, void (*help)(FILE *));

#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

/* The prover's stage rows of --verbose (abc, ntt, the five MSMs, verify),
 * one line each as "<prefix>: <stage> <seconds> s". snarkjs_names: the
 * MSMs named after the zkey's sections (msm_b1, msm_b2, msm_c) as
 * `grothmpi snarkjs prove` prints them; otherwise bellperson's (msm_b_g1,
 * msm_b_g2, msm_l). Defined in cmd_prove.c. */
void cli_print_stages(const char *prefix, const groth16_timings_t *t, bool snarkjs_names);

/* --backend NAME (NULL: auto) of `prove` and `snarkjs prove`: opens the
 * backend on device 0 (early, so that cuda without a device fails before
 * any loading) and returns 0, with auto's choice in note (note_len bytes;
 * "" for the other kinds: the caller logs it, one info line, once its
 * inputs loaded, so that a bad input still gives one error line), or the
 * exit status after printing one error line prefixed by cmd: 2 for an
 * unknown name, cuda without a usable device or a malformed
 * GROTHMPI_GPU_FAULT, 1 otherwise. Defined in cmd_prove.c. */
int cli_backend_open(groth16_backend_t **be, const char *name, const char *cmd, char *note, size_t note_len);

/* One line "<cmd>: backend NAME: units, busy, MSM/NTT time, device memory
 * peak, fallbacks, failures" for a device backend, when verbose or when it
 * failed at least once (nothing for the CPU). Defined in cmd_prove.c. */
void cli_backend_summary(groth16_backend_t *be, const char *cmd, bool verbose);

#endif
