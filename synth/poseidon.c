/*
 * synth/poseidon.c — Poseidon as neptune has it for Filecoin (Strength
 * Standard, HashType MerkleTree): constants from the Grain LFSR and the
 * Cauchy MDS matrix, computed into a poseidon_t; the native hash; and the
 * circuit with the cost of neptune's legacy circuit.
 *
 * DESIGN. The circuit follows the plain ("Correct") permutation: a full round
 * adds the round keys to linear combinations, allocates each element
 * (1 constraint, neptune's ensure_allocated) and raises it to the fifth power
 * (x^2, x^4, x^5: 3 constraints); the first round's inputs are allocated
 * already and the domain tag's first S-box is a constant; a partial round
 * does this to element 0 only; the output is allocated at the end. That
 * allocates and constrains exactly what neptune's legacy circuit does
 * (4(t·RF + RP) − 3 − arity constraints); neptune folds the round keys and
 * factors the MDS matrix into sparse ones, so the coefficients of our rows
 * differ from Filecoin's setup while the counts and every value match.
 *
 * Recording the rows (SHAPE, CHECK) means linear combinations that grow by
 * one term per partial round and a dense t x t product each round. That is
 * done once per arity into a template (a private SHAPE cs_t with the inputs as
 * placeholders); every later hash replays the template's rows with its own
 * variables. COUNT and WITNESS never form terms.
 */
#include <string.h>

#include "synth/synth_internal.h"

/* ---- constants ------------------------------------------------------------------------- */

/* The Grain LFSR of the Poseidon reference scripts, 80 bits of state. */
typedef struct {
    uint8_t s[80];
    unsigned head;
} grain_t;

static bool grain_step(grain_t *g)
{
    unsigned h = g->head;
#define B(i) g->s[(h + (i)) % 80]
    bool nb = B(62) ^ B(51) ^ B(38) ^ B(23) ^ B(13) ^ B(0);
#undef B
    g->s[h] = nb;
    g->head = (h + 1) % 80;
    return nb;
}

/* Self-shrinking output: pairs (b1, b2), emit b2 when b1 = 1. */
static bool grain_next(grain_t *g)
{
    while (!grain_step(g))
        (void)grain_step(g);
    return grain_step(g);
}

static void grain_init(grain_t *g, unsigned t, unsigned rf, unsigned rp)
{
    unsigned n = 0;
    const struct {
        unsigned bits, value;
    } fields[] = {{2, 1}, {4, 1}, {12, 255}, {12, t}, {10, rf}, {10, rp}};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (unsigned i = fields[f].bits; i-- > 0;)
            g->s[n++] = (fields[f].value >> i) & 1;
    while (n < 80)
        g->s[n++] = 1;
    g->head = 0;
    for (int i = 0; i < 160; i++)
        (void)grain_step(g);
}

/* The next field element: 255 bits MSB first (7 bits, then 31 bytes),
 * rejected and redrawn while >= r. */
static void grain_field(grain_t *g, fr_t *out)
{
    for (;;) {
        uint8_t be[32];
        for (int byte = 0; byte < 32; byte++) {
            unsigned nbits = byte == 0 ? 7 : 8, acc = 0;
            for (unsigned i = 0; i < nbits; i++)
                acc = (acc << 1) | grain_next(g);
            be[byte] = (uint8_t)acc;
        }
        if (fr_from_bytes_be(out, be) == 0)
            return;
    }
}

int poseidon_init(poseidon_t *p, unsigned arity, err_t *err)
{
    memset(p, 0, sizeof *p);
    unsigned rp;
    switch (arity) {
    case 2: rp = 55; break;
    case 4: rp = 56; break;
    case 8: rp = 57; break;
    case 11: rp = 57; break;
    default:
        return gm_err_set(err, GM_EINVAL, "poseidon: arity %u is not one of 2, 4, 8, 11", arity);
    }
    p->arity = arity;
    p->t = arity + 1;
    p->rf = 8;
    p->rp = rp;
    size_t nrc = (size_t)(p->rf + p->rp) * p->t;
    p->rc = gm_alloc(nrc * sizeof(fr_t));
    if (!p->rc)
        return gm_err_set(err, GM_ENOMEM, "poseidon: out of memory for %zu round constants", nrc);
    grain_t g;
    grain_init(&g, p->t, p->rf, p->rp);
    for (size_t i = 0; i < nrc; i++)
        grain_field(&g, &p->rc[i]);
    for (unsigned i = 0; i < p->t; i++)
        for (unsigned j = 0; j < p->t; j++) {
            fr_t x;
            fr_set_u64(&x, i + (p->t + j));
            fr_inv(&p->mds[i][j], &x);
        }
    fr_set_u64(&p->tag, (1ULL << arity) - 1);
    return 0;
}

