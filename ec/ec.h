/*
 * ec/ec.h — the BLS12-381 groups and what is built on them:
 *   G1: y^2 = x^3 + 4 over Fp;  G2: y^2 = x^3 + 4(u + 1) over Fp2 (M-twist);
 *   serialization in the Zcash / blst / bellperson encoding; the optimal ate
 *   pairing; multi-scalar multiplication (MSM). The NTT over Fr is in ntt/.
 *   The last section does the same for BN254 (bn_ prefix): its groups, their
 *   snarkjs and Ethereum encodings, its pairing, its MSM.
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
 *  - Functions taking points that came from outside (bytes) validate them
 *    and return a status (warn_unused_result);
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
/*
 * Written once for G1 and G2 (ec/ec_shape.h, instantiated over Fp by ec/g1.c
 * and over Fp2 by ec/g2.c, which define these functions by name); the G2
 * section below has the same contracts. Costs
 * are in field multiplications (M, squarings included) of Fp resp. Fp2.
 * Unless a line says otherwise: outputs may alias inputs of the same type; the
 * identity and P = Q, P = -Q are handled; GM_VERIFY builds check that point
 * inputs are on the curve (not that they are in the subgroup).
 */

void g1_affine_set_inf(g1_affine_t *out);                        /* inf, x = y = 0 */
void g1_jac_set_inf(g1_jac_t *out);                              /* (0, 0, 0) */
bool g1_jac_is_inf(const g1_jac_t *p);                           /* Z == 0 */
void g1_from_affine(g1_jac_t *out, const g1_affine_t *p);        /* Z = 1 */
void g1_to_affine(g1_affine_t *out, const g1_jac_t *p);          /* one inversion */
/* out[i] = affine of p[i], with one inversion for the batch (Montgomery's
 * trick over the non-identity entries; identities come out as inf). scratch
 * holds n fp_t; out must not overlap p or scratch. n = 0 is allowed. */
void g1_batch_to_affine(g1_affine_t *out, const g1_jac_t *p, size_t n, fp_t *scratch);
bool g1_affine_eq(const g1_affine_t *a, const g1_affine_t *b);
bool g1_jac_eq(const g1_jac_t *a, const g1_jac_t *b);           /* projective equality */
void g1_neg(g1_jac_t *out, const g1_jac_t *p);
void g1_affine_neg(g1_affine_t *out, const g1_affine_t *p);      /* -inf = inf */
void g1_dbl(g1_jac_t *out, const g1_jac_t *p);                   /* 7M */
void g1_add(g1_jac_t *out, const g1_jac_t *p, const g1_jac_t *q); /* 16M */
void g1_add_mixed(g1_jac_t *out, const g1_jac_t *p, const g1_affine_t *q); /* 11M */
/* out = k*p, k a plain 256-bit integer (4 little-endian limbs; any value, not
 * reduced mod r). p must be in G1 (as every g1_jac_t from k*G or from a checked
 * decoding is): the GLV split uses phi(p) = -x^2 p and reduces k mod r, so on a
 * curve point outside G1 the result is wrong; use g1_mul_any there. Two
 * 128-bit halves, wNAF width 5, one shared doubling chain: about 1550M. */
void g1_mul(g1_jac_t *out, const g1_jac_t *p, const uint64_t k[4]);
/* k given as an Fr element (its canonical integer); p in G1 as for g1_mul. */
void g1_mul_fr(g1_jac_t *out, const g1_jac_t *p, const fr_t *k);
/* out = k*p for any point p on the curve (also outside G1: cofactor clearing,
 * tests), k any 256-bit integer used as is; plain wNAF (width 5), about 2400M,
 * 1.5 times g1_mul. */
void g1_mul_any(g1_jac_t *out, const g1_jac_t *p, const uint64_t k[4]);
bool g1_affine_on_curve(const g1_affine_t *p);                   /* inf is on curve */
bool g1_jac_on_curve(const g1_jac_t *p);                         /* Z = 0 is on curve */
/* The first i < n with p[i] off the curve, or n (the identity is on it):
 * g1_affine_on_curve over an array, 8 points at a time on lanes where
 * fr_x8_enabled() (the same answer either way); p's coordinates < p, as a
 * decoder leaves them. The same for g2_, bn_g1_ and bn_g2_ (on lanes). */
