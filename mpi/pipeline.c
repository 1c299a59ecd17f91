/*
 * mpi/pipeline.c — the three compute roles of a rank and the queues between
 * them and the comm role.
 *
 * DESIGN
 *  - 3 + N roles per rank, run as the tasks of one topo_pool_run on a flat
 *    pool of as many workers (only topo/ starts threads; mr_roles_count);
 *    each task claims a role: the comm role (dispatch.c; the only one that
 *    calls MPI while the campaign runs), the witness role, the finish role,
 *    and one prepare role per prepare domain (N = resources.domains).
 *    The caller (worker 0, the main thread, which created the MSM pool)
 *    prefers the finish role, so that pool's per-thread counters, which
 *    count the creating thread as worker 0, see the thread that really
 *    drives it. Every task claims exactly one role, and a thread takes a
 *    second task only after its first role ended, so all roles always run
 *    (no role waits on one that cannot start). The roles are long-running
 *    loops that meet at one mutex and one condition variable in mr_state_t;
 *    nobody spins (a 2-core VM is shared by several ranks).
 *  - Flow: comm appends unit numbers to `todo`; the witness role takes them
 *    in order, synthesizes each witness (jobs_source_witness, one thread)
 *    and appends it to `ready`; each prepare role takes the next one with a
 *    free prepared unit and runs groth16_prepare (a/b/c and the NTTs) on its
 *    domain's pool, appending to `prepared` (in the order they finish: up to
 *    N units are prepared at once, one per domain); the finish role takes up to k =
 *    batch_size prepared units and runs their MSMs and checks in ONE
 *    groth16_finish call on the machine-wide MSM pool (the parameters and
 *    bases are shared by the k proofs: the cross-sector batch, since k
 *    consecutive units are k sectors); results go to `results`, which comm
 *    drains (sends to rank 0, or writes them on rank 0).
 *  - Pipelining: while the finish role is in the MSMs of batch i, the
 *    witness and prepare roles work on the next units. The campaign's
 *    pipeline_depth d bounds it: there are k + d prepared units (each holds
 *    h, m field elements), so at most d units are prepared ahead of the
 *    batch being finished (d = 0: prepare waits for the MSMs, no overlap);
 *    with N domains, min(N, d) of them are prepared at the same time while
 *    the MSMs run (min(N, k + d) while they do not), so d >= N keeps every
 *    domain busy during the MSMs;
 *    the witnesses alive (made, being made, ready, prepared or being
 *    finished: the unit's z is its witness) are at most max_inflight = k +
 *    d + 1. run.c derives d from the memory budget (it lowers the
 *    campaign's value when the budget is short and says so in the report).
 *  - Domains: a unit's a/b/c and NTTs run inside ONE L3 domain, on that
 *    domain's pool (topo_pool_create_domain: one worker per core of the
 *    domain, pinned to its core with resources.pin, the prepare role itself
 *    bound to the domain's first core as the pool's worker 0), so the
 *    unit's working set stays in one L3 instead of bouncing between CCDs.
 *    A prover runs one prepare at a time (its prepare scratch is one m-vector
 *    and the NTT scratch), so each domain prepares with its own prover:
 *    run.c gives domain 0 the rank's prover when its pool fits the prover's
 *    scratch and every other domain a prepare-only prover sharing the shape
 *    (groth16_prover_create without parameters); a prepared unit carries no
 *    prover, so any domain's units go to the one finish prover. The
 *    witness stays one thread (the witness role), outside the domains.
 *  - Cores: the MSM pool has the rank's T threads; the prepare pools have
 *    the used domains' cores (the prepare stage's CPU is a fraction of the
 *    finish stage's on PoRep partitions: bench/README.md has the stage
 *    times). While both run, the cores are oversubscribed by the
 *    prepare and witness threads and the kernel shares them (the MSM hands
 *    out tasks dynamically, so a descheduled worker does not hold the
 *    others back); the total CPU per unit is the same either way. With a
 *    GPU taking the MSMs, the CPU is the prepare pool's.
 *  - Devices (mr_finish_setup): with a device backend the finish role is
 *    one finish worker per device (resources.gpus), each with its own
 *    backend, its prover holding that device's resident bases, and a CPU
 *    pool (G2 MSM, fallbacks, checks); several run as the tasks of one
 *    topo_pool_run on fin_pool, taking batches from the same prepared queue
 *    (a worker also takes a short batch when no unit is free, since nothing
 *    more is prepared until some batch ends). The GPU is thus the
 *    pipeline's finish stage: synthesis and prepare of later units overlap
 *    it under the same depth and budget. The prepare domains' provers send
 *    their NTTs to the devices in turn. With several ranks on a node, each
 *    opens only its share of the node's visible devices (mr_device_share),
 *    so that no two ranks put their resident bases on the same device
 *    while another stays idle.
 *  - The finish role does not wait for a full batch when no more units are
 *    coming soon (todo empty and the witness and prepare roles idle with
 *    nothing queued): it proves what it has, so the tail of a campaign is
 *    not held back.
 *  - Errors: the first error of a role is kept in s->fatal / s->ferr and
 *    sets s->abort, which every role checks at each step; comm reports it.
 *  - Stage times are summed per rank under the lock (they are per unit or
 *    batch, not per point: no contention worth the name).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"

int mr_pipeline_depth(unsigned *depth, const mr_budget_t *b, unsigned k, unsigned want, err_t *err)
{
    const double mib = 1048576.0;
    uint64_t per = b->witness + b->unit, fixed = b->params + b->prover;
    uint64_t need0 = fixed + (uint64_t)k * per + b->witness;
    if (b->budget < need0)
        return gm_err_set(err, GM_EINVAL,
                          "%s: %.1f MiB per rank is below the %llu bytes (%.1f MiB) this campaign needs: parameters "
                          "%.1f MiB + prover scratch %.1f MiB + a batch of %u units %.1f MiB (witness %.1f + h %.1f "
                          "each) + one witness ahead %.1f MiB; give at least %llu MiB (--mem-budget or "
                          "resources.mem_budget), or fewer ranks per node%s",
                          b->what, (double)b->budget / mib, (unsigned long long)need0, (double)need0 / mib,
                          (double)b->params / mib, (double)b->prover / mib, k, (double)k * (double)per / mib,
                          (double)b->witness / mib, (double)b->unit / mib, (double)b->witness / mib,
                          (unsigned long long)((need0 + 1048575) / 1048576), k > 1 ? ", or a smaller batch_size" : "");
    uint64_t fit = (b->budget - need0) / per;
    *depth = fit < want ? (unsigned)fit : want;
    return 0;
}

int mr_prepare_domains(unsigned *n, unsigned want, unsigned ndomains, const char *file, int rank, const char *host,
                       const char *source, err_t *err)
{
    unsigned use = want ? want : ndomains;
    if (want > ndomains)
        return gm_err_set(err, GM_EINVAL,
                          "%s: resources.domains: %u exceeds the %u L3 domain%s of rank %d's node %s (topology %s); "
                          "use 0 (all) or at most %u",
                          file, want, ndomains, ndomains == 1 ? "" : "s", rank, host, source, ndomains);
    if (use > MR_MAX_DOMAINS)
        return gm_err_set(err, GM_EINVAL,
                          "%s: resources.domains: %u (%s) is more prepare domains than a rank keeps metrics "
                          "for (%d): set resources.domains to at most %d",
                          file, use, want ? "as given" : "0: every domain of rank's node", MR_MAX_DOMAINS,
                          MR_MAX_DOMAINS);
    *n = use;
    return 0;
}

int mr_state_init(mr_state_t *s, const jobs_campaign_t *c, int rank, int size, unsigned depth,
                  groth16_prover_t *prover, err_t *err)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->rank = rank;
    s->size = size;
    s->node_size = 1;
    s->batch = c->batch_size;
    s->depth = depth;
    s->max_inflight = s->batch + depth + 1;
    s->nunits = s->batch + depth;
    s->todo_cap = jobs_unit_count(c) + 1;
    s->todo = calloc(s->todo_cap, sizeof *s->todo);
    s->ready = calloc(s->max_inflight, sizeof *s->ready);
    s->prepared = calloc(s->nunits, sizeof *s->prepared);
    s->units = calloc(s->nunits, sizeof *s->units);
    s->free_units = calloc(s->nunits, sizeof *s->free_units);
    int rc = 0;
    if (!s->todo || !s->ready || !s->prepared || !s->units || !s->free_units)
        rc = gm_err_set(err, GM_ENOMEM, "rank state: out of memory");
    for (size_t i = 0; !rc && i < s->nunits; i++)
        if (!(rc = groth16_prepared_create(&s->units[i], prover, err)))
            s->free_units[s->nfree++] = s->units[i];
    if (rc) {
        for (size_t i = 0; s->units && i < s->nunits; i++)
            groth16_prepared_free(s->units[i]);
        free(s->units);
        free(s->free_units);
        free(s->prepared);
        free(s->ready);
        free(s->todo);
        memset(s, 0, sizeof *s);
        return rc;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    return 0;
}

/* Detaches the devices from every prover before closing them (the
 * provers' resident bases are the backends'), and frees workers 1... */
