/* cli/cmd_setup.c — `grothmpi setup`: a test Groth16 setup for a built-in
 * circuit, cached in a directory keyed by the circuit id:
 *   DIR/<id>.params  bellperson Parameters layout
 *   DIR/<id>.vk      the verifying key
 *   DIR/<id>.shape   the recorded shape (synth's cache format)
 *   DIR/<id>.setup   a text record: circuit, counts, seed
 * A second run with the same circuit finds the cache and does nothing. */
#include <errno.h>
#include <getopt.h>
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

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi setup --circuit NAME --out DIR [options]\n\n"
            "Generates test Groth16 parameters (NOT a ceremony: the seed is the toxic\n"
            "waste) for a built-in circuit and caches them in DIR as <id>.params, <id>.vk,\n"
            "<id>.shape and <id>.setup.\n\n"
            "  --circuit NAME       test-mul | test-synthetic | test-sha256 | porep\n"
            "  --constraints N      test-synthetic: rows, a power of two (default 1024)\n"
            "  --compressions N     test-sha256: chained compressions (default 1)\n"
            "  --sector-size S      porep: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n"
            "  --out DIR            the cache directory (created if missing)\n"
            "  --seed HEX           64 hex digits (default: random, printed)\n"
            "  --threads N          worker threads (default: all CPUs)\n"
            "  --force              regenerate even when the cache has the circuit\n"
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

int cmd_setup(int argc, char **argv)
{
    static const struct option opts[] = {
        {"circuit", required_argument, 0, 'c'}, {"constraints", required_argument, 0, 'n'},
        {"compressions", required_argument, 0, 'k'}, {"sector-size", required_argument, 0, 'S'},
        {"out", required_argument, 0, 'o'}, {"seed", required_argument, 0, 's'},
        {"threads", required_argument, 0, 't'}, {"force", no_argument, 0, 'f'},
        {"verbose", no_argument, 0, 'v'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *circuit = NULL, *out = NULL, *seed_hex = NULL, *sector = NULL;
    uint64_t size = 0;
    unsigned threads = 0;
    bool force = false, verbose = false;
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
    groth16_circuit_t circ;
    if (groth16_circuit_parse(&circ, circuit, size, sector, &err)) {
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
    char pp[4096], vp[4096], sp[4096], rp[4096];
    snprintf(pp, sizeof pp, "%s/%s.params", out, circ.id);
    snprintf(vp, sizeof vp, "%s/%s.vk", out, circ.id);
    snprintf(sp, sizeof sp, "%s/%s.shape", out, circ.id);
    snprintf(rp, sizeof rp, "%s/%s.setup", out, circ.id);
    if (!force && exists(pp) && exists(vp) && exists(sp)) {
        printf("setup: %s: cached in %s (use --force to regenerate)\n", circ.id, out);
        return 0;
    }
    if (!seed_hex && groth16_seed_random(seed, &err)) {
        fprintf(stderr, "grothmpi: setup: %s\n", err.msg);
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
    if (groth16_circuit_shape(&shape, &circ, &err))
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
    if (groth16_setup(shape, seed, pp, vp, pool, &err))
        goto fail;
    uint64_t t2 = gm_now_ns();
    char rec[1024];
    int len = snprintf(rec, sizeof rec,
                       "circuit %s\nseed %s\nconstraints %llu\ninputs %llu\naux %llu\n"
                       "h %llu\nl %llu\na %llu\nb_g1 %llu\nb_g2 %llu\n",
                       circ.id, hex, (unsigned long long)shape->n_constraints, (unsigned long long)shape->n_inputs,
                       (unsigned long long)shape->n_aux, (unsigned long long)n.h, (unsigned long long)n.l,
                       (unsigned long long)n.a, (unsigned long long)n.b_g1, (unsigned long long)n.b_g2);
    if (groth16_write_file(rp, rec, (size_t)len, &err))
        goto fail;
    printf("setup: wrote %s (h %llu, l %llu, a %llu, b_g1 %llu, b_g2 %llu points) and %s\n", pp,
           (unsigned long long)n.h, (unsigned long long)n.l, (unsigned long long)n.a, (unsigned long long)n.b_g1,
           (unsigned long long)n.b_g2, vp);
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
    return rc;
}
