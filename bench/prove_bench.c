/*
 * bench/prove_bench.c — `grothmpi bench prove`: one Groth16 proof of the
 * synthetic circuit at 2^16 .. 2^20 rows (--quick: 2^10, 2^12), per stage
 * (witness, a/b/c, NTT, each MSM, verify) and in total, on 1 and 2 threads,
 * with the memory the prover holds and the process peaks. Parameters come
 * from a cache directory (setup runs once per size, outside every timed
 * region). Min and median of N runs; it measures and never asserts. The
 * "cpu" row is the process CPU time of a run: on a loaded machine it shows
 * how much of the wall time the run actually had the cores.
 * --porep SIZE adds one PoRep partition of that sector size, its witness from
 * synth's random consistent vanilla proofs (circuit_witness), its
 * parameters from the same cache `grothmpi setup --circuit porep` and the
 * demo fill. Parameters are loaded by params/'s policy (params_load: the
 * cache's own setup vouches for its points, and a converted points file is
 * mapped when there is one), or with every point checked under
 * --check-params.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "bench/bench.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "topo/topo.h"
#include "circuits/circuits.h"
#include "params/params.h"

enum { ST_WITNESS, ST_ABC, ST_NTT, ST_MSM_A, ST_MSM_B1, ST_MSM_B2, ST_MSM_L, ST_MSM_H, ST_VERIFY, ST_TOTAL, ST_CPU, NST };
static const char *const ST_NAMES[NST] = {"witness", "abc",  "ntt",   "msm_a",  "msm_b_g1",
                                          "msm_b_g2", "msm_l", "msm_h", "verify", "total", "cpu"};

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi bench prove [--quick] [--log K[,K...]] [--threads N[,N...]] [--runs N]\n"
               "                            [--porep SIZE] [--cache DIR] [--check-params] [--compact]\n\n"
               "  --quick        2^10 and 2^12 rows, 2 runs (default: 2^16..2^20, 3 runs)\n"
               "  --log LIST     log2 of the rows of the synthetic circuit; 0 = none\n"
               "  --porep SIZE   also one PoRep partition of SIZE (e.g. 2KiB; setup is minutes\n"
               "                 when the cache lacks it)\n"
               "  --threads LIST thread counts (default 1,2)\n"
               "  --runs N       runs per size and thread count\n"
               "  --cache DIR    parameter cache (default $GROTHMPI_PARAMS_CACHE or\n"
               "                 /tmp/grothmpi-params); setup runs once per size\n"
               "  --check-params hash the file and check every point (default: params/'s policy:\n"
               "                 the cache's setup vouches for its points; a points file is mapped)\n"
               "  --compact      witnesses kept compact (0/1 values as bits, the rest dense), as\n"
               "                 campaigns keep PoRep witnesses\n");
}

static int parse_list(unsigned *out, int max, const char *s)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s)
            return -1;
        out[n++] = (unsigned)v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static void note_stdout(void *arg, const char *line)
{
    (void)arg;
    printf("bench prove: %s\n", line);
    fflush(stdout);
}

/* Makes sure dir holds parameters for c (params_ensure: made once, not
 * timed); returns 0 or prints and returns 1. */
