/* cli/cmd_snarkjs.c — `grothmpi snarkjs`: circom / snarkjs files on BLS12-381
 * and BN254 (bn128), the curve read from each file.
 *
 *   grothmpi snarkjs prove circuit.zkey witness.wtns proof.json public.json
 *       rapidsnark's shape; writes what `snarkjs groth16 prove` writes
 *       (with --split, under mpirun: one proof on all ranks, cmd_snarkjs_split.c);
 *   grothmpi snarkjs verify verification_key.json public.json proof.json
 *       `snarkjs groth16 verify` (exit 0 and "OK!" when valid, 1 otherwise);
 *   grothmpi snarkjs check circuit.r1cs witness.wtns
 *       `snarkjs wtns check`: every constraint holds for the witness;
 *   grothmpi snarkjs info FILE
 *       the header of an .r1cs, .wtns or .zkey;
 *   grothmpi snarkjs ptau --power P [--seed HEX] out.ptau
 *       a development (insecure) prepared powers of tau for snarkjs setup.
 * Exit 0 success, 1 failure, 2 usage. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "snarkjs/snarkjs.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi snarkjs prove circuit.zkey witness.wtns proof.json public.json\n"
            "                              [--threads N] [--r1cs FILE] [--check-subgroup]\n"
            "                              [--no-verify] [--backend B] [--verbose] [--proof-seed S]\n"
            "       [mpirun -np R] grothmpi snarkjs prove --split circuit.zkey witness.wtns proof.json\n"
            "                              public.json [--threads N] [--check-subgroup] [--no-verify]\n"
            "                              [--proof-seed S] [--verbose | --json]\n"
            "       grothmpi snarkjs verify verification_key.json public.json proof.json [--verbose]\n"
            "       grothmpi snarkjs check circuit.r1cs witness.wtns\n"
            "       grothmpi snarkjs info FILE.r1cs|FILE.wtns|FILE.zkey\n"
            "       grothmpi snarkjs ptau --power P [--curve bls12381|bn128] [--seed HEX] [--threads N]\n"
            "                              out.ptau\n\n"
            "Groth16 on BN254 (bn128, circom's default) and BLS12-381 (circom --prime bls12381) with\n"
            "circom's and snarkjs's files; the curve is read from each file.\n"
            "  prove    proves like `snarkjs groth16 prove` (and rapidsnark): proof.json and\n"
            "           public.json in snarkjs's layout, checked against the zkey's key first\n"
            "  --threads N        worker threads (default: all CPUs)\n"
            "  --r1cs FILE        check the witness against the circuit before proving\n"
            "                     (the zkey alone cannot tell a bad witness from a bad key)\n"
            "  --check-subgroup   check every zkey point for the subgroup (slow; snarkjs does not)\n"
            "  --no-verify        skip the check of the proof against the zkey's key (a proof\n"
            "                     made with a GPU is checked all the same)\n"
            "  --backend B        auto | cpu | cuda | emulate: where the G1 MSMs and NTTs run\n"
            "                     (default auto: CUDA when a device answers, else the CPU;\n"
            "                     cuda without a device: exit 2; docs/gpu.md)\n"
            "  --verbose          stage timings (--split: the per-rank accounts)\n"
            "  --proof-seed S     r and s derived from S instead of drawn at random: the same\n"
            "                     proof every time (tests; whoever knows S can recover secrets)\n"
            "  --split            [mpirun -np R] one proof on all R ranks, each reading and holding\n"
            "                     1/R of the zkey's points and only the witness values it needs\n"
            "                     (docs/split.md); not with --r1cs or --backend\n"
            "  --json             with --split: the per-rank accounts as JSON\n"
            "  verify   verifies like `snarkjs groth16 verify`; prints OK! and exits 0 when valid\n"
            "  check    like `snarkjs wtns check`: every constraint of the r1cs holds\n"
            "  info     the header fields of a circom/snarkjs file\n"
            "  ptau     a prepared powers of tau for 2^P constraints from a seed (64 hex digits;\n"
            "           default random, printed), on --curve (default bls12381): INSECURE, for\n"
            "           development and tests only\n");
}

static double sec(uint64_t ns) { return (double)ns * 1e-9; }

/* The --verbose account of one prove, either curve. */
static void print_prove(uint32_t n_vars, uint32_t n_public, uint32_t log_domain, uint64_t n_coefs, unsigned threads,
                        uint64_t t_load, bool r1cs, const groth16_timings_t *tm, uint64_t t_write)
{
    printf("snarkjs prove: nVars %u, nPublic %u, domain 2^%u, %llu coefficients, %u threads\n", n_vars, n_public,
           log_domain, (unsigned long long)n_coefs, threads);
    printf("snarkjs prove: %-10s %9.3f s   (zkey, witness%s, prover)\n", "load", sec(t_load),
           r1cs ? ", r1cs check" : "");
    cli_print_stages("snarkjs prove", tm, true);
    printf("snarkjs prove: %-10s %9.3f s\n", "write", sec(t_write));
    printf("snarkjs prove: %-10s %9.3f s   (load + prove + write)\n", "total", sec(t_load + tm->total + t_write));
    printf("snarkjs prove: memory peak %.1f MiB (allocator), rss peak %.1f MiB\n", (double)gm_mem_peak() / 1048576.0,
           (double)gm_rss_peak() / 1048576.0);
}

