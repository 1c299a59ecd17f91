/*
 * snarkjs/ptau.c — the development powers of tau (snarkjs/ptau_shape.h)
 * for BLS12-381: groth16_toxic_from_seed's tau, alpha, beta, the points by
 * the setup's fixed-base tables (groth16_fixed_base_gen).
 */
#include "snarkjs/snarkjs_internal.h"

typedef groth16_toxic_t toxic_t;

static int toxic_from_seed(toxic_t *tw, const uint8_t seed[GROTH16_SEED_BYTES], err_t *err)
{
    (void)err;
    groth16_toxic_from_seed(tw, seed);
    return 0;
}

static void root_of_unity(fr_t *out, unsigned k) { snarkjs_root_of_unity(out, k); }

static int fixed_base(void *out, bool g2, const fr_t *scalars, size_t n, topo_pool_t *pool, err_t *err)
{
    return groth16_fixed_base_gen(out, g2, scalars, n, pool, err);
}

#include "snarkjs/ptau_shape.h"

int snarkjs_ptau_write(const char *path, unsigned power, const uint8_t seed[GROTH16_SEED_BYTES], topo_pool_t *pool,
                       err_t *err)
{
    return ptau_write(path, power, seed, pool, err);
}
