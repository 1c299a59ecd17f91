/*
 * ec/pairing.c — the optimal ate pairing on BLS12-381.
 *
 * e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r) with x = -0xd201000000010000, the
 * value blst and @noble/curves return (both raise to three times the
 * reduced-pairing exponent, see pairing_final_exp; the cube is still a
 * non-degenerate bilinear pairing since 3 is prime to r).
 *
 * Miller loop: Q = (xQ, yQ) lives on the M-type twist E'(Fp2):
 * y^2 = x^3 + 4 xi, xi = u + 1, and untwists to (xQ / w^2, yQ / w^3) on
 * E(Fp12). T runs in homogeneous projective coordinates (x = X/Z, y = Y/Z)
 * on the twist, and every line through T (tangent, or chord to Q) evaluated
 * at P = (xP, yP) and multiplied by w^3 (and by an Fp2 factor, which the final
 * exponentiation kills like w^3, both being in a proper subfield) is
 *     l0 + l1 v + l4 v w,   l0, l1, l4 in Fp2, l1 = (.) xP, l4 = (.) yP
 * — the sparse shape fp12_mul_by_014 takes. No inversion anywhere in the loop.
 * Since x < 0, the loop runs over |x| and the result is conjugated
 * (f_{-n} = 1 / f_n up to factors the final exponentiation kills, and
 * conjugation is inversion on the values that survive it).
 */
#include "base/base.h"
#include "ec/ec.h"

/* |x| for BLS12-381: bits 63, 62, 60, 57, 48 and 16. */
#define PAIRING_X_ABS 0xd201000000010000ULL
#define PAIRING_X_BITS 64

/* Pairs handled per shared squaring chain in pairing_miller_loop_n (stack
 * state, no allocation); longer inputs are split into chunks whose results
 * are multiplied. */
#define PAIRING_CHUNK 8

typedef struct { fp2_t x, y, z; } g2_proj_t; /* x = X/Z, y = Y/Z, on the twist */

/* One pair's loop state: P's coordinates as the lines use them, Q, T. */
typedef struct {
    fp_t xp, nyp;   /* xP and -yP */
    fp2_t xq, yq;
    g2_proj_t t;
} pairing_state_t;

static void pairing_fp2_half(fp2_t *out, const fp2_t *a)
{
    fp_half(&out->c0, &a->c0);
    fp_half(&out->c1, &a->c1);
}

/* out = 3 b' a with b' = 4 xi the twist's constant: xi a, then * 12 by adds. */
static void pairing_fp2_mul_3b(fp2_t *out, const fp2_t *a)
{
    fp2_t t, s;
    fp2_mul_nonresidue(&t, a);
    fp2_dbl(&t, &t);
    fp2_dbl(&t, &t);   /* 4 xi a */
    fp2_dbl(&s, &t);
    fp2_add(out, &s, &t);
}

/*
 * T <- 2T and the tangent line at T, evaluated at P (Costello–Lange–Naehrig
 * 2010 homogeneous doubling for y^2 = x^3 + b'):
 *   A = XY/2, B = Y^2, C = Z^2, E = 3b'C, F = 3E, G = (B + F)/2,
 *   H = (Y + Z)^2 - B - C = 2YZ,
 *   X' = A (B - F),  Y' = G^2 - 3E^2,  Z' = B H.
 * The tangent slope is 3X^2 / (2YZ); scaling the line by 2YZ and using the
 * curve equation, w^3 * line = (E - B) + 3X^2 xP v - H yP v w (up to the sign
 * of the whole, an Fp factor): l0 = E - B, l1 = 3X^2 xP, l4 = -H yP.
 * Cost: 3M + 6S + 4 Fp multiplications.
 */
static void pairing_dbl_step(fp2_t *l0, fp2_t *l1, fp2_t *l4, pairing_state_t *s)
{
    g2_proj_t *t = &s->t;
    fp2_t a, b, c, e, f, g, h, j;

    fp2_mul(&a, &t->x, &t->y);
    pairing_fp2_half(&a, &a);
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    pairing_fp2_mul_3b(&e, &c);
    fp2_dbl(&f, &e);
    fp2_add(&f, &f, &e);
    fp2_add(&g, &b, &f);
    pairing_fp2_half(&g, &g);
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c);
    fp2_sqr(&j, &t->x);

    /* line */
    fp2_sub(l0, &e, &b);
    fp2_dbl(l1, &j);
    fp2_add(l1, l1, &j);
    fp2_mul_fp(l1, l1, &s->xp);
    fp2_mul_fp(l4, &h, &s->nyp);

    /* point */
    fp2_sub(&c, &b, &f);
    fp2_mul(&t->x, &a, &c);
    fp2_sqr(&e, &e);
    fp2_dbl(&c, &e);
    fp2_add(&e, &e, &c);          /* 3E^2 */
    fp2_sqr(&g, &g);
    fp2_sub(&t->y, &g, &e);
    fp2_mul(&t->z, &b, &h);
}

