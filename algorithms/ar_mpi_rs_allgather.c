/*
 * mpi-rs-allgather: MPI_Reduce_scatter, then MPI_Allgatherv, with the
 * balanced chunks of sched_part_offset. A mock-up of MPI_Allreduce from the
 * library's halves, measured so that `collscope tune` can hold the library
 * to a performance guideline (issue 33): MPI_Allreduce should not be slower
 * than this.
 *
 * What it does
 *   The buffer is split into n chunks whose sizes differ by one element at
 *   most. The library's reduce-scatter leaves rank r the reduced chunk r at
 *   its place in the result; the library's all-gather, in place, then copies
 *   every chunk into every rank's result. These are the calls of `mpi`'s
 *   halves (allreduce --collective), so the mock-up's time can be set beside
 *   each half measured alone.
 *
 * Why not MPI_Reduce_scatter_block and MPI_Allgather (the guideline's own)
 *   They need a count divisible by n: at 3, 5, 6 or 7 ranks a sweep of
 *   powers of two would skip nearly every size. The irregular forms take any
 *   count, and the guidelines also hold MPI_Reduce_scatter_block <=
 *   MPI_Reduce_scatter and MPI_Allgather <= MPI_Allgatherv for the same
 *   data. So an MPI_Allreduce slower than this mock-up still breaks a
 *   guideline (the block one, or one of those two): the check stays sound;
 *   it only misses a library whose block forms alone are the faster ones.
 *
 * Cost (S = message bytes, n ranks)
 *   Two collectives, each the library's choice. At best log2 n steps and
 *   (n-1)/n x S sent per rank each (recursive halving, then doubling):
 *   together Rabenseifner's all-reduce, 2 log2 n steps and 2(n-1)/n x S, the
 *   bandwidth optimum. In place the library leaves the chunk at the start of
 *   the buffer: one copy of S/n more (ar_mpi_reduce_scatter).
 *
 * Restrictions
 *   None: any count (chunks may be empty), any rank count, every operator.
 *   Never part of '-a all' (ar_variant.guideline): selected by name. No
 *   non-blocking form (overlap skips it).
 *
 * Counts beyond call->mpi_max_count (default INT_MAX) go as consecutive
 * slices, each a reduce-scatter and an all-gather of its own balanced
 * chunks: every element ends the same. Count 0 still calls once each.
 *
 * Non-power-of-two rank counts
 *   The library's business; the chunks are balanced whatever n.
 *
 * Memory
 *   The counts and displacements (2 n ints, kept across calls: ar_mpi.h);
 *   whatever the library allocates per call.
 *
 * Reference
 *   J. L. Traff, W. D. Gropp, R. Thakur, "Self-consistent MPI performance
 *   guidelines", IEEE TPDS 21(5), 2010: MPI_Allreduce(n) <=
 *   MPI_Reduce_scatter_block(n) + MPI_Allgather(n). S. Hunold, A.
 *   Carpen-Amarie, F. D. Lubbe, J. L. Traff, "Automatic verification of
 *   self-consistent MPI performance guidelines", Euro-Par 2016 (ReproMPI's
 *   PGChecker).
 *
 * Trace, 3 ranks, count 7: chunks c0 = [0,3), c1 = [3,5), c2 = [5,7)
 *   reduce-scatter: r0's result[c0], r1's result[c1], r2's result[c2] hold
 *                   the sums of that chunk of every input
 *   all-gather:     r0 sends c0 to r1 and r2, r1 c1, r2 c2 (the library's
 *                   algorithm); every result holds all 7 sums
 */
#include <mpi.h>

#include "algorithms/ar_mpi.h"
#include "algorithms/executor.h"

#include <limits.h>

/* One slice of n elements at element done: its reduce-scatter, then its all-gather. */
static int rs_allgather(const struct ar_call *c, size_t done, size_t n)
{
	size_t w = ar_dtype_bytes(c->dtype);
	struct ar_call slice = *c;
	bool in_place = c->input == MPI_IN_PLACE || c->input == c->result;
	slice.result = (char *)c->result + done * w;
	slice.input = in_place ? slice.result : (const char *)c->input + done * w;
	slice.count = n;
	int rc = ar_mpi_reduce_scatter(&slice);
	/* the reduced chunk is now at its place in the result: gather in place from there */
	slice.input = slice.result;
	if (rc == MPI_SUCCESS)
		rc = ar_mpi_allgather(&slice);
	return rc;
}

static int run(const struct ar_call *c)
{
	size_t max_count = c->mpi_max_count;
	if (max_count == 0 || max_count > (size_t)INT_MAX)
		max_count = INT_MAX;
	int rc = MPI_SUCCESS;
	size_t done = 0;
	do {
		size_t n = c->count - done < max_count ? c->count - done : max_count;
		rc = rs_allgather(c, done, n);
		done += n;
	} while (done < c->count && rc == MPI_SUCCESS);
	return rc;
}

const struct ar_variant ar_variant_mpi_rs_allgather = {
    .name = "mpi-rs-allgather",
    .summary = "MPI_Reduce_scatter, then MPI_Allgatherv, balanced chunks (a guideline mock-up of "
               "MPI_Allreduce)",
    .algorithm = "the library's reduce-scatter, then its all-gather; at best 2 log2 n steps, "
                 "2(n-1)/n x S bytes sent per rank",
    .restrictions = 0,
    .run = run,
    .guideline = true,
};
