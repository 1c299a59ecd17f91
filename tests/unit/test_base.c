/* tests/unit/test_base.c — status texts, err_t, the allocator's accounting,
 * the file API (atomic write, read, map, temporaries), the growth helper
 * and the hex and base64 codecs. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"

Test(base, strerror_covers_every_code)
{
    for (int c = 0; c >= GM_ENODEV; c--)
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

/* ---- files --------------------------------------------------------------- */

/* The names in dir other than . and .., sorted, joined by spaces. */
static void listing(char *out, size_t n, const char *dir)
{
    struct dirent **ents;
    int k = scandir(dir, &ents, NULL, alphasort);
    cr_assert_geq(k, 0, "%s: cannot list", dir);
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
            if (out[0])
                strncat(out, " ", n - strlen(out) - 1);
            strncat(out, ents[i]->d_name, n - strlen(out) - 1);
        }
        free(ents[i]);
    }
    free(ents);
}

static void scratch_dir(char dir[64])
{
    snprintf(dir, 64, "/tmp/gm-base-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

Test(base, file_write_read_replaces_and_leaves_no_temporary)
{
    char dir[64], path[128], names[512];
    scratch_dir(dir);
    snprintf(path, sizeof path, "%s/out.bin", dir);
    err_t err;
    cr_assert_eq(gm_file_write(path, "abc", 3, &err), 0, "%s", err.msg);
    cr_assert_eq(gm_file_write(path, "hello", 5, &err), 0, "%s", err.msg);
    uint8_t *b;
    size_t n;
    cr_assert_eq(gm_file_read(&b, &n, path, &err), 0, "%s", err.msg);
    cr_expect(n == 5 && memcmp(b, "hello", 5) == 0);
    gm_free(b);
    listing(names, sizeof names, dir);
    cr_expect_str_eq(names, "out.bin");
    cr_assert_eq(gm_file_write(path, "", 0, &err), 0, "%s", err.msg);
    cr_assert_eq(gm_file_read(&b, &n, path, &err), 0, "%s", err.msg);
    cr_expect_eq(n, 0);
    gm_free(b);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}

/* A rename that fails (the target is a directory) removes the temporary
 * and leaves the target as it was; the message names the target. */
Test(base, file_write_failure_removes_the_temporary)
{
    char dir[64], path[128], names[512];
    scratch_dir(dir);
    snprintf(path, sizeof path, "%s/target", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    err_t err;
    cr_assert_eq(gm_file_write(path, "abc", 3, &err), GM_EIO);
    cr_expect(strstr(err.msg, path) && strstr(err.msg, "rename"), "%s", err.msg);
    listing(names, sizeof names, dir);
    cr_expect_str_eq(names, "target");
    struct stat st;
    cr_expect(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    /* a directory that does not exist: nothing is created anywhere */
    char missing[160];
    snprintf(missing, sizeof missing, "%s/nodir/out.bin", dir);
    cr_expect_eq(gm_file_write(missing, "abc", 3, &err), GM_EIO);
    cr_expect(strstr(err.msg, "nodir/out.bin") && strstr(err.msg, "cannot create"), "%s", err.msg);
    listing(names, sizeof names, dir);
    cr_expect_str_eq(names, "target");
    rmdir(path);
    cr_expect_eq(rmdir(dir), 0);
}

Test(base, afile_abort_removes_the_temporary_and_keeps_the_target)
{
    char dir[64], path[128], names[512];
    scratch_dir(dir);
    snprintf(path, sizeof path, "%s/t.json", dir);
    err_t err;
    cr_assert_eq(gm_file_write(path, "old", 3, &err), 0, "%s", err.msg);
    gm_afile_t a;
    cr_assert_eq(gm_afile_open(&a, path, 0, &err), 0, "%s", err.msg);
    char tmp[200];
    cr_assert_eq(gm_file_temp_name(tmp, sizeof tmp, path, (long)getpid()), 0);
    cr_expect_str_eq(a.tmp, tmp);
    fprintf(a.f, "new contents");
    cr_expect_eq(access(tmp, F_OK), 0);
    gm_afile_abort(&a);
    gm_afile_abort(&a); /* twice is harmless */
    listing(names, sizeof names, dir);
    cr_expect_str_eq(names, "t.json");
    uint8_t *b;
    size_t n;
    cr_assert_eq(gm_file_read(&b, &n, path, &err), 0);
    cr_expect(n == 3 && memcmp(b, "old", 3) == 0);
    gm_free(b);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}

Test(base, file_read_of_a_missing_file_names_the_path)
{
    uint8_t *b = (uint8_t *)1;
    size_t n = 7;
    err_t err;
    cr_expect_eq(gm_file_read(&b, &n, "/nonexistent/gm-missing.bin", &err), GM_EIO);
    cr_expect_null(b);
    cr_expect_eq(n, 0);
    cr_expect(strstr(err.msg, "/nonexistent/gm-missing.bin: cannot open"), "%s", err.msg);
    gm_map_t m;
    cr_expect_eq(gm_file_map(&m, "/nonexistent/gm-missing.bin", GM_MAP_NORMAL, &err), GM_EIO);
    cr_expect(strstr(err.msg, "/nonexistent/gm-missing.bin: cannot open"), "%s", err.msg);
    cr_expect_eq(gm_dir_fsync("/nonexistent/x", &err), GM_EIO);
    cr_expect(strstr(err.msg, "/nonexistent"), "%s", err.msg);
}

Test(base, file_map_reads_what_was_written)
{
    char dir[64], path[128];
    scratch_dir(dir);
    snprintf(path, sizeof path, "%s/m.bin", dir);
    uint8_t data[10000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    err_t err;
    cr_assert_eq(gm_file_write(path, data, sizeof data, &err), 0, "%s", err.msg);
    gm_map_t m;
    cr_assert_eq(gm_file_map(&m, path, GM_MAP_SEQUENTIAL, &err), 0, "%s", err.msg);
    cr_expect_eq(m.size, sizeof data);
    cr_expect_eq(memcmp(m.data, data, sizeof data), 0);
    /* replaced by rename while mapped: the mapping keeps the old inode */
    cr_assert_eq(gm_file_write(path, "x", 1, &err), 0, "%s", err.msg);
    cr_expect_eq(memcmp(m.data, data, sizeof data), 0);
    gm_file_unmap(&m);
    cr_expect_null(m.data);
    gm_file_unmap(&m);
    cr_assert_eq(gm_file_write(path, "", 0, &err), 0, "%s", err.msg);
    cr_assert_eq(gm_file_map(&m, path, GM_MAP_WILLNEED, &err), 0, "%s", err.msg);
    cr_expect(m.data == NULL && m.size == 0);
    cr_expect_eq(gm_file_map(&m, dir, GM_MAP_NORMAL, &err), GM_EIO);
    cr_expect(strstr(err.msg, "not a regular file"), "%s", err.msg);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}

Test(base, temp_name_is_path_dot_tmp_dot_pid)
{
    char out[64];
    cr_assert_eq(gm_file_temp_name(out, sizeof out, "d/proof.bin", 1234), 0);
    cr_expect_str_eq(out, "d/proof.bin.tmp.1234");
    cr_expect_eq(gm_file_temp_name(out, 10, "d/proof.bin", 1234), GM_EINVAL);
}

/* gm_file_sweep_temps removes "<path>.tmp.<pid>" exactly when no process pid
 * exists: a reaped child's temporary goes; this process's, a live
 * process's (our parent), other files' and other suffixes stay. */
Test(base, sweep_removes_only_dead_writers_temporaries)
{
    char dir[64], path[128], name[400], names[1024];
    scratch_dir(dir);
    snprintf(path, sizeof path, "%s/labels.dat", dir);
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0)
        _exit(0);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child); /* reaped: the pid no longer exists */
    const long pids[3] = {(long)child, (long)getpid(), (long)getppid()};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(gm_file_temp_name(name, sizeof name, path, pids[i]), 0);
        FILE *f = fopen(name, "w");
        cr_assert_not_null(f);
        fclose(f);
    }
    static const char *const others[] = {"labels.dat.tmp.12x", "labels.dat.tmp.", "labels.dat.tmpx.1",
                                         "tree-c.dat.tmp.999999999", "labels.dat"};
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "%s/%s", dir, others[i]);
        FILE *f = fopen(name, "w");
        cr_assert_not_null(f);
        fclose(f);
    }
    unsigned removed = 99;
    err_t err;
    cr_assert_eq(gm_file_sweep_temps(path, &removed, &err), 0, "%s", err.msg);
    cr_expect_eq(removed, 1);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(gm_file_temp_name(name, sizeof name, path, pids[i]), 0);
        cr_expect_eq(access(name, F_OK) == 0, i != 0, "%s: %s", name, i ? "should stay" : "should be gone");
    }
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "%s/%s", dir, others[i]);
        cr_expect_eq(access(name, F_OK), 0, "%s should stay", name);
    }
    /* a directory that does not exist is nothing to sweep */
    snprintf(name, sizeof name, "%s/missing/labels.dat", dir);
    cr_expect_eq(gm_file_sweep_temps(name, &removed, &err), 0);
    cr_expect_eq(removed, 0);
    /* an opening writer with GM_AFILE_SWEEP removes a dead writer's leftover */
    cr_assert_eq(gm_file_temp_name(name, sizeof name, path, (long)child), 0);
    FILE *f = fopen(name, "w");
    cr_assert_not_null(f);
    fclose(f);
    gm_afile_t a;
    cr_assert_eq(gm_afile_open(&a, path, GM_AFILE_SWEEP, &err), 0, "%s", err.msg);
    cr_expect_neq(access(name, F_OK), 0, "%s should be gone", name);
    gm_afile_abort(&a);
    for (int i = 1; i < 3; i++) {
        cr_assert_eq(gm_file_temp_name(name, sizeof name, path, pids[i]), 0);
        unlink(name);
    }
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "%s/%s", dir, others[i]);
        unlink(name);
    }
    listing(names, sizeof names, dir);
    cr_expect_str_eq(names, "");
    /* the directory sweep: dead writers' temporaries of any target */
    static const char *const dead[] = {"a.json", "b.proof.tmp.1.x", ".tmp.5"};
    for (int i = 0; i < 3; i++) {
        if (i == 0)
            snprintf(name, sizeof name, "%s/%s.tmp.%ld", dir, dead[i], (long)child);
        else
            snprintf(name, sizeof name, "%s/%s", dir, dead[i]);
        f = fopen(name, "w");
        cr_assert_not_null(f);
        fclose(f);
    }
    snprintf(name, sizeof name, "%s/live.tmp.%ld", dir, (long)getppid());
    f = fopen(name, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(gm_dir_sweep_temps(dir, &removed, &err), 0, "%s", err.msg);
    cr_expect_eq(removed, 1);
    listing(names, sizeof names, dir);
    char want[128];
    snprintf(want, sizeof want, ".tmp.5 b.proof.tmp.1.x live.tmp.%ld", (long)getppid());
    cr_expect_str_eq(names, want);
    for (int i = 1; i < 3; i++) {
        snprintf(name, sizeof name, "%s/%s", dir, dead[i]);
        unlink(name);
    }
    snprintf(name, sizeof name, "%s/live.tmp.%ld", dir, (long)getppid());
    unlink(name);
    cr_expect_eq(rmdir(dir), 0);
}

