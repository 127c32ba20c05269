/*
 * Descriptive statistics and the Mann-Whitney U test (see stats.h). Models:
 * Google Benchmark's statistics.cc (sample stddev, explicit edge cases),
 * numpy's quantile (type 7, including its lerp), hyperfine's modified
 * z-scores and scipy's mannwhitneyu (asymptotic method).
 */
#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa;
	double b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* A sorted heap copy of x, or NULL; the caller frees it. */
static double *sorted_copy(const double *x, size_t n)
{
	double *copy = malloc(n * sizeof *copy);

	if (!copy)
		return NULL;
	memcpy(copy, x, n * sizeof *copy);
	qsort(copy, n, sizeof *copy, cmp_double);
	return copy;
}

double stats_min(const double *x, size_t n)
{
	double m;

	if (!x || n == 0)
		return NAN;
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double stats_max(const double *x, size_t n)
{
	double m;

	if (!x || n == 0)
		return NAN;
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0.0;

	if (!x || n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_stddev(const double *x, size_t n)
{
	double mean, sum_sq = 0.0;

	if (!x || n < 2)
		return NAN;
	/* Two passes: sum of squared deviations, not E[x^2] - E[x]^2, which cancels. */
	mean = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		sum_sq += (x[i] - mean) * (x[i] - mean);
	return sqrt(sum_sq / (double)(n - 1));
}

double stats_percentile(const double *x_sorted, size_t n, double q)
{
	double h, t, a, b;
	size_t lo, hi;

	if (!x_sorted || n == 0 || !(q >= 0.0 && q <= 1.0))
		return NAN;
	/* Type 7: virtual index (n - 1) q between ranks lo and lo + 1. */
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return x_sorted[n - 1];
	hi = lo + 1;
	t = h - (double)lo;
	a = x_sorted[lo];
	b = x_sorted[hi];
	/* numpy's _lerp: interpolate from the nearer end, so the result is monotone in q. */
	if (t >= 0.5)
		return b - (b - a) * (1.0 - t);
	return a + (b - a) * t;
}

bool stats_percentile_defined(size_t n, double q)
{
	double need, nearest;

	if (n == 0 || !(q >= 0.0 && q < 1.0))
		return false;
	need = 1.0 / (1.0 - q);
	/* 1/(1 - 0.99) is 100.00000000000009 in doubles: snap it to 100. */
	nearest = nearbyint(need);
	if (fabs(need - nearest) <= 1e-9 * nearest)
		need = nearest;
	return (double)n >= need;
}

double stats_median_inplace(double *x, size_t n)
{
	if (!x || n == 0)
		return NAN;
	qsort(x, n, sizeof *x, cmp_double);
	return stats_percentile(x, n, 0.5);
}

double stats_median(const double *x, size_t n)
{
	double *sorted = NULL;
	double m = NAN;

	if (!x || n == 0)
		goto out;
	sorted = sorted_copy(x, n);
	if (!sorted)
		goto out;
	m = stats_percentile(sorted, n, 0.5);
out:
	free(sorted);
	return m;
}

double stats_mad(const double *x, size_t n)
{
	double *dev = NULL;
	double median, mad = NAN;

	if (!x || n == 0)
		goto out;
	dev = sorted_copy(x, n);
	if (!dev)
		goto out;
	median = stats_percentile(dev, n, 0.5);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(dev[i] - median);
	qsort(dev, n, sizeof *dev, cmp_double);
	mad = stats_percentile(dev, n, 0.5);
out:
	free(dev);
	return mad;
}

double stats_modified_z(double v, double median, double mad)
{
	if (isnan(v) || isnan(median) || !(mad >= 0.0))
		return NAN;
	if (mad == 0.0) {
		if (v == median)
			return 0.0;
		return v > median ? INFINITY : -INFINITY;
	}
	return STATS_MAD_TO_Z * (v - median) / mad;
}

static double defined_percentile(const double *sorted, size_t n, double q)
{
	return stats_percentile_defined(n, q) ? stats_percentile(sorted, n, q) : NAN;
}

int stats_summarize(const double *samples, size_t n, struct stats_summary *out)
{
	double *sorted = NULL;
	int rc = -1;

	if (!out)
		return -1;
	*out = (struct stats_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0};
	if (!samples || n == 0)
		goto out;
	sorted = sorted_copy(samples, n);
	if (!sorted)
		goto out;
	out->n = n;
	out->min_us = sorted[0];
	out->max_us = sorted[n - 1];
	out->mean_us = stats_mean(samples, n);
	out->stddev_us = stats_stddev(samples, n);
	out->p50_us = defined_percentile(sorted, n, 0.50);
	out->p90_us = defined_percentile(sorted, n, 0.90);
	out->p99_us = defined_percentile(sorted, n, 0.99);
	out->p999_us = defined_percentile(sorted, n, 0.999);
	rc = 0;
out:
	free(sorted);
	return rc;
}

struct ranked {
	double v;
	bool from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	return cmp_double(&((const struct ranked *)pa)->v, &((const struct ranked *)pb)->v);
}

/*
 * Ranks the sorted pool (1-based, ties get the mean of their ranks) and
 * returns the rank sum of sample a; *tie_term gets sum(t^3 - t) over groups
 * of t tied values.
 */
static double rank_sum_a(const struct ranked *pool, size_t n, double *tie_term)
{
	double sum_a = 0.0;
	size_t i = 0, j;

	*tie_term = 0.0;
	while (i < n) {
		for (j = i + 1; j < n && pool[j].v == pool[i].v; j++)
			;
		/* pool[i..j-1] share the ranks i+1..j, whose mean is (i + 1 + j) / 2. */
		double rank = ((double)i + 1.0 + (double)j) / 2.0;
		double t = (double)(j - i);
		for (size_t k = i; k < j; k++)
			if (pool[k].from_a)
				sum_a += rank;
		*tie_term += t * t * t - t;
		i = j;
	}
	return sum_a;
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
		       double *p_two_sided)
{
	struct ranked *pool = NULL;
	double n1 = (double)na, n2 = (double)nb, n = n1 + n2;
	double tie_term, u1, u_max, mu, var, z;
	int rc = -1;

	if (!a || !b || !u || !p_two_sided || na < 2 || nb < 2)
		goto out;
	pool = malloc((na + nb) * sizeof *pool);
	if (!pool)
		goto out;
	for (size_t i = 0; i < na; i++)
		pool[i] = (struct ranked){a[i], true};
	for (size_t i = 0; i < nb; i++)
		pool[na + i] = (struct ranked){b[i], false};
	qsort(pool, na + nb, sizeof *pool, cmp_ranked);
	u1 = rank_sum_a(pool, na + nb, &tie_term) - n1 * (n1 + 1.0) / 2.0;
	mu = n1 * n2 / 2.0;
	var = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
	*u = u1;
	if (!(var > 0.0)) { /* every value tied: no evidence of a difference */
		*p_two_sided = 1.0;
		rc = 0;
		goto out;
	}
	/* scipy: the larger U, minus the continuity correction, against the normal. */
	u_max = fmax(u1, n1 * n2 - u1);
	z = (u_max - mu - 0.5) / sqrt(var);
	*p_two_sided = fmin(1.0, erfc(z / sqrt(2.0)));
	rc = 0;
out:
	free(pool);
	return rc;
}

double stats_binomial_tail(int n, int k, double q)
{
	double sum = 0;
	for (int i = k > 0 ? k : 0; i <= n; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) + i * log(q) +
		           (n - i) * log1p(-q));
	return fmin(sum, 1.0);
}
