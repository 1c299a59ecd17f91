/*
 * synth/porep/feistel.c — the Feistel permutation behind the SDR expander
 * parents, and the per-thread scratch that holds its BLAKE2b-512 context.
 *
 * DESIGN
 *  - The domain [0, n) is embedded in [0, 4^h) with the smallest h >= 1 such
 *    that 4^h >= n; an index splits into a left and a right half of h bits.
 *    Encoding runs 3 rounds (L, R) <- (R, L ^ F(R, k_r)); values that land
 *    at or above n are encoded again (cycle-walking) until they fall inside,
 *    which keeps the map a bijection of [0, n). A walk takes 4^h / n
 *    encodings on average: 2 for 2 KiB .. 32 GiB sectors (n = 8 * nodes is
 *    an odd power of two there), 1 for 64 GiB.
 *  - F is BLAKE2b-512 of 16 bytes, as rust-fil-proofs computes it with
 *    blake2b_simd; here it comes from libcrypto through one EVP context per
 *    thread, re-initialised per call (no allocation after creation).
 *  - F(r, k) is only ever asked for r < 2^h and the 3 round keys, so the
 *    graph tabulates all 3 * 2^h values once (porep_feistel_tabulate) and
 *    the permutation becomes 3 table loads per encoding instead of 3
 *    BLAKE2b calls of about 200 ns each through EVP. The table is 1.5 MiB
 *    for the 32 and 64 GiB graphs (h = 17), so it stays in L2/L3.
 */
#include <openssl/evp.h>

#include "synth/porep/porep.h"

struct porep_scratch {
    EVP_MD *md;
    EVP_MD_CTX *ctx;
};

int porep_scratch_create(porep_scratch_t **out, err_t *err)
{
    *out = NULL;
    porep_scratch_t *s = gm_calloc(1, sizeof *s);
    if (!s)
        return gm_err_set(err, GM_ENOMEM, "porep scratch: out of memory");
    s->md = EVP_MD_fetch(NULL, "BLAKE2B-512", NULL);
    if (!s->md) {
        gm_free(s);
        return gm_err_set(err, GM_ENOTSUP, "porep scratch: libcrypto has no BLAKE2B-512 digest");
    }
    s->ctx = EVP_MD_CTX_new();
    if (!s->ctx || EVP_DigestInit_ex(s->ctx, s->md, NULL) != 1) {
        EVP_MD_CTX_free(s->ctx);
        EVP_MD_free(s->md);
        gm_free(s);
        return gm_err_set(err, GM_ENOMEM, "porep scratch: cannot set up a BLAKE2B-512 context");
    }
    *out = s;
    return 0;
}

void porep_scratch_destroy(porep_scratch_t *s)
{
    if (!s)
        return;
    EVP_MD_CTX_free(s->ctx);
    EVP_MD_free(s->md);
    gm_free(s);
}

void porep_feistel_init(porep_feistel_t *f, uint64_t n, const uint64_t keys[4])
{
    GM_ASSERT(n >= 1 && n <= (1ull << 62));
    unsigned h = 1;
    while ((1ull << (2 * h)) < n) /* 4^h < n */
        h++;
    f->n = n;
    f->half_bits = h;
    f->right_mask = (1ull << h) - 1;
    for (int i = 0; i < 4; i++)
        f->keys[i] = keys[i];
    f->table = NULL;
}

/* F(right, key): BLAKE2b-512(right BE64 || key BE64), first 8 bytes BE,
 * masked. The context was initialised to BLAKE2b-512 at creation, so a
 * re-init with no type keeps it and allocates nothing. */
static uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t mask, porep_scratch_t *s)
{
    uint8_t in[16], h[EVP_MAX_MD_SIZE];
    unsigned hlen = 0;
    for (int i = 0; i < 8; i++) {
        in[i] = (uint8_t)(right >> (56 - 8 * i));
        in[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    int ok = EVP_DigestInit_ex(s->ctx, NULL, NULL) == 1 && EVP_DigestUpdate(s->ctx, in, sizeof in) == 1 &&
             EVP_DigestFinal_ex(s->ctx, h, &hlen) == 1;
    GM_ASSERT(ok && hlen == 64);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r = r << 8 | h[i];
    return r & mask;
}

int porep_feistel_tabulate(porep_feistel_t *f, err_t *err)
{
    unsigned h = f->half_bits;
    if (h > POREP_FEISTEL_TABLE_MAX_BITS)
        return gm_err_set(err, GM_EINVAL, "Feistel table: domain of %llu values needs %u-bit halves (at most %d)",
                          (unsigned long long)f->n, h, POREP_FEISTEL_TABLE_MAX_BITS);
    porep_scratch_t *s = NULL;
    int rc = porep_scratch_create(&s, err);
    if (rc)
        return rc;
    uint64_t size = 1ull << h;
    uint32_t *t = gm_alloc(3 * size * sizeof *t);
    if (!t) {
        porep_scratch_destroy(s);
        return gm_err_set(err, GM_ENOMEM, "Feistel table: out of memory for %llu entries",
                          (unsigned long long)(3 * size));
    }
    for (uint64_t j = 0; j < 3; j++)
        for (uint64_t r = 0; r < size; r++)
            t[j << h | r] = (uint32_t)feistel_round(r, f->keys[j], f->right_mask, s);
    porep_scratch_destroy(s);
    gm_free(f->table);
    f->table = t;
    return 0;
}

void porep_feistel_release(porep_feistel_t *f)
{
    gm_free(f->table);
    f->table = NULL;
}

/* F(value, keys[round]): from the table when there is one. */
static inline uint64_t feistel_f(const porep_feistel_t *f, uint64_t value, int round, porep_scratch_t *s)
{
    if (f->table)
        return f->table[(uint64_t)round << f->half_bits | value];
    return feistel_round(value, f->keys[round], f->right_mask, s);
}

static uint64_t feistel_encode(const porep_feistel_t *f, uint64_t idx, porep_scratch_t *s)
{
    unsigned h = f->half_bits;
    uint64_t m = f->right_mask;
    uint64_t left = (idx >> h) & m, right = idx & m; /* both < 2^h */
    for (int r = 0; r < 3; r++) {
        uint64_t t = left ^ feistel_f(f, right, r, s);
        left = right;
        right = t;
    }
    return left << h | right;
}

static uint64_t feistel_decode(const porep_feistel_t *f, uint64_t idx, porep_scratch_t *s)
{
    unsigned h = f->half_bits;
    uint64_t m = f->right_mask;
    uint64_t left = (idx >> h) & m, right = idx & m;
    for (int r = 2; r >= 0; r--) {
        uint64_t t = right ^ feistel_f(f, left, r, s);
        right = left;
        left = t;
    }
    return left << h | right;
}

uint64_t porep_feistel_permute(const porep_feistel_t *f, uint64_t idx, porep_scratch_t *s)
{
    GM_ASSERT(idx < f->n && (f->table || s));
    uint64_t u = feistel_encode(f, idx, s);
    while (u >= f->n) /* cycle-walk back into [0, n) */
        u = feistel_encode(f, u, s);
    return u;
}

uint64_t porep_feistel_invert(const porep_feistel_t *f, uint64_t idx, porep_scratch_t *s)
{
    GM_ASSERT(idx < f->n && (f->table || s));
    uint64_t u = feistel_decode(f, idx, s);
    while (u >= f->n)
        u = feistel_decode(f, u, s);
    return u;
}
