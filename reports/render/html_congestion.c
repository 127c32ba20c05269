/*
 * The congestion section of the HTML report (issue 31): the interference
 * factors against the message size, one chart per factor and a line per
 * victim group; each examined victim's host x host bandwidth under the load
 * and alone as heatmaps, with the classifier's verdicts; then the summary's
 * tables. Read leniently: a value that is not a number is not drawn, and the
 * page says how many were left out.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GROUPS_CHARTED 16

static const struct factor {
	const char *key, *title;
} factors[] = {
    {"factor_busbw", "interference: busbw alone / together"},
    {"factor_p99", "interference: p99 time together / alone"},
};

/* One chart: a series per group (points in the report's order: sizes ascending). */
static int factor_chart(struct html_buf *b, const cJSON *points, const struct factor *f,
                        size_t *bad)
{
	int n = cJSON_GetArraySize(points);
	double *x = calloc((size_t)(n ? n : 1), sizeof *x),
	       *y = calloc((size_t)(n ? n : 1), sizeof *y);
	struct svg_series series[GROUPS_CHARTED];
	char names[GROUPS_CHARTED][32];
	size_t used = 0, nseries = 0;
	if (!x || !y) {
		free(x);
		free(y);
		return -1;
	}
	for (int g = 0; g < GROUPS_CHARTED; g++) {
		size_t first = used;
		const cJSON *p;
		cJSON_ArrayForEach(p, points)
		{
			if (html_number(p, "group", bad) != g)
				continue;
			x[used] = html_number(p, "bytes", bad);
			y[used++] = html_number(p, f->key, bad);
		}
		if (used == first)
			continue;
		snprintf(names[nseries], sizeof names[nseries], "group %d", g);
		series[nseries] = (struct svg_series){.name = names[nseries],
		                                      .x = x + first,
		                                      .y = y + first,
		                                      .n = used - first,
		                                      .color = g};
		nseries++;
	}
	struct svg_chart c = {.title = f->title,
	                      .unit = "x",
	                      .x = {"message size (bytes, log2 scale)", SVG_LOG2_BYTES, false},
	                      .y = {"factor (1: no interference)", SVG_LINEAR, true},
	                      .series = series,
	                      .nseries = nseries};
	if (nseries)
		svg_line_chart(b, &c);
	free(x);
	free(y);
	return 0;
}

/* One matrix of a where entry as a heatmap; a matrix absent or misshapen is not drawn. */
static void matrix(struct html_buf *b, const cJSON *w, const char *key, const char *title,
                   size_t *bad)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(w, key);
	int n = cJSON_GetArraySize(rows);
	if (!cJSON_IsArray(rows) || n < 1 || n > 4096)
		return;
	double *v = malloc((size_t)n * (size_t)n * sizeof *v);
	for (int i = 0; v && i < n; i++) {
		const cJSON *row = cJSON_GetArrayItem(rows, i);
		for (int j = 0; j < n; j++) {
			const cJSON *c = cJSON_IsArray(row) ? cJSON_GetArrayItem(row, j) : NULL;
			v[(size_t)i * (size_t)n + (size_t)j] =
			    cJSON_IsNumber(c) ? c->valuedouble : NAN;
			*bad += c && !cJSON_IsNumber(c) && !cJSON_IsNull(c);
		}
	}
	struct svg_heatmap h = {.title = title,
	                        .unit = "GB/s",
	                        .row_label = "sending host (the group's, in order)",
	                        .col_label = "receiving host",
	                        .n = (size_t)n,
	                        .values = v,
	                        .low_is_bad = true};
	if (v)
		svg_heatmap(b, &h);
	free(v);
}

static void where(struct html_buf *b, const cJSON *summary, size_t *bad)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(summary, "where"), *w;
	cJSON_ArrayForEach(w, arr)
	{
		const cJSON *verdicts = cJSON_GetObjectItemCaseSensitive(w, "verdicts"), *v;
		html_rawf(b, "<h4>Where: group %.0f</h4>\n", html_number(w, "group", bad));
		cJSON_ArrayForEach(v, verdicts)
		{
			const cJSON *line = cJSON_GetObjectItemCaseSensitive(v, "line");
			const cJSON *alone = cJSON_GetObjectItemCaseSensitive(v, "also_alone");
			html_para(b, cJSON_IsTrue(alone) ? "note" : "warn",
			          cJSON_IsString(line) ? line->valuestring
			                               : "(a verdict without a line)");
		}
		html_raw(b, "<div class=\"charts\">\n");
		matrix(b, w, "loaded_gbps", "host x host bandwidth under the load", bad);
		matrix(b, w, "alone_gbps", "host x host bandwidth alone", bad);
		html_raw(b, "</div>\n");
	}
}

int html_congestion(struct html_section *s)
{
	const cJSON *summary, *points = NULL;
	size_t bad = 0;
	if (report_get_object(&s->at, s->root, "summary", false, &summary) || html_context(s))
		return -1;
	if (!summary)
		return 0;
	s->at.where = "summary";
	if (report_get_array(&s->at, summary, "points", false, &points))
		return -1;
	s->at.where = "";
	html_raw(s->b, "<h3>Interference</h3>\n<div class=\"charts\">\n");
	for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++)
		if (points && factor_chart(s->b, points, &factors[i], &bad) != 0) {
			snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
			return -1;
		}
	html_raw(s->b, "</div>\n");
	where(s->b, summary, &bad);
	if (bad)
		html_rawf(s->b, "<p class=\"warn\">%zu value%s not a number and not drawn.</p>\n",
		          bad, bad == 1 ? " is" : "s are");
	html_raw(s->b, "<h3>Summary</h3>\n");
	html_summary(s->b, summary);
	return 0;
}
