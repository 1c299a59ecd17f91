/*
 * tests/unit/test_vectors.c — known answers for Fp, Fr, the tower, G1, G2,
 * their encodings and the pairing, computed by @noble/curves, an implementation
 * we did not write.
 *
 * The vectors are tests/vectors/bls12_381.txt (its header names the tool, the
 * version and the command; tests/vectors/gen/gen.mjs makes it). The path is
 * relative to the repository root, the working directory of `make test`;
 * GM_VECTORS=path overrides it. One record per line, `<kind> <field> ...`,
 * big-endian hex; '#' lines are comments.
 *
 * One Test per kind, so a failure names the area. Each runs the records of
 * its kind on the portable kernels and again on ADX (skipped, with a warning,
 * on a CPU without it), and fails when it found no record, so no test passes
 * vacuously. A malformed record fails the test with its line number.
 *
 * Values enter our code only through the functions under test's own byte
 * decoders (fp_from_bytes_be, g1_from_bytes_compressed, ...); results are
 * compared as bytes. Fp6/Fp12 values are packed and unpacked here, coefficient
 * by coefficient, so a bug in fp12_to_bytes_be cannot hide one elsewhere (it
 * is checked on its own in fp12_mul).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"

#define VEC_DEFAULT_PATH "tests/vectors/bls12_381.txt"
#define VEC_MAX_FIELDS 8
#define FP12_BYTES (12 * FP_BYTES)
#define FP6_BYTES (6 * FP_BYTES)

typedef struct {
    size_t line;
    int nf;                        /* fields after the kind */
    const char *f[VEC_MAX_FIELDS];
} vec_rec_t;

typedef void (*vec_check_fn)(const vec_rec_t *r);

/* The kernel path of the current pass, for messages. */
static const char *g_path = "?";

static const char *vec_path(void)
{
    const char *e = getenv("GM_VECTORS");
    return e && *e ? e : VEC_DEFAULT_PATH;
}

/* "file:line [path] " prefix of every message about record r. */
#define AT "%s:%zu [%s] "
#define AT_ARGS(r) vec_path(), (r)->line, g_path

/* ---- reading the file ------------------------------------------------------------ */

/* Calls fn on every record of `kind` (which must have nmin..nmax fields) and
 * returns how many there were. Fails the test on a record of that kind with
 * the wrong number of fields. */
static size_t vec_each(const char *kind, int nmin, int nmax, vec_check_fn fn)
{
    FILE *f = fopen(vec_path(), "r");
    if (!f)
        cr_assert_fail("cannot open %s (run from the repository root, or set GM_VECTORS)", vec_path());
    char *buf = NULL;
    size_t cap = 0, line = 0, count = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        line++;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (len == 0 || buf[0] == '#')
            continue;
        char *save = NULL, *k = strtok_r(buf, " ", &save);
        if (!k || strcmp(k, kind) != 0)
            continue;
        vec_rec_t r = { .line = line, .nf = 0 };
        char *t;
        while ((t = strtok_r(NULL, " ", &save)) != NULL) {
            if (r.nf == VEC_MAX_FIELDS) {
                r.nf++;
                break;
            }
            r.f[r.nf++] = t;
        }
        if (r.nf < nmin || r.nf > nmax) {
            fclose(f);
            cr_assert_fail("%s:%zu: %s has %d fields, expected %d..%d", vec_path(), line, kind, r.nf,
                           nmin, nmax);
        }
        fn(&r);
        count++;
    }
    free(buf);
    fclose(f);
    return count;
}

/* ---- fields of a record ----------------------------------------------------------- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Field i as exactly n bytes of hex; a wrong length or digit fails the test. */
static void get_bytes(const vec_rec_t *r, int i, uint8_t *out, size_t n)
{
    const char *s = r->f[i];
    size_t len = strlen(s);
    if (len != 2 * n)
        cr_assert_fail(AT "field %d: %zu hex digits, expected %zu", AT_ARGS(r), i + 1, len, 2 * n);
    for (size_t j = 0; j < n; j++) {
        int hi = hex_digit(s[2 * j]), lo = hex_digit(s[2 * j + 1]);
        if (hi < 0 || lo < 0)
            cr_assert_fail(AT "field %d: not hex at digit %zu", AT_ARGS(r), i + 1, 2 * j);
        out[j] = (uint8_t)(hi << 4 | lo);
    }
}

static size_t field_len(const vec_rec_t *r, int i) { return strlen(r->f[i]); }
static bool field_is(const vec_rec_t *r, int i, const char *s) { return strcmp(r->f[i], s) == 0; }

