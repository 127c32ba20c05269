/*
 * Statistics: known values, every edge case of n, the percentile rule of
 * reports/README.md (type 7, the sample-size rule), and the Mann-Whitney test against published results.
 * Expected percentiles are numpy's (type 7): worked by hand below, and the
 * two taken from numpy's own documentation say so.
 */
#include "reports/stats/stats.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

Test(stats, empty_is_an_error)
{
	double x[1] = {1.0};
	double u, p;
	struct stats_summary s;

	cr_assert(isnan(stats_min(x, 0)));
	cr_assert(isnan(stats_max(x, 0)));
	cr_assert(isnan(stats_mean(x, 0)));
	cr_assert(isnan(stats_stddev(x, 0)));
	cr_assert(isnan(stats_percentile(x, 0, 0.5)));
	cr_assert(isnan(stats_median(x, 0)));
	cr_assert(isnan(stats_mad(x, 0)));
	cr_assert(isnan(stats_min(NULL, 3)));
	cr_assert(isnan(stats_median(NULL, 3)));
	cr_assert_not(stats_percentile_defined(0, 0.0));
	cr_assert_eq(stats_summarize(x, 0, &s), -1);
	cr_assert_eq(s.n, 0);
	cr_assert(isnan(s.min_us) && isnan(s.max_us) && isnan(s.mean_us) && isnan(s.p50_us));
	cr_assert_eq(stats_summarize(NULL, 3, &s), -1);
	cr_assert_eq(stats_summarize(x, 1, NULL), -1);
	cr_assert_eq(stats_mann_whitney(x, 0, x, 1, &u, &p), -1);
}

Test(stats, one_sample)
{
	double x[] = {7.0};

	cr_assert_eq(stats_min(x, 1), 7.0);
	cr_assert_eq(stats_max(x, 1), 7.0);
	cr_assert_eq(stats_mean(x, 1), 7.0);
	cr_assert(isnan(stats_stddev(x, 1)), "stddev of one sample must be NAN");
	cr_assert_eq(stats_percentile(x, 1, 0.0), 7.0);
	cr_assert_eq(stats_percentile(x, 1, 0.99), 7.0);
	cr_assert_eq(stats_median(x, 1), 7.0);
	cr_assert_eq(stats_mad(x, 1), 0.0);
}

Test(stats, two_samples)
{
	double x[] = {3.0, 1.0};

	cr_assert_eq(stats_min(x, 2), 1.0);
	cr_assert_eq(stats_max(x, 2), 3.0);
	cr_assert_eq(stats_mean(x, 2), 2.0);
	cr_assert_eq(stats_stddev(x, 2), sqrt(2.0));
	cr_assert_eq(stats_median(x, 2), 2.0);
}

Test(stats, min_max_mean_stddev)
{
	double x[] = {3, 1, 4, 1, 5, 9, 2, 6};
	double y[] = {1, 2, 3, 4, 5};

	cr_assert_eq(stats_min(x, N_OF(x)), 1.0);
	cr_assert_eq(stats_max(x, N_OF(x)), 9.0);
	cr_assert_eq(stats_mean(x, N_OF(x)), 3.875);
	/* squared deviations from 3.875 sum to 52.875 */
	cr_assert_float_eq(stats_stddev(x, N_OF(x)), sqrt(52.875 / 7.0), 1e-15);
	/* 1..5: sum of squared deviations 10, over n - 1 = 4 */
	cr_assert_eq(stats_stddev(y, N_OF(y)), sqrt(2.5));
	cr_assert_eq(stats_mean(y, N_OF(y)), 3.0);
}

Test(stats, stddev_of_constant_is_zero)
{
	double x[] = {1e6 + 0.1, 1e6 + 0.1, 1e6 + 0.1, 1e6 + 0.1};

	cr_assert_eq(stats_stddev(x, N_OF(x)), 0.0);
}

Test(stats, percentile_type7_by_hand)
{
	double x[] = {1, 2, 3, 4};
	double y[] = {10, 20, 30, 40, 50};

	cr_assert_eq(stats_percentile(x, 4, 0.0), 1.0);
	cr_assert_eq(stats_percentile(x, 4, 1.0), 4.0);
	cr_assert_eq(stats_percentile(x, 4, 0.5), 2.5);   /* h = 1.5 */
	cr_assert_eq(stats_percentile(x, 4, 0.25), 1.75); /* h = 0.75 */
	cr_assert_float_eq(stats_percentile(x, 4, 0.9), 3.7, 1e-12); /* h = 2.7 */
	cr_assert_eq(stats_percentile(y, 5, 0.5), 30.0);
	cr_assert_eq(stats_percentile(y, 5, 0.75), 40.0);
	cr_assert_float_eq(stats_percentile(y, 5, 0.9), 46.0, 1e-12); /* h = 3.6 */
	cr_assert_float_eq(stats_percentile(y, 5, 0.1), 14.0, 1e-12); /* h = 0.4 */
}

