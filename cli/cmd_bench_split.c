/*
 * cli/cmd_bench_split.c — `mpirun -np R grothmpi bench split`: one proof of
 * a built-in circuit (test-synthetic at 2^K rows, or a PoRep partition
 * whose parameters are cached) proved first by the unsplit prover on rank 0
 * alone (the single-rank memory peak and the local stage rates), then split
 * over all R ranks (mpi_split_prove). Per rank it prints the key bytes held,
 * the allocator peak against split proofs' memory bound (docs/split.md:
 * base + 1.15 x the split share of the single-rank peak + MSM scratch), the
 * bytes sent and received per network stage against the count predicted
 * from the sizes before the run, and the time spent in MPI calls; then a
 * model of the time per proof of a larger circuit on more ranks (default
 * 2^27 rows, R = 16, 100 Gb/s) from this run's measured rates and the
 * predicted volumes. A benchmark: it measures and never asserts (a proof
 * that differs from the unsplit one is reported, not fatal).
 *
 * Here and not in bench/ because it runs under MPI (mpi/) and the parameter
 * cache (params/), which only cli/ may include together.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "bench/bench.h"
#include "circuits/circuits.h"
#include "cli/cli.h"
#include "ec/ec.h"
#include "groth16/groth16.h"
#include "mpi/mpi.h"
#include "params/params.h"
#include "topo/topo.h"

/* Bytes of one agreement (an int each way) and how many a successful
 * mpi_split_prove counts (after load, h, the MSMs, the assembly, and the
 * accounts' allocation; the one after the accounts' gather comes too late
 * to be in them); the partial sums of one rank (4 G1 and
 * 1 G2 Jacobian points). The prediction is made from these and the sizes;
 * the measured counts come from mpi_split_prove's own accounting. */
#define SB_AGREE_BYTES 4u
#define SB_AGREES 5u
#define SB_SUMS_BYTES (4u * 3u * 48u + 3u * 96u)
#define SB_NTTS 7u      /* iNTT and coset NTT of a, b, c; the coset iNTT of h */
#define SB_EXCHANGES 3u /* all-to-alls per split NTT (six-step) */
#define SB_GOAL 1.15

typedef struct {
    unsigned log, threads, model_log, model_ranks, model_cores;
    double model_gbps;
    const char *porep, *cache;
    bool json, check;
} sb_opts_t;

/* What the unsplit proof on rank 0 measured. Rates in core-ns: CPU time
 * of the pool's threads (groth16_timings_t's cpu_*), per unit of work. */
typedef struct {
    uint64_t peak;             /* allocator peak of the whole unsplit proof, the key included */
    uint64_t base;             /* allocated before it: the shape, the witness, the pool */
    double g1_ns, g2_ns;       /* per point of the G1 MSMs (a, b_g1, l, h together), of the G2 MSM */
    double ntt_ns;             /* per butterfly of the 7 NTTs (their pointwise passes included) */
    double abc_ns, wit_ns;     /* per row of a/b/c, of the witness (one thread) */
    groth16_proof_t proof;
} sb_ref_t;

/* What one rank is predicted to send and receive, from the sizes alone. */
typedef struct {
    uint64_t ntt, agree, reduce_sent, reduce_recv, msm_scratch;
} sb_pred_t;

