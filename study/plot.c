/*
 * study/plot.c — the study's charts as SVG, written directly (no plotting
 * tool needed on the machine): throughput against each swept axis (one line
 * per combination of the other axes, min..max as error bars), the per-stage
 * time breakdown of every point (stacked bars), and IPC and fill ratios per
 * counter stage. Where the counters read "not available" the chart says so
 * instead of drawing zeros.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "study/study_internal.h"
/* after ff/ff.h (via jobs/): <math.h> defines FP_ZERO_ELEM, which ff/ff.h declares */
#include <math.h>

#define W 720
#define H 420
#define L 80 /* plot area: x in [L, W - R], y in [T, H - B] */
#define R 200
#define T 50
#define B 60

static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define NCOLORS (sizeof colors / sizeof colors[0])

static void header(FILE *f, const char *title)
{
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">%s</text>\n",
            W, H, W / 2, title);
}

static void frame(FILE *f, double ymax, const char *ylabel, const char *xlabel)
{
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, H - B);
    for (int i = 0; i <= 4; i++) {
        double v = ymax * i / 4, y = H - B - (H - B - T) * i / 4.0;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, W - R, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.7g</text>\n", L - 6, y + 4, v);
    }
    fprintf(f, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">%s</text>\n",
            (H - B + T) / 2, (H - B + T) / 2, ylabel);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", (L + W - R) / 2, H - 16, xlabel);
}

static double xpos(unsigned i, unsigned n) { return L + (W - R - L) * (n == 1 ? 0.5 : (0.1 + 0.8 * i / (n - 1.0))); }
static double ypos(double v, double ymax) { return H - B - (H - B - T) * (ymax > 0 ? v / ymax : 0); }

static double nice_max(double v)
{
    if (!(v > 0))
        return 1;
    double p = __builtin_pow(10, __builtin_floor(__builtin_log10(v)));
    for (double m = 1; m <= 10; m += 0.5)
        if (m * p >= v * 1.05)
            return m * p;
    return 10 * p;
}

/* Throughput against axis a: one series per combination of the other axes. */
static void plot_axis(const study_t *s, study_axis_t a, FILE *f)
{
    char title[160];
    snprintf(title, sizeof title, "study %s: throughput vs %s (median of %u; bars: min..max)", s->name,
             study_axis_names[a], s->nreps);
    header(f, title);
    double ymax = 0;
    for (size_t p = 0; p < s->npoints; p++)
        if (!__builtin_isnan(s->points[p].sum.pph_max))
            ymax = __builtin_fmax(ymax, s->points[p].sum.pph_max);
    ymax = nice_max(ymax);
    frame(f, ymax, "proofs per hour", study_axis_names[a]);
    unsigned n = s->nvals[a];
    for (unsigned i = 0; i < n; i++) {
        char t[32];
        study_axis_value_text(t, sizeof t, a, s->vals[a][i]);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", xpos(i, n), H - B + 16, t);
    }
    /* series: points that agree on every other axis */
    bool *seen = calloc(s->npoints, 1);
    unsigned series = 0;
    for (size_t p = 0; seen && p < s->npoints; p++) {
        if (seen[p])
            continue;
        const char *col = colors[series % NCOLORS];
        char label[160] = "";
        size_t o = 0;
        for (int b = 0; b < STUDY_NAXES; b++)
            if (b != (int)a && s->nvals[b] && o < sizeof label) {
                char t[32];
                study_axis_value_text(t, sizeof t, (study_axis_t)b, s->points[p].v[b]);
                o += (size_t)snprintf(label + o, sizeof label - o, "%s%s=%s", o ? " " : "", study_axis_names[b], t);
            }
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (unsigned i = 0; i < n; i++)
            for (size_t q = p; q < s->npoints; q++) {
                bool same = s->points[q].v[a] == s->vals[a][i];
                for (int b = 0; b < STUDY_NAXES; b++)
                    if (b != (int)a && s->nvals[b])
                        same = same && s->points[q].v[b] == s->points[p].v[b];
                if (same && !__builtin_isnan(s->points[q].sum.pph_median))
                    fprintf(f, "%.1f,%.1f ", xpos(i, n), ypos(s->points[q].sum.pph_median, ymax));
            }
        fprintf(f, "\"/>\n");
        for (unsigned i = 0; i < n; i++)
            for (size_t q = p; q < s->npoints; q++) {
                bool same = s->points[q].v[a] == s->vals[a][i];
                for (int b = 0; b < STUDY_NAXES; b++)
                    if (b != (int)a && s->nvals[b])
                        same = same && s->points[q].v[b] == s->points[p].v[b];
                if (!same)
                    continue;
                seen[q] = true;
                const study_summary_t *m = &s->points[q].sum;
                if (__builtin_isnan(m->pph_median))
                    continue;
                double x = xpos(i, n);
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
                        ypos(m->pph_min, ymax), x, ypos(m->pph_max, ymax), col);
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%.1f proofs/h</title></circle>\n",
                        x, ypos(m->pph_median, ymax), col, m->pph_median);
            }
        fprintf(f, "<rect x=\"%d\" y=\"%u\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", W - R + 12, T + 18 * series,
                col);
        fprintf(f, "<text x=\"%d\" y=\"%u\">%s</text>\n", W - R + 30, T + 18 * series + 10,
                label[0] ? label : "all points");
        series++;
    }
    free(seen);
    fprintf(f, "</svg>\n");
}

/* Per-stage time breakdown: one stacked bar per point (prove is left out:
 * it is the sum of abc, ntt, msm and the rank's verify). */
