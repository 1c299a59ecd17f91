/*
 * ec/add_x8_shape.h — batch-affine point additions on 8 lanes (AVX-512
 * IFMA), the part that depends neither on the curve nor on the group: a
 * template, not a header. A .c file writes the field of its coordinates on
 * lanes, defines the parameters below and includes it once (ec/g1_x8.c:
 * BLS12-381's G1, Fp in 8 limbs of 48 bits, ec/fp_x8.h; ec/g2_x8.c: its
 * G2, Fp2 as two of those, ec/fp2_x8_shape.h; ec/bn_g1_x8.c: BN254's G1,
 * Fp in 5 limbs of 52 bits, ec/bn_fp_x8.h; ec/bn_g2_x8.c: BN254's G2);
 * it defines the exported kernels of ec/ec.h under the instance's prefix.
 *
 * Parameters (#define before the #include):
 *   X8_V          the lane type: struct { __m512i l[X8_NL]; }, every value
 *                 that leaves a lane helper reduced (< p) and normalised
 *   X8_NL         its limb count (Fp2: both halves' limbs, one array)
 *   X8_FE         fp | fp2 | bn_fp | bn_fp2: prefix of the coordinates' field
 *                 type and of mul, sqr, add, inv, is_zero (ff/ff.h)
 *   X8_FE_ONE, X8_FE_ZERO   1 and 0 in that field
 *   X8_AFF        g1_affine_t | g2_affine_t | bn_g1_affine_t | bn_g2_affine_t
 *   X8_NAME       g1_x8 | g2_x8 | bn_g1_x8 | bn_g2_x8: prefix of the
 *                 exported functions
 *   X8_XY_BY_GATHERS   defined: the shape writes load_xy and store_xy
 *                 itself, each coordinate by gather / scatter at its offset
 *                 in X8_AFF (BLS12-381: a coordinate is 6 or 12 words, not
 *                 a row of 8); undefined: the instance writes them
 * and the lane helpers, FF_X8_INLINE, by these names:
 *   mont(o, a, b)     o = a b / R, reduced; a, b < 2p; o may alias a or b
 *   mont2p(o, a, b)   the same, or only < 2p (for a factor of a product)
 *   msqr(o, a)        o = a a / R, reduced
 *   reduce_once(x)    [0, 2p) -> [0, p)
 *   vsub(o, a, b)     o = a - b mod p
 *   gather(o, addr, k, fill)   lane b = the field element at address lane b
 *                     of addr, lanes outside k the value *fill
 *   scatter(addr, k, v)        its inverse, into the lanes of k only
 *   load_xy(x, y, p, k)        lane b = the coordinates of the point *p[b]
 *                     (p: 8 pointers to X8_AFF), lanes outside k 0 (p[b]
 *                     not read there); the shape's own with X8_XY_BY_GATHERS
 *   store_xy(p, k, x, y)       its inverse, into the lanes of k only (inf
 *                     left alone); the same
 * (R is the library's Montgomery R, so no domain changes at either end.)
 *
 * The batch is the trick of ec/msm_shape.h's batch_run, 8 entries per
 * vector: the bucket's and the point's coordinates read into lanes
 * (load_xy), den = x2 - x1 and num = +-y2 - y1 in lanes (the rare equal x, a
 * doubling or P + (-P), fixed up per lane), and every lambda = num / den
 * with one shared inversion. Forward, two chains of running products
 * (blocks alternate between them, so two independent products are in
 * flight); the 16 lane products inverted by a product tree across the
 * lanes and one scalar inversion (invert16); backward, 1 / den
 * per entry; then lambda, x3 = lambda^2 - x1 - x2 and y3 = lambda (x1 - x3)
 * - y1 from the coordinates kept in scratch, written back to the buckets
 * (store_xy). Six 8-lane products per 8 additions.
 *
 * The same lanes check decoded points against the curve equation, 8 at a
 * time (_first_off_curve: a zkey's sections hold 10^5 .. 10^7 points, and
 * the scalar check was a tenth of a small proof).
 *
 * Only the functions marked FF_X8 use AVX-512; callers run them only after
 * fr_x8_enabled() said yes (a CPU without IFMA would fault on them).
 */
#ifndef X8_NAME
#error "add_x8_shape.h is a template: define X8_V, X8_NAME, ... and include it once"
#endif

