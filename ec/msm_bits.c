/*
 * ec/msm_bits.c — the sum of the bases a bitmap chooses (msm_g1_bits,
 * msm_g2_bits, and BN254's bn_msm_g1_bits, bn_msm_g2_bits): the MSM of 0/1
 * scalars, which is most of a PoRep partition's A, B and L MSMs once its
 * witness is kept compact (synth.h, cs_compact_t), and of a circom
 * circuit's wires that are bits.
 *
 * DESIGN. The bitmap is split into word ranges, one per task; a task sums
 * its chosen bases by batch-affine pairwise additions (one inversion per
 * level of up to 128 pairs) into one XYZZ accumulator, and the caller adds
 * the tasks' sums in task order. With a density bitmap the base
 * of bit j is found by rank (set density bits below j): a first pass counts
 * each range's density bits, the caller turns the counts into each range's
 * first base index, and the second pass keeps a running count per word.
 * Where the CPU has AVX-512 IFMA (fr_x8_enabled()) every group's levels
 * run on the 8 lanes of its G_x8_add_batch (ec/add_x8_shape.h). No scratch
 * beyond the tasks' accumulators (on the caller's stack: at most
 * BITS_TASKS of them) and each task's buffer of BITS_BATCH affine points on
 * its own stack (51 KiB for G2), with the lanes' scratch beside it (97 KiB).
 */
#include "base/base.h"
#include "ec/ec.h"

/* Most tasks one call runs (their accumulators live on the caller's stack). */
#define BITS_TASKS 128
/* Fewest words of the bitmap per task. */
#define BITS_MIN_WORDS 256

/* The words of range t of nt over nw words. */
static void bits_range(size_t *w0, size_t *w1, size_t t, size_t nt, size_t nw)
{
    *w0 = nw * t / nt;
    *w1 = nw * (t + 1) / nt;
}

/* Word w of sel with the bits at n and above cleared. */
static inline uint64_t sel_word(const uint64_t *sel, size_t w, size_t n)
{
    uint64_t s = sel[w];
    size_t lo = w * 64;
    if (lo + 64 > n)
        s &= n > lo ? (~0ULL >> (64 - (n - lo))) : 0;
    return s;
}

typedef struct {
    const uint64_t *density;
    size_t nw, nt;
    size_t *first; /* per task: its density bits, then (by the caller) its first base index */
} bits_count_t;

static void bits_count_task(void *arg, size_t t, unsigned worker)
{
    (void)worker;
    bits_count_t *c = arg;
    size_t w0, w1, k = 0;
    bits_range(&w0, &w1, t, c->nt, c->nw);
    for (size_t w = w0; w < w1; w++)
        k += (size_t)__builtin_popcountll(c->density[w]);
    c->first[t] = k;
}

/* The tasks and, with a density, each task's first base index. */
static size_t bits_plan(size_t *first, const uint64_t *density, size_t n, topo_pool_t *pool)
{
    size_t nw = (n + 63) / 64, nt = (size_t)topo_pool_size(pool) * 4;
    if (nt > BITS_TASKS)
        nt = BITS_TASKS;
    if (nt > nw / BITS_MIN_WORDS)
        nt = nw / BITS_MIN_WORDS;
    if (nt < 1)
        nt = 1;
    if (density) {
        /* Words past n may hold density bits of later columns: they belong
         * to no range's bases, and no chosen bit lies there. */
        bits_count_t c = {density, nw, nt, first};
        topo_pool_run(pool, nt, bits_count_task, &c);
        size_t acc = 0;
        for (size_t t = 0; t < nt; t++) {
            size_t k = first[t];
            first[t] = acc;
            acc += k;
        }
    }
    return nt;
}

/* One shape for G1 (fe = fp, bn_fp) and G2 (fe = fp2, bn_fp2) of either
 * curve: the task sums its range into part[t].
 * (1) Why: a 0/1 scalar is its base or nothing, so the sum needs neither
 *     windows nor buckets. The chosen bases are added in pairs in affine
 *     coordinates with one shared inversion per level of BITS_BATCH / 2
 *     pairs (Montgomery's trick: 3 multiplications per pair, then 1 + 1
 *     squaring + 1 for the sum, about 6 against the 10 of a mixed XYZZ
 *     addition); a full buffer is halved by one level and filled again, and
 *     what is left at the end of the range is halved to one point. Pairs
 *     with equal x (P + P, P - P) go to an XYZZ accumulator instead, which
 *     handles them (on lanes the batch itself doubles P + P and drops P -
 *     P).
 * (2) Invariants: task t owns part[t] and its buffers and reads words
 *     [w0, w1) of sel and density; idx is the number of density bits below
 *     word w, so a chosen bit b of word w has base idx + popcount(density[w]
 *     below b); a level writes its sums at buf[out] with out <= the pair
 *     being read, so no unread point is overwritten.
 * (3) `grothmpi bench prove --porep 2KiB --compact` (msm_a, msm_b_g1,
 *     msm_b_g2, msm_l; bench/README.md, "compact witness"). */
