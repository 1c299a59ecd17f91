/*
 * mpi/report.c — the cluster report: built on rank 0 from every rank's
 * metrics, kept as one JSON document (the format of report.json, stable
 * keys, docs/report.md), and printed from that document as text tables or
 * CSV. `grothmpi report FILE` reads report.json back and prints it the same
 * way, so a saved report and a live one look identical.
 *
 * DESIGN
 *  - One source of truth: the JSON tree. The text and CSV printers read
 *    only the tree, never the metrics structs.
 *  - Numbers that could not be measured are JSON null and print as "n/a":
 *    hardware counters without a PMU, CPU time of the stages that run
 *    inside groth16_prove (abc, ntt, msm, verify: only their sum, "prove",
 *    has a CPU time, from the task-clock of the prover pool).
 *  - Runs on rank 0's main thread after the roles ended; nothing shared.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"

/* Not <math.h>: it defines FP_ZERO_ELEM, a name ff/ff.h declares. */
#define NAN (__builtin_nan(""))
#define isnan(x) __builtin_isnan(x)
#define fabs(x) __builtin_fabs(x)

#define REPORT_FORMAT "grothmpi-report"
#define REPORT_VERSION 1

struct mpi_report {
    json_t *j;
};

static const char *const cs_names[MR_NCS] = {"witness", "prove"};

static json_t *num_or_null(double v) { return isnan(v) ? json_null() : json_real(v); }

static json_t *counters_obj(const mr_metrics_t *m, const double *ev)
{
    json_t *o = json_object();
    for (int i = 0; i < m->nev && i < MR_MAX_EVENTS; i++)
        json_object_set_new(o, m->ev_name[i], m->ev_avail[i] ? num_or_null(ev[i]) : json_null());
    return o;
}

static double ev_by_name(const mr_metrics_t *m, const double *ev, const char *name)
{
    for (int i = 0; i < m->nev && i < MR_MAX_EVENTS; i++)
        if (!strcmp(m->ev_name[i], name))
            return m->ev_avail[i] ? ev[i] : NAN;
    return NAN;
}

static json_t *derived_obj(const mr_metrics_t *m, const double *ev)
{
    json_t *o = json_object();
    double ins = ev_by_name(m, ev, "instructions"), cyc = ev_by_name(m, ev, "cycles");
    double l1 = ev_by_name(m, ev, "L1-dcache-load-misses"), tlb = ev_by_name(m, ev, "dTLB-load-misses");
    json_object_set_new(o, "ipc", !isnan(ins) && !isnan(cyc) && cyc > 0 ? json_real(ins / cyc) : json_null());
    json_object_set_new(o, "l1d_miss_pki",
                        !isnan(ins) && !isnan(l1) && ins > 0 ? json_real(l1 * 1000.0 / ins) : json_null());
    json_object_set_new(o, "dtlb_miss_pki",
                        !isnan(ins) && !isnan(tlb) && ins > 0 ? json_real(tlb * 1000.0 / ins) : json_null());
    return o;
}

