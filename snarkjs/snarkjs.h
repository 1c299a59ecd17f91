/*
 * snarkjs/snarkjs.h — circom and snarkjs interoperability:
 * circom's `.r1cs` and `.wtns`, snarkjs's Groth16 `.zkey`, and snarkjs's
 * `proof.json`, `public.json` and `verification_key.json`, on BLS12-381
 * (the snarkjs_* names, BLS12-381 types) and BN254, snarkjs's "bn128" and
 * circom's default (the snarkjs_bn_* names at the end, bn_ types). A file's
 * curve is read from its prime (snarkjs_curve_of_file); each reader refuses
 * the other curve's files, naming both. Layouts: docs/snarkjs.md. Files of
 * another protocol (plonk, fflonk) or a newer container version are rejected
 * with GM_ENOTSUP; truncated or inconsistent files with GM_EFORMAT, the
 * message naming file, section and value: "c.zkey: section 9 (PointsH): 1234
 * bytes, expected domainSize * 96 = 393216". Nothing is trusted before it is
 * range-checked, so no input can make these readers read out of bounds.
 * Field values in the structures below are ordinary reduced fr_t / bn_fr_t
 * (the files' standard or Montgomery encodings are converted on reading).
 */
#ifndef GM_SNARKJS_H
#define GM_SNARKJS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#include "topo/topo.h"


/* A circom R1CS: constraint i is <A_i, w> * <B_i, w> - <C_i, w> = 0, each
 * linear combination a run of terms (wire, coefficient). */
typedef struct {
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    /* Term ranges: combination m (0 = A, 1 = B, 2 = C) of constraint i holds
     * terms lc_start[3 i + m] .. lc_start[3 i + m + 1] - 1. */
    uint64_t *lc_start;  /* 3 n_constraints + 1 entries */
    uint32_t *wire;      /* n_terms, each < n_wires */
    fr_t *coef;          /* n_terms */
    uint64_t n_terms;
} snarkjs_r1cs_t;

/* Decodes an .r1cs from buf[0 .. n) (`what` names it in messages). Checks:
 * container "r1cs" version 1; header (section 1) n8 = 32, prime = BLS12-381's
 * r (GM_ENOTSUP naming the file's curve otherwise), nPubOut + nPubIn + nPrvIn <
 * nWires; section 2 holds exactly nConstraints constraints, every wire <
 * nWires and coefficient < r; section 3 (labels), when present, nWires u64.
 * Custom gates (sections 4, 5) are GM_ENOTSUP. Returns 0, GM_EFORMAT,
 * GM_ENOTSUP, GM_ENOMEM; *out NULL on failure. */
int snarkjs_r1cs_from_bytes(snarkjs_r1cs_t **out, const uint8_t *buf, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));
/* Reads and decodes the file at path (as from_bytes; GM_EIO when unreadable). */
int snarkjs_r1cs_load(snarkjs_r1cs_t **out, const char *path, err_t *err) __attribute__((warn_unused_result));
void snarkjs_r1cs_free(snarkjs_r1cs_t *r);   /* NULL allowed */

/* Checks a full witness w[0 .. n) (w[0] = 1) against every constraint.
 * Returns 0, GM_EINVAL (n != n_wires, or w[0] != 1) or GM_EVERIFY naming the
 * first constraint that does not hold ("what: constraint 17 is not
 * satisfied"). */
int snarkjs_r1cs_check(const snarkjs_r1cs_t *r, const fr_t *w, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));

/* A witness (.wtns): w[0 .. n), w[0] = 1, w[1 .. nPublic] the public signals. */
typedef struct {
    fr_t *w;
    size_t n;
} snarkjs_wtns_t;

/* Decodes a .wtns: container "wtns" version <= 2, section 1 n8 = 32, prime
 * = r (GM_ENOTSUP naming the curve otherwise), nWitness >= 1, section 2
 * exactly nWitness x 32 bytes, each value < r (standard form, little-endian),
 * w[0] = 1 (the constant wire). Returns 0,
 * GM_EFORMAT, GM_ENOTSUP, GM_ENOMEM; *out zeroed on failure. */
