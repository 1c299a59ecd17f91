/*
 * gpu/gpu_internal.h — what gpu.c (C, always built), gpu_emu.cc (C++, the
 * host emulation, always built) and gpu_cuda.cu (CUDA, built when nvcc
 * exists; GM_HAVE_CUDA is then defined for gpu.c) share. No other folder
 * includes it.
 *
 * Layouts: fr_t and fp_t (bn_fr_t and bn_fp_t) are read on the device side
 * as 8 and 12 (8 and 8) 32-bit limbs (the same bytes); a device base is x, y
 * Montgomery, the point at infinity as x = y = 0 (96 bytes on BLS12-381, 64
 * on BN254: gpu_base_bytes); window sums come back as g1_xyzz_t
 * (bn_g1_xyzz_t). Scalars are 32 bytes on both curves. Where a function
 * serves both curves it takes the curve and untyped pointers to that
 * curve's types.
 */
#ifndef GM_GPU_INTERNAL_H
#define GM_GPU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "gpu/gpu.h"

/* Bytes of a scalar (fr_t, bn_fr_t) on both curves. */
#define GPU_FR_BYTES ((size_t)32)

/* Bytes of a device base of curve k: 96 (BLS12-381), 64 (BN254). */
static inline size_t gpu_base_bytes(gpu_curve_t k) { return k == GPU_CURVE_BN254 ? 64 : 96; }

/* A scale table: factor(i) = hi[i >> 12] * lo[i & 4095] (Fr values of the
 * tables' curve). */
typedef struct {
    const void *hi, *lo;
} gpu_scale_t;

/* The tables of one domain size of one curve's Fr (gpu.c builds them with
 * ff/): tw[j] = w^j
 * for j < n/2 as tw_hi[j >> tw_lb] * tw_lo[j & (2^tw_lb - 1)]; scale tables
 * g^i, g^i / n, g^-i / n and 1 / n (hi: GPU_SCALE_NHI(log_n) entries, lo:
 * 4096). Host memory. */
typedef struct {
    unsigned log_n, tw_lb;
    size_t tw_nhi, tw_nlo;
    const void *tw_hi, *tw_lo;
    gpu_scale_t g, gn, gin, n1;
} gpu_ntt_tabs_t;

#define GPU_SCALE_NLO 4096u
#define GPU_SCALE_NHI(log_n) ((log_n) > 12 ? ((size_t)1 << ((log_n) - 12)) : (size_t)1)

/* ---- host emulation (gpu_emu.cc): the device algorithms on host threads ---- */

/* The multiplication every following gpue_* call uses (gpu_field.cuh):
 * false (the default) the device's 32-bit code, true ff/'s. Process-wide:
 * gpu.c sets it for emulated contexts (true) and gpu_emu_* (false); the two
 * must not compute at the same time. */
void gpue_set_host_field(bool on);

/* wsum[w], w < floor(255 / c) + 1: the window sums (curve k's XYZZ) of sum
 * scalars[i] * bases[i] (device layout), groups of windows capped at
 * max_items items. Returns 0 or GM_ENOMEM. */
int gpue_msm_g1_windows(gpu_curve_t k, void *wsum, const void *bases, const void *scalars, size_t n, unsigned c,
                        size_t max_items);
/* Bytes of the workspace of one MSM of n points, window c, groups capped at
 * max_items (what the device holds besides the bases, the scalars and the
 * sort's scratch); the items of one group in *items (NULL: not wanted) and
 * its windows in *gw (NULL: not wanted). */
size_t gpue_msm_ws_bytes(gpu_curve_t k, size_t n, unsigned c, size_t max_items, size_t *items, unsigned *gw);
/* GPU_MSM_GROUP_ITEMS of gpu_pipe.cuh, for C. */
size_t gpue_msm_group_items_default(void);

/* ---- the plan's arithmetic (gpu_plan.c), shared with the emulated device ---- */

/* Bytes of the radix sort's and the scan's scratch for groups of `items`
 * items: CUB's onesweep sort with a DoubleBuffer keeps a histogram and one
 * look-back word per digit and tile (about items / 4 bytes), the scan one
 * word per tile; 64 KiB covers the fixed part. The CUDA backend allocates
 * what CUB asks, and the plan's reserve absorbs a difference. */
size_t gpu_plan_sort_bytes(size_t items);
/* Bytes of the NTT tables of 2^log_n on the device: n/2 twiddles, their
 * two halves while they are generated, the four scale tables. */
size_t gpu_plan_table_bytes(unsigned log_n);
/* Bytes an MSM call of n points at window c needs in the arena after the
 * chunk buffer (scalar buffers, workspace at max_items, sort scratch),
 * each part rounded up to 256 bytes. */
size_t gpu_plan_msm_bytes(gpu_curve_t k, size_t n, unsigned c, size_t max_items, unsigned nbuf);
/* Bytes an h phase needs: `vectors` NTT vectors of 2^log_n and the tables. */
size_t gpu_plan_ntt_bytes(unsigned log_n, unsigned vectors);
/* One transform (dir as gpu_ntt_dir_t) of a[0 .. 2^log_n), curve k's Fr
 * (t built for k). 0 or GM_ENOMEM. */
int gpue_ntt(gpu_curve_t k, void *a, const gpu_ntt_tabs_t *t, int dir);
/* Groth16's h (BLS12-381): a <- coset_iNTT((coset(iNTT a) coset(iNTT b) - coset(iNTT c)) z). */
int gpue_h(fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z);

