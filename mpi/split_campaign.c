/*
 * mpi/split_campaign.c — a campaign with "split": R > 1: the job's P ranks
 * form P / R groups of R consecutive ranks (MPI_Comm_split, color = rank /
 * R), and each group proves one unit at a time split over its ranks
 * (mpi_split_prove on the group's communicator; docs/split.md), or in a
 * "circuit": "snarkjs" campaign one sector's zkey and .wtns as `snarkjs
 * prove --split` proves them (mpi_split_prove_snarkjs, or _bn by the zkey's
 * curve). Everything below but the unit's step (params_unit, zkey_unit) is
 * the same for both.
 *
 * DESIGN
 *  - One thread per rank makes every MPI call (the main thread: no roles
 *    pool, so MPI_THREAD_SERIALIZED holds trivially); the rank's pool only
 *    computes, inside mpi_split_prove and the witness.
 *  - No batching or pipelining: a group proves one unit at a time, every
 *    rank of it synthesizing the unit's whole witness itself (as
 *    `prove --split` does; cheap next to the MSMs, and nothing about the
 *    witness crosses the network). batch_size, pipeline_depth,
 *    resources.domains, gpus and mem_budget do not apply.
 *  - The dispatch protocol is dispatch.c's, spoken by each group's leader
 *    (group rank 0) alone: REQ for units to keep LEADER_AHEAD queued
 *    beside the one being proved (asked for as each unit starts, so that
 *    the next are there when it ends; the tail rule gives "retry" to a
 *    leader that still has work once fewer than one unit per group is
 *    left), RESULT, ERROR, INTR. World rank 0 is group 0's leader and the dispatcher: between two
 *    of its own units it answers the other leaders (mr_root_serve), checks,
 *    writes and journals their proofs; its own go through mr_root_local.
 *    A leader's request waits at most one of rank 0's units, which the
 *    queued units cover.
 *  - Per unit, in each group: the leader gets the next unit (or "stop") and
 *    broadcasts it to the group; the group agrees on a stop request (the
 *    largest signal number any of its ranks saw: so SIGTERM to any one rank
 *    stops its group, whose leader tells rank 0, which hands out nothing
 *    more); each rank checks the parameter file is the one its node
 *    digested, synthesizes the witness, and the group agrees on both
 *    (mpi_split_agree); then mpi_split_prove. A unit being proved when a
 *    signal lands is finished, written and journaled; the queued ones are
 *    dropped unjournaled (a rerun proves them).
 *  - A zkey unit: no witness synthesis and no per-node digest; each rank
 *    reads the curve from the zkey's prime (the group agrees on it, so that
 *    no two ranks enter different provers), then its slices of the zkey and
 *    the .wtns values they need, at every unit. The group's leader draws r,
 *    s and checks the proof as `snarkjs prove --split` does (subgroup, then
 *    the zkey's verifying key with the .wtns's public inputs) before any
 *    rank returns; verify is always "rank" (rank 0 holds no key), and errors
 *    name the sector after the group's rank.
 *  - The key: the parameter file's digest is checked once per node before
 *    any unit (run.c, as for unsplit campaigns); mpi_split_prove reads the
 *    rank's slices at every unit (it keeps nothing between proofs), with
 *    every point of the slice checked at the group's first unit and trusted
 *    afterwards, or trusted from the start with trust_params or the
 *    .checked stamp of its digest; in every case the file's device, inode,
 *    size and mtime are compared with those its node digested before each
 *    unit (a changed file fails the unit).
 *  - Errors: a failing unit fails on every rank of its group
 *    (mpi_split_prove's agreement); the leader sends it to rank 0, which
 *    stops the hand-out; the group ends. A rank that dies makes mpirun abort
 *    the job: rank 0 writes a proof only once its group agreed on it, so
 *    nothing partial is written, and the journal resumes.
 *  - The accounts: each leader sums its ranks' mpi_split_rank_t over its
 *    units (times, bytes and waits added; key bytes, points and peaks the
 *    largest) and sends them to rank 0 before the ranks' DONE metrics; the
 *    report has them per group (report.c).
 *  - Waiting: a rank idle in a broadcast or reduction of the group (the
 *    leader waiting for work, rank 0 writing) sleeps between tests
 *    (mr_wait_idle) instead of spinning on a core the working ranks need.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/mpi_internal.h"
#include "params/params.h"

#define UNIT_STOP UINT64_MAX /* the group ends: no more work, an error, or rank 0 stopping */
/* Units a leader other than rank 0 keeps queued beside the one it proves.
 * Rank 0 answers only between two of its own units, so a request made as a
 * unit starts is answered up to one unit later: with one queued, the group
 * would often finish first and wait; with two, the answer has a unit's time
 * to spare. */