int snarkjs_wtns_from_bytes(snarkjs_wtns_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_wtns_load(snarkjs_wtns_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));
void snarkjs_wtns_free(snarkjs_wtns_t *w);   /* NULL allowed; zeroes *w */

/* A .wtns mapped, for reading ranges of values (a split proof's ranks read
 * only the values they need; snarkjs/wtns_shape.h; BN254's through
 * snarkjs_bn_wtns_open and _values). Nothing but the section
 * table, section 1 and value 0 is read by snarkjs_wtns_open. */
typedef struct {
    gm_map_t map;
    const uint8_t *vals; /* section 2 in the mapping */
    uint64_t n;          /* nWitness */
    const char *path;    /* names the file in messages (the caller's string, which must outlive the view) */
} snarkjs_wtns_view_t;

/* Maps the file at path and checks it as snarkjs_wtns_from_bytes does, but
 * of the values only value 0 (= 1). Returns 0, GM_EIO, GM_EFORMAT,
 * GM_ENOTSUP; *v zeroed on failure. */
int snarkjs_wtns_open(snarkjs_wtns_view_t *v, const char *path, err_t *err) __attribute__((warn_unused_result));
/* out[0 .. hi - lo) = values [lo, hi) (lo <= hi <= n, GM_ASSERT), each
 * checked < r. Returns 0 or GM_EFORMAT naming the value. */
int snarkjs_wtns_values(const snarkjs_wtns_view_t *v, fr_t *out, uint64_t lo, uint64_t hi, err_t *err)
    __attribute__((warn_unused_result));
void snarkjs_wtns_close(snarkjs_wtns_view_t *v); /* NULL and a zeroed view allowed; zeroes *v */

/* One section-4 entry of a zkey: value times w[signal] is added to row
 * `constraint` of matrix A (matrix 0) or B (matrix 1). */
typedef struct {
    uint32_t matrix, constraint, signal;
    fr_t value;   /* the coefficient itself (the file's coef 2^512 mod r, converted) */
} snarkjs_coef_t;

/* The point sections of a zkey, in file order. */
typedef enum {
    SNARKJS_SEC_A = 0, /* section 5, nVars points */
    SNARKJS_SEC_B1,    /* section 6, nVars */
    SNARKJS_SEC_B2,    /* section 7, nVars (G2) */
    SNARKJS_SEC_C,     /* section 8, nVars - nPublic - 1 */
    SNARKJS_SEC_H,     /* section 9, domainSize */
    SNARKJS_NSEC
} snarkjs_section_t;

/* A zkey read with SNARKJS_ZKEY_STREAM (below): section 4's entries and the
 * points of sections 5-9 left in the file's bytes, each decoded and checked
 * by the proof that needs it, just before its use, and freed after; what a
 * zkey_load mapped is dropped from memory once decoded (gm_file_drop). */
typedef struct {
    char *what;                           /* the file's name in messages (owned); NULL: not streamed */
    const uint8_t *coefs;                 /* section 4 after nCoef: nCoef 44-byte entries */
    const uint8_t *pts[SNARKJS_NSEC];     /* sections 5-9 */
    gm_map_t map;                         /* zkey_load's mapping (zeroed for zkey_from_bytes) */
    bool subgroup;                        /* SNARKJS_ZKEY_SUBGROUP */
} snarkjs_zkey_stream_t;

/* A Groth16 proving key (.zkey). The vk holds alpha_g1, beta_g1, beta_g2,
 * gamma_g2, delta_g1, delta_g2 and ic (nPublic + 1 points). Streamed
 * (stream.what not NULL): coefs and the points are NULL. */
typedef struct {
    uint32_t n_vars, n_public, domain_size, log_domain;
    groth16_vk_t vk;
    snarkjs_coef_t *coefs;
    uint64_t n_coefs;
    g1_affine_t *a, *b1;   /* n_vars each */
    g2_affine_t *b2;       /* n_vars */
    g1_affine_t *c;        /* n_vars - n_public - 1 */
    g1_affine_t *h;        /* domain_size */
    snarkjs_zkey_stream_t stream;
} snarkjs_zkey_t;

