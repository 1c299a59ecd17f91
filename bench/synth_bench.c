/*
 * bench/synth_bench.c — `grothmpi bench synth`: synthesis of one PoRep
 * partition without proving it, the equivalent of cuzk-bench's synth-only
 * mode: the witness (the StackedCircuit run in CS_WITNESS mode over a random
 * consistent witness) and the prover's prepare stage over the cached shape
 * (groth16_prepare on a prepare-only prover: a, b, c and h by the NTTs), with
 * constraints per second and the peak memory one partition's path holds.
 *
 * Anchors printed with the figures: bellperson synthesizes a 32 GiB
 * partition (130 M constraints) on one Zen 4 thread at about 4 M
 * constraints/s; grothmpi's goal is >= 10 M constraints/s per thread for the
 * witness plus a/b/c on the 512 MiB shape (4.4 M constraints), and a peak of
 * <= 100 bytes per constraint per partition (bellperson/cuzk: about 112).
 *
 * The shape is recorded once (CS_SHAPE) and cached as <cache>/porep-<bytes>.shape,
 * the file `grothmpi setup` and `grothmpi circuit shape` use; recording and
 * loading it are outside every timed region. The random witness's vanilla
 * data (sparse trees over the challenged nodes) is made outside the timed
 * region too: it stands for reading a C1. Per-thread rates divide by the
 * process CPU time of the stage (witness synthesis runs on one thread, a/b/c
 * on the pool), so a loaded machine shows in the wall times, not the rates.
 * Min and median of N runs; it measures and never asserts.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "circuits/circuits.h"
#include "params/params.h"
#include "bench/bench.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "topo/topo.h"

#define BELLPERSON_RATE 4.0e6   /* constraints/s, one Zen 4 thread, 32 GiB partition */
#define GOAL_RATE 10.0e6        /* constraints/s per thread, witness + a/b/c, 512 MiB */
#define GOAL_BYTES 100.0        /* peak bytes per constraint per partition */
#define BELLPERSON_BYTES 112.0

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi bench synth --porep SIZE [--partition K] [--threads N] [--runs R]\n"
               "                            [--cache DIR] [--compact]\n\n"
               "  --porep SIZE     sector size: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (default 512MiB)\n"
               "  --partition K    the partition (its witness seed; default 0)\n"
               "  --threads N      a/b/c threads (default 1); the witness runs on one thread\n"
               "  --runs R         runs (default 3)\n"
               "  --cache DIR      shape cache (default $GROTHMPI_PARAMS_CACHE or\n"
               "                   /tmp/grothmpi-params); the shape is recorded once\n"
               "  --compact        keep the witness compact while synthesizing (CS_FLAG_COMPACT:\n"
               "                   0/1 values as bits, the rest dense), as campaigns do\n");
}

/* The cached shape of c (params/: the file setup, prove and campaigns use),
 * recorded once when missing. */
