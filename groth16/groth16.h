/*
 * groth16/groth16.h — Groth16 over BLS12-381: a test setup from a recorded
 * circuit shape, the prover (single and batched; its NTTs and MSMs on the
 * CPU or on a backend: gpu/ on a CUDA device or its host emulation, see
 * "backends" below), the verifier (prepared key, single and batch), and the
 * file formats of parameters, verifying keys and proofs in bellperson's
 * encodings, so that Filecoin `.params` / `.vk` files and grothmpi's own are
 * read by the same code.
 *
 * Conventions (besides base/base.h's):
 *  - Points are ec/ec.h affine points (Montgomery coordinates); scalars are
 *    reduced fr_t. z = (inputs, aux) numbered as synth/synth.h numbers them
 *    (input 0 is ONE).
 *  - Everything read from bytes is validated here (flags, canonical
 *    coordinates, on curve, in the subgroup, not the identity where bellperson
 *    forbids it) and errors name the file, the section and the index:
 *    "p.params: section l: point 17: not in the subgroup".
 *  - Objects are created into an out pointer (NULL after a failure) and freed
 *    by the matching *_free / *_destroy, which accept NULL.
 *  - Work is split into tasks run by the caller's topo pool (NULL: the
 *    calling thread). No function here prints or exits, or starts threads
 *    of its own: the one pool this folder creates is a device backend's
 *    two-worker topo pool (groth16_backend_open).
 *  - Files are written atomically through base/'s file API (gm_afile_*,
 *    gm_file_write): on failure the target is untouched.
 *
 * File layout (bellperson `Parameters::write`, byte-exact):
 *   vk:   alpha_g1, beta_g1 (96 B each), beta_g2, gamma_g2 (192 B each),
 *         delta_g1 (96), delta_g2 (192), u32 BE n_ic, n_ic x G1 (96);
 *   then  h, l, a, b_g1 (G1, 96 B each) and b_g2 (G2, 192 B each), each as a
 *         u32 BE count followed by that many uncompressed points.
 * A verifying-key file is the vk part alone. A proof is 192 bytes: A (G1
 * compressed, 48), B (G2 compressed, 96), C (G1 compressed, 48); a file of k
 * proofs is their concatenation.
 *
 * The queries (bellperson generator.rs): with m = the smallest power of two
 * >= the shape's n_rows and L_i(tau) the Lagrange basis of the size-m
 * domain, u_j(tau) = sum_i A[i][j] L_i(tau) (v_j with B, w_j with C):
 *   ic[j]   = (beta u_j + alpha v_j + w_j) / gamma  G1   (j < n_inputs)
 *   l[j]    = (beta u_j + alpha v_j + w_j) / delta  G1   (aux j)
 *   h[i]    = tau^i Z(tau) / delta G1, i < m - 1, Z(x) = x^m - 1
 *   a       = u_j G1 for every column j of A that is not empty (every input
 *             is: the shape's input constraints put it in A), in z order;
 *   b_g1/g2 = v_j G1 / v_j G2 for every non-empty column j of B.
 * "Empty" is the shape's density (bellperson's DensityTracker); the prover
 * uses the same bitmaps, so the file's counts must match the shape's.
 *
 * Curves. Filecoin's parameters are BLS12-381's only, so this header's
 * types are; circom's keys come on BLS12-381 or BN254 (snarkjs/snarkjs.h).
 * Everything that depends on the curve is written once as a template (a
 * "*_shape.h" file that a .c file includes after defining its parameters,
 * then wraps its static functions in public ones by name) and instantiated
 * per curve:
 *   ff/ff_internal.h     the 4- and 6-limb Montgomery fields (ff/bn_fp.c, bn_fr.c)
 *   ec/ec_shape.h        affine, Jacobian and XYZZ point arithmetic (ec/bn_g1.c, bn_g2.c)
 *   ec/msm_shape.h       the Pippenger MSM and batch-affine additions (ec/msm.c, bn_msm.c)
 *   ntt/ntt_shape.h      the NTT and its cosets (ntt/ntt.c, bn_ntt.c)
 *   groth16/sums_shape.h       the five MSM sums of every prover, split ranks' included (CPU,
 *                              or device beside CPU), and the NTT switch
 *   groth16/assemble_shape.h   the proof from its MSM sums
 *   snarkjs/ *_shape.h   the zkey, .wtns, .r1cs and JSON codecs and the prover
 * A third curve (say BLS12-377) needs: its Fp, Fr and tower under one
 * prefix, its pairing (ec/bn_pairing.c is the pattern: the Miller loop and
 * final exponentiation are per curve), one .c file per template above with
 * that prefix (its snarkjs prover's .c file instantiates prove_shape.h and
 * its split source's mpi/split_snarkjs_shape.h, both of which bring
 * sums_shape.h), its prime in snarkjs_curve_of_bytes, and its known answers
 * (tests/vectors, from @noble/curves) and selfcheck lines; and, for the
 * device backend (SS_DEVICE), its cfgs in gpu/gpu_field.cuh and one more
 * instantiation of the device templates (gpu/gpu_emu.cc, gpu/gpu_cuda.cu)
 * and of gpu/gpu_curve_shape.h, as BN254 has.
 */
#ifndef GM_GROTH16_H
#define GM_GROTH16_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "gpu/gpu.h"
#include "synth/synth.h"
#include "topo/topo.h"

#define GROTH16_PROOF_BYTES 192
/* Bytes of the fixed part of a verifying key, before n_ic (3 G1 + 3 G2). */
#define GROTH16_VK_FIXED_BYTES (3 * G1_UNCOMPRESSED_BYTES + 3 * G2_UNCOMPRESSED_BYTES)

/* ==== keys and proofs ==================================================== */

