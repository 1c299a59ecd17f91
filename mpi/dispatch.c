/*
 * mpi/dispatch.c — the comm role: the one thread of a rank that calls MPI
 * while units are handed out (task 0 of the role pool, see pipeline.c; the
 * phases before and after it call MPI from the main thread, mpi/run.c).
 *
 * DESIGN
 *  - Protocol (all point-to-point, MPI_COMM_WORLD dup, bytes):
 *      REQ    rank r -> 0   int32[2]: units wanted (the batch size), units
 *                           the rank still has queued or in flight
 *      WORK   0 -> r        uint64[n]: unit numbers; n = 0 means "no more";
 *                           the single value UINT64_MAX means "retry when
 *                           your queue is shorter" (the tail rule below)
 *      RESULT r -> 0        header (unit, rank, verified, n_pub, curve,
 *                           proof_len) + the proof (192 bytes; a bn128
 *                           unit's 256) + n_pub * 32 bytes of public inputs
 *                           (Fr LE, of the unit's curve)
 *      ERROR  r -> 0        int32 code + message text
 *      DONE   r -> 0        mr_metrics_t (last message of a rank)
 *      INTR   r -> 0        int32 signal number: the rank was asked to stop
 *      SPLIT  r -> 0        a split campaign's group leader, before its DONE:
 *                           its group's mpi_split_rank_t (split_campaign.c,
 *                           which speaks this protocol from each group's
 *                           leader, with rank 0 serving between its units)
 *  - Dynamic hand-out: a rank asks for k units as soon as fewer than 2k are
 *    queued or in flight on it (one request outstanding at a time), so the
 *    next batch is already there when the current one ends. Rank 0 serves
 *    its own pipeline from the same pending list, in the same loop, without
 *    messages. Units are handed out in increasing order (partition-major), so
 *    a batch holds k different sectors. The tail rule: once fewer units are
 *    left than one batch per rank, a rank that still has work gets "retry"
 *    instead of a prefetch, so idle ranks get the tail first.
 *  - Rank 0's comm role is also the writer: it verifies a proof when the
 *    policy asks for it or the rank did not, writes it (resume.c), appends
 *    the journal and calls the progress function every progress_interval
 *    seconds. A bad proof or a failed write stops the hand-out (every later
 *    REQ gets "no more") and the run ends with that error once every rank
 *    has sent DONE.
 *  - Stop requests (SIGTERM, SIGINT: mpi_opts_t.interrupt, set by the
 *    caller's handler; only read here, once per loop turn): the rank drops
 *    the units queued and not started (drain_locked) and asks for no more; a
 *    rank other than 0 tells rank 0 (INTR), which then hands out nothing more
 *    to anyone ("no more"), but keeps taking, checking, writing and
 *    journaling the results of units already being made, so no finished
 *    proof is lost. Dropped units are simply not journaled: a rerun proves
 *    them. Units handed out after the stop are dropped on arrival.
 *  - Polling: each loop turn does MPI_Iprobe and the queues; when nothing
 *    happened it sleeps on the rank's condition variable for 2 ms (woken at
 *    once by a local event), so an idle comm thread costs little CPU.
 *  - Blocking sends are safe: every message is small (a proof, a unit list)
 *    except DONE (about 12 KiB), and the receiver is always polling.
 */
#include <mpi.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/mpi_internal.h"

#define TAG_REQ MR_TAG_REQ
#define TAG_WORK MR_TAG_WORK
#define TAG_RESULT MR_TAG_RESULT
#define TAG_ERROR MR_TAG_ERROR
#define TAG_DONE MR_TAG_DONE
#define TAG_INTR MR_TAG_INTR

typedef struct {
    uint64_t unit;
    uint32_t rank, verified, n_pub, curve, proof_len, pad;
} wire_hdr_t;

static wire_hdr_t wire_hdr(const mr_result_t *r)
{
    wire_hdr_t h = {r->unit, r->rank, r->verified, r->n_pub, r->curve, r->proof_len, 0};
    return h;
}

