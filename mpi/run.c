/*
 * mpi/run.c — mpi_campaign_run: one campaign on every rank of the job.
 *
 * DESIGN
 *  - This file is the MPI driver only: the parameter cache (generation,
 *    digests, manifest, stamps, shapes) is params/'s, the output directory
 *    and journal resume.c's, the roles pipeline.c's and dispatch.c's.
 *  - Phases, in this order, every rank taking part in each, one function
 *    each (phase_*):
 *     1. phase_mpi_init: MPI_Init_thread(SERIALIZED) unless MPI is already
 *        up; a private duplicate of MPI_COMM_WORLD; the ranks on this node
 *        (shared-memory split) to share the node's cores and RAM among them.
 *     2. phase_validate: rank 0 alone (root_prepare) reads and validates the
 *        campaign (jobs/), ensures the parameters (params_ensure: generates
 *        missing test parameters with "setup": "auto", checks the digest
 *        against the cache's manifest.json), opens the output directory and
 *        its journal (resume.c: which units are finished). Then ONE
 *        broadcast: a status and either the normalized campaign text or
 *        nothing. A bad campaign thus fails on rank 0 before any other rank
 *        does work, and no rank waits for anything after it.
 *     3. phase_setup: every rank parses the text, loads the topology, its
 *        prover pool, the shape and the parameters (every point checked
 *        unless trust_params or the check stamp), creates the prover and the
 *        unit source, sizes the pipeline from the memory budget. Then ONE
 *        gather of every rank's status and message to rank 0 and one
 *        broadcast of the verdict, so an unreadable parameter file on any
 *        node stops every rank, and rank 0 names the rank, host and file.
 *     4. phase_dispatch: the roles (pipeline.c, dispatch.c) until every unit
 *        is written or an error stopped the hand-out and every rank has
 *        drained.
 *     5. phase_report: rank 0 builds the report from every rank's DONE
 *        metrics and writes report.json and report.csv; one broadcast of the
 *        final status.
 *  - MPI calls: the main thread in phases 1-3 and 5, the comm role in phase
 *    4; topo_pool_run's start and end order them, so at most one thread is
 *    ever inside MPI (MPI_THREAD_SERIALIZED).
 *  - A stop request (mpi_opts_t.interrupt, SIGTERM/SIGINT): dispatch.c
 *    drains every rank and the run ends with GM_ECANCELED after the units
 *    in flight are written; phase 5 runs as usual (report, final status).
 *  - A killed rank: mpirun aborts the whole job; what rank 0 had written
 *    and journaled stays, and the next run resumes.
 *  - A campaign with "split": R > 1 (split_campaign.c): phase 2 refuses an
 *    R that does not divide the ranks; phase 3 checks the key's digest per
 *    node as above but loads no parameters and makes no prover (each unit's
 *    mpi_split_prove reads the rank's slices), rank 0 verifying with the .vk
 *    file; phase 4 is the groups' loop on the main thread (no roles); phase
 *    5 adds the groups' split accounts to the report. A "snarkjs" campaign
 *    with split has no key digest per node and no .vk: phase 3 is
 *    zkey_setup with P / R groups, and each group checks its proofs against
 *    the sector's zkey (split_campaign.c's zkey_unit).
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
#include "params/params.h"

typedef struct {
    int32_t code;
    char msg[GM_ERR_MSG_LEN];
} wire_status_t;

/* ---- the parameters: checked once per node, and once per file ----
 *
 * The full load (every point's subgroup check) is the slow part of set-up
 * (tens of seconds per rank for PoRep parameters; bench/README.md). Two
 * savings, neither of which lets a changed file through:
 *  - per node: the node's first rank (MPI_COMM_TYPE_SHARED) loads its own
 *    copy of the file by params/'s policy (params_load: its digest compared
 *    with rank 0's, every point checked unless the digest is vouched for);
 *    the node's other ranks wait for it, then load the same file without the
 *    subgroup checks (and map the converted points the first rank wrote),
 *    after checking it is still the same file (device, inode, size, mtime as
 *    the first rank saw it);
 *  - per file: a first rank that checked every point writes
 *    "<file>.checked" with the digest and size (params_load; our setup
 *    writes it for the points it made); a later run whose digest and size
 *    match loads without subgroup checks on every node. The digest, not the
 *    time stamp, is the key: a changed file has another digest, and the
 *    stamp no longer applies.
 * The digest itself comes from params/'s stamp when the file is unchanged
 * (size, mtime, inode), and is computed in full with --check-params, which
 * also ignores the .checked stamp and the shape's stamp.
 * trust_params: none of this; every rank loads without subgroup checks. */

/* A file's identity (and, sent by a node's first rank, its load status). */
typedef struct {
    int32_t rc;
    params_ident_t id;
} wire_ident_t;

/* What rank 0 tells every rank about the parameter file (phase 2). */
typedef struct {
    char digest[PARAMS_DIGEST_HEX + 1]; /* rank 0's copy, this run */
    uint8_t stamped;                    /* a file with this digest passed every check before */
    uint8_t trust;                      /* the campaign's trust_params (known even where parsing failed) */
    uint8_t full;                       /* --check-params: no stamps anywhere */
    uint8_t zkey;                       /* a "snarkjs" campaign: no parameter file (zkey_campaign.c) */
    params_ident_t ident;               /* rank 0's copy as it was hashed */
} wire_params_t;

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

/* params_note_fn over the progress callback. */
typedef struct {
    mpi_progress_fn fn;
    void *arg;
} note_ctx_t;

static void note_line(void *arg, const char *line)
{
    note_ctx_t *n = arg;
    if (n->fn)
        note(n->fn, n->arg, line);
    else
        gm_log(GM_LOG_DEBUG, "%s", line);
}

