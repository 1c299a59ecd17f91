/* fuzz/fuzz_vk.c — the verifying-key decoder, in memory
 * (groth16_vk_from_bytes) and from a file (groth16_vk_load), as
 * groth16/groth16.h documents them.
 * Input: the vk bytes (a real .vk file, or a params file whose vk prefix is
 * read).
 * Properties: a decoded key re-encodes to the bytes it consumed; the file
 * loader accepts exactly the inputs the decoder accepts with no trailing
 * bytes, and refuses the others with a documented status and a message;
 * nothing leaks (the key is freed on every path). */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"

FUZZ_INIT_FF_ONLY()

static int documented(int rc)
{
    return rc == GM_EFORMAT || rc == GM_EFLAGS || rc == GM_ENONCANON || rc == GM_ENOTONCURVE ||
           rc == GM_ESUBGROUP || rc == GM_ENOMEM;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    groth16_vk_t vk;
    err_t err;
    gm_err_clear(&err);
    size_t used = 0;
    int rc = groth16_vk_from_bytes(&vk, data, size, &used, "fuzz.vk", &err);
    if (rc == 0) {
        FUZZ_CHECK(used <= size && used == groth16_vk_bytes(vk.n_ic), "consumed size");
        uint8_t *out = malloc(used);
        FUZZ_CHECK(out != NULL, "out of memory");
        groth16_vk_to_bytes(out, &vk);
        FUZZ_CHECK(memcmp(out, data, used) == 0, "vk does not round-trip");
        free(out);
        groth16_vk_free(&vk);
    } else {
        FUZZ_CHECK(documented(rc), "groth16_vk_from_bytes: undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        FUZZ_CHECK(vk.ic == NULL && vk.n_ic == 0, "vk not zeroed on failure");
    }

    /* The same bytes as a .vk file: accepted exactly when decoded and whole. */
    const char *path = fuzz_write("fuzz.vk", data, size);
    groth16_vk_t fk;
    err_t ferr;
    gm_err_clear(&ferr);
    int frc = groth16_vk_load(&fk, path, &ferr);
    if (rc == 0 && used == size) {
        FUZZ_CHECK(frc == 0, "groth16_vk_load refuses a key groth16_vk_from_bytes accepts");
        groth16_vk_free(&fk);
    } else {
        FUZZ_CHECK(frc != 0, "groth16_vk_load accepts a bad or trailing key");
        FUZZ_CHECK(documented(frc) || frc == GM_EIO, "groth16_vk_load: undocumented status");
        FUZZ_CHECK_REFUSAL(frc, ferr);
    }
    return 0;
}
