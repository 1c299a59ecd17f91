/* cli/cmd_setup.c — `grothmpi setup`: a test Groth16 setup for a built-in
 * circuit, cached in a directory keyed by the circuit id (params/params.h
 * owns the files: <id>.params, .vk, .shape, .setup, the stamps and
 * manifest.json). A second run with the same circuit finds the cache and
 * does nothing but check the digest; a shape already in the cache (`grothmpi
 * circuit shape`) is used rather than recorded again.
 *
 * A large setup (the 2 KiB PoRep partition: 2.69 M constraints, a 2^22
 * domain, about 1.3 GB of parameters) takes minutes: a progress line goes
 * to stderr every 10 s (--quiet: none), read from the size of the
 * parameter file's temporary name as groth16_setup streams it. The watcher
 * is a second task on a 2-worker topo pool that sleeps between looks; the
 * setup itself runs on the main pool. */
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
#include "params/params.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi setup --circuit NAME --out DIR [options]\n\n"
            "Generates test Groth16 parameters (NOT a ceremony: the seed is the toxic\n"
            "waste) for a built-in circuit and caches them in DIR as <id>.params, <id>.vk,\n"
            "<id>.shape and <id>.setup, and records the digest of <id>.params in\n"
            "DIR/manifest.json (checked by campaigns and grothmpi params verify).\n\n"
            "  --circuit NAME       test-mul | test-synthetic | test-sha256 | porep\n"
            "  --constraints N      test-synthetic: rows, a power of two (default 1024)\n"
            "  --compressions N     test-sha256: chained compressions (default 1)\n"
            "  --sector-size S      porep: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n"
            "  --out DIR            the cache directory (created if missing)\n"
            "  --seed HEX           64 hex digits (default: random, printed)\n"
            "  --threads N          worker threads (default: all CPUs)\n"
            "  --force              regenerate even when the cache has the circuit\n"
            "  --quiet              no progress lines on stderr\n"
            "  --verbose            per-stage timings\n");
}

/* ---- the setup with a progress watcher ------------------------------------------------------ */

typedef struct {
    const cs_shape_t *shape;
    const uint8_t *seed;
    const char *pp, *vp;
    topo_pool_t *pool;
    err_t err;
    int rc;
    atomic_int done;
    bool quiet;
    uint64_t total_bytes, t0;
} setup_job_t;

/* Task 0 runs the setup, task 1 watches the temporary parameter file
 * (gm_file_temp_name of it, base/'s atomic writer) and prints a line every
 * 10 s until task 0 is done. */
static void setup_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    setup_job_t *j = arg;
    if (task == 0) {
        j->rc = groth16_setup(j->shape, j->seed, j->pp, j->vp, j->pool, &j->err);
        atomic_store(&j->done, 1);
        return;
    }
    char tmp[GM_PATH_MAX + 200];
    if (gm_file_temp_name(tmp, sizeof tmp, j->pp, (long)getpid()) != 0)
        tmp[0] = 0;
    for (unsigned tick = 1; !atomic_load(&j->done); tick++) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (j->quiet || tick % 100 != 0 || atomic_load(&j->done))
            continue;
        struct stat st;
        double secs = (double)(gm_now_ns() - j->t0) * 1e-9;
        if (stat(tmp, &st) != 0 || st.st_size == 0) {
            fprintf(stderr, "setup: %.0f s: evaluating the QAP at tau (%.1f GiB of parameters to write)\n", secs,
                    (double)j->total_bytes / (1 << 30));
        } else {
            double f = (double)st.st_size / (double)j->total_bytes;
            fprintf(stderr, "setup: %.0f s: parameters %3.0f%% (%llu of %llu MiB written)\n", secs, 100.0 * f,
                    (unsigned long long)(st.st_size >> 20), (unsigned long long)(j->total_bytes >> 20));
        }
    }
}

/* What params_ensure calls to make the parameters: groth16_setup with
 * progress lines (params_setup_fn). */
typedef struct {
    const char *id;
    topo_pool_t *pool;
    bool quiet, verbose;
    uint64_t t_shape; /* when the setup proper started */
} setup_ctx_t;

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
    x->t_shape = gm_now_ns();
    setup_job_t j = {.shape = shape, .seed = seed, .pp = pp, .vp = vp, .pool = x->pool, .quiet = x->quiet};
    j.total_bytes = groth16_vk_bytes(n.ic) + 5 * 4 + (n.h + n.l + n.a + n.b_g1) * G1_UNCOMPRESSED_BYTES +
                    n.b_g2 * G2_UNCOMPRESSED_BYTES;
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
        {0, 0, 0, 0}};
    const char *circuit = NULL, *out = NULL, *seed_hex = NULL, *sector = NULL;
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
    setup_ctx_t sx = {.id = circ.id, .pool = pool, .quiet = quiet, .verbose = verbose};
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
    if (verbose)
        printf("setup: timings: shape %.3f s, parameters %.3f s, %u threads, peak rss %.1f MiB\n",
               (double)(sx.t_shape - t0) * 1e-9, (double)(t2 - sx.t_shape) * 1e-9, topo_pool_size(pool),
               (double)gm_rss_peak() / 1048576.0);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
    topo_pool_destroy(pool);
    return rc;
}
