/*
 * shm: the ranks of a host reduce straight from each other's buffers.
 *
 * What it does
 *   On one host, message passing costs a copy per transfer (and a kernel
 *   call per large message with CMA): a ring moves 2(n-1)/n x S bytes through
 *   copies and then reads them again to reduce. Here the buffers live in an
 *   MPI-3 shared-memory window (shm_arena.h), so a rank reads its peers'
 *   inputs where they are. With L ranks on the host, local rank l owns slice
 *   l (balanced, 1/L of the elements): it reduces slice l of all L inputs,
 *   block by block in a buffer that stays in cache, and copies each finished
 *   block into the result of every rank of the host (one host), or into its
 *   own result (several hosts): with streaming stores when the host's
 *   buffers overflow the cache, else with ordinary ones (ar_stream_pays).
 *   A float32 sum that streams takes one pass instead, no block: each
 *   vector of the inputs summed and stored into every result at once
 *   (stream_sum.h), so reading and writing memory overlap.
 *   Across hosts it is hierarchical. From SHM_PIPE_MIN_BYTES (1 MiB) the
 *   host's first rank is its leader: the other ranks sum the host's inputs
 *   segment by segment into its result, it all-reduces each segment with the
 *   other leaders as soon as it is summed, several in flight (shm_pipe.h),
 *   and the others copy each final segment back: one stream on the host's
 *   link, busy while the host works. Below, after the host's reduce-scatter,
 *   the ranks that own the same slice on each host (one "rail" per local
 *   rank) all-reduce it with the MPI library's MPI_Allreduce, so the rails'
 *   latencies overlap; then every rank copies the slices it does not own from
 *   their owners. When hosts have different rank counts the slices do not
 *   line up, and the first rank of each host gathers the host's sum,
 *   all-reduces it with the other hosts' first ranks, and its peers copy the
 *   result.
 *   Messages of up to SHM_SMALL_MAX_BYTES take another path (shm_small.h):
 *   each rank copies its input into a slot of its own, flags in the same
 *   cache lines as the data, and reduces every rank's slot itself once their
 *   flags show the call: no barrier, no peer buffers, no MPI call on one
 *   host; across hosts of equal size every rail then all-reduces the host's
 *   sum whole (S bytes, latency-bound).
 *
 * Cost (S = message bytes, L ranks on the host, H hosts)
 *   One host: reads S of inputs (S/L of its own) and writes S (beyond the
 *   cache with streaming stores, which do not read the lines they write):
 *   about 2S of memory traffic per rank against the ring's 5S (copy in,
 *   reduce, copy out), and no kernel calls. Latency: two barriers of the host
 *   through flags in shared memory (shm_sync.h), the first of which also
 *   publishes every rank's buffers: 8 B in 0.8-1.0 us at 2 ranks, against
 *   1.2-1.3 us with an MPI all-gather and an MPI barrier. Small messages:
 *   every rank writes ceil(S / 56) lines and reads L - 1 times as many, and
 *   nobody waits twice: 8 B in 0.46 us at 2 ranks against 0.60 us for the
 *   two barriers (side by side, algorithms/BENCH_RESULTS.md). Several hosts, below 1 MiB:
 *   an MPI_Allreduce of S/L bytes on the rails, then a barrier, a gather of
 *   (L-1)/L x S and a last barrier; from 1 MiB 2(H-1)/H x S each way on the
 *   leader's link, the host's sum (S read L times over, written once) and a
 *   copy of S per rank overlapped with it.
 *
 * Restrictions
 *   Its input and result must come from a shared-memory arena (the harness
 *   provides them: shared_buffers); any other buffer is an error, never a
 *   silent fallback. Commutative operators: slice l is combined starting with
 *   rank l's own input. Any rank count.
 *
 * Non-power-of-two rank counts
 *   Nothing special: slices are balanced (sizes differ by one element), and a
 *   count below L leaves some ranks an empty slice.
 *
 * Memory
 *   Out of place or in place: slice l of every buffer is read and written by
 *   rank l alone, each block read before it is written. A 64 KiB block buffer
 *   per communicator, and a page per rank of shared memory for the barrier's
 *   slots and the small messages' two slots; across hosts from 1 MiB the
 *   leader's receive buffers for the segments in flight (SHM_PIPE_DEPTH x
 *   (H-1) chunks: 120 KB at 2 hosts) and their requests;
 *   no other scratch. The last barrier keeps peers from
 *   touching a buffer that its owner has already handed back to the caller.
 *
 * Reference
 *   The shared-memory reduce-scatter and all-gather of NCCL's and Gloo's
 *   intra-node steps; hierarchical all-reduce as in Horovod and Open MPI's
 *   coll/han; MPI_Win_allocate_shared (MPI 4.0, section 12.2.3).
 *
 * Trace, 3 ranks on one host, count 6: slices s0 = [0,2), s1 = [2,4), s2 = [4,6)
 *   entry:   each rank publishes its (input, result) offsets, then a barrier
 *   reduce:  r0: b = in0[s0] + in1[s0] + in2[s0]; res0[s0] = res1[s0] = res2[s0] = b
 *            r1: b = in1[s1] + in0[s1] + in2[s1]; res0[s1] = res1[s1] = res2[s1] = b
 *            r2: b = in2[s2] + in0[s2] + in1[s2]; res0[s2] = res1[s2] = res2[s2] = b
 *   barrier: every result is whole, and no input is read any more
 *
 * Trace, 3 ranks on one host, 8 B (one line per slot), call k, parity p = k % 2
 *   r0: line0[p] = in0, flag k; waits for line1[p] and line2[p] to show k
 *   r1, r2 the same; each: res = line0[p] + line1[p] + line2[p], in rank order
 *   call k + 1 uses the lines of parity 1 - p; k + 2 rewrites p, which every
 *   peer has read by then (it has published k + 1)
 */
