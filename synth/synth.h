/*
 * synth/synth.h — the R1CS engine (constraint system with four backends), the
 * gadgets Filecoin's circuits are built from (bits, UInt32/UInt64, numbers,
 * multipacking, SHA-256, Poseidon, insertion, Merkle inclusion, labels), and
 * the SDR PoRep "StackedCircuit" for every Filecoin sector size.
 *
 * Conventions (besides base/base.h's):
 *  - A circuit is written once against cs_t and runs unchanged in every mode:
 *      CS_COUNT    counts constraints and variables, builds nothing;
 *      CS_SHAPE    records A, B, C as CSR matrices (cs_shape_t);
 *      CS_WITNESS  stores variable values, enforce does nothing;
 *      CS_CHECK    stores values and evaluates every constraint as it is
 *                  enforced, remembering the first one that fails by name.
 *    Gadgets always compute values; in COUNT and SHAPE mode the caller passes
 *    no witness and values are zeros that nobody reads.
 *  - Numbering follows bellperson: input 0 is the constant ONE; inputs and aux
 *    variables are numbered in allocation order; z = (inputs, aux). A shape
 *    gets one `input_i * 0 = 0` constraint per input appended after the
 *    circuit's own constraints (as bellperson's prover adds them).
 *  - Field elements are fr_t (ff/ff.h: Montgomery, reduced). Bits inside
 *    vectors are in the order the named gadget documents (LE or BE).
 *  - Errors during synthesis (out of memory, an unsatisfiable constant
 *    equality) are sticky: the cs_t records the first one, every later call is
 *    a cheap no-op, and the caller asks cs_status() at the end. Gadgets
 *    therefore return no status.
 *  - Linear combinations live in an arena owned by the cs_t: nothing is
 *    allocated per constraint or per linear combination once the arena and
 *    the value/shape arrays have grown to their working size.
 *  - Thread safety: a cs_t is used by one thread. Constant contexts
 *    (poseidon_t, stacked_config_t) are read-only after init and shareable.
 *    cs_shape_abc runs on a topo pool and only reads the shape.
 */
#ifndef GM_SYNTH_H
#define GM_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ff/ff.h"
#include "topo/topo.h"

/* ==== constraint system =================================================== */

/* A variable: an input (bit 31 clear; input 0 is ONE) or an aux variable
 * (bit 31 set), with its index in the low 31 bits. */
typedef uint32_t cs_var_t;
#define CS_VAR_AUX 0x80000000u
#define CS_ONE ((cs_var_t)0)

typedef enum {
    CS_COUNT = 0,
    CS_SHAPE = 1,
    CS_WITNESS = 2,
    CS_CHECK = 3,
} cs_mode_t;

/* Flags for cs_create; zero is the fast default. */
typedef enum {
    CS_FLAG_NONE = 0,
    /* Keep namespace paths (cs_ns_push) even outside CS_CHECK mode, where
     * they are always kept. Costs a string format per push. */
    CS_FLAG_NAMES = 1,
    /* WITNESS/CHECK: keep the aux values in the compact form (cs_compact_t:
     * the values 0 and 1 as bits, the others dense) instead of 32 bytes
     * each; cs_aux_values then returns NULL and cs_aux_compact the values.
     * For witnesses that are mostly bits (PoRep: about 98 %), so that the
     * full 32 B/value array never exists. Inputs stay dense. */
    CS_FLAG_COMPACT = 2,
} cs_flags_t;

/* Which side of a constraint a term goes to. */
typedef enum { CS_A = 0, CS_B = 1, CS_C = 2 } cs_side_t;

typedef struct cs cs_t;

/* A linear combination stored in the cs_t's arena: a handle, valid until the
 * arena is released below it (cs_arena_release). Copying the struct copies the
 * handle, not the terms. In COUNT and WITNESS mode it stays empty. */
typedef struct {
    uint32_t off, n, cap;
} cs_lc_t;

/* Creates an empty constraint system in the given mode: ONE is allocated as
 * input 0. Returns 0 or GM_ENOMEM (*out NULL). */
int cs_create(cs_t **out, cs_mode_t mode, cs_flags_t flags, err_t *err) __attribute__((warn_unused_result));

/* Frees everything it owns (a shape taken by cs_shape_take is the caller's);
 * NULL is allowed. */
void cs_destroy(cs_t *cs);

/* The mode it was created in. */
cs_mode_t cs_mode(const cs_t *cs);

/* Reserves room for n_aux aux values (WITNESS/CHECK) so that synthesis does
 * not grow the value array; a hint, never required. Failure is sticky. */
void cs_reserve(cs_t *cs, uint64_t n_aux, uint64_t n_inputs);

