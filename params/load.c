/*
 * params/load.c — params_load: the one policy for loading a parameter file
 * (params.h says what it decides), and the points file beside it.
 *
 * Order of the steps, and why:
 *  1. the digest (stamped, so an unchanged file is hashed once in its life);
 *  2. whether the digest is vouched for (.checked, Filecoin's
 *     parameters.json, the caller);
 *  3. a vouched-for file's points file, mapped when its stamp and header say
 *     it was made from this very file (a load in milliseconds);
 *  4. otherwise the decode (checked or not), then .checked after a full
 *     check, then the points file when the disk has room;
 *  5. the file's identity again: a file replaced while it was loaded is
 *     refused, since the digest would then describe other bytes.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "params/params.h"
#include "params/params_internal.h"

typedef enum { POINTS_AUTO, POINTS_ON, POINTS_OFF } points_mode_t;

static int points_mode(points_mode_t *m, err_t *err)
{
    const char *v = getenv("GROTHMPI_POINTS_CACHE");
    *m = POINTS_AUTO;
    if (!v || !*v || strcmp(v, "auto") == 0)
        return 0;
    if (strcmp(v, "on") == 0)
        *m = POINTS_ON;
    else if (strcmp(v, "off") == 0)
        *m = POINTS_OFF;
    else
        return gm_err_set(err, GM_EINVAL, "GROTHMPI_POINTS_CACHE: '%s' is not auto, on or off", v);
    return 0;
}

/* Whether to stream file (params.h): GROTHMPI_PARAMS_STREAM, and in auto
 * mode the decoded size against physical memory. why: the note's reason. */
static int stream_choice(bool *stream, char *why, size_t n, const char *file, err_t *err)
{
    const char *v = getenv("GROTHMPI_PARAMS_STREAM");
    *stream = false;
    why[0] = '\0';
    if (v && *v && strcmp(v, "auto") != 0) {
        if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
            return gm_err_set(err, GM_EINVAL, "GROTHMPI_PARAMS_STREAM: '%s' is not auto, on or off", v);
        *stream = strcmp(v, "on") == 0;
        snprintf(why, n, "GROTHMPI_PARAMS_STREAM=%s", v);
        return 0;
    }
    uint64_t dec;
    int rc = groth16_params_decoded_bytes(&dec, file, err);
    if (rc)
        return rc;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
    uint64_t mem = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
    if (mem && dec > mem / 100 * PARAMS_STREAM_SHARE) {
        *stream = true;
        snprintf(why, n, "decoded, its points would take %.1f GiB of this node's %.1f GiB (GROTHMPI_PARAMS_STREAM=off "
                 "decodes them anyway)", (double)dec / (1ULL << 30), (double)mem / (1ULL << 30));
    }
    return 0;
}

/* "<file><suffix>" into out; false when it does not fit. */
static bool beside(char *out, size_t n, const char *file, const char *suffix)
{
    return (size_t)snprintf(out, n, "%s%s", file, suffix) < n;
}

/* True when a Filecoin parameters.json in file's directory lists file's
 * name with this digest. Another digest there is an error: that file is
 * not the one Filecoin published. */
