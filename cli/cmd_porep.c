/*
 * cli/cmd_porep.c — `grothmpi porep <action>`: Filecoin SDR PoRep tools.
 *
 *   parent-cache  write a sector's parent cache in rust-fil-proofs' format and
 *                 check its SHA-256 against the published parent_cache.json
 *   id            print a registered seal proof's porep_id and cache name
 *   parents       print the 14 parents of one node
 *   seal          seal a 2KiB/8MiB/512MiB sector into a directory (labels, trees, commitments)
 *   c1            derive the interactive challenges of a sealed sector, write C1 JSON
 *   synthetic     a sparse synthetic C1 of any size (32GiB, 64GiB) that verifies
 *   verify-c1     check every path, label and encoding of a C1 JSON file natively
 *   verify-seal, param-name   in cli/cmd_porep_seal.c
 *
 * Errors are one line on stderr; exit 0 success, 1 failure, 2 usage error.
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "synth/porep/porep.h"
#include "topo/topo.h"

typedef struct {
    const char *sector_size, *api, *proof_id, *out, *node, *threads;
    const char *seed, *data, *prover_id, *actor, *sector_id, *ticket;
    const char *pos; /* one positional argument (c1 DIR, verify-c1 FILE) */
    int quiet, zero;
} opts_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi porep <action> [options]\n"
            "\n"
            "actions:\n"
            "  parent-cache --sector-size S --api V --out FILE [--threads N] [--quiet]\n"
            "               write the sector's parent cache (14 u32 LE per node, rust-fil-proofs'\n"
            "               format) atomically, and check its SHA-256 against parent_cache.json\n"
            "  id           --sector-size S --api V\n"
            "               the registered seal proof, its porep_id and parent cache name\n"
            "  parents      --sector-size S --api V --node N\n"
            "               the 14 parents of node N (6 DRG, then 8 expander)\n"
            "  seal         --sector-size S [--api V] --seed X --out DIR [--data FILE | --zero]\n"
            "               [--actor N | --prover-id HEX] [--sector-id N] [--ticket X] [--threads N]\n"
            "               seal a 2KiB, 8MiB or 512MiB sector: data (pseudo-random from the seed,\n"
            "               all zero, or a file), labels, tree_d/tree_c/tree_r_last, comm_d/comm_r\n"
            "  c1           DIR --seed X --out FILE\n"
            "               derive the interactive challenges of a sealed DIR and write their vanilla\n"
            "               proofs as C1 JSON (SealCommitPhase1Output, as lotus and curio write it)\n"
            "  synthetic    --sector-size S [--api V] --seed X --out FILE\n"
            "               a sparse synthetic C1 of any size (32GiB, 64GiB) that verifies natively\n"
            "  verify-c1    FILE\n"
            "               check every challenge, path, column, label and encoding of a C1 file\n"
            "  verify-seal  (--vk FILE | --params-dir DIR) (--seal-info FILE | one seal's flags)\n"
            "               verify PoRep proofs from public data alone, as rust-fil-proofs' verify_seal\n"
            "               (grothmpi porep verify-seal --help)\n"
            "  param-name   (--proof-id N | --sector-size S [--api V] [--feature F])\n"
            "               Filecoin's v28 .params/.vk file names of the sector's circuit\n"
            "\n"
            "options:\n"
            "  --sector-size S  2KiB, 8MiB, 512MiB, 32GiB or 64GiB (or a byte count)\n"
            "  --api V          proofs API version: 1.0 (V1 proofs) or 1.1 (V1_1 proofs)\n"
            "  --proof-id N     a registered seal proof id 0..19 instead of size and API\n"
            "                   (10..19: SyntheticPoRep and NonInteractivePoRep, API 1.2)\n"
            "  --seed X         64 hex digits (0x allowed), or any text (hashed with SHA-256)\n"
            "  --ticket X       as --seed (default: derived from --seed)\n"
            "  --threads N      worker threads (default: one per CPU)\n"
            "  --quiet          no progress lines\n");
}

