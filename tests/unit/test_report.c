/*
 * tests/unit/test_report.c — suite "report": the cluster report built from
 * hand-made rank metrics (mpi/mpi_internal.h's mr_report_build), its
 * report.json keys, totals, proofs per hour and load imbalance against
 * numbers computed here by hand, "not available" counters as null / NA, the
 * save -> load round trip (every figure of the typed summary comes back),
 * the CSV shape, and load's errors (one message naming the file and the
 * key for a missing or mistyped key).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"

static void fill(mr_metrics_t *m, int rank, uint64_t units, double busy_s, bool counters)
{
    memset(m, 0, sizeof *m);
    m->rank = rank;
    m->threads = 2;
    m->ndomains = 1;
    snprintf(m->host, sizeof m->host, "h%d", rank);
    snprintf(m->model, sizeof m->model, "zen4");
    m->units = units;
    m->busy_ns = (uint64_t)(busy_s * 1e9);
    m->run_ns = m->busy_ns + 1000000;
    for (int s = 0; s < MR_NSTAGES; s++) {
        m->wall_ns[s] = (uint64_t)(s + 1) * 1000000000ULL;
        m->cpu_ns[s] = (uint64_t)(s + 1) * 500000000ULL;
    }
    for (int s = 0; s < MR_NSTAGES; s++)
        m->cpu_known[s] = 1;
    m->prep_threads = 1;
    m->depth = 2;
    m->depth_wanted = 3;
    m->unit_bytes = 4096;
    m->nev = 3;
    snprintf(m->ev_name[0], MR_EV_NAME, "instructions");
    snprintf(m->ev_name[1], MR_EV_NAME, "cycles");
    snprintf(m->ev_name[2], MR_EV_NAME, "task-clock");
    m->ev_avail[0] = m->ev_avail[1] = counters;
    m->ev_avail[2] = 1;
    for (int c = 0; c < MR_NCS; c++) {
        m->ev[c][0] = 3000;
        m->ev[c][1] = 1500;
        m->ev[c][2] = 1e9;
    }
    m->ndom_counted = 1;
    snprintf(m->dom_cpus[0], sizeof m->dom_cpus[0], "0-1");
    m->ev_dom[0][0] = 3000;
    m->ev_dom[0][1] = 1000;
    m->ev_dom[0][2] = 1e9;
    m->alloc_peak = 1000 + (uint64_t)rank;
    m->rss_peak = 2000 + (uint64_t)rank;
}

static json_t *load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    cr_assert_not_null(j, "%s: %s", path, je.text);
    return j;
}

static void parse_campaign(jobs_campaign_t *c, const char *text)
{
    err_t e;
    gm_err_clear(&e);
    cr_assert_eq(jobs_campaign_parse(c, text, "r.json", "/b", JOBS_PARSE_NO_FILES, &e), 0, "%s", e.msg);
}

Test(report, build_save_load)
{
    jobs_campaign_t c;
    err_t e;
    gm_err_clear(&e);
    parse_campaign(&c, "{\"name\": \"r\", \"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", "
                       "\"sectors\": {\"count\": 5}, \"partitions\": 2}");
    mr_metrics_t m[2];
    fill(&m[0], 0, 6, 3.0, true);
    fill(&m[1], 1, 4, 1.0, false);
    m[1].cpu_known[MR_IO] = 0; /* a rank that could not measure a stage's CPU */
    mpi_report_t *r = NULL;
    cr_assert_eq(mr_report_build(&r, &c, m, 2, 10, 8, 2, 3, 4.0, &e), 0, "%s", e.msg);
    char dir[] = "/tmp/gm-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char jp[256], cp[256];
    snprintf(jp, sizeof jp, "%s/report.json", dir);
    snprintf(cp, sizeof cp, "%s/report.csv", dir);
    cr_assert_eq(mpi_report_save(r, jp, &e), 0, "%s", e.msg);
    cr_assert_eq(mpi_report_save_csv(r, cp, &e), 0, "%s", e.msg);
    mpi_report_free(r);

    json_t *j = load_json(jp);
    cr_expect_str_eq(json_string_value(json_object_get(j, "format")), "grothmpi-report");
    cr_expect_eq(json_integer_value(json_object_get(j, "version")), 1);
    json_t *run = json_object_get(j, "run");
    cr_expect_eq(json_integer_value(json_object_get(run, "ranks")), 2);
    cr_expect_eq(json_integer_value(json_object_get(run, "proved")), 8);
    cr_expect_eq(json_integer_value(json_object_get(run, "resumed")), 2);
    cr_expect_eq(json_integer_value(json_object_get(run, "verified_by_root")), 3);
    /* 8 proofs in 4 s = 7200 per hour; busy 3 s and 1 s: max / mean = 1.5 */
    cr_expect_float_eq(json_real_value(json_object_get(run, "proofs_per_hour")), 7200.0, 1e-6);
    cr_expect_float_eq(json_real_value(json_object_get(run, "load_imbalance")), 1.5, 1e-9);
    cr_expect_eq(json_integer_value(json_object_get(run, "units_per_rank_min")), 4);
    cr_expect_eq(json_integer_value(json_object_get(run, "units_per_rank_max")), 6);
    json_t *campaign = json_object_get(j, "campaign");
    cr_expect_str_eq(json_string_value(json_object_get(campaign, "circuit")), "test-mul");
    cr_expect_eq(json_integer_value(json_object_get(campaign, "units")), 10);
    json_t *r0 = json_array_get(json_object_get(j, "ranks"), 0), *r1 = json_array_get(json_object_get(j, "ranks"), 1);
    cr_expect_str_eq(json_string_value(json_object_get(r1, "host")), "h1");
    /* rank 0: 6 proofs in 3 s busy = 7200/h; rank 1: 4 in 1 s = 14400/h */
    cr_expect_float_eq(json_real_value(json_object_get(r0, "proofs_per_hour")), 7200.0, 1e-6);
    cr_expect_float_eq(json_real_value(json_object_get(r1, "proofs_per_hour")), 14400.0, 1e-6);
    json_t *msm = json_object_get(json_object_get(r0, "stages"), "msm");
    cr_expect_float_eq(json_real_value(json_object_get(msm, "wall_s")), 4.0, 1e-9);
    cr_expect_float_eq(json_real_value(json_object_get(msm, "cpu_s")), 2.0, 1e-9);
    json_t *abc = json_object_get(json_object_get(r0, "stages"), "abc");
    cr_expect_float_eq(json_real_value(json_object_get(abc, "cpu_s")), 1.0, 1e-9);
    cr_expect_eq(json_integer_value(json_object_get(r0, "pipeline_depth")), 2);
    cr_expect_eq(json_integer_value(json_object_get(r0, "pipeline_depth_wanted")), 3);
    cr_expect_eq(json_integer_value(json_object_get(r0, "prepare_threads")), 1);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(r0, "memory"), "unit_bytes")), 4096);
    cr_expect(json_is_null(json_object_get(json_object_get(json_object_get(r1, "stages"), "io"), "cpu_s")));
    json_t *prove = json_object_get(json_object_get(r0, "stages"), "prove");
    cr_expect_float_eq(json_real_value(json_object_get(prove, "cpu_s")), 3.0, 1e-9);
    /* counters: rank 0 has them, rank 1 reads null; IPC only where both exist */
    json_t *c0 = json_object_get(json_object_get(r0, "counters"), "prove");
    json_t *c1 = json_object_get(json_object_get(r1, "counters"), "prove");
    cr_expect_float_eq(json_real_value(json_object_get(c0, "instructions")), 3000.0, 1e-9);
    cr_expect(json_is_null(json_object_get(c1, "instructions")));
    cr_expect_float_eq(json_real_value(json_object_get(json_object_get(json_object_get(r0, "derived"), "prove"), "ipc")),
                       2.0, 1e-9);
    cr_expect(json_is_null(json_object_get(json_object_get(json_object_get(r1, "derived"), "prove"), "ipc")));
    json_t *d0 = json_array_get(json_object_get(r0, "domains"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(d0, "cpus")), "0-1");
    cr_expect_float_eq(
        json_real_value(json_object_get(json_object_get(json_object_get(d0, "derived"), "prove"), "ipc")), 3.0, 1e-9);
    /* totals: wall sums; CPU null when one rank lacks it; counters null when one rank lacks them */
    json_t *tot = json_object_get(j, "totals");
    json_t *tw = json_object_get(json_object_get(tot, "stages"), "witness");
    cr_expect_float_eq(json_real_value(json_object_get(tw, "wall_s")), 2.0, 1e-9);
    cr_expect_float_eq(json_real_value(json_object_get(tw, "cpu_s")), 1.0, 1e-9);
    cr_expect(json_is_null(json_object_get(json_object_get(json_object_get(tot, "stages"), "io"), "cpu_s")));
    json_t *tc = json_object_get(json_object_get(tot, "counters"), "prove");
    cr_expect(json_is_null(json_object_get(tc, "instructions")));
    cr_expect_float_eq(json_real_value(json_object_get(tc, "task-clock")), 2e9, 1e-3);
    cr_expect_eq(json_integer_value(json_object_get(tot, "rss_peak_bytes_max")), 2001);
    json_decref(j);

    /* load + print: text and CSV */
    mpi_report_t *r2 = NULL;
    cr_assert_eq(mpi_report_load(&r2, jp, &e), 0, "%s", e.msg);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mpi_report_print_text(r2, f);
    fclose(f);
    cr_expect(strstr(buf, "cluster report: campaign r, circuit test-mul, 2 ranks") != NULL, "%s", buf);
    cr_expect(strstr(buf, "per L3 domain") != NULL);
    cr_expect(strstr(buf, "n/a") != NULL);
    free(buf);
    f = open_memstream(&buf, &len);
    mpi_report_print_csv(r2, f);
    fclose(f);
    /* header + (2 ranks + all) x 8 stages */
    int lines = 0;
    for (char *p = buf; *p; p++)
        lines += *p == '\n';
    cr_expect_eq(lines, 1 + 3 * MR_NSTAGES, "%s", buf);
    cr_expect(strncmp(buf, "rank,host,stage,wall_s,cpu_s,units,proofs_per_hour,instructions,cycles,task-clock\n",
                      strlen("rank,host,stage,wall_s,cpu_s,units,proofs_per_hour,instructions,cycles,task-clock\n")) == 0,
              "%s", buf);
    cr_expect(strstr(buf, "\n1,h1,prove,6.000000,3.000000,4,14400.0,NA,NA,1000000000\n") != NULL, "%s", buf);
    cr_expect(strstr(buf, "\nall,,msm,8.000000,4.000000,") != NULL, "%s", buf);
    /* the saved CSV is the printed one */
    uint8_t *saved;
    size_t slen;
    cr_assert_eq(gm_file_read(&saved, &slen, cp, &e), 0);
    cr_expect_eq(slen, len);
    cr_expect(memcmp(saved, buf, len) == 0);
    gm_free(saved);
    free(buf);
    mpi_report_free(r2);
    unlink(jp);
    unlink(cp);
    rmdir(dir);
    jobs_campaign_free(&c);
}

