/*
 * ntt.c — the number-theoretic transform over Fr for sizes 2^1 .. 2^28:
 * forward, inverse and coset (bellperson convention) forms, in place, natural
 * order in and out, multi-threaded on a topo/ pool.
 *
 * DESIGN
 *
 * One transform of n = R * C points (R = 2^floor(L/2) rows, C = 2^ceil(L/2)
 * columns, the array read row-major) is the four-step factorisation written
 * as the decimation-in-frequency (DIF) network it is:
 *
 *   pass 1  for every block of NTT_COLS adjacent columns: copy the block into
 *           the worker's contiguous scratch (R x NTT_COLS), run an R-point DIF
 *           on all its columns at once, copy it back. The copy avoids the
 *           power-of-two stride between rows, which maps every row of a column
 *           onto the same cache sets. (The coset forward's shift g^(iC+j)
 *           is split: its row factor g^(iC) is applied during the copy in.)
 *   pass 2  for every row p: multiply element j by w^(rev_R(p) * j) (w the
 *           n-th root; the 1/n of the inverse folded into the first factor;
 *           for the coset forward the step is w^rev_R(p) * g, which applies
 *           the column factor g^j at no cost), then a C-point DIF on the
 *           contiguous row; for the inverse coset, position q is then
 *           multiplied by g^-(R rev_C(q)) (a table), the row's g^-rev_R(p)
 *           having joined the first factor: together g^-k for the output
 *           index k of that position (pass 3). No separate scaling pass.
 *   pass 3  a blocked in-place bit-reversal permutation: the DIF network
 *           leaves element k at position rev_n(k), and rev_n(p*C + q) =
 *           rev_C(q)*R + rev_R(p) is exactly where passes 1-2 put X[k].
 *
 * Each pass streams the array once from memory; a row (C points, 128 KiB at
 * 2^24) fits in L2, a column block (R x NTT_COLS points, 1 MiB at 2^24) in
 * L2 or L3, so the butterflies of a pass run on cached data. Butterflies are
 * radix 4 (two radix-2 stages fused in registers, halving the loads and
 * stores of radix 2). Twiddles come from tables built once per domain:
 * stage tables (w_{2h}^j for j < h, every h up to C/2: C - 1 entries) and the
 * row steps w^k for k < R, each for both directions, and the C inverse
 * coset factors: O(sqrt n) memory (2.5 MiB at 2^28; 5.6 MiB with the
 * 8-lane copies below).
 *
 * On a CPU with AVX-512 IFMA (fr_x8_enabled(), ff/ff.h) the butterflies and
 * scalings run 8 at a time on ff/fr_ifma.c's kernels, which hold Fr in 5
 * limbs of 52 bits only inside a call: memory keeps fr_t. Pass 1's lanes are
 * the block's NTT_COLS = 8 columns; its first DIF step reads the array and
 * its last writes it back, so the scratch is touched only in between (no
 * copies in and out). Pass 2's lanes are 8 consecutive j while a radix-4
 * step's quarter is >= 8 (one twiddle per lane, from groups of 8 prepared
 * twiddles); its last 2-4 stages are independent DIFs on blocks of 8 or 16
 * points, run with 8 blocks as the lanes. The twiddles are prepared once
 * per domain (16 w in radix 2^52, see ff.h). Rows shorter than
 * NTT_X8_ROW_MIN and column blocks narrower than 8 take the scalar code.
 * Both paths give the same values (tests/unit/test_ntt.c).
 *
 * Threads: every pass is one topo_pool_run; a task owns whole column blocks,
 * whole rows, or whole bit-reversal tiles, so no two tasks touch the same
 * element, and a worker's scratch is indexed by its worker id.
 */
#include <string.h>

#include "base/base.h"
#include "ntt/ntt.h"
#include "topo/topo.h"

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

struct ntt_domain {
    unsigned log_n, log_r, log_c;
    size_t n;
    fr_t n_inv, g, g_inv;
    fr_t *stage[2];   /* C - 1 entries; stage h (a power of 2) at offset h - 1: w_{2h}^j, j < h */
    fr_t *rowstep[2]; /* R entries: w_n^k (FWD) or w_n^-k (INV) */
    fr_t *coset_out;  /* C entries: g^-(R rev_C(q)), the inverse coset's factor at row position q */
    /* The same factors prepared for the 8-lane kernels (ff/fr_ifma.c): stage h
     * entry j at index h + j (tw: one factor, broadcast to the lanes; tw8:
     * groups of 8 consecutive indices, for rows whose lanes are j, h >= 8). */
    fr_tw_t *tw[2];      /* C entries */
    fr_tw8_t *tw8[2];    /* C/8 groups (at least 1) */
    fr_tw8_t *coset_tw8; /* C/8 groups (at least 1): coset_out by position */
};

