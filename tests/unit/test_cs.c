/*
 * tests/unit/test_cs.c — the constraint system: numbering and counts in
 * every mode, the checker on a hand-built witness (accepts it, rejects a
 * flipped bit and names the constraint by its namespace path), shapes
 * (bellperson's conventions, save/load round trip, damaged files) and the
 * sparse product against a naive dense product (whole, in two passes, and
 * over a range of rows: cs_shape_abc_rows).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth/synth.h"
#pragma GCC diagnostic ignored "-Wcomment" /* testutil.h has a glob in its comment */
#include "tests/unit/testutil.h"

static void setup(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }
TestSuite(cs, .init = setup);

static fr_t u(uint64_t v)
{
    fr_t f;
    fr_set_u64(&f, v);
    return f;
}

/* A hand-built bit: the variable and (1 - x) * x = 0, named "boolean". */
static cs_var_t hand_bit(cs_t *cs, const fr_t *value)
{
    cs_var_t x = cs_alloc(cs, value);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, CS_ONE, NULL);
    cs_term(cs, CS_A, x, cs_fr_minus_one(cs));
    cs_term(cs, CS_B, x, NULL);
    cs_enforce_end(cs, "boolean");
    return x;
}

/* A hand-built circuit: bits a, b, c (values given, not computed), the
 * claimed x = a xor b and y = x and c, and an input packing y + 2x. The
 * claimed values come from the caller, so a witness can be wrong. */
static void hand_circuit(cs_t *cs, const bool v[5])
{
    fr_t val[5];
    for (int i = 0; i < 5; i++)
        val[i] = v[i] ? FR_ONE : FR_ZERO;
    cs_var_t x[5];
    cs_ns_push(cs, "bits");
    for (int i = 0; i < 5; i++) {
        cs_ns_push(cs, "bit %d", i);
        x[i] = hand_bit(cs, &val[i]);
        cs_ns_pop(cs);
    }
    cs_ns_pop(cs);
    cs_ns_push(cs, "logic");
    /* 2a * b = a + b - x */
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, x[0], cs_fr_pow2(cs, 1));
    cs_term(cs, CS_B, x[1], NULL);
    cs_term(cs, CS_C, x[0], NULL);
    cs_term(cs, CS_C, x[1], NULL);
    cs_term(cs, CS_C, x[3], cs_fr_minus_one(cs));
    cs_enforce_end(cs, "xor");
    /* x * c = y */
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, x[3], NULL);
    cs_term(cs, CS_B, x[2], NULL);
    cs_term(cs, CS_C, x[4], NULL);
    cs_enforce_end(cs, "and");
    cs_ns_pop(cs);
    fr_t p = u((uint64_t)v[4] + 2 * (uint64_t)v[3]);
    cs_var_t in = cs_alloc_input(cs, &p);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, x[4], NULL);
    cs_term(cs, CS_A, x[3], cs_fr_pow2(cs, 1));
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, in, NULL);
    cs_enforce_end(cs, "pack");
}

Test(cs, numbering_and_counts_agree_across_modes)
{
    bool v[5] = {1, 0, 1, 1, 1};
    for (int mode = CS_COUNT; mode <= CS_CHECK; mode++) {
        cs_t *cs;
        cr_assert_eq(cs_create(&cs, (cs_mode_t)mode, CS_FLAG_NONE, NULL), 0);
        cr_expect_eq(cs_mode(cs), mode);
        cr_expect_eq(cs_num_inputs(cs), 1, "ONE is input 0");
        fr_t one;
        cs_value(cs, &one, CS_ONE);
        cr_expect(fr_is_one(&one));
        cs_var_t a = cs_alloc(cs, &FR_ONE), i = cs_alloc_input(cs, &FR_ONE);
        cr_expect_eq(a, CS_VAR_AUX | 0);
        cr_expect_eq(i, 1);
        hand_circuit(cs, v);
        cr_expect_eq(cs_num_constraints(cs), 8);
        cr_expect_eq(cs_num_aux(cs), 6);
        cr_expect_eq(cs_num_inputs(cs), 3);
        cr_expect_eq(cs_status(cs, NULL), 0);
        cs_destroy(cs);
    }
}

