/*
 * snarkjs/bn_ptau.c — the development powers of tau (snarkjs/ptau_shape.h)
 * for BN254 (snarkjs's bn128). The toxic waste is groth16_toxic_from_seed's
 * for the same seed, each value's 32 bytes reduced mod BN254's r; the
 * points are fixed-base multiplications of the generators by 8-bit windows
 * (a table of 32 x 255 multiples per group, made once per file).
 */
#define SJ_BN128
#include "snarkjs/snarkjs_internal.h"

typedef struct {
    bn_fr_t tau, alpha, beta;
} toxic_t;

static int toxic_from_seed(toxic_t *tw, const uint8_t seed[GROTH16_SEED_BYTES], err_t *err)
{
    groth16_toxic_t t;
    groth16_toxic_from_seed(&t, seed);
    const fr_t *src[3] = {&t.tau, &t.alpha, &t.beta};
    bn_fr_t *dst[3] = {&tw->tau, &tw->alpha, &tw->beta};
    for (int i = 0; i < 3; i++) {
        uint8_t b[32];
        fr_to_bytes_le(b, src[i]);
        bn_fr_from_bytes_le_mod(dst[i], b);
        if (bn_fr_is_zero(dst[i]))
            return gm_err_set(err, GM_EINVAL, "ptau: the seed gives a zero value on bn128; use another seed");
    }
    return 0;
}

static void root_of_unity(bn_fr_t *out, unsigned k) { bn_fr_root_of_unity(out, k); }

#define WINDOWS 32 /* of 8 bits: a 256-bit scalar */
#define TASK 1024  /* points per pool task */

typedef struct {
    bool g2;
    const bn_fr_t *scalars;
    size_t n;
    const void *table;   /* [WINDOWS][255] affine: (d + 1) 2^(8 j) G at [j][d] */
    void *jac, *scratch; /* n Jacobian points, n base-field elements for the affine conversion */
    void *out;
} fb_job_t;

/* (1) Why: tens of millions of points at 2^22, each 32 mixed additions
 *     instead of a 254-bit double-and-add.
 * (2) Invariants: task t owns points [t TASK, (t+1) TASK), its Jacobian and
 *     scratch slots.
 * (3) `grothmpi snarkjs ptau --curve bn128` prints its time. */
static void fb_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const fb_job_t *j = arg;
    size_t i0 = task * TASK, i1 = i0 + TASK < j->n ? i0 + TASK : j->n;
    for (size_t i = i0; i < i1; i++) {
        uint8_t k[32];
        bn_fr_to_bytes_le(k, &j->scalars[i]);
        if (j->g2) {
            bn_g2_jac_t *acc = (bn_g2_jac_t *)j->jac + i;
            const bn_g2_affine_t *t = j->table;
            bn_g2_jac_set_inf(acc);
            for (int w = 0; w < WINDOWS; w++)
                if (k[w])
                    bn_g2_add_mixed(acc, acc, &t[w * 255 + k[w] - 1]);
        } else {
            bn_g1_jac_t *acc = (bn_g1_jac_t *)j->jac + i;
            const bn_g1_affine_t *t = j->table;
            bn_g1_jac_set_inf(acc);
            for (int w = 0; w < WINDOWS; w++)
                if (k[w])
                    bn_g1_add_mixed(acc, acc, &t[w * 255 + k[w] - 1]);
        }
    }
    if (j->g2)
        bn_g2_batch_to_affine((bn_g2_affine_t *)j->out + i0, (const bn_g2_jac_t *)j->jac + i0, i1 - i0,
                              (bn_fp2_t *)j->scratch + i0);
    else
        bn_g1_batch_to_affine((bn_g1_affine_t *)j->out + i0, (const bn_g1_jac_t *)j->jac + i0, i1 - i0,
                              (bn_fp_t *)j->scratch + i0);
}

/* table[j][d] = (d + 1) 2^(8 j) G of G1 or G2, affine (through jac and
 * scratch, WINDOWS * 255 entries each: one batch inversion). */
static void make_table(void *table, void *jac, void *scratch, bool g2)
{
    size_t n = WINDOWS * 255;
    if (g2) {
        bn_g2_jac_t *t = jac, base;
        bn_g2_from_affine(&base, &BN254_G2_GENERATOR);
        for (int w = 0; w < WINDOWS; w++) {
            t[w * 255] = base;
            bn_g2_dbl(&t[w * 255 + 1], &base);
            for (int d = 2; d < 255; d++)
                bn_g2_add(&t[w * 255 + d], &t[w * 255 + d - 1], &base);
            bn_g2_add(&base, &t[w * 255 + 254], &base); /* 256 times the window's base */
        }
        bn_g2_batch_to_affine(table, t, n, scratch);
    } else {
        bn_g1_jac_t *t = jac, base;
        bn_g1_from_affine(&base, &BN254_G1_GENERATOR);
        for (int w = 0; w < WINDOWS; w++) {
            t[w * 255] = base;
            bn_g1_dbl(&t[w * 255 + 1], &base);
            for (int d = 2; d < 255; d++)
                bn_g1_add(&t[w * 255 + d], &t[w * 255 + d - 1], &base);
            bn_g1_add(&base, &t[w * 255 + 254], &base);
        }
        bn_g1_batch_to_affine(table, t, n, scratch);
    }
}

static int fixed_base(void *out, bool g2, const bn_fr_t *scalars, size_t n, topo_pool_t *pool, err_t *err)
{
    size_t tsz = g2 ? sizeof(bn_g2_affine_t) : sizeof(bn_g1_affine_t);
    void *table = gm_alloc(WINDOWS * 255 * tsz);
    size_t m = n > WINDOWS * 255 ? n : WINDOWS * 255; /* the points or the table */
    void *jac = gm_alloc(m * (g2 ? sizeof(bn_g2_jac_t) : sizeof(bn_g1_jac_t)));
    void *scratch = gm_alloc(m * (g2 ? sizeof(bn_fp2_t) : sizeof(bn_fp_t)));
    int rc = 0;
    if (!table || !jac || !scratch) {
        rc = gm_err_set(err, GM_ENOMEM, "ptau: out of memory for %zu bn128 points", n);
    } else {
        make_table(table, jac, scratch, g2);
        fb_job_t j = {.g2 = g2, .scalars = scalars, .n = n, .table = table, .jac = jac, .scratch = scratch,
                      .out = out};
        topo_pool_run(pool, (n + TASK - 1) / TASK, fb_task, &j);
    }
    gm_free(table);
    gm_free(jac);
    gm_free(scratch);
    return rc;
}

#undef WINDOWS
#undef TASK

#include "snarkjs/ptau_shape.h"

int snarkjs_bn_ptau_write(const char *path, unsigned power, const uint8_t seed[GROTH16_SEED_BYTES],
                          topo_pool_t *pool, err_t *err)
{
    return ptau_write(path, power, seed, pool, err);
}
