/*
 * gpu/gpu_field.cuh — Montgomery arithmetic over 32-bit limbs and the G1
 * XYZZ point formulas, for both curves: BLS12-381 (Fp 12 limbs, Fr 8) and
 * BN254 (Fp 8 limbs, Fr 8), each field a cfg struct (its modulus, R mod m,
 * -m^-1 mod 2^32) and each curve a struct naming its two (gpu_bls12_381,
 * gpu_bn254) that the templates of gpu_pipe.cuh take. Written once as
 * __host__ __device__ code: nvcc compiles it into the kernels of
 * gpu_cuda.cu, and g++ compiles the very same text into the host emulation
 * of gpu_emu.cc, which the unit tests check against ff/ and ec/ on a machine
 * without a GPU.
 *
 * Representation: the limbs of ff/ff.h's fp_t / fr_t (bn_fp_t / bn_fr_t)
 * read as 32-bit words (little-endian), i.e. Montgomery form with R =
 * 2^(32 N) (2^384 for BLS12-381's Fp, 2^256 for the others), fully reduced
 * (< m) between functions. The N x 32 and N/2 x 64 limb layouts are the
 * same bytes on a little-endian machine, so points and scalars travel
 * between host and device with plain copies. Both curves are y^2 = x^3 + b
 * (a = 0), so one set of point formulas serves both; b is never used.
 *
 * Contracts (every function): inputs reduced, outputs reduced, any output
 * may alias any input. Not constant time (as ff/).
 */
#ifndef GM_GPU_FIELD_CUH
#define GM_GPU_FIELD_CUH

#include <stddef.h>
#include <stdint.h>

/* GPU_HD: inlined everywhere (field operations and the point formulas).
 * GPU_HD_RARE: a formula's rare branch (p = q inside an addition, the small
 * scalar multiple of a window segment) as one out-of-line device function:
 * its argument copies live in local memory, but the caller's accumulators
 * never have their address taken, so they stay in registers, and each
 * kernel inlines only the formulas of its hot loop (ptxas time, code size). */
#ifdef __CUDACC__
#define GPU_HD __host__ __device__ __forceinline__
#define GPU_HD_RARE static __host__ __device__ __noinline__
#else
#define GPU_HD inline
#define GPU_HD_RARE inline
#endif
/* Unrolled limb loops in the device pass only (the host compiler of nvcc
 * and g++ do not know the pragma). */
#ifdef __CUDA_ARCH__
#define GPU_UNROLL _Pragma("unroll")
#else
#define GPU_UNROLL
#endif

/* ---- moduli ------------------------------------------------------------------------ */

/* p and r as 32-bit limbs, -m^-1 mod 2^32, and 1 in Montgomery form (R mod m).
 * The unit tests compare these with ff/'s moduli and ones (FP_MODULUS,
 * FR_MODULUS, FP_ONE, FR_ONE; BN254's BN254_FP_ONE, BN254_FR_ONE and the
 * moduli of its from_limbs checks). */
struct gpu_fp_cfg {
    enum { N = 12 };
    GPU_HD static uint32_t m(int i)
    {
        const uint32_t P[12] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,
                                0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
        return P[i];
    }
    GPU_HD static uint32_t one(int i)
    {
        const uint32_t O[12] = {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u,
                                0x70525745u, 0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u};
        return O[i];
    }
    static const uint32_t inv = 0xfffcfffdu;
};

struct gpu_fr_cfg {
    enum { N = 8 };
    GPU_HD static uint32_t m(int i)
    {
        const uint32_t R[8] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                               0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
        return R[i];
    }
    GPU_HD static uint32_t one(int i)
    {
        const uint32_t O[8] = {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau,
                               0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u};
        return O[i];
    }
    static const uint32_t inv = 0xffffffffu;
};

