/*
 * The campaign section of the HTML report (tests/cluster/campaign_run.py,
 * issue 39): how far collscope's verdicts can be trusted, measured by
 * injecting faults and scoring each verdict against the truth. The overall
 * figures, the confusion table by class with precision, recall and
 * attribution (each with its 95% interval), time to verdict (p50, p90 with
 * order-statistic intervals), recall against the fault's magnitude as a chart
 * and a table, then every draw.
 *
 * A campaign report is read as: summary.overall and summary.classes[] are
 * "blocks" {draws, cells {right, wrong_class, missed, healthy_accused,
 * clean_ok}, precision, recall, attribution, clean_false_accusation: each
 * {value, ci_low, ci_high, count, of}, time_to_verdict {p50_s, p90_s and
 * their _ci_low_s, _ci_high_s}}; summary.sensitivity[] {magnitude_pct,
 * draws, recall}; results[] the draws {index, class, command,
 * magnitude_pct, latency_us, load, time_to_verdict_s, score {outcome}}.
 * A member of the wrong type is an error naming it; a missing one is a dash.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAMPAIGN_LADDER_MAX 64

static const char *const cell_names[] = {"right", "wrong_class", "missed", "healthy_accused",
                                         "clean_ok"};
#define CELLS (sizeof cell_names / sizeof cell_names[0])

/* A proportion cell: 0.83 [0.55, 0.95] 5/6, or a dash when undefined. */
static int prop_cell(struct html_section *s, const cJSON *block, const char *name)
{
	const cJSON *p;
	double v = NAN, lo = NAN, hi = NAN;
	int64_t k = 0, n = 0;

	if (report_get_object(&s->at, block, name, false, &p) != 0)
		return -1;
	if (p && (report_get_number(&s->at, p, "value", false, 0, 1, &v) != 0 ||
	          report_get_number(&s->at, p, "ci_low", false, 0, 1, &lo) != 0 ||
	          report_get_number(&s->at, p, "ci_high", false, 0, 1, &hi) != 0 ||
	          report_get_integer(&s->at, p, "count", false, 0, 1e9, &k) != 0 ||
	          report_get_integer(&s->at, p, "of", false, 0, 1e9, &n) != 0))
		return -1;
	if (isnan(v))
		html_raw(s->b, "<td>&#8212;</td>");
	else
		html_rawf(s->b, "<td class=\"num\">%.2f [%.2f, %.2f] %lld/%lld</td>", v, lo, hi,
		          (long long)k, (long long)n);
	return 0;
}

/* A time percentile cell: 12.3 s [10, 15]; an end the sample cannot bound is '?'. */
static int time_cell(struct html_section *s, const cJSON *t, const char *q)
{
	char key[32], lo_key[40], hi_key[40];
	double v = NAN, lo = NAN, hi = NAN;

	snprintf(key, sizeof key, "%s_s", q);
	snprintf(lo_key, sizeof lo_key, "%s_ci_low_s", q);
	snprintf(hi_key, sizeof hi_key, "%s_ci_high_s", q);
	if (t && (report_get_number(&s->at, t, key, false, 0, 1e9, &v) != 0 ||
	          report_get_number(&s->at, t, lo_key, false, 0, 1e9, &lo) != 0 ||
	          report_get_number(&s->at, t, hi_key, false, 0, 1e9, &hi) != 0))
		return -1;
	if (isnan(v)) {
		html_raw(s->b, "<td>&#8212;</td>");
		return 0;
	}
	html_rawf(s->b, "<td class=\"num\">%.1f [", v);
	if (isnan(lo))
		html_raw(s->b, "?");
	else
		html_rawf(s->b, "%.1f", lo);
	html_raw(s->b, ", ");
	if (isnan(hi))
		html_raw(s->b, "?");
	else
		html_rawf(s->b, "%.1f", hi);
	html_raw(s->b, "]</td>");
	return 0;
}

