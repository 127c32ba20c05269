/* See median_ci.h. */
#include "reports/stats/median_ci.h"

#include <math.h>

size_t stats_median_ci_rank(size_t n, double conf)
{
	if (!(conf > 0 && conf < 1) || n == 0)
		return 0;
	double tail = (1 - conf) / 2, cdf = 0, log_half_n = (double)n * log(0.5);
	size_t j = 0;
	/* cdf = P(B <= k); rank k + 1 keeps coverage while cdf stays within the tail */
	for (size_t k = 0; k < n / 2; k++) {
		cdf += exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
		           lgamma((double)(n - k) + 1) + log_half_n);
		if (cdf > tail)
			break;
		j = k + 1;
	}
	return j;
}

int stats_median_ci(const double *sorted, size_t n, double conf, double *lo, double *hi)
{
	size_t j = stats_median_ci_rank(n, conf);
	if (j == 0)
		return -1;
	*lo = sorted[j - 1];
	*hi = sorted[n - j];
	return 0;
}
