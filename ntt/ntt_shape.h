/*
 * ntt/ntt_shape.h — the transform of ntt/ntt.c (its DESIGN comment), written
 * once and instantiated per scalar field: ntt/ntt.c over BLS12-381's Fr
 * and ntt/bn_ntt.c over BN254's Fr (both with the 8-lane IFMA paths). A
 * template, not a header: a .c file defines the parameters below and
 * includes it once; it defines static functions under short names
 * (domain_create, forward, ...), and the .c file defines the public functions
 * of ntt/ntt.h by name, each a one-line call of its static routine.
 *
 * Parameters (#define before the #include; all are #undef'd at the end):
 *   NTT_NAME             "ntt" | "bn_ntt"   the prefix of error messages
 *   NTT_DOMAIN_STRUCT    the domain's struct tag (ntt.h's typedef)
 *   NTT_DOMAIN_T         the domain type of ntt/ntt.h
 *   NTT_FE               fr | bn_fr         prefix of the field functions
 *   NTT_FE_T             fr_t | bn_fr_t
 *   NTT_FE_ONE, NTT_FE_GENERATOR   1 and the coset shift g
 *   NTT_X8               defined: the 8-lane paths, on the field's IFMA kernels of
 *                        ff/fr_ifma_shape.h (NTT_FE_x8_*, NTT_FE_tw_t, NTT_FE_tw8_t)
 */
#ifndef NTT_FE
#error "ntt_shape.h is a template: define NTT_FE, NTT_FE_T, ... and include it once"
#endif

#include <string.h>

#include "base/base.h"
#include "ntt/ntt.h"
#include "topo/topo.h"

#define NTT_CAT_(a, b) a##b
#define NTT_CAT(a, b) NTT_CAT_(a, b)
#define FE_(name) NTT_CAT(NTT_FE, name)
#define fe_t NTT_FE_T
#define domain_t NTT_DOMAIN_T
#define tw_t FE_(_tw_t)
#define tw8_t FE_(_tw8_t)

#define NTT_LOG_MAX 28
/* Columns per pass-1 task: 8 points = 256 bytes = 4 cache lines per row. */
#define NTT_COLS 8
/* Bit-reversal tiles are 2^NTT_BR_BITS x 2^NTT_BR_BITS points (8 KiB). */
#define NTT_BR_BITS 4
/* Rows of at least this many points take the 8-lane path (their last
 * stages run 8 blocks of at most 16 points at a time). */
#define NTT_X8_ROW_MIN 128
/* Aim for tasks of at least this many points in the row and scaling passes. */
#define NTT_TASK_POINTS 4096

enum { FWD = 0, INV = 1 };

struct NTT_DOMAIN_STRUCT {
    unsigned log_n, log_r, log_c;
    size_t n;
    fe_t n_inv, g, g_inv;
    fe_t *stage[2];   /* C - 1 entries; stage h (a power of 2) at offset h - 1: w_{2h}^j, j < h */
    fe_t *rowstep[2]; /* R entries: w_n^k (FWD) or w_n^-k (INV) */
    fe_t *coset_out;  /* C entries: g^-(R rev_C(q)), the inverse coset's factor at row position q */
#ifdef NTT_X8
    /* The same factors prepared for the 8-lane kernels (ff/fr_ifma_shape.h): stage h
     * entry j at index h + j (tw: one factor, broadcast to the lanes; tw8:
     * groups of 8 consecutive indices, for rows whose lanes are j, h >= 8). */
    tw_t *tw[2];      /* C entries */
    tw8_t *tw8[2];    /* C/8 groups (at least 1) */
    tw8_t *coset_tw8; /* C/8 groups (at least 1): coset_out by position */
#endif
};

static inline size_t bitrev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

static void domain_destroy(domain_t *d);

