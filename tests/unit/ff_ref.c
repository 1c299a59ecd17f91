/*
 * tests/unit/ff_ref.c — the naive integer reference and the path runner
 * declared in tests/unit/ff_ref.h.
 */
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "tests/unit/ff_ref.h"

#define REF_W 32 /* 32-bit words: room for a 1024-bit product */

/* 64-bit limbs -> 32-bit words, zero-extended to REF_W. */
static void ref_unpack(uint32_t w[REF_W], const uint64_t *x, int n64)
{
    memset(w, 0, REF_W * sizeof w[0]);
    for (int i = 0; i < n64; i++) {
        w[2 * i] = (uint32_t)x[i];
        w[2 * i + 1] = (uint32_t)(x[i] >> 32);
    }
}

static void ref_pack(uint64_t *x, const uint32_t w[REF_W], int n64)
{
    for (int i = 0; i < n64; i++)
        x[i] = w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
}

/* -1, 0, 1 as a <, =, > b. */
static int ref_cmp(const uint32_t a[REF_W], const uint32_t b[REF_W])
{
    for (int i = REF_W - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* a -= b, a >= b. */
static void ref_sub_in(uint32_t a[REF_W], const uint32_t b[REF_W])
{
    int64_t borrow = 0;
    for (int i = 0; i < REF_W; i++) {
        int64_t d = (int64_t)a[i] - b[i] - borrow;
        borrow = d < 0;
        a[i] = (uint32_t)d;
    }
}

/* a += b (no overflow beyond REF_W words in our use). */
static void ref_add_in(uint32_t a[REF_W], const uint32_t b[REF_W])
{
    uint64_t carry = 0;
    for (int i = 0; i < REF_W; i++) {
        uint64_t s = (uint64_t)a[i] + b[i] + carry;
        a[i] = (uint32_t)s;
        carry = s >> 32;
    }
}

/* r = x mod m, bit by bit from the top: r = 2r + bit, minus m when r >= m.
 * r < m < 2^(32 (mw - 1)) throughout, so mw words hold 2r + 1. */
static void ref_mod(uint32_t r[REF_W], const uint32_t x[REF_W], const uint32_t m[REF_W])
{
    uint32_t acc[REF_W] = {0};
    int mw = REF_W, top = REF_W * 32 - 1;
    while (mw > 1 && m[mw - 1] == 0)
        mw--;
    mw = mw < REF_W ? mw + 1 : REF_W;
    while (top > 0 && !((x[top / 32] >> (top % 32)) & 1))
        top--;
    for (int bit = top; bit >= 0; bit--) {
        for (int i = mw - 1; i > 0; i--)
            acc[i] = acc[i] << 1 | acc[i - 1] >> 31;
        acc[0] = acc[0] << 1 | ((x[bit / 32] >> (bit % 32)) & 1);
        if (ref_cmp(acc, m) >= 0)
            ref_sub_in(acc, m);
    }
    memcpy(r, acc, sizeof acc);
}

/* out = a * b mod m; a, b, m, out: n64 64-bit limbs, plain integers. */
void ref_mulmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64)
{
    uint32_t wa[REF_W], wb[REF_W], wm[REF_W], prod[REF_W] = {0};
    ref_unpack(wa, a, n64);
    ref_unpack(wb, b, n64);
    ref_unpack(wm, m, n64);
    for (int i = 0; i < 2 * n64; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 2 * n64; j++) {
            uint64_t t = (uint64_t)wa[i] * wb[j] + prod[i + j] + carry;
            prod[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        prod[i + 2 * n64] = (uint32_t)carry;
    }
    ref_mod(prod, prod, wm);
    ref_pack(out, prod, n64);
}

/* out = (a + b) mod m and (a - b) mod m, for a, b < m. */
void ref_addmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64)
{
    uint32_t wa[REF_W], wb[REF_W], wm[REF_W];
    ref_unpack(wa, a, n64);
    ref_unpack(wb, b, n64);
    ref_unpack(wm, m, n64);
    ref_add_in(wa, wb);
    ref_mod(wa, wa, wm);
    ref_pack(out, wa, n64);
}

void ref_submod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64)
{
    uint32_t wa[REF_W], wb[REF_W], wm[REF_W];
    ref_unpack(wa, a, n64);
    ref_unpack(wb, b, n64);
    ref_unpack(wm, m, n64);
    ref_add_in(wa, wm);
    ref_sub_in(wa, wb);
    ref_mod(wa, wa, wm);
    ref_pack(out, wa, n64);
}

