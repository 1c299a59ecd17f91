/*
 * field_bench.c — `grothmpi bench field`: ns per field, curve and pairing
 * operation, each against blst (@ dece82e, 1 thread) measured on the same
 * kind of 2-core VM.
 *
 * Each figure is the min and median of R runs (default 7); a run times a loop
 * long enough to take a few milliseconds, in the thread's CPU time, so that
 * other processes on a shared 2-core VM do not inflate it. Field multiplications run 8
 * independent chains, as blst's throughput figure does, so the number is
 * throughput, not latency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "bench/bench.h"
#include "ec/ec.h"
#include "ff/ff.h"

#define CHAINS 8

typedef struct {
    const char *name;
    double blst_ns;          /* blst on the 2-core VM; 0 = no peer figure */
    double (*run)(size_t iters);   /* returns ns per operation */
    size_t iters;            /* operations per run */
} field_case_t;

/* Inputs that the compiler cannot fold: derived from the clock at start. */
static fp_t fp_seed(unsigned i)
{
    fp_t a;
    fp_set_u64(&a, gm_now_ns() * 0x9e3779b97f4a7c15ULL + i);
    fp_sqr(&a, &a);
    fp_sqr(&a, &a);
    return a;
}

static double ns_per(uint64_t t0, size_t ops) { return (double)(gm_thread_cpu_ns() - t0) / (double)ops; }

/* ns per `op` (a statement on x[c]) over iters / CHAINS rounds of the CHAINS
 * independent chains x[0 .. CHAINS). */
#define TIME_CHAINS(x, iters, op)                                                                  \
    ({                                                                                             \
        uint64_t t0_ = gm_thread_cpu_ns();                                                         \
        for (size_t i_ = 0; i_ < (iters) / CHAINS; i_++)                                           \
            for (unsigned c = 0; c < CHAINS; c++)                                                  \
                op;                                                                                \
        double r_ = ns_per(t0_, (iters) / CHAINS * CHAINS);                                        \
        __asm__ volatile("" ::"r"(x) : "memory");                                                  \
        r_;                                                                                        \
    })

/* ns per `op` (a statement on v) repeated iters times. */
#define TIME_LOOP(v, iters, op)                                                                    \
    ({                                                                                             \
        uint64_t t0_ = gm_thread_cpu_ns();                                                         \
        for (size_t i_ = 0; i_ < (iters); i_++)                                                    \
            op;                                                                                    \
        double r_ = ns_per(t0_, (iters));                                                          \
        __asm__ volatile("" ::"r"(&(v)) : "memory");                                               \
        r_;                                                                                        \
    })

static double run_fp_mul(size_t iters)
{
    fp_t x[CHAINS], y = fp_seed(99);
    for (unsigned c = 0; c < CHAINS; c++)
        x[c] = fp_seed(c);
    return TIME_CHAINS(x, iters, fp_mul(&x[c], &x[c], &y));
}

static double run_fp_sqr(size_t iters)
{
    fp_t x[CHAINS];
    for (unsigned c = 0; c < CHAINS; c++)
        x[c] = fp_seed(c);
    return TIME_CHAINS(x, iters, fp_sqr(&x[c], &x[c]));
}

static double run_fr_mul(size_t iters)
{
    fr_t x[CHAINS], y;
    fr_set_u64(&y, gm_now_ns() | 1);
    for (unsigned c = 0; c < CHAINS; c++)
        fr_set_u64(&x[c], gm_now_ns() + c);
    return TIME_CHAINS(x, iters, fr_mul(&x[c], &x[c], &y));
}

static double run_fp_inv(size_t iters)
{
    fp_t x = fp_seed(7), one = FP_ONE;
    uint64_t t0 = gm_thread_cpu_ns();
    for (size_t i = 0; i < iters; i++) {
        fp_inv(&x, &x);
        fp_add(&x, &x, &one);   /* keep the input changing */
    }
    double r = ns_per(t0, iters);
    __asm__ volatile("" ::"r"(&x) : "memory");
    return r;
}

static g1_jac_t g1_seed(uint64_t k)
{
    g1_jac_t g, p;
    uint64_t s[4] = {k | 1, k * 0x9e3779b97f4a7c15ULL, 0, 0};
    g1_from_affine(&g, &G1_GENERATOR);
    g1_mul(&p, &g, s);
    return p;
}

static double run_g1_add(size_t iters)
{
    g1_jac_t p = g1_seed(gm_now_ns()), q = g1_seed(3);
    return TIME_LOOP(p, iters, g1_add(&p, &p, &q));
}

static double run_g1_add_mixed(size_t iters)
{
    g1_jac_t p = g1_seed(gm_now_ns()), q = g1_seed(5);
    g1_affine_t qa;
    g1_to_affine(&qa, &q);
    return TIME_LOOP(p, iters, g1_add_mixed(&p, &p, &qa));
}

static double run_g1_dbl(size_t iters)
{
    g1_jac_t p = g1_seed(gm_now_ns());
    return TIME_LOOP(p, iters, g1_dbl(&p, &p));
}

/* 255-bit scalars, as blst's figure uses. */
static void scalar_seed(uint64_t k[4], uint64_t i)
{
    uint64_t x = gm_now_ns() + i;
    for (int j = 0; j < 4; j++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        k[j] = x;
    }
    k[3] = (k[3] & 0x3fffffffffffffffULL) | 0x4000000000000000ULL;
}

/* ns per p = k p (mul: g1_mul | g2_mul) with a fresh scalar each time,
 * timing only the multiplications. */
