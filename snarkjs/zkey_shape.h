/*
 * snarkjs/zkey_shape.h — snarkjs's Groth16 proving key (.zkey; snarkjs
 * src/zkey_utils.js, src/zkey_new.js), one reader for every curve. A
 * template, not a header: snarkjs/zkey.c (BLS12-381) and snarkjs/bn_zkey.c
 * (BN254) include it once, after snarkjs_internal.h has set the curve's SJ_
 * macros; it defines static functions (zkey_free, decode_points,
 * zkey_header, zkey_coef, zkey_from_bytes, zkey_load) that the .c file
 * wraps by name (and, for the prover, stream_abc and stream_points:
 * a streamed key's sections read when a proof needs them). With q of n8q bytes (48 / 32), G1 = 2 n8q, G2 = 4 n8q:
 *   1  u32 protocol (1 = Groth16)
 *   2  header, 20 + n8q + 32 + 3 G1 + 3 G2 bytes (964 / 660): u32 n8q, q,
 *      u32 n8r = 32, r, u32 nVars, nPublic, domainSize, alpha1, beta1 (G1),
 *      beta2, gamma2 (G2), delta1 (G1), delta2 (G2)
 *   3  IC: (nPublic + 1) G1          4  u32 nCoef, nCoef x 44-byte entries
 *   5  A: nVars G1    6  B1: nVars G1    7  B2: nVars G2
 *   8  C: (nVars - nPublic - 1) G1     9  H: domainSize G1
 *   10 MPC contributions (not read)
 * Points are "LEM": affine, each Fq coordinate Montgomery (R = 2^(8 n8q))
 * little-endian, which is exactly the limb layout of our fp_t / bn_fp_t, so
 * decoding is a copy plus the range and curve checks; infinity is all zero
 * bytes. Coefficients are coef 2^512 mod r ("Montgomery of Montgomery"):
 * read as an Fr element's limbs they are the element coef 2^256, which one
 * multiplication by the element with limbs {1, 0, 0, 0} (2^-256) turns into
 * coef (both curves' Fr have R = 2^256).
 *
 * Points and entries are decoded on the caller's pool in tasks of
 * POINT_TASK points (COEF_TASK entries); each task remembers its first bad
 * one and the report names the first in file order, whatever the schedule.
 * A streamed key's section 4 is not decoded: a proof applies its entries
 * straight from the file (stream_abc).
 * A task drops the file pages it read (gm_file_drop): one madvise, whose
 * TLB flush interrupts every CPU of the process, per 8192 points (1024
 * cost 4 % of a 2^16 bn128 proof, farm-bench).
 */
#ifndef SJ_CURVE
#error "zkey_shape.h is a template: include snarkjs/snarkjs_internal.h first and this once"
#endif

#define HEADER_BYTES (20 + SJ_N8Q + 32 + 3 * SJ_G1_BYTES + 3 * SJ_G2_BYTES)
#define COEF_BYTES 44
#define POINT_TASK 8192
#define COEF_TASK 4096

static void zkey_free(SJ_API(zkey_t) *zk)
{
    if (!zk)
        return;
    SJ_VK_FREE(&zk->vk);
    gm_free(zk->coefs);
    gm_free(zk->a);
    gm_free(zk->b1);
    gm_free(zk->b2);
    gm_free(zk->c);
    gm_free(zk->h);
    gm_free(zk->stream.what);
    gm_file_unmap(&zk->stream.map);
    gm_free(zk);
}

/* The point sections 5-9 (snarkjs_section_t order): id, name, G2 or G1. */
static const struct {
    unsigned id;
    const char *name;
    bool g2;
} zkey_secs[SNARKJS_NSEC] = {{5, "PointsA", false}, {6, "PointsB1", false}, {7, "PointsB2", true},
                             {8, "PointsC", false}, {9, "PointsH", false}};

/* The number of points of section s of a key with these counts. */
static uint64_t sec_count(snarkjs_section_t s, uint64_t n_vars, uint64_t n_public, uint64_t domain_size)
{
    return s == SNARKJS_SEC_C ? n_vars - n_public - 1 : s == SNARKJS_SEC_H ? domain_size : n_vars;
}

