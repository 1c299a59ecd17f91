/* fuzz/fuzz_wtns.c — circom's .wtns readers (snarkjs_wtns_from_bytes and
 * BN254's snarkjs_bn_wtns_from_bytes, snarkjs/snarkjs.h), in memory.
 * Input: the file (given to both readers; at most one accepts it).
 * Properties: every decoded value is reduced (re-encodes canonically); a
 * refusal is documented, with a message, and leaves *out zeroed. */
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

FUZZ_INIT_FF_ONLY()

static void bn_one(const uint8_t *data, size_t size)
{
    snarkjs_bn_wtns_t w;
    memset(&w, 0x5a, sizeof w);
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_bn_wtns_from_bytes(&w, data, size, "fuzz.wtns", &err);
    if (rc) {
        FUZZ_CHECK(w.w == NULL && w.n == 0, "*out not zeroed after a failure");
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOTSUP || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return;
    }
    FUZZ_CHECK(w.n <= size / 32, "more values than the file holds");
    for (size_t i = 0; i < w.n; i++) {
        uint8_t b[32];
        bn_fr_t x;
        bn_fr_to_bytes_le(b, &w.w[i]);
        FUZZ_CHECK(bn_fr_from_bytes_le(&x, b) == 0 && bn_fr_eq(&x, &w.w[i]), "value not reduced");
    }
    snarkjs_bn_wtns_free(&w);
    FUZZ_CHECK(w.w == NULL && w.n == 0, "snarkjs_bn_wtns_free did not zero");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bn_one(data, size);
    snarkjs_wtns_t w;
    memset(&w, 0x5a, sizeof w);
    err_t err;
    gm_err_clear(&err);
    int rc = snarkjs_wtns_from_bytes(&w, data, size, "fuzz.wtns", &err);
    if (rc) {
        FUZZ_CHECK(w.w == NULL && w.n == 0, "*out not zeroed after a failure");
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOTSUP || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    FUZZ_CHECK(w.n <= size / 32, "more values than the file holds");
    for (size_t i = 0; i < w.n; i++) {
        uint8_t b[32];
        fr_t x;
        fr_to_bytes_le(b, &w.w[i]);
        FUZZ_CHECK(fr_from_bytes_le(&x, b) == 0 && fr_eq(&x, &w.w[i]), "value not reduced");
    }
    snarkjs_wtns_free(&w);
    FUZZ_CHECK(w.w == NULL && w.n == 0, "snarkjs_wtns_free did not zero");
    return 0;
}
