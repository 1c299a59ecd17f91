/*
 * mpi/split_ntt_shape.h — the NTT of a vector spread over R ranks (a split
 * proof's h): the six-step (four-step plus transposes) algorithm, one body
 * for every curve's Fr. A template, not a header: mpi/split_ntt.c
 * (BLS12-381, the mpi_split_ntt_* names of mpi/mpi.h) and
 * mpi/split_ntt_bn.c (BN254, mpi_split_bn_ntt_*) define the parameters
 * below and include it once; it defines static functions (sntt_create,
 * sntt_transform, ...) that they wrap by name. Parameters:
 *   SN_FR(x)      fr_x | bn_fr_x       the field
 *   SN_NTT(x)     ntt_x | bn_ntt_x     the local transforms (ntt/ntt.h)
 *   SN_STRUCT, SN_T                    the transform's struct tag and type (mpi/mpi.h)
 *   SN_EXCHANGE                        the all-to-all's type (mpi/mpi.h)
 *   SN_FR_ONE, SN_FR_GENERATOR         1 and the default coset shift
 *
 * With N = N1·N2, input index j = j1 + N1·j2 and output index k = k2 + N2·k1,
 *   X[k2 + N2·k1] = sum_j1 w_N1^(j1·k1) · w^(j1·k2) · sum_j2 w_N2^(j2·k2) x[j1 + N1·j2]
 * (w the domain's root, w_N1 = w^N2 and w_N2 = w^N1 the roots of the
 * smaller domains, as ntt/ makes them). So, on each rank:
 *   T1  natural slice -> whole columns j1 (this rank's share of the N1): all-to-all;
 *   the column NTTs (length N2), then the twiddles w^(j1·k2);
 *   T2  -> whole rows k2 (its share of the N2): all-to-all;
 *   the row NTTs (length N1): X[k2 + N2·k1] for its k2 and every k1;
 *   T3  -> natural slice again: all-to-all.
 * The inverse is the same with ntt_inverse (whose 1/N2 and 1/N1 make 1/N)
 * and w^-1; the cosets scale by g^(±j) on the natural slice.
 *
 * Layouts. The natural slice of rank r is [lo, hi) with lo = (N-1)·r/R and
 * hi = (N-1)·(r+1)/R, except that the last rank also holds N - 1: the
 * slices of h are those of the H query (N - 1 points,
 * groth16_slice_range), so no redistribution follows. A transpose is
 * generic over two layouts (a range per rank, or whole columns of a
 * width × height matrix by groth16_slice_range of the columns): every
 * rank enumerates its elements in increasing global index, sends each to
 * its owner in the target layout, and receives in the same order, so
 * neither side sends indices. One thread (the caller's) makes the
 * exchanges; the local NTTs of the columns / rows run as pool tasks, one
 * short transform each, with a scratch per worker.
 */
#ifndef SN_FR
#error "split_ntt_shape.h is a template: define SN_FR, SN_NTT, ... and include it once"
#endif

#include <stdlib.h>
#include <string.h>

#include "mpi/mpi.h"
#include "ntt/ntt.h"

typedef struct {
    bool cols;               /* false: ranges; true: whole columns */
    uint64_t width, height;  /* cols: element e = c + width·row, c in the column slice, stored [c - c_lo][row] */
    const uint64_t *lo, *hi; /* ranges: rank r holds [lo[r], hi[r]), stored at e - lo[r] */
} layout_t;

struct SN_STRUCT {
    unsigned rank, nranks, nworkers;
    uint64_t n, n1, n2;
    uint64_t *lo, *hi;       /* natural slices, one per rank */
    uint64_t *lo2, *hi2;     /* T2's target: rows k2 of the N1-wide matrix, N1·(slice of N2) */
    SN_NTT(domain_t) *d1, *d2;   /* sizes n1, n2 */
    uint8_t *scratch;        /* per worker: the scratch of the larger domain, 1 worker */
    size_t scratch_per_worker;
    SN_FR(t) w, w_inv, g, g_inv; /* roots and the coset shift */
    SN_FR(t) *work, *sendbuf, *recvbuf; /* local_max elements each */
    uint64_t *scount, *sdispl, *rcount, *rdispl, *cursor; /* per rank, in elements */
    uint64_t local_max;
};

