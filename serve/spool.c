/*
 * serve/spool.c — the spool directory (docs/serve.md): its directories,
 * each server's lock and claims, the recovery of dead servers' claims,
 * failed/, and the client side (submit, a job's state, the spool's status).
 *
 * DESIGN
 *  - rename() is the only way a job moves, so a job is in exactly one
 *    directory at every instant, and of several servers renaming the same
 *    incoming file exactly one succeeds: that is the claim.
 *  - A server's directory appears under its final name only with its lock
 *    file inside and flocked (made as active/.ID.new, then renamed), so a
 *    directory in active/ whose lock can be taken belongs to a dead server.
 *  - A job's receipt in done/ is the commit point: recovery never requeues a
 *    job that has one, so a server killed between the receipt and the move
 *    of the job file does not cause a second proof.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "serve/serve_internal.h"

double sv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool sv_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= SERVE_NAME_LEN || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return false;
    }
    return true;
}

/* Makes dir when missing and checks that files can be created in it (as
 * root, permission bits stop nothing, so the check is a real file). */
static int dir_writable(const char *dir, const char *root, err_t *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: not writable: cannot create %s: %s", root, dir, strerror(errno));
    char probe[SERVE_PATH_LEN + 64];
    snprintf(probe, sizeof probe, "%s/.probe.%ld", dir, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: not writable: %s", root, strerror(errno));
    close(fd);
    unlink(probe);
    return 0;
}

int sv_spool_init(sv_spool_t *s, const char *root, bool create, err_t *err)
{
    memset(s, 0, sizeof *s);
    char abs[SERVE_PATH_LEN];
    if (root[0] == '/') {
        snprintf(abs, sizeof abs, "%s", root);
    } else {
        char cwd[SERVE_PATH_LEN];
        if (!getcwd(cwd, sizeof cwd))
            return gm_err_set(err, GM_EIO, "%s: cannot resolve: getcwd: %s", root, strerror(errno));
        if ((size_t)snprintf(abs, sizeof abs, "%s/%s", cwd, root) >= sizeof abs)
            return gm_err_set(err, GM_EINVAL, "%s: path too long", root);
    }
    size_t l = strlen(abs);
    while (l > 1 && abs[l - 1] == '/')
        abs[--l] = 0;
    if (l + 16 >= SERVE_PATH_LEN)
        return gm_err_set(err, GM_EINVAL, "%s: path too long", root);
    memcpy(s->root, abs, l + 1);
    snprintf(s->incoming, sizeof s->incoming, "%s/incoming", abs);
    snprintf(s->active, sizeof s->active, "%s/active", abs);
    snprintf(s->done, sizeof s->done, "%s/done", abs);
    snprintf(s->failed, sizeof s->failed, "%s/failed", abs);
    snprintf(s->servers, sizeof s->servers, "%s/servers", abs);
    struct stat st;
    if (!create) {
        if (stat(s->incoming, &st) != 0 || !S_ISDIR(st.st_mode))
            return gm_err_set(err, GM_EIO, "%s: not a spool (no incoming/)", abs);
        return 0;
    }
    if (mkdir(abs, 0777) != 0 && errno != EEXIST)
        return gm_err_set(err, GM_EIO, "%s: not writable: cannot create: %s", abs, strerror(errno));
    const char *dirs[] = {s->incoming, s->active, s->done, s->failed, s->servers};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        int rc = dir_writable(dirs[i], abs, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* rename + directory fsync of the target's directory. */
static int move(const char *from, const char *to, err_t *err)
{
    if (rename(from, to) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot move to %s: %s", from, to, strerror(errno));
    return gm_dir_fsync(to, err);
}

bool sv_has_receipt(const sv_spool_t *s, const char *name)
{
    char p[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
    snprintf(p, sizeof p, "%s/%s.receipt.json", s->done, name);
    return access(p, F_OK) == 0;
}

int sv_requeue(const sv_spool_t *s, const char *path, const char *name, err_t *err)
{
    char to[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
    snprintf(to, sizeof to, "%s/%s.json", sv_has_receipt(s, name) ? s->done : s->incoming, name);
    return move(path, to, err);
}

int sv_publish(const char *own, const char *to, const void *buf, size_t len, err_t *err)
{
    const char *b = strrchr(to, '/');
    char tmp[GM_PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s/.out-%s", own, b ? b + 1 : to) >= sizeof tmp)
        return gm_err_set(err, GM_EINVAL, "%s: path too long", to);
    int rc = gm_file_write(tmp, buf, len, err);
    return rc ? rc : move(tmp, to, err);
}

int sv_fail(const sv_spool_t *s, const char *own, const char *path, const char *name, const char *reason, err_t *err)
{
    char rp[SERVE_PATH_LEN + SERVE_NAME_LEN + 32], to[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
    snprintf(rp, sizeof rp, "%s/%s.reason", s->failed, name);
    snprintf(to, sizeof to, "%s/%s.json", s->failed, name);
    char line[GM_ERR_MSG_LEN + 2];
    size_t n = 0;
    for (const char *p = reason; *p && n < sizeof line - 2; p++)
        line[n++] = *p == '\n' ? ' ' : *p; /* one line, whatever the message held */
    line[n++] = '\n';
    int rc = sv_publish(own, rp, line, n, err);
    return rc ? rc : move(path, to, err);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    remove(path);
    return 0;
}

void sv_rmtree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* A job file name "NAME.json" with a valid NAME: NAME into name. */
static bool job_file(char name[SERVE_NAME_LEN], const char *file)
{
    size_t l = strlen(file);
    if (!ends_with(file, ".json") || l - 5 >= SERVE_NAME_LEN)
        return false;
    memcpy(name, file, l - 5);
    name[l - 5] = 0;
    return sv_name_ok(name);
}

/* Puts every claim in dir back (sv_requeue), removes the rest of dir's
 * contents (batch outputs, the lock) and dir. */
static void release_dir(const sv_spool_t *s, const char *dir, unsigned *requeued)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char name[SERVE_NAME_LEN], p[SERVE_PATH_LEN + 2 * SERVE_NAME_LEN + 64];
        if (!job_file(name, e->d_name))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        err_t e2;
        if (sv_requeue(s, p, name, &e2) == 0 && requeued)
            (*requeued)++;
    }
    closedir(d);
    sv_rmtree(dir);
}

int sv_server_lock(int *fd, char *dir, size_t n, const sv_spool_t *s, const char *id, err_t *err)
{
    char tmp[SERVE_PATH_LEN + 128], lock[SERVE_PATH_LEN + 160];
    snprintf(tmp, sizeof tmp, "%s/.%s.new", s->active, id);
    if ((size_t)snprintf(dir, n, "%s/%s", s->active, id) >= n)
        return gm_err_set(err, GM_EINVAL, "%s: path too long", s->active);
    if (mkdir(tmp, 0777) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    snprintf(lock, sizeof lock, "%s/lock", tmp);
    *fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (*fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot create: %s", lock, strerror(errno));
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        close(*fd);
        return gm_err_set(err, GM_EIO, "%s: cannot lock: %s", lock, strerror(errno));
    }
    int rc = move(tmp, dir, err);
    if (rc)
        close(*fd);
    return rc;
}

void sv_server_unlock(int fd, const char *dir, const sv_spool_t *s)
{
    release_dir(s, dir, NULL);
    close(fd);
}

static double mtime_of(const struct stat *st) { return (double)st->st_mtim.tv_sec + st->st_mtim.tv_nsec * 1e-9; }

/* Removes servers/ID.*.tmp.* : the temporaries of a dead server's status
 * and report files (no other process writes under its id). */
static void sweep_server_temps(const sv_spool_t *s, const char *id)
{
    DIR *d = opendir(s->servers);
    struct dirent *e;
    size_t l = strlen(id);
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, id, l) != 0 || e->d_name[l] != '.' || !strstr(e->d_name + l, ".tmp."))
            continue;
        char p[SERVE_PATH_LEN + 300];
        snprintf(p, sizeof p, "%s/%s", s->servers, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
}

int sv_recover(const sv_spool_t *s, const char *self, unsigned *requeued, err_t *err)
{
    *requeued = 0;
    DIR *d = opendir(s->active);
    if (!d)
        return gm_err_set(err, GM_EIO, "%s: cannot list: %s", s->active, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        bool making = e->d_name[0] == '.' && ends_with(e->d_name, ".new");
        if ((e->d_name[0] == '.' && !making) || !strcmp(e->d_name, self))
            continue;
        char dir[SERVE_PATH_LEN + 300], lock[SERVE_PATH_LEN + 320];
        snprintf(dir, sizeof dir, "%s/%s", s->active, e->d_name);
        snprintf(lock, sizeof lock, "%s/lock", dir);
        int fd = open(lock, O_RDWR | O_CLOEXEC);
        if (fd < 0)
            continue; /* another server recovered it a moment ago */
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            struct stat st;
            /* Still the directory we opened the lock of (not removed
             * meanwhile by another recovering server)? A server that died
             * while making its directory (".ID.new") claimed nothing. */
            /* A server making its directory holds the lock moments after
             * creating it: a ".new" is left alone for a minute. */
            if (stat(lock, &st) == 0 && (!making || sv_now() - mtime_of(&st) > 60)) {
                release_dir(s, dir, requeued);
                sweep_server_temps(s, e->d_name);
            }
        }
        close(fd);
    }
    closedir(d);
    return 0;
}

int sv_order(long long pa, double da, double ta, long long pb, double db, double tb)
{
    if (pa != pb)
        return pa > pb ? -1 : 1;
    da = da > 0 ? da : 1e300; /* no deadline: after every job with one */
    db = db > 0 ? db : 1e300;
    if (da != db)
        return da < db ? -1 : 1;
    return ta < tb ? -1 : ta > tb;
}

static int cmp_entry(const void *a, const void *b)
{
    const sv_entry_t *x = a, *y = b;
    int o = sv_order(x->priority, x->deadline, x->mtime, y->priority, y->deadline, y->mtime);
    return o ? o : strcmp(x->name, y->name);
}

int sv_list_incoming(sv_entry_t **out, size_t *n, const sv_spool_t *s, err_t *err)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(s->incoming);
    if (!d)
        return gm_err_set(err, GM_EIO, "%s: cannot list: %s", s->incoming, strerror(errno));
    uint64_t cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        char name[SERVE_NAME_LEN], p[SERVE_PATH_LEN + 300];
        if (!job_file(name, e->d_name))
            continue;
        snprintf(p, sizeof p, "%s/%s", s->incoming, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue; /* claimed by someone meanwhile */
        if (!gm_grow((void **)out, &cap, *n + 1, sizeof **out, 64)) {
            rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", s->incoming);
            break;
        }
        sv_entry_t *x = &(*out)[(*n)++];
        memcpy(x->name, name, sizeof x->name);
        x->mtime = mtime_of(&st);
        sv_job_peek(&x->priority, &x->deadline, p);
    }
    closedir(d);
    if (rc) {
        gm_free(*out);
        *out = NULL;
        *n = 0;
        return rc;
    }
    if (*n)
        qsort(*out, *n, sizeof **out, cmp_entry);
    return 0;
}

/* ---- the client side ---- */

/* The directory part of path ("." when none). */
static void dir_of(char *out, size_t n, const char *path)
{
    const char *sl = strrchr(path, '/');
    if (!sl)
        snprintf(out, n, ".");
    else if (sl == path)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(sl - path), path);
}

/* A small job's text with a relative "c1" made absolute against base (a new
 * malloc'd string in *out), or NULL in *out when the file is not a small
 * JSON object with a relative "c1". */
static int absolute_c1(char **out, const uint8_t *buf, size_t len, const char *file, err_t *err)
{
    *out = NULL;
    if (len > (64u << 10))
        return 0;
    json_error_t je;
    json_t *o = json_loadb((const char *)buf, len, 0, &je);
    if (!o)
        return 0; /* the server says why, in failed/ */
    json_t *c1 = json_object_get(o, "c1");
    int rc = 0;
    if (json_is_object(o) && json_is_string(c1) && json_string_value(c1)[0] != '/') {
        char base[SERVE_PATH_LEN], cwd[SERVE_PATH_LEN] = "", abs[3 * SERVE_PATH_LEN];
        dir_of(base, sizeof base, file);
        if (base[0] == '/')
            snprintf(abs, sizeof abs, "%s/%s", base, json_string_value(c1));
        else if (getcwd(cwd, sizeof cwd) && !strcmp(base, "."))
            snprintf(abs, sizeof abs, "%s/%s", cwd, json_string_value(c1));
        else if (cwd[0])
            snprintf(abs, sizeof abs, "%s/%s/%s", cwd, base, json_string_value(c1));
        else
            rc = gm_err_set(err, GM_EIO, "%s: c1: cannot resolve: getcwd: %s", file, strerror(errno));
        if (!rc) {
            json_object_set_new(o, "c1", json_string(abs));
            if (!(*out = json_dumps(o, JSON_INDENT(1))))
                rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", file);
        }
    }
    json_decref(o);
    return rc;
}

/* Whether name is taken anywhere in the spool (a claim in any server's
 * directory included). */
static bool name_taken(const sv_spool_t *s, const char *name)
{
    char p[GM_PATH_MAX];
    snprintf(p, sizeof p, "%s/%s.json", s->incoming, name);
    if (access(p, F_OK) == 0 || sv_has_receipt(s, name))
        return true;
    snprintf(p, sizeof p, "%s/%s.json", s->done, name);
    if (access(p, F_OK) == 0)
        return true;
    snprintf(p, sizeof p, "%s/%s.json", s->failed, name);
    if (access(p, F_OK) == 0)
        return true;
    DIR *d = opendir(s->active);
    bool hit = false;
    struct dirent *e;
    while (d && !hit && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%.200s/%s.json", s->active, e->d_name, name);
        hit = access(p, F_OK) == 0;
    }
    if (d)
        closedir(d);
    return hit;
}

int serve_submit(char *name_out, const char *spool, const char *file, const char *name, err_t *err)
{
    sv_spool_t s;
    int rc = sv_spool_init(&s, spool, false, err);
    if (rc)
        return rc;
    char nm[SERVE_NAME_LEN];
    if (name) {
        if (!sv_name_ok(name))
            return gm_err_set(err, GM_EINVAL, "--name: '%s' is not 1..63 of [A-Za-z0-9._-] not beginning with '.'",
                              name);
        snprintf(nm, sizeof nm, "%s", name);
    } else {
        /* The file's stem, cut to what is left after the unique part. */
        const char *b = strrchr(file, '/');
        b = b ? b + 1 : file;
        char stem[32];
        size_t k = 0;
        for (; b[k] && k < sizeof stem - 1 && strncmp(b + k, ".json", 6) != 0; k++) {
            char c = b[k];
            bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                      c == '-' || (c == '.' && k > 0);
            stem[k] = ok ? c : '_';
        }
        stem[k] = 0;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        snprintf(nm, sizeof nm, "%s-%llx%09ld-%ld", k ? stem : "job", (unsigned long long)ts.tv_sec, ts.tv_nsec,
                 (long)getpid());
    }
    if (name_taken(&s, nm))
        return gm_err_set(err, GM_EINVAL, "%s: a job named %s is already in the spool", s.root, nm);
    uint8_t *buf;
    size_t len;
    if ((rc = gm_file_read(&buf, &len, file, err)))
        return rc;
    char *text = NULL;
    if (!(rc = absolute_c1(&text, buf, len, file, err))) {
        char to[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
        snprintf(to, sizeof to, "%s/%s.json", s.incoming, nm);
        rc = text ? gm_file_write(to, text, strlen(text), err) : gm_file_write(to, buf, len, err);
    }
    free(text);
    gm_free(buf);
    if (!rc)
        snprintf(name_out, SERVE_NAME_LEN, "%s", nm);
    return rc;
}

serve_job_state_t serve_job_state(const char *spool, const char *name, char *path, char *reason, size_t n)
{
    sv_spool_t s;
    err_t e;
    if (sv_spool_init(&s, spool, false, &e) || !sv_name_ok(name))
        return SERVE_JOB_UNKNOWN;
    char p[SERVE_PATH_LEN + SERVE_NAME_LEN + 32];
    snprintf(p, sizeof p, "%s/%s.receipt.json", s.done, name);
    if (access(p, F_OK) == 0) {
        snprintf(path, n, "%s", p);
        return SERVE_JOB_DONE;
    }
    snprintf(p, sizeof p, "%s/%s.json", s.failed, name);
    if (access(p, F_OK) == 0) {
        snprintf(p, sizeof p, "%s/%s.reason", s.failed, name);
        FILE *f = fopen(p, "r");
        reason[0] = 0;
        if (f) {
            if (!fgets(reason, (int)n, f))
                reason[0] = 0;
            fclose(f);
        }
        reason[strcspn(reason, "\n")] = 0;
        return SERVE_JOB_FAILED;
    }
    snprintf(p, sizeof p, "%s/%s.json", s.incoming, name);
    if (access(p, F_OK) == 0)
        return SERVE_JOB_QUEUED;
    return name_taken(&s, name) ? SERVE_JOB_ACTIVE : SERVE_JOB_UNKNOWN;
}

/* Counts the files of dir ending in suffix; with `recent`, also those whose
 * mtime is within 60 s and 3600 s of now. */
static uint64_t count_files(const char *dir, const char *suffix, uint64_t *minute, uint64_t *hour)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint64_t n = 0;
    double now = sv_now();
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, suffix))
            continue;
        n++;
        if (minute) {
            char p[SERVE_PATH_LEN + 300];
            struct stat st;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            if (stat(p, &st) == 0) {
                double age = now - mtime_of(&st);
                *minute += age <= 60;
                *hour += age <= 3600;
            }
        }
    }
    closedir(d);
    return n;
}

