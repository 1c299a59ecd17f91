/*
 * circuits/circuits.h — the catalogue of circuits grothmpi proves by name:
 * the built-in test circuits, and Filecoin's PoRep partition (synth/porep's
 * StackedCircuit) with its witness and public inputs from a C1 file. It sits
 * above groth16/ and synth/porep/ so that Groth16 itself knows no circuit.
 *
 * Conventions: those of base/base.h (status codes, err_t); witnesses are
 * synth/ cs_t objects in CS_WITNESS (or CS_CHECK) mode.
 */
#ifndef GM_CIRCUITS_H
#define GM_CIRCUITS_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ff/ff.h"
#include "synth/porep/porep.h"
#include "synth/synth.h"


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
 *                  comes from a C1 file (circuit_witness with a C1 source). */
typedef enum {
    CIRCUIT_TEST_MUL = 0,
    CIRCUIT_TEST_SYNTHETIC = 1,
    CIRCUIT_TEST_SHA256 = 2,
    CIRCUIT_POREP = 3,
} circuit_kind_t;

typedef struct {
    circuit_kind_t kind;
    uint64_t size;   /* synthetic: constraints (rows); sha256: compressions; porep: sector bytes */
    char id[64];     /* the cache key: "test-mul", "test-synthetic-1024", "test-sha256-2", "porep-2048-v2" */
} circuit_t;

/* Parses a circuit name and its size argument (size 0: the default, 1024
 * rows / 1 compression; for porep, sector_size is required, e.g. "2KiB").
 * Returns 0, GM_EINVAL (unknown name, bad size; err lists the names). */
int circuit_parse(circuit_t *out, const char *name, uint64_t size, const char *sector_size,
                          err_t *err) __attribute__((warn_unused_result));

/* Records the circuit's shape. Returns 0, GM_ENOMEM or synth's errors. */
int circuit_shape(cs_shape_t **out, const circuit_t *c, err_t *err)
    __attribute__((warn_unused_result));

/* Where a witness comes from, and how it is kept (circuit_witness).
 * Zero-initialise and set what applies; mode must be set. */
typedef struct {
    /* The source. c1 NULL: the satisfying witness chosen by seed (the test
     * circuits' value stream; porep: synth's random consistent vanilla
     * proofs). c1 set: partition `partition` (0 .. c1->partitions - 1) of
     * that C1 (porep_c1_read's), whose witness comes from its vanilla
     * proofs and whose public inputs are then checked against those a
     * verifier derives (circuit_porep_c1_inputs over graph, which must be
     * circuit_porep_graph of the same C1): a C1 whose vanilla proofs name
     * other nodes than the graph and seed give never yields a witness. */
    uint64_t seed;
    const porep_c1_t *c1;
    const porep_graph_t *graph; /* with c1: required */
    unsigned partition;         /* with c1 */
    /* CS_WITNESS, or CS_CHECK (every constraint evaluated as it is
     * enforced, without matrices; cs_is_satisfied on *out names the first
     * one that fails). */
    cs_mode_t mode;
    /* cs_create's flags (synth.h): CS_FLAG_COMPACT keeps the aux values
     * compact while synthesizing (a PoRep partition: about 1 B per value
     * instead of 32), so the dense array never exists. */
    cs_flags_t flags;
} circuit_witness_opts_t;

/* Synthesizes the witness of circuit c that o names into a new cs_t of
 * o->mode (*out; the caller reads cs_input_values / cs_aux_values, or
 * groth16_witness_of, and destroys it; NULL after a failure). With a C1
 * source c must be circuit_from_c1's circuit of that C1, and every error
 * message begins "partition K: ". Returns 0; GM_EINVAL (a mode other than
 * CS_WITNESS or CS_CHECK; with a C1: another circuit, a partition out of
 * range, a C1 value that is not a field element); GM_EVERIFY (with a C1: a
 * public input of the witness differs from the derived one: err names
 * its index and both values); GM_ENONCANON (a C1 commitment not below
 * r); GM_ENOMEM or synth's errors. */
int circuit_witness(cs_t **out, const circuit_t *c, const circuit_witness_opts_t *o, err_t *err)
    __attribute__((warn_unused_result));

/* ---- PoRep partitions from C1 (SealCommitPhase1Output) ------------------------
 * c1 is what porep_c1_read returns; partition k is 0 .. c1->partitions - 1. */

/* The porep circuit of the C1's sector size (id "porep-<bytes>"). Returns 0
 * or GM_EINVAL (a size, challenge count, partition count or layer count the
 * circuit does not have; err names both). */
int circuit_from_c1(circuit_t *out, const porep_c1_t *c1, err_t *err)
    __attribute__((warn_unused_result));

/* The SDR graph of the C1's registered proof (porep_graph_init with its
 * porep_id and API version; about 0.1 s for 32 GiB). Call
 * porep_graph_destroy after success. Returns 0 or porep_graph_init's
 * errors. */
int circuit_porep_graph(porep_graph_t *g, const porep_c1_t *c1, err_t *err) __attribute__((warn_unused_result));

/* The number of public inputs of one partition, without ONE: 3 + 18 per
 * challenge (39 for 2 KiB .. 512 MiB, 327 for 32 and 64 GiB). */
size_t circuit_porep_input_count(const porep_c1_t *c1);

/* The public inputs of partition k (without ONE) into out
 * (circuit_porep_input_count entries): porep_public_inputs (synth/porep) of
 * the C1's replica_id, comm_d, comm_r and seed, with the challenges of its
 * registered proof's kind (interactive, synthetic or NI), never from its
 * vanilla proofs. g is circuit_porep_graph's. Returns 0, GM_EINVAL (k out of
 * range, g of another size, a C1 whose partition or challenge count is not
 * its proof's) or GM_ENONCANON (replica_id, comm_d or comm_r is not below r;
 * err names it). */
int circuit_porep_c1_inputs(fr_t *out, const porep_c1_t *c1, const porep_graph_t *g, unsigned k, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_CIRCUITS_H */