/* Owner of index c of n split by groth16_slice_range over R. */
static unsigned slice_owner(uint64_t c, uint64_t n, unsigned R)
{
    unsigned r = (unsigned)((c * R) / n);
    for (;;) {
        uint64_t lo, hi;
        groth16_slice_range(&lo, &hi, n, r, R);
        if (c < lo)
            r--;
        else if (c >= hi)
            r++;
        else
            return r;
    }
}

static unsigned layout_owner(const layout_t *l, uint64_t e, unsigned R)
{
    if (l->cols)
        return slice_owner(e % l->width, l->width, R);
    unsigned r = 0;
    while (e >= l->hi[r])
        r++;
    return r;
}

/* Rank r's elements of a layout in increasing global index e, with their
 * offsets in the rank's storage. */
typedef struct {
    const layout_t *l;
    uint64_t e, base, end;       /* ranges */
    uint64_t row, c, c_lo, c_hi; /* columns */
} iter_t;

static void it_init(iter_t *it, const layout_t *l, unsigned r, unsigned R)
{
    memset(it, 0, sizeof *it);
    it->l = l;
    if (!l->cols) {
        it->e = it->base = l->lo[r], it->end = l->hi[r];
    } else {
        groth16_slice_range(&it->c_lo, &it->c_hi, l->width, r, R);
        it->c = it->c_lo;
        if (it->c_lo == it->c_hi)
            it->row = l->height; /* no columns: nothing to enumerate */
    }
}

static inline bool it_next(iter_t *it, uint64_t *e, uint64_t *off)
{
    const layout_t *l = it->l;
    if (!l->cols) {
        if (it->e >= it->end)
            return false;
        *e = it->e, *off = it->e - it->base;
        it->e++;
        return true;
    }
    if (it->row >= l->height)
        return false;
    *e = it->c + l->width * it->row;
    *off = (it->c - it->c_lo) * l->height + it->row;
    if (++it->c == it->c_hi)
        it->c = it->c_lo, it->row++;
    return true;
}

static uint64_t layout_share(const layout_t *l, unsigned r, unsigned R)
{
    if (!l->cols)
        return l->hi[r] - l->lo[r];
    uint64_t lo, hi;
    groth16_slice_range(&lo, &hi, l->width, r, R);
    return (hi - lo) * l->height;
}

/* The displacements of the counts t->scount and t->rcount, and the send
 * cursors at the start of each rank's block. */
static void displacements(SN_T *t)
{
    uint64_t s = 0, q = 0;
    for (unsigned r = 0; r < t->nranks; r++) {
        t->sdispl[r] = s, s += t->scount[r];
        t->rdispl[r] = q, q += t->rcount[r];
    }
    memcpy(t->cursor, t->sdispl, t->nranks * sizeof *t->cursor);
}

/* dst (this rank's share under `to`) = src (its share under `from`): one
 * all-to-all through t's send and receive buffers. Each side enumerates
 * in increasing e, so the receiver knows where each element goes. */
static int transpose(SN_T *t, SN_FR(t) *dst, const SN_FR(t) *src, const layout_t *from, const layout_t *to,
                     SN_EXCHANGE ex, void *ex_arg, err_t *err)
{
    unsigned R = t->nranks, me = t->rank;
    memset(t->scount, 0, R * sizeof *t->scount);
    memset(t->rcount, 0, R * sizeof *t->rcount);
    iter_t it;
    uint64_t e, off;
    for (it_init(&it, from, me, R); it_next(&it, &e, &off);)
        t->scount[layout_owner(to, e, R)]++;
    for (it_init(&it, to, me, R); it_next(&it, &e, &off);)
        t->rcount[layout_owner(from, e, R)]++;
    displacements(t);
    for (it_init(&it, from, me, R); it_next(&it, &e, &off);)
        t->sendbuf[t->cursor[layout_owner(to, e, R)]++] = src[off];
    int rc = ex(ex_arg, t->sendbuf, t->scount, t->sdispl, t->recvbuf, t->rcount, t->rdispl, err);
    if (rc)
        return rc;
    memcpy(t->cursor, t->rdispl, R * sizeof *t->cursor);
    for (it_init(&it, to, me, R); it_next(&it, &e, &off);)
        dst[off] = t->recvbuf[t->cursor[layout_owner(from, e, R)]++];
    return 0;
}

