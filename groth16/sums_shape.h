/*
 * groth16/sums_shape.h — the MSM stage of a Groth16 proof (its five sums)
 * and the transforms' device-or-CPU switch, written once for every curve,
 * key and prover. A template, not a header: a .c file defines the
 * parameters below, includes it once and calls its static functions
 * (groth16/prove.c over bellperson parameters; snarkjs/prove_shape.h over
 * a zkey, for snarkjs/prove.c and snarkjs/bn_prove.c; the split provers'
 * partial sums, mpi/split.c over parameter-file slices and
 * mpi/split_snarkjs_shape.h over zkey slices).
 *
 * The key source says what each sum is (sums_spec_t): a short list of
 * terms, each an MSM over {bases, scalars or a compact witness, density or
 * NULL, count}, and where the sum's time (and bytes read) are added.
 * Bellperson's A and B over z are two terms (z is two arrays: the inputs
 * and the aux, each with its density); a zkey's sums are one term each
 * (sum_dense), and so are a split rank's (over its slices, untimed: the
 * split times its MSM stage whole). Streamed parameters are terms too (sec
 * >= 0: the bases are read from the parameter file a chunk at a time,
 * groth16/stream.c), so a key in memory and one on disk run the same loop.
 * sums_cpu runs the sums of one unit on the CPU pool, with the caller's MSM
 * scratch or (none given) its own; sums_device (SS_DEVICE) those of k
 * units, the G1 sums' last terms as one groth16_backend_msm_beside batch on
 * resident bases (put there by bases_upload), the G2 sums on the CPU pool
 * beside it, the G1 sums' other terms after. xform (SS_NTT) is the one NTT
 * call, device or CPU; the split provers have their own split NTT and
 * leave it out.
 *
 * Parameters (#define before the #include; all are #undef'd at the end):
 *   SS_FR(x), SS_G1(x), SS_G2(x)   fr_x | bn_fr_x, g1_x | bn_g1_x, ... (ff/ff.h, ec/ec.h)
 *   SS_MSM(g)     msm_g | bn_msm_g (ec/ec.h): the MSMs and their scratch sizes
 *   SS_NTT(x)     (optional) ntt_x | bn_ntt_x (ntt/ntt.h), for xform
 *   SS_DEVICE     (optional) the device backend (groth16_backend_t), with
 *   SS_BE(x)      groth16_backend_x | groth16_backend_bn_x: its upload and ntt calls
 *   SS_KEYFILE    (optional, inside groth16/: groth16_internal.h) compact
 *                 witnesses and streamed parameters
 */
#ifndef SS_FR
#error "sums_shape.h is a template: define SS_FR, SS_G1, SS_G2, SS_MSM (SS_NTT for xform) and include it once"
#endif

/* The five sums: the G1 ones by SUM_*, B2 alone. */
enum { SUM_A, SUM_B1, SUM_L, SUM_H, SUM_G1 };
typedef struct {
    SS_G1(jac_t) g1[SUM_G1];
    SS_G2(jac_t) b2;
} sums_t;

/* One MSM of a sum: bases[j'] times scalars[j] over the n columns j whose
 * density bit is set (all when density NULL), j' counting the set bits. */
typedef struct {
    const void *bases; /* SS_G1(affine_t) or, in B2, SS_G2(affine_t) */
    const SS_FR(t) *scalars;
    const uint64_t *density;
    uint64_t n;
    const cs_compact_t *cz; /* not NULL (SS_KEYFILE): the scalars are these compact values (scalars NULL) */
#ifdef SS_KEYFILE
    int sec;                /* >= 0: streamed, the bases are section sec's points from b0 on (bases NULL) */
    uint64_t b0;
#endif
} sum_term_t;

/* One sum: nt terms, its wall time added to *ns (NULL: not timed), its
 * bytes read from storage to *rd (NULL: not counted). */
typedef struct {
    sum_term_t t[2];
    unsigned nt;
    uint64_t *ns, *rd;
} sum_spec_t;

typedef struct {
    sum_spec_t g1[SUM_G1], b2;
} sums_spec_t;

#ifndef SS_KEYFILE
/* A sum of one term, bases[j] times scalars[j] for j < n (no density),
 * timed into *ns (NULL: untimed): each of a zkey's sums and of a split
 * rank's partial sums over its slices. (With SS_KEYFILE, the terms of
 * bellperson's sums are groth16/prove.c's.) */
