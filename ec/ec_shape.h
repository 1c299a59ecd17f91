/*
 * ec/ec_shape.h — the one shape of the point arithmetic and the encodings of a
 * short Weierstrass curve y^2 = x^3 + b (a = 0), written once and instantiated
 * twice: ec/g1.c over Fp and ec/g2.c over Fp2. A template, not a header: a .c
 * file defines the parameters below and includes it once; it defines static
 * functions under short names (jac_add, xyzz_add_affine, affine_from_bytes_
 * compressed, ...), and the .c file defines the public g1_* / g2_* functions
 * of ec/ec.h by name, each a one-line call of its static routine.
 *
 * Parameters (#define before the #include; all are #undef'd at the end):
 *   EC_PT            g1 | g2        prefix of the point types
 *   EC_FE            fp | fp2       prefix of the field functions (ff/ff.h)
 *   EC_FE_T          fp_t | fp2_t   the field element type
 *   EC_FE_ONE        FP_ONE | FP2_ONE
 *   EC_FE_BYTES      48 | 96        bytes of one encoded coordinate
 *   EC_ENDO_GROUP    m: the curve's endomorphism acts as z^m on the group
 *                    (z = |x| = 0xd201000000010000): G1 phi: m = 2, G2 psi: 1
 *   EC_ENDO_W        wNAF width of the endomorphism-split scalar multiply
 * and, before the include, in the .c file:
 *   curve_b                        an EC_FE_T lvalue: the constant b
 * The BLS12-381 parts (endomorphism, subgroup test, Zcash encodings) exist
 * only when EC_ENDO_GROUP is defined; they need what follows. BN254
 * (ec/bn_g1.c, ec/bn_g2.c) leaves EC_ENDO_GROUP, EC_ENDO_W, endo_step and
 * coord_* undefined and uses the rest (arithmetic, plain wNAF multiply).
 *   static void endo_step(affine_t *out, const affine_t *in);
 *        out = z^m * in for in in the prime-order subgroup (inf -> inf),
 *        computed with the endomorphism (a few field multiplications).
 *   static void coord_to_bytes(uint8_t out[EC_FE_BYTES], const fe_t *a);
 *   static int coord_from_bytes(fe_t *out, const uint8_t in[EC_FE_BYTES]);
 *        one coordinate, big-endian (Fp2: c1 first); from returns
 *        GM_ENONCANON for a value >= p, out untouched.
 *
 * Formulas (a = 0 throughout; "M" counts field multiplications or squarings):
 *   Jacobian double  dbl-2009-l, D = 4*X*Y^2 by a product     7M
 *   Jacobian add     add-1998-cmo-2 (no factors of 2)        16M
 *   mixed add        madd-2007-bl without the factors of 2   11M
 *   XYZZ add/madd/dbl add-2008-s, madd-2008-s, dbl-2008-s-1  14M / 10M / 9M
 * from the Explicit-Formulas Database (hyperelliptic.org/EFD/g1p/auto-shortw-*).
 * Multiplication counts equal blst's (dbl 2M+5S, add 11M+5S, madd 7M+4S):
 * squarings cost what multiplications do in ff/, so where a squaring trick
 * needs extra additions the plain product is used. `grothmpi bench field`
 * times dbl, add, mixed add and both scalar multiplications.
 */
#ifndef EC_PT
#error "ec_shape.h is a template: define EC_PT, EC_FE, ... and include it once from ec/g1.c or ec/g2.c"
#endif

#include <string.h>

#include "base/base.h"
#include "ec/ec_internal.h"

#define EC_CAT_(a, b) a##b
#define EC_CAT(a, b) EC_CAT_(a, b)
#define PT_(name) EC_CAT(EC_PT, name)
#define FE_(name) EC_CAT(EC_FE, name)

#define affine_t PT_(_affine_t)
#define jac_t PT_(_jac_t)
#define xyzz_t PT_(_xyzz_t)
#define fe_t EC_FE_T
#define fe_add FE_(_add)
#define fe_sub FE_(_sub)
#define fe_dbl FE_(_dbl)
#define fe_neg FE_(_neg)
#define fe_mul FE_(_mul)
#define fe_sqr FE_(_sqr)
#define fe_inv FE_(_inv)
#define fe_eq FE_(_eq)
#define fe_is_zero FE_(_is_zero)
#define fe_sqrt FE_(_sqrt)
#define fe_is_lex_largest FE_(_is_lex_largest)

