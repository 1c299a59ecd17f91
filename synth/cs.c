/*
 * synth/cs.c — the constraint system: variables, values, the pending
 * constraint, arena linear combinations, namespaces, and the CHECK backend.
 *
 * DESIGN. One cs_t serves all four modes; the mode only decides which of
 * three things happen: terms are built (SHAPE, CHECK), values are kept
 * (WITNESS, CHECK), constraints are recorded into matrices (SHAPE, in
 * synth/shape.c) or evaluated on the spot (CHECK). COUNT does none of them, so
 * a counting run costs a few branches per gadget call. Nothing here allocates
 * per constraint: the pending sides, the arena and the value arrays grow by
 * doubling and are reused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synth_internal.h"

void cs_fail(cs_t *cs, int code, const char *fmt, ...)
{
    if (cs->err_code != 0)
        return;
    cs->err_code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cs->err_msg, sizeof cs->err_msg, fmt, ap);
    va_end(ap);
}

int cs_create(cs_t **out, cs_mode_t mode, cs_flags_t flags, err_t *err)
{
    *out = NULL;
    if (mode < CS_COUNT || mode > CS_CHECK)
        return gm_err_set(err, GM_EINVAL, "cs_create: mode %d is not a cs_mode_t", (int)mode);
    cs_t *cs = gm_calloc(1, sizeof *cs);
    if (!cs)
        return gm_err_set(err, GM_ENOMEM, "cs_create: out of memory");
    cs->mode = mode;
    cs->record = mode == CS_SHAPE || mode == CS_CHECK;
    cs->store = mode == CS_WITNESS || mode == CS_CHECK;
    cs->names = mode == CS_CHECK || (flags & CS_FLAG_NAMES);
    cs->compact = cs->store && (flags & CS_FLAG_COMPACT);
    cs->one = FR_ONE;
    fr_neg(&cs->minus_one, &FR_ONE);
    cs->pow2[0] = FR_ONE;
    for (unsigned k = 1; k < 256; k++)
        fr_dbl(&cs->pow2[k], &cs->pow2[k - 1]);
    for (unsigned k = 0; k < 256; k++)
        fr_neg(&cs->npow2[k], &cs->pow2[k]);
    if (mode == CS_SHAPE) {
        /* Coefficient ids 0 and 1 are 1 and -1, which the product special-cases. */
        (void)cs_rec_coeff(cs, &cs->one);
        (void)cs_rec_coeff(cs, &cs->minus_one);
    }
    (void)cs_alloc_input(cs, &cs->one);
    if (cs->err_code) {
        int code = gm_err_set(err, cs->err_code, "%s", cs->err_msg);
        cs_destroy(cs);
        return code;
    }
    *out = cs;
    return 0;
}

void cs_destroy(cs_t *cs)
{
    if (!cs)
        return;
    gm_free(cs->inputs);
    gm_free(cs->aux);
    cs_compact_free(&cs->cz);
    for (int s = 0; s < 3; s++)
        gm_free(cs->pend[s].t);
    gm_free(cs->arena);
    cs_rec_free(&cs->rec);
    for (int k = 0; k < 4; k++)
        cs_destroy(cs->pos_tmpl[k]);
    cs_destroy(cs->pos_scratch);
    gm_free(cs);
}

cs_mode_t cs_mode(const cs_t *cs) { return cs->mode; }

void cs_reserve(cs_t *cs, uint64_t n_aux, uint64_t n_inputs)
{
    if (!cs->store || cs->err_code)
        return;
    /* Exactly the counts asked for, not rounded up to a power of two: a
     * 512 MiB partition's 4.42 M aux values take 135 MiB, not 256 MiB. A
     * synthesis that outgrows the hint grows by doubling from there. The
     * compact form reserves its bitmaps only: its dense count is unknown. */
    if (cs->compact) {
        if (!cs_compact_reserve(&cs->cz, n_aux) ||
            !gm_grow((void **)&cs->inputs, &cs->inputs_cap, n_inputs, sizeof(fr_t), 0))
            cs_fail(cs, GM_ENOMEM, "cs_reserve: out of memory for %llu compact aux values",
                    (unsigned long long)n_aux);
        return;
    }
    if (!gm_grow((void **)&cs->aux, &cs->aux_cap, n_aux, sizeof(fr_t), 0) ||
        !gm_grow((void **)&cs->inputs, &cs->inputs_cap, n_inputs, sizeof(fr_t), 0))
        cs_fail(cs, GM_ENOMEM, "cs_reserve: out of memory for %llu aux values",
                (unsigned long long)n_aux);
}

