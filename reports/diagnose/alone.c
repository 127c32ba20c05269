/* See alone.h. */
#include "reports/diagnose/alone.h"

#include <math.h>

/* Is the cell from host i to host j of pairs measured, and within (1 - tolerance) x expected? */
static bool fine(const double *pairs, int nhosts, int i, int j, double floor_gbps)
{
	if (i < 0 || j < 0 || i >= nhosts || j >= nhosts || i == j)
		return false;
	double x = pairs[i * nhosts + j];
	return isfinite(x) && x >= floor_gbps;
}

int alone_clear(struct detect_result *r, const double *pairs, int nhosts, double expected,
                const struct detect_params *p)
{
	int cleared = 0;
	if (!pairs || !(expected > 0))
		return 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!s->confirmed || !s->loaded || s->kind != DETECT_LINK || !s->between_hosts ||
		    s->metric != DETECT_BANDWIDTH || s->locality != DETECT_CROSS_HOST)
			continue;
		double floor_gbps = (1 - detect_tolerance(p, s->metric, s->locality)) * expected;
		bool ab = s->direction != DETECT_DIR_BA, ba = s->direction != DETECT_DIR_AB;
		if ((!ab || fine(pairs, nhosts, s->host_a, s->host_b, floor_gbps)) &&
		    (!ba || fine(pairs, nhosts, s->host_b, s->host_a, floor_gbps))) {
			s->confirmed = false;
			s->alone_cleared = true;
			cleared++;
		}
	}
	return cleared;
}
