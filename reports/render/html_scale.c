/*
 * The scale section of the HTML report: against the rank count, one chart
 * per metric and message size, one colour per variant; measured rows solid,
 * predicted rows ("predicted": true) dashed with hollow markers, so the two
 * are never confused.
 *
 * A scale record is read as: "algorithm" (or "variant"), "ranks" (or "n"),
 * "bytes", "predicted", and the metrics of METRICS below
 * ("bandwidth_efficiency" always; "efficiency", "speedup", "strong_speedup"
 * when the run modelled a training step). Names and counts must have their
 * types; a metric that is not a number is not drawn, and the page says how
 * many were left out. A metric no row of a size has is not charted.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZES_MAX 4 /* the largest message sizes are charted */

static const struct scale_metric {
	const char *key, *what, *ylabel, *unit;
} metrics[] = {
	{"bandwidth_efficiency", "bandwidth efficiency", "busbw(n) / busbw(smallest n)", ""},
	{"efficiency", "scaling efficiency (weak)", "efficiency (fraction of ideal)", ""},
	{"speedup", "speedup (weak)", "speedup (x)", "x"},
	{"strong_speedup", "speedup (strong scaling)", "speedup (x)", "x"},
};
#define NMETRICS (sizeof metrics / sizeof metrics[0])

struct scale_row {
	const char *variant;
	int64_t bytes, ranks;
	double value[NMETRICS]; /* NAN when absent, null or not a number */
	bool predicted;
};

struct scale_data {
	struct scale_row *rows;
	size_t n, not_numbers;
};

static double lenient_number(const cJSON *rec, const char *name, size_t *not_numbers)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, name);

	if (cJSON_IsNumber(v))
		return v->valuedouble;
	*not_numbers += v && !cJSON_IsNull(v);
	return NAN;
}

static int load_row(const struct report_at *at, const cJSON *rec, struct scale_row *r,
                    size_t *not_numbers)
{
	const char *name =
	    cJSON_GetObjectItemCaseSensitive(rec, "algorithm") ? "algorithm" : "variant";
	const char *count = cJSON_GetObjectItemCaseSensitive(rec, "ranks") ? "ranks" : "n";

	r->bytes = -1;
	r->predicted = false;
	if (report_get_string(at, rec, name, true, &r->variant) ||
	    report_get_integer(at, rec, count, true, 1, 2147483647.0, &r->ranks) ||
	    report_get_integer(at, rec, "bytes", false, 0, DBL_MAX, &r->bytes) ||
	    report_get_bool(at, rec, "predicted", false, &r->predicted))
		return -1;
	for (size_t m = 0; m < NMETRICS; m++)
		r->value[m] = lenient_number(rec, metrics[m].key, not_numbers);
	return 0;
}

/* Larger sizes first; then variant, measured before predicted, ranks ascending. */
static int row_order(const void *pa, const void *pb)
{
	const struct scale_row *x = pa, *y = pb;
	int c = (x->bytes < y->bytes) - (x->bytes > y->bytes);

	if (!c)
		c = strcmp(x->variant, y->variant);
	if (!c)
		c = (int)x->predicted - (int)y->predicted;
	if (!c)
		c = (x->ranks > y->ranks) - (x->ranks < y->ranks);
	return c;
}

static int load(struct html_section *s, const cJSON *results, struct scale_data *d)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = s->at;
	size_t i = 0;

	at.where = where;
	d->rows = calloc((size_t)cJSON_GetArraySize(results) + 1, sizeof *d->rows);
	if (!d->rows) {
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
		return -1;
	}
	for (const cJSON *rec = results ? results->child : NULL; rec; rec = rec->next, i++) {
		snprintf(where, sizeof where, "results[%zu]", i);
		if (!cJSON_IsObject(rec)) {
			snprintf(s->at.err, s->at.errlen, "report '%s': %s is not an object",
			         s->path, where);
			return -1;
		}
		if (cJSON_GetObjectItemCaseSensitive(rec, "skipped"))
			continue;
		if (load_row(&at, rec, &d->rows[d->n], &d->not_numbers) != 0)
			return -1;
		d->n++;
	}
	qsort(d->rows, d->n, sizeof *d->rows, row_order);
	return 0;
}

