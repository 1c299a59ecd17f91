/*
 * topo/topo_pmu.c — hardware and software counters: event names to
 * perf_event_open encodings (libpfm4, plus a built-in raw table for the
 * model-specific defaults), opened per thread in groups, read at stage
 * boundaries, summed per domain and per rank.
 *
 * DESIGN
 *  - Names: the built-in table first (perf-style names of the Zen 4 and
 *    Sapphire/Emerald Rapids events we want by default, with raw configs
 *    checked against libpfm4's tables), then libpfm4. libpfm4 4.13 does not
 *    recognise Emerald Rapids or Storm Peak (Threadripper 7000), so relying on
 *    it alone would lose the L3 fill events exactly where they matter.
 *  - libpfm4 keeps global tables: it is initialised once (pthread_once) and
 *    every encoding call holds one mutex. That is the library's state, not
 *    ours; nothing of grothmpi's is global.
 *  - Counters are per thread (pid = tid, cpu = -1), counting from open, never
 *    disabled: a stage is the difference of two reads, scaled by
 *    time_enabled/time_running when the kernel multiplexed the group.
 *    Hardware events go in groups of at most 4 (fits every PMU we target
 *    with the NMI watchdog on); software events are opened alone.
 *  - The layout (which events could be opened, which lead a group) is decided
 *    on the first thread and reused for the others. An event the kernel
 *    refuses with ENOENT/ENODEV/EOPNOTSUPP/EACCES/EPERM/EINVAL is "not
 *    available" (this VM: no PMU, every hardware event gives ENOENT).
 *  - Reads happen on the thread that drives the stages; reading another
 *    thread's counter is allowed by perf (the kernel syncs the running value).
 */
#include "topo/topo_internal.h"

#include <cpuid.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What an event means to the derived ratios of topo_counters_format. */
typedef enum {
    ROLE_NONE = 0,
    ROLE_INSTR,
    ROLE_CYCLES,
    ROLE_BRANCHES,
    ROLE_BRMISS,
    ROLE_L1DMISS,
    ROLE_DTLBMISS,
    ROLE_L2TLBMISS,
    ROLE_FILL_L2,
    ROLE_FILL_CCX,
    ROLE_FILL_OTHER_CCX,
    ROLE_FILL_DRAM,
    ROLE_LLC_MISS,
    ROLE_OCR_L3MISS,
    ROLE_TASK_CLOCK,
    ROLE_COUNT
} role_t;

typedef struct {
    const char *name;
    const char *model; /* the CPU model the encoding is for */
    uint64_t config, config1;
    role_t role;
} builtin_t;

/* Raw encodings: Zen 4 from libpfm4's amd64_fam19h_zen4 table (event 0x43
 * DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM, 0x44 ANY_..., 0x45 L1_DTLB_MISS), SPR
 * from its spr table; see docs/topo.md and the platform reference §4.3-4.4. */
