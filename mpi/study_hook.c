/*
 * mpi/study_hook.c — keeps MPI up across several campaign runs in one
 * process (grothmpi study): mpi_campaign_run finalises MPI only when it
 * initialised it, so a caller that initialises it first can run many
 * campaigns and finalise once at the end. Main thread only.
 */
#include <mpi.h>
#include <limits.h>

#include "mpi/mpi_internal.h"

int mpi_study_init(int *rank, int *size, err_t *err)
{
    int inited = 0, provided = 0;
    MPI_Initialized(&inited);
    if (!inited && MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "MPI_Init_thread failed");
    if (!inited && provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        return gm_err_set(err, GM_EMPI, "MPI_Init_thread: MPI_THREAD_SERIALIZED not provided (%d)", provided);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

void mpi_study_finalize(void)
{
    int inited = 0, fin = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&fin);
    if (inited && !fin)
        MPI_Finalize();
}

int mpi_study_bcast(void *buf, size_t n, err_t *err)
{
    if (n > INT_MAX)
        return gm_err_set(err, GM_EMPI, "broadcast of %zu bytes: too large", n);
    MPI_Request req;
    if (MPI_Ibcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "MPI_Ibcast failed");
    mr_wait_idle(&req);
    return 0;
}
