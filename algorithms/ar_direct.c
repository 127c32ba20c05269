/*
 * direct: reduce-scatter then all-gather, each rank exchanging with every
 * other rank directly (pairwise exchange).
 *
 * What it does
 *   The buffer is split into n chunks (balanced). Reduce-scatter, steps
 *   k = 1..n-1: rank r sends chunk r + k, read from its input, to rank r + k,
 *   and receives chunk r from rank r - k, which it reduces into its result
 *   (the first from its input). All-gather, steps k = 1..n-1: rank r sends
 *   chunk r to rank r + k and receives chunk r - k from rank r - k, a copy.
 *   Every transfer is cut into segments of at most segment_count elements.
 *
 * Cost (S = message bytes, n ranks)
 *   2(n-1) steps (x segments); every rank sends and receives 2(n-1)/n x S
 *   bytes and reduces (n-1)/n x S: the ring's bandwidth, but n-1 distinct
 *   partners each half, so on a switched network every pair's path is used
 *   once and no neighbour relays another's data (a slow link delays only the
 *   chunks that cross it, not every later step as in a ring).
 *
 * Restrictions
 *   Commutative operators: chunk r is accumulated in the order the partners
 *   arrive (r-1, r-2, ...), not by rank. Any rank count; chunks may be empty.
 *
 * Alone, each half is one of the collectives (issue 35): the reduce-scatter
 * leaves rank r its chunk r, the all-gather starts from chunk r of every
 * rank's input (copied into the result first).
 *
 * Reference
 *   The pairwise-exchange reduce-scatter and all-gather of R. Thakur, R.
 *   Rabenseifner, W. Gropp, "Optimization of collective communication
 *   operations in MPICH", IJHPCA 19(1), 2005.
 *
 * Trace, 3 ranks, chunks 0, 1, 2
 *   RS k=1: r0 sends c1 -> r1, recv c0 <- r2; r1 sends c2 -> r2, recv c1 <- r0;
 *           r2 sends c0 -> r0, recv c2 <- r1 (each reduces its own chunk)
 *   RS k=2: r0 sends c2 -> r2, recv c0 <- r1; ... every chunk reduced on its rank
 *   AG k=1: r0 sends c0 -> r1, recv c2 <- r2; AG k=2: r0 sends c0 -> r2, recv c1 <- r1
 */
#include "algorithms/variant.h"

static size_t chunk_at(const struct sched *s, size_t chunk)
{
	return sched_part_offset(s->count, (size_t)s->nranks, chunk);
}

static size_t chunk_count(const struct sched *s, size_t chunk)
{
	return sched_part_count(s->count, (size_t)s->nranks, chunk);
}

static int reduce_scatter(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_REDUCE, .send_from_input = true};
	for (size_t k = 1; k < n; k++) {
		size_t to = (r + k) % n, from = (r + n - k) % n;
		tmpl.reduce_from_input =
		    k == 1; /* chunk r is untouched until its first reduction */
		if (sched_add_segmented(s, (int)to, chunk_at(s, to), chunk_count(s, to), (int)from,
		                        chunk_at(s, r), chunk_count(s, r), &tmpl) != 0)
			return -1;
	}
	return 0;
}

/* from_input: chunk r is read from the input (all-gather alone), else from the result. */
static int all_gather(struct sched *s, bool from_input)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_COPY, .send_from_input = from_input};
	for (size_t k = 1; k < n; k++) {
		size_t to = (r + k) % n, from = (r + n - k) % n;
		if (sched_add_segmented(s, (int)to, chunk_at(s, r), chunk_count(s, r), (int)from,
		                        chunk_at(s, from), chunk_count(s, from), &tmpl) != 0)
			return -1;
	}
	return 0;
}

/* The all-reduce's all-gather: chunk r is what the reduce-scatter left in the result. */
static int all_gather_reduced(struct sched *s)
{
	return all_gather(s, false);
}

int sched_build_direct(struct sched *s)
{
	return sched_build_halves(s, reduce_scatter, all_gather_reduced);
}

static int build_direct_reduce_scatter(struct sched *s)
{
	if (s->nranks <= 1)
		s->copy_input_first = true;
	return s->nranks <= 1 || s->count == 0 ? 0 : reduce_scatter(s);
}

static int build_direct_allgather(struct sched *s)
{
	sched_copy_own_chunk(s); /* chunk r into the result; the others are received */
	return s->count == 0 ? 0 : all_gather(s, true);
}

const struct ar_variant ar_variant_direct = {
    .name = "direct",
    .summary = "reduce-scatter then all-gather by pairwise exchange with every other rank",
    .algorithm = "2(n-1) steps, 2(n-1)/n x S bytes sent per rank, n-1 partners",
    .restrictions = AR_NEEDS_COMMUTATIVE,
    .build = sched_build_direct,
    .build_reduce_scatter = build_direct_reduce_scatter,
    .build_allgather = build_direct_allgather,
    .halves_restrictions = AR_NEEDS_COMMUTATIVE,
};