/* A verifying key. ic holds n_ic points (gm_alloc'd, owned by the key). */
typedef struct {
    g1_affine_t alpha_g1, beta_g1;
    g2_affine_t beta_g2, gamma_g2;
    g1_affine_t delta_g1;
    g2_affine_t delta_g2;
    g1_affine_t *ic;
    size_t n_ic;
} groth16_vk_t;

/* Frees vk->ic and zeroes *vk; NULL allowed. */
void groth16_vk_free(groth16_vk_t *vk);

/* The encoded size of a verifying key with n_ic points. */
size_t groth16_vk_bytes(size_t n_ic);

/* Writes the encoding of vk into out (groth16_vk_bytes(vk->n_ic) bytes). */
void groth16_vk_to_bytes(uint8_t *out, const groth16_vk_t *vk);

/* Decodes a verifying key from in[0 .. len). Every point is fully checked
 * (flags, canonical, on curve, subgroup); ic points may not be the identity
 * (bellperson rejects them). `what` names the source in messages ("x.vk").
 * *consumed (when not NULL) receives the bytes used; trailing bytes are
 * allowed here (a params file continues after its vk) and are the caller's
 * business. Returns 0, GM_EFORMAT (truncated, identity), GM_EFLAGS,
 * GM_ENONCANON, GM_ENOTONCURVE, GM_ESUBGROUP (err names the field) or
 * GM_ENOMEM. *out is zeroed on failure. */
int groth16_vk_from_bytes(groth16_vk_t *out, const uint8_t *in, size_t len, size_t *consumed, const char *what,
                          err_t *err) __attribute__((warn_unused_result));

/* Reads / writes a verifying-key file (exactly one vk, no trailing bytes).
 * load returns groth16_vk_from_bytes's codes, GM_EIO (cannot read), or
 * GM_EFORMAT for trailing bytes; save returns 0 or GM_EIO (atomic write). */
int groth16_vk_load(groth16_vk_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));
int groth16_vk_save(const groth16_vk_t *vk, const char *path, err_t *err) __attribute__((warn_unused_result));

/* A proof. */
typedef struct {
    g1_affine_t a;
    g2_affine_t b;
    g1_affine_t c;
} groth16_proof_t;

/* The 192-byte encoding (A, B, C compressed). */
void groth16_proof_to_bytes(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *p);

/* Decodes and validates a proof: each point's flags, canonical x, square
 * root, subgroup, and not the identity (bellperson's Proof::read). `what`
 * names the source ("proof.bin: proof 3"). Returns 0, GM_EFLAGS,
 * GM_ENONCANON, GM_ENOSQRT, GM_ESUBGROUP or GM_EFORMAT (identity), err naming
 * the point (A, B or C). *out untouched on failure. */
int groth16_proof_from_bytes(groth16_proof_t *out, const uint8_t in[GROTH16_PROOF_BYTES], const char *what,
                             err_t *err) __attribute__((warn_unused_result));

/* ==== verifier =========================================================== */

/* A verifying key prepared for repeated verification: e(alpha, beta), -beta,
 * -gamma, -delta in G2, and a copy of ic (owned). */
typedef struct {
    fp12_t alpha_beta;
    g2_affine_t neg_beta_g2, neg_gamma_g2, neg_delta_g2;
    g1_affine_t alpha_g1;
    g1_affine_t *ic;
    size_t n_ic;
} groth16_pvk_t;

/* Prepares vk (valid points, as groth16_vk_from_bytes gives). Returns 0 or
 * GM_ENOMEM (*out zeroed). */
int groth16_pvk_prepare(groth16_pvk_t *out, const groth16_vk_t *vk, err_t *err)
    __attribute__((warn_unused_result));
/* Frees the ic copy and zeroes *pvk; NULL allowed. */
void groth16_pvk_free(groth16_pvk_t *pvk);

/* Verifies one proof against the public inputs (without ONE: n_inputs =
 * pvk->n_ic - 1): e(A, B) = e(alpha, beta) e(sum_i x_i ic_i, gamma) e(C, delta)
 * with x_0 = 1. The proof's points must be valid (groth16_proof_from_bytes).
 * Returns 0 (valid), GM_EVERIFY (the equation fails) or GM_EINVAL (wrong
 * number of inputs; err says both counts). */
int groth16_verify(const groth16_pvk_t *pvk, const groth16_proof_t *proof, const fr_t *inputs, size_t n_inputs,
                   err_t *err) __attribute__((warn_unused_result));

/* Verifies k proofs at once by a random linear combination (128-bit
 * coefficients from getrandom): one final exponentiation and k + 3 Miller
 * loops. inputs holds k rows of n_inputs values (row i for proof i). A false
 * batch fails with probability >= 1 - 2^-128 per bad proof; it does not say
 * which proof is bad (verify them one by one for that). k = 0 is valid.
 * Returns 0, GM_EVERIFY, GM_EINVAL (count), GM_ENOMEM or GM_ESYS (getrandom
 * failed). */
int groth16_verify_batch(const groth16_pvk_t *pvk, const groth16_proof_t *proofs, const fr_t *inputs, size_t n_inputs,
                         size_t k, err_t *err) __attribute__((warn_unused_result));

/* ==== parameters ========================================================== */

/* Section counts of a parameter file (or of what a shape needs). */
typedef struct {
    uint64_t ic, h, l, a, b_g1, b_g2;
} groth16_counts_t;

/* What a shape needs: ic = n_inputs, h = m - 1, l = n_aux, a = n_inputs +
 * non-empty aux columns of A, b_g1 = b_g2 = non-empty columns of B. Returns
 * 0 or GM_EINVAL (n_rows < 2 or m > 2^28: no domain for it). */
int groth16_shape_counts(groth16_counts_t *out, const cs_shape_t *shape, err_t *err)
    __attribute__((warn_unused_result));