size_t g1_first_off_curve(const g1_affine_t *p, size_t n);
/* True when p is in the order-r subgroup: Scott's test phi(p) == -x^2 p
 * (about 1050M). The identity is in it. Assumes p is on the curve. */
bool g1_affine_in_subgroup(const g1_affine_t *p);

/* XYZZ accumulators (bucket sums of the MSM): same conventions as above
 * (identity: ZZ = 0; P = Q and P = -Q handled, so duplicate and opposite
 * points may share a bucket). add_affine 10M, add 14M, dbl 9M, to_jac 2M. */
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
int g1_from_bytes_compressed(g1_affine_t *out, const uint8_t in[G1_COMPRESSED_BYTES])
    __attribute__((warn_unused_result));
int g1_from_bytes_uncompressed(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES])
    __attribute__((warn_unused_result));
int g1_from_bytes_uncompressed_unchecked(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES])
    __attribute__((warn_unused_result));

/* ---- G2 (same shapes and contracts over Fp2; M below is an Fp2 multiplication) ------ */

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
/* As g1_mul: p must be in G2; the psi split (psi(p) = x p) makes four 64-bit
 * digits of k mod r in base |x|, wNAF width 4, one chain of 64 doublings
 * (about 1000M). g2_mul_any: any curve point, k used as is (plain wNAF). */
void g2_mul(g2_jac_t *out, const g2_jac_t *p, const uint64_t k[4]);
void g2_mul_fr(g2_jac_t *out, const g2_jac_t *p, const fr_t *k);
void g2_mul_any(g2_jac_t *out, const g2_jac_t *p, const uint64_t k[4]);
bool g2_affine_on_curve(const g2_affine_t *p);
bool g2_jac_on_curve(const g2_jac_t *p);
size_t g2_first_off_curve(const g2_affine_t *p, size_t n);
/* Scott's test psi(p) == x p (about 500M). Assumes p is on the curve. */
bool g2_affine_in_subgroup(const g2_affine_t *p);

void g2_xyzz_set_inf(g2_xyzz_t *out);
void g2_xyzz_add_affine(g2_xyzz_t *out, const g2_xyzz_t *p, const g2_affine_t *q);
void g2_xyzz_add(g2_xyzz_t *out, const g2_xyzz_t *p, const g2_xyzz_t *q);
void g2_xyzz_dbl(g2_xyzz_t *out, const g2_xyzz_t *p);
void g2_xyzz_to_jac(g2_jac_t *out, const g2_xyzz_t *p);

/* G2 encodings: x = (c1, c0) big-endian (c1 first, as Zcash), then y likewise. */
void g2_to_bytes_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *p);
void g2_to_bytes_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *p);
int g2_from_bytes_compressed(g2_affine_t *out, const uint8_t in[G2_COMPRESSED_BYTES])
    __attribute__((warn_unused_result));
int g2_from_bytes_uncompressed(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES])
    __attribute__((warn_unused_result));
int g2_from_bytes_uncompressed_unchecked(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES])
    __attribute__((warn_unused_result));

/* ---- pairing ---------------------------------------------------------------------------------- */

/* The optimal ate pairing e: G1 x G2 -> GT (the order-r subgroup of Fp12*).
 * Inputs are valid affine points (on the curve and in G1 / G2; GM_VERIFY
 * checks both); a pair with either point at infinity contributes 1.
 * No function here allocates or fails; all are safe on distinct outputs from
 * any thread.
 *
 * The Miller loop of one pair: f_{x,Q}(P) (x = -0xd201000000010000),
 * projective on the twist, no inversions; 1 for identities. Its value is
 * defined only up to factors the final exponentiation removes, so compare
 * Miller loop outputs only after pairing_final_exp. */
void pairing_miller_loop(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q);
/* Product of the Miller loops of the n pairs (p[i], q[i]) (n = 0 gives 1):
 * one shared squaring chain per group of up to 8 pairs (stack state, no
 * allocation), the groups' results multiplied. */
void pairing_miller_loop_n(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n);
/* out = f^(3 (p^12 - 1) / r): the easy part (p^6 - 1)(p^2 + 1), then the hard
 * part along the x chain (cyclotomic squarings). The factor 3 comes from the
 * BLS12 decomposition blst and @noble/curves use; the result is their value.
 * f must be non-zero (every Miller loop output is). */
