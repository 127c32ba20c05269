/* The median's distribution-free interval (reports/stats/median_ci.h). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "reports/stats/median_ci.h"

/* The ranks of the textbook table (Conover): n = 6..10 and 20, 100 at 95%. */
Test(median_ci, ranks_of_the_binomial)
{
	cr_assert_eq(stats_median_ci_rank(5, 0.95), 0, "five cannot reach 95%");
	cr_assert_eq(stats_median_ci_rank(6, 0.95), 1);
	cr_assert_eq(stats_median_ci_rank(9, 0.95), 2);
	cr_assert_eq(stats_median_ci_rank(10, 0.95), 2);
	cr_assert_eq(stats_median_ci_rank(20, 0.95), 6);
	cr_assert_eq(stats_median_ci_rank(100, 0.95), 40);
	cr_assert_eq(stats_median_ci_rank(0, 0.95), 0);
	cr_assert_eq(stats_median_ci_rank(100, 1.0), 0, "a level of 1 has no interval");
}

Test(median_ci, order_statistics_bracket)
{
	double x[20];
	double lo, hi;
	for (int i = 0; i < 20; i++)
		x[i] = i + 1;
	cr_assert_eq(stats_median_ci(x, 20, 0.95, &lo, &hi), 0);
	cr_assert_float_eq(lo, 6, 0);
	cr_assert_float_eq(hi, 15, 0);
	cr_assert_eq(stats_median_ci(x, 5, 0.95, &lo, &hi), -1);
}

/* Its coverage, checked by simulation on a skewed distribution (exponential, median ln 2). */
Test(median_ci, covers_as_stated)
{
	enum { TRIALS = 2000, N = 30 };
	int covered = 0;
	srand(7);
	for (int t = 0; t < TRIALS; t++) {
		double x[N], lo, hi;
		for (int i = 0; i < N; i++)
			x[i] = -log((rand() + 1.0) / ((double)RAND_MAX + 2.0));
		for (int i = 1; i < N; i++) /* insertion sort: small */
			for (int k = i; k > 0 && x[k - 1] > x[k]; k--) {
				double s = x[k];
				x[k] = x[k - 1];
				x[k - 1] = s;
			}
		cr_assert_eq(stats_median_ci(x, N, 0.95, &lo, &hi), 0);
		covered += lo <= log(2) && log(2) <= hi;
	}
	/* at least 95% by construction (the binomial's steps overshoot: 95.7% at n = 30) */
	cr_assert_geq(covered, TRIALS * 0.94, "covered %d of %d", covered, TRIALS);
}
