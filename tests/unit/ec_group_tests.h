/*
 * tests/unit/ec_group_tests.h — the group tests written once for G1 and G2
 * (a template: tests/unit/test_g1.c and test_g2.c define the parameters and
 * include it once; the suite is named after the group).
 *
 * Parameters:
 *   EC_PT        g1 | g2 (the suite name and the function prefix)
 *   EC_FE        fp | fp2
 *   EC_FE_T      fp_t | fp2_t
 *   EC_FE_ONE    FP_ONE | FP2_ONE
 *   EC_GEN       G1_GENERATOR | G2_GENERATOR
 * and, in the .c before the include:
 *   test_b                          an EC_FE_T lvalue: the curve's b
 *   static const uint64_t test_cofactor[8];   h, little-endian limbs
 * and anywhere in the .c:
 *   static void rand_fe(EC_FE_T *out, test_rng_t *rng);   uniform in the field
 *                                   (test_rand_fp below gives one Fp element)
 *
 * The reference is deliberately naive and shares no code with ec/: affine
 * addition and doubling with one field inversion each, double-and-add
 * multiplication. Random points are naive multiples of the generator (so they
 * lie in the group by construction); points outside the group come from a
 * random x with a square root of x^3 + b, without clearing the cofactor.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#include "ff/ff.h"

#define T_CAT_(a, b) a##b
#define T_CAT(a, b) T_CAT_(a, b)
#define PT_(name) T_CAT(EC_PT, name)
#define FE_(name) T_CAT(EC_FE, name)
#define affine_t PT_(_affine_t)
#define jac_t PT_(_jac_t)
#define xyzz_t PT_(_xyzz_t)
#define fe_t EC_FE_T
#define SUITE_NAME T_STR(EC_PT)
#define T_STR_(x) #x
#define T_STR(x) T_STR_(x)

/* The group order r, little-endian limbs. */
static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static void setup(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), GM_OK); }

static void rand_fe(fe_t *out, test_rng_t *rng);

/* A uniform element of Fp: 381 random bits, retried while >= p. */
static void test_rand_fp(fp_t *out, test_rng_t *rng)
{
    uint64_t l[FP_LIMBS];
    do {
        for (int i = 0; i < FP_LIMBS; i++)
            l[i] = test_rng_next(rng);
        l[FP_LIMBS - 1] &= (1ULL << 61) - 1;
    } while (fp_from_limbs(out, l) != 0);
}

/* ---- the naive reference ---------------------------------------------------------------- */

static affine_t ref_inf(void)
{
    affine_t r;
    memset(&r, 0, sizeof r);
    r.inf = true;
    return r;
}

/* Affine addition by the chord-and-tangent rule, one inversion per call. */
static affine_t ref_add(affine_t a, affine_t b)
{
    if (a.inf)
        return b;
    if (b.inf)
        return a;
    fe_t lam, num, den, t;
    if (FE_(_eq)(&a.x, &b.x)) {
        FE_(_add)(&t, &a.y, &b.y);
        if (FE_(_is_zero)(&t))
            return ref_inf();
        FE_(_sqr)(&num, &a.x);             /* 3x^2 / 2y */
        FE_(_add)(&t, &num, &num);
        FE_(_add)(&num, &num, &t);
        FE_(_add)(&den, &a.y, &a.y);
    } else {
        FE_(_sub)(&num, &b.y, &a.y);       /* (y2 - y1) / (x2 - x1) */
        FE_(_sub)(&den, &b.x, &a.x);
    }
    FE_(_inv)(&den, &den);
    FE_(_mul)(&lam, &num, &den);
    affine_t r = {.inf = false};
    FE_(_sqr)(&r.x, &lam);
    FE_(_sub)(&r.x, &r.x, &a.x);
    FE_(_sub)(&r.x, &r.x, &b.x);
    FE_(_sub)(&t, &a.x, &r.x);
    FE_(_mul)(&r.y, &lam, &t);
    FE_(_sub)(&r.y, &r.y, &a.y);
    return r;
}

static affine_t ref_neg(affine_t a)
{
    if (!a.inf)
        FE_(_neg)(&a.y, &a.y);
    return a;
}

