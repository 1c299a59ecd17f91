/*
 * tests/unit/ff_ref.h — the naive integer reference the field tests check
 * ff/ against, and the runner that repeats a test on every kernel path.
 * Defined once in tests/unit/ff_ref.c.
 *
 * The reference works on plain integers in 32-bit limbs: schoolbook
 * multiplication and bit-serial shift-and-subtract reduction. It shares no
 * code with ff/ and knows nothing of Montgomery form; elements enter and
 * leave ff/ only through *_from_limbs / *_to_limbs. Integers are n64
 * little-endian 64-bit limbs, n64 <= 8; out may alias any input.
 */
#ifndef GM_TESTS_FF_REF_H
#define GM_TESTS_FF_REF_H

#include <stdint.h>

/* testutil.h's header comment nests a comment opener (its --filter example). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

/* out = a * b mod m. */
void ref_mulmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64);
/* out = (a + b) mod m and (a - b) mod m, for a, b < m. */
void ref_addmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64);
void ref_submod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n64);
/* out = x mod m for any n64-limb x. */
void ref_reduce(uint64_t *out, const uint64_t *x, const uint64_t *m, int n64);
/* out = a^e mod m, e an n64-limb integer. */
void ref_powmod(uint64_t *out, const uint64_t *a, const uint64_t *e, const uint64_t *m, int n64);
/* Decimal text of x (at most 155 digits); buf holds 20 * n64 + 1 bytes. */
void ref_to_dec(char *buf, const uint64_t *x, int n64);
/* lo = 2^k - 1 and hi = 2^k as n64 limbs (k < 64 n64): the edge values at
 * a limb boundary k of the lane kernels' tests. */
void ref_pow2_pair(uint64_t *lo, uint64_t *hi, unsigned k, int n64);
/* A uniformly random integer below m. */
void ref_random_below(uint64_t *out, const uint64_t *m, int n64, test_rng_t *rng);

/* Runs body once per kernel path this CPU has (portable, then ADX when the
 * CPU has BMI2/ADX), with one generator seeded for `who` carried across
 * both; leaves the portable path selected. */
void test_on_paths(void (*body)(test_rng_t *rng), const char *who);

#endif