Test(cs, checker_accepts_hand_built_witness_and_names_a_flipped_bit)
{
    const bool good[5] = {1, 0, 1, 1, 1};
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    hand_circuit(cs, good);
    cr_expect(cs_is_satisfied(cs, NULL, NULL));
    cs_destroy(cs);

    /* flip the claimed xor: "logic/xor" fails first */
    bool bad[5] = {1, 0, 1, 0, 1};
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    hand_circuit(cs, bad);
    const char *path = NULL;
    uint64_t idx = 99;
    cr_expect_not(cs_is_satisfied(cs, &idx, &path));
    cr_expect_str_eq(path, "logic/xor");
    cr_expect_eq(idx, 5);
    cs_destroy(cs);

    /* a value that is not a bit: "bits/bit 2/boolean" */
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs_ns_push(cs, "bits");
    cs_ns_push(cs, "bit %d", 2);
    fr_t two = u(2);
    (void)hand_bit(cs, &two);
    cs_ns_pop(cs);
    cs_ns_pop(cs);
    cr_expect_not(cs_is_satisfied(cs, NULL, &path));
    cr_expect_str_eq(path, "bits/bit 2/boolean");
    cs_destroy(cs);
}

Test(cs, flipped_gadget_bit_named_through_gadget_path)
{
    /* the same through a gadget: xor of two allocated bits, then its
     * result forced to the wrong value by an equality */
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs_ns_push(cs, "round %d", 3);
    cs_bool_t a = cs_bit_alloc(cs, true), b = cs_bit_alloc(cs, true);
    cs_bool_t x = cs_bool_xor(cs, a, b);
    cs_bool_enforce_equal(cs, x, cs_bool_const(true));
    cs_ns_pop(cs);
    const char *path = NULL;
    cr_expect_not(cs_is_satisfied(cs, NULL, &path));
    cr_expect_str_eq(path, "round 3/enforce equal");
    cs_destroy(cs);
}

Test(cs, sticky_error_from_constant_mismatch)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_COUNT, CS_FLAG_NONE, NULL), 0);
    cs_bool_enforce_equal(cs, cs_bool_const(true), cs_bool_const(false));
    err_t e;
    cr_expect_eq(cs_status(cs, &e), GM_EVERIFY);
    cr_expect(strstr(e.msg, "enforce_equal") != NULL, "%s", e.msg);
    /* later calls are no-ops */
    (void)cs_alloc(cs, &FR_ONE);
    cr_expect_eq(cs_num_aux(cs), 0);
    cs_destroy(cs);
}

/* ---- shapes ----------------------------------------------------------------------------------------- */

/* A random small circuit: n_aux random values, then rows with 0..4 random
 * terms per side (repeats allowed, some coefficients 1 or -1), with C chosen
 * so that each row holds for the given values when `satisfied`. */
static void random_circuit(cs_t *cs, test_rng_t *rng, unsigned n_aux, unsigned n_in, unsigned rows)
{
    fr_t vals[64];
    cs_var_t vars[64];
    unsigned nv = 0;
    for (unsigned i = 0; i < n_in && nv < 64; i++) {
        vals[nv] = u(test_rng_next(rng) % 1000);
        vars[nv] = cs_alloc_input(cs, &vals[nv]);
        nv++;
    }
    for (unsigned i = 0; i < n_aux && nv < 64; i++) {
        vals[nv] = u(test_rng_next(rng));
        vars[nv] = cs_alloc(cs, &vals[nv]);
        nv++;
    }
    for (unsigned r = 0; r < rows; r++) {
        cs_enforce_begin(cs);
        for (int s = 0; s < 3; s++) {
            unsigned nt = (unsigned)(test_rng_next(rng) % 5);
            for (unsigned k = 0; k < nt; k++) {
                unsigned j = (unsigned)(test_rng_next(rng) % nv);
                uint64_t c = test_rng_next(rng) % 4;
                fr_t coeff = c == 0 ? FR_ONE : c == 1 ? *cs_fr_minus_one(cs) : u(test_rng_next(rng) % 50);
                cs_term(cs, (cs_side_t)s, test_rng_next(rng) % 8 == 0 ? CS_ONE : vars[j], &coeff);
            }
        }
        cs_enforce_end(cs, "random");
    }
}

