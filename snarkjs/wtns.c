/*
 * snarkjs/wtns.c — the .wtns reader (snarkjs/wtns_shape.h) for BLS12-381
 * under the names of snarkjs/snarkjs.h: read whole (snarkjs_wtns_load) or
 * through a mapping, a range of values at a time (snarkjs_wtns_open: the
 * ranks of a split proof), and the mapping's closer, which serves both
 * curves' views.
 */
#include "snarkjs/snarkjs_internal.h"
#include "snarkjs/wtns_shape.h"

void snarkjs_wtns_free(snarkjs_wtns_t *w) { wtns_free(w); }

int snarkjs_wtns_from_bytes(snarkjs_wtns_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    return wtns_from_bytes(out, buf, n, what, err);
}

int snarkjs_wtns_load(snarkjs_wtns_t *out, const char *path, err_t *err) { return wtns_load(out, path, err); }

void snarkjs_wtns_close(snarkjs_wtns_view_t *v)
{
    if (!v)
        return;
    gm_file_unmap(&v->map);
    memset(v, 0, sizeof *v);
}

int snarkjs_wtns_open(snarkjs_wtns_view_t *v, const char *path, err_t *err) { return wtns_open(v, path, err); }

int snarkjs_wtns_values(const snarkjs_wtns_view_t *v, fr_t *out, uint64_t lo, uint64_t hi, err_t *err)
{
    return wtns_values(v, out, lo, hi, err);
}
