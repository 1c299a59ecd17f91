/*
 * snarkjs/json.c — snarkjs's proof.json, public.json and
 * verification_key.json, and its verifier.
 *
 * Writing reproduces `snarkjs groth16 prove` byte for byte: bfj.write with
 * {space: 1} gives JSON.stringify(x, null, 1) (one space per level, no
 * trailing newline), values are decimal strings of the affine standard-form
 * coordinates with the projective "1" (G2: ["1", "0"]), and a point at
 * infinity is ffjavascript's toObject of zero: [0, 1, 0].
 * Reading follows ffjavascript's unstringifyBigInts + fromObject: decimal or
 * "0x" hex strings, JSON integers; a third coordinate 1 (affine), 0
 * (infinity) or anything else (Jacobian Z: x = X/Z^2, y = Y/Z^3).
 */
#include <jansson.h>
#include <stdio.h>

#include "snarkjs/snarkjs_internal.h"

/* ---- writing ------------------------------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} sbuf_t;

static void sb_put(sbuf_t *s, const char *t)
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
static void sb_str(sbuf_t *s, int d, const char *v, bool last)
{
    char ind[16];
    memset(ind, ' ', (size_t)d);
    ind[d] = 0;
    sb_put(s, ind);
    sb_put(s, "\"");
    sb_put(s, v);
    sb_put(s, last ? "\"\n" : "\",\n");
}

static void sb_open(sbuf_t *s, int d, const char *key)
{
    char ind[16];
    memset(ind, ' ', (size_t)d);
    ind[d] = 0;
    sb_put(s, ind);
    if (key) {
        sb_put(s, "\"");
        sb_put(s, key);
        sb_put(s, "\": ");
    }
    sb_put(s, "[\n");
}

static void sb_close(sbuf_t *s, int d, bool last)
{
    char ind[16];
    memset(ind, ' ', (size_t)d);
    ind[d] = 0;
    sb_put(s, ind);
    sb_put(s, last ? "]\n" : "],\n");
}

static void sb_g1(sbuf_t *s, const char *key, const g1_affine_t *p)
{
    char x[FP_DEC_MAX], y[FP_DEC_MAX];
    sb_open(s, 1, key);
    if (p->inf) {
        sb_str(s, 2, "0", false);
        sb_str(s, 2, "1", false);
        sb_str(s, 2, "0", true);
    } else {
        fp_to_dec(x, &p->x);
        fp_to_dec(y, &p->y);
        sb_str(s, 2, x, false);
        sb_str(s, 2, y, false);
        sb_str(s, 2, "1", true);
    }
    sb_close(s, 1, false);
}

static void sb_fp2(sbuf_t *s, const fp2_t *a, bool last)
{
    char c0[FP_DEC_MAX], c1[FP_DEC_MAX];
    fp_to_dec(c0, &a->c0);
    fp_to_dec(c1, &a->c1);
    sb_open(s, 2, NULL);
    sb_str(s, 3, c0, false);
    sb_str(s, 3, c1, true);
    sb_close(s, 2, last);
}

static void sb_g2(sbuf_t *s, const char *key, const g2_affine_t *p)
{
    sb_open(s, 1, key);
    if (p->inf) {
        sb_fp2(s, &FP2_ZERO, false);
        sb_fp2(s, &FP2_ONE, false);
        sb_fp2(s, &FP2_ZERO, true);
    } else {
        sb_fp2(s, &p->x, false);
        sb_fp2(s, &p->y, false);
        sb_fp2(s, &FP2_ONE, true);
    }
    sb_close(s, 1, false);
}

int snarkjs_proof_to_json(char **out, const groth16_proof_t *proof, err_t *err)
{
    *out = NULL;
    sbuf_t s = {0};
    sb_put(&s, "{\n");
    sb_g1(&s, "pi_a", &proof->a);
    sb_g2(&s, "pi_b", &proof->b);
    sb_g1(&s, "pi_c", &proof->c);
    sb_put(&s, " \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}");
    if (s.oom) {
        gm_free(s.buf);
        return gm_err_set(err, GM_ENOMEM, "proof.json: out of memory");
    }
    *out = s.buf;
    return 0;
}

int snarkjs_public_to_json(char **out, const fr_t *pub, size_t n, err_t *err)
{
    *out = NULL;
    sbuf_t s = {0};
    if (n == 0) {
        sb_put(&s, "[]");
    } else {
        sb_put(&s, "[\n");
        for (size_t i = 0; i < n; i++) {
            char v[FR_DEC_MAX];
            fr_to_dec(v, &pub[i]);
            sb_str(&s, 1, v, i + 1 == n);
        }
        sb_put(&s, "]");
    }
    if (s.oom) {
        gm_free(s.buf);
        return gm_err_set(err, GM_ENOMEM, "public.json: out of memory");
    }
    *out = s.buf;
    return 0;
}

int snarkjs_proof_write_json(const char *path, const groth16_proof_t *proof, err_t *err)
{
    char *t;
    int rc = snarkjs_proof_to_json(&t, proof, err);
    if (rc)
        return rc;
    rc = gm_file_write(path, t, strlen(t), err);
    gm_free(t);
    return rc;
}

int snarkjs_public_write_json(const char *path, const fr_t *pub, size_t n, err_t *err)
{
    char *t;
    int rc = snarkjs_public_to_json(&t, pub, n, err);
    if (rc)
        return rc;
    rc = gm_file_write(path, t, strlen(t), err);
    gm_free(t);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------------- */

