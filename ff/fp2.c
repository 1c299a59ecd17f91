/*
 * fp2.c — the quadratic extension Fp2 = Fp[u]/(u^2 + 1), elements c0 + c1*u.
 * The hot operations (add, sub, mul, sqr, ...) use the inline, branch-free Fp
 * kernels of ff_internal.h (ffp_*), whose ffp_mul dispatches on the kernel
 * path (portable, ADX); the rest is written on the public Fp calls.
 *
 * Costs in Fp multiplications (M) and squarings (S): mul 3M (Karatsuba),
 * sqr 2M (complex squaring), inv 2S + 2M + one Fp inversion, sqrt via the
 * norm: two or three Fp square roots and one Fp inversion.
 */
#include "ff/ff_internal.h"

const fp2_t FP2_ZERO = {{{0}}, {{0}}};
const fp2_t FP2_ONE = {
    {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
    {{0}},
};

#ifdef GM_VERIFY_ON
/* 2p, plain limbs: the bound of the lazy (unreduced) Fp values of ff_internal.h. */
static const uint64_t FP_2P[6] = {
    FFP_P0 << 1,                 (FFP_P1 << 1) | (FFP_P0 >> 63), (FFP_P2 << 1) | (FFP_P1 >> 63),
    (FFP_P3 << 1) | (FFP_P2 >> 63), (FFP_P4 << 1) | (FFP_P3 >> 63), (FFP_P5 << 1) | (FFP_P4 >> 63),
};
#endif

void fp_mul_lazy_portable(fp_t *out, const fp_t *a, const fp_t *b)
{
    GM_VERIFY(mont_lt(a->l, FP_2P, 6) && mont_lt(b->l, FP_2P, 6));
    mont_mul(out->l, a->l, b->l, FP_MODULUS, 0x89f3fffcfffcfffdULL, 6);
    FF_VERIFY_REDUCED(FP_MODULUS, 6, out);
}

bool fp2_is_zero(const fp2_t *a) { return fp_is_zero(&a->c0) && fp_is_zero(&a->c1); }
bool fp2_is_one(const fp2_t *a) { return fp_is_one(&a->c0) && fp_is_zero(&a->c1); }

bool fp2_eq(const fp2_t *a, const fp2_t *b)
{
    return fp_eq(&a->c0, &b->c0) && fp_eq(&a->c1, &b->c1);
}

void fp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    ffp_add(&out->c0, &a->c0, &b->c0);
    ffp_add(&out->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    ffp_sub(&out->c0, &a->c0, &b->c0);
    ffp_sub(&out->c1, &a->c1, &b->c1);
}

void fp2_neg(fp2_t *out, const fp2_t *a)
{
    ffp_neg(&out->c0, &a->c0);
    ffp_neg(&out->c1, &a->c1);
}

void fp2_dbl(fp2_t *out, const fp2_t *a)
{
    ffp_dbl(&out->c0, &a->c0);
    ffp_dbl(&out->c1, &a->c1);
}

void fp2_conj(fp2_t *out, const fp2_t *a)
{
    out->c0 = a->c0;
    ffp_neg(&out->c1, &a->c1);
}

void fp2_frobenius(fp2_t *out, const fp2_t *a) { fp2_conj(out, a); }

/* Karatsuba, 3 Fp products; complex squaring, 2 (ff_internal.h: ffp2_mul,
 * ffp2_sqr; the ADX path runs them with the Fp kernel inlined, mont_adx.c). */
void fp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    ffp2_mul(out, a, b);
    FF_VERIFY_REDUCED(FP_MODULUS, 6, &out->c0);
    FF_VERIFY_REDUCED(FP_MODULUS, 6, &out->c1);
}

void fp2_sqr(fp2_t *out, const fp2_t *a)
{
    ffp2_sqr(out, a);
    FF_VERIFY_REDUCED(FP_MODULUS, 6, &out->c0);
    FF_VERIFY_REDUCED(FP_MODULUS, 6, &out->c1);
}

