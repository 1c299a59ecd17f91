/*
 * snarkjs/bn_wtns.c — the .wtns reader (snarkjs/wtns_shape.h) for BN254
 * (circom's default prime), whole or through a mapping (snarkjs_bn_wtns_open,
 * closed by snarkjs_wtns_close), under the snarkjs_bn_ names of
 * snarkjs/snarkjs.h.
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

int snarkjs_bn_wtns_open(snarkjs_wtns_view_t *v, const char *path, err_t *err) { return wtns_open(v, path, err); }

int snarkjs_bn_wtns_values(const snarkjs_wtns_view_t *v, bn_fr_t *out, uint64_t lo, uint64_t hi, err_t *err)
{
    return wtns_values(v, out, lo, hi, err);
}
