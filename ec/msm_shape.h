/*
 * ec/msm_shape.h — multi-scalar multiplication on a curve's G1 and G2
 * (Pippenger, signed windows, batch-affine buckets), split into tiles that
 * the caller's topo/ pool runs. A template, not a header: a .c file defines
 * the parameters below and includes it once (ec/msm.c: BLS12-381, ec/bn_msm.c:
 * BN254); it defines static functions under short names (window_auto,
 * scratch_size, msm_run, add_batch), and the .c file defines the public
 * functions of ec/ec.h by name, each a one-line call of its routine. Within
 * one instantiation every routine takes nf, the number of base-field
 * elements in a coordinate (1: G1 over Fp, 2: G2 over Fp2), as a
 * compile-time constant at its always_inline call site, as ff_internal.h does
 * with the limb count.
 *
 * Parameters (#define before the #include):
 *   MSM_G1, MSM_G2       g1, g2 | bn_g1, bn_g2   prefixes of the point types
 *                        and their XYZZ functions (ec/ec.h)
 *   MSM_FE1, MSM_FE2     fp, fp2 | bn_fp, bn_fp2 prefixes of the field types
 *                        and of mul, sqr, inv, eq (ff/ff.h)
 *   MSM_IFE1, MSM_IFE2   ffp, ffp2 | ...         prefixes of the inline add,
 *                        sub, neg, is_zero of the two fields (same contracts)
 *   MSM_FE1_ONE, MSM_FE2_ONE                     1 in Fp and in Fp2
 *   MSM_FR               fr | bn_fr              the scalar field (is_zero,
 *                        is_one, to_limbs, its _t type)
 *   MSM_FR_MODULUS       its modulus r as 4 little-endian limbs
 *   MSM_SCALAR_BITS      bits of r (255 | 254): the windows cover one bit more
 *   MSM_X8               g1_x8 | bn_g1_x8: the 8-lane kernels that run
 *                        G1's batches where fr_x8_enabled() (their
 *                        _add_batch and _scratch_size, ec/add_x8_shape.h);
 *                        undefined: no lanes
 *   MSM_X8_G2            g2_x8 | bn_g2_x8: the same for G2's batches;
 *                        undefined: G2 on the scalar path
 *
 * DESIGN
 *
 *  1. Prep (tiles over the scalar array, two pool runs): with a density
 *     bitmap, scalar i takes part when bit i is set, and the bases hold only
 *     the points of set bits, in order (bellperson's DensityTracker). Each
 *     taking-part scalar is 0 (dropped), 1 (its base index goes to the "ones"
 *     list, summed directly) or other (converted from Montgomery to its
 *     canonical integer, kept with its base index). The first run counts per
 *     chunk, a serial prefix sum places each chunk, the second writes.
 *  2. Windows (tiles = one bit window over one range of the non-trivial
 *     scalars, as blst_p1s_tile_pippenger): Booth-recoded signed digits of c
 *     bits, |digit| <= 2^(c-1), so 2^(c-1) buckets and no carry between
 *     windows. Buckets are affine and are added to in batches: one shared
 *     inversion per batch (Montgomery's trick), ~6 field multiplications per
 *     addition against 10 for an XYZZ mixed add (as gnark-crypto does); on
 *     G1 and G2, where the CPU has AVX-512 IFMA, the batch's
 *     products and updates run 8 entries at a time (MSM_X8's and
 *     MSM_X8_G2's add_batch, ec/add_x8_shape.h). A
 *     point whose bucket is already in the current batch waits in a queue
 *     for the next batch; when the queue is full (skewed digits: equal
 *     scalars, tiny windows) it goes to a small XYZZ spill slot of its
 *     bucket instead, so batches never shrink to one inversion per point.
 *     The top window, which r leaves fewer buckets (97 of 4096 at 13 bits on
 *     BN254), spreads its points round-robin over copies of its buckets
 *     (copies_for) so that its batches are as large as the other windows',
 *     and folds the copies before the reduction: its batches had been
 *     reach / 8 (an inversion per 12 points), and it took 4.7 times as long
 *     as another window, on one worker at the end of the run (BN254, 2^16,
 *     17.5 of 59 ms on 2 threads). The tile then reduces its buckets (and
 *     spill slots) to one partial window sum: by running sums advanced in G
 *     segments at once, each step one batch of affine additions
 *     (reduce_dense), or, when the window has fewer points than buckets (or
 *     is a folded top window), by XYZZ running sums over the occupied
 *     buckets (reduce_sparse).
 *     The "ones" tiles sum their bases by pairwise batch-affine levels
 *     (ones_tile: the same batches, on lanes where the group has them).
 *  3. Combine (caller's thread): window sums by Horner (c doublings each),
 *     plus the ones.
 *
 * Threads: a tile owns its window-range result slot and uses the scratch of
 * the worker running it (buckets, batch, spill, the ones' buffer), indexed
 * by worker id; the prep tiles write disjoint ranges placed by the prefix
 * sums.
 */
#ifndef MSM_G1
#error "msm_shape.h is a template: define MSM_G1, MSM_FE1, ... and include it once"
#endif

#include <math.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "topo/topo.h"

#define MSM_CAT_(a, b) a##b
#define MSM_CAT(a, b) MSM_CAT_(a, b)
#define P1_(name) MSM_CAT(MSM_G1, name)
#define P2_(name) MSM_CAT(MSM_G2, name)
#define F1_(name) MSM_CAT(MSM_FE1, name)
#define F2_(name) MSM_CAT(MSM_FE2, name)
#define I1_(name) MSM_CAT(MSM_IFE1, name)
#define I2_(name) MSM_CAT(MSM_IFE2, name)
#define S_(name) MSM_CAT(MSM_FR, name)
#define aff1_t P1_(_affine_t)
#define aff2_t P2_(_affine_t)
#define jac1_t P1_(_jac_t)
#define jac2_t P2_(_jac_t)
#define xyzz1_t P1_(_xyzz_t)
#define xyzz2_t P2_(_xyzz_t)
#define fe1_t F1_(_t)
#define fe2_t F2_(_t)
#define scalar_t S_(_t)
#ifdef MSM_X8
#define X8_(name) MSM_CAT(MSM_X8, name)
#endif
#ifdef MSM_X8_G2
#define X8G2_(name) MSM_CAT(MSM_X8_G2, name)
#endif

#define FI static inline __attribute__((always_inline))

/* Whether group nf's batches run on 8 lanes (MSM_X8, MSM_X8_G2). */
FI bool x8_on(int nf)
{
#ifdef MSM_X8
    if (nf == 1)
        return fr_x8_enabled();
#endif
#ifdef MSM_X8_G2
    if (nf == 2)
        return fr_x8_enabled();
#endif
    (void)nf;
    return false;
}

/* Scalars per prep tile (a multiple of 64, the density word). */
#define PREP_CHUNK 16384
/* Bases per "ones" tile, and the points its buffer holds (a power of two:
 * pairwise sums of up to ONES_BUF / 2 share one inversion). */
#define ONES_CHUNK 8192
#define ONES_BUF 256
#define ONES_TAIL 32
/* Largest batch of affine additions sharing one inversion. */
#define BATCH_MAX EC_ADD_BATCH_MAX
/* Smallest queue (a tiny batch still queues this many before spilling). */
#define QUEUE_MIN 32
/* Spill slots (XYZZ) per tile, a power of two. */
#define SPILL 64
/* Entries a batch prefetches ahead of the one it works on (16 measured no better). */
#define PF_AHEAD 8