static const builtin_t builtins[] = {
    {"ls_dmnd_fills_from_sys.local_l2", "zen4", 0x0143, 0, ROLE_FILL_L2},
    {"ls_dmnd_fills_from_sys.local_ccx", "zen4", 0x0243, 0, ROLE_FILL_CCX},
    {"ls_dmnd_fills_from_sys.remote_cache", "zen4", 0x1443, 0, ROLE_FILL_OTHER_CCX},
    {"ls_dmnd_fills_from_sys.dram_io_all", "zen4", 0x4843, 0, ROLE_FILL_DRAM},
    {"ls_any_fills_from_sys.local_l2", "zen4", 0x0144, 0, ROLE_NONE},
    {"ls_any_fills_from_sys.local_ccx", "zen4", 0x0244, 0, ROLE_NONE},
    {"ls_any_fills_from_sys.remote_cache", "zen4", 0x1444, 0, ROLE_NONE},
    {"ls_any_fills_from_sys.dram_io_all", "zen4", 0x4844, 0, ROLE_NONE},
    {"ls_l1_d_tlb_miss.all_l2_miss", "zen4", 0xf045, 0, ROLE_L2TLBMISS},
    {"longest_lat_cache.miss", "spr", 0x412e, 0, ROLE_LLC_MISS},
    {"ocr.demand_data_rd.l3_miss", "spr", 0x012a, 0x3fbfc00001ULL, ROLE_OCR_L3MISS},
    {"dtlb_load_misses.walk_completed", "spr", 0x0e12, 0, ROLE_L2TLBMISS},
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

static const char *const default_generic =
    "instructions,cycles,branches,branch-misses,L1-dcache-load-misses,dTLB-load-misses";
static const char *const default_zen4 =
    "ls_l1_d_tlb_miss.all_l2_miss,ls_dmnd_fills_from_sys.local_l2,ls_dmnd_fills_from_sys.local_ccx,"
    "ls_dmnd_fills_from_sys.remote_cache,ls_dmnd_fills_from_sys.dram_io_all";
static const char *const default_spr =
    "dtlb_load_misses.walk_completed,longest_lat_cache.miss,ocr.demand_data_rd.l3_miss";
static const char *const always_sw[] = {"task-clock", "page-faults", "context-switches"};

typedef struct {
    char name[96];
    struct perf_event_attr attr;
    int software;
    role_t role;
} evdesc_t;

struct topo_evset {
    unsigned n;
    evdesc_t ev[TOPO_MAX_EVENTS];
    char model[16];
};

/* ---- libpfm4 ---------------------------------------------------------------- */

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_init_rc;
static pthread_mutex_t pfm_mu = PTHREAD_MUTEX_INITIALIZER;

static void pfm_init_once(void) { pfm_init_rc = pfm_initialize(); }

/* Encodes name with libpfm4 into *attr (user mode). Returns a PFM_* code. */
static int pfm_encode(const char *name, struct perf_event_attr *attr)
{
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    memset(attr, 0, sizeof *attr);
    arg.attr = attr;
    arg.size = sizeof arg;
    pthread_mutex_lock(&pfm_mu);
    int rc = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
    pthread_mutex_unlock(&pfm_mu);
    return rc;
}

static const char *cpu_model(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return "generic";
    char vendor[13];
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return "generic";
    unsigned base = (a >> 8) & 0xf, family = base, model = (a >> 4) & 0xf;
    if (base == 0xf)
        family += (a >> 20) & 0xff;
    if (base == 0xf || base == 6)
        model |= ((a >> 16) & 0xf) << 4;
    if (strcmp(vendor, "AuthenticAMD") == 0 && family == 0x19 &&
        ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
         (model >= 0xa0 && model <= 0xaf)))
        return "zen4";
    if (strcmp(vendor, "GenuineIntel") == 0 && family == 6 && (model == 143 || model == 207))
        return "spr";
    return "generic";
}

static role_t role_of(const struct perf_event_attr *a)
{
    if (a->type == PERF_TYPE_HARDWARE) {
        switch (a->config) {
        case PERF_COUNT_HW_INSTRUCTIONS: return ROLE_INSTR;
        case PERF_COUNT_HW_CPU_CYCLES: return ROLE_CYCLES;
        case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return ROLE_BRANCHES;
        case PERF_COUNT_HW_BRANCH_MISSES: return ROLE_BRMISS;
        default: return ROLE_NONE;
        }
    }
    if (a->type == PERF_TYPE_HW_CACHE) {
        uint64_t miss_read = (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
        if (a->config == (PERF_COUNT_HW_CACHE_L1D | miss_read))
            return ROLE_L1DMISS;
        if (a->config == (PERF_COUNT_HW_CACHE_DTLB | miss_read))
            return ROLE_DTLBMISS;
        return ROLE_NONE;
    }
    if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_TASK_CLOCK)
        return ROLE_TASK_CLOCK;
    return ROLE_NONE;
}