/* Reads servers/<file> into *v; alive from the server's lock. */
static void read_server(serve_server_status_t *v, const sv_spool_t *s, const char *file)
{
    memset(v, 0, sizeof *v);
    snprintf(v->id, sizeof v->id, "%.*s", (int)(strlen(file) - 5), file);
    char p[SERVE_PATH_LEN + 300];
    snprintf(p, sizeof p, "%s/%s", s->servers, file);
    json_error_t je;
    json_t *o = json_load_file(p, 0, &je);
    if (o) {
        snprintf(v->state, sizeof v->state, "%s", json_string_value(json_object_get(o, "state")) ?: "?");
        v->ranks = (int)json_integer_value(json_object_get(o, "ranks"));
        v->batch = (uint64_t)json_integer_value(json_object_get(o, "batch"));
        v->in_flight = (uint64_t)json_integer_value(json_object_get(o, "in_flight"));
        v->proved = (uint64_t)json_integer_value(json_object_get(o, "proved"));
        v->failed = (uint64_t)json_integer_value(json_object_get(o, "failed"));
        v->proofs_per_hour = json_number_value(json_object_get(o, "proofs_per_hour"));
        v->updated = json_number_value(json_object_get(o, "updated"));
        json_t *rs = json_object_get(o, "rank_state");
        for (size_t i = 0; i < json_array_size(rs) && v->nranks < 64; i++) {
            json_t *r = json_array_get(rs, i);
            v->rank[v->nranks].rank = (int)json_integer_value(json_object_get(r, "rank"));
            snprintf(v->rank[v->nranks].host, sizeof v->rank[0].host, "%s",
                     json_string_value(json_object_get(r, "host")) ?: "?");
            snprintf(v->rank[v->nranks].backend, sizeof v->rank[0].backend, "%s",
                     json_string_value(json_object_get(r, "backend")) ?: "-");
            v->rank[v->nranks].jobs = (uint64_t)json_integer_value(json_object_get(r, "jobs"));
            v->rank[v->nranks].loads = (uint64_t)json_integer_value(json_object_get(r, "loads"));
            v->rank[v->nranks].load_s = json_number_value(json_object_get(r, "load_s"));
            v->nranks++;
        }
        json_t *sh = json_object_get(o, "shapes");
        for (size_t i = 0; i < json_array_size(sh) && v->nshapes < 16; i++) {
            json_t *x = json_array_get(sh, i);
            snprintf(v->shape[v->nshapes].circuit, sizeof v->shape[0].circuit, "%s",
                     json_string_value(json_object_get(x, "circuit")) ?: "?");
            v->shape[v->nshapes].batches = (uint64_t)json_integer_value(json_object_get(x, "batches"));
            v->shape[v->nshapes].loads = (uint64_t)json_integer_value(json_object_get(x, "loads"));
            v->shape[v->nshapes].load_s = json_number_value(json_object_get(x, "load_s"));
            v->shape[v->nshapes].bytes = (uint64_t)json_integer_value(json_object_get(x, "bytes"));
            v->nshapes++;
        }
        json_decref(o);
    } else {
        snprintf(v->state, sizeof v->state, "unreadable");
    }
    snprintf(p, sizeof p, "%s/%s/lock", s->active, v->id);
    int fd = open(p, O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
        v->alive = flock(fd, LOCK_EX | LOCK_NB) != 0;
        close(fd);
    }
}

