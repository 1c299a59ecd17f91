/*
 * gpu/gpu_pipe.cuh — the MSM and NTT algorithms of the CUDA backend, written
 * once over a "backend" B that runs them: gpu_cuda.cu instantiates them with
 * a CUDA backend (kernels, CUB radix sort and scan, one stream), gpu_emu.cc
 * with a host backend (plain loops, std::stable_sort), so the unit tests run
 * every kernel body and every pipeline step of the device code on a machine
 * without a GPU and compare with ec/.
 *
 * A backend provides:
 *   template <class F> void each(size_t n, const F &f);   f(i) for i < n, any order,
 *       all calls independent (no kernel here reads what another thread of the
 *       same launch writes);
 *   void sort_pairs(...);  stable radix sort of (u32 key, u32 value) pairs on
 *       bits [0, end_bit) of the key into (kout, vout); kin and vin may be
 *       overwritten (the CUDA backend sorts with them as CUB's DoubleBuffer);
 *   void scan(const uint32_t *in, uint32_t *out, size_t n);  exclusive sum;
 *   void zero(void *p, size_t bytes);
 *   void to_host(void *dst, const void *src, size_t bytes);  a copy to host
 *       memory once everything queued before it is done (the host waits);
 *   template <class F> void dit(F *a, unsigned log_n, const F *tw, bool inverse);
 *       every radix-2 DIT stage on bit-reversed data, in gpu_ntt_plan's
 *       passes of tiles (gpu_ntt_tile_index, gpu_ntt_bfly_at, gpu_ntt_bfly).
 *
 * DESIGN of the G1 MSM (sum s_i P_i, n points, window c, nwin windows):
 *  1. digits:  per scalar, from Montgomery form to the integer, then signed
 *     c-bit digits d_w in [-2^(c-1), 2^(c-1)] (the carry rule below); for each
 *     window w of the current group with d_w != 0 one item (key = (w - w0) << c
 *     | |d_w|, value = i | sign << 31), compacted (a counting pass and a scan
 *     give each scalar its offset), so zero digits cost neither sort nor add.
 *  2. sort:    the group's (at most n * gw) items by key (CUB radix sort on the GPU),
 *     so each bucket's points are contiguous, grouped by window.
 *  3. reduce:  a segmented sum over the sorted items that is balanced whatever
 *     the bucket sizes (Groth16 witnesses put most scalars in a few buckets:
 *     0, 1, small values): chunks of S consecutive items, one thread each,
 *     emit one partial sum per run of equal keys inside the chunk; the
 *     partials, still sorted by key, are reduced the same way until no key
 *     can have more than S of them, and a last pass sums each key's
 *     partials into the dense bucket array. Counts live in device memory, so
 *     the host never waits inside an MSM.
 *  4. windows: sum_b b * B_b per window, in segments of L buckets (running
 *     sums from the top; the segment's offset (lo - 1) * run is a small
 *     scalar multiple), the segments' results reduced per window by step 3.
 *  5. host:    the nwin window sums come back (XYZZ: 192 bytes each, BN254's
 *     128) and the host combines them with c doublings per window (gpu.c,
 *     with ec/).
 * G2 stays on the CPU (ec/ msm_g2), as SupraSeal does; a G2 kernel needs an
 * Fp2 instantiation of these formulas and a GPU to measure both.
 */
#ifndef GM_GPU_PIPE_CUH
#define GM_GPU_PIPE_CUH

#include "gpu/gpu_field.cuh"

/* Items summed by one thread of a reduction pass. */
#define GPU_RED_CHUNK 32u
/* Buckets per thread of the window pass. */
#define GPU_WIN_SEG 16u

/* The MSM's functors and steps take the curve K (gpu_field.cuh's gpu_curve:
 * K::fr, K::aff, K::xyzz); the NTT's take the Fr type F (K::fr). */

/* ---- step 1: digits ------------------------------------------------------------------- */

/* Scalar i's non-zero digits in windows [w0, w0 + gw), in two passes over
 * the same code: counting (keys == NULL: cnt[i] = how many) and emitting
 * (items at offs[i], offs the exclusive scan of the counts). A zero digit
 * adds nothing to its window, so it never enters the sort: for Groth16's
 * A, B and L scalars, most of them 0 or 1, that drops most of the items
 * (docs/gpu.md). */
