/*
 * tests/unit/test_gadgets.c — bit, UInt32/UInt64, number, packing,
 * insertion and SHA-256 gadgets: values against plain C, constraint counts
 * against bellperson's / rust-fil-proofs' tests, and soundness (a recorded
 * shape rejects a witness whose output is flipped), exhaustively where the
 * inputs have at most 8 bits.
 *
 * Known counts: bellperson @ d1fa22c src/gadgets/sha256.rs (test_full_block
 * 25,840, test_full_hash 44,874, test_blank_hash 0); rust-fil-proofs @
 * 87348a7 storage-proofs-core/src/gadgets/insertion.rs (2, 8, 22),
 * uint64.rs / multipack.rs (64 + 1); bellpepper-core num.rs to_bits_le (256).
 * Digests: OpenSSL's SHA-256.
 */
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <string.h>

#include "synth/synth.h"
#pragma GCC diagnostic ignored "-Wcomment" /* testutil.h has a glob in its comment */
#include "tests/unit/testutil.h"

static void setup(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), 0); }
TestSuite(gadgets, .init = setup);

/* ---- a naive row checker over a recorded shape --------------------------------------------- */

/* Returns the first row r with (A z)(B z) != (C z), or -1. */
static long naive_first_bad_row(const cs_shape_t *sh, const fr_t *z)
{
    for (uint64_t r = 0; r < sh->n_rows; r++) {
        fr_t v[3];
        for (int s = 0; s < 3; s++) {
            v[s] = FR_ZERO;
            for (uint64_t k = sh->m[s].row_ptr[r]; k < sh->m[s].row_ptr[r + 1]; k++) {
                fr_t t;
                fr_mul(&t, &z[sh->m[s].col[k]], &sh->coeffs[sh->m[s].coeff[k]]);
                fr_add(&v[s], &v[s], &t);
            }
        }
        fr_mul(&v[0], &v[0], &v[1]);
        if (!fr_eq(&v[0], &v[2]))
            return (long)r;
    }
    return -1;
}

/* A gadget under test: builds itself on cs from the input bits `in` (LE,
 * n of them) and returns its output bits (up to 64) in out. */
typedef unsigned (*gadget_fn)(cs_t *cs, const bool *in, unsigned n, cs_bool_t *out, const void *ctx);

/* Runs g in SHAPE and WITNESS mode; checks the witness satisfies the shape;
 * then flips each output bit the gadget allocated (not a pass-through of one
 * of its first n_in_aux variables, the inputs) and checks the shape rejects
 * it. Returns the number of constraints. */
static uint64_t sound(gadget_fn g, const bool *in, unsigned n, const void *ctx, unsigned n_in_aux, bool *outv,
                      unsigned *nout)
{
    cs_t *sh_cs, *w_cs;
    cr_assert_eq(cs_create(&sh_cs, CS_SHAPE, CS_FLAG_NONE, NULL), 0);
    cr_assert_eq(cs_create(&w_cs, CS_WITNESS, CS_FLAG_NONE, NULL), 0);
    cs_bool_t o1[64], o2[64];
    unsigned k1 = g(sh_cs, in, n, o1, ctx), k2 = g(w_cs, in, n, o2, ctx);
    cr_assert_eq(k1, k2);
    uint64_t nc = cs_num_constraints(sh_cs);
    cs_shape_t *sh;
    cr_assert_eq(cs_shape_take(sh_cs, &sh, NULL), 0);
    uint64_t nz = sh->n_inputs + sh->n_aux;
    fr_t *z = gm_alloc(nz * sizeof(fr_t));
    memcpy(z, cs_input_values(w_cs), sh->n_inputs * sizeof(fr_t));
    if (sh->n_aux)
        memcpy(z + sh->n_inputs, cs_aux_values(w_cs), sh->n_aux * sizeof(fr_t));
    cr_expect_eq(naive_first_bad_row(sh, z), -1, "witness does not satisfy the shape");
    for (unsigned i = 0; i < k2; i++) {
        outv[i] = o2[i].val;
        if (o2[i].kind == CS_BOOL_CONST || (o2[i].var & ~CS_VAR_AUX) < n_in_aux)
            continue;
        uint64_t col = sh->n_inputs + (o2[i].var & ~CS_VAR_AUX);
        fr_t keep = z[col];
        fr_t flipped;
        fr_sub(&flipped, &FR_ONE, &keep);
        z[col] = flipped;
        cr_expect_neq(naive_first_bad_row(sh, z), -1, "flipped output bit %u accepted", i);
        z[col] = keep;
    }
    *nout = k2;
    gm_free(z);
    cs_shape_free(sh);
    cs_destroy(sh_cs);
    cs_destroy(w_cs);
    return nc;
}

