/* tests/unit/test_base.c — status texts, err_t, the allocator's accounting. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"

Test(base, strerror_covers_every_code)
{
    for (int c = 0; c >= GM_ECANCELED; c--)
        cr_expect(strcmp(gm_strerror(c), "unknown error") != 0, "code %d has no text", c);
    cr_expect_str_eq(gm_strerror(1), "unknown error");
    cr_expect_str_eq(gm_strerror(-1000), "unknown error");
}

Test(base, err_set_returns_code_and_formats)
{
    err_t e;
    gm_err_clear(&e);
    int rc = gm_err_set(&e, GM_EFORMAT, "%s: %s: %d is not in 1..64", "c.json", "batch_size", 0);
    cr_expect_eq(rc, GM_EFORMAT);
    cr_expect_eq(e.code, GM_EFORMAT);
    cr_expect_str_eq(e.msg, "c.json: batch_size: 0 is not in 1..64");
    cr_expect_eq(gm_err_set(NULL, GM_EIO, "x"), GM_EIO);
}

Test(base, alloc_is_aligned_and_counted)
{
    size_t before = gm_mem_current();
    uint8_t *p = gm_alloc(1000);
    cr_assert_not_null(p);
    cr_expect_eq((uintptr_t)p % 64, 0);
    cr_expect_geq(gm_mem_current(), before + 1000);
    cr_expect_geq(gm_mem_peak(), before + 1000);
    memset(p, 1, 1000);
    gm_free(p);
    cr_expect_eq(gm_mem_current(), before);
    uint8_t *z = gm_calloc(100, 10);
    cr_assert_not_null(z);
    for (int i = 0; i < 1000; i++)
        cr_expect_eq(z[i], 0);
    gm_free(z);
    cr_expect_null(gm_calloc(SIZE_MAX / 2, 4), "overflowing count*size must fail");
    gm_free(NULL);
}

Test(base, clocks_are_monotonic)
{
    uint64_t a = gm_now_ns(), b = gm_now_ns();
    cr_expect_geq(b, a);
    cr_expect_gt(gm_rss_current(), 0);
}