typedef struct {
    const SN_T *t;
    SN_FR(t) *v;
    uint64_t len; /* of each vector */
    const SN_NTT(domain_t) *d;
    bool inverse;
    bool twiddle; /* vector i (global index first + i) times root^((first + i)·k) at k */
    uint64_t first;
    const SN_FR(t) *root;
} vecs_job_t;

/* One short NTT per task (a column or a row), then its twiddles.
 * (1) Why: the vectors are short (about sqrt N) and many, so one per task
 *     keeps every worker busy with no synchronisation inside a transform.
 * (2) Invariants: task i owns vector i; worker w uses its own scratch.
 * (3) Measured as the stage "h" of `grothmpi prove --split --verbose`
 *     (docs/split.md). */
static void vecs_task(void *arg, size_t i, unsigned worker)
{
    const vecs_job_t *j = arg;
    SN_FR(t) *v = j->v + i * j->len;
    void *sc = j->t->scratch + (size_t)worker * j->t->scratch_per_worker;
    if (j->inverse)
        SN_NTT(inverse)(j->d, v, sc, NULL);
    else
        SN_NTT(forward)(j->d, v, sc, NULL);
    if (!j->twiddle)
        return;
    uint64_t e = j->first + i;
    SN_FR(t) step, x = SN_FR_ONE;
    SN_FR(pow)(&step, j->root, &e, 1);
    for (uint64_t k = 0; k < j->len; k++) {
        SN_FR(mul)(&v[k], &v[k], &x);
        SN_FR(mul)(&x, &x, &step);
    }
}

/* v[i] *= c^(lo + i), i < n. */
static void scale_powers(SN_FR(t) *v, uint64_t lo, uint64_t n, const SN_FR(t) *c)
{
    SN_FR(t) x;
    SN_FR(pow)(&x, c, &lo, 1);
    for (uint64_t i = 0; i < n; i++) {
        SN_FR(mul)(&v[i], &v[i], &x);
        SN_FR(mul)(&x, &x, c);
    }
}

static void sntt_destroy(SN_T *t)
{
    if (!t)
        return;
    SN_NTT(domain_destroy)(t->d1);
    SN_NTT(domain_destroy)(t->d2);
    gm_free(t->scratch);
    gm_free(t->work);
    gm_free(t->sendbuf);
    gm_free(t->recvbuf);
    gm_free(t->lo);
    gm_free(t);
}