/* ---- one shape over Fp and Fp2 ------------------------------------------------------ */

typedef union { fe1_t f1; fe2_t f2; } fe_u;
typedef union { xyzz1_t g1; xyzz2_t g2; } xyzz_u;
typedef union { jac1_t g1; jac2_t g2; } jac_u;

#define AFF_SIZE(nf) ((nf) == 1 ? sizeof(aff1_t) : sizeof(aff2_t))

/* Coordinates of the affine point at p (a aff1_t or aff2_t). */
FI void *aff_x(int nf, void *p) { return nf == 1 ? (void *)&((aff1_t *)p)->x : (void *)&((aff2_t *)p)->x; }
FI void *aff_y(int nf, void *p) { return nf == 1 ? (void *)&((aff1_t *)p)->y : (void *)&((aff2_t *)p)->y; }
FI bool *aff_inf(int nf, void *p) { return nf == 1 ? &((aff1_t *)p)->inf : &((aff2_t *)p)->inf; }
FI const void *aff_at(int nf, const void *base, size_t i) { return (const char *)base + i * AFF_SIZE(nf); }

FI void fe_mul(int nf, void *o, const void *a, const void *b)
{
    if (nf == 1)
        F1_(_mul)(o, a, b);
    else
        F2_(_mul)(o, a, b);
}
FI void fe_sqr(int nf, void *o, const void *a) { if (nf == 1) F1_(_sqr)(o, a); else F2_(_sqr)(o, a); }
/* The additive operations inline (ff.h's inline kernels): six subtractions
 * per bucket addition cost as much as a product as out-of-line calls. */
FI void fe_add(int nf, void *o, const void *a, const void *b) { if (nf == 1) I1_(_add)(o, a, b); else I2_(_add)(o, a, b); }
FI void fe_sub(int nf, void *o, const void *a, const void *b) { if (nf == 1) I1_(_sub)(o, a, b); else I2_(_sub)(o, a, b); }
FI void fe_neg(int nf, void *o, const void *a) { if (nf == 1) I1_(_neg)(o, a); else I2_(_neg)(o, a); }
FI void fe_inv(int nf, void *o, const void *a) { if (nf == 1) F1_(_inv)(o, a); else F2_(_inv)(o, a); }
FI bool fe_eq(int nf, const void *a, const void *b) { return nf == 1 ? F1_(_eq)(a, b) : F2_(_eq)(a, b); }
FI bool fe_is_zero(int nf, const void *a) { return nf == 1 ? I1_(_is_zero)(a) : I2_(_is_zero)(a); }
FI void fe_copy(int nf, void *o, const void *a) { memcpy(o, a, nf * sizeof(fe1_t)); }

FI bool aff_on_curve(int nf, const void *p) { return nf == 1 ? P1_(_affine_on_curve)(p) : P2_(_affine_on_curve)(p); }
FI void xyzz_inf(int nf, xyzz_u *o) { if (nf == 1) P1_(_xyzz_set_inf)(&o->g1); else P2_(_xyzz_set_inf)(&o->g2); }
FI void xyzz_add_aff(int nf, xyzz_u *o, const xyzz_u *p, const void *q)
{
    if (nf == 1)
        P1_(_xyzz_add_affine)(&o->g1, &p->g1, q);
    else
        P2_(_xyzz_add_affine)(&o->g2, &p->g2, q);
}
FI void xyzz_add(int nf, xyzz_u *o, const xyzz_u *p, const xyzz_u *q)
{
    if (nf == 1)
        P1_(_xyzz_add)(&o->g1, &p->g1, &q->g1);
    else
        P2_(_xyzz_add)(&o->g2, &p->g2, &q->g2);
}
FI void xyzz_dbl(int nf, xyzz_u *o, const xyzz_u *p) { if (nf == 1) P1_(_xyzz_dbl)(&o->g1, &p->g1); else P2_(_xyzz_dbl)(&o->g2, &p->g2); }
/* out = k * p for a small k >= 1, double-and-add (MSB first); out may not alias p. */
FI void xyzz_mul_small(int nf, xyzz_u *out, const xyzz_u *p, size_t k)
{
    *out = *p;
    int top = 63 - __builtin_clzll((unsigned long long)k);
    for (int i = top - 1; i >= 0; i--) {
        xyzz_dbl(nf, out, out);
        if ((k >> i) & 1)
            xyzz_add(nf, out, out, p);
    }
}
FI void xyzz_to_jac(int nf, void *o, const xyzz_u *p) { if (nf == 1) P1_(_xyzz_to_jac)(o, &p->g1); else P2_(_xyzz_to_jac)(o, &p->g2); }

/* ---- window choice and scratch layout -------------------------------------------------- */

/* Windows of c bits covering MSM_SCALAR_BITS + 1 (Booth: the top bit of the
 * last window must be 0). */
static unsigned nwindows(unsigned c) { return (MSM_SCALAR_BITS + c) / c; }

static size_t nranges_for(unsigned c, unsigned nworkers)
{
    size_t W = nwindows(c), want = 2 * (size_t)nworkers;
    return W >= want ? 1 : (want + W - 1) / W;
}

/* Batch capacity: an eighth of the buckets keeps the chance that a point
 * finds its bucket busy under 1/8 (1/16 on average); at least 8, so tiny
 * windows (fewer buckets than that) fill their queue and spill slots rather
 * than run one inversion per point. */
static size_t batch_cap(size_t nb)
{
    size_t k = nb / 8;
    return k < 8 ? 8 : k > BATCH_MAX ? BATCH_MAX : k;
}
static size_t batch_for(unsigned c) { return batch_cap((size_t)1 << (c - 1)); }

/* Segments of the dense bucket reduction (see reduce_dense): a power of two
 * dividing the 2^(c-1) buckets and fitting one batch. */
static size_t nseg_for(unsigned c)
{
    /* Steps cost 2 nb/G inversions (~78M each), the combine ~24M per
     * segment: G near sqrt(6.5 nb) balances them. */
    size_t nb = (size_t)1 << (c - 1), k = batch_for(c), g = 1;
    while (g * g * 4 < nb * 26) /* g < sqrt(6.5 nb) */
        g *= 2;
    g = g > nb ? nb : g;
    return g < k ? g : k;
}

static size_t queue_for(unsigned c)
{
    size_t k = batch_for(c);
    return k < QUEUE_MIN ? QUEUE_MIN : k;
}

/* Bits [pos, pos + len) of the 256-bit k, len <= 32; zero above bit 255. */
FI uint64_t get_bits(const uint64_t k[4], unsigned pos, unsigned len)
{
    unsigned limb = pos / 64, off = pos % 64;
    if (limb >= 4)
        return 0;
    uint64_t v = k[limb] >> off;
    if (off + len > 64 && limb + 1 < 4)
        v |= k[limb + 1] << (64 - off);
    return v & ((1ULL << len) - 1);
}

/* Buckets window w of width c can reach with scalars < r: 2^(c-1), except
 * near the top, where r < 2^255 leaves fewer (window 13: 231 of 4096 in the
 * top window; window 17: 1, the borrow of bit 254). */
