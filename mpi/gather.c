/*
 * mpi/gather.c — what one rank measured, packed for rank 0.
 *
 * DESIGN
 *  - Called by the comm role once the witness and prover roles have ended
 *    (so their counters are no longer driven), right before the rank's DONE
 *    message (rank 0: before the report is built). Runs on that thread only.
 *  - Stage wall times were summed by the roles (pipeline.c, dispatch.c);
 *    here come the CPU time of the prover pool (the task-clock software
 *    event summed over its threads: the one CPU figure the kernel gives per
 *    thread without a PMU), the hardware counters per counter stage
 *    (witness thread, prover pool) and per L3 domain of the pool, the
 *    memory peaks (gm_mem_peak: gm_alloc'd bytes; gm_rss_peak: VmHWM) and
 *    the busy time (first unit taken to last proof made).
 *  - An event the kernel refused reads NaN ("not available" in the report).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"

/* Not <math.h>: it defines FP_ZERO_ELEM, a name ff/ff.h declares. */
#define NAN (__builtin_nan(""))
#define isnan(x) __builtin_isnan(x)
#define fabs(x) __builtin_fabs(x)

void mr_metrics_finish(mr_state_t *s)
{
    mr_metrics_t *m = &s->m;
    m->rank = s->rank;
    m->threads = (int32_t)topo_pool_size(s->pool);
    m->prep_threads = 0;
    m->prep_domains = (int32_t)s->nprep;
    for (unsigned i = 0; i < s->nprep && i < MR_MAX_DOMAINS; i++) {
        m->dom_prep_threads[i] = (int32_t)topo_pool_size(s->prep_pools[i]);
        m->prep_threads += m->dom_prep_threads[i];
    }
    m->ndomains = s->topo ? (int32_t)topo_l3_count(s->topo) : 1;
    snprintf(m->topology, sizeof m->topology, "%s", s->topo ? topo_source(s->topo) : "this");
    if (gethostname(m->host, sizeof m->host) != 0)
        snprintf(m->host, sizeof m->host, "?");
    m->host[sizeof m->host - 1] = 0;
    uint64_t now = gm_now_ns();
    m->run_ns = now - s->t_start;
    m->busy_ns = s->t_first && s->t_last > s->t_first ? s->t_last - s->t_first : 0;
    m->params_bytes = s->params ? groth16_params_memory(s->params) : 0;
    /* prover_bytes: set by run.c (the rank's prover plus the other prepare
     * domains' provers, as the budget counted them). */
    m->alloc_peak = gm_mem_peak();
    m->rss_peak = gm_rss_peak();
    snprintf(m->backend, sizeof m->backend, "%s",
             groth16_backend_kind_name(groth16_backend_kind(s->nfin ? s->fin[0].be : NULL)));
    m->ngpu = 0;
    for (unsigned g = 0; g < s->nfin && g < MR_MAX_GPUS; g++) {
        if (!s->fin[g].be || groth16_backend_kind(s->fin[g].be) == GROTH16_BACKEND_CPU)
            continue;
        groth16_backend_stats_t st;
        groth16_backend_stats(s->fin[g].be, &st);
        mr_gpu_row_t *r = &m->gpu[m->ngpu++];
        snprintf(r->name, sizeof r->name, "%.63s", st.name);
        r->units = st.units, r->busy_ns = st.busy_ns, r->msm_ns = st.msm_ns, r->ntt_ns = st.ntt_ns;
        r->mem_peak = st.mem_peak, r->fallbacks = st.fallbacks, r->failures = st.failures;
        r->retired = st.retired;
    }
    /* Every stage's CPU is measured: the witness and comm threads' own
     * clocks, the pools' threads for abc, ntt, msm and verify (groth16's
     * cpu_* timings), and a waiting finish role sleeps on a condition
     * variable. */
    for (int st = 0; st < MR_NSTAGES; st++)
        m->cpu_known[st] = 1;
    m->cpu_ns[MR_WAIT] = 0;
    for (int c = 0; c < MR_NCS; c++)
        for (int i = 0; i < MR_MAX_EVENTS; i++)
            m->ev[c][i] = NAN;
    for (int d = 0; d < MR_MAX_DOMAINS; d++)
        for (int i = 0; i < MR_MAX_EVENTS; i++)
            m->ev_dom[d][i] = NAN;
    if (!s->evset || !s->ctr_pool)
        return;
    snprintf(m->model, sizeof m->model, "%s", topo_evset_model(s->evset));
    unsigned nev = topo_evset_count(s->evset);
    if (nev > MR_MAX_EVENTS)
        nev = MR_MAX_EVENTS;
    m->nev = (int32_t)nev;
    unsigned ndom = topo_counters_ndomains(s->ctr_pool);
    if (ndom > MR_MAX_DOMAINS)
        ndom = MR_MAX_DOMAINS;
    m->ndom_counted = (int32_t)ndom;
    for (unsigned d = 0; d < ndom && s->topo; d++) {
        if (d < topo_l3_count(s->topo)) {
            topo_domain_t dom;
            topo_domain_get(s->topo, d, &dom);
            snprintf(m->dom_cpus[d], sizeof m->dom_cpus[d], "%.63s", dom.cpus);
        }
    }
    for (unsigned i = 0; i < nev; i++) {
        snprintf(m->ev_name[i], MR_EV_NAME, "%s", topo_evset_name(s->evset, i));
        m->ev_avail[i] = (uint8_t)topo_counters_available(s->ctr_pool, i);
        double v;
        if (topo_counters_value(s->ctr_pool, s->cstage_prove, -1, i, &v) == 0)
            m->ev[MR_CS_PROVE][i] = v;
        if (s->ctr_witness && topo_counters_value(s->ctr_witness, s->cstage_witness, -1, i, &v) == 0)
            m->ev[MR_CS_WITNESS][i] = v;
        for (unsigned d = 0; d < ndom; d++)
            if (topo_counters_value(s->ctr_pool, s->cstage_prove, (int)d, i, &v) == 0)
                m->ev_dom[d][i] = v;
    }
}