/*
 * T <- T + Q (Q affine) and the chord through T and Q evaluated at P:
 *   theta = Y - yQ Z, lambda = X - xQ Z  (slope theta / lambda),
 *   C = theta^2, D = lambda^2, E = lambda D, F = Z C, G = X D,
 *   H = E + F - 2G,  X' = lambda H,  Y' = theta (G - H) - E Y,  Z' = Z E.
 * Scaling the line by lambda: w^3 * line = -(theta xQ - lambda yQ)
 * + theta xP v - lambda yP v w (same overall sign as the doubling's):
 * l0 = lambda yQ - theta xQ, l1 = theta xP, l4 = -lambda yP.
 * T = +-Q never happens inside the loop for Q in G2 (T = kQ with
 * 1 < k < |x| < r). Cost: 11M + 2S + 4 Fp multiplications.
 */
static void pairing_add_step(fp2_t *l0, fp2_t *l1, fp2_t *l4, pairing_state_t *s)
{
    g2_proj_t *t = &s->t;
    fp2_t theta, lambda, c, d, e, f, g, h;

    fp2_mul(&theta, &s->yq, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &s->xq, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);

    /* line */
    fp2_mul(l0, &lambda, &s->yq);
    fp2_mul(&c, &theta, &s->xq);
    fp2_sub(l0, l0, &c);
    fp2_mul_fp(l1, &theta, &s->xp);
    fp2_mul_fp(l4, &lambda, &s->nyp);

    /* point */
    fp2_sqr(&c, &theta);
    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_mul(&f, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &f);
    fp2_sub(&h, &h, &g);
    fp2_sub(&h, &h, &g);
    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&g, &g, &h);
    fp2_mul(&g, &theta, &g);
    fp2_mul(&c, &e, &t->y);
    fp2_sub(&t->y, &g, &c);
    fp2_mul(&t->z, &t->z, &e);
}

/*
 * The Miller loop over up to PAIRING_CHUNK pairs with one f.
 * Why this shape: per bit of |x| below the top one, f <- f^2 once for all
 * pairs (the squaring is the costliest step, 12 Fp2 products), then each
 * pair's tangent line, then (bit set) each pair's chord, each line folded in
 * by the 13-product sparse multiply; T stays projective, so no inversion.
 * The first f^2 is skipped and the first line is f itself (f = 1 before).
 * Invariants: n >= 1 pairs, none at infinity; after the bits consumed so far
 * form k, s[i].t = k Q_i with Z != 0 (k < |x| < r, so T != +-Q in the chord
 * step); f is never 0.
 * Cost: 6625 Fp products and 23k Fp additions per one-pair loop, on the
 * inline branch-free Fp kernels and the lazily reduced Fp2 product
 * (ff_internal.h, ff/mont_adx.c: 3 half-products + 2 reductions), which
 * takes the largest share of the time (bench/README.md has the profile and
 * the timings; `grothmpi bench field` times the whole pairing).
 */
static void pairing_miller_chunk(fp12_t *out, pairing_state_t *s, size_t n)
{
    fp12_t f = FP12_ONE;
    fp2_t l0, l1, l4;

    for (int b = PAIRING_X_BITS - 2; b >= 0; b--) {
        bool first = b == PAIRING_X_BITS - 2;
        if (!first)
            fp12_sqr(&f, &f);
        for (size_t i = 0; i < n; i++) {
            pairing_dbl_step(&l0, &l1, &l4, &s[i]);
            if (first && i == 0) { /* 1 * line */
                f = (fp12_t){FP6_ZERO, FP6_ZERO};
                f.c0.c0 = l0;
                f.c0.c1 = l1;
                f.c1.c1 = l4;
            } else {
                fp12_mul_by_014(&f, &f, &l0, &l1, &l4);
            }
        }
        if ((PAIRING_X_ABS >> b) & 1) {
            for (size_t i = 0; i < n; i++) {
                pairing_add_step(&l0, &l1, &l4, &s[i]);
                fp12_mul_by_014(&f, &f, &l0, &l1, &l4);
            }
        }
    }
    /* x < 0 */
    fp12_conj(out, &f);
}

static void pairing_state_init(pairing_state_t *s, const g1_affine_t *p, const g2_affine_t *q)
{
    GM_VERIFY(g1_affine_on_curve(p) && g1_affine_in_subgroup(p));
    GM_VERIFY(g2_affine_on_curve(q) && g2_affine_in_subgroup(q));
    s->xp = p->x;
    fp_neg(&s->nyp, &p->y);
    s->xq = q->x;
    s->yq = q->y;
    s->t.x = q->x;
    s->t.y = q->y;
    s->t.z = FP2_ONE;
}

