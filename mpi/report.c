/*
 * mpi/report.c — the cluster report: built on rank 0 from every rank's
 * metrics into the typed summary of mpi/mpi.h (mpi_report_t), written from
 * it as report.json (stable keys, docs/report.md) and read back into it,
 * and printed from it as text tables or CSV. `grothmpi report FILE` reads
 * report.json back and prints it the same way, so a saved report and a
 * live one look identical; studies and `grothmpi report compare` read it
 * through mpi_report_load too, so this file is the format's one owner.
 *
 * DESIGN
 *  - One source of truth: mpi_report_t. The JSON writer and reader map its
 *    fields to keys one for one; the printers read only its fields, never
 *    the metrics structs or the JSON tree.
 *  - Numbers that could not be measured are NAN in the summary, JSON null,
 *    and print as "n/a": hardware counters without a PMU, CPU time of the
 *    stages that run inside groth16_prove (abc, ntt, msm, verify: only their
 *    sum, "prove", has a CPU time, from the task-clock of the prover pool).
 *  - Each rank keeps the event names it counted (the keys of its counters),
 *    so a rank whose set differs from rank 0's is written back as it came;
 *    the tables look its values up by rank 0's names.
 *  - Runs on rank 0's main thread after the roles ended; nothing shared.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"

/* Not <math.h>: it defines FP_ZERO_ELEM, a name ff/ff.h declares. */
#define NAN (__builtin_nan(""))
#define isnan(x) __builtin_isnan(x)
#define fabs(x) __builtin_fabs(x)

const char *const mpi_stage_names[MPI_NSTAGES] = {"witness", "abc", "ntt", "msm", "verify", "prove", "io", "wait"};
const char *const mpi_cstage_names[MPI_NCSTAGES] = {"witness", "prove"};
const char *const mpi_event_names[MPI_NEVENTS] = {
    "instructions",
    "cycles",
    "branches",
    "branch-misses",
    "L1-dcache-load-misses",
    "dTLB-load-misses",
    "ls_dmnd_fills_from_sys.local_l2",
    "ls_dmnd_fills_from_sys.local_ccx",
    "ls_dmnd_fills_from_sys.remote_cache",
    "ls_dmnd_fills_from_sys.dram_io_all",
};

/* The index of the event named name in ev, or -1. */
static int ev_index(const mpi_report_events_t *ev, const char *name)
{
    for (unsigned i = 0; i < ev->n; i++)
        if (!strcmp(ev->name[i], name))
            return (int)i;
    return -1;
}

static double ev_value(const mpi_report_events_t *ev, const double *v, const char *name)
{
    int i = ev_index(ev, name);
    return i < 0 ? NAN : v[i];
}

double mpi_report_event(const mpi_report_t *r, mpi_cstage_t cs, mpi_event_t e)
{
    return ev_value(&r->events, r->totals.counters[cs], mpi_event_names[e]);
}

/* ---- building the report from the ranks' metrics ------------------------------------ */

static void derive(mpi_report_derived_t *d, const mpi_report_events_t *ev, const double *v)
{
    double ins = ev_value(ev, v, mpi_event_names[MPI_EVENT_INSTRUCTIONS]);
    double cyc = ev_value(ev, v, mpi_event_names[MPI_EVENT_CYCLES]);
    double l1 = ev_value(ev, v, mpi_event_names[MPI_EVENT_L1D_MISSES]);
    double tlb = ev_value(ev, v, mpi_event_names[MPI_EVENT_DTLB_MISSES]);
    d->ipc = !isnan(ins) && !isnan(cyc) && cyc > 0 ? ins / cyc : NAN;
    d->l1d_miss_pki = !isnan(ins) && !isnan(l1) && ins > 0 ? l1 * 1000.0 / ins : NAN;
    d->dtlb_miss_pki = !isnan(ins) && !isnan(tlb) && ins > 0 ? tlb * 1000.0 / ins : NAN;
}

/* A rank's counter values by its events: NAN where the event is not available. */
static void counted(double *out, const mr_metrics_t *m, const double *ev)
{
    for (int i = 0; i < m->nev && i < MR_MAX_EVENTS; i++)
        out[i] = m->ev_avail[i] ? ev[i] : NAN;
}

static void events_of(mpi_report_events_t *ev, const mr_metrics_t *m)
{
    ev->n = 0;
    for (int i = 0; i < m->nev && i < MR_MAX_EVENTS; i++)
        snprintf(ev->name[ev->n++], MPI_REPORT_EV_NAME, "%s", m->ev_name[i]);
}

static void rank_build(mpi_report_rank_t *o, const mr_metrics_t *m, int rk)
{
    o->rank = rk;
    snprintf(o->host, sizeof o->host, "%s", m->host);
    o->threads = (uint32_t)m->threads;
    o->l3_domains = (uint32_t)m->ndomains;
    o->prepare_threads = (uint32_t)m->prep_threads;
    o->prepare_domains = (uint32_t)m->prep_domains;
    o->domains_wanted = (uint32_t)m->domains_wanted;
    snprintf(o->topology, sizeof o->topology, "%s", m->topology);
    o->pipeline_depth = m->depth;
    o->pipeline_depth_wanted = m->depth_wanted;
    o->units = m->units;
    o->busy_s = (double)m->busy_ns * 1e-9;
    o->run_s = (double)m->run_ns * 1e-9;
    o->proofs_per_hour = o->busy_s > 0 ? (double)m->units / o->busy_s * 3600.0 : NAN;
    o->load_s = (double)m->load_ns * 1e-9;
    o->resident = m->resident != 0;
    o->memory = (mpi_report_memory_t){.budget_bytes = m->mem_budget,
                                      .params_bytes = m->params_bytes,
                                      .prover_bytes = m->prover_bytes,
                                      .witness_bytes = m->witness_bytes,
                                      .unit_bytes = m->unit_bytes,
                                      .inflight_max = m->inflight_max,
                                      .inflight_peak = m->inflight_peak,
                                      .alloc_peak_bytes = m->alloc_peak,
                                      .rss_peak_bytes = m->rss_peak,
                                      .params_streamed_bytes = m->params_streamed,
                                      .params_read_bytes = m->params_read};
    for (int s = 0; s < MR_NSTAGES; s++) {
        o->stages[s].wall_s = (double)m->wall_ns[s] * 1e-9;
        o->stages[s].cpu_s = m->cpu_known[s] ? (double)m->cpu_ns[s] * 1e-9 : NAN;
    }
    events_of(&o->events, m);
    for (int cs = 0; cs < MR_NCS; cs++) {
        counted(o->counters[cs], m, m->ev[cs]);
        derive(&o->derived[cs], &o->events, o->counters[cs]);
    }
    o->ndomains = 0;
    for (int d = 0; d < m->ndom_counted && d < MR_MAX_DOMAINS; d++) {
        mpi_report_domain_t *dj = &o->domains[o->ndomains++];
        dj->domain = (uint32_t)d;
        snprintf(dj->cpus, sizeof dj->cpus, "%s", m->dom_cpus[d]);
        counted(dj->counters, m, m->ev_dom[d]);
        derive(&dj->derived, &o->events, dj->counters);
    }
    o->nprepare = 0;
    for (int d = 0; d < m->prep_domains && d < MR_MAX_DOMAINS; d++)
        o->prepare[o->nprepare++] = (mpi_report_prepare_t){.domain = (uint32_t)d,
                                                           .threads = (uint32_t)m->dom_prep_threads[d],
                                                           .units = m->dom_prep_units[d],
                                                           .wall_s = (double)m->dom_prep_wall_ns[d] * 1e-9,
                                                           .cpu_s = (double)m->dom_prep_cpu_ns[d] * 1e-9};
    snprintf(o->backend, sizeof o->backend, "%s", m->backend);
    o->ngpus = 0;
    for (int g = 0; g < m->ngpu && g < MR_MAX_GPUS; g++) {
        const mr_gpu_row_t *gr = &m->gpu[g];
        mpi_report_gpu_t *go = &o->gpus[o->ngpus++];
        snprintf(go->device, sizeof go->device, "%s", gr->name);
        go->units = gr->units;
        go->busy_s = (double)gr->busy_ns * 1e-9;
        go->msm_s = (double)gr->msm_ns * 1e-9;
        go->ntt_s = (double)gr->ntt_ns * 1e-9;
        go->mem_peak_bytes = gr->mem_peak;
        go->fallbacks = gr->fallbacks;
        go->failures = gr->failures;
        go->retired = gr->retired != 0;
    }
}