/* ---- points, in parallel ------------------------------------------------------------------- */

typedef struct {
    const uint8_t *in;
    void *out;        /* G1 or G2 affine array */
    uint64_t n;
    bool g2, subgroup;
    bool drop;        /* in is a file mapping: its pages leave memory once decoded (gm_file_drop) */
    uint64_t *bad;    /* per task: index of the first bad point, or UINT64_MAX */
    int *code;        /* per task: its status */
} pts_job_t;

/* (1) Why: a copy plus canonical and on-curve checks per point (about 3 Fp
 *     multiplications for G1), which is a fixed cost of every proof; split
 *     over the pool because large keys hold 10^5..10^7 points. Without the
 *     subgroup check the task decodes its points first and checks them
 *     against the curve together (G_first_off_curve: 8 at a time on lanes
 *     where the CPU has IFMA; the scalar check was a tenth of a 2^16 proof).
 * (2) Invariants: task t owns points [t POINT_TASK, (t+1) POINT_TASK); it
 *     records its first bad point: the first one off the curve before the
 *     first non-canonical one, else that one.
 * (3) The "load" stage of `grothmpi snarkjs prove --verbose` (bench/README.md). */
static void pts_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    pts_job_t *j = arg;
    uint64_t i0 = (uint64_t)task * POINT_TASK, i1 = i0 + POINT_TASK < j->n ? i0 + POINT_TASK : j->n;
    j->bad[task] = UINT64_MAX;
    j->code[task] = 0;
    size_t psz = j->g2 ? SJ_G2_BYTES : SJ_G1_BYTES;
    SJ_G1(affine_t) *o1 = (SJ_G1(affine_t) *)j->out;
    SJ_G2(affine_t) *o2 = (SJ_G2(affine_t) *)j->out;
    uint64_t i = i0;
    int rc = 0;
    for (; i < i1 && !rc; i++)
        if (j->subgroup)
            rc = j->g2 ? SJ_LEM(g2)(o2 + i, j->in + i * psz, true) : SJ_LEM(g1)(o1 + i, j->in + i * psz, true);
        else
            rc = j->g2 ? SJ_LEM_RAW(g2)(o2 + i, j->in + i * psz) : SJ_LEM_RAW(g1)(o1 + i, j->in + i * psz);
    uint64_t done = rc ? i - 1 : i; /* decoded: [i0, done) */
    if (!j->subgroup) {
        uint64_t off = i0 + (j->g2 ? SJ_G2(first_off_curve)(o2 + i0, done - i0)
                                   : SJ_G1(first_off_curve)(o1 + i0, done - i0));
        if (off < done) {
            rc = GM_ENOTONCURVE;
            done = off;
        }
    }
    if (rc) {
        j->bad[task] = done;
        j->code[task] = rc;
        return;
    }
    if (j->drop)
        gm_file_drop(j->in + i0 * psz, (size_t)(i1 - i0) * psz);
}

static int decode_points(void **out, const uint8_t *in, uint64_t n, uint64_t first, bool g2, bool subgroup,
                         bool drop, unsigned sec, const char *name, const char *what, topo_pool_t *pool, err_t *err)
{
    size_t sz = g2 ? sizeof(SJ_G2(affine_t)) : sizeof(SJ_G1(affine_t));
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
    pts_job_t j = {.in = in, .out = *out, .n = n, .g2 = g2, .subgroup = subgroup, .drop = drop, .bad = bad,
                   .code = code};
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
    int rc = g2 ? SJ_LEM(g2)(out, in, true) : SJ_LEM(g1)(out, in, true);
    if (rc)
        return gm_err_set(err, rc, "%s: section 2 (header): %s: %s", what, field, sj_point_err(rc));
    return 0;
}

