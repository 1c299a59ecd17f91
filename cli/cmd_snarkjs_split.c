/* cli/cmd_snarkjs_split.c — `[mpirun -np R] grothmpi snarkjs prove --split`:
 * one proof of a zkey and a .wtns on all R ranks
 * (mpi_split_prove_snarkjs, or mpi_split_prove_snarkjs_bn for a bn128
 * zkey), each holding 1/R of the zkey's points; rank 0
 * writes public.json, then proof.json (atomically, only after the proof
 * verified and every rank agreed), and prints the per-rank accounts. */
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "cli/cli.h"
#include "mpi/mpi.h"
#include "snarkjs/snarkjs.h"
#include "topo/topo.h"

/* The proof of a bn128 zkey: as the BLS12-381 one below, with --proof-seed's
 * r and s reduced into BN254's Fr as the unsplit prover reduces them. */
static int prove_bn(const cli_snarkjs_split_args_t *a, mpi_split_snarkjs_job_t *job, int rank,
                    mpi_split_rank_t **ranks, err_t *err)
{
    bn_fr_t *pub = NULL, brs[2];
    size_t n_pub = 0;
    snarkjs_bn_proof_t proof;
    if (a->proof_seed) {
        fr_t rs[2];
        cli_proof_rs(rs, *a->proof_seed);
        for (int i = 0; i < 2; i++) {
            uint8_t b[32];
            fr_to_bytes_le(b, &rs[i]);
            bn_fr_from_bytes_le_mod(&brs[i], b);
        }
        job->bn_rs = brs;
    }
    int rc = mpi_split_prove_snarkjs_bn(&proof, &pub, &n_pub, ranks, job, err);
    if (!rc && rank == 0 && !(rc = snarkjs_bn_public_write_json(a->pub, pub, n_pub, err)))
        rc = snarkjs_bn_proof_write_json(a->proof, &proof, err);
    gm_free(pub);
    return rc;
}

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
    /* The zkey's curve (the header's q); a file that cannot tell is left to
     * the BLS12-381 reader's own message. */
    snarkjs_curve_t curve = SNARKJS_BLS12381;
    err_t cerr;
    int crc = snarkjs_curve_of_file(&curve, a->zkey, &cerr);
    if (!rc && crc == GM_ENOTSUP)
        rc = gm_err_set(&err, crc, "%s", cerr.msg);
    /* A rank without its pool tells the others, which would otherwise wait
     * for it in the first collective. */
    rc = mpi_split_agree(NULL, rc, &err);
    if (!rc) {
        mpi_split_snarkjs_job_t job = {
            .zkey_path = a->zkey, .wtns_path = a->wtns,
            .zkey_flags = a->subgroup ? SNARKJS_ZKEY_SUBGROUP : SNARKJS_ZKEY_DEFAULT,
            .prove_flags = a->no_verify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, .pool = pool};
        if (crc == 0 && curve == SNARKJS_BN128) {
            rc = prove_bn(a, &job, rank, &ranks, &err);
        } else {
            if (a->proof_seed) {
                cli_proof_rs(rs, *a->proof_seed);
                job.rs = rs;
            }
            rc = mpi_split_prove_snarkjs(&proof, &pub, &n_pub, &ranks, &job, &err);
            /* public.json first: a proof file never exists without its inputs. */
            if (!rc && rank == 0 && !(rc = snarkjs_public_write_json(a->pub, pub, n_pub, &err)))
                rc = snarkjs_proof_write_json(a->proof, &proof, &err);
        }
    }
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
