/*
 * tests/unit/test_topo.c — topo/: pools, topologies (synthetic and XML, never
 * the host's shape), plans, binding on this machine, counters.
 * The XML vectors and how they were made: tests/vectors/topo/README.md.
 */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "topo/topo.h"

#define TR7995WX                                                                                      \
    "synthetic:pack:1 numa:1(memory=256GiB) l3:12(size=32MiB) l2:8(size=1MiB) l1d:1(size=32KiB) " \
    "l1i:1(size=32KiB) core:1 pu:2(indexes=2*96:1*2)"
#define VEC "tests/vectors/topo/"

/* ---- pools ---------------------------------------------------------------------- */

typedef struct {
    atomic_uint *hits;  /* per task */
    atomic_uint *busy;  /* per worker: 1 while a task with that index runs */
    atomic_uint clashes, bad_worker;
    unsigned nworkers;
} count_ctx_t;

static void count_task(void *arg, size_t t, unsigned w)
{
    count_ctx_t *c = arg;
    if (w >= c->nworkers) {
        atomic_fetch_add(&c->bad_worker, 1);
        return;
    }
    if (atomic_exchange(&c->busy[w], 1) != 0)
        atomic_fetch_add(&c->clashes, 1);
    atomic_fetch_add(&c->hits[t], 1);
    for (volatile int i = 0; i < 50; i++)
        ;
    atomic_store(&c->busy[w], 0);
}

static void check_pool_runs(topo_pool_t *pool)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 1000};
    unsigned nw = topo_pool_size(pool);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        count_ctx_t c = {.nworkers = nw};
        c.hits = calloc(n + 1, sizeof *c.hits);
        c.busy = calloc(nw, sizeof *c.busy);
        cr_assert(c.hits && c.busy);
        topo_pool_run(pool, n, count_task, &c);
        for (size_t t = 0; t < n; t++)
            cr_expect_eq(atomic_load(&c.hits[t]), 1, "%u workers, %zu tasks: task %zu ran %u times", nw, n, t,
                         atomic_load(&c.hits[t]));
        cr_expect_eq(atomic_load(&c.clashes), 0, "two workers ran with the same index at once");
        cr_expect_eq(atomic_load(&c.bad_worker), 0, "a worker index >= pool size");
        free(c.hits);
        free(c.busy);
    }
}

Test(topo, pool_run_every_task_once)
{
    static const unsigned threads[] = {1, 2, 3, 5};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        topo_pool_t *pool = NULL;
        err_t err;
        cr_assert_eq(topo_pool_create_flat(&pool, threads[i], &err), 0, "%s", err.msg);
        cr_expect_eq(topo_pool_size(pool), threads[i]);
        for (int rep = 0; rep < 3; rep++)
            check_pool_runs(pool);
        topo_pool_destroy(pool);
    }
    check_pool_runs(NULL);
    cr_expect_eq(topo_pool_size(NULL), 1);
    topo_pool_destroy(NULL);
}

Test(topo, pool_create_flat_default_size)
{
    topo_pool_t *pool = NULL;
    cr_assert_eq(topo_pool_create_flat(&pool, 0, NULL), 0);
    cr_expect_eq(topo_pool_size(pool), (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
    cr_expect_eq(topo_pool_domain(pool), -1);
    topo_pool_destroy(pool);
}

typedef struct {
    atomic_uint *unit_hits;
    atomic_uint task_hits[4][64];
    atomic_uint bad;
    unsigned domain_cores;
} units_ctx_t;

static void units_inner(void *arg, size_t t, unsigned w)
{
    (void)w;
    atomic_fetch_add((atomic_uint *)arg + t, 1);
}

static void units_fn(void *arg, size_t unit, unsigned domain, topo_pool_t *pool)
{
    units_ctx_t *c = arg;
    atomic_fetch_add(&c->unit_hits[unit], 1);
    if (domain >= 4 || topo_pool_size(pool) != c->domain_cores || topo_pool_domain(pool) != (int)domain) {
        atomic_fetch_add(&c->bad, 1);
        return;
    }
    atomic_uint local[64];
    for (int i = 0; i < 64; i++)
        atomic_init(&local[i], 0);
    topo_pool_run(pool, 64, units_inner, local);
    for (int i = 0; i < 64; i++)
        if (atomic_load(&local[i]) != 1)
            atomic_fetch_add(&c->bad, 1);
}

Test(topo, domains_run_every_unit_once)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, "synthetic:pack:1 l3:2 core:2 pu:1", &err), 0, "%s", err.msg);
    topo_domains_t *d = NULL;
    cr_assert_eq(topo_domains_create(&d, t, TOPO_POOL_DEFAULT, &err), 0, "%s", err.msg);
    cr_expect_eq(topo_domains_count(d), 2);
    static const size_t sizes[] = {0, 1, 2, 5, 33};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        units_ctx_t c = {.domain_cores = 2};
        c.unit_hits = calloc(sizes[s] + 1, sizeof *c.unit_hits);
        topo_domains_run(d, sizes[s], units_fn, &c);
        for (size_t u = 0; u < sizes[s]; u++)
            cr_expect_eq(atomic_load(&c.unit_hits[u]), 1, "unit %zu of %zu ran %u times", u, sizes[s],
                         atomic_load(&c.unit_hits[u]));
        cr_expect_eq(atomic_load(&c.bad), 0);
        free(c.unit_hits);
    }
    topo_domains_destroy(d);
    topo_domains_destroy(NULL);
    topo_destroy(t);
}

