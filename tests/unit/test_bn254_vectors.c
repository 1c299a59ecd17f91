/*
 * tests/unit/test_bn254_vectors.c — known answers for BN254 (fields, tower,
 * G1, G2, both encodings, pairing), computed by @noble/curves, an
 * implementation we did not write: tests/vectors/bn254.txt (its header names
 * the tool, the version and the command; tests/vectors/gen/gen_bn254.mjs makes
 * it). The path is relative to the repository root; GM_BN254_VECTORS=path
 * overrides it. One Test per kind, on both kernel paths (ADX skipped with a
 * warning on a CPU without it); a kind with no record fails, so nothing
 * passes vacuously. Values enter our code only through its own byte
 * decoders, and results are compared as bytes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"

#define VEC_DEFAULT_PATH "tests/vectors/bn254.txt"
#define VEC_MAX_FIELDS 6
#define B BN254_BYTES

typedef struct {
    size_t line;
    int nf;
    const char *f[VEC_MAX_FIELDS];
} rec_t;

static const char *g_path = "?";

static const char *vec_path(void)
{
    const char *e = getenv("GM_BN254_VECTORS");
    return e && *e ? e : VEC_DEFAULT_PATH;
}

#define AT "%s:%zu [%s] "
#define AT_ARGS(r) vec_path(), (r)->line, g_path

/* Calls fn on every record of `kind` with exactly nf fields; returns the count. */
static size_t each(const char *kind, int nf, void (*fn)(const rec_t *))
{
    FILE *f = fopen(vec_path(), "r");
    cr_assert_not_null(f, "cannot open %s (run from the repository root, or set GM_BN254_VECTORS)", vec_path());
    char *buf = NULL, *save, *t;
    size_t cap = 0, line = 0, count = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        line++;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (len == 0 || buf[0] == '#')
            continue;
        char *k = strtok_r(buf, " ", &save);
        if (!k || strcmp(k, kind) != 0)
            continue;
        rec_t r = {.line = line};
        while ((t = strtok_r(NULL, " ", &save)) != NULL && r.nf < VEC_MAX_FIELDS)
            r.f[r.nf++] = t;
        cr_assert(r.nf == nf && t == NULL, "%s:%zu: %s needs %d fields", vec_path(), line, kind, nf);
        fn(&r);
        count++;
    }
    free(buf);
    fclose(f);
    return count;
}

static void hex_bytes(const rec_t *r, int i, uint8_t *out, size_t n)
{
    const char *s = r->f[i];
    cr_assert_eq(strlen(s), 2 * n, AT "field %d: %zu hex digits, expected %zu", AT_ARGS(r), i + 1, strlen(s), 2 * n);
    for (size_t j = 0; j < n; j++) {
        unsigned v;
        cr_assert_eq(sscanf(s + 2 * j, "%2x", &v), 1, AT "field %d: not hex", AT_ARGS(r), i + 1);
        out[j] = (uint8_t)v;
    }
}

static void expect_hex(const rec_t *r, const char *what, const uint8_t *got, int i, size_t n)
{
    char h[2 * BN254_FP12_BYTES + 1];
    for (size_t j = 0; j < n; j++)
        snprintf(h + 2 * j, 3, "%02x", got[j]);
    cr_expect_str_eq(h, r->f[i], AT "%s differs", AT_ARGS(r), what);
}

static bn_fp_t get_fp(const rec_t *r, int i)
{
    uint8_t b[B];
    bn_fp_t x;
    hex_bytes(r, i, b, B);
    cr_assert_eq(bn_fp_from_bytes_be(&x, b), GM_OK, AT "field %d", AT_ARGS(r), i + 1);
    return x;
}
static bn_fr_t get_fr(const rec_t *r, int i)
{
    uint8_t b[B];
    bn_fr_t x;
    hex_bytes(r, i, b, B);
    cr_assert_eq(bn_fr_from_bytes_be(&x, b), GM_OK, AT "field %d", AT_ARGS(r), i + 1);
    return x;
}
static void put_fp(const rec_t *r, const char *what, const bn_fp_t *x, int i)
{
    uint8_t b[B];
    bn_fp_to_bytes_be(b, x);
    expect_hex(r, what, b, i, B);
}
static void put_fr(const rec_t *r, const char *what, const bn_fr_t *x, int i)
{
    uint8_t b[B];
    bn_fr_to_bytes_be(b, x);
    expect_hex(r, what, b, i, B);
}