static void to_hex(char *out, const uint8_t *b, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[2 * n] = '\0';
}

/* Compares our bytes with field i of the record (n bytes); a mismatch is a
 * non-fatal failure that prints both. Returns true when equal. */
static bool expect_bytes(const vec_rec_t *r, const char *what, const uint8_t *got, int i, size_t n)
{
    uint8_t want[FP12_BYTES];
    get_bytes(r, i, want, n);
    if (memcmp(got, want, n) == 0)
        return true;
    char gh[2 * FP12_BYTES + 1];
    to_hex(gh, got, n);
    cr_expect_fail(AT "%s differs\n  ours:  %s\n  noble: %s", AT_ARGS(r), what, gh, r->f[i]);
    return false;
}

static void get_fp(const vec_rec_t *r, int i, fp_t *out)
{
    uint8_t b[FP_BYTES];
    get_bytes(r, i, b, FP_BYTES);
    int rc = fp_from_bytes_be(out, b);
    if (rc != 0)
        cr_assert_fail(AT "field %d: fp_from_bytes_be returned %d on a canonical value", AT_ARGS(r), i + 1, rc);
}

static void get_fr(const vec_rec_t *r, int i, fr_t *out)
{
    uint8_t b[FR_BYTES];
    get_bytes(r, i, b, FR_BYTES);
    int rc = fr_from_bytes_be(out, b);
    if (rc != 0)
        cr_assert_fail(AT "field %d: fr_from_bytes_be returned %d on a canonical value", AT_ARGS(r), i + 1, rc);
}

static void get_fp2(const vec_rec_t *r, int i, fp2_t *out)
{
    get_fp(r, i, &out->c0);
    get_fp(r, i + 1, &out->c1);
}

/* Fp6 and Fp12 values are one field of 6 or 12 coefficients, each 48 bytes
 * big-endian, in the order c0.c0, c0.c1, c1.c0, ... (Fp12: c0.c0.c0, ...).
 * Packed and unpacked here, one coefficient at a time. */
static void fp6_coeffs(fp_t *c[6], fp6_t *a)
{
    c[0] = &a->c0.c0; c[1] = &a->c0.c1;
    c[2] = &a->c1.c0; c[3] = &a->c1.c1;
    c[4] = &a->c2.c0; c[5] = &a->c2.c1;
}

static void fp12_coeffs(fp_t *c[12], fp12_t *a)
{
    fp6_coeffs(c, &a->c0);
    fp6_coeffs(c + 6, &a->c1);
}

static void unpack_coeffs(const vec_rec_t *r, int i, fp_t **c, int n)
{
    uint8_t b[FP12_BYTES];
    get_bytes(r, i, b, (size_t)n * FP_BYTES);
    for (int k = 0; k < n; k++) {
        int rc = fp_from_bytes_be(c[k], b + (size_t)k * FP_BYTES);
        if (rc != 0)
            cr_assert_fail(AT "field %d: coefficient %d: fp_from_bytes_be returned %d", AT_ARGS(r), i + 1, k, rc);
    }
}

static void get_fp6(const vec_rec_t *r, int i, fp6_t *out)
{
    fp_t *c[6];
    fp6_coeffs(c, out);
    unpack_coeffs(r, i, c, 6);
}

static void get_fp12(const vec_rec_t *r, int i, fp12_t *out)
{
    fp_t *c[12];
    fp12_coeffs(c, out);
    unpack_coeffs(r, i, c, 12);
}

static void pack_fp6(uint8_t out[FP6_BYTES], const fp6_t *a)
{
    fp_t *c[6];
    fp6_coeffs(c, (fp6_t *)a);
    for (int k = 0; k < 6; k++)
        fp_to_bytes_be(out + k * FP_BYTES, c[k]);
}

static void pack_fp12(uint8_t out[FP12_BYTES], const fp12_t *a)
{
    fp_t *c[12];
    fp12_coeffs(c, (fp12_t *)a);
    for (int k = 0; k < 12; k++)
        fp_to_bytes_be(out + k * FP_BYTES, c[k]);
}

static bool expect_fp(const vec_rec_t *r, const char *what, const fp_t *got, int i)
{
    uint8_t b[FP_BYTES];
    fp_to_bytes_be(b, got);
    return expect_bytes(r, what, b, i, FP_BYTES);
}

static bool expect_fr(const vec_rec_t *r, const char *what, const fr_t *got, int i)
{
    uint8_t b[FR_BYTES];
    fr_to_bytes_be(b, got);
    return expect_bytes(r, what, b, i, FR_BYTES);
}