typedef enum {
    /* Every point: canonical coordinates, on the curve (infinity allowed, as
     * snarkjs writes it for unused wires); the vk points also in the subgroup. */
    SNARKJS_ZKEY_DEFAULT = 0,
    /* Also check every point of sections 5-9 for the subgroup (about 50 us
     * per G1 point on one core: seconds for large keys). */
    SNARKJS_ZKEY_SUBGROUP = 1 << 0,
    /* snarkjs_zkey_load_slice only (a split over MPI ranks,
     * mpi/split_snarkjs_shape.h): section 4 read in the part's share by
     * entry index, not in the entries of the part's rows (below). */
    SNARKJS_ZKEY_COEF_SHARE = 1 << 1,
    /* snarkjs_zkey_load and _from_bytes: read the header, vk and section
     * sizes now (all checked as without the flag), leave the entries of
     * section 4 and the points in the file (snarkjs_zkey_stream_t): a
     * one-proof prover's memory then holds one section at a time. Their
     * checks, and their errors, come with the proof (snarkjs_prove); with
     * _from_bytes buf must outlive the key. */
    SNARKJS_ZKEY_STREAM = 1 << 2,
} snarkjs_zkey_flags_t;

/* Decodes a zkey from buf[0 .. n): container "zkey" version <= 2 (section
 * ids looked up, any order), section 1 protocol = 1 (Groth16; plonk and
 * fflonk are GM_ENOTSUP), section 2 the 964-byte header with n8q = 48, q and
 * n8r = 32, r of BLS12-381 (other curves GM_ENOTSUP, named), nPublic < nVars,
 * domainSize a power of two in 2 .. 2^28 (larger: GM_ENOTSUP); sections 3-9
 * of exactly the sizes the header implies; coefficient entries with matrix
 * 0 or 1, constraint < domainSize, signal < nVars, value < r. Points are
 * decoded on pool as `flags` says. The first bad point in file order is
 * reported ("c.zkey: section 5 (PointsA): point 3: not on the curve").
 * Returns 0, GM_EFORMAT, GM_ENOTSUP, GM_ENONCANON, GM_ENOTONCURVE,
 * GM_ESUBGROUP, GM_ENOMEM; *out NULL on failure. */