static sum_spec_t sum_dense(const void *bases, const SS_FR(t) *scalars, uint64_t n, uint64_t *ns)
{
    return (sum_spec_t){{{bases, scalars, NULL, n, NULL}}, 1, ns, NULL};
}
#endif

/* What the sums run with: MSM scratch for the largest term on pool (the
 * caller's sizing; NULL: sums_cpu allocates and frees its own,
 * sums_scratch), and (SS_KEYFILE) the compact witness's gather buffer, the
 * streamed parameters and their chunk buffers. */
typedef struct {
    void *scratch;
    topo_pool_t *pool;
#ifdef SS_KEYFILE
    void *gather;
    const groth16_params_t *file;
    g16_stream_buf_t *sbuf;
#endif
} sums_ctx_t;

/* *out (SS_G1(jac_t), or SS_G2(jac_t) when g2) = the term's MSM. Returns 0
 * or (streamed) g16_stream_msm's read or decode error. */
static int term_run(void *out, bool g2, const sum_term_t *t, const sums_ctx_t *c, err_t *err)
{
#ifdef SS_KEYFILE
    if (t->sec >= 0)
        return g16_stream_msm(out, c->file, t->sec, t->b0, t->density, t->n, t->scalars, t->cz, c->sbuf, c->gather,
                              c->scratch, c->pool, err);
    if (t->cz) {
        g16_msm_compact(out, g2, t->bases, t->density, t->cz, c->gather, c->scratch, c->pool);
        return 0;
    }
#else
    (void)err;
#endif
    if (g2)
        SS_MSM(g2)(out, t->bases, t->scalars, t->density, (size_t)t->n, 0, c->scratch, c->pool);
    else
        SS_MSM(g1)(out, t->bases, t->scalars, t->density, (size_t)t->n, 0, c->scratch, c->pool);
    return 0;
}

/* *out = the sum of the terms [first, end) of s (first < end). Untimed. */
static int terms_add(void *out, bool g2, const sum_spec_t *s, unsigned first, unsigned end, const sums_ctx_t *c,
                     err_t *err)
{
    int rc = term_run(out, g2, &s->t[first], c, err);
    for (unsigned i = first + 1; i < end && !rc; i++) {
        union {
            SS_G1(jac_t) p1;
            SS_G2(jac_t) p2;
        } p;
        if ((rc = term_run(&p, g2, &s->t[i], c, err)))
            break;
        if (g2)
            SS_G2(add)(out, out, &p.p2);
        else
            SS_G1(add)(out, out, &p.p1);
    }
    return rc;
}

/* One sum on the CPU, timed into *s->ns (and its reads into *s->rd). */
static int sum_cpu(void *out, bool g2, const sum_spec_t *s, const sums_ctx_t *c, err_t *err)
{
    uint64_t t0 = gm_now_ns();
#ifdef SS_KEYFILE
    uint64_t r0 = s->rd ? g16_io_read_bytes() : 0;
#endif
    int rc = terms_add(out, g2, s, 0, s->nt, c, err);
    if (s->ns)
        *s->ns += gm_now_ns() - t0;
#ifdef SS_KEYFILE
    if (s->rd)
        *s->rd += g16_io_read_bytes() - r0;
#endif
    return rc;
}

/* c->scratch = gm_alloc'd MSM scratch for the largest term of s on
 * c->pool, sized by the terms' counts (enough for streamed and compact
 * terms too: they run a chunk at a time). Returns 0 or GM_ENOMEM. */
static int sums_scratch(sums_ctx_t *c, const sums_spec_t *s, err_t *err)
{
    unsigned nw = topo_pool_size(c->pool);
    uint64_t nmax = 0;
    size_t sz = 0;
    for (int i = 0; i <= SUM_G1; i++) {
        const sum_spec_t *sp = i < SUM_G1 ? &s->g1[i] : &s->b2;
        for (unsigned k = 0; k < sp->nt; k++) {
            size_t n = (size_t)sp->t[k].n;
            size_t b = i < SUM_G1 ? SS_MSM(g1_scratch_size)(n, nw, 0) : SS_MSM(g2_scratch_size)(n, nw, 0);
            sz = b > sz ? b : sz;
            nmax = n > nmax ? n : nmax;
        }
    }
    if (!(c->scratch = gm_alloc(sz)))
        return gm_err_set(err, GM_ENOMEM, "prover: out of memory for the MSM scratch of %llu points (%zu bytes)",
                          (unsigned long long)nmax, sz);
    return 0;
}

