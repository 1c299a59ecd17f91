/*
 * gpu/gpu.h — the CUDA backend: G1 MSM and the Fr NTT on an NVIDIA GPU
 * (compute capability 8.0 and up: the Makefile's NVARCH, docs/gpu.md), with
 * the same results as ec/'s msm_g1 and ntt/'s ntt_* on the CPU, for
 * BLS12-381 and (the gpu_bn_ calls) BN254, whose results are ec/'s
 * bn_msm_g1 and ntt/'s bn_ntt_*. One context serves both curves; the
 * device code is one text instantiated for each (gpu_field.cuh).
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
#include "topo/topo.h"

/* ---- context ----------------------------------------------------------------------- */

/* The curve of a base set or a plan. */
typedef enum {
    GPU_CURVE_BLS12_381 = 0,
    GPU_CURVE_BN254 = 1,
} gpu_curve_t;

/* True when this binary was built with nvcc (the CUDA objects are linked). */
bool gpu_built_with_cuda(void);

/* True when this host shows a sign of an NVIDIA driver: /dev/nvidiactl, the
 * loaded module's /proc/driver/nvidia, or WSL's /dev/dxg. Cheap (three
 * stats), where gpu_init without a driver costs milliseconds (the CUDA
 * runtime tries every path of libcuda.so.1): the `auto` backend asks this
 * first, so that a CPU host does not pay for the probe on every proof. When
 * false, *why (if not NULL) names the paths looked at. */
bool gpu_driver_seen(const char **why);

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
 * tested. Every buffer a CUDA context would allocate (resident bases, the
 * arena with its chunk, scalars, workspace, sort scratch, NTT vectors and
 * tables) is counted against it and a call that goes beyond it fails with
 * GM_ENOMEM, as on a full device. Returns 0, GM_ENOMEM, GM_EINVAL
 * (GROTHMPI_GPU_FAULT, GROTHMPI_EMU_MEM or GROTHMPI_EMU_DEVICES malformed),
 * GM_ENOTSUP (device beyond GROTHMPI_EMU_DEVICES). */
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
 * arena, which every call's buffers are counted in). 0 for NULL. */
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

/* ---- device memory plan ------------------------------------------------------------- */

/* The device memory of one prover, planned up front for the device's size
 * (gpu_plan), so that nothing a proof needs is found missing halfway:
 *  - resident bases: the G1 sets kept on the device for the context's life,
 *    96 bytes a point on BLS12-381, 64 on BN254 (scalars: 32 bytes on both);
 *  - the MSM phase (one gpu_msm_g1 call at a time): the streamed chunk
 *    buffer (when a set streams), the scalar buffers (two: the next MSM's
 *    upload overlaps this one's compute; one when two do not fit), the
 *    workspace of gpu_pipe.cuh's layout for the largest call, with its
 *    groups of windows capped at group_items items, and the radix sort's
 *    scratch (CUB with a DoubleBuffer over the workspace's own key and value
 *    buffers, so only its small scratch);
 *  - the h phase (one gpu_groth16_h or gpu_ntt call at a time): the NTT
 *    vectors (whole: a, b, c and a scratch vector, so h is one upload of
 *    a, b, c and one download; steps: one vector and its scratch, for
 *    gpu_ntt's seven round trips) and the domain's tables (twiddles and
 *    scale tables, rebuilt after an MSM used the space).
 * The two phases never run at once on a context (its calls are serialized),
 * so they share one region, the arena: total = bases + arena, where arena =
 * max(MSM phase, h phase), and total <= device bytes - reserve. */

#define GPU_PLAN_MAX_SETS 8

/* The bytes a plan leaves to the driver, the CUDA context and CUB's
 * launches on a real device (gpu_plan's reserve for gpu_init contexts). */
#define GPU_PLAN_RESERVE ((size_t)1 << 30)

typedef enum {
    GPU_PLAN_H_NONE = 0,  /* no h on the device (log_n 0) */
    GPU_PLAN_H_WHOLE = 1, /* gpu_groth16_h: a, b, c and scratch on the device, one round trip */
    GPU_PLAN_H_STEPS = 2, /* gpu_ntt per transform: two vectors, seven round trips */
} gpu_plan_h_t;

