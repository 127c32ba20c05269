/* See scheduler.h. No MPI, no I/O. */
#include "reports/diagnose/scheduler.h"

#include <math.h>

static bool one_pair(const struct detect_suspect *s)
{
	return s->kind == DETECT_LINK && !s->between_hosts && s->a >= 0 && s->b >= 0;
}

/* A figure the ranks' wait for a core slows one for one: a latency, a bandwidth inside a host. */
static bool waits_count(const struct detect_suspect *s)
{
	return s->metric == DETECT_LATENCY || s->locality != DETECT_CROSS_HOST;
}

double scheduler_discounted(const struct detect_suspect *s, double w, double w0)
{
	if (isnan(w0))
		w0 = 0;
	if (!(w >= 0 && w < 1) || !(w0 >= 0 && w0 < 1) || !isfinite(s->measured) || !waits_count(s))
		return NAN;
	if (w <= w0)
		return s->measured;
	/* the time its ranks ran, as a typical pair's ran: a time shrinks, a bandwidth grows */
	double f = (1 - w) / (1 - w0);
	return s->metric == DETECT_LATENCY ? s->measured * f : s->measured / f;
}

bool scheduler_explains(const struct detect_suspect *s, double w, double w0, double tolerance)
{
	double x = scheduler_discounted(s, w, w0);
	if (!one_pair(s) || isnan(x) || !(s->expected > 0))
		return false;
	return s->metric == DETECT_LATENCY ? x <= s->expected * (1 + tolerance)
	                                   : x >= s->expected * (1 - tolerance);
}

int scheduler_clear(struct detect_result *r, scheduler_wait_fn wait_of, const void *arg,
                    const double w0[DETECT_METRICS], const struct detect_params *p)
{
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!one_pair(s) || !waits_count(s))
			continue;
		s->cpu_wait_fraction = wait_of(arg, s->a, s->b, s->metric);
		if (s->confirmed &&
		    scheduler_explains(s, s->cpu_wait_fraction, w0[s->metric],
		                       detect_tolerance(p, s->metric, s->locality))) {
			s->confirmed = false;
			s->scheduler_cleared = true;
			cleared++;
		}
	}
	return cleared;
}
