/*
 * snarkjs/bin.c — the container every circom / snarkjs binary file
 * uses (@iden3/binfileutils): magic, version, then (id, size, data) sections
 * in any order; and the decoders of the little-endian Montgomery values and
 * points snarkjs stores ("LEM").
 *
 * Every size read from a file is checked against the bytes that remain
 * before anything is dereferenced, so a truncated or corrupt file gives an
 * error naming the section, never a read out of bounds.
 */
#include "snarkjs/snarkjs_internal.h"

/* r and q of BLS12-381, little-endian bytes. */
const uint8_t SJ_R_LE[32] = {
    0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
    0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73,
};
const uint8_t SJ_Q_LE[48] = {
    0xab, 0xaa, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xb9, 0xff, 0xff, 0x53, 0xb1, 0xfe, 0xff, 0xab, 0x1e,
    0x24, 0xf6, 0xb0, 0xf6, 0xa0, 0xd2, 0x30, 0x67, 0xbf, 0x12, 0x85, 0xf3, 0x84, 0x4b, 0x77, 0x64,
    0xd7, 0xac, 0x4b, 0x43, 0xb6, 0xa7, 0x1b, 0x4b, 0x9a, 0xe6, 0x7f, 0x39, 0xea, 0x11, 0x01, 0x1a,
};
/* BN254's r (circom's default prime) and q. */
const uint8_t SJ_BN_R_LE[32] = {
    0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30,
};
const uint8_t SJ_BN_Q_LE[32] = {
    0x47, 0xfd, 0x7c, 0xd8, 0x16, 0x8c, 0x20, 0x3c, 0x8d, 0xca, 0x71, 0x68, 0x91, 0x6a, 0x81, 0x97,
    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30,
};

const char *sj_prime_name(const uint8_t *prime, size_t n8)
{
    if (n8 == 32 && memcmp(prime, SJ_R_LE, 32) == 0)
        return "bls12381";
    if (n8 == 32 && memcmp(prime, SJ_BN_R_LE, 32) == 0)
        return "bn128";
    return "an unknown prime";
}

/* The curve of a prime as the files carry it (r or q, n8 bytes). */
static int curve_of_prime(snarkjs_curve_t *out, const uint8_t *p, uint32_t n8)
{
    if ((n8 == 32 && memcmp(p, SJ_R_LE, 32) == 0) || (n8 == 48 && memcmp(p, SJ_Q_LE, 48) == 0))
        *out = SNARKJS_BLS12381;
    else if (n8 == 32 && (memcmp(p, SJ_BN_R_LE, 32) == 0 || memcmp(p, SJ_BN_Q_LE, 32) == 0))
        *out = SNARKJS_BN128;
    else
        return GM_ENOTSUP;
    return 0;
}

const char *snarkjs_curve_name(snarkjs_curve_t c) { return c == SNARKJS_BN128 ? "bn128" : "bls12381"; }

int snarkjs_curve_of_bytes(snarkjs_curve_t *out, const uint8_t *buf, size_t n, const char *what, err_t *err)
{
    static const struct {
        const char *magic;
        unsigned sec;
        const char *name, *field;
    } kinds[4] = {{"zkey", 2, "header", "q"}, {"wtns", 1, "header", "prime"}, {"r1cs", 1, "header", "prime"},
                  {"ptau", 1, "header", "q"}};
    int k = -1;
    for (int i = 0; i < 4 && n >= 4; i++)
        if (memcmp(buf, kinds[i].magic, 4) == 0)
            k = i;
    if (k < 0)
        return gm_err_set(err, GM_EFORMAT, "%s: not a zkey, wtns, r1cs or ptau file (magic)", what);
    sj_bin_t b;
    int rc;
    if ((rc = sj_bin_parse(&b, buf, n, kinds[k].magic, UINT32_MAX, what, err)) ||
        (rc = sj_bin_need(&b, kinds[k].sec, UINT64_MAX, kinds[k].name, what, err)))
        return rc;
    const uint8_t *h = b.sec[kinds[k].sec];
    uint64_t hl = b.len[kinds[k].sec];
    /* zkey: section 1 is the protocol; the curve is in section 2. */
    uint32_t n8 = hl >= 4 ? sj_u32(h) : 0;
    if (hl < 4 || n8 > 64 || hl < 4 + (uint64_t)n8)
        return gm_err_set(err, GM_EFORMAT, "%s: section %u (%s): length %llu, too short for n8 and %s", what,
                          kinds[k].sec, kinds[k].name, (unsigned long long)hl, kinds[k].field);
    if (curve_of_prime(out, h + 4, n8))
        return gm_err_set(err, GM_ENOTSUP, "%s: section %u (%s): %s (%u bytes) is neither bn128's nor bls12381's",
                          what, kinds[k].sec, kinds[k].name, kinds[k].field, n8);
    return 0;
}