/* Reads the options of the actions in this file. Returns as cli_opts_parse. */
static int parse_opts(opts_t *o, int argc, char **argv, const char *cmd)
{
    static const cli_opt_t table[] = {
        {"--sector-size", offsetof(opts_t, sector_size)}, {"--api", offsetof(opts_t, api)},
        {"--proof-id", offsetof(opts_t, proof_id)},       {"--out", offsetof(opts_t, out)},
        {"--node", offsetof(opts_t, node)},               {"--threads", offsetof(opts_t, threads)},
        {"--seed", offsetof(opts_t, seed)},               {"--data", offsetof(opts_t, data)},
        {"--prover-id", offsetof(opts_t, prover_id)},     {"--actor", offsetof(opts_t, actor)},
        {"--sector-id", offsetof(opts_t, sector_id)},     {"--ticket", offsetof(opts_t, ticket)},
    };
    static const cli_opt_t flags[] = {
        {"--quiet", offsetof(opts_t, quiet)}, {"-q", offsetof(opts_t, quiet)}, {"--zero", offsetof(opts_t, zero)}};
    memset(o, 0, sizeof *o);
    return cli_opts_parse(o, table, sizeof table / sizeof table[0], flags, sizeof flags / sizeof flags[0],
                          offsetof(opts_t, pos), argc, argv, cmd, usage);
}

/* Parses a decimal u64 in [lo, hi]; prints and returns 2 when it is not. */
static int parse_u64(uint64_t *out, const char *s, uint64_t lo, uint64_t hi, const char *opt, const char *cmd)
{
    char *end = NULL;
    unsigned long long v = 0;
    if (s[0] >= '0' && s[0] <= '9')
        v = strtoull(s, &end, 10);
    if (!end || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "grothmpi porep %s: %s: '%s' is not an integer in %llu..%llu\n", cmd, opt, s,
                (unsigned long long)lo, (unsigned long long)hi);
        return 2;
    }
    *out = v;
    return 0;
}

/* Resolves the registered seal proof from --proof-id or --sector-size and
 * --api. Returns 0 or 2 (a bad or missing value, printed). */
static int resolve_proof(const porep_proof_t **out, const opts_t *o, const char *cmd)
{
    err_t err;
    uint64_t size = 0;
    porep_api_t api = POREP_API_1_1;
    if (o->sector_size && porep_sector_size_parse(&size, o->sector_size, "--sector-size", &err) != 0) {
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 2;
    }
    if (o->api && porep_api_parse(&api, o->api, "--api", &err) != 0) {
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 2;
    }
    if (o->proof_id) {
        uint64_t id;
        if (parse_u64(&id, o->proof_id, 0, 19, "--proof-id", cmd) != 0)
            return 2;
        const porep_proof_t *p = porep_proof_by_id((uint32_t)id);
        if ((o->sector_size && size != p->sector_size) || (o->api && api != p->api)) {
            fprintf(stderr, "grothmpi porep %s: --proof-id %s is %s, which disagrees with --sector-size/--api\n",
                    cmd, o->proof_id, p->name);
            return 2;
        }
        *out = p;
        return 0;
    }
    if (!o->sector_size || !o->api) {
        fprintf(stderr, "grothmpi porep %s: %s is required (or --proof-id)\n", cmd,
                !o->sector_size ? "--sector-size" : "--api");
        return 2;
    }
    const porep_proof_t *p = porep_proof_find(size, api);
    if (!p) {
        if (api == POREP_API_1_2)
            fprintf(stderr,
                    "grothmpi porep %s: --api: 1.2 has no plain seal proof, only feature proofs "
                    "(choose one with --proof-id 10..19)\n",
                    cmd);
        else
            fprintf(stderr,
                    "grothmpi porep %s: --sector-size: '%s' has no registered seal proof "
                    "(2KiB, 8MiB, 512MiB, 32GiB, 64GiB)\n",
                    cmd, o->sector_size);
        return 2;
    }
    *out = p;
    return 0;
}

static int make_graph(porep_graph_t *g, const porep_proof_t *p, const char *cmd)
{
    uint8_t id[32];
    err_t err;
    porep_id_make(id, p);
    if (porep_graph_init(g, p->sector_size / POREP_NODE_SIZE, id, p->api, &err) != 0) {
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 1;
    }
    return 0;
}

/* ---- porep id ------------------------------------------------------------------- */

