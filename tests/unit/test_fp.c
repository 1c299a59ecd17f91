/*
 * tests/unit/test_fp.c — Fp against a deliberately naive reference.
 *
 * The reference (ref_* below) works on plain integers in 32-bit limbs:
 * schoolbook multiplication and bit-serial shift-and-subtract reduction. It
 * shares no code with ff/ and knows nothing of Montgomery form; elements
 * enter and leave ff/ only through fp_from_limbs / fp_to_limbs. The ref_*
 * functions have external linkage: test_fr.c and test_fp2.c use them too
 * (prototypes repeated there), so the reference is written once.
 *
 * Every test runs on the portable path and, when the CPU has it, on ADX.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "ff/ff.h"
#include "base/base.h"
/* testutil.h's header comment nests a comment opener (its --filter example). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

/* ---- the naive reference ------------------------------------------------------ */

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
    ff_init(FF_PATH_PORTABLE);
}

/* ---- helpers for Fp ------------------------------------------------------------- */

#define N FP_LIMBS
#define P FP_MODULUS

static void rand_fp(fp_t *out, uint64_t plain[N], test_rng_t *rng)
{
    uint64_t l[N];
    ref_random_below(l, P, N, rng);
    cr_assert_eq(fp_from_limbs(out, l), GM_OK);
    if (plain)
        memcpy(plain, l, sizeof l);
}

static void expect_plain(const fp_t *a, const uint64_t want[N], const char *what, int iter)
{
    uint64_t got[N];
    fp_to_limbs(got, a);
    cr_assert(memcmp(got, want, sizeof got) == 0, "%s: mismatch at iteration %d (path %s)", what,
              iter, ff_path_name());
}

/* ---- tests ---------------------------------------------------------------------- */

static void check_arith(test_rng_t *rng)
{
    for (int it = 0; it < 300; it++) {
        uint64_t a[N], b[N], want[N];
        fp_t x, y, z;
        rand_fp(&x, a, rng);
        rand_fp(&y, b, rng);
        ref_mulmod(want, a, b, P, N);
        fp_mul(&z, &x, &y);
        expect_plain(&z, want, "fp_mul", it);
        ref_mulmod(want, a, a, P, N);
        fp_sqr(&z, &x);
        expect_plain(&z, want, "fp_sqr", it);
        ref_addmod(want, a, b, P, N);
        fp_add(&z, &x, &y);
        expect_plain(&z, want, "fp_add", it);
        ref_submod(want, a, b, P, N);
        fp_sub(&z, &x, &y);
        expect_plain(&z, want, "fp_sub", it);
    }
}

Test(fp, arith_matches_reference) { test_on_paths(check_arith, "fp/arith_matches_reference"); }

static const uint64_t P_MINUS_2[N] = {
    0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
    0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL,
};

static void check_inv(test_rng_t *rng)
{
    for (int it = 0; it < 300; it++) {
        uint64_t a[N], want[N];
        fp_t x, y, z;
        rand_fp(&x, a, rng);
        if (it < 6) { /* small values and p - small */
            memset(a, 0, sizeof a);
            a[0] = (uint64_t)it + 1;
            if (it >= 3)
                ref_submod(a, P, a, P, N);  /* 0 - k = p - k */
            cr_assert_eq(fp_from_limbs(&x, a), GM_OK);
        }
        fp_inv(&y, &x);
        fp_mul(&z, &x, &y);
        cr_assert(fp_is_one(&z), "a * a^-1 != 1 at %d (path %s)", it, ff_path_name());
        if (it < 20) { /* against Fermat on the reference */
            ref_powmod(want, a, P_MINUS_2, P, N);
            expect_plain(&y, want, "fp_inv vs a^(p-2)", it);
        }
        fp_inv(&x, &x); /* aliased */
        cr_assert(fp_eq(&x, &y));
    }
    fp_t z;
    fp_inv(&z, &FP_ZERO_ELEM);
    cr_assert(fp_is_zero(&z), "inverse of 0 is 0");
    fp_inv(&z, &FP_ONE);
    cr_assert(fp_is_one(&z));
}

Test(fp, inv) { test_on_paths(check_inv, "fp/inv"); }

