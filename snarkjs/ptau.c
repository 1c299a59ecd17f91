/*
 * snarkjs/ptau.c — a prepared snarkjs powers-of-tau file (.ptau, as
 * `snarkjs powersoftau prepare phase2` leaves it) computed directly from
 * known toxic waste, for development and tests: `prepare phase2` needs hours
 * on BLS12-381 above 2^13 on two cores (one group iFFT per power in wasm),
 * while every point here is one fixed-base multiplication of the generator.
 * INSECURE by construction: whoever has the seed can forge proofs.
 *
 * Layout (snarkjs src/powersoftau_new.js, src/powersoftau_preparephase2.js),
 * N = 2^power, points LEM (Montgomery little-endian affine):
 *   1  u32 48, q[48], u32 power, u32 ceremonyPower (= power)
 *   2  tau^i G1, i < 2N - 1       3  tau^i G2, i < N
 *   4  alpha tau^i G1, i < N      5  beta tau^i G1, i < N      6  beta G2
 *   7  u32 0 (no contributions)
 *   12 for m = 0 .. power + 1: L_i^(2^m)(tau) G1, i < 2^m
 *   13 the same in G2, m <= power;  14 alpha L, 15 beta L in G1, m <= power
 * with L_i^(M) the Lagrange basis of the size-M domain of ffjavascript's
 * roots (snarkjs_root_of_unity): L_i(tau) = (tau^M - 1) w^i / (M (tau - w^i)).
 * tau, alpha, beta are groth16_toxic_from_seed's. (snarkjs's own block at
 * power + 1 lacks tau^(2N-1), which changes the H points but no proof; this
 * file has the exact block.)
 */
#include "snarkjs/snarkjs_internal.h"

#define CHUNK ((size_t)1 << 16)

typedef struct {
    gm_afile_t w;
    topo_pool_t *pool;
    void *pts;      /* CHUNK G2 affine points */
    uint8_t *bytes; /* CHUNK * 192 */
    err_t *err;
} ptau_out_t;

static void put_u32(gm_afile_t *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    gm_afile_write(w, b, 4);
}

static void put_section(gm_afile_t *w, uint32_t id, uint64_t size)
{
    put_u32(w, id);
    put_u32(w, (uint32_t)size);
    put_u32(w, (uint32_t)(size >> 32));
}

static void fp_le(uint8_t *out, const fp_t *a)
{
    for (int i = 0; i < FP_LIMBS; i++)
        for (int k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(a->l[i] >> (8 * k));
}

/* Appends scalars[i] G (G1, or G2 when g2) for i < n, LEM-encoded. */
static int emit(ptau_out_t *o, bool g2, const fr_t *scalars, size_t n)
{
    for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
        size_t cnt = n - i0 < CHUNK ? n - i0 : CHUNK;
        int rc = groth16_fixed_base_gen(o->pts, g2, scalars + i0, cnt, o->pool, o->err);
        if (rc)
            return rc;
        size_t sz = g2 ? 192 : 96;
        for (size_t i = 0; i < cnt; i++) {
            uint8_t *b = o->bytes + i * sz;
            if (g2) {
                const g2_affine_t *p = (const g2_affine_t *)o->pts + i;
                if (p->inf) {
                    memset(b, 0, 192);
                    continue;
                }
                fp_le(b, &p->x.c0);
                fp_le(b + 48, &p->x.c1);
                fp_le(b + 96, &p->y.c0);
                fp_le(b + 144, &p->y.c1);
            } else {
                const g1_affine_t *p = (const g1_affine_t *)o->pts + i;
                if (p->inf) {
                    memset(b, 0, 96);
                    continue;
                }
                fp_le(b, &p->x);
                fp_le(b + 48, &p->y);
            }
        }
        gm_afile_write(&o->w, o->bytes, cnt * sz);
    }
    return 0;
}

/* lag[i] = L_i^(M)(tau), M = 2^m, i < M. scratch holds M values. */
static int lagrange(fr_t *lag, unsigned m, const fr_t *tau, fr_t *scratch, err_t *err)
{
    uint64_t M = 1ull << m;
    if (M == 1) {
        lag[0] = FR_ONE;
        return 0;
    }
    fr_t w, wi = FR_ONE, zt, minv;
    snarkjs_root_of_unity(&w, m);
    fr_pow(&zt, tau, &M, 1);
    fr_sub(&zt, &zt, &FR_ONE);
    fr_set_u64(&minv, M);
    fr_inv(&minv, &minv);
    fr_mul(&zt, &zt, &minv);
    for (uint64_t i = 0; i < M; i++) {
        fr_sub(&lag[i], tau, &wi);
        if (fr_is_zero(&lag[i]))
            return gm_err_set(err, GM_EINVAL, "ptau: tau is a root of unity; use another seed");
        fr_mul(&wi, &wi, &w);
    }
    fr_batch_inv(lag, lag, (size_t)M, scratch);
    wi = FR_ONE;
    for (uint64_t i = 0; i < M; i++) {
        fr_mul(&lag[i], &lag[i], &wi);
        fr_mul(&lag[i], &lag[i], &zt);
        fr_mul(&wi, &wi, &w);
    }
    return 0;
}