static int domain_create(domain_t **out, unsigned log_n, err_t *err)
{
    *out = NULL;
    if (log_n < 1 || log_n > NTT_LOG_MAX)
        return gm_err_set(err, GM_EINVAL, NTT_NAME ": log size %u is not in 1..%d", log_n, NTT_LOG_MAX);
    domain_t *d = gm_calloc(1, sizeof *d);
    if (!d)
        return gm_err_set(err, GM_ENOMEM, NTT_NAME ": out of memory for the 2^%u domain", log_n);
    d->log_n = log_n;
    d->log_r = log_n / 2;
    d->log_c = log_n - d->log_r;
    d->n = (size_t)1 << log_n;
    size_t R = (size_t)1 << d->log_r, C = (size_t)1 << d->log_c;
    for (int dir = 0; dir < 2; dir++) {
        d->stage[dir] = gm_alloc(C * sizeof(fe_t));
        d->rowstep[dir] = gm_alloc(R * sizeof(fe_t));
        if (!d->stage[dir] || !d->rowstep[dir]) {
            domain_destroy(d);
            return gm_err_set(err, GM_ENOMEM, NTT_NAME ": out of memory for the 2^%u twiddles", log_n);
        }
    }
    d->coset_out = gm_alloc(C * sizeof(fe_t));
    bool ok = d->coset_out != NULL;
#ifdef NTT_X8
    size_t groups = C >= 8 ? C / 8 : 1;
    for (int dir = 0; dir < 2; dir++) {
        d->tw[dir] = gm_alloc(C * sizeof(tw_t));
        d->tw8[dir] = gm_calloc(groups, sizeof(tw8_t));
    }
    d->coset_tw8 = gm_calloc(groups, sizeof(tw8_t));
    ok = ok && d->tw[0] && d->tw[1] && d->tw8[0] && d->tw8[1] && d->coset_tw8;
#endif
    if (!ok) {
        domain_destroy(d);
        return gm_err_set(err, GM_ENOMEM, NTT_NAME ": out of memory for the 2^%u twiddles", log_n);
    }
    fe_t n_fr;
    FE_(_set_u64)(&n_fr, d->n);
    FE_(_inv)(&d->n_inv, &n_fr);
    d->g = NTT_FE_GENERATOR;
    FE_(_inv)(&d->g_inv, &d->g);
    for (int dir = 0; dir < 2; dir++) {
        for (size_t h = 1; h < C; h <<= 1) {
            unsigned k = 1;
            while (((size_t)1 << k) < 2 * h)
                k++;
            fe_t w, t = NTT_FE_ONE;
            FE_(_root_of_unity)(&w, k);
            if (dir == INV)
                FE_(_inv)(&w, &w);
            for (size_t j = 0; j < h; j++) {
                d->stage[dir][h - 1 + j] = t;
                FE_(_mul)(&t, &t, &w);
            }
        }
        fe_t w, t = NTT_FE_ONE;
        FE_(_root_of_unity)(&w, log_n);
        if (dir == INV)
            FE_(_inv)(&w, &w);
        for (size_t k = 0; k < R; k++) {
            d->rowstep[dir][k] = t;
            FE_(_mul)(&t, &t, &w);
        }
    }
    fe_t gr, t = NTT_FE_ONE;
    uint64_t e = R;
    FE_(_pow)(&gr, &d->g_inv, &e, 1);
    for (size_t q = 0; q < C; q++) { /* t = g^-(R q) */
        d->coset_out[bitrev(q, d->log_c)] = t;
        FE_(_mul)(&t, &t, &gr);
    }
#ifdef NTT_X8
    for (int dir = 0; dir < 2; dir++)
        for (size_t h = 1; h < C; h <<= 1)
            for (size_t j = 0; j < h; j++) {
                const fe_t *w = &d->stage[dir][h - 1 + j];
                FE_(_tw_from)(&d->tw[dir][h + j], w);
                if (h >= 8)
                    FE_(_tw8_set)(&d->tw8[dir][(h + j) / 8], (unsigned)((h + j) % 8), w);
            }
    for (size_t q = 0; C >= 8 && q < C; q++)
        FE_(_tw8_set)(&d->coset_tw8[q / 8], (unsigned)(q % 8), &d->coset_out[q]);
#endif
    *out = d;
    return GM_OK;
}

static void domain_destroy(domain_t *d)
{
    if (!d)
        return;
    for (int dir = 0; dir < 2; dir++) {
        gm_free(d->stage[dir]);
        gm_free(d->rowstep[dir]);
#ifdef NTT_X8
        gm_free(d->tw[dir]);
        gm_free(d->tw8[dir]);
#endif
    }
    gm_free(d->coset_out);
#ifdef NTT_X8
    gm_free(d->coset_tw8);
#endif
    gm_free(d);
}

