/* fuzz/fuzz_r1cs.c — circom's .r1cs readers (snarkjs_r1cs_from_bytes and
 * BN254's snarkjs_bn_r1cs_from_bytes, snarkjs/snarkjs.h), in memory, then
 * the constraint checker on what they read.
 * Input: the file (given to both readers; at most one accepts it).
 * Properties: a decoded R1CS keeps its promises (term ranges increasing from
 * 0 to n_terms, every wire < n_wires, public counts < n_wires);
 * snarkjs_r1cs_check runs on it with the witness (1, 0, ..., 0) for small
 * circuits and answers 0 or GM_EVERIFY; a refusal is documented, with a
 * message, and leaves *out NULL. */
#include <stdlib.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

FUZZ_INIT_FF_ONLY()

/* The promises of a decoded R1CS of either curve. */
static void shape_ok(uint32_t n_wires, uint64_t n_public, uint32_t n_constraints, const uint64_t *lc_start,
                     const uint32_t *wire, uint64_t n_terms)
{
    FUZZ_CHECK(n_public < n_wires, "public counts >= n_wires");
    FUZZ_CHECK(lc_start[0] == 0, "first term range does not start at 0");
    for (uint64_t i = 0; i < 3 * (uint64_t)n_constraints; i++)
        FUZZ_CHECK(lc_start[i] <= lc_start[i + 1], "term ranges decrease");
    FUZZ_CHECK(lc_start[3 * (uint64_t)n_constraints] == n_terms, "term ranges do not end at n_terms");
    for (uint64_t t = 0; t < n_terms; t++)
        FUZZ_CHECK(wire[t] < n_wires, "wire out of range");
}

static void refusal_ok(int rc, const err_t *err)
{
    FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOTSUP || rc == GM_ENOMEM, "undocumented status");
    FUZZ_CHECK_REFUSAL(rc, (*err));
}

static void bn_one(const uint8_t *data, size_t size)
{
    snarkjs_bn_r1cs_t *r = (snarkjs_bn_r1cs_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_bn_r1cs_from_bytes(&r, data, size, "fuzz.r1cs", &err);
    if (rc) {
        FUZZ_CHECK(r == NULL, "*out not NULL after a failure");
        refusal_ok(rc, &err);
        return;
    }
    shape_ok(r->n_wires, (uint64_t)r->n_pub_out + r->n_pub_in + r->n_prv_in, r->n_constraints, r->lc_start, r->wire,
             r->n_terms);
    if (r->n_wires <= (1u << 16)) {
        bn_fr_t *w = calloc(r->n_wires, sizeof(bn_fr_t));
        FUZZ_CHECK(w != NULL, "out of memory");
        w[0] = BN254_FR_ONE;
        int c = snarkjs_bn_r1cs_check(r, w, r->n_wires, "fuzz.r1cs", &err);
        FUZZ_CHECK(c == 0 || c == GM_EVERIFY, "snarkjs_bn_r1cs_check: undocumented status");
        free(w);
    }
    snarkjs_bn_r1cs_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bn_one(data, size);
    snarkjs_r1cs_t *r = (snarkjs_r1cs_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_r1cs_from_bytes(&r, data, size, "fuzz.r1cs", &err);
    if (rc) {
        FUZZ_CHECK(r == NULL, "*out not NULL after a failure");
        refusal_ok(rc, &err);
        return 0;
    }
    shape_ok(r->n_wires, (uint64_t)r->n_pub_out + r->n_pub_in + r->n_prv_in, r->n_constraints, r->lc_start, r->wire,
             r->n_terms);
    if (r->n_wires <= (1u << 16)) {
        fr_t *w = calloc(r->n_wires, sizeof(fr_t));
        FUZZ_CHECK(w != NULL, "out of memory");
        w[0] = FR_ONE;
        int c = snarkjs_r1cs_check(r, w, r->n_wires, "fuzz.r1cs", &err);
        FUZZ_CHECK(c == 0 || c == GM_EVERIFY, "snarkjs_r1cs_check: undocumented status");
        free(w);
    }
    snarkjs_r1cs_free(r);
    return 0;
}