int mr_report_build(mpi_report_t **out, const jobs_campaign_t *c, const mr_metrics_t *all, int size, size_t total,
                    size_t proved, size_t resumed, size_t root_verified, double wall_s, err_t *err)
{
    *out = NULL;
    mpi_report_t *r = calloc(1, sizeof *r);
    json_t *j = json_object();
    if (!r || !j) {
        free(r);
        json_decref(j);
        return gm_err_set(err, GM_ENOMEM, "report: out of memory");
    }
    r->j = j;
    json_object_set_new(j, "format", json_string(REPORT_FORMAT));
    json_object_set_new(j, "version", json_integer(REPORT_VERSION));

    json_t *cj = json_object();
    json_object_set_new(cj, "name", json_string(c->name));
    json_object_set_new(cj, "file", json_string(c->file));
    json_object_set_new(cj, "circuit", json_string(c->circuit.id));
    json_object_set_new(cj, "sectors", json_integer((json_int_t)c->nsectors));
    json_object_set_new(cj, "partitions", json_integer(c->partitions));
    json_object_set_new(cj, "units", json_integer((json_int_t)total));
    json_object_set_new(cj, "batch_size", json_integer(c->batch_size));
    json_object_set_new(cj, "verify",
                        json_string(c->verify == JOBS_VERIFY_ROOT ? "root" : c->verify == JOBS_VERIFY_BOTH ? "both" : "rank"));
    json_object_set_new(cj, "output", json_string(c->output));
    json_object_set_new(j, "campaign", cj);

    json_t *stages = json_array();
    for (int s = 0; s < MR_NSTAGES; s++)
        json_array_append_new(stages, json_string(mr_stage_names[s]));
    json_object_set_new(j, "stages", stages);
    const mr_metrics_t *m0 = &all[0];
    json_t *events = json_array();
    for (int i = 0; i < m0->nev && i < MR_MAX_EVENTS; i++)
        json_array_append_new(events, json_string(m0->ev_name[i]));
    json_object_set_new(j, "events", events);
    json_object_set_new(j, "counter_model", json_string(m0->model[0] ? m0->model : "none"));

    /* per rank */
    json_t *ranks = json_array();
    double busy_max = 0, busy_sum = 0;
    uint64_t gpu_fallbacks = 0;
    uint64_t units_min = UINT64_MAX, units_max = 0, alloc_max = 0, rss_max = 0;
    double tw[MR_NSTAGES] = {0}, tc[MR_NSTAGES] = {0};
    bool tc_known[MR_NSTAGES];
    for (int s = 0; s < MR_NSTAGES; s++)
        tc_known[s] = true;
    double tev[MR_NCS][MR_MAX_EVENTS];
    for (int cs = 0; cs < MR_NCS; cs++)
        for (int i = 0; i < MR_MAX_EVENTS; i++)
            tev[cs][i] = 0;
    for (int rk = 0; rk < size; rk++) {
        const mr_metrics_t *m = &all[rk];
        json_t *o = json_object();
        double busy = (double)m->busy_ns * 1e-9;
        json_object_set_new(o, "rank", json_integer(rk));
        json_object_set_new(o, "host", json_string(m->host));
        json_object_set_new(o, "threads", json_integer(m->threads));
        json_object_set_new(o, "l3_domains", json_integer(m->ndomains));
        json_object_set_new(o, "prepare_threads", json_integer(m->prep_threads));
        json_object_set_new(o, "prepare_domains", json_integer(m->prep_domains));
        json_object_set_new(o, "domains_wanted", json_integer(m->domains_wanted));
        json_object_set_new(o, "topology", json_string(m->topology));
        json_object_set_new(o, "pipeline_depth", json_integer(m->depth));
        json_object_set_new(o, "pipeline_depth_wanted", json_integer(m->depth_wanted));
        json_object_set_new(o, "units", json_integer((json_int_t)m->units));
        json_object_set_new(o, "busy_s", json_real(busy));
        json_object_set_new(o, "run_s", json_real((double)m->run_ns * 1e-9));
        json_object_set_new(o, "proofs_per_hour", busy > 0 ? json_real((double)m->units / busy * 3600.0) : json_null());
        json_t *mem = json_object();
        json_object_set_new(mem, "budget_bytes", json_integer((json_int_t)m->mem_budget));
        json_object_set_new(mem, "params_bytes", json_integer((json_int_t)m->params_bytes));
        json_object_set_new(mem, "prover_bytes", json_integer((json_int_t)m->prover_bytes));
        json_object_set_new(mem, "witness_bytes", json_integer((json_int_t)m->witness_bytes));
        json_object_set_new(mem, "unit_bytes", json_integer((json_int_t)m->unit_bytes));
        json_object_set_new(mem, "inflight_max", json_integer(m->inflight_max));
        json_object_set_new(mem, "inflight_peak", json_integer(m->inflight_peak));
        json_object_set_new(mem, "alloc_peak_bytes", json_integer((json_int_t)m->alloc_peak));
        json_object_set_new(mem, "rss_peak_bytes", json_integer((json_int_t)m->rss_peak));
        json_object_set_new(o, "memory", mem);
        json_t *st = json_object();
        for (int s = 0; s < MR_NSTAGES; s++) {
            json_t *so = json_object();
            json_object_set_new(so, "wall_s", json_real((double)m->wall_ns[s] * 1e-9));
            json_object_set_new(so, "cpu_s", m->cpu_known[s] ? json_real((double)m->cpu_ns[s] * 1e-9) : json_null());
            json_object_set_new(st, mr_stage_names[s], so);
            tw[s] += (double)m->wall_ns[s] * 1e-9;
            if (m->cpu_known[s])
                tc[s] += (double)m->cpu_ns[s] * 1e-9;
            else
                tc_known[s] = false;
        }
        json_object_set_new(o, "stages", st);
        json_t *ctr = json_object(), *der = json_object();
        for (int cs = 0; cs < MR_NCS; cs++) {
            json_object_set_new(ctr, cs_names[cs], counters_obj(m, m->ev[cs]));
            json_object_set_new(der, cs_names[cs], derived_obj(m, m->ev[cs]));
            for (int i = 0; i < m->nev && i < MR_MAX_EVENTS; i++)
                tev[cs][i] += (!m->ev_avail[i] || isnan(m->ev[cs][i])) ? NAN : m->ev[cs][i];
        }
        json_object_set_new(o, "counters", ctr);
        json_object_set_new(o, "derived", der);
        json_t *doms = json_array();
        for (int d = 0; d < m->ndom_counted && d < MR_MAX_DOMAINS; d++) {
            json_t *dj = json_object(), *dc = json_object(), *dd = json_object();
            json_object_set_new(dj, "domain", json_integer(d));
            json_object_set_new(dj, "cpus", json_string(m->dom_cpus[d]));
            json_object_set_new(dc, "prove", counters_obj(m, m->ev_dom[d]));
            json_object_set_new(dd, "prove", derived_obj(m, m->ev_dom[d]));
            json_object_set_new(dj, "counters", dc);
            json_object_set_new(dj, "derived", dd);
            json_array_append_new(doms, dj);
        }
        json_object_set_new(o, "domains", doms);
        json_t *pds = json_array();
        for (int d = 0; d < m->prep_domains && d < MR_MAX_DOMAINS; d++) {
            json_t *pd = json_object();
            json_object_set_new(pd, "domain", json_integer(d));
            json_object_set_new(pd, "threads", json_integer(m->dom_prep_threads[d]));
            json_object_set_new(pd, "units", json_integer((json_int_t)m->dom_prep_units[d]));
            json_object_set_new(pd, "wall_s", json_real((double)m->dom_prep_wall_ns[d] * 1e-9));
            json_object_set_new(pd, "cpu_s", json_real((double)m->dom_prep_cpu_ns[d] * 1e-9));
            json_array_append_new(pds, pd);
        }
        json_object_set_new(o, "prepare", pds);
        json_object_set_new(o, "backend", json_string(m->backend));
        json_t *gps = json_array();
        for (int g = 0; g < m->ngpu && g < MR_MAX_GPUS; g++) {
            const mr_gpu_row_t *gr = &m->gpu[g];
            json_t *go = json_object();
            json_object_set_new(go, "device", json_string(gr->name));
            json_object_set_new(go, "units", json_integer((json_int_t)gr->units));
            json_object_set_new(go, "busy_s", json_real((double)gr->busy_ns * 1e-9));
            json_object_set_new(go, "msm_s", json_real((double)gr->msm_ns * 1e-9));
            json_object_set_new(go, "ntt_s", json_real((double)gr->ntt_ns * 1e-9));
            json_object_set_new(go, "mem_peak_bytes", json_integer((json_int_t)gr->mem_peak));
            json_object_set_new(go, "fallbacks", json_integer((json_int_t)gr->fallbacks));
            json_object_set_new(go, "failures", json_integer((json_int_t)gr->failures));
            json_object_set_new(go, "retired", json_boolean(gr->retired));
            json_array_append_new(gps, go);
            gpu_fallbacks += gr->fallbacks;
        }
        json_object_set_new(o, "gpus", gps);
        json_array_append_new(ranks, o);
        busy_sum += busy;
        if (busy > busy_max)
            busy_max = busy;
        if (m->units < units_min)
            units_min = m->units;
        if (m->units > units_max)
            units_max = m->units;
        if (m->alloc_peak > alloc_max)
            alloc_max = m->alloc_peak;
        if (m->rss_peak > rss_max)
            rss_max = m->rss_peak;
    }
    json_object_set_new(j, "ranks", ranks);

    json_t *run = json_object();
    json_object_set_new(run, "ranks", json_integer(size));
    json_object_set_new(run, "wall_s", json_real(wall_s));
    json_object_set_new(run, "proved", json_integer((json_int_t)proved));
    json_object_set_new(run, "resumed", json_integer((json_int_t)resumed));
    json_object_set_new(run, "verified_by_root", json_integer((json_int_t)root_verified));
    json_object_set_new(run, "gpu_fallbacks", json_integer((json_int_t)gpu_fallbacks));
    json_object_set_new(run, "proofs_per_hour", wall_s > 0 && proved ? json_real((double)proved / wall_s * 3600.0)
                                                                      : json_null());
    double mean = size ? busy_sum / size : 0;
    json_object_set_new(run, "load_imbalance", mean > 0 ? json_real(busy_max / mean) : json_null());
    json_object_set_new(run, "units_per_rank_min", json_integer((json_int_t)(size ? units_min : 0)));
    json_object_set_new(run, "units_per_rank_max", json_integer((json_int_t)units_max));
    json_object_set_new(j, "run", run);

    json_t *tot = json_object(), *tst = json_object(), *tctr = json_object();
    for (int s = 0; s < MR_NSTAGES; s++) {
        json_t *so = json_object();
        json_object_set_new(so, "wall_s", json_real(tw[s]));
        json_object_set_new(so, "cpu_s", tc_known[s] ? json_real(tc[s]) : json_null());
        json_object_set_new(tst, mr_stage_names[s], so);
    }
    for (int cs = 0; cs < MR_NCS; cs++)
        json_object_set_new(tctr, cs_names[cs], counters_obj(m0, tev[cs]));
    json_object_set_new(tot, "stages", tst);
    json_object_set_new(tot, "counters", tctr);
    json_object_set_new(tot, "busy_s_max", json_real(busy_max));
    json_object_set_new(tot, "busy_s_mean", json_real(mean));
    json_object_set_new(tot, "alloc_peak_bytes_max", json_integer((json_int_t)alloc_max));
    json_object_set_new(tot, "rss_peak_bytes_max", json_integer((json_int_t)rss_max));
    json_object_set_new(j, "totals", tot);
    *out = r;
    return 0;
}

