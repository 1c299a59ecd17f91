/*
 * tests/unit/test_campaign.c — suite "campaign": the campaign file
 * (jobs/jobs.h): every key's validation and its message (file, key, value),
 * unknown keys, relative paths, the normalized text round trip, the unit
 * numbering (partition-major: k consecutive units are k sectors), unit
 * seeds and names, sizes, and the unit source (test circuits give
 * satisfying witnesses; porep reads the sector's C1 (a missing one is named)).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs/jobs.h"

#define BASE "\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": {\"count\": 3}"

static int parse(jobs_campaign_t *c, const char *text, err_t *e)
{
    gm_err_clear(e);
    return jobs_campaign_parse(c, text, "t.json", "/base", JOBS_PARSE_NO_FILES, e);
}

/* The campaign text fails with GM_EINVAL (or code) and a message containing want. */
static void bad(const char *text, int code, const char *want)
{
    jobs_campaign_t c;
    err_t e;
    int rc = parse(&c, text, &e);
    cr_expect_eq(rc, code, "rc %d for %s (%s)", rc, text, e.msg);
    cr_expect(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
    cr_expect_eq(c.sectors, NULL);
    jobs_campaign_free(&c);
}

Test(campaign, parse_defaults)
{
    jobs_campaign_t c;
    err_t e;
    cr_assert_eq(parse(&c, "{" BASE "}", &e), 0, "%s", e.msg);
    cr_expect_str_eq(c.name, "campaign");
    cr_expect_str_eq(c.circuit.id, "test-mul");
    cr_expect_str_eq(c.params_dir, "/base/p");
    cr_expect_str_eq(c.output, "/base/o");
    cr_expect(c.setup_auto);
    cr_expect_eq(c.nsectors, 3);
    cr_expect_str_eq(c.sectors[0].id, "s01");
    cr_expect_str_eq(c.sectors[2].id, "s03");
    cr_expect_eq(c.sectors[2].seed, 3);
    cr_expect_eq(c.partitions, 1);
    cr_expect_eq(c.batch_size, 1);
    cr_expect_eq(c.pipeline_depth, 1, "pipeline_depth defaults to batch_size");
    cr_expect_eq(c.mode, JOBS_MODE_PROVE);
    cr_expect_eq(c.verify, JOBS_VERIFY_RANK);
    cr_expect_eq(c.threads, 0);
    cr_expect_eq(c.mem_budget, 0);
    cr_expect_eq(c.domains, 0, "resources.domains defaults to every domain");
    cr_expect_str_eq(c.topology, "this");
    jobs_campaign_free(&c);
}

/* resources.domains and resources.topology: accepted forms, the xml path
 * made absolute, and each error naming file, key and value. */
Test(campaign, domains_and_topology)
{
    jobs_campaign_t c;
    err_t e;
    cr_assert_eq(parse(&c, "{" BASE ", \"resources\": {\"domains\": 2, \"topology\": \"synthetic:l3:2 core:1 pu:1\"}}", &e),
                 0, "%s", e.msg);
    cr_expect_eq(c.domains, 2);
    cr_expect_str_eq(c.topology, "synthetic:l3:2 core:1 pu:1");
    jobs_campaign_free(&c);
    cr_assert_eq(parse(&c, "{" BASE ", \"resources\": {\"topology\": \"xml:m/box.xml\"}}", &e), 0, "%s", e.msg);
    cr_expect_str_eq(c.topology, "xml:/base/m/box.xml");
    jobs_campaign_free(&c);
    cr_assert_eq(parse(&c, "{" BASE ", \"resources\": {\"topology\": \"this\", \"pin\": true}}", &e), 0, "%s", e.msg);
    jobs_campaign_free(&c);
    bad("{" BASE ", \"resources\": {\"domains\": 65}}", GM_EINVAL, "t.json: resources.domains: 65 is not an integer in 0..64");
    bad("{" BASE ", \"resources\": {\"domains\": -1}}", GM_EINVAL, "t.json: resources.domains: -1");
    bad("{" BASE ", \"resources\": {\"topology\": \"lstopo\"}}", GM_EINVAL, "t.json: resources.topology: 'lstopo' is not");
    bad("{" BASE ", \"resources\": {\"topology\": \"synthetic:\"}}", GM_EINVAL, "resources.topology: 'synthetic:'");
    bad("{" BASE ", \"resources\": {\"topology\": 3}}", GM_EINVAL, "t.json: resources.topology: 3 is not a string");
    bad("{" BASE ", \"resources\": {\"topology\": \"synthetic:l3:2 core:1\", \"pin\": true}}", GM_EINVAL,
        "t.json: resources.pin: true needs resources.topology \"this\", not 'synthetic:l3:2 core:1'");
}

Test(campaign, parse_full)
{
    jobs_campaign_t c;
    err_t e;
    const char *t = "{\"name\": \"n-1\", \"circuit\": \"test-synthetic\", \"constraints\": 256, \"params\": \"/abs/p\","
                    " \"setup\": \"never\", \"setup_seed\": \"" /* 64 hex */
                    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\", \"trust_params\": true,"
                    " \"sectors\": [{\"id\": \"a\", \"seed\": 9}, {\"id\": \"b\"}], \"partitions\": 3,"
                    " \"batch_size\": 4, \"output\": \"out\", \"verify\": \"both\","
                    " \"resources\": {\"threads\": 2, \"mem_budget\": \"3GiB\", \"pin\": true}, \"progress_interval\": 0.5}";
    cr_assert_eq(parse(&c, t, &e), 0, "%s", e.msg);
    cr_expect_str_eq(c.circuit.id, "test-synthetic-256");
    cr_expect(!c.setup_auto);
    cr_expect(c.has_setup_seed);
    cr_expect_eq(c.setup_seed[1], 0x11);
    cr_expect(c.trust_params);
    cr_expect_eq(c.sectors[0].seed, 9);
    cr_expect_eq(c.sectors[1].seed, 2);
    cr_expect_eq(c.partitions, 3);
    cr_expect_eq(c.batch_size, 4);
    cr_expect_eq(c.pipeline_depth, 4, "pipeline_depth defaults to batch_size");
    cr_expect_eq(c.verify, JOBS_VERIFY_BOTH);
    cr_expect_eq(c.threads, 2);
    cr_expect_eq(c.mem_budget, 3ULL << 30);
    cr_expect(c.pin);
    cr_expect_eq(c.progress_interval, 0.5);
    cr_expect_str_eq(c.params_dir, "/abs/p");
    jobs_campaign_free(&c);
}

Test(campaign, errors_name_file_key_value)
{
    bad("{" BASE ", \"batchsize\": 2}", GM_EINVAL, "t.json: batchsize: unknown key");
    bad("{" BASE ", \"resources\": {\"cpus\": 2}}", GM_EINVAL, "t.json: resources.cpus: unknown key");
    bad("{" BASE ", \"batch_size\": 0}", GM_EINVAL, "t.json: batch_size: 0 is not an integer in 1..64");
    bad("{" BASE ", \"batch_size\": 65}", GM_EINVAL, "batch_size: 65 is not");
    bad("{" BASE ", \"batch_size\": \"2\"}", GM_EINVAL, "batch_size: \"2\" is not an integer");
    bad("{" BASE ", \"mode\": \"witness\"}", GM_EINVAL, "t.json: mode: 'witness' is not \"prove\" or \"check\"");
    bad("{" BASE ", \"mode\": 1}", GM_EINVAL, "t.json: mode:");
    bad("{\"circuit\": \"test-mul\", \"output\": \"o\", \"sectors\": {\"count\": 1}}", GM_EINVAL,
        "t.json: params: missing");
    bad("{" BASE ", \"pipeline_depth\": 65}", GM_EINVAL, "t.json: pipeline_depth: 65 is not an integer in 0..64");
    bad("{" BASE ", \"pipeline_depth\": -1}", GM_EINVAL, "t.json: pipeline_depth: -1 is not an integer in 0..64");
    bad("{" BASE ", \"pipeline_depth\": 1.5}", GM_EINVAL, "t.json: pipeline_depth: 1.5 is not an integer in 0..64");
    bad("{" BASE ", \"partitions\": 0}", GM_EINVAL, "t.json: partitions: 0");
    bad("{" BASE ", \"verify\": \"never\"}", GM_EINVAL, "t.json: verify: 'never'");
    bad("{" BASE ", \"setup\": \"maybe\"}", GM_EINVAL, "t.json: setup: 'maybe'");
    bad("{" BASE ", \"setup_seed\": \"xyz\"}", GM_EINVAL, "t.json: setup_seed: 'xyz' is not 64 hex digits");
    bad("{" BASE ", \"constraints\": 1024}", GM_EINVAL, "constraints: only for circuit test-synthetic");
    bad("{" BASE ", \"sector_size\": \"2KiB\"}", GM_EINVAL, "sector_size: only for circuit porep");
    bad("{" BASE ", \"resources\": {\"mem_budget\": \"lots\"}}", GM_EINVAL, "t.json: resources.mem_budget: 'lots'");
    bad("{" BASE ", \"resources\": {\"mem_budget\": 100}}", GM_EINVAL, "below 1 MiB");
    bad("{" BASE ", \"progress_interval\": -1}", GM_EINVAL, "progress_interval");
    bad("{" BASE ", \"name\": \"a b\"}", GM_EINVAL, "t.json: name: 'a b'");
    bad("{\"circuit\": \"test-synthetic\", \"constraints\": 100, \"params\": \"p\", \"output\": \"o\","
        " \"sectors\": {\"count\": 1}}", GM_EINVAL, "constraints: 100 is not a power of two");
    bad("{\"circuit\": \"nope\", \"params\": \"p\", \"output\": \"o\", \"sectors\": {\"count\": 1}}", GM_EINVAL,
        "t.json: circuit: 'nope'");
    bad("{\"params\": \"p\", \"output\": \"o\", \"sectors\": {\"count\": 1}}", GM_EINVAL, "t.json: circuit: missing");
    bad("{\"circuit\": \"test-mul\", \"output\": \"o\", \"sectors\": {\"count\": 1}}", GM_EINVAL, "params: missing");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"sectors\": {\"count\": 1}}", GM_EINVAL, "output: missing");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\"}", GM_EINVAL, "sectors: missing");
    bad("[1, 2]", GM_EINVAL, "not a JSON object");
    bad("{\"circuit\": ", GM_EFORMAT, "t.json: line 1");
    bad("{" BASE ", \"output\": \"x\"}", GM_EFORMAT, "duplicate");
}

