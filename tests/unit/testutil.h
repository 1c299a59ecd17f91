/*
 * tests/unit/testutil.h — what the unit tests share: a seeded, replayable
 * random generator (xoshiro256**). The seed comes from GM_TEST_SEED when set,
 * else from the clock, and is printed once so a failure can be replayed:
 *   GM_TEST_SEED=1234 build/tests/unit_tests --filter fp/'*'
 */
#ifndef GM_TESTUTIL_H
#define GM_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { uint64_t s[4]; } test_rng_t;

static inline uint64_t test_rng_next(test_rng_t *r)
{
    uint64_t *s = r->s, res = ((s[1] * 5) << 7 | (s[1] * 5) >> 57) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}

/* Seeds r from GM_TEST_SEED or the clock and prints the seed with the
 * name of the test that asked. */
static inline void test_rng_init(test_rng_t *r, const char *who)
{
    const char *env = getenv("GM_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    fprintf(stderr, "%s: GM_TEST_SEED=%llu\n", who, (unsigned long long)seed);
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) { /* splitmix64 expands the seed */
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = x ^ (x >> 31);
    }
}

#endif