#include <mpi.h>

#include "algorithms/ar_mpi.h"
#include "algorithms/shm_halves.h"
#include "algorithms/shm_host.h"
#include "algorithms/stream_copy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * result[slice local] = the host's inputs combined, own input first. push:
 * every block goes straight into every host peer's result too (one host
 * only: nothing crosses hosts afterwards), which saves the gather's second
 * read of each slice and a barrier.
 */
static void reduce_slice(const struct shm_state *st, const struct ar_call *c, bool push)
{
	const size_t first = sched_part_offset(c->count, (size_t)st->nlocal, (size_t)st->local);
	const size_t n = sched_part_count(c->count, (size_t)st->nlocal, (size_t)st->local);
	if (st->nlocal == 1) {
		if (c->input != c->result)
			memcpy(shm_result_of(st, 0), c->input, c->count * ar_dtype_bytes(c->dtype));
		return;
	}
	shm_sum_range(st, c, first, n, st->local, push ? -1 : st->local);
}

/* Copy slice i of rank i's result into ours, for every i != local. */
static void gather_slices(const struct shm_state *st, const struct ar_call *c)
{
	const size_t w = ar_dtype_bytes(c->dtype), L = (size_t)st->nlocal;
	char *out = shm_result_of(st, st->local);
	for (int i = 0; i < st->nlocal; i++) {
		size_t at = sched_part_offset(c->count, L, (size_t)i) * w;
		if (i != st->local)
			ar_store_copy(out + at, shm_result_of(st, i) + at,
			              sched_part_count(c->count, L, (size_t)i) * w, st->stream);
	}
}

/* Hosts of equal size: the rails all-reduce their slice, then the host all-gathers. */
static int finish_uniform(struct shm_state *st, const struct ar_call *c)
{
	int rc = MPI_SUCCESS;
	if (st->across != MPI_COMM_NULL) {
		const size_t w = ar_dtype_bytes(c->dtype), L = (size_t)st->nlocal;
		char *slice = shm_result_of(st, st->local) +
		              sched_part_offset(c->count, L, (size_t)st->local) * w;
		size_t n = sched_part_count(c->count, L, (size_t)st->local);
		rc = ar_mpi_allreduce(MPI_IN_PLACE, slice, n, c->dtype, c->op, st->across,
		                      c->mpi_max_count);
	}
	shm_host_barrier(st);
	if (rc == MPI_SUCCESS)
		gather_slices(st, c);
	return rc;
}

/* Hosts of different sizes: the first rank of each gathers, all-reduces, and is copied. */
static int finish_uneven(struct shm_state *st, const struct ar_call *c)
{
	const size_t bytes = c->count * ar_dtype_bytes(c->dtype);
	int rc = MPI_SUCCESS;
	shm_host_barrier(st);
	if (st->local == 0) {
		gather_slices(st, c);
		rc = ar_mpi_allreduce(MPI_IN_PLACE, c->result, c->count, c->dtype, c->op,
		                      st->across, c->mpi_max_count);
	}
	/* every rank reaches the barrier, also after a failed all-reduce */
	shm_host_barrier(st);
	if (rc == MPI_SUCCESS && st->local != 0)
		memcpy(c->result, shm_result_of(st, 0), bytes);
	return rc;
}

/*
 * The host's side of the leaders' pipeline (shm_pipe.h): the host's other
 * ranks sum each segment into the first rank's result, a share each, and
 * count it in their slots; the first rank carries it across hosts and
 * counts it in its slot when it is final; everyone copies it from there.
 */
struct pipe_host {
	struct shm_state *st;
	uint64_t base; /* segments of earlier calls: the counts grow from call to call */
};

static bool pipe_ready(void *ctx, size_t k)
{
	const struct pipe_host *p = ctx;
	for (int i = 1; i < p->st->nlocal; i++)
		if (atomic_load_explicit(&p->st->slot[i]->segments, memory_order_acquire) <
		    p->base + k + 1)
			return false;
	return true;
}

static void pipe_done(void *ctx, size_t k)
{
	const struct pipe_host *p = ctx;
	atomic_store_explicit(&p->st->slot[0]->segments, p->base + k + 1, memory_order_release);
}