/* ---- a split campaign's accounts ------------------------------------------------------ */

static const char *const split_ns_keys[] = {"load_s", "abc_s", "h_s", "msm_s", "total_s"};

static uint64_t *split_ns(mpi_split_rank_t *a, int i)
{
    uint64_t *f[] = {&a->load_ns, &a->abc_ns, &a->h_ns, &a->msm_ns, &a->total_ns};
    return f[i];
}

int mr_report_add_split(mpi_report_t *r, const mpi_split_rank_t *acc, int size, int split, err_t *err)
{
    json_t *o = json_object(), *per = json_array();
    if (!o || !per) {
        json_decref(o);
        json_decref(per);
        return gm_err_set(err, GM_ENOMEM, "report: out of memory");
    }
    json_object_set_new(o, "ranks_per_group", json_integer(split));
    json_object_set_new(o, "groups", json_integer(split > 0 ? size / split : 0));
    for (int i = 0; i < size; i++) {
        mpi_split_rank_t a = acc[i];
        json_t *ro = json_object(), *st = json_object();
        json_object_set_new(ro, "rank", json_integer(i));
        json_object_set_new(ro, "group", json_integer(i / split));
        json_object_set_new(ro, "key_bytes", json_integer((json_int_t)a.key_bytes));
        json_object_set_new(ro, "points", json_integer((json_int_t)a.points));
        json_object_set_new(ro, "h_bytes", json_integer((json_int_t)a.ntt_bytes));
        json_object_set_new(ro, "mem_peak_bytes", json_integer((json_int_t)a.mem_peak));
        json_object_set_new(ro, "rss_peak_bytes", json_integer((json_int_t)a.rss_peak));
        for (int k = 0; k < 5; k++)
            json_object_set_new(ro, split_ns_keys[k], json_real((double)*split_ns(&a, k) * 1e-9));
        for (int k = 0; k < MPI_SPLIT_NSTAGES; k++) {
            json_t *so = json_object();
            json_object_set_new(so, "sent_bytes", json_integer((json_int_t)a.sent[k]));
            json_object_set_new(so, "recv_bytes", json_integer((json_int_t)a.recv[k]));
            json_object_set_new(so, "network_wait_s", json_real((double)a.wait_ns[k] * 1e-9));
            json_object_set_new(st, mpi_split_stage_names[k], so);
        }
        json_object_set_new(ro, "stages", st);
        json_array_append_new(per, ro);
    }
    json_object_set_new(o, "per_rank", per);
    json_object_set_new(r->j, "split", o);
    return 0;
}

