/*
 * synth/poseidon.c — Poseidon as neptune has it for Filecoin (Strength
 * Standard, HashType MerkleTree): constants from the Grain LFSR and the
 * Cauchy MDS matrix, and those of the optimized form derived from them,
 * computed into a poseidon_t; the native hash; and neptune's legacy circuit.
 *
 * DESIGN. The circuit is neptune's legacy circuit (circuit.rs
 * PoseidonCircuit, the one Filecoin's trusted setup fixed), row for row: it
 * evaluates the optimized form below (compressed round constants, the
 * pre-sparse and sparse matrices). Round 0 adds its pre-keys inside the
 * S-boxes of the inputs, which are allocated already (3 constraints each:
 * (x + k)(x + k) = l2, l2 l2 = l4, (x + k) l4 = l5 - post, where post is
 * the round's post-key), and the domain tag's S-box is a
 * constant; every later round allocates each S-box input (1 constraint,
 * ensure_allocated: lc * 1 = v) and raises it to the fifth power with the
 * round's post-key moved into the C side of the last constraint (3
 * constraints; no key in the last round); a partial round does this to
 * element 0 only; the matrices multiply linear combinations; the output is
 * allocated at the end: 4(t·RF + RP) − 3 − arity constraints, and the same
 * coefficients and intermediate variables as Filecoin's setup (shape
 * version 2, STACKED_SHAPE_VERSION; version 1 had the plain round keys and
 * matrix with the same counts).
 *
 * Recording the rows (SHAPE, CHECK) means linear combinations that grow by
 * one term per partial round and a dense t x t product each round. That is
 * done once per arity into a template (a private SHAPE cs_t with the inputs as
 * placeholders); every later hash replays the template's rows with its own
 * variables. COUNT and WITNESS never form terms.
 *
 * The native hash uses neptune's optimized evaluation (poseidon.rs
 * hash_optimized_static, with the constants of preprocessing.rs
 * compress_round_constants and mds.rs factor_to_sparse_matrixes), which is
 * the same permutation rearranged: (1) a round's constant vector c added
 * after the previous round's matrix equals M^-1 c added before it, and the
 * part of that which does not touch element 0 passes back through a partial
 * round's S-box unchanged, so every partial round needs one scalar constant
 * and each full round one vector; (2) a partial round's matrix factors as
 * M = M' M'' with M' = diag(1, M^) (element 0 untouched, so M' passes back
 * through the S-box into the previous round's matrix) and M'' the identity
 * but for its first row and column. Working from the last partial round
 * back, every partial round gets such a sparse M'' (2t - 1 multiplications
 * instead of t^2) and the last full round before them a dense pre-sparse
 * matrix. Field multiplications per hash, plain -> optimized:
 * RF (3t + t^2) + RP (3 + t^2) -> RF (3t + t^2) + RP (2t + 2) - (t^2 - t)
 * (the last matrix is only needed for output element 1):
 * t = 3: 804 -> 578, t = 5: 1888 -> 972, t = 9: 5652 -> 1932, t = 12: 9819 -> 2790.
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

/* ---- constants of the optimized form ------------------------------------------------- */

void poseidon_free(poseidon_t *p);

/* A square matrix of order n <= POSEIDON_MAX_WIDTH (only the top-left n x n is used). */
typedef struct {
    fr_t m[POSEIDON_MAX_WIDTH][POSEIDON_MAX_WIDTH];
} mat_t;

static void mat_identity(mat_t *out, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            out->m[i][j] = i == j ? FR_ONE : FR_ZERO;
}

/* out = a b; out may not alias a or b. */
static void mat_mul(mat_t *out, const mat_t *a, const mat_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            fr_t acc = FR_ZERO, tmp;
            for (unsigned k = 0; k < n; k++) {
                fr_mul(&tmp, &a->m[i][k], &b->m[k][j]);
                fr_add(&acc, &acc, &tmp);
            }
            out->m[i][j] = acc;
        }
}

/* out = m v (v a column); out may not alias v. */
static void mat_apply(fr_t *out, const mat_t *m, const fr_t *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        fr_t acc = FR_ZERO, tmp;
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&tmp, &m->m[i][j], &v[j]);
            fr_add(&acc, &acc, &tmp);
        }
        out[i] = acc;
    }
}