static size_t window_reach(unsigned c, unsigned w)
{
    size_t nb = (size_t)1 << (c - 1);
    unsigned pos = w * c - (w > 0);
    if (w == 0 || pos < 256 - 32)
        return nb;
    size_t reach = (size_t)((get_bits(MSM_FR_MODULUS, pos, 32) + 2) / 2);
    return reach < nb ? reach : nb;
}

/* Copies of the buckets of a window that reaches reach of nb buckets: the
 * smallest power of two m whose m * reach buckets take the batches of the
 * nb, or the largest with m * reach <= nb. The top window spreads its points
 * over the m copies (see window_tile), so that its batches are as large as
 * the other windows' instead of reach / 8 (13-bit windows on BN254: 97
 * buckets, batches of 12, an inversion per 12 points: 4.7 times the time of
 * another window at 2^16). */
static size_t copies_for(size_t nb, size_t reach)
{
    size_t m = 1;
    while (2 * m * reach <= nb && batch_cap(m * reach) < batch_cap(nb))
        m *= 2;
    return m;
}

/* The widest automatic window: 2^16 affine buckets (6.5 MiB of G1 buckets
 * per worker). The model below counts multiplications, not cache misses, so
 * it stops where the measurements of `grothmpi bench msm` stop: at 18 and
 * above the buckets of two workers (26 MiB and more) outgrow the L3 of the
 * machine the model was checked on (bench/README.md). */
#define MSM_AUTO_MAX 17

/* Cost model in Fp multiplications (M) for n points: a window whose batch
 * holds K entries costs ~7M per point (6M of the addition, the subtractions
 * and routing) plus 80M / K (its share of the batch's inversion), and ~15M
 * per bucket for the dense reduction (two batch-affine additions; a window
 * with fewer points than buckets reduces sparsely, see reduce_sparse); a top
 * window that reaches at most half the buckets batches over its copies
 * (copies_for), folds them (~7M per addition) and reduces sparsely. Windows
 * and ranges spread over the workers in whole tiles. */
static unsigned window_auto(size_t n, unsigned nworkers)
{
    if (nworkers == 0)
        nworkers = 1;
    if (n < 4)
        return 2;
    double best = 0;
    unsigned best_c = 2;
    for (unsigned c = 2; c <= MSM_AUTO_MAX; c++) {
        double R = (double)nranges_for(c, nworkers), work = 0;
        for (unsigned w = 0; w < nwindows(c); w++) {
            size_t reach = window_reach(c, w), copies = copies_for((size_t)1 << (c - 1), reach);
            double pts = (double)n / R, nbk = (double)reach, ncp = (double)(reach * copies);
            double per_point = 7.0 + 80.0 / (double)batch_cap(reach * copies);
            /* sparse: ~24M per occupied bucket, the gap's small multiple
             * (~23M per bit), and the scan of every bucket's flag */
            double buckets = copies > 1 ? fmin(pts, ncp - nbk) * 7.0 + fmin(pts, nbk) * 24.0
                             : pts >= nbk ? nbk * 15.0
                                          : pts * (24.0 + 23.0 * log2(nbk / pts)) + nbk * 0.05;
            work += R * (pts * per_point + buckets);
        }
        double tiles = nwindows(c) * R;
        double rounds = (tiles + nworkers - 1) / nworkers; /* whole tiles per worker */
        double t = work / tiles * (rounds < 1 ? 1 : rounds);
        if (c == 2 || t < best) {
            best = t;
            best_c = c;
        }
    }
    return best_c;
}

typedef struct { uint32_t bucket, neg; uint64_t idx; } entry_t;

typedef struct {
    size_t prep_cnt, k, idx, wsum, ones, ws, ws_bytes, total;
    size_t ws_buckets, ws_flags, ws_ent, ws_queue, ws_den, ws_pre, ws_spill, ws_key, ws_seg, ws_x8, ws_x8s;
    size_t ws_ones, ws_ones_pairs; /* a "ones" tile's buffer and its levels' scratch (pairs_scratch_size) */
} layout_t;

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* Bytes of the lanes' scratch for batches of k (0 without lanes). */
static size_t x8_scratch_size(int nf, size_t k)
{
#ifdef MSM_X8
    if (nf == 1)
        return X8_(_scratch_size)(k);
#endif
#ifdef MSM_X8_G2
    if (nf == 2)
        return X8G2_(_scratch_size)(k);
#endif
    (void)nf, (void)k;
    return 0;
}

/* Bytes of add_pairs's scratch for m points: the batch's addresses and
 * signs, den and pre, the lanes' scratch (each 64-byte aligned). */
static size_t pairs_scratch_size(int nf, size_t m)
{
    size_t np = m / 2;
    return ALIGN64(2 * np * sizeof(void *) + np) + ALIGN64(2 * np * sizeof(fe_u)) + ALIGN64(x8_scratch_size(nf, np));
}

static layout_t layout_for(int nf, size_t n, unsigned nworkers, unsigned c)
{
    layout_t L;
    size_t nprep = (n + PREP_CHUNK - 1) / PREP_CHUNK;
    size_t nb = (size_t)1 << (c - 1), K = batch_for(c);
    size_t off = 0;
    L.prep_cnt = off;
    off += ALIGN64(nprep * 64);
    L.k = off;
    off += ALIGN64(n * 4 * sizeof(uint64_t));
    L.idx = off;
    off += ALIGN64(n * sizeof(uint32_t));
    L.wsum = off;
    off += ALIGN64((nwindows(c) * nranges_for(c, nworkers)) * sizeof(xyzz_u));
    L.ones = off;
    off += ALIGN64(((n + ONES_CHUNK - 1) / ONES_CHUNK) * sizeof(xyzz_u));
    /* per worker */
    size_t w = 0;
    L.ws_buckets = w;
    w += ALIGN64(nb * AFF_SIZE(nf));
    L.ws_flags = w;
    w += ALIGN64(nb);
    L.ws_ent = w;
    w += ALIGN64((K + queue_for(c)) * sizeof(entry_t)); /* batch, then queue */
    L.ws_queue = L.ws_ent + K * sizeof(entry_t);
    L.ws_spill = w;
    w += ALIGN64(SPILL * sizeof(xyzz_u));
    L.ws_key = w;
    w += ALIGN64(SPILL * sizeof(uint32_t));
    L.ws_seg = w;
    w += ALIGN64(2 * nseg_for(c) * (AFF_SIZE(nf) + 1)); /* run, tot, their flags */
    L.ws_den = w;
    w += ALIGN64(K * sizeof(fe_u));
    L.ws_pre = w;
    w += ALIGN64(K * sizeof(fe_u));
    L.ws_x8 = w; /* the batch's bucket and point addresses and signs, then the lanes' scratch */
    w += ALIGN64(2 * K * sizeof(void *) + K);
    L.ws_x8s = w;
    w += ALIGN64(x8_scratch_size(nf, K));
    L.ws_ones = w;
    w += ALIGN64(ONES_BUF * AFF_SIZE(nf));
    L.ws_ones_pairs = w;
    w += ALIGN64(pairs_scratch_size(nf, ONES_BUF));
    L.ws_bytes = w;
    L.ws = off;
    off += (nworkers ? nworkers : 1) * w;
    L.total = off;
    return L;
}

static size_t scratch_size(int nf, size_t n, unsigned nworkers, unsigned window)
{
    GM_ASSERT(window <= MSM_WINDOW_MAX);
    if (window)
        return layout_for(nf, n, nworkers, window).total;
    size_t best = 0;
    unsigned cmax = window_auto(n, nworkers);
    for (unsigned c = 1; c <= cmax; c++) {
        size_t t = layout_for(nf, n, nworkers, c).total;
        best = t > best ? t : best;
    }
    return best;
}


