/*
 * cli/cmd_circuit.c — `grothmpi circuit`: facts about the circuits grothmpi
 * proves. `info` counts constraints, public inputs and auxiliary variables
 * of one partition without building matrices or a witness; `shape` records
 * the matrices into a parameter cache (params/), under the circuit's id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "cli/cli.h"
#include "circuits/circuits.h"
#include "params/params.h"
#include "synth/synth.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi circuit info porep --sector-size SIZE [--json]\n"
            "       grothmpi circuit info porep --all [--json]\n"
            "       grothmpi circuit shape porep --sector-size SIZE --out DIR\n\n"
            "info   counts one partition of Filecoin's SDR PoRep circuit (constraints, public\n"
            "       inputs including ONE, auxiliary variables) without building it.\n"
            "shape  records its A, B, C matrices into the parameter cache DIR as\n"
            "       porep-<bytes>-v2.shape (e.g. porep-2048-v2.shape), the name setup, prove and\n"
            "       campaigns look for, so they use it instead of recording it again (can take\n"
            "       tens of GiB of memory for 32GiB and 64GiB sectors).\n"
            "SIZE is 2KiB, 8MiB, 512MiB, 32GiB or 64GiB.\n");
}

static void fmt_thousands(char *buf, size_t n, uint64_t v)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
}

static void size_name(char *buf, size_t n, uint64_t bytes)
{
    if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0)
        snprintf(buf, n, "%lluGiB", (unsigned long long)(bytes >> 30));
    else if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0)
        snprintf(buf, n, "%lluMiB", (unsigned long long)(bytes >> 20));
    else
        snprintf(buf, n, "%lluKiB", (unsigned long long)(bytes >> 10));
}

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while ((1ULL << k) < n)
        k++;
    return k;
}

int cli_porep_count(uint64_t bytes, const poseidon_set_t *ps, stacked_config_t *cfg, uint64_t *nc, uint64_t *ni,
                    uint64_t *na, err_t *err)
{
    int rc;
    cs_t *cs;
    if ((rc = stacked_config_init(cfg, bytes, err)) || (rc = cs_create(&cs, CS_COUNT, CS_FLAG_NONE, err)))
        return rc;
    stacked_synthesize(cs, cfg, ps, NULL);
    if ((rc = cs_status(cs, err)) == 0) {
        *nc = cs_num_constraints(cs);
        *ni = cs_num_inputs(cs);
        *na = cs_num_aux(cs);
    }
    cs_destroy(cs);
    return rc;
}

/* Counts one partition; prints text or one JSON object. */
static int info_one(uint64_t bytes, const poseidon_set_t *ps, bool json, bool first)
{
    err_t err;
    stacked_config_t cfg;
    uint64_t nc, ni, na;
    uint64_t t0 = gm_now_ns();
    if (cli_porep_count(bytes, ps, &cfg, &nc, &ni, &na, &err) != 0) {
        fprintf(stderr, "grothmpi: circuit info: %s\n", err.msg);
        return 1;
    }
    double secs = (double)(gm_now_ns() - t0) / 1e9;
    char name[32], c[32], a[32], rows[32];
    size_name(name, sizeof name, bytes);
    fmt_thousands(c, sizeof c, nc);
    fmt_thousands(a, sizeof a, na);
    fmt_thousands(rows, sizeof rows, nc + ni);
    if (json) {
        printf("%s{\"circuit\": \"porep\", \"sector_size\": \"%s\", \"sector_bytes\": %llu, \"layers\": %u, "
               "\"partitions\": %u, \"challenges_per_partition\": %u, \"constraints\": %llu, "
               "\"public_inputs\": %llu, \"aux_variables\": %llu, \"rows_with_input_constraints\": %llu, "
               "\"fft_domain_log2\": %u, \"count_seconds\": %.3f}",
               first ? "" : ",\n", name, (unsigned long long)bytes, cfg.layers, cfg.partitions, cfg.challenges,
               (unsigned long long)nc, (unsigned long long)ni, (unsigned long long)na,
               (unsigned long long)(nc + ni), log2_ceil(nc + ni), secs);
        return 0;
    }
    printf("porep %s: %u layers, %u partition%s, %u challenges per partition\n", name, cfg.layers, cfg.partitions,
           cfg.partitions == 1 ? "" : "s", cfg.challenges);
    printf("  constraints        %15s\n", c);
    printf("  public inputs      %15llu  (including ONE)\n", (unsigned long long)ni);
    printf("  auxiliary vars     %15s\n", a);
    printf("  prover rows        %15s  (with one input*0=0 per input; FFT domain 2^%u)\n", rows,
           log2_ceil(nc + ni));
    printf("  counted in %.2f s\n", secs);
    return 0;
}

