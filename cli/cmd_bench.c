/* cmd_bench.c — `grothmpi bench <name>`: dispatch to bench/<name>_bench.c. */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} benches[] = {
    {"field", bench_field_main, "ns per field, curve and pairing operation, against blst"},
    {"msm", bench_msm_main, "µs per point of the G1/G2 MSM on 1 and N threads, against blst (--curve bn254: BN254)"},
    {"ntt", bench_ntt_main, "ns per butterfly of the Fr NTT on 1 and N threads"},
    {"poseidon", bench_poseidon_main, "µs per native Poseidon hash (arity 2, 4, 8, 11), optimized and plain"},
    {"prove", bench_prove_main, "ms per Groth16 proof stage (2^16..2^20 rows) on 1 and 2 threads"},
    {"split", cmd_bench_split, "one proof unsplit, then split over R MPI ranks: memory, bytes, time model"},
    {"synth", bench_synth_main, "M constraints/s and bytes/constraint of one PoRep partition's witness and a/b/c"},
};
#define NBENCHES (sizeof benches / sizeof benches[0])

int cmd_bench(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, "usage: grothmpi bench <name> [options]\n\nbenchmarks:\n");
        for (size_t i = 0; i < NBENCHES; i++)
            fprintf(f, "  %-8s %s\n", benches[i].name, benches[i].help);
        fprintf(f, "\n'grothmpi bench <name> --help' lists each one's options.\n");
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < NBENCHES; i++)
        if (strcmp(argv[1], benches[i].name) == 0)
            return benches[i].run(argc - 1, argv + 1);
    fprintf(stderr, "grothmpi: bench: unknown benchmark '%s' (grothmpi bench --help lists them)\n", argv[1]);
    return 2;
}