static void expect_fp2(const vec_rec_t *r, const char *what, const fp2_t *got, int i)
{
    char w[96];
    snprintf(w, sizeof w, "%s.c0", what);
    expect_fp(r, w, &got->c0, i);
    snprintf(w, sizeof w, "%s.c1", what);
    expect_fp(r, w, &got->c1, i + 1);
}

static bool expect_fp6(const vec_rec_t *r, const char *what, const fp6_t *got, int i)
{
    uint8_t b[FP6_BYTES];
    pack_fp6(b, got);
    return expect_bytes(r, what, b, i, FP6_BYTES);
}

/* For Fp12 results of a final exponentiation, a mismatch is checked for the
 * one known convention difference: blst and noble raise to 3(p^12-1)/r; an
 * implementation of the exact (p^12-1)/r differs from them by a cube. */
static void expect_fp12(const vec_rec_t *r, const char *what, const fp12_t *got, int i, bool final_exp)
{
    uint8_t b[FP12_BYTES];
    pack_fp12(b, got);
    if (expect_bytes(r, what, b, i, FP12_BYTES) || !final_exp)
        return;
    fp12_t want, cube;
    get_fp12(r, i, &want);
    fp12_sqr(&cube, got);
    fp12_mul(&cube, &cube, got);
    if (fp12_eq(&cube, &want))
        cr_expect_fail(AT "%s: ours cubed equals noble's: ours is f^((p^12-1)/r), blst and noble "
                       "compute f^(3(p^12-1)/r)", AT_ARGS(r), what);
}

/* ---- Fp ------------------------------------------------------------------------------- */

/* "a b c" records: c = op(a, b), also with the output aliasing a and b.
 * One definition for Fp, Fr and Fp2: the operand b and the result start at
 * field bi and ci of the record (Fp2 elements take two fields). */