void pairing_miller_loop_n(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    pairing_state_t s[PAIRING_CHUNK];
    fp12_t acc = FP12_ONE, part;
    size_t k = 0;
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        if (p[i].inf || q[i].inf)
            continue;   /* e(O, Q) = e(P, O) = 1 */
        pairing_state_init(&s[k++], &p[i], &q[i]);
        if (k < PAIRING_CHUNK && i + 1 < n)
            continue;
        pairing_miller_chunk(&part, s, k);
        if (any)
            fp12_mul(&acc, &acc, &part);
        else
            acc = part;
        any = true;
        k = 0;
    }
    if (k > 0) { /* pairs left when the last inputs were identities */
        pairing_miller_chunk(&part, s, k);
        if (any)
            fp12_mul(&acc, &acc, &part);
        else
            acc = part;
    }
    *out = acc;
}

void pairing_miller_loop(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q)
{
    pairing_miller_loop_n(out, p, q, 1);
}

/* out = a^x for a in the cyclotomic subgroup (x < 0: a^|x|, then conj, the
 * inverse there). 63 cyclotomic squarings and 5 multiplications. */
static void pairing_cyc_exp_x(fp12_t *out, const fp12_t *a)
{
    fp12_t r = *a;
    for (int b = PAIRING_X_BITS - 2; b >= 0; b--) {
        fp12_cyclotomic_sqr(&r, &r);
        if ((PAIRING_X_ABS >> b) & 1)
            fp12_mul(&r, &r, a);
    }
    fp12_conj(out, &r);
}

/*
 * f^(3 (p^12 - 1) / r) = f^((p^6 - 1)(p^2 + 1) * 3 (p^4 - p^2 + 1) / r).
 * Easy part: m = conj(f) / f (the p^6 - 1), then m <- m^(p^2) m. m is then
 * cyclotomic (inverse = conj, cyclotomic squaring valid).
 * Hard part, the BLS12 decomposition (x - 1 divisible by 3 for BLS12):
 *   3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3
 *     = a3 p^3 + a2 p^2 + a1 p + a0 + 3  with  a3 = (x - 1)^2, a2 = a3 x,
 *       a1 = a3 (x^2 - 1), a0 = a3 (x^3 - x),
 * computed with five exponentiations by x and three Frobenius maps. Raising
 * to 3 (p^4 - p^2 + 1) / r instead of (p^4 - p^2 + 1) / r saves the division
 * of (x - 1)^2 by 3 in the chain; it is what blst and @noble/curves compute.
 */
/* Cost: 7757 Fp products and 32k Fp additions; the 315 cyclotomic squarings
 * (5 x 63) are 3 lazily reduced Fp4 squarings each (ff/mont_adx.c:
 * fp4_sqr_adx, 6 half-products + 4 reductions, as blst's sqr_fp4), about
 * half of this function. `grothmpi bench field` times the whole pairing
 * against blst; bench/README.md has the timings of this step. */
void pairing_final_exp(fp12_t *out, const fp12_t *f)
{
    fp12_t m, t, a, b, c, d;

    /* easy part */
    fp12_inv(&t, f);
    fp12_conj(&m, f);
    fp12_mul(&m, &m, &t);
    fp12_frobenius(&t, &m, 2);
    fp12_mul(&m, &m, &t);

    /* hard part */
    pairing_cyc_exp_x(&t, &m);
    fp12_conj(&a, &m);
    fp12_mul(&t, &t, &a);            /* m^(x - 1) */
    pairing_cyc_exp_x(&a, &t);
    fp12_conj(&t, &t);
    fp12_mul(&a, &a, &t);            /* a = m^((x - 1)^2) */
    pairing_cyc_exp_x(&b, &a);       /* b = a^x */
    pairing_cyc_exp_x(&c, &b);
    fp12_conj(&t, &a);
    fp12_mul(&c, &c, &t);            /* c = a^(x^2 - 1) */
    pairing_cyc_exp_x(&d, &c);       /* d = a^(x^3 - x) */

    fp12_cyclotomic_sqr(&t, &m);
    fp12_mul(&t, &t, &m);            /* m^3 */
    fp12_mul(&t, &t, &d);
    fp12_frobenius(&c, &c, 1);
    fp12_mul(&t, &t, &c);
    fp12_frobenius(&b, &b, 2);
    fp12_mul(&t, &t, &b);
    fp12_frobenius(&a, &a, 3);
    fp12_mul(out, &t, &a);
}

void pairing(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q)
{
    fp12_t f;
    pairing_miller_loop(&f, p, q);
    pairing_final_exp(out, &f);
}

bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t f;
    pairing_miller_loop_n(&f, p, q, n);
    pairing_final_exp(&f, &f);
    return fp12_is_one(&f);
}
