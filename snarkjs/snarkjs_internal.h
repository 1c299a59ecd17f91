/*
 * snarkjs/snarkjs_internal.h — shared by the files of snarkjs/ only: the
 * "binfile" container of circom and snarkjs (@iden3/binfileutils) and the
 * little-endian field decoders of their files.
 */
#ifndef GM_SNARKJS_INTERNAL_H
#define GM_SNARKJS_INTERNAL_H

#include <string.h>

#include "snarkjs/snarkjs.h"

/* The largest section id we index (zkey uses 1..10, r1cs 1..5, ptau 1..15). */
#define SJ_MAX_SECTION 16

/* A parsed container: the sections' data as pointers into the caller's
 * bytes (not copied). sec[id] is NULL when the file has no section id. */
typedef struct {
    uint32_t version;
    uint32_t nsections;
    const uint8_t *sec[SJ_MAX_SECTION];
    uint64_t len[SJ_MAX_SECTION];
} sj_bin_t;

/* Parses the container header of buf[0 .. n): magic (4 chars), version
 * (1 .. max_version), the section table up to the end of the file. Every
 * section must lie inside the file, the table must end exactly at the end of
 * the file, a section id may appear once; ids >= SJ_MAX_SECTION are skipped.
 * Returns 0 or GM_EFORMAT ("what: ..."), GM_ENOTSUP (version too new). */
int sj_bin_parse(sj_bin_t *out, const uint8_t *buf, size_t n, const char *magic, uint32_t max_version,
                 const char *what, err_t *err);

/* Requires section id to be present, with exactly `size` bytes when size !=
 * UINT64_MAX. `name` names it in messages ("section 2 (header)"). */
int sj_bin_need(const sj_bin_t *b, unsigned id, uint64_t size, const char *name, const char *what, err_t *err);

/* Checks section 1 of a circom file that opens with the field (r1cs, wtns):
 * present, u32 n8 = 32, prime[32] = r_le (the reader's curve, named `curve`),
 * and exactly `size` bytes long. `hint` follows the curve's name in the
 * messages (e.g. "" or " (circom --prime bn128)"). Returns 0, GM_EFORMAT or
 * GM_ENOTSUP (another field, named). */
int sj_bin_field_header(const sj_bin_t *b, uint64_t size, const uint8_t r_le[32], const char *curve,
                        const char *hint, const char *what, err_t *err);

static inline uint32_t sj_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t sj_u64(const uint8_t *p) { return (uint64_t)sj_u32(p) | (uint64_t)sj_u32(p + 4) << 32; }

/* The moduli as 32 / 48 little-endian bytes (what the files carry):
 * BLS12-381's r and q, BN254's r and q. */
extern const uint8_t SJ_R_LE[32];
extern const uint8_t SJ_Q_LE[48];
extern const uint8_t SJ_BN_R_LE[32];
extern const uint8_t SJ_BN_Q_LE[32];

/* Names the curve of a 32-byte little-endian prime for messages: "bn128",
 * "bls12381" or "an unknown prime". */
const char *sj_prime_name(const uint8_t *prime, size_t n8);

/* A raw Montgomery value (limbs as stored, x R mod m) into fp_t / fr_t:
 * returns GM_ENONCANON when >= the modulus. Our fp_t / fr_t are Montgomery
 * with the same R (2^384, 2^256), so this is a copy and a range check. */
int sj_fp_from_mont_le(fp_t *out, const uint8_t in[48]);
int sj_fr_from_mont_le(fr_t *out, const uint8_t in[32]);

/* Decodes a zkey G1 / G2 point (LEM: Montgomery LE coordinates, all-zero
 * bytes for infinity) and checks that the coordinates are canonical and the
 * point is on the curve; with subgroup also the subgroup. Returns 0,
 * GM_ENONCANON, GM_ENOTONCURVE or GM_ESUBGROUP. */
int sj_g1_from_lem(g1_affine_t *out, const uint8_t in[96], bool subgroup);
int sj_g2_from_lem(g2_affine_t *out, const uint8_t in[192], bool subgroup);
/* The same with the canonical check only (0 or GM_ENONCANON), for a
 * decoder that checks many points against the curve at once
 * (G_first_off_curve, ec/ec.h). */
int sj_g1_from_lem_raw(g1_affine_t *out, const uint8_t in[96]);
int sj_g2_from_lem_raw(g2_affine_t *out, const uint8_t in[192]);

/* The same for BN254 (snarkjs's bn128: 32-byte coordinates, G1 64 and G2
 * 128 bytes). Every point on BN254's G1 curve is in G1, so subgroup only
 * matters for G2. */