struct gpu_bnfp_cfg {
    enum { N = 8 };
    GPU_HD static uint32_t m(int i)
    {
        const uint32_t P[8] = {0xd87cfd47u, 0x3c208c16u, 0x6871ca8du, 0x97816a91u,
                               0x8181585du, 0xb85045b6u, 0xe131a029u, 0x30644e72u};
        return P[i];
    }
    GPU_HD static uint32_t one(int i)
    {
        const uint32_t O[8] = {0xc58f0d9du, 0xd35d438du, 0xf5c70b3du, 0x0a78eb28u,
                               0x7879462cu, 0x666ea36fu, 0x9a07df2fu, 0x0e0a77c1u};
        return O[i];
    }
    static const uint32_t inv = 0xe4866389u;
};

struct gpu_bnfr_cfg {
    enum { N = 8 };
    GPU_HD static uint32_t m(int i)
    {
        const uint32_t R[8] = {0xf0000001u, 0x43e1f593u, 0x79b97091u, 0x2833e848u,
                               0x8181585du, 0xb85045b6u, 0xe131a029u, 0x30644e72u};
        return R[i];
    }
    GPU_HD static uint32_t one(int i)
    {
        const uint32_t O[8] = {0x4ffffffbu, 0xac96341cu, 0x9f60cd29u, 0x36fc7695u,
                               0x7879462eu, 0x666ea36fu, 0x9a07df2fu, 0x0e0a77c1u};
        return O[i];
    }
    static const uint32_t inv = 0xefffffffu;
};

/* One shape for both fields (blst's habit: the kernel takes its modulus from
 * the instantiation, not a copy per field). */
template <class C> struct gpu_mont {
    uint32_t l[C::N];
};


template <class C> GPU_HD void gf_zero(gpu_mont<C> &o)
{
    GPU_UNROLL for (int i = 0; i < C::N; i++) o.l[i] = 0;
}

template <class C> GPU_HD void gf_one(gpu_mont<C> &o)
{
    GPU_UNROLL for (int i = 0; i < C::N; i++) o.l[i] = C::one(i);
}

template <class C> GPU_HD bool gf_is_zero(const gpu_mont<C> &a)
{
    uint32_t acc = 0;
    GPU_UNROLL for (int i = 0; i < C::N; i++) acc |= a.l[i];
    return acc == 0;
}

template <class C> GPU_HD bool gf_eq(const gpu_mont<C> &a, const gpu_mont<C> &b)
{
    uint32_t acc = 0;
    GPU_UNROLL for (int i = 0; i < C::N; i++) acc |= a.l[i] ^ b.l[i];
    return acc == 0;
}

/* ---- carry chains ---------------------------------------------------------------------- */

/* The PTX carry instructions, with the carry flag made explicit for the host.
 * (1) Why: the device's 32-bit multiply-add with carry-in/carry-out
 *     (mad.lo.cc / madc.hi.cc) adds a partial product and a carry in one
 *     IMAD, where 64-bit C arithmetic needs a wide multiply, an add and a
 *     shift per limb; the field code below is written once over these
 *     members, so the host emulation runs the very instruction sequence the
 *     device runs (the host twin), and the unit tests check it against ff/.
 * (2) Invariants: on the device each member is one PTX instruction reading or
 *     writing the implicit CC.CF; `asm volatile` keeps the chain's order, and
 *     no code between two links of a chain sets CC (the front end writes no
 *     .cc instruction of its own: its 64-bit adds stay add.s64 in the PTX,
 *     and ptxas, which allocates the flag, sees the whole chain). On the
 *     host cf is that flag, 0 or 1; for sub.cc / subc it is the borrow, as
 *     in PTX. `_cc` writes the flag, `c` in the name (madc, addc, subc)
 *     reads it.
 * (3) The instruction counts of the products are in docs/gpu.md ("Kernels:
 *     predicted times"). */
