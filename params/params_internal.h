/*
 * params/params_internal.h — what cache.c shares with load.c: the stamped
 * digest of a file and the plain identity stamps (cache.c's DESIGN says
 * what a stamp is and why trusting one is safe).
 */
#ifndef GM_PARAMS_INTERNAL_H
#define GM_PARAMS_INTERNAL_H

#include "params/params.h"

/* The digest of file and the identity it was taken under: from the stamp at
 * path stamp when it names this very file (and full is false: *from_stamp),
 * else by hashing the file and stamping the result. Returns 0, GM_EVERIFY
 * (the file changed while it was hashed), or params_file_digest's errors. */
int params_digest_stamped(char digest[PARAMS_DIGEST_HEX + 1], params_ident_t *ident, bool *from_stamp,
                          const char *file, const char *stamp, bool full, err_t *err)
    __attribute__((warn_unused_result));

/* The digest that the stamp at path stamp records for a file of identity id,
 * into digest; false when there is no such stamp. */
bool params_stamp_digest(char digest[PARAMS_DIGEST_HEX + 1], const char *stamp, const params_ident_t *id);

/* True when the stamp at path stamp records identity id (and no digest). */
bool params_stamp_matches(const char *stamp, const params_ident_t *id);

/* Writes a stamp of identity id (no digest) at path stamp, atomically.
 * Returns 0 or GM_EIO. */
int params_stamp_write(const char *stamp, const params_ident_t *id, err_t *err) __attribute__((warn_unused_result));

/* params_checked_matches and params_checked_record for the stamp at path
 * checked (any parameter file's "<file>.checked"). */
bool params_checked_at(const char *checked, const char *digest, uint64_t size);
int params_checked_write(const char *checked, const char *digest, uint64_t size, err_t *err)
    __attribute__((warn_unused_result));

/* Formats one line and hands it to note (nothing when note is NULL). */
void params_notef(params_note_fn note, void *arg, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* GM_PARAMS_INTERNAL_H */
