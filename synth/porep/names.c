/*
 * synth/porep/names.c — how Filecoin names the things a sector refers to:
 * commitments as CIDs (go-fil-commcid: multibase base32, CIDv1, the
 * fil-commitment-{unsealed,sealed} codecs and their multihashes) and the
 * Groth16 parameter files of the PoRep circuit (storage-proofs-core
 * parameter_cache.rs: CacheableParameters::cache_identifier and
 * parameter_cache_params_path).
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"

/* ---- CIDs ---------------------------------------------------------------------------- */

#define CODEC_UNSEALED 0xf101u /* fil-commitment-unsealed */
#define CODEC_SEALED 0xf102u   /* fil-commitment-sealed */
#define MH_SHA256_TRUNC254 0x1012u
#define MH_POSEIDON_FC1 0xb401u

static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

static size_t varint_put(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        out[n++] = (uint8_t)(b | (v ? 0x80 : 0));
    } while (v);
    return n;
}

/* Reads an unsigned varint of at most 9 bytes; returns its length or 0. */
static size_t varint_get(uint64_t *v, const uint8_t *in, size_t n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n && i < 9; i++) {
        x |= (uint64_t)(in[i] & 0x7f) << (7 * i);
        if (!(in[i] & 0x80)) {
            *v = x;
            return i + 1;
        }
    }
    return 0;
}

static const char *codec_name(uint64_t c)
{
    switch (c) {
    case CODEC_UNSEALED: return "fil-commitment-unsealed (0xf101)";
    case CODEC_SEALED: return "fil-commitment-sealed (0xf102)";
    case 0x55: return "raw (0x55)";
    case 0x70: return "dag-pb (0x70)";
    case 0x71: return "dag-cbor (0x71)";
    default: return NULL;
    }
}

int porep_cid_decode(porep_dom_t *out, const char *cid, porep_cid_kind_t want, const char *what, err_t *err)
{
    uint8_t buf[64];
    size_t n = 0, len = strlen(cid);
    if (len < 2 || (cid[0] != 'b' && cid[0] != 'B'))
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s' is not a base32 CIDv1 (multibase prefix 'b')", what, cid);
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 1; i < len; i++) {
        char c = cid[i] >= 'A' && cid[i] <= 'Z' ? (char)(cid[i] | 0x20) : cid[i];
        const char *p = c ? strchr(b32, c) : NULL;
        if (!p)
            return gm_err_set(err, GM_EFORMAT, "%s: '%.80s': '%c' is not a base32 digit", what, cid, cid[i]);
        acc = acc << 5 | (uint32_t)(p - b32);
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            if (n == sizeof buf)
                return gm_err_set(err, GM_EFORMAT, "%s: '%.80s' is too long for a commitment CID", what, cid);
            buf[n++] = (uint8_t)(acc >> bits);
        }
    }
    uint64_t ver, codec, mh, dlen;
    size_t o = 0, k;
    if (!(k = varint_get(&ver, buf, n)) || ver != 1)
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s' is not a CIDv1", what, cid);
    o += k;
    if (!(k = varint_get(&codec, buf + o, n - o)))
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s': truncated codec", what, cid);
    o += k;
    uint64_t want_codec = want == POREP_CID_SEALED ? CODEC_SEALED : CODEC_UNSEALED;
    uint64_t want_mh = want == POREP_CID_SEALED ? MH_POSEIDON_FC1 : MH_SHA256_TRUNC254;
    if (codec != want_codec) {
        const char *nm = codec_name(codec);
        char other[32];
        if (!nm) {
            snprintf(other, sizeof other, "0x%llx", (unsigned long long)codec);
            nm = other;
        }
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s' has codec %s; a %s commitment needs %s", what, cid, nm,
                          want == POREP_CID_SEALED ? "sealed (comm_r)" : "unsealed (comm_d)", codec_name(want_codec));
    }
    if (!(k = varint_get(&mh, buf + o, n - o)))
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s': truncated multihash", what, cid);
    o += k;
    if (mh != want_mh)
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s' has multihash 0x%llx; %s needs 0x%x (%s)", what, cid,
                          (unsigned long long)mh, codec_name(want_codec), (unsigned)want_mh,
                          want == POREP_CID_SEALED ? "poseidon-bls12_381-a1-fc1" : "sha2-256-trunc254-padded");
    if (!(k = varint_get(&dlen, buf + o, n - o)) || dlen != 32 || n - o - k != 32)
        return gm_err_set(err, GM_EFORMAT, "%s: '%.80s': the digest is not 32 bytes", what, cid);
    memcpy(out->b, buf + o + k, 32);
    return 0;
}

