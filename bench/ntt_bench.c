/*
 * ntt_bench.c — `grothmpi bench ntt`: ns per butterfly ((n/2) log2 n of
 * them per transform) of the forward and the inverse coset NTT over Fr at
 * 2^20, 2^22 and 2^24, on one thread and on all (--threads N). No peer figure
 * was measured on the reference VM for the NTT, so the table shows the Fr
 * multiplication bound instead: one butterfly costs
 * at least one Fr multiplication (blst: 20.4 ns throughput on that VM).
 *
 * Each figure is the min and median wall time of R runs (default 3) and the
 * median process CPU time (all threads); the domain and scratch are built
 * once, outside the timed region. On a CPU with AVX-512 IFMA every row is
 * measured on both Fr paths side by side (fr_x8_init: scalar, then 8-lane),
 * with the 8-lane row's speed-up over the scalar one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "bench/bench.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "topo/topo.h"
#include "ntt/ntt.h"

#define BLST_FR_MUL_NS 20.4

typedef void (*ntt_fn)(const ntt_domain_t *, fr_t *, void *, topo_pool_t *);

int bench_ntt_main(int argc, char **argv)
{
    static const char help[] =
        "usage: grothmpi bench ntt [--quick] [--threads N] [--runs R]\n\n"
        "ns per butterfly of the Fr NTT (forward, and inverse coset) at 2^20,\n"
        "2^22 and 2^24, on 1 thread and on N (default: every online CPU), min\n"
        "and median wall time of R runs (default 3), with the ratio to one Fr\n"
        "multiplication of blst on the reference VM (the per-butterfly bound)\n"
        "and the N-thread speed-up; on a CPU with AVX-512 IFMA, each on the\n"
        "scalar and the 8-lane Fr path (column \"path\"), with the 8-lane\n"
        "path's speed-up over the scalar one (\"x8 gain\", same thread count).\n"
        "--quick: 2^16 and 2^18 only.\n";
    bench_opts_t o = {.quick = false, .runs = 3, .threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN)};
    int prc = bench_parse_opts(&o, argc, argv, "ntt", help);
    if (prc != 0)
        return prc == 1 ? 0 : 2;
    int runs = o.runs;
    unsigned threads = o.threads;
    bool quick = o.quick;
    static const unsigned full_sizes[] = {20, 22, 24}, quick_sizes[] = {16, 18};
    const unsigned *sizes = quick ? quick_sizes : full_sizes;
    size_t nsizes = quick ? 2 : 3;
    static const struct { const char *name; ntt_fn fn; } forms[] = {
        {"forward", ntt_forward},
        {"coset inverse", ntt_coset_inverse},
    };

    topo_pool_t *pool = NULL;
    err_t err;
    if (threads > 1 && topo_pool_create_flat(&pool, threads, &err) != 0) {
        fprintf(stderr, "grothmpi: bench ntt: %s\n", err.msg);
        return 1;
    }
    bench_print_machine();
    printf("runs: %d, threads: 1 and %u\n", runs, threads);
    bool have_x8 = fr_x8_init(FR_X8_ON) == 0;
    int npaths = have_x8 ? 2 : 1;
    printf("%-20s %-7s %7s %8s %8s %11s %12s %8s %8s %8s\n", "ntt", "path", "threads", "min ms", "ns/bfly",
           "med ns/bfly", "cpu ns/bfly", "/ Fr mul", "speed-up", "x8 gain");
    int rc = 0;
    for (size_t k = 0; k < nsizes && rc == 0; k++) {
        unsigned L = sizes[k];
        size_t n = (size_t)1 << L;
        ntt_domain_t *d;
        if (ntt_domain_create(&d, L, &err) != 0) {
            fprintf(stderr, "grothmpi: bench ntt: %s\n", err.msg);
            rc = 1;
            break;
        }
        fr_t *a = gm_alloc(n * sizeof *a);
        void *scratch = gm_alloc(ntt_scratch_size(d, threads));
        if (!a || !scratch) {
            fprintf(stderr, "grothmpi: bench ntt: out of memory for 2^%u points\n", L);
            rc = 1;
        } else {
            fr_t x;
            fr_set_u64(&x, gm_now_ns() | 1);
            for (size_t i = 0; i < n; i++) /* any values: the arithmetic is data-independent */
                fr_mul(&a[i], &x, i ? &a[i - 1] : &x);
            double bfly = (double)n / 2 * L;
            for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
                double one_med[2] = {0, 0};
                for (int pass = 0; pass < (threads > 1 ? 2 : 1); pass++) {
                  double scalar_med = 0;
                  for (int path = 0; path < npaths; path++) {
                    topo_pool_t *p = pass ? pool : NULL;
                    if (fr_x8_init(path ? FR_X8_ON : FR_X8_OFF) != 0) /* ON was checked above */
                        abort();
                    double t[64], cpu[64];
                    for (int r = 0; r < runs; r++) {
                        uint64_t c0 = gm_process_cpu_ns(), t0 = gm_now_ns();
                        forms[f].fn(d, a, scratch, p);
                        t[r] = (double)(gm_now_ns() - t0);
                        cpu[r] = (double)(gm_process_cpu_ns() - c0);
                    }
                    double med = bench_median(t, (size_t)runs), cmed = bench_median(cpu, (size_t)runs);
                    if (!pass)
                        one_med[path] = med;
                    if (!path)
                        scalar_med = med;
                    char name[40], speed[16], gain[16];
                    snprintf(name, sizeof name, "2^%u %s", L, forms[f].name);
                    snprintf(speed, sizeof speed, pass ? "%.2fx" : "-", one_med[path] / med);
                    snprintf(gain, sizeof gain, path ? "%.2fx" : "-", scalar_med / med);
                    printf("%-20s %-7s %7u %8.1f %8.2f %11.2f %12.2f %8.2f %8s %8s\n", name, path ? "8-lane" : "scalar",
                           pass ? threads : 1, t[0] / 1e6, t[0] / bfly, med / bfly, cmed / bfly,
                           med / bfly / BLST_FR_MUL_NS, speed, gain);
                    fflush(stdout);
                  }
                }
            }
        }
        gm_free(a);
        gm_free(scratch);
        ntt_domain_destroy(d);
    }
    topo_pool_destroy(pool);
    if (fr_x8_init(FR_X8_AUTO) != 0)
        rc = 1;
    return rc;
}
