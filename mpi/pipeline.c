/*
 * mpi/pipeline.c — the two compute roles of a rank and the queues between
 * them and the comm role.
 *
 * DESIGN
 *  - Three roles per rank, run as the three tasks of one topo_pool_run on a
 *    flat pool of 3 workers (only topo/ starts threads); each task claims a
 *    role: the comm role (dispatch.c; the only one that calls MPI while the
 *    campaign runs), the witness role and the prover role. The caller
 *    (worker 0, the main thread, which created the prover pool) prefers the
 *    prover role, so the prover pool's per-thread counters, which count the
 *    creating thread as worker 0, see the thread that really drives it. Every
 *    task claims exactly one role, and a thread takes a second task only
 *    after its first role ended, so all three always run (no role waits on
 *    one that cannot start). The roles are long-running loops that
 *    meet at one mutex and one condition variable in mr_state_t; nobody
 *    spins (a 2-core VM is shared by several ranks).
 *  - Flow: comm appends unit numbers to `todo`; the witness role takes them
 *    in order, synthesizes each witness (jobs_source_witness, one thread)
 *    and appends it to `ready`; the prover role takes up to k = batch_size
 *    ready witnesses and proves them in ONE groth16_prove call on the
 *    machine-wide pool (the parameters and bases are shared by the k proofs:
 *    the cross-sector batch, since k consecutive units are k sectors);
 *    results go to `results`, which comm drains (sends to rank 0, or writes
 *    them on rank 0).
 *  - Pipelining: while the prover is in the MSMs of batch i, the witness
 *    role already synthesizes the units of batch i + 1. The bound is
 *    `inflight` (witnesses made, being made, ready or being proved) <=
 *    max_inflight, which run.c derives from the memory budget; the witness
 *    role waits when the bound is reached. a/b/c runs inside groth16_prove,
 *    on the prover pool, so it overlaps with the next witness, not with the
 *    current batch's MSMs.
 *  - The prover does not wait for a full batch when no more witnesses are
 *    coming soon (todo empty and the witness role idle): it proves what it
 *    has, so the tail of a campaign is not held back.
 *  - Errors: the first error of a role is kept in s->fatal / s->ferr and
 *    sets s->abort, which every role checks at each step; comm reports it.
 *  - Stage times are summed per rank under the lock (they are per batch,
 *    not per point: no contention worth the name).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"

const char *const mr_stage_names[MR_NSTAGES] = {"witness", "abc", "ntt", "msm", "verify", "prove", "io", "wait"};

int mr_state_init(mr_state_t *s, const jobs_campaign_t *c, int rank, int size, unsigned max_inflight, err_t *err)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->rank = rank;
    s->size = size;
    s->batch = c->batch_size;
    s->max_inflight = max_inflight;
    s->todo_cap = jobs_unit_count(c) + 1;
    s->todo = calloc(s->todo_cap, sizeof *s->todo);
    s->ready = calloc(max_inflight, sizeof *s->ready);
    if (!s->todo || !s->ready) {
        free(s->todo);
        free(s->ready);
        return gm_err_set(err, GM_ENOMEM, "rank state: out of memory");
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    return 0;
}

void mr_state_free(mr_state_t *s)
{
    if (!s->todo)
        return;
    for (size_t i = 0; i < s->nready; i++)
        cs_destroy(s->ready[i].cs);
    for (size_t i = 0; i < s->nresults; i++)
        free(s->results[i].pub);
    free(s->results);
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
        s->ready[s->nready].unit = u;
        s->ready[s->nready].cs = cs;
        s->nready++;
        pthread_cond_broadcast(&s->cv);
    }
    s->witness_done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- the prover role ------------------------------------------------------------------ */

static int push_result_locked(mr_state_t *s, const mr_result_t *r)
{
    if (s->nresults == s->results_cap) {
        size_t cap = s->results_cap ? 2 * s->results_cap : 16;
        mr_result_t *nr = realloc(s->results, cap * sizeof *nr);
        if (!nr)
            return GM_ENOMEM;
        s->results = nr;
        s->results_cap = cap;
    }
    s->results[s->nresults++] = *r;
    return 0;
}

