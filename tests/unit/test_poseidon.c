/*
 * tests/unit/test_poseidon.c — native Poseidon against neptune's known
 * answers, and the circuit's cost and values.
 *
 * Vectors: neptune @ 86377d0 (argumentcomputer/neptune), src/poseidon.rs
 * test hash_values (Strength::Standard, preimage 0, 1, ..., arity - 1; limbs
 * little-endian, canonical); round constants from
 * parameters/round_constants-1-1-255-9-8-57-73EDA753...00000001.txt (the
 * Poseidon authors' generate_parameters_grain.sage for t = 9, RF 8, RP 57):
 * constants 0, 1, 99 and 584.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "synth/synth.h"
#pragma GCC diagnostic ignored "-Wcomment" /* testutil.h has a glob in its comment */
#include "tests/unit/testutil.h"

static void fr_from_u64s(fr_t *out, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t l[4] = {a, b, c, d};
    cr_assert_eq(fr_from_limbs(out, l), 0);
}

/* A big-endian hex string (with 0x) into an Fr, by naive digit arithmetic. */
static void fr_from_hex(fr_t *out, const char *hex)
{
    uint8_t be[32] = {0};
    size_t n = strlen(hex);
    cr_assert(n > 2 && n <= 66);
    for (size_t i = 2; i < n; i++) {
        char ch = hex[n - 1 - (i - 2)];
        unsigned v = ch <= '9' ? (unsigned)(ch - '0') : (unsigned)(ch - 'a' + 10);
        size_t nib = i - 2;
        be[31 - nib / 2] |= (uint8_t)(v << (4 * (nib % 2)));
    }
    cr_assert_eq(fr_from_bytes_be(out, be), 0);
}

static void hash_counting(unsigned arity, fr_t *out)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, arity, NULL), 0);
    fr_t in[11];
    for (unsigned i = 0; i < arity; i++)
        fr_set_u64(&in[i], i);
    poseidon_hash(&p, out, in);
    poseidon_free(&p);
}

Test(poseidon, round_constants_match_the_reference_script)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, 8, NULL), 0);
    cr_assert_eq(p.t, 9);
    cr_assert_eq(p.rp, 57);
    fr_t want;
    fr_from_hex(&want, "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9");
    cr_expect(fr_eq(&p.rc[0], &want), "constant 0");
    fr_from_hex(&want, "0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39");
    cr_expect(fr_eq(&p.rc[1], &want), "constant 1");
    fr_from_hex(&want, "0x09607e183758efcfd09e675d736eaa5ca65e3983e49405a10a5978335899d749");
    cr_expect(fr_eq(&p.rc[99], &want), "constant 99");
    fr_from_hex(&want, "0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c");
    cr_expect(fr_eq(&p.rc[584], &want), "constant 584 (the last)");
    poseidon_free(&p);
}

Test(poseidon, mds_is_cauchy_and_symmetric)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, 11, NULL), 0);
    for (unsigned i = 0; i < p.t; i++)
        for (unsigned j = 0; j < p.t; j++) {
            fr_t x, one;
            fr_set_u64(&x, i + j + p.t);
            fr_mul(&one, &x, &p.mds[i][j]);
            cr_expect(fr_is_one(&one), "M[%u][%u] * (x_i + y_j) != 1", i, j);
            cr_expect(fr_eq(&p.mds[i][j], &p.mds[j][i]));
        }
    poseidon_free(&p);
}

Test(poseidon, rejects_other_arities)
{
    poseidon_t p;
    err_t e;
    cr_expect_eq(poseidon_init(&p, 3, &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "arity 3") != NULL, "%s", e.msg);
}

Test(poseidon, hash_matches_neptune_vectors)
{
    fr_t got, want;
    hash_counting(2, &got);
    fr_from_u64s(&want, 0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b);
    cr_expect(fr_eq(&got, &want), "arity 2");
    hash_counting(8, &got);
    fr_from_u64s(&want, 0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55);
    cr_expect(fr_eq(&got, &want), "arity 8");
    hash_counting(11, &got);
    fr_from_u64s(&want, 0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28);
    cr_expect(fr_eq(&got, &want), "arity 11");
}

/* The circuit in every mode: its constraint count (neptune's legacy test
 * figures), its output equal to the native hash, and a satisfied check. */
