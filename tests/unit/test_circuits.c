/*
 * tests/unit/test_circuits.c — circuits/'s one witness entry point,
 * circuit_witness, with a seed source: the witness satisfies the circuit's
 * recorded shape (checked here row by row with a naive sparse product, no
 * synth/ or groth16/ code), is reproducible from its seed and differs for
 * another, and holds the same values kept compact or made in CHECK mode; a
 * mode that makes no witness is refused. The C1 source is tested in
 * test_porep_prove.c, next to its C1 fixtures. Replay with GM_TEST_SEED=<seed>.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "circuits/circuits.h"
#include "ff/ff.h"
#include "synth/synth.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

static void init(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }

TestSuite(circuits, .init = init);

/* Row r of matrix m times z = (inputs, aux), term by term. */
static void row_dot(fr_t *out, const cs_shape_t *s, int m, uint64_t r, const fr_t *in, const fr_t *aux)
{
    const cs_matrix_t *x = &s->m[m];
    *out = FR_ZERO;
    for (uint64_t t = x->row_ptr[r]; t < x->row_ptr[r + 1]; t++) {
        uint64_t j = x->col[t];
        const fr_t *v = j < s->n_inputs ? &in[j] : &aux[j - s->n_inputs];
        fr_t p;
        fr_mul(&p, &s->coeffs[x->coeff[t]], v);
        fr_add(out, out, &p);
    }
}

/* Every row of the shape holds for the witness: (A z) (B z) = C z. */
static void assert_satisfies(const cs_shape_t *s, const cs_t *cs, const char *id)
{
    cr_assert_eq(cs_num_inputs(cs), s->n_inputs, "%s: inputs", id);
    cr_assert_eq(cs_num_aux(cs), s->n_aux, "%s: aux", id);
    const fr_t *in = cs_input_values(cs), *aux = cs_aux_values(cs);
    cr_assert(fr_eq(&in[0], &FR_ONE), "%s: ONE", id);
    for (uint64_t r = 0; r < s->n_rows; r++) {
        fr_t a, b, c, ab;
        row_dot(&a, s, 0, r, in, aux);
        row_dot(&b, s, 1, r, in, aux);
        row_dot(&c, s, 2, r, in, aux);
        fr_mul(&ab, &a, &b);
        cr_assert(fr_eq(&ab, &c), "%s: row %llu does not hold", id, (unsigned long long)r);
    }
}

static bool same_values(const cs_t *x, const cs_t *y)
{
    return cs_num_inputs(x) == cs_num_inputs(y) && cs_num_aux(x) == cs_num_aux(y) &&
           memcmp(cs_input_values(x), cs_input_values(y), cs_num_inputs(x) * sizeof(fr_t)) == 0 &&
           memcmp(cs_aux_values(x), cs_aux_values(y), cs_num_aux(x) * sizeof(fr_t)) == 0;
}

Test(circuits, witness_from_a_seed, .timeout = 120)
{
    test_rng_t rng;
    test_rng_init(&rng, "circuits/witness_from_a_seed");
    static const struct {
        const char *name;
        uint64_t size;
    } cases[] = {{"test-mul", 0}, {"test-synthetic", 64}, {"test-synthetic", 1024}, {"test-sha256", 1}};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        err_t err;
        circuit_t c;
        cr_assert_eq(circuit_parse(&c, cases[t].name, cases[t].size, NULL, &err), 0, "%s", err.msg);
        cs_shape_t *shape;
        cr_assert_eq(circuit_shape(&shape, &c, &err), 0, "%s", err.msg);
        uint64_t seed = test_rng_next(&rng);
        circuit_witness_opts_t o = {.seed = seed, .mode = CS_WITNESS};
        cs_t *w, *again, *other, *check, *compact;
        cr_assert_eq(circuit_witness(&w, &c, &o, &err), 0, "%s: %s", c.id, err.msg);
        assert_satisfies(shape, w, c.id);
        cr_assert_eq(circuit_witness(&again, &c, &o, &err), 0, "%s", err.msg);
        cr_assert(same_values(w, again), "%s: one seed, two witnesses", c.id);
        o.seed = seed + 1;
        cr_assert_eq(circuit_witness(&other, &c, &o, &err), 0, "%s", err.msg);
        assert_satisfies(shape, other, c.id);
        cr_assert(!same_values(w, other), "%s: seeds %llu and %llu give one witness", c.id,
                  (unsigned long long)seed, (unsigned long long)seed + 1);

        /* CHECK mode: the same values, every constraint evaluated */
        o.seed = seed;
        o.mode = CS_CHECK;
        cr_assert_eq(circuit_witness(&check, &c, &o, &err), 0, "%s", err.msg);
        uint64_t idx = 0;
        const char *path = NULL;
        cr_assert(cs_is_satisfied(check, &idx, &path), "%s: constraint %llu: %s", c.id, (unsigned long long)idx,
                  path);
        cr_assert(same_values(w, check), "%s: CHECK mode made other values", c.id);

        /* compact: the same aux values, read back one by one */
        o.mode = CS_WITNESS;
        o.flags = CS_FLAG_COMPACT;
        cr_assert_eq(circuit_witness(&compact, &c, &o, &err), 0, "%s", err.msg);
        const cs_compact_t *cc = cs_aux_compact(compact);
        cr_assert_not_null(cc, "%s: not compact", c.id);
        cr_assert_null(cs_aux_values(compact));
        cr_assert_eq(cs_num_aux(compact), cs_num_aux(w));
        for (uint64_t j = 0; j < cs_num_aux(w); j++) {
            fr_t v;
            cs_compact_get(&v, cc, j);
            cr_assert(fr_eq(&v, &cs_aux_values(w)[j]), "%s: compact aux %llu", c.id, (unsigned long long)j);
        }
        cs_destroy(compact);
        cs_destroy(check);
        cs_destroy(other);
        cs_destroy(again);
        cs_destroy(w);
        cs_shape_free(shape);
    }
}

Test(circuits, witness_refuses_a_mode_without_values)
{
    err_t err;
    circuit_t c;
    cr_assert_eq(circuit_parse(&c, "test-mul", 0, NULL, &err), 0, "%s", err.msg);
    static const cs_mode_t modes[] = {CS_COUNT, CS_SHAPE};
    for (size_t i = 0; i < 2; i++) {
        cs_t *cs = (cs_t *)&c;
        circuit_witness_opts_t o = {.seed = 1, .mode = modes[i]};
        cr_assert_eq(circuit_witness(&cs, &c, &o, &err), GM_EINVAL);
        cr_assert_null(cs);
        cr_assert(strstr(err.msg, "test-mul") && strstr(err.msg, "CS_WITNESS or CS_CHECK"), "%s", err.msg);
    }
}