static void check_batch_inv(test_rng_t *rng)
{
    enum { n = 33 };
    fp_t a[n], out[n], scratch[n], want;
    for (int i = 0; i < n; i++) {
        rand_fp(&a[i], NULL, rng);
        if (i % 7 == 0)
            a[i] = FP_ZERO_ELEM;
    }
    fp_batch_inv(out, a, n, scratch);
    for (int i = 0; i < n; i++) {
        fp_inv(&want, &a[i]);
        cr_assert(fp_eq(&out[i], &want), "batch_inv[%d] (path %s)", i, ff_path_name());
    }
    fp_batch_inv(a, a, n, scratch);
    for (int i = 0; i < n; i++)
        cr_assert(fp_eq(&a[i], &out[i]), "in-place batch_inv[%d]", i);
    fp_t zeros[3] = {FP_ZERO_ELEM, FP_ZERO_ELEM, FP_ZERO_ELEM};
    fp_batch_inv(zeros, zeros, 3, scratch);
    for (int i = 0; i < 3; i++)
        cr_assert(fp_is_zero(&zeros[i]));
}

Test(fp, batch_inv) { test_on_paths(check_batch_inv, "fp/batch_inv"); }

static void check_pow_sqrt_legendre(test_rng_t *rng)
{
    int non = 0;
    for (int it = 0; it < 40; it++) {
        uint64_t a[N], e[N], want[N];
        fp_t x, y, sq, r;
        rand_fp(&x, a, rng);
        if (it < 4) {
            ref_random_below(e, P, N, rng);
            ref_powmod(want, a, e, P, N);
            fp_pow(&y, &x, e, N);
            expect_plain(&y, want, "fp_pow", it);
        }
        fp_sqr(&sq, &x);
        cr_assert_eq(fp_legendre(&sq), 1);
        cr_assert(fp_sqrt(&r, &sq), "square without root (path %s)", ff_path_name());
        fp_sqr(&y, &r);
        cr_assert(fp_eq(&y, &sq), "sqrt(x)^2 != x");
        fp_neg(&y, &r);
        cr_assert(fp_eq(&r, &x) || fp_eq(&y, &x), "root is +-x");
        int l = fp_legendre(&x);
        r = FP_ONE;
        bool ok = fp_sqrt(&r, &x);
        cr_assert_eq(ok, l == 1);
        if (!ok)
            cr_assert(fp_is_one(&r), "out untouched on failure");
        non += l == -1;
        fp_neg(&y, &x); /* -1 is a non-square (p = 3 mod 4) */
        cr_assert_eq(fp_legendre(&y), -l);
    }
    cr_assert(non > 5, "%d non-squares in 40", non);
    fp_t r, m1;
    cr_assert_eq(fp_legendre(&FP_ZERO_ELEM), 0);
    cr_assert(fp_sqrt(&r, &FP_ZERO_ELEM) && fp_is_zero(&r));
    fp_neg(&m1, &FP_ONE);
    cr_assert_eq(fp_legendre(&m1), -1);
    cr_assert(!fp_sqrt(&r, &m1));
    uint64_t zero = 0;
    fp_pow(&r, &FP_ZERO_ELEM, &zero, 1);
    cr_assert(fp_is_one(&r), "0^0 = 1");
}

Test(fp, pow_sqrt_legendre) { test_on_paths(check_pow_sqrt_legendre, "fp/pow_sqrt_legendre"); }

static void check_misc(test_rng_t *rng)
{
    for (int it = 0; it < 200; it++) {
        uint64_t a[N], want[N];
        fp_t x, y, z;
        rand_fp(&x, a, rng);
        fp_neg(&y, &x);
        ref_submod(want, (uint64_t[N]){0}, a, P, N);
        expect_plain(&y, want, "fp_neg", it);
        fp_dbl(&y, &x);
        ref_addmod(want, a, a, P, N);
        expect_plain(&y, want, "fp_dbl", it);
        fp_half(&y, &x);
        fp_dbl(&z, &y);
        cr_assert(fp_eq(&z, &x), "2 * (a/2) != a");
        fp_set_u64(&y, a[0]);
        memset(want, 0, sizeof want);
        want[0] = a[0];
        expect_plain(&y, want, "fp_set_u64", it);
        bool big = false; /* a > (p-1)/2 <=> 2a >= p */
        ref_addmod(want, a, a, P, N);
        big = (want[0] & 1) != 0; /* 2a - p is odd exactly when 2a >= p */
        cr_assert_eq(fp_is_lex_largest(&x), big, "lex sign at %d", it);
    }
    fp_t z;
    fp_neg(&z, &FP_ZERO_ELEM);
    cr_assert(fp_is_zero(&z), "-0 = 0");
    cr_assert(fp_is_one(&FP_ONE) && !fp_is_one(&FP_ZERO_ELEM) && fp_is_zero(&FP_ZERO_ELEM));
    cr_assert(!fp_is_lex_largest(&FP_ZERO_ELEM));
}