int mr_report_build(mpi_report_t **out, const jobs_campaign_t *c, const mr_metrics_t *all, int size, size_t total,
                    size_t proved, size_t resumed, size_t root_verified, double wall_s, err_t *err)
{
    *out = NULL;
    mpi_report_t *r = calloc(1, sizeof *r);
    mpi_report_rank_t *ranks = size > 0 ? calloc((size_t)size, sizeof *ranks) : NULL;
    if (!r || (size > 0 && !ranks)) {
        free(r);
        free(ranks);
        return gm_err_set(err, GM_ENOMEM, "report: out of memory");
    }
    snprintf(r->campaign.name, sizeof r->campaign.name, "%s", c->name);
    snprintf(r->campaign.file, sizeof r->campaign.file, "%s", c->file);
    snprintf(r->campaign.circuit, sizeof r->campaign.circuit, "%s", c->circuit.id);
    r->campaign.sectors = c->nsectors;
    r->campaign.partitions = c->partitions;
    r->campaign.units = total;
    r->campaign.batch_size = c->batch_size;
    snprintf(r->campaign.verify, sizeof r->campaign.verify, "%s",
             c->verify == JOBS_VERIFY_ROOT ? "root" : c->verify == JOBS_VERIFY_BOTH ? "both" : "rank");
    snprintf(r->campaign.output, sizeof r->campaign.output, "%s", c->output);

    const mr_metrics_t *m0 = &all[0];
    events_of(&r->events, m0);
    snprintf(r->counter_model, sizeof r->counter_model, "%s", m0->model[0] ? m0->model : "none");

    r->nranks = (unsigned)size;
    r->ranks = ranks;
    double busy_max = 0, busy_sum = 0;
    uint64_t gpu_fallbacks = 0;
    uint64_t units_min = UINT64_MAX, units_max = 0, alloc_max = 0, rss_max = 0;
    bool tc_known[MR_NSTAGES];
    for (int s = 0; s < MR_NSTAGES; s++)
        tc_known[s] = true;
    /* Summed by position, as every rank of a homogeneous cluster counts the
     * same set; printed under rank 0's names. */
    double tev[MR_NCS][MR_MAX_EVENTS] = {{0}};
    for (int rk = 0; rk < size; rk++) {
        const mr_metrics_t *m = &all[rk];
        mpi_report_rank_t *o = &ranks[rk];
        rank_build(o, m, rk);
        for (int s = 0; s < MR_NSTAGES; s++) {
            r->totals.stages[s].wall_s += o->stages[s].wall_s;
            if (m->cpu_known[s])
                r->totals.stages[s].cpu_s += o->stages[s].cpu_s;
            else
                tc_known[s] = false;
        }
        for (int cs = 0; cs < MR_NCS; cs++)
            for (int i = 0; i < m->nev && i < MR_MAX_EVENTS; i++)
                tev[cs][i] += (!m->ev_avail[i] || isnan(m->ev[cs][i])) ? NAN : m->ev[cs][i];
        for (unsigned g = 0; g < o->ngpus; g++)
            gpu_fallbacks += o->gpus[g].fallbacks;
        busy_sum += o->busy_s;
        if (o->busy_s > busy_max)
            busy_max = o->busy_s;
        if (m->units < units_min)
            units_min = m->units;
        if (m->units > units_max)
            units_max = m->units;
        if (m->alloc_peak > alloc_max)
            alloc_max = m->alloc_peak;
        if (m->rss_peak > rss_max)
            rss_max = m->rss_peak;
    }

    r->run.ranks = size;
    r->run.wall_s = wall_s;
    r->run.proved = proved;
    r->run.resumed = resumed;
    r->run.verified_by_root = root_verified;
    r->run.gpu_fallbacks = gpu_fallbacks;
    r->run.proofs_per_hour = wall_s > 0 && proved ? (double)proved / wall_s * 3600.0 : NAN;
    double mean = size ? busy_sum / size : 0;
    r->run.load_imbalance = mean > 0 ? busy_max / mean : NAN;
    r->run.units_per_rank_min = size ? units_min : 0;
    r->run.units_per_rank_max = units_max;

    for (int s = 0; s < MR_NSTAGES; s++)
        if (!tc_known[s])
            r->totals.stages[s].cpu_s = NAN;
    for (int cs = 0; cs < MR_NCS; cs++)
        counted(r->totals.counters[cs], m0, tev[cs]);
    r->totals.busy_s_max = busy_max;
    r->totals.busy_s_mean = mean;
    r->totals.alloc_peak_bytes_max = alloc_max;
    r->totals.rss_peak_bytes_max = rss_max;
    *out = r;
    return 0;
}

int mr_report_add_split(mpi_report_t *r, const mpi_split_rank_t *acc, int size, int split, err_t *err)
{
    mpi_split_rank_t *a = size > 0 ? malloc((size_t)size * sizeof *a) : NULL;
    if (size > 0 && !a)
        return gm_err_set(err, GM_ENOMEM, "report: out of memory");
    for (int i = 0; i < size; i++) {
        a[i] = acc[i];
        a[i].rank = i;
    }
    free(r->split);
    r->split = a;
    r->nsplit = (unsigned)size;
    r->split_ranks_per_group = split;
    r->split_groups = split > 0 ? size / split : 0;
    return 0;
}

void mpi_report_free(mpi_report_t *r)
{
    if (!r)
        return;
    free(r->ranks);
    free(r->split);
    free(r);
}

/* ---- report.json: writing ------------------------------------------------------------ */

static const char *const split_ns_keys[] = {"load_s", "abc_s", "h_s", "msm_s", "total_s"};
#define SPLIT_NS 5

static uint64_t *split_ns(mpi_split_rank_t *a, int i)
{
    uint64_t *f[SPLIT_NS] = {&a->load_ns, &a->abc_ns, &a->h_ns, &a->msm_ns, &a->total_ns};
    return f[i];
}

static json_t *num_or_null(double v) { return isnan(v) ? json_null() : json_real(v); }

static json_t *u64_json(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *counters_json(const mpi_report_events_t *ev, const double *v)
{
    json_t *o = json_object();
    for (unsigned i = 0; i < ev->n; i++)
        json_object_set_new(o, ev->name[i], num_or_null(v[i]));
    return o;
}

static json_t *derived_json(const mpi_report_derived_t *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "ipc", num_or_null(d->ipc));
    json_object_set_new(o, "l1d_miss_pki", num_or_null(d->l1d_miss_pki));
    json_object_set_new(o, "dtlb_miss_pki", num_or_null(d->dtlb_miss_pki));
    return o;
}

