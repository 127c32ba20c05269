/*
 * The allreduce section of the HTML report: per collective (the all-reduce,
 * or a half that --collective measured) and configuration (dtype, op, ranks,
 * in place), busbw, p50 and p99 time against message size on a log2 axis,
 * one series per variant; the variants' verdicts, skipped points and the
 * halves of a traced all-reduce (html_halves.c).
 *
 * Collectives are never charted together (a report may mix them: compare's
 * inputs, hand-made files): a series joins the points of one (collective,
 * variant) only, and each chart names its collective and the bus factor of
 * its busbw, which differs (nccl-tests': 2(n-1)/n for the all-reduce,
 * (n-1)/n for a half).
 */
#include "reports/render/html_sections.h"

#include "algorithms/variant.h"
#include "reports/compare/compare_points.h"
#include "reports/io/report_schema.h"
#include "reports/render/svg.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS_MAX      8 /* configurations charted; more are listed as not charted */
#define OTHER_NAMES_MAX 4 /* collectives this build does not know, named in a heading */

/* The series of one configuration: x and the three metrics share one index space. */
struct group_data {
	struct svg_series *series[CMP_METRICS];
	double *x, *y[CMP_METRICS];
	size_t nseries, npoints;
};

static bool same_group(const struct cmp_point *a, const struct cmp_point *b)
{
	return strcmp(a->collective, b->collective) == 0 && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->ranks == b->ranks && a->in_place == b->in_place;
}

/* The collective's title, or its name as recorded when this build does not know it. */
static const char *title_of(const char *collective)
{
	enum ar_collective c = ar_collective_of(collective);
	return c < AR_COLLECTIVES ? ar_collective_titles[c] : collective;
}

static void group_release(struct group_data *d)
{
	for (int m = 0; m < CMP_METRICS; m++) {
		free(d->series[m]);
		free(d->y[m]);
	}
	free(d->x);
}

/*
 * The measured points of g's configuration. Points are sorted by algorithm
 * first and bytes last, so one variant's points of one configuration are
 * consecutive and ascending in bytes: a series starts where the variant changes.
 */
static int group_collect(const struct cmp_run *run, const struct cmp_point *g, struct group_data *d)
{
	const char *prev = NULL;

	memset(d, 0, sizeof *d);
	d->x = calloc(run->npoints + 1, sizeof *d->x);
	for (int m = 0; m < CMP_METRICS; m++) {
		d->y[m] = calloc(run->npoints + 1, sizeof *d->y[m]);
		d->series[m] = calloc(run->npoints + 1, sizeof *d->series[m]);
		if (!d->y[m] || !d->series[m])
			return -1;
	}
	if (!d->x)
		return -1;
	for (size_t i = 0; i < run->npoints; i++) {
		const struct cmp_point *p = &run->points[i];
		if (p->skipped || !same_group(p, g))
			continue;
		if (!prev || strcmp(prev, p->algorithm) != 0)
			d->nseries++;
		prev = p->algorithm;
		d->x[d->npoints] = (double)p->bytes;
		for (int m = 0; m < CMP_METRICS; m++) {
			struct svg_series *s = &d->series[m][d->nseries - 1];
			d->y[m][d->npoints] = p->value[m];
			if (s->n++ == 0) {
				*s = (struct svg_series){p->algorithm,         &d->x[d->npoints],
				                         &d->y[m][d->npoints], 1,
				                         (int)d->nseries - 1,  false};
			}
		}
		d->npoints++;
	}
	return 0;
}

