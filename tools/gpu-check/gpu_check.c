/*
 * tools/gpu-check/gpu_check.c — the GPU-versus-CPU checks and the device
 * benchmarks (`make gpu-check`; tools/gpu-check/run.sh runs it on a machine
 * with a GPU, from the bundle of `make gpu-bundle`). Not a library: it sits
 * above every folder of LIBDIRS, as cli/ does. Steps, run in the order given:
 *   probe           open the device and print what it is (exit 2 without one);
 *   check           G1 MSM (gpu_msm_g1 against ec/'s msm_g1 on random inputs
 *                   at 2^10 .. 2^max-msm in steps of 2, a Groth16-like input
 *                   with 0, 1, r - 1 and a density bitmap, a batch of k = 4
 *                   over shared bases), the NTT (gpu_ntt against ntt/ at 2^10
 *                   .. 2^max-ntt, all four directions up to 2^20, gpu_groth16_h
 *                   against the CPU sequence), and a full Groth16 proof of
 *                   test-synthetic (2^proof-log rows) whose h and G1 MSMs run on
 *                   the device: byte-identical to the CPU prover's and verified;
 *                   and BN254's (check_bn): gpu_bn_msm_g1 against ec/'s
 *                   bn_msm_g1 at 2^10 .. 2^min(max-msm, 20) (with a density
 *                   bitmap of half the bits at the largest), gpu_bn_ntt
 *                   against ntt/'s bn_ntt_* in the four directions at 2^10
 *                   .. 2^min(max-ntt, 20), each line with the GPU's, the
 *                   device's and the CPU's times (2^20 at most: the same
 *                   kernel text as BLS12-381's, checked to the top sizes
 *                   above, in the step's time limit);
 *   msm:LOG         G1 MSM of 2^LOG random scalars, device time (CUDA events,
 *                   transfers excluded), min and median of 5, against
 *                   msm_bound_ms (below; docs/gpu.md, "Bounds");
 *   ntt:LOG         forward NTT of 2^LOG, the same way, against ntt_bound_ms;
 *   partition:SIZE  the device work of one PoRep partition of a 2KiB or 32GiB
 *                   sector on synthetic data: its four G1 sets resident, their
 *                   MSMs and h, against the goal per partition.
 * --emulate runs the same steps on an emulated device (gpu_init_emulated:
 * the device code on host threads), so a machine without a GPU checks this
 * binary end to end (small sizes only: the emulation is slow).
 * Prints one line per result ("PASS ..." / "FAIL ...") and appends it at
 * once, as a Markdown table row, to --out, so a run stopped by a time-out
 * keeps every figure so far. Exit status: 0 all passed, 1 a check failed,
 * 2 no usable device (gpu_init's message printed), 64 bad arguments.
 *
 *   gpu_check [--emulate] [--out FILE] [--max-msm LOG] [--max-ntt LOG] [--proof-log LOG] STEP...
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"
#include "gpu/gpu.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "topo/topo.h"
#include "ntt/ntt.h"
#include "circuits/circuits.h"

static int failures;
static FILE *md;

static void report(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(bool ok, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("%s %s\n", ok ? "PASS" : "FAIL", line);
    fflush(stdout);
    if (md) {
        fprintf(md, "| %s | %s |\n", ok ? "pass" : "**FAIL**", line);
        fflush(md);
    }
    if (!ok)
        failures++;
}

static double ms_since(uint64_t t0) { return (double)(gm_now_ns() - t0) / 1e6; }

/* ---- inputs ------------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_bytes32(uint8_t b[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t x = rng_next();
        memcpy(b + 8 * i, &x, 8);
    }
}

static void rand_fr(fr_t *out)
{
    uint8_t b[32];
    rand_bytes32(b);
    fr_from_bytes_le_mod(out, b);
}

#define PT_CHUNK 16384
typedef struct {
    g1_affine_t *pts;
    size_t n;
    uint64_t seed;
} pts_job_t;

/* Chunk t: P = k_t G, then P += S for each point (S = a fixed multiple of G). */
static void pts_task(void *arg, size_t t, unsigned worker)
{
    (void)worker;
    pts_job_t *j = arg;
    size_t i0 = t * PT_CHUNK, m = j->n - i0 < PT_CHUNK ? j->n - i0 : PT_CHUNK;
    g1_jac_t *jac = gm_alloc(m * sizeof *jac);
    fp_t *scr = gm_alloc(m * sizeof *scr);
    if (!jac || !scr) {
        fprintf(stderr, "gpu_check: out of memory\n");
        exit(1);
    }
    g1_jac_t g, p, s;
    g1_from_affine(&g, &G1_GENERATOR);
    uint64_t k[4] = {j->seed * 0x1000193ULL + t + 1, t * 7 + 3, 0x1234, 0};
    g1_mul(&p, &g, k);
    uint64_t ks[4] = {0xdeadbeefULL + j->seed, 0x5555, 0, 0};
    g1_mul(&s, &g, ks);
    for (size_t i = 0; i < m; i++) {
        jac[i] = p;
        g1_add(&p, &p, &s);
    }
    g1_batch_to_affine(j->pts + i0, jac, m, scr);
    gm_free(jac);
    gm_free(scr);
}

static g1_affine_t *gen_points(size_t n, topo_pool_t *pool)
{
    g1_affine_t *p = gm_alloc(n * sizeof *p);
    if (!p)
        return NULL;
    pts_job_t j = {p, n, rng_next()};
    topo_pool_run(pool, (n + PT_CHUNK - 1) / PT_CHUNK, pts_task, &j);
    return p;
}

static void cpu_msm(g1_jac_t *out, const g1_affine_t *b, const fr_t *s, const uint64_t *d, size_t n, topo_pool_t *pool)
{
    void *scr = gm_alloc(msm_g1_scratch_size(n, topo_pool_size(pool), 0) + 64);
    if (!scr) {
        fprintf(stderr, "gpu_check: out of memory for the CPU MSM scratch\n");
        exit(1);
    }
    msm_g1(out, b, s, d, n, 0, scr, pool);
    gm_free(scr);
}