/* Rank 0's parameter step (params_ensure, under the cache's lock): generate
 * what is missing ("setup": "auto"), then check the digest against the
 * manifest. Another process setting up the same cache (a second Slurm
 * array task) is waited for, and then finds the files it made instead of
 * replacing them. */
static int cache_params(wire_params_t *wp, const params_paths_t *pp, const jobs_campaign_t *c, unsigned threads,
                        bool full, mpi_progress_fn fn, void *arg, err_t *err)
{
    note_ctx_t nc = {fn, arg};
    params_ensure_opts_t o = {.seed = c->has_setup_seed ? c->setup_seed : NULL, .threads = threads,
                              .note = note_line, .note_arg = &nc, .campaign = c->file[0] ? c->file : "campaign"};
    params_ensure_t r;
    unsigned flags = (c->setup_auto ? PARAMS_ENSURE_GENERATE : 0) | (full ? PARAMS_ENSURE_FULL : 0);
    int rc = params_ensure(&r, pp, &c->circuit, flags, &o, err);
    if (rc)
        return rc;
    memcpy(wp->digest, r.digest, sizeof wp->digest);
    wp->ident = r.ident;
    return 0;
}

static int vk_digest(uint8_t out[32], const params_paths_t *pp, err_t *err)
{
    uint8_t *buf;
    size_t len;
    int rc = gm_file_read(&buf, &len, pp->vk, err);
    if (rc)
        return rc;
    SHA256(buf, len, out);
    gm_free(buf);
    return 0;
}

/* The journal's key digest of a "snarkjs" campaign: SHA-256 over the
 * SHA-256 of each sector's zkey file, in sector order (a changed key makes
 * the journal refuse to resume, as a changed .vk does). */
static int zkey_digest(uint8_t out[32], const jobs_campaign_t *c, err_t *err)
{
    uint8_t *all = malloc(c->nsectors * 32 + 1);
    if (!all)
        return gm_err_set(err, GM_ENOMEM, "out of memory for %zu zkey digests", c->nsectors);
    const char *prev = NULL;
    for (size_t i = 0; i < c->nsectors; i++) {
        const char *p = c->sectors[i].path;
        if (prev && !strcmp(prev, p)) {
            memcpy(all + 32 * i, all + 32 * (i - 1), 32);
            continue;
        }
        uint8_t *buf;
        size_t len;
        int rc = gm_file_read(&buf, &len, p, err);
        if (rc) {
            free(all);
            return rc;
        }
        SHA256(buf, len, all + 32 * i);
        gm_free(buf);
        prev = p;
    }
    SHA256(all, c->nsectors * 32, out);
    free(all);
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
    params_paths_t paths; /* the campaign's circuit in its parameter cache */
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
    params_ident_t ident; /* split campaigns: the parameter file as this node digested it */
    note_ctx_t notes;     /* params_load's lines: rank 0's progress, elsewhere the debug log */
    bool lent;            /* the set-up of the shape comes from the resident store (resident_lend) */
    bool resident;        /* mpi_opts_t.resident: others may be kept beside this run's (the budget) */
    uint64_t prep_extra;  /* the prepare-only provers' bytes (prep_provers) */
    uint64_t load_ns;     /* phase 3's loading of the shape's set-up (0 when lent) */
} rank_ctx_t;

/* ---- the set-ups kept between runs (mpi_opts_t.resident; grothmpi serve) ----
 * What phase 3 makes for one circuit shape and does not depend on the
 * campaign's sectors: the topology and pools, the shape, the parameters,
 * the provers, rank 0's prepared vk, the counters. Kept after a run that
 * succeeded when the caller asks, and taken by the next resident run of the
 * same key (circuit, parameter file and digest, threads, topology, domains,
 * pin) instead of loading again. Several shapes are kept, their bytes
 * (parameters and provers) within the rank's memory budget: before a load
 * (by the parameter file's decoded size) and again before the run's
 * pipeline is sized (by what the run needs), the least recently used are
 * freed until the others and the new one fit; a shape that alone exceeds
 * the budget is kept alone. Every rank decides to take a set-up or not the
 * same way (mpi_campaign_run agrees first), since the node's parameter load
 * is collective; eviction is by the same sizes and order on every rank. */
#define RESIDENT_MAX 8

typedef struct {
    bool have;
    char key[3 * JOBS_PATH_LEN + 256];
    uint64_t used;  /* the run that last took it (LRU) */
    uint64_t bytes; /* parameters + provers */
    topo_t *topo;
    topo_pool_t *pool, *roles, **prep;
    unsigned nprep;
    groth16_prover_t **prep_provers, **prep_own;
    topo_slot_t *prep_leaders;
    cs_shape_t *shape;
    groth16_params_t *params;
    groth16_prover_t *prover;
    groth16_pvk_t pvk;
    bool have_pvk;
    topo_evset_t *evset;
    topo_counters_t *ctr;
    unsigned cstage;
    uint64_t prep_extra;
} resident_t;

static resident_t resident[RESIDENT_MAX];
static uint64_t resident_clock;

static void resident_key(char *out, size_t n, const rank_ctx_t *x, const mpi_opts_t *o, const char *digest)
{
    const jobs_campaign_t *c = &x->c;
    snprintf(out, n, "%s|%s|%s|%u|%s|%u|%d", c->circuit.id, c->params_dir, digest,
             o && o->threads ? o->threads : c->threads, c->topology, c->domains, (int)c->pin);
}

static void ctx_free(rank_ctx_t *x);

/* The slot kept under key, or -1. */
static int resident_find(const char *key)
{
    for (int i = 0; i < RESIDENT_MAX; i++)
        if (resident[i].have && !strcmp(resident[i].key, key))
            return i;
    return -1;
}

