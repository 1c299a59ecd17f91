/*
 * cli/cmd_gpu.c — `grothmpi gpu plan`: the device memory plan (gpu/'s
 * gpu_plan) of one PoRep partition on a card of a given size, without a
 * GPU: which base sets stay resident and which stream, the MSM workspace,
 * the sort scratch, the scalar buffers, how h runs, and the total against
 * the card. The counts come from the circuit itself (cli_porep_count), the
 * sizes from gpu/'s layouts, so the table is what a prover on that card
 * would allocate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "gpu/gpu.h"
#include "groth16/groth16.h"
#include "synth/synth.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi gpu plan --sector-size SIZE --device-memory BYTES [--params FILE] [--json]\n\n"
            "plan   the device memory of one Filecoin PoRep partition of SIZE (2KiB, 8MiB, 512MiB,\n"
            "       32GiB, 64GiB) on a GPU of BYTES (e.g. 16GB, 24GiB, 80GB, 141GB; decimal units\n"
            "       KB MB GB TB, binary KiB MiB GiB TiB, or plain bytes), as the prover would\n"
            "       allocate it: the G1 bases of A and B1 (aux part, counted at their upper bound,\n"
            "       the auxiliary variables), L and H, resident or streamed in chunks; the MSM's\n"
            "       scalar buffers, workspace and sort scratch; h's NTT vectors and tables; the\n"
            "       total against the card less %zu MiB kept for the driver. No GPU is needed.\n"
            "       --params FILE: the sets' sizes from that parameter file's counts instead of\n"
            "       the upper bounds (B1 is a quarter of them at 32 GiB).\n"
            "       Exit 1 when even the smallest workable plan does not fit (docs/gpu.md).\n",
            GPU_PLAN_RESERVE >> 20);
}

/* BYTES: digits and an optional unit (decimal or binary). */
static int parse_bytes(size_t *out, const char *s)
{
    static const struct {
        const char *unit;
        unsigned long long mul;
    } units[] = {{"", 1},          {"B", 1},          {"KB", 1000ULL},    {"MB", 1000000ULL},
                 {"GB", 1000000000ULL}, {"TB", 1000000000000ULL}, {"KiB", 1ULL << 10}, {"MiB", 1ULL << 20},
                 {"GiB", 1ULL << 30},   {"TiB", 1ULL << 40},      {"K", 1ULL << 10},  {"M", 1ULL << 20},
                 {"G", 1ULL << 30},     {"T", 1ULL << 40}};
    if (!s || s[0] < '0' || s[0] > '9')
        return -1;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            if (v > (1ULL << 50) / units[i].mul)
                return -1;
            *out = (size_t)(v * units[i].mul);
            return 0;
        }
    return -1;
}

static double gib(size_t b) { return (double)b / (double)(1ULL << 30); }