void poseidon_free(poseidon_t *p)
{
    if (!p)
        return;
    gm_free(p->rc);
    p->rc = NULL;
}

int poseidon_set_init(poseidon_set_t *s, err_t *err)
{
    memset(s, 0, sizeof *s);
    int rc;
    if ((rc = poseidon_init(&s->p2, 2, err)) || (rc = poseidon_init(&s->p4, 4, err)) ||
        (rc = poseidon_init(&s->p8, 8, err)) || (rc = poseidon_init(&s->p11, 11, err))) {
        poseidon_set_free(s);
        return rc;
    }
    return 0;
}

void poseidon_set_free(poseidon_set_t *s)
{
    poseidon_free(&s->p2);
    poseidon_free(&s->p4);
    poseidon_free(&s->p8);
    poseidon_free(&s->p11);
}

const poseidon_t *poseidon_set_get(const poseidon_set_t *s, unsigned arity)
{
    switch (arity) {
    case 2: return &s->p2;
    case 4: return &s->p4;
    case 8: return &s->p8;
    case 11: return &s->p11;
    default: return NULL;
    }
}

/* ---- native hash ------------------------------------------------------------------------------ */

static void sbox(fr_t *x)
{
    fr_t x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, &x4, x);
}

void poseidon_hash(const poseidon_t *p, fr_t *out, const fr_t *in)
{
    fr_t st[POSEIDON_MAX_WIDTH], nx[POSEIDON_MAX_WIDTH], tmp;
    unsigned t = p->t, half = p->rf / 2;
    st[0] = p->tag;
    for (unsigned i = 1; i < t; i++)
        st[i] = in[i - 1];
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        bool full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < t; i++)
            fr_add(&st[i], &st[i], &p->rc[r * t + i]);
        if (full)
            for (unsigned i = 0; i < t; i++)
                sbox(&st[i]);
        else
            sbox(&st[0]);
        /* state x M (M is symmetric, so this is also M x state) */
        for (unsigned j = 0; j < t; j++) {
            nx[j] = FR_ZERO;
            for (unsigned i = 0; i < t; i++) {
                fr_mul(&tmp, &st[i], &p->mds[i][j]);
                fr_add(&nx[j], &nx[j], &tmp);
            }
        }
        memcpy(st, nx, t * sizeof(fr_t));
    }
    *out = st[1];
}

/* ---- the circuit, generic form ---------------------------------------------------------------- */

/* An element of the state: an allocated variable, or a linear combination
 * with its value (neptune's Elt). Constants are LCs on ONE. */
typedef struct {
    bool allocated;
    cs_var_t var;
    cs_lc_t lc;
    fr_t val;
} elt_t;

/* Allocates x (neptune's ensure_allocated with enforcement). */
static void elt_allocate(cs_t *cs, elt_t *x, bool vals)
{
    cs_var_t v = cs_alloc(cs, vals ? &x->val : &FR_ZERO);
    cs_enforce_begin(cs);
    cs_term_lc(cs, CS_A, &x->lc, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, v, NULL);
    cs_enforce_end(cs, "enforce num allocation preserves lc");
    x->allocated = true;
    x->var = v;
}

/* x <- (x + pre)^5 on an allocated x, pre NULL for none: l2 = (x + pre)^2,
 * l4 = l2^2, l5 = l4 (x + pre), 3 constraints (neptune's square_sum /
 * square / mul_sum). */