/* `snarkjs prove` of a bn128 zkey (snarkjs_bn_*, on --backend's device or
 * the CPU). rs: the --proof-seed's r and s (reduced into BN254's Fr), or
 * NULL. */
static int prove_bn(const char *zkp, const char *wp, const char *pp, const char *pubp, const char *r1cs_path,
                    const char *backend, unsigned threads, bool subgroup, bool noverify, bool verbose,
                    const fr_t *rs)
{
    err_t err;
    gm_err_clear(&err);
    int rc = 1;
    topo_pool_t *pool = NULL;
    snarkjs_bn_zkey_t *zk = NULL;
    snarkjs_bn_wtns_t w = {0};
    snarkjs_bn_r1cs_t *r1cs = NULL;
    snarkjs_bn_prover_t *pv = NULL;
    groth16_backend_t *be = NULL;
    char note[512];
    int brc = cli_backend_open(&be, backend, "snarkjs prove", note, sizeof note);
    if (brc)
        return brc;
    bn_fr_t brs[2];
    for (int i = 0; rs && i < 2; i++) {
        uint8_t b[32];
        fr_to_bytes_le(b, &rs[i]);
        bn_fr_from_bytes_le_mod(&brs[i], b);
    }
    uint64_t t0 = gm_now_ns(), t1;
    /* As for a bls12381 zkey: streamed on the CPU, decoded whole for a device. */
    snarkjs_zkey_flags_t zf = (subgroup ? SNARKJS_ZKEY_SUBGROUP : 0) |
                              (groth16_backend_active(be) ? 0 : SNARKJS_ZKEY_STREAM);
    if (topo_pool_create_flat(&pool, threads, &err) || snarkjs_bn_wtns_load(&w, wp, &err) ||
        snarkjs_bn_zkey_load(&zk, zkp, zf, pool, &err))
        goto fail;
    if (w.n != zk->n_vars) {
        gm_err_set(&err, GM_EINVAL, "%s: %zu witness values, %s's circuit has nVars = %u", wp, w.n, zkp, zk->n_vars);
        goto fail;
    }
    if (r1cs_path &&
        (snarkjs_bn_r1cs_load(&r1cs, r1cs_path, &err) || snarkjs_bn_r1cs_check(r1cs, w.w, w.n, wp, &err)))
        goto fail;
    if (snarkjs_bn_prover_create(&pv, zk, pool, &err))
        goto fail;
    snarkjs_bn_prover_set_backend(pv, be);
    if (note[0]) /* auto's choice, once the inputs are known good */
        gm_log(GM_LOG_INFO, "snarkjs prove: %s", note);
    t1 = gm_now_ns();
    uint64_t t_load = t1 - t0;
    snarkjs_bn_proof_t proof;
    groth16_timings_t tm;
    if (snarkjs_bn_prove(pv, &proof, w.w, w.n, rs ? brs : NULL,
                         noverify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, pool, &tm, &err))
        goto fail;
    t0 = gm_now_ns();
    /* public.json first: a proof file never exists without its inputs. */
    if (snarkjs_bn_public_write_json(pubp, w.w + 1, zk->n_public, &err) ||
        snarkjs_bn_proof_write_json(pp, &proof, &err))
        goto fail;
    if (verbose)
        print_prove(zk->n_vars, zk->n_public, zk->log_domain, zk->n_coefs, topo_pool_size(pool), t_load, r1cs, &tm,
                    gm_now_ns() - t0);
    cli_backend_summary(be, "snarkjs prove", verbose);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: snarkjs prove: %s\n", err.msg);
    snarkjs_bn_prover_destroy(pv);
    groth16_backend_close(be);
    snarkjs_bn_r1cs_free(r1cs);
    snarkjs_bn_wtns_free(&w);
    snarkjs_bn_zkey_free(zk);
    topo_pool_destroy(pool);
    return rc;
}