#define X8_CAT_(a, b) a##b
#define X8_CAT(a, b) X8_CAT_(a, b)
#define FE_(name) X8_CAT(X8_FE, name)
#define X8_(name) X8_CAT(X8_NAME, name)
#define fe_t FE_(_t)

/* Addresses of x[0 .. 7]. */
FF_X8_INLINE __m512i fe_addrs(const fe_t *x)
{
    const long long z = sizeof(fe_t);
    const __m512i off = _mm512_setr_epi64(0, z, 2 * z, 3 * z, 4 * z, 5 * z, 6 * z, 7 * z);
    return _mm512_add_epi64(bc((uint64_t)(uintptr_t)x), off);
}

/* Between 8 field elements in memory and the lanes. */
FF_X8_INLINE void fe_to_v(X8_V *o, const fe_t in[8]) { gather(o, fe_addrs(in), 0xff, &X8_FE_ZERO); }
FF_X8_INLINE void v_to_fe(fe_t out[8], const X8_V *v) { scatter(fe_addrs(out), 0xff, v); }

#ifdef X8_XY_BY_GATHERS
/* Lane b = the coordinates of *p[b], by address (p: 8 pointers, read only
 * in the lanes of k); lanes outside k 0. */
FF_X8_INLINE void load_xy(X8_V *x, X8_V *y, const X8_AFF *const *p, __mmask8 k)
{
    __m512i a = _mm512_maskz_loadu_epi64(k, p);
    gather(x, _mm512_add_epi64(a, bc(offsetof(X8_AFF, x))), k, &X8_FE_ZERO);
    gather(y, _mm512_add_epi64(a, bc(offsetof(X8_AFF, y))), k, &X8_FE_ZERO);
}

/* The inverse of load_xy, into the lanes of k only (inf left alone). */
FF_X8_INLINE void store_xy(X8_AFF *const *p, __mmask8 k, const X8_V *x, const X8_V *y)
{
    __m512i a = _mm512_maskz_loadu_epi64(k, p);
    scatter(_mm512_add_epi64(a, bc(offsetof(X8_AFF, x))), k, x);
    scatter(_mm512_add_epi64(a, bc(offsetof(X8_AFF, y))), k, y);
}
#endif

/* Lanes of block b that hold one of the n entries. */
FF_X8_INLINE __mmask8 block_mask(size_t n, size_t b)
{
    size_t left = n - 8 * b;
    return left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
}

/* Lanes of x that are 0. */
FF_X8_INLINE __mmask8 v_zero(const X8_V *x)
{
    __m512i o = x->l[0];
    for (int i = 1; i < X8_NL; i++)
        o = _mm512_or_si512(o, x->l[i]);
    return _mm512_cmpeq_epi64_mask(o, _mm512_setzero_si512());
}

/* Scratch per block of 8: the running product (then 1 / den), den, num,
 * x1, y1, x2; after the S_N vectors of every block, a byte per block. */
enum { S_PRE, S_DEN, S_NUM, S_X1, S_Y1, S_X2, S_N };

/* ---- the exported kernels (ec.h) -------------------------------------- */

size_t X8_(_scratch_size)(size_t n) { return (n + 7) / 8 * (S_N * sizeof(X8_V) + 1) + 64; }

FF_X8 void X8_(_fp_ops)(fe_t mul[8], fe_t sqr[8], fe_t sub[8], const fe_t a[8], const fe_t b[8])
{
    X8_V x, y, o;
    fe_to_v(&x, a);
    fe_to_v(&y, b);
    mont(&o, &x, &y);
    v_to_fe(mul, &o);
    msqr(&o, &x);
    v_to_fe(sqr, &o);
    vsub(&o, &x, &y);
    v_to_fe(sub, &o);
}

FF_X8 void X8_(_fp_mul_chain)(fe_t x[8], const fe_t y[8], size_t reps)
{
    X8_V a, b, c;
    fe_to_v(&a, x);
    fe_to_v(&c, y);
    b = c;
    for (size_t i = 0; i < reps; i++) {
        mont(&a, &a, &c);
        mont(&b, &b, &c);
    }
    mont(&a, &a, &b);
    v_to_fe(x, &a);
}

/* o = a with its lanes permuted: lane l of o = lane idx[l] of a. */
FF_X8_INLINE void v_perm(X8_V *o, const X8_V *a, __m512i idx)
{
    for (int i = 0; i < X8_NL; i++)
        o->l[i] = _mm512_permutexvar_epi64(idx, a->l[i]);
}