/* ---- the job ------------------------------------------------------------------------------ */

typedef struct {
    size_t nt, ones, dens;   /* counts of the chunk; dens: its set density bits */
    size_t nt_off, ones_off, base_off;
} prep_cnt_t;

typedef struct {
    int nf;
    const void *bases;
    const scalar_t *scalars;
    const uint64_t *density;
    size_t n;
    char *scratch;
    layout_t L;
    unsigned c, W;
    size_t nranges, m_nt, m_ones, nones_tasks;
} job_t;

FI prep_cnt_t *prep_at(const job_t *J, size_t t) { return (prep_cnt_t *)(J->scratch + J->L.prep_cnt + t * 64); }
FI uint64_t *k_at(const job_t *J, size_t j) { return (uint64_t *)(J->scratch + J->L.k) + 4 * j; }
FI uint32_t *idx_arr(const job_t *J) { return (uint32_t *)(J->scratch + J->L.idx); }
FI xyzz_u *wsum_at(const job_t *J, size_t t) { return (xyzz_u *)(J->scratch + J->L.wsum) + t; }
FI xyzz_u *ones_at(const job_t *J, size_t t) { return (xyzz_u *)(J->scratch + J->L.ones) + t; }

/* Prep, first run: count the chunk's non-trivial scalars, ones and density bits. */
static void prep_count(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const job_t *J = arg;
    size_t lo = task * PREP_CHUNK, hi = lo + PREP_CHUNK < J->n ? lo + PREP_CHUNK : J->n;
    prep_cnt_t *pc = prep_at(J, task);
    pc->nt = pc->ones = pc->dens = 0;
    for (size_t i = lo; i < hi; i++) {
        if (J->density && !((J->density[i / 64] >> (i % 64)) & 1))
            continue;
        pc->dens++;
        const scalar_t *s = &J->scalars[i];
        if (S_(_is_zero)(s))
            continue;
        if (S_(_is_one)(s))
            pc->ones++;
        else
            pc->nt++;
    }
}

/* Prep, second run: write canonical scalars and base indices of the
 * non-trivial ones from the front of idx, base indices of the ones from the
 * back. */
static void prep_write(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const job_t *J = arg;
    size_t lo = task * PREP_CHUNK, hi = lo + PREP_CHUNK < J->n ? lo + PREP_CHUNK : J->n;
    const prep_cnt_t *pc = prep_at(J, task);
    size_t b = pc->base_off, t = pc->nt_off, o = pc->ones_off;
    uint32_t *idx = idx_arr(J);
    for (size_t i = lo; i < hi; i++) {
        if (J->density && !((J->density[i / 64] >> (i % 64)) & 1))
            continue;
        const scalar_t *s = &J->scalars[i];
        GM_VERIFY(S_(_is_zero)(s) || aff_on_curve(J->nf, aff_at(J->nf, J->bases, b)));
        if (S_(_is_zero)(s)) {
        } else if (S_(_is_one)(s)) {
            idx[J->n - 1 - o++] = (uint32_t)b;
        } else {
            /* A base at infinity contributes nothing: its scalar becomes 0, so
             * every digit is 0 and the windows never read the base. */
            if (*aff_inf(J->nf, (void *)aff_at(J->nf, J->bases, b)))
                memset(k_at(J, t), 0, 4 * sizeof(uint64_t));
            else
                S_(_to_limbs)(k_at(J, t), s);
            idx[t++] = (uint32_t)b;
        }
        b++;
    }
}


/* Booth digit of window w: x + b - top * 2^c, where x = bits [wc, wc + c),
 * b = bit wc - 1 (0 for w = 0) and top = bit wc + c - 1. Sum over windows of
 * d_w 2^(wc) = k, and |d_w| <= 2^(c-1). */
FI int64_t booth_digit(const uint64_t k[4], unsigned w, unsigned c)
{
    uint64_t v = w == 0 ? get_bits(k, 0, c) << 1 : get_bits(k, w * c - 1, c + 1);
    int64_t top = (int64_t)(v >> c);
    return (int64_t)((v + 1) >> 1) - (top << c);
}

/* ---- one window tile --------------------------------------------------------------- */

enum { B_FULL = 1, B_INBATCH = 2 };
enum { K_ADD = 0, K_DBL = 1, K_DONE = 2 };

typedef struct {
    int nf;
    const void *bases;
    char *buckets;        /* nb affine points; valid where flags & B_FULL */
    uint8_t *flags;
    entry_t *batch, *queue;
    xyzz_u *spill;        /* SPILL XYZZ sums, slot spill_slot(b) for bucket key[slot] */
    uint32_t *key;        /* UINT32_MAX: slot free */
    fe_u *den, *pre;
    size_t nb, K, Q, nbatch, nqueue;   /* K: batch capacity, Q: queue capacity */
    size_t reach;         /* buckets of the window (nb, or fewer at the top:
                             bucket b + m reach is copy m of bucket b) */
    bool x8;              /* batches on 8 lanes (x8_on) */
    void **b_acc;         /* K each: the batch's buckets, points and signs */
    const void **b_pt;
    uint8_t *b_neg;
    void *x8_scratch;
} tile_t;

FI void *bucket_at(const tile_t *T, size_t b) { return T->buckets + b * AFF_SIZE(T->nf); }

/* bucket := point (negated when neg). */
FI void bucket_set(int nf, void *bk, const void *p, bool neg)
{
    fe_copy(nf, aff_x(nf, bk), aff_x(nf, (void *)p));
    if (neg)
        fe_neg(nf, aff_y(nf, bk), aff_y(nf, (void *)p));
    else
        fe_copy(nf, aff_y(nf, bk), aff_y(nf, (void *)p));
    *aff_inf(nf, bk) = false;
}

/*
 * One batch of affine additions *acc[j] += +-*pt[j] (neg[j]: minus).
 * Why: lambda = num / den for every entry with one inversion of the product
 * of the dens (Montgomery's trick): 3 multiplications per entry for the
 * shared inversion, then lambda, lambda^2 and y3: ~6 per addition. The
 * entries alternate between two lanes, each with its own running product,
 * so the two serial chains of the trick (the running product forwards, the
 * running inverse backwards) are two independent chains the core overlaps;
 * the per-entry updates run two entries at a time for the same reason (one
 * entry is a chain of three dependent products).
 * Invariants: k <= BATCH_MAX; no accumulator twice in the batch; neither
 * point at infinity; dens are non-zero: x1 != x2 for an addition, 2*y1 != 0
 * for a doubling (no 2-torsion in G1 or G2); P + (-P) sets the accumulator's
 * inf without entering the products. den and pre hold k entries.
 */
