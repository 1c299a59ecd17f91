/*
 * snarkjs/wtns_shape.h — circom's witness file (.wtns; circom_runtime's
 * calculateWTNSBin, snarkjs src/wtns_utils.js), one reader for every curve:
 *   section 1 (40 bytes): u32 n8 = 32, prime[32], u32 nWitness
 *   section 2: nWitness x 32 bytes, standard form, little-endian
 * A template, not a header: snarkjs/wtns.c (BLS12-381) and snarkjs/bn_wtns.c
 * (BN254) include it once after snarkjs_internal.h, and wrap its static
 * functions (wtns_free, wtns_from_bytes, wtns_load, and the mapped view's
 * wtns_open, wtns_values) by name; the view itself (snarkjs_wtns_view_t,
 * closed by snarkjs_wtns_close) holds no field element and serves both. The prime must be the instance's r: a witness of the
 * other curve is named in the message.
 */
#ifndef SJ_CURVE
#error "wtns_shape.h is a template: include snarkjs/snarkjs_internal.h first and this once"
#endif

static void wtns_free(SJ_API(wtns_t) *w)
{
    if (!w)
        return;
    gm_free(w->w);
    w->w = NULL;
    w->n = 0;
}

/* The container and section 1; *vals = section 2 (checked: nWitness x 32 bytes). */
static int wtns_header(const uint8_t **vals, uint32_t *nw, const uint8_t *buf, size_t n, const char *what,
                       err_t *err)
{
    sj_bin_t b;
    int rc;
    if ((rc = sj_bin_parse(&b, buf, n, "wtns", 2, what, err)))
        return rc;
    if ((rc = sj_bin_field_header(&b, 40, SJ_R_BYTES, SJ_CURVE, "", what, err)))
        return rc;
    *nw = sj_u32(b.sec[1] + 36);
    if (*nw == 0)
        return gm_err_set(err, GM_EFORMAT, "%s: section 1 (header): nWitness is 0", what);
    if ((rc = sj_bin_need(&b, 2, 32 * (uint64_t)*nw, "witness values", what, err)))
        return rc;
    *vals = b.sec[2];
    return 0;
}

/* *out = the value at v (32 bytes, little-endian, plain); 0 or GM_ENONCANON
 * (not below r). Why the first test: a circom witness is mostly bits (SHA-256:
 * all but a few hundred of 62,421), and 0 and 1 need no product to enter
 * Montgomery form (2 % of a 2^16 proof). */
static inline int wtns_value(SJ_FR(t) *out, const uint8_t *v)
{
    static const uint8_t zero[31];
    if (v[0] <= 1 && !memcmp(v + 1, zero, sizeof zero)) {
        *out = v[0] ? SJ_FR_ONE : SJ_FR_ZERO;
        return 0;
    }
    return SJ_FR(from_bytes_le)(out, v);
}

/* out[0 .. hi - lo) = values [lo, hi) of section 2, each checked < r, and
 * value 0 checked to be 1 when lo is 0. */
static int wtns_decode(SJ_FR(t) *out, const uint8_t *vals, uint64_t lo, uint64_t hi, const char *what, err_t *err)
{
    for (uint64_t i = lo; i < hi; i++)
        if (wtns_value(&out[i - lo], vals + 32 * (size_t)i))
            return gm_err_set(err, GM_EFORMAT, "%s: section 2 (witness values): value %llu is not below r", what,
                              (unsigned long long)i);
    if (lo == 0 && hi > 0 && !SJ_FR(is_one)(&out[0]))
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (witness values): value 0 (the constant ONE) is not 1",
                          what);
    return 0;
}

static int wtns_from_bytes(SJ_API(wtns_t) *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    out->w = NULL;
    out->n = 0;
    const uint8_t *vals;
    uint32_t nw;
    int rc = wtns_header(&vals, &nw, buf, n, what, err);
    if (rc)
        return rc;
    SJ_FR(t) *w = gm_alloc((size_t)nw * sizeof(SJ_FR(t)));
    if (!w)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory for %u witness values", what, nw);
    if ((rc = wtns_decode(w, vals, 0, nw, what, err))) {
        gm_free(w);
        return rc;
    }
    out->w = w;
    out->n = nw;
    return 0;
}

static int wtns_load(SJ_API(wtns_t) *out, const char *path, err_t *err)
{
    out->w = NULL;
    out->n = 0;
    /* Mapped, not read: the values are decoded once, straight from the page
     * cache, with no copy of the file in memory beside them. */
    gm_map_t m;
    int rc = gm_file_map(&m, path, GM_MAP_SEQUENTIAL, err);
    if (rc)
        return rc;
    static const uint8_t empty[1];
    rc = wtns_from_bytes(out, m.data ? m.data : empty, m.size, path, err);
    gm_file_unmap(&m);
    return rc;
}


static int wtns_open(snarkjs_wtns_view_t *v, const char *path, err_t *err)
{
    memset(v, 0, sizeof *v);
    int rc = gm_file_map(&v->map, path, GM_MAP_NORMAL, err);
    if (rc)
        return rc;
    static const uint8_t empty[1];
    uint32_t nw = 0;
    SJ_FR(t) one;
    if ((rc = wtns_header(&v->vals, &nw, v->map.data ? v->map.data : empty, v->map.size, path, err)) ||
        (rc = wtns_decode(&one, v->vals, 0, 1, path, err))) {
        snarkjs_wtns_close(v);
        return rc;
    }
    v->n = nw;
    v->path = path;
    return 0;
}

static int wtns_values(const snarkjs_wtns_view_t *v, SJ_FR(t) *out, uint64_t lo, uint64_t hi, err_t *err)
{
    GM_ASSERT(lo <= hi && hi <= v->n);
    return wtns_decode(out, v->vals, lo, hi, v->path, err);
}
