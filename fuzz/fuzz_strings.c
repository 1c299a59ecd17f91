/* fuzz/fuzz_strings.c — the small string parsers behind options and
 * campaign values: porep_sector_size_parse, porep_api_parse (synth/porep),
 * jobs_size_parse (jobs/) and circuit_parse (groth16/).
 * Input: byte 0 selects the parser; for circuit_parse bytes 1..8
 * are the size (u64 LE) and the rest is "name\0sector-size".
 * Properties: an accepted sector size is positive; an accepted API version
 * prints as one of the three names and parses back to itself; an accepted
 * circuit has an id of 1..63 characters; refusals are GM_EINVAL with a
 * message naming the value, and leave the output untouched. */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "jobs/jobs.h"
#include "synth/porep/porep.h"
#include "circuits/circuits.h"

FUZZ_INIT_FF_ONLY()

static void refused(int rc, const err_t *err)
{
    FUZZ_CHECK(rc == GM_EINVAL, "undocumented status");
    FUZZ_CHECK_REFUSAL(rc, *err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    err_t err;
    gm_err_clear(&err);
    unsigned sel = data[0] % 4;
    if (sel == 3) {
        uint64_t sz = 0;
        const uint8_t *body = data + 1;
        size_t len = size - 1;
        if (len >= 8) {
            memcpy(&sz, body, 8);
            body += 8;
            len -= 8;
        }
        char *s = fuzz_strndup(body, len);
        const char *sector = memchr(body, 0, len) ? s + strlen(s) + 1 : NULL;
        circuit_t c;
        int rc = circuit_parse(&c, s, sz, sector, &err);
        if (rc == 0) {
            size_t n = strnlen(c.id, sizeof c.id);
            FUZZ_CHECK(n >= 1 && n < sizeof c.id, "circuit id length");
        } else {
            refused(rc, &err);
        }
        free(s);
        return 0;
    }
    char *s = fuzz_strndup(data + 1, size - 1);
    if (sel == 0) {
        uint64_t v = 12345;
        int rc = porep_sector_size_parse(&v, s, "--sector-size", &err);
        if (rc == 0)
            FUZZ_CHECK(v > 0, "sector size 0 accepted");
        else {
            refused(rc, &err);
            FUZZ_CHECK(v == 12345, "output written on failure");
        }
    } else if (sel == 1) {
        porep_api_t a = (porep_api_t)77, b;
        int rc = porep_api_parse(&a, s, "--api", &err);
        if (rc == 0) {
            const char *name = porep_api_name(a);
            FUZZ_CHECK(name != NULL, "no name");
            FUZZ_CHECK(porep_api_parse(&b, name, "--api", &err) == 0 && b == a, "api name does not parse back");
        } else {
            refused(rc, &err);
        }
    } else {
        uint64_t v = 12345;
        int rc = jobs_size_parse(&v, s, "fuzz.json: resources.mem_budget", &err);
        if (rc)
            refused(rc, &err);
    }
    free(s);
    return 0;
}