/* out = a^-1 by Gauss-Jordan elimination. The inverse is unique, so any
 * elimination order gives neptune's matrix. Returns false when a is
 * singular (never for the Cauchy matrix and its minors: an MDS matrix has
 * no singular square submatrix). */
static bool mat_inv(mat_t *out, const mat_t *a, unsigned n)
{
    mat_t w = *a;
    mat_identity(out, n);
    for (unsigned c = 0; c < n; c++) {
        unsigned piv = c;
        while (piv < n && fr_is_zero(&w.m[piv][c]))
            piv++;
        if (piv == n)
            return false;
        for (unsigned j = 0; j < n && piv != c; j++) {
            fr_t x = w.m[c][j], y = out->m[c][j];
            w.m[c][j] = w.m[piv][j];
            w.m[piv][j] = x;
            out->m[c][j] = out->m[piv][j];
            out->m[piv][j] = y;
        }
        fr_t inv;
        fr_inv(&inv, &w.m[c][c]);
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&w.m[c][j], &w.m[c][j], &inv);
            fr_mul(&out->m[c][j], &out->m[c][j], &inv);
        }
        for (unsigned r = 0; r < n; r++) {
            if (r == c || fr_is_zero(&w.m[r][c]))
                continue;
            fr_t f = w.m[r][c], tmp;
            for (unsigned j = 0; j < n; j++) {
                fr_mul(&tmp, &f, &w.m[c][j]);
                fr_sub(&w.m[r][j], &w.m[r][j], &tmp);
                fr_mul(&tmp, &f, &out->m[c][j]);
                fr_sub(&out->m[r][j], &out->m[r][j], &tmp);
            }
        }
    }
    return true;
}

/* The compressed round constants (neptune's compress_round_constants with
 * every partial round preprocessed). Layout of crc (rf * t + rp):
 *   [0, t)                  rc(0), added to the input;
 *   per first-half full round r < half - 1: M^-1 rc(r + 1), added after its S-boxes;
 *   for round half - 1:     M^-1 acc, acc folding the partial rounds' vectors (below);
 *   rp scalars:             each partial round's post-S-box constant, in order;
 *   per second-half full round but the last: M^-1 rc(r + 1).
 * M is symmetric (Cauchy with x_i + y_j), so M^-1 v serves for v M^-1 too. */
static void compress_constants(poseidon_t *p, const mat_t *minv)
{
    unsigned t = p->t, half = p->rf / 2, rp = p->rp, k = 0;
    const fr_t *rc = p->rc;
    fr_t acc[POSEIDON_MAX_WIDTH], inv[POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < t; i++)
        p->crc[k++] = rc[i];
    for (unsigned r = 0; r + 1 < half; r++, k += t)
        mat_apply(&p->crc[k], minv, &rc[(r + 1) * t], t);
    /* Backwards from the first second-half round: acc is the vector still to
     * be added at the start of round j; its M^-1 image is added after round
     * j - 1's S-box instead. Of that, element 0 must stay there (the
     * post-S-box scalar of partial round j - 1); the rest moves before that
     * S-box, which does not touch it, and joins rc(j - 1). */
    unsigned first_after = half + rp;
    memcpy(acc, &rc[(size_t)first_after * t], t * sizeof(fr_t));
    fr_t *partial = &p->crc[k + t]; /* the rp scalars follow round half - 1's vector */
    for (unsigned i = 0; i < rp; i++) {
        unsigned j = first_after - i; /* acc belongs to round j; j - 1 is partial */
        mat_apply(inv, minv, acc, t);
        partial[rp - 1 - i] = inv[0];
        acc[0] = rc[(size_t)(j - 1) * t];
        for (unsigned e = 1; e < t; e++)
            fr_add(&acc[e], &rc[(size_t)(j - 1) * t + e], &inv[e]);
    }
    mat_apply(&p->crc[k], minv, acc, t);
    k += t + rp;
    for (unsigned r = first_after; r + 1 < p->rf + rp; r++, k += t)
        mat_apply(&p->crc[k], minv, &rc[(size_t)(r + 1) * t], t);
    GM_ASSERT(k == p->rf * t + rp);
}