void pairing_final_exp(fp12_t *out, const fp12_t *f);
/* e(P, Q) = final_exp(miller_loop(P, Q)), byte for byte the value blst and
 * @noble/curves compute (fp12_to_bytes_be); 1 when either is the identity. */
void pairing(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q);
/* True when prod_i e(p[i], q[i]) == 1 (one final exponentiation; true for
 * n = 0); Groth16 verification is such a check. */
bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n);

#include "base/base.h"   /* err_t, status codes */
#include "topo/topo.h"   /* topo_pool_t: the caller's pool runs the tiles */

/* ---- multi-scalar multiplication (ec/msm.c, the shape of ec/msm_shape.h) ------------------------ */

/* Largest window width (bits) msm_* accept. */
#define MSM_WINDOW_MAX 20

/* The window width msm_* choose (window = 0) for n non-trivial scalars on
 * nworkers workers, from a cost model in Fp multiplications of the bucket
 * additions (with each window's reach: the top window of a 255-bit scalar
 * has fewer buckets), the batch inversions and the bucket reduction; 2..17
 * (wider buckets than 2^16 per worker were not measured). */
unsigned msm_window_auto(size_t n, unsigned nworkers);

/* Bytes of scratch msm_g1 / msm_g2 need for n scalars, a pool of nworkers
 * workers (topo_pool_size(pool)) and the given window (0: the automatic
 * choice). About 36 n bytes plus, per worker, 2^(window-1) affine buckets
 * (3.3 MiB for G1 at window 16), a batch of up to 512 and the reduction's
 * segment sums (up to 2 x 512 affine points). Allocate once (gm_alloc,
 * 64-byte aligned) and reuse across calls of the same or smaller n. */
size_t msm_g1_scratch_size(size_t n, unsigned nworkers, unsigned window);
size_t msm_g2_scratch_size(size_t n, unsigned nworkers, unsigned window);

/* out = sum over i < n of scalars[i] * B(i), Pippenger with signed windows,
 * batch-affine buckets and a batch-affine bucket reduction (bench msm prints
 * the ratio to the floor of ceil(255/window) additions of 6 multiplications
 * per point), the tiles (one window over one range of points)
 * run on pool (NULL: the caller's thread; the result does not depend on the
 * pool or the window).
 *  - scalars: n reduced Fr values (Montgomery). Scalars 0 are skipped;
 *    scalars 1 are summed directly (no windows).
 *  - density: NULL, then B(i) = bases[i]. Otherwise a bitmap of n bits (bit i
 *    is bit i % 64 of density[i / 64]) with bellperson's DensityTracker
 *    semantics: scalar i takes part only when its bit is set, and bases holds
 *    only the points of the set bits, in order: B(i) = bases[number of set
 *    bits below i]. A clear bit consumes a scalar and no base.
 *  - bases: valid affine points (on the curve, in the subgroup); points at
 *    infinity are allowed and contribute nothing; equal points, P and -P are
 *    fine.
 *  - window: 0 (automatic) or 1..MSM_WINDOW_MAX (GM_ASSERT).
 *  - scratch: msm_gX_scratch_size(n, topo_pool_size(pool), window) bytes,
 *    64-byte aligned, not shared with a concurrent call; n < 2^32.
 * Neither allocates nor fails; n = 0 gives the identity. */
void msm_g1(g1_jac_t *out, const g1_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
            unsigned window, void *scratch, topo_pool_t *pool);
void msm_g2(g2_jac_t *out, const g2_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
            unsigned window, void *scratch, topo_pool_t *pool);

/* ---- sums of bases chosen by a bitmap (ec/msm_bits.c) ---------------------------------------- */

/* out = the sum of B(j) over the j < n whose bit is set in sel (bit j is bit
 * j % 64 of sel[j / 64]; bits at n and above are ignored), with B(j) as in
 * msm_g1: density NULL, bases[j]; otherwise bases[number of set bits of
 * density below j], and a j whose density bit is clear takes no part. It is
 * the MSM of scalars that are all 0 or 1, sel being the ones: no windows
 * and no buckets, the chosen bases added pairwise in affine coordinates with
 * one inversion per level of up to 128 pairs, in tasks on pool (NULL: the
 * calling thread). Bases as msm_g1's (the identity allowed).
 * Neither allocates nor fails; n = 0 or an empty sel gives the identity. */