/* The proof length of a curve's units; 0 for a value no rank sends. */
static uint32_t curve_proof_len(uint32_t curve)
{
    return curve == SNARKJS_BLS12381 ? GROTH16_PROOF_BYTES : curve == SNARKJS_BN128 ? SNARKJS_BN_PROOF_BYTES : 0;
}

static void timed_wait(mr_state_t *s, uint64_t ns)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t t = (uint64_t)ts.tv_nsec + ns;
    ts.tv_sec += (time_t)(t / 1000000000ULL);
    ts.tv_nsec = (long)(t % 1000000000ULL);
    pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

/* Moves the local results out (lock held). */
static mr_result_t *take_results_locked(mr_state_t *s, size_t *n)
{
    *n = s->nresults;
    if (!*n)
        return NULL;
    mr_result_t *r = malloc(*n * sizeof *r);
    if (!r) {
        *n = 0;
        return NULL; /* retried next turn */
    }
    memcpy(r, s->results, *n * sizeof *r);
    s->nresults = 0;
    return r;
}

static void push_units_locked(mr_state_t *s, const uint64_t *u, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        GM_ASSERT(s->todo_len < s->todo_cap);
        s->todo[(s->todo_head + s->todo_len) % s->todo_cap] = (size_t)u[i];
        s->todo_len++;
    }
    pthread_cond_broadcast(&s->cv);
}

/* A stop request: forget the units queued and not started and take no more
 * (lock held). Units being synthesized or proved finish as usual. */
static void drain_locked(mr_state_t *s)
{
    s->todo_len = 0;
    s->no_more = true;
    pthread_cond_broadcast(&s->cv);
}

/* The signal number when a stop was requested and not yet acted on, else 0. */
static int stop_requested(const mr_comm_t *cm)
{
    if (cm->interrupted || !cm->interrupt)
        return 0;
    int sig = (int)*cm->interrupt;
    return sig;
}

/* ==== ranks other than 0 ============================================================ */

static int result_pub(mr_result_t *r, uint64_t unit, int rank, bool verified, uint32_t curve, uint32_t n_pub)
{
    memset(r, 0, sizeof *r);
    r->unit = unit;
    r->rank = (uint32_t)rank;
    r->verified = verified;
    r->n_pub = n_pub;
    r->curve = curve;
    r->proof_len = curve_proof_len(curve);
    r->pub = malloc((size_t)n_pub * FR_BYTES + 1);
    return r->pub ? 0 : GM_ENOMEM;
}

int mr_result_bls(mr_result_t *r, uint64_t unit, int rank, bool verified, const groth16_proof_t *proof,
                  const fr_t *pub, uint32_t n_pub)
{
    if (result_pub(r, unit, rank, verified, SNARKJS_BLS12381, n_pub))
        return GM_ENOMEM;
    groth16_proof_to_bytes(r->proof, proof);
    for (uint32_t j = 0; j < n_pub; j++)
        fr_to_bytes_le(r->pub + (size_t)j * FR_BYTES, &pub[j]);
    return 0;
}

int mr_result_bn(mr_result_t *r, uint64_t unit, int rank, bool verified, const snarkjs_bn_proof_t *proof,
                 const bn_fr_t *pub, uint32_t n_pub)
{
    if (result_pub(r, unit, rank, verified, SNARKJS_BN128, n_pub))
        return GM_ENOMEM;
    snarkjs_bn_proof_to_bytes(r->proof, proof);
    for (uint32_t j = 0; j < n_pub; j++)
        bn_fr_to_bytes_le(r->pub + (size_t)j * FR_BYTES, &pub[j]);
    return 0;
}

void mr_send_result(void *comm, const mr_result_t *r, uint8_t **buf, size_t *buflen)
{
    size_t len = sizeof(wire_hdr_t) + r->proof_len + (size_t)r->n_pub * FR_BYTES;
    if (len > *buflen) {
        uint8_t *nb = realloc(*buf, len);
        if (nb)
            *buf = nb, *buflen = len;
    }
    wire_hdr_t h = wire_hdr(r);
    if (!*buf || len > *buflen)
        return; /* out of memory: rank 0 never sees the unit, which stays unjournaled */
    memcpy(*buf, &h, sizeof h);
    memcpy(*buf + sizeof h, r->proof, r->proof_len);
    memcpy(*buf + sizeof h + r->proof_len, r->pub, (size_t)r->n_pub * FR_BYTES);
    MPI_Send(*buf, (int)len, MPI_BYTE, 0, TAG_RESULT, *(MPI_Comm *)comm);
}

