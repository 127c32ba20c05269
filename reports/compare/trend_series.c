/* collscope trend: ordering the reports, the series of every point and their steps (trend.h). */
#include "reports/compare/trend_series.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[TREND_VERDICTS] = {
    [TREND_REGRESSION] = "regression", [TREND_UNTESTABLE] = "untestable",
    [TREND_IMPROVED] = "improved",     [TREND_SHIFTED] = "shifted",
    [TREND_STEADY] = "steady",         [TREND_TOO_FEW] = "too-few",
};

void trend_options_init(struct trend_options *o)
{
	o->metric = CMP_P50;
	o->threshold_pct = TREND_DEFAULT_THRESHOLD_PCT;
	cp_options_init(&o->cp);
}

const char *trend_verdict_name(enum trend_verdict v)
{
	return v >= 0 && v < TREND_VERDICTS ? verdict_names[v] : "?";
}

int trend_parse_utc(const char *s, double *out_s)
{
	int y, mo, d, h, mi, sec, used = 0;
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &used) != 6 ||
	    used != 19 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 ||
	    y < 1970)
		return -1;
	const char *p = s + used;
	double frac = 0;
	if (*p == '.') {
		double scale = 0.1;
		if (!(p[1] >= '0' && p[1] <= '9'))
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	if (strcmp(p, "Z") != 0)
		return -1;
	/* days from the civil date (the proleptic Gregorian calendar), without timegm */
	int yy = y - (mo <= 2);
	int era = yy / 400, yoe = yy - era * 400;
	int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	double days = (double)era * 146097 + doe - 719468;
	*out_s = days * 86400 + h * 3600 + mi * 60 + sec + frac;
	return 0;
}

int trend_sort_runs(struct cmp_run *runs, size_t n, char *err, size_t errlen)
{
	double *at = calloc(n ? n : 1, sizeof *at);
	if (!at) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!runs[i].started_utc || trend_parse_utc(runs[i].started_utc, &at[i]) != 0) {
			if (!runs[i].started_utc)
				snprintf(err, errlen,
				         "report '%s': context.started_utc is missing (trend orders the "
				         "reports by it)",
				         runs[i].path);
			else
				snprintf(err, errlen,
				         "report '%s': context.started_utc '%s' is not a UTC time "
				         "(YYYY-MM-DDTHH:MM:SS[.fff]Z; trend orders the reports by it)",
				         runs[i].path, runs[i].started_utc);
			free(at);
			return -1;
		}
	}
	/* insertion sort by the time: stable, and a trend is tens of reports */
	for (size_t i = 1; i < n; i++) {
		struct cmp_run r = runs[i];
		double t = at[i];
		size_t j = i;
		for (; j > 0 && at[j - 1] > t; j--) {
			runs[j] = runs[j - 1];
			at[j] = at[j - 1];
		}
		runs[j] = r;
		at[j] = t;
	}
	free(at);
	return 0;
}

int trend_check_setup(const struct cmp_run *runs, size_t n, char *err, size_t errlen)
{
	char why[512];

	for (size_t i = 1; i < n; i++) {
		if (strcmp(runs[i].command, runs[0].command) != 0) {
			snprintf(
			    err, errlen,
			    "the reports are of different commands: '%s' (%s) and '%s' (%s); "
			    "trend follows one command and setup",
			    runs[0].path, runs[0].command, runs[i].path, runs[i].command);
			return -1;
		}
		if (cmp_mismatch(&runs[0], &runs[i], why, sizeof why) > 0) {
			snprintf(err, errlen,
			         "the reports differ in %s ('%s' vs '%s'): trend follows one setup",
			         why, runs[0].path, runs[i].path);
			return -1;
		}
	}
	return 0;
}

struct entry {
	const struct cmp_point *p;
	size_t run;
};

static int entry_order(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = cmp_point_order(a->p, b->p);

	return c ? c : (a->run > b->run) - (a->run < b->run);
}

/* The medians of each segment of v[0..n) (cuts: the first index of each new segment). */
static int segment_levels(const double *v, size_t n, const struct cp_change *cuts, size_t ncuts,
                          double *level)
{
	size_t from = 0;

	for (size_t k = 0; k <= ncuts; k++) {
		size_t to = k < ncuts ? cuts[k].index : n;
		double m = stats_median(v + from, to - from);
		if (isnan(m))
			return -1;
		for (size_t i = from; i < to; i++)
			level[i] = m;
		from = to;
	}
	return 0;
}

static enum trend_verdict verdict_of(const struct trend_series *s, double threshold_pct)
{
	double w;