static void cpu_ntt(fr_t *a, unsigned log_n, gpu_ntt_dir_t dir, topo_pool_t *pool)
{
    ntt_domain_t *d;
    err_t err;
    if (ntt_domain_create(&d, log_n, &err)) {
        fprintf(stderr, "gpu_check: %s\n", err.msg);
        exit(1);
    }
    void *scr = gm_alloc(ntt_scratch_size(d, topo_pool_size(pool)) + 64);
    switch (dir) {
    case GPU_NTT_FORWARD: ntt_forward(d, a, scr, pool); break;
    case GPU_NTT_INVERSE: ntt_inverse(d, a, scr, pool); break;
    case GPU_NTT_COSET_FORWARD: ntt_coset_forward(d, a, scr, pool); break;
    case GPU_NTT_COSET_INVERSE: ntt_coset_inverse(d, a, scr, pool); break;
    }
    gm_free(scr);
    ntt_domain_destroy(d);
}

/* ---- 1. MSM ------------------------------------------------------------------------------- */

static void check_msm(gpu_ctx_t *ctx, const g1_affine_t *pts, unsigned max_log, topo_pool_t *pool)
{
    size_t nmax = (size_t)1 << max_log;
    fr_t *s = gm_alloc(4 * nmax * sizeof *s);
    if (!s) {
        report(false, "msm: out of host memory");
        return;
    }
    for (size_t i = 0; i < 4 * nmax; i++)
        rand_fr(&s[i]);
    for (unsigned lg = 10; lg <= max_log; lg += 2) {
        size_t n = (size_t)1 << lg;
        err_t err;
        gpu_g1_bases_t *b;
        if (gpu_g1_bases_upload(&b, ctx, pts, n, &err)) {
            report(false, "msm g1 2^%u: upload: %s", lg, err.msg);
            continue;
        }
        g1_jac_t want, got;
        uint64_t t0 = gm_now_ns();
        cpu_msm(&want, pts, s, NULL, n, pool);
        double cpu_ms = ms_since(t0);
        const fr_t *sc[1] = {s};
        t0 = gm_now_ns();
        int rc = gpu_msm_g1(ctx, &got, b, sc, NULL, n, 1, 0, &err);
        double gpu_ms = ms_since(t0);
        if (rc)
            report(false, "msm g1 2^%u random: %s", lg, err.msg);
        else
            report(g1_jac_eq(&want, &got), "msm g1 2^%u random: GPU %.1f ms (device %.2f ms), CPU %.1f ms", lg,
                   gpu_ms, gpu_last_device_ms(ctx), cpu_ms);
        gpu_g1_bases_free(b);
    }
    /* Groth16-like: half the bits of the density set, scalars 0 / 1 / r - 1 / random. */
    {
        size_t n = (size_t)1 << (max_log < 20 ? max_log : 20);
        uint64_t *d = gm_calloc(n / 64 + 1, 8);
        size_t m = 0;
        fr_t rm1;
        fr_neg(&rm1, &FR_ONE);
        for (size_t i = 0; i < n; i++) {
            if (rng_next() & 1) {
                d[i >> 6] |= 1ULL << (i & 63);
                m++;
            }
            uint64_t r = rng_next() % 8;
            if (r < 3)
                s[i] = FR_ZERO;
            else if (r < 6)
                s[i] = FR_ONE;
            else if (r == 6)
                s[i] = rm1;
        }
        err_t err;
        gpu_g1_bases_t *b;
        g1_jac_t want, got;
        if (gpu_g1_bases_upload(&b, ctx, pts, m, &err)) {
            report(false, "msm g1 groth16-like: upload: %s", err.msg);
        } else {
            cpu_msm(&want, pts, s, d, n, pool);
            const fr_t *sc[1] = {s};
            int rc = gpu_msm_g1(ctx, &got, b, sc, d, n, 1, 0, &err);
            report(!rc && g1_jac_eq(&want, &got), "msm g1 2^%u groth16-like (0/1/r-1, density %zu): %s",
                   (unsigned)__builtin_ctzll(n), m, rc ? err.msg : "equal");
            gpu_g1_bases_free(b);
        }
        gm_free(d);
    }
    /* A batch of 4 sharing the bases (streamed scalars), at 2^18, windows 0 and 13. */
    {
        unsigned lg = max_log < 18 ? max_log : 18;
        size_t n = (size_t)1 << lg;
        for (size_t i = 0; i < 4 * n; i++)
            rand_fr(&s[i]);
        err_t err;
        gpu_g1_bases_t *b;
        if (gpu_g1_bases_upload(&b, ctx, pts, n, &err)) {
            report(false, "msm g1 batch: upload: %s", err.msg);
        } else {
            const fr_t *sc[4] = {s, s + n, s + 2 * n, s + 3 * n};
            g1_jac_t got[4], want;
            static const unsigned windows[2] = {0, 13};
            for (int w = 0; w < 2; w++) {
                int rc = gpu_msm_g1(ctx, got, b, sc, NULL, n, 4, windows[w], &err);
                bool ok = !rc;
                for (int j = 0; ok && j < 4; j++) {
                    cpu_msm(&want, pts, sc[j], NULL, n, pool);
                    ok = g1_jac_eq(&want, &got[j]);
                }
                report(ok, "msm g1 2^%u batch of 4, window %u: %s", lg, windows[w], rc ? err.msg : "equal");
            }
            gpu_g1_bases_free(b);
        }
    }
    gm_free(s);
}

/* ---- 2. NTT ------------------------------------------------------------------------------- */