static void shape_of(cs_shape_t **sh, fr_t **z, uint64_t seed, unsigned n_aux, unsigned n_in, unsigned rows)
{
    cs_t *s, *w;
    cr_assert_eq(cs_create(&s, CS_SHAPE, CS_FLAG_NONE, NULL), 0);
    cr_assert_eq(cs_create(&w, CS_WITNESS, CS_FLAG_NONE, NULL), 0);
    test_rng_t r1 = {{seed, seed ^ 1, seed ^ 2, seed ^ 3}}, r2 = r1;
    random_circuit(s, &r1, n_aux, n_in, rows);
    random_circuit(w, &r2, n_aux, n_in, rows);
    cr_assert_eq(cs_shape_take(s, sh, NULL), 0);
    uint64_t nz = (*sh)->n_inputs + (*sh)->n_aux;
    *z = gm_alloc(nz * sizeof(fr_t));
    memcpy(*z, cs_input_values(w), (*sh)->n_inputs * sizeof(fr_t));
    memcpy(*z + (*sh)->n_inputs, cs_aux_values(w), (*sh)->n_aux * sizeof(fr_t));
    cs_destroy(s);
    cs_destroy(w);
}

/* Dense reference: expands every row into a full vector of coefficients. */
static void naive_abc(const cs_shape_t *sh, const fr_t *z, fr_t *out[3])
{
    uint64_t nz = sh->n_inputs + sh->n_aux;
    fr_t *dense = gm_alloc(nz * sizeof(fr_t));
    for (int s = 0; s < 3; s++)
        for (uint64_t r = 0; r < sh->n_rows; r++) {
            for (uint64_t j = 0; j < nz; j++)
                dense[j] = FR_ZERO;
            for (uint64_t k = sh->m[s].row_ptr[r]; k < sh->m[s].row_ptr[r + 1]; k++)
                fr_add(&dense[sh->m[s].col[k]], &dense[sh->m[s].col[k]], &sh->coeffs[sh->m[s].coeff[k]]);
            fr_t acc = FR_ZERO, t;
            for (uint64_t j = 0; j < nz; j++) {
                fr_mul(&t, &dense[j], &z[j]);
                fr_add(&acc, &acc, &t);
            }
            out[s][r] = acc;
        }
    gm_free(dense);
}

Test(cs, shape_follows_bellperson_conventions)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_SHAPE, CS_FLAG_NONE, NULL), 0);
    bool v[5] = {1, 0, 1, 1, 1};
    hand_circuit(cs, v);
    cs_shape_t *sh;
    cr_assert_eq(cs_shape_take(cs, &sh, NULL), 0);
    cs_shape_t *again;
    cr_expect_eq(cs_shape_take(cs, &again, NULL), GM_ESTATE);
    cr_expect_null(again);
    cs_destroy(cs);
    cr_expect_eq(sh->n_constraints, 8);
    cr_expect_eq(sh->n_inputs, 2);
    cr_expect_eq(sh->n_aux, 5);
    cr_expect_eq(sh->n_rows, 10);
    cr_expect(fr_is_one(&sh->coeffs[0]));
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    cr_expect(fr_eq(&sh->coeffs[1], &m1));
    /* the last two rows: input_i * 0 = 0 */
    for (uint64_t i = 0; i < 2; i++) {
        uint64_t r = 8 + i;
        cr_expect_eq(sh->m[0].row_ptr[r + 1] - sh->m[0].row_ptr[r], 1);
        cr_expect_eq(sh->m[0].col[sh->m[0].row_ptr[r]], i);
        cr_expect_eq(sh->m[0].coeff[sh->m[0].row_ptr[r]], 0);
        cr_expect_eq(sh->m[1].row_ptr[r + 1], sh->m[1].row_ptr[r]);
        cr_expect_eq(sh->m[2].row_ptr[r + 1], sh->m[2].row_ptr[r]);
    }
    /* row 0, A: ONE (column 0) then aux 0 (column 2), sorted, -1 */
    cr_expect_eq(sh->m[0].row_ptr[1], 2);
    cr_expect_eq(sh->m[0].col[0], 0);
    cr_expect_eq(sh->m[0].col[1], 2);
    cr_expect_eq(sh->m[0].coeff[1], 1);
    cs_shape_free(sh);
}