/* A split campaign's accounts (mr_report_add_split): report.json's "split"
 * keys with the values given, and the text prints each group with
 * mpi_split_print, the same rows as printed from the structs themselves
 * (so the JSON round trip keeps every printed figure). */
Test(report, split_accounts)
{
    jobs_campaign_t c;
    err_t e;
    gm_err_clear(&e);
    parse_campaign(&c, "{\"name\": \"sp\", \"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", "
                       "\"sectors\": {\"count\": 6}, \"split\": 2}");
    mr_metrics_t m[4];
    mpi_split_rank_t a[4];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 4; i++) {
        fill(&m[i], i, i < 2 ? 4 : 2, 2.0, false);
        a[i].rank = i;
        a[i].key_bytes = 524288 + (uint64_t)i;
        a[i].points = 1000 + (uint64_t)i;
        a[i].coefs_read = 3000 + (uint64_t)i;
        a[i].ntt_bytes = 65536;
        a[i].mem_peak = 3 << 20;
        a[i].rss_peak = 9 << 20;
        a[i].load_ns = 250000000, a[i].abc_ns = 1000000, a[i].h_ns = 500000000;
        a[i].msm_ns = 1500000000, a[i].total_ns = 2300000000ULL + (uint64_t)i * 1000000;
        for (int s = 0; s < MPI_SPLIT_NSTAGES; s++) {
            a[i].sent[s] = 1000 * (uint64_t)(s + 1) + (uint64_t)i;
            a[i].recv[s] = 2000 * (uint64_t)(s + 1) + (uint64_t)i;
            a[i].wait_ns[s] = 10000000 * (uint64_t)(s + 1);
        }
    }
    mpi_report_t *r = NULL;
    cr_assert_eq(mr_report_build(&r, &c, m, 4, 6, 6, 0, 0, 3.0, &e), 0, "%s", e.msg);
    cr_assert_eq(mr_report_add_split(r, a, 4, 2, &e), 0, "%s", e.msg);
    char dir[] = "/tmp/gm-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char jp[256];
    snprintf(jp, sizeof jp, "%s/report.json", dir);
    cr_assert_eq(mpi_report_save(r, jp, &e), 0, "%s", e.msg);
    mpi_report_free(r);

    json_t *j = load_json(jp);
    json_t *sp = json_object_get(j, "split");
    cr_expect_eq(json_integer_value(json_object_get(sp, "ranks_per_group")), 2);
    cr_expect_eq(json_integer_value(json_object_get(sp, "groups")), 2);
    json_t *p3 = json_array_get(json_object_get(sp, "per_rank"), 3);
    cr_expect_eq(json_integer_value(json_object_get(p3, "rank")), 3);
    cr_expect_eq(json_integer_value(json_object_get(p3, "group")), 1);
    cr_expect_eq(json_integer_value(json_object_get(p3, "key_bytes")), 524291);
    cr_expect_eq(json_integer_value(json_object_get(p3, "points")), 1003);
    cr_expect_eq(json_integer_value(json_object_get(p3, "coefs_read")), 3003);
    cr_expect_float_eq(json_real_value(json_object_get(p3, "msm_s")), 1.5, 1e-9);
    json_t *ntt = json_object_get(json_object_get(p3, "stages"), "ntt");
    cr_expect_eq(json_integer_value(json_object_get(ntt, "sent_bytes")), 2003);
    cr_expect_eq(json_integer_value(json_object_get(ntt, "recv_bytes")), 4003);
    cr_expect_float_eq(json_real_value(json_object_get(ntt, "network_wait_s")), 0.02, 1e-9);
    json_decref(j);

    mpi_report_t *r2 = NULL;
    cr_assert_eq(mpi_report_load(&r2, jp, &e), 0, "%s", e.msg);
    char *buf = NULL, *want = NULL;
    size_t len = 0, wlen = 0;
    FILE *f = open_memstream(&buf, &len);
    mpi_report_print_text(r2, f);
    fclose(f);
    for (int g = 0; g < 2; g++) {
        f = open_memstream(&want, &wlen);
        fprintf(f, "group %d (ranks %d..%d):\n", g, 2 * g, 2 * g + 1);
        mpi_split_print(a + 2 * g, 2, f);
        fclose(f);
        cr_expect(strstr(buf, want) != NULL, "report text:\n%s\nlacks:\n%s", buf, want);
        free(want);
    }
    free(buf);
    mpi_report_free(r2);

    /* a report written before the section-4 share (no coefs_read, no
     * "coefs" stage) still loads, reading 0 there */
    j = load_json(jp);
    json_t *pr = json_object_get(json_object_get(j, "split"), "per_rank");
    for (size_t i = 0; i < json_array_size(pr); i++) {
        json_object_del(json_array_get(pr, i), "coefs_read");
        json_object_del(json_object_get(json_array_get(pr, i), "stages"), "coefs");
    }
    cr_assert_eq(json_dump_file(j, jp, 0), 0);
    json_decref(j);
    cr_assert_eq(mpi_report_load(&r2, jp, &e), 0, "%s", e.msg);
    cr_expect_eq(r2->split[3].coefs_read, 0);
    cr_expect_eq(r2->split[3].sent[MPI_SPLIT_COEFS], 0);
    cr_expect_eq(r2->split[3].sent[MPI_SPLIT_NTT], 2003);
    mpi_report_free(r2);
    unlink(jp);
    rmdir(dir);
    jobs_campaign_free(&c);
}