static void check_ntt(gpu_ctx_t *ctx, unsigned max_log, topo_pool_t *pool)
{
    size_t nmax = (size_t)1 << max_log;
    fr_t *a = gm_alloc(nmax * sizeof *a), *b = gm_alloc(nmax * sizeof *b), *c = gm_alloc(nmax * sizeof *c),
         *h = gm_alloc(nmax * sizeof *h);
    if (!a || !b || !c || !h) {
        report(false, "ntt: out of host memory");
        goto done;
    }
    static const char *const names[4] = {"forward", "inverse", "coset forward", "coset inverse"};
    for (unsigned lg = 10; lg <= max_log; lg += 2) {
        size_t n = (size_t)1 << lg;
        for (int dir = 0; dir < 4; dir++) {
            if (lg > 20 && dir >= 2)
                continue;
            for (size_t i = 0; i < n; i++)
                rand_fr(&a[i]);
            memcpy(b, a, n * sizeof *a);
            cpu_ntt(a, lg, (gpu_ntt_dir_t)dir, pool);
            err_t err;
            int rc = gpu_ntt(ctx, b, lg, (gpu_ntt_dir_t)dir, &err);
            report(!rc && memcmp(a, b, n * sizeof *a) == 0, "ntt 2^%u %s: %s (device %.3f ms)", lg, names[dir],
                   rc ? err.msg : "equal", gpu_last_device_ms(ctx));
        }
    }
    static const unsigned hl[2] = {16, 20};
    for (int t = 0; t < 2; t++) {
        unsigned lg = hl[t] <= max_log ? hl[t] : max_log;
        if (t && lg == (hl[0] <= max_log ? hl[0] : max_log))
            break; /* both sizes clamped to the same */
        size_t n = (size_t)1 << lg;
        for (size_t i = 0; i < n; i++) {
            rand_fr(&a[i]);
            rand_fr(&b[i]);
            rand_fr(&c[i]);
        }
        memcpy(h, a, n * sizeof *a);
        err_t err;
        int rc = gpu_groth16_h(ctx, h, b, c, lg, &err);
        fr_t *v[3] = {a, b, c};
        for (int i = 0; i < 3; i++) {
            cpu_ntt(v[i], lg, GPU_NTT_INVERSE, pool);
            cpu_ntt(v[i], lg, GPU_NTT_COSET_FORWARD, pool);
        }
        fr_t z;
        uint64_t e = n;
        fr_pow(&z, &FR_GENERATOR, &e, 1);
        fr_sub(&z, &z, &FR_ONE);
        fr_inv(&z, &z);
        for (size_t i = 0; i < n; i++) {
            fr_mul(&a[i], &a[i], &b[i]);
            fr_sub(&a[i], &a[i], &c[i]);
            fr_mul(&a[i], &a[i], &z);
        }
        cpu_ntt(a, lg, GPU_NTT_COSET_INVERSE, pool);
        report(!rc && memcmp(a, h, n * sizeof *a) == 0, "groth16 h 2^%u: %s (device %.3f ms)", lg,
               rc ? err.msg : "equal", gpu_last_device_ms(ctx));
    }
done:
    gm_free(a);
    gm_free(b);
    gm_free(c);
    gm_free(h);
}

/* ---- 2b. BN254 -------------------------------------------------------------------------------- */

/* n BN254 points: P, P + S, P + 2S, ... (one thread: a check's sizes). */
static bn_g1_affine_t *bn_points(size_t n)
{
    bn_g1_affine_t *pts = gm_alloc(n * sizeof *pts);
    bn_g1_jac_t *jac = gm_alloc(n * sizeof *jac);
    bn_fp_t *scr = gm_alloc(n * sizeof *scr);
    if (!pts || !jac || !scr) {
        fprintf(stderr, "gpu_check: out of memory for %zu BN254 points\n", n);
        exit(1);
    }
    bn_g1_jac_t g, p, st;
    bn_g1_from_affine(&g, &BN254_G1_GENERATOR);
    const uint64_t k[4] = {rng_next(), rng_next(), 0, 0}, ks[4] = {rng_next(), 0x5555, 0, 0};
    bn_g1_mul(&p, &g, k);
    bn_g1_mul(&st, &g, ks);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        bn_g1_add(&p, &p, &st);
    }
    bn_g1_batch_to_affine(pts, jac, n, scr);
    gm_free(jac);
    gm_free(scr);
    return pts;
}

static void bn_rand_fr(bn_fr_t *out)
{
    uint8_t b[32];
    rand_bytes32(b);
    bn_fr_from_bytes_le_mod(out, b);
}

/* BN254's MSM of 2^lg random scalars (d: a density bitmap, or NULL)
 * against bn_msm_g1, timed. */
static void check_bn_msm(gpu_ctx_t *ctx, const bn_g1_affine_t *pts, const bn_fr_t *s, const uint64_t *d, unsigned lg,
                         topo_pool_t *pool)
{
    size_t n = (size_t)1 << lg, m = n;
    if (d) {
        m = 0;
        for (size_t w = 0; w < n / 64; w++)
            m += (size_t)__builtin_popcountll(d[w]);
    }
    err_t err;
    gpu_g1_bases_t *b;
    if (gpu_bn_g1_bases_upload(&b, ctx, pts, m, &err)) {
        report(false, "bn254 msm g1 2^%u: upload: %s", lg, err.msg);
        return;
    }
    void *scr = gm_alloc(bn_msm_g1_scratch_size(n, topo_pool_size(pool), 0) + 64);
    if (!scr) {
        fprintf(stderr, "gpu_check: out of memory for the CPU MSM scratch\n");
        exit(1);
    }
    bn_g1_jac_t want, got;
    uint64_t t0 = gm_now_ns();
    bn_msm_g1(&want, pts, s, d, n, 0, scr, pool);
    double cpu_ms = ms_since(t0);
    gm_free(scr);
    const bn_fr_t *sc[1] = {s};
    t0 = gm_now_ns();
    int rc = gpu_bn_msm_g1(ctx, &got, b, sc, d, n, 1, 0, &err);
    double gpu_ms = ms_since(t0);
    if (rc)
        report(false, "bn254 msm g1 2^%u%s: %s", lg, d ? " density" : "", err.msg);
    else
        report(bn_g1_jac_eq(&want, &got), "bn254 msm g1 2^%u%s: GPU %.1f ms (device %.2f ms), CPU %.1f ms", lg,
               d ? " density" : "", gpu_ms, gpu_last_device_ms(ctx), cpu_ms);
    gpu_g1_bases_free(b);
}