Test(campaign, sectors)
{
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": []}", GM_EINVAL, "sectors: not");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": {\"count\": 0}}", GM_EINVAL,
        "sectors.count: 0");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": {\"n\": 1}}", GM_EINVAL,
        "sectors.n: unknown key");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": [{\"seed\": 1}]}", GM_EINVAL,
        "sectors[0].id: missing");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": [{\"id\": \"a\"}, {\"id\": \"a\"}]}",
        GM_EINVAL, "sectors[1].id: 'a' is also sectors[0].id");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": [{\"id\": \"../x\"}]}", GM_EINVAL,
        "sectors[0].id: '../x'");
    bad("{\"circuit\": \"test-mul\", \"params\": \"p\", \"output\": \"o\", \"sectors\": [{\"id\": \"a\", \"c1\": \"f\"}]}",
        GM_EINVAL, "sectors[0].c1: only for circuit porep");
    bad("{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": \"o\", \"sectors\": "
        "{\"count\": 2}}", GM_EINVAL, "circuit porep needs an array");
    bad("{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": \"o\", \"sectors\": "
        "[{\"id\": \"a\"}]}", GM_EINVAL, "exactly one of \"sealed\"");
    bad("{\"circuit\": \"porep\", \"sector_size\": \"3KiB\", \"params\": \"p\", \"output\": \"o\", \"sectors\": "
        "[{\"id\": \"a\", \"c1\": \"x\"}]}", GM_EINVAL, "sector_size: '3KiB' is not a registered sector size");
    bad("{\"circuit\": \"porep\", \"params\": \"p\", \"output\": \"o\", \"sectors\": [{\"id\": \"a\", \"c1\": \"x\"}]}",
        GM_EINVAL, "sector_size: missing");
    /* porep with a C1 path that exists only when files are checked */
    jobs_campaign_t c;
    err_t e;
    gm_err_clear(&e);
    int rc = jobs_campaign_parse(&c,
                                 "{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": "
                                 "\"o\", \"sectors\": [{\"id\": \"a\", \"c1\": \"no-such-c1.json\"}]}",
                                 "t.json", "/nonexistent", JOBS_PARSE_DEFAULT, &e);
    cr_expect_eq(rc, GM_EINVAL);
    cr_expect(strstr(e.msg, "t.json: sectors[0].c1: '/nonexistent/no-such-c1.json': No such file") != NULL, "%s",
              e.msg);
    cr_assert_eq(parse(&c, "{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": \"o\","
                           " \"sectors\": [{\"id\": \"a\", \"sealed\": \"d\"}, {\"id\": \"b\", \"c1\": \"/c/b.json\"}]}",
                       &e),
                 0, "%s", e.msg);
    cr_expect_eq(c.sectors[0].kind, JOBS_SOURCE_SEALED);
    cr_expect_str_eq(c.sectors[0].path, "/base/d");
    cr_expect_eq(c.sectors[1].kind, JOBS_SOURCE_C1);
    cr_expect_str_eq(c.sectors[1].path, "/c/b.json");
    cr_expect(c.setup_auto, "porep generates missing parameters too (setup: auto)");
    cr_expect_eq(c.sectors[0].seed, 1, "a sealed sector's seed defaults to its 1-based place");
    cr_expect_eq(c.partitions, 1, "2 KiB: one partition");
    jobs_campaign_free(&c);
    /* a seed on a C1 sector; a partition count the sector size does not have */
    cr_expect_eq(parse(&c, "{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": "
                           "\"o\", \"sectors\": [{\"id\": \"b\", \"c1\": \"/c/b.json\", \"seed\": 3}]}",
                       &e),
                 GM_EINVAL);
    cr_expect(strstr(e.msg, "sectors[0].seed: only for test circuits and \"sealed\" sectors") != NULL, "%s", e.msg);
    cr_expect_eq(parse(&c, "{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": "
                           "\"o\", \"partitions\": 2, \"sectors\": [{\"id\": \"a\", \"sealed\": \"d\"}]}",
                       &e),
                 GM_EINVAL);
    cr_expect(strstr(e.msg, "partitions: 2, but a porep-2048-v2 sector has 1 partition(s)") != NULL, "%s", e.msg);
    jobs_campaign_free(&c);
}