void mr_send_error(void *comm, const char *host, const err_t *e)
{
    char msg[sizeof(int32_t) + GM_ERR_MSG_LEN];
    int32_t code = e->code;
    memcpy(msg, &code, sizeof code);
    int ml = snprintf(msg + sizeof code, GM_ERR_MSG_LEN, "(%s): %s", host, e->msg);
    if (ml < 0)
        ml = 0;
    if (ml > GM_ERR_MSG_LEN - 1)
        ml = GM_ERR_MSG_LEN - 1;
    MPI_Send(msg, (int)sizeof code + ml, MPI_BYTE, 0, TAG_ERROR, *(MPI_Comm *)comm);
}

void mr_comm_worker(void *arg)
{
    mr_comm_t *cm = arg;
    mr_state_t *s = cm->s;
    MPI_Comm comm = *(MPI_Comm *)cm->comm;
    int32_t req[2] = {(int32_t)s->batch, 0};
    bool req_out = false, error_sent = false;
    size_t refused = 0; /* pending count at the last "retry": ask again below it */
    size_t buflen = sizeof(wire_hdr_t) + MR_PROOF_MAX + 64 * FR_BYTES;
    uint8_t *buf = malloc(buflen);
    uint64_t *units = malloc((size_t)JOBS_MAX_BATCH * 4 * sizeof *units);
    for (;;) {
        bool did = false;
        int sig = stop_requested(cm);
        pthread_mutex_lock(&s->mu);
        if (sig) {
            cm->interrupted = sig;
            drain_locked(s);
        }
        size_t pend = mr_pending_locked(s);
        bool need = !s->no_more && !req_out && !s->abort && pend < 2 * (size_t)s->batch && (!refused || pend < refused);
        size_t nres;
        mr_result_t *res = take_results_locked(s, &nres);
        bool report_err = s->fatal && !error_sent;
        err_t ferr = s->ferr;
        bool finished = s->prover_done && s->prepare_done && s->witness_done && s->nresults == 0;
        pthread_mutex_unlock(&s->mu);

        uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
        if (sig) {
            int32_t sv = (int32_t)sig;
            MPI_Send(&sv, 1, MPI_INT32_T, 0, TAG_INTR, comm);
            did = true;
        }
        if (need) {
            req[1] = (int32_t)pend;
            MPI_Send(req, 2, MPI_INT32_T, 0, TAG_REQ, comm);
            req_out = true;
            did = true;
        }
        for (size_t i = 0; i < nres; i++) {
            mr_send_result(cm->comm, &res[i], &buf, &buflen);
            free(res[i].pub);
            did = true;
        }
        free(res);
        if (report_err) {
            mr_send_error(cm->comm, cm->host, &ferr);
            error_sent = true;
            did = true;
        }
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, TAG_WORK, comm, &flag, &st);
        if (flag) {
            int n = 0;
            MPI_Get_count(&st, MPI_BYTE, &n);
            size_t nu = (size_t)n / sizeof(uint64_t);
            GM_ASSERT(nu <= (size_t)JOBS_MAX_BATCH * 4);
            MPI_Recv(units, n, MPI_BYTE, 0, TAG_WORK, comm, MPI_STATUS_IGNORE);
            pthread_mutex_lock(&s->mu);
            refused = 0;
            if (nu == 1 && units[0] == UINT64_MAX)
                refused = mr_pending_locked(s) ? mr_pending_locked(s) : 1;
            else if (nu == 0)
                s->no_more = true;
            else if (!cm->interrupted)
                push_units_locked(s, units, nu);
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            req_out = false;
            did = true;
        }
        if (did) {
            s->m.wall_ns[MR_IO] += gm_now_ns() - t0;
            s->m.cpu_ns[MR_IO] += gm_thread_cpu_ns() - c0;
        }
        if (finished && !req_out)
            break;
        if (!did) {
            pthread_mutex_lock(&s->mu);
            timed_wait(s, 2000000);
            pthread_mutex_unlock(&s->mu);
        }
    }
    mr_metrics_finish(s);
    MPI_Send(&s->m, (int)sizeof s->m, MPI_BYTE, 0, TAG_DONE, comm);
    free(buf);
    free(units);
}