int snarkjs_zkey_from_bytes(snarkjs_zkey_t **out, const uint8_t *buf, size_t n, const char *what,
                            snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
/* Maps the file at path and decodes it (GM_EIO when it cannot be read); with
 * SNARKJS_ZKEY_STREAM the key keeps the mapping (unmapped by snarkjs_zkey_free). */
int snarkjs_zkey_load(snarkjs_zkey_t **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                      err_t *err) __attribute__((warn_unused_result));
void snarkjs_zkey_free(snarkjs_zkey_t *zk);   /* NULL allowed */

/* ---- one rank's share of a zkey (snarkjs/zkey_slice_shape.h) ---------------------
 * For a proof split over R ranks (mpi/split.c, `grothmpi snarkjs prove
 * --split`): part `part` of `parts` of each point section, lo = n·part/R,
 * hi = n·(part+1)/R (groth16_slice_range of the section's count), and the
 * section-4 entries of the part's rows. A row is counted in our NTT's order
 * (snarkjs/prove.c): constraint c is row SNARKJS_ROOT_EXP·c mod
 * domainSize; the part's rows are the split NTT's natural slice
 * [(n−1)·part/R, (n−1)·(part+1)/R), the last part's up to n = domainSize
 * (mpi/mpi.h). */

typedef struct {
    uint32_t n_vars, n_public, domain_size, log_domain;
    groth16_vk_t vk;            /* whole */
    uint64_t n_coefs_file;      /* nCoef of the whole section 4 */
    uint64_t row_lo, row_hi;    /* the part's rows (NTT order) */
    snarkjs_coef_t *coefs;      /* the entries of those rows, in file order (SNARKJS_ZKEY_COEF_SHARE: the share) */
    uint64_t n_coefs;
    uint64_t *to_part;          /* SNARKJS_ZKEY_COEF_SHARE: parts counts (gm_alloc'd), else NULL */
    uint64_t lo[SNARKJS_NSEC], hi[SNARKJS_NSEC];
    /* hi - lo points each (gm_alloc'd): a[i] is point lo[SNARKJS_SEC_A] + i of section 5 */
    g1_affine_t *a, *b1;
    g2_affine_t *b2;
    g1_affine_t *c, *h;
} snarkjs_zkey_slice_t;

/* Maps the zkey at path (nothing is read until touched) and reads part
 * `part` of `parts` (part < parts, GM_ASSERT): the section table, sections
 * 1-3 whole and checked as snarkjs_zkey_from_bytes checks them (so a
 * truncated or inconsistent file fails every part with the same message),
 * section 4 streamed, its entries of the part's rows decoded and checked
 * (each entry belongs to one part's rows, so the parts together check them
 * all; a bad one is named by its index: "c.zkey: section 4 (Coefs): entry
 * 12: matrix 7, ..."), and the part's points of sections 5-9 decoded on
 * pool as flags says,
 * a bad one named by its index in the whole section ("c.zkey: section 9
 * (PointsH): point 700: not on the curve"); other points are not touched.
 * The mapping is gone on return. Returns 0 or snarkjs_zkey_from_bytes's
 * codes (GM_EIO when the file cannot be mapped); *out zeroed on failure
 * (snarkjs_zkey_slice_free accepts it).
 * With SNARKJS_ZKEY_COEF_SHARE no part reads the whole of section 4: the
 * part reads, decodes and checks only its share of the entries by index,
 * [nCoef·part/R, nCoef·(part+1)/R) (groth16_slice_range), so the parts
 * together check them all; coefs holds them grouped by the part whose rows
 * hold them, in part order and file order within each group, to_part[q]
 * (q < parts) the size of part q's group. Exchanged (mpi/split.c), the
 * groups give each part the entries of its rows without flag (in another
 * order, which no sum over them depends on). */
int snarkjs_zkey_load_slice(snarkjs_zkey_slice_t *out, const char *path, unsigned part, unsigned parts,
                            snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
void snarkjs_zkey_slice_free(snarkjs_zkey_slice_t *zs); /* NULL allowed; zeroes *zs */
/* Bytes the slice holds: its points, the vk's ic and its coefficients. */
size_t snarkjs_zkey_slice_memory(const snarkjs_zkey_slice_t *zs);

/* A prover for one zkey (which must outlive it): the NTT domain and every
 * scratch buffer sized once. Returns 0 or GM_ENOMEM. pool: as groth16_prover_create. */
typedef struct snarkjs_prover snarkjs_prover_t;
int snarkjs_prover_create(snarkjs_prover_t **out, const snarkjs_zkey_t *zk, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
void snarkjs_prover_destroy(snarkjs_prover_t *pv);   /* NULL allowed */

/* Proves the witness w[0 .. n) as `snarkjs groth16 prove` does
 * (src/groth16_prove.js): the A and B rows from the zkey's coefficients, C =
 * A.B rowwise, h on the odd coset of the size-2n domain (ffjavascript's roots
 * of unity, generator 5) without division by Z, the MSMs over sections 5-9.
 * rs: NULL draws r and s from getrandom; otherwise rs[0] = r, rs[1] = s
 * (tests). Unless GROTH16_PROVE_NO_VERIFY, the proof is checked against the
 * zkey's vk and w[1 .. n_public] before it is returned. times (may be NULL)
 * receives the stages (abc, ntt, the MSMs: msm_l holds section 8 (C)).
 * Returns 0, GM_EINVAL (n != n_vars or w[0] != 1; err says both), GM_EVERIFY
 * (the proof does not verify: the witness does not satisfy the circuit, or
 * the zkey is inconsistent), GM_ESYS (getrandom); a streamed key's sections
 * are decoded here (SNARKJS_ZKEY_STREAM), so also the load's codes and
 * messages for a bad entry or point. out undefined on failure. */
int snarkjs_prove(snarkjs_prover_t *pv, groth16_proof_t *out, const fr_t *w, size_t n, const fr_t *rs,
                  groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
    __attribute__((warn_unused_result));

/* Attaches a backend (groth16.h's backends), as groth16_prover_set_backend:
 * the zkey's G1 bases (A, B1, C, H) uploaded once and kept; each proof's
 * NTTs and G1 MSMs through it, the G2 MSM on the CPU pool meanwhile; a
 * failed device call or a device proof that does not verify is proved again
 * on the CPU (counted). be NULL: the CPU. be must outlive pv, or be detached
 * first. A streamed key (SNARKJS_ZKEY_STREAM) holds no points to upload:
 * its prover stays on the CPU. */
void snarkjs_prover_set_backend(snarkjs_prover_t *pv, groth16_backend_t *be);

/* The zkey's verifying key prepared (for snarkjs_prove's check and tests). */
const groth16_pvk_t *snarkjs_prover_pvk(const snarkjs_prover_t *pv);

/* Writes proof.json exactly as `snarkjs groth16 prove` does (bfj, one-space
 * indent, no trailing newline): pi_a [x, y, "1"], pi_b [[x.c0, x.c1], [y.c0,
 * y.c1], ["1", "0"]], pi_c, "protocol": "groth16", "curve": "bls12381";
 * decimal strings of the affine coordinates (a point at infinity as
 * ["0", "1", "0"], as ffjavascript's toObject writes it). Atomic. Returns 0,
 * GM_EIO or GM_ENOMEM. */
int snarkjs_proof_write_json(const char *path, const groth16_proof_t *proof, err_t *err)
    __attribute__((warn_unused_result));
/* Writes public.json: ["v1", ..., "vn"] in the same layout. Atomic. */
int snarkjs_public_write_json(const char *path, const fr_t *pub, size_t n, err_t *err)
    __attribute__((warn_unused_result));
/* The same texts in a gm_alloc'd NUL-terminated buffer (*out). Returns 0 or GM_ENOMEM. */
int snarkjs_proof_to_json(char **out, const groth16_proof_t *proof, err_t *err) __attribute__((warn_unused_result));
int snarkjs_public_to_json(char **out, const fr_t *pub, size_t n, err_t *err) __attribute__((warn_unused_result));

/* Reads proof.json as snarkjs does: decimal or "0x" hex strings (or JSON
 * integers), a third coordinate of 1 (affine), 0 (infinity) or another value
 * (Jacobian Z). Unlike snarkjs, the points must also be in the subgroup.
 * "protocol", when present, must be "groth16" and "curve" "bls12381"
 * (GM_ENOTSUP otherwise). Returns 0, GM_EIO, GM_EFORMAT (not JSON, a missing
 * key, a bad number; err names the key), GM_ENONCANON, GM_ENOTONCURVE,
 * GM_ESUBGROUP, GM_ENOTSUP. */
int snarkjs_proof_read_json(groth16_proof_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));
/* Reads public.json: an array of numbers < r. *out gm_alloc'd (n may be 0).
 * Returns 0, GM_EIO, GM_EFORMAT, GM_ENONCANON (a value >= r), GM_ENOMEM. */
int snarkjs_public_read_json(fr_t **out, size_t *n, const char *path, err_t *err)
    __attribute__((warn_unused_result));
/* Reads verification_key.json (protocol groth16, curve bls12381; vk_alpha_1,
 * vk_beta_2, vk_gamma_2, vk_delta_2, IC with nPublic + 1 points, all checked
 * for curve and subgroup; vk_alphabeta_12 is not read). beta_g1 and
 * delta_g1, which the file lacks, are set to infinity. Returns as
 * snarkjs_proof_read_json, plus GM_ENOMEM. *out zeroed on failure. */
int snarkjs_vk_read_json(groth16_vk_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));

/* Verifies like `snarkjs groth16 verify`: e(A, B) = e(alpha, beta)
 * e(IC_0 + sum pub_i IC_i, gamma) e(C, delta). Returns 0, GM_EVERIFY, or
 * GM_EINVAL (the number of public values differs from the key's nPublic). */
int snarkjs_verify(const groth16_vk_t *vk, const groth16_proof_t *proof, const fr_t *pub, size_t n, err_t *err)
    __attribute__((warn_unused_result));

/* snarkjs's primitive 2^k-th root of unity (ffjavascript Fr.w[k]: from the
 * non-residue 5, not 7 as fr_root_of_unity), and the exponent J with
 * w5_k = w7_k^(J mod 2^k) for every k <= 32 (both are 2^32-th roots). */
#define SNARKJS_ROOT_EXP 0xe25f4955u
void snarkjs_root_of_unity(fr_t *out, unsigned k);

/* Writes a prepared powers-of-tau file for snarkjs (what `snarkjs powersoftau
 * new` + `contribute` + `prepare phase2` leave: sections 1-7 and 12-15, no
 * contributions) for 2^power constraints, from the toxic waste of seed
 * (groth16_toxic_from_seed's tau, alpha, beta). INSECURE: a development
 * ceremony; whoever has the seed can forge proofs. snarkjs `groth16 setup`
 * accepts it; `prepare phase2` takes hours on BLS12-381 at 2^16, this takes
 * seconds (fixed-base multiplications on pool). Atomic. Returns 0, GM_EINVAL
 * (power not in 1..24, or tau a root of unity), GM_ENOMEM, GM_EIO. */
int snarkjs_ptau_write(const char *path, unsigned power, const uint8_t seed[GROTH16_SEED_BYTES], topo_pool_t *pool,
                       err_t *err) __attribute__((warn_unused_result));

/* ---- the curve of a file -------------------------------------------------------------------------
 * How a caller proves any circom key: snarkjs_curve_of_file on the zkey,
 * then the snarkjs_* functions above for SNARKJS_BLS12381 or the
 * snarkjs_bn_* ones below for SNARKJS_BN128 (the same steps: load the zkey
 * and the .wtns, create a prover, prove, write public.json and proof.json). */
typedef enum {
    SNARKJS_BLS12381 = 0, /* circom --prime bls12381 */
    SNARKJS_BN128 = 1,    /* circom's default, snarkjs's "bn128" (BN254, alt_bn128) */
} snarkjs_curve_t;

/* The curve of a .zkey (section 2's q), .wtns or .r1cs (section 1's prime)
 * or .ptau (section 1's q) in buf[0 .. n), told apart by the magic. A prime
 * of neither curve is GM_ENOTSUP with one line naming the file, the section
 * and the field ("c.zkey: section 2 (header): q (48 bytes) is neither
 * bn128's nor bls12381's"); a file too short to hold it GM_EFORMAT. */
int snarkjs_curve_of_bytes(snarkjs_curve_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));
/* The same for the file at path (mapped; only the header pages are read); GM_EIO when unreadable. */
int snarkjs_curve_of_file(snarkjs_curve_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));
/* The curve a snarkjs JSON file (verification_key.json, proof.json) names
 * in "curve": "bn128" or "bls12381"; absent: bls12381 (then the reader
 * decides). Returns 0, GM_EIO, GM_EFORMAT (not a JSON object), GM_ENOTSUP
 * (another curve, named). */
