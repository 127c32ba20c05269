/* See sample_stop.h. */
#include "algorithms/sample_stop.h"

#include "reports/stats/median_ci.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const sample_stop_names[SAMPLE_STOP_COUNT + 1] = {
    [SAMPLE_STOP_FIXED] = "fixed",
    [SAMPLE_STOP_CONVERGED] = "converged",
    [SAMPLE_STOP_SAMPLES] = "samples",
    [SAMPLE_STOP_TIME] = "time",
    NULL,
};

const char *sample_stop_name(enum sample_stop s)
{
	return (unsigned)s < SAMPLE_STOP_COUNT ? sample_stop_names[s] : "unknown";
}

int sample_stop_floor(int ceiling, int min_iters)
{
	return ceiling >= SAMPLE_STOP_TAIL_FLOOR ? SAMPLE_STOP_TAIL_FLOOR : min_iters;
}

int sample_stop_next_check(int done, int floor, int ceiling)
{
	int next = done < floor ? floor : 2 * done;
	return next > ceiling ? ceiling : next;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

bool sample_stop_converged(const double *samples, size_t n, double ci_width, double *scratch,
                           double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (n == 0)
		return false;
	memcpy(scratch, samples, n * sizeof *scratch);
	qsort(scratch, n, sizeof *scratch, cmp_double);
	if (stats_median_ci(scratch, n, SAMPLE_STOP_CONF, lo, hi) != 0)
		return false;
	double p50 = stats_percentile(scratch, n, 0.5);
	return p50 > 0 && *hi - p50 <= ci_width * p50 && p50 - *lo <= ci_width * p50;
}
