/*
 * gpu/gpu.h — the CUDA backend: G1 MSM and the Fr NTT on an NVIDIA GPU
 * (compute capability 8.0 and up: the Makefile's NVARCH, docs/gpu.md), with
 * the same results as ec/'s msm_g1 and ntt/'s ntt_* on the CPU.
 *
 * Conventions (besides base/base.h's):
 *  - Inputs and outputs are host memory in ec/ and ff/ types (Montgomery,
 *    reduced); the device copies are this module's business.
 *  - Run-time detection: gpu_init returns GM_ENOTSUP, with err naming the
 *    CUDA call and error, when this build has no CUDA, when there is no
 *    driver (cudaErrorInsufficientDriver (35)), no device
 *    (cudaErrorNoDevice (100)), or the device asked for does not exist. The
 *    caller then proves on the CPU and logs err.msg once (cli/ does the
 *    logging; this library never prints).
 *  - Every call taking a context returns GM_ENOTSUP when ctx is NULL, so a
 *    caller that keeps a NULL context after a failed gpu_init gets one
 *    consistent answer and falls back to ec/.
 *  - Device memory that runs out is GM_ENOMEM (err names the buffer and its
 *    size): fall back to the CPU for that call. Any other failed CUDA call is
 *    GM_EGPU with "call: cudaErrorX (code): text (file:line)"; the context
 *    may then be unusable: destroy it and fall back.
 *  - Thread safety: a context is driven by one thread at a time; several
 *    contexts (one per device) may run at the same time.
 *  - G2 MSMs stay on the CPU (ec/ msm_g2, on the caller's pool while the GPU
 *    runs the G1 MSMs, as SupraSeal does); a G2 kernel awaits measurements on
 *    a GPU (docs/gpu.md).
 */
#ifndef GM_GPU_H
#define GM_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"

/* ---- context ----------------------------------------------------------------------- */

/* True when this binary was built with nvcc (the CUDA objects are linked). */
bool gpu_built_with_cuda(void);

typedef struct gpu_ctx gpu_ctx_t;

/* Opens device `device` (-1: device 0) and creates its streams. Returns 0;
 * GM_ENOTSUP (no CUDA in this build: "built without CUDA"; no driver, no
 * device, device out of range: err names the CUDA call, the error's name and
 * code, e.g. "gpu: cudaGetDeviceCount: cudaErrorInsufficientDriver (35):
 * CUDA driver version is insufficient for CUDA runtime version
 * (gpu/gpu_cuda.cu:88)"; a device this build has no kernel image for: err
 * names the device, its compute capability and the architectures built);
 * GM_EGPU (another CUDA call failed); GM_ENOMEM.
 * *out is NULL on failure. */
int gpu_init(gpu_ctx_t **out, int device, err_t *err) __attribute__((warn_unused_result));

/* An emulated device numbered `device` (-1: 0): the same calls, run by the
 * host emulation of the device code (gpu_emu.cc: the same kernel bodies and
 * pipeline steps, split over host threads), "device memory" being host
 * memory. For the prover's `emulate` backend: the whole GPU path (resident
 * bases, batches, faults, fallbacks) exercised on machines without a GPU.
 * GROTHMPI_EMU_MEM=N[K|M|G] gives the emulated device N bytes (default: no
 * limit), so that bases that do not fit, and their streaming, can be
 * tested. Returns 0, GM_ENOMEM, GM_EINVAL (GROTHMPI_GPU_FAULT,
 * GROTHMPI_EMU_MEM or GROTHMPI_EMU_DEVICES malformed), GM_ENOTSUP (device
 * beyond GROTHMPI_EMU_DEVICES). */
int gpu_init_emulated(gpu_ctx_t **out, int device, err_t *err) __attribute__((warn_unused_result));

