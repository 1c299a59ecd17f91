/*
 * groth16/setup.c — a (non-ceremony) Groth16 setup from a recorded shape, by
 * bellperson's method (generator.rs), streamed to a parameter file.
 *
 * Steps, all deterministic in the seed:
 *  1. tau, alpha, beta, gamma, delta from SHA-256 of the seed (toxic waste);
 *  2. tau^i for i < m (tasks on the pool), then the inverse NTT of that
 *     vector: L_i(tau), the Lagrange basis of the size-m domain at tau;
 *  3. u_j, v_j, w_j (the QAP columns at tau): one pass over each CSR matrix
 *     scattering coeff * L_row(tau) into the column's sum (the three
 *     matrices are three tasks; a matrix is one task because two rows may
 *     hit the same column);
 *  4. every query point is scalar * G with fixed-base window tables (8-bit
 *     windows, 32 x 255 affine multiples of G per group: one mixed addition
 *     per non-zero byte of the scalar), in chunks of CHUNK points split into
 *     tasks of TASK points that normalise with one inversion and serialise
 *     into the chunk's bytes, which are then appended to the file. Memory
 *     holds the scalar vectors (4 x 32 bytes per variable or row) and one
 *     chunk of encoded points, never a whole query.
 */
#include <openssl/sha.h>
#include <string.h>

#include "groth16/groth16_internal.h"
#include "ntt/ntt.h"

/* ---- toxic waste ---------------------------------------------------------------------- */

static void derive(fr_t *out, const uint8_t seed[GROTH16_SEED_BYTES], const char *label)
{
    for (uint32_t ctr = 0;; ctr++) {
        uint8_t wide[64];
        for (uint8_t half = 0; half < 2; half++) {
            uint8_t msg[GROTH16_SEED_BYTES + 64];
            size_t n = 0;
            memcpy(msg, seed, GROTH16_SEED_BYTES);
            n += GROTH16_SEED_BYTES;
            static const char dom[] = "grothmpi-groth16-setup-v1/";
            memcpy(msg + n, dom, sizeof dom - 1);
            n += sizeof dom - 1;
            size_t ll = strlen(label);
            memcpy(msg + n, label, ll);
            n += ll;
            msg[n++] = (uint8_t)(ctr >> 24);
            msg[n++] = (uint8_t)(ctr >> 16);
            msg[n++] = (uint8_t)(ctr >> 8);
            msg[n++] = (uint8_t)ctr;
            msg[n++] = half;
            SHA256(msg, n, wide + 32 * half);
        }
        groth16_fr_from_wide(out, wide);
        if (!fr_is_zero(out))
            return;
    }
}

void groth16_toxic_from_seed(groth16_toxic_t *out, const uint8_t seed[GROTH16_SEED_BYTES])
{
    derive(&out->tau, seed, "tau");
    derive(&out->alpha, seed, "alpha");
    derive(&out->beta, seed, "beta");
    derive(&out->gamma, seed, "gamma");
    derive(&out->delta, seed, "delta");
}

/* ---- fixed-base tables (one shape, instantiated for G1 and G2) ------------------------ */

#define FB_WINDOWS 32
#define FB_ENTRIES 255

