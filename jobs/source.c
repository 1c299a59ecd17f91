/*
 * jobs/source.c — unit sources: one work unit in, one witness out.
 *
 * One implementation per input kind behind one small table (witness_fn):
 *  - TEST:   a built-in groth16 test circuit; the witness seed is
 *            jobs_unit_seed(sector seed, partition), so the same unit has the
 *            same public inputs on any rank, in any run.
 *  - SEALED, C1: one partition of the SDR PoRep circuit from a C1 JSON
 *            (porep_c1_read) or a sealed directory (porep_c1_prove with the
 *            sector's seed), through circuit_witness with the C1 as its
 *            source (synth/porep's porep_c1_witness), which checks the public
 *            inputs against the derived ones.
 * A source is used by one thread at a time (the pipeline's witness thread).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/jobs.h"
#include "synth/porep/porep.h"

#define C1_CACHE 4

typedef struct {
    size_t sector; /* SIZE_MAX: empty */
    uint64_t used;
    porep_c1_t c1;
    porep_graph_t g;
} c1_entry_t;

typedef int (*witness_fn)(jobs_source_t *s, size_t u, cs_mode_t mode, cs_t **out, err_t *err);

struct jobs_source {
    const jobs_campaign_t *c;
    witness_fn witness;
    /* porep */
    bool have_hashers;
    porep_hashers_t h;
    uint64_t tick;
    c1_entry_t cache[C1_CACHE];
};

static int witness_test(jobs_source_t *s, size_t u, cs_mode_t mode, cs_t **out, err_t *err)
{
    jobs_unit_t un = jobs_unit_get(s->c, u);
    const jobs_sector_t *sec = &s->c->sectors[un.sector];
    err_t e2;
    gm_err_clear(&e2);
    circuit_witness_opts_t o = {.seed = jobs_unit_seed(sec->seed, un.partition), .mode = mode};
    int rc = circuit_witness(out, &s->c->circuit, &o, &e2);
    if (rc)
        return gm_err_set(err, rc, "sector %s partition %u: %s", sec->id, un.partition, e2.msg);
    return 0;
}

/* ---- porep: C1 files and sealed directories -------------------------------------
 * A unit is one partition of a sector's C1: read from the file (porep_c1_read)
 * or made from the sealed directory with the sector's seed (porep_c1_prove,
 * exactly `grothmpi porep c1 DIR --seed <seed>`). The C1 and its SDR graph
 * stay in a small most-recently-used cache, so the partitions of a 32 GiB
 * sector (10 units, S apart in the partition-major order) do not read it ten
 * times when S is small. circuit_witness checks the witness's public inputs
 * against those a verifier derives from the C1 and the cached graph: a C1
 * whose vanilla proofs name other nodes than the graph and seed give fails
 * here, by sector. */
static void entry_clear(c1_entry_t *e)
{
    if (e->sector != SIZE_MAX) {
        porep_graph_destroy(&e->g);
        porep_c1_free(&e->c1);
    }
    memset(e, 0, sizeof *e);
    e->sector = SIZE_MAX;
}

static int sector_c1(jobs_source_t *s, size_t si, c1_entry_t **out, err_t *err);

static int witness_porep(jobs_source_t *s, size_t u, cs_mode_t mode, cs_t **out, err_t *err)
{
    jobs_unit_t un = jobs_unit_get(s->c, u);
    const jobs_sector_t *sec = &s->c->sectors[un.sector];
    const char *what = sec->kind == JOBS_SOURCE_SEALED ? "sealed" : "c1";
    const char *file = s->c->file[0] ? s->c->file : "campaign";
    *out = NULL;
    c1_entry_t *e = NULL;
    err_t e2;
    gm_err_clear(&e2);
    int rc = sector_c1(s, un.sector, &e, &e2);
    if (rc)
        return gm_err_set(err, rc, "%s: sector %s (%s '%s'): %s", file, sec->id, what, sec->path, e2.msg);
    /* A witness to prove is kept compact (0/1 values as bits: about 1 B
     * per value instead of 32); a check keeps the plain form. */
    circuit_witness_opts_t o = {.c1 = &e->c1, .graph = &e->g, .partition = un.partition, .mode = mode,
                                .flags = mode == CS_WITNESS ? CS_FLAG_COMPACT : CS_FLAG_NONE};
    if ((rc = circuit_witness(out, &s->c->circuit, &o, &e2)))
        return gm_err_set(err, rc, "%s: sector %s (%s '%s') %s", file, sec->id, what, sec->path, e2.msg);
    return 0;
}

