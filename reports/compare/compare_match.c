/*
 * compare: matching the points of two runs, the change of every metric, the
 * Mann-Whitney verdict and the worst-first order (see compare.h).
 */
#include "reports/compare/compare_points.h"

#include "reports/stats/compare_stats.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[CMP_VERDICTS] = {
    [CMP_REGRESSION] = "regression",
    [CMP_UNTESTABLE] = "untestable",
    [CMP_UNTESTED] = "untested",
    [CMP_NOT_SIGNIFICANT] = "not-significant",
    [CMP_UNCHANGED] = "unchanged",
    [CMP_IMPROVED] = "improved",
    [CMP_NOT_COMPARED] = "not-compared",
    [CMP_BASELINE_ONLY] = "baseline-only",
    [CMP_CURRENT_ONLY] = "current-only",
};

static const char *const metric_names[2][CMP_METRICS] = {
    [CMP_KIND_POINTS] = {"p50", "p99", "busbw"},
    [CMP_KIND_LINKS] = {"latency_p50", "latency_p99", "bandwidth"},
};

static const char *const correction_names[CMP_CORRECTIONS] = {
    [CMP_CORRECT_BH] = "bh",
    [CMP_CORRECT_HOLM] = "holm",
    [CMP_CORRECT_NONE] = "none",
};

const char *cmp_correction_name(enum cmp_correction c)
{
	return c >= 0 && c < CMP_CORRECTIONS ? correction_names[c] : "?";
}

int cmp_correction_parse(const char *s, enum cmp_correction *out)
{
	for (int c = 0; c < CMP_CORRECTIONS; c++)
		if (strcmp(s, correction_names[c]) == 0) {
			*out = (enum cmp_correction)c;
			return 0;
		}
	return -1;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	return v >= 0 && v < CMP_VERDICTS ? verdict_names[v] : "?";
}

const char *cmp_metric_name(enum cmp_metric m, enum cmp_kind kind)
{
	return m >= 0 && m < CMP_METRICS ? metric_names[kind][m] : "?";
}

int cmp_metric_parse(const char *s, enum cmp_metric *out)
{
	for (int k = 0; k < 2; k++)
		for (int m = 0; m < CMP_METRICS; m++)
			if (strcmp(s, metric_names[k][m]) == 0) {
				*out = (enum cmp_metric)m;
				return 0;
			}
	return -1;
}

int cmp_metric_kind(const char *s, enum cmp_kind *kind)
{
	for (int k = 0; k < 2; k++)
		for (int m = 0; m < CMP_METRICS; m++)
			if (strcmp(s, metric_names[k][m]) == 0) {
				*kind = (enum cmp_kind)k;
				return 0;
			}
	return -1;
}

int cmp_metric_fits(const char *name, enum cmp_kind kind, char *err, size_t len)
{
	enum cmp_kind named;
	if (!name || cmp_metric_kind(name, &named) != 0 || named == kind)
		return 0;
	snprintf(err, len, "--metric %s is a metric of %s reports; these are %s reports: %s, %s or %s",
	         name, named == CMP_KIND_LINKS ? "links" : "allreduce and scale",
	         kind == CMP_KIND_LINKS ? "links" : "allreduce or scale", metric_names[kind][0],
	         metric_names[kind][1], metric_names[kind][2]);
	return -1;
}

static size_t append(char *buf, size_t len, size_t used, const char *what, const char *a,
                     const char *b)
{
	if (used >= len)
		return used;
	return used + (size_t)snprintf(buf + used, len - used, "%s%s %s vs %s", used ? ", " : "",
	                               what, a, b);
}