static size_t domain_size(const domain_t *d) { return d->n; }
static unsigned domain_log_size(const domain_t *d) { return d->log_n; }

static size_t scratch_size(const domain_t *d, unsigned nworkers)
{
    size_t C = (size_t)1 << d->log_c;
    size_t cols = C < NTT_COLS ? C : NTT_COLS;
    size_t per = ((size_t)1 << d->log_r) * cols * sizeof(fe_t);
    return (nworkers ? nworkers : 1) * per;
}

/*
 * DIF butterflies on m logical points x[i*w + b] (i < m, b < w: w adjacent
 * independent columns sharing each twiddle), natural order in, bit-reversed
 * out, radix 4 with one final radix-2 stage when log2 m is odd.
 * Why: the (u, v) -> (u + v, (u - v) * t) form needs one multiply per
 * butterfly and, fused two stages at a time, touches each point once per
 * two stages; the j = 0 column of each block has unit twiddles, skipped.
 * Invariants: every value is a reduced Fr element (ff.h); stage holds the
 * tables for every h < m; m is a power of two.
 */
/* Rate per butterfly: `grothmpi bench ntt` (bench/README.md). */
static void dif(fe_t *restrict x, size_t m, size_t w, const fe_t *restrict stage)
{
    size_t h = m / 2;
    for (; h >= 2; h /= 4) {
        size_t q = h / 2;
        const fe_t *tw1 = stage + h - 1, *tw2 = stage + q - 1;
        for (size_t s = 0; s < m; s += 2 * h) {
            for (size_t j = 0; j < q; j++) {
                const fe_t *wa = &tw1[j], *wb = &tw1[j + q], *wc = &tw2[j];
                fe_t *p0 = x + (s + j) * w, *p1 = p0 + q * w, *p2 = p1 + q * w, *p3 = p2 + q * w;
                for (size_t b = 0; b < w; b++) {
                    fe_t y0, y1, y2, y3;
                    FE_(_add)(&y0, &p0[b], &p2[b]);
                    FE_(_sub)(&y2, &p0[b], &p2[b]);
                    FE_(_add)(&y1, &p1[b], &p3[b]);
                    FE_(_sub)(&y3, &p1[b], &p3[b]);
                    FE_(_mul)(&y3, &y3, wb);
                    if (j != 0)
                        FE_(_mul)(&y2, &y2, wa);
                    FE_(_add)(&p0[b], &y0, &y1);
                    FE_(_sub)(&p1[b], &y0, &y1);
                    FE_(_add)(&p2[b], &y2, &y3);
                    FE_(_sub)(&p3[b], &y2, &y3);
                    if (j != 0) {
                        FE_(_mul)(&p1[b], &p1[b], wc);
                        FE_(_mul)(&p3[b], &p3[b], wc);
                    }
                }
            }
        }
    }
    if (h == 1) {
        for (size_t s = 0; s < m; s += 2) {
            fe_t *p0 = x + s * w, *p1 = p0 + w;
            for (size_t b = 0; b < w; b++) {
                fe_t u = p0[b];
                FE_(_add)(&p0[b], &u, &p1[b]);
                FE_(_sub)(&p1[b], &u, &p1[b]);
            }
        }
    }
}

#ifdef NTT_X8
/*
 * The same network on 8 lanes (ff/fr_ifma_shape.h), for the CPUs with AVX-512
 * IFMA. dif_x8_cols: m points of 8 lanes, one twiddle broadcast to all
 * lanes; point i of lane b is read from in[i * is + b * ls] by the first
 * step, lives in work[i * ws + b * ls] between steps and is written to
 * out[i * os + b * ls] by the last (pass 1: from the array through the
 * worker's scratch back to the array, so its copies in and out ride on the
 * first and last steps; the tail of a row below: all three the row, is = 1,
 * ls = m).
 */
