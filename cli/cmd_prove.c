/* cli/cmd_prove.c — `grothmpi prove`: k proofs of a built-in circuit against
 * one cached parameter set (loaded once), each verified before the file is
 * written (atomically); the public inputs go to a snarkjs-style JSON file.
 *
 * cmd_prove reads the options once and hands them to one function per
 * form: prove_single (this file), the split form (prove_split, through
 * cmd_prove_split.c), and the campaign alias `grothmpi prove CAMPAIGN`
 * (cmd_campaign_run.c), which is chosen before any option is read.
 *
 * The witnesses are the built-in circuits' seeded ones, or with --c1 FILE
 * [--partition N] one per partition of a C1 (circuit_witness, which checks
 * their public inputs against those a verifier derives); the proofs of all
 * partitions, concatenated, are the sector proof. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "circuits/circuits.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "params/params.h"
#include "synth/porep/porep.h"
#include "synth/synth.h"
#include "topo/topo.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi prove --params DIR (--circuit NAME | --c1 FILE) --out proof.bin [options]\n"
            "       [mpirun -np R] grothmpi prove --params DIR --circuit NAME --out proof.bin --split [options]\n"
            "       [mpirun -np N] grothmpi prove CAMPAIGN [--mem-budget SIZE] [--threads N] [--check-params]\n\n"
            "The third form is an alias of `grothmpi campaign run CAMPAIGN` (grothmpi campaign run --help):\n"
            "it is taken when the first argument is not an option, or with --campaign FILE.\n"
            "Exit status: 0 done, 1 failed, 2 usage (also --backend cuda without a device).\n\n"
            "  --params DIR         the cache `grothmpi setup --out DIR` filled, or for porep a\n"
            "                       directory of Filecoin's v28 files (/var/tmp/filecoin-proof-parameters):\n"
            "                       its .params is found by rust-fil-proofs' name for the sector size\n"
            "  --circuit NAME       test-mul | test-synthetic | test-sha256 | porep\n"
            "  --constraints N      test-synthetic: rows (as at setup)\n"
            "  --compressions N     test-sha256: compressions (as at setup)\n"
            "  --sector-size S      porep: sector size (as at setup)\n"
            "  --c1 FILE            porep: prove the partitions of a C1 file (SealCommitPhase1Output\n"
            "                       JSON); the circuit follows from it (--circuit not needed)\n"
            "  --partition N        with --c1: only partition N (default: all, in order)\n"
            "  --out FILE           the proofs, 192 bytes each, concatenated\n"
            "  --proof-format F     raw (default), hex or base64: how --out holds them (hex and\n"
            "                       base64 as lotus-bench prints proofs; porep verify-seal reads all three)\n"
            "  --public FILE        public inputs as JSON (default: <out>.public.json):\n"
            "                       an array of decimal strings, or one per proof with --batch\n"
            "  --batch K            K proofs of K witnesses (seeds S, S+1, ...) (default 1)\n"
            "  --witness-seed S     the first witness's seed (default 1)\n"
            "  --threads N          worker threads (default: all CPUs)\n"
            "  --trust-params       skip the subgroup checks of the parameter points (by default\n"
            "                       they are skipped only for a digest vouched for: the .checked\n"
            "                       stamp our setup or an earlier full check wrote, or Filecoin's\n"
            "                       parameters.json beside the file; any other file is checked once)\n"
            "  --no-verify          do not verify each proof before writing it (proofs made\n"
            "                       with a GPU are verified all the same)\n"
            "  --backend B          auto | cpu | cuda | emulate: where the G1 MSMs and NTTs run\n"
            "                       (default auto: CUDA when a device answers, else the CPU, said\n"
            "                       in one line; cuda without a device: exit 2; emulate: the GPU\n"
            "                       code emulated on the host, for tests; docs/gpu.md)\n"
            "  --verbose            per-stage timings\n"
            "  --proof-seed S       r and s derived from S (proof i: S + i) instead of drawn at random:\n"
            "                       the same bytes on every run; for tests only (r, s known = witness known)\n"
            "  --split              [mpirun -np R] prove one witness on all R ranks, each holding 1/R of\n"
            "                       every query of the key (docs/split.md); --json: the per-rank accounts\n"
            "                       as JSON on stdout; before any slice is read, the first rank of each\n"
            "                       node checks the whole parameter file's digest against the cache's\n"
            "                       manifest (skipped when its stamp says the file is unchanged)\n"
            "  --check-params       hash the parameter file and check every point whatever the\n"
            "                       stamps say (with --split: hash it even when its stamp matches)\n"
            "Converted points: a load writes them beside the file (<params>.points, mapped by the\n"
            "next load) when the disk keeps 10 %% free; GROTHMPI_POINTS_CACHE=on|off|auto.\n"
            "Streamed parameters: a key whose points would take more than half of this node's\n"
            "memory (a 32 GiB PoRep key: 47.6 GiB) stays in its file and each MSM reads it once,\n"
            "a chunk at a time (--verbose: the bytes read); GROTHMPI_PARAMS_STREAM=on|off|auto.\n");
}

/* The options of the single-proof and split forms. */
typedef struct {
    const char *dir, *circuit, *sector, *out, *pub, *backend, *c1path, *part, *format, *proof_seed;
    uint64_t size, wseed, rs_seed;
    long batch;
    unsigned threads;
    bool trust, noverify, verbose, split, json, check;
} prove_opts_t;