/* Loaded parameters: the vk and the five queries decoded into affine arrays
 * (the file is memory-mapped while it is decoded and unmapped afterwards). */
typedef struct groth16_params groth16_params_t;

typedef enum {
    GROTH16_LOAD_DEFAULT = 0,
    /* --trust-params: skip the subgroup checks of the five queries (the vk is
     * always fully checked; flags, canonical coordinates, the curve equation
     * and the identity are always checked). */
    GROTH16_LOAD_TRUST = 1 << 0,
    /* Streamed (groth16_params_load only): decode nothing now; keep the
     * file open and read the queries a chunk at a time while proving, each
     * base once per MSM, so that a key larger than memory proves (the CPU
     * prover only). Without TRUST every point is checked now, a chunk at a
     * time, and nothing is kept. */
    GROTH16_LOAD_STREAM = 1 << 1,
} groth16_load_flags_t;

/* Maps and decodes the parameter file at path, checking, in order: the size
 * of every section against the file size (truncation, trailing bytes); the
 * counts against shape when shape != NULL; then every point in parallel on
 * pool (the error reported is the first bad point in file order).
 * Returns 0 or GM_EIO (open/mmap), GM_EFORMAT (truncated, trailing bytes, a
 * count that does not match the shape, a point at infinity), GM_EFLAGS,
 * GM_ENONCANON, GM_ENOTONCURVE, GM_ESUBGROUP, GM_ENOMEM; err reads e.g.
 * "p.params: section l: point 17: not in the subgroup" or "p.params: section
 * h: 1023 points, the circuit needs 2047". *out is NULL on failure. */
int groth16_params_load(groth16_params_t **out, const char *path, const cs_shape_t *shape,
                        groth16_load_flags_t flags, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));

/* Frees the decoded points and the vk (closes a streamed file); NULL allowed. */
void groth16_params_free(groth16_params_t *p);

/* True for parameters loaded with GROTH16_LOAD_STREAM. */
bool groth16_params_streamed(const groth16_params_t *p);

/* The section counts of the parameter file at path, from its header alone
 * (the vk fully checked, every section's size against the file's). Returns
 * 0, GM_EIO or the header's GM_EFORMAT (err names path). */
int groth16_params_file_counts(groth16_counts_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));

/* The bytes of decoded points a load of path would hold in memory (what
 * GROTH16_LOAD_STREAM saves), from its header alone. Returns 0, GM_EIO or
 * the header's GM_EFORMAT (err names path). */
int groth16_params_decoded_bytes(uint64_t *out, const char *path, err_t *err) __attribute__((warn_unused_result));

/* The loaded key and section counts (valid while p lives). */
const groth16_vk_t *groth16_params_vk(const groth16_params_t *p);
void groth16_params_counts(groth16_counts_t *out, const groth16_params_t *p);
/* Bytes of decoded points held (streamed: the ic points alone). */
size_t groth16_params_memory(const groth16_params_t *p);

/* ---- the converted points file (the prover's own layout, mapped) ----------
 * A cache of the decoded points beside a parameter file, so that a new
 * process maps them instead of decoding (or checking) every point again:
 * one page of header (magic, the sizes of g1_affine_t and g2_affine_t, the
 * source file's digest and size, the five counts and their offsets), then
 * the five arrays of affine points in Montgomery form, each page-aligned and
 * followed by one zeroed slot, as groth16_params_load lays them out in
 * memory. It is this build's memory image, not an interchange format: a
 * header that does not match this build, the source's digest and size, or
 * the shape's counts is refused, and the caller converts again.
 * The verifying key is read from the source file's head (a few pages). */

/* Writes p's points to path atomically (temporary, fsync, rename), tagged
 * with the source parameter file's digest (any text up to 64 characters) and
 * size. Returns 0, GM_EINVAL (digest too long) or GM_EIO (err names path:
 * a write error such as a full disk leaves nothing behind). */
int groth16_params_save_points(const groth16_params_t *p, const char *path, const char *source_digest,
                               uint64_t source_size, err_t *err) __attribute__((warn_unused_result));

/* Maps the points file at path for the parameter file params_path (whose
 * digest and size the caller has established), reading the verifying key
 * from params_path's head and checking the counts against shape (when not
 * NULL). The points are used as they are, without any check: path must be
 * what groth16_params_save_points wrote from a loaded (checked or trusted)
 * file. Returns 0; GM_EFORMAT (not a points file of this build, another
 * source digest or size, a size or counts that do not match: err names path
 * and says which); GM_EIO; the vk decoder's errors for params_path;
 * GM_ENOMEM. Any failure means "convert again", never a wrong key. */
int groth16_params_map_points(groth16_params_t **out, const char *path, const char *params_path,
                              const char *source_digest, uint64_t source_size, const cs_shape_t *shape, err_t *err)
    __attribute__((warn_unused_result));

/* Bytes of the points file that groth16_params_save_points writes for p. */
uint64_t groth16_params_points_size(const groth16_params_t *p);

/* True when p's points are mapped from a points file (not held in memory). */
bool groth16_params_mapped(const groth16_params_t *p);

/* ---- slices of a parameter file (groth16/params_slice.c) -------------------
 * For a proof split over R ranks (mpi/split.c): each rank holds part
 * [lo, hi) of each of the five queries, lo = n·part/R, hi = n·(part+1)/R
 * (groth16_slice_range: balanced within one point, any R). The indices are
 * those of the file's section (for a and b_*, the index among the non-empty
 * columns, in z order). */
typedef enum {
    GROTH16_SEC_H = 0,
    GROTH16_SEC_L,
    GROTH16_SEC_A,
    GROTH16_SEC_B_G1,
    GROTH16_SEC_B_G2,
    GROTH16_NSEC
} groth16_section_t;