/* Fp6/Fp12: one field of 6 or 12 coefficients, unpacked here one by one. */
static void fp6_coeffs(bn_fp_t *c[6], bn_fp6_t *a)
{
    c[0] = &a->c0.c0, c[1] = &a->c0.c1, c[2] = &a->c1.c0, c[3] = &a->c1.c1, c[4] = &a->c2.c0,
    c[5] = &a->c2.c1;
}
static void get_coeffs(const rec_t *r, int i, bn_fp_t **c, int n)
{
    uint8_t b[BN254_FP12_BYTES];
    hex_bytes(r, i, b, (size_t)n * B);
    for (int j = 0; j < n; j++)
        cr_assert_eq(bn_fp_from_bytes_be(c[j], b + j * B), GM_OK, AT "coefficient %d", AT_ARGS(r), j);
}
static bn_fp6_t get_fp6(const rec_t *r, int i)
{
    bn_fp6_t a;
    bn_fp_t *c[6];
    fp6_coeffs(c, &a);
    get_coeffs(r, i, c, 6);
    return a;
}
static bn_fp12_t get_fp12(const rec_t *r, int i)
{
    bn_fp12_t a;
    bn_fp_t *c[12];
    fp6_coeffs(c, &a.c0);
    fp6_coeffs(c + 6, &a.c1);
    get_coeffs(r, i, c, 12);
    return a;
}
static void put_fp6(const rec_t *r, const char *what, bn_fp6_t a, int i)
{
    uint8_t b[6 * B];
    bn_fp_t *c[6];
    fp6_coeffs(c, &a);
    for (int j = 0; j < 6; j++)
        bn_fp_to_bytes_be(b + j * B, c[j]);
    expect_hex(r, what, b, i, sizeof b);
}
static void put_fp12(const rec_t *r, const char *what, const bn_fp12_t *a, int i)
{
    uint8_t b[BN254_FP12_BYTES];
    bn_fp12_to_bytes_be(b, a);
    expect_hex(r, what, b, i, sizeof b);
}

static bn_g1_affine_t get_g1(const rec_t *r, int i)
{
    uint8_t b[BN254_G1_BYTES];
    bn_g1_affine_t p;
    hex_bytes(r, i, b, sizeof b);
    cr_assert_eq(bn_g1_from_bytes_eth(&p, b), GM_OK, AT "field %d: G1 decode", AT_ARGS(r), i + 1);
    return p;
}
static bn_g2_affine_t get_g2(const rec_t *r, int i)
{
    uint8_t b[BN254_G2_BYTES];
    bn_g2_affine_t p;
    hex_bytes(r, i, b, sizeof b);
    cr_assert_eq(bn_g2_from_bytes_eth(&p, b), GM_OK, AT "field %d: G2 decode", AT_ARGS(r), i + 1);
    return p;
}
static void put_g1(const rec_t *r, const char *what, const bn_g1_jac_t *p, int i)
{
    bn_g1_affine_t a;
    uint8_t b[BN254_G1_BYTES];
    bn_g1_to_affine(&a, p);
    bn_g1_to_bytes_eth(b, &a);
    expect_hex(r, what, b, i, sizeof b);
}
static void put_g2(const rec_t *r, const char *what, const bn_g2_jac_t *p, int i)
{
    bn_g2_affine_t a;
    uint8_t b[BN254_G2_BYTES];
    bn_g2_to_affine(&a, p);
    bn_g2_to_bytes_eth(b, &a);
    expect_hex(r, what, b, i, sizeof b);
}

/* ---- one check per kind ------------------------------------------------------------- */

