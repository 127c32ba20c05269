/*
 * A traced reduction, timed so that the core's absence does not count
 * (issue 39). A reduction's wall time is its work plus every moment the core
 * was given to something else: on the virtual cluster (5 ranks on 2 cores)
 * clean ranks' reduce times per iteration of a 1 MiB ring ranged 250-900 us,
 * 0.5-1.5x of each other, and a rank whose reductions took 35% longer was
 * lost in that. So the reduction runs in chunks with a clock read after each,
 * and its time on the core is the median chunk's time times the number of
 * chunks: a chunk cut by a preemption or an interrupt is an outlier the
 * median leaves out, while a core that is slower at the work (throttled,
 * shared with a sibling thread) slows every chunk. Measured on the campaign's
 * seed 3 traced draws (2026-12-07): clean ranks at 75-115 us an iteration,
 * 0.77-1.21x of each other; a rank 90% slower at 2.0-2.1x, score 7-9.
 *
 * A reduction is cut into chunks of REDUCE_CHUNK_BYTES (at most
 * REDUCE_MAX_CHUNKS of them: larger chunks past 4 MiB), timed by the TSC
 * (reduce_timed.c says why) and scaled to the wall time of the whole. Fewer,
 * larger chunks held less: with at most 8 (26 KB each at 210 KB), clean ranks
 * on the virtual cluster stood at 0.42-1.57x of each other and 1 of 6 ranks
 * 35-90% slower was named, against 5 of 6 with 16 KiB chunks, the same draws
 * run in turns: the core is away often enough there that half of 26 KB chunks
 * were hit. Nor does a lower quantile of the chunks do better than their median:
 * on the same chunks (every rank's, dumped, of the rank-compute draws of seeds
 * 3, 11 and 5, 2026-12-07: 187 clean ranks' figures, each against the others'
 * median) the clean ranks' 95th percentile was 1.10x by the median, 1.13x by
 * the lower quartile, 1.14x by the 10th percentile and 1.13x by the fastest
 * chunk (the mean of every chunk, 1.94x), and a rank 20% slower stood at
 * 1.10-1.45x by each: what is left is the ranks' own, not the estimator's.
 * Pure: no MPI.
 */
#ifndef COLLSCOPE_REDUCE_TIMED_H
#define COLLSCOPE_REDUCE_TIMED_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/dtype.h"

enum { REDUCE_CHUNK_BYTES = 16384, REDUCE_MAX_CHUNKS = 256 };

/*
 * The time on the core of a reduction of count elements done in n chunks of
 * per elements each (the last may be shorter), chunk_ns[i] the time of
 * chunk i (in any unit: the result is in it): the median of the full chunks'
 * times scaled to count elements; with no full chunk, the sum. chunk_ns is
 * reordered.
 */
uint64_t reduce_busy_ns(uint64_t *chunk_ns, size_t n, size_t count, size_t per);

/*
 * out = lhs op rhs over count elements (ar_reduce's contract, whose bits it
 * gives), in chunks, each chunk followed by a spin of slow_pct percent of its
 * own time when slow_pct > 0 (COLLSCOPE_FAULT=compute: a core that much
 * slower at the work). Returns the time on the core (reduce_busy_ns).
 */
uint64_t reduce_timed(void *out, const void *lhs, const void *rhs, size_t count,
                      enum ar_dtype t, enum ar_op op, int64_t slow_pct);

#endif
