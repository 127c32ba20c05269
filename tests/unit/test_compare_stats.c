/*
 * Multiple-comparison adjustments against values computed by hand with R's
 * definitions of p.adjust, and the Mann-Whitney test's minimum detectable
 * effect against a simulation of the test itself.
 */
#include "reports/stats/compare_stats.h"
#include "reports/stats/stats.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

static void assert_all(const double *got, const double *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (isnan(want[i]))
			cr_assert(isnan(got[i]), "q[%zu] = %g, expected NAN", i, got[i]);
		else
			cr_assert_float_eq(got[i], want[i], 1e-12, "q[%zu] = %.15g, expected %.15g",
			                   i, got[i], want[i]);
	}
}

/*
 * p = (0.01, 0.04, 0.03, 0.005), m = 4. Sorted 0.005, 0.01, 0.03, 0.04:
 * BH m p / rank = 0.02, 0.02, 0.04, 0.04, running min from the top: the same.
 * Holm (m - rank + 1) p = 0.02, 0.03, 0.06, 0.04, running max: 0.02, 0.03,
 * 0.06, 0.06.
 */
Test(multitest, bh_unsorted_input)
{
	const double p[] = {0.01, 0.04, 0.03, 0.005};
	const double want[] = {0.02, 0.04, 0.04, 0.02};
	double q[4];

	cr_assert_eq(stats_adjust_bh(p, 4, q), 0);
	assert_all(q, want, 4);
}

Test(multitest, holm_unsorted_input)
{
	const double p[] = {0.01, 0.04, 0.03, 0.005};
	const double want[] = {0.03, 0.06, 0.06, 0.02};
	double q[4];

	cr_assert_eq(stats_adjust_holm(p, 4, q), 0);
	assert_all(q, want, 4);
}

/* p.adjust(c(.01,.02,.03,.04,.05), "BH") is 0.05 five times; "holm" 0.05 0.08 0.09 0.09 0.09. */
Test(multitest, evenly_spaced)
{
	const double p[] = {0.01, 0.02, 0.03, 0.04, 0.05};
	const double bh[] = {0.05, 0.05, 0.05, 0.05, 0.05};
	const double holm[] = {0.05, 0.08, 0.09, 0.09, 0.09};
	double q[5];

	cr_assert_eq(stats_adjust_bh(p, 5, q), 0);
	assert_all(q, bh, 5);
	cr_assert_eq(stats_adjust_holm(p, 5, q), 0);
	assert_all(q, holm, 5);
}

/* p = (0.5, 0.9, 0.3): BH 0.75 0.9 0.75; Holm 0.9 x3 = 0.9, 2 x 0.5 = 1, capped: 1 1 0.9. */
Test(multitest, capped_at_one)
{
	const double p[] = {0.5, 0.9, 0.3};
	const double bh[] = {0.75, 0.9, 0.75};
	const double holm[] = {1, 1, 0.9};
	double q[3];

	cr_assert_eq(stats_adjust_bh(p, 3, q), 0);
	assert_all(q, bh, 3);
	cr_assert_eq(stats_adjust_holm(p, 3, q), 0);
	assert_all(q, holm, 3);
}

/* Untested points (NAN) are not in the family: m = 2 here, as p.adjust's n = sum(!is.na(p)). */
Test(multitest, nan_is_not_in_the_family)
{
	double p[] = {NAN, 0.01, NAN, 0.04};
	const double bh[] = {NAN, 0.02, NAN, 0.04};
	const double holm[] = {NAN, 0.02, NAN, 0.04};
	double q[4];

	cr_assert_eq(stats_adjust_bh(p, 4, q), 0);
	assert_all(q, bh, 4);
	cr_assert_eq(stats_adjust_holm(p, 4, q), 0);
	assert_all(q, holm, 4);
	/* in place */
	cr_assert_eq(stats_adjust_bh(p, 4, p), 0);
	assert_all(p, bh, 4);
}

Test(multitest, ties_and_one_value)
{
	const double p[] = {0.02, 0.02, 0.02};
	const double bh[] = {0.02, 0.02, 0.02};
	const double holm[] = {0.06, 0.06, 0.06};
	double q[3], one = 0.3, q1;

	cr_assert_eq(stats_adjust_bh(p, 3, q), 0);
	assert_all(q, bh, 3);
	cr_assert_eq(stats_adjust_holm(p, 3, q), 0);
	assert_all(q, holm, 3);
	cr_assert_eq(stats_adjust_bh(&one, 1, &q1), 0);
	cr_assert_float_eq(q1, 0.3, 1e-15);
}

