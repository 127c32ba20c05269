/* The two halves of a traced all-reduce (reports/diagnose/halves.c). */
#include "reports/diagnose/halves.h"

#include <criterion/criterion.h>
#include <math.h>

static struct hops_step step(int rank, int iteration, int half, double start, double end)
{
	return (struct hops_step){.rank = rank,
	                          .iteration = iteration,
	                          .half = half,
	                          .start_us = start,
	                          .end_us = end,
	                          .send_peer = -1,
	                          .recv_peer = -1};
}

Test(halves, the_last_reduce_scatter_step_of_any_rank_splits_the_iteration)
{
	/* iteration 0: RS ends at 60 (rank 1), the last step at 100: 60 and 40;
	   iteration 1: 10 .. 40 .. 110: 30 and 70. Medians of two: 45 and 55 */
	const struct hops_step s[] = {
	    step(0, 0, 1, 0, 50),    step(1, 0, 1, 5, 60),    step(0, 0, 2, 50, 90),
	    step(1, 0, 2, 60, 100),  step(0, 1, 1, 10, 40),   step(1, 1, 1, 12, 35),
	    step(0, 1, 2, 40, 110),  step(1, 1, 2, 35, 100),
	};
	struct halves h;
	cr_assert_eq(halves_of(s, sizeof s / sizeof s[0], &h), 0);
	cr_expect(h.known);
	cr_expect_eq(h.iterations, 2);
	cr_expect_float_eq(h.reduce_scatter_us, 45, 1e-9);
	cr_expect_float_eq(h.allgather_us, 55, 1e-9);
	cr_expect_float_eq(h.reduce_scatter_share, 0.45, 1e-9);
}

Test(halves, without_both_halves_nothing_is_known)
{
	const struct hops_step s[] = {step(0, 0, 0, 0, 10), step(1, 0, 1, 0, 10)};
	struct halves h;
	cr_assert_eq(halves_of(s, 2, &h), 0);
	cr_expect(!h.known);
	cr_expect(isnan(h.reduce_scatter_us) && isnan(h.allgather_us));
	cr_assert_eq(halves_of(s, 0, &h), 0);
	cr_expect(!h.known);
}