static void dif_x8_cols(fe_t *out, size_t os, fe_t *work, size_t ws, const fe_t *in, size_t is, size_t m,
                        size_t ls, const tw_t *tw)
{
    size_t h = m / 2;
    for (; h >= 2; h /= 4) {
        size_t q = h / 2;
        bool last = h == 2; /* (h = 4 is followed by the radix-2 step) */
        fe_t *dst = last ? out : work;
        size_t ds = last ? os : ws;
        for (size_t s = 0; s < m; s += 2 * h)
            for (size_t j = 0; j < q; j++)
                FE_(_x8_dif4)(dst + (s + j) * ds, q * ds, in + (s + j) * is, q * is, ls, j ? &tw[h + j] : NULL,
                           &tw[h + j + q], j ? &tw[q + j] : NULL);
        in = work;
        is = ws;
    }
    if (h == 1)
        for (size_t s = 0; s < m; s += 2)
            FE_(_x8_dif2)(out + s * os, os, in + s * is, is, ls);
}

/* A contiguous row of m >= 128 points: while a radix-4 step's quarter q is
 * at least 8, the lanes are 8 consecutive j (one twiddle per lane, from
 * tw8); the last two to four stages (h = 8 or 4 down to 1) are independent
 * DIFs on blocks of 2h consecutive points, run 8 blocks at a time with the
 * blocks as lanes. Same network, same twiddles as dif(x, m, 1, ...). */
static void dif_x8_row(fe_t *x, size_t m, const tw_t *tw, const tw8_t *tw8)
{
    size_t h = m / 2;
    for (; h >= 16; h /= 4) {
        size_t q = h / 2;
        for (size_t s = 0; s < m; s += 2 * h)
            for (size_t j = 0; j < q; j += 8)
                FE_(_x8_dif4v)(x + s + j, q, &tw8[(h + j) / 8], &tw8[(h + j + q) / 8], &tw8[(q + j) / 8]);
    }
    size_t blk = 2 * h;
    for (size_t s = 0; s < m; s += 8 * blk)
        dif_x8_cols(x + s, 1, x + s, 1, x + s, 1, blk, blk, tw);
}
#endif /* NTT_X8 */

/* ---- the passes ---------------------------------------------------------- */

typedef struct {
    const domain_t *d;
    fe_t *a;
    int dir;
    bool coset_in;     /* pass 1 multiplies a[i] by g^i on the way in */
    bool scale_rows;   /* pass 2 folds 1/n into its twiddles */
    bool coset_out;    /* pass 2 also multiplies by g^-k (inverse coset; k the output index) */
    bool x8_cols, x8_rows; /* passes 1 and 2 on the 8-lane kernels */
    fe_t *scratch;     /* per worker: R * cols points */
    size_t cols, rows_per_task, chunk;
    unsigned br_bits;  /* tile side of the bit reversal (bits) */
    size_t mids_per_task;
} job_t;

static void pass_columns(void *arg, size_t task, unsigned worker)
{
    const job_t *J = arg;
    const domain_t *d = J->d;
    size_t R = (size_t)1 << d->log_r, C = (size_t)1 << d->log_c, B = J->cols;
    size_t j0 = task * B;
    fe_t *buf = J->scratch + (size_t)worker * R * B;
    const fe_t *in = buf; /* where the first DIF step reads (8-lane path) */
    size_t is = B;
    if (J->coset_in) {
        /* g^(i*C + j) = g^(iC) * g^j: the row factor g^(iC) here (one
         * product per element, one per row for the next factor), the column
         * factor g^j in pass 2, where it joins the twiddles for free. */
        fe_t f = NTT_FE_ONE, gc;
        uint64_t e = C;
        FE_(_pow)(&gc, &d->g, &e, 1);
        memcpy(buf, &J->a[j0], B * sizeof(fe_t));
        for (size_t i = 1; i < R; i++) {
            FE_(_mul)(&f, &f, &gc);
#ifdef NTT_X8
            if (J->x8_cols) {
                tw_t ft;
                FE_(_tw_from)(&ft, &f);
                FE_(_x8_mul_tw)(&buf[i * B], &J->a[i * C + j0], &ft);
                continue;
            }
#endif
            for (size_t b = 0; b < B; b++)
                FE_(_mul)(&buf[i * B + b], &J->a[i * C + j0 + b], &f);
        }
    } else if (J->x8_cols) { /* the first step reads the array itself */
        in = &J->a[j0];
        is = C;
    } else {
        for (size_t i = 0; i < R; i++)
            memcpy(&buf[i * B], &J->a[i * C + j0], B * sizeof(fe_t));
    }
#ifdef NTT_X8
    if (J->x8_cols) { /* and the last step writes it */
        dif_x8_cols(&J->a[j0], C, buf, B, in, is, R, 1, d->tw[J->dir]);
        return;
    }
#else
    (void)in;
    (void)is;
#endif
    dif(buf, R, B, d->stage[J->dir]);
    for (size_t i = 0; i < R; i++)
        memcpy(&J->a[i * C + j0], &buf[i * B], B * sizeof(fe_t));
}

