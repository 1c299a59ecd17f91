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
 * present, u32 n8 = 32, prime[32] = r, and exactly `size` bytes long.
 * `hint` follows "only bls12381" in the messages (e.g. "" or
 * " (circom --prime bls12381)"). Returns 0, GM_EFORMAT or GM_ENOTSUP (another
 * field). */
int sj_bin_field_header(const sj_bin_t *b, uint64_t size, const char *hint, const char *what, err_t *err);

static inline uint32_t sj_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t sj_u64(const uint8_t *p) { return (uint64_t)sj_u32(p) | (uint64_t)sj_u32(p + 4) << 32; }

/* The moduli as 32 / 48 little-endian bytes (what the files carry). */
extern const uint8_t SJ_R_LE[32];
extern const uint8_t SJ_Q_LE[48];

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

/* Text of a point status for messages. */
const char *sj_point_err(int code);

/* ---- shared by zkey.c and zkey_slice.c ---- */

/* The zkey's container, sections 1 and 2 (protocol, header: the fields of
 * zk up to log_domain), the sizes of sections 3-9, nCoef (zk->n_coefs) and
 * the vk (zk->vk, allocated here: the caller frees it, also on failure),
 * all checked as snarkjs_zkey_from_bytes documents. *b points into buf.
 * Returns 0, GM_EFORMAT, GM_ENOTSUP, GM_ENONCANON, GM_ENOTONCURVE,
 * GM_ESUBGROUP, GM_ENOMEM. */
int sj_zkey_header(snarkjs_zkey_t *zk, sj_bin_t *b, const uint8_t *buf, size_t n, const char *what, err_t *err);

/* Entry i (< zk->n_coefs) of section 4 into *c, checked (matrix, constraint,
 * signal, value < r). Returns 0 or GM_EFORMAT naming the entry. */
int sj_zkey_coef(snarkjs_coef_t *c, const sj_bin_t *b, const snarkjs_zkey_t *zk, uint64_t i, const char *what,
                 err_t *err);

/* n points at in (96 or 192 bytes each) decoded on pool into *out
 * (gm_alloc'd; NULL on failure); the first bad one in file order is
 * reported as point first + its index ("what: section 5 (PointsA): point
 * 17: not on the curve"). Returns 0, GM_ENONCANON, GM_ENOTONCURVE,
 * GM_ESUBGROUP or GM_ENOMEM. */
int sj_decode_points(void **out, const uint8_t *in, uint64_t n, uint64_t first, bool g2, bool subgroup, unsigned sec,
                     const char *name, const char *what, topo_pool_t *pool, err_t *err);

#endif /* GM_SNARKJS_INTERNAL_H */