/* Rate and ratio to the addition floor: `grothmpi bench msm` (bench/README.md). */
FI void add_batch(int nf, size_t k, void *const *accp, const void *const *ptp, const uint8_t *neg, fe_u *den,
                  fe_u *pre)
{
    fe_u acc[2], inv[2], py;
    uint8_t kind[BATCH_MAX];
    size_t act[BATCH_MAX], na = 0; /* the entries that enter the products, in order */
    GM_ASSERT(k <= BATCH_MAX);
    fe_copy(nf, &acc[0], nf == 1 ? (const void *)&MSM_FE1_ONE : (const void *)&MSM_FE2_ONE);
    fe_copy(nf, &acc[1], &acc[0]);
    for (size_t j = 0; j < k; j++) {
        void *bk = accp[j];
        const void *p = ptp[j];
        const void *bx = aff_x(nf, bk), *by = aff_y(nf, bk), *px = aff_x(nf, (void *)p);
        if (j + PF_AHEAD < k) {
            const char *bf = accp[j + PF_AHEAD];
            const char *pf = ptp[j + PF_AHEAD];
            __builtin_prefetch(bf);
            __builtin_prefetch(bf + AFF_SIZE(nf) - 1);
            __builtin_prefetch(pf);
            __builtin_prefetch(pf + AFF_SIZE(nf) - 1);
        }
        fe_sub(nf, &den[j], px, bx);
        if (!fe_is_zero(nf, &den[j])) {
            kind[j] = K_ADD;
        } else {
            if (neg[j])
                fe_neg(nf, &py, aff_y(nf, (void *)p));
            else
                fe_copy(nf, &py, aff_y(nf, (void *)p));
            if (fe_eq(nf, by, &py)) {
                kind[j] = K_DBL;
                fe_add(nf, &den[j], by, by);
            } else { /* P + (-P) */
                kind[j] = K_DONE;
                *aff_inf(nf, bk) = true;
                continue;
            }
        }
        /* pre = product of the earlier dens of this lane; acc *= den */
        fe_copy(nf, &pre[j], &acc[na & 1]);
        fe_mul(nf, &acc[na & 1], &acc[na & 1], &den[j]);
        act[na++] = j;
    }
    if (na == 0)
        return;
    /* inv[l] = 1 / acc[l]: one inversion of acc[0] * acc[1]. */
    fe_mul(nf, &py, &acc[0], &acc[1]);
    fe_inv(nf, &py, &py);
    fe_mul(nf, &inv[0], &py, &acc[1]);
    fe_mul(nf, &inv[1], &py, &acc[0]);
    /* Backwards through each lane: 1/den_j = inv * pre_j, then inv *= den_j
     * (so inv is 1 / the product of the lane's dens before j). 1/den_j
     * overwrites den_j. */
    for (size_t a = na; a-- > 0;) {
        size_t j = act[a];
        fe_u t;
        fe_mul(nf, &t, &inv[a & 1], &pre[j]);
        fe_mul(nf, &inv[a & 1], &inv[a & 1], &den[j]);
        fe_copy(nf, &den[j], &t);
    }
    /* The updates, two entries at a time (the second may repeat the first
     * when na is odd: it is then skipped). */
    for (size_t a = 0; a < na; a += 2) {
        size_t jj[2] = {act[a], act[a + 1 < na ? a + 1 : a]};
        int m = a + 1 < na ? 2 : 1;
        fe_u lam[2], x3[2], q[2];
        void *bx[2], *by[2];
        const void *px[2], *pyp[2];
        bool flip[2];
        for (int u = 0; u < m; u++) {
            void *bk = accp[jj[u]];
            const void *p = ptp[jj[u]];
            bx[u] = aff_x(nf, bk);
            by[u] = aff_y(nf, bk);
            px[u] = aff_x(nf, (void *)p);
            pyp[u] = aff_y(nf, (void *)p);
            /* For a negated point lam = -lambda (lambda = (-y2 - y1) / (x2 - x1)),
             * which leaves lambda^2 alone and flips the sign of x1 - x3. */
            flip[u] = kind[jj[u]] == K_ADD && neg[jj[u]];
            if (kind[jj[u]] == K_ADD) {
                if (flip[u])
                    fe_add(nf, &q[u], pyp[u], by[u]);
                else
                    fe_sub(nf, &q[u], pyp[u], by[u]);
            } else {
                fe_sqr(nf, &q[u], bx[u]);
                fe_add(nf, &lam[u], &q[u], &q[u]);
                fe_add(nf, &q[u], &lam[u], &q[u]); /* 3 x1^2 */
            }
        }
        for (int u = 0; u < m; u++)
            fe_mul(nf, &lam[u], &q[u], &den[jj[u]]); /* +-(y2 - y1) / (x2 - x1) or 3 x1^2 / (2 y1) */
        for (int u = 0; u < m; u++)
            fe_sqr(nf, &x3[u], &lam[u]);
        for (int u = 0; u < m; u++) {
            fe_sub(nf, &x3[u], &x3[u], bx[u]);
            fe_sub(nf, &x3[u], &x3[u], px[u]); /* lambda^2 - x1 - x2 */
            if (flip[u])
                fe_sub(nf, &q[u], &x3[u], bx[u]);
            else
                fe_sub(nf, &q[u], bx[u], &x3[u]);
        }
        for (int u = 0; u < m; u++)
            fe_mul(nf, &q[u], &q[u], &lam[u]);
        for (int u = 0; u < m; u++) {
            fe_sub(nf, by[u], &q[u], by[u]); /* lambda (x1 - x3) - y1 */
            fe_copy(nf, bx[u], &x3[u]);
        }
    }
}

/* add_batch, or on 8 lanes (x8: x8_on(nf); x8s: its scratch) the same
 * additions, doublings and P + (-P), 8 entries at a time. */
FI void add_batch_on(int nf, bool x8, size_t k, void *const *acc, const void *const *pt, const uint8_t *neg, fe_u *den,
                     fe_u *pre, void *x8s)
{
#ifdef MSM_X8
    if (nf == 1 && x8) {
        X8_(_add_batch)(k, (aff1_t *const *)acc, (const aff1_t *const *)pt, neg, x8s);
        return;
    }
#endif
#ifdef MSM_X8_G2
    if (nf == 2 && x8) {
        X8G2_(_add_batch)(k, (aff2_t *const *)acc, (const aff2_t *const *)pt, neg, x8s);
        return;
    }
#endif
    (void)x8, (void)x8s;
    add_batch(nf, k, acc, pt, neg, den, pre);
}

/* The tile's batch, bucket[e.bucket] += +-base[e.idx], through add_batch or,
 * where the group has lanes and the CPU IFMA (x8_on), MSM_X8's or
 * MSM_X8_G2's add_batch (the same additions, doublings and P + (-P), 8
 * entries at a time); then the buckets that became
 * the identity are emptied. Every bucket of the batch is full (empty ones
 * were set directly) and in the batch once (B_INBATCH). */
FI void batch_run(tile_t *T)
{
    const int nf = T->nf;
    size_t k = T->nbatch;
    for (size_t j = 0; j < k; j++) {
        const entry_t *e = &T->batch[j];
        T->b_acc[j] = bucket_at(T, e->bucket);
        T->b_pt[j] = aff_at(nf, T->bases, e->idx);
        T->b_neg[j] = (uint8_t)e->neg;
    }
    add_batch_on(nf, T->x8, k, T->b_acc, T->b_pt, T->b_neg, T->den, T->pre, T->x8_scratch);
    for (size_t j = 0; j < k; j++) {
        uint32_t b = T->batch[j].bucket;
        T->flags[b] &= (uint8_t)~(*aff_inf(nf, T->b_acc[j]) ? B_FULL | B_INBATCH : B_INBATCH);
    }
    T->nbatch = 0;
}

/* Spill slot of bucket b (a multiplicative hash, so nearby buckets spread). */
FI size_t spill_slot(uint32_t b) { return (size_t)((b * 0x9e3779b1u) >> (32 - 6)) & (SPILL - 1); }