static json_t *stages_json(const mpi_report_time_t *t)
{
    json_t *o = json_object();
    for (int s = 0; s < MPI_NSTAGES; s++) {
        json_t *so = json_object();
        json_object_set_new(so, "wall_s", num_or_null(t[s].wall_s));
        json_object_set_new(so, "cpu_s", num_or_null(t[s].cpu_s));
        json_object_set_new(o, mpi_stage_names[s], so);
    }
    return o;
}

static json_t *rank_json(const mpi_report_rank_t *rk)
{
    json_t *o = json_object();
    json_object_set_new(o, "rank", json_integer(rk->rank));
    json_object_set_new(o, "host", json_string(rk->host));
    json_object_set_new(o, "threads", json_integer(rk->threads));
    json_object_set_new(o, "l3_domains", json_integer(rk->l3_domains));
    json_object_set_new(o, "prepare_threads", json_integer(rk->prepare_threads));
    json_object_set_new(o, "prepare_domains", json_integer(rk->prepare_domains));
    json_object_set_new(o, "domains_wanted", json_integer(rk->domains_wanted));
    json_object_set_new(o, "topology", json_string(rk->topology));
    json_object_set_new(o, "pipeline_depth", json_integer(rk->pipeline_depth));
    json_object_set_new(o, "pipeline_depth_wanted", json_integer(rk->pipeline_depth_wanted));
    json_object_set_new(o, "units", u64_json(rk->units));
    json_object_set_new(o, "busy_s", num_or_null(rk->busy_s));
    json_object_set_new(o, "run_s", num_or_null(rk->run_s));
    json_object_set_new(o, "proofs_per_hour", num_or_null(rk->proofs_per_hour));
    json_object_set_new(o, "load_s", json_real(rk->load_s));
    json_object_set_new(o, "resident", json_boolean(rk->resident));
    const mpi_report_memory_t *m = &rk->memory;
    json_t *mem = json_object();
    json_object_set_new(mem, "budget_bytes", u64_json(m->budget_bytes));
    json_object_set_new(mem, "params_bytes", u64_json(m->params_bytes));
    json_object_set_new(mem, "prover_bytes", u64_json(m->prover_bytes));
    json_object_set_new(mem, "witness_bytes", u64_json(m->witness_bytes));
    json_object_set_new(mem, "unit_bytes", u64_json(m->unit_bytes));
    json_object_set_new(mem, "inflight_max", json_integer(m->inflight_max));
    json_object_set_new(mem, "inflight_peak", json_integer(m->inflight_peak));
    json_object_set_new(mem, "alloc_peak_bytes", u64_json(m->alloc_peak_bytes));
    json_object_set_new(mem, "rss_peak_bytes", u64_json(m->rss_peak_bytes));
    if (m->params_streamed_bytes) { /* only streamed runs have them: other reports keep their keys */
        json_object_set_new(mem, "params_streamed_bytes", u64_json(m->params_streamed_bytes));
        json_object_set_new(mem, "params_read_bytes", u64_json(m->params_read_bytes));
    }
    json_object_set_new(o, "memory", mem);
    json_object_set_new(o, "stages", stages_json(rk->stages));
    json_t *ctr = json_object(), *der = json_object();
    for (int cs = 0; cs < MPI_NCSTAGES; cs++) {
        json_object_set_new(ctr, mpi_cstage_names[cs], counters_json(&rk->events, rk->counters[cs]));
        json_object_set_new(der, mpi_cstage_names[cs], derived_json(&rk->derived[cs]));
    }
    json_object_set_new(o, "counters", ctr);
    json_object_set_new(o, "derived", der);
    json_t *doms = json_array();
    for (unsigned d = 0; d < rk->ndomains; d++) {
        const mpi_report_domain_t *dm = &rk->domains[d];
        json_t *dj = json_object(), *dc = json_object(), *dd = json_object();
        json_object_set_new(dj, "domain", json_integer(dm->domain));
        json_object_set_new(dj, "cpus", json_string(dm->cpus));
        json_object_set_new(dc, mpi_cstage_names[MPI_CSTAGE_PROVE], counters_json(&rk->events, dm->counters));
        json_object_set_new(dd, mpi_cstage_names[MPI_CSTAGE_PROVE], derived_json(&dm->derived));
        json_object_set_new(dj, "counters", dc);
        json_object_set_new(dj, "derived", dd);
        json_array_append_new(doms, dj);
    }
    json_object_set_new(o, "domains", doms);
    json_t *pds = json_array();
    for (unsigned d = 0; d < rk->nprepare; d++) {
        const mpi_report_prepare_t *pp = &rk->prepare[d];
        json_t *pd = json_object();
        json_object_set_new(pd, "domain", json_integer(pp->domain));
        json_object_set_new(pd, "threads", json_integer(pp->threads));
        json_object_set_new(pd, "units", u64_json(pp->units));
        json_object_set_new(pd, "wall_s", num_or_null(pp->wall_s));
        json_object_set_new(pd, "cpu_s", num_or_null(pp->cpu_s));
        json_array_append_new(pds, pd);
    }
    json_object_set_new(o, "prepare", pds);
    json_object_set_new(o, "backend", json_string(rk->backend));
    json_t *gps = json_array();
    for (unsigned g = 0; g < rk->ngpus; g++) {
        const mpi_report_gpu_t *gr = &rk->gpus[g];
        json_t *go = json_object();
        json_object_set_new(go, "device", json_string(gr->device));
        json_object_set_new(go, "units", u64_json(gr->units));
        json_object_set_new(go, "busy_s", num_or_null(gr->busy_s));
        json_object_set_new(go, "msm_s", num_or_null(gr->msm_s));
        json_object_set_new(go, "ntt_s", num_or_null(gr->ntt_s));
        json_object_set_new(go, "mem_peak_bytes", u64_json(gr->mem_peak_bytes));
        json_object_set_new(go, "fallbacks", u64_json(gr->fallbacks));
        json_object_set_new(go, "failures", u64_json(gr->failures));
        json_object_set_new(go, "retired", json_boolean(gr->retired));
        json_array_append_new(gps, go);
    }
    json_object_set_new(o, "gpus", gps);
    return o;
}

static json_t *split_json(const mpi_report_t *r)
{
    json_t *o = json_object(), *per = json_array();
    json_object_set_new(o, "ranks_per_group", json_integer(r->split_ranks_per_group));
    json_object_set_new(o, "groups", json_integer(r->split_groups));
    for (unsigned i = 0; i < r->nsplit; i++) {
        mpi_split_rank_t a = r->split[i];
        json_t *ro = json_object(), *st = json_object();
        json_object_set_new(ro, "rank", json_integer(a.rank));
        json_object_set_new(ro, "group", json_integer(r->split_ranks_per_group > 0 ? a.rank / r->split_ranks_per_group : 0));
        json_object_set_new(ro, "key_bytes", u64_json(a.key_bytes));
        json_object_set_new(ro, "points", u64_json(a.points));
        json_object_set_new(ro, "coefs_read", u64_json(a.coefs_read));
        json_object_set_new(ro, "h_bytes", u64_json(a.ntt_bytes));
        json_object_set_new(ro, "mem_peak_bytes", u64_json(a.mem_peak));
        json_object_set_new(ro, "rss_peak_bytes", u64_json(a.rss_peak));
        for (int k = 0; k < SPLIT_NS; k++)
            json_object_set_new(ro, split_ns_keys[k], json_real((double)*split_ns(&a, k) * 1e-9));
        for (int k = 0; k < MPI_SPLIT_NSTAGES; k++) {
            json_t *so = json_object();
            json_object_set_new(so, "sent_bytes", u64_json(a.sent[k]));
            json_object_set_new(so, "recv_bytes", u64_json(a.recv[k]));
            json_object_set_new(so, "network_wait_s", json_real((double)a.wait_ns[k] * 1e-9));
            json_object_set_new(st, mpi_split_stage_names[k], so);
        }
        json_object_set_new(ro, "stages", st);
        json_array_append_new(per, ro);
    }
    json_object_set_new(o, "per_rank", per);
    return o;
}