/* Resolves one name into es->ev[es->n]. */
static int evset_add(topo_evset_t *es, const char *name, const char *from, err_t *err)
{
    if (es->n == TOPO_MAX_EVENTS)
        return gm_err_set(err, GM_EINVAL, "%s: more than %d events (at '%s')", from, TOPO_MAX_EVENTS, name);
    for (unsigned i = 0; i < es->n; i++)
        if (strcasecmp(es->ev[i].name, name) == 0)
            return 0; /* listed twice: once is enough */
    evdesc_t *e = &es->ev[es->n];
    memset(e, 0, sizeof *e);
    if (strlen(name) >= sizeof e->name)
        return gm_err_set(err, GM_EINVAL, "%s: event '%.60s...': name too long", from, name);
    snprintf(e->name, sizeof e->name, "%s", name);
    const builtin_t *b = NULL;
    for (size_t i = 0; i < NBUILTINS; i++)
        if (strcasecmp(builtins[i].name, name) == 0)
            b = &builtins[i];
    if (b) {
        e->attr.type = PERF_TYPE_RAW;
        e->attr.config = b->config;
        e->attr.config1 = b->config1;
        e->role = b->role;
    } else {
        int rc = pfm_encode(name, &e->attr);
        if (rc != PFM_SUCCESS)
            return gm_err_set(err, GM_EINVAL, "%s: event '%s': %s (libpfm4: %s; see docs/topo.md for the names)",
                              from, name, rc == PFM_ERR_NOTFOUND ? "not found" : "cannot be encoded",
                              pfm_strerror(rc));
        e->role = role_of(&e->attr);
    }
    e->attr.size = sizeof e->attr;
    e->software = e->attr.type == PERF_TYPE_SOFTWARE;
    es->n++;
    return 0;
}