static int ensure_params(const params_paths_t *p, const circuit_t *c, bool check)
{
    err_t err;
    gm_err_clear(&err);
    params_ensure_t r;
    params_ensure_opts_t o = {.note = note_stdout};
    if (params_ensure(&r, p, c, PARAMS_ENSURE_GENERATE | (check ? PARAMS_ENSURE_FULL : 0), &o, &err)) {
        fprintf(stderr, "grothmpi: bench prove: setup: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int bench_one(const params_paths_t *p, const circuit_t *c, unsigned threads, unsigned runs, unsigned load_flags,
                     bool compact)
{
    err_t err;
    gm_err_clear(&err);
    topo_pool_t *pool = NULL;
    cs_shape_t *shape = NULL;
    groth16_params_t *params = NULL;
    groth16_prover_t *pv = NULL;
    double *v[NST] = {0};
    int rc = 1;
    bool check = !(load_flags & GROTH16_LOAD_TRUST);
    if (topo_pool_create_flat(&pool, threads, &err) || params_shape_load(&shape, NULL, p, check, &err))
        goto fail;
    uint64_t t0 = gm_now_ns();
    /* params/'s policy: the cache's own setup vouches for its points; a
     * converted points file is mapped when there is one. */
    params_loaded_t li;
    unsigned lf = check ? PARAMS_LOAD_CHECK | PARAMS_LOAD_REHASH : PARAMS_LOAD_DEFAULT;
    if (params_load(&params, &li, p->params, shape, lf, pool, NULL, NULL, &err) ||
        groth16_prover_create(&pv, params, shape, pool, &err))
        goto fail;
    double load_ms = (double)(gm_now_ns() - t0) * 1e-6;
    for (int s = 0; s < NST; s++)
        if (!(v[s] = calloc(runs, sizeof(double))))
            goto fail;
    gm_mem_reset_peak();
    for (unsigned r = 0; r < runs; r++) {
        cs_t *cs;
        circuit_witness_opts_t wo = {.seed = r + 1, .mode = CS_WITNESS,
                                     .flags = compact ? CS_FLAG_COMPACT : CS_FLAG_NONE};
        uint64_t w0 = gm_now_ns(), c0 = gm_process_cpu_ns();
        if (circuit_witness(&cs, c, &wo, &err))
            goto fail;
        v[ST_WITNESS][r] = (double)(gm_now_ns() - w0) * 1e-6;
        groth16_witness_t w;
        groth16_witness_of(&w, cs);
        groth16_proof_t proof;
        groth16_timings_t t;
        int prc = groth16_prove(pv, &proof, &w, 1, NULL, GROTH16_PROVE_DEFAULT, pool, &t, &err);
        cs_destroy(cs);
        if (prc)
            goto fail;
        const uint64_t ns[ST_CPU] = {0, t.abc, t.ntt, t.msm_a, t.msm_b_g1, t.msm_b_g2, t.msm_l, t.msm_h, t.verify,
                                     t.total};
        for (int s = 1; s < ST_CPU; s++)
            v[s][r] = (double)ns[s] * 1e-6;
        v[ST_TOTAL][r] += v[ST_WITNESS][r];
        v[ST_CPU][r] = (double)(gm_process_cpu_ns() - c0) * 1e-6;
    }
    printf("\n%s: %llu rows (%llu constraints), %llu inputs, %llu aux; %u thread%s, %u runs; params load %.1f ms%s%s\n",
           c->id, (unsigned long long)shape->n_rows, (unsigned long long)shape->n_constraints,
           (unsigned long long)shape->n_inputs, (unsigned long long)shape->n_aux, threads, threads == 1 ? "" : "s",
           runs, load_ms, li.mapped ? " (points mapped)" : li.trusted ? " (trusted)" : " (subgroup-checked)",
           compact ? "; compact witnesses" : "");
    printf("  %-10s %12s %12s\n", "stage", "min ms", "median ms");
    for (int s = 0; s < NST; s++) {
        double med = bench_median(v[s], runs);
        printf("  %-10s %12.2f %12.2f", ST_NAMES[s], v[s][0], med);
        if (s == ST_TOTAL)
            printf("   %.0f constraints/s (median)", (double)shape->n_rows / (med * 1e-3));
        if (s == ST_CPU)
            printf("   process CPU time of witness + proof (wall x threads when unloaded)");
        printf("\n");
    }
    printf("  memory: params %.1f MiB, prover scratch %.1f MiB + one prepared unit %.1f MiB, allocator peak %.1f "
           "MiB, rss peak %.1f MiB\n",
           (double)groth16_params_memory(params) / 1048576.0, (double)groth16_prover_memory(pv) / 1048576.0,
           (double)groth16_prepared_bytes(pv) / 1048576.0, (double)gm_mem_peak() / 1048576.0,
           (double)gm_rss_peak() / 1048576.0);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: bench prove: %s: %s\n", c->id, err.msg);
    for (int s = 0; s < NST; s++)
        free(v[s]);
    groth16_prover_destroy(pv);
    groth16_params_free(params);
    cs_shape_free(shape);
    topo_pool_destroy(pool);
    return rc;
}

int bench_prove_main(int argc, char **argv)
{
    static const struct option opts[] = {{"quick", no_argument, 0, 'q'},        {"log", required_argument, 0, 'l'},
                                         {"threads", required_argument, 0, 't'}, {"runs", required_argument, 0, 'r'},
                                         {"cache", required_argument, 0, 'c'},   {"help", no_argument, 0, 'h'},
                                         {"porep", required_argument, 0, 'p'},   {"check-params", no_argument, 0, 'C'},
                                         {"compact", no_argument, 0, 'W'},       {0, 0, 0, 0}};
    unsigned logs[16] = {16, 17, 18, 19, 20}, thr[8] = {1, 2};
    int nlogs = 5, nthr = 2;
    unsigned runs = 3;
    bool quick = false, runs_set = false, logs_set = false, compact = false;
    const char *porep = NULL;
    unsigned load_flags = GROTH16_LOAD_TRUST;
    const char *cache = getenv("GROTHMPI_PARAMS_CACHE");
    if (!cache)
        cache = "/tmp/grothmpi-params";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'q': quick = true; break;
        case 'l': nlogs = parse_list(logs, 16, optarg), logs_set = true; break;
        case 't': nthr = parse_list(thr, 8, optarg); break;
        case 'r': runs = (unsigned)strtoul(optarg, NULL, 0), runs_set = true; break;
        case 'c': cache = optarg; break;
        case 'p': porep = optarg; break;
        case 'C': load_flags = GROTH16_LOAD_DEFAULT; break;
        case 'W': compact = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (quick && !logs_set)
        logs[0] = 10, logs[1] = 12, nlogs = 2;
    if (quick && !runs_set)
        runs = 2;
    if (logs_set && nlogs == 1 && logs[0] == 0)
        nlogs = 0;
    if (nlogs < 0 || (nlogs == 0 && !porep) || nthr <= 0 || runs == 0) {
        usage(stderr);
        return 2;
    }
    if (mkdir(cache, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "grothmpi: bench prove: %s: cannot create: %s\n", cache, strerror(errno));
        return 1;
    }
    bench_print_machine();
    printf("bench prove: Groth16 proofs, stages in ms; parameters cached in %s\n", cache);
    int rc = 0;
    err_t err;
    for (int i = 0; i < nlogs + (porep != NULL) && rc == 0; i++) {
        circuit_t circ;
        int prc = i < nlogs ? circuit_parse(&circ, "test-synthetic", 1ULL << logs[i], NULL, &err)
                            : circuit_parse(&circ, "porep", 0, porep, &err);
        if (prc) {
            fprintf(stderr, "grothmpi: bench prove: %s\n", err.msg);
            rc = 2;
            break;
        }
        params_paths_t paths;
        if (params_paths(&paths, cache, circ.id, &err)) {
            fprintf(stderr, "grothmpi: bench prove: %s\n", err.msg);
            rc = 2;
            break;
        }
        if ((rc = ensure_params(&paths, &circ, !(load_flags & GROTH16_LOAD_TRUST))))
            break;
        for (int t = 0; t < nthr && rc == 0; t++)
            rc = bench_one(&paths, &circ, thr[t], runs, load_flags, compact);
    }
    return rc;
}