static int zkey_header(SJ_API(zkey_t) *zk, sj_bin_t *b, const uint8_t *buf, size_t n, const char *what, err_t *err)
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
    if (n8q != SJ_N8Q) {
        snarkjs_curve_t other;
        err_t e;
        bool known = snarkjs_curve_of_bytes(&other, buf, n, what, &e) == 0;
        return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): n8q = %u (%s), this reader is %s's (%u)", what,
                          n8q, known ? snarkjs_curve_name(other) : "an unknown curve", SJ_CURVE, SJ_N8Q);
    }
    if (hl != HEADER_BYTES)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): length %llu, expected %d", what,
                          (unsigned long long)hl, HEADER_BYTES);
    const uint8_t *hr = h + 4 + SJ_N8Q; /* n8r, r, then the counts */
    if (memcmp(h + 4, SJ_Q_BYTES, SJ_N8Q) != 0 || sj_u32(hr) != 32 || memcmp(hr + 4, SJ_R_BYTES, 32) != 0)
        return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): q or r is not %s's (a prime of neither "
                          "bn128 nor bls12381)", what, SJ_CURVE);

    const uint8_t *hc = hr + 36;
    zk->n_vars = sj_u32(hc);
    zk->n_public = sj_u32(hc + 4);
    zk->domain_size = sj_u32(hc + 8);
    if ((uint64_t)zk->n_public + 1 > zk->n_vars)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): nPublic %u + 1 exceeds nVars %u", what,
                          zk->n_public, zk->n_vars);
    uint32_t ds = zk->domain_size;
    if (ds < 2 || (ds & (ds - 1)))
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): domainSize %u is not a power of two >= 2", what,
                          ds);
    while ((1u << zk->log_domain) < ds)
        zk->log_domain++;
    if (zk->log_domain > SJ_MAX_LOG_DOMAIN)
        return gm_err_set(err, GM_ENOTSUP, "%s: section 2 (header): domainSize 2^%u is above %s's 2^%u", what,
                          zk->log_domain, SJ_CURVE, SJ_MAX_LOG_DOMAIN);
    if ((uint64_t)zk->n_public + 1 > ds)
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (header): domainSize %u cannot hold the nPublic + 1 = "
                          "%llu input rows", what, ds, (unsigned long long)zk->n_public + 1);

    /* Section sizes, all before any decoding. */
    uint64_t nv = zk->n_vars, np1 = (uint64_t)zk->n_public + 1;
    if ((rc = sj_bin_need(b, 3, np1 * SJ_G1_BYTES, "IC", what, err)) ||
        (rc = sj_bin_need(b, 4, UINT64_MAX, "Coefs", what, err)) ||
        (rc = sj_bin_need(b, 5, nv * SJ_G1_BYTES, "PointsA", what, err)) ||
        (rc = sj_bin_need(b, 6, nv * SJ_G1_BYTES, "PointsB1", what, err)) ||
        (rc = sj_bin_need(b, 7, nv * SJ_G2_BYTES, "PointsB2", what, err)) ||
        (rc = sj_bin_need(b, 8, (nv - np1) * SJ_G1_BYTES, "PointsC", what, err)) ||
        (rc = sj_bin_need(b, 9, (uint64_t)ds * SJ_G1_BYTES, "PointsH", what, err)))
        return rc;
    if (b->len[4] < 4)
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): length %llu, too short for nCoef", what,
                          (unsigned long long)b->len[4]);
    zk->n_coefs = sj_u32(b->sec[4]);
    if (b->len[4] != 4 + zk->n_coefs * COEF_BYTES)
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): length %llu is not 4 + nCoef * 44 = %llu", what,
                          (unsigned long long)b->len[4], (unsigned long long)(4 + zk->n_coefs * COEF_BYTES));

    /* The verifying part: few points, all fully checked. */
    zk->vk.ic = gm_alloc((size_t)np1 * sizeof(SJ_G1(affine_t)));
    zk->vk.n_ic = (size_t)np1;
    if (!zk->vk.ic)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", what);
    const uint8_t *hp = hc + 12; /* alpha1, beta1, beta2, gamma2, delta1, delta2 */
    if ((rc = vk_point(&zk->vk.alpha_g1, hp, false, "alpha1", what, err)) ||
        (rc = vk_point(&zk->vk.beta_g1, hp + SJ_G1_BYTES, false, "beta1", what, err)) ||
        (rc = vk_point(&zk->vk.beta_g2, hp + 2 * SJ_G1_BYTES, true, "beta2", what, err)) ||
        (rc = vk_point(&zk->vk.gamma_g2, hp + 2 * SJ_G1_BYTES + SJ_G2_BYTES, true, "gamma2", what, err)) ||
        (rc = vk_point(&zk->vk.delta_g1, hp + 2 * SJ_G1_BYTES + 2 * SJ_G2_BYTES, false, "delta1", what, err)) ||
        (rc = vk_point(&zk->vk.delta_g2, hp + 3 * SJ_G1_BYTES + 2 * SJ_G2_BYTES, true, "delta2", what, err)))
        return rc;
    for (uint64_t i = 0; i < np1; i++)
        if ((rc = SJ_LEM(g1)(&zk->vk.ic[i], b->sec[3] + SJ_G1_BYTES * i, true)))
            return gm_err_set(err, rc, "%s: section 3 (IC): point %llu: %s", what, (unsigned long long)i,
                              sj_point_err(rc));
    return 0;
}

