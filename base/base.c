/*
 * base.c — status texts, err_t, the allocation entry point with its byte
 * counters, clocks and the stderr logger.
 *
 * The byte counters and the log level are process-wide atomics: they are
 * accounting, not state that changes what any computation does.
 */
#include "base/base.h"

#include <jemalloc/jemalloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const char *const status_text[] = {
    [0] = "ok",
    [1] = "invalid argument",
    [2] = "out of memory",
    [3] = "input/output error",
    [4] = "bad format",
    [5] = "non-canonical field element",
    [6] = "inconsistent encoding flags",
    [7] = "point not on curve",
    [8] = "point not in the prime-order subgroup",
    [9] = "no square root (x not on curve)",
    [10] = "not supported",
    [11] = "verification failed",
    [12] = "system call failed",
    [13] = "MPI error",
    [14] = "GPU error",
    [15] = "wrong state",
    [16] = "canceled",
    [17] = "no usable device",
};

const char *gm_strerror(int code)
{
    int i = -code;
    if (i < 0 || i >= (int)(sizeof status_text / sizeof status_text[0]))
        return "unknown error";
    return status_text[i];
}

int gm_err_set(err_t *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void gm_err_clear(err_t *err)
{
    err->code = 0;
    err->msg[0] = '\0';
}

/* ---- memory ------------------------------------------------------------- */

static _Atomic size_t mem_current;
static _Atomic size_t mem_peak;

static void mem_account(size_t n)
{
    size_t now = atomic_fetch_add(&mem_current, n) + n;
    size_t peak = atomic_load(&mem_peak);
    while (now > peak && !atomic_compare_exchange_weak(&mem_peak, &peak, now))
        ;
}

/*
 * Every block carries a 64-byte header holding the size asked for, so the
 * counters add up what the program can touch rather than jemalloc's size
 * class (a 135 MiB array sits in a 160 MiB class; its untouched tail never
 * becomes resident). 64 bytes keep the block itself 64-byte aligned, so
 * per-thread slices that start at multiples of 64 bytes never share a line.
 */
#define ALLOC_HEADER 64

/*
 * Large arrays (witness values, a/b/c and NTT vectors, MSM scalars, shapes
 * being recorded) are advised as transparent huge pages: the kernel's
 * default here is THP on madvise only, and 4 KiB pages cost one fault per
 * page on first touch and a TLB miss on most random reads of a multi-GB
 * array (A·z reads z through column indices). Only the 2 MiB-aligned inside
 * of the block is advised; a refusal (THP off) changes nothing.
 */
#define HUGE_ADVISE_MIN ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void advise_huge(void *p, size_t n)
{
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

static void *alloc_with_header(size_t n, int flags)
{
    if (n > SIZE_MAX - ALLOC_HEADER)
        return NULL;
    uint8_t *p = mallocx(n + ALLOC_HEADER, MALLOCX_ALIGN(64) | flags);
    if (!p)
        return NULL;
    memcpy(p, &n, sizeof n);
    mem_account(n);
    if (n >= HUGE_ADVISE_MIN)
        advise_huge(p, n + ALLOC_HEADER);
    return p + ALLOC_HEADER;
}

void *gm_alloc(size_t n) { return alloc_with_header(n, 0); }

void *gm_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return alloc_with_header(count * size, MALLOCX_ZERO);
}

void gm_free(void *block)
{
    if (!block)
        return;
    uint8_t *p = (uint8_t *)block - ALLOC_HEADER;
    size_t n;
    memcpy(&n, p, sizeof n);
    atomic_fetch_sub(&mem_current, n);
    dallocx(p, 0);
}

bool gm_grow(void **p, uint64_t *cap, uint64_t need, size_t size, uint64_t first)
{
    if (need <= *cap)
        return true;
    uint64_t ncap = need;
    if (first) {
        ncap = *cap ? *cap : first;
        while (ncap < need) {
            if (ncap > UINT64_MAX / 2)
                return false;
            ncap *= 2;
        }
    }
    if (ncap > SIZE_MAX / size)
        return false;
    void *np = gm_alloc((size_t)(ncap * size));
    if (!np)
        return false;
    if (*p) {
        memcpy(np, *p, (size_t)(*cap * size));
        gm_free(*p);
    }
    *p = np;
    *cap = ncap;
    return true;
}

size_t gm_mem_current(void) { return atomic_load(&mem_current); }
size_t gm_mem_peak(void) { return atomic_load(&mem_peak); }
void gm_mem_reset_peak(void) { atomic_store(&mem_peak, atomic_load(&mem_current)); }

static size_t proc_status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    size_t klen = strlen(key), kib = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            kib = strtoull(line + klen + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib * 1024;
}

size_t gm_rss_current(void) { return proc_status_kib("VmRSS"); }
size_t gm_rss_peak(void) { return proc_status_kib("VmHWM"); }

/* ---- assertions ------------------------------------------------------------ */

void gm_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "grothmpi: internal error: %s:%d: assertion '%s' failed\n", file, line, expr);
    abort();
}

/* ---- clocks ---------------------------------------------------------------- */

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t gm_now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
uint64_t gm_thread_cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }
uint64_t gm_process_cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

/* ---- logging --------------------------------------------------------------- */

static _Atomic int log_level = GM_LOG_INFO;

void gm_log_init(void)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    const char *v = getenv("GROTHMPI_LOG");
    if (!v)
        return;
    for (int i = 0; i < 4; i++)
        if (strcmp(v, names[i]) == 0)
            atomic_store(&log_level, i);
}

void gm_log_set_level(gm_log_level_t level) { atomic_store(&log_level, (int)level); }

void gm_log(gm_log_level_t level, const char *fmt, ...)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    if ((int)level > atomic_load(&log_level))
        return;
    char buf[1024];
    int n = snprintf(buf, sizeof buf, "grothmpi: %s: ", names[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof buf - 2)
        len = sizeof buf - 2;
    buf[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, buf, len);
    (void)w;
}