/* Records the shape into the parameter cache dir under the name setup,
 * prove and campaigns look for (params/: the circuit catalogue's id). */
static int do_shape(const char *size_arg, const char *dir)
{
    err_t err;
    gm_err_clear(&err);
    circuit_t circ;
    params_paths_t p;
    cs_shape_t *sh = NULL;
    if (circuit_parse(&circ, "porep", 0, size_arg, &err) || params_paths(&p, dir, circ.id, &err)) {
        fprintf(stderr, "grothmpi: circuit shape: %s\n", err.msg);
        return 2;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "grothmpi: circuit shape: %s: cannot create: %s\n", dir, strerror(errno));
        return 1;
    }
    uint64_t t0 = gm_now_ns();
    if (params_shape_record(&sh, &p, &circ, &err)) {
        fprintf(stderr, "grothmpi: circuit shape: %s\n", err.msg);
        return 1;
    }
    double secs = (double)(gm_now_ns() - t0) / 1e9;
    printf("%s: %llu rows, %llu inputs, %llu aux, nnz A %llu B %llu C %llu, %u coefficients (%.1f s)\n", p.shape,
           (unsigned long long)sh->n_rows, (unsigned long long)sh->n_inputs, (unsigned long long)sh->n_aux,
           (unsigned long long)cs_shape_nnz(sh, 0), (unsigned long long)cs_shape_nnz(sh, 1),
           (unsigned long long)cs_shape_nnz(sh, 2), sh->n_coeffs, secs);
    cs_shape_free(sh);
    return 0;
}

int cmd_circuit(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "info") != 0 && strcmp(sub, "shape") != 0) {
        fprintf(stderr, "grothmpi: circuit: unknown subcommand '%s' (info or shape)\n", sub);
        return 2;
    }
    if (argc < 3 || strcmp(argv[2], "porep") != 0) {
        fprintf(stderr, "grothmpi: circuit %s: name the circuit: porep (the only one so far)\n", sub);
        return 2;
    }
    const char *size_arg = NULL, *out = NULL;
    bool all = false, json = false;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--sector-size") && i + 1 < argc)
            size_arg = argv[++i];
        else if (!strncmp(argv[i], "--sector-size=", 14))
            size_arg = argv[i] + 14;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "grothmpi: circuit %s: unknown or incomplete option '%s'\n", sub, argv[i]);
            return 2;
        }
    }
    if (!all && !size_arg) {
        fprintf(stderr, "grothmpi: circuit %s: --sector-size is required (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)\n", sub);
        return 2;
    }
    uint64_t bytes = 0;
    err_t err;
    stacked_config_t probe;
    if (size_arg && (stacked_sector_size_parse(&bytes, size_arg, "--sector-size", &err) != 0 ||
                     stacked_config_init(&probe, bytes, &err) != 0)) {
        fprintf(stderr, "grothmpi: circuit %s: %s\n", sub, err.msg);
        return 2;
    }
    if (!strcmp(sub, "shape") && (all || !out)) {
        fprintf(stderr, "grothmpi: circuit shape: needs --sector-size and --out DIR (not --all)\n");
        return 2;
    }
    if (!strcmp(sub, "shape"))
        return do_shape(size_arg, out);
    poseidon_set_t ps;
    if (poseidon_set_init(&ps, &err) != 0) {
        fprintf(stderr, "grothmpi: circuit: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    if (all) {
        static const uint64_t sizes[] = {2048ULL, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
        if (json)
            printf("[");
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && rc == 0; i++)
            rc = info_one(sizes[i], &ps, json, i == 0);
        if (json)
            printf("]\n");
    } else {
        rc = info_one(bytes, &ps, json, true);
        if (json)
            printf("\n");
    }
    poseidon_set_free(&ps);
    return rc;
}
