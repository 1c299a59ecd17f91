/*
 * snarkjs/json_shape.h — snarkjs's proof.json, public.json and
 * verification_key.json, one writer and reader for every curve. A
 * template, not a header: snarkjs/json.c (BLS12-381, "curve": "bls12381")
 * and snarkjs/bn_json.c (BN254, "bn128") include it once after
 * snarkjs_internal.h and <jansson.h>, and wrap its static functions
 * (proof_to_json, public_to_json, proof_write_json, public_write_json,
 * proof_read_json, public_read_json, vk_read_json) by name; the layout
 * helpers they share are json.c's (sj_sb_*, sj_json_*).
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
#ifndef SJ_CURVE
#error "json_shape.h is a template: include snarkjs/snarkjs_internal.h and <jansson.h> first and this once"
#endif

/* ---- writing ------------------------------------------------------------------------------------- */

static void sb_g1(sj_sbuf_t *s, const char *key, const SJ_G1(affine_t) *p)
{
    char x[SJ_DEC_MAX], y[SJ_DEC_MAX];
    sj_sb_open(s, 1, key);
    if (p->inf) {
        sj_sb_str(s, 2, "0", false);
        sj_sb_str(s, 2, "1", false);
        sj_sb_str(s, 2, "0", true);
    } else {
        SJ_FP(to_dec)(x, &p->x);
        SJ_FP(to_dec)(y, &p->y);
        sj_sb_str(s, 2, x, false);
        sj_sb_str(s, 2, y, false);
        sj_sb_str(s, 2, "1", true);
    }
    sj_sb_close(s, 1, false);
}

static void sb_fp2(sj_sbuf_t *s, const SJ_FP2(t) *a, bool last)
{
    char c0[SJ_DEC_MAX], c1[SJ_DEC_MAX];
    SJ_FP(to_dec)(c0, &a->c0);
    SJ_FP(to_dec)(c1, &a->c1);
    sj_sb_open(s, 2, NULL);
    sj_sb_str(s, 3, c0, false);
    sj_sb_str(s, 3, c1, true);
    sj_sb_close(s, 2, last);
}

static void sb_g2(sj_sbuf_t *s, const char *key, const SJ_G2(affine_t) *p)
{
    sj_sb_open(s, 1, key);
    if (p->inf) {
        sb_fp2(s, &SJ_FP2_ZERO, false);
        sb_fp2(s, &SJ_FP2_ONE, false);
        sb_fp2(s, &SJ_FP2_ZERO, true);
    } else {
        sb_fp2(s, &p->x, false);
        sb_fp2(s, &p->y, false);
        sb_fp2(s, &SJ_FP2_ONE, true);
    }
    sj_sb_close(s, 1, false);
}

static int proof_to_json(char **out, const SJ_PROOF_T *proof, err_t *err)
{
    *out = NULL;
    sj_sbuf_t s = {0};
    sj_sb_put(&s, "{\n");
    sb_g1(&s, "pi_a", &proof->a);
    sb_g2(&s, "pi_b", &proof->b);
    sb_g1(&s, "pi_c", &proof->c);
    sj_sb_put(&s, " \"protocol\": \"groth16\",\n \"curve\": \"" SJ_CURVE "\"\n}");
    if (s.oom) {
        gm_free(s.buf);
        return gm_err_set(err, GM_ENOMEM, "proof.json: out of memory");
    }
    *out = s.buf;
    return 0;
}

static int public_to_json(char **out, const SJ_FR(t) *pub, size_t n, err_t *err)
{
    *out = NULL;
    sj_sbuf_t s = {0};
    if (n == 0) {
        sj_sb_put(&s, "[]");
    } else {
        sj_sb_put(&s, "[\n");
        for (size_t i = 0; i < n; i++) {
            char v[SJ_DEC_MAX];
            SJ_FR(to_dec)(v, &pub[i]);
            sj_sb_str(&s, 1, v, i + 1 == n);
        }
        sj_sb_put(&s, "]");
    }
    if (s.oom) {
        gm_free(s.buf);
        return gm_err_set(err, GM_ENOMEM, "public.json: out of memory");
    }
    *out = s.buf;
    return 0;
}