static void prover_role(mr_state_t *s)
{
    unsigned k = s->batch;
    groth16_witness_t *w = calloc(k, sizeof *w);
    groth16_proof_t *proofs = calloc(k, sizeof *proofs);
    mr_ready_t *items = calloc(k, sizeof *items);
    mr_result_t *res = calloc(k, sizeof *res);
    err_t e;
    gm_err_clear(&e);
    pthread_mutex_lock(&s->mu);
    if (!w || !proofs || !items || !res) {
        gm_err_set(&e, GM_ENOMEM, "rank %d: prover: out of memory", s->rank);
        fail_locked(s, GM_ENOMEM, &e);
    }
    for (;;) {
        uint64_t tw0 = gm_now_ns();
        while (!s->abort && !(s->witness_done && s->nready == 0) && s->nready < k &&
               !(s->nready > 0 && s->todo_len == 0 && s->in_witness == 0))
            pthread_cond_wait(&s->cv, &s->mu);
        s->m.wall_ns[MR_WAIT] += gm_now_ns() - tw0;
        if (s->abort || (s->witness_done && s->nready == 0))
            break;
        size_t n = s->nready < k ? s->nready : k;
        memcpy(items, s->ready, n * sizeof *items);
        memmove(s->ready, s->ready + n, (s->nready - n) * sizeof *s->ready);
        s->nready -= n;
        s->in_prove += (unsigned)n;
        pthread_mutex_unlock(&s->mu);

        for (size_t i = 0; i < n; i++) {
            w[i].inputs = cs_input_values(items[i].cs);
            w[i].n_inputs = cs_num_inputs(items[i].cs);
            w[i].aux = cs_aux_values(items[i].cs);
            w[i].n_aux = cs_num_aux(items[i].cs);
        }
        groth16_timings_t tm;
        memset(&tm, 0, sizeof tm);
        gm_err_clear(&e);
        if (s->ctr_pool)
            topo_counters_begin(s->ctr_pool, s->cstage_prove);
        uint64_t t0 = gm_now_ns();
        int rc = groth16_prove(s->prover, proofs, w, n, NULL,
                               s->rank_verifies ? GROTH16_PROVE_DEFAULT : GROTH16_PROVE_NO_VERIFY, s->pool, &tm, &e);
        uint64_t t1 = gm_now_ns();
        if (s->ctr_pool)
            topo_counters_end(s->ctr_pool, s->cstage_prove);
        int rc2 = 0;
        for (size_t i = 0; !rc && i < n; i++) {
            memset(&res[i], 0, sizeof res[i]);
            res[i].unit = items[i].unit;
            res[i].rank = (uint32_t)s->rank;
            res[i].verified = s->rank_verifies;
            res[i].n_pub = (uint32_t)(w[i].n_inputs - 1);
            groth16_proof_to_bytes(res[i].proof, &proofs[i]);
            res[i].pub = malloc(res[i].n_pub * FR_BYTES + 1);
            if (!res[i].pub) {
                rc2 = GM_ENOMEM;
                continue;
            }
            for (uint32_t j = 0; j < res[i].n_pub; j++)
                fr_to_bytes_le(res[i].pub + (size_t)j * FR_BYTES, &w[i].inputs[j + 1]);
        }
        char uname[JOBS_ID_LEN + 16] = "";
        if (rc)
            jobs_unit_name(uname, sizeof uname, s->c, items[0].unit);
        for (size_t i = 0; i < n; i++)
            cs_destroy(items[i].cs);

        pthread_mutex_lock(&s->mu);
        s->in_prove -= (unsigned)n;
        s->inflight -= (unsigned)n;
        s->m.wall_ns[MR_ABC] += tm.abc;
        s->m.wall_ns[MR_NTT] += tm.ntt;
        s->m.wall_ns[MR_MSM] += tm.msm_a + tm.msm_b_g1 + tm.msm_b_g2 + tm.msm_l + tm.msm_h;
        s->m.wall_ns[MR_VERIFY] += tm.verify;
        s->m.wall_ns[MR_PROVE] += t1 - t0;
        if (rc || rc2) {
            for (size_t i = 0; i < n; i++)
                free(res[i].pub), res[i].pub = NULL;
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
        pthread_cond_broadcast(&s->cv);
    }
    s->prover_done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    free(w);
    free(proofs);
    free(items);
    free(res);
}

enum { ROLE_COMM = 1, ROLE_WITNESS = 2, ROLE_PROVER = 4 };

/* Claims the first free role of the preference list. */
static unsigned claim(mr_roles_t *r, const unsigned *pref, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned old = atomic_fetch_or(&r->claimed, pref[i]);
        if (!(old & pref[i]))
            return pref[i];
    }
    return 0;
}

void mr_roles_task(void *arg, size_t task, unsigned worker)
{
    (void)task;
    mr_roles_t *r = arg;
    static const unsigned main_pref[] = {ROLE_PROVER, ROLE_COMM, ROLE_WITNESS};
    static const unsigned other_pref[] = {ROLE_COMM, ROLE_WITNESS, ROLE_PROVER};
    unsigned role = claim(r, worker == 0 ? main_pref : other_pref, 3);
    if (role == ROLE_COMM)
        r->comm(r->comm_arg);
    else if (role == ROLE_WITNESS)
        witness_role(r->s);
    else if (role == ROLE_PROVER)
        prover_role(r->s);
}
