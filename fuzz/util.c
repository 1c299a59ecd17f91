/* fuzz/util.c — the temporary directory, file and string helpers of the
 * harnesses (see fuzz/fuzz.h). Single-threaded, as libFuzzer runs inputs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "ff/ff.h"
#include "fuzz/fuzz.h"

static char tmpdir[4096];

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz: property broken: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

void fuzz_init_ff(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    if (ff_init(FF_PATH_AUTO) != 0)
        fuzz_fail("ff_init failed");
    gm_log_set_level(GM_LOG_ERROR);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    (void)remove(path);
    return 0;
}

static void tmpdir_remove(void)
{
    if (tmpdir[0])
        (void)nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_tmpdir(void)
{
    if (tmpdir[0])
        return tmpdir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if ((size_t)snprintf(tmpdir, sizeof tmpdir, "%s/grothmpi-fuzz-XXXXXX", base) >= sizeof tmpdir)
        fuzz_fail("TMPDIR too long");
    if (!mkdtemp(tmpdir))
        fuzz_fail("mkdtemp %s: %s", tmpdir, strerror(errno));
    atexit(tmpdir_remove);
    return tmpdir;
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
    static char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", fuzz_tmpdir(), name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        fuzz_fail("open %s: %s", path, strerror(errno));
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            fuzz_fail("write %s: %s", path, strerror(errno));
        done += (size_t)w;
    }
    close(fd);
    return path;
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        fuzz_fail("out of memory");
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}
