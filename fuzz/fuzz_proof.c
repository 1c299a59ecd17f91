/* fuzz/fuzz_proof.c — the binary proof decoders: BLS12-381's 192 bytes
 * (groth16_proof_from_bytes, groth16/groth16.h) and bn128's 256
 * (snarkjs_bn_proof_from_bytes, snarkjs/snarkjs.h), both fed the same input.
 * Input: the proof bytes (inputs shorter than a proof are padded with
 * zeros, longer ones cut).
 * Properties: a decoded proof re-encodes to the same bytes; a refusal is
 * one of the documented statuses and carries a message. */
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

FUZZ_INIT_FF_ONLY()

static void bn_proof(const uint8_t *data, size_t size)
{
    uint8_t in[SNARKJS_BN_PROOF_BYTES] = {0};
    memcpy(in, data, size < sizeof in ? size : sizeof in);
    snarkjs_bn_proof_t p;
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_bn_proof_from_bytes(&p, in, "fuzz.proof", &err);
    if (rc) {
        FUZZ_CHECK(rc == GM_ENONCANON || rc == GM_ENOTONCURVE || rc == GM_ESUBGROUP, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return;
    }
    uint8_t out[SNARKJS_BN_PROOF_BYTES];
    snarkjs_bn_proof_to_bytes(out, &p);
    FUZZ_CHECK(memcmp(out, in, sizeof out) == 0, "bn128 proof does not round-trip");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bn_proof(data, size);
    uint8_t in[GROTH16_PROOF_BYTES] = {0};
    memcpy(in, data, size < sizeof in ? size : sizeof in);
    groth16_proof_t p;
    err_t err;
    gm_err_clear(&err);
    int rc = groth16_proof_from_bytes(&p, in, "fuzz.proof", &err);
    if (rc) {
        FUZZ_CHECK(rc == GM_EFLAGS || rc == GM_ENONCANON || rc == GM_ENOSQRT || rc == GM_ESUBGROUP ||
                       rc == GM_EFORMAT, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    uint8_t out[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(out, &p);
    FUZZ_CHECK(memcmp(out, in, sizeof out) == 0, "proof does not round-trip");
    return 0;
}
