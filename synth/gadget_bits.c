/*
 * synth/gadget_bits.c — Boolean gadgets (bellpepper-core boolean.rs), UInt32
 * and MultiEq (bellperson uint32.rs, multieq.rs) and UInt64 (rust-fil-proofs
 * uint64.rs).
 *
 * DESIGN. Constraint counts and variable order must equal bellperson's, so
 * each function follows its original case by case: the order in which
 * constant operands are recognised decides which shortcut applies, and the
 * order of allocations and constraints decides the numbering. The SHA-256
 * gadget is built from these, and it is 99% of the PoRep circuit, so every
 * function is a few branches in COUNT and WITNESS mode: terms are only
 * formed when the cs_t records them, and bit allocation and constraint
 * counting are inline (cs_i_alloc_bit, cs_i_count). `grothmpi bench synth`
 * measures the witness (bench/README.md).
 */
#include "synth/synth_internal.h"

/* ---- AllocatedBit ------------------------------------------------------------------ */

cs_bool_t cs_bit_alloc(cs_t *cs, bool value)
{
    cs_var_t v = cs_i_alloc_bit(cs, value);
    /* (1 - v) * v = 0 */
    if (!cs->record) {
        cs_i_count(cs);
    } else {
        cs_enforce_begin(cs);
        cs_term(cs, CS_A, CS_ONE, NULL);
        cs_term(cs, CS_A, v, &cs->minus_one);
        cs_term(cs, CS_B, v, NULL);
        cs_enforce_end(cs, "boolean constraint");
    }
    cs_bool_t b = {v, CS_BOOL_IS, (uint8_t)value};
    return b;
}

/* AllocatedBit::xor: (2a) * b = a + b - c. */
static cs_bool_t bit_xor(cs_t *cs, cs_var_t a, bool av, cs_var_t b, bool bv)
{
    bool r = av ^ bv;
    cs_var_t c = cs_i_alloc_bit(cs, r);
    if (!cs->record) {
        cs_i_count(cs);
    } else {
        cs_enforce_begin(cs);
        cs_term(cs, CS_A, a, &cs->pow2[1]);
        cs_term(cs, CS_B, b, NULL);
        cs_term(cs, CS_C, a, NULL);
        cs_term(cs, CS_C, b, NULL);
        cs_term(cs, CS_C, c, &cs->minus_one);
        cs_enforce_end(cs, "xor constraint");
    }
    cs_bool_t o = {c, CS_BOOL_IS, (uint8_t)r};
    return o;
}

/* The three two-input products of AllocatedBit: and (a * b = c), and_not
 * (a * (1 - b) = c), nor ((1 - a) * (1 - b) = c). */
typedef enum { BIT_AND, BIT_AND_NOT, BIT_NOR } bit_op_t;

static cs_bool_t bit_op(cs_t *cs, bit_op_t op, cs_var_t a, bool av, cs_var_t b, bool bv)
{
    bool r = op == BIT_AND ? (av && bv) : op == BIT_AND_NOT ? (av && !bv) : (!av && !bv);
    cs_var_t c = cs_i_alloc_bit(cs, r);
    if (!cs->record) {
        cs_i_count(cs);
        cs_bool_t o = {c, CS_BOOL_IS, (uint8_t)r};
        return o;
    }
    cs_enforce_begin(cs);
    {
        if (op == BIT_NOR) {
            cs_term(cs, CS_A, CS_ONE, NULL);
            cs_term(cs, CS_A, a, &cs->minus_one);
        } else {
            cs_term(cs, CS_A, a, NULL);
        }
        if (op == BIT_AND) {
            cs_term(cs, CS_B, b, NULL);
        } else {
            cs_term(cs, CS_B, CS_ONE, NULL);
            cs_term(cs, CS_B, b, &cs->minus_one);
        }
        cs_term(cs, CS_C, c, NULL);
    }
    cs_enforce_end(cs, op == BIT_AND ? "and constraint" : op == BIT_AND_NOT ? "and not constraint" : "nor constraint");
    cs_bool_t o = {c, CS_BOOL_IS, (uint8_t)r};
    return o;
}

cs_bool_t cs_bit_and(cs_t *cs, cs_bool_t a, cs_bool_t b)
{
    GM_ASSERT(a.kind == CS_BOOL_IS && b.kind == CS_BOOL_IS);
    return bit_op(cs, BIT_AND, a.var, a.val, b.var, b.val);
}

cs_bool_t cs_bit_nor(cs_t *cs, cs_bool_t a, cs_bool_t b)
{
    GM_ASSERT(a.kind == CS_BOOL_IS && b.kind == CS_BOOL_IS);
    return bit_op(cs, BIT_NOR, a.var, a.val, b.var, b.val);
}