static int sntt_create(SN_T **out, unsigned log_n, unsigned rank, unsigned nranks, unsigned nworkers,
                         err_t *err)
{
    *out = NULL;
    if (log_n < 2 || log_n > 28 || nranks < 1 || rank >= nranks)
        return gm_err_set(err, GM_EINVAL, "split NTT: 2^%u points on rank %u of %u: sizes 2^2..2^28, rank < ranks",
                          log_n, rank, nranks);
    SN_T *t = gm_calloc(1, sizeof *t);
    if (!t)
        return gm_err_set(err, GM_ENOMEM, "split NTT: out of memory");
    int rc = 0;
    unsigned R = nranks;
    t->rank = rank, t->nranks = R, t->nworkers = nworkers ? nworkers : 1;
    t->n = 1ULL << log_n;
    t->n1 = 1ULL << (log_n / 2);
    t->n2 = t->n / t->n1;
    /* one block for the seven per-rank arrays */
    t->lo = gm_calloc((size_t)R * 9, sizeof(uint64_t));
    if (!t->lo) {
        rc = gm_err_set(err, GM_ENOMEM, "split NTT: out of memory");
        goto fail;
    }
    t->hi = t->lo + R, t->lo2 = t->hi + R, t->hi2 = t->lo2 + R;
    t->scount = t->hi2 + R, t->sdispl = t->scount + R, t->rcount = t->sdispl + R, t->rdispl = t->rcount + R;
    t->cursor = t->rdispl + R;
    for (unsigned r = 0; r < R; r++) {
        groth16_slice_range(&t->lo[r], &t->hi[r], t->n - 1, r, R);
        uint64_t a, b;
        groth16_slice_range(&a, &b, t->n2, r, R);
        t->lo2[r] = a * t->n1, t->hi2[r] = b * t->n1;
    }
    t->hi[R - 1] = t->n;
    layout_t nat = {.lo = t->lo, .hi = t->hi}, c1 = {.cols = true, .width = t->n1, .height = t->n2},
             r2 = {.lo = t->lo2, .hi = t->hi2}, c3 = {.cols = true, .width = t->n2, .height = t->n1};
    const layout_t *ls[4] = {&nat, &c1, &r2, &c3};
    for (int i = 0; i < 4; i++)
        if (layout_share(ls[i], rank, R) > t->local_max)
            t->local_max = layout_share(ls[i], rank, R);
    uint64_t plo, phi; /* mpi_split_ntt_odd_permute's target: a slice of all n */
    groth16_slice_range(&plo, &phi, t->n, rank, R);
    if (phi - plo > t->local_max)
        t->local_max = phi - plo;
    if ((rc = SN_NTT(domain_create)(&t->d1, log_n / 2, err)) ||
        (rc = SN_NTT(domain_create)(&t->d2, log_n - log_n / 2, err)))
        goto fail;
    t->scratch_per_worker = (SN_NTT(scratch_size)(t->d2, 1) + 63) & ~(size_t)63;
    t->scratch = gm_alloc(t->scratch_per_worker * t->nworkers);
    size_t bytes = (size_t)(t->local_max + 1) * sizeof(SN_FR(t));
    t->work = gm_alloc(bytes);
    t->sendbuf = gm_alloc(bytes);
    t->recvbuf = gm_alloc(bytes);
    if (!t->scratch || !t->work || !t->sendbuf || !t->recvbuf) {
        rc = gm_err_set(err, GM_ENOMEM, "split NTT: out of memory for 2^%u points over %u ranks", log_n, R);
        goto fail;
    }
    SN_FR(root_of_unity)(&t->w, log_n);
    SN_FR(inv)(&t->w_inv, &t->w);
    t->g = SN_FR_GENERATOR;
    SN_FR(inv)(&t->g_inv, &t->g);
    *out = t;
    return 0;
fail:
    sntt_destroy(t);
    return rc;
}

static void sntt_set_coset(SN_T *t, const SN_FR(t) *g)
{
    GM_ASSERT(!SN_FR(is_zero)(g));
    t->g = *g;
    SN_FR(inv)(&t->g_inv, g);
}

static void sntt_range(const SN_T *t, uint64_t *lo, uint64_t *hi)
{
    *lo = t->lo[t->rank];
    *hi = t->hi[t->rank];
}

static size_t sntt_memory(const SN_T *t)
{
    return 3 * (size_t)(t->local_max + 1) * sizeof(SN_FR(t)) + t->scratch_per_worker * t->nworkers;
}

static int sntt_transform(SN_T *t, SN_FR(t) *v, mpi_split_ntt_kind_t kind, SN_EXCHANGE ex,
                            void *ex_arg, topo_pool_t *pool, err_t *err)
{
    GM_ASSERT(topo_pool_size(pool) <= t->nworkers);
    unsigned R = t->nranks, me = t->rank;
    bool inverse = kind == MPI_SPLIT_NTT_INVERSE || kind == MPI_SPLIT_NTT_COSET_INVERSE;
    uint64_t lo = t->lo[me], n_loc = t->hi[me] - lo;
    if (kind == MPI_SPLIT_NTT_COSET_FORWARD)
        scale_powers(v, lo, n_loc, &t->g);
    layout_t nat = {.lo = t->lo, .hi = t->hi}, c1 = {.cols = true, .width = t->n1, .height = t->n2},
             r2 = {.lo = t->lo2, .hi = t->hi2}, c3 = {.cols = true, .width = t->n2, .height = t->n1};
    int rc;
    /* T1: x[j1 + N1·j2], natural -> whole columns j1, stored [j1][j2] */
    if ((rc = transpose(t, t->work, v, &nat, &c1, ex, ex_arg, err)))
        return rc;
    uint64_t c_lo, c_hi;
    groth16_slice_range(&c_lo, &c_hi, t->n1, me, R);
    vecs_job_t j = {.t = t, .v = t->work, .len = t->n2, .d = t->d2, .inverse = inverse, .twiddle = true,
                    .first = c_lo, .root = inverse ? &t->w_inv : &t->w};
    topo_pool_run(pool, (size_t)(c_hi - c_lo), vecs_task, &j);
    /* T2: Y[j1][k2] is element j1 + N1·k2 of the N1-wide matrix; this
     * rank's rows k2 are a range of that index, stored [k2][j1]. */
    if ((rc = transpose(t, t->work, t->work, &c1, &r2, ex, ex_arg, err)))
        return rc;
    uint64_t k_lo, k_hi;
    groth16_slice_range(&k_lo, &k_hi, t->n2, me, R);
    j = (vecs_job_t){.t = t, .v = t->work, .len = t->n1, .d = t->d1, .inverse = inverse};
    topo_pool_run(pool, (size_t)(k_hi - k_lo), vecs_task, &j);
    /* T3: Z[k2][k1] = X[k2 + N2·k1], columns k2 of the N2-wide matrix -> natural */
    if ((rc = transpose(t, v, t->work, &c3, &nat, ex, ex_arg, err)))
        return rc;
    if (kind == MPI_SPLIT_NTT_COSET_INVERSE)
        scale_powers(v, lo, n_loc, &t->g_inv);
    return 0;
}