static inline size_t bitrev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

int ntt_domain_create(ntt_domain_t **out, unsigned log_n, err_t *err)
{
    *out = NULL;
    if (log_n < 1 || log_n > NTT_LOG_MAX)
        return gm_err_set(err, GM_EINVAL, "ntt: log size %u is not in 1..%d", log_n, NTT_LOG_MAX);
    ntt_domain_t *d = gm_calloc(1, sizeof *d);
    if (!d)
        return gm_err_set(err, GM_ENOMEM, "ntt: out of memory for the 2^%u domain", log_n);
    d->log_n = log_n;
    d->log_r = log_n / 2;
    d->log_c = log_n - d->log_r;
    d->n = (size_t)1 << log_n;
    size_t R = (size_t)1 << d->log_r, C = (size_t)1 << d->log_c;
    for (int dir = 0; dir < 2; dir++) {
        d->stage[dir] = gm_alloc(C * sizeof(fr_t));
        d->rowstep[dir] = gm_alloc(R * sizeof(fr_t));
        if (!d->stage[dir] || !d->rowstep[dir]) {
            ntt_domain_destroy(d);
            return gm_err_set(err, GM_ENOMEM, "ntt: out of memory for the 2^%u twiddles", log_n);
        }
    }
    d->coset_out = gm_alloc(C * sizeof(fr_t));
    size_t groups = C >= 8 ? C / 8 : 1;
    for (int dir = 0; dir < 2; dir++) {
        d->tw[dir] = gm_alloc(C * sizeof(fr_tw_t));
        d->tw8[dir] = gm_calloc(groups, sizeof(fr_tw8_t));
    }
    d->coset_tw8 = gm_calloc(groups, sizeof(fr_tw8_t));
    if (!d->coset_out || !d->tw[0] || !d->tw[1] || !d->tw8[0] || !d->tw8[1] || !d->coset_tw8) {
        ntt_domain_destroy(d);
        return gm_err_set(err, GM_ENOMEM, "ntt: out of memory for the 2^%u twiddles", log_n);
    }
    fr_t n_fr;
    fr_set_u64(&n_fr, d->n);
    fr_inv(&d->n_inv, &n_fr);
    d->g = FR_GENERATOR;
    fr_inv(&d->g_inv, &d->g);
    for (int dir = 0; dir < 2; dir++) {
        for (size_t h = 1; h < C; h <<= 1) {
            unsigned k = 1;
            while (((size_t)1 << k) < 2 * h)
                k++;
            fr_t w, t = FR_ONE;
            fr_root_of_unity(&w, k);
            if (dir == INV)
                fr_inv(&w, &w);
            for (size_t j = 0; j < h; j++) {
                d->stage[dir][h - 1 + j] = t;
                fr_mul(&t, &t, &w);
            }
        }
        fr_t w, t = FR_ONE;
        fr_root_of_unity(&w, log_n);
        if (dir == INV)
            fr_inv(&w, &w);
        for (size_t k = 0; k < R; k++) {
            d->rowstep[dir][k] = t;
            fr_mul(&t, &t, &w);
        }
    }
    fr_t gr, t = FR_ONE;
    uint64_t e = R;
    fr_pow(&gr, &d->g_inv, &e, 1);
    for (size_t q = 0; q < C; q++) { /* t = g^-(R q) */
        d->coset_out[bitrev(q, d->log_c)] = t;
        fr_mul(&t, &t, &gr);
    }
    for (int dir = 0; dir < 2; dir++)
        for (size_t h = 1; h < C; h <<= 1)
            for (size_t j = 0; j < h; j++) {
                const fr_t *w = &d->stage[dir][h - 1 + j];
                fr_tw_from(&d->tw[dir][h + j], w);
                if (h >= 8)
                    fr_tw8_set(&d->tw8[dir][(h + j) / 8], (unsigned)((h + j) % 8), w);
            }
    for (size_t q = 0; C >= 8 && q < C; q++)
        fr_tw8_set(&d->coset_tw8[q / 8], (unsigned)(q % 8), &d->coset_out[q]);
    *out = d;
    return GM_OK;
}

void ntt_domain_destroy(ntt_domain_t *d)
{
    if (!d)
        return;
    for (int dir = 0; dir < 2; dir++) {
        gm_free(d->stage[dir]);
        gm_free(d->rowstep[dir]);
        gm_free(d->tw[dir]);
        gm_free(d->tw8[dir]);
    }
    gm_free(d->coset_out);
    gm_free(d->coset_tw8);
    gm_free(d);
}