Test(campaign, params_checked_when_setup_never)
{
    char dir[] = "/tmp/gm-campaign-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    jobs_campaign_t c;
    err_t e;
    gm_err_clear(&e);
    int rc = jobs_campaign_parse(&c, "{" BASE ", \"setup\": \"never\"}", "t.json", dir, JOBS_PARSE_DEFAULT, &e);
    cr_expect_eq(rc, GM_EINVAL);
    cr_expect(strstr(e.msg, "t.json: params: '") && strstr(e.msg, "/p/test-mul.params': No such file"), "%s", e.msg);
    rmdir(dir);
}

/* "mode": "check" needs no parameter cache, not even with "setup": "never",
 * and survives the normalized text that rank 0 broadcasts. */
Test(campaign, mode_check)
{
    jobs_campaign_t c, b;
    err_t e;
    cr_assert_eq(jobs_campaign_parse(&c,
                                     "{\"mode\": \"check\", \"circuit\": \"test-mul\", \"setup\": \"never\", "
                                     "\"output\": \"o\", \"sectors\": {\"count\": 2}}",
                                     "t.json", "/base", JOBS_PARSE_DEFAULT, &e),
                 0, "%s", e.msg);
    cr_expect_eq(c.mode, JOBS_MODE_CHECK);
    char *text = jobs_campaign_to_text(&c);
    cr_assert_not_null(text);
    cr_assert_eq(jobs_campaign_parse(&b, text, "rt", NULL, JOBS_PARSE_NO_FILES, &e), 0, "%s", e.msg);
    cr_expect_eq(b.mode, JOBS_MODE_CHECK);
    free(text);
    jobs_campaign_free(&b);
    jobs_campaign_free(&c);
}

