/*
 * The links section of the HTML report: rank-to-rank heatmaps of p50
 * bandwidth and latency with the suspects marked (a suspect link outlined,
 * the ranks of a suspect host in red), and the detector's tables.
 */
#include "reports/render/html_sections.h"

#include "reports/compare/compare_points.h"
#include "reports/diagnose/detect.h"
#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEATMAP_RANKS_MAX 128 /* n^2 cells: past this the page would be too heavy */

struct links_maps {
	size_t n;
	double *bw, *lat;               /* n x n */
	bool *bw_marked, *lat_marked;   /* n x n */
	bool *ranks_marked;             /* n */
	const char **bw_tip, **lat_tip; /* n x n: the reason of a suspect, borrowed */
};

static void maps_release(struct links_maps *m)
{
	free(m->bw);
	free(m->lat);
	free(m->bw_marked);
	free(m->lat_marked);
	free(m->ranks_marked);
	free(m->bw_tip);
	free(m->lat_tip);
}

static int maps_fill(struct links_maps *m, const struct cmp_run *run)
{
	size_t cells = m->n * m->n;

	m->bw = malloc(cells * sizeof *m->bw);
	m->lat = malloc(cells * sizeof *m->lat);
	m->bw_marked = calloc(cells, sizeof *m->bw_marked);
	m->lat_marked = calloc(cells, sizeof *m->lat_marked);
	m->ranks_marked = calloc(m->n, sizeof *m->ranks_marked);
	m->bw_tip = calloc(cells, sizeof *m->bw_tip);
	m->lat_tip = calloc(cells, sizeof *m->lat_tip);
	if (!m->bw || !m->lat || !m->bw_marked || !m->lat_marked || !m->ranks_marked ||
	    !m->bw_tip || !m->lat_tip)
		return -1;
	for (size_t k = 0; k < cells; k++)
		m->bw[k] = m->lat[k] = NAN;
	for (size_t i = 0; i < run->npoints; i++) {
		const struct cmp_point *p = &run->points[i];
		size_t k = (size_t)p->a * m->n + (size_t)p->b;
		if (p->skipped)
			continue;
		m->bw[k] = p->value[CMP_BW];
		m->lat[k] = p->value[CMP_P50];
	}
	return 0;
}

/*
 * A host suspect marks every rank seen on that host. The (host, rank) ends
 * of the pairs are sorted once by host; a suspect's host is found by binary
 * search and its ranks are marked the first time only, so that S suspects
 * over P pairs cost O((P + S) log P), not S x P string comparisons (a
 * report of 1e5 host suspects took 14 s).
 */
struct host_rank {
	const char *host;
	int64_t rank;
};

struct host_index {
	struct host_rank *ends; /* 2 per pair with both hosts known, sorted by host */
	bool *done;             /* per entry: the first of its host, already marked */
	size_t n;
};

static int host_rank_order(const void *pa, const void *pb)
{
	return strcmp(((const struct host_rank *)pa)->host, ((const struct host_rank *)pb)->host);
}

static int host_index_build(struct host_index *x, const struct cmp_run *run)
{
	x->n = 0;
	x->ends = malloc((2 * run->npoints + 1) * sizeof *x->ends);
	x->done = calloc(2 * run->npoints + 1, sizeof *x->done);
	if (!x->ends || !x->done)
		return -1;
	for (size_t i = 0; i < run->npoints; i++) {
		const struct cmp_point *p = &run->points[i];
		if (p->host_a)
			x->ends[x->n++] = (struct host_rank){p->host_a, p->a};
		if (p->host_b)
			x->ends[x->n++] = (struct host_rank){p->host_b, p->b};
	}
	qsort(x->ends, x->n, sizeof *x->ends, host_rank_order);
	return 0;
}

static void host_index_release(struct host_index *x)
{
	free(x->ends);
	free(x->done);
}

static void mark_host(struct links_maps *m, struct host_index *x, const char *host)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) { /* the first entry not before host */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(x->ends[mid].host, host) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == x->n || x->done[lo] || strcmp(x->ends[lo].host, host) != 0)
		return;
	x->done[lo] = true;
	for (size_t i = lo; i < x->n && strcmp(x->ends[i].host, host) == 0; i++)
		m->ranks_marked[x->ends[i].rank] = true;
}

/* summary.suspects onto the maps; -1 naming a field of the wrong type. */
static int mark_suspects(struct html_section *s, struct links_maps *m, const struct cmp_run *run,
                         const cJSON *suspects)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = s->at;
	struct host_index hosts;
	size_t i = 0;
	int rc = -1;

	at.where = where;
	if (host_index_build(&hosts, run) != 0) {
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
		goto out;
	}
	for (const cJSON *x = suspects ? suspects->child : NULL; x; x = x->next, i++) {
		const char *kind = NULL, *who = NULL, *metric = NULL, *reason = NULL;
		int64_t a = -1, b = -1;
		snprintf(where, sizeof where, "summary.suspects[%zu]", i);
		if (report_get_string(&at, x, "kind", true, &kind) ||
		    report_get_string(&at, x, "who", false, &who) ||
		    report_get_string(&at, x, "metric", false, &metric) ||
		    report_get_string(&at, x, "reason", false, &reason) ||
		    report_get_integer(&at, x, "a", false, 0, (double)m->n - 1, &a) ||
		    report_get_integer(&at, x, "b", false, 0, (double)m->n - 1, &b))
			goto out;
		enum detect_kind k = DETECT_SEGMENT; /* an unknown kind marks nothing */
		enum detect_metric mt = DETECT_BANDWIDTH;
		detect_kind_parse(kind, &k);
		detect_metric_parse(metric, &mt);
		if (k == DETECT_HOST && who) {
			mark_host(m, &hosts, who);
		} else if (k == DETECT_LINK && a >= 0 && b >= 0) {
			bool lat = mt == DETECT_LATENCY;
			size_t k = (size_t)a * m->n + (size_t)b;
			(lat ? m->lat_marked : m->bw_marked)[k] = true;
			(lat ? m->lat_tip : m->bw_tip)[k] = reason;
		}
	}
	rc = 0;
