/*
 * snarkjs/zkey.c — snarkjs's Groth16 proving key (.zkey; snarkjs
 * src/zkey_utils.js, src/zkey_new.js) for BLS12-381:
 *   1  u32 protocol (1 = Groth16)
 *   2  header, 964 bytes: u32 n8q = 48, q, u32 n8r = 32, r, u32 nVars,
 *      nPublic, domainSize, alpha1, beta1 (G1), beta2, gamma2 (G2), delta1
 *      (G1), delta2 (G2)
 *   3  IC: (nPublic + 1) G1          4  u32 nCoef, nCoef x 44-byte entries
 *   5  A: nVars G1    6  B1: nVars G1    7  B2: nVars G2
 *   8  C: (nVars - nPublic - 1) G1     9  H: domainSize G1
 *   10 MPC contributions (not read)
 * Points are "LEM": affine, each Fq coordinate Montgomery (R = 2^384)
 * little-endian, which is exactly the limb layout of our fp_t, so decoding
 * is a copy plus the range and curve checks; infinity is all zero bytes.
 * Coefficients are coef 2^512 mod r ("Montgomery of Montgomery"): read as an
 * fr_t's limbs they are the element coef 2^256, which one multiplication by
 * the element with limbs {1, 0, 0, 0} (2^-256) turns into coef.
 *
 * Points are decoded on the caller's pool in tasks of POINT_TASK points;
 * each task remembers its first bad point and the report names the first
 * one in file order, whatever the schedule.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snarkjs/snarkjs_internal.h"

#define HEADER_BYTES 964
#define COEF_BYTES 44
#define POINT_TASK 1024

void snarkjs_zkey_free(snarkjs_zkey_t *zk)
{
    if (!zk)
        return;
    groth16_vk_free(&zk->vk);
    gm_free(zk->coefs);
    gm_free(zk->a);
    gm_free(zk->b1);
    gm_free(zk->b2);
    gm_free(zk->c);
    gm_free(zk->h);
    gm_free(zk);
}

/* ---- points, in parallel ------------------------------------------------------------------- */

typedef struct {
    const uint8_t *in;
    void *out;        /* g1_affine_t or g2_affine_t array */
    uint64_t n;
    bool g2, subgroup;
    uint64_t *bad;    /* per task: index of the first bad point, or UINT64_MAX */
    int *code;        /* per task: its status */
} pts_job_t;

/* (1) Why: a copy plus canonical and on-curve checks per point (about 3 Fp
 *     multiplications for G1), which is a fixed cost of every proof; split
 *     over the pool because large keys hold 10^5..10^7 points.
 * (2) Invariants: task t owns points [t POINT_TASK, (t+1) POINT_TASK); it
 *     stops at its first bad point and records it.
 * (3) The "load" stage of `grothmpi snarkjs prove --verbose` (bench/README.md). */
static void pts_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pts_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * POINT_TASK, i1 = i0 + POINT_TASK < j->n ? i0 + POINT_TASK : j->n;
    j->bad[task] = UINT64_MAX;
    j->code[task] = 0;
    for (uint64_t i = i0; i < i1; i++) {
        int rc = j->g2 ? sj_g2_from_lem((g2_affine_t *)j->out + i, j->in + i * 192, j->subgroup)
                       : sj_g1_from_lem((g1_affine_t *)j->out + i, j->in + i * 96, j->subgroup);
        if (rc) {
            j->bad[task] = i;
            j->code[task] = rc;
            return;
        }
    }
}

int sj_decode_points(void **out, const uint8_t *in, uint64_t n, uint64_t first, bool g2, bool subgroup, unsigned sec,
                     const char *name, const char *what, topo_pool_t *pool, err_t *err)
{
    size_t sz = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    *out = gm_alloc((size_t)(n ? n : 1) * sz);
    size_t ntasks = (size_t)((n + POINT_TASK - 1) / POINT_TASK);
    uint64_t *bad = gm_alloc((ntasks ? ntasks : 1) * sizeof(uint64_t));
    int *code = gm_alloc((ntasks ? ntasks : 1) * sizeof(int));
    int rc = 0;
    if (!*out || !bad || !code) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: section %u (%s): out of memory for %llu points", what, sec, name,
                        (unsigned long long)n);
        goto done;
    }
    pts_job_t j = {.in = in, .out = *out, .n = n, .g2 = g2, .subgroup = subgroup, .bad = bad, .code = code};
    topo_pool_run(pool, ntasks, pts_task, &j);
    for (size_t t = 0; t < ntasks; t++)
        if (code[t]) {
            rc = gm_err_set(err, code[t], "%s: section %u (%s): point %llu: %s", what, sec, name,
                            (unsigned long long)(first + bad[t]), sj_point_err(code[t]));
            break;
        }