/* The emulated devices of this node: GROTHMPI_EMU_DEVICES=N (1..64), so
 * that ranks sharing a node's devices can be tested without a GPU; *n = 0
 * when unset (no limit: any device number opens). Returns 0, or GM_EINVAL
 * (malformed; err names the variable and value). gpu_init_emulated refuses
 * a device number >= N with GM_ENOTSUP. */
#define GPU_EMU_DEVICES_MAX 64
int gpu_emulated_device_count(unsigned *n, err_t *err) __attribute__((warn_unused_result));

/* True for a context of gpu_init_emulated. */
bool gpu_is_emulated(const gpu_ctx_t *ctx);

/* The CUDA devices this process sees (CUDA_VISIBLE_DEVICES applied).
 * Returns 0, or GM_ENOTSUP (no CUDA in this build, no driver: err says
 * which) with *n = 0. */
int gpu_device_count(int *n, err_t *err) __attribute__((warn_unused_result));

/* The most device memory in use at once since gpu_init, in bytes: sampled
 * after every call (CUDA: total minus free as the driver reports it, so it
 * includes other users of the device; emulated: the resident bases plus the
 * largest call's buffers). 0 for NULL. */
size_t gpu_mem_peak(const gpu_ctx_t *ctx);

/* Fault injection, for testing the callers' fallbacks without hardware:
 * GROTHMPI_GPU_FAULT=oom|error|corrupt[:N], read by gpu_init and
 * gpu_init_emulated (GM_EINVAL when malformed), makes every gpu_msm_g1,
 * gpu_ntt and gpu_groth16_h call after the first N (default 0) of the
 * context fail with GM_ENOMEM (oom) or GM_EGPU (error), or return a wrong
 * result (corrupt: the first MSM sum plus the generator, or the transform's
 * first value plus one) that only the caller's verification can catch. */

/* Frees the context and its device buffers (not the bases, which must be
 * freed first); NULL allowed. */
void gpu_destroy(gpu_ctx_t *ctx);

typedef struct {
    char name[256];                    /* "NVIDIA H200" */
    int device, sm_count, cc_major, cc_minor;
    int runtime_version, driver_version; /* CUDA versions as 1000 * major + 10 * minor */
    size_t mem_total, mem_free;        /* bytes, at the time of the call */
} gpu_info_t;

/* The device's properties; ctx non-NULL. */
void gpu_info(gpu_info_t *out, gpu_ctx_t *ctx);

/* ---- G1 MSM --------------------------------------------------------------------------- */

/* The window width gpu_msm_g1 chooses for n points (window = 0): 4..16. */
unsigned gpu_msm_window(size_t n);

/* Bases resident in device memory: uploaded once per rank (parameters load),
 * kept across batches and shared by every MSM over them. */
typedef struct gpu_g1_bases gpu_g1_bases_t;

/* Copies n affine points (valid: on the curve, in G1; infinity allowed) to
 * the device, 96 bytes each, through a pinned staging buffer. n < 2^31.
 * When they do not fit (the device's memory, or an emulated device's
 * GROTHMPI_EMU_MEM), the bases are streamed instead: a device buffer of half
 * the free memory (at least 2^16 points; 64 on an emulated device) is refilled from `bases` chunk by
 * chunk at every gpu_msm_g1, which then sums one MSM per chunk; `bases`
 * must then stay valid and unchanged until gpu_g1_bases_free. Returns 0,
 * GM_ENOTSUP (ctx NULL), GM_EINVAL (n too large), GM_ENOMEM (not even a
 * chunk fits; err: bytes asked), GM_EGPU. *out NULL on failure. */
int gpu_g1_bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, const g1_affine_t *bases, size_t n, err_t *err)
    __attribute__((warn_unused_result));
void gpu_g1_bases_free(gpu_g1_bases_t *b);          /* NULL allowed */
size_t gpu_g1_bases_count(const gpu_g1_bases_t *b);
/* True when b is streamed (did not fit resident). */
bool gpu_g1_bases_streamed(const gpu_g1_bases_t *b);

