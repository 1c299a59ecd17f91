/*
 * mpi/split_ntt.c — the split NTT (mpi/split_ntt_shape.h) over BLS12-381's Fr,
 * under the mpi_split_ntt_* names of mpi/mpi.h.
 */
#define SN_FR(x) fr_##x
#define SN_NTT(x) ntt_##x
#define SN_STRUCT mpi_split_ntt
#define SN_T mpi_split_ntt_t
#define SN_EXCHANGE mpi_split_exchange_fn
#define SN_FR_ONE FR_ONE
#define SN_FR_GENERATOR FR_GENERATOR
#include "mpi/split_ntt_shape.h"

void mpi_split_ntt_destroy(mpi_split_ntt_t *t) { sntt_destroy(t); }

int mpi_split_ntt_create(mpi_split_ntt_t **out, unsigned log_n, unsigned rank, unsigned nranks, unsigned nworkers,
                         err_t *err)
{
    return sntt_create(out, log_n, rank, nranks, nworkers, err);
}

void mpi_split_ntt_set_coset(mpi_split_ntt_t *t, const fr_t *g) { sntt_set_coset(t, g); }

void mpi_split_ntt_range(const mpi_split_ntt_t *t, uint64_t *lo, uint64_t *hi) { sntt_range(t, lo, hi); }

size_t mpi_split_ntt_memory(const mpi_split_ntt_t *t) { return sntt_memory(t); }

int mpi_split_ntt_transform(mpi_split_ntt_t *t, fr_t *v, mpi_split_ntt_kind_t kind, mpi_split_exchange_fn ex,
                            void *ex_arg, topo_pool_t *pool, err_t *err)
{
    return sntt_transform(t, v, kind, ex, ex_arg, pool, err);
}

int mpi_split_ntt_odd_permute(mpi_split_ntt_t *t, fr_t *out, const fr_t *v, uint64_t mult, mpi_split_exchange_fn ex,
                              void *ex_arg, err_t *err)
{
    return sntt_odd_permute(t, out, v, mult, ex, ex_arg, err);
}
