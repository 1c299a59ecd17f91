/*
 * ec/bn_pairing.c — the optimal ate pairing of BN254 (ec/ec.h), for the
 * verifier: a few pairings per proof. Written for clarity over speed:
 * the G2 point T of the Miller loop is kept affine (one Fp2 inversion per
 * step) and each line is multiplied in as a full Fp12 element.
 *
 * Miller loop: f = f_{6x+2,Q}(P) * l_{T,pi(Q)}(P) * l_{T',-pi^2(Q)}(P) with
 * 6x + 2 in non-adjacent form (x = 4965661367192848881). With the D-type
 * twist, psi(x, y) = (x w^2, y w^3) maps the twist into E(Fp12); the line
 * through psi(T) with twist slope lambda, at P = (xP, yP), is
 *   l = yP - lambda xP w + (lambda xT - yT) w^3,
 * i.e. c0 = (yP, 0, 0), c1 = (-lambda xP, lambda xT - yT, 0) in the tower.
 * Vertical lines (T = -Q, reached only by the last Frobenius addition) lie
 * in Fp6, which the final exponentiation sends to 1: they are skipped.
 *
 * Final exponentiation: the easy part f^((p^6 - 1)(p^2 + 1)) with a
 * conjugation, an inversion and a Frobenius; the hard part a plain
 * square-and-multiply by M (p^4 - p^2 + 1) / r (see ec/ec.h for M).
 */
#include "ec/ec_internal.h"

/* 6x + 2 = 0x19d797039be763ba8, little-endian limbs. */
static const uint64_t BN_ATE_LOOP[2] = {0x9d797039be763ba8ULL, 0x1ULL};

/* M (p^4 - p^2 + 1) / r, M = 2x(6x^2 + 3x + 1), 951 bits, little-endian limbs. */
static const uint64_t BN_HARD_EXP[15] = {
    0xcaa4152366144ab4ULL, 0x114dc0ec2cab7ffdULL, 0x0cf0888c7a0ff6cfULL,
    0x65c5644e949b6a90ULL, 0x1be2458885117085ULL, 0x5b35eb719e58db4bULL,
    0x2566c550aeb7e0e2ULL, 0x0c974024a316619fULL, 0xd147cb7d3a5203dcULL,
    0x621d9bfed77c2ad0ULL, 0x26473fbcd1c3ec1eULL, 0xe86518527b5e4036ULL,
    0x29259e9712ca7b71ULL, 0x1891045f68d15763ULL, 0x00679dd974c68787ULL,
};

/* f *= the line through T with slope lambda, at P; T becomes (x3, y3) with
 * x3 = lambda^2 - xT - xQ, y3 = lambda (xT - x3) - yT (xQ = xT when doubling). */
static void line_step(bn_fp12_t *f, bn_g2_affine_t *t, const bn_fp2_t *lambda, const bn_fp2_t *xq,
                      const bn_g1_affine_t *p)
{
    bn_fp12_t l = {0};
    bn_fp2_t a, x3;
    l.c0.c0.c0 = p->y;
    bn_fp2_mul_fp(&a, lambda, &p->x);
    bn_fp2_neg(&l.c1.c0, &a);
    bn_fp2_mul(&a, lambda, &t->x);
    bn_fp2_sub(&l.c1.c1, &a, &t->y);
    bn_fp12_mul(f, f, &l);

    bn_fp2_sqr(&x3, lambda);
    bn_fp2_sub(&x3, &x3, &t->x);
    bn_fp2_sub(&x3, &x3, xq);
    bn_fp2_sub(&a, &t->x, &x3);
    bn_fp2_mul(&a, &a, lambda);
    bn_fp2_sub(&t->y, &a, &t->y);
    t->x = x3;
}

/* f *= l_{T,T}(P); T = 2T. T is never the identity here and has y != 0
 * (the twist has no point of order 2 in G2). lambda = 3 xT^2 / (2 yT). */
static void dbl_step(bn_fp12_t *f, bn_g2_affine_t *t, const bn_g1_affine_t *p)
{
    bn_fp2_t num, den, lambda, xt = t->x;
    bn_fp2_sqr(&num, &t->x);
    bn_fp2_add(&lambda, &num, &num);
    bn_fp2_add(&num, &num, &lambda);
    bn_fp2_dbl(&den, &t->y);
    bn_fp2_inv(&den, &den);
    bn_fp2_mul(&lambda, &num, &den);
    line_step(f, t, &lambda, &xt, p);
}

