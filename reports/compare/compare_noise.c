/*
 * compare: how noisy each point was (compare_points.h, issue 29). Its own
 * spread, from its samples; the yardstick's figure, from the control bursts
 * its run measured just before and after it; and from both, whether the
 * threshold can be tested there at all, and the bar a change must pass.
 */
#include "reports/compare/compare_points.h"

#include "reports/io/report_read.h"
#include "reports/io/report_schema.h"
#include "reports/stats/compare_stats.h"
#include "reports/stats/stats.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * The run's quiet level: the 10th percentile of its bursts, how fast the
 * control ran at the quietest tenth of the run's moments (one or two
 * unusually fast bursts do not set it, as the minimum would let them).
 */
static double quiet_level(const double *x, size_t n)
{
	double *s = malloc(n * sizeof *s), q;

	if (!s)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s[i] = x[i];
	/* insertion sort: a run has one burst per point */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
			double t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	q = stats_percentile(s, n, 0.10);
	free(s);
	return q;
}

/*
 * How far the bursts around the point (the one before it and the one after,
 * when there is one) stood above the quiet level, in percent; 0 when neither
 * did. A burst above it says the machine was slower at that moment than at
 * its quiet ones.
 */
static double around(const struct cmp_run *run, int64_t burst, double quiet)
{
	size_t k = (size_t)burst;
	double top = run->yardstick_us[k];

	if (k + 1 < run->nyardstick)
		top = fmax(top, run->yardstick_us[k + 1]);
	return fmax(0.0, (top / quiet - 1) * 100.0);
}

/* summary.yardstick.samples_us, when the report has one. */
static int load_bursts(struct cmp_run *run, char *err, size_t errlen)
{
	struct report_at at = {run->path, "", err, errlen};
	const cJSON *summary = NULL, *y = NULL;

	if (report_get_object(&at, run->root, SK_REPORT_SUMMARY, false, &summary) != 0)
		return -1;
	at.where = "summary";
	if (summary && report_get_object(&at, summary, SK_ARSUM_YARDSTICK, false, &y) != 0)
		return -1;
	at.where = "summary.yardstick";
	if (!y)
		return 0;
	/* a burst median of 0 us cannot be: the quiet level divides */
	return report_get_numbers(&at, y, SK_YARD_SAMPLES_US, true, DBL_MIN, DBL_MAX,
	                          &run->yardstick_us, &run->nyardstick);
}

int cmp_noise_load(struct cmp_run *run, char *err, size_t errlen)
{
	double quiet = NAN;

	run->yardstick_spread_pct = NAN;
	if (run->kind != CMP_KIND_POINTS)
		return 0;
	if (load_bursts(run, err, errlen) != 0)
		return -1;
	if (run->nyardstick) {
		quiet = quiet_level(run->yardstick_us, run->nyardstick);
		run->yardstick_spread_pct =
		    stats_iqr_spread_pct(run->yardstick_us, run->nyardstick);
		if (isnan(quiet)) {
			snprintf(err, errlen, "report '%s': out of memory", run->path);
			return -1;
		}
	}
	for (size_t i = 0; i < run->npoints; i++) {
		struct cmp_point *p = &run->points[i];
		p->spread_pct = p->skipped ? NAN : stats_iqr_spread_pct(p->samples_us, p->nsamples);
		p->yardstick_pct = NAN;
		if (p->skipped || p->yardstick_burst < 0 || !run->nyardstick)
			continue;
		if ((size_t)p->yardstick_burst >= run->nyardstick) {
			snprintf(err, errlen,
			         "report '%s': results[%zu].yardstick_burst %lld names no burst "
			         "(summary.yardstick.samples_us has %zu)",
			         run->path, p->index, (long long)p->yardstick_burst,
			         run->nyardstick);
			return -1;
		}
		p->yardstick_pct = around(run, p->yardstick_burst, quiet);
	}
	return 0;
}

/* The larger of two figures, either of which may be undefined (NAN). */
static double wider(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : fmax(a, b);
}

bool cmp_noise_measure(struct cmp_row *r, double threshold_pct)
{
	double noise;

	r->spread_pct = wider(r->base->spread_pct, r->cur->spread_pct);
	r->yardstick_pct = wider(r->base->yardstick_pct, r->cur->yardstick_pct);
	noise = wider(r->spread_pct, r->yardstick_pct);
	/*
	 * Past the threshold a change is judged only when it clears the threshold
	 * and both noises added: a point measured inside a disturbance moves by the
	 * disturbance's own size (thousands of percent under a loaded scheduler,
	 * and the yardstick around it moves as much), so within that bar it is
	 * untestable; a change far past its noise (a path made twice as slow,
	 * measured with a spread of 35%) is still a change. Past
	 * CMP_NOISE_UNJUDGED_PCT nothing is judged: a yardstick or a point that moved
	 * by twice its own time or more was descheduled, and a descheduled call takes
	 * the scheduler's slice (milliseconds) whatever it is, so its change in
	 * percent has no bound (a 0.6 us point measured 8 ms beside a yardstick
	 * that moved 3,000x). Below the threshold,
	 * the own spread is the test's business (it sees the samples); the
	 * yardstick's is not, so it widens the bar.
	 */
	if (noise > CMP_NOISE_UNJUDGED_PCT) {
		r->bar_pct = NAN; /* the machine, not the code: nothing is judged here */
		return true;
	}
	if (noise > threshold_pct) {
		r->bar_pct = threshold_pct + (isnan(r->spread_pct) ? 0 : r->spread_pct) +
		             (isnan(r->yardstick_pct) ? 0 : r->yardstick_pct);
		return true;
	}
	r->bar_pct = threshold_pct + (isnan(r->yardstick_pct) ? 0 : r->yardstick_pct);
	return false;
}

/* The too-noisy part of the note (compare_points.h). */
void cmp_row_note(const struct cmp_row *r, char *buf, size_t len)
{
	char need[96];
	int n = snprintf(buf, len, "%s", r->note ? r->note : "");

	if (!r->too_noisy || n < 0 || (size_t)n >= len)
		return;
	if (r->samples_needed)
		snprintf(need, sizeof need, "needs ~%zu samples a side to test %g%%",
		         r->samples_needed, r->threshold_pct);
	else
		snprintf(need, sizeof need, "no sample count would test %g%%", r->threshold_pct);
	if (isinf(r->mde_pct))
		snprintf(buf + n, len - (size_t)n,
		         "%stoo noisy for %g%%: too few samples to detect any change; %s",
		         n ? "; " : "", r->threshold_pct, need);
	else
		snprintf(buf + n, len - (size_t)n, "%stoo noisy for %g%%: detects %.0f%%, %s",
		         n ? "; " : "", r->threshold_pct, r->mde_pct, need);
}