done:
    gm_free(bad);
    gm_free(code);
    if (rc) {
        gm_free(*out);
        *out = NULL;
    }
    return rc;
}

/* ---- the key ----------------------------------------------------------------------------------- */

static int vk_point(void *out, const uint8_t *in, bool g2, const char *field, const char *what, err_t *err)
{
    int rc = g2 ? sj_g2_from_lem(out, in, true) : sj_g1_from_lem(out, in, true);
    if (rc)
        return gm_err_set(err, rc, "%s: section 2 (header): %s: %s", what, field, sj_point_err(rc));
    return 0;
}

int sj_zkey_header(snarkjs_zkey_t *zk, sj_bin_t *b, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    int rc;
    if ((rc = sj_bin_parse(b, buf, n, "zkey", 2, what, err)))
        return rc;
    if ((rc = sj_bin_need(b, 1, 4, "protocol", what, err)))
        return rc;
    uint32_t proto = sj_u32(b->sec[1]);
    if (proto != 1)
        return gm_err_set(err, proto == 2 || proto == 10 ? GM_ENOTSUP : GM_EFORMAT,
                          "%s: section 1 (protocol): %u (%s), only Groth16 (1) is supported", what, proto,
                          proto == 2 ? "plonk" : proto == 10 ? "fflonk" : "unknown");
    if ((rc = sj_bin_need(b, 2, UINT64_MAX, "header", what, err)))
        return rc;
    const uint8_t *h = b->sec[2];
    uint64_t hl = b->len[2];
    if (hl < 4)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): length %llu, too short", what,
                          (unsigned long long)hl);
    uint32_t n8q = sj_u32(h);
    if (n8q != 48) {
        if (n8q == 32 && hl >= 4 + 32 + 4 + 32)
            return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): a %s key (n8q = 32), only bls12381 is "
                              "supported", what, sj_prime_name(h + 40, sj_u32(h + 36)));
        return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): n8q = %u, only bls12381 (48) is supported", what,
                          n8q);
    }
    if (hl != HEADER_BYTES)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): length %llu, expected %d", what,
                          (unsigned long long)hl, HEADER_BYTES);
    if (memcmp(h + 4, SJ_Q_LE, 48) != 0 || sj_u32(h + 52) != 32 || memcmp(h + 56, SJ_R_LE, 32) != 0)
        return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): q or r is not BLS12-381's, only bls12381 is "
                          "supported", what);

    zk->n_vars = sj_u32(h + 88);
    zk->n_public = sj_u32(h + 92);
    zk->domain_size = sj_u32(h + 96);
    if ((uint64_t)zk->n_public + 1 > zk->n_vars)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): nPublic %u + 1 exceeds nVars %u", what,
                          zk->n_public, zk->n_vars);
    uint32_t ds = zk->domain_size;
    if (ds < 2 || (ds & (ds - 1)))
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): domainSize %u is not a power of two >= 2", what,
                          ds);
    while ((1u << zk->log_domain) < ds)
        zk->log_domain++;
    if (zk->log_domain > 28)
        return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): domainSize 2^%u is above the supported 2^28",
                          what, zk->log_domain);
    if ((uint64_t)zk->n_public + 1 > ds)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): domainSize %u cannot hold the nPublic + 1 = "
                          "%llu input rows", what, ds, (unsigned long long)zk->n_public + 1);

    /* Section sizes, all before any decoding. */
    uint64_t nv = zk->n_vars, np1 = (uint64_t)zk->n_public + 1;
    if ((rc = sj_bin_need(b, 3, np1 * 96, "IC", what, err)) ||
        (rc = sj_bin_need(b, 4, UINT64_MAX, "Coefs", what, err)) ||
        (rc = sj_bin_need(b, 5, nv * 96, "PointsA", what, err)) ||
        (rc = sj_bin_need(b, 6, nv * 96, "PointsB1", what, err)) ||
        (rc = sj_bin_need(b, 7, nv * 192, "PointsB2", what, err)) ||
        (rc = sj_bin_need(b, 8, (nv - np1) * 96, "PointsC", what, err)) ||
        (rc = sj_bin_need(b, 9, (uint64_t)ds * 96, "PointsH", what, err)))
        return rc;
    if (b->len[4] < 4)
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): length %llu, too short for nCoef", what,
                          (unsigned long long)b->len[4]);
    zk->n_coefs = sj_u32(b->sec[4]);
    if (b->len[4] != 4 + zk->n_coefs * COEF_BYTES)
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): length %llu is not 4 + nCoef * 44 = %llu", what,
                          (unsigned long long)b->len[4], (unsigned long long)(4 + zk->n_coefs * COEF_BYTES));

    /* The verifying part: few points, all fully checked. */
    zk->vk.ic = gm_alloc((size_t)np1 * sizeof(g1_affine_t));
    zk->vk.n_ic = (size_t)np1;
    if (!zk->vk.ic)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", what);
    if ((rc = vk_point(&zk->vk.alpha_g1, h + 100, false, "alpha1", what, err)) ||
        (rc = vk_point(&zk->vk.beta_g1, h + 196, false, "beta1", what, err)) ||
        (rc = vk_point(&zk->vk.beta_g2, h + 292, true, "beta2", what, err)) ||
        (rc = vk_point(&zk->vk.gamma_g2, h + 484, true, "gamma2", what, err)) ||
        (rc = vk_point(&zk->vk.delta_g1, h + 676, false, "delta1", what, err)) ||
        (rc = vk_point(&zk->vk.delta_g2, h + 772, true, "delta2", what, err)))
        return rc;
    for (uint64_t i = 0; i < np1; i++)
        if ((rc = sj_g1_from_lem(&zk->vk.ic[i], b->sec[3] + 96 * i, true)))
            return gm_err_set(err, rc, "%s: section 3 (IC): point %llu: %s", what, (unsigned long long)i,
                              sj_point_err(rc));
    return 0;
}

