/* cli/cmd_prove.c — `grothmpi prove`: k proofs of a built-in circuit against
 * one cached parameter set (loaded once), each verified before the file is
 * written (atomically); the public inputs go to a snarkjs-style JSON file.
 *
 * The witnesses come from one place (make_witnesses): the built-in circuits
 * with seeded witnesses, or the PoRep form (--c1 FILE [--partition N]),
 * which turns a C1's vanilla proofs into one witness per partition and
 * checks its public inputs against those a verifier derives; the proofs of
 * all partitions, concatenated, are the sector proof. */
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "jobs/jobs.h"
#include "mpi/mpi.h"
#include "params/params.h"
#include "synth/porep/porep.h"
#include "synth/synth.h"
#include "topo/topo.h"
#include "snarkjs/snarkjs.h"
#include "circuits/circuits.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi prove --params DIR --circuit NAME --out proof.bin [options]\n"
            "       [mpirun -np N] grothmpi prove CAMPAIGN.json | --campaign FILE [--mem-budget SIZE] [--threads N]\n"
            "                                 [--check-params]\n\n"
            "The campaign form proves every unit of a campaign (docs/campaign.md) on every\n"
            "rank of the MPI job, resumes from the output directory's journal, and prints\n"
            "the cluster report (also in OUTPUT/report.json and report.csv). With the\n"
            "campaign's \"split\": R, groups of R ranks prove each unit together (docs/split.md).\n"
            "  --mem-budget SIZE    per rank, e.g. 4GiB (default: the campaign's, else half\n"
            "                       the node's RAM over its ranks)\n"
            "  --check-params       hash the parameter file and check every point and shape\n"
            "                       index even where the cache's stamps say they are unchanged\n"
            "SIGTERM or SIGINT stops a campaign cleanly: no new units, the ones in flight are\n"
            "written and journaled, exit status 75 (rerun to resume); a second signal aborts.\n"
            "Exit status: 0 done, 1 failed, 2 usage (also \"backend\": \"cuda\" without a device),\n"
            "75 interrupted.\n\n"
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
            "  --trust-params       skip the subgroup checks of the parameter points\n"
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
            "  --check-params       with --split: hash the parameter file even when its stamp matches\n");
}

/* --c1: the C1 file, its graph, and the partitions [first, first + k). */
typedef struct {
    const char *path;
    porep_c1_t c1;
    porep_graph_t g;
    unsigned first;
} c1_src_t;

/* The witness of C1 partition k, checked against the public inputs a
 * verifier derives (circuit_porep_c1_inputs): a C1 whose vanilla proofs name
 * other nodes than the graph and the seed give fails here, by name. */
static int c1_witness(cs_t **cs, const circuit_t *c, const c1_src_t *src, unsigned k, err_t *err)
{
    int rc = circuit_c1_witness(cs, c, &src->c1, k, err);
    if (rc)
        return rc;
    size_t n = circuit_porep_input_count(&src->c1);
    fr_t *want = calloc(n, sizeof *want);
    if (!want)
        return gm_err_set(err, GM_ENOMEM, "out of memory");
    if ((rc = circuit_porep_c1_inputs(want, &src->c1, &src->g, k, err)) == 0) {
        const fr_t *got = cs_input_values(*cs) + 1;
        for (size_t j = 0; j < n && rc == 0; j++)
            if (!fr_eq(&got[j], &want[j])) {
                char a[FR_DEC_MAX], b[FR_DEC_MAX];
                fr_to_dec(a, &got[j]);
                fr_to_dec(b, &want[j]);
                rc = gm_err_set(err, GM_EVERIFY,
                                "%s: partition %u: public input %zu: the vanilla proofs give %s, the graph and "
                                "seed give %s",
                                src->path, k, j, a, b);
            }
    }
    free(want);
    return rc;
}

/* The witnesses of the run: k CS_WITNESS systems (from src when not NULL). */
static int make_witnesses(cs_t **cs, groth16_witness_t *w, const circuit_t *c, uint64_t seed, size_t k,
                          const c1_src_t *src, err_t *err)
{
    for (size_t i = 0; i < k; i++) {
        int rc = src ? c1_witness(&cs[i], c, src, src->first + (unsigned)i, err)
                     : circuit_witness(&cs[i], c, seed + i, err);
        if (rc)
            return rc;
        groth16_witness_of(&w[i], cs[i]);
    }
    return 0;
}

json_t *cli_inputs_json(const groth16_witness_t *w)
{
    json_t *a = json_array();
    for (size_t j = 1; j < w->n_inputs; j++) {
        char buf[FR_DEC_MAX];
        fr_to_dec(buf, &w->inputs[j]);
        json_array_append_new(a, json_string(buf));
    }
    return a;
}

