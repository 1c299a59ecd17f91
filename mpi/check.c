/*
 * mpi/check.c — a campaign in "mode": "check": every unit's witness run in
 * synth's CS_CHECK mode (each constraint evaluated as it is enforced, no
 * shape, no parameters, no prover), so a campaign of a size whose
 * parameters and matrices do not fit this machine can still be checked and
 * measured (a 32 GiB PoRep partition: 130 M constraints).
 *
 * DESIGN
 *  - Called by mpi_campaign_run (run.c) after the campaign is validated and
 *    broadcast; MPI calls from this file are made by the calling thread only.
 *  - Units are split statically: rank r checks u = r, r + size, ... in
 *    order, one at a time, on its main thread (a check is one thread's
 *    synthesis: more ranks per node use more cores). No dispatcher, journal
 *    or proof files: a check is cheap to repeat and writes one result file.
 *  - Per unit: wall and CPU time (the thread's clock), the allocator's peak
 *    while it ran (gm_mem_reset_peak before it: one check at a time per
 *    process), the process RSS peak so far, constraints and aux counts, and
 *    the verdict (the first unsatisfied constraint's index and path, or the
 *    error that stopped synthesis). The first unit of a PoRep sector also
 *    pays for reading its C1 (or making it from a sealed directory) and the
 *    SDR graph, which the peak then includes.
 *  - Rank 0 gathers the records (MPI_Gatherv of fixed-size records), writes
 *    OUT/check.json atomically and hands the text table back in res; the
 *    campaign fails with GM_EVERIFY (or the unit's own error) naming the
 *    first unit that does not hold.
 */
#include <errno.h>
#include <jansson.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpi/mpi_internal.h"

/* One unit's result, sent as bytes (same binary on every rank). */
typedef struct {
    uint64_t unit, constraints, aux, wall_ns, cpu_ns, alloc_peak, rss_peak, bad_index;
    int32_t rank, code;
    char msg[GM_ERR_MSG_LEN];
} check_rec_t;

static size_t units_of(size_t total, int rank, int size)
{
    return (size_t)rank < total ? (total - (size_t)rank + (size_t)size - 1) / (size_t)size : 0;
}

/* Checks unit u into *r. */
static void check_unit(check_rec_t *r, jobs_source_t *src, size_t u, int rank)
{
    memset(r, 0, sizeof *r);
    r->unit = u;
    r->rank = rank;
    err_t e;
    gm_err_clear(&e);
    gm_mem_reset_peak();
    size_t base = gm_mem_current();
    uint64_t t0 = gm_now_ns(), c0 = gm_thread_cpu_ns();
    cs_t *cs = NULL;
    int rc = jobs_source_check(src, u, &cs, &e);
    if (!rc)
        rc = cs_status(cs, &e);
    uint64_t index = 0;
    const char *path = NULL;
    if (!rc && !cs_is_satisfied(cs, &index, &path)) {
        rc = gm_err_set(&e, GM_EVERIFY, "constraint %llu (%s) is not satisfied", (unsigned long long)index,
                        path ? path : "?");
        r->bad_index = index;
    }
    r->wall_ns = gm_now_ns() - t0;
    r->cpu_ns = gm_thread_cpu_ns() - c0;
    r->alloc_peak = gm_mem_peak() - base;
    r->rss_peak = gm_rss_peak();
    if (cs) {
        r->constraints = cs_num_constraints(cs);
        r->aux = cs_num_aux(cs);
    }
    cs_destroy(cs);
    r->code = rc;
    snprintf(r->msg, sizeof r->msg, "%s", rc ? e.msg : "");
}

/* The table rank 0 hands back (malloc'd text). */
static char *check_table(const jobs_campaign_t *c, const check_rec_t *all, size_t total, int size)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "check: campaign %s, circuit %s, %zu units on %d rank%s (CS_CHECK: every constraint evaluated)\n",
            c->name, c->circuit.id, total, size, size == 1 ? "" : "s");
    fprintf(f, "  %-24s %4s %12s %12s %8s %8s %10s %8s %10s  %s\n", "unit", "rank", "constraints", "aux", "wall_s",
            "cpu_s", "peak_MiB", "B/constr", "rss_MiB", "result");
    for (size_t i = 0; i < total; i++) {
        const check_rec_t *r = &all[i];
        char name[JOBS_ID_LEN + 16];
        jobs_unit_name(name, sizeof name, c, (size_t)r->unit);
        double bpc = r->constraints ? (double)r->alloc_peak / (double)r->constraints : 0;
        fprintf(f, "  %-24s %4d %12llu %12llu %8.2f %8.2f %10.1f %8.1f %10.1f  %s\n", name, r->rank,
                (unsigned long long)r->constraints, (unsigned long long)r->aux, (double)r->wall_ns * 1e-9,
                (double)r->cpu_ns * 1e-9, (double)r->alloc_peak / 1048576.0, bpc, (double)r->rss_peak / 1048576.0,
                r->code ? r->msg : "ok");
    }
    fclose(f);
    return buf;
}