typedef struct {
    /* what was asked */
    gpu_curve_t curve;            /* of the sets (their point size and the MSM's workspace) */
    size_t device_bytes, reserve; /* the card; what is kept back for the driver */
    unsigned log_n;               /* the NTT domain of h (0: none) */
    size_t nsets;
    struct {
        char name[16];
        uint64_t n;     /* points */
        bool streamed;  /* false: resident */
        size_t bytes;   /* resident: n * 96 (BN254: n * 64); streamed: 0 (it uses the chunk buffer) */
    } set[GPU_PLAN_MAX_SETS];
    /* the decisions and their sizes, in bytes */
    size_t bases_bytes;            /* resident sets together */
    size_t chunk, chunk_bytes;     /* points per streamed chunk and its buffer (0: nothing streams) */
    size_t msm_n;                  /* the most points one MSM call holds: a resident set or a chunk */
    unsigned msm_window;           /* gpu_msm_window(msm_n) */
    size_t group_items;            /* cap on one group's items (windows x points) */
    unsigned group_windows;        /* windows per group at msm_n */
    size_t ws_bytes;               /* MSM workspace at msm_n (keys, values, runs, partials, buckets) */
    size_t sort_bytes;             /* radix sort and scan scratch */
    unsigned scalar_bufs;          /* 1 or 2 */
    size_t scalar_bytes;           /* scalar_bufs * msm_n * 32 */
    size_t msm_phase;              /* chunk_bytes + scalar_bytes + ws_bytes + sort_bytes */
    gpu_plan_h_t h;
    unsigned ntt_vectors;          /* 4 (whole) or 2 (steps) */
    size_t ntt_bytes;              /* ntt_vectors * 2^log_n * 32 */
    size_t table_bytes;            /* twiddles (2^log_n / 2), scale tables, twiddle halves */
    size_t h_phase;                /* ntt_bytes + table_bytes */
    size_t arena;                  /* max(msm_phase, h_phase) */
    size_t total;                  /* bases_bytes + arena */
    size_t pinned_bytes;           /* host: scalar staging (msm_n) and base staging, plus b and c for h whole */
} gpu_plan_t;

/* Plans nsets G1 base sets of curve `curve` (names and point counts, in the
 * order they will be uploaded; nsets <= GPU_PLAN_MAX_SETS, names < 16 bytes) and an h over
 * 2^log_n (0: none; else 1..28) on a device of device_bytes, reserve of
 * them kept back (GPU_PLAN_RESERVE for a real device, 0 for an emulated
 * one). The rule, first that fits wins:
 *  1. as many sets resident as fit, taken in the given order (the rest
 *     streamed);
 *  2. h whole, else h in steps;
 *  3. two scalar buffers, else one;
 *  4. the largest streamed chunk (at least min_chunk points: below that the
 *     per-chunk launches cost more than the points), then the largest item
 *     group (2^29 down to 2^20 items; one window per group at the least).
 * Pure arithmetic: no device is touched. Returns 0; GM_EINVAL (nsets, a
 * name, a count of 2^31 or more, log_n); GM_ENOMEM (device_bytes not above
 * reserve, or even the smallest workable plan, everything streamed in
 * chunks of min_chunk, h in steps, one scalar buffer, one window per group,
 * does not fit): err says how many bytes it needs and the device's. */
int gpu_plan(gpu_plan_t *out, gpu_curve_t curve, const char *const *names, const uint64_t *counts, size_t nsets,
             unsigned log_n, size_t device_bytes, size_t reserve, size_t min_chunk, err_t *err)
    __attribute__((warn_unused_result));

/* The smallest chunk gpu_plan streams for a real device (2^16 points). */
#define GPU_PLAN_MIN_CHUNK ((size_t)1 << 16)

