/* cli/cmd_setup.c — `grothmpi setup`: a test Groth16 setup for a built-in
 * circuit, cached in a directory keyed by the circuit id (params/params.h
 * owns the files: <id>.params, .vk, .shape, .setup, the stamps and
 * manifest.json). A second run with the same circuit finds the cache and
 * does nothing but check the digest; a shape already in the cache (`grothmpi
 * circuit shape`) is used rather than recorded again.
 *
 * A large setup (the 2 KiB PoRep partition: 2.69 M constraints, a 2^22
 * domain, about 1.3 GB of parameters) takes minutes: a progress line goes
 * to stderr every 10 s (--quiet: none), read from the counters that
 * groth16_setup_run keeps (QAP pass and rows, points written, rate, time
 * left, RSS). The watcher is a second task on a 2-worker topo pool that
 * sleeps between looks; the setup itself runs on the main pool. */
#include <errno.h>
#include <getopt.h>
#include <stdatomic.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "topo/topo.h"
#include "circuits/circuits.h"
#include "jobs/jobs.h"
#include "params/params.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi setup --circuit NAME --out DIR [options]\n\n"
            "Generates test Groth16 parameters (NOT a ceremony: the seed is the toxic\n"
            "waste) for a built-in circuit and caches them in DIR as <id>.params, <id>.vk,\n"
            "<id>.shape and <id>.setup, and records the digest of <id>.params in\n"
            "DIR/manifest.json (checked by campaigns and grothmpi params verify).\n\n"
            "While it runs, <id>.params.partial, .journal and .scratch sit in DIR; a\n"
            "setup that is killed or fails (a full disk included) keeps them, and the\n"
            "same command run again resumes from the last completed chunk (with the\n"
            "journal's seed when --seed is not given). The final file appears only\n"
            "when whole, byte-identical to an uninterrupted run. The free space is\n"
            "checked first against what is left to write (docs/groth16.md).\n\n"
            "  --circuit NAME       test-mul | test-synthetic | test-sha256 | porep\n"
            "  --constraints N      test-synthetic: rows, a power of two (default 1024)\n"
            "  --compressions N     test-sha256: chained compressions (default 1)\n"
            "  --sector-size S      porep: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n"
            "  --out DIR            the cache directory (created if missing)\n"
            "  --seed HEX           64 hex digits (default: random, printed)\n"
            "  --threads N          worker threads (default: all CPUs)\n"
            "  --force              regenerate even when the cache has the circuit\n"
            "  --mem-budget SIZE    memory for the setup's own arrays (default 12GiB): a\n"
            "                       smaller budget computes the QAP in more passes\n"
            "  --quiet              no progress lines on stderr\n"
            "  --verbose            per-stage timings\n");
}

/* ---- the setup with a progress watcher ------------------------------------------------------ */

typedef struct {
    const cs_shape_t *shape;
    const uint8_t *seed;
    const char *pp, *vp;
    topo_pool_t *pool;
    const groth16_setup_opts_t *opts;
    err_t err;
    int rc;
    atomic_int done;
    bool quiet;
    uint64_t t0;
} setup_job_t;

/* One progress line from the setup's counters. */
static void progress_line(const setup_job_t *j, uint64_t *t_points, uint64_t *base)
{
    groth16_setup_progress_t *pr = j->opts->progress;
    double secs = (double)(gm_now_ns() - j->t0) * 1e-9;
    int stage = atomic_load_explicit(&pr->stage, memory_order_relaxed);
    double rss = (double)gm_rss_current() / 1073741824.0;
    if (stage == GROTH16_STAGE_QAP) {
        uint64_t rows = atomic_load_explicit(&pr->rows, memory_order_relaxed);
        uint64_t done = atomic_load_explicit(&pr->rows_done, memory_order_relaxed);
        fprintf(stderr, "setup: %.0f s: QAP at tau: pass %llu of %llu, rows %3.0f%%, rss %.2f GiB\n", secs,
                (unsigned long long)atomic_load_explicit(&pr->pass, memory_order_relaxed),
                (unsigned long long)atomic_load_explicit(&pr->passes, memory_order_relaxed),
                rows ? 100.0 * (double)done / (double)rows : 0.0, rss);
    } else if (stage == GROTH16_STAGE_POINTS) {
        uint64_t total = atomic_load_explicit(&pr->points_total, memory_order_relaxed);
        uint64_t done = atomic_load_explicit(&pr->points_done, memory_order_relaxed);
        if (!*t_points) {
            *t_points = gm_now_ns();
            *base = done;
        }
        double dt = (double)(gm_now_ns() - *t_points) * 1e-9;
        double rate = dt > 0 ? (double)(done - *base) / dt : 0;
        char left[64] = "?";
        if (rate > 0)
            snprintf(left, sizeof left, "%.0f min", (double)(total - done) / rate / 60.0);
        fprintf(stderr, "setup: %.0f s: points %llu of %llu (%3.0f%%), %.0f points/s, about %s left, rss %.2f GiB\n",
                secs, (unsigned long long)done, (unsigned long long)total,
                total ? 100.0 * (double)done / (double)total : 0.0, rate, left, rss);
    } else if (stage == GROTH16_STAGE_TABLES) {
        fprintf(stderr, "setup: %.0f s: fixed-base tables, rss %.2f GiB\n", secs, rss);
    } else {
        fprintf(stderr, "setup: %.0f s: planning (density of the columns), rss %.2f GiB\n", secs, rss);
    }
}

