/* cli/cmd_verify.c — `grothmpi verify`: checks a file of k proofs (192 bytes
 * each) against a verifying key and their public inputs (JSON: an array of
 * decimal strings for one proof, or an array of k such arrays). k > 1 is
 * batch-verified; when the batch fails, each proof is checked alone to name
 * the bad ones. Exit 0 when all verify, 1 otherwise. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi verify --vk FILE --proof FILE --inputs FILE [--verbose]\n\n"
               "  --vk FILE       a verifying key (bellperson VerifyingKey encoding)\n"
               "  --proof FILE    k proofs of 192 bytes, concatenated\n"
               "  --inputs FILE   JSON: [\"x1\", ...] for one proof, [[...], ...] for k\n"
               "  --verbose       timings\n");
}

/* Reads row `row` (JSON array of decimal strings) into out[n]. */
static int parse_row(fr_t *out, size_t n, json_t *arr, const char *path, size_t row, err_t *err)
{
    if (!json_is_array(arr))
        return gm_err_set(err, GM_EFORMAT, "%s: proof %zu: the inputs are not an array", path, row);
    if (json_array_size(arr) != n)
        return gm_err_set(err, GM_EINVAL, "%s: proof %zu: %zu public inputs, the verifying key has %zu", path, row,
                          json_array_size(arr), n);
    for (size_t j = 0; j < n; j++) {
        json_t *v = json_array_get(arr, j);
        const char *s = json_string_value(v);
        if (!s)
            return gm_err_set(err, GM_EFORMAT, "%s: proof %zu: input %zu is not a string", path, row, j);
        int rc = fr_from_dec(&out[j], s);
        if (rc)
            return gm_err_set(err, rc, "%s: proof %zu: input %zu: '%s' is not a decimal field element < r", path,
                              row, j, s);
    }
    return 0;
}

int cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {{"vk", required_argument, 0, 'k'},     {"proof", required_argument, 0, 'p'},
                                         {"inputs", required_argument, 0, 'i'}, {"verbose", no_argument, 0, 'v'},
                                         {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    const char *vkp = NULL, *pfp = NULL, *inp = NULL;
    bool verbose = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'k': vkp = optarg; break;
        case 'p': pfp = optarg; break;
        case 'i': inp = optarg; break;
        case 'v': verbose = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!vkp || !pfp || !inp || optind != argc) {
        fprintf(stderr, "grothmpi: verify: --vk, --proof and --inputs are required\n");
        usage(stderr);
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    int rc = 1;
    groth16_vk_t vk = {0};
    groth16_pvk_t pvk = {0};
    uint8_t *pb = NULL;
    size_t plen = 0;
    groth16_proof_t *proofs = NULL;
    fr_t *inputs = NULL;
    json_t *js = NULL;
    uint64_t t0 = gm_now_ns();
    if (groth16_vk_load(&vk, vkp, &err) || groth16_pvk_prepare(&pvk, &vk, &err))
        goto fail;
    if (groth16_read_file(&pb, &plen, pfp, &err))
        goto fail;
    if (plen == 0 || plen % GROTH16_PROOF_BYTES) {
        gm_err_set(&err, GM_EFORMAT, "%s: %zu bytes is not a positive multiple of %d (one proof)", pfp, plen,
                   GROTH16_PROOF_BYTES);
        goto fail;
    }
    size_t k = plen / GROTH16_PROOF_BYTES, n = vk.n_ic ? vk.n_ic - 1 : 0;
    proofs = calloc(k, sizeof *proofs);
    inputs = calloc(k * n + 1, sizeof *inputs);
    if (!proofs || !inputs) {
        gm_err_set(&err, GM_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < k; i++) {
        char what[4200];
        snprintf(what, sizeof what, "%s: proof %zu", pfp, i);
        if (groth16_proof_from_bytes(&proofs[i], pb + i * GROTH16_PROOF_BYTES, what, &err))
            goto fail;
    }
    json_error_t jerr;
    js = json_load_file(inp, 0, &jerr);
    if (!js) {
        gm_err_set(&err, GM_EFORMAT, "%s: line %d: %s", inp, jerr.line, jerr.text);
        goto fail;
    }
    bool nested = json_is_array(js) && json_array_size(js) > 0 && json_is_array(json_array_get(js, 0));
    if (k == 1 && !nested) {
        if (parse_row(inputs, n, js, inp, 0, &err))
            goto fail;
    } else {
        if (!json_is_array(js) || json_array_size(js) != k) {
            gm_err_set(&err, GM_EINVAL, "%s: %zu rows of inputs, %s holds %zu proofs", inp,
                       json_is_array(js) ? json_array_size(js) : 0, pfp, k);
            goto fail;
        }
        for (size_t i = 0; i < k; i++)
            if (parse_row(inputs + i * n, n, json_array_get(js, i), inp, i, &err))
                goto fail;
    }
    uint64_t t1 = gm_now_ns();
    int vr = k == 1 ? groth16_verify(&pvk, &proofs[0], inputs, n, &err)
                    : groth16_verify_batch(&pvk, proofs, inputs, n, k, &err);
    if (vr == GM_EVERIFY) {
        size_t bad = 0;
        for (size_t i = 0; i < k; i++)
            if (groth16_verify(&pvk, &proofs[i], inputs + i * n, n, &err) != 0) {
                fprintf(stderr, "grothmpi: verify: %s: proof %zu: does not verify\n", pfp, i);
                bad++;
            }
        fprintf(stderr, "grothmpi: verify: %zu of %zu proofs do not verify\n", bad ? bad : k, k);
        rc = 1;
        goto done;
    }
    if (vr)
        goto fail;
    uint64_t t2 = gm_now_ns();
    printf("verify: %s: %zu proof%s OK\n", pfp, k, k == 1 ? "" : "s");
    if (verbose)
        printf("verify: load %.3f ms, verify %.3f ms (%s)\n", (double)(t1 - t0) * 1e-6, (double)(t2 - t1) * 1e-6,
               k == 1 ? "single" : "batch");
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "grothmpi: verify: %s\n", err.msg);
    rc = 1;
done:
    json_decref(js);
    free(proofs);
    free(inputs);
    gm_free(pb);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
    return rc;
}