/* ==== rank 0 ============================================================================= */

/* What a request gets: up to `want` units; none ("no more") when the list is
 * exhausted or the run is stopping; or RETRY when the requester still has
 * work and what is left would not give every rank a batch (the tail goes to
 * idle ranks first, so a prefetching rank does not hoard it). */
#define RETRY MR_RETRY
size_t mr_hand_out(mr_comm_t *cm, uint64_t *units, size_t want, size_t requester_pending)
{
    size_t left = cm->npending - cm->next;
    if (cm->stop || cm->interrupted || left == 0)
        return 0;
    if (requester_pending > 0 && left < (size_t)cm->s->size * cm->s->batch)
        return RETRY;
    size_t n = 0;
    while (n < want && cm->next < cm->npending)
        units[n++] = cm->pending[cm->next++];
    return n;
}

void mr_root_fail(mr_comm_t *cm, int code, const err_t *e)
{
    if (!cm->fatal) {
        cm->fatal = code;
        cm->ferr = *e;
        cm->ferr.code = code;
    }
    cm->stop = true;
    pthread_mutex_lock(&cm->s->mu);
    cm->s->abort = true;
    cm->s->no_more = true;
    pthread_cond_broadcast(&cm->s->cv);
    pthread_mutex_unlock(&cm->s->mu);
}

void mr_progress(mr_comm_t *cm, bool force)
{
    uint64_t now = gm_now_ns();
    if (!cm->progress)
        return;
    if (!force && (cm->c->progress_interval <= 0 ||
                   (double)(now - cm->last_progress) < cm->c->progress_interval * 1e9))
        return;
    cm->last_progress = now;
    mpi_progress_t p;
    memset(&p, 0, sizeof p);
    p.total = cm->total;
    p.resumed = cm->resumed;
    p.proved = cm->proved;
    p.done = cm->resumed + cm->proved;
    p.ranks = cm->split_ranks ? cm->split_ranks : cm->s->size; /* split: the job's ranks, not its groups */
    p.elapsed_s = (double)(now - cm->t0) * 1e-9;
    p.per_hour = p.elapsed_s > 0 && cm->proved ? (double)cm->proved / p.elapsed_s * 3600.0 : 0;
    p.eta_s = p.per_hour > 0 ? (double)(p.total - p.done) / (p.per_hour / 3600.0) : -1;
    cm->progress(cm->parg, &p);
}

/* A stop on some rank (sig): rank 0 hands out nothing more and drains its
 * own queue; results already on their way are still written. */
void mr_root_interrupt(mr_comm_t *cm, int sig)
{
    if (cm->interrupted)
        return;
    cm->interrupted = sig;
    pthread_mutex_lock(&cm->s->mu);
    drain_locked(cm->s);
    pthread_mutex_unlock(&cm->s->mu);
    if (cm->progress) {
        char line[160];
        snprintf(line, sizeof line,
                 "stopping (signal %d): no new units; finishing and writing the units in flight (a second signal "
                 "aborts at once)", sig);
        mpi_progress_t p;
        memset(&p, 0, sizeof p);
        p.eta_s = -1;
        p.note = line;
        cm->progress(cm->parg, &p);
    }
}

