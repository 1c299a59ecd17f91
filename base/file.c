/*
 * base/file.c — the one owner of file I/O: atomic writes (temporary name,
 * fsync, rename, directory fsync, as redis' rdbSave does), whole-file reads,
 * read-only maps, and the sweep of temporaries that killed writers left.
 *
 * Why one temporary rule, "<path>.tmp.<pid>": the pid makes concurrent
 * writers of the same target (ranks of one node, two commands) never share a
 * temporary, and lets a later writer tell a dead writer's leftover (remove
 * it) from a live one's (keep it) without any lock.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

int gm_file_temp_name(char *out, size_t n, const char *path, long pid)
{
    int k = snprintf(out, n, "%s.tmp.%ld", path, pid);
    return k < 0 || (size_t)k >= n ? GM_EINVAL : 0;
}

/* Splits path into its directory (into dir; "." without a slash, "/" for a
 * file in the root) and returns its last component. */
static const char *split_dir(char dir[GM_PATH_MAX], const char *path)
{
    snprintf(dir, GM_PATH_MAX, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) {
        snprintf(dir, GM_PATH_MAX, ".");
        return path;
    }
    const char *base = path + (slash - dir) + 1;
    if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return base;
}

/* The pid in a temporary's name "<base>.tmp.<pid>" (base NULL: any target's
 * temporary "<anything>.tmp.<pid>"), or 0 when name is not one (other
 * suffix, not all digits, out of range). */
static long temp_pid(const char *name, const char *base)
{
    const char *d;
    if (base) {
        size_t bl = strlen(base);
        if (strncmp(name, base, bl) != 0 || strncmp(name + bl, ".tmp.", 5) != 0)
            return 0;
        d = name + bl + 5;
    } else {
        const char *t = strstr(name, ".tmp.");
        if (!t || t == name)
            return 0;
        d = t + 5;
        while (strstr(d, ".tmp.")) /* the last ".tmp." is the suffix */
            d = strstr(d, ".tmp.") + 5;
    }
    if (!*d || strlen(d) > 10)
        return 0;
    for (const char *c = d; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    long pid = strtol(d, NULL, 10);
    return pid > 0 && pid <= 0x7fffffffL ? pid : 0;
}

/* Removes, from directory dir, the temporaries of base (NULL: of any target)
 * whose writer is dead; path names them in messages. */
static int sweep(const char *dir, const char *base, const char *path, unsigned *removed, err_t *err)
{
    if (removed)
        *removed = 0;
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

int gm_file_sweep_temps(const char *path, unsigned *removed, err_t *err)
{
    if (removed)
        *removed = 0;
    if (strlen(path) >= GM_PATH_MAX)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
    char dir[GM_PATH_MAX];
    const char *base = split_dir(dir, path);
    return sweep(dir, base, path, removed, err);
}

int gm_dir_sweep_temps(const char *dir, unsigned *removed, err_t *err)
{
    return sweep(dir, NULL, dir, removed, err);
}

int gm_afile_open(gm_afile_t *a, const char *path, unsigned flags, err_t *err)
{
    memset(a, 0, sizeof *a);
    if (strlen(path) >= sizeof a->path)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
    if (gm_file_temp_name(a->tmp, sizeof a->tmp, path, (long)getpid()) != 0)
        return gm_err_set(err, GM_EIO, "%s: path too long", path);
    if (flags & GM_AFILE_SWEEP) {
        int rc = gm_file_sweep_temps(path, NULL, err);
        if (rc)
            return rc;
    }
    snprintf(a->path, sizeof a->path, "%s", path);
    int fd = open(a->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot create %s: %s", path, a->tmp, strerror(errno));
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        return gm_err_set(err, GM_EIO, "%s: fdopen of %s failed: %s", path, a->tmp, strerror(e));
    }
    /* Parameter files and shapes are written in large sections: a 1 MiB
     * buffer keeps the number of write calls low without costing memory
     * that matters. */
    setvbuf(a->f, NULL, _IOFBF, 1 << 20);
    return 0;
}

void gm_afile_write(gm_afile_t *a, const void *p, size_t n)
{
    if (a->failed_errno || n == 0)
        return;
    if (fwrite(p, 1, n, a->f) != n)
        a->failed_errno = errno ? errno : EIO;
}

void gm_afile_abort(gm_afile_t *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
        unlink(a->tmp);
    }
}

int gm_afile_commit(gm_afile_t *a, err_t *err)
{
    int e = a->failed_errno;
    const char *call = "write";
    if (!e && (ferror(a->f) || fflush(a->f) != 0))
        e = errno ? errno : EIO;
    if (!e && fsync(fileno(a->f)) != 0) {
        e = errno;
        call = "fsync";
    }
    if (fclose(a->f) != 0 && !e) {
        e = errno;
        call = "close";
    }
    a->f = NULL;
    if (e) {
        unlink(a->tmp);
        return gm_err_set(err, GM_EIO, "%s: %s failed: %s (not written; its temporary was removed)", a->path, call,
                          strerror(e));
    }
    if (rename(a->tmp, a->path) != 0) {
        e = errno;
        unlink(a->tmp);
        return gm_err_set(err, GM_EIO, "%s: cannot rename %s over it: %s", a->path, a->tmp, strerror(e));
    }
    return gm_dir_fsync(a->path, err);
}

int gm_file_write(const char *path, const void *buf, size_t len, err_t *err)
{
    gm_afile_t a;
    int rc = gm_afile_open(&a, path, 0, err);
    if (rc)
        return rc;
    gm_afile_write(&a, buf, len);
    return gm_afile_commit(&a, err);
}

int gm_dir_fsync(const char *path, err_t *err)
{
    char dir[GM_PATH_MAX];
    split_dir(dir, path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open its directory %s: %s", path, dir, strerror(errno));
    int rc = fsync(fd), e = errno;
    close(fd);
    if (rc != 0 && e != EINVAL)
        return gm_err_set(err, GM_EIO, "%s: fsync of directory %s failed: %s", path, dir, strerror(e));
    return 0;
}

/* Opens path and stats it; *fd is -1 after a failure. */
static int open_stat(int *fd, struct stat *st, const char *path, err_t *err)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(*fd, st) != 0) {
        int e = errno;
        close(*fd);
        *fd = -1;
        return gm_err_set(err, GM_EIO, "%s: cannot stat: %s", path, strerror(e));
    }
    return 0;
}