/* Adds +-base[i] to the spill slot of bucket b (of its window bucket b mod
 * reach when b is a copy) when the slot is free or already that bucket's;
 * false when another bucket holds it. */
FI bool spill_put(tile_t *T, uint32_t b, uint64_t i, uint32_t neg)
{
    const int nf = T->nf;
    b = (uint32_t)(b % T->reach);
    size_t s = spill_slot(b);
    if (T->key[s] != b && T->key[s] != UINT32_MAX)
        return false;
    union { aff1_t g1; aff2_t g2; } p;
    bucket_set(nf, &p, aff_at(nf, T->bases, i), neg);
    if (T->key[s] == UINT32_MAX) {
        xyzz_inf(nf, &T->spill[s]);
        T->key[s] = b;
    }
    xyzz_add_aff(nf, &T->spill[s], &T->spill[s], &p);
    return true;
}

/* Puts +-base[i] into bucket b, which is not in the batch: sets it when
 * empty, else joins the batch (prefetching the bucket for batch_run). */
FI void bucket_put(tile_t *T, uint32_t b, uint64_t i, uint32_t neg)
{
    const int nf = T->nf;
    if (!(T->flags[b] & B_FULL)) {
        bucket_set(nf, bucket_at(T, b), aff_at(nf, T->bases, i), neg);
        T->flags[b] = B_FULL;
        return;
    }
    const char *bk = bucket_at(T, b), *pt = aff_at(nf, T->bases, i);
    for (size_t off = 0; off < AFF_SIZE(nf); off += 64) {
        __builtin_prefetch(bk + off, 1);
        __builtin_prefetch(pt + off, 0);
    }
    __builtin_prefetch(bk + AFF_SIZE(nf) - 1, 1);
    __builtin_prefetch(pt + AFF_SIZE(nf) - 1, 0);
    T->batch[T->nbatch++] = (entry_t){b, neg, i};
    T->flags[b] = B_FULL | B_INBATCH;
}

/* Runs the batch, then replays the queue: an entry whose bucket is free
 * again joins the next batch; one whose bucket is back in it stays queued,
 * or goes to its spill slot when the queue was over half full. */
FI void tile_flush(tile_t *T)
{
    batch_run(T);
    size_t nq = T->nqueue, keep = 0;
    for (size_t q = 0; q < nq; q++) {
        entry_t e = T->queue[q];
        if (T->flags[e.bucket] & B_INBATCH) {
            /* A queue over half full means skewed digits: spill (XYZZ, ~10M)
             * rather than replay it one inversion per batch. Otherwise keep
             * it: the next batch takes it at ~6M. */
            if (nq <= T->Q / 2 || !spill_put(T, e.bucket, e.idx, e.neg))
                T->queue[keep++] = e;
        } else if (T->nbatch < T->K) {
            bucket_put(T, e.bucket, e.idx, e.neg);
        } else {
            T->queue[keep++] = e;
        }
    }
    T->nqueue = keep;
}

/* Routes one signed point: into its bucket (set or batch) when the bucket
 * is not in the batch; else into the queue (replayed after the batch), or,
 * when the queue is full, into the bucket's spill slot, or else after a
 * flush. Keeps nbatch < K and nqueue < Q on return. */
FI void tile_put(tile_t *T, uint32_t b, uint64_t i, uint32_t neg)
{
    GM_VERIFY(b < T->nb);
    /* At most two rounds: a flush leaves the queue below Q (its replay moves
     * at least one entry into the emptied batch). */
    for (;;) {
        if (!(T->flags[b] & B_INBATCH)) {
            bucket_put(T, b, i, neg);
            break;
        }
        if (T->nqueue < T->Q) {
            T->queue[T->nqueue++] = (entry_t){b, neg, i};
            break;
        }
        if (spill_put(T, b, i, neg))
            break;
        tile_flush(T);
    }
    while (T->nbatch == T->K || T->nqueue == T->Q)
        tile_flush(T);
}

/*
 * Bucket reductions: out = sum_b (b + 1) (bucket_b + spill of b), after the
 * tile's last flush (no batch, no queue).
 */

/* Sparse: running sums over the occupied buckets b_1 > b_2 > ... > b_k:
 * sum_b (b+1) B_b = sum_j S_j with S_j = sum_{b >= j} B_b, and S_j is
 * constant between occupied buckets, so after adding b_i into the running
 * sum S, the total gains (b_i - b_{i+1}) * S (b_{k+1} = -1). XYZZ, ~24M per
 * occupied bucket plus the gaps' small multiples: for windows with fewer
 * points than buckets. */
FI void reduce_sparse(tile_t *T, xyzz_u *out)
{
    const int nf = T->nf;
    xyzz_u run, tot, t;
    xyzz_inf(nf, &run);
    xyzz_inf(nf, &tot);
    size_t prev = SIZE_MAX;
    for (size_t b = T->nb; b-- > 0;) {
        size_t s = spill_slot((uint32_t)b);
        bool full = T->flags[b] & B_FULL, spilled = T->key[s] == b;
        if (!full && !spilled)
            continue;
        if (prev != SIZE_MAX) {
            xyzz_mul_small(nf, &t, &run, prev - b);
            xyzz_add(nf, &tot, &tot, &t);
        }
        if (full)
            xyzz_add_aff(nf, &run, &run, bucket_at(T, b));
        if (spilled)
            xyzz_add(nf, &run, &run, &T->spill[s]);
        prev = b;
    }
    if (prev != SIZE_MAX) {
        xyzz_mul_small(nf, &t, &run, prev + 1);
        xyzz_add(nf, &tot, &tot, &t);
    }
    *out = tot;
}

/* V->buckets[s] += V->bases[src]: sets the destination when it is empty,
 * else queues the addition in V's batch. */
FI void seg_add(tile_t *V, size_t s, size_t src)
{
    if (!(V->flags[s] & B_FULL)) {
        bucket_set(V->nf, bucket_at(V, s), aff_at(V->nf, V->bases, src), false);
        V->flags[s] = B_FULL;
    } else {
        V->batch[V->nbatch++] = (entry_t){(uint32_t)s, 0, src};
        V->flags[s] |= B_INBATCH;
    }
}

/* Adds the copies of the top window's buckets into copy 0, bucket b + k
 * reach into bucket b, half of the copies onto the other half each step, so
 * that every batch holds a bucket once and up to K entries (the buckets of
 * the copies stay set: the reduction reads buckets [0, reach) only). */
FI void fold_copies(tile_t *T, size_t copies)
{
    tile_t V = *T; /* V: bucket b += bucket src, src read through V.bases */
    V.bases = T->buckets;
    for (size_t h = copies / 2; h >= 1; h /= 2) {
        for (size_t b = 0; b < h * T->reach; b++) {
            if (!(T->flags[b + h * T->reach] & B_FULL))
                continue;
            seg_add(&V, b, b + h * T->reach);
            if (V.nbatch == V.K)
                batch_run(&V);
        }
        batch_run(&V);
    }
}

