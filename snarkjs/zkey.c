/*
 * snarkjs/zkey.c — the .zkey reader (snarkjs/zkey_shape.h) for BLS12-381,
 * under the names of snarkjs/snarkjs.h, and its parts that
 * snarkjs/zkey_slice.c shares (snarkjs_internal.h).
 */
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/zkey_shape.h"

void snarkjs_zkey_free(snarkjs_zkey_t *zk) { zkey_free(zk); }

int sj_decode_points(void **out, const uint8_t *in, uint64_t n, uint64_t first, bool g2, bool subgroup, unsigned sec,
                     const char *name, const char *what, topo_pool_t *pool, err_t *err)
{
    return decode_points(out, in, n, first, g2, subgroup, sec, name, what, pool, err);
}

int sj_zkey_header(snarkjs_zkey_t *zk, sj_bin_t *b, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    return zkey_header(zk, b, buf, n, what, err);
}

int sj_zkey_coef(snarkjs_coef_t *c, const sj_bin_t *b, const snarkjs_zkey_t *zk, uint64_t i, const char *what,
                 err_t *err)
{
    return zkey_coef(c, b, zk, i, what, err);
}

int snarkjs_zkey_from_bytes(snarkjs_zkey_t **out, const uint8_t *buf, size_t n, const char *what,
                            snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
{
    return zkey_from_bytes(out, buf, n, what, flags, pool, err);
}

int snarkjs_zkey_load(snarkjs_zkey_t **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                      err_t *err)
{
    return zkey_load(out, path, flags, pool, err);
}