static void quintic(cs_t *cs, elt_t *x, const fr_t *pre, bool vals)
{
    fr_t xv = x->val, l2v, l4v, l5v;
    if (vals) {
        if (pre)
            fr_add(&xv, &xv, pre);
        fr_sqr(&l2v, &xv);
        fr_sqr(&l4v, &l2v);
        fr_mul(&l5v, &l4v, &xv);
    } else {
        l2v = l4v = l5v = FR_ZERO;
    }
    cs_var_t l2 = cs_alloc(cs, &l2v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, x->var, NULL);
    if (pre)
        cs_term(cs, CS_A, CS_ONE, pre);
    cs_term(cs, CS_B, x->var, NULL);
    if (pre)
        cs_term(cs, CS_B, CS_ONE, pre);
    cs_term(cs, CS_C, l2, NULL);
    cs_enforce_end(cs, "squared sum constraint");
    cs_var_t l4 = cs_alloc(cs, &l4v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, l2, NULL);
    cs_term(cs, CS_B, l2, NULL);
    cs_term(cs, CS_C, l4, NULL);
    cs_enforce_end(cs, "squaring constraint");
    cs_var_t l5 = cs_alloc(cs, &l5v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, x->var, NULL);
    if (pre)
        cs_term(cs, CS_A, CS_ONE, pre);
    cs_term(cs, CS_B, l4, NULL);
    cs_term(cs, CS_C, l5, NULL);
    cs_enforce_end(cs, "mul sum constraint");
    x->var = l5;
    x->val = l5v;
    x->allocated = true;
}

/* The permutation on cs, any mode. vals: compute values (WITNESS, CHECK). */
static cs_num_t poseidon_generic(cs_t *cs, const poseidon_t *p, const cs_num_t *in, bool vals)
{
    size_t mark = cs_arena_mark(cs);
    unsigned t = p->t, half = p->rf / 2;
    elt_t st[POSEIDON_MAX_WIDTH], nx[POSEIDON_MAX_WIDTH];
    /* round 0: the tag's S-box is a constant, the inputs are allocated */
    st[0].allocated = false;
    st[0].val = p->tag;
    fr_add(&st[0].val, &st[0].val, &p->rc[0]);
    sbox(&st[0].val);
    st[0].lc = cs_lc_new(cs, 1);
    cs_lc_add(cs, &st[0].lc, CS_ONE, &st[0].val);
    for (unsigned i = 1; i < t; i++) {
        cs_ns_push(cs, "quintic s-box %u", i);
        st[i].allocated = true;
        st[i].var = in[i - 1].var;
        st[i].val = in[i - 1].value;
        quintic(cs, &st[i], &p->rc[i], vals);
        cs_ns_pop(cs);
    }
    for (unsigned r = 0;; r++) {
        /* state x M into linear combinations */
        for (unsigned j = 0; j < t; j++) {
            nx[j].allocated = false;
            nx[j].val = FR_ZERO;
            nx[j].lc = cs_lc_new(cs, cs->record ? 2 * t + r : 0);
            for (unsigned i = 0; i < t; i++) {
                if (vals) {
                    fr_t tmp;
                    fr_mul(&tmp, &st[i].val, &p->mds[i][j]);
                    fr_add(&nx[j].val, &nx[j].val, &tmp);
                }
                if (st[i].allocated)
                    cs_lc_add(cs, &nx[j].lc, st[i].var, &p->mds[i][j]);
                else
                    cs_lc_add_lc(cs, &nx[j].lc, &st[i].lc, &p->mds[i][j]);
            }
            cs_lc_compact(cs, &nx[j].lc);
        }
        memcpy(st, nx, t * sizeof(elt_t));
        if (r + 1 == p->rf + p->rp)
            break;
        unsigned rr = r + 1;
        bool full = rr < half || rr >= half + p->rp;
        cs_ns_push(cs, full ? "full round %u" : "partial round %u", rr);
        for (unsigned i = 0; i < t; i++) {
            const fr_t *rc = &p->rc[rr * t + i];
            if (vals)
                fr_add(&st[i].val, &st[i].val, rc);
            cs_lc_add(cs, &st[i].lc, CS_ONE, rc);
            if (!full && i > 0)
                continue;
            elt_allocate(cs, &st[i], vals);
            quintic(cs, &st[i], NULL, vals);
        }
        cs_ns_pop(cs);
    }
    cs_ns_push(cs, "hash result");
    elt_allocate(cs, &st[1], vals);
    cs_ns_pop(cs);
    cs_num_t out = {st[1].var, vals ? st[1].val : FR_ZERO};
    cs_arena_release(cs, mark);
    return out;
}