static void plot_stages(const study_t *s, FILE *f)
{
    char title[160];
    snprintf(title, sizeof title, "study %s: time per stage (cluster totals, median of %u)", s->name, s->nreps);
    header(f, title);
    /* every stage but prove, which is the sum of abc, ntt, msm and verify */
    static const int st[] = {MPI_STAGE_WITNESS, MPI_STAGE_ABC, MPI_STAGE_NTT, MPI_STAGE_MSM,
                             MPI_STAGE_VERIFY,  MPI_STAGE_IO,  MPI_STAGE_WAIT};
    double ymax = 0;
    for (size_t p = 0; p < s->npoints; p++) {
        double sum = 0;
        for (size_t k = 0; k < sizeof st / sizeof st[0]; k++)
            if (!__builtin_isnan(s->points[p].sum.stage_median[st[k]]))
                sum += s->points[p].sum.stage_median[st[k]];
        ymax = __builtin_fmax(ymax, sum);
    }
    ymax = nice_max(ymax);
    frame(f, ymax, "seconds", "point");
    double bw = (W - R - L) / (double)s->npoints * 0.6;
    for (size_t p = 0; p < s->npoints; p++) {
        double x = xpos((unsigned)p, (unsigned)s->npoints), base = 0;
        for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) {
            double v = s->points[p].sum.stage_median[st[k]];
            if (__builtin_isnan(v) || v <= 0)
                continue;
            fprintf(f,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s %.3f s</title>"
                    "</rect>\n",
                    x - bw / 2, ypos(base + v, ymax), bw, ypos(base, ymax) - ypos(base + v, ymax),
                    colors[k % NCOLORS], mpi_stage_names[st[k]], v);
            base += v;
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%zu</text>\n", x, H - B + 16, p);
    }
    for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) {
        fprintf(f, "<rect x=\"%d\" y=\"%zu\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", W - R + 12, T + 18 * k,
                colors[k % NCOLORS]);
        fprintf(f, "<text x=\"%d\" y=\"%zu\">%s</text>\n", W - R + 30, T + 18 * k + 10, mpi_stage_names[st[k]]);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">points: see study.txt</text>\n", W - R + 12, H - B);
    fprintf(f, "</svg>\n");
}

/* IPC (left) and fill mix per counter stage; a notice when not available. */
static void plot_counters(const study_t *s, FILE *f)
{
    char title[160];
    snprintf(title, sizeof title, "study %s: IPC and L1 fill sources per stage", s->name);
    header(f, title);
    bool any = false;
    for (size_t p = 0; p < s->npoints; p++)
        for (int c = 0; c < MPI_NCSTAGES; c++)
            any = any || !__builtin_isnan(s->points[p].sum.ipc[c]) || !__builtin_isnan(s->points[p].sum.fill_pct[c][0]);
    if (!any) {
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" font-size=\"16\" text-anchor=\"middle\">hardware counters not available "
                "on this machine</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">(instructions, cycles and "
                "fill events read \"not available\": no PMU, e.g. in a VM) - nothing plotted</text>\n</svg>\n",
                W / 2, H / 2 - 10, W / 2, H / 2 + 14);
        return;
    }
    double ymax = 0;
    for (size_t p = 0; p < s->npoints; p++)
        for (int c = 0; c < MPI_NCSTAGES; c++)
            if (!__builtin_isnan(s->points[p].sum.ipc[c]))
                ymax = __builtin_fmax(ymax, s->points[p].sum.ipc[c]);
    ymax = nice_max(ymax);
    frame(f, ymax, "IPC (n/a points omitted)", "point");
    for (int c = 0; c < MPI_NCSTAGES; c++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colors[c]);
        for (size_t p = 0; p < s->npoints; p++)
            if (!__builtin_isnan(s->points[p].sum.ipc[c]))
                fprintf(f, "%.1f,%.1f ", xpos((unsigned)p, (unsigned)s->npoints), ypos(s->points[p].sum.ipc[c], ymax));
        fprintf(f, "\"/>\n<text x=\"%d\" y=\"%d\" fill=\"%s\">IPC %s</text>\n", W - R + 12, T + 18 * c + 10,
                colors[c], mpi_cstage_names[c]);
    }
    for (size_t p = 0; p < s->npoints; p++) {
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%zu</text>\n",
                xpos((unsigned)p, (unsigned)s->npoints), H - B + 16, p);
        const double *fp = s->points[p].sum.fill_pct[MPI_CSTAGE_PROVE];
        fprintf(f, "<text x=\"%d\" y=\"%zu\" font-size=\"10\">p%zu prove fills: ", W - R + 12, T + 60 + 14 * p, p);
        if (__builtin_isnan(fp[0]))
            fprintf(f, "n/a");
        else
            fprintf(f, "L2 %.0f%% CCX %.0f%% xCCX %.0f%% DRAM %.0f%%", fp[0], fp[1], fp[2], fp[3]);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg>\n");
}

static int save(const char *dir, const char *name, void (*fn)(const study_t *, FILE *), const study_t *s,
                int axis, err_t *err)
{
    char *buf = NULL, path[JOBS_PATH_LEN + 64];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    if (fn)
        fn(s, f);
    else
        plot_axis(s, (study_axis_t)axis, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = buf ? gm_file_write(path, buf, len, err) : gm_err_set(err, GM_ENOMEM, "study: out of memory");
    free(buf);
    return rc;
}

int study_write_plots(const study_t *s, const char *dir, err_t *err)
{
    int rc;
    for (int a = 0; a < STUDY_NAXES; a++)
        if (s->nvals[a]) {
            char name[64];
            snprintf(name, sizeof name, "throughput-vs-%s.svg", study_axis_names[a]);
            if ((rc = save(dir, name, NULL, s, a, err)))
                return rc;
        }
    if ((rc = save(dir, "stages.svg", plot_stages, s, 0, err)))
        return rc;
    return save(dir, "counters.svg", plot_counters, s, 0, err);
}