static void circuit_case(unsigned arity, uint64_t want_constraints, test_rng_t *rng)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, arity, NULL), 0);
    fr_t in[11], native;
    for (unsigned i = 0; i < arity; i++) {
        uint8_t b[32];
        for (int k = 0; k < 32; k++)
            b[k] = (uint8_t)test_rng_next(rng);
        fr_from_bytes_le_mod(&in[i], b);
    }
    poseidon_hash(&p, &native, in);
    for (int mode = CS_COUNT; mode <= CS_CHECK; mode++) {
        cs_t *cs;
        cr_assert_eq(cs_create(&cs, (cs_mode_t)mode, CS_FLAG_NONE, NULL), 0);
        cs_num_t nums[11];
        for (unsigned i = 0; i < arity; i++)
            nums[i] = cs_num_alloc(cs, &in[i]);
        /* twice: the second replays the template in SHAPE/CHECK */
        for (int rep = 0; rep < 2; rep++) {
            uint64_t c0 = cs_num_constraints(cs), a0 = cs_num_aux(cs);
            cs_num_t out = cs_poseidon(cs, &p, nums);
            cr_expect_eq(cs_num_constraints(cs) - c0, want_constraints, "arity %u mode %d: %llu constraints",
                         arity, mode, (unsigned long long)(cs_num_constraints(cs) - c0));
            /* neptune allocates one variable per constraint except the
             * arity first-round inputs it takes as allocated */
            cr_expect_eq(cs_num_aux(cs) - a0, want_constraints, "arity %u mode %d: aux", arity, mode);
            if (mode == CS_WITNESS || mode == CS_CHECK) {
                cr_expect(fr_eq(&out.value, &native), "arity %u mode %d: value", arity, mode);
                fr_t stored;
                cs_value(cs, &stored, out.var);
                cr_expect(fr_eq(&stored, &native), "arity %u mode %d: stored output", arity, mode);
            }
        }
        cr_expect_eq(cs_status(cs, NULL), 0);
        const char *path = NULL;
        cr_expect(cs_is_satisfied(cs, NULL, &path), "arity %u: unsatisfied at %s", arity, path);
        cs_destroy(cs);
    }
    poseidon_free(&p);
}

Test(poseidon, circuit_costs_and_values)
{
    test_rng_t rng;
    test_rng_init(&rng, "poseidon/circuit_costs_and_values");
    circuit_case(2, 311, &rng);
    circuit_case(4, 377, &rng);
    circuit_case(8, 505, &rng);
    circuit_case(11, 598, &rng);
}

Test(poseidon, checker_catches_a_wrong_output)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, 2, NULL), 0);
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    fr_t a, b;
    fr_set_u64(&a, 1);
    fr_set_u64(&b, 2);
    cs_num_t in[2] = {cs_num_alloc(cs, &a), cs_num_alloc(cs, &b)};
    cs_ns_push(cs, "h");
    cs_num_t out = cs_poseidon(cs, &p, in);
    cs_ns_pop(cs);
    cs_num_t claimed = cs_num_alloc(cs, &a); /* not the hash */
    cs_ns_push(cs, "compare");
    cs_num_enforce_equal(cs, &out, &claimed);
    cs_ns_pop(cs);
    const char *path = NULL;
    uint64_t idx = 0;
    cr_expect_not(cs_is_satisfied(cs, &idx, &path));
    cr_expect_str_eq(path, "compare/equal");
    cr_expect_eq(idx, 311);
    cs_destroy(cs);
    poseidon_free(&p);
}

/* The permutation exactly as the specification states it (round constants
 * added to every element, S-box on all or on element 0, state x M), written
 * here without the module's evaluation code: the reference for the
 * optimized form. */
static void naive_hash(const poseidon_t *p, fr_t *out, const fr_t *in)
{
    fr_t st[12], nx[12];
    st[0] = p->tag;
    for (unsigned i = 0; i < p->arity; i++)
        st[i + 1] = in[i];
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        for (unsigned i = 0; i < p->t; i++)
            fr_add(&st[i], &st[i], &p->rc[r * p->t + i]);
        bool full = r < p->rf / 2 || r >= p->rf / 2 + p->rp;
        for (unsigned i = 0; i < (full ? p->t : 1u); i++) {
            fr_t x = st[i];
            for (int e = 1; e < 5; e++)
                fr_mul(&st[i], &st[i], &x);
        }
        for (unsigned j = 0; j < p->t; j++) {
            nx[j] = FR_ZERO;
            for (unsigned i = 0; i < p->t; i++) {
                fr_t m;
                fr_mul(&m, &st[i], &p->mds[i][j]);
                fr_add(&nx[j], &nx[j], &m);
            }
        }
        memcpy(st, nx, sizeof nx);
    }
    *out = st[1];
}

/* The optimized evaluation (poseidon_hash) equals the plain one and the
 * naive reference on random inputs and on the edges 0 and r - 1, for every
 * arity Filecoin uses. */
Test(poseidon, optimized_equals_plain_on_random_inputs)
{
    test_rng_t rng;
    test_rng_init(&rng, "poseidon/optimized_equals_plain_on_random_inputs");
    static const unsigned arities[] = {2, 4, 8, 11};
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    for (size_t a = 0; a < 4; a++) {
        poseidon_t p;
        cr_assert_eq(poseidon_init(&p, arities[a], NULL), 0);
        for (int iter = 0; iter < 40; iter++) {
            fr_t in[11], opt, plain, naive;
            for (unsigned i = 0; i < p.arity; i++) {
                if (iter == 0) {
                    in[i] = FR_ZERO;
                } else if (iter == 1) {
                    in[i] = minus_one;
                } else {
                    uint8_t b[32];
                    for (int k = 0; k < 32; k++)
                        b[k] = (uint8_t)test_rng_next(&rng);
                    fr_from_bytes_le_mod(&in[i], b);
                }
            }
            poseidon_hash(&p, &opt, in);
            poseidon_hash_plain(&p, &plain, in);
            naive_hash(&p, &naive, in);
            cr_expect(fr_eq(&plain, &naive), "arity %u case %d: plain != naive", p.arity, iter);
            cr_expect(fr_eq(&opt, &naive), "arity %u case %d: optimized != naive", p.arity, iter);
        }
        poseidon_free(&p);
    }
}