/* The natural owner of index k (the last rank also holds n - 1). */
static unsigned nat_owner(const SN_T *t, uint64_t k)
{
    return k >= t->n - 1 ? t->nranks - 1 : slice_owner(k, t->n - 1, t->nranks);
}

typedef struct {
    uint64_t k, i;
} kpair_t;

static int kpair_cmp(const void *a, const void *b)
{
    uint64_t x = ((const kpair_t *)a)->k, y = ((const kpair_t *)b)->k;
    return x < y ? -1 : x > y;
}

static int sntt_odd_permute(SN_T *t, SN_FR(t) *out, const SN_FR(t) *v, uint64_t mult, SN_EXCHANGE ex,
                              void *ex_arg, err_t *err)
{
    GM_ASSERT(mult & 1);
    unsigned R = t->nranks, me = t->rank;
    uint64_t n = t->n, mask = 2 * n - 1, m = mult & mask;
    /* m's inverse mod 2^64 by Newton's iteration (each step doubles the
     * correct low bits, from 3 for any odd m), then mod 2n. */
    uint64_t minv = m;
    for (int i = 0; i < 5; i++)
        minv *= 2 - m * minv;
    minv &= mask;
    uint64_t lo = t->lo[me], hi = t->hi[me], olo, ohi;
    groth16_slice_range(&olo, &ohi, n, me, R);
    /* The work buffer is free between transforms and holds local_max + 1
     * Fr values, twice as many pairs as this rank's slice. */
    kpair_t *pairs = (kpair_t *)(void *)t->work;
    memset(t->scount, 0, R * sizeof *t->scount);
    memset(t->rcount, 0, R * sizeof *t->rcount);
    /* Sender: v[k] goes to the owner of i, 2i + 1 = m^-1 (2k + 1). */
    for (uint64_t k = lo; k < hi; k++)
        t->scount[slice_owner(((minv * (2 * k + 1)) & mask) >> 1, n, R)]++;
    /* Receiver: out[i] comes from the owner of k, received in increasing k
     * per sender, as the sender packs them. */
    for (uint64_t i = olo; i < ohi; i++) {
        pairs[i - olo] = (kpair_t){((m * (2 * i + 1)) & mask) >> 1, i};
        t->rcount[nat_owner(t, pairs[i - olo].k)]++;
    }
    qsort(pairs, (size_t)(ohi - olo), sizeof *pairs, kpair_cmp);
    displacements(t);
    for (uint64_t k = lo; k < hi; k++)
        t->sendbuf[t->cursor[slice_owner(((minv * (2 * k + 1)) & mask) >> 1, n, R)]++] = v[k - lo];
    int rc = ex(ex_arg, t->sendbuf, t->scount, t->sdispl, t->recvbuf, t->rcount, t->rdispl, err);
    if (!rc) {
        memcpy(t->cursor, t->rdispl, R * sizeof *t->cursor);
        for (uint64_t j = 0; j < ohi - olo; j++)
            out[pairs[j].i - olo] = t->recvbuf[t->cursor[nat_owner(t, pairs[j].k)]++];
    }
    return rc;
}