struct gpu_cc {
    uint32_t cf;
#ifdef __CUDA_ARCH__
#define GPU_CC3(name, ins)                                                                                   \
    __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b, uint32_t c)                             \
    {                                                                                                        \
        uint32_t r;                                                                                          \
        asm volatile(ins " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));                             \
        return r;                                                                                            \
    }
#define GPU_CC2(name, ins)                                                                                   \
    __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b)                                         \
    {                                                                                                        \
        uint32_t r;                                                                                          \
        asm volatile(ins " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));                                         \
        return r;                                                                                            \
    }
    GPU_CC3(mad_lo_cc, "mad.lo.cc.u32")
    GPU_CC3(madc_lo_cc, "madc.lo.cc.u32")
    GPU_CC3(mad_hi_cc, "mad.hi.cc.u32")
    GPU_CC3(madc_hi_cc, "madc.hi.cc.u32")
    GPU_CC3(madc_hi, "madc.hi.u32")
    GPU_CC2(add_cc, "add.cc.u32")
    GPU_CC2(addc_cc, "addc.cc.u32")
    GPU_CC2(addc, "addc.u32")
    GPU_CC2(sub_cc, "sub.cc.u32")
    GPU_CC2(subc_cc, "subc.cc.u32")
    GPU_CC2(subc, "subc.u32")
#undef GPU_CC3
#undef GPU_CC2
#else
    /* lo/hi: the low or high word of a * b; c_in: whether the flag is read. */
    uint32_t mad(uint32_t a, uint32_t b, uint32_t c, bool hi, bool c_in, bool c_out)
    {
        uint64_t p = (uint64_t)a * b;
        uint64_t x = (hi ? p >> 32 : (uint32_t)p) + (uint64_t)c + (c_in ? cf : 0);
        if (c_out)
            cf = (uint32_t)(x >> 32);
        return (uint32_t)x;
    }
    uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return mad(a, b, c, false, false, true); }
    uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return mad(a, b, c, false, true, true); }
    uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return mad(a, b, c, true, false, true); }
    uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return mad(a, b, c, true, true, true); }
    uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) { return mad(a, b, c, true, true, false); }
    uint32_t add(uint32_t a, uint32_t b, bool c_in, bool c_out)
    {
        uint64_t x = (uint64_t)a + b + (c_in ? cf : 0);
        if (c_out)
            cf = (uint32_t)(x >> 32);
        return (uint32_t)x;
    }
    uint32_t add_cc(uint32_t a, uint32_t b) { return add(a, b, false, true); }
    uint32_t addc_cc(uint32_t a, uint32_t b) { return add(a, b, true, true); }
    uint32_t addc(uint32_t a, uint32_t b) { return add(a, b, true, false); }
    uint32_t sub(uint32_t a, uint32_t b, bool c_in, bool c_out)
    {
        uint64_t x = (uint64_t)a - b - (c_in ? cf : 0);
        if (c_out)
            cf = (uint32_t)(x >> 63);
        return (uint32_t)x;
    }
    uint32_t sub_cc(uint32_t a, uint32_t b) { return sub(a, b, false, true); }
    uint32_t subc_cc(uint32_t a, uint32_t b) { return sub(a, b, true, true); }
    uint32_t subc(uint32_t a, uint32_t b) { return sub(a, b, true, false); }
#endif
};

/* t -= m when t >= m; t < 2m on entry (hi: the carry limb above N limbs,
 * 0 or 1). */
template <class C> GPU_HD void gf_reduce_once(gpu_mont<C> &o, const uint32_t *t, uint32_t hi)
{
    uint32_t d[C::N];
    gpu_cc cc;
    d[0] = cc.sub_cc(t[0], C::m(0));
    GPU_UNROLL for (int i = 1; i < C::N; i++) d[i] = cc.subc_cc(t[i], C::m(i));
    /* hi:t - m >= 0 exactly when the borrow is absorbed by hi: top = 0;
     * otherwise top wraps to all ones. */
    const uint32_t top = cc.subc(hi, 0);
    GPU_UNROLL for (int i = 0; i < C::N; i++) o.l[i] = top == 0 ? d[i] : t[i];
}

template <class C> GPU_HD void gf_add(gpu_mont<C> &o, const gpu_mont<C> &a, const gpu_mont<C> &b)
{
    uint32_t t[C::N];
    gpu_cc cc;
    t[0] = cc.add_cc(a.l[0], b.l[0]);
    GPU_UNROLL for (int i = 1; i < C::N; i++) t[i] = cc.addc_cc(a.l[i], b.l[i]);
    const uint32_t hi = cc.addc(0, 0);
    gf_reduce_once(o, t, hi);
}

