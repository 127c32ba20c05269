/* See traffic.h. */
#include "reports/diagnose/traffic.h"

#include <math.h>

static bool judged_here(const struct detect_suspect *s)
{
	return s->metric == DETECT_BANDWIDTH && s->locality == DETECT_CROSS_HOST;
}

bool traffic_explains(const struct detect_suspect *s, double other_gbps, double tolerance)
{
	if (!judged_here(s) || !(other_gbps > 0) || !isfinite(s->measured) ||
	    !(s->expected > 0))
		return false;
	return s->measured + other_gbps >= (1 - tolerance) * s->expected;
}

int traffic_clear(struct detect_result *r, traffic_other_fn other_of, const void *arg,
                  const struct detect_params *p)
{
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!s->confirmed || !judged_here(s))
			continue;
		s->other_traffic_gbps = other_of(arg, s);
		if (traffic_explains(s, s->other_traffic_gbps,
		                     detect_tolerance(p, s->metric, s->locality))) {
			s->confirmed = false;
			s->traffic_cleared = true;
			cleared++;
		}
	}
	return cleared;
}
