/*
 * msm_bench.c — `grothmpi bench msm`: µs per point of msm_g1 at 2^16, 2^18,
 * 2^20 and msm_g2 at 2^16, on one thread and on all (--threads N), against
 * blst's single-threaded Pippenger measured on the same kind of 2-core VM
 * (blst @ dece82e: G1 14.6 µs/point at 2^12, 10.5 at 2^16, 8.9 at 2^20; G2
 * 27 at 2^16).
 *
 * Bases: P + i*D (two scalar multiplications, then one mixed addition per
 * point and one batch conversion to affine), built once, outside the timed
 * region; scalars uniform mod r. Each figure is the min and median wall time
 * of R runs (default 3) of one whole MSM, scratch allocated once, and the
 * median process CPU time (all threads; on a shared machine the wall time of
 * one thread can exceed its CPU time). Next to each figure: the addition
 * floor, ceil(255/window) bucket additions per point at 6 field
 * multiplications each, with the Fp / Fp2 multiplication timed in the same
 * run, and the figure's ratio to it. Where G1's buckets run on 8 lanes
 * (ec/g1_x8.c, AVX-512 IFMA), a second floor for G1 counts the same 6
 * products per addition at the lanes' product rate (floor8).
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

typedef struct {
    int group;        /* 1 or 2 */
    unsigned log_n;
    double blst_us;   /* blst µs per point, 1 thread; 0: no peer figure */
} msm_case_t;

static const msm_case_t full_cases[] = {
    {1, 16, 10.5}, {1, 18, 0}, {1, 20, 8.9}, {2, 16, 27.0},
};
static const msm_case_t quick_cases[] = {
    {1, 12, 14.6}, {1, 14, 0}, {2, 12, 0},
};

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(fr_t *out, uint64_t *s)
{
    uint8_t b[FR_BYTES];
    for (int i = 0; i < FR_BYTES; i += 8) {
        uint64_t v = rng_next(s);
        memcpy(b + i, &v, 8);
    }
    fr_from_bytes_le_mod(out, b);
}

/* n G1 or G2 bases P + i*D, one shape for both groups. Returns NULL when
 * out of memory. */
#define MAKE_BASES(G, FE)                                                       \
    static void *make_bases_##G(size_t n, const fr_t *k1, const fr_t *k2)      \
    {                                                                           \
        G##_affine_t *aff = gm_alloc(n * sizeof *aff), d;                       \
        G##_jac_t *jac = gm_alloc(n * sizeof *jac), g, dj;                      \
        FE *scr = gm_alloc(n * sizeof *scr);                                    \
        if (aff && jac && scr) {                                                \
            G##_from_affine(&g, &G##_GEN);                                      \
            G##_mul_fr(&jac[0], &g, k1);                                        \
            G##_mul_fr(&dj, &g, k2);                                            \
            G##_to_affine(&d, &dj);                                             \
            for (size_t i = 1; i < n; i++)                                      \
                G##_add_mixed(&jac[i], &jac[i - 1], &d);                        \
            G##_batch_to_affine(aff, jac, n, scr);                              \
        } else {                                                                \
            gm_free(aff);                                                       \
            aff = NULL;                                                         \
        }                                                                       \
        gm_free(jac);                                                           \
        gm_free(scr);                                                           \
        return aff;                                                             \
    }
#define g1_GEN G1_GENERATOR
#define g2_GEN G2_GENERATOR
MAKE_BASES(g1, fp_t)
MAKE_BASES(g2, fp2_t)

static void *make_bases(int group, size_t n, uint64_t *seed)
{
    fr_t k1, k2;
    rand_fr(&k1, seed);
    rand_fr(&k2, seed);
    return group == 1 ? make_bases_g1(n, &k1, &k2) : make_bases_g2(n, &k1, &k2);
}

/* ns per Fp (group 1) or Fp2 (group 2) multiplication, thread CPU time, 8
 * independent chains (throughput, as bench field and blst measure it),
 * min of 5 runs of 40,000: the unit of the floor below. */
static double mul_ns(int group)
{
    double best = 0;
    for (int r = 0; r < 5; r++) {
        fp2_t x[8], y;
        fp_set_u64(&y.c0, gm_now_ns() | 3);
        fp_sqr(&y.c1, &y.c0);
        for (int c = 0; c < 8; c++) {
            fp_set_u64(&x[c].c0, gm_now_ns() + (uint64_t)c);
            fp_sqr(&x[c].c1, &x[c].c0);
        }
        uint64_t t0 = gm_thread_cpu_ns();
        for (int i = 0; i < 5000; i++)
            for (int c = 0; c < 8; c++) {
                if (group == 1)
                    fp_mul(&x[c].c0, &x[c].c0, &y.c0);
                else
                    fp2_mul(&x[c], &x[c], &y);
            }
        double t = (double)(gm_thread_cpu_ns() - t0) / 40000.0;
        __asm__ volatile("" ::"r"(x) : "memory");
        if (r == 0 || t < best)
            best = t;
    }
    return best;
}