/* Frees slot i (empty: nothing). */
static void resident_drop(int i)
{
    resident_t *s = &resident[i];
    if (!s->have)
        return;
    rank_ctx_t t;
    memset(&t, 0, sizeof t);
    t.topo = s->topo;
    t.pool = s->pool;
    t.roles = s->roles;
    t.prep = s->prep;
    t.nprep = s->nprep;
    t.prep_provers = s->prep_provers;
    t.prep_own = s->prep_own;
    t.prep_leaders = s->prep_leaders;
    t.shape = s->shape;
    t.params = s->params;
    t.prover = s->prover;
    t.pvk = s->pvk;
    t.have_pvk = s->have_pvk;
    t.evset = s->evset;
    t.ctr = s->ctr;
    memset(s, 0, sizeof *s);
    ctx_free(&t);
}

uint64_t mr_resident_tick(void) { return ++resident_clock; }

/* The bytes every kept set-up (and kept zkey: zkey_campaign.c) holds together. */
static uint64_t resident_bytes(void)
{
    uint64_t b = mr_zkey_kept_bytes();
    for (int i = 0; i < RESIDENT_MAX; i++)
        b += resident[i].have ? resident[i].bytes : 0;
    return b;
}

/* Frees the least recently used set-ups until they and `need` more bytes
 * fit in budget (or none is left). Returns how many it freed. */
static unsigned resident_evict(uint64_t need, uint64_t budget)
{
    unsigned n = 0;
    while (resident_bytes() + need > budget) {
        int lru = -1;
        for (int i = 0; i < RESIDENT_MAX; i++)
            if (resident[i].have && (lru < 0 || resident[i].used < resident[lru].used))
                lru = i;
        uint64_t zused;
        if (mr_zkey_oldest(&zused) && (lru < 0 || zused < resident[lru].used)) {
            mr_zkey_evict_oldest();
            n++;
            continue;
        }
        if (lru < 0)
            break;
        gm_log(GM_LOG_DEBUG, "resident: %s evicted (%llu bytes; budget %llu, %llu more needed)", resident[lru].key,
               (unsigned long long)resident[lru].bytes, (unsigned long long)budget, (unsigned long long)need);
        resident_drop(lru);
        n++;
    }
    return n;
}

/* Moves x's shape-wide set-up into the store (x keeps the per-run parts),
 * into a free slot or the least recently used one. */
static void resident_keep(rank_ctx_t *x, const char *key, uint64_t prep_extra)
{
    int i = resident_find(key), lru = 0;
    for (int k = 0; i < 0 && k < RESIDENT_MAX; k++) {
        if (!resident[k].have) {
            i = k;
            break;
        }
        if (resident[k].used < resident[lru].used)
            lru = k;
    }
    if (i < 0)
        i = lru;
    resident_drop(i);
    uint64_t bytes = groth16_params_memory(x->params) + groth16_prover_memory(x->prover) + prep_extra;
    resident[i] = (resident_t){.have = true, .used = mr_resident_tick(), .bytes = bytes, .topo = x->topo,
                               .pool = x->pool, .roles = x->roles, .prep = x->prep, .nprep = x->nprep,
                               .prep_provers = x->prep_provers, .prep_own = x->prep_own,
                               .prep_leaders = x->prep_leaders, .shape = x->shape, .params = x->params,
                               .prover = x->prover, .pvk = x->pvk, .have_pvk = x->have_pvk, .evset = x->evset,
                               .ctr = x->ctr, .cstage = x->cstage, .prep_extra = prep_extra};
    snprintf(resident[i].key, sizeof resident[i].key, "%s", key);
    x->topo = NULL;
    x->pool = x->roles = NULL;
    x->prep = NULL;
    x->prep_provers = x->prep_own = NULL;
    x->prep_leaders = NULL;
    x->shape = NULL;
    x->params = NULL;
    x->prover = NULL;
    x->have_pvk = false;
    x->evset = NULL;
    x->ctr = NULL;
}

/* Lends slot i's set-up to x for one run (the slot is emptied: x owns it
 * until resident_keep). */
static void resident_lend(rank_ctx_t *x, int i)
{
    resident_t *s = &resident[i];
    x->topo = s->topo;
    x->pool = s->pool;
    x->roles = s->roles;
    x->prep = s->prep;
    x->nprep = s->nprep;
    x->prep_provers = s->prep_provers;
    x->prep_own = s->prep_own;
    x->prep_leaders = s->prep_leaders;
    x->shape = s->shape;
    x->params = s->params;
    x->prover = s->prover;
    x->pvk = s->pvk;
    x->have_pvk = s->have_pvk;
    x->evset = s->evset;
    x->ctr = s->ctr;
    x->cstage = s->cstage;
    x->prep_extra = s->prep_extra;
    memset(s, 0, sizeof *s);
}