/* 0 when synthesis has gone well so far; otherwise the first error's code,
 * with its message copied into *err (when err != NULL): GM_ENOMEM, GM_EINVAL
 * (an index space overflowed 2^31 variables) or GM_EVERIFY (a gadget met an
 * unsatisfiable constant equality). */
int cs_status(const cs_t *cs, err_t *err) __attribute__((warn_unused_result));

/* Counts so far: constraints enforced by the circuit (without the per-input
 * constraints of a shape), inputs including ONE, and aux variables. */
uint64_t cs_num_constraints(const cs_t *cs);
uint64_t cs_num_inputs(const cs_t *cs);
uint64_t cs_num_aux(const cs_t *cs);

/* Allocates an aux (cs_alloc) or input (cs_alloc_input) variable with the
 * given value (stored in WITNESS/CHECK mode, ignored otherwise). cs_alloc_bit
 * is cs_alloc of 0 or 1. After a sticky error they return CS_ONE. */
cs_var_t cs_alloc(cs_t *cs, const fr_t *value);
cs_var_t cs_alloc_bit(cs_t *cs, bool value);
cs_var_t cs_alloc_input(cs_t *cs, const fr_t *value);

/* The stored value of a variable (WITNESS/CHECK mode; ONE in any mode). In
 * COUNT/SHAPE mode it writes zero. v must have been allocated. */
void cs_value(const cs_t *cs, fr_t *out, cs_var_t v);

/* Overwrites a stored value (WITNESS/CHECK): for tests that break a witness
 * on purpose. A no-op in other modes. */
void cs_set_value(cs_t *cs, cs_var_t v, const fr_t *value);

/* Small constants owned by the cs_t (valid while it lives): 1, -1, 2^k for
 * k < 256, -(2^k). */
const fr_t *cs_fr_one(const cs_t *cs);
const fr_t *cs_fr_minus_one(const cs_t *cs);
const fr_t *cs_fr_pow2(const cs_t *cs, unsigned k);
const fr_t *cs_fr_neg_pow2(const cs_t *cs, unsigned k);

/* ---- enforcing a constraint: A * B = C --------------------------------------
 * cs_enforce_begin clears the three pending sides; cs_term* add to one side;
 * cs_enforce_end records (SHAPE), evaluates (CHECK) or just counts the
 * constraint. name is a string literal or anything that lives until the call
 * returns; it is used only in CHECK mode and with CS_FLAG_NAMES. Terms may
 * repeat a variable; they are merged (coefficients added) when recorded.
 * coeff NULL means 1. Begin/end pairs do not nest. */
void cs_enforce_begin(cs_t *cs);
void cs_term(cs_t *cs, cs_side_t side, cs_var_t v, const fr_t *coeff);
/* Adds scale * lc (scale NULL = 1). */
void cs_term_lc(cs_t *cs, cs_side_t side, const cs_lc_t *lc, const fr_t *scale);
void cs_enforce_end(cs_t *cs, const char *name);

/* ---- arena linear combinations (long-lived sums: MultiEq, Poseidon) ------- */

/* Marks the arena top; cs_arena_release drops every LC created after it. */
size_t cs_arena_mark(const cs_t *cs);
void cs_arena_release(cs_t *cs, size_t mark);

/* A new empty LC with room for cap_hint terms (it grows as needed). */
cs_lc_t cs_lc_new(cs_t *cs, uint32_t cap_hint);
/* lc += coeff * v (coeff NULL = 1). */
void cs_lc_add(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *coeff);
/* lc += scale * src (scale NULL = 1); src may not be lc. */
void cs_lc_add_lc(cs_t *cs, cs_lc_t *lc, const cs_lc_t *src, const fr_t *scale);
/* Sorts lc's terms by variable and merges repeats (dropping zero sums), as
 * bellperson's LinearCombination keeps them; adds never merge by
 * themselves. */
void cs_lc_compact(cs_t *cs, cs_lc_t *lc);
/* lc *= scale, term by term. */
void cs_lc_scale(cs_t *cs, cs_lc_t *lc, const fr_t *scale);

/* ---- namespaces ----------------------------------------------------------- */

/* Pushes a path component (printf format) / pops the last one. Formatting is
 * skipped unless the cs_t keeps names (CS_CHECK or CS_FLAG_NAMES); pushes and
 * pops must balance. */
