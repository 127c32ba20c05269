/*
 * The aggressors' load in `congestion` (issue 31): traffic that shares the
 * network with the victims' all-reduce. Collective over the aggressors'
 * communicator; nothing is printed. The patterns are GPCNeT's congestors:
 *   alltoall: every rank sends `bytes` to every other (MPI_Alltoall);
 *   incast:   every rank but the first sends `bytes` to the first, which
 *             receives them all at once (one host's link saturated);
 *   shift:    round i, every rank sends `bytes` to rank + d and receives
 *             from rank - d, d = 1 + i mod (n - 1): every link at full
 *             bandwidth, a different partner each round.
 * One call is one round; the caller repeats rounds until the victims are
 * done. Buffers are allocated once by congestor_init.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CONGESTOR_H
#define COLLSCOPE_CONGESTOR_H

#include <stddef.h>
#include <stdint.h>

#include "probes/congestor_kind.h"

struct congestor {
	MPI_Comm comm; /* borrowed */
	int rank, nranks;
	enum congestor_kind kind;
	size_t bytes;
	char *send, *recv; /* alltoall: nranks x bytes each; else bytes, incast's root nranks x */
	MPI_Request *reqs; /* incast's root: nranks */
	uint64_t rounds;   /* done so far */
};

/* Collective over comm (nranks >= 2). MPI_SUCCESS, or MPI_ERR_NO_MEM on this rank. */
int congestor_init(struct congestor *c, MPI_Comm comm, enum congestor_kind kind, size_t bytes);
/* Collective: one round. MPI_SUCCESS or the MPI error. */
int congestor_round(struct congestor *c);
void congestor_release(struct congestor *c);

#endif
