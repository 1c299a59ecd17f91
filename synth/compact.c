/*
 * synth/compact.c — the compact form of a vector of values (synth.h,
 * cs_compact_t): 0 and 1 as two bitmaps, the other values dense, a 32-bit
 * rank per word of 64 values to find a dense value in O(1).
 *
 * DESIGN. A PoRep partition's aux values are about 98 % bits (SHA-256 and
 * the packing gadgets), so 32 bytes per value is 30 times what they carry.
 * The form is built by appending (cs_alloc in CS_FLAG_COMPACT mode: rank[w]
 * is the dense count when the first value of word w arrives, so nothing is
 * recounted) or from a dense array. The bitmaps grow by doubling unless
 * cs_reserve sized them (the dense count is not known before synthesis
 * ends), each array grown once per step,
 * never per value; the dense array by a quarter of itself, to keep its
 * empty tail small.
 */
#include <string.h>

#include "synth/synth_internal.h"

static inline bool is_zero_limbs(const fr_t *z) { return (z->l[0] | z->l[1] | z->l[2] | z->l[3]) == 0; }
static inline bool is_one_limbs(const fr_t *z)
{
    return ((z->l[0] ^ FR_ONE.l[0]) | (z->l[1] ^ FR_ONE.l[1]) | (z->l[2] ^ FR_ONE.l[2]) |
            (z->l[3] ^ FR_ONE.l[3])) == 0;
}

/* Room for n values' words (n / 64 + 1 of each array; new words zeroed).
 * false: out of memory, the form untouched. */
static bool words_grow(cs_compact_t *c, uint64_t n, uint64_t first)
{
    uint64_t need = n / 64 + 1;
    if (need <= c->words_cap)
        return true;
    uint64_t cap = c->words_cap, cap1 = cap, cap2 = cap;
    if (!gm_grow((void **)&c->isbit, &cap, need, sizeof(uint64_t), first))
        return false;
    if (!gm_grow((void **)&c->one, &cap1, need, sizeof(uint64_t), first))
        return false;
    if (!gm_grow((void **)&c->rank, &cap2, need, sizeof(uint32_t), first))
        return false;
    /* The three grew by the same rule from the same capacity. */
    GM_ASSERT(cap == cap1 && cap == cap2);
    memset(c->isbit + c->words_cap, 0, (size_t)(cap - c->words_cap) * sizeof(uint64_t));
    memset(c->one + c->words_cap, 0, (size_t)(cap - c->words_cap) * sizeof(uint64_t));
    c->words_cap = cap;
    return true;
}

/* Room for one more dense value: the capacity grows by a quarter (at least
 * 1024 values), so at most a fifth of it stands empty once synthesis ends
 * (doubling could leave half; bench/README.md, "compact witness"). The
 * copies cost 4 times the final array in all, once per partition. */
static bool dense_grow(cs_compact_t *c)
{
    uint64_t cap = c->dense_cap + c->dense_cap / 4;
    if (cap < c->dense_cap + 1024)
        cap = c->dense_cap + 1024;
    return gm_grow((void **)&c->dense, &c->dense_cap, cap, sizeof(fr_t), 0);
}

bool cs_compact_reserve(cs_compact_t *c, uint64_t n) { return words_grow(c, n, 0); }

bool cs_compact_push(cs_compact_t *c, const fr_t *v)
{
    uint64_t j = c->n, w = j >> 6, b = j & 63;
    if ((j + 1) / 64 + 1 > c->words_cap && !words_grow(c, j + 1, 64))
        return false;
    if (b == 0)
        c->rank[w] = (uint32_t)c->n_dense;
    if (is_zero_limbs(v)) {
        c->isbit[w] |= 1ULL << b;
    } else if (is_one_limbs(v)) {
        c->isbit[w] |= 1ULL << b;
        c->one[w] |= 1ULL << b;
    } else {
        if (c->n_dense >= c->dense_cap && !dense_grow(c))
            return false;
        c->dense[c->n_dense++] = *v;
    }
    c->n = j + 1;
    return true;
}

bool cs_compact_set(cs_compact_t *c, uint64_t j, const fr_t *v)
{
    GM_ASSERT(j < c->n);
    uint64_t w = j >> 6, bit = 1ULL << (j & 63);
    bool was_bit = (c->isbit[w] & bit) != 0, to_bit = is_zero_limbs(v) || is_one_limbs(v);
    if (was_bit && to_bit) {
        c->one[w] = is_one_limbs(v) ? c->one[w] | bit : c->one[w] & ~bit;
        return true;
    }
    uint64_t i = cs_compact_dense_index(c, j), words = c->n / 64 + 1;
    if (!was_bit && !to_bit) {
        c->dense[i] = *v;
        return true;
    }
    /* A value changes kind: the dense values after it move by one and the
     * ranks of the later words with them (O(n); no synthesis here does it). */
    if (was_bit) {
        if (c->n_dense >= c->dense_cap && !dense_grow(c))
            return false;
        memmove(c->dense + i + 1, c->dense + i, (size_t)(c->n_dense - i) * sizeof(fr_t));
        c->dense[i] = *v;
        c->n_dense++;
        c->isbit[w] &= ~bit;
        c->one[w] &= ~bit;
        for (uint64_t k = w + 1; k < words; k++)
            c->rank[k]++;
    } else {
        memmove(c->dense + i, c->dense + i + 1, (size_t)(c->n_dense - i - 1) * sizeof(fr_t));
        c->n_dense--;
        c->isbit[w] |= bit;
        if (is_one_limbs(v))
            c->one[w] |= bit;
        for (uint64_t k = w + 1; k < words; k++)
            c->rank[k]--;
    }
    return true;
}

int cs_compact_from_values(cs_compact_t *out, const fr_t *v, uint64_t n, err_t *err)
{
    memset(out, 0, sizeof *out);
    uint64_t nd = 0;
    for (uint64_t j = 0; j < n; j++)
        nd += !is_zero_limbs(&v[j]) && !is_one_limbs(&v[j]);
    if (!words_grow(out, n, 0) ||
        (nd && !gm_grow((void **)&out->dense, &out->dense_cap, nd, sizeof(fr_t), 0))) {
        cs_compact_free(out);
        return gm_err_set(err, GM_ENOMEM, "compact values: out of memory for %llu values (%llu dense)",
                          (unsigned long long)n, (unsigned long long)nd);
    }
    for (uint64_t j = 0; j < n; j++) {
        bool ok = cs_compact_push(out, &v[j]);
        GM_ASSERT(ok); /* everything was reserved above */
    }
    return 0;
}

void cs_compact_expand(fr_t *out, const cs_compact_t *c, uint64_t j0, uint64_t j1)
{
    GM_ASSERT(j0 <= j1 && j1 <= c->n);
    for (uint64_t j = j0; j < j1; j++)
        cs_compact_get(&out[j - j0], c, j);
}

size_t cs_compact_bytes(const cs_compact_t *c)
{
    return (size_t)(c->words_cap * (2 * sizeof(uint64_t) + sizeof(uint32_t)) + c->dense_cap * sizeof(fr_t));
}

void cs_compact_free(cs_compact_t *c)
{
    if (!c)
        return;
    gm_free(c->isbit);
    gm_free(c->one);
    gm_free(c->rank);
    gm_free(c->dense);
    memset(c, 0, sizeof *c);
}
