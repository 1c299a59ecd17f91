/*
 * base/base.h — what every folder of grothmpi uses: status codes and error
 * messages, the one allocation entry point, assertions, clocks, logging and
 * file I/O (atomic write, read, map, directory fsync).
 *
 * Conventions (hold for every public header of the project):
 *  - Functions that can fail return an int: 0 (GM_OK) or a negative gm_status_t.
 *    Functions that fail because of the outside world (files, formats, MPI, CUDA,
 *    the OS) also fill an err_t with a message naming the file, field and value;
 *    `err` may be NULL when the caller only wants the code.
 *  - Library code never prints, exits or aborts on bad input: only cli/ prints.
 *  - A broken precondition is a bug, not a status: GM_ASSERT (always on, cheap)
 *    or GM_VERIFY (costly, on in debug/sanitizer builds) stops the program.
 *  - Big arrays come from gm_alloc (64-byte aligned, from jemalloc); the bytes
 *    currently held are counted for the memory budget and the report.
 *
 * Thread safety: everything here may be called from any thread.
 */
#ifndef GM_BASE_H
#define GM_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The one project-wide status enum. gm_strerror gives each a short text. */
typedef enum {
    GM_OK = 0,
    GM_EINVAL = -1,      /* an argument or value out of its allowed range */
    GM_ENOMEM = -2,      /* an allocation failed */
    GM_EIO = -3,         /* a read, write, open or rename failed (errno in msg) */
    GM_EFORMAT = -4,     /* a file or string does not follow its format */
    GM_ENONCANON = -5,   /* a field element encoding is >= the modulus */
    GM_EFLAGS = -6,      /* point encoding flag bits inconsistent */
    GM_ENOTONCURVE = -7, /* a point does not satisfy the curve equation */
    GM_ESUBGROUP = -8,   /* a point is on the curve but not in the r-torsion */
    GM_ENOSQRT = -9,     /* an x-coordinate has no y on the curve (decompression) */
    GM_ENOTSUP = -10,    /* a valid input that this build does not support */
    GM_EVERIFY = -11,    /* a proof or check did not verify */
    GM_ESYS = -12,       /* an OS call other than I/O failed */
    GM_EMPI = -13,       /* an MPI call failed */
    GM_EGPU = -14,       /* a CUDA call failed */
    GM_ESTATE = -15,     /* a call made in the wrong state (e.g. twice) */
    GM_ECANCELED = -16,  /* stopped on request (signal) */
    GM_ENODEV = -17,     /* a device asked for by name (--backend cuda) is not there or not usable */
} gm_status_t;

#define GM_ERR_MSG_LEN 512

/* An error with its context. code is 0 until gm_err_set fills it. */
typedef struct {
    int code;
    char msg[GM_ERR_MSG_LEN];
} err_t;

/* The text of a status code ("not on curve", ...); never NULL. */
const char *gm_strerror(int code);

/* Fills *err (when err != NULL) with code and a printf-style message, and
 * returns code, so a caller can write `return gm_err_set(err, GM_EIO, ...)`.
 * The message is truncated to GM_ERR_MSG_LEN - 1 bytes. */