/* ---- templates: record once, replay per hash -------------------------------------------------- */

/* A recorded template: a SHAPE cs_t in which aux 0..arity-1 stand for the
 * inputs and every later aux is a variable the hash allocates. */
static cs_t *template_get(cs_t *cs, const poseidon_t *p)
{
    for (int k = 0; k < 4; k++)
        if (cs->pos_key[k] == p)
            return cs->pos_tmpl[k];
    int slot = -1;
    for (int k = 0; k < 4 && slot < 0; k++)
        if (!cs->pos_key[k])
            slot = k;
    GM_ASSERT(slot >= 0); /* at most four instances per circuit */
    cs_t *tc;
    err_t e;
    if (cs_create(&tc, CS_SHAPE, CS_FLAG_NONE, &e) != 0) {
        cs_fail(cs, e.code, "poseidon template: %s", e.msg);
        return NULL;
    }
    cs_num_t in[POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < p->arity; i++)
        in[i] = cs_num_alloc(tc, &FR_ZERO);
    (void)poseidon_generic(tc, p, in, false);
    if (tc->err_code) {
        cs_fail(cs, tc->err_code, "poseidon template: %s", tc->err_msg);
        cs_destroy(tc);
        return NULL;
    }
    cs->pos_key[slot] = p;
    cs->pos_tmpl[slot] = tc;
    return tc;
}

/* CHECK mode: the values of the hash's new variables, in allocation order,
 * from a private WITNESS cs_t. Returns the array (n_aux - arity entries
 * from index arity) or NULL after a sticky error. */
static const fr_t *trace_values(cs_t *cs, const poseidon_t *p, const cs_num_t *in, cs_num_t *out)
{
    if (!cs->pos_scratch) {
        err_t e;
        if (cs_create(&cs->pos_scratch, CS_WITNESS, CS_FLAG_NONE, &e) != 0) {
            cs_fail(cs, e.code, "poseidon trace: %s", e.msg);
            return NULL;
        }
    }
    cs_t *w = cs->pos_scratch;
    w->n_aux = 0;
    w->n_constraints = 0;
    cs_num_t lin[POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < p->arity; i++)
        lin[i] = cs_num_alloc(w, &in[i].value);
    *out = poseidon_generic(w, p, lin, true);
    if (w->err_code) {
        cs_fail(cs, w->err_code, "poseidon trace: %s", w->err_msg);
        return NULL;
    }
    return w->aux;
}

static cs_var_t map_var(cs_var_t v, const cs_num_t *in, unsigned arity, uint64_t base)
{
    if (!(v & CS_VAR_AUX))
        return CS_ONE; /* the template's only input is ONE */
    uint32_t k = v & ~CS_VAR_AUX;
    return k < arity ? in[k].var : (cs_var_t)(CS_VAR_AUX | (base + k - arity));
}

cs_num_t cs_poseidon(cs_t *cs, const poseidon_t *p, const cs_num_t *in)
{
    cs_num_t out = {CS_ONE, FR_ZERO};
    if (cs->err_code)
        return out;
    if (!cs->record)
        return poseidon_generic(cs, p, in, cs->store);
    cs_t *tc = template_get(cs, p);
    if (!tc)
        return out;
    const fr_t *vals = NULL;
    cs_num_t traced = out;
    if (cs->store && !(vals = trace_values(cs, p, in, &traced)))
        return out;
    uint64_t n_new = tc->n_aux - p->arity, base = cs->n_aux;
    for (uint64_t k = 0; k < n_new; k++)
        (void)cs_alloc(cs, vals ? &vals[p->arity + k] : &FR_ZERO);
    const cs_rec_t *rec = &tc->rec;
    for (uint64_t r = 0; r < tc->n_constraints; r++) {
        cs_enforce_begin(cs);
        for (int s = 0; s < 3; s++) {
            const cs_rec_matrix_t *m = &rec->m[s];
            for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++)
                cs_term(cs, (cs_side_t)s, map_var(m->col[k], in, p->arity, base), &rec->coeffs[m->coeff[k]]);
        }
        cs_enforce_end(cs, "poseidon");
    }
    /* the result is the last variable allocated */
    out.var = (cs_var_t)(CS_VAR_AUX | (base + n_new - 1));
    out.value = vals ? traced.value : FR_ZERO;
    return out;
}