static void c_fp_add(const rec_t *r) { bn_fp_t a = get_fp(r, 0), b = get_fp(r, 1), c; bn_fp_add(&c, &a, &b); put_fp(r, "add", &c, 2); }
static void c_fp_sub(const rec_t *r) { bn_fp_t a = get_fp(r, 0), b = get_fp(r, 1), c; bn_fp_sub(&c, &a, &b); put_fp(r, "sub", &c, 2); }
static void c_fp_mul(const rec_t *r) { bn_fp_t a = get_fp(r, 0), b = get_fp(r, 1), c; bn_fp_mul(&c, &a, &b); put_fp(r, "mul", &c, 2); }
static void c_fp_sqr(const rec_t *r) { bn_fp_t a = get_fp(r, 0), c; bn_fp_sqr(&c, &a); put_fp(r, "sqr", &c, 1); }
static void c_fp_inv(const rec_t *r) { bn_fp_t a = get_fp(r, 0), c; bn_fp_inv(&c, &a); put_fp(r, "inv", &c, 1); }
static void c_fp_sqrt(const rec_t *r)
{
    bn_fp_t a = get_fp(r, 0), s = BN254_FP_ONE, s2;
    bool none = strcmp(r->f[1], "none") == 0, ok = bn_fp_sqrt(&s, &a);
    cr_expect_eq(ok, !none, AT "sqrt found a root: %d", AT_ARGS(r), ok);
    if (ok && !none) {
        bn_fp_sqr(&s2, &s);
        cr_expect(bn_fp_eq(&s2, &a), AT "root squared", AT_ARGS(r));
    }
}
static void c_fr_add(const rec_t *r) { bn_fr_t a = get_fr(r, 0), b = get_fr(r, 1), c; bn_fr_add(&c, &a, &b); put_fr(r, "add", &c, 2); }
static void c_fr_sub(const rec_t *r) { bn_fr_t a = get_fr(r, 0), b = get_fr(r, 1), c; bn_fr_sub(&c, &a, &b); put_fr(r, "sub", &c, 2); }
static void c_fr_mul(const rec_t *r) { bn_fr_t a = get_fr(r, 0), b = get_fr(r, 1), c; bn_fr_mul(&c, &a, &b); put_fr(r, "mul", &c, 2); }
static void c_fr_inv(const rec_t *r) { bn_fr_t a = get_fr(r, 0), c; bn_fr_inv(&c, &a); put_fr(r, "inv", &c, 1); }
static void c_fp2_mul(const rec_t *r)
{
    bn_fp2_t a = {get_fp(r, 0), get_fp(r, 1)}, b = {get_fp(r, 2), get_fp(r, 3)}, c;
    bn_fp2_mul(&c, &a, &b);
    put_fp(r, "c0", &c.c0, 4);
    put_fp(r, "c1", &c.c1, 5);
}
static void c_fp2_sqr(const rec_t *r)
{
    bn_fp2_t a = {get_fp(r, 0), get_fp(r, 1)}, c;
    bn_fp2_sqr(&c, &a);
    put_fp(r, "c0", &c.c0, 2);
    put_fp(r, "c1", &c.c1, 3);
}
static void c_fp2_inv(const rec_t *r)
{
    bn_fp2_t a = {get_fp(r, 0), get_fp(r, 1)}, c;
    bn_fp2_inv(&c, &a);
    put_fp(r, "c0", &c.c0, 2);
    put_fp(r, "c1", &c.c1, 3);
}
static void c_fp6_mul(const rec_t *r)
{
    bn_fp6_t a = get_fp6(r, 0), b = get_fp6(r, 1), c;
    bn_fp6_mul(&c, &a, &b);
    put_fp6(r, "fp6 mul", c, 2);
}
static void c_fp12_mul(const rec_t *r)
{
    bn_fp12_t a = get_fp12(r, 0), b = get_fp12(r, 1), c;
    bn_fp12_mul(&c, &a, &b);
    put_fp12(r, "fp12 mul", &c, 2);
    bn_fp12_sqr(&c, &a);
    bn_fp12_mul(&b, &a, &a);
    cr_expect(bn_fp12_eq(&c, &b), AT "sqr != mul(a, a)", AT_ARGS(r));
}
static void c_fp12_inv(const rec_t *r)
{
    bn_fp12_t a = get_fp12(r, 0), c;
    bn_fp12_inv(&c, &a);
    put_fp12(r, "fp12 inv", &c, 1);
}
static void c_fp12_frobenius(const rec_t *r)
{
    bn_fp12_t a = get_fp12(r, 1), c;
    bn_fp12_frobenius(&c, &a, (unsigned)atoi(r->f[0]));
    put_fp12(r, "frobenius", &c, 2);
}
static void c_fp12_final_exp(const rec_t *r)
{
    bn_fp12_t a = get_fp12(r, 0), c;
    bn_pairing_final_exp(&c, &a);
    put_fp12(r, "final exp", &c, 1);
}