Test(base, pread_full_reads_ranges_and_reports_a_short_file)
{
    char dir[64], path[128];
    scratch_dir(dir);
    snprintf(path, sizeof path, "%s/p.bin", dir);
    uint8_t data[5000], got[5000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13 + 1);
    err_t err;
    cr_assert_eq(gm_file_write(path, data, sizeof data, &err), 0, "%s", err.msg);
    int fd = open(path, O_RDONLY);
    cr_assert_geq(fd, 0);
    cr_expect_eq(gm_pread_full(fd, got, 1234, 777), 0);
    cr_expect_eq(memcmp(got, data + 777, 1234), 0);
    cr_expect_eq(gm_pread_full(fd, got, 0, 5000), 0);
    cr_expect_eq(gm_pread_full(fd, got, 2, 4999), EIO, "a read past the end is EIO");
    close(fd);
    cr_expect_eq(gm_pread_full(-1, got, 1, 0), EBADF);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}

/* ---- gm_grow ------------------------------------------------------------------ */

Test(base, grow_doubles_from_first_keeps_contents_and_refuses_overflow)
{
    uint32_t *a = NULL;
    uint64_t cap = 0;
    size_t before = gm_mem_current();
    cr_assert(gm_grow((void **)&a, &cap, 1, sizeof *a, 4));
    cr_expect_eq(cap, 4);
    for (uint32_t i = 0; i < 4; i++)
        a[i] = i * 7;
    cr_assert(gm_grow((void **)&a, &cap, 9, sizeof *a, 4));
    cr_expect_eq(cap, 16, "4 doubled until 9 fits: 16, got %llu", (unsigned long long)cap);
    for (uint32_t i = 0; i < 4; i++)
        cr_expect_eq(a[i], i * 7);
    uint32_t *same = a;
    cr_assert(gm_grow((void **)&a, &cap, 16, sizeof *a, 4));
    cr_expect_eq(a, same, "no move when it already fits");
    cr_assert(gm_grow((void **)&a, &cap, 21, sizeof *a, 0));
    cr_expect_eq(cap, 21, "first = 0 grows to exactly need");
    cr_expect_eq(a[3], 21);
    uint32_t *keep = a;
    cr_expect(!gm_grow((void **)&a, &cap, UINT64_MAX / 2 + 2, sizeof *a, 4));
    cr_expect(!gm_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof *a, 0));
    cr_expect(a == keep && cap == 21, "a failed grow leaves the array as it was");
    gm_free(a);
    cr_expect_eq(gm_mem_current(), before);
}

