/*
 * shm's halves: reduce-scatter and all-gather on one host, each rank reading
 * its peers' buffers where they are (issue 35).
 *
 * What it does
 *   The ranks publish their buffers through the host's barrier
 *   (shm_host.h), as the shm all-reduce does. Reduce-scatter: rank r sums
 *   chunk r (sched_part_offset's balanced split) of every rank's input,
 *   block by block in a buffer that stays in cache, own input first, into
 *   chunk r of its own result: exactly the first half of shm's one-host
 *   all-reduce, without pushing the sums to the peers. All-gather: rank r
 *   copies chunk i of rank i's input into chunk i of its result, for every
 *   i (its own chunk too, out of place). A last barrier keeps a rank from
 *   returning while a peer still reads its buffers.
 *
 * Cost (S = message bytes, L ranks)
 *   Reduce-scatter: reads S (chunk r of L inputs), writes S/L, L - 1
 *   reductions of S/L; all-gather: reads and writes (L-1)/L x S (S out of
 *   place). Two host barriers on shared-memory flags each; no copy through
 *   a transport, no kernel call.
 *
 * Restrictions
 *   Every rank on one host (AR_NEEDS_ONE_HOST: across hosts the chunks of
 *   the whole job do not line up with any host's; the harness skips it
 *   there), buffers from a shared-memory arena (shared_buffers), and a
 *   commutative operator for the reduce-scatter (chunk r starts from rank
 *   r's input). Any rank count.
 *
 * Non-power-of-two rank counts
 *   Nothing special: chunks differ by at most one element, and a count below
 *   L leaves some ranks an empty chunk.
 *
 * Memory
 *   No scratch beyond shm's 64 KiB block. In place, chunk r of every
 *   buffer is written by rank r alone, and only after it read it (reduce-
 *   scatter); an all-gather in place writes every chunk but rank r's own in
 *   rank r's buffer, and reads only chunk i of rank i's, which rank i never
 *   writes.
 *
 * Reference
 *   The intra-node reduce-scatter and all-gather of NCCL's and Gloo's
 *   shared-memory steps; MPI_Reduce_scatter and MPI_Allgatherv (MPI 4.0,
 *   sections 6.11.1 and 6.7).
 *
 * Trace, 3 ranks, count 6: chunks c0 = [0,2), c1 = [2,4), c2 = [4,6)
 *   reduce-scatter: r0: res0[c0] = in0[c0] + in1[c0] + in2[c0]
 *                   r1: res1[c1] = in1[c1] + in0[c1] + in2[c1]
 *                   r2: res2[c2] = in2[c2] + in0[c2] + in1[c2]
 *   all-gather:     r0: res0[c0] = in0[c0]; res0[c1] = in1[c1]; res0[c2] = in2[c2]
 *                   r1, r2 the same into their own results
 */
#include <mpi.h>

#include "algorithms/shm_halves.h"
#include "algorithms/shm_host.h"
#include "algorithms/stream_copy.h"

#include <string.h>

/* The host's state with this call's buffers published; every input is ready on return. */
static int enter(const struct ar_call *c, struct shm_state **st)
{
	const size_t bytes = c->count * ar_dtype_bytes(c->dtype);
	int rc = shm_state_of(c->comm, st);
	/* the harness skips several hosts (AR_NEEDS_ONE_HOST); a direct caller learns it here */
	if (rc == MPI_SUCCESS && (*st)->hosts > 1)
		return MPI_ERR_UNSUPPORTED_OPERATION;
	if (rc == MPI_SUCCESS)
		rc = shm_gather_offsets(*st, c, bytes);
	if (rc == MPI_SUCCESS)
		(*st)->stream =
		    ar_stream_pays((c->input == c->result ? 1 : 2) * (size_t)(*st)->nlocal * bytes);
	return rc;
}

int shm_reduce_scatter(const struct ar_call *c)
{
	struct shm_state *st = NULL;
	int rc = enter(c, &st);
	if (rc != MPI_SUCCESS)
		return rc;
	const size_t w = ar_dtype_bytes(c->dtype), L = (size_t)st->nlocal;
	const size_t first = sched_part_offset(c->count, L, (size_t)st->local);
	const size_t n = sched_part_count(c->count, L, (size_t)st->local);
	if (L > 1)
		shm_sum_range(st, c, first, n, st->local, st->local);
	else if (c->input != c->result)
		memcpy((char *)c->result + first * w, (const char *)c->input + first * w, n * w);
	/* nobody returns while a peer may still read its input */
	shm_host_barrier(st);
	return MPI_SUCCESS;
}

int shm_allgather(const struct ar_call *c)
{
	struct shm_state *st = NULL;
	int rc = enter(c, &st);
	if (rc != MPI_SUCCESS)
		return rc;
	const size_t w = ar_dtype_bytes(c->dtype), L = (size_t)st->nlocal;
	char *out = shm_result_of(st, st->local);
	for (int i = 0; i < st->nlocal; i++) {
		size_t at = sched_part_offset(c->count, L, (size_t)i) * w;
		size_t len = sched_part_count(c->count, L, (size_t)i) * w;
		if (i != st->local || c->input != c->result)
			ar_store_copy(out + at, shm_input_of(st, i) + at, len, st->stream);
	}
	shm_host_barrier(st);
	return MPI_SUCCESS;
}
