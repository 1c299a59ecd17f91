/*
 * circuits/circuits.c — the built-in circuits of `grothmpi setup|prove
 * --circuit`: small test circuits written against synth's constraint system
 * (the same code runs in SHAPE mode for setup and in WITNESS mode for the
 * prover), and the SDR PoRep partition circuit (synth's StackedCircuit),
 * whose witness comes either from synth's random consistent witness or from
 * a C1 file (SealCommitPhase1Output) read by synth/porep.
 *
 * Witness values of the test circuits come from a splitmix64 stream seeded
 * by the caller, so a witness is reproducible from (circuit, seed); so is
 * the random PoRep witness (stacked_witness_random's seed).
 *
 * The PoRep public inputs of a C1 partition are derived, not read from the
 * vanilla proofs: the C1's replica_id, comm_d, comm_r and seed go to
 * synth/porep's porep_public_inputs, the function verify-seal uses too.
 * circuit_witness compares the two for every C1 partition it synthesizes,
 * so that `grothmpi prove --c1` and campaigns (jobs/source.c) share one
 * check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "circuits/circuits.h"
#include "groth16/groth16.h"

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
    groth16_fr_from_wide(out, b);
}

/* "2KiB" .. "64GiB" (or a byte count) naming a registered PoRep size. */
static int parse_sector(uint64_t *out, const char *s, err_t *err)
{
    stacked_config_t cfg;
    uint64_t bytes;
    if (!s || stacked_sector_size_parse(&bytes, s, "--sector-size", NULL) != 0 ||
        stacked_config_init(&cfg, bytes, NULL) != 0)
        return gm_err_set(err, GM_EINVAL, "--sector-size: '%s' is not a PoRep sector size (2KiB, 8MiB, 512MiB, "
                          "32GiB, 64GiB)", s ? s : "(missing)");
    *out = bytes;
    return 0;
}