int cmp_mismatch(const struct cmp_run *base, const struct cmp_run *cur, char *buf, size_t len)
{
	char a[32], b[32];
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	if (base->ranks >= 0 && cur->ranks >= 0 && base->ranks != cur->ranks) {
		snprintf(a, sizeof a, "%lld", (long long)base->ranks);
		snprintf(b, sizeof b, "%lld", (long long)cur->ranks);
		used = append(buf, len, used, "ranks", a, b);
		n++;
	}
	if (base->hosts >= 0 && cur->hosts >= 0 && base->hosts != cur->hosts) {
		snprintf(a, sizeof a, "%lld", (long long)base->hosts);
		snprintf(b, sizeof b, "%lld", (long long)cur->hosts);
		used = append(buf, len, used, "hosts", a, b);
		n++;
	}
	if (strcmp(base->dtypes, cur->dtypes) != 0) {
		used = append(buf, len, used, "dtype", base->dtypes[0] ? base->dtypes : "none",
		              cur->dtypes[0] ? cur->dtypes : "none");
		n++;
	}
	if (strcmp(base->ops, cur->ops) != 0) {
		append(buf, len, used, "op", base->ops[0] ? base->ops : "none",
		       cur->ops[0] ? cur->ops : "none");
		n++;
	}
	return n;
}

static void changes(struct cmp_row *r)
{
	for (int m = 0; m < CMP_METRICS; m++) {
		double b = r->base->value[m], c = r->cur->value[m];
		r->ratio[m] = isfinite(b) && isfinite(c) && b > 0 ? c / b : NAN;
		r->change_pct[m] = (r->ratio[m] - 1.0) * 100.0;
	}
}

void cmp_tested_samples(const struct cmp_point *p, bool windows, const double **x, size_t *n)
{
	*x = windows ? p->window_samples_us : p->samples_us;
	*n = windows ? p->nwindow_samples : p->nsamples;
}

/*
 * Mann-Whitney of current against baseline when both sides have enough
 * samples: of the gate's own measurement (a link's bandwidth gate tests its
 * window times, its latency gates the ping-pongs; a collective's are the
 * call times either way).
 */
static void test(struct cmp_row *r, enum cmp_metric gate)
{
	const struct cmp_point *b = r->base, *c = r->cur;
	const bool windows = gate == CMP_BW && b->window_samples_us && c->window_samples_us;
	const double *bs, *cs;
	size_t nb, nc;

	cmp_tested_samples(b, windows, &bs, &nb);
	cmp_tested_samples(c, windows, &cs, &nc);
	r->tested = nb >= CMP_MIN_SAMPLES && nc >= CMP_MIN_SAMPLES &&
	            stats_mann_whitney(cs, nc, bs, nb, &r->u, &r->p_value) == 0;
	r->tested_base = nb;
	r->tested_cur = nc;
	if (r->tested)
		return;
	r->u = r->p_value = NAN;
	if (!bs || !cs)
		r->note = "no raw samples: no significance verdict";
	else
		r->note = "fewer than 9 samples a side: no significance verdict";
}

/*
 * What a tested point could have detected: the log spread of both sides
 * pooled (they are assumed to share it, as the test's shift model does),
 * turned into the smallest change of the time found with CMP_MDE_POWER at
 * the level alpha; with the samples a side that the threshold would need.
 */
static void sensitivity(struct cmp_row *r, enum cmp_metric gate, double alpha, double threshold_pct)
{
	const bool windows =
	    gate == CMP_BW && r->base->window_samples_us && r->cur->window_samples_us;
	const double *bs, *cs;
	size_t nb, nc;
	double sb, sc, sigma, d;

	cmp_tested_samples(r->base, windows, &bs, &nb);
	cmp_tested_samples(r->cur, windows, &cs, &nc);
	sb = stats_log_spread(bs, nb);
	sc = stats_log_spread(cs, nc);
	sigma = sqrt((sb * sb + sc * sc) / 2);
	d = stats_mw_mde_log(sigma, nb, nc, alpha, CMP_MDE_POWER);
	r->mde_pct = isnan(d) ? NAN : isinf(d) ? INFINITY : expm1(d) * 100.0;
	r->too_noisy = !isnan(r->mde_pct) && r->mde_pct > threshold_pct;
	if (r->too_noisy)
		r->samples_needed = stats_mw_samples_needed(sigma, log1p(threshold_pct / 100.0),
		                                            alpha, CMP_MDE_POWER);
}