/* Parses a JSON number or a decimal / "0x" hex string into 6 little-endian
 * limbs. Returns 0, or GM_EFORMAT (not a number, negative, or >= 2^384). */
static int parse_int(uint64_t out[6], const json_t *v)
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

static int get_fp(fp_t *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    uint64_t l[6];
    if (parse_int(l, v))
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a number string", what, field);
    if (fp_from_limbs(out, l))
        return gm_err_set(err, GM_ENONCANON, "%s: %s: not below q", what, field);
    return 0;
}

static int get_fr(fr_t *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    uint64_t l[6];
    if (parse_int(l, v))
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a number string", what, field);
    if (l[4] || l[5] || fr_from_limbs(out, l))
        return gm_err_set(err, GM_ENONCANON, "%s: %s: not below r", what, field);
    return 0;
}

static int get_fp2(fp2_t *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    if (!json_is_array(v) || json_array_size(v) != 2)
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not an array of 2 numbers", what, field);
    int rc;
    char f[96];
    snprintf(f, sizeof f, "%s[0]", field);
    if ((rc = get_fp(&out->c0, json_array_get(v, 0), what, f, err)))
        return rc;
    snprintf(f, sizeof f, "%s[1]", field);
    return get_fp(&out->c1, json_array_get(v, 1), what, f, err);
}

/* A G1 point object [x, y] or [x, y, z]. */
static int get_g1(g1_affine_t *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3)
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a G1 point (an array of 2 or 3 numbers)", what, field);
    g1_jac_t j;
    int rc;
    char f[96];
    snprintf(f, sizeof f, "%s[0]", field);
    if ((rc = get_fp(&j.x, json_array_get(v, 0), what, f, err)))
        return rc;
    snprintf(f, sizeof f, "%s[1]", field);
    if ((rc = get_fp(&j.y, json_array_get(v, 1), what, f, err)))
        return rc;
    j.z = FP_ONE;
    snprintf(f, sizeof f, "%s[2]", field);
    if (n == 3 && (rc = get_fp(&j.z, json_array_get(v, 2), what, f, err)))
        return rc;
    g1_affine_t p;
    if (fp_is_zero(&j.z)) {
        g1_affine_set_inf(&p);
    } else {
        if (!g1_jac_on_curve(&j))
            return gm_err_set(err, GM_ENOTONCURVE, "%s: %s: not on the curve", what, field);
        g1_to_affine(&p, &j);
        if (!g1_affine_in_subgroup(&p))
            return gm_err_set(err, GM_ESUBGROUP, "%s: %s: not in the subgroup", what, field);
    }
    *out = p;
    return 0;
}

static int get_g2(g2_affine_t *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3)
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a G2 point (an array of 2 or 3 pairs)", what, field);
    g2_jac_t j;
    int rc;
    char f[96];
    snprintf(f, sizeof f, "%s[0]", field);
    if ((rc = get_fp2(&j.x, json_array_get(v, 0), what, f, err)))
        return rc;
    snprintf(f, sizeof f, "%s[1]", field);
    if ((rc = get_fp2(&j.y, json_array_get(v, 1), what, f, err)))
        return rc;
    j.z = FP2_ONE;
    snprintf(f, sizeof f, "%s[2]", field);
    if (n == 3 && (rc = get_fp2(&j.z, json_array_get(v, 2), what, f, err)))
        return rc;
    g2_affine_t p;
    if (fp2_is_zero(&j.z)) {
        g2_affine_set_inf(&p);
    } else {
        if (!g2_jac_on_curve(&j))
            return gm_err_set(err, GM_ENOTONCURVE, "%s: %s: not on the curve", what, field);
        g2_to_affine(&p, &j);
        if (!g2_affine_in_subgroup(&p))
            return gm_err_set(err, GM_ESUBGROUP, "%s: %s: not in the subgroup", what, field);
    }
    *out = p;
    return 0;
}

static int load_json(json_t **out, const char *path, err_t *err)
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

/* "protocol" / "curve", when present, must be groth16 / bls12381. */
static int check_kind(const json_t *o, const char *what, bool required, err_t *err)
{
    const json_t *p = json_object_get(o, "protocol"), *c = json_object_get(o, "curve");
    if (required && (!p || !c))
        return gm_err_set(err, GM_EFORMAT, "%s: %s is missing", what, !p ? "protocol" : "curve");
    if (p && (!json_is_string(p) || strcmp(json_string_value(p), "groth16") != 0))
        return gm_err_set(err, GM_ENOTSUP, "%s: protocol: %s, only \"groth16\" is supported", what,
                          json_is_string(p) ? json_string_value(p) : "(not a string)");
    if (c && (!json_is_string(c) || strcmp(json_string_value(c), "bls12381") != 0))
        return gm_err_set(err, GM_ENOTSUP, "%s: curve: %s, only \"bls12381\" is supported", what,
                          json_is_string(c) ? json_string_value(c) : "(not a string)");
    return 0;
}