static int snark_prove(int argc, char **argv)
{
    static const struct option opts[] = {
        {"threads", required_argument, 0, 't'}, {"r1cs", required_argument, 0, 'r'},
        {"check-subgroup", no_argument, 0, 'S'}, {"no-verify", no_argument, 0, 'N'},
        {"verbose", no_argument, 0, 'v'},        {"help", no_argument, 0, 'h'},
        {"backend", required_argument, 0, 'B'},  {"split", no_argument, 0, 'X'},
        {"proof-seed", required_argument, 0, 'R'}, {"json", no_argument, 0, 'J'}, {0, 0, 0, 0}};
    unsigned threads = 0;
    const char *r1cs_path = NULL, *backend = NULL, *proof_seed = NULL;
    bool subgroup = false, noverify = false, verbose = false, split = false, json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 't': threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'r': r1cs_path = optarg; break;
        case 'S': subgroup = true; break;
        case 'N': noverify = true; break;
        case 'v': verbose = true; break;
        case 'B': backend = optarg; break;
        case 'X': split = true; break;
        case 'R': proof_seed = optarg; break;
        case 'J': json = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind != 4) {
        fprintf(stderr, "grothmpi: snarkjs prove: needs circuit.zkey witness.wtns proof.json public.json\n");
        usage(stderr);
        return 2;
    }
    const char *zkp = argv[optind], *wp = argv[optind + 1], *pp = argv[optind + 2], *pubp = argv[optind + 3];
    uint64_t rs_seed = 0;
    char *end = NULL;
    if (proof_seed && ((rs_seed = strtoull(proof_seed, &end, 0)), !*proof_seed || *end)) {
        fprintf(stderr, "grothmpi: snarkjs prove: --proof-seed: '%s' is not a number\n", proof_seed);
        return 2;
    }
    fr_t rs[2];
    if (proof_seed)
        cli_proof_rs(rs, rs_seed);
    /* The zkey's curve; a file that cannot tell is left to the reader's own message. */
    snarkjs_curve_t curve = SNARKJS_BLS12381;
    err_t cerr;
    int crc = snarkjs_curve_of_file(&curve, zkp, &cerr);
    if (crc == GM_ENOTSUP) {
        fprintf(stderr, "grothmpi: snarkjs prove: %s\n", cerr.msg);
        return 1;
    }
    if (json && !split) {
        fprintf(stderr, "grothmpi: snarkjs prove: --json goes with --split\n");
        return 2;
    }
    if (crc == 0 && curve == SNARKJS_BN128 && !split)
        return prove_bn(zkp, wp, pp, pubp, r1cs_path, backend, threads, subgroup, noverify, verbose,
                        proof_seed ? rs : NULL);
    if (split) {
        if (r1cs_path || backend) {
            fprintf(stderr, "grothmpi: snarkjs prove: --split proves on the CPU from the zkey and witness only "
                            "(no --r1cs or --backend)\n");
            return 2;
        }
        cli_snarkjs_split_args_t sa = {.zkey = zkp, .wtns = wp, .proof = pp, .pub = pubp,
                                       .proof_seed = proof_seed ? &rs_seed : NULL, .threads = threads,
                                       .subgroup = subgroup, .no_verify = noverify, .verbose = verbose,
                                       .json = json};
        return cli_snarkjs_prove_split(&sa);
    }
    err_t err;
    gm_err_clear(&err);
    int rc = 1;
    topo_pool_t *pool = NULL;
    snarkjs_zkey_t *zk = NULL;
    snarkjs_wtns_t w = {0};
    snarkjs_r1cs_t *r1cs = NULL;
    snarkjs_prover_t *pv = NULL;
    groth16_backend_t *be = NULL;
    char note[512];
    int brc = cli_backend_open(&be, backend, "snarkjs prove", note, sizeof note);
    if (brc)
        return brc;
    uint64_t t0 = gm_now_ns(), t1;
    if (topo_pool_create_flat(&pool, threads, &err))
        goto fail;
    if (snarkjs_wtns_load(&w, wp, &err))
        goto fail;
    /* One proof on the CPU: the key streamed (one section in memory at a
     * time); a device keeps the G1 points resident. */
    snarkjs_zkey_flags_t zf = (subgroup ? SNARKJS_ZKEY_SUBGROUP : 0) |
                              (groth16_backend_active(be) ? 0 : SNARKJS_ZKEY_STREAM);
    if (snarkjs_zkey_load(&zk, zkp, zf, pool, &err))
        goto fail;
    if (w.n != zk->n_vars) {
        gm_err_set(&err, GM_EINVAL, "%s: %zu witness values, %s's circuit has nVars = %u", wp, w.n, zkp, zk->n_vars);
        goto fail;
    }
    if (r1cs_path) {
        if (snarkjs_r1cs_load(&r1cs, r1cs_path, &err) || snarkjs_r1cs_check(r1cs, w.w, w.n, wp, &err))
            goto fail;
    }
    if (snarkjs_prover_create(&pv, zk, pool, &err))
        goto fail;
    snarkjs_prover_set_backend(pv, be);
    if (note[0]) /* auto's choice, once the inputs are known good */
        gm_log(GM_LOG_INFO, "snarkjs prove: %s", note);
    t1 = gm_now_ns();
    uint64_t t_load = t1 - t0;
    groth16_proof_t proof;
    groth16_timings_t tm;
    if (snarkjs_prove(pv, &proof, w.w, w.n, proof_seed ? rs : NULL, noverify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, pool,
                      &tm, &err))
        goto fail;
    t0 = gm_now_ns();
    /* public.json first: a proof file never exists without its inputs. */
    if (snarkjs_public_write_json(pubp, w.w + 1, zk->n_public, &err) || snarkjs_proof_write_json(pp, &proof, &err))
        goto fail;
    t1 = gm_now_ns();
    if (verbose)
        print_prove(zk->n_vars, zk->n_public, zk->log_domain, zk->n_coefs, topo_pool_size(pool), t_load, r1cs, &tm,
                    t1 - t0);
    cli_backend_summary(be, "snarkjs prove", verbose);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: snarkjs prove: %s\n", err.msg);
    snarkjs_prover_destroy(pv);
    groth16_backend_close(be);
    snarkjs_r1cs_free(r1cs);
    snarkjs_wtns_free(&w);
    snarkjs_zkey_free(zk);
    topo_pool_destroy(pool);
    return rc;
}