Test(cs, repeated_terms_merge_and_cancel)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_SHAPE, CS_FLAG_NONE, NULL), 0);
    cs_var_t a = cs_alloc(cs, &FR_ONE), b = cs_alloc(cs, &FR_ONE);
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, b, NULL);
    cs_term(cs, CS_A, a, NULL);
    cs_term(cs, CS_A, b, NULL);
    cs_term(cs, CS_C, a, NULL);
    cs_term(cs, CS_C, a, cs_fr_minus_one(cs));
    cs_enforce_end(cs, "merge");
    cs_shape_t *sh;
    cr_assert_eq(cs_shape_take(cs, &sh, NULL), 0);
    cr_expect_eq(cs_shape_nnz(sh, 0), 2 + 1); /* a, 2b; plus ONE's input row */
    cr_expect_eq(sh->m[0].col[0], 1);
    cr_expect_eq(sh->m[0].col[1], 2);
    fr_t two = u(2);
    cr_expect(fr_eq(&sh->coeffs[sh->m[0].coeff[1]], &two));
    cr_expect_eq(cs_shape_nnz(sh, 2), 0, "a - a cancels");
    cs_shape_free(sh);
    cs_destroy(cs);
}

Test(cs, sparse_product_equals_dense_product)
{
    test_rng_t rng;
    test_rng_init(&rng, "cs/sparse_product_equals_dense_product");
    topo_pool_t *pool = NULL;
    err_t e;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &e), 0, "%s", e.msg);
    for (int rep = 0; rep < 6; rep++) {
        cs_shape_t *sh;
        fr_t *z;
        unsigned rows = rep < 3 ? 1 + (unsigned)(test_rng_next(&rng) % 40) : 3000 + (unsigned)(test_rng_next(&rng) % 2000);
        shape_of(&sh, &z, test_rng_next(&rng), 1 + rep * 5, 1 + rep % 3, rows);
        fr_t *abc[3], *want[3];
        for (int s = 0; s < 3; s++) {
            abc[s] = gm_alloc(sh->n_rows * sizeof(fr_t));
            want[s] = gm_alloc(sh->n_rows * sizeof(fr_t));
        }
        naive_abc(sh, z, want);
        for (int p = 0; p < 2; p++) {
            cs_shape_abc(sh, z, z + sh->n_inputs, abc[0], abc[1], abc[2], p ? pool : NULL);
            for (int s = 0; s < 3; s++)
                for (uint64_t r = 0; r < sh->n_rows; r++)
                    cr_assert(fr_eq(&abc[s][r], &want[s][r]), "rep %d pool %d matrix %d row %llu", rep, p, s,
                              (unsigned long long)r);
            /* the prover's two passes: a and b (c untouched), then c alone
             * (a and b untouched): each output equals the exact product */
            for (int s = 0; s < 3; s++)
                memset(abc[s], 0xA5, sh->n_rows * sizeof(fr_t));
            cs_shape_abc_mode(sh, z, z + sh->n_inputs, abc[0], abc[1], NULL, CS_ABC_NO_C, p ? pool : NULL);
            cs_shape_abc_mode(sh, z, z + sh->n_inputs, NULL, NULL, abc[2], CS_ABC_C_ONLY, p ? pool : NULL);
            for (int s = 0; s < 3; s++)
                for (uint64_t r = 0; r < sh->n_rows; r++)
                    cr_assert(fr_eq(&abc[s][r], &want[s][r]), "two passes: rep %d pool %d matrix %d row %llu", rep,
                              p, s, (unsigned long long)r);
            /* a range of rows (a split proof's share), written from index 0:
             * empty, the whole, and random ones */
            for (int k = 0; k < 4; k++) {
                uint64_t r0 = k == 1 ? 0 : test_rng_next(&rng) % sh->n_rows;
                uint64_t r1 = k == 0 ? r0 : k == 1 ? sh->n_rows : r0 + test_rng_next(&rng) % (sh->n_rows - r0 + 1);
                for (int s = 0; s < 3; s++)
                    memset(abc[s], 0xA5, sh->n_rows * sizeof(fr_t));
                cs_shape_abc_rows(sh, z, z + sh->n_inputs, abc[0], abc[1], abc[2], CS_ABC_EXACT, r0, r1,
                                  p ? pool : NULL);
                for (int s = 0; s < 3; s++) {
                    for (uint64_t r = r0; r < r1; r++)
                        cr_assert(fr_eq(&abc[s][r - r0], &want[s][r]), "rows [%llu, %llu): matrix %d row %llu",
                                  (unsigned long long)r0, (unsigned long long)r1, s, (unsigned long long)r);
                    if (r1 - r0 < sh->n_rows)
                        cr_assert_eq(abc[s][r1 - r0].l[0], 0xA5A5A5A5A5A5A5A5ULL,
                                     "rows [%llu, %llu): wrote past them", (unsigned long long)r0,
                                     (unsigned long long)r1);
                }
            }
        }
        for (int s = 0; s < 3; s++) {
            gm_free(abc[s]);
            gm_free(want[s]);
        }
        gm_free(z);
        cs_shape_free(sh);
    }
    topo_pool_destroy(pool);
}