/* Lane l of inv[c] = 1 / lane l of acc[c], for the 16 lanes of the two
 * chains (reduced, none 0): one scalar inversion and 9 lane products. A
 * product tree across the lanes: p = acc[0] acc[1], then the products of
 * lane pairs, quads and all eight (each lane times its partner, found by a
 * permutation), the total inverted once, and back down the tree (1 / a quad
 * = 1 / the total times the other quad, and so on to 1 / p), then 1 /
 * acc[0] = acc[1] / p and 1 / acc[1] = acc[0] / p. Why: the scalar form of
 * the same trick took 45 field products, a tenth of a bn128 poseidon
 * proof's CPU with the inversion (bench/README.md). */
FF_X8 static void invert16(X8_V inv[2], const X8_V acc[2])
{
    const __m512i s1 = _mm512_setr_epi64(1, 0, 3, 2, 5, 4, 7, 6), s2 = _mm512_setr_epi64(2, 3, 0, 1, 6, 7, 4, 5),
                  s4 = _mm512_setr_epi64(4, 5, 6, 7, 0, 1, 2, 3);
    X8_V p, q1, q2, t, u;
    mont(&p, &acc[0], &acc[1]);
    v_perm(&t, &p, s1);
    mont(&q1, &p, &t); /* lane l: p_l p_(l^1) */
    v_perm(&t, &q1, s2);
    mont(&q2, &q1, &t); /* the product of lane l's quad */
    v_perm(&u, &q2, s4);
    mont(&t, &q2, &u); /* the product of all 16, in every lane */
    fe_t all[8], ti;
    v_to_fe(all, &t);
    FE_(_inv)(&ti, &all[0]);
    gather(&t, _mm512_setzero_si512(), 0, &ti); /* no lane read: ti in every lane */
    mont(&t, &t, &u); /* 1 / q2 */
    v_perm(&u, &q1, s2);
    mont(&t, &t, &u); /* 1 / q1 */
    v_perm(&u, &p, s1);
    mont(&t, &t, &u); /* 1 / p */
    mont(&inv[0], &t, &acc[1]);
    mont(&inv[1], &t, &acc[0]);
}

/* The lanes z of block acc[0 .. 7] where x1 = x2 (den = 0): with y2 = y1
 * (num = 0) a doubling, the tangent 3 x1^2 / 2 y1 (y1 != 0: G1 has no
 * 2-torsion on either curve); otherwise P + (-P): the bucket becomes the
 * identity (inf, its coordinates left as they are) and the lane leaves
 * *keep, with den = 1 so that the running products stay invertible. Rare:
 * equal points or scalars only. */
FF_X8_INLINE void equal_x(X8_V *den, X8_V *num, __mmask8 z, X8_AFF *const *acc, __mmask8 *keep)
{
    fe_t d[8], q[8];
    v_to_fe(d, den);
    v_to_fe(q, num);
    for (int l = 0; l < 8; l++) {
        if (!((z >> l) & 1))
            continue;
        X8_AFF *p = acc[l];
        if (FE_(_is_zero)(&q[l])) {
            fe_t t;
            FE_(_add)(&d[l], &p->y, &p->y);
            FE_(_sqr)(&t, &p->x);
            FE_(_add)(&q[l], &t, &t);
            FE_(_add)(&q[l], &q[l], &t);
        } else {
            d[l] = X8_FE_ONE;
            q[l] = X8_FE_ZERO;
            p->inf = true;
            *keep &= (__mmask8)~(1u << l);
        }
    }
    fe_to_v(den, d);
    fe_to_v(num, q);
}

/* y^2 = x^3 + b, 8 points a vector (one load_xy, three products), the
 * identities masked out of the comparison. */
FF_X8 size_t X8_(_first_off_curve)(const X8_AFF *p, size_t n, const fe_t *b)
{
    X8_V vb, nb, x, y, l, r;
    gather(&vb, _mm512_setzero_si512(), 0, b); /* no lane read: b in every lane */
    for (int i = 0; i < X8_NL; i++)
        x.l[i] = _mm512_setzero_si512();
    vsub(&nb, &x, &vb);
    for (size_t i = 0; i < n; i += 8) {
        const X8_AFF *q[8];
        __mmask8 k = 0;
        for (size_t l = 0; l < 8; l++) {
            bool in = i + l < n && !p[i + l].inf;
            q[l] = in ? &p[i + l] : p; /* not read outside k */
            k |= (__mmask8)(in << l);
        }
        load_xy(&x, &y, q, k);
        msqr(&l, &y);
        msqr(&r, &x);
        mont(&r, &r, &x);
        vsub(&r, &r, &nb); /* x^3 + b */
        vsub(&l, &l, &r);
        __mmask8 off = k & (__mmask8)~v_zero(&l);
        if (off)
            return i + (size_t)__builtin_ctz(off);
    }
    return n;
}

