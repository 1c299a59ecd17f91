/* cli/cmd_prove.c — `grothmpi prove`: k proofs of a built-in circuit against
 * one cached parameter set (loaded once), each verified before the file is
 * written (atomically); the public inputs go to a snarkjs-style JSON file.
 *
 * The witnesses come from one place (make_witnesses): today the built-in
 * circuits with seeded witnesses; the PoRep form (--c1 FILE --partition N)
 * adds a branch there that turns C1's vanilla proofs into a witness. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "topo/topo.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi prove --params DIR --circuit NAME --out proof.bin [options]\n\n"
            "  --params DIR         the cache `grothmpi setup --out DIR` filled\n"
            "  --circuit NAME       test-mul | test-synthetic | test-sha256 | porep\n"
            "  --constraints N      test-synthetic: rows (as at setup)\n"
            "  --compressions N     test-sha256: compressions (as at setup)\n"
            "  --sector-size S      porep: sector size (as at setup)\n"
            "  --out FILE           the proofs, 192 bytes each, concatenated\n"
            "  --public FILE        public inputs as JSON (default: <out>.public.json):\n"
            "                       an array of decimal strings, or one per proof with --batch\n"
            "  --batch K            K proofs of K witnesses (seeds S, S+1, ...) (default 1)\n"
            "  --witness-seed S     the first witness's seed (default 1)\n"
            "  --threads N          worker threads (default: all CPUs)\n"
            "  --trust-params       skip the subgroup checks of the parameter points\n"
            "  --no-verify          do not verify each proof before writing it\n"
            "  --verbose            per-stage timings\n");
}

/* The witnesses of the run: k CS_WITNESS systems. */
static int make_witnesses(cs_t **cs, groth16_witness_t *w, const groth16_circuit_t *c, uint64_t seed, size_t k,
                          err_t *err)
{
    for (size_t i = 0; i < k; i++) {
        int rc = groth16_circuit_witness(&cs[i], c, seed + i, err);
        if (rc)
            return rc;
        w[i].inputs = cs_input_values(cs[i]);
        w[i].n_inputs = cs_num_inputs(cs[i]);
        w[i].aux = cs_aux_values(cs[i]);
        w[i].n_aux = cs_num_aux(cs[i]);
    }
    return 0;
}

static json_t *inputs_json(const groth16_witness_t *w)
{
    json_t *a = json_array();
    for (size_t j = 1; j < w->n_inputs; j++) {
        char buf[FR_DEC_MAX];
        fr_to_dec(buf, &w->inputs[j]);
        json_array_append_new(a, json_string(buf));
    }
    return a;
}

static double sec(uint64_t ns) { return (double)ns * 1e-9; }

