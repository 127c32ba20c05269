/*
 * The trace part of an allreduce (or scale) section, for reports made with
 * --trace: the slow hops and ranks of the summary as tables, and per traced
 * point a chart of its hops against time: for each hop a -> b, the median
 * time its receiver waited (light), the part of it that the hop alone
 * explains (dark; red when the hop is named slow) and the median hop of its
 * locality (a tick). Charted: every point with a slow hop, and the largest
 * traced size of each variant and rank count, at most TRACE_CHARTS_MAX.
 */
#include "reports/render/html_sections.h"

#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_CHARTS_MAX 12
#define HOP_ROWS_MAX     64
#define T_CHART_W        780
#define T_PLOT_L         190
#define T_PLOT_R         600
#define T_PLOT_T         58
#define T_ROW_H          18

struct hop_row {
	int64_t from, to, messages;
	const char *host_a, *host_b;
	double time_us, wait_us, median_us, ratio, score;
	bool slow;
};

/* One traced record of the results. */
struct traced {
	const cJSON *rec, *hops;
	const char *algorithm;
	double bytes;
	int64_t ranks, index;
	bool slow, chart;
};

static const char *host_at(const cJSON *hosts, int i)
{
	const cJSON *h = cJSON_GetArrayItem(hosts, i);
	return cJSON_IsString(h) ? h->valuestring : NULL;
}

/* The rows of one point's hops; -1 (s->at.err set) for a field of the wrong type. */
static int read_hops(struct html_section *s, const struct traced *t, struct hop_row *rows,
                     size_t *nrows)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = s->at;
	size_t i = 0;
	at.where = where;
	*nrows = 0;
	for (const cJSON *h = t->hops->child; h; h = h->next) {
		struct hop_row r = {.median_us = NAN, .ratio = NAN, .score = NAN, .wait_us = NAN};
		const cJSON *hosts = NULL;
		snprintf(where, sizeof where, "results[%lld].trace.hops[%zu]", (long long)t->index,
		         i++);
		if (!cJSON_IsObject(h)) {
			snprintf(s->at.err, s->at.errlen, "report '%s': %s is not an object",
			         s->path, where);
			return -1;
		}
		if (report_get_integer(&at, h, "from_rank", true, 0, 1e9, &r.from) != 0 ||
		    report_get_integer(&at, h, "to_rank", true, 0, 1e9, &r.to) != 0 ||
		    report_get_integer(&at, h, "messages", false, 0, 9e15, &r.messages) != 0 ||
		    report_get_number(&at, h, "hop_time_us", true, 0, 1e15, &r.time_us) != 0 ||
		    report_get_number(&at, h, "wait_us", false, -1e15, 1e15, &r.wait_us) != 0 ||
		    report_get_number(&at, h, "median_hop_us", false, 0, 1e15, &r.median_us) != 0 ||
		    report_get_number(&at, h, "ratio", false, 0, 1e15, &r.ratio) != 0 ||
		    report_get_number(&at, h, "score", false, -1e15, 1e15, &r.score) != 0 ||
		    report_get_bool(&at, h, "slow", false, &r.slow) != 0 ||
		    report_get_array(&at, h, "hosts", false, &hosts) != 0)
			return -1;
		r.host_a = host_at(hosts, 0);
		r.host_b = host_at(hosts, 1);
		if (*nrows < HOP_ROWS_MAX)
			rows[(*nrows)++] = r;
	}
	return 0;
}

static void bar(struct html_buf *b, double x0, double x1, double y, double h, const char *fill,
                const struct hop_row *r, const char *what, double v)
{
	html_rawf(b,
	          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
	          x0, y, fmax(x1 - x0, 0.5), h, fill);
	html_rawf(b, "%lld to %lld", (long long)r->from, (long long)r->to);
	if (r->host_a && r->host_b) {
		html_raw(b, " (");
		html_text(b, r->host_a, 64);
		html_raw(b, " to ");
		html_text(b, r->host_b, 64);
		html_raw(b, ")");
	}
	html_rawf(b, ": %s %.1f µs", what, v);
	if (isfinite(r->ratio))
		html_rawf(b, ", %.2fx the median hop, z %.1f", r->ratio, r->score);
	html_rawf(b, ", %lld messages%s</title></rect>\n", (long long)r->messages,
	          r->slow ? ", SLOW" : "");
}

static void legend(struct html_buf *b)
{
	int x = T_PLOT_R + 18;
	html_rawf(
	    b,
	    "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"22\" height=\"12\" "
	    "fill=\"#c6dbef\"/><text x=\"%d\" y=\"%d\">receiver's wait</text>\n"
	    "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"6\" fill=\"#1f77b4\"/>"
	    "<text x=\"%d\" y=\"%d\">the hop's own time</text>\n"
	    "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"6\" fill=\"#d62728\"/>"
	    "<text x=\"%d\" y=\"%d\">slow hop</text>\n"
	    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\" stroke-width=\"2\"/>"
	    "<text x=\"%d\" y=\"%d\">median hop</text></g>\n",
	    x, T_PLOT_T, x + 28, T_PLOT_T + 10, x, T_PLOT_T + 22, x + 28, T_PLOT_T + 28, x,
	    T_PLOT_T + 40, x + 28, T_PLOT_T + 46, x + 11, T_PLOT_T + 54, x + 11, T_PLOT_T + 68,
	    x + 28, T_PLOT_T + 64);
}

