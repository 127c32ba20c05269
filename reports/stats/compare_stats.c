/* Multiple-comparison adjustments and the Mann-Whitney test's sensitivity (compare_stats.h). */
#include "reports/stats/compare_stats.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>

#define MAD_TO_SIGMA  1.482602218505602 /* 1 / Phi^-1(3/4) */
#define SAMPLES_LIMIT 1e12              /* "needs ~N samples": beyond this, no answer */

struct ranked {
	double p;
	size_t at; /* index in the input */
};

static int by_p(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

/* The finite p values of p, sorted ascending, into *out (owned); m of them. -1 on a bad p. */
static int rank_family(const double *p, size_t n, struct ranked **out, size_t *m)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof *r);

	*m = 0;
	*out = r;
	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (isnan(p[i]))
			continue;
		if (!(p[i] >= 0 && p[i] <= 1))
			return -1;
		r[(*m)++] = (struct ranked){p[i], i};
	}
	qsort(r, *m, sizeof *r, by_p);
	return 0;
}

/* holm: step-down (running max from the smallest); else BH, step-up (running min from the largest).
 */
static int adjust(const double *p, size_t n, double *q, int holm)
{
	struct ranked *r = NULL;
	size_t m = 0;
	double run;
	int rc = -1;

	if (n > 0 && (!p || !q))
		return -1;
	if (rank_family(p, n, &r, &m) != 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	if (holm) {
		run = 0;
		for (size_t i = 0; i < m; i++) {
			double v = fmin(1.0, (double)(m - i) * r[i].p);
			run = fmax(run, v);
			q[r[i].at] = run;
		}
	} else {
		run = 1;
		for (size_t i = m; i-- > 0;) {
			double v = fmin(1.0, (double)m * r[i].p / (double)(i + 1));
			run = fmin(run, v);
			q[r[i].at] = run;
		}
	}
	rc = 0;
out:
	free(r);
	return rc;
}

int stats_adjust_bh(const double *p, size_t n, double *q)
{
	return adjust(p, n, q, 0);
}

int stats_adjust_holm(const double *p, size_t n, double *q)
{
	return adjust(p, n, q, 1);
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double stats_t_two_sided(double t, int df)
{
	if (df < 1 || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	double th = atan(fabs(t) / sqrt((double)df)), c = cos(th), s = sin(th), c2 = c * c;
	double sum, term, inside; /* inside: P(|T| < |t|) */
	if (df % 2) { /* odd: (2 / pi) (theta + sin cos (1 + 2/3 cos^2 + 2.4/3.5 cos^4 ...)) */
		sum = 0;
		term = c;
		for (int k = 1; k <= (df - 3) / 2 + 1 && df > 1; k++) {
			sum += term;
			term *= c2 * (2.0 * k) / (2.0 * k + 1);
		}
		inside = 2 / M_PI * (th + s * sum);
	} else { /* even: sin (1 + 1/2 cos^2 + 1.3/2.4 cos^4 ...) */
		sum = 0;
		term = 1;
		for (int k = 1; k <= df / 2; k++) {
			sum += term;
			term *= c2 * (2.0 * k - 1) / (2.0 * k);
		}
		inside = s * sum;
	}
	double p = 1 - inside;
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

/*
 * Acklam's rational approximation (relative error 1.2e-9), then one step of
 * Halley's method on erfc, which brings it to about machine precision.
 */
double stats_norm_quantile(double prob)
{
	static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
	                           -2.759285104469687e+02, 1.383577518672690e+02,
	                           -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
	                           -1.556989798598866e+02, 6.680131188771972e+01,
	                           -1.328068155288572e+01};
	static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
	                           -2.400758277161838e+00, -2.549732539343734e+00,
	                           4.374664141464968e+00,  2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
	                           2.445134137142996e+00, 3.754408661907416e+00};
	const double lo = 0.02425;
	double x, t, e, u;

	if (!(prob > 0 && prob < 1))
		return NAN;
	if (prob < lo || prob > 1 - lo) {
		t = sqrt(-2 * log(prob < lo ? prob : 1 - prob));
		x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
		    ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1);
		if (prob > 1 - lo)
			x = -x;
	} else {
		t = prob - 0.5;
		double r = t * t;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * t /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	e = stats_norm_cdf(x) - prob;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

double stats_log_spread(const double *x, size_t n)
{
	double *l, s;

	if (!x || n < 2)
		return NAN;
	l = malloc(n * sizeof *l);
	if (!l)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0)) {
			free(l);
			return NAN;
		}
		l[i] = log(x[i]);
	}
	s = MAD_TO_SIGMA * stats_mad(l, n);
	if (s == 0)
		s = stats_stddev(l, n);
	free(l);
	return s;
}

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

double stats_iqr_spread_pct(const double *x, size_t n)
{
	double *s, v = NAN;

	if (!x || n < 4 || !(s = malloc(n * sizeof *s)))
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0 && isfinite(x[i])))
			goto out;
		s[i] = x[i];
	}
	qsort(s, n, sizeof *s, by_value);
	v = (stats_percentile(s, n, 0.75) / stats_percentile(s, n, 0.25) - 1) * 100.0;
out:
	free(s);
	return v;
}

static int bad_level(double alpha, double power)
{
	return !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1);
}

/* z(1 - alpha/2) + z(power): how many null standard deviations U must move. */
static double z_sum(double alpha, double power)
{
	return stats_norm_quantile(1 - alpha / 2) + stats_norm_quantile(power);
}

double stats_mw_mde_log(double sigma, size_t n1, size_t n2, double alpha, double power)
{
	double theta;

	if (n1 < 2 || n2 < 2 || bad_level(alpha, power) || !(sigma >= 0))
		return NAN;
	if (sigma == 0)
		return 0;
	theta = 0.5 + z_sum(alpha, power) *
	                  sqrt(((double)n1 + (double)n2 + 1) / (12.0 * (double)n1 * (double)n2));
	if (theta >= 1)
		return INFINITY;
	return sigma * sqrt(2.0) * stats_norm_quantile(theta);
}

size_t stats_mw_samples_needed(double sigma, double d, double alpha, double power)
{
	double c, n;
	size_t k;

	if (bad_level(alpha, power) || !(sigma >= 0) || isnan(d))
		return 0;
	if (sigma == 0)
		return 2;
	if (!(d > 0))
		return 0;
	/* (2n + 1) / (12 n^2) <= c^2, with c = (theta - 1/2) / z_sum */
	c = (stats_norm_cdf(d / (sigma * sqrt(2.0))) - 0.5) / z_sum(alpha, power);
	if (!(c > 0))
		return 0;
	n = (2 + sqrt(4 + 48 * c * c)) / (24 * c * c);
	if (!(n < SAMPLES_LIMIT))
		return 0;
	k = n < 2 ? 2 : (size_t)ceil(n);
	/* the closed form can land one off through rounding: settle on the smallest n that works */
	while (k > 2 && stats_mw_mde_log(sigma, k - 1, k - 1, alpha, power) <= d)
		k--;
	while (stats_mw_mde_log(sigma, k, k, alpha, power) > d)
		k++;
	return k;
}