static void usage(FILE *f)
{
    fprintf(f, "usage: [mpirun -np R] grothmpi bench split [--log K | --porep SIZE] [--threads N] [--cache DIR]\n"
               "                                   [--check-params] [--json]\n"
               "                                   [--model-log K] [--model-ranks R] [--model-cores C]\n"
               "                                   [--model-gbps G]\n\n"
               "One proof proved by the unsplit prover on rank 0 alone, then split over the R ranks\n"
               "(docs/split.md): per rank the key held, the memory peak against\n"
               "base + 1.15 x (single-rank peak - base) / R + MSM scratch, the bytes sent and\n"
               "received per stage against the predicted count, and the time inside MPI calls;\n"
               "then a time model of a 2^K circuit on R ranks from this run's local rates.\n"
               "  --log K          test-synthetic at 2^K rows (default 14; setup once, cached)\n"
               "  --porep SIZE     a PoRep partition of SIZE (e.g. 2KiB) instead: its parameters\n"
               "                   must be in the cache (grothmpi setup --circuit porep)\n"
               "  --threads N      worker threads per rank (default 1)\n"
               "  --cache DIR      parameter cache (default $GROTHMPI_PARAMS_CACHE or\n"
               "                   /tmp/grothmpi-params)\n"
               "  --check-params   load with the subgroup check of every point (default: trusted)\n"
               "  --json           the same as JSON on stdout\n"
               "  --model-log K    the modelled circuit: 2^K rows, this circuit's densities (default 27)\n"
               "  --model-ranks R  (default 16)   --model-cores C  cores per rank (default 32)\n"
               "  --model-gbps G   per-rank network bandwidth each way, non-blocking (default 100)\n");
}

