/*
 * mpi/split_internal.h — what mpi/split.c (the driver of a split proof and
 * the source of a parameter file with a built-in circuit) shares with
 * mpi/split_snarkjs.c (the source of a zkey and a .wtns). No other folder
 * includes it.
 *
 * A source is what differs between the two kinds of proof: whose key
 * slices a rank holds, how its rows of a, b, c are made, how its partial
 * MSMs pick their scalars and how rank 0 assembles and checks the proof.
 * The driver (mpi_split_run) does the rest the same way for both: the
 * agreements, the split NTTs of h, the gather of the partial sums to rank
 * 0, the accounts.
 */
#ifndef GM_MPI_SPLIT_INTERNAL_H
#define GM_MPI_SPLIT_INTERNAL_H

#include "mpi/mpi.h"

/* The partial sums one rank sends to rank 0 (for a zkey, l holds the sum
 * over section 8, C). */
typedef struct {
    g1_jac_t a, b_g1, l, h;
    g2_jac_t b_g2;
} mpi_split_sums_t;

/* How h is made from a, b, c on the domain of m values. */
typedef enum {
    /* bellperson's (groth16/prove.c): iNTT, coset NTT on FR_GENERATOR's coset,
     * (a·b − c)/Z, coset iNTT; h in the natural slices (those of the m − 1
     * H points). */
    MPI_SPLIT_H_BELLPERSON = 0,
    /* snarkjs's (snarkjs/prove.c): iNTT, NTT on the odd coset (shift w_2m),
     * a·b − c with no division, then into snarkjs's order of its m H points
     * (mpi_split_ntt_odd_permute by SNARKJS_ROOT_EXP). */
    MPI_SPLIT_H_SNARKJS,
} mpi_split_h_kind_t;

typedef struct {
    void *arg;
    mpi_split_h_kind_t h_kind;
    /* This rank's share of the key (and whatever else the source reads):
     * *log_m the domain's size (2..28), *key_bytes and *points for the
     * accounts. Local (no MPI). Returns 0 or a status, err naming file and
     * field. */
    int (*load)(void *arg, int rank, int nranks, topo_pool_t *pool, unsigned *log_m, uint64_t *key_bytes,
                uint64_t *points, err_t *err);
    /* NULL for a source whose load reads what it needs (a parameter file).
     * A zkey's load reads its share of section 4 by index and the entries
     * go to the ranks whose rows hold them (stage "coefs"), after the
     * load's agreement: share gives this rank's entries, *size bytes each
     * (plain data), grouped by destination rank in rank order, to[r] of
     * them for rank r; shared takes those every rank sent this one
     * (gm_alloc'd, n of them; on one rank, share's own records back: no
     * exchange, no copy) and ends the load with them (*key_bytes
     * updated). Local. Returns 0 or a status. */
    void (*share)(void *arg, const void **recs, const uint64_t **to, size_t *size);
    int (*shared)(void *arg, void *recs, uint64_t n, uint64_t *key_bytes, err_t *err);
    /* a, b, c at rows [lo, hi) of the domain in our NTT's order (zero where
     * the circuit has no row), hi - lo values each. After a successful load. */
    void (*rows)(void *arg, fr_t *a, fr_t *b, fr_t *c, uint64_t lo, uint64_t hi, topo_pool_t *pool);
    /* The partial MSMs of this rank's slices; h: this rank's slice of the H
     * query's scalars. Local. Returns 0 or a status. */
    int (*msms)(void *arg, mpi_split_sums_t *sums, const fr_t *h, topo_pool_t *pool, err_t *err);
    /* Rank 0: the proof from the sums of all ranks and r, s, checked unless
     * GROTH16_PROVE_NO_VERIFY. Returns 0, GM_EVERIFY or a status. */
    int (*assemble)(void *arg, groth16_proof_t *proof, const mpi_split_sums_t *sum, const fr_t rs[2], err_t *err);
} mpi_split_source_t;

/* Proves one proof of src on the ranks of comm (an MPI_Comm *, NULL: the
 * world); rs NULL: rank 0 draws r, s and sends them. As mpi_split_prove
 * documents for the outputs and the returns. */
int mpi_split_run(groth16_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_source_t *src, const fr_t *rs,
                  const void *comm, topo_pool_t *pool, err_t *err) __attribute__((warn_unused_result));

/* The same for BN254 (a bn128 zkey; only snarkjs's h): the sums, the
 * source and the driver (mpi/split.c's second instance of
 * mpi/split_run_shape.h) with bn_ types, each member's contract its
 * namesake's above. */
typedef struct {
    bn_g1_jac_t a, b_g1, l, h;
    bn_g2_jac_t b_g2;
} mpi_split_bn_sums_t;

typedef struct {
    void *arg;
    mpi_split_h_kind_t h_kind;
    int (*load)(void *arg, int rank, int nranks, topo_pool_t *pool, unsigned *log_m, uint64_t *key_bytes,
                uint64_t *points, err_t *err);
    void (*share)(void *arg, const void **recs, const uint64_t **to, size_t *size);
    int (*shared)(void *arg, void *recs, uint64_t n, uint64_t *key_bytes, err_t *err);
    void (*rows)(void *arg, bn_fr_t *a, bn_fr_t *b, bn_fr_t *c, uint64_t lo, uint64_t hi, topo_pool_t *pool);
    int (*msms)(void *arg, mpi_split_bn_sums_t *sums, const bn_fr_t *h, topo_pool_t *pool, err_t *err);
    int (*assemble)(void *arg, snarkjs_bn_proof_t *proof, const mpi_split_bn_sums_t *sum, const bn_fr_t rs[2],
                    err_t *err);
} mpi_split_bn_source_t;

int mpi_split_bn_run(snarkjs_bn_proof_t *proof, mpi_split_rank_t **ranks, const mpi_split_bn_source_t *src,
                     const bn_fr_t *rs, const void *comm, topo_pool_t *pool, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_MPI_SPLIT_INTERNAL_H */