/* The verifications of either curve: vk, public, proof read and checked; GM_EVERIFY when invalid. */
static int verify_bls(const char *const pos[3], err_t *err)
{
    groth16_vk_t vk;
    groth16_proof_t proof;
    fr_t *pub = NULL;
    size_t n = 0;
    int rc = snarkjs_vk_read_json(&vk, pos[0], err);
    if (rc)
        return rc;
    if (!(rc = snarkjs_public_read_json(&pub, &n, pos[1], err)) &&
        !(rc = snarkjs_proof_read_json(&proof, pos[2], err)))
        rc = snarkjs_verify(&vk, &proof, pub, n, err);
    groth16_vk_free(&vk);
    gm_free(pub);
    return rc;
}

static int verify_bn(const char *const pos[3], err_t *err)
{
    snarkjs_bn_vk_t vk;
    snarkjs_bn_proof_t proof;
    bn_fr_t *pub = NULL;
    size_t n = 0;
    int rc = snarkjs_bn_vk_read_json(&vk, pos[0], err);
    if (rc)
        return rc;
    if (!(rc = snarkjs_bn_public_read_json(&pub, &n, pos[1], err)) &&
        !(rc = snarkjs_bn_proof_read_json(&proof, pos[2], err)))
        rc = snarkjs_bn_verify(&vk, &proof, pub, n, err);
    snarkjs_bn_vk_free(&vk);
    gm_free(pub);
    return rc;
}

