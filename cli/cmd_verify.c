/* cli/cmd_verify.c — `grothmpi verify`: checks a file of k proofs (192 bytes
 * each) against a verifying key and their public inputs (JSON: an array of
 * decimal strings for one proof, or an array of k such arrays). k > 1 is
 * batch-verified; when the batch fails, each proof is checked alone to name
 * the bad ones. Exit 0 when all verify, 1 otherwise.
 *
 * With --c1 FILE instead of --inputs, the proofs are PoRep partition proofs
 * (a sector proof: partitions concatenated, or one with --partition N) and
 * the inputs are derived from the C1's replica_id, comm_d, comm_r, seed and
 * SDR graph as rust-fil-proofs derives them (circuit_porep_c1_inputs). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "synth/porep/porep.h"
#include "circuits/circuits.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: grothmpi verify --vk FILE --proof FILE (--inputs FILE | --c1 FILE [--partition N])\n"
               "                       [--verbose]\n\n"
               "  --vk FILE       a verifying key (bellperson VerifyingKey encoding)\n"
               "  --proof FILE    k proofs of 192 bytes, concatenated\n"
               "  --inputs FILE   JSON: [\"x1\", ...] for one proof, [[...], ...] for k\n"
               "  --c1 FILE       PoRep: derive the inputs of each partition from this C1 JSON;\n"
               "                  the proof file holds all partitions in order, or one with\n"
               "  --partition N   (with --c1) the proof of partition N alone\n"
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
            return gm_err_set(err, GM_EFORMAT, "%s: proof %zu: input %zu is %s; each input is a decimal string "
                              "(\"5\"), as snarkjs writes public.json", path, row, j,
                              json_is_number(v) ? "a JSON number" : "not a string");
        int rc = fr_from_dec(&out[j], s);
        if (rc)
            return gm_err_set(err, rc, "%s: proof %zu: input %zu: '%s' is not a decimal field element < r", path,
                              row, j, s);
    }
    return 0;
}

/* The inputs of the proofs of a C1 (partition `part`, or all when part < 0)
 * into inputs[k * n]. */
static int c1_inputs(fr_t *inputs, size_t n, size_t k, const char *path, long part, const char *pfp, err_t *err)
{
    porep_c1_t c1;
    porep_graph_t g = {0};
    int rc = porep_c1_read(&c1, path, err);
    if (rc)
        return rc;
    size_t want = part >= 0 ? 1 : c1.partitions;
    if (circuit_porep_input_count(&c1) != n)
        rc = gm_err_set(err, GM_EINVAL, "%s: %zu public inputs per partition, the verifying key has %zu", path,
                        circuit_porep_input_count(&c1), n);
    else if (part >= (long)c1.partitions)
        rc = gm_err_set(err, GM_EINVAL, "--partition: %ld is not in 0..%u", part, c1.partitions - 1);
    else if (k != want)
        rc = gm_err_set(err, GM_EINVAL, "%s: %zu proofs, %s needs %zu (%s)", pfp, k, path, want,
                        part >= 0 ? "--partition" : "one per partition");
    else
        rc = circuit_porep_graph(&g, &c1, err);
    for (size_t i = 0; rc == 0 && i < k; i++)
        rc = circuit_porep_c1_inputs(inputs + i * n, &c1, &g, part >= 0 ? (unsigned)part : (unsigned)i, err);
    porep_graph_destroy(&g);
    porep_c1_free(&c1);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {{"vk", required_argument, 0, 'k'},     {"proof", required_argument, 0, 'p'},
                                         {"inputs", required_argument, 0, 'i'}, {"verbose", no_argument, 0, 'v'},
                                         {"help", no_argument, 0, 'h'},         {"c1", required_argument, 0, 'C'},
                                         {"partition", required_argument, 0, 'K'}, {0, 0, 0, 0}};
    const char *vkp = NULL, *pfp = NULL, *inp = NULL, *c1p = NULL;
    long part = -1;
    char *end;
    bool verbose = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'k': vkp = optarg; break;
        case 'p': pfp = optarg; break;
        case 'i': inp = optarg; break;
        case 'v': verbose = true; break;
        case 'C': c1p = optarg; break;
        case 'K':
            part = strtol(optarg, &end, 10);
            if (!*optarg || *end || part < 0) {
                fprintf(stderr, "grothmpi: verify: --partition: '%s' is not a partition number\n", optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!vkp || !pfp || !inp == !c1p || (part >= 0 && !c1p) || optind != argc) {
        fprintf(stderr, "grothmpi: verify: --vk, --proof and one of --inputs, --c1 are required\n");
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
    if (gm_file_read(&pb, &plen, pfp, &err))
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
    if (c1p) {
        if (c1_inputs(inputs, n, k, c1p, part, pfp, &err))
            goto fail;
    } else if (!(js = json_load_file(inp, 0, &jerr))) {
        /* jansson reads numbers as 64-bit integers: a field element written as a number fails here */
        gm_err_set(&err, GM_EFORMAT, "%s: line %d: %s%s", inp, jerr.line, jerr.text,
                   strstr(jerr.text, "too big") ? " (each input is a decimal string, \"123...\", as snarkjs writes "
                                                  "public.json, not a JSON number)"
                                                : "");
        goto fail;
    }
    bool nested = json_is_array(js) && json_array_size(js) > 0 && json_is_array(json_array_get(js, 0));
    if (c1p) {
        /* inputs derived above */
    } else if (k == 1 && !nested) {
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