int snarkjs_json_curve_of_file(snarkjs_curve_t *out, const char *path, err_t *err)
    __attribute__((warn_unused_result));
/* "bls12381" or "bn128", as snarkjs writes it in JSON. */
const char *snarkjs_curve_name(snarkjs_curve_t c);

/* ---- BN254 (snarkjs's bn128) ---------------------------------------------------------------------
 * The same readers, prover, JSON files and verifier as above, written once
 * (the snarkjs/ templates *_shape.h), with bn_ field and point types: every function
 * below has the contract of its snarkjs_* namesake, with BN254's r and q
 * (32-byte coordinates: zkey G1 points 64 bytes, G2 128, the header 660
 * bytes), "curve": "bn128" in JSON, and a zkey domain of at most 2^27
 * (BN254's Fr has two-adicity 28 and the odd coset needs the 2n-th root).
 * snarkjs's roots of unity on bn128 are ours (bn_fr_root_of_unity: both
 * from the non-residue 5), so the prover needs no index permutation:
 * constraint c is row SNARKJS_BN_ROOT_EXP c = c of a split proof's slices.
 * Not (yet) for BN254: device backends. */
#define SNARKJS_BN_ROOT_EXP 1u
typedef struct {
    bn_g1_affine_t alpha_g1, beta_g1;
    bn_g2_affine_t beta_g2, gamma_g2;
    bn_g1_affine_t delta_g1;
    bn_g2_affine_t delta_g2;
    bn_g1_affine_t *ic;
    size_t n_ic;
} snarkjs_bn_vk_t;
/* Frees vk->ic and zeroes *vk; NULL allowed. */
void snarkjs_bn_vk_free(snarkjs_bn_vk_t *vk);