/* ---- Boolean operations, every kind of operand ------------------------------------------------ */

/* Operand kinds: 0 const false, 1 const true, 2 allocated, 3 negated
 * allocated; the value of an allocated one comes from the input bit. */
typedef struct {
    int op; /* 0 xor, 1 and, 2 ch, 3 maj */
    int kinds[3];
} boolop_t;

static cs_bool_t make_operand(cs_t *cs, int kind, bool v)
{
    switch (kind) {
    case 0: return cs_bool_const(false);
    case 1: return cs_bool_const(true);
    case 2: return cs_bit_alloc(cs, v);
    default: return cs_bool_not(cs_bit_alloc(cs, !v));
    }
}

static unsigned boolop_gadget(cs_t *cs, const bool *in, unsigned n, cs_bool_t *out, const void *ctx)
{
    (void)n;
    const boolop_t *b = ctx;
    cs_bool_t x[3];
    for (int i = 0; i < 3; i++)
        x[i] = make_operand(cs, b->kinds[i], in[i]);
    switch (b->op) {
    case 0: out[0] = cs_bool_xor(cs, x[0], x[1]); break;
    case 1: out[0] = cs_bool_and(cs, x[0], x[1]); break;
    case 2: out[0] = cs_bool_ch(cs, x[0], x[1], x[2]); break;
    default: out[0] = cs_bool_maj(cs, x[0], x[1], x[2]); break;
    }
    return 1;
}

static bool kind_value(int kind, bool v) { return kind == 0 ? false : kind == 1 ? true : v; }

Test(gadgets, boolean_ops_exhaustive)
{
    for (int op = 0; op < 4; op++) {
        int nin = op < 2 ? 2 : 3;
        for (int k = 0; k < (nin == 2 ? 16 : 64); k++) {
            boolop_t b = {op, {k & 3, (k >> 2) & 3, nin == 3 ? (k >> 4) & 3 : 0}};
            unsigned nalloc = 0;
            for (int i = 0; i < nin; i++)
                nalloc += b.kinds[i] >= 2;
            for (int v = 0; v < (1 << nin); v++) {
                bool in[3] = {v & 1, (v >> 1) & 1, (v >> 2) & 1}, outv[1];
                bool a = kind_value(b.kinds[0], in[0]), bb = kind_value(b.kinds[1], in[1]),
                     c = kind_value(b.kinds[2], in[2]);
                bool want = op == 0 ? (a != bb) : op == 1 ? (a && bb) : op == 2 ? ((a && bb) != (!a && c))
                                                                             : ((a && bb) != (a && c)) != (bb && c);
                unsigned nout;
                uint64_t nc = sound(boolop_gadget, in, 3, &b, nalloc, outv, &nout) - nalloc;
                cr_expect_eq(outv[0], want, "op %d kinds %d%d%d inputs %d", op, b.kinds[0], b.kinds[1], b.kinds[2], v);
                if (nalloc == (unsigned)nin) /* no constants: the full gadget */
                    cr_expect_eq(nc, op == 3 ? 2u : 1u, "op %d on allocated bits: %llu constraints", op,
                                 (unsigned long long)nc);
                if (nalloc == 0)
                    cr_expect_eq(nc, 0u, "op %d on constants", op);
                cr_expect_leq(nc, op == 3 ? 2u : 1u);
            }
        }
    }
}