int snarkjs_curve_of_file(snarkjs_curve_t *out, const char *path, err_t *err)
{
    gm_map_t m;
    int rc = gm_file_map(&m, path, GM_MAP_NORMAL, err);
    if (rc)
        return rc;
    static const uint8_t empty[1];
    rc = snarkjs_curve_of_bytes(out, m.data ? m.data : empty, m.size, path, err);
    gm_file_unmap(&m);
    return rc;
}

int sj_bin_parse(sj_bin_t *out, const uint8_t *buf, size_t n, const char *magic, uint32_t max_version,
                 const char *what, err_t *err)
{
    memset(out, 0, sizeof *out);
    if (n < 12)
        return gm_err_set(err, GM_EFORMAT, "%s: %zu bytes, too short for a %s file header (12)", what, n, magic);
    if (memcmp(buf, magic, 4) != 0)
        return gm_err_set(err, GM_EFORMAT, "%s: magic '%c%c%c%c' is not '%s'", what,
                          buf[0] >= 32 && buf[0] < 127 ? buf[0] : '?', buf[1] >= 32 && buf[1] < 127 ? buf[1] : '?',
                          buf[2] >= 32 && buf[2] < 127 ? buf[2] : '?', buf[3] >= 32 && buf[3] < 127 ? buf[3] : '?',
                          magic);
    out->version = sj_u32(buf + 4);
    if (out->version == 0)
        return gm_err_set(err, GM_EFORMAT, "%s: version 0 is not a %s version", what, magic);
    if (out->version > max_version)
        return gm_err_set(err, GM_ENOTSUP, "%s: %s version %u is newer than the supported %u", what, magic,
                          out->version, max_version);
    out->nsections = sj_u32(buf + 8);
    size_t pos = 12;
    for (uint32_t i = 0; i < out->nsections; i++) {
        if (n - pos < 12)
            return gm_err_set(err, GM_EFORMAT, "%s: truncated: section header %u of %u at byte %zu needs 12 bytes, "
                              "%zu left", what, i, out->nsections, pos, n - pos);
        uint32_t id = sj_u32(buf + pos);
        uint64_t size = sj_u64(buf + pos + 4);
        pos += 12;
        if (size > n - pos)
            return gm_err_set(err, GM_EFORMAT, "%s: truncated: section %u is %llu bytes, %zu left in the file", what,
                              id, (unsigned long long)size, n - pos);
        if (id < SJ_MAX_SECTION) {
            if (out->sec[id])
                return gm_err_set(err, GM_EFORMAT, "%s: section %u appears twice", what, id);
            out->sec[id] = buf + pos;
            out->len[id] = size;
        }
        pos += (size_t)size;
    }
    if (pos != n)
        return gm_err_set(err, GM_EFORMAT, "%s: %zu trailing bytes after the %u sections", what, n - pos,
                          out->nsections);
    return 0;
}

int sj_bin_need(const sj_bin_t *b, unsigned id, uint64_t size, const char *name, const char *what, err_t *err)
{
    if (id >= SJ_MAX_SECTION || !b->sec[id])
        return gm_err_set(err, GM_EFORMAT, "%s: section %u (%s) is missing", what, id, name);
    if (size != UINT64_MAX && b->len[id] != size)
        return gm_err_set(err, GM_EFORMAT, "%s: section %u (%s): length %llu, expected %llu", what, id, name,
                          (unsigned long long)b->len[id], (unsigned long long)size);
    return 0;
}

int sj_bin_field_header(const sj_bin_t *b, uint64_t size, const uint8_t r_le[32], const char *curve,
                        const char *hint, const char *what, err_t *err)
{
    int rc;
    if ((rc = sj_bin_need(b, 1, UINT64_MAX, "header", what, err)))
        return rc;
    const uint8_t *h = b->sec[1];
    if (b->len[1] < 4)
        return gm_err_set(err, GM_EFORMAT, "%s: section 1 (header): length %llu, too short", what,
                          (unsigned long long)b->len[1]);
    uint32_t n8 = sj_u32(h);
    if (n8 != 32) {
        if (n8 <= 64 && b->len[1] >= 4 + (uint64_t)n8)
            return gm_err_set(err, GM_ENOTSUP, "%s: section 1 (header): field of %u bytes (%s), expected %s%s", what,
                              n8, sj_prime_name(h + 4, n8), curve, hint);
        return gm_err_set(err, GM_EFORMAT, "%s: section 1 (header): n8 %u is not 32", what, n8);
    }
    if (b->len[1] != size)
        return gm_err_set(err, GM_EFORMAT, "%s: section 1 (header): length %llu, expected %llu", what,
                          (unsigned long long)b->len[1], (unsigned long long)size);
    if (memcmp(h + 4, r_le, 32) != 0)
        return gm_err_set(err, GM_ENOTSUP, "%s: section 1 (header): the prime is %s's, expected %s%s", what,
                          sj_prime_name(h + 4, 32), curve, hint);
    return 0;
}

