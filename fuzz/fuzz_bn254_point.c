/* fuzz/fuzz_bn254_point.c — BN254 point decoding (ec/ec.h): G1 and G2 in the
 * Ethereum precompile and the snarkjs encodings, G2 checked and _unchecked.
 * Input: byte 0 selects the group and form (0: G1 eth, 1: G1 snarkjs, 2: G2
 * eth, 3: G2 snarkjs), the next 64/64/128/128 bytes are the encoding.
 * Properties: a decoded point re-encodes to the input bytes; its other
 * encoding decodes to the same point; G2's unchecked decoder accepts what the
 * checked one accepts, and the checked one refuses an unchecked success only
 * with GM_ESUBGROUP; every refusal is one of the documented statuses (G1 has
 * no subgroup refusal: its cofactor is 1). */
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"

FUZZ_INIT_FF_ONLY()

static void g1(const uint8_t *in, size_t n, int snarkjs)
{
    if (n < BN254_G1_BYTES)
        return;
    bn_g1_affine_t p, q;
    int rc = snarkjs ? bn_g1_from_bytes_snarkjs(&p, in) : bn_g1_from_bytes_eth(&p, in);
    if (rc) {
        FUZZ_CHECK(rc == GM_ENONCANON || rc == GM_ENOTONCURVE, "bn g1: undocumented status");
        return;
    }
    uint8_t same[BN254_G1_BYTES], other[BN254_G1_BYTES];
    if (snarkjs) {
        bn_g1_to_bytes_snarkjs(same, &p);
        bn_g1_to_bytes_eth(other, &p);
        FUZZ_CHECK(bn_g1_from_bytes_eth(&q, other) == 0, "bn g1: eth form of a valid point refused");
    } else {
        bn_g1_to_bytes_eth(same, &p);
        bn_g1_to_bytes_snarkjs(other, &p);
        FUZZ_CHECK(bn_g1_from_bytes_snarkjs(&q, other) == 0, "bn g1: snarkjs form of a valid point refused");
    }
    FUZZ_CHECK(memcmp(same, in, sizeof same) == 0, "bn g1 does not round-trip");
    FUZZ_CHECK(bn_g1_affine_eq(&p, &q), "bn g1: the two forms decode to different points");
}

static void g2(const uint8_t *in, size_t n, int snarkjs)
{
    if (n < BN254_G2_BYTES)
        return;
    bn_g2_affine_t p, q;
    int rc = snarkjs ? bn_g2_from_bytes_snarkjs(&p, in) : bn_g2_from_bytes_eth(&p, in);
    FUZZ_CHECK(rc == 0 || rc == GM_ENONCANON || rc == GM_ENOTONCURVE || rc == GM_ESUBGROUP,
               "bn g2: undocumented status");
    if (snarkjs) {
        int ru = bn_g2_from_bytes_snarkjs_unchecked(&q, in);
        FUZZ_CHECK(ru == 0 || ru == GM_ENONCANON || ru == GM_ENOTONCURVE, "bn g2 unchecked: undocumented status");
        FUZZ_CHECK(rc != 0 || ru == 0, "bn g2: unchecked refuses what checked accepts");
        FUZZ_CHECK(ru != 0 || rc == 0 || rc == GM_ESUBGROUP,
                   "bn g2: checked refuses an unchecked point for a reason other than the subgroup");
    }
    if (rc != 0)
        return;
    FUZZ_CHECK(bn_g2_affine_in_subgroup(&p), "bn g2: accepted point outside G2");
    uint8_t same[BN254_G2_BYTES], other[BN254_G2_BYTES];
    if (snarkjs) {
        bn_g2_to_bytes_snarkjs(same, &p);
        bn_g2_to_bytes_eth(other, &p);
        FUZZ_CHECK(bn_g2_from_bytes_eth(&q, other) == 0, "bn g2: eth form of a valid point refused");
    } else {
        bn_g2_to_bytes_eth(same, &p);
        bn_g2_to_bytes_snarkjs(other, &p);
        FUZZ_CHECK(bn_g2_from_bytes_snarkjs(&q, other) == 0, "bn g2: snarkjs form of a valid point refused");
    }
    FUZZ_CHECK(memcmp(same, in, sizeof same) == 0, "bn g2 does not round-trip");
    FUZZ_CHECK(bn_g2_affine_eq(&p, &q), "bn g2: the two forms decode to different points");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 4) {
    case 0: g1(data + 1, size - 1, 0); break;
    case 1: g1(data + 1, size - 1, 1); break;
    case 2: g2(data + 1, size - 1, 0); break;
    case 3: g2(data + 1, size - 1, 1); break;
    }
    return 0;
}