/* Plans for ctx's device (gpu_plan with its memory: what the driver says is
 * free plus the context's arena, or an emulated device's GROTHMPI_EMU_MEM,
 * unlimited when unset; the reserve and minimum chunk of its kind) and
 * makes it the context's: the bases
 * uploaded next follow it (resident while the plan's resident bytes last,
 * then streamed in its chunks), the arena is allocated now (CUDA) or
 * counted (emulated), and every later call works inside it. Call before
 * uploading bases, with the sets in upload order (and then upload only
 * sets of the plan's curve: GM_EINVAL otherwise). Returns as gpu_plan,
 * GM_ENOTSUP (ctx NULL), GM_ENOMEM (the arena could not be allocated),
 * GM_EGPU. The plan in *out when out is not NULL. */
int gpu_plan_apply(gpu_ctx_t *ctx, gpu_plan_t *out, gpu_curve_t curve, const char *const *names,
                   const uint64_t *counts, size_t nsets, unsigned log_n, err_t *err)
    __attribute__((warn_unused_result));

/* The plan ctx follows; NULL when none was applied (then buffers grow per
 * call, and bases that do not fit stream in chunks of half the free memory). */
const gpu_plan_t *gpu_ctx_plan(const gpu_ctx_t *ctx);

/* Host memory for transfers: pinned (page-locked, cudaHostAlloc) on a CUDA
 * context, so copies run at the bus's speed; ordinary memory on an
 * emulated one. Returns 0, GM_ENOTSUP (ctx NULL), GM_ENOMEM. Free with
 * gpu_host_free on the same context. */
int gpu_host_alloc(gpu_ctx_t *ctx, void **p, size_t bytes, err_t *err) __attribute__((warn_unused_result));
void gpu_host_free(gpu_ctx_t *ctx, void *p); /* NULL allowed */

/* Host threads for the host work around the device calls (scalar packing
 * and compaction, base conversion): pool's workers from now on (NULL: the
 * calling thread alone). The pool must outlive ctx's calls and not run
 * other jobs while one is in progress. */
void gpu_set_pool(gpu_ctx_t *ctx, topo_pool_t *pool);

/* ---- G1 MSM --------------------------------------------------------------------------- */

/* The window width gpu_msm_g1 chooses for n points (window = 0): 4..16. */
unsigned gpu_msm_window(size_t n);

/* Bases resident in device memory: uploaded once per rank (parameters load),
 * kept across batches and shared by every MSM over them. */
typedef struct gpu_g1_bases gpu_g1_bases_t;

/* Copies n affine points (valid: on the curve, in G1; infinity allowed) to
 * the device, 96 bytes each (BN254's, gpu_bn_g1_bases_upload: 64), through
 * a pinned staging buffer (converted on the context's pool). n < 2^31. With a plan (gpu_plan_apply) the set is
 * resident while the plan's resident bytes last, else streamed in the
 * plan's chunks; without one it is resident when it fits (the device's
 * memory, or an emulated device's GROTHMPI_EMU_MEM), else streamed in
 * chunks of half the free memory (at least 2^16 points; 64 on an emulated
 * device). Streamed: the arena's start is refilled from `bases` chunk by
 * chunk at every gpu_msm_g1, which then sums one MSM per chunk; `bases`
 * must then stay valid and unchanged until gpu_g1_bases_free. Returns 0,
 * GM_ENOTSUP (ctx NULL), GM_EINVAL (n too large), GM_ENOMEM (not even a
 * chunk fits; err: bytes asked), GM_EGPU. *out NULL on failure. */
int gpu_g1_bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, const g1_affine_t *bases, size_t n, err_t *err)
    __attribute__((warn_unused_result));
/* gpu_g1_bases_upload for BN254's points: the set's MSMs are gpu_bn_msm_g1. */
int gpu_bn_g1_bases_upload(gpu_g1_bases_t **out, gpu_ctx_t *ctx, const bn_g1_affine_t *bases, size_t n, err_t *err)
    __attribute__((warn_unused_result));
void gpu_g1_bases_free(gpu_g1_bases_t *b);          /* NULL allowed */
/* The curve of b's points (BLS12-381 for NULL). */
gpu_curve_t gpu_g1_bases_curve(const gpu_g1_bases_t *b);
size_t gpu_g1_bases_count(const gpu_g1_bases_t *b);
/* True when b is streamed (did not fit resident). */
bool gpu_g1_bases_streamed(const gpu_g1_bases_t *b);