void mpi_resident_release(void)
{
    for (int i = 0; i < RESIDENT_MAX; i++)
        resident_drop(i);
    mr_zkey_release();
}


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
 * loop the kernel bills as system time on a core the working rank needs (most
 * of the setup's CPU on a 2-core node: `make demo`, bench/README.md). So: a
 * non-blocking broadcast, tested every 5 ms and asleep in between. */
void mr_wait_idle(void *request)
{
    const struct timespec nap = {0, 5 * 1000 * 1000};
    for (;;) {
        int done = 0;
        MPI_Test((MPI_Request *)request, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nanosleep(&nap, NULL);
    }
}

static void bcast_idle(void *buf, int count, MPI_Datatype type, MPI_Comm comm)
{
    MPI_Request req;
    MPI_Ibcast(buf, count, type, 0, comm, &req);
    mr_wait_idle(&req);
}

/* Phase 3's parameter load on one rank (MPI on the main thread: node is this
 * node's communicator), through params_load: the node's first rank by the
 * policy (every point checked unless the digest is vouched for), the others
 * after it, vouched for by it. Returns like params_load, plus GM_EVERIFY (this
 * node's copy has another digest than rank 0's, or the file changed since
 * rank 0 hashed it) and GM_EINVAL (the node's first rank failed: see its
 * message). prior: this rank's set-up already failed with that status (err
 * holds its message): it only takes part in the node's broadcast and returns
 * prior. */
static int load_params_node(rank_ctx_t *x, const wire_params_t *wp, MPI_Comm node, int rank, int prior, err_t *err)
{
    const char *pp = x->paths.params;
    /* A split campaign's ranks read their slices unit by unit
     * (split_campaign.c): here only the digest, and the file's identity
     * for the later units. */
    bool digest_only = x->c.split > 1;
    params_loaded_t info;
    if (wp->trust && digest_only)
        return prior ? prior : params_ident(&x->ident, pp, err);
    if (wp->trust)
        return prior ? prior
                     : params_load(&x->params, &info, pp, x->shape, PARAMS_LOAD_TRUSTED | PARAMS_LOAD_NO_HASH,
                                   x->pool, note_line, &x->notes, err);
    int node_rank;
    MPI_Comm_rank(node, &node_rank);
    wire_ident_t id;
    memset(&id, 0, sizeof id);
    int rc = prior;
    if (node_rank == 0 && !prior && digest_only) {
        char d[PARAMS_DIGEST_HEX + 1];
        rc = params_ident(&id.id, pp, err);
        if (!rc && rank == 0 && !params_ident_eq(&id.id, &wp->ident))
            rc = gm_err_set(err, GM_EVERIFY, "%s: changed since its digest was checked", pp);
        /* Rank 0 hashed its copy moments ago (phase 2); other nodes hash theirs. */
        if (!rc && rank != 0 && !(rc = params_file_digest(d, NULL, pp, err)) && strcmp(d, wp->digest) != 0)
            rc = gm_err_set(err, GM_EVERIFY, "%s: BLAKE2b digest %s on this node, rank 0's copy has %s", pp, d,
                            wp->digest);
        x->ident = id.id;
    } else if (node_rank == 0 && !prior) {
        /* Rank 0 hashed its copy moments ago (phase 2) and knows whether that
         * digest passed every check before; another node's first rank takes
         * its own copy's digest and .checked (params_load hashes it when
         * unstamped), so a different copy is refused, and an unchecked one
         * checked, on that node. */
        unsigned fl = wp->full                    ? PARAMS_LOAD_CHECK | (rank == 0 ? 0 : PARAMS_LOAD_REHASH)
                      : rank == 0 && wp->stamped ? PARAMS_LOAD_TRUSTED
                                                 : PARAMS_LOAD_DEFAULT;
        rc = params_load(&x->params, &info, pp, x->shape, fl, x->pool, note_line, &x->notes, err);
        if (!rc && info.digest[0] && strcmp(info.digest, wp->digest) != 0)
            rc = gm_err_set(err, GM_EVERIFY, "%s: BLAKE2b digest %s on this node, rank 0's copy has %s", pp,
                            info.digest, wp->digest);
        else if (!rc && rank == 0 && !params_ident_eq(&info.ident, &wp->ident))
            rc = gm_err_set(err, GM_EVERIFY, "%s: changed since its digest was checked", pp);
        if (!rc) {
            id.id = info.ident;
            gm_log(GM_LOG_DEBUG, "rank %d: %s: %s", rank, pp,
                   info.checked_now ? "every point checked" : "digest matches the check stamp: no subgroup checks");
        }
    }
    id.rc = rc;
    bcast_idle(&id, (int)sizeof id, MPI_BYTE, node);
    if (node_rank == 0 || prior)
        return rc;
    if (id.rc)
        return gm_err_set(err, GM_EINVAL, "%s: refused by this node's first rank (see its message)", pp);
    params_ident_t mine = {0};
    if ((rc = params_ident(&mine, pp, err)))
        return rc;
    if (!params_ident_eq(&mine, &id.id))
        return gm_err_set(err, GM_EVERIFY, "%s: not the file this node's first rank checked (changed since?)", pp);
    if (digest_only) {
        x->ident = mine;
        return 0;
    }
    gm_log(GM_LOG_DEBUG, "rank %d: %s: checked by this node's first rank: no subgroup checks", rank, pp);
    /* params_load refuses a file that changed while it loaded it. */
    if ((rc = params_load(&x->params, &info, pp, x->shape,
                          PARAMS_LOAD_TRUSTED | PARAMS_LOAD_NO_WRITE | PARAMS_LOAD_NO_HASH, x->pool, note_line,
                          &x->notes, err)))
        return rc;
    if (!params_ident_eq(&mine, &info.ident))
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

/* Phase 3's end on one rank of a split campaign: no prover (mpi_split_prove
 * makes its own per unit), the unit source, rank 0's verifying key (from
 * the .vk file: no rank holds the whole parameters) and the rank state. */
static int split_setup(rank_ctx_t *x, int rank, int size, err_t *err)
{
    int rc = jobs_source_open(&x->src, &x->c, err);
    if (!rc && rank == 0) {
        groth16_vk_t vk;
        if ((rc = groth16_vk_load(&vk, x->paths.vk, err)))
            return rc;
        rc = groth16_pvk_prepare(&x->pvk, &vk, err);
        groth16_vk_free(&vk);
        x->have_pvk = !rc;
    }
    if (!rc && !(rc = mr_split_state_init(&x->st, &x->c, rank, size / (int)x->c.split, err))) {
        x->have_state = true;
        x->st.topo = x->topo;
        x->st.src = x->src;
        x->st.pool = x->pool;
        x->st.pvk = x->have_pvk ? &x->pvk : NULL;
    }
    return rc;
}

/* A rank's memory budget: --mem-budget, else the campaign's
 * resources.mem_budget, else half the node's RAM over its ranks; *what
 * names it in messages. */
static uint64_t rank_budget(const char **what, const jobs_campaign_t *c, const mpi_opts_t *o, int node_size)
{
    *what = o && o->mem_budget ? "--mem-budget"
            : c->mem_budget    ? "resources.mem_budget"
                               : "memory budget (half the node's RAM over its ranks)";
    uint64_t budget = o && o->mem_budget ? o->mem_budget : c->mem_budget;
    return budget ? budget : node_ram() / 2 / (uint64_t)(node_size > 0 ? node_size : 1);
}

/* Phase 3 on one rank. file: the campaign's path (messages). */
static int rank_setup(rank_ctx_t *x, const mpi_opts_t *o, const char *file, int rank, int size, MPI_Comm node,
                      int node_size, const wire_params_t *wp, err_t *err)
{
    jobs_campaign_t *c = &x->c;
    uint64_t prep_extra = x->prep_extra;
    uint64_t t_load = gm_now_ns();
    int rc;
    if (x->lent) { /* the shape's set-up is resident: only this run's parts */
        if ((rc = params_paths(&x->paths, c->params_dir, c->circuit.id, err)) ||
            (rc = jobs_source_open(&x->src, c, err)))
            return rc;
        goto budget;
    }
    rc = topo_load(&x->topo, c->topology, err);
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
    if (!rc && c->split <= 1)
        rc = prep_setup(x, file, rank, err);
    if (!rc)
        rc = params_paths(&x->paths, c->params_dir, c->circuit.id, err);
    if (!rc)
        rc = params_shape_load(&x->shape, NULL, &x->paths, wp->full, err);
    /* Every rank of the node takes part in the node's load, even after a
     * failure above (the node's ranks meet in one broadcast there). */
    rc = load_params_node(x, wp, node, rank, rc, err);
    if (c->split > 1)
        return rc ? rc : split_setup(x, rank, size, err);
    prep_extra = 0;
    if (rc || (rc = groth16_prover_create(&x->prover, x->params, x->shape, x->pool, err)) ||
        (rc = prep_provers(x, &prep_extra, err)) || (rc = jobs_source_open(&x->src, c, err)))
        return rc;
    if (rank == 0) {
        if ((rc = groth16_pvk_prepare(&x->pvk, groth16_params_vk(x->params), err)))
            return rc;
        x->have_pvk = true;
    }
    x->prep_extra = prep_extra;
    x->load_ns = gm_now_ns() - t_load;
budget:;
    /* The memory budget: parameters + prover scratch (the rank's prover and
     * the other domains' prepare scratch, since N prepares run at once) +
     * the units in flight (pipeline.c: witnesses and prepared units), and
     * the other shapes' set-ups kept resident beside it. */
    const char *bname;
    uint64_t budget = rank_budget(&bname, c, o, node_size);
    mr_budget_t bu = {.budget = budget,
                      .what = bname,
                      .params = groth16_params_memory(x->params),
                      .prover = groth16_prover_memory(x->prover) + prep_extra,
                      /* PoRep witnesses come compact (jobs_source_witness_compact):
                       * about 1 B per aux value instead of 32 */
                      .witness = (x->shape->n_inputs * sizeof(fr_t) +
                                  groth16_witness_bytes(x->shape->n_aux, jobs_source_witness_compact(c),
                                                        GROTH16_COMPACT_DENSE_FRAC)) * 2 + 4096,
                      .unit = groth16_prepared_bytes(x->prover)};
    if (x->resident) { /* the least recently used others make room for this run's least */
        uint64_t need = bu.params + bu.prover + (uint64_t)c->batch_size * (bu.witness + bu.unit) + bu.witness;
        resident_evict(need, budget);
        uint64_t others = resident_bytes();
        bu.budget = others < budget ? budget - others : 0;
    }
    unsigned depth;
    if ((rc = mr_pipeline_depth(&depth, &bu, c->batch_size, c->pipeline_depth, err)) ||
        (rc = mr_state_init(&x->st, c, rank, size, depth, x->prover, err)))
        return rc;
    x->have_state = true;
    x->st.m.load_ns = x->load_ns;
    x->st.m.resident = x->lent;
    MPI_Comm_rank(node, &x->st.node_rank);
    x->st.node_size = node_size;
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
    if (x->lent ? x->ctr != NULL
                : topo_evset_create(&x->evset, NULL, &e2) == 0 &&
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

/* Phase 3 on one rank of a "snarkjs" campaign: the topology and the pool
 * (each unit's zkey is loaded by zkey_campaign.c) and the rank state. */
static int zkey_setup(rank_ctx_t *x, const mpi_opts_t *o, int rank, int size, int node_size, err_t *err)
{
    const jobs_campaign_t *c = &x->c;
    int rc = topo_load(&x->topo, c->topology, err);
    if (rc) {
        err_t e2 = *err;
        return gm_err_set(err, rc, "%s: resources.topology: %s", c->file[0] ? c->file : "campaign", e2.msg);
    }
    unsigned threads = o && o->threads ? o->threads : c->threads;
    if (!threads)
        threads = topo_core_count(x->topo) / (unsigned)(node_size > 0 ? node_size : 1);
    if ((rc = topo_pool_create_flat(&x->pool, threads ? threads : 1, err)) ||
        (rc = mr_split_state_init(&x->st, c, rank, size / (int)(c->split > 1 ? c->split : 1), err)))
        return rc;
    x->have_state = true;
    x->st.topo = x->topo;
    x->st.pool = x->pool;
    x->st.rank_verifies = true;
    const char *bname;
    x->st.m.mem_budget = rank_budget(&bname, c, o, node_size);
    return 0;
}

/* ---- the phases of mpi_campaign_run ---------------------------------------------------- */

/* The job as this rank sees it (phase 1). */
typedef struct {
    MPI_Comm comm, node;
    int rank, size, node_size;
    bool we_init;
    char host[64];
} job_t;

/* What rank 0 alone holds: the output directory and the units' states. */
typedef struct {
    mr_out_t *out;
    bool *done, *written;
    size_t *pending;
    mr_metrics_t *all;
    size_t ndone, total;
} root_t;

static void root_free(root_t *r)
{
    mr_out_close(r->out);
    free(r->done);
    free(r->written);
    free(r->pending);
    free(r->all);
}

/* Phase 1: MPI up (unless it already is), a private communicator and this
 * node's. Returns 0 or GM_EMPI (MPI is left as it was found). */
static int phase_mpi_init(job_t *j, err_t *err)
{
    memset(j, 0, sizeof *j);
    int inited = 0, provided = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
            return gm_err_set(err, GM_EMPI, "MPI_Init_thread failed");
        j->we_init = true;
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        if (j->we_init)
            MPI_Finalize();
        return gm_err_set(err, GM_EMPI, "this MPI library gives thread level %d, grothmpi needs MPI_THREAD_SERIALIZED",
                          provided);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &j->comm);
    MPI_Comm_rank(j->comm, &j->rank);
    MPI_Comm_size(j->comm, &j->size);
    MPI_Comm_split_type(j->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &j->node);
    MPI_Comm_size(j->node, &j->node_size);
    snprintf(j->host, sizeof j->host, "?");
    gethostname(j->host, sizeof j->host);
    j->host[sizeof j->host - 1] = 0;
    return 0;
}

static void phase_mpi_end(job_t *j)
{
    MPI_Comm_free(&j->node);
    MPI_Comm_free(&j->comm);
    if (j->we_init)
        MPI_Finalize();
}

/* Phase 2 on rank 0: reads the campaign, ensures the parameters, opens the
 * output directory and its journal, and makes the campaign's normalized text
 * (*text) for the other ranks. */
static int root_prepare(rank_ctx_t *x, root_t *r, wire_params_t *wp, char **text, const char *campaign_path,
                        const mpi_opts_t *opts, int size, mpi_progress_fn progress, void *arg, err_t *e)
{
    int rc = jobs_campaign_load(&x->c, campaign_path, JOBS_PARSE_DEFAULT, e);
    if (!rc && x->c.split > 1 && size % (int)x->c.split)
        rc = gm_err_set(e, GM_EINVAL,
                        "%s: split: %u does not divide the job's %d rank%s (groups of split ranks prove each unit: "
                        "run a multiple of %u ranks, or change split)",
                        campaign_path, x->c.split, size, size == 1 ? "" : "s", x->c.split);
    bool full = opts && opts->check_params;
    wp->full = full;
    uint8_t vk_sha[32];
    if (!rc && x->c.zkey) {
        wp->zkey = 1;
        if (!(rc = zkey_digest(vk_sha, &x->c, e)))
            goto units;
    }
    if (!rc)
        rc = params_paths(&x->paths, x->c.params_dir, x->c.circuit.id, e);
    unsigned sthreads = opts && opts->threads ? opts->threads : x->c.threads;
    if (!rc && x->c.mode != JOBS_MODE_CHECK)
        rc = cache_params(wp, &x->paths, &x->c, sthreads, full, progress, arg, e);
    wp->trust = !rc && x->c.trust_params;
    if (!rc && !x->c.trust_params && !full &&
        (wp->stamped = params_checked_matches(&x->paths, wp->digest, wp->ident.size))) {
        char line[JOBS_PATH_LEN + 200];
        snprintf(line, sizeof line,
                 "params: digest %s passed every point check before (%s.params.checked): subgroup checks skipped",
                 wp->digest, x->c.circuit.id);
        note(progress, arg, line);
    }
    if (!rc && x->c.mode == JOBS_MODE_PROVE)
        rc = vk_digest(vk_sha, &x->paths, e);
units:
    if (!rc) {
        r->total = jobs_unit_count(&x->c);
        r->done = calloc(r->total, sizeof *r->done);
        r->written = calloc(r->total, sizeof *r->written);
        r->pending = calloc(r->total + 1, sizeof *r->pending);
        r->all = calloc((size_t)size, sizeof *r->all);
        if (!r->done || !r->written || !r->pending || !r->all)
            rc = gm_err_set(e, GM_ENOMEM, "out of memory for %zu units", r->total);
    }
    if (!rc && x->c.mode == JOBS_MODE_PROVE)
        rc = mr_out_open(&r->out, &x->c, vk_sha, r->done, &r->ndone, e);
    if (!rc && !(*text = jobs_campaign_to_text(&x->c)))
        rc = gm_err_set(e, GM_ENOMEM, "out of memory");
    return rc;
}

/* Phase 2 on every rank: rank 0 prepares, then ONE status broadcast and the
 * campaign text. Returns 0 or the same status on every rank (err: rank 0's
 * message there, "see rank 0" elsewhere). */
static int phase_validate(rank_ctx_t *x, root_t *r, wire_params_t *wp, char **text, const job_t *j,
                          const char *campaign_path, const mpi_opts_t *opts, mpi_progress_fn progress, void *arg,
                          err_t *err)
{
    wire_status_t ws;
    memset(&ws, 0, sizeof ws);
    memset(wp, 0, sizeof *wp);
    uint64_t tlen = 0;
    if (j->rank == 0) {
        err_t e;
        gm_err_clear(&e);
        ws.code = root_prepare(x, r, wp, text, campaign_path, opts, j->size, progress, arg, &e);
        snprintf(ws.msg, sizeof ws.msg, "%s", e.msg);
        tlen = *text ? strlen(*text) + 1 : 0;
    }
    bcast_idle(&ws, (int)sizeof ws, MPI_BYTE, j->comm);
    MPI_Bcast(&tlen, 1, MPI_UINT64_T, 0, j->comm);
    MPI_Bcast(wp, (int)sizeof *wp, MPI_BYTE, 0, j->comm);
    if (ws.code) {
        if (j->rank == 0)
            return gm_err_set(err, ws.code, "%s", ws.msg);
        return gm_err_set(err, ws.code, "rank %d: the campaign failed on rank 0 (see its message)", j->rank);
    }
    if (j->rank != 0 && !(*text = malloc(tlen)))
        abort(); /* a few KiB: no recovering from this on a rank */
    MPI_Bcast(*text, (int)tlen, MPI_CHAR, 0, j->comm);
    return 0;
}

/* Phase 3: every rank sets up, then ONE gather of the statuses and one
 * broadcast of the verdict. prior: this rank already failed (parsing rank
 * 0's text) with that status and message e; it only meets the others. */
static int phase_setup(rank_ctx_t *x, int prior, err_t *e, const job_t *j, const wire_params_t *wp,
                       const char *campaign_path, const mpi_opts_t *opts, err_t *err)
{
    int rc = prior;
    if (!rc && wp->zkey)
        rc = zkey_setup(x, opts, j->rank, j->size, j->node_size, e);
    else if (!rc)
        rc = rank_setup(x, opts, campaign_path, j->rank, j->size, j->node, j->node_size, wp, e);
    else if (!wp->zkey)
        (void)load_params_node(x, wp, j->node, j->rank, rc, e); /* the node's ranks meet there */
    wire_status_t ws;
    memset(&ws, 0, sizeof ws);
    ws.code = rc;
    snprintf(ws.msg, sizeof ws.msg, "%s", e->msg);
    wire_status_t *st_all = j->rank == 0 ? calloc((size_t)j->size, sizeof *st_all) : NULL;
    if (j->rank == 0 && !st_all)
        abort();
    MPI_Gather(&ws, (int)sizeof ws, MPI_BYTE, st_all, (int)sizeof ws, MPI_BYTE, 0, j->comm);
    int verdict = 0;
    if (j->rank == 0) {
        for (int r = 0; r < j->size && !verdict; r++)
            if (st_all[r].code) {
                verdict = st_all[r].code;
                if (j->size > 1)
                    gm_err_set(err, verdict, "rank %d: %s", r, st_all[r].msg);
                else
                    gm_err_set(err, verdict, "%s", st_all[r].msg);
            }
        free(st_all);
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, j->comm);
    if (verdict && j->rank != 0)
        gm_err_set(err, verdict, "rank %d: set-up failed on a rank (see rank 0's message)", j->rank);
    return verdict;
}

/* Phase 4: the roles (pipeline.c, dispatch.c), or a split campaign's groups
 * (split_campaign.c), until every unit is written or an error stopped the
 * hand-out. Rank 0's counts land in *cm. */
static void phase_dispatch(mr_comm_t *cm, rank_ctx_t *x, root_t *r, job_t *j, const wire_params_t *wp,
                           const mpi_opts_t *opts, mpi_progress_fn progress, void *arg, mpi_result_t *res)
{
    memset(cm, 0, sizeof *cm);
    cm->s = &x->st;
    cm->comm = &j->comm;
    cm->c = &x->c;
    cm->interrupt = opts ? opts->interrupt : NULL;
    snprintf(cm->host, sizeof cm->host, "%s", j->host);
    if (j->rank == 0) {
        cm->out = r->out;
        for (size_t u = 0; u < r->total; u++)
            if (!r->done[u])
                r->pending[cm->npending++] = u;
        cm->pending = r->pending;
        cm->written = r->written;
        cm->all = r->all;
        cm->total = r->total;
        cm->resumed = r->ndone;
        cm->progress = progress;
        cm->parg = arg;
        res->total = r->total;
        res->resumed = r->ndone;
    }
    x->st.t_start = gm_now_ns();
    if (wp->zkey && x->c.split <= 1) {
        mr_zkey_run(cm, opts && opts->resident);
        return;
    }
    if (x->c.split > 1) {
        mr_split_env_t env = {.zkey = wp->zkey, .params_path = x->paths.params, .ident = &x->ident,
                              .trust = wp->trust || wp->stamped, .shape = x->shape, .src = x->src,
                              .pool = x->pool, .interrupt = cm->interrupt};
        cm->split_ranks = j->size;
        if (j->rank == 0 && !(cm->split = calloc((size_t)j->size, sizeof *cm->split)))
            cm->split_ranks = 0; /* the report goes without the accounts */
        mr_split_run(cm, &env);
        return;
    }
    mr_roles_t roles_arg;
    memset(&roles_arg, 0, sizeof roles_arg);
    roles_arg.s = &x->st;
    roles_arg.comm = j->rank == 0 ? mr_comm_root : mr_comm_worker;
    roles_arg.comm_arg = cm;
    roles_arg.nprep = x->nprep;
    atomic_init(&roles_arg.claimed, 0);
    atomic_init(&roles_arg.prep_claimed, 0);
    topo_pool_run(x->roles, mr_roles_count(x->nprep), mr_roles_task, &roles_arg);
}

/* Phase 5: rank 0 builds and writes the report and decides the verdict;
 * one broadcast of it. Returns the verdict on every rank. */
static int phase_report(const mr_comm_t *cm, const rank_ctx_t *x, const root_t *r, const job_t *j,
                        mpi_result_t *res, err_t *err)
{
    int final = 0;
    if (j->rank == 0) {
        size_t total = r->total, ndone = r->ndone;
        res->proved = cm->proved;
        final = cm->fatal;
        if (final)
            *err = cm->ferr;
        mpi_report_t *rep = NULL;
        err_t e3;
        gm_err_clear(&e3);
        int rrc = mr_report_build(&rep, &x->c, r->all, j->size, total, cm->proved, ndone, cm->root_verified,
                                  cm->wall_s, &e3);
        if (!rrc && cm->split)
            rrc = mr_report_add_split(rep, cm->split, j->size, (int)x->c.split, &e3);
        if (!rrc) {
            snprintf(res->report_json, sizeof res->report_json, "%s/report.json", x->c.output);
            snprintf(res->report_csv, sizeof res->report_csv, "%s/report.csv", x->c.output);
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
        if (!final && cm->proved + ndone != total && cm->interrupted) {
            final = GM_ECANCELED;
            gm_err_set(err, final,
                       "interrupted by signal %d (%s): %zu of %zu units done and journaled in %s, %zu left; rerun "
                       "the same command to resume",
                       cm->interrupted, strsignal(cm->interrupted), cm->proved + ndone, total, x->c.output,
                       total - cm->proved - ndone);
        } else if (!final && cm->proved + ndone != total) {
            final = GM_ESTATE;
            gm_err_set(err, final, "%zu of %zu units were not proved", total - cm->proved - ndone, total);
        }
    }
    bcast_idle(&final, 1, MPI_INT, j->comm); /* the others wait for rank 0's last writes */
    if (final && j->rank != 0)
        gm_err_set(err, final, "rank %d: the campaign failed (see rank 0's message)", j->rank);
    return final;
}

int mpi_campaign_run(const char *campaign_path, const mpi_opts_t *opts, mpi_progress_fn progress, void *arg,
                     mpi_result_t *res, err_t *err)
{
    memset(res, 0, sizeof *res);
    job_t j;
    int rc = phase_mpi_init(&j, err);
    if (rc)
        return rc;
    res->rank = j.rank;
    res->size = j.size;
    rank_ctx_t x;
    memset(&x, 0, sizeof x);
    root_t r;
    memset(&r, 0, sizeof r);
    char *text = NULL;
    wire_params_t wp;
    char rkey[sizeof resident[0].key] = "";
    bool keep = false;
    if ((rc = phase_validate(&x, &r, &wp, &text, &j, campaign_path, opts, progress, arg, err)))
        goto finish;
    err_t e;
    gm_err_clear(&e);
    int prc = j.rank != 0 ? jobs_campaign_parse(&x.c, text, "campaign (from rank 0)", NULL, JOBS_PARSE_NO_FILES, &e) : 0;
    if (!prc && x.c.mode == JOBS_MODE_CHECK) { /* no prover: check.c */
        rc = mr_check_run(&x.c, &j.comm, j.rank, j.size, res, err);
        goto finish;
    }
    if (j.rank == 0)
        x.notes = (note_ctx_t){.fn = progress, .arg = arg};
    /* The resident set-up: taken only when every rank has it for this key
     * (the node's parameter load is collective), else dropped everywhere. */
    keep = opts && opts->resident && x.c.mode == JOBS_MODE_PROVE && x.c.split <= 1 && !wp.zkey;
    if (keep && !prc)
        resident_key(rkey, sizeof rkey, &x, opts, wp.digest);
    int slot = keep && !prc ? resident_find(rkey) : -1;
    int take = slot >= 0;
    if (opts && opts->resident) {
        MPI_Allreduce(MPI_IN_PLACE, &take, 1, MPI_INT, MPI_MIN, j.comm);
        x.resident = keep;
        if (take) {
            resident_lend(&x, slot);
            x.lent = true;
        } else if (slot >= 0) {
            resident_drop(slot); /* not on every rank: loaded again everywhere */
        }
        if (!take && keep && !prc) { /* room for the parameters about to be loaded */
            params_paths_t pp;
            uint64_t est = 0;
            const char *bname;
            err_t e2;
            if (params_paths(&pp, x.c.params_dir, x.c.circuit.id, &e2) == 0 &&
                groth16_params_decoded_bytes(&est, pp.params, &e2) == 0)
                resident_evict(est, rank_budget(&bname, &x.c, opts, j.node_size));
        }
    }
    if ((rc = phase_setup(&x, prc, &e, &j, &wp, campaign_path, opts, err)))
        goto finish;
    if (j.rank == 0 && x.st.backend_note[0])
        note(progress, arg, x.st.backend_note); /* auto's choice: one line on stdout, "prove: ..." */
    mr_comm_t cm;
    phase_dispatch(&cm, &x, &r, &j, &wp, opts, progress, arg, res);
    rc = phase_report(&cm, &x, &r, &j, res, err);
    free(cm.split);
    if (wp.zkey && opts && opts->resident) { /* the zkeys just kept, within the budget with the rest */
        const char *bname;
        resident_evict(0, rank_budget(&bname, &x.c, opts, j.node_size));
    }

finish:
    if (!rc && keep && x.prover)
        resident_keep(&x, rkey, x.prep_extra);
    res->resident = x.lent;
    root_free(&r);
    free(text);
    ctx_free(&x);
    phase_mpi_end(&j);
    return rc;
}