out:
	host_index_release(&hosts);
	return rc;
}

static void heatmaps(struct html_buf *b, const struct links_maps *m)
{
	struct svg_heatmap bw = {
	    .title = "p50 bandwidth from rank to rank (GB/s)",
	    .unit = "GB/s",
	    .row_label = "sending rank",
	    .col_label = "receiving rank",
	    .n = m->n,
	    .values = m->bw,
	    .marked = m->bw_marked,
	    .marked_ranks = m->ranks_marked,
	    .tooltips = m->bw_tip,
	    .low_is_bad = true,
	};
	struct svg_heatmap lat = bw;

	lat.title = "p50 one-way latency from rank to rank (µs)";
	lat.unit = "µs";
	lat.values = m->lat;
	lat.marked = m->lat_marked;
	lat.tooltips = m->lat_tip;
	lat.low_is_bad = false;
	html_raw(b, "<div class=\"charts\">\n");
	svg_heatmap(b, &bw);
	svg_heatmap(b, &lat);
	html_raw(b, "</div>\n");
}

static const char *const suspect_columns[] = {
    "kind",     "direction", "who",  "pattern", "metric", "locality", "measured",
    "expected", "unit",      "ratio", "score",  "line",   NULL,
};
static const char *const sensitivity_columns[] = {
    "pattern", "metric", "locality", "links", "median", "unit", "slowdown_percent", NULL,
};
static const char *const class_columns[] = {
    "metric", "locality", "links", "median", "mad", "judged", NULL,
};

static void tables(struct html_buf *b, const cJSON *summary)
{
	const cJSON *suspects = cJSON_GetObjectItemCaseSensitive(summary, "suspects");
	const cJSON *cleared = cJSON_GetObjectItemCaseSensitive(summary, "cleared");
	const cJSON *classes = cJSON_GetObjectItemCaseSensitive(summary, "classes");
	const cJSON *not_judged = cJSON_GetObjectItemCaseSensitive(summary, "not_judged");
	const cJSON *sensitivity = cJSON_GetObjectItemCaseSensitive(summary, "sensitivity");

	html_raw(b, "<h3>Suspects</h3>\n");
	if (cJSON_IsArray(suspects) && suspects->child)
		html_array_table(b, suspects, suspect_columns, NULL, NULL);
	else
		html_para(b, "note", "No suspects: no link or host stands out from its class.");
	if (cJSON_IsArray(cleared) && cleared->child) {
		html_raw(b, "<h3>Cleared by the isolated re-measurement</h3>\n");
		html_array_table(b, cleared, suspect_columns, NULL, NULL);
	}
	if (cJSON_IsArray(not_judged) && not_judged->child) {
		html_raw(b, "<p class=\"warn\">Not judged (oversubscribed hosts time the scheduler "
		            "as much as the links): ");
		html_value(b, not_judged, 0);
		html_raw(b, "</p>\n");
	}
	if (cJSON_IsArray(classes) && classes->child) {
		html_raw(b, "<h3>Classes of links</h3>\n");
		html_array_table(b, classes, class_columns, NULL, NULL);
	}
	if (cJSON_IsArray(sensitivity) && sensitivity->child) {
		html_raw(b, "<h3>What the run rules out</h3>\n");
		html_para(b, "note",
		          "The smallest slowdown below the median (bandwidth) or above it (latency) "
		          "that would have been named, given the class's own noise.");
		html_array_table(b, sensitivity, sensitivity_columns, NULL, NULL);
	}
}

/* The rank count of the heatmaps: past the largest rank of any pair. */
static size_t ranks_of(const struct cmp_run *run)
{
	int64_t top = -1;

	for (size_t i = 0; i < run->npoints; i++) {
		top = run->points[i].a > top ? run->points[i].a : top;
		top = run->points[i].b > top ? run->points[i].b : top;
	}
	return (size_t)(top + 1);
}

int html_links(struct html_section *s)
{
	struct cmp_run run;
	struct links_maps m = {0};
	const cJSON *summary, *suspects = NULL;
	int rc = -1;

	if (cmp_run_load(&run, s->path, s->root, s->at.err, s->at.errlen) != 0)
		return -1;
	if (html_context(s) != 0 ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) != 0)
		goto out;
	s->at.where = "summary";
	if (report_get_array(&s->at, summary, "suspects", false, &suspects) != 0)
		goto out;
	s->at.where = "";
	m.n = ranks_of(&run);
	html_raw(s->b, "<h3>Links</h3>\n");
	if (m.n > HEATMAP_RANKS_MAX) {
		html_rawf(s->b,
		          "<p class=\"note\">%zu ranks: too many for a rank heatmap on this page "
		          "(at most %d); the hosts instead.</p>\n",
		          m.n, HEATMAP_RANKS_MAX);
		if (html_links_hosts(s, &run, suspects) != 0)
			goto out;
	} else if (m.n > 0) {
		if (maps_fill(&m, &run) != 0) {
			snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
			goto out;
		}
		if (mark_suspects(s, &m, &run, suspects) != 0)
			goto out;
		heatmaps(s->b, &m);
	} else {
		html_para(s->b, "note", "No measured pairs.");
	}
	tables(s->b, summary);
	rc = 0;
out:
	maps_release(&m);
	cmp_run_release(&run);
	return rc;
}
