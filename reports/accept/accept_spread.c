/*
 * A threshold's bound from the run-to-run spread (see accept_spread.h).
 */
#include "reports/accept/accept_spread.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>

int accept_spread_bound(const double *x, size_t n, bool min, double k, struct accept_spread *out)
{
	double far, *logs;

	*out = (struct accept_spread){
	    .runs = n, .median = NAN, .spread = NAN, .extreme = NAN, .bound = NAN};
	if (n == 0 || !x || !(k >= 0) || !(stats_min(x, n) > 0))
		return -1;
	out->median = stats_median(x, n);
	out->extreme = min ? stats_min(x, n) : stats_max(x, n);
	if (isnan(out->median) || isnan(out->extreme))
		return -1;
	out->fragile = n == 1;
	if (out->fragile) {
		out->bound = out->extreme;
		return 0;
	}
	if (!(logs = malloc(n * sizeof *logs)))
		return -1;
	for (size_t i = 0; i < n; i++)
		logs[i] = log(x[i]);
	out->spread = ACCEPT_MAD_TO_SIGMA * stats_mad(logs, n);
	free(logs);
	if (isnan(out->spread))
		return -1;
	far = out->median * exp(min ? -k * out->spread : k * out->spread);
	out->bound = min ? fmin(far, out->extreme) : fmax(far, out->extreme);
	return 0;
}