static int snark_verify(int argc, char **argv)
{
    bool verbose = false;
    const char *pos[3];
    int np = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0) {
            verbose = true;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "grothmpi: snarkjs verify: unknown option %s\n", argv[i]);
            return 2;
        } else if (np < 3) {
            pos[np++] = argv[i];
        } else {
            np++;
        }
    }
    if (np != 3) {
        fprintf(stderr, "grothmpi: snarkjs verify: needs verification_key.json public.json proof.json\n");
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    uint64_t t0 = gm_now_ns();
    snarkjs_curve_t curve;
    int rc = snarkjs_json_curve_of_file(&curve, pos[0], &err);
    if (!rc)
        rc = curve == SNARKJS_BN128 ? verify_bn(pos, &err) : verify_bls(pos, &err);
    if (rc) {
        fprintf(stderr, "grothmpi: snarkjs verify: %s%s\n", rc == GM_EVERIFY ? "Invalid proof: " : "", err.msg);
        return 1;
    }
    printf("OK!\n");
    if (verbose)
        printf("snarkjs verify: %.3f s\n", sec(gm_now_ns() - t0));
    return 0;
}

static int snark_check(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "grothmpi: snarkjs check: needs circuit.r1cs witness.wtns\n");
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    snarkjs_curve_t curve;
    uint32_t nc = 0;
    int rc = snarkjs_curve_of_file(&curve, argv[1], &err);
    if (!rc && curve == SNARKJS_BN128) {
        snarkjs_bn_r1cs_t *r = NULL;
        snarkjs_bn_wtns_t w = {0};
        if (!(rc = snarkjs_bn_r1cs_load(&r, argv[1], &err)) && !(rc = snarkjs_bn_wtns_load(&w, argv[2], &err)) &&
            !(rc = snarkjs_bn_r1cs_check(r, w.w, w.n, argv[2], &err)))
            nc = r->n_constraints;
        snarkjs_bn_r1cs_free(r);
        snarkjs_bn_wtns_free(&w);
    } else if (!rc) {
        snarkjs_r1cs_t *r = NULL;
        snarkjs_wtns_t w = {0};
        if (!(rc = snarkjs_r1cs_load(&r, argv[1], &err)) && !(rc = snarkjs_wtns_load(&w, argv[2], &err)) &&
            !(rc = snarkjs_r1cs_check(r, w.w, w.n, argv[2], &err)))
            nc = r->n_constraints;
        snarkjs_r1cs_free(r);
        snarkjs_wtns_free(&w);
    }
    if (rc) {
        fprintf(stderr, "grothmpi: snarkjs check: %s\n", err.msg);
        return 1;
    }
    printf("%s: all %u constraints hold\n", argv[2], nc);
    return 0;
}