static void finish_free(mr_state_t *s)
{
    for (unsigned i = 0; s->prep_provers && i < s->nprep; i++)
        groth16_prover_set_backend(s->prep_provers[i], NULL);
    for (unsigned g = 0; s->fin && g < s->nfin; g++) {
        mr_finisher_t *f = &s->fin[g];
        if (f->prover)
            groth16_prover_set_backend(f->prover, NULL);
        if (f->own) {
            groth16_prover_destroy(f->prover);
            topo_pool_destroy(f->pool);
        }
        groth16_backend_close(f->be);
    }
    free(s->fin);
    s->fin = NULL;
    s->nfin = 0;
    topo_pool_destroy(s->fin_pool);
    s->fin_pool = NULL;
}

void mr_device_share(unsigned *first, unsigned *count, int node_rank, int node_size, unsigned visible)
{
    GM_ASSERT(node_size >= 1 && node_rank >= 0 && node_rank < node_size && visible >= 1);
    /* Rank l of L takes [l V / L, (l + 1) V / L): contiguous, as even as
     * integers allow, and with V < L consecutive ranks share one device. */
    uint64_t l = (uint64_t)node_rank, L = (uint64_t)node_size, V = visible;
    uint64_t lo = l * V / L, hi = (l + 1) * V / L;
    *first = (unsigned)lo;
    *count = hi > lo ? (unsigned)(hi - lo) : 1;
}

