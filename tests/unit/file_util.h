/*
 * tests/unit/file_util.h — files for the snarkjs readers' tests: whole
 * reads and writes (failing the test on error), temporary paths, and the
 * sections of a snarkjs binary container (.zkey, .wtns, .r1cs: "xxxx",
 * u32 version, u32 section count, then per section u32 id, u64 size,
 * data; docs/snarkjs.md), so a test can damage one field of a real file.
 */
#ifndef GM_TEST_FILE_UTIL_H
#define GM_TEST_FILE_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/base.h"

/* The whole file (gm_free it). */
static inline uint8_t *slurp(const char *path, size_t *n)
{
    uint8_t *buf;
    err_t err;
    cr_assert_eq(gm_file_read(&buf, n, path, &err), 0, "%s", err.msg);
    return buf;
}

static inline void write_bytes(const char *path, const void *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    cr_assert_eq(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* A new empty file /tmp/gm-STEM.XXXXXX (free the path; unlink the file). */
static inline char *temp_path(const char *stem)
{
    char *p = malloc(64);
    cr_assert(p);
    snprintf(p, 64, "/tmp/gm-%s.XXXXXX", stem);
    int fd = mkstemp(p);
    cr_assert(fd >= 0);
    close(fd);
    return p;
}

/* Offset of section id's data in the container b[0 .. n), or 0 when absent. */
static inline size_t section_offset(const uint8_t *b, size_t n, uint32_t id)
{
    size_t pos = 12;
    uint32_t ns = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    for (uint32_t i = 0; i < ns && pos + 12 <= n; i++) {
        uint32_t sid = (uint32_t)b[pos] | (uint32_t)b[pos + 1] << 8 | (uint32_t)b[pos + 2] << 16 |
                       (uint32_t)b[pos + 3] << 24;
        uint64_t sz = 0;
        for (int k = 7; k >= 0; k--)
            sz = sz << 8 | b[pos + 4 + k];
        if (sid == id)
            return pos + 12;
        pos += 12 + (size_t)sz;
    }
    return 0;
}

#endif
