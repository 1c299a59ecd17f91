/*
 * synth/porep/sealinfo.c — what verify-seal starts from: a PoRepConfig, the
 * challenges of each kind, the public inputs of a partition, and the three
 * ways a seal arrives (rust-fil-proofs regression records, lotus
 * SealVerifyInfo JSON, flags).
 *
 * Sources (rust-fil-proofs @ 87348a7 unless named): filecoin-proofs
 * src/types/porep_config.rs and constants.rs (partitions and minimum
 * challenges per kind), api/seal.rs verify_seal (the zero-commitment checks),
 * storage-proofs-porep stacked/vanilla/challenges.rs (the three challenge
 * derivations), stacked/circuit/proof.rs generate_public_inputs (the input
 * order), filecoin-proofs tests/regression.rs (SealRegressionRecord);
 * go-state-types proof.SealVerifyInfo for the lotus JSON.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <jansson.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/porep/porep_internal.h"

/* ---- config --------------------------------------------------------------------- */

int porep_config_init(porep_config_t *c, uint64_t sector_size, const uint8_t porep_id[32], porep_api_t api,
                      porep_chal_kind_t kind, err_t *err)
{
    porep_config_t t;
    memset(&t, 0, sizeof t);
    int rc = porep_shape_init(&t.shape, sector_size, err);
    if (rc)
        return rc;
    if (kind != POREP_CHAL_INTERACTIVE && api != POREP_API_1_2)
        return gm_err_set(err, GM_EINVAL, "porep config: %s needs API version 1.2, not %s", porep_chal_kind_name(kind),
                          porep_api_name(api));
    t.api = api;
    t.kind = kind;
    memcpy(t.porep_id, porep_id, 32);
    bool big = sector_size >= (32ULL << 30);
    /* minimum challenges / partitions (constants.rs); challenges per
     * partition round up (setup_params' div_ceil). */
    unsigned total = kind == POREP_CHAL_NI ? (big ? 2253 : 26) : (big ? 176 : 2);
    t.partitions = kind == POREP_CHAL_NI ? (big ? 126 : 13) : t.shape.partitions;
    t.challenges = (total + t.partitions - 1) / t.partitions;
    *c = t;
    return 0;
}

int porep_config_from_proof(porep_config_t *c, const porep_proof_t *p, err_t *err)
{
    uint8_t id[32];
    porep_id_make(id, p);
    porep_chal_kind_t k = p->id >= 15 ? POREP_CHAL_NI : p->id >= 10 ? POREP_CHAL_SYNTHETIC : POREP_CHAL_INTERACTIVE;
    return porep_config_init(c, p->sector_size, id, p->api, k, err);
}

const char *porep_chal_kind_name(porep_chal_kind_t k)
{
    return k == POREP_CHAL_NI ? "NonInteractivePoRep" : k == POREP_CHAL_SYNTHETIC ? "SyntheticPoRep" : "interactive";
}

int porep_config_graph(porep_graph_t *g, const porep_config_t *c, err_t *err)
{
    return porep_graph_init(g, c->shape.nodes, c->porep_id, c->api, err);
}

size_t porep_public_input_count(const porep_config_t *c) { return 3 + (size_t)c->challenges * 18; }

/* ---- challenges ------------------------------------------------------------------ */

/* BLAKE2b with a 32-byte output, keyed with tag, over a || b: the key of the
 * synthetic challenges' ChaCha20 streams. */
static int blake2b256_keyed(uint8_t out[32], const char *tag, const uint8_t a[32], const uint8_t b[32], err_t *err)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    size_t size = 32, len = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
    int ok = ctx && EVP_MAC_init(ctx, (const unsigned char *)tag, strlen(tag), params) &&
             EVP_MAC_update(ctx, a, 32) && EVP_MAC_update(ctx, b, 32) && EVP_MAC_final(ctx, out, &len, 32) &&
             len == 32;
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok ? 0 : gm_err_set(err, GM_ENOTSUP, "synthetic challenges: libcrypto has no usable BLAKE2BMAC");
}