void ref_pow2_pair(uint64_t *lo, uint64_t *hi, unsigned k, int n64)
{
    for (int i = 0; i < n64; i++) {
        unsigned b = 64 * (unsigned)i;
        lo[i] = k >= b + 64 ? ~0ULL : k > b ? (1ULL << (k - b)) - 1 : 0;
        hi[i] = k / 64 == (unsigned)i ? 1ULL << (k % 64) : 0;
    }
}

/* out = x mod m for any n64-limb x. */
void ref_reduce(uint64_t *out, const uint64_t *x, const uint64_t *m, int n64)
{
    uint32_t wx[REF_W], wm[REF_W];
    ref_unpack(wx, x, n64);
    ref_unpack(wm, m, n64);
    ref_mod(wx, wx, wm);
    ref_pack(out, wx, n64);
}

/* out = a^e mod m, e an n64-limb integer: square and multiply on ref_mulmod. */
void ref_powmod(uint64_t *out, const uint64_t *a, const uint64_t *e, const uint64_t *m, int n64)
{
    uint64_t acc[8] = {1};
    for (int i = n64 - 1; i >= 0; i--)
        for (int b = 63; b >= 0; b--) {
            ref_mulmod(acc, acc, acc, m, n64);
            if ((e[i] >> b) & 1)
                ref_mulmod(acc, acc, a, m, n64);
        }
    memcpy(out, acc, (size_t)n64 * 8);
}

/* Decimal text of an n64-limb integer (n64 <= 8: at most 155 digits) by
 * repeated division by 10; buf holds 20 * n64 + 1 bytes. */
void ref_to_dec(char *buf, const uint64_t *x, int n64)
{
    uint32_t w[REF_W];
    char tmp[160];
    int len = 0;
    ref_unpack(w, x, n64);
    for (;;) {
        uint64_t rem = 0;
        int nz = 0;
        for (int i = REF_W - 1; i >= 0; i--) {
            uint64_t cur = rem << 32 | w[i];
            w[i] = (uint32_t)(cur / 10);
            rem = cur % 10;
            nz |= w[i] != 0;
        }
        tmp[len++] = (char)('0' + rem);
        if (!nz || len == (int)sizeof tmp)
            break;
    }
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = 0;
}

/* A uniformly random integer below m (rejection sampling on the top word). */
void ref_random_below(uint64_t *out, const uint64_t *m, int n64, test_rng_t *rng)
{
    int top = 63 - __builtin_clzll(m[n64 - 1]);
    uint64_t mask = top == 63 ? ~0ULL : (2ULL << top) - 1;
    for (;;) {
        for (int i = 0; i < n64; i++)
            out[i] = test_rng_next(rng);
        out[n64 - 1] &= mask;
        for (int i = n64 - 1; i >= 0; i--) {
            if (out[i] != m[i]) {
                if (out[i] < m[i])
                    return;
                break;
            }
        }
    }
}

/* Runs body once per kernel path this CPU has (portable, then ADX when the
 * CPU has BMI2/ADX), with one seeded generator carried across both. */
void test_on_paths(void (*body)(test_rng_t *rng), const char *who)
{
    test_rng_t rng;
    test_rng_init(&rng, who);
    const ff_path_t paths[2] = {FF_PATH_PORTABLE, FF_PATH_ADX};
    for (int k = 0; k < 2; k++) {
        if (ff_init(paths[k]) != GM_OK)
            continue;       /* no ADX on this CPU */
        body(&rng);
    }
    GM_ASSERT(ff_init(FF_PATH_PORTABLE) == GM_OK);   /* the portable path always exists */
}