static json_t *report_json(const mpi_report_t *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "format", json_string(MPI_REPORT_FORMAT));
    json_object_set_new(j, "version", json_integer(MPI_REPORT_VERSION));
    json_t *cj = json_object();
    json_object_set_new(cj, "name", json_string(r->campaign.name));
    json_object_set_new(cj, "file", json_string(r->campaign.file));
    json_object_set_new(cj, "circuit", json_string(r->campaign.circuit));
    json_object_set_new(cj, "sectors", u64_json(r->campaign.sectors));
    json_object_set_new(cj, "partitions", json_integer(r->campaign.partitions));
    json_object_set_new(cj, "units", u64_json(r->campaign.units));
    json_object_set_new(cj, "batch_size", json_integer(r->campaign.batch_size));
    json_object_set_new(cj, "verify", json_string(r->campaign.verify));
    json_object_set_new(cj, "output", json_string(r->campaign.output));
    json_object_set_new(j, "campaign", cj);
    json_t *stages = json_array();
    for (int s = 0; s < MPI_NSTAGES; s++)
        json_array_append_new(stages, json_string(mpi_stage_names[s]));
    json_object_set_new(j, "stages", stages);
    json_t *events = json_array();
    for (unsigned i = 0; i < r->events.n; i++)
        json_array_append_new(events, json_string(r->events.name[i]));
    json_object_set_new(j, "events", events);
    json_object_set_new(j, "counter_model", json_string(r->counter_model));
    json_t *ranks = json_array();
    for (unsigned i = 0; i < r->nranks; i++)
        json_array_append_new(ranks, rank_json(&r->ranks[i]));
    json_object_set_new(j, "ranks", ranks);

    json_t *run = json_object();
    json_object_set_new(run, "ranks", json_integer(r->run.ranks));
    json_object_set_new(run, "wall_s", num_or_null(r->run.wall_s));
    json_object_set_new(run, "proved", u64_json(r->run.proved));
    json_object_set_new(run, "resumed", u64_json(r->run.resumed));
    json_object_set_new(run, "verified_by_root", u64_json(r->run.verified_by_root));
    json_object_set_new(run, "gpu_fallbacks", u64_json(r->run.gpu_fallbacks));
    json_object_set_new(run, "proofs_per_hour", num_or_null(r->run.proofs_per_hour));
    json_object_set_new(run, "load_imbalance", num_or_null(r->run.load_imbalance));
    json_object_set_new(run, "units_per_rank_min", u64_json(r->run.units_per_rank_min));
    json_object_set_new(run, "units_per_rank_max", u64_json(r->run.units_per_rank_max));
    json_object_set_new(j, "run", run);

    json_t *tot = json_object(), *tctr = json_object();
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        json_object_set_new(tctr, mpi_cstage_names[cs], counters_json(&r->events, r->totals.counters[cs]));
    json_object_set_new(tot, "stages", stages_json(r->totals.stages));
    json_object_set_new(tot, "counters", tctr);
    json_object_set_new(tot, "busy_s_max", num_or_null(r->totals.busy_s_max));
    json_object_set_new(tot, "busy_s_mean", num_or_null(r->totals.busy_s_mean));
    json_object_set_new(tot, "alloc_peak_bytes_max", u64_json(r->totals.alloc_peak_bytes_max));
    json_object_set_new(tot, "rss_peak_bytes_max", u64_json(r->totals.rss_peak_bytes_max));
    json_object_set_new(j, "totals", tot);
    if (r->split_ranks_per_group > 0)
        json_object_set_new(j, "split", split_json(r));
    return j;
}

int mpi_report_save(const mpi_report_t *r, const char *path, err_t *err)
{
    json_t *j = report_json(r);
    char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) : NULL;
    json_decref(j);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    size_t n = strlen(text);
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

/* ---- report.json: reading ------------------------------------------------------------
 * One pass over the tree with a sticky first error: each accessor names
 * the key it wanted under the path of the object it looked in ("ranks[1]
 * .memory"), so that a missing or mistyped key is reported exactly once and
 * the callers read on without checking each value. */

typedef struct {
    const char *file;
    char at[160]; /* the key path of the object being read, "" at the top */
    err_t *err;
    int rc;
} rd_t;

static void rd_fail(rd_t *c, const char *key, const char *what)
{
    if (!c->rc)
        c->rc = gm_err_set(c->err, GM_EFORMAT, "%s: %s%s%s: %s", c->file, c->at, c->at[0] && key[0] ? "." : "", key,
                           what);
}

