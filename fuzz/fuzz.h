/*
 * fuzz/fuzz.h — what every libFuzzer harness of grothmpi shares.
 *
 * Each harness fuzz/fuzz_<name>.c feeds its input to one parser through the
 * project's public API (never a copy of the parser) and checks the
 * properties that must hold for every input: no crash, no sanitizer report,
 * no leak, and, where the format allows it, that a successful decode
 * re-encodes to the same bytes. A broken property calls fuzz_fail, which
 * aborts, so libFuzzer saves the input as a crash.
 *
 * Files: a harness that must hand its parser a path writes the input into its
 * own temporary directory (mkdtemp under $TMPDIR or /tmp), created on first
 * use and removed, with everything in it, at exit. Nothing is written
 * anywhere else.
 *
 * Memory: fuzz/alloc_shim.c replaces jemalloc's mallocx/sallocx/dallocx
 * (the entry points base/base.c uses) by the C allocator, so that
 * AddressSanitizer sees every gm_alloc block: overflows past its end, use
 * after gm_free, and leaks (LeakSanitizer) are reported like malloc's.
 */
#ifndef GM_FUZZ_H
#define GM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Calls ff_init(FF_PATH_AUTO) once and sets the log level to errors only. */
void fuzz_init_ff(void);

/* The harness's temporary directory (created on first call, removed with its
 * content at exit). Never NULL: aborts when it cannot be created. */
const char *fuzz_tmpdir(void);

/* Writes data[0 .. size) to fuzz_tmpdir()/name (replacing it) and returns
 * the full path in a static buffer. Aborts on an I/O error (a harness
 * problem, not a finding). */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);

/* A NUL-terminated copy of data (malloc'd; free it). */
char *fuzz_strndup(const uint8_t *data, size_t size);

/* Reports a broken property and aborts (libFuzzer records the input). */
void fuzz_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Aborts with the condition's text and `what` (a string) when cond is false. */
#define FUZZ_CHECK(cond, what) \
    ((cond) ? (void)0 : fuzz_fail("%s:%d: %s: %s", __FILE__, __LINE__, #cond, (what)))

/* Defines LLVMFuzzerInitialize for a harness that needs nothing set up but
 * the field (fuzz_init_ff). */
#define FUZZ_INIT_FF_ONLY()                                                                        \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                                              \
    {                                                                                              \
        (void)argc;                                                                                \
        (void)argv;                                                                                \
        fuzz_init_ff();                                                                            \
        return 0;                                                                                  \
    }

/* A refusal with status rc: err (an err_t) carries rc and a message. */
#define FUZZ_CHECK_REFUSAL(rc, err) \
    FUZZ_CHECK((err).code == (rc) && (err).msg[0] != '\0', "refusal without a message")

#endif /* GM_FUZZ_H */