#define LEADER_AHEAD 2

typedef struct {
    mr_comm_t *cm;
    const mr_split_env_t *env;
    mr_state_t *s;
    MPI_Comm world, group;
    int rank, grank, gsize;
    bool leader, root;
    /* the leader's queue and requests (not rank 0: it takes from the list directly) */
    uint64_t queue[LEADER_AHEAD];
    size_t nqueue, refused; /* refused: the pending count of a request answered "retry"; ask again below it */
    size_t req_pend;        /* the pending count the outstanding request said */
    bool req_out, no_more;
    int sig_sent;
    uint8_t *buf;
    size_t buflen;
    mpi_split_rank_t *acc; /* leader: [gsize], summed over the group's units */
    bool slices_checked;   /* every point of this rank's slices checked once */
} sc_t;

int mr_split_state_init(mr_state_t *s, const jobs_campaign_t *c, int rank, int ngroups, err_t *err)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->rank = rank;
    s->size = ngroups; /* the requesters of the tail rule: one per group */
    s->batch = 1;
    s->todo_cap = 1;
    if (!(s->todo = calloc(1, sizeof *s->todo))) /* unused; marks the state as initialised for mr_state_free */
        return gm_err_set(err, GM_ENOMEM, "rank state: out of memory");
    s->rank_verifies = c->verify != JOBS_VERIFY_ROOT;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    return 0;
}

static void nap(void)
{
    const struct timespec t = {0, 2 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* ---- a leader other than rank 0: requests and the queue ---- */

/* Asks for one more unit when fewer than LEADER_AHEAD are queued beside
 * the one in flight (inflight: the unit about to be proved, 0 or 1). */
static void leader_request(sc_t *g, size_t inflight)
{
    size_t pend = g->nqueue + inflight;
    if (g->no_more || g->req_out || g->nqueue >= LEADER_AHEAD || pend > LEADER_AHEAD || (g->refused && pend >= g->refused) || g->sig_sent)
        return;
    int32_t req[2] = {(int32_t)(LEADER_AHEAD - g->nqueue), (int32_t)pend};
    MPI_Send(req, 2, MPI_INT32_T, 0, MR_TAG_REQ, g->world);
    g->req_out = true;
    g->req_pend = pend;
}

/* Receives a WORK answer if one is there. */
static bool leader_receive(sc_t *g)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, MR_TAG_WORK, g->world, &flag, &st);
    if (!flag)
        return false;
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    uint64_t units[JOBS_MAX_BATCH * 4];
    if (n < 0 || (size_t)n > sizeof units)
        n = 0; /* cannot be: a leader asks for one */
    MPI_Recv(units, n, MPI_BYTE, 0, MR_TAG_WORK, g->world, MPI_STATUS_IGNORE);
    size_t nu = (size_t)n / sizeof(uint64_t);
    g->req_out = false;
    g->refused = 0;
    if (nu == 1 && units[0] == UINT64_MAX)
        g->refused = g->req_pend ? g->req_pend : 1;
    else if (nu == 0)
        g->no_more = true;
    else
        for (size_t i = 0; i < nu && g->nqueue < LEADER_AHEAD && !g->sig_sent; i++)
            g->queue[g->nqueue++] = units[i];
    return true;
}

