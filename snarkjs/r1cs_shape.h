/*
 * snarkjs/r1cs_shape.h — circom's .r1cs (r1csfile/src/r1csfile.js) and the
 * witness check `snarkjs wtns check` does, one reader for every curve. A
 * template, not a header: snarkjs/r1cs.c (BLS12-381) and snarkjs/bn_r1cs.c
 * (BN254) include it once after snarkjs_internal.h and wrap its static
 * functions (r1cs_free, r1cs_from_bytes, r1cs_load, r1cs_check) by name.
 *
 *   section 1 (64 bytes): u32 n8 = 32, prime[32] (the instance's r),
 *                         u32 nWires, nPubOut, nPubIn, nPrvIn, u64 nLabels,
 *                         u32 nConstraints
 *   section 2: per constraint three combinations A, B, C, each u32 nTerms
 *              then nTerms x (u32 wire, coef[32] standard form LE)
 *   section 3: nWires x u64 labels (optional for us)
 *   sections 4, 5: custom gates (not supported)
 */
#ifndef SJ_CURVE
#error "r1cs_shape.h is a template: include snarkjs/snarkjs_internal.h first and this once"
#endif

static void r1cs_free(SJ_API(r1cs_t) *r)
{
    if (!r)
        return;
    gm_free(r->lc_start);
    gm_free(r->wire);
    gm_free(r->coef);
    gm_free(r);
}

static int r1cs_from_bytes(SJ_API(r1cs_t) **out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    *out = NULL;
    sj_bin_t b;
    int rc;
    if ((rc = sj_bin_parse(&b, buf, n, "r1cs", 1, what, err)))
        return rc;
    if ((rc = sj_bin_field_header(&b, 64, SJ_R_BYTES, SJ_CURVE, " (circom --prime " SJ_CURVE ")", what, err)))
        return rc;
    const uint8_t *h = b.sec[1];
    if (b.sec[4] || b.sec[5])
        return gm_err_set(err, GM_ENOTSUP, "%s: custom gates (section %d) are not supported", what,
                          b.sec[4] ? 4 : 5);
    if ((rc = sj_bin_need(&b, 2, UINT64_MAX, "constraints", what, err)))
        return rc;

    SJ_API(r1cs_t) *r = gm_calloc(1, sizeof *r);
    if (!r)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", what);
    r->n_wires = sj_u32(h + 36);
    r->n_pub_out = sj_u32(h + 40);
    r->n_pub_in = sj_u32(h + 44);
    r->n_prv_in = sj_u32(h + 48);
    r->n_labels = sj_u64(h + 52);
    r->n_constraints = sj_u32(h + 60);
    if (1 + (uint64_t)r->n_pub_out + r->n_pub_in + r->n_prv_in > r->n_wires) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: section 1 (header): 1 + nPubOut %u + nPubIn %u + nPrvIn %u exceeds "
                        "nWires %u", what, r->n_pub_out, r->n_pub_in, r->n_prv_in, r->n_wires);
        goto fail;
    }
    if (b.sec[3] && b.len[3] != 8 * (uint64_t)r->n_wires) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: section 3 (wire labels): length %llu is not nWires * 8 = %llu", what,
                        (unsigned long long)b.len[3], 8 * (unsigned long long)r->n_wires);
        goto fail;
    }
    /* Each combination takes >= 4 bytes: bound the constraint count by the
     * section before allocating for it. */
    const uint8_t *p = b.sec[2];
    uint64_t len = b.len[2];
    if ((uint64_t)r->n_constraints * 12 > len) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: section 2 (constraints): length %llu cannot hold nConstraints %u "
                        "(12 bytes each at least)", what, (unsigned long long)len, r->n_constraints);
        goto fail;
    }
    uint64_t max_terms = len / 36;
    r->lc_start = gm_alloc((3 * (size_t)r->n_constraints + 1) * sizeof(uint64_t));
    r->wire = gm_alloc((size_t)(max_terms ? max_terms : 1) * sizeof(uint32_t));
    r->coef = gm_alloc((size_t)(max_terms ? max_terms : 1) * sizeof(SJ_FR(t)));
    if (!r->lc_start || !r->wire || !r->coef) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory for %u constraints", what, r->n_constraints);
        goto fail;
    }
    uint64_t pos = 0, t = 0;
    static const char MAT[3] = {'A', 'B', 'C'};
    for (uint64_t lc = 0; lc < 3 * (uint64_t)r->n_constraints; lc++) {
        r->lc_start[lc] = t;
        if (len - pos < 4) {
            rc = gm_err_set(err, GM_EFORMAT, "%s: section 2 (constraints): constraint %llu, %c: truncated", what,
                            (unsigned long long)(lc / 3), MAT[lc % 3]);
            goto fail;
        }
        uint32_t nt = sj_u32(p + pos);
        pos += 4;
        if ((uint64_t)nt * 36 > len - pos) {
            rc = gm_err_set(err, GM_EFORMAT, "%s: section 2 (constraints): constraint %llu, %c: %u terms, only %llu "
                            "bytes left", what, (unsigned long long)(lc / 3), MAT[lc % 3], nt,
                            (unsigned long long)(len - pos));
            goto fail;
        }
        for (uint32_t k = 0; k < nt; k++, t++, pos += 36) {
            uint32_t wire = sj_u32(p + pos);
            if (wire >= r->n_wires) {
                rc = gm_err_set(err, GM_EFORMAT, "%s: section 2 (constraints): constraint %llu, %c: wire %u is not "
                                "below nWires %u", what, (unsigned long long)(lc / 3), MAT[lc % 3], wire, r->n_wires);
                goto fail;
            }
            r->wire[t] = wire;
            if (SJ_FR(from_bytes_le)(&r->coef[t], p + pos + 4)) {
                rc = gm_err_set(err, GM_EFORMAT, "%s: section 2 (constraints): constraint %llu, %c: coefficient of "
                                "wire %u is not below r", what, (unsigned long long)(lc / 3), MAT[lc % 3], wire);
                goto fail;
            }
        }
    }
    r->lc_start[3 * (size_t)r->n_constraints] = t;
    r->n_terms = t;
    if (pos != len) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: section 2 (constraints): %llu bytes after constraint %u", what,
                        (unsigned long long)(len - pos), r->n_constraints);
        goto fail;
    }
    *out = r;
    return 0;
