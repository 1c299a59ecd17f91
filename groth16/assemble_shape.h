/*
 * groth16/assemble_shape.h — the Groth16 proof from its five MSM sums,
 * written once for every curve. A template, not a header: a .c file defines
 * the parameters below and includes it once; it defines one static function,
 *
 *   static void proof_assemble(AS_PROOF_T *out, const AS_VK_T *vk,
 *                              const sa, sb1 (G1 Jacobian), sb2 (G2), sl, sh (G1),
 *                              const r, s (Fr, reduced));
 *
 * and the .c file wraps it by name (groth16/prove.c: groth16_proof_assemble
 * for BLS12-381; snarkjs/prove_shape.h, instantiated by snarkjs/prove.c and
 * snarkjs/bn_prove.c, for the snarkjs provers of both curves).
 *
 *   A  = alpha1 + sum_A + r delta1
 *   B  = beta2 + sum_B2 + s delta2,   B1 = beta1 + sum_B1 + s delta1
 *   C  = sum_L + sum_H + s A + r B1 - r s delta1
 * which is bellperson's C = s sum_A + r sum_B1 + rs delta1 + s alpha1 +
 * r beta1 + sum_H + sum_L rewritten over A and B1, already at hand: five G1
 * scalar multiplications instead of six. The sums may be the identity.
 *
 * Parameters (#define before the #include; all are #undef'd at the end):
 *   AS_G1, AS_G2   g1, g2 | bn_g1, bn_g2   prefixes of the point functions (ec/ec.h)
 *   AS_FR          fr | bn_fr               prefix of the scalar field (ff/ff.h)
 *   AS_VK_T        the verifying key type: alpha_g1, beta_g1, delta_g1 (G1
 *                  affine), beta_g2, delta_g2 (G2 affine)
 *   AS_PROOF_T     the proof type: a, c (G1 affine), b (G2 affine)
 * A third curve needs its ec/ff functions under one prefix and these five names.
 */
#ifndef AS_G1
#error "assemble_shape.h is a template: define AS_G1, AS_G2, AS_FR, AS_VK_T, AS_PROOF_T and include it once"
#endif

#define AS_CAT_(a, b) a##b
#define AS_CAT(a, b) AS_CAT_(a, b)
#define AS_P1(name) AS_CAT(AS_G1, name)
#define AS_P2(name) AS_CAT(AS_G2, name)
#define AS_F(name) AS_CAT(AS_FR, name)

static void proof_assemble(AS_PROOF_T *out, const AS_VK_T *vk, const AS_P1(_jac_t) *sa, const AS_P1(_jac_t) *sb1,
                           const AS_P2(_jac_t) *sb2, const AS_P1(_jac_t) *sl, const AS_P1(_jac_t) *sh,
                           const AS_F(_t) *r, const AS_F(_t) *s)
{
    AS_P1(_jac_t) delta1, ga, b1, gc, x;
    AS_P2(_jac_t) delta2, gb;
    AS_P1(_from_affine)(&delta1, &vk->delta_g1);
    AS_P2(_from_affine)(&delta2, &vk->delta_g2);

    AS_P1(_mul_fr)(&ga, &delta1, r);
    AS_P1(_add_mixed)(&ga, &ga, &vk->alpha_g1);
    AS_P1(_add)(&ga, &ga, sa);

    AS_P2(_mul_fr)(&gb, &delta2, s);
    AS_P2(_add_mixed)(&gb, &gb, &vk->beta_g2);
    AS_P2(_add)(&gb, &gb, sb2);

    AS_P1(_mul_fr)(&b1, &delta1, s);
    AS_P1(_add_mixed)(&b1, &b1, &vk->beta_g1);
    AS_P1(_add)(&b1, &b1, sb1);

    AS_F(_t) rs_neg;
    AS_F(_mul)(&rs_neg, r, s);
    AS_F(_neg)(&rs_neg, &rs_neg);
    AS_P1(_mul_fr)(&gc, &delta1, &rs_neg);
    AS_P1(_add)(&gc, &gc, sl);
    AS_P1(_add)(&gc, &gc, sh);
    AS_P1(_mul_fr)(&x, &ga, s);
    AS_P1(_add)(&gc, &gc, &x);
    AS_P1(_mul_fr)(&x, &b1, r);
    AS_P1(_add)(&gc, &gc, &x);

    AS_P1(_to_affine)(&out->a, &ga);
    AS_P2(_to_affine)(&out->b, &gb);
    AS_P1(_to_affine)(&out->c, &gc);
}

#undef AS_CAT_
#undef AS_CAT
#undef AS_P1
#undef AS_P2
#undef AS_F
#undef AS_G1
#undef AS_G2
#undef AS_FR
#undef AS_VK_T
#undef AS_PROOF_T