Test(multitest, bad_input)
{
	const double bad[] = {0.1, 1.5};
	const double neg[] = {-0.1};
	double q[2];

	cr_assert_eq(stats_adjust_bh(bad, 2, q), -1);
	cr_assert_eq(stats_adjust_holm(neg, 1, q), -1);
	cr_assert_eq(stats_adjust_bh(NULL, 2, q), -1);
	cr_assert_eq(stats_adjust_bh(NULL, 0, NULL), 0, "an empty family is nothing to adjust");
}

Test(normal, quantile_and_cdf)
{
	cr_assert_float_eq(stats_norm_quantile(0.5), 0.0, 1e-14);
	cr_assert_float_eq(stats_norm_quantile(0.975), 1.959963984540054, 1e-12);
	cr_assert_float_eq(stats_norm_quantile(0.995), 2.575829303548901, 1e-12);
	cr_assert_float_eq(stats_norm_quantile(0.8), 0.841621233572914, 1e-12);
	cr_assert_float_eq(stats_norm_quantile(1e-6), -4.753424308822899, 1e-10);
	cr_assert_float_eq(stats_norm_cdf(1.959963984540054), 0.975, 1e-14);
	for (double p = 0.001; p < 1; p += 0.0137)
		cr_assert_float_eq(stats_norm_cdf(stats_norm_quantile(p)), p, 1e-13);
	cr_assert(isnan(stats_norm_quantile(0)));
	cr_assert(isnan(stats_norm_quantile(1)));
}

Test(mde, log_spread)
{
	/* logs 0, +-0.1, +-0.2: MAD 0.1 */
	const double x[] = {1, exp(0.1), exp(-0.1), exp(0.2), exp(-0.2)};
	const double flat[] = {2, 2, 2, 2, 4};
	const double bad[] = {1, 0};

	cr_assert_float_eq(stats_log_spread(x, 5), 0.1482602218505602, 1e-12);
	cr_assert_float_eq(stats_log_spread(flat, 5), log(2) / sqrt(5), 1e-12,
	                   "MAD 0 falls back to the standard deviation");
	cr_assert(isnan(stats_log_spread(bad, 2)));
	cr_assert(isnan(stats_log_spread(x, 1)));
}

Test(mde, closed_form_and_edges)
{
	/* theta = 1/2 + (2.5758 + 0.8416) sqrt(61 / 10800) = 0.75684; d = 0.1 sqrt 2 z(theta) =
	 * 0.09845 */
	double d = stats_mw_mde_log(0.1, 30, 30, 0.01, 0.8);
	double theta = 0.5 + (2.575829303548901 + 0.841621233572914) * sqrt(61.0 / 10800.0);
	cr_assert_float_eq(d, 0.1 * sqrt(2.0) * stats_norm_quantile(theta), 1e-12);
	cr_assert_float_eq(d, 0.09845, 1e-4, "%g", d);
	cr_assert(stats_mw_mde_log(0.1, 30, 30, 0.001, 0.8) > d, "a stricter alpha detects less");
	cr_assert(stats_mw_mde_log(0.1, 120, 120, 0.01, 0.8) < d / 1.9, "4x the samples: ~half");
	cr_assert_eq(stats_mw_mde_log(0, 30, 30, 0.01, 0.8), 0);
	cr_assert(isinf(stats_mw_mde_log(0.1, 2, 2, 0.01, 0.8)), "two a side cannot reach 80%");
	cr_assert(isnan(stats_mw_mde_log(0.1, 1, 30, 0.01, 0.8)));
	cr_assert(isnan(stats_mw_mde_log(0.1, 30, 30, 0, 0.8)));
	cr_assert(isnan(stats_mw_mde_log(-1, 30, 30, 0.01, 0.8)));
}

Test(mde, samples_needed_is_the_smallest_that_works)
{
	const double sigmas[] = {0.02, 0.1, 0.3, 0.8};
	const double effects[] = {0.01, 0.05, 0.1, 0.5};

	for (size_t s = 0; s < 4; s++)
		for (size_t e = 0; e < 4; e++) {
			double d = log1p(effects[e]);
			size_t n = stats_mw_samples_needed(sigmas[s], d, 0.01, 0.8);
			cr_assert_geq(n, 2);
			cr_assert_leq(stats_mw_mde_log(sigmas[s], n, n, 0.01, 0.8), d);
			if (n > 2)
				cr_assert_gt(stats_mw_mde_log(sigmas[s], n - 1, n - 1, 0.01, 0.8),
				             d, "sigma %g effect %g: %zu is not the smallest",
				             sigmas[s], effects[e], n);
		}
	cr_assert_eq(stats_mw_samples_needed(0, 0.05, 0.01, 0.8), 2);
	cr_assert_eq(stats_mw_samples_needed(0.1, 0, 0.01, 0.8), 0);
}