/* n bytes of the ChaCha20 (RFC 8439: 32-bit block counter, 96-bit nonce)
 * keystream of key and nonce "synth-porep\0", from byte offset pos. */
static int chacha20_stream(uint8_t *out, size_t n, const uint8_t key[32], uint64_t pos, err_t *err)
{
    static const uint8_t nonce[12] = "synth-porep";
    uint8_t iv[16], zero[64] = {0}, skip[64];
    uint32_t block = (uint32_t)(pos / 64);
    iv[0] = (uint8_t)block, iv[1] = (uint8_t)(block >> 8), iv[2] = (uint8_t)(block >> 16), iv[3] = (uint8_t)(block >> 24);
    memcpy(iv + 4, nonce, 12);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len, ok = ctx && EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) &&
                  (pos % 64 == 0 || EVP_EncryptUpdate(ctx, skip, &len, zero, (int)(pos % 64)));
    memset(out, 0, n);
    ok = ok && EVP_EncryptUpdate(ctx, out, &len, out, (int)n);
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : gm_err_set(err, GM_ENOTSUP, "synthetic challenges: libcrypto's ChaCha20 failed");
}

/* SyntheticPoRep: the seed selects, for each challenge, an index below
 * n_synth into the synthetic challenges, which are 32 bytes each of a second
 * stream keyed from replica_id and comm_r. */
int porep_synth_challenges(uint64_t *out, unsigned n, uint64_t first, uint64_t nodes, uint64_t n_synth,
                           const porep_dom_t *replica_id, const porep_dom_t *comm_r, const uint8_t seed[32], err_t *err)
{
    uint8_t kgen[32], ksel[32], idx[4 * 64], ch[32];
    int rc;
    GM_ASSERT(n <= 64);
    if ((rc = blake2b256_keyed(kgen, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id->b, comm_r->b, err)) ||
        (rc = blake2b256_keyed(ksel, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id->b, seed, err)) ||
        (rc = chacha20_stream(idx, 4 * (size_t)n, ksel, first * 4, err)))
        return rc;
    for (unsigned i = 0; i < n; i++) {
        uint32_t s = (uint32_t)idx[4 * i] | (uint32_t)idx[4 * i + 1] << 8 | (uint32_t)idx[4 * i + 2] << 16 |
                     (uint32_t)idx[4 * i + 3] << 24;
        if ((rc = chacha20_stream(ch, 32, kgen, (uint64_t)(s % n_synth) * 32, err)))
            return rc;
        out[i] = porep_challenge_from_bytes(ch, nodes);
    }
    return 0;
}

/* NonInteractivePoRep: SHA256(tag || replica_id || comm_r || j as u32 LE). */
static int challenges_ni(uint64_t *out, const porep_config_t *c, const porep_dom_t *replica_id,
                         const porep_dom_t *comm_r, unsigned k, err_t *err)
{
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL;
    for (unsigned i = 0; ok && i < c->challenges; i++) {
        uint32_t j = c->challenges * k + i;
        uint8_t jb[4] = {(uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24)}, h[32];
        unsigned len = 0;
        ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) && EVP_DigestUpdate(ctx, tag, sizeof tag - 1) &&
             EVP_DigestUpdate(ctx, replica_id->b, 32) && EVP_DigestUpdate(ctx, comm_r->b, 32) &&
             EVP_DigestUpdate(ctx, jb, 4) && EVP_DigestFinal_ex(ctx, h, &len);
        if (ok)
            out[i] = porep_challenge_from_bytes(h, c->shape.nodes);
    }
    EVP_MD_CTX_free(ctx);
    return ok ? 0 : gm_err_set(err, GM_ENOTSUP, "NI-PoRep challenges: libcrypto SHA-256 failed");
}

