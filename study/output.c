/*
 * study/output.c — the files of a finished study: study.json (every point,
 * every repetition, the topology, the versions), study.csv (one row per run
 * and one "median" row per point), study.txt (the table). All three are
 * written from the same in-memory numbers, so they agree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "study/study_internal.h"
/* after ff/ff.h (via jobs/): <math.h> defines FP_ZERO_ELEM, which ff/ff.h declares */
#include <math.h>

#define STUDY_FORMAT_VERSION 1

static json_t *num(double v) { return __builtin_isnan(v) ? json_null() : json_real(v); }

static json_t *axis_json(study_axis_t a, uint64_t v)
{
    return a == STUDY_AXIS_PIN ? json_boolean(v != 0) : json_integer((json_int_t)v);
}

static json_t *ev_json(const double *ev)
{
    json_t *o = json_object();
    for (int e = 0; e < STUDY_NEV; e++)
        json_object_set_new(o, mpi_event_names[study_events[e]], num(ev[e]));
    return o;
}

static json_t *stages_json(const double *st)
{
    json_t *o = json_object();
    for (int i = 0; i < MPI_NSTAGES; i++)
        json_object_set_new(o, mpi_stage_names[i], num(st[i]));
    return o;
}

static const char *const fill_names[4] = {"from_l2", "from_ccx", "from_other_ccx", "from_dram"};

static json_t *study_json(const study_t *s)
{
    json_t *j = json_object();
    json_object_set_new(j, "format", json_string("grothmpi-study"));
    json_object_set_new(j, "version", json_integer(STUDY_FORMAT_VERSION));
    json_object_set_new(j, "name", json_string(s->name));
    json_object_set_new(j, "file", json_string(s->file));
    json_object_set_new(j, "campaign", json_deep_copy(s->base_json));
    json_t *t = json_object();
    json_object_set_new(t, "source", json_string(topo_source(s->topo)));
    json_object_set_new(t, "this_system", json_boolean(topo_is_this_system(s->topo)));
    json_object_set_new(t, "packages", json_integer(topo_package_count(s->topo)));
    json_object_set_new(t, "numa_nodes", json_integer(topo_numa_count(s->topo)));
    json_object_set_new(t, "l3_domains", json_integer(topo_l3_count(s->topo)));
    json_object_set_new(t, "cores", json_integer(topo_core_count(s->topo)));
    json_object_set_new(t, "pus", json_integer(topo_pu_count(s->topo)));
    json_object_set_new(t, "gpus", json_integer(topo_gpu_count(s->topo)));
    json_t *doms = json_array();
    for (unsigned d = 0; d < topo_l3_count(s->topo); d++) {
        topo_domain_t dd;
        topo_domain_get(s->topo, d, &dd);
        json_t *o = json_object();
        json_object_set_new(o, "domain", json_integer(d));
        json_object_set_new(o, "cores", json_integer(dd.ncores));
        json_object_set_new(o, "cpus", json_string(dd.cpus));
        json_object_set_new(o, "l3_bytes", json_integer((json_int_t)dd.l3_bytes));
        json_array_append_new(doms, o);
    }
    json_object_set_new(t, "domains", doms);
    json_object_set_new(j, "topology", t);
    json_t *v = json_object();
    struct utsname u;
    json_object_set_new(v, "study_format", json_integer(STUDY_FORMAT_VERSION));
    json_object_set_new(v, "report_format", json_integer(MPI_REPORT_VERSION));
    json_object_set_new(v, "compiler", json_string(__VERSION__));
    json_object_set_new(v, "jansson", json_string(JANSSON_VERSION));
    if (uname(&u) == 0) {
        char k[400];
        snprintf(k, sizeof k, "%s %s %s", u.sysname, u.release, u.machine);
        json_object_set_new(v, "kernel", json_string(k));
        json_object_set_new(v, "host", json_string(u.nodename));
    }
    json_object_set_new(j, "versions", v);
    json_t *axes = json_array();
    for (int a = 0; a < STUDY_NAXES; a++)
        if (s->nvals[a]) {
            json_t *o = json_object(), *vals = json_array();
            json_object_set_new(o, "name", json_string(study_axis_names[a]));
            for (unsigned i = 0; i < s->nvals[a]; i++)
                json_array_append_new(vals, axis_json((study_axis_t)a, s->vals[a][i]));
            json_object_set_new(o, "values", vals);
            json_array_append_new(axes, o);
        }
    json_object_set_new(j, "axes", axes);
    json_object_set_new(j, "repetitions", json_integer(s->nreps));
    json_object_set_new(j, "stages", json_array());
    for (int i = 0; i < MPI_NSTAGES; i++)
        json_array_append_new(json_object_get(j, "stages"), json_string(mpi_stage_names[i]));
    json_t *pts = json_array();
    for (size_t p = 0; p < s->npoints; p++) {
        const study_point_t *pt = &s->points[p];
        json_t *o = json_object(), *params = json_object(), *runs = json_array();
        json_object_set_new(o, "index", json_integer((json_int_t)p));
        for (int a = 0; a < STUDY_NAXES; a++)
            if (s->nvals[a])
                json_object_set_new(params, study_axis_names[a], axis_json((study_axis_t)a, pt->v[a]));
        json_object_set_new(o, "params", params);
        for (unsigned r = 0; r < pt->done; r++) {
            const study_rep_t *rp = &pt->reps[r];
            json_t *ro = json_object(), *ctr = json_object();
            json_object_set_new(ro, "rep", json_integer(r));
            json_object_set_new(ro, "report", json_string(rp->report));
            json_object_set_new(ro, "ranks", json_integer(rp->ranks));
            json_object_set_new(ro, "threads", json_integer(rp->threads));
            json_object_set_new(ro, "depth", json_integer(rp->depth));
            json_object_set_new(ro, "wall_s", num(rp->wall_s));
            json_object_set_new(ro, "proofs_per_hour", num(rp->proofs_per_hour));
            json_object_set_new(ro, "stages", stages_json(rp->stage_s));
            for (int c = 0; c < MPI_NCSTAGES; c++)
                json_object_set_new(ctr, mpi_cstage_names[c], ev_json(rp->ev[c]));
            json_object_set_new(ro, "counters", ctr);
            json_array_append_new(runs, ro);
        }
        json_object_set_new(o, "runs", runs);
        const study_summary_t *m = &pt->sum;
        json_t *so = json_object(), *pph = json_object(), *ipc = json_object(), *fill = json_object();
        json_object_set_new(pph, "median", num(m->pph_median));
        json_object_set_new(pph, "min", num(m->pph_min));
        json_object_set_new(pph, "max", num(m->pph_max));
        json_object_set_new(pph, "spread_pct", num(m->spread_pct));
        json_object_set_new(so, "proofs_per_hour", pph);
        json_object_set_new(so, "wall_s", num(m->wall_median));
        json_object_set_new(so, "stages", stages_json(m->stage_median));
        for (int c = 0; c < MPI_NCSTAGES; c++) {
            json_object_set_new(ipc, mpi_cstage_names[c], num(m->ipc[c]));
            json_t *f = json_object();
            for (int k = 0; k < 4; k++)
                json_object_set_new(f, fill_names[k], num(m->fill_pct[c][k]));
            json_object_set_new(fill, mpi_cstage_names[c], f);
        }
        json_object_set_new(so, "ipc", ipc);
        json_object_set_new(so, "fill_pct", fill);
        json_t *ctr = json_object();
        for (int c = 0; c < MPI_NCSTAGES; c++)
            json_object_set_new(ctr, mpi_cstage_names[c], ev_json(m->ev_median[c]));
        json_object_set_new(so, "counters", ctr);
        json_object_set_new(o, "median", so);
        json_array_append_new(pts, o);
    }
    json_object_set_new(j, "points", pts);
    return j;
}