template <class K> struct gpu_digits_fn {
    const typename K::fr *scalars; /* n, Montgomery */
    uint32_t *keys, *vals; /* emitting: the compacted items */
    uint32_t *cnt;         /* counting: n counts */
    const uint32_t *offs;  /* emitting: n offsets */
    size_t n;
    unsigned c, w0, gw;
    GPU_HD void operator()(size_t i) const
    {
        typename K::fr s;
        gf_from_mont(s, scalars[i]);
        /* Signed digits: d = raw + carry; d > 2^(c-1) becomes d - 2^c with a
         * carry into the next window. nwin = floor(255 / c) + 1 windows cover
         * s < 2^255 with no carry out of the last (c * nwin >= 256). */
        const uint32_t half = 1u << (c - 1), full = 1u << c, mask = full - 1;
        uint32_t carry = 0, k = 0;
        size_t at = keys ? offs[i] : 0;
        for (unsigned w = 0; w < w0 + gw; w++) {
            unsigned bit = w * c, limb = bit >> 5, sh = bit & 31;
            uint64_t two = (uint64_t)(limb < 8 ? s.l[limb] : 0) | (uint64_t)(limb + 1 < 8 ? s.l[limb + 1] : 0) << 32;
            uint32_t d = (uint32_t)(two >> sh) & mask;
            d += carry;
            uint32_t neg = 0;
            if (d > half) {
                d = full - d;
                neg = 1;
                carry = 1;
            } else {
                carry = 0;
            }
            if (w >= w0 && d != 0) {
                if (keys) {
                    keys[at] = ((uint32_t)(w - w0) << c) | d;
                    vals[at++] = (uint32_t)i | neg << 31;
                } else {
                    k++;
                }
            }
        }
        if (!keys)
            cnt[i] = k;
    }
};

/* *out = the number of items of a group: the last offset plus the last
 * count (one thread). */
struct gpu_total_fn {
    const uint32_t *cnt, *offs;
    uint32_t *out;
    size_t n;
    GPU_HD void operator()(size_t) const { *out = n ? offs[n - 1] + cnt[n - 1] : 0; }
};

/* ---- step 3: segmented reduction -------------------------------------------------------- */

/* Runs of equal keys inside chunk t of the *count items (0 past the end);
 * thread nchunks writes the 0 that makes the exclusive scan's last entry the
 * total. */
struct gpu_runs_fn {
    const uint32_t *keys;
    const uint32_t *count;
    uint32_t *runs;
    size_t nchunks;
    GPU_HD void operator()(size_t t) const
    {
        size_t n = *count, a = t * GPU_RED_CHUNK;
        if (t >= nchunks || a >= n) {
            runs[t] = 0;
            return;
        }
        size_t e = a + GPU_RED_CHUNK < n ? a + GPU_RED_CHUNK : n;
        uint32_t r = 1;
        for (size_t j = a + 1; j < e; j++)
            r += keys[j] != keys[j - 1];
        runs[t] = r;
    }
};

/* Sums each run of chunk t into out[offs[t] + run], keys alongside. Level 0
 * reads signed affine points (value = index | sign << 31; no zero digits:
 * gpu_digits_fn leaves them out); later levels read XYZZ partials. Thread 0
 * stores the new count. */
template <class K, bool LEVEL0> struct gpu_sum_fn {
    const uint32_t *keys;
    const uint32_t *vals;             /* level 0 */
    const typename K::aff *bases;     /* level 0 */
    const typename K::xyzz *parts;    /* later levels */
    const uint32_t *count;
    const uint32_t *offs;
    uint32_t *count_out;
    uint32_t *okeys;
    typename K::xyzz *oparts;
    size_t nchunks;
    GPU_HD void operator()(size_t t) const
    {
        if (t == 0)
            *count_out = offs[nchunks];
        size_t n = *count, a = t * GPU_RED_CHUNK;
        if (a >= n)
            return;
        size_t e = a + GPU_RED_CHUNK < n ? a + GPU_RED_CHUNK : n;
        uint32_t o = offs[t], cur = keys[a];
        typename K::xyzz acc;
        g1x_set_inf(acc);
        for (size_t j = a; j < e; j++) {
            uint32_t k = keys[j];
            if (k != cur) {
                okeys[o] = cur;
                oparts[o++] = acc;
                g1x_set_inf(acc);
                cur = k;
            }
            if (LEVEL0) {
                uint32_t v = vals[j];
                typename K::aff p = bases[v & 0x7fffffffu];
                if (v >> 31)
                    gf_neg(p.y, p.y);
                g1x_add_aff(acc, acc, p);
            } else {
                g1x_add(acc, acc, parts[j]);
            }
        }
        okeys[o] = cur;
        oparts[o] = acc;
    }
};