static void print_table(const gpu_plan_t *p, const char *sector, const char *card, uint64_t nc, uint64_t ni,
                        uint64_t na)
{
    printf("device memory plan: porep %s partition on a %s card (%zu bytes; %.2f GiB kept for the driver)\n", sector,
           card, p->device_bytes, gib(p->reserve));
    printf("  circuit: %llu constraints, %llu public inputs, %llu auxiliary variables; domain 2^%u\n",
           (unsigned long long)nc, (unsigned long long)ni, (unsigned long long)na, p->log_n);
    printf("  %-22s %10s  %s\n", "region", "GiB", "what");
    for (size_t i = 0; i < p->nsets; i++) {
        char what[96];
        snprintf(what, sizeof what, "%llu points, %s", (unsigned long long)p->set[i].n,
                 p->set[i].streamed ? "streamed" : "resident");
        char name[32];
        snprintf(name, sizeof name, "bases %s", p->set[i].name);
        printf("  %-22s %10.2f  %s\n", name, gib(p->set[i].bytes), what);
    }
    printf("  %-22s %10.2f  %zu points a chunk%s\n", "chunk buffer", gib(p->chunk_bytes), p->chunk,
           p->chunk ? ", refilled from the host at every MSM" : " (nothing streams)");
    printf("  %-22s %10.2f  %u buffer%s of %zu scalars%s\n", "MSM scalars", gib(p->scalar_bytes), p->scalar_bufs,
           p->scalar_bufs == 1 ? "" : "s", p->msm_n,
           p->scalar_bufs == 2 ? " (next upload overlaps this MSM)" : " (upload after each MSM)");
    printf("  %-22s %10.2f  window %u, %u window%s a group (groups of at most %zu items)\n", "MSM workspace",
           gib(p->ws_bytes), p->msm_window, p->group_windows, p->group_windows == 1 ? "" : "s", p->group_items);
    printf("  %-22s %10.2f  CUB radix sort on a DoubleBuffer, and the scan\n", "sort scratch", gib(p->sort_bytes));
    printf("  %-22s %10.2f  chunk + scalars + workspace + sort\n", "= MSM phase", gib(p->msm_phase));
    printf("  %-22s %10.2f  %u x 2^%u values (%s)\n", "NTT vectors", gib(p->ntt_bytes), p->ntt_vectors, p->log_n,
           p->h == GPU_PLAN_H_WHOLE ? "h whole: one upload of a, b, c, one download of h"
                                    : "h in steps: seven transforms, one round trip each");
    printf("  %-22s %10.2f  twiddles, their halves, scale tables\n", "NTT tables", gib(p->table_bytes));
    printf("  %-22s %10.2f  vectors + tables\n", "= h phase", gib(p->h_phase));
    printf("  %-22s %10.2f  max(MSM phase, h phase): the phases take turns\n", "arena", gib(p->arena));
    printf("  %-22s %10.2f  resident bases + arena, of %.2f GiB usable\n", "total", gib(p->total),
           gib(p->device_bytes - p->reserve));
    printf("  %-22s %10.2f  host: scalar and base staging%s\n", "pinned host", gib(p->pinned_bytes),
           p->h == GPU_PLAN_H_WHOLE ? ", b and c of h" : "");
}

static void print_json(const gpu_plan_t *p, const char *sector, uint64_t nc, uint64_t ni, uint64_t na)
{
    printf("{\"circuit\": \"porep\", \"sector_size\": \"%s\", \"constraints\": %llu, \"public_inputs\": %llu, "
           "\"aux_variables\": %llu, \"log_domain\": %u, \"device_bytes\": %zu, \"reserve\": %zu, \"sets\": [",
           sector, (unsigned long long)nc, (unsigned long long)ni, (unsigned long long)na, p->log_n, p->device_bytes,
           p->reserve);
    for (size_t i = 0; i < p->nsets; i++)
        printf("%s{\"name\": \"%s\", \"points\": %llu, \"streamed\": %s, \"bytes\": %zu}", i ? ", " : "",
               p->set[i].name, (unsigned long long)p->set[i].n, p->set[i].streamed ? "true" : "false",
               p->set[i].bytes);
    printf("], \"bases_bytes\": %zu, \"chunk\": %zu, \"chunk_bytes\": %zu, \"msm_points\": %zu, \"msm_window\": %u, "
           "\"group_items\": %zu, \"group_windows\": %u, \"workspace_bytes\": %zu, \"sort_bytes\": %zu, "
           "\"scalar_buffers\": %u, \"scalar_bytes\": %zu, \"msm_phase\": %zu, \"h\": \"%s\", \"ntt_vectors\": %u, "
           "\"ntt_bytes\": %zu, \"table_bytes\": %zu, \"h_phase\": %zu, \"arena\": %zu, \"total\": %zu, "
           "\"pinned_bytes\": %zu}\n",
           p->bases_bytes, p->chunk, p->chunk_bytes, p->msm_n, p->msm_window, p->group_items, p->group_windows,
           p->ws_bytes, p->sort_bytes, p->scalar_bufs, p->scalar_bytes, p->msm_phase,
           p->h == GPU_PLAN_H_WHOLE ? "whole" : "steps", p->ntt_vectors, p->ntt_bytes, p->table_bytes, p->h_phase,
           p->arena, p->total, p->pinned_bytes);
}

/* The four sets' sizes from a parameter file of this circuit (the measured
 * counts, not the upper bounds): A less its input points (every input is in
 * A), B1 as the file holds it (its inputs part is a few points at most), L
 * and H; a file of another circuit is refused. */
