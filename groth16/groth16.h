/*
 * groth16/groth16.h — Groth16 over BLS12-381 on the CPU: a test setup from a
 * recorded circuit shape, the prover (single and batched), the verifier
 * (prepared key, single and batch), and the file formats of parameters,
 * verifying keys and proofs in bellperson's encodings, so that Filecoin
 * `.params` / `.vk` files and grothmpi's own are read by the same code.
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
 *    calling thread). No function here starts threads, prints or exits.
 *  - Files are written atomically: a temporary name in the same directory,
 *    fsync, rename, fsync of the directory; on failure the temporary file is
 *    removed and the target is untouched.
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
 */
#ifndef GM_GROTH16_H
#define GM_GROTH16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
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

/* Frees the decoded points and the vk; NULL allowed. */
void groth16_params_free(groth16_params_t *p);

/* The loaded key and section counts (valid while p lives). */
const groth16_vk_t *groth16_params_vk(const groth16_params_t *p);
void groth16_params_counts(groth16_counts_t *out, const groth16_params_t *p);
/* Bytes of decoded points held. */
size_t groth16_params_memory(const groth16_params_t *p);

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
 * vk_path (either may be NULL to skip it; both atomic). The points are
 * computed with fixed-base window tables in chunks on pool and streamed to
 * the file, so memory holds O(n) scalars and one chunk of points, not the
 * parameters. Returns 0, GM_EINVAL (shape too small or too large, an aux
 * variable in no constraint: bellperson's UnconstrainedVariable; a non-empty
 * column that evaluates to 0 at tau, or Z(tau) = 0: try another seed),
 * GM_ENOMEM, GM_EIO (err names the file). */
int groth16_setup(const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                  const char *vk_path, topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));

/* ==== prover ============================================================== */

/* One witness: z = (inputs, aux) as cs_input_values / cs_aux_values give it;
 * n_inputs includes ONE (inputs[0] must be 1). */
typedef struct {
    const fr_t *inputs;
    size_t n_inputs;
    const fr_t *aux;
    size_t n_aux;
} groth16_witness_t;

/* Wall-clock nanoseconds per stage, summed over the proofs of a call. */
typedef struct {
    uint64_t abc, ntt, msm_a, msm_b_g1, msm_b_g2, msm_l, msm_h, verify, total;
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
 * sizes the scratch); it must be the one passed to groth16_prove. */
int groth16_prover_create(groth16_prover_t **out, const groth16_params_t *params, const cs_shape_t *shape,
                          topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));
/* Frees the prover's buffers (not the params or the shape); NULL allowed. */
void groth16_prover_destroy(groth16_prover_t *pv);

/* Bytes of scratch the prover holds (for the memory report). */
size_t groth16_prover_memory(const groth16_prover_t *pv);

/* Proves k witnesses against the prover's parameters (bases shared, each
 * proof with its own scalars), out[i] for w[i]. rs: NULL draws r and s for
 * each proof from getrandom; otherwise 2k values (r_i = rs[2i], s_i =
 * rs[2i + 1]), for known-answer tests only. Unless GROTH16_PROVE_NO_VERIFY,
 * each proof is verified against the params' vk and the witness's inputs
 * before it is returned. times (may be NULL) receives the stage sums.
 * Returns 0, GM_EINVAL (a witness's counts differ from the shape, or
 * inputs[0] != 1; err names the witness), GM_EVERIFY (a proof failed its
 * check: the witness does not satisfy the circuit, or the parameters are not
 * for it; err names the witness), GM_ESYS (getrandom). out is undefined on
 * failure. */
int groth16_prove(groth16_prover_t *pv, groth16_proof_t *out, const groth16_witness_t *w, size_t k,
                  const fr_t *rs, groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times,
                  err_t *err) __attribute__((warn_unused_result));

/* ==== built-in circuits ================================================== */

/* The circuits `grothmpi setup|prove --circuit` know. Test circuits:
 *  test-mul        x * y = t, t * x = out (out public): 2 constraints;
 *  test-synthetic  n_rows = `size` (a power of two >= 8): a random-ish chain
 *                  of squares, products, linear steps and bits, so A and B
 *                  are sparse in different columns and scalars 0/1 occur;
 *  test-sha256     `size` chained SHA-256 compressions (synth's gadget) of
 *                  private blocks, the digest packed into 2 public inputs;
 *  porep           the SDR PoRep partition circuit for a sector size (a hook:
 *                  GM_ENOTSUP until synth/ provides StackedCircuit). */
typedef enum {
    GROTH16_CIRCUIT_TEST_MUL = 0,
    GROTH16_CIRCUIT_TEST_SYNTHETIC = 1,
    GROTH16_CIRCUIT_TEST_SHA256 = 2,
    GROTH16_CIRCUIT_POREP = 3,
} groth16_circuit_kind_t;

typedef struct {
    groth16_circuit_kind_t kind;
    uint64_t size;   /* synthetic: constraints (rows); sha256: compressions; porep: sector bytes */
    char id[64];     /* the cache key: "test-mul", "test-synthetic-1024", "test-sha256-2", "porep-2048" */
} groth16_circuit_t;

/* Parses a circuit name and its size argument (size 0: the default, 1024
 * rows / 1 compression; for porep, sector_size is required, e.g. "2KiB").
 * Returns 0, GM_EINVAL (unknown name, bad size; err lists the names). */
int groth16_circuit_parse(groth16_circuit_t *out, const char *name, uint64_t size, const char *sector_size,
                          err_t *err) __attribute__((warn_unused_result));

/* Records the circuit's shape. Returns 0, GM_ENOTSUP (porep, for now),
 * GM_ENOMEM or synth's errors. */
int groth16_circuit_shape(cs_shape_t **out, const groth16_circuit_t *c, err_t *err)
    __attribute__((warn_unused_result));

/* Synthesizes a satisfying witness chosen by seed into a new CS_WITNESS cs_t
 * (*out; the caller reads cs_input_values / cs_aux_values and destroys it).
 * Returns as groth16_circuit_shape. */
int groth16_circuit_witness(cs_t **out, const groth16_circuit_t *c, uint64_t seed, err_t *err)
    __attribute__((warn_unused_result));

/* ==== files ================================================================ */

/* Writes buf[0 .. len) to path atomically (temporary name, fsync, rename,
 * directory fsync). Returns 0 or GM_EIO (err names the path and the call). */
int groth16_write_file(const char *path, const void *buf, size_t len, err_t *err)
    __attribute__((warn_unused_result));

/* Reads a whole file into a gm_alloc'd buffer (*out, *len; an empty file
 * gives a 1-byte buffer and len 0). Returns 0, GM_EIO or GM_ENOMEM. */
int groth16_read_file(uint8_t **out, size_t *len, const char *path, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_GROTH16_H */
