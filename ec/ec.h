/*
 * ec/ec.h — the BLS12-381 groups and what is built on them:
 *   G1: y^2 = x^3 + 4 over Fp;  G2: y^2 = x^3 + 4(u + 1) over Fp2 (M-twist);
 *   serialization in the Zcash / blst / bellperson encoding; the optimal ate
 *   pairing; multi-scalar multiplication (MSM) and the NTT over Fr.
 *
 * Conventions for every function below unless it says otherwise:
 *  - Affine points carry an `inf` flag; when set, x and y are ignored (and
 *    kept zero by every function here). Jacobian (X, Y, Z) means x = X/Z^2,
 *    y = Y/Z^3 with Z = 0 for the identity. XYZZ (X, Y, ZZ, ZZZ) means
 *    x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, ZZ = 0 for the identity.
 *  - Every point function handles the identity and P = Q and P = -Q unless
 *    its name ends in _unsafe, which says what it excludes.
 *  - Field elements follow ff/ff.h (Montgomery, reduced). Outputs come first
 *    and may alias inputs.
 *  - Functions taking points that came from outside (bytes) validate them;
 *    functions taking g1_affine_t etc. assume valid points (GM_VERIFY checks
 *    on-curve in debug builds).
 *  - Nothing here starts threads: multi-threaded work is split into tiles that
 *    the caller (topo/ pools) runs.
 */
#ifndef GM_EC_H
#define GM_EC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ff/ff.h"

typedef struct { fp_t x, y; bool inf; } g1_affine_t;
typedef struct { fp_t x, y, z; } g1_jac_t;
typedef struct { fp_t x, y, zz, zzz; } g1_xyzz_t;
typedef struct { fp2_t x, y; bool inf; } g2_affine_t;
typedef struct { fp2_t x, y, z; } g2_jac_t;
typedef struct { fp2_t x, y, zz, zzz; } g2_xyzz_t;

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192

/* The standard generators (as in the Zcash spec / blst). */
extern const g1_affine_t G1_GENERATOR;
extern const g2_affine_t G2_GENERATOR;

/* ---- G1 ----------------------------------------------------------------------------- */

void g1_affine_set_inf(g1_affine_t *out);
void g1_jac_set_inf(g1_jac_t *out);
bool g1_jac_is_inf(const g1_jac_t *p);
void g1_from_affine(g1_jac_t *out, const g1_affine_t *p);
void g1_to_affine(g1_affine_t *out, const g1_jac_t *p);          /* one inversion */
/* out[i] = affine of p[i], with one inversion for the batch (identities kept).
 * scratch holds n fp_t. */
void g1_batch_to_affine(g1_affine_t *out, const g1_jac_t *p, size_t n, fp_t *scratch);
bool g1_affine_eq(const g1_affine_t *a, const g1_affine_t *b);
bool g1_jac_eq(const g1_jac_t *a, const g1_jac_t *b);           /* projective equality */
void g1_neg(g1_jac_t *out, const g1_jac_t *p);
void g1_affine_neg(g1_affine_t *out, const g1_affine_t *p);
void g1_dbl(g1_jac_t *out, const g1_jac_t *p);
void g1_add(g1_jac_t *out, const g1_jac_t *p, const g1_jac_t *q);
void g1_add_mixed(g1_jac_t *out, const g1_jac_t *p, const g1_affine_t *q);
/* out = k*p, k a plain 256-bit integer (4 little-endian limbs; any value, not
 * reduced mod r). GLV-accelerated when the point is in G1. */
void g1_mul(g1_jac_t *out, const g1_jac_t *p, const uint64_t k[4]);
/* k given as an Fr element (its canonical integer). */
void g1_mul_fr(g1_jac_t *out, const g1_jac_t *p, const fr_t *k);
bool g1_affine_on_curve(const g1_affine_t *p);                   /* inf is on curve */
bool g1_jac_on_curve(const g1_jac_t *p);
/* True when p is in the order-r subgroup (fast endomorphism check). Assumes
 * p is on the curve. */
bool g1_affine_in_subgroup(const g1_affine_t *p);

/* XYZZ accumulators (bucket sums of the MSM). */
void g1_xyzz_set_inf(g1_xyzz_t *out);
void g1_xyzz_add_affine(g1_xyzz_t *out, const g1_xyzz_t *p, const g1_affine_t *q);
void g1_xyzz_add(g1_xyzz_t *out, const g1_xyzz_t *p, const g1_xyzz_t *q);
void g1_xyzz_dbl(g1_xyzz_t *out, const g1_xyzz_t *p);
void g1_xyzz_to_jac(g1_jac_t *out, const g1_xyzz_t *p);