Test(cs, product_of_a_satisfied_gadget_has_ab_equal_c)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, 2, NULL), 0);
    cs_t *s, *w;
    cr_assert_eq(cs_create(&s, CS_SHAPE, CS_FLAG_NONE, NULL), 0);
    cr_assert_eq(cs_create(&w, CS_WITNESS, CS_FLAG_NONE, NULL), 0);
    cs_t *both[2] = {s, w};
    for (int k = 0; k < 2; k++) {
        fr_t a = u(5), b = u(7);
        cs_num_t in[2] = {cs_num_alloc_input(both[k], &a), cs_num_alloc(both[k], &b)};
        cs_num_t h = cs_poseidon(both[k], &p, in);
        cs_num_inputize(both[k], &h);
    }
    cs_shape_t *sh;
    cr_assert_eq(cs_shape_take(s, &sh, NULL), 0);
    fr_t *abc[3];
    for (int i = 0; i < 3; i++)
        abc[i] = gm_alloc(sh->n_rows * sizeof(fr_t));
    cs_shape_abc(sh, cs_input_values(w), cs_aux_values(w), abc[0], abc[1], abc[2], NULL);
    for (uint64_t r = 0; r < sh->n_rows; r++) {
        fr_t ab;
        fr_mul(&ab, &abc[0][r], &abc[1][r]);
        cr_assert(fr_eq(&ab, &abc[2][r]), "row %llu", (unsigned long long)r);
    }
    for (int i = 0; i < 3; i++)
        gm_free(abc[i]);
    cs_shape_free(sh);
    cs_destroy(s);
    cs_destroy(w);
    poseidon_free(&p);
}

static void tmpdir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/gm-test-cs-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