int gm_err_set(err_t *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears *err to code 0 and an empty message. */
void gm_err_clear(err_t *err);

/* ---- memory -------------------------------------------------------------- */

/* Returns n bytes aligned to 64 (n may be 0), or NULL when n overflows or
 * memory is exhausted. The block is uninitialised. Free with gm_free, never
 * with free(): the block starts 64 bytes into the allocation. */
void *gm_alloc(size_t n) __attribute__((warn_unused_result));

/* As gm_alloc, zero-filled; count * size is checked for overflow. */
void *gm_calloc(size_t count, size_t size) __attribute__((warn_unused_result));

/* Frees a block from gm_alloc/gm_calloc; NULL is allowed. */
void gm_free(void *p);

/* Bytes currently held through gm_alloc/gm_calloc (all threads), counted as
 * asked for (not the allocator's size class), and the peak since the start or
 * since gm_mem_reset_peak. */
size_t gm_mem_current(void);
size_t gm_mem_peak(void);
void gm_mem_reset_peak(void);

/* Resident set size of the process now and its high-water mark (VmHWM), in
 * bytes, from /proc/self/status; 0 when unavailable. */
size_t gm_rss_current(void);
size_t gm_rss_peak(void);

/* Grows the gm_alloc'd array *p (capacity *cap elements of size bytes; *p
 * NULL and *cap 0 to start) to hold at least need elements, copying what it
 * held. first = 0: exactly need (for a caller that knows the final count);
 * otherwise doubling from *cap, or from first when *cap is 0. Returns false,
 * with *p and *cap untouched, when memory runs out or the byte count would
 * overflow. Free the array with gm_free. */
bool gm_grow(void **p, uint64_t *cap, uint64_t need, size_t size, uint64_t first) __attribute__((warn_unused_result));

/* ---- assertions ------------------------------------------------------------ */

void gm_assert_fail(const char *expr, const char *file, int line)
    __attribute__((noreturn));

/* Always on: cheap checks of preconditions whose failure is a bug. */
#define GM_ASSERT(cond) \
    ((cond) ? (void)0 : gm_assert_fail(#cond, __FILE__, __LINE__))

/* Costly checks (ranges of field elements, points on curve), on when the build
 * defines GM_VERIFY_ON (the sanitizer build does), free otherwise. */
#ifdef GM_VERIFY_ON
#define GM_VERIFY(cond) GM_ASSERT(cond)
#else
#define GM_VERIFY(cond) ((void)0)
#endif

/* ---- clocks -------------------------------------------------------------- */

/* Monotonic wall clock in nanoseconds. */
uint64_t gm_now_ns(void);

/* CPU time of the calling thread and of the whole process, in nanoseconds. */
uint64_t gm_thread_cpu_ns(void);
uint64_t gm_process_cpu_ns(void);

/* ---- logging (cli/ and mpi/ only: library code reports through err_t) ----- */

typedef enum { GM_LOG_ERROR = 0, GM_LOG_WARN = 1, GM_LOG_INFO = 2, GM_LOG_DEBUG = 3 } gm_log_level_t;

/* Messages above this level are dropped; default GM_LOG_INFO, or the value of
 * GROTHMPI_LOG (error|warn|info|debug) read by gm_log_init. */
void gm_log_init(void);
void gm_log_set_level(gm_log_level_t level);
/* Writes "grothmpi: <level>: message\n" to stderr in one write call. */
void gm_log(gm_log_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- text codecs ------------------------------------------------------------
 *
 * Hex and base64 (RFC 4648, standard alphabet) of byte strings. Decoders read
 * text of a given length (not necessarily NUL-terminated), never write out
 * on failure, and say in err what is wrong and where (characters counted
 * from 1) without a file or field name: the caller prefixes those.
 */

/* Flags of the hex decoders; 0 takes bare digits only. */
typedef enum {
    GM_HEX_PREFIX = 1, /* a leading "0x" or "0X" is allowed and skipped */
} gm_hex_flags_t;

/* Lower-case hex of in[0 .. n) into out (2n + 1 bytes, NUL-terminated). */
void gm_hex_encode(char *out, const uint8_t *in, size_t n);

/* The length of the "0x" prefix that gm_hex_decode would skip in s[0 .. len)
 * under flags: 2 or 0. */
size_t gm_hex_prefix(const char *s, size_t len, unsigned flags);

/* Decodes the hex digits (either case) of s[0 .. len) into out (room for cap
 * bytes). Returns the number of bytes, or -1 with err (GM_EFORMAT): a
 * character that is not a hex digit (named with its position), an odd
 * number of digits, or more than cap bytes. */
long gm_hex_decode(uint8_t *out, size_t cap, const char *s, size_t len, unsigned flags, err_t *err)
    __attribute__((warn_unused_result));

/* Decodes the NUL-terminated s as exactly 2n hex digits into out[0 .. n).
 * Returns 0, or GM_EFORMAT with err: a bad digit (with its position), or
 * "expected 2n hex digits, found m". */
int gm_hex_decode_exact(uint8_t *out, size_t n, const char *s, unsigned flags, err_t *err)
    __attribute__((warn_unused_result));

/* Base64 with '=' padding of in[0 .. n) into out (4 * ceil(n / 3) + 1 bytes,
 * NUL-terminated). */
void gm_base64_encode(char *out, const uint8_t *in, size_t n);

/* Decodes base64 s[0 .. len) ('=' padding optional) into out (room for cap
 * bytes). Returns the number of bytes, or -1 with err (GM_EFORMAT): a
 * character outside the alphabet (with its position), a length that is no
 * whole number of bytes, or more than cap bytes. */
long gm_base64_decode(uint8_t *out, size_t cap, const char *s, size_t len, err_t *err)
    __attribute__((warn_unused_result));

/* ---- files ------------------------------------------------------------------
 *
 * The one owner of file I/O. Every output file of grothmpi is written
 * atomically: to the temporary "<path>.tmp.<pid>" in the same directory
 * (gm_file_temp_name, the only temporary-name rule), flushed, fsynced,
 * renamed over path, and the directory fsynced, so a reader sees the old file
 * or the whole new one and a crash never leaves a half-written target. On any
 * failure the temporary is removed and path is untouched. Messages name the
 * path (and the temporary where it matters) and the call that failed.
 */

#define GM_PATH_MAX 4096

/* Writes "<path>.tmp.<pid>" into out[0 .. n). Returns 0, or GM_EINVAL when it
 * does not fit (out is then unspecified). */
int gm_file_temp_name(char *out, size_t n, const char *path, long pid) __attribute__((warn_unused_result));

/* Removes the temporaries of path ("<path>.tmp.<pid>", gm_file_temp_name)
 * whose writer no longer exists (kill(pid, 0) says ESRCH): a process killed
 * by SIGKILL or a crash cannot remove its own. Temporaries of live processes,
 * of this process, and names that only look similar are kept. *removed (may
 * be NULL) counts the files removed. A missing directory is not an error.
 * Returns 0 or GM_EIO (the directory cannot be listed, or a dead writer's
 * temporary cannot be removed; err names it). */
int gm_file_sweep_temps(const char *path, unsigned *removed, err_t *err) __attribute__((warn_unused_result));

/* As gm_file_sweep_temps for the dead writers' temporaries of every target
 * in directory dir ("<name>.tmp.<pid>", name not empty). Returns as it. */
int gm_dir_sweep_temps(const char *dir, unsigned *removed, err_t *err) __attribute__((warn_unused_result));

/* Flags of gm_afile_open; 0 is the plain atomic write. */
typedef enum {
    GM_AFILE_SWEEP = 1, /* first remove dead writers' temporaries of path (gm_file_sweep_temps) */
} gm_afile_flags_t;

/* An output file being written atomically. f is the temporary, open for
 * buffered writes (the caller may fprintf/fwrite to it directly; errors then
 * surface at commit); tmp its name. */
typedef struct {
    FILE *f;
    int failed_errno; /* first error of gm_afile_write, reported by commit */
    char path[GM_PATH_MAX];
    char tmp[GM_PATH_MAX + 32];
} gm_afile_t;

/* Creates the temporary of path (truncating one of this process's name).
 * Returns 0, or GM_EIO (path too long, the directory cannot take the file,
 * or GM_AFILE_SWEEP could not remove a stale temporary; err names the path,
 * the temporary and errno's text). After a failure there is nothing to abort. */
int gm_afile_open(gm_afile_t *a, const char *path, unsigned flags, err_t *err) __attribute__((warn_unused_result));

/* Appends n bytes; an error is remembered and reported by gm_afile_commit. */
void gm_afile_write(gm_afile_t *a, const void *p, size_t n);

/* Flushes, fsyncs and closes the temporary, renames it over path and fsyncs
 * the directory. Returns 0 or GM_EIO (a write, fsync, close, rename or the
 * directory fsync failed; err names path and the call). On failure before
 * the rename the temporary is removed and path keeps its old contents; a
 * failure of the directory fsync leaves the new file in place. a->f is NULL
 * afterwards either way. */
int gm_afile_commit(gm_afile_t *a, err_t *err) __attribute__((warn_unused_result));

/* Closes and removes the temporary (after an error). Safe after commit, after
 * a failed open of a zeroed a, and twice. */
void gm_afile_abort(gm_afile_t *a);

/* Writes buf[0 .. len) to path atomically (gm_afile_*). Returns as
 * gm_afile_open and gm_afile_commit. */
int gm_file_write(const char *path, const void *buf, size_t len, err_t *err) __attribute__((warn_unused_result));

/* Reads the whole file at path into a gm_alloc'd buffer (*out, free with
 * gm_free; an empty file gives a 1-byte buffer and *len 0). Returns 0,
 * GM_EIO (cannot open, stat or read, or the file shrank while read; err names
 * path and the call) or GM_ENOMEM; *out is NULL and *len 0 after a failure. */
int gm_file_read(uint8_t **out, size_t *len, const char *path, err_t *err) __attribute__((warn_unused_result));

/* A file mapped read-only (MAP_PRIVATE). An empty file maps to data NULL,
 * size 0. The mapping stays valid after the file is renamed over or removed:
 * grothmpi replaces files only by rename, so the mapped inode never changes. */
typedef struct {
    const uint8_t *data;
    size_t size;
} gm_map_t;

/* Advice passed to madvise(2) for the whole mapping. */
typedef enum {
    GM_MAP_NORMAL = 0,
    GM_MAP_SEQUENTIAL = 1, /* read once, front to back */
    GM_MAP_WILLNEED = 2,   /* read soon, start reading ahead */
} gm_map_advice_t;

/* Reads exactly n bytes of fd at offset off into buf (pread(2) again after a
 * short read or EINTR). Returns 0, or an errno value: the call's, or EIO when
 * the file ends first. For callers that name their file and field in their own
 * message. */
int gm_pread_full(int fd, void *buf, size_t n, uint64_t off) __attribute__((warn_unused_result));

/* Maps the regular file at path. Returns 0, or GM_EIO (cannot open, stat or
 * map, or not a regular file; err names path and the call); *m is zeroed
 * after a failure. */
int gm_file_map(gm_map_t *m, const char *path, gm_map_advice_t advice, err_t *err) __attribute__((warn_unused_result));

/* Unmaps a mapping from gm_file_map and zeroes *m; a zeroed *m is allowed. */
void gm_file_unmap(gm_map_t *m);

/* Drops the pages wholly inside [p, p + n) of a mapping from gm_file_map out
 * of the process's memory (madvise MADV_DONTNEED): a part read once leaves
 * the resident set; touched again, it is read again from the file. */
void gm_file_drop(const void *p, size_t n);

/* fsyncs the directory that holds path ("." when path has no slash), so a
 * rename into it is durable. File systems that cannot sync directories
 * (EINVAL) count as success. Returns 0 or GM_EIO (err names path, the
 * directory and the call). */
int gm_dir_fsync(const char *path, err_t *err) __attribute__((warn_unused_result));

#endif /* GM_BASE_H */
