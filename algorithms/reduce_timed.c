/* See reduce_timed.h. */
#include "algorithms/reduce_timed.h"

#include <stdbool.h>
#include <stdlib.h>

#include "algorithms/fault.h"
#include "algorithms/trace.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t reduce_busy_ns(uint64_t *chunk_ns, size_t n, size_t count, size_t per)
{
	size_t full = per ? count / per : 0;
	if (full > n)
		full = n;
	if (full == 0) {
		uint64_t sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += chunk_ns[i];
		return sum;
	}
	/* the full chunks come first: a short one is the last */
	qsort(chunk_ns, full, sizeof *chunk_ns, cmp_u64);
	double median = full % 2 ? (double)chunk_ns[full / 2]
	                         : 0.5 * ((double)chunk_ns[full / 2 - 1] + (double)chunk_ns[full / 2]);
	return (uint64_t)(median * (double)count / (double)per + 0.5);
}

/*
 * A chunk boundary's clock: the TSC read as is. The vDSO's clock orders its
 * read after every load before it, so each boundary waited for the chunk's
 * loads to land: with 16 KiB chunks a traced 1 MiB ring (2 ranks) cost
 * 1.03-1.06x untraced against 1.01-1.02 without chunks. Unordered, a read
 * may run a few hundred cycles ahead of its chunk's end, well under a 16 KiB
 * chunk's time. Elsewhere the clock itself.
 */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return trace_now_ns();
#endif
}

uint64_t reduce_timed(void *out, const void *lhs, const void *rhs, size_t count,
                      enum ar_dtype t, enum ar_op op, int64_t slow_pct)
{
	const size_t w = ar_dtype_bytes(t);
	size_t per = REDUCE_CHUNK_BYTES / w;
	if ((count + per - 1) / per > REDUCE_MAX_CHUNKS)
		per = (count + REDUCE_MAX_CHUNKS - 1) / REDUCE_MAX_CHUNKS;
	uint64_t chunk[REDUCE_MAX_CHUNKS], all = 0;
	size_t n = 0;
	bool backwards = false;
	if (count == 0)
		return 0;
	const uint64_t wall0 = trace_now_ns();
	uint64_t c0 = ticks();
	for (size_t at = 0; at < count; at += per) {
		size_t k = count - at < per ? count - at : per;
		uint64_t s0 = slow_pct > 0 ? trace_now_ns() : 0;
		ar_reduce((char *)out + at * w, (const char *)lhs + at * w, (const char *)rhs + at * w,
		          k, t, op);
		if (slow_pct > 0)
			fault_spin_ns((trace_now_ns() - s0) * (uint64_t)slow_pct / 100);
		uint64_t c1 = ticks();
		backwards |= c1 < c0;
		chunk[n++] = c1 - c0;
		all += c1 - c0;
		c0 = c1;
	}
	const uint64_t wall = trace_now_ns() - wall0;
	/* the median chunk's share of the ticks, of the wall time: no tick rate needed; a
	   tick count that ran back (moved to a core whose TSC lags) times nothing: the wall */
	if (backwards || all == 0)
		return wall;
	uint64_t busy = reduce_busy_ns(chunk, n, count, per);
	return (uint64_t)((double)wall * (double)busy / (double)all + 0.5);
}