void msm_g1_bits(g1_jac_t *out, const g1_affine_t *bases, const uint64_t *sel, const uint64_t *density, size_t n,
                 topo_pool_t *pool);
void msm_g2_bits(g2_jac_t *out, const g2_affine_t *bases, const uint64_t *sel, const uint64_t *density, size_t n,
                 topo_pool_t *pool);

/* ---- batch-affine additions ------------------------------------------------------
 *
 * For i < n: the affine point *acc[i] becomes *acc[i] + *pt[i], or
 * *acc[i] - *pt[i] where neg[i] != 0 (x and y written, nothing else), or the
 * identity (inf = true, x and y left as they were) where that sum is 0; with
 * one field inversion for the whole batch (about 6 multiplications per
 * addition, against 11 for a mixed Jacobian addition). n <= EC_ADD_BATCH_MAX;
 * neither point is at infinity; no acc[i] appears twice; pt[i] may equal
 * *acc[i] in value (a doubling). scratch holds g1/g2_add_batch_scratch_size(n)
 * bytes, 64-byte aligned. Both run on 8 lanes (g1_x8_add_batch,
 * g2_x8_add_batch) where fr_x8_enabled(); the result is the same either way. The MSM's buckets use
 * the same additions. */
#define EC_ADD_BATCH_MAX 1024
size_t g1_add_batch_scratch_size(size_t n);
size_t g2_add_batch_scratch_size(size_t n);
void g1_add_batch(size_t n, g1_affine_t *const *acc, const g1_affine_t *const *pt, const uint8_t *neg, void *scratch);
void g2_add_batch(size_t n, g2_affine_t *const *acc, const g2_affine_t *const *pt, const uint8_t *neg, void *scratch);

/* Pairwise sums, one level: buf[0 .. m) (affine, none at infinity, m <= 2
 * EC_ADD_BATCH_MAX) becomes the sums buf[2i] + buf[2i + 1] (equal points
 * doubled; a pair summing to the identity dropped), then buf[m - 1] when m
 * is odd, packed at the front of buf; returns their count (at most
 * ceil(m / 2)). One batch of additions, on 8 lanes where fr_x8_enabled().
 * scratch: g1/g2_add_pairs_scratch_size(m) bytes, any alignment. How the
 * 0/1 sums (msm_g1_bits) and the MSM's scalars equal to 1 are summed. */
size_t g1_add_pairs_scratch_size(size_t m);
size_t g2_add_pairs_scratch_size(size_t m);
size_t g1_add_pairs(g1_affine_t *buf, size_t m, void *scratch);
size_t g2_add_pairs(g2_affine_t *buf, size_t m, void *scratch);

/* ---- G1 and G2 batch-affine additions on 8 lanes (ec/g1_x8.c, ec/g2_x8.c, AVX-512 IFMA)
 *
 * For ec/msm.c's buckets (BN254's: bn_g1_x8_*, below). Call only while
 * fr_x8_enabled() is true (they fault on a CPU without AVX-512 IFMA). */

/* Bytes of scratch g1_x8_add_batch needs for n additions. */
size_t g1_x8_scratch_size(size_t n);

/* For a < n: the affine point at acc[a] becomes acc[a] + pt[a], or
 * acc[a] - pt[a] where neg[a] != 0 (the sum's x and y written, nothing
 * else), or the identity (inf = true, x and y left as they were) where that
 * sum is 0. Neither point is at infinity and no acc[a] appears twice;
 * every point is read before any is written, and pt[a] may equal *acc[a]
 * in value (a doubling). */
void g1_x8_add_batch(size_t n, g1_affine_t *const *acc, const g1_affine_t *const *pt, const uint8_t *neg,
                     void *scratch);

/* Lane k: mul[k] = a[k] b[k], sqr[k] = a[k]^2, sub[k] = a[k] - b[k] through
 * the lanes' arithmetic (for tests). */
void g1_x8_fp_ops(fp_t mul[8], fp_t sqr[8], fp_t sub[8], const fp_t a[8], const fp_t b[8]);
/* The lanes' product throughput, for bench msm's floor: two independent
 * 8-lane chains of reps products each, kept in the lanes' form throughout
 * (16 reps products, one conversion each way); x[b] becomes
 * x[b] y[b]^(2 reps + 1). */
void g1_x8_fp_mul_chain(fp_t x[8], const fp_t y[8], size_t reps);