/* ---- hex ------------------------------------------------------------------------ */

Test(base, hex_encode_known_answers)
{
    char t[2 * 5 + 1];
    gm_hex_encode(t, (const uint8_t *)"\x00\x01\xab\xff\x10", 5);
    cr_expect_str_eq(t, "0001abff10");
    gm_hex_encode(t, NULL, 0);
    cr_expect_str_eq(t, "");
}

Test(base, hex_decode_accepts_both_cases_and_the_prefix_only_when_asked)
{
    uint8_t o[4] = {0};
    err_t e;
    cr_expect_eq(gm_hex_decode(o, sizeof o, "DeadBeef", 8, 0, &e), 4);
    cr_expect(memcmp(o, "\xde\xad\xbe\xef", 4) == 0);
    cr_expect_eq(gm_hex_decode(o, sizeof o, "0x0102", 6, GM_HEX_PREFIX, &e), 2);
    cr_expect(memcmp(o, "\x01\x02", 2) == 0);
    cr_expect_eq(gm_hex_decode(o, sizeof o, "0X0304", 6, GM_HEX_PREFIX, &e), 2);
    cr_expect_eq(gm_hex_decode(o, sizeof o, "0x0102", 6, 0, &e), -1, "no prefix without GM_HEX_PREFIX");
    cr_expect_str_eq(e.msg, "'x' (character 2) is not a hex digit");
    cr_expect_eq(gm_hex_decode(o, sizeof o, "", 0, 0, &e), 0);
    cr_expect_eq(gm_hex_decode(o, sizeof o, "0x", 2, GM_HEX_PREFIX, &e), 0);
    cr_expect_eq(gm_hex_prefix("0x12", 4, GM_HEX_PREFIX), 2);
    cr_expect_eq(gm_hex_prefix("0x12", 4, 0), 0);
    cr_expect_eq(gm_hex_prefix("0", 1, GM_HEX_PREFIX), 0);
}