int mr_finish_setup(mr_state_t *s, const cs_shape_t *shape, err_t *err)
{
    const jobs_campaign_t *c = s->c;
    groth16_backend_kind_t kind = c->backend;
    unsigned avail = 0, n = 1, first = 0, share = 0;
    (void)groth16_backend_device_count(&avail, kind);
    /* Devices that a node's ranks share: CUDA's (auto when it finds one),
     * and emulated ones when GROTHMPI_EMU_DEVICES numbers them. */
    bool counted = kind != GROTH16_BACKEND_CPU && avail > 0;
    if (counted) {
        mr_device_share(&first, &share, s->node_rank, s->node_size > 0 ? s->node_size : 1, avail);
        n = c->gpus ? c->gpus : share;
    } else if (kind == GROTH16_BACKEND_EMULATE || kind == GROTH16_BACKEND_CUDA) {
        n = c->gpus ? c->gpus : 1;
    }
    const char *dev_kind = kind == GROTH16_BACKEND_EMULATE ? "emulated" : "CUDA";
    if (counted && n > share && s->node_size > 1)
        return gm_err_set(err, GM_EINVAL,
                          "%s: resources.gpus: %u, rank %d has %u of the %u %s device%s of its node (%d ranks share "
                          "them: devices %u..%u are its own)",
                          c->file[0] ? c->file : "campaign", n, s->rank, share, avail, dev_kind, avail == 1 ? "" : "s",
                          s->node_size, first, first + share - 1);
    if (counted && n > share)
        return gm_err_set(err, GM_EINVAL,
                          "%s: resources.gpus: %u, rank %d sees %u %s device%s (%s applied)",
                          c->file[0] ? c->file : "campaign", n, s->rank, avail, dev_kind, avail == 1 ? "" : "s",
                          kind == GROTH16_BACKEND_EMULATE ? "GROTHMPI_EMU_DEVICES" : "CUDA_VISIBLE_DEVICES");
    s->fin = calloc(n, sizeof *s->fin);
    if (!s->fin)
        return gm_err_set(err, GM_ENOMEM, "rank %d: out of memory for the finish workers", s->rank);
    s->nfin = n;
    unsigned per = topo_pool_size(s->pool) / n;
    int rc = 0;
    for (unsigned g = 0; !rc && g < n; g++) {
        mr_finisher_t *f = &s->fin[g];
        if (kind != GROTH16_BACKEND_CPU) {
            char note[512];
            err_t e;
            if ((rc = groth16_backend_open(&f->be, kind, (int)(first + g), note, sizeof note, &e))) {
                gm_err_set(err, rc, "rank %d: %s", s->rank, e.msg);
                break;
            }
            if (note[0] && g == 0)
                snprintf(s->backend_note, sizeof s->backend_note, "rank %d: %s", s->rank, note);
        }
        if (g == 0) {
            f->prover = s->prover;
            f->pool = s->pool;
        } else {
            f->own = true;
            if ((rc = topo_pool_create_flat(&f->pool, per ? per : 1, err)) ||
                (rc = groth16_prover_create(&f->prover, s->params, shape, f->pool, err)))
                break;
            /* Reported, not budgeted: the budget was sized before the
             * devices were known (run.c). */
            s->m.prover_bytes += groth16_prover_memory(f->prover);
        }
        groth16_prover_set_backend(f->prover, f->be);
    }
    /* The prepare domains' NTTs: on the devices in turn. */
    for (unsigned i = 0; !rc && i < s->nprep; i++)
        if (s->prep_provers[i] != s->prover)
            groth16_prover_set_backend(s->prep_provers[i], s->fin[i % n].be);
    if (!rc && n > 1)
        rc = topo_pool_create_flat(&s->fin_pool, n, err);
    if (rc)
        finish_free(s);
    return rc;
}

