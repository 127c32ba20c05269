/* When an adaptive point stops taking samples (algorithms/sample_stop.h). */
#include <criterion/criterion.h>
#include <math.h>

#include "algorithms/sample_stop.h"

Test(sample_stop, floor_keeps_the_tail_where_the_budget_allows)
{
	cr_assert_eq(sample_stop_floor(1000, 10), 100, "p99 needs 100");
	cr_assert_eq(sample_stop_floor(100, 10), 100);
	cr_assert_eq(sample_stop_floor(99, 10), 10, "a budget short of 100: the minimum");
}

Test(sample_stop, checks_at_the_floor_then_each_doubling_up_to_the_ceiling)
{
	int want[] = {100, 200, 400, 800, 1000, 1000};
	int done = 0;
	for (int i = 0; i < 6; i++) {
		done = sample_stop_next_check(done, 100, 1000);
		cr_assert_eq(done, want[i], "check %d", i);
	}
	cr_assert_eq(sample_stop_next_check(0, 10, 7), 7, "never past the ceiling");
}

/* A tight sample converges, a spread one does not, a tiny one has no interval. */
Test(sample_stop, converged_by_the_median_interval)
{
	double x[200], scratch[200], lo, hi;
	for (int i = 0; i < 200; i++)
		x[i] = 100 + (i * 37) % 200 * 0.01; /* 100..102, shuffled */
	cr_assert(sample_stop_converged(x, 200, 0.02, scratch, &lo, &hi));
	cr_assert(lo <= 101 && hi >= 101 && hi - lo < 1, "[%g, %g]", lo, hi);
	for (int i = 0; i < 200; i++)
		x[i] = 100 + (i * 37) % 200; /* 100..299: the interval spans tens of percent */
	cr_assert_not(sample_stop_converged(x, 200, 0.02, scratch, &lo, &hi));
	cr_assert(lo < hi);
	cr_assert_not(sample_stop_converged(x, 5, 0.5, scratch, &lo, &hi), "no interval at 5");
	cr_assert(isnan(lo) && isnan(hi));
	cr_assert_not(sample_stop_converged(x, 0, 0.5, scratch, &lo, &hi));
}

Test(sample_stop, names_for_the_report)
{
	cr_assert_str_eq(sample_stop_name(SAMPLE_STOP_CONVERGED), "converged");
	cr_assert_str_eq(sample_stop_name(SAMPLE_STOP_TIME), "time");
	cr_assert_null(sample_stop_names[SAMPLE_STOP_COUNT]);
}