static void group_charts(struct html_buf *b, const struct cmp_point *g, struct group_data *d)
{
	static const char *const what[CMP_METRICS] = {"p50 time", "p99 time", "busbw"};
	static const int order[CMP_METRICS] = {CMP_BW, CMP_P50, CMP_P99};
	enum ar_collective coll = ar_collective_of(g->collective);
	const char *name = title_of(g->collective);
	char title[CMP_LABEL_BYTES + 96], ylabel[CMP_LABEL_BYTES + 64];
	size_t undefined_p99 = 0;

	html_raw(b, "<div class=\"charts\">\n");
	for (int k = 0; k < CMP_METRICS; k++) {
		int m = order[k];
		snprintf(title, sizeof title, "%.60s %s vs message size: %s %s, %lld ranks%s", name,
		         what[m], g->dtype, g->op, (long long)g->ranks,
		         g->in_place ? ", in place" : "");
		if (m == CMP_BW && coll < AR_COLLECTIVES)
			snprintf(ylabel, sizeof ylabel, "%s busbw (GB/s) = algbw × %s", name,
			         ar_collective_bus_formula(coll));
		else if (m == CMP_BW)
			snprintf(ylabel, sizeof ylabel, "%.60s busbw (GB/s), as recorded", name);
		else
			snprintf(ylabel, sizeof ylabel, "%.60s %.3s per call (µs, log scale)", name,
			         what[m]);
		struct svg_chart c = {
		    .title = title,
		    .unit = m == CMP_BW ? "GB/s" : "µs",
		    .x = {"message size (bytes, log2 scale)", SVG_LOG2_BYTES, false},
		    .y = {ylabel, m == CMP_BW ? SVG_LINEAR : SVG_LOG10, m == CMP_BW},
		    .series = d->series[m],
		    .nseries = d->nseries,
		};
		svg_line_chart(b, &c);
	}
	html_raw(b, "</div>\n");
	for (size_t i = 0; i < d->npoints; i++)
		undefined_p99 += isfinite(d->y[CMP_P50][i]) && !isfinite(d->y[CMP_P99][i]);
	if (undefined_p99)
		html_para(b, "note",
		          "p99 is drawn only where a point has at least 100 samples "
		          "(a q-quantile needs at least 1 / (1 - q) samples).");
}

/*
 * Where a collective's charts start: what it measures and the bus factor of
 * its busbw. The enum's order comes first, collectives this build does not
 * know after, in the report's order.
 */
static void collective_heading(struct html_buf *b, const char *collective)
{
	enum ar_collective c = ar_collective_of(collective);
	char cap[32];

	if (c == AR_COLLECTIVES) {
		html_raw(b, "<h3>Collective ‘");
		html_text(b, collective, 60);
		html_raw(b, "’: bandwidth and latency against message size</h3>\n");
		html_para(b, "note",
		          "busbw as recorded: this build does not know this collective "
		          "or its bus factor.");
		return;
	}
	snprintf(cap, sizeof cap, "%s", ar_collective_titles[c]);
	cap[0] = (char)toupper((unsigned char)cap[0]);
	html_rawf(b, "<h3>%s: bandwidth and latency against message size</h3>\n", cap);
	if (c == AR_ALLREDUCE)
		html_para(b, "note",
		          "busbw = algbw × 2(n-1)/n, nccl-tests' bus factor of the all-reduce.");
	else
		html_rawf(b,
		          "<p class=\"note\">busbw = algbw × %s, nccl-tests' bus factor of a %s "
		          "(half of an all-reduce's traffic); sizes are the whole buffer "
		          "(nccl-tests' size), of which each rank %s a chunk.</p>\n",
		          ar_collective_bus_formula(c), ar_collective_titles[c],
		          c == AR_REDUCE_SCATTER ? "keeps" : "contributes");
}

/* The groups in the collectives' order (stable: within one, the report's). */
static void order_groups(const struct cmp_point **g, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && ar_collective_of(g[k - 1]->collective) >
		                                ar_collective_of(g[k]->collective);
		     k--) {
			const struct cmp_point *t = g[k];
			g[k] = g[k - 1];
			g[k - 1] = t;
		}
}

static int charts(struct html_buf *b, const struct cmp_run *run)
{
	const struct cmp_point *groups[GROUPS_MAX];
	size_t ngroups = 0, more = 0;
	struct group_data d;
	int rc = 0;

	for (size_t i = 0; i < run->npoints; i++) {
		size_t k = 0;
		while (k < ngroups && !same_group(groups[k], &run->points[i]))
			k++;
		if (k == ngroups && ngroups < GROUPS_MAX)
			groups[ngroups++] = &run->points[i];
		else if (k == ngroups)
			more++;
	}
	order_groups(groups, ngroups);
	for (size_t k = 0; k < ngroups && rc == 0; k++) {
		if (k == 0 || strcmp(groups[k - 1]->collective, groups[k]->collective) != 0)
			collective_heading(b, groups[k]->collective);
		rc = group_collect(run, groups[k], &d);
		if (rc == 0)
			group_charts(b, groups[k], &d);
		group_release(&d);
	}
	if (more)
		html_para(
		    b, "note",
		    "More configurations (collective, dtype, op, ranks) than this page charts: "
		    "the first 8 are shown.");
	return rc;
}

