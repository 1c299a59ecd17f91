/* cli/cmd_prove_split.c — `[mpirun -np R] grothmpi prove --split`: one
 * proof of a built-in circuit on all R ranks (mpi_split_prove), each
 * holding 1/R of the key; rank 0 writes the public inputs, then the proof
 * (atomically, only after the proof verified and every rank agreed), and
 * prints the per-rank accounts. Before any slice is read, the first rank
 * of each node checks the whole parameter file against the cache's manifest
 * (params_ensure: the digest, from its stamp when the file is unchanged),
 * and all ranks agree on the result: a slice's own checks (canonical
 * coordinates, curve, subgroup) cannot see a point swapped for another
 * valid one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "mpi/mpi.h"
#include "params/params.h"
#include "topo/topo.h"

json_t *cli_split_accounts_json(const mpi_split_rank_t *r, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}", "rank",
                              (int)r[i].rank, "key_bytes", (json_int_t)r[i].key_bytes, "points",
                              (json_int_t)r[i].points, "coefs_read", (json_int_t)r[i].coefs_read, "h_bytes",
                              (json_int_t)r[i].ntt_bytes, "mem_peak", (json_int_t)r[i].mem_peak, "rss_peak",
                              (json_int_t)r[i].rss_peak, "load_s", (double)r[i].load_ns * 1e-9, "abc_s",
                              (double)r[i].abc_ns * 1e-9, "h_s", (double)r[i].h_ns * 1e-9, "msm_s",
                              (double)r[i].msm_ns * 1e-9, "total_s", (double)r[i].total_ns * 1e-9);
        json_t *st = json_object();
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++)
            json_object_set_new(st, mpi_split_stage_names[s],
                                json_pack("{s:I, s:I, s:f}", "sent", (json_int_t)r[i].sent[s], "recv",
                                          (json_int_t)r[i].recv[s], "wait_s", (double)r[i].wait_ns[s] * 1e-9));
        json_object_set_new(o, "stages", st);
        json_array_append_new(a, o);
    }
    return json_pack("{s:i, s:o}", "ranks", n, "per_rank", a);
}

/* A params_ensure note (a digest recorded on first use, taken from its
 * stamp...), shown by rank 0 only: on stderr under --json, which keeps
 * stdout JSON. */
static void split_note(void *arg, const char *line)
{
    const cli_split_args_t *a = arg;
    fprintf(a->json ? stderr : stdout, "prove: %s\n", line);
}

/* The whole-file check, once per node (mpi_split_node_leader), agreed over
 * all ranks: the same params_ensure as a campaign's, without generating. */
static int check_params_node(const cli_split_args_t *a, const params_paths_t *p, int rank, err_t *err)
{
    bool leader = false;
    int rc = mpi_split_node_leader(NULL, &leader, err);
    if (!rc && leader) {
        params_ensure_t r;
        params_ensure_opts_t o = {.note = rank == 0 ? split_note : NULL, .note_arg = (void *)a};
        rc = params_ensure(&r, p, a->circ, a->check_params ? PARAMS_ENSURE_FULL : PARAMS_ENSURE_DEFAULT, &o, err);
    }
    return mpi_split_agree(NULL, rc, err);
}

int cli_split_local(cli_split_local_t *l, const params_paths_t *p, const circuit_t *c, uint64_t seed, unsigned threads,
                    bool full, err_t *err)
{
    memset(l, 0, sizeof *l);
    circuit_witness_opts_t wo = {.seed = seed, .mode = CS_WITNESS};
    int rc = topo_pool_create_flat(&l->pool, threads, err);
    if (!rc)
        rc = params_shape_load(&l->shape, NULL, p, full, err);
    if (!rc)
        rc = circuit_witness(&l->cs, c, &wo, err);
    if (!rc)
        groth16_witness_of(&l->w, l->cs);
    return mpi_split_agree(NULL, rc, err);
}

