/*
 * ntt/ntt.h — the number-theoretic transform over Fr (BLS12-381's scalar
 * field), radix-2 over power-of-two domains, multi-threaded on a topo/ pool.
 * It uses only ff/ (Fr), topo/ (pools) and base/; the prover's h (groth16/)
 * and the snarkjs prover are its callers.
 *
 * Conventions: those of base/base.h (status codes, err_t); values are
 * reduced Fr elements in Montgomery form (ff/ff.h).
 */
#ifndef GM_NTT_H
#define GM_NTT_H

#include <stddef.h>

#include "base/base.h"   /* err_t, status codes */
#include "ff/ff.h"
#include "topo/topo.h"   /* topo_pool_t: the caller's pool runs the tiles */


/* A precomputed domain of size n = 2^log_n (1 <= log_n <= 28): the twiddle
 * tables of both directions, also in the form of ff/'s 8-lane kernels
 * (O(sqrt n) memory, 5.6 MiB at 2^28). Create it once
 * per size and reuse it across proofs; it is read-only after creation, so
 * several threads (or pools) may transform with one domain at the same time,
 * each with its own scratch. w below is the domain's primitive n-th root of
 * unity: 7^((r-1)/2^32) squared 32 - log_n times (bellperson's and snarkjs's
 * choice), g = 7 the coset shift (FR_GENERATOR). */
typedef struct ntt_domain ntt_domain_t;

/* Returns 0, GM_EINVAL (log_n out of range) or GM_ENOMEM; *out is NULL on
 * failure. */
int ntt_domain_create(ntt_domain_t **out, unsigned log_n, err_t *err)
    __attribute__((warn_unused_result));
void ntt_domain_destroy(ntt_domain_t *d);             /* NULL allowed */
size_t ntt_domain_size(const ntt_domain_t *d);        /* n */
unsigned ntt_domain_log_size(const ntt_domain_t *d);  /* log_n */

/* Bytes of scratch the transforms below need when run by a pool of nworkers
 * workers (topo_pool_size(pool); 1 for a NULL pool): at most
 * nworkers * 8 * 2^floor(log_n/2) * 32 bytes (4 MiB per worker at 2^28). */
size_t ntt_scratch_size(const ntt_domain_t *d, unsigned nworkers);

/* In-place transforms of the n reduced Fr values a[0 .. n), natural order in
 * and out:
 *   ntt_forward         a[k] <- sum_j a[j] w^(jk)              (evaluations)
 *   ntt_inverse         a[j] <- (1/n) sum_k a[k] w^(-jk)        (coefficients)
 *   ntt_coset_forward   a[i] <- a[i] g^i, then ntt_forward      (bellperson's
 *                       coset_fft: evaluations on the coset g*<w>)
 *   ntt_coset_inverse   ntt_inverse, then a[i] <- a[i] g^(-i)   (icoset_fft)
 * so inverse(forward(x)) = x and coset_inverse(coset_forward(x)) = x.
 * scratch holds ntt_scratch_size(d, topo_pool_size(pool)) bytes, 64-byte
 * aligned (gm_alloc), owned by the caller and not shared with a concurrent
 * call; a must not overlap it. pool may be NULL (the caller's thread only);
 * results do not depend on the pool, nor on the Fr path (fr_x8_enabled():
 * 8-lane AVX-512 IFMA kernels or scalar code). Neither allocates nor
 * fails. */
void ntt_forward(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool);
void ntt_inverse(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool);
void ntt_coset_forward(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool);
void ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool);

/* ---- BN254 ---------------------------------------------------------------------
 * The same transform over BN254's Fr (ntt/bn_ntt.c, the shape of ntt/ntt.c
 * without the 8-lane paths): the same functions and contracts as above, with
 * bn_ types; 1 <= log_n <= 28 (Fr's two-adicity), w = bn_fr_root_of_unity
 * (log_n) (5^((r-1)/2^28) squared 28 - log_n times: snarkjs's roots), and the
 * coset shift g = 5 (BN254_FR_GENERATOR). */
typedef struct bn_ntt_domain bn_ntt_domain_t;

int bn_ntt_domain_create(bn_ntt_domain_t **out, unsigned log_n, err_t *err)
    __attribute__((warn_unused_result));
void bn_ntt_domain_destroy(bn_ntt_domain_t *d);
size_t bn_ntt_domain_size(const bn_ntt_domain_t *d);
unsigned bn_ntt_domain_log_size(const bn_ntt_domain_t *d);
size_t bn_ntt_scratch_size(const bn_ntt_domain_t *d, unsigned nworkers);
void bn_ntt_forward(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool);
void bn_ntt_inverse(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool);
void bn_ntt_coset_forward(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool);
void bn_ntt_coset_inverse(const bn_ntt_domain_t *d, bn_fr_t *a, void *scratch, topo_pool_t *pool);

#endif /* GM_NTT_H */
