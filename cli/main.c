/* cli/main.c — the grothmpi command: set-up, then one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "ff/ff.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} commands[] = {
    {"selfcheck", cmd_selfcheck, "check the arithmetic against built-in known answers"},
    {"bench", cmd_bench, "benchmarks: field, msm, ntt (see grothmpi bench --help)"},
    {"topo", cmd_topo, "the machine's topology and the thread plan"},
    {"porep", cmd_porep, "Filecoin SDR PoRep: parent cache, porep_id, graph parents"},
    {"setup", cmd_setup, "test Groth16 parameters for a built-in circuit, cached by circuit id"},
    {"params", cmd_params, "parameter files: digest, verify against manifest.json or Filecoin's parameters.json"},
    {"prove", cmd_prove, "Groth16 proofs of a circuit against cached parameters (prove CAMPAIGN: campaign run)"},
    {"verify", cmd_verify, "verify Groth16 proofs against a verifying key and public inputs"},
    {"circuit", cmd_circuit, "circuit facts: constraint counts (info), cached matrices (shape)"},
    {"campaign", cmd_campaign, "campaigns: run one (under mpirun or alone), info, split into a Slurm job array, status"},
    {"snarkjs", cmd_snarkjs, "circom/snarkjs files: prove from .zkey + .wtns, verify proof.json"},
    {"study", cmd_study, "scaling studies: sweep threads, domains, pin, batch, ranks; plots (docs/study.md)"},
    {"report", cmd_report, "print a saved cluster report (report.json) as text tables or CSV"},
    {"serve", cmd_serve, "the proving service: prove the jobs of a spool directory (serve status SPOOL: its state)"},
    {"submit", cmd_submit, "put a job into a proving service's spool (--wait: until its proof is done)"},
    {"gpu", cmd_gpu, "GPU: the device memory plan of a PoRep partition on a card of a given size"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'grothmpi <command> --help' describes each command.\n"
               "Environment: GROTHMPI_LOG=error|warn|info|debug, "
               "GROTHMPI_FF_PATH=portable|adx (field kernels; default: by CPUID),\n"
               "GROTHMPI_FR_X8=off (the NTT's Fr on scalar kernels; default: 8-lane AVX-512 IFMA\n"
               "where the CPU has it).\n");
}

int main(int argc, char **argv)
{
    gm_log_init();
    if (ff_init(FF_PATH_AUTO) != 0) {
        fprintf(stderr, "grothmpi: GROTHMPI_FF_PATH=adx asked for, but this CPU lacks BMI2/ADX\n");
        return 1;
    }
    /* The NTT's Fr path, decided here before any pool starts (FR_X8_AUTO
     * reads GROTHMPI_FR_X8 and CPUID; it cannot fail). */
    if (fr_x8_init(FR_X8_AUTO) != 0)
        return 1;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "grothmpi: unknown command '%s' (grothmpi --help lists them)\n", argv[1]);
    return 2;
}
