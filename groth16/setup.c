/*
 * groth16/setup.c — a (non-ceremony) Groth16 setup from a recorded shape, by
 * bellperson's method (generator.rs), streamed to a parameter file in
 * bounded memory and resumable.
 *
 * Steps, all deterministic in the seed:
 *  1. tau, alpha, beta, gamma, delta from SHA-256 of the seed (toxic waste);
 *  2. L_r(tau), the Lagrange basis of the size-m domain at tau, in closed
 *     form per block of rows: L_r(tau) = (Z(tau) / m) w^r / (tau - w^r),
 *     one batch inversion per block (the same values as the inverse NTT of
 *     the powers of tau, without the m-element vector);
 *  3. u_j, v_j, w_j (the QAP columns at tau) for one range of columns per
 *     pass: each pass walks every row of the three CSR matrices (three tasks
 *     per block of rows: two rows may hit the same column) and scatters
 *     coeff * L_r(tau) into the range's accumulators; as many passes as the
 *     memory budget needs. A pass ends with the checks and the range's u, v
 *     and s_j = (beta u_j + alpha v_j + w_j) / (gamma or delta) written to
 *     the scratch file, journaled;
 *  4. every query point is k * G by fixed-base window tables with
 *     batch-affine additions, in chunks of points appended to the partial
 *     file, each chunk journaled once it is durable.
 * Memory holds the budget's column range, two density bitmaps, the tables
 * and one chunk, never a whole query nor the Lagrange vector.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <openssl/sha.h>
#include <string.h>

#include "groth16/groth16_internal.h"

/* ---- toxic waste ---------------------------------------------------------------------- */

static void derive(fr_t *out, const uint8_t seed[GROTH16_SEED_BYTES], const char *label)
{
    for (uint32_t ctr = 0;; ctr++) {
        uint8_t wide[64];
        for (uint8_t half = 0; half < 2; half++) {
            uint8_t msg[GROTH16_SEED_BYTES + 64];
            size_t n = 0;
            memcpy(msg, seed, GROTH16_SEED_BYTES);
            n += GROTH16_SEED_BYTES;
            static const char dom[] = "grothmpi-groth16-setup-v1/";
            memcpy(msg + n, dom, sizeof dom - 1);
            n += sizeof dom - 1;
            size_t ll = strlen(label);
            memcpy(msg + n, label, ll);
            n += ll;
            msg[n++] = (uint8_t)(ctr >> 24);
            msg[n++] = (uint8_t)(ctr >> 16);
            msg[n++] = (uint8_t)(ctr >> 8);
            msg[n++] = (uint8_t)ctr;
            msg[n++] = half;
            SHA256(msg, n, wide + 32 * half);
        }
        groth16_fr_from_wide(out, wide);
        if (!fr_is_zero(out))
            return;
    }
}

void groth16_toxic_from_seed(groth16_toxic_t *out, const uint8_t seed[GROTH16_SEED_BYTES])
{
    derive(&out->tau, seed, "tau");
    derive(&out->alpha, seed, "alpha");
    derive(&out->beta, seed, "beta");
    derive(&out->gamma, seed, "gamma");
    derive(&out->delta, seed, "delta");
}

/* ---- fixed-base tables with batch-affine additions (one shape, G1 and G2) ------------- */

/* Largest batch of one fb_mul call (within ec/'s EC_ADD_BATCH_MAX). */
#define FB_BATCH 512

/* Bits [w c, w c + c) of the plain scalar l (4 little-endian limbs). */
static inline unsigned fb_digit(const uint64_t l[4], unsigned w, unsigned c)
{
    unsigned bit = w * c, limb = bit / 64, sh = bit % 64;
    uint64_t v = l[limb] >> sh;
    if (sh + c > 64 && limb + 1 < 4)
        v |= l[limb + 1] << (64 - sh);
    return (unsigned)(v & ((1ULL << c) - 1));
}

/* Windows of a reduced scalar (k < r < 2^255). */
static inline unsigned fb_windows(unsigned c) { return (255 + c - 1) / c; }