int porep_challenges(uint64_t *out, const porep_config_t *c, const porep_dom_t *replica_id,
                     const porep_dom_t *comm_r, const uint8_t seed[32], unsigned k, err_t *err)
{
    if (k >= c->partitions)
        return gm_err_set(err, GM_EINVAL, "partition %u is not in 0..%u", k, c->partitions - 1);
    GM_ASSERT(c->challenges <= 64);
    switch (c->kind) {
    case POREP_CHAL_SYNTHETIC: {
        /* rust-fil-proofs' default count of synthetic challenges */
        uint64_t n_synth = c->shape.nodes < (1u << 18) ? c->shape.nodes : (1u << 18);
        return porep_synth_challenges(out, c->challenges, (uint64_t)k * c->challenges, c->shape.nodes, n_synth,
                                      replica_id, comm_r, seed, err);
    }
    case POREP_CHAL_NI: return challenges_ni(out, c, replica_id, comm_r, k, err);
    case POREP_CHAL_INTERACTIVE: break;
    }
    porep_challenges_derive(out, c->challenges, c->shape.nodes, replica_id, seed, k);
    return 0;
}

/* ---- public inputs --------------------------------------------------------------- */

static int dom_fr(fr_t *out, const porep_dom_t *d, const char *what, err_t *err)
{
    if (fr_from_bytes_le(out, d->b) != 0)
        return gm_err_set(err, GM_ENONCANON, "%s is not below the scalar modulus r", what);
    return 0;
}

int porep_public_inputs(fr_t *out, const porep_public_t *p, const porep_graph_t *g, unsigned k, err_t *err)
{
    const porep_config_t *c = p->cfg;
    if (g->nodes != c->shape.nodes)
        return gm_err_set(err, GM_EINVAL, "public inputs: the graph has %llu nodes, the sector %llu",
                          (unsigned long long)g->nodes, (unsigned long long)c->shape.nodes);
    int rc;
    uint64_t ch[64];
    if ((rc = dom_fr(&out[0], &p->replica_id, "replica_id", err)) || (rc = dom_fr(&out[1], &p->comm_d, "comm_d", err)) ||
        (rc = dom_fr(&out[2], &p->comm_r, "comm_r", err)) ||
        (rc = porep_challenges(ch, c, &p->replica_id, &p->comm_r, p->seed, k, err)))
        return rc;
    size_t n = 3;
    for (unsigned i = 0; i < c->challenges; i++) {
        uint32_t parents[POREP_DEGREE];
        porep_graph_parents(parents, g, (uint32_t)ch[i]);
        fr_set_u64(&out[n++], ch[i]); /* comm_d PoR: a private-root PoR's one input is its leaf index */
        for (unsigned q = 0; q < POREP_DEGREE; q++)
            fr_set_u64(&out[n++], parents[q]); /* 6 DRG, then 8 expander, PoR in comm_c */
        fr_set_u64(&out[n++], ch[i]); /* the challenge */
        fr_set_u64(&out[n++], ch[i]); /* comm_r_last PoR */
        fr_set_u64(&out[n++], ch[i]); /* comm_c PoR */
    }
    return 0;
}

int porep_seal_info_public(porep_public_t *pub, const porep_seal_info_t *s, err_t *err)
{
    static const porep_dom_t zero;
    if (memcmp(&s->comm_d, &zero, 32) == 0)
        return gm_err_set(err, GM_EINVAL, "%s: comm_d: all zero (verify_seal refuses it)", s->label);
    if (memcmp(&s->comm_r, &zero, 32) == 0)
        return gm_err_set(err, GM_EINVAL, "%s: comm_r: all zero (verify_seal refuses it)", s->label);
    fr_t t;
    if (fr_from_bytes_le(&t, s->comm_d.b) != 0 || fr_from_bytes_le(&t, s->comm_r.b) != 0)
        return gm_err_set(err, GM_ENONCANON, "%s: %s is not below the scalar modulus r", s->label,
                          fr_from_bytes_le(&t, s->comm_d.b) != 0 ? "comm_d" : "comm_r");
    pub->cfg = &s->cfg;
    pub->comm_d = s->comm_d;
    pub->comm_r = s->comm_r;
    memcpy(pub->seed, s->seed, 32);
    porep_replica_id(&pub->replica_id, s->prover_id, s->sector_id, s->ticket, &s->comm_d, s->cfg.porep_id);
    return 0;
}