/* ---- UInt32 ---------------------------------------------------------------------------------- */

/* Two 4-bit operands a, b (in[0..4), in[4..8)) spread over 32-bit words:
 * x = a * 0x11111111, y = b * 0x11111111; out = addmany(x, y, x ^ y),
 * rotr(x, 7) ^ shr(y, 3), ch(x, y, x ^ y) and maj(x, y, rotr(y, 1)). */
static unsigned u32_gadget(cs_t *cs, const bool *in, unsigned n, cs_bool_t *out, const void *ctx)
{
    (void)n;
    int which = *(const int *)ctx;
    uint32_t a = 0, b = 0;
    for (int i = 0; i < 4; i++) {
        a |= (uint32_t)in[i] << i;
        b |= (uint32_t)in[4 + i] << i;
    }
    cs_u32_t x, y, t, u, r;
    cs_u32_alloc(cs, &x, a * 0x11111111u);
    cs_u32_alloc(cs, &y, b * 0x11111111u);
    switch (which) {
    case 0: {
        cs_multieq_t m;
        cs_multieq_init(&m, cs);
        cs_u32_t ops[3];
        ops[0] = x;
        ops[1] = y;
        cs_u32_xor(cs, &ops[2], &x, &y);
        cs_u32_addmany(&m, &r, ops, 3);
        cs_multieq_finish(&m);
        break;
    }
    case 1:
        cs_u32_rotr(&t, &x, 7);
        cs_u32_shr(&u, &y, 3);
        cs_u32_xor(cs, &r, &t, &u);
        break;
    case 2:
        cs_u32_xor(cs, &t, &x, &y);
        cs_u32_ch(cs, &r, &x, &y, &t);
        break;
    default:
        cs_u32_rotr(&t, &y, 1);
        cs_u32_maj(cs, &r, &x, &y, &t);
        break;
    }
    for (int i = 0; i < 32; i++)
        out[i] = r.bits[i];
    return 32;
}

static uint32_t ror(uint32_t v, int k) { return (v >> k) | (v << (32 - k)); }

Test(gadgets, uint32_ops_exhaustive_on_8_input_bits)
{
    for (int which = 0; which < 4; which++)
        for (unsigned v = 0; v < 256; v++) {
            bool in[8], outv[64];
            for (int i = 0; i < 8; i++)
                in[i] = (v >> i) & 1;
            uint32_t x = (v & 15) * 0x11111111u, y = (v >> 4) * 0x11111111u, want;
            switch (which) {
            case 0: want = x + y + (x ^ y); break;
            case 1: want = ror(x, 7) ^ (y >> 3); break;
            case 2: want = (x & y) ^ (~x & (x ^ y)); break;
            default: want = (x & y) ^ (x & ror(y, 1)) ^ (y & ror(y, 1)); break;
            }
            unsigned nout;
            uint64_t nc = sound(u32_gadget, in, 8, &which, 64, outv, &nout);
            uint32_t got = 0;
            for (int i = 0; i < 32; i++)
                got |= (uint32_t)outv[i] << i;
            cr_expect_eq(got, want, "op %d on %u: %08x, want %08x", which, v, got, want);
            if (which == 0) /* 64 bits + 32 xor + 34 result bits + 1 MultiEq */
                cr_expect_eq(nc, 64 + 32 + 34 + 1);
        }
}

Test(gadgets, uint64_alloc_and_pack)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs_u64_t x;
    cs_u64_alloc(cs, &x, 0xfedcba9876543210ULL);
    cs_u64_pack_into_input(cs, &x);
    cr_expect_eq(cs_num_constraints(cs), 65);
    cr_expect_eq(cs_num_inputs(cs), 2);
    fr_t want;
    fr_set_u64(&want, 0xfedcba9876543210ULL);
    cr_expect(fr_eq(&cs_input_values(cs)[1], &want));
    cr_expect(cs_is_satisfied(cs, NULL, NULL));
    cs_destroy(cs);
}

