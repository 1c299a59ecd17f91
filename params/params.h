/*
 * params/params.h — the parameter cache: the one owner of a cache
 * directory's file names, its lock, its manifest of digests, its stamps and
 * its shapes, used by `grothmpi setup`, `grothmpi prove`, campaigns (mpi/)
 * and the benches.
 *
 * A cache directory holds, per circuit id (circuits/circuits.h's circuit_t.id):
 *   <id>.params          bellperson Parameters layout (groth16/)
 *   <id>.vk              the verifying key
 *   <id>.shape           the recorded shape (synth/'s cache format)
 *   <id>.setup           how the test parameters were made (circuit, seed, counts)
 *   <id>.params.stamp    the file identity (device, inode, size, mtime) under
 *                        which <id>.params last had its digest computed, and
 *                        that digest: an unchanged file is not hashed again
 *   <id>.shape.stamp     the identity under which <id>.shape last passed
 *                        every index check: an unchanged file is not walked
 *   <id>.params.checked  the digest whose points all passed the subgroup check
 * and, for the whole directory, manifest.json (Filecoin-style digests, keyed
 * by file name) and the lock file .grothmpi-lock.
 *
 * Conventions (besides base/base.h's): fallible functions are
 * warn_unused_result, fill err with the path and the call, and never print;
 * what a caller may want to show (waiting for a lock, a digest recorded on
 * first use) comes through a params_note_fn. Writes are atomic (base/).
 *
 * Why stamps are safe to trust: a changed file gets a new mtime (and, when
 * replaced by rename as every writer here does, a new inode); size, mtime to
 * the nanosecond and inode all unchanged means the same bytes unless someone
 * wrote the file in place and reset its mtime by hand. --check-params and
 * `grothmpi params verify` ignore the stamps and do the full work.
 */
#ifndef GM_PARAMS_H
#define GM_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "circuits/circuits.h"
#include "groth16/groth16.h"
#include "synth/synth.h"

/* ---- names --------------------------------------------------------------------------- */

#define PARAMS_DIGEST_HEX 32
#define PARAMS_MANIFEST_NAME "manifest.json"
#define PARAMS_LOCK_NAME ".grothmpi-lock"

/* The paths of one circuit's files in a cache directory. */
typedef struct {
    char dir[GM_PATH_MAX];
    char id[64];
    char name[96];                   /* "<id>.params": its key in the manifest */
    char params[GM_PATH_MAX + 96];
    char vk[GM_PATH_MAX + 96];
    char shape[GM_PATH_MAX + 96];
    char setup[GM_PATH_MAX + 96];
    char params_stamp[GM_PATH_MAX + 96];
    char shape_stamp[GM_PATH_MAX + 96];
    char checked[GM_PATH_MAX + 96];
    char manifest[GM_PATH_MAX + 96];
} params_paths_t;

/* Fills *p for circuit id in cache directory dir. Returns 0 or GM_EINVAL
 * (dir or id too long; err names them). */
int params_paths(params_paths_t *p, const char *dir, const char *id, err_t *err) __attribute__((warn_unused_result));

/* ---- digests and manifests ------------------------------------------------------------
 *
 * The digest of a parameter file is Filecoin's: BLAKE2b-512 of the whole
 * file, lower-case hex, the first PARAMS_DIGEST_HEX characters (as in
 * rust-fil-proofs' parameters.json). A manifest is a JSON object keyed by
 * file name (no directory): {"<name>": {"digest": "<32 hex>", "size": N,
 * "circuit": "<id>"}}; a Filecoin parameters.json ({"<name>": {"cid",
 * "digest", "sector_size"}}) reads the same way (only "digest" is needed).
 */

/* The digest of the file at path (NUL-terminated hex into out) and, when size
 * is not NULL, its length in bytes; the file is read once, sequentially.
 * Returns 0, GM_EIO (open/read: err names the path), GM_ENOMEM or GM_ESYS
 * (libcrypto without BLAKE2b). */
int params_file_digest(char out[PARAMS_DIGEST_HEX + 1], uint64_t *size, const char *path, err_t *err)
    __attribute__((warn_unused_result));

/* Checks digest (of the file named file, for messages) against manifest's
 * entry for name. *listed: true when the entry exists and matches. A missing
 * manifest or a manifest without the name is not an error (*listed false,
 * returns 0): the caller decides. Returns 0, GM_EVERIFY (listed with another
 * digest: err names file, both digests and the manifest), GM_EFORMAT (the
 * manifest is not JSON, not an object, or the entry has no 32-hex-digit
 * "digest": err names the manifest and the key) or GM_EIO. */
