/*
 * gpu/gpu_emu.cc — the host backend of gpu_pipe.cuh: every kernel body and
 * every pipeline step of the CUDA backend, run on the host: a launch of n
 * independent threads (each) is split over host threads, CUB's radix sort is
 * a stable counting sort on the key bits, its scan a loop. Always built
 * (g++, no CUDA headers), so the unit tests check the device algorithms
 * against ec/ on machines without a GPU (gpu_emu_* in gpu.h), and the
 * prover's `emulate` backend (groth16/backend.c) proves through it.
 *
 * Threads: GROTHMPI_EMU_THREADS (default: the CPUs this process may run on),
 * std::threads started and joined per launch, unpinned: the one place outside
 * topo/ that starts threads (topo/topo.h), since they play the device's
 * threads, not a CPU pool's.
 * Splitting a launch over threads is legal because gpu_pipe.cuh's contract
 * makes every f(i) of one launch independent, exactly as on the device; a
 * launch smaller than 4096 calls (4 NTT tiles) stays on the calling thread,
 * where starting threads would cost more than the work.
 */
#include <algorithm>
#include <new>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>

#include "gpu/gpu_internal.h"
#define GPU_EMU_HOST
#include "gpu/gpu_pipe.cuh"

bool gpu_emu_host_field;

/* Through locals: the device types are 4-byte aligned, ff/'s 8. */
template <class T, class D> static void host_mul(D &o, const D &a, const D &b, void (*mul)(T *, const T *, const T *))
{
    static_assert(sizeof(T) == sizeof(D), "limb layout");
    T x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    mul(&x, &x, &y);
    memcpy(&o, &x, sizeof x);
}

void gpu_emu_mul(gpu_mont<gpu_fp_cfg> &o, const gpu_mont<gpu_fp_cfg> &a, const gpu_mont<gpu_fp_cfg> &b)
{
    host_mul(o, a, b, fp_mul);
}
void gpu_emu_mul(gpu_mont<gpu_fr_cfg> &o, const gpu_mont<gpu_fr_cfg> &a, const gpu_mont<gpu_fr_cfg> &b)
{
    host_mul(o, a, b, fr_mul);
}
void gpu_emu_mul(gpu_mont<gpu_bnfp_cfg> &o, const gpu_mont<gpu_bnfp_cfg> &a, const gpu_mont<gpu_bnfp_cfg> &b)
{
    host_mul(o, a, b, bn_fp_mul);
}
void gpu_emu_mul(gpu_mont<gpu_bnfr_cfg> &o, const gpu_mont<gpu_bnfr_cfg> &a, const gpu_mont<gpu_bnfr_cfg> &b)
{
    host_mul(o, a, b, bn_fr_mul);
}

extern "C" void gpue_set_host_field(bool on) { gpu_emu_host_field = on; }

namespace {

/* Through locals, as above; the carry chains, never ff/'s multiplication. */
template <class C> void field_op(void *o, const void *a, const void *b, char op)
{
    gpu_mont<C> x, y, r;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    if (op == '*')
        gf_mul_cc(r, x, y);
    else if (op == '+')
        gf_add(r, x, y);
    else
        gf_sub(r, x, y);
    memcpy(o, &r, sizeof r);
}

} // namespace

extern "C" void gpue_fp_op(gpu_curve_t k, void *o, const void *a, const void *b, char op)
{
    if (k == GPU_CURVE_BN254)
        field_op<gpu_bnfp_cfg>(o, a, b, op);
    else
        field_op<gpu_fp_cfg>(o, a, b, op);
}

extern "C" void gpue_fr_op(gpu_curve_t k, void *o, const void *a, const void *b, char op)
{
    if (k == GPU_CURVE_BN254)
        field_op<gpu_bnfr_cfg>(o, a, b, op);
    else
        field_op<gpu_fr_cfg>(o, a, b, op);
}