fail:
    r1cs_free(r);
    return rc;
}

static int r1cs_load(SJ_API(r1cs_t) **out, const char *path, err_t *err)
{
    *out = NULL;
    uint8_t *buf;
    size_t n;
    int rc = gm_file_read(&buf, &n, path, err);
    if (rc)
        return rc;
    rc = r1cs_from_bytes(out, buf, n, path, err);
    gm_free(buf);
    return rc;
}

static void lc_eval(SJ_FR(t) *out, const SJ_API(r1cs_t) *r, uint64_t lc, const SJ_FR(t) *w)
{
    SJ_FR(t) acc = SJ_FR_ZERO, t;
    for (uint64_t k = r->lc_start[lc]; k < r->lc_start[lc + 1]; k++) {
        SJ_FR(mul)(&t, &r->coef[k], &w[r->wire[k]]);
        SJ_FR(add)(&acc, &acc, &t);
    }
    *out = acc;
}

static int r1cs_check(const SJ_API(r1cs_t) *r, const SJ_FR(t) *w, size_t n, const char *what, err_t *err)
{
    if (n != r->n_wires)
        return gm_err_set(err, GM_EINVAL, "%s: the witness has %zu values, the circuit %u wires", what, n,
                          r->n_wires);
    if (!SJ_FR(is_one)(&w[0]))
        return gm_err_set(err, GM_EINVAL, "%s: witness value 0 (the constant ONE) is not 1", what);
    for (uint64_t i = 0; i < r->n_constraints; i++) {
        SJ_FR(t) a, bb, c;
        lc_eval(&a, r, 3 * i, w);
        lc_eval(&bb, r, 3 * i + 1, w);
        lc_eval(&c, r, 3 * i + 2, w);
        SJ_FR(mul)(&a, &a, &bb);
        if (!SJ_FR(eq)(&a, &c))
            return gm_err_set(err, GM_EVERIFY, "%s: constraint %llu is not satisfied", what, (unsigned long long)i);
    }
    return 0;
}
