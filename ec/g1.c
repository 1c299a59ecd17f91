/*
 * ec/g1.c — G1: y^2 = x^3 + 4 over Fp, the order-r subgroup of E(Fp). The
 * point arithmetic is the shape of ec/ec_shape.h over Fp; this file adds the
 * curve's constants and its endomorphism phi(x, y) = (beta*x, y).
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
#define curve_b EC_G1_B
const fp_t EC_G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
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

/* Window 5: two 128-bit halves, 8-entry tables. By count, additions plus
 * table: w = 4 about 610M, w = 5 about 585M, w = 6 about 650M (timings on the
 * shared VM could not separate 4 from 5). */
#define EC_PT g1
#define EC_FE fp
#define EC_FE_T fp_t
#define EC_FE_ONE FP_ONE
#define EC_ENDO_GROUP 2
#define EC_ENDO_W 5
#include "ec/ec_shape.h"