/* ---- topologies and plans ----------------------------------------------------------- */

Test(topo, synthetic_7995wx_plan)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, TR7995WX, &err), 0, "%s", err.msg);
    cr_expect_eq(topo_is_this_system(t), 0);
    cr_expect_eq(topo_package_count(t), 1);
    cr_expect_eq(topo_numa_count(t), 1);
    cr_expect_eq(topo_l3_count(t), 12);
    cr_expect_eq(topo_core_count(t), 96);
    cr_expect_eq(topo_pu_count(t), 192);
    cr_expect_eq(topo_gpu_count(t), 0);
    for (unsigned d = 0; d < 12; d++) {
        topo_domain_t dom;
        topo_domain_get(t, d, &dom);
        char want[64];
        snprintf(want, sizeof want, "%u-%u,%u-%u", 8 * d, 8 * d + 7, 96 + 8 * d, 96 + 8 * d + 7);
        cr_expect_eq(dom.kind, TOPO_DOMAIN_L3);
        cr_expect_eq(dom.ncores, 8);
        cr_expect_eq(dom.npus, 16);
        cr_expect_eq(dom.first_core, 8 * d);
        cr_expect_eq(dom.l3_bytes, 32ull << 20);
        cr_expect_str_eq(dom.cpus, want);
    }
    topo_core_t core;
    topo_core_get(t, 13, &core);
    cr_expect_eq(core.domain, 1);
    cr_expect_str_eq(core.cpus, "13,109");

    topo_plan_t p;
    cr_assert_eq(topo_plan_make(&p, t, TOPO_POOL_PIN, &err), 0, "%s", err.msg);
    cr_expect_eq(p.ndomains, 12);
    cr_expect_eq(p.nsynth, 96);
    cr_expect_eq(p.nmsm, 96);
    cr_expect_eq(p.ngpus, 0);
    for (unsigned d = 0; d < 12; d++) {
        cr_expect_eq(p.domain_first[d + 1] - p.domain_first[d], 8, "domain %u", d);
        for (unsigned i = 0; i < 8; i++) {
            const topo_slot_t *s = &p.synth[p.domain_first[d] + i];
            cr_expect_eq(s->domain, d);
            cr_expect_eq(s->cpu, (int)(8 * d + i));
        }
    }
    cr_expect_str_eq(p.synth[0].cpus, "0,96");
    topo_plan_free(&p);

    cr_assert_eq(topo_plan_make(&p, t, TOPO_POOL_SMT | TOPO_POOL_PIN_DOMAIN, &err), 0);
    cr_expect_eq(p.nsynth, 192);
    cr_expect_eq(p.domain_first[1], 16);
    cr_expect_eq(p.synth[1].cpu, 96);
    cr_expect_str_eq(p.synth[0].cpus, "0-7,96-103");
    topo_plan_free(&p);

    /* Not this system: planning works, applying it is refused (not a silent no-op). */
    topo_pool_t *pool = NULL;
    int rc = topo_pool_create_domain(&pool, t, 0, TOPO_POOL_PIN, &err);
    cr_expect_eq(rc, GM_ENOTSUP);
    cr_expect_null(pool);
    cr_expect(strstr(err.msg, "not this system") != NULL, "%s", err.msg);
    topo_domains_t *dd = NULL;
    cr_expect_eq(topo_domains_create(&dd, t, TOPO_POOL_PIN, &err), GM_ENOTSUP);
    topo_slot_t slot = {.cpus = "0"};
    cr_expect_eq(topo_bind_self(t, &slot, &err), GM_ENOTSUP);
    topo_destroy(t);
}

