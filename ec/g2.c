/*
 * ec/g2.c — G2: y^2 = x^3 + 4(u + 1) over Fp2 (the M-twist), the order-r
 * subgroup of E'(Fp2). The point arithmetic and the encodings are the shape
 * of ec/ec_shape.h over Fp2; this file adds the curve's constants, the
 * coordinate encoding (c1 first), the public g2_* functions of ec/ec.h by
 * name, and the endomorphism psi = untwist o Frobenius o twist:
 *   psi(x, y) = (conj(x) * c_x, conj(y) * c_y),
 *   c_x = 1 / (u + 1)^((p - 1) / 3),  c_y = 1 / (u + 1)^((p - 1) / 2).
 * psi acts on G2 as multiplication by p = x mod r, so z * P = -psi(P): that is
 * endo_step, which splits a scalar into four 64-bit digits and gives Scott's
 * subgroup test psi(P) == x P.
 */
#include "ec/ec_internal.h"

/* Constants in Montgomery form (R = 2^384), little-endian limbs. */
const g2_affine_t G2_GENERATOR = {
    .x = {
        /* c0 = 0x024aa2b2...8c121bdb8 */
        .c0 = {{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL,
                0x9894999d1a3caee9ULL, 0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
        /* c1 = 0x13e02b60...55d042b7e */
        .c1 = {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL,
                0x1b1ab6cc8541b367ULL, 0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}},
    },
    .y = {
        /* c0 = 0x0ce5d527...608b82801 */
        .c0 = {{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL,
                0xbbefb5e96e0d495fULL, 0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
        /* c1 = 0x0606c4a0...ff05f79be */
        .c1 = {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL,
                0x79495c4ec93da33aULL, 0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}},
    },
    .inf = false,
};

/* b = 4(u + 1) = 4 + 4u */
#define FP_FOUR {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, \
                  0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}}
static const fp2_t curve_b = {.c0 = FP_FOUR, .c1 = FP_FOUR};

