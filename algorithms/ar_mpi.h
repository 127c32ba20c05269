/*
 * The MPI library's MPI_Allreduce for any count, dtype and op of collscope:
 * counts beyond max_count (0 = INT_MAX) go as consecutive calls, bfloat16
 * through a user-defined operator. Used by the `mpi` variant, by `shm`
 * for the part of its work that crosses hosts, and by the guideline
 * mock-ups (ar_mpi_reduce_bcast.c, ar_mpi_rs_allgather.c), which compose the
 * library's other collectives with the same types and operators.
 */
#include <mpi.h>

#ifndef COLLSCOPE_AR_MPI_H
#define COLLSCOPE_AR_MPI_H

#include <stddef.h>

#include "algorithms/dtype.h"

struct ar_call; /* algorithms/executor.h */

/* t as the library's datatype: bfloat16 travels as MPI_UINT16_T. */
MPI_Datatype ar_mpi_datatype(enum ar_dtype t);

/*
 * The library's operator for op over t in *out: a built-in one, or for
 * bfloat16 a user-defined, commutative one that widens to float32 (created
 * on first use, living until MPI_Finalize). Returns an MPI error code.
 */
int ar_mpi_op(enum ar_dtype t, enum ar_op op, MPI_Op *out);

/* input may be MPI_IN_PLACE or equal to result. Returns an MPI error code. */
int ar_mpi_allreduce(const void *input, void *result, size_t count, enum ar_dtype t, enum ar_op op,
                     MPI_Comm comm, size_t max_count);

/*
 * The non-blocking MPI_Iallreduce of the same; count at most INT_MAX (else
 * MPI_ERR_COUNT: no chunking of a single request). An MPI error code.
 */
int ar_mpi_iallreduce(const void *input, void *result, size_t count, enum ar_dtype t, enum ar_op op,
                      MPI_Comm comm, MPI_Request *req);

/*
 * The halves through the library, with the balanced chunks of
 * sched_part_offset (any count): MPI_Reduce_scatter leaves rank r's chunk r
 * at its place in c->result; MPI_Allgatherv starts from chunk r of
 * c->input (c->input == c->result: in place) and ends with every chunk in
 * c->result. c->count at most INT_MAX, else MPI_ERR_COUNT. The counts and
 * displacements live in one static array, grown when a larger job first
 * calls (not thread-safe). Return an MPI error code.
 */
int ar_mpi_reduce_scatter(const struct ar_call *c);
int ar_mpi_allgather(const struct ar_call *c);

#endif
