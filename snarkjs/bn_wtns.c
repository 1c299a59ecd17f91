/*
 * snarkjs/bn_wtns.c — the .wtns reader (snarkjs/wtns_shape.h) for BN254
 * (circom's default prime), under the snarkjs_bn_ names of snarkjs/snarkjs.h.
 */
#define SJ_BN128
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/wtns_shape.h"

void snarkjs_bn_wtns_free(snarkjs_bn_wtns_t *w) { wtns_free(w); }

int snarkjs_bn_wtns_from_bytes(snarkjs_bn_wtns_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    return wtns_from_bytes(out, buf, n, what, err);
}

int snarkjs_bn_wtns_load(snarkjs_bn_wtns_t *out, const char *path, err_t *err) { return wtns_load(out, path, err); }