/* Input checks of the GM_VERIFY build (ff/ff.h's range checks run inside);
 * the checks are defined below and used by routines above them. */
static bool affine_on_curve(const affine_t *p);
static bool jac_on_curve(const jac_t *p);
static bool xyzz_on_curve(const xyzz_t *p);
#define VERIFY_JAC(p) GM_VERIFY(jac_on_curve(p))
#define VERIFY_AFF(p) GM_VERIFY(affine_on_curve(p))
#define VERIFY_XYZZ(p) GM_VERIFY(xyzz_on_curve(p))

/* ---- identity, conversions, equality, curve membership ---------------------------------- */

static void jac_set_inf(jac_t *out) { memset(out, 0, sizeof *out); }
static void affine_set_inf(affine_t *out)
{
    memset(out, 0, sizeof *out);
    out->inf = true;
}
static bool jac_is_inf(const jac_t *p) { return fe_is_zero(&p->z); }

static void jac_from_affine(jac_t *out, const affine_t *p)
{
    VERIFY_AFF(p);
    if (p->inf) {
        jac_set_inf(out);
        return;
    }
    out->x = p->x;
    out->y = p->y;
    out->z = EC_FE_ONE;
}

/* y^2 == x^3 + b. */
static bool affine_on_curve(const affine_t *p)
{
    if (p->inf)
        return true;
    fe_t l, r;
    fe_sqr(&l, &p->y);
    fe_sqr(&r, &p->x);
    fe_mul(&r, &r, &p->x);
    fe_add(&r, &r, &curve_b);
    return fe_eq(&l, &r);
}

/* The first i < n whose p[i] is off the curve (the identity is on it), or
 * n: the scalar form of the lanes' G_x8_first_off_curve (add_x8_shape.h). */
static size_t affine_first_off_curve(const affine_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!affine_on_curve(&p[i]))
            return i;
    return n;
}

/* Y^2 == X^3 + b*Z^6; Z = 0 is the identity. */
static bool jac_on_curve(const jac_t *p)
{
    if (jac_is_inf(p))
        return true;
    fe_t l, r, z6;
    fe_sqr(&z6, &p->z);
    fe_mul(&z6, &z6, &p->z);
    fe_sqr(&z6, &z6);
    fe_mul(&z6, &z6, &curve_b);
    fe_sqr(&l, &p->y);
    fe_sqr(&r, &p->x);
    fe_mul(&r, &r, &p->x);
    fe_add(&r, &r, &z6);
    return fe_eq(&l, &r);
}

/* Y^2 == X^3 + b*ZZ^3 and ZZ^3 == ZZZ^2 (x = X/ZZ, y = Y/ZZZ); ZZ = 0 is the
 * identity. */
__attribute__((unused)) static bool xyzz_on_curve(const xyzz_t *p)
{
    if (fe_is_zero(&p->zz))
        return true;
    fe_t zz3, zzz2, l, r;
    fe_sqr(&zz3, &p->zz);
    fe_mul(&zz3, &zz3, &p->zz);
    fe_sqr(&zzz2, &p->zzz);
    if (!fe_eq(&zz3, &zzz2))
        return false;
    fe_mul(&zz3, &zz3, &curve_b);
    fe_sqr(&l, &p->y);
    fe_sqr(&r, &p->x);
    fe_mul(&r, &r, &p->x);
    fe_add(&r, &r, &zz3);
    return fe_eq(&l, &r);
}

static void jac_to_affine(affine_t *out, const jac_t *p)
{
    VERIFY_JAC(p);
    if (jac_is_inf(p)) {
        affine_set_inf(out);
        return;
    }
    fe_t zi, zi2;
    fe_inv(&zi, &p->z);
    fe_sqr(&zi2, &zi);
    fe_mul(&out->x, &p->x, &zi2);
    fe_mul(&zi2, &zi2, &zi);
    fe_mul(&out->y, &p->y, &zi2);
    out->inf = false;
}