/* k*a, k given as nlimbs little-endian limbs, most significant bit first. */
static affine_t ref_mul(affine_t a, const uint64_t *k, int nlimbs)
{
    affine_t acc = ref_inf();
    for (int i = nlimbs * 64 - 1; i >= 0; i--) {
        acc = ref_add(acc, acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            acc = ref_add(acc, a);
    }
    return acc;
}

static bool ref_on_curve(const affine_t *a)
{
    if (a->inf)
        return true;
    fe_t l, r;
    FE_(_sqr)(&l, &a->y);
    FE_(_sqr)(&r, &a->x);
    FE_(_mul)(&r, &r, &a->x);
    FE_(_add)(&r, &r, &test_b);
    return FE_(_eq)(&l, &r);
}

/* ---- helpers ----------------------------------------------------------------------------- */

/* A random Jacobian form of a: (x z^2, y z^3, z) for a random z != 0. */
static jac_t to_jac_random(const affine_t *a, test_rng_t *rng)
{
    jac_t j;
    if (a->inf) {
        PT_(_jac_set_inf)(&j);
        return j;
    }
    fe_t z, z2;
    do
        rand_fe(&z, rng);
    while (FE_(_is_zero)(&z));
    FE_(_sqr)(&z2, &z);
    FE_(_mul)(&j.x, &a->x, &z2);
    FE_(_mul)(&z2, &z2, &z);
    FE_(_mul)(&j.y, &a->y, &z2);
    j.z = z;
    return j;
}

static affine_t to_aff(const jac_t *j)
{
    affine_t a;
    PT_(_to_affine)(&a, j);
    return a;
}

static void rand_scalar(uint64_t k[4], test_rng_t *rng)
{
    for (int i = 0; i < 4; i++)
        k[i] = test_rng_next(rng);
}

/* A random point of the group: k*G with a random 64-bit k, by the reference. */
static affine_t rand_point(test_rng_t *rng)
{
    uint64_t k = test_rng_next(rng) | 1;
    return ref_mul(EC_GEN, &k, 1);
}

/* A random point of the curve, almost surely outside the group. */
static affine_t rand_curve_point(test_rng_t *rng)
{
    affine_t a = {.inf = false};
    fe_t rhs;
    for (;;) {
        rand_fe(&a.x, rng);
        FE_(_sqr)(&rhs, &a.x);
        FE_(_mul)(&rhs, &rhs, &a.x);
        FE_(_add)(&rhs, &rhs, &test_b);
        if (FE_(_sqrt)(&a.y, &rhs))
            return a;
    }
}

/* h*a for the whole cofactor (up to 512 bits): 256 doublings split it. */
static jac_t mul_cofactor(const affine_t *a)
{
    jac_t j, hi, lo, t;
    PT_(_from_affine)(&j, a);
    PT_(_mul_any)(&lo, &j, test_cofactor);
    t = j;
    for (int i = 0; i < 256; i++)
        PT_(_dbl)(&t, &t);
    PT_(_mul_any)(&hi, &t, test_cofactor + 4);
    PT_(_add)(&t, &hi, &lo);
    return t;
}

#define EXPECT_AFF_EQ(got, want, ...) cr_assert(PT_(_affine_eq)(&(got), &(want)), __VA_ARGS__)

/* ---- tests ------------------------------------------------------------------------------- */

Test(EC_PT, generator_on_curve_and_order_r, .init = setup)
{
    cr_assert(ref_on_curve(&EC_GEN));
    cr_assert(PT_(_affine_on_curve)(&EC_GEN));
    cr_assert(PT_(_affine_in_subgroup)(&EC_GEN));
    affine_t rg = ref_mul(EC_GEN, R_LIMBS, 4);
    cr_assert(rg.inf, "r*G must be the identity (naive)");
    jac_t g, o;
    PT_(_from_affine)(&g, &EC_GEN);
    PT_(_mul_any)(&o, &g, R_LIMBS);
    cr_assert(PT_(_jac_is_inf)(&o), "mul_any(G, r)");
    PT_(_mul)(&o, &g, R_LIMBS);
    cr_assert(PT_(_jac_is_inf)(&o), "mul(G, r)");
}

Test(EC_PT, dbl_add_mixed_match_naive, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/dbl_add_mixed_match_naive");
    for (int it = 0; it < 12; it++) {
        affine_t a = rand_point(&rng), b = rand_point(&rng), want, got;
        jac_t ja = to_jac_random(&a, &rng), jb = to_jac_random(&b, &rng), o;
        cr_assert(PT_(_jac_on_curve)(&ja));

        PT_(_dbl)(&o, &ja);
        want = ref_add(a, a);
        got = to_aff(&o);
        EXPECT_AFF_EQ(got, want, "dbl, iteration %d", it);

        PT_(_add)(&o, &ja, &jb);
        want = ref_add(a, b);
        got = to_aff(&o);
        EXPECT_AFF_EQ(got, want, "add, iteration %d", it);

        PT_(_add_mixed)(&o, &ja, &b);
        got = to_aff(&o);
        EXPECT_AFF_EQ(got, want, "add_mixed, iteration %d", it);

        /* aliasing: out = p */
        o = ja;
        PT_(_add)(&o, &o, &jb);
        got = to_aff(&o);
        EXPECT_AFF_EQ(got, want, "add in place, iteration %d", it);
        o = ja;
        PT_(_dbl)(&o, &o);
        got = to_aff(&o);
        want = ref_add(a, a);
        EXPECT_AFF_EQ(got, want, "dbl in place, iteration %d", it);
    }
}

Test(EC_PT, identity_and_special_cases, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/identity_and_special_cases");
    affine_t a = rand_point(&rng), inf = ref_inf(), na = ref_neg(a), got, want;
    jac_t ja = to_jac_random(&a, &rng), ja2 = to_jac_random(&a, &rng), jna = to_jac_random(&na, &rng);
    jac_t jinf, o;
    PT_(_jac_set_inf)(&jinf);
    cr_assert(PT_(_jac_is_inf)(&jinf));
    cr_assert(PT_(_jac_on_curve)(&jinf));
    cr_assert(PT_(_affine_on_curve)(&inf));
    cr_assert(PT_(_affine_in_subgroup)(&inf));

    PT_(_add)(&o, &ja, &jinf);
    cr_assert(PT_(_jac_eq)(&o, &ja), "P + O");
    PT_(_add)(&o, &jinf, &ja);
    cr_assert(PT_(_jac_eq)(&o, &ja), "O + P");
    PT_(_add)(&o, &jinf, &jinf);
    cr_assert(PT_(_jac_is_inf)(&o), "O + O");
    PT_(_dbl)(&o, &jinf);
    cr_assert(PT_(_jac_is_inf)(&o), "2 O");
    PT_(_add)(&o, &ja, &ja2);            /* P + P, different Z */
    got = to_aff(&o);
    want = ref_add(a, a);
    EXPECT_AFF_EQ(got, want, "P + P");
    PT_(_add)(&o, &ja, &jna);
    cr_assert(PT_(_jac_is_inf)(&o), "P + (-P)");
    PT_(_neg)(&o, &ja);
    got = to_aff(&o);
    EXPECT_AFF_EQ(got, na, "neg");
    PT_(_neg)(&o, &jinf);
    cr_assert(PT_(_jac_is_inf)(&o), "-O");

    PT_(_add_mixed)(&o, &ja, &inf);
    cr_assert(PT_(_jac_eq)(&o, &ja), "P + O mixed");
    PT_(_add_mixed)(&o, &jinf, &a);
    got = to_aff(&o);
    EXPECT_AFF_EQ(got, a, "O + P mixed");
    PT_(_add_mixed)(&o, &jinf, &inf);
    cr_assert(PT_(_jac_is_inf)(&o), "O + O mixed");
    PT_(_add_mixed)(&o, &ja, &a);
    got = to_aff(&o);
    EXPECT_AFF_EQ(got, want, "P + P mixed");
    PT_(_add_mixed)(&o, &ja, &na);
    cr_assert(PT_(_jac_is_inf)(&o), "P + (-P) mixed");

    got = to_aff(&jinf);
    cr_assert(got.inf, "to_affine(O)");
    PT_(_from_affine)(&o, &inf);
    cr_assert(PT_(_jac_is_inf)(&o), "from_affine(O)");
    PT_(_affine_neg)(&got, &inf);
    cr_assert(got.inf && FE_(_is_zero)(&got.y), "-O affine");
    PT_(_affine_neg)(&got, &a);
    EXPECT_AFF_EQ(got, na, "affine_neg");
}

Test(EC_PT, equality_and_on_curve, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/equality_and_on_curve");
    affine_t a = rand_point(&rng), b = rand_point(&rng), inf = ref_inf();
    jac_t ja = to_jac_random(&a, &rng), ja2 = to_jac_random(&a, &rng), jb = to_jac_random(&b, &rng);
    jac_t jinf;
    PT_(_jac_set_inf)(&jinf);
    cr_assert(PT_(_jac_eq)(&ja, &ja2));
    cr_assert(!PT_(_jac_eq)(&ja, &jb));
    cr_assert(!PT_(_jac_eq)(&ja, &jinf));
    cr_assert(!PT_(_jac_eq)(&jinf, &ja));
    cr_assert(PT_(_jac_eq)(&jinf, &jinf));
    affine_t na = ref_neg(a);
    jac_t jna = to_jac_random(&na, &rng);
    cr_assert(!PT_(_jac_eq)(&ja, &jna), "P != -P");
    cr_assert(PT_(_affine_eq)(&a, &a));
    cr_assert(!PT_(_affine_eq)(&a, &b));
    cr_assert(!PT_(_affine_eq)(&a, &inf));
    cr_assert(PT_(_affine_eq)(&inf, &inf));

    affine_t bad = a;
    FE_(_add)(&bad.y, &bad.y, &EC_FE_ONE);
    cr_assert(!PT_(_affine_on_curve)(&bad));
    jac_t jbad = to_jac_random(&bad, &rng);
    cr_assert(!PT_(_jac_on_curve)(&jbad));
    cr_assert(PT_(_jac_on_curve)(&ja));
}

Test(EC_PT, group_laws, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/group_laws");
    for (int it = 0; it < 8; it++) {
        affine_t a = rand_point(&rng), b = rand_point(&rng), c = rand_point(&rng);
        jac_t ja = to_jac_random(&a, &rng), jb = to_jac_random(&b, &rng), jc = to_jac_random(&c, &rng);
        jac_t l, r;
        PT_(_add)(&l, &ja, &jb);
        PT_(_add)(&l, &l, &jc);
        PT_(_add)(&r, &jb, &jc);
        PT_(_add)(&r, &ja, &r);
        cr_assert(PT_(_jac_eq)(&l, &r), "associativity, iteration %d", it);
        PT_(_add)(&l, &ja, &jb);
        PT_(_add)(&r, &jb, &ja);
        cr_assert(PT_(_jac_eq)(&l, &r), "commutativity, iteration %d", it);
        /* 2(a + b) = 2a + 2b */
        PT_(_add)(&l, &ja, &jb);
        PT_(_dbl)(&l, &l);
        PT_(_dbl)(&r, &ja);
        PT_(_dbl)(&jb, &jb);
        PT_(_add)(&r, &r, &jb);
        cr_assert(PT_(_jac_eq)(&l, &r), "doubling distributes, iteration %d", it);
    }
}

Test(EC_PT, batch_to_affine_with_identities, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/batch_to_affine_with_identities");
    enum { N = 9 };
    affine_t want[N], got[N];
    jac_t j[N];
    fe_t scratch[N];
    for (int i = 0; i < N; i++) {
        want[i] = (i % 3 == 0) ? ref_inf() : rand_point(&rng);   /* 0, 3, 6: identities */
        j[i] = to_jac_random(&want[i], &rng);
    }
    PT_(_batch_to_affine)(got, j, N, scratch);
    for (int i = 0; i < N; i++)
        EXPECT_AFF_EQ(got[i], want[i], "entry %d", i);
    PT_(_batch_to_affine)(got, j, 0, scratch);                   /* n = 0 is a no-op */
    PT_(_batch_to_affine)(got, j, 1, scratch);
    cr_assert(got[0].inf);
    PT_(_batch_to_affine)(got, j + 1, 1, scratch);
    EXPECT_AFF_EQ(got[0], want[1], "single");
}

Test(EC_PT, mul_matches_naive, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/mul_matches_naive");
    static const uint64_t edges[][4] = {
        {0, 0, 0, 0},
        {1, 0, 0, 0},
        {2, 0, 0, 0},
        {0xffffffff00000000ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}, /* r-1 */
        {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}, /* r */
        {0xffffffff00000002ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}, /* r+1 */
        {~0ULL, ~0ULL, ~0ULL, ~0ULL},                                                                  /* 2^256-1 */
        {0xd201000000010000ULL, 0, 0, 0},                                                              /* z */
        {0x0000000100000000ULL, 0xac45a4010001a402ULL, 0, 0},                                          /* z^2 */
        {0x0000000100000000ULL - 1, 0xac45a4010001a402ULL, 0, 0},                                      /* z^2-1 */
        {0, 0, 0, 1ULL << 63},
    };
    size_t nedges = sizeof edges / sizeof edges[0];
    affine_t p = rand_point(&rng);
    jac_t jp = to_jac_random(&p, &rng), o;
    for (size_t e = 0; e < nedges + 3; e++) {
        uint64_t k[4];
        if (e < nedges)
            memcpy(k, edges[e], sizeof k);
        else
            rand_scalar(k, &rng);
        affine_t want = ref_mul(p, k, 4), got;
        PT_(_mul)(&o, &jp, k);
        got = to_aff(&o);
        EXPECT_AFF_EQ(got, want, "mul, scalar %zu", e);
        PT_(_mul_any)(&o, &jp, k);
        got = to_aff(&o);
        EXPECT_AFF_EQ(got, want, "mul_any, scalar %zu", e);
    }
    jac_t jinf;
    uint64_t k[4];
    rand_scalar(k, &rng);
    PT_(_jac_set_inf)(&jinf);
    PT_(_mul)(&o, &jinf, k);
    cr_assert(PT_(_jac_is_inf)(&o), "k * O");
    PT_(_mul_any)(&o, &jinf, k);
    cr_assert(PT_(_jac_is_inf)(&o), "k * O (any)");
}

Test(EC_PT, mul_linearity_and_fr, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/mul_linearity_and_fr");
    jac_t g;
    PT_(_from_affine)(&g, &EC_GEN);
    for (int it = 0; it < 6; it++) {
        uint64_t ka[4], kb[4], ks[4];
        rand_scalar(ka, &rng);
        rand_scalar(kb, &rng);
        ka[3] >>= 2;                 /* a + b < 2^256 */
        kb[3] >>= 2;
        unsigned __int128 c = 0;
        for (int i = 0; i < 4; i++) {
            c += (unsigned __int128)ka[i] + kb[i];
            ks[i] = (uint64_t)c;
            c >>= 64;
        }
        jac_t pa, pb, ps, sum;
        PT_(_mul)(&pa, &g, ka);
        PT_(_mul)(&pb, &g, kb);
        PT_(_mul)(&ps, &g, ks);
        PT_(_add)(&sum, &pa, &pb);
        cr_assert(PT_(_jac_eq)(&sum, &ps), "(a+b)G = aG + bG, iteration %d", it);
        /* the same through Fr */
        fr_t fa;
        uint64_t red[4];
        fr_from_bytes_le_mod(&fa, (const uint8_t *)ka);
        fr_to_limbs(red, &fa);
        PT_(_mul_fr)(&ps, &g, &fa);
        cr_assert(PT_(_jac_eq)(&ps, &pa), "mul_fr, iteration %d", it);
        /* mul on a non-generator point agrees with mul_any */
        PT_(_mul_any)(&sum, &pb, red);
        PT_(_mul)(&ps, &pb, red);
        cr_assert(PT_(_jac_eq)(&sum, &ps), "mul vs mul_any on bG, iteration %d", it);
    }
}

Test(EC_PT, xyzz_matches_naive, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/xyzz_matches_naive");
    enum { N = 6 };
    affine_t pts[N];
    for (int i = 0; i < N; i++)
        pts[i] = rand_point(&rng);
    /* A bucket sequence with repeats, a negation that cancels, and identities. */
    affine_t seq[] = {pts[0], pts[1], pts[1], ref_inf(), pts[2], ref_neg(pts[2]), pts[3],
                      pts[0], pts[4], pts[4], pts[5], ref_neg(pts[0])};
    size_t n = sizeof seq / sizeof seq[0];
    xyzz_t acc, acc2, t;
    PT_(_xyzz_set_inf)(&acc);
    PT_(_xyzz_set_inf)(&acc2);
    affine_t want = ref_inf(), got;
    jac_t j;
    for (size_t i = 0; i < n; i++) {
        PT_(_xyzz_add_affine)(&acc, &acc, &seq[i]);
        want = ref_add(want, seq[i]);
        PT_(_xyzz_to_jac)(&j, &acc);
        got = to_aff(&j);
        EXPECT_AFF_EQ(got, want, "xyzz_add_affine, step %zu", i);
        /* the same sum through xyzz_add of singletons */
        PT_(_xyzz_set_inf)(&t);
        PT_(_xyzz_add_affine)(&t, &t, &seq[i]);
        PT_(_xyzz_add)(&acc2, &acc2, &t);
        PT_(_xyzz_to_jac)(&j, &acc2);
        got = to_aff(&j);
        EXPECT_AFF_EQ(got, want, "xyzz_add, step %zu", i);
    }
    /* P + P and P + (-P) inside xyzz_add, with different ZZ */
    xyzz_t x1, x2, xn;
    PT_(_xyzz_set_inf)(&x1);
    PT_(_xyzz_add_affine)(&x1, &x1, &pts[0]);
    PT_(_xyzz_add_affine)(&x1, &x1, &pts[1]);        /* p0 + p1, ZZ != 1 */
    PT_(_xyzz_set_inf)(&x2);
    PT_(_xyzz_add_affine)(&x2, &x2, &pts[1]);
    PT_(_xyzz_add_affine)(&x2, &x2, &pts[0]);        /* p1 + p0, another ZZ */
    PT_(_xyzz_add)(&t, &x1, &x2);
    PT_(_xyzz_to_jac)(&j, &t);
    got = to_aff(&j);
    want = ref_add(pts[0], pts[1]);
    want = ref_add(want, want);
    EXPECT_AFF_EQ(got, want, "xyzz_add P + P");
    PT_(_xyzz_dbl)(&t, &x1);
    PT_(_xyzz_to_jac)(&j, &t);
    got = to_aff(&j);
    EXPECT_AFF_EQ(got, want, "xyzz_dbl");
    PT_(_xyzz_set_inf)(&xn);
    affine_t neg = ref_neg(ref_add(pts[0], pts[1]));
    PT_(_xyzz_add_affine)(&xn, &xn, &neg);
    PT_(_xyzz_add)(&t, &x1, &xn);
    PT_(_xyzz_to_jac)(&j, &t);
    cr_assert(PT_(_jac_is_inf)(&j), "xyzz_add P + (-P)");
    PT_(_xyzz_set_inf)(&t);
    PT_(_xyzz_dbl)(&t, &t);
    PT_(_xyzz_to_jac)(&j, &t);
    cr_assert(PT_(_jac_is_inf)(&j), "xyzz_dbl O");
    PT_(_xyzz_add)(&t, &t, &x1);
    PT_(_xyzz_to_jac)(&j, &t);
    got = to_aff(&j);
    want = ref_add(pts[0], pts[1]);
    EXPECT_AFF_EQ(got, want, "xyzz O + P");
    /* P + (-P) in xyzz_add_affine */
    PT_(_xyzz_add_affine)(&t, &x1, &neg);
    PT_(_xyzz_to_jac)(&j, &t);
    cr_assert(PT_(_jac_is_inf)(&j), "xyzz_add_affine P + (-P)");
}

Test(EC_PT, subgroup_check, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, SUITE_NAME "/subgroup_check");
    for (int it = 0; it < 4; it++) {
        affine_t a = rand_point(&rng);
        cr_assert(PT_(_affine_in_subgroup)(&a), "k*G accepted, iteration %d", it);
        affine_t q = rand_curve_point(&rng);
        cr_assert(PT_(_affine_on_curve)(&q));
        cr_assert(!PT_(_affine_in_subgroup)(&q), "random curve point rejected, iteration %d", it);
        /* q + a: still outside */
        jac_t jq, s;
        PT_(_from_affine)(&jq, &q);
        PT_(_add_mixed)(&s, &jq, &a);
        affine_t sa = to_aff(&s);
        cr_assert(!PT_(_affine_in_subgroup)(&sa), "q + G-point rejected, iteration %d", it);
        /* r*q: in the cofactor part (torsion of order dividing h), not in the group */
        PT_(_mul_any)(&s, &jq, R_LIMBS);
        affine_t t = to_aff(&s);
        cr_assert(!t.inf && PT_(_affine_on_curve)(&t));
        cr_assert(!PT_(_affine_in_subgroup)(&t), "cofactor torsion rejected, iteration %d", it);
        /* a + torsion */
        PT_(_add_mixed)(&s, &s, &a);
        t = to_aff(&s);
        cr_assert(!PT_(_affine_in_subgroup)(&t), "G-point + torsion rejected, iteration %d", it);
        /* h*q: cleared, in the group */
        s = mul_cofactor(&q);
        t = to_aff(&s);
        cr_assert(PT_(_affine_in_subgroup)(&t), "h*q accepted, iteration %d", it);
        PT_(_mul_any)(&s, &s, R_LIMBS);
        cr_assert(PT_(_jac_is_inf)(&s), "r*h*q = O, iteration %d", it);
    }
}

#undef affine_t
#undef jac_t
#undef xyzz_t
#undef fe_t
#undef PT_
#undef FE_
