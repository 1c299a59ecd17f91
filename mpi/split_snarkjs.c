/*
 * mpi/split_snarkjs.c — the source of a split proof of a BLS12-381 zkey
 * (mpi/split_snarkjs_shape.h) under mpi_split_prove_snarkjs: the proof is
 * groth16_proof_assemble's, checked for the subgroup and by
 * groth16_verify.
 */
#include "mpi/split_internal.h"

#define SP_API(x) snarkjs_##x
#define SP_FR(x) fr_##x
#define SP_G1(x) g1_##x
#define SP_G2(x) g2_##x
#define SP_MSM(g) msm_##g
#define SP_ROOT_EXP SNARKJS_ROOT_EXP
#define SP_SUMS_T mpi_split_sums_t
#define SP_SOURCE_T mpi_split_source_t
#define SP_PROOF_T groth16_proof_t
#define SP_RUN mpi_split_run
#define SP_JOB_RS(job) ((job)->rs)
#define proof_assemble groth16_proof_assemble

static bool proof_in_subgroup(const groth16_proof_t *p)
{
    return g1_affine_in_subgroup(&p->a) && g2_affine_in_subgroup(&p->b) && g1_affine_in_subgroup(&p->c);
}

static int proof_verify(const groth16_vk_t *vk, const groth16_proof_t *p, const fr_t *pub, size_t n, err_t *err)
{
    groth16_pvk_t pvk;
    int rc = groth16_pvk_prepare(&pvk, vk, err);
    if (rc)
        return rc;
    rc = groth16_verify(&pvk, p, pub, n, err);
    groth16_pvk_free(&pvk);
    return rc;
}

#include "mpi/split_snarkjs_shape.h"

int mpi_split_prove_snarkjs(groth16_proof_t *proof, fr_t **pub, size_t *n_pub, mpi_split_rank_t **ranks,
                            const mpi_split_snarkjs_job_t *job, err_t *err)
{
    return prove_snarkjs(proof, pub, n_pub, ranks, job, err);
}
