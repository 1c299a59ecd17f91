/*
 * snarkjs/bn_r1cs.c — the .r1cs reader and witness check
 * (snarkjs/r1cs_shape.h) for BN254 (circom's default prime), under the
 * snarkjs_bn_ names of snarkjs/snarkjs.h.
 */
#define SJ_BN128
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/r1cs_shape.h"

void snarkjs_bn_r1cs_free(snarkjs_bn_r1cs_t *r) { r1cs_free(r); }

int snarkjs_bn_r1cs_from_bytes(snarkjs_bn_r1cs_t **out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    return r1cs_from_bytes(out, buf, n, what, err);
}

int snarkjs_bn_r1cs_load(snarkjs_bn_r1cs_t **out, const char *path, err_t *err) { return r1cs_load(out, path, err); }

int snarkjs_bn_r1cs_check(const snarkjs_bn_r1cs_t *r, const bn_fr_t *w, size_t n, const char *what, err_t *err)
{
    return r1cs_check(r, w, n, what, err);
}
