/*
 * tests/unit/test_study.c — suite "study": report comparison on two
 * report.json files written from hand-made summaries (deltas computed here
 * by hand; null counters are n/a, never 0; a missing or mistyped key is one
 * error naming the file and key), the study file's validation (unknown keys, the depth
 * axis renamed pipeline_depth, bad axis values), and planning mode on the synthetic 7995WX
 * (12 L3 domains) without running anything.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/mpi.h"
#include "study/study.h"

static char dir[64];

static void setup_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/gm-study-ut.XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static void put(const char *name, const char *text)
{
    char p[160];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* The events of the reports below: the prove counters' names. */
static const char *const fixture_events[] = {
    "instructions", "cycles", "branches", "branch-misses", "L1-dcache-load-misses",
    "ls_dmnd_fills_from_sys.local_l2", "ls_dmnd_fills_from_sys.local_ccx", "ls_dmnd_fills_from_sys.remote_cache",
    "task-clock",
};
#define NFIX (sizeof fixture_events / sizeof fixture_events[0])

/* A one-rank report written by mpi_report_save: stage times t[8] (cluster
 * totals), prove counters prove[NFIX] (NAN: not available; no DRAM fills
 * event at all), witness counters n/a but task-clock. */
static void report(const char *name, const double *t, const double *prove, double wall, double pph)
{
    const double nan = __builtin_nan("");
    mpi_report_t *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    r->ranks = calloc(1, sizeof *r->ranks);
    cr_assert_not_null(r->ranks);
    r->nranks = 1;
    snprintf(r->campaign.name, sizeof r->campaign.name, "c");
    snprintf(r->campaign.circuit, sizeof r->campaign.circuit, "test-mul");
    snprintf(r->campaign.verify, sizeof r->campaign.verify, "rank");
    snprintf(r->counter_model, sizeof r->counter_model, "zen4");
    r->events.n = NFIX;
    for (size_t e = 0; e < NFIX; e++)
        snprintf(r->events.name[e], sizeof r->events.name[e], "%s", fixture_events[e]);
    mpi_report_rank_t *rk = &r->ranks[0];
    rk->events = r->events;
    rk->threads = 1;
    rk->proofs_per_hour = pph;
    for (int s = 0; s < MPI_NSTAGES; s++) {
        rk->stages[s].wall_s = r->totals.stages[s].wall_s = t[s];
        rk->stages[s].cpu_s = r->totals.stages[s].cpu_s = nan;
    }
    for (size_t e = 0; e < NFIX; e++) {
        double w = strcmp(fixture_events[e], "task-clock") == 0 ? 5.0 : nan;
        rk->counters[MPI_CSTAGE_WITNESS][e] = r->totals.counters[MPI_CSTAGE_WITNESS][e] = w;
        rk->counters[MPI_CSTAGE_PROVE][e] = r->totals.counters[MPI_CSTAGE_PROVE][e] = prove[e];
    }
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        rk->derived[cs] = (mpi_report_derived_t){nan, nan, nan};
    r->run.ranks = 1;
    r->run.wall_s = wall;
    r->run.proofs_per_hour = pph;
    r->run.load_imbalance = 1.0;
    char p[160];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    err_t err;
    gm_err_clear(&err);
    cr_assert_eq(mpi_report_save(r, p, &err), 0, "%s", err.msg);
    mpi_report_free(r);
}

static const study_delta_t *find(const study_delta_t *r, size_t n, const char *stage, const char *metric)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].stage, stage) == 0 && strcmp(r[i].metric, metric) == 0)
            return &r[i];
    cr_assert_fail("no row %s/%s", stage, metric);
    return NULL;
}

