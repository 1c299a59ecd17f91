/*
 * synth/porep/labels.c — the per-sector values of SDR outside the trees:
 * sector shapes, replica_id, the labels of every layer, the interactive
 * challenges and the encoding.
 *
 * Sources (rust-fil-proofs @ 87348a7): storage-proofs-porep
 * stacked/vanilla/create_label/single.rs (create_label, create_label_exp),
 * graph.rs (copy_parents_data_inner: 6 parents x 6 + the first; 14 x 2 + 9),
 * params.rs (generate_replica_id), challenges.rs (InteractiveChallenges),
 * encode.rs (encode = key + value in Fr); filecoin-proofs constants.rs for
 * the shapes. Every function here hashes with libcrypto's EVP SHA-256.
 */
#include <openssl/evp.h>
#include <string.h>

#include "synth/porep/porep_internal.h"

int porep_shape_init(porep_shape_t *s, uint64_t sector_size, err_t *err)
{
    memset(s, 0, sizeof *s);
    unsigned lg;
    switch (sector_size) {
    case 2048ULL: lg = 6; s->layers = 2; s->partitions = 1; s->challenges = 2; break;
    case 8ULL << 20: lg = 18; s->layers = 2; s->partitions = 1; s->challenges = 2; break;
    case 512ULL << 20: lg = 24; s->layers = 2; s->partitions = 1; s->challenges = 2; break;
    case 32ULL << 30: lg = 30; s->layers = 11; s->partitions = 10; s->challenges = 18; s->sub_arity = 8; break;
    case 64ULL << 30:
        lg = 31; s->layers = 11; s->partitions = 10; s->challenges = 18; s->sub_arity = 8; s->top_arity = 2;
        break;
    default:
        return gm_err_set(err, GM_EINVAL, "sector size %llu: not a registered PoRep sector size "
                                          "(2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", (unsigned long long)sector_size);
    }
    s->sector_size = sector_size;
    s->log2_nodes = lg;
    s->nodes = 1ULL << lg;
    unsigned base_lg = lg - (s->sub_arity ? 3 : 0) - (s->top_arity ? 1 : 0);
    s->base_levels = base_lg / 3;
    s->base_trees = (s->sub_arity ? s->sub_arity : 1) * (s->top_arity ? s->top_arity : 1);
    return 0;
}

/* One-shot SHA-256 over up to 5 pieces. libcrypto's SHA-256 failing is an
 * environment problem (FIPS provider missing) the caller cannot act on
 * otherwise, so it is an assertion here; porep_labels_compute, the hot path,
 * reports it as a status instead. */
static void sha256_parts(uint8_t out[32], const void *const *parts, const size_t *lens, unsigned n)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    GM_ASSERT(ctx != NULL);
    int ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    for (unsigned i = 0; ok && i < n; i++)
        ok = EVP_DigestUpdate(ctx, parts[i], lens[i]);
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(ctx, out, &len);
    EVP_MD_CTX_free(ctx);
    GM_ASSERT(ok && len == 32);
}