void fp2_mul_fp(fp2_t *out, const fp2_t *a, const fp_t *b)
{
    ffp_mul(&out->c0, &a->c0, b);
    ffp_mul(&out->c1, &a->c1, b);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u. */
void fp2_mul_nonresidue(fp2_t *out, const fp2_t *a)
{
    fp_t t;
    ffp_sub(&t, &a->c0, &a->c1);
    ffp_add(&out->c1, &a->c0, &a->c1);
    out->c0 = t;
}

/* The norm a0^2 + a1^2 = a * conj(a), in Fp. */
static void fp2_norm(fp_t *out, const fp2_t *a)
{
    fp_t t;
    fp_sqr(&t, &a->c1);
    fp_sqr(out, &a->c0);
    fp_add(out, out, &t);
}

/* 1 / a = conj(a) / norm(a); norm(0) = 0 and fp_inv(0) = 0 give 0. */
void fp2_inv(fp2_t *out, const fp2_t *a)
{
    fp_t n;
    fp2_norm(&n, a);
    fp_inv(&n, &n);
    fp_mul(&out->c0, &a->c0, &n);
    fp_mul(&n, &a->c1, &n);
    fp_neg(&out->c1, &n);
}

FF_DEFINE_BATCH_INV(fp2, fp2_t, FP2_ONE, FP2_ZERO)
FF_DEFINE_POW(fp2, fp2_t, FP2_ONE)

void fp2_batch_inv(fp2_t *out, const fp2_t *a, size_t n, fp2_t *scratch)
{
    fp2_batch_inv_impl(out, a, n, scratch);
}
void fp2_pow(fp2_t *out, const fp2_t *a, const uint64_t *e, size_t nlimbs)
{
    fp2_pow_impl(out, a, e, nlimbs);
}

/* a is a square in Fp2 exactly when its norm is a square in Fp. */
int fp2_legendre(const fp2_t *a)
{
    fp_t n;
    fp2_norm(&n, a);
    return fp_legendre(&n);
}

/*
 * Square root through the norm (p = 3 mod 4, so -1 is not a square in Fp).
 * For a1 = 0: a0 or -a0 is a square in Fp, giving sqrt(a0) or sqrt(-a0)*u.
 * Otherwise, with t = sqrt(a0^2 + a1^2) (no t: a is not a square), the root
 * is x0 + x1 u with x0^2 = (a0 +- t)/2 and x1 = a1 / (2 x0). The two
 * candidates multiply to -a1^2/4, a non-square, so exactly one of them is a
 * square, and x0 != 0.
 */
bool fp2_sqrt(fp2_t *out, const fp2_t *a)
{
    fp2_t r;
    if (fp_is_zero(&a->c1)) {
        fp_t na;
        if (fp_sqrt(&r.c0, &a->c0)) {
            r.c1 = FP_ZERO_ELEM;
        } else {
            fp_neg(&na, &a->c0);
            if (!fp_sqrt(&r.c1, &na))
                return false;       /* unreachable: one of a0, -a0 is a square */
            r.c0 = FP_ZERO_ELEM;
        }
        *out = r;
        return true;
    }
    fp_t n, t, d, x0, den;
    fp2_norm(&n, a);
    if (!fp_sqrt(&t, &n))
        return false;
    fp_add(&d, &a->c0, &t);
    fp_half(&d, &d);
    if (!fp_sqrt(&x0, &d)) {
        fp_sub(&d, &a->c0, &t);
        fp_half(&d, &d);
        if (!fp_sqrt(&x0, &d))
            return false;           /* unreachable, see above */
    }
    fp_dbl(&den, &x0);
    fp_inv(&den, &den);
    fp_mul(&r.c1, &a->c1, &den);
    r.c0 = x0;
#ifdef GM_VERIFY_ON
    fp2_t chk;
    fp2_sqr(&chk, &r);
    GM_VERIFY(fp2_eq(&chk, a));
#endif
    *out = r;
    return true;
}

bool fp2_is_lex_largest(const fp2_t *a)
{
    if (!fp_is_zero(&a->c1))
        return fp_is_lex_largest(&a->c1);
    return fp_is_lex_largest(&a->c0);
}
