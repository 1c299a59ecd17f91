/*
 * jobs/source.c — unit sources: one work unit in, one witness out.
 *
 * One implementation per input kind behind one small table (witness_fn):
 *  - TEST:   a built-in groth16 test circuit; the witness seed is
 *            jobs_unit_seed(sector seed, partition), so the same unit has the
 *            same public inputs on any rank, in any run.
 *  - SEALED, C1: the SDR PoRep partition circuit from a sealed sector or a
 *            C1 JSON. This is the slot for synth/porep's C1 witness code
 *            (porep_sealed_load / porep_c1_read + porep_c1_witness): it
 *            answers GM_ENOTSUP until the StackedCircuit witness is there.
 * A source is used by one thread at a time (the pipeline's witness thread).
 */
#include <stdlib.h>
#include <string.h>

#include "jobs/jobs.h"

typedef int (*witness_fn)(jobs_source_t *s, size_t u, cs_t **out, err_t *err);

struct jobs_source {
    const jobs_campaign_t *c;
    witness_fn witness;
};

static int witness_test(jobs_source_t *s, size_t u, cs_t **out, err_t *err)
{
    jobs_unit_t un = jobs_unit_get(s->c, u);
    const jobs_sector_t *sec = &s->c->sectors[un.sector];
    err_t e2;
    gm_err_clear(&e2);
    int rc = groth16_circuit_witness(out, &s->c->circuit, jobs_unit_seed(sec->seed, un.partition), &e2);
    if (rc)
        return gm_err_set(err, rc, "sector %s partition %u: %s", sec->id, un.partition, e2.msg);
    return 0;
}

/* The PoRep slot. When synth/porep lands the C1 witness, this becomes:
 * read the C1 (porep_c1_read, or porep_sealed_load + porep_c1_prove for a
 * sealed directory) once per sector, then porep_c1_witness for partition
 * un.partition into a CS_WITNESS cs_t. */
static int witness_porep(jobs_source_t *s, size_t u, cs_t **out, err_t *err)
{
    jobs_unit_t un = jobs_unit_get(s->c, u);
    const jobs_sector_t *sec = &s->c->sectors[un.sector];
    *out = NULL;
    return gm_err_set(err, GM_ENOTSUP, "sector %s (%s): the PoRep partition witness is not available yet", sec->id,
                      sec->path);
}

int jobs_source_open(jobs_source_t **out, const jobs_campaign_t *c, err_t *err)
{
    *out = NULL;
    jobs_source_t *s = calloc(1, sizeof *s);
    if (!s)
        return gm_err_set(err, GM_ENOMEM, "unit source: out of memory");
    s->c = c;
    s->witness = c->circuit.kind == GROTH16_CIRCUIT_POREP ? witness_porep : witness_test;
    *out = s;
    return 0;
}

int jobs_source_witness(jobs_source_t *s, size_t u, cs_t **out, err_t *err)
{
    *out = NULL;
    if (u >= jobs_unit_count(s->c))
        return gm_err_set(err, GM_EINVAL, "unit %zu: out of range (the campaign has %zu)", u, jobs_unit_count(s->c));
    return s->witness(s, u, out, err);
}

void jobs_source_close(jobs_source_t *s) { free(s); }