/* The leader's next unit, or UNIT_STOP; waits (asleep) for rank 0's answer. */
static uint64_t leader_next(sc_t *g)
{
    for (;;) {
        if (g->env->interrupt && *g->env->interrupt)
            return UNIT_STOP; /* its own stop request: the group's agreement that follows tells rank 0 */
        bool got = leader_receive(g);
        if (g->nqueue) {
            uint64_t u = g->queue[0];
            memmove(g->queue, g->queue + 1, (g->nqueue - 1) * sizeof g->queue[0]);
            g->nqueue--;
            leader_request(g, 1); /* the next one, asked for while this one is proved */
            return u;
        }
        if (!g->req_out && g->no_more)
            return UNIT_STOP;
        leader_request(g, 0);
        if (!got)
            nap();
    }
}

/* A stop request seen by the group: tell rank 0 (once) and drop the queue. */
static void leader_stop(sc_t *g, int sig)
{
    g->nqueue = 0;
    if (g->root) {
        mr_root_interrupt(g->cm, sig);
        return;
    }
    if (!g->sig_sent) {
        int32_t sv = sig;
        MPI_Send(&sv, 1, MPI_INT32_T, 0, MR_TAG_INTR, g->world);
        g->sig_sent = sig;
        g->cm->interrupted = sig;
    }
}

/* ---- rank 0 ---- */

static uint64_t root_next(sc_t *g)
{
    mr_comm_t *cm = g->cm;
    (void)mr_root_serve(cm);
    mr_root_check_stop(cm);
    mr_progress(cm, false);
    uint64_t u;
    size_t n = mr_hand_out(cm, &u, 1, 0);
    return n == 1 ? u : UNIT_STOP;
}

/* ---- every rank ---- */

static int group_max(sc_t *g, int v)
{
    int out = v;
    MPI_Request req;
    MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_MAX, g->group, &req);
    mr_wait_idle(&req);
    return out;
}

/* Adds one unit's accounts into the leader's sums. */
static void acc_add(sc_t *g, const mpi_split_rank_t *r)
{
    for (int i = 0; i < g->gsize; i++) {
        mpi_split_rank_t *a = &g->acc[i];
        const mpi_split_rank_t *b = &r[i];
        a->rank = g->rank + i;
        a->key_bytes = b->key_bytes > a->key_bytes ? b->key_bytes : a->key_bytes;
        a->points = b->points > a->points ? b->points : a->points;
        a->coefs_read += b->coefs_read;
        a->ntt_bytes = b->ntt_bytes > a->ntt_bytes ? b->ntt_bytes : a->ntt_bytes;
        a->mem_peak = b->mem_peak > a->mem_peak ? b->mem_peak : a->mem_peak;
        a->rss_peak = b->rss_peak > a->rss_peak ? b->rss_peak : a->rss_peak;
        a->load_ns += b->load_ns, a->abc_ns += b->abc_ns, a->h_ns += b->h_ns;
        a->msm_ns += b->msm_ns, a->total_ns += b->total_ns;
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++)
            a->sent[s] += b->sent[s], a->recv[s] += b->recv[s], a->wait_ns[s] += b->wait_ns[s];
    }
}

/* The end of a unit proved on this rank (t0: its start): the counts;
 * leader: the group's accounts. */
static void unit_counted(sc_t *g, uint64_t t0, const mpi_split_rank_t *ranks)
{
    mr_state_t *s = g->s;
    s->m.units++;
    if (!s->t_first)
        s->t_first = t0;
    s->t_last = gm_now_ns();
    if (g->leader && g->acc)
        acc_add(g, ranks);
}

/* Unit u of a parameter-file campaign on this rank: the file check and the
 * witness, agreed on by the group, then the split proof. Leader: *res
 * filled (res->pub malloc'd). *agreed: the status is the group's (every
 * rank returns it), not the leader's alone. */