int params_manifest_check(bool *listed, const char *manifest, const char *name, const char *digest, const char *file,
                          err_t *err) __attribute__((warn_unused_result));

/* Sets manifest's entry for name to {digest, size, circuit} (circuit may be
 * NULL: no key), creating the manifest when missing and keeping every other
 * entry; written atomically. Returns 0, GM_EFORMAT (an existing manifest
 * that does not parse: it is left alone), GM_EIO or GM_ENOMEM. */
int params_manifest_record(const char *manifest, const char *name, const char *digest, uint64_t size,
                           const char *circuit, err_t *err) __attribute__((warn_unused_result));

/* ---- the lock ------------------------------------------------------------------------
 *
 * An exclusive flock(2) on DIR/PARAMS_LOCK_NAME, so that processes sharing one
 * cache (two Slurm array tasks with "setup": "auto", a `grothmpi setup` next
 * to a campaign) generate each parameter set once and never lose each
 * other's manifest entries. *fd receives the lock for params_cache_unlock.
 * With block false, a lock held by another process returns GM_ESTATE at once
 * instead of waiting. A directory where the lock file cannot be created
 * (missing or read-only: nothing can be generated or recorded there) yields
 * *fd = -1 and 0. Returns 0, GM_ESTATE (held elsewhere, block false) or
 * GM_EIO (err names the lock file). */
int params_cache_lock(int *fd, const char *dir, bool block, err_t *err) __attribute__((warn_unused_result));

/* Releases a lock from params_cache_lock; -1 is allowed. */
void params_cache_unlock(int fd);

/* ---- file identity and stamps ----------------------------------------------------------- */

/* What identifies a file's contents without reading them. */
typedef struct {
    uint64_t dev, ino, size;
    int64_t mtime_ns;
} params_ident_t;

/* stat(2) of path into *id. Returns 0 or GM_EIO (err names path). */
int params_ident(params_ident_t *id, const char *path, err_t *err) __attribute__((warn_unused_result));

bool params_ident_eq(const params_ident_t *a, const params_ident_t *b);

/* ---- ensuring a circuit's files ---------------------------------------------------------- */

/* A line for the user (waiting for the lock, a shape recorded again, a digest
 * recorded on first use, a digest taken from its stamp). */
typedef void (*params_note_fn)(void *arg, const char *line);

/* Runs the Groth16 setup: writes params_path and vk_path from shape and seed
 * (groth16_setup on a pool of `threads`, or a caller's version of it with
 * progress lines). Returns as groth16_setup. */
typedef int (*params_setup_fn)(void *arg, const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES],
                               const char *params_path, const char *vk_path, err_t *err);

typedef enum {
    PARAMS_ENSURE_DEFAULT = 0,   /* use what is there; a missing file is an error */
    PARAMS_ENSURE_GENERATE = 1,  /* make missing test parameters (setup "auto", `grothmpi setup`) */
    PARAMS_ENSURE_FORCE = 2,     /* make them even when cached (`grothmpi setup --force`) */
    PARAMS_ENSURE_FULL = 4,      /* hash the parameter file even when its stamp matches (--check-params) */
} params_ensure_flags_t;

typedef struct {
    const uint8_t *seed;       /* NULL: a random seed (when generating) */
    unsigned threads;          /* setup pool size; 0: all CPUs */
    params_setup_fn setup;     /* NULL: groth16_setup */
    void *setup_arg;
    params_note_fn note;       /* NULL: no notes */
    void *note_arg;
    const char *campaign;      /* for messages ("c.json: params: ..."); NULL: none */
} params_ensure_opts_t;

/* What params_ensure found or made. */
typedef struct {
    bool generated;                       /* parameters (and shape) made now */
    bool shape_recorded;                  /* the shape recorded now (with the parameters, or alone) */
    bool digest_from_stamp;               /* the parameter file was not hashed: its stamp matched */
    bool first_use;                       /* the digest was not in the manifest and was recorded now */
    uint8_t seed[GROTH16_SEED_BYTES];     /* when generated */
    char digest[PARAMS_DIGEST_HEX + 1];   /* of <id>.params */
    params_ident_t ident;                 /* <id>.params as it was when digested (or stamped) */
    groth16_counts_t counts;              /* when generated */
    uint64_t n_constraints, n_inputs, n_aux; /* when the shape was recorded */
} params_ensure_t;