void mr_state_free(mr_state_t *s)
{
    if (!s->todo)
        return;
    finish_free(s);
    for (size_t i = 0; i < s->nready; i++)
        cs_destroy(s->ready[i].cs);
    for (size_t i = 0; i < s->nprepared; i++)
        cs_destroy(s->prepared[i].cs);
    for (size_t i = 0; i < s->nunits; i++)
        groth16_prepared_free(s->units[i]);
    for (size_t i = 0; i < s->nresults; i++)
        free(s->results[i].pub);
    gm_free(s->results);
    free(s->units);
    free(s->free_units);
    free(s->prepared);
    free(s->ready);
    free(s->todo);
    topo_counters_destroy(s->ctr_witness);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    memset(s, 0, sizeof *s);
}

size_t mr_pending_locked(const mr_state_t *s) { return s->todo_len + s->inflight; }

static void fail_locked(mr_state_t *s, int code, const err_t *e)
{
    if (!s->fatal) {
        s->fatal = code ? code : GM_EINVAL;
        s->ferr = *e;
        s->ferr.code = s->fatal;
    }
    s->abort = true;
    pthread_cond_broadcast(&s->cv);
}

void mr_fail(mr_state_t *s, int code, const err_t *e)
{
    pthread_mutex_lock(&s->mu);
    fail_locked(s, code, e);
    pthread_mutex_unlock(&s->mu);
}

/* ---- the witness role ---------------------------------------------------------------- */

static void witness_role(mr_state_t *s)
{
    err_t e;
    gm_err_clear(&e);
    if (s->evset && topo_counters_open_self(&s->ctr_witness, s->evset, &e) == 0) {
        if (topo_counters_stage(s->ctr_witness, "witness", &s->cstage_witness, &e)) {
            topo_counters_destroy(s->ctr_witness);
            s->ctr_witness = NULL;
        }
    }
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->abort && !(s->todo_len == 0 && s->no_more) &&
               (s->todo_len == 0 || s->inflight >= s->max_inflight))
            pthread_cond_wait(&s->cv, &s->mu);
        if (s->abort || (s->todo_len == 0 && s->no_more))
            break;
        size_t u = s->todo[s->todo_head];
        s->todo_head = (s->todo_head + 1) % s->todo_cap;
        s->todo_len--;
        s->inflight++;
        s->in_witness++;
        if (s->inflight > s->m.inflight_peak)
            s->m.inflight_peak = s->inflight;
        uint64_t t0 = gm_now_ns();
        if (!s->t_first)
            s->t_first = t0;
        pthread_mutex_unlock(&s->mu);

        uint64_t c0 = gm_thread_cpu_ns();
        if (s->ctr_witness)
            topo_counters_begin(s->ctr_witness, s->cstage_witness);
        cs_t *cs = NULL;
        gm_err_clear(&e);
        int rc = jobs_source_witness(s->src, u, &cs, &e);
        if (s->ctr_witness)
            topo_counters_end(s->ctr_witness, s->cstage_witness);
        uint64_t c1 = gm_thread_cpu_ns(), t1 = gm_now_ns();

        pthread_mutex_lock(&s->mu);
        s->in_witness--;
        s->m.wall_ns[MR_WITNESS] += t1 - t0;
        s->m.cpu_ns[MR_WITNESS] += c1 - c0;
        if (rc) {
            s->inflight--;
            fail_locked(s, rc, &e);
            break;
        }
        GM_ASSERT(s->nready < s->max_inflight);
        s->ready[s->nready] = (mr_ready_t){.unit = u, .cs = cs};
        s->nready++;
        pthread_cond_broadcast(&s->cv);
    }
    s->witness_done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- the prepare role ------------------------------------------------------------------ */