static int proof_write_json(const char *path, const SJ_PROOF_T *proof, err_t *err)
{
    char *t;
    int rc = proof_to_json(&t, proof, err);
    if (rc)
        return rc;
    rc = gm_file_write(path, t, strlen(t), err);
    gm_free(t);
    return rc;
}

static int public_write_json(const char *path, const SJ_FR(t) *pub, size_t n, err_t *err)
{
    char *t;
    int rc = public_to_json(&t, pub, n, err);
    if (rc)
        return rc;
    rc = gm_file_write(path, t, strlen(t), err);
    gm_free(t);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------------- */

static int get_fp(SJ_FP(t) *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    uint64_t l[6];
    if (sj_json_int(l, v))
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a number string", what, field);
    bool high = false; /* limbs above the curve's (BN254: 4 of the 6 parsed) */
    for (int i = SJ_FP_LIMBS; i < 6; i++)
        high |= l[i] != 0;
    if (high || SJ_FP(from_limbs)(out, l))
        return gm_err_set(err, GM_ENONCANON, "%s: %s: not below q", what, field);
    return 0;
}

static int get_fr(SJ_FR(t) *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    uint64_t l[6];
    if (sj_json_int(l, v))
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a number string", what, field);
    if (l[4] || l[5] || SJ_FR(from_limbs)(out, l))
        return gm_err_set(err, GM_ENONCANON, "%s: %s: not below r", what, field);
    return 0;
}

static int get_fp2(SJ_FP2(t) *out, const json_t *v, const char *what, const char *field, err_t *err)
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
static int get_g1(SJ_G1(affine_t) *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3)
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a G1 point (an array of 2 or 3 numbers)", what, field);
    SJ_G1(jac_t) j;
    int rc;
    char f[96];
    snprintf(f, sizeof f, "%s[0]", field);
    if ((rc = get_fp(&j.x, json_array_get(v, 0), what, f, err)))
        return rc;
    snprintf(f, sizeof f, "%s[1]", field);
    if ((rc = get_fp(&j.y, json_array_get(v, 1), what, f, err)))
        return rc;
    j.z = SJ_FP_ONE;
    snprintf(f, sizeof f, "%s[2]", field);
    if (n == 3 && (rc = get_fp(&j.z, json_array_get(v, 2), what, f, err)))
        return rc;
    SJ_G1(affine_t) p;
    if (SJ_FP(is_zero)(&j.z)) {
        SJ_G1(affine_set_inf)(&p);
    } else {
        if (!SJ_G1(jac_on_curve)(&j))
            return gm_err_set(err, GM_ENOTONCURVE, "%s: %s: not on the curve", what, field);
        SJ_G1(to_affine)(&p, &j);
        if (!SJ_G1_IN_SUBGROUP(&p))
            return gm_err_set(err, GM_ESUBGROUP, "%s: %s: not in the subgroup", what, field);
    }
    *out = p;
    return 0;
}

static int get_g2(SJ_G2(affine_t) *out, const json_t *v, const char *what, const char *field, err_t *err)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3)
        return gm_err_set(err, GM_EFORMAT, "%s: %s: not a G2 point (an array of 2 or 3 pairs)", what, field);
    SJ_G2(jac_t) j;
    int rc;
    char f[96];
    snprintf(f, sizeof f, "%s[0]", field);
    if ((rc = get_fp2(&j.x, json_array_get(v, 0), what, f, err)))
        return rc;
    snprintf(f, sizeof f, "%s[1]", field);
    if ((rc = get_fp2(&j.y, json_array_get(v, 1), what, f, err)))
        return rc;
    j.z = SJ_FP2_ONE;
    snprintf(f, sizeof f, "%s[2]", field);
    if (n == 3 && (rc = get_fp2(&j.z, json_array_get(v, 2), what, f, err)))
        return rc;
    SJ_G2(affine_t) p;
    if (SJ_FP2(is_zero)(&j.z)) {
        SJ_G2(affine_set_inf)(&p);
    } else {
        if (!SJ_G2(jac_on_curve)(&j))
            return gm_err_set(err, GM_ENOTONCURVE, "%s: %s: not on the curve", what, field);
        SJ_G2(to_affine)(&p, &j);
        if (!SJ_G2(affine_in_subgroup)(&p))
            return gm_err_set(err, GM_ESUBGROUP, "%s: %s: not in the subgroup", what, field);
    }
    *out = p;
    return 0;
}