	if (s->nsteps == 0)
		return TREND_STEADY;
	w = s->steps[s->nsteps - 1].worse_pct;
	return w > threshold_pct    ? TREND_REGRESSION
	       : w < -threshold_pct ? TREND_IMPROVED
	                            : TREND_SHIFTED;
}

/* The steps of one series from its present values (v, at runs idx[0..m)). */
static int find_steps(struct trend_series *s, const double *v, const size_t *idx, size_t m,
                      const struct trend_options *o)
{
	double *logs = malloc((m + 1) * sizeof *logs), *lv = malloc((m + 1) * sizeof *lv);
	struct cp_change *cuts = malloc((m + 1) * sizeof *cuts);
	size_t ncuts = 0;
	int rc = -1;

	if (!logs || !lv || !cuts)
		goto out;
	for (size_t i = 0; i < m; i++)
		logs[i] = log(v[i]);
	if (cp_find(logs, m, &o->cp, cuts, m, &ncuts) != 0 || segment_levels(v, m, cuts, ncuts, lv))
		goto out;
	s->steps = calloc(ncuts + 1, sizeof *s->steps);
	if (!s->steps)
		goto out;
	for (size_t i = 0; i < m; i++)
		s->level[idx[i]] = lv[i];
	for (size_t k = 0; k < ncuts; k++) {
		struct trend_step *st = &s->steps[s->nsteps++];
		size_t at = cuts[k].index;
		st->run = idx[at];
		st->before = lv[at - 1];
		st->after = lv[at];
		st->change_pct = (st->after / st->before - 1) * 100;
		st->worse_pct = o->metric == CMP_BW ? -st->change_pct : st->change_pct;
		st->p_value = cuts[k].p_value;
	}
	rc = 0;
out:
	free(logs);
	free(lv);
	free(cuts);
	return rc;
}

/* A point's noise in one report: the wider of its own spread and its yardstick (NAN: neither). */
static double noise_of(const struct cmp_point *p)
{
	return isnan(p->spread_pct) ? p->yardstick_pct
	       : isnan(p->yardstick_pct) ? p->spread_pct
	                                 : fmax(p->spread_pct, p->yardstick_pct);
}

/* The median of the defined values of x[from..to), NAN when none (x is reordered). */
static double defined_median(double *x, size_t from, size_t to)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		if (!isnan(x[i]))
			x[from + n++] = x[i];
	return n ? stats_median(x + from, n) : NAN;
}

/*
 * A step beyond the threshold is judged only when the reports that set the
 * levels either side of it were quiet enough: the median noise of each
 * segment within the threshold. noise[0..m) follows the series' values.
 */
static void judge_noise(struct trend_series *s, double *noise, const size_t *idx, size_t m,
                        double threshold_pct)
{
	size_t at = 0, from = 0;
	const struct trend_step *last = &s->steps[s->nsteps - 1];

	while (at < m && idx[at] != last->run)
		at++;
	if (s->nsteps > 1)
		while (from < at && idx[from] != s->steps[s->nsteps - 2].run)
			from++;
	s->noise_before_pct = defined_median(noise, from, at);
	s->noise_after_pct = defined_median(noise, at, m);
	if ((s->verdict == TREND_REGRESSION || s->verdict == TREND_IMPROVED) &&
	    (s->noise_before_pct > threshold_pct || s->noise_after_pct > threshold_pct))
		s->verdict = TREND_UNTESTABLE;
}

/* One series from entries e[0..k) of one point. */
static int build_series(struct trend_series *s, const struct entry *e, size_t k, size_t nruns,
                        const struct trend_options *o)
{
	double *v = malloc((k + 1) * sizeof *v), *noise = malloc((k + 1) * sizeof *noise);
	size_t *idx = malloc((k + 1) * sizeof *idx), m = 0;
	int rc = -1;

	s->noise_before_pct = s->noise_after_pct = NAN;
	s->values = malloc((nruns + 1) * sizeof *s->values);
	s->level = malloc((nruns + 1) * sizeof *s->level);
	if (!v || !noise || !idx || !s->values || !s->level)
		goto out;
	for (size_t r = 0; r < nruns; r++)
		s->values[r] = s->level[r] = NAN;
	for (size_t i = 0; i < k; i++) {
		double x = e[i].p->skipped ? NAN : e[i].p->value[o->metric];
		if (!(isfinite(x) && x > 0))
			continue;
		s->values[e[i].run] = v[m] = x;
		noise[m] = noise_of(e[i].p);
		idx[m++] = e[i].run;
	}
	s->nvalues = m;
	if (m < 2 * o->cp.min_segment) {
		s->verdict = TREND_TOO_FEW;
		rc = 0;
		goto out;
	}
	if (find_steps(s, v, idx, m, o) != 0)
		goto out;
	s->verdict = verdict_of(s, o->threshold_pct);
	if (s->nsteps)
		judge_noise(s, noise, idx, m, o->threshold_pct);
	rc = 0;
out:
	free(v);
	free(noise);
	free(idx);
	return rc;
}

