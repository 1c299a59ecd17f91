/*
 * snarkjs/zkey_slice_shape.h — one rank's share of a .zkey for a split
 * proof, one reader for every curve. A template, not a header: included
 * once after snarkjs/zkey_shape.h, whose static parsing and decoding it
 * shares (zkey_header, zkey_coef, decode_points), by snarkjs/zkey.c
 * (BLS12-381) and snarkjs/bn_zkey.c (BN254), which wrap its static
 * functions (zkey_slice_free, zkey_slice_memory, zkey_load_slice) by name
 * and define SJ_ROOT_J first: snarkjs's root of unity is ours to the power
 * J, so constraint c is row J c mod domainSize in our NTT's order.
 *
 * The file is mapped, not read, so only the pages touched are: the section
 * table, sections 1-3, section 4 and the rank's slices of sections 5-9. Of
 * section 4, whose entries the file orders by constraint, not by our rows,
 * a part reads all to find its rows' entries, or with
 * SNARKJS_ZKEY_COEF_SHARE only its share by entry index (1/R of it), which
 * mpi/split_snarkjs_shape.h's ranks then exchange.
 */
#ifndef SJ_ROOT_J
#error "zkey_slice_shape.h is a template: define SJ_ROOT_J and include snarkjs/zkey_shape.h first"
#endif

#define COEF_BYTES 44 /* a section-4 entry (snarkjs/zkey_shape.h) */

static void zkey_slice_free(SJ_API(zkey_slice_t) *zs)
{
    if (!zs)
        return;
    SJ_VK_FREE(&zs->vk);
    gm_free(zs->coefs);
    gm_free(zs->to_part);
    gm_free(zs->a);
    gm_free(zs->b1);
    gm_free(zs->b2);
    gm_free(zs->c);
    gm_free(zs->h);
    memset(zs, 0, sizeof *zs);
}

static size_t zkey_slice_memory(const SJ_API(zkey_slice_t) *zs)
{
    size_t b = zs->vk.n_ic * sizeof(SJ_G1(affine_t)) + (size_t)zs->n_coefs * sizeof(SJ_API(coef_t));
    for (int s = 0; s < SNARKJS_NSEC; s++)
        b += (size_t)(zs->hi[s] - zs->lo[s]) *
             (s == SNARKJS_SEC_B2 ? sizeof(SJ_G2(affine_t)) : sizeof(SJ_G1(affine_t)));
    return b;
}

/* The row of constraint c in our NTT's order. */
static uint64_t slice_row_of(uint32_t c, uint64_t mask) { return ((uint64_t)SJ_ROOT_J * c) & mask; }

/* Part `part`'s rows of the domain of ds rows: the split NTT's natural
 * slice (groth16_slice_range of ds - 1 rows, the last part's up to ds). */
static void slice_rows(uint64_t *lo, uint64_t *hi, uint64_t ds, unsigned part, unsigned parts)
{
    groth16_slice_range(lo, hi, ds - 1, part, parts);
    if (part == parts - 1)
        *hi = ds;
}

/* The part whose rows hold row, from first[q] = part q's first row (the
 * parts' rows tile [0, 2^log_ds) in order, some may be empty): the
 * balanced guess, moved one part at a time. */
static unsigned slice_part_of_row(uint64_t row, const uint64_t *first, unsigned parts, unsigned log_ds)
{
    unsigned p = (unsigned)((row * parts) >> log_ds);
    while (row < first[p])
        p--;
    while (p + 1 < parts && row >= first[p + 1])
        p++;
    return p;
}

/* The part whose rows hold entry i of section 4 (sec: its first entry). */
static unsigned slice_part_of_coef(const SJ_API(zkey_slice_t) *zs, const uint8_t *sec, uint64_t i,
                                   const uint64_t *first, unsigned parts)
{
    uint64_t row = slice_row_of(sj_u32(sec + i * COEF_BYTES + 4), zs->domain_size - 1);
    return slice_part_of_row(row, first, parts, zs->log_domain);
}

/* Section 4's entries [elo, ehi) (all, or with share the part's share by
 * index) are counted by the part whose rows hold them (zs->to_part); the
 * part's own are decoded in file order, or with share all of them, grouped
 * by part. Only the decoded entries are checked (the other parts check
 * theirs). */