/* Adds every comma-separated name of list. */
static int evset_add_list(topo_evset_t *es, const char *list, const char *from, err_t *err)
{
    const char *p = list;
    unsigned pos = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        while (len && (*p == ' ' || *p == '\t')) {
            p++;
            len--;
        }
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        pos++;
        if (len == 0)
            return gm_err_set(err, GM_EINVAL, "%s: '%s': empty event name at position %u", from, list, pos);
        char name[256];
        if (len >= sizeof name)
            return gm_err_set(err, GM_EINVAL, "%s: event '%.60s...': name too long", from, p);
        memcpy(name, p, len);
        name[len] = 0;
        int rc = evset_add(es, name, from, err);
        if (rc)
            return rc;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int topo_evset_create(topo_evset_t **out, const char *names, err_t *err)
{
    GM_ASSERT(out != NULL);
    *out = NULL;
    pthread_once(&pfm_once, pfm_init_once);
    if (pfm_init_rc != PFM_SUCCESS)
        return gm_err_set(err, GM_ESYS, "libpfm4: pfm_initialize failed: %s", pfm_strerror(pfm_init_rc));
    topo_evset_t *es = calloc(1, sizeof *es);
    if (!es)
        return gm_err_set(err, GM_ENOMEM, "event set: out of memory");
    snprintf(es->model, sizeof es->model, "%s", cpu_model());
    const char *from = "event list";
    if (!names) {
        names = getenv("GROTHMPI_EVENTS");
        from = "GROTHMPI_EVENTS";
        if (names && !*names)
            names = NULL;
    }
    int rc;
    if (names) {
        rc = evset_add_list(es, names, from, err);
    } else {
        from = "default events";
        rc = evset_add_list(es, default_generic, from, err);
        if (rc == 0 && strcmp(es->model, "zen4") == 0)
            rc = evset_add_list(es, default_zen4, from, err);
        if (rc == 0 && strcmp(es->model, "spr") == 0)
            rc = evset_add_list(es, default_spr, from, err);
    }
    for (size_t i = 0; rc == 0 && i < sizeof always_sw / sizeof always_sw[0]; i++) {
        struct perf_event_attr a;
        int have = 0;
        if (pfm_encode(always_sw[i], &a) == PFM_SUCCESS)
            for (unsigned j = 0; j < es->n; j++)
                if (es->ev[j].attr.type == a.type && es->ev[j].attr.config == a.config)
                    have = 1;
        if (!have)
            rc = evset_add(es, always_sw[i], from, err);
    }
    if (rc) {
        free(es);
        return rc;
    }
    *out = es;
    return 0;
}

void topo_evset_destroy(topo_evset_t *es) { free(es); }
unsigned topo_evset_count(const topo_evset_t *es) { return es->n; }
const char *topo_evset_model(const topo_evset_t *es) { return es->model; }

const char *topo_evset_name(const topo_evset_t *es, unsigned i)
{
    GM_ASSERT(i < es->n);
    return es->ev[i].name;
}

/* ---- counters ------------------------------------------------------------------ */

typedef struct {
    uint64_t value, enabled, running;
} sample_t;

struct topo_counters {
    topo_evset_t es;
    unsigned nthreads, ndomains;
    pid_t *tids;
    unsigned *dom;   /* per thread */
    int *fds;        /* nthreads * n; -1 when not open */
    int leader[TOPO_MAX_EVENTS]; /* event index leading ev's group; -1 unavailable */
    unsigned nstages;
    char stage_names[TOPO_MAX_STAGES][32];
    int begun[TOPO_MAX_STAGES];
    sample_t *begin; /* nstages * nthreads * n */
    double *total;   /* nstages * nthreads * n */
    sample_t *now;   /* nthreads * n, scratch for reads */
};

static long perf_open(struct perf_event_attr *a, pid_t tid, int group_fd)
{
    return syscall(SYS_perf_event_open, a, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int unavailable_errno(int e)
{
    return e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == EACCES || e == EPERM || e == EINVAL ||
           e == ENOSYS;
}

/* Opens event e for tid; group_fd -1 leads. Software events first try to count
 * kernel time too (context switches happen there) and fall back to user only. */
static int open_event(const evdesc_t *e, pid_t tid, int group_fd)
{
    struct perf_event_attr a = e->attr;
    a.size = sizeof a;
    a.disabled = 0;
    a.inherit = 0;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    a.exclude_hv = 1;
    a.exclude_kernel = 1;
    if (e->software) {
        a.exclude_kernel = 0;
        long fd = perf_open(&a, tid, group_fd);
        if (fd >= 0 || (errno != EACCES && errno != EPERM))
            return (int)fd;
        a.exclude_kernel = 1;
    }
    return (int)perf_open(&a, tid, group_fd);
}

void topo_counters_destroy(topo_counters_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->fds && i < (size_t)c->nthreads * c->es.n; i++)
        if (c->fds[i] >= 0)
            close(c->fds[i]);
    free(c->fds);
    free(c->tids);
    free(c->dom);
    free(c->begin);
    free(c->total);
    free(c->now);
    free(c);
}

#define HW_GROUP_MAX 4

static int counters_open(topo_counters_t **out, const topo_evset_t *es, const pid_t *tids,
                         const unsigned *dom, unsigned nthreads, err_t *err)
{
    *out = NULL;
    topo_counters_t *c = calloc(1, sizeof *c);
    if (!c)
        return gm_err_set(err, GM_ENOMEM, "counters: out of memory");
    c->es = *es;
    unsigned n = es->n;
    c->nthreads = nthreads;
    c->tids = calloc(nthreads, sizeof *c->tids);
    c->dom = calloc(nthreads, sizeof *c->dom);
    c->fds = malloc((size_t)nthreads * (n ? n : 1) * sizeof *c->fds);
    c->begin = calloc((size_t)TOPO_MAX_STAGES * nthreads * (n ? n : 1), sizeof *c->begin);
    c->total = calloc((size_t)TOPO_MAX_STAGES * nthreads * (n ? n : 1), sizeof *c->total);
    c->now = calloc((size_t)nthreads * (n ? n : 1), sizeof *c->now);
    if (!c->tids || !c->dom || !c->fds || !c->begin || !c->total || !c->now) {
        topo_counters_destroy(c);
        return gm_err_set(err, GM_ENOMEM, "counters: out of memory for %u threads", nthreads);
    }
    for (size_t i = 0; i < (size_t)nthreads * n; i++)
        c->fds[i] = -1;
    memcpy(c->tids, tids, nthreads * sizeof *tids);
    memcpy(c->dom, dom, nthreads * sizeof *dom);
    for (unsigned t = 0; t < nthreads; t++)
        if (dom[t] + 1 > c->ndomains)
            c->ndomains = dom[t] + 1;

    /* Layout on thread 0. */
    int *fd0 = c->fds;
    int lead = -1;
    unsigned in_group = 0;
    for (unsigned e = 0; e < n; e++) {
        const evdesc_t *ev = &es->ev[e];
        c->leader[e] = -1;
        if (!ev->software && lead >= 0 && in_group < HW_GROUP_MAX) {
            int fd = open_event(ev, tids[0], fd0[lead]);
            if (fd >= 0) {
                fd0[e] = fd;
                c->leader[e] = lead;
                in_group++;
                continue;
            }
        }
        int fd = open_event(ev, tids[0], -1);
        if (fd < 0) {
            int e2 = errno;
            if (!unavailable_errno(e2)) {
                topo_counters_destroy(c);
                return gm_err_set(err, GM_ESYS, "counters: perf_event_open of '%s' for thread %d: %s",
                                  ev->name, (int)tids[0], strerror(e2));
            }
            continue;
        }
        fd0[e] = fd;
        c->leader[e] = (int)e;
        if (!ev->software) {
            lead = (int)e;
            in_group = 1;
        }
    }
    /* The same layout on the other threads. */
    for (unsigned t = 1; t < nthreads; t++) {
        int *fdt = c->fds + (size_t)t * n;
        for (unsigned e = 0; e < n; e++) {
            int l = c->leader[e];
            if (l < 0)
                continue;
            if (l != (int)e && fdt[l] < 0)
                continue; /* its leader failed on this thread */
            int fd = open_event(&es->ev[e], tids[t], l == (int)e ? -1 : fdt[l]);
            if (fd < 0) {
                int e2 = errno;
                if (unavailable_errno(e2))
                    continue;
                topo_counters_destroy(c);
                return gm_err_set(err, GM_ESYS, "counters: perf_event_open of '%s' for thread %d: %s",
                                  es->ev[e].name, (int)tids[t], strerror(e2));
            }
            fdt[e] = fd;
        }
    }
    *out = c;
    return 0;
}

int topo_counters_open_self(topo_counters_t **out, const topo_evset_t *es, err_t *err)
{
    pid_t tid = (pid_t)gettid();
    unsigned dom = 0;
    return counters_open(out, es, &tid, &dom, 1, err);
}

int topo_counters_open_pool(topo_counters_t **out, const topo_evset_t *es, const topo_pool_t *pool,
                            err_t *err)
{
    unsigned n = topo_pool_size(pool);
    pid_t *tids = calloc(n, sizeof *tids);
    unsigned *dom = calloc(n, sizeof *dom);
    int rc;
    if (!tids || !dom) {
        rc = gm_err_set(err, GM_ENOMEM, "counters: out of memory");
    } else {
        topo_pool_tids(pool, tids);
        rc = counters_open(out, es, tids, dom, n, err);
    }
    free(tids);
    free(dom);
    return rc;
}

int topo_counters_open_domains(topo_counters_t **out, const topo_evset_t *es, const topo_domains_t *d,
                               err_t *err)
{
    unsigned nd = topo_domains_count(d), total = 0;
    for (unsigned i = 0; i < nd; i++)
        total += topo_pool_size(topo_domains_pool_const(d, i));
    pid_t *tids = calloc(total, sizeof *tids);
    unsigned *dom = calloc(total, sizeof *dom);
    int rc;
    if (!tids || !dom) {
        rc = gm_err_set(err, GM_ENOMEM, "counters: out of memory");
    } else {
        unsigned k = 0;
        for (unsigned i = 0; i < nd; i++) {
            const topo_pool_t *p = topo_domains_pool_const(d, i);
            topo_pool_tids(p, tids + k);
            for (unsigned w = 0; w < topo_pool_size(p); w++)
                dom[k + w] = i;
            k += topo_pool_size(p);
        }
        rc = counters_open(out, es, tids, dom, total, err);
    }
    free(tids);
    free(dom);
    return rc;
}

int topo_counters_stage(topo_counters_t *c, const char *name, unsigned *id, err_t *err)
{
    if (!name || !*name)
        return gm_err_set(err, GM_EINVAL, "counters: empty stage name");
    for (unsigned s = 0; s < c->nstages; s++)
        if (strncmp(c->stage_names[s], name, sizeof c->stage_names[s] - 1) == 0) {
            *id = s;
            return 0;
        }
    if (c->nstages == TOPO_MAX_STAGES)
        return gm_err_set(err, GM_EINVAL, "counters: stage '%s': already %d stages", name, TOPO_MAX_STAGES);
    snprintf(c->stage_names[c->nstages], sizeof c->stage_names[0], "%s", name);
    *id = c->nstages++;
    return 0;
}

/* Reads every open group of every thread into c->now. */
static void counters_read(topo_counters_t *c)
{
    unsigned n = c->es.n;
    uint64_t buf[3 + TOPO_MAX_EVENTS];
    for (unsigned t = 0; t < c->nthreads; t++) {
        int *fdt = c->fds + (size_t)t * n;
        sample_t *now = c->now + (size_t)t * n;
        for (unsigned e = 0; e < n; e++) {
            if (c->leader[e] != (int)e || fdt[e] < 0)
                continue;
            ssize_t r = read(fdt[e], buf, sizeof buf);
            if (r < (ssize_t)(3 * sizeof(uint64_t)))
                continue;
            uint64_t nr = buf[0];
            /* Members appear in the order they joined: event order. */
            unsigned k = 0;
            for (unsigned m = e; m < n && k < nr; m++) {
                if (c->leader[m] != (int)e || fdt[m] < 0)
                    continue;
                now[m].value = buf[3 + k];
                now[m].enabled = buf[1];
                now[m].running = buf[2];
                k++;
            }
        }
    }
}

void topo_counters_begin(topo_counters_t *c, unsigned stage)
{
    GM_ASSERT(stage < c->nstages);
    counters_read(c);
    size_t sz = (size_t)c->nthreads * c->es.n;
    memcpy(c->begin + stage * sz, c->now, sz * sizeof *c->now);
    c->begun[stage] = 1;
}

void topo_counters_end(topo_counters_t *c, unsigned stage)
{
    GM_ASSERT(stage < c->nstages && c->begun[stage]);
    counters_read(c);
    size_t sz = (size_t)c->nthreads * c->es.n;
    const sample_t *b = c->begin + stage * sz;
    double *tot = c->total + stage * sz;
    for (size_t i = 0; i < sz; i++) {
        uint64_t dv = c->now[i].value - b[i].value;
        uint64_t de = c->now[i].enabled - b[i].enabled;
        uint64_t dr = c->now[i].running - b[i].running;
        if (dr == 0)
            continue;
        tot[i] += dr == de ? (double)dv : (double)dv * ((double)de / (double)dr);
    }
    c->begun[stage] = 0;
}

unsigned topo_counters_nstages(const topo_counters_t *c) { return c->nstages; }
unsigned topo_counters_ndomains(const topo_counters_t *c) { return c->ndomains; }

const char *topo_counters_stage_name(const topo_counters_t *c, unsigned stage)
{
    GM_ASSERT(stage < c->nstages);
    return c->stage_names[stage];
}

int topo_counters_available(const topo_counters_t *c, unsigned ev)
{
    GM_ASSERT(ev < c->es.n);
    return c->leader[ev] >= 0;
}

int topo_counters_value(const topo_counters_t *c, unsigned stage, int domain, unsigned ev, double *value)
{
    GM_ASSERT(stage < c->nstages && ev < c->es.n);
    *value = 0;
    if (c->leader[ev] < 0)
        return GM_ENOTSUP;
    size_t sz = (size_t)c->nthreads * c->es.n;
    const double *tot = c->total + stage * sz;
    double sum = 0;
    for (unsigned t = 0; t < c->nthreads; t++)
        if (domain < 0 || c->dom[t] == (unsigned)domain)
            sum += tot[(size_t)t * c->es.n + ev];
    *value = sum;
    return 0;
}

/* snprintf into buf at *pos, tracking the full length. */
static void fmt_add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fmt_add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = *pos < len ? len - *pos : 0;
    int w = vsnprintf(room ? buf + *pos : NULL, room, fmt, ap);
    va_end(ap);
    if (w > 0)
        *pos += (size_t)w;
}

size_t topo_counters_format(const topo_counters_t *c, unsigned stage, int domain, char *buf, size_t len)
{
    GM_ASSERT(stage < c->nstages);
    size_t pos = 0;
    if (len)
        buf[0] = 0;
    unsigned nthr = 0;
    for (unsigned t = 0; t < c->nthreads; t++)
        if (domain < 0 || c->dom[t] == (unsigned)domain)
            nthr++;
    if (domain < 0)
        fmt_add(buf, len, &pos, " Counters of stage '%s', all domains (%u threads):\n\n", c->stage_names[stage], nthr);
    else
        fmt_add(buf, len, &pos, " Counters of stage '%s', L3 domain %d (%u threads):\n\n", c->stage_names[stage],
                domain, nthr);
    double rv[ROLE_COUNT];
    int have[ROLE_COUNT];
    memset(have, 0, sizeof have);
    for (unsigned e = 0; e < c->es.n; e++) {
        double v;
        if (topo_counters_value(c, stage, domain, e, &v) != 0) {
            fmt_add(buf, len, &pos, " %20s      %s\n", "<not available>", c->es.ev[e].name);
            continue;
        }
        role_t r = c->es.ev[e].role;
        if (r != ROLE_NONE && !have[r]) {
            rv[r] = v;
            have[r] = 1;
        }
        if (r == ROLE_TASK_CLOCK)
            fmt_add(buf, len, &pos, " %20.2f msec %s\n", v / 1e6, c->es.ev[e].name);
        else
            fmt_add(buf, len, &pos, " %20.0f      %s\n", v, c->es.ev[e].name);
    }
    fmt_add(buf, len, &pos, "\n");
    if (have[ROLE_INSTR] && have[ROLE_CYCLES] && rv[ROLE_CYCLES] > 0)
        fmt_add(buf, len, &pos, " %20.2f      IPC (instructions per cycle)\n", rv[ROLE_INSTR] / rv[ROLE_CYCLES]);
    if (have[ROLE_BRANCHES] && have[ROLE_BRMISS] && rv[ROLE_BRANCHES] > 0)
        fmt_add(buf, len, &pos, " %19.2f%%      branch misses of branches\n",
                100.0 * rv[ROLE_BRMISS] / rv[ROLE_BRANCHES]);
    double ki = have[ROLE_INSTR] && rv[ROLE_INSTR] > 0 ? rv[ROLE_INSTR] / 1000.0 : 0;
    static const struct { role_t r; const char *what; } mpki[] = {
        {ROLE_L1DMISS, "L1D load misses per 1000 instructions"},
        {ROLE_DTLBMISS, "dTLB load misses per 1000 instructions"},
        {ROLE_L2TLBMISS, "L2 TLB misses per 1000 instructions"},
        {ROLE_LLC_MISS, "LLC misses per 1000 instructions"},
        {ROLE_OCR_L3MISS, "demand-data L3 misses (OCR) per 1000 instructions"},
    };
    for (size_t i = 0; ki > 0 && i < sizeof mpki / sizeof mpki[0]; i++)
        if (have[mpki[i].r])
            fmt_add(buf, len, &pos, " %20.3f      %s\n", rv[mpki[i].r] / ki, mpki[i].what);
    if (have[ROLE_FILL_L2] && have[ROLE_FILL_CCX] && have[ROLE_FILL_OTHER_CCX] && have[ROLE_FILL_DRAM]) {
        double all = rv[ROLE_FILL_L2] + rv[ROLE_FILL_CCX] + rv[ROLE_FILL_OTHER_CCX] + rv[ROLE_FILL_DRAM];
        if (all > 0)
            fmt_add(buf, len, &pos,
                    " %19.1f%%      demand fills from local L2\n %19.1f%%      ... from the local CCX (L3)\n"
                    " %19.1f%%      ... from another CCX\n %19.1f%%      ... from DRAM or I/O\n",
                    100 * rv[ROLE_FILL_L2] / all, 100 * rv[ROLE_FILL_CCX] / all,
                    100 * rv[ROLE_FILL_OTHER_CCX] / all, 100 * rv[ROLE_FILL_DRAM] / all);
    }
    if (have[ROLE_TASK_CLOCK] && have[ROLE_CYCLES] && rv[ROLE_TASK_CLOCK] > 0)
        fmt_add(buf, len, &pos, " %20.3f      GHz (cycles per task-clock ns)\n", rv[ROLE_CYCLES] / rv[ROLE_TASK_CLOCK]);
    return pos;
}