/* The factorization of the last partial round (neptune's M = M' M'' with
 * M' = diag(1, M^)): the sparse matrix stored for it, expanded to a full
 * t x t matrix (identity but for row and column 0), multiplied by M' on
 * the left gives M back; and the compressed constants start with rc(0). */
Test(poseidon, last_sparse_matrix_factors_mds)
{
    static const unsigned arities[] = {2, 4, 8, 11};
    for (size_t a = 0; a < 4; a++) {
        poseidon_t p;
        cr_assert_eq(poseidon_init(&p, arities[a], NULL), 0);
        unsigned t = p.t;
        const fr_t *sp = &p.sparse[(size_t)(p.rp - 1) * (2 * t - 1)];
        fr_t dd[12][12], prime[12][12];
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                dd[i][j] = i == j ? FR_ONE : FR_ZERO;
                prime[i][j] = (i == 0 || j == 0) ? (i == j ? FR_ONE : FR_ZERO) : p.mds[i][j];
            }
        for (unsigned i = 0; i < t; i++)
            dd[i][0] = sp[i];
        for (unsigned j = 1; j < t; j++)
            dd[0][j] = sp[t + j - 1];
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                fr_t acc = FR_ZERO, m;
                for (unsigned k = 0; k < t; k++) {
                    fr_mul(&m, &prime[i][k], &dd[k][j]);
                    fr_add(&acc, &acc, &m);
                }
                cr_expect(fr_eq(&acc, &p.mds[i][j]), "arity %u: (M' M'')[%u][%u] != M", p.arity, i, j);
            }
        for (unsigned i = 0; i < t; i++)
            cr_expect(fr_eq(&p.crc[i], &p.rc[i]), "arity %u crc[%u]", p.arity, i);
        poseidon_free(&p);
    }
}

/* The rows neptune's legacy circuit writes, checked where its layout differs
 * from the plain permutation (one arity-2 hash recorded in SHAPE mode;
 * z = (ONE, in1, in2, aux...)): input 1's first row is
 * (in1 + k) (in1 + k) = l2 with k = crc[1], the compressed pre-key; its third
 * row is (in1 + k) l4 = l5 - post with post = crc[t + 1] on the C side; the
 * row that allocates the output has no constant term in C. */
Test(poseidon, circuit_rows_follow_neptune_legacy_layout)
{
    poseidon_t p;
    cr_assert_eq(poseidon_init(&p, 2, NULL), 0);
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_SHAPE, CS_FLAG_NONE, NULL), 0);
    cs_num_t in[2] = {cs_num_alloc(cs, &FR_ZERO), cs_num_alloc(cs, &FR_ZERO)};
    (void)cs_poseidon(cs, &p, in);
    cs_shape_t *sh;
    err_t err;
    cr_assert_eq(cs_shape_take(cs, &sh, &err), 0, "%s", err.msg);
    cs_destroy(cs);
    cr_assert_eq(sh->n_constraints, 311);
    /* z index of in1 is 1 (after ONE); l2 = 3, l4 = 4, l5 = 5 */
    const cs_matrix_t *a = &sh->m[0], *c = &sh->m[2];
    cr_assert_eq(a->row_ptr[1] - a->row_ptr[0], 2, "row 0: A = in1 + k");
    cr_expect_eq(a->col[a->row_ptr[0]], 0);
    cr_expect(fr_eq(&sh->coeffs[a->coeff[a->row_ptr[0]]], &p.crc[1]), "row 0: k is crc[1]");
    cr_expect_eq(a->col[a->row_ptr[0] + 1], 1);
    cr_assert_eq(c->row_ptr[3] - c->row_ptr[2], 2, "row 2: C = l5 - post");
    fr_t negpost;
    fr_neg(&negpost, &p.crc[p.t + 1]);
    cr_expect_eq(c->col[c->row_ptr[2]], 0);
    cr_expect(fr_eq(&sh->coeffs[c->coeff[c->row_ptr[2]]], &negpost), "row 2: C's constant is -crc[t + 1]");
    cr_expect_eq(c->col[c->row_ptr[2] + 1], 5);
    uint64_t last = sh->n_constraints - 1;
    cr_expect_eq(c->row_ptr[last + 1] - c->row_ptr[last], 1, "the output row's C is the output alone");
    cs_shape_free(sh);
    poseidon_free(&p);
}