static void csv_num(FILE *f, double v)
{
    if (__builtin_isnan(v))
        fputs(",NA", f);
    else
        fprintf(f, ",%.9g", v);
}

void study_print_csv(const study_t *s, FILE *f)
{
    fputs("point,rep", f);
    for (int a = 0; a < STUDY_NAXES; a++)
        if (s->nvals[a])
            fprintf(f, ",%s", study_axis_names[a]);
    fputs(",ranks_run,threads_run,depth,wall_s,proofs_per_hour,pph_min,pph_max,spread_pct", f);
    for (int i = 0; i < MPI_NSTAGES; i++)
        fprintf(f, ",%s_s", mpi_stage_names[i]);
    fputs(",witness_ipc,prove_ipc", f);
    for (int e = 0; e < STUDY_NEV; e++)
        fprintf(f, ",prove:%s", mpi_event_names[study_events[e]]);
    fputc('\n', f);
    for (size_t p = 0; p < s->npoints; p++) {
        const study_point_t *pt = &s->points[p];
        for (unsigned r = 0; r <= pt->done; r++) {
            bool med = r == pt->done;
            if (med)
                fprintf(f, "%zu,median", p);
            else
                fprintf(f, "%zu,%u", p, r);
            for (int a = 0; a < STUDY_NAXES; a++)
                if (s->nvals[a]) {
                    char t[32];
                    study_axis_value_text(t, sizeof t, (study_axis_t)a, pt->v[a]);
                    fprintf(f, ",%s", t);
                }
            if (med) {
                const study_summary_t *m = &pt->sum;
                fprintf(f, ",,,");
                csv_num(f, m->wall_median);
                csv_num(f, m->pph_median);
                csv_num(f, m->pph_min);
                csv_num(f, m->pph_max);
                csv_num(f, m->spread_pct);
                for (int i = 0; i < MPI_NSTAGES; i++)
                    csv_num(f, m->stage_median[i]);
                csv_num(f, m->ipc[MPI_CSTAGE_WITNESS]);
                csv_num(f, m->ipc[MPI_CSTAGE_PROVE]);
                for (int e = 0; e < STUDY_NEV; e++)
                    csv_num(f, m->ev_median[MPI_CSTAGE_PROVE][e]);
            } else {
                const study_rep_t *rp = &pt->reps[r];
                fprintf(f, ",%u,%u,%u", rp->ranks, rp->threads, rp->depth);
                csv_num(f, rp->wall_s);
                csv_num(f, rp->proofs_per_hour);
                fputs(",,,", f);
                for (int i = 0; i < MPI_NSTAGES; i++)
                    csv_num(f, rp->stage_s[i]);
                double ipc[MPI_NCSTAGES];
                for (int c = 0; c < MPI_NCSTAGES; c++)
                    ipc[c] = rp->ev[c][STUDY_EV_CYCLES] > 0
                                 ? rp->ev[c][STUDY_EV_INSTRUCTIONS] / rp->ev[c][STUDY_EV_CYCLES]
                                 : STUDY_NAN;
                csv_num(f, ipc[MPI_CSTAGE_WITNESS]);
                csv_num(f, ipc[MPI_CSTAGE_PROVE]);
                for (int e = 0; e < STUDY_NEV; e++)
                    csv_num(f, rp->ev[MPI_CSTAGE_PROVE][e]);
            }
            fputc('\n', f);
        }
    }
}