typedef struct {
    bn_g1_affine_t a;
    bn_g2_affine_t b;
    bn_g1_affine_t c;
} snarkjs_bn_proof_t;

/* A bn128 proof as bytes: A, B, C in the Ethereum precompiles' encoding
 * (bn_g1_to_bytes_eth, bn_g2_to_bytes_eth: big-endian, uncompressed), the
 * calldata a Solidity verifier takes; campaigns' and the service's .proof
 * files of bn128 units. from_bytes checks every point (on the curve, B in
 * G2) and names what (GM_ENOTONCURVE, GM_ESUBGROUP, GM_ENONCANON). */
#define SNARKJS_BN_PROOF_BYTES (2 * BN254_G1_BYTES + BN254_G2_BYTES)
void snarkjs_bn_proof_to_bytes(uint8_t out[SNARKJS_BN_PROOF_BYTES], const snarkjs_bn_proof_t *proof);
int snarkjs_bn_proof_from_bytes(snarkjs_bn_proof_t *out, const uint8_t in[SNARKJS_BN_PROOF_BYTES], const char *what,
                                err_t *err) __attribute__((warn_unused_result));

typedef struct {
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    uint64_t *lc_start;
    uint32_t *wire;
    bn_fr_t *coef;
    uint64_t n_terms;
} snarkjs_bn_r1cs_t;