/* --c1 FILE [--partition N]: reads and checks the C1, makes its graph and
 * circuit; *k = the number of partitions to prove. Returns 0, 2 (usage) or 1
 * (the file), err set; nothing to free after a failure. */
static int prove_c1_open(c1_src_t *src, circuit_t *circ, size_t *k, const char *path, const char *part,
                         const char *circuit, long batch, err_t *err)
{
    memset(src, 0, sizeof *src);
    src->path = path;
    if (batch != 1 || (circuit && strcmp(circuit, "porep") != 0)) {
        gm_err_set(err, GM_EINVAL, "--c1: the circuit and the number of proofs come from the C1 (no --batch, "
                                   "--circuit other than porep)");
        return 2;
    }
    char *end = NULL;
    unsigned long pk = part ? strtoul(part, &end, 10) : 0;
    if (part && (!*part || *end || pk > 1000)) {
        gm_err_set(err, GM_EINVAL, "--partition: '%s' is not a partition number", part);
        return 2;
    }
    if (porep_c1_read(&src->c1, path, err))
        return 1;
    if (circuit_from_c1(circ, &src->c1, err) || circuit_porep_graph(&src->g, &src->c1, err)) {
        porep_c1_free(&src->c1);
        return 1;
    }
    if (part && pk >= src->c1.partitions) {
        gm_err_set(err, GM_EINVAL, "--partition: %lu is not in 0..%u (%s has %u partitions)", pk,
                   src->c1.partitions - 1, path, src->c1.partitions);
        porep_graph_destroy(&src->g);
        porep_c1_free(&src->c1);
        return 2;
    }
    src->first = part ? (unsigned)pk : 0;
    *k = part ? 1 : src->c1.partitions;
    return 0;
}

static double sec(uint64_t ns) { return (double)ns * 1e-9; }

void cli_backend_summary(groth16_backend_t *be, const char *cmd, bool verbose)
{
    groth16_backend_stats_t st;
    groth16_backend_stats(be, &st);
    if (groth16_backend_kind(be) == GROTH16_BACKEND_CPU)
        return;
    if (verbose || st.fallbacks || st.failures)
        printf("%s: backend %s: %llu units, %.3f s busy (msm %.3f s, ntt %.3f s), device memory peak %.1f MiB, "
               "%llu fallbacks, %llu failures%s\n",
               cmd, st.name, (unsigned long long)st.units, sec(st.busy_ns), sec(st.msm_ns), sec(st.ntt_ns),
               (double)st.mem_peak / 1048576.0, (unsigned long long)st.fallbacks, (unsigned long long)st.failures,
               st.retired ? ", retired" : "");
}

int cli_backend_open(groth16_backend_t **be, const char *name, const char *cmd, char *note, size_t note_len)
{
    *be = NULL;
    err_t err;
    groth16_backend_kind_t kind = GROTH16_BACKEND_AUTO;
    if (name && groth16_backend_kind_parse(&kind, name, "--backend", &err)) {
        fprintf(stderr, "grothmpi: %s: %s\n", cmd, err.msg);
        return 2;
    }
    int rc = groth16_backend_open(be, kind, 0, note, note_len, &err);
    if (rc) {
        fprintf(stderr, "grothmpi: %s: %s\n", cmd, err.msg);
        return rc == GM_ENOTSUP || rc == GM_EINVAL ? 2 : 1;
    }
    return 0;
}

void cli_print_stages(const char *prefix, const groth16_timings_t *t, bool snarkjs_names)
{
    const struct {
        const char *name, *snarkjs;
        uint64_t ns;
    } rows[] = {{"abc", "abc", t->abc},
                {"ntt", "ntt", t->ntt},
                {"msm_a", "msm_a", t->msm_a},
                {"msm_b_g1", "msm_b1", t->msm_b_g1},
                {"msm_b_g2", "msm_b2", t->msm_b_g2},
                {"msm_l", "msm_c", t->msm_l},
                {"msm_h", "msm_h", t->msm_h},
                {"verify", "verify", t->verify}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        printf("%s: %-10s %9.3f s\n", prefix, snarkjs_names ? rows[i].snarkjs : rows[i].name, sec(rows[i].ns));
}

/* ---- the campaign form ------------------------------------------------------- */

/* The exit status of an interrupted campaign (EX_TEMPFAIL of sysexits.h):
 * "stopped on request; rerun the same command to resume". */
#define PROVE_EXIT_INTERRUPTED 75

/* The stop request of SIGTERM / SIGINT (Slurm preemption, Ctrl-C): the signal
 * number, read by the campaign's comm thread (mpi_opts_t.interrupt). A signal
 * handler can only reach a global; this is the one, and only the handler
 * writes it. */
static volatile sig_atomic_t stop_signal;

/* First signal: record it (nothing else is async-signal-safe to do here).
 * Second one: the default action at once (the journal and the proof files
 * are consistent at every instant; leftover temporaries are removed by the
 * next run). */
static void on_stop_signal(int sig)
{
    if (stop_signal) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        raise(sig);
        return;
    }
    stop_signal = sig;
}