/* The checks of o that need no file. Returns -1 to go on, else 2 after the
 * error line (and the usage, when a required option is missing). */
static int prove_check(prove_opts_t *o, int argc, char **argv)
{
    char *end = NULL;
    if (optind != argc) {
        /* the campaign alias is chosen by the first argument only */
        fprintf(stderr, "grothmpi: prove: '%s' is not an option; a campaign file goes first (grothmpi prove "
                        "CAMPAIGN [options]), or use grothmpi campaign run CAMPAIGN\n", argv[optind]);
        return 2;
    }
    if (!o->dir || !(o->circuit || o->c1path) || !o->out) {
        fprintf(stderr, "grothmpi: prove: --params, --circuit (or --c1) and --out are required\n");
        usage(stderr);
        return 2;
    }
    if (strcmp(o->format, "raw") != 0 && strcmp(o->format, "hex") != 0 && strcmp(o->format, "base64") != 0) {
        fprintf(stderr, "grothmpi: prove: --proof-format: '%s' is not raw, hex or base64\n", o->format);
        return 2;
    }
    if (o->batch < 1 || o->batch > 1024) {
        fprintf(stderr, "grothmpi: prove: --batch: %ld is not in 1..1024\n", o->batch);
        return 2;
    }
    if (o->check && o->trust) {
        fprintf(stderr, "grothmpi: prove: --check-params and --trust-params contradict each other\n");
        return 2;
    }
    if (o->proof_seed && ((o->rs_seed = strtoull(o->proof_seed, &end, 0)), !*o->proof_seed || *end)) {
        fprintf(stderr, "grothmpi: prove: --proof-seed: '%s' is not a number\n", o->proof_seed);
        return 2;
    }
    return -1;
}

/* argv into *o, then prove_check. Returns -1 to go on, else the exit
 * status (0 after --help, 2 after a usage error). */