/* ---- Boolean ----------------------------------------------------------------------------- */

void cs_term_bool(cs_t *cs, cs_side_t side, cs_bool_t b, const fr_t *coeff)
{
    if (!cs->record)
        return;
    switch (b.kind) {
    case CS_BOOL_CONST:
        if (b.val)
            cs_term(cs, side, CS_ONE, coeff);
        break;
    case CS_BOOL_IS:
        cs_term(cs, side, b.var, coeff);
        break;
    default: {
        fr_t neg;
        if (coeff)
            fr_neg(&neg, coeff);
        cs_term(cs, side, CS_ONE, coeff);
        cs_term(cs, side, b.var, coeff ? &neg : &cs->minus_one);
    }
    }
}

void cs_lc_add_bool(cs_t *cs, cs_lc_t *lc, cs_bool_t b, const fr_t *coeff)
{
    if (!cs->record)
        return;
    switch (b.kind) {
    case CS_BOOL_CONST:
        if (b.val)
            cs_lc_add(cs, lc, CS_ONE, coeff);
        break;
    case CS_BOOL_IS:
        cs_lc_add(cs, lc, b.var, coeff);
        break;
    default: {
        fr_t neg;
        if (coeff)
            fr_neg(&neg, coeff);
        cs_lc_add(cs, lc, CS_ONE, coeff);
        cs_lc_add(cs, lc, b.var, coeff ? &neg : &cs->minus_one);
    }
    }
}

static bool is_const(cs_bool_t b, bool v) { return b.kind == CS_BOOL_CONST && b.val == v; }

cs_bool_t cs_bool_xor(cs_t *cs, cs_bool_t a, cs_bool_t b)
{
    if (is_const(a, false))
        return b;
    if (is_const(b, false))
        return a;
    if (is_const(a, true))
        return cs_bool_not(b);
    if (is_const(b, true))
        return cs_bool_not(a);
    if (a.kind == b.kind) /* Is^Is or Not^Not: the negations cancel */
        return bit_xor(cs, a.var, a.kind == CS_BOOL_IS ? a.val : !a.val, b.var, b.kind == CS_BOOL_IS ? b.val : !b.val);
    /* Is ^ Not = not(Is ^ Is): xor of the two allocated bits, negated. */
    bool ar = a.kind == CS_BOOL_IS ? a.val : !a.val, br = b.kind == CS_BOOL_IS ? b.val : !b.val;
    cs_var_t iv = a.kind == CS_BOOL_IS ? a.var : b.var, nv = a.kind == CS_BOOL_IS ? b.var : a.var;
    bool ivv = a.kind == CS_BOOL_IS ? ar : br, nvv = a.kind == CS_BOOL_IS ? br : ar;
    return cs_bool_not(bit_xor(cs, iv, ivv, nv, nvv));
}

cs_bool_t cs_bool_and(cs_t *cs, cs_bool_t a, cs_bool_t b)
{
    if (is_const(a, false) || is_const(b, false))
        return cs_bool_const(false);
    if (is_const(a, true))
        return b;
    if (is_const(b, true))
        return a;
    /* raw values of the underlying allocated bits */
    bool ar = a.kind == CS_BOOL_IS ? a.val : !a.val, br = b.kind == CS_BOOL_IS ? b.val : !b.val;
    if (a.kind == CS_BOOL_IS && b.kind == CS_BOOL_NOT)
        return bit_op(cs, BIT_AND_NOT, a.var, ar, b.var, br);
    if (a.kind == CS_BOOL_NOT && b.kind == CS_BOOL_IS)
        return bit_op(cs, BIT_AND_NOT, b.var, br, a.var, ar);
    if (a.kind == CS_BOOL_NOT)
        return bit_op(cs, BIT_NOR, a.var, ar, b.var, br);
    return bit_op(cs, BIT_AND, a.var, ar, b.var, br);
}