typedef struct {
    groth16_vk_t vk;       /* whole (every rank needs it for the assembly and the check) */
    groth16_counts_t n;    /* the file's counts (whole sections) */
    uint64_t lo[GROTH16_NSEC], hi[GROTH16_NSEC];
    /* hi - lo points each (gm_alloc'd, owned): h[i] is point lo[GROTH16_SEC_H] + i of section h */
    g1_affine_t *h, *l, *a, *b_g1;
    g2_affine_t *b_g2;
} groth16_params_slice_t;

/* Part `part` of `parts` of n items: [*lo, *hi) with *lo = n·part/parts
 * (floor), so sizes differ by at most one and the parts tile [0, n).
 * part < parts, parts >= 1 (GM_ASSERT). */
void groth16_slice_range(uint64_t *lo, uint64_t *hi, uint64_t n, unsigned part, unsigned parts);

/* Reads part `part` of `parts` of each query of the parameter file at path
 * (groth16_slice_range of each section's count) with pread at its offsets:
 * the file's header and counts, and the slices' bytes, nothing else (the
 * file is neither mapped nor read whole). Checks, in order: the vk (fully,
 * as groth16_vk_from_bytes); every section's size against the file size
 * (truncation, trailing bytes); the counts against shape; then every point
 * of the slices, in parallel on pool (GROTH16_LOAD_TRUST: no subgroup
 * checks), the error reported being the first bad point of the slices in
 * file order, named by its index in the whole section. Points outside the
 * slices are not checked (their ranks check them). Returns 0 or GM_EIO,
 * GM_EFORMAT, GM_EFLAGS, GM_ENONCANON, GM_ENOTONCURVE, GM_ESUBGROUP,
 * GM_ENOMEM with groth16_params_load's messages ("p.params: section l: point
 * 17: not in the subgroup"). *out is zeroed on failure (free it anyway:
 * groth16_params_slice_free accepts it). */
int groth16_params_load_slice(groth16_params_slice_t *out, const char *path, const cs_shape_t *shape,
                              unsigned part, unsigned parts, groth16_load_flags_t flags, topo_pool_t *pool,
                              err_t *err) __attribute__((warn_unused_result));

/* The column densities the a and b_* queries are indexed by: *da (A, with
 * every input set, as the input constraints put them in A) and *db (B),
 * bitmaps over z of ceil((n_inputs + n_aux) / 64) + 1 words (gm_alloc'd;
 * gm_free them), bit j = bit j % 64 of word j / 64. Query index k of a (b_*)
 * is the k-th set bit of *da (*db). Returns 0 or GM_ENOMEM (both NULL). */
int groth16_query_density(uint64_t **da, uint64_t **db, const cs_shape_t *shape, err_t *err)
    __attribute__((warn_unused_result));

/* Frees the slice's points and its vk, and zeroes *p; NULL allowed. */
void groth16_params_slice_free(groth16_params_slice_t *p);

/* Bytes of decoded points the slice holds (its share of the key). */
size_t groth16_params_slice_memory(const groth16_params_slice_t *p);

/* ==== setup =============================================================== */

/* The toxic waste of a test setup. */
typedef struct {
    fr_t tau, alpha, beta, gamma, delta;
} groth16_toxic_t;

#define GROTH16_SEED_BYTES 32

/* Derives the toxic waste from a seed: each value is SHA-256(seed || label ||
 * counter) over two blocks (64 bytes) reduced mod r, counter bumped while the
 * value is 0. Deterministic: the same seed gives the same parameters. */
void groth16_toxic_from_seed(groth16_toxic_t *out, const uint8_t seed[GROTH16_SEED_BYTES]);

/* Fills seed with bytes from getrandom. Returns 0 or GM_ESYS. */
int groth16_seed_random(uint8_t seed[GROTH16_SEED_BYTES], err_t *err) __attribute__((warn_unused_result));

/* Generates parameters for shape from the toxic waste of seed (not an MPC
 * ceremony: whoever knows the seed can forge proofs; for tests, benchmarks
 * and demos) and writes the parameter file to params_path and the vk to
 * vk_path (vk_path may be NULL to skip it), as groth16_setup_run with the
 * default options. */
int groth16_setup(const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                  const char *vk_path, topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));

/* The default memory budget of a setup: the setup's own arrays (QAP column
 * accumulators, fixed-base tables, chunk buffers); the shape's mapped pages
 * are released as the passes leave them. */
#define GROTH16_SETUP_BUDGET_DEFAULT (12ULL << 30)

/* Stages of a setup, as groth16_setup_progress_t reports them. */
enum {
    GROTH16_STAGE_PLAN = 0,
    GROTH16_STAGE_QAP = 1,
    GROTH16_STAGE_TABLES = 2, /* fixed-base tables and the vk */
    GROTH16_STAGE_POINTS = 3,
    GROTH16_STAGE_DONE = 4,
};

/* What a running setup has done, for a watcher thread (all relaxed atomics):
 * stage; in the QAP stage, pass (1-based) of passes and rows done of the
 * shape's rows in this pass; in the points stage, points written of total,
 * of which `resumed` were found in the partial file. */
typedef struct {
    _Atomic int stage;
    _Atomic uint64_t pass, passes, rows_done, rows;
    _Atomic uint64_t points_done, points_total, resumed;
} groth16_setup_progress_t;

/* A line for the user: the plan, a resume or a restart, each stage's time
 * and peak RSS. */
typedef void (*groth16_note_fn)(void *arg, const char *line);

typedef struct {
    uint64_t mem_budget;                 /* bytes; 0: GROTH16_SETUP_BUDGET_DEFAULT */
    groth16_setup_progress_t *progress;  /* NULL: none */
    groth16_note_fn note;                /* NULL: no lines */
    void *note_arg;
    uint64_t stop_after;                 /* tests only: return GM_ECANCELED after this many journal records (0: never) */
} groth16_setup_opts_t;