int cmd_prove(int argc, char **argv)
{
    static const struct option opts[] = {
        {"params", required_argument, 0, 'p'}, {"circuit", required_argument, 0, 'c'},
        {"constraints", required_argument, 0, 'n'}, {"compressions", required_argument, 0, 'k'},
        {"sector-size", required_argument, 0, 'S'}, {"out", required_argument, 0, 'o'},
        {"public", required_argument, 0, 'P'}, {"batch", required_argument, 0, 'b'},
        {"witness-seed", required_argument, 0, 'w'}, {"threads", required_argument, 0, 't'},
        {"trust-params", no_argument, 0, 'T'}, {"no-verify", no_argument, 0, 'N'},
        {"verbose", no_argument, 0, 'v'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *dir = NULL, *circuit = NULL, *sector = NULL, *out = NULL, *pub = NULL;
    uint64_t size = 0, wseed = 1;
    long batch = 1;
    unsigned threads = 0;
    bool trust = false, noverify = false, verbose = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p': dir = optarg; break;
        case 'c': circuit = optarg; break;
        case 'n':
        case 'k': size = strtoull(optarg, NULL, 0); break;
        case 'S': sector = optarg; break;
        case 'o': out = optarg; break;
        case 'P': pub = optarg; break;
        case 'b': batch = strtol(optarg, NULL, 0); break;
        case 'w': wseed = strtoull(optarg, NULL, 0); break;
        case 't': threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'T': trust = true; break;
        case 'N': noverify = true; break;
        case 'v': verbose = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!dir || !circuit || !out || optind != argc) {
        fprintf(stderr, "grothmpi: prove: --params, --circuit and --out are required\n");
        usage(stderr);
        return 2;
    }
    if (batch < 1 || batch > 1024) {
        fprintf(stderr, "grothmpi: prove: --batch: %ld is not in 1..1024\n", batch);
        return 2;
    }
    size_t k = (size_t)batch;
    err_t err;
    gm_err_clear(&err);
    groth16_circuit_t circ;
    if (groth16_circuit_parse(&circ, circuit, size, sector, &err)) {
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        return 2;
    }
    char pp[4096], pubpath[4200];
    snprintf(pp, sizeof pp, "%s/%s.params", dir, circ.id);
    if (pub)
        snprintf(pubpath, sizeof pubpath, "%s", pub);
    else
        snprintf(pubpath, sizeof pubpath, "%s.public.json", out);

    int rc = 1;
    topo_pool_t *pool = NULL;
    cs_shape_t *shape = NULL;
    groth16_params_t *params = NULL;
    groth16_prover_t *pv = NULL;
    cs_t **cs = calloc(k, sizeof *cs);
    groth16_witness_t *w = calloc(k, sizeof *w);
    groth16_proof_t *proofs = calloc(k, sizeof *proofs);
    uint8_t *bytes = calloc(k, GROTH16_PROOF_BYTES);
    json_t *js = NULL;
    char *text = NULL;
    if (!cs || !w || !proofs || !bytes) {
        gm_err_set(&err, GM_ENOMEM, "out of memory");
        goto fail;
    }
    uint64_t t0 = gm_now_ns(), t1;
    if (topo_pool_create_flat(&pool, threads, &err))
        goto fail;
    if (cs_shape_load(&shape, dir, circ.id, &err))
        goto fail;
    if (groth16_params_load(&params, pp, shape, trust ? GROTH16_LOAD_TRUST : GROTH16_LOAD_DEFAULT, pool, &err))
        goto fail;
    if (groth16_prover_create(&pv, params, shape, pool, &err))
        goto fail;
    t1 = gm_now_ns();
    uint64_t t_load = t1 - t0;
    t0 = t1;
    if (make_witnesses(cs, w, &circ, wseed, k, &err))
        goto fail;
    t1 = gm_now_ns();
    uint64_t t_wit = t1 - t0;
    t0 = t1;
    groth16_timings_t tm;
    if (groth16_prove(pv, proofs, w, k, NULL, noverify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, pool, &tm,
                      &err))
        goto fail;
    t0 = gm_now_ns();
    for (size_t i = 0; i < k; i++)
        groth16_proof_to_bytes(bytes + i * GROTH16_PROOF_BYTES, &proofs[i]);
    if (k == 1) {
        js = inputs_json(&w[0]);
    } else {
        js = json_array();
        for (size_t i = 0; i < k; i++)
            json_array_append_new(js, inputs_json(&w[i]));
    }
    text = json_dumps(js, JSON_INDENT(1));
    if (!text) {
        gm_err_set(&err, GM_ENOMEM, "out of memory for the public inputs");
        goto fail;
    }
    /* Public inputs first: a proof file never exists without its inputs. */
    if (groth16_write_file(pubpath, text, strlen(text), &err) ||
        groth16_write_file(out, bytes, k * GROTH16_PROOF_BYTES, &err))
        goto fail;
    t1 = gm_now_ns();
    printf("prove: %s: %zu proof%s written to %s (%s), public inputs in %s\n", circ.id, k, k == 1 ? "" : "s", out,
           noverify ? "not verified" : "verified", pubpath);
    if (verbose) {
        printf("prove: %-10s %9.3f s   (params, shape, prover; %zu MiB of points, %u threads)\n", "load",
               sec(t_load), groth16_params_memory(params) >> 20, topo_pool_size(pool));
        printf("prove: %-10s %9.3f s\n", "witness", sec(t_wit));
        printf("prove: %-10s %9.3f s\n", "abc", sec(tm.abc));
        printf("prove: %-10s %9.3f s\n", "ntt", sec(tm.ntt));
        printf("prove: %-10s %9.3f s\n", "msm_a", sec(tm.msm_a));
        printf("prove: %-10s %9.3f s\n", "msm_b_g1", sec(tm.msm_b_g1));
        printf("prove: %-10s %9.3f s\n", "msm_b_g2", sec(tm.msm_b_g2));
        printf("prove: %-10s %9.3f s\n", "msm_l", sec(tm.msm_l));
        printf("prove: %-10s %9.3f s\n", "msm_h", sec(tm.msm_h));
        printf("prove: %-10s %9.3f s\n", "verify", sec(tm.verify));
        printf("prove: %-10s %9.3f s\n", "write", sec(t1 - t0));
        printf("prove: %-10s %9.3f s   (prove total, %.3f s per proof)\n", "total", sec(tm.total),
               sec(tm.total) / (double)k);
        printf("prove: memory peak %.1f MiB (allocator), rss peak %.1f MiB\n", (double)gm_mem_peak() / 1048576.0,
               (double)gm_rss_peak() / 1048576.0);
    }
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
    free(text);
    json_decref(js);
    for (size_t i = 0; cs && i < k; i++)
        cs_destroy(cs[i]);
    free(cs);
    free(w);
    free(proofs);
    free(bytes);
    groth16_prover_destroy(pv);
    groth16_params_free(params);
    cs_shape_free(shape);
    topo_pool_destroy(pool);
    return rc;
}
