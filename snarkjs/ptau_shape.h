/*
 * snarkjs/ptau_shape.h — a prepared snarkjs powers-of-tau file (.ptau, as
 * `snarkjs powersoftau prepare phase2` leaves it) computed directly from
 * known toxic waste, for development and tests: `prepare phase2` needs hours
 * on BLS12-381 above 2^13 on two cores (one group iFFT per power in wasm),
 * while every point here is one fixed-base multiplication of the generator.
 * INSECURE by construction: whoever has the seed can forge proofs.
 *
 * A template, not a header, for every curve: snarkjs/ptau.c (BLS12-381)
 * and snarkjs/bn_ptau.c (BN254) include it once after snarkjs_internal.h,
 * having defined toxic_t (tau, alpha, beta in the curve's Fr),
 * toxic_from_seed, root_of_unity (ffjavascript's) and fixed_base (n
 * scalars times the generator of G1 or G2, affine, on a pool); it defines
 * ptau_write, which they wrap by name.
 *
 * Layout (snarkjs src/powersoftau_new.js, src/powersoftau_preparephase2.js),
 * N = 2^power, points LEM (Montgomery little-endian affine):
 *   1  u32 n8q, q[n8q], u32 power, u32 ceremonyPower (= power)
 *   2  tau^i G1, i < 2N - 1       3  tau^i G2, i < N
 *   4  alpha tau^i G1, i < N      5  beta tau^i G1, i < N      6  beta G2
 *   7  u32 0 (no contributions)
 *   12 for m = 0 .. power + 1: L_i^(2^m)(tau) G1, i < 2^m
 *   13 the same in G2, m <= power;  14 alpha L, 15 beta L in G1, m <= power
 * with L_i^(M) the Lagrange basis of the size-M domain of ffjavascript's
 * roots: L_i(tau) = (tau^M - 1) w^i / (M (tau - w^i)). (snarkjs's own block at
 * power + 1 lacks tau^(2N-1), which changes the H points but no proof; this
 * file has the exact block.)
 */
#ifndef SJ_CURVE
#error "ptau_shape.h is a template: include snarkjs/snarkjs_internal.h first and this once"
#endif

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

static void fp_le(uint8_t *out, const SJ_FP(t) *a)
{
    for (int i = 0; i < SJ_FP_LIMBS; i++)
        for (int k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(a->l[i] >> (8 * k));
}

/* Appends scalars[i] G (G1, or G2 when g2) for i < n, LEM-encoded. */
static int emit(ptau_out_t *o, bool g2, const SJ_FR(t) *scalars, size_t n)
{
    for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
        size_t cnt = n - i0 < CHUNK ? n - i0 : CHUNK;
        int rc = fixed_base(o->pts, g2, scalars + i0, cnt, o->pool, o->err);
        if (rc)
            return rc;
        size_t sz = g2 ? SJ_G2_BYTES : SJ_G1_BYTES;
        for (size_t i = 0; i < cnt; i++) {
            uint8_t *b = o->bytes + i * sz;
            if (g2) {
                const SJ_G2(affine_t) *p = (const SJ_G2(affine_t) *)o->pts + i;
                if (p->inf) {
                    memset(b, 0, SJ_G2_BYTES);
                    continue;
                }
                fp_le(b, &p->x.c0);
                fp_le(b + SJ_N8Q, &p->x.c1);
                fp_le(b + 2 * SJ_N8Q, &p->y.c0);
                fp_le(b + 3 * SJ_N8Q, &p->y.c1);
            } else {
                const SJ_G1(affine_t) *p = (const SJ_G1(affine_t) *)o->pts + i;
                if (p->inf) {
                    memset(b, 0, SJ_G1_BYTES);
                    continue;
                }
                fp_le(b, &p->x);
                fp_le(b + SJ_N8Q, &p->y);
            }
        }
        gm_afile_write(&o->w, o->bytes, cnt * sz);
    }
    return 0;
}