/* The five sums of one unit on the CPU: the G1 ones, then B2, with
 * c->scratch or (NULL) sums_scratch's for the call. Returns 0, GM_ENOMEM
 * (that scratch) or the first term's error (streamed parameters); the sums
 * are undefined on an error. */
static int sums_cpu(sums_t *x, const sums_spec_t *s, const sums_ctx_t *c, err_t *err)
{
    sums_ctx_t own = *c;
    int rc = c->scratch ? 0 : sums_scratch(&own, s, err);
    for (int i = 0; i < SUM_G1 && !rc; i++)
        rc = sum_cpu(&x->g1[i], false, &s->g1[i], &own, err);
    if (!rc)
        rc = sum_cpu(&x->b2, true, &s->b2, &own, err);
    if (!c->scratch)
        gm_free(own.scratch);
    return rc;
}

#ifdef SS_DEVICE
typedef struct {
    sums_t *x;
    const sums_spec_t *s;
    size_t k;
    const sums_ctx_t *c;
} g2_job_t;

/* The G2 sums of the batch on the CPU pool while the device runs the G1
 * ones: resident bases (the device path has no streamed terms), so they
 * cannot fail. */
static void g2_job(void *arg)
{
    g2_job_t *j = arg;
    err_t e;
    for (size_t i = 0; i < j->k; i++)
        (void)sum_cpu(&j->x[i].b2, true, &j->s[i].b2, j->c, &e);
}

/* Frees the resident bases gb[SUM_*] of the G1 sums' device terms (held
 * on be; NULL: none held). */
static void bases_free(groth16_backend_t *be, gpu_g1_bases_t *gb[SUM_G1])
{
    for (int j = 0; j < SUM_G1; j++) {
        if (be)
            groth16_backend_free_bases(be, gb[j]);
        gb[j] = NULL;
    }
}

/* gb[j] = the n[j] points p[j] resident on be, for each G1 sum j; a set the
 * device cannot take stays NULL (sums_device wants all four: bases_all), in
 * a warning "who: the names[j] bases (n points) stay on the CPU: why". */
static void bases_upload(groth16_backend_t *be, gpu_g1_bases_t *gb[SUM_G1], const SS_G1(affine_t) *const p[SUM_G1],
                         const uint64_t n[SUM_G1], const char *const names[SUM_G1], const char *who)
{
    for (int j = 0; j < SUM_G1; j++) {
        err_t e;
        if (SS_BE(upload)(be, &gb[j], p[j], (size_t)n[j], &e))
            gm_log(GM_LOG_WARN, "%s: the %s bases (%llu points) stay on the CPU: %s", who, names[j],
                   (unsigned long long)n[j], e.msg);
    }
}

/* Whether sums_device may run: every G1 sum's device term resident. */
static bool bases_all(gpu_g1_bases_t *const gb[SUM_G1]) { return gb[SUM_A] && gb[SUM_B1] && gb[SUM_L] && gb[SUM_H]; }

/* The term of unit i's G1 sum j that the device runs: its last. */
static const sum_term_t *dev_term(const sums_spec_t *s, size_t i, int j) { return &s[i].g1[j].t[s[i].g1[j].nt - 1]; }

/* The compact witness of unit i's device terms (they share one: the unit's
 * aux values), or NULL. */
static const cs_compact_t *unit_cz(const sums_spec_t *s, size_t i)
{
    for (int j = 0; j < SUM_G1; j++)
        if (dev_term(s, i, j)->cz)
            return dev_term(s, i, j)->cz;
    return NULL;
}

/* The sums of k units (s[i] each, whose G1 sums' last terms are over the
 * resident bases gb[SUM_*] with the same density and count in every unit)
 * on the device beside the CPU pool; unit 0's ns pointers take the device's
 * time. Compact witnesses are expanded for the device (32 B per value, once
 * per unit, freed before the return). Returns 0, GM_ENOMEM, or the device's
 * error (e set; the sums undefined). */