Test(study, compare_deltas, .init = setup_dir, .fini = teardown_dir)
{
    const double ta[8] = {1, 2, 3, 4, 0.5, 10, 0.25, 0};
    const double tb[8] = {1.5, 2, 1.5, 5, 0.5, 9, 0.25, 0.1};
    /* instructions, cycles, branches, branch-misses, L1D misses, fills from L2, CCX, other CCX; task-clock */
    const double pa[NFIX] = {4000, 2000, 100, 10, 50, 40, 8, __builtin_nan(""), 1};
    const double pb[NFIX] = {5000, 4000, 150, 5, 75, 20, 12, 3, 1};
    report("a.json", ta, pa, 10, 3600);
    report("b.json", tb, pb, 8, 4500);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    study_delta_t *r = NULL;
    size_t n = 0;
    err_t err;
    gm_err_clear(&err);
    cr_assert_eq(study_compare(&r, &n, a, b, &err), 0, "%s", err.msg);
    double d, p;
    /* ntt: 3 -> 1.5 s: -1.5 s, -50 % */
    cr_assert(study_delta_of(find(r, n, "ntt", "time_s"), &d, &p));
    cr_assert_float_eq(d, -1.5, 1e-12);
    cr_assert_float_eq(p, -50.0, 1e-9);
    /* wait: 0 -> 0.1: +0.1, % undefined */
    cr_assert(study_delta_of(find(r, n, "wait", "time_s"), &d, &p));
    cr_assert_float_eq(d, 0.1, 1e-12);
    cr_assert(p != p);
    /* prove counters */
    cr_assert(study_delta_of(find(r, n, "prove", "instructions"), &d, &p));
    cr_assert_float_eq(d, 1000, 1e-9);
    cr_assert_float_eq(p, 25.0, 1e-9);
    cr_assert(study_delta_of(find(r, n, "prove", "ipc"), &d, &p)); /* 2.0 -> 1.25 */
    cr_assert_float_eq(find(r, n, "prove", "ipc")->a, 2.0, 1e-12);
    cr_assert_float_eq(d, -0.75, 1e-12);
    cr_assert_float_eq(p, -37.5, 1e-9);
    cr_assert(study_delta_of(find(r, n, "prove", "branch_misses"), &d, &p));
    cr_assert_float_eq(p, -50.0, 1e-9);
    cr_assert(study_delta_of(find(r, n, "prove", "l2_accesses"), &d, &p));
    cr_assert_float_eq(d, 25, 1e-9);
    cr_assert(study_delta_of(find(r, n, "prove", "l1_fills_from_l2"), &d, &p));
    cr_assert_float_eq(p, -50.0, 1e-9);
    cr_assert(study_delta_of(find(r, n, "prove", "l3_ccx_fills"), &d, &p));
    cr_assert_float_eq(p, 50.0, 1e-9);
    /* null in a, or missing in both: n/a, never 0 */
    cr_assert_not(study_delta_of(find(r, n, "prove", "remote_ccx_fills"), &d, &p));
    cr_assert_not(study_delta_of(find(r, n, "prove", "dram_fills"), &d, &p));
    cr_assert_not(study_delta_of(find(r, n, "witness", "instructions"), &d, &p));
    cr_assert_not(study_delta_of(find(r, n, "witness", "ipc"), &d, &p));
    /* the run */
    cr_assert(study_delta_of(find(r, n, "run", "proofs_per_hour"), &d, &p));
    cr_assert_float_eq(p, 25.0, 1e-9);
    /* the table says n/a and the percentages */
    char *txt = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&txt, &len);
    study_print_compare(r, n, "a.json", "b.json", f);
    fclose(f);
    cr_assert(strstr(txt, "-50.00%"));
    cr_assert(strstr(txt, "n/a"));
    cr_assert(strstr(txt, "+25.00%"));
    free(txt);
    free(r);
}

Test(study, compare_errors, .init = setup_dir, .fini = teardown_dir)
{
    put("x.json", "{\"format\": \"something-else\"}");
    put("bad.json", "{nope");
    char x[128], bad[128], none[128];
    snprintf(x, sizeof x, "%s/x.json", dir);
    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    snprintf(none, sizeof none, "%s/none.json", dir);
    study_delta_t *r = NULL;
    size_t n = 0;
    err_t err;
    gm_err_clear(&err);
    cr_assert_eq(study_compare(&r, &n, x, x, &err), GM_EFORMAT);
    cr_assert(strstr(err.msg, "format"), "%s", err.msg);
    cr_assert_eq(study_compare(&r, &n, bad, x, &err), GM_EFORMAT);
    cr_assert_eq(study_compare(&r, &n, none, x, &err), GM_EIO);
    cr_assert(strstr(err.msg, "none.json"), "%s", err.msg);
    cr_assert_null(r);

    /* a report with a key missing, or of the wrong type: one error naming
     * the file and the key, whichever side it is on */
    const double t[8] = {1, 1, 1, 1, 1, 1, 1, 1}, pc[NFIX] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    report("good.json", t, pc, 1, 3600);
    char good[128], want[256];
    snprintf(good, sizeof good, "%s/good.json", dir);
    json_error_t je;
    json_t *j = json_load_file(good, 0, &je);
    cr_assert_not_null(j, "%s", je.text);
    json_object_del(json_object_get(json_object_get(j, "totals"), "stages"), "ntt");
    cr_assert_eq(json_dump_file(j, x, JSON_PRESERVE_ORDER), 0);
    json_decref(j);
    cr_assert_eq(study_compare(&r, &n, good, x, &err), GM_EFORMAT);
    snprintf(want, sizeof want, "%s: totals.stages.ntt: missing", x);
    cr_assert_str_eq(err.msg, want);
    j = json_load_file(good, 0, &je);
    json_object_set_new(json_object_get(j, "run"), "proofs_per_hour", json_string("fast"));
    cr_assert_eq(json_dump_file(j, x, JSON_PRESERVE_ORDER), 0);
    json_decref(j);
    cr_assert_eq(study_compare(&r, &n, x, good, &err), GM_EFORMAT);
    snprintf(want, sizeof want, "%s: run.proofs_per_hour: not a number or null", x);
    cr_assert_str_eq(err.msg, want);
    cr_assert_null(r);
    cr_assert_eq(study_compare(&r, &n, good, good, &err), 0, "%s", err.msg);
    free(r);
}