#define GROUP_CHECKS(g, G)                                                                         \
    static void c_##g##_add(const rec_t *r)                                                        \
    {                                                                                              \
        bn_##g##_affine_t a = get_##g(r, 0), b = get_##g(r, 1);                                    \
        bn_##g##_jac_t ja, jb, c;                                                                  \
        bn_##g##_from_affine(&ja, &a);                                                             \
        bn_##g##_from_affine(&jb, &b);                                                             \
        bn_##g##_add(&c, &ja, &jb);                                                                \
        put_##g(r, "add", &c, 2);                                                                  \
        bn_##g##_add_mixed(&c, &ja, &b);                                                           \
        put_##g(r, "add_mixed", &c, 2);                                                            \
        bn_##g##_xyzz_t x;                                                                         \
        bn_##g##_xyzz_set_inf(&x);                                                                 \
        bn_##g##_xyzz_add_affine(&x, &x, &a);                                                      \
        bn_##g##_xyzz_add_affine(&x, &x, &b);                                                      \
        bn_##g##_xyzz_to_jac(&c, &x);                                                              \
        put_##g(r, "xyzz add_affine", &c, 2);                                                      \
    }                                                                                              \
    static void c_##g##_dbl(const rec_t *r)                                                        \
    {                                                                                              \
        bn_##g##_affine_t a = get_##g(r, 0);                                                       \
        bn_##g##_jac_t ja, c;                                                                      \
        bn_##g##_from_affine(&ja, &a);                                                             \
        bn_##g##_dbl(&c, &ja);                                                                     \
        put_##g(r, "dbl", &c, 1);                                                                  \
    }                                                                                              \
    static void c_##g##_mul(const rec_t *r)                                                        \
    {                                                                                              \
        bn_##g##_affine_t a = get_##g(r, 0);                                                       \
        uint8_t kb[32];                                                                            \
        uint64_t k[4] = {0};                                                                       \
        hex_bytes(r, 1, kb, 32);                                                                   \
        for (int i = 0; i < 32; i++)                                                               \
            k[3 - i / 8] |= (uint64_t)kb[i] << (56 - 8 * (i % 8));                                 \
        bn_##g##_jac_t ja, c;                                                                      \
        bn_##g##_from_affine(&ja, &a);                                                             \
        bn_##g##_mul(&c, &ja, k);                                                                  \
        put_##g(r, "mul", &c, 2);                                                                  \
    }                                                                                              \
    static void c_##g##_snarkjs(const rec_t *r)                                                    \
    {                                                                                              \
        bn_##g##_affine_t a = get_##g(r, 0), b;                                                    \
        uint8_t sj[G];                                                                             \
        bn_##g##_to_bytes_snarkjs(sj, &a);                                                         \
        expect_hex(r, "snarkjs encoding", sj, 1, G);                                               \
        hex_bytes(r, 1, sj, G);                                                                    \
        cr_assert_eq(bn_##g##_from_bytes_snarkjs(&b, sj), GM_OK, AT "snarkjs decode", AT_ARGS(r)); \
        cr_expect(bn_##g##_affine_eq(&a, &b), AT "snarkjs decode", AT_ARGS(r));                    \
    }
GROUP_CHECKS(g1, BN254_G1_BYTES)
GROUP_CHECKS(g2, BN254_G2_BYTES)

static int reason_code(const rec_t *r)
{
    static const struct { const char *s; int code; } t[] = {
        {"noncanon", GM_ENONCANON}, {"notoncurve", GM_ENOTONCURVE}, {"subgroup", GM_ESUBGROUP}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(r->f[1], t[i].s) == 0)
            return t[i].code;
    cr_assert_fail(AT "unknown reason %s", AT_ARGS(r), r->f[1]);
    return 0;
}
static void c_g1_decode_bad(const rec_t *r)
{
    uint8_t b[BN254_G1_BYTES];
    bn_g1_affine_t p = BN254_G1_GENERATOR;
    hex_bytes(r, 0, b, sizeof b);
    cr_expect_eq(bn_g1_from_bytes_eth(&p, b), reason_code(r), AT "code", AT_ARGS(r));
    cr_expect(bn_g1_affine_eq(&p, &BN254_G1_GENERATOR), AT "out untouched", AT_ARGS(r));
}
static void c_g2_decode_bad(const rec_t *r)
{
    uint8_t b[BN254_G2_BYTES], sj[BN254_G2_BYTES];
    bn_g2_affine_t p = BN254_G2_GENERATOR;
    int want = reason_code(r);
    hex_bytes(r, 0, b, sizeof b);
    cr_expect_eq(bn_g2_from_bytes_eth(&p, b), want, AT "code", AT_ARGS(r));
    cr_expect(bn_g2_affine_eq(&p, &BN254_G2_GENERATOR), AT "out untouched", AT_ARGS(r));
    if (want == GM_ESUBGROUP) { /* the same point as snarkjs stores it */
        bn_fp2_t x, y;
        cr_assert_eq(bn_fp_from_bytes_be(&x.c1, b), GM_OK);
        cr_assert_eq(bn_fp_from_bytes_be(&x.c0, b + B), GM_OK);
        cr_assert_eq(bn_fp_from_bytes_be(&y.c1, b + 2 * B), GM_OK);
        cr_assert_eq(bn_fp_from_bytes_be(&y.c0, b + 3 * B), GM_OK);
        bn_fp_to_mont_le(sj, &x.c0);
        bn_fp_to_mont_le(sj + B, &x.c1);
        bn_fp_to_mont_le(sj + 2 * B, &y.c0);
        bn_fp_to_mont_le(sj + 3 * B, &y.c1);
        cr_expect_eq(bn_g2_from_bytes_snarkjs(&p, sj), GM_ESUBGROUP, AT "snarkjs", AT_ARGS(r));
        cr_expect_eq(bn_g2_from_bytes_snarkjs_unchecked(&p, sj), GM_OK, AT "snarkjs unchecked", AT_ARGS(r));
    }
}
static void c_pairing(const rec_t *r)
{
    bn_g1_affine_t p = get_g1(r, 0);
    bn_g2_affine_t q = get_g2(r, 1);
    bn_fp12_t e;
    bn_pairing(&e, &p, &q);
    put_fp12(r, "pairing", &e, 2);
}

static void run(const char *kind, int nf, void (*fn)(const rec_t *))
{
    static const ff_path_t paths[] = {FF_PATH_PORTABLE, FF_PATH_ADX};
    for (size_t i = 0; i < 2; i++) {
        int rc = ff_init(paths[i]);
        if (rc == GM_ENOTSUP) {
            cr_log_warn("%s: no ADX on this CPU; checked on portable only", kind);
            continue;
        }
        cr_assert_eq(rc, GM_OK);
        g_path = ff_path_name();
        size_t n = each(kind, nf, fn);
        cr_assert_gt(n, 0, "%s: no %s records (the test would pass vacuously)", vec_path(), kind);
    }
}

#define VEC(kind, nf) \
    Test(bn254_vectors, kind) { run(#kind, nf, c_##kind); }

VEC(fp_add, 3)
VEC(fp_sub, 3)
VEC(fp_mul, 3)
VEC(fp_sqr, 2)
VEC(fp_inv, 2)
VEC(fp_sqrt, 2)
VEC(fr_add, 3)
VEC(fr_sub, 3)
VEC(fr_mul, 3)
VEC(fr_inv, 2)
VEC(fp2_mul, 6)
VEC(fp2_sqr, 4)
VEC(fp2_inv, 4)
VEC(fp6_mul, 3)
VEC(fp12_mul, 3)
VEC(fp12_inv, 2)
VEC(fp12_frobenius, 3)
VEC(fp12_final_exp, 2)
VEC(g1_add, 3)
VEC(g1_dbl, 2)
VEC(g1_mul, 3)
VEC(g1_snarkjs, 2)
VEC(g1_decode_bad, 2)
VEC(g2_add, 3)
VEC(g2_dbl, 2)
VEC(g2_mul, 3)
VEC(g2_snarkjs, 2)
VEC(g2_decode_bad, 2)
VEC(pairing, 3)
