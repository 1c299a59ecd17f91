/*
 * ec/g1.c — G1: y^2 = x^3 + 4 over Fp, the order-r subgroup of E(Fp). The
 * point arithmetic and the encodings are the shape of ec/ec_shape.h over Fp;
 * this file adds the curve's constants, its endomorphism
 * phi(x, y) = (beta*x, y), the coordinate encoding, and the public g1_*
 * functions of ec/ec.h, by name.
 *
 * phi acts on G1 as multiplication by lambda = -x^2 = -z^2 mod r (beta below
 * is the cube root of unity that makes it so; the other one gives lambda^2).
 * So z^2 * P = -phi(P) = (beta*x, -y): that is endo_step, which splits a
 * scalar into two 128-bit halves (GLV) and gives Scott's subgroup test
 * phi(P) == -x^2 P.
 */
#include "ec/ec_internal.h"

/* Constants in Montgomery form (R = 2^384), little-endian limbs. */
const g1_affine_t G1_GENERATOR = {
    /* x = 0x17f1d3a7...adb22c6bb */
    .x = {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL,
           0xf0ae6acdf3d0e747ULL, 0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
    /* y = 0x08b3f481...946c5e7e1 */
    .y = {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL,
           0x51ac582950405194ULL, 0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}},
    .inf = false,
};

/* b = 4 */
static const fp_t curve_b = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                              0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

/* beta = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe,
 * a primitive cube root of unity in Fp with phi(P) = -x^2 * P on G1. */
static const fp_t g1_beta = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                              0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

/* out = z^2 * in = -phi(in) = (beta*x, -y) on G1. */
static void endo_step(g1_affine_t *out, const g1_affine_t *in)
{
    fp_mul(&out->x, &in->x, &g1_beta);
    fp_neg(&out->y, &in->y);
    out->inf = in->inf;
}

/* One coordinate: 48 bytes big-endian. */
static void coord_to_bytes(uint8_t out[FP_BYTES], const fp_t *a) { fp_to_bytes_be(out, a); }
static int coord_from_bytes(fp_t *out, const uint8_t in[FP_BYTES]) { return fp_from_bytes_be(out, in); }

/* Window 5: two 128-bit halves, 8-entry tables. By count, additions plus
 * table: w = 4 about 610M, w = 5 about 585M, w = 6 about 650M (timings on the
 * shared VM could not separate 4 from 5). */
#define EC_PT g1
#define EC_FE fp
#define EC_FE_T fp_t
#define EC_FE_ONE FP_ONE
#define EC_FE_BYTES FP_BYTES
#define EC_ENDO_GROUP 2
#define EC_ENDO_W 5
#include "ec/ec_shape.h"

/* ---- the public functions of ec/ec.h (the shape above, by name) ---------------------- */

void g1_affine_set_inf(g1_affine_t *out) { affine_set_inf(out); }
void g1_jac_set_inf(g1_jac_t *out) { jac_set_inf(out); }
bool g1_jac_is_inf(const g1_jac_t *p) { return jac_is_inf(p); }
void g1_from_affine(g1_jac_t *out, const g1_affine_t *p) { jac_from_affine(out, p); }
void g1_to_affine(g1_affine_t *out, const g1_jac_t *p) { jac_to_affine(out, p); }
void g1_batch_to_affine(g1_affine_t *out, const g1_jac_t *p, size_t n, fp_t *scratch)
{
    jac_batch_to_affine(out, p, n, scratch);
}
bool g1_affine_eq(const g1_affine_t *a, const g1_affine_t *b) { return affine_eq(a, b); }
bool g1_jac_eq(const g1_jac_t *a, const g1_jac_t *b) { return jac_eq(a, b); }
void g1_neg(g1_jac_t *out, const g1_jac_t *p) { jac_neg(out, p); }
void g1_affine_neg(g1_affine_t *out, const g1_affine_t *p) { affine_neg(out, p); }
void g1_dbl(g1_jac_t *out, const g1_jac_t *p) { jac_dbl(out, p); }
void g1_add(g1_jac_t *out, const g1_jac_t *p, const g1_jac_t *q) { jac_add(out, p, q); }
void g1_add_mixed(g1_jac_t *out, const g1_jac_t *p, const g1_affine_t *q)
{
    jac_add_mixed(out, p, q);
}
void g1_mul(g1_jac_t *out, const g1_jac_t *p, const uint64_t k[4]) { jac_mul_endo(out, p, k); }
void g1_mul_fr(g1_jac_t *out, const g1_jac_t *p, const fr_t *k) { jac_mul_fr(out, p, k); }
void g1_mul_any(g1_jac_t *out, const g1_jac_t *p, const uint64_t k[4]) { jac_mul_plain(out, p, k); }
bool g1_affine_on_curve(const g1_affine_t *p) { return affine_on_curve(p); }
size_t g1_first_off_curve(const g1_affine_t *p, size_t n)
{
    return fr_x8_enabled() ? g1_x8_first_off_curve(p, n, &curve_b) : affine_first_off_curve(p, n);
}
bool g1_jac_on_curve(const g1_jac_t *p) { return jac_on_curve(p); }
bool g1_affine_in_subgroup(const g1_affine_t *p) { return affine_in_subgroup(p); }
void g1_xyzz_set_inf(g1_xyzz_t *out) { xyzz_set_inf(out); }
void g1_xyzz_add_affine(g1_xyzz_t *out, const g1_xyzz_t *p, const g1_affine_t *q)
{
    xyzz_add_affine(out, p, q);
}
void g1_xyzz_add(g1_xyzz_t *out, const g1_xyzz_t *p, const g1_xyzz_t *q) { xyzz_add(out, p, q); }
void g1_xyzz_dbl(g1_xyzz_t *out, const g1_xyzz_t *p) { xyzz_dbl(out, p); }
void g1_xyzz_to_jac(g1_jac_t *out, const g1_xyzz_t *p) { xyzz_to_jac(out, p); }
void g1_to_bytes_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *p)
{
    affine_to_bytes_compressed(out, p);
}
void g1_to_bytes_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *p)
{
    affine_to_bytes_uncompressed(out, p);
}
int g1_from_bytes_compressed(g1_affine_t *out, const uint8_t in[G1_COMPRESSED_BYTES])
{
    return affine_from_bytes_compressed(out, in);
}
int g1_from_bytes_uncompressed(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES])
{
    return affine_from_bytes_uncompressed(out, in, true);
}
int g1_from_bytes_uncompressed_unchecked(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES])
{
    return affine_from_bytes_uncompressed(out, in, false);
}
