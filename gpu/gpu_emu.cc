/*
 * gpu/gpu_emu.cc — the host backend of gpu_pipe.cuh: every kernel body and
 * every pipeline step of the CUDA backend, run sequentially on the calling
 * thread, with std::stable_sort for CUB's radix sort and a loop for its
 * scan. Always built (g++, no CUDA headers), so the unit tests check the
 * device algorithms against ec/ on machines without a GPU (gpu_emu_* in
 * gpu.h). Slow by design: for tests of small sizes, never for proving.
 */
#include <algorithm>
#include <new>
#include <string.h>
#include <vector>

#include "gpu/gpu_internal.h"
#include "gpu/gpu_pipe.cuh"

namespace {

struct host_backend {
    template <class F> void each(size_t n, const F &f)
    {
        for (size_t i = 0; i < n; i++)
            f(i);
    }
    void sort_pairs(uint32_t *kin, uint32_t *vin, uint32_t *kout, uint32_t *vout, size_t n, int end_bit, void *)
    {
        std::vector<std::pair<uint32_t, uint32_t>> v(n);
        uint32_t mask = end_bit >= 32 ? 0xffffffffu : ((1u << end_bit) - 1);
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
    void dit(gfr_t *a, unsigned log_n, const gfr_t *tw, bool inverse)
    {
        for (unsigned lh = 0; lh < log_n; lh++) {
            gpu_stage_fn sf = {a, tw, log_n, lh, inverse};
            each((size_t)1 << (log_n - 1), sf);
        }
    }
};

/* The device-side tables built from gpu.c's hi/lo tables; owns memory. */
struct host_tabs {
    std::vector<gfr_t> tw;
    gpu_tabs_dev d;
    explicit host_tabs(const gpu_ntt_tabs_t *t)
    {
        size_t half = (size_t)1 << (t->log_n - 1);
        tw.resize(half);
        gpu_twgen_fn g = {tw.data(), (const gfr_t *)t->tw_hi, (const gfr_t *)t->tw_lo, t->tw_lb};
        host_backend b;
        b.each(half, g);
        d.tw = tw.data();
        d.g = {(const gfr_t *)t->g.hi, (const gfr_t *)t->g.lo};
        d.gn = {(const gfr_t *)t->gn.hi, (const gfr_t *)t->gn.lo};
        d.gin = {(const gfr_t *)t->gin.hi, (const gfr_t *)t->gin.lo};
        d.n1 = {(const gfr_t *)t->n1.hi, (const gfr_t *)t->n1.lo};
    }
};

} // namespace

extern "C" int gpue_msm_g1_windows(g1_xyzz_t *wsum, const gpu_base96_t *bases, const fr_t *scalars, size_t n,
                                   unsigned c)
{
    static_assert(sizeof(gpu_g1_xyzz) == sizeof(g1_xyzz_t), "XYZZ layout");
    static_assert(sizeof(gpu_g1_aff) == sizeof(gpu_base96_t), "base layout");
    static_assert(sizeof(gfr_t) == sizeof(fr_t), "Fr layout");
    gpu_msm_ws L;
    gpu_msm_layout(&L, n, c, 0);
    char *ws = (char *)gm_alloc(L.total);
    if (!ws)
        return GM_ENOMEM;
    host_backend b;
    try {
        gpu_msm_windows(b, L, ws, (const gpu_g1_aff *)bases, (const gfr_t *)scalars, n);
    } catch (const std::bad_alloc &) {
        gm_free(ws);
        return GM_ENOMEM;
    }
    memcpy(wsum, ws + L.wsum, (size_t)L.nwin * sizeof(g1_xyzz_t));
    gm_free(ws);
    return 0;
}

extern "C" int gpue_ntt(fr_t *a, const gpu_ntt_tabs_t *t, int dir)
{
    size_t n = (size_t)1 << t->log_n;
    try {
        host_tabs T(t);
        std::vector<gfr_t> tmp(n);
        gfr_t *pa = (gfr_t *)a, *pt = tmp.data();
        host_backend b;
        gpu_ntt_dir(b, &pa, &pt, t->log_n, T.d, dir);
        if (pa != (gfr_t *)a)
            memcpy(a, pa, n * sizeof(fr_t));
    } catch (const std::bad_alloc &) {
        return GM_ENOMEM;
    }
    return 0;
}

extern "C" int gpue_h(fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z)
{
    size_t n = (size_t)1 << t->log_n;
    try {
        host_tabs T(t);
        std::vector<gfr_t> vb((const gfr_t *)b, (const gfr_t *)b + n), vc((const gfr_t *)c, (const gfr_t *)c + n),
            tmp(n), va((const gfr_t *)a, (const gfr_t *)a + n);
        gfr_t *v[4] = {va.data(), vb.data(), vc.data(), tmp.data()};
        host_backend hb;
        gpu_h_run(hb, v, t->log_n, T.d, (const gfr_t *)z);
        memcpy(a, v[0], n * sizeof(fr_t));
    } catch (const std::bad_alloc &) {
        return GM_ENOMEM;
    }
    return 0;
}
