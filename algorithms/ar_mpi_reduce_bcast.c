/*
 * mpi-reduce-bcast: MPI_Reduce to rank 0, then MPI_Bcast from rank 0. A
 * mock-up of MPI_Allreduce from two other collectives of the same library,
 * measured so that `collscope tune` can hold the library to a performance
 * guideline (issue 33): MPI_Allreduce should not be slower than this.
 *
 * What it does
 *   Rank 0 receives the sum (or product, min, max) of every rank's input in
 *   its result through the library's reduce, and the library's broadcast
 *   then copies it into every other rank's result. Both algorithms are the
 *   library's choice per size and rank count; collscope does not pick them.
 *
 * Cost (S = message bytes, n ranks)
 *   Two collectives one after the other. At best a reduce takes log2 n steps
 *   and, for long messages, a reduce-scatter then a gather (2(n-1)/n x S
 *   through the root's link); a broadcast the same as a scatter then an
 *   all-gather. Together about twice the steps and twice the bytes of an
 *   optimal all-reduce (log2 n steps, 2(n-1)/n x S): an MPI_Allreduce slower
 *   than this mock-up leaves at least that much on the table.
 *
 * Restrictions
 *   None: the library's reduce takes every operator and count; any rank
 *   count. Never part of '-a all' (ar_variant.guideline): selected by name.
 *   No non-blocking form (overlap skips it).
 *
 * In place
 *   Rank 0 passes MPI_IN_PLACE; the others pass their result as the send
 *   buffer (it holds their input) and no receive buffer, which the standard
 *   ignores off the root (and which must not alias the send buffer).
 *
 * Counts beyond call->mpi_max_count (default INT_MAX) go as consecutive
 * slices, each a reduce and a broadcast of its slice, as `mpi` does with its
 * all-reduces: every element ends the same. Count 0 still calls once each
 * (the library's behaviour at 0 is part of what is measured).
 *
 * Non-power-of-two rank counts
 *   The library's business, as for `mpi`.
 *
 * Memory
 *   Nothing of collscope's; whatever the library allocates per call (a
 *   cliff in `allreduce` shows where that turns into a fresh mmap).
 *
 * Reference
 *   J. L. Traff, W. D. Gropp, R. Thakur, "Self-consistent MPI performance
 *   guidelines", IEEE TPDS 21(5), 2010: MPI_Allreduce(n) <= MPI_Reduce(n) +
 *   MPI_Bcast(n). S. Hunold, A. Carpen-Amarie, F. D. Lubbe, J. L. Traff,
 *   "Automatic verification of self-consistent MPI performance guidelines",
 *   Euro-Par 2016 (ReproMPI's PGChecker, whose mock-up this is).
 *
 * Trace, 3 ranks, inputs x0, x1, x2
 *   reduce:    r1 and r2 send x1, x2 along the library's tree; r0's result
 *              holds x0 + x1 + x2
 *   broadcast: r0 sends its result along the library's tree; r1's and r2's
 *              results hold x0 + x1 + x2
 */
#include <mpi.h>

#include "algorithms/ar_mpi.h"
#include "algorithms/executor.h"

#include <limits.h>

enum { ROOT = 0 };

/* One slice of n elements at element done: a reduce to ROOT, then a broadcast from it. */
static int reduce_bcast(const struct ar_call *c, MPI_Op op, size_t done, size_t n)
{
	MPI_Datatype type = ar_mpi_datatype(c->dtype);
	size_t w = ar_dtype_bytes(c->dtype);
	char *result = (char *)c->result + done * w;
	bool in_place = c->input == MPI_IN_PLACE || c->input == c->result;
	const void *src = in_place ? result : (const char *)c->input + done * w;
	void *dst = result;
	if (in_place && c->rank == ROOT)
		src = MPI_IN_PLACE;
	else if (in_place)
		dst = NULL; /* off the root the receive buffer is ignored: it must not alias src */
	int rc = MPI_Reduce(src, dst, (int)n, type, op, ROOT, c->comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(result, (int)n, type, ROOT, c->comm);
	return rc;
}

static int run(const struct ar_call *c)
{
	MPI_Op op = MPI_OP_NULL;
	size_t max_count = c->mpi_max_count;
	int rc = ar_mpi_op(c->dtype, c->op, &op);
	if (max_count == 0 || max_count > (size_t)INT_MAX)
		max_count = INT_MAX;
	size_t done = 0;
	do {
		size_t n = c->count - done < max_count ? c->count - done : max_count;
		if (rc == MPI_SUCCESS)
			rc = reduce_bcast(c, op, done, n);
		done += n;
	} while (done < c->count && rc == MPI_SUCCESS);
	return rc;
}

const struct ar_variant ar_variant_mpi_reduce_bcast = {
    .name = "mpi-reduce-bcast",
    .summary = "MPI_Reduce to rank 0, then MPI_Bcast (a guideline mock-up of MPI_Allreduce)",
    .algorithm = "the library's reduce, then its broadcast; at best about twice an optimal "
                 "all-reduce's steps and bytes",
    .restrictions = 0,
    .run = run,
    .guideline = true,
};