int cli_split_local_end(cli_split_local_t *l, void *accounts, int rank, int rc)
{
    free(accounts);
    cs_destroy(l->cs);
    cs_shape_free(l->shape);
    topo_pool_destroy(l->pool);
    memset(l, 0, sizeof *l);
    mpi_study_finalize();
    return rc && rank == 0 ? 1 : 0;
}

/* Rank 0: the public inputs first (a proof file never exists without its
 * inputs), then the proof. */
static int write_outputs(const cli_split_args_t *a, const groth16_proof_t *proof, const groth16_witness_t *w,
                         err_t *err)
{
    uint8_t bytes[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(bytes, proof);
    json_t *js = cli_inputs_json(w);
    char *text = js ? json_dumps(js, JSON_INDENT(1)) : NULL;
    json_decref(js);
    if (!text)
        return gm_err_set(err, GM_ENOMEM, "out of memory for the public inputs");
    int rc = gm_file_write(a->pub, text, strlen(text), err);
    free(text);
    if (!rc)
        rc = gm_file_write(a->out, bytes, sizeof bytes, err);
    return rc;
}

int cli_split_init(int *rank, int *size, const char *cmd)
{
    err_t err;
    gm_err_clear(&err);
    if (mpi_study_init(rank, size, &err)) {
        fprintf(stderr, "grothmpi: %s: --split: %s\n", cmd, err.msg);
        return 1;
    }
    return 0;
}

void cli_split_report(const char *cmd, int rc, const err_t *err, const mpi_split_rank_t *ranks, int size, bool json,
                      bool verbose, const char *line)
{
    if (rc) {
        fprintf(stderr, "grothmpi: %s: --split: %s\n", cmd, err->msg);
    } else if (json) {
        json_t *js = cli_split_accounts_json(ranks, size);
        json_dumpf(js, stdout, JSON_INDENT(1));
        printf("\n");
        json_decref(js);
    } else {
        printf("%s\n", line);
        if (verbose)
            mpi_split_print(ranks, size, stdout);
    }
}

int cli_prove_split(const cli_split_args_t *a)
{
    int rank = 0, size = 1;
    if (cli_split_init(&rank, &size, "prove"))
        return 1;
    err_t err;
    gm_err_clear(&err);
    cli_split_local_t l = {0};
    params_paths_t p;
    mpi_split_rank_t *ranks = NULL;
    groth16_proof_t proof;
    fr_t rs[2];
    /* the paths are the same on every rank: one failing fails all */
    int rc = params_paths(&p, a->dir, a->circ->id, &err);
    if (!rc)
        rc = check_params_node(a, &p, rank, &err);
    if (!rc)
        rc = cli_split_local(&l, &p, a->circ, a->witness_seed, a->threads, a->check_params, &err);
    if (!rc) {
        if (a->proof_seed)
            cli_proof_rs(rs, *a->proof_seed);
        mpi_split_job_t job = {.params_path = a->params, .shape = l.shape, .w = &l.w,
                               .rs = a->proof_seed ? rs : NULL,
                               .load_flags = a->trust ? GROTH16_LOAD_TRUST : GROTH16_LOAD_DEFAULT,
                               .prove_flags = a->no_verify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT,
                               .pool = l.pool};
        rc = mpi_split_prove(&proof, &ranks, &job, &err);
    }
    if (!rc && rank == 0)
        rc = write_outputs(a, &proof, &l.w, &err);
    if (rank == 0) {
        char line[3000];
        snprintf(line, sizeof line, "prove: %s: 1 proof split over %d rank%s written to %s (%s), public inputs in %s",
                 a->circ->id, size, size == 1 ? "" : "s", a->out, a->no_verify ? "not verified" : "verified", a->pub);
        cli_split_report("prove", rc, &err, ranks, size, a->json, a->verbose, line);
    }
    return cli_split_local_end(&l, ranks, rank, rc);
}