/*
 * Dense: the buckets cut into G segments of L = nb / G, all G running sums
 * advanced together, so that each step is one batch of G affine additions
 * sharing one inversion (~6M + 1/G of an inversion each, against 10M and 14M
 * for the XYZZ additions of the sparse form).
 * For segment s (buckets sL .. sL + L - 1), run_s = sum of its buckets and
 * tot_s = sum_i (i + 1) B_{sL+i} (the running-sum trick inside the
 * segment); then sum_b (b + 1) B_b = sum_s tot_s + L sum_s s run_s, the last
 * sum by one more running sum over s (XYZZ, G steps) and log2 L doublings.
 * Spilled points (few: skewed digits only) are added as (b + 1) * spill.
 * Invariants: run and tot live in seg (2G affine points and 2G flag bytes,
 * B_FULL where non-empty); a step's batch holds each segment at most once.
 */
FI void reduce_dense(tile_t *T, xyzz_u *out, char *seg, size_t G)
{
    const int nf = T->nf;
    size_t L = T->nb / G, asz = AFF_SIZE(nf);
    tile_t R = *T, S = *T; /* R: run_s += bucket; S: tot_s += run_s */
    R.buckets = seg;
    R.flags = (uint8_t *)(seg + 2 * G * asz);
    R.bases = T->buckets;
    S.buckets = seg + G * asz;
    S.flags = R.flags + G;
    S.bases = R.buckets;
    R.nbatch = S.nbatch = 0;
    memset(R.flags, 0, 2 * G);
    for (size_t i = L; i-- > 0;) {
        for (size_t s = 0; s < G; s++) {
            size_t b = s * L + i;
            if (T->flags[b] & B_FULL)
                seg_add(&R, s, b);
        }
        batch_run(&R);
        for (size_t s = 0; s < G; s++)
            if (R.flags[s] & B_FULL)
                seg_add(&S, s, s);
        batch_run(&S);
    }
    xyzz_u acc, wsum, tot, t;
    xyzz_inf(nf, &acc);
    xyzz_inf(nf, &wsum);
    xyzz_inf(nf, &tot);
    for (size_t s = G; s-- > 1;) {
        if (R.flags[s] & B_FULL)
            xyzz_add_aff(nf, &acc, &acc, bucket_at(&R, s));
        xyzz_add(nf, &wsum, &wsum, &acc);
    }
    for (size_t l = L; l > 1; l /= 2)
        xyzz_dbl(nf, &wsum, &wsum);
    for (size_t s = 0; s < G; s++)
        if (S.flags[s] & B_FULL)
            xyzz_add_aff(nf, &tot, &tot, bucket_at(&S, s));
    xyzz_add(nf, &tot, &tot, &wsum);
    for (size_t k = 0; k < SPILL; k++) {
        if (T->key[k] == UINT32_MAX)
            continue;
        xyzz_mul_small(nf, &t, &T->spill[k], (size_t)T->key[k] + 1);
        xyzz_add(nf, &tot, &tot, &t);
    }
    *out = tot;
}

/*
 * One tile: window w of the non-trivial scalars [lo, hi), into partial sum
 * out = sum_b (b + 1) (bucket_b + spill of b).
 * Why this shape: one window per tile keeps the 2^(c-1) buckets of one worker
 * in L2/L3 while the bases stream through once per window; the batch
 * prefetches bucket and base PF_AHEAD entries before it reaches them (a
 * prefetch when the entry joins the batch alone left 23 % of the time on
 * those loads: the lines were gone when the batch ran).
 * Invariants: bucket index |digit| - 1 < 2^(c-1) (GM_VERIFY); this worker
 * alone touches its buckets, batch, queue and spill slots; batch and queue
 * stay below their capacities (K, Q) between puts; a spill slot holds one
 * bucket's points.
 */
/* Rate and ratio to the addition floor: `grothmpi bench msm` (bench/README.md). */
FI void window_tile(const job_t *J, int nf, size_t task, unsigned worker)
{
    size_t w = task / J->nranges, r = task % J->nranges;
    size_t per = (J->m_nt + J->nranges - 1) / J->nranges;
    size_t lo = r * per, hi = lo + per < J->m_nt ? lo + per : J->m_nt;
    char *ws = J->scratch + J->L.ws + (size_t)worker * J->L.ws_bytes;
    tile_t T = {
        .nf = nf, .bases = J->bases,
        .buckets = ws + J->L.ws_buckets, .flags = (uint8_t *)(ws + J->L.ws_flags),
        .batch = (entry_t *)(ws + J->L.ws_ent), .queue = (entry_t *)(ws + J->L.ws_queue), .spill = (xyzz_u *)(ws + J->L.ws_spill),
        .key = (uint32_t *)(ws + J->L.ws_key),
        .den = (fe_u *)(ws + J->L.ws_den), .pre = (fe_u *)(ws + J->L.ws_pre),
        .nb = (size_t)1 << (J->c - 1), .K = batch_for(J->c), .Q = queue_for(J->c),
        .x8 = x8_on(nf),
    };
    T.b_acc = (void **)(ws + J->L.ws_x8);
    T.b_pt = (const void **)(T.b_acc + T.K); /* T.K: batch_for(c), as laid out */
    T.b_neg = (uint8_t *)(T.b_pt + T.K);
    if (T.x8)
        T.x8_scratch = ws + J->L.ws_x8s;
    /* The top window reaches fewer buckets: its points go round-robin to
     * copies of them (copies_for), and the batch is sized by the copies, or
     * it would wait for buckets that are always busy and the queue would
     * spill. */
    T.reach = window_reach(J->c, (unsigned)w);
    size_t copies = copies_for(T.nb, T.reach);
    if (T.reach < T.nb) {
        T.K = batch_cap(T.reach * copies);
        T.Q = T.K < QUEUE_MIN ? QUEUE_MIN : T.K;
    }
    memset(T.flags, 0, T.nb);
    memset(T.key, 0xff, SPILL * sizeof(uint32_t));
    const uint32_t *idx = idx_arr(J);
    size_t routed = 0;
    for (size_t j = lo; j < hi; j++) {
        int64_t d = booth_digit(k_at(J, j), (unsigned)w, J->c);
        if (d == 0)
            continue;
        size_t copy = routed++ & (copies - 1);
        uint64_t i = idx[j];
        tile_put(&T, (uint32_t)((d < 0 ? -d : d) - 1 + copy * T.reach), i, d < 0);
    }
    while (T.nbatch || T.nqueue)
        tile_flush(&T);

    xyzz_u tot;
    if (copies > 1) {
        /* At most nb / 2 window buckets: reduce_sparse's 24M each is below
         * reduce_dense's 15M for each of the nb. */
        fold_copies(&T, copies);
        T.nb = T.reach;
        reduce_sparse(&T, &tot);
    } else if (routed >= T.nb)
        reduce_dense(&T, &tot, (char *)ws + J->L.ws_seg, nseg_for(J->c));
    else
        reduce_sparse(&T, &tot);
    *wsum_at(J, task) = tot;
}

/* One pairwise level: buf[0 .. m) (m <= 2 EC_ADD_BATCH_MAX, none at
 * infinity) becomes its pairwise sums, the identities dropped, then the odd
 * one, packed at the front; returns the new count. One batch of additions
 * (add_batch_on: on lanes where the group has them), the sums written over
 * the pairs' first points. scratch: pairs_scratch_size(nf, m) bytes,
 * 64-byte aligned. The "ones" tiles and ec/msm_bits.c's 0/1 sums (through
 * G_add_pairs) halve their buffers with it. */