namespace {

unsigned emu_threads()
{
    const char *e = getenv("GROTHMPI_EMU_THREADS");
    if (e && *e) {
        long v = strtol(e, NULL, 10);
        if (v >= 1 && v <= 1024)
            return (unsigned)v;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    unsigned h = std::thread::hardware_concurrency();
    return h ? h : 1;
}

struct host_backend {
    unsigned nthreads = emu_threads();
    /* grain: the fewest calls worth a thread (a launch's threads by
     * default; 1 for the NTT's tiles, each a block's worth of work). */
    template <class F> void each(size_t n, const F &f, size_t grain = 1024)
    {
        unsigned t = nthreads;
        if (t <= 1 || n < 4 * grain) {
            for (size_t i = 0; i < n; i++)
                f(i);
            return;
        }
        if ((size_t)t > n / grain)
            t = (unsigned)(n / grain);
        /* Contiguous slices: neighbouring i touch neighbouring memory. */
        std::vector<std::thread> th;
        th.reserve(t - 1);
        size_t per = (n + t - 1) / t;
        for (unsigned k = 1; k < t; k++) {
            size_t lo = (size_t)k * per, hi = lo + per < n ? lo + per : n;
            if (lo >= hi)
                break;
            th.emplace_back([&f, lo, hi] {
                for (size_t i = lo; i < hi; i++)
                    f(i);
            });
        }
        for (size_t i = 0; i < per && i < n; i++)
            f(i);
        for (auto &x : th)
            x.join();
    }
    void sort_pairs(uint32_t *kin, uint32_t *vin, uint32_t *kout, uint32_t *vout, size_t n, int end_bit, void *)
    {
        uint32_t mask = end_bit >= 32 ? 0xffffffffu : ((1u << end_bit) - 1);
        if (end_bit <= 24) {
            /* Counting sort: stable, one pass to count and one to place. */
            std::vector<uint32_t> start((size_t)mask + 2, 0);
            for (size_t i = 0; i < n; i++)
                start[(kin[i] & mask) + 1]++;
            for (size_t k = 1; k < start.size(); k++)
                start[k] += start[k - 1];
            for (size_t i = 0; i < n; i++) {
                uint32_t k = kin[i] & mask;
                uint32_t o = start[k]++;
                kout[o] = k;
                vout[o] = vin[i];
            }
            return;
        }
        std::vector<std::pair<uint32_t, uint32_t>> v(n);
        for (size_t i = 0; i < n; i++)
            v[i] = std::make_pair(kin[i] & mask, vin[i]);
        std::stable_sort(v.begin(), v.end(),
                         [](const std::pair<uint32_t, uint32_t> &a, const std::pair<uint32_t, uint32_t> &b) {
                             return a.first < b.first;
                         });
        for (size_t i = 0; i < n; i++) {
            kout[i] = v[i].first;
            vout[i] = v[i].second;
        }
    }
    void scan(const uint32_t *in, uint32_t *out, size_t n)
    {
        uint32_t s = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t x = in[i];
            out[i] = s;
            s += x;
        }
    }
    void zero(void *p, size_t bytes) { memset(p, 0, bytes); }
    void to_host(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }
    /* A device block's tile of one pass, in a local array as in shared
     * memory, its threads' butterflies of each stage in turn. */
    template <class F> void dit(F *a, unsigned log_n, const F *tw, bool inverse)
    {
        gpu_ntt_pass plan[4];
        unsigned np = gpu_ntt_plan(log_n, plan);
        for (unsigned i = 0; i < np; i++) {
            const gpu_ntt_pass p = plan[i];
            auto tile = [a, tw, log_n, inverse, p](size_t t) {
                const uint32_t T = 1u << (p.k + p.lc);
                F sh[1u << GPU_NTT_TILE_LOG];
                for (uint32_t e = 0; e < T; e++)
                    sh[e] = a[gpu_ntt_tile_index(p, t, e)];
                for (unsigned l = 0; l < p.k; l++)
                    for (uint32_t u = 0; u < T / 2; u++) {
                        uint32_t e0, e1;
                        size_t tj;
                        gpu_ntt_bfly_at(p, log_n, t, u, l, &e0, &e1, &tj);
                        gpu_ntt_bfly(sh[e0], sh[e1], tw, tj, log_n, inverse);
                    }
                for (uint32_t e = 0; e < T; e++)
                    a[gpu_ntt_tile_index(p, t, e)] = sh[e];
            };
            each((size_t)1 << (log_n - p.k - p.lc), tile, 1);
        }
    }
};

/* The device-side tables built from gpu.c's hi/lo tables; owns memory. */
template <class F> struct host_tabs {
    std::vector<F> tw;
    gpu_tabs_dev<F> d;
    explicit host_tabs(const gpu_ntt_tabs_t *t)
    {
        size_t half = (size_t)1 << (t->log_n - 1);
        tw.resize(half);
        gpu_twgen_fn<F> g = {tw.data(), (const F *)t->tw_hi, (const F *)t->tw_lo, t->tw_lb};
        host_backend b;
        b.each(half, g);
        d.tw = tw.data();
        d.g = {(const F *)t->g.hi, (const F *)t->g.lo};
        d.gn = {(const F *)t->gn.hi, (const F *)t->gn.lo};
        d.gin = {(const F *)t->gin.hi, (const F *)t->gin.lo};
        d.n1 = {(const F *)t->n1.hi, (const F *)t->n1.lo};
    }
};

static_assert(sizeof(gpu_bls12_381::xyzz) == sizeof(g1_xyzz_t), "XYZZ layout");
static_assert(sizeof(gpu_bn254::xyzz) == sizeof(bn_g1_xyzz_t), "XYZZ layout");
static_assert(sizeof(gpu_bls12_381::aff) == 2 * sizeof(fp_t), "base layout");
static_assert(sizeof(gpu_bn254::aff) == 2 * sizeof(bn_fp_t), "base layout");
static_assert(sizeof(gpu_bls12_381::fr) == sizeof(fr_t) && sizeof(gpu_bn254::fr) == sizeof(bn_fr_t), "Fr layout");

template <class K> int msm_windows(void *wsum, const void *bases, const void *scalars, size_t n, unsigned c,
                                   size_t max_items)
{
    gpu_msm_ws L;
    gpu_msm_layout<K>(&L, n, c, 0, max_items);
    char *ws = (char *)gm_alloc(L.total);
    if (!ws)
        return GM_ENOMEM;
    host_backend b;
    try {
        gpu_msm_windows<K>(b, L, ws, (const typename K::aff *)bases, (const typename K::fr *)scalars, n);
    } catch (const std::bad_alloc &) {
        gm_free(ws);
        return GM_ENOMEM;
    }
    memcpy(wsum, ws + L.wsum, (size_t)L.nwin * sizeof(typename K::xyzz));
    gm_free(ws);
    return 0;
}

template <class F> int ntt(void *a, const gpu_ntt_tabs_t *t, int dir)
{
    size_t n = (size_t)1 << t->log_n;
    try {
        host_tabs<F> T(t);
        std::vector<F> tmp(n);
        F *pa = (F *)a, *pt = tmp.data();
        host_backend b;
        gpu_ntt_dir(b, &pa, &pt, t->log_n, T.d, dir);
        if (pa != (F *)a)
            memcpy(a, pa, n * sizeof(F));
    } catch (const std::bad_alloc &) {
        return GM_ENOMEM;
    }
    return 0;
}

} // namespace