int cs_status(const cs_t *cs, err_t *err)
{
    if (cs->err_code)
        return gm_err_set(err, cs->err_code, "%s", cs->err_msg);
    return 0;
}

uint64_t cs_num_constraints(const cs_t *cs) { return cs->n_constraints; }
uint64_t cs_num_inputs(const cs_t *cs) { return cs->n_inputs; }
uint64_t cs_num_aux(const cs_t *cs) { return cs->n_aux; }

/* ---- variables -------------------------------------------------------------- */

cs_var_t cs_alloc(cs_t *cs, const fr_t *value)
{
    if (cs->err_code)
        return CS_ONE;
    if (cs->n_aux >= CS_VAR_AUX - 1) {
        cs_fail(cs, GM_EINVAL, "cs_alloc: more than 2^31 aux variables");
        return CS_ONE;
    }
    if (cs->compact) {
        if (!cs_compact_push(&cs->cz, value)) {
            cs_fail(cs, GM_ENOMEM, "cs_alloc: out of memory at aux variable %llu (compact)",
                    (unsigned long long)cs->n_aux);
            return CS_ONE;
        }
    } else if (cs->store) {
        if (cs->n_aux >= cs->aux_cap &&
            !gm_grow((void **)&cs->aux, &cs->aux_cap, cs->n_aux + 1, sizeof(fr_t), 64)) {
            cs_fail(cs, GM_ENOMEM, "cs_alloc: out of memory at aux variable %llu",
                    (unsigned long long)cs->n_aux);
            return CS_ONE;
        }
        cs->aux[cs->n_aux] = *value;
    }
    return CS_VAR_AUX | (cs_var_t)cs->n_aux++;
}

cs_var_t cs_alloc_bit(cs_t *cs, bool value)
{
    return cs_alloc(cs, value ? &cs->one : &FR_ZERO);
}

cs_var_t cs_alloc_input(cs_t *cs, const fr_t *value)
{
    if (cs->err_code)
        return CS_ONE;
    if (cs->n_inputs >= CS_VAR_AUX - 1) {
        cs_fail(cs, GM_EINVAL, "cs_alloc_input: more than 2^31 inputs");
        return CS_ONE;
    }
    if (cs->store) {
        if (!gm_grow((void **)&cs->inputs, &cs->inputs_cap, cs->n_inputs + 1, sizeof(fr_t), 64)) {
            cs_fail(cs, GM_ENOMEM, "cs_alloc_input: out of memory");
            return CS_ONE;
        }
        cs->inputs[cs->n_inputs] = *value;
    }
    return (cs_var_t)cs->n_inputs++;
}

void cs_value(const cs_t *cs, fr_t *out, cs_var_t v)
{
    if (v == CS_ONE) {
        *out = FR_ONE;
        return;
    }
    if (!cs->store) {
        *out = FR_ZERO;
        return;
    }
    uint32_t i = v & ~CS_VAR_AUX;
    if (v & CS_VAR_AUX) {
        GM_ASSERT(i < cs->n_aux);
        if (cs->compact)
            cs_compact_get(out, &cs->cz, i);
        else
            *out = cs->aux[i];
    } else {
        GM_ASSERT(i < cs->n_inputs);
        *out = cs->inputs[i];
    }
}