static int parse(sb_opts_t *o, int argc, char **argv)
{
    static const struct option opts[] = {
        {"log", required_argument, 0, 'l'},         {"porep", required_argument, 0, 'p'},
        {"threads", required_argument, 0, 't'},     {"cache", required_argument, 0, 'c'},
        {"check-params", no_argument, 0, 'K'},      {"json", no_argument, 0, 'j'},
        {"model-log", required_argument, 0, 'L'},   {"model-ranks", required_argument, 0, 'R'},
        {"model-cores", required_argument, 0, 'C'}, {"model-gbps", required_argument, 0, 'G'},
        {"help", no_argument, 0, 'h'},              {0, 0, 0, 0}};
    const char *env = getenv("GROTHMPI_PARAMS_CACHE");
    *o = (sb_opts_t){.log = 14, .threads = 1, .model_log = 27, .model_ranks = 16, .model_cores = 32,
                     .model_gbps = 100, .cache = env && *env ? env : "/tmp/grothmpi-params"};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        char *end = NULL;
        unsigned long v = optarg ? strtoul(optarg, &end, 10) : 0;
        bool bad = optarg && (end == optarg || *end);
        switch (c) {
        case 'l': o->log = (unsigned)v, bad |= v < 3 || v > 24; break;
        case 'p': o->porep = optarg, bad = false; break;
        case 't': o->threads = (unsigned)v, bad |= v < 1 || v > 1024; break;
        case 'c': o->cache = optarg, bad = false; break;
        case 'K': o->check = true; break;
        case 'j': o->json = true; break;
        case 'L': o->model_log = (unsigned)v, bad |= v < 10 || v > 40; break;
        case 'R': o->model_ranks = (unsigned)v, bad |= v < 1 || v > 65536; break;
        case 'C': o->model_cores = (unsigned)v, bad |= v < 1 || v > 4096; break;
        case 'G': o->model_gbps = strtod(optarg, &end), bad = end == optarg || *end || !(o->model_gbps > 0); break;
        case 'h': usage(stdout); return 1;
        default: usage(stderr); return 2;
        }
        if (bad) {
            const char *name = "?";
            for (int i = 0; opts[i].name; i++)
                if (opts[i].val == c)
                    name = opts[i].name;
            fprintf(stderr, "grothmpi: bench split: --%s: '%s' is out of range or not a number\n", name, optarg);
            return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "grothmpi: bench split: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    return 0;
}

static void note_stdout(void *arg, const char *line)
{
    (void)arg;
    printf("bench split: %s\n", line);
    fflush(stdout);
}

/* Rank 0, before the others read anything: the circuit's parameters in the
 * cache (test-synthetic: made once; porep: must be there). */
static int ensure_params(const params_paths_t *p, const circuit_t *c, const sb_opts_t *o, err_t *err)
{
    params_ensure_t r;
    params_ensure_opts_t eo = {.note = o->json ? NULL : note_stdout};
    unsigned flags = (o->porep ? 0 : PARAMS_ENSURE_GENERATE) | (o->check ? PARAMS_ENSURE_FULL : 0);
    return params_ensure(&r, p, c, flags, &eo, err);
}

/* Rank 0: the unsplit proof, its peak and rates. */
static int reference(sb_ref_t *ref, const params_paths_t *p, const circuit_t *c, const cs_shape_t *shape,
                     const groth16_witness_t *w,
                     const groth16_counts_t *n, uint64_t m, const fr_t rs[2], unsigned load_flags,
                     topo_pool_t *pool, err_t *err)
{
    groth16_params_t *params = NULL;
    groth16_prover_t *pv = NULL;
    groth16_timings_t t;
    ref->base = gm_mem_current();
    gm_mem_reset_peak();
    int rc = groth16_params_load(&params, p->params, shape, load_flags, pool, err);
    if (!rc)
        rc = groth16_prover_create(&pv, params, shape, pool, err);
    if (!rc)
        rc = groth16_prove(pv, &ref->proof, w, 1, rs, GROTH16_PROVE_NO_VERIFY, pool, &t, err);
    ref->peak = gm_mem_peak();
    groth16_prover_destroy(pv);
    groth16_params_free(params);
    if (rc)
        return rc;
    /* CPU time of the pool's threads, not wall: on a shared machine the
     * wall time counts the other processes' turns too. cpu_msm covers the
     * five MSMs; it is shared out between G1 and G2 as their wall times. */
    double lg = (double)__builtin_ctzll(m);
    double g1w = (double)(t.msm_a + t.msm_b_g1 + t.msm_l + t.msm_h), g2w = (double)t.msm_b_g2;
    double cpu_msm = (double)t.cpu_msm;
    ref->g1_ns = cpu_msm * g1w / (g1w + g2w) / (double)(n->a + n->b_g1 + n->l + n->h);
    ref->g2_ns = cpu_msm * g2w / (g1w + g2w) / (double)(n->b_g2 ? n->b_g2 : 1);
    ref->ntt_ns = (double)t.cpu_ntt / ((double)SB_NTTS * (double)(m / 2) * lg);
    ref->abc_ns = (double)t.cpu_abc / (double)shape->n_rows;
    /* the witness once more, alone (every rank made its own at once) */
    cs_t *cs = NULL;
    circuit_witness_opts_t wo = {.seed = 1, .mode = CS_WITNESS};
    uint64_t c0 = gm_process_cpu_ns();
    rc = circuit_witness(&cs, c, &wo, err);
    ref->wit_ns = (double)(gm_process_cpu_ns() - c0) / (double)shape->n_rows;
    cs_destroy(cs);
    return rc;
}

/* The prediction for rank r of R, from the sizes (before the run). */
static void predict(sb_pred_t *pr, const groth16_counts_t *n, uint64_t m, unsigned r, unsigned R, unsigned nw)
{
    uint64_t lo, hi, nmax = 0;
    groth16_slice_range(&lo, &hi, m - 1, r, R);
    if (r == R - 1)
        hi = m; /* the last rank also holds value m - 1 (mpi_split_ntt_range) */
    pr->ntt = (uint64_t)llround((double)(SB_NTTS * SB_EXCHANGES * sizeof(fr_t)) * (double)(hi - lo) *
                                (double)(R - 1) / (double)R);
    pr->agree = (uint64_t)SB_AGREES * SB_AGREE_BYTES;
    pr->reduce_sent = r == 0 ? 0 : SB_SUMS_BYTES;
    pr->reduce_recv = r == 0 ? (uint64_t)SB_SUMS_BYTES * (R - 1) : 0;
    const uint64_t cnt[5] = {n->h, n->l, n->a, n->b_g1, n->b_g2};
    for (int s = 0; s < 5; s++) {
        groth16_slice_range(&lo, &hi, cnt[s], r, R);
        if (hi - lo > nmax)
            nmax = hi - lo;
    }
    size_t g1 = msm_g1_scratch_size((size_t)nmax, nw, 0), g2 = msm_g2_scratch_size((size_t)nmax, nw, 0);
    pr->msm_scratch = g1 > g2 ? g1 : g2;
}

static double mib(uint64_t b) { return (double)b / 1048576.0; }

/* The model's stages for one rank, seconds. */
typedef struct {
    double wit, abc, ntt, net, msm, total, one_node;
    double net_bytes, key_bytes;
} sb_model_t;

static void model(sb_model_t *md, const sb_ref_t *ref, const sb_opts_t *o, const cs_shape_t *shape,
                  const groth16_counts_t *n, uint64_t m)
{
    double M = ldexp(1.0, (int)o->model_log), s = M / (double)m, R = (double)o->model_ranks,
           C = (double)o->model_cores;
    double rows = (double)shape->n_rows * s;
    md->wit = ref->wit_ns * rows * 1e-9; /* the whole witness on every rank, one thread */
    double abc = ref->abc_ns * rows * 1e-9 / C;
    double ntt = ref->ntt_ns * (double)SB_NTTS * (M / 2) * (double)o->model_log * 1e-9 / C;
    double msm = (ref->g1_ns * (double)(n->a + n->b_g1 + n->l + n->h) + ref->g2_ns * (double)n->b_g2) * s * 1e-9 / C;
    md->abc = abc / R, md->ntt = ntt / R, md->msm = msm / R;
    md->net_bytes = (double)(SB_NTTS * SB_EXCHANGES * sizeof(fr_t)) * (M / R) * (R - 1) / R;
    md->net = md->net_bytes * 8 / (o->model_gbps * 1e9);
    md->total = md->wit + md->abc + md->ntt + md->net + md->msm;
    md->one_node = md->wit + abc + ntt + msm;
    md->key_bytes = (double)(n->h + n->l + n->a + n->b_g1) * s * 96 + (double)n->b_g2 * s * 192;
}

static json_t *report_json(const sb_opts_t *o, const circuit_t *c, const cs_shape_t *shape, uint64_t m,
                           const sb_ref_t *ref, const mpi_split_rank_t *ranks, const sb_pred_t *pred, int R,
                           const sb_model_t *md, bool same)
{
    json_t *a = json_array();
    for (int i = 0; i < R; i++) {
        const mpi_split_rank_t *r = &ranks[i];
        double bound = (double)ref->base + SB_GOAL * (double)(ref->peak - ref->base) / R + (double)pred[i].msm_scratch;
        json_t *st = json_object();
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++)
            json_object_set_new(st, mpi_split_stage_names[s],
                                json_pack("{s:I, s:I, s:f}", "sent", (json_int_t)r->sent[s], "recv",
                                          (json_int_t)r->recv[s], "wait_s", (double)r->wait_ns[s] * 1e-9));
        json_array_append_new(
            a, json_pack("{s:i, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:f, s:o}", "rank", i, "key_bytes",
                         (json_int_t)r->key_bytes, "mem_peak", (json_int_t)r->mem_peak, "mem_bound", bound,
                         "predicted_ntt_bytes", (json_int_t)pred[i].ntt, "predicted_agree_bytes",
                         (json_int_t)pred[i].agree, "predicted_reduce_sent", (json_int_t)pred[i].reduce_sent,
                         "predicted_reduce_recv", (json_int_t)pred[i].reduce_recv, "total_s",
                         (double)r->total_ns * 1e-9, "stages", st));
    }
    json_t *rates = json_pack("{s:f, s:f, s:f, s:f, s:f}", "g1_core_ns_per_point", ref->g1_ns,
                              "g2_core_ns_per_point", ref->g2_ns, "ntt_core_ns_per_butterfly", ref->ntt_ns,
                              "abc_core_ns_per_row", ref->abc_ns, "witness_ns_per_row", ref->wit_ns);
    json_t *mj = json_pack("{s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "log",
                           (int)o->model_log, "ranks", (int)o->model_ranks, "cores", (int)o->model_cores, "gbps",
                           o->model_gbps, "witness_s", md->wit, "abc_s", md->abc, "ntt_s", md->ntt, "net_s",
                           md->net, "msm_s", md->msm, "total_s", md->total, "one_node_s", md->one_node,
                           "net_bytes_per_rank", md->net_bytes, "key_bytes_per_rank", md->key_bytes / o->model_ranks);
    return json_pack("{s:s, s:I, s:I, s:i, s:i, s:I, s:I, s:b, s:o, s:o, s:o}", "circuit", c->id, "rows",
                     (json_int_t)shape->n_rows, "domain", (json_int_t)m, "ranks", R, "threads", (int)o->threads,
                     "single_rank_peak", (json_int_t)ref->peak, "base_bytes", (json_int_t)ref->base,
                     "same_proof_as_unsplit", same, "rates", rates, "per_rank", a, "model", mj);
}

