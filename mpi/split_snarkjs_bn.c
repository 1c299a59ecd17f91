/*
 * mpi/split_snarkjs_bn.c — the source of a split proof of a bn128 zkey
 * (mpi/split_snarkjs_shape.h) under mpi_split_prove_snarkjs_bn: the proof
 * is groth16/assemble_shape.h's (the one assembly, as snarkjs/bn_prove.c's),
 * checked like snarkjs_bn_prove (B in G2, then snarkjs_bn_verify).
 */
#include "mpi/split_internal.h"

#define AS_G1 bn_g1
#define AS_G2 bn_g2
#define AS_FR bn_fr
#define AS_VK_T snarkjs_bn_vk_t
#define AS_PROOF_T snarkjs_bn_proof_t
#include "groth16/assemble_shape.h"

#define SP_API(x) snarkjs_bn_##x
#define SP_FR(x) bn_fr_##x
#define SP_G1(x) bn_g1_##x
#define SP_G2(x) bn_g2_##x
#define SP_MSM(g) bn_msm_##g
#define SP_ROOT_EXP SNARKJS_BN_ROOT_EXP
#define SP_SUMS_T mpi_split_bn_sums_t
#define SP_SOURCE_T mpi_split_bn_source_t
#define SP_PROOF_T snarkjs_bn_proof_t
#define SP_RUN mpi_split_bn_run
#define SP_JOB_RS(job) ((job)->bn_rs)

/* G1 has cofactor 1; only B can leave its group. */
static bool proof_in_subgroup(const snarkjs_bn_proof_t *p) { return bn_g2_affine_in_subgroup(&p->b); }

static int proof_verify(const snarkjs_bn_vk_t *vk, const snarkjs_bn_proof_t *p, const bn_fr_t *pub, size_t n,
                        err_t *err)
{
    return snarkjs_bn_verify(vk, p, pub, n, err);
}

#include "mpi/split_snarkjs_shape.h"

int mpi_split_prove_snarkjs_bn(snarkjs_bn_proof_t *proof, bn_fr_t **pub, size_t *n_pub, mpi_split_rank_t **ranks,
                               const mpi_split_snarkjs_job_t *job, err_t *err)
{
    return prove_snarkjs(proof, pub, n_pub, ranks, job, err);
}