#define S7995 "synthetic:pack:1 numa:1(memory=256GiB) l3:12(size=32MiB) l2:8(size=1MiB) l1d:1(size=32KiB) " \
              "l1i:1(size=32KiB) core:1 pu:2(indexes=2*96:1*2)"

/* What study_print_plan prints for s (free it). */
static char *plan_text(const study_t *s)
{
    char *txt = NULL;
    size_t len = 0;
    err_t err;
    FILE *f = open_memstream(&txt, &len);
    cr_assert_not_null(f);
    cr_assert_eq(study_print_plan(s, f, &err), 0, "%s", err.msg);
    fclose(f);
    return txt;
}

static const char *campaign_obj =
    "{\"name\": \"c\", \"circuit\": \"test-synthetic\", \"constraints\": 64, \"params\": \"params\", "
    "\"sectors\": {\"count\": 4}, \"output\": \"out\"}";

static int load_study(study_t **s, const char *axes, const char *extra, err_t *err)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "{\"name\": \"t\", \"campaign\": %s, \"axes\": %s, \"output\": \"so\"%s}",
             campaign_obj, axes, extra);
    put("s.json", buf);
    char p[128];
    snprintf(p, sizeof p, "%s/s.json", dir);
    return study_load(s, p, err);
}

Test(study, plan_7995wx, .init = setup_dir, .fini = teardown_dir)
{
    study_t *s = NULL;
    err_t err;
    gm_err_clear(&err);
    cr_assert_eq(load_study(&s, "{\"domains\": [1, 6, 12], \"batch_size\": [1, 4]}",
                            ", \"topology\": \"" S7995 "\", \"repetitions\": 3", &err),
                 0, "%s", err.msg);
    cr_assert(study_is_plan_only(s));
    cr_assert_eq(study_point_count(s), 6);
    char *txt = plan_text(s);
    cr_assert(strstr(txt, "12 L3 domains"), "%s", txt);
    cr_assert(strstr(txt, "domain 11  8 cores, 16 PUs, cpus 88-95,184-191"), "%s", txt);
    /* domains sets the prepare pools (resources.domains), not the MSM
     * pool: domains=12 prepares in every domain, domains=1 in the first,
     * and the MSM pool is the base campaign's (threads 0: all 96 cores). */
    cr_assert(strstr(txt, "prepare: 12 of 12 L3 domains"), "%s", txt);
    cr_assert(strstr(txt, "prepare: 1 of 12 L3 domains"), "%s", txt);
    cr_assert(strstr(txt, "domain 11  8 workers not bound, in cpus 88-95\n"), "%s", txt);
    cr_assert(!strstr(txt, "48 MSM threads"), "domains no longer sets the thread count: %s", txt);
    cr_assert(strstr(txt, "1 rank x 96 MSM threads"), "%s", txt);
    /* running a plan-only study is refused */
    cr_assert_eq(study_run(s, 0, study_run_inprocess, NULL, NULL, NULL, &err), GM_ESTATE);
    free(txt);
    study_free(s);
}

