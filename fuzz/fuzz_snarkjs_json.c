/* fuzz/fuzz_snarkjs_json.c — snarkjs's JSON files as grothmpi reads them
 * (groth16/groth16.h): proof.json (snarkjs_proof_read_json), public.json
 * (snarkjs_public_read_json), verification_key.json (snarkjs_vk_read_json)
 * and BN254's (snarkjs_bn_*: "curve": "bn128"), through a file in the
 * temporary directory.
 * Input: byte 0 selects the reader (0 proof, 1 public, 2 vk; 3, 4, 5 the
 * same for BN254), the rest is the file.
 * Properties: a read proof is written as proof.json text and read back to the
 * same 192-byte encoding; read public values are written as public.json and
 * read back equal; a refusal is a documented status with a message; nothing
 * leaks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

FUZZ_INIT_FF_ONLY()

static int documented(int rc)
{
    return rc == GM_EIO || rc == GM_EFORMAT || rc == GM_ENONCANON || rc == GM_ENOTONCURVE || rc == GM_ESUBGROUP ||
           rc == GM_ENOTSUP || rc == GM_ENOMEM;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *in = fuzz_write("in.json", data + 1, size - 1);
    char path[4200], back[4300];
    snprintf(path, sizeof path, "%s", in);
    snprintf(back, sizeof back, "%s/back.json", fuzz_tmpdir());
    err_t err;
    gm_err_clear(&err);
    int rc;
    switch (data[0] % 6) {
    case 0: {
        groth16_proof_t p, q;
        rc = snarkjs_proof_read_json(&p, path, &err);
        if (rc)
            break;
        if (snarkjs_proof_write_json(back, &p, &err) != 0)
            fuzz_fail("snarkjs_proof_write_json: %s", err.msg);
        if (snarkjs_proof_read_json(&q, back, &err) != 0)
            fuzz_fail("written proof.json does not read back: %s", err.msg);
        uint8_t a[GROTH16_PROOF_BYTES], b[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(a, &p);
        groth16_proof_to_bytes(b, &q);
        FUZZ_CHECK(memcmp(a, b, sizeof a) == 0, "proof.json does not round-trip");
        break;
    }
    case 1: {
        fr_t *v = NULL, *u = NULL;
        size_t n = 0, m = 0;
        rc = snarkjs_public_read_json(&v, &n, path, &err);
        if (rc)
            break;
        if (snarkjs_public_write_json(back, v, n, &err) != 0)
            fuzz_fail("snarkjs_public_write_json: %s", err.msg);
        if (snarkjs_public_read_json(&u, &m, back, &err) != 0)
            fuzz_fail("written public.json does not read back: %s", err.msg);
        FUZZ_CHECK(m == n, "public.json count does not round-trip");
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(fr_eq(&u[i], &v[i]), "public.json value does not round-trip");
        gm_free(v);
        gm_free(u);
        break;
    }
    case 3: {
        snarkjs_bn_proof_t p, q;
        rc = snarkjs_bn_proof_read_json(&p, path, &err);
        if (rc)
            break;
        if (snarkjs_bn_proof_write_json(back, &p, &err) != 0)
            fuzz_fail("snarkjs_bn_proof_write_json: %s", err.msg);
        if (snarkjs_bn_proof_read_json(&q, back, &err) != 0)
            fuzz_fail("written bn128 proof.json does not read back: %s", err.msg);
        FUZZ_CHECK(bn_g1_affine_eq(&p.a, &q.a) && bn_g2_affine_eq(&p.b, &q.b) && bn_g1_affine_eq(&p.c, &q.c),
                   "bn128 proof.json does not round-trip");
        break;
    }
    case 4: {
        bn_fr_t *v = NULL, *u = NULL;
        size_t n = 0, m = 0;
        rc = snarkjs_bn_public_read_json(&v, &n, path, &err);
        if (rc)
            break;
        if (snarkjs_bn_public_write_json(back, v, n, &err) != 0)
            fuzz_fail("snarkjs_bn_public_write_json: %s", err.msg);
        if (snarkjs_bn_public_read_json(&u, &m, back, &err) != 0)
            fuzz_fail("written bn128 public.json does not read back: %s", err.msg);
        FUZZ_CHECK(m == n, "bn128 public.json count does not round-trip");
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(bn_fr_eq(&u[i], &v[i]), "bn128 public.json value does not round-trip");
        gm_free(v);
        gm_free(u);
        break;
    }
    case 5: {
        snarkjs_bn_vk_t vk;
        rc = snarkjs_bn_vk_read_json(&vk, path, &err);
        if (rc) {
            FUZZ_CHECK(vk.ic == NULL && vk.n_ic == 0, "bn128 vk not zeroed after a failure");
            break;
        }
        FUZZ_CHECK(vk.n_ic >= 1, "bn128 vk without IC");
        snarkjs_bn_vk_free(&vk);
        break;
    }
    default: {
        groth16_vk_t vk;
        rc = snarkjs_vk_read_json(&vk, path, &err);
        if (rc) {
            FUZZ_CHECK(vk.ic == NULL && vk.n_ic == 0, "vk not zeroed after a failure");
            break;
        }
        FUZZ_CHECK(vk.n_ic >= 1, "vk without IC");
        groth16_vk_free(&vk);
        break;
    }
    }
    if (rc) {
        FUZZ_CHECK(documented(rc), "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
    }
    return 0;
}