int jobs_source_open(jobs_source_t **out, const jobs_campaign_t *c, err_t *err)
{
    *out = NULL;
    if (c->zkey) /* a zkey unit's witness is its .wtns, read by the prover (mpi/zkey_campaign.c) */
        return gm_err_set(err, GM_ENOTSUP, "%s: circuit snarkjs: units have no synthesized witness",
                          c->file[0] ? c->file : "campaign");
    jobs_source_t *s = calloc(1, sizeof *s);
    if (!s)
        return gm_err_set(err, GM_ENOMEM, "unit source: out of memory");
    s->c = c;
    for (int i = 0; i < C1_CACHE; i++)
        s->cache[i].sector = SIZE_MAX;
    s->witness = c->circuit.kind == CIRCUIT_POREP ? witness_porep : witness_test;
    *out = s;
    return 0;
}

int jobs_source_witness(jobs_source_t *s, size_t u, cs_t **out, err_t *err)
{
    *out = NULL;
    if (u >= jobs_unit_count(s->c))
        return gm_err_set(err, GM_EINVAL, "unit %zu: out of range (the campaign has %zu)", u, jobs_unit_count(s->c));
    return s->witness(s, u, CS_WITNESS, out, err);
}

bool jobs_source_witness_compact(const jobs_campaign_t *c) { return c->circuit.kind == CIRCUIT_POREP; }

int jobs_source_check(jobs_source_t *s, size_t u, cs_t **out, err_t *err)
{
    *out = NULL;
    if (u >= jobs_unit_count(s->c))
        return gm_err_set(err, GM_EINVAL, "unit %zu: out of range (the campaign has %zu)", u, jobs_unit_count(s->c));
    return s->witness(s, u, CS_CHECK, out, err);
}

void jobs_source_close(jobs_source_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < C1_CACHE; i++)
        entry_clear(&s->cache[i]);
    if (s->have_hashers)
        porep_hashers_free(&s->h);
    free(s);
}

/* The C1 of sector si, from the cache or read / made now. */
static int sector_c1(jobs_source_t *s, size_t si, c1_entry_t **out, err_t *err)
{
    const jobs_sector_t *sec = &s->c->sectors[si];
    c1_entry_t *e = NULL;
    for (int i = 0; i < C1_CACHE; i++)
        if (s->cache[i].sector == si) {
            e = &s->cache[i];
            e->used = ++s->tick;
            *out = e;
            return 0;
        }
    e = &s->cache[0]; /* an empty slot, else the least recently used */
    for (int i = 0; i < C1_CACHE && e->sector != SIZE_MAX; i++)
        if (s->cache[i].sector == SIZE_MAX || s->cache[i].used < e->used)
            e = &s->cache[i];
    entry_clear(e);
    int rc;
    if (sec->kind == JOBS_SOURCE_C1) {
        rc = porep_c1_read(&e->c1, sec->path, err);
    } else {
        if (!s->have_hashers) {
            if ((rc = porep_hashers_init(&s->h, err)))
                return rc;
            s->have_hashers = true;
        }
        porep_sealed_t sd;
        if ((rc = porep_sealed_load(&sd, sec->path, err)))
            return rc;
        if (sd.proof->sector_size != s->c->circuit.size)
            return gm_err_set(err, GM_EINVAL, "a %s sector, the campaign's sector_size is %s", sd.proof->name,
                              s->c->circuit.id);
        char text[32];
        uint8_t seed[32];
        snprintf(text, sizeof text, "%llu", (unsigned long long)sec->seed);
        porep_seed_parse(seed, text);
        rc = porep_c1_prove(&e->c1, sec->path, seed, &s->h, err);
    }
    if (rc)
        return rc;
    circuit_t circ;
    if ((rc = circuit_from_c1(&circ, &e->c1, err)) == 0 && strcmp(circ.id, s->c->circuit.id) != 0)
        rc = gm_err_set(err, GM_EINVAL, "a %s C1 (circuit %s), the campaign proves %s", e->c1.proof->name, circ.id,
                        s->c->circuit.id);
    if (rc == 0)
        rc = circuit_porep_graph(&e->g, &e->c1, err);
    if (rc) {
        porep_c1_free(&e->c1);
        memset(&e->c1, 0, sizeof e->c1);
        return rc;
    }
    e->sector = si;
    e->used = ++s->tick;
    *out = e;
    return 0;
}