/* Task 0 runs the setup, task 1 prints a progress line from its counters
 * every 10 s until task 0 is done. */
static void setup_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    setup_job_t *j = arg;
    if (task == 0) {
        j->rc = groth16_setup_run(j->shape, j->seed, j->pp, j->vp, j->opts, j->pool, &j->err);
        atomic_store(&j->done, 1);
        return;
    }
    uint64_t t_points = 0, base = 0;
    for (unsigned tick = 1; !atomic_load(&j->done); tick++) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (j->quiet || tick % 100 != 0 || atomic_load(&j->done))
            continue;
        progress_line(j, &t_points, &base);
    }
}

/* What params_ensure calls to make the parameters: groth16_setup_run with
 * progress lines (params_setup_fn). */
typedef struct {
    const char *id;
    topo_pool_t *pool;
    bool quiet, verbose;
    uint64_t mem_budget, stop_after;
    uint64_t t_shape; /* when the setup proper started */
} setup_ctx_t;

static void note_line(void *arg, const char *line)
{
    const setup_ctx_t *x = arg;
    if (!x->quiet)
        fprintf(stderr, "%s\n", line);
}

static int setup_with_progress(void *arg, const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES],
                               const char *pp, const char *vp, err_t *err)
{
    setup_ctx_t *x = arg;
    groth16_counts_t n;
    int rc = groth16_shape_counts(&n, shape, err);
    if (rc)
        return rc;
    char hex[2 * GROTH16_SEED_BYTES + 1];
    gm_hex_encode(hex, seed, GROTH16_SEED_BYTES);
    printf("setup: %s: %llu constraints + %llu input rows, %llu inputs, %llu aux, domain %llu\n", x->id,
           (unsigned long long)shape->n_constraints, (unsigned long long)shape->n_inputs,
           (unsigned long long)shape->n_inputs, (unsigned long long)shape->n_aux, (unsigned long long)(n.h + 1));
    printf("setup: seed %s\n", hex);
    fflush(stdout);
    if (!x->quiet)
        fprintf(stderr, "setup: shape ready, peak rss so far %.2f GiB\n", (double)gm_rss_peak() / 1073741824.0);
    x->t_shape = gm_now_ns();
    groth16_setup_progress_t pr = {0};
    groth16_setup_opts_t o = {.mem_budget = x->mem_budget, .progress = &pr, .note = note_line, .note_arg = x,
                              .stop_after = x->stop_after};
    setup_job_t j = {.shape = shape, .seed = seed, .pp = pp, .vp = vp, .pool = x->pool, .opts = &o,
                     .quiet = x->quiet};
    j.t0 = gm_now_ns();
    atomic_init(&j.done, 0);
    gm_err_clear(&j.err);
    topo_pool_t *watch = NULL;
    if ((rc = topo_pool_create_flat(&watch, 2, err)))
        return rc;
    topo_pool_run(watch, 2, setup_task, &j);
    topo_pool_destroy(watch);
    if (j.rc)
        *err = j.err;
    return j.rc;
}

static void note_stderr(void *arg, const char *line)
{
    (void)arg;
    fprintf(stderr, "%s\n", line);
}