/* Enters key path `fmt` below the current one; returns the length to leave it with rd_leave. */
static size_t rd_enter(rd_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t rd_enter(rd_t *c, const char *fmt, ...)
{
    size_t n = strlen(c->at);
    char part[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(part, sizeof part, fmt, ap);
    va_end(ap);
    snprintf(c->at + n, sizeof c->at - n, "%s%s", n && part[0] != '[' ? "." : "", part);
    return n;
}

static void rd_leave(rd_t *c, size_t n) { c->at[n] = 0; }

static json_t *rd_get(rd_t *c, json_t *o, const char *key)
{
    if (c->rc)
        return NULL;
    json_t *v = json_object_get(o, key);
    if (!v)
        rd_fail(c, key, "missing");
    return v;
}

static json_t *rd_obj(rd_t *c, json_t *o, const char *key)
{
    json_t *v = rd_get(c, o, key);
    if (v && !json_is_object(v))
        rd_fail(c, key, "not an object");
    return c->rc ? NULL : v;
}

static json_t *rd_arr(rd_t *c, json_t *o, const char *key, size_t max)
{
    json_t *v = rd_get(c, o, key);
    if (v && !json_is_array(v))
        rd_fail(c, key, "not an array");
    else if (v && json_array_size(v) > max) {
        char what[64];
        snprintf(what, sizeof what, "more than %zu entries", max);
        rd_fail(c, key, what);
    }
    return c->rc ? NULL : v;
}

static double rd_num(rd_t *c, json_t *o, const char *key)
{
    json_t *v = rd_get(c, o, key);
    if (v && !json_is_number(v))
        rd_fail(c, key, "not a number");
    return c->rc ? NAN : json_number_value(v);
}

/* A figure that may be null: NAN then. */
static double rd_num_or_null(rd_t *c, json_t *o, const char *key)
{
    json_t *v = rd_get(c, o, key);
    if (v && !json_is_number(v) && !json_is_null(v))
        rd_fail(c, key, "not a number or null");
    return c->rc || json_is_null(v) ? NAN : json_number_value(v);
}

static int64_t rd_int(rd_t *c, json_t *o, const char *key, int64_t lo, int64_t hi)
{
    json_t *v = rd_get(c, o, key);
    if (v && (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)) {
        char what[96];
        if (lo == 0 && hi == INT64_MAX)
            snprintf(what, sizeof what, "not a non-negative integer");
        else
            snprintf(what, sizeof what, "not an integer in %lld..%lld", (long long)lo, (long long)hi);
        rd_fail(c, key, what);
    }
    return c->rc ? 0 : (int64_t)json_integer_value(v);
}

static uint64_t rd_u64(rd_t *c, json_t *o, const char *key) { return (uint64_t)rd_int(c, o, key, 0, INT64_MAX); }
static uint32_t rd_u32(rd_t *c, json_t *o, const char *key) { return (uint32_t)rd_int(c, o, key, 0, UINT32_MAX); }
static int32_t rd_i32(rd_t *c, json_t *o, const char *key) { return (int32_t)rd_int(c, o, key, INT32_MIN, INT32_MAX); }

static void rd_str(rd_t *c, char *dst, size_t n, json_t *o, const char *key)
{
    json_t *v = rd_get(c, o, key);
    if (v && !json_is_string(v))
        rd_fail(c, key, "not a string");
    else if (v && json_string_length(v) >= n) {
        char what[64];
        snprintf(what, sizeof what, "longer than %zu characters", n - 1);
        rd_fail(c, key, what);
    }
    if (!c->rc)
        snprintf(dst, n, "%s", json_string_value(v));
}

/* Values of the events ev, one key each in the object o[key]. */
static void rd_counters(rd_t *c, double *v, json_t *o, const char *key, const mpi_report_events_t *ev)
{
    json_t *co = rd_obj(c, o, key);
    size_t at = rd_enter(c, "%s", key);
    for (unsigned i = 0; i < ev->n; i++)
        v[i] = rd_num_or_null(c, co, ev->name[i]);
    rd_leave(c, at);
}

static void rd_derived(rd_t *c, mpi_report_derived_t *d, json_t *o, const char *key)
{
    json_t *dj = rd_obj(c, o, key);
    size_t at = rd_enter(c, "%s", key);
    d->ipc = rd_num_or_null(c, dj, "ipc");
    d->l1d_miss_pki = rd_num_or_null(c, dj, "l1d_miss_pki");
    d->dtlb_miss_pki = rd_num_or_null(c, dj, "dtlb_miss_pki");
    rd_leave(c, at);
}

static void rd_stages(rd_t *c, mpi_report_time_t *t, json_t *o)
{
    json_t *st = rd_obj(c, o, "stages");
    size_t at = rd_enter(c, "stages");
    for (int s = 0; s < MPI_NSTAGES; s++) {
        json_t *so = rd_obj(c, st, mpi_stage_names[s]);
        size_t at2 = rd_enter(c, "%s", mpi_stage_names[s]);
        t[s].wall_s = rd_num(c, so, "wall_s");
        t[s].cpu_s = rd_num_or_null(c, so, "cpu_s");
        rd_leave(c, at2);
    }
    rd_leave(c, at);
}

/* A list of event names: an array of strings (events), or an object's keys (a rank's counters). */
static void rd_event_name(rd_t *c, mpi_report_events_t *ev, const char *name, const char *key)
{
    if (c->rc)
        return;
    if (ev->n >= MPI_REPORT_MAX_EVENTS) {
        char what[64];
        snprintf(what, sizeof what, "more than %d events", MPI_REPORT_MAX_EVENTS);
        rd_fail(c, key, what);
    } else if (strlen(name) >= MPI_REPORT_EV_NAME) {
        char what[96];
        snprintf(what, sizeof what, "event '%.40s...' longer than %d characters", name, MPI_REPORT_EV_NAME - 1);
        rd_fail(c, key, what);
    } else
        snprintf(ev->name[ev->n++], MPI_REPORT_EV_NAME, "%s", name);
}

static void rd_rank(rd_t *c, mpi_report_rank_t *o, json_t *rk)
{
    o->rank = rd_i32(c, rk, "rank");
    rd_str(c, o->host, sizeof o->host, rk, "host");
    o->threads = rd_u32(c, rk, "threads");
    o->l3_domains = rd_u32(c, rk, "l3_domains");
    o->prepare_threads = rd_u32(c, rk, "prepare_threads");
    o->prepare_domains = rd_u32(c, rk, "prepare_domains");
    o->domains_wanted = rd_u32(c, rk, "domains_wanted");
    rd_str(c, o->topology, sizeof o->topology, rk, "topology");
    o->pipeline_depth = rd_u32(c, rk, "pipeline_depth");
    o->pipeline_depth_wanted = rd_u32(c, rk, "pipeline_depth_wanted");
    o->units = rd_u64(c, rk, "units");
    o->busy_s = rd_num(c, rk, "busy_s");
    o->run_s = rd_num(c, rk, "run_s");
    o->proofs_per_hour = rd_num_or_null(c, rk, "proofs_per_hour");
    if (json_object_get(rk, "load_s")) { /* reports before the load time lack both */
        o->load_s = rd_num(c, rk, "load_s");
        json_t *v = rd_get(c, rk, "resident");
        if (v && !json_is_boolean(v))
            rd_fail(c, "resident", "not a boolean");
        o->resident = v && json_is_true(v);
    }
    json_t *mem = rd_obj(c, rk, "memory");
    size_t at = rd_enter(c, "memory");
    mpi_report_memory_t *m = &o->memory;
    m->budget_bytes = rd_u64(c, mem, "budget_bytes");
    m->params_bytes = rd_u64(c, mem, "params_bytes");
    m->prover_bytes = rd_u64(c, mem, "prover_bytes");
    m->witness_bytes = rd_u64(c, mem, "witness_bytes");
    m->unit_bytes = rd_u64(c, mem, "unit_bytes");
    m->inflight_max = rd_u32(c, mem, "inflight_max");
    m->inflight_peak = rd_u32(c, mem, "inflight_peak");
    m->alloc_peak_bytes = rd_u64(c, mem, "alloc_peak_bytes");
    m->rss_peak_bytes = rd_u64(c, mem, "rss_peak_bytes");
    if (json_object_get(mem, "params_streamed_bytes")) {
        m->params_streamed_bytes = rd_u64(c, mem, "params_streamed_bytes");
        m->params_read_bytes = rd_u64(c, mem, "params_read_bytes");
    }
    rd_leave(c, at);
    rd_stages(c, o->stages, rk);

    /* The rank's events are the keys of its witness counters, in order;
     * every other counters object of the rank has the same keys. */
    json_t *ctr = rd_obj(c, rk, "counters");
    at = rd_enter(c, "counters");
    json_t *cw = rd_obj(c, ctr, mpi_cstage_names[MPI_CSTAGE_WITNESS]);
    const char *name;
    json_t *v;
    o->events.n = 0;
    if (cw)
        json_object_foreach(cw, name, v)
            rd_event_name(c, &o->events, name, mpi_cstage_names[MPI_CSTAGE_WITNESS]);
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        rd_counters(c, o->counters[cs], ctr, mpi_cstage_names[cs], &o->events);
    rd_leave(c, at);
    json_t *der = rd_obj(c, rk, "derived");
    at = rd_enter(c, "derived");
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        rd_derived(c, &o->derived[cs], der, mpi_cstage_names[cs]);
    rd_leave(c, at);

    json_t *arr = rd_arr(c, rk, "domains", MPI_REPORT_MAX_DOMAINS);
    o->ndomains = 0;
    for (size_t i = 0; !c->rc && i < json_array_size(arr); i++) {
        json_t *dj = json_array_get(arr, i);
        mpi_report_domain_t *d = &o->domains[o->ndomains++];
        at = rd_enter(c, "domains[%zu]", i);
        if (!json_is_object(dj))
            rd_fail(c, "", "not an object");
        d->domain = rd_u32(c, dj, "domain");
        rd_str(c, d->cpus, sizeof d->cpus, dj, "cpus");
        json_t *dc = rd_obj(c, dj, "counters");
        size_t at2 = rd_enter(c, "counters");
        rd_counters(c, d->counters, dc, mpi_cstage_names[MPI_CSTAGE_PROVE], &o->events);
        rd_leave(c, at2);
        json_t *dd = rd_obj(c, dj, "derived");
        at2 = rd_enter(c, "derived");
        rd_derived(c, &d->derived, dd, mpi_cstage_names[MPI_CSTAGE_PROVE]);
        rd_leave(c, at2);
        rd_leave(c, at);
    }
    arr = rd_arr(c, rk, "prepare", MPI_REPORT_MAX_DOMAINS);
    o->nprepare = 0;
    for (size_t i = 0; !c->rc && i < json_array_size(arr); i++) {
        json_t *pj = json_array_get(arr, i);
        mpi_report_prepare_t *p = &o->prepare[o->nprepare++];
        at = rd_enter(c, "prepare[%zu]", i);
        p->domain = rd_u32(c, pj, "domain");
        p->threads = rd_u32(c, pj, "threads");
        p->units = rd_u64(c, pj, "units");
        p->wall_s = rd_num(c, pj, "wall_s");
        p->cpu_s = rd_num(c, pj, "cpu_s");
        rd_leave(c, at);
    }
    rd_str(c, o->backend, sizeof o->backend, rk, "backend");
    arr = rd_arr(c, rk, "gpus", MPI_REPORT_MAX_GPUS);
    o->ngpus = 0;
    for (size_t i = 0; !c->rc && i < json_array_size(arr); i++) {
        json_t *gj = json_array_get(arr, i);
        mpi_report_gpu_t *g = &o->gpus[o->ngpus++];
        at = rd_enter(c, "gpus[%zu]", i);
        rd_str(c, g->device, sizeof g->device, gj, "device");
        g->units = rd_u64(c, gj, "units");
        g->busy_s = rd_num(c, gj, "busy_s");
        g->msm_s = rd_num(c, gj, "msm_s");
        g->ntt_s = rd_num(c, gj, "ntt_s");
        g->mem_peak_bytes = rd_u64(c, gj, "mem_peak_bytes");
        g->fallbacks = rd_u64(c, gj, "fallbacks");
        g->failures = rd_u64(c, gj, "failures");
        json_t *b = rd_get(c, gj, "retired");
        if (b && !json_is_boolean(b))
            rd_fail(c, "retired", "not true or false");
        g->retired = json_is_true(b);
        rd_leave(c, at);
    }
}

/* Seconds back to the accounts' nanoseconds. */
static uint64_t rd_ns(rd_t *c, json_t *o, const char *key)
{
    double v = rd_num(c, o, key);
    if (!c->rc && !(v >= 0))
        rd_fail(c, key, "negative");
    return c->rc ? 0 : (uint64_t)(v * 1e9 + 0.5);
}

static void rd_split(rd_t *c, mpi_report_t *r, json_t *sp)
{
    size_t at = rd_enter(c, "split");
    r->split_ranks_per_group = (int32_t)rd_int(c, sp, "ranks_per_group", 1, INT32_MAX);
    r->split_groups = rd_i32(c, sp, "groups");
    json_t *per = rd_arr(c, sp, "per_rank", UINT32_MAX);
    size_t n = c->rc ? 0 : json_array_size(per);
    if (n) {
        r->split = calloc(n, sizeof *r->split);
        if (!r->split && !c->rc)
            c->rc = gm_err_set(c->err, GM_ENOMEM, "%s: out of memory", c->file);
    }
    for (size_t i = 0; !c->rc && i < n; i++) {
        json_t *ro = json_array_get(per, i);
        mpi_split_rank_t *a = &r->split[r->nsplit++];
        size_t at2 = rd_enter(c, "per_rank[%zu]", i);
        a->rank = rd_i32(c, ro, "rank");
        rd_i32(c, ro, "group"); /* rank / ranks_per_group: checked, not kept */
        a->key_bytes = rd_u64(c, ro, "key_bytes");
        a->points = rd_u64(c, ro, "points");
        /* coefs_read and the "coefs" stage came with the section-4 share:
         * a report written before them reads as 0 there */
        a->coefs_read = json_object_get(ro, "coefs_read") ? rd_u64(c, ro, "coefs_read") : 0;
        a->ntt_bytes = rd_u64(c, ro, "h_bytes");
        a->mem_peak = rd_u64(c, ro, "mem_peak_bytes");
        a->rss_peak = rd_u64(c, ro, "rss_peak_bytes");
        for (int k = 0; k < SPLIT_NS; k++)
            *split_ns(a, k) = rd_ns(c, ro, split_ns_keys[k]);
        json_t *st = rd_obj(c, ro, "stages");
        size_t at3 = rd_enter(c, "stages");
        for (int k = 0; k < MPI_SPLIT_NSTAGES; k++) {
            if (k == MPI_SPLIT_COEFS && st && !json_object_get(st, mpi_split_stage_names[k]))
                continue;
            json_t *so = rd_obj(c, st, mpi_split_stage_names[k]);
            size_t at4 = rd_enter(c, "%s", mpi_split_stage_names[k]);
            a->sent[k] = rd_u64(c, so, "sent_bytes");
            a->recv[k] = rd_u64(c, so, "recv_bytes");
            a->wait_ns[k] = rd_ns(c, so, "network_wait_s");
            rd_leave(c, at4);
        }
        rd_leave(c, at3);
        rd_leave(c, at2);
    }
    rd_leave(c, at);
}

static void rd_report(rd_t *c, mpi_report_t *r, json_t *j)
{
    json_t *cj = rd_obj(c, j, "campaign");
    size_t at = rd_enter(c, "campaign");
    rd_str(c, r->campaign.name, sizeof r->campaign.name, cj, "name");
    rd_str(c, r->campaign.file, sizeof r->campaign.file, cj, "file");
    rd_str(c, r->campaign.circuit, sizeof r->campaign.circuit, cj, "circuit");
    r->campaign.sectors = rd_u64(c, cj, "sectors");
    r->campaign.partitions = rd_u32(c, cj, "partitions");
    r->campaign.units = rd_u64(c, cj, "units");
    r->campaign.batch_size = rd_u32(c, cj, "batch_size");
    rd_str(c, r->campaign.verify, sizeof r->campaign.verify, cj, "verify");
    rd_str(c, r->campaign.output, sizeof r->campaign.output, cj, "output");
    rd_leave(c, at);

    /* Version 1's stages are the writer's, in its order. */
    json_t *st = rd_arr(c, j, "stages", MPI_NSTAGES);
    for (int s = 0; !c->rc && s < MPI_NSTAGES; s++) {
        json_t *v = json_array_get(st, (size_t)s);
        if (!json_is_string(v) || strcmp(json_string_value(v), mpi_stage_names[s])) {
            char key[32], what[64];
            snprintf(key, sizeof key, "stages[%d]", s);
            snprintf(what, sizeof what, "not \"%s\"", mpi_stage_names[s]);
            rd_fail(c, key, what);
        }
    }
    json_t *ev = rd_arr(c, j, "events", MPI_REPORT_MAX_EVENTS);
    for (size_t i = 0; !c->rc && i < json_array_size(ev); i++) {
        json_t *v = json_array_get(ev, i);
        char key[32];
        snprintf(key, sizeof key, "events[%zu]", i);
        if (!json_is_string(v))
            rd_fail(c, key, "not a string");
        else
            rd_event_name(c, &r->events, json_string_value(v), key);
    }
    rd_str(c, r->counter_model, sizeof r->counter_model, j, "counter_model");

    json_t *ranks = rd_arr(c, j, "ranks", INT32_MAX);
    size_t n = c->rc ? 0 : json_array_size(ranks);
    if (!c->rc && n == 0)
        rd_fail(c, "ranks", "empty");
    if (!c->rc && !(r->ranks = calloc(n, sizeof *r->ranks)))
        c->rc = gm_err_set(c->err, GM_ENOMEM, "%s: out of memory", c->file);
    for (size_t i = 0; !c->rc && i < n; i++) {
        json_t *rk = json_array_get(ranks, i);
        at = rd_enter(c, "ranks[%zu]", i);
        if (!json_is_object(rk))
            rd_fail(c, "", "not an object");
        rd_rank(c, &r->ranks[r->nranks++], rk);
        rd_leave(c, at);
    }

    json_t *run = rd_obj(c, j, "run");
    at = rd_enter(c, "run");
    r->run.ranks = rd_i32(c, run, "ranks");
    r->run.wall_s = rd_num(c, run, "wall_s");
    r->run.proved = rd_u64(c, run, "proved");
    r->run.resumed = rd_u64(c, run, "resumed");
    r->run.verified_by_root = rd_u64(c, run, "verified_by_root");
    r->run.gpu_fallbacks = rd_u64(c, run, "gpu_fallbacks");
    r->run.proofs_per_hour = rd_num_or_null(c, run, "proofs_per_hour");
    r->run.load_imbalance = rd_num_or_null(c, run, "load_imbalance");
    r->run.units_per_rank_min = rd_u64(c, run, "units_per_rank_min");
    r->run.units_per_rank_max = rd_u64(c, run, "units_per_rank_max");
    rd_leave(c, at);

    json_t *tot = rd_obj(c, j, "totals");
    at = rd_enter(c, "totals");
    rd_stages(c, r->totals.stages, tot);
    json_t *tctr = rd_obj(c, tot, "counters");
    size_t at2 = rd_enter(c, "counters");
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        rd_counters(c, r->totals.counters[cs], tctr, mpi_cstage_names[cs], &r->events);
    rd_leave(c, at2);
    r->totals.busy_s_max = rd_num(c, tot, "busy_s_max");
    r->totals.busy_s_mean = rd_num(c, tot, "busy_s_mean");
    r->totals.alloc_peak_bytes_max = rd_u64(c, tot, "alloc_peak_bytes_max");
    r->totals.rss_peak_bytes_max = rd_u64(c, tot, "rss_peak_bytes_max");
    rd_leave(c, at);

    /* only a split campaign's report has it */
    if (!c->rc && json_object_get(j, "split"))
        rd_split(c, r, rd_obj(c, j, "split"));
}

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
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), MPI_REPORT_FORMAT))
        bad = "format: not \"" MPI_REPORT_FORMAT "\"";
    else if (!json_is_integer(ver) || json_integer_value(ver) != MPI_REPORT_VERSION)
        bad = "version: not 1";
    if (bad) {
        json_decref(j);
        return gm_err_set(err, GM_EFORMAT, "%s: %s (is it a grothmpi report.json?)", path, bad);
    }
    rd_t c = {.file = path, .err = err};
    mpi_report_t *r = calloc(1, sizeof *r);
    if (!r)
        c.rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    else
        rd_report(&c, r, j);
    json_decref(j);
    if (c.rc) {
        mpi_report_free(r);
        return c.rc;
    }
    *out = r;
    return 0;
}