/* G2 on 8 lanes (ec/g2_x8.c: Fp2 as two of G1's Fp lane values): the same
 * contracts over Fp2, for ec/msm.c's G2 buckets. The "fp" operations are
 * Fp2's here (bench msm's floor8 and the tests); all three want both halves
 * of a and b < p. */
size_t g2_x8_scratch_size(size_t n);
void g2_x8_add_batch(size_t n, g2_affine_t *const *acc, const g2_affine_t *const *pt, const uint8_t *neg,
                     void *scratch);
void g2_x8_fp_ops(fp2_t mul[8], fp2_t sqr[8], fp2_t sub[8], const fp2_t a[8], const fp2_t b[8]);
void g2_x8_fp_mul_chain(fp2_t x[8], const fp2_t y[8], size_t reps);

/* ---- BN254 (alt_bn128, snarkjs's bn128) ---------------------------------------------------- */
/*
 * G1: y^2 = x^3 + 3 over BN254's Fp, of prime order r (cofactor 1: every point
 * on the curve is in G1). G2: the D-type sextic twist y^2 = x^3 + 3/xi over
 * Fp2 (xi = 9 + u), whose order-r subgroup G2 is a small part of the curve
 * (decoders check membership). The point arithmetic is ec/ec_shape.h, as for
 * BLS12-381 (ec/bn_g1.c, ec/bn_g2.c): the same conventions and contracts as
 * the g1_* / g2_* functions above, with bn_ types and without the BLS
 * endomorphisms. Encodings are uncompressed only, in two forms:
 *  - eth: the Ethereum precompiles (EIP-196/197): big-endian canonical
 *    coordinates, G1 x||y (64 bytes), G2 x.c1||x.c0||y.c1||y.c0 (128 bytes);
 *  - snarkjs: how snarkjs stores points in .zkey and .ptau sections: each Fp
 *    coordinate in Montgomery form (a*2^256 mod p) as 32 bytes little-endian,
 *    G1 x||y, G2 x.c0||x.c1||y.c0||y.c1.
 * In both the identity is all zeros ((0, 0) is not on either curve).
 */
typedef struct { bn_fp_t x, y; bool inf; } bn_g1_affine_t;
typedef struct { bn_fp_t x, y, z; } bn_g1_jac_t;
typedef struct { bn_fp_t x, y, zz, zzz; } bn_g1_xyzz_t;
typedef struct { bn_fp2_t x, y; bool inf; } bn_g2_affine_t;
typedef struct { bn_fp2_t x, y, z; } bn_g2_jac_t;
typedef struct { bn_fp2_t x, y, zz, zzz; } bn_g2_xyzz_t;

#define BN254_G1_BYTES 64
#define BN254_G2_BYTES 128

/* The generators of EIP-196/197 and snarkjs: G1 (1, 2); G2 the standard one. */
extern const bn_g1_affine_t BN254_G1_GENERATOR;
extern const bn_g2_affine_t BN254_G2_GENERATOR;

void bn_g1_affine_set_inf(bn_g1_affine_t *out);
void bn_g1_jac_set_inf(bn_g1_jac_t *out);
bool bn_g1_jac_is_inf(const bn_g1_jac_t *p);
void bn_g1_from_affine(bn_g1_jac_t *out, const bn_g1_affine_t *p);
void bn_g1_to_affine(bn_g1_affine_t *out, const bn_g1_jac_t *p);
void bn_g1_batch_to_affine(bn_g1_affine_t *out, const bn_g1_jac_t *p, size_t n, bn_fp_t *scratch);
bool bn_g1_affine_eq(const bn_g1_affine_t *a, const bn_g1_affine_t *b);
bool bn_g1_jac_eq(const bn_g1_jac_t *a, const bn_g1_jac_t *b);
void bn_g1_neg(bn_g1_jac_t *out, const bn_g1_jac_t *p);
void bn_g1_affine_neg(bn_g1_affine_t *out, const bn_g1_affine_t *p);
void bn_g1_dbl(bn_g1_jac_t *out, const bn_g1_jac_t *p);                        /* 7M */
void bn_g1_add(bn_g1_jac_t *out, const bn_g1_jac_t *p, const bn_g1_jac_t *q);  /* 16M */
void bn_g1_add_mixed(bn_g1_jac_t *out, const bn_g1_jac_t *p, const bn_g1_affine_t *q); /* 11M */
/* out = k*p for any point on the curve and any 256-bit k (4 little-endian
 * limbs, used as is, not reduced): plain wNAF, width 5. */