/* Verifies (when needed) and writes one proof. */
static void root_take(mr_comm_t *cm, const wire_hdr_t *h, const uint8_t *proof, const uint8_t *pub)
{
    mr_state_t *s = cm->s;
    err_t e;
    gm_err_clear(&e);
    char name[JOBS_ID_LEN + 16];
    if (h->unit >= cm->total || cm->written[h->unit]) {
        gm_err_set(&e, GM_EINVAL, "rank %u sent unit %llu, which %s", h->rank, (unsigned long long)h->unit,
                   h->unit >= cm->total ? "does not exist" : "is already written");
        mr_root_fail(cm, GM_EINVAL, &e);
        return;
    }
    jobs_unit_name(name, sizeof name, cm->c, h->unit);
    fr_t *in = calloc(h->n_pub + 1, sizeof *in);
    json_t *arr = json_array();
    char *text = NULL;
    if (!in || !arr) {
        gm_err_set(&e, GM_ENOMEM, "unit %s: out of memory", name);
        mr_root_fail(cm, GM_ENOMEM, &e);
        goto out;
    }
    for (uint32_t j = 0; j < h->n_pub; j++) {
        char dec[FR_DEC_MAX > BN254_DEC_MAX ? FR_DEC_MAX : BN254_DEC_MAX];
        bn_fr_t bj;
        bool bad = h->curve == SNARKJS_BN128 ? bn_fr_from_bytes_le(&bj, pub + (size_t)j * FR_BYTES) != 0
                                             : fr_from_bytes_le(&in[j], pub + (size_t)j * FR_BYTES) != 0;
        if (bad) {
            gm_err_set(&e, GM_ENONCANON, "unit %s from rank %u: public input %u is not canonical", name, h->rank, j);
            mr_root_fail(cm, GM_ENONCANON, &e);
            goto out;
        }
        if (h->curve == SNARKJS_BN128)
            bn_fr_to_dec(dec, &bj);
        else
            fr_to_dec(dec, &in[j]);
        json_array_append_new(arr, json_string(dec));
    }
    bool check = cm->c->verify != JOBS_VERIFY_RANK || !h->verified;
    if (check && (h->curve != SNARKJS_BLS12381 || !s->pvk)) {
        /* a zkey unit's key is its proving rank's alone: that rank checks every proof */
        gm_err_set(&e, GM_EINVAL, "unit %s from rank %u: unchecked, and rank 0 holds no key to check it", name,
                   h->rank);
        mr_root_fail(cm, GM_EINVAL, &e);
        goto out;
    }
    if (check) {
        uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
        groth16_proof_t pf;
        char what[JOBS_ID_LEN + 64];
        snprintf(what, sizeof what, "unit %s from rank %u", name, h->rank);
        int rc = groth16_proof_from_bytes(&pf, proof, what, &e);
        if (!rc)
            rc = groth16_verify(s->pvk, &pf, in, h->n_pub, &e);
        s->m.wall_ns[MR_VERIFY] += gm_now_ns() - t0;
        s->m.cpu_ns[MR_VERIFY] += gm_thread_cpu_ns() - c0;
        if (rc) {
            err_t e2;
            gm_err_set(&e2, rc, "unit %s from rank %u: rank 0's check failed: %s", name, h->rank, e.msg);
            mr_root_fail(cm, rc, &e2);
            goto out;
        }
        cm->root_verified++;
    }
    text = json_dumps(arr, JSON_INDENT(1));
    if (!text) {
        gm_err_set(&e, GM_ENOMEM, "unit %s: out of memory", name);
        mr_root_fail(cm, GM_ENOMEM, &e);
        goto out;
    }
    uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
    int rc = mr_out_write(cm->out, h->unit, proof, h->proof_len, (snarkjs_curve_t)h->curve, text, (int)h->rank, &e);
    s->m.wall_ns[MR_IO] += gm_now_ns() - t0;
    s->m.cpu_ns[MR_IO] += gm_thread_cpu_ns() - c0;
    if (rc) {
        mr_root_fail(cm, rc, &e);
        goto out;
    }
    cm->written[h->unit] = true;
    cm->proved++;
out:
    free(text);
    json_decref(arr);
    free(in);
}

void mr_root_check_stop(mr_comm_t *cm)
{
    int sig = stop_requested(cm);
    if (sig)
        mr_root_interrupt(cm, sig);
}

void mr_root_local(mr_comm_t *cm, const mr_result_t *r)
{
    wire_hdr_t h = wire_hdr(r);
    if (!cm->stop)
        root_take(cm, &h, r->proof, r->pub);
}