/* Two figures agree: both n/a, or equal to the 9 significant digits report.json keeps. */
static bool same_num(double a, double b)
{
    if (a != a || b != b)
        return a != a && b != b;
    double d = a > b ? a - b : b - a, m = (a < 0 ? -a : a) > (b < 0 ? -b : b) ? (a < 0 ? -a : a) : (b < 0 ? -b : b);
    return d <= m * 1e-8;
}

#define EXPECT_NUM(x, y) cr_expect(same_num((x), (y)), "%s: %.17g vs %.17g", #x, (double)(x), (double)(y))
#define EXPECT_INT(x, y) cr_expect_eq((uint64_t)(x), (uint64_t)(y), "%s: %llu vs %llu", #x, \
                                      (unsigned long long)(x), (unsigned long long)(y))

static void expect_same_events(const mpi_report_events_t *a, const mpi_report_events_t *b)
{
    cr_expect_eq(a->n, b->n);
    for (unsigned i = 0; i < a->n && i < b->n; i++)
        cr_expect_str_eq(a->name[i], b->name[i]);
}

static void expect_same_derived(const mpi_report_derived_t *a, const mpi_report_derived_t *b)
{
    EXPECT_NUM(a->ipc, b->ipc);
    EXPECT_NUM(a->l1d_miss_pki, b->l1d_miss_pki);
    EXPECT_NUM(a->dtlb_miss_pki, b->dtlb_miss_pki);
}

