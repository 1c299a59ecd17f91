/* fuzz/fuzz_sealed.c — a sealed sector's metadata, seal.json
 * (porep_sealed_load, synth/porep/porep.h), through <tmpdir>/seal.json.
 * Input: the JSON file.
 * Properties: no crash, leak or sanitizer report; a loaded sector names a
 * registered proof whose sector size is the shape's; a refusal is a
 * documented status with a message. */
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "synth/porep/porep.h"

FUZZ_INIT_FF_ONLY()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write("seal.json", data, size);
    porep_sealed_t s;
    err_t err;
    gm_err_clear(&err);
    int rc = porep_sealed_load(&s, fuzz_tmpdir(), &err);
    if (rc) {
        FUZZ_CHECK(rc == GM_EIO || rc == GM_EFORMAT, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    FUZZ_CHECK(s.proof != NULL, "no registered proof");
    FUZZ_CHECK(s.shape.sector_size == s.proof->sector_size, "shape and registered proof disagree");
    return 0;
}
