/*
 * msm_bench.c — `grothmpi bench msm`: µs per point of msm_g1 at 2^16, 2^18,
 * 2^20 and msm_g2 at 2^16 (with --curve, of BN254's bn_msm_g1 / bn_msm_g2 at
 * the same sizes, alone or beside them in one run, and their ratio), on one
 * thread and on all (--threads N), against
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
 * run, and the figure's ratio to it. Where the buckets run on 8 lanes
 * (ec/g1_x8.c, ec/g2_x8.c, ec/bn_g1_x8.c, ec/bn_g2_x8.c: AVX-512 IFMA), a second floor
 * counts the same 6 products per addition at the lanes' product rate
 * (floor8).
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

/* A uniform scalar of the curve's Fr (fr_t or bn_fr_t, both 32 bytes). */
#define RAND_FR(FR, BYTES)                                                      \
    static void rand_##FR(FR##_t *out, uint64_t *s)                             \
    {                                                                           \
        uint8_t b[BYTES];                                                       \
        for (int i = 0; i < BYTES; i += 8) {                                    \
            uint64_t v = rng_next(s);                                           \
            memcpy(b + i, &v, 8);                                               \
        }                                                                       \
        FR##_from_bytes_le_mod(out, b);                                         \
    }
RAND_FR(fr, FR_BYTES)
RAND_FR(bn_fr, BN254_BYTES)

/* n G1 or G2 bases P + i*D, one shape for both groups. Returns NULL when
 * out of memory. */
#define MAKE_BASES(G, FE, FR)                                                   \
    static void *make_bases_##G(size_t n, const FR *k1, const FR *k2)          \
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
#define bn_g1_GEN BN254_G1_GENERATOR
#define bn_g2_GEN BN254_G2_GENERATOR
MAKE_BASES(g1, fp_t, fr_t)
MAKE_BASES(g2, fp2_t, fr_t)
MAKE_BASES(bn_g1, bn_fp_t, bn_fr_t)
MAKE_BASES(bn_g2, bn_fp2_t, bn_fr_t)

static void *make_bases(bool bn, int group, size_t n, uint64_t *seed)
{
    if (bn) {
        bn_fr_t k1, k2;
        rand_bn_fr(&k1, seed);
        rand_bn_fr(&k2, seed);
        return group == 1 ? make_bases_bn_g1(n, &k1, &k2) : make_bases_bn_g2(n, &k1, &k2);
    }
    fr_t k1, k2;
    rand_fr(&k1, seed);
    rand_fr(&k2, seed);
    return group == 1 ? make_bases_g1(n, &k1, &k2) : make_bases_g2(n, &k1, &k2);
}

/* n uniform scalars of the curve's Fr (NULL when out of memory). */
static void *make_scalars(bool bn, size_t n, uint64_t *seed)
{
    void *s = gm_alloc(n * (bn ? sizeof(bn_fr_t) : sizeof(fr_t)));
    for (size_t i = 0; s && i < n; i++) {
        if (bn)
            rand_bn_fr((bn_fr_t *)s + i, seed);
        else
            rand_fr((fr_t *)s + i, seed);
    }
    return s;
}

/* ns per Fp (group 1) or Fp2 (group 2) multiplication, thread CPU time, 8
 * independent chains (throughput, as bench field and blst measure it),
 * min of 5 runs of 40,000: the unit of the floor below. */