/* Every field of two summaries, one by one. */
static void expect_same_report(const mpi_report_t *a, const mpi_report_t *b)
{
    cr_expect_str_eq(a->campaign.name, b->campaign.name);
    cr_expect_str_eq(a->campaign.file, b->campaign.file);
    cr_expect_str_eq(a->campaign.circuit, b->campaign.circuit);
    cr_expect_str_eq(a->campaign.verify, b->campaign.verify);
    cr_expect_str_eq(a->campaign.output, b->campaign.output);
    EXPECT_INT(a->campaign.sectors, b->campaign.sectors);
    EXPECT_INT(a->campaign.units, b->campaign.units);
    EXPECT_INT(a->campaign.partitions, b->campaign.partitions);
    EXPECT_INT(a->campaign.batch_size, b->campaign.batch_size);
    expect_same_events(&a->events, &b->events);
    cr_expect_str_eq(a->counter_model, b->counter_model);
    cr_assert_eq(a->nranks, b->nranks);
    for (unsigned i = 0; i < a->nranks; i++) {
        const mpi_report_rank_t *x = &a->ranks[i], *y = &b->ranks[i];
        EXPECT_INT(x->rank, y->rank);
        cr_expect_str_eq(x->host, y->host);
        cr_expect_str_eq(x->topology, y->topology);
        cr_expect_str_eq(x->backend, y->backend);
        EXPECT_INT(x->threads, y->threads);
        EXPECT_INT(x->l3_domains, y->l3_domains);
        EXPECT_INT(x->prepare_threads, y->prepare_threads);
        EXPECT_INT(x->prepare_domains, y->prepare_domains);
        EXPECT_INT(x->domains_wanted, y->domains_wanted);
        EXPECT_INT(x->pipeline_depth, y->pipeline_depth);
        EXPECT_INT(x->pipeline_depth_wanted, y->pipeline_depth_wanted);
        EXPECT_INT(x->units, y->units);
        EXPECT_NUM(x->busy_s, y->busy_s);
        EXPECT_NUM(x->run_s, y->run_s);
        EXPECT_NUM(x->proofs_per_hour, y->proofs_per_hour);
        EXPECT_INT(x->memory.budget_bytes, y->memory.budget_bytes);
        EXPECT_INT(x->memory.params_bytes, y->memory.params_bytes);
        EXPECT_INT(x->memory.prover_bytes, y->memory.prover_bytes);
        EXPECT_INT(x->memory.witness_bytes, y->memory.witness_bytes);
        EXPECT_INT(x->memory.unit_bytes, y->memory.unit_bytes);
        EXPECT_INT(x->memory.inflight_max, y->memory.inflight_max);
        EXPECT_INT(x->memory.inflight_peak, y->memory.inflight_peak);
        EXPECT_INT(x->memory.alloc_peak_bytes, y->memory.alloc_peak_bytes);
        EXPECT_INT(x->memory.rss_peak_bytes, y->memory.rss_peak_bytes);
        for (int s = 0; s < MPI_NSTAGES; s++) {
            EXPECT_NUM(x->stages[s].wall_s, y->stages[s].wall_s);
            EXPECT_NUM(x->stages[s].cpu_s, y->stages[s].cpu_s);
        }
        expect_same_events(&x->events, &y->events);
        for (int cs = 0; cs < MPI_NCSTAGES; cs++) {
            for (unsigned e = 0; e < x->events.n; e++)
                EXPECT_NUM(x->counters[cs][e], y->counters[cs][e]);
            expect_same_derived(&x->derived[cs], &y->derived[cs]);
        }
        cr_assert_eq(x->ndomains, y->ndomains);
        for (unsigned d = 0; d < x->ndomains; d++) {
            EXPECT_INT(x->domains[d].domain, y->domains[d].domain);
            cr_expect_str_eq(x->domains[d].cpus, y->domains[d].cpus);
            for (unsigned e = 0; e < x->events.n; e++)
                EXPECT_NUM(x->domains[d].counters[e], y->domains[d].counters[e]);
            expect_same_derived(&x->domains[d].derived, &y->domains[d].derived);
        }
        cr_assert_eq(x->nprepare, y->nprepare);
        for (unsigned d = 0; d < x->nprepare; d++) {
            EXPECT_INT(x->prepare[d].domain, y->prepare[d].domain);
            EXPECT_INT(x->prepare[d].threads, y->prepare[d].threads);
            EXPECT_INT(x->prepare[d].units, y->prepare[d].units);
            EXPECT_NUM(x->prepare[d].wall_s, y->prepare[d].wall_s);
            EXPECT_NUM(x->prepare[d].cpu_s, y->prepare[d].cpu_s);
        }
        cr_assert_eq(x->ngpus, y->ngpus);
        for (unsigned g = 0; g < x->ngpus; g++) {
            const mpi_report_gpu_t *p = &x->gpus[g], *q = &y->gpus[g];
            cr_expect_str_eq(p->device, q->device);
            EXPECT_INT(p->units, q->units);
            EXPECT_NUM(p->busy_s, q->busy_s);
            EXPECT_NUM(p->msm_s, q->msm_s);
            EXPECT_NUM(p->ntt_s, q->ntt_s);
            EXPECT_INT(p->mem_peak_bytes, q->mem_peak_bytes);
            EXPECT_INT(p->fallbacks, q->fallbacks);
            EXPECT_INT(p->failures, q->failures);
            cr_expect_eq(p->retired, q->retired);
        }
    }
    EXPECT_INT(a->run.ranks, b->run.ranks);
    EXPECT_NUM(a->run.wall_s, b->run.wall_s);
    EXPECT_INT(a->run.proved, b->run.proved);
    EXPECT_INT(a->run.resumed, b->run.resumed);
    EXPECT_INT(a->run.verified_by_root, b->run.verified_by_root);
    EXPECT_INT(a->run.gpu_fallbacks, b->run.gpu_fallbacks);
    EXPECT_NUM(a->run.proofs_per_hour, b->run.proofs_per_hour);
    EXPECT_NUM(a->run.load_imbalance, b->run.load_imbalance);
    EXPECT_INT(a->run.units_per_rank_min, b->run.units_per_rank_min);
    EXPECT_INT(a->run.units_per_rank_max, b->run.units_per_rank_max);
    for (int s = 0; s < MPI_NSTAGES; s++) {
        EXPECT_NUM(a->totals.stages[s].wall_s, b->totals.stages[s].wall_s);
        EXPECT_NUM(a->totals.stages[s].cpu_s, b->totals.stages[s].cpu_s);
    }
    for (int cs = 0; cs < MPI_NCSTAGES; cs++)
        for (unsigned e = 0; e < a->events.n; e++)
            EXPECT_NUM(a->totals.counters[cs][e], b->totals.counters[cs][e]);
    EXPECT_NUM(a->totals.busy_s_max, b->totals.busy_s_max);
    EXPECT_NUM(a->totals.busy_s_mean, b->totals.busy_s_mean);
    EXPECT_INT(a->totals.alloc_peak_bytes_max, b->totals.alloc_peak_bytes_max);
    EXPECT_INT(a->totals.rss_peak_bytes_max, b->totals.rss_peak_bytes_max);
    EXPECT_INT(a->split_ranks_per_group, b->split_ranks_per_group);
    EXPECT_INT(a->split_groups, b->split_groups);
    cr_assert_eq(a->nsplit, b->nsplit);
    for (unsigned i = 0; i < a->nsplit; i++) {
        const mpi_split_rank_t *x = &a->split[i], *y = &b->split[i];
        EXPECT_INT(x->rank, y->rank);
        EXPECT_INT(x->key_bytes, y->key_bytes);
        EXPECT_INT(x->points, y->points);
        EXPECT_INT(x->coefs_read, y->coefs_read);
        EXPECT_INT(x->ntt_bytes, y->ntt_bytes);
        EXPECT_INT(x->mem_peak, y->mem_peak);
        EXPECT_INT(x->rss_peak, y->rss_peak);
        EXPECT_INT(x->load_ns, y->load_ns);
        EXPECT_INT(x->abc_ns, y->abc_ns);
        EXPECT_INT(x->h_ns, y->h_ns);
        EXPECT_INT(x->msm_ns, y->msm_ns);
        EXPECT_INT(x->total_ns, y->total_ns);
        for (int k = 0; k < MPI_SPLIT_NSTAGES; k++) {
            EXPECT_INT(x->sent[k], y->sent[k]);
            EXPECT_INT(x->recv[k], y->recv[k]);
            EXPECT_INT(x->wait_ns[k], y->wait_ns[k]);
        }
    }
}