#define FB_DEFINE(G, AFF, JAC, FE)                                                                             \
    typedef struct {                                                                                           \
        AFF t[FB_WINDOWS][FB_ENTRIES];                                                                         \
    } G##_fb_t;                                                                                                \
                                                                                                               \
    /* t[w][d - 1] = d 2^(8w) base. NULL when out of memory. */                                                \
    static G##_fb_t *G##_fb_create(const AFF *base)                                                            \
    {                                                                                                          \
        G##_fb_t *fb = gm_alloc(sizeof *fb);                                                                   \
        JAC *tmp = gm_alloc(FB_ENTRIES * sizeof(JAC));                                                         \
        FE *scr = gm_alloc(FB_ENTRIES * sizeof(FE));                                                           \
        if (!fb || !tmp || !scr) {                                                                             \
            gm_free(fb);                                                                                       \
            gm_free(tmp);                                                                                      \
            gm_free(scr);                                                                                      \
            return NULL;                                                                                       \
        }                                                                                                      \
        JAC b;                                                                                                 \
        G##_from_affine(&b, base);                                                                             \
        for (int w = 0; w < FB_WINDOWS; w++) {                                                                 \
            tmp[0] = b;                                                                                        \
            for (int d = 1; d < FB_ENTRIES; d++)                                                               \
                G##_add(&tmp[d], &tmp[d - 1], &b);                                                             \
            G##_batch_to_affine(fb->t[w], tmp, FB_ENTRIES, scr);                                               \
            for (int i = 0; i < 8; i++)                                                                        \
                G##_dbl(&b, &b);                                                                               \
        }                                                                                                      \
        gm_free(tmp);                                                                                          \
        gm_free(scr);                                                                                          \
        return fb;                                                                                             \
    }                                                                                                          \
                                                                                                               \
    static void G##_fb_mul(JAC *out, const G##_fb_t *fb, const fr_t *k)                                        \
    {                                                                                                          \
        uint64_t l[4];                                                                                         \
        fr_to_limbs(l, k);                                                                                     \
        G##_jac_set_inf(out);                                                                                  \
        for (int w = 0; w < FB_WINDOWS; w++) {                                                                 \
            unsigned d = (unsigned)(l[w / 8] >> (8 * (w % 8))) & 0xff;                                         \
            if (d)                                                                                             \
                G##_add_mixed(out, out, &fb->t[w][d - 1]);                                                     \
        }                                                                                                      \
    }

/* Hot loop of the setup: fixed-base multiplication by table lookup.
 * (1) Why: every query point is scalar * G for one of two fixed generators;
 *     255 precomputed multiples per 8-bit window turn a 255-doubling ladder
 *     into at most 32 mixed additions, and the table (850 KB for G1, 1.6 MB
 *     for G2) is built once and shared read-only by every worker.
 * (2) Invariants: k is reduced (< r < 2^255), so byte 31 is < 0x74 and every
 *     lookup is in range; out starts at the identity; the mixed addition
 *     handles identity, P = Q and P = -Q.
 * (3) Measured by `grothmpi setup --circuit test-synthetic --constraints 16384
 *     --threads 1` (bench/README.md). */
FB_DEFINE(g1, g1_affine_t, g1_jac_t, fp_t)
FB_DEFINE(g2, g2_affine_t, g2_jac_t, fp2_t)

/* ---- chunked multiplication and streaming ------------------------------------------------ */

#define CHUNK 65536
#define TASK 256

/* Writes the scalars of section indices [i0, i0 + n) into out. */
typedef void (*scalar_fn)(void *ctx, fr_t *out, uint64_t i0, uint64_t n);

typedef struct {
    const g1_fb_t *fb1;
    const g2_fb_t *fb2;
    bool g2;
    const fr_t *scalars;
    uint64_t n;
    uint8_t *bytes;
    uint8_t *scratch; /* per worker: TASK jac + TASK affine + TASK field elements */
    size_t scratch_per_worker;
} mul_job_t;

static void mul_task(void *arg, size_t task, unsigned worker)
{
    mul_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * TASK, i1 = i0 + TASK < j->n ? i0 + TASK : j->n;
    size_t cnt = (size_t)(i1 - i0);
    uint8_t *s = j->scratch + (size_t)worker * j->scratch_per_worker;
    if (j->g2) {
        g2_jac_t *jac = (g2_jac_t *)s;
        g2_affine_t *aff = (g2_affine_t *)(jac + TASK);
        fp2_t *fe = (fp2_t *)(aff + TASK);
        for (size_t i = 0; i < cnt; i++)
            g2_fb_mul(&jac[i], j->fb2, &j->scalars[i0 + i]);
        g2_batch_to_affine(aff, jac, cnt, fe);
        for (size_t i = 0; i < cnt; i++)
            g2_to_bytes_uncompressed(j->bytes + (i0 + i) * G2_UNCOMPRESSED_BYTES, &aff[i]);
    } else {
        g1_jac_t *jac = (g1_jac_t *)s;
        g1_affine_t *aff = (g1_affine_t *)(jac + TASK);
        fp_t *fe = (fp_t *)(aff + TASK);
        for (size_t i = 0; i < cnt; i++)
            g1_fb_mul(&jac[i], j->fb1, &j->scalars[i0 + i]);
        g1_batch_to_affine(aff, jac, cnt, fe);
        for (size_t i = 0; i < cnt; i++)
            g1_to_bytes_uncompressed(j->bytes + (i0 + i) * G1_UNCOMPRESSED_BYTES, &aff[i]);
    }
}

