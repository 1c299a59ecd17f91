/*
 * bench/poseidon_bench.c — `grothmpi bench poseidon`: µs per native Poseidon
 * hash (neptune's instances, arity 2, 4, 8, 11) in the optimized evaluation
 * that sealing uses (poseidon_hash) and in the plain round-by-round one
 * (poseidon_hash_plain), with their ratio and the field multiplications each
 * needs (synth/poseidon.c DESIGN), so a change in the per-multiplication cost
 * shows apart from a change in the count. One thread, thread CPU time (a
 * loaded machine shows less in it than in wall time), min and median of N
 * runs; each hash feeds its output into the next one's first input, so the
 * hashes form one dependent chain. It measures and never asserts.
 */
#include <stdio.h>

#include "base/base.h"
#include "bench/bench.h"
#include "synth/synth.h"

typedef void (*hash_fn)(const poseidon_t *p, fr_t *out, const fr_t *in);

/* µs per hash over n chained hashes. */
static double us_per_hash(const poseidon_t *p, hash_fn fn, size_t n)
{
    fr_t in[POSEIDON_MAX_WIDTH - 1], out;
    for (unsigned i = 0; i < p->arity; i++)
        fr_set_u64(&in[i], i + 1);
    uint64_t t0 = gm_thread_cpu_ns();
    for (size_t k = 0; k < n; k++) {
        fn(p, &out, in);
        in[0] = out;
    }
    return (double)(gm_thread_cpu_ns() - t0) / 1e3 / (double)n;
}

/* Field multiplications per hash (squarings included). */
static unsigned muls_plain(const poseidon_t *p)
{
    unsigned t = p->t;
    return p->rf * (3 * t + t * t) + p->rp * (3 + t * t);
}

static unsigned muls_optimized(const poseidon_t *p)
{
    unsigned t = p->t;
    return p->rf * (3 * t + t * t) - (t * t - t) + p->rp * (2 * t + 2);
}

int bench_poseidon_main(int argc, char **argv)
{
    static const char help[] =
        "usage: grothmpi bench poseidon [--quick] [--runs N]\n\n"
        "µs per native Poseidon hash (arity 2, 4, 8, 11; neptune Standard, MerkleTree),\n"
        "optimized (what sealing uses) and plain, min and median of N runs (default 7)\n"
        "in thread CPU time on one thread. --quick: 3 shorter runs.\n";
    bench_opts_t o = {.quick = false, .runs = 7, .threads = 1};
    int prc = bench_parse_opts(&o, argc, argv, "poseidon", help);
    if (prc != 0)
        return prc == 1 ? 0 : 2;
    int runs = o.quick ? 3 : o.runs;
    bench_print_machine();
    printf("%-6s %-10s %7s %10s %10s %14s %9s\n", "arity", "form", "muls", "min µs", "median µs", "ns/mul(median)",
           "plain/opt");
    static const unsigned arities[] = {2, 4, 8, 11};
    double t[1000];
    for (size_t a = 0; a < sizeof arities / sizeof arities[0]; a++) {
        poseidon_t p;
        err_t err;
        if (poseidon_init(&p, arities[a], &err) != 0) {
            fprintf(stderr, "grothmpi bench poseidon: %s\n", err.msg);
            return 1;
        }
        /* about 0.2 s per run on the reference VM at the plain cost */
        size_t n = (size_t)(o.quick ? 2e6 : 1e7) / muls_plain(&p) + 1;
        double med[2];
        for (int form = 0; form < 2; form++) {
            hash_fn fn = form == 0 ? poseidon_hash : poseidon_hash_plain;
            unsigned muls = form == 0 ? muls_optimized(&p) : muls_plain(&p);
            (void)us_per_hash(&p, fn, n / 4 + 1); /* warm caches and clocks */
            for (int r = 0; r < runs; r++)
                t[r] = us_per_hash(&p, fn, n);
            med[form] = bench_median(t, (size_t)runs);
            printf("%-6u %-10s %7u %10.2f %10.2f %14.1f", p.arity, form == 0 ? "optimized" : "plain", muls, t[0],
                   med[form], med[form] * 1e3 / muls);
            if (form == 1)
                printf(" %9.2f", med[1] / med[0]);
            printf("\n");
        }
        poseidon_free(&p);
    }
    return 0;
}
