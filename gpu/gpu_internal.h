/*
 * gpu/gpu_internal.h — what gpu.c (C, always built), gpu_emu.cc (C++, the
 * host emulation, always built) and gpu_cuda.cu (CUDA, built when nvcc
 * exists; GM_HAVE_CUDA is then defined for gpu.c) share. No other folder
 * includes it.
 *
 * Layouts: fr_t and fp_t are read on the device side as 8 and 12 32-bit
 * limbs (the same bytes); a device base is 96 bytes (x, y Montgomery, the
 * point at infinity as x = y = 0); window sums come back as g1_xyzz_t.
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

/* A device base: 96 bytes. */
typedef struct {
    fp_t x, y;
} gpu_base96_t;

/* A scale table: factor(i) = hi[i >> 12] * lo[i & 4095]. */
typedef struct {
    const fr_t *hi, *lo;
} gpu_scale_t;

/* The tables of one domain size (gpu.c builds them with ff/): tw[j] = w^j
 * for j < n/2 as tw_hi[j >> tw_lb] * tw_lo[j & (2^tw_lb - 1)]; scale tables
 * g^i, g^i / n, g^-i / n and 1 / n (hi: GPU_SCALE_NHI(log_n) entries, lo:
 * 4096). Host memory. */
typedef struct {
    unsigned log_n, tw_lb;
    size_t tw_nhi, tw_nlo;
    const fr_t *tw_hi, *tw_lo;
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

/* wsum[w], w < floor(255 / c) + 1: the window sums of sum scalars[i] *
 * bases[i]. Returns 0 or GM_ENOMEM. */
int gpue_msm_g1_windows(g1_xyzz_t *wsum, const gpu_base96_t *bases, const fr_t *scalars, size_t n, unsigned c);
/* Bytes of the workspace of one MSM of n points, window c (what the device
 * holds besides the bases and the scalars). */
size_t gpue_msm_ws_bytes(size_t n, unsigned c);
/* One transform (dir as gpu_ntt_dir_t) of a[0 .. 2^log_n). 0 or GM_ENOMEM. */
int gpue_ntt(fr_t *a, const gpu_ntt_tabs_t *t, int dir);
/* Groth16's h: a <- coset_iNTT((coset(iNTT a) coset(iNTT b) - coset(iNTT c)) z). */
int gpue_h(fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z);

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

/* Packs the compacted scalars of MSM j into dst (pinned, n values). */
typedef void (*gpuc_pack_fn)(void *arg, size_t j, fr_t *dst);

/* k MSMs over the same n resident bases (device memory from gpu.c): the
 * window sums of MSM j into wsum[j * nwin ...], nwin = floor(255 / c) + 1.
 * Scalars of MSM j + 1 are packed (pack) and uploaded while MSM j computes.
 * Returns 0, GM_ENOMEM, GM_EGPU. */
int gpuc_msm_g1(gpuc_t *g, g1_xyzz_t *wsum, const void *dev_bases, size_t n, unsigned c, size_t k,
                gpuc_pack_fn pack, void *pack_arg, err_t *err);
/* One transform of the host array a (2^log_n values, in and out). */
int gpuc_ntt(gpuc_t *g, fr_t *a, const gpu_ntt_tabs_t *t, int dir, err_t *err);
/* Groth16's h on host arrays a (in/out), b, c. */
int gpuc_h(gpuc_t *g, fr_t *a, const fr_t *b, const fr_t *c, const gpu_ntt_tabs_t *t, const fr_t *z, err_t *err);

/* Device milliseconds of the compute part of the last gpuc_msm_g1 (its last
 * MSM), gpuc_ntt or gpuc_h (CUDA events; transfers excluded); 0 if none. */
double gpuc_last_ms(gpuc_t *g);

#ifdef __cplusplus
}
#endif

#endif /* GM_GPU_INTERNAL_H */