/* The last pass: the first partial of each key sums the key's partials (at
 * most GPU_RED_CHUNK + 1 by the level count) into dense[key - key0]. */
template <class K> struct gpu_final_fn {
    const uint32_t *keys;
    const typename K::xyzz *parts;
    const uint32_t *count;
    typename K::xyzz *dense;
    uint32_t key0;
    GPU_HD void operator()(size_t j) const
    {
        size_t n = *count;
        if (j >= n || (j > 0 && keys[j] == keys[j - 1]))
            return;
        typename K::xyzz acc = parts[j];
        for (size_t i = j + 1; i < n && keys[i] == keys[j]; i++)
            g1x_add(acc, acc, parts[i]);
        dense[keys[j] - key0] = acc;
    }
};

/* ---- step 4: window sums ------------------------------------------------------------------ */

/* Thread (w, s): buckets lo..hi = 1 + s L .. min((s + 1) L, 2^(c-1)) of window
 * w: run = sum B_b, tot = sum (b - lo + 1) B_b from the top, then
 * tot + (lo - 1) run = sum b B_b of the segment. */
template <class K> struct gpu_winseg_fn {
    const typename K::xyzz *buckets; /* gw * 2^c, slot b of window w at w << c | b */
    uint32_t *okeys;
    typename K::xyzz *oparts;
    unsigned c, nseg;
    GPU_HD void operator()(size_t t) const
    {
        uint32_t w = (uint32_t)(t / nseg), s = (uint32_t)(t % nseg);
        uint32_t half = 1u << (c - 1), lo = 1 + s * GPU_WIN_SEG;
        uint32_t hi = lo + GPU_WIN_SEG - 1 < half ? lo + GPU_WIN_SEG - 1 : half;
        typename K::xyzz run, tot, x;
        g1x_set_inf(run);
        g1x_set_inf(tot);
        /* run += B_b, then tot += run, as alternate steps of one inlined
         * addition: half the code of two, and one formula's temporaries
         * live at a time (registers). */
        for (uint32_t k = 0; k < 2 * (hi - lo + 1); k++) {
            const bool to_run = (k & 1) == 0;
            typename K::xyzz acc = to_run ? run : tot;
            const typename K::xyzz y = to_run ? buckets[((size_t)w << c) | (hi - k / 2)] : run;
            g1x_add(acc, acc, y);
            if (to_run)
                run = acc;
            else
                tot = acc;
        }
        g1x_mul_small(x, run, lo - 1);
        g1x_add(tot, tot, x);
        okeys[t] = w;
        oparts[t] = tot;
    }
};

/* ---- the MSM pipeline --------------------------------------------------------------------- */

/* The window count for window c: floor(255 / c) + 1. */
GPU_HD unsigned gpu_msm_nwin(unsigned c) { return 255 / c + 1; }

/* The default cap on a group's items: 2^29 (2 GiB of keys and of values
 * per buffer). gpu_plan lowers it when the workspace would not fit. */
#define GPU_MSM_GROUP_ITEMS ((size_t)1 << 29)

/* Windows per group so that a group's items stay under max_items (one
 * window at the least, whatever n). */
static inline unsigned gpu_msm_group(size_t n, unsigned c, size_t max_items)
{
    unsigned nwin = gpu_msm_nwin(c);
    size_t g = max_items / (n ? n : 1);
    return g < 1 ? 1 : (g > nwin ? nwin : (unsigned)g);
}

/* Worst-case partials after a reduction level over n items with at most k
 * distinct keys: one per chunk plus one per key boundary, and never more than
 * the items (each partial sums at least one). */