/* "protocol" / "curve", when present, must be groth16 / the instance's curve. */
static int check_kind(const json_t *o, const char *what, bool required, err_t *err)
{
    const json_t *p = json_object_get(o, "protocol"), *c = json_object_get(o, "curve");
    if (required && (!p || !c))
        return gm_err_set(err, GM_EFORMAT, "%s: %s is missing", what, !p ? "protocol" : "curve");
    if (p && (!json_is_string(p) || strcmp(json_string_value(p), "groth16") != 0))
        return gm_err_set(err, GM_ENOTSUP, "%s: protocol: %s, only \"groth16\" is supported", what,
                          json_is_string(p) ? json_string_value(p) : "(not a string)");
    if (c && (!json_is_string(c) || strcmp(json_string_value(c), SJ_CURVE) != 0))
        return gm_err_set(err, GM_ENOTSUP, "%s: curve: %s, expected \"" SJ_CURVE "\"", what,
                          json_is_string(c) ? json_string_value(c) : "(not a string)");
    return 0;
}

static int proof_read_json(SJ_PROOF_T *out, const char *path, err_t *err)
{
    json_t *o;
    int rc = sj_json_load(&o, path, err);
    if (rc)
        return rc;
    SJ_PROOF_T p;
    const json_t *v;
    if (!json_is_object(o)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a JSON object", path);
    } else if (!(rc = check_kind(o, path, false, err))) {
        if (!(v = sj_json_key(o, "pi_a", path, err)))
            rc = GM_EFORMAT;
        else if (!(rc = get_g1(&p.a, v, path, "pi_a", err))) {
            if (!(v = sj_json_key(o, "pi_b", path, err)))
                rc = GM_EFORMAT;
            else if (!(rc = get_g2(&p.b, v, path, "pi_b", err))) {
                if (!(v = sj_json_key(o, "pi_c", path, err)))
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

static int public_read_json(SJ_FR(t) **out, size_t *n, const char *path, err_t *err)
{
    *out = NULL;
    *n = 0;
    json_t *o;
    int rc = sj_json_load(&o, path, err);
    if (rc)
        return rc;
    if (!json_is_array(o)) {
        json_decref(o);
        return gm_err_set(err, GM_EFORMAT, "%s: not a JSON array", path);
    }
    size_t k = json_array_size(o);
    SJ_FR(t) *v = gm_alloc((k ? k : 1) * sizeof(SJ_FR(t)));
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

static int vk_read_json(SJ_VK_T *out, const char *path, err_t *err)
{
    memset(out, 0, sizeof *out);
    json_t *o;
    int rc = sj_json_load(&o, path, err);
    if (rc)
        return rc;
    SJ_VK_T vk;
    memset(&vk, 0, sizeof vk);
    const json_t *v, *ic;
    if (!json_is_object(o)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: not a JSON object", path);
        goto done;
    }
    if ((rc = check_kind(o, path, true, err)))
        goto done;
    if (!(v = sj_json_key(o, "nPublic", path, err)) || !(ic = sj_json_key(o, "IC", path, err))) {
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
    SJ_G2(affine_t) *g2d[3] = {&vk.beta_g2, &vk.gamma_g2, &vk.delta_g2};
    if (!(v = sj_json_key(o, g1k[0], path, err))) {
        rc = GM_EFORMAT;
        goto done;
    }
    if ((rc = get_g1(&vk.alpha_g1, v, path, g1k[0], err)))
        goto done;
    for (int i = 0; i < 3; i++) {
        if (!(v = sj_json_key(o, g2k[i], path, err))) {
            rc = GM_EFORMAT;
            goto done;
        }
        if ((rc = get_g2(g2d[i], v, path, g2k[i], err)))
            goto done;
    }
    SJ_G1(affine_set_inf)(&vk.beta_g1);
    SJ_G1(affine_set_inf)(&vk.delta_g1);
    vk.n_ic = json_array_size(ic);
    vk.ic = gm_alloc(vk.n_ic * sizeof(SJ_G1(affine_t)));
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
        SJ_VK_FREE(&vk);
    else
        *out = vk;
    return rc;
}

