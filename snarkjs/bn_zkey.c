/*
 * snarkjs/bn_zkey.c — the .zkey reader (snarkjs/zkey_shape.h) and its slice
 * reader for split proofs (snarkjs/zkey_slice_shape.h) for BN254 (snarkjs's
 * bn128), under the snarkjs_bn_ names of snarkjs/snarkjs.h.
 */
#define SJ_BN128
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/zkey_shape.h"
#define SJ_ROOT_J SNARKJS_BN_ROOT_EXP
#include "snarkjs/zkey_slice_shape.h"

void snarkjs_bn_zkey_free(snarkjs_bn_zkey_t *zk) { zkey_free(zk); }

int snarkjs_bn_zkey_from_bytes(snarkjs_bn_zkey_t **out, const uint8_t *buf, size_t n, const char *what,
                               snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
{
    return zkey_from_bytes(out, buf, n, what, flags, pool, err);
}

int snarkjs_bn_zkey_load(snarkjs_bn_zkey_t **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                         err_t *err)
{
    return zkey_load(out, path, flags, pool, err);
}

int sj_bn_zkey_stream_abc(const snarkjs_bn_zkey_t *zk, const bn_fr_t *w, bn_fr_t *vec[2], uint64_t perm, topo_pool_t *pool, err_t *err)
{
    return stream_abc(zk, w, vec, perm, pool, err);
}

int sj_bn_zkey_stream_points(void **out, const snarkjs_bn_zkey_t *zk, snarkjs_section_t s, topo_pool_t *pool, err_t *err)
{
    return stream_points(out, zk, s, pool, err);
}

void snarkjs_bn_zkey_slice_free(snarkjs_bn_zkey_slice_t *zs) { zkey_slice_free(zs); }

size_t snarkjs_bn_zkey_slice_memory(const snarkjs_bn_zkey_slice_t *zs) { return zkey_slice_memory(zs); }

int snarkjs_bn_zkey_load_slice(snarkjs_bn_zkey_slice_t *out, const char *path, unsigned part, unsigned parts,
                               snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
{
    return zkey_load_slice(out, path, part, parts, flags, pool, err);
}
