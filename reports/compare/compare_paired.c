/* compare --paired: baseline and current measured alternately, judged pair by pair (compare.h). */
#include "reports/compare/compare_points.h"

#include "reports/stats/compare_stats.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>

/* The point of run with p's key, or NULL. */
static const struct cmp_point *find(const struct cmp_run *run, const struct cmp_point *p)
{
	size_t lo = 0, hi = run->npoints;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_point_order(&run->points[mid], p);
		if (c == 0)
			return &run->points[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The median over the pairs of metric m's baseline (what 0), current (1) or current / baseline
 * (2); NAN when a pair has none. */
static double median_over(const struct cmp_point *const *b, const struct cmp_point *const *c,
                          size_t n, int m, int what, double *scratch)
{
	for (size_t i = 0; i < n; i++) {
		double x = b[i]->value[m], y = c[i]->value[m];
		double v = what == 0 ? x : what == 1 ? y : x > 0 ? y / x : NAN;
		if (!isfinite(v))
			return NAN;
		scratch[i] = v;
	}
	return stats_median(scratch, n);
}

/* Each metric's baseline, current and current / baseline: medians over the pairs. */
static void median_changes(struct cmp_row *r, const struct cmp_point *const *b,
                           const struct cmp_point *const *c, size_t n, double *scratch)
{
	for (int m = 0; m < CMP_METRICS; m++) {
		r->base_value[m] = median_over(b, c, n, m, 0, scratch);
		r->cur_value[m] = median_over(b, c, n, m, 1, scratch);
		r->ratio[m] = median_over(b, c, n, m, 2, scratch);
		r->change_pct[m] = (r->ratio[m] - 1.0) * 100.0;
	}
}

/* Student's t of x[0 .. n-1] against 0: > 0 when their mean is; +-inf when they agree exactly. */
static double student_t(const double *x, size_t n)
{
	double mean = stats_mean(x, n), sd = stats_stddev(x, n);
	return sd > 0 ? mean / (sd / sqrt((double)n)) : mean == 0 ? 0 : copysign(INFINITY, mean);
}

/*
 * Student's paired t over the pairs of d = log(current / baseline) of the gate metric: t > 0
 * when current is larger. The pair is the unit: the load moves the samples of a run together,
 * so their count says nothing of the next pair (a test of the samples, van Elteren's
 * stratified rank sum, failed 6 of 8 no-change trials of 4 pairs under busy loops).
 */
static bool paired_t(const struct cmp_point *const *b, const struct cmp_point *const *c,
                     size_t n, enum cmp_metric gate, double *scratch, double *t, double *p)
{
	for (size_t i = 0; i < n; i++) {
		double x = b[i]->value[gate], y = c[i]->value[gate];
		if (!(x > 0 && y > 0 && isfinite(x) && isfinite(y)))
			return false;
		scratch[i] = log(y / x);
	}
	*t = student_t(scratch, n);
	*p = stats_t_two_sided(*t, (int)n - 1);
	return true;
}

/* Pair 1's row measured again over every pair; no verdict yet. */
static void measure(struct cmp_row *r, const struct cmp_run *runs, size_t npairs,
                    const struct cmp_options *o, const struct cmp_point **b,
                    const struct cmp_point **c, double *scratch)
{
	size_t held = 0;
	for (size_t i = 0; i < npairs; i++) {
		b[i] = find(&runs[2 * i], r->base);
		c[i] = find(&runs[2 * i + 1], r->base);
		if (!b[i] || !c[i] || b[i]->skipped || c[i]->skipped)
			break;
		held++;
	}
	r->pairs = held;
	r->u = r->p_value = r->q_value = r->mde_pct = NAN;
	r->spread_pct = r->yardstick_pct = r->bar_pct = NAN;
	r->tested = false;
	r->too_noisy = false;
	r->samples_needed = 0;
	if (held < npairs) {
		r->verdict = CMP_NOT_COMPARED;
		r->note = "not measured in every pair";
		return;
	}
	median_changes(r, b, c, npairs, scratch);
	r->worse_pct = o->gate == CMP_BW ? -r->change_pct[o->gate] : r->change_pct[o->gate];
	if (!isfinite(r->worse_pct)) {
		r->verdict = CMP_NOT_COMPARED;
		r->note = "the gate metric is undefined in a pair";
		return;
	}
	double t;
	r->tested = paired_t(b, c, npairs, o->gate, scratch, &t, &r->p_value);
	r->tested_base = r->tested_cur = npairs;
	r->t = r->tested ? t : NAN;
	if (!r->tested)
		r->note = "the gate metric is not positive in a pair: no significance verdict";
}

/* Row k's log ratios, worse positive, into d[i * nrows + k] for every pair i. */
static void keep_ratios(const struct cmp_point *const *b, const struct cmp_point *const *c,
                        size_t npairs, enum cmp_metric gate, size_t k, size_t nrows, double *d)
{
	for (size_t i = 0; i < npairs; i++) {
		double x = log(c[i]->value[gate] / b[i]->value[gate]);
		d[i * nrows + k] = gate == CMP_BW ? -x : x;
	}
}

/* struct cmp_whole from d (npairs rows of nrows, NAN where a point was not tested). */
static void judge_whole(struct cmp_whole *w, double *d, size_t npairs, size_t nrows,
                        const struct cmp_options *o)
{
	double fig[CMP_MAX_PAIRS], sorted[CMP_MAX_PAIRS];
	*w = (struct cmp_whole){.t = NAN, .p_value = NAN, .change_pct = NAN};
	for (size_t i = 0; i < npairs; i++) {
		double *row = d + i * nrows;
		size_t n = 0;
		for (size_t k = 0; k < nrows; k++)
			if (isfinite(row[k]))
				row[n++] = row[k];
		w->points = n;
		fig[i] = n ? stats_median(row, n) : NAN;
		w->pair_change_pct[i] = 100 * expm1(fig[i]);
		sorted[i] = fig[i];
	}
	if (w->points < 2)
		return;
	w->judged = true;
	w->change_pct = 100 * expm1(stats_median(sorted, npairs));
	w->t = student_t(fig, npairs);
	/* one-sided, the way the median moved: a gate asks "worse?" (and "better?") alone */
	bool worse = w->change_pct > 0;
	double two = stats_t_two_sided(w->t, (int)npairs - 1);
	w->p_value = (w->t > 0) == worse ? two / 2 : 1 - two / 2;
	if (fabs(w->change_pct) <= o->threshold_pct)
		w->verdict = CMP_UNCHANGED;
	else if (w->p_value < o->alpha)
		w->verdict = worse ? CMP_REGRESSION : CMP_IMPROVED;
	else
		w->verdict = CMP_NOT_SIGNIFICANT;
}

static void judge(struct cmp_row *r, const struct cmp_options *o)
{
	if (r->verdict == CMP_NOT_COMPARED)
		return;
	bool worse = r->worse_pct > 0;
	r->bar_pct = o->threshold_pct;
	if (fabs(r->worse_pct) <= o->threshold_pct) {
		r->verdict = CMP_UNCHANGED;
		return;
	}
	if (!r->tested) {
		r->verdict = worse && o->untested_fails ? CMP_REGRESSION : CMP_UNTESTED;
		return;
	}
	/* t > 0: current larger, which is worse for a time and better for busbw */
	bool shift_worse = o->gate == CMP_BW ? r->t < 0 : r->t > 0;
	if (r->q_value < o->alpha && shift_worse == worse) {
		r->verdict = worse ? CMP_REGRESSION : CMP_IMPROVED;
		return;
	}
	r->verdict = CMP_NOT_SIGNIFICANT;
	r->note = r->q_value < o->alpha ? "the test finds a shift the other way"
	                                : "the pairs do not agree on it";
}

int cmp_compare_paired(const struct cmp_run *runs, size_t npairs, const struct cmp_options *o,
                       struct cmp_result *out)
{
	if (npairs < 2 || npairs > CMP_MAX_PAIRS || cmp_compare(&runs[0], &runs[1], o, out) != 0)
		return -1;
	const struct cmp_point **b = calloc(npairs, sizeof *b), **c = calloc(npairs, sizeof *c);
	double *scratch = calloc(npairs, sizeof *scratch);
	double *d = malloc((npairs * out->nrows + 1) * sizeof *d); /* the whole run's ratios */
	int rc = b && c && scratch && d ? 0 : -1;
	out->tested = 0;
	for (size_t k = 0; rc == 0 && k < out->nrows; k++) {
		struct cmp_row *r = &out->rows[k];
		for (size_t i = 0; i < npairs; i++)
			d[i * out->nrows + k] = NAN;
		if (!r->base || !r->cur)
			continue;
		r->verdict = CMP_UNCHANGED;
		r->note = NULL;
		measure(r, runs, npairs, o, b, c, scratch);
		if (r->tested)
			keep_ratios(b, c, npairs, o->gate, k, out->nrows, d);
		out->tested += r->tested;
	}
	if (rc == 0)
		judge_whole(&out->whole, d, npairs, out->nrows, o);
	free(d);
	if (rc == 0)
		rc = cmp_adjust_family(out, o->correction);
	out->mde_alpha = NAN; /* no detectable effect is worked out for pairs */
	out->too_noisy = out->untestable_own = out->untestable_yardstick = 0;
	for (int v = 0; v < CMP_VERDICTS; v++)
		out->count[v] = 0;
	for (size_t k = 0; rc == 0 && k < out->nrows; k++) {
		struct cmp_row *r = &out->rows[k];
		if (r->base && r->cur)
			judge(r, o);
		out->count[r->verdict]++;
	}
	if (rc == 0)
		qsort(out->rows, out->nrows, sizeof *out->rows, cmp_row_order);
	free(b);
	free(c);
	free(scratch);
	if (rc != 0)
		cmp_result_release(out);
	return rc;
}