/* The element 2^-256 (limbs {1, 0, 0, 0}): a product by it turns the file's
 * coef 2^512 (read as an element: coef 2^256) into coef. */
static const SJ_FR(t) coef_inv_r = {{1, 0, 0, 0}};

static int zkey_coef(SJ_API(coef_t) *c, const uint8_t *entries, const SJ_API(zkey_t) *zk, uint64_t i,
                     const char *what, err_t *err)
{
    const uint8_t *e = entries + i * COEF_BYTES;
    c->matrix = sj_u32(e);
    c->constraint = sj_u32(e + 4);
    c->signal = sj_u32(e + 8);
    if (c->matrix > 1 || c->constraint >= zk->domain_size || c->signal >= zk->n_vars)
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): entry %llu: matrix %u, constraint %u, signal %u "
                          "(need matrix 0 or 1, constraint < domainSize %u, signal < nVars %u)", what,
                          (unsigned long long)i, c->matrix, c->constraint, c->signal, zk->domain_size, zk->n_vars);
    SJ_FR(t) raw;
    if (SJ_FR_FROM_MONT(&raw, e + 12))
        return gm_err_set(err, GM_EFORMAT, "%s: section 4 (Coefs): entry %llu: value is not below r", what,
                          (unsigned long long)i);
    SJ_FR(mul)(&c->value, &raw, &coef_inv_r);
    return 0;
}

typedef struct {
    SJ_API(coef_t) *out;
    const uint8_t *entries;
    const SJ_API(zkey_t) *zk;
    uint64_t *bad; /* per task: index of the first bad entry, or UINT64_MAX */
} coefs_job_t;

/* (1) Why: one Fr multiplication and the range checks per entry, once per
 *     resident key, split over the pool.
 * (2) Invariants: task t owns entries [t COEF_TASK, (t+1) COEF_TASK); it
 *     stops at its first bad entry and records it (its message is made
 *     again by decode_coefs: the tasks share no err_t).
 * (3) The load stage of a resident key (bench/README.md). */
static void coefs_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    coefs_job_t *j = arg;
    uint64_t n = j->zk->n_coefs, i0 = (uint64_t)task * COEF_TASK, i1 = i0 + COEF_TASK < n ? i0 + COEF_TASK : n;
    err_t e;
    j->bad[task] = UINT64_MAX;
    for (uint64_t i = i0; i < i1; i++)
        if (zkey_coef(&j->out[i], j->entries, j->zk, i, "", &e)) {
            j->bad[task] = i;
            return;
        }
}

/* *out = the n_coefs entries of section 4 (entries: after nCoef), each
 * checked, on pool; the first bad one in file order is reported. */
static int decode_coefs(SJ_API(coef_t) **out, const uint8_t *entries, const SJ_API(zkey_t) *zk, const char *what,
                        topo_pool_t *pool, err_t *err)
{
    size_t ntasks = (size_t)((zk->n_coefs + COEF_TASK - 1) / COEF_TASK);
    *out = gm_alloc((size_t)(zk->n_coefs ? zk->n_coefs : 1) * sizeof(SJ_API(coef_t)));
    uint64_t *bad = gm_alloc((ntasks ? ntasks : 1) * sizeof(uint64_t));
    int rc = 0;
    if (!*out || !bad) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory for %llu coefficients", what,
                        (unsigned long long)zk->n_coefs);
        goto done;
    }
    coefs_job_t j = {.out = *out, .entries = entries, .zk = zk, .bad = bad};
    topo_pool_run(pool, ntasks, coefs_task, &j);
    for (size_t t = 0; t < ntasks && !rc; t++)
        if (bad[t] != UINT64_MAX)
            rc = zkey_coef(&(*out)[bad[t]], entries, zk, bad[t], what, err);
