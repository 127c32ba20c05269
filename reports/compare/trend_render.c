/* collscope trend: the text and the JSON of a result (trend.h). */
#include "reports/compare/trend_series.h"

#include "reports/io/report_io.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define METHOD                                                                                     \
	"E-divisive means: energy distance (exponent 1) of the logarithms, binary segmentation, "  \
	"permutation test"

/* "p50_us", "busbw_gbps", "latency_p50_us", "bandwidth_gbps". */
static void metric_key(const struct trend_result *r, enum cmp_metric m, char *buf, size_t len)
{
	enum cmp_kind kind = r->nruns ? r->runs[0].kind : CMP_KIND_POINTS;

	snprintf(buf, len, "%s_%s", cmp_metric_name(m, kind), m == CMP_BW ? "gbps" : "us");
}

/* A path or label as text: control characters would be terminal escapes. */
static void text_put(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static double first_value(const struct trend_series *s, size_t n, bool last)
{
	for (size_t k = 0; k < n; k++) {
		double v = s->values[last ? n - 1 - k : k];
		if (isfinite(v))
			return v;
	}
	return NAN;
}

static void print_steps(FILE *f, const struct trend_result *r, const struct trend_series *s)
{
	for (size_t k = 0; k < s->nsteps; k++) {
		const struct trend_step *st = &s->steps[k];
		fprintf(f, "#   step at report %zu of %zu '", st->run + 1, r->nruns);
		text_put(f, r->runs[st->run].path);
		fputs("' (", f);
		text_put(f, r->runs[st->run].started_utc);
		fprintf(f, "): %.2f -> %.2f (%+.1f%%), p %.2g\n", st->before, st->after,
		        st->change_pct, st->p_value);
	}
	if (s->verdict == TREND_UNTESTABLE)
		fprintf(f,
		        "#   untestable: the reports either side of the step measured it with %.0f%% "
		        "and %.0f%% noise (the median of its spread or yardstick), wider than the "
		        "threshold\n",
		        s->noise_before_pct, s->noise_after_pct);
}

static void print_changes(FILE *f, const struct trend_result *r)
{
	char text[CMP_DIFF_NAME_BYTES + 2 * CMP_DIFF_VALUE_BYTES + 16];

	for (size_t i = 0; i < r->nchanges; i++) {
		const struct trend_change *c = &r->changes[i];
		fprintf(f, "# at report %zu '", c->run + 1);
		text_put(f, r->runs[c->run].path);
		if (c->ndiffs == 0) {
			fputs("' the recorded context is the same as in the report before\n", f);
			continue;
		}
		fprintf(f, "' the context differs from the report before in %zu:\n", c->ndiffs);
		for (size_t k = 0; k < c->ndiffs; k++) {
			cmp_diff_text(&c->diffs[k], text, sizeof text);
			fprintf(f, "#   %s\n", text);
		}
	}
}

int trend_print(FILE *f, const struct trend_result *r, const struct trend_options *o)
{
	char key[64];

	metric_key(r, o->metric, key, sizeof key);
	fprintf(f, "# collscope trend: %zu %s reports, ", r->nruns,
	        r->nruns ? r->runs[0].command : "?");
	text_put(f, r->nruns ? r->runs[0].started_utc : "");
	fputs(" .. ", f);
	text_put(f, r->nruns ? r->runs[r->nruns - 1].started_utc : "");
	fprintf(f,
	        ", %s\n# A step is a change point of a point's series (%s, p < %g, %zu "
	        "permutations, at least %zu reports a side); a point regresses when its last "
	        "step is worse than %g%%, unless the reports either side of it measured it with "
	        "more noise than that (untestable: no failure).\n",
	        key, METHOD, o->cp.alpha, o->cp.permutations, o->cp.min_segment, o->threshold_pct);
	fprintf(f, "#%-14s %-44s %7s %11s %11s %5s %9s\n", "verdict", "point", "reports", "first",
	        "last", "steps", "last_step");
	for (size_t i = 0; i < r->nseries; i++) {
		const struct trend_series *s = &r->series[i];
		char last[32] = "-", first_v[32] = "-", last_v[32] = "-";
		double a = first_value(s, r->nruns, false), z = first_value(s, r->nruns, true);
		if (isfinite(a))
			snprintf(first_v, sizeof first_v, "%.2f", a);
		if (isfinite(z))
			snprintf(last_v, sizeof last_v, "%.2f", z);
		if (s->nsteps)
			snprintf(last, sizeof last, "%+.1f%%", s->steps[s->nsteps - 1].change_pct);
		fprintf(f, "%-15s ", trend_verdict_name(s->verdict));
		text_put(f, s->label);
		fprintf(f, "%*s %7zu %11s %11s %5zu %9s\n",
		        (int)(strlen(s->label) < 44 ? 44 - strlen(s->label) : 0), "", s->nvalues,
		        first_v, last_v, s->nsteps, last);
		print_steps(f, r, s);
	}
	fprintf(f, "# %s: ", trend_status(r));
	for (int v = 0; v < TREND_VERDICTS; v++)
		fprintf(f, "%s%zu %s", v ? ", " : "", r->count[v],
		        trend_verdict_name((enum trend_verdict)v));
	fputc('\n', f);
	print_changes(f, r);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

static bool add_keys(cJSON *o, const struct trend_result *r, const struct cmp_point *p)
{
	if (r->nruns && r->runs[0].kind == CMP_KIND_LINKS)
		return cJSON_AddNumberToObject(o, "a", (double)p->a) &&
		       cJSON_AddNumberToObject(o, "b", (double)p->b);
	return cJSON_AddStringToObject(o, "algorithm", p->algorithm) &&
	       cJSON_AddNumberToObject(o, "bytes", (double)p->bytes) &&
	       cJSON_AddStringToObject(o, "dtype", p->dtype) &&
	       cJSON_AddStringToObject(o, "op", p->op) &&
	       cJSON_AddNumberToObject(o, "ranks", (double)p->ranks) &&
	       cJSON_AddBoolToObject(o, "in_place", p->in_place);
}

static bool add_numbers(cJSON *o, const char *name, const double *v, size_t n)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);

	for (size_t i = 0; a && i < n; i++)
		if (!report_add_number_item(a, v[i]))
			return false;
	return a != NULL;
}