/* A report of every kind of figure (two ranks whose event sets differ,
 * counters missing on one, GPUs, prepare domains, a split campaign's
 * accounts) written and read back is the summary that was written, and the
 * figures a reader wants come out as computed here by hand. */
Test(report, round_trip)
{
    jobs_campaign_t c;
    err_t e;
    gm_err_clear(&e);
    parse_campaign(&c, "{\"name\": \"rt\", \"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", "
                       "\"sectors\": {\"count\": 3}, \"partitions\": 2, \"split\": 2, \"verify\": \"both\"}");
    mr_metrics_t m[2];
    fill(&m[0], 0, 4, 2.0, true);
    fill(&m[1], 1, 2, 0.5, false);
    m[0].cpu_known[MR_ABC] = 0;
    /* rank 1 counted branches where rank 0 counted cycles */
    snprintf(m[1].ev_name[1], MR_EV_NAME, "branches");
    m[1].ev_avail[1] = 1;
    m[1].ev[MR_CS_PROVE][1] = 77;
    m[0].prep_domains = 2;
    m[0].dom_prep_threads[0] = 3, m[0].dom_prep_threads[1] = 2;
    m[0].dom_prep_units[0] = 3, m[0].dom_prep_units[1] = 1;
    m[0].dom_prep_wall_ns[1] = 250000000, m[0].dom_prep_cpu_ns[1] = 125000000;
    snprintf(m[1].backend, sizeof m[1].backend, "emulate");
    m[1].ngpu = 2;
    snprintf(m[1].gpu[1].name, sizeof m[1].gpu[1].name, "emulate:1");
    m[1].gpu[1].units = 2, m[1].gpu[1].busy_ns = 300000000, m[1].gpu[1].fallbacks = 1;
    m[1].gpu[1].mem_peak = 1 << 20, m[1].gpu[1].retired = 1;
    mpi_split_rank_t a[2];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 2; i++) {
        a[i].key_bytes = 100 + (uint64_t)i, a[i].msm_ns = 1250000000, a[i].total_ns = 2000000000;
        a[i].sent[MPI_SPLIT_NTT] = 4096, a[i].wait_ns[MPI_SPLIT_REDUCE] = 3000000;
    }
    mpi_report_t *r = NULL, *back = NULL;
    cr_assert_eq(mr_report_build(&r, &c, m, 2, 6, 5, 1, 5, 2.5, &e), 0, "%s", e.msg);
    cr_assert_eq(mr_report_add_split(r, a, 2, 2, &e), 0, "%s", e.msg);
    char dir[] = "/tmp/gm-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char jp[256];
    snprintf(jp, sizeof jp, "%s/report.json", dir);
    cr_assert_eq(mpi_report_save(r, jp, &e), 0, "%s", e.msg);
    cr_assert_eq(mpi_report_load(&back, jp, &e), 0, "%s", e.msg);
    expect_same_report(r, back);

    /* by hand: 5 proofs in 2.5 s; busy 2 s and 0.5 s */
    cr_expect_float_eq(back->run.proofs_per_hour, 7200.0, 1e-6);
    cr_expect_float_eq(back->run.load_imbalance, 1.6, 1e-9);
    cr_expect_eq(back->run.gpu_fallbacks, 1);
    cr_expect_str_eq(back->campaign.verify, "both");
    cr_expect_eq(back->campaign.units, 6);
    cr_expect(back->ranks[0].stages[MPI_STAGE_ABC].cpu_s != back->ranks[0].stages[MPI_STAGE_ABC].cpu_s,
              "an unmeasured CPU time is NAN");
    cr_expect(back->totals.stages[MPI_STAGE_ABC].cpu_s != back->totals.stages[MPI_STAGE_ABC].cpu_s);
    cr_expect_float_eq(back->totals.stages[MPI_STAGE_MSM].wall_s, 8.0, 1e-9);
    cr_expect_str_eq(back->ranks[1].events.name[1], "branches");
    cr_expect_float_eq(back->ranks[1].counters[MPI_CSTAGE_PROVE][1], 77.0, 1e-9);
    cr_expect_float_eq(back->ranks[0].derived[MPI_CSTAGE_PROVE].ipc, 2.0, 1e-9);
    /* rank 1 could not count instructions: their total is n/a; rank 0,
     * whose names the totals go by, did not count branches at all */
    double ins = mpi_report_event(back, MPI_CSTAGE_PROVE, MPI_EVENT_INSTRUCTIONS);
    cr_expect(ins != ins, "a total over a rank without the event is n/a");
    double br = mpi_report_event(back, MPI_CSTAGE_PROVE, MPI_EVENT_BRANCHES);
    cr_expect(br != br, "rank 0's events have no branches");
    cr_expect_eq(back->ranks[0].nprepare, 2);
    cr_expect_eq(back->ranks[0].prepare[1].threads, 2);
    cr_expect_float_eq(back->ranks[0].prepare[1].cpu_s, 0.125, 1e-12);
    cr_expect_eq(back->ranks[1].ngpus, 2);
    cr_expect(back->ranks[1].gpus[1].retired);
    cr_expect_eq(back->split_groups, 1);
    cr_expect_eq(back->split[1].rank, 1);
    cr_expect_eq(back->split[1].msm_ns, 1250000000);
    cr_expect_eq(back->split[0].wait_ns[MPI_SPLIT_REDUCE], 3000000);

    /* what is read back writes the same file again */
    char jp2[256];
    snprintf(jp2, sizeof jp2, "%s/again.json", dir);
    cr_assert_eq(mpi_report_save(back, jp2, &e), 0, "%s", e.msg);
    uint8_t *t1, *t2;
    size_t n1, n2;
    cr_assert_eq(gm_file_read(&t1, &n1, jp, &e), 0);
    cr_assert_eq(gm_file_read(&t2, &n2, jp2, &e), 0);
    cr_expect(n1 == n2 && memcmp(t1, t2, n1) == 0, "a loaded report saves to the same bytes");
    gm_free(t1);
    gm_free(t2);
    mpi_report_free(r);
    mpi_report_free(back);
    unlink(jp);
    unlink(jp2);
    rmdir(dir);
    jobs_campaign_free(&c);
}