static void expect_same_topology(const topo_t *a, const topo_t *b)
{
    cr_assert_eq(topo_l3_count(a), topo_l3_count(b));
    cr_assert_eq(topo_core_count(a), topo_core_count(b));
    cr_expect_eq(topo_pu_count(a), topo_pu_count(b));
    cr_expect_eq(topo_numa_count(a), topo_numa_count(b));
    cr_expect_eq(topo_package_count(a), topo_package_count(b));
    for (unsigned d = 0; d < topo_l3_count(a); d++) {
        topo_domain_t x, y;
        topo_domain_get(a, d, &x);
        topo_domain_get(b, d, &y);
        cr_expect_str_eq(x.cpus, y.cpus);
        cr_expect_eq(x.l3_bytes, y.l3_bytes);
        cr_expect_eq(x.kind, y.kind);
    }
    for (unsigned c = 0; c < topo_core_count(a); c++) {
        topo_core_t x, y;
        topo_core_get(a, c, &x);
        topo_core_get(b, c, &y);
        cr_expect_str_eq(x.cpus, y.cpus);
        cr_expect_eq(x.domain, y.domain);
    }
}

Test(topo, xml_round_trip)
{
    topo_t *a = NULL, *b = NULL;
    err_t err;
    cr_assert_eq(topo_load(&a, TR7995WX, &err), 0, "%s", err.msg);
    char path[] = "/tmp/gm_topo_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(topo_export_xml(a, path, &err), 0, "%s", err.msg);
    char spec[64];
    snprintf(spec, sizeof spec, "xml:%s", path);
    cr_assert_eq(topo_load(&b, spec, &err), 0, "%s", err.msg);
    cr_expect_eq(topo_is_this_system(b), 0);
    cr_expect_str_eq(topo_source(b), spec);
    expect_same_topology(a, b);
    unlink(path);
    cr_expect_neq(topo_export_xml(a, "/nonexistent-dir/x.xml", &err), 0);
    cr_expect(strstr(err.msg, "/nonexistent-dir/x.xml") != NULL, "%s", err.msg);
    topo_destroy(a);
    topo_destroy(b);
}

Test(topo, xml_amd_ccds)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, "xml:" VEC "zen4-4ccd.xml", &err), 0, "%s", err.msg);
    cr_expect_eq(topo_l3_count(t), 4);
    cr_expect_eq(topo_core_count(t), 16);
    cr_expect_eq(topo_pu_count(t), 32);
    topo_domain_t dom;
    topo_domain_get(t, 2, &dom);
    cr_expect_eq(dom.kind, TOPO_DOMAIN_L3);
    cr_expect_str_eq(dom.cpus, "8-11,24-27");
    topo_destroy(t);
}

/* Fuzz finding F5 (docs/reliability.md): an XML missing one PU element
 * (zen4-4ccd.xml without the PU of OS index 0; its core keeps cpuset
 * 0x00010001) loads. topo_pu_count agrees with what the cores and domains
 * count from cpusets (32), not with the 31 PU objects hwloc holds. */
