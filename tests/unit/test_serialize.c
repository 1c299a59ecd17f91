/*
 * tests/unit/test_serialize.c — the Zcash / blst point encodings of G1 and G2:
 * known answers (the generators and 2*G, as published with the Zcash spec and
 * printed by blst and @noble/curves), round trips on random points of both
 * signs, and one rejection test per invalid-encoding class with its code.
 *
 * Each test runs over both groups through a small table of per-group
 * operations (struct grp), so the checks are written once.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "ec/ec.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "tests/unit/testutil.h"
#pragma GCC diagnostic pop

static void setup(void) { cr_assert_eq(ff_init(FF_PATH_AUTO), GM_OK); }

/* A point of either group, large enough for both; grp says which. */
typedef union { g1_affine_t g1; g2_affine_t g2; } point_t;

struct grp {
    const char *name;
    size_t nc;                 /* compressed bytes; uncompressed is 2 * nc */
    const char *gen_c, *gen_u, *two_c;   /* known answers (hex) */
    void (*small)(point_t *out, int k);     /* k*G for k = 0 (identity), 1, 2 */
    void (*rand_point)(point_t *out, test_rng_t *rng);         /* k*G */
    void (*rand_curve_point)(point_t *out, test_rng_t *rng);   /* outside the group */
    void (*nosqrt_point)(point_t *out);     /* x with no y; y is zero */
    void (*neg)(point_t *out, const point_t *p);
    bool (*eq)(const point_t *a, const point_t *b);
    void (*enc_c)(uint8_t *out, const point_t *p);
    void (*enc_u)(uint8_t *out, const point_t *p);
    int (*dec_c)(point_t *out, const uint8_t *in);
    int (*dec_u)(point_t *out, const uint8_t *in);
    int (*dec_u_unchecked)(point_t *out, const uint8_t *in);
};

static void rand_k(uint64_t k[4], test_rng_t *rng)
{
    for (int i = 0; i < 4; i++)
        k[i] = test_rng_next(rng);
}

/* The per-field pieces: a field element from a 64-bit value (Fp2: v + u), and
 * the curve's b (4, resp. 4 + 4u). */
static void fp_small(fp_t *out, uint64_t v) { fp_set_u64(out, v); }
static void fp2_small(fp2_t *out, uint64_t v)
{
    fp_set_u64(&out->c0, v);
    out->c1 = FP_ONE;
}
static void fp_b(fp_t *b) { fp_set_u64(b, 4); }
static void fp2_b(fp2_t *b)
{
    fp_set_u64(&b->c0, 4);
    b->c1 = b->c0;
}

/*
 * GROUP_HELPERS(PT, FE, GEN): the operations struct grp holds, for group PT
 * over field FE with generator GEN, written once for both groups.
 */