void bn_g1_mul(bn_g1_jac_t *out, const bn_g1_jac_t *p, const uint64_t k[4]);
void bn_g1_mul_fr(bn_g1_jac_t *out, const bn_g1_jac_t *p, const bn_fr_t *k);
bool bn_g1_affine_on_curve(const bn_g1_affine_t *p);
bool bn_g1_jac_on_curve(const bn_g1_jac_t *p);
size_t bn_g1_first_off_curve(const bn_g1_affine_t *p, size_t n);
void bn_g1_xyzz_set_inf(bn_g1_xyzz_t *out);
void bn_g1_xyzz_add_affine(bn_g1_xyzz_t *out, const bn_g1_xyzz_t *p, const bn_g1_affine_t *q);
void bn_g1_xyzz_add(bn_g1_xyzz_t *out, const bn_g1_xyzz_t *p, const bn_g1_xyzz_t *q);
void bn_g1_xyzz_dbl(bn_g1_xyzz_t *out, const bn_g1_xyzz_t *p);
void bn_g1_xyzz_to_jac(bn_g1_jac_t *out, const bn_g1_xyzz_t *p);
/* Decoders validate everything (G1: on the curve is in the group) and return
 *  GM_ENONCANON   a coordinate >= p (snarkjs: its Montgomery value >= p);
 *  GM_ENOTONCURVE y^2 != x^3 + 3 (an all-zero encoding is the identity);
 * out untouched on failure. */
void bn_g1_to_bytes_eth(uint8_t out[BN254_G1_BYTES], const bn_g1_affine_t *p);
int bn_g1_from_bytes_eth(bn_g1_affine_t *out, const uint8_t in[BN254_G1_BYTES])
    __attribute__((warn_unused_result));
void bn_g1_to_bytes_snarkjs(uint8_t out[BN254_G1_BYTES], const bn_g1_affine_t *p);
int bn_g1_from_bytes_snarkjs(bn_g1_affine_t *out, const uint8_t in[BN254_G1_BYTES])
    __attribute__((warn_unused_result));
/* The coordinates only (GM_ENONCANON, or (0, 0) the identity), not checked
 * against the curve: for a reader that checks many points at once
 * (bn_g1_first_off_curve). */
int bn_g1_from_bytes_snarkjs_raw(bn_g1_affine_t *out, const uint8_t in[BN254_G1_BYTES])
    __attribute__((warn_unused_result));

void bn_g2_affine_set_inf(bn_g2_affine_t *out);
void bn_g2_jac_set_inf(bn_g2_jac_t *out);
bool bn_g2_jac_is_inf(const bn_g2_jac_t *p);
void bn_g2_from_affine(bn_g2_jac_t *out, const bn_g2_affine_t *p);
void bn_g2_to_affine(bn_g2_affine_t *out, const bn_g2_jac_t *p);
void bn_g2_batch_to_affine(bn_g2_affine_t *out, const bn_g2_jac_t *p, size_t n, bn_fp2_t *scratch);
bool bn_g2_affine_eq(const bn_g2_affine_t *a, const bn_g2_affine_t *b);
bool bn_g2_jac_eq(const bn_g2_jac_t *a, const bn_g2_jac_t *b);
void bn_g2_neg(bn_g2_jac_t *out, const bn_g2_jac_t *p);
void bn_g2_affine_neg(bn_g2_affine_t *out, const bn_g2_affine_t *p);
void bn_g2_dbl(bn_g2_jac_t *out, const bn_g2_jac_t *p);
void bn_g2_add(bn_g2_jac_t *out, const bn_g2_jac_t *p, const bn_g2_jac_t *q);
void bn_g2_add_mixed(bn_g2_jac_t *out, const bn_g2_jac_t *p, const bn_g2_affine_t *q);
/* As bn_g1_mul: any point of the twist, any 256-bit k as is. */
void bn_g2_mul(bn_g2_jac_t *out, const bn_g2_jac_t *p, const uint64_t k[4]);
void bn_g2_mul_fr(bn_g2_jac_t *out, const bn_g2_jac_t *p, const bn_fr_t *k);
bool bn_g2_affine_on_curve(const bn_g2_affine_t *p);
bool bn_g2_jac_on_curve(const bn_g2_jac_t *p);
size_t bn_g2_first_off_curve(const bn_g2_affine_t *p, size_t n);
/* True when p (on the twist) is in G2, i.e. r*p = 0 (a plain multiplication
 * by r, about the cost of bn_g2_mul). The identity is in it. */