/* c_x = 0x1a0111ea...00000000aaad * u (its c0 is zero). */
static const fp_t psi_cx_c1 = {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                                0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}};
/* c_y = 0x135203e6...4121bdea2 + 0x06af0e04...ede3cc09 * u */
static const fp2_t psi_cy = {
    .c0 = {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
            0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
    .c1 = {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
            0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
};

/* out = z * in = -psi(in) on G2. conj(x) * (c*u) = (a0 - a1 u) * c u
 * = c*a1 + c*a0 u: two Fp multiplications. */
static void endo_step(g2_affine_t *out, const g2_affine_t *in)
{
    fp2_t cx, cy;
    fp_mul(&cx.c0, &in->x.c1, &psi_cx_c1);
    fp_mul(&cx.c1, &in->x.c0, &psi_cx_c1);
    fp2_conj(&cy, &in->y);
    fp2_mul(&cy, &cy, &psi_cy);
    out->x = cx;
    fp2_neg(&out->y, &cy);
    out->inf = in->inf;
}

/* One coordinate: 96 bytes, c1 then c0, each 48 bytes big-endian (Zcash). */
static void coord_to_bytes(uint8_t out[2 * FP_BYTES], const fp2_t *a)
{
    fp_to_bytes_be(out, &a->c1);
    fp_to_bytes_be(out + FP_BYTES, &a->c0);
}

static int coord_from_bytes(fp2_t *out, const uint8_t in[2 * FP_BYTES])
{
    fp2_t t;
    int rc = fp_from_bytes_be(&t.c1, in);
    if (rc == GM_OK)
        rc = fp_from_bytes_be(&t.c0, in + FP_BYTES);
    if (rc == GM_OK)
        *out = t;
    return rc;
}

/* Window 4: four 64-bit digits, 4-entry tables. By count w = 4 and w = 5 are
 * within 2% of each other (5 saves 8 mixed additions, pays 4 table additions,
 * 4 more batch entries and 12 more psi); 4 keeps the tables small. */
#define EC_PT g2
#define EC_FE fp2
#define EC_FE_T fp2_t
#define EC_FE_ONE FP2_ONE
#define EC_FE_BYTES (2 * FP_BYTES)
#define EC_ENDO_GROUP 1
#define EC_ENDO_W 4
#include "ec/ec_shape.h"

/* ---- the public functions of ec/ec.h (the shape above, by name) ---------------------- */

void g2_affine_set_inf(g2_affine_t *out) { affine_set_inf(out); }
void g2_jac_set_inf(g2_jac_t *out) { jac_set_inf(out); }
bool g2_jac_is_inf(const g2_jac_t *p) { return jac_is_inf(p); }
void g2_from_affine(g2_jac_t *out, const g2_affine_t *p) { jac_from_affine(out, p); }
void g2_to_affine(g2_affine_t *out, const g2_jac_t *p) { jac_to_affine(out, p); }
void g2_batch_to_affine(g2_affine_t *out, const g2_jac_t *p, size_t n, fp2_t *scratch)
{
    jac_batch_to_affine(out, p, n, scratch);
}
bool g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b) { return affine_eq(a, b); }
bool g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b) { return jac_eq(a, b); }
void g2_neg(g2_jac_t *out, const g2_jac_t *p) { jac_neg(out, p); }
void g2_affine_neg(g2_affine_t *out, const g2_affine_t *p) { affine_neg(out, p); }
void g2_dbl(g2_jac_t *out, const g2_jac_t *p) { jac_dbl(out, p); }
void g2_add(g2_jac_t *out, const g2_jac_t *p, const g2_jac_t *q) { jac_add(out, p, q); }
void g2_add_mixed(g2_jac_t *out, const g2_jac_t *p, const g2_affine_t *q)
{
    jac_add_mixed(out, p, q);
}
void g2_mul(g2_jac_t *out, const g2_jac_t *p, const uint64_t k[4]) { jac_mul_endo(out, p, k); }
void g2_mul_fr(g2_jac_t *out, const g2_jac_t *p, const fr_t *k) { jac_mul_fr(out, p, k); }
void g2_mul_any(g2_jac_t *out, const g2_jac_t *p, const uint64_t k[4]) { jac_mul_plain(out, p, k); }
bool g2_affine_on_curve(const g2_affine_t *p) { return affine_on_curve(p); }
size_t g2_first_off_curve(const g2_affine_t *p, size_t n)
{
    return fr_x8_enabled() ? g2_x8_first_off_curve(p, n, &curve_b) : affine_first_off_curve(p, n);
}
bool g2_jac_on_curve(const g2_jac_t *p) { return jac_on_curve(p); }
bool g2_affine_in_subgroup(const g2_affine_t *p) { return affine_in_subgroup(p); }
void g2_xyzz_set_inf(g2_xyzz_t *out) { xyzz_set_inf(out); }
void g2_xyzz_add_affine(g2_xyzz_t *out, const g2_xyzz_t *p, const g2_affine_t *q)
{
    xyzz_add_affine(out, p, q);
}
void g2_xyzz_add(g2_xyzz_t *out, const g2_xyzz_t *p, const g2_xyzz_t *q) { xyzz_add(out, p, q); }
void g2_xyzz_dbl(g2_xyzz_t *out, const g2_xyzz_t *p) { xyzz_dbl(out, p); }
void g2_xyzz_to_jac(g2_jac_t *out, const g2_xyzz_t *p) { xyzz_to_jac(out, p); }
void g2_to_bytes_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *p)
{
    affine_to_bytes_compressed(out, p);
}
void g2_to_bytes_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *p)
{
    affine_to_bytes_uncompressed(out, p);
}
int g2_from_bytes_compressed(g2_affine_t *out, const uint8_t in[G2_COMPRESSED_BYTES])
{
    return affine_from_bytes_compressed(out, in);
}
int g2_from_bytes_uncompressed(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES])
{
    return affine_from_bytes_uncompressed(out, in, true);
}
int g2_from_bytes_uncompressed_unchecked(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES])
{
    return affine_from_bytes_uncompressed(out, in, false);
}