/* OUT/check.json (docs/campaign.md, "Checking a campaign"). */
static int check_json(const jobs_campaign_t *c, const check_rec_t *all, size_t total, int size, char *path,
                      size_t pathlen, err_t *err)
{
    if (mkdir(c->output, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: output: '%s': cannot create: %s", c->file, c->output, strerror(errno));
    json_t *j = json_object(), *units = json_array();
    json_object_set_new(j, "format", json_string("grothmpi-check"));
    json_object_set_new(j, "version", json_integer(1));
    json_object_set_new(j, "campaign", json_string(c->name));
    json_object_set_new(j, "circuit", json_string(c->circuit.id));
    json_object_set_new(j, "ranks", json_integer(size));
    for (size_t i = 0; i < total; i++) {
        const check_rec_t *r = &all[i];
        char name[JOBS_ID_LEN + 16];
        jobs_unit_name(name, sizeof name, c, (size_t)r->unit);
        json_t *o = json_object();
        json_object_set_new(o, "unit", json_string(name));
        json_object_set_new(o, "rank", json_integer(r->rank));
        json_object_set_new(o, "constraints", json_integer((json_int_t)r->constraints));
        json_object_set_new(o, "aux", json_integer((json_int_t)r->aux));
        json_object_set_new(o, "wall_s", json_real((double)r->wall_ns * 1e-9));
        json_object_set_new(o, "cpu_s", json_real((double)r->cpu_ns * 1e-9));
        json_object_set_new(o, "alloc_peak_bytes", json_integer((json_int_t)r->alloc_peak));
        json_object_set_new(o, "rss_peak_bytes", json_integer((json_int_t)r->rss_peak));
        json_object_set_new(o, "ok", json_boolean(r->code == 0));
        json_object_set_new(o, "error", r->code ? json_string(r->msg) : json_null());
        json_array_append_new(units, o);
    }
    json_object_set_new(j, "units", units);
    char *text = json_dumps(j, JSON_INDENT(2));
    json_decref(j);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "check: out of memory");
    snprintf(path, pathlen, "%s/check.json", c->output);
    int rc = gm_file_write(path, text, strlen(text), err);
    free(text);
    return rc;
}

int mr_check_run(const jobs_campaign_t *c, void *comm_p, int rank, int size, mpi_result_t *res, err_t *err)
{
    MPI_Comm comm = *(MPI_Comm *)comm_p;
    size_t total = jobs_unit_count(c), mine = units_of(total, rank, size);
    check_rec_t *recs = calloc(mine + 1, sizeof *recs), *all = NULL;
    int *counts = NULL, *displs = NULL;
    if (!recs)
        abort(); /* about 600 bytes per unit, before the collective: no recovering from this on a rank */
    jobs_source_t *src = NULL;
    err_t e;
    gm_err_clear(&e);
    int rc = jobs_source_open(&src, c, &e);
    /* A rank that cannot open its source still takes part in the gather:
     * its records carry the error. */
    for (size_t i = 0; i < mine; i++) {
        if (rc) {
            memset(&recs[i], 0, sizeof recs[i]);
            recs[i].unit = (uint64_t)rank + (uint64_t)i * (uint64_t)size;
            recs[i].rank = rank;
            recs[i].code = rc;
            snprintf(recs[i].msg, sizeof recs[i].msg, "%s", e.msg);
        } else {
            check_unit(&recs[i], src, (size_t)rank + i * (size_t)size, rank);
        }
    }
    jobs_source_close(src);
    if (rank == 0) {
        all = calloc(total + 1, sizeof *all);
        counts = calloc((size_t)size, sizeof *counts);
        displs = calloc((size_t)size, sizeof *displs);
        if (!all || !counts || !displs)
            abort(); /* a few records per unit: no recovering from this on rank 0 mid-collective */
        for (int r = 0, off = 0; r < size; r++) {
            counts[r] = (int)(units_of(total, r, size) * sizeof *all);
            displs[r] = off;
            off += counts[r];
        }
    }
    MPI_Gatherv(recs, (int)(mine * sizeof *recs), MPI_BYTE, all, counts, displs, MPI_BYTE, 0, comm);
    int final = 0;
    if (rank == 0) {
        /* rank r's i-th record is unit r + i size: back into unit order */
        check_rec_t *ordered = calloc(total + 1, sizeof *ordered);
        if (!ordered)
            abort();
        for (size_t i = 0; i < total; i++)
            ordered[all[i].unit < total ? all[i].unit : 0] = all[i];
        free(all);
        all = ordered;
        res->total = total;
        for (size_t i = 0; i < total && !final; i++)
            if (all[i].code) {
                char name[JOBS_ID_LEN + 16];
                jobs_unit_name(name, sizeof name, c, i);
                final = gm_err_set(err, all[i].code, "check: %s (rank %d): %s", name, all[i].rank, all[i].msg);
            }
        for (size_t i = 0; i < total; i++)
            res->proved += all[i].code == 0;
        res->check_text = check_table(c, all, total, size);
        err_t e3;
        gm_err_clear(&e3);
        int wrc = check_json(c, all, total, size, res->report_json, sizeof res->report_json, &e3);
        if (wrc) {
            res->report_json[0] = 0;
            if (!final)
                final = wrc, *err = e3;
        }
    }
    MPI_Bcast(&final, 1, MPI_INT, 0, comm);
    if (final && rank != 0)
        gm_err_set(err, final, "rank %d: the check failed (see rank 0's message)", rank);
    free(recs);
    free(all);
    free(counts);
    free(displs);
    return final;
}
