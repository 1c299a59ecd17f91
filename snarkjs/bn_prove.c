/*
 * snarkjs/bn_prove.c — the snarkjs prover (snarkjs/prove_shape.h) for BN254
 * (snarkjs's bn128) under the snarkjs_bn_ names of snarkjs/snarkjs.h, with
 * the device backends (groth16.h: the zkey's G1 bases resident, the NTTs
 * and G1 MSMs there, as snarkjs/prove.c on BLS12-381). snarkjs's roots of
 * unity on bn128 are bn_fr_root_of_unity's (both 5^((r-1)/2^28)), so J = 1.
 * The proof is groth16/assemble_shape.h's, the one assembly of every
 * prover; its check is snarkjs_bn_verify's pairing product.
 */
#include <string.h>

#define SJ_BN128
#include "snarkjs/snarkjs_internal.h"
#include "ntt/ntt.h"

#define AS_G1 bn_g1
#define AS_G2 bn_g2
#define AS_FR bn_fr
#define AS_VK_T snarkjs_bn_vk_t
#define AS_PROOF_T snarkjs_bn_proof_t
#include "groth16/assemble_shape.h"

#define SJ_BE(x) groth16_backend_bn_##x
#define SJ_ROOT_J 1u
#define SJ_NTT(x) bn_ntt_##x
#define SJ_MSM(g) bn_msm_##g

/* The check of each proof: the zkey's key itself (four Miller loops a proof). */
typedef struct {
    const snarkjs_bn_vk_t *vk;
} sj_pvk_t;
static int pvk_prepare(sj_pvk_t *pvk, const snarkjs_bn_vk_t *vk, err_t *err)
{
    (void)err;
    pvk->vk = vk;
    return 0;
}
static void pvk_free(sj_pvk_t *pvk) { pvk->vk = NULL; }
static int pvk_verify(const sj_pvk_t *pvk, const snarkjs_bn_proof_t *p, const bn_fr_t *pub, size_t n, err_t *err)
{
    return snarkjs_bn_verify(pvk->vk, p, pub, n, err);
}
/* G1 has cofactor 1; only B can leave its group. */
static bool proof_in_subgroup(const snarkjs_bn_proof_t *p) { return bn_g2_affine_in_subgroup(&p->b); }

/* r and s: 64 random bytes each (groth16_seed_random's getrandom, twice),
 * lo + hi 2^256 reduced mod r (bias < 2^-250). */
_Static_assert(GROTH16_SEED_BYTES == BN254_BYTES, "one seed is one 256-bit half");
static int random_rs(bn_fr_t rs[2], err_t *err)
{
    bn_fr_t two, k;
    const uint64_t e256 = 256;
    bn_fr_set_u64(&two, 2);
    bn_fr_pow(&k, &two, &e256, 1);
    for (int i = 0; i < 2; i++) {
        uint8_t lo[GROTH16_SEED_BYTES], hi[GROTH16_SEED_BYTES];
        int rc;
        if ((rc = groth16_seed_random(lo, err)) || (rc = groth16_seed_random(hi, err)))
            return rc;
        bn_fr_t a, b;
        bn_fr_from_bytes_le_mod(&a, lo);
        bn_fr_from_bytes_le_mod(&b, hi);
        bn_fr_mul(&b, &b, &k);
        bn_fr_add(&rs[i], &a, &b);
        memset(lo, 0, sizeof lo);
        memset(hi, 0, sizeof hi);
    }
    return 0;
}

#include "snarkjs/prove_shape.h"

void snarkjs_bn_prover_destroy(snarkjs_bn_prover_t *pv) { prover_destroy(pv); }

int snarkjs_bn_prover_create(snarkjs_bn_prover_t **out, const snarkjs_bn_zkey_t *zk, topo_pool_t *pool, err_t *err)
{
    return prover_create(out, zk, pool, err);
}

int snarkjs_bn_prove(snarkjs_bn_prover_t *pv, snarkjs_bn_proof_t *out, const bn_fr_t *w, size_t n, const bn_fr_t *rs,
                     groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
{
    return prove(pv, out, w, n, rs, flags, pool, times, err);
}

int snarkjs_bn_random_rs(bn_fr_t rs[2], err_t *err) { return random_rs(rs, err); }

void snarkjs_bn_prover_set_backend(snarkjs_bn_prover_t *pv, groth16_backend_t *be) { prover_set_backend(pv, be); }