static inline size_t gpu_red_next(size_t n, size_t k)
{
    size_t r = (n + GPU_RED_CHUNK - 1) / GPU_RED_CHUNK + k;
    return r < n ? r : n;
}

/* *dst = v, and *dst = *src: counts stay in device memory (one thread). */
struct gpu_setcnt_fn {
    uint32_t *dst;
    const uint32_t *src;
    uint32_t v;
    GPU_HD void operator()(size_t) const { *dst = src ? *src : v; }
};

/* Workspace layout of one MSM of n points at window c, its groups capped at
 * max_items items: byte offsets from one base pointer (each aligned to
 * 256). sort_tmp is the backend's requirement, given by the caller. */
struct gpu_msm_ws {
    size_t keys0, vals0, keys1, vals1, runs, offs, counts, rkA, rkB, rpA, rpB, buckets, wsum, sort_tmp, total;
    size_t items, nchunks0, rcap, nkeys;
    unsigned c, gw, nwin;
};

static inline size_t gpu_al(size_t x) { return (x + 255) & ~(size_t)255; }

template <class K>
static inline void gpu_msm_layout(gpu_msm_ws *L, size_t n, unsigned c, size_t sort_tmp, size_t max_items)
{
    L->c = c;
    L->nwin = gpu_msm_nwin(c);
    L->gw = gpu_msm_group(n, c, max_items);
    L->items = n * L->gw;
    L->nkeys = (size_t)L->gw << c;
    L->nchunks0 = (L->items + GPU_RED_CHUNK - 1) / GPU_RED_CHUNK;
    size_t nseg = ((1u << (c - 1)) + GPU_WIN_SEG - 1) / GPU_WIN_SEG;
    size_t segs = L->gw * nseg;
    L->rcap = gpu_red_next(L->items, L->nkeys);
    if (L->rcap < segs)
        L->rcap = segs;
    size_t segch = (segs + GPU_RED_CHUNK - 1) / GPU_RED_CHUNK;
    size_t nch = L->nchunks0 > segch ? L->nchunks0 : segch;
    size_t o = 0;
#define GPU_TAKE(f, bytes) (L->f = o, o += gpu_al(bytes))
    GPU_TAKE(keys0, L->items * 4);
    GPU_TAKE(vals0, L->items * 4);
    GPU_TAKE(keys1, L->items * 4);
    GPU_TAKE(vals1, L->items * 4);
    GPU_TAKE(runs, (nch + 1) * 4);
    GPU_TAKE(offs, (nch + 1) * 4);
    GPU_TAKE(counts, 4 * 4);
    GPU_TAKE(rkA, L->rcap * 4);
    GPU_TAKE(rkB, L->rcap * 4);
    GPU_TAKE(rpA, L->rcap * sizeof(typename K::xyzz));
    GPU_TAKE(rpB, L->rcap * sizeof(typename K::xyzz));
    GPU_TAKE(buckets, L->nkeys * sizeof(typename K::xyzz));
    GPU_TAKE(wsum, (size_t)L->nwin * sizeof(typename K::xyzz));
    GPU_TAKE(sort_tmp, sort_tmp);
#undef GPU_TAKE
    L->total = o;
}

/* Step 3 on items already in place: level 0 over (keys0 sorted, vals0 sorted)
 * when level0, else over (rkA, rpA); *counts[0] holds the item count on
 * entry. Writes dense[key - key0] for every key present. n_bound: the most
 * items there can be; kmax: the most distinct keys. */