/* f *= l_{T,Q}(P); T = T + Q. T = Q doubles; T = -Q makes T the identity
 * (vertical line, skipped: see the top of the file). */
static void add_step(bn_fp12_t *f, bn_g2_affine_t *t, const bn_g2_affine_t *q, const bn_g1_affine_t *p)
{
    if (t->inf)
        return;
    bn_fp2_t num, den, lambda;
    bn_fp2_sub(&den, &q->x, &t->x);
    bn_fp2_sub(&num, &q->y, &t->y);
    if (bn_fp2_is_zero(&den)) {
        if (bn_fp2_is_zero(&num))
            dbl_step(f, t, p);
        else
            bn_g2_affine_set_inf(t);
        return;
    }
    bn_fp2_inv(&den, &den);
    bn_fp2_mul(&lambda, &num, &den);
    line_step(f, t, &lambda, &q->x, p);
}

/* The Frobenius map of the twist: (conj(x) gamma_2, conj(y) gamma_3). */
static void twist_frobenius(bn_g2_affine_t *out, const bn_g2_affine_t *q)
{
    bn_fp2_conj(&out->x, &q->x);
    bn_fp2_mul(&out->x, &out->x, &BN254_FROB_GAMMA[2]);
    bn_fp2_conj(&out->y, &q->y);
    bn_fp2_mul(&out->y, &out->y, &BN254_FROB_GAMMA[3]);
    out->inf = q->inf;
}

void bn_pairing_miller_loop(bn_fp12_t *out, const bn_g1_affine_t *p, const bn_g2_affine_t *q)
{
    *out = BN254_FP12_ONE;
    if (p->inf || q->inf)
        return;
    int8_t naf[EC_WNAF_MAX];
    size_t len = ec_wnaf(naf, BN_ATE_LOOP, 2, 2);
    bn_g2_affine_t t = *q, nq, q1, q2;
    bn_g2_affine_neg(&nq, q);
    bn_fp12_t f = BN254_FP12_ONE;
    for (size_t i = len - 1; i-- > 0;) {
        bn_fp12_sqr(&f, &f);
        dbl_step(&f, &t, p);
        if (naf[i] > 0)
            add_step(&f, &t, q, p);
        else if (naf[i] < 0)
            add_step(&f, &t, &nq, p);
    }
    twist_frobenius(&q1, q);
    twist_frobenius(&q2, &q1);
    bn_fp2_neg(&q2.y, &q2.y); /* -pi^2(Q) */
    add_step(&f, &t, &q1, p);
    add_step(&f, &t, &q2, p);
    *out = f;
}

void bn_pairing_miller_loop_n(bn_fp12_t *out, const bn_g1_affine_t *p, const bn_g2_affine_t *q, size_t n)
{
    bn_fp12_t acc = BN254_FP12_ONE, f;
    for (size_t i = 0; i < n; i++) {
        bn_pairing_miller_loop(&f, &p[i], &q[i]);
        bn_fp12_mul(&acc, &acc, &f);
    }
    *out = acc;
}

void bn_pairing_final_exp(bn_fp12_t *out, const bn_fp12_t *f)
{
    bn_fp12_t t, u;
    bn_fp12_inv(&t, f);
    bn_fp12_conj(&u, f);
    bn_fp12_mul(&u, &u, &t);          /* f^(p^6 - 1) */
    bn_fp12_frobenius(&t, &u, 2);
    bn_fp12_mul(&u, &t, &u);          /* ^(p^2 + 1) */
    bn_fp12_pow(out, &u, BN_HARD_EXP, sizeof BN_HARD_EXP / sizeof BN_HARD_EXP[0]);
}

void bn_pairing(bn_fp12_t *out, const bn_g1_affine_t *p, const bn_g2_affine_t *q)
{
    bn_fp12_t f;
    bn_pairing_miller_loop(&f, p, q);
    bn_pairing_final_exp(out, &f);
}

bool bn_pairing_product_is_one(const bn_g1_affine_t *p, const bn_g2_affine_t *q, size_t n)
{
    bn_fp12_t f, e;
    bn_pairing_miller_loop_n(&f, p, q, n);
    bn_pairing_final_exp(&e, &f);
    return bn_fp12_is_one(&e);
}