/* BN254's NTT of 2^lg random values in direction dir against ntt/'s, timed. */
static void check_bn_ntt(gpu_ctx_t *ctx, bn_fr_t *a, bn_fr_t *b, unsigned lg, int dir, topo_pool_t *pool)
{
    static const char *const names[4] = {"forward", "inverse", "coset forward", "coset inverse"};
    size_t n = (size_t)1 << lg;
    for (size_t i = 0; i < n; i++)
        bn_rand_fr(&a[i]);
    memcpy(b, a, n * sizeof *a);
    bn_ntt_domain_t *d;
    err_t err;
    if (bn_ntt_domain_create(&d, lg, &err)) {
        fprintf(stderr, "gpu_check: %s\n", err.msg);
        exit(1);
    }
    void *scr = gm_alloc(bn_ntt_scratch_size(d, topo_pool_size(pool)) + 64);
    uint64_t t0 = gm_now_ns();
    switch (dir) {
    case GPU_NTT_FORWARD: bn_ntt_forward(d, a, scr, pool); break;
    case GPU_NTT_INVERSE: bn_ntt_inverse(d, a, scr, pool); break;
    case GPU_NTT_COSET_FORWARD: bn_ntt_coset_forward(d, a, scr, pool); break;
    default: bn_ntt_coset_inverse(d, a, scr, pool); break;
    }
    double cpu_ms = ms_since(t0);
    gm_free(scr);
    bn_ntt_domain_destroy(d);
    t0 = gm_now_ns();
    int rc = gpu_bn_ntt(ctx, b, lg, (gpu_ntt_dir_t)dir, &err);
    double gpu_ms = ms_since(t0);
    report(!rc && memcmp(a, b, n * sizeof *a) == 0, "bn254 ntt 2^%u %s: %s: GPU %.1f ms (device %.3f ms), CPU %.1f ms",
           lg, names[dir], rc ? err.msg : "equal", gpu_ms, gpu_last_device_ms(ctx), cpu_ms);
}

/* BN254's MSMs and NTTs on the device against the CPU's (check). */
static void check_bn(gpu_ctx_t *ctx, unsigned max_msm, unsigned max_ntt, topo_pool_t *pool)
{
    size_t nm = (size_t)1 << max_msm, nn = (size_t)1 << max_ntt;
    bn_g1_affine_t *pts = bn_points(nm);
    bn_fr_t *s = gm_alloc(nm * sizeof *s), *a = gm_alloc(nn * sizeof *a), *b = gm_alloc(nn * sizeof *b);
    uint64_t *d = gm_calloc(nm / 64, 8);
    if (!s || !a || !b || !d) {
        report(false, "bn254: out of host memory");
        goto done;
    }
    for (size_t i = 0; i < nm; i++)
        bn_rand_fr(&s[i]);
    for (unsigned lg = 10; lg <= max_msm; lg += 2)
        check_bn_msm(ctx, pts, s, NULL, lg, pool);
    for (size_t w = 0; w < nm / 64; w++)
        d[w] = rng_next();
    check_bn_msm(ctx, pts, s, d, max_msm, pool);
    for (unsigned lg = 10; lg <= max_ntt; lg += 2)
        for (int dir = 0; dir < 4; dir++)
            check_bn_ntt(ctx, a, b, lg, dir, pool);
done:
    gm_free(pts);
    gm_free(s);
    gm_free(a);
    gm_free(b);
    gm_free(d);
}

/* ---- 3. a full proof ------------------------------------------------------------------------ */

/* Reads the G1 / G2 sections of a bellperson parameter file (groth16.h's
 * layout) after the vk. */
typedef struct {
    uint8_t *buf;
    size_t len, at;
} rd_t;