/* One row of the confusion table: a class, or the overall figures under name. */
static int block_row(struct html_section *s, const cJSON *block, const char *name)
{
	const cJSON *cells, *t;
	int64_t draws = 0;

	if (!cJSON_IsObject(block)) {
		snprintf(s->at.err, s->at.errlen, "report '%s': %s is not an object", s->path,
		         s->at.where);
		return -1;
	}
	if (report_get_integer(&s->at, block, "draws", true, 0, 1e9, &draws) != 0 ||
	    report_get_object(&s->at, block, "cells", false, &cells) != 0 ||
	    report_get_object(&s->at, block, "time_to_verdict", false, &t) != 0)
		return -1;
	html_raw(s->b, "<tr><td>");
	html_text(s->b, name, 60);
	html_rawf(s->b, "</td><td class=\"num\">%lld</td>", (long long)draws);
	for (size_t i = 0; i < CELLS; i++) {
		int64_t k = 0;
		if (cells &&
		    report_get_integer(&s->at, cells, cell_names[i], false, 0, 1e9, &k) != 0)
			return -1;
		html_rawf(s->b, "<td class=\"num\">%lld</td>", (long long)k);
	}
	if (prop_cell(s, block, "precision") != 0 || prop_cell(s, block, "recall") != 0 ||
	    prop_cell(s, block, "attribution") != 0 ||
	    prop_cell(s, block, "clean_false_accusation") != 0 || time_cell(s, t, "p50") != 0 ||
	    time_cell(s, t, "p90") != 0)
		return -1;
	html_raw(s->b, "</tr>\n");
	return 0;
}

static int confusion(struct html_section *s, const cJSON *summary)
{
	const cJSON *overall, *classes;
	char where[REPORT_WHERE_BYTES];
	int i = 0;

	s->at.where = "summary";
	if (report_get_object(&s->at, summary, "overall", false, &overall) != 0 ||
	    report_get_array(&s->at, summary, "classes", false, &classes) != 0)
		return -1;
	html_raw(s->b,
	         "<h3>Verdicts against the truth</h3>\n<table>\n<tr><th>class</th>"
	         "<th>draws</th><th>right</th><th>right culprit, wrong class</th>"
	         "<th>missed</th><th>healthy accused</th><th>clean, nothing named</th>"
	         "<th>precision [95% CI]</th><th>recall</th><th>attribution</th>"
	         "<th>clean draws accusing</th><th>time p50 (s)</th><th>time p90 (s)</th></tr>\n");
	for (const cJSON *c = classes ? classes->child : NULL; c; c = c->next, i++) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "class");
		snprintf(where, sizeof where, "summary.classes[%d]", i);
		s->at.where = where;
		if (block_row(s, c, cJSON_IsString(name) ? name->valuestring : "?") != 0)
			return -1;
	}
	s->at.where = "summary.overall";
	if (overall && block_row(s, overall, "overall") != 0)
		return -1;
	html_raw(s->b, "</table>\n");
	s->at.where = "";
	return 0;
}

