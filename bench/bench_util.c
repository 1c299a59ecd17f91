/* bench_util.c — what the benchmark programs share: statistics and the machine line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "ff/ff.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_print_machine(void)
{
    char model[256] = "unknown", line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                if (c) {
                    snprintf(model, sizeof model, "%s", c + 2);
                    model[strcspn(model, "\n")] = '\0';
                }
                break;
            }
        }
        fclose(f);
    }
    printf("cpu: %s, %ld cpus, ff path: %s, Fr on 8 lanes (IFMA): %s\n", model, sysconf(_SC_NPROCESSORS_ONLN),
           ff_path_name(), fr_x8_enabled() ? "on" : "off");
}

/* Reads an integer option value in lo..hi; prints the error itself. */
static bool parse_range(const char *name, const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || x < lo || x > hi) {
        fprintf(stderr, "grothmpi: bench %s: %s: '%s' is not in %ld..%ld\n", name, opt, v, lo, hi);
        return false;
    }
    *out = x;
    return true;
}

int bench_parse_opts(bench_opts_t *o, int argc, char **argv, const char *name, const char *help)
{
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--quick") == 0) {
            o->quick = true;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            if (!parse_range(name, "--runs", argv[++i], 1, 1000, &v))
                return 2;
            o->runs = (int)v;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            if (!parse_range(name, "--threads", argv[++i], 1, 1024, &v))
                return 2;
            o->threads = (unsigned)v;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return 1;
        } else {
            fprintf(stderr, "grothmpi: bench %s: unknown option '%s' (see --help)\n", name, argv[i]);
            return 2;
        }
    }
    return 0;
}