int sj_bn_g1_from_lem(bn_g1_affine_t *out, const uint8_t in[64], bool subgroup);
int sj_bn_g2_from_lem(bn_g2_affine_t *out, const uint8_t in[128], bool subgroup);
int sj_bn_g1_from_lem_raw(bn_g1_affine_t *out, const uint8_t in[64]);
int sj_bn_g2_from_lem_raw(bn_g2_affine_t *out, const uint8_t in[128]);

/* Text of a point status for messages. */
const char *sj_point_err(int code);

/* A streamed key's (SNARKJS_ZKEY_STREAM) parts, read when one proof needs
 * them (snarkjs/prove_shape.h), on pool and checked as a whole key's are at
 * load (the same messages); the file's pages they came from leave memory.
 * _abc: vec[0], vec[1] (domainSize elements each) = the rows of A and B over
 * the witness w from section 4's entries, the row of constraint c at index
 * perm c mod domainSize. _points: the points of section s, gm_alloc'd into
 * *out (NULL on failure). Return 0 or the load's codes. */
int sj_zkey_stream_abc(const snarkjs_zkey_t *zk, const fr_t *w, fr_t *vec[2], uint64_t perm, topo_pool_t *pool,
                       err_t *err);
int sj_zkey_stream_points(void **out, const snarkjs_zkey_t *zk, snarkjs_section_t s, topo_pool_t *pool, err_t *err);
int sj_bn_zkey_stream_abc(const snarkjs_bn_zkey_t *zk, const bn_fr_t *w, bn_fr_t *vec[2], uint64_t perm,
                          topo_pool_t *pool, err_t *err);
int sj_bn_zkey_stream_points(void **out, const snarkjs_bn_zkey_t *zk, snarkjs_section_t s, topo_pool_t *pool,
                             err_t *err);

/* ---- the curve of a template instance --------------------------------------------------------
 * The readers, writers and the prover are written once (the templates snarkjs/zkey_shape.h, ...)
 * and instantiated per curve: snarkjs/zkey.c, wtns.c, r1cs.c, json.c and
 * prove.c for BLS12-381 under the snarkjs_* names, snarkjs/bn_*.c for BN254
 * under snarkjs_bn_*. A .c file of BN254 defines SJ_BN128 before including
 * this header; the macros below then name BN254's types and functions:
 *   SJ_FR(x), SJ_FP(x), SJ_FP2(x), SJ_G1(x), SJ_G2(x)   fr_x / bn_fr_x, ...
 *   SJ_API(x)      snarkjs_x / snarkjs_bn_x (the public types)
 *   SJ_CURVE       "bls12381" / "bn128" (as snarkjs names it in JSON and messages)
 *   SJ_N8Q         bytes of a base field element in the files (48 / 32)
 *   SJ_Q_BYTES, SJ_R_BYTES    the moduli as the files carry them
 *   SJ_FP_LIMBS    64-bit limbs of a base field element (6 / 4)
 *   SJ_DEC_MAX     a buffer for the decimal text of any field element
 *   SJ_LEM(g)      the zkey point decoder of group g (g1, g2)
 *   SJ_LEM_RAW(g)  the same without the curve check
 *   SJ_STREAM(x)   a streamed zkey's section decoders (coefs, points)
 *   SJ_VK_T, SJ_PROOF_T, SJ_VK_FREE   groth16_vk_t, ... / snarkjs_bn_vk_t, ...
 *   SJ_G1_IN_SUBGROUP(p)   G1 membership (BN254: every point on the curve)
 *   SJ_FR_FROM_MONT   an Fr element from its 32 Montgomery bytes (range-checked)
 *   SJ_MAX_LOG_DOMAIN  the largest zkey domain the prover takes: 2^28, BN254's
 *                  2^27 (its odd coset needs a 2^(k+1)-th root of unity; Fr's
 *                  two-adicity is 28, as for snarkjs) */