int circuit_parse(circuit_t *out, const char *name, uint64_t size, const char *sector_size,
                          err_t *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(name, "test-mul") == 0) {
        out->kind = CIRCUIT_TEST_MUL;
        snprintf(out->id, sizeof out->id, "test-mul");
    } else if (strcmp(name, "test-synthetic") == 0) {
        out->kind = CIRCUIT_TEST_SYNTHETIC;
        out->size = size ? size : 1024;
        if (out->size < 8 || (out->size & (out->size - 1)) || out->size > (1ULL << 28))
            return gm_err_set(err, GM_EINVAL, "--constraints: %llu is not a power of two in 8..2^28",
                              (unsigned long long)out->size);
        snprintf(out->id, sizeof out->id, "test-synthetic-%llu", (unsigned long long)out->size);
    } else if (strcmp(name, "test-sha256") == 0) {
        out->kind = CIRCUIT_TEST_SHA256;
        out->size = size ? size : 1;
        if (out->size > 4096)
            return gm_err_set(err, GM_EINVAL, "--compressions: %llu is not in 1..4096", (unsigned long long)out->size);
        snprintf(out->id, sizeof out->id, "test-sha256-%llu", (unsigned long long)out->size);
    } else if (strcmp(name, "porep") == 0) {
        out->kind = CIRCUIT_POREP;
        int rc = parse_sector(&out->size, sector_size, err);
        if (rc)
            return rc;
        snprintf(out->id, sizeof out->id, "porep-%llu-v%d", (unsigned long long)out->size, STACKED_SHAPE_VERSION);
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

/* ---- the PoRep partition ------------------------------------------------------------------ */

/* Where a PoRep witness comes from: none (COUNT/SHAPE: zeros), synth's
 * random consistent witness, or partition k of a C1. */
typedef struct {
    bool random;
    uint64_t seed;
    const porep_c1_t *c1;
    unsigned k;
} porep_src_t;

/* Synthesizes one partition into cs (any mode). In WITNESS/CHECK mode the
 * value arrays are reserved first from a counting run (0.1 s for 512 MiB),
 * so they never grow by doubling: the peak stays one copy of z. */
static int synth_porep(cs_t *cs, const circuit_t *c, const porep_src_t *src, err_t *err)
{
    stacked_config_t cfg;
    poseidon_set_t ps;
    stacked_witness_t *w = NULL;
    cs_t *count = NULL;
    int rc = stacked_config_init(&cfg, c->size, err);
    if (rc)
        return rc;
    if ((rc = poseidon_set_init(&ps, err)))
        return rc;
    if (src->c1) {
        if ((rc = stacked_witness_alloc(&w, &cfg, err)) || (rc = porep_c1_witness(w, &cfg, src->c1, src->k, err)))
            goto done;
    } else if (src->random) {
        if ((rc = stacked_witness_random(&w, &cfg, &ps, src->seed, err)))
            goto done;
    }
    if (w) {
        if ((rc = cs_create(&count, CS_COUNT, CS_FLAG_NONE, err)))
            goto done;
        stacked_synthesize(count, &cfg, &ps, NULL);
        cs_reserve(cs, cs_num_aux(count), cs_num_inputs(count));
    }
    stacked_synthesize(cs, &cfg, &ps, w);
    rc = cs_status(cs, err);
done:
    cs_destroy(count);
    stacked_witness_free(w, &cfg);
    poseidon_set_free(&ps);
    return rc;
}

/* seed: the witness's seed; with_witness false: zeros (COUNT/SHAPE). */
static int synthesize(cs_t *cs, const circuit_t *c, uint64_t seed, bool with_witness, err_t *err)
{
    sm64_t rng = {seed ^ 0x67726f74686d7069ULL};
    switch (c->kind) {
    case CIRCUIT_TEST_MUL: synth_mul(cs, &rng); break;
    case CIRCUIT_TEST_SYNTHETIC: synth_synthetic(cs, &rng, c->size); break;
    case CIRCUIT_TEST_SHA256: synth_sha256(cs, &rng, c->size); break;
    case CIRCUIT_POREP: {
        porep_src_t src = {with_witness, seed, NULL, 0};
        return synth_porep(cs, c, &src, err);
    }
    }
    return cs_status(cs, err);
}

int circuit_shape(cs_shape_t **out, const circuit_t *c, err_t *err)
{
    *out = NULL;
    cs_t *cs;
    int rc = cs_create(&cs, CS_SHAPE, CS_FLAG_NONE, err);
    if (rc)
        return rc;
    rc = synthesize(cs, c, 0, false, err);
    if (rc == 0)
        rc = cs_shape_take(cs, out, err);
    cs_destroy(cs);
    return rc;
}

/* ---- PoRep from C1 -------------------------------------------------------------------------- */

int circuit_from_c1(circuit_t *out, const porep_c1_t *c1, err_t *err)
{
    char size[32];
    porep_sector_size_format(size, sizeof size, c1->shape.sector_size);
    int rc = circuit_parse(out, "porep", 0, size, err);
    if (rc)
        return rc;
    stacked_config_t cfg;
    if ((rc = stacked_config_init(&cfg, out->size, err)))
        return rc;
    if (cfg.challenges != c1->challenges || cfg.partitions != c1->partitions || cfg.layers != c1->shape.layers)
        return gm_err_set(err, GM_EINVAL,
                          "C1 %s: %u partitions of %u challenges over %u layers; the %s circuit has %u of %u over %u",
                          c1->proof->name, c1->partitions, c1->challenges, c1->shape.layers, size, cfg.partitions,
                          cfg.challenges, cfg.layers);
    return 0;
}

int circuit_porep_graph(porep_graph_t *g, const porep_c1_t *c1, err_t *err)
{
    memset(g, 0, sizeof *g);
    porep_config_t cfg;
    int rc = porep_config_from_proof(&cfg, c1->proof, err);
    return rc ? rc : porep_config_graph(g, &cfg, err);
}

size_t circuit_porep_input_count(const porep_c1_t *c1) { return 3 + (size_t)c1->challenges * 18; }

/* The C1 carries what verify-seal reads from a seal's public data (replica_id
 * already derived), so both feed porep_public_inputs. */
int circuit_porep_c1_inputs(fr_t *out, const porep_c1_t *c1, const porep_graph_t *g, unsigned k, err_t *err)
{
    porep_config_t cfg;
    int rc = porep_config_from_proof(&cfg, c1->proof, err);
    if (rc)
        return rc;
    if (k >= c1->partitions)
        return gm_err_set(err, GM_EINVAL, "C1 %s: partition %u is not in 0..%u", c1->proof->name, k,
                          c1->partitions - 1);
    if (cfg.challenges != c1->challenges || cfg.partitions != c1->partitions)
        return gm_err_set(err, GM_EINVAL, "C1 %s: %u partitions of %u challenges; its config has %u of %u",
                          c1->proof->name, c1->partitions, c1->challenges, cfg.partitions, cfg.challenges);
    porep_public_t pub = {.cfg = &cfg, .replica_id = c1->replica_id, .comm_d = c1->comm_d, .comm_r = c1->comm_r};
    memcpy(pub.seed, c1->seed, 32);
    err_t e;
    if ((rc = porep_public_inputs(out, &pub, g, k, &e)))
        return gm_err_set(err, rc, "C1 %s: %s", c1->proof->name, e.msg);
    return 0;
}

/* ---- the one witness entry point ----------------------------------------------------------- */

/* The public inputs of a C1 partition's witness (read from its vanilla
 * proofs) against those a verifier derives from the C1 and the graph. */
static int c1_inputs_check(const cs_t *cs, const circuit_witness_opts_t *o, err_t *err)
{
    size_t n = circuit_porep_input_count(o->c1);
    fr_t *want = calloc(n, sizeof *want);
    if (!want)
        return gm_err_set(err, GM_ENOMEM, "out of memory for %zu public inputs", n);
    int rc = circuit_porep_c1_inputs(want, o->c1, o->graph, o->partition, err);
    const fr_t *got = cs_input_values(cs) + 1; /* after ONE */
    for (size_t j = 0; j < n && rc == 0; j++)
        if (!fr_eq(&got[j], &want[j])) {
            char a[FR_DEC_MAX], b[FR_DEC_MAX];
            fr_to_dec(a, &got[j]);
            fr_to_dec(b, &want[j]);
            rc = gm_err_set(err, GM_EVERIFY, "public input %zu: the vanilla proofs give %s, the graph and seed give %s",
                            j, a, b);
        }
    free(want);
    return rc;
}

/* Partition o->partition of o->c1 into cs (WITNESS or CHECK mode), checked;
 * err without the "partition K: " that circuit_witness puts first. */
static int c1_witness(cs_t *cs, const circuit_t *c, const circuit_witness_opts_t *o, err_t *err)
{
    if (c->kind != CIRCUIT_POREP || c->size != o->c1->shape.sector_size)
        return gm_err_set(err, GM_EINVAL, "circuit %s: not the PoRep circuit of the C1's %llu-byte sector", c->id,
                          (unsigned long long)o->c1->shape.sector_size);
    if (o->partition >= o->c1->partitions)
        return gm_err_set(err, GM_EINVAL, "not in 0..%u (the C1 has %u partition%s)", o->c1->partitions - 1,
                          o->c1->partitions, o->c1->partitions == 1 ? "" : "s");
    porep_src_t src = {false, 0, o->c1, o->partition};
    int rc = synth_porep(cs, c, &src, err);
    return rc ? rc : c1_inputs_check(cs, o, err);
}

int circuit_witness(cs_t **out, const circuit_t *c, const circuit_witness_opts_t *o, err_t *err)
{
    *out = NULL;
    if (o->mode != CS_WITNESS && o->mode != CS_CHECK)
        return gm_err_set(err, GM_EINVAL, "circuit %s: a witness is made in CS_WITNESS or CS_CHECK mode", c->id);
    GM_ASSERT(!o->c1 || o->graph);
    err_t e;
    gm_err_clear(&e);
    cs_t *cs = NULL;
    int rc = cs_create(&cs, o->mode, o->flags, &e);
    if (!rc)
        rc = o->c1 ? c1_witness(cs, c, o, &e) : synthesize(cs, c, o->seed, true, &e);
    if (rc) {
        cs_destroy(cs);
        return o->c1 ? gm_err_set(err, rc, "partition %u: %s", o->partition, e.msg) : gm_err_set(err, rc, "%s", e.msg);
    }
    *out = cs;
    return 0;
}
