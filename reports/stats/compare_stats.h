/*
 * The statistics compare builds its CI verdicts on, beyond the rank test of
 * stats.h: adjusting a family of p values for multiple comparisons
 * (Benjamini-Hochberg false discovery rate, Holm family-wise error), the
 * standard normal distribution, and the sensitivity of the Mann-Whitney U
 * test (the minimum detectable effect, and the samples a side that a given
 * effect needs). Pure: libm only, no I/O. Nothing returned is owned.
 *
 * (Named compare_* so that every target built from compare's sources, the
 * fuzzer's included, links it.)
 */
#ifndef COLLSCOPE_COMPARE_STATS_H
#define COLLSCOPE_COMPARE_STATS_H

#include <stddef.h>

/*
 * Benjamini-Hochberg adjusted p values (R's p.adjust(p, "BH")): with the m
 * finite p values sorted ascending, q(i) = min over j >= i of m p(j) / j,
 * capped at 1, written back in the input order. Rejecting every q < alpha
 * controls the expected share of false discoveries at alpha (independent or
 * positively dependent tests). A NAN p is not part of the family: its q is
 * NAN and m counts the others. p values outside [0, 1] are an error.
 * q may be p (in place). Returns 0 (also for n = 0, an empty family), or -1
 * for NULL arrays with n > 0, a bad p, or no memory.
 */
int stats_adjust_bh(const double *p, size_t n, double *q);

/*
 * Holm's step-down adjusted p values (R's p.adjust(p, "holm")): sorted
 * ascending, q(i) = max over j <= i of (m - j + 1) p(j), capped at 1.
 * Rejecting q < alpha controls the chance of any false rejection at alpha,
 * for any dependence. NAN and errors as stats_adjust_bh.
 */
int stats_adjust_holm(const double *p, size_t n, double *q);

/* The standard normal distribution function. */
double stats_norm_cdf(double z);
/*
 * P(|T| >= |t|) for T ~ Student's t with df degrees of freedom (df >= 1): the exact finite
 * series of Abramowitz & Stegun 26.7.3-4 in theta = atan(|t| / sqrt(df)). NAN for df < 1 or
 * t NAN; 0 for an infinite t.
 */
double stats_t_two_sided(double t, int df);
/* Its inverse, for 0 < prob < 1 (NAN otherwise); accurate to about 1e-12. */
double stats_norm_quantile(double prob);

/*
 * The spread of log(x): 1.4826 x the median absolute deviation of the
 * logarithms (sigma for log-normal times, robust to outliers), or their
 * sample standard deviation when more than half the logarithms are equal
 * (a timer's resolution). NAN for n < 2, a value <= 0, or no memory.
 */
double stats_log_spread(const double *x, size_t n);

/*
 * The relative spread of a set of times (a point's samples, or a yardstick's
 * burst medians), in percent: 100 x (p75 / p25 - 1), how much wider than its
 * lower edge the band is that holds the middle half of the values. A p50
 * moves with the share of disturbed values only once more than a quarter of
 * them are disturbed, and then this band widens past them. NAN below 4
 * values (p25 and p75 are defined from 4 on), for a value <= 0 or not
 * finite, or without memory.
 */
double stats_iqr_spread_pct(const double *x, size_t n);

/*
 * The minimum detectable effect of the two-sided Mann-Whitney U test of
 * n1 against n2 samples at level alpha with the given power, for times
 * whose logarithms are normal with spread sigma, against a shift of the
 * logarithms (a change by a factor): the smallest log factor d that the
 * test rejects with that power. Derived from the test's normal
 * approximation: under a shift d, U / (n1 n2) has mean
 * theta = Phi(d / (sigma sqrt 2)) and, near theta = 1/2, the null variance
 * (n1 + n2 + 1) / (12 n1 n2), so the test rejects with the given power when
 * theta - 1/2 = (z(1 - alpha/2) + z(power)) sqrt((n1 + n2 + 1) / (12 n1 n2)).
 * Returns d >= 0 (0 when sigma is 0), INFINITY when no shift reaches that
 * power with so few samples, NAN for bad arguments (n < 2 a side, alpha or
 * power outside (0, 1), sigma negative or NAN).
 */
double stats_mw_mde_log(double sigma, size_t n1, size_t n2, double alpha, double power);

/*
 * The samples a side (n1 = n2 = n) that the same test needs to detect a log
 * shift d with that power: the smallest n whose stats_mw_mde_log is at most
 * d (at least 2). 0 for bad arguments or d <= 0 with sigma > 0; 2 when
 * sigma is 0.
 */
size_t stats_mw_samples_needed(double sigma, double d, double alpha, double power);

#endif