static int run_id(const opts_t *o)
{
    const porep_proof_t *p;
    porep_graph_t g;
    int rc = resolve_proof(&p, o, "id");
    if (rc || (rc = make_graph(&g, p, "id")))
        return rc;
    char size[32], id[65];
    porep_sector_size_format(size, sizeof size, p->sector_size);
    gm_hex_encode(id, g.porep_id, 32);
    const char *pub = porep_parent_cache_published(&g);
    printf("proof:        %s (registered id %u, API %s)\n", p->name, p->id, porep_api_name(p->api));
    printf("sector size:  %s (%llu nodes)\n", size, (unsigned long long)g.nodes);
    printf("porep_id:     %s\n", id);
    printf("parent cache: %s\n", g.cache_name);
    printf("published:    %s\n", pub ? pub : "(not in rust-fil-proofs' parent_cache.json)");
    porep_graph_destroy(&g);
    return 0;
}

/* ---- porep parents ---------------------------------------------------------------- */

static int run_parents(const opts_t *o)
{
    const porep_proof_t *p;
    porep_graph_t g;
    int rc = resolve_proof(&p, o, "parents");
    if (rc || (rc = make_graph(&g, p, "parents")))
        return rc;
    uint64_t node;
    if (!o->node) {
        fprintf(stderr, "grothmpi porep parents: --node is required\n");
        rc = 2;
    } else {
        rc = parse_u64(&node, o->node, 0, g.nodes - 1, "--node", "parents");
    }
    if (rc) {
        porep_graph_destroy(&g);
        return rc;
    }
    uint32_t par[POREP_DEGREE];
    porep_graph_parents(par, &g, (uint32_t)node);
    porep_graph_destroy(&g);
    printf("base:");
    for (int i = 0; i < POREP_BASE_DEGREE; i++)
        printf(" %u", par[i]);
    printf("\nexpander:");
    for (int i = POREP_BASE_DEGREE; i < POREP_DEGREE; i++)
        printf(" %u", par[i]);
    printf("\n");
    return 0;
}

/* ---- porep parent-cache ------------------------------------------------------------ */

static int make_pool(topo_pool_t **pool, const opts_t *o, const char *cmd);
static int interrupt_guard(const char *cmd, const char *const *targets, unsigned n, const char *note);

typedef struct {
    uint64_t start_ns, last_ns;
    int quiet;
} progress_t;

/* A line at most every 5 s, so long runs show they are alive. */
static void on_progress(void *arg, uint64_t done, uint64_t total)
{
    progress_t *pr = arg;
    uint64_t now = gm_now_ns();
    if (pr->quiet || done == total || now - pr->last_ns < 5000000000ull)
        return;
    pr->last_ns = now;
    double el = (double)(now - pr->start_ns) / 1e9;
    double left = el * (double)(total - done) / (double)done;
    fprintf(stderr, "grothmpi porep parent-cache: %3.0f%%  %llu of %llu nodes, %.0f s, about %.0f s left\n",
            100.0 * (double)done / (double)total, (unsigned long long)done, (unsigned long long)total, el, left);
}

static int run_parent_cache(const opts_t *o)
{
    const porep_proof_t *p;
    porep_graph_t g;
    int rc = resolve_proof(&p, o, "parent-cache");
    if (rc)
        return rc;
    if (!o->out) {
        fprintf(stderr, "grothmpi porep parent-cache: --out is required\n");
        return 2;
    }
    uint64_t threads = 0;
    if (o->threads && parse_u64(&threads, o->threads, 0, 4096, "--threads", "parent-cache") != 0)
        return 2;
    if ((rc = make_graph(&g, p, "parent-cache")) != 0)
        return rc;

    err_t err;
    topo_pool_t *pool = NULL;
    const char *tp[1] = {o->out};
    char note[4200];
    snprintf(note, sizeof note, "%s was not written", o->out);
    if ((rc = make_pool(&pool, o, "parent-cache")) != 0 ||
        (rc = interrupt_guard("parent-cache", tp, 1, note)) != 0) {
        topo_pool_destroy(pool);
        porep_graph_destroy(&g);
        return rc;
    }
    const char *expect = porep_parent_cache_published(&g);
    char size[32];
    porep_sector_size_format(size, sizeof size, p->sector_size);
    uint64_t bytes = g.nodes * POREP_CACHE_ENTRY_BYTES;
    if (!o->quiet && g.nodes > (1u << 20))
        fprintf(stderr, "grothmpi porep parent-cache: %s, %llu nodes, %llu MiB, %u threads\n", p->name,
                (unsigned long long)g.nodes, (unsigned long long)(bytes >> 20), topo_pool_size(pool));

    progress_t pr = {.start_ns = gm_now_ns(), .quiet = o->quiet};
    pr.last_ns = pr.start_ns;
    uint8_t digest[32];
    rc = porep_parent_cache_write(digest, o->out, &g, expect, pool, on_progress, &pr, &err);
    double secs = (double)(gm_now_ns() - pr.start_ns) / 1e9;
    topo_pool_destroy(pool);
    if (rc != 0) {
        fprintf(stderr, "grothmpi porep parent-cache: %s\n", err.msg);
        porep_graph_destroy(&g);
        return 1;
    }
    char d[65], id[65];
    gm_hex_encode(d, digest, 32);
    gm_hex_encode(id, g.porep_id, 32);
    printf("wrote %s: %s parent cache, %llu nodes, %llu bytes, %.2f s\n", o->out, size,
           (unsigned long long)g.nodes, (unsigned long long)bytes, secs);
    printf("proof:    %s (porep_id %s)\n", p->name, id);
    printf("name:     %s\n", g.cache_name);
    printf("sha256:   %s (%s)\n", d,
           expect ? "matches rust-fil-proofs parent_cache.json" : "no published digest for this graph");
    porep_graph_destroy(&g);
    return 0;
}