#ifdef SJ_BN128
#define SJ_FR(x) bn_fr_##x
#define SJ_FP(x) bn_fp_##x
#define SJ_FP2(x) bn_fp2_##x
#define SJ_G1(x) bn_g1_##x
#define SJ_G2(x) bn_g2_##x
#define SJ_API(x) snarkjs_bn_##x
#define SJ_LEM(g) sj_bn_##g##_from_lem
#define SJ_LEM_RAW(g) sj_bn_##g##_from_lem_raw
#define SJ_STREAM(x) sj_bn_zkey_stream_##x
#define SJ_CURVE "bn128"
#define SJ_N8Q 32
#define SJ_Q_BYTES SJ_BN_Q_LE
#define SJ_R_BYTES SJ_BN_R_LE
#define SJ_FP_LIMBS BN254_LIMBS
#define SJ_DEC_MAX BN254_DEC_MAX
#define SJ_FR_ONE BN254_FR_ONE
#define SJ_FR_ZERO BN254_FR_ZERO
#define SJ_FP_ONE BN254_FP_ONE
#define SJ_FP2_ZERO BN254_FP2_ZERO
#define SJ_FP2_ONE BN254_FP2_ONE
#define SJ_VK_T snarkjs_bn_vk_t
#define SJ_PROOF_T snarkjs_bn_proof_t
#define SJ_VK_FREE snarkjs_bn_vk_free
#define SJ_MAX_LOG_DOMAIN 27
#define SJ_G1_IN_SUBGROUP(p) ((void)(p), true)
#define SJ_FR_FROM_MONT bn_fr_from_mont_le
#else
#define SJ_FR(x) fr_##x
#define SJ_FP(x) fp_##x
#define SJ_FP2(x) fp2_##x
#define SJ_G1(x) g1_##x
#define SJ_G2(x) g2_##x
#define SJ_API(x) snarkjs_##x
#define SJ_LEM(g) sj_##g##_from_lem
#define SJ_LEM_RAW(g) sj_##g##_from_lem_raw
#define SJ_STREAM(x) sj_zkey_stream_##x
#define SJ_CURVE "bls12381"
#define SJ_N8Q 48
#define SJ_Q_BYTES SJ_Q_LE
#define SJ_R_BYTES SJ_R_LE
#define SJ_FP_LIMBS FP_LIMBS
#define SJ_DEC_MAX FP_DEC_MAX
#define SJ_FR_ONE FR_ONE
#define SJ_FR_ZERO FR_ZERO
#define SJ_FP_ONE FP_ONE
#define SJ_FP2_ZERO FP2_ZERO
#define SJ_FP2_ONE FP2_ONE
#define SJ_VK_T groth16_vk_t
#define SJ_PROOF_T groth16_proof_t
#define SJ_VK_FREE groth16_vk_free
#define SJ_MAX_LOG_DOMAIN 28
#define SJ_G1_IN_SUBGROUP(p) g1_affine_in_subgroup(p)
#define SJ_FR_FROM_MONT sj_fr_from_mont_le
#endif
#define SJ_G1_BYTES (2 * SJ_N8Q)
#define SJ_G2_BYTES (4 * SJ_N8Q)

/* A section-4 coefficient's class: 1, -1, or another value. */
typedef enum { SJ_COEF_ONE, SJ_COEF_MINUS_ONE, SJ_COEF_OTHER } sj_coef_kind_t;

/* dst += v x for one section-4 entry: v of class kind (its value *v read
 * only for SJ_COEF_OTHER), x != 0 its signal's value. Why: circom's
 * coefficients are mostly +-1 and its witnesses mostly bits (SHA-256 at
 * 2^16: 1 or -1 in 77 % of the entries, x = 1 in 56 %), so most
 * entries cost one addition and no product. Used by the prover on decoded
 * entries and by a streamed key's reader on the file's. */
static inline void sj_coef_apply(SJ_FR(t) *dst, const SJ_FR(t) *x, sj_coef_kind_t kind, const SJ_FR(t) *v)
{
    if (kind == SJ_COEF_ONE) {
        SJ_FR(add)(dst, dst, x);
    } else if (kind == SJ_COEF_MINUS_ONE) {
        SJ_FR(sub)(dst, dst, x);
    } else if (SJ_FR(is_one)(x)) {
        SJ_FR(add)(dst, dst, v);
    } else {
        SJ_FR(t) t;
        SJ_FR(mul)(&t, v, x);
        SJ_FR(add)(dst, dst, &t);
    }
}

/* ---- JSON layout, shared by every curve's json_shape.h (snarkjs/json.c) ---- */

/* A growing text; oom set (and further output dropped) when gm_alloc fails. */
typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} sj_sbuf_t;

void sj_sb_put(sj_sbuf_t *s, const char *t);
/* One string element at nesting depth d (d spaces), with a comma unless last. */
void sj_sb_str(sj_sbuf_t *s, int d, const char *v, bool last);
/* "[" (after "key": when key is not NULL) and "]" (with a comma unless last) at depth d. */
void sj_sb_open(sj_sbuf_t *s, int d, const char *key);
void sj_sb_close(sj_sbuf_t *s, int d, bool last);
struct json_t;
/* A JSON number or a decimal / "0x" hex string into 6 little-endian limbs.
 * Returns 0, or GM_EFORMAT (not a number, negative, or >= 2^384). */
int sj_json_int(uint64_t out[6], const struct json_t *v);
/* The JSON file at path (GM_EIO unreadable, GM_EFORMAT naming the line). */
int sj_json_load(struct json_t **out, const char *path, err_t *err);
/* Member key of object o, or NULL with GM_EFORMAT in err ("what: key is missing"). */
const struct json_t *sj_json_key(const struct json_t *o, const char *key, const char *what, err_t *err);

#endif /* GM_SNARKJS_INTERNAL_H */