typedef struct {
    const g1_fb_t *fb1;
    const g2_fb_t *fb2;
    topo_pool_t *pool;
    fr_t *chunk_scalars; /* CHUNK */
    uint8_t *chunk_bytes; /* CHUNK * G2 bytes */
    uint8_t *scratch;
    size_t scratch_per_worker;
} emitter_t;

/* Appends a section: u32 BE count, then count points scalar_i * G. */
static void emit_section(emitter_t *e, gm_afile_t *w, bool g2, uint64_t count, scalar_fn fn, void *ctx)
{
    uint8_t be[4] = {(uint8_t)(count >> 24), (uint8_t)(count >> 16), (uint8_t)(count >> 8), (uint8_t)count};
    gm_afile_write(w, be, 4);
    size_t sz = g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    for (uint64_t i0 = 0; i0 < count; i0 += CHUNK) {
        uint64_t n = count - i0 < CHUNK ? count - i0 : CHUNK;
        fn(ctx, e->chunk_scalars, i0, n);
        mul_job_t j = {.fb1 = e->fb1, .fb2 = e->fb2, .g2 = g2, .scalars = e->chunk_scalars, .n = n,
                       .bytes = e->chunk_bytes, .scratch = e->scratch, .scratch_per_worker = e->scratch_per_worker};
        topo_pool_run(e->pool, (size_t)((n + TASK - 1) / TASK), mul_task, &j);
        gm_afile_write(w, e->chunk_bytes, (size_t)n * sz);
    }
}

/* ---- scalar sources of each section ------------------------------------------------------ */

typedef struct {
    fr_t tau, coeff; /* h_i = tau^i coeff */
    fr_t next;       /* tau^i for the next chunk's first i */
} h_ctx_t;

static void h_scalars(void *ctx, fr_t *out, uint64_t i0, uint64_t n)
{
    h_ctx_t *c = ctx;
    (void)i0;
    for (uint64_t i = 0; i < n; i++) {
        fr_mul(&out[i], &c->next, &c->coeff);
        fr_mul(&c->next, &c->next, &c->tau);
    }
}

typedef struct {
    const fr_t *v;       /* a value per z column */
    const uint64_t *bm;  /* density (NULL: every column from first) */
    uint64_t first;      /* first column (l: n_inputs) */
    uint64_t cursor;     /* next column to consider */
    const fr_t *mul;     /* multiply each value by this when not NULL */
} col_ctx_t;

static void col_scalars(void *ctx, fr_t *out, uint64_t i0, uint64_t n)
{
    col_ctx_t *c = ctx;
    (void)i0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t j = c->cursor;
        if (c->bm)
            while (!g16_bit(c->bm, j))
                j++;
        c->cursor = j + 1;
        out[i] = c->v[j];
        if (c->mul)
            fr_mul(&out[i], &out[i], c->mul);
    }
}

/* ---- powers of tau and the QAP at tau ------------------------------------------------------ */

typedef struct {
    fr_t *v;
    const fr_t *tau;
    uint64_t n, per_task;
} pow_job_t;

static void pow_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pow_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * j->per_task, i1 = i0 + j->per_task < j->n ? i0 + j->per_task : j->n;
    fr_t x;
    fr_pow(&x, j->tau, &i0, 1);
    for (uint64_t i = i0; i < i1; i++) {
        j->v[i] = x;
        fr_mul(&x, &x, j->tau);
    }
}

typedef struct {
    const cs_shape_t *sh;
    const fr_t *lag;
    fr_t *col[3]; /* u, v, w over z */
} qap_job_t;