/* Writes the report of a small campaign to path, then changes one key of
 * it: edit(j) on the parsed tree. */
static void edited_report(const char *path, void (*edit)(json_t *j))
{
    jobs_campaign_t c;
    err_t e;
    gm_err_clear(&e);
    parse_campaign(&c, "{\"name\": \"r\", \"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", "
                       "\"sectors\": {\"count\": 2}, \"split\": 2}");
    mr_metrics_t m[2];
    fill(&m[0], 0, 1, 1.0, true);
    fill(&m[1], 1, 1, 1.0, true);
    mpi_split_rank_t a[2];
    memset(a, 0, sizeof a);
    mpi_report_t *r = NULL;
    cr_assert_eq(mr_report_build(&r, &c, m, 2, 2, 2, 0, 0, 1.0, &e), 0, "%s", e.msg);
    cr_assert_eq(mr_report_add_split(r, a, 2, 2, &e), 0, "%s", e.msg);
    cr_assert_eq(mpi_report_save(r, path, &e), 0, "%s", e.msg);
    mpi_report_free(r);
    jobs_campaign_free(&c);
    json_t *j = load_json(path);
    edit(j);
    cr_assert_eq(json_dump_file(j, path, JSON_PRESERVE_ORDER), 0);
    json_decref(j);
}