Test(fp, neg_dbl_half_set_lex) { test_on_paths(check_misc, "fp/misc"); }

/* Edge values: 0, 1, p - 1 through mul/add/sub, and their encodings. */
static void check_edges(test_rng_t *rng)
{
    uint64_t vals[3][N] = {{0}, {1}, {0}};
    memcpy(vals[2], P, sizeof vals[2]);
    vals[2][0] -= 1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            uint64_t want[N];
            fp_t x, y, z;
            cr_assert_eq(fp_from_limbs(&x, vals[i]), GM_OK);
            cr_assert_eq(fp_from_limbs(&y, vals[j]), GM_OK);
            fp_mul(&z, &x, &y);
            ref_mulmod(want, vals[i], vals[j], P, N);
            expect_plain(&z, want, "edge mul", 3 * i + j);
            fp_add(&z, &x, &y);
            ref_addmod(want, vals[i], vals[j], P, N);
            expect_plain(&z, want, "edge add", 3 * i + j);
            fp_sub(&z, &x, &y);
            ref_submod(want, vals[i], vals[j], P, N);
            expect_plain(&z, want, "edge sub", 3 * i + j);
        }
    (void)rng;
}

Test(fp, edge_values) { test_on_paths(check_edges, "fp/edge_values"); }

static void check_bytes(test_rng_t *rng)
{
    for (int it = 0; it < 200; it++) {
        uint64_t a[N];
        fp_t x, y;
        uint8_t be[FP_BYTES], le[FP_BYTES];
        rand_fp(&x, a, rng);
        fp_to_bytes_be(be, &x);
        fp_to_bytes_le(le, &x);
        for (int i = 0; i < FP_BYTES; i++) { /* the plain integer, byte by byte */
            uint8_t want = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
            cr_assert_eq(le[i], want, "le byte %d", i);
            cr_assert_eq(be[FP_BYTES - 1 - i], want, "be byte %d", i);
        }
        cr_assert_eq(fp_from_bytes_be(&y, be), GM_OK);
        cr_assert(fp_eq(&x, &y));
        cr_assert_eq(fp_from_bytes_le(&y, le), GM_OK);
        cr_assert(fp_eq(&x, &y));
        uint64_t back[N];
        fp_to_limbs(back, &x);
        cr_assert(memcmp(back, a, sizeof a) == 0);
    }
}

Test(fp, bytes_round_trip) { test_on_paths(check_bytes, "fp/bytes_round_trip"); }

static void check_noncanonical(test_rng_t *rng)
{
    (void)rng;
    uint8_t be[FP_BYTES], le[FP_BYTES];
    uint64_t l[N];
    fp_t x = FP_ONE;
    /* = p */
    for (int i = 0; i < FP_BYTES; i++) {
        le[i] = (uint8_t)(P[i / 8] >> (8 * (i % 8)));
        be[FP_BYTES - 1 - i] = le[i];
    }
    cr_expect_eq(fp_from_bytes_be(&x, be), GM_ENONCANON);
    cr_expect_eq(fp_from_bytes_le(&x, le), GM_ENONCANON);
    cr_expect_eq(fp_from_limbs(&x, P), GM_ENONCANON);
    /* = p + 1 (> p) */
    memcpy(l, P, sizeof l);
    l[0] += 1;
    cr_expect_eq(fp_from_limbs(&x, l), GM_ENONCANON);
    be[FP_BYTES - 1]++;
    cr_expect_eq(fp_from_bytes_be(&x, be), GM_ENONCANON);
    /* all 0xff */
    memset(be, 0xff, sizeof be);
    cr_expect_eq(fp_from_bytes_be(&x, be), GM_ENONCANON);
    cr_expect_eq(fp_from_bytes_le(&x, be), GM_ENONCANON);
    cr_expect(fp_is_one(&x), "out untouched on failure");
    /* p - 1 is fine */
    memcpy(l, P, sizeof l);
    l[0] -= 1;
    cr_expect_eq(fp_from_limbs(&x, l), GM_OK);
}

