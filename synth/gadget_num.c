/*
 * synth/gadget_num.c — number gadgets: AllocatedNum (bellpepper-core num.rs),
 * multipacking (bellperson multipack.rs), rust-fil-proofs' constraint.rs
 * (equal, add) and insertion.rs (pick, insert for 2, 4 and 8 elements).
 * Each follows its original's order of allocations and constraints.
 */
#include "synth/synth_internal.h"

cs_num_t cs_num_alloc(cs_t *cs, const fr_t *value)
{
    cs_num_t n = {cs_alloc(cs, value), *value};
    return n;
}

cs_num_t cs_num_alloc_input(cs_t *cs, const fr_t *value)
{
    cs_num_t n = {cs_alloc_input(cs, value), *value};
    return n;
}

void cs_num_inputize(cs_t *cs, const cs_num_t *a)
{
    cs_var_t in = cs_alloc_input(cs, &a->value);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, in, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, a->var, NULL);
    cs_enforce_end(cs, "enforce input is correct");
}

void cs_num_to_bits_le(cs_t *cs, cs_bool_t out[255], const cs_num_t *a)
{
    uint64_t l[4];
    fr_to_limbs(l, &a->value);
    cs_ns_push(cs, "bits");
    for (unsigned i = 0; i < 255; i++)
        out[i] = cs_bit_alloc(cs, (l[i / 64] >> (i % 64)) & 1);
    cs_ns_pop(cs);
    /* 0 * 0 = sum 2^i bit_i - a */
    cs_enforce_begin(cs);
    if (cs->record) {
        for (unsigned i = 0; i < 255; i++)
            cs_term(cs, CS_C, out[i].var, &cs->pow2[i]);
        cs_term(cs, CS_C, a->var, &cs->minus_one);
    }
    cs_enforce_end(cs, "unpacking constraint");
}

void cs_num_enforce_equal(cs_t *cs, const cs_num_t *a, const cs_num_t *b)
{
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, a->var, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, b->var, NULL);
    cs_enforce_end(cs, "equal");
}

cs_num_t cs_num_add(cs_t *cs, const cs_num_t *a, const cs_num_t *b)
{
    fr_t v;
    fr_add(&v, &a->value, &b->value);
    cs_num_t r = cs_num_alloc(cs, &v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, a->var, NULL);
    cs_term(cs, CS_A, b->var, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, r.var, NULL);
    cs_enforce_end(cs, "sum constraint");
    return r;
}

cs_num_t cs_num_mul(cs_t *cs, const cs_num_t *a, const cs_num_t *b)
{
    fr_t v;
    fr_mul(&v, &a->value, &b->value);
    cs_num_t r = cs_num_alloc(cs, &v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, a->var, NULL);
    cs_term(cs, CS_B, b->var, NULL);
    cs_term(cs, CS_C, r.var, NULL);
    cs_enforce_end(cs, "multiplication constraint");
    return r;
}

cs_num_t cs_num_square(cs_t *cs, const cs_num_t *a)
{
    fr_t v;
    fr_sqr(&v, &a->value);
    cs_num_t r = cs_num_alloc(cs, &v);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, a->var, NULL);
    cs_term(cs, CS_B, a->var, NULL);
    cs_term(cs, CS_C, r.var, NULL);
    cs_enforce_end(cs, "squaring constraint");
    return r;
}

cs_num_t cs_num_pick(cs_t *cs, cs_bool_t cond, const cs_num_t *a, const cs_num_t *b)
{
    cs_num_t r = cs_num_alloc(cs, cond.val ? &a->value : &b->value);
    /* (b - a) * cond = b - r */
    cs_enforce_begin(cs);
    if (cs->record) {
        cs_term(cs, CS_A, b->var, NULL);
        cs_term(cs, CS_A, a->var, &cs->minus_one);
        cs_term_bool(cs, CS_B, cond, NULL);
        cs_term(cs, CS_C, b->var, NULL);
        cs_term(cs, CS_C, r.var, &cs->minus_one);
    }
    cs_enforce_end(cs, "pick");
    return r;
}

/* ---- multipacking ------------------------------------------------------------------------ */

#define FR_CAPACITY 254

/* The value of sum 2^i bits[i] for i < n (n <= 254), as an Fr. */
static void pack_value(fr_t *out, const cs_bool_t *bits, size_t n)
{
    uint64_t l[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++)
        if (bits[i].val)
            l[i / 64] |= 1ULL << (i % 64);
    int rc = fr_from_limbs(out, l);
    GM_ASSERT(rc == 0); /* < 2^254 < r */
}

