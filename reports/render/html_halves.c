/*
 * The halves of a traced all-reduce in the allreduce section: for reports
 * made with --trace, per point whose schedule has both halves (ring,
 * rabenseifner: results[].trace.halves, reports/diagnose/halves.c), the time
 * of its reduce-scatter and of its all-gather beside the whole call's p50.
 * The halves are medians over the traced iterations and the whole p50 is
 * the untraced sweep's, so the two need not add up exactly.
 */
#include "reports/render/html_sections.h"

#include "reports/io/report_schema.h"
#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>

struct halves_row {
	const char *algorithm;
	int64_t bytes, ranks, iterations;
	double p50_us, reduce_scatter_us, allgather_us, share;
};

/*
 * The row of record rec (results[i]) into *r: 0, 1 when it has no halves,
 * or -1 (err set) for a field of the wrong type.
 */
static int read_row(struct html_section *s, const cJSON *rec, size_t i, struct halves_row *r)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = s->at;
	const cJSON *trace = NULL, *halves = NULL, *time = NULL;

	at.where = where;
	*r = (struct halves_row){.iterations = -1, .p50_us = NAN};
	snprintf(where, sizeof where, "results[%zu]", i);
	if (report_get_object(&at, rec, SK_AR_TRACE, false, &trace) != 0)
		return -1;
	snprintf(where, sizeof where, "results[%zu].trace", i);
	if (trace && report_get_object(&at, trace, SK_TRACE_HALVES, false, &halves) != 0)
		return -1;
	if (!halves)
		return 1;
	snprintf(where, sizeof where, "results[%zu]", i);
	if (report_get_string(&at, rec, SK_AR_ALGORITHM, true, &r->algorithm) != 0 ||
	    report_get_integer(&at, rec, SK_AR_BYTES, true, 0, 9e15, &r->bytes) != 0 ||
	    report_get_integer(&at, rec, SK_AR_RANKS, true, 1, 1e9, &r->ranks) != 0 ||
	    report_get_object(&at, rec, SK_AR_TIME_US, false, &time) != 0)
		return -1;
	snprintf(where, sizeof where, "results[%zu].time_us", i);
	if (time && report_get_number(&at, time, SK_TIME_P50, false, 0, 1e15, &r->p50_us) != 0)
		return -1;
	snprintf(where, sizeof where, "results[%zu].trace.halves", i);
	if (report_get_number(&at, halves, SK_HALVES_REDUCE_SCATTER_US, false, 0, 1e15,
	                      &r->reduce_scatter_us) != 0 ||
	    report_get_number(&at, halves, SK_HALVES_ALLGATHER_US, false, 0, 1e15,
	                      &r->allgather_us) != 0 ||
	    report_get_number(&at, halves, SK_HALVES_REDUCE_SCATTER_SHARE, false, 0, 1,
	                      &r->share) != 0 ||
	    report_get_integer(&at, halves, SK_HALVES_ITERATIONS, false, 0, 9e15, &r->iterations) !=
	        0)
		return -1;
	return 0;
}

/* A time or a share as a cell; an undefined one (null) as a dash. */
static void cell(struct html_buf *b, double v, const char *fmt)
{
	if (isfinite(v))
		html_rawf(b, fmt, v);
	else
		html_raw(b, "<td class=\"num\">&#8212;</td>");
}

static void row(struct html_buf *b, const struct halves_row *r)
{
	char size[32];

	svg_format_bytes((double)r->bytes, size, sizeof size);
	html_raw(b, "<tr><td>");
	html_text(b, r->algorithm, 60);
	html_rawf(b, "</td><td class=\"num\">%s</td><td class=\"num\">%lld</td>", size,
	          (long long)r->ranks);
	cell(b, r->p50_us, "<td class=\"num\">%.2f</td>");
	cell(b, r->reduce_scatter_us, "<td class=\"num\">%.2f</td>");
	cell(b, r->allgather_us, "<td class=\"num\">%.2f</td>");
	cell(b, 100 * r->share, "<td class=\"num\">%.0f%%</td>");
	if (r->iterations >= 0)
		html_rawf(b, "<td class=\"num\">%lld</td></tr>\n", (long long)r->iterations);
	else
		html_raw(b, "<td class=\"num\">&#8212;</td></tr>\n");
}

int html_halves(struct html_section *s)
{
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(s->root, "results"), *rec;
	struct halves_row r;
	size_t i = 0, n = 0;
	int rc;

	cJSON_ArrayForEach(rec, results)
	{
		rc = read_row(s, rec, i++, &r);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		if (n++ == 0) {
			html_raw(s->b, "<h3>The all-reduce's halves (--trace)</h3>\n");
			html_para(
			    s->b, "note",
			    "Per traced iteration, the reduce-scatter runs from the first step's "
			    "start to the last rank's last reduce-scatter step, the all-gather "
			    "from there to the end; medians over the iterations. The whole call's "
			    "p50 is the sweep's, untraced.");
			html_raw(s->b,
			         "<table>\n<tr><th>variant</th><th>size</th><th>ranks</th>"
			         "<th>all-reduce p50 (µs)</th><th>reduce-scatter half (µs)</th>"
			         "<th>all-gather half (µs)</th><th>reduce-scatter share</th>"
			         "<th>iterations</th></tr>\n");
		}
		if (n <= HTML_TABLE_MAX_ROWS)
			row(s->b, &r);
	}
	if (n)
		html_raw(s->b, "</table>\n");
	if (n > HTML_TABLE_MAX_ROWS)
		html_rawf(s->b, "<p class=\"note\">%zu more points with halves not shown.</p>\n",
		          n - HTML_TABLE_MAX_ROWS);
	return 0;
}
