/*
 * The confidence interval of a median, distribution-free: the order
 * statistics x_(j) and x_(n+1-j) bracket the population's median with
 * probability 1 - 2 P(B <= j - 1), B ~ Binomial(n, 1/2), whatever the
 * distribution (timings are skewed and heavy-tailed: no normal theory).
 * j is the largest rank whose coverage is at least the level asked for.
 * Pure: libc and libm.
 */
#ifndef COLLSCOPE_MEDIAN_CI_H
#define COLLSCOPE_MEDIAN_CI_H

#include <stddef.h>

/*
 * The interval of the median of sorted[0..n) (ascending) at level conf
 * (0 < conf < 1): *lo and *hi. Returns 0, or -1 when n is too small for any
 * interval to reach conf (n < 6 at 95%) or conf is out of range.
 */
int stats_median_ci(const double *sorted, size_t n, double conf, double *lo, double *hi);

/* The rank j (1-based) stats_median_ci takes at n and conf; 0 when there is none. */
size_t stats_median_ci_rank(size_t n, double conf);

#endif