/* The sparse factorization (neptune's factor_to_sparse_matrixes over M,
 * which is its own transpose). With row vectors (state x M), start from
 * cur = M, the last partial round's matrix, and repeat rp times:
 *   cur = M' M'' with M' = diag(1, cur^) (cur^: cur without row and column
 *   0) and M'' = [[cur00, v], [w^, I]], v = cur[0][1..], w^ = cur^^-1 w,
 *   w = cur[1..][0];
 *   M'' is this round's sparse matrix, and M' moves back through the S-box
 *   (it leaves element 0 alone) into the previous round: cur = M M'.
 * The final cur is the pre-sparse matrix of round half - 1. Returns false if
 * a minor is singular (never for an MDS matrix). */
static bool factor_sparse(poseidon_t *p, const mat_t *m)
{
    unsigned t = p->t, rp = p->rp, w = 2 * t - 1;
    mat_t cur = *m, hat, hat_inv, prime, next;
    for (unsigned i = 0; i < rp; i++) {
        for (unsigned r = 1; r < t; r++)
            for (unsigned c = 1; c < t; c++)
                hat.m[r - 1][c - 1] = cur.m[r][c];
        if (!mat_inv(&hat_inv, &hat, t - 1))
            return false;
        fr_t col[POSEIDON_MAX_WIDTH], what[POSEIDON_MAX_WIDTH];
        for (unsigned r = 1; r < t; r++)
            col[r - 1] = cur.m[r][0];
        mat_apply(what, &hat_inv, col, t - 1);
        fr_t *sp = &p->sparse[(size_t)(rp - 1 - i) * w]; /* the last round's comes first */
        sp[0] = cur.m[0][0];
        for (unsigned r = 1; r < t; r++) {
            sp[r] = what[r - 1];
            sp[t + r - 1] = cur.m[0][r];
        }
        mat_identity(&prime, t);
        for (unsigned r = 1; r < t; r++)
            for (unsigned c = 1; c < t; c++)
                prime.m[r][c] = cur.m[r][c];
        mat_mul(&next, m, &prime, t);
        cur = next;
    }
    for (unsigned r = 0; r < t; r++)
        for (unsigned c = 0; c < t; c++)
            p->pre_sparse[r][c] = cur.m[r][c];
    return true;
}

/* The optimized form's constants, once per instance (poseidon_init). */
static int optimized_init(poseidon_t *p, err_t *err)
{
    size_t ncrc = (size_t)p->rf * p->t + p->rp, nsp = (size_t)p->rp * (2 * p->t - 1);
    p->crc = gm_alloc(ncrc * sizeof(fr_t));
    p->sparse = gm_alloc(nsp * sizeof(fr_t));
    mat_t m, minv;
    for (unsigned i = 0; i < p->t; i++)
        for (unsigned j = 0; j < p->t; j++)
            m.m[i][j] = p->mds[i][j];
    int rc = 0;
    if (!p->crc || !p->sparse)
        rc = gm_err_set(err, GM_ENOMEM, "poseidon: out of memory for the optimized constants of arity %u",
                        p->arity);
    else if (!mat_inv(&minv, &m, p->t) || !factor_sparse(p, &m))
        rc = gm_err_set(err, GM_EINVAL, "poseidon: arity %u: the MDS matrix or a minor of it is singular",
                        p->arity);
    if (rc) {
        poseidon_free(p);
        return rc;
    }
    compress_constants(p, &minv);
    return 0;
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
    return optimized_init(p, err);
}