Test(fp, noncanonical_rejected) { test_on_paths(check_noncanonical, "fp/noncanonical_rejected"); }

static void check_dec(test_rng_t *rng)
{
    for (int it = 0; it < 100; it++) {
        uint64_t a[N];
        char want[200], got[FP_DEC_MAX];
        fp_t x, y;
        rand_fp(&x, a, rng);
        if (it == 0) {
            memset(a, 0, sizeof a);
            x = FP_ZERO_ELEM;
        }
        ref_to_dec(want, a, N);
        fp_to_dec(got, &x);
        cr_assert_str_eq(got, want);
        cr_assert_eq(fp_from_dec(&y, want), GM_OK);
        cr_assert(fp_eq(&x, &y));
    }
}

Test(fp, dec_round_trip) { test_on_paths(check_dec, "fp/dec_round_trip"); }

static void check_dec_errors(test_rng_t *rng)
{
    (void)rng;
    char pdec[200], big[201];
    uint64_t pm1[N];
    fp_t x = FP_ONE;
    ref_to_dec(pdec, P, N); /* p itself */
    cr_expect_eq(fp_from_dec(&x, pdec), GM_ENONCANON);
    memcpy(pm1, P, sizeof pm1);
    pm1[0] -= 1;
    ref_to_dec(pdec, pm1, N);
    cr_expect_eq(strlen(pdec), 115);
    char out[FP_DEC_MAX];
    cr_expect_eq(fp_from_dec(&x, pdec), GM_OK);
    fp_to_dec(out, &x);
    cr_expect_str_eq(out, pdec);
    x = FP_ONE;
    cr_expect_eq(fp_from_dec(&x, ""), GM_EFORMAT);
    cr_expect_eq(fp_from_dec(&x, "01"), GM_EFORMAT);
    cr_expect_eq(fp_from_dec(&x, "00"), GM_EFORMAT);
    cr_expect_eq(fp_from_dec(&x, "12a"), GM_EFORMAT);
    cr_expect_eq(fp_from_dec(&x, "-1"), GM_EFORMAT);
    cr_expect_eq(fp_from_dec(&x, "+1"), GM_EFORMAT);
    cr_expect_eq(fp_from_dec(&x, " 1"), GM_EFORMAT);
    memset(big, '9', 200);
    big[200] = 0;
    cr_expect_eq(fp_from_dec(&x, big), GM_ENONCANON);
    big[199] = 'x';
    cr_expect_eq(fp_from_dec(&x, big), GM_EFORMAT);
    cr_expect(fp_is_one(&x), "out untouched on failure");
    cr_expect_eq(fp_from_dec(&x, "0"), GM_OK);
    cr_expect(fp_is_zero(&x));
    cr_expect_eq(fp_from_dec(&x, "1"), GM_OK);
    cr_expect(fp_is_one(&x));
}

Test(fp, dec_errors) { test_on_paths(check_dec_errors, "fp/dec_errors"); }

/* The two kernel paths agree on many random inputs (no reference needed). */
Test(fp, adx_matches_portable)
{
    if (ff_init(FF_PATH_ADX) != GM_OK)
        cr_skip_test("no BMI2/ADX on this CPU");
    test_rng_t rng;
    test_rng_init(&rng, "fp/adx_matches_portable");
    for (int it = 0; it < 5000; it++) {
        fp_t x, y, z1, z2, s1, s2;
        rand_fp(&x, NULL, &rng);
        rand_fp(&y, NULL, &rng);
        ff_init(FF_PATH_PORTABLE);
        fp_mul(&z1, &x, &y);
        fp_sqr(&s1, &x);
        ff_init(FF_PATH_ADX);
        fp_mul(&z2, &x, &y);
        fp_sqr(&s2, &x);
        cr_assert(fp_eq(&z1, &z2) && fp_eq(&s1, &s2), "paths differ at %d", it);
    }
}
