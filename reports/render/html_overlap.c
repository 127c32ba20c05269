/*
 * The overlap section of the HTML report (issue 32): OSU's overlap against
 * the message size, one chart per compute kind, a line per variant and
 * progress method; with --step, each variant's training step as a stacked
 * bar: the compute, the communication the step waited for (exposed) and the
 * communication the overlap hid, which together are the serial step. Then
 * the records as a table. Read leniently: a value that is not a number is
 * not drawn, and the page counts them.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SERIES_MAX 24

struct series_key {
	const char *algorithm, *progress;
};

/* One chart: OSU's overlap against size for one compute kind, a line per (variant, progress). */
static int chart(struct html_buf *b, const cJSON *results, const char *compute, size_t *bad)
{
	int n = cJSON_GetArraySize(results);
	double *x = calloc((size_t)(n ? n : 1), sizeof *x),
	       *y = calloc((size_t)(n ? n : 1), sizeof *y);
	struct series_key keys[SERIES_MAX];
	struct svg_series series[SERIES_MAX];
	char names[SERIES_MAX][64];
	size_t nkeys = 0, used = 0;
	const cJSON *r;
	if (!x || !y) {
		free(x);
		free(y);
		return -1;
	}
	cJSON_ArrayForEach(r, results) /* the series, in order of first appearance */
	{
		const char *a = html_string(r, "algorithm", NULL), *p = html_string(r, "progress", NULL),
		           *c = html_string(r, "compute", NULL);
		bool known = false;
		if (!a || !p || !c || strcmp(c, compute) != 0 || html_string(r, "skipped", NULL))
			continue;
		for (size_t i = 0; i < nkeys; i++)
			known |=
			    strcmp(keys[i].algorithm, a) == 0 && strcmp(keys[i].progress, p) == 0;
		if (!known && nkeys < SERIES_MAX)
			keys[nkeys++] = (struct series_key){a, p};
	}
	for (size_t i = 0; i < nkeys; i++) {
		size_t first = used;
		cJSON_ArrayForEach(r, results)
		{
			const char *a = html_string(r, "algorithm", NULL), *p = html_string(r, "progress", NULL),
			           *c = html_string(r, "compute", NULL);
			if (a && p && c && !strcmp(a, keys[i].algorithm) &&
			    !strcmp(p, keys[i].progress) && !strcmp(c, compute) &&
			    !html_string(r, "skipped", NULL)) {
				x[used] = html_number(r, "bytes", bad);
				y[used++] = html_number(r, "overlap_osu_percent", bad);
			}
		}
		snprintf(names[i], sizeof names[i], "%s, progress %s", keys[i].algorithm,
		         keys[i].progress);
		series[i] = (struct svg_series){.name = names[i],
		                                .x = x + first,
		                                .y = y + first,
		                                .n = used - first,
		                                .color = (int)i};
	}
	char title[96];
	snprintf(title, sizeof title, "overlap (OSU) beside %s compute", compute);
	struct svg_chart c = {.title = title,
	                      .unit = "%",
	                      .x = {"message size (bytes, log2 scale)", SVG_LOG2_BYTES, false},
	                      .y = {"overlap (% of the call hidden)", SVG_LINEAR, true},
	                      .series = series,
	                      .nseries = nkeys};
	if (nkeys)
		svg_line_chart(b, &c);
	free(x);
	free(y);
	return 0;
}

/* One stacked bar: compute, exposed, hidden, scaled to the widest serial step. */
static void bar(struct html_buf *b, const cJSON *s, double widest, int row, size_t *bad)
{
	const double compute = html_number(s, "compute_us", bad), exposed = html_number(s, "exposed_us", bad),
	             serial = html_number(s, "serial_us", bad), step = html_number(s, "step_us", bad);
	const double hidden = serial - step, scale = 560 / widest, y = 24.0 + 26 * row;
	const char *a = html_string(s, "algorithm", NULL), *c = html_string(s, "compute", NULL);
	html_rawf(b, "<text x=\"0\" y=\"%.0f\" font-size=\"11\">", y + 14);
	html_text(b, a ? a : "?", 24);
	html_raw(b, " ");
	html_text(b, c ? c : "?", 12);
	html_raw(b, "</text>\n");
	if (!isfinite(compute) || !isfinite(exposed) || !isfinite(hidden))
		return;
	const struct {
		double v;
		const char *color, *what;
	} parts[] = {{compute, "#4c72b0", "compute"},
	             {fmax(0, exposed), "#c44e52", "exposed"},
	             {fmax(0, hidden), "#55a868", "hidden"}};
	double at = 150;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		html_rawf(b,
		          "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"18\" fill=\"%s\">"
		          "<title>%s %.0f us</title></rect>\n",
		          at, y, parts[i].v * scale, parts[i].color, parts[i].what, parts[i].v);
		at += parts[i].v * scale;
	}
}

static void steps(struct html_buf *b, const cJSON *summary, size_t *bad)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(summary, "steps"), *s;
	double widest = 0;
	int rows = 0;
	cJSON_ArrayForEach(s, arr)
	{
		double serial = html_number(s, "serial_us", bad);
		if (isfinite(serial) && serial > widest)
			widest = serial;
		rows++;
	}
	if (!rows || widest <= 0)
		return;
	html_raw(b, "<h3>Training step</h3>\n");
	html_para(b, "note",
	          "Each bar is the serial step (compute, then every bucket's all-reduce): blue the "
	          "compute, red what the overlapped step still waited for (exposed), green what "
	          "the overlap hid. The overlapped step is blue and red.");
	html_rawf(b,
	          "<svg class=\"chart\" width=\"720\" height=\"%d\" viewBox=\"0 0 720 %d\" "
	          "role=\"img\"><title>the training step, stacked</title>\n",
	          40 + 26 * rows, 40 + 26 * rows);
	int row = 0;
	cJSON_ArrayForEach(s, arr) bar(b, s, widest, row++, bad);
	html_raw(b, "</svg>\n");
}

int html_overlap(struct html_section *s)
{
	const cJSON *results, *summary;
	size_t bad = 0;
	if (report_get_array(&s->at, s->root, "results", false, &results) ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) || html_context(s))
		return -1;
	html_raw(s->b, "<h3>Overlap</h3>\n<div class=\"charts\">\n");
	for (int k = 0; results && k < 2; k++)
		if (chart(s->b, results, k ? "stream" : "gemm", &bad) != 0) {
			snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
			return -1;
		}
	html_raw(s->b, "</div>\n");
	if (summary)
		steps(s->b, summary, &bad);
	if (bad)
		html_rawf(s->b, "<p class=\"warn\">%zu value%s not a number and not drawn.</p>\n",
		          bad, bad == 1 ? " is" : "s are");
	if (summary) {
		html_raw(s->b, "<h3>Summary</h3>\n");
		html_summary(s->b, summary);
	}
	if (results)
		html_array_table(s->b, results, NULL, NULL, NULL);
	return 0;
}