void poseidon_free(poseidon_t *p)
{
    if (!p)
        return;
    gm_free(p->rc);
    gm_free(p->crc);
    gm_free(p->sparse);
    p->rc = p->crc = p->sparse = NULL;
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

void poseidon_hash_plain(const poseidon_t *p, fr_t *out, const fr_t *in)
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

/* st <- st x m for a dense t x t matrix. */
static inline void dense_product(fr_t *restrict st, const fr_t (*m)[POSEIDON_MAX_WIDTH], unsigned t)
{
    fr_t nx[POSEIDON_MAX_WIDTH], tmp;
    for (unsigned j = 0; j < t; j++) {
        fr_mul(&nx[j], &st[0], &m[0][j]);
        for (unsigned i = 1; i < t; i++) {
            fr_mul(&tmp, &st[i], &m[i][j]);
            fr_add(&nx[j], &nx[j], &tmp);
        }
    }
    memcpy(st, nx, t * sizeof(fr_t));
}

/* A full round's S-boxes, each followed by its post-S-box constant. */
static inline void full_sboxes(fr_t *restrict st, const fr_t *restrict key, unsigned t)
{
    for (unsigned i = 0; i < t; i++) {
        sbox(&st[i]);
        fr_add(&st[i], &st[i], &key[i]);
    }
}

/* (1) Why this shape: neptune's optimized evaluation (DESIGN at the top of
 * this file): full rounds as in the plain form but with their constants
 * after the S-boxes, partial rounds with one scalar constant and a sparse
 * matrix (2t - 1 multiplications instead of t^2), and of the last matrix
 * only the column of output element 1. The state lives on the stack;
 * nothing is allocated, so any number of threads share one poseidon_t.
 * (2) Invariants: every fr_t stays reduced (ff.h contracts); crc is consumed
 * in order and k ends at rf * t + rp (checked under GM_VERIFY); round r of
 * the partial rounds uses sparse matrix r.
 * (3) Measured by `grothmpi bench poseidon`, against the plain form;
 * bench/README.md has the table. */
void poseidon_hash(const poseidon_t *p, fr_t *out, const fr_t *in)
{
    fr_t st[POSEIDON_MAX_WIDTH], tmp;
    const unsigned t = p->t, half = p->rf / 2, w = 2 * t - 1;
    const fr_t *crc = p->crc;
    fr_add(&st[0], &p->tag, &crc[0]);
    for (unsigned i = 1; i < t; i++)
        fr_add(&st[i], &in[i - 1], &crc[i]);
    size_t k = t;
    for (unsigned r = 0; r + 1 < half; r++, k += t) {
        full_sboxes(st, &crc[k], t);
        dense_product(st, p->mds, t);
    }
    full_sboxes(st, &crc[k], t);
    k += t;
    dense_product(st, p->pre_sparse, t);
    for (unsigned r = 0; r < p->rp; r++, k++) {
        const fr_t *sp = &p->sparse[(size_t)r * w]; /* w_hat[0..t), then v_rest[0..t-1) */
        sbox(&st[0]);
        fr_add(&st[0], &st[0], &crc[k]);
        /* new[0] = sum_i w_hat[i] st[i]; new[j] = st[j] + v_rest[j - 1] st[0] */
        fr_t s0 = st[0], n0;
        fr_mul(&n0, &sp[0], &s0);
        for (unsigned j = 1; j < t; j++) {
            fr_mul(&tmp, &sp[j], &st[j]);
            fr_add(&n0, &n0, &tmp);
            fr_mul(&tmp, &sp[t + j - 1], &s0);
            fr_add(&st[j], &st[j], &tmp);
        }
        st[0] = n0;
    }
    for (unsigned r = 0; r + 1 < half; r++, k += t) {
        full_sboxes(st, &crc[k], t);
        dense_product(st, p->mds, t);
    }
    GM_VERIFY(k == (size_t)p->rf * t + p->rp);
    for (unsigned i = 0; i < t; i++)
        sbox(&st[i]);
    /* output element 1 of st x M: column 1 only */
    fr_t o;
    fr_mul(&o, &st[0], &p->mds[0][1]);
    for (unsigned i = 1; i < t; i++) {
        fr_mul(&tmp, &st[i], &p->mds[i][1]);
        fr_add(&o, &o, &tmp);
    }
    *out = o;
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

/* x <- (x + pre)^5 + post on an allocated x, pre and post NULL for none:
 * l2 = (x + pre)^2, l4 = l2^2, l5 = l4 (x + pre) + post, 3 constraints as
 * neptune's square_sum (or AllocatedNum::square without pre), square and
 * mul_sum write them: (x + pre)(x + pre) = l2, l2 l2 = l4,
 * (x + pre) l4 = l5 - post. */
static void quintic(cs_t *cs, elt_t *x, const fr_t *pre, const fr_t *post, bool vals)
{
    fr_t xv = x->val, l2v, l4v, l5v, negpost;
    if (vals) {
        if (pre)
            fr_add(&xv, &xv, pre);
        fr_sqr(&l2v, &xv);
        fr_sqr(&l4v, &l2v);
        fr_mul(&l5v, &l4v, &xv);
        if (post)
            fr_add(&l5v, &l5v, post);
    } else {
        l2v = l4v = l5v = FR_ZERO;
    }
    if (post)
        fr_neg(&negpost, post);
    cs_var_t l2 = cs_alloc(cs, &l2v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, x->var, NULL);
    if (pre)
        cs_term(cs, CS_A, CS_ONE, pre);
    cs_term(cs, CS_B, x->var, NULL);
    if (pre)
        cs_term(cs, CS_B, CS_ONE, pre);
    cs_term(cs, CS_C, l2, NULL);
    cs_enforce_end(cs, pre ? "squared sum constraint" : "squaring constraint");
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
    if (post)
        cs_term(cs, CS_C, CS_ONE, &negpost);
    cs_enforce_end(cs, "mul sum constraint");
    x->var = l5;
    x->val = l5v;
    x->allocated = true;
}

/* st <- st x m, m dense (neptune's product_mds_with_matrix: element j is
 * the scalar product of the state with column j), into linear combinations. */
static void elts_dense(cs_t *cs, elt_t *st, const fr_t (*m)[POSEIDON_MAX_WIDTH], unsigned t, bool vals)
{
    elt_t nx[POSEIDON_MAX_WIDTH];
    for (unsigned j = 0; j < t; j++) {
        nx[j].allocated = false;
        nx[j].val = FR_ZERO;
        uint32_t cap = 0;
        for (unsigned i = 0; cs->record && i < t; i++)
            cap += st[i].allocated ? 1 : st[i].lc.n;
        nx[j].lc = cs_lc_new(cs, cap);
        for (unsigned i = 0; i < t; i++) {
            if (vals) {
                fr_t tmp;
                fr_mul(&tmp, &st[i].val, &m[i][j]);
                fr_add(&nx[j].val, &nx[j].val, &tmp);
            }
            if (st[i].allocated)
                cs_lc_add(cs, &nx[j].lc, st[i].var, &m[i][j]);
            else
                cs_lc_add_lc(cs, &nx[j].lc, &st[i].lc, &m[i][j]);
        }
        cs_lc_compact(cs, &nx[j].lc);
    }
    memcpy(st, nx, t * sizeof(elt_t));
}

/* st <- st x M'' for a partial round's sparse matrix sp (w_hat[0..t), then
 * v_rest[0..t-1)), as neptune's product_mds_with_sparse_matrix: element 0
 * is the scalar product with w_hat; element j > 0 is st[j] (a linear
 * combination) plus v_rest[j - 1] times st[0] (the S-box output, allocated). */
static void elts_sparse(cs_t *cs, elt_t *st, const fr_t *sp, unsigned t, bool vals)
{
    elt_t nx[POSEIDON_MAX_WIDTH];
    GM_ASSERT(st[0].allocated);
    nx[0].allocated = false;
    nx[0].val = FR_ZERO;
    uint32_t cap = 0;
    for (unsigned i = 0; cs->record && i < t; i++)
        cap += st[i].allocated ? 1 : st[i].lc.n;
    nx[0].lc = cs_lc_new(cs, cap);
    for (unsigned i = 0; i < t; i++) {
        if (vals) {
            fr_t tmp;
            fr_mul(&tmp, &st[i].val, &sp[i]);
            fr_add(&nx[0].val, &nx[0].val, &tmp);
        }
        if (st[i].allocated)
            cs_lc_add(cs, &nx[0].lc, st[i].var, &sp[i]);
        else
            cs_lc_add_lc(cs, &nx[0].lc, &st[i].lc, &sp[i]);
    }
    cs_lc_compact(cs, &nx[0].lc);
    for (unsigned j = 1; j < t; j++) {
        GM_ASSERT(!st[j].allocated); /* only element 0 is allocated in the partial rounds */
        const fr_t *v = &sp[t + j - 1];
        nx[j].allocated = false;
        nx[j].val = st[j].val;
        if (vals) {
            fr_t tmp;
            fr_mul(&tmp, &st[0].val, v);
            fr_add(&nx[j].val, &nx[j].val, &tmp);
        }
        nx[j].lc = cs_lc_new(cs, cs->record ? st[j].lc.n + 1 : 0);
        cs_lc_add_lc(cs, &nx[j].lc, &st[j].lc, NULL);
        cs_lc_add(cs, &nx[j].lc, st[0].var, v);
        cs_lc_compact(cs, &nx[j].lc);
    }
    memcpy(st, nx, t * sizeof(elt_t));
}

/* The matrix after round `round` (0-based over all rounds), as neptune's
 * PoseidonCircuit::product_mds picks it: the pre-sparse matrix after the last
 * first-half full round, the sparse ones after the partial rounds, M
 * otherwise. */
static void elts_mds(cs_t *cs, const poseidon_t *p, elt_t *st, unsigned round, bool vals)
{
    unsigned half = p->rf / 2;
    if (round == half - 1)
        elts_dense(cs, st, p->pre_sparse, p->t, vals);
    else if (round >= half && round < half + p->rp)
        elts_sparse(cs, st, &p->sparse[(size_t)(round - half) * (2 * p->t - 1)], p->t, vals);
    else
        elts_dense(cs, st, p->mds, p->t, vals);
}

/* The permutation on cs, any mode, exactly as neptune's legacy circuit
 * (circuit.rs PoseidonCircuit::hash over the optimized constants) builds it,
 * since Filecoin's trusted setup fixed its rows: round 0 adds the
 * compressed pre-keys inside the S-boxes (the tag's S-box is a constant) and
 * its post-keys after them; every later round allocates each S-box input
 * (ensure_allocated: lc * 1 = v), raises it to the fifth power with the
 * round's post-key folded into the last constraint (none in the last
 * round), then multiplies by the round's matrix; the output is allocated.
 * vals: compute values (WITNESS, CHECK). */
static cs_num_t poseidon_generic(cs_t *cs, const poseidon_t *p, const cs_num_t *in, bool vals)
{
    size_t mark = cs_arena_mark(cs);
    const unsigned t = p->t, half = p->rf / 2;
    const fr_t *crc = p->crc;
    elt_t st[POSEIDON_MAX_WIDTH];
    unsigned round = 0;
    /* round 0: pre-keys crc[0..t), post-keys crc[t..2t) */
    st[0].allocated = false;
    fr_add(&st[0].val, &p->tag, &crc[0]);
    sbox(&st[0].val);
    fr_add(&st[0].val, &st[0].val, &crc[t]);
    st[0].lc = cs_lc_new(cs, 1);
    cs_lc_add(cs, &st[0].lc, CS_ONE, &st[0].val);
    cs_ns_push(cs, "first round");
    for (unsigned i = 1; i < t; i++) {
        cs_ns_push(cs, "quintic s-box %u", i);
        st[i].allocated = true;
        st[i].var = in[i - 1].var;
        st[i].val = in[i - 1].value;
        quintic(cs, &st[i], &crc[i], &crc[t + i], vals);
        cs_ns_pop(cs);
    }
    cs_ns_pop(cs);
    elts_mds(cs, p, st, round++, vals);
    size_t k = 2 * (size_t)t;
    for (unsigned r = 1; r < p->rf; r++) {
        bool last = r + 1 == p->rf;
        cs_ns_push(cs, last ? "terminal full round" : "full round %u", r);
        for (unsigned i = 0; i < t; i++) {
            cs_ns_push(cs, "quintic s-box %u", i);
            elt_allocate(cs, &st[i], vals);
            quintic(cs, &st[i], NULL, last ? NULL : &crc[k + i], vals);
            cs_ns_pop(cs);
        }
        cs_ns_pop(cs);
        if (!last)
            k += t;
        elts_mds(cs, p, st, round++, vals);
        if (r + 1 == half) /* the partial rounds come after the first half */
            for (unsigned q = 0; q < p->rp; q++, k++) {
                cs_ns_push(cs, "partial round %u", q);
                elt_allocate(cs, &st[0], vals);
                quintic(cs, &st[0], NULL, &crc[k], vals);
                cs_ns_pop(cs);
                elts_mds(cs, p, st, round++, vals);
            }
    }
    GM_ASSERT(k == (size_t)p->rf * t + p->rp && round == p->rf + p->rp);
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
