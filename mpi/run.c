/*
 * mpi/run.c — mpi_campaign_run: one campaign on every rank of the job.
 *
 * DESIGN
 *  - Phases, in this order, every rank taking part in each:
 *     1. MPI_Init_thread(SERIALIZED) unless MPI is already up; a private
 *        duplicate of MPI_COMM_WORLD; the ranks on this node (shared-memory
 *        split) to share the node's cores and RAM among them.
 *     2. Rank 0 alone: reads and validates the campaign (jobs/), generates
 *        missing test parameters ("setup": "auto"), checks the parameter
 *        file's digest against the cache's manifest.json, opens the output
 *        directory and its journal (resume.c: which units are finished).
 *        Then ONE broadcast: a status and either the normalized campaign
 *        text or nothing. A bad campaign thus fails on rank 0 before any
 *        other rank does work, and no rank waits for anything after it.
 *     3. Every rank: parses the text, loads the topology, its prover pool,
 *        the shape and the parameters (every point checked unless
 *        trust_params), creates the prover and the unit source, sizes the
 *        pipeline from the memory budget. Then ONE gather of every rank's
 *        status and message to rank 0 and one broadcast of the verdict, so
 *        an unreadable parameter file on any node stops every rank, and
 *        rank 0 names the rank, host and file.
 *     4. The roles (pipeline.c, dispatch.c) until every unit is written or
 *        an error stopped the hand-out and every rank has drained.
 *     5. Rank 0 builds the report from every rank's DONE metrics and writes
 *        report.json and report.csv; one broadcast of the final status.
 *  - MPI calls: the main thread in phases 1-3 and 5, the comm role in phase
 *    4; topo_pool_run's start and end order them, so at most one thread is
 *    ever inside MPI (MPI_THREAD_SERIALIZED).
 *  - A stop request (mpi_opts_t.interrupt, SIGTERM/SIGINT): dispatch.c
 *    drains every rank and the run ends with GM_ECANCELED after the units
 *    in flight are written; phase 5 runs as usual (report, final status).
 *  - A killed rank: mpirun aborts the whole job (platform.md §2.1); what
 *    rank 0 had written and journaled stays, and the next run resumes.
 */
#include <mpi.h>
#include <errno.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"
#include "circuits/circuits.h"

typedef struct {
    int32_t code;
    char msg[GM_ERR_MSG_LEN];
} wire_status_t;

/* ---- the check stamp: parameters checked once per node, and once per file ----
 *
 * The full load (every point's subgroup check) is the slow part of set-up: about
 * 30 s per rank for the 2 KiB PoRep parameters. Two savings, neither of which
 * lets a changed file through:
 *  - per node: the node's first rank (MPI_COMM_TYPE_SHARED) hashes its own copy
 *    of the file, compares with rank 0's digest, and loads it with every check;
 *    the node's other ranks wait for it, then load the same file without the
 *    subgroup checks, after checking it is still the same file (device, inode,
 *    size, mtime as the first rank saw it);
 *  - per file: after a set-up in which every point was checked, rank 0 writes
 *    "<id>.params.checked" with the file's digest and size; a later run whose
 *    digest (computed again, every run) and size match loads without subgroup
 *    checks on every node. The digest, not the time stamp, is the key: a
 *    changed file has another digest, and the stamp no longer applies.
 * trust_params: none of this; every rank loads without subgroup checks. */

#define STAMP_MAGIC "grothmpi-params-checked 1"

/* A file's identity (and, sent by a node's first rank, its load status). */
typedef struct {
    int32_t rc;
    uint64_t dev, ino, size;
    int64_t mtime_ns;
} wire_ident_t;

/* What rank 0 tells every rank about the parameter file (phase 2). */
typedef struct {
    char digest[GROTH16_DIGEST_HEX + 1]; /* rank 0's copy, this run */
    uint8_t stamped;                     /* a file with this digest passed every check before */
    uint8_t trust;                       /* the campaign's trust_params (known even where parsing failed) */
    wire_ident_t ident;                  /* rank 0's copy as it was hashed */
} wire_params_t;

static void stamp_path(char *out, size_t n, const jobs_campaign_t *c)
{
    snprintf(out, n, "%s/%s.params.checked", c->params_dir, c->circuit.id);
}

/* True when the stamp names this digest and size (any problem reading it: false). */
static bool stamp_matches(const jobs_campaign_t *c, const char *digest, uint64_t size)
{
    char sp[JOBS_PATH_LEN + 96], want[200];
    stamp_path(sp, sizeof sp, c);
    snprintf(want, sizeof want, "%s digest=%s size=%llu level=subgroup\n", STAMP_MAGIC, digest,
             (unsigned long long)size);
    uint8_t *buf;
    size_t len;
    if (groth16_read_file(&buf, &len, sp, NULL))
        return false;
    bool ok = len == strlen(want) && memcmp(buf, want, len) == 0;
    gm_free(buf);
    return ok;
}