/* Recall against magnitude: the curve with its interval's ends. */
static int sensitivity(struct html_section *s, const cJSON *summary)
{
	const cJSON *sens;
	double x[CAMPAIGN_LADDER_MAX], y[CAMPAIGN_LADDER_MAX], lo[CAMPAIGN_LADDER_MAX],
	    hi[CAMPAIGN_LADDER_MAX];
	char where[REPORT_WHERE_BYTES];
	size_t n = 0;

	s->at.where = "summary";
	if (report_get_array(&s->at, summary, "sensitivity", false, &sens) != 0)
		return -1;
	if (!sens || !sens->child)
		return 0;
	for (const cJSON *p = sens->child; p && n < CAMPAIGN_LADDER_MAX; p = p->next, n++) {
		const cJSON *r;
		snprintf(where, sizeof where, "summary.sensitivity[%zu]", n);
		s->at.where = where;
		lo[n] = hi[n] = y[n] = NAN;
		if (report_get_number(&s->at, p, "magnitude_pct", true, 0, 100, &x[n]) != 0 ||
		    report_get_object(&s->at, p, "recall", true, &r) != 0 ||
		    report_get_number(&s->at, r, "value", false, 0, 1, &y[n]) != 0 ||
		    report_get_number(&s->at, r, "ci_low", false, 0, 1, &lo[n]) != 0 ||
		    report_get_number(&s->at, r, "ci_high", false, 0, 1, &hi[n]) != 0)
			return -1;
	}
	s->at.where = "";
	struct svg_series series[3] = {{"recall", x, y, n, 0, false},
	                               {"95% interval, low end", x, lo, n, 1, false},
	                               {"95% interval, high end", x, hi, n, 2, false}};
	struct svg_chart c = {
	    "recall by magnitude of the fault",
	    "",
	    {"magnitude (% less bandwidth, or more compute time)", SVG_LINEAR, true},
	    {"recall (faults found)", SVG_LINEAR, true},
	    series,
	    3};
	html_raw(s->b, "<h3>Sensitivity: recall by magnitude</h3>\n");
	svg_line_chart(s->b, &c);
	return 0;
}

/* Every draw: what was injected, what the command said. */
static int draws(struct html_section *s, const cJSON *results)
{
	static const char *const cols[] = {
	    "index",      "class", "command",          "magnitude_pct",
	    "latency_us", "load",  "time_to_verdict_s"};
	int i = 0;

	html_raw(s->b, "<h3>Draws</h3>\n<table>\n<tr>");
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
		html_rawf(s->b, "<th>%s</th>", cols[k]);
	html_raw(s->b, "<th>outcome</th></tr>\n");
	for (const cJSON *r = results ? results->child : NULL; r; r = r->next, i++) {
		const cJSON *score = cJSON_GetObjectItemCaseSensitive(r, "score");
		const cJSON *outcome = cJSON_GetObjectItemCaseSensitive(score, "outcome");
		const char *o = cJSON_IsString(outcome) ? outcome->valuestring : "run failed";
		if (i >= HTML_TABLE_MAX_ROWS) {
			html_rawf(s->b,
			          "<tr><td colspan=\"8\">... %d more draws not shown</td></tr>\n",
			          cJSON_GetArraySize(results) - i);
			break;
		}
		html_raw(s->b, strcmp(o, "healthy_accused") == 0 ? "<tr class=\"flag\">" : "<tr>");
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, cols[k]);
			html_raw(s->b, cJSON_IsNumber(v) ? "<td class=\"num\">" : "<td>");
			html_value(s->b, v, 1);
			html_raw(s->b, "</td>");
		}
		html_raw(s->b, "<td>");
		html_text(s->b, o, 60);
		html_raw(s->b, "</td></tr>\n");
	}
	html_raw(s->b, "</table>\n");
	return 0;
}

int html_campaign(struct html_section *s)
{
	const cJSON *config, *summary, *results, *context;

	if (report_get_object(&s->at, s->root, "config", false, &config) ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) ||
	    report_get_object(&s->at, s->root, "context", false, &context) ||
	    report_get_array(&s->at, s->root, "results", false, &results))
		return -1;
	html_para(s->b, "note",
	          "A fault-injection campaign: each draw planted one fault (or none) on the "
	          "virtual cluster, ran the command a user would, and scored its verdict against "
	          "the truth. Precision: of the draws that named something, those that named "
	          "nothing healthy; recall: of the faults, those whose culprit was named; "
	          "attribution: of those, named with the right class and direction.");
	if (summary && (confusion(s, summary) != 0 || sensitivity(s, summary) != 0))
		return -1;
	if (config) {
		html_raw(s->b, "<h3>Configuration</h3>\n");
		html_object_table(s->b, config);
	}
	if (context) {
		html_raw(s->b, "<h3>Context</h3>\n");
		html_object_table(s->b, context);
	}
	return draws(s, results);
}