/* Under the cache lock (waiting for another holder after a note): makes the
 * directory when generating; makes the circuit's parameters, verifying key,
 * shape, .setup record and manifest entry when any of .params, .vk, .shape is
 * missing (PARAMS_ENSURE_GENERATE) or always (PARAMS_ENSURE_FORCE); records
 * the shape alone when only its file is missing or of an older format (the
 * shape is deterministic; the parameters stay); then takes the parameter
 * file's digest (from its stamp when unchanged, unless PARAMS_ENSURE_FULL)
 * and checks it against the manifest: listed with another digest is refused,
 * not listed is recorded (trust on first use; a read-only cache only notes
 * that the file went unchecked). Returns 0, GM_EINVAL (files missing and not
 * generating: err names the campaign or the directory and the files),
 * GM_EVERIFY (another digest in the manifest, or the file changed while it was
 * hashed), GM_EIO, GM_ENOMEM, GM_ESYS or groth16_setup's errors. */
int params_ensure(params_ensure_t *out, const params_paths_t *p, const circuit_t *c, unsigned flags,
                  const params_ensure_opts_t *o, err_t *err) __attribute__((warn_unused_result));

/* Records the shape of c in the cache (the name every reader of the cache
 * uses) and stamps it as checked. Returns as circuit_shape and cs_shape_save. */
int params_shape_record(cs_shape_t **out, const params_paths_t *p, const circuit_t *c, err_t *err)
    __attribute__((warn_unused_result));

/* Loads the cached shape. When its stamp says this very file passed every
 * index check before (and full is false), the per-term checks are skipped
 * (cs_shape_load_unchecked); otherwise it is loaded with every check and,
 * when they pass, stamped. *stamped (may be NULL) tells which. Returns as
 * cs_shape_load. */
int params_shape_load(cs_shape_t **out, bool *stamped, const params_paths_t *p, bool full, err_t *err)
    __attribute__((warn_unused_result));

/* ---- the subgroup-check stamp ---------------------------------------------------------- */

/* True when <id>.params.checked names this digest and size: a file with this
 * digest passed every point's subgroup check before. */
bool params_checked_matches(const params_paths_t *p, const char *digest, uint64_t size);

/* Writes <id>.params.checked for this digest and size. Returns 0 or GM_EIO. */
int params_checked_record(const params_paths_t *p, const char *digest, uint64_t size, err_t *err)
    __attribute__((warn_unused_result));

/* ---- loading: the one policy ----------------------------------------------------------
 *
 * Every prover that loads a whole parameter file (prove, campaigns, benches)
 * goes through params_load, which decides how much to check:
 *  - a file whose digest is vouched for is loaded without per-point checks
 *    (bellperson's practice): "<file>.checked" names its digest (our setup
 *    writes it for the points it made; a full check writes it after every
 *    point passed), or a Filecoin parameters.json next to the file lists it
 *    with this digest, or the caller vouches (PARAMS_LOAD_TRUSTED: the node's
 *    first rank checked it);
 *  - any other file has every point checked (subgroup included), and then
 *    gets its "<file>.checked";
 *  - PARAMS_LOAD_CHECK | PARAMS_LOAD_REHASH (--check-params) hashes the
 *    file again and checks every point whatever the stamps say.
 * The digest comes from "<file>.stamp" when the file is unchanged (params
 * cache.c's stamps), so a vouched-for file is not even hashed twice.
 *
 * The converted points (groth16_params_save_points) live in "<file>.points"
 * with "<file>.points.stamp": a later load of a vouched-for file maps them
 * directly. GROTHMPI_POINTS_CACHE chooses: "auto" (default) writes them when
 * the file system keeps PARAMS_POINTS_SPARE of its size free afterwards,
 * "on" always, "off" never (nor reads them). Each choice is one note line.
 *
 * A parameter set too large to decode into memory is streamed instead
 * (GROTH16_LOAD_STREAM: the prover reads each base from the file once per
 * MSM, a chunk at a time, and the points file is neither read nor written).
 * GROTHMPI_PARAMS_STREAM chooses: "auto" (default) streams when the decoded
 * points would take more than PARAMS_STREAM_SHARE percent of the node's
 * memory, "on" always, "off" never. The choice is one note line.
 */