/* ---- reading seals ------------------------------------------------------------------- */

/* An entry's failure: status and message kept, reading goes on. */
static int entry_fail(porep_seal_info_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int entry_fail(porep_seal_info_t *s, const char *fmt, ...)
{
    char m[GM_ERR_MSG_LEN - 100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    snprintf(s->msg, sizeof s->msg, "%s: %s", s->label, m);
    s->status = GM_EFORMAT;
    return GM_EFORMAT;
}

static json_t *field(porep_seal_info_t *s, json_t *obj, const char *name, const char *where)
{
    json_t *v = json_is_object(obj) ? json_object_get(obj, name) : NULL;
    if (!v)
        entry_fail(s, "%s%s: missing", where, name);
    return v;
}

/* A JSON array of numbers 0..255 of exactly n entries (n = 0: any length, allocated). */
static int json_byte_array(porep_seal_info_t *s, json_t *v, uint8_t *out, size_t n, uint8_t **alloc, size_t *alen,
                           const char *what)
{
    if (!v)
        return GM_EFORMAT;
    if (!json_is_array(v))
        return entry_fail(s, "%s: expected an array of bytes", what);
    size_t m = json_array_size(v);
    if (n && m != n)
        return entry_fail(s, "%s: expected %zu bytes, got %zu", what, n, m);
    if (!n) {
        *alloc = gm_alloc(m ? m : 1);
        if (!*alloc)
            return entry_fail(s, "%s: out of memory for %zu bytes", what, m);
        *alen = m;
        out = *alloc;
    }
    for (size_t i = 0; i < m; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 255)
            return entry_fail(s, "%s[%zu]: not a byte (0..255)", what, i);
        out[i] = (uint8_t)json_integer_value(e);
    }
    return 0;
}

static int json_u64(porep_seal_info_t *s, json_t *v, uint64_t *out, const char *what)
{
    if (!v)
        return GM_EFORMAT;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return entry_fail(s, "%s: expected a non-negative integer", what);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

/* serde writes a u64 sector_id as a plain number, which jansson refuses
 * above INT64_MAX; so the number is read from the text and blanked (to 0)
 * in a copy before the copy is parsed. Returns its offset in line, or -1. */
static long sector_id_at(const char *line, size_t len)
{
    const char *k = memmem(line, len, "\"sector_id\"", 11);
    if (!k)
        return -1;
    size_t o = (size_t)(k - line) + 11;
    while (o < len && (line[o] == ' ' || line[o] == ':'))
        o++;
    return o < len && line[o] >= '0' && line[o] <= '9' ? (long)o : -1;
}

static int record_sector_id(porep_seal_info_t *s, const char *line, size_t len)
{
    long o = sector_id_at(line, len);
    if (o < 0)
        return entry_fail(s, "sector_id: missing or not a non-negative integer");
    errno = 0;
    char *end;
    unsigned long long x = strtoull(line + o, &end, 10);
    if (errno)
        return entry_fail(s, "sector_id: not a u64");
    s->sector_id = x;
    return 0;
}

static int parse_record(porep_seal_info_t *s, json_t *o, const char *line, size_t len)
{
    json_t *pc = field(s, o, "porep_config", "");
    if (!pc)
        return GM_EFORMAT;
    uint64_t size = 0, parts = 0;
    uint8_t id[32];
    int rc;
    if ((rc = json_u64(s, field(s, pc, "sector_size", "porep_config."), &size, "porep_config.sector_size")) ||
        (rc = json_u64(s, field(s, pc, "partitions", "porep_config."), &parts, "porep_config.partitions")) ||
        (rc = json_byte_array(s, field(s, pc, "porep_id", "porep_config."), id, 32, NULL, NULL,
                              "porep_config.porep_id")))
        return rc;
    json_t *av = field(s, pc, "api_version", "porep_config."), *af = json_object_get(pc, "api_features");
    if (!av)
        return GM_EFORMAT;
    const char *a = json_string_value(av);
    porep_api_t api;
    if (a && strcmp(a, "V1_0_0") == 0)
        api = POREP_API_1_0;
    else if (a && strcmp(a, "V1_1_0") == 0)
        api = POREP_API_1_1;
    else if (a && strcmp(a, "V1_2_0") == 0)
        api = POREP_API_1_2;
    else
        return entry_fail(s, "porep_config.api_version: expected \"V1_0_0\", \"V1_1_0\" or \"V1_2_0\"");
    porep_chal_kind_t kind = POREP_CHAL_INTERACTIVE;
    if (af && !json_is_array(af))
        return entry_fail(s, "porep_config.api_features: expected an array");
    for (size_t i = 0; af && i < json_array_size(af); i++) {
        const char *f = json_string_value(json_array_get(af, i));
        if (f && strcmp(f, "SyntheticPoRep") == 0)
            kind = POREP_CHAL_SYNTHETIC;
        else if (f && strcmp(f, "NonInteractivePoRep") == 0)
            kind = POREP_CHAL_NI;
        else
            return entry_fail(s, "porep_config.api_features[%zu]: expected \"SyntheticPoRep\" or "
                              "\"NonInteractivePoRep\"", i);
    }
    err_t e;
    if (porep_config_init(&s->cfg, size, id, api, kind, &e))
        return entry_fail(s, "porep_config: %s", e.msg);
    if (parts != s->cfg.partitions)
        return entry_fail(s, "porep_config.partitions: %llu, but the config (%s) has %u", (unsigned long long)parts,
                          porep_chal_kind_name(kind), s->cfg.partitions);
    if ((rc = json_byte_array(s, field(s, o, "comm_r", ""), s->comm_r.b, 32, NULL, NULL, "comm_r")) ||
        (rc = json_byte_array(s, field(s, o, "comm_d", ""), s->comm_d.b, 32, NULL, NULL, "comm_d")) ||
        (rc = json_byte_array(s, field(s, o, "prover_id", ""), s->prover_id, 32, NULL, NULL, "prover_id")) ||
        (rc = record_sector_id(s, line, len)) ||
        (rc = json_byte_array(s, field(s, o, "ticket", ""), s->ticket, 32, NULL, NULL, "ticket")) ||
        (rc = json_byte_array(s, field(s, o, "seed", ""), s->seed, 32, NULL, NULL, "seed")) ||
        (rc = json_byte_array(s, field(s, o, "proof", ""), NULL, 0, &s->proof, &s->proof_len, "proof")))
        return rc;
    return 0;
}

/* A base64 string field of exactly n bytes (n = 0: any length, allocated). */
static int b64_field(porep_seal_info_t *s, json_t *o, const char *name, uint8_t *out, size_t n)
{
    json_t *v = field(s, o, name, "");
    if (!v)
        return GM_EFORMAT;
    const char *t = json_string_value(v);
    if (!t)
        return entry_fail(s, "%s: expected a base64 string", name);
    size_t len = strlen(t), cap = len / 4 * 3 + 3;
    uint8_t *buf = gm_alloc(cap);
    if (!buf)
        return entry_fail(s, "%s: out of memory", name);
    err_t e;
    long m = gm_base64_decode(buf, cap, t, len, &e);
    if (m < 0 || (n && (size_t)m != n)) {
        gm_free(buf);
        return m < 0 ? entry_fail(s, "%s: not base64: %s", name, e.msg)
                     : entry_fail(s, "%s: expected %zu bytes, got %ld", name, n, m);
    }
    if (n) {
        memcpy(out, buf, n);
        gm_free(buf);
    } else {
        s->proof = buf;
        s->proof_len = (size_t)m;
    }
    return 0;
}

static int cid_field(porep_seal_info_t *s, json_t *o, const char *name, porep_dom_t *out, porep_cid_kind_t kind)
{
    json_t *v = field(s, o, name, "");
    if (!v)
        return GM_EFORMAT;
    const char *t = json_string_value(json_object_get(v, "/"));
    if (!t)
        return entry_fail(s, "%s: expected a CID as {\"/\": \"b...\"}", name);
    err_t e;
    if (porep_cid_decode(out, t, kind, name, &e))
        return entry_fail(s, "%s", e.msg);
    return 0;
}

static int parse_svi(porep_seal_info_t *s, json_t *o)
{
    uint64_t id = 0, miner = 0;
    int rc;
    if ((rc = json_u64(s, field(s, o, "SealProof", ""), &id, "SealProof")))
        return rc;
    const porep_proof_t *p = porep_proof_by_id(id > UINT32_MAX ? UINT32_MAX : (uint32_t)id);
    if (!p)
        return entry_fail(s, "SealProof: %llu is not a registered seal proof (0..19)", (unsigned long long)id);
    err_t e;
    if (porep_config_from_proof(&s->cfg, p, &e))
        return entry_fail(s, "SealProof: %s", e.msg);
    json_t *sid = field(s, o, "SectorID", "");
    if (!sid)
        return GM_EFORMAT;
    if ((rc = json_u64(s, field(s, sid, "Miner", "SectorID."), &miner, "SectorID.Miner")) ||
        (rc = json_u64(s, field(s, sid, "Number", "SectorID."), &s->sector_id, "SectorID.Number")) ||
        (rc = b64_field(s, o, "Randomness", s->ticket, 32)) ||
        (rc = b64_field(s, o, "InteractiveRandomness", s->seed, 32)) || (rc = b64_field(s, o, "Proof", NULL, 0)) ||
        (rc = cid_field(s, o, "SealedCID", &s->comm_r, POREP_CID_SEALED)) ||
        (rc = cid_field(s, o, "UnsealedCID", &s->comm_d, POREP_CID_UNSEALED)))
        return rc;
    porep_prover_id_from_actor(s->prover_id, miner);
    return 0;
}

void porep_seal_info_free(porep_seal_info_t *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        gm_free(s[i].proof);
    gm_free(s);
}

/* Grows *v to hold one more entry; returns the new one (zeroed) or NULL. */
static porep_seal_info_t *push(porep_seal_info_t **v, size_t *n, uint64_t *cap)
{
    if (!gm_grow((void **)v, cap, *n + 1, sizeof **v, 8))
        return NULL;
    porep_seal_info_t *s = &(*v)[(*n)++];
    memset(s, 0, sizeof *s);
    return s;
}

int porep_seal_info_parse(porep_seal_info_t **out, size_t *n, const char *text, size_t len, const char *name,
                          err_t *err)
{
    *out = NULL;
    *n = 0;
    porep_seal_info_t *v = NULL;
    size_t cnt = 0;
    uint64_t cap = 0;
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    json_error_t je;
    if (i < len && text[i] == '[' && memmem(text, len, "\"porep_config\"", 14) &&
        !memmem(text, len, "\"SealProof\"", 11)) /* before parsing: records' u64 sector ids are no JSON int */
        return gm_err_set(err, GM_EFORMAT, "%s: a JSON array of SealRegressionRecord; records are read one per "
                          "line (JSON Lines), not in an array (an array holds lotus SealVerifyInfo)", name);
    if (i < len && text[i] == '[') { /* an array of SealVerifyInfo */
        json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
        if (!root)
            return gm_err_set(err, GM_EFORMAT, "%s: line %d column %d: not valid JSON: %s", name, je.line, je.column,
                              je.text);
        for (size_t k = 0; k < json_array_size(root); k++) {
            porep_seal_info_t *s = push(&v, &cnt, &cap);
            if (!s) {
                json_decref(root);
                porep_seal_info_free(v, cnt);
                return gm_err_set(err, GM_ENOMEM, "%s: out of memory", name);
            }
            snprintf(s->label, sizeof s->label, "%s[%zu]", name, k);
            (void)parse_svi(s, json_array_get(root, k));
        }
        json_decref(root);
    } else if (i < len && text[i] == '{' && memmem(text, len, "\"SealProof\"", 11)) { /* one SealVerifyInfo */
        json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
        if (!root)
            return gm_err_set(err, GM_EFORMAT, "%s: line %d column %d: not valid JSON: %s", name, je.line, je.column,
                              je.text);
        porep_seal_info_t *s = push(&v, &cnt, &cap);
        if (s) {
            snprintf(s->label, sizeof s->label, "%s", name);
            (void)parse_svi(s, root);
        }
        json_decref(root);
        if (!s)
            return gm_err_set(err, GM_ENOMEM, "%s: out of memory", name);
    } else { /* JSON Lines of SealRegressionRecord */
        unsigned line = 0;
        for (size_t p = 0; p < len;) {
            const char *nl = memchr(text + p, '\n', len - p);
            size_t e = nl ? (size_t)(nl - text) : len, q = p;
            line++;
            while (q < e && (text[q] == ' ' || text[q] == '\t' || text[q] == '\r'))
                q++;
            if (q < e) {
                porep_seal_info_t *s = push(&v, &cnt, &cap);
                if (!s) {
                    porep_seal_info_free(v, cnt);
                    return gm_err_set(err, GM_ENOMEM, "%s: out of memory", name);
                }
                snprintf(s->label, sizeof s->label, "%s line %u", name, line);
                char *copy = gm_alloc(e - p + 1);
                if (!copy) {
                    porep_seal_info_free(v, cnt);
                    return gm_err_set(err, GM_ENOMEM, "%s: out of memory", name);
                }
                memcpy(copy, text + p, e - p);
                long so = sector_id_at(copy, e - p);
                for (size_t d = so < 0 ? e - p : (size_t)so; d < e - p && copy[d] >= '0' && copy[d] <= '9'; d++)
                    copy[d] = d == (size_t)so ? '0' : ' ';
                json_t *o = json_loadb(copy, e - p, JSON_REJECT_DUPLICATES, &je);
                gm_free(copy);
                if (!o)
                    entry_fail(s, "column %d: not valid JSON: %s", je.column, je.text);
                else if (!json_is_object(o))
                    entry_fail(s, "expected a SealRegressionRecord object");
                else
                    (void)parse_record(s, o, text + p, e - p);
                json_decref(o);
            }
            p = e + 1;
        }
    }
    if (cnt == 0) {
        porep_seal_info_free(v, cnt);
        return gm_err_set(err, GM_EFORMAT, "%s: no seal in it (expected JSON Lines of SealRegressionRecord, or a "
                          "SealVerifyInfo object or array)", name);
    }
    *out = v;
    *n = cnt;
    return 0;
}

int porep_seal_info_read(porep_seal_info_t **out, size_t *n, const char *path, err_t *err)
{
    *out = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gm_err_set(err, GM_EIO, "%s: cannot read: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    uint64_t cap = 0;
    int rc = 0;
    for (;;) {
        if (!gm_grow((void **)&buf, &cap, len + 65536, 1, 1 << 20)) {
            rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
            break;
        }
        errno = 0;
        size_t m = fread(buf + len, 1, cap - len, f);
        len += m;
        if (m == 0) {
            if (ferror(f))
                rc = gm_err_set(err, GM_EIO, "%s: cannot read: %s", path,
                                errno == EISDIR ? "a directory, not a file of seals" : strerror(errno));
            break;
        }
    }
    fclose(f);
    if (!rc)
        rc = porep_seal_info_parse(out, n, buf ? buf : "", len, path, err);
    gm_free(buf);
    return rc;
}