void cs_set_value(cs_t *cs, cs_var_t v, const fr_t *value)
{
    if (!cs->store || v == CS_ONE)
        return;
    uint32_t i = v & ~CS_VAR_AUX;
    if (v & CS_VAR_AUX) {
        GM_ASSERT(i < cs->n_aux);
        if (!cs->compact)
            cs->aux[i] = *value;
        else if (!cs_compact_set(&cs->cz, i, value))
            cs_fail(cs, GM_ENOMEM, "cs_set_value: out of memory at aux variable %u (compact)", i);
    } else {
        GM_ASSERT(i < cs->n_inputs);
        cs->inputs[i] = *value;
    }
}

const fr_t *cs_input_values(const cs_t *cs) { return cs->inputs; }
const fr_t *cs_aux_values(const cs_t *cs) { return cs->compact ? NULL : cs->aux; }
const cs_compact_t *cs_aux_compact(const cs_t *cs) { return cs->compact ? &cs->cz : NULL; }

const fr_t *cs_fr_one(const cs_t *cs) { return &cs->one; }
const fr_t *cs_fr_minus_one(const cs_t *cs) { return &cs->minus_one; }
const fr_t *cs_fr_pow2(const cs_t *cs, unsigned k)
{
    GM_ASSERT(k < 256);
    return &cs->pow2[k];
}
const fr_t *cs_fr_neg_pow2(const cs_t *cs, unsigned k)
{
    GM_ASSERT(k < 256);
    return &cs->npow2[k];
}

/* ---- the pending constraint --------------------------------------------------- */

void cs_enforce_begin(cs_t *cs)
{
    GM_ASSERT(!cs->in_constraint);
    cs->in_constraint = true;
    cs->pend[0].n = cs->pend[1].n = cs->pend[2].n = 0;
}

static void terms_push(cs_t *cs, cs_terms_t *ts, cs_var_t v, const fr_t *c)
{
    if (ts->n == ts->cap) {
        uint64_t cap = ts->cap;
        if (!gm_grow((void **)&ts->t, &cap, (uint64_t)ts->n + 1, sizeof(cs_term_t), 64)) {
            cs_fail(cs, GM_ENOMEM, "cs_term: out of memory");
            return;
        }
        ts->cap = (uint32_t)cap;
    }
    cs_term_t *t = &ts->t[ts->n++];
    t->c = c ? *c : cs->one;
    t->v = v;
}

void cs_term(cs_t *cs, cs_side_t side, cs_var_t v, const fr_t *coeff)
{
    if (!cs->record || cs->err_code)
        return;
    terms_push(cs, &cs->pend[side], v, coeff);
}

void cs_term_lc(cs_t *cs, cs_side_t side, const cs_lc_t *lc, const fr_t *scale)
{
    if (!cs->record || cs->err_code)
        return;
    for (uint32_t i = 0; i < lc->n; i++) {
        /* Re-read through the arena each time: the arena does not move here,
         * but pend[] may grow. */
        cs_term_t t = cs->arena[lc->off + i];
        if (scale)
            fr_mul(&t.c, &t.c, scale);
        terms_push(cs, &cs->pend[side], t.v, &t.c);
    }
}

/* Sorts terms by variable (inputs before aux, as the tag bit orders them) and
 * merges repeats, dropping zero sums. Small rows (the vast majority: 1 to 3
 * terms) take the insertion sort; the 250-term MultiEq rows arrive nearly
 * sorted, which insertion sort also likes, but qsort bounds the worst case. */
static int term_cmp(const void *a, const void *b)
{
    uint32_t x = ((const cs_term_t *)a)->v, y = ((const cs_term_t *)b)->v;
    return (x > y) - (x < y);
}

static uint32_t terms_normalize(cs_term_t *t, uint32_t n)
{
    if (n > 1) {
        bool sorted = true;
        for (uint32_t i = 1; i < n && sorted; i++)
            sorted = t[i - 1].v < t[i].v;
        if (!sorted) {
            if (n <= 32) {
                for (uint32_t i = 1; i < n; i++) {
                    cs_term_t x = t[i];
                    uint32_t j = i;
                    while (j > 0 && t[j - 1].v > x.v) {
                        t[j] = t[j - 1];
                        j--;
                    }
                    t[j] = x;
                }
            } else {
                qsort(t, n, sizeof *t, term_cmp);
            }
        }
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n;) {
        cs_term_t acc = t[i++];
        while (i < n && t[i].v == acc.v)
            fr_add(&acc.c, &acc.c, &t[i++].c);
        if (!fr_is_zero(&acc.c))
            t[m++] = acc;
    }
    return m;
}

