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
int bench_prove_main(int argc, char **argv);
int bench_synth_main(int argc, char **argv);

/* Helpers shared by the benchmarks (bench/bench_util.c). */

/* Sorts v[0..n) and returns the median; v[0] is then the minimum. */
double bench_median(double *v, size_t n);
/* Prints the line "cpu: <model name>, <n> cpus, ff path: <path>". */
void bench_print_machine(void);

#endif