int snarkjs_bn_r1cs_from_bytes(snarkjs_bn_r1cs_t **out, const uint8_t *buf, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_r1cs_load(snarkjs_bn_r1cs_t **out, const char *path, err_t *err) __attribute__((warn_unused_result));
void snarkjs_bn_r1cs_free(snarkjs_bn_r1cs_t *r);
int snarkjs_bn_r1cs_check(const snarkjs_bn_r1cs_t *r, const bn_fr_t *w, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));

typedef struct {
    bn_fr_t *w;
    size_t n;
} snarkjs_bn_wtns_t;

int snarkjs_bn_wtns_from_bytes(snarkjs_bn_wtns_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_wtns_load(snarkjs_bn_wtns_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));
void snarkjs_bn_wtns_free(snarkjs_bn_wtns_t *w);
/* The mapped view (snarkjs_wtns_view_t, closed by snarkjs_wtns_close), as
 * snarkjs_wtns_open and snarkjs_wtns_values with BN254's r. */
int snarkjs_bn_wtns_open(snarkjs_wtns_view_t *v, const char *path, err_t *err) __attribute__((warn_unused_result));
int snarkjs_bn_wtns_values(const snarkjs_wtns_view_t *v, bn_fr_t *out, uint64_t lo, uint64_t hi, err_t *err)
    __attribute__((warn_unused_result));

typedef struct {
    uint32_t matrix, constraint, signal;
    bn_fr_t value;
} snarkjs_bn_coef_t;

typedef struct {
    uint32_t n_vars, n_public, domain_size, log_domain;
    snarkjs_bn_vk_t vk;
    snarkjs_bn_coef_t *coefs;
    uint64_t n_coefs;
    bn_g1_affine_t *a, *b1;
    bn_g2_affine_t *b2;
    bn_g1_affine_t *c;
    bn_g1_affine_t *h;
    snarkjs_zkey_stream_t stream;
} snarkjs_bn_zkey_t;

/* flags: SNARKJS_ZKEY_SUBGROUP checks the G2 points of section 7 for G2
 * (every G1 point on the curve is in G1; the vk's points are always checked). */