/* The changes and the test of a point present on both sides; no verdict yet. */
static void measure(struct cmp_row *r, const struct cmp_options *o)
{
	const struct cmp_point *b = r->base, *c = r->cur;

	changes(r);
	if (b->skipped || c->skipped) {
		r->verdict = CMP_NOT_COMPARED;
		r->note = b->skipped && c->skipped ? "skipped in both runs"
		          : b->skipped             ? "skipped in the baseline"
		                                   : "skipped in the current run";
		return;
	}
	r->worse_pct = o->gate == CMP_BW ? -r->change_pct[o->gate] : r->change_pct[o->gate];
	test(r, o->gate);
	if (!isfinite(r->worse_pct)) {
		r->verdict = CMP_NOT_COMPARED;
		r->note = "the gate metric is undefined on a side (too few samples for it)";
	}
}

/* Why a point is untestable, as its note says it. */
static const char *untestable_note(const struct cmp_row *r, double threshold_pct)
{
	bool own = r->spread_pct > threshold_pct, yard = r->yardstick_pct > threshold_pct;

	return own && yard ? "its samples and the yardstick around it spread wider than the threshold"
	       : own       ? "its samples spread wider than the threshold (middle half)"
	                   : "the yardstick around it moved more than the threshold";
}

/* The verdict of a measured point, from its adjusted q and its noise (compare.h). */
static void judge(struct cmp_row *r, const struct cmp_options *o)
{
	bool worse, slower, noisy;

	if (r->verdict == CMP_NOT_COMPARED)
		return;
	noisy = cmp_noise_measure(r, o->threshold_pct);
	worse = r->worse_pct > 0;
	if (fabs(r->worse_pct) <= o->threshold_pct) {
		r->verdict = noisy ? CMP_UNTESTABLE : CMP_UNCHANGED;
		if (noisy)
			r->note = untestable_note(r, o->threshold_pct);
		return;
	}
	if (!r->tested) {
		r->verdict = worse && o->untested_fails ? CMP_REGRESSION : CMP_UNTESTED;
		return;
	}
	if (noisy && !(fabs(r->worse_pct) > r->bar_pct)) {
		r->verdict = CMP_UNTESTABLE;
		r->note = untestable_note(r, o->threshold_pct);
		return;
	}
	/* Samples are times: U above its mean says the current run tends to be slower. */
	slower = r->u > (double)r->tested_base * (double)r->tested_cur / 2.0;
	if (r->q_value < o->alpha && slower == worse && fabs(r->worse_pct) > r->bar_pct) {
		r->verdict = worse ? CMP_REGRESSION : CMP_IMPROVED;
		return;
	}
	r->verdict = CMP_NOT_SIGNIFICANT;
	r->note = r->q_value < o->alpha && slower != worse ? "the test finds a shift the other way"
	          : r->q_value < o->alpha ? "the change is within the yardstick's noise at this point"
	                                  : "the change is within the noise of the samples";
}

int cmp_adjust_family(struct cmp_result *out, enum cmp_correction correction)
{
	double *p = malloc((out->nrows + 1) * sizeof *p);
	int rc = 0;

	if (!p)
		return -1;
	for (size_t i = 0; i < out->nrows; i++)
		p[i] = out->rows[i].tested ? out->rows[i].p_value : NAN;
	if (correction == CMP_CORRECT_BH)
		rc = stats_adjust_bh(p, out->nrows, p);
	else if (correction == CMP_CORRECT_HOLM)
		rc = stats_adjust_holm(p, out->nrows, p);
	for (size_t i = 0; rc == 0 && i < out->nrows; i++)
		out->rows[i].q_value = p[i];
	free(p);
	return rc;
}

