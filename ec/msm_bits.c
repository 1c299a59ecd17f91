/*
 * ec/msm_bits.c — the sum of the bases a bitmap chooses (msm_g1_bits,
 * msm_g2_bits, and BN254's bn_msm_g1_bits, bn_msm_g2_bits): the MSM of 0/1
 * scalars, which is most of a PoRep partition's A, B and L MSMs once its
 * witness is kept compact (synth.h, cs_compact_t), and of a circom
 * circuit's wires that are bits.
 *
 * DESIGN. The bitmap is split into word ranges, one per task; a task sums
 * its chosen bases by batch-affine pairwise additions (G_add_pairs of ec.h:
 * one inversion per level of up to 128 pairs) down to one point, and the
 * caller adds the tasks' sums in task order. With a density bitmap the base
 * of bit j is found by rank (set density bits below j): a first pass counts
 * each range's density bits, the caller turns the counts into each range's
 * first base index, and the second pass keeps a running count per word.
 * Where the CPU has AVX-512 IFMA (fr_x8_enabled()) every group's levels
 * run on the 8 lanes of its G_x8_add_batch (ec/add_x8_shape.h). No scratch
 * beyond the tasks' accumulators (on the caller's stack: at most
 * BITS_TASKS of them) and each task's buffer of BITS_BATCH affine points on
 * its own stack (51 KiB for G2), with the levels' scratch beside it (122
 * KiB, most of it the lanes').
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

/* One shape for G1 and G2 of either curve: the task sums its range into
 * part[t].
 * (1) Why: a 0/1 scalar is its base or nothing, so the sum needs neither
 *     windows nor buckets. The chosen bases are added in pairs in affine
 *     coordinates, one level of up to BITS_BATCH / 2 pairs sharing one
 *     inversion (G##_add_pairs, the MSM's own levels for scalars equal to 1:
 *     Montgomery's trick, 3 multiplications per pair, then about 3 for the
 *     sum, against the 10 of a mixed XYZZ addition; on lanes where the CPU
 *     has IFMA); a full buffer is halved by one level and filled again, and
 *     what is left at the end of the range is halved to one point.
 * (2) Invariants: task t owns part[t] and its buffers and reads words
 *     [w0, w1) of sel and density; idx is the number of density bits below
 *     word w, so a chosen bit b of word w has base idx + popcount(density[w]
 *     below b); no base at infinity enters the buffer (the levels' contract).
 * (3) `grothmpi bench prove --porep 2KiB --compact` (msm_a, msm_b_g1,
 *     msm_b_g2, msm_l; bench/README.md, "compact witness"). */
#define BITS_BATCH 256

/* Bytes of a level's scratch, for the widest group (BLS12-381's G2: its
 * lanes' 16-limb Fp2 values); each task checks its own on entry. */
#define BITS_SCRATCH (BITS_BATCH / 2 * (2 * sizeof(void *) + 1 + 2 * 96) + BITS_BATCH / 16 * (6 * 16 * 64 + 1) + 4 * 64)

#define BITS_SHAPE(G)                                                                                                \
    typedef struct {                                                                                                 \
        const G##_affine_t *bases;                                                                                   \
        const uint64_t *sel, *density;                                                                               \
        size_t n, nw, nt;                                                                                            \
        const size_t *first;                                                                                         \
        G##_xyzz_t *part;                                                                                            \
    } G##_bits_job_t;                                                                                                \
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
        char scratch[BITS_SCRATCH];                                                                                  \
        GM_ASSERT(G##_add_pairs_scratch_size(BITS_BATCH) <= sizeof scratch);                                         \
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
                    cnt = G##_add_pairs(buf, cnt, scratch);                                                          \
            }                                                                                                        \
            if (j->density)                                                                                          \
                idx += (size_t)__builtin_popcountll(d);                                                              \
        }                                                                                                            \
        while (cnt > 1)                                                                                              \
            cnt = G##_add_pairs(buf, cnt, scratch);                                                                  \
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

BITS_SHAPE(g1)
BITS_SHAPE(g2)
BITS_SHAPE(bn_g1)
BITS_SHAPE(bn_g2)

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
