/*
 * groth16/witness.c — the MSMs of a compact witness (groth16.h,
 * groth16_witness_t.aux_compact; synth.h, cs_compact_t).
 *
 * DESIGN. sum_j z_j B(j) over the aux values splits into the ones, a plain
 * sum of their bases (msm_g1_bits / msm_g2_bits: no windows, no buckets),
 * and the dense values, a Pippenger MSM (msm_g1 / msm_g2) over the dense
 * array itself with the bases of those values gathered next to it. The
 * gather runs in chunks of at most G16_GATHER dense values, so its buffer is
 * bounded by the prover (sized once, g16_gather_bytes) and not by the
 * witness; each chunk is one msm call whose density bitmap marks the dense
 * values whose column takes part (A and B skip empty columns). The zeros
 * cost nothing. Same sums as the dense MSMs, so the same proof bytes.
 */
#include <string.h>

#include "groth16/groth16_internal.h"

void groth16_witness_of(groth16_witness_t *w, const cs_t *cs)
{
    w->inputs = cs_input_values(cs);
    w->n_inputs = (size_t)cs_num_inputs(cs);
    w->aux = cs_aux_values(cs);
    w->n_aux = (size_t)cs_num_aux(cs);
    w->aux_compact = cs_aux_compact(cs);
}

uint64_t groth16_witness_bytes(uint64_t n_aux, bool compact, double dense_frac)
{
    if (!compact)
        return n_aux * 32;
    uint64_t words = n_aux / 64 + 1, dense = (uint64_t)(dense_frac * (double)n_aux) + 1;
    /* the dense part grows by a quarter (synth/compact.c): up to 1.25 times
     * what it holds, plus the first 1024 */
    uint64_t cap = dense + dense / 4 + 1024;
    return words * (2 * sizeof(uint64_t) + sizeof(uint32_t)) + cap * 32;
}

size_t g16_gather_bytes(uint64_t n_aux)
{
    uint64_t n = n_aux < G16_GATHER ? n_aux : G16_GATHER;
    return (size_t)(n * sizeof(g2_affine_t) + (n / 64 + 1) * sizeof(uint64_t));
}

/* The dense part of one MSM: sum over the dense values i of c (z_j, j their
 * column) taking part of dense[i] · B(j), into *out (g1_jac_t or g2_jac_t).
 * Single-threaded walk over the words (O(n / 64) plus the gathered bases),
 * the msm calls on pool. */
static void dense_msm(void *out, bool g2, const void *bases, const uint64_t *density, const cs_compact_t *c,
                      void *gather, void *scratch, topo_pool_t *pool)
{
    size_t psz = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    uint64_t chunk = c->n < G16_GATHER ? c->n : G16_GATHER;
    uint8_t *gb = gather;
    uint64_t *d2 = (uint64_t *)(void *)(gb + chunk * sizeof(g2_affine_t));
    g1_jac_t s1, p1;
    g2_jac_t s2, p2;
    g1_jac_set_inf(&s1);
    g2_jac_set_inf(&s2);
    uint64_t i0 = 0, i = 0, ng = 0, didx = 0, nw = c->n / 64 + 1;
    memset(d2, 0, (size_t)(chunk / 64 + 1) * sizeof(uint64_t));
    for (uint64_t w = 0; w < nw; w++) {
        uint64_t lo = w * 64, valid = lo + 64 <= c->n ? ~0ULL : (c->n > lo ? ~0ULL >> (64 - (c->n - lo)) : 0);
        uint64_t dw = density ? density[w] : ~0ULL, nb = ~c->isbit[w] & valid;
        while (nb) {
            unsigned b = (unsigned)__builtin_ctzll(nb);
            nb &= nb - 1;
            if ((dw >> b) & 1) {
                uint64_t k = density ? didx + (uint64_t)__builtin_popcountll(dw & ((1ULL << b) - 1)) : lo + b;
                memcpy(gb + ng * psz, (const uint8_t *)bases + k * psz, psz);
                ng++;
                d2[(i - i0) >> 6] |= 1ULL << ((i - i0) & 63);
            }
            i++;
            if (i - i0 == chunk || i == c->n_dense) {
                if (g2) {
                    msm_g2(&p2, (const g2_affine_t *)gather, c->dense + i0, d2, (size_t)(i - i0), 0, scratch, pool);
                    g2_add(&s2, &s2, &p2);
                } else {
                    msm_g1(&p1, (const g1_affine_t *)gather, c->dense + i0, d2, (size_t)(i - i0), 0, scratch, pool);
                    g1_add(&s1, &s1, &p1);
                }
                memset(d2, 0, (size_t)(chunk / 64 + 1) * sizeof(uint64_t));
                i0 = i;
                ng = 0;
            }
        }
        if (density)
            didx += (uint64_t)__builtin_popcountll(dw);
    }
    GM_ASSERT(i == c->n_dense);
    if (g2)
        *(g2_jac_t *)out = s2;
    else
        *(g1_jac_t *)out = s1;
}

void g16_msm_compact(void *out, bool g2, const void *bases, const uint64_t *density, const cs_compact_t *c,
                     void *gather, void *scratch, topo_pool_t *pool)
{
    if (g2) {
        g2_jac_t ones, d;
        msm_g2_bits(&ones, bases, c->one, density, (size_t)c->n, pool);
        dense_msm(&d, true, bases, density, c, gather, scratch, pool);
        g2_add(out, &ones, &d);
    } else {
        g1_jac_t ones, d;
        msm_g1_bits(&ones, bases, c->one, density, (size_t)c->n, pool);
        dense_msm(&d, false, bases, density, c, gather, scratch, pool);
        g1_add(out, &ones, &d);
    }
}