static uint32_t rd_u32(rd_t *r)
{
    if (r->at + 4 > r->len)
        return 0;
    const uint8_t *p = r->buf + r->at;
    r->at += 4;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static g1_affine_t *rd_g1(rd_t *r, size_t *n)
{
    *n = rd_u32(r);
    g1_affine_t *p = gm_alloc((*n ? *n : 1) * sizeof *p);
    for (size_t i = 0; p && i < *n; i++, r->at += G1_UNCOMPRESSED_BYTES)
        if (r->at + G1_UNCOMPRESSED_BYTES > r->len || g1_from_bytes_uncompressed_unchecked(&p[i], r->buf + r->at))
            return NULL;
    return p;
}

static g2_affine_t *rd_g2(rd_t *r, size_t *n)
{
    *n = rd_u32(r);
    g2_affine_t *p = gm_alloc((*n ? *n : 1) * sizeof *p);
    for (size_t i = 0; p && i < *n; i++, r->at += G2_UNCOMPRESSED_BYTES)
        if (r->at + G2_UNCOMPRESSED_BYTES > r->len || g2_from_bytes_uncompressed_unchecked(&p[i], r->buf + r->at))
            return NULL;
    return p;
}

static uint64_t *density_of(const cs_shape_t *sh, int mat)
{
    uint64_t nv = sh->n_inputs + sh->n_aux;
    uint64_t *d = gm_calloc(nv / 64 + 1, 8);
    const cs_matrix_t *m = &sh->m[mat];
    for (uint64_t t = 0; t < m->row_ptr[sh->n_rows]; t++)
        d[m->col[t] >> 6] |= 1ULL << (m->col[t] & 63);
    if (mat == 0)
        for (uint64_t j = 0; j < sh->n_inputs; j++)
            d[j >> 6] |= 1ULL << (j & 63);
    return d;
}

static int gpu_msm_host(gpu_ctx_t *ctx, g1_jac_t *out, const g1_affine_t *pts, size_t npts, const fr_t *s,
                        const uint64_t *d, size_t n, err_t *err)
{
    gpu_g1_bases_t *b;
    int rc = gpu_g1_bases_upload(&b, ctx, pts, npts, err);
    if (rc)
        return rc;
    const fr_t *sc[1] = {s};
    rc = gpu_msm_g1(ctx, out, b, sc, d, n, 1, 0, err);
    gpu_g1_bases_free(b);
    return rc;
}

static void check_proof(gpu_ctx_t *ctx, unsigned log_rows, topo_pool_t *pool)
{
    err_t err;
    circuit_t circ;
    cs_shape_t *sh = NULL;
    cs_t *cs = NULL;
    groth16_params_t *pp = NULL;
    groth16_prover_t *pv = NULL;
    char params[] = "/tmp/gpu_check_params_XXXXXX";
    int fd = mkstemp(params);
    if (fd >= 0)
        close(fd);
    uint8_t seed[GROTH16_SEED_BYTES] = {1, 2, 3};
    circuit_witness_opts_t wo = {.seed = 7, .mode = CS_WITNESS};
    if (circuit_parse(&circ, "test-synthetic", (uint64_t)1 << log_rows, NULL, &err) ||
        circuit_shape(&sh, &circ, &err) || groth16_setup(sh, seed, params, NULL, pool, &err) ||
        circuit_witness(&cs, &circ, &wo, &err) ||
        groth16_params_load(&pp, params, sh, GROTH16_LOAD_TRUST, pool, &err) ||
        groth16_prover_create(&pv, pp, sh, pool, &err)) {
        report(false, "groth16 proof: setup: %s", err.msg);
        goto done;
    }
    const fr_t *in = cs_input_values(cs), *aux = cs_aux_values(cs);
    groth16_witness_t w = {in, sh->n_inputs, aux, sh->n_aux, NULL};
    fr_t rs[2];
    rand_fr(&rs[0]);
    rand_fr(&rs[1]);
    groth16_proof_t cpu_proof, gpu_proof;
    if (groth16_prove(pv, &cpu_proof, &w, 1, rs, GROTH16_PROVE_DEFAULT, pool, NULL, &err)) {
        report(false, "groth16 proof: CPU prover: %s", err.msg);
        goto done;
    }
    /* The GPU path: the CPU prover's steps with h and the G1 MSMs on the GPU. */
    FILE *f = fopen(params, "rb");
    rd_t r = {0};
    if (f) {
        fseek(f, 0, SEEK_END);
        r.len = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        r.buf = gm_alloc(r.len);
        if (!r.buf || fread(r.buf, 1, r.len, f) != r.len)
            r.len = 0;
        fclose(f);
    }
    groth16_vk_t vk;
    size_t used = 0, nh, nl, na, nb1, nb2;
    if (!r.len || groth16_vk_from_bytes(&vk, r.buf, r.len, &used, params, &err)) {
        report(false, "groth16 proof: reading %s back failed", params);
        gm_free(r.buf);
        goto done;
    }
    r.at = used;
    g1_affine_t *ph = rd_g1(&r, &nh), *pl = rd_g1(&r, &nl), *pa = rd_g1(&r, &na), *pb1 = rd_g1(&r, &nb1);
    g2_affine_t *pb2 = rd_g2(&r, &nb2);
    uint64_t m = 1;
    unsigned log_m = 0;
    while (m < sh->n_rows)
        m <<= 1, log_m++;
    size_t nv = sh->n_inputs + sh->n_aux;
    fr_t *a = gm_calloc(m, sizeof(fr_t)), *b = gm_calloc(m, sizeof(fr_t)), *c = gm_calloc(m, sizeof(fr_t));
    fr_t *z = gm_alloc(nv * sizeof(fr_t));
    uint64_t *da = density_of(sh, 0), *db = density_of(sh, 1);
    memcpy(z, in, sh->n_inputs * sizeof(fr_t));
    memcpy(z + sh->n_inputs, aux, sh->n_aux * sizeof(fr_t));
    cs_shape_abc(sh, in, aux, a, b, c, pool);
    g1_jac_t sa, sb1, sl, shh;
    g2_jac_t sb2;
    int rc = 0;
    uint64_t t0 = gm_now_ns();
    if ((rc = gpu_groth16_h(ctx, a, b, c, log_m, &err)) || (rc = gpu_msm_host(ctx, &sa, pa, na, z, da, nv, &err)) ||
        (rc = gpu_msm_host(ctx, &sb1, pb1, nb1, z, db, nv, &err)) ||
        (rc = gpu_msm_host(ctx, &sl, pl, nl, aux, NULL, sh->n_aux, &err)) ||
        (rc = gpu_msm_host(ctx, &shh, ph, nh, a, NULL, m - 1, &err))) {
        report(false, "groth16 proof: GPU: %s", err.msg);
    } else {
        void *scr = gm_alloc(msm_g2_scratch_size(nv, topo_pool_size(pool), 0) + 64);
        msm_g2(&sb2, pb2, z, db, nv, 0, scr, pool);
        gm_free(scr);
        /* Assemble as groth16/prove.c does. */
        const fr_t *rr = &rs[0], *ss = &rs[1];
        g1_jac_t alpha, beta1, delta1, ga, gc, x;
        g2_jac_t beta2, delta2, gb;
        g1_from_affine(&alpha, &vk.alpha_g1);
        g1_from_affine(&beta1, &vk.beta_g1);
        g1_from_affine(&delta1, &vk.delta_g1);
        g2_from_affine(&beta2, &vk.beta_g2);
        g2_from_affine(&delta2, &vk.delta_g2);
        g1_mul_fr(&ga, &delta1, rr);
        g1_add(&ga, &ga, &alpha);
        g1_add(&ga, &ga, &sa);
        g2_mul_fr(&gb, &delta2, ss);
        g2_add(&gb, &gb, &beta2);
        g2_add(&gb, &gb, &sb2);
        fr_t rsp;
        fr_mul(&rsp, rr, ss);
        g1_mul_fr(&gc, &delta1, &rsp);
        g1_mul_fr(&x, &alpha, ss);
        g1_add(&gc, &gc, &x);
        g1_mul_fr(&x, &beta1, rr);
        g1_add(&gc, &gc, &x);
        g1_mul_fr(&x, &sa, ss);
        g1_add(&gc, &gc, &x);
        g1_mul_fr(&x, &sb1, rr);
        g1_add(&gc, &gc, &x);
        g1_add(&gc, &gc, &shh);
        g1_add(&gc, &gc, &sl);
        g1_to_affine(&gpu_proof.a, &ga);
        g2_to_affine(&gpu_proof.b, &gb);
        g1_to_affine(&gpu_proof.c, &gc);
        uint8_t pc[GROTH16_PROOF_BYTES], pg[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(pc, &cpu_proof);
        groth16_proof_to_bytes(pg, &gpu_proof);
        groth16_pvk_t pvk;
        int vrc = groth16_pvk_prepare(&pvk, &vk, &err) ? -1 : groth16_verify(&pvk, &gpu_proof, in + 1,
                                                                             sh->n_inputs - 1, &err);
        groth16_pvk_free(&pvk);
        report(vrc == 0 && memcmp(pc, pg, sizeof pc) == 0,
               "groth16 proof test-synthetic 2^%u rows: GPU h + G1 MSMs %.1f ms, %s, %s", log_rows, ms_since(t0),
               vrc == 0 ? "verifies" : "does NOT verify", memcmp(pc, pg, sizeof pc) ? "bytes differ from the CPU proof"
                                                                                  : "bytes equal to the CPU proof");
    }
    groth16_vk_free(&vk);
    gm_free(ph), gm_free(pl), gm_free(pa), gm_free(pb1), gm_free(pb2);
    gm_free(a), gm_free(b), gm_free(c), gm_free(z), gm_free(da), gm_free(db), gm_free(r.buf);
done:
    groth16_prover_destroy(pv);
    groth16_params_free(pp);
    cs_destroy(cs);
    cs_shape_free(sh);
    unlink(params);
}

/* ---- 4. benchmarks -------------------------------------------------------------------------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The bounds of docs/gpu.md ("Bounds"), written once here. An H200 issues
 * 132 SMs x 64 32-bit IMAD per clock at 1.98 GHz = 16.7 T IMAD/s; a 12-limb
 * Montgomery product (CIOS, 32-bit limbs) is 2 x 12 x 12 IMAD pairs = 576
 * IMAD, so 29 G Fp products/s. The MSM adds each point once per window
 * (XYZZ mixed addition: 10 Fp products), with gpu_msm_window's c. */
#define H200_FP_MUL_PER_S 29e9
static double msm_bound_ms(size_t n)
{
    unsigned c = gpu_msm_window(n), nwin = 255 / c + 1;
    return (double)n * nwin * 10 / H200_FP_MUL_PER_S * 1e3;
}

/* The NTT: 3.1 ms at 2^24 (memory-bound: docs/gpu.md), scaled by n log n. */
static double ntt_bound_ms(unsigned lg) { return 3.1 * ((double)((size_t)1 << lg) / (1 << 24)) * lg / 24; }

/* 2^lg random scalars, or NULL (reported as a failure of `what`). */
static fr_t *rand_scalars(unsigned lg, const char *what)
{
    size_t n = (size_t)1 << lg;
    fr_t *s = gm_alloc(n * sizeof *s);
    if (!s) {
        report(false, "bench %s 2^%u: out of host memory", what, lg);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        rand_fr(&s[i]);
    return s;
}

static void bench_msm(gpu_ctx_t *ctx, const g1_affine_t *pts, unsigned lg)
{
    size_t n = (size_t)1 << lg;
    fr_t *s = rand_scalars(lg, "msm g1");
    double t[5];
    err_t err;
    if (!s)
        return;
    gpu_g1_bases_t *b;
    if (!gpu_g1_bases_upload(&b, ctx, pts, n, &err)) {
        const fr_t *sc[1] = {s};
        g1_jac_t out;
        int rc = 0;
        for (int i = 0; i < 5 && !rc; i++) {
            rc = gpu_msm_g1(ctx, &out, b, sc, NULL, n, 1, 0, &err);
            t[i] = gpu_last_device_ms(ctx);
        }
        if (!rc) {
            qsort(t, 5, sizeof t[0], cmp_d);
            unsigned c = gpu_msm_window(n);
            double bound = msm_bound_ms(n);
            report(true, "bench msm g1 2^%u: device min %.2f ms, median %.2f ms; bound for c = %u (%u windows) %.3g ms: "
                   "%.0f%% of bound (goal: within 2x)", lg, t[0], t[2], c, 255 / c + 1, bound, 100 * bound / t[2]);
        } else {
            report(false, "bench msm g1 2^%u: %s", lg, err.msg);
        }
        gpu_g1_bases_free(b);
    } else {
        report(false, "bench msm g1 2^%u: upload: %s", lg, err.msg);
    }
    gm_free(s);
}

static void bench_ntt(gpu_ctx_t *ctx, unsigned lg)
{
    fr_t *s = rand_scalars(lg, "ntt");
    double t[5];
    err_t err;
    if (!s)
        return;
    int rc = 0;
    for (int i = 0; i < 5 && !rc; i++) {
        rc = gpu_ntt(ctx, s, lg, GPU_NTT_FORWARD, &err);
        t[i] = gpu_last_device_ms(ctx);
    }
    if (!rc) {
        qsort(t, 5, sizeof t[0], cmp_d);
        double bound = ntt_bound_ms(lg);
        report(true, "bench ntt 2^%u forward: device min %.3f ms, median %.3f ms; bound %.3g ms: %.0f%% of bound "
               "(goal: within 3x)", lg, t[0], t[2], bound, 100 * bound / t[2]);
    } else {
        report(false, "bench ntt 2^%u: %s", lg, err.msg);
    }
    gm_free(s);
}

/* ---- 5. a synthetic partition ---------------------------------------------------------------- */

/* One PoRep partition's counts (grothmpi circuit info porep --sector-size
 * SIZE: nv = public inputs + auxiliary variables) and its goal of device
 * time: 1.0 s at 32 GiB (cuzk: 1.82 s on an RTX 5070 Ti), scaled by the
 * domain below it. */
typedef struct {
    const char *name;
    size_t nv, naux;
    unsigned log_m;
    double goal_s;
} partition_t;

static const partition_t PARTITIONS[] = {
    {"2KiB", 40 + 2685673, 2685673, 22, 1.0 / 32},
    {"32GiB", 328 + 130169893, 130169893, 27, 1.0},
};

/* The device work of one partition on synthetic data: the G1 MSMs A and B1
 * over z (at most nv points each: the dense upper bound of their
 * density-compacted sets), L over aux and H over m - 1 values, all four sets
 * resident, and Groth16's h (7 transforms of m). Bases: the generated points
 * repeated; scalars: uniform (the worst case for the buckets). Device times
 * summed against the goal. */
static void bench_partition(gpu_ctx_t *ctx, const partition_t *P, const g1_affine_t *pts, size_t npts)
{
    const size_t m = (size_t)1 << P->log_m;
    const size_t sizes[4] = {P->nv, P->nv, P->naux, m - 1};
    static const char *const names[4] = {"A", "B1", "L", "H"};
    err_t err;
    size_t nmax = P->nv > m ? P->nv : m;
    g1_affine_t *bases = gm_alloc(nmax * sizeof *bases);
    fr_t *sc = gm_alloc(nmax * sizeof *sc), *b = gm_alloc(m * sizeof *b), *c = gm_alloc(m * sizeof *c);
    gpu_g1_bases_t *gb[4] = {NULL, NULL, NULL, NULL};
    if (!bases || !sc || !b || !c) {
        report(false, "partition %s: out of host memory (%.1f GiB needed)", P->name,
               (double)(nmax * (sizeof *bases + sizeof *sc) + 2 * m * sizeof *b) / (1 << 30));
        goto done;
    }
    for (size_t i = 0; i < nmax; i++)
        bases[i] = pts[i % npts];
    for (size_t i = 0; i < nmax; i++)
        rand_fr(&sc[i]);
    for (size_t i = 0; i < m; i++) {
        b[i] = sc[(i * 7 + 1) % m];
        c[i] = sc[(i * 13 + 5) % m];
    }
    uint64_t t0 = gm_now_ns();
    for (int i = 0; i < 4; i++)
        if (gpu_g1_bases_upload(&gb[i], ctx, bases, sizes[i], &err)) {
            report(false, "partition %s: the %s bases (%zu points): %s", P->name, names[i], sizes[i], err.msg);
            goto done;
        }
    printf("gpu_check: %s partition bases resident in %.1f s\n", P->name, ms_since(t0) / 1e3);
    double msm_ms = 0, wall0 = 0;
    bool streamed = false;
    t0 = gm_now_ns();
    for (int i = 0; i < 4; i++) {
        const fr_t *s1[1] = {sc};
        g1_jac_t out;
        streamed |= gpu_g1_bases_streamed(gb[i]);
        if (gpu_msm_g1(ctx, &out, gb[i], s1, NULL, sizes[i], 1, 0, &err)) {
            report(false, "partition %s: msm %s: %s", P->name, names[i], err.msg);
            goto done;
        }
        msm_ms += gpu_last_device_ms(ctx);
    }
    wall0 = ms_since(t0);
    t0 = gm_now_ns();
    if (gpu_groth16_h(ctx, sc, b, c, P->log_m, &err)) {
        report(false, "partition %s: h (7 NTTs of 2^%u): %s", P->name, P->log_m, err.msg);
        goto done;
    }
    double h_ms = gpu_last_device_ms(ctx), h_wall = ms_since(t0);
    double total = (msm_ms + h_ms) / 1e3;
    report(total <= P->goal_s,
           "partition %s (synthetic): G1 MSMs %.3f s + h %.3f s = %.3f s of device time per partition "
           "(wall with transfers %.3f s%s); goal <= %.3f s; device memory peak %.1f GiB", P->name, msm_ms / 1e3,
           h_ms / 1e3, total, (wall0 + h_wall) / 1e3, streamed ? ", some bases streamed" : "", P->goal_s,
           (double)gpu_mem_peak(ctx) / (1 << 30));
done:
    for (int i = 3; i >= 0; i--)
        gpu_g1_bases_free(gb[i]);
    gm_free(bases);
    gm_free(sc);
    gm_free(b);
    gm_free(c);
}

/* ---- main -------------------------------------------------------------------------------------- */

typedef enum { STEP_PROBE, STEP_CHECK, STEP_MSM, STEP_NTT, STEP_PARTITION } step_kind_t;
typedef struct {
    step_kind_t kind;
    unsigned log;               /* msm, ntt */
    const partition_t *part;    /* partition */
} step_t;

#define MAX_STEPS 32

static int usage(const char *argv0, const char *why)
{
    fprintf(stderr, "gpu_check: %s\nusage: %s [--emulate] [--out FILE] [--max-msm LOG] [--max-ntt LOG] "
            "[--proof-log LOG] probe|check|msm:LOG|ntt:LOG|partition:2KiB|partition:32GiB ...\n", why, argv0);
    return 64;
}

/* A log size in lo..hi, or -1. */
static int parse_log(const char *s, unsigned lo, unsigned hi)
{
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    return *s && !*end && v >= lo && v <= hi ? (int)v : -1;
}

int main(int argc, char **argv)
{
    unsigned max_msm = 22, max_ntt = 24, proof_log = 16;
    bool emulate = false;
    const char *out = NULL;
    step_t steps[MAX_STEPS];
    int nsteps = 0, v;
    char why[160];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--emulate"))
            emulate = true;
        else if (!strcmp(a, "--out") && i + 1 < argc)
            out = argv[++i];
        else if ((!strcmp(a, "--max-msm") || !strcmp(a, "--max-ntt") || !strcmp(a, "--proof-log")) && i + 1 < argc) {
            /* The checks start at 2^10; a proof as small as 2^8 rows. */
            unsigned lo = a[2] == 'p' ? 8 : 10;
            if ((v = parse_log(argv[++i], lo, 28)) < 0) {
                snprintf(why, sizeof why, "%s: '%s' is not a log size in %u..28", a, argv[i], lo);
                return usage(argv[0], why);
            }
            *(a[2] == 'p' ? &proof_log : a[6] == 'm' ? &max_msm : &max_ntt) = (unsigned)v;
        } else if (nsteps == MAX_STEPS) {
            return usage(argv[0], "too many steps");
        } else if (!strcmp(a, "probe") || !strcmp(a, "check")) {
            steps[nsteps++] = (step_t){a[0] == 'p' ? STEP_PROBE : STEP_CHECK, 0, NULL};
        } else if (!strncmp(a, "msm:", 4) || !strncmp(a, "ntt:", 4)) {
            if ((v = parse_log(a + 4, 10, a[0] == 'm' ? 30 : 28)) < 0) {
                snprintf(why, sizeof why, "%s: '%s' is not a log size in 10..%d", a, a + 4, a[0] == 'm' ? 30 : 28);
                return usage(argv[0], why);
            }
            steps[nsteps++] = (step_t){a[0] == 'm' ? STEP_MSM : STEP_NTT, (unsigned)v, NULL};
        } else if (!strncmp(a, "partition:", 10)) {
            const partition_t *p = NULL;
            for (size_t k = 0; k < sizeof PARTITIONS / sizeof PARTITIONS[0]; k++)
                if (!strcmp(a + 10, PARTITIONS[k].name))
                    p = &PARTITIONS[k];
            if (!p) {
                snprintf(why, sizeof why, "%s: '%s' is not 2KiB or 32GiB", a, a + 10);
                return usage(argv[0], why);
            }
            steps[nsteps++] = (step_t){STEP_PARTITION, 0, p};
        } else {
            snprintf(why, sizeof why, "'%s' is not an option or a step", a);
            return usage(argv[0], why);
        }
    }
    if (!nsteps)
        return usage(argv[0], "no step given");
    gm_log_init();
    err_t err;
    if (ff_init(FF_PATH_AUTO)) {
        fprintf(stderr, "gpu_check: ff_init failed\n");
        return 1;
    }
    gpu_ctx_t *ctx;
    if ((emulate ? gpu_init_emulated(&ctx, -1, &err) : gpu_init(&ctx, -1, &err))) {
        printf("gpu_check: no usable device: %s\n", err.msg);
        return 2;
    }
    topo_pool_t *pool;
    if (topo_pool_create_flat(&pool, 0, &err)) {
        fprintf(stderr, "gpu_check: %s\n", err.msg);
        return 1;
    }
    gpu_info_t info;
    gpu_info(&info, ctx);
    if (out && !(md = fopen(out, "a")))
        fprintf(stderr, "gpu_check: cannot open %s; results go to stdout only\n", out);
    if (emulate)
        snprintf(info.name, sizeof info.name, "emulated device %d", info.device);
    printf("gpu_check: %s, %d SMs, cc %d.%d, %.1f GiB, driver %d, runtime %d, %u CPU workers\n", info.name,
           info.sm_count, info.cc_major, info.cc_minor, (double)info.mem_total / (1 << 30), info.driver_version,
           info.runtime_version, topo_pool_size(pool));
    fflush(stdout);
    if (md) {
        fprintf(md, "\n%s, %d SMs, cc %d.%d, %.1f GiB, CUDA driver %d, runtime %d; %u CPU workers for the "
                "reference.\n\n| result | check |\n|---|---|\n", info.name, info.sm_count, info.cc_major,
                info.cc_minor, (double)info.mem_total / (1 << 30), info.driver_version, info.runtime_version,
                topo_pool_size(pool));
        fflush(md);
    }
    /* The points every MSM step shares: as many as the largest asks (a
     * partition repeats them). */
    unsigned gen_log = 0;
    for (int i = 0; i < nsteps; i++) {
        unsigned want = steps[i].kind == STEP_CHECK ? max_msm : steps[i].kind == STEP_MSM ? steps[i].log
                        : steps[i].kind == STEP_PARTITION ? (steps[i].part->log_m < 24 ? steps[i].part->log_m : 24)
                                                          : 0;
        gen_log = want > gen_log ? want : gen_log;
    }
    g1_affine_t *pts = NULL;
    if (gen_log) {
        uint64_t t0 = gm_now_ns();
        if (!(pts = gen_points((size_t)1 << gen_log, pool))) {
            fprintf(stderr, "gpu_check: out of memory for 2^%u points\n", gen_log);
            return 1;
        }
        printf("gpu_check: 2^%u points in %.1f s\n", gen_log, ms_since(t0) / 1e3);
        fflush(stdout);
    }
    for (int i = 0; i < nsteps; i++) {
        switch (steps[i].kind) {
        case STEP_PROBE:
            report(true, "device: %s, cc %d.%d, %.1f GiB", info.name, info.cc_major, info.cc_minor,
                   (double)info.mem_total / (1 << 30));
            break;
        case STEP_CHECK:
            check_msm(ctx, pts, max_msm, pool);
            check_ntt(ctx, max_ntt, pool);
            check_bn(ctx, max_msm < 20 ? max_msm : 20, max_ntt < 20 ? max_ntt : 20, pool);
            check_proof(ctx, proof_log, pool);
            break;
        case STEP_MSM: bench_msm(ctx, pts, steps[i].log); break;
        case STEP_NTT: bench_ntt(ctx, steps[i].log); break;
        case STEP_PARTITION: bench_partition(ctx, steps[i].part, pts, (size_t)1 << gen_log); break;
        }
    }
    gm_free(pts);
    gpu_destroy(ctx);
    topo_pool_destroy(pool);
    if (md) {
        fprintf(md, "\n%d check(s) failed.\n", failures);
        fclose(md);
    }
    printf("gpu_check: %d failed\n", failures);
    return failures ? 1 : 0;
}
