/*
 * bn_ntt.c — the number-theoretic transform over BN254's Fr (two-adicity 28:
 * sizes 2^1 .. 2^28), the same transform as ntt/ntt.c (its DESIGN comment),
 * instantiated from ntt/ntt_shape.h with the 8-lane paths on BN254's Fr
 * kernels (ff/bn_fr_ifma.c).
 */
#define NTT_NAME "bn_ntt"
#define NTT_DOMAIN_STRUCT bn_ntt_domain
#define NTT_DOMAIN_T bn_ntt_domain_t
#define NTT_FE bn_fr
#define NTT_FE_T bn_fr_t
#define NTT_FE_ONE BN254_FR_ONE
#define NTT_FE_GENERATOR BN254_FR_GENERATOR
#define NTT_X8
#include "ntt/ntt_shape.h"

/* ---- the public functions of ntt/ntt.h (the shape above, by name) ------------ */

int bn_ntt_domain_create(bn_ntt_domain_t **out, unsigned log_n, err_t *err) { return domain_create(out, log_n, err); }
void bn_ntt_domain_destroy(bn_ntt_domain_t *d) { domain_destroy(d); }
size_t bn_ntt_domain_size(const bn_ntt_domain_t *d) { return domain_size(d); }
unsigned bn_ntt_domain_log_size(const bn_ntt_domain_t *d) { return domain_log_size(d); }
size_t bn_ntt_scratch_size(const bn_ntt_domain_t *d, unsigned nworkers) { return scratch_size(d, nworkers); }
void bn_ntt_forward(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool) { forward(d, a, scratch, pool); }
void bn_ntt_inverse(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool) { inverse(d, a, scratch, pool); }
void bn_ntt_coset_forward(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool)
{
    coset_forward(d, a, scratch, pool);
}
void bn_ntt_coset_inverse(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool)
{
    coset_inverse(d, a, scratch, pool);
}