/* ---- load / save ------------------------------------------------------------------- */

int mpi_report_load(mpi_report_t **out, const char *path, err_t *err)
{
    *out = NULL;
    json_error_t je;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    json_t *j = json_loadf(f, 0, &je);
    fclose(f);
    if (!j)
        return gm_err_set(err, GM_EFORMAT, "%s: line %d column %d: %s", path, je.line, je.column, je.text);
    json_t *fmt = json_object_get(j, "format"), *ver = json_object_get(j, "version");
    const char *bad = NULL;
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), REPORT_FORMAT))
        bad = "format: not \"" REPORT_FORMAT "\"";
    else if (!json_is_integer(ver) || json_integer_value(ver) != REPORT_VERSION)
        bad = "version: not 1";
    else if (!json_is_array(json_object_get(j, "ranks")) || !json_is_object(json_object_get(j, "run")) ||
             !json_is_object(json_object_get(j, "campaign")) || !json_is_array(json_object_get(j, "stages")))
        bad = "ranks, run, campaign or stages: missing";
    if (bad) {
        json_decref(j);
        return gm_err_set(err, GM_EFORMAT, "%s: %s (is it a grothmpi report.json?)", path, bad);
    }
    mpi_report_t *r = calloc(1, sizeof *r);
    if (!r) {
        json_decref(j);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    }
    r->j = j;
    *out = r;
    return 0;
}