static void report_text(const sb_opts_t *o, const circuit_t *c, const cs_shape_t *shape, uint64_t m,
                        const sb_ref_t *ref, const mpi_split_rank_t *ranks, const sb_pred_t *pred, int R,
                        const sb_model_t *md, bool same)
{
    bench_print_machine();
    printf("split: %s, %llu rows, domain %llu, %d rank%s x %u thread%s; the proof is %s the unsplit one\n", c->id,
           (unsigned long long)shape->n_rows, (unsigned long long)m, R, R == 1 ? "" : "s", o->threads,
           o->threads == 1 ? "" : "s", same ? "byte-identical to" : "NOT the same as");
    printf("single rank (unsplit prover, rank 0): allocator peak %.2f MiB, of which base %.2f MiB (shape, witness,\n"
           "pool: held before the proof, the same on every rank)\n", mib(ref->peak), mib(ref->base));
    printf("memory bound per rank = base + %.2f x (peak - base) / R + the rank's MSM scratch (buckets per worker)\n",
           SB_GOAL);
    printf("%4s %9s %9s %9s %6s %12s %12s %7s %7s %9s %9s %8s %8s\n", "rank", "key MiB", "peak MiB", "bound MiB",
           "pk/bd", "ntt sent", "predicted", "agree", "pred", "reduce", "pred", "ntt wait", "wait s");
    for (int i = 0; i < R; i++) {
        const mpi_split_rank_t *r = &ranks[i];
        double bound = (double)ref->base + SB_GOAL * (double)(ref->peak - ref->base) / R + (double)pred[i].msm_scratch;
        uint64_t wait = 0;
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++)
            wait += r->wait_ns[s];
        uint64_t red = r->sent[MPI_SPLIT_REDUCE] + r->recv[MPI_SPLIT_REDUCE];
        printf("%4d %9.2f %9.2f %9.2f %6.2f %12llu %12llu %7llu %7llu %9llu %9llu %8.3f %8.3f\n", i, mib(r->key_bytes),
               mib(r->mem_peak), bound / 1048576.0, (double)r->mem_peak / bound,
               (unsigned long long)r->sent[MPI_SPLIT_NTT], (unsigned long long)pred[i].ntt,
               (unsigned long long)r->sent[MPI_SPLIT_AGREE], (unsigned long long)pred[i].agree,
               (unsigned long long)red, (unsigned long long)(pred[i].reduce_sent + pred[i].reduce_recv),
               (double)r->wait_ns[MPI_SPLIT_NTT] * 1e-9, (double)wait * 1e-9);
    }
    printf("(ntt received equals sent within a slice's rounding; agree: bytes sent; reduce: sent + received)\n");
    printf("local rates (rank 0 alone, unsplit, CPU ns): G1 MSM %.0f ns/point, G2 MSM %.0f ns/point,\n"
           "NTT %.1f ns/butterfly, a/b/c %.0f ns/row, witness %.0f ns/row (one thread)\n",
           ref->g1_ns, ref->g2_ns, ref->ntt_ns, ref->abc_ns, ref->wit_ns);
    printf("model: 2^%u rows with this circuit's densities, R = %u ranks of %u cores (CPU time / cores: perfect\n"
           "scaling), %.0f Gb/s per rank each way (non-blocking); the rates above scaled linearly (an MSM's\n"
           "per-point cost falls with its size: at 2^%u the MSMs cost less than this):\n",
           o->model_log, o->model_ranks, o->model_cores, o->model_gbps, o->model_log);
    printf("  key per rank %.2f GB; per rank: witness %.2f s (whole, not split), a/b/c %.2f s, NTT %.2f s,\n"
           "  all-to-alls %.2f GB sent = %.2f s, MSMs %.2f s: %.1f s per proof (one node, whole key: %.1f s, %.1fx)\n",
           md->key_bytes / o->model_ranks * 1e-9, md->wit, md->abc, md->ntt, md->net_bytes * 1e-9, md->net, md->msm,
           md->total, md->one_node, md->one_node / md->total);
}

