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
 * conjugation, an inversion and a Frobenius; then the hard part
 * M (p^4 - p^2 + 1) / r (see ec/ec.h for M) written in base p, as
 * Fuentes-Castaneda, Knapp and Rodriguez-Henriquez ("Faster hashing to G2",
 * 2011) do for BN curves:
 *   M (p^4 - p^2 + 1) / r = l0 + l1 p + l2 p^2 + l3 p^3 (an exact identity),
 *   l0 = 12x^3 + 12x^2 + 6x + 1,  l1 = 12x^3 + 6x^2 + 4x,
 *   l2 = 12x^3 + 6x^2 + 6x,       l3 = 12x^3 + 6x^2 + 4x - 1,
 * so three exponentiations by x (64 bits) and Frobenius maps replace a
 * 951-bit exponentiation (about 5 times fewer Fp12 operations). After the
 * easy part the value has norm 1 over Fp6, so its inverse is its conjugate.
 */
#include "ec/ec_internal.h"

/* 6x + 2 = 0x19d797039be763ba8, little-endian limbs. */
static const uint64_t BN_ATE_LOOP[2] = {0x9d797039be763ba8ULL, 0x1ULL};

/* The BN parameter x. */
static const uint64_t BN_X = 0x44e992b44a6909f1ULL;

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

/* out = a^(-x) for a of norm 1 (conjugate of a^x). */
static void pow_neg_x(bn_fp12_t *out, const bn_fp12_t *a)
{
    bn_fp12_pow(out, a, &BN_X, 1);
    bn_fp12_conj(out, out);
}

void bn_pairing_final_exp(bn_fp12_t *out, const bn_fp12_t *f)
{
    bn_fp12_t g, t, a, b, c, d;
    bn_fp12_inv(&t, f);
    bn_fp12_conj(&g, f);
    bn_fp12_mul(&g, &g, &t);          /* f^(p^6 - 1) */
    bn_fp12_frobenius(&t, &g, 2);
    bn_fp12_mul(&g, &t, &g);          /* g = f^((p^6 - 1)(p^2 + 1)) */

    pow_neg_x(&a, &g);
    bn_fp12_sqr(&a, &a);              /* a = g^(-2x) */
    bn_fp12_sqr(&b, &a);
    bn_fp12_mul(&b, &b, &a);          /* b = g^(-6x) */
    pow_neg_x(&c, &b);                /* c = g^(6x^2) */
    bn_fp12_sqr(&d, &c);
    pow_neg_x(&d, &d);                /* d = g^(-12x^3) */
    bn_fp12_conj(&d, &d);
    bn_fp12_mul(&d, &d, &c);
    bn_fp12_conj(&b, &b);
    bn_fp12_mul(&d, &d, &b);          /* d = g^(12x^3 + 6x^2 + 6x) = g^l2 */
    bn_fp12_mul(&a, &d, &a);          /* a = g^(12x^3 + 6x^2 + 4x) = g^l1 */

    bn_fp12_mul(&t, &d, &c);
    bn_fp12_mul(&t, &t, &g);          /* g^l0 = g^l2 g^(6x^2) g */
    bn_fp12_frobenius(&b, &a, 1);
    bn_fp12_mul(&t, &t, &b);          /* * (g^l1)^p */
    bn_fp12_frobenius(&b, &d, 2);
    bn_fp12_mul(&t, &t, &b);          /* * (g^l2)^(p^2) */
    bn_fp12_conj(&b, &g);
    bn_fp12_mul(&b, &b, &a);
    bn_fp12_frobenius(&b, &b, 3);     /* (g^(l1 - 1))^(p^3), l3 = l1 - 1 */
    bn_fp12_mul(out, &t, &b);
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
