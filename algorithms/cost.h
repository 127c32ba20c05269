/*
 * The cost of a point-to-point all-reduce, read from the schedule the
 * executor runs (reports/model/README.md): how many messages, how
 * many bytes on the wire and how many bytes reduced lie on its critical
 * path, the three terms of the alpha-beta-gamma model (reports/model/model.h).
 * Pure: no MPI, no I/O; nothing is written by hand per variant.
 *
 * The walk builds the schedule of every rank of a hypothetical run of
 * nranks ranks with the variant's own builder (one struct sched reused) and
 * sums, per rank:
 *   messages      one per step: a step posts one send and one receive and
 *                 waits for both, so it pays one latency;
 *   bytes         per step the larger of the bytes sent and received: links
 *                 are full duplex, so an exchange of S bytes each way costs
 *                 one transfer of S bytes, and a step that only receives
 *                 (a tree's root) still waits for its bytes;
 *   bytes_sent    per step the bytes sent (for reference);
 *   reduced_bytes per SCHED_REDUCE step the bytes received and folded.
 *
 * The approximation (the critical path): the cost of the all-reduce is the
 * rank with the most work, i.e. the componentwise maximum of the per-rank
 * sums. A rank's steps run one after another, so its sum is a path through
 * the dependency graph of the schedule; what the maximum leaves out is the
 * time a rank waits for its peers beyond its own work (pipeline fill and
 * drain: at most about log2(n) messages for the tree, none for the ring,
 * whose ranks move in lockstep) and the overlap of one segment's reduction
 * with the next segment's receive that the executor performs. Without that
 * overlap it would be a lower bound of the critical path; it is linear in
 * alpha, beta and gamma, which a least-squares fit needs. When one rank holds all three maxima (the
 * root of tree and naive, the odd ranks of the fold of recursive doubling and Rabenseifner, every
 * rank of a ring whose count divides evenly) the maximum is exactly that
 * rank's path; when chunks are uneven (ring, Rabenseifner) the maxima may
 * come from ranks that differ by an element or a message, and the sum is a
 * slight upper bound. `one_rank` says which.
 *
 * Large rank counts: walking every rank costs the total number of steps of
 * all ranks (a ring of 4096 ranks with one segment per chunk: 33 million
 * steps, about a second), and builders loop over their peers even when
 * transfers are empty (a ring of 2 elements still loops 2(n-1) times per
 * rank). When (rank 0's steps + nranks) x nranks exceeds the caller's
 * budget, only a sample of ranks is walked: 0..3, the last
 * three, every power of two and its neighbours, the middle, and 64 ranks
 * evenly spaced (about 100 ranks). Every variant here has its busiest rank
 * among them (rank 0 for tree and naive, rank 1 for the fold of recursive
 * doubling and Rabenseifner, any rank of the ring), up to a few elements of
 * uneven chunks (Rabenseifner at 255 ranks: 4 bytes of 8 MB reduced); a
 * new variant whose busiest rank lies elsewhere would be underestimated:
 * `sampled` says that the terms come from a sample.
 */
#ifndef COLLSCOPE_COST_H
#define COLLSCOPE_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/variant.h"

struct cost_path {
	uint64_t messages;
	uint64_t bytes; /* per step max(sent, received), summed */
	uint64_t bytes_sent;
	uint64_t reduced_bytes;
	int busiest_rank; /* the rank with the most messages (lowest on ties) */
	bool one_rank;    /* one rank holds every maximum */
	bool sampled;     /* only a sample of ranks was walked (see above) */
	int ranks_walked;
};

/* The default budget of cost_walk: every rank is walked up to 4096 ranks, a sample past 8191. */
#define COST_EXACT_MAX_STEPS ((uint64_t)64 << 20)

/* Elements per message segment, exactly as the executor cuts them (at least 1). */
size_t cost_segment_count(size_t segment_bytes, size_t elem_bytes);

/* Adds one built schedule's per-rank sums to *out (zeroed by the caller). */
void cost_of_sched(const struct sched *s, size_t elem_bytes, struct cost_path *out);

/*
 * The critical path of variant v (which must have a build function) for
 * nranks >= 1 ranks, count elements of elem_bytes bytes and messages cut at
 * segment_bytes, as described above: every rank is walked while rank 0's
 * steps times nranks stay within max_steps (0: no limit), else a sample.
 * Memory is that of the largest single rank's schedule. Returns 0, or -1
 * when v has no schedule or a schedule cannot be allocated.
 */
int cost_walk(const struct ar_variant *v, int nranks, size_t count, size_t elem_bytes,
              size_t segment_bytes, uint64_t max_steps, struct cost_path *out);
/* The same on v's schedule of collective c (ar_collective_build; -1 when it has none). */
int cost_walk_collective(const struct ar_variant *v, enum ar_collective c, int nranks,
                         size_t count, size_t elem_bytes, size_t segment_bytes, uint64_t max_steps,
                         struct cost_path *out);

#endif