#define BITS_BATCH 256

/* Bytes of the lanes' scratch for a level of BITS_BATCH / 2 pairs, for the
 * widest lane value (BLS12-381's Fp2: 16 limbs): add_x8_shape.h's 6 vectors
 * and a byte per block of 8, and 64 for the alignment. */
#define BITS_X8_SCRATCH (BITS_BATCH / 16 * (6 * 16 * 64 + 1) + 64)

#define BITS_SHAPE(G, FE)                                                                                            \
    typedef struct {                                                                                                 \
        const G##_affine_t *bases;                                                                                   \
        const uint64_t *sel, *density;                                                                               \
        size_t n, nw, nt;                                                                                            \
        const size_t *first;                                                                                         \
        G##_xyzz_t *part;                                                                                            \
    } G##_bits_job_t;                                                                                                \
                                                                                                                     \
    /* The level on 8 lanes (G##_x8_add_batch, where the CPU has IFMA): every                                      \
     * pair's sum written over its first point (equal points doubled, P +                                          \
     * (-P) left at infinity and dropped), then packed to the front. */                                             \
    static void G##_bits_level_x8(G##_affine_t *buf, size_t *cnt)                                                    \
    {                                                                                                                \
        G##_affine_t *first[BITS_BATCH / 2];                                                                         \
        const G##_affine_t *second[BITS_BATCH / 2];                                                                  \
        uint8_t neg[BITS_BATCH / 2] = {0};                                                                           \
        char scratch[BITS_X8_SCRATCH];                                                                               \
        GM_ASSERT(G##_x8_scratch_size(BITS_BATCH / 2) <= sizeof scratch);                                            \
        size_t np = *cnt / 2, out = 0;                                                                               \
        for (size_t i = 0; i < np; i++) {                                                                            \
            first[i] = &buf[2 * i];                                                                                  \
            second[i] = &buf[2 * i + 1];                                                                             \
        }                                                                                                            \
        G##_x8_add_batch(np, first, second, neg, scratch);                                                           \
        for (size_t i = 0; i < np; i++)                                                                              \
            if (!first[i]->inf)                                                                                      \
                buf[out++] = *first[i];                                                                              \
        if (*cnt & 1)                                                                                                \
            buf[out++] = buf[*cnt - 1];                                                                              \
        *cnt = out;                                                                                                  \
    }                                                                                                                \
                                                                                                                     \
    /* One level: buf[0 .. *cnt) becomes its pairwise sums (and the odd one). */                                    \
    static void G##_bits_level(G##_affine_t *buf, size_t *cnt, G##_xyzz_t *acc)                                      \
    {                                                                                                                \
        if (fr_x8_enabled()) {                                                                                       \
            G##_bits_level_x8(buf, cnt);                                                                             \
            return;                                                                                                  \
        }                                                                                                            \
        FE##_t den[BITS_BATCH / 2], pre[BITS_BATCH / 2], inv, x;                                                     \
        uint16_t idx[BITS_BATCH / 2];                                                                                \
        size_t np = *cnt / 2, k = 0, out = 0;                                                                        \
        for (size_t i = 0; i < np; i++) {                                                                            \
            const G##_affine_t *a = &buf[2 * i], *b = &buf[2 * i + 1];                                               \
            if (FE##_eq(&a->x, &b->x)) {                                                                             \
                G##_xyzz_add_affine(acc, acc, a);                                                                    \
                G##_xyzz_add_affine(acc, acc, b);                                                                    \
                continue;                                                                                            \
            }                                                                                                        \
            idx[k] = (uint16_t)i;                                                                                    \
            FE##_sub(&den[k], &b->x, &a->x);                                                                         \
            if (k)                                                                                                   \
                FE##_mul(&pre[k], &pre[k - 1], &den[k]);                                                             \
            else                                                                                                     \
                pre[0] = den[0];                                                                                     \
            k++;                                                                                                     \
        }                                                                                                            \
        if (k) {                                                                                                     \
            FE##_inv(&inv, &pre[k - 1]);                                                                             \
            for (size_t t = k - 1; t > 0; t--) {                                                                     \
                FE##_mul(&x, &inv, &pre[t - 1]);                                                                     \
                FE##_mul(&inv, &inv, &den[t]);                                                                       \
                den[t] = x; /* 1 / den[t] */                                                                         \
            }                                                                                                        \
            den[0] = inv;                                                                                            \
        }                                                                                                            \
        for (size_t t = 0; t < k; t++) {                                                                             \
            const G##_affine_t *a = &buf[2 * idx[t]], *b = &buf[2 * idx[t] + 1];                                     \
            FE##_t l, x3, y3;                                                                                        \
            FE##_sub(&l, &b->y, &a->y);                                                                              \
            FE##_mul(&l, &l, &den[t]);                                                                               \
            FE##_sqr(&x3, &l);                                                                                       \
            FE##_sub(&x3, &x3, &a->x);                                                                               \
            FE##_sub(&x3, &x3, &b->x);                                                                               \
            FE##_sub(&y3, &a->x, &x3);                                                                               \
            FE##_mul(&y3, &y3, &l);                                                                                  \
            FE##_sub(&y3, &y3, &a->y);                                                                               \
            buf[out].x = x3;                                                                                         \
            buf[out].y = y3;                                                                                         \
            buf[out].inf = false;                                                                                    \
            out++;                                                                                                   \
        }                                                                                                            \
        if (*cnt & 1)                                                                                                \
            buf[out++] = buf[*cnt - 1];                                                                              \
        *cnt = out;                                                                                                  \
    }                                                                                                                \
                                                                                                                     \
    static void G##_bits_task(void *arg, size_t t, unsigned worker)                                                  \
    {                                                                                                                \
        (void)worker;                                                                                                \
        const G##_bits_job_t *j = arg;                                                                               \
        size_t w0, w1;                                                                                               \
        bits_range(&w0, &w1, t, j->nt, j->nw);                                                                       \
        G##_xyzz_t acc;                                                                                              \
        G##_xyzz_set_inf(&acc);                                                                                      \
        G##_affine_t buf[BITS_BATCH];                                                                                \
        size_t cnt = 0, idx = j->density ? j->first[t] : 0;                                                          \
        for (size_t w = w0; w < w1; w++) {                                                                           \
            uint64_t s = sel_word(j->sel, w, j->n), d = j->density ? j->density[w] : ~0ULL;                          \
            s &= d;                                                                                                  \
            while (s) {                                                                                              \
                unsigned b = (unsigned)__builtin_ctzll(s);                                                           \
                s &= s - 1;                                                                                          \
                size_t k = j->density ? idx + (size_t)__builtin_popcountll(d & ((1ULL << b) - 1)) : w * 64 + b;     \
                if (j->bases[k].inf)                                                                                 \
                    continue;                                                                                        \
                buf[cnt++] = j->bases[k];                                                                            \
                if (cnt == BITS_BATCH)                                                                               \
                    G##_bits_level(buf, &cnt, &acc);                                                                 \
            }                                                                                                        \
            if (j->density)                                                                                          \
                idx += (size_t)__builtin_popcountll(d);                                                              \
        }                                                                                                            \
        while (cnt > 1)                                                                                              \
            G##_bits_level(buf, &cnt, &acc);                                                                         \
        if (cnt)                                                                                                     \
            G##_xyzz_add_affine(&acc, &acc, &buf[0]);                                                                \
        j->part[t] = acc;                                                                                            \
    }                                                                                                                \
                                                                                                                     \
    static void G##_bits(G##_jac_t *out, const G##_affine_t *bases, const uint64_t *sel, const uint64_t *density,    \
                         size_t n, topo_pool_t *pool)                                                                \
    {                                                                                                                \
        size_t first[BITS_TASKS];                                                                                    \
        G##_xyzz_t part[BITS_TASKS], sum;                                                                            \
        G##_xyzz_set_inf(&sum);                                                                                      \
        if (n) {                                                                                                     \
            size_t nt = bits_plan(first, density, n, pool);                                                          \
            G##_bits_job_t j = {bases, sel, density, n, (n + 63) / 64, nt, first, part};                             \
            topo_pool_run(pool, nt, G##_bits_task, &j);                                                              \
            for (size_t t = 0; t < nt; t++)                                                                          \
                G##_xyzz_add(&sum, &sum, &part[t]);                                                                  \
        }                                                                                                            \
        G##_xyzz_to_jac(out, &sum);                                                                                  \
    }

BITS_SHAPE(g1, fp)
BITS_SHAPE(g2, fp2)
BITS_SHAPE(bn_g1, bn_fp)
BITS_SHAPE(bn_g2, bn_fp2)

void msm_g1_bits(g1_jac_t *out, const g1_affine_t *bases, const uint64_t *sel, const uint64_t *density, size_t n,
                 topo_pool_t *pool)
{
    g1_bits(out, bases, sel, density, n, pool);
}

void msm_g2_bits(g2_jac_t *out, const g2_affine_t *bases, const uint64_t *sel, const uint64_t *density, size_t n,
                 topo_pool_t *pool)
{
    g2_bits(out, bases, sel, density, n, pool);
}

void bn_msm_g1_bits(bn_g1_jac_t *out, const bn_g1_affine_t *bases, const uint64_t *sel, const uint64_t *density,
                    size_t n, topo_pool_t *pool)
{
    bn_g1_bits(out, bases, sel, density, n, pool);
}

void bn_msm_g2_bits(bn_g2_jac_t *out, const bn_g2_affine_t *bases, const uint64_t *sel, const uint64_t *density,
                    size_t n, topo_pool_t *pool)
{
    bn_g2_bits(out, bases, sel, density, n, pool);
}