Test(topo, xml_torn_pu_counts_agree)
{
    FILE *in = fopen(VEC "zen4-4ccd.xml", "r");
    cr_assert_not_null(in);
    char dir[] = "/tmp/gm-topo-XXXXXX", path[64], spec[80], line[1024];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/torn.xml", dir);
    FILE *out = fopen(path, "w");
    cr_assert_not_null(out);
    int dropped = 0;
    while (fgets(line, sizeof line, in))
        if (!dropped && strstr(line, "type=\"PU\" os_index=\"0\""))
            dropped = 1;
        else
            fputs(line, out);
    fclose(in);
    fclose(out);
    cr_assert(dropped);
    snprintf(spec, sizeof spec, "xml:%s", path);
    topo_t *t = NULL;
    err_t err;
    int rc = topo_load(&t, spec, &err);
    unlink(path);
    rmdir(dir);
    cr_assert_eq(rc, 0, "%s", err.msg);
    unsigned cores = 0, doms = 0;
    for (unsigned i = 0; i < topo_core_count(t); i++) {
        topo_core_t c;
        topo_core_get(t, i, &c);
        cores += c.npus;
    }
    for (unsigned i = 0; i < topo_l3_count(t); i++) {
        topo_domain_t d;
        topo_domain_get(t, i, &d);
        doms += d.npus;
    }
    cr_expect_eq(topo_core_count(t), 16);
    cr_expect_eq(topo_pu_count(t), cores, "topo_pu_count %u, the cores hold %u", topo_pu_count(t), cores);
    cr_expect_eq(topo_pu_count(t), doms, "topo_pu_count %u, the domains hold %u", topo_pu_count(t), doms);
    topo_destroy(t);
}

Test(topo, xml_intel_snc)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, "xml:" VEC "spr-snc2-2s.xml", &err), 0, "%s", err.msg);
    cr_expect_eq(topo_package_count(t), 2);
    cr_expect_eq(topo_numa_count(t), 4);
    cr_assert_eq(topo_l3_count(t), 4, "each L3 is cut by its 2 NUMA nodes");
    for (unsigned d = 0; d < 4; d++) {
        topo_domain_t dom;
        topo_domain_get(t, d, &dom);
        cr_expect_eq(dom.kind, TOPO_DOMAIN_L3_NUMA);
        cr_expect_eq(dom.numa, (int)d);
        cr_expect_eq(dom.package, d / 2);
        cr_expect_eq(dom.ncores, 4);
        cr_expect_eq(dom.npus, 8);
    }
    topo_destroy(t);
}

Test(topo, xml_gpu_locality)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, "xml:" VEC "gpu-2s.xml", &err), 0, "%s", err.msg);
    cr_assert_eq(topo_gpu_count(t), 1, "one PCI device with two OS devices is one GPU");
    topo_gpu_t g;
    topo_gpu_get(t, 0, &g);
    cr_expect_str_eq(g.name, "cuda0");
    cr_expect_str_eq(g.pci, "0000:41:00.0");
    cr_expect_eq(g.numa, 1);
    cr_expect_eq(g.domain, 2);
    cr_expect_str_eq(g.cpus, "4-7");
    topo_plan_t p;
    cr_assert_eq(topo_plan_make(&p, t, TOPO_POOL_DEFAULT, &err), 0);
    cr_assert_eq(p.ngpus, 1);
    cr_expect_eq(p.gpu_feeder[0].domain, 2);
    cr_expect(p.gpu_feeder[0].cpu == 4 || p.gpu_feeder[0].cpu == 5);
    topo_plan_free(&p);
    topo_destroy(t);
}

Test(topo, load_errors_name_the_spec)
{
    topo_t *t = NULL;
    err_t err;
    cr_expect_eq(topo_load(&t, "synthetic:pack:x", &err), GM_EFORMAT);
    cr_expect_null(t);
    cr_expect(strstr(err.msg, "'synthetic:pack:x'") != NULL, "%s", err.msg);
    cr_expect_eq(topo_load(&t, "xml:/nonexistent.xml", &err), GM_EIO);
    cr_expect(strstr(err.msg, "/nonexistent.xml") != NULL, "%s", err.msg);
    cr_expect_eq(topo_load(&t, "xml:" VEC "README.md", &err), GM_EFORMAT);
    cr_expect_eq(topo_load(&t, "lstopo", &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "'lstopo'") != NULL, "%s", err.msg);
    topo_destroy(NULL);
}

/* ---- binding on this machine ------------------------------------------------------- */

typedef struct {
    cpu_set_t want[64];
    atomic_uint checked[64], wrong[64];
    unsigned nworkers;
    unsigned first_checked; /* worker 0 of a flat-caller pool keeps its binding */
} bind_ctx_t;

