/*
 * synth/porep/afile.c — atomic output files for synth/porep/: a temporary
 * name next to the target, fsync, rename, directory fsync (as redis' rdbSave
 * does), and small hex helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"

int porep_afile_open(porep_afile_t *a, const char *path, err_t *err)
{
    memset(a, 0, sizeof *a);
    if (strlen(path) >= sizeof a->path)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(a->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot create %s: %s", path, a->tmp, strerror(errno));
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        return gm_err_set(err, GM_EIO, "%s: fdopen failed: %s", a->tmp, strerror(e));
    }
    setvbuf(a->f, NULL, _IOFBF, 1 << 20);
    return 0;
}

void porep_afile_abort(porep_afile_t *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
        unlink(a->tmp);
    }
}

int porep_afile_commit(porep_afile_t *a, err_t *err)
{
    int rc = 0;
    if (ferror(a->f) || fflush(a->f) != 0)
        rc = gm_err_set(err, GM_EIO, "%s: write failed: %s", a->tmp, strerror(errno));
    else if (fsync(fileno(a->f)) != 0)
        rc = gm_err_set(err, GM_EIO, "%s: fsync failed: %s", a->tmp, strerror(errno));
    if (rc) {
        porep_afile_abort(a);
        return rc;
    }
    if (fclose(a->f) != 0) {
        a->f = NULL;
        unlink(a->tmp);
        return gm_err_set(err, GM_EIO, "%s: close failed: %s", a->tmp, strerror(errno));
    }
    a->f = NULL;
    if (rename(a->tmp, a->path) != 0) {
        int e = errno;
        unlink(a->tmp);
        return gm_err_set(err, GM_EIO, "%s: cannot rename %s over it: %s", a->path, a->tmp, strerror(e));
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", a->path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        dir[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return gm_err_set(err, GM_EIO, "%s: fsync of directory %s failed: %s", a->path, dir, strerror(e));
    }
    close(fd);
    return 0;
}

int porep_write_file(const char *path, const void *data, size_t n, err_t *err)
{
    porep_afile_t a;
    int rc = porep_afile_open(&a, path, err);
    if (rc)
        return rc;
    if (n && fwrite(data, 1, n, a.f) != n) {
        int e = errno;
        porep_afile_abort(&a);
        return gm_err_set(err, GM_EIO, "%s: write failed: %s", path, strerror(e));
    }
    return porep_afile_commit(&a, err);
}

void porep_hex(char *out, const uint8_t *in, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * n] = '\0';
}

int porep_unhex(uint8_t *out, const char *s, size_t n)
{
    if (!s || strlen(s) != 2 * n)
        return -1;
    for (size_t i = 0; i < 2 * n; i++) {
        char c = s[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                             : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0)
            return -1;
        if (i & 1)
            out[i / 2] = (uint8_t)(out[i / 2] | v);
        else
            out[i / 2] = (uint8_t)(v << 4);
    }
    return 0;
}