void porep_cid_encode(char out[POREP_CID_TEXT_LEN], const porep_dom_t *d, porep_cid_kind_t kind)
{
    uint8_t buf[48];
    size_t n = varint_put(buf, 1);
    n += varint_put(buf + n, kind == POREP_CID_SEALED ? CODEC_SEALED : CODEC_UNSEALED);
    n += varint_put(buf + n, kind == POREP_CID_SEALED ? MH_POSEIDON_FC1 : MH_SHA256_TRUNC254);
    n += varint_put(buf + n, 32);
    memcpy(buf + n, d->b, 32);
    n += 32;
    size_t o = 0;
    out[o++] = 'b';
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc = acc << 8 | buf[i];
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[o++] = b32[acc >> bits & 31];
        }
    }
    if (bits)
        out[o++] = b32[acc << (5 - bits) & 31];
    out[o] = '\0';
}

/* ---- parameter file names -------------------------------------------------------------- */

void porep_param_name(char out[POREP_PARAM_NAME_LEN], const porep_config_t *c, const char *ext)
{
    const porep_shape_t *s = &c->shape;
    /* Tree::display(): "merkletree-<hasher>-<base arity>-<sub>-<top>" */
    char tree[64], ident[512];
    snprintf(tree, sizeof tree, "merkletree-poseidon_hasher-8-%u-%u", s->sub_arity, s->top_arity);
    /* StackedDrg's PublicParams::identifier(), its graph's (StackedGraph
     * over BucketGraph) inside; the seed and porep_id are deliberately not
     * part of it, so every API version shares one file per size. */
    int m = snprintf(ident, sizeof ident,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: %d "
                     "base_graph: drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }, "
                     "challenges: LayerChallenges { layers: %u, max_count: %u }, tree: %s }",
                     POREP_EXP_DEGREE, (unsigned long long)s->nodes, POREP_BASE_DEGREE, s->layers, c->challenges,
                     tree);
    uint8_t h[32];
    unsigned hl = 0;
    GM_ASSERT(m > 0 && (size_t)m < sizeof ident);
    GM_ASSERT(EVP_Digest(ident, (size_t)m, h, &hl, EVP_sha256(), NULL) == 1);
    char hex[65];
    gm_hex_encode(hex, h, 32);
    snprintf(out, POREP_PARAM_NAME_LEN, "v%d-stacked-proof-of-replication-%s-sha256_hasher-%s.%s", POREP_PARAM_VERSION,
             tree, hex, ext);
}

int porep_param_find(char *params, char *vk, size_t n, const char *dir, const porep_config_t *c, err_t *err)
{
    char size[32];
    porep_sector_size_format(size, sizeof size, c->shape.sector_size);
    const char *ext[2] = {"vk", "params"};
    char *dst[2] = {vk, params};
    for (int i = 0; i < 2; i++) {
        if (!dst[i])
            continue;
        char name[POREP_PARAM_NAME_LEN];
        porep_param_name(name, c, ext[i]);
        int m = snprintf(dst[i], n, "%s/%s", dir, name);
        if (m < 0 || (size_t)m >= n)
            return gm_err_set(err, GM_EINVAL, "%s: the path of %s is too long", dir, name);
        if (access(dst[i], R_OK) != 0)
            return gm_err_set(err, GM_EIO, "%s: no readable %s for the %s PoRep circuit (Filecoin's name for it; "
                              "paramfetch or `grothmpi porep param-name` names the file)", dir, name, size);
    }
    return 0;
}