/*
 * Montgomery's trick over the non-zero Z: scratch[i] holds the product of the
 * Z before i, one inversion of the whole product, then a backward walk peels
 * one factor per point. 3 multiplications per point for the trick plus 4 for
 * the coordinates; identities are skipped (they enter no product).
 */
static void jac_batch_to_affine(affine_t *out, const jac_t *p, size_t n, fe_t *scratch)
{
    fe_t acc = EC_FE_ONE, inv, zi, zi2;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!jac_is_inf(&p[i]))
            fe_mul(&acc, &acc, &p[i].z);
    }
    fe_inv(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (jac_is_inf(&p[i])) {
            affine_set_inf(&out[i]);
            continue;
        }
        fe_mul(&zi, &inv, &scratch[i]);      /* 1 / Z_i */
        fe_mul(&inv, &inv, &p[i].z);         /* 1 / (Z_0 ... Z_{i-1}) */
        fe_sqr(&zi2, &zi);
        fe_mul(&out[i].x, &p[i].x, &zi2);
        fe_mul(&zi2, &zi2, &zi);
        fe_mul(&out[i].y, &p[i].y, &zi2);
        out[i].inf = false;
    }
}

static bool affine_eq(const affine_t *a, const affine_t *b)
{
    if (a->inf || b->inf)
        return a->inf == b->inf;
    return fe_eq(&a->x, &b->x) && fe_eq(&a->y, &b->y);
}

/* X1*Z2^2 == X2*Z1^2 and Y1*Z2^3 == Y2*Z1^3. */
static bool jac_eq(const jac_t *a, const jac_t *b)
{
    bool ia = jac_is_inf(a), ib = jac_is_inf(b);
    if (ia || ib)
        return ia == ib;
    fe_t za2, zb2, l, r;
    fe_sqr(&za2, &a->z);
    fe_sqr(&zb2, &b->z);
    fe_mul(&l, &a->x, &zb2);
    fe_mul(&r, &b->x, &za2);
    if (!fe_eq(&l, &r))
        return false;
    fe_mul(&zb2, &zb2, &b->z);
    fe_mul(&za2, &za2, &a->z);
    fe_mul(&l, &a->y, &zb2);
    fe_mul(&r, &b->y, &za2);
    return fe_eq(&l, &r);
}

static void affine_neg(affine_t *out, const affine_t *p)
{
    out->x = p->x;
    fe_neg(&out->y, &p->y);      /* inf: y is zero and stays zero */
    out->inf = p->inf;
}

static void jac_neg(jac_t *out, const jac_t *p)
{
    out->x = p->x;
    fe_neg(&out->y, &p->y);
    out->z = p->z;
}

/* ---- Jacobian arithmetic ------------------------------------------------------------------- */

/*
 * dbl-2009-l, arranged for the fewest additions (field additions cost a third
 * of a multiplication here): with B2 = 2Y^2,
 *   A = X^2, C4 = B2^2 = 4Y^4, D = 2*X*B2 = 4XY^2, E = 3A,
 *   X3 = E^2 - 2D, Y3 = E*(D - X3) - 2*C4 = ... - 8Y^4, Z3 = 2*Y*Z.
 * 7M and 6 doublings/additions. The identity (Z = 0) gives Z3 = 0. There is
 * no 2-torsion (y = 0) on either curve over its field: both group orders are
 * odd.
 */
static void jac_dbl(jac_t *out, const jac_t *p)
{
    VERIFY_JAC(p);
    fe_t a, b2, c4, d, e, t;
    fe_sqr(&a, &p->x);
    fe_sqr(&b2, &p->y);
    fe_dbl(&b2, &b2);
    fe_sqr(&c4, &b2);
    fe_mul(&d, &p->x, &b2);
    fe_dbl(&d, &d);
    fe_dbl(&e, &a);
    fe_add(&e, &e, &a);
    fe_mul(&out->z, &p->y, &p->z);      /* p->y is read before out->y is written */
    fe_dbl(&out->z, &out->z);
    fe_sqr(&t, &e);
    fe_sub(&t, &t, &d);
    fe_sub(&out->x, &t, &d);
    fe_sub(&t, &d, &out->x);
    fe_mul(&t, &e, &t);
    fe_dbl(&c4, &c4);
    fe_sub(&out->y, &t, &c4);
}

