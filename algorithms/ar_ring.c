/*
 * ring: reduce-scatter then all-gather around a ring of ranks.
 *
 * What it does
 *   The buffer is split into n chunks (balanced: chunk sizes differ by at
 *   most one element). Rank r sends to r+1 and receives from r-1 (mod n).
 *   Reduce-scatter, steps k = 0..n-2: rank r sends chunk (r - k) and receives
 *   chunk (r - k - 1), which it reduces into its result. After n-1 steps rank
 *   r holds chunk (r + 1) reduced over all ranks. All-gather, steps
 *   k = 0..n-2: rank r sends chunk (r + 1 - k) and receives chunk (r - k),
 *   which it copies into its result. Each chunk transfer is cut into segments
 *   of at most segment_count elements, segment j of the outgoing chunk paired
 *   with segment j of the incoming one, so sending, receiving and reducing
 *   of neighbouring segments overlap and receive scratch stays bounded.
 *
 * Cost (S = message bytes, n ranks, m = ceil(chunk / segment) segments)
 *   2(n-1) chunk transfers = 2(n-1) x m steps; every rank sends and receives
 *   2(n-1)/n x S bytes and reduces (n-1)/n x S bytes: bandwidth-optimal,
 *   latency 2(n-1) alpha, so it loses to the logarithmic variants for small
 *   messages. Every rank does the same work: no root bottleneck.
 *
 * Restrictions
 *   Commutative operators: chunk c is accumulated starting at rank c + 1
 *   and the received partial is the right operand, so ranks are combined in
 *   a rotated, reversed order.
 *
 * Non-power-of-two rank counts
 *   Nothing special: any n works. When count < n some chunks are empty; both
 *   sides of every transfer compute the same chunk sizes, so the empty
 *   transfers vanish on both sides (no fallback to another algorithm, unlike
 *   Open MPI's ring, which switches to recursive doubling there).
 *
 * Memory
 *   Out of place without the initial copy: the first send reads chunk r
 *   straight from the input, and every reduce-scatter step reduces a chunk
 *   this rank has not touched yet, so its left operand is the input. Every
 *   element of the result is written by a reduction or an all-gather copy
 *   (chunk r + 1 by the last reduction, the others by copies).
 *
 * Reference
 *   P. Patarasuk, X. Yuan, "Bandwidth optimal all-reduce algorithms for
 *   clusters of workstations", J. Parallel Distrib. Comput. 69(2), 2009;
 *   Open MPI ompi_coll_base_allreduce_intra_ring (coll_base_allreduce.c).
 *
 * Trace, 3 ranks, chunks 0, 1, 2; ini[c] is rank i's input chunk c
 *   reduce-scatter step 0 (sends read the input):
 *     r0: send c0 -> r1, recv c2 <- r2: res0[2] = in0[2] + in2[2]
 *     r1: send c1 -> r2, recv c0 <- r0: res1[0] = in1[0] + in0[0]
 *     r2: send c2 -> r0, recv c1 <- r1: res2[1] = in2[1] + in1[1]
 *   reduce-scatter step 1:
 *     r0: send c2 -> r1, recv c1 <- r2: res0[1] = in0[1] + (in2 + in1)[1]  done
 *     r1: send c0 -> r2, recv c2 <- r0: res1[2] = in1[2] + (in0 + in2)[2]  done
 *     r2: send c1 -> r0, recv c0 <- r1: res2[0] = in2[0] + (in1 + in0)[0]  done
 *   all-gather step 0: r0 sends c1, receives c0; r1 sends c2, receives c1;
 *                      r2 sends c0, receives c2
 *   all-gather step 1: r0 sends c0, receives c2; r1 sends c1, receives c0;
 *                      r2 sends c2, receives c1
 *   4 = 2(n-1) steps when a chunk fits in one segment.
 */
#include "algorithms/variant.h"

/* One ring step: send chunk send_chunk to the right, receive recv_chunk from the left. */
static int ring_step(struct sched *s, size_t send_chunk, size_t recv_chunk,
                     const struct sched_step *tmpl)
{
	size_t n = (size_t)s->nranks, count = s->count;
	int right = (s->rank + 1) % s->nranks;
	int left = (s->rank + s->nranks - 1) % s->nranks;
	return sched_add_segmented(s, right, sched_part_offset(count, n, send_chunk),
	                           sched_part_count(count, n, send_chunk), left,
	                           sched_part_offset(count, n, recv_chunk),
	                           sched_part_count(count, n, recv_chunk), tmpl);
}

static int reduce_scatter(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_REDUCE, .reduce_from_input = true};
	for (size_t k = 0; k + 1 < n; k++) {
		/* only chunk r, sent at step 0, has not been reduced here yet */
		tmpl.send_from_input = k == 0;
		/* + 2n keeps the operands of % non-negative */
		if (ring_step(s, (r + 2 * n - k) % n, (r + 2 * n - k - 1) % n, &tmpl) != 0)
			return -1;
	}
	return 0;
}

static int all_gather(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_COPY};
	for (size_t k = 0; k + 1 < n; k++)
		if (ring_step(s, (r + 2 * n + 1 - k) % n, (r + 2 * n - k) % n, &tmpl) != 0)
			return -1;
	return 0;
}

static int build_ring(struct sched *s)
{
	return sched_build_halves(s, reduce_scatter, all_gather);
}

/*
 * The halves alone (issue 35). Reduce-scatter: the all-reduce's first half
 * shifted by one chunk, so that rank r ends with chunk r (MPI's layout):
 * step k sends chunk r - 1 - k and receives chunk r - 2 - k. All-gather:
 * rank r starts with chunk r (the input copied first) and step k sends
 * chunk r - k and receives chunk r - k - 1. n - 1 steps each (x segments),
 * (n-1)/n x S bytes sent per rank.
 */
static int build_ring_reduce_scatter(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_REDUCE, .reduce_from_input = true};
	if (n <= 1) {
		s->copy_input_first = true;
		return 0;
	}
	for (size_t k = 0; s->count && k + 1 < n; k++) {
		tmpl.send_from_input = k == 0;
		if (ring_step(s, (r + 2 * n - 1 - k) % n, (r + 2 * n - 2 - k) % n, &tmpl) != 0)
			return -1;
	}
	return 0;
}

static int build_ring_allgather(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_COPY};
	sched_copy_own_chunk(s); /* chunk r into the result; the others are received */
	for (size_t k = 0; s->count && k + 1 < n; k++)
		if (ring_step(s, (r + 2 * n - k) % n, (r + 2 * n - k - 1) % n, &tmpl) != 0)
			return -1;
	return 0;
}

const struct ar_variant ar_variant_ring = {
    .name = "ring",
    .summary = "reduce-scatter then all-gather around a ring, segmented; bandwidth-optimal",
    .algorithm = "2(n-1) steps, 2(n-1)/n x S bytes sent per rank",
    .restrictions = AR_NEEDS_COMMUTATIVE,
    .build = build_ring,
    .build_reduce_scatter = build_ring_reduce_scatter,
    .build_allgather = build_ring_allgather,
    .halves_restrictions = AR_NEEDS_COMMUTATIVE,
};
