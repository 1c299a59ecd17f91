/*
 * mpi/split_node.c — which rank of a split proof's communicator works for
 * its whole node: the first rank of each shared-memory node (Open MPI's
 * MPI_COMM_TYPE_SHARED, one per host), so that a per-node task (the
 * parameter file's whole-file digest) runs once per node and not once per
 * rank, while the result is still agreed over every rank.
 */
#include <mpi.h>

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