int cmd_bench_split(int argc, char **argv)
{
    sb_opts_t o;
    int prc = parse(&o, argc, argv);
    if (prc)
        return prc == 1 ? 0 : prc;
    sb_ref_t ref = {0};
    groth16_counts_t n = {0};
    sb_pred_t *pred = NULL;
    mpi_split_rank_t *ranks = NULL;
    cli_split_local_t l = {0};
    circuit_t c;
    params_paths_t p;
    groth16_proof_t proof;
    fr_t rs[2];
    cli_proof_rs(rs, 1); /* fixed r, s: the split proof is compared with the unsplit one */
    err_t err;
    gm_err_clear(&err);
    int rank = 0, size = 1, rc = mpi_study_init(&rank, &size, &err);
    if (rc) {
        fprintf(stderr, "grothmpi: bench split: %s\n", err.msg);
        return 1;
    }
    rc = circuit_parse(&c, o.porep ? "porep" : "test-synthetic", o.porep ? 0 : (uint64_t)1 << o.log, o.porep, &err);
    if (!rc)
        rc = params_paths(&p, o.cache, c.id, &err);
    if (!rc && rank == 0)
        rc = ensure_params(&p, &c, &o, &err);
    if (!(rc = mpi_split_agree(NULL, rc, &err)) && !(rc = cli_split_local(&l, &p, &c, 1, o.threads, o.check, &err)))
        rc = mpi_split_agree(NULL, groth16_shape_counts(&n, l.shape, &err), &err);
    uint64_t m = n.h + 1;
    unsigned load_flags = o.check ? GROTH16_LOAD_DEFAULT : GROTH16_LOAD_TRUST;
    if (!rc) {
        /* the others sleep meanwhile, leaving rank 0 the cores it shares with them */
        if (rank == 0)
            rc = reference(&ref, &p, &c, l.shape, &l.w, &n, m, rs, load_flags, l.pool, &err);
        rc = mpi_split_agree_idle(NULL, rc, &err);
    }
    /* the prediction, from the sizes, before the split run */
    if (!rc && rank == 0 && !(pred = calloc((size_t)size, sizeof *pred)))
        rc = gm_err_set(&err, GM_ENOMEM, "out of memory");
    for (int i = 0; pred && i < size; i++)
        predict(&pred[i], &n, m, (unsigned)i, (unsigned)size, o.threads);
    if (!rc) {
        gm_mem_reset_peak();
        mpi_split_job_t job = {.params_path = p.params, .shape = l.shape, .w = &l.w, .rs = rs,
                               .load_flags = load_flags, .prove_flags = GROTH16_PROVE_NO_VERIFY, .pool = l.pool};
        rc = mpi_split_prove(&proof, &ranks, &job, &err);
    }
    if (rank == 0 && rc) {
        fprintf(stderr, "grothmpi: bench split: %s\n", err.msg);
    } else if (rank == 0) {
        sb_model_t md;
        model(&md, &ref, &o, l.shape, &n, m);
        uint8_t b1[GROTH16_PROOF_BYTES], b2[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(b1, &proof);
        groth16_proof_to_bytes(b2, &ref.proof);
        bool same = memcmp(b1, b2, sizeof b1) == 0;
        if (o.json) {
            json_t *js = report_json(&o, &c, l.shape, m, &ref, ranks, pred, size, &md, same);
            json_dumpf(js, stdout, JSON_INDENT(1));
            printf("\n");
            json_decref(js);
        } else {
            report_text(&o, &c, l.shape, m, &ref, ranks, pred, size, &md, same);
        }
    }
    free(pred);
    return cli_split_local_end(&l, ranks, rank, rc);
}