static bool add_steps(cJSON *o, const struct trend_result *r, const struct trend_series *s,
                      const char *key)
{
	char before[80], after[80];
	cJSON *steps = cJSON_AddArrayToObject(o, "steps");

	snprintf(before, sizeof before, "before_%s", key);
	snprintf(after, sizeof after, "after_%s", key);
	for (size_t k = 0; steps && k < s->nsteps; k++) {
		const struct trend_step *st = &s->steps[k];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(steps, x)) {
			cJSON_Delete(x);
			return false;
		}
		if (!cJSON_AddNumberToObject(x, "report_number", (double)st->run + 1) ||
		    !cJSON_AddStringToObject(x, "report", r->runs[st->run].path) ||
		    !cJSON_AddStringToObject(x, "started_utc", r->runs[st->run].started_utc) ||
		    !report_add_number(x, before, st->before) ||
		    !report_add_number(x, after, st->after) ||
		    !report_add_number(x, "change_pct", st->change_pct) ||
		    !report_add_number(x, "p_value", st->p_value))
			return false;
	}
	return steps != NULL;
}

static bool add_series(cJSON *results, const struct trend_result *r, const struct trend_series *s,
                       const char *key)
{
	char level[80];
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return false;
	}
	snprintf(level, sizeof level, "level_%s", key);
	return cJSON_AddStringToObject(o, "verdict", trend_verdict_name(s->verdict)) &&
	       cJSON_AddStringToObject(o, "point", s->label) && add_keys(o, r, s->key) &&
	       cJSON_AddNumberToObject(o, "reports", (double)s->nvalues) &&
	       add_numbers(o, key, s->values, r->nruns) &&
	       add_numbers(o, level, s->level, r->nruns) && add_steps(o, r, s, key) &&
	       report_add_number(o, "last_step_change_pct",
	                         s->nsteps ? s->steps[s->nsteps - 1].change_pct : NAN) &&
	       report_add_number(o, "noise_before_pct", s->noise_before_pct) &&
	       report_add_number(o, "noise_after_pct", s->noise_after_pct);
}