bool bn_g2_affine_in_subgroup(const bn_g2_affine_t *p);
void bn_g2_xyzz_set_inf(bn_g2_xyzz_t *out);
void bn_g2_xyzz_add_affine(bn_g2_xyzz_t *out, const bn_g2_xyzz_t *p, const bn_g2_affine_t *q);
void bn_g2_xyzz_add(bn_g2_xyzz_t *out, const bn_g2_xyzz_t *p, const bn_g2_xyzz_t *q);
void bn_g2_xyzz_dbl(bn_g2_xyzz_t *out, const bn_g2_xyzz_t *p);
void bn_g2_xyzz_to_jac(bn_g2_jac_t *out, const bn_g2_xyzz_t *p);
/* As the G1 decoders, plus GM_ESUBGROUP: on the twist but not in G2 (not
 * checked by the _unchecked variant, for a trusted source). */
void bn_g2_to_bytes_eth(uint8_t out[BN254_G2_BYTES], const bn_g2_affine_t *p);
int bn_g2_from_bytes_eth(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
    __attribute__((warn_unused_result));
void bn_g2_to_bytes_snarkjs(uint8_t out[BN254_G2_BYTES], const bn_g2_affine_t *p);
int bn_g2_from_bytes_snarkjs(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
    __attribute__((warn_unused_result));
int bn_g2_from_bytes_snarkjs_unchecked(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
    __attribute__((warn_unused_result));
int bn_g2_from_bytes_snarkjs_raw(bn_g2_affine_t *out, const uint8_t in[BN254_G2_BYTES])
    __attribute__((warn_unused_result)); /* as bn_g1_from_bytes_snarkjs_raw */

/* The optimal ate pairing of BN254 (ec/bn_pairing.c), e: G1 x G2 -> GT, with
 * the loop parameter 6x + 2 (x = 4965661367192848881) in NAF and the two
 * Frobenius lines. p and q must be in G1 and G2 (decoded with the checks);
 * the identity in either gives 1. Miller loop outputs are meaningful only
 * after bn_pairing_final_exp. */
void bn_pairing_miller_loop(bn_fp12_t *out, const bn_g1_affine_t *p, const bn_g2_affine_t *q);
/* The product of the Miller loops of the n pairs (n = 0 gives 1). */
void bn_pairing_miller_loop_n(bn_fp12_t *out, const bn_g1_affine_t *p, const bn_g2_affine_t *q, size_t n);
/* out = f^(M (p^12 - 1) / r) with M = 2x(6x^2 + 3x + 1), coprime to r: the
 * value of @noble/curves (its hard part is the Fuentes-Castaneda et al.
 * chain, which carries M), so that e(P, Q) below matches it byte for byte.
 * Any fixed M coprime to r gives a bilinear, non-degenerate pairing; product
 * checks (== 1) do not depend on it. */
void bn_pairing_final_exp(bn_fp12_t *out, const bn_fp12_t *f);
void bn_pairing(bn_fp12_t *out, const bn_g1_affine_t *p, const bn_g2_affine_t *q);
/* True when prod_i e(p[i], q[i]) == 1 (one final exponentiation; n = 0 is true). */
bool bn_pairing_product_is_one(const bn_g1_affine_t *p, const bn_g2_affine_t *q, size_t n);

/* BN254's MSM (ec/bn_msm.c, the shape of ec/msm.c) and 0/1 sums
 * (ec/msm_bits.c): the contracts of msm_window_auto, msm_g1/g2(_scratch_size),
 * msm_g1/g2_bits, g1/g2_add_batch(_scratch_size) and g1/g2_add_pairs(_scratch_size)
 * above, with bn_ types and
 * scalars bn_fr_t in Montgomery form. G1's and G2's buckets and the 0/1
 * sums' levels run on 8 lanes (bn_g1_x8_add_batch, bn_g2_x8_add_batch)
 * where fr_x8_enabled(); bn_gX_add_batch stays on the scalar path (it is
 * the lanes' reference in tests). r has 254 bits, so
 * the windows cover 255 (one fewer than BLS12-381's at some widths: 15 windows
 * of 17 bits, not 16) and the top window's reach differs: bn_msm_window_auto
 * runs the same cost model over BN254's r. Pass window 0 to the scratch
 * size and to the MSM alike to get its choice. */
unsigned bn_msm_window_auto(size_t n, unsigned nworkers);
size_t bn_msm_g1_scratch_size(size_t n, unsigned nworkers, unsigned window);
size_t bn_msm_g2_scratch_size(size_t n, unsigned nworkers, unsigned window);
void bn_msm_g1(bn_g1_jac_t *out, const bn_g1_affine_t *bases, const bn_fr_t *scalars, const uint64_t *density,
               size_t n, unsigned window, void *scratch, topo_pool_t *pool);
void bn_msm_g2(bn_g2_jac_t *out, const bn_g2_affine_t *bases, const bn_fr_t *scalars, const uint64_t *density,
               size_t n, unsigned window, void *scratch, topo_pool_t *pool);
void bn_msm_g1_bits(bn_g1_jac_t *out, const bn_g1_affine_t *bases, const uint64_t *sel, const uint64_t *density,
                    size_t n, topo_pool_t *pool);
void bn_msm_g2_bits(bn_g2_jac_t *out, const bn_g2_affine_t *bases, const uint64_t *sel, const uint64_t *density,
                    size_t n, topo_pool_t *pool);
size_t bn_g1_add_batch_scratch_size(size_t n);
size_t bn_g2_add_batch_scratch_size(size_t n);
void bn_g1_add_batch(size_t n, bn_g1_affine_t *const *acc, const bn_g1_affine_t *const *pt, const uint8_t *neg,
                     void *scratch);
void bn_g2_add_batch(size_t n, bn_g2_affine_t *const *acc, const bn_g2_affine_t *const *pt, const uint8_t *neg,
                     void *scratch);
size_t bn_g1_add_pairs_scratch_size(size_t m);
size_t bn_g2_add_pairs_scratch_size(size_t m);
size_t bn_g1_add_pairs(bn_g1_affine_t *buf, size_t m, void *scratch);
size_t bn_g2_add_pairs(bn_g2_affine_t *buf, size_t m, void *scratch);

/* BN254's G1 on 8 lanes (ec/bn_g1_x8.c: Fp in 5 limbs of 52 bits): the
 * contracts of g1_x8_scratch_size, g1_x8_add_batch, g1_x8_fp_ops and
 * g1_x8_fp_mul_chain above, with bn_ types; fr_x8_enabled() only. The
 * product and square of bn_g1_x8_fp_ops also take limbs in [p, 2p) (the
 * lanes' products take factors < 2p); its difference wants both < p. */
size_t bn_g1_x8_scratch_size(size_t n);
void bn_g1_x8_add_batch(size_t n, bn_g1_affine_t *const *acc, const bn_g1_affine_t *const *pt, const uint8_t *neg,
                        void *scratch);
void bn_g1_x8_fp_ops(bn_fp_t mul[8], bn_fp_t sqr[8], bn_fp_t sub[8], const bn_fp_t a[8], const bn_fp_t b[8]);
void bn_g1_x8_fp_mul_chain(bn_fp_t x[8], const bn_fp_t y[8], size_t reps);

/* BN254's G2 on 8 lanes (ec/bn_g2_x8.c: Fp2 as two of those Fp values):
 * the same contracts over Fp2, for ec/bn_msm.c's G2 buckets. The
 * "fp" operations are Fp2's here (bench msm's floor8 and the tests); all
 * three want both halves of a and b < p. */
size_t bn_g2_x8_scratch_size(size_t n);
void bn_g2_x8_add_batch(size_t n, bn_g2_affine_t *const *acc, const bn_g2_affine_t *const *pt, const uint8_t *neg,
                        void *scratch);
void bn_g2_x8_fp_ops(bn_fp2_t mul[8], bn_fp2_t sqr[8], bn_fp2_t sub[8], const bn_fp2_t a[8], const bn_fp2_t b[8]);
void bn_g2_x8_fp_mul_chain(bn_fp2_t x[8], const bn_fp2_t y[8], size_t reps);

#endif /* GM_EC_H */