Test(base, hex_decode_names_what_is_wrong_and_leaves_out_alone)
{
    uint8_t o[2] = {0x55, 0x55};
    err_t e;
    cr_expect_eq(gm_hex_decode(o, sizeof o, "abc", 3, 0, &e), -1);
    cr_expect_eq(e.code, GM_EFORMAT);
    cr_expect_str_eq(e.msg, "an odd number of hex digits (3)");
    cr_expect_eq(gm_hex_decode(o, sizeof o, "12g4", 4, 0, &e), -1);
    cr_expect_str_eq(e.msg, "'g' (character 3) is not a hex digit");
    cr_expect_eq(gm_hex_decode(o, sizeof o, "12 4", 4, 0, &e), -1, "no whitespace inside");
    cr_expect_eq(gm_hex_decode(o, sizeof o, "123456", 6, 0, &e), -1);
    cr_expect_str_eq(e.msg, "6 hex digits; at most 4 fit");
    cr_expect(o[0] == 0x55 && o[1] == 0x55, "out untouched after each failure");
    cr_expect_eq(gm_hex_decode(o, sizeof o, "12", 2, 0, NULL), 1, "err may be NULL");
}

Test(base, hex_decode_exact_counts_digits_after_the_prefix)
{
    uint8_t o[32];
    err_t e;
    char t[67];
    memset(t, 'a', 64);
    t[64] = 0;
    cr_expect_eq(gm_hex_decode_exact(o, 32, t, 0, &e), 0);
    cr_expect_eq(o[31], 0xaa);
    t[63] = 0;
    cr_expect_eq(gm_hex_decode_exact(o, 32, t, 0, &e), GM_EFORMAT);
    cr_expect_str_eq(e.msg, "expected 64 hex digits, found 63");
    snprintf(t, sizeof t, "0x%064d", 0);
    cr_expect_eq(gm_hex_decode_exact(o, 32, t, GM_HEX_PREFIX, &e), 0);
    cr_expect_eq(gm_hex_decode_exact(o, 32, t, 0, &e), GM_EFORMAT);
    t[10] = 'z';
    cr_expect_eq(gm_hex_decode_exact(o, 32, t, GM_HEX_PREFIX, &e), GM_EFORMAT);
    cr_expect_str_eq(e.msg, "'z' (character 11) is not a hex digit");
    t[40] = 0;
    cr_expect_eq(gm_hex_decode_exact(o, 32, t, GM_HEX_PREFIX, &e), GM_EFORMAT);
    cr_expect_str_eq(e.msg, "'z' (character 11) is not a hex digit", "a bad digit is named before the count");
}