static void bind_task(void *arg, size_t t, unsigned w)
{
    (void)t;
    bind_ctx_t *c = arg;
    if (w >= c->nworkers || w >= 64 || w < c->first_checked)
        return;
    cpu_set_t have;
    CPU_ZERO(&have);
    int cpu = sched_getcpu();
    if (sched_getaffinity(0, sizeof have, &have) != 0 || !CPU_EQUAL(&have, &c->want[w]) ||
        !CPU_ISSET(cpu, &c->want[w]))
        atomic_fetch_add(&c->wrong[w], 1);
    atomic_fetch_add(&c->checked[w], 1);
    usleep(2000); /* lets the other workers take tasks too */
}

static void set_from_list(cpu_set_t *s, const char *list)
{
    CPU_ZERO(s);
    const char *p = list;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long i = a; i <= b; i++)
            CPU_SET(i, s);
        p = *end == ',' ? end + 1 : end;
    }
}

static void bind_unit(void *arg, size_t unit, unsigned domain, topo_pool_t *pool)
{
    (void)unit;
    bind_ctx_t *c = (bind_ctx_t *)arg + domain;
    topo_pool_run(pool, 4 * topo_pool_size(pool), bind_task, c);
}

Test(topo, binding_on_this_machine)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, "this", &err), 0, "%s", err.msg);
    cr_assert_eq(topo_is_this_system(t), 1);
    topo_plan_t p;
    cr_assert_eq(topo_plan_make(&p, t, TOPO_POOL_PIN, &err), 0);
    if (p.nmsm > 64) {
        topo_plan_free(&p);
        topo_destroy(t);
        cr_skip_test("more than 64 cores");
    }
    /* The machine pool: workers 1.. are pinned to their cores. */
    topo_pool_t *pool = NULL;
    cr_assert_eq(topo_pool_create_machine(&pool, t, TOPO_POOL_PIN, &err), 0, "%s", err.msg);
    bind_ctx_t *c = calloc(1, sizeof *c);
    c->nworkers = topo_pool_size(pool);
    c->first_checked = 1;
    cr_assert_eq(c->nworkers, p.nmsm);
    for (unsigned w = 0; w < c->nworkers; w++)
        set_from_list(&c->want[w], p.msm[w].cpus);
    topo_pool_run(pool, 8 * c->nworkers, bind_task, c);
    for (unsigned w = 1; w < c->nworkers; w++) {
        cr_expect_eq(atomic_load(&c->wrong[w]), 0, "worker %u ran outside cpus %s", w, p.msm[w].cpus);
    }
    topo_pool_destroy(pool);

    /* The pool of pools: every thread, leaders included, is pinned. */
    topo_domains_t *d = NULL;
    cr_assert_eq(topo_domains_create(&d, t, TOPO_POOL_PIN, &err), 0, "%s", err.msg);
    unsigned nd = topo_domains_count(d);
    bind_ctx_t *cs = calloc(nd, sizeof *cs);
    for (unsigned i = 0; i < nd; i++) {
        cs[i].nworkers = topo_pool_size(topo_domains_pool(d, i));
        for (unsigned w = 0; w < cs[i].nworkers && w < 64; w++)
            set_from_list(&cs[i].want[w], p.synth[p.domain_first[i] + w].cpus);
    }
    topo_domains_run(d, 2 * nd, bind_unit, cs);
    for (unsigned i = 0; i < nd; i++)
        for (unsigned w = 0; w < cs[i].nworkers && w < 64; w++)
            cr_expect_eq(atomic_load(&cs[i].wrong[w]), 0, "domain %u worker %u ran outside cpus %s", i, w,
                         p.synth[p.domain_first[i] + w].cpus);
    cr_expect_gt(atomic_load(&cs[0].checked[0]), 0, "the leader of domain 0 ran no task");
    free(cs);
    topo_domains_destroy(d);
    free(c);

    /* Binding the calling thread to one slot. */
    cr_expect_eq(topo_bind_self(t, &p.msm[p.nmsm - 1], &err), 0, "%s", err.msg);
    cpu_set_t have, want;
    sched_getaffinity(0, sizeof have, &have);
    set_from_list(&want, p.msm[p.nmsm - 1].cpus);
    cr_expect(CPU_EQUAL(&have, &want));
    topo_plan_free(&p);
    topo_destroy(t);
}

/* ---- counters ---------------------------------------------------------------------- */

static unsigned find_event(const topo_evset_t *es, const char *name)
{
    for (unsigned i = 0; i < topo_evset_count(es); i++)
        if (strcmp(topo_evset_name(es, i), name) == 0)
            return i;
    cr_assert_fail("event '%s' not in the set", name);
    return 0;
}