/* Files next to params_path while a setup runs (the final file appears by
 * rename only when whole):
 *   <params>.partial   the parameter file so far, in its final layout;
 *   <params>.journal   the seed, the shape's digest and the plan, then one
 *                      line per completed QAP column range and point chunk;
 *   <params>.scratch   the QAP columns at tau (u, v and the l/ic scalars,
 *                      32 bytes each per variable).
 * A run that finds a journal for the same seed and shape continues from its
 * last record (the partial file cut back to it), so the result is
 * byte-identical to an uninterrupted run; a journal for another seed or
 * shape is discarded with a note. A failure (a full disk included) keeps the
 * three files for a rerun; success removes the journal and scratch.
 *
 * The setup: the Lagrange basis at tau in closed form per block of rows;
 * the QAP columns in passes over column ranges, each pass one walk of the
 * shape (a mapped shape's pages are released behind the walk), as many
 * passes as the budget needs; the points by fixed-base tables with
 * batch-affine additions, in chunks appended to the partial file and
 * journaled. Memory: the budget plus O(rows / 64) bytes of density bitmaps.
 * Before anything is written the free space of the directory is checked
 * against what is left to write. Returns 0, GM_EINVAL (shape too small or
 * too large, an aux variable in no constraint: bellperson's
 * UnconstrainedVariable; a non-empty column that evaluates to 0 at tau, or
 * Z(tau) = 0: try another seed; a budget too small for one chunk; no
 * params_path), GM_ENOMEM, GM_EIO (err names the file: a full disk, a
 * failed write, a file that cannot be created) or GM_ECANCELED (stop_after). */
int groth16_setup_run(const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                      const char *vk_path, const groth16_setup_opts_t *opts, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));

/* The seed recorded in params_path's setup journal, if there is one (a
 * rerun without a seed resumes with it). Returns true and fills seed, or
 * false (no journal, or one that does not parse). */
bool groth16_setup_journal_seed(uint8_t seed[GROTH16_SEED_BYTES], const char *params_path);

/* ==== prover ============================================================== */

/* One witness: z = (inputs, aux) as cs_input_values / cs_aux_values give it;
 * n_inputs includes ONE (inputs[0] must be 1). The aux values are either
 * dense (aux) or compact (aux_compact, as cs_aux_compact gives it: the 0/1
 * values as bits, the rest dense; aux is then NULL and aux_compact->n =
 * n_aux). A compact witness gives the same proof bit for bit: its a, b, c
 * are read from the compact form, and the A, B1, B2 and L MSMs sum the
 * bases of its ones (msm_g1_bits) and run Pippenger over its dense values
 * only (groth16/witness.c). With a device backend its aux values are
 * expanded to a dense array for the device's MSMs (32 B per value for the
 * batch, freed after it). */
typedef struct {
    const fr_t *inputs;
    size_t n_inputs;
    const fr_t *aux;
    size_t n_aux;
    const cs_compact_t *aux_compact;
} groth16_witness_t;

/* *w = the witness a cs_t holds (WITNESS or CHECK mode), dense or compact
 * as the cs_t keeps it (CS_FLAG_COMPACT); valid while cs lives and
 * allocates nothing more. */
void groth16_witness_of(groth16_witness_t *w, const cs_t *cs);

/* Bytes of aux values a witness of this circuit holds: dense, 32 per value;
 * compact with a dense (non-0/1) fraction of at most dense_frac, the
 * bitmaps and ranks plus the dense part with its growth slack (up to 1.25
 * dense_frac · n_aux · 32). For memory budgets (mpi/run.c). */
uint64_t groth16_witness_bytes(uint64_t n_aux, bool compact, double dense_frac);
/* The dense fraction memory budgets assume for compact witnesses: PoRep
 * partitions hold 1.6 % (2 KiB, bench/README.md "compact witness"). */
#define GROTH16_COMPACT_DENSE_FRAC 0.04

/* Wall-clock nanoseconds per stage, summed over the proofs of a call; and
 * the CPU nanoseconds of the stages (cpu_*: the calling thread plus every
 * thread of the pool, topo_pool_cpu_ns, so they count all the workers and
 * are only right while no one else runs jobs on that pool; cpu_msm covers
 * the five MSMs and the assembly of A, B, C). snarkjs_prove fills the wall
 * times only. With streamed parameters, read_* are the bytes the process
 * read from storage during each MSM (/proc/self/io read_bytes: the whole
 * process, so a prepare running beside the finish adds its own reads), and
 * params_bytes the bytes of points the MSMs asked for. */
typedef struct {
    uint64_t abc, ntt, msm_a, msm_b_g1, msm_b_g2, msm_l, msm_h, verify, total;
    uint64_t cpu_abc, cpu_ntt, cpu_msm, cpu_verify;
    uint64_t read_a, read_b_g1, read_b_g2, read_l, read_h, params_bytes;
} groth16_timings_t;

typedef enum {
    GROTH16_PROVE_DEFAULT = 0,
    /* --no-verify: do not check each proof against the vk before returning it. */
    GROTH16_PROVE_NO_VERIFY = 1 << 0,
} groth16_prove_flags_t;

/* A prover for one shape and one parameter set: the density bitmaps, the NTT
 * domain and every scratch buffer, sized once and reused for each proof.
 * params and shape must outlive it and are only read (several provers may
 * share them). */
typedef struct groth16_prover groth16_prover_t;

/* Returns 0, GM_EINVAL (the params' counts do not match the shape: err names
 * the section), GM_ENOMEM. pool is the pool the proofs will run on (its size
 * sizes the scratch); later calls may use it or a smaller pool. params NULL
 * gives a prepare-only prover (groth16_prepare works, groth16_finish and
 * groth16_prove return GM_EINVAL): for measuring the prepare stage of a
 * shape that has no parameters (bench synth). */