#define TIME_SCALAR_MUL(p, iters, mul)                                                             \
    ({                                                                                             \
        uint64_t k_[4], t_ = 0;                                                                    \
        for (size_t i_ = 0; i_ < (iters); i_++) {                                                  \
            scalar_seed(k_, i_);                                                                   \
            uint64_t t0_ = gm_thread_cpu_ns();                                                     \
            mul(&(p), &(p), k_);                                                                   \
            t_ += gm_thread_cpu_ns() - t0_;                                                        \
        }                                                                                          \
        __asm__ volatile("" ::"r"(&(p)) : "memory");                                               \
        (double)t_ / (double)(iters);                                                              \
    })

static double run_g1_mul(size_t iters)
{
    g1_jac_t p = g1_seed(gm_now_ns());
    return TIME_SCALAR_MUL(p, iters, g1_mul);
}

static double run_g2_mul(size_t iters)
{
    g2_jac_t p;
    g2_from_affine(&p, &G2_GENERATOR);
    return TIME_SCALAR_MUL(p, iters, g2_mul);
}

static double run_pairing(size_t iters)
{
    g1_affine_t p;
    g1_jac_t pj = g1_seed(gm_now_ns());
    g1_to_affine(&p, &pj);
    fp12_t e;
    return TIME_LOOP(e, iters, pairing(&e, &p, &G2_GENERATOR));
}

/* BN254, beside BLS12-381: 4-limb Fp multiplication, G1 addition (no blst
 * figure: blst has no BN254). */
static double run_bn_fp_mul(size_t iters)
{
    bn_fp_t x[CHAINS], y;
    bn_fp_set_u64(&y, gm_now_ns() | 1);
    for (unsigned c = 0; c < CHAINS; c++)
        bn_fp_set_u64(&x[c], gm_now_ns() + c);
    return TIME_CHAINS(x, iters, bn_fp_mul(&x[c], &x[c], &y));
}

static bn_g1_jac_t bn_g1_seed(uint64_t k)
{
    bn_g1_jac_t g, p;
    uint64_t s[4] = {k | 1, k * 0x9e3779b97f4a7c15ULL, 0, 0};
    bn_g1_from_affine(&g, &BN254_G1_GENERATOR);
    bn_g1_mul(&p, &g, s);
    return p;
}

static double run_bn_g1_add(size_t iters)
{
    bn_g1_jac_t p = bn_g1_seed(gm_now_ns()), q = bn_g1_seed(3);
    return TIME_LOOP(p, iters, bn_g1_add(&p, &p, &q));
}

static const field_case_t cases[] = {
    {"Fp mul", 41.0, run_fp_mul, 200000},
    {"Fp sqr", 43.5, run_fp_sqr, 200000},
    {"Fr mul", 20.0, run_fr_mul, 400000},
    {"Fp inverse", 3370.0, run_fp_inv, 2000},
    {"G1 add (Jacobian)", 866.0, run_g1_add, 10000},
    {"G1 mixed add", 730.0, run_g1_add_mixed, 10000},
    {"G1 double", 380.0, run_g1_dbl, 20000},
    {"G1 scalar mul (255-bit)", 104800.0, run_g1_mul, 60},
    {"G2 scalar mul (255-bit)", 197700.0, run_g2_mul, 30},
    {"pairing", 684000.0, run_pairing, 10},
    {"BN254 Fp mul", 0, run_bn_fp_mul, 400000},
    {"BN254 G1 add (Jacobian)", 0, run_bn_g1_add, 20000},
};

static void print_ns(double ns)
{
    if (ns >= 10000)
        printf("%10.1f µs", ns / 1000);
    else
        printf("%10.1f ns", ns);
}

int bench_field_main(int argc, char **argv)
{
    static const char help[] =
        "usage: grothmpi bench field [--quick] [--runs N]\n\n"
        "ns per operation (min and median of N runs, default 7, in thread CPU time)\n"
        "for Fp/Fr multiplication, Fp inversion, G1 add/double, G1 and G2 scalar\n"
        "multiplication and the pairing, with the ratio to blst measured on the\n"
        "reference 2-core VM (ratio < 1: faster than blst).\n"
        "--quick: 3 shorter runs. GROTHMPI_FF_PATH=portable|adx picks the kernels.\n";
    bench_opts_t o = {.quick = false, .runs = 7, .threads = 1};
    int prc = bench_parse_opts(&o, argc, argv, "field", help);
    if (prc != 0)
        return prc == 1 ? 0 : 2;
    int runs = o.quick ? 3 : o.runs;
    double scale = o.quick ? 0.2 : 1.0;
    bench_print_machine();
    printf("%-26s %13s %13s %13s %9s\n", "operation", "min", "median", "blst", "median/blst");
    double t[1000];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t iters = (size_t)((double)cases[c].iters * scale);
        if (iters < 8)
            iters = 8;
        cases[c].run(iters / 4 + 1);  /* warm caches and clocks */
        for (int r = 0; r < runs; r++)
            t[r] = cases[c].run(iters);
        double med = bench_median(t, (size_t)runs);
        printf("%-26s ", cases[c].name);
        print_ns(t[0]);
        printf(" ");
        print_ns(med);
        printf(" ");
        if (cases[c].blst_ns > 0) {
            print_ns(cases[c].blst_ns);
            printf(" %9.2f\n", med / cases[c].blst_ns);
        } else {
            printf("%13s %9s\n", "-", "-");
        }
    }
    return 0;
}