/*
 * The tail every addition here shares (Jacobian add-1998-cmo-2, its mixed
 * form, XYZZ add-2008-s and madd-2008-s are one computation): given the first
 * point scaled to the common denominator (U1, S1), H = U2 - U1 != 0 and
 * R = S2 - S1,
 *   HH = H^2, HHH = H*HH, V = U1*HH,
 *   X3 = R^2 - HHH - 2V, Y3 = R*(V - X3) - S1*HHH,
 * and HH, HHH for the caller's new Z (Jacobian: Z1*Z2*H) or ZZ, ZZZ (XYZZ:
 * ZZ1*ZZ2*HH, ZZZ1*ZZZ2*HHH). x3, y3 must not alias u1, s1, h, r. 8M.
 */
static inline void add_tail(fe_t *x3, fe_t *y3, fe_t *hh, fe_t *hhh, const fe_t *u1, const fe_t *s1,
                            const fe_t *h, const fe_t *r)
{
    fe_t v, t;
    fe_sqr(hh, h);
    fe_mul(hhh, h, hh);
    fe_mul(&v, u1, hh);
    fe_sqr(x3, r);
    fe_sub(x3, x3, hhh);
    fe_sub(x3, x3, &v);
    fe_sub(x3, x3, &v);
    fe_mul(&t, s1, hhh);
    fe_sub(&v, &v, x3);
    fe_mul(&v, r, &v);
    fe_sub(y3, &v, &t);
}

static void jac_add(jac_t *out, const jac_t *p, const jac_t *q)
{
    VERIFY_JAC(p);
    VERIFY_JAC(q);
    if (jac_is_inf(p)) {
        *out = *q;
        return;
    }
    if (jac_is_inf(q)) {
        *out = *p;
        return;
    }
    fe_t z1z1, z2z2, u1, u2, s1, s2, h, r, z3, hh, hhh;
    fe_sqr(&z1z1, &p->z);
    fe_sqr(&z2z2, &q->z);
    fe_mul(&u1, &p->x, &z2z2);
    fe_mul(&u2, &q->x, &z1z1);
    fe_mul(&s1, &q->z, &z2z2);
    fe_mul(&s1, &p->y, &s1);
    fe_mul(&s2, &p->z, &z1z1);
    fe_mul(&s2, &q->y, &s2);
    fe_sub(&h, &u2, &u1);
    fe_sub(&r, &s2, &s1);
    if (fe_is_zero(&h)) {
        if (fe_is_zero(&r))
            jac_dbl(out, p);          /* P = Q */
        else
            jac_set_inf(out);         /* P = -Q */
        return;
    }
    fe_mul(&z3, &p->z, &q->z);
    fe_mul(&out->z, &z3, &h);
    add_tail(&out->x, &out->y, &hh, &hhh, &u1, &s1, &h, &r);
}

static void jac_add_mixed(jac_t *out, const jac_t *p, const affine_t *q)
{
    VERIFY_JAC(p);
    VERIFY_AFF(q);
    if (q->inf) {
        *out = *p;
        return;
    }
    if (jac_is_inf(p)) {
        jac_from_affine(out, q);
        return;
    }
    fe_t z1z1, u2, s2, h, r;
    fe_sqr(&z1z1, &p->z);
    fe_mul(&u2, &q->x, &z1z1);
    fe_mul(&s2, &p->z, &z1z1);
    fe_mul(&s2, &q->y, &s2);
    fe_sub(&h, &u2, &p->x);
    fe_sub(&r, &s2, &p->y);
    if (fe_is_zero(&h)) {
        if (fe_is_zero(&r))
            jac_dbl(out, p);
        else
            jac_set_inf(out);
        return;
    }
    fe_t u1 = p->x, s1 = p->y, hh, hhh;   /* out may alias p */
    fe_mul(&out->z, &p->z, &h);
    add_tail(&out->x, &out->y, &hh, &hhh, &u1, &s1, &h, &r);
}

/* ---- XYZZ arithmetic (the MSM's bucket accumulators) ------------------------------------ */

static void xyzz_set_inf(xyzz_t *out) { memset(out, 0, sizeof *out); }
static inline bool xyzz_is_inf(const xyzz_t *p) { return fe_is_zero(&p->zz); }