int groth16_prover_create(groth16_prover_t **out, const groth16_params_t *params, const cs_shape_t *shape,
                          topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));
/* Frees the prover's buffers (not the params or the shape); NULL allowed. */
void groth16_prover_destroy(groth16_prover_t *pv);

/* Bytes of scratch the prover holds (for the memory report and the
 * campaign's memory plan): the prepare stage's second m-vector and NTT
 * scratch, the MSM scratch and the gather buffer of compact witnesses and
 * streamed parameters (made at the first compact witness when the
 * parameters are in memory, counted from the start); not the prepared
 * units, which groth16_prepared_bytes counts. */
size_t groth16_prover_memory(const groth16_prover_t *pv);

/* Proves k witnesses against the prover's parameters (bases shared, each
 * proof with its own scalars), out[i] for w[i]. rs: NULL draws r and s for
 * each proof from getrandom; otherwise 2k values (r_i = rs[2i], s_i =
 * rs[2i + 1]), for known-answer tests only. Unless GROTH16_PROVE_NO_VERIFY,
 * each proof is verified against the params' vk and the witness's inputs
 * before it is returned. a, b, c are bellperson's (c = C·z exactly), so the
 * proof is bellperson's to the bit (same r, s); for an unsatisfying witness
 * it fails that verification (GM_EVERIFY), and with
 * GROTH16_PROVE_NO_VERIFY the verifier rejects it. Memory: one prepared
 * unit for the call (groth16_prepared_bytes) besides the prover's own. times (may be NULL) receives the stage sums.
 * Returns 0, GM_EINVAL (a witness's counts differ from the shape, or
 * inputs[0] != 1; err names the witness), GM_EVERIFY (a proof failed its
 * check: the witness does not satisfy the circuit, or the parameters are not
 * for it; err names the witness), GM_ESYS (getrandom). out is undefined on
 * failure. */
int groth16_prove(groth16_prover_t *pv, groth16_proof_t *out, const groth16_witness_t *w, size_t k,
                  const fr_t *rs, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times,
                  err_t *err) __attribute__((warn_unused_result));

/* ---- backends ----------------------------------------------------------------
 * Where a prover's G1 MSMs (A, B1, L, H) and NTTs run. cpu: ec/ on the pool.
 * cuda: gpu/ on a CUDA device; emulate: gpu/'s host emulation of the same
 * device code (an "emulated device"; for tests and machines without a GPU);
 * auto: cuda when a device answers, else cpu. With a device backend the
 * parameters' G1 bases are uploaded once (groth16_prover_set_backend) and
 * stay resident; the G2 MSM (B2) runs on the CPU pool while the device runs
 * the G1 MSMs; every proof is verified, whatever GROTH16_PROVE_NO_VERIFY
 * says; a unit whose device call fails (error, out of memory, lost device)
 * or whose proof does not verify is proved again, entirely, on the CPU (a
 * fallback, counted), and after GROTH16_BACKEND_MAX_FAILURES failures the
 * backend is retired: the rest of the run is proved on the CPU. No proof
 * leaves a prover unverified when a device took part.
 * A backend may be shared by several provers (a campaign's prepare and
 * finish provers): its calls are serialized by a lock. */
typedef enum {
    GROTH16_BACKEND_AUTO = 0,
    GROTH16_BACKEND_CPU = 1,
    GROTH16_BACKEND_CUDA = 2,
    GROTH16_BACKEND_EMULATE = 3,
} groth16_backend_kind_t;

#define GROTH16_BACKEND_MAX_FAILURES 3

typedef struct groth16_backend groth16_backend_t;

/* "auto", "cpu", "cuda", "emulate" (any other value: "?"). */
const char *groth16_backend_kind_name(groth16_backend_kind_t k);

/* Parses one of the names above; what names the option or field in the
 * error ("--backend", "campaign.json: backend"). Returns 0 or GM_EINVAL. */
int groth16_backend_kind_parse(groth16_backend_kind_t *out, const char *s, const char *what, err_t *err)
    __attribute__((warn_unused_result));

/* The devices a backend of this kind can open: CUDA devices visible
 * (CUDA_VISIBLE_DEVICES applied; 0 without driver or CUDA build); for
 * emulate GROTHMPI_EMU_DEVICES (gpu.h) when set, else 0: no limit (a
 * campaign may open any number of emulated devices); 0 for cpu. auto counts
 * as cuda. Returns 0. */
int groth16_backend_device_count(unsigned *n, groth16_backend_kind_t kind);

/* Opens a backend of kind on device `device` (cuda: the CUDA device number;
 * emulate: the emulated device's number, a label; -1: 0). auto falls back
 * to cpu when no device answers, and writes the one line saying which it
 * chose and why into note (note_len bytes; empty for the other kinds).
 * Reads GROTHMPI_GPU_FAULT (gpu.h: injected faults) for device kinds.
 * Returns 0; GM_ENODEV (cuda: no usable device, no driver, or a build
 * without CUDA; err says which); GM_EINVAL (kind, or GROTHMPI_GPU_FAULT malformed);
 * GM_EGPU, GM_ENOMEM, GM_ESYS. *out NULL on failure. */
int groth16_backend_open(groth16_backend_t **out, groth16_backend_kind_t kind, int device, char *note,
                         size_t note_len, err_t *err) __attribute__((warn_unused_result));
/* Closes it (every prover using it must have been destroyed); NULL allowed. */
void groth16_backend_close(groth16_backend_t *be);

/* The resolved kind: cpu, cuda or emulate (cpu for NULL). */
groth16_backend_kind_t groth16_backend_kind(const groth16_backend_t *be);

