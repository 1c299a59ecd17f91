/*
 * study/compare.c — two cluster reports side by side (`grothmpi report
 * compare a.json b.json`), like perf stat's comparison of two runs: per
 * stage, the cluster totals of time and, for the counter stages, the
 * counters and ratios, with b - a and (b - a) / a. A metric either report
 * lacks (null: no PMU) is n/a, never 0.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "study/study_internal.h"

typedef struct {
    const char *metric;
    int ev;   /* study_ev_t, or -1 for IPC */
} cmp_metric_t;

static const cmp_metric_t ctr_metrics[] = {
    {"instructions", STUDY_EV_INSTRUCTIONS},     {"cycles", STUDY_EV_CYCLES},
    {"ipc", -1},                                 {"branches", STUDY_EV_BRANCHES},
    {"branch_misses", STUDY_EV_BRANCH_MISSES},   {"l2_accesses", STUDY_EV_L1D_MISSES},
    {"l1_fills_from_l2", STUDY_EV_FILL_L2},      {"l3_ccx_fills", STUDY_EV_FILL_CCX},
    {"remote_ccx_fills", STUDY_EV_FILL_REMOTE},  {"dram_fills", STUDY_EV_FILL_DRAM},
};
#define NCTR (sizeof ctr_metrics / sizeof ctr_metrics[0])

static double jnum(json_t *v) { return json_is_number(v) ? json_number_value(v) : STUDY_NAN; }

static int load(json_t **out, const char *path, err_t *err)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        return gm_err_set(err, access(path, R_OK) == 0 ? GM_EFORMAT : GM_EIO, "%s: %s", path, je.text);
    json_t *f = json_object_get(j, "format");
    if (!json_is_string(f) || strcmp(json_string_value(f), "grothmpi-report") != 0) {
        json_decref(j);
        return gm_err_set(err, GM_EFORMAT, "%s: format: not \"grothmpi-report\"", path);
    }
    if (!json_is_object(json_object_get(j, "totals")) || !json_is_object(json_object_get(j, "run"))) {
        json_decref(j);
        return gm_err_set(err, GM_EFORMAT, "%s: totals: missing (not a version 1 report)", path);
    }
    *out = j;
    return 0;
}

static double stage_time(json_t *j, const char *stage)
{
    return jnum(json_object_get(json_object_get(json_object_get(json_object_get(j, "totals"), "stages"), stage),
                                "wall_s"));
}

static double counter(json_t *j, const char *stage, int ev)
{
    json_t *c = json_object_get(json_object_get(json_object_get(j, "totals"), "counters"), stage);
    if (ev >= 0)
        return jnum(json_object_get(c, study_ev_names[ev]));
    double i = jnum(json_object_get(c, study_ev_names[STUDY_EV_INSTRUCTIONS]));
    double cy = jnum(json_object_get(c, study_ev_names[STUDY_EV_CYCLES]));
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
    json_t *a = NULL, *b = NULL;
    int rc;
    if ((rc = load(&a, a_path, err)) || (rc = load(&b, b_path, err))) {
        json_decref(a);
        return rc;
    }
    size_t cap = STUDY_NSTAGES * (1 + NCTR) + 2, n = 0;
    study_delta_t *r = calloc(cap, sizeof *r);
    if (!r) {
        json_decref(a);
        json_decref(b);
        return gm_err_set(err, GM_ENOMEM, "report compare: out of memory");
    }
    for (int s = 0; s < STUDY_NSTAGES; s++) {
        const char *st = study_stage_names[s];
        add(r, &n, st, "time_s", stage_time(a, st), stage_time(b, st));
        if (strcmp(st, "witness") == 0 || strcmp(st, "prove") == 0)
            for (size_t m = 0; m < NCTR; m++)
                add(r, &n, st, ctr_metrics[m].metric, counter(a, st, ctr_metrics[m].ev),
                    counter(b, st, ctr_metrics[m].ev));
    }
    add(r, &n, "run", "wall_s", jnum(json_object_get(json_object_get(a, "run"), "wall_s")),
        jnum(json_object_get(json_object_get(b, "run"), "wall_s")));
    add(r, &n, "run", "proofs_per_hour", jnum(json_object_get(json_object_get(a, "run"), "proofs_per_hour")),
        jnum(json_object_get(json_object_get(b, "run"), "proofs_per_hour")));
    json_decref(a);
    json_decref(b);
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
