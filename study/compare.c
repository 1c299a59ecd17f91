/*
 * study/compare.c — two cluster reports side by side (`grothmpi report
 * compare a.json b.json`), like perf stat's comparison of two runs: per
 * stage, the cluster totals of time and, for the counter stages, the
 * counters and ratios, with b - a and (b - a) / a. A metric either report
 * lacks (null: no PMU) is n/a, never 0.
 */
#include <stdlib.h>
#include <string.h>

#include "study/study_internal.h"

typedef struct {
    const char *metric;
    int ev;   /* mpi_event_t, or -1 for IPC */
} cmp_metric_t;

static const cmp_metric_t ctr_metrics[] = {
    {"instructions", MPI_EVENT_INSTRUCTIONS},     {"cycles", MPI_EVENT_CYCLES},
    {"ipc", -1},                                  {"branches", MPI_EVENT_BRANCHES},
    {"branch_misses", MPI_EVENT_BRANCH_MISSES},   {"l2_accesses", MPI_EVENT_L1D_MISSES},
    {"l1_fills_from_l2", MPI_EVENT_FILL_L2},      {"l3_ccx_fills", MPI_EVENT_FILL_CCX},
    {"remote_ccx_fills", MPI_EVENT_FILL_REMOTE},  {"dram_fills", MPI_EVENT_FILL_DRAM},
};
#define NCTR (sizeof ctr_metrics / sizeof ctr_metrics[0])

static double counter(const mpi_report_t *r, mpi_cstage_t cs, int ev)
{
    if (ev >= 0)
        return mpi_report_event(r, cs, (mpi_event_t)ev);
    double i = mpi_report_event(r, cs, MPI_EVENT_INSTRUCTIONS), cy = mpi_report_event(r, cs, MPI_EVENT_CYCLES);
    return cy > 0 ? i / cy : STUDY_NAN;
}

static void add(study_delta_t *r, size_t *n, const char *stage, const char *metric, double a, double b)
{
    study_delta_t *d = &r[(*n)++];
    memset(d, 0, sizeof *d);
    snprintf(d->stage, sizeof d->stage, "%s", stage);
    snprintf(d->metric, sizeof d->metric, "%s", metric);
    d->a = a;
    d->b = b;
    d->avail = !__builtin_isnan(a) && !__builtin_isnan(b);
}

int study_compare(study_delta_t **rows, size_t *nrows, const char *a_path, const char *b_path, err_t *err)
{
    *rows = NULL;
    *nrows = 0;
    mpi_report_t *a = NULL, *b = NULL;
    int rc;
    if ((rc = mpi_report_load(&a, a_path, err)) || (rc = mpi_report_load(&b, b_path, err))) {
        mpi_report_free(a);
        return rc;
    }
    size_t cap = MPI_NSTAGES * (1 + NCTR) + 2, n = 0;
    study_delta_t *r = calloc(cap, sizeof *r);
    if (!r) {
        mpi_report_free(a);
        mpi_report_free(b);
        return gm_err_set(err, GM_ENOMEM, "report compare: out of memory");
    }
    for (int s = 0; s < MPI_NSTAGES; s++) {
        const char *st = mpi_stage_names[s];
        add(r, &n, st, "time_s", a->totals.stages[s].wall_s, b->totals.stages[s].wall_s);
        /* the counter stage of the same name, if any */
        for (int cs = 0; cs < MPI_NCSTAGES; cs++)
            if (strcmp(st, mpi_cstage_names[cs]) == 0)
                for (size_t m = 0; m < NCTR; m++)
                    add(r, &n, st, ctr_metrics[m].metric, counter(a, (mpi_cstage_t)cs, ctr_metrics[m].ev),
                        counter(b, (mpi_cstage_t)cs, ctr_metrics[m].ev));
    }
    add(r, &n, "run", "wall_s", a->run.wall_s, b->run.wall_s);
    add(r, &n, "run", "proofs_per_hour", a->run.proofs_per_hour, b->run.proofs_per_hour);
    mpi_report_free(a);
    mpi_report_free(b);
    *rows = r;
    *nrows = n;
    return 0;
}

bool study_delta_of(const study_delta_t *r, double *abs, double *pct)
{
    if (!r->avail) {
        *abs = *pct = STUDY_NAN;
        return false;
    }
    *abs = r->b - r->a;
    *pct = r->a != 0 ? (r->b - r->a) / r->a * 100.0 : STUDY_NAN;
    return true;
}

static void cell(FILE *f, double v, bool avail, int w)
{
    if (!avail || __builtin_isnan(v))
        fprintf(f, " %*s", w, "n/a");
    else if (__builtin_fabs(v) >= 1e6 || (v != 0 && __builtin_fabs(v) < 1e-3))
        fprintf(f, " %*.4e", w, v);
    else
        fprintf(f, " %*.4f", w, v);
}

void study_print_compare(const study_delta_t *rows, size_t nrows, const char *a_name, const char *b_name, FILE *f)
{
    fprintf(f, "compare: a = %s\n         b = %s\n", a_name, b_name);
    fprintf(f, "cluster totals per stage; delta = b - a, %% = (b - a) / a; n/a: not available in a or b\n\n");
    fprintf(f, "%-8s %-18s %14s %14s %14s %9s\n", "stage", "metric", "a", "b", "delta", "%");
    for (size_t i = 0; i < nrows; i++) {
        const study_delta_t *r = &rows[i];
        double d, p;
        bool ok = study_delta_of(r, &d, &p);
        fprintf(f, "%-8s %-18s", r->stage, r->metric);
        cell(f, r->a, !__builtin_isnan(r->a), 14);
        cell(f, r->b, !__builtin_isnan(r->b), 14);
        cell(f, d, ok, 14);
        if (!ok || __builtin_isnan(p))
            fprintf(f, " %9s\n", "n/a");
        else
            fprintf(f, " %+8.2f%%\n", p);
    }
}