static int params_unit(sc_t *g, uint64_t u, mr_result_t *res, bool *agreed, err_t *err)
{
    const mr_split_env_t *env = g->env;
    mr_state_t *s = g->s;
    cs_t *cs = NULL;
    mpi_split_rank_t *ranks = NULL;
    int rc = 0;
    *agreed = true;
    /* Whatever the point checks: the slices must come from the digested file. */
    params_ident_t now;
    if (!(rc = params_ident(&now, env->params_path, err)) && !params_ident_eq(&now, env->ident))
        rc = gm_err_set(err, GM_EVERIFY, "%s: changed since this node checked its digest", env->params_path);
    uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
    if (!rc)
        rc = jobs_source_witness(env->src, (size_t)u, &cs, err);
    s->m.wall_ns[MR_WITNESS] += gm_now_ns() - t0;
    s->m.cpu_ns[MR_WITNESS] += gm_thread_cpu_ns() - c0;
    if ((rc = mpi_split_agree(&g->group, rc, err)))
        goto out;
    groth16_witness_t w;
    groth16_witness_of(&w, cs); /* PoRep units are compact: mpi_split_prove expands them */
    mpi_split_job_t job = {.params_path = env->params_path, .shape = env->shape, .w = &w, .rs = NULL,
                           .load_flags = env->trust || g->slices_checked ? GROTH16_LOAD_TRUST : GROTH16_LOAD_DEFAULT,
                           .prove_flags = s->rank_verifies ? GROTH16_PROVE_DEFAULT : GROTH16_PROVE_NO_VERIFY,
                           .pool = env->pool, .comm = &g->group};
    groth16_proof_t proof;
    t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
    uint64_t p0 = topo_pool_cpu_ns(env->pool);
    rc = mpi_split_prove(&proof, &ranks, &job, err);
    s->m.wall_ns[MR_PROVE] += gm_now_ns() - t0;
    s->m.cpu_ns[MR_PROVE] += gm_thread_cpu_ns() - c0 + topo_pool_cpu_ns(env->pool) - p0;
    if (rc)
        goto out;
    g->slices_checked = true;
    unit_counted(g, t0, ranks);
    if (!g->leader)
        goto out;
    *agreed = false;
    if (mr_result_bls(res, u, g->rank, s->rank_verifies, &proof, w.inputs + 1, (uint32_t)(w.n_inputs - 1)))
        rc = gm_err_set(err, GM_ENOMEM, "rank %d: out of memory for a result", g->rank);
out:
    free(ranks);
    cs_destroy(cs);
    return rc;
}

/* err's message with the sector named after its "rank R: " (name_group
 * reads that prefix), or first. Returns rc. */
static int name_sector(int rc, const jobs_sector_t *sec, err_t *err)
{
    int r = -1, off = 0;
    err_t e = *err;
    if (sscanf(e.msg, "rank %d: %n", &r, &off) == 1 && off > 0)
        return gm_err_set(err, rc, "rank %d: sector %s: %s", r, sec->id, e.msg + off);
    return gm_err_set(err, rc, "sector %s: %s", sec->id, e.msg);
}

/* Unit u of a "snarkjs" campaign on this rank: its sector's zkey and .wtns
 * read in slices by the split prover of the zkey's curve, as `snarkjs
 * prove --split` reads them (the curve read by every rank from the zkey's
 * prime, and agreed on by the group), r and s drawn by the group's leader.
 * The leader checks the proof as that command does before any rank returns
 * (in the subgroup, then verified against the zkey's verifying key with the
 * .wtns's public inputs: the campaign's verify is "rank"), so a proof that
 * fails fails the unit on the whole group. Leader: *res filled. *agreed as
 * for params_unit. */