/* Prepare role i: domain i's units, on its pool with its prover. */
static void prepare_role(mr_state_t *s, unsigned i)
{
    err_t e;
    gm_err_clear(&e);
    /* The role thread is worker 0 of its domain's pool: with pinning it
     * goes to the domain's first core, where the pool left room for it. */
    int brc = s->prep_leaders ? topo_bind_self(s->topo, &s->prep_leaders[i], &e) : 0;
    pthread_mutex_lock(&s->mu);
    if (brc) {
        err_t e2;
        gm_err_set(&e2, brc, "prepare domain %u: %s", i, e.msg);
        fail_locked(s, brc, &e2);
    }
    for (;;) {
        while (!s->abort && !(s->witness_done && s->nready == 0) && (s->nready == 0 || s->nfree == 0))
            pthread_cond_wait(&s->cv, &s->mu);
        if (s->abort || (s->witness_done && s->nready == 0))
            break;
        mr_ready_t it = s->ready[0];
        memmove(s->ready, s->ready + 1, (s->nready - 1) * sizeof *s->ready);
        s->nready--;
        it.prep = s->free_units[--s->nfree];
        s->in_prepare++;
        pthread_mutex_unlock(&s->mu);

        groth16_witness_t w;
        groth16_witness_of(&w, it.cs);
        groth16_timings_t tm;
        gm_err_clear(&e);
        int rc = groth16_prepare(s->prep_provers[i], it.prep, &w, s->prep_pools[i], &tm, &e);

        pthread_mutex_lock(&s->mu);
        s->in_prepare--;
        s->m.wall_ns[MR_ABC] += tm.abc;
        s->m.cpu_ns[MR_ABC] += tm.cpu_abc;
        s->m.wall_ns[MR_NTT] += tm.ntt;
        s->m.cpu_ns[MR_NTT] += tm.cpu_ntt;
        s->m.wall_ns[MR_PROVE] += tm.total;
        s->m.cpu_ns[MR_PROVE] += tm.cpu_abc + tm.cpu_ntt;
        s->m.dom_prep_wall_ns[i] += tm.total;
        s->m.dom_prep_cpu_ns[i] += tm.cpu_abc + tm.cpu_ntt;
        if (rc) {
            char uname[JOBS_ID_LEN + 16];
            jobs_unit_name(uname, sizeof uname, s->c, it.unit);
            err_t e2;
            gm_err_set(&e2, rc, "unit %s: %s", uname, e.msg);
            s->free_units[s->nfree++] = it.prep;
            cs_destroy(it.cs);
            s->inflight--;
            fail_locked(s, rc, &e2);
            break;
        }
        GM_ASSERT(s->nprepared < s->nunits);
        s->prepared[s->nprepared++] = it;
        s->m.dom_prep_units[i]++;
        pthread_cond_broadcast(&s->cv);
    }
    if (++s->prep_ended == s->nprep)
        s->prepare_done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- the finish role ------------------------------------------------------------------- */

static int push_result_locked(mr_state_t *s, const mr_result_t *r)
{
    if (!gm_grow((void **)&s->results, &s->results_cap, s->nresults + 1, sizeof *s->results, 16))
        return GM_ENOMEM;
    s->results[s->nresults++] = *r;
    return 0;
}

/* No more prepared units are coming soon: nothing queued or in the making
 * upstream (lock held). */
static bool upstream_idle_locked(const mr_state_t *s)
{
    return s->todo_len == 0 && s->in_witness == 0 && s->nready == 0 && s->in_prepare == 0;
}

/* The results of a finished batch (proof bytes, public inputs) into res.
 * Returns 0 or GM_ENOMEM (res[].pub freed). */
static int batch_results(mr_state_t *s, mr_result_t *res, const mr_ready_t *items, const groth16_proof_t *proofs,
                         size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t nin;
        const fr_t *in = groth16_prepared_inputs(items[i].prep, &nin);
        if (mr_result_bls(&res[i], items[i].unit, s->rank, s->rank_verifies, &proofs[i], in + 1, (uint32_t)(nin - 1)))
            rc = GM_ENOMEM;
    }
    if (rc)
        for (size_t i = 0; i < n; i++)
            free(res[i].pub), res[i].pub = NULL;
    return rc;
}