/* ---- numbers ---------------------------------------------------------------------------------- */

static unsigned to_bits_gadget(cs_t *cs, const bool *in, unsigned n, cs_bool_t *out, const void *ctx)
{
    (void)ctx;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)in[i] << i;
    fr_t f;
    fr_set_u64(&f, v);
    cs_num_t x = cs_num_alloc(cs, &f);
    cs_bool_t bits[255];
    cs_num_to_bits_le(cs, bits, &x);
    for (int i = 0; i < 10; i++)
        out[i] = bits[i];
    /* repack the first 254 and compare: an extra aux and constraint */
    cs_num_t back = cs_pack_bits(cs, bits, 255);
    cs_num_enforce_equal(cs, &back, &x);
    return 10;
}

Test(gadgets, to_bits_le_exhaustive_on_8_bits)
{
    for (unsigned v = 0; v < 256; v++) {
        bool in[8], outv[64];
        for (int i = 0; i < 8; i++)
            in[i] = (v >> i) & 1;
        unsigned nout;
        uint64_t nc = sound(to_bits_gadget, in, 8, NULL, 1, outv, &nout);
        cr_expect_eq(nc, 256 + 1 + 1);
        for (int i = 0; i < 10; i++)
            cr_expect_eq(outv[i], (v >> i) & 1);
    }
}

Test(gadgets, to_bits_le_of_a_large_value_and_inputize)
{
    test_rng_t rng;
    test_rng_init(&rng, "gadgets/to_bits_le_of_a_large_value_and_inputize");
    uint8_t b[32];
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)test_rng_next(&rng);
    fr_t f;
    fr_from_bytes_le_mod(&f, b);
    fr_to_bytes_le(b, &f);
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs_num_t x = cs_num_alloc(cs, &f);
    cs_num_inputize(cs, &x);
    cs_bool_t bits[255];
    cs_num_to_bits_le(cs, bits, &x);
    cr_expect_eq(cs_num_constraints(cs), 1 + 256);
    cr_expect_eq(cs_num_aux(cs), 1 + 255);
    for (int i = 0; i < 255; i++)
        cr_expect_eq(bits[i].val, (b[i / 8] >> (i % 8)) & 1, "bit %d", i);
    cr_expect(cs_is_satisfied(cs, NULL, NULL));
    cr_expect(fr_eq(&cs_input_values(cs)[1], &f));
    cs_destroy(cs);
}

Test(gadgets, pack_into_inputs_splits_at_254)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs_bool_t bits[300];
    for (int i = 0; i < 300; i++)
        bits[i] = i % 7 == 3 ? cs_bool_const(true) : cs_bit_alloc(cs, i % 5 == 0);
    uint64_t c0 = cs_num_constraints(cs);
    cs_pack_into_inputs(cs, bits, 300);
    cr_expect_eq(cs_num_constraints(cs) - c0, 2);
    cr_expect_eq(cs_num_inputs(cs), 3);
    /* the second input holds bits 254..299 */
    uint64_t want = 0;
    for (int i = 254; i < 300; i++)
        if (i % 7 == 3 || i % 5 == 0)
            want |= 1ULL << (i - 254);
    fr_t w;
    fr_set_u64(&w, want);
    cr_expect(fr_eq(&cs_input_values(cs)[2], &w));
    cr_expect(cs_is_satisfied(cs, NULL, NULL));
    cs_destroy(cs);
}

/* ---- insertion ------------------------------------------------------------------------------------ */

