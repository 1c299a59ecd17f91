/*
 * groth16/circuits.c — the built-in circuits of `grothmpi setup|prove
 * --circuit`: small test circuits written against synth's constraint system
 * (the same code runs in SHAPE mode for setup and in WITNESS mode for the
 * prover), and the hook for the PoRep partition circuit.
 *
 * Witness values come from a splitmix64 stream seeded by the caller, so a
 * witness is reproducible from (circuit, seed).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "groth16/groth16_internal.h"

typedef struct {
    uint64_t s;
} sm64_t;

static uint64_t sm64_next(sm64_t *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void sm64_fr(sm64_t *r, fr_t *out)
{
    uint8_t b[64];
    for (int i = 0; i < 8; i++) {
        uint64_t x = sm64_next(r);
        memcpy(b + 8 * i, &x, 8);
    }
    g16_fr_from_64(out, b);
}

static int parse_sector(uint64_t *out, const char *s, err_t *err)
{
    static const struct {
        const char *name;
        uint64_t bytes;
    } sizes[] = {{"2KiB", 2048ULL}, {"8MiB", 8ULL << 20}, {"512MiB", 512ULL << 20}, {"32GiB", 32ULL << 30},
                 {"64GiB", 64ULL << 30}};
    for (size_t i = 0; s && i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcasecmp(s, sizes[i].name) == 0) {
            *out = sizes[i].bytes;
            return 0;
        }
    return gm_err_set(err, GM_EINVAL, "--sector-size: '%s' is not a PoRep sector size (2KiB, 8MiB, 512MiB, 32GiB, "
                      "64GiB)", s ? s : "(missing)");
}

int groth16_circuit_parse(groth16_circuit_t *out, const char *name, uint64_t size, const char *sector_size,
                          err_t *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(name, "test-mul") == 0) {
        out->kind = GROTH16_CIRCUIT_TEST_MUL;
        snprintf(out->id, sizeof out->id, "test-mul");
    } else if (strcmp(name, "test-synthetic") == 0) {
        out->kind = GROTH16_CIRCUIT_TEST_SYNTHETIC;
        out->size = size ? size : 1024;
        if (out->size < 8 || (out->size & (out->size - 1)) || out->size > (1ULL << 28))
            return gm_err_set(err, GM_EINVAL, "--constraints: %llu is not a power of two in 8..2^28",
                              (unsigned long long)out->size);
        snprintf(out->id, sizeof out->id, "test-synthetic-%llu", (unsigned long long)out->size);
    } else if (strcmp(name, "test-sha256") == 0) {
        out->kind = GROTH16_CIRCUIT_TEST_SHA256;
        out->size = size ? size : 1;
        if (out->size > 4096)
            return gm_err_set(err, GM_EINVAL, "--compressions: %llu is not in 1..4096", (unsigned long long)out->size);
        snprintf(out->id, sizeof out->id, "test-sha256-%llu", (unsigned long long)out->size);
    } else if (strcmp(name, "porep") == 0) {
        out->kind = GROTH16_CIRCUIT_POREP;
        int rc = parse_sector(&out->size, sector_size, err);
        if (rc)
            return rc;
        snprintf(out->id, sizeof out->id, "porep-%llu", (unsigned long long)out->size);
    } else {
        return gm_err_set(err, GM_EINVAL, "--circuit: unknown circuit '%s' (test-mul, test-synthetic, test-sha256, "
                          "porep)", name);
    }
    return 0;
}

/* ---- the test circuits ------------------------------------------------------------------ */

static void enforce3(cs_t *cs, cs_var_t a, cs_var_t b, cs_var_t c, const char *name)
{
    cs_enforce_begin(cs);
    cs_term(cs, CS_A, a, NULL);
    cs_term(cs, CS_B, b, NULL);
    cs_term(cs, CS_C, c, NULL);
    cs_enforce_end(cs, name);
}

/* x * y = t, t * x = out. */
static void synth_mul(cs_t *cs, sm64_t *rng)
{
    fr_t xv, yv, tv, ov;
    sm64_fr(rng, &xv);
    sm64_fr(rng, &yv);
    fr_mul(&tv, &xv, &yv);
    fr_mul(&ov, &tv, &xv);
    cs_num_t x = cs_num_alloc(cs, &xv), y = cs_num_alloc(cs, &yv);
    cs_num_t t = cs_num_mul(cs, &x, &y);
    cs_num_t out = cs_num_alloc_input(cs, &ov);
    enforce3(cs, t.var, x.var, out.var, "t * x = out");
}

/* rows - 2 constraints: 4-step pattern (square; linear; product of affine
 * terms; a bit) and a final x * 1 = out; with ONE and out as inputs the
 * shape has exactly `rows` rows. */