/* Finish worker g: batches of up to k prepared units through its prover
 * (its device's resident bases) on its pool. */
static void finish_worker(mr_state_t *s, unsigned g)
{
    mr_finisher_t *fw = &s->fin[g];
    unsigned k = s->batch;
    groth16_prepared_t **units = calloc(k, sizeof *units);
    groth16_proof_t *proofs = calloc(k, sizeof *proofs);
    mr_ready_t *items = calloc(k, sizeof *items);
    mr_result_t *res = calloc(k, sizeof *res);
    err_t e;
    gm_err_clear(&e);
    pthread_mutex_lock(&s->mu);
    if (!units || !proofs || !items || !res) {
        gm_err_set(&e, GM_ENOMEM, "rank %d: prover: out of memory", s->rank);
        fail_locked(s, GM_ENOMEM, &e);
    }
    for (;;) {
        uint64_t tw0 = gm_now_ns();
        /* With no unit free or being prepared, nothing more is prepared
         * until another worker's batch ends: take what is there (several
         * finish workers; one alone then always has k). */
        while (!s->abort && !(s->prepare_done && s->nprepared == 0) && s->nprepared < k &&
               !(s->nprepared > 0 && (upstream_idle_locked(s) || (s->nfree == 0 && s->in_prepare == 0))))
            pthread_cond_wait(&s->cv, &s->mu);
        s->m.wall_ns[MR_WAIT] += gm_now_ns() - tw0;
        if (s->abort || (s->prepare_done && s->nprepared == 0))
            break;
        size_t n = s->nprepared < k ? s->nprepared : k;
        memcpy(items, s->prepared, n * sizeof *items);
        memmove(s->prepared, s->prepared + n, (s->nprepared - n) * sizeof *s->prepared);
        s->nprepared -= n;
        s->in_prove += (unsigned)n;
        pthread_mutex_unlock(&s->mu);

        for (size_t i = 0; i < n; i++)
            units[i] = items[i].prep;
        groth16_timings_t tm;
        memset(&tm, 0, sizeof tm);
        gm_err_clear(&e);
        /* The pool's counters count worker 0's pool, the rank's MSM pool. */
        bool ctr = s->ctr_pool && g == 0;
        if (ctr)
            topo_counters_begin(s->ctr_pool, s->cstage_prove);
        int rc = groth16_finish(fw->prover, proofs, units, n, NULL,
                                s->rank_verifies ? GROTH16_PROVE_DEFAULT : GROTH16_PROVE_NO_VERIFY, fw->pool, &tm, &e);
        if (ctr)
            topo_counters_end(s->ctr_pool, s->cstage_prove);
        int rc2 = rc ? 0 : batch_results(s, res, items, proofs, n);
        char uname[JOBS_ID_LEN + 16] = "";
        if (rc)
            jobs_unit_name(uname, sizeof uname, s->c, items[0].unit);
        for (size_t i = 0; i < n; i++)
            cs_destroy(items[i].cs);

        pthread_mutex_lock(&s->mu);
        for (size_t i = 0; i < n; i++)
            s->free_units[s->nfree++] = units[i];
        s->in_prove -= (unsigned)n;
        s->inflight -= (unsigned)n;
        s->m.wall_ns[MR_MSM] += tm.msm_a + tm.msm_b_g1 + tm.msm_b_g2 + tm.msm_l + tm.msm_h;
        s->m.params_streamed += tm.params_bytes;
        s->m.params_read += tm.read_a + tm.read_b_g1 + tm.read_b_g2 + tm.read_l + tm.read_h;
        s->m.cpu_ns[MR_MSM] += tm.cpu_msm;
        s->m.wall_ns[MR_VERIFY] += tm.verify;
        s->m.cpu_ns[MR_VERIFY] += tm.cpu_verify;
        s->m.wall_ns[MR_PROVE] += tm.total;
        s->m.cpu_ns[MR_PROVE] += tm.cpu_msm + tm.cpu_verify;
        pthread_cond_broadcast(&s->cv);
        if (rc || rc2) {
            if (rc) {
                err_t e2;
                gm_err_set(&e2, rc, "batch of %zu units from %s: %s", n, uname, e.msg);
                fail_locked(s, rc, &e2);
            } else {
                gm_err_set(&e, GM_ENOMEM, "rank %d: out of memory for public inputs", s->rank);
                fail_locked(s, GM_ENOMEM, &e);
            }
            break;
        }
        for (size_t i = 0; i < n; i++)
            if (push_result_locked(s, &res[i])) {
                for (size_t j = i; j < n; j++)
                    free(res[j].pub);
                gm_err_set(&e, GM_ENOMEM, "rank %d: out of memory for results", s->rank);
                fail_locked(s, GM_ENOMEM, &e);
                break;
            }
        s->m.units += n;
        s->t_last = gm_now_ns();
    }
    pthread_mutex_unlock(&s->mu);
    free(units);
    free(proofs);
    free(items);
    free(res);
}