template <class C> GPU_HD void gf_sub(gpu_mont<C> &o, const gpu_mont<C> &a, const gpu_mont<C> &b)
{
    uint32_t t[C::N];
    gpu_cc cc;
    t[0] = cc.sub_cc(a.l[0], b.l[0]);
    GPU_UNROLL for (int i = 1; i < C::N; i++) t[i] = cc.subc_cc(a.l[i], b.l[i]);
    /* a - b < 0: all ones, and m is added back (the wrapped value plus m
     * fits N limbs; the carry out is dropped). */
    const uint32_t mask = cc.subc(0, 0);
    o.l[0] = cc.add_cc(t[0], C::m(0) & mask);
    GPU_UNROLL for (int i = 1; i < C::N - 1; i++) o.l[i] = cc.addc_cc(t[i], C::m(i) & mask);
    o.l[C::N - 1] = cc.addc(t[C::N - 1], C::m(C::N - 1) & mask);
}

template <class C> GPU_HD void gf_neg(gpu_mont<C> &o, const gpu_mont<C> &a)
{
    gpu_mont<C> z;
    gf_zero(z);
    gf_sub(o, z, a);
}

template <class C> GPU_HD void gf_dbl(gpu_mont<C> &o, const gpu_mont<C> &a) { gf_add(o, a, a); }

/* Montgomery multiplication: CIOS over 32-bit limbs in carry chains.
 * (1) Why this shape: each row adds a * b_i and q * m as two chains each, the
 *     low words of the partial products (mad.lo / madc.lo) at limb j and
 *     their high words (mad.hi / madc.hi) at limb j + 1, so every partial
 *     product costs two IMADs and no separate carry handling; the division
 *     by 2^32 is folded into the reduction chains (they write limb j - 1),
 *     and one row keeps N + 1 accumulator words in registers (no 2N-word
 *     product). 4N^2 + 3N multiply-adds in all: 612 for BLS12-381's Fp,
 *     280 for the 8-limb fields.
 * (2) Invariants: a, b < m < 2^(32N - 1) for both moduli. At the start of a
 *     row t < 2m < 2^(32N), so t[N] = 0; t + a b_i + q m < 2^(32N + 32)
 *     fits the N + 1 words, so the chains' last steps (addc, madc.hi
 *     without .cc) cannot carry out; after the row t < 2m again (CIOS's
 *     bound), and gf_reduce_once brings it below m. (BN254's p and r
 *     are below 2^254.)
 * (3) The instruction counts and the predicted rate are in docs/gpu.md
 *     ("Kernels: predicted times"); tools/gpu-check/run.sh measures the kernels. */
/* The host emulation's choice of multiplication (gpu_emu.cc): false, the
 * carry chains below (the host twin of the device's instructions, what the
 * gpu/ unit tests check); true, ff/'s 64-bit multiplication of the same
 * Montgomery values (same bytes, same R, fully reduced, so the same result),
 * several times faster on a CPU: what the prover's emulated devices use, so
 * that a test can prove a 2^22-row circuit through the emulated pipelines. */
#if !defined(__CUDACC__) && defined(GPU_EMU_HOST)
extern bool gpu_emu_host_field;
/* ff/'s multiplication of the field of the argument type (gpu_emu.cc). */
void gpu_emu_mul(gpu_mont<gpu_fp_cfg> &o, const gpu_mont<gpu_fp_cfg> &a, const gpu_mont<gpu_fp_cfg> &b);
void gpu_emu_mul(gpu_mont<gpu_fr_cfg> &o, const gpu_mont<gpu_fr_cfg> &a, const gpu_mont<gpu_fr_cfg> &b);
void gpu_emu_mul(gpu_mont<gpu_bnfp_cfg> &o, const gpu_mont<gpu_bnfp_cfg> &a, const gpu_mont<gpu_bnfp_cfg> &b);
void gpu_emu_mul(gpu_mont<gpu_bnfr_cfg> &o, const gpu_mont<gpu_bnfr_cfg> &a, const gpu_mont<gpu_bnfr_cfg> &b);
#endif