#define MUL_NS(FP)                                                              \
    static double mul_ns_##FP(int group)                                        \
    {                                                                           \
        double best = 0;                                                        \
        for (int r = 0; r < 5; r++) {                                           \
            FP##2_t x[8], y;                                                    \
            FP##_set_u64(&y.c0, gm_now_ns() | 3);                               \
            FP##_sqr(&y.c1, &y.c0);                                             \
            for (int c = 0; c < 8; c++) {                                       \
                FP##_set_u64(&x[c].c0, gm_now_ns() + (uint64_t)c);              \
                FP##_sqr(&x[c].c1, &x[c].c0);                                   \
            }                                                                   \
            uint64_t t0 = gm_thread_cpu_ns();                                   \
            for (int i = 0; i < 5000; i++)                                      \
                for (int c = 0; c < 8; c++) {                                   \
                    if (group == 1)                                             \
                        FP##_mul(&x[c].c0, &x[c].c0, &y.c0);                    \
                    else                                                        \
                        FP##2_mul(&x[c], &x[c], &y);                            \
                }                                                               \
            double t = (double)(gm_thread_cpu_ns() - t0) / 40000.0;             \
            __asm__ volatile("" ::"r"(x) : "memory");                           \
            if (r == 0 || t < best)                                             \
                best = t;                                                       \
        }                                                                       \
        return best;                                                            \
    }
MUL_NS(fp)
MUL_NS(bn_fp)

/* ns per product of the coordinates' field on the 8 lanes of ec/g1_x8.c
 * (FP fp), ec/g2_x8.c (fp2), ec/bn_g1_x8.c (bn_fp) or ec/bn_g2_x8.c
 * (bn_fp2): two chains,
 * thread CPU time, min of 5 runs of 16 x 5000 products; 0 where the lanes
 * are off. SET(p, v) sets *p to a value made from v. */
#define LANE_MUL_NS(FP, X8, SET)                                                \
    static double lane_mul_ns_##FP(void)                                        \
    {                                                                           \
        if (!fr_x8_enabled())                                                   \
            return 0;                                                           \
        double best = 0;                                                        \
        for (int r = 0; r < 5; r++) {                                           \
            FP##_t x[8], y[8];                                                  \
            for (int c = 0; c < 8; c++) {                                       \
                SET(&x[c], gm_now_ns() + (uint64_t)c);                          \
                SET(&y[c], gm_now_ns() * 3 + (uint64_t)c);                      \
            }                                                                   \
            uint64_t t0 = gm_thread_cpu_ns();                                   \
            X8##_fp_mul_chain(x, y, 5000);                                      \
            double t = (double)(gm_thread_cpu_ns() - t0) / 80000.0;             \
            __asm__ volatile("" ::"r"(x) : "memory");                           \
            if (r == 0 || t < best)                                             \
                best = t;                                                       \
        }                                                                       \
        return best;                                                            \
    }
#define SET_FP2(p, v) (fp_set_u64(&(p)->c0, v), fp_set_u64(&(p)->c1, (v) + 7))
#define SET_BN_FP2(p, v) (bn_fp_set_u64(&(p)->c0, v), bn_fp_set_u64(&(p)->c1, (v) + 7))
LANE_MUL_NS(fp, g1_x8, fp_set_u64)
LANE_MUL_NS(fp2, g2_x8, SET_FP2)
LANE_MUL_NS(bn_fp, bn_g1_x8, bn_fp_set_u64)
LANE_MUL_NS(bn_fp2, bn_g2_x8, SET_BN_FP2)

/* The addition floor of Pippenger with c-bit windows, µs per point:
 * ceil(bits / c) bucket additions at 6 field multiplications each, bits the
 * bits of r (255 for BLS12-381, 254 for BN254). */
static double floor_us(unsigned bits, unsigned c, double mul)
{
    return (double)((bits + c - 1) / c) * 6.0 * mul / 1e3;
}

/* Min and median wall time and median process CPU time (µs per point) of
 * runs MSMs. */
