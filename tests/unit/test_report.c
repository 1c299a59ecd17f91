/*
 * tests/unit/test_report.c — suite "report": the cluster report built from
 * hand-made rank metrics (mpi/mpi_internal.h's mr_report_build), its
 * report.json keys, totals, proofs per hour and load imbalance against
 * numbers computed here by hand, "not available" counters as null / NA, the
 * save -> load round trip, the CSV shape, and load's errors.
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
    unlink(jp);
    rmdir(dir);
    jobs_campaign_free(&c);
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