FI size_t add_pairs(int nf, char *buf, size_t m, char *scratch)
{
    size_t asz = AFF_SIZE(nf), np = m / 2, out = 0;
    GM_ASSERT(np <= BATCH_MAX);
    void **acc = (void **)scratch;
    const void **pt = (const void **)(acc + np);
    uint8_t *neg = (uint8_t *)(pt + np);
    fe_u *den = (fe_u *)(scratch + ALIGN64(2 * np * sizeof(void *) + np));
    char *x8s = (char *)den + ALIGN64(2 * np * sizeof(fe_u));
    for (size_t i = 0; i < np; i++) {
        acc[i] = buf + 2 * i * asz;
        pt[i] = buf + (2 * i + 1) * asz;
        neg[i] = 0;
    }
    add_batch_on(nf, x8_on(nf), np, acc, pt, neg, den, den + np, x8s);
    for (size_t i = 0; i < np; i++)
        if (!*aff_inf(nf, acc[i]))
            memmove(buf + out++ * asz, acc[i], asz);
    if (m & 1)
        memmove(buf + out++ * asz, buf + (m - 1) * asz, asz);
    return out;
}

/*
 * Sums the bases of the "ones" [t * ONES_CHUNK, ...) of the ones list.
 * Why: a circom witness of bits is mostly 0s and 1s (SHA-256: 40 % ones),
 * so these sums are most of its A, B and C MSMs. Batch-affine pairwise sums
 * (~6M and a share of one inversion per ONES_BUF / 2 pairs, on lanes where
 * the group has them) against ~10M for an XYZZ mixed addition per base.
 * Invariants: the worker's buffer holds m < ONES_BUF points, none at
 * infinity (an identity base is skipped, a cancelled pair dropped); a full
 * buffer is halved by one level; at the end, levels while more than
 * ONES_TAIL points are left (below that an inversion costs more than the
 * XYZZ additions it saves), then the XYZZ sum of the rest.
 */
FI void ones_tile(const job_t *J, int nf, size_t t, unsigned worker)
{
    size_t lo = t * ONES_CHUNK, hi = lo + ONES_CHUNK < J->m_ones ? lo + ONES_CHUNK : J->m_ones;
    const uint32_t *idx = idx_arr(J);
    char *ws = J->scratch + J->L.ws + (size_t)worker * J->L.ws_bytes, *buf = ws + J->L.ws_ones;
    char *pairs = ws + J->L.ws_ones_pairs;
    size_t asz = AFF_SIZE(nf), m = 0;
    for (size_t o = lo; o < hi; o++) {
        const void *b = aff_at(nf, J->bases, idx[J->n - 1 - o]);
        if (*aff_inf(nf, (void *)b))
            continue;
        memcpy(buf + m++ * asz, b, asz);
        if (m == ONES_BUF)
            m = add_pairs(nf, buf, m, pairs);
    }
    while (m > ONES_TAIL)
        m = add_pairs(nf, buf, m, pairs);
    xyzz_u acc;
    xyzz_inf(nf, &acc);
    for (size_t i = 0; i < m; i++)
        xyzz_add_aff(nf, &acc, &acc, buf + i * asz);
    *ones_at(J, t) = acc;
}

FI void main_task(void *arg, size_t task, unsigned worker, int nf)
{
    const job_t *J = arg;
    size_t nwt = (size_t)J->W * J->nranges;
    if (task < nwt)
        window_tile(J, nf, task, worker);
    else
        ones_tile(J, nf, task - nwt, worker);
}
static void main_task_g1(void *arg, size_t task, unsigned worker) { main_task(arg, task, worker, 1); }
static void main_task_g2(void *arg, size_t task, unsigned worker) { main_task(arg, task, worker, 2); }

FI void msm_run(int nf, void *out, const void *bases, const scalar_t *scalars, const uint64_t *density, size_t n,
                unsigned window, void *scratch, topo_pool_t *pool)
{
    GM_ASSERT(window <= MSM_WINDOW_MAX);
    GM_ASSERT(n < ((uint64_t)1 << 32));
    unsigned T = topo_pool_size(pool);
    job_t J = {.nf = nf, .bases = bases, .scalars = scalars, .density = density, .n = n, .scratch = scratch};
    xyzz_u acc;
    xyzz_inf(nf, &acc);
    if (n == 0) {
        xyzz_to_jac(nf, out, &acc);
        return;
    }
    /* Prep: counts, placement, conversion. */
    J.L = layout_for(nf, n, T, 1); /* offsets before the worker area do not depend on c */
    size_t nprep = (n + PREP_CHUNK - 1) / PREP_CHUNK;
    topo_pool_run(pool, nprep, prep_count, &J);
    size_t nt = 0, ones = 0, dens = 0;
    for (size_t t = 0; t < nprep; t++) {
        prep_cnt_t *pc = prep_at(&J, t);
        pc->nt_off = nt;
        pc->ones_off = ones;
        pc->base_off = dens;
        nt += pc->nt;
        ones += pc->ones;
        dens += pc->dens;
    }
    topo_pool_run(pool, nprep, prep_write, &J);
    J.m_nt = nt;
    J.m_ones = ones;

    /* Window and tiles. */
    unsigned c = window;
    if (!c) {
        unsigned cmax = window_auto(n, T);
        c = window_auto(nt, T);
        c = c < cmax ? c : cmax;
    }
    J.c = c;
    J.W = nwindows(c);
    J.nranges = nranges_for(c, T);
    J.L = layout_for(nf, n, T, c);
    J.nones_tasks = (ones + ONES_CHUNK - 1) / ONES_CHUNK;
    size_t nwt = nt ? (size_t)J.W * J.nranges : 0;
    if (!nt)
        J.W = 0, J.nranges = 0;
    topo_pool_run(pool, nwt + J.nones_tasks, nf == 1 ? main_task_g1 : main_task_g2, &J);

    /* Combine: Horner over the windows, then the ones. */
    for (size_t w = J.W; w-- > 0;) {
        for (unsigned i = 0; i < c && w + 1 < J.W; i++)
            xyzz_dbl(nf, &acc, &acc);
        for (size_t r = 0; r < J.nranges; r++)
            xyzz_add(nf, &acc, &acc, wsum_at(&J, w * J.nranges + r));
    }
    for (size_t t = 0; t < J.nones_tasks; t++)
        xyzz_add(nf, &acc, &acc, ones_at(&J, t));
    xyzz_to_jac(nf, out, &acc);
}

/* ---- batch-affine additions for other callers ------------------------------------------- */

/* ec/ec.h's G_add_pairs contract (add_pairs). */
static size_t add_pairs_scratch_size(int nf, size_t m) { return pairs_scratch_size(nf, m) + 64; }
FI size_t add_pairs_run(int nf, void *buf, size_t m, void *scratch)
{
    GM_ASSERT(m <= 2 * EC_ADD_BATCH_MAX);
    return add_pairs(nf, buf, m, (char *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63));
}

/* Bytes of scratch add_batch_run needs for n additions (den and pre, in the
 * union's stride). */
static size_t add_batch_scratch_size(size_t n) { return 2 * n * sizeof(fe_u); }

/* ec/ec.h's g1/g2_add_batch contract on the scalar path; scratch as above. */
FI void add_batch_run(int nf, size_t n, void *const *acc, const void *const *pt, const uint8_t *neg, void *scratch)
{
    GM_ASSERT(n <= EC_ADD_BATCH_MAX);
    fe_u *den = scratch;
    add_batch(nf, n, acc, pt, neg, den, den + n);
}