Test(gadgets, insert_every_position)
{
    const unsigned want_cost[4] = {0, 2, 8, 22};
    for (unsigned nbits = 1; nbits <= 3; nbits++) {
        unsigned size = 1u << nbits;
        for (unsigned pos = 0; pos < size; pos++) {
            cs_t *cs;
            cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
            cs_num_t el, others[7], out[8];
            fr_t v;
            fr_set_u64(&v, 1000);
            el = cs_num_alloc(cs, &v);
            for (unsigned i = 0; i + 1 < size; i++) {
                fr_set_u64(&v, 1 + i);
                others[i] = cs_num_alloc(cs, &v);
            }
            cs_bool_t bits[3];
            for (unsigned i = 0; i < nbits; i++)
                bits[i] = cs_bit_alloc(cs, (pos >> i) & 1);
            uint64_t c0 = cs_num_constraints(cs);
            cs_insert(cs, out, &el, bits, nbits, others);
            cr_expect_eq(cs_num_constraints(cs) - c0, want_cost[nbits], "size %u", size);
            for (unsigned i = 0, o = 0; i < size; i++) {
                fr_t want;
                fr_set_u64(&want, i == pos ? 1000 : 1 + o++);
                cr_expect(fr_eq(&out[i].value, &want), "size %u pos %u slot %u", size, pos, i);
            }
            cr_expect(cs_is_satisfied(cs, NULL, NULL));
            cs_destroy(cs);
        }
    }
}

/* ---- SHA-256 ------------------------------------------------------------------------------------ */

static void sha256_ref(uint8_t out[32], const uint8_t *in, size_t n)
{
    unsigned len = 32;
    cr_assert_eq(EVP_Digest(in, n, out, &len, EVP_sha256(), NULL), 1);
}

Test(gadgets, sha256_compression_costs_25840)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_COUNT, CS_FLAG_NONE, NULL), 0);
    cs_bool_t block[512];
    for (int i = 0; i < 512; i++)
        block[i] = cs_bit_alloc(cs, i & 1);
    cs_u32_t iv[8], out[8];
    cs_sha256_iv(iv);
    cs_sha256_compress(cs, out, block, iv);
    cr_expect_eq(cs_num_constraints(cs) - 512, 25840);
    cs_destroy(cs);
}

Test(gadgets, sha256_blank_hash_is_free_and_right)
{
    cs_t *cs;
    cr_assert_eq(cs_create(&cs, CS_CHECK, CS_FLAG_NONE, NULL), 0);
    cs_bool_t out[256];
    cs_sha256(cs, out, NULL, 0);
    cr_expect_eq(cs_num_constraints(cs), 0);
    uint8_t want[32];
    sha256_ref(want, NULL, 0);
    for (int i = 0; i < 256; i++) {
        cr_expect_eq(out[i].kind, CS_BOOL_CONST);
        cr_expect_eq(out[i].val, (want[i / 8] >> (7 - i % 8)) & 1);
    }
    cs_destroy(cs);
}

Test(gadgets, sha256_full_hash_costs_44874_and_matches_openssl)
{
    test_rng_t rng;
    test_rng_init(&rng, "gadgets/sha256_full_hash");
    for (int rep = 0; rep < 3; rep++) {
        uint8_t msg[64 + 37];
        size_t len = rep == 0 ? 64 : rep == 1 ? 55 : 64 + 37;
        for (size_t i = 0; i < len; i++)
            msg[i] = (uint8_t)test_rng_next(&rng);
        cs_t *cs;
        cr_assert_eq(cs_create(&cs, rep == 0 ? CS_CHECK : CS_WITNESS, CS_FLAG_NONE, NULL), 0);
        cs_bool_t bits[8 * sizeof msg], out[256];
        for (size_t i = 0; i < 8 * len; i++)
            bits[i] = cs_bit_alloc(cs, (msg[i / 8] >> (7 - i % 8)) & 1);
        uint64_t c0 = cs_num_constraints(cs);
        cs_sha256(cs, out, bits, 8 * len);
        if (rep == 0)
            cr_expect_eq(cs_num_constraints(cs) - c0, 44874);
        uint8_t want[32];
        sha256_ref(want, msg, len);
        for (int i = 0; i < 256; i++)
            cr_expect_eq(out[i].val, (want[i / 8] >> (7 - i % 8)) & 1, "len %zu bit %d", len, i);
        const char *path = NULL;
        cr_expect(cs_is_satisfied(cs, NULL, &path), "unsatisfied at %s", path ? path : "?");
        cs_destroy(cs);
    }
}