static void scale(fr_t *out, const fr_t *in, const fr_t *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fr_mul(&out[i], &in[i], k);
}

int snarkjs_ptau_write(const char *path, unsigned power, const uint8_t seed[GROTH16_SEED_BYTES], topo_pool_t *pool,
                       err_t *err)
{
    if (power < 1 || power > 24)
        return gm_err_set(err, GM_EINVAL, "ptau: power %u is not in 1..24", power);
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, seed);
    uint64_t N = 1ull << power, big = 2 * N; /* the largest block: 2N scalars */
    ptau_out_t o = {.pool = pool, .err = err};
    fr_t *sc = gm_alloc((size_t)big * sizeof(fr_t));
    fr_t *sc2 = gm_alloc((size_t)big * sizeof(fr_t));
    fr_t *tmp = gm_alloc((size_t)big * sizeof(fr_t));
    o.pts = gm_alloc(CHUNK * sizeof(g2_affine_t));
    o.bytes = gm_alloc(CHUNK * 192);
    int rc = 0;
    if (!sc || !sc2 || !tmp || !o.pts || !o.bytes) {
        rc = gm_err_set(err, GM_ENOMEM, "ptau: out of memory for power %u", power);
        goto done;
    }
    if ((rc = gm_afile_open(&o.w, path, 0, err)))
        goto done;
    gm_afile_write(&o.w, "ptau", 4);
    put_u32(&o.w, 1);
    put_u32(&o.w, 11);
    /* 1: header */
    put_section(&o.w, 1, 60);
    put_u32(&o.w, 48);
    gm_afile_write(&o.w, SJ_Q_LE, 48);
    put_u32(&o.w, power);
    put_u32(&o.w, power);
    /* 2..5: powers of tau */
    sc[0] = FR_ONE;
    for (uint64_t i = 1; i < big; i++)
        fr_mul(&sc[i], &sc[i - 1], &tw.tau);
    put_section(&o.w, 2, (big - 1) * 96);
    if ((rc = emit(&o, false, sc, (size_t)(big - 1))))
        goto fail;
    put_section(&o.w, 3, N * 192);
    if ((rc = emit(&o, true, sc, (size_t)N)))
        goto fail;
    put_section(&o.w, 4, N * 96);
    scale(sc2, sc, &tw.alpha, (size_t)N);
    if ((rc = emit(&o, false, sc2, (size_t)N)))
        goto fail;
    put_section(&o.w, 5, N * 96);
    scale(sc2, sc, &tw.beta, (size_t)N);
    if ((rc = emit(&o, false, sc2, (size_t)N)))
        goto fail;
    /* 6: beta G2; 7: no contributions */
    put_section(&o.w, 6, 192);
    if ((rc = emit(&o, true, &tw.beta, 1)))
        goto fail;
    put_section(&o.w, 7, 4);
    put_u32(&o.w, 0);
    /* 12..15: Lagrange blocks */
    static const unsigned ids[4] = {12, 13, 14, 15};
    for (int s = 0; s < 4; s++) {
        unsigned top = ids[s] == 12 ? power + 1 : power;
        bool g2 = ids[s] == 13;
        put_section(&o.w, ids[s], ((2ull << top) - 1) * (g2 ? 192 : 96));
        for (unsigned m = 0; m <= top; m++) {
            size_t M = (size_t)1 << m;
            if ((rc = lagrange(sc, m, &tw.tau, tmp, err)))
                goto fail;
            const fr_t *v = sc;
            if (ids[s] == 14 || ids[s] == 15) {
                scale(sc2, sc, ids[s] == 14 ? &tw.alpha : &tw.beta, M);
                v = sc2;
            }
            if ((rc = emit(&o, g2, v, M)))
                goto fail;
        }
    }
    rc = gm_afile_commit(&o.w, err);
    goto done;
fail:
    gm_afile_abort(&o.w);
done:
    gm_free(sc);
    gm_free(sc2);
    gm_free(tmp);
    gm_free(o.pts);
    gm_free(o.bytes);
    return rc;
}
