/*
 * snarkjs/r1cs.c — the .r1cs reader and witness check (snarkjs/r1cs_shape.h)
 * for BLS12-381, under the names of snarkjs/snarkjs.h.
 */
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/r1cs_shape.h"

void snarkjs_r1cs_free(snarkjs_r1cs_t *r) { r1cs_free(r); }

int snarkjs_r1cs_from_bytes(snarkjs_r1cs_t **out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    return r1cs_from_bytes(out, buf, n, what, err);
}

int snarkjs_r1cs_load(snarkjs_r1cs_t **out, const char *path, err_t *err) { return r1cs_load(out, path, err); }

int snarkjs_r1cs_check(const snarkjs_r1cs_t *r, const fr_t *w, size_t n, const char *what, err_t *err)
{
    return r1cs_check(r, w, n, what, err);
}