/* ---- sealing and C1 ------------------------------------------------------------------ */

/* Where a seal stands, for its progress lines and per-phase summaries. */
typedef struct {
    progress_t pr;
    char ended[32];       /* the last phase that reported done == total */
    uint64_t phase_ns;    /* when the current phase began (the previous one ended) */
    double phase_cpu;     /* process CPU seconds at that moment */
} seal_progress_t;

/* Process CPU seconds (user + system, every thread) and peak RSS in MiB. */
static void self_usage(double *cpu_s, double *rss_mib)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) {
        *cpu_s = *rss_mib = 0;
        return;
    }
    *cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
             (double)ru.ru_stime.tv_usec / 1e6;
    *rss_mib = (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
}

/* A progress line at most every 5 s (and none for phases that end sooner);
 * when a phase ends, one line with its wall and CPU time and the peak RSS
 * so far (a phase may report its end twice: the second is ignored). */
static void on_seal_progress(void *arg, const char *phase, uint64_t done, uint64_t total)
{
    seal_progress_t *sp = arg;
    progress_t *pr = &sp->pr;
    uint64_t now = gm_now_ns();
    if (pr->quiet)
        return;
    if (done == total) {
        if (strncmp(sp->ended, phase, sizeof sp->ended) == 0)
            return;
        double cpu, rss;
        self_usage(&cpu, &rss);
        fprintf(stderr, "grothmpi porep seal: %s done: %.2f s wall, %.2f s CPU, peak RSS %.0f MiB\n", phase,
                (double)(now - sp->phase_ns) / 1e9, cpu - sp->phase_cpu, rss);
        snprintf(sp->ended, sizeof sp->ended, "%s", phase);
        sp->phase_ns = now;
        sp->phase_cpu = cpu;
        return;
    }
    if (now - pr->last_ns < 5000000000ull)
        return;
    pr->last_ns = now;
    double el = (double)(now - pr->start_ns) / 1e9;
    fprintf(stderr, "grothmpi porep seal: %s %3.0f%%  %llu of %llu, %.0f s since the start\n", phase,
            100.0 * (double)done / (double)total, (unsigned long long)done, (unsigned long long)total, el);
}

/* --api defaults to 1.1 for the sealing commands. */
static int resolve_proof_default(const porep_proof_t **out, opts_t *o, const char *cmd)
{
    if (!o->api && !o->proof_id)
        o->api = "1.1";
    return resolve_proof(out, o, cmd);
}

/* ---- SIGINT / SIGTERM during parent-cache, seal and c1 ----------------------------------------------- */

/* What the handler needs, prepared before it is installed and read-only
 * afterwards (the handler may only make async-signal-safe calls: unlink,
 * write, raise): the temporaries this process may have open, and the line
 * to print. This is the command's state, not a library's. */
#define SIG_MAX_TMP POREP_SEAL_FILES
static struct {
    char tmp[SIG_MAX_TMP][4200];
    unsigned ntmp;
    char msg[2][4400]; /* [0] SIGINT, [1] SIGTERM */
    size_t msg_len[2];
} sig_state;