int snarkjs_bn_zkey_from_bytes(snarkjs_bn_zkey_t **out, const uint8_t *buf, size_t n, const char *what,
                               snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_zkey_load(snarkjs_bn_zkey_t **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                         err_t *err) __attribute__((warn_unused_result));
void snarkjs_bn_zkey_free(snarkjs_bn_zkey_t *zk);

/* Part `part` of `parts` of a bn128 zkey, as snarkjs_zkey_load_slice
 * (the same sections, ranges and checks; rows counted with
 * SNARKJS_BN_ROOT_EXP, that is, row = constraint). */
typedef struct {
    uint32_t n_vars, n_public, domain_size, log_domain;
    snarkjs_bn_vk_t vk;
    uint64_t n_coefs_file;
    uint64_t row_lo, row_hi;
    snarkjs_bn_coef_t *coefs;
    uint64_t n_coefs;
    uint64_t *to_part;
    uint64_t lo[SNARKJS_NSEC], hi[SNARKJS_NSEC];
    bn_g1_affine_t *a, *b1;
    bn_g2_affine_t *b2;
    bn_g1_affine_t *c, *h;
} snarkjs_bn_zkey_slice_t;

int snarkjs_bn_zkey_load_slice(snarkjs_bn_zkey_slice_t *out, const char *path, unsigned part, unsigned parts,
                               snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
void snarkjs_bn_zkey_slice_free(snarkjs_bn_zkey_slice_t *zs);
size_t snarkjs_bn_zkey_slice_memory(const snarkjs_bn_zkey_slice_t *zs);

typedef struct snarkjs_bn_prover snarkjs_bn_prover_t;
int snarkjs_bn_prover_create(snarkjs_bn_prover_t **out, const snarkjs_bn_zkey_t *zk, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));
void snarkjs_bn_prover_destroy(snarkjs_bn_prover_t *pv);
/* As snarkjs_prove. rs: NULL draws r and s from getrandom. */
int snarkjs_bn_prove(snarkjs_bn_prover_t *pv, snarkjs_bn_proof_t *out, const bn_fr_t *w, size_t n, const bn_fr_t *rs,
                     groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
    __attribute__((warn_unused_result));
/* As snarkjs_prover_set_backend: the zkey's G1 bases resident on be's device
 * (gpu_bn_g1_bases_upload), the NTTs and G1 MSMs there, every device proof
 * verified and, when it fails, proved again on the CPU. be NULL: the CPU. */
void snarkjs_bn_prover_set_backend(snarkjs_bn_prover_t *pv, groth16_backend_t *be);

/* r and s as snarkjs_bn_prove draws them when given none (getrandom;
 * for the ranks of a split proof, mpi/split.c). Returns 0 or GM_ESYS. */
int snarkjs_bn_random_rs(bn_fr_t rs[2], err_t *err) __attribute__((warn_unused_result));

int snarkjs_bn_proof_write_json(const char *path, const snarkjs_bn_proof_t *proof, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_public_write_json(const char *path, const bn_fr_t *pub, size_t n, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_proof_to_json(char **out, const snarkjs_bn_proof_t *proof, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_public_to_json(char **out, const bn_fr_t *pub, size_t n, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_proof_read_json(snarkjs_bn_proof_t *out, const char *path, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_public_read_json(bn_fr_t **out, size_t *n, const char *path, err_t *err)
    __attribute__((warn_unused_result));
int snarkjs_bn_vk_read_json(snarkjs_bn_vk_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));
/* e(A, B) = e(alpha, beta) e(IC_0 + sum pub_i IC_i, gamma) e(C, delta), as
 * one product of four Miller loops and one final exponentiation
 * (bn_pairing_product_is_one). Returns 0, GM_EVERIFY or GM_EINVAL. */
/* As snarkjs_ptau_write, on bn128 (n8q 32: G1 points 64 bytes, G2 128):
 * the same seed's toxic waste, each value reduced mod BN254's r.
 * `snarkjs groth16 setup` accepts it. */
int snarkjs_bn_ptau_write(const char *path, unsigned power, const uint8_t seed[GROTH16_SEED_BYTES],
                          topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));
int snarkjs_bn_verify(const snarkjs_bn_vk_t *vk, const snarkjs_bn_proof_t *proof, const bn_fr_t *pub, size_t n,
                      err_t *err) __attribute__((warn_unused_result));

#endif /* GM_SNARKJS_H */
