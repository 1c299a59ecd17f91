/*
 * base/base.h — what every folder of grothmpi uses: status codes and error
 * messages, the one allocation entry point, assertions, clocks and logging.
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
#include <stddef.h>
#include <stdint.h>

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

#endif /* GM_BASE_H */