done:
    gm_free(bad);
    if (rc) {
        gm_free(*out);
        *out = NULL;
    }
    return rc;
}

/* *out = the points of section s from its bytes raw, checked (subgroup:
 * also for the subgroup; drop: raw is a file mapping, its pages leave
 * memory as they are decoded). */
static int section_points(void **out, const SJ_API(zkey_t) *zk, snarkjs_section_t s, const uint8_t *raw,
                          bool subgroup, bool drop, const char *what, topo_pool_t *pool, err_t *err)
{
    return decode_points(out, raw, sec_count(s, zk->n_vars, zk->n_public, zk->domain_size), 0, zkey_secs[s].g2,
                         subgroup, drop, zkey_secs[s].id, zkey_secs[s].name, what, pool, err);
}

/* ---- a streamed key's section 4, applied straight from the file ---------------------- */

typedef struct {
    const SJ_API(zkey_t) *zk;
    const SJ_FR(t) *w;
    SJ_FR(t) *vec[2];
    uint64_t perm;
    SJ_FR(t) one_raw, minus_one_raw; /* 1 and -1 as an entry holds them, read as elements */
    uint64_t bad[2];                 /* per task: index of its first bad entry, or UINT64_MAX */
} sabc_job_t;

/* Task m (0 = A, 1 = B): vec[m] = its matrix's rows, read from the
 * entries as they lie in the file.
 * (1) Why: a proof of a streamed key decoded every entry into a 48-byte
 *     array first (the "abc" stage's peak), then read that array: 9 % of
 *     the CPU of a 2^16 SHA-256 proof, most of it writing the array.
 *     Reading the file's entries once, the common coefficients 1 and -1
 *     recognised in the file's form, leaves one product for the others.
 * (2) Invariants: every entry is checked as zkey_coef checks it, by the
 *     task of its matrix (by both when the matrix is neither); a task stops
 *     at its first bad entry, so the smaller of the two is the first in
 *     file order. Row c goes to index perm c mod n (prove_shape.h).
 * (3) The "abc" stage of `grothmpi snarkjs prove --verbose`. */
static void sabc_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    sabc_job_t *j = arg;
    const SJ_API(zkey_t) *zk = j->zk;
    const uint8_t *e = zk->stream.coefs;
    SJ_FR(t) *v = j->vec[task];
    uint64_t mask = (uint64_t)zk->domain_size - 1;
    memset(v, 0, (size_t)zk->domain_size * sizeof(SJ_FR(t)));
    j->bad[task] = UINT64_MAX;
    for (uint64_t i = 0; i < zk->n_coefs; i++, e += COEF_BYTES) {
        uint32_t m = sj_u32(e), c = sj_u32(e + 4), s = sj_u32(e + 8);
        if (m != task && m <= 1)
            continue;
        SJ_FR(t) raw;
        if (m > 1 || c >= zk->domain_size || s >= zk->n_vars || SJ_FR_FROM_MONT(&raw, e + 12)) {
            j->bad[task] = i;
            return;
        }
        const SJ_FR(t) *x = &j->w[s];
        if (SJ_FR(is_zero)(x))
            continue;
        sj_coef_kind_t k = !memcmp(&raw, &j->one_raw, sizeof raw)         ? SJ_COEF_ONE
                           : !memcmp(&raw, &j->minus_one_raw, sizeof raw) ? SJ_COEF_MINUS_ONE
                                                                          : SJ_COEF_OTHER;
        if (k == SJ_COEF_OTHER)
            SJ_FR(mul)(&raw, &raw, &coef_inv_r);
        sj_coef_apply(&v[(j->perm * c) & mask], x, k, &raw);
    }
}

/* vec[0], vec[1] (domainSize elements each) = the rows of A and B over the
 * witness w, from a streamed key's section 4, the row of constraint c at
 * index perm c mod domainSize; the entries' pages of a mapped key leave
 * memory afterwards. Returns 0, or GM_EFORMAT naming the first bad entry in
 * file order (as the load of a resident key names it). */