static void eval_terms(const cs_t *cs, fr_t *out, const cs_term_t *t, uint32_t n)
{
    fr_t acc = FR_ZERO, x;
    for (uint32_t i = 0; i < n; i++) {
        cs_value(cs, &x, t[i].v);
        fr_mul(&x, &x, &t[i].c);
        fr_add(&acc, &acc, &x);
    }
    *out = acc;
}

void cs_enforce_end(cs_t *cs, const char *name)
{
    GM_ASSERT(cs->in_constraint);
    cs->in_constraint = false;
    if (cs->err_code)
        return;
    uint64_t index = cs->n_constraints++;
    if (!cs->record)
        return;
    if (cs->mode == CS_CHECK) {
        if (cs->failed)
            return;
        fr_t a, b, c;
        eval_terms(cs, &a, cs->pend[0].t, cs->pend[0].n);
        eval_terms(cs, &b, cs->pend[1].t, cs->pend[1].n);
        eval_terms(cs, &c, cs->pend[2].t, cs->pend[2].n);
        fr_mul(&a, &a, &b);
        if (!fr_eq(&a, &c)) {
            cs->failed = true;
            cs->fail_index = index;
            snprintf(cs->fail_path, sizeof cs->fail_path, "%s%s%s", cs->ns, cs->ns_len ? "/" : "",
                     name ? name : "");
        }
        return;
    }
    cs_term_t *sides[3];
    uint32_t n[3];
    for (int s = 0; s < 3; s++) {
        sides[s] = cs->pend[s].t;
        n[s] = terms_normalize(cs->pend[s].t, cs->pend[s].n);
    }
    cs_rec_row(cs, sides, n);
}

bool cs_is_satisfied(const cs_t *cs, uint64_t *index, const char **path)
{
    if (cs->mode != CS_CHECK || !cs->failed)
        return true;
    if (index)
        *index = cs->fail_index;
    if (path)
        *path = cs->fail_path;
    return false;
}

/* ---- arena linear combinations -----------------------------------------------
 * An LC owns [off, off + cap) of the arena. It grows in place when it is the
 * topmost block, and otherwise moves to the top with twice the room, so a
 * long-lived sum that other LCs were stacked on still appends in amortised
 * O(1). Handles are offsets, so growing the arena itself moves nothing. */

size_t cs_arena_mark(const cs_t *cs) { return cs->arena_top; }

void cs_arena_release(cs_t *cs, size_t mark)
{
    GM_ASSERT(mark <= cs->arena_top);
    cs->arena_top = mark;
}

static bool arena_reserve(cs_t *cs, uint64_t need)
{
    /* A handle holds a u32 offset and capacity: every block must end within
     * 2^32 terms, whichever way it was made (new, grown in place, moved). */
    if (need > UINT32_MAX) {
        cs_fail(cs, GM_ENOMEM, "cs_lc: arena over 2^32 terms");
        return false;
    }
    uint64_t cap = cs->arena_cap;
    if (!gm_grow((void **)&cs->arena, &cap, need, sizeof(cs_term_t), 64)) {
        cs_fail(cs, GM_ENOMEM, "cs_lc: out of memory for %llu arena terms", (unsigned long long)need);
        return false;
    }
    cs->arena_cap = (size_t)cap;
    return true;
}

cs_lc_t cs_lc_new(cs_t *cs, uint32_t cap_hint)
{
    cs_lc_t lc = {0, 0, 0};
    if (!cs->record || cs->err_code)
        return lc;
    if (cap_hint == 0)
        cap_hint = 4;
    if (!arena_reserve(cs, (uint64_t)cs->arena_top + cap_hint))
        return lc;
    lc.off = (uint32_t)cs->arena_top;
    lc.cap = cap_hint;
    cs->arena_top += cap_hint;
    return lc;
}