cs_bool_t cs_bool_ch(cs_t *cs, cs_bool_t a, cs_bool_t b, cs_bool_t c)
{
    bool v = (a.val & b.val) ^ ((!a.val) & c.val);
    if (a.kind == CS_BOOL_CONST && b.kind == CS_BOOL_CONST && c.kind == CS_BOOL_CONST)
        return cs_bool_const(v);
    if (is_const(a, false))
        return c;
    if (is_const(b, false))
        return cs_bool_and(cs, cs_bool_not(a), c);
    if (is_const(c, false))
        return cs_bool_and(cs, a, b);
    if (is_const(c, true))
        return cs_bool_not(cs_bool_and(cs, a, cs_bool_not(b)));
    if (is_const(b, true))
        return cs_bool_not(cs_bool_and(cs, cs_bool_not(a), cs_bool_not(c)));
    /* a constant true falls through to the general case, as in bellpepper */
    cs_var_t ch = cs_i_alloc_bit(cs, v);
    /* (b - c) * a = ch - c */
    cs_enforce_begin(cs);
    if (cs->record) {
        cs_term_bool(cs, CS_A, b, NULL);
        cs_term_bool(cs, CS_A, c, &cs->minus_one);
        cs_term_bool(cs, CS_B, a, NULL);
        cs_term(cs, CS_C, ch, NULL);
        cs_term_bool(cs, CS_C, c, &cs->minus_one);
    }
    cs_enforce_end(cs, "ch computation");
    cs_bool_t o = {ch, CS_BOOL_IS, (uint8_t)v};
    return o;
}

cs_bool_t cs_bool_maj(cs_t *cs, cs_bool_t a, cs_bool_t b, cs_bool_t c)
{
    bool v = (a.val & b.val) ^ (a.val & c.val) ^ (b.val & c.val);
    if (a.kind == CS_BOOL_CONST && b.kind == CS_BOOL_CONST && c.kind == CS_BOOL_CONST)
        return cs_bool_const(v);
    if (is_const(a, false))
        return cs_bool_and(cs, b, c);
    if (is_const(b, false))
        return cs_bool_and(cs, a, c);
    if (is_const(c, false))
        return cs_bool_and(cs, a, b);
    if (is_const(c, true))
        return cs_bool_not(cs_bool_and(cs, cs_bool_not(a), cs_bool_not(b)));
    if (is_const(b, true))
        return cs_bool_not(cs_bool_and(cs, cs_bool_not(a), cs_bool_not(c)));
    if (is_const(a, true))
        return cs_bool_not(cs_bool_and(cs, cs_bool_not(b), cs_bool_not(c)));
    cs_var_t maj = cs_i_alloc_bit(cs, v);
    cs_ns_push(cs, "b and c");
    cs_bool_t bc = cs_bool_and(cs, b, c);
    cs_ns_pop(cs);
    /* (2bc - b - c) * a = bc - maj */
    cs_enforce_begin(cs);
    if (cs->record) {
        cs_term_bool(cs, CS_A, bc, &cs->pow2[1]);
        cs_term_bool(cs, CS_A, b, &cs->minus_one);
        cs_term_bool(cs, CS_A, c, &cs->minus_one);
        cs_term_bool(cs, CS_B, a, NULL);
        cs_term_bool(cs, CS_C, bc, NULL);
        cs_term(cs, CS_C, maj, &cs->minus_one);
    }
    cs_enforce_end(cs, "maj computation");
    cs_bool_t o = {maj, CS_BOOL_IS, (uint8_t)v};
    return o;
}

void cs_bool_enforce_equal(cs_t *cs, cs_bool_t a, cs_bool_t b)
{
    if (a.kind == CS_BOOL_CONST && b.kind == CS_BOOL_CONST) {
        if (a.val != b.val)
            cs_fail(cs, GM_EVERIFY, "enforce_equal: constants %d and %d differ", a.val, b.val);
        return;
    }
    cs_enforce_begin(cs);
    if (cs->record) {
        if (is_const(a, true) || is_const(b, true)) {
            cs_bool_t x = is_const(a, true) ? b : a;
            cs_term(cs, CS_C, CS_ONE, NULL);
            cs_term_bool(cs, CS_C, x, &cs->minus_one);
        } else if (is_const(a, false) || is_const(b, false)) {
            cs_term_bool(cs, CS_C, is_const(a, false) ? b : a, NULL);
        } else {
            cs_term_bool(cs, CS_C, a, NULL);
            cs_term_bool(cs, CS_C, b, &cs->minus_one);
        }
    }
    cs_enforce_end(cs, "enforce equal");
}

/* ---- UInt32 ------------------------------------------------------------------------------ */

void cs_u32_const(cs_u32_t *out, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = cs_bool_const((v >> i) & 1);
    out->value = v;
}

void cs_u32_alloc(cs_t *cs, cs_u32_t *out, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = cs_bit_alloc(cs, (v >> i) & 1);
    out->value = v;
}

void cs_u32_from_bits_be(cs_u32_t *out, const cs_bool_t bits[32])
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++) {
        v = (v << 1) | bits[i].val;
        out->bits[31 - i] = bits[i];
    }
    out->value = v;
}

