/* See scheduler.h. No MPI, no I/O. */
#include "reports/diagnose/scheduler.h"

#include <math.h>

static bool one_pair(const struct detect_suspect *s)
{
	return s->kind == DETECT_LINK && !s->between_hosts && s->a >= 0 && s->b >= 0;
}

double scheduler_discounted(const struct detect_suspect *s, double w, double w0)
{
	if (isnan(w0))
		w0 = 0;
	if (!(w >= 0 && w < 1) || !(w0 >= 0 && w0 < 1) || !isfinite(s->measured) ||
	    s->metric != DETECT_LATENCY)
		return NAN;
	/* the time its ranks ran, as a typical pair's ran */
	return w <= w0 ? s->measured : s->measured * (1 - w) / (1 - w0);
}

bool scheduler_explains(const struct detect_suspect *s, double w, double w0, double tolerance)
{
	double x = scheduler_discounted(s, w, w0);
	if (!one_pair(s) || isnan(x) || !(s->expected > 0))
		return false;
	return x <= s->expected * (1 + tolerance);
}

int scheduler_clear(struct detect_result *r, double (*wait_of)(const void *arg, int a, int b),
                    const void *arg, double w0, double tolerance)
{
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!one_pair(s) || s->metric != DETECT_LATENCY)
			continue;
		s->cpu_wait_fraction = wait_of(arg, s->a, s->b);
		if (s->confirmed && scheduler_explains(s, s->cpu_wait_fraction, w0, tolerance)) {
			s->confirmed = false;
			s->scheduler_cleared = true;
			cleared++;
		}
	}
	return cleared;
}
