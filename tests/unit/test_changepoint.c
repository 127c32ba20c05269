/*
 * E-divisive change points on synthetic series: a step is found at its
 * index, in series of every length trend sees; series of noise alone (many,
 * seeded) rarely give one; an outlier is not a step; two steps are both found.
 */
#include "reports/stats/changepoint.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

static uint64_t rng;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* log-times: level 0, then level step from index at on, plus noise of spread sigma */
static void series(double *x, size_t n, size_t at, double step, double sigma)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (i >= at ? step : 0) + sigma * normal();
}

static size_t find(const double *x, size_t n, struct cp_change *out, size_t max)
{
	struct cp_options o;
	size_t found = 99;

	cp_options_init(&o);
	cr_assert_eq(cp_find(x, n, &o, out, max, &found), 0);
	return found;
}

Test(changepoint, clean_step_at_the_fifth_of_eight)
{
	const double x[] = {100, 101, 99, 100, 130, 131, 129, 130};
	double lx[8];
	struct cp_change c[4];

	for (int i = 0; i < 8; i++)
		lx[i] = log(x[i]);
	cr_assert_eq(find(lx, 8, c, 4), 1);
	cr_assert_eq(c[0].index, 4);
	cr_assert_lt(c[0].p_value, 0.05);
	/* only 2 of the 70 orders of 4 + 4 values split as cleanly: p about 0.029 */
	cr_assert_gt(c[0].p_value, 0.01);
}

Test(changepoint, step_found_at_its_index_in_noise)
{
	const size_t lengths[] = {8, 12, 20, 40};
	double x[40];
	struct cp_change c[20];

	rng = 1;
	for (size_t l = 0; l < 4; l++) {
		size_t n = lengths[l], right = 0, extra = 0, trials = 100;
		/*
		 * Every index a step can be seen at: a permutation test of k values
		 * against n - k cannot go below p = 2 / C(n, k), so of 8 values a step
		 * needs 3 on each side (2 / 56); from 12 on, 2 (2 / 66) will do.
		 */
		size_t lo = n == 8 ? 3 : 2;
		for (size_t t = 0; t < trials; t++) {
			size_t at = lo + t % (n - 2 * lo + 1);
			series(x, n, at, log(1.3), 0.03);
			size_t k = find(x, n, c, 20);
			for (size_t i = 0; i < k; i++)
				right += c[i].index == at;
			extra += k > 1;
		}
		cr_assert_geq(right, 97, "length %zu: the step found at its index in %zu of %zu", n,
		              right, trials);
		/* each further split is tested at alpha 0.05 too */
		cr_assert_leq(extra, 10, "length %zu: a second step made up in %zu of %zu", n,
		              extra, trials);
	}
}

Test(changepoint, two_of_eight_cannot_be_told_from_chance)
{
	const double x[] = {0, 0.01, 1, 1.01, 0.99, 1, 1.02, 0.98};
	struct cp_change c[4];

	/* 2 / C(8, 2) = 0.071 > alpha: the most extreme order still happens by chance */
	cr_assert_eq(find(x, 8, c, 4), 0);
}

Test(changepoint, noise_alone_rarely_steps)
{
	const size_t lengths[] = {8, 20, 50};
	double x[50];
	struct cp_change c[25];

	rng = 2;
	for (size_t l = 0; l < 3; l++) {
		size_t n = lengths[l], stepped = 0, trials = 300;
		for (size_t t = 0; t < trials; t++) {
			series(x, n, n, 0, 0.05);
			stepped += find(x, n, c, 25) > 0;
		}
		/* alpha 0.05 per series */
		cr_assert_leq(stepped, 27, "length %zu: %zu of %zu noise series stepped", n,
		              stepped, trials);
	}
}

Test(changepoint, small_step_in_large_noise_is_not_claimed)
{
	double x[20];
	struct cp_change c[10];
	size_t stepped = 0;

	rng = 3;
	for (int t = 0; t < 200; t++) {
		series(x, 20, 10, 0.01, 0.2); /* 1% under 20% noise */
		stepped += find(x, 20, c, 10) > 0;
	}
	cr_assert_leq(stepped, 20, "%zu of 200", stepped);
}

Test(changepoint, one_outlier_is_not_a_step)
{
	double x[20];
	struct cp_change c[10];
	size_t stepped = 0;

	rng = 4;
	for (int t = 0; t < 200; t++) {
		series(x, 20, 20, 0, 0.03);
		x[3 + t % 14] += log(3.0);
		stepped += find(x, 20, c, 10) > 0;
	}
	cr_assert_leq(stepped, 30, "%zu of 200 series with one outlier stepped", stepped);
}

Test(changepoint, two_steps_both_found)
{
	double x[30];
	struct cp_change c[10];
	size_t both = 0;

	rng = 5;
	for (int t = 0; t < 100; t++) {
		for (size_t i = 0; i < 30; i++)
			x[i] =
			    (i >= 10 ? log(1.5) : 0) - (i >= 20 ? log(1.25) : 0) + 0.02 * normal();
		size_t k = find(x, 30, c, 10);
		both += k == 2 && c[0].index == 10 && c[1].index == 20;
	}
	cr_assert_geq(both, 90, "%zu of 100", both);
}

Test(changepoint, edges)
{
	const double flat[] = {1, 1, 1, 1, 1, 1};
	const double bad[] = {1, NAN, 1, 1};
	struct cp_options o;
	struct cp_change c[4];
	size_t found, at;

	cp_options_init(&o);
	cr_assert_eq(cp_find(flat, 6, &o, c, 4, &found), 0);
	cr_assert_eq(found, 0, "equal values have no step");
	cr_assert_eq(cp_find(flat, 3, &o, c, 4, &found), 0);
	cr_assert_eq(found, 0, "too short for two segments");
	cr_assert_eq(cp_find(bad, 4, &o, c, 4, &found), -1);
	o.alpha = 0;
	cr_assert_eq(cp_find(flat, 6, &o, c, 4, &found), -1);
	cp_options_init(&o);
	o.min_segment = 0;
	cr_assert_eq(cp_find(flat, 6, &o, c, 4, &found), -1);
	/* the statistic of a clean split: m k / (m + k) x 2 |step| = 2 x 3 / 5 x 2 x 1 */
	const double two_levels[] = {0, 0, 1, 1, 1};
	cr_assert_float_eq(cp_best_split(two_levels, 5, 2, &at), 2.4, 1e-12);
	cr_assert_eq(at, 2);
}

Test(changepoint, same_series_same_answer)
{
	double x[16];
	struct cp_change a[8], b[8];
	size_t na, nb;

	rng = 6;
	series(x, 16, 9, log(1.1), 0.05);
	na = find(x, 16, a, 8);
	nb = find(x, 16, b, 8);
	cr_assert_eq(na, nb);
	for (size_t i = 0; i < na; i++) {
		cr_assert_eq(a[i].index, b[i].index);
		cr_assert_eq(a[i].p_value, b[i].p_value);
	}
}