int serve_status_read(serve_status_t *out, const char *spool, err_t *err)
{
    memset(out, 0, sizeof *out);
    sv_spool_t s;
    int rc = sv_spool_init(&s, spool, false, err);
    if (rc)
        return rc;
    out->incoming = count_files(s.incoming, ".json", NULL, NULL);
    out->done = count_files(s.done, ".receipt.json", &out->done_last_minute, &out->done_last_hour);
    out->failed = count_files(s.failed, ".reason", NULL, NULL);
    DIR *d = opendir(s.active);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[SERVE_PATH_LEN + 300];
        snprintf(p, sizeof p, "%s/%s", s.active, e->d_name);
        out->active += count_files(p, ".json", NULL, NULL);
    }
    if (d)
        closedir(d);
    d = opendir(s.servers);
    uint64_t cap = 0;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".json") || ends_with(e->d_name, ".report.json"))
            continue;
        if (!gm_grow((void **)&out->servers, &cap, out->nservers + 1, sizeof *out->servers, 4)) {
            closedir(d);
            serve_status_free(out);
            return gm_err_set(err, GM_ENOMEM, "%s: out of memory", s.servers);
        }
        read_server(&out->servers[out->nservers++], &s, e->d_name);
    }
    if (d)
        closedir(d);
    return 0;
}

void serve_status_free(serve_status_t *s)
{
    gm_free(s->servers);
    memset(s, 0, sizeof *s);
}