Test(stats, percentile_numpy_doc_examples)
{
	/* numpy.percentile docs: a = [[10, 7, 4], [3, 2, 1]]; percentile(a, 50) = 3.5 */
	double a[] = {1, 2, 3, 4, 7, 10};
	/* ... and percentile(a, 50, axis=0) = [6.5, 4.5, 2.5] */
	double col0[] = {3, 10}, col1[] = {2, 7}, col2[] = {1, 4};

	cr_assert_eq(stats_percentile(a, N_OF(a), 0.5), 3.5);
	cr_assert_eq(stats_percentile(col0, 2, 0.5), 6.5);
	cr_assert_eq(stats_percentile(col1, 2, 0.5), 4.5);
	cr_assert_eq(stats_percentile(col2, 2, 0.5), 2.5);
}

Test(stats, percentile_bad_q)
{
	double x[] = {1, 2};

	cr_assert(isnan(stats_percentile(x, 2, -0.01)));
	cr_assert(isnan(stats_percentile(x, 2, 1.01)));
	cr_assert(isnan(stats_percentile(x, 2, NAN)));
}

Test(stats, percentile_monotone_in_q)
{
	double x[] = {0.1, 0.7, 0.7, 1.3, 2.9, 3.1, 100.0};
	double prev = -INFINITY;

	for (int i = 0; i <= 1000; i++) {
		double v = stats_percentile(x, N_OF(x), i / 1000.0);
		cr_assert_geq(v, prev, "q = %g", i / 1000.0);
		prev = v;
	}
	cr_assert_eq(prev, 100.0);
}

Test(stats, median_odd_and_even)
{
	double odd[] = {5, 1, 3};
	double even[] = {4, 1, 3, 2};

	cr_assert_eq(stats_median(odd, 3), 3.0);
	cr_assert_eq(stats_median(even, 4), 2.5);
	/* unsorted input is not reordered */
	cr_assert_eq(odd[0], 5.0);
	cr_assert_eq(even[0], 4.0);
}

Test(stats, percentile_defined_thresholds)
{
	static const struct {
		double q;
		size_t need;
	} t[] = {{0.5, 2}, {0.75, 4}, {0.9, 10}, {0.95, 20}, {0.99, 100}, {0.999, 1000}};

	for (size_t i = 0; i < N_OF(t); i++) {
		cr_assert(stats_percentile_defined(t[i].need, t[i].q), "q %g n %zu", t[i].q, t[i].need);
		cr_assert_not(stats_percentile_defined(t[i].need - 1, t[i].q), "q %g n %zu", t[i].q,
			      t[i].need - 1);
		cr_assert(stats_percentile_defined(t[i].need * 10, t[i].q));
	}
	cr_assert(stats_percentile_defined(1, 0.0));
	cr_assert(stats_percentile_defined(2, 0.3)); /* 1/0.7 = 1.43: needs 2 */
	cr_assert_not(stats_percentile_defined(1, 0.3));
	cr_assert_not(stats_percentile_defined(1000000, 1.0));
	cr_assert_not(stats_percentile_defined(10, -0.1));
	cr_assert_not(stats_percentile_defined(10, 1.5));
	cr_assert_not(stats_percentile_defined(10, NAN));
}

Test(stats, percentile_defined_sweep)
{
	/* q = 1 - 1/k needs exactly k samples, despite rounding of q */
	for (size_t k = 2; k <= 100000; k++) {
		double q = 1.0 - 1.0 / (double)k;
		cr_assert(stats_percentile_defined(k, q), "k %zu", k);
		cr_assert_not(stats_percentile_defined(k - 1, q), "k %zu", k);
	}
}

