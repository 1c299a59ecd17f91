/* fuzz/fuzz_zkey.c — snarkjs's Groth16 .zkey readers (snarkjs_zkey_from_bytes,
 * BN254's snarkjs_bn_zkey_from_bytes; snarkjs/snarkjs.h), in memory, then the
 * prover on what they read.
 * Input: byte 0 holds flags (bit 0: SNARKJS_ZKEY_SUBGROUP; bit 1: the BN254
 * reader and prover; bit 2: SNARKJS_ZKEY_STREAM), the rest is the file.
 * Properties: a decoded key keeps its promises (n_public < n_vars, domain a
 * power of two equal to 2^log_domain, coefficient entries in range, ic of
 * n_public + 1 points); for small keys a prover is created and proves the
 * witness (1, 0, ..., 0) without its check (GROTH16_PROVE_NO_VERIFY), so
 * every index the prover takes from the file is exercised; a refusal is
 * documented, with a message, and leaves *out NULL. A streamed key is read
 * by the proof itself (section 4's entries applied from the bytes, each
 * section's points decoded before its MSM): it proves the witness (1, 2,
 * ..., nVars), so that every entry reaches its product, and its refusals
 * are the load's, with a message. */
#include <stdlib.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

FUZZ_INIT_FF_ONLY()

/* The statuses of a refused key, from the load or from a streamed key's proof. */
static bool key_status(int rc)
{
    return rc == GM_EFORMAT || rc == GM_ENOTSUP || rc == GM_ENONCANON || rc == GM_ENOTONCURVE ||
           rc == GM_ESUBGROUP || rc == GM_ENOMEM || rc == GM_EFLAGS;
}

static void bn_one(const uint8_t *data, size_t size, snarkjs_zkey_flags_t flags)
{
    snarkjs_bn_zkey_t *zk = (snarkjs_bn_zkey_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_bn_zkey_from_bytes(&zk, data, size, "fuzz.zkey", flags, NULL, &err);
    if (rc) {
        FUZZ_CHECK(zk == NULL, "*out not NULL after a failure");
        FUZZ_CHECK(key_status(rc), "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return;
    }
    FUZZ_CHECK(zk->n_public < zk->n_vars, "n_public >= n_vars");
    FUZZ_CHECK(zk->log_domain <= 27 && zk->domain_size == (1u << zk->log_domain), "domain size");
    FUZZ_CHECK(zk->vk.n_ic == (size_t)zk->n_public + 1, "ic count");
    bool streamed = flags & SNARKJS_ZKEY_STREAM;
    for (uint64_t i = 0; i < zk->n_coefs && !streamed; i++)
        FUZZ_CHECK(zk->coefs[i].matrix <= 1 && zk->coefs[i].constraint < zk->domain_size &&
                       zk->coefs[i].signal < zk->n_vars, "coefficient entry out of range");
    if (zk->domain_size <= 1024 && zk->n_vars <= 1024) {
        snarkjs_bn_prover_t *pv;
        if (snarkjs_bn_prover_create(&pv, zk, NULL, &err) == 0) {
            bn_fr_t *w = calloc(zk->n_vars, sizeof(bn_fr_t));
            FUZZ_CHECK(w != NULL, "out of memory");
            for (uint32_t i = 0; i < (streamed ? zk->n_vars : 1); i++)
                bn_fr_set_u64(&w[i], i + 1);
            bn_fr_t rs[2] = {BN254_FR_ONE, BN254_FR_ONE};
            snarkjs_bn_proof_t proof;
            int p = snarkjs_bn_prove(pv, &proof, w, zk->n_vars, rs, GROTH16_PROVE_NO_VERIFY, NULL, NULL, &err);
            FUZZ_CHECK(p == 0 || p == GM_EVERIFY || (streamed && key_status(p)), "snarkjs_bn_prove: undocumented status");
            if (streamed && key_status(p))
                FUZZ_CHECK_REFUSAL(p, err);
            free(w);
            snarkjs_bn_prover_destroy(pv);
        }
    }
    snarkjs_bn_zkey_free(zk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    snarkjs_zkey_flags_t flags = ((data[0] & 1) ? SNARKJS_ZKEY_SUBGROUP : SNARKJS_ZKEY_DEFAULT) |
                                 ((data[0] & 4) ? SNARKJS_ZKEY_STREAM : SNARKJS_ZKEY_DEFAULT);
    if (data[0] & 2) {
        bn_one(data + 1, size - 1, flags);
        return 0;
    }
    bool streamed = flags & SNARKJS_ZKEY_STREAM;
    snarkjs_zkey_t *zk = (snarkjs_zkey_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_zkey_from_bytes(&zk, data + 1, size - 1, "fuzz.zkey", flags, NULL, &err);
    if (rc) {
        FUZZ_CHECK(zk == NULL, "*out not NULL after a failure");
        FUZZ_CHECK(key_status(rc), "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    FUZZ_CHECK(zk->n_public < zk->n_vars, "n_public >= n_vars");
    FUZZ_CHECK(zk->log_domain < 32 && zk->domain_size == (1u << zk->log_domain), "domain size");
    FUZZ_CHECK(zk->vk.n_ic == (size_t)zk->n_public + 1, "ic count");
    for (uint64_t i = 0; i < zk->n_coefs && !streamed; i++)
        FUZZ_CHECK(zk->coefs[i].matrix <= 1 && zk->coefs[i].constraint < zk->domain_size &&
                       zk->coefs[i].signal < zk->n_vars, "coefficient entry out of range");
    if (zk->domain_size <= 1024 && zk->n_vars <= 1024) {
        snarkjs_prover_t *pv;
        if (snarkjs_prover_create(&pv, zk, NULL, &err) == 0) {
            fr_t *w = calloc(zk->n_vars, sizeof(fr_t));
            FUZZ_CHECK(w != NULL, "out of memory");
            for (uint32_t i = 0; i < (streamed ? zk->n_vars : 1); i++)
                fr_set_u64(&w[i], i + 1);
            fr_t rs[2] = {FR_ONE, FR_ONE};
            groth16_proof_t proof;
            int p = snarkjs_prove(pv, &proof, w, zk->n_vars, rs, GROTH16_PROVE_NO_VERIFY, NULL, NULL, &err);
            FUZZ_CHECK(p == 0 || p == GM_EVERIFY || (streamed && key_status(p)), "snarkjs_prove: undocumented status");
            if (streamed && key_status(p))
                FUZZ_CHECK_REFUSAL(p, err);
            free(w);
            snarkjs_prover_destroy(pv);
        }
    }
    snarkjs_zkey_free(zk);
    return 0;
}
