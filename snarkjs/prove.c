/*
 * snarkjs/prove.c — the snarkjs prover (snarkjs/prove_shape.h) for
 * BLS12-381 under the names of snarkjs/snarkjs.h, with the device backends
 * (groth16.h): the zkey's G1 bases resident, the NTTs and G1 MSMs there.
 * The proof is groth16_proof_assemble's (the one assembly, groth16/).
 */
#include <string.h>

#include "snarkjs/snarkjs_internal.h"
#include "ntt/ntt.h"

#define SJ_BE(x) groth16_backend_##x
#define SJ_ROOT_J SNARKJS_ROOT_EXP
#define SJ_NTT(x) ntt_##x
#define SJ_MSM(g) msm_##g
#define proof_assemble groth16_proof_assemble

/* The check of each proof: the prepared key (e(alpha, beta) cached). */
typedef groth16_pvk_t sj_pvk_t;
static int pvk_prepare(sj_pvk_t *pvk, const groth16_vk_t *vk, err_t *err) { return groth16_pvk_prepare(pvk, vk, err); }
static void pvk_free(sj_pvk_t *pvk) { groth16_pvk_free(pvk); }
static int pvk_verify(const sj_pvk_t *pvk, const groth16_proof_t *p, const fr_t *pub, size_t n, err_t *err)
{
    return groth16_verify(pvk, p, pub, n, err);
}
static bool proof_in_subgroup(const groth16_proof_t *p)
{
    return g1_affine_in_subgroup(&p->a) && g2_affine_in_subgroup(&p->b) && g1_affine_in_subgroup(&p->c);
}
static int random_rs(fr_t rs[2], err_t *err) { return groth16_random_fr(rs, 2, 256, err); }

#include "snarkjs/prove_shape.h"

void snarkjs_root_of_unity(fr_t *out, unsigned k)
{
    fr_t w;
    fr_root_of_unity(&w, k);
    uint64_t e = (uint64_t)SNARKJS_ROOT_EXP & (k >= 32 ? 0xffffffffull : ((1ull << k) - 1));
    fr_pow(out, &w, &e, 1);
}

void snarkjs_prover_destroy(snarkjs_prover_t *pv) { prover_destroy(pv); }

const groth16_pvk_t *snarkjs_prover_pvk(const snarkjs_prover_t *pv) { return &pv->pvk; }

int snarkjs_prover_create(snarkjs_prover_t **out, const snarkjs_zkey_t *zk, topo_pool_t *pool, err_t *err)
{
    return prover_create(out, zk, pool, err);
}

int snarkjs_prove(snarkjs_prover_t *pv, groth16_proof_t *out, const fr_t *w, size_t n, const fr_t *rs,
                  groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
{
    return prove(pv, out, w, n, rs, flags, pool, times, err);
}

void snarkjs_prover_set_backend(snarkjs_prover_t *pv, groth16_backend_t *be) { prover_set_backend(pv, be); }