/* "split": ranks per unit. Default 1 (today's campaigns); 1..4096; not with
 * mode "check" (nothing is proved) nor a device backend (the split prover
 * runs on the CPU); kept by the normalized text rank 0 broadcasts. */
Test(campaign, split)
{
    jobs_campaign_t c, b;
    err_t e;
    cr_assert_eq(parse(&c, "{" BASE "}", &e), 0, "%s", e.msg);
    cr_expect_eq(c.split, 1, "split defaults to 1");
    jobs_campaign_free(&c);
    cr_assert_eq(parse(&c, "{" BASE ", \"split\": 4, \"backend\": \"cpu\"}", &e), 0, "%s", e.msg);
    cr_expect_eq(c.split, 4);
    char *text = jobs_campaign_to_text(&c);
    cr_assert_not_null(text);
    cr_assert_eq(jobs_campaign_parse(&b, text, "rt", NULL, JOBS_PARSE_NO_FILES, &e), 0, "%s", e.msg);
    cr_expect_eq(b.split, 4, "split survives the normalized text: %s", text);
    free(text);
    jobs_campaign_free(&b);
    jobs_campaign_free(&c);
    static const char *const cases[][2] = {
        {"{" BASE ", \"split\": 0}", "t.json: split: 0 is not an integer in 1..4096"},
        {"{" BASE ", \"split\": 4097}", "t.json: split: 4097 is not an integer in 1..4096"},
        {"{" BASE ", \"split\": \"2\"}", "t.json: split: \"2\" is not an integer"},
        {"{" BASE ", \"split\": 1.5}", "t.json: split: 1.5 is not an integer"},
        {"{" BASE ", \"split\": 2, \"mode\": \"check\"}", "t.json: split: 2, but a \"check\" campaign"},
        {"{" BASE ", \"split\": 2, \"backend\": \"emulate\"}",
         "t.json: split: 2, but split units are proved on the CPU (backend is 'emulate'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bad(cases[i][0], GM_EINVAL, cases[i][1]);
    /* split 1 is today's campaign whatever the backend */
    cr_assert_eq(parse(&c, "{" BASE ", \"split\": 1, \"backend\": \"emulate\"}", &e), 0, "%s", e.msg);
    jobs_campaign_free(&c);
}

Test(campaign, normalized_round_trip)
{
    jobs_campaign_t a, b;
    err_t e;
    const char *t = "{\"name\": \"rt\", \"circuit\": \"test-sha256\", \"compressions\": 2, \"params\": \"p\","
                    " \"sectors\": {\"count\": 4, \"prefix\": \"x\", \"first_seed\": 7}, \"partitions\": 2,"
                    " \"batch_size\": 3, \"pipeline_depth\": 0, \"output\": \"o\", \"verify\": \"root\","
                    " \"resources\": {\"mem_budget\": 123456789, \"domains\": 3, \"topology\": \"xml:t.xml\"}}";
    cr_assert_eq(parse(&a, t, &e), 0, "%s", e.msg);
    char *text = jobs_campaign_to_text(&a);
    cr_assert_not_null(text);
    cr_assert_eq(jobs_campaign_parse(&b, text, "n", NULL, JOBS_PARSE_NO_FILES, &e), 0, "%s: %s", text, e.msg);
    cr_expect_str_eq(b.name, a.name);
    cr_expect_str_eq(b.circuit.id, "test-sha256-2");
    cr_expect_str_eq(b.params_dir, a.params_dir);
    cr_expect_str_eq(b.output, a.output);
    cr_expect_eq(b.nsectors, 4);
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(b.sectors[i].id, a.sectors[i].id);
        cr_expect_eq(b.sectors[i].seed, a.sectors[i].seed);
    }
    cr_expect_eq(b.sectors[3].seed, 10);
    cr_expect_eq(b.partitions, 2);
    cr_expect_eq(b.batch_size, 3);
    cr_expect_eq(b.pipeline_depth, 0);
    cr_expect_eq(b.verify, JOBS_VERIFY_ROOT);
    cr_expect_eq(b.mem_budget, 123456789);
    cr_expect_eq(b.domains, 3);
    cr_expect_str_eq(b.topology, "xml:/base/t.xml");
    char *text2 = jobs_campaign_to_text(&b);
    cr_expect_str_eq(text2, text);
    free(text);
    free(text2);
    jobs_campaign_free(&a);
    jobs_campaign_free(&b);
}

/* A porep campaign's normalized text (what rank 0 broadcasts) parses back to
 * the same campaign: sector_size goes out in the string form the parser
 * reads (fuzz finding F2 wrote it as a number, and every other rank refused
 * it). Each registered size, C1 and sealed sources, parse -> to_text ->
 * parse -> to_text. */
Test(campaign, normalized_round_trip_porep)
{
    static const char *sizes[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
    static const char *want[] = {"\"2KiB\"", "\"8MiB\"", "\"512MiB\"", "\"32GiB\"", "\"64GiB\""};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        char t[512];
        snprintf(t, sizeof t,
                 "{\"name\": \"pr\", \"circuit\": \"porep\", \"sector_size\": \"%s\", \"params\": \"p\","
                 " \"sectors\": [{\"id\": \"a\", \"c1\": \"c1.json\"}, {\"id\": \"b\", \"sealed\": \"d\", \"seed\": 9}],"
                 " \"output\": \"o\"}",
                 sizes[k]);
        jobs_campaign_t a, b;
        err_t e;
        cr_assert_eq(parse(&a, t, &e), 0, "%s: %s", sizes[k], e.msg);
        char *text = jobs_campaign_to_text(&a);
        cr_assert_not_null(text);
        cr_expect(strstr(text, want[k]) != NULL, "sector_size not written as %s: %s", want[k], text);
        gm_err_clear(&e);
        cr_assert_eq(jobs_campaign_parse(&b, text, "n", NULL, JOBS_PARSE_NO_FILES, &e), 0, "%s: %s", text, e.msg);
        cr_expect_str_eq(b.circuit.id, a.circuit.id);
        cr_expect_eq(b.circuit.kind, a.circuit.kind);
        cr_expect_eq(b.circuit.size, a.circuit.size);
        cr_expect_str_eq(b.params_dir, a.params_dir);
        cr_expect_str_eq(b.output, a.output);
        cr_expect_eq(b.nsectors, 2);
        for (size_t i = 0; i < 2; i++) {
            cr_expect_str_eq(b.sectors[i].id, a.sectors[i].id);
            cr_expect_eq(b.sectors[i].kind, a.sectors[i].kind);
            cr_expect_str_eq(b.sectors[i].path, a.sectors[i].path);
        }
        cr_expect_eq(b.partitions, k < 3 ? 1u : 10u);
        cr_expect_eq(b.sectors[1].seed, 9);
        cr_expect_eq(b.setup_auto, a.setup_auto);
        char *text2 = jobs_campaign_to_text(&b);
        cr_assert_not_null(text2);
        cr_expect_str_eq(text2, text, "normalization is not stable");
        free(text);
        free(text2);
        jobs_campaign_free(&a);
        jobs_campaign_free(&b);
    }
}

#define ZK "{\"circuit\": \"snarkjs\", \"output\": \"o\", \"sectors\": "
#define ZS "[{\"id\": \"m\", \"zkey\": \"c.zkey\", \"wtns\": \"/w/m.wtns\"}]"

Test(campaign, snarkjs_sectors)
{
    jobs_campaign_t a, b;
    err_t e;
    cr_assert_eq(parse(&a, ZK "[" "{\"id\": \"m\", \"zkey\": \"c.zkey\", \"wtns\": \"/w/m.wtns\"},"
                          "{\"id\": \"n\", \"zkey\": \"/k/d.zkey\", \"wtns\": \"n.wtns\"}]}", &e), 0, "%s", e.msg);
    cr_expect(a.zkey);
    cr_expect_str_eq(a.circuit.id, "snarkjs");
    cr_expect_eq(a.nsectors, 2);
    cr_expect_eq(a.partitions, 1);
    cr_expect_eq(jobs_unit_count(&a), 2);
    cr_expect_eq(a.sectors[0].kind, JOBS_SOURCE_ZKEY);
    cr_expect_str_eq(a.sectors[0].path, "/base/c.zkey");
    cr_expect_str_eq(a.sectors[0].wtns, "/w/m.wtns");
    cr_expect_str_eq(a.sectors[1].path, "/k/d.zkey");
    cr_expect_str_eq(a.sectors[1].wtns, "/base/n.wtns");
    char *text = jobs_campaign_to_text(&a);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "\"params\"") == NULL, "a snarkjs campaign has no params: %s", text);
    gm_err_clear(&e);
    cr_assert_eq(jobs_campaign_parse(&b, text, "n", NULL, JOBS_PARSE_NO_FILES, &e), 0, "%s: %s", text, e.msg);
    cr_expect(b.zkey);
    for (size_t i = 0; i < 2; i++) {
        cr_expect_eq(b.sectors[i].kind, JOBS_SOURCE_ZKEY);
        cr_expect_str_eq(b.sectors[i].path, a.sectors[i].path);
        cr_expect_str_eq(b.sectors[i].wtns, a.sectors[i].wtns);
    }
    char *text2 = jobs_campaign_to_text(&b);
    cr_assert_not_null(text2);
    cr_expect_str_eq(text2, text, "normalization is not stable");
    jobs_source_t *src = NULL;
    gm_err_clear(&e);
    cr_expect_eq(jobs_source_open(&src, &a, &e), GM_ENOTSUP, "a snarkjs campaign has no synthesized witnesses");
    cr_expect_null(src);
    free(text);
    free(text2);
    jobs_campaign_free(&a);
    jobs_campaign_free(&b);

    /* split: each sector's proof by a group of ranks (mpi/split_campaign.c) */
    cr_assert_eq(parse(&a, ZK ZS ", \"split\": 4}", &e), 0, "%s", e.msg);
    cr_expect_eq(a.split, 4);
    text = jobs_campaign_to_text(&a);
    cr_assert_not_null(text);
    gm_err_clear(&e);
    cr_assert_eq(jobs_campaign_parse(&b, text, "n", NULL, JOBS_PARSE_NO_FILES, &e), 0, "%s: %s", text, e.msg);
    cr_expect(b.zkey);
    cr_expect_eq(b.split, 4, "split survives the normalized text: %s", text);
    free(text);
    jobs_campaign_free(&a);
    jobs_campaign_free(&b);

    bad(ZK "[{\"id\": \"m\", \"zkey\": \"c.zkey\"}]}", GM_EINVAL, "t.json: sectors[0].wtns: missing");
    bad(ZK "[{\"id\": \"m\", \"wtns\": \"w\"}]}", GM_EINVAL, "t.json: sectors[0].zkey: missing");
    bad(ZK "[{\"id\": \"m\", \"zkey\": \"c\", \"wtns\": \"w\", \"seed\": 1}]}", GM_EINVAL,
        "t.json: sectors[0].seed: unknown key");
    bad(ZK "{\"count\": 2}}", GM_EINVAL, "t.json: sectors: circuit snarkjs needs an array");
    bad(ZK ZS ", \"params\": \"p\"}", GM_EINVAL, "t.json: params: not for circuit snarkjs");
    bad(ZK ZS ", \"trust_params\": true}", GM_EINVAL, "t.json: trust_params: not for circuit snarkjs");
    bad(ZK ZS ", \"partitions\": 2}", GM_EINVAL, "t.json: partitions: 2, but a snarkjs sector is one proof");
    bad(ZK ZS ", \"verify\": \"both\"}", GM_EINVAL, "t.json: verify: 'both'");
    bad(ZK ZS ", \"split\": 2, \"backend\": \"emulate\"}", GM_EINVAL, "t.json: split: 2, but split units are proved on the CPU");
    bad(ZK ZS ", \"mode\": \"check\"}", GM_EINVAL, "t.json: mode: \"check\" is not for circuit snarkjs");
    bad(ZK ZS ", \"constraints\": 64}", GM_EINVAL, "t.json: constraints");
    /* files are checked unless JOBS_PARSE_NO_FILES */
    gm_err_clear(&e);
    cr_expect_eq(jobs_campaign_parse(&a, ZK "[{\"id\": \"m\", \"zkey\": \"/nonexistent/c.zkey\", \"wtns\": "
                                     "\"/nonexistent/w\"}]}", "t.json", "/base", JOBS_PARSE_DEFAULT, &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "t.json: sectors[0].zkey: '/nonexistent/c.zkey': No such file") != NULL, "%s", e.msg);
    jobs_campaign_free(&a);
}