/* What a backend did, for the cluster report's per-GPU rows. */
typedef struct {
    char name[320];             /* "cpu", "cuda:0 NVIDIA H200", "emulate:1" */
    int device;                 /* -1 for cpu */
    uint64_t units;             /* proofs finished with it attached (fallbacks included) */
    uint64_t busy_ns;           /* wall time inside device calls (MSMs, NTTs, uploads excluded) */
    uint64_t msm_ns, ntt_ns;    /* the same, split */
    uint64_t mem_peak, mem_total; /* device bytes: the most in use (gpu_mem_peak); the device's size */
    uint64_t fallbacks;         /* units proved again on the CPU */
    uint64_t failures;          /* failed device calls and device results that did not verify */
    bool retired;               /* GROTH16_BACKEND_MAX_FAILURES reached */
} groth16_backend_stats_t;

/* A snapshot of be's counters (zeros for NULL). Thread-safe. */
void groth16_backend_stats(groth16_backend_t *be, groth16_backend_stats_t *out);

/* Attaches be (NULL or cpu: the CPU) to pv: its prepares' NTTs and its
 * finishes' G1 MSMs go through it from now on. With a device backend and
 * parameters, the device's memory is planned for these sets and this
 * domain (gpu_plan_apply: which sets stay resident, the chunks of the
 * others, h whole or in steps), then the G1 bases of A and B1 (aux part), L
 * and H are uploaded (resident or streamed, as planned) and kept until pv
 * is destroyed or attached again. With h whole, pv takes two m-vectors of
 * the device's (pinned) host memory for b and c, and a prepare makes a, b,
 * c in one pass and h in one device call. No plan fits, or a set fails to
 * upload: that work stays on the CPU for pv's life (logged once, a
 * warning). be must outlive pv, or be detached first (set NULL) since the
 * bases are freed through it. Not while pv proves. */
void groth16_prover_set_backend(groth16_prover_t *pv, groth16_backend_t *be);

/* For provers outside groth16/ (snarkjs/): the calls prove.c makes. */
/* True when be is a device backend that is not retired (false for NULL). */
bool groth16_backend_active(groth16_backend_t *be);
/* k G1 MSMs over one set of resident bases, for groth16_backend_msm_beside:
 * out[j] = sum of scalars[j] (with density, as gpu_msm_g1) times the bases,
 * j < k, the scalars of MSM j + 1 uploaded while MSM j computes; the wall
 * time is added to *ns (NULL: not timed). out and scalars are of the bases'
 * curve (gpu_g1_bases_curve): g1_jac_t and fr_t, or BN254's bn_g1_jac_t
 * and bn_fr_t (gpu_bn_msm_g1). */
typedef struct {
    void *out;
    const gpu_g1_bases_t *bases;
    const void *const *scalars;
    const uint64_t *density;
    size_t n, k;
    uint64_t *ns;
} groth16_backend_msm_t;
/* Runs the n MSMs on the device, in order, and cpu(cpu_arg) (the CPU's G2
 * MSM) at the same time, on the backend's two-worker side pool; returns when
 * both are done: 0, or the first device error (err set; the MSMs after it
 * are not run). be active. */
int groth16_backend_msm_beside(groth16_backend_t *be, const groth16_backend_msm_t *msm, size_t n,
                               void (*cpu)(void *arg), void *cpu_arg, err_t *err) __attribute__((warn_unused_result));
/* gpu_g1_bases_upload (BN254: gpu_bn_g1_bases_upload) / gpu_g1_bases_free
 * under the backend's lock. */
int groth16_backend_upload(groth16_backend_t *be, gpu_g1_bases_t **out, const g1_affine_t *bases, size_t n,
                           err_t *err) __attribute__((warn_unused_result));
int groth16_backend_bn_upload(groth16_backend_t *be, gpu_g1_bases_t **out, const bn_g1_affine_t *bases, size_t n,
                              err_t *err) __attribute__((warn_unused_result));
void groth16_backend_free_bases(groth16_backend_t *be, gpu_g1_bases_t *b);
/* One transform on the device (gpu_ntt; BN254: gpu_bn_ntt), its wall time
 * added to the stats. Returns as gpu_ntt. */