/* Rank 0's buffers for mr_root_serve (freed by mr_root_buffers_free). */
static int root_buffers(mr_comm_t *cm)
{
    if (!cm->units)
        cm->units = malloc((size_t)JOBS_MAX_BATCH * 4 * sizeof *cm->units);
    if (!cm->rbuf) {
        cm->rbuflen = sizeof(wire_hdr_t) + MR_PROOF_MAX + 64 * FR_BYTES;
        cm->rbuf = malloc(cm->rbuflen);
    }
    return cm->units && cm->rbuf ? 0 : GM_ENOMEM;
}

void mr_root_buffers_free(mr_comm_t *cm)
{
    free(cm->units);
    free(cm->rbuf);
    cm->units = NULL;
    cm->rbuf = NULL;
}

bool mr_root_serve(mr_comm_t *cm)
{
    mr_state_t *s = cm->s;
    MPI_Comm comm = *(MPI_Comm *)cm->comm;
    size_t k = s->batch;
    bool did = false;
    err_t e;
    if (root_buffers(cm)) {
        gm_err_set(&e, GM_ENOMEM, "rank 0: out of memory for the dispatcher's buffers");
        mr_root_fail(cm, GM_ENOMEM, &e);
        return false;
    }
    for (int turn = 0; turn < 64; turn++) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st);
        if (!flag)
            break;
        did = true;
        int n = 0, src = st.MPI_SOURCE;
        MPI_Get_count(&st, MPI_BYTE, &n);
        uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
        if (st.MPI_TAG == TAG_REQ) {
            int32_t w[2] = {0, 0};
            MPI_Recv(w, 2, MPI_INT32_T, src, TAG_REQ, comm, MPI_STATUS_IGNORE);
            size_t got = mr_hand_out(cm, cm->units, w[0] > 0 && w[0] <= JOBS_MAX_BATCH * 4 ? (size_t)w[0] : k,
                                     w[1] > 0 ? (size_t)w[1] : 0);
            if (got == RETRY) {
                uint64_t retry = UINT64_MAX;
                MPI_Send(&retry, (int)sizeof retry, MPI_BYTE, src, TAG_WORK, comm);
            } else {
                MPI_Send(cm->units, (int)(got * sizeof *cm->units), MPI_BYTE, src, TAG_WORK, comm);
            }
        } else if (st.MPI_TAG == TAG_RESULT) {
            if ((size_t)n > cm->rbuflen) {
                uint8_t *nb = realloc(cm->rbuf, (size_t)n);
                if (nb)
                    cm->rbuf = nb, cm->rbuflen = (size_t)n;
            }
            uint8_t *rbuf = cm->rbuf;
            MPI_Recv(rbuf, n, MPI_BYTE, src, TAG_RESULT, comm, MPI_STATUS_IGNORE);
            wire_hdr_t h;
            memcpy(&h, rbuf, sizeof h);
            if ((size_t)n < sizeof h || !h.proof_len || h.proof_len != curve_proof_len(h.curve) ||
                (size_t)n != sizeof h + h.proof_len + (size_t)h.n_pub * FR_BYTES) {
                gm_err_set(&e, GM_EMPI, "rank %d: a result message of %d bytes does not match its header", src, n);
                mr_root_fail(cm, GM_EMPI, &e);
            } else if (!cm->stop) {
                root_take(cm, &h, rbuf + sizeof h, rbuf + sizeof h + h.proof_len);
            }
        } else if (st.MPI_TAG == TAG_ERROR) {
            char msg[sizeof(int32_t) + GM_ERR_MSG_LEN + 1];
            memset(msg, 0, sizeof msg);
            MPI_Recv(msg, n < (int)sizeof msg - 1 ? n : (int)sizeof msg - 1, MPI_BYTE, src, TAG_ERROR, comm,
                     MPI_STATUS_IGNORE);
            int32_t code;
            memcpy(&code, msg, sizeof code);
            gm_err_set(&e, code ? code : GM_EINVAL, "rank %d %s", src, msg + sizeof code);
            mr_root_fail(cm, code ? code : GM_EINVAL, &e);
        } else if (st.MPI_TAG == TAG_INTR) {
            int32_t sv = 0;
            MPI_Recv(&sv, 1, MPI_INT32_T, src, TAG_INTR, comm, MPI_STATUS_IGNORE);
            mr_root_interrupt(cm, sv > 0 ? (int)sv : SIGTERM);
        } else if (st.MPI_TAG == TAG_DONE) {
            mr_metrics_t m;
            MPI_Recv(&m, (int)sizeof m, MPI_BYTE, src, TAG_DONE, comm, MPI_STATUS_IGNORE);
            if (n == (int)sizeof m)
                cm->all[src] = m;
            cm->ndone++;
        } else if (st.MPI_TAG == MR_TAG_SPLIT && cm->split && n > 0 && n % (int)sizeof(mpi_split_rank_t) == 0 &&
                   src + n / (int)sizeof(mpi_split_rank_t) <= cm->split_ranks) {
            /* a group leader's accounts of its group's ranks, from src on (split_campaign.c) */
            MPI_Recv(cm->split + src, n, MPI_BYTE, src, MR_TAG_SPLIT, comm, MPI_STATUS_IGNORE);
        } else {
            char junk[64];
            MPI_Recv(junk, n < 64 ? n : 64, MPI_BYTE, src, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
        }
        s->m.wall_ns[MR_IO] += gm_now_ns() - t0;
        s->m.cpu_ns[MR_IO] += gm_thread_cpu_ns() - c0;
    }
    return did;
}