/* A seeded generator (splitmix64) and normal deviates by Box-Muller. */
static uint64_t rng_state;

static double uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/*
 * The share of trials in which compare's test calls n log-normal times of
 * spread sigma, slowed by the factor exp(d), slower than n unslowed ones:
 * two-sided p < alpha with U on the slower side.
 */
static double rejection_rate(double sigma, double d, size_t n, double alpha, int trials)
{
	double base[400], cur[400], u, p;
	int rejected = 0;

	cr_assert_leq(n, 400);
	for (int t = 0; t < trials; t++) {
		for (size_t i = 0; i < n; i++) {
			base[i] = 100 * exp(sigma * normal());
			cur[i] = 100 * exp(d + sigma * normal());
		}
		cr_assert_eq(stats_mann_whitney(cur, n, base, n, &u, &p), 0);
		rejected += p < alpha && u > (double)n * (double)n / 2;
	}
	return (double)rejected / trials;
}

/* At the MDE the test rejects in about the intended 80% of trials; well below, rarely. */
Test(mde, matches_a_simulation_of_the_test)
{
	const struct {
		double sigma;
		size_t n;
		double alpha;
	} cases[] = {{0.1, 30, 0.01}, {0.05, 50, 0.001}, {0.3, 100, 0.01}, {0.02, 12, 0.05}};

	rng_state = 20261201;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		double d =
		    stats_mw_mde_log(cases[c].sigma, cases[c].n, cases[c].n, cases[c].alpha, 0.8);
		double at = rejection_rate(cases[c].sigma, d, cases[c].n, cases[c].alpha, 600);
		double below =
		    rejection_rate(cases[c].sigma, d / 4, cases[c].n, cases[c].alpha, 600);
		double none = rejection_rate(cases[c].sigma, 0, cases[c].n, cases[c].alpha, 600);
		cr_assert(at > 0.70 && at < 0.90, "case %zu: %.3f rejected at the MDE %.4f", c, at,
		          d);
		/* a quarter of the shift moves U by 0.85 to 0.7 null deviations: 4-12% power */
		cr_assert_lt(below, 0.2, "case %zu: %.3f rejected at a quarter of the MDE", c,
		             below);
		cr_assert_leq(none, cases[c].alpha + 0.02, "case %zu: %.3f rejected with no change",
		              c, none);
	}
}

/* "needs ~N samples to test 5%": with N a side the test does find 5% about 80% of the time. */
Test(mde, samples_needed_matches_a_simulation)
{
	double sigma = 0.15, d = log(1.05);
	size_t n = stats_mw_samples_needed(sigma, d, 0.01, 0.8);
	double rate;

	rng_state = 7;
	cr_assert(n > 30 && n < 400, "%zu", n);
	rate = rejection_rate(sigma, d, n, 0.01, 500);
	cr_assert(rate > 0.70 && rate < 0.90, "%.3f with %zu a side", rate, n);
	cr_assert_lt(rejection_rate(sigma, d, n / 4, 0.01, 500), 0.45);
}

/* Student's t, two-sided, against the tables' critical values and the normal limit. */
Test(student_t, two_sided_tails_match_the_tables)
{
	const struct {
		double t;
		int df;
		double p;
	} known[] = {{63.657, 1, 0.01}, {12.706, 1, 0.05}, {9.925, 2, 0.01}, {4.303, 2, 0.05},
	             {3.182, 3, 0.05}, {5.841, 3, 0.01}, {2.776, 4, 0.05}, {4.604, 4, 0.01},
	             {2.571, 5, 0.05}, {2.228, 10, 0.05}, {3.169, 10, 0.01}, {2.042, 30, 0.05}};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		double p = stats_t_two_sided(known[i].t, known[i].df);
		cr_assert_float_eq(p, known[i].p, known[i].p * 0.002, "t %g df %d: p %g",
		                   known[i].t, known[i].df, p);
		cr_assert_float_eq(stats_t_two_sided(-known[i].t, known[i].df), p, 1e-15);
	}
	cr_assert_float_eq(stats_t_two_sided(0, 7), 1, 1e-12);
	cr_assert_float_eq(stats_t_two_sided(1.96, 2000), 2 * (1 - stats_norm_cdf(1.96)), 5e-4);
	cr_assert_eq(stats_t_two_sided(INFINITY, 3), 0);
	cr_assert(isnan(stats_t_two_sided(1, 0)));
	cr_assert(isnan(stats_t_two_sided(NAN, 3)));
}