/* ---- printing ------------------------------------------------------------------------ */

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

static double mib(uint64_t v) { return (double)v / 1048576.0; }

/* The counter stage a stage's counters are kept under (the stage of the same name), or -1. */
static int cstage_of(int stage)
{
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        if (!strcmp(mpi_cstage_names[cs], mpi_stage_names[stage]))
            return cs;
    return -1;
}

static void print_split(const mpi_report_t *r, FILE *f)
{
    int split = r->split_ranks_per_group;
    size_t n = r->nsplit;
    if (split < 1 || n == 0)
        return;
    fprintf(f, "\nsplit units: groups of %d ranks, one unit at a time each; per rank, summed over its group's units "
               "(key, points, h bufs, mem pk: the largest of one unit; rank: the job's)\n", split);
    for (size_t g = 0; g * (size_t)split < n; g++) {
        size_t cnt = n - g * (size_t)split < (size_t)split ? n - g * (size_t)split : (size_t)split;
        fprintf(f, "group %zu (ranks %zu..%zu):\n", g, g * (size_t)split, g * (size_t)split + cnt - 1);
        mpi_split_print(r->split + g * (size_t)split, (int)cnt, f);
    }
}

void mpi_report_print_text(const mpi_report_t *r, FILE *f)
{
    size_t nr = r->nranks;
    char a[32], b[32];
    fprintf(f, "cluster report: campaign %s, circuit %s, %zu rank%s\n", r->campaign.name, r->campaign.circuit, nr,
            nr == 1 ? "" : "s");
    fmt_num(a, sizeof a, r->run.proofs_per_hour, "%.0f");
    fmt_num(b, sizeof b, r->run.load_imbalance, "%.2f");
    fprintf(f, "  units %" PRIu64 ": %" PRIu64 " proved in this run, %" PRIu64 " resumed; %" PRIu64
               " checked again by rank 0 (verify: %s)\n",
            r->campaign.units, r->run.proved, r->run.resumed, r->run.verified_by_root, r->campaign.verify);
    fprintf(f, "  wall %.2f s, %s proofs/hour, load imbalance %s (busy max/mean), units per rank %" PRIu64 "..%" PRIu64
               "\n",
            r->run.wall_s, a, b, r->run.units_per_rank_min, r->run.units_per_rank_max);

    fprintf(f, "\nper rank:\n  %-4s %-12s %7s %3s %6s %8s %9s %9s %10s %9s %8s %5s\n", "rank", "host", "threads",
            "L3", "units", "busy_s", "proofs/h", "params", "alloc_peak", "rss_peak", "inflight", "depth");
    for (size_t i = 0; i < nr; i++) {
        const mpi_report_rank_t *rk = &r->ranks[i];
        const mpi_report_memory_t *mem = &rk->memory;
        fmt_num(a, sizeof a, rk->proofs_per_hour, "%.0f");
        char th[24];
        snprintf(th, sizeof th, "%u+%u", rk->threads, rk->prepare_threads);
        fprintf(f, "  %-4d %-12s %7s %3u %6" PRIu64 " %8.2f %9s %7.1fMi %8.1fMi %7.1fMi %4u/%-3u %5u\n", rk->rank,
                rk->host, th, rk->l3_domains, rk->units, rk->busy_s, a, mib(mem->params_bytes),
                mib(mem->alloc_peak_bytes), mib(mem->rss_peak_bytes), mem->inflight_peak, mem->inflight_max,
                rk->pipeline_depth);
    }
    for (size_t i = 0; i < nr; i++) {
        const mpi_report_memory_t *mem = &r->ranks[i].memory;
        if (mem->params_streamed_bytes)
            fprintf(f, "  rank %d: parameters streamed: the MSMs used %.2f GiB of points and read %.2f GiB from "
                       "storage (%.2f x)\n", r->ranks[i].rank, (double)mem->params_streamed_bytes / (1ULL << 30),
                    (double)mem->params_read_bytes / (1ULL << 30),
                    (double)mem->params_read_bytes / (double)mem->params_streamed_bytes);
    }

    bool any_prep = false; /* a split campaign has no prepare domains */
    for (size_t i = 0; i < nr; i++)
        any_prep |= r->ranks[i].nprepare > 0;
    if (any_prep) {
        fprintf(f, "\nprepare domains (one unit at a time in each; units, wall s / cpu s of their prepares):\n");
        for (size_t i = 0; i < nr; i++) {
            const mpi_report_rank_t *rk = &r->ranks[i];
            fprintf(f, "  rank %d (topology %s):", rk->rank, rk->topology);
            for (unsigned d = 0; d < rk->nprepare; d++) {
                const mpi_report_prepare_t *pd = &rk->prepare[d];
                fprintf(f, "  L3 %u: %u thr, %" PRIu64 " units, %.2f / %.2f", pd->domain, pd->threads, pd->units,
                        pd->wall_s, pd->cpu_s);
            }
            fprintf(f, "\n");
        }
    }

    bool any_gpu = false;
    for (size_t i = 0; i < nr; i++)
        any_gpu |= r->ranks[i].ngpus > 0;
    if (any_gpu) {
        fprintf(f, "\nper GPU (busy: inside device calls; fallbacks: units proved again on the CPU):\n"
                   "  %-4s %-28s %6s %8s %8s %8s %10s %9s %8s\n",
                "rank", "device", "units", "busy_s", "msm_s", "ntt_s", "mem_peak", "fallbacks", "failures");
        for (size_t i = 0; i < nr; i++) {
            const mpi_report_rank_t *rk = &r->ranks[i];
            for (unsigned gi = 0; gi < rk->ngpus; gi++) {
                const mpi_report_gpu_t *g = &rk->gpus[gi];
                fprintf(f, "  %-4d %-28.28s %6" PRIu64 " %8.2f %8.2f %8.2f %8.1fMi %9" PRIu64 " %8" PRIu64 "%s\n",
                        rk->rank, g->device, g->units, g->busy_s, g->msm_s, g->ntt_s, mib(g->mem_peak_bytes),
                        g->fallbacks, g->failures, g->retired ? " retired" : "");
            }
        }
    }

    fprintf(f, "\nper stage, wall s / cpu s (cpu: every thread of the stage's pool; abc and ntt on the prepare "
               "pool overlap msm and verify on the MSM pool; prove = abc + ntt + msm + verify):\n  %-8s", "stage");
    for (size_t i = 0; i < nr; i++) {
        char h[24];
        snprintf(h, sizeof h, "rank %d", r->ranks[i].rank);
        fprintf(f, " %17s", h);
    }
    fprintf(f, " %17s\n", "cluster");
    for (int s = 0; s < MPI_NSTAGES; s++) {
        fprintf(f, "  %-8s", mpi_stage_names[s]);
        for (size_t k = 0; k <= nr; k++) {
            const mpi_report_time_t *t = k < nr ? &r->ranks[k].stages[s] : &r->totals.stages[s];
            char cell[72];
            fmt_num(a, sizeof a, t->wall_s, "%.3f");
            fmt_num(b, sizeof b, t->cpu_s, "%.3f");
            snprintf(cell, sizeof cell, "%s / %s", a, b);
            fprintf(f, " %17s", cell);
        }
        fprintf(f, "\n");
    }

    for (int cs = 0; cs < MPI_NCSTAGES; cs++) {
        fprintf(f, "\ncounters, stage %s (n/a: not available on this machine; model %s):\n  %-36s",
                mpi_cstage_names[cs], r->counter_model, "event");
        for (size_t i = 0; i < nr; i++) {
            char h[24];
            snprintf(h, sizeof h, "rank %d", r->ranks[i].rank);
            fprintf(f, " %10s", h);
        }
        fprintf(f, " %10s\n", "cluster");
        for (unsigned e = 0; e < r->events.n; e++) {
            const char *ev = r->events.name[e];
            fprintf(f, "  %-36s", ev);
            for (size_t k = 0; k <= nr; k++) {
                fmt_big(a, sizeof a,
                        k < nr ? ev_value(&r->ranks[k].events, r->ranks[k].counters[cs], ev) : r->totals.counters[cs][e]);
                fprintf(f, " %10s", a);
            }
            fprintf(f, "\n");
        }
        static const char *const dn[] = {"ipc", "l1d_miss_pki", "dtlb_miss_pki"};
        for (int d = 0; d < 3; d++) {
            fprintf(f, "  %-36s", dn[d]);
            for (size_t i = 0; i < nr; i++) {
                const mpi_report_derived_t *dv = &r->ranks[i].derived[cs];
                fmt_num(a, sizeof a, d == 0 ? dv->ipc : d == 1 ? dv->l1d_miss_pki : dv->dtlb_miss_pki, "%.2f");
                fprintf(f, " %10s", a);
            }
            fprintf(f, "\n");
        }
    }

    print_split(r, f);

    fprintf(f, "\nper L3 domain, stage prove:\n");
    for (size_t i = 0; i < nr; i++) {
        const mpi_report_rank_t *rk = &r->ranks[i];
        for (unsigned d = 0; d < rk->ndomains; d++) {
            const mpi_report_domain_t *dm = &rk->domains[d];
            fprintf(f, "  rank %d domain %u (cpus %s):", rk->rank, dm->domain, dm->cpus);
            for (unsigned e = 0; e < r->events.n; e++) {
                fmt_big(a, sizeof a, ev_value(&rk->events, dm->counters, r->events.name[e]));
                fprintf(f, " %s=%s", r->events.name[e], a);
            }
            fmt_num(a, sizeof a, dm->derived.ipc, "%.2f");
            fprintf(f, " ipc=%s\n", a);
        }
    }
}