#define FB_DEFINE(G, AFF, JAC, FE)                                                                             \
    typedef struct {                                                                                           \
        unsigned c, nw;                                                                                        \
        size_t per; /* entries per window: 2^c - 1 */                                                          \
        AFF *t;     /* nw * per: t[w per + d - 1] = d 2^(c w) G */                                             \
    } G##_fb_t;                                                                                                \
                                                                                                               \
    static size_t G##_fb_bytes(unsigned c) { return (size_t)fb_windows(c) * (((size_t)1 << c) - 1) * sizeof(AFF); } \
                                                                                                               \
    typedef struct {                                                                                           \
        G##_fb_t *fb;                                                                                          \
        const JAC *wbase; /* 2^(c w) G per window */                                                           \
        uint8_t *scratch;                                                                                      \
        size_t per_worker;                                                                                     \
    } G##_fb_job_t;                                                                                            \
                                                                                                               \
    /* One window: a running sum of 2^(c w) G, normalised with one inversion. */                              \
    static void G##_fb_window_task(void *arg, size_t w, unsigned worker)                                       \
    {                                                                                                          \
        G##_fb_job_t *j = arg;                                                                                 \
        G##_fb_t *fb = j->fb;                                                                                  \
        JAC *tmp = (JAC *)(j->scratch + (size_t)worker * j->per_worker);                                       \
        FE *fe = (FE *)(tmp + fb->per);                                                                        \
        AFF b;                                                                                                 \
        G##_to_affine(&b, &j->wbase[w]);                                                                       \
        tmp[0] = j->wbase[w];                                                                                  \
        for (size_t d = 1; d < fb->per; d++)                                                                   \
            G##_add_mixed(&tmp[d], &tmp[d - 1], &b);                                                           \
        G##_batch_to_affine(fb->t + w * fb->per, tmp, fb->per, fe);                                            \
    }                                                                                                          \
                                                                                                               \
    /* The table of width c for the generator, its windows as tasks on pool. 0 or GM_ENOMEM. */               \
    static int G##_fb_create(G##_fb_t *fb, unsigned c, topo_pool_t *pool)                                     \
    {                                                                                                          \
        fb->c = c;                                                                                             \
        fb->nw = fb_windows(c);                                                                                \
        fb->per = ((size_t)1 << c) - 1;                                                                        \
        fb->t = gm_alloc(G##_fb_bytes(c));                                                                     \
        G##_fb_job_t j = {.fb = fb, .per_worker = fb->per * (sizeof(JAC) + sizeof(FE))};                       \
        JAC *wb = gm_alloc(fb->nw * sizeof(JAC));                                                              \
        j.scratch = gm_alloc(topo_pool_size(pool) * j.per_worker);                                             \
        if (!fb->t || !wb || !j.scratch) {                                                                     \
            gm_free(fb->t);                                                                                    \
            gm_free(wb);                                                                                       \
            gm_free(j.scratch);                                                                                \
            fb->t = NULL;                                                                                      \
            return GM_ENOMEM;                                                                                  \
        }                                                                                                      \
        G##_from_affine(&wb[0], &G##_GENERATOR_AFF);                                                           \
        for (unsigned w = 1; w < fb->nw; w++) {                                                                \
            wb[w] = wb[w - 1];                                                                                 \
            for (unsigned i = 0; i < c; i++)                                                                   \
                G##_dbl(&wb[w], &wb[w]);                                                                       \
        }                                                                                                      \
        j.wbase = wb;                                                                                          \
        topo_pool_run(pool, fb->nw, G##_fb_window_task, &j);                                                   \
        gm_free(wb);                                                                                           \
        gm_free(j.scratch);                                                                                    \
        return 0;                                                                                              \
    }                                                                                                          \
                                                                                                               \
    /* Scratch of one G##_fb_mul call, 64-byte aligned. */                                                    \
    static size_t G##_fb_scratch_size(void)                                                                    \
    {                                                                                                          \
        return ((G##_add_batch_scratch_size(FB_BATCH) + 63) & ~(size_t)63) +                                   \
               FB_BATCH * (4 * sizeof(uint64_t) + 2 * sizeof(void *) + 1);                                     \
    }                                                                                                          \
                                                                                                               \
    /* out[i] = k[i] G for i < n <= FB_BATCH (k reduced; 0 gives the identity). */                           \
    static void G##_fb_mul(AFF *out, const G##_fb_t *fb, const fr_t *k, size_t n, void *scratch)             \
    {                                                                                                          \
        static const uint8_t plus[FB_BATCH];                                                                   \
        uint8_t *s = scratch;                                                                                  \
        void *addsc = s;                                                                                       \
        s += (G##_add_batch_scratch_size(FB_BATCH) + 63) & ~(size_t)63;                                        \
        uint64_t(*l)[4] = (uint64_t(*)[4])s;                                                                   \
        AFF **acc = (AFF **)(l + FB_BATCH);                                                                    \
        const AFF **pt = (const AFF **)(acc + FB_BATCH);                                                       \
        uint8_t *have = (uint8_t *)(pt + FB_BATCH);                                                            \
        GM_ASSERT(n <= FB_BATCH);                                                                              \
        for (size_t i = 0; i < n; i++) {                                                                       \
            fr_to_limbs(l[i], &k[i]);                                                                          \
            have[i] = 0;                                                                                       \
        }                                                                                                      \
        for (unsigned w = 0; w < fb->nw; w++) {                                                                \
            const AFF *tw = fb->t + (size_t)w * fb->per;                                                       \
            size_t cnt = 0;                                                                                    \
            for (size_t i = 0; i < n; i++) {                                                                   \
                unsigned d = fb_digit(l[i], w, fb->c);                                                         \
                if (!d)                                                                                        \
                    continue;                                                                                  \
                if (!have[i]) {                                                                                \
                    out[i] = tw[d - 1];                                                                        \
                    have[i] = 1;                                                                               \
                } else {                                                                                       \
                    acc[cnt] = &out[i];                                                                        \
                    pt[cnt++] = &tw[d - 1];                                                                    \
                }                                                                                              \
            }                                                                                                  \
            if (cnt)                                                                                           \
                G##_add_batch(cnt, acc, pt, plus, addsc);                                                      \
        }                                                                                                      \
        for (size_t i = 0; i < n; i++)                                                                         \
            if (!have[i]) {                                                                                    \
                memset(&out[i], 0, sizeof out[i]);                                                             \
                out[i].inf = true;                                                                             \
            }                                                                                                  \
    }

#define g1_GENERATOR_AFF G1_GENERATOR
#define g2_GENERATOR_AFF G2_GENERATOR

/* Hot loop of the setup: fixed-base multiplication, a batch at a time.
 * (1) Why: every query point is k G for one of two fixed generators. A table
 *     of 2^c - 1 multiples per c-bit window makes a point at most
 *     ceil(255 / c) additions; advancing a batch of FB_BATCH scalars window
 *     by window in lockstep makes each window's additions one batch of
 *     affine additions sharing one inversion (ec/'s g1_add_batch: ~6M each,
 *     on 8 lanes for G1 where the CPU has IFMA) instead of 11M mixed
 *     Jacobian additions, and leaves the results affine for the encoder.
 * (2) Invariants: k reduced, so every digit indexes the table; no addition
 *     is a doubling or P + (-P): after window w the accumulator is k_w G
 *     with 0 < k_w < 2^(c w) <= d 2^(c w) and k_w + d 2^(c w) <= k < r; a
 *     scalar's accumulator is in the batch once per window.
 * (3) Measured by `grothmpi setup --circuit porep --sector-size 2KiB`
 *     (bench/README.md). */
FB_DEFINE(g1, g1_affine_t, g1_jac_t, fp_t)
FB_DEFINE(g2, g2_affine_t, g2_jac_t, fp2_t)

/* The window width for n points: the fewest multiplications, counting
 * ceil(255 / c) additions of ~6M per point and a table of 2^c - 1 entries of
 * ~11M per window, within a table of at most max_bytes. */
static unsigned fb_width(uint64_t n, size_t entry_bytes, uint64_t max_bytes)
{
    unsigned best = 4;
    double best_cost = 0;
    for (unsigned c = 4; c <= 16; c++) {
        double nw = fb_windows(c), cost = nw * (6.0 * (double)n + 11.0 * (double)((1ULL << c) - 1));
        if ((double)nw * (double)((1ULL << c) - 1) * (double)entry_bytes > (double)max_bytes)
            break;
        if (c == 4 || cost < best_cost)
            best = c, best_cost = cost;
    }
    return best;
}

/* ---- chunked multiplication --------------------------------------------------------------- */

typedef struct {
    const g1_fb_t *fb1;
    const g2_fb_t *fb2;
    bool g2;
    const fr_t *scalars;
    size_t n;
    uint8_t *bytes;           /* encoded points, or NULL */
    void *aff;                /* affine points (NULL: per-worker scratch, then encoded) */
    uint8_t *scratch;         /* per worker: FB_BATCH affine points + the fb scratch */
    size_t scratch_per_worker;
} mul_job_t;

static size_t mul_scratch_per_worker(void)
{
    size_t a = g2_fb_scratch_size(), b = g1_fb_scratch_size();
    return (FB_BATCH * sizeof(g2_affine_t) + (a > b ? a : b) + 127) & ~(size_t)63;
}

static void mul_task(void *arg, size_t task, unsigned worker)
{
    mul_job_t *j = arg;
    size_t i0 = task * FB_BATCH, cnt = i0 + FB_BATCH < j->n ? FB_BATCH : j->n - i0;
    uint8_t *s = j->scratch + (size_t)worker * j->scratch_per_worker;
    if (j->g2) {
        g2_affine_t *aff = j->aff ? (g2_affine_t *)j->aff + i0 : (g2_affine_t *)s;
        g2_fb_mul(aff, j->fb2, j->scalars + i0, cnt, s + FB_BATCH * sizeof(g2_affine_t));
        if (j->bytes)
            for (size_t i = 0; i < cnt; i++)
                g2_to_bytes_uncompressed(j->bytes + (i0 + i) * G2_UNCOMPRESSED_BYTES, &aff[i]);
    } else {
        g1_affine_t *aff = j->aff ? (g1_affine_t *)j->aff + i0 : (g1_affine_t *)s;
        g1_fb_mul(aff, j->fb1, j->scalars + i0, cnt, s + FB_BATCH * sizeof(g2_affine_t));
        if (j->bytes)
            for (size_t i = 0; i < cnt; i++)
                g1_to_bytes_uncompressed(j->bytes + (i0 + i) * G1_UNCOMPRESSED_BYTES, &aff[i]);
    }
}

/* n points k_i G (G2 when g2) on pool, into bytes (encoded) or aff. */
static void mul_run(const g1_fb_t *fb1, const g2_fb_t *fb2, bool g2, const fr_t *k, size_t n, uint8_t *bytes,
                    void *aff, uint8_t *scratch, topo_pool_t *pool)
{
    mul_job_t j = {.fb1 = fb1, .fb2 = fb2, .g2 = g2, .scalars = k, .n = n, .bytes = bytes, .aff = aff,
                   .scratch = scratch, .scratch_per_worker = mul_scratch_per_worker()};
    topo_pool_run(pool, (n + FB_BATCH - 1) / FB_BATCH, mul_task, &j);
}

/* ---- the journal ------------------------------------------------------------------------- */

#define JOURNAL_MAGIC "grothmpi-setup-journal 1"

typedef struct {
    char partial[GM_PATH_MAX + 16], journal[GM_PATH_MAX + 16], scratch[GM_PATH_MAX + 16];
} setup_files_t;

/* What a journal says: its key lines, the columns done, the points done. */
typedef struct {
    char seed_hex[2 * GROTH16_SEED_BYTES + 1];
    char key[256];          /* "shape <digest> columns <nv> bytes <total>" */
    uint64_t qap_cols;      /* columns [0, qap_cols) are in the scratch file */
    bool have_points;
    unsigned section;       /* the next point is section's point index */
    uint64_t index, offset; /* and the partial file is whole up to offset */
} journal_t;

static void hex_of(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Parses the journal at path; false when missing or not a journal. A torn
 * last line (no newline) is ignored. */
static bool journal_read(journal_t *j, const char *path)
{
    memset(j, 0, sizeof *j);
    uint8_t *b = NULL;
    size_t len = 0;
    if (gm_file_read(&b, &len, path, NULL))
        return false;
    bool ok = false;
    char *s = (char *)b, *end = s + len;
    unsigned line = 0;
    while (s < end) {
        char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            break;
        *nl = 0;
        unsigned long long a, c, d;
        unsigned sec;
        if (line == 0) {
            if (strcmp(s, JOURNAL_MAGIC) != 0)
                break;
        } else if (line == 1) {
            if (sscanf(s, "seed %64s", j->seed_hex) != 1 || strlen(j->seed_hex) != 2 * GROTH16_SEED_BYTES)
                break;
        } else if (line == 2) {
            if (strlen(s) >= sizeof j->key)
                break;
            snprintf(j->key, sizeof j->key, "%s", s);
            ok = true;
        } else if (sscanf(s, "qap %llu", &a) == 1) {
            j->qap_cols = a;
        } else if (sscanf(s, "points %u %llu %llu", &sec, &c, &d) == 3) {
            j->have_points = true;
            j->section = sec;
            j->index = c;
            j->offset = d;
        }
        line++;
        s = nl + 1;
    }
    gm_free(b);
    return ok;
}

bool groth16_setup_journal_seed(uint8_t seed[GROTH16_SEED_BYTES], const char *params_path)
{
    char path[GM_PATH_MAX + 16];
    if (snprintf(path, sizeof path, "%s.journal", params_path) >= (int)sizeof path)
        return false;
    journal_t j;
    if (!journal_read(&j, path))
        return false;
    for (int i = 0; i < GROTH16_SEED_BYTES; i++) {
        unsigned v;
        if (sscanf(j.seed_hex + 2 * i, "%2x", &v) != 1)
            return false;
        seed[i] = (uint8_t)v;
    }
    return true;
}

/* Appends one line to the open journal and makes it durable. */
static int journal_append(int fd, const char *path, const char *line, err_t *err)
{
    size_t n = strlen(line);
    ssize_t w = write(fd, line, n);
    if (w != (ssize_t)n || fdatasync(fd) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot record progress: %s (the partial file and journal stay: free "
                          "space and rerun to resume)", path, w < 0 || w == (ssize_t)n ? strerror(errno) : "short write");
    return 0;
}

/* ---- the state of one setup -------------------------------------------------------------- */

typedef struct {
    const cs_shape_t *sh;
    const groth16_setup_opts_t *o;
    topo_pool_t *pool;
    unsigned nworkers;
    groth16_toxic_t tw;
    unsigned log_m;
    uint64_t m, nv, budget;
    fr_t omega, lag_c, z_tau; /* L_r(tau) = lag_c w^r / (tau - w^r), lag_c = Z(tau) / m */
    uint64_t *da, *db;
    uint64_t cnt_a, cnt_b;
    groth16_counts_t n;
    uint64_t total_bytes, vk_bytes;
    setup_files_t f;
    int jfd, pfd, sfd;
    uint64_t records; /* journal records written by this run (stop_after) */
    uint64_t t_stage;
} setup_t;

static void note(const setup_t *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const setup_t *S, const char *fmt, ...)
{
    if (!S->o->note)
        return;
    char line[GM_PATH_MAX + 600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    S->o->note(S->o->note_arg, line);
}

static void set_progress(const setup_t *S, int stage)
{
    if (S->o->progress)
        atomic_store_explicit(&S->o->progress->stage, stage, memory_order_relaxed);
}

/* One journal record; GM_ECANCELED once stop_after records are written. */
static int record(setup_t *S, const char *line, err_t *err)
{
    int rc = journal_append(S->jfd, S->f.journal, line, err);
    if (rc)
        return rc;
    S->records++;
    if (S->o->stop_after && S->records >= S->o->stop_after)
        return gm_err_set(err, GM_ECANCELED, "%s: stopped after %llu journal records (a test's stop; rerun to "
                          "resume)", S->f.journal, (unsigned long long)S->records);
    return 0;
}

/* Releases the pages of a mapped shape's array range [p, p + n) from this
 * process (they stay in the page cache): the passes walk the shape once
 * each, and holding what they left would put the whole shape in the RSS. A
 * recorded shape (in the heap) is left alone. */
static void shape_release(const cs_shape_t *sh, const void *p, size_t n)
{
    if (!sh->map || n == 0)
        return;
    uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;
    uintptr_t mlo = (uintptr_t)sh->map, mhi = mlo + sh->map_bytes;
    if (lo < mlo || hi > mhi || hi <= lo)
        return;
    (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* ---- the QAP at tau, in column-range passes ---------------------------------------------- */

#define ROW_BLOCK 65536
#define LAG_TASK 4096

typedef struct {
    setup_t *S;
    uint64_t r0, nrows;
    fr_t *lag;   /* ROW_BLOCK */
    fr_t *tmp;   /* per worker: 3 LAG_TASK */
    uint64_t c0, c1;
    fr_t *acc[3]; /* u, v, w over [c0, c1) */
} qap_job_t;

/* L_r(tau) for the block's rows r0 + [task LAG_TASK, ...): w^r and
 * tau - w^r, one batch inversion, then lag_c w^r / (tau - w^r). */
static void lag_task(void *arg, size_t task, unsigned worker)
{
    qap_job_t *j = arg;
    const setup_t *S = j->S;
    uint64_t i0 = (uint64_t)task * LAG_TASK, n = j->nrows - i0 < LAG_TASK ? j->nrows - i0 : LAG_TASK;
    fr_t *num = j->tmp + (size_t)worker * 3 * LAG_TASK, *den = num + LAG_TASK, *scr = den + LAG_TASK;
    uint64_t e = j->r0 + i0;
    fr_t x;
    fr_pow(&x, &S->omega, &e, 1);
    for (uint64_t i = 0; i < n; i++) {
        num[i] = x;
        fr_sub(&den[i], &S->tw.tau, &x);
        fr_mul(&x, &x, &S->omega);
    }
    fr_batch_inv(&j->lag[i0], den, (size_t)n, scr);
    for (uint64_t i = 0; i < n; i++) {
        fr_mul(&j->lag[i0 + i], &j->lag[i0 + i], &num[i]);
        fr_mul(&j->lag[i0 + i], &j->lag[i0 + i], &S->lag_c);
    }
}

/* Matrix task: scatter coeff L_r into the range's accumulators. */
static void scatter_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    qap_job_t *j = arg;
    const cs_shape_t *sh = j->S->sh;
    const cs_matrix_t *m = &sh->m[task];
    fr_t *acc = j->acc[task], t;
    uint64_t c0 = j->c0, span = j->c1 - j->c0;
    for (uint64_t i = 0; i < j->nrows; i++) {
        uint64_t r = j->r0 + i;
        const fr_t *L = &j->lag[i];
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            uint64_t c = (uint64_t)m->col[k] - c0;
            if (c >= span)
                continue;
            uint32_t id = m->coeff[k];
            if (id == 0) {
                fr_add(&acc[c], &acc[c], L);
            } else if (id == 1) {
                fr_sub(&acc[c], &acc[c], L);
            } else {
                fr_mul(&t, L, &sh->coeffs[id]);
                fr_add(&acc[c], &acc[c], &t);
            }
        }
    }
    uint64_t k0 = m->row_ptr[j->r0], k1 = m->row_ptr[j->r0 + j->nrows];
    shape_release(sh, &m->row_ptr[j->r0], (size_t)(j->nrows * sizeof(uint64_t)));
    shape_release(sh, &m->col[k0], (size_t)((k1 - k0) * sizeof(uint32_t)));
    shape_release(sh, &m->coeff[k0], (size_t)((k1 - k0) * sizeof(uint32_t)));
}

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off, const char *path, const char *what,
                      err_t *err)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t w = pwrite(fd, p, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return gm_err_set(err, GM_EIO, "%s: cannot write %s at byte %llu: %s (the partial file and journal "
                              "stay: free space and rerun to resume)", path, what, (unsigned long long)off,
                              w < 0 ? strerror(errno) : "no progress");
        p += w;
        n -= (size_t)w;
        off += (uint64_t)w;
    }
    return 0;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off, const char *path, err_t *err)
{
    int e = gm_pread_full(fd, buf, n, off);
    if (e)
        return gm_err_set(err, GM_EIO, "%s: cannot read %zu bytes at byte %llu: %s", path, n,
                          (unsigned long long)off, strerror(e));
    return 0;
}

#define FIN_TASK 65536

/* The end of a pass over a range: the checks and s_j. */
typedef struct {
    const setup_t *S;
    uint64_t c0, span;
    fr_t *u, *v, *w;
    fr_t gamma_inv, delta_inv;
    uint64_t *bad; /* per task: its first bad column */
    uint8_t *why;  /* per task: 0 none, 1 zero at tau, 2 unconstrained */
} fin_job_t;

/* The inputs are in A through the input constraints; a non-empty column
 * that is zero at tau would be dropped by bellperson (a different count):
 * refuse it. s_j = beta u_j + alpha v_j + w_j, divided by gamma (inputs) or
 * delta, overwrites w_j. */
static void fin_task(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    fin_job_t *j = arg;
    const setup_t *S = j->S;
    uint64_t i0 = (uint64_t)task * FIN_TASK, i1 = i0 + FIN_TASK < j->span ? i0 + FIN_TASK : j->span;
    j->why[task] = 0;
    for (uint64_t i = i0; i < i1; i++) {
        uint64_t c = j->c0 + i;
        if ((g16_bit(S->da, c) && fr_is_zero(&j->u[i])) || (g16_bit(S->db, c) && fr_is_zero(&j->v[i]))) {
            j->bad[task] = c, j->why[task] = 1;
            return;
        }
        fr_t t, s;
        fr_mul(&t, &S->tw.beta, &j->u[i]);
        fr_mul(&s, &S->tw.alpha, &j->v[i]);
        fr_add(&t, &t, &s);
        fr_add(&t, &t, &j->w[i]);
        if (c >= S->sh->n_inputs && fr_is_zero(&t)) {
            j->bad[task] = c, j->why[task] = 2;
            return;
        }
        fr_mul(&j->w[i], &t, c < S->sh->n_inputs ? &j->gamma_inv : &j->delta_inv);
    }
}

/* Scratch layout: u[nv], v[nv], s[nv] (s: the l / ic scalars). */
static uint64_t scr_off(const setup_t *S, int arr, uint64_t col) { return ((uint64_t)arr * S->nv + col) * sizeof(fr_t); }

/* Columns [c0, c1): one walk of the shape, checks, and the three arrays to
 * the scratch file. */
static int qap_pass(setup_t *S, uint64_t c0, uint64_t c1, fr_t *acc, fr_t *lag, fr_t *tmp, err_t *err)
{
    const cs_shape_t *sh = S->sh;
    uint64_t span = c1 - c0;
    fr_t *u = acc, *v = acc + span, *w = acc + 2 * span;
    memset(acc, 0, (size_t)(3 * span) * sizeof(fr_t));
    qap_job_t j = {.S = S, .lag = lag, .tmp = tmp, .c0 = c0, .c1 = c1, .acc = {u, v, w}};
    groth16_setup_progress_t *pr = S->o->progress;
    for (uint64_t r0 = 0; r0 < sh->n_rows; r0 += ROW_BLOCK) {
        j.r0 = r0;
        j.nrows = sh->n_rows - r0 < ROW_BLOCK ? sh->n_rows - r0 : ROW_BLOCK;
        topo_pool_run(S->pool, (size_t)((j.nrows + LAG_TASK - 1) / LAG_TASK), lag_task, &j);
        topo_pool_run(S->pool, 3, scatter_task, &j);
        if (pr)
            atomic_store_explicit(&pr->rows_done, r0 + j.nrows, memory_order_relaxed);
    }
    /* s_j over the range in tasks, each noting its first bad column. */
    fin_job_t fj = {.S = S, .c0 = c0, .span = span, .u = u, .v = v, .w = w};
    fr_inv(&fj.gamma_inv, &S->tw.gamma);
    fr_inv(&fj.delta_inv, &S->tw.delta);
    size_t ntasks = (size_t)((span + FIN_TASK - 1) / FIN_TASK);
    fj.bad = gm_alloc(ntasks * sizeof(uint64_t));
    fj.why = gm_alloc(ntasks);
    if (!fj.bad || !fj.why) {
        gm_free(fj.bad);
        gm_free(fj.why);
        return gm_err_set(err, GM_ENOMEM, "setup: out of memory");
    }
    topo_pool_run(S->pool, ntasks, fin_task, &fj);
    int bad_rc = 0;
    for (size_t t = 0; t < ntasks && !bad_rc; t++) {
        if (fj.why[t] == 1)
            bad_rc = gm_err_set(err, GM_EINVAL, "setup: column %llu evaluates to 0 at tau: use another seed",
                                (unsigned long long)fj.bad[t]);
        else if (fj.why[t] == 2)
            bad_rc = gm_err_set(err, GM_EINVAL, "setup: aux variable %llu is unconstrained (in no constraint)",
                                (unsigned long long)(fj.bad[t] - sh->n_inputs));
    }
    gm_free(fj.bad);
    gm_free(fj.why);
    if (bad_rc)
        return bad_rc;
    int rc;
    for (int a = 0; a < 3; a++)
        if ((rc = pwrite_all(S->sfd, acc + (size_t)a * span, (size_t)span * sizeof(fr_t), scr_off(S, a, c0),
                             S->f.scratch, "QAP columns", err)))
            return rc;
    if (fdatasync(S->sfd) != 0)
        return gm_err_set(err, GM_EIO, "%s: cannot sync: %s", S->f.scratch, strerror(errno));
    char line[64];
    snprintf(line, sizeof line, "qap %llu\n", (unsigned long long)c1);
    return record(S, line, err);
}

/* ---- scalar sources of the point sections ------------------------------------------------ */

enum { SEC_H, SEC_L, SEC_A, SEC_BG1, SEC_BG2, SEC_N };

typedef struct {
    unsigned sec;
    uint64_t count;
    bool g2;
    uint64_t start; /* byte offset of the section's count */
} section_t;

/* The reader of one section's scalars from index i0 on. */
typedef struct {
    setup_t *S;
    unsigned sec;
    fr_t h_next, h_coeff; /* SEC_H: tau^i coeff */
    uint64_t col;         /* the column of the next scalar (SEC_L: n_inputs + i) */
    fr_t *buf;            /* read buffer of `cap` columns */
    uint64_t cap, buf_c0, buf_n;
} reader_t;

/* The column of the i-th set bit of bm (the i-th point of a dense section). */
static uint64_t nth_set(const uint64_t *bm, uint64_t nv, uint64_t i)
{
    uint64_t w = 0, nwords = (nv + 63) / 64;
    for (; w < nwords; w++) {
        uint64_t pc = (uint64_t)__builtin_popcountll(bm[w]);
        if (i < pc)
            break;
        i -= pc;
    }
    uint64_t x = bm[w];
    for (; i; i--)
        x &= x - 1;
    return w * 64 + (uint64_t)__builtin_ctzll(x);
}

static void reader_start(reader_t *rd, setup_t *S, unsigned sec, uint64_t i0)
{
    rd->S = S;
    rd->sec = sec;
    rd->buf_n = 0;
    if (sec == SEC_H) {
        fr_t dinv;
        fr_inv(&dinv, &S->tw.delta);
        fr_mul(&rd->h_coeff, &S->z_tau, &dinv);
        fr_pow(&rd->h_next, &S->tw.tau, &i0, 1);
    } else if (sec == SEC_L) {
        rd->col = S->sh->n_inputs + i0;
    } else {
        rd->col = nth_set(sec == SEC_A ? S->da : S->db, S->nv, i0);
    }
}

/* The scratch value of column c from array arr, through the read buffer. */
static int reader_col(reader_t *rd, int arr, uint64_t c, fr_t *out, err_t *err)
{
    setup_t *S = rd->S;
    if (!(rd->buf_n && c >= rd->buf_c0 && c < rd->buf_c0 + rd->buf_n)) {
        uint64_t n = S->nv - c < rd->cap ? S->nv - c : rd->cap;
        int rc = pread_all(S->sfd, rd->buf, (size_t)n * sizeof(fr_t), scr_off(S, arr, c), S->f.scratch, err);
        if (rc)
            return rc;
        rd->buf_c0 = c;
        rd->buf_n = n;
    }
    *out = rd->buf[c - rd->buf_c0];
    return 0;
}

/* The next n scalars of the section into out. */
static int reader_next(reader_t *rd, fr_t *out, uint64_t n, err_t *err)
{
    setup_t *S = rd->S;
    int rc;
    for (uint64_t i = 0; i < n; i++) {
        switch (rd->sec) {
        case SEC_H:
            fr_mul(&out[i], &rd->h_next, &rd->h_coeff);
            fr_mul(&rd->h_next, &rd->h_next, &S->tw.tau);
            break;
        case SEC_L:
            if ((rc = reader_col(rd, 2, rd->col++, &out[i], err)))
                return rc;
            break;
        default: {
            const uint64_t *bm = rd->sec == SEC_A ? S->da : S->db;
            while (!g16_bit(bm, rd->col))
                rd->col++;
            if ((rc = reader_col(rd, rd->sec == SEC_A ? 0 : 1, rd->col++, &out[i], err)))
                return rc;
        }
        }
    }
    return 0;
}

/* ---- the setup ------------------------------------------------------------------------------ */

#define CHUNK_MAX 65536

/* A digest of what the journal's points depend on besides the seed: the
 * shape's sizes, coefficient table and every matrix's term count. */
static void shape_key(char *out, size_t n, const setup_t *S)
{
    const cs_shape_t *sh = S->sh;
    uint64_t v[8] = {sh->n_constraints, sh->n_rows, sh->n_inputs, sh->n_aux, sh->n_coeffs,
                     cs_shape_nnz(sh, 0), cs_shape_nnz(sh, 1), cs_shape_nnz(sh, 2)};
    size_t nb = sizeof v + (size_t)sh->n_coeffs * sizeof(fr_t);
    uint8_t *buf = gm_alloc(nb), d[32] = {0};
    if (buf) {
        memcpy(buf, v, sizeof v);
        memcpy(buf + sizeof v, sh->coeffs, (size_t)sh->n_coeffs * sizeof(fr_t));
        SHA256(buf, nb, d);
    } else {
        SHA256((const uint8_t *)v, sizeof v, d);
    }
    gm_free(buf);
    char hex[65];
    hex_of(hex, d, 32);
    snprintf(out, n, "shape %.32s columns %llu bytes %llu", hex, (unsigned long long)S->nv,
             (unsigned long long)S->total_bytes);
}

static double gib(uint64_t b) { return (double)b / (double)(1ULL << 30); }

static void stage_done(setup_t *S, const char *what)
{
    uint64_t now = gm_now_ns();
    note(S, "setup: %s in %.1f s, peak rss %.2f GiB", what, (double)(now - S->t_stage) * 1e-9, gib(gm_rss_peak()));
    S->t_stage = now;
}

static void remove_files(const setup_files_t *f)
{
    (void)unlink(f->partial);
    (void)unlink(f->journal);
    (void)unlink(f->scratch);
}

static int open_rw(int *fd, const char *path, int extra, err_t *err)
{
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | extra, 0644);
    if (*fd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", path, strerror(errno));
    return 0;
}

static uint64_t file_size(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The vk: alpha, beta, gamma, delta and ic_i = s_i G for the inputs. */
static int make_vk(setup_t *S, groth16_vk_t *vk, const g1_fb_t *fb1, const g2_fb_t *fb2, uint8_t *scratch, err_t *err)
{
    uint64_t ni = S->sh->n_inputs;
    vk->ic = gm_alloc(((size_t)ni + 1) * sizeof(g1_affine_t));
    fr_t *k = gm_alloc(((size_t)ni + 4) * sizeof(fr_t));
    if (!vk->ic || !k) {
        gm_free(k);
        return gm_err_set(err, GM_ENOMEM, "setup: out of memory for the verifying key");
    }
    g1_affine_t p1[3];
    g2_affine_t p2[3];
    fr_t a1[3] = {S->tw.alpha, S->tw.beta, S->tw.delta}, a2[3] = {S->tw.beta, S->tw.gamma, S->tw.delta};
    mul_run(fb1, fb2, false, a1, 3, NULL, p1, scratch, S->pool);
    mul_run(fb1, fb2, true, a2, 3, NULL, p2, scratch, S->pool);
    vk->alpha_g1 = p1[0], vk->beta_g1 = p1[1], vk->delta_g1 = p1[2];
    vk->beta_g2 = p2[0], vk->gamma_g2 = p2[1], vk->delta_g2 = p2[2];
    vk->n_ic = ni;
    int rc = pread_all(S->sfd, k, (size_t)ni * sizeof(fr_t), scr_off(S, 2, 0), S->f.scratch, err);
    if (!rc)
        mul_run(fb1, fb2, false, k, (size_t)ni, NULL, vk->ic, scratch, S->pool);
    gm_free(k);
    return rc;
}

static int setup_body(setup_t *S, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                      const char *vk_path, err_t *err)
{
    const cs_shape_t *sh = S->sh;
    int rc;
    if ((rc = g16_domain_of(&S->log_m, sh, err)) || (rc = groth16_shape_counts(&S->n, sh, err)))
        return rc;
    S->m = 1ULL << S->log_m;
    S->nv = sh->n_inputs + sh->n_aux;
    groth16_toxic_from_seed(&S->tw, seed);
    fr_root_of_unity(&S->omega, S->log_m);
    fr_pow(&S->z_tau, &S->tw.tau, &S->m, 1);
    fr_sub(&S->z_tau, &S->z_tau, &FR_ONE);
    if (fr_is_zero(&S->z_tau))
        return gm_err_set(err, GM_EINVAL, "setup: tau is a root of unity of the domain (Z(tau) = 0): use another seed");
    fr_t minv;
    fr_set_u64(&minv, S->m);
    fr_inv(&minv, &minv);
    fr_mul(&S->lag_c, &S->z_tau, &minv);

    const groth16_counts_t *n = &S->n;
    S->vk_bytes = groth16_vk_bytes(n->ic);
    section_t sec[SEC_N] = {{SEC_H, n->h, false, 0}, {SEC_L, n->l, false, 0}, {SEC_A, n->a, false, 0},
                            {SEC_BG1, n->b_g1, false, 0}, {SEC_BG2, n->b_g2, true, 0}};
    uint64_t off = S->vk_bytes, total_points = 0;
    for (int s = 0; s < SEC_N; s++) {
        sec[s].start = off;
        off += 4 + sec[s].count * (sec[s].g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES);
        total_points += sec[s].count;
    }
    S->total_bytes = off;

    /* The journal: resume, or start over. */
    char key[256], seed_hex[2 * GROTH16_SEED_BYTES + 1];
    shape_key(key, sizeof key, S);
    hex_of(seed_hex, seed, GROTH16_SEED_BYTES);
    journal_t jr;
    bool resume = journal_read(&jr, S->f.journal);
    if (resume && (strcmp(jr.seed_hex, seed_hex) != 0 || strcmp(jr.key, key) != 0)) {
        note(S, "setup: %s is for another %s: starting over", S->f.journal,
             strcmp(jr.seed_hex, seed_hex) != 0 ? "seed" : "circuit shape");
        resume = false;
    }
    if (!resume) {
        remove_files(&S->f);
        memset(&jr, 0, sizeof jr);
    }
    if (resume && jr.qap_cols) {
        /* The journaled columns must be in the scratch file (not removed or
         * cut since), or the points would read zeros. */
        struct stat st;
        uint64_t upto = scr_off(S, 2, jr.qap_cols < S->nv ? jr.qap_cols : S->nv);
        if (stat(S->f.scratch, &st) != 0 || (uint64_t)st.st_size < upto) {
            note(S, "setup: %s lacks the QAP columns %s records: computing them again", S->f.scratch, S->f.journal);
            jr.qap_cols = 0;
            jr.have_points = false;
        }
    }

    /* The plan. */
    uint64_t budget = S->budget;
    size_t lag_bytes = ROW_BLOCK * sizeof(fr_t) + (size_t)S->nworkers * 3 * LAG_TASK * sizeof(fr_t);
    uint64_t bitmaps = 2 * ((S->nv + 63) / 64 + 1) * 8;
    if (budget < lag_bytes + bitmaps + 96 * 1024)
        return gm_err_set(err, GM_EINVAL, "setup: a memory budget of %llu bytes is too small (at least %llu)",
                          (unsigned long long)budget, (unsigned long long)(lag_bytes + bitmaps + 96 * 1024));
    uint64_t span = (budget - lag_bytes - bitmaps) / (3 * sizeof(fr_t));
    if (span > S->nv)
        span = S->nv;
    uint64_t left_cols = S->nv - (jr.qap_cols < S->nv ? jr.qap_cols : S->nv);
    uint64_t passes = (left_cols + span - 1) / span;
    uint64_t n_g1 = total_points - n->b_g2 + n->ic, n_g2 = n->b_g2;
    unsigned c1 = fb_width(n_g1, sizeof(g1_affine_t), budget / 4), c2 = fb_width(n_g2, sizeof(g2_affine_t), budget / 4);
    uint64_t chunk = total_points / 256;
    chunk = chunk < 4 * FB_BATCH ? 4 * FB_BATCH : chunk > CHUNK_MAX ? CHUNK_MAX : chunk;
    uint64_t scratch_bytes = 3 * S->nv * sizeof(fr_t);
    uint64_t done_bytes = jr.have_points ? jr.offset : 0;
    note(S, "setup: plan: budget %.2f GiB; QAP at tau in %llu pass(es) of up to %llu columns over %llu rows "
            "(%.2f GiB each); points: G1 windows of %u bits (table %.0f MiB), G2 of %u bits (%.0f MiB), chunks "
            "of %llu; scratch %.2f GiB in %s",
         gib(budget), (unsigned long long)passes, (unsigned long long)span, (unsigned long long)sh->n_rows,
         gib(span * 3 * sizeof(fr_t)), c1, (double)g1_fb_bytes(c1) / 1048576.0, c2,
         (double)g2_fb_bytes(c2) / 1048576.0, (unsigned long long)chunk, gib(scratch_bytes), S->f.scratch);
    if (resume)
        note(S, "setup: resuming from %s: QAP columns %llu of %llu, %llu of %llu parameter bytes written", S->f.journal,
             (unsigned long long)(jr.qap_cols < S->nv ? jr.qap_cols : S->nv), (unsigned long long)S->nv,
             (unsigned long long)done_bytes, (unsigned long long)S->total_bytes);

    /* Room on the disk for what is left to write. */
    {
        struct stat st;
        uint64_t have_scr = stat(S->f.scratch, &st) == 0 ? (uint64_t)st.st_size : 0;
        uint64_t need = (S->total_bytes - done_bytes) + (scratch_bytes > have_scr ? scratch_bytes - have_scr : 0);
        char dir[GM_PATH_MAX];
        snprintf(dir, sizeof dir, "%s", params_path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir ? 1 : 0] = 0;
        else
            snprintf(dir, sizeof dir, ".");
        struct statvfs fs;
        if (statvfs(dir, &fs) == 0) {
            uint64_t avail = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
            note(S, "setup: disk: %.2f GiB to write (parameters %.2f GiB, scratch %.2f GiB), %.2f GiB free in %s",
                 gib(need), gib(S->total_bytes - done_bytes), gib(scratch_bytes > have_scr ? scratch_bytes - have_scr : 0),
                 gib(avail), dir);
            if (avail < need)
                return gm_err_set(err, GM_EIO, "%s: not enough disk space: %llu bytes needed (parameters %llu, "
                                  "scratch %llu), %llu free", params_path, (unsigned long long)need,
                                  (unsigned long long)(S->total_bytes - done_bytes),
                                  (unsigned long long)(scratch_bytes > have_scr ? scratch_bytes - have_scr : 0),
                                  (unsigned long long)avail);
        }
    }

    S->jfd = open(S->f.journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (S->jfd < 0)
        return gm_err_set(err, GM_EIO, "%s: cannot open: %s", S->f.journal, strerror(errno));
    if (!resume) {
        char head[600];
        snprintf(head, sizeof head, JOURNAL_MAGIC "\nseed %s\n%s\n", seed_hex, key);
        if ((rc = journal_append(S->jfd, S->f.journal, head, err)))
            return rc;
        if ((rc = gm_dir_fsync(S->f.journal, err)))
            return rc;
    }
    if ((rc = open_rw(&S->sfd, S->f.scratch, 0, err)) || (rc = open_rw(&S->pfd, S->f.partial, 0, err)))
        return rc;

    /* Density (the mapped columns released behind). */
    S->cnt_a = g16_density(&S->da, sh, 0);
    S->cnt_b = g16_density(&S->db, sh, 1);
    if (!S->da || !S->db)
        return gm_err_set(err, GM_ENOMEM, "setup: out of memory for the density bitmaps");
    for (int mat = 0; mat < 2; mat++)
        shape_release(sh, sh->m[mat].col, (size_t)cs_shape_nnz(sh, mat) * sizeof(uint32_t));
    for (uint64_t j = 0; j < sh->n_inputs; j++)
        if (!g16_bit(S->da, j))
            return gm_err_set(err, GM_EINVAL, "setup: input %llu has no input constraint (the shape lacks "
                              "bellperson's input_i * 0 = 0 rows)", (unsigned long long)j);

    /* The QAP columns. */
    S->t_stage = gm_now_ns();
    set_progress(S, GROTH16_STAGE_QAP);
    if (left_cols) {
        fr_t *acc = gm_alloc((size_t)(3 * span) * sizeof(fr_t));
        fr_t *lag = gm_alloc(ROW_BLOCK * sizeof(fr_t));
        fr_t *tmp = gm_alloc((size_t)S->nworkers * 3 * LAG_TASK * sizeof(fr_t));
        if (!acc || !lag || !tmp) {
            rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for %llu QAP columns (lower the budget)",
                            (unsigned long long)span);
        } else {
            groth16_setup_progress_t *pr = S->o->progress;
            if (pr) {
                atomic_store_explicit(&pr->passes, passes, memory_order_relaxed);
                atomic_store_explicit(&pr->rows, sh->n_rows, memory_order_relaxed);
            }
            uint64_t p = 0;
            for (uint64_t c0 = S->nv - left_cols; c0 < S->nv && !rc; c0 += span) {
                if (pr) {
                    atomic_store_explicit(&pr->pass, ++p, memory_order_relaxed);
                    atomic_store_explicit(&pr->rows_done, 0, memory_order_relaxed);
                }
                rc = qap_pass(S, c0, c0 + span < S->nv ? c0 + span : S->nv, acc, lag, tmp, err);
            }
        }
        gm_free(acc);
        gm_free(lag);
        gm_free(tmp);
        if (rc)
            return rc;
        stage_done(S, "QAP at tau");
    }

    /* The points. */
    set_progress(S, GROTH16_STAGE_TABLES);
    g1_fb_t fb1 = {0};
    g2_fb_t fb2 = {0};
    groth16_vk_t vk = {0};
    fr_t *ks = gm_alloc((size_t)chunk * sizeof(fr_t));
    uint8_t *bytes = gm_alloc((size_t)chunk * G2_UNCOMPRESSED_BYTES + 4);
    uint8_t *mscr = gm_alloc((size_t)S->nworkers * mul_scratch_per_worker());
    reader_t rd = {.cap = 65536};
    rd.buf = gm_alloc((size_t)rd.cap * sizeof(fr_t));
    if (!ks || !bytes || !mscr || !rd.buf || g1_fb_create(&fb1, c1, S->pool) || g2_fb_create(&fb2, c2, S->pool)) {
        rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for the fixed-base tables and one chunk of points");
        goto done;
    }
    if ((rc = make_vk(S, &vk, &fb1, &fb2, mscr, err)))
        goto done;
    stage_done(S, "fixed-base tables and verifying key");
    set_progress(S, GROTH16_STAGE_POINTS);

    unsigned s0 = 0;
    uint64_t i0 = 0, pos = 0;
    if (jr.have_points && jr.section <= SEC_N && file_size(S->pfd) >= jr.offset) {
        s0 = jr.section;
        i0 = jr.index;
        pos = jr.offset;
        if (ftruncate(S->pfd, (off_t)pos) != 0) {
            rc = gm_err_set(err, GM_EIO, "%s: cannot cut back to %llu bytes: %s", S->f.partial,
                            (unsigned long long)pos, strerror(errno));
            goto done;
        }
    } else {
        uint8_t *vb = gm_alloc(S->vk_bytes);
        if (!vb) {
            rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory");
            goto done;
        }
        groth16_vk_to_bytes(vb, &vk);
        if (ftruncate(S->pfd, 0) != 0)
            rc = gm_err_set(err, GM_EIO, "%s: cannot truncate: %s", S->f.partial, strerror(errno));
        if (!rc)
            rc = pwrite_all(S->pfd, vb, S->vk_bytes, 0, S->f.partial, "the verifying key", err);
        gm_free(vb);
        pos = S->vk_bytes;
        char line[96];
        snprintf(line, sizeof line, "points 0 0 %llu\n", (unsigned long long)pos);
        if (!rc && fdatasync(S->pfd) != 0)
            rc = gm_err_set(err, GM_EIO, "%s: cannot sync: %s", S->f.partial, strerror(errno));
        if (rc || (rc = record(S, line, err)))
            goto done;
    }
    uint64_t resumed = 0;
    for (unsigned s = 0; s < s0 && s < SEC_N; s++)
        resumed += sec[s].count;
    resumed += i0;
    groth16_setup_progress_t *pr = S->o->progress;
    if (pr) {
        atomic_store_explicit(&pr->points_total, total_points, memory_order_relaxed);
        atomic_store_explicit(&pr->resumed, resumed, memory_order_relaxed);
        atomic_store_explicit(&pr->points_done, resumed, memory_order_relaxed);
    }
    uint64_t written = resumed;
    for (unsigned s = s0; s < SEC_N; s++, i0 = 0) {
        const section_t *q = &sec[s];
        size_t psz = q->g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        if (i0 >= q->count && !(q->count == 0 && i0 == 0))
            continue;
        if (q->count)
            reader_start(&rd, S, s, i0);
        do {
            uint64_t cnt = q->count - i0 < chunk ? q->count - i0 : chunk;
            size_t hdr = 0;
            if (i0 == 0) {
                uint32_t c = (uint32_t)q->count;
                uint8_t be[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
                memcpy(bytes, be, 4);
                hdr = 4;
            }
            if ((rc = reader_next(&rd, ks, cnt, err)))
                goto done;
            mul_run(&fb1, &fb2, q->g2, ks, (size_t)cnt, bytes + hdr, NULL, mscr, S->pool);
            GM_ASSERT(pos == q->start + (i0 ? 4 + i0 * psz : 0));
            if ((rc = pwrite_all(S->pfd, bytes, hdr + (size_t)cnt * psz, pos, S->f.partial, "points", err)))
                goto done;
            if (fdatasync(S->pfd) != 0) {
                rc = gm_err_set(err, GM_EIO, "%s: cannot sync: %s (the partial file and journal stay: rerun to "
                                "resume)", S->f.partial, strerror(errno));
                goto done;
            }
            pos += hdr + cnt * psz;
            i0 += cnt;
            written += cnt;
            char line[96];
            if (i0 == q->count)
                snprintf(line, sizeof line, "points %u 0 %llu\n", s + 1, (unsigned long long)pos);
            else
                snprintf(line, sizeof line, "points %u %llu %llu\n", s, (unsigned long long)i0,
                         (unsigned long long)pos);
            if (pr)
                atomic_store_explicit(&pr->points_done, written, memory_order_relaxed);
            if ((rc = record(S, line, err)))
                goto done;
        } while (i0 < q->count);
    }
    GM_ASSERT(pos == S->total_bytes);
    stage_done(S, "points");

    /* The vk first, then the parameter file by rename: a run killed between
     * the two finds every point journaled and only renames. */
    if (vk_path && (rc = groth16_vk_save(&vk, vk_path, err)))
        goto done;
    if (fsync(S->pfd) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot sync: %s", S->f.partial, strerror(errno));
        goto done;
    }
    if (rename(S->f.partial, params_path) != 0) {
        rc = gm_err_set(err, GM_EIO, "%s: cannot rename to %s: %s", S->f.partial, params_path, strerror(errno));
        goto done;
    }
    if ((rc = gm_dir_fsync(params_path, err)))
        goto done;
    (void)unlink(S->f.journal);
    (void)unlink(S->f.scratch);
    set_progress(S, GROTH16_STAGE_DONE);
    rc = 0;
done:
    gm_free(fb1.t);
    gm_free(fb2.t);
    gm_free(ks);
    gm_free(bytes);
    gm_free(mscr);
    gm_free(rd.buf);
    groth16_vk_free(&vk);
    return rc;
}

int groth16_setup_run(const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                      const char *vk_path, const groth16_setup_opts_t *opts, topo_pool_t *pool, err_t *err)
{
    groth16_setup_opts_t dflt = {0};
    if (!params_path)
        return gm_err_set(err, GM_EINVAL, "setup: no parameter file to write");
    setup_t S = {.sh = shape, .o = opts ? opts : &dflt, .pool = pool, .nworkers = topo_pool_size(pool),
                 .jfd = -1, .pfd = -1, .sfd = -1};
    S.budget = S.o->mem_budget ? S.o->mem_budget : GROTH16_SETUP_BUDGET_DEFAULT;
    S.t_stage = gm_now_ns();
    set_progress(&S, GROTH16_STAGE_PLAN);
    if (snprintf(S.f.partial, sizeof S.f.partial, "%s.partial", params_path) >= (int)sizeof S.f.partial ||
        snprintf(S.f.journal, sizeof S.f.journal, "%s.journal", params_path) >= (int)sizeof S.f.journal ||
        snprintf(S.f.scratch, sizeof S.f.scratch, "%s.scratch", params_path) >= (int)sizeof S.f.scratch)
        return gm_err_set(err, GM_EINVAL, "%s: path too long", params_path);
    int rc = setup_body(&S, seed, params_path, vk_path, err);
    memset(&S.tw, 0, sizeof S.tw);
    gm_free(S.da);
    gm_free(S.db);
    if (S.jfd >= 0)
        close(S.jfd);
    if (S.pfd >= 0)
        close(S.pfd);
    if (S.sfd >= 0)
        close(S.sfd);
    return rc;
}

int groth16_setup(const cs_shape_t *shape, const uint8_t seed[GROTH16_SEED_BYTES], const char *params_path,
                  const char *vk_path, topo_pool_t *pool, err_t *err)
{
    return groth16_setup_run(shape, seed, params_path, vk_path, NULL, pool, err);
}

/* ---- fixed-base multiplication for other setups (snarkjs_ptau.c) --------------------------- */

int groth16_fixed_base_gen(void *out, bool g2, const fr_t *scalars, size_t n, topo_pool_t *pool, err_t *err)
{
    g1_fb_t fb1 = {0};
    g2_fb_t fb2 = {0};
    uint8_t *scratch = gm_alloc((size_t)topo_pool_size(pool) * mul_scratch_per_worker());
    int rc = 0;
    if (!scratch || (g2 ? g2_fb_create(&fb2, fb_width(n, sizeof(g2_affine_t), 1ULL << 30), pool)
                        : g1_fb_create(&fb1, fb_width(n, sizeof(g1_affine_t), 1ULL << 30), pool)))
        rc = gm_err_set(err, GM_ENOMEM, "setup: out of memory for a fixed-base table");
    else
        mul_run(&fb1, &fb2, g2, scalars, n, NULL, out, scratch, pool);
    gm_free(fb1.t);
    gm_free(fb2.t);
    gm_free(scratch);
    return rc;
}
