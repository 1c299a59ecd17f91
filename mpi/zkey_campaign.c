/*
 * mpi/zkey_campaign.c — a campaign of "circuit": "snarkjs": every sector a
 * snarkjs .zkey and a circom .wtns, one unit each, proved as `grothmpi
 * snarkjs prove` proves one.
 *
 * DESIGN
 *  - One thread per rank makes every MPI call (the main thread, as in
 *    split_campaign.c with groups of one rank); the rank's pool only
 *    computes, inside the proof. No batching or pipelining: a rank proves
 *    one unit at a time, its zkey kept loaded while consecutive units name
 *    the same file (same path, size and modification time).
 *  - The dispatch protocol is dispatch.c's: a rank other than 0 asks for one
 *    unit (REQ), proves it and sends the RESULT (or ERROR); rank 0 takes
 *    units from the pending list itself and answers the others between two
 *    of its own (mr_root_serve), then writes, journals and reports as for
 *    any campaign. A stop request is told to rank 0 (INTR) and ends the
 *    rank's loop; the unit in flight is finished and written first.
 *  - Every proof is verified by the proving rank against its own zkey's
 *    verifying key before it is sent (the campaign's verify is "rank"): rank
 *    0 holds no key for units of other zkeys.
 *  - Resident keys (mpi_opts_t.resident, grothmpi serve): the rank's
 *    loaded zkeys (key and prover) are kept between runs, each keyed by the
 *    file's path, device, inode, size and mtime (a changed file is loaded
 *    again), and counted with run.c's kept shapes in the rank's memory
 *    budget: run.c's resident_evict frees the least recently used of both
 *    stores (one clock, mr_resident_tick). Without the flag a rank keeps
 *    only its current zkey, freed at the end of the run.
 *  - zkey_prove_unit is the one place that reads a unit's files and proves.
 *    Each zkey's curve is read from its prime (snarkjs_curve_of_file), so
 *    one campaign may mix BLS12-381 and bn128 sectors; a unit's result
 *    carries its curve (mr_result_t), and its .wtns is read by that curve's
 *    reader, which names a witness of the other curve.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mpi/mpi_internal.h"

#define UNIT_STOP UINT64_MAX

/* A loaded zkey: the rank's current one, or one kept between runs; zk and
 * pv (BLS12-381) or bzk and bpv (bn128) as curve says. */
typedef struct {
    char path[JOBS_PATH_LEN];
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    snarkjs_curve_t curve;
    snarkjs_zkey_t *zk;
    snarkjs_prover_t *pv;
    snarkjs_bn_zkey_t *bzk;
    snarkjs_bn_prover_t *bpv;
    uint64_t bytes; /* the key's points and coefficients */
    uint64_t used;  /* mr_resident_tick when last taken (kept slots) */
} zkey_slot_t;

#define ZKEY_KEEP 16
static zkey_slot_t kept[ZKEY_KEEP];

static void slot_free(zkey_slot_t *z)
{
    snarkjs_prover_destroy(z->pv);
    snarkjs_zkey_free(z->zk);
    snarkjs_bn_prover_destroy(z->bpv);
    snarkjs_bn_zkey_free(z->bzk);
    memset(z, 0, sizeof *z);
}

static bool slot_loaded(const zkey_slot_t *z) { return z->zk || z->bzk; }