/* `snarkjs info` of a bn128 file (its curve read already). */
static int info_bn(const char *p, err_t *err)
{
    size_t len = strlen(p);
    int rc;
    if (strcmp(p + len - 5, ".r1cs") == 0) {
        snarkjs_bn_r1cs_t *r;
        if (!(rc = snarkjs_bn_r1cs_load(&r, p, err))) {
            printf("%s: r1cs, bn128, %u wires (%u public outputs, %u public inputs, %u private inputs), "
                   "%u constraints, %llu terms, %llu labels\n", p, r->n_wires, r->n_pub_out, r->n_pub_in,
                   r->n_prv_in, r->n_constraints, (unsigned long long)r->n_terms, (unsigned long long)r->n_labels);
            snarkjs_bn_r1cs_free(r);
        }
    } else if (strcmp(p + len - 5, ".wtns") == 0) {
        snarkjs_bn_wtns_t w;
        if (!(rc = snarkjs_bn_wtns_load(&w, p, err))) {
            printf("%s: wtns, bn128, %zu values\n", p, w.n);
            snarkjs_bn_wtns_free(&w);
        }
    } else {
        snarkjs_bn_zkey_t *zk;
        if (!(rc = snarkjs_bn_zkey_load(&zk, p, SNARKJS_ZKEY_DEFAULT, NULL, err))) {
            printf("%s: zkey, groth16, bn128, nVars %u, nPublic %u, domainSize 2^%u, %llu coefficients\n", p,
                   zk->n_vars, zk->n_public, zk->log_domain, (unsigned long long)zk->n_coefs);
            snarkjs_bn_zkey_free(zk);
        }
    }
    return rc;
}

