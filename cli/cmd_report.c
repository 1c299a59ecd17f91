/* cli/cmd_report.c — `grothmpi report FILE`: prints a saved report.json (the
 * cluster report `grothmpi prove campaign.json` writes) as the text tables,
 * or as CSV with --csv. `grothmpi report compare A.json B.json`: per-stage
 * deltas of two reports (study/study.h, docs/study.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "mpi/mpi.h"
#include "study/study.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi report [--csv] REPORT.json\n"
               "       grothmpi report compare A.json B.json\n\n"
               "Prints a cluster report written by `grothmpi prove campaign.json`\n"
               "(OUTPUT/report.json; keys in docs/report.md) as text tables, or as CSV.\n"
               "compare: per stage, time and counters of B against A (b - a and %%), n/a where\n"
               "either lacks a counter (docs/study.md).\n");
}

static int report_compare(const char *a, const char *b)
{
    err_t err;
    gm_err_clear(&err);
    study_delta_t *rows = NULL;
    size_t n = 0;
    if (study_compare(&rows, &n, a, b, &err)) {
        fprintf(stderr, "grothmpi: report compare: %s\n", err.msg);
        return 1;
    }
    study_print_compare(rows, n, a, b, stdout);
    free(rows);
    return 0;
}

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {{"csv", no_argument, 0, 'c'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int csv = 0, c;
    if (argc >= 2 && strcmp(argv[1], "compare") == 0) {
        if (argc != 4) {
            fprintf(stderr, "grothmpi: report compare: two report files, please\n");
            usage(stderr);
            return 2;
        }
        return report_compare(argv[2], argv[3]);
    }
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': csv = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "grothmpi: report: one report file, please\n");
        usage(stderr);
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    mpi_report_t *r = NULL;
    if (mpi_report_load(&r, argv[optind], &err)) {
        fprintf(stderr, "grothmpi: report: %s\n", err.msg);
        return 1;
    }
    if (csv)
        mpi_report_print_csv(r, stdout);
    else
        mpi_report_print_text(r, stdout);
    mpi_report_free(r);
    return 0;
}