template <class K, class B>
static void gpu_reduce(B &b, const gpu_msm_ws &L, char *ws, bool level0, const typename K::aff *bases, size_t n_bound,
                       size_t kmax, typename K::xyzz *dense, uint32_t key0)
{
    uint32_t *cnt = (uint32_t *)(ws + L.counts);
    uint32_t *runs = (uint32_t *)(ws + L.runs), *offs = (uint32_t *)(ws + L.offs);
    uint32_t *rk[2] = {(uint32_t *)(ws + L.rkA), (uint32_t *)(ws + L.rkB)};
    typename K::xyzz *rp[2] = {(typename K::xyzz *)(ws + L.rpA), (typename K::xyzz *)(ws + L.rpB)};
    int cur = 0;              /* which record buffer holds the input (later levels) */
    size_t cmax = n_bound;    /* most items one key can have */
    bool first = true;
    while (first || cmax > GPU_RED_CHUNK) {
        size_t nch = (n_bound + GPU_RED_CHUNK - 1) / GPU_RED_CHUNK;
        const uint32_t *keys = (first && level0) ? (const uint32_t *)(ws + L.keys0) : rk[cur];
        gpu_runs_fn rf = {keys, cnt, runs, nch};
        b.each(nch + 1, rf);
        b.scan(runs, offs, nch + 1);
        int nxt = (first && level0) ? 0 : 1 - cur;
        if (first && level0) {
            gpu_sum_fn<K, true> sf = {keys, (const uint32_t *)(ws + L.vals0), bases, NULL, cnt, offs, cnt + 1,
                                   rk[nxt], rp[nxt], nch};
            b.each(nch, sf);
        } else {
            gpu_sum_fn<K, false> sf = {keys, NULL, NULL, rp[cur], cnt, offs, cnt + 1, rk[nxt], rp[nxt], nch};
            b.each(nch, sf);
        }
        gpu_setcnt_fn cf = {cnt, cnt + 1, 0};
        b.each(1, cf);
        cur = nxt;
        n_bound = gpu_red_next(n_bound, kmax);
        cmax = (cmax + GPU_RED_CHUNK - 1) / GPU_RED_CHUNK + 1;
        first = false;
    }
    gpu_final_fn<K> ff = {rk[cur], rp[cur], cnt, dense, key0};
    b.each(n_bound, ff);
}

/* Counts scalar i's non-zero digits of the group at w0 into keys0[i], their
 * exclusive scan into vals0[i] (n <= items, so both fit), and the group's
 * item count into *total (device memory). */
template <class K, class B>
static void gpu_msm_count(B &b, const gpu_msm_ws &L, char *ws, const typename K::fr *scalars, size_t n, unsigned w0,
                          unsigned gw, uint32_t *total)
{
    uint32_t *cnt = (uint32_t *)(ws + L.keys0), *offs = (uint32_t *)(ws + L.vals0);
    gpu_digits_fn<K> df = {scalars, NULL, NULL, cnt, NULL, n, L.c, w0, gw};
    b.each(n, df);
    b.scan(cnt, offs, n);
    gpu_total_fn tf = {cnt, offs, total, n};
    b.each(1, tf);
}

/* The window sums of one MSM: wsum_out[w] for w < nwin (XYZZ, device memory of
 * the backend). scalars and bases in backend memory; ws laid out by
 * gpu_msm_layout(n, c).
 * The sort needs its item count on the host, and compaction makes it depend
 * on the scalars: the groups are counted first (their totals parked in the
 * window sums' buffer, not yet in use) and read back in one copy, the one
 * wait of the host inside an MSM, after which everything is queued at once.
 * The groups then run last to first, so the last one counted keeps its
 * offsets and is not counted again. */