static int time_msm(bool bn, int group, const void *bases, const void *s, size_t n, topo_pool_t *pool, int runs,
                    double *min_us, double *med_us, double *cpu_us)
{
    unsigned T = topo_pool_size(pool);
    size_t bytes = bn ? (group == 1 ? bn_msm_g1_scratch_size(n, T, 0) : bn_msm_g2_scratch_size(n, T, 0))
                      : (group == 1 ? msm_g1_scratch_size(n, T, 0) : msm_g2_scratch_size(n, T, 0));
    void *scratch = gm_alloc(bytes);
    if (!scratch)
        return -1;
    double t[64], cpu[64];
    for (int r = 0; r < runs; r++) {
        g1_jac_t o1;
        g2_jac_t o2;
        bn_g1_jac_t b1;
        bn_g2_jac_t b2;
        uint64_t c0 = gm_process_cpu_ns(), t0 = gm_now_ns();
        if (bn && group == 1)
            bn_msm_g1(&b1, bases, s, NULL, n, 0, scratch, pool);
        else if (bn)
            bn_msm_g2(&b2, bases, s, NULL, n, 0, scratch, pool);
        else if (group == 1)
            msm_g1(&o1, bases, s, NULL, n, 0, scratch, pool);
        else
            msm_g2(&o2, bases, s, NULL, n, 0, scratch, pool);
        t[r] = (double)(gm_now_ns() - t0) / 1e3 / (double)n;
        cpu[r] = (double)(gm_process_cpu_ns() - c0) / 1e3 / (double)n;
        __asm__ volatile("" ::"r"(&o1), "r"(&o2), "r"(&b1), "r"(&b2) : "memory");
    }
    gm_free(scratch);
    *med_us = bench_median(t, (size_t)runs);
    *min_us = t[0];
    *cpu_us = bench_median(cpu, (size_t)runs);
    return 0;
}

/* --curve's value: a comma list of bls12-381 and bn254 into want[0] (BLS12-381)
 * and want[1] (BN254); false after one error line. */
static bool parse_curves(const char *v, bool want[2])
{
    want[0] = want[1] = false;
    const char *p = v;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == 9 && strncmp(p, "bls12-381", 9) == 0) {
            want[0] = true;
        } else if (len == 5 && strncmp(p, "bn254", 5) == 0) {
            want[1] = true;
        } else {
            fprintf(stderr, "grothmpi: bench msm: --curve '%s': expected bls12-381, bn254 or bls12-381,bn254\n", v);
            return false;
        }
        p += len + (p[len] == ',');
    }
    if (!want[0] && !want[1]) {
        fprintf(stderr, "grothmpi: bench msm: --curve '%s': expected bls12-381, bn254 or bls12-381,bn254\n", v);
        return false;
    }
    return true;
}