static void on_interrupt(int sig)
{
    for (unsigned i = 0; i < sig_state.ntmp; i++)
        (void)unlink(sig_state.tmp[i]);
    int k = sig == SIGINT ? 0 : 1;
    ssize_t w = write(STDERR_FILENO, sig_state.msg[k], sig_state.msg_len[k]);
    (void)w;
    /* SA_RESETHAND restored the default action and SA_NODEFER leaves the
     * signal unblocked: raising it ends the process with it, so the parent
     * sees "killed by SIGINT/SIGTERM" (exit status 130/143 in a shell). */
    raise(sig);
}

/* Installs on_interrupt for SIGINT and SIGTERM: it removes the temporaries
 * "<target>.tmp.<our pid>" of the n targets and prints "grothmpi porep <cmd>:
 * interrupted by SIGxxx: removed the temporary files; <note>". Only the
 * calling (main) thread takes these signals: make_pool's workers block
 * them, so the handler always stops the thread that creates and renames
 * temporaries, and none can appear after it ran. */
static int interrupt_guard(const char *cmd, const char *const *targets, unsigned n, const char *note)
{
    GM_ASSERT(n <= SIG_MAX_TMP);
    long pid = (long)getpid();
    for (unsigned i = 0; i < n; i++)
        if (gm_file_temp_name(sig_state.tmp[i], sizeof sig_state.tmp[i], targets[i], pid) != 0) {
            fprintf(stderr, "grothmpi porep %s: %s: path too long\n", cmd, targets[i]);
            return 1;
        }
    sig_state.ntmp = n;
    static const char *const names[2] = {"SIGINT", "SIGTERM"};
    for (int k = 0; k < 2; k++) {
        int len = snprintf(sig_state.msg[k], sizeof sig_state.msg[k],
                           "grothmpi porep %s: interrupted by %s: removed the temporary files; %s\n", cmd, names[k],
                           note);
        sig_state.msg_len[k] = len < 0 ? 0 : (size_t)len < sizeof sig_state.msg[k] ? (size_t)len
                                                                                     : sizeof sig_state.msg[k] - 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) {
        fprintf(stderr, "grothmpi porep %s: cannot install the SIGINT/SIGTERM handler\n", cmd);
        return 1;
    }
    return 0;
}

/* The pool's workers start with SIGINT and SIGTERM blocked (threads inherit
 * the creator's mask), so those signals reach the main thread only. */
static int make_pool(topo_pool_t **pool, const opts_t *o, const char *cmd)
{
    uint64_t threads = 0;
    err_t err;
    *pool = NULL;
    if (o->threads && parse_u64(&threads, o->threads, 0, 4096, "--threads", cmd) != 0)
        return 2;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int rc = threads != 1 ? topo_pool_create_flat(pool, (unsigned)threads, &err) : 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 1;
    }
    return 0;
}

static int need(const char *v, const char *opt, const char *cmd)
{
    if (v)
        return 0;
    fprintf(stderr, "grothmpi porep %s: %s is required\n", cmd, opt);
    return 2;
}

