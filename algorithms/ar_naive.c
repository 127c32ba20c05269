/*
 * naive: reduce everything at rank 0, then send the result to every rank.
 *
 * What it does
 *   Every rank other than 0 sends its whole input to rank 0. Rank 0 receives
 *   the buffers in rank order, 1, 2, ..., n-1, and folds each one into its
 *   result (result = in0 op in1 op ... op in(n-1), in exactly that order).
 *   Then rank 0 sends the result to rank 1, 2, ..., n-1 in turn. This is the
 *   centralised design every other variant improves on: the root's link and
 *   the root's reduction are the bottleneck, and every other rank sits idle
 *   while the root works through the ranks before it.
 *
 * Cost (S = message bytes, n ranks, m = ceil(count / segment) segments)
 *   root:   2(n-1) transfers, 2(n-1) x m steps; receives (n-1) x S bytes,
 *           sends (n-1) x S bytes, reduces (n-1) x S bytes.
 *   others: 2 transfers, 2m steps; sends S bytes and receives S bytes.
 *   Time grows linearly with n: about 2(n-1)(alpha + S beta) + (n-1) S gamma.
 *
 * Restrictions
 *   None. The operands are combined in rank order, so the operator need not
 *   be commutative.
 *
 * Non-power-of-two rank counts
 *   Nothing special: the root simply talks to every other rank.
 *
 * Memory
 *   Out of place without the initial copy: non-root ranks send straight from
 *   their input; the root's first reduction (with rank 1's data) reads its
 *   own input as the left operand, later ones the partial result.
 *
 * Reference
 *   The textbook "reduce then broadcast" with linear (flat-tree) reduce and
 *   broadcast, e.g. the linear algorithms in Open MPI's coll/basic
 *   (ompi/mca/coll/basic/coll_basic_reduce.c, coll_basic_bcast.c).
 *
 * Trace, 3 ranks, count 4, segment 2 (segments s0, s1); one row per time
 * slot, in which rank 0 completes one step; (in) = read from the input
 *   time  rank 0                      rank 1                rank 2
 *   0     recv s0 <- 1, reduce (in)   send s0 -> 0 (in)     send s0 posted, waits
 *   1     recv s1 <- 1, reduce (in)   send s1 -> 0 (in)
 *   2     recv s0 <- 2, reduce        recv s0 posted, waits send s0 -> 0 (in)
 *   3     recv s1 <- 2, reduce                              send s1 -> 0 (in)
 *   4     send s0 -> 1                recv s0, copy         recv s0 posted, waits
 *   5     send s1 -> 1                recv s1, copy
 *   6     send s0 -> 2                                      recv s0, copy
 *   7     send s1 -> 2                                      recv s1, copy
 */
#include "algorithms/variant.h"

/* Rank 0: receive and fold every other rank's input, then send the result out. */
static int build_root(struct sched *s)
{
	struct sched_step tmpl = {.action = SCHED_REDUCE};
	size_t count = s->count;
	for (int p = 1; p < s->nranks; p++) {
		/* the first fold combines the root's own input, later ones the partial result */
		tmpl.reduce_from_input = p == 1;
		if (sched_add_segmented(s, -1, 0, 0, p, 0, count, &tmpl) != 0)
			return -1;
	}
	tmpl.action = SCHED_COPY;
	tmpl.reduce_from_input = false;
	for (int p = 1; p < s->nranks; p++)
		if (sched_add_segmented(s, p, 0, count, -1, 0, 0, &tmpl) != 0)
			return -1;
	return 0;
}

/* Any other rank: send the input to the root, then receive the result. */
static int build_leaf(struct sched *s)
{
	struct sched_step tmpl = {.action = SCHED_COPY, .send_from_input = true};
	size_t count = s->count;
	if (sched_add_segmented(s, 0, 0, count, -1, 0, 0, &tmpl) != 0)
		return -1;
	tmpl.send_from_input = false;
	return sched_add_segmented(s, -1, 0, 0, 0, 0, count, &tmpl);
}

static int build_naive(struct sched *s)
{
	if (s->nranks <= 1) {
		s->copy_input_first = true;
		return 0;
	}
	if (s->count == 0)
		return 0;
	return s->rank == 0 ? build_root(s) : build_leaf(s);
}

const struct ar_variant ar_variant_naive = {
    .name = "naive",
    .summary = "every rank sends to rank 0, which reduces and sends the result back",
    .algorithm = "2(n-1) steps at the root; root sends and receives (n-1) x S bytes, others S",
    .restrictions = 0,
    .build = build_naive,
};
