/*
 * The watch section of the HTML report (issue 34): each series' recent
 * samples against the time since the watch began, its changes marked on the
 * chart (a point at the new level where each began), then the changes as a
 * table with their attribution. Series that changed come first; past
 * WATCH_CHARTS_MAX charts the rest are counted, not drawn. Read leniently: a
 * value that is not a number is not drawn, and the page counts them.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATCH_CHARTS_MAX 48

/* The numbers of array key of o into a new array of n (NAN where not a number). */
static double *numbers(const cJSON *o, const char *key, size_t *n, size_t *bad)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *v;
	*n = (size_t)cJSON_GetArraySize(a);
	double *x = calloc(*n ? *n : 1, sizeof *x);
	size_t i = 0;
	cJSON_ArrayForEach(v, a) if (x && i < *n)
	{
		x[i++] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		*bad += !cJSON_IsNumber(v) && !cJSON_IsNull(v);
	}
	return x;
}

/* The earliest sample of any series: the charts' zero. */
static double first_time(const cJSON *results)
{
	const cJSON *r, *t;
	double first = INFINITY;
	cJSON_ArrayForEach(r, results)
	{
		t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "time_s"), 0);
		if (cJSON_IsNumber(t) && t->valuedouble < first)
			first = t->valuedouble;
	}
	return isfinite(first) ? first : 0;
}

/*
 * The changes of series name as isolated points (each followed by a NAN, so
 * no line joins them): x minutes after t0, y the new level. 2n entries each.
 */
static size_t change_points(const cJSON *events, const char *name, double t0, double *x, double *y,
                            size_t max, size_t *bad)
{
	const cJSON *e;
	size_t n = 0;
	cJSON_ArrayForEach(e, events) if (n + 2 <= max && strcmp(html_string(e, "series", ""), name) == 0)
	{
		x[n] = (html_number(e, "time_s", bad) - t0) / 60;
		y[n++] = html_number(e, "after", bad);
		x[n] = x[n - 1];
		y[n++] = NAN;
	}
	return n;
}

static int chart(struct html_buf *b, const cJSON *r, const cJSON *events, double t0, size_t *bad)
{
	size_t n, nv, ne = (size_t)cJSON_GetArraySize(events) * 2;
	double *t = numbers(r, "time_s", &n, bad), *v = numbers(r, "values", &nv, bad);
	double *ex = calloc(ne ? ne : 1, sizeof *ex), *ey = calloc(ne ? ne : 1, sizeof *ey);
	const char *name = html_string(r, "series", ""), *unit = html_string(r, "unit", "");
	int rc = t && v && ex && ey ? 0 : -1;
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			t[i] = (t[i] - t0) / 60;
		size_t k = change_points(events, name, t0, ex, ey, ne, bad);
		char ylabel[64];
		snprintf(ylabel, sizeof ylabel, "%s (%s)",
		         strcmp(unit, "us") ? "bandwidth" : "time",
		         strcmp(unit, "us") ? "GB/s" : "us");
		struct svg_series s[2] = {{name, t, v, n < nv ? n : nv, 0, false},
		                          {"change (new level)", ex, ey, k, 3, false}};
		struct svg_chart c = {name,
		                      strcmp(unit, "us") ? "GB/s" : "us",
		                      {"minutes since the first sample", SVG_LINEAR, true},
		                      {ylabel, SVG_LINEAR, true},
		                      s,
		                      k ? 2 : 1};
		svg_line_chart(b, &c);
	}
	free(t);
	free(v);
	free(ex);
	free(ey);
	return rc;
}

static const char *const event_columns[] = {"time_s", "series",      "direction", "step",
                                            "before", "after",       "p_value",   "delay_samples",
                                            "round",  "attribution", NULL};

int html_watch(struct html_section *s)
{
	const cJSON *results, *summary, *events = NULL, *r;
	size_t bad = 0, drawn = 0, left = 0;
	if (report_get_array(&s->at, s->root, "results", false, &results) ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) || html_context(s))
		return -1;
	if (summary)
		events = cJSON_GetObjectItemCaseSensitive(summary, "events");
	double t0 = first_time(results);
	html_raw(s->b, "<h3>Series</h3>\n<div class=\"charts\">\n");
	/* those that changed first: they are why one opens the page */
	for (int pass = 0; results && pass < 2; pass++)
		cJSON_ArrayForEach(r, results)
		{
			bool changed = html_number(r, "changes", &bad) > 0;
			if (changed != (pass == 0))
				continue;
			if (drawn == WATCH_CHARTS_MAX) {
				left++;
				continue;
			}
			drawn++;
			if (chart(s->b, r, events, t0, &bad) != 0) {
				snprintf(s->at.err, s->at.errlen,
				         "cannot render the page: out of memory");
				return -1;
			}
		}
	html_raw(s->b, "</div>\n");
	if (left)
		html_rawf(s->b,
		          "<p class=\"note\">%zu more series without a change are not drawn.</p>\n",
		          left);
	if (bad)
		html_rawf(s->b, "<p class=\"warn\">%zu value%s not a number and not drawn.</p>\n",
		          bad, bad == 1 ? " is" : "s are");
	html_raw(s->b, "<h3>Changes</h3>\n");
	if (cJSON_GetArraySize(events) > 0)
		html_array_table(s->b, events, event_columns, "direction", "slower");
	else
		html_para(s->b, "note", "No change was found.");
	if (summary) {
		html_raw(s->b, "<h3>Summary</h3>\n");
		html_summary(s->b, summary);
	}
	return 0;
}