/* k MSMs sharing one set of resident bases: out[j] = sum over i < n of
 * scalars[j][i] * B(i), j < k, with msm_g1's density semantics (density NULL:
 * B(i) = bases[i]; else only set bits take part and B(i) is the base of the
 * i-th set bit). The bases must be BLS12-381's and hold n points (density
 * NULL) or the number of set bits (GM_EINVAL otherwise). Scalars reduced
 * (< r), as ff/ keeps them. The scalars of MSM j + 1 are packed
 * (compacted on the context's pool) into a pinned buffer and uploaded while
 * MSM j computes (with the plan's one scalar buffer: after it); MSM 0's in
 * slices, each uploaded while the next is packed. window: 0 (automatic) or
 * 1..MSM_WINDOW_MAX; the result does not depend on it and equals msm_g1's
 * (projectively). k = 0 does nothing. Returns 0, GM_ENOTSUP (ctx NULL),
 * GM_EINVAL, GM_ENOMEM (device memory for the workspace: err says how much),
 * GM_EGPU. out is undefined on failure. */
int gpu_msm_g1(gpu_ctx_t *ctx, g1_jac_t *out, const gpu_g1_bases_t *bases, const fr_t *const *scalars,
               const uint64_t *density, size_t n, size_t k, unsigned window, err_t *err)
    __attribute__((warn_unused_result));
/* gpu_msm_g1 on BN254 (bases from gpu_bn_g1_bases_upload), equal to ec/'s
 * bn_msm_g1. */
int gpu_bn_msm_g1(gpu_ctx_t *ctx, bn_g1_jac_t *out, const gpu_g1_bases_t *bases, const bn_fr_t *const *scalars,
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
/* gpu_ntt over BN254's Fr: ntt/'s bn_ntt_* (roots bn_fr_root_of_unity,
 * shift BN254_FR_GENERATOR = 5), log_n in 1..28 (Fr's two-adicity). */
int gpu_bn_ntt(gpu_ctx_t *ctx, bn_fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err)
    __attribute__((warn_unused_result));

/* Groth16's h as groth16/prove.c computes it, in one round trip (one
 * upload of each of a, b, c, one download of h; at the bus's speed when
 * they come from gpu_host_alloc): each of a, b, c through ntt_inverse and
 * ntt_coset_forward, a = (a b - c) / (g^n - 1) pointwise, then
 * ntt_coset_inverse; the result in a (n = 2^log_n values; b and c are only
 * read). The device holds four vectors and the tables (the plan's h
 * whole). BLS12-381 only (bellperson's h; the snarkjs provers of both
 * curves take gpu_ntt / gpu_bn_ntt). Returns as gpu_ntt. */
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
/* The same on BN254 (gpu_bn_msm_g1's and gpu_bn_ntt's contracts). */
int gpu_emu_bn_msm_g1(bn_g1_jac_t *out, const bn_g1_affine_t *bases, const bn_fr_t *scalars, const uint64_t *density,
                      size_t n, unsigned window, err_t *err) __attribute__((warn_unused_result));
int gpu_emu_bn_ntt(bn_fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, err_t *err) __attribute__((warn_unused_result));

/* The device's field arithmetic (gpu_field.cuh: 32-bit limbs in PTX carry
 * chains) run on the host by its twin, which executes the same instruction
 * sequence with the carry flag made explicit: o = a * b (Montgomery), a + b
 * or a - b, for the tests that compare it with ff/. Inputs reduced (< p or
 * < r), output reduced; o may alias a or b. op: '*', '+' or '-'. */
void gpu_emu_fp_op(fp_t *o, const fp_t *a, const fp_t *b, char op);
void gpu_emu_fr_op(fr_t *o, const fr_t *a, const fr_t *b, char op);
/* The same on BN254's Fp (8 limbs) and Fr. */
void gpu_emu_bn_fp_op(bn_fp_t *o, const bn_fp_t *a, const bn_fp_t *b, char op);
void gpu_emu_bn_fr_op(bn_fr_t *o, const bn_fr_t *a, const bn_fr_t *b, char op);

#endif /* GM_GPU_H */
