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

/* ---- on-curve checks on 8 lanes (ec/add_x8_shape.h; fr_x8_enabled() only) ------ */

/* The first i < n with p[i] off y^2 = x^3 + b, or n: G_first_off_curve's
 * lanes (ec/ec.h), b the curve's constant in Montgomery form. */
size_t g1_x8_first_off_curve(const g1_affine_t *p, size_t n, const fp_t *b);
size_t g2_x8_first_off_curve(const g2_affine_t *p, size_t n, const fp2_t *b);
size_t bn_g1_x8_first_off_curve(const bn_g1_affine_t *p, size_t n, const bn_fp_t *b);
size_t bn_g2_x8_first_off_curve(const bn_g2_affine_t *p, size_t n, const bn_fp2_t *b);

#endif /* GM_EC_INTERNAL_H */