/* lag[i] = L_i^(M)(tau), M = 2^m, i < M. scratch holds M values. */
static int lagrange(SJ_FR(t) *lag, unsigned m, const SJ_FR(t) *tau, SJ_FR(t) *scratch, err_t *err)
{
    uint64_t M = 1ull << m;
    if (M == 1) {
        lag[0] = SJ_FR_ONE;
        return 0;
    }
    SJ_FR(t) w, wi = SJ_FR_ONE, zt, minv;
    root_of_unity(&w, m);
    SJ_FR(pow)(&zt, tau, &M, 1);
    SJ_FR(sub)(&zt, &zt, &SJ_FR_ONE);
    SJ_FR(set_u64)(&minv, M);
    SJ_FR(inv)(&minv, &minv);
    SJ_FR(mul)(&zt, &zt, &minv);
    for (uint64_t i = 0; i < M; i++) {
        SJ_FR(sub)(&lag[i], tau, &wi);
        if (SJ_FR(is_zero)(&lag[i]))
            return gm_err_set(err, GM_EINVAL, "ptau: tau is a root of unity; use another seed");
        SJ_FR(mul)(&wi, &wi, &w);
    }
    SJ_FR(batch_inv)(lag, lag, (size_t)M, scratch);
    wi = SJ_FR_ONE;
    for (uint64_t i = 0; i < M; i++) {
        SJ_FR(mul)(&lag[i], &lag[i], &wi);
        SJ_FR(mul)(&lag[i], &lag[i], &zt);
        SJ_FR(mul)(&wi, &wi, &w);
    }
    return 0;
}

static void scale(SJ_FR(t) *out, const SJ_FR(t) *in, const SJ_FR(t) *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        SJ_FR(mul)(&out[i], &in[i], k);
}

static int ptau_write(const char *path, unsigned power, const uint8_t seed[GROTH16_SEED_BYTES], topo_pool_t *pool,
                      err_t *err)
{
    if (power < 1 || power > 24)
        return gm_err_set(err, GM_EINVAL, "ptau: power %u is not in 1..24", power);
    toxic_t tw;
    int rc = toxic_from_seed(&tw, seed, err);
    if (rc)
        return rc;
    uint64_t N = 1ull << power, big = 2 * N; /* the largest block: 2N scalars */
    ptau_out_t o = {.pool = pool, .err = err};
    SJ_FR(t) *sc = gm_alloc((size_t)big * sizeof(SJ_FR(t)));
    SJ_FR(t) *sc2 = gm_alloc((size_t)big * sizeof(SJ_FR(t)));
    SJ_FR(t) *tmp = gm_alloc((size_t)big * sizeof(SJ_FR(t)));
    o.pts = gm_alloc(CHUNK * sizeof(SJ_G2(affine_t)));
    o.bytes = gm_alloc(CHUNK * SJ_G2_BYTES);
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
    put_section(&o.w, 1, 12 + SJ_N8Q);
    put_u32(&o.w, SJ_N8Q);
    gm_afile_write(&o.w, SJ_Q_BYTES, SJ_N8Q);
    put_u32(&o.w, power);
    put_u32(&o.w, power);
    /* 2..5: powers of tau */
    sc[0] = SJ_FR_ONE;
    for (uint64_t i = 1; i < big; i++)
        SJ_FR(mul)(&sc[i], &sc[i - 1], &tw.tau);
    put_section(&o.w, 2, (big - 1) * SJ_G1_BYTES);
    if ((rc = emit(&o, false, sc, (size_t)(big - 1))))
        goto fail;
    put_section(&o.w, 3, N * SJ_G2_BYTES);
    if ((rc = emit(&o, true, sc, (size_t)N)))
        goto fail;
    put_section(&o.w, 4, N * SJ_G1_BYTES);
    scale(sc2, sc, &tw.alpha, (size_t)N);
    if ((rc = emit(&o, false, sc2, (size_t)N)))
        goto fail;
    put_section(&o.w, 5, N * SJ_G1_BYTES);
    scale(sc2, sc, &tw.beta, (size_t)N);
    if ((rc = emit(&o, false, sc2, (size_t)N)))
        goto fail;
    /* 6: beta G2; 7: no contributions */
    put_section(&o.w, 6, SJ_G2_BYTES);
    if ((rc = emit(&o, true, &tw.beta, 1)))
        goto fail;
    put_section(&o.w, 7, 4);
    put_u32(&o.w, 0);
    /* 12..15: Lagrange blocks */
    static const unsigned ids[4] = {12, 13, 14, 15};
    for (int s = 0; s < 4; s++) {
        unsigned top = ids[s] == 12 ? power + 1 : power;
        bool g2 = ids[s] == 13;
        put_section(&o.w, ids[s], ((2ull << top) - 1) * (g2 ? SJ_G2_BYTES : SJ_G1_BYTES));
        for (unsigned m = 0; m <= top; m++) {
            size_t M = (size_t)1 << m;
            if ((rc = lagrange(sc, m, &tw.tau, tmp, err)))
                goto fail;
            const SJ_FR(t) *v = sc;
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

#undef CHUNK