static int slice_load_coefs(SJ_API(zkey_slice_t) *zs, const sj_bin_t *b, const SJ_API(zkey_t) *hdr, unsigned part,
                            unsigned parts, bool share, const char *what, err_t *err)
{
    uint64_t elo = 0, ehi = hdr->n_coefs, ds = zs->domain_size, hi;
    if (share)
        groth16_slice_range(&elo, &ehi, hdr->n_coefs, part, parts);
    const uint8_t *sec = b->sec[4] + 4;
    uint64_t *first = gm_alloc(2 * (size_t)parts * sizeof *first); /* and at: each part's next place */
    zs->to_part = gm_calloc(parts, sizeof *zs->to_part);
    if (!first || !zs->to_part) {
        gm_free(first);
        return gm_err_set(err, GM_ENOMEM, "%s: section 4 (Coefs): out of memory", what);
    }
    uint64_t *at = first + parts;
    for (unsigned q = 0; q < parts; q++)
        slice_rows(&first[q], &hi, ds, q, parts);
    for (uint64_t i = elo; i < ehi; i++)
        zs->to_part[slice_part_of_coef(zs, sec, i, first, parts)]++;
    uint64_t n = share ? ehi - elo : zs->to_part[part];
    at[0] = 0;
    for (unsigned q = 1; q < parts; q++)
        at[q] = share ? at[q - 1] + zs->to_part[q - 1] : 0;
    int rc = 0;
    zs->coefs = gm_alloc((size_t)(n ? n : 1) * sizeof(SJ_API(coef_t)));
    if (!zs->coefs) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: section 4 (Coefs): out of memory for %llu entries", what,
                        (unsigned long long)n);
        goto out;
    }
    /* Shared entries cross the network whole: no uninitialised padding. */
    if (share)
        memset(zs->coefs, 0, (size_t)n * sizeof(SJ_API(coef_t)));
    for (uint64_t i = elo; i < ehi && !rc; i++) {
        unsigned q = slice_part_of_coef(zs, sec, i, first, parts);
        if (share || q == part)
            rc = zkey_coef(&zs->coefs[at[q]++], sec, hdr, i, what, err);
    }
    zs->n_coefs = n;
out:
    gm_free(first);
    if (!share) {
        gm_free(zs->to_part);
        zs->to_part = NULL;
    }
    return rc;
}

static int zkey_load_slice(SJ_API(zkey_slice_t) *out, const char *path, unsigned part, unsigned parts,
                           snarkjs_zkey_flags_t flags, topo_pool_t *pool, err_t *err)
{
    memset(out, 0, sizeof *out);
    GM_ASSERT(parts >= 1 && part < parts);
    gm_map_t m;
    int rc = gm_file_map(&m, path, GM_MAP_NORMAL, err);
    if (rc)
        return rc;
    static const uint8_t empty[1];
    SJ_API(zkey_t) hdr;
    memset(&hdr, 0, sizeof hdr);
    sj_bin_t b;
    rc = zkey_header(&hdr, &b, m.data ? m.data : empty, m.size, path, err);
    out->vk = hdr.vk; /* owned by the slice from here: freed with it */
    if (rc)
        goto fail;
    out->n_vars = hdr.n_vars, out->n_public = hdr.n_public;
    out->domain_size = hdr.domain_size, out->log_domain = hdr.log_domain;
    out->n_coefs_file = hdr.n_coefs;
    uint64_t ds = hdr.domain_size;
    slice_rows(&out->row_lo, &out->row_hi, ds, part, parts);
    if ((rc = slice_load_coefs(out, &b, &hdr, part, parts, flags & SNARKJS_ZKEY_COEF_SHARE, path, err)))
        goto fail;

    void **dst[SNARKJS_NSEC] = {(void **)&out->a, (void **)&out->b1, (void **)&out->b2, (void **)&out->c,
                                (void **)&out->h};
    bool sg = flags & SNARKJS_ZKEY_SUBGROUP;
    for (int s = 0; s < SNARKJS_NSEC; s++) {
        groth16_slice_range(&out->lo[s], &out->hi[s], sec_count(s, hdr.n_vars, hdr.n_public, ds), part, parts);
        size_t psz = zkey_secs[s].g2 ? SJ_G2_BYTES : SJ_G1_BYTES;
        if ((rc = decode_points(dst[s], b.sec[zkey_secs[s].id] + out->lo[s] * psz, out->hi[s] - out->lo[s],
                                out->lo[s], zkey_secs[s].g2, sg, false, zkey_secs[s].id, zkey_secs[s].name, path,
                                pool, err)))
            goto fail;
    }
    gm_file_unmap(&m);
    return 0;
fail:
    gm_file_unmap(&m);
    zkey_slice_free(out);
    return rc;
}

#undef COEF_BYTES
