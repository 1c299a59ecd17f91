/*
 * synth/porep/chacha.c — the ChaCha8 block function, as the SDR DRG draws its
 * parents from rand_chacha's ChaCha8Rng.
 *
 * DESIGN
 *  - Only the block function: the DRG needs 20 u32 words per node (10 u64
 *    draws), so a caller computes two blocks and reads them as a stream; no
 *    buffered generator object is kept.
 *  - Layout of the original ChaCha (D. J. Bernstein, 2008), which rand_chacha
 *    follows: words 0..3 the "expand 32-byte k" constants, 4..11 the key
 *    (LE), 12..13 a 64-bit block counter, 14..15 a 64-bit stream id. With
 *    stream 0 and a counter below 2^32 this equals the IETF layout with a
 *    zero nonce, so the published 8-round test vectors apply.
 */
#include "synth/porep/porep.h"

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
    return (x << r) | (x >> (32 - r));
}

static inline uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define QUARTER(a, b, c, d)                 \
    do {                                    \
        a += b; d ^= a; d = rotl32(d, 16);  \
        c += d; b ^= c; b = rotl32(b, 12);  \
        a += b; d ^= a; d = rotl32(d, 8);   \
        c += d; b ^= c; b = rotl32(b, 7);   \
    } while (0)

void porep_chacha8_block(uint32_t out[16], const uint8_t key[32], uint64_t counter, uint64_t stream)
{
    uint32_t in[16], x[16];
    in[0] = 0x61707865u; /* "expa" */
    in[1] = 0x3320646eu; /* "nd 3" */
    in[2] = 0x79622d32u; /* "2-by" */
    in[3] = 0x6b206574u; /* "te k" */
    for (int i = 0; i < 8; i++)
        in[4 + i] = load_le32(key + 4 * i);
    in[12] = (uint32_t)counter;
    in[13] = (uint32_t)(counter >> 32);
    in[14] = (uint32_t)stream;
    in[15] = (uint32_t)(stream >> 32);
    for (int i = 0; i < 16; i++)
        x[i] = in[i];
    for (int r = 0; r < 8; r += 2) {
        /* columns */
        QUARTER(x[0], x[4], x[8], x[12]);
        QUARTER(x[1], x[5], x[9], x[13]);
        QUARTER(x[2], x[6], x[10], x[14]);
        QUARTER(x[3], x[7], x[11], x[15]);
        /* diagonals */
        QUARTER(x[0], x[5], x[10], x[15]);
        QUARTER(x[1], x[6], x[11], x[12]);
        QUARTER(x[2], x[7], x[8], x[13]);
        QUARTER(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}