extern "C" int gpue_msm_g1_windows(gpu_curve_t k, void *wsum, const void *bases, const void *scalars, size_t n,
                                   unsigned c, size_t max_items)
{
    if (k == GPU_CURVE_BN254)
        return msm_windows<gpu_bn254>(wsum, bases, scalars, n, c, max_items);
    return msm_windows<gpu_bls12_381>(wsum, bases, scalars, n, c, max_items);
}

extern "C" size_t gpue_msm_ws_bytes(gpu_curve_t k, size_t n, unsigned c, size_t max_items, size_t *items,
                                    unsigned *gw)
{
    gpu_msm_ws L;
    if (k == GPU_CURVE_BN254)
        gpu_msm_layout<gpu_bn254>(&L, n, c, 0, max_items);
    else
        gpu_msm_layout<gpu_bls12_381>(&L, n, c, 0, max_items);
    if (items)
        *items = L.items;
    if (gw)
        *gw = L.gw;
    return L.total;
}

extern "C" size_t gpue_msm_group_items_default(void) { return GPU_MSM_GROUP_ITEMS; }

extern "C" int gpue_ntt(gpu_curve_t k, void *a, const gpu_ntt_tabs_t *t, int dir)
{
    return k == GPU_CURVE_BN254 ? ntt<gpu_bn254::fr>(a, t, dir) : ntt<gpu_bls12_381::fr>(a, t, dir);
}

extern "C" int gpue_h(fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z)
{
    size_t n = (size_t)1 << t->log_n;
    try {
        typedef gpu_bls12_381::fr F;
        host_tabs<F> T(t);
        std::vector<F> vb((const F *)b, (const F *)b + n), vc((const F *)c, (const F *)c + n), tmp(n),
            va((const F *)a, (const F *)a + n);
        F *v[4] = {va.data(), vb.data(), vc.data(), tmp.data()};
        host_backend hb;
        gpu_h_run(hb, v, t->log_n, T.d, (const F *)z);
        memcpy(a, v[0], n * sizeof(fr_t));
    } catch (const std::bad_alloc &) {
        return GM_ENOMEM;
    }
    return 0;
}