void mr_root_wait_done(mr_comm_t *cm, int size)
{
    const struct timespec nap = {0, 2 * 1000 * 1000};
    while (cm->ndone < size - 1) {
        mr_root_check_stop(cm);
        if (mr_root_serve(cm))
            mr_progress(cm, false);
        else
            nanosleep(&nap, NULL);
    }
    cm->wall_s = (double)(gm_now_ns() - cm->t0) * 1e-9;
    mr_progress(cm, true);
}

void mr_comm_root(void *arg)
{
    mr_comm_t *cm = arg;
    mr_state_t *s = cm->s;
    int size = s->size;
    size_t k = s->batch;
    err_t e;
    cm->t0 = gm_now_ns();
    cm->last_progress = cm->t0;
    mr_progress(cm, true);
    if (root_buffers(cm)) {
        gm_err_set(&e, GM_ENOMEM, "rank 0: out of memory for the dispatcher's buffers");
        mr_root_fail(cm, GM_ENOMEM, &e);
    }
    for (;;) {
        bool did = false;
        mr_root_check_stop(cm);
        /* the local pipeline */
        pthread_mutex_lock(&s->mu);
        size_t lp = mr_pending_locked(s);
        if (!s->no_more && lp < 2 * k && (lp < cm->local_refused || !cm->local_refused)) {
            size_t n = cm->units ? mr_hand_out(cm, cm->units, k, lp) : 0;
            cm->local_refused = 0;
            if (n == RETRY)
                cm->local_refused = lp;
            else if (n == 0)
                s->no_more = true;
            else
                push_units_locked(s, cm->units, n);
            pthread_cond_broadcast(&s->cv);
            did = n != RETRY;
        }
        size_t nres;
        mr_result_t *res = take_results_locked(s, &nres);
        int lfatal = s->fatal;
        err_t lerr = s->ferr;
        bool local_done = s->prover_done && s->prepare_done && s->witness_done && s->nresults == 0;
        pthread_mutex_unlock(&s->mu);
        if (lfatal && !cm->fatal) {
            gm_err_set(&e, lfatal, "rank 0 (%s): %s", cm->host, lerr.msg);
            mr_root_fail(cm, lfatal, &e);
        }
        for (size_t i = 0; i < nres; i++) {
            mr_root_local(cm, &res[i]);
            free(res[i].pub);
            did = true;
        }
        free(res);
        did |= mr_root_serve(cm);
        if (did)
            mr_progress(cm, false);
        if (local_done && cm->ndone == size - 1)
            break;
        if (!did) {
            pthread_mutex_lock(&s->mu);
            timed_wait(s, 2000000);
            pthread_mutex_unlock(&s->mu);
        }
    }
    cm->wall_s = (double)(gm_now_ns() - cm->t0) * 1e-9;
    mr_progress(cm, true);
    mr_metrics_finish(s);
    cm->all[0] = s->m;
    mr_root_buffers_free(cm);
}