void porep_replica_id(porep_dom_t *out, const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const porep_dom_t *comm_d, const uint8_t porep_id[32])
{
    uint8_t sid[8];
    for (int i = 0; i < 8; i++)
        sid[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    const void *parts[] = {prover_id, sid, ticket, comm_d->b, porep_id};
    const size_t lens[] = {32, 8, 32, 32, 32};
    sha256_parts(out->b, parts, lens, 5);
    out->b[31] &= 0x3F;
}

void porep_prover_id_from_actor(uint8_t out[32], uint64_t actor_id)
{
    memset(out, 0, 32);
    unsigned i = 0;
    do {
        uint8_t b = actor_id & 0x7F;
        actor_id >>= 7;
        out[i++] = (uint8_t)(b | (actor_id ? 0x80 : 0));
    } while (actor_id);
}

/* The 64-byte label prefix: replica_id, layer u32 BE, node u64 BE, zeros. */
static void label_prefix(uint8_t p[64], const porep_dom_t *replica_id, uint32_t layer, uint64_t node)
{
    memcpy(p, replica_id->b, 32);
    memset(p + 32, 0, 32);
    for (int i = 0; i < 4; i++)
        p[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        p[36 + i] = (uint8_t)(node >> (56 - 8 * i));
}

void porep_label_hash(porep_dom_t *out, const porep_dom_t *replica_id, uint32_t layer, uint64_t node,
                      const porep_dom_t *parents, unsigned n)
{
    uint8_t pre[64];
    label_prefix(pre, replica_id, layer, node);
    const void *parts[] = {pre, parents};
    const size_t lens[] = {64, (size_t)n * 32};
    sha256_parts(out->b, parts, lens, n ? 2 : 1);
    out->b[31] &= 0x3F;
}

void porep_label_parents_expand(porep_dom_t out[POREP_LABEL_PARENTS], const porep_dom_t *vals, uint32_t layer)
{
    unsigned k = layer == 1 ? POREP_BASE_DEGREE : POREP_DEGREE;
    for (unsigned i = 0; i < POREP_LABEL_PARENTS; i++)
        out[i] = vals[i % k];
}

/* Labels of one layer. Preimage: prefix, then the 37 expanded parents; node
 * 0 hashes the prefix alone. The parents are read straight from the current
 * layer (DRG) and the previous one (expander), as copy_parents_data does.
 * Sequential by construction: node i reads label i - 1. */
int porep_labels_compute(porep_dom_t *labels, const porep_graph_t *g, unsigned layers, const porep_dom_t *replica_id,
                         porep_progress_fn progress, void *progress_arg, err_t *err)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx)
        return gm_err_set(err, GM_ENOMEM, "labels: EVP_MD_CTX_new failed");
    const EVP_MD *md = EVP_sha256();
    uint64_t n = g->nodes, total = (uint64_t)layers * n;
    int rc = 0;
    for (unsigned layer = 1; layer <= layers && !rc; layer++) {
        porep_dom_t *cur = labels + (uint64_t)(layer - 1) * n;
        const porep_dom_t *prev = layer > 1 ? cur - n : NULL;
        for (uint64_t v = 0; v < n; v++) {
            uint8_t pre[64];
            porep_dom_t vals[POREP_DEGREE], par[POREP_LABEL_PARENTS];
            label_prefix(pre, replica_id, layer, v);
            unsigned npar = 0;
            if (v > 0) {
                uint32_t p[POREP_DEGREE];
                porep_graph_parents(p, g, (uint32_t)v);
                for (int i = 0; i < POREP_BASE_DEGREE; i++)
                    vals[i] = cur[p[i]];
                if (prev)
                    for (int i = POREP_BASE_DEGREE; i < POREP_DEGREE; i++)
                        vals[i] = prev[p[i]];
                porep_label_parents_expand(par, vals, layer);
                npar = POREP_LABEL_PARENTS;
            }
            unsigned len = 0;
            if (!EVP_DigestInit_ex(ctx, md, NULL) || !EVP_DigestUpdate(ctx, pre, 64) ||
                (npar && !EVP_DigestUpdate(ctx, par, sizeof par)) || !EVP_DigestFinal_ex(ctx, cur[v].b, &len)) {
                rc = gm_err_set(err, GM_ENOTSUP, "labels: libcrypto SHA-256 failed at layer %u node %llu", layer,
                                (unsigned long long)v);
                break;
            }
            cur[v].b[31] &= 0x3F;
            if (progress && ((v + 1) & 0xFFFF) == 0)
                progress(progress_arg, (uint64_t)(layer - 1) * n + v + 1, total);
        }
    }
    EVP_MD_CTX_free(ctx);
    if (!rc && progress)
        progress(progress_arg, total, total);
    return rc;
}

void porep_challenges_derive(uint64_t *out, unsigned n, uint64_t nodes, const porep_dom_t *replica_id,
                             const uint8_t seed[32], unsigned k)
{
    GM_ASSERT(nodes >= 2 && nodes <= (1ULL << 32));
    for (unsigned i = 0; i < n; i++) {
        uint32_t j = (uint32_t)(n * k + i);
        uint8_t jb[4] = {(uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24)}, h[32];
        const void *parts[] = {replica_id->b, seed, jb};
        const size_t lens[] = {32, 32, 4};
        sha256_parts(h, parts, lens, 3);
        out[i] = porep_challenge_from_bytes(h, nodes);
    }
}

uint64_t porep_challenge_from_bytes(const uint8_t h[32], uint64_t nodes)
{
    /* h as a little-endian integer mod (nodes - 1), most significant byte
     * first; r < 2^32 keeps r << 8 inside u64 */
    uint64_t m = nodes - 1, r = 0;
    for (int b = 31; b >= 0; b--)
        r = ((r << 8) | h[b]) % m;
    return r + 1;
}

int porep_encode(porep_dom_t *replica, const porep_dom_t *key, const porep_dom_t *data)
{
    fr_t k, d;
    if (fr_from_bytes_le(&k, key->b) != 0 || fr_from_bytes_le(&d, data->b) != 0)
        return GM_ENONCANON;
    fr_add(&k, &k, &d);
    fr_to_bytes_le(replica->b, &k);
    return 0;
}

bool porep_seed_parse(uint8_t out[32], const char *s)
{
    if (gm_hex_decode_exact(out, 32, s, GM_HEX_PREFIX, NULL) == 0)
        return false;
    size_t n = strlen(s);
    const void *parts[] = {s};
    const size_t lens[] = {n};
    sha256_parts(out, parts, lens, 1);
    return true;
}