int bench_msm_main(int argc, char **argv)
{
    static const char help[] =
        "usage: grothmpi bench msm [--quick] [--threads N] [--runs R] [--curve C]\n\n"
        "µs per point of the CPU MSM (Pippenger, batch-affine buckets): G1 at\n"
        "2^16, 2^18, 2^20 and G2 at 2^16, on 1 thread and on N (default: every\n"
        "online CPU), min and median wall time of R runs (default 3), with the\n"
        "ratio to blst's single-threaded Pippenger on the same kind of 2-core VM\n"
        "(ratio < 1: faster than blst; 1 thread: CPU time, as blst was timed;\n"
        "N threads: wall time), the N-thread speed-up (wall time), and the ratio\n"
        "to the addition floor: ceil(255/window) bucket additions of 6 Fp (G2:\n"
        "Fp2) multiplications per point, timed in the same run (1 thread: CPU\n"
        "time; N threads: wall time x N). Where the buckets run on 8 lanes\n"
        "(AVX-512 IFMA: G1 and G2 of both curves), floor8 counts the 6 products at\n"
        "the lanes' rate.\n"
        "--quick: G1 at 2^12 and 2^14, G2 at 2^12 only.\n"
        "--curve C: bls12-381 (the default), bn254, or bls12-381,bn254: both in\n"
        "one run, each size on BLS12-381 then on BN254 (lines 'bn G1 ...'; no\n"
        "blst figure; the floor counts ceil(254/window) additions of BN254's\n"
        "products, floor8 those on BN254's lanes), then BN254's time over\n"
        "BLS12-381's per size (1 thread: CPU time; N threads: wall time).\n";
    bool want[2] = {true, false};
    char *args[64];
    int nargs = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--curve") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "grothmpi: bench msm: --curve needs a value (see --help)\n");
                return 2;
            }
            if (!parse_curves(argv[++i], want))
                return 2;
        } else if (nargs < 64) {
            args[nargs++] = argv[i];
        } else {
            fprintf(stderr, "grothmpi: bench msm: too many arguments\n");
            return 2;
        }
    }
    bench_opts_t o = {.quick = false, .runs = 3, .threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN)};
    int prc = bench_parse_opts(&o, nargs, args, "msm", help);
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
    printf("runs: %d, threads: 1 and %u, curves:%s%s\n", runs, threads, want[0] ? " bls12-381" : "",
           want[1] ? " bn254" : "");
    /* [curve][group]: 0 BLS12-381, 1 BN254 */
    double mul[2][3] = {{0, mul_ns_fp(1), mul_ns_fp(2)}, {0, 0, 0}};
    double lane[2][3] = {{0, lane_mul_ns_fp(), lane_mul_ns_fp2()}, {0, 0, 0}};
    if (want[0])
        printf("floor: ceil(255/window) additions x 6 multiplications per point; Fp mul %.1f ns, Fp2 mul %.1f ns "
               "(this run)\n", mul[0][1], mul[0][2]);
    if (want[1]) {
        mul[1][1] = mul_ns_bn_fp(1);
        mul[1][2] = mul_ns_bn_fp(2);
        printf("bn floor: ceil(254/window) additions x 6 multiplications per point; BN254 Fp mul %.1f ns, "
               "Fp2 mul %.1f ns (this run)\n", mul[1][1], mul[1][2]);
        lane[1][1] = lane_mul_ns_bn_fp();
        lane[1][2] = lane_mul_ns_bn_fp2();
    }
    if (lane[0][1] > 0 && want[0])
        printf("floor8: G1 and G2 on 8 lanes, 6 products per addition at %.1f ns per Fp product, %.1f ns per "
               "Fp2 product (this run)\n", lane[0][1], lane[0][2]);
    if (lane[1][1] > 0)
        printf("bn floor8: BN254's G1 and G2 on 8 lanes, 6 products per addition at %.1f ns per Fp product, "
               "%.1f ns per Fp2 product (this run)\n", lane[1][1], lane[1][2]);
    printf("%-10s %7s %6s %10s %10s %10s %6s %9s %8s %8s %7s %7s %7s\n", "msm", "threads", "window", "min µs/pt",
           "med µs/pt", "cpu µs/pt", "blst", "/blst", "speed-up", "floor", "/floor", "floor8", "/floor8");
    uint64_t seed = gm_now_ns();
    int rc = 0;
    void *bases[2][3] = {{NULL, NULL, NULL}, {NULL, NULL, NULL}};
    size_t have[2][3] = {{0, 0, 0}, {0, 0, 0}};
    /* per case and curve: 1-thread CPU and N-thread wall µs per point, for the ratio table */
    double one_cpu[8][2] = {{0}}, many_wall[8][2] = {{0}};
    for (size_t c = 0; c < ncases && rc == 0; c++) {
        int g = cases[c].group;
        size_t n = (size_t)1 << cases[c].log_n;
        for (int k = 0; k < 2 && rc == 0; k++) {
            if (!want[k])
                continue;
            bool bn = k == 1;
            if (have[k][g] < n) { /* the largest case of each group comes last */
                gm_free(bases[k][g]);
                size_t wanted = n;
                for (size_t q = c; q < ncases; q++)
                    if (cases[q].group == g && ((size_t)1 << cases[q].log_n) > wanted)
                        wanted = (size_t)1 << cases[q].log_n;
                bases[k][g] = make_bases(bn, g, wanted, &seed);
                have[k][g] = bases[k][g] ? wanted : 0;
            }
            void *s = make_scalars(bn, n, &seed);
            if (!bases[k][g] || !s) {
                fprintf(stderr, "grothmpi: bench msm: out of memory for 2^%u points\n", cases[c].log_n);
                gm_free(s);
                rc = 1;
                break;
            }
            double one_med = 0, blst_us = bn ? 0 : cases[c].blst_us;
            unsigned bits = bn ? 254 : 255;
            for (int pass = 0; pass < (threads > 1 ? 2 : 1); pass++) {
                topo_pool_t *p = pass ? pool : NULL;
                unsigned T = pass ? threads : 1;
                double mn, md, cpu;
                if (time_msm(bn, g, bases[k][g], s, n, p, runs, &mn, &md, &cpu) != 0) {
                    fprintf(stderr, "grothmpi: bench msm: out of memory for the scratch\n");
                    rc = 1;
                    break;
                }
                if (!pass) {
                    one_med = md;
                    one_cpu[c][k] = cpu;
                } else {
                    many_wall[c][k] = md;
                }
                char name[32], blst[16], ratio[16], speed[16];
                snprintf(name, sizeof name, "%sG%d 2^%u", bn ? "bn " : "", g, cases[c].log_n);
                snprintf(blst, sizeof blst, blst_us > 0 ? "%.1f" : "-", blst_us);
                /* blst was timed with CLOCK_THREAD_CPUTIME_ID: one thread compares
                 * CPU time (a shared VM inflates wall time), N threads wall time. */
                snprintf(ratio, sizeof ratio, blst_us > 0 ? "%.2f" : "-", (pass ? md : cpu) / blst_us);
                snprintf(speed, sizeof speed, pass ? "%.2fx" : "-", one_med / md);
                /* The floor is per thread: 1 thread compares CPU time, N threads
                 * wall time x N (the cores' time). */
                unsigned w = bn ? bn_msm_window_auto(n, T) : msm_window_auto(n, T);
                double fl = floor_us(bits, w, mul[k][g]), used = pass ? md * T : cpu;
                char fl8[16] = "-", r8[16] = "-";
                if (lane[k][g] > 0) {
                    snprintf(fl8, sizeof fl8, "%.2f", floor_us(bits, w, lane[k][g]));
                    snprintf(r8, sizeof r8, "%.2f", used / floor_us(bits, w, lane[k][g]));
                }
                printf("%-10s %7u %6u %10.2f %10.2f %10.2f %6s %9s %8s %8.2f %7.2f %7s %7s\n", name, T, w, mn, md,
                       cpu, blst, ratio, speed, fl, used / fl, fl8, r8);
                fflush(stdout);
            }
            gm_free(s);
        }
    }
    if (rc == 0 && want[0] && want[1]) {
        if (threads > 1)
            printf("\nbn254 / bls12-381 (µs per point; 1 thread: CPU time, %u threads: wall time)\n", threads);
        else
            printf("\nbn254 / bls12-381 (µs per point, 1 thread, CPU time)\n");
        printf("%-10s %10s %10s %7s", "msm", "bn254", "bls12-381", "ratio");
        if (threads > 1)
            printf(" %10s %10s %7s", "bn254 N", "bls N", "ratio N");
        printf("\n");
        for (size_t c = 0; c < ncases; c++) {
            printf("G%d 2^%-5u %10.2f %10.2f %7.2f", cases[c].group, cases[c].log_n, one_cpu[c][1], one_cpu[c][0],
                   one_cpu[c][1] / one_cpu[c][0]);
            if (threads > 1)
                printf(" %10.2f %10.2f %7.2f", many_wall[c][1], many_wall[c][0], many_wall[c][1] / many_wall[c][0]);
            printf("\n");
        }
    }
    for (int k = 0; k < 2; k++)
        for (int g = 0; g < 3; g++)
            gm_free(bases[k][g]);
    topo_pool_destroy(pool);
    return rc;
}
