/*
 * The MPI library's MPI_Allreduce for any count, dtype and op of collscope:
 * counts beyond max_count (0 = INT_MAX) go as consecutive calls, bfloat16
 * through a user-defined operator. Used by the `mpi` variant and by `shm`
 * for the part of its work that crosses hosts.
 */
#include <mpi.h>

#ifndef COLLSCOPE_AR_MPI_H
#define COLLSCOPE_AR_MPI_H

#include <stddef.h>

#include "algorithms/dtype.h"

/* input may be MPI_IN_PLACE or equal to result. Returns an MPI error code. */
int ar_mpi_allreduce(const void *input, void *result, size_t count, enum ar_dtype t, enum ar_op op,
                     MPI_Comm comm, size_t max_count);

/*
 * The non-blocking MPI_Iallreduce of the same; count at most INT_MAX (else
 * MPI_ERR_COUNT: no chunking of a single request). An MPI error code.
 */
int ar_mpi_iallreduce(const void *input, void *result, size_t count, enum ar_dtype t, enum ar_op op,
                      MPI_Comm comm, MPI_Request *req);

#endif