/* The x pixel of v on the ticks' range. */
static double px(const struct svg_ticks *tx, double v)
{
	return T_PLOT_L + (v - tx->lo) / (tx->hi - tx->lo) * (T_PLOT_R - T_PLOT_L);
}

/* The chart of one point: a row per hop, time on x. */
static void hop_chart(struct html_buf *b, const struct traced *t, const struct hop_row *rows,
                      size_t n, size_t all)
{
	char title[256], size[48], tick[48];
	struct svg_ticks tx;
	double max = 0;
	int plot_b = T_PLOT_T + (int)n * T_ROW_H, height = plot_b + 56;
	for (size_t i = 0; i < n; i++)
		max = fmax(max,
		           fmax(rows[i].time_us, isfinite(rows[i].wait_us) ? rows[i].wait_us : 0));
	svg_format_bytes(t->bytes, size, sizeof size);
	snprintf(title, sizeof title, "per-hop time vs hop: %s, %s, %lld ranks", t->algorithm, size,
	         (long long)t->ranks);
	html_rawf(b,
	          "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	          "role=\"img\"><title>",
	          T_CHART_W, height, T_CHART_W, height);
	html_text(b, title, 0);
	html_rawf(b,
	          "</title>\n<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>\n"
	          "<text class=\"title\" x=\"%d\" y=\"24\">",
	          T_CHART_W, height, 20);
	html_text(b, title, 0);
	html_raw(b, "</text>\n");
	if (svg_ticks(SVG_LINEAR, 0, max > 0 ? max : 1, true, &tx) != 0) {
		html_raw(b, "</svg>\n");
		return;
	}
	for (size_t i = 0; i < tx.n; i++) {
		double x = px(&tx, tx.v[i]);
		svg_format_number(tx.v[i], tick, sizeof tick);
		html_rawf(
		    b,
		    "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		    x, T_PLOT_T - 4, x, plot_b, x, plot_b + 16, tick);
	}
	for (size_t i = 0; i < n; i++) {
		const struct hop_row *r = &rows[i];
		double y = T_PLOT_T + (double)i * T_ROW_H;
		html_rawf(
		    b, "<text class=\"tick%s\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%lld → %lld",
		    r->slow ? " sus" : "", T_PLOT_L - 8, y + 12, (long long)r->from,
		    (long long)r->to);
		if (r->host_a && r->host_b && strcmp(r->host_a, r->host_b) != 0) {
			html_raw(b, " (");
			html_text(b, r->host_a, 12);
			html_raw(b, " → ");
			html_text(b, r->host_b, 12);
			html_raw(b, ")");
		}
		html_raw(b, "</text>\n");
		if (isfinite(r->wait_us))
			bar(b, px(&tx, 0), px(&tx, fmax(r->wait_us, 0)), y + 2, 12, "#c6dbef", r,
			    "receiver's wait", r->wait_us);
		bar(b, px(&tx, 0), px(&tx, r->time_us), y + 5, 6, r->slow ? "#d62728" : "#1f77b4",
		    r, "the hop's own time", r->time_us);
		if (isfinite(r->median_us))
			html_rawf(
			    b,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
			    "stroke-width=\"2\"/>\n",
			    px(&tx, r->median_us), y + 1, px(&tx, r->median_us), y + 17);
	}
	html_rawf(b,
	          "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
	          "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
	          T_PLOT_L, plot_b, T_PLOT_R, plot_b, T_PLOT_L, T_PLOT_T - 4, T_PLOT_L, plot_b);
	html_rawf(b,
	          "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">median per "
	          "message (µs)</text>\n<text class=\"label\" x=\"%d\" y=\"%d\" "
	          "text-anchor=\"end\">hop (from → to)</text>\n",
	          (T_PLOT_L + T_PLOT_R) / 2, plot_b + 36, T_PLOT_L - 8, T_PLOT_T - 14);
	legend(b);
	if (all > n)
		html_rawf(b,
		          "<text class=\"note\" x=\"%d\" y=\"%d\">%zu more hops not drawn</text>\n",
		          T_PLOT_R + 18, T_PLOT_T + 90, all - n);
	html_raw(b, "</svg>\n");
}

/* The traced records; -1 (s->at.err set) for a trace of the wrong type. */
static int collect(struct html_section *s, const cJSON *results, struct traced *out, size_t *n)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = s->at;
	int64_t i = 0;
	at.where = where;
	*n = 0;
	for (const cJSON *rec = results->child; rec; rec = rec->next) {
		struct traced t = {.rec = rec, .index = i++, .ranks = 0};
		const cJSON *trace = NULL;
		snprintf(where, sizeof where, "results[%lld]", (long long)t.index);
		if (!cJSON_IsObject(rec))
			continue; /* the records' own reader names that */
		if (report_get_object(&at, rec, "trace", false, &trace) != 0)
			return -1;
		if (!trace)
			continue;
		snprintf(where, sizeof where, "results[%lld].trace", (long long)t.index);
		if (report_get_array(&at, trace, "hops", false, &t.hops) != 0)
			return -1;
		if (!t.hops || !t.hops->child)
			continue; /* a direct variant's calls, or nothing paired */
		snprintf(where, sizeof where, "results[%lld]", (long long)t.index);
		if (report_get_string(&at, rec, "algorithm", true, &t.algorithm) != 0 ||
		    report_get_number(&at, rec, "bytes", true, 0, 9e18, &t.bytes) != 0 ||
		    report_get_integer(&at, rec, "ranks", true, 1, 1e9, &t.ranks) != 0)
			return -1;
		for (const cJSON *h = t.hops->child; h; h = h->next)
			t.slow = t.slow || cJSON_IsTrue(cJSON_GetObjectItem(h, "slow"));
		out[(*n)++] = t;
	}
	return 0;
}