static void init_row(struct cmp_row *r, const struct cmp_run *run, const struct cmp_point *b,
                     const struct cmp_point *c)
{
	memset(r, 0, sizeof *r);
	r->base = b;
	r->cur = c;
	r->u = r->p_value = r->q_value = r->mde_pct = r->worse_pct = NAN;
	r->spread_pct = r->yardstick_pct = r->bar_pct = r->t = NAN;
	for (int m = 0; m < CMP_METRICS; m++) {
		r->ratio[m] = r->change_pct[m] = NAN;
		r->base_value[m] = b ? b->value[m] : NAN;
		r->cur_value[m] = c ? c->value[m] : NAN;
	}
	cmp_point_label(run, b ? b : c, r->label, sizeof r->label);
	if (!b)
		r->verdict = CMP_CURRENT_ONLY;
	else if (!c)
		r->verdict = CMP_BASELINE_ONLY;
}

int cmp_row_order(const void *pa, const void *pb)
{
	const struct cmp_row *x = pa, *y = pb;
	bool fx = isfinite(x->worse_pct), fy = isfinite(y->worse_pct);

	if (x->verdict != y->verdict)
		return x->verdict < y->verdict ? -1 : 1;
	if (fx != fy)
		return fx ? -1 : 1;
	if (fx && x->worse_pct != y->worse_pct)
		return x->worse_pct > y->worse_pct ? -1 : 1;
	return strcmp(x->label, y->label);
}

int cmp_compare(const struct cmp_run *base, const struct cmp_run *cur, const struct cmp_options *o,
                struct cmp_result *out)
{
	size_t i = 0, j = 0;

	memset(out, 0, sizeof *out);
	out->rows = calloc(base->npoints + cur->npoints + 1, sizeof *out->rows);
	if (!out->rows)
		return -1;
	while (i < base->npoints || j < cur->npoints) {
		const struct cmp_point *b = i < base->npoints ? &base->points[i] : NULL;
		const struct cmp_point *c = j < cur->npoints ? &cur->points[j] : NULL;
		int order = !b ? 1 : !c ? -1 : cmp_point_order(b, c);
		struct cmp_row *r = &out->rows[out->nrows++];
		init_row(r, cur, order <= 0 ? b : NULL, order >= 0 ? c : NULL);
		r->threshold_pct = o->threshold_pct;
		i += order <= 0;
		j += order >= 0;
		if (r->base && r->cur)
			measure(r, o);
		out->tested += r->tested;
	}
	if (cmp_adjust_family(out, o->correction) != 0) {
		cmp_result_release(out);
		return -1;
	}
	/* a lone change must reach alpha / m after bh or holm, alpha without */
	out->mde_alpha = o->correction == CMP_CORRECT_NONE || out->tested == 0
	                     ? o->alpha
	                     : o->alpha / (double)out->tested;
	for (size_t k = 0; k < out->nrows; k++) {
		struct cmp_row *r = &out->rows[k];
		if (r->base && r->cur)
			judge(r, o);
		if (r->tested)
			sensitivity(r, o->gate, out->mde_alpha, o->threshold_pct);
		out->too_noisy += r->too_noisy;
		out->count[r->verdict]++;
		out->untestable_own += r->verdict == CMP_UNTESTABLE && r->spread_pct > o->threshold_pct;
		out->untestable_yardstick +=
		    r->verdict == CMP_UNTESTABLE && r->yardstick_pct > o->threshold_pct;
	}
	qsort(out->rows, out->nrows, sizeof *out->rows, cmp_row_order);
	if (cmp_context_diff(base->root, cur->root, &out->diffs, &out->ndiffs) != 0) {
		cmp_result_release(out);
		return -1;
	}
	return 0;
}

void cmp_result_release(struct cmp_result *r)
{
	free(r->diffs);
	r->diffs = NULL;
	r->ndiffs = 0;
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}

bool cmp_failed(const struct cmp_result *r)
{
	return r->count[CMP_REGRESSION] > 0 ||
	       (r->whole.judged && r->whole.verdict == CMP_REGRESSION);
}

bool cmp_fails(const struct cmp_result *r, const struct cmp_options *o)
{
	return cmp_failed(r) || (o->untestable_fails && r->count[CMP_UNTESTABLE] > 0);
}

const char *cmp_status(const struct cmp_result *r)
{
	return cmp_failed(r) ? "regression" : r->count[CMP_UNTESTABLE] ? "untestable" : "ok";
}
