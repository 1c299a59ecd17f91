/*
 * synth/gadget_sha256.c — the SHA-256 gadget as bellperson's sha256.rs has
 * it: message schedule and rounds over UInt32 with MultiEq-batched additions,
 * additions into e and a deferred so that each round's sums become one
 * addmany of 5..7 operands.
 *
 * Constraint count: 25,840 per compression on allocated message bits from
 * the constant IV (bellperson's test_full_block); constant message bits
 * (padding) fold away as in the original.
 */
#include <string.h>

#include "synth/synth_internal.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

void cs_sha256_iv(cs_u32_t out[8])
{
    for (int i = 0; i < 8; i++)
        cs_u32_const(&out[i], IV[i]);
}

/* A word that is either known (concrete) or a pending sum of up to 7
 * operands, computed by one addmany when it is first used (bellperson's
 * Maybe::Deferred). */
typedef struct {
    bool deferred;
    unsigned n;
    cs_u32_t ops[8];
} maybe_t;

static void maybe_compute(cs_multieq_t *m, cs_u32_t *out, maybe_t *x, const cs_u32_t *extra)
{
    if (!x->deferred) {
        *out = x->ops[0];
        return;
    }
    if (extra)
        x->ops[x->n++] = *extra;
    cs_u32_addmany(m, out, x->ops, x->n);
}

void cs_sha256_compress(cs_t *cs, cs_u32_t out[8], const cs_bool_t block[512], const cs_u32_t cur[8])
{
    size_t mark = cs_arena_mark(cs);
    cs_u32_t w[64];
    for (int i = 0; i < 16; i++)
        cs_u32_from_bits_be(&w[i], block + 32 * i);

    cs_multieq_t m;
    cs_multieq_init(&m, cs);

    for (int i = 16; i < 64; i++) {
        cs_ns_push(cs, "w extension %d", i);
        cs_u32_t s0, s1, t, ops[4];
        cs_u32_rotr(&s0, &w[i - 15], 7);
        cs_u32_rotr(&t, &w[i - 15], 18);
        cs_u32_xor(cs, &s0, &s0, &t);
        cs_u32_shr(&t, &w[i - 15], 3);
        cs_u32_xor(cs, &s0, &s0, &t);
        cs_u32_rotr(&s1, &w[i - 2], 17);
        cs_u32_rotr(&t, &w[i - 2], 19);
        cs_u32_xor(cs, &s1, &s1, &t);
        cs_u32_shr(&t, &w[i - 2], 10);
        cs_u32_xor(cs, &s1, &s1, &t);
        ops[0] = w[i - 16];
        ops[1] = s0;
        ops[2] = w[i - 7];
        ops[3] = s1;
        cs_u32_addmany(&m, &w[i], ops, 4);
        cs_ns_pop(cs);
    }

    maybe_t a = {.deferred = false, .n = 1}, e = {.deferred = false, .n = 1};
    a.ops[0] = cur[0];
    e.ops[0] = cur[4];
    cs_u32_t b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];

    for (int i = 0; i < 64; i++) {
        cs_ns_push(cs, "compression round %d", i);
        cs_u32_t new_e, new_a, s1, s0, t, ch, maj;
        maybe_compute(&m, &new_e, &e, NULL);
        cs_u32_rotr(&s1, &new_e, 6);
        cs_u32_rotr(&t, &new_e, 11);
        cs_u32_xor(cs, &s1, &s1, &t);
        cs_u32_rotr(&t, &new_e, 25);
        cs_u32_xor(cs, &s1, &s1, &t);
        cs_u32_ch(cs, &ch, &new_e, &f, &g);

        maybe_compute(&m, &new_a, &a, NULL);
        cs_u32_rotr(&s0, &new_a, 2);
        cs_u32_rotr(&t, &new_a, 13);
        cs_u32_xor(cs, &s0, &s0, &t);
        cs_u32_rotr(&t, &new_a, 22);
        cs_u32_xor(cs, &s0, &s0, &t);
        cs_u32_maj(cs, &maj, &new_a, &b, &c);

        /* temp1 = (h, s1, ch, K[i], w[i]); e = temp1 + d; a = temp1 + s0 + maj,
         * both deferred to their first use (operand order as the original). */
        e.deferred = a.deferred = true;
        e.ops[0] = a.ops[0] = h;
        e.ops[1] = a.ops[1] = s1;
        e.ops[2] = a.ops[2] = ch;
        cs_u32_const(&e.ops[3], K[i]);
        a.ops[3] = e.ops[3];
        e.ops[4] = a.ops[4] = w[i];
        e.ops[5] = d;
        e.n = 6;
        a.ops[5] = s0;
        a.ops[6] = maj;
        a.n = 7;
        h = g;
        g = f;
        f = new_e;
        d = c;
        c = b;
        b = new_a;
        cs_ns_pop(cs);
    }

    cs_u32_t two[2];
    maybe_compute(&m, &out[0], &a, &cur[0]);
    two[0] = cur[1], two[1] = b;
    cs_u32_addmany(&m, &out[1], two, 2);
    two[0] = cur[2], two[1] = c;
    cs_u32_addmany(&m, &out[2], two, 2);
    two[0] = cur[3], two[1] = d;
    cs_u32_addmany(&m, &out[3], two, 2);
    maybe_compute(&m, &out[4], &e, &cur[4]);
    two[0] = cur[5], two[1] = f;
    cs_u32_addmany(&m, &out[5], two, 2);
    two[0] = cur[6], two[1] = g;
    cs_u32_addmany(&m, &out[6], two, 2);
    two[0] = cur[7], two[1] = h;
    cs_u32_addmany(&m, &out[7], two, 2);
    cs_multieq_finish(&m);
    cs_arena_release(cs, mark);
}

void cs_sha256(cs_t *cs, cs_bool_t out[256], const cs_bool_t *msg, size_t nbits)
{
    GM_ASSERT(nbits % 8 == 0);
    /* Padding: 1, zeros to 448 mod 512, the 64-bit big-endian length. The
     * blocks are assembled one at a time instead of as one padded copy. */
    size_t total = (nbits + 1 + 64 + 511) / 512 * 512;
    cs_u32_t cur[8], next[8];
    cs_sha256_iv(cur);
    cs_bool_t block[512];
    for (size_t off = 0, blk = 0; off < total; off += 512, blk++) {
        for (size_t i = 0; i < 512; i++) {
            size_t p = off + i;
            if (p < nbits)
                block[i] = msg[p];
            else if (p == nbits)
                block[i] = cs_bool_const(true);
            else if (p >= total - 64)
                block[i] = cs_bool_const(((uint64_t)nbits >> (total - 1 - p)) & 1);
            else
                block[i] = cs_bool_const(false);
        }
        cs_ns_push(cs, "block %zu", blk);
        cs_sha256_compress(cs, next, block, cur);
        cs_ns_pop(cs);
        memcpy(cur, next, sizeof cur);
    }
    for (int i = 0; i < 8; i++)
        cs_u32_to_bits_be(out + 32 * i, &cur[i]);
}
