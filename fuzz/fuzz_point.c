/* fuzz/fuzz_point.c — point decoding (ec/ec.h): G1 and G2, compressed and
 * uncompressed, checked and _unchecked.
 * Input: byte 0 selects the group and form (even: G1, odd: G2; then
 * compressed, uncompressed), the next 48/96/96/192 bytes are the encoding.
 * Properties: a decoded point re-encodes to the input bytes; its other
 * encoding decodes to the same point; the unchecked decoder accepts what the
 * checked one accepts, and the checked one refuses an unchecked success only
 * with GM_ESUBGROUP; every refusal is one of the documented statuses. */
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"

FUZZ_INIT_FF_ONLY()

static int documented(int rc)
{
    return rc == GM_EFLAGS || rc == GM_ENONCANON || rc == GM_ENOSQRT || rc == GM_ENOTONCURVE ||
           rc == GM_ESUBGROUP;
}

static void g1(const uint8_t *in, size_t n, int compressed)
{
    g1_affine_t p, q;
    if (compressed) {
        if (n < G1_COMPRESSED_BYTES)
            return;
        int rc = g1_from_bytes_compressed(&p, in);
        if (rc) {
            FUZZ_CHECK(documented(rc) && rc != GM_ENOTONCURVE, "g1 compressed: undocumented status");
            return;
        }
        uint8_t c[G1_COMPRESSED_BYTES], u[G1_UNCOMPRESSED_BYTES], c2[G1_COMPRESSED_BYTES];
        g1_to_bytes_compressed(c, &p);
        FUZZ_CHECK(memcmp(c, in, sizeof c) == 0, "g1 compressed does not round-trip");
        g1_to_bytes_uncompressed(u, &p);
        FUZZ_CHECK(g1_from_bytes_uncompressed(&q, u) == 0, "g1: uncompressed form of a valid point refused");
        g1_to_bytes_compressed(c2, &q);
        FUZZ_CHECK(memcmp(c, c2, sizeof c) == 0, "g1: the two forms decode to different points");
        return;
    }
    if (n < G1_UNCOMPRESSED_BYTES)
        return;
    int rc = g1_from_bytes_uncompressed(&p, in);
    int ru = g1_from_bytes_uncompressed_unchecked(&q, in);
    FUZZ_CHECK(rc == 0 || documented(rc), "g1 uncompressed: undocumented status");
    FUZZ_CHECK(ru == 0 || (documented(ru) && ru != GM_ESUBGROUP), "g1 unchecked: undocumented status");
    FUZZ_CHECK(rc != 0 || ru == 0, "g1: unchecked refuses what checked accepts");
    FUZZ_CHECK(ru != 0 || rc == 0 || rc == GM_ESUBGROUP, "g1: checked refuses an unchecked point for a reason "
                                                         "other than the subgroup");
    if (ru != 0)
        return;
    uint8_t u[G1_UNCOMPRESSED_BYTES];
    g1_to_bytes_uncompressed(u, &q);
    FUZZ_CHECK(memcmp(u, in, sizeof u) == 0, "g1 uncompressed does not round-trip");
    if (rc == 0) {
        uint8_t c[G1_COMPRESSED_BYTES];
        g1_to_bytes_compressed(c, &p);
        FUZZ_CHECK(g1_from_bytes_compressed(&q, c) == 0, "g1: compressed form of a valid point refused");
        g1_to_bytes_uncompressed(u, &q);
        FUZZ_CHECK(memcmp(u, in, sizeof u) == 0, "g1: the two forms decode to different points");
    }
}

static void g2(const uint8_t *in, size_t n, int compressed)
{
    g2_affine_t p, q;
    if (compressed) {
        if (n < G2_COMPRESSED_BYTES)
            return;
        int rc = g2_from_bytes_compressed(&p, in);
        if (rc) {
            FUZZ_CHECK(documented(rc) && rc != GM_ENOTONCURVE, "g2 compressed: undocumented status");
            return;
        }
        uint8_t c[G2_COMPRESSED_BYTES], u[G2_UNCOMPRESSED_BYTES], c2[G2_COMPRESSED_BYTES];
        g2_to_bytes_compressed(c, &p);
        FUZZ_CHECK(memcmp(c, in, sizeof c) == 0, "g2 compressed does not round-trip");
        g2_to_bytes_uncompressed(u, &p);
        FUZZ_CHECK(g2_from_bytes_uncompressed(&q, u) == 0, "g2: uncompressed form of a valid point refused");
        g2_to_bytes_compressed(c2, &q);
        FUZZ_CHECK(memcmp(c, c2, sizeof c) == 0, "g2: the two forms decode to different points");
        return;
    }
    if (n < G2_UNCOMPRESSED_BYTES)
        return;
    int rc = g2_from_bytes_uncompressed(&p, in);
    int ru = g2_from_bytes_uncompressed_unchecked(&q, in);
    FUZZ_CHECK(rc == 0 || documented(rc), "g2 uncompressed: undocumented status");
    FUZZ_CHECK(ru == 0 || (documented(ru) && ru != GM_ESUBGROUP), "g2 unchecked: undocumented status");
    FUZZ_CHECK(rc != 0 || ru == 0, "g2: unchecked refuses what checked accepts");
    FUZZ_CHECK(ru != 0 || rc == 0 || rc == GM_ESUBGROUP, "g2: checked refuses an unchecked point for a reason "
                                                         "other than the subgroup");
    if (ru != 0)
        return;
    uint8_t u[G2_UNCOMPRESSED_BYTES];
    g2_to_bytes_uncompressed(u, &q);
    FUZZ_CHECK(memcmp(u, in, sizeof u) == 0, "g2 uncompressed does not round-trip");
    if (rc == 0) {
        uint8_t c[G2_COMPRESSED_BYTES];
        g2_to_bytes_compressed(c, &p);
        FUZZ_CHECK(g2_from_bytes_compressed(&q, c) == 0, "g2: compressed form of a valid point refused");
        g2_to_bytes_uncompressed(u, &q);
        FUZZ_CHECK(memcmp(u, in, sizeof u) == 0, "g2: the two forms decode to different points");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 4) {
    case 0: g1(data + 1, size - 1, 1); break;
    case 1: g2(data + 1, size - 1, 1); break;
    case 2: g1(data + 1, size - 1, 0); break;
    case 3: g2(data + 1, size - 1, 0); break;
    }
    return 0;
}