/* Encodings (Zcash): big-endian x (then y), with the top three bits of the
 * first byte: 0x80 compressed, 0x40 infinity, 0x20 y is lexicographically
 * largest (compressed only). */
void g1_to_bytes_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *p);
void g1_to_bytes_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *p);
/* Decoding validates everything and returns:
 *  GM_EFLAGS      compression bit wrong for the length, infinity with other bits
 *                 or a non-zero body, sort bit on an uncompressed encoding;
 *  GM_ENONCANON   a coordinate >= p;
 *  GM_ENOSQRT     (compressed) x^3 + 4 is not a square;
 *  GM_ENOTONCURVE (uncompressed) y^2 != x^3 + 4;
 *  GM_ESUBGROUP   on the curve but not in G1 (skipped by the _unchecked
 *                 variants, which trust the source, e.g. --trust-params).
 * out is untouched on failure. */
int g1_from_bytes_compressed(g1_affine_t *out, const uint8_t in[G1_COMPRESSED_BYTES]);
int g1_from_bytes_uncompressed(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES]);
int g1_from_bytes_uncompressed_unchecked(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES]);

/* ---- G2 (same shapes over Fp2) ------------------------------------------------------------ */

void g2_affine_set_inf(g2_affine_t *out);
void g2_jac_set_inf(g2_jac_t *out);
bool g2_jac_is_inf(const g2_jac_t *p);
void g2_from_affine(g2_jac_t *out, const g2_affine_t *p);
void g2_to_affine(g2_affine_t *out, const g2_jac_t *p);
void g2_batch_to_affine(g2_affine_t *out, const g2_jac_t *p, size_t n, fp2_t *scratch);
bool g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b);
bool g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b);
void g2_neg(g2_jac_t *out, const g2_jac_t *p);
void g2_affine_neg(g2_affine_t *out, const g2_affine_t *p);
void g2_dbl(g2_jac_t *out, const g2_jac_t *p);
void g2_add(g2_jac_t *out, const g2_jac_t *p, const g2_jac_t *q);
void g2_add_mixed(g2_jac_t *out, const g2_jac_t *p, const g2_affine_t *q);
void g2_mul(g2_jac_t *out, const g2_jac_t *p, const uint64_t k[4]);   /* psi-accelerated in G2 */
void g2_mul_fr(g2_jac_t *out, const g2_jac_t *p, const fr_t *k);
bool g2_affine_on_curve(const g2_affine_t *p);
bool g2_jac_on_curve(const g2_jac_t *p);
bool g2_affine_in_subgroup(const g2_affine_t *p);                 /* psi-based check */

void g2_xyzz_set_inf(g2_xyzz_t *out);
void g2_xyzz_add_affine(g2_xyzz_t *out, const g2_xyzz_t *p, const g2_affine_t *q);
void g2_xyzz_add(g2_xyzz_t *out, const g2_xyzz_t *p, const g2_xyzz_t *q);
void g2_xyzz_dbl(g2_xyzz_t *out, const g2_xyzz_t *p);
void g2_xyzz_to_jac(g2_jac_t *out, const g2_xyzz_t *p);

/* G2 encodings: x = (c1, c0) big-endian (c1 first, as Zcash), then y likewise. */
void g2_to_bytes_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *p);
void g2_to_bytes_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *p);
int g2_from_bytes_compressed(g2_affine_t *out, const uint8_t in[G2_COMPRESSED_BYTES]);
int g2_from_bytes_uncompressed(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES]);
int g2_from_bytes_uncompressed_unchecked(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES]);

/* ---- pairing ---------------------------------------------------------------------------------- */

/* The Miller loop of the optimal ate pairing for one pair; identities give 1. */
void pairing_miller_loop(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q);
/* Product of the Miller loops of n pairs (one shared squaring chain). */
void pairing_miller_loop_n(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n);
/* f^((p^12 - 1) / r): the easy part, then the hard part along the x chain. */
void pairing_final_exp(fp12_t *out, const fp12_t *f);
/* e(P, Q) = final_exp(miller_loop(P, Q)), the value blst and @noble/curves compute. */
void pairing(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q);
/* True when prod_i e(p[i], q[i]) == 1 (one final exponentiation); Groth16
 * verification is such a check. */
bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n);

#endif /* GM_EC_H */