static void qap_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    qap_job_t *j = arg;
    const cs_matrix_t *m = &j->sh->m[task];
    fr_t *acc = j->col[task], t;
    for (uint64_t r = 0; r < j->sh->n_rows; r++) {
        const fr_t *L = &j->lag[r];
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            uint32_t c = m->col[k], id = m->coeff[k];
            if (id == 0) {
                fr_add(&acc[c], &acc[c], L);
            } else if (id == 1) {
                fr_sub(&acc[c], &acc[c], L);
            } else {
                fr_mul(&t, L, &j->sh->coeffs[id]);
                fr_add(&acc[c], &acc[c], &t);
            }
        }
    }
}

/* ---- the setup ------------------------------------------------------------------------------ */

int groth16_setup(const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                  const char *vk_path, topo_pool_t *pool, err_t *err)
{
    int rc;
    unsigned log_m = 0;
    if ((rc = g16_domain_of(&log_m, shape, err)))
        return rc;
    uint64_t m = 1ULL << log_m, nv = shape->n_inputs + shape->n_aux;
    unsigned nworkers = topo_pool_size(pool);

    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, seed);

    fr_t *lag = NULL, *u = NULL, *v = NULL, *wc = NULL, *ext = NULL;
    uint64_t *da = NULL, *db = NULL;
    void *ntt_scratch = NULL;
    ntt_domain_t *dom = NULL;
    g1_fb_t *fb1 = NULL;
    g2_fb_t *fb2 = NULL;
    emitter_t e = {0};
    groth16_vk_t vk = {0};
    gm_afile_t w = {0};
    bool writing = false;

    lag = gm_alloc((size_t)m * sizeof(fr_t));
    u = gm_calloc((size_t)nv + 1, sizeof(fr_t));
    v = gm_calloc((size_t)nv + 1, sizeof(fr_t));
    wc = gm_calloc((size_t)nv + 1, sizeof(fr_t));
    ext = gm_alloc(((size_t)nv + 1) * sizeof(fr_t));
    (void)g16_density(&da, shape, 0);
    (void)g16_density(&db, shape, 1);
    if (!lag || !u || !v || !wc || !ext || !da || !db) {
        rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for %llu scalars", (unsigned long long)(m + 4 * nv));
        goto fail;
    }
    if ((rc = ntt_domain_create(&dom, log_m, err)))
        goto fail;
    ntt_scratch = gm_alloc(ntt_scratch_size(dom, nworkers) + 64);
    if (!ntt_scratch) {
        rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for the NTT scratch");
        goto fail;
    }

    /* 2. Lagrange coefficients at tau; Z(tau) = tau^m - 1. */
    pow_job_t pj = {.v = lag, .tau = &tw.tau, .n = m, .per_task = 4096};
    topo_pool_run(pool, (size_t)((m + pj.per_task - 1) / pj.per_task), pow_task, &pj);
    fr_t z_tau;
    fr_pow(&z_tau, &tw.tau, &m, 1);
    fr_sub(&z_tau, &z_tau, &FR_ONE);
    if (fr_is_zero(&z_tau)) {
        rc = gm_err_set(err, GM_EINVAL, "setup: tau is a root of unity of the domain (Z(tau) = 0): use another seed");
        goto fail;
    }
    ntt_inverse(dom, lag, ntt_scratch, pool);

    /* 3. The QAP columns at tau. */
    qap_job_t qj = {.sh = shape, .lag = lag, .col = {u, v, wc}};
    topo_pool_run(pool, 3, qap_task, &qj);

    /* The inputs are in A through the input constraints; a non-empty column
     * that is zero at tau would be dropped by bellperson (a different count):
     * refuse it. */
    for (uint64_t j = 0; j < nv; j++) {
        if ((g16_bit(da, j) && fr_is_zero(&u[j])) || (g16_bit(db, j) && fr_is_zero(&v[j]))) {
            rc = gm_err_set(err, GM_EINVAL, "setup: column %llu evaluates to 0 at tau: use another seed",
                            (unsigned long long)j);
            goto fail;
        }
    }
    for (uint64_t j = 0; j < shape->n_inputs; j++)
        if (!g16_bit(da, j)) {
            rc = gm_err_set(err, GM_EINVAL, "setup: input %llu has no input constraint (the shape lacks "
                            "bellperson's input_i * 0 = 0 rows)", (unsigned long long)j);
            goto fail;
        }

    /* ext_j = beta u_j + alpha v_j + w_j, divided by gamma (inputs) or delta. */
    fr_t gamma_inv, delta_inv;
    fr_inv(&gamma_inv, &tw.gamma);
    fr_inv(&delta_inv, &tw.delta);
    for (uint64_t j = 0; j < nv; j++) {
        fr_t t, s;
        fr_mul(&t, &tw.beta, &u[j]);
        fr_mul(&s, &tw.alpha, &v[j]);
        fr_add(&t, &t, &s);
        fr_add(&t, &t, &wc[j]);
        if (j >= shape->n_inputs && fr_is_zero(&t)) {
            rc = gm_err_set(err, GM_EINVAL, "setup: aux variable %llu is unconstrained (in no constraint)",
                            (unsigned long long)(j - shape->n_inputs));
            goto fail;
        }
        fr_mul(&ext[j], &t, j < shape->n_inputs ? &gamma_inv : &delta_inv);
    }

    /* 4. Tables, the vk, then the streamed sections. */
    fb1 = g1_fb_create(&G1_GENERATOR);
    fb2 = g2_fb_create(&G2_GENERATOR);
    e.scratch_per_worker = TASK * (sizeof(g2_jac_t) + sizeof(g2_affine_t) + sizeof(fp2_t));
    e.chunk_scalars = gm_alloc(CHUNK * sizeof(fr_t));
    e.chunk_bytes = gm_alloc((size_t)CHUNK * G2_UNCOMPRESSED_BYTES);
    e.scratch = gm_alloc(nworkers * e.scratch_per_worker);
    vk.ic = gm_alloc(((size_t)shape->n_inputs + 1) * sizeof(g1_affine_t));
    if (!fb1 || !fb2 || !e.chunk_scalars || !e.chunk_bytes || !e.scratch || !vk.ic) {
        rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for the tables and one chunk of points");
        goto fail;
    }
    e.fb1 = fb1;
    e.fb2 = fb2;
    e.pool = pool;

    {
        g1_jac_t j1;
        g2_jac_t j2;
        g1_fb_mul(&j1, fb1, &tw.alpha), g1_to_affine(&vk.alpha_g1, &j1);
        g1_fb_mul(&j1, fb1, &tw.beta), g1_to_affine(&vk.beta_g1, &j1);
        g2_fb_mul(&j2, fb2, &tw.beta), g2_to_affine(&vk.beta_g2, &j2);
        g2_fb_mul(&j2, fb2, &tw.gamma), g2_to_affine(&vk.gamma_g2, &j2);
        g1_fb_mul(&j1, fb1, &tw.delta), g1_to_affine(&vk.delta_g1, &j1);
        g2_fb_mul(&j2, fb2, &tw.delta), g2_to_affine(&vk.delta_g2, &j2);
        vk.n_ic = shape->n_inputs;
        for (uint64_t i = 0; i < shape->n_inputs; i++) {
            g1_fb_mul(&j1, fb1, &ext[i]);
            g1_to_affine(&vk.ic[i], &j1);
        }
    }

    if (params_path) {
        if ((rc = gm_afile_open(&w, params_path, 0, err)))
            goto fail;
        writing = true;
        size_t vkb = groth16_vk_bytes(vk.n_ic);
        uint8_t *buf = gm_alloc(vkb);
        if (!buf) {
            rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory");
            goto fail;
        }
        groth16_vk_to_bytes(buf, &vk);
        gm_afile_write(&w, buf, vkb);
        gm_free(buf);

        fr_t coeff;
        fr_mul(&coeff, &z_tau, &delta_inv);
        h_ctx_t hc = {.tau = tw.tau, .coeff = coeff, .next = FR_ONE};
        emit_section(&e, &w, false, m - 1, h_scalars, &hc);

        col_ctx_t lc = {.v = ext, .bm = NULL, .cursor = shape->n_inputs};
        emit_section(&e, &w, false, shape->n_aux, col_scalars, &lc);

        uint64_t cnt_a = 0, cnt_b = 0;
        for (uint64_t j = 0; j < nv; j++)
            cnt_a += g16_bit(da, j), cnt_b += g16_bit(db, j);
        col_ctx_t ac = {.v = u, .bm = da, .cursor = 0};
        emit_section(&e, &w, false, cnt_a, col_scalars, &ac);
        col_ctx_t bc1 = {.v = v, .bm = db, .cursor = 0};
        emit_section(&e, &w, false, cnt_b, col_scalars, &bc1);
        col_ctx_t bc2 = {.v = v, .bm = db, .cursor = 0};
        emit_section(&e, &w, true, cnt_b, col_scalars, &bc2);

        writing = false;
        if ((rc = gm_afile_commit(&w, err)))
            goto fail;
    }
    if (vk_path && (rc = groth16_vk_save(&vk, vk_path, err)))
        goto fail;
    rc = 0;