template <class C> GPU_HD void gf_mul_cc(gpu_mont<C> &o, const gpu_mont<C> &a, const gpu_mont<C> &b)
{
    const int N = C::N;
    /* Inputs into registers first: the compiler does not move a load across
     * a volatile asm, so an input in global memory would be read again by
     * every row. */
    uint32_t x[N], y[N], t[N + 1];
    GPU_UNROLL for (int i = 0; i < N; i++) {
        x[i] = a.l[i];
        y[i] = b.l[i];
    }
    gpu_cc cc;
    GPU_UNROLL for (int i = 0; i < N + 1; i++) t[i] = 0;
    GPU_UNROLL for (int i = 0; i < N; i++) {
        const uint32_t bi = y[i];
        /* t += a b_i: low words at limb j, the carry into t[N] (0 before). */
        t[0] = cc.mad_lo_cc(x[0], bi, t[0]);
        GPU_UNROLL for (int j = 1; j < N; j++) t[j] = cc.madc_lo_cc(x[j], bi, t[j]);
        t[N] = cc.addc(t[N], 0);
        /* high words at limb j + 1. */
        t[1] = cc.mad_hi_cc(x[0], bi, t[1]);
        GPU_UNROLL for (int j = 1; j < N - 1; j++) t[j + 1] = cc.madc_hi_cc(x[j], bi, t[j + 1]);
        t[N] = cc.madc_hi(x[N - 1], bi, t[N]);
        /* t = (t + q m) / 2^32 with t + q m = 0 mod 2^32: the low word of
         * limb 0 is dropped (only its carry counts), every other limb moves
         * down one. */
        const uint32_t q = t[0] * C::inv;
        (void)cc.mad_lo_cc(q, C::m(0), t[0]);
        GPU_UNROLL for (int j = 1; j < N; j++) t[j - 1] = cc.madc_lo_cc(q, C::m(j), t[j]);
        t[N - 1] = cc.addc(t[N], 0);
        t[0] = cc.mad_hi_cc(q, C::m(0), t[0]);
        GPU_UNROLL for (int j = 1; j < N - 1; j++) t[j] = cc.madc_hi_cc(q, C::m(j), t[j]);
        t[N - 1] = cc.madc_hi(q, C::m(N - 1), t[N - 1]);
        t[N] = 0;
    }
    gf_reduce_once(o, t, 0);
}

template <class C> GPU_HD void gf_mul(gpu_mont<C> &o, const gpu_mont<C> &a, const gpu_mont<C> &b)
{
#if !defined(__CUDACC__) && defined(GPU_EMU_HOST)
    if (gpu_emu_host_field) {
        gpu_emu_mul(o, a, b);
        return;
    }
#endif
    gf_mul_cc(o, a, b);
}

template <class C> GPU_HD void gf_sqr(gpu_mont<C> &o, const gpu_mont<C> &a) { gf_mul(o, a, a); }

/* Montgomery form -> plain integer limbs (a * R^-1 mod m): a product with the
 * integer 1. */
template <class C> GPU_HD void gf_from_mont(gpu_mont<C> &o, const gpu_mont<C> &a)
{
    gpu_mont<C> one;
    gf_zero(one);
    one.l[0] = 1;
    gf_mul(o, a, one);
}

/* ---- G1 ----------------------------------------------------------------------------- */

/* The point formulas take the curve's Fp cfg P. */

/* An affine base as it lives in device memory: Montgomery x, y (96 bytes on
 * BLS12-381, 64 on BN254). The point at infinity is stored as x = y = 0,
 * which is on neither curve (y = 0 would need x^3 = -b, and neither E(Fp)
 * has a point of order 2). */
template <class P> struct gpu_g1_aff {
    gpu_mont<P> x, y;
};