FF_X8 void X8_(_add_batch)(size_t n, X8_AFF *const *acc, const X8_AFF *const *pt, const uint8_t *neg, void *scratch)
{
    if (n == 0)
        return;
    size_t nblk = (n + 7) / 8;
    X8_V *S = (X8_V *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    __mmask8 *keep = (__mmask8 *)(S + S_N * nblk); /* per block: the lanes whose sum is written */
    X8_V one, run[2];
    gather(&one, _mm512_setzero_si512(), 0, &X8_FE_ONE); /* no lane read: one in every lane */
    run[0] = run[1] = one;
    /* Coordinates, den = x2 - x1 and num = +-y2 - y1, and the running
     * products: pre = the product of the chain's earlier dens. */
    for (size_t b = 0; b < nblk; b++) {
        X8_V *B = S + S_N * b, y2, t;
        __mmask8 k = block_mask(n, b), ng = 0;
        for (size_t l = 0; l < 8 && 8 * b + l < n; l++) {
            ng |= (__mmask8)((neg[8 * b + l] != 0) << l);
            if (8 * b + 8 + l < n) { /* the next block's points */
                __builtin_prefetch(acc[8 * b + 8 + l]);
                __builtin_prefetch((const char *)acc[8 * b + 8 + l] + sizeof(X8_AFF) - 1);
                __builtin_prefetch(pt[8 * b + 8 + l]);
                __builtin_prefetch((const char *)pt[8 * b + 8 + l] + sizeof(X8_AFF) - 1);
            }
        }
        load_xy(&B[S_X1], &B[S_Y1], (const X8_AFF *const *)acc + 8 * b, k);
        load_xy(&B[S_X2], &y2, pt + 8 * b, k);
        if (ng) {
            X8_V zero;
            for (int i = 0; i < X8_NL; i++)
                zero.l[i] = _mm512_setzero_si512();
            vsub(&t, &zero, &y2);
            for (int i = 0; i < X8_NL; i++)
                y2.l[i] = _mm512_mask_mov_epi64(y2.l[i], ng, t.l[i]);
        }
        vsub(&B[S_DEN], &B[S_X2], &B[S_X1]);
        vsub(&B[S_NUM], &y2, &B[S_Y1]);
        for (int i = 0; i < X8_NL; i++) /* lanes past n: den = 1 */
            B[S_DEN].l[i] = _mm512_mask_mov_epi64(one.l[i], k, B[S_DEN].l[i]);
        keep[b] = k;
        __mmask8 z = v_zero(&B[S_DEN]) & k;
        if (z)
            equal_x(&B[S_DEN], &B[S_NUM], z, acc + 8 * b, &keep[b]);
        B[S_PRE] = run[b & 1];
        mont2p(&run[b & 1], &run[b & 1], &B[S_DEN]);
    }
    X8_V inv[2];
    reduce_once(&run[0]);
    reduce_once(&run[1]);
    invert16(inv, run);
    /* Backward: 1 / den = inv * pre, then inv *= den. */
    for (size_t b = nblk; b-- > 0;) {
        X8_V *B = S + S_N * b;
        mont2p(&B[S_PRE], &inv[b & 1], &B[S_PRE]);
        mont2p(&inv[b & 1], &inv[b & 1], &B[S_DEN]);
    }
    /* The sums: lambda = num / den, x3 = lambda^2 - x1 - x2, y3 = lambda
     * (x1 - x3) - y1. */
    for (size_t b = 0; b < nblk; b++) {
        X8_V *B = S + S_N * b, lam, x3, t;
        mont2p(&lam, &B[S_NUM], &B[S_PRE]);
        msqr(&x3, &lam);
        vsub(&x3, &x3, &B[S_X1]);
        vsub(&x3, &x3, &B[S_X2]);
        vsub(&t, &B[S_X1], &x3);
        mont(&t, &t, &lam);
        vsub(&t, &t, &B[S_Y1]);
        store_xy(acc + 8 * b, keep[b], &x3, &t);
    }
}