/* a < m for little-endian limbs. */
static bool limbs_lt(const uint64_t *a, const uint64_t *m, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != m[i])
            return a[i] < m[i];
    return false;
}

int sj_fp_from_mont_le(fp_t *out, const uint8_t in[48])
{
    fp_t t;
    for (int i = 0; i < FP_LIMBS; i++)
        t.l[i] = sj_u64(in + 8 * i);
    if (!limbs_lt(t.l, FP_MODULUS, FP_LIMBS))
        return GM_ENONCANON;
    *out = t;
    return 0;
}

int sj_fr_from_mont_le(fr_t *out, const uint8_t in[32])
{
    fr_t t;
    for (int i = 0; i < FR_LIMBS; i++)
        t.l[i] = sj_u64(in + 8 * i);
    if (!limbs_lt(t.l, FR_MODULUS, FR_LIMBS))
        return GM_ENONCANON;
    *out = t;
    return 0;
}

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* The raw decoders: all-zero bytes are the identity, else coordinates below q. */

int sj_g1_from_lem_raw(g1_affine_t *out, const uint8_t in[96])
{
    if (all_zero(in, 96)) {
        g1_affine_set_inf(out);
        return 0;
    }
    g1_affine_t p = {.inf = false};
    if (sj_fp_from_mont_le(&p.x, in) || sj_fp_from_mont_le(&p.y, in + 48))
        return GM_ENONCANON;
    *out = p;
    return 0;
}

int sj_g2_from_lem_raw(g2_affine_t *out, const uint8_t in[192])
{
    if (all_zero(in, 192)) {
        g2_affine_set_inf(out);
        return 0;
    }
    g2_affine_t p = {.inf = false};
    if (sj_fp_from_mont_le(&p.x.c0, in) || sj_fp_from_mont_le(&p.x.c1, in + 48) ||
        sj_fp_from_mont_le(&p.y.c0, in + 96) || sj_fp_from_mont_le(&p.y.c1, in + 144))
        return GM_ENONCANON;
    *out = p;
    return 0;
}

int sj_bn_g1_from_lem_raw(bn_g1_affine_t *out, const uint8_t in[64]) { return bn_g1_from_bytes_snarkjs_raw(out, in); }

int sj_bn_g2_from_lem_raw(bn_g2_affine_t *out, const uint8_t in[128]) { return bn_g2_from_bytes_snarkjs_raw(out, in); }

/* The checked decoders: the raw one, then the curve and, asked, the
 * subgroup (the identity passes both); *out written only on success. */
#define FROM_LEM(PFX, G, BYTES, IN_SUBGROUP)                                   \
    int PFX##_from_lem(G##_affine_t *out, const uint8_t in[BYTES], bool subgroup) \
    {                                                                          \
        G##_affine_t p;                                                        \
        int rc = PFX##_from_lem_raw(&p, in);                                   \
        if (rc)                                                                \
            return rc;                                                         \
        if (!G##_affine_on_curve(&p))                                          \
            return GM_ENOTONCURVE;                                             \
        if (subgroup && !IN_SUBGROUP(&p))                                      \
            return GM_ESUBGROUP;                                               \
        *out = p;                                                              \
        return 0;                                                              \
    }
/* Every point on BN254's G1 curve is in G1 (cofactor 1). */
#define BN_G1_IN_SUBGROUP(p) ((void)(p), true)
FROM_LEM(sj_g1, g1, 96, g1_affine_in_subgroup)
FROM_LEM(sj_g2, g2, 192, g2_affine_in_subgroup)
FROM_LEM(sj_bn_g1, bn_g1, 64, BN_G1_IN_SUBGROUP)
FROM_LEM(sj_bn_g2, bn_g2, 128, bn_g2_affine_in_subgroup)

const char *sj_point_err(int code)
{
    switch (code) {
    case GM_ENONCANON:
        return "a coordinate is not below q";
    case GM_ENOTONCURVE:
        return "not on the curve";
    case GM_ESUBGROUP:
        return "not in the subgroup";
    default:
        return gm_strerror(code);
    }
}
