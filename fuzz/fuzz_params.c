/* fuzz/fuzz_params.c — the parameter-file loader (groth16_params_load,
 * groth16/groth16.h), which maps the file, so the input goes through a file
 * in the harness's temporary directory.
 * Input: byte 0 holds flags (bit 0: GROTH16_LOAD_TRUST; bit 1: check the
 * counts against the test-mul shape), the rest is the file.
 * Properties: a loaded file's counts are consistent with its size (vk plus
 * five sections, no trailing bytes) and with the shape when one was given;
 * a refusal is a documented status with a message; nothing leaks. */
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "groth16/groth16.h"
#include "synth/synth.h"
#include "circuits/circuits.h"

static cs_shape_t *test_mul;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_ff();
    circuit_t c;
    err_t err;
    if (circuit_parse(&c, "test-mul", 0, NULL, &err) != 0 || circuit_shape(&test_mul, &c, &err) != 0)
        fuzz_fail("test-mul shape: %s", err.msg);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = data[0];
    const char *path = fuzz_write("fuzz.params", data + 1, size - 1);
    groth16_params_t *p = (groth16_params_t *)1;
    err_t err;
    gm_err_clear(&err);
    int rc = groth16_params_load(&p, path, (flags & 2) ? test_mul : NULL,
                                 (flags & 1) ? GROTH16_LOAD_TRUST : GROTH16_LOAD_DEFAULT, NULL, &err);
    if (rc) {
        FUZZ_CHECK(p == NULL, "*out not NULL after a failure");
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_EFLAGS || rc == GM_ENONCANON || rc == GM_ENOTONCURVE ||
                       rc == GM_ESUBGROUP || rc == GM_ENOMEM || rc == GM_EIO, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        return 0;
    }
    groth16_counts_t n;
    groth16_params_counts(&n, p);
    const groth16_vk_t *vk = groth16_params_vk(p);
    FUZZ_CHECK(vk->n_ic == n.ic, "vk and counts disagree on ic");
    uint64_t bytes = groth16_vk_bytes(vk->n_ic) + 5 * 4 +
                     (n.h + n.l + n.a + n.b_g1) * (uint64_t)G1_UNCOMPRESSED_BYTES + n.b_g2 * (uint64_t)G2_UNCOMPRESSED_BYTES;
    FUZZ_CHECK(bytes == size - 1, "loaded a file whose sections do not add up to its size");
    if (flags & 2) {
        groth16_counts_t need;
        FUZZ_CHECK(groth16_shape_counts(&need, test_mul, &err) == 0, "shape counts");
        FUZZ_CHECK(memcmp(&need, &n, sizeof n) == 0, "loaded counts that do not match the shape");
    }
    groth16_params_free(p);
    return 0;
}