/* The share of physical memory above which "auto" streams, in percent. */
#define PARAMS_STREAM_SHARE 50

typedef enum {
    PARAMS_LOAD_DEFAULT = 0,
    PARAMS_LOAD_CHECK = 1,    /* check every point, whatever .checked and the points file say */
    PARAMS_LOAD_TRUSTED = 2,  /* the caller vouches for this file: no per-point checks */
    PARAMS_LOAD_NO_WRITE = 4, /* never write stamps or the points file (another rank of the node does) */
    PARAMS_LOAD_REHASH = 8,   /* hash the file even when its digest stamp matches */
    PARAMS_LOAD_NO_HASH = 16, /* never hash: the digest only from its stamp (every rank of a node may be
                                 loading at once); without one, no points file is read or written */
} params_load_flags_t;

/* The share of a file system that writing the points file must leave free
 * (auto mode), in percent. */
#define PARAMS_POINTS_SPARE 10

/* How a parameter set was loaded. */
typedef struct {
    char digest[PARAMS_DIGEST_HEX + 1];
    params_ident_t ident;    /* of the parameter file, unchanged from the digest to the end of the load */
    bool digest_from_stamp;  /* the file was not hashed: its stamp matched */
    bool trusted;            /* no per-point checks (why: in how) */
    bool checked_now;        /* every point was checked by this load */
    bool mapped;             /* the points were mapped from the points file */
    bool points_written;     /* the points file was written by this load */
    bool streamed;           /* the queries stay in the file (GROTH16_LOAD_STREAM) */
    uint64_t ns;             /* wall time of the whole load */
    char how[2 * GM_PATH_MAX + 200]; /* one line for the user: what was checked or trusted, and why */
} params_loaded_t;

/* Loads the parameter file at file (a cache's <id>.params, or Filecoin's
 * file in its own directory) for shape (NULL: counts not checked) by the
 * policy above, on pool. note (may be NULL) gets the lines worth showing a
 * user (a full check and why, the points file written or not and why).
 * Returns 0, GM_EINVAL (a bad GROTHMPI_POINTS_CACHE or GROTHMPI_PARAMS_STREAM), GM_EVERIFY (the file
 * changed while it was loaded, or a manifest lists another digest), or
 * groth16_params_load's and params_file_digest's errors; *out NULL then.
 * A damaged or stale points file is not an error: it is converted again. */
int params_load(groth16_params_t **out, params_loaded_t *info, const char *file, const cs_shape_t *shape,
                unsigned flags, topo_pool_t *pool, params_note_fn note, void *note_arg, err_t *err)
    __attribute__((warn_unused_result));

/* ---- PoRep seals verified against a parameter directory's keys (seals.c) ------------- */

/* Where params_seals_verify finds each seal's verifying key: exactly one of
 * vk (one key for every seal) and params_dir (each seal's key by Filecoin's
 * v28 file name, porep_param_find); manifest, when not NULL (a manifest.json
 * or Filecoin's parameters.json), must list each key's digest before the
 * key is used. */
typedef struct {
    const char *vk, *params_dir, *manifest;
} params_seal_keys_t;

/* Verifies seals[0 .. n) (porep_seal_info_read's, or built by the caller)
 * as rust-fil-proofs' verify_seal: replica_id, challenges, parents and every
 * public input derived from the seal's public data, then every partition's
 * Groth16 proof checked, all partitions of the seals sharing a key in one
 * batch (a failing batch is redone per seal). Entries whose status is not 0
 * on entry are left as they are. Afterwards seals[i].status is 0 exactly for
 * the seals that verify; for the others it is the cause (GM_EVERIFY: the
 * proof does not verify, or the key's digest is not in the manifest; GM_EFORMAT: a proof of the wrong size or encoding,
 * GM_EINVAL: a key of another circuit, GM_ENOTSUP: a NonInteractivePoRep
 * aggregate, GM_EIO: a key missing or unreadable)
 * and seals[i].msg says why, starting with the seal's label. Returns 0, or
 * GM_ENOMEM (nothing verified; the seals untouched). */
int params_seals_verify(porep_seal_info_t *seals, size_t n, const params_seal_keys_t *keys, err_t *err)
    __attribute__((warn_unused_result));

#endif /* GM_PARAMS_H */