static void pass_rows(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const job_t *J = arg;
    const domain_t *d = J->d;
    size_t C = (size_t)1 << d->log_c;
    size_t p_end = (task + 1) * J->rows_per_task;
    for (size_t p = task * J->rows_per_task; p < p_end; p++) {
        fe_t *x = J->a + p * C;
        size_t rp = bitrev(p, d->log_r);
        fe_t step = d->rowstep[J->dir][rp], t;
        if (J->coset_in) /* the column factor g^j of the coset shift (pass 1) */
            FE_(_mul)(&step, &step, &d->g);
        size_t j = 0;
        if (J->scale_rows) {
            t = d->n_inv;
            if (J->coset_out) { /* the row's part of g^-k, k = rev_C(q) R + rev_R(p) */
                fe_t gp;
                uint64_t e = rp;
                FE_(_pow)(&gp, &d->g_inv, &e, 1);
                FE_(_mul)(&t, &t, &gp);
            }
        } else {
            t = step;   /* element 0 keeps factor 1 */
            j = 1;
        }
#ifdef NTT_X8
        if (J->x8_rows) {
            if (!FE_(_is_one)(&step) || J->scale_rows) {
                /* lanes k < 8 start at t_k = t step^k (t_0 = 1 when j starts
                 * at 1) and advance by step^8 */
                tw8_t T;
                tw_t S8;
                fe_t tk = J->scale_rows ? t : NTT_FE_ONE, s8 = step;
                for (unsigned k = 0; k < 8; k++) {
                    FE_(_tw8_set)(&T, k, &tk);
                    FE_(_mul)(&tk, &tk, &step);
                }
                for (int i = 0; i < 3; i++)
                    FE_(_sqr)(&s8, &s8);
                FE_(_tw_from)(&S8, &s8);
                FE_(_x8_scale_chain)(x, C, &T, &S8);
            }
            dif_x8_row(x, C, d->tw[J->dir], d->tw8[J->dir]);
            if (J->coset_out)
                for (size_t q = 0; q < C; q += 8)
                    FE_(_x8_mul_tw8)(&x[q], &d->coset_tw8[q / 8]);
            continue;
        }
#endif
        if (!FE_(_is_one)(&step) || J->scale_rows) {
            for (; j < C; j++) {
                FE_(_mul)(&x[j], &x[j], &t);
                FE_(_mul)(&t, &t, &step);
            }
        }
        dif(x, C, 1, d->stage[J->dir]);
        if (J->coset_out) /* the position's part g^-(R rev_C(q)), while the row is in cache */
            for (size_t q = 0; q < C; q++)
                FE_(_mul)(&x[q], &x[q], &d->coset_out[q]);
    }
}

/* Bit reversal: index i = hi | mid | lo (b, L - 2b, b bits) goes to
 * rev(lo) | rev(mid) | rev(hi); the 2^b x 2^b tile of one mid (rows of 2^b
 * contiguous points) maps onto the tile of rev(mid). Each task swaps the
 * tiles of its mids with mid <= rev(mid), through two stack buffers. */
