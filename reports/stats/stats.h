/*
 * Descriptive statistics over samples, and a two-sample rank test. Pure: no
 * MPI, no I/O. Inputs are finite doubles (a NaN in the input gives
 * unspecified results). An empty sample (n = 0) or a NULL array is an error
 * for every function: those returning double return NAN, those returning int
 * return -1. Nothing returned is owned by the caller except what it passed in.
 */
#ifndef COLLSCOPE_STATS_H
#define COLLSCOPE_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The Iglewicz-Hoaglin constant: MAD / 0.6745 estimates sigma of a normal. */
#define STATS_MAD_TO_Z 0.6745

double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);
double stats_mean(const double *x, size_t n);

/* Sample standard deviation (divides by n - 1); NAN when n < 2. */
double stats_stddev(const double *x, size_t n);

/*
 * The q-quantile (0 <= q <= 1) of x_sorted, which must be sorted ascending:
 * linear interpolation between closest ranks (Hyndman-Fan type 7, numpy's
 * default), computed as numpy does so results agree to the last bit.
 * NAN for n = 0 or q outside [0, 1]. Does not apply the n >= 1/(1-q) rule:
 * see stats_percentile_defined.
 */
double stats_percentile(const double *x_sorted, size_t n, double q);

/*
 * reports/README.md: a q-quantile is reported only when n >= 1 / (1 - q).
 * 1/(1-q) is rounded to the nearest integer when it is within 1e-9 of it, so
 * floating error does not move the threshold: 0.5 needs 2, 0.9 needs 10,
 * 0.99 needs 100, 0.999 needs 1000. False for n = 0, q = 1 and q outside
 * [0, 1].
 */
bool stats_percentile_defined(size_t n, double q);

/* P(X >= k) for X ~ Binomial(n, q), 0 < q < 1 (1 for k <= 0, 0 for k > n). */
double stats_binomial_tail(int n, int k, double q);

/* Median of x (unsorted; sorted in a private copy). NAN for n = 0 or no memory. */
double stats_median(const double *x, size_t n);
/* Median of x[0..n), sorting x in place (no copy: for scratch arrays). NAN for n = 0. */
double stats_median_inplace(double *x, size_t n);

/*
 * Median absolute deviation, raw (not scaled by 1.4826): the median of
 * |x[i] - median(x)|. Unsorted input; NAN for n = 0 or no memory.
 */
double stats_mad(const double *x, size_t n);

/*
 * Modified z-score of one value (Iglewicz and Hoaglin):
 * 0.6745 (v - median) / mad. When mad = 0 (more than half of the sample is
 * one value) the robust spread is zero, so: 0 when v equals the median,
 * otherwise +INFINITY or -INFINITY by the sign of v - median (v is "more
 * deviations away" than any threshold). A caller that must not flag values
 * differing by less than the timer resolution compares v - median itself.
 * NAN when mad is negative or NAN.
 */
double stats_modified_z(double v, double median, double mad);

/* Time statistics of one measured point, in microseconds. */
struct stats_summary {
	double min_us;
	double mean_us;
	double stddev_us;
	double p50_us;
	double p90_us;
	double p99_us;
	double p999_us;
	double max_us;
	size_t n;
};

/*
 * Fills *out from samples in microseconds (any order; the caller's array is
 * not reordered: a private copy is sorted). A percentile that
 * stats_percentile_defined rejects is NAN, as is stddev when n = 1.
 * Returns 0, or -1 for n = 0, NULL arguments or no memory (then every field
 * of *out is NAN and n is 0).
 */
int stats_summarize(const double *samples, size_t n, struct stats_summary *out);

/*
 * Two-sided Mann-Whitney U test (Wilcoxon rank-sum) of a against b, with the
 * normal approximation, tie correction of the variance and a continuity
 * correction of 0.5, as scipy.stats.mannwhitneyu(a, b,
 * method="asymptotic"). *u is U of sample a: the number of pairs (a[i], b[j])
 * with a[i] > b[j], ties counting one half (so U of b is na * nb - *u).
 * *p_two_sided is in [0, 1]; 1 when every value is tied.
 * The normal approximation is meaningful from about 9 values per side (it is
 * poor below that); returns -1 below 2 per side, for NULL arguments and when
 * out of memory, else 0.
 */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
		       double *p_two_sided);

#endif