template <class K, class B>
static void gpu_msm_windows(B &b, const gpu_msm_ws &L, char *ws, const typename K::aff *bases,
                            const typename K::fr *scalars, size_t n)
{
    const unsigned c = L.c;
    const uint32_t nseg = ((1u << (c - 1)) + GPU_WIN_SEG - 1) / GPU_WIN_SEG;
    const unsigned ngroups = (L.nwin + L.gw - 1) / L.gw;
    uint32_t *cnt = (uint32_t *)(ws + L.counts);
    typename K::xyzz *buckets = (typename K::xyzz *)(ws + L.buckets), *wsum = (typename K::xyzz *)(ws + L.wsum);
    uint32_t *dtotal = (uint32_t *)wsum, total[256]; /* ngroups <= nwin <= 256 (c >= 1) */
    for (unsigned g = 0; g < ngroups; g++) {
        unsigned w0 = g * L.gw, gw = L.nwin - w0 < L.gw ? L.nwin - w0 : L.gw;
        gpu_msm_count<K>(b, L, ws, scalars, n, w0, gw, dtotal + g);
    }
    b.to_host(total, dtotal, ngroups * sizeof(uint32_t));
    b.zero(wsum, (size_t)L.nwin * sizeof(typename K::xyzz));
    for (unsigned g = ngroups; g-- > 0;) {
        unsigned w0 = g * L.gw, gw = L.nwin - w0 < L.gw ? L.nwin - w0 : L.gw;
        size_t items = total[g];
        unsigned kbits = c;
        while ((1u << (kbits - c)) < gw)
            kbits++;
        b.zero(buckets, ((size_t)gw << c) * sizeof(typename K::xyzz));
        if (items) {
            if (g + 1 < ngroups)
                gpu_msm_count<K>(b, L, ws, scalars, n, w0, gw, cnt);
            gpu_digits_fn<K> df = {scalars, (uint32_t *)(ws + L.keys1), (uint32_t *)(ws + L.vals1), NULL,
                                (const uint32_t *)(ws + L.vals0), n, c, w0, gw};
            b.each(n, df);
            b.sort_pairs((uint32_t *)(ws + L.keys1), (uint32_t *)(ws + L.vals1), (uint32_t *)(ws + L.keys0),
                         (uint32_t *)(ws + L.vals0), items, (int)kbits, ws + L.sort_tmp);
            gpu_setcnt_fn c0 = {cnt, NULL, (uint32_t)items};
            b.each(1, c0);
            gpu_reduce<K>(b, L, ws, true, bases, items, (size_t)gw << c, buckets, 0);
        }
        /* Window pass: segment partials go to record buffer A, keyed by window. */
        gpu_winseg_fn<K> wf = {buckets, (uint32_t *)(ws + L.rkA), (typename K::xyzz *)(ws + L.rpA), c, nseg};
        b.each((size_t)gw * nseg, wf);
        gpu_setcnt_fn c1 = {cnt, NULL, gw * nseg};
        b.each(1, c1);
        gpu_reduce<K>(b, L, ws, false, NULL, (size_t)gw * nseg, gw, wsum + w0, 0);
    }
}

/* ---- NTT ------------------------------------------------------------------------------------ */

/* The low `bits` bits of x reversed (bits <= 32; x < 2^bits). The device's
 * BREV instruction; the host twin reverses the 32-bit word with the same
 * five swaps of halves, pairs and single bits that a loop-free bit reversal
 * does, then drops the low 32 - bits zeros. */
GPU_HD uint32_t gpu_bitrev(uint32_t x, unsigned bits)
{
    if (bits == 0)
        return 0;
#ifdef __CUDA_ARCH__
    return __brev(x) >> (32 - bits);
#else
    x = (x >> 16) | (x << 16);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    return x >> (32 - bits);
#endif
}

/* dst[bitrev(i)] = src[i] * f(i) (bitrev false: dst[i]), f(i) = hi[i >> 12] *
 * lo[i & 4095] when hi != NULL (a power of the coset shift, with 1/n folded
 * into lo). dst != src when bitrev. */
template <class F> struct gpu_scale_fn {
    F *dst;
    const F *src, *hi, *lo;
    unsigned log_n;
    bool bitrev;
    GPU_HD void operator()(size_t i) const
    {
        F v = src[i];
        if (hi) {
            F f;
            gf_mul(f, hi[i >> 12], lo[i & 4095]);
            gf_mul(v, v, f);
        }
        dst[bitrev ? gpu_bitrev((uint32_t)i, log_n) : i] = v;
    }
};

/* w^j for the domain's root w (inverse: w^-j = -w^(n/2 - j) for 0 < j < n/2),
 * from the table tw[j] = w^j, j < n/2. */
template <class F> GPU_HD void gpu_twiddle(F &o, const F *tw, size_t j, size_t half, bool inverse)
{
    if (!inverse || j == 0) {
        o = tw[j];
    } else {
        gf_neg(o, tw[half - j]);
    }
}

/* ---- NTT passes --------------------------------------------------------------------------- */

