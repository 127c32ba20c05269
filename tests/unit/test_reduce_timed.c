/*
 * The traced reduction (reduce_timed.h): in chunks it gives ar_reduce's bits
 * at every length, and its time on the core is the median chunk's, so a
 * chunk the core was taken away in does not count.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/dtype.h"
#include "algorithms/reduce_timed.h"

Test(reduce_timed, gives_ar_reduce_bits_at_every_length)
{
	const size_t lengths[] = {0, 1, 7, 4095, 4096, 4097, 3 * 4096 + 5, 300000};
	for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
		size_t n = lengths[i];
		float *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
		float *want = malloc((n + 1) * sizeof *want), *got = malloc((n + 1) * sizeof *got);
		for (size_t k = 0; k < n; k++) {
			a[k] = (float)(k % 977) * 0.31f - 40.0f;
			b[k] = (float)(k % 613) * -0.17f + 3.0f;
		}
		got[n] = want[n] = 99.0f;
		ar_reduce(want, a, b, n, AR_FLOAT32, AR_SUM);
		uint64_t busy = reduce_timed(got, a, b, n, AR_FLOAT32, AR_SUM, 0);
		cr_assert_eq(memcmp(got, want, (n + 1) * sizeof *got), 0, "%zu elements", n);
		cr_assert_eq(busy == 0, n == 0, "%zu elements: a time for every reduction", n);
		/* in place, and a slowed core: the same bits */
		memcpy(got, a, n * sizeof *got);
		reduce_timed(got, got, b, n, AR_FLOAT32, AR_SUM, 50);
		cr_assert_eq(memcmp(got, want, n * sizeof *got), 0, "%zu elements in place", n);
		free(a);
		free(b);
		free(want);
		free(got);
	}
}

Test(reduce_timed, a_chunk_without_the_core_is_left_out)
{
	/* 8 chunks of 100 elements, one of them preempted for 1 ms */
	uint64_t ns[8] = {1000, 1100, 900, 1000000, 1000, 1050, 950, 1000};
	cr_assert_eq(reduce_busy_ns(ns, 8, 800, 100), 8000, "the median chunk times 8");
	/* a short last chunk is not in the median; the count scales it */
	uint64_t tail[3] = {2000, 2000, 500};
	cr_assert_eq(reduce_busy_ns(tail, 3, 250, 100), 5000);
	/* no full chunk: the time measured */
	uint64_t one[1] = {700};
	cr_assert_eq(reduce_busy_ns(one, 1, 30, 100), 700);
	/* even count: the middle two's mean */
	uint64_t four[4] = {10, 40, 20, 30};
	cr_assert_eq(reduce_busy_ns(four, 4, 400, 100), 100);
}
