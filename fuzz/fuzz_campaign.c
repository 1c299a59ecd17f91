/* fuzz/fuzz_campaign.c — the campaign parser (jobs_campaign_parse,
 * jobs/jobs.h), from text, with JOBS_PARSE_NO_FILES so that no input names a
 * file the harness would have to provide; relative paths resolve against the
 * harness's temporary directory. Nothing is written.
 * Input: the JSON text.
 * Properties: a parsed campaign's normalized text parses back to a campaign
 * whose normalized text is the same; its unit numbering stays in range; a
 * refusal is a documented status with a message and leaves the campaign
 * zeroed (jobs_campaign_free accepts it). */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "jobs/jobs.h"

FUZZ_INIT_FF_ONLY()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strndup(data, size);
    jobs_campaign_t c;
    err_t err;
    gm_err_clear(&err);
    int rc = jobs_campaign_parse(&c, text, "fuzz.json", fuzz_tmpdir(), JOBS_PARSE_NO_FILES, &err);
    free(text);
    if (rc) {
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_EINVAL || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        FUZZ_CHECK(c.sectors == NULL && c.nsectors == 0, "campaign not zeroed after a failure");
        jobs_campaign_free(&c);
        return 0;
    }
    size_t units = jobs_unit_count(&c);
    FUZZ_CHECK(units == c.nsectors * c.partitions, "unit count");
    for (size_t u = 0; u < units && u < 64; u++) {
        jobs_unit_t w = jobs_unit_get(&c, u);
        FUZZ_CHECK(w.sector < c.nsectors && w.partition < c.partitions, "unit out of range");
        char name[JOBS_ID_LEN + 16];
        jobs_unit_name(name, sizeof name, &c, u);
    }
    char *norm = jobs_campaign_to_text(&c);
    FUZZ_CHECK(norm != NULL, "jobs_campaign_to_text: out of memory");
    jobs_campaign_t d;
    int rc2 = jobs_campaign_parse(&d, norm, "normalized.json", NULL, JOBS_PARSE_NO_FILES, &err);
    if (rc2)
        fuzz_fail("normalized campaign does not parse: %s\n%s", err.msg, norm);
    char *norm2 = jobs_campaign_to_text(&d);
    FUZZ_CHECK(norm2 != NULL, "jobs_campaign_to_text: out of memory");
    if (strcmp(norm, norm2) != 0)
        fuzz_fail("normalization is not stable:\n%s\n---\n%s", norm, norm2);
    free(norm);
    free(norm2);
    jobs_campaign_free(&d);
    jobs_campaign_free(&c);
    return 0;
}