static int zkey_unit(sc_t *g, uint64_t u, mr_result_t *res, bool *agreed, err_t *err)
{
    mr_state_t *s = g->s;
    const jobs_campaign_t *c = s->c;
    const jobs_sector_t *sec = &c->sectors[jobs_unit_get(c, (size_t)u).sector];
    mpi_split_rank_t *ranks = NULL;
    *agreed = true;
    uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns(), p0 = topo_pool_cpu_ns(g->env->pool);
    snarkjs_curve_t curve = SNARKJS_BLS12381;
    int rc = snarkjs_curve_of_file(&curve, sec->path, err);
    if ((rc = mpi_split_agree(&g->group, rc, err)))
        return name_sector(rc, sec, err);
    /* Ranks that read another prime (another file under the path on their
     * node) would enter different provers' collectives. */
    if (group_max(g, (int)curve) != -group_max(g, -(int)curve))
        return gm_err_set(err, GM_EINVAL, "sector %s: zkey '%s': the group's ranks read different curves from it",
                          sec->id, sec->path);
    mpi_split_snarkjs_job_t job = {.zkey_path = sec->path, .wtns_path = sec->wtns, .zkey_flags = SNARKJS_ZKEY_DEFAULT,
                                   .prove_flags = GROTH16_PROVE_DEFAULT, .pool = g->env->pool, .comm = &g->group};
    groth16_proof_t proof;
    snarkjs_bn_proof_t bproof;
    fr_t *pub = NULL;
    bn_fr_t *bpub = NULL;
    size_t n_pub = 0;
    bool bn = curve == SNARKJS_BN128;
    rc = bn ? mpi_split_prove_snarkjs_bn(&bproof, &bpub, &n_pub, &ranks, &job, err)
            : mpi_split_prove_snarkjs(&proof, &pub, &n_pub, &ranks, &job, err);
    s->m.wall_ns[MR_PROVE] += gm_now_ns() - t0;
    s->m.cpu_ns[MR_PROVE] += gm_thread_cpu_ns() - c0 + topo_pool_cpu_ns(g->env->pool) - p0;
    if (rc) {
        name_sector(rc, sec, err);
        goto out;
    }
    unit_counted(g, t0, ranks);
    if (!g->leader)
        goto out;
    *agreed = false;
    if (bn ? mr_result_bn(res, u, g->rank, true, &bproof, bpub, (uint32_t)n_pub)
           : mr_result_bls(res, u, g->rank, true, &proof, pub, (uint32_t)n_pub))
        rc = gm_err_set(err, GM_ENOMEM, "rank %d: out of memory for a result", g->rank);
out:
    free(ranks);
    gm_free(pub);
    gm_free(bpub);
    return rc;
}

/* Unit u on this rank: the step of the campaign's kind. */
static int prove_unit(sc_t *g, uint64_t u, mr_result_t *res, bool *agreed, err_t *err)
{
    return g->env->zkey ? zkey_unit(g, u, res, agreed, err) : params_unit(g, u, res, agreed, err);
}

/* A group's error as the job's ranks: mpi_split_agree's "rank R: ..."
 * counts the group's ranks; the message names the group and the job's rank. */
static void name_group(sc_t *g, err_t *e)
{
    int gr = -1, off = 0;
    char rest[sizeof e->msg];
    if (sscanf(e->msg, "rank %d: %n", &gr, &off) == 1 && off > 0 && gr >= 0 && gr < g->gsize) {
        snprintf(rest, sizeof rest, "%s", e->msg + off);
        gm_err_set(e, e->code, "group %d, rank %d: %s", g->rank / g->gsize, g->rank + gr, rest);
    } else {
        snprintf(rest, sizeof rest, "%s", e->msg);
        gm_err_set(e, e->code, "group %d: %s", g->rank / g->gsize, rest);
    }
}

/* The group's loop: units until "stop", a stop request or an error. */
static void group_loop(sc_t *g)
{
    mr_state_t *s = g->s;
    for (;;) {
        uint64_t t0 = gm_now_ns();
        uint64_t u = 0;
        if (g->leader)
            u = g->root ? root_next(g) : leader_next(g);
        MPI_Request req;
        MPI_Ibcast(&u, 1, MPI_UINT64_T, 0, g->group, &req);
        mr_wait_idle(&req);
        int sig = group_max(g, g->env->interrupt ? (int)*g->env->interrupt : 0);
        s->m.wall_ns[MR_WAIT] += gm_now_ns() - t0;
        if (sig && g->leader)
            leader_stop(g, sig);
        if (u == UNIT_STOP || sig)
            return;
        mr_result_t res;
        memset(&res, 0, sizeof res);
        err_t e;
        gm_err_clear(&e);
        bool agreed = true;
        int rc = prove_unit(g, u, &res, &agreed, &e);
        if (rc && g->leader)
            name_group(g, &e);
        if (rc && g->leader) {
            if (g->root) {
                err_t e2;
                gm_err_set(&e2, rc, "rank 0 (%s): %s", g->cm->host, e.msg);
                mr_root_fail(g->cm, rc, &e2);
            } else {
                e.code = rc;
                mr_send_error(g->cm->comm, g->cm->host, &e);
            }
        } else if (g->leader) {
            uint64_t t1 = gm_now_ns(), c1 = gm_thread_cpu_ns();
            if (g->root)
                mr_root_local(g->cm, &res);
            else
                mr_send_result(g->cm->comm, &res, &g->buf, &g->buflen);
            s->m.wall_ns[MR_IO] += gm_now_ns() - t1;
            s->m.cpu_ns[MR_IO] += gm_thread_cpu_ns() - c1;
        }
        free(res.pub);
        if (rc && agreed) /* the same on every rank of the group */
            return;
        if (rc) { /* the leader's alone: the group's next unit is "stop" */
            g->no_more = true;
            g->nqueue = 0;
        }
    }
}

