/*
 * The trend section of the HTML report: the reports in time order, the
 * verdicts, what differed in the context where points stepped, and for the
 * points that stepped (worst first, as the report lists them) a chart of
 * the metric against the report's number with the levels found between the
 * steps; then every point as a table.
 *
 * A trend record is read as: "point" (string), "verdict" (string), the
 * metric's values under the key config.metric names (e.g. "p50_us") and
 * its levels under "level_" + that key, arrays with one entry per report
 * (null where a report has none), and "steps". Names must be strings; a
 * value that is not a number is not drawn.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHARTS_MAX 12

static const char *const report_columns[] = {"number", "path", "started_utc", NULL};
static const char *const result_columns[] = {"verdict", "point", "reports", "last_step_change_pct",
                                             NULL};

/* The numbers of array a into y (n entries; NAN where not a number). */
static void numbers(const cJSON *a, double *y, size_t n)
{
	size_t i = 0;

	for (const cJSON *v = cJSON_IsArray(a) ? a->child : NULL; v && i < n; v = v->next, i++)
		y[i] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	for (; i < n; i++)
		y[i] = NAN;
}

/* One point's chart: the values and the levels against the report's number (1..n). */
static void chart(struct html_buf *b, const cJSON *rec, const char *key, size_t n, double *x,
                  double *y, double *lv)
{
	char level_key[96], title[320], ylabel[120];
	const cJSON *point = cJSON_GetObjectItemCaseSensitive(rec, "point");
	const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(rec, "verdict");
	struct svg_series series[2];

	snprintf(level_key, sizeof level_key, "level_%s", key);
	numbers(cJSON_GetObjectItemCaseSensitive(rec, key), y, n);
	numbers(cJSON_GetObjectItemCaseSensitive(rec, level_key), lv, n);
	for (size_t i = 0; i < n; i++)
		x[i] = (double)(i + 1);
	snprintf(title, sizeof title, "%s: %s", cJSON_IsString(point) ? point->valuestring : "?",
	         cJSON_IsString(verdict) ? verdict->valuestring : "?");
	snprintf(ylabel, sizeof ylabel, "%s", key);
	series[0] = (struct svg_series){key, x, y, n, 0, false};
	series[1] = (struct svg_series){"level (median)", x, lv, n, 1, false};
	struct svg_chart c = {title,
	                      strstr(key, "gbps") ? "GB/s" : "us",
	                      {"report (time order)", SVG_LINEAR, false},
	                      {ylabel, SVG_LINEAR, false},
	                      series,
	                      2};
	svg_line_chart(b, &c);
}

static int charts(struct html_section *s, const cJSON *results, const char *key, size_t n)
{
	double *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
	double *lv = calloc(n + 1, sizeof *lv);
	size_t drawn = 0, stepped = 0;

	if (!x || !y || !lv) {
		free(x);
		free(y);
		free(lv);
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
		return -1;
	}
	html_raw(s->b, "<div class=\"charts\">\n");
	for (const cJSON *rec = results ? results->child : NULL; rec; rec = rec->next) {
		const cJSON *steps = cJSON_GetObjectItemCaseSensitive(rec, "steps");
		if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) == 0)
			continue;
		stepped++;
		if (drawn < CHARTS_MAX) {
			chart(s->b, rec, key, n, x, y, lv);
			drawn++;
		}
	}
	html_raw(s->b, "</div>\n");
	if (stepped == 0)
		html_para(s->b, "note", "No point stepped: every series is steady.");
	else if (stepped > drawn)
		html_rawf(s->b,
		          "<p class=\"note\">%zu points stepped; the first %zu are charted.</p>\n",
		          stepped, drawn);
	free(x);
	free(y);
	free(lv);
	return 0;
}

int html_trend(struct html_section *s)
{
	const cJSON *config, *summary, *results, *reports = NULL, *changes = NULL;
	const char *metric = NULL;
	int rc;

	if (report_get_object(&s->at, s->root, "config", false, &config) ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) ||
	    report_get_array(&s->at, s->root, "results", false, &results))
		return -1;
	s->at.where = "config";
	if (report_get_array(&s->at, config, "reports", false, &reports) ||
	    report_get_string(&s->at, config, "metric", false, &metric))
		return -1;
	s->at.where = "summary";
	if (report_get_array(&s->at, summary, "context_changes", false, &changes))
		return -1;
	s->at.where = "";
	html_raw(s->b, "<h3>Reports in time order</h3>\n");
	html_array_table(s->b, reports, report_columns, NULL, NULL);
	if (summary) {
		html_raw(s->b, "<h3>Verdicts</h3>\n");
		html_object_table(s->b, cJSON_GetObjectItemCaseSensitive(summary, "counts"));
	}
	for (const cJSON *c = changes ? changes->child : NULL; c; c = c->next) {
		const cJSON *report = cJSON_GetObjectItemCaseSensitive(c, "report");
		const cJSON *diffs = cJSON_GetObjectItemCaseSensitive(c, "differences");
		html_raw(s->b, "<h4>What differs at <code>");
		html_text(s->b, cJSON_IsString(report) ? report->valuestring : "?", 0);
		html_raw(s->b, "</code> from the report before</h4>\n");
		if (cJSON_IsArray(diffs) && cJSON_GetArraySize(diffs) > 0)
			html_array_table(s->b, diffs, NULL, NULL, NULL);
		else
			html_para(s->b, "note", "The recorded context is the same.");
	}
	html_raw(s->b, "<h3>Where points stepped</h3>\n");
	rc = charts(s, results, metric ? metric : "p50_us",
	            reports ? (size_t)cJSON_GetArraySize(reports) : 0);
	if (rc != 0)
		return rc;
	html_raw(s->b, "<h3>Every point</h3>\n");
	html_array_table(s->b, results, result_columns, "verdict", "regression");
	return html_context(s);
}