static void busy(void *arg, size_t t, unsigned w)
{
    (void)t;
    (void)w;
    volatile uint64_t *x = arg;
    for (int i = 0; i < 3000000; i++)
        *x += (uint64_t)i;
}

Test(topo, counters_software_events)
{
    topo_evset_t *es = NULL;
    err_t err;
    cr_assert_eq(topo_evset_create(&es, "task-clock, page-faults", &err), 0, "%s", err.msg);
    cr_expect_eq(topo_evset_count(es), 3, "context-switches is appended");
    unsigned tc = find_event(es, "task-clock");
    topo_counters_t *c = NULL;
    cr_assert_eq(topo_counters_open_self(&c, es, &err), 0, "%s", err.msg);
    unsigned st, st2;
    cr_assert_eq(topo_counters_stage(c, "busy", &st, &err), 0);
    cr_assert_eq(topo_counters_stage(c, "busy", &st2, &err), 0);
    cr_expect_eq(st, st2);
    cr_assert(topo_counters_available(c, tc));
    volatile uint64_t x = 0;
    topo_counters_begin(c, st);
    busy((void *)&x, 0, 0);
    topo_counters_end(c, st);
    double v = 0;
    cr_assert_eq(topo_counters_value(c, st, -1, tc, &v), 0);
    cr_expect_gt(v, 0, "task-clock around a busy loop: %f", v);
    char buf[4096];
    size_t need = topo_counters_format(c, st, -1, buf, sizeof buf);
    cr_expect_lt(need, sizeof buf);
    cr_expect(strstr(buf, "msec task-clock") != NULL, "%s", buf);
    cr_expect_eq(topo_counters_format(c, st, -1, buf, 10), need, "the length does not depend on the buffer");
    cr_expect_eq(strlen(buf), 9);
    topo_counters_destroy(c);

    /* The same on a pool's threads, summed over them. */
    topo_pool_t *pool = NULL;
    cr_assert_eq(topo_pool_create_flat(&pool, 2, &err), 0);
    cr_assert_eq(topo_counters_open_pool(&c, es, pool, &err), 0, "%s", err.msg);
    cr_assert_eq(topo_counters_stage(c, "msm", &st, &err), 0);
    topo_counters_begin(c, st);
    topo_pool_run(pool, 4, busy, (void *)&x);
    topo_counters_end(c, st);
    cr_assert_eq(topo_counters_value(c, st, -1, tc, &v), 0);
    cr_expect_gt(v, 0);
    cr_expect_eq(topo_counters_ndomains(c), 1);
    cr_expect_str_eq(topo_counters_stage_name(c, st), "msm");
    topo_counters_destroy(c);
    topo_pool_destroy(pool);
    topo_evset_destroy(es);
}

static void busy_unit(void *arg, size_t unit, unsigned domain, topo_pool_t *pool)
{
    (void)domain;
    (void)pool;
    busy(arg, unit, 0);
    usleep(5000); /* so that both leaders get a unit */
}

Test(topo, counters_per_domain)
{
    topo_t *t = NULL;
    err_t err;
    cr_assert_eq(topo_load(&t, "synthetic:pack:1 l3:2 core:1 pu:1", &err), 0, "%s", err.msg);
    topo_domains_t *d = NULL;
    cr_assert_eq(topo_domains_create(&d, t, TOPO_POOL_DEFAULT, &err), 0, "%s", err.msg);
    topo_evset_t *es = NULL;
    cr_assert_eq(topo_evset_create(&es, "task-clock", &err), 0, "%s", err.msg);
    topo_counters_t *c = NULL;
    cr_assert_eq(topo_counters_open_domains(&c, es, d, &err), 0, "%s", err.msg);
    cr_expect_eq(topo_counters_ndomains(c), 2);
    unsigned st;
    cr_assert_eq(topo_counters_stage(c, "witness", &st, &err), 0);
    topo_counters_begin(c, st);
    volatile uint64_t x = 0;
    topo_domains_run(d, 4, busy_unit, (void *)&x); /* busy on the leaders */
    topo_counters_end(c, st);
    double a = -1, b = -1, all = -1;
    cr_assert_eq(topo_counters_value(c, st, 0, 0, &a), 0);
    cr_assert_eq(topo_counters_value(c, st, 1, 0, &b), 0);
    cr_assert_eq(topo_counters_value(c, st, -1, 0, &all), 0);
    cr_expect_eq(a + b, all);
    cr_expect_gt(a, 0);
    cr_expect_gt(b, 0);
    topo_counters_destroy(c);
    topo_evset_destroy(es);
    topo_domains_destroy(d);
    topo_destroy(t);
}