/*
 * dbl-2008-s-1 (a = 0) from the point (x, y) = (X/ZZ, Y/ZZZ):
 *   U = 2Y, V = U^2, W = U*V, S = X*V, M = 3X^2,
 *   X3 = M^2 - 2S, Y3 = M*(S - X3) - W*Y, ZZ3 = V*ZZ, ZZZ3 = W*ZZZ.
 * The identity (ZZ = 0) gives ZZ3 = 0.
 */
static void xyzz_dbl(xyzz_t *out, const xyzz_t *p)
{
    VERIFY_XYZZ(p);
    fe_t u, v, w, s, m, t;
    fe_dbl(&u, &p->y);
    fe_sqr(&v, &u);
    fe_mul(&w, &u, &v);
    fe_mul(&s, &p->x, &v);
    fe_sqr(&m, &p->x);
    fe_dbl(&t, &m);
    fe_add(&m, &m, &t);
    fe_mul(&out->zz, &v, &p->zz);
    fe_mul(&out->zzz, &w, &p->zzz);
    fe_mul(&w, &w, &p->y);
    fe_sqr(&t, &m);
    fe_sub(&t, &t, &s);
    fe_sub(&t, &t, &s);
    fe_sub(&s, &s, &t);
    fe_mul(&s, &m, &s);
    fe_sub(&out->y, &s, &w);
    out->x = t;
}

static void xyzz_add_affine(xyzz_t *out, const xyzz_t *p, const affine_t *q)
{
    VERIFY_XYZZ(p);
    VERIFY_AFF(q);
    if (q->inf) {
        *out = *p;
        return;
    }
    if (xyzz_is_inf(p)) {
        out->x = q->x;
        out->y = q->y;
        out->zz = EC_FE_ONE;
        out->zzz = EC_FE_ONE;
        return;
    }
    fe_t u2, s2, pd, r, pp, ppp;
    fe_mul(&u2, &q->x, &p->zz);
    fe_mul(&s2, &q->y, &p->zzz);
    fe_sub(&pd, &u2, &p->x);
    fe_sub(&r, &s2, &p->y);
    if (fe_is_zero(&pd)) {
        if (fe_is_zero(&r))
            xyzz_dbl(out, p);
        else
            xyzz_set_inf(out);
        return;
    }
    fe_t u1 = p->x, s1 = p->y;        /* out may alias p */
    add_tail(&out->x, &out->y, &pp, &ppp, &u1, &s1, &pd, &r);
    fe_mul(&out->zz, &p->zz, &pp);
    fe_mul(&out->zzz, &p->zzz, &ppp);
}

static void xyzz_add(xyzz_t *out, const xyzz_t *p, const xyzz_t *q)
{
    VERIFY_XYZZ(p);
    VERIFY_XYZZ(q);
    if (xyzz_is_inf(p)) {
        *out = *q;
        return;
    }
    if (xyzz_is_inf(q)) {
        *out = *p;
        return;
    }
    fe_t u1, u2, s1, s2, pd, r, pp, ppp, zz, zzz;
    fe_mul(&u1, &p->x, &q->zz);
    fe_mul(&u2, &q->x, &p->zz);
    fe_mul(&s1, &p->y, &q->zzz);
    fe_mul(&s2, &q->y, &p->zzz);
    fe_sub(&pd, &u2, &u1);
    fe_sub(&r, &s2, &s1);
    if (fe_is_zero(&pd)) {
        if (fe_is_zero(&r))
            xyzz_dbl(out, p);
        else
            xyzz_set_inf(out);
        return;
    }
    fe_mul(&zz, &p->zz, &q->zz);
    fe_mul(&zzz, &p->zzz, &q->zzz);
    add_tail(&out->x, &out->y, &pp, &ppp, &u1, &s1, &pd, &r);
    fe_mul(&out->zz, &zz, &pp);
    fe_mul(&out->zzz, &zzz, &ppp);
}

/* (x, y) = (X/ZZ, Y/ZZZ) as Jacobian with Z = ZZ: X' = X*ZZ, Y' = Y*ZZZ
 * (x*ZZ^2 = X*ZZ; y*ZZ^3 = Y*ZZZ^2/ZZZ = Y*ZZZ since ZZ^3 = ZZZ^2). */
