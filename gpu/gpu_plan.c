/*
 * gpu/gpu_plan.c — the device memory plan (gpu.h): which G1 base sets stay
 * resident and which stream, how large a streamed chunk is, how the MSM
 * workspace is grouped, how many scalar buffers there are and how h runs,
 * decided once from the device's size so that every buffer a proof needs
 * is counted before the first is allocated. Pure arithmetic over the
 * layouts of gpu_pipe.cuh (through gpu_emu.cc, which compiles them for the
 * host); gpu.c applies a plan to a context, cli/cmd_gpu.c prints one.
 */
#include <stdio.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/gpu_internal.h"

#define PLAN_AL(x) (((x) + 255) & ~(size_t)255)
#define PLAN_FR_BYTES GPU_FR_BYTES
/* The smallest cap on a group's items the plan tries: below it the sort
 * and reduction launches of one group are too small to fill a GPU. */
#define PLAN_GROUP_MIN ((size_t)1 << 20)
/* Host staging of one upload of bases of curve k (gpu.c's GPU_STAGE_POINTS). */
#define PLAN_STAGE_BYTES(k) (((size_t)1 << 19) * gpu_base_bytes(k))

size_t gpu_plan_sort_bytes(size_t items) { return PLAN_AL(items / 4 + ((size_t)1 << 16)); }

size_t gpu_plan_table_bytes(unsigned log_n)
{
    if (!log_n)
        return 0;
    size_t n = (size_t)1 << log_n;
    unsigned lh = log_n - 1, lb = (lh + 1) / 2;
    size_t halves = ((size_t)1 << lb) + ((size_t)1 << (lh - lb));
    size_t per = GPU_SCALE_NHI(log_n) + GPU_SCALE_NLO;
    return PLAN_AL(n / 2 * PLAN_FR_BYTES) + PLAN_AL(halves * PLAN_FR_BYTES) + PLAN_AL(4 * per * PLAN_FR_BYTES);
}

size_t gpu_plan_ntt_bytes(unsigned log_n, unsigned vectors)
{
    return vectors * PLAN_AL(((size_t)1 << log_n) * PLAN_FR_BYTES) + gpu_plan_table_bytes(log_n);
}

size_t gpu_plan_msm_bytes(gpu_curve_t k, size_t n, unsigned c, size_t max_items, unsigned nbuf)
{
    size_t items;
    size_t ws = gpue_msm_ws_bytes(k, n, c, max_items, &items, NULL);
    return nbuf * PLAN_AL(n * PLAN_FR_BYTES) + ws + gpu_plan_sort_bytes(items);
}

/* The MSM phase for calls of up to msm_n points with a chunk buffer of
 * chunk points in front (0: none). */
static size_t msm_phase(gpu_curve_t k, size_t msm_n, size_t chunk, size_t cap, unsigned nbuf)
{
    if (!msm_n)
        return 0;
    return PLAN_AL(chunk * gpu_base_bytes(k)) + gpu_plan_msm_bytes(k, msm_n, gpu_msm_window(msm_n), cap, nbuf);
}

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

/* The largest chunk in [lo, hi] whose MSM phase (resident calls up to nres
 * points beside it) fits in left; 0 when even lo does not. The phase grows
 * with the chunk but not strictly (the window and the group change in
 * steps), so the search keeps the last chunk seen to fit. */