/* ns per Fp product on the 8 lanes of ec/g1_x8.c (two chains, thread CPU
 * time, min of 5 runs of 16 x 5000 products); 0 where the lanes are off. */
static double lane_mul_ns(void)
{
    if (!fr_x8_enabled())
        return 0;
    double best = 0;
    for (int r = 0; r < 5; r++) {
        fp_t x[8], y[8];
        for (int c = 0; c < 8; c++) {
            fp_set_u64(&x[c], gm_now_ns() + (uint64_t)c);
            fp_sqr(&y[c], &x[c]);
        }
        uint64_t t0 = gm_thread_cpu_ns();
        g1_x8_fp_mul_chain(x, y, 5000);
        double t = (double)(gm_thread_cpu_ns() - t0) / 80000.0;
        __asm__ volatile("" ::"r"(x) : "memory");
        if (r == 0 || t < best)
            best = t;
    }
    return best;
}

/* The addition floor of Pippenger with c-bit windows, µs per point:
 * ceil(255 / c) bucket additions at 6 field multiplications each. */
static double floor_us(unsigned c, double mul)
{
    return (double)((255 + c - 1) / c) * 6.0 * mul / 1e3;
}

/* Min and median wall time and median process CPU time (µs per point) of
 * runs MSMs. */
static int time_msm(int group, const void *bases, const fr_t *s, size_t n, topo_pool_t *pool, int runs,
                    double *min_us, double *med_us, double *cpu_us)
{
    unsigned T = topo_pool_size(pool);
    size_t bytes = group == 1 ? msm_g1_scratch_size(n, T, 0) : msm_g2_scratch_size(n, T, 0);
    void *scratch = gm_alloc(bytes);
    if (!scratch)
        return -1;
    double t[64], cpu[64];
    for (int r = 0; r < runs; r++) {
        g1_jac_t o1;
        g2_jac_t o2;
        uint64_t c0 = gm_process_cpu_ns(), t0 = gm_now_ns();
        if (group == 1)
            msm_g1(&o1, bases, s, NULL, n, 0, scratch, pool);
        else
            msm_g2(&o2, bases, s, NULL, n, 0, scratch, pool);
        t[r] = (double)(gm_now_ns() - t0) / 1e3 / (double)n;
        cpu[r] = (double)(gm_process_cpu_ns() - c0) / 1e3 / (double)n;
        __asm__ volatile("" ::"r"(&o1), "r"(&o2) : "memory");
    }
    gm_free(scratch);
    *med_us = bench_median(t, (size_t)runs);
    *min_us = t[0];
    *cpu_us = bench_median(cpu, (size_t)runs);
    return 0;
}