/* Whether any row of [from, to) has metric m. */
static bool has_metric(const struct scale_data *d, size_t from, size_t to, size_t m)
{
	for (size_t i = from; i < to; i++)
		if (isfinite(d->rows[i].value[m]))
			return true;
	return false;
}

/* The series of metric m over rows [from, to): one per (variant, predicted). */
static size_t series_of(const struct scale_data *d, size_t from, size_t to, size_t m,
			struct svg_series *series, double *x, double *y)
{
	size_t ns = 0;
	int color = -1;

	for (size_t i = from; i < to; i++) {
		const struct scale_row *r = &d->rows[i];
		bool new_variant = i == from || strcmp(r->variant, d->rows[i - 1].variant) != 0;
		color += new_variant;
		if (new_variant || r->predicted != d->rows[i - 1].predicted)
			series[ns++] = (struct svg_series){r->variant, &x[i - from], &y[i - from],
							   0, color, r->predicted};
		x[i - from] = (double)r->ranks;
		y[i - from] = r->value[m];
		series[ns - 1].n++;
	}
	return ns;
}

/* The rows [from, to) share one size: a chart per metric that some row has. */
static int size_charts(struct html_buf *b, const struct scale_data *d, size_t from, size_t to)
{
	char title[160], size[32];
	struct svg_series *series = calloc(to - from, sizeof *series);
	double *x = calloc(to - from, sizeof *x), *y = calloc(to - from, sizeof *y);
	int rc = series && x && y ? 0 : -1;

	if (d->rows[from].bytes >= 0)
		svg_format_bytes((double)d->rows[from].bytes, size, sizeof size);
	else
		snprintf(size, sizeof size, "all sizes");
	for (size_t m = 0; m < NMETRICS && rc == 0; m++) {
		if (!has_metric(d, from, to, m))
			continue;
		snprintf(title, sizeof title, "%s vs ranks: %s", metrics[m].what, size);
		struct svg_chart c = {title,
				      metrics[m].unit,
				      {"ranks (log2 scale)", SVG_LOG2, false},
				      {metrics[m].ylabel, SVG_LINEAR, true},
				      series,
				      series_of(d, from, to, m, series, x, y)};
		svg_line_chart(b, &c);
	}
	free(series);
	free(x);
	free(y);
	return rc;
}

static int charts(struct html_section *s, const struct scale_data *d)
{
	size_t from = 0, sizes = 0;

	html_raw(s->b, "<h3>Scaling against the rank count</h3>\n<p class=\"note\">Solid lines "
	               "and filled markers are measured; dashed lines and hollow markers are "
	               "predicted by the cost model.</p>\n");
	while (from < d->n && sizes < SIZES_MAX) {
		size_t to = from + 1;
		while (to < d->n && d->rows[to].bytes == d->rows[from].bytes)
			to++;
		html_raw(s->b, "<div class=\"charts\">\n");
		if (size_charts(s->b, d, from, to) != 0) {
			snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
			return -1;
		}
		html_raw(s->b, "</div>\n");
		from = to;
		sizes++;
	}
	if (from < d->n)
		html_para(s->b, "note", "Only the 4 largest message sizes are charted.");
	if (d->not_numbers)
		html_rawf(s->b,
		          "<p class=\"warn\">%zu efficiency or speedup value%s not a number "
		          "and not drawn.</p>\n",
		          d->not_numbers, d->not_numbers == 1 ? " is" : "s are");
	return 0;
}

int html_scale(struct html_section *s)
{
	struct scale_data d = {0};
	const cJSON *results, *summary;
	int rc = -1;

	if (report_get_array(&s->at, s->root, "results", false, &results) ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) || html_context(s))
		return -1;
	if (summary) {
		html_raw(s->b, "<h3>Verdicts</h3>\n");
		html_summary(s->b, summary);
	}
	if (load(s, results, &d) == 0 && charts(s, &d) == 0)
		rc = html_trace(s);
	free(d.rows);
	return rc;
}