static bool add_config(cJSON *root, const struct trend_result *r, const struct trend_options *o,
                       const char *key)
{
	cJSON *c = cJSON_AddObjectToObject(root, "config");
	cJSON *reports = c ? cJSON_AddArrayToObject(c, "reports") : NULL;

	for (size_t i = 0; reports && i < r->nruns; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(reports, x)) {
			cJSON_Delete(x);
			return false;
		}
		if (!cJSON_AddNumberToObject(x, "number", (double)i + 1) ||
		    !cJSON_AddStringToObject(x, "path", r->runs[i].path) ||
		    !cJSON_AddStringToObject(x, "started_utc", r->runs[i].started_utc))
			return false;
	}
	return reports &&
	       cJSON_AddStringToObject(c, "trended", r->nruns ? r->runs[0].command : "") &&
	       cJSON_AddStringToObject(c, "metric", key) &&
	       cJSON_AddNumberToObject(c, "threshold_pct", o->threshold_pct) &&
	       cJSON_AddNumberToObject(c, "alpha", o->cp.alpha) &&
	       cJSON_AddNumberToObject(c, "permutations", (double)o->cp.permutations) &&
	       cJSON_AddNumberToObject(c, "min_segment", (double)o->cp.min_segment) &&
	       cJSON_AddStringToObject(c, "method", METHOD);
}

static bool add_changes(cJSON *summary, const struct trend_result *r)
{
	cJSON *list = cJSON_AddArrayToObject(summary, "context_changes");

	for (size_t i = 0; list && i < r->nchanges; i++) {
		const struct trend_change *c = &r->changes[i];
		cJSON *x = cJSON_CreateObject(), *diffs;
		if (!x || !cJSON_AddItemToArray(list, x)) {
			cJSON_Delete(x);
			return false;
		}
		if (!cJSON_AddNumberToObject(x, "report_number", (double)c->run + 1) ||
		    !cJSON_AddStringToObject(x, "report", r->runs[c->run].path) ||
		    !(diffs = cJSON_AddArrayToObject(x, "differences")))
			return false;
		for (size_t k = 0; k < c->ndiffs; k++) {
			const struct cmp_diff *d = &c->diffs[k];
			cJSON *y = cJSON_CreateObject();
			if (!y || !cJSON_AddItemToArray(diffs, y)) {
				cJSON_Delete(y);
				return false;
			}
			if (!cJSON_AddStringToObject(y, "name", d->name) ||
			    !(d->base_absent
			          ? cJSON_AddNullToObject(y, "baseline")
			          : cJSON_AddStringToObject(y, "baseline", d->baseline)) ||
			    !(d->cur_absent ? cJSON_AddNullToObject(y, "current")
			                    : cJSON_AddStringToObject(y, "current", d->current)))
				return false;
		}
	}
	return list != NULL;
}

cJSON *trend_to_json(cJSON *root, const struct trend_result *r, const struct trend_options *o)
{
	char key[64];
	cJSON *results, *summary, *counts;
	size_t stepped = 0;

	metric_key(r, o->metric, key, sizeof key);
	if (!add_config(root, r, o, key))
		return NULL;
	results = cJSON_AddArrayToObject(root, "results");
	for (size_t i = 0; results && i < r->nseries; i++) {
		if (!add_series(results, r, &r->series[i], key))
			return NULL;
		stepped += r->series[i].nsteps > 0;
	}
	summary = cJSON_AddObjectToObject(root, "summary");
	counts = summary ? cJSON_AddObjectToObject(summary, "counts") : NULL;
	if (!results || !counts)
		return NULL;
	for (int v = 0; v < TREND_VERDICTS; v++)
		if (!cJSON_AddNumberToObject(counts, trend_verdict_name((enum trend_verdict)v),
		                             (double)r->count[v]))
			return NULL;
	if (!cJSON_AddNumberToObject(summary, "points", (double)r->nseries) ||
	    !cJSON_AddNumberToObject(summary, "stepped_points", (double)stepped) ||
	    !cJSON_AddNumberToObject(summary, "reports", (double)r->nruns) ||
	    !cJSON_AddStringToObject(summary, "verdict", trend_status(r)) ||
	    !add_changes(summary, r) || !cJSON_AddBoolToObject(root, "complete", true))
		return NULL;
	return root;
}