int sj_zkey_coef(snarkjs_coef_t *c, const sj_bin_t *b, const snarkjs_zkey_t *zk, uint64_t i, const char *what,
                 err_t *err)
{
    const uint8_t *e = b->sec[4] + 4 + i * COEF_BYTES;
    c->matrix = sj_u32(e);
    c->constraint = sj_u32(e + 4);
    c->signal = sj_u32(e + 8);
    if (c->matrix > 1 || c->constraint >= zk->domain_size || c->signal >= zk->n_vars)
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): entry %llu: matrix %u, constraint %u, signal %u "
                          "(need matrix 0 or 1, constraint < domainSize %u, signal < nVars %u)", what,
                          (unsigned long long)i, c->matrix, c->constraint, c->signal, zk->domain_size, zk->n_vars);
    fr_t raw;
    if (sj_fr_from_mont_le(&raw, e + 12))
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): entry %llu: value is not below r", what,
                          (unsigned long long)i);
    const fr_t inv_r = {{1, 0, 0, 0}}; /* the element 2^-256 */
    fr_mul(&c->value, &raw, &inv_r);
    return 0;
}

int snarkjs_zkey_from_bytes(snarkjs_zkey_t **out, const uint8_t *buf, size_t n, const char *what,
                            snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    snarkjs_zkey_t *zk = gm_calloc(1, sizeof *zk);
    if (!zk)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", what);
    sj_bin_t b;
    int rc = sj_zkey_header(zk, &b, buf, n, what, err);
    if (rc)
        goto fail;

    /* Coefficients. */
    zk->coefs = gm_alloc((size_t)(zk->n_coefs ? zk->n_coefs : 1) * sizeof(snarkjs_coef_t));
    if (!zk->coefs) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory for %llu coefficients", what,
                        (unsigned long long)zk->n_coefs);
        goto fail;
    }
    for (uint64_t i = 0; i < zk->n_coefs; i++)
        if ((rc = sj_zkey_coef(&zk->coefs[i], &b, zk, i, what, err)))
            goto fail;

    /* The bases. */
    bool sg = flags & SNARKJS_ZKEY_SUBGROUP;
    uint64_t nv = zk->n_vars, np1 = (uint64_t)zk->n_public + 1;
    if ((rc = sj_decode_points((void **)&zk->a, b.sec[5], nv, 0, false, sg, 5, "PointsA", what, pool, err)) ||
        (rc = sj_decode_points((void **)&zk->b1, b.sec[6], nv, 0, false, sg, 6, "PointsB1", what, pool, err)) ||
        (rc = sj_decode_points((void **)&zk->b2, b.sec[7], nv, 0, true, sg, 7, "PointsB2", what, pool, err)) ||
        (rc = sj_decode_points((void **)&zk->c, b.sec[8], nv - np1, 0, false, sg, 8, "PointsC", what, pool, err)) ||
        (rc = sj_decode_points((void **)&zk->h, b.sec[9], zk->domain_size, 0, false, sg, 9, "PointsH", what, pool,
                               err)))
        goto fail;
    *out = zk;
    return 0;
fail:
    snarkjs_zkey_free(zk);
    return rc;
}

int snarkjs_zkey_load(snarkjs_zkey_t **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                      err_t *err)
{
    *out = NULL;
    gm_map_t m;
    int rc = gm_file_map(&m, path, GM_MAP_WILLNEED, err);
    if (rc)
        return rc;
    static const uint8_t empty[1];
    rc = snarkjs_zkey_from_bytes(out, m.data ? m.data : empty, m.size, path, flags, pool, err);
    gm_file_unmap(&m);
    return rc;
}