static void synth_synthetic(cs_t *cs, sm64_t *rng, uint64_t rows)
{
    fr_t v0, v1, three, five, seven;
    sm64_fr(rng, &v0);
    sm64_fr(rng, &v1);
    fr_set_u64(&three, 3);
    fr_set_u64(&five, 5);
    fr_set_u64(&seven, 7);
    fr_t m_seven;
    fr_neg(&m_seven, &seven);
    cs_num_t prev = cs_num_alloc(cs, &v0), cur = cs_num_alloc(cs, &v1);
    /* prev and cur of the first step need a constraint: prev * cur = p. */
    cs_num_t p = cs_num_mul(cs, &prev, &cur);
    prev = cur;
    cur = p;
    uint64_t steps = rows - 4; /* + 1 above + 1 final = rows - 2 */
    for (uint64_t i = 0; i < steps; i++) {
        cs_num_t nx;
        fr_t val, t;
        switch (i % 4) {
        case 0:
            nx = cs_num_square(cs, &cur);
            break;
        case 1: /* (cur + 3 prev) * ONE = nx */
            fr_mul(&t, &prev.value, &three);
            fr_add(&val, &cur.value, &t);
            nx = cs_num_alloc(cs, &val);
            cs_enforce_begin(cs);
            cs_term(cs, CS_A, cur.var, NULL);
            cs_term(cs, CS_A, prev.var, &three);
            cs_term(cs, CS_B, CS_ONE, NULL);
            cs_term(cs, CS_C, nx.var, NULL);
            cs_enforce_end(cs, "linear");
            break;
        case 2: /* (cur + 5) * (prev - 7) = nx */
            fr_add(&val, &cur.value, &five);
            fr_sub(&t, &prev.value, &seven);
            fr_mul(&val, &val, &t);
            nx = cs_num_alloc(cs, &val);
            cs_enforce_begin(cs);
            cs_term(cs, CS_A, cur.var, NULL);
            cs_term(cs, CS_A, CS_ONE, &five);
            cs_term(cs, CS_B, prev.var, NULL);
            cs_term(cs, CS_B, CS_ONE, &m_seven);
            cs_term(cs, CS_C, nx.var, NULL);
            cs_enforce_end(cs, "affine product");
            break;
        default: /* a bit: scalars 0 and 1 for the MSM shortcut */
            (void)cs_bit_alloc(cs, sm64_next(rng) & 1);
            continue;
        }
        prev = cur;
        cur = nx;
    }
    cs_num_t out = cs_num_alloc_input(cs, &cur.value);
    enforce3(cs, cur.var, CS_ONE, out.var, "out");
}

/* n chained compressions of random private blocks from the IV; the final
 * state packed into public inputs. */
static void synth_sha256(cs_t *cs, sm64_t *rng, uint64_t n)
{
    cs_u32_t cur[8], next[8];
    cs_sha256_iv(cur);
    cs_bool_t block[512];
    for (uint64_t i = 0; i < n; i++) {
        for (int b = 0; b < 512; b++)
            block[b] = cs_bit_alloc(cs, sm64_next(rng) & 1);
        cs_sha256_compress(cs, next, block, cur);
        memcpy(cur, next, sizeof cur);
    }
    cs_bool_t bits[256];
    for (int w = 0; w < 8; w++)
        cs_u32_to_bits_be(bits + 32 * w, &cur[w]);
    cs_pack_into_inputs(cs, bits, 256);
}

static int synthesize(cs_t *cs, const groth16_circuit_t *c, uint64_t seed, err_t *err)
{
    sm64_t rng = {seed ^ 0x67726f74686d7069ULL};
    switch (c->kind) {
    case GROTH16_CIRCUIT_TEST_MUL: synth_mul(cs, &rng); break;
    case GROTH16_CIRCUIT_TEST_SYNTHETIC: synth_synthetic(cs, &rng, c->size); break;
    case GROTH16_CIRCUIT_TEST_SHA256: synth_sha256(cs, &rng, c->size); break;
    case GROTH16_CIRCUIT_POREP:
        /* The hook: stacked_synthesize(cs, &cfg, &poseidon_set, witness)
         * once synth/ provides the StackedCircuit and C1 input. */
        return gm_err_set(err, GM_ENOTSUP, "circuit %s: the PoRep StackedCircuit is not available in synth/ yet",
                          c->id);
    }
    return cs_status(cs, err);
}

int groth16_circuit_shape(cs_shape_t **out, const groth16_circuit_t *c, err_t *err)
{
    *out = NULL;
    cs_t *cs;
    int rc = cs_create(&cs, CS_SHAPE, CS_FLAG_NONE, err);
    if (rc)
        return rc;
    rc = synthesize(cs, c, 0, err);
    if (rc == 0)
        rc = cs_shape_take(cs, out, err);
    cs_destroy(cs);
    return rc;
}

int groth16_circuit_witness(cs_t **out, const groth16_circuit_t *c, uint64_t seed, err_t *err)
{
    *out = NULL;
    cs_t *cs;
    int rc = cs_create(&cs, CS_WITNESS, CS_FLAG_NONE, err);
    if (rc)
        return rc;
    if ((rc = synthesize(cs, c, seed, err))) {
        cs_destroy(cs);
        return rc;
    }
    *out = cs;
    return 0;
}