static void finish_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    finish_worker(arg, (unsigned)task);
}

/* The finish role: its one worker, or each device's worker on fin_pool
 * (the role's thread is worker 0 there: device 0). */
static void finish_role(mr_state_t *s)
{
    if (s->nfin > 1) {
        topo_pool_run(s->fin_pool, s->nfin, finish_task, s);
    } else if (s->nfin == 1) {
        finish_worker(s, 0);
    } else {
        /* No mr_finish_setup (a state made by a test): the rank's prover. */
        mr_finisher_t f0 = {.prover = s->prover, .pool = s->pool};
        s->fin = &f0;
        finish_worker(s, 0);
        s->fin = NULL;
    }
    pthread_mutex_lock(&s->mu);
    s->prover_done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}



unsigned mr_roles_count(unsigned nprep) { return 3 + nprep; }

mr_role_t mr_roles_claim(mr_roles_t *r, unsigned worker, unsigned *prep)
{
    static const mr_role_t main_pref[] = {MR_ROLE_FINISH, MR_ROLE_COMM, MR_ROLE_WITNESS, MR_ROLE_PREPARE};
    static const mr_role_t other_pref[] = {MR_ROLE_COMM, MR_ROLE_WITNESS, MR_ROLE_PREPARE, MR_ROLE_FINISH};
    const mr_role_t *pref = worker == 0 ? main_pref : other_pref;
    for (int i = 0; i < 4; i++) {
        if (pref[i] == MR_ROLE_PREPARE) {
            /* N prepare roles: a ticket below nprep is one; a later ticket
             * only says they are all taken. */
            unsigned t = atomic_fetch_add(&r->prep_claimed, 1);
            if (t < r->nprep) {
                *prep = t;
                return MR_ROLE_PREPARE;
            }
            continue;
        }
        unsigned old = atomic_fetch_or(&r->claimed, (unsigned)pref[i]);
        if (!(old & (unsigned)pref[i]))
            return pref[i];
    }
    return MR_ROLE_NONE;
}

void mr_roles_task(void *arg, size_t task, unsigned worker)
{
    (void)task;
    mr_roles_t *r = arg;
    unsigned prep = 0;
    mr_role_t role = mr_roles_claim(r, worker, &prep);
    if (role == MR_ROLE_COMM)
        r->comm(r->comm_arg);
    else if (role == MR_ROLE_WITNESS)
        witness_role(r->s);
    else if (role == MR_ROLE_PREPARE)
        prepare_role(r->s, prep);
    else if (role == MR_ROLE_FINISH)
        finish_role(r->s);
}