/* The radix-2 DIT stages of a 2^log_n transform on bit-reversed data, in at
 * most three passes over global memory for log_n <= 28 (sppark's count)
 * instead of one per stage: a pass runs k consecutive stages s0 .. s0 + k - 1
 * on tiles of 2^(k + lc) values in shared memory (one block per tile on the
 * device, one call per tile on the host).
 * (1) Why: stage s pairs values whose indices differ in bit s only, so the
 *     values whose indices agree outside bits s0 .. s0 + k - 1 are closed
 *     under k consecutive stages: a tile holds 2^k of them (the "rows" x)
 *     for 2^lc consecutive low indices (the "columns"), so that its loads
 *     and stores are runs of 2^lc contiguous 32-byte values. The first pass
 *     (s0 = 0) takes 10 stages on contiguous tiles; the rest split evenly
 *     into passes of at most 9 stages, lc = 10 - k >= 1.
 * (2) Invariants: k + lc <= GPU_NTT_TILE_LOG (32 KiB of shared memory),
 *     lc <= s0; a tile's butterfly u < 2^(k + lc - 1) at local stage l is
 *     gpu_ntt_bfly_at's, whose twiddle index is the stage's global j with
 *     the tile's offset put back, so the result is that of the stage-by-stage
 *     transform exactly (same products, same order per value).
 * (3) Bytes and predicted time per pass: docs/gpu.md ("Kernels: predicted
 *     times"). */
#define GPU_NTT_TILE_LOG 10u

struct gpu_ntt_pass {
    unsigned s0, k, lc;
};

/* The passes of a 2^log_n transform (log_n <= 28): their count, at most 3. */
static inline unsigned gpu_ntt_plan(unsigned log_n, gpu_ntt_pass *p)
{
    unsigned first = log_n < GPU_NTT_TILE_LOG ? log_n : GPU_NTT_TILE_LOG, np = 0;
    p[np++] = gpu_ntt_pass{0, first, 0};
    unsigned rest = log_n - first, s0 = first;
    unsigned q = (rest + GPU_NTT_TILE_LOG - 2) / (GPU_NTT_TILE_LOG - 1);
    for (unsigned i = 0; i < q; i++) {
        unsigned k = rest / q + (i < rest % q);
        p[np++] = gpu_ntt_pass{s0, k, GPU_NTT_TILE_LOG - k};
        s0 += k;
    }
    return np;
}

/* The global index of element e of tile t (e = x << lc | column). */
GPU_HD size_t gpu_ntt_tile_index(const gpu_ntt_pass &p, size_t t, uint32_t e)
{
    const unsigned lg_bits = p.s0 - p.lc;
    size_t lg = t & (((size_t)1 << lg_bits) - 1), hi = t >> lg_bits;
    size_t x = e >> p.lc, col = e & ((1u << p.lc) - 1);
    return (hi << (p.s0 + p.k)) | (x << p.s0) | (lg << p.lc) | col;
}

/* Butterfly u of tile t at local stage l (global stage s0 + l): the tile
 * elements *e0 and *e1 = *e0 + 2^(l + lc), and the twiddle's index into the
 * w^j table (j << (log_n - 1 - s0 - l), j the pair's offset in its half). */
GPU_HD void gpu_ntt_bfly_at(const gpu_ntt_pass &p, unsigned log_n, size_t t, uint32_t u, unsigned l, uint32_t *e0,
                            uint32_t *e1, size_t *tj)
{
    const uint32_t col = u & ((1u << p.lc) - 1), v = u >> p.lc, jl = v & ((1u << l) - 1);
    const uint32_t x0 = ((v >> l) << (l + 1)) | jl;
    *e0 = (x0 << p.lc) | col;
    *e1 = *e0 + (1u << (l + p.lc));
    /* The pair's low s0 index bits: the tile's column group and column. */
    const size_t lo = gpu_ntt_tile_index(p, t, col) & (((size_t)1 << p.s0) - 1);
    *tj = ((size_t)jl << p.s0 | lo) << (log_n - 1 - p.s0 - l);
}

/* (x0, x1) <- (x0 + w x1, x0 - w x1), w = w^tj (inverse: w^-tj). */
template <class F>
GPU_HD void gpu_ntt_bfly(F &x0, F &x1, const F *tw, size_t tj, unsigned log_n, bool inverse)
{
    F w, v;
    gpu_twiddle(w, tw, tj, (size_t)1 << (log_n - 1), inverse);
    gf_mul(v, x1, w);
    gf_sub(x1, x0, v);
    gf_add(x0, x0, v);
}