void cs_u32_to_bits_be(cs_bool_t out[32], const cs_u32_t *a)
{
    for (unsigned i = 0; i < 32; i++)
        out[i] = a->bits[31 - i];
}

void cs_u32_rotr(cs_u32_t *out, const cs_u32_t *a, unsigned by)
{
    by %= 32;
    cs_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = a->bits[(i + by) % 32];
    t.value = by ? (a->value >> by) | (a->value << (32 - by)) : a->value;
    *out = t;
}

void cs_u32_shr(cs_u32_t *out, const cs_u32_t *a, unsigned by)
{
    by %= 32;
    cs_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = i + by < 32 ? a->bits[i + by] : cs_bool_const(false);
    t.value = a->value >> by;
    *out = t;
}

void cs_u32_xor(cs_t *cs, cs_u32_t *out, const cs_u32_t *a, const cs_u32_t *b)
{
    cs_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = cs_bool_xor(cs, a->bits[i], b->bits[i]);
    t.value = a->value ^ b->value;
    *out = t;
}

void cs_u32_ch(cs_t *cs, cs_u32_t *out, const cs_u32_t *a, const cs_u32_t *b, const cs_u32_t *c)
{
    cs_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = cs_bool_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
    t.value = (a->value & b->value) ^ (~a->value & c->value);
    *out = t;
}

void cs_u32_maj(cs_t *cs, cs_u32_t *out, const cs_u32_t *a, const cs_u32_t *b, const cs_u32_t *c)
{
    cs_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = cs_bool_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
    t.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    *out = t;
}

/* ---- MultiEq ------------------------------------------------------------------------------- */

/* Fr::CAPACITY for BLS12-381's scalar field. */
#define FR_CAPACITY 254

void cs_multieq_init(cs_multieq_t *m, cs_t *cs)
{
    m->cs = cs;
    m->lhs = cs_lc_new(cs, 512);
    m->rhs = cs_lc_new(cs, 64);
    m->bits_used = 0;
    m->ops = 0;
}

static void multieq_accumulate(cs_multieq_t *m)
{
    cs_t *cs = m->cs;
    cs_enforce_begin(cs);
    cs_term_lc(cs, CS_A, &m->lhs, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term_lc(cs, CS_C, &m->rhs, NULL);
    cs_enforce_end(cs, "multieq");
    m->lhs.n = m->rhs.n = 0;
    m->bits_used = 0;
    m->ops++;
}

void cs_multieq_finish(cs_multieq_t *m)
{
    if (m->bits_used > 0)
        multieq_accumulate(m);
}

void cs_u32_addmany(cs_multieq_t *m, cs_u32_t *out, const cs_u32_t *ops, unsigned n)
{
    cs_t *cs = m->cs;
    GM_ASSERT(n >= 2 && n <= 10);
    uint64_t max_value = (uint64_t)n * 0xffffffffULL, sum = 0;
    bool all_const = true;
    for (unsigned k = 0; k < n; k++) {
        sum += ops[k].value;
        for (unsigned i = 0; i < 32 && all_const; i++)
            all_const = ops[k].bits[i].kind == CS_BOOL_CONST;
    }
    if (all_const) {
        cs_u32_const(out, (uint32_t)sum);
        return;
    }
    /* The result bits come first (as in bellperson), then the equality joins
     * the batch, which may first flush the batch before it. */
    cs_bool_t res[40];
    unsigned nbits = 0;
    while (max_value != 0) {
        res[nbits] = cs_bit_alloc(cs, (sum >> nbits) & 1);
        nbits++;
        max_value >>= 1;
    }
    if (FR_CAPACITY <= m->bits_used + nbits)
        multieq_accumulate(m);
    GM_ASSERT(FR_CAPACITY > m->bits_used + nbits);
    if (cs->record) {
        unsigned s = m->bits_used;
        for (unsigned k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++)
                cs_lc_add_bool(cs, &m->lhs, ops[k].bits[i], &cs->pow2[s + i]);
        for (unsigned i = 0; i < nbits; i++)
            cs_lc_add(cs, &m->rhs, res[i].var, &cs->pow2[s + i]);
    }
    m->bits_used += nbits;
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = res[i];
    out->value = (uint32_t)sum;
}

/* ---- UInt64 -------------------------------------------------------------------------------- */

void cs_u64_alloc(cs_t *cs, cs_u64_t *out, uint64_t v)
{
    for (unsigned i = 0; i < 64; i++)
        out->bits[i] = cs_bit_alloc(cs, (v >> i) & 1);
    out->value = v;
}

void cs_u64_pack_into_input(cs_t *cs, const cs_u64_t *a)
{
    cs_pack_into_inputs(cs, a->bits, 64);
}
