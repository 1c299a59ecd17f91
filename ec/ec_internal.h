/*
 * ec/ec_internal.h — declarations shared inside ec/ only (no other folder
 * includes this file).
 */
#ifndef GM_EC_INTERNAL_H
#define GM_EC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ec/ec.h"

/* ---- scalars (ec/scalar.c): reduction, base-|x| digits, wNAF ------------------ */

/* |x| for the BLS parameter x = -0xd201000000010000 (x is negative). */
#define EC_BLS_Z 0xd201000000010000ULL

/* Longest wNAF ec_wnaf writes: a 256-bit scalar gives at most 257 digits. */
#define EC_WNAF_MAX 258

/* out = k mod r for any 256-bit k (little-endian limbs); out may alias k. */
void ec_scalar_mod_r(uint64_t out[4], const uint64_t k[4]);

/* q = a / d, returns a mod d; d != 0; q may alias a. */
uint64_t ec_u256_divrem_u64(uint64_t q[4], const uint64_t a[4], uint64_t d);

/* Width-w non-adjacent form of the nlimbs-limb integer k (nlimbs <= 4,
 * 2 <= w <= 7): k = sum naf[i] 2^i with every non-zero digit odd, |digit| <
 * 2^(w-1), and at least w-1 zeros after each non-zero digit. Writes the
 * digits, zero-padded, to naf[0 .. EC_WNAF_MAX) and returns the number of
 * significant digits (0 for k = 0). */
size_t ec_wnaf(int8_t naf[EC_WNAF_MAX], const uint64_t *k, size_t nlimbs, unsigned w);

/* ---- G1 batch-affine additions on 8 lanes (ec/g1_x8.c, AVX-512 IFMA) ----------
 *
 * For ec/msm.c's buckets. Call only while fr_x8_enabled() is true (they
 * fault on a CPU without AVX-512 IFMA). */

/* Bytes of scratch g1_x8_batch needs for n additions. */
size_t g1_x8_scratch_size(size_t n);

/* For a < n: lambda = num[a] / den[a], and the point at acc[a] becomes
 * (x3, y3) with x3 = lambda^2 - acc[a].x - *px[a] and y3 = lambda (acc[a].x
 * - x3) - acc[a].y: the affine sum when lambda is the slope of the line
 * through acc[a] and the point whose x is *px[a] (the tangent for a
 * doubling, where px[a] is &acc[a]->x). Every den[a] != 0, and no acc[a]
 * appears twice; *px[a] is read before any acc is written. */
void g1_x8_batch(size_t n, const fp_t *den, const fp_t *num, g1_affine_t *const *acc, const fp_t *const *px,
                 void *scratch);

/* out[b] = a[b] * b[b], a[b] - b[b] through the lanes' arithmetic (for tests). */
void g1_x8_fp_mul(fp_t out[8], const fp_t a[8], const fp_t b[8]);
void g1_x8_fp_sub(fp_t out[8], const fp_t a[8], const fp_t b[8]);

#endif /* GM_EC_INTERNAL_H */