int groth16_backend_ntt(groth16_backend_t *be, fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
    __attribute__((warn_unused_result));
int groth16_backend_bn_ntt(groth16_backend_t *be, bn_fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
    __attribute__((warn_unused_result));
/* Groth16's h in one device call (gpu_groth16_h: one upload of a, b, c, one
 * download of h into a), its wall time added to the stats as NTT time.
 * Returns as gpu_groth16_h. */
int groth16_backend_h(groth16_backend_t *be, fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
    __attribute__((warn_unused_result));
/* gpu_plan_apply on the backend's device under its lock (the sets in upload
 * order, log_n the domain of h): call before the uploads. The plan in *out.
 * Returns as gpu_plan_apply. */
int groth16_backend_plan(groth16_backend_t *be, gpu_plan_t *out, const char *const *names, const uint64_t *counts,
                         size_t nsets, unsigned log_n, err_t *err) __attribute__((warn_unused_result));
/* Host buffers for the device's transfers (gpu_host_alloc: pinned on a
 * CUDA device), freed with groth16_backend_host_free on the same backend. */
int groth16_backend_host_alloc(groth16_backend_t *be, void **p, size_t bytes, err_t *err)
    __attribute__((warn_unused_result));
void groth16_backend_host_free(groth16_backend_t *be, void *p);
/* A failed device call or a device result that did not verify (who names
 * the unit: "unit 3"): one warning line (gm_log), counted in failures; the
 * backend is retired when failures reach GROTH16_BACKEND_MAX_FAILURES. */
void groth16_backend_failed(groth16_backend_t *be, const char *who, const err_t *e);
/* One unit finished with be attached; fallback: it was proved again on the
 * CPU. */
void groth16_backend_unit(groth16_backend_t *be, bool fallback);

/* ---- the prover in two stages -----------------------------------------------
 * groth16_prove = groth16_prepare + groth16_finish for each witness. A
 * campaign splits them to overlap the CPU work of the next units with the
 * MSMs of the current batch (mpi/pipeline.c):
 *   prepare: a = A·z, b = B·z, both to the coset, a·b, c = C·z (the exact
 *            product) into b's buffer, to the coset, h = (a·b − c) / Z,
 *            coset iNTT (bellperson's convention). The result, a prepared
 *            unit, holds only what the MSMs need: z = (inputs, aux), copied,
 *            so the witness may be freed, and h (m values, m = the domain).
 *   finish:  the five MSMs of k prepared units against the shared bases,
 *            the assembly of each proof, and its verification.
 * A prover runs at most one prepare and one finish at a time (each stage
 * has its own scratch in the prover); the two may run at once on two
 * different pools, each no larger than the pool the prover was created with.
 * Proofs are those groth16_prove gives for the same witness, r and s. */
typedef struct groth16_prepared groth16_prepared_t;

/* Bytes one prepared unit holds: 32 (n_inputs + n_aux + m) plus a header. */
size_t groth16_prepared_bytes(const groth16_prover_t *pv);

/* A prepared unit for pv's shape (z and h allocated once; reused by any
 * number of prepare / finish rounds). The unit keeps no pointer to pv, only
 * its sizes. Returns 0 or GM_ENOMEM (*out NULL). */
int groth16_prepared_create(groth16_prepared_t **out, const groth16_prover_t *pv, err_t *err)
    __attribute__((warn_unused_result));
/* Frees a unit; NULL allowed. */
void groth16_prepared_free(groth16_prepared_t *u);

/* The public part of the unit's z: inputs[0 .. *n) with inputs[0] = ONE
 * (*n = 0 when the unit is not prepared). Valid while u lives and is not
 * prepared again. */
const fr_t *groth16_prepared_inputs(const groth16_prepared_t *u, size_t *n);

/* Prepares witness w into u (overwriting what u held) on pool (NULL: the
 * calling thread), which must be no larger than the prover's. w is only read
 * and may be freed when this returns. times (may be NULL) receives abc, ntt
 * and total (and cpu_abc, cpu_ntt); the MSM and verify fields are 0.
 * Returns 0 or GM_EINVAL (w's counts differ from the shape, inputs[0] != 1,
 * u made for another prover, or pool larger than the prover's; err says
 * which). On failure u is not prepared (finish rejects it). */
int groth16_prepare(groth16_prover_t *pv, groth16_prepared_t *u, const groth16_witness_t *w, topo_pool_t *pool,
                    groth16_timings_t *times, err_t *err) __attribute__((warn_unused_result));

/* Proves k prepared units: out[i] for units[i], against the prover's shared
 * bases, on pool (no larger than the prover's). rs and flags as in
 * groth16_prove (r_i = rs[2i], s_i = rs[2i + 1]); unless
 * GROTH16_PROVE_NO_VERIFY each proof is checked against the vk and the
 * unit's inputs. The units are only read (finish them again with other r, s
 * if you like). times (may be NULL) receives the MSM, verify and total
 * fields. With a device backend the k units' G1 MSMs run as one batch per
 * set of bases (the scalars of unit i + 1 uploaded while unit i computes),
 * and a unit whose device-made h gave a proof that does not verify gets its
 * h computed again on the CPU (written into the unit). Returns 0, GM_EINVAL
 * (a unit that is not prepared, or made for another prover; pool too
 * large), GM_EVERIFY (err names the unit by its index in units), GM_ESYS
 * (getrandom). out undefined on failure. */
int groth16_finish(groth16_prover_t *pv, groth16_proof_t *out, groth16_prepared_t *const *units, size_t k,
                   const fr_t *rs, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times,
                   err_t *err) __attribute__((warn_unused_result));

/* The proof from the five MSM sums: A = alpha + sum_A + r delta, B = beta +
 * sum_B2 + s delta, C = sum_L + sum_H + s A + r B1 - rs delta with B1 =
 * beta + sum_B1 + s delta (bellperson's prover.rs's C, rewritten over A and
 * B1: groth16/assemble_shape.h, the one assembly of every prover and curve).
 * Used by groth16_finish and by the split prover (mpi/split.c), which
 * reduces the sums over ranks first. Sums are any Jacobian points (the
 * identity allowed); r, s reduced. */
void groth16_proof_assemble(groth16_proof_t *out, const groth16_vk_t *vk, const g1_jac_t *sa, const g1_jac_t *sb1,
                            const g2_jac_t *sb2, const g1_jac_t *sl, const g1_jac_t *shh, const fr_t *r,
                            const fr_t *s);

/* ==== helpers shared with the snarkjs formats and the circuit catalogue ==== */

/* n uniformly random Fr values from getrandom (64 bytes each, reduced), or
 * with bits = 128 values below 2^128. Returns 0 or GM_ESYS. */
int groth16_random_fr(fr_t *out, size_t n, unsigned bits, err_t *err) __attribute__((warn_unused_result));

/* out = 64 little-endian bytes reduced mod r (bias < 2^-250). */
void groth16_fr_from_wide(fr_t *out, const uint8_t in[64]);

/* out[i] = scalars[i] times the generator of G1 (g2: G2), as affine points
 * (g1_affine_t or g2_affine_t arrays of n), by the setup's fixed-base tables
 * (setup.c), in tasks on pool. For setups other than groth16_setup (the
 * snarkjs powers of tau, snarkjs_ptau.c). Returns 0 or GM_ENOMEM. */
int groth16_fixed_base_gen(void *out, bool g2, const fr_t *scalars, size_t n, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_GROTH16_H */
