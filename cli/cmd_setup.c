/* cli/cmd_setup.c — `grothmpi setup`: a test Groth16 setup for a built-in
 * circuit, cached in a directory keyed by the circuit id:
 *   DIR/<id>.params  bellperson Parameters layout
 *   DIR/<id>.vk      the verifying key
 *   DIR/<id>.shape   the recorded shape (synth's cache format)
 *   DIR/<id>.setup   a text record: circuit, counts, seed
 *   DIR/manifest.json  the digest of <id>.params (groth16_manifest_record),
 *                    checked by every campaign before it uses the file
 * A second run with the same circuit finds the cache and does nothing.
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

static int parse_hex_seed(uint8_t out[GROTH16_SEED_BYTES], const char *s)
{
    if (strlen(s) != 2 * GROTH16_SEED_BYTES)
        return -1;
    for (int i = 0; i < GROTH16_SEED_BYTES; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
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
 * ("<params>.tmp.<pid>", groth16's atomic writer) and prints a line every
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
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", j->pp, (long)getpid());
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

/* groth16_setup with progress lines; returns its status. */
static int setup_run(setup_job_t *j, const groth16_counts_t *n, err_t *err)
{
    j->total_bytes = groth16_vk_bytes(n->ic) + 5 * 4 + (n->h + n->l + n->a + n->b_g1) * G1_UNCOMPRESSED_BYTES +
                     n->b_g2 * G2_UNCOMPRESSED_BYTES;
    j->t0 = gm_now_ns();
    atomic_init(&j->done, 0);
    gm_err_clear(&j->err);
    topo_pool_t *watch = NULL;
    int rc = topo_pool_create_flat(&watch, 2, err);
    if (rc)
        return rc;
    topo_pool_run(watch, 2, setup_task, j);
    topo_pool_destroy(watch);
    if (j->rc)
        *err = j->err;
    return j->rc;
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
    if (seed_hex && parse_hex_seed(seed, seed_hex)) {
        fprintf(stderr, "grothmpi: setup: --seed: '%s' is not 64 hex digits\n", seed_hex);
        return 2;
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "grothmpi: setup: %s: cannot create: %s\n", out, strerror(errno));
        return 1;
    }
    /* Held until the manifest entry is written: a campaign's "setup":
     * "auto" or another setup in the same directory waits for this one. */
    int lock = -1;
    int lrc = groth16_cache_lock(&lock, out, false, &err);
    if (lrc == GM_ESTATE) {
        fprintf(stderr, "setup: waiting for another process's setup in %s (%s)\n", out, GROTH16_CACHE_LOCK_NAME);
        gm_err_clear(&err);
        lrc = groth16_cache_lock(&lock, out, true, &err);
    }
    if (lrc) {
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
        return 1;
    }
    char pp[4096], vp[4096], sp[4096], rp[4096];
    snprintf(pp, sizeof pp, "%s/%s.params", out, circ.id);
    snprintf(vp, sizeof vp, "%s/%s.vk", out, circ.id);
    snprintf(sp, sizeof sp, "%s/%s.shape", out, circ.id);
    snprintf(rp, sizeof rp, "%s/%s.setup", out, circ.id);
    if (!force && exists(pp) && exists(vp) && exists(sp)) {
        printf("setup: %s: cached in %s (use --force to regenerate)\n", circ.id, out);
        groth16_cache_unlock(lock);
        return 0;
    }
    if (!seed_hex && groth16_seed_random(seed, &err)) {
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
        groth16_cache_unlock(lock);
        return 1;
    }
    char hex[2 * GROTH16_SEED_BYTES + 1];
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", seed[i]);

    int rc = 1;
    topo_pool_t *pool = NULL;
    cs_shape_t *shape = NULL;
    if (topo_pool_create_flat(&pool, threads, &err))
        goto fail;
    uint64_t t0 = gm_now_ns();
    if (!quiet && circ.kind == CIRCUIT_POREP) {
        fprintf(stderr, "setup: %s: recording the shape of one PoRep partition\n", circ.id);
        fflush(stderr);
    }
    if (circuit_shape(&shape, &circ, &err))
        goto fail;
    uint64_t t1 = gm_now_ns();
    groth16_counts_t n;
    if (groth16_shape_counts(&n, shape, &err))
        goto fail;
    printf("setup: %s: %llu constraints + %llu input rows, %llu inputs, %llu aux, domain %llu\n", circ.id,
           (unsigned long long)shape->n_constraints, (unsigned long long)shape->n_inputs,
           (unsigned long long)shape->n_inputs, (unsigned long long)shape->n_aux, (unsigned long long)(n.h + 1));
    printf("setup: seed %s\n", hex);
    fflush(stdout);
    if (cs_shape_save(shape, out, circ.id, &err))
        goto fail;
    setup_job_t job = {.shape = shape, .seed = seed, .pp = pp, .vp = vp, .pool = pool, .quiet = quiet};
    if (setup_run(&job, &n, &err))
        goto fail;
    uint64_t t2 = gm_now_ns();
    char rec[1024];
    int len = snprintf(rec, sizeof rec,
                       "circuit %s\nseed %s\nconstraints %llu\ninputs %llu\naux %llu\n"
                       "h %llu\nl %llu\na %llu\nb_g1 %llu\nb_g2 %llu\n",
                       circ.id, hex, (unsigned long long)shape->n_constraints, (unsigned long long)shape->n_inputs,
                       (unsigned long long)shape->n_aux, (unsigned long long)n.h, (unsigned long long)n.l,
                       (unsigned long long)n.a, (unsigned long long)n.b_g1, (unsigned long long)n.b_g2);
    if (gm_file_write(rp, rec, (size_t)len, &err))
        goto fail;
    char digest[GROTH16_DIGEST_HEX + 1], mp[4200], name[200];
    uint64_t psize = 0;
    snprintf(mp, sizeof mp, "%s/%s", out, GROTH16_MANIFEST_NAME);
    snprintf(name, sizeof name, "%s.params", circ.id);
    if (groth16_file_digest(digest, &psize, pp, &err) ||
        groth16_manifest_record(mp, name, digest, psize, circ.id, &err))
        goto fail;
    printf("setup: wrote %s (h %llu, l %llu, a %llu, b_g1 %llu, b_g2 %llu points) and %s\n", pp,
           (unsigned long long)n.h, (unsigned long long)n.l, (unsigned long long)n.a, (unsigned long long)n.b_g1,
           (unsigned long long)n.b_g2, vp);
    printf("setup: recorded %s digest %s in %s\n", name, digest, mp);
    if (verbose)
        printf("setup: timings: shape %.3f s, parameters %.3f s, %u threads, peak rss %.1f MiB\n",
               (double)(t1 - t0) * 1e-9, (double)(t2 - t1) * 1e-9, topo_pool_size(pool),
               (double)gm_rss_peak() / 1048576.0);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
    cs_shape_free(shape);
    topo_pool_destroy(pool);
    groth16_cache_unlock(lock);
    return rc;
}
