/*
 * synth/porep/afile.c — atomic output files for synth/porep/: a temporary
 * name next to the target, fsync, rename, directory fsync (as redis' rdbSave
 * does); removal of the temporaries that killed runs left behind; and small
 * hex helpers.
 *
 * A temporary is "<target>.tmp.<pid>", pid being its writer's. A process
 * killed by SIGKILL (or a crash) cannot remove its own, so every writer
 * first removes those of processes that no longer exist (porep_temp_sweep);
 * SIGINT and SIGTERM are handled by the command (cli/cmd_porep.c), which
 * unlinks the names of its own pid.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth/porep/porep_internal.h"

int porep_temp_path(char *out, size_t n, const char *path, long pid)
{
    int k = snprintf(out, n, "%s.tmp.%ld", path, pid);
    return k < 0 || (size_t)k >= n ? GM_EINVAL : 0;
}

/* The pid in a temporary's name "<base>.tmp.<pid>", or 0 when name is not
 * one of base's temporaries (other suffix, not all digits, out of range). */
static long temp_pid(const char *name, const char *base)
{
    size_t bl = strlen(base);
    if (strncmp(name, base, bl) != 0 || strncmp(name + bl, ".tmp.", 5) != 0)
        return 0;
    const char *d = name + bl + 5;
    if (!*d || strlen(d) > 10)
        return 0;
    for (const char *c = d; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    long pid = strtol(d, NULL, 10);
    return pid > 0 && pid <= 0x7fffffffL ? pid : 0;
}

int porep_temp_sweep(const char *path, unsigned *removed, err_t *err)
{
    if (removed)
        *removed = 0;
    char dir[4096];
    if (strlen(path) >= sizeof dir)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
    snprintf(dir, sizeof dir, "%s", path);
    const char *base;
    char *slash = strrchr(dir, '/');
    if (!slash) {
        base = path;
        snprintf(dir, sizeof dir, ".");
    } else {
        base = path + (slash - dir) + 1;
        if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
    }
    DIR *d = opendir(dir);
    if (!d) /* no directory: nothing to sweep (the writer reports the real error) */
        return errno == ENOENT || errno == ENOTDIR ? 0
                                                   : gm_err_set(err, GM_EIO, "%s: cannot list directory %s: %s", path,
                                                                dir, strerror(errno));
    int rc = 0;
    long self = (long)getpid();
    struct dirent *e;
    while (!rc && (e = readdir(d)) != NULL) {
        long pid = temp_pid(e->d_name, base);
        if (pid == 0 || pid == self)
            continue;
        /* Alive (0) or alive but not ours (EPERM): never touched. Only a pid
         * that does not exist at all is dead; a dead writer's pid reused by
         * a new process keeps its file until that process is gone too. */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
            if (removed)
                (*removed)++;
        } else if (errno != ENOENT) { /* ENOENT: another sweeper was first */
            rc = gm_err_set(err, GM_EIO, "%s/%s: cannot remove the temporary file of dead process %ld: %s", dir,
                            e->d_name, pid, strerror(errno));
        }
    }
    closedir(d);
    return rc;
}

int porep_afile_open(porep_afile_t *a, const char *path, err_t *err)
{
    memset(a, 0, sizeof *a);
    if (strlen(path) >= sizeof a->path)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
    int rc = porep_temp_sweep(path, NULL, err);
    if (rc)
        return rc;
    snprintf(a->path, sizeof a->path, "%s", path);
    if (porep_temp_path(a->tmp, sizeof a->tmp, path, (long)getpid()) != 0)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
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