int bench_msm_main(int argc, char **argv)
{
    static const char help[] =
        "usage: grothmpi bench msm [--quick] [--threads N] [--runs R]\n\n"
        "µs per point of the CPU MSM (Pippenger, batch-affine buckets): G1 at\n"
        "2^16, 2^18, 2^20 and G2 at 2^16, on 1 thread and on N (default: every\n"
        "online CPU), min and median wall time of R runs (default 3), with the\n"
        "ratio to blst's single-threaded Pippenger on the same kind of 2-core VM\n"
        "(ratio < 1: faster than blst; 1 thread: CPU time, as blst was timed;\n"
        "N threads: wall time), the N-thread speed-up (wall time), and the ratio\n"
        "to the addition floor: ceil(255/window) bucket additions of 6 Fp (G2:\n"
        "Fp2) multiplications per point, timed in the same run (1 thread: CPU\n"
        "time; N threads: wall time x N). Where G1's buckets run on 8 lanes\n"
        "(AVX-512 IFMA), floor8 counts G1's 6 products at the lanes' rate.\n"
        "--quick: G1 at 2^12 and 2^14, G2 at 2^12 only.\n";
    bench_opts_t o = {.quick = false, .runs = 3, .threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN)};
    int prc = bench_parse_opts(&o, argc, argv, "msm", help);
    if (prc != 0)
        return prc == 1 ? 0 : 2;
    int runs = o.runs;
    unsigned threads = o.threads;
    bool quick = o.quick;
    const msm_case_t *cases = quick ? quick_cases : full_cases;
    size_t ncases = quick ? sizeof quick_cases / sizeof quick_cases[0] : sizeof full_cases / sizeof full_cases[0];

    topo_pool_t *pool = NULL;
    err_t err;
    if (threads > 1 && topo_pool_create_flat(&pool, threads, &err) != 0) {
        fprintf(stderr, "grothmpi: bench msm: %s\n", err.msg);
        return 1;
    }
    bench_print_machine();
    printf("runs: %d, threads: 1 and %u\n", runs, threads);
    double mul[3] = {0, mul_ns(1), mul_ns(2)}, lane = lane_mul_ns();
    printf("floor: ceil(255/window) additions x 6 multiplications per point; Fp mul %.1f ns, Fp2 mul %.1f ns "
           "(this run)\n", mul[1], mul[2]);
    if (lane > 0)
        printf("floor8: G1 on 8 lanes, 6 products per addition at %.1f ns per product (this run)\n", lane);
    printf("%-10s %7s %6s %10s %10s %10s %6s %9s %8s %8s %7s %7s %7s\n", "msm", "threads", "window", "min µs/pt",
           "med µs/pt", "cpu µs/pt", "blst", "/blst", "speed-up", "floor", "/floor", "floor8", "/floor8");
    uint64_t seed = gm_now_ns();
    int rc = 0;
    void *bases[3] = {NULL, NULL, NULL};
    size_t have[3] = {0, 0, 0};
    for (size_t c = 0; c < ncases && rc == 0; c++) {
        int g = cases[c].group;
        size_t n = (size_t)1 << cases[c].log_n;
        if (have[g] < n) { /* the largest case of each group comes last */
            gm_free(bases[g]);
            size_t want = n;
            for (size_t k = c; k < ncases; k++)
                if (cases[k].group == g && ((size_t)1 << cases[k].log_n) > want)
                    want = (size_t)1 << cases[k].log_n;
            bases[g] = make_bases(g, want, &seed);
            have[g] = bases[g] ? want : 0;
        }
        fr_t *s = gm_alloc(n * sizeof *s);
        if (!bases[g] || !s) {
            fprintf(stderr, "grothmpi: bench msm: out of memory for 2^%u points\n", cases[c].log_n);
            gm_free(s);
            rc = 1;
            break;
        }
        for (size_t i = 0; i < n; i++)
            rand_fr(&s[i], &seed);
        double one_med = 0;
        for (int pass = 0; pass < (threads > 1 ? 2 : 1); pass++) {
            topo_pool_t *p = pass ? pool : NULL;
            unsigned T = pass ? threads : 1;
            double mn, md, cpu;
            if (time_msm(g, bases[g], s, n, p, runs, &mn, &md, &cpu) != 0) {
                fprintf(stderr, "grothmpi: bench msm: out of memory for the scratch\n");
                rc = 1;
                break;
            }
            if (!pass)
                one_med = md;
            char name[32], blst[16], ratio[16], speed[16];
            snprintf(name, sizeof name, "G%d 2^%u", g, cases[c].log_n);
            snprintf(blst, sizeof blst, cases[c].blst_us > 0 ? "%.1f" : "-", cases[c].blst_us);
            /* blst was timed with CLOCK_THREAD_CPUTIME_ID: one thread compares
             * CPU time (a shared VM inflates wall time), N threads wall time. */
            snprintf(ratio, sizeof ratio, cases[c].blst_us > 0 ? "%.2f" : "-", (pass ? md : cpu) / cases[c].blst_us);
            snprintf(speed, sizeof speed, pass ? "%.2fx" : "-", one_med / md);
            /* The floor is per thread: 1 thread compares CPU time, N threads
             * wall time x N (the cores' time). */
            unsigned c = msm_window_auto(n, T);
            double fl = floor_us(c, mul[g]), used = pass ? md * T : cpu;
            char fl8[16] = "-", r8[16] = "-";
            if (g == 1 && lane > 0) {
                snprintf(fl8, sizeof fl8, "%.2f", floor_us(c, lane));
                snprintf(r8, sizeof r8, "%.2f", used / floor_us(c, lane));
            }
            printf("%-10s %7u %6u %10.2f %10.2f %10.2f %6s %9s %8s %8.2f %7.2f %7s %7s\n", name, T, c, mn, md, cpu, blst,
                   ratio, speed, fl, used / fl, fl8, r8);
            fflush(stdout);
        }
        gm_free(s);
    }
    for (int g = 0; g < 3; g++)
        gm_free(bases[g]);
    topo_pool_destroy(pool);
    return rc;
}