Test(cs, shape_save_load_round_trip)
{
    cs_shape_t *sh, *back;
    fr_t *z;
    shape_of(&sh, &z, 1234, 20, 3, 500);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    err_t e;
    cr_assert_eq(cs_shape_save(sh, dir, "test-circuit.v1", &e), 0, "%s", e.msg);
    cr_assert_eq(cs_shape_load(&back, dir, "test-circuit.v1", &e), 0, "%s", e.msg);
    cr_expect_eq(back->n_constraints, sh->n_constraints);
    cr_expect_eq(back->n_rows, sh->n_rows);
    cr_expect_eq(back->n_inputs, sh->n_inputs);
    cr_expect_eq(back->n_aux, sh->n_aux);
    cr_assert_eq(back->n_coeffs, sh->n_coeffs);
    for (uint32_t i = 0; i < sh->n_coeffs; i++)
        cr_expect(fr_eq(&back->coeffs[i], &sh->coeffs[i]));
    for (int s = 0; s < 3; s++) {
        uint64_t nnz = cs_shape_nnz(sh, s);
        cr_assert_eq(cs_shape_nnz(back, s), nnz);
        cr_expect_eq(memcmp(back->m[s].row_ptr, sh->m[s].row_ptr, (sh->n_rows + 1) * 8), 0);
        cr_expect_eq(memcmp(back->m[s].col, sh->m[s].col, nnz * 4), 0);
        cr_expect_eq(memcmp(back->m[s].coeff, sh->m[s].coeff, nnz * 4), 0);
    }
    cs_shape_free(back);
    cr_expect(cs_shape_cached(dir, "test-circuit.v1"));
    cr_expect(!cs_shape_cached(dir, "nope"));

    /* a format-1 file (the magic's last byte) is refused, saying what to do */
    char src0[128];
    snprintf(src0, sizeof src0, "%s/test-circuit.v1.shape", dir);
    FILE *f1 = fopen(src0, "r+b");
    cr_assert_not_null(f1);
    cr_assert_eq(fseek(f1, 7, SEEK_SET), 0);
    fputc('1', f1);
    fclose(f1);
    cr_expect(!cs_shape_cached(dir, "test-circuit.v1"));
    cr_expect_eq(cs_shape_load(&back, dir, "test-circuit.v1", &e), GM_EFORMAT);
    cr_expect(strstr(e.msg, "shape format 1") && strstr(e.msg, "record it again"), "%s", e.msg);
    cr_assert_eq(cs_shape_save(sh, dir, "test-circuit.v1", &e), 0, "%s", e.msg);

    /* fuzz finding F7: a non-zero padding byte after the id (15 bytes: 12 +
     * 15 = 27, padded to 32) loaded, and did not save back to the same file */
    f1 = fopen(src0, "r+b");
    cr_assert_not_null(f1);
    cr_assert_eq(fseek(f1, 28, SEEK_SET), 0);
    fputc(0x1f, f1);
    fclose(f1);
    cr_expect_eq(cs_shape_load(&back, dir, "test-circuit.v1", &e), GM_EFORMAT);
    cr_expect(strstr(e.msg, "padding byte 28 is not 0"), "%s", e.msg);
    cr_assert_eq(cs_shape_save(sh, dir, "test-circuit.v1", &e), 0, "%s", e.msg);

    /* another id, a missing file, a bad id, a damaged file */
    snprintf(path, sizeof path, "%s/other.shape", dir);
    cr_expect_eq(cs_shape_load(&back, dir, "nope", &e), GM_EIO);
    cr_expect(strstr(e.msg, "nope.shape") != NULL, "%s", e.msg);
    cr_expect_eq(cs_shape_save(sh, dir, "../escape", &e), GM_EINVAL);
    char src[128];
    snprintf(src, sizeof src, "%s/test-circuit.v1.shape", dir);
    cr_assert_eq(rename(src, path), 0);
    cr_expect_eq(cs_shape_load(&back, dir, "other", &e), GM_EFORMAT);
    cr_expect(strstr(e.msg, "circuit id") != NULL, "%s", e.msg);
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, -6, SEEK_END), 0);
    fputc(0xff, f);
    fputc(0xff, f);
    fputc(0xff, f);
    fclose(f);
    cr_assert_eq(truncate(path, 100), 0);
    cr_expect_eq(cs_shape_load(&back, dir, "other", &e), GM_EFORMAT);
    cr_expect_null(back);
    unlink(path);
    rmdir(dir);
    gm_free(z);
    cs_shape_free(sh);
}

Test(cs, arena_lcs_grow_and_relocate)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    size_t mark = cs_arena_mark(cs);
    cs_lc_t a = cs_lc_new(cs, 1), b = cs_lc_new(cs, 1);
    cs_var_t v[300];
    fr_t sum = FR_ZERO;
    for (int i = 0; i < 300; i++) {
        fr_t x = u((uint64_t)i * 3 + 1);
        v[i] = cs_alloc(cs, &x);
        fr_add(&sum, &sum, &x);
        cs_lc_add(cs, &a, v[i], NULL); /* a is not at the top: relocates */
        cs_lc_add(cs, &b, v[i], cs_fr_pow2(cs, 1));
    }
    fr_t s2;
    fr_dbl(&s2, &sum);
    cs_var_t total = cs_alloc(cs, &sum), total2 = cs_alloc(cs, &s2);
    cs_enforce_begin(cs);
    cs_term_lc(cs, CS_A, &a, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, total, NULL);
    cs_enforce_end(cs, "a");
    cs_enforce_begin(cs);
    cs_term_lc(cs, CS_A, &b, NULL);
    cs_term(cs, CS_B, CS_ONE, NULL);
    cs_term(cs, CS_C, total2, NULL);
    cs_enforce_end(cs, "b");
    cs_arena_release(cs, mark);
    const char *path = NULL;
    cr_expect(cs_is_satisfied(cs, NULL, &path), "%s", path ? path : "");
    cs_destroy(cs);
}