static json_t *rank1(json_t *j) { return json_array_get(json_object_get(j, "ranks"), 1); }
static void no_rss(json_t *j) { json_object_del(json_object_get(rank1(j), "memory"), "rss_peak_bytes"); }
static void wall_text(json_t *j) { json_object_set_new(json_object_get(j, "run"), "wall_s", json_string("4 s")); }
static void no_total_cycles(json_t *j)
{
    json_object_del(json_object_get(json_object_get(json_object_get(j, "totals"), "counters"), "prove"), "cycles");
}
static void prove_lacks_event(json_t *j)
{
    json_object_del(json_object_get(json_object_get(rank1(j), "counters"), "prove"), "task-clock");
}
static void negative_bytes(json_t *j)
{
    json_t *per = json_object_get(json_object_get(j, "split"), "per_rank");
    json_object_set_new(json_object_get(json_object_get(json_array_get(per, 1), "stages"), "ntt"), "sent_bytes",
                        json_integer(-1));
}
static void null_wall(json_t *j)
{
    json_object_set_new(json_object_get(json_object_get(json_object_get(j, "totals"), "stages"), "io"), "wall_s",
                        json_null());
}
static void gpu_retired_number(json_t *j)
{
    json_t *g = json_object();
    json_object_set_new(g, "device", json_string("emulate:0"));
    static const char *const keys[] = {"units", "busy_s", "msm_s", "ntt_s", "mem_peak_bytes", "fallbacks", "failures"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        json_object_set_new(g, keys[i], json_integer(0));
    json_object_set_new(g, "retired", json_integer(1));
    json_array_append_new(json_object_get(rank1(j), "gpus"), g);
}
static void stage_renamed(json_t *j) { json_array_set_new(json_object_get(j, "stages"), 3, json_string("msms")); }
static void no_ranks(json_t *j) { json_array_clear(json_object_get(j, "ranks")); }
static void domain_not_object(json_t *j) { json_array_set_new(json_object_get(rank1(j), "domains"), 0, json_integer(7)); }
static void domain_ipc_text(json_t *j)
{
    json_t *d = json_array_get(json_object_get(rank1(j), "domains"), 0);
    json_object_set_new(json_object_get(json_object_get(d, "derived"), "prove"), "ipc", json_string("high"));
}
static void domain_lacks_cycles(json_t *j)
{
    json_t *d = json_array_get(json_object_get(rank1(j), "domains"), 0);
    json_object_del(json_object_get(json_object_get(d, "counters"), "prove"), "cycles");
}
static void extra_keys(json_t *j)
{
    json_object_set_new(j, "colour", json_string("blue"));
    json_object_set_new(json_object_get(rank1(j), "memory"), "swap_bytes", json_integer(0));
}

/* A missing key, or a key of the wrong type, is one error naming the file
 * and the key's path; nothing is returned. */
Test(report, load_bad_keys)
{
    static const struct {
        void (*edit)(json_t *j);
        const char *msg;
    } cases[] = {
        {no_rss, "ranks[1].memory.rss_peak_bytes: missing"},
        {wall_text, "run.wall_s: not a number"},
        {no_total_cycles, "totals.counters.prove.cycles: missing"},
        {prove_lacks_event, "ranks[1].counters.prove.task-clock: missing"},
        {negative_bytes, "split.per_rank[1].stages.ntt.sent_bytes: not a non-negative integer"},
        {null_wall, "totals.stages.io.wall_s: not a number"},
        {gpu_retired_number, "ranks[1].gpus[0].retired: not true or false"},
        {stage_renamed, "stages[3]: not \"msm\""},
        {no_ranks, "ranks: empty"},
        {domain_not_object, "ranks[1].domains[0]: not an object"},
        {domain_lacks_cycles, "ranks[1].domains[0].counters.prove.cycles: missing"},
        {domain_ipc_text, "ranks[1].domains[0].derived.prove.ipc: not a number or null"},
    };
    char dir[] = "/tmp/gm-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char p[256];
    snprintf(p, sizeof p, "%s/bad.json", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        edited_report(p, cases[i].edit);
        static mpi_report_t dummy;
        mpi_report_t *r = &dummy;
        err_t e;
        gm_err_clear(&e);
        cr_expect_eq(mpi_report_load(&r, p, &e), GM_EFORMAT, "case %zu", i);
        cr_expect_null(r, "case %zu", i);
        char want[512];
        snprintf(want, sizeof want, "%s: %s", p, cases[i].msg);
        cr_expect_str_eq(e.msg, want, "case %zu", i);
    }
    /* an unknown key is not an error (a version may gain keys) */
    edited_report(p, extra_keys);
    mpi_report_t *r = NULL;
    err_t e;
    gm_err_clear(&e);
    cr_expect_eq(mpi_report_load(&r, p, &e), 0, "%s", e.msg);
    mpi_report_free(r);
    unlink(p);
    rmdir(dir);
}

Test(report, load_errors)
{
    char dir[] = "/tmp/gm-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char p[256];
    snprintf(p, sizeof p, "%s/x.json", dir);
    mpi_report_t *r = NULL;
    err_t e;
    gm_err_clear(&e);
    cr_expect_eq(mpi_report_load(&r, p, &e), GM_EIO);
    cr_expect(strstr(e.msg, "cannot open") != NULL);
    FILE *f = fopen(p, "w");
    fputs("{\"format\": \"other\"}", f);
    fclose(f);
    cr_expect_eq(mpi_report_load(&r, p, &e), GM_EFORMAT);
    cr_expect(strstr(e.msg, "format: not \"grothmpi-report\"") != NULL, "%s", e.msg);
    f = fopen(p, "w");
    fputs("{\"format\": \"grothmpi-report\", \"version\": 2}", f);
    fclose(f);
    cr_expect_eq(mpi_report_load(&r, p, &e), GM_EFORMAT);
    cr_expect(strstr(e.msg, "version") != NULL);
    f = fopen(p, "w");
    fputs("{not json", f);
    fclose(f);
    cr_expect_eq(mpi_report_load(&r, p, &e), GM_EFORMAT);
    cr_expect(strstr(e.msg, "line 1") != NULL);
    cr_expect_null(r);
    unlink(p);
    rmdir(dir);
}

/* ---- suite pipeline: the depth the memory budget allows (mpi/pipeline.c) ---------------- */

Test(pipeline, depth_from_budget)
{
    err_t e;
    gm_err_clear(&e);
    /* fixed 1000 + 100; per unit 30 + 70 = 100; k = 2: d = 0 needs 1100 + 200 + 30 = 1330 */
    mr_budget_t b = {.budget = 1330, .what = "--mem-budget", .params = 1000, .prover = 100, .witness = 30, .unit = 70};
    unsigned d = 99;
    cr_expect_eq(mr_pipeline_depth(&d, &b, 2, 3, &e), 0, "%s", e.msg);
    cr_expect_eq(d, 0, "room for no unit ahead: depth 0");
    b.budget = 1330 + 199;
    cr_expect_eq(mr_pipeline_depth(&d, &b, 2, 3, &e), 0);
    cr_expect_eq(d, 1);
    b.budget = 1330 + 300;
    cr_expect_eq(mr_pipeline_depth(&d, &b, 2, 3, &e), 0);
    cr_expect_eq(d, 3, "exactly room for the campaign's depth");
    b.budget = 1u << 30;
    cr_expect_eq(mr_pipeline_depth(&d, &b, 2, 3, &e), 0);
    cr_expect_eq(d, 3, "never more than the campaign asks");
    b.budget = 1329;
    cr_expect_eq(mr_pipeline_depth(&d, &b, 2, 3, &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "--mem-budget") && strstr(e.msg, "a batch of 2 units") && strstr(e.msg, "the 1330 bytes"),
              "%s", e.msg);
}

/* Every node shape up to 12 ranks and 12 devices, against what a share
 * must be: with at least as many devices as ranks, the shares are disjoint,
 * contiguous, in rank order, cover every device and differ in size by at
 * most one; with fewer, each rank has one device, every device has a rank,
 * and the ranks of one device are neighbours. */
Test(pipeline, device_share)
{
    for (int L = 1; L <= 12; L++)
        for (unsigned V = 1; V <= 12; V++) {
            unsigned owner[12], users[12] = {0}, next = 0, lo = ~0u, hi = 0;
            int last_user[12];
            for (unsigned d = 0; d < 12; d++)
                owner[d] = ~0u, last_user[d] = -1;
            for (int l = 0; l < L; l++) {
                unsigned first = 99, count = 99;
                mr_device_share(&first, &count, l, L, V);
                cr_assert(count >= 1 && first + count <= V, "L %d V %u rank %d: %u + %u", L, V, l, first, count);
                if (V >= (unsigned)L) {
                    cr_expect_eq(first, next, "L %d V %u rank %d: starts at %u, not %u", L, V, l, first, next);
                    next = first + count;
                    lo = count < lo ? count : lo;
                    hi = count > hi ? count : hi;
                    for (unsigned d = first; d < first + count; d++) {
                        cr_expect_eq(owner[d], ~0u, "L %d V %u: device %u twice", L, V, d);
                        owner[d] = (unsigned)l;
                    }
                } else {
                    cr_expect_eq(count, 1u, "L %d V %u rank %d: %u devices", L, V, l, count);
                    cr_expect(last_user[first] < 0 || last_user[first] == l - 1,
                              "L %d V %u: device %u's ranks are not neighbours", L, V, first);
                    last_user[first] = l;
                    users[first]++;
                }
            }
            if (V >= (unsigned)L) {
                cr_expect_eq(next, V, "L %d V %u: devices from %u on have no rank", L, V, next);
                cr_expect(hi - lo <= 1, "L %d V %u: shares of %u and %u devices", L, V, lo, hi);
            } else {
                for (unsigned d = 0; d < V; d++)
                    cr_expect(users[d] >= 1, "L %d V %u: device %u has no rank", L, V, d);
            }
        }
}

/* resources.domains against the node's domain count: 0 is all of them, a
 * value up to the count is taken as it is, more is refused naming the
 * campaign file, key, value, rank, host and topology. */
Test(pipeline, prepare_domains)
{
    unsigned n = 99;
    err_t e;
    gm_err_clear(&e);
    cr_expect_eq(mr_prepare_domains(&n, 0, 12, "c.json", 0, "h", "this", &e), 0);
    cr_expect_eq(n, 12);
    cr_expect_eq(mr_prepare_domains(&n, 1, 12, "c.json", 0, "h", "this", &e), 0);
    cr_expect_eq(n, 1);
    cr_expect_eq(mr_prepare_domains(&n, 2, 2, "c.json", 0, "h", "synthetic:l3:2 core:1", &e), 0);
    cr_expect_eq(n, 2);
    n = 99;
    cr_expect_eq(mr_prepare_domains(&n, 3, 2, "c.json", 1, "node7", "synthetic:l3:2 core:1", &e), GM_EINVAL);
    cr_expect_eq(n, 99, "untouched on failure");
    cr_expect(strstr(e.msg, "c.json: resources.domains: 3 exceeds the 2 L3 domains of rank 1's node node7 "
                            "(topology synthetic:l3:2 core:1)"),
              "%s", e.msg);
    cr_expect_eq(mr_prepare_domains(&n, 0, MR_MAX_DOMAINS + 1, "c.json", 0, "h", "this", &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "resources.domains"), "%s", e.msg);
}

/* The roles pool runs mr_roles_count(N) tasks; each claims one role: worker
 * 0 the finish role, the others comm, witness, then prepare 0..N-1 in
 * order; one claim more finds none (so no role runs twice). */
Test(pipeline, roles_claim)
{
    for (unsigned nprep = 1; nprep <= 4; nprep++) {
        mr_roles_t r;
        memset(&r, 0, sizeof r);
        r.nprep = nprep;
        atomic_init(&r.claimed, 0);
        atomic_init(&r.prep_claimed, 0);
        cr_expect_eq(mr_roles_count(nprep), 3 + nprep);
        unsigned prep = 99;
        cr_expect_eq(mr_roles_claim(&r, 0, &prep), MR_ROLE_FINISH);
        cr_expect_eq(mr_roles_claim(&r, 1, &prep), MR_ROLE_COMM);
        cr_expect_eq(mr_roles_claim(&r, 2, &prep), MR_ROLE_WITNESS);
        bool seen[4] = {false};
        for (unsigned i = 0; i < nprep; i++) {
            prep = 99;
            cr_expect_eq(mr_roles_claim(&r, 3 + i, &prep), MR_ROLE_PREPARE);
            cr_expect_eq(prep, i, "prepare roles go out in domain order");
            cr_expect(prep < 4 && !seen[prep]);
            if (prep < 4)
                seen[prep] = true;
        }
        cr_expect_eq(mr_roles_claim(&r, 0, &prep), MR_ROLE_NONE);
        cr_expect_eq(mr_roles_claim(&r, 5, &prep), MR_ROLE_NONE);
    }
    /* Worker 0 arriving last still gets the one role left. */
    mr_roles_t r;
    memset(&r, 0, sizeof r);
    r.nprep = 2;
    atomic_init(&r.claimed, 0);
    atomic_init(&r.prep_claimed, 0);
    unsigned prep = 0;
    cr_expect_eq(mr_roles_claim(&r, 1, &prep), MR_ROLE_COMM);
    cr_expect_eq(mr_roles_claim(&r, 2, &prep), MR_ROLE_WITNESS);
    cr_expect_eq(mr_roles_claim(&r, 3, &prep), MR_ROLE_PREPARE);
    cr_expect_eq(mr_roles_claim(&r, 4, &prep), MR_ROLE_PREPARE);
    cr_expect_eq(prep, 1);
    cr_expect_eq(mr_roles_claim(&r, 0, &prep), MR_ROLE_FINISH);
}
