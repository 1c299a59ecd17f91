/*
 * snarkjs/json.c — snarkjs's JSON files (snarkjs/json_shape.h) for
 * BLS12-381 under the names of snarkjs/snarkjs.h, the layout and number
 * helpers every curve's instance shares, and the BLS12-381 verifier.
 */
#include <jansson.h>
#include <stdio.h>

#include "snarkjs/snarkjs_internal.h"

/* ---- shared by every curve's instance ---------------------------------------------------------- */

void sj_sb_put(sj_sbuf_t *s, const char *t)
{
    size_t n = strlen(t);
    if (s->oom)
        return;
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 1024;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *nb = gm_alloc(cap);
        if (!nb) {
            s->oom = true;
            return;
        }
        if (s->buf)
            memcpy(nb, s->buf, s->len);
        gm_free(s->buf);
        s->buf = nb;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, t, n + 1);
    s->len += n;
}

/* One string element at nesting depth d (d spaces), with a comma unless last. */
void sj_sb_str(sj_sbuf_t *s, int d, const char *v, bool last)
{
    char ind[16];
    memset(ind, ' ', (size_t)d);
    ind[d] = 0;
    sj_sb_put(s, ind);
    sj_sb_put(s, "\"");
    sj_sb_put(s, v);
    sj_sb_put(s, last ? "\"\n" : "\",\n");
}

void sj_sb_open(sj_sbuf_t *s, int d, const char *key)
{
    char ind[16];
    memset(ind, ' ', (size_t)d);
    ind[d] = 0;
    sj_sb_put(s, ind);
    if (key) {
        sj_sb_put(s, "\"");
        sj_sb_put(s, key);
        sj_sb_put(s, "\": ");
    }
    sj_sb_put(s, "[\n");
}

void sj_sb_close(sj_sbuf_t *s, int d, bool last)
{
    char ind[16];
    memset(ind, ' ', (size_t)d);
    ind[d] = 0;
    sj_sb_put(s, ind);
    sj_sb_put(s, last ? "]\n" : "],\n");
}

/* Parses a JSON number or a decimal / "0x" hex string into 6 little-endian
 * limbs. Returns 0, or GM_EFORMAT (not a number, negative, or >= 2^384). */
int sj_json_int(uint64_t out[6], const json_t *v)
{
    memset(out, 0, 6 * sizeof(uint64_t));
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0)
            return GM_EFORMAT;
        out[0] = (uint64_t)i;
        return 0;
    }
    if (!json_is_string(v))
        return GM_EFORMAT;
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    if (len == 0)
        return GM_EFORMAT;
    unsigned base = 10;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        len -= 2;
    }
    for (size_t k = 0; k < len; k++) {
        unsigned d;
        char c = s[k];
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return GM_EFORMAT;
        /* out = out * base + d, overflow past 384 bits is an error. */
        unsigned __int128 carry = d;
        for (int i = 0; i < 6; i++) {
            unsigned __int128 t = (unsigned __int128)out[i] * base + carry;
            out[i] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry)
            return GM_EFORMAT;
    }
    return 0;
}

int sj_json_load(json_t **out, const char *path, err_t *err)
{
    json_error_t je;
    *out = json_load_file(path, JSON_DECODE_ANY, &je);
    if (*out)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gm_err_set(err, GM_EIO, "%s: cannot open", path);
    fclose(f);
    return gm_err_set(err, GM_EFORMAT, "%s: line %d: %s", path, je.line, je.text);
}

const json_t *sj_json_key(const json_t *o, const char *key, const char *what, err_t *err)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        gm_err_set(err, GM_EFORMAT, "%s: %s is missing", what, key);
    return v;
}

#include "snarkjs/json_shape.h"

int snarkjs_proof_to_json(char **out, const groth16_proof_t *proof, err_t *err)
{
    return proof_to_json(out, proof, err);
}

int snarkjs_public_to_json(char **out, const fr_t *pub, size_t n, err_t *err)
{
    return public_to_json(out, pub, n, err);
}

int snarkjs_proof_write_json(const char *path, const groth16_proof_t *proof, err_t *err)
{
    return proof_write_json(path, proof, err);
}

int snarkjs_public_write_json(const char *path, const fr_t *pub, size_t n, err_t *err)
{
    return public_write_json(path, pub, n, err);
}

int snarkjs_proof_read_json(groth16_proof_t *out, const char *path, err_t *err)
{
    return proof_read_json(out, path, err);
}

int snarkjs_public_read_json(fr_t **out, size_t *n, const char *path, err_t *err)
{
    return public_read_json(out, n, path, err);
}

int snarkjs_vk_read_json(groth16_vk_t *out, const char *path, err_t *err) { return vk_read_json(out, path, err); }

int snarkjs_verify(const groth16_vk_t *vk, const groth16_proof_t *proof, const fr_t *pub, size_t n, err_t *err)
{
    if (n + 1 != vk->n_ic)
        return gm_err_set(err, GM_EINVAL, "verify: %zu public values given, the verification key has nPublic = %zu", n,
                          vk->n_ic ? vk->n_ic - 1 : 0);
    groth16_pvk_t pvk;
    int rc = groth16_pvk_prepare(&pvk, vk, err);
    if (rc)
        return rc;
    rc = groth16_verify(&pvk, proof, pub, n, err);
    groth16_pvk_free(&pvk);
    return rc;
}

int snarkjs_json_curve_of_file(snarkjs_curve_t *out, const char *path, err_t *err)
{
    json_t *o;
    int rc = sj_json_load(&o, path, err);
    if (rc)
        return rc;
    const json_t *c = json_is_object(o) ? json_object_get(o, "curve") : NULL;
    const char *name = c && json_is_string(c) ? json_string_value(c) : NULL;
    if (!json_is_object(o))
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a JSON object", path);
    else if (!c)
        *out = SNARKJS_BLS12381;
    else if (name && strcmp(name, "bls12381") == 0)
        *out = SNARKJS_BLS12381;
    else if (name && strcmp(name, "bn128") == 0)
        *out = SNARKJS_BN128;
    else
        rc = gm_err_set(err, GM_ENOTSUP, "%s: curve: %s, expected \"bn128\" or \"bls12381\"", path,
                        name ? name : "(not a string)");
    json_decref(o);
    return rc;
}