void cs_ns_push(cs_t *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cs_ns_pop(cs_t *cs);

/* ---- checker results ------------------------------------------------------ */

/* CHECK mode: true when every constraint so far held (and inputs were
 * consistent); otherwise false, with the 0-based index of the first failing
 * constraint in *index (when not NULL) and its path "ns/ns/name" in *path
 * (valid while cs lives). Other modes: always true. */
bool cs_is_satisfied(const cs_t *cs, uint64_t *index, const char **path);

/* The values of z = (inputs, aux) (WITNESS/CHECK): pointers valid until the
 * next allocation or cs_destroy. */
const fr_t *cs_input_values(const cs_t *cs);
const fr_t *cs_aux_values(const cs_t *cs);

/* ==== compact values (synth/compact.c) ======================================
 * n values z_0 .. z_{n-1} with the values 0 and 1 kept as bits: bit j of
 * isbit says z_j is 0 or 1, bit j of one says z_j = 1 (set only then), and
 * the other values ("dense") are dense[0 .. n_dense) in index order, dense
 * value number rank[j / 64] + (the clear isbit bits below j in its word)
 * being z_j. Bit j is bit j % 64 of word j / 64; words past n are 0 in
 * isbit and one. Memory: 2 bits + 4 bytes / 64 per value + 32 bytes per
 * dense value (0.95 B per value when 2 % are dense). The arrays are
 * gm_alloc'd and owned by whoever made the form (a cs_t in CS_FLAG_COMPACT
 * mode, or cs_compact_from_values); a reader only reads them. */
typedef struct {
    uint64_t n, n_dense;
    uint64_t *isbit, *one; /* n / 64 + 1 words each */
    uint32_t *rank;        /* n / 64 + 1 counts */
    fr_t *dense;           /* n_dense values, reduced, none of them 0 or 1 */
    uint64_t words_cap, dense_cap; /* capacities (words, values) of the growing arrays */
} cs_compact_t;

/* z_j of c (j < n; GM_ASSERT). */
static inline void cs_compact_get(fr_t *out, const cs_compact_t *c, uint64_t j)
{
    uint64_t w = j >> 6, b = j & 63, m = (1ULL << b) - 1;
    if ((c->isbit[w] >> b) & 1) {
        *out = ((c->one[w] >> b) & 1) ? FR_ONE : FR_ZERO;
        return;
    }
    *out = c->dense[c->rank[w] + (uint64_t)__builtin_popcountll(~c->isbit[w] & m)];
}

/* The index into c->dense of a dense z_j (bit j of isbit clear). */
static inline uint64_t cs_compact_dense_index(const cs_compact_t *c, uint64_t j)
{
    uint64_t w = j >> 6, m = (1ULL << (j & 63)) - 1;
    return c->rank[w] + (uint64_t)__builtin_popcountll(~c->isbit[w] & m);
}

/* Builds the compact form of v[0 .. n) into *out (its own arrays, the dense
 * part sized exactly). Returns 0 or GM_ENOMEM (*out zeroed). */
int cs_compact_from_values(cs_compact_t *out, const fr_t *v, uint64_t n, err_t *err)
    __attribute__((warn_unused_result));

/* out[i] = z_{j0 + i} for j0 <= j < j1 <= n. */
void cs_compact_expand(fr_t *out, const cs_compact_t *c, uint64_t j0, uint64_t j1);

/* Bytes the form holds (its arrays' capacities). */
size_t cs_compact_bytes(const cs_compact_t *c);

/* Frees what cs_compact_from_values made and zeroes *c; NULL allowed. (A
 * cs_t's own form is freed by cs_destroy.) */
void cs_compact_free(cs_compact_t *c);

/* The aux values of a cs_t created with CS_FLAG_COMPACT in WITNESS or CHECK
 * mode (NULL otherwise): valid until the next allocation or cs_destroy. */
const cs_compact_t *cs_aux_compact(const cs_t *cs);

/* ==== shapes (CSR matrices) ================================================= */

/* One matrix in CSR form over the columns of z = (inputs, aux): row r holds
 * the terms [row_ptr[r], row_ptr[r+1]); col[] are z indices, sorted increasing
 * within a row, without duplicates; coeff[] index the shape's coefficient
 * table. */
typedef struct {
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;
    uint32_t *coeff;
} cs_matrix_t;

/* A recorded circuit shape. n_rows = n_constraints + n_inputs (the appended
 * input constraints). Coefficient 0 of the table is always 1 and 1 is -1. */
typedef struct {
    uint64_t n_constraints; /* the circuit's own */
    uint64_t n_rows;
    uint64_t n_inputs; /* including ONE */
    uint64_t n_aux;
    uint32_t n_coeffs;
    fr_t *coeffs;
    cs_matrix_t m[3]; /* A, B, C */
    void *map;        /* a loaded shape: the file's read-only mapping that m[] point into; NULL when recorded */
    size_t map_bytes;
} cs_shape_t;

/* SHAPE mode, after synthesis: appends the input constraints, finalizes the
 * matrices and hands them to the caller (*out, free with cs_shape_free). The
 * cs_t can then only be destroyed. Returns 0, GM_ESTATE (not SHAPE mode or
 * already taken), the sticky synthesis error, or GM_ENOMEM. */
int cs_shape_take(cs_t *cs, cs_shape_t **out, err_t *err) __attribute__((warn_unused_result));

void cs_shape_free(cs_shape_t *shape);

/* Number of non-zero terms of matrix m (0, 1, 2 for A, B, C). */
uint64_t cs_shape_nnz(const cs_shape_t *shape, int m);

/* Writes the shape to dir/<circuit_id>.shape atomically (gm_afile_*). circuit_id: 1..100 characters from [A-Za-z0-9._-]. Returns 0,
 * GM_EINVAL (bad id) or GM_EIO (err names the path and the failing call). */
int cs_shape_save(const cs_shape_t *shape, const char *dir, const char *circuit_id, err_t *err)
    __attribute__((warn_unused_result));

/* Loads dir/<circuit_id>.shape by mapping it read-only: the matrices stay
 * in the page cache (shared by the processes that load the same file, and
 * reclaimable), only the coefficient table is allocated. Every index is
 * checked once here, which reads the whole file. Returns 0, GM_EINVAL (bad
 * id), GM_EIO (cannot open or map: a missing file is GM_EIO with errno's
 * text), GM_EFORMAT (wrong magic or an older format version, another
 * circuit id, a truncated file or an index out of range; err says which
 * field) or GM_ENOMEM. *out is NULL on failure. The file must not be
 * truncated in place while loaded (cs_shape_save replaces by rename). */
int cs_shape_load(cs_shape_t **out, const char *dir, const char *circuit_id, err_t *err)
    __attribute__((warn_unused_result));

/* As cs_shape_load without the pass over every term (row pointers
 * increasing, columns and coefficient ids in range and sorted): the header,
 * sizes and coefficients are still checked. Only for a file that passed
 * cs_shape_load before and has not changed since (params/'s shape stamp):
 * a bad index in an unchecked file is out-of-bounds reads later. */
int cs_shape_load_unchecked(cs_shape_t **out, const char *dir, const char *circuit_id, err_t *err)
    __attribute__((warn_unused_result));

/* True when dir/<circuit_id>.shape exists and is in this build's format
 * (reads its magic only): false means it is to be recorded again. */
bool cs_shape_cached(const char *dir, const char *circuit_id);

/* a = A·z, b = B·z, c = C·z over all n_rows rows, z = (inputs, aux) as
 * cs_input_values/cs_aux_values give them (n_inputs and n_aux elements). The
 * rows are split into tasks on pool (NULL: the calling thread only). a, b, c
 * hold n_rows elements each and may not alias z or one another. Exact for
 * any witness, satisfying or not (bellperson's a, b, c):
 * cs_shape_abc_mode(..., CS_ABC_EXACT, pool). */
void cs_shape_abc(const cs_shape_t *shape, const fr_t *inputs, const fr_t *aux, fr_t *a, fr_t *b, fr_t *c,
                  topo_pool_t *pool);

/* What cs_shape_abc_mode writes into c:
 *   CS_ABC_EXACT      c = C·z, as cs_shape_abc;
 *   CS_ABC_C_FROM_AB  c_i = a_i · b_i: equal to C·z on every row if and only
 *                     if the witness satisfies the circuit; for one that does
 *                     not, c differs from C·z (the prover's own verification,
 *                     on by default, then rejects the proof). One
 *                     multiplication per row instead of the C·z pass;
 *   CS_ABC_NO_C       c is not touched (may be NULL): only a and b;
 *   CS_ABC_C_ONLY     c = C·z only; a and b are not touched (may be NULL).
 *                     With CS_ABC_NO_C first, the prover forms a and b, folds
 *                     them into one vector, then c into the freed one: two
 *                     row vectors alive instead of three (groth16_prepare).
 * a and b are A·z and B·z in every mode but CS_ABC_C_ONLY. */
typedef enum { CS_ABC_EXACT = 0, CS_ABC_C_FROM_AB = 1, CS_ABC_NO_C = 2, CS_ABC_C_ONLY = 3 } cs_abc_mode_t;
void cs_shape_abc_mode(const cs_shape_t *shape, const fr_t *inputs, const fr_t *aux, fr_t *a, fr_t *b, fr_t *c,
                       cs_abc_mode_t mode, topo_pool_t *pool);

/* As cs_shape_abc_mode with the aux values in compact form (aux->n =
 * n_aux): the same a, b, c bit for bit; a bit value costs no lookup of 32
 * bytes and no multiplication. */
void cs_shape_abc_compact(const cs_shape_t *shape, const fr_t *inputs, const cs_compact_t *aux, fr_t *a, fr_t *b,
                          fr_t *c, cs_abc_mode_t mode, topo_pool_t *pool);

/* As cs_shape_abc_mode over rows [r0, r1) only (r0 <= r1 <= n_rows): a, b,
 * c hold r1 - r0 elements, a[i] being row r0 + i. For a proof split over
 * ranks, each computing its own rows (mpi/split.c). */
void cs_shape_abc_rows(const cs_shape_t *shape, const fr_t *inputs, const fr_t *aux, fr_t *a, fr_t *b, fr_t *c,
                       cs_abc_mode_t mode, uint64_t r0, uint64_t r1, topo_pool_t *pool);

/* ==== bits ================================================================== */

/* A Boolean as bellperson has it: a constant, an allocated bit, or the
 * negation of an allocated bit. val is the (possibly negated) value. */
typedef enum { CS_BOOL_CONST = 0, CS_BOOL_IS = 1, CS_BOOL_NOT = 2 } cs_bool_kind_t;
typedef struct {
    cs_var_t var;
    uint8_t kind;
    uint8_t val;
} cs_bool_t;

static inline cs_bool_t cs_bool_const(bool v)
{
    cs_bool_t b = {CS_ONE, CS_BOOL_CONST, (uint8_t)v};
    return b;
}

static inline cs_bool_t cs_bool_not(cs_bool_t b)
{
    if (b.kind == CS_BOOL_IS)
        b.kind = CS_BOOL_NOT;
    else if (b.kind == CS_BOOL_NOT)
        b.kind = CS_BOOL_IS;
    b.val ^= 1;
    return b;
}

/* AllocatedBit::alloc: a new bit with the boolean constraint (1 constraint). */
cs_bool_t cs_bit_alloc(cs_t *cs, bool value);

/* Adds coeff * b (coeff NULL = 1) to a side of the pending constraint / to an
 * arena LC: a constant true adds coeff*ONE, NOT adds coeff*ONE - coeff*var. */
void cs_term_bool(cs_t *cs, cs_side_t side, cs_bool_t b, const fr_t *coeff);
void cs_lc_add_bool(cs_t *cs, cs_lc_t *lc, cs_bool_t b, const fr_t *coeff);

/* Boolean::xor / and / sha256_ch / sha256_maj, with bellperson's constant
 * folding (constraint counts as bellpepper-core: xor, and 1 or 0; ch 1 or 0
 * or 1 via and; maj 2, or 1 via and). */
cs_bool_t cs_bool_xor(cs_t *cs, cs_bool_t a, cs_bool_t b);
cs_bool_t cs_bool_and(cs_t *cs, cs_bool_t a, cs_bool_t b);
cs_bool_t cs_bool_ch(cs_t *cs, cs_bool_t a, cs_bool_t b, cs_bool_t c);
cs_bool_t cs_bool_maj(cs_t *cs, cs_bool_t a, cs_bool_t b, cs_bool_t c);

/* AllocatedBit::and / nor on two allocated bits (kind CS_BOOL_IS). */
cs_bool_t cs_bit_and(cs_t *cs, cs_bool_t a, cs_bool_t b);
cs_bool_t cs_bit_nor(cs_t *cs, cs_bool_t a, cs_bool_t b);

/* Boolean::enforce_equal: 1 constraint unless both are constants (then a
 * mismatch is a sticky GM_EVERIFY). */
void cs_bool_enforce_equal(cs_t *cs, cs_bool_t a, cs_bool_t b);

/* ==== UInt32, UInt64, MultiEq =============================================== */

/* bits[] little-endian (bits[0] is the least significant). */
typedef struct {
    cs_bool_t bits[32];
    uint32_t value;
} cs_u32_t;

typedef struct {
    cs_bool_t bits[64];
    uint64_t value;
} cs_u64_t;

void cs_u32_const(cs_u32_t *out, uint32_t v);
/* 32 allocated bits (32 constraints). */
void cs_u32_alloc(cs_t *cs, cs_u32_t *out, uint32_t v);
/* From 32 bits big-endian (bits[0] most significant); no constraint. */
void cs_u32_from_bits_be(cs_u32_t *out, const cs_bool_t bits[32]);
/* Writes the 32 bits big-endian. */
void cs_u32_to_bits_be(cs_bool_t out[32], const cs_u32_t *a);
void cs_u32_rotr(cs_u32_t *out, const cs_u32_t *a, unsigned by);
void cs_u32_shr(cs_u32_t *out, const cs_u32_t *a, unsigned by);
void cs_u32_xor(cs_t *cs, cs_u32_t *out, const cs_u32_t *a, const cs_u32_t *b);
void cs_u32_ch(cs_t *cs, cs_u32_t *out, const cs_u32_t *a, const cs_u32_t *b, const cs_u32_t *c);
void cs_u32_maj(cs_t *cs, cs_u32_t *out, const cs_u32_t *a, const cs_u32_t *b, const cs_u32_t *c);

/* bellperson's MultiEq: batches bit-packed equalities into one constraint per
 * < 254 bits. Lives on the caller's stack; cs_multieq_finish enforces what is
 * pending. Only one MultiEq may be open at a time per cs_t. */
typedef struct {
    cs_t *cs;
    cs_lc_t lhs, rhs;
    unsigned bits_used;
    unsigned ops;
} cs_multieq_t;

void cs_multieq_init(cs_multieq_t *m, cs_t *cs);
void cs_multieq_finish(cs_multieq_t *m);

/* UInt32::addmany of 2..10 operands modulo 2^32: allocates the result bits
 * (33..36 of them, bit length of n * (2^32 - 1)) and batches the sum equality
 * into m. All-constant operands give a constant and no constraint. */
void cs_u32_addmany(cs_multieq_t *m, cs_u32_t *out, const cs_u32_t *ops, unsigned n);

/* UInt64::alloc (64 constraints) and pack_into_input (1 constraint, 1 input). */
void cs_u64_alloc(cs_t *cs, cs_u64_t *out, uint64_t v);
void cs_u64_pack_into_input(cs_t *cs, const cs_u64_t *a);

/* ==== numbers =============================================================== */

/* An AllocatedNum: a variable and its value. */
typedef struct {
    cs_var_t var;
    fr_t value;
} cs_num_t;

cs_num_t cs_num_alloc(cs_t *cs, const fr_t *value);
cs_num_t cs_num_alloc_input(cs_t *cs, const fr_t *value);
/* AllocatedNum::inputize: a new input equal to a (1 constraint). */
void cs_num_inputize(cs_t *cs, const cs_num_t *a);
/* AllocatedNum::to_bits_le (non-strict): 255 allocated bits, LE, and one
 * packing constraint (256 constraints); out holds 255 entries. */
void cs_num_to_bits_le(cs_t *cs, cs_bool_t out[255], const cs_num_t *a);
/* constraint::equal: a * 1 = b (1 constraint). */
void cs_num_enforce_equal(cs_t *cs, const cs_num_t *a, const cs_num_t *b);
/* constraint::add (Filecoin's encode): a new num a + b (1 constraint). */
cs_num_t cs_num_add(cs_t *cs, const cs_num_t *a, const cs_num_t *b);
/* AllocatedNum::mul and square (1 constraint each). */
cs_num_t cs_num_mul(cs_t *cs, const cs_num_t *a, const cs_num_t *b);
cs_num_t cs_num_square(cs_t *cs, const cs_num_t *a);
/* insertion::pick: cond ? a : b (1 constraint). */
cs_num_t cs_num_pick(cs_t *cs, cs_bool_t cond, const cs_num_t *a, const cs_num_t *b);

/* multipack::pack_into_inputs: packs bits (LE) into ceil(n / 254) new inputs,
 * one constraint each. */
void cs_pack_into_inputs(cs_t *cs, const cs_bool_t *bits, size_t n);
/* multipack::pack_bits: the first min(n, 254) bits (LE) packed into a new aux
 * num (1 constraint). */
cs_num_t cs_pack_bits(cs_t *cs, const cs_bool_t *bits, size_t n);

/* insertion::insert: out[0..size) = elements with `element` inserted at the
 * position given by bits (LE), size = 2, 4 or 8 (nbits 1, 2, 3) and
 * elements[] holding size - 1 nums. Bits must be allocated (CS_BOOL_IS).
 * Costs 2, 8, 22 constraints. */
void cs_insert(cs_t *cs, cs_num_t *out, const cs_num_t *element, const cs_bool_t *bits, unsigned nbits,
               const cs_num_t *elements);

/* ==== SHA-256 =============================================================== */

/* The compression function on one 512-bit block (bits big-endian as the
 * standard orders the message) from the chaining value cur (8 words); its own
 * MultiEq. 25,840 constraints on allocated input bits and the constant IV. */
void cs_sha256_compress(cs_t *cs, cs_u32_t out[8], const cs_bool_t block[512], const cs_u32_t cur[8]);

/* SHA-256 with padding of a message of nbits bits (a multiple of 8),
 * digest bits big-endian into out[256]. */
void cs_sha256(cs_t *cs, cs_bool_t out[256], const cs_bool_t *msg, size_t nbits);

/* The 8 IV words as constants. */
void cs_sha256_iv(cs_u32_t out[8]);

/* ==== Poseidon (neptune, Strength::Standard, HashType::MerkleTree) ========== */

#define POSEIDON_MAX_WIDTH 12

/* The constants of one instance: width t = arity + 1, RF = 8 full rounds, RP
 * partial rounds (55/56/57/57 for t = 3/5/9/12), (RF + RP) * t round
 * constants from the Grain LFSR, the Cauchy MDS matrix, domain tag
 * 2^arity - 1; and the constants of neptune's optimized evaluation derived
 * from them (PoseidonConstants: compressed_round_constants,
 * pre_sparse_matrix, sparse_matrixes). Computed by poseidon_init (a few
 * milliseconds for t = 12); read-only afterwards, so one instance serves any
 * number of threads. */
typedef struct {
    unsigned arity, t, rf, rp;
    fr_t tag;
    fr_t mds[POSEIDON_MAX_WIDTH][POSEIDON_MAX_WIDTH];
    fr_t *rc; /* (rf + rp) * t, round-major */
    /* Optimized form. crc: rf * t + rp compressed round constants (t added
     * to the input, then the post-S-box constants of each round: t per full
     * round but the last, 1 per partial round). pre_sparse: the dense matrix
     * of the last round before the partial rounds. sparse: rp matrices of
     * 2t - 1 elements each, w_hat[0..t) (the first column) then
     * v_rest[0..t-1) (the first row without its first element); the rest of
     * the matrix is the identity. Row-vector products: state = state x M. */
    fr_t *crc;
    fr_t pre_sparse[POSEIDON_MAX_WIDTH][POSEIDON_MAX_WIDTH];
    fr_t *sparse;
} poseidon_t;

/* Supported arities: 2, 4, 8, 11 (t = 3, 5, 9, 12). Returns 0, GM_EINVAL
 * (another arity) or GM_ENOMEM. */
int poseidon_init(poseidon_t *p, unsigned arity, err_t *err) __attribute__((warn_unused_result));
void poseidon_free(poseidon_t *p);

/* The native hash: state = (tag, in[0..arity)); output state[1] after the
 * permutation. Evaluated in neptune's optimized form (compressed round
 * constants, sparse partial-round matrices), which gives the same output as
 * the plain permutation. No allocation; safe from any thread. */
void poseidon_hash(const poseidon_t *p, fr_t *out, const fr_t *in);

/* The same hash evaluated round by round as the specification states it
 * (neptune's "Correct" mode): the reference the optimized form is tested and
 * benchmarked against. */
void poseidon_hash_plain(const poseidon_t *p, fr_t *out, const fr_t *in);

/* The legacy circuit neptune::circuit::poseidon_hash (the one Filecoin's
 * trusted setup fixed), with its coefficients and intermediate variables
 * (optimized constants, sparse matrices): 4(t·RF + RP) − 3 − arity
 * constraints, i.e. 311 / 377 / 505 / 598 for arity 2 / 4 / 8 / 11. */
cs_num_t cs_poseidon(cs_t *cs, const poseidon_t *p, const cs_num_t *in);

/* The four instances Filecoin uses, initialised together. */
typedef struct {
    poseidon_t p2, p4, p8, p11;
} poseidon_set_t;

int poseidon_set_init(poseidon_set_t *s, err_t *err) __attribute__((warn_unused_result));
void poseidon_set_free(poseidon_set_t *s);
/* The instance for arity 2, 4, 8 or 11; NULL for others. */
const poseidon_t *poseidon_set_get(const poseidon_set_t *s, unsigned arity)
    __attribute__((warn_unused_result));

/* ==== the SDR PoRep circuit (StackedCircuit) ================================ */

#define STACKED_MAX_LEVELS 40
#define STACKED_DRG_PARENTS 6
#define STACKED_EXP_PARENTS 8
#define STACKED_PARENTS (STACKED_DRG_PARENTS + STACKED_EXP_PARENTS)
#define STACKED_LABEL_PARENTS 37
#define STACKED_MAX_LAYERS 11

/* The version of the StackedCircuit's R1CS shape, part of the circuit id
 * that keys its cached shape, parameters and verifying key
 * ("porep-<bytes>-v<N>"), so caches made for another shape are never
 * reused. 2: the Poseidon gadget in neptune's optimized legacy form (the
 * coefficients and intermediate variables of Filecoin's setup); 1 (ids
 * "porep-<bytes>") had the same counts with the plain round constants and
 * matrix. */
#define STACKED_SHAPE_VERSION 2

/* One sector size's circuit parameters (rust-fil-proofs constants.rs). */
typedef struct {
    uint64_t sector_bytes;
    uint64_t nodes;          /* sector_bytes / 32 */
    unsigned layers;         /* 2 or 11 */
    unsigned partitions;     /* 1 or 10 */
    unsigned challenges;     /* per partition */
    unsigned comm_d_depth;   /* log2(nodes) */
    unsigned base_levels;    /* octree levels of one base tree */
    unsigned sub_arity;      /* 0 or 8 */
    unsigned top_arity;      /* 0 or 2 */
    unsigned n_levels;       /* base_levels + (sub > 0) + (top > 0) */
    unsigned level_arity[STACKED_MAX_LEVELS]; /* leaf level first */
    unsigned path_siblings;  /* sum of (arity - 1) over the levels */
} stacked_config_t;

/* The parameters for a sector size in bytes: 2 KiB, 8 MiB, 512 MiB, 32 GiB,
 * 64 GiB. Returns 0 or GM_EINVAL (err: "sector size <n>: not a PoRep size"). */
int stacked_config_init(stacked_config_t *cfg, uint64_t sector_bytes, err_t *err)
    __attribute__((warn_unused_result));

/* Parses "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also plain bytes and
 * the lower-case k/m/g forms). Returns 0 or GM_EINVAL naming `what` and s. */
int stacked_sector_size_parse(uint64_t *out, const char *s, const char *what, err_t *err)
    __attribute__((warn_unused_result));

/* A Merkle inclusion path: the leaf index and the siblings level by level
 * (leaf level first; arity - 1 per level, in the order of the remaining
 * children). For comm_d: comm_d_depth levels of 1 sibling. */
typedef struct {
    uint64_t index;
    fr_t *siblings;
} stacked_path_t;

/* One parent column: its node, its layers' labels (rows[0] = layer 1), and
 * its inclusion path in comm_c. */
typedef struct {
    uint64_t node;
    fr_t rows[STACKED_MAX_LAYERS];
    stacked_path_t path;
} stacked_column_t;

/* What one challenge's proof holds. */
typedef struct {
    uint64_t challenge;
    fr_t data_leaf;
    stacked_path_t comm_d_path;
    stacked_path_t comm_r_last_path;
    stacked_path_t comm_c_path;
    stacked_column_t parents[STACKED_PARENTS]; /* 6 DRG, then 8 expander */
} stacked_challenge_t;

/* The private and public values of one partition. */
typedef struct {
    fr_t replica_id, comm_d, comm_r, comm_r_last, comm_c;
    stacked_challenge_t *ch; /* cfg->challenges entries */
} stacked_witness_t;

/* Synthesizes one partition into cs: public inputs in bellperson order
 * (ONE, replica_id, comm_d, comm_r, then 18 per challenge). w NULL: zeros
 * (COUNT/SHAPE). With a witness, WITNESS/CHECK store its values. Errors are
 * sticky in cs (cs_status). */
void stacked_synthesize(cs_t *cs, const stacked_config_t *cfg, const poseidon_set_t *ps,
                        const stacked_witness_t *w);

/* The public inputs (without ONE) a verifier would compute for w, in
 * circuit order: cfg->challenges * 18 + 3 elements into out. */
void stacked_public_inputs(fr_t *out, const stacked_config_t *cfg, const stacked_witness_t *w);

/* An empty witness for cfg (all values zero): the challenge array and every
 * path's siblings allocated (cfg->comm_d_depth for comm_d, cfg->path_siblings
 * for the others), for a caller that fills it (porep_c1_witness). Free with
 * stacked_witness_free. Returns 0 or GM_ENOMEM (*out NULL). */
int stacked_witness_alloc(stacked_witness_t **out, const stacked_config_t *cfg, err_t *err)
    __attribute__((warn_unused_result));

/* A random witness that satisfies the circuit (for tests and benchmarks):
 * random data, parent columns, indices and a consistent sparse tree per
 * commitment (only the touched leaves are real; untouched subtrees hash
 * default leaves). Allocates *out (free with stacked_witness_free).
 * seed picks the values. Returns 0 or GM_ENOMEM. */
int stacked_witness_random(stacked_witness_t **out, const stacked_config_t *cfg, const poseidon_set_t *ps,
                           uint64_t seed, err_t *err) __attribute__((warn_unused_result));
void stacked_witness_free(stacked_witness_t *w, const stacked_config_t *cfg);

#endif /* GM_SYNTH_H */