/* Several hosts and a large message. Errors across hosts are the first rank's to return. */
static int run_pipelined(struct shm_state *st, const struct ar_call *c)
{
	const size_t w = ar_dtype_bytes(c->dtype), seg_n = shm_pipe_segment_count(w, st->hosts);
	const size_t nseg = shm_pipe_segments(c->count, w, st->hosts);
	struct pipe_host p = {.st = st, .base = st->segments};
	st->segments += nseg;
	if (st->local == 0) {
		if (st->nlocal == 1 && c->input != c->result)
			memcpy(c->result, c->input, c->count * w);
		const struct shm_pipe_hooks hooks = {
		    .ready = pipe_ready, .done = pipe_done, .ctx = &p};
		return shm_pipe_allreduce(c->result, c->count, c->dtype, c->op, st->across, &hooks,
		                          &st->pipe);
	}
	const size_t workers = (size_t)st->nlocal - 1, me = (size_t)st->local - 1;
	for (size_t k = 0; k < nseg; k++) {
		size_t first = k * seg_n, n = shm_pipe_segment_len(c->count, seg_n, k);
		shm_sum_range(st, c, first + sched_part_offset(n, workers, me),
		          sched_part_count(n, workers, me), 0, 0);
		/* release: the sums (streaming stores fenced by ar_store_copy) before the count */
		atomic_store_explicit(&st->slot[st->local]->segments, p.base + k + 1,
		                      memory_order_release);
	}
	char *out = shm_result_of(st, st->local);
	const char *final = shm_result_of(st, 0);
	for (size_t k = 0; k < nseg; k++) {
		size_t first = k * seg_n, n = shm_pipe_segment_len(c->count, seg_n, k);
		/* a wait for the network: the core goes to the leader and the kernel meanwhile */
		shm_sync_wait_long(&st->slot[0]->segments, p.base + k + 1);
		ar_store_copy(out + first * w, final + first * w, n * w, st->stream);
	}
	return MPI_SUCCESS;
}

/*
 * A message that fits a slot, on one host or on hosts of equal size: the
 * host's sum through the slots (shm_small.h), then, across hosts, every rail
 * all-reduces it whole (S bytes on each of the L rails at once: small
 * messages are latency, not bandwidth). The rails run also when some buffer
 * was not in an arena, so no host waits for another that gave up.
 */
static int small_run(struct shm_state *st, const struct ar_call *c, size_t bytes)
{
	const struct shm_arena *a = shm_arena_find(c->input, bytes);
	bool ok = a && shm_arena_find(c->result, bytes) == a;
	int rc = shm_small_allreduce(&st->small, ++st->small_calls, ok, c->input, c->result,
	                             c->count, c->dtype, c->op)
	             ? MPI_SUCCESS
	             : MPI_ERR_BUFFER;
	if (st->across != MPI_COMM_NULL) {
		int across = ar_mpi_allreduce(MPI_IN_PLACE, c->result, c->count, c->dtype, c->op,
		                              st->across, c->mpi_max_count);
		rc = rc == MPI_SUCCESS ? across : rc;
	}
	return rc;
}

static int shm_run(const struct ar_call *c)
{
	struct shm_state *st = NULL;
	const size_t bytes = c->count * ar_dtype_bytes(c->dtype);
	int rc = shm_state_of(c->comm, &st);
	/* the same choice on every rank: the same bytes, the same hosts */
	if (rc == MPI_SUCCESS && st->uniform && bytes <= st->small.capacity_bytes)
		return small_run(st, c, bytes);
	/* publishing the buffers ends with the entry barrier: every input is ready after it */
	if (rc == MPI_SUCCESS)
		rc = shm_gather_offsets(st, c, bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	/* the host's buffers in all: streaming pays only when they overflow the cache */
	st->stream = ar_stream_pays((c->input == c->result ? 1 : 2) * (size_t)st->nlocal * bytes);
	/* one host: each rank pushes its slice to all; else the slices cross hosts first */
	const bool push = st->uniform && st->across == MPI_COMM_NULL;
	if (st->hosts > 1 && bytes >= SHM_PIPE_MIN_BYTES) {
		rc = run_pipelined(st, c);
	} else {
		reduce_slice(st, c, push);
		if (!push)
			rc = st->uniform ? finish_uniform(st, c) : finish_uneven(st, c);
	}
	/* nobody returns while a peer may still read its buffers */
	shm_host_barrier(st);
	return rc;
}

const struct ar_variant ar_variant_shm = {
    .name = "shm",
    .summary = "host peers reduce straight from each other's shared-memory buffers; "
               "hierarchical across hosts",
    .algorithm = "two host barriers on shared-memory flags; ~2 x S bytes of memory traffic per "
                 "rank; across hosts from 1 MiB a leader per host, 2(H-1)/H x S each way in "
                 "pipelined segments (S/L per rail below); up to 256 B one exchange of flagged "
                 "cache lines",
    .restrictions = AR_NEEDS_COMMUTATIVE,
    .shared_buffers = true,
    .run = shm_run,
    .run_reduce_scatter = shm_reduce_scatter,
    .run_allgather = shm_allgather,
    .halves_restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_ONE_HOST,
};