static void install_stop_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}

static void campaign_progress(void *arg, const mpi_progress_t *p)
{
    (void)arg;
    if (p->note) {
        printf("prove: %s\n", p->note);
    } else {
        char eta[32] = "-";
        if (p->eta_s >= 0)
            snprintf(eta, sizeof eta, "%.0f s", p->eta_s);
        printf("prove: %zu/%zu units done (%zu resumed, %zu proved), %d rank%s, %.1f s, %.0f proofs/h, ETA %s\n",
               p->done, p->total, p->resumed, p->proved, p->ranks, p->ranks == 1 ? "" : "s", p->elapsed_s,
               p->per_hour, eta);
    }
    fflush(stdout);
}

static bool is_campaign_form(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--campaign"))
            return true;
        size_t n = strlen(argv[i]);
        if (argv[i][0] != '-' && n > 5 && !strcmp(argv[i] + n - 5, ".json") &&
            (i == 1 || argv[i - 1][0] != '-' || strchr(argv[i - 1], '=')))
            return true;
    }
    return false;
}

static int prove_campaign(int argc, char **argv)
{
    static const struct option opts[] = {{"campaign", required_argument, 0, 'C'},
                                         {"mem-budget", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 't'},
                                         {"check-params", no_argument, 0, 'K'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *file = NULL;
    mpi_opts_t mo;
    memset(&mo, 0, sizeof mo);
    err_t err;
    gm_err_clear(&err);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'C': file = optarg; break;
        case 'm':
            if (jobs_size_parse(&mo.mem_budget, optarg, "--mem-budget", &err) || mo.mem_budget < (1u << 20)) {
                fprintf(stderr, "grothmpi: prove: %s\n", err.code ? err.msg : "--mem-budget: below 1 MiB");
                return 2;
            }
            break;
        case 't': mo.threads = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'K': mo.check_params = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!file && optind == argc - 1)
        file = argv[optind++];
    if (!file || optind != argc) {
        fprintf(stderr, "grothmpi: prove: one campaign file, please (grothmpi prove campaign.json)\n");
        return 2;
    }
    mpi_result_t res;
    install_stop_handlers();
    mo.interrupt = &stop_signal;
    int rc = mpi_campaign_run(file, &mo, campaign_progress, NULL, &res, &err);
    if (res.rank == 0 && res.check_text) {
        printf("\n%s", res.check_text);
        if (res.report_json[0])
            printf("\ncheck: %s\n", res.report_json);
        if (rc)
            fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        else
            printf("prove: check done: %zu units, every constraint of each satisfied\n", res.total);
        free(res.check_text);
        return rc ? 1 : 0;
    }
    if (res.rank == 0) {
        if (res.report) {
            printf("\n");
            mpi_report_print_text(res.report, stdout);
            if (res.report_json[0])
                printf("\nreport: %s, %s\n", res.report_json, res.report_csv);
        }
        if (rc)
            fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        else
            printf("prove: campaign done: %zu units, %zu proved in this run, %zu resumed, every proof verified\n",
                   res.total, res.proved, res.resumed);
    }
    mpi_report_free(res.report);
    /* The failure is rank 0's to report: it prints after MPI_Finalize, and
     * mpirun kills the job as soon as any rank exits non-zero, so the other
     * ranks exit 0 and leave the job's status to rank 0. */
    if (rc == GM_ECANCELED && res.rank == 0)
        return PROVE_EXIT_INTERRUPTED;
    /* "backend": "cuda" on a rank without a usable device is a usage
     * error, as --backend cuda is: 2. */
    if (rc == GM_ENOTSUP && res.rank == 0 && strstr(err.msg, "backend cuda: no usable CUDA device"))
        return 2;
    return rc && res.rank == 0 ? 1 : 0;
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

int cmd_prove(int argc, char **argv)
{
    if (is_campaign_form(argc, argv))
        return prove_campaign(argc, argv);
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
    const char *dir = NULL, *circuit = NULL, *sector = NULL, *out = NULL, *pub = NULL, *backend = NULL;
    const char *c1path = NULL, *part = NULL, *format = "raw";
    uint64_t size = 0, wseed = 1;
    long batch = 1;
    unsigned threads = 0;
    bool trust = false, noverify = false, verbose = false, split = false, json = false, check = false;
    const char *proof_seed = NULL;
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
        case 'C': c1path = optarg; break;
        case 'K': part = optarg; break;
        case 'F': format = optarg; break;
        case 'B': backend = optarg; break;
        case 'X': split = true; break;
        case 'R': proof_seed = optarg; break;
        case 'J': json = true; break;
        case 'Q': check = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!dir || !(circuit || c1path) || !out || optind != argc) {
        fprintf(stderr, "grothmpi: prove: --params, --circuit (or --c1) and --out are required\n");
        usage(stderr);
        return 2;
    }
    if (strcmp(format, "raw") != 0 && strcmp(format, "hex") != 0 && strcmp(format, "base64") != 0) {
        fprintf(stderr, "grothmpi: prove: --proof-format: '%s' is not raw, hex or base64\n", format);
        return 2;
    }
    if (batch < 1 || batch > 1024) {
        fprintf(stderr, "grothmpi: prove: --batch: %ld is not in 1..1024\n", batch);
        return 2;
    }
    if (check && !split) {
        /* the single-circuit unsplit form has no digest step to force: it
         * is campaigns' and --split's (params_ensure) */
        fprintf(stderr, "grothmpi: prove: --check-params goes with --split or a campaign\n");
        return 2;
    }
    size_t k = (size_t)batch;
    err_t err;
    gm_err_clear(&err);
    groth16_backend_t *be = NULL;
    char note[512];
    int brc = cli_backend_open(&be, backend, "prove", note, sizeof note);
    if (brc)
        return brc;
    circuit_t circ;
    c1_src_t c1src, *src = NULL;
    if (c1path) {
        int prc = prove_c1_open(&c1src, &circ, &k, c1path, part, circuit, batch, &err);
        if (prc) {
            fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
            groth16_backend_close(be);
            return prc;
        }
        src = &c1src;
    } else if (part) {
        fprintf(stderr, "grothmpi: prove: --partition needs --c1\n");
        groth16_backend_close(be);
        return 2;
    } else if (circuit_parse(&circ, circuit, size, sector, &err)) {
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        groth16_backend_close(be);
        return 2;
    }
    params_paths_t paths;
    if (params_paths(&paths, dir, circ.id, &err)) {
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
        groth16_backend_close(be);
        return 2;
    }
    char pp[sizeof paths.params], pubpath[sizeof paths.params + 16];
    snprintf(pp, sizeof pp, "%s", paths.params);
    bool filecoin = false;
    if (circ.kind == CIRCUIT_POREP && access(pp, R_OK) != 0) {
        /* a directory of Filecoin's files (paramfetch's): the .params under
         * rust-fil-proofs' v28 name for this sector size */
        porep_config_t pc;
        const porep_proof_t *pr = src ? src->c1.proof : porep_proof_find(circ.size, POREP_API_1_1);
        if (pr && porep_config_from_proof(&pc, pr, &err) == 0 &&
            porep_param_find(pp, NULL, sizeof pp, dir, &pc, &err) == 0)
            filecoin = true;
        else
            snprintf(pp, sizeof pp, "%s", paths.params);
    }
    if (pub)
        snprintf(pubpath, sizeof pubpath, "%s", pub);
    else
        snprintf(pubpath, sizeof pubpath, "%s.public.json", out);
    uint64_t rs_seed = 0;
    char *end = NULL;
    if (proof_seed && ((rs_seed = strtoull(proof_seed, &end, 0)), !*proof_seed || *end)) {
        fprintf(stderr, "grothmpi: prove: --proof-seed: '%s' is not a number\n", proof_seed);
        groth16_backend_close(be);
        return 2;
    }
    if (split) {
        groth16_backend_close(be);
        if (src || k != 1 || strcmp(format, "raw") != 0 ||
            (backend && strcmp(backend, "cpu") != 0 && strcmp(backend, "auto") != 0)) {
            fprintf(stderr, "grothmpi: prove: --split proves one seeded witness into a raw proof file on the CPU "
                            "(no --c1, --batch, --proof-format or --backend other than cpu)\n");
            if (src) {
                porep_graph_destroy(&src->g);
                porep_c1_free(&src->c1);
            }
            return 2;
        }
        cli_split_args_t sa = {.dir = dir, .params = pp, .out = out, .pub = pubpath, .circ = &circ,
                               .witness_seed = wseed, .proof_seed = proof_seed ? &rs_seed : NULL,
                               .threads = threads, .trust = trust, .no_verify = noverify, .verbose = verbose,
                               .json = json, .check_params = check};
        return cli_prove_split(&sa);
    }
    fr_t *rs = NULL;

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
    if (params_shape_load(&shape, NULL, &paths, false, &err)) {
        /* Filecoin's directory has no shape file of ours: record it (not
         * written there; seconds for 2 KiB, minutes for 32 GiB) */
        if (!filecoin || circuit_shape(&shape, &circ, &err))
            goto fail;
    }
    if (filecoin && verbose)
        printf("prove: %s: Filecoin's parameters %s\n", circ.id, pp);
    if (groth16_params_load(&params, pp, shape, trust ? GROTH16_LOAD_TRUST : GROTH16_LOAD_DEFAULT, pool, &err))
        goto fail;
    if (groth16_prover_create(&pv, params, shape, pool, &err))
        goto fail;
    groth16_prover_set_backend(pv, be);
    if (note[0]) /* auto's choice, once the inputs are known good */
        gm_log(GM_LOG_INFO, "prove: %s", note);
    t1 = gm_now_ns();
    uint64_t t_load = t1 - t0;
    t0 = t1;
    if (make_witnesses(cs, w, &circ, wseed, k, src, &err))
        goto fail;
    t1 = gm_now_ns();
    uint64_t t_wit = t1 - t0;
    t0 = t1;
    groth16_timings_t tm;
    if (proof_seed && !(rs = calloc(2 * k, sizeof *rs))) {
        gm_err_set(&err, GM_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; rs && i < k; i++)
        cli_proof_rs(&rs[2 * i], rs_seed + i);
    if (groth16_prove(pv, proofs, w, k, rs, noverify ? GROTH16_PROVE_NO_VERIFY : GROTH16_PROVE_DEFAULT, pool, &tm,
                      &err))
        goto fail;
    t0 = gm_now_ns();
    for (size_t i = 0; i < k; i++)
        groth16_proof_to_bytes(bytes + i * GROTH16_PROOF_BYTES, &proofs[i]);
    if (k == 1) {
        js = cli_inputs_json(&w[0]);
    } else {
        js = json_array();
        for (size_t i = 0; i < k; i++)
            json_array_append_new(js, cli_inputs_json(&w[i]));
    }
    text = json_dumps(js, JSON_INDENT(1));
    if (!text) {
        gm_err_set(&err, GM_ENOMEM, "out of memory for the public inputs");
        goto fail;
    }
    /* Public inputs first: a proof file never exists without its inputs. */
    if (gm_file_write(pubpath, text, strlen(text), &err) ||
        write_proofs(out, bytes, k * GROTH16_PROOF_BYTES, format, &err))
        goto fail;
    t1 = gm_now_ns();
    printf("prove: %s: %zu proof%s written to %s (%s), public inputs in %s\n", circ.id, k, k == 1 ? "" : "s", out,
           noverify ? "not verified" : "verified", pubpath);
    if (verbose) {
        printf("prove: %-10s %9.3f s   (params, shape, prover; %zu MiB of points, %u threads)\n", "load",
               sec(t_load), groth16_params_memory(params) >> 20, topo_pool_size(pool));
        printf("prove: %-10s %9.3f s\n", "witness", sec(t_wit));
        cli_print_stages("prove", &tm, false);
        printf("prove: %-10s %9.3f s\n", "write", sec(t1 - t0));
        printf("prove: %-10s %9.3f s   (prove total, %.3f s per proof)\n", "total", sec(tm.total),
               sec(tm.total) / (double)k);
        printf("prove: memory peak %.1f MiB (allocator), rss peak %.1f MiB\n", (double)gm_mem_peak() / 1048576.0,
               (double)gm_rss_peak() / 1048576.0);
    }
    cli_backend_summary(be, "prove", verbose);
    rc = 0;
fail:
    if (rc)
        fprintf(stderr, "grothmpi: prove: %s\n", err.msg);
    free(rs);
    free(text);
    json_decref(js);
    for (size_t i = 0; cs && i < k; i++)
        cs_destroy(cs[i]);
    free(cs);
    free(w);
    free(proofs);
    free(bytes);
    groth16_prover_destroy(pv);
    groth16_backend_close(be);
    groth16_params_free(params);
    cs_shape_free(shape);
    topo_pool_destroy(pool);
    if (src) {
        porep_graph_destroy(&src->g);
        porep_c1_free(&src->c1);
    }
    return rc;
}