Test(campaign, units_partition_major)
{
    jobs_campaign_t c;
    err_t e;
    cr_assert_eq(parse(&c, "{" BASE ", \"partitions\": 4}", &e), 0, "%s", e.msg);
    cr_assert_eq(jobs_unit_count(&c), 12);
    /* any 3 consecutive units are 3 different sectors */
    for (size_t u = 0; u + 3 <= 12; u++) {
        jobs_unit_t x = jobs_unit_get(&c, u), y = jobs_unit_get(&c, u + 1), z = jobs_unit_get(&c, u + 2);
        cr_expect(x.sector != y.sector && y.sector != z.sector && x.sector != z.sector);
    }
    /* every (sector, partition) exactly once */
    int seen[3][4] = {{0}};
    for (size_t u = 0; u < 12; u++) {
        jobs_unit_t x = jobs_unit_get(&c, u);
        seen[x.sector][x.partition]++;
    }
    for (int s = 0; s < 3; s++)
        for (int p = 0; p < 4; p++)
            cr_expect_eq(seen[s][p], 1);
    char name[JOBS_ID_LEN + 16];
    jobs_unit_name(name, sizeof name, &c, 7); /* partition 2 of sector 1 */
    cr_expect_str_eq(name, "s02-p2");
    /* seeds: deterministic, distinct across units */
    cr_expect_eq(jobs_unit_seed(5, 1), jobs_unit_seed(5, 1));
    for (uint64_t s = 0; s < 20; s++)
        for (unsigned p = 0; p < 10; p++)
            for (unsigned q = p + 1; q < 10; q++)
                cr_expect_neq(jobs_unit_seed(s, p), jobs_unit_seed(s, q));
    cr_expect_neq(jobs_unit_seed(1, 0), jobs_unit_seed(2, 0));
    jobs_campaign_free(&c);
}