static size_t best_chunk(gpu_curve_t k, size_t lo, size_t hi, size_t nres, size_t cap, unsigned nbuf, size_t left)
{
    if (msm_phase(k, max_sz(nres, lo), lo, cap, nbuf) > left)
        return 0;
    size_t good = lo;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (msm_phase(k, max_sz(nres, mid), mid, cap, nbuf) <= left) {
            good = mid;
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return good;
}

int gpu_plan(gpu_plan_t *out, gpu_curve_t k, const char *const *names, const uint64_t *counts, size_t nsets,
             unsigned log_n, size_t device_bytes, size_t reserve, size_t min_chunk, err_t *err)
{
    memset(out, 0, sizeof *out);
    const size_t bb = gpu_base_bytes(k);
    out->curve = k;
    if (nsets > GPU_PLAN_MAX_SETS)
        return gm_err_set(err, GM_EINVAL, "gpu: plan: %zu base sets, at most %d", nsets, GPU_PLAN_MAX_SETS);
    if (log_n > 28)
        return gm_err_set(err, GM_EINVAL, "gpu: plan: log domain %u is not in 1..28 (or 0: no h)", log_n);
    if (device_bytes <= reserve)
        return gm_err_set(err, GM_ENOMEM, "gpu: plan: a device of %zu bytes holds nothing beyond the %zu bytes kept "
                          "for the driver", device_bytes, reserve);
    if (!min_chunk)
        min_chunk = 1;
    out->device_bytes = device_bytes;
    out->reserve = reserve;
    out->log_n = log_n;
    out->nsets = nsets;
    for (size_t i = 0; i < nsets; i++) {
        if (!names[i] || strlen(names[i]) >= sizeof out->set[i].name)
            return gm_err_set(err, GM_EINVAL, "gpu: plan: set %zu: a name of 1..15 bytes is needed", i);
        if (counts[i] >= ((uint64_t)1 << 31))
            return gm_err_set(err, GM_EINVAL, "gpu: plan: set %s: %llu points, the limit is 2^31 - 1", names[i],
                              (unsigned long long)counts[i]);
        snprintf(out->set[i].name, sizeof out->set[i].name, "%s", names[i]);
        out->set[i].n = counts[i];
    }
    const size_t usable = device_bytes - reserve;
    const gpu_plan_h_t hmodes[2] = {GPU_PLAN_H_WHOLE, GPU_PLAN_H_STEPS};
    const unsigned nh = log_n ? 2 : 1;
    for (size_t r = nsets + 1; r-- > 0;) {
        size_t resident = 0, nres = 0, maxs = 0;
        for (size_t i = 0; i < nsets; i++) {
            if (i < r) {
                resident += (size_t)counts[i] * bb;
                nres = max_sz(nres, (size_t)counts[i]);
            } else {
                maxs = max_sz(maxs, (size_t)counts[i]);
            }
        }
        if (resident >= usable)
            continue;
        const size_t left = usable - resident;
        for (unsigned hk = 0; hk < nh; hk++) {
            gpu_plan_h_t hm = log_n ? hmodes[hk] : GPU_PLAN_H_NONE;
            unsigned nvec = hm == GPU_PLAN_H_WHOLE ? 4 : hm == GPU_PLAN_H_STEPS ? 2 : 0;
            size_t hb = nvec ? gpu_plan_ntt_bytes(log_n, nvec) : 0;
            if (hb > left)
                continue;
            for (unsigned nbuf = 2; nbuf >= 1; nbuf--) {
                size_t bchunk = 0, bcap = 0;
                bool found = false;
                for (size_t cap = gpue_msm_group_items_default(); cap >= PLAN_GROUP_MIN; cap >>= 1) {
                    size_t chunk = 0;
                    if (maxs) {
                        chunk = best_chunk(k, min_chunk < maxs ? min_chunk : maxs, maxs, nres, cap, nbuf, left);
                        if (!chunk)
                            continue;
                    } else if (msm_phase(k, nres, 0, cap, nbuf) > left) {
                        continue;
                    }
                    if (!found || chunk > bchunk) {
                        found = true;
                        bchunk = chunk;
                        bcap = cap;
                    }
                    if (!maxs)
                        break; /* nothing streams: the largest group that fits */
                }
                if (!found)
                    continue;
                /* The plan. */
                for (size_t i = 0; i < nsets; i++) {
                    out->set[i].streamed = i >= r;
                    out->set[i].bytes = i < r ? (size_t)counts[i] * bb : 0;
                }
                out->bases_bytes = resident;
                out->chunk = bchunk;
                out->chunk_bytes = PLAN_AL(bchunk * bb);
                out->msm_n = max_sz(nres, bchunk);
                out->group_items = bcap;
                out->scalar_bufs = nbuf;
                if (out->msm_n) {
                    size_t items;
                    out->msm_window = gpu_msm_window(out->msm_n);
                    out->ws_bytes =
                        gpue_msm_ws_bytes(k, out->msm_n, out->msm_window, bcap, &items, &out->group_windows);
                    out->sort_bytes = gpu_plan_sort_bytes(items);
                    out->scalar_bytes = nbuf * PLAN_AL(out->msm_n * PLAN_FR_BYTES);
                    out->msm_phase = out->chunk_bytes + out->scalar_bytes + out->ws_bytes + out->sort_bytes;
                }
                out->h = hm;
                out->ntt_vectors = nvec;
                out->ntt_bytes = nvec ? nvec * PLAN_AL(((size_t)1 << log_n) * PLAN_FR_BYTES) : 0;
                out->table_bytes = nvec ? gpu_plan_table_bytes(log_n) : 0;
                out->h_phase = out->ntt_bytes + out->table_bytes;
                out->arena = max_sz(out->msm_phase, out->h_phase);
                out->total = out->bases_bytes + out->arena;
                out->pinned_bytes = out->msm_n * PLAN_FR_BYTES + PLAN_STAGE_BYTES(k) +
                                    (hm == GPU_PLAN_H_WHOLE ? 2 * ((size_t)1 << log_n) * PLAN_FR_BYTES : 0);
                return 0;
            }
        }
    }
    /* Nothing fits: say what the smallest workable plan needs. */
    size_t maxn = 0;
    for (size_t i = 0; i < nsets; i++)
        maxn = max_sz(maxn, (size_t)counts[i]);
    size_t ch = min_chunk < maxn ? min_chunk : maxn;
    size_t need = max_sz(msm_phase(k, ch, ch, PLAN_GROUP_MIN, 1), log_n ? gpu_plan_ntt_bytes(log_n, 2) : 0);
    return gm_err_set(err, GM_ENOMEM, "gpu: plan: a device of %zu bytes (%zu kept for the driver) cannot hold the "
                      "smallest workable plan (every set streamed in chunks of %zu points, h in steps, one scalar "
                      "buffer): it needs %zu bytes", device_bytes, reserve, ch, need + reserve);
}