Test(base, hex_round_trip_of_every_byte)
{
    uint8_t in[256], out[256];
    char t[513];
    for (int i = 0; i < 256; i++)
        in[i] = (uint8_t)i;
    gm_hex_encode(t, in, 256);
    cr_expect_eq(gm_hex_decode(out, sizeof out, t, 512, 0, NULL), 256);
    cr_expect(memcmp(in, out, 256) == 0);
}

/* ---- base64 --------------------------------------------------------------------- */

/* RFC 4648 section 10. */
static const char *const rfc4648[][2] = {
    {"", ""},         {"f", "Zg=="},        {"fo", "Zm8="},        {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
};

Test(base, base64_rfc4648_vectors)
{
    for (size_t i = 0; i < sizeof rfc4648 / sizeof rfc4648[0]; i++) {
        const char *plain = rfc4648[i][0], *enc = rfc4648[i][1];
        char t[16];
        gm_base64_encode(t, (const uint8_t *)plain, strlen(plain));
        cr_expect_str_eq(t, enc);
        uint8_t o[8];
        err_t e;
        cr_expect_eq(gm_base64_decode(o, sizeof o, enc, strlen(enc), &e), (long)strlen(plain), "%s", enc);
        cr_expect(memcmp(o, plain, strlen(plain)) == 0, "%s", enc);
        /* the padding is optional */
        size_t bare = strcspn(enc, "=");
        cr_expect_eq(gm_base64_decode(o, sizeof o, enc, bare, &e), (long)strlen(plain), "%.*s", (int)bare, enc);
    }
}

Test(base, base64_rejects_bad_text_and_says_where)
{
    uint8_t o[8];
    err_t e;
    cr_expect_eq(gm_base64_decode(o, sizeof o, "TW!u", 4, &e), -1);
    cr_expect_eq(e.code, GM_EFORMAT);
    cr_expect_str_eq(e.msg, "'!' (character 3) is not a base64 character");
    cr_expect_eq(gm_base64_decode(o, sizeof o, "TWFuT", 5, &e), -1);
    cr_expect_str_eq(e.msg, "5 base64 characters: not a whole number of bytes");
    cr_expect_eq(gm_base64_decode(o, 2, "TWFu", 4, &e), -1);
    cr_expect_str_eq(e.msg, "more than 2 bytes of base64");
    cr_expect_eq(gm_base64_decode(o, sizeof o, "!TWFu", 5, &e), -1);
    cr_expect_str_eq(e.msg, "'!' (character 1) is not a base64 character", "a bad character is named first");
    memset(o, 0x55, sizeof o);
    cr_expect_eq(gm_base64_decode(o, sizeof o, "TWFuTW!u", 8, &e), -1);
    cr_expect(o[0] == 0x55, "out untouched after a failure");
    cr_expect_eq(gm_base64_decode(o, sizeof o, "TW=u", 4, &e), -1, "'=' only at the end");
    cr_expect_eq(gm_base64_decode(o, sizeof o, "-_8", 3, &e), -1, "the URL alphabet is not standard base64");
}

Test(base, base64_round_trip_of_every_length)
{
    uint8_t in[40], out[40];
    for (size_t n = 0; n < sizeof in; n++) {
        for (size_t i = 0; i < n; i++)
            in[i] = (uint8_t)(31 * i + 7 * n + 1);
        char t[64];
        gm_base64_encode(t, in, n);
        cr_expect_eq(strlen(t), (n + 2) / 3 * 4);
        cr_expect_eq(gm_base64_decode(out, sizeof out, t, strlen(t), NULL), (long)n);
        cr_expect(memcmp(in, out, n) == 0, "n = %zu", n);
    }
}