static const json_t *need_key(const json_t *o, const char *key, const char *what, err_t *err)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        gm_err_set(err, GM_EFORMAT, "%s: %s is missing", what, key);
    return v;
}

int snarkjs_proof_read_json(groth16_proof_t *out, const char *path, err_t *err)
{
    json_t *o;
    int rc = load_json(&o, path, err);
    if (rc)
        return rc;
    groth16_proof_t p;
    const json_t *v;
    if (!json_is_object(o)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a JSON object", path);
    } else if (!(rc = check_kind(o, path, false, err))) {
        if (!(v = need_key(o, "pi_a", path, err)))
            rc = GM_EFORMAT;
        else if (!(rc = get_g1(&p.a, v, path, "pi_a", err))) {
            if (!(v = need_key(o, "pi_b", path, err)))
                rc = GM_EFORMAT;
            else if (!(rc = get_g2(&p.b, v, path, "pi_b", err))) {
                if (!(v = need_key(o, "pi_c", path, err)))
                    rc = GM_EFORMAT;
                else
                    rc = get_g1(&p.c, v, path, "pi_c", err);
            }
        }
    }
    json_decref(o);
    if (!rc)
        *out = p;
    return rc;
}

int snarkjs_public_read_json(fr_t **out, size_t *n, const char *path, err_t *err)
{
    *out = NULL;
    *n = 0;
    json_t *o;
    int rc = load_json(&o, path, err);
    if (rc)
        return rc;
    if (!json_is_array(o)) {
        json_decref(o);
        return gm_err_set(err, GM_EFORMAT, "%s: not a JSON array", path);
    }
    size_t k = json_array_size(o);
    fr_t *v = gm_alloc((k ? k : 1) * sizeof(fr_t));
    if (!v) {
        json_decref(o);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
    }
    for (size_t i = 0; i < k && !rc; i++) {
        char f[32];
        snprintf(f, sizeof f, "value %zu", i);
        rc = get_fr(&v[i], json_array_get(o, i), path, f, err);
    }
    json_decref(o);
    if (rc) {
        gm_free(v);
        return rc;
    }
    *out = v;
    *n = k;
    return 0;
}

int snarkjs_vk_read_json(groth16_vk_t *out, const char *path, err_t *err)
{
    memset(out, 0, sizeof *out);
    json_t *o;
    int rc = load_json(&o, path, err);
    if (rc)
        return rc;
    groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    const json_t *v, *ic;
    if (!json_is_object(o)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a JSON object", path);
        goto done;
    }
    if ((rc = check_kind(o, path, true, err)))
        goto done;
    if (!(v = need_key(o, "nPublic", path, err)) || !(ic = need_key(o, "IC", path, err))) {
        rc = GM_EFORMAT;
        goto done;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || !json_is_array(ic) ||
        json_array_size(ic) != (size_t)json_integer_value(v) + 1) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: IC: %zu points, nPublic + 1 expected", path,
                        json_is_array(ic) ? json_array_size(ic) : 0);
        goto done;
    }
    static const char *const g1k[1] = {"vk_alpha_1"};
    static const char *const g2k[3] = {"vk_beta_2", "vk_gamma_2", "vk_delta_2"};
    g2_affine_t *g2d[3] = {&vk.beta_g2, &vk.gamma_g2, &vk.delta_g2};
    if (!(v = need_key(o, g1k[0], path, err))) {
        rc = GM_EFORMAT;
        goto done;
    }
    if ((rc = get_g1(&vk.alpha_g1, v, path, g1k[0], err)))
        goto done;
    for (int i = 0; i < 3; i++) {
        if (!(v = need_key(o, g2k[i], path, err))) {
            rc = GM_EFORMAT;
            goto done;
        }
        if ((rc = get_g2(g2d[i], v, path, g2k[i], err)))
            goto done;
    }
    g1_affine_set_inf(&vk.beta_g1);
    g1_affine_set_inf(&vk.delta_g1);
    vk.n_ic = json_array_size(ic);
    vk.ic = gm_alloc(vk.n_ic * sizeof(g1_affine_t));
    if (!vk.ic) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    for (size_t i = 0; i < vk.n_ic; i++) {
        char f[32];
        snprintf(f, sizeof f, "IC[%zu]", i);
        if ((rc = get_g1(&vk.ic[i], json_array_get(ic, i), path, f, err)))
            goto done;
    }
done:
    json_decref(o);
    if (rc)
        groth16_vk_free(&vk);
    else
        *out = vk;
    return rc;
}

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