/* XYZZ: x = X/ZZ, y = Y/ZZZ, identity ZZ = 0; the same bytes as ec/'s
 * g1_xyzz_t (192) and bn_g1_xyzz_t (128). */
template <class P> struct gpu_g1_xyzz {
    gpu_mont<P> x, y, zz, zzz;
};

/* A curve: its two fields and the device types over them. */
template <class FP, class FR> struct gpu_curve {
    typedef FP fp_cfg;
    typedef gpu_mont<FR> fr;
    typedef gpu_g1_aff<FP> aff;
    typedef gpu_g1_xyzz<FP> xyzz;
};
typedef gpu_curve<gpu_fp_cfg, gpu_fr_cfg> gpu_bls12_381;
typedef gpu_curve<gpu_bnfp_cfg, gpu_bnfr_cfg> gpu_bn254;

template <class P> GPU_HD void g1x_set_inf(gpu_g1_xyzz<P> &o)
{
    gf_zero(o.x);
    gf_zero(o.y);
    gf_zero(o.zz);
    gf_zero(o.zzz);
}

template <class P> GPU_HD bool g1x_is_inf(const gpu_g1_xyzz<P> &p) { return gf_is_zero(p.zz); }

template <class P> GPU_HD bool g1a_is_inf(const gpu_g1_aff<P> &p) { return gf_is_zero(p.x) && gf_is_zero(p.y); }

/* o = 2p, p XYZZ (dbl-2008-s-1, a = 0): 6M + 3S... counted as 9M. Handles
 * the identity (ZZ = 0 stays 0). */
template <class P> GPU_HD void g1x_dbl(gpu_g1_xyzz<P> &o, const gpu_g1_xyzz<P> &p)
{
    gpu_mont<P> u, v, w, s, m, t;
    gf_dbl(u, p.y);          /* U = 2Y */
    gf_sqr(v, u);            /* V = U^2 */
    gf_mul(w, u, v);         /* W = U V */
    gf_mul(s, p.x, v);       /* S = X V */
    gf_sqr(m, p.x);
    gf_add(t, m, m);
    gf_add(m, t, m);         /* M = 3 X^2 */
    gpu_g1_xyzz<P> r;
    gf_sqr(r.x, m);
    gf_sub(r.x, r.x, s);
    gf_sub(r.x, r.x, s);     /* X3 = M^2 - 2S */
    gf_sub(t, s, r.x);
    gf_mul(t, m, t);
    gf_mul(r.y, w, p.y);
    gf_sub(r.y, t, r.y);     /* Y3 = M (S - X3) - W Y */
    gf_mul(r.zz, v, p.zz);   /* ZZ3 = V ZZ */
    gf_mul(r.zzz, w, p.zzz); /* ZZZ3 = W ZZZ */
    o = r;
}

/* g1x_dbl out of line, for the p = q branches of the additions (copies in,
 * copy out: see GPU_HD_RARE). */
template <class P> GPU_HD_RARE void g1x_dbl_rare(gpu_g1_xyzz<P> &o, const gpu_g1_xyzz<P> p)
{
    gpu_g1_xyzz<P> r;
    g1x_dbl(r, p);
    o = r;
}

/* o = p + q, q affine (madd-2008-s): 8M + 2S. Handles p = identity, q =
 * identity (x = y = 0), p = q (doubling) and p = -q (identity). */