static int run_seal(opts_t *o)
{
    const porep_proof_t *p;
    int rc = resolve_proof_default(&p, o, "seal");
    if (rc || (rc = need(o->out, "--out DIR", "seal")) || (rc = need(o->seed, "--seed", "seal")))
        return rc;
    if (o->data && o->zero) {
        fprintf(stderr, "grothmpi porep seal: --data and --zero exclude each other\n");
        return 2;
    }
    porep_seal_opts_t so;
    memset(&so, 0, sizeof so);
    so.proof = p;
    so.data = o->data;
    so.zero = o->zero;
    porep_seed_parse(so.seed, o->seed);
    uint64_t v = 1000;
    if (o->prover_id) {
        size_t n = strlen(o->prover_id);
        int ok = n == 64;
        for (size_t i = 0; ok && i < 32; i++) {
            unsigned b;
            ok = sscanf(o->prover_id + 2 * i, "%2x", &b) == 1;
            so.prover_id[i] = (uint8_t)b;
        }
        if (!ok) {
            fprintf(stderr, "grothmpi porep seal: --prover-id: '%s' is not 64 hex digits\n", o->prover_id);
            return 2;
        }
    } else {
        if (o->actor && parse_u64(&v, o->actor, 0, UINT64_MAX, "--actor", "seal") != 0)
            return 2;
        porep_prover_id_from_actor(so.prover_id, v);
    }
    so.sector_id = 1;
    if (o->sector_id && parse_u64(&so.sector_id, o->sector_id, 0, UINT64_MAX, "--sector-id", "seal") != 0)
        return 2;
    if (o->ticket) {
        porep_seed_parse(so.ticket, o->ticket);
    } else {
        char t[4200];
        snprintf(t, sizeof t, "%s/ticket", o->seed);
        porep_seed_parse(so.ticket, t);
    }
    topo_pool_t *pool;
    if ((rc = make_pool(&pool, o, "seal")))
        return rc;
    char targets[POREP_SEAL_FILES][4100], note[4200];
    const char *tp[POREP_SEAL_FILES];
    for (int k = 0; k < POREP_SEAL_FILES; k++) {
        snprintf(targets[k], sizeof targets[k], "%s/%s", o->out, porep_seal_files[k]);
        tp[k] = targets[k];
    }
    snprintf(note, sizeof note, "%s has no seal.json: it is not a sealed sector (seal it again)", o->out);
    if ((rc = interrupt_guard("seal", tp, POREP_SEAL_FILES, note))) {
        topo_pool_destroy(pool);
        return rc;
    }
    seal_progress_t sp;
    memset(&sp, 0, sizeof sp);
    progress_t pr = {.start_ns = gm_now_ns(), .quiet = o->quiet};
    pr.last_ns = pr.start_ns;
    sp.pr = pr;
    sp.phase_ns = pr.start_ns;
    double rss0;
    self_usage(&sp.phase_cpu, &rss0);
    porep_sealed_t s;
    err_t err;
    rc = porep_seal(&s, o->out, &so, pool, on_seal_progress, &sp, &err);
    topo_pool_destroy(pool);
    if (rc) {
        fprintf(stderr, "grothmpi porep seal: %s\n", err.msg);
        return rc == GM_EINVAL || rc == GM_ENOTSUP ? 2 : 1;
    }
    char a[65], b[65], c[65], d[65], e[65];
    gm_hex_encode(a, s.replica_id.b, 32);
    gm_hex_encode(b, s.comm_d.b, 32);
    gm_hex_encode(c, s.comm_c.b, 32);
    gm_hex_encode(d, s.comm_r_last.b, 32);
    gm_hex_encode(e, s.comm_r.b, 32);
    printf("sealed %s into %s: %llu nodes, %u layers, %.2f s\n", p->name, o->out, (unsigned long long)s.shape.nodes,
           s.shape.layers, (double)(gm_now_ns() - pr.start_ns) / 1e9);
    printf("replica_id:  %s\ncomm_d:      %s\ncomm_c:      %s\ncomm_r_last: %s\ncomm_r:      %s\n", a, b, c, d, e);
    return 0;
}

static int run_c1(opts_t *o)
{
    int rc;
    if ((rc = need(o->pos, "the sealed directory (grothmpi porep c1 DIR ...)", "c1")) ||
        (rc = need(o->seed, "--seed", "c1")) || (rc = need(o->out, "--out FILE", "c1")))
        return rc;
    uint8_t seed[32];
    porep_seed_parse(seed, o->seed);
    const char *tp[1] = {o->out};
    char note[4200];
    snprintf(note, sizeof note, "%s was not written", o->out);
    if ((rc = interrupt_guard("c1", tp, 1, note)))
        return rc;
    porep_hashers_t h;
    porep_c1_t c;
    err_t err;
    uint64_t t0 = gm_now_ns();
    if ((rc = porep_hashers_init(&h, &err)) == 0) {
        rc = porep_c1_prove(&c, o->pos, seed, &h, &err);
        if (rc == 0) {
            rc = porep_c1_write(&c, o->out, &err);
            porep_c1_free(&c);
        }
        porep_hashers_free(&h);
    }
    if (rc) {
        fprintf(stderr, "grothmpi porep c1: %s\n", err.msg);
        return 1;
    }
    printf("wrote %s: %s, %u partition(s) x %u challenges, %.2f s\n", o->out, c.proof->name, c.partitions,
           c.challenges, (double)(gm_now_ns() - t0) / 1e9);
    return 0;
}