static int snark_info(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "grothmpi: snarkjs info: needs one file\n");
        return 2;
    }
    const char *p = argv[1];
    size_t len = strlen(p);
    err_t err;
    gm_err_clear(&err);
    int rc = 0;
    bool known = (len > 5 && (strcmp(p + len - 5, ".r1cs") == 0 || strcmp(p + len - 5, ".wtns") == 0 ||
                              strcmp(p + len - 5, ".zkey") == 0));
    snarkjs_curve_t curve = SNARKJS_BLS12381;
    if (known && (rc = snarkjs_curve_of_file(&curve, p, &err))) {
        /* the message names the file and the field */
    } else if (known && curve == SNARKJS_BN128) {
        rc = info_bn(p, &err);
    } else if (len > 5 && strcmp(p + len - 5, ".r1cs") == 0) {
        snarkjs_r1cs_t *r;
        if (!(rc = snarkjs_r1cs_load(&r, p, &err))) {
            printf("%s: r1cs, bls12381, %u wires (%u public outputs, %u public inputs, %u private inputs), "
                   "%u constraints, %llu terms, %llu labels\n", p, r->n_wires, r->n_pub_out, r->n_pub_in,
                   r->n_prv_in, r->n_constraints, (unsigned long long)r->n_terms, (unsigned long long)r->n_labels);
            snarkjs_r1cs_free(r);
        }
    } else if (len > 5 && strcmp(p + len - 5, ".wtns") == 0) {
        snarkjs_wtns_t w;
        if (!(rc = snarkjs_wtns_load(&w, p, &err))) {
            printf("%s: wtns, bls12381, %zu values\n", p, w.n);
            snarkjs_wtns_free(&w);
        }
    } else if (len > 5 && strcmp(p + len - 5, ".zkey") == 0) {
        snarkjs_zkey_t *zk;
        if (!(rc = snarkjs_zkey_load(&zk, p, SNARKJS_ZKEY_DEFAULT, NULL, &err))) {
            printf("%s: zkey, groth16, bls12381, nVars %u, nPublic %u, domainSize 2^%u, %llu coefficients\n", p,
                   zk->n_vars, zk->n_public, zk->log_domain, (unsigned long long)zk->n_coefs);
            snarkjs_zkey_free(zk);
        }
    } else {
        fprintf(stderr, "grothmpi: snarkjs info: %s: expected a .r1cs, .wtns or .zkey file\n", p);
        return 2;
    }
    if (rc) {
        fprintf(stderr, "grothmpi: snarkjs info: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int snark_ptau(int argc, char **argv)
{
    static const struct option opts[] = {{"power", required_argument, 0, 'p'}, {"seed", required_argument, 0, 's'},
                                         {"threads", required_argument, 0, 't'}, {"curve", required_argument, 0, 'c'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    long power = 0;
    snarkjs_curve_t curve = SNARKJS_BLS12381;
    unsigned threads = 0;
    const char *seedhex = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p': power = strtol(optarg, NULL, 0); break;
        case 's': seedhex = optarg; break;
        case 't': threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'c':
            if (strcmp(optarg, "bn128") == 0) {
                curve = SNARKJS_BN128;
            } else if (strcmp(optarg, "bls12381") != 0) {
                fprintf(stderr, "grothmpi: snarkjs ptau: --curve: '%s' is neither bls12381 nor bn128\n", optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind != 1 || power < 1 || power > 24) {
        fprintf(stderr, "grothmpi: snarkjs ptau: needs --power P (1..24) and one output file\n");
        return 2;
    }
    err_t err;
    gm_err_clear(&err);
    uint8_t seed[GROTH16_SEED_BYTES];
    if (seedhex) {
        if (gm_hex_decode_exact(seed, GROTH16_SEED_BYTES, seedhex, 0, &err)) {
            fprintf(stderr, "grothmpi: snarkjs ptau: --seed: '%s': %s\n", seedhex, err.msg);
            return 2;
        }
    } else if (groth16_seed_random(seed, &err)) {
        fprintf(stderr, "grothmpi: snarkjs ptau: %s\n", err.msg);
        return 1;
    }
    topo_pool_t *pool = NULL;
    int rc = 1;
    uint64_t t0 = gm_now_ns();
    if (!topo_pool_create_flat(&pool, threads, &err) &&
        !(curve == SNARKJS_BN128 ? snarkjs_bn_ptau_write : snarkjs_ptau_write)(argv[optind], (unsigned)power, seed,
                                                                                pool, &err)) {
        printf("snarkjs ptau: %s: %s, power %ld, %.1f s, INSECURE development ceremony, seed ", argv[optind],
               snarkjs_curve_name(curve), power, sec(gm_now_ns() - t0));
        for (int i = 0; i < GROTH16_SEED_BYTES; i++)
            printf("%02x", seed[i]);
        printf("\n");
        rc = 0;
    } else {
        fprintf(stderr, "grothmpi: snarkjs ptau: %s\n", err.msg);
    }
    topo_pool_destroy(pool);
    return rc;
}

int cmd_snarkjs(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(sub, "prove") == 0)
        return snark_prove(argc - 1, argv + 1);
    if (strcmp(sub, "verify") == 0)
        return snark_verify(argc - 1, argv + 1);
    if (strcmp(sub, "check") == 0)
        return snark_check(argc - 1, argv + 1);
    if (strcmp(sub, "info") == 0)
        return snark_info(argc - 1, argv + 1);
    if (strcmp(sub, "ptau") == 0)
        return snark_ptau(argc - 1, argv + 1);
    fprintf(stderr, "grothmpi: snarkjs: unknown subcommand '%s' (prove, verify, check, info, ptau)\n", sub);
    return 2;
}