/* Makes room for `more` terms in lc; false after a sticky error. */
static bool lc_room(cs_t *cs, cs_lc_t *lc, uint32_t more)
{
    if ((uint64_t)lc->n + more <= lc->cap)
        return true;
    /* In 64 bits: doubling a u32 past 2^31 would wrap to 0 and never end;
     * arena_reserve keeps the result below 2^32. */
    uint64_t ncap = lc->cap ? lc->cap : 4;
    while (ncap < (uint64_t)lc->n + more)
        ncap *= 2;
    if (lc->cap && (size_t)lc->off + lc->cap == cs->arena_top) {
        if (!arena_reserve(cs, (uint64_t)lc->off + ncap))
            return false;
        cs->arena_top = (size_t)(lc->off + ncap);
        lc->cap = (uint32_t)ncap;
        return true;
    }
    if (!arena_reserve(cs, (uint64_t)cs->arena_top + ncap))
        return false;
    memmove(&cs->arena[cs->arena_top], &cs->arena[lc->off], (size_t)lc->n * sizeof(cs_term_t));
    lc->off = (uint32_t)cs->arena_top;
    lc->cap = (uint32_t)ncap;
    cs->arena_top += ncap;
    return true;
}

void cs_lc_add(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *coeff)
{
    if (!cs->record || cs->err_code || !lc_room(cs, lc, 1))
        return;
    cs_term_t *t = &cs->arena[lc->off + lc->n++];
    t->c = coeff ? *coeff : cs->one;
    t->v = v;
}

void cs_lc_add_lc(cs_t *cs, cs_lc_t *lc, const cs_lc_t *src, const fr_t *scale)
{
    if (!cs->record || cs->err_code || !lc_room(cs, lc, src->n))
        return;
    for (uint32_t i = 0; i < src->n; i++) {
        cs_term_t t = cs->arena[src->off + i];
        if (scale)
            fr_mul(&t.c, &t.c, scale);
        cs->arena[lc->off + lc->n++] = t;
    }
}

void cs_lc_compact(cs_t *cs, cs_lc_t *lc)
{
    if (!cs->record || cs->err_code)
        return;
    lc->n = terms_normalize(&cs->arena[lc->off], lc->n);
}

void cs_lc_scale(cs_t *cs, cs_lc_t *lc, const fr_t *scale)
{
    if (!cs->record || cs->err_code)
        return;
    for (uint32_t i = 0; i < lc->n; i++)
        fr_mul(&cs->arena[lc->off + i].c, &cs->arena[lc->off + i].c, scale);
}

/* ---- namespaces ------------------------------------------------------------------ */

void cs_ns_push(cs_t *cs, const char *fmt, ...)
{
    if (cs->ns_depth >= CS_NS_DEPTH) {
        cs->ns_overflow++;
        return;
    }
    cs->ns_stack[cs->ns_depth++] = cs->ns_len;
    if (!cs->names)
        return;
    uint32_t len = cs->ns_len;
    if (len > 0 && len < CS_NS_MAX - 1)
        cs->ns[len++] = '/';
    if (len < CS_NS_MAX - 1) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(cs->ns + len, CS_NS_MAX - len, fmt, ap);
        va_end(ap);
        if (w > 0)
            len += (uint32_t)w < CS_NS_MAX - len ? (uint32_t)w : CS_NS_MAX - 1 - len;
    }
    cs->ns_len = len;
    cs->ns[len] = '\0';
}

void cs_ns_pop(cs_t *cs)
{
    if (cs->ns_overflow) {
        cs->ns_overflow--;
        return;
    }
    GM_ASSERT(cs->ns_depth > 0);
    cs->ns_len = cs->ns_stack[--cs->ns_depth];
    cs->ns[cs->ns_len] = '\0';
}