static int filecoin_listed(bool *listed, const char *file, const char *digest, err_t *err)
{
    *listed = false;
    char dir[GM_PATH_MAX], name[GM_PATH_MAX], manifest[GM_PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s", file);
    snprintf(name, sizeof name, "%s", file);
    snprintf(manifest, sizeof manifest, "%s/parameters.json", dirname(dir));
    if (access(manifest, R_OK) != 0)
        return 0;
    return params_manifest_check(listed, manifest, basename(name), digest, file, err);
}

/* Bytes free to an unprivileged writer in the file system of path, and its
 * size; false when statvfs fails. */
static bool fs_room(uint64_t *avail, uint64_t *total, const char *path)
{
    struct statvfs v;
    if (statvfs(path, &v) != 0)
        return false;
    *avail = (uint64_t)v.f_bavail * v.f_frsize;
    *total = (uint64_t)v.f_blocks * v.f_frsize;
    return true;
}

/* Step 3: the points file, when its stamp and header name this file. */
static bool map_points(groth16_params_t **out, const char *points, const char *stamp, const char *file,
                       const params_loaded_t *info, const cs_shape_t *shape, params_note_fn note, void *arg)
{
    params_ident_t pid;
    if (access(points, F_OK) != 0 || params_ident(&pid, points, NULL) != 0)
        return false;
    if (!params_stamp_matches(stamp, &pid)) {
        params_notef(note, arg, "params: %s: changed since it was written (%s): converting again", points, stamp);
        return false;
    }
    err_t e;
    gm_err_clear(&e);
    if (groth16_params_map_points(out, points, file, info->digest, info->ident.size, shape, &e) != 0) {
        params_notef(note, arg, "params: %s: %s: converting again", points, e.msg);
        return false;
    }
    return true;
}

/* Step 4's last part: the points file, when the mode and the disk allow. */
static void write_points(params_loaded_t *info, const groth16_params_t *p, points_mode_t mode, const char *points,
                         const char *stamp, params_note_fn note, void *arg)
{
    uint64_t need = groth16_params_points_size(p), avail = 0, total = 0;
    char dir[GM_PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s", points);
    bool known = fs_room(&avail, &total, dirname(dir));
    if (mode == POINTS_AUTO && (!known || avail < need || avail - need < total / 100 * PARAMS_POINTS_SPARE)) {
        params_notef(note, arg,
               "params: no points file: %s would take %.1f GiB and leave less than %d%% of its file system free "
               "(%.1f GiB free); each load converts the points (GROTHMPI_POINTS_CACHE=on writes it anyway)",
               points, (double)need / (1ULL << 30), PARAMS_POINTS_SPARE, (double)avail / (1ULL << 30));
        return;
    }
    err_t e;
    gm_err_clear(&e);
    params_ident_t pid;
    if (groth16_params_save_points(p, points, info->digest, info->ident.size, &e) != 0 ||
        params_ident(&pid, points, &e) != 0 || params_stamp_write(stamp, &pid, &e) != 0) {
        params_notef(note, arg, "params: no points file: %s", e.msg);
        return;
    }
    info->points_written = true;
    params_notef(note, arg, "params: converted points written to %s (%.1f GiB, GROTHMPI_POINTS_CACHE=off to skip): the "
           "next load maps them", points, (double)need / (1ULL << 30));
}

int params_load(groth16_params_t **out, params_loaded_t *info, const char *file, const cs_shape_t *shape,
                unsigned flags, topo_pool_t *pool, params_note_fn note, void *note_arg, err_t *err)
{
    *out = NULL;
    memset(info, 0, sizeof *info);
    uint64_t t0 = gm_now_ns();
    char stamp[GM_PATH_MAX + 32], checked[GM_PATH_MAX + 32], points[GM_PATH_MAX + 32], pstamp[GM_PATH_MAX + 32];
    if (!beside(stamp, sizeof stamp, file, ".stamp") || !beside(checked, sizeof checked, file, ".checked") ||
        !beside(points, sizeof points, file, ".points") || !beside(pstamp, sizeof pstamp, file, ".points.stamp"))
        return gm_err_set(err, GM_EINVAL, "%s: parameter file name too long", file);
    points_mode_t mode;
    int rc = points_mode(&mode, err);
    if (rc)
        return rc;
    if (access(file, R_OK) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", file, strerror(errno));
    bool check = flags & PARAMS_LOAD_CHECK, write = !(flags & PARAMS_LOAD_NO_WRITE);

    /* 1, 2 */
    bool vouched = (flags & PARAMS_LOAD_TRUSTED) && !check;
    if (flags & PARAMS_LOAD_NO_HASH) {
        if ((rc = params_ident(&info->ident, file, err)))
            return rc;
        info->digest_from_stamp = params_stamp_digest(info->digest, stamp, &info->ident);
    } else if ((rc = params_digest_stamped(info->digest, &info->ident, &info->digest_from_stamp, file, stamp,
                                           flags & PARAMS_LOAD_REHASH, err))) {
        return rc;
    }
    bool listed = false, have_digest = info->digest[0] != '\0';
    if (check) {
        snprintf(info->how, sizeof info->how, "every point checked (--check-params)");
    } else if (vouched) {
        info->trusted = true;
        snprintf(info->how, sizeof info->how, "no per-point checks: vouched for by the caller");
    } else if (params_checked_at(checked, info->digest, info->ident.size)) {
        info->trusted = true;
        snprintf(info->how, sizeof info->how, "no per-point checks: digest %s passed them before (%s)",
                 info->digest, checked);
    } else if ((rc = filecoin_listed(&listed, file, info->digest, err))) {
        return rc;
    } else if (listed) {
        info->trusted = true;
        snprintf(info->how, sizeof info->how, "no per-point checks: digest %s is Filecoin's (parameters.json)",
                 info->digest);
    } else {
        snprintf(info->how, sizeof info->how, "every point checked: digest %s is not vouched for (no %s)",
                 info->digest, checked);
    }

    /* 3, 4 */
    groth16_params_t *p = NULL;
    char why[160];
    bool stream;
    if ((rc = stream_choice(&stream, why, sizeof why, file, err)))
        return rc;
    if (stream) {
        info->streamed = true;
        params_notef(note, note_arg, "params: %s: streamed from the file, each base read once per MSM (%s)", file,
                     why);
        if (!info->trusted)
            params_notef(note, note_arg, "params: %s: %s", file, info->how);
        rc = groth16_params_load(&p, file, shape, GROTH16_LOAD_STREAM | (info->trusted ? GROTH16_LOAD_TRUST : 0),
                                 pool, err);
        if (rc)
            return rc;
        info->checked_now = !info->trusted;
        size_t n = strlen(info->how);
        snprintf(info->how + n, sizeof info->how - n, "; streamed from the file");
    } else if (info->trusted && have_digest && mode != POINTS_OFF &&
               map_points(&p, points, pstamp, file, info, shape, note, note_arg)) {
        info->mapped = true;
        size_t n = strlen(info->how);
        snprintf(info->how + n, sizeof info->how - n, "; points mapped from %s", points);
    } else {
        if (!info->trusted)
            params_notef(note, note_arg, "params: %s: %s", file, info->how);
        rc = groth16_params_load(&p, file, shape, info->trusted ? GROTH16_LOAD_TRUST : GROTH16_LOAD_DEFAULT, pool,
                                 err);
        if (rc)
            return rc;
        info->checked_now = !info->trusted;
    }

    /* 5, before anything is recorded about the file */
    params_ident_t after;
    if ((rc = params_ident(&after, file, err)) == 0 && !params_ident_eq(&after, &info->ident))
        rc = gm_err_set(err, GM_EVERIFY, "%s: changed while it was being loaded", file);
    if (rc) {
        groth16_params_free(p);
        return rc;
    }
    if (info->checked_now && write) {
        err_t e;
        gm_err_clear(&e);
        if (params_checked_write(checked, info->digest, info->ident.size, &e))
            params_notef(note, note_arg, "params: every point checked, but no stamp: %s", e.msg);
        else
            params_notef(note, note_arg, "params: every point checked; recorded in %s (later loads skip the checks)",
                   checked);
    }
    if (!info->mapped && !info->streamed && write && mode != POINTS_OFF) {
        if (have_digest)
            write_points(info, p, mode, points, pstamp, note, note_arg);
        else
            params_notef(note, note_arg, "params: no points file for %s: its digest is not stamped (%s)", file, stamp);
    }
    info->ns = gm_now_ns() - t0;
    *out = p;
    return 0;
}
