/* cli/cmd_snarkjs_split.c — `[mpirun -np R] grothmpi snarkjs prove --split`:
 * one proof of a zkey and a .wtns on all R ranks
 * (mpi_split_prove_snarkjs), each holding 1/R of the zkey's points; rank 0
 * writes public.json, then proof.json (atomically, only after the proof
 * verified and every rank agreed), and prints the per-rank accounts. */
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "cli/cli.h"
#include "mpi/mpi.h"
#include "snarkjs/snarkjs.h"
#include "topo/topo.h"

int cli_snarkjs_prove_split(const cli_snarkjs_split_args_t *a)
{
    int rank = 0, size = 1;
    if (cli_split_init(&rank, &size, "snarkjs prove"))
        return 1;
    err_t err;
    gm_err_clear(&err);
    topo_pool_t *pool = NULL;
    mpi_split_rank_t *ranks = NULL;
    fr_t *pub = NULL, rs[2];
    size_t n_pub = 0;
    groth16_proof_t proof;
    int rc = topo_pool_create_flat(&pool, a->threads, &err);
    /* A rank without its pool tells the others, which would otherwise wait
     * for it in the first collective. */
    rc = mpi_split_agree(NULL, rc, &err);
    if (!rc) {
        if (a->proof_seed)
            cli_proof_rs(rs, *a->proof_seed);
        mpi_split_snarkjs_job_t job = {
            .zkey_path = a->zkey, .wtns_path = a->wtns, .rs = a->proof_seed ? rs : NULL,
            .zkey_flags = a->subgroup ? SNARKJS_ZKEY_SUBGROUP : SNARKJS_ZKEY_DEFAULT,
            .prove_flags = a->no_verify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, .pool = pool};
        rc = mpi_split_prove_snarkjs(&proof, &pub, &n_pub, &ranks, &job, &err);
    }
    /* public.json first: a proof file never exists without its inputs. */
    if (!rc && rank == 0 && !(rc = snarkjs_public_write_json(a->pub, pub, n_pub, &err)))
        rc = snarkjs_proof_write_json(a->proof, &proof, &err);
    if (rank == 0) {
        char line[3000];
        snprintf(line, sizeof line, "snarkjs prove: 1 proof split over %d rank%s written to %s (%s), public inputs "
                 "in %s", size, size == 1 ? "" : "s", a->proof, a->no_verify ? "not verified" : "verified", a->pub);
        cli_split_report("snarkjs prove", rc, &err, ranks, size, a->json, a->verbose, line);
    }
    gm_free(pub);
    cli_split_local_t l = {.pool = pool};
    return cli_split_local_end(&l, ranks, rank, rc);
}