Test(study, load_errors, .init = setup_dir, .fini = teardown_dir)
{
    study_t *s = NULL;
    err_t err;
    gm_err_clear(&err);
    cr_assert_eq(load_study(&s, "{}", ", \"colour\": 1", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "s.json: colour: unknown key"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"depth\": [1, 2]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.depth: unknown axis") && strstr(err.msg, "pipeline_depth"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"pipeline_depth\": [0, 65]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.pipeline_depth[1]: 65 is not an integer in 0..64"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"pipeline_depth\": [-1]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.pipeline_depth[0]: -1 is not an integer in 0..64"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"batch_size\": [1, 65]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.batch_size[1]: 65 is not an integer in 1..64"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"pin\": [1]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.pin[0]"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"threads\": [2, 2]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "repeats"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"mem_budget\": [\"4 lots\"]}", "", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.mem_budget[0]"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{\"domains\": [13]}", ", \"topology\": \"" S7995 "\"", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "more than the 12 L3 domains"), "%s", err.msg);
    cr_assert_eq(load_study(&s, "{}", ", \"repetitions\": 0", &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "repetitions"), "%s", err.msg);
    cr_assert_null(s);
    /* a bad base campaign names the campaign's key */
    put("s2.json", "{\"campaign\": {\"circuit\": \"test-synthetic\", \"params\": \"p\", \"sectors\": {\"count\": 1}, "
                   "\"output\": \"o\", \"batch_size\": 0}, \"output\": \"so\"}");
    char p[128];
    snprintf(p, sizeof p, "%s/s2.json", dir);
    cr_assert_neq(study_load(&s, p, &err), 0);
    cr_assert(strstr(err.msg, "batch_size"), "%s", err.msg);
    /* a good one: points multiply */
    cr_assert_eq(load_study(&s, "{\"threads\": [1, 2], \"batch_size\": [1, 2], \"pin\": [false, true]}", "", &err),
                 0, "%s", err.msg);
    cr_assert_eq(study_point_count(s), 8);
    cr_assert_not(study_is_plan_only(s));
    study_free(s);
    /* depth 0 (no overlap) is a value of its own */
    cr_assert_eq(load_study(&s, "{\"pipeline_depth\": [0, 1, 3], \"batch_size\": [1, 2]}", "", &err), 0, "%s",
                 err.msg);
    cr_assert_eq(study_point_count(s), 6);
    study_free(s);
}

/* A study that runs here on a campaign describing the machine as 2 domains
 * (resources.topology): the domains axis is checked and planned against the
 * campaign's description, not this machine's domains. */
Test(study, domains_on_campaign_topology, .init = setup_dir, .fini = teardown_dir)
{
    static const char *fmt =
        "{\"name\": \"t\", \"campaign\": {\"name\": \"c\", \"circuit\": \"test-synthetic\", \"constraints\": 64, "
        "\"params\": \"params\", \"sectors\": {\"count\": 4}, \"output\": \"out\", \"resources\": {\"threads\": 1, "
        "\"topology\": \"synthetic:pack:1 l3:2 core:1 pu:1\"}}, \"axes\": {\"domains\": %s}, \"output\": \"so\"}";
    char buf[1024], p[128];
    snprintf(p, sizeof p, "%s/s.json", dir);
    study_t *s = NULL;
    err_t err;
    gm_err_clear(&err);
    snprintf(buf, sizeof buf, fmt, "[1, 2]");
    put("s.json", buf);
    cr_assert_eq(study_load(&s, p, &err), 0, "%s", err.msg);
    cr_assert_not(study_is_plan_only(s), "the runs happen here, on the described split");
    char *txt = plan_text(s);
    cr_assert(strstr(txt, "the campaign's resources.topology"), "%s", txt);
    cr_assert(strstr(txt, "point 0: domains=1\n  1 rank x 1 MSM thread,"), "%s", txt);
    cr_assert(strstr(txt, "prepare: 1 of 2 L3 domains"), "%s", txt);
    cr_assert(strstr(txt, "prepare: 2 of 2 L3 domains"), "%s", txt);
    cr_assert(strstr(txt, "domain 1   1 worker not bound, in cpus 1\n"), "%s", txt);
    free(txt);
    study_free(s);
    s = NULL;
    snprintf(buf, sizeof buf, fmt, "[3]");
    put("s.json", buf);
    cr_assert_eq(study_load(&s, p, &err), GM_EINVAL);
    cr_assert(strstr(err.msg, "axes.domains[0]: 3 is more than the 2 L3 domains of synthetic:pack:1 l3:2 core:1 "
                              "pu:1 (the campaign's resources.topology)"),
              "%s", err.msg);
    cr_assert_null(s);
}
