/* fuzz/fuzz_ff.c — field-element decoding (ff/ff.h): fp/fr from 48/32
 * bytes big- and little-endian, fr reduced mod r, and fp/fr from decimal
 * strings (the snarkjs JSON form).
 * Input: byte 0 selects the decoder, the rest is its argument.
 * Properties: a canonical encoding decodes and re-encodes to the same bytes
 * (or string); a rejected one is >= the modulus or malformed and leaves the
 * output untouched; fr_from_bytes_le_mod always gives a reduced value that
 * re-encodes canonically. */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"

FUZZ_INIT_FF_ONLY()

static void fp_bytes(const uint8_t *in, size_t n, int be)
{
    if (n < FP_BYTES)
        return;
    fp_t a, sentinel;
    memset(&sentinel, 0xa5, sizeof sentinel);
    a = sentinel;
    int rc = be ? fp_from_bytes_be(&a, in) : fp_from_bytes_le(&a, in);
    if (rc != 0) {
        FUZZ_CHECK(rc == GM_ENONCANON, "fp_from_bytes: unexpected status");
        FUZZ_CHECK(memcmp(&a, &sentinel, sizeof a) == 0, "fp_from_bytes: output written on failure");
        return;
    }
    uint8_t out[FP_BYTES];
    if (be)
        fp_to_bytes_be(out, &a);
    else
        fp_to_bytes_le(out, &a);
    FUZZ_CHECK(memcmp(out, in, FP_BYTES) == 0, "fp bytes do not round-trip");
    char dec[FP_DEC_MAX];
    fp_to_dec(dec, &a);
    fp_t b;
    FUZZ_CHECK(fp_from_dec(&b, dec) == 0, "fp_to_dec output does not parse");
    FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0, "fp decimal does not round-trip");
}

static void fr_bytes(const uint8_t *in, size_t n, int mode)
{
    if (n < FR_BYTES)
        return;
    fr_t a, sentinel;
    memset(&sentinel, 0xa5, sizeof sentinel);
    a = sentinel;
    uint8_t out[FR_BYTES];
    if (mode == 2) {
        fr_from_bytes_le_mod(&a, in);
        fr_to_bytes_le(out, &a);
        fr_t b;
        FUZZ_CHECK(fr_from_bytes_le(&b, out) == 0, "fr_from_bytes_le_mod gave an unreduced value");
        FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0, "fr_from_bytes_le_mod result does not round-trip");
        return;
    }
    int rc = mode ? fr_from_bytes_be(&a, in) : fr_from_bytes_le(&a, in);
    if (rc != 0) {
        FUZZ_CHECK(rc == GM_ENONCANON, "fr_from_bytes: unexpected status");
        FUZZ_CHECK(memcmp(&a, &sentinel, sizeof a) == 0, "fr_from_bytes: output written on failure");
        return;
    }
    if (mode)
        fr_to_bytes_be(out, &a);
    else
        fr_to_bytes_le(out, &a);
    FUZZ_CHECK(memcmp(out, in, FR_BYTES) == 0, "fr bytes do not round-trip");
    char dec[FR_DEC_MAX];
    fr_to_dec(dec, &a);
    fr_t b;
    FUZZ_CHECK(fr_from_dec(&b, dec) == 0, "fr_to_dec output does not parse");
    FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0, "fr decimal does not round-trip");
}

static void dec(const uint8_t *in, size_t n, int is_fp)
{
    char *s = fuzz_strndup(in, n);
    if (is_fp) {
        fp_t a;
        int rc = fp_from_dec(&a, s);
        if (rc == 0) {
            char buf[FP_DEC_MAX];
            fp_to_dec(buf, &a);
            FUZZ_CHECK(strcmp(buf, s) == 0, "fp decimal accepted but not canonical");
        } else {
            FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENONCANON, "fp_from_dec: unexpected status");
        }
    } else {
        fr_t a;
        int rc = fr_from_dec(&a, s);
        if (rc == 0) {
            char buf[FR_DEC_MAX];
            fr_to_dec(buf, &a);
            FUZZ_CHECK(strcmp(buf, s) == 0, "fr decimal accepted but not canonical");
        } else {
            FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENONCANON, "fr_from_dec: unexpected status");
        }
    }
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    switch (data[0] % 7) {
    case 0: fp_bytes(in, n, 1); break;
    case 1: fp_bytes(in, n, 0); break;
    case 2: fr_bytes(in, n, 1); break;
    case 3: fr_bytes(in, n, 0); break;
    case 4: fr_bytes(in, n, 2); break;
    case 5: dec(in, n, 1); break;
    case 6: dec(in, n, 0); break;
    }
    return 0;
}