/* Is t[i] the largest traced size of its (variant, ranks), the first of equals? */
static bool largest_of_its_kind(const struct traced *t, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++) {
		bool kin = j != i && strcmp(t[j].algorithm, t[i].algorithm) == 0 &&
		           t[j].ranks == t[i].ranks;
		if (kin && (t[j].bytes > t[i].bytes || (j < i && t[j].bytes == t[i].bytes)))
			return false;
	}
	return true;
}

/* Every slow point, and the largest traced size of each (variant, ranks). */
static size_t choose(struct traced *t, size_t n)
{
	size_t charted = 0;
	for (size_t i = 0; i < n; i++) {
		t[i].chart =
		    (t[i].slow || largest_of_its_kind(t, n, i)) && charted < TRACE_CHARTS_MAX;
		charted += t[i].chart;
	}
	return charted;
}

static const char *const slow_hop_columns[] = {
    "algorithm", "bytes",       "ranks",         "from_rank", "to_rank", "hosts",
    "locality",  "hop_time_us", "median_hop_us", "ratio",     "score",   NULL,
};

static const char *const slow_rank_columns[] = {
    "algorithm", "bytes",     "ranks",      "rank",        "host",
    "reason",    "hops_slow", "hops_total", "reduce_gbps", "median_reduce_gbps",
    "ratio",     "score",     NULL,
};

/* The summary's findings (scale's summary is drawn whole as tables already). */
static void findings(struct html_section *s)
{
	const cJSON *summary = cJSON_GetObjectItemCaseSensitive(s->root, "summary");
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(s->root, "command");
	if (cJSON_IsString(command) && strcmp(command->valuestring, "scale") == 0)
		return;
	const cJSON *hops = cJSON_GetObjectItemCaseSensitive(summary, "slow_hops");
	const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(summary, "slow_ranks");
	if (cJSON_IsArray(hops) && hops->child) {
		html_raw(s->b, "<p class=\"warn\">Slow hops:</p>\n");
		html_array_table(s->b, hops, slow_hop_columns, NULL, NULL);
	} else if (cJSON_IsArray(hops)) {
		html_para(s->b, "note", "No slow hop named.");
	}
	if (cJSON_IsArray(ranks) && ranks->child) {
		html_raw(s->b, "<p class=\"warn\">Slow ranks:</p>\n");
		html_array_table(s->b, ranks, slow_rank_columns, NULL, NULL);
	}
}

int html_trace(struct html_section *s)
{
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(s->root, "results");
	size_t n = 0, nrows;
	int count = cJSON_GetArraySize(results), rc = 0;
	struct traced *t = calloc((size_t)(count > 0 ? count : 1), sizeof *t);
	struct hop_row *rows = calloc(HOP_ROWS_MAX, sizeof *rows);
	if (!t || !rows) {
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
		rc = -1;
	} else if (cJSON_IsArray(results) && (rc = collect(s, results, t, &n)) == 0 && n) {
		size_t charted = choose(t, n);
		html_raw(s->b, "<h3>Per-hop times (--trace)</h3>\n");
		findings(s);
		html_para(
		    s->b, "note",
		    "Each hop's median per message: the time its receiver waited, and the part "
		    "of it that the hop alone explains (the receive's wait less what the sender "
		    "was itself late by: waiting propagates down a ring, blame does not).");
		html_raw(s->b, "<div class=\"charts\">\n");
		for (size_t i = 0; i < n && rc == 0; i++) {
			if (!t[i].chart)
				continue;
			rc = read_hops(s, &t[i], rows, &nrows);
			if (rc == 0)
				hop_chart(s->b, &t[i], rows, nrows,
				          (size_t)cJSON_GetArraySize(t[i].hops));
		}
		html_raw(s->b, "</div>\n");
		if (n > charted)
			html_rawf(s->b,
			          "<p class=\"note\">%zu more traced points are in the report, not "
			          "charted.</p>\n",
			          n - charted);
	}
	free(t);
	free(rows);
	return rc;
}