template <class P> GPU_HD void g1x_add_aff(gpu_g1_xyzz<P> &o, const gpu_g1_xyzz<P> &p, const gpu_g1_aff<P> &q)
{
    if (g1a_is_inf(q)) {
        o = p;
        return;
    }
    if (g1x_is_inf(p)) {
        o.x = q.x;
        o.y = q.y;
        gf_one(o.zz);
        gf_one(o.zzz);
        return;
    }
    gpu_mont<P> u2, s2, pp, ppp, r, qq, t;
    gf_mul(u2, q.x, p.zz);
    gf_mul(s2, q.y, p.zzz);
    gf_sub(pp, u2, p.x);      /* P = U2 - X1 */
    gf_sub(r, s2, p.y);       /* R = S2 - Y1 */
    if (gf_is_zero(pp)) {
        if (gf_is_zero(r)) {  /* p == q: double q (mdbl, ZZ = ZZZ = 1 folded in) */
            gpu_g1_xyzz<P> qx;
            qx.x = q.x;
            qx.y = q.y;
            gf_one(qx.zz);
            gf_one(qx.zzz);
            gpu_g1_xyzz<P> d;
            g1x_dbl_rare(d, qx);
            o = d;
        } else {              /* p == -q */
            g1x_set_inf(o);
        }
        return;
    }
    gpu_g1_xyzz<P> res;
    gf_sqr(t, pp);            /* PP */
    gf_mul(ppp, pp, t);       /* PPP = P PP */
    gf_mul(qq, p.x, t);       /* Q = X1 PP */
    gf_mul(res.zz, p.zz, t);  /* ZZ3 = ZZ1 PP */
    gf_mul(res.zzz, p.zzz, ppp);
    gf_sqr(res.x, r);
    gf_sub(res.x, res.x, ppp);
    gf_sub(res.x, res.x, qq);
    gf_sub(res.x, res.x, qq); /* X3 = R^2 - PPP - 2Q */
    gf_sub(t, qq, res.x);
    gf_mul(t, r, t);
    gf_mul(u2, p.y, ppp);
    gf_sub(res.y, t, u2);     /* Y3 = R (Q - X3) - Y1 PPP */
    o = res;
}

/* o = p + q, both XYZZ (add-2008-s): 12M + 2S. Handles identities, p = q and
 * p = -q. */
template <class P> GPU_HD void g1x_add(gpu_g1_xyzz<P> &o, const gpu_g1_xyzz<P> &p, const gpu_g1_xyzz<P> &q)
{
    if (g1x_is_inf(q)) {
        o = p;
        return;
    }
    if (g1x_is_inf(p)) {
        o = q;
        return;
    }
    gpu_mont<P> u1, u2, s1, s2, pp, r, t, ppp, qq;
    gf_mul(u1, p.x, q.zz);
    gf_mul(u2, q.x, p.zz);
    gf_mul(s1, p.y, q.zzz);
    gf_mul(s2, q.y, p.zzz);
    gf_sub(pp, u2, u1);
    gf_sub(r, s2, s1);
    if (gf_is_zero(pp)) {
        if (gf_is_zero(r)) {
            gpu_g1_xyzz<P> d;
            g1x_dbl_rare(d, p);
            o = d;
        } else {
            g1x_set_inf(o);
        }
        return;
    }
    gpu_g1_xyzz<P> res;
    gf_sqr(t, pp);
    gf_mul(ppp, pp, t);
    gf_mul(qq, u1, t);
    gf_mul(res.zz, p.zz, q.zz);
    gf_mul(res.zz, res.zz, t);
    gf_mul(res.zzz, p.zzz, q.zzz);
    gf_mul(res.zzz, res.zzz, ppp);
    gf_sqr(res.x, r);
    gf_sub(res.x, res.x, ppp);
    gf_sub(res.x, res.x, qq);
    gf_sub(res.x, res.x, qq);
    gf_sub(t, qq, res.x);
    gf_mul(t, r, t);
    gf_mul(u2, s1, ppp);
    gf_sub(res.y, t, u2);
    o = res;
}

/* o = k p for a small non-negative integer k (< 2^32), double-and-add from
 * the top bit; k = 0 gives the identity. Once per window segment: out of
 * line. */
template <class P> GPU_HD_RARE void g1x_mul_small(gpu_g1_xyzz<P> &o, const gpu_g1_xyzz<P> p, uint32_t k)
{
    gpu_g1_xyzz<P> acc;
    g1x_set_inf(acc);
    for (int b = 31; b >= 0; b--) {
        if (!g1x_is_inf(acc))
            g1x_dbl(acc, acc);
        if ((k >> b) & 1)
            g1x_add(acc, acc, p);
    }
    o = acc;
}

#endif /* GM_GPU_FIELD_CUH */