/* The device's field operations on the host (gpu_emu_fp_op / _fr_op of
 * gpu.h, and their bn_ twins): '*', '+' or '-' of reduced values of curve
 * k's Fp or Fr, always through the carry-chain twin (never ff/'s
 * multiplication). */
void gpue_fp_op(gpu_curve_t k, void *o, const void *a, const void *b, char op);
void gpue_fr_op(gpu_curve_t k, void *o, const void *a, const void *b, char op);

/* ---- CUDA (gpu_cuda.cu) ---------------------------------------------------- */

typedef struct gpuc gpuc_t;

/* Device properties for gpu_info. */
typedef struct {
    char name[256];
    int device, sm_count, cc_major, cc_minor, runtime_version, driver_version;
    size_t mem_total, mem_free;
} gpuc_info_t;

/* Picks a device (device < 0: 0) and creates the streams and events. Returns
 * 0; GM_ENOTSUP when the runtime finds no usable device (no driver, no
 * device, device out of range: err names the CUDA call and error, e.g.
 * "cudaGetDeviceCount: cudaErrorInsufficientDriver (35): ..."; no kernel
 * image of this build runs on the device: err names its compute capability
 * and the architectures built); GM_EGPU for another failed call. */
int gpuc_create(gpuc_t **out, int device, err_t *err);
/* The devices the runtime sees (CUDA_VISIBLE_DEVICES applied): 0, or
 * GM_ENOTSUP (no driver, no CUDA in this build) with *n = 0. */
int gpuc_device_count(int *n, err_t *err);
void gpuc_destroy(gpuc_t *g);
void gpuc_info(gpuc_info_t *out, gpuc_t *g);

/* Device memory: 0, GM_ENOMEM (cudaErrorMemoryAllocation) or GM_EGPU. */
int gpuc_malloc(gpuc_t *g, void **p, size_t bytes, const char *what, err_t *err);
void gpuc_free(gpuc_t *g, void *p);
/* Pinned host memory (cudaHostAlloc). */
int gpuc_host_alloc(gpuc_t *g, void **p, size_t bytes, const char *what, err_t *err);
void gpuc_host_free(gpuc_t *g, void *p);
/* Synchronous copy host -> device (through the copy stream). */
int gpuc_h2d(gpuc_t *g, void *dst, const void *src, size_t bytes, err_t *err);

/* The arena: the one device buffer the MSM and NTT calls work in (the
 * streamed chunk at its start, then the MSM's scalars and workspace; or the
 * NTT vectors and tables). Grown to at least `bytes` (freed and allocated
 * again: its contents are lost and the cached tables dropped); 0,
 * GM_ENOMEM, GM_EGPU. */
int gpuc_arena(gpuc_t *g, size_t bytes, err_t *err);
void *gpuc_arena_ptr(gpuc_t *g);
/* The bytes of the arena gpuc_msm_g1 needs after arena_off for n points of
 * curve k at window c (CUB's real sort and scan scratch). */
int gpuc_msm_bytes(gpuc_t *g, gpu_curve_t k, size_t n, unsigned c, size_t max_items, unsigned nbuf, size_t *bytes,
                   err_t *err);

/* Packs slice `part` of `parts` of MSM j's compacted scalars into dst
 * (pinned, n values: the slice lands at its own place) and gives its range
 * [*lo, *hi) of dst; the slices of one MSM tile [0, n) in order (some may
 * be empty), so each can be uploaded while the next is packed. */
typedef void (*gpuc_pack_fn)(void *arg, size_t j, void *dst, size_t part, size_t parts, size_t *lo, size_t *hi);

/* Slices of MSM 0's packing, each uploaded while the next is packed (the
 * emulation packs in the same slices, so the slicing is tested). */
#define GPU_PACK_SLICES 8

/* k MSMs over the same n bases of curve kc (device memory from gpu.c:
 * resident, or the chunk at the arena's start): the window sums (kc's
 * XYZZ) of MSM j into wsum[j * nwin ...], nwin = floor(255 / c) + 1. The scalar buffers and the
 * workspace (groups of at most max_items) are taken from the arena after
 * arena_off (gpu.c makes it large enough first, with gpuc_msm_bytes;
 * GM_ENOMEM when it is not). MSM 0's scalars are packed in slices, each
 * uploaded while the next is packed; nbuf 2: the scalars of MSM j + 1 are
 * packed and uploaded while MSM j computes; 1: after it. Returns 0,
 * GM_ENOMEM, GM_EGPU. */
int gpuc_msm_g1(gpuc_t *g, gpu_curve_t kc, void *wsum, const void *dev_bases, size_t n, unsigned c, size_t k,
                size_t max_items, unsigned nbuf, size_t arena_off, gpuc_pack_fn pack, void *pack_arg, err_t *err);
/* One transform of the host array a (2^log_n values of curve k's Fr, in and
 * out), in the arena. */
int gpuc_ntt(gpuc_t *g, gpu_curve_t k, void *a, const gpu_ntt_tabs_t *t, int dir, err_t *err);
/* Groth16's h on host arrays a (in/out), b, c (pinned for full speed), in
 * the arena: one upload of each, one download. */
int gpuc_h(gpuc_t *g, fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z, err_t *err);

/* Device milliseconds of the compute part of the last gpuc_msm_g1 (its last
 * MSM), gpuc_ntt or gpuc_h (CUDA events; transfers excluded); 0 if none. */
double gpuc_last_ms(gpuc_t *g);

#ifdef __cplusplus
}
#endif

#endif /* GM_GPU_INTERNAL_H */