/* The metrics every rank sends: identity and memory (gather.c); the CPU of
 * the stages measured here (witness, prove, io; abc, ntt and msm come from
 * the leaders' accounts, wall only). */
static void finish_metrics(sc_t *g)
{
    mr_state_t *s = g->s;
    mr_metrics_finish(s);
    s->m.prep_threads = 0;
    s->m.prep_domains = 0;
    for (int st = 0; st < MR_NSTAGES; st++)
        s->m.cpu_known[st] = st == MR_WITNESS || st == MR_PROVE || st == MR_IO || st == MR_WAIT;
}

void mr_split_run(mr_comm_t *cm, const mr_split_env_t *env)
{
    mr_state_t *s = cm->s;
    sc_t g;
    memset(&g, 0, sizeof g);
    g.cm = cm;
    g.env = env;
    g.s = s;
    g.world = *(MPI_Comm *)cm->comm;
    MPI_Comm_rank(g.world, &g.rank);
    int R = (int)cm->c->split;
    MPI_Comm_split(g.world, g.rank / R, g.rank, &g.group);
    MPI_Comm_rank(g.group, &g.grank);
    MPI_Comm_size(g.group, &g.gsize);
    g.leader = g.grank == 0;
    g.root = g.rank == 0;
    s->t_start = gm_now_ns();
    if (g.root) {
        cm->t0 = s->t_start;
        cm->last_progress = cm->t0;
        mr_progress(cm, true);
    }
    if (g.leader && !(g.acc = calloc((size_t)g.gsize, sizeof *g.acc))) {
        err_t e;
        gm_err_set(&e, GM_ENOMEM, "rank %d: out of memory for the split accounts", g.rank);
        if (g.root)
            mr_root_fail(cm, GM_ENOMEM, &e);
        else
            mr_send_error(cm->comm, cm->host, &e);
        g.no_more = true;
    }
    group_loop(&g); /* a leader without accounts stops at once: no_more, or rank 0's failure */
    if (g.leader && !g.root) {
        while (g.req_out) /* rank 0 answers every request */
            if (!leader_receive(&g))
                nap();
        if (g.acc)
            MPI_Send(g.acc, (int)((size_t)g.gsize * sizeof *g.acc), MPI_BYTE, 0, MR_TAG_SPLIT, g.world);
    }
    if (g.root && g.acc && cm->split)
        memcpy(cm->split, g.acc, (size_t)g.gsize * sizeof *g.acc);
    finish_metrics(&g);
    if (!g.root) {
        MPI_Send(&s->m, (int)sizeof s->m, MPI_BYTE, 0, MR_TAG_DONE, g.world);
    } else {
        int size;
        MPI_Comm_size(g.world, &size);
        mr_root_wait_done(cm, size);
        finish_metrics(&g); /* again: the serving above is rank 0's io */
        cm->all[0] = s->m;
        mr_root_buffers_free(cm);
        /* abc, ntt and msm as the leaders measured them on each rank */
        for (int r = 0; cm->split && r < size && r < cm->split_ranks; r++) {
            cm->all[r].wall_ns[MR_ABC] = cm->split[r].abc_ns;
            cm->all[r].wall_ns[MR_NTT] = cm->split[r].h_ns;
            cm->all[r].wall_ns[MR_MSM] = cm->split[r].msm_ns;
            cm->all[r].params_bytes = cm->split[r].key_bytes;
        }
    }
    free(g.acc);
    free(g.buf);
    MPI_Comm_free(&g.group);
}