/* "units": the first N units only (partition 0 of each sector for N = S),
 * kept by the normalized text, bounded by the campaign's units. */
Test(campaign, units_trial)
{
    jobs_campaign_t c;
    err_t e;
    cr_assert_eq(parse(&c, "{" BASE ", \"partitions\": 4, \"units\": 3}", &e), 0, "%s", e.msg);
    cr_assert_eq(jobs_unit_count(&c), 3);
    for (size_t u = 0; u < 3; u++)
        cr_expect_eq(jobs_unit_get(&c, u).partition, 0);
    char *text = jobs_campaign_to_text(&c);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "\"units\":3") != NULL, "%s", text);
    free(text);
    jobs_campaign_free(&c);
    bad("{" BASE ", \"partitions\": 4, \"units\": 13}", GM_EINVAL, "units: 13 is not an integer in 1..12");
    bad("{" BASE ", \"units\": 0}", GM_EINVAL, "units: 0 is not an integer in 1..3");
}

Test(campaign, size_parse)
{
    uint64_t v = 0;
    err_t e;
    cr_expect_eq(jobs_size_parse(&v, "2GiB", "x", &e), 0);
    cr_expect_eq(v, 2ULL << 30);
    cr_expect_eq(jobs_size_parse(&v, "512mib", "x", &e), 0);
    cr_expect_eq(v, 512ULL << 20);
    cr_expect_eq(jobs_size_parse(&v, "1000", "x", &e), 0);
    cr_expect_eq(v, 1000);
    cr_expect_eq(jobs_size_parse(&v, "1TiB", "x", &e), 0);
    cr_expect_eq(v, 1ULL << 40);
    cr_expect_eq(jobs_size_parse(&v, "2GB", "--mem-budget", &e), GM_EINVAL);
    cr_expect(strstr(e.msg, "--mem-budget: '2GB'") != NULL);
    cr_expect_eq(jobs_size_parse(&v, "", "x", &e), GM_EINVAL);
    cr_expect_eq(jobs_size_parse(&v, "-1", "x", &e), GM_EINVAL);
    cr_expect_eq(jobs_size_parse(&v, "99999999999999999999", "x", &e), GM_EINVAL);
    cr_expect_eq(jobs_size_parse(&v, "17179869184TiB", "x", &e), GM_EINVAL);
}

