/*
 * recursive-doubling: log2(p) exchanges of the whole buffer.
 *
 * What it does
 *   Among p ranks (p a power of two), at level k = 0..log2(p)-1 every rank
 *   exchanges its whole buffer with the rank whose number differs in bit k,
 *   and reduces what it receives into its result. After log2(p) levels every
 *   rank holds the reduction over all p ranks. Each exchange is cut into
 *   segments of at most segment_count elements (send segment j paired with
 *   receive segment j), which bounds the receive scratch; segment j+1 is
 *   untouched by the reduction of segment j, so this is safe.
 *
 * Cost (S = message bytes, p = largest power of two <= n, rem = n - p,
 *   m = ceil(count / segment) segments)
 *   log2(p) exchanges = log2(p) x m steps; each rank sends and receives
 *   log2(p) x S bytes and reduces log2(p) x S bytes. The 2 rem ranks of the
 *   fold add one transfer before and one after (2 m steps, S bytes each way).
 *   Latency-optimal (log2(p) alpha), bandwidth-poor: for large messages the
 *   ring and Rabenseifner send far fewer bytes.
 *
 * Restrictions
 *   Commutative operators: partners compute a op b and b op a.
 *
 * Non-power-of-two rank counts (as Open MPI's coll/base does)
 *   Fold: in the first 2 rem ranks, each even rank sends its input to its odd
 *   neighbour, which reduces it and then takes part in the exchanges as
 *   virtual rank r / 2; ranks r >= 2 rem are virtual rank r - rem. Unfold:
 *   at the end each such odd rank sends the result back to its even
 *   neighbour. The even ranks of the fold are idle in between.
 *
 * Memory
 *   Out of place without the initial copy: a rank whose result holds nothing
 *   yet (every rank at the first exchange, except the odd ranks of the fold)
 *   sends from its input and reduces with its input as the left operand.
 *
 * Reference
 *   R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of collective
 *   communication operations in MPICH", IJHPCA 19(1), 2005;
 *   Open MPI ompi_coll_base_allreduce_intra_recursivedoubling
 *   (coll_base_allreduce.c).
 *
 * Trace, 3 ranks (p = 2, rem = 1), one segment
 *   step  rank 0 (folded out)     rank 1 (virtual 0)            rank 2 (virtual 1)
 *   fold  send in0 -> r1          recv <- r0: res = in1 + in0   -
 *   k=0   -                       send res <-> r2, reduce:      send in2 <-> r1, reduce:
 *                                 res = res + in2               res = in2 + (in1 + in0)
 *   unfold recv res <- r1, copy   send res -> r0                -
 *   Rank 1 takes 3 steps, ranks 0 and 2 take 2 and 1. With 4 ranks there is
 *   no fold: ranks 0-1 and 2-3 exchange at k = 0, then 0-2 and 1-3 at k = 1.
 */
#include "algorithms/variant.h"

/* log2(p) whole-buffer exchanges among the p virtual ranks. */
static int exchanges(struct sched *s, int p, int rem, bool result_written)
{
	int vrank = sched_fold_vrank(s->rank, rem);
	size_t count = s->count;
	for (int mask = 1; mask < p; mask <<= 1) {
		int peer = sched_fold_rank(vrank ^ mask, rem);
		struct sched_step tmpl = {
		    .action = SCHED_REDUCE,
		    .send_from_input = !result_written,
		    .reduce_from_input = !result_written,
		};
		if (sched_add_segmented(s, peer, 0, count, peer, 0, count, &tmpl) != 0)
			return -1;
		result_written = true;
	}
	return 0;
}

static int build_recursive_doubling(struct sched *s) { return sched_build_folded(s, exchanges); }

const struct ar_variant ar_variant_recursive_doubling = {
    .name = "recursive-doubling",
    .summary = "log2(p) whole-buffer exchanges with partners at doubling distance",
    .algorithm = "log2(p) steps (+2 when n is not a power of two), log2(p) x S bytes sent per rank",
    .restrictions = AR_NEEDS_COMMUTATIVE,
    .build = build_recursive_doubling,
};