int gm_file_read(uint8_t **out, size_t *len, const char *path, err_t *err)
{
    *out = NULL;
    *len = 0;
    int fd;
    struct stat st;
    int rc = open_stat(&fd, &st, path, err);
    if (rc)
        return rc;
    size_t n = (size_t)st.st_size;
    uint8_t *buf = gm_alloc(n ? n : 1);
    if (!buf) {
        close(fd);
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory for %zu bytes", path, n);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : EIO;
            close(fd);
            gm_free(buf);
            return gm_err_set(err, GM_EIO, "%s: read failed: %s", path, r < 0 ? strerror(e) : "file shrank");
        }
        got += (size_t)r;
    }
    close(fd);
    *out = buf;
    *len = n;
    return 0;
}

int gm_file_map(gm_map_t *m, const char *path, gm_map_advice_t advice, err_t *err)
{
    memset(m, 0, sizeof *m);
    int fd;
    struct stat st;
    int rc = open_stat(&fd, &st, path, err);
    if (rc)
        return rc;
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return gm_err_set(err, GM_EIO, "%s: not a regular file", path);
    }
    size_t n = (size_t)st.st_size;
    if (n == 0) {
        close(fd);
        return 0;
    }
    void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED)
        return gm_err_set(err, GM_EIO, "%s: cannot map %zu bytes: %s", path, n, strerror(e));
    if (advice == GM_MAP_SEQUENTIAL)
        (void)madvise(p, n, MADV_SEQUENTIAL);
    else if (advice == GM_MAP_WILLNEED)
        (void)madvise(p, n, MADV_WILLNEED);
    m->data = p;
    m->size = n;
    return 0;
}

void gm_file_unmap(gm_map_t *m)
{
    if (m->data)
        munmap((void *)m->data, m->size);
    m->data = NULL;
    m->size = 0;
}

void gm_file_drop(const void *p, size_t n)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

int gm_pread_full(int fd, void *buf, size_t n, uint64_t off)
{
    uint8_t *p = buf;
    while (n > 0) {
        /* Linux transfers at most 0x7ffff000 bytes per call. */
        size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
        ssize_t r = pread(fd, p, chunk, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 ? errno : EIO;
        p += r, n -= (size_t)r, off += (uint64_t)r;
    }
    return 0;
}
