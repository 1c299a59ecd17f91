/*
 * params/manifest.c — parameter digests, the manifest that lists them, and
 * the cache lock.
 *
 * DESIGN
 *  - The digest is Filecoin's (rust-fil-proofs parampublish / paramfetch):
 *    BLAKE2b-512 of the whole file, lower-case hex, its first 32 characters
 *    (the first 16 bytes). So a Filecoin parameters.json checks our files and
 *    our manifest checks Filecoin's.
 *  - The manifest is a JSON object keyed by file name (no directory), as
 *    parameters.json is: {"porep-2048.params": {"digest": "...", "size": N,
 *    "circuit": "porep-2048"}}. Readers need only "digest"; other keys
 *    (Filecoin's "cid", "sector_size") are ignored, so either file can be
 *    given wherever a manifest is read.
 *  - Writes are atomic (gm_file_write): read, change one entry, write
 *    the whole object back. Two writers at once keep one of the two writes
 *    (a Slurm array's tasks record the same digest for the same file, so
 *    nothing is lost in the case that happens).
 *  - The file is read in 4 MiB pieces (no mmap: the digest of a 47 GB file
 *    must not need 47 GB of address space pinned at once, and a read error
 *    is a message, not a SIGBUS).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "params/params.h"

#define DIGEST_CHUNK (4u << 20)

int params_file_digest(char out[PARAMS_DIGEST_HEX + 1], uint64_t *size, const char *path, err_t *err)
{
    int rc = 0;
    EVP_MD_CTX *ctx = NULL;
    uint8_t *buf = NULL;
    uint64_t total = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    buf = malloc(DIGEST_CHUNK);
    ctx = EVP_MD_CTX_new();
    if (!buf || !ctx) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory for the digest", path);
        goto out;
    }
    if (EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL) != 1) {
        rc = gm_err_set(err, GM_ESYS, "%s: BLAKE2b-512 is not available in this libcrypto", path);
        goto out;
    }
    for (;;) {
        ssize_t n = read(fd, buf, DIGEST_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = gm_err_set(err, GM_EIO, "%s: read failed: %s", path, strerror(errno));
            goto out;
        }
        if (n == 0)
            break;
        EVP_DigestUpdate(ctx, buf, (size_t)n);
        total += (uint64_t)n;
    }
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    EVP_DigestFinal_ex(ctx, md, &mdlen);
    GM_ASSERT(mdlen * 2 >= PARAMS_DIGEST_HEX);
    gm_hex_encode(out, md, PARAMS_DIGEST_HEX / 2);
    if (size)
        *size = total;
out:
    EVP_MD_CTX_free(ctx);
    free(buf);
    close(fd);
    return rc;
}

/* Reads a manifest: *out is NULL (with rc 0) when the file does not exist. */
static int manifest_read(json_t **out, const char *manifest, err_t *err)
{
    *out = NULL;
    if (access(manifest, F_OK) != 0 && errno == ENOENT)
        return 0;
    json_error_t je;
    json_t *root = json_load_file(manifest, 0, &je);
    if (!root)
        return gm_err_set(err, GM_EFORMAT, "%s: line %d: %s", manifest, je.line, je.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return gm_err_set(err, GM_EFORMAT, "%s: not a JSON object of file name -> {\"digest\": ...}", manifest);
    }
    *out = root;
    return 0;
}

static bool digest_ok(const char *d)
{
    if (strlen(d) != PARAMS_DIGEST_HEX)
        return false;
    for (const char *p = d; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

int params_manifest_check(bool *listed, const char *manifest, const char *name, const char *digest,
                           const char *file, err_t *err)
{
    *listed = false;
    json_t *root;
    int rc = manifest_read(&root, manifest, err);
    if (rc || !root)
        return rc;
    json_t *e = json_object_get(root, name);
    if (!e) {
        json_decref(root);
        return 0;
    }
    json_t *d = json_is_object(e) ? json_object_get(e, "digest") : NULL;
    const char *want = json_is_string(d) ? json_string_value(d) : NULL;
    if (!want || !digest_ok(want)) {
        rc = gm_err_set(err, GM_EFORMAT, "%s: %s.digest: not %d lower-case hex digits", manifest, name,
                        PARAMS_DIGEST_HEX);
    } else if (strcmp(want, digest) != 0) {
        rc = gm_err_set(err, GM_EVERIFY,
                        "%s: BLAKE2b digest %s, but %s lists %s for %s: the file changed or is not the one the "
                        "manifest names; replace it (or regenerate it and its manifest entry with grothmpi setup "
                        "--force)",
                        file, digest, manifest, want, name);
    } else {
        *listed = true;
    }
    json_decref(root);
    return rc;
}

int params_manifest_record(const char *manifest, const char *name, const char *digest, uint64_t size,
                            const char *circuit, err_t *err)
{
    json_t *root;
    int rc = manifest_read(&root, manifest, err);
    if (rc)
        return rc;
    if (!root && !(root = json_object()))
        return gm_err_set(err, GM_ENOMEM, "%s: out of memory", manifest);
    json_t *e = json_object();
    char *text = NULL;
    if (!e || json_object_set_new(e, "digest", json_string(digest)) ||
        json_object_set_new(e, "size", json_integer((json_int_t)size)) ||
        (circuit && json_object_set_new(e, "circuit", json_string(circuit))) || json_object_set_new(root, name, e)) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", manifest);
        goto out;
    }
    e = NULL; /* owned by root now */
    text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
    if (!text) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", manifest);
        goto out;
    }
    size_t n = strlen(text);
    char *t2 = realloc(text, n + 2);
    if (!t2) {
        rc = gm_err_set(err, GM_ENOMEM, "%s: out of memory", manifest);
        goto out;
    }
    text = t2;
    text[n] = '\n';
    text[n + 1] = 0;
    rc = gm_file_write(manifest, text, n + 1, err);
out:
    free(text);
    json_decref(e);
    json_decref(root);
    return rc;
}

int params_cache_lock(int *fd, const char *dir, bool block, err_t *err)
{
    char path[4096];
    *fd = -1;
    if (snprintf(path, sizeof path, "%s/%s", dir, PARAMS_LOCK_NAME) >= (int)sizeof path)
        return gm_err_set(err, GM_EIO, "%s: path too long for its lock file", dir);
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (f < 0) {
        /* A read-only or foreign cache, or none yet: no setup or record
         * can happen there, so there is nothing to serialize. */
        if (errno == EROFS || errno == EACCES || errno == EPERM || errno == ENOENT || errno == ENOTDIR)
            return 0;
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    }
    for (;;) {
        if (flock(f, LOCK_EX | (block ? 0 : LOCK_NB)) == 0)
            break;
        if (errno == EINTR)
            continue;
        int e = errno;
        close(f);
        if (!block && e == EWOULDBLOCK)
            return gm_err_set(err, GM_ESTATE, "%s: held by another process", path);
        return gm_err_set(err, GM_EIO, "%s: cannot lock: %s", path, strerror(e));
    }
    *fd = f;
    return 0;
}

void params_cache_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing the descriptor releases the flock */
}