static bool slot_is(const zkey_slot_t *z, const char *path, const struct stat *st)
{
    return slot_loaded(z) && !strcmp(z->path, path) && z->dev == st->st_dev && z->ino == st->st_ino &&
           z->size == st->st_size && z->mtime.tv_sec == st->st_mtim.tv_sec &&
           z->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* A decoded key's bytes: points A, B1, C, H (G1), B2 (G2) and coefficients. */
#define ZKEY_BYTES(zk, g1_t, g2_t, coef_t)                                                                           \
    ((2ull * (zk)->n_vars + ((zk)->n_vars - (zk)->n_public - 1) + (zk)->domain_size) * sizeof(g1_t) +                \
     (uint64_t)(zk)->n_vars * sizeof(g2_t) + (zk)->n_coefs * sizeof(coef_t))

static uint64_t zkey_bytes(const zkey_slot_t *z)
{
    return z->zk ? ZKEY_BYTES(z->zk, g1_affine_t, g2_affine_t, snarkjs_coef_t)
                 : ZKEY_BYTES(z->bzk, bn_g1_affine_t, bn_g2_affine_t, snarkjs_bn_coef_t);
}

uint64_t mr_zkey_kept_bytes(void)
{
    uint64_t b = 0;
    for (int i = 0; i < ZKEY_KEEP; i++)
        b += slot_loaded(&kept[i]) ? kept[i].bytes : 0;
    return b;
}

bool mr_zkey_oldest(uint64_t *used)
{
    int o = -1;
    for (int i = 0; i < ZKEY_KEEP; i++)
        if (slot_loaded(&kept[i]) && (o < 0 || kept[i].used < kept[o].used))
            o = i;
    if (o >= 0)
        *used = kept[o].used;
    return o >= 0;
}

void mr_zkey_evict_oldest(void)
{
    int o = -1;
    for (int i = 0; i < ZKEY_KEEP; i++)
        if (slot_loaded(&kept[i]) && (o < 0 || kept[i].used < kept[o].used))
            o = i;
    if (o >= 0) {
        gm_log(GM_LOG_DEBUG, "resident: zkey %s evicted (%llu bytes)", kept[o].path, (unsigned long long)kept[o].bytes);
        slot_free(&kept[o]);
    }
}

void mr_zkey_release(void)
{
    for (int i = 0; i < ZKEY_KEEP; i++)
        slot_free(&kept[i]);
}

/* Keeps z (emptied) in the store: a free place, else the least recently
 * used's; the budget is run.c's to enforce (resident_evict, before each
 * run's loads). */
static void slot_keep(zkey_slot_t *z)
{
    if (!slot_loaded(z))
        return;
    int i = 0;
    for (int k = 0; k < ZKEY_KEEP; k++) {
        if (!slot_loaded(&kept[k])) {
            i = k;
            break;
        }
        if (kept[k].used < kept[i].used)
            i = k;
    }
    slot_free(&kept[i]);
    kept[i] = *z;
    kept[i].used = mr_resident_tick();
    memset(z, 0, sizeof *z);
}

static void nap(void)
{
    const struct timespec t = {0, 2 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* Makes z sec's zkey: z itself when it holds that file unchanged, a kept
 * one (resident: z goes to the store in its place), else loaded. */
static int slot_take(zkey_slot_t *z, const jobs_sector_t *sec, bool resident, topo_pool_t *pool, err_t *err)
{
    struct stat st;
    if (stat(sec->path, &st) != 0)
        return gm_err_set(err, GM_EIO, "sector %s: zkey '%s': cannot stat", sec->id, sec->path);
    if (slot_is(z, sec->path, &st))
        return 0;
    if (resident) {
        slot_keep(z);
        for (int i = 0; i < ZKEY_KEEP; i++)
            if (slot_is(&kept[i], sec->path, &st)) {
                *z = kept[i];
                memset(&kept[i], 0, sizeof kept[i]);
                return 0;
            }
    }
    slot_free(z);
    int rc = snarkjs_curve_of_file(&z->curve, sec->path, err);
    if (!rc && z->curve == SNARKJS_BN128 && !(rc = snarkjs_bn_zkey_load(&z->bzk, sec->path, SNARKJS_ZKEY_DEFAULT, pool, err)))
        rc = snarkjs_bn_prover_create(&z->bpv, z->bzk, pool, err);
    if (!rc && z->curve == SNARKJS_BLS12381 && !(rc = snarkjs_zkey_load(&z->zk, sec->path, SNARKJS_ZKEY_DEFAULT, pool, err)))
        rc = snarkjs_prover_create(&z->pv, z->zk, pool, err);
    if (rc) {
        err_t e = *err;
        slot_free(z);
        return gm_err_set(err, rc, "sector %s: %s", sec->id, e.msg);
    }
    snprintf(z->path, sizeof z->path, "%s", sec->path);
    z->dev = st.st_dev;
    z->ino = st.st_ino;
    z->size = st.st_size;
    z->mtime = st.st_mtim;
    z->bytes = zkey_bytes(z);
    return 0;
}

/* Unit u: its zkey (kept in z), its .wtns (read by the zkey's curve's
 * reader), the proof checked against the zkey's verifying key; res filled
 * (res->pub malloc'd: w[1 .. nPublic]). Stage times go to s's metrics. */
static int zkey_prove_unit(mr_state_t *s, zkey_slot_t *z, bool resident, uint64_t u, int rank, mr_result_t *res,
                           err_t *err)
{
    const jobs_campaign_t *c = s->c;
    const jobs_sector_t *sec = &c->sectors[jobs_unit_get(c, (size_t)u).sector];
    snarkjs_wtns_t w = {0};
    snarkjs_bn_wtns_t bw = {0};
    uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns(), p0 = topo_pool_cpu_ns(s->pool);
    int rc = slot_take(z, sec, resident, s->pool, err);
    bool bn = z->curve == SNARKJS_BN128;
    if (!rc && (rc = bn ? snarkjs_bn_wtns_load(&bw, sec->wtns, err) : snarkjs_wtns_load(&w, sec->wtns, err))) {
        err_t e = *err;
        gm_err_set(err, rc, "sector %s: %s", sec->id, e.msg);
    }
    size_t nw = bn ? bw.n : w.n;
    uint32_t n_vars = rc ? 0 : bn ? z->bzk->n_vars : z->zk->n_vars, n_pub = rc ? 0 : bn ? z->bzk->n_public : z->zk->n_public;
    if (!rc && nw != n_vars)
        rc = gm_err_set(err, GM_EINVAL, "sector %s: '%s' has %zu values, its zkey '%s' nVars %u", sec->id, sec->wtns,
                        nw, sec->path, n_vars);
    s->m.wall_ns[MR_WITNESS] += gm_now_ns() - t0;
    s->m.cpu_ns[MR_WITNESS] += gm_thread_cpu_ns() - c0 + topo_pool_cpu_ns(s->pool) - p0;
    if (rc)
        goto out;
    groth16_proof_t proof;
    snarkjs_bn_proof_t bproof;
    groth16_timings_t tm;
    memset(&tm, 0, sizeof tm);
    t0 = gm_now_ns(), c0 = gm_thread_cpu_ns(), p0 = topo_pool_cpu_ns(s->pool);
    rc = bn ? snarkjs_bn_prove(z->bpv, &bproof, bw.w, bw.n, NULL, GROTH16_PROVE_DEFAULT, s->pool, &tm, err)
            : snarkjs_prove(z->pv, &proof, w.w, w.n, NULL, GROTH16_PROVE_DEFAULT, s->pool, &tm, err);
    s->m.wall_ns[MR_PROVE] += gm_now_ns() - t0;
    s->m.cpu_ns[MR_PROVE] += gm_thread_cpu_ns() - c0 + topo_pool_cpu_ns(s->pool) - p0;
    if (rc) {
        err_t e = *err;
        gm_err_set(err, rc, "sector %s: %s", sec->id, e.msg);
        goto out;
    }
    s->m.wall_ns[MR_ABC] += tm.abc;
    s->m.wall_ns[MR_NTT] += tm.ntt;
    s->m.wall_ns[MR_MSM] += tm.msm_a + tm.msm_b_g1 + tm.msm_b_g2 + tm.msm_l + tm.msm_h;
    s->m.wall_ns[MR_VERIFY] += tm.verify;
    s->m.units++;
    if (!s->t_first)
        s->t_first = t0;
    s->t_last = gm_now_ns();
    if (bn ? mr_result_bn(res, u, rank, true, &bproof, bw.w + 1, n_pub)
           : mr_result_bls(res, u, rank, true, &proof, w.w + 1, n_pub))
        rc = gm_err_set(err, GM_ENOMEM, "rank %d: out of memory for a result", rank);
out:
    snarkjs_wtns_free(&w);
    snarkjs_bn_wtns_free(&bw);
    return rc;
}

/* A rank other than 0: one unit from rank 0, or UNIT_STOP. */
static uint64_t worker_next(MPI_Comm world, const volatile sig_atomic_t *interrupt, int *sig_sent)
{
    if (interrupt && *interrupt) {
        int32_t sv = *interrupt;
        MPI_Send(&sv, 1, MPI_INT32_T, 0, MR_TAG_INTR, world);
        *sig_sent = sv;
        return UNIT_STOP;
    }
    int32_t req[2] = {1, 0};
    MPI_Send(req, 2, MPI_INT32_T, 0, MR_TAG_REQ, world);
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, MR_TAG_WORK, world, &flag, &st);
        if (!flag) {
            nap();
            continue;
        }
        int n = 0;
        MPI_Get_count(&st, MPI_BYTE, &n);
        uint64_t units[JOBS_MAX_BATCH * 4];
        if (n < 0 || (size_t)n > sizeof units)
            n = 0; /* cannot be: one unit asked for */
        MPI_Recv(units, n, MPI_BYTE, 0, MR_TAG_WORK, world, MPI_STATUS_IGNORE);
        if (n < (int)sizeof(uint64_t))
            return UNIT_STOP;
        if (units[0] != UINT64_MAX)
            return units[0];
        nap(); /* "retry": cannot be with nothing queued, but harmless */
        MPI_Send(req, 2, MPI_INT32_T, 0, MR_TAG_REQ, world);
    }
}

static uint64_t root_next(mr_comm_t *cm)
{
    (void)mr_root_serve(cm);
    mr_root_check_stop(cm);
    mr_progress(cm, false);
    uint64_t u;
    return mr_hand_out(cm, &u, 1, 0) == 1 ? u : UNIT_STOP;
}

static void finish_metrics(mr_state_t *s)
{
    mr_metrics_finish(s);
    for (int st = 0; st < MR_NSTAGES; st++)
        s->m.cpu_known[st] = st == MR_WITNESS || st == MR_PROVE || st == MR_IO || st == MR_WAIT;
}

void mr_zkey_run(mr_comm_t *cm, bool resident)
{
    mr_state_t *s = cm->s;
    MPI_Comm world = *(MPI_Comm *)cm->comm;
    int rank, size, sig_sent = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    bool root = rank == 0;
    zkey_slot_t z;
    memset(&z, 0, sizeof z);
    uint8_t *buf = NULL;
    size_t buflen = 0;
    s->t_start = gm_now_ns();
    if (root) {
        cm->t0 = s->t_start;
        cm->last_progress = cm->t0;
        mr_progress(cm, true);
    }
    for (;;) {
        uint64_t t0 = gm_now_ns();
        uint64_t u = root ? root_next(cm) : worker_next(world, cm->interrupt, &sig_sent);
        s->m.wall_ns[MR_WAIT] += gm_now_ns() - t0;
        if (u == UNIT_STOP)
            break;
        mr_result_t res;
        memset(&res, 0, sizeof res);
        err_t e;
        gm_err_clear(&e);
        int rc = zkey_prove_unit(s, &z, resident, u, rank, &res, &e);
        uint64_t t1 = gm_now_ns(), c1 = gm_thread_cpu_ns();
        if (rc && root) {
            err_t e2;
            gm_err_set(&e2, rc, "rank 0 (%s): %s", cm->host, e.msg);
            mr_root_fail(cm, rc, &e2);
        } else if (rc) {
            e.code = rc;
            mr_send_error(cm->comm, cm->host, &e);
        } else if (root) {
            mr_root_local(cm, &res);
        } else {
            mr_send_result(cm->comm, &res, &buf, &buflen);
        }
        s->m.wall_ns[MR_IO] += gm_now_ns() - t1;
        s->m.cpu_ns[MR_IO] += gm_thread_cpu_ns() - c1;
        free(res.pub);
        if (rc && !root)
            break; /* rank 0 hands out nothing more after an error */
    }
    if (sig_sent)
        cm->interrupted = sig_sent;
    if (resident)
        slot_keep(&z);
    else
        slot_free(&z);
    free(buf);
    finish_metrics(s);
    if (!root) {
        MPI_Send(&s->m, (int)sizeof s->m, MPI_BYTE, 0, MR_TAG_DONE, world);
        return;
    }
    mr_root_wait_done(cm, size);
    finish_metrics(s); /* again: the serving above is rank 0's io */
    cm->all[0] = s->m;
    mr_root_buffers_free(cm);
}
