/*
 * bench/bench.h — the benchmark programs behind `grothmpi bench <name>`, one
 * file each (bench/<name>_bench.c). They measure and print; they never
 * assert. Each takes the arguments after its name and returns an exit status.
 *
 * Reporting convention: min and median of N runs, in per-operation units, with
 * the ratio to the peer figure where one exists, and the machine and code path.
 */
#ifndef GM_BENCH_H
#define GM_BENCH_H

#include <stddef.h>
#include <stdint.h>

int bench_field_main(int argc, char **argv);
int bench_msm_main(int argc, char **argv);
int bench_ntt_main(int argc, char **argv);
int bench_poseidon_main(int argc, char **argv);
int bench_prove_main(int argc, char **argv);
int bench_synth_main(int argc, char **argv);

/* Helpers shared by the benchmarks (bench/bench_util.c). */

#include <stdbool.h>

/* The options every benchmark takes. */
typedef struct {
    bool quick;          /* --quick: small sizes, for a smoke run */
    int runs;            /* --runs R, 1..1000 */
    unsigned threads;    /* --threads N, 1..1024 */
} bench_opts_t;

/* Parses --quick, --runs R, --threads N and --help into *o (which holds the
 * defaults on entry). help is the text printed for --help. Returns 0 to go
 * on, 1 when --help was printed (exit 0), or 2 after printing one usage error
 * naming the benchmark, the option and the value (exit 2). */
int bench_parse_opts(bench_opts_t *o, int argc, char **argv, const char *name, const char *help);

/* Sorts v[0..n) and returns the median; v[0] is then the minimum. */
double bench_median(double *v, size_t n);
/* Prints the line "cpu: <model name>, <n> cpus, ff path: <path>". */
void bench_print_machine(void);

#endif