static void txt_num(FILE *f, const char *fmt, double v, int width)
{
    if (__builtin_isnan(v))
        fprintf(f, " %*s", width, "n/a");
    else
        fprintf(f, fmt, width, v);
}

void study_print_text(const study_t *s, FILE *f)
{
    fprintf(f, "study %s: %zu points x %u repetitions, campaign %s (circuit %s, %zu units), topology %s\n", s->name,
            s->npoints, s->nreps, s->base.name, s->base.circuit.id, jobs_unit_count(&s->base), topo_source(s->topo));
    fprintf(f, "throughput: median of the repetitions (min..max, spread = (max - min) / median)\n\n");
    fprintf(f, "%5s", "point");
    for (int a = 0; a < STUDY_NAXES; a++)
        if (s->nvals[a])
            fprintf(f, " %10s", study_axis_names[a]);
    fprintf(f, " %5s %12s %12s %12s %7s %8s", "depth", "proofs/h", "min", "max", "spread%", "wall_s");
    for (int i = 0; i < MPI_NSTAGES; i++)
        fprintf(f, " %8s", mpi_stage_names[i]);
    fputc('\n', f);
    for (size_t p = 0; p < s->npoints; p++) {
        const study_point_t *pt = &s->points[p];
        const study_summary_t *m = &pt->sum;
        fprintf(f, "%5zu", p);
        for (int a = 0; a < STUDY_NAXES; a++)
            if (s->nvals[a]) {
                char t[32];
                study_axis_value_text(t, sizeof t, (study_axis_t)a, pt->v[a]);
                fprintf(f, " %10s", t);
            }
        fprintf(f, " %5u", pt->done ? pt->reps[0].depth : 0);
        txt_num(f, " %*.1f", m->pph_median, 12);
        txt_num(f, " %*.1f", m->pph_min, 12);
        txt_num(f, " %*.1f", m->pph_max, 12);
        txt_num(f, " %*.1f", m->spread_pct, 7);
        txt_num(f, " %*.3f", m->wall_median, 8);
        for (int i = 0; i < MPI_NSTAGES; i++)
            txt_num(f, " %*.3f", m->stage_median[i], 8);
        fputc('\n', f);
    }
    fprintf(f, "\nstage times: cluster totals (seconds, summed over ranks), median of the repetitions\n");
    fprintf(f, "\ncounters per stage (median; n/a: not available on this machine)\n");
    fprintf(f, "%5s %8s %8s %10s %10s %10s %10s\n", "point", "stage", "IPC", "fill L2%", "fill CCX%", "other CCX%",
            "DRAM%");
    for (size_t p = 0; p < s->npoints; p++)
        for (int c = 0; c < MPI_NCSTAGES; c++) {
            const study_summary_t *m = &s->points[p].sum;
            fprintf(f, "%5zu %8s", p, mpi_cstage_names[c]);
            txt_num(f, " %*.2f", m->ipc[c], 8);
            for (int k = 0; k < 4; k++)
                txt_num(f, " %*.1f", m->fill_pct[c][k], 10);
            fputc('\n', f);
        }
}

static int write_stream(const char *path, void (*fn)(const study_t *, FILE *), const study_t *s, err_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    fn(s, f);
    if (fclose(f) != 0) {
        free(buf);
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    }
    int rc = gm_file_write(path, buf, len, err);
    free(buf);
    return rc;
}

int study_write_outputs(const study_t *s, err_t *err)
{
    char path[JOBS_PATH_LEN + 32];
    json_t *j = study_json(s);
    char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(j);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "study: out of memory");
    snprintf(path, sizeof path, "%s/study.json", s->output);
    int rc = gm_file_write(path, text, strlen(text), err);
    free(text);
    if (rc)
        return rc;
    snprintf(path, sizeof path, "%s/study.csv", s->output);
    if ((rc = write_stream(path, study_print_csv, s, err)))
        return rc;
    snprintf(path, sizeof path, "%s/study.txt", s->output);
    if ((rc = write_stream(path, study_print_text, s, err)))
        return rc;
    snprintf(path, sizeof path, "%s/plots", s->output);
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", path, strerror(errno));
    return study_write_plots(s, path, err);
}
