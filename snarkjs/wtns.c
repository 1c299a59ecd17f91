/*
 * snarkjs/wtns.c — circom's witness file (.wtns; circom_runtime's
 * calculateWTNSBin, snarkjs src/wtns_utils.js):
 *   section 1 (40 bytes): u32 n8 = 32, prime[32], u32 nWitness
 *   section 2: nWitness x 32 bytes, standard form, little-endian
 */
#include "snarkjs/snarkjs_internal.h"

void snarkjs_wtns_free(snarkjs_wtns_t *w)
{
    if (!w)
        return;
    gm_free(w->w);
    w->w = NULL;
    w->n = 0;
}

int snarkjs_wtns_from_bytes(snarkjs_wtns_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    out->w = NULL;
    out->n = 0;
    sj_bin_t b;
    int rc;
    if ((rc = sj_bin_parse(&b, buf, n, "wtns", 2, what, err)))
        return rc;
    if ((rc = sj_bin_field_header(&b, 40, "", what, err)))
        return rc;
    const uint8_t *h = b.sec[1];
    uint32_t nw = sj_u32(h + 36);
    if (nw == 0)
        return gm_err_set(err, GM_EFORMAT, "%s: section 1 (header): nWitness is 0", what);
    if ((rc = sj_bin_need(&b, 2, 32 * (uint64_t)nw, "witness values", what, err)))
        return rc;
    fr_t *w = gm_alloc((size_t)nw * sizeof(fr_t));
    if (!w)
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory for %u witness values", what, nw);
    for (uint32_t i = 0; i < nw; i++)
        if (fr_from_bytes_le(&w[i], b.sec[2] + 32 * (size_t)i)) {
            gm_free(w);
            return gm_err_set(err, GM_EFORMAT, "%s: section 2 (witness values): value %u is not below r", what, i);
        }
    if (!fr_is_one(&w[0])) {
        gm_free(w);
        return gm_err_set(err, GM_EFORMAT, "%s: section 2 (witness values): value 0 (the constant ONE) is not 1",
                          what);
    }
    out->w = w;
    out->n = nw;
    return 0;
}

int snarkjs_wtns_load(snarkjs_wtns_t *out, const char *path, err_t *err)
{
    out->w = NULL;
    out->n = 0;
    uint8_t *buf;
    size_t n;
    int rc = gm_file_read(&buf, &n, path, err);
    if (rc)
        return rc;
    rc = snarkjs_wtns_from_bytes(out, buf, n, path, err);
    gm_free(buf);
    return rc;
}