static double last_worse(const struct trend_series *s)
{
	return s->nsteps ? s->steps[s->nsteps - 1].worse_pct : NAN;
}

/* Worst first: by verdict, then by how much worse the last step is, then by name. */
static int series_order(const void *pa, const void *pb)
{
	const struct trend_series *x = pa, *y = pb;
	double wx = last_worse(x), wy = last_worse(y);

	if (x->verdict != y->verdict)
		return x->verdict < y->verdict ? -1 : 1;
	if (isfinite(wx) && isfinite(wy) && fabs(wx) != fabs(wy))
		return fabs(wx) > fabs(wy) ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* The context differences at every report where some point stepped. */
static int context_changes(struct trend_result *r)
{
	bool *stepped = calloc(r->nruns + 1, sizeof *stepped);

	if (!stepped)
		return -1;
	for (size_t i = 0; i < r->nseries; i++)
		for (size_t k = 0; k < r->series[i].nsteps; k++)
			stepped[r->series[i].steps[k].run] = true;
	r->changes = calloc(r->nruns + 1, sizeof *r->changes);
	for (size_t run = 1; r->changes && run < r->nruns; run++) {
		struct trend_change *c = &r->changes[r->nchanges];
		if (!stepped[run])
			continue;
		c->run = run;
		r->nchanges++;
		if (cmp_context_diff(r->runs[run - 1].root, r->runs[run].root, &c->diffs,
		                     &c->ndiffs) != 0) {
			free(stepped);
			return -1;
		}
	}
	free(stepped);
	return r->changes ? 0 : -1;
}

/* Every point of every run, ordered by point and then by run, so one point's entries are adjacent.
 */
static struct entry *all_entries(const struct cmp_run *runs, size_t n, size_t *total)
{
	struct entry *e;
	size_t k = 0;

	*total = 0;
	for (size_t r = 0; r < n; r++)
		*total += runs[r].npoints;
	e = malloc((*total + 1) * sizeof *e);
	if (!e)
		return NULL;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r].npoints; i++)
			e[k++] = (struct entry){&runs[r].points[i], r};
	qsort(e, *total, sizeof *e, entry_order);
	return e;
}

int trend_analyze(const struct cmp_run *runs, size_t n, const struct trend_options *o,
                  struct trend_result *out)
{
	struct entry *e = NULL;
	size_t total = 0, from = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->runs = runs;
	out->nruns = n;
	if (n == 0 || !(e = all_entries(runs, n, &total)))
		goto out;
	out->series = calloc(total + 1, sizeof *out->series);
	if (!out->series)
		goto out;
	while (from < total) {
		size_t to = from + 1;
		struct trend_series *s = &out->series[out->nseries++];
		while (to < total && cmp_point_order(e[to].p, e[from].p) == 0)
			to++;
		s->key = e[from].p;
		cmp_point_label(&runs[e[from].run], s->key, s->label, sizeof s->label);
		if (build_series(s, &e[from], to - from, n, o) != 0)
			goto out;
		out->count[s->verdict]++;
		from = to;
	}
	qsort(out->series, out->nseries, sizeof *out->series, series_order);
	rc = context_changes(out);
out:
	free(e);
	if (rc != 0)
		trend_result_release(out);
	return rc;
}

void trend_result_release(struct trend_result *r)
{
	for (size_t i = 0; r->series && i < r->nseries; i++) {
		free(r->series[i].values);
		free(r->series[i].level);
		free(r->series[i].steps);
	}
	free(r->series);
	for (size_t i = 0; r->changes && i < r->nchanges; i++)
		free(r->changes[i].diffs);
	free(r->changes);
	memset(r, 0, sizeof *r);
}

bool trend_failed(const struct trend_result *r)
{
	return r->count[TREND_REGRESSION] > 0;
}

const char *trend_status(const struct trend_result *r)
{
	return trend_failed(r) ? "regression" : r->count[TREND_UNTESTABLE] ? "untestable" : "ok";
}
