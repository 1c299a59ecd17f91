/*
 * synth/synth_internal.h — what the files of synth/ share and nobody else
 * sees: the cs_t layout (so gadgets and the shape code reach it without
 * calls on the hot path) and helpers between files.
 */
#ifndef GM_SYNTH_INTERNAL_H
#define GM_SYNTH_INTERNAL_H

#include "synth/synth.h"

/* One term of a linear combination: coefficient and (tagged) variable. */
typedef struct {
    fr_t c;
    uint32_t v;
    uint32_t pad;
} cs_term_t;

/* A growable array of terms (the three pending sides of a constraint). */
typedef struct {
    cs_term_t *t;
    uint32_t n, cap;
} cs_terms_t;

/* The shape being recorded: per matrix, row pointers and terms. cols hold
 * tagged variables until cs_shape_take renumbers them into z indices. */
typedef struct {
    uint64_t *row_ptr;
    uint64_t rows, rows_cap;
    uint32_t *col;
    uint32_t *coeff;
    uint64_t nnz, nnz_cap;
} cs_rec_matrix_t;

typedef struct {
    cs_rec_matrix_t m[3];
    fr_t *coeffs;
    uint32_t n_coeffs, coeffs_cap;
    uint32_t *table; /* open addressing: coefficient id + 1, 0 = empty */
    uint32_t table_mask;
    bool taken;
} cs_rec_t;

#define CS_NS_MAX 2048
#define CS_NS_DEPTH 64

struct cs {
    cs_mode_t mode;
    bool record; /* SHAPE or CHECK: linear combinations are built */
    bool store;  /* WITNESS or CHECK: values are kept */
    bool names;  /* namespace paths are formatted */
    bool compact; /* store in compact form (CS_FLAG_COMPACT): aux values in cz, aux unused */
    bool in_constraint;

    int err_code;
    char err_msg[GM_ERR_MSG_LEN];

    uint64_t n_constraints, n_inputs, n_aux;
    fr_t *inputs, *aux;
    uint64_t inputs_cap, aux_cap;
    cs_compact_t cz;

    cs_terms_t pend[3];
    cs_term_t *arena;
    size_t arena_top, arena_cap;

    char ns[CS_NS_MAX];
    uint32_t ns_len;
    uint32_t ns_stack[CS_NS_DEPTH];
    unsigned ns_depth, ns_overflow;

    bool failed;
    uint64_t fail_index;
    char fail_path[CS_NS_MAX + 128];

    cs_rec_t rec;

    fr_t one, minus_one;
    fr_t pow2[256], npow2[256];

    /* Poseidon: a recorded template per instance (SHAPE/CHECK) and a WITNESS
     * scratch system for CHECK-mode values (synth/poseidon.c). */
    const poseidon_t *pos_key[4];
    cs_t *pos_tmpl[4];
    cs_t *pos_scratch;
};

/* Hot-path shortcuts for the bit gadgets (the bulk of SHA-256): the same as
 * cs_alloc_bit and an empty begin/end pair, without the calls when nothing
 * needs recording. */
static inline cs_var_t cs_i_alloc_bit(cs_t *cs, bool v)
{
    if (!cs->err_code && cs->n_aux < cs->aux_cap && cs->n_aux < CS_VAR_AUX - 1) {
        cs->aux[cs->n_aux] = v ? cs->one : FR_ZERO; /* aux_cap is 0 unless values are kept */
        return CS_VAR_AUX | (cs_var_t)cs->n_aux++;
    }
    if (!cs->store && !cs->err_code && cs->n_aux < CS_VAR_AUX - 1)
        return CS_VAR_AUX | (cs_var_t)cs->n_aux++;
    cs_compact_t *c = &cs->cz;
    if (cs->compact && !cs->err_code && cs->n_aux < CS_VAR_AUX - 1 && (c->n + 1) / 64 + 1 <= c->words_cap) {
        /* cs_compact_push for a bit, with the room checked above */
        uint64_t j = c->n, w = j >> 6, b = j & 63;
        if (b == 0)
            c->rank[w] = (uint32_t)c->n_dense;
        c->isbit[w] |= 1ULL << b;
        c->one[w] |= (uint64_t)v << b;
        c->n = j + 1;
        return CS_VAR_AUX | (cs_var_t)cs->n_aux++;
    }
    return cs_alloc_bit(cs, v);
}

/* Counts a constraint when terms are not recorded (COUNT, WITNESS). */
static inline void cs_i_count(cs_t *cs)
{
    if (!cs->err_code)
        cs->n_constraints++;
}

/* Records the first synthesis error; later ones are dropped. */
void cs_fail(cs_t *cs, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Interns a coefficient into the shape's table (SHAPE mode). Returns its id,
 * or UINT32_MAX after a sticky allocation failure. */
uint32_t cs_rec_coeff(cs_t *cs, const fr_t *c);

/* SHAPE: appends one row per matrix from the sorted, merged pending sides. */
void cs_rec_row(cs_t *cs, cs_term_t *const sides[3], const uint32_t n[3]);

void cs_rec_free(cs_rec_t *r);

/* Compact values (compact.c), as a cs_t in CS_FLAG_COMPACT mode grows them.
 * Each returns false when memory runs out (the form still valid, the value
 * not stored). reserve: room for n values' bitmaps (exactly); push: appends
 * z_n = *v; set: z_j = *v for j < n (a value that changes between bit and
 * dense moves the dense values after it: O(n)). */
bool cs_compact_reserve(cs_compact_t *c, uint64_t n);
bool cs_compact_push(cs_compact_t *c, const fr_t *v);
bool cs_compact_set(cs_compact_t *c, uint64_t j, const fr_t *v);

#endif /* GM_SYNTH_INTERNAL_H */