#define DEFINE_CHECK_OP2(T, get, expect, bi, ci)                                                 \
    static void check_##T##_op2(const vec_rec_t *r, const char *name,                           \
                                void (*op)(T##_t *, const T##_t *, const T##_t *))               \
    {                                                                                            \
        T##_t a, b, c, t;                                                                        \
        get(r, 0, &a);                                                                           \
        get(r, bi, &b);                                                                          \
        char what[64];                                                                           \
        op(&c, &a, &b);                                                                          \
        expect(r, name, &c, ci);                                                                 \
        t = a;                                                                                   \
        op(&t, &t, &b);                                                                          \
        snprintf(what, sizeof what, "%s (out aliases a)", name);                                 \
        expect(r, what, &t, ci);                                                                 \
        t = b;                                                                                   \
        op(&t, &a, &t);                                                                          \
        snprintf(what, sizeof what, "%s (out aliases b)", name);                                 \
        expect(r, what, &t, ci);                                                                 \
    }

DEFINE_CHECK_OP2(fp, get_fp, expect_fp, 1, 2)

static void check_fp_add(const vec_rec_t *r) { check_fp_op2(r, "fp_add", fp_add); }
static void check_fp_sub(const vec_rec_t *r) { check_fp_op2(r, "fp_sub", fp_sub); }
static void check_fp_mul(const vec_rec_t *r) { check_fp_op2(r, "fp_mul", fp_mul); }

static void check_fp_sqr(const vec_rec_t *r)
{
    fp_t a, c;
    get_fp(r, 0, &a);
    fp_sqr(&c, &a);
    expect_fp(r, "fp_sqr", &c, 1);
    fp_sqr(&a, &a);
    expect_fp(r, "fp_sqr (in place)", &a, 1);
}

static void check_fp_inv(const vec_rec_t *r)
{
    fp_t a, c, s;
    get_fp(r, 0, &a);
    fp_inv(&c, &a);
    expect_fp(r, "fp_inv", &c, 1);
    fp_batch_inv(&c, &a, 1, &s);
    expect_fp(r, "fp_batch_inv (n = 1)", &c, 1);
}

static void check_fp_sqrt(const vec_rec_t *r)
{
    fp_t a, s, s2;
    get_fp(r, 0, &a);
    bool has = !field_is(r, 1, "none");
    int leg = fp_legendre(&a);
    bool ok = fp_sqrt(&s, &a);
    if (!has) {
        cr_expect(!ok, AT "fp_sqrt found a root of a non-square", AT_ARGS(r));
        cr_expect_eq(leg, -1, AT "fp_legendre = %d for a non-square", AT_ARGS(r), leg);
        return;
    }
    cr_expect_eq(leg, fp_is_zero(&a) ? 0 : 1, AT "fp_legendre = %d for a square", AT_ARGS(r), leg);
    if (!ok) {
        cr_expect_fail(AT "fp_sqrt found no root of a square", AT_ARGS(r));
        return;
    }
    fp_sqr(&s2, &s);
    cr_expect(fp_eq(&s2, &a), AT "fp_sqrt: root^2 != a", AT_ARGS(r));
    fp_t want, neg;
    get_fp(r, 1, &want);
    fp_neg(&neg, &want);
    cr_expect(fp_eq(&s, &want) || fp_eq(&s, &neg), AT "fp_sqrt: root is neither of noble's", AT_ARGS(r));
}

/* ---- Fr ------------------------------------------------------------------------------- */

DEFINE_CHECK_OP2(fr, get_fr, expect_fr, 1, 2)

static void check_fr_add(const vec_rec_t *r) { check_fr_op2(r, "fr_add", fr_add); }
static void check_fr_sub(const vec_rec_t *r) { check_fr_op2(r, "fr_sub", fr_sub); }
static void check_fr_mul(const vec_rec_t *r) { check_fr_op2(r, "fr_mul", fr_mul); }

static void check_fr_inv(const vec_rec_t *r)
{
    fr_t a, c, s;
    get_fr(r, 0, &a);
    fr_inv(&c, &a);
    expect_fr(r, "fr_inv", &c, 1);
    fr_batch_inv(&c, &a, 1, &s);
    expect_fr(r, "fr_batch_inv (n = 1)", &c, 1);
}

/* ---- Fp2 ------------------------------------------------------------------------------ */

DEFINE_CHECK_OP2(fp2, get_fp2, expect_fp2, 2, 4)

static void check_fp2_add(const vec_rec_t *r) { check_fp2_op2(r, "fp2_add", fp2_add); }
static void check_fp2_mul(const vec_rec_t *r) { check_fp2_op2(r, "fp2_mul", fp2_mul); }

static void check_fp2_sqr(const vec_rec_t *r)
{
    fp2_t a, c;
    get_fp2(r, 0, &a);
    fp2_sqr(&c, &a);
    expect_fp2(r, "fp2_sqr", &c, 2);
    fp2_sqr(&a, &a);
    expect_fp2(r, "fp2_sqr (in place)", &a, 2);
}

static void check_fp2_inv(const vec_rec_t *r)
{
    fp2_t a, c, s;
    get_fp2(r, 0, &a);
    fp2_inv(&c, &a);
    expect_fp2(r, "fp2_inv", &c, 2);
    fp2_batch_inv(&c, &a, 1, &s);
    expect_fp2(r, "fp2_batch_inv (n = 1)", &c, 2);
}

static void check_fp2_sqrt(const vec_rec_t *r)
{
    fp2_t a, s, s2;
    get_fp2(r, 0, &a);
    bool has = !field_is(r, 2, "none");
    if (has != (r->nf == 4))
        cr_assert_fail(AT "fp2_sqrt: expected a0 a1 none or a0 a1 s0 s1", AT_ARGS(r));
    int leg = fp2_legendre(&a);
    bool ok = fp2_sqrt(&s, &a);
    if (!has) {
        cr_expect(!ok, AT "fp2_sqrt found a root of a non-square", AT_ARGS(r));
        cr_expect_eq(leg, -1, AT "fp2_legendre = %d for a non-square", AT_ARGS(r), leg);
        return;
    }
    cr_expect_eq(leg, fp2_is_zero(&a) ? 0 : 1, AT "fp2_legendre = %d for a square", AT_ARGS(r), leg);
    if (!ok) {
        cr_expect_fail(AT "fp2_sqrt found no root of a square", AT_ARGS(r));
        return;
    }
    fp2_sqr(&s2, &s);
    cr_expect(fp2_eq(&s2, &a), AT "fp2_sqrt: root^2 != a", AT_ARGS(r));
    fp2_t want, neg;
    get_fp2(r, 2, &want);
    fp2_neg(&neg, &want);
    cr_expect(fp2_eq(&s, &want) || fp2_eq(&s, &neg), AT "fp2_sqrt: root is neither of noble's", AT_ARGS(r));
}

/* ---- Fp6, Fp12 ---------------------------------------------------------------------------- */

static void check_fp6_mul(const vec_rec_t *r)
{
    fp6_t a, b, c;
    get_fp6(r, 0, &a);
    get_fp6(r, 1, &b);
    fp6_mul(&c, &a, &b);
    expect_fp6(r, "fp6_mul", &c, 2);
    fp6_mul(&a, &a, &b);
    expect_fp6(r, "fp6_mul (out aliases a)", &a, 2);
}

static void check_fp12_mul(const vec_rec_t *r)
{
    fp12_t a, b, c;
    get_fp12(r, 0, &a);
    get_fp12(r, 1, &b);
    fp12_mul(&c, &a, &b);
    expect_fp12(r, "fp12_mul", &c, 2, false);
    uint8_t bytes[FP12_BYTES];
    fp12_to_bytes_be(bytes, &c);
    expect_bytes(r, "fp12_to_bytes_be(fp12_mul)", bytes, 2, FP12_BYTES);
    fp12_mul(&a, &a, &b);
    expect_fp12(r, "fp12_mul (out aliases a)", &a, 2, false);
}

static void check_fp12_inv(const vec_rec_t *r)
{
    fp12_t a, c;
    get_fp12(r, 0, &a);
    fp12_inv(&c, &a);
    expect_fp12(r, "fp12_inv", &c, 1, false);
}

static void check_fp12_frobenius(const vec_rec_t *r)
{
    unsigned k;
    if (field_len(r, 0) != 1 || r->f[0][0] < '1' || r->f[0][0] > '3')
        cr_assert_fail(AT "fp12_frobenius: k = '%s', expected 1, 2 or 3", AT_ARGS(r), r->f[0]);
    k = (unsigned)(r->f[0][0] - '0');
    fp12_t a, c;
    get_fp12(r, 1, &a);
    fp12_frobenius(&c, &a, k);
    char what[40];
    snprintf(what, sizeof what, "fp12_frobenius(k = %u)", k);
    expect_fp12(r, what, &c, 2, false);
}

static void check_fp12_final_exp(const vec_rec_t *r)
{
    fp12_t f, c;
    get_fp12(r, 0, &f);
    pairing_final_exp(&c, &f);
    expect_fp12(r, "pairing_final_exp", &c, 1, true);
}

/* ---- G1 and G2: one shape, instantiated twice ------------------------------------------------ */

static int reason_code(const vec_rec_t *r, int i)
{
    static const struct { const char *name; int code; } reasons[] = {
        { "flags", GM_EFLAGS },         { "noncanon", GM_ENONCANON }, { "nosqrt", GM_ENOSQRT },
        { "notoncurve", GM_ENOTONCURVE }, { "subgroup", GM_ESUBGROUP },
    };
    for (size_t k = 0; k < sizeof reasons / sizeof reasons[0]; k++)
        if (field_is(r, i, reasons[k].name))
            return reasons[k].code;
    cr_assert_fail(AT "unknown reason '%s'", AT_ARGS(r), r->f[i]);
    return 0;
}

/* 32 bytes big-endian -> 4 little-endian limbs. */
static void scalar_limbs(uint64_t k[4], const uint8_t b[32])
{
    for (int i = 0; i < 4; i++) {
        k[i] = 0;
        for (int j = 0; j < 8; j++)
            k[i] = k[i] << 8 | b[32 - 8 * (i + 1) + j];
    }
}

/*
 * G: g1 or g2; CB, UB: compressed and uncompressed sizes. Generates
 * get_G (a compressed point field, through our decoder), expect_G (our point
 * against a compressed field, as bytes) and the check_G_* of each kind.
 */
#define DEFINE_CURVE_CHECKS(G, CB, UB)                                                             \
    static void get_##G(const vec_rec_t *r, int i, G##_affine_t *out)                              \
    {                                                                                              \
        uint8_t b[CB];                                                                             \
        get_bytes(r, i, b, CB);                                                                    \
        int rc = G##_from_bytes_compressed(out, b);                                                \
        if (rc != 0)                                                                               \
            cr_assert_fail(AT "field %d: " #G "_from_bytes_compressed returned %d (%s) on a valid " \
                           "point", AT_ARGS(r), i + 1, rc, gm_strerror(rc));                       \
    }                                                                                              \
                                                                                                   \
    static void expect_##G(const vec_rec_t *r, const char *what, const G##_jac_t *p, int i)        \
    {                                                                                              \
        G##_affine_t a;                                                                            \
        uint8_t b[CB];                                                                             \
        G##_to_affine(&a, p);                                                                      \
        G##_to_bytes_compressed(b, &a);                                                            \
        expect_bytes(r, what, b, i, CB);                                                           \
    }                                                                                              \
                                                                                                   \
    static void check_##G##_add(const vec_rec_t *r)                                                \
    {                                                                                              \
        G##_affine_t pa, qa;                                                                       \
        G##_jac_t p, q, s;                                                                         \
        get_##G(r, 0, &pa);                                                                        \
        get_##G(r, 1, &qa);                                                                        \
        G##_from_affine(&p, &pa);                                                                  \
        G##_from_affine(&q, &qa);                                                                  \
        G##_add(&s, &p, &q);                                                                       \
        expect_##G(r, #G "_add", &s, 2);                                                           \
        G##_add_mixed(&s, &p, &qa);                                                                \
        expect_##G(r, #G "_add_mixed", &s, 2);                                                     \
        G##_add(&p, &p, &q);                                                                       \
        expect_##G(r, #G "_add (out aliases p)", &p, 2);                                           \
    }                                                                                              \
                                                                                                   \
    static void check_##G##_dbl(const vec_rec_t *r)                                                \
    {                                                                                              \
        G##_affine_t pa;                                                                           \
        G##_jac_t p, d;                                                                            \
        get_##G(r, 0, &pa);                                                                        \
        G##_from_affine(&p, &pa);                                                                  \
        G##_dbl(&d, &p);                                                                           \
        expect_##G(r, #G "_dbl", &d, 1);                                                           \
        G##_add(&d, &p, &p);                                                                       \
        expect_##G(r, #G "_add(p, p)", &d, 1);                                                     \
        G##_dbl(&p, &p);                                                                           \
        expect_##G(r, #G "_dbl (in place)", &p, 1);                                                \
    }                                                                                              \
                                                                                                   \
    static void check_##G##_mul(const vec_rec_t *r)                                                \
    {                                                                                              \
        G##_affine_t pa;                                                                           \
        G##_jac_t p, m;                                                                            \
        uint8_t kb[32];                                                                            \
        uint64_t k[4];                                                                             \
        fr_t kf;                                                                                   \
        get_##G(r, 0, &pa);                                                                        \
        get_bytes(r, 1, kb, 32);                                                                   \
        scalar_limbs(k, kb);                                                                       \
        G##_from_affine(&p, &pa);                                                                  \
        G##_mul(&m, &p, k);                                                                        \
        expect_##G(r, #G "_mul", &m, 2);                                                           \
        if (fr_from_bytes_be(&kf, kb) == 0) { /* k < r */                                          \
            G##_mul_fr(&m, &p, &kf);                                                               \
            expect_##G(r, #G "_mul_fr", &m, 2);                                                    \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void check_##G##_encode(const vec_rec_t *r)                                             \
    {                                                                                              \
        uint8_t cb[CB], ub[UB], out_c[CB], out_u[UB];                                              \
        G##_affine_t a, b, c;                                                                      \
        get_bytes(r, 0, cb, CB);                                                                   \
        get_bytes(r, 1, ub, UB);                                                                   \
        int rc = G##_from_bytes_compressed(&a, cb);                                                \
        cr_expect_eq(rc, 0, AT #G "_from_bytes_compressed returned %d (%s)", AT_ARGS(r), rc,       \
                     gm_strerror(rc));                                                             \
        int ru = G##_from_bytes_uncompressed(&b, ub);                                              \
        cr_expect_eq(ru, 0, AT #G "_from_bytes_uncompressed returned %d (%s)", AT_ARGS(r), ru,     \
                     gm_strerror(ru));                                                             \
        int rn = G##_from_bytes_uncompressed_unchecked(&c, ub);                                    \
        cr_expect_eq(rn, 0, AT #G "_from_bytes_uncompressed_unchecked returned %d (%s)",           \
                     AT_ARGS(r), rn, gm_strerror(rn));                                             \
        if (rc != 0 || ru != 0 || rn != 0)                                                         \
            return;                                                                                \
        cr_expect(G##_affine_eq(&a, &b), AT "compressed and uncompressed decode differently",      \
                  AT_ARGS(r));                                                                     \
        cr_expect(G##_affine_eq(&b, &c), AT "unchecked decodes differently", AT_ARGS(r));          \
        cr_expect(G##_affine_on_curve(&a), AT #G "_affine_on_curve is false", AT_ARGS(r));         \
        cr_expect(G##_affine_in_subgroup(&a), AT #G "_affine_in_subgroup is false", AT_ARGS(r));   \
        G##_to_bytes_compressed(out_c, &a);                                                        \
        expect_bytes(r, #G "_to_bytes_compressed", out_c, 0, CB);                                  \
        G##_to_bytes_uncompressed(out_u, &a);                                                      \
        expect_bytes(r, #G "_to_bytes_uncompressed", out_u, 1, UB);                                \
    }                                                                                              \
                                                                                                   \
    static void check_##G##_decode_bad(const vec_rec_t *r)                                         \
    {                                                                                              \
        uint8_t in[UB];                                                                            \
        G##_affine_t out, sentinel;                                                                \
        int want = reason_code(r, 1), rc;                                                          \
        const char *fn;                                                                            \
        memset(&sentinel, 0xa5, sizeof sentinel);                                                  \
        out = sentinel;                                                                            \
        if (field_len(r, 0) == 2 * (CB)) {                                                         \
            get_bytes(r, 0, in, CB);                                                               \
            fn = #G "_from_bytes_compressed";                                                      \
            rc = G##_from_bytes_compressed(&out, in);                                              \
        } else {                                                                                   \
            get_bytes(r, 0, in, UB);                                                               \
            fn = #G "_from_bytes_uncompressed";                                                    \
            rc = G##_from_bytes_uncompressed(&out, in);                                            \
        }                                                                                          \
        cr_expect_eq(rc, want, AT "%s(%.16s...) returned %d (%s), expected %d (%s: %s)",           \
                     AT_ARGS(r), fn, r->f[0], rc, gm_strerror(rc), want, r->f[1],                  \
                     gm_strerror(want));                                                           \
        cr_expect(memcmp(&out, &sentinel, sizeof out) == 0, AT "%s wrote its output on failure",   \
                  AT_ARGS(r), fn);                                                                 \
        if (want == GM_ESUBGROUP && field_len(r, 0) == 2 * (UB)) {                                 \
            /* the unchecked variant trusts the source: it accepts the point */                    \
            rc = G##_from_bytes_uncompressed_unchecked(&out, in);                                  \
            cr_expect_eq(rc, 0, AT #G "_from_bytes_uncompressed_unchecked returned %d (%s)",       \
                         AT_ARGS(r), rc, gm_strerror(rc));                                         \
            if (rc == 0) {                                                                         \
                cr_expect(G##_affine_on_curve(&out), AT "on-curve point: on_curve is false",       \
                          AT_ARGS(r));                                                             \
                cr_expect(!G##_affine_in_subgroup(&out), AT #G "_affine_in_subgroup is true",      \
                          AT_ARGS(r));                                                             \
            }                                                                                      \
        }                                                                                          \
    }

DEFINE_CURVE_CHECKS(g1, G1_COMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES)
DEFINE_CURVE_CHECKS(g2, G2_COMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES)

/* ---- pairing ----------------------------------------------------------------------------------- */

static void check_pairing(const vec_rec_t *r)
{
    g1_affine_t p[2];
    g2_affine_t q[2];
    fp12_t e, f, want;
    get_g1(r, 0, &p[0]);
    get_g2(r, 1, &q[0]);
    get_fp12(r, 2, &want);

    pairing(&e, &p[0], &q[0]);
    expect_fp12(r, "pairing", &e, 2, true);
    pairing_miller_loop(&f, &p[0], &q[0]);
    pairing_final_exp(&e, &f);
    expect_fp12(r, "pairing_final_exp(pairing_miller_loop)", &e, 2, true);
    pairing_miller_loop_n(&f, p, q, 1);
    pairing_final_exp(&e, &f);
    expect_fp12(r, "pairing_final_exp(pairing_miller_loop_n, n = 1)", &e, 2, true);

    bool one = fp12_is_one(&want);
    cr_expect_eq(pairing_product_is_one(p, q, 1), one, AT "pairing_product_is_one(n = 1) is %s",
                 AT_ARGS(r), one ? "false" : "true");
    g1_affine_neg(&p[1], &p[0]);
    q[1] = q[0];
    cr_expect(pairing_product_is_one(p, q, 2), AT "pairing_product_is_one({P, -P}, {Q, Q}) is false",
              AT_ARGS(r));
}

/* ---- the file as a whole --------------------------------------------------------------------- */

/* Every kind the file may hold, with its field counts: a record of any other
 * kind, or one with another count, is a format error. */
static const struct { const char *kind; int nmin, nmax; } kinds[] = {
    { "fp_add", 3, 3 },        { "fp_sub", 3, 3 },        { "fp_mul", 3, 3 },
    { "fp_sqr", 2, 2 },        { "fp_inv", 2, 2 },        { "fp_sqrt", 2, 2 },
    { "fr_add", 3, 3 },        { "fr_sub", 3, 3 },        { "fr_mul", 3, 3 },
    { "fr_inv", 2, 2 },        { "fp2_add", 6, 6 },       { "fp2_mul", 6, 6 },
    { "fp2_sqr", 4, 4 },       { "fp2_inv", 4, 4 },       { "fp2_sqrt", 3, 4 },
    { "fp6_mul", 3, 3 },       { "fp12_mul", 3, 3 },      { "fp12_inv", 2, 2 },
    { "fp12_frobenius", 3, 3 }, { "fp12_final_exp", 2, 2 },
    { "g1_add", 3, 3 },        { "g1_dbl", 2, 2 },        { "g1_mul", 3, 3 },
    { "g1_encode", 2, 2 },     { "g1_decode_bad", 2, 2 },
    { "g2_add", 3, 3 },        { "g2_dbl", 2, 2 },        { "g2_mul", 3, 3 },
    { "g2_encode", 2, 2 },     { "g2_decode_bad", 2, 2 },
    { "pairing", 3, 3 },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

Test(vectors, file_is_well_formed)
{
    FILE *f = fopen(vec_path(), "r");
    cr_assert_not_null(f, "cannot open %s (run from the repository root, or set GM_VECTORS)", vec_path());
    char *buf = NULL;
    size_t cap = 0, line = 0, seen[NKINDS] = { 0 };
    bool named_tool = false, named_command = false;
    ssize_t len;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        line++;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (len == 0)
            continue;
        if (buf[0] == '#') {
            named_tool |= strstr(buf, "@noble/curves") != NULL;
            named_command |= strstr(buf, "node gen.mjs") != NULL;
            continue;
        }
        char *save = NULL, *k = strtok_r(buf, " ", &save);
        int nf = 0;
        while (strtok_r(NULL, " ", &save))
            nf++;
        size_t i = 0;
        while (i < NKINDS && strcmp(kinds[i].kind, k) != 0)
            i++;
        cr_expect(i < NKINDS, "%s:%zu: unknown kind '%s'", vec_path(), line, k);
        if (i == NKINDS)
            continue;
        cr_expect(nf >= kinds[i].nmin && nf <= kinds[i].nmax, "%s:%zu: %s has %d fields", vec_path(),
                  line, k, nf);
        seen[i]++;
    }
    free(buf);
    fclose(f);
    cr_expect(named_tool, "%s: the header does not name @noble/curves", vec_path());
    cr_expect(named_command, "%s: the header does not give the command", vec_path());
    for (size_t i = 0; i < NKINDS; i++)
        cr_expect_gt(seen[i], 0, "%s: no %s records", vec_path(), kinds[i].kind);
}

/* ---- the driver: both kernel paths, one Test per kind --------------------------------------- */

static void run_kind(const char *kind, vec_check_fn fn)
{
    static const ff_path_t paths[] = { FF_PATH_PORTABLE, FF_PATH_ADX };
    size_t t = 0;
    while (t < NKINDS && strcmp(kinds[t].kind, kind) != 0)
        t++;
    cr_assert_lt(t, NKINDS, "kind %s is missing from the kinds table", kind);
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        int rc = ff_init(paths[i]);
        if (rc == GM_ENOTSUP) {
            cr_log_warn("%s: the ADX path is not supported on this CPU; checked on portable only", kind);
            continue;
        }
        cr_assert_eq(rc, 0, "ff_init(%d) returned %d", (int)paths[i], rc);
        cr_assert_eq(ff_path(), paths[i], "ff_init(%d) left path %d", (int)paths[i], (int)ff_path());
        g_path = ff_path_name();
        size_t n = vec_each(kind, kinds[t].nmin, kinds[t].nmax, fn);
        cr_assert_gt(n, 0, "%s: no %s records (the test would pass vacuously)", vec_path(), kind);
        cr_log_info("%s [%s]: %zu records", kind, g_path, n);
    }
}

#define VEC_TEST(kind) \
    Test(vectors, kind) { run_kind(#kind, check_##kind); }

VEC_TEST(fp_add)
VEC_TEST(fp_sub)
VEC_TEST(fp_mul)
VEC_TEST(fp_sqr)
VEC_TEST(fp_inv)
VEC_TEST(fp_sqrt)
VEC_TEST(fr_add)
VEC_TEST(fr_sub)
VEC_TEST(fr_mul)
VEC_TEST(fr_inv)
VEC_TEST(fp2_add)
VEC_TEST(fp2_mul)
VEC_TEST(fp2_sqr)
VEC_TEST(fp2_inv)
VEC_TEST(fp2_sqrt)
VEC_TEST(fp6_mul)
VEC_TEST(fp12_mul)
VEC_TEST(fp12_inv)
VEC_TEST(fp12_frobenius)
VEC_TEST(fp12_final_exp)
VEC_TEST(g1_add)
VEC_TEST(g1_dbl)
VEC_TEST(g1_mul)
VEC_TEST(g1_encode)
VEC_TEST(g1_decode_bad)
VEC_TEST(g2_add)
VEC_TEST(g2_dbl)
VEC_TEST(g2_mul)
VEC_TEST(g2_encode)
VEC_TEST(g2_decode_bad)
VEC_TEST(pairing)