fail:
    if (writing)
        gm_afile_abort(&w);
    memset(&tw, 0, sizeof tw);
    gm_free(lag);
    gm_free(u);
    gm_free(v);
    gm_free(wc);
    gm_free(ext);
    gm_free(da);
    gm_free(db);
    gm_free(ntt_scratch);
    ntt_domain_destroy(dom);
    gm_free(fb1);
    gm_free(fb2);
    gm_free(e.chunk_scalars);
    gm_free(e.chunk_bytes);
    gm_free(e.scratch);
    groth16_vk_free(&vk);
    return rc;
}

/* ---- fixed-base multiplication for other setups (snarkjs_ptau.c) --------------------------- */

typedef struct {
    const g1_fb_t *fb1;
    const g2_fb_t *fb2;
    bool g2;
    const fr_t *scalars;
    size_t n;
    void *out;
    uint8_t *scratch;
    size_t scratch_per_worker;
} gen_job_t;

static void gen_task(void *arg, size_t task, unsigned worker)
{
    gen_job_t *j = arg;
    size_t i0 = task * TASK, cnt = i0 + TASK < j->n ? TASK : j->n - i0;
    uint8_t *s = j->scratch + (size_t)worker * j->scratch_per_worker;
    if (j->g2) {
        g2_jac_t *jac = (g2_jac_t *)s;
        for (size_t i = 0; i < cnt; i++)
            g2_fb_mul(&jac[i], j->fb2, &j->scalars[i0 + i]);
        g2_batch_to_affine((g2_affine_t *)j->out + i0, jac, cnt, (fp2_t *)(jac + TASK));
    } else {
        g1_jac_t *jac = (g1_jac_t *)s;
        for (size_t i = 0; i < cnt; i++)
            g1_fb_mul(&jac[i], j->fb1, &j->scalars[i0 + i]);
        g1_batch_to_affine((g1_affine_t *)j->out + i0, jac, cnt, (fp_t *)(jac + TASK));
    }
}

int groth16_fixed_base_gen(void *out, bool g2, const fr_t *scalars, size_t n, topo_pool_t *pool, err_t *err)
{
    g1_fb_t *fb1 = NULL;
    g2_fb_t *fb2 = NULL;
    size_t per = TASK * (sizeof(g2_jac_t) + sizeof(fp2_t));
    uint8_t *scratch = gm_alloc(topo_pool_size(pool) * per);
    if (g2)
        fb2 = g2_fb_create(&G2_GENERATOR);
    else
        fb1 = g1_fb_create(&G1_GENERATOR);
    int rc = 0;
    if (!scratch || (!fb1 && !fb2)) {
        rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for a fixed-base table");
    } else {
        gen_job_t j = {.fb1 = fb1, .fb2 = fb2, .g2 = g2, .scalars = scalars, .n = n, .out = out,
                       .scratch = scratch, .scratch_per_worker = per};
        topo_pool_run(pool, (n + TASK - 1) / TASK, gen_task, &j);
    }
    gm_free(fb1);
    gm_free(fb2);
    gm_free(scratch);
    return rc;
}
