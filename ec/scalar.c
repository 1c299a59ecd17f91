/*
 * ec/scalar.c — the integer side of scalar multiplication, shared by G1 and
 * G2: reduction mod r, digits in base |x| (the GLV / psi decompositions of
 * g1.c and g2.c) and the width-w NAF the point loops consume. Plain integers,
 * little-endian 64-bit limbs; nothing here is secret-safe (see ff/ff.h).
 */
#include <string.h>

#include "base/base.h"
#include "ec/ec_internal.h"

typedef unsigned __int128 u128;

/* a >= b for 4-limb integers. */
static bool u256_geq(const uint64_t a[4], const uint64_t b[4])
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return true;
}

static void u256_sub(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)a[i] - b[i] - borrow;
        out[i] = (uint64_t)t;
        borrow = (uint64_t)(t >> 64) & 1;
    }
}

void ec_scalar_mod_r(uint64_t out[4], const uint64_t k[4])
{
    uint64_t t[4];
    memcpy(t, k, sizeof t);
    /* r > 2^254, so k < 2^256 < 4r: at most three subtractions. */
    while (u256_geq(t, FR_MODULUS))
        u256_sub(t, t, FR_MODULUS);
    memcpy(out, t, sizeof t);
}

uint64_t ec_u256_divrem_u64(uint64_t q[4], const uint64_t a[4], uint64_t d)
{
    GM_ASSERT(d != 0);
    u128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        u128 cur = (rem << 64) | a[i];
        q[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

/*
 * The textbook recoding: while k > 0, take the signed residue of k mod 2^w
 * when k is odd, subtract it (k becomes divisible by 2^w), shift by one.
 * Subtracting a negative digit can carry past the top limb, so k gets a fifth
 * limb; it never exceeds 2^256 + 2^(w-1).
 */
size_t ec_wnaf(int8_t naf[EC_WNAF_MAX], const uint64_t *k, size_t nlimbs, unsigned w)
{
    GM_ASSERT(nlimbs <= 4 && w >= 2 && w <= 7);
    uint64_t t[5] = {0};
    memcpy(t, k, nlimbs * sizeof *k);
    const int64_t full = (int64_t)1 << w, half = full >> 1;
    size_t len = 0;
    memset(naf, 0, EC_WNAF_MAX);
    while (t[0] | t[1] | t[2] | t[3] | t[4]) {
        GM_ASSERT(len < EC_WNAF_MAX);
        int64_t d = 0;
        if (t[0] & 1) {
            d = (int64_t)(t[0] & (uint64_t)(full - 1));
            if (d >= half)
                d -= full;
            /* t -= d: d in (-2^(w-1), 2^(w-1)), odd. */
            if (d > 0) {
                u128 c = (u128)t[0] - (uint64_t)d;
                t[0] = (uint64_t)c;
                for (int i = 1; i < 5 && (c >> 64); i++) {
                    c = (u128)t[i] - 1;
                    t[i] = (uint64_t)c;
                }
            } else {
                u128 c = (u128)t[0] + (uint64_t)(-d);
                t[0] = (uint64_t)c;
                for (int i = 1; i < 5 && (c >> 64); i++) {
                    c = (u128)t[i] + 1;
                    t[i] = (uint64_t)c;
                }
            }
        }
        naf[len++] = (int8_t)d;
        for (int i = 0; i < 4; i++)
            t[i] = (t[i] >> 1) | (t[i + 1] << 63);
        t[4] >>= 1;
    }
    return len;
}