static int shape_get(cs_shape_t **out, const params_paths_t *p, const circuit_t *c, err_t *err)
{
    uint64_t t0 = gm_now_ns();
    bool stamped = false;
    if (cs_shape_cached(p->dir, p->id)) {
        int rc = params_shape_load(out, &stamped, p, false, err);
        if (rc == 0)
            printf("shape:   %s (cached, mapped%s in %.2f s)\n", p->shape,
                   stamped ? "; unchanged since its stamp, index checks skipped," : " and checked",
                   (double)(gm_now_ns() - t0) * 1e-9);
        return rc;
    }
    if (mkdir(p->dir, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", p->dir, strerror(errno));
    printf("shape:   recording %s once (CS_SHAPE) ...\n", p->id);
    fflush(stdout);
    int rc = params_shape_record(out, p, c, err);
    if (rc)
        return rc;
    double rec = (double)(gm_now_ns() - t0) * 1e-9;
    /* Used from the file, as every later run and the prover use it: the
     * recorded copy would hold the matrices in anonymous memory (9 GB at
     * 32 GiB) beside the partition measured. */
    cs_shape_free(*out);
    *out = NULL;
    if ((rc = params_shape_load(out, NULL, p, false, err)))
        return rc;
    printf("shape:   recorded in %.2f s, saved to %s and mapped\n", rec, p->shape);
    return 0;
}

typedef struct {
    double wall, cpu;
} tm_t;

static double med_of(tm_t *v, size_t n, bool cpu, double *min)
{
    double x[64];
    for (size_t i = 0; i < n; i++)
        x[i] = cpu ? v[i].cpu : v[i].wall;
    double m = bench_median(x, n);
    *min = x[0];
    return m;
}

int bench_synth_main(int argc, char **argv)
{
    static const struct option opts[] = {{"porep", required_argument, 0, 'p'},   {"partition", required_argument, 0, 'k'},
                                         {"threads", required_argument, 0, 't'}, {"runs", required_argument, 0, 'r'},
                                         {"cache", required_argument, 0, 'c'},   {"help", no_argument, 0, 'h'},
                                         {"compact", no_argument, 0, 'C'},
                                         {0, 0, 0, 0}};
    const char *size_s = "512MiB", *cache = getenv("GROTHMPI_PARAMS_CACHE");
    unsigned threads = 1, runs = 3, part = 0;
    bool compact = false;
    int o;
    optind = 1;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'p': size_s = optarg; break;
        case 'k': part = (unsigned)strtoul(optarg, NULL, 10); break;
        case 't': threads = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'r': runs = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'c': cache = optarg; break;
        case 'C': compact = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!cache || !*cache)
        cache = "/tmp/grothmpi-params";
    if (optind != argc || runs < 1 || runs > 64 || threads < 1 || threads > 1024) {
        usage(stderr);
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    stacked_config_t cfg;
    uint64_t bytes;
    if (stacked_sector_size_parse(&bytes, size_s, "--porep", &err) || stacked_config_init(&cfg, bytes, &err)) {
        fprintf(stderr, "grothmpi: bench synth: %s\n", err.msg);
        return 2;
    }
    if (part >= cfg.partitions) {
        fprintf(stderr, "grothmpi: bench synth: --partition: %u is not in 0..%u\n", part, cfg.partitions - 1);
        return 2;
    }
    circuit_t circ;
    params_paths_t paths;
    if (circuit_parse(&circ, "porep", 0, size_s, &err) || params_paths(&paths, cache, circ.id, &err)) {
        fprintf(stderr, "grothmpi: bench synth: %s\n", err.msg);
        return 2;
    }

    int rc = 1;
    poseidon_set_t ps;
    bool ps_ok = false;
    cs_shape_t *shape = NULL;
    topo_pool_t *pool = NULL;
    stacked_witness_t *w = NULL;
    cs_t *cs = NULL;
    groth16_prover_t *pv = NULL;
    groth16_prepared_t *unit = NULL;
    tm_t t_wit[64], t_abc[64], t_ntt[64], t_both[64], t_prep[64];
    size_t mem_wit = 0, mem_prover = 0, mem_peak = 0, rss_peak = 0;
    uint64_t n_dense = 0;
    size_t mem_base0 = gm_mem_current();
    if (poseidon_set_init(&ps, &err))
        goto fail;
    ps_ok = true;
    bench_print_machine();
    if (shape_get(&shape, &paths, &circ, &err))
        goto fail;
    uint64_t n = shape->n_constraints;
    printf("circuit: porep %s partition %u: %llu constraints, %llu rows, %llu inputs, %llu aux; nnz A %llu, "
           "B %llu, C %llu\n",
           size_s, part, (unsigned long long)n, (unsigned long long)shape->n_rows,
           (unsigned long long)shape->n_inputs, (unsigned long long)shape->n_aux,
           (unsigned long long)cs_shape_nnz(shape, 0), (unsigned long long)cs_shape_nnz(shape, 1),
           (unsigned long long)cs_shape_nnz(shape, 2));
    if (topo_pool_create_flat(&pool, threads, &err))
        goto fail;
    uint64_t t0 = gm_now_ns();
    if (stacked_witness_random(&w, &cfg, &ps, part, &err))
        goto fail;
    printf("vanilla: random consistent witness data in %.3f s (stands for reading C1; not timed below)\n",
           (double)(gm_now_ns() - t0) * 1e-9);
    /* The prover's prepare stage as a campaign runs it (groth16_prepare on a
     * prepare-only prover: no parameters exist for this shape here): its
     * second m-vector, NTT domain and scratch, and one prepared unit (h),
     * made once and reused for every partition. Their first-touch page
     * faults fall in run 1 (the median of 3 runs excludes them). */
    size_t base = gm_mem_current();
    if (groth16_prover_create(&pv, NULL, shape, pool, &err) || groth16_prepared_create(&unit, pv, &err))
        goto fail;
    mem_prover = gm_mem_current() - base;
    uint64_t m = 2;
    while (m < shape->n_rows)
        m *= 2;
    for (unsigned r = 0; r < runs; r++) {
        /* one partition's life: the witness system, then prepare (a, b, c, h) */
        gm_mem_reset_peak();
        uint64_t w0 = gm_now_ns(), c0 = gm_process_cpu_ns();
        if (cs_create(&cs, CS_WITNESS, compact ? CS_FLAG_COMPACT : CS_FLAG_NONE, &err))
            goto fail;
        cs_reserve(cs, shape->n_aux, shape->n_inputs);
        stacked_synthesize(cs, &cfg, &ps, w);
        if (cs_status(cs, &err))
            goto fail;
        uint64_t w1 = gm_now_ns(), c1 = gm_process_cpu_ns();
        mem_wit = gm_mem_current() - base - mem_prover;
        groth16_witness_t gw;
        groth16_witness_of(&gw, cs);
        if (gw.aux_compact)
            n_dense = gw.aux_compact->n_dense;
        groth16_timings_t tp;
        if (groth16_prepare(pv, unit, &gw, pool, &tp, &err))
            goto fail;
        mem_peak = gm_mem_peak() - base;
        t_wit[r] = (tm_t){(double)(w1 - w0) * 1e-9, (double)(c1 - c0) * 1e-9};
        t_abc[r] = (tm_t){(double)tp.abc * 1e-9, (double)tp.cpu_abc * 1e-9};
        t_ntt[r] = (tm_t){(double)tp.ntt * 1e-9, (double)tp.cpu_ntt * 1e-9};
        t_both[r] = (tm_t){t_wit[r].wall + t_abc[r].wall, t_wit[r].cpu + t_abc[r].cpu};
        t_prep[r] = (tm_t){t_both[r].wall + t_ntt[r].wall, t_both[r].cpu + t_ntt[r].cpu};
        cs_destroy(cs);
        cs = NULL;
    }
    rss_peak = gm_rss_peak();
    printf("runs:    %u, a/b/c and NTTs on %u thread%s, witness on 1\n\n", runs, threads, threads == 1 ? "" : "s");
    printf("%-26s %9s %9s %9s   %s\n", "stage", "min s", "median s", "cpu s", "M constraints/s per thread (cpu)");
    struct {
        const char *name;
        tm_t *t;
    } rowsv[] = {{"witness (synthesis)", t_wit},     {"a/b/c (A·z, B·z; C·z)", t_abc},
                 {"h (7 NTTs, 2 pointwise)", t_ntt}, {"witness + a/b/c", t_both},
                 {"witness + prepare", t_prep}};
    double rate_both = 0;
    for (int i = 0; i < 5; i++) {
        double mn, mncpu, md = med_of(rowsv[i].t, runs, false, &mn), mdcpu = med_of(rowsv[i].t, runs, true, &mncpu);
        double rate = (double)n / mdcpu;
        printf("%-26s %9.3f %9.3f %9.3f   %6.2f\n", rowsv[i].name, mn, md, mdcpu, rate * 1e-6);
        if (i == 3)
            rate_both = rate;
    }
    double bpc = (double)mem_peak / (double)n;
    printf("\nrate:    %.2f M constraints/s per thread (witness + a/b/c, median cpu): %.2fx bellperson "
           "(4 M/s, 32 GiB, one Zen 4 thread), %.2fx the goal (10 M/s)\n",
           rate_both * 1e-6, rate_both / BELLPERSON_RATE, rate_both / GOAL_RATE);
    if (compact)
        printf("witness: compact: %llu of %llu aux values are not 0 or 1 (%.2f %%): %.2f bytes per value held\n",
               (unsigned long long)n_dense, (unsigned long long)shape->n_aux,
               100.0 * (double)n_dense / (double)shape->n_aux, (double)mem_wit / (double)shape->n_aux);
    printf("memory:  witness values %.1f MiB, prover prepare scratch %.1f MiB (m-vector, NTT domain and scratch) + "
           "prepared unit %.1f MiB (h), domain m = %llu = %.3f x constraints\n",
           (double)mem_wit / 1048576.0, (double)(mem_prover - groth16_prepared_bytes(pv)) / 1048576.0,
           (double)groth16_prepared_bytes(pv) / 1048576.0, (unsigned long long)m, (double)m / (double)n);
    printf("peak:    one partition's prepare path %.1f MiB (allocator) = %.1f bytes per constraint: goal <= %.0f, "
           "bellperson/cuzk ~%.0f\n",
           (double)mem_peak / 1048576.0, bpc, GOAL_BYTES, BELLPERSON_BYTES);
    /* The prover's scratch (second m-vector, NTT domain) is made once per
     * prover; what each further partition in flight adds is its witness
     * and its prepared unit. */
    double per_unit = (double)(mem_wit + groth16_prepared_bytes(pv));
    printf("batch:   each further partition in flight holds its witness and h: %.1f MiB = %.1f bytes per "
           "constraint\n", per_unit / 1048576.0, per_unit / (double)n);
    /* The shape is mapped from its cache file (cs_shape_load): its pages
     * are page cache, shared by the node's ranks and reclaimable, and count
     * in the RSS only while resident, so the RSS is given with and without
     * them (without: at most the file's size subtracted). */
    double shape_mib = (double)shape->map_bytes / 1048576.0, rss_mib = (double)rss_peak / 1048576.0;
    double rss_wo = rss_mib > shape_mib ? rss_mib - shape_mib : 0;
    printf("process: allocator peak %.1f MiB (%.1f MiB before the partition: coefficients, vanilla data); shape "
           "%.1f MiB mapped from the cache (page cache, shared by all partitions and ranks); rss peak %.1f MiB = "
           "%.1f bytes per constraint with the shape's resident pages, >= %.1f without\n",
           (double)gm_mem_peak() / 1048576.0, (double)(base - mem_base0) / 1048576.0, shape_mib, rss_mib,
           (double)rss_peak / (double)n, rss_wo * 1048576.0 / (double)n);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: bench synth: %s\n", err.msg);
    groth16_prepared_free(unit);
    groth16_prover_destroy(pv);
    cs_destroy(cs);
    stacked_witness_free(w, &cfg);
    topo_pool_destroy(pool);
    cs_shape_free(shape);
    if (ps_ok)
        poseidon_set_free(&ps);
    return rc;
}