static void xyzz_to_jac(jac_t *out, const xyzz_t *p)
{
    VERIFY_XYZZ(p);
    if (xyzz_is_inf(p)) {
        jac_set_inf(out);
        return;
    }
    fe_t zz = p->zz;
    fe_mul(&out->x, &p->x, &zz);
    fe_mul(&out->y, &p->y, &p->zzz);
    out->z = zz;
}

/* ---- scalar multiplication --------------------------------------------------------------- */

#ifdef EC_ENDO_GROUP
/* out = z * p (z = |x|), double-and-add over the 6 set bits of z: 63
 * doublings and 5 additions. */
static void jac_mul_z(jac_t *out, const jac_t *p)
{
    jac_t acc = *p, base = *p;
    for (int i = 62; i >= 0; i--) {
        jac_dbl(&acc, &acc);
        if ((EC_BLS_Z >> i) & 1)
            jac_add(&acc, &acc, &base);
    }
    *out = acc;
}

#endif /* EC_ENDO_GROUP */

/* tab[i] = (2i + 1) * p for i < n (affine), with one inversion. tmp and
 * scratch hold n elements each. */
static void odd_multiples(affine_t *tab, const jac_t *p, size_t n, jac_t *tmp, fe_t *scratch)
{
    jac_t d;
    tmp[0] = *p;
    jac_dbl(&d, p);
    for (size_t i = 1; i < n; i++)
        jac_add(&tmp[i], &tmp[i - 1], &d);
    jac_batch_to_affine(tab, tmp, n, scratch);
}

/*
 * Straus' interleaving: out = sum_j sum_i naf[j][i] * 2^i * B_j, where the
 * odd multiples of B_j are tab[j*tsize .. j*tsize + tsize).
 * Why this shape: one doubling chain serves every base, so the endomorphism
 * split (G1: 2 bases of 128 bits, G2: 4 of 64) cuts the doublings by 2 resp.
 * 4; the tables are affine, so each non-zero digit costs a mixed addition
 * (11M) instead of a full one (16M), for one inversion in odd_multiples.
 * Invariants: every digit is 0 or odd with |d| < 2*tsize (ec_wnaf), so the
 * index (|d| - 1) / 2 < tsize; acc stays the identity until the first digit
 * (dbl and add_mixed handle it); no allocation, tables on the stack.
 * Nearly all of the time is in the field (bench/README.md has the perf
 * profile); `grothmpi bench field` times g1_mul and g2_mul against blst.
 */
static void straus(jac_t *out, const affine_t *tab, size_t tsize,
                   const int8_t (*naf)[EC_WNAF_MAX], size_t nbases, size_t len)
{
    jac_t acc;
    affine_t neg;
    jac_set_inf(&acc);
    for (size_t i = len; i-- > 0;) {
        jac_dbl(&acc, &acc);
        for (size_t j = 0; j < nbases; j++) {
            int d = naf[j][i];
            if (d > 0) {
                jac_add_mixed(&acc, &acc, &tab[j * tsize + (size_t)(d - 1) / 2]);
            } else if (d < 0) {
                affine_neg(&neg, &tab[j * tsize + (size_t)(-d - 1) / 2]);
                jac_add_mixed(&acc, &acc, &neg);
            }
        }
    }
    *out = acc;
}

/* Plain wNAF, no endomorphism: any point on the curve, any 256-bit k. */
#define EC_PLAIN_W 5
static void jac_mul_plain(jac_t *out, const jac_t *p, const uint64_t k[4])
{
    VERIFY_JAC(p);
    enum { T = 1 << (EC_PLAIN_W - 2) };
    int8_t naf[1][EC_WNAF_MAX];
    affine_t tab[T];
    jac_t tmp[T];
    fe_t scratch[T];
    size_t len = ec_wnaf(naf[0], k, 4, EC_PLAIN_W);
    if (len == 0 || jac_is_inf(p)) {
        jac_set_inf(out);
        return;
    }
    odd_multiples(tab, p, T, tmp, scratch);
    straus(out, tab, T, naf, 1, len);
}