static int file_counts(uint64_t counts[4], const char *path, uint64_t ni, uint64_t na, unsigned log_n,
                       const char *sector, err_t *err)
{
    groth16_counts_t n;
    int rc = groth16_params_file_counts(&n, path, err);
    if (rc)
        return rc;
    if (n.ic != ni || n.l != na || n.h != (1ULL << log_n) - 1 || n.a < ni)
        return gm_err_set(err, GM_EINVAL, "%s: not a %s PoRep parameter file (ic %llu, l %llu, h %llu points; the "
                          "circuit has %llu inputs, %llu auxiliary variables, a 2^%u domain)", path, sector,
                          (unsigned long long)n.ic, (unsigned long long)n.l, (unsigned long long)n.h,
                          (unsigned long long)ni, (unsigned long long)na, log_n);
    counts[0] = n.a - ni;
    counts[1] = n.b_g1;
    counts[2] = n.l;
    counts[3] = n.h;
    return 0;
}

static int do_plan(int argc, char **argv)
{
    const char *sector = NULL, *mem = NULL, *params = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sector-size") && i + 1 < argc)
            sector = argv[++i];
        else if (!strncmp(argv[i], "--sector-size=", 14))
            sector = argv[i] + 14;
        else if (!strcmp(argv[i], "--device-memory") && i + 1 < argc)
            mem = argv[++i];
        else if (!strncmp(argv[i], "--device-memory=", 16))
            mem = argv[i] + 16;
        else if (!strcmp(argv[i], "--params") && i + 1 < argc)
            params = argv[++i];
        else if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "grothmpi: gpu plan: unknown or incomplete option '%s' (grothmpi gpu --help)\n", argv[i]);
            return 2;
        }
    }
    if (!sector || !mem) {
        fprintf(stderr, "grothmpi: gpu plan: --sector-size and --device-memory are required (grothmpi gpu --help)\n");
        return 2;
    }
    size_t dev;
    if (parse_bytes(&dev, mem) != 0 || dev == 0) {
        fprintf(stderr, "grothmpi: gpu plan: --device-memory: '%s' is not a memory size above 0 (e.g. 16GB, 24GiB, "
                "80000000000)\n", mem);
        return 2;
    }
    err_t err;
    uint64_t bytes;
    if (stacked_sector_size_parse(&bytes, sector, "--sector-size", &err) != 0) {
        fprintf(stderr, "grothmpi: gpu plan: %s\n", err.msg);
        return 2;
    }
    poseidon_set_t ps;
    stacked_config_t cfg;
    uint64_t nc, ni, na;
    if (poseidon_set_init(&ps, &err) != 0) {
        fprintf(stderr, "grothmpi: gpu plan: %s\n", err.msg);
        return 1;
    }
    int rc = cli_porep_count(bytes, &ps, &cfg, &nc, &ni, &na, &err);
    poseidon_set_free(&ps);
    if (rc) {
        fprintf(stderr, "grothmpi: gpu plan: %s\n", err.msg);
        return rc == GM_EINVAL ? 2 : 1;
    }
    unsigned log_n = 0;
    while ((1ULL << log_n) < nc + ni)
        log_n++;
    /* The prover's four device sets, in its upload order (groth16/prove.c):
     * A and B1 over aux (density-compacted: at most every aux variable), L
     * over aux, H over the domain less one. */
    static const char *const names[4] = {"A", "B1", "L", "H"};
    uint64_t counts[4] = {na, na, na, (1ULL << log_n) - 1};
    if (params && (rc = file_counts(counts, params, ni, na, log_n, sector, &err))) {
        fprintf(stderr, "grothmpi: gpu plan: --params: %s\n", err.msg);
        return 1;
    }
    gpu_plan_t p;
    if (gpu_plan(&p, GPU_CURVE_BLS12_381, names, counts, 4, log_n, dev, GPU_PLAN_RESERVE, GPU_PLAN_MIN_CHUNK,
                 &err) != 0) {
        fprintf(stderr, "grothmpi: gpu plan: porep %s on %s: %s\n", sector, mem, err.msg);
        return err.code == GM_EINVAL ? 2 : 1;
    }
    if (json)
        print_json(&p, sector, nc, ni, na);
    else
        print_table(&p, sector, mem, nc, ni, na);
    return 0;
}

int cmd_gpu(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "plan") != 0) {
        fprintf(stderr, "grothmpi: gpu: unknown subcommand '%s' (plan)\n", argv[1]);
        return 2;
    }
    return do_plan(argc - 1, argv + 1);
}