Test(campaign, source_test_and_porep_slot)
{
    jobs_campaign_t c;
    err_t e;
    cr_assert_eq(parse(&c, "{" BASE ", \"partitions\": 2}", &e), 0, "%s", e.msg);
    jobs_source_t *s = NULL;
    cr_assert_eq(jobs_source_open(&s, &c, &e), 0, "%s", e.msg);
    cs_t *a = NULL, *b = NULL, *a2 = NULL;
    cr_assert_eq(jobs_source_witness(s, 0, &a, &e), 0, "%s", e.msg);
    cr_assert_eq(jobs_source_witness(s, 3, &b, &e), 0, "%s", e.msg);
    cr_assert_eq(jobs_source_witness(s, 0, &a2, &e), 0, "%s", e.msg);
    cr_expect_eq(cs_num_inputs(a), 2);
    /* the same unit gives the same public input; another unit another one */
    cr_expect(fr_eq(&cs_input_values(a)[1], &cs_input_values(a2)[1]));
    cr_expect(!fr_eq(&cs_input_values(a)[1], &cs_input_values(b)[1]));
    cs_t *x = NULL;
    cr_expect_eq(jobs_source_witness(s, 6, &x, &e), GM_EINVAL);
    cr_expect_null(x);
    cs_destroy(a);
    cs_destroy(b);
    cs_destroy(a2);
    jobs_source_close(s);
    jobs_campaign_free(&c);

    cr_assert_eq(parse(&c, "{\"circuit\": \"porep\", \"sector_size\": \"2KiB\", \"params\": \"p\", \"output\": \"o\","
                           " \"sectors\": [{\"id\": \"a\", \"c1\": \"/c1.json\"}]}",
                       &e),
                 0, "%s", e.msg);
    cr_assert_eq(jobs_source_open(&s, &c, &e), 0);
    /* the C1 is read when its first unit is asked for: a missing file names the sector and its key */
    cr_expect_neq(jobs_source_witness(s, 0, &x, &e), 0);
    cr_expect_null(x);
    cr_expect(strstr(e.msg, "sector a (c1 '/c1.json')") != NULL, "%s", e.msg);
    jobs_source_close(s);
    jobs_campaign_free(&c);
}