static void skipped(struct html_buf *b, const struct cmp_run *run)
{
	char label[CMP_LABEL_BYTES];
	size_t n = 0;

	for (size_t i = 0; i < run->npoints; i++) {
		const struct cmp_point *p = &run->points[i];
		if (!p->skipped)
			continue;
		if (n++ == 0)
			html_raw(b, "<h3>Skipped points</h3>\n<table>\n<tr><th>point</th>"
			            "<th>reason</th></tr>\n");
		cmp_point_label(run, p, label, sizeof label);
		html_raw(b, "<tr><td>");
		html_text(b, label, 0);
		html_raw(b, "</td><td>");
		html_text(b, p->skipped, 0);
		html_raw(b, "</td></tr>\n");
	}
	if (n)
		html_raw(b, "</table>\n");
}

static const char *const variant_columns[] = {
    "algorithm",
    "peak_busbw_gbps",
    "peak_busbw_bytes",
    "busbw_at_max_bytes_gbps",
    "points",
    "skipped",
    "wrong",
    NULL,
};

static void verdicts(struct html_section *s)
{
	const cJSON *summary = cJSON_GetObjectItemCaseSensitive(s->root, "summary");
	const cJSON *variants = cJSON_GetObjectItemCaseSensitive(summary, "variants");
	const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(summary, "verdict");
	const cJSON *below = cJSON_GetObjectItemCaseSensitive(summary, "below_min_busbw");

	html_raw(s->b, "<h3>Verdicts</h3>\n");
	if (cJSON_IsString(verdict)) {
		html_raw(s->b, "<p>Verdict: <strong>");
		html_text(s->b, verdict->valuestring, 80);
		html_raw(s->b, "</strong></p>\n");
	}
	html_array_table(s->b, variants, variant_columns, NULL, NULL);
	if (cJSON_IsArray(below) && below->child) {
		html_raw(s->b, "<p class=\"warn\">Below --min-busbw: ");
		html_value(s->b, below, 0);
		html_raw(s->b, "</p>\n");
	}
}

int html_allreduce(struct html_section *s)
{
	struct cmp_run run;
	int rc = -1;

	if (cmp_run_load(&run, s->path, s->root, s->at.err, s->at.errlen) != 0)
		return -1;
	if (html_context(s) != 0)
		goto out;
	verdicts(s);
	if (charts(s->b, &run) != 0) {
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
		goto out;
	}
	skipped(s->b, &run);
	if (html_compressed(s->b, s->root) != 0) {
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
		goto out;
	}
	rc = html_halves(s) == 0 ? html_trace(s) : -1;
out:
	cmp_run_release(&run);
	return rc;
}

static bool listed(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

void html_collectives(struct html_buf *b, const cJSON *root)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(root, "command"), *rec;
	const char *other[OTHER_NAMES_MAX] = {NULL};
	bool seen[AR_COLLECTIVES] = {false};
	size_t nother = 0, n = 0;

	if (!cJSON_IsString(cmd) || strcmp(cmd->valuestring, "allreduce") != 0)
		return;
	cJSON_ArrayForEach(rec, cJSON_GetObjectItemCaseSensitive(root, "results"))
	{
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(rec, SK_AR_COLLECTIVE);
		const char *name = cJSON_IsString(c) ? c->valuestring : "allreduce";
		enum ar_collective k = ar_collective_of(name);
		if (k < AR_COLLECTIVES)
			seen[k] = true;
		else if (nother < OTHER_NAMES_MAX && !listed(other, nother, name))
			other[nother++] = name;
	}
	if (!seen[AR_REDUCE_SCATTER] && !seen[AR_ALLGATHER] && nother == 0)
		return; /* the all-reduce alone, as every report before the halves */
	html_raw(b, " (");
	for (int k = 0; k < AR_COLLECTIVES; k++)
		if (seen[k]) {
			html_raw(b, n++ ? ", " : "");
			html_raw(b, ar_collective_titles[k]);
		}
	for (size_t i = 0; i < nother; i++) {
		html_raw(b, n++ ? ", " : "");
		html_text(b, other[i], 40);
	}
	html_raw(b, ")");
}