Test(stats, summarize_leaves_input_order)
{
	double x[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
	double copy[N_OF(x)];
	struct stats_summary s;

	memcpy(copy, x, sizeof x);
	cr_assert_eq(stats_summarize(x, N_OF(x), &s), 0);
	cr_assert_eq(memcmp(copy, x, sizeof x), 0, "caller's array reordered");
	cr_assert_eq(s.n, 10);
	cr_assert_eq(s.min_us, 1.0);
	cr_assert_eq(s.max_us, 10.0);
	cr_assert_eq(s.mean_us, 5.5);
	cr_assert_float_eq(s.stddev_us, sqrt(82.5 / 9.0), 1e-15);
	cr_assert_eq(s.p50_us, 5.5);
	cr_assert_float_eq(s.p90_us, 9.1, 1e-12); /* h = 8.1 */
	cr_assert(isnan(s.p99_us), "p99 needs 100 samples");
	cr_assert(isnan(s.p999_us), "p999 needs 1000 samples");
}

Test(stats, summarize_one)
{
	double x[] = {42.0};
	struct stats_summary s;

	cr_assert_eq(stats_summarize(x, 1, &s), 0);
	cr_assert_eq(s.n, 1);
	cr_assert_eq(s.min_us, 42.0);
	cr_assert_eq(s.max_us, 42.0);
	cr_assert_eq(s.mean_us, 42.0);
	cr_assert(isnan(s.stddev_us));
	cr_assert(isnan(s.p50_us), "p50 needs 2 samples");
	cr_assert(isnan(s.p90_us) && isnan(s.p99_us) && isnan(s.p999_us));
}

Test(stats, summarize_p99_and_p999)
{
	static double x[1000];
	struct stats_summary s;

	for (size_t i = 0; i < 1000; i++)
		x[i] = (double)(1000 - i); /* 1000 .. 1, reversed */
	cr_assert_eq(stats_summarize(x, 100, &s), 0); /* 1000 .. 901 */
	cr_assert_float_eq(s.p99_us, 999.01, 1e-9);  /* h = 98.01 */
	cr_assert(isnan(s.p999_us));
	cr_assert_eq(stats_summarize(x, 1000, &s), 0);
	cr_assert_float_eq(s.p999_us, 999.001, 1e-9); /* h = 998.001 */
	cr_assert_float_eq(s.p99_us, 990.01, 1e-9);   /* h = 989.01 */
	cr_assert_eq(s.p50_us, 500.5);
	cr_assert_eq(x[0], 1000.0);
}

Test(stats, mad_known)
{
	/* median 2, deviations {1,1,0,0,2,4,7}, their median 1 */
	double x[] = {1, 1, 2, 2, 4, 6, 9};
	/* even n: median 2.5, deviations {1.5, .5, .5, 1.5}, median 1 */
	double y[] = {4, 1, 3, 2};

	cr_assert_eq(stats_mad(x, N_OF(x)), 1.0);
	cr_assert_eq(stats_mad(y, N_OF(y)), 1.0);
	cr_assert_eq(y[0], 4.0);
}

Test(stats, modified_z)
{
	cr_assert_float_eq(stats_modified_z(9.0, 2.0, 1.0), 0.6745 * 7.0, 1e-15);
	cr_assert_float_eq(stats_modified_z(0.0, 2.0, 1.0), -0.6745 * 2.0, 1e-15);
	cr_assert_eq(stats_modified_z(2.0, 2.0, 1.0), 0.0);
	cr_assert_float_eq(stats_modified_z(3.0, 1.0, 0.5), 0.6745 * 4.0, 1e-15);
}

Test(stats, modified_z_mad_zero)
{
	/* more than half identical: MAD is 0 */
	double x[] = {5, 5, 5, 6};
	double median = stats_median(x, N_OF(x));
	double mad = stats_mad(x, N_OF(x));

	cr_assert_eq(median, 5.0);
	cr_assert_eq(mad, 0.0);
	cr_assert_eq(stats_modified_z(5.0, median, mad), 0.0);
	cr_assert(isinf(stats_modified_z(6.0, median, mad)));
	cr_assert_gt(stats_modified_z(6.0, median, mad), 0.0);
	cr_assert(isinf(stats_modified_z(4.0, median, mad)));
	cr_assert_lt(stats_modified_z(4.0, median, mad), 0.0);
	cr_assert(isnan(stats_modified_z(4.0, median, -1.0)));
	cr_assert(isnan(stats_modified_z(4.0, median, NAN)));
	cr_assert(isnan(stats_modified_z(NAN, median, 1.0)));
}

Test(stats, mann_whitney_scipy_example)
{
	/* scipy.stats.mannwhitneyu docs: method="asymptotic" gives
	 * statistic 17.0, pvalue 0.11134688653314041 */
	double males[] = {19, 22, 16, 29, 24};
	double females[] = {20, 11, 17, 12};
	double u = -1, p = -1;

	cr_assert_eq(stats_mann_whitney(males, 5, females, 4, &u, &p), 0);
	cr_assert_eq(u, 17.0);
	cr_assert_float_eq(p, 0.11134688653314041, 1e-12);
	/* swapped: U of the other side, same two-sided p */
	cr_assert_eq(stats_mann_whitney(females, 4, males, 5, &u, &p), 0);
	cr_assert_eq(u, 3.0);
	cr_assert_float_eq(p, 0.11134688653314041, 1e-12);
}

Test(stats, mann_whitney_nag_example_with_ties)
{
	/* NAG g08amc example: U = 86, normal statistic -2.8039 (tie and
	 * continuity corrected), one-tailed 0.0025 */
	double g1[] = {13, 6, 12, 7, 12, 7, 10, 7, 10, 7, 16, 7, 10, 8, 9, 8};
	double g2[] = {17, 6,  10, 8,  15, 8,  15, 10, 15, 10, 14, 10,
		       14, 11, 14, 11, 13, 12, 13, 12, 13, 12, 12};
	double u = -1, p = -1;

	cr_assert_eq(stats_mann_whitney(g1, N_OF(g1), g2, N_OF(g2), &u, &p), 0);
	cr_assert_eq(u, 86.0);
	/* z is given to 4 decimals: dp/dz there is about 0.016 */
	cr_assert_float_eq(p, erfc(2.8039 / sqrt(2.0)), 2e-6);
	cr_assert_float_eq(p / 2.0, 0.0025, 0.00005);
}

Test(stats, mann_whitney_u_is_pair_count)
{
	double a[] = {1, 3, 3, 5, 8, 8, 8, 12, 13, 2};
	double b[] = {2, 3, 4, 8, 9, 10, 11, 11, 0, 3, 7};
	double want = 0.0, u, p;

	for (size_t i = 0; i < N_OF(a); i++)
		for (size_t j = 0; j < N_OF(b); j++)
			want += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	cr_assert_eq(stats_mann_whitney(a, N_OF(a), b, N_OF(b), &u, &p), 0);
	cr_assert_eq(u, want);
	cr_assert(p > 0.0 && p <= 1.0);
}

Test(stats, mann_whitney_separated_and_identical)
{
	double lo[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	double hi[] = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
	double same[] = {5, 5, 5, 5};
	double u, p;

	cr_assert_eq(stats_mann_whitney(lo, 10, hi, 10, &u, &p), 0);
	cr_assert_eq(u, 0.0);
	/* z = (100 - 50 - 0.5) / sqrt(100 * 21 / 12) */
	cr_assert_float_eq(p, erfc(49.5 / sqrt(175.0) / sqrt(2.0)), 1e-12);
	cr_assert_lt(p, 0.001);
	cr_assert_eq(stats_mann_whitney(lo, 10, lo, 10, &u, &p), 0);
	cr_assert_eq(u, 50.0);
	cr_assert_eq(p, 1.0);
	cr_assert_eq(stats_mann_whitney(same, 4, same, 4, &u, &p), 0, "all tied");
	cr_assert_eq(u, 8.0);
	cr_assert_eq(p, 1.0);
}

Test(stats, mann_whitney_too_small)
{
	double a[] = {1, 2, 3};
	double u = -7, p = -7;

	cr_assert_eq(stats_mann_whitney(a, 1, a, 3, &u, &p), -1);
	cr_assert_eq(stats_mann_whitney(a, 3, a, 1, &u, &p), -1);
	cr_assert_eq(stats_mann_whitney(a, 3, NULL, 3, &u, &p), -1);
	cr_assert_eq(stats_mann_whitney(a, 3, a, 3, NULL, &p), -1);
	cr_assert_eq(u, -7);
	cr_assert_eq(stats_mann_whitney(a, 2, a + 1, 2, &u, &p), 0);
}

/* The in-place median sorts its scratch array and agrees with the copying one. */
Test(stats, median_inplace_sorts_and_agrees)
{
	double x[] = {5, 1, 4, 2, 3, 6};
	double y[] = {5, 1, 4, 2, 3, 6};
	cr_assert_float_eq(stats_median_inplace(x, 6), stats_median(y, 6), 1e-12);
	cr_assert_float_eq(stats_median_inplace(x, 5), 3.0, 1e-12);
	for (int i = 1; i < 6; i++)
		cr_assert_leq(x[i - 1], x[i]);
	cr_assert(isnan(stats_median_inplace(x, 0)));
	cr_assert(isnan(stats_median_inplace(NULL, 3)));
}