static int run_synthetic(opts_t *o)
{
    const porep_proof_t *p;
    int rc = resolve_proof_default(&p, o, "synthetic");
    if (rc || (rc = need(o->out, "--out FILE", "synthetic")) || (rc = need(o->seed, "--seed", "synthetic")))
        return rc;
    uint8_t seed[32];
    porep_seed_parse(seed, o->seed);
    porep_hashers_t h;
    porep_c1_t c;
    err_t err;
    uint64_t t0 = gm_now_ns();
    if (!o->quiet && p->sector_size >= (32ULL << 30))
        fprintf(stderr, "grothmpi porep synthetic: %s: building sparse trees for 180 challenges...\n", p->name);
    if ((rc = porep_hashers_init(&h, &err)) == 0) {
        rc = porep_c1_synthetic(&c, p, seed, &h, &err);
        if (rc == 0) {
            rc = porep_c1_write(&c, o->out, &err);
            porep_c1_free(&c);
        }
        porep_hashers_free(&h);
    }
    if (rc) {
        fprintf(stderr, "grothmpi porep synthetic: %s\n", err.msg);
        return 1;
    }
    char r[65];
    gm_hex_encode(r, c.comm_r.b, 32);
    printf("wrote %s: synthetic %s, %u partition(s) x %u challenges, comm_r %s, %.2f s\n", o->out, p->name,
           c.partitions, c.challenges, r, (double)(gm_now_ns() - t0) / 1e9);
    return 0;
}

static int run_verify_c1(opts_t *o)
{
    int rc = need(o->pos, "the C1 file (grothmpi porep verify-c1 FILE)", "verify-c1");
    if (rc)
        return rc;
    porep_hashers_t h;
    porep_c1_t c;
    porep_graph_t g;
    err_t err;
    uint64_t t0 = gm_now_ns();
    if ((rc = porep_c1_read(&c, o->pos, &err))) {
        fprintf(stderr, "grothmpi porep verify-c1: %s\n", err.msg);
        return 1;
    }
    if (!o->quiet && c.partitions > 1)
        fprintf(stderr, "grothmpi porep verify-c1: %s: checking %u x %u challenges...\n", o->pos, c.partitions,
                c.challenges);
    if ((rc = porep_hashers_init(&h, &err)) == 0) {
        uint8_t id[32];
        porep_id_make(id, c.proof);
        if ((rc = porep_graph_init(&g, c.shape.nodes, id, c.proof->api, &err)) == 0) {
            rc = porep_c1_verify(&c, &g, &h, o->pos, &err);
            porep_graph_destroy(&g);
        }
        porep_hashers_free(&h);
    }
    if (rc) {
        fprintf(stderr, "grothmpi porep verify-c1: %s\n", err.msg);
        porep_c1_free(&c);
        return 1;
    }
    printf("%s: OK: %s, %u partition(s) x %u challenges: challenges, paths, columns, labels and encodings verify "
           "(%.2f s)\n", o->pos, c.proof->name, c.partitions, c.challenges, (double)(gm_now_ns() - t0) / 1e9);
    porep_c1_free(&c);
    return 0;
}

static int run_parent_cache_w(opts_t *o) { return run_parent_cache(o); }
static int run_id_w(opts_t *o) { return run_id(o); }
static int run_parents_w(opts_t *o) { return run_parents(o); }

int cmd_porep(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *action = argv[1];
    if (strcmp(action, "verify-seal") == 0 || strcmp(action, "param-name") == 0)
        return cmd_porep_seal(argc - 1, argv + 1);
    opts_t o;
    int rc;
    static const struct {
        const char *name;
        int (*run)(opts_t *o);
        int positional;
    } actions[] = {{"parent-cache", run_parent_cache_w, 0}, {"id", run_id_w, 0},       {"parents", run_parents_w, 0},
                   {"seal", run_seal, 0},                   {"c1", run_c1, 1},          {"synthetic", run_synthetic, 0},
                   {"verify-c1", run_verify_c1, 1}};
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
        if (strcmp(action, actions[i].name) != 0)
            continue;
        if ((rc = parse_opts(&o, argc - 1, argv + 1, action)) != 0)
            return rc < 0 ? 0 : rc;
        if (o.pos && !actions[i].positional) {
            fprintf(stderr, "grothmpi porep %s: unexpected argument '%s'\n", action, o.pos);
            return 2;
        }
        return actions[i].run(&o);
    }
    fprintf(stderr, "grothmpi porep: unknown action '%s' (grothmpi porep --help lists them)\n", action);
    return 2;
}