static int prove_parse(prove_opts_t *o, int argc, char **argv)
{
    static const struct option opts[] = {
        {"params", required_argument, 0, 'p'}, {"circuit", required_argument, 0, 'c'},
        {"constraints", required_argument, 0, 'n'}, {"compressions", required_argument, 0, 'k'},
        {"sector-size", required_argument, 0, 'S'}, {"out", required_argument, 0, 'o'},
        {"public", required_argument, 0, 'P'}, {"batch", required_argument, 0, 'b'},
        {"witness-seed", required_argument, 0, 'w'}, {"threads", required_argument, 0, 't'},
        {"trust-params", no_argument, 0, 'T'}, {"no-verify", no_argument, 0, 'N'},
        {"verbose", no_argument, 0, 'v'}, {"help", no_argument, 0, 'h'},
        {"c1", required_argument, 0, 'C'}, {"partition", required_argument, 0, 'K'},
        {"proof-format", required_argument, 0, 'F'}, {"backend", required_argument, 0, 'B'},
        {"split", no_argument, 0, 'X'}, {"proof-seed", required_argument, 0, 'R'},
        {"json", no_argument, 0, 'J'}, {"check-params", no_argument, 0, 'Q'}, {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->format = "raw";
    o->wseed = 1;
    o->batch = 1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p': o->dir = optarg; break;
        case 'c': o->circuit = optarg; break;
        case 'n':
        case 'k': o->size = strtoull(optarg, NULL, 0); break;
        case 'S': o->sector = optarg; break;
        case 'o': o->out = optarg; break;
        case 'P': o->pub = optarg; break;
        case 'b': o->batch = strtol(optarg, NULL, 0); break;
        case 'w': o->wseed = strtoull(optarg, NULL, 0); break;
        case 't': o->threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'T': o->trust = true; break;
        case 'N': o->noverify = true; break;
        case 'v': o->verbose = true; break;
        case 'C': o->c1path = optarg; break;
        case 'K': o->part = optarg; break;
        case 'F': o->format = optarg; break;
        case 'B': o->backend = optarg; break;
        case 'X': o->split = true; break;
        case 'R': o->proof_seed = optarg; break;
        case 'J': o->json = true; break;
        case 'Q': o->check = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    return prove_check(o, argc, argv);
}

/* --c1: the C1 file, its graph, and the partitions [first, first + k). */
typedef struct {
    const char *path;
    porep_c1_t c1;
    porep_graph_t g;
    unsigned first;
} c1_src_t;

/* What a run proves: the circuit (from --circuit or the C1), k witnesses,
 * the cache's paths, the parameter file and the public inputs' path. */
typedef struct {
    circuit_t circ;
    c1_src_t *src; /* &c1 with --c1, else NULL */
    c1_src_t c1;
    size_t k;
    params_paths_t paths;
    char pp[sizeof(((params_paths_t *)0)->params)];
    char pubpath[sizeof(((params_paths_t *)0)->params) + 16];
    bool filecoin; /* pp is Filecoin's file under its v28 name */
} prove_target_t;

/* --c1 FILE [--partition N]: reads and checks the C1, makes its graph and
 * circuit; *k = the number of partitions to prove. Returns 0, 2 (usage) or 1
 * (the file), err set; nothing to free after a failure. */
static int prove_c1_open(c1_src_t *src, circuit_t *circ, size_t *k, const prove_opts_t *o, err_t *err)
{
    memset(src, 0, sizeof *src);
    src->path = o->c1path;
    if (o->batch != 1 || (o->circuit && strcmp(o->circuit, "porep") != 0)) {
        gm_err_set(err, GM_EINVAL, "--c1: the circuit and the number of proofs come from the C1 (no --batch, "
                                   "--circuit other than porep)");
        return 2;
    }
    char *end = NULL;
    unsigned long pk = o->part ? strtoul(o->part, &end, 10) : 0;
    if (o->part && (!*o->part || *end || pk > 1000)) {
        gm_err_set(err, GM_EINVAL, "--partition: '%s' is not a partition number", o->part);
        return 2;
    }
    if (porep_c1_read(&src->c1, src->path, err))
        return 1;
    if (circuit_from_c1(circ, &src->c1, err) || circuit_porep_graph(&src->g, &src->c1, err)) {
        porep_c1_free(&src->c1);
        return 1;
    }
    if (o->part && pk >= src->c1.partitions) {
        gm_err_set(err, GM_EINVAL, "--partition: %lu is not in 0..%u (%s has %u partitions)", pk,
                   src->c1.partitions - 1, src->path, src->c1.partitions);
        porep_graph_destroy(&src->g);
        porep_c1_free(&src->c1);
        return 2;
    }
    src->first = o->part ? (unsigned)pk : 0;
    *k = o->part ? 1 : src->c1.partitions;
    return 0;
}

static void target_close(prove_target_t *t)
{
    if (t->src) {
        porep_graph_destroy(&t->src->g);
        porep_c1_free(&t->src->c1);
        t->src = NULL;
    }
}

/* The circuit and the files of o. Returns 0, or the exit status (2 usage,
 * 1 the C1 file) with err set; nothing to close after a failure. */
static int target_open(prove_target_t *t, const prove_opts_t *o, err_t *err)
{
    memset(t, 0, sizeof *t);
    t->k = (size_t)o->batch;
    if (o->c1path) {
        int rc = prove_c1_open(&t->c1, &t->circ, &t->k, o, err);
        if (rc)
            return rc;
        t->src = &t->c1;
    } else if (o->part) {
        gm_err_set(err, GM_EINVAL, "--partition needs --c1");
        return 2;
    } else if (circuit_parse(&t->circ, o->circuit, o->size, o->sector, err)) {
        return 2;
    }
    if (params_paths(&t->paths, o->dir, t->circ.id, err)) {
        target_close(t);
        return 2;
    }
    snprintf(t->pp, sizeof t->pp, "%s", t->paths.params);
    if (t->circ.kind == CIRCUIT_POREP && access(t->pp, R_OK) != 0) {
        /* a directory of Filecoin's files (paramfetch's): the .params under
         * rust-fil-proofs' v28 name for this sector size */
        porep_config_t pc;
        err_t e;
        const porep_proof_t *pr = t->src ? t->src->c1.proof : porep_proof_find(t->circ.size, POREP_API_1_1);
        if (pr && porep_config_from_proof(&pc, pr, &e) == 0 && porep_param_find(t->pp, NULL, sizeof t->pp, o->dir,
                                                                                 &pc, &e) == 0)
            t->filecoin = true;
        else
            snprintf(t->pp, sizeof t->pp, "%s", t->paths.params);
        /* A C1 of a sector size the directory holds no parameters for
         * (another size's): said as such, not as a missing shape file. */
        if (t->src && !t->filecoin && access(t->pp, R_OK) != 0) {
            gm_err_set(err, GM_EIO, "%s: a %s C1 (sector size %llu bytes): %s has no parameters for it (%s: %s)",
                       t->src->path, t->src->c1.proof->name, (unsigned long long)t->circ.size, o->dir, t->pp,
                       strerror(errno));
            target_close(t);
            return 1;
        }
    }
    if (o->pub)
        snprintf(t->pubpath, sizeof t->pubpath, "%s", o->pub);
    else
        snprintf(t->pubpath, sizeof t->pubpath, "%s.public.json", o->out);
    return 0;
}

/* ---- the single-proof form ---------------------------------------------------- */

/* One run of the single form: what it loads and makes, freed by run_free. */
typedef struct {
    topo_pool_t *pool;
    cs_shape_t *shape;
    groth16_params_t *params;
    groth16_prover_t *pv;
    size_t k;
    cs_t **cs;
    groth16_witness_t *w;
    groth16_proof_t *proofs;
    groth16_timings_t tm;
    uint64_t t_load, t_wit, t_write;
} prove_run_t;

static void run_free(prove_run_t *r)
{
    for (size_t i = 0; r->cs && i < r->k; i++)
        cs_destroy(r->cs[i]);
    free(r->cs);
    free(r->w);
    free(r->proofs);
    groth16_prover_destroy(r->pv);
    groth16_params_free(r->params);
    cs_shape_free(r->shape);
    topo_pool_destroy(r->pool);
}

/* params_load's lines: on stderr as notes, so stdout keeps the proof's summary. */
static void prove_note(void *arg, const char *line)
{
    (void)arg;
    fprintf(stderr, "grothmpi: prove: %s\n", line);
}

/* The pool, the shape, the parameters and the prover (on backend be). */
static int run_load(prove_run_t *r, const prove_target_t *t, const prove_opts_t *o, groth16_backend_t *be,
                    err_t *err)
{
    uint64_t t0 = gm_now_ns();
    r->k = t->k;
    r->cs = calloc(r->k, sizeof *r->cs);
    r->w = calloc(r->k, sizeof *r->w);
    r->proofs = calloc(r->k, sizeof *r->proofs);
    if (!r->cs || !r->w || !r->proofs)
        return gm_err_set(err, GM_ENOMEM, "out of memory");
    int rc = topo_pool_create_flat(&r->pool, o->threads, err);
    if (rc)
        return rc;
    if ((rc = params_shape_load(&r->shape, NULL, &t->paths, false, err))) {
        /* Filecoin's directory has no shape file of ours: record it (not
         * written there; seconds for 2 KiB, minutes for 32 GiB) */
        if (!t->filecoin || (rc = circuit_shape(&r->shape, &t->circ, err)))
            return rc;
    }
    if (t->filecoin && o->verbose)
        printf("prove: %s: Filecoin's parameters %s\n", t->circ.id, t->pp);
    /* params/'s policy: a digest vouched for (our setup's .checked,
     * Filecoin's parameters.json) skips the per-point checks, and a
     * converted points file beside the parameters is mapped. */
    unsigned lf = o->trust ? PARAMS_LOAD_TRUSTED : o->check ? PARAMS_LOAD_CHECK | PARAMS_LOAD_REHASH : 0;
    params_loaded_t li;
    if ((rc = params_load(&r->params, &li, t->pp, r->shape, lf, r->pool, prove_note, (void *)o, err)) ||
        (rc = groth16_prover_create(&r->pv, r->params, r->shape, r->pool, err)))
        return rc;
    if (o->verbose)
        printf("prove: %s: %s (%.2f s)\n", t->pp, li.how, (double)li.ns * 1e-9);
    groth16_prover_set_backend(r->pv, be);
    r->t_load = gm_now_ns() - t0;
    return 0;
}

/* The k witnesses: seeds o->wseed, +1, ..., or the C1's partitions. */
static int run_witnesses(prove_run_t *r, const prove_target_t *t, const prove_opts_t *o, err_t *err)
{
    uint64_t t0 = gm_now_ns();
    for (size_t i = 0; i < r->k; i++) {
        circuit_witness_opts_t wo = {.seed = o->wseed + i, .mode = CS_WITNESS};
        if (t->src) {
            wo.c1 = &t->src->c1;
            wo.graph = &t->src->g;
            wo.partition = t->src->first + (unsigned)i;
        }
        err_t e;
        gm_err_clear(&e);
        int rc = circuit_witness(&r->cs[i], &t->circ, &wo, &e);
        if (rc)
            return t->src ? gm_err_set(err, rc, "%s: %s", t->src->path, e.msg) : gm_err_set(err, rc, "%s", e.msg);
        groth16_witness_of(&r->w[i], r->cs[i]);
    }
    r->t_wit = gm_now_ns() - t0;
    return 0;
}

/* The k proofs, r and s from --proof-seed when given. */
static int run_prove(prove_run_t *r, const prove_opts_t *o, err_t *err)
{
    fr_t *rs = NULL;
    if (o->proof_seed && !(rs = calloc(2 * r->k, sizeof *rs)))
        return gm_err_set(err, GM_ENOMEM, "out of memory");
    for (size_t i = 0; rs && i < r->k; i++)
        cli_proof_rs(&rs[2 * i], o->rs_seed + i);
    int rc = groth16_prove(r->pv, r->proofs, r->w, r->k, rs,
                           o->noverify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, r->pool, &r->tm, err);
    free(rs);
    return rc;
}

/* The proofs as raw bytes, or as one line of hex or base64 text (what
 * lotus-bench prints). */
static int write_proofs(const char *path, const uint8_t *b, size_t n, const char *format, err_t *err)
{
    if (strcmp(format, "raw") == 0)
        return gm_file_write(path, b, n, err);
    char *t = malloc(2 * n + 8);
    if (!t)
        return gm_err_set(err, GM_ENOMEM, "out of memory for the %s text of the proofs", format);
    if (strcmp(format, "hex") == 0)
        gm_hex_encode(t, b, n);
    else
        gm_base64_encode(t, b, n);
    strcat(t, "\n");
    int rc = gm_file_write(path, t, strlen(t), err);
    free(t);
    return rc;
}

/* The public inputs (one array, or one per proof with --batch), then the
 * proofs: a proof file never exists without its inputs. */
static int run_write(prove_run_t *r, const prove_target_t *t, const prove_opts_t *o, err_t *err)
{
    uint64_t t0 = gm_now_ns();
    uint8_t *bytes = calloc(r->k, GROTH16_PROOF_BYTES);
    json_t *js = r->k == 1 ? cli_inputs_json(&r->w[0]) : json_array();
    for (size_t i = 0; r->k > 1 && i < r->k; i++)
        json_array_append_new(js, cli_inputs_json(&r->w[i]));
    char *text = js ? json_dumps(js, JSON_INDENT(1)) : NULL;
    json_decref(js);
    int rc;
    if (!bytes || !text) {
        rc = gm_err_set(err, GM_ENOMEM, "out of memory for the proofs and public inputs");
    } else {
        for (size_t i = 0; i < r->k; i++)
            groth16_proof_to_bytes(bytes + i * GROTH16_PROOF_BYTES, &r->proofs[i]);
        rc = gm_file_write(t->pubpath, text, strlen(text), err);
        if (!rc)
            rc = write_proofs(o->out, bytes, r->k * GROTH16_PROOF_BYTES, o->format, err);
    }
    free(text);
    free(bytes);
    r->t_write = gm_now_ns() - t0;
    return rc;
}

static double sec(uint64_t ns) { return (double)ns * 1e-9; }

static void run_print(const prove_run_t *r, const prove_target_t *t, const prove_opts_t *o)
{
    printf("prove: %s: %zu proof%s written to %s (%s), public inputs in %s\n", t->circ.id, r->k,
           r->k == 1 ? "" : "s", o->out, o->noverify ? "not verified" : "verified", t->pubpath);
    if (!o->verbose)
        return;
    printf("prove: %-10s %9.3f s   (params, shape, prover; %zu MiB of points, %u threads)\n", "load",
           sec(r->t_load), groth16_params_memory(r->params) >> 20, topo_pool_size(r->pool));
    printf("prove: %-10s %9.3f s\n", "witness", sec(r->t_wit));
    cli_print_stages("prove", &r->tm, false);
    printf("prove: %-10s %9.3f s\n", "write", sec(r->t_write));
    printf("prove: %-10s %9.3f s   (prove total, %.3f s per proof)\n", "total", sec(r->tm.total),
           sec(r->tm.total) / (double)r->k);
    printf("prove: memory peak %.1f MiB (allocator), rss peak %.1f MiB\n", (double)gm_mem_peak() / 1048576.0,
           (double)gm_rss_peak() / 1048576.0);
}

/* `grothmpi prove --params DIR (--circuit NAME | --c1 FILE) --out FILE`. The
 * backend opens first, so that cuda without a device fails before any
 * loading. */
static int prove_single(const prove_opts_t *o)
{
    groth16_backend_t *be = NULL;
    char note[512];
    int rc = cli_backend_open(&be, o->backend, "prove", note, sizeof note);
    if (rc)
        return rc;
    err_t err;
    gm_err_clear(&err);
    prove_target_t t;
    prove_run_t r;
    memset(&r, 0, sizeof r);
    if ((rc = target_open(&t, o, &err))) {
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        groth16_backend_close(be);
        return rc;
    }
    rc = run_load(&r, &t, o, be, &err);
    if (!rc && note[0]) /* auto's choice, once the inputs are known good */
        gm_log(GM_LOG_INFO, "prove: %s", note);
    if (!rc && !(rc = run_witnesses(&r, &t, o, &err)) && !(rc = run_prove(&r, o, &err)) &&
        !(rc = run_write(&r, &t, o, &err))) {
        run_print(&r, &t, o);
        cli_backend_summary(be, "prove", o->verbose);
    }
    if (rc)
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
    run_free(&r);
    groth16_backend_close(be);
    target_close(&t);
    return rc ? 1 : 0;
}

/* ---- the split form ------------------------------------------------------------ */

/* `[mpirun -np R] grothmpi prove ... --split`: one seeded witness into a raw
 * proof file on the CPU (cli_prove_split). */
static int prove_split(const prove_opts_t *o)
{
    if (o->c1path || o->batch != 1 || strcmp(o->format, "raw") != 0 ||
        (o->backend && strcmp(o->backend, "cpu") != 0 && strcmp(o->backend, "auto") != 0)) {
        fprintf(stderr, "grothmpi: prove: --split proves one seeded witness into a raw proof file on the CPU "
                        "(no --c1, --batch, --proof-format or --backend other than cpu)\n");
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    prove_target_t t;
    int rc = target_open(&t, o, &err);
    if (rc) {
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        return rc;
    }
    cli_split_args_t sa = {.dir = o->dir, .params = t.pp, .out = o->out, .pub = t.pubpath, .circ = &t.circ,
                           .witness_seed = o->wseed, .proof_seed = o->proof_seed ? &o->rs_seed : NULL,
                           .threads = o->threads, .trust = o->trust, .no_verify = o->noverify,
                           .verbose = o->verbose, .json = o->json, .check_params = o->check};
    rc = cli_prove_split(&sa);
    target_close(&t);
    return rc;
}

int cmd_prove(int argc, char **argv)
{
    /* The campaign alias: `grothmpi prove CAMPAIGN [options]` (its first
     * argument not an option) or `--campaign FILE`. */
    for (int i = 1; i < argc; i++)
        if ((i == 1 && argv[1][0] != '-') || !strcmp(argv[i], "--campaign") || !strncmp(argv[i], "--campaign=", 11))
            return cli_campaign_run(argc, argv, "prove");
    prove_opts_t o;
    int rc = prove_parse(&o, argc, argv);
    if (rc >= 0)
        return rc;
    return o.split ? prove_split(&o) : prove_single(&o);
}
