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
#include "synth/porep/porep.h"
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

/* Wall-clock nanoseconds per stage, summed over the proofs of a call; and
 * the CPU nanoseconds of the stages (cpu_*: the calling thread plus every
 * thread of the pool, topo_pool_cpu_ns, so they count all the workers and
 * are only right while no one else runs jobs on that pool; cpu_msm covers
 * the five MSMs and the assembly of A, B, C). snarkjs_prove fills the wall
 * times only. */
typedef struct {
    uint64_t abc, ntt, msm_a, msm_b_g1, msm_b_g2, msm_l, msm_h, verify, total;
    uint64_t cpu_abc, cpu_ntt, cpu_msm, cpu_verify;
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

/* Bytes of scratch the prover holds (for the memory report): the prepare
 * stage's second m-vector and NTT scratch, and the MSM scratch; not the
 * prepared units, which groth16_prepared_bytes counts. */
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
 * fields. Returns 0, GM_EINVAL (a unit that is not prepared, or made for
 * another prover; pool too large), GM_EVERIFY (err names the unit by its
 * index in units), GM_ESYS (getrandom). out undefined on failure. */
int groth16_finish(groth16_prover_t *pv, groth16_proof_t *out, groth16_prepared_t *const *units, size_t k,
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
 *  porep           one partition of the SDR PoRep circuit (synth's
 *                  StackedCircuit) for a sector size: 2,687,921 constraints
 *                  and 40 inputs at 2 KiB; the seeded witness is synth's
 *                  random consistent one (stacked_witness_random), a real one
 *                  comes from a C1 file (groth16_circuit_c1_witness). */
typedef enum {
    GROTH16_CIRCUIT_TEST_MUL = 0,
    GROTH16_CIRCUIT_TEST_SYNTHETIC = 1,
    GROTH16_CIRCUIT_TEST_SHA256 = 2,
    GROTH16_CIRCUIT_POREP = 3,
} groth16_circuit_kind_t;

typedef struct {
    groth16_circuit_kind_t kind;
    uint64_t size;   /* synthetic: constraints (rows); sha256: compressions; porep: sector bytes */
    char id[64];     /* the cache key: "test-mul", "test-synthetic-1024", "test-sha256-2", "porep-2048-v2" */
} groth16_circuit_t;

/* Parses a circuit name and its size argument (size 0: the default, 1024
 * rows / 1 compression; for porep, sector_size is required, e.g. "2KiB").
 * Returns 0, GM_EINVAL (unknown name, bad size; err lists the names). */
int groth16_circuit_parse(groth16_circuit_t *out, const char *name, uint64_t size, const char *sector_size,
                          err_t *err) __attribute__((warn_unused_result));

/* Records the circuit's shape. Returns 0, GM_ENOMEM or synth's errors. */
int groth16_circuit_shape(cs_shape_t **out, const groth16_circuit_t *c, err_t *err)
    __attribute__((warn_unused_result));

/* Synthesizes a satisfying witness chosen by seed into a new CS_WITNESS cs_t
 * (*out; the caller reads cs_input_values / cs_aux_values and destroys it).
 * Returns as groth16_circuit_shape. */
int groth16_circuit_witness(cs_t **out, const groth16_circuit_t *c, uint64_t seed, err_t *err)
    __attribute__((warn_unused_result));

/* As groth16_circuit_witness in mode CS_WITNESS or CS_CHECK (synth.h): in
 * CS_CHECK every constraint is evaluated as it is enforced, without
 * matrices, and cs_is_satisfied on *out names the first one that fails.
 * Returns as groth16_circuit_witness, or GM_EINVAL for another mode. */
int groth16_circuit_witness_mode(cs_t **out, const groth16_circuit_t *c, uint64_t seed, cs_mode_t mode, err_t *err)
    __attribute__((warn_unused_result));

/* ---- PoRep partitions from C1 (SealCommitPhase1Output) ------------------------
 * c1 is what porep_c1_read returns; partition k is 0 .. c1->partitions - 1. */

/* The porep circuit of the C1's sector size (id "porep-<bytes>"). Returns 0
 * or GM_EINVAL (a size, challenge count, partition count or layer count the
 * circuit does not have; err names both). */
int groth16_circuit_from_c1(groth16_circuit_t *out, const porep_c1_t *c1, err_t *err)
    __attribute__((warn_unused_result));

/* Synthesizes the witness of partition k from the C1's vanilla proofs into a
 * new CS_WITNESS cs_t (*out, as groth16_circuit_witness). c must be
 * groth16_circuit_from_c1's circuit. The witness's public inputs are those
 * the vanilla proofs carry; groth16_porep_c1_inputs gives the ones a
 * verifier derives, which the caller should compare. Returns 0, GM_EINVAL
 * (k out of range, another circuit, a C1 value that is not a field
 * element), GM_ENOMEM or synth's errors. */
int groth16_circuit_c1_witness(cs_t **out, const groth16_circuit_t *c, const porep_c1_t *c1, unsigned k,
                               err_t *err) __attribute__((warn_unused_result));

/* As groth16_circuit_c1_witness in mode CS_WITNESS or CS_CHECK (see
 * groth16_circuit_witness_mode). */
int groth16_circuit_c1_witness_mode(cs_t **out, const groth16_circuit_t *c, const porep_c1_t *c1, unsigned k,
                                    cs_mode_t mode, err_t *err) __attribute__((warn_unused_result));

/* The SDR graph of the C1's registered proof (porep_graph_init with its
 * porep_id and API version; about 0.1 s for 32 GiB). Call
 * porep_graph_destroy after success. Returns 0, GM_ENOTSUP (API 1.2 feature
 * proofs: their challenges are not the interactive ones), or
 * porep_graph_init's errors. */
int groth16_porep_graph(porep_graph_t *g, const porep_c1_t *c1, err_t *err) __attribute__((warn_unused_result));

/* The number of public inputs of one partition, without ONE: 3 + 18 per
 * challenge (39 for 2 KiB .. 512 MiB, 327 for 32 and 64 GiB). */
size_t groth16_porep_input_count(const porep_c1_t *c1);

/* The public inputs of partition k (without ONE) into out
 * (groth16_porep_input_count entries), derived as rust-fil-proofs'
 * StackedCompound::generate_public_inputs does, from the C1's replica_id,
 * comm_d, comm_r and seed and from the graph g (groth16_porep_graph), never
 * from its vanilla proofs: replica_id, comm_d, comm_r, then per challenge
 * c of partition k (porep_challenges_derive): c (comm_d inclusion), the 14
 * parents of c (6 DRG, 8 expander: their comm_c inclusions), c (the
 * challenge), c (comm_r_last inclusion), c (comm_c inclusion). Returns 0,
 * GM_EINVAL (k out of range, g of another size) or GM_ENONCANON (replica_id,
 * comm_d or comm_r is not below r; err names it). */
int groth16_porep_c1_inputs(fr_t *out, const porep_c1_t *c1, const porep_graph_t *g, unsigned k, err_t *err)
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

/* ==== parameter digests and manifests (groth16/manifest.c) ================= */
/*
 * The digest of a parameter file is Filecoin's: BLAKE2b-512 of the whole
 * file, lower-case hex, the first GROTH16_DIGEST_HEX characters (as in
 * rust-fil-proofs' parameters.json). A manifest is a JSON object keyed by
 * file name (no directory): {"<name>": {"digest": "<32 hex>", "size": N,
 * "circuit": "<id>"}}; a Filecoin parameters.json ({"<name>": {"cid",
 * "digest", "sector_size"}}) reads the same way (only "digest" is needed).
 * The file a cache directory keeps is GROTH16_MANIFEST_NAME.
 */
#define GROTH16_DIGEST_HEX 32
#define GROTH16_MANIFEST_NAME "manifest.json"

/* The digest of the file at path (NUL-terminated hex into out) and, when size
 * is not NULL, its length in bytes; the file is read once, sequentially.
 * Returns 0, GM_EIO (open/read: err names the path), GM_ENOMEM or GM_ESYS
 * (libcrypto without BLAKE2b). */
int groth16_file_digest(char out[GROTH16_DIGEST_HEX + 1], uint64_t *size, const char *path, err_t *err)
    __attribute__((warn_unused_result));

/* Checks digest (of the file named file, for messages) against manifest's
 * entry for name. *listed: true when the entry exists and matches. A missing
 * manifest or a manifest without the name is not an error (*listed false,
 * returns 0): the caller decides. Returns 0, GM_EVERIFY (listed with another
 * digest: err names file, both digests and the manifest), GM_EFORMAT (the
 * manifest is not JSON, not an object, or the entry has no 32-hex-digit
 * "digest": err names the manifest and the key) or GM_EIO. */
int groth16_manifest_check(bool *listed, const char *manifest, const char *name, const char *digest,
                           const char *file, err_t *err) __attribute__((warn_unused_result));

/* Sets manifest's entry for name to {digest, size, circuit} (circuit may be
 * NULL: no key), creating the manifest when missing and keeping every other
 * entry; written atomically. Returns 0, GM_EFORMAT (an existing manifest
 * that does not parse: it is left alone), GM_EIO or GM_ENOMEM. */
int groth16_manifest_record(const char *manifest, const char *name, const char *digest, uint64_t size,
                            const char *circuit, err_t *err) __attribute__((warn_unused_result));

/* The lock of a parameter cache directory: an exclusive flock(2) on
 * DIR/GROTH16_CACHE_LOCK_NAME, so that processes sharing one cache (two Slurm
 * array tasks with "setup": "auto", a `grothmpi setup` next to a campaign)
 * generate each parameter set once and never lose each other's manifest
 * entries. Hold it from "are the files there?" to the manifest record.
 * *fd receives the lock for groth16_cache_unlock. With block false, a lock
 * held by another process returns GM_ESTATE at once instead of waiting, so
 * the caller can say why it is about to wait and then call again with block
 * true. A directory where the lock file cannot be created (missing or
 * read-only: nothing can be generated or recorded there) yields *fd = -1
 * and 0. Returns 0, GM_ESTATE (held elsewhere, block false) or GM_EIO (err
 * names the lock file). */
#define GROTH16_CACHE_LOCK_NAME ".grothmpi-lock"
int groth16_cache_lock(int *fd, const char *dir, bool block, err_t *err) __attribute__((warn_unused_result));

/* Releases a lock from groth16_cache_lock; -1 is allowed. */
void groth16_cache_unlock(int fd);

/* ==== snarkjs and circom interoperability (groth16/snarkjs_*.c) ============ */
/*
 * circom's `.r1cs` and `.wtns`, snarkjs's Groth16 `.zkey` (BLS12-381 only),
 * and snarkjs's `proof.json`, `public.json` and `verification_key.json`.
 * Layouts: docs/snarkjs.md. Files of another curve (bn128, ...), protocol
 * (plonk, fflonk) or a newer container version are rejected with
 * GM_ENOTSUP; truncated or inconsistent files with GM_EFORMAT, the message
 * naming file, section and value: "c.zkey: section 9 (PointsH): 1234 bytes,
 * expected domainSize * 96 = 393216". Nothing is trusted before it is
 * range-checked, so no input can make these readers read out of bounds.
 * Field values in the structures below are ordinary reduced fr_t (the files'
 * standard or Montgomery encodings are converted on reading).
 */

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
 * r (GM_ENOTSUP naming the curve otherwise), nPubOut + nPubIn + nPrvIn <
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

/* One section-4 entry of a zkey: value times w[signal] is added to row
 * `constraint` of matrix A (matrix 0) or B (matrix 1). */
typedef struct {
    uint32_t matrix, constraint, signal;
    fr_t value;   /* the coefficient itself (the file's coef 2^512 mod r, converted) */
} snarkjs_coef_t;

/* A Groth16 proving key (.zkey). The vk holds alpha_g1, beta_g1, beta_g2,
 * gamma_g2, delta_g1, delta_g2 and ic (nPublic + 1 points). */
typedef struct {
    uint32_t n_vars, n_public, domain_size, log_domain;
    groth16_vk_t vk;
    snarkjs_coef_t *coefs;
    uint64_t n_coefs;
    g1_affine_t *a, *b1;   /* n_vars each */
    g2_affine_t *b2;       /* n_vars */
    g1_affine_t *c;        /* n_vars - n_public - 1 */
    g1_affine_t *h;        /* domain_size */
} snarkjs_zkey_t;

typedef enum {
    /* Every point: canonical coordinates, on the curve (infinity allowed, as
     * snarkjs writes it for unused wires); the vk points also in the subgroup. */
    SNARKJS_ZKEY_DEFAULT = 0,
    /* Also check every point of sections 5-9 for the subgroup (about 50 us
     * per G1 point on one core: seconds for large keys). */
    SNARKJS_ZKEY_SUBGROUP = 1 << 0,
} snarkjs_zkey_flags_t;

/* Decodes a zkey from buf[0 .. n): container "zkey" version <= 2 (section
 * ids looked up, any order), section 1 protocol = 1 (Groth16; plonk and
 * fflonk are GM_ENOTSUP), section 2 the 964-byte header with n8q = 48, q and
 * n8r = 32, r of BLS12-381 (other curves GM_ENOTSUP), nPublic < nVars,
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
/* Maps the file at path and decodes it (GM_EIO when it cannot be read). */
int snarkjs_zkey_load(snarkjs_zkey_t **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                      err_t *err) __attribute__((warn_unused_result));
void snarkjs_zkey_free(snarkjs_zkey_t *zk);   /* NULL allowed */

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
 * the zkey is inconsistent), GM_ESYS (getrandom). out undefined on failure. */
int snarkjs_prove(snarkjs_prover_t *pv, groth16_proof_t *out, const fr_t *w, size_t n, const fr_t *rs,
                  groth16_prove_flags_t flags, topo_pool_t *pool, groth16_timings_t *times, err_t *err)
    __attribute__((warn_unused_result));

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

#endif /* GM_GROTH16_H */