int mpi_report_save(const mpi_report_t *r, const char *path, err_t *err)
{
    char *text = json_dumps(r->j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    size_t n = strlen(text);
    text[n] = 0;
    char *t2 = realloc(text, n + 2);
    if (!t2) {
        free(text);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    }
    t2[n] = '\n';
    int rc = gm_file_write(path, t2, n + 1, err);
    free(t2);
    return rc;
}

void mpi_report_free(mpi_report_t *r)
{
    if (!r)
        return;
    json_decref(r->j);
    free(r);
}

/* ---- printing ------------------------------------------------------------------------ */

static double jnum(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *jstr(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static void fmt_num(char *buf, size_t n, double v, const char *f)
{
    if (isnan(v))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, f, v);
}

static void fmt_big(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "n/a");
    else if (fabs(v) >= 1e9)
        snprintf(buf, n, "%.3gG", v / 1e9);
    else if (fabs(v) >= 1e6)
        snprintf(buf, n, "%.3gM", v / 1e6);
    else if (fabs(v) >= 1e3)
        snprintf(buf, n, "%.3gk", v / 1e3);
    else
        snprintf(buf, n, "%.3g", v);
}

static double mib(json_t *o, const char *key) { return jnum(o, key) / 1048576.0; }

/* The accounts of report.json's "split" back into mpi_split_rank_t, for
 * mpi_split_print. */
static void split_from_json(mpi_split_rank_t *a, json_t *ro)
{
    memset(a, 0, sizeof *a);
    json_t *v;
#define U64(key) ((v = json_object_get(ro, key)) && json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0)
#define SEC(obj, key) ((v = json_object_get(obj, key)) && json_is_number(v) ? (uint64_t)(json_number_value(v) * 1e9 + 0.5) : 0)
    a->rank = (int32_t)U64("rank");
    a->key_bytes = U64("key_bytes");
    a->points = U64("points");
    a->ntt_bytes = U64("h_bytes");
    a->mem_peak = U64("mem_peak_bytes");
    a->rss_peak = U64("rss_peak_bytes");
    for (int k = 0; k < 5; k++)
        *split_ns(a, k) = SEC(ro, split_ns_keys[k]);
    json_t *st = json_object_get(ro, "stages");
    for (int k = 0; k < MPI_SPLIT_NSTAGES; k++) {
        json_t *so = json_object_get(st, mpi_split_stage_names[k]);
        a->sent[k] = (v = json_object_get(so, "sent_bytes")) && json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
        a->recv[k] = (v = json_object_get(so, "recv_bytes")) && json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
        a->wait_ns[k] = SEC(so, "network_wait_s");
    }
#undef U64
#undef SEC
}

static void print_split(json_t *j, FILE *f)
{
    json_t *sp = json_object_get(j, "split"), *per = json_object_get(sp, "per_rank");
    int split = (int)jnum(sp, "ranks_per_group");
    size_t n = json_array_size(per);
    if (!json_is_object(sp) || split < 1 || n == 0)
        return;
    mpi_split_rank_t *a = calloc(n, sizeof *a);
    if (!a)
        return;
    for (size_t i = 0; i < n; i++)
        split_from_json(&a[i], json_array_get(per, i));
    fprintf(f, "\nsplit units: groups of %d ranks, one unit at a time each; per rank, summed over its group's units "
               "(key, points, h bufs, mem pk: the largest of one unit; rank: the job's)\n", split);
    for (size_t g = 0; g * (size_t)split < n; g++) {
        size_t cnt = n - g * (size_t)split < (size_t)split ? n - g * (size_t)split : (size_t)split;
        fprintf(f, "group %zu (ranks %zu..%zu):\n", g, g * (size_t)split, g * (size_t)split + cnt - 1);
        mpi_split_print(a + g * (size_t)split, (int)cnt, f);
    }
    free(a);
}

void mpi_report_print_text(const mpi_report_t *r, FILE *f)
{
    json_t *j = r->j, *c = json_object_get(j, "campaign"), *run = json_object_get(j, "run");
    json_t *ranks = json_object_get(j, "ranks"), *stages = json_object_get(j, "stages");
    json_t *events = json_object_get(j, "events"), *tot = json_object_get(j, "totals");
    size_t nr = json_array_size(ranks);
    char a[32], b[32];
    fprintf(f, "cluster report: campaign %s, circuit %s, %zu rank%s\n", jstr(c, "name"), jstr(c, "circuit"), nr,
            nr == 1 ? "" : "s");
    fmt_num(a, sizeof a, jnum(run, "proofs_per_hour"), "%.0f");
    fmt_num(b, sizeof b, jnum(run, "load_imbalance"), "%.2f");
    fprintf(f, "  units %.0f: %.0f proved in this run, %.0f resumed; %.0f checked again by rank 0 (verify: %s)\n",
            jnum(c, "units"), jnum(run, "proved"), jnum(run, "resumed"), jnum(run, "verified_by_root"),
            jstr(c, "verify"));
    fprintf(f, "  wall %.2f s, %s proofs/hour, load imbalance %s (busy max/mean), units per rank %.0f..%.0f\n",
            jnum(run, "wall_s"), a, b, jnum(run, "units_per_rank_min"), jnum(run, "units_per_rank_max"));

    fprintf(f, "\nper rank:\n  %-4s %-12s %7s %3s %6s %8s %9s %9s %10s %9s %8s %5s\n", "rank", "host", "threads",
            "L3", "units", "busy_s", "proofs/h", "params", "alloc_peak", "rss_peak", "inflight", "depth");
    size_t i;
    json_t *rk;
    json_array_foreach(ranks, i, rk) {
        json_t *mem = json_object_get(rk, "memory");
        fmt_num(a, sizeof a, jnum(rk, "proofs_per_hour"), "%.0f");
        char th[24];
        snprintf(th, sizeof th, "%.0f+%.0f", jnum(rk, "threads"), jnum(rk, "prepare_threads"));
        fprintf(f, "  %-4.0f %-12s %7s %3.0f %6.0f %8.2f %9s %7.1fMi %8.1fMi %7.1fMi %4.0f/%-3.0f %5.0f\n",
                jnum(rk, "rank"), jstr(rk, "host"), th, jnum(rk, "l3_domains"), jnum(rk, "units"), jnum(rk, "busy_s"),
                a, mib(mem, "params_bytes"), mib(mem, "alloc_peak_bytes"), mib(mem, "rss_peak_bytes"),
                jnum(mem, "inflight_peak"), jnum(mem, "inflight_max"), jnum(rk, "pipeline_depth"));
    }

    bool any_prep = false; /* a split campaign has no prepare domains */
    json_array_foreach(ranks, i, rk)
        any_prep |= json_array_size(json_object_get(rk, "prepare")) > 0;
    if (any_prep)
        fprintf(f, "\nprepare domains (one unit at a time in each; units, wall s / cpu s of their prepares):\n");
    json_array_foreach(ranks, i, rk) {
        if (!any_prep)
            break;
        fprintf(f, "  rank %.0f (topology %s):", jnum(rk, "rank"), jstr(rk, "topology"));
        size_t di;
        json_t *pd;
        json_array_foreach(json_object_get(rk, "prepare"), di, pd)
            fprintf(f, "  L3 %.0f: %.0f thr, %.0f units, %.2f / %.2f", jnum(pd, "domain"), jnum(pd, "threads"),
                    jnum(pd, "units"), jnum(pd, "wall_s"), jnum(pd, "cpu_s"));
        fprintf(f, "\n");
    }

    bool any_gpu = false;
    json_array_foreach(ranks, i, rk)
        any_gpu |= json_array_size(json_object_get(rk, "gpus")) > 0;
    if (any_gpu) {
        fprintf(f, "\nper GPU (busy: inside device calls; fallbacks: units proved again on the CPU):\n"
                   "  %-4s %-28s %6s %8s %8s %8s %10s %9s %8s\n",
                "rank", "device", "units", "busy_s", "msm_s", "ntt_s", "mem_peak", "fallbacks", "failures");
        json_array_foreach(ranks, i, rk) {
            size_t gi;
            json_t *g;
            json_array_foreach(json_object_get(rk, "gpus"), gi, g)
                fprintf(f, "  %-4.0f %-28.28s %6.0f %8.2f %8.2f %8.2f %8.1fMi %9.0f %8.0f%s\n", jnum(rk, "rank"),
                        jstr(g, "device"), jnum(g, "units"), jnum(g, "busy_s"), jnum(g, "msm_s"), jnum(g, "ntt_s"),
                        mib(g, "mem_peak_bytes"), jnum(g, "fallbacks"), jnum(g, "failures"),
                        json_is_true(json_object_get(g, "retired")) ? " retired" : "");
        }
    }

    fprintf(f, "\nper stage, wall s / cpu s (cpu: every thread of the stage's pool; abc and ntt on the prepare "
               "pool overlap msm and verify on the MSM pool; prove = abc + ntt + msm + verify):\n  %-8s", "stage");
    json_array_foreach(ranks, i, rk) {
        char h[24];
        snprintf(h, sizeof h, "rank %.0f", jnum(rk, "rank"));
        fprintf(f, " %17s", h);
    }
    fprintf(f, " %17s\n", "cluster");
    size_t si;
    json_t *sn;
    json_array_foreach(stages, si, sn) {
        const char *name = json_string_value(sn);
        fprintf(f, "  %-8s", name);
        for (size_t k = 0; k <= nr; k++) {
            json_t *so = k < nr ? json_object_get(json_object_get(json_array_get(ranks, k), "stages"), name)
                                : json_object_get(json_object_get(tot, "stages"), name);
            char cell[72];
            fmt_num(a, sizeof a, jnum(so, "wall_s"), "%.3f");
            fmt_num(b, sizeof b, jnum(so, "cpu_s"), "%.3f");
            snprintf(cell, sizeof cell, "%s / %s", a, b);
            fprintf(f, " %17s", cell);
        }
        fprintf(f, "\n");
    }

    static const char *const cstages[] = {"witness", "prove"};
    for (int cs = 0; cs < 2; cs++) {
        fprintf(f, "\ncounters, stage %s (n/a: not available on this machine; model %s):\n  %-36s", cstages[cs],
                jstr(j, "counter_model"), "event");
        json_array_foreach(ranks, i, rk) {
            char h[24];
            snprintf(h, sizeof h, "rank %.0f", jnum(rk, "rank"));
            fprintf(f, " %10s", h);
        }
        fprintf(f, " %10s\n", "cluster");
        size_t ei;
        json_t *en;
        json_array_foreach(events, ei, en) {
            const char *ev = json_string_value(en);
            fprintf(f, "  %-36s", ev);
            for (size_t k = 0; k <= nr; k++) {
                json_t *cc = k < nr ? json_object_get(json_object_get(json_array_get(ranks, k), "counters"), cstages[cs])
                                    : json_object_get(json_object_get(tot, "counters"), cstages[cs]);
                fmt_big(a, sizeof a, jnum(cc, ev));
                fprintf(f, " %10s", a);
            }
            fprintf(f, "\n");
        }
        static const char *const dn[] = {"ipc", "l1d_miss_pki", "dtlb_miss_pki"};
        for (int d = 0; d < 3; d++) {
            fprintf(f, "  %-36s", dn[d]);
            json_array_foreach(ranks, i, rk) {
                fmt_num(a, sizeof a, jnum(json_object_get(json_object_get(rk, "derived"), cstages[cs]), dn[d]), "%.2f");
                fprintf(f, " %10s", a);
            }
            fprintf(f, "\n");
        }
    }

    print_split(j, f);

    fprintf(f, "\nper L3 domain, stage prove:\n");
    json_array_foreach(ranks, i, rk) {
        size_t di;
        json_t *dj;
        json_array_foreach(json_object_get(rk, "domains"), di, dj) {
            json_t *cc = json_object_get(json_object_get(dj, "counters"), "prove");
            fprintf(f, "  rank %.0f domain %.0f (cpus %s):", jnum(rk, "rank"), jnum(dj, "domain"), jstr(dj, "cpus"));
            size_t ei;
            json_t *en;
            json_array_foreach(events, ei, en) {
                fmt_big(a, sizeof a, jnum(cc, json_string_value(en)));
                fprintf(f, " %s=%s", json_string_value(en), a);
            }
            fmt_num(a, sizeof a, jnum(json_object_get(json_object_get(dj, "derived"), "prove"), "ipc"), "%.2f");
            fprintf(f, " ipc=%s\n", a);
        }
    }
}

/* CSV: one row per rank and stage, then the cluster ("all"). Counter columns
 * are filled on the witness and prove rows (the counter stages); empty
 * cells elsewhere, NA where the event is not available. */
static void csv_write(json_t *j, FILE *f)
{
    json_t *ranks = json_object_get(j, "ranks"), *stages = json_object_get(j, "stages");
    json_t *events = json_object_get(j, "events"), *tot = json_object_get(j, "totals");
    size_t nr = json_array_size(ranks), si, ei;
    json_t *sn, *en;
    fprintf(f, "rank,host,stage,wall_s,cpu_s,units,proofs_per_hour");
    json_array_foreach(events, ei, en)
        fprintf(f, ",%s", json_string_value(en));
    fprintf(f, "\n");
    for (size_t k = 0; k <= nr; k++) {
        json_t *rk = k < nr ? json_array_get(ranks, k) : NULL;
        json_t *st = rk ? json_object_get(rk, "stages") : json_object_get(tot, "stages");
        json_t *ctr = rk ? json_object_get(rk, "counters") : json_object_get(tot, "counters");
        json_array_foreach(stages, si, sn) {
            const char *name = json_string_value(sn);
            json_t *so = json_object_get(st, name);
            char rank[16], a[32], b[32], u[32], p[32];
            if (rk)
                snprintf(rank, sizeof rank, "%.0f", jnum(rk, "rank"));
            else
                snprintf(rank, sizeof rank, "all");
            fmt_num(a, sizeof a, jnum(so, "wall_s"), "%.6f");
            fmt_num(b, sizeof b, jnum(so, "cpu_s"), "%.6f");
            if (!strcmp(b, "n/a"))
                snprintf(b, sizeof b, "NA");
            if (rk) {
                snprintf(u, sizeof u, "%.0f", jnum(rk, "units"));
                fmt_num(p, sizeof p, jnum(rk, "proofs_per_hour"), "%.1f");
            } else {
                json_t *run = json_object_get(j, "run");
                snprintf(u, sizeof u, "%.0f", jnum(run, "proved"));
                fmt_num(p, sizeof p, jnum(run, "proofs_per_hour"), "%.1f");
            }
            if (!strcmp(p, "n/a"))
                snprintf(p, sizeof p, "NA");
            fprintf(f, "%s,%s,%s,%s,%s,%s,%s", rank, rk ? jstr(rk, "host") : "", name, a, b, u, p);
            json_t *cc = json_object_get(ctr, name);
            json_array_foreach(events, ei, en) {
                if (!cc)
                    fprintf(f, ",");
                else {
                    double v = jnum(cc, json_string_value(en));
                    if (isnan(v))
                        fprintf(f, ",NA");
                    else
                        fprintf(f, ",%.0f", v);
                }
            }
            fprintf(f, "\n");
        }
    }
}

void mpi_report_print_csv(const mpi_report_t *r, FILE *f) { csv_write(r->j, f); }

int mpi_report_save_csv(const mpi_report_t *r, const char *path, err_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    csv_write(r->j, f);
    fclose(f);
    int rc = gm_file_write(path, buf, len, err);
    free(buf);
    return rc;
}