/* k MSMs sharing one set of resident bases: out[j] = sum over i < n of
 * scalars[j][i] * B(i), j < k, with msm_g1's density semantics (density NULL:
 * B(i) = bases[i]; else only set bits take part and B(i) is the base of the
 * i-th set bit). The bases must hold n points (density NULL) or the number of
 * set bits (GM_EINVAL otherwise). The scalars of MSM j + 1 are packed into a
 * pinned buffer and uploaded while MSM j computes. window: 0 (automatic) or
 * 1..MSM_WINDOW_MAX; the result does not depend on it and equals msm_g1's
 * (projectively). k = 0 does nothing. Returns 0, GM_ENOTSUP (ctx NULL),
 * GM_EINVAL, GM_ENOMEM (device memory for the workspace: err says how much),
 * GM_EGPU. out is undefined on failure. */
int gpu_msm_g1(gpu_ctx_t *ctx, g1_jac_t *out, const gpu_g1_bases_t *bases, const fr_t *const *scalars,
               const uint64_t *density, size_t n, size_t k, unsigned window, err_t *err)
    __attribute__((warn_unused_result));

/* ---- NTT ------------------------------------------------------------------------------------ */

typedef enum {
    GPU_NTT_FORWARD = 0,       /* ntt_forward */
    GPU_NTT_INVERSE = 1,       /* ntt_inverse */
    GPU_NTT_COSET_FORWARD = 2, /* ntt_coset_forward */
    GPU_NTT_COSET_INVERSE = 3, /* ntt_coset_inverse */
} gpu_ntt_dir_t;

/* The transform of ntt/'s ntt_* of the same name on a[0 .. 2^log_n) (host
 * memory, natural order in and out, same roots w and shift g = 7), log_n in
 * 1..28 (the device holds 2 n values and n / 2 twiddles: 16 GiB at 2^28).
 * Returns 0, GM_ENOTSUP (ctx NULL), GM_EINVAL (log_n), GM_ENOMEM, GM_EGPU;
 * a is undefined on failure. */
int gpu_ntt(gpu_ctx_t *ctx, fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
    __attribute__((warn_unused_result));

/* Groth16's h as groth16/prove.c computes it, in one round trip: each of a,
 * b, c through ntt_inverse and ntt_coset_forward, a = (a b - c) / (g^n - 1)
 * pointwise, then ntt_coset_inverse; the result in a (n = 2^log_n values; b
 * and c are only read). Returns as gpu_ntt. */
int gpu_groth16_h(gpu_ctx_t *ctx, fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
    __attribute__((warn_unused_result));

/* Device milliseconds of the compute of the last gpu_msm_g1 (its last MSM),
 * gpu_ntt or gpu_groth16_h on ctx, transfers excluded (CUDA events): what
 * the device check (tools/gpu-check) compares with the bounds docs/gpu.md
 * derives. 0 for a NULL context or before the first call. */
double gpu_last_device_ms(gpu_ctx_t *ctx);

/* ---- host emulation of the device code ------------------------------------------------------ */

/* The device algorithms (the same kernel bodies, digit and sort steps,
 * segmented reductions and NTT stages as gpu_cuda.cu runs) executed
 * sequentially on the calling thread, for tests and for checking the kernels
 * on machines without a GPU. Slow: small sizes only. Same contracts as the
 * device calls above (one MSM, no context); return 0, GM_EINVAL or
 * GM_ENOMEM. */
int gpu_emu_msm_g1(g1_jac_t *out, const g1_affine_t *bases, const fr_t *scalars, const uint64_t *density, size_t n,
                   unsigned window, err_t *err) __attribute__((warn_unused_result));
int gpu_emu_ntt(fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err) __attribute__((warn_unused_result));
int gpu_emu_groth16_h(fr_t *a, const fr_t *b, const fr_t *c, unsigned log_n, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_GPU_H */