static int stream_abc(const SJ_API(zkey_t) *zk, const SJ_FR(t) *w, SJ_FR(t) *vec[2], uint64_t perm,
                      topo_pool_t *pool, err_t *err)
{
    const snarkjs_zkey_stream_t *st = &zk->stream;
    sabc_job_t j = {.zk = zk, .w = w, .vec = {vec[0], vec[1]}, .perm = perm};
    int rc = SJ_FR(from_limbs)(&j.one_raw, SJ_FR_ONE.l); /* limbs 2^512 mod r: 1 as the file holds it */
    GM_ASSERT(rc == 0);
    SJ_FR(neg)(&j.minus_one_raw, &j.one_raw);
    topo_pool_run(pool, 2, sabc_task, &j);
    if (st->map.data)
        gm_file_drop(st->coefs, (size_t)zk->n_coefs * COEF_BYTES);
    uint64_t bad = j.bad[0] < j.bad[1] ? j.bad[0] : j.bad[1];
    if (bad == UINT64_MAX)
        return 0;
    SJ_API(coef_t) c;
    rc = zkey_coef(&c, st->coefs, zk, bad, st->what, err);
    GM_ASSERT(rc != 0);
    return rc;
}

static int stream_points(void **out, const SJ_API(zkey_t) *zk, snarkjs_section_t s, topo_pool_t *pool, err_t *err)
{
    const snarkjs_zkey_stream_t *st = &zk->stream;
    return section_points(out, zk, s, st->pts[s], st->subgroup, st->map.data != NULL, st->what, pool, err);
}

static int zkey_from_bytes(SJ_API(zkey_t) **out, const uint8_t *buf, size_t n, const char *what,
                           snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
{
    *out = NULL;
    SJ_API(zkey_t) *zk = gm_calloc(1, sizeof *zk);
    if (!zk)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", what);
    sj_bin_t b;
    int rc = zkey_header(zk, &b, buf, n, what, err);
    if (rc)
        goto fail;

    bool sg = flags & SNARKJS_ZKEY_SUBGROUP;
    if (flags & SNARKJS_ZKEY_STREAM) {
        snarkjs_zkey_stream_t *st = &zk->stream;
        size_t wl = strlen(what) + 1;
        if (!(st->what = gm_alloc(wl))) {
            rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", what);
            goto fail;
        }
        memcpy(st->what, what, wl);
        st->coefs = b.sec[4] + 4;
        for (int s = 0; s < SNARKJS_NSEC; s++)
            st->pts[s] = b.sec[zkey_secs[s].id];
        st->subgroup = sg;
        *out = zk;
        return 0;
    }
    void **dst[SNARKJS_NSEC] = {(void **)&zk->a, (void **)&zk->b1, (void **)&zk->b2, (void **)&zk->c,
                                (void **)&zk->h};
    if ((rc = decode_coefs(&zk->coefs, b.sec[4] + 4, zk, what, pool, err)))
        goto fail;
    for (int s = 0; s < SNARKJS_NSEC; s++)
        if ((rc = section_points(dst[s], zk, s, b.sec[zkey_secs[s].id], sg, false, what, pool, err)))
            goto fail;
    *out = zk;
    return 0;
fail:
    zkey_free(zk);
    return rc;
}

static int zkey_load(SJ_API(zkey_t) **out, const char *path, snarkjs_zkey_flags_t flags, topo_pool_t *pool,
                     err_t *err)
{
    *out = NULL;
    gm_map_t m;
    int rc = gm_file_map(&m, path, GM_MAP_WILLNEED, err);
    if (rc)
        return rc;
    static const uint8_t empty[1];
    rc = zkey_from_bytes(out, m.data ? m.data : empty, m.size, path, flags, pool, err);
    if (!rc && (flags & SNARKJS_ZKEY_STREAM))
        (*out)->stream.map = m; /* the key's bytes: unmapped by zkey_free */
    else
        gm_file_unmap(&m);
    return rc;
}

#undef HEADER_BYTES
#undef COEF_BYTES
#undef POINT_TASK
#undef COEF_TASK