#define GROUP_HELPERS(PT, FE, GEN)                                                              \
    static void PT##_rhs(FE##_t *out, const FE##_t *x) /* x^3 + b */                            \
    {                                                                                           \
        FE##_t b;                                                                               \
        FE##_b(&b);                                                                             \
        FE##_sqr(out, x);                                                                       \
        FE##_mul(out, out, x);                                                                  \
        FE##_add(out, out, &b);                                                                 \
    }                                                                                           \
    static void PT##_small(point_t *out, int k)                                                 \
    {                                                                                           \
        PT##_jac_t j;                                                                           \
        memset(out, 0, sizeof *out);                                                            \
        PT##_from_affine(&j, &GEN);                                                             \
        if (k == 0)                                                                             \
            PT##_jac_set_inf(&j);                                                               \
        if (k == 2)                                                                             \
            PT##_dbl(&j, &j);                                                                   \
        PT##_to_affine(&out->PT, &j);                                                           \
    }                                                                                           \
    static void PT##_rand_point(point_t *out, test_rng_t *rng)                                  \
    {                                                                                           \
        uint64_t k[4];                                                                          \
        PT##_jac_t g, p;                                                                        \
        rand_k(k, rng);                                                                         \
        PT##_from_affine(&g, &GEN);                                                             \
        PT##_mul(&p, &g, k);                                                                    \
        PT##_to_affine(&out->PT, &p);                                                           \
    }                                                                                           \
    static void PT##_rand_curve_point(point_t *out, test_rng_t *rng)                            \
    {                                                                                           \
        FE##_t rhs;                                                                             \
        out->PT.inf = false;                                                                    \
        do {                                                                                    \
            FE##_small(&out->PT.x, test_rng_next(rng));                                         \
            PT##_rhs(&rhs, &out->PT.x);                                                         \
        } while (!FE##_sqrt(&out->PT.y, &rhs));                                                 \
    }                                                                                           \
    static void PT##_nosqrt_point(point_t *out)                                                 \
    {                                                                                           \
        FE##_t rhs;                                                                             \
        memset(out, 0, sizeof *out);                                                            \
        for (uint64_t i = 1;; i++) {                                                            \
            FE##_small(&out->PT.x, i);                                                          \
            PT##_rhs(&rhs, &out->PT.x);                                                         \
            if (FE##_legendre(&rhs) == -1)                                                      \
                return;                                                                         \
        }                                                                                       \
    }                                                                                           \
    static void PT##_neg_(point_t *out, const point_t *p) { PT##_affine_neg(&out->PT, &p->PT); } \
    static bool PT##_eq_(const point_t *a, const point_t *b) { return PT##_affine_eq(&a->PT, &b->PT); } \
    static void PT##_enc_c(uint8_t *out, const point_t *p) { PT##_to_bytes_compressed(out, &p->PT); } \
    static void PT##_enc_u(uint8_t *out, const point_t *p) { PT##_to_bytes_uncompressed(out, &p->PT); } \
    static int PT##_dec_c(point_t *out, const uint8_t *in) { return PT##_from_bytes_compressed(&out->PT, in); } \
    static int PT##_dec_u(point_t *out, const uint8_t *in) { return PT##_from_bytes_uncompressed(&out->PT, in); } \
    static int PT##_dec_uu(point_t *out, const uint8_t *in)                                     \
    {                                                                                           \
        return PT##_from_bytes_uncompressed_unchecked(&out->PT, in);                            \
    }

GROUP_HELPERS(g1, fp, G1_GENERATOR)
GROUP_HELPERS(g2, fp2, G2_GENERATOR)

static const struct grp GROUPS[2] = {
    {
        .name = "g1",
        .nc = G1_COMPRESSED_BYTES,
        .gen_c = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
        .gen_u = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
                 "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
        .two_c = "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e",
        .small = g1_small, .rand_point = g1_rand_point, .rand_curve_point = g1_rand_curve_point,
        .nosqrt_point = g1_nosqrt_point, .neg = g1_neg_, .eq = g1_eq_,
        .enc_c = g1_enc_c, .enc_u = g1_enc_u, .dec_c = g1_dec_c, .dec_u = g1_dec_u,
        .dec_u_unchecked = g1_dec_uu,
    },
    {
        .name = "g2",
        .nc = G2_COMPRESSED_BYTES,
        .gen_c = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
                 "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
        .gen_u = "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
                 "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
                 "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
                 "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
        .two_c = "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
                 "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053",
        .small = g2_small, .rand_point = g2_rand_point, .rand_curve_point = g2_rand_curve_point,
        .nosqrt_point = g2_nosqrt_point, .neg = g2_neg_, .eq = g2_eq_,
        .enc_c = g2_enc_c, .enc_u = g2_enc_u, .dec_c = g2_dec_c, .dec_u = g2_dec_u,
        .dec_u_unchecked = g2_dec_uu,
    },
};

#define MAXB G2_UNCOMPRESSED_BYTES

static void from_hex(uint8_t *out, const char *hex, size_t n)
{
    cr_assert_eq(strlen(hex), 2 * n, "hex length");
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

/* p as big-endian bytes (48), the smallest non-canonical coordinate. */
static const char P_HEX[] =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

/* Decoding must fail with want and leave out untouched. */
static void expect_reject(const struct grp *g, int (*dec)(point_t *, const uint8_t *),
                          const uint8_t *in, int want, const char *what)
{
    point_t out;
    memset(&out, 0xa5, sizeof out);
    point_t before = out;
    int rc = dec(&out, in);
    cr_assert_eq(rc, want, "%s: %s: got %d (%s), want %d (%s)", g->name, what, rc, gm_strerror(rc),
                 want, gm_strerror(want));
    cr_assert(memcmp(&out, &before, sizeof out) == 0, "%s: %s: out was written", g->name, what);
}

Test(serialize, known_answers, .init = setup)
{
    for (int gi = 0; gi < 2; gi++) {
        const struct grp *g = &GROUPS[gi];
        uint8_t want[MAXB], got[MAXB];
        point_t gen, two, dec;
        g->small(&gen, 1);
        from_hex(want, g->gen_c, g->nc);
        g->enc_c(got, &gen);
        cr_assert(memcmp(got, want, g->nc) == 0, "%s: generator compressed", g->name);
        cr_assert_eq(g->dec_c(&dec, want), GM_OK);
        cr_assert(g->eq(&dec, &gen), "%s: generator decompressed", g->name);
        from_hex(want, g->gen_u, 2 * g->nc);
        g->enc_u(got, &gen);
        cr_assert(memcmp(got, want, 2 * g->nc) == 0, "%s: generator uncompressed", g->name);
        cr_assert_eq(g->dec_u(&dec, want), GM_OK);
        cr_assert(g->eq(&dec, &gen), "%s: generator from uncompressed", g->name);
        /* 2G = dbl(G) encodes to its published bytes, which decode back */
        from_hex(want, g->two_c, g->nc);
        g->small(&two, 2);
        g->enc_c(got, &two);
        cr_assert(memcmp(got, want, g->nc) == 0, "%s: 2G compressed", g->name);
        cr_assert_eq(g->dec_c(&dec, want), GM_OK, "%s: 2G decodes", g->name);
        cr_assert(g->eq(&dec, &two), "%s: 2G decompressed", g->name);
    }
}

Test(serialize, identity, .init = setup)
{
    for (int gi = 0; gi < 2; gi++) {
        const struct grp *g = &GROUPS[gi];
        uint8_t buf[MAXB], want[MAXB] = {0};
        point_t inf, dec;
        g->small(&inf, 0);
        want[0] = 0xc0;
        g->enc_c(buf, &inf);
        cr_assert(memcmp(buf, want, g->nc) == 0, "%s: compressed identity", g->name);
        cr_assert_eq(g->dec_c(&dec, buf), GM_OK);
        cr_assert(g->eq(&dec, &inf));
        want[0] = 0x40;
        g->enc_u(buf, &inf);
        cr_assert(memcmp(buf, want, 2 * g->nc) == 0, "%s: uncompressed identity", g->name);
        cr_assert_eq(g->dec_u(&dec, buf), GM_OK);
        cr_assert(g->eq(&dec, &inf));
        cr_assert_eq(g->dec_u_unchecked(&dec, buf), GM_OK);
        cr_assert(g->eq(&dec, &inf));
    }
}

Test(serialize, round_trips, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, "serialize/round_trips");
    for (int gi = 0; gi < 2; gi++) {
        const struct grp *g = &GROUPS[gi];
        for (int it = 0; it < 4; it++) {
            uint8_t c[MAXB], u[MAXB];
            point_t p, dec;
            g->rand_point(&p, &rng);
            if (it & 1)
                g->neg(&p, &p);             /* both signs of y */
            g->enc_c(c, &p);
            g->enc_u(u, &p);
            cr_assert_eq(u[0] & 0xe0, 0, "%s: no flags on uncompressed", g->name);
            cr_assert_eq(c[0] & 0xc0, 0x80);
            cr_assert(memcmp(c + 1, u + 1, g->nc - 1) == 0, "%s: compressed is x", g->name);
            cr_assert_eq(g->dec_c(&dec, c), GM_OK, "%s: compressed, iteration %d", g->name, it);
            cr_assert(g->eq(&dec, &p), "%s: compressed round trip, iteration %d", g->name, it);
            cr_assert_eq(g->dec_u(&dec, u), GM_OK);
            cr_assert(g->eq(&dec, &p), "%s: uncompressed round trip, iteration %d", g->name, it);
            cr_assert_eq(g->dec_u_unchecked(&dec, u), GM_OK);
            cr_assert(g->eq(&dec, &p), "%s: unchecked round trip, iteration %d", g->name, it);
            /* flipping the sign bit gives -P */
            point_t np;
            g->neg(&np, &p);
            c[0] ^= 0x20;
            cr_assert_eq(g->dec_c(&dec, c), GM_OK);
            cr_assert(g->eq(&dec, &np), "%s: sign bit, iteration %d", g->name, it);
        }
    }
}

Test(serialize, rejects_bad_flags, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, "serialize/rejects_bad_flags");
    for (int gi = 0; gi < 2; gi++) {
        const struct grp *g = &GROUPS[gi];
        uint8_t c[MAXB], u[MAXB], b[MAXB];
        point_t p;
        g->rand_point(&p, &rng);
        g->enc_c(c, &p);
        g->enc_u(u, &p);
        memcpy(b, c, g->nc);
        b[0] &= 0x7f;
        expect_reject(g, g->dec_c, b, GM_EFLAGS, "compressed without the compression bit");
        memcpy(b, u, 2 * g->nc);
        b[0] |= 0x80;
        expect_reject(g, g->dec_u, b, GM_EFLAGS, "uncompressed with the compression bit");
        expect_reject(g, g->dec_u_unchecked, b, GM_EFLAGS, "unchecked, compression bit");
        memcpy(b, u, 2 * g->nc);
        b[0] |= 0x20;
        expect_reject(g, g->dec_u, b, GM_EFLAGS, "uncompressed with the sign bit");
        /* infinity with anything else */
        memset(b, 0, sizeof b);
        b[0] = 0xe0;
        expect_reject(g, g->dec_c, b, GM_EFLAGS, "compressed infinity with the sign bit");
        b[0] = 0xc1;
        expect_reject(g, g->dec_c, b, GM_EFLAGS, "compressed infinity, non-zero first byte");
        b[0] = 0xc0;
        b[g->nc - 1] = 1;
        expect_reject(g, g->dec_c, b, GM_EFLAGS, "compressed infinity, non-zero body");
        memset(b, 0, sizeof b);
        b[0] = 0x60;
        expect_reject(g, g->dec_u, b, GM_EFLAGS, "uncompressed infinity with the sign bit");
        b[0] = 0x40;
        b[2 * g->nc - 1] = 1;
        expect_reject(g, g->dec_u, b, GM_EFLAGS, "uncompressed infinity, non-zero y");
        expect_reject(g, g->dec_u_unchecked, b, GM_EFLAGS, "unchecked infinity, non-zero y");
        memcpy(b, c, g->nc);
        b[0] |= 0x40;
        expect_reject(g, g->dec_c, b, GM_EFLAGS, "compressed point with the infinity bit");
        memcpy(b, u, 2 * g->nc);
        b[0] |= 0x40;
        expect_reject(g, g->dec_u, b, GM_EFLAGS, "uncompressed point with the infinity bit");
        memset(b, 0, sizeof b);
        expect_reject(g, g->dec_c, b, GM_EFLAGS, "all zero, compressed");
    }
}

Test(serialize, rejects_noncanonical, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, "serialize/rejects_noncanonical");
    uint8_t pbytes[FP_BYTES], maxbytes[FP_BYTES];
    from_hex(pbytes, P_HEX, FP_BYTES);
    memset(maxbytes, 0xff, sizeof maxbytes);
    maxbytes[0] = 0x1f;                          /* 2^381 - 1 under the flags */
    for (int gi = 0; gi < 2; gi++) {
        const struct grp *g = &GROUPS[gi];
        uint8_t c[MAXB], u[MAXB], b[MAXB];
        point_t p;
        g->rand_point(&p, &rng);
        g->enc_c(c, &p);
        g->enc_u(u, &p);
        /* every Fp coordinate in turn set to p, then to 2^381 - 1 */
        for (size_t off = 0; off < 2 * g->nc; off += FP_BYTES) {
            for (int v = 0; v < 2; v++) {
                const uint8_t *bad = v ? maxbytes : pbytes;
                memcpy(b, u, 2 * g->nc);
                memcpy(b + off, bad, FP_BYTES);
                expect_reject(g, g->dec_u, b, GM_ENONCANON, "uncompressed coordinate >= p");
                expect_reject(g, g->dec_u_unchecked, b, GM_ENONCANON, "unchecked coordinate >= p");
                if (off >= g->nc)
                    continue;
                memcpy(b, c, g->nc);
                memcpy(b + off, bad, FP_BYTES);
                b[0] |= 0x80;
                expect_reject(g, g->dec_c, b, GM_ENONCANON, "compressed x >= p");
            }
        }
    }
}