size_t ntt_domain_size(const ntt_domain_t *d) { return d->n; }
unsigned ntt_domain_log_size(const ntt_domain_t *d) { return d->log_n; }

size_t ntt_scratch_size(const ntt_domain_t *d, unsigned nworkers)
{
    size_t C = (size_t)1 << d->log_c;
    size_t cols = C < NTT_COLS ? C : NTT_COLS;
    size_t per = ((size_t)1 << d->log_r) * cols * sizeof(fr_t);
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
static void dif(fr_t *restrict x, size_t m, size_t w, const fr_t *restrict stage)
{
    size_t h = m / 2;
    for (; h >= 2; h /= 4) {
        size_t q = h / 2;
        const fr_t *tw1 = stage + h - 1, *tw2 = stage + q - 1;
        for (size_t s = 0; s < m; s += 2 * h) {
            for (size_t j = 0; j < q; j++) {
                const fr_t *wa = &tw1[j], *wb = &tw1[j + q], *wc = &tw2[j];
                fr_t *p0 = x + (s + j) * w, *p1 = p0 + q * w, *p2 = p1 + q * w, *p3 = p2 + q * w;
                for (size_t b = 0; b < w; b++) {
                    fr_t y0, y1, y2, y3;
                    fr_add(&y0, &p0[b], &p2[b]);
                    fr_sub(&y2, &p0[b], &p2[b]);
                    fr_add(&y1, &p1[b], &p3[b]);
                    fr_sub(&y3, &p1[b], &p3[b]);
                    fr_mul(&y3, &y3, wb);
                    if (j != 0)
                        fr_mul(&y2, &y2, wa);
                    fr_add(&p0[b], &y0, &y1);
                    fr_sub(&p1[b], &y0, &y1);
                    fr_add(&p2[b], &y2, &y3);
                    fr_sub(&p3[b], &y2, &y3);
                    if (j != 0) {
                        fr_mul(&p1[b], &p1[b], wc);
                        fr_mul(&p3[b], &p3[b], wc);
                    }
                }
            }
        }
    }
    if (h == 1) {
        for (size_t s = 0; s < m; s += 2) {
            fr_t *p0 = x + s * w, *p1 = p0 + w;
            for (size_t b = 0; b < w; b++) {
                fr_t u = p0[b];
                fr_add(&p0[b], &u, &p1[b]);
                fr_sub(&p1[b], &u, &p1[b]);
            }
        }
    }
}

/*
 * The same network on 8 lanes (ff/fr_ifma.c), for the CPUs with AVX-512
 * IFMA. dif_x8_cols: m points of 8 lanes, one twiddle broadcast to all
 * lanes; point i of lane b is read from in[i * is + b * ls] by the first
 * step, lives in work[i * ws + b * ls] between steps and is written to
 * out[i * os + b * ls] by the last (pass 1: from the array through the
 * worker's scratch back to the array, so its copies in and out ride on the
 * first and last steps; the tail of a row below: all three the row, is = 1,
 * ls = m).
 */
static void dif_x8_cols(fr_t *out, size_t os, fr_t *work, size_t ws, const fr_t *in, size_t is, size_t m,
                        size_t ls, const fr_tw_t *tw)
{
    size_t h = m / 2;
    for (; h >= 2; h /= 4) {
        size_t q = h / 2;
        bool last = h == 2; /* (h = 4 is followed by the radix-2 step) */
        fr_t *dst = last ? out : work;
        size_t ds = last ? os : ws;
        for (size_t s = 0; s < m; s += 2 * h)
            for (size_t j = 0; j < q; j++)
                fr_x8_dif4(dst + (s + j) * ds, q * ds, in + (s + j) * is, q * is, ls, j ? &tw[h + j] : NULL,
                           &tw[h + j + q], j ? &tw[q + j] : NULL);
        in = work;
        is = ws;
    }
    if (h == 1)
        for (size_t s = 0; s < m; s += 2)
            fr_x8_dif2(out + s * os, os, in + s * is, is, ls);
}

/* A contiguous row of m >= 128 points: while a radix-4 step's quarter q is
 * at least 8, the lanes are 8 consecutive j (one twiddle per lane, from
 * tw8); the last two to four stages (h = 8 or 4 down to 1) are independent
 * DIFs on blocks of 2h consecutive points, run 8 blocks at a time with the
 * blocks as lanes. Same network, same twiddles as dif(x, m, 1, ...). */
static void dif_x8_row(fr_t *x, size_t m, const fr_tw_t *tw, const fr_tw8_t *tw8)
{
    size_t h = m / 2;
    for (; h >= 16; h /= 4) {
        size_t q = h / 2;
        for (size_t s = 0; s < m; s += 2 * h)
            for (size_t j = 0; j < q; j += 8)
                fr_x8_dif4v(x + s + j, q, &tw8[(h + j) / 8], &tw8[(h + j + q) / 8], &tw8[(q + j) / 8]);
    }
    size_t blk = 2 * h;
    for (size_t s = 0; s < m; s += 8 * blk)
        dif_x8_cols(x + s, 1, x + s, 1, x + s, 1, blk, blk, tw);
}

/* ---- the passes ---------------------------------------------------------- */

typedef struct {
    const ntt_domain_t *d;
    fr_t *a;
    int dir;
    bool coset_in;     /* pass 1 multiplies a[i] by g^i on the way in */
    bool scale_rows;   /* pass 2 folds 1/n into its twiddles */
    bool coset_out;    /* pass 2 also multiplies by g^-k (inverse coset; k the output index) */
    bool x8_cols, x8_rows; /* passes 1 and 2 on the 8-lane kernels */
    fr_t *scratch;     /* per worker: R * cols points */
    size_t cols, rows_per_task, chunk;
    unsigned br_bits;  /* tile side of the bit reversal (bits) */
    size_t mids_per_task;
} ntt_job_t;

static void pass_columns(void *arg, size_t task, unsigned worker)
{
    const ntt_job_t *J = arg;
    const ntt_domain_t *d = J->d;
    size_t R = (size_t)1 << d->log_r, C = (size_t)1 << d->log_c, B = J->cols;
    size_t j0 = task * B;
    fr_t *buf = J->scratch + (size_t)worker * R * B;
    const fr_t *in = buf; /* where the first DIF step reads (8-lane path) */
    size_t is = B;
    if (J->coset_in) {
        /* g^(i*C + j) = g^(iC) * g^j: the row factor g^(iC) here (one
         * product per element, one per row for the next factor), the column
         * factor g^j in pass 2, where it joins the twiddles for free. */
        fr_t f = FR_ONE, gc;
        uint64_t e = C;
        fr_pow(&gc, &d->g, &e, 1);
        memcpy(buf, &J->a[j0], B * sizeof(fr_t));
        for (size_t i = 1; i < R; i++) {
            fr_mul(&f, &f, &gc);
            if (J->x8_cols) {
                fr_tw_t ft;
                fr_tw_from(&ft, &f);
                fr_x8_mul_tw(&buf[i * B], &J->a[i * C + j0], &ft);
                continue;
            }
            for (size_t b = 0; b < B; b++)
                fr_mul(&buf[i * B + b], &J->a[i * C + j0 + b], &f);
        }
    } else if (J->x8_cols) { /* the first step reads the array itself */
        in = &J->a[j0];
        is = C;
    } else {
        for (size_t i = 0; i < R; i++)
            memcpy(&buf[i * B], &J->a[i * C + j0], B * sizeof(fr_t));
    }
    if (J->x8_cols) { /* and the last step writes it */
        dif_x8_cols(&J->a[j0], C, buf, B, in, is, R, 1, d->tw[J->dir]);
        return;
    }
    dif(buf, R, B, d->stage[J->dir]);
    for (size_t i = 0; i < R; i++)
        memcpy(&J->a[i * C + j0], &buf[i * B], B * sizeof(fr_t));
}

static void pass_rows(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const ntt_job_t *J = arg;
    const ntt_domain_t *d = J->d;
    size_t C = (size_t)1 << d->log_c;
    size_t p_end = (task + 1) * J->rows_per_task;
    for (size_t p = task * J->rows_per_task; p < p_end; p++) {
        fr_t *x = J->a + p * C;
        size_t rp = bitrev(p, d->log_r);
        fr_t step = d->rowstep[J->dir][rp], t;
        if (J->coset_in) /* the column factor g^j of the coset shift (pass 1) */
            fr_mul(&step, &step, &d->g);
        size_t j = 0;
        if (J->scale_rows) {
            t = d->n_inv;
            if (J->coset_out) { /* the row's part of g^-k, k = rev_C(q) R + rev_R(p) */
                fr_t gp;
                uint64_t e = rp;
                fr_pow(&gp, &d->g_inv, &e, 1);
                fr_mul(&t, &t, &gp);
            }
        } else {
            t = step;   /* element 0 keeps factor 1 */
            j = 1;
        }
        if (J->x8_rows) {
            if (!fr_is_one(&step) || J->scale_rows) {
                /* lanes k < 8 start at t_k = t step^k (t_0 = 1 when j starts
                 * at 1) and advance by step^8 */
                fr_tw8_t T;
                fr_tw_t S8;
                fr_t tk = J->scale_rows ? t : FR_ONE, s8 = step;
                for (unsigned k = 0; k < 8; k++) {
                    fr_tw8_set(&T, k, &tk);
                    fr_mul(&tk, &tk, &step);
                }
                for (int i = 0; i < 3; i++)
                    fr_sqr(&s8, &s8);
                fr_tw_from(&S8, &s8);
                fr_x8_scale_chain(x, C, &T, &S8);
            }
            dif_x8_row(x, C, d->tw[J->dir], d->tw8[J->dir]);
            if (J->coset_out)
                for (size_t q = 0; q < C; q += 8)
                    fr_x8_mul_tw8(&x[q], &d->coset_tw8[q / 8]);
            continue;
        }
        if (!fr_is_one(&step) || J->scale_rows) {
            for (; j < C; j++) {
                fr_mul(&x[j], &x[j], &t);
                fr_mul(&t, &t, &step);
            }
        }
        dif(x, C, 1, d->stage[J->dir]);
        if (J->coset_out) /* the position's part g^-(R rev_C(q)), while the row is in cache */
            for (size_t q = 0; q < C; q++)
                fr_mul(&x[q], &x[q], &d->coset_out[q]);
    }
}

/* Bit reversal: index i = hi | mid | lo (b, L - 2b, b bits) goes to
 * rev(lo) | rev(mid) | rev(hi); the 2^b x 2^b tile of one mid (rows of 2^b
 * contiguous points) maps onto the tile of rev(mid). Each task swaps the
 * tiles of its mids with mid <= rev(mid), through two stack buffers. */
static void pass_bitrev(void *arg, size_t task, unsigned worker)
{
    (void)worker;
    const ntt_job_t *J = arg;
    unsigned L = J->d->log_n, b = J->br_bits, mbits = L - 2 * b;
    size_t side = (size_t)1 << b, nmid = (size_t)1 << mbits;
    fr_t ta[1 << (2 * NTT_BR_BITS)], tb[1 << (2 * NTT_BR_BITS)];
    fr_t *a = J->a;
    size_t m_end = (task + 1) * J->mids_per_task;
    if (m_end > nmid)
        m_end = nmid;
    for (size_t mid = task * J->mids_per_task; mid < m_end; mid++) {
        size_t rmid = bitrev(mid, mbits);
        if (rmid < mid)
            continue;
        size_t base_a = mid << b, base_b = rmid << b;
        for (size_t hi = 0; hi < side; hi++) {
            memcpy(&ta[hi * side], &a[(hi << (L - b)) | base_a], side * sizeof(fr_t));
            if (rmid != mid)
                memcpy(&tb[hi * side], &a[(hi << (L - b)) | base_b], side * sizeof(fr_t));
        }
        /* Destination row hd, column ld of tile rmid receives ta[rev ld][rev hd]. */
        for (size_t hd = 0; hd < side; hd++) {
            size_t rh = bitrev(hd, b);
            fr_t *dst_b = &a[(hd << (L - b)) | base_b], *dst_a = &a[(hd << (L - b)) | base_a];
            for (size_t ld = 0; ld < side; ld++) {
                size_t rl = bitrev(ld, b);
                dst_b[ld] = ta[rl * side + rh];
                if (rmid != mid)
                    dst_a[ld] = tb[rl * side + rh];
            }
        }
    }
}

static void ntt_run(const ntt_domain_t *d, fr_t *a, int dir, bool coset, void *scratch, topo_pool_t *pool)
{
    size_t R = (size_t)1 << d->log_r, C = (size_t)1 << d->log_c, n = d->n;
    ntt_job_t J = {
        .d = d, .a = a, .dir = dir, .scratch = scratch,
        .coset_in = coset && dir == FWD,
        .scale_rows = dir == INV,
        .coset_out = coset && dir == INV,
    };
    J.cols = C < NTT_COLS ? C : NTT_COLS;
    bool x8 = fr_x8_enabled();
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
                fr_t t = a[i];
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

void ntt_forward(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool)
{
    ntt_run(d, a, FWD, false, scratch, pool);
}

void ntt_inverse(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool)
{
    ntt_run(d, a, INV, false, scratch, pool);
}

void ntt_coset_forward(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool)
{
    ntt_run(d, a, FWD, true, scratch, pool);
}

void ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, void *scratch, topo_pool_t *pool)
{
    ntt_run(d, a, INV, true, scratch, pool);
}