#ifdef EC_ENDO_GROUP
/*
 * Endomorphism-split multiplication for p in the prime-order subgroup.
 * k mod r < r < z^4 has four digits e_0..e_3 in base z. Grouped m at a time
 * they give n = 4/m digits d_j = sum_t e_{jm+t} z^t < z^m, and
 *   k*p = sum_j d_j * (z^{mj} p),   z^{mj} p = endo_step^j(p),
 * so one chain of 64m doublings serves n bases whose tables come from the
 * first by endo_step (a few multiplications per entry, no inversion).
 * G1 (m = 2): 2 digits of <= 128 bits; G2 (m = 1): 4 digits of 64 bits.
 */
#define EC_ENDO_N (4 / EC_ENDO_GROUP)
static void jac_mul_endo(jac_t *out, const jac_t *p, const uint64_t k[4])
{
    enum { T = 1 << (EC_ENDO_W - 2) };
    uint64_t kr[4], e[4];
    int8_t naf[EC_ENDO_N][EC_WNAF_MAX];
    affine_t tab[EC_ENDO_N * T];
    jac_t tmp[T];
    fe_t scratch[T];
    size_t len = 0;

    VERIFY_JAC(p);
    if (jac_is_inf(p)) {
        jac_set_inf(out);
        return;
    }
    ec_scalar_mod_r(kr, k);
    for (int i = 0; i < 4; i++)
        e[i] = ec_u256_divrem_u64(kr, kr, EC_BLS_Z);
    GM_ASSERT((kr[0] | kr[1] | kr[2] | kr[3]) == 0);   /* k mod r < z^4 */
    for (int j = 0; j < EC_ENDO_N; j++) {
        unsigned __int128 v = 0;
        for (int t = EC_ENDO_GROUP - 1; t >= 0; t--)
            v = v * EC_BLS_Z + e[j * EC_ENDO_GROUP + t];     /* < z^m <= 2^128 */
        uint64_t d[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
        size_t l = ec_wnaf(naf[j], d, 2, EC_ENDO_W);
        if (l > len)
            len = l;
    }
    if (len == 0) {
        jac_set_inf(out);
        return;
    }
    odd_multiples(tab, p, T, tmp, scratch);
    for (size_t i = T; i < EC_ENDO_N * T; i++)
        endo_step(&tab[i], &tab[i - T]);
    straus(out, tab, T, naf, EC_ENDO_N, len);
}

static void jac_mul_fr(jac_t *out, const jac_t *p, const fr_t *k)
{
    uint64_t l[4];
    fr_to_limbs(l, k);
    jac_mul_endo(out, p, l);
}

/* endo_step(p) == z^m * p (Scott, "A note on group membership tests for G1,
 * G2 and GT on BLS pairing-friendly curves", 2021: for BLS12-381 this holds
 * exactly on the prime-order subgroup). z^m p costs 63m doublings. */
static bool affine_in_subgroup(const affine_t *p)
{
    VERIFY_AFF(p);
    if (p->inf)
        return true;
    jac_t zp, ep;
    affine_t e;
    jac_from_affine(&zp, p);
    for (int i = 0; i < EC_ENDO_GROUP; i++)
        jac_mul_z(&zp, &zp);
    endo_step(&e, p);
    jac_from_affine(&ep, &e);
    return jac_eq(&zp, &ep);
}

/* ---- encodings (Zcash / blst / bellperson) ----------------------------------------------- */

/*
 * A point is its big-endian x (then y when uncompressed). The top three bits
 * of the first byte are flags: 0x80 compressed, 0x40 infinity, 0x20 sign
 * (compressed only: y is the lexicographically larger of y and -y, see
 * fp_is_lex_largest / fp2_is_lex_largest). The identity is 0xc0 00..00
 * compressed and 0x40 00..00 uncompressed; any other byte string with the
 * infinity bit is rejected. Decoding checks in a fixed order (flags, canonical
 * coordinates, square root / curve equation, subgroup) so that each failure
 * has one code (ec/ec.h lists them).
 */
#define FLAG_COMPRESSED 0x80
#define FLAG_INF 0x40
#define FLAG_SIGN 0x20
#define FLAG_MASK 0xe0

/* True when the n bytes of in are zero but for the flag bits of in[0]. */
static bool body_is_zero(const uint8_t *in, size_t n)
{
    uint8_t acc = in[0] & (uint8_t)~FLAG_MASK;
    for (size_t i = 1; i < n; i++)
        acc |= in[i];
    return acc == 0;
}

static void affine_to_bytes_compressed(uint8_t out[EC_FE_BYTES], const affine_t *p)
{
    if (p->inf) {
        memset(out, 0, EC_FE_BYTES);
        out[0] = FLAG_COMPRESSED | FLAG_INF;
        return;
    }
    coord_to_bytes(out, &p->x);
    out[0] |= FLAG_COMPRESSED | (fe_is_lex_largest(&p->y) ? FLAG_SIGN : 0);
}

static void affine_to_bytes_uncompressed(uint8_t out[2 * EC_FE_BYTES], const affine_t *p)
{
    if (p->inf) {
        memset(out, 0, 2 * EC_FE_BYTES);
        out[0] = FLAG_INF;
        return;
    }
    coord_to_bytes(out, &p->x);
    coord_to_bytes(out + EC_FE_BYTES, &p->y);
}

static int affine_from_bytes_compressed(affine_t *out, const uint8_t in[EC_FE_BYTES])
{
    uint8_t flags = in[0] & FLAG_MASK, buf[EC_FE_BYTES];
    if (!(flags & FLAG_COMPRESSED))
        return GM_EFLAGS;
    if (flags & FLAG_INF) {
        if ((flags & FLAG_SIGN) || !body_is_zero(in, EC_FE_BYTES))
            return GM_EFLAGS;
        affine_set_inf(out);
        return GM_OK;
    }
    memcpy(buf, in, EC_FE_BYTES);
    buf[0] &= (uint8_t)~FLAG_MASK;
    affine_t p = {.inf = false};
    int rc = coord_from_bytes(&p.x, buf);
    if (rc != GM_OK)
        return rc;
    fe_t rhs;
    fe_sqr(&rhs, &p.x);
    fe_mul(&rhs, &rhs, &p.x);
    fe_add(&rhs, &rhs, &curve_b);
    if (!fe_sqrt(&p.y, &rhs))
        return GM_ENOSQRT;
    if (fe_is_lex_largest(&p.y) != ((flags & FLAG_SIGN) != 0))
        fe_neg(&p.y, &p.y);
    if (!affine_in_subgroup(&p))
        return GM_ESUBGROUP;
    *out = p;
    return GM_OK;
}

static int affine_from_bytes_uncompressed(affine_t *out, const uint8_t in[2 * EC_FE_BYTES],
                                          bool check_subgroup)
{
    uint8_t flags = in[0] & FLAG_MASK;
    if (flags & (FLAG_COMPRESSED | FLAG_SIGN))
        return GM_EFLAGS;
    if (flags & FLAG_INF) {
        if (!body_is_zero(in, 2 * EC_FE_BYTES))
            return GM_EFLAGS;
        affine_set_inf(out);
        return GM_OK;
    }
    affine_t p = {.inf = false};      /* no flag is set: in[0] is x's top byte */
    int rc = coord_from_bytes(&p.x, in);
    if (rc == GM_OK)
        rc = coord_from_bytes(&p.y, in + EC_FE_BYTES);
    if (rc != GM_OK)
        return rc;
    if (!affine_on_curve(&p))
        return GM_ENOTONCURVE;
    if (check_subgroup && !affine_in_subgroup(&p))
        return GM_ESUBGROUP;
    *out = p;
    return GM_OK;
}

#undef FLAG_COMPRESSED
#undef FLAG_INF
#undef FLAG_SIGN
#undef FLAG_MASK
#endif /* EC_ENDO_GROUP */

#undef VERIFY_JAC
#undef VERIFY_AFF
#undef VERIFY_XYZZ
#undef EC_ENDO_N
#undef EC_PLAIN_W
#undef affine_t
#undef jac_t
#undef xyzz_t
#undef fe_t
#undef fe_add
#undef fe_sub
#undef fe_dbl
#undef fe_neg
#undef fe_mul
#undef fe_sqr
#undef fe_inv
#undef fe_eq
#undef fe_is_zero
#undef fe_sqrt
#undef fe_is_lex_largest
#undef PT_
#undef FE_
#undef EC_CAT
#undef EC_CAT_
#undef EC_PT
#undef EC_FE
#undef EC_FE_T
#undef EC_FE_ONE
#undef EC_FE_BYTES
#undef EC_ENDO_GROUP
#undef EC_ENDO_W
