/* fuzz/fuzz_r1cs.c — circom's .r1cs reader (snarkjs_r1cs_from_bytes,
 * groth16/groth16.h), in memory, then the constraint checker on what it read.
 * Input: the file.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    snarkjs_r1cs_t *r = (snarkjs_r1cs_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_r1cs_from_bytes(&r, data, size, "fuzz.r1cs", &err);
    if (rc) {
        FUZZ_CHECK(r == NULL, "*out not NULL after a failure");
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOTSUP || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    FUZZ_CHECK((uint64_t)r->n_pub_out + r->n_pub_in + r->n_prv_in < r->n_wires, "public counts >= n_wires");
    FUZZ_CHECK(r->lc_start[0] == 0, "first term range does not start at 0");
    for (uint64_t i = 0; i < 3 * (uint64_t)r->n_constraints; i++)
        FUZZ_CHECK(r->lc_start[i] <= r->lc_start[i + 1], "term ranges decrease");
    FUZZ_CHECK(r->lc_start[3 * (uint64_t)r->n_constraints] == r->n_terms, "term ranges do not end at n_terms");
    for (uint64_t t = 0; t < r->n_terms; t++)
        FUZZ_CHECK(r->wire[t] < r->n_wires, "wire out of range");
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