/* CSV: one row per rank and stage, then the cluster ("all"). Counter columns
 * are filled on the witness and prove rows (the counter stages); empty
 * cells elsewhere, NA where the event is not available. */
static void csv_write(const mpi_report_t *r, FILE *f)
{
    size_t nr = r->nranks;
    fprintf(f, "rank,host,stage,wall_s,cpu_s,units,proofs_per_hour");
    for (unsigned e = 0; e < r->events.n; e++)
        fprintf(f, ",%s", r->events.name[e]);
    fprintf(f, "\n");
    for (size_t k = 0; k <= nr; k++) {
        const mpi_report_rank_t *rk = k < nr ? &r->ranks[k] : NULL;
        for (int s = 0; s < MPI_NSTAGES; s++) {
            const mpi_report_time_t *t = rk ? &rk->stages[s] : &r->totals.stages[s];
            char rank[16], a[32], b[32], u[32], p[32];
            if (rk)
                snprintf(rank, sizeof rank, "%d", rk->rank);
            else
                snprintf(rank, sizeof rank, "all");
            fmt_num(a, sizeof a, t->wall_s, "%.6f");
            fmt_num(b, sizeof b, t->cpu_s, "%.6f");
            if (!strcmp(b, "n/a"))
                snprintf(b, sizeof b, "NA");
            snprintf(u, sizeof u, "%" PRIu64, rk ? rk->units : r->run.proved);
            fmt_num(p, sizeof p, rk ? rk->proofs_per_hour : r->run.proofs_per_hour, "%.1f");
            if (!strcmp(p, "n/a"))
                snprintf(p, sizeof p, "NA");
            fprintf(f, "%s,%s,%s,%s,%s,%s,%s", rank, rk ? rk->host : "", mpi_stage_names[s], a, b, u, p);
            int cs = cstage_of(s);
            for (unsigned e = 0; e < r->events.n; e++) {
                if (cs < 0)
                    fprintf(f, ",");
                else {
                    double v = rk ? ev_value(&rk->events, rk->counters[cs], r->events.name[e]) : r->totals.counters[cs][e];
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

void mpi_report_print_csv(const mpi_report_t *r, FILE *f) { csv_write(r, f); }

int mpi_report_save_csv(const mpi_report_t *r, const char *path, err_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    csv_write(r, f);
    fclose(f);
    int rc = gm_file_write(path, buf, len, err);
    free(buf);
    return rc;
}