void cs_pack_into_inputs(cs_t *cs, const cs_bool_t *bits, size_t n)
{
    for (size_t off = 0; off < n; off += FR_CAPACITY) {
        size_t k = n - off < FR_CAPACITY ? n - off : FR_CAPACITY;
        fr_t v;
        pack_value(&v, bits + off, k);
        cs_var_t in = cs_alloc_input(cs, &v);
        cs_enforce_begin(cs);
        if (cs->record)
            for (size_t i = 0; i < k; i++)
                cs_term_bool(cs, CS_A, bits[off + i], &cs->pow2[i]);
        cs_term(cs, CS_B, CS_ONE, NULL);
        cs_term(cs, CS_C, in, NULL);
        cs_enforce_end(cs, "packing constraint");
    }
}

cs_num_t cs_pack_bits(cs_t *cs, const cs_bool_t *bits, size_t n)
{
    if (n > FR_CAPACITY)
        n = FR_CAPACITY;
    fr_t v;
    pack_value(&v, bits, n);
    cs_num_t r = cs_num_alloc(cs, &v);
    cs_enforce_begin(cs);
    if (cs->record)
        for (size_t i = 0; i < n; i++)
            cs_term_bool(cs, CS_A, bits[i], &cs->pow2[i]);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, r.var, NULL);
    cs_enforce_end(cs, "packing constraint");
    return r;
}

/* ---- insertion ----------------------------------------------------------------------------- */

void cs_insert(cs_t *cs, cs_num_t *out, const cs_num_t *element, const cs_bool_t *bits, unsigned nbits,
               const cs_num_t *elements)
{
    const cs_num_t *a = element, *e = elements;
    if (nbits == 1) {
        out[0] = cs_num_pick(cs, bits[0], &e[0], a);
        out[1] = cs_num_pick(cs, bits[0], a, &e[0]);
        return;
    }
    if (nbits == 2) {
        /* positions: n = b0 + 2 b1; A goes to position n, the others keep order */
        cs_bool_t b0 = bits[0], b1 = bits[1];
        const cs_num_t *b = &e[0], *c = &e[1], *d = &e[2];
        cs_num_t p0_x0 = cs_num_pick(cs, b0, b, a);
        out[0] = cs_num_pick(cs, b1, b, &p0_x0);
        cs_num_t p1_x0 = cs_num_pick(cs, b0, a, b);
        out[1] = cs_num_pick(cs, b1, c, &p1_x0);
        cs_num_t p2_x1 = cs_num_pick(cs, b0, d, a);
        out[2] = cs_num_pick(cs, b1, &p2_x1, c);
        cs_num_t p3_x1 = cs_num_pick(cs, b0, a, d);
        out[3] = cs_num_pick(cs, b1, &p3_x1, d);
        return;
    }
    GM_ASSERT(nbits == 3);
    cs_bool_t b0 = bits[0], b1 = bits[1], b2 = bits[2];
    const cs_num_t *b = &e[0], *c = &e[1], *d = &e[2], *ee = &e[3], *f = &e[4], *g = &e[5], *h = &e[6];
    cs_bool_t nor01 = cs_bit_nor(cs, b0, b1);
    cs_bool_t and01 = cs_bit_and(cs, b0, b1);
    cs_num_t t, u;
    t = cs_num_pick(cs, nor01, a, b);
    out[0] = cs_num_pick(cs, b2, b, &t);
    t = cs_num_pick(cs, b0, a, b);
    u = cs_num_pick(cs, b1, c, &t);
    out[1] = cs_num_pick(cs, b2, c, &u);
    t = cs_num_pick(cs, b0, d, a);
    u = cs_num_pick(cs, b1, &t, c);
    out[2] = cs_num_pick(cs, b2, d, &u);
    t = cs_num_pick(cs, and01, a, d);
    out[3] = cs_num_pick(cs, b2, ee, &t);
    t = cs_num_pick(cs, nor01, a, f);
    out[4] = cs_num_pick(cs, b2, &t, ee);
    t = cs_num_pick(cs, b0, a, f);
    u = cs_num_pick(cs, b1, g, &t);
    out[5] = cs_num_pick(cs, b2, &u, f);
    t = cs_num_pick(cs, b0, h, a);
    u = cs_num_pick(cs, b1, &t, g);
    out[6] = cs_num_pick(cs, b2, &u, g);
    t = cs_num_pick(cs, and01, a, h);
    out[7] = cs_num_pick(cs, b2, &t, h);
}