static void pass_bitrev(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const job_t *J = arg;
    unsigned L = J->d->log_n, b = J->br_bits, mbits = L - 2 * b;
    size_t side = (size_t)1 << b, nmid = (size_t)1 << mbits;
    fe_t ta[1 << (2 * NTT_BR_BITS)], tb[1 << (2 * NTT_BR_BITS)];
    fe_t *a = J->a;
    size_t m_end = (task + 1) * J->mids_per_task;
    if (m_end > nmid)
        m_end = nmid;
    for (size_t mid = task * J->mids_per_task; mid < m_end; mid++) {
        size_t rmid = bitrev(mid, mbits);
        if (rmid < mid)
            continue;
        size_t base_a = mid << b, base_b = rmid << b;
        for (size_t hi = 0; hi < side; hi++) {
            memcpy(&ta[hi * side], &a[(hi << (L - b)) | base_a], side * sizeof(fe_t));
            if (rmid != mid)
                memcpy(&tb[hi * side], &a[(hi << (L - b)) | base_b], side * sizeof(fe_t));
        }
        /* Destination row hd, column ld of tile rmid receives ta[rev ld][rev hd]. */
        for (size_t hd = 0; hd < side; hd++) {
            size_t rh = bitrev(hd, b);
            fe_t *dst_b = &a[(hd << (L - b)) | base_b], *dst_a = &a[(hd << (L - b)) | base_a];
            for (size_t ld = 0; ld < side; ld++) {
                size_t rl = bitrev(ld, b);
                dst_b[ld] = ta[rl * side + rh];
                if (rmid != mid)
                    dst_a[ld] = tb[rl * side + rh];
            }
        }
    }
}

static void run(const domain_t *d, fe_t *a, int dir, bool coset, void *scratch, topo_pool_t *pool)
{
    size_t R = (size_t)1 << d->log_r, C = (size_t)1 << d->log_c, n = d->n;
    job_t J = {
        .d = d, .a = a, .dir = dir, .scratch = scratch,
        .coset_in = coset && dir == FWD,
        .scale_rows = dir == INV,
        .coset_out = coset && dir == INV,
    };
    J.cols = C < NTT_COLS ? C : NTT_COLS;
#ifdef NTT_X8
    bool x8 = fr_x8_enabled();
#else
    bool x8 = false;
#endif
    J.x8_cols = x8 && J.cols == 8;
    J.x8_rows = x8 && C >= NTT_X8_ROW_MIN;
    topo_pool_run(pool, C / J.cols, pass_columns, &J);

    J.rows_per_task = 1;
    while (J.rows_per_task * C < NTT_TASK_POINTS && J.rows_per_task < R)
        J.rows_per_task <<= 1;
    topo_pool_run(pool, R / J.rows_per_task, pass_rows, &J);

    unsigned L = d->log_n;
    if (L < 2 * NTT_BR_BITS) {
        for (size_t i = 0; i < n; i++) {
            size_t r = bitrev(i, L);
            if (r > i) {
                fe_t t = a[i];
                a[i] = a[r];
                a[r] = t;
            }
        }
    } else {
        J.br_bits = NTT_BR_BITS;
        size_t nmid = (size_t)1 << (L - 2 * NTT_BR_BITS);
        J.mids_per_task = 1;
        while ((J.mids_per_task << (2 * NTT_BR_BITS)) < 4 * NTT_TASK_POINTS && J.mids_per_task < nmid)
            J.mids_per_task <<= 1;
        topo_pool_run(pool, nmid / J.mids_per_task, pass_bitrev, &J);
    }
}

static void forward(const domain_t *d, fe_t *a, void *scratch, topo_pool_t *pool)
{
    run(d, a, FWD, false, scratch, pool);
}

static void inverse(const domain_t *d, fe_t *a, void *scratch, topo_pool_t *pool)
{
    run(d, a, INV, false, scratch, pool);
}

static void coset_forward(const domain_t *d, fe_t *a, void *scratch, topo_pool_t *pool)
{
    run(d, a, FWD, true, scratch, pool);
}

static void coset_inverse(const domain_t *d, fe_t *a, void *scratch, topo_pool_t *pool)
{
    run(d, a, INV, true, scratch, pool);
}

#undef FE_
#undef fe_t
#undef domain_t
#undef tw_t
#undef tw8_t
#undef NTT_CAT
#undef NTT_CAT_
#undef NTT_NAME
#undef NTT_DOMAIN_STRUCT
#undef NTT_DOMAIN_T
#undef NTT_FE
#undef NTT_FE_T
#undef NTT_FE_ONE
#undef NTT_FE_GENERATOR
#undef NTT_X8