int cmd_setup(int argc, char **argv)
{
    static const struct option opts[] = {
        {"circuit", required_argument, 0, 'c'}, {"constraints", required_argument, 0, 'n'},
        {"compressions", required_argument, 0, 'k'}, {"sector-size", required_argument, 0, 'S'},
        {"out", required_argument, 0, 'o'}, {"seed", required_argument, 0, 's'},
        {"threads", required_argument, 0, 't'}, {"force", no_argument, 0, 'f'},
        {"verbose", no_argument, 0, 'v'}, {"help", no_argument, 0, 'h'}, {"quiet", no_argument, 0, 'q'},
        {"mem-budget", required_argument, 0, 'M'}, {0, 0, 0, 0}};
    const char *circuit = NULL, *out = NULL, *seed_hex = NULL, *sector = NULL, *budget_arg = NULL;
    uint64_t size = 0;
    unsigned threads = 0;
    bool force = false, verbose = false, quiet = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': circuit = optarg; break;
        case 'n':
        case 'k': size = strtoull(optarg, NULL, 0); break;
        case 'S': sector = optarg; break;
        case 'o': out = optarg; break;
        case 's': seed_hex = optarg; break;
        case 't': threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'f': force = true; break;
        case 'v': verbose = true; break;
        case 'q': quiet = true; break;
        case 'M': budget_arg = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!circuit || !out || optind != argc) {
        fprintf(stderr, "grothmpi: setup: --circuit and --out are required\n");
        usage(stderr);
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    circuit_t circ;
    if (circuit_parse(&circ, circuit, size, sector, &err)) {
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
        return 2;
    }
    uint8_t seed[GROTH16_SEED_BYTES];
    if (seed_hex && gm_hex_decode_exact(seed, GROTH16_SEED_BYTES, seed_hex, 0, &err)) {
        fprintf(stderr, "grothmpi: setup: --seed: '%s' is not 64 hex digits (%s)\n", seed_hex, err.msg);
        return 2;
    }
    uint64_t budget = 0;
    if (budget_arg && (jobs_size_parse(&budget, budget_arg, "--mem-budget", &err) || budget == 0)) {
        fprintf(stderr, "grothmpi: setup: --mem-budget: '%s' is not a size (e.g. 12GiB)\n", budget_arg);
        return 2;
    }
    /* Tests only: stop after N journal records, as a kill would. */
    const char *stop = getenv("GROTHMPI_SETUP_STOP_AFTER");
    params_paths_t pp;
    if (params_paths(&pp, out, circ.id, &err)) {
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
        return 2;
    }
    int rc = 1;
    topo_pool_t *pool = NULL;
    if (topo_pool_create_flat(&pool, threads, &err))
        goto fail;
    if (!quiet && circ.kind == CIRCUIT_POREP)
        fprintf(stderr, "setup: %s: the shape of one PoRep partition (recorded unless cached)\n", circ.id);
    uint64_t t0 = gm_now_ns();
    setup_ctx_t sx = {.id = circ.id, .pool = pool, .quiet = quiet, .verbose = verbose, .mem_budget = budget,
                      .stop_after = stop ? strtoull(stop, NULL, 10) : 0};
    params_ensure_opts_t eo = {.seed = seed_hex ? seed : NULL, .threads = threads, .setup = setup_with_progress,
                               .setup_arg = &sx, .note = note_stderr};
    params_ensure_t r;
    if (params_ensure(&r, &pp, &circ, PARAMS_ENSURE_GENERATE | (force ? PARAMS_ENSURE_FORCE : 0), &eo, &err))
        goto fail;
    uint64_t t2 = gm_now_ns();
    if (!r.generated) {
        printf("setup: %s: cached in %s (use --force to regenerate)\n", circ.id, out);
        rc = 0;
        goto fail;
    }
    const groth16_counts_t *n = &r.counts;
    printf("setup: wrote %s (h %llu, l %llu, a %llu, b_g1 %llu, b_g2 %llu points) and %s\n", pp.params,
           (unsigned long long)n->h, (unsigned long long)n->l, (unsigned long long)n->a,
           (unsigned long long)n->b_g1, (unsigned long long)n->b_g2, pp.vk);
    printf("setup: recorded %s digest %s in %s\n", pp.name, r.digest, pp.manifest);
    if (!quiet)
        fprintf(stderr, "setup: done in %.1f s, peak rss %.2f GiB\n", (double)(t2 - t0) * 1e-9,
                (double)gm_rss_peak() / 1073741824.0);
    if (verbose)
        printf("setup: timings: shape %.3f s, parameters %.3f s, %u threads, peak rss %.1f MiB\n",
               (double)(sx.t_shape - t0) * 1e-9, (double)(t2 - sx.t_shape) * 1e-9, topo_pool_size(pool),
               (double)gm_rss_peak() / 1048576.0);
    /* The first prove maps the converted points instead of decoding them
     * (params_load writes them here when the disk has room, or says why
     * not; a streamed key has none). A failure here costs only that. */
    groth16_params_t *loaded = NULL;
    params_loaded_t li;
    err_t le;
    if (params_load(&loaded, &li, pp.params, NULL, PARAMS_LOAD_DEFAULT, pool, quiet ? NULL : note_stderr, NULL, &le))
        fprintf(stderr, "setup: the points were not converted for the first prove: %s\n", le.msg);
    groth16_params_free(loaded);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
    topo_pool_destroy(pool);
    return rc;
}
