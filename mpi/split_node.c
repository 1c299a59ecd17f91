/*
 * mpi/split_node.c — which rank of a split proof's communicator works for
 * its whole node: the first rank of each shared-memory node (Open MPI's
 * MPI_COMM_TYPE_SHARED, one per host), so that a per-node task (the
 * parameter file's whole-file digest) runs once per node and not once per
 * rank, while the result is still agreed over every rank; and an
 * agreement that waits without spinning, for ranks idle while one rank
 * works alone.
 */
#include <mpi.h>
#include <time.h>

#include "mpi/mpi.h"

int mpi_split_node_leader(const void *comm, bool *leader, err_t *err)
{
    *leader = false;
    MPI_Comm c = comm ? *(const MPI_Comm *)comm : MPI_COMM_WORLD, node;
    int rank = 0, nrank = 0;
    MPI_Comm_rank(c, &rank);
    int mpirc = MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    if (mpirc != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "rank %d: MPI_Comm_split_type failed (%d)", rank, mpirc);
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_free(&node);
    *leader = nrank == 0;
    return 0;
}

int mpi_split_agree_idle(const void *comm, int rc, err_t *err)
{
    MPI_Comm c = comm ? *(const MPI_Comm *)comm : MPI_COMM_WORLD;
    MPI_Request req;
    int done = 0;
    /* Open MPI busy-polls inside a blocking collective: on a machine whose
     * cores the ranks share, the waiting ranks would take the cores from
     * the one at work. A barrier tested every millisecond leaves them. */
    if (MPI_Ibarrier(c, &req) != MPI_SUCCESS)
        return gm_err_set(err, GM_EMPI, "MPI_Ibarrier failed");
    while (!done) {
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return gm_err_set(err, GM_EMPI, "MPI_Test of a barrier failed");
        if (!done)
            nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return mpi_split_agree(comm, rc, err);
}