Test(serialize, rejects_off_curve_and_outside_group, .init = setup)
{
    test_rng_t rng;
    test_rng_init(&rng, "serialize/rejects_off_curve_and_outside_group");
    for (int gi = 0; gi < 2; gi++) {
        const struct grp *g = &GROUPS[gi];
        uint8_t b[MAXB];
        point_t p, q, dec;
        /* x with no y on the curve */
        g->nosqrt_point(&p);
        g->enc_c(b, &p);
        expect_reject(g, g->dec_c, b, GM_ENOSQRT, "compressed x without a square root");
        g->enc_u(b, &p);
        expect_reject(g, g->dec_u, b, GM_ENOTONCURVE, "uncompressed (x, 0) off the curve");
        /* a group point with y changed */
        g->rand_point(&p, &rng);
        g->enc_u(b, &p);
        b[2 * g->nc - 1] ^= 1;
        expect_reject(g, g->dec_u, b, GM_ENOTONCURVE, "uncompressed y off the curve");
        expect_reject(g, g->dec_u_unchecked, b, GM_ENOTONCURVE, "unchecked y off the curve");
        /* on the curve, outside the group: the unchecked variant takes it */
        g->rand_curve_point(&q, &rng);
        g->enc_c(b, &q);
        expect_reject(g, g->dec_c, b, GM_ESUBGROUP, "compressed point outside the group");
        g->enc_u(b, &q);
        expect_reject(g, g->dec_u, b, GM_ESUBGROUP, "uncompressed point outside the group");
        cr_assert_eq(g->dec_u_unchecked(&dec, b), GM_OK, "%s: unchecked skips the subgroup", g->name);
        cr_assert(g->eq(&dec, &q));
    }
}