/* A naive probe, sharing no code with topo_pmu.c: can this machine count
 * instructions at all? */
static int host_counts_instructions(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd >= 0)
        close((int)fd);
    return fd >= 0;
}

Test(topo, counters_unavailable_read_not_available)
{
    unsetenv("GROTHMPI_EVENTS");
    topo_evset_t *es = NULL;
    err_t err;
    cr_assert_eq(topo_evset_create(&es, NULL, &err), 0, "%s", err.msg);
    unsigned ins = find_event(es, "instructions");
    find_event(es, "cycles");
    find_event(es, "branch-misses");
    find_event(es, "L1-dcache-load-misses");
    find_event(es, "dTLB-load-misses");
    unsigned tc = find_event(es, "task-clock");
    find_event(es, "page-faults");
    find_event(es, "context-switches");
    if (strcmp(topo_evset_model(es), "zen4") == 0)
        find_event(es, "ls_dmnd_fills_from_sys.local_ccx");
    if (strcmp(topo_evset_model(es), "spr") == 0)
        find_event(es, "ocr.demand_data_rd.l3_miss");
    topo_counters_t *c = NULL;
    cr_assert_eq(topo_counters_open_self(&c, es, &err), 0, "%s", err.msg);
    if (!host_counts_instructions())
        cr_expect_eq(topo_counters_available(c, ins), 0, "no PMU here, yet 'instructions' opened");
    cr_expect(topo_counters_available(c, tc));
    unsigned st;
    cr_assert_eq(topo_counters_stage(c, "ntt", &st, &err), 0);
    topo_counters_begin(c, st);
    topo_counters_end(c, st);
    char buf[8192];
    topo_counters_format(c, st, -1, buf, sizeof buf);
    for (unsigned e = 0; e < topo_evset_count(es); e++) {
        double v = -1;
        int rc = topo_counters_value(c, st, -1, e, &v);
        if (topo_counters_available(c, e))
            continue;
        cr_expect_eq(rc, GM_ENOTSUP, "%s", topo_evset_name(es, e));
        cr_expect_eq(v, 0);
        char line[160];
        snprintf(line, sizeof line, "<not available>      %s\n", topo_evset_name(es, e));
        cr_expect(strstr(buf, line) != NULL, "no '%s' in\n%s", line, buf);
    }
    topo_counters_destroy(c);
    topo_evset_destroy(es);
}

Test(topo, counters_bad_event_name)
{
    topo_evset_t *es = NULL;
    err_t err;
    cr_expect_eq(topo_evset_create(&es, "instructions,nosuchevent_xyz", &err), GM_EINVAL);
    cr_expect_null(es);
    cr_expect(strstr(err.msg, "'nosuchevent_xyz'") && strstr(err.msg, "not found"), "%s", err.msg);

    setenv("GROTHMPI_EVENTS", "cycles,bogus::thing", 1);
    cr_expect_eq(topo_evset_create(&es, NULL, &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "GROTHMPI_EVENTS") && strstr(err.msg, "'bogus::thing'"), "%s", err.msg);
    setenv("GROTHMPI_EVENTS", "cycles, ls_dmnd_fills_from_sys.dram_io_all", 1);
    cr_assert_eq(topo_evset_create(&es, NULL, &err), 0, "%s", err.msg);
    cr_expect_eq(topo_evset_count(es), 5, "2 named + 3 software");
    cr_expect_str_eq(topo_evset_name(es, 1), "ls_dmnd_fills_from_sys.dram_io_all");
    topo_evset_destroy(es);
    unsetenv("GROTHMPI_EVENTS");

    cr_expect_eq(topo_evset_create(&es, "cycles,,instructions", &err), GM_EINVAL);
    cr_expect(strstr(err.msg, "empty event name") != NULL, "%s", err.msg);
}