/* tw[j] = hi[j >> lb] * lo[j & (2^lb - 1)] for j < count. */
template <class F> struct gpu_twgen_fn {
    F *tw;
    const F *hi, *lo;
    unsigned lb;
    GPU_HD void operator()(size_t j) const { gf_mul(tw[j], hi[j >> lb], lo[j & (((size_t)1 << lb) - 1)]); }
};

/* a[i] = (a[i] b[i] - c[i]) z for the quotient by Z on the coset. */
template <class F> struct gpu_hpoint_fn {
    F *a;
    const F *b, *c;
    F z;
    GPU_HD void operator()(size_t i) const
    {
        F t;
        gf_mul(t, a[i], b[i]);
        gf_sub(t, t, c[i]);
        gf_mul(a[i], t, z);
    }
};

/* Scale tables of one transform (device or host memory of the backend). */
template <class F> struct gpu_ntt_tabs {
    const F *hi, *lo; /* NULL: no scaling */
};

/* A transform natural -> natural. pre scales before (forward with coset) and
 * post after (inverse: 1/n, coset inverse: g^-i / n). The data is in *a on
 * entry; the result is in *a on return (the pointers *a and *tmp may be
 * swapped). */
template <class B, class F>
static void gpu_ntt_run(B &b, F **a, F **tmp, unsigned log_n, const F *tw, bool inverse, gpu_ntt_tabs<F> pre,
                        gpu_ntt_tabs<F> post)
{
    size_t n = (size_t)1 << log_n;
    gpu_scale_fn<F> sf = {*tmp, *a, pre.hi, pre.lo, log_n, true};
    b.each(n, sf);
    F *t = *a;
    *a = *tmp;
    *tmp = t;
    b.dit(*a, log_n, tw, inverse);
    if (post.hi) {
        gpu_scale_fn<F> pf = {*a, *a, post.hi, post.lo, log_n, false};
        b.each(n, pf);
    }
}

/* The tables of a size-2^log_n domain (layout of gpu_internal.h's
 * gpu_ntt_tabs_t, here with the device's types). Scale tables: hi has
 * max(1, n >> 12) entries, lo 4096. */
template <class F> struct gpu_tabs_dev {
    const F *tw;                     /* n/2 twiddles w^j */
    gpu_ntt_tabs<F> g, gn, gin, n1;  /* g^i, g^i / n, g^-i / n, 1 / n */
};

/* dir: 0 forward, 1 inverse, 2 coset forward, 3 coset inverse (gpu.h order). */
template <class B, class F>
static void gpu_ntt_dir(B &b, F **a, F **tmp, unsigned log_n, const gpu_tabs_dev<F> &T, int dir)
{
    gpu_ntt_tabs<F> none = {NULL, NULL};
    switch (dir) {
    case 0: gpu_ntt_run(b, a, tmp, log_n, T.tw, false, none, none); break;
    case 1: gpu_ntt_run(b, a, tmp, log_n, T.tw, true, none, T.n1); break;
    case 2: gpu_ntt_run(b, a, tmp, log_n, T.tw, false, T.g, none); break;
    default: gpu_ntt_run(b, a, tmp, log_n, T.tw, true, none, T.gin); break;
    }
}

/* Groth16's h (bellperson): each of a, b, c through iNTT and coset NTT (the
 * 1/n of the iNTT folded into the coset's g^i), a = (a b - c) z pointwise,
 * then the coset iNTT. v[0..2] = a, b, c and v[3] scratch, n values each;
 * on return the result is in v[0] (the pointers may be permuted). */
template <class B, class F>
static void gpu_h_run(B &b, F *v[4], unsigned log_n, const gpu_tabs_dev<F> &T, const F *z)
{
    gpu_ntt_tabs<F> none = {NULL, NULL};
    for (int i = 0; i < 3; i++) {
        gpu_ntt_run(b, &v[i], &v[3], log_n, T.tw, true, none, none);
        gpu_ntt_run(b, &v[i], &v[3], log_n, T.tw, false, T.gn, none);
    }
    gpu_hpoint_fn<F> hp = {v[0], v[1], v[2], *z};
    b.each((size_t)1 << log_n, hp);
    gpu_ntt_run(b, &v[0], &v[3], log_n, T.tw, true, none, T.gin);
}

#endif /* GM_GPU_PIPE_CUH */