static int file_ident(wire_ident_t *id, const char *path, err_t *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot stat: %s", path, strerror(errno));
    id->dev = (uint64_t)st.st_dev;
    id->ino = (uint64_t)st.st_ino;
    id->size = (uint64_t)st.st_size;
    id->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return 0;
}

static bool ident_eq(const wire_ident_t *a, const wire_ident_t *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

static void note(mpi_progress_fn fn, void *arg, const char *text)
{
    if (!fn)
        return;
    mpi_progress_t p;
    memset(&p, 0, sizeof p);
    p.eta_s = -1;
    p.note = text;
    fn(arg, &p);
}

/* Generates the test parameters of c when any cache file is missing, and
 * records the shape again when its file is in an older format. */
static int ensure_params(const jobs_campaign_t *c, unsigned threads, mpi_progress_fn fn, void *arg, err_t *err)
{
    char pp[JOBS_PATH_LEN + 80], vp[JOBS_PATH_LEN + 80], sp[JOBS_PATH_LEN + 80], rp[JOBS_PATH_LEN + 80];
    snprintf(pp, sizeof pp, "%s/%s.params", c->params_dir, c->circuit.id);
    snprintf(vp, sizeof vp, "%s/%s.vk", c->params_dir, c->circuit.id);
    snprintf(sp, sizeof sp, "%s/%s.shape", c->params_dir, c->circuit.id);
    snprintf(rp, sizeof rp, "%s/%s.setup", c->params_dir, c->circuit.id);
    bool have_keys = access(pp, F_OK) == 0 && access(vp, F_OK) == 0;
    if (have_keys && cs_shape_cached(c->params_dir, c->circuit.id))
        return 0;
    if (have_keys && access(sp, F_OK) == 0) {
        /* A shape in an older file format: the parameters are still the
         * circuit's, only the shape is recorded again (it is deterministic). */
        char line[JOBS_PATH_LEN + 200];
        snprintf(line, sizeof line, "setup: %s is in an older format; recording it again", sp);
        note(fn, arg, line);
        cs_shape_t *shape = NULL;
        int rc = circuit_shape(&shape, &c->circuit, err);
        if (!rc)
            rc = cs_shape_save(shape, c->params_dir, c->circuit.id, err);
        cs_shape_free(shape);
        return rc;
    }
    if (!c->setup_auto)
        return gm_err_set(err, GM_EINVAL, "%s: params: '%s' is incomplete (need %s.params, .vk, .shape)",
                          c->file[0] ? c->file : "campaign", c->params_dir, c->circuit.id);
    char line[JOBS_PATH_LEN + 200];
    snprintf(line, sizeof line, "setup: generating test parameters for %s in %s (once; cached)", c->circuit.id,
             c->params_dir);
    note(fn, arg, line);
    uint8_t seed[GROTH16_SEED_BYTES];
    int rc;
    if (c->has_setup_seed)
        memcpy(seed, c->setup_seed, sizeof seed);
    else if ((rc = groth16_seed_random(seed, err)))
        return rc;
    topo_pool_t *pool = NULL;
    cs_shape_t *shape = NULL;
    if ((rc = topo_pool_create_flat(&pool, threads, err)) || (rc = circuit_shape(&shape, &c->circuit, err)) ||
        (rc = cs_shape_save(shape, c->params_dir, c->circuit.id, err)) ||
        (rc = groth16_setup(shape, seed, pp, vp, pool, err)))
        goto out;
    char rec[400], hex[2 * GROTH16_SEED_BYTES + 1];
    for (int i = 0; i < GROTH16_SEED_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", seed[i]);
    int len = snprintf(rec, sizeof rec, "circuit %s\nseed %s\nconstraints %llu\ninputs %llu\naux %llu\n", c->circuit.id,
                       hex, (unsigned long long)shape->n_constraints, (unsigned long long)shape->n_inputs,
                       (unsigned long long)shape->n_aux);
    rc = groth16_write_file(rp, rec, (size_t)len, err);
    /* The manifest entry is written with the file, so the check before
     * every later use compares against what was generated here. */
    char digest[GROTH16_DIGEST_HEX + 1], mp[JOBS_PATH_LEN + 80], name[80];
    uint64_t psize = 0;
    snprintf(mp, sizeof mp, "%s/%s", c->params_dir, GROTH16_MANIFEST_NAME);
    snprintf(name, sizeof name, "%s.params", c->circuit.id);
    if (!rc && !(rc = groth16_file_digest(digest, &psize, pp, err)))
        rc = groth16_manifest_record(mp, name, digest, psize, c->circuit.id, err);
out:
    cs_shape_free(shape);
    topo_pool_destroy(pool);
    return rc;
}

/* Rank 0, before any rank loads the parameters: the parameter file's digest
 * against the cache's manifest. Listed with another digest: the campaign is
 * refused (a changed file never passes once listed). Not listed (a cache
 * from before manifests, or parameters made elsewhere): recorded now, said
 * once on the progress line, so later runs are checked (trust on first use;
 * when the manifest cannot be written, a read-only cache, the run goes on
 * and says the file went unchecked). */
static int params_manifest(char digest[GROTH16_DIGEST_HEX + 1], wire_ident_t *ident, const jobs_campaign_t *c,
                           mpi_progress_fn fn, void *arg, err_t *err)
{
    char pp[JOBS_PATH_LEN + 80], mp[JOBS_PATH_LEN + 80], name[80];
    snprintf(pp, sizeof pp, "%s/%s.params", c->params_dir, c->circuit.id);
    snprintf(mp, sizeof mp, "%s/%s", c->params_dir, GROTH16_MANIFEST_NAME);
    snprintf(name, sizeof name, "%s.params", c->circuit.id);
    uint64_t size = 0;
    bool listed = false;
    wire_ident_t after = {0};
    int rc = file_ident(ident, pp, err);
    if (!rc)
        rc = groth16_file_digest(digest, &size, pp, err);
    if (!rc && !(rc = file_ident(&after, pp, err)) && (!ident_eq(ident, &after) || size != ident->size))
        rc = gm_err_set(err, GM_EVERIFY, "%s: changed while its digest was computed", pp);
    if (!rc)
        rc = groth16_manifest_check(&listed, mp, name, digest, pp, err);
    if (rc || listed)
        return rc;
    char line[2 * JOBS_PATH_LEN + GM_ERR_MSG_LEN + 400];
    err_t e2;
    gm_err_clear(&e2);
    if (groth16_manifest_record(mp, name, digest, size, c->circuit.id, &e2))
        snprintf(line, sizeof line, "params: %s is not in %s, which cannot be written (%s): used without a digest check",
                 pp, mp, e2.msg);
    else
        snprintf(line, sizeof line,
                 "params: %s was not in %s: recorded its digest %s (first use; from now on a changed file is refused)",
                 pp, mp, digest);
    note(fn, arg, line);
    return 0;
}

/* Rank 0's parameter step under the cache's lock (groth16_cache_lock):
 * generate what is missing, then check the digest against the manifest.
 * Another process setting up the same cache (a second Slurm array task) is
 * waited for, and then finds the files it made instead of replacing them. */
static int cache_params(char digest[GROTH16_DIGEST_HEX + 1], wire_ident_t *ident, const jobs_campaign_t *c,
                        unsigned threads, mpi_progress_fn fn, void *arg, err_t *err)
{
    if (c->setup_auto && mkdir(c->params_dir, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: params: '%s': cannot create: %s", c->file, c->params_dir,
                          strerror(errno));
    int lock = -1;
    int rc = groth16_cache_lock(&lock, c->params_dir, false, err);
    if (rc == GM_ESTATE) {
        char line[JOBS_PATH_LEN + 200];
        snprintf(line, sizeof line, "params: waiting for another process's setup in %s (%s)", c->params_dir,
                 GROTH16_CACHE_LOCK_NAME);
        note(fn, arg, line);
        gm_err_clear(err);
        rc = groth16_cache_lock(&lock, c->params_dir, true, err);
    }
    if (!rc)
        rc = ensure_params(c, threads, fn, arg, err);
    if (!rc)
        rc = params_manifest(digest, ident, c, fn, arg, err);
    groth16_cache_unlock(lock);
    return rc;
}

static int vk_digest(uint8_t out[32], const jobs_campaign_t *c, err_t *err)
{
    char vp[JOBS_PATH_LEN + 80];
    snprintf(vp, sizeof vp, "%s/%s.vk", c->params_dir, c->circuit.id);
    uint8_t *buf;
    size_t len;
    int rc = groth16_read_file(&buf, &len, vp, err);
    if (rc)
        return rc;
    SHA256(buf, len, out);
    gm_free(buf);
    return 0;
}

static uint64_t node_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : (4ULL << 30);
}

/* Everything a rank holds for phases 3-4. */
typedef struct {
    jobs_campaign_t c;
    topo_t *topo;
    topo_pool_t *pool;
    topo_pool_t *roles; /* mr_roles_count(nprep) workers: comm, witness, finish, prepare x nprep */
    unsigned nprep;     /* prepare domains (resources.domains resolved) */
    topo_pool_t **prep; /* [nprep]: the pool of L3 domain i (pipeline.c) */
    groth16_prover_t **prep_provers; /* [nprep]: domain i's prover (prover or prep_own[i]) */
    groth16_prover_t **prep_own;     /* [nprep]: prepare-only provers this rank made (NULL: none) */
    topo_slot_t *prep_leaders;       /* [nprep] with resources.pin: each domain's first core; else NULL */
    cs_shape_t *shape;
    groth16_params_t *params;
    groth16_prover_t *prover;
    groth16_pvk_t pvk;
    bool have_pvk;
    jobs_source_t *src;
    topo_evset_t *evset;
    topo_counters_t *ctr;
    unsigned cstage;
    mr_state_t st;
    bool have_state;
} rank_ctx_t;

static void ctx_free(rank_ctx_t *x)
{
    if (x->have_state)
        mr_state_free(&x->st);
    topo_counters_destroy(x->ctr);
    topo_evset_destroy(x->evset);
    jobs_source_close(x->src);
    if (x->have_pvk)
        groth16_pvk_free(&x->pvk);
    for (unsigned i = 0; x->prep_own && i < x->nprep; i++)
        groth16_prover_destroy(x->prep_own[i]);
    groth16_prover_destroy(x->prover);
    groth16_params_free(x->params);
    cs_shape_free(x->shape);
    topo_pool_destroy(x->roles);
    for (unsigned i = 0; x->prep && i < x->nprep; i++)
        topo_pool_destroy(x->prep[i]);
    free(x->prep);
    free(x->prep_own);
    free(x->prep_provers);
    free(x->prep_leaders);
    topo_pool_destroy(x->pool);
    topo_destroy(x->topo);
    jobs_campaign_free(&x->c);
}

/* A broadcast from rank 0 of comm that may be waited for a long time (rank
 * 0's validation and parameter setup: minutes for PoRep; a node's first
 * rank checking every parameter point). A blocking MPI_Bcast polls while it
 * waits, and with mpi_yield_when_idle (the demo) that poll is a sched_yield
 * loop the kernel bills as system time on a core the working rank needs (33
 * of 41 s on 2 cores for a 36 s setup). So: a non-blocking broadcast, tested
 * every 5 ms and asleep in between. */
static void bcast_idle(void *buf, int count, MPI_Datatype type, MPI_Comm comm)
{
    MPI_Request req;
    MPI_Ibcast(buf, count, type, 0, comm, &req);
    const struct timespec nap = {0, 5 * 1000 * 1000};
    for (;;) {
        int done = 0;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nanosleep(&nap, NULL);
    }
}

/* Phase 3's parameter load on one rank (MPI on the main thread: node is this
 * node's communicator). Returns like groth16_params_load, plus GM_EVERIFY (this
 * node's copy has another digest than rank 0's, or the file changed while the
 * node loaded it) and GM_EINVAL (the node's first rank failed: see its message).
 * prior: this rank's set-up already failed with that status (err holds its
 * message): it only takes part in the node's broadcast and returns prior. */
static int load_params_node(rank_ctx_t *x, const wire_params_t *wp, MPI_Comm node, int rank, int prior, bool *full,
                            err_t *err)
{
    const jobs_campaign_t *c = &x->c;
    char pp[JOBS_PATH_LEN + 80];
    snprintf(pp, sizeof pp, "%s/%s.params", c->params_dir, c->circuit.id);
    *full = false;
    if (wp->trust)
        return prior ? prior : groth16_params_load(&x->params, pp, x->shape, GROTH16_LOAD_TRUST, x->pool, err);
    int node_rank;
    MPI_Comm_rank(node, &node_rank);
    wire_ident_t id;
    memset(&id, 0, sizeof id);
    int rc = prior;
    if (node_rank == 0 && !prior) {
        char d[GROTH16_DIGEST_HEX + 1];
        wire_ident_t after = {0};
        rc = file_ident(&id, pp, err);
        if (!rc && rank == 0 && !ident_eq(&id, &wp->ident))
            rc = gm_err_set(err, GM_EVERIFY, "%s: changed since its digest was checked", pp);
        /* Rank 0 hashed its copy moments ago (phase 2); other nodes hash theirs. */
        if (!rc && rank != 0 && !(rc = groth16_file_digest(d, NULL, pp, err)) && strcmp(d, wp->digest) != 0)
            rc = gm_err_set(err, GM_EVERIFY, "%s: BLAKE2b digest %s on this node, rank 0's copy has %s", pp, d,
                            wp->digest);
        if (!rc) {
            *full = !wp->stamped;
            gm_log(GM_LOG_DEBUG, "rank %d: %s: %s", rank, pp,
                   wp->stamped ? "digest matches the check stamp: no subgroup checks" : "every point checked");
            rc = groth16_params_load(&x->params, pp, x->shape, wp->stamped ? GROTH16_LOAD_TRUST : 0, x->pool, err);
        }
        if (!rc && !(rc = file_ident(&after, pp, err)) && !ident_eq(&id, &after))
            rc = gm_err_set(err, GM_EVERIFY, "%s: changed while it was being loaded", pp);
    }
    id.rc = rc;
    bcast_idle(&id, (int)sizeof id, MPI_BYTE, node);
    if (node_rank == 0 || prior)
        return rc;
    if (id.rc)
        return gm_err_set(err, GM_EINVAL, "%s: refused by this node's first rank (see its message)", pp);
    wire_ident_t mine = {0}, after = {0};
    if ((rc = file_ident(&mine, pp, err)))
        return rc;
    if (!ident_eq(&mine, &id))
        return gm_err_set(err, GM_EVERIFY, "%s: not the file this node's first rank checked (changed since?)", pp);
    gm_log(GM_LOG_DEBUG, "rank %d: %s: checked by this node's first rank: no subgroup checks", rank, pp);
    if ((rc = groth16_params_load(&x->params, pp, x->shape, GROTH16_LOAD_TRUST, x->pool, err)))
        return rc;
    if ((rc = file_ident(&after, pp, err)) == 0 && !ident_eq(&mine, &after))
        rc = gm_err_set(err, GM_EVERIFY, "%s: changed while it was being loaded", pp);
    return rc;
}

/* The prepare domains of a rank (pipeline.c): which L3 domains, their
 * pools (pinned with resources.pin, and then where each prepare role binds
 * itself: the domain's first core, which the pinned pool leaves to its
 * worker 0) and the roles pool sized for them. file names the campaign in
 * messages. */
static int prep_setup(rank_ctx_t *x, const char *file, int rank, err_t *err)
{
    const jobs_campaign_t *c = &x->c;
    char host[64] = "?";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = 0;
    int rc = mr_prepare_domains(&x->nprep, c->domains, topo_l3_count(x->topo), file, rank, host,
                                topo_source(x->topo), err);
    if (rc)
        return rc;
    x->prep = calloc(x->nprep, sizeof *x->prep);
    x->prep_own = calloc(x->nprep, sizeof *x->prep_own);
    x->prep_provers = calloc(x->nprep, sizeof *x->prep_provers);
    if (!x->prep || !x->prep_own || !x->prep_provers)
        return gm_err_set(err, GM_ENOMEM, "prepare domains: out of memory");
    topo_pool_flags_t fl = c->pin ? TOPO_POOL_PIN : TOPO_POOL_DEFAULT;
    for (unsigned i = 0; i < x->nprep; i++)
        if ((rc = topo_pool_create_domain(&x->prep[i], x->topo, i, fl, err)))
            return rc;
    if (c->pin) {
        topo_plan_t plan;
        if ((rc = topo_plan_make(&plan, x->topo, fl, err)))
            return rc;
        x->prep_leaders = calloc(x->nprep, sizeof *x->prep_leaders);
        for (unsigned i = 0; x->prep_leaders && i < x->nprep; i++)
            x->prep_leaders[i] = plan.synth[plan.domain_first[i]];
        topo_plan_free(&plan);
        if (!x->prep_leaders)
            return gm_err_set(err, GM_ENOMEM, "prepare domains: out of memory");
    }
    return topo_pool_create_flat(&x->roles, mr_roles_count(x->nprep), err);
}

/* Each prepare domain's prover: the rank's own for domain 0 when that pool
 * fits its scratch (one prepare at a time, beside the finish role's MSMs),
 * a prepare-only prover on the shared shape for every other (its prepare
 * scratch, sized for the domain's pool). Returns the extra bytes in *extra. */
static int prep_provers(rank_ctx_t *x, uint64_t *extra, err_t *err)
{
    *extra = 0;
    for (unsigned i = 0; i < x->nprep; i++) {
        if (i == 0 && topo_pool_size(x->prep[0]) <= topo_pool_size(x->pool)) {
            x->prep_provers[0] = x->prover;
            continue;
        }
        int rc = groth16_prover_create(&x->prep_own[i], NULL, x->shape, x->prep[i], err);
        if (rc)
            return rc;
        x->prep_provers[i] = x->prep_own[i];
        *extra += groth16_prover_memory(x->prep_own[i]);
    }
    return 0;
}

/* Phase 3 on one rank. file: the campaign's path (messages). */
static int rank_setup(rank_ctx_t *x, const mpi_opts_t *o, const char *file, int rank, int size, MPI_Comm node,
                      int node_size, const wire_params_t *wp, bool *full, err_t *err)
{
    jobs_campaign_t *c = &x->c;
    int rc = topo_load(&x->topo, c->topology, err);
    if (rc) {
        err_t e2 = *err;
        rc = gm_err_set(err, rc, "%s: resources.topology: %s", file, e2.msg);
    }
    if (!rc) {
        unsigned threads = o && o->threads ? o->threads : c->threads;
        unsigned cores = topo_core_count(x->topo);
        if (!threads)
            threads = cores / (unsigned)(node_size > 0 ? node_size : 1);
        if (!threads)
            threads = 1;
        if (c->pin && threads == cores)
            rc = topo_pool_create_machine(&x->pool, x->topo, TOPO_POOL_PIN, err);
        else
            rc = topo_pool_create_flat(&x->pool, threads, err);
    }
    if (!rc)
        rc = prep_setup(x, file, rank, err);
    if (!rc)
        rc = cs_shape_load(&x->shape, c->params_dir, c->circuit.id, err);
    /* Every rank of the node takes part in the node's load, even after a
     * failure above (the node's ranks meet in one broadcast there). */
    rc = load_params_node(x, wp, node, rank, rc, full, err);
    uint64_t prep_extra = 0;
    if (rc || (rc = groth16_prover_create(&x->prover, x->params, x->shape, x->pool, err)) ||
        (rc = prep_provers(x, &prep_extra, err)) || (rc = jobs_source_open(&x->src, c, err)))
        return rc;
    if (rank == 0) {
        if ((rc = groth16_pvk_prepare(&x->pvk, groth16_params_vk(x->params), err)))
            return rc;
        x->have_pvk = true;
    }
    /* The memory budget: parameters + prover scratch (the rank's prover and
     * the other domains' prepare scratch, since N prepares run at once) +
     * the units in flight (pipeline.c: witnesses and prepared units). */
    uint64_t budget = o && o->mem_budget ? o->mem_budget : c->mem_budget;
    const char *bname = o && o->mem_budget ? "--mem-budget" : c->mem_budget ? "resources.mem_budget" : NULL;
    if (!budget)
        budget = node_ram() / 2 / (uint64_t)(node_size > 0 ? node_size : 1);
    mr_budget_t bu = {.budget = budget,
                      .what = bname ? bname : "memory budget (half the node's RAM over its ranks)",
                      .params = groth16_params_memory(x->params),
                      .prover = groth16_prover_memory(x->prover) + prep_extra,
                      .witness = (x->shape->n_inputs + x->shape->n_aux) * sizeof(fr_t) * 2 + 4096,
                      .unit = groth16_prepared_bytes(x->prover)};
    unsigned depth;
    if ((rc = mr_pipeline_depth(&depth, &bu, c->batch_size, c->pipeline_depth, err)) ||
        (rc = mr_state_init(&x->st, c, rank, size, depth, x->prover, err)))
        return rc;
    x->have_state = true;
    x->st.topo = x->topo;
    x->st.src = x->src;
    x->st.prover = x->prover;
    x->st.params = x->params;
    x->st.pool = x->pool;
    x->st.nprep = x->nprep;
    x->st.prep_pools = x->prep;
    x->st.prep_provers = x->prep_provers;
    x->st.prep_leaders = x->prep_leaders;
    x->st.m.prover_bytes = bu.prover;
    x->st.m.domains_wanted = (int32_t)c->domains;
    x->st.pvk = x->have_pvk ? &x->pvk : NULL;
    x->st.rank_verifies = c->verify != JOBS_VERIFY_ROOT;
    x->st.m.witness_bytes = bu.witness;
    x->st.m.unit_bytes = bu.unit;
    x->st.m.mem_budget = budget;
    x->st.m.inflight_max = x->st.max_inflight;
    x->st.m.depth = depth;
    x->st.m.depth_wanted = c->pipeline_depth;
    if ((rc = mr_finish_setup(&x->st, x->shape, err)))
        return rc;
    /* Counters: not available is normal (no PMU in a VM); failing to resolve
     * the set only loses the counters, never the run. */
    err_t e2;
    gm_err_clear(&e2);
    if (topo_evset_create(&x->evset, NULL, &e2) == 0 &&
        topo_counters_open_pool(&x->ctr, x->evset, x->pool, &e2) == 0 &&
        topo_counters_stage(x->ctr, "prove", &x->cstage, &e2) == 0) {
        x->st.evset = x->evset;
        x->st.ctr_pool = x->ctr;
        x->st.cstage_prove = x->cstage;
    } else {
        topo_counters_destroy(x->ctr);
        x->ctr = NULL;
    }
    return 0;
}

int mpi_campaign_run(const char *campaign_path, const mpi_opts_t *opts, mpi_progress_fn progress, void *arg,
                     mpi_result_t *res, err_t *err)
{
    memset(res, 0, sizeof *res);
    int inited = 0, we_init = 0, provided = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
            return gm_err_set(err, GM_EMPI, "MPI_Init_thread failed");
        we_init = 1;
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        if (we_init)
            MPI_Finalize();
        return gm_err_set(err, GM_EMPI, "this MPI library gives thread level %d, grothmpi needs MPI_THREAD_SERIALIZED",
                          provided);
    }
    MPI_Comm comm, node;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int rank, size, node_size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    res->rank = rank;
    res->size = size;

    rank_ctx_t x;
    memset(&x, 0, sizeof x);
    mr_out_t *out = NULL;
    bool *done = NULL, *written = NULL;
    size_t *pending = NULL;
    mr_metrics_t *all = NULL;
    char *text = NULL;
    size_t ndone = 0, total = 0;
    int rc = 0;
    err_t e;
    gm_err_clear(&e);
    char host[64] = "?";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = 0;

    /* ---- phase 2: rank 0 validates ---- */
    wire_status_t ws;
    memset(&ws, 0, sizeof ws);
    wire_params_t wp;
    memset(&wp, 0, sizeof wp);
    uint64_t tlen = 0;
    if (rank == 0) {
        rc = jobs_campaign_load(&x.c, campaign_path, JOBS_PARSE_DEFAULT, &e);
        unsigned sthreads = opts && opts->threads ? opts->threads : x.c.threads;
        if (!rc)
            rc = x.c.mode == JOBS_MODE_CHECK ? 0 : cache_params(wp.digest, &wp.ident, &x.c, sthreads, progress, arg, &e);
        wp.trust = !rc && x.c.trust_params;
        if (!rc && !x.c.trust_params && (wp.stamped = stamp_matches(&x.c, wp.digest, wp.ident.size))) {
            char line[JOBS_PATH_LEN + 200];
            snprintf(line, sizeof line,
                     "params: digest %s passed every point check before (%s.params.checked): subgroup checks skipped",
                     wp.digest, x.c.circuit.id);
            note(progress, arg, line);
        }
        uint8_t vk_sha[32];
        if (!rc && x.c.mode == JOBS_MODE_PROVE)
            rc = vk_digest(vk_sha, &x.c, &e);
        if (!rc) {
            total = jobs_unit_count(&x.c);
            done = calloc(total, sizeof *done);
            written = calloc(total, sizeof *written);
            pending = calloc(total + 1, sizeof *pending);
            all = calloc((size_t)size, sizeof *all);
            if (!done || !written || !pending || !all)
                rc = gm_err_set(&e, GM_ENOMEM, "out of memory for %zu units", total);
        }
        if (!rc && x.c.mode == JOBS_MODE_PROVE)
            rc = mr_out_open(&out, &x.c, vk_sha, done, &ndone, &e);
        if (!rc && !(text = jobs_campaign_to_text(&x.c)))
            rc = gm_err_set(&e, GM_ENOMEM, "out of memory");
        ws.code = rc;
        snprintf(ws.msg, sizeof ws.msg, "%s", e.msg);
        tlen = text ? strlen(text) + 1 : 0;
    }
    bcast_idle(&ws, (int)sizeof ws, MPI_BYTE, comm);
    MPI_Bcast(&tlen, 1, MPI_UINT64_T, 0, comm);
    MPI_Bcast(&wp, (int)sizeof wp, MPI_BYTE, 0, comm);
    if (ws.code) {
        rc = ws.code;
        if (rank == 0)
            gm_err_set(err, rc, "%s", ws.msg);
        else
            gm_err_set(err, rc, "rank %d: the campaign failed on rank 0 (see its message)", rank);
        goto finish;
    }
    if (rank != 0 && !(text = malloc(tlen)))
        abort(); /* a few KiB: no recovering from this on a rank */
    MPI_Bcast(text, (int)tlen, MPI_CHAR, 0, comm);

    /* ---- phase 3: every rank sets up ---- */
    gm_err_clear(&e);
    bool full = false; /* this rank checked every parameter point */
    if (rank != 0)
        rc = jobs_campaign_parse(&x.c, text, "campaign (from rank 0)", NULL, JOBS_PARSE_NO_FILES, &e);
    if (!rc && x.c.mode == JOBS_MODE_CHECK) { /* no prover: check.c */
        rc = mr_check_run(&x.c, &comm, rank, size, res, err);
        goto finish;
    }
    if (!rc) {
        rc = rank_setup(&x, opts, campaign_path, rank, size, node, node_size, &wp, &full, &e);
        if (!rc && rank == 0 && x.st.backend_note[0])
            note(progress, arg, x.st.backend_note); /* auto's choice: one line on stdout, "prove: ..." */
    } else {
        (void)load_params_node(&x, &wp, node, rank, rc, &full, &e); /* the node's ranks meet there */
    }
    memset(&ws, 0, sizeof ws);
    ws.code = rc;
    snprintf(ws.msg, sizeof ws.msg, "%s", e.msg);
    wire_status_t *st_all = rank == 0 ? calloc((size_t)size, sizeof *st_all) : NULL;
    if (rank == 0 && !st_all)
        abort();
    MPI_Gather(&ws, (int)sizeof ws, MPI_BYTE, st_all, (int)sizeof ws, MPI_BYTE, 0, comm);
    int verdict = 0;
    if (rank == 0) {
        for (int r = 0; r < size && !verdict; r++)
            if (st_all[r].code) {
                verdict = st_all[r].code;
                if (size > 1)
                    gm_err_set(err, verdict, "rank %d: %s", r, st_all[r].msg);
                else
                    gm_err_set(err, verdict, "%s", st_all[r].msg);
            }
        free(st_all);
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm);
    if (verdict) {
        rc = verdict;
        if (rank != 0)
            gm_err_set(err, rc, "rank %d: set-up failed on a rank (see rank 0's message)", rank);
        goto finish;
    }
    if (rank == 0 && full) {
        /* Rank 0 checked every point of the file whose digest it computed in
         * phase 2 (load_params_node checked it is the same file): later runs
         * with this digest may skip the subgroup checks. */
        char sp[JOBS_PATH_LEN + 96], rec[200], line[JOBS_PATH_LEN + GM_ERR_MSG_LEN + 200];
        stamp_path(sp, sizeof sp, &x.c);
        int n = snprintf(rec, sizeof rec, "%s digest=%s size=%llu level=subgroup\n", STAMP_MAGIC, wp.digest,
                         (unsigned long long)wp.ident.size);
        err_t e4;
        gm_err_clear(&e4);
        if (groth16_write_file(sp, rec, (size_t)n, &e4))
            snprintf(line, sizeof line, "params: every point checked, but no stamp: %s", e4.msg);
        else
            snprintf(line, sizeof line, "params: every point checked (once per node); recorded in %s", sp);
        note(progress, arg, line);
    }

    /* ---- phase 4: the roles ---- */
    mr_comm_t cm;
    memset(&cm, 0, sizeof cm);
    cm.s = &x.st;
    cm.comm = &comm;
    cm.c = &x.c;
    cm.interrupt = opts ? opts->interrupt : NULL;
    snprintf(cm.host, sizeof cm.host, "%s", host);
    if (rank == 0) {
        cm.out = out;
        for (size_t u = 0; u < total; u++)
            if (!done[u])
                pending[cm.npending++] = u;
        cm.pending = pending;
        cm.written = written;
        cm.all = all;
        cm.total = total;
        cm.resumed = ndone;
        cm.progress = progress;
        cm.parg = arg;
        res->total = total;
        res->resumed = ndone;
    }
    mr_roles_t roles_arg;
    memset(&roles_arg, 0, sizeof roles_arg);
    roles_arg.s = &x.st;
    roles_arg.comm = rank == 0 ? mr_comm_root : mr_comm_worker;
    roles_arg.comm_arg = &cm;
    roles_arg.nprep = x.nprep;
    atomic_init(&roles_arg.claimed, 0);
    atomic_init(&roles_arg.prep_claimed, 0);
    x.st.t_start = gm_now_ns();
    topo_pool_run(x.roles, mr_roles_count(x.nprep), mr_roles_task, &roles_arg);

    /* ---- phase 5: the report and the verdict ---- */
    int final = 0;
    if (rank == 0) {
        res->proved = cm.proved;
        final = cm.fatal;
        if (final)
            *err = cm.ferr;
        mpi_report_t *rep = NULL;
        err_t e3;
        gm_err_clear(&e3);
        int rrc = mr_report_build(&rep, &x.c, all, size, total, cm.proved, ndone, cm.root_verified, cm.wall_s, &e3);
        if (!rrc) {
            snprintf(res->report_json, sizeof res->report_json, "%s/report.json", x.c.output);
            snprintf(res->report_csv, sizeof res->report_csv, "%s/report.csv", x.c.output);
            rrc = mpi_report_save(rep, res->report_json, &e3);
            if (!rrc)
                rrc = mpi_report_save_csv(rep, res->report_csv, &e3);
        }
        res->report = rep;
        if (rrc) {
            res->report_json[0] = res->report_csv[0] = 0;
            if (!final) {
                final = rrc;
                *err = e3;
            }
        }
        if (!final && cm.proved + ndone != total && cm.interrupted) {
            final = GM_ECANCELED;
            gm_err_set(err, final,
                       "interrupted by signal %d (%s): %zu of %zu units done and journaled in %s, %zu left; rerun "
                       "the same command to resume",
                       cm.interrupted, strsignal(cm.interrupted), cm.proved + ndone, total, x.c.output,
                       total - cm.proved - ndone);
        } else if (!final && cm.proved + ndone != total) {
            final = GM_ESTATE;
            gm_err_set(err, final, "%zu of %zu units were not proved", total - cm.proved - ndone, total);
        }
    }
    MPI_Bcast(&final, 1, MPI_INT, 0, comm);
    if (final && rank != 0)
        gm_err_set(err, final, "rank %d: the campaign failed (see rank 0's message)", rank);
    rc = final;

finish:
    mr_out_close(out);
    free(done);
    free(written);
    free(pending);
    free(all);
    free(text);
    ctx_free(&x);
    MPI_Comm_free(&node);
    MPI_Comm_free(&comm);
    if (we_init)
        MPI_Finalize();
    return rc;
}