static int sums_device(groth16_backend_t *be, gpu_g1_bases_t *const gb[SUM_G1], sums_t *x, const sums_spec_t *s,
                       size_t k, const sums_ctx_t *c, err_t *e)
{
    const SS_FR(t) **sc = gm_alloc(SUM_G1 * k * sizeof *sc);
    SS_G1(jac_t) *o = gm_alloc(SUM_G1 * k * sizeof *o);
    size_t nexp = 0, ncz = 0;
    for (size_t i = 0; i < k; i++)
        if (unit_cz(s, i))
            nexp += (size_t)unit_cz(s, i)->n, ncz++;
    SS_FR(t) *expanded = ncz ? gm_alloc((nexp + 1) * sizeof(SS_FR(t))) : NULL, *next = expanded;
    if (!sc || !o || (ncz && !expanded)) {
        gm_free(expanded);
        gm_free(sc);
        gm_free(o);
        return gm_err_set(e, GM_ENOMEM, "prover: out of memory for a batch of %zu units", k);
    }
    for (size_t i = 0; i < k; i++) {
        const cs_compact_t *cz = unit_cz(s, i);
#ifdef SS_KEYFILE
        if (cz)
            cs_compact_expand(next, cz, 0, cz->n);
#endif /* else no compact witnesses: cz is NULL */
        for (int j = 0; j < SUM_G1; j++)
            sc[(size_t)j * k + i] = dev_term(s, i, j)->cz ? next : dev_term(s, i, j)->scalars;
        next += cz ? cz->n : 0;
    }
    groth16_backend_msm_t m[SUM_G1];
    for (int j = 0; j < SUM_G1; j++) {
        const sum_term_t *t = dev_term(s, 0, j);
        m[j] = (groth16_backend_msm_t){o + (size_t)j * k, gb[j], (const void *const *)(sc + (size_t)j * k),
                                       t->density, (size_t)t->n, k, s[0].g1[j].ns};
    }
    g2_job_t g2 = {x, s, k, c};
    int rc = groth16_backend_msm_beside(be, m, SUM_G1, g2_job, &g2, e);
    /* the terms before the device's (a few inputs) on the CPU, untimed */
    for (size_t i = 0; !rc && i < k; i++)
        for (int j = 0; j < SUM_G1 && !rc; j++) {
            const sum_spec_t *sp = &s[i].g1[j];
            x[i].g1[j] = o[(size_t)j * k + i];
            SS_G1(jac_t) p;
            if (sp->nt > 1 && !(rc = terms_add(&p, false, sp, 0, sp->nt - 1, c, e)))
                SS_G1(add)(&x[i].g1[j], &x[i].g1[j], &p);
        }
    gm_free(sc);
    gm_free(o);
    gm_free(expanded);
    return rc;
}
#endif

#ifdef SS_NTT
/* One transform of v (2^log_n values) in direction dir: on the device when
 * be is not NULL (SS_DEVICE; false when it fails, counted against who),
 * else on the CPU with dom's NTT and scratch. */
static bool xform(groth16_backend_t *be, SS_NTT(domain_t) *dom, unsigned log_n, SS_FR(t) *v, gpu_ntt_dir_t dir,
                  void *scratch, topo_pool_t *pool, const char *who)
{
#ifdef SS_DEVICE
    if (be) {
        err_t e;
        if (SS_BE(ntt)(be, v, log_n, dir, &e) == 0)
            return true;
        groth16_backend_failed(be, who, &e);
        return false;
    }
#else
    (void)be, (void)log_n, (void)who;
#endif
    if (dir == GPU_NTT_FORWARD)
        SS_NTT(forward)(dom, v, scratch, pool);
    else if (dir == GPU_NTT_INVERSE)
        SS_NTT(inverse)(dom, v, scratch, pool);
    else if (dir == GPU_NTT_COSET_FORWARD)
        SS_NTT(coset_forward)(dom, v, scratch, pool);
    else
        SS_NTT(coset_inverse)(dom, v, scratch, pool);
    return true;
}
#endif

#undef SS_FR
#undef SS_G1
#undef SS_G2
#undef SS_MSM
#undef SS_NTT
#undef SS_DEVICE
#undef SS_BE
#undef SS_KEYFILE
