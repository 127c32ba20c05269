/*
 * The page of `collscope report`: head and inline style, an overview of the
 * reports with their verdicts, then one section per report rendered by its
 * command (see html.h).
 */
#include "reports/render/html_sections.h"

#include <stdio.h>
#include <string.h>

static const char style[] =
    "body{font:14px/1.45 system-ui,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "margin:24px auto;max-width:1200px;padding:0 16px;color:#1d1d1f;background:#fafafa}\n"
    "h1{font-size:24px;margin:0 0 4px}h3{font-size:15px;margin:18px 0 6px}"
	"h4{font-size:13px;margin:12px 0 4px}\n"
    "h2{font-size:19px;margin:36px 0 8px;padding-top:14px;border-top:2px solid #d0d0d0}\n"
    "table{border-collapse:collapse;margin:6px 0 14px;background:#fff;font-size:13px}\n"
    "th,td{border:1px solid #d8d8d8;padding:3px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#f0f0f3;font-weight:600}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}\n"
    "tr.flag td,tr.flag th{background:#fde2e1}\n"
    ".note{color:#5f5f64}p.warn{background:#fff4d6;border:1px solid #e8c66a;"
    "padding:6px 10px}\n"
    "code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;"
    "word-break:break-all}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:10px}\n"
    "svg.chart{display:block;background:#fff;border:1px solid #d8d8d8;max-width:100%;"
    "height:auto}\n"
    "svg .bg{fill:#fff}svg text{font-family:system-ui,Helvetica,Arial,sans-serif;"
    "font-size:12px;fill:#222}\n"
    "svg .title{font-size:14px;font-weight:600}svg .label{font-size:12.5px}\n"
    "svg .tick{font-size:11px;fill:#444}svg .note{fill:#777;font-size:11px}\n"
    "svg .grid{stroke:#e8e8e8;stroke-width:1}svg .axis{stroke:#333;stroke-width:1}\n"
    "svg .suspect{stroke:#d00000;stroke-width:3}svg .mark{fill:#d00000;font-weight:700;"
    "font-size:14px}\n"
    "svg .sus{fill:#d00000;font-weight:700}\n";

/* What the report measured, for the title, overview and heading: "allreduce (reduce-scatter)". */
static void kind(struct html_buf *b, const cJSON *root, size_t max_bytes)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(root, "command");

	html_text(b, cJSON_IsString(cmd) ? cmd->valuestring : "?", max_bytes);
	html_collectives(b, root);
}

static void head(struct html_buf *b, const struct html_input *in, size_t n, const char *version)
{
	html_raw(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	            "<title>collscope report");
	if (n == 1) {
		html_raw(b, ": ");
		kind(b, in[0].root, 60);
	}
	html_raw(b, "</title>\n<style>\n");
	html_raw(b, style);
	html_raw(b, "</style>\n</head>\n<body>\n<h1>collscope report</h1>\n<p class=\"note\">");
	html_rawf(b, "%zu report%s, rendered by collscope ", n, n == 1 ? "" : "s");
	html_text(b, version, 0);
	html_raw(b, ". This page is self-contained: no script, no external style, font or "
	            "image.</p>\n");
}

/* A report's verdict in a word or two, for the overview. */
static void verdict_cell(struct html_buf *b, const cJSON *root)
{
	const cJSON *summary = cJSON_GetObjectItemCaseSensitive(root, "summary");
	const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(summary, "verdict");
	const cJSON *suspects = cJSON_GetObjectItemCaseSensitive(summary, "suspects");
	const cJSON *complete = cJSON_GetObjectItemCaseSensitive(root, "complete");

	if (cJSON_IsString(verdict))
		html_text(b, verdict->valuestring, 60);
	else if (cJSON_IsArray(suspects))
		html_rawf(b, "%d suspect%s", cJSON_GetArraySize(suspects),
		          cJSON_GetArraySize(suspects) == 1 ? "" : "s");
	else
		html_raw(b, "&#8212;");
	if (!cJSON_IsTrue(complete))
		html_raw(b, " (incomplete)");
}

static void overview(struct html_buf *b, const struct html_input *in, size_t n)
{
	html_raw(b, "<table>\n<tr><th>#</th><th>report</th><th>command</th><th>started (UTC)"
	            "</th><th>verdict</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(in[i].root, "context");
		const cJSON *start = cJSON_GetObjectItemCaseSensitive(ctx, "started_utc");
		html_rawf(b, "<tr><td class=\"num\">%zu</td><td><a href=\"#r%zu\"><code>", i + 1,
		          i + 1);
		html_text(b, in[i].path, 0);
		html_raw(b, "</code></a></td><td>");
		kind(b, in[i].root, 60);
		html_raw(b, "</td><td>");
		html_text(b, cJSON_IsString(start) ? start->valuestring : "", 60);
		html_raw(b, "</td><td>");
		verdict_cell(b, in[i].root);
		html_raw(b, "</td></tr>\n");
	}
	html_raw(b, "</table>\n");
}

/* A kind this page does not chart: what every report has, as it is. */
static int unknown_kind(struct html_section *s, const char *command)
{
	const cJSON *config = cJSON_GetObjectItemCaseSensitive(s->root, "config");
	const cJSON *summary = cJSON_GetObjectItemCaseSensitive(s->root, "summary");
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(s->root, "results");

	html_raw(s->b, "<p class=\"warn\">This page does not know how to chart '");
	html_text(s->b, command, 60);
	html_rawf(s->b,
	          "' reports (it charts allreduce, links, scale, congestion, overlap, compare, trend and campaign reports): "
	          "below are its context, configuration and summary as recorded, and its %d "
	          "result record%s are not shown.</p>\n",
	          cJSON_GetArraySize(results), cJSON_GetArraySize(results) == 1 ? "" : "s");
	if (html_context(s) != 0)
		return -1;
	if (config) {
		html_raw(s->b, "<h3>Configuration</h3>\n");
		html_object_table(s->b, config);
	}
	if (summary) {
		html_raw(s->b, "<h3>Summary</h3>\n");
		html_summary(s->b, summary);
	}
	return 0;
}

static int section(struct html_buf *b, const struct html_input *in, size_t i, char *err,
                   size_t errlen)
{
	struct html_section s = {b, in->path, in->root, {in->path, "", err, errlen}};
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(in->root, "command");
	const char *command = cJSON_IsString(cmd) ? cmd->valuestring : "?";
	const cJSON *complete = cJSON_GetObjectItemCaseSensitive(in->root, "complete");
	int rc;

	html_rawf(b, "<section id=\"r%zu\">\n<h2>%zu. ", i + 1, i + 1);
	html_text(b, command, 60);
	html_raw(b, " report");
	html_collectives(b, in->root);
	html_raw(b, " <code>");
	html_text(b, in->path, 0);
	html_raw(b, "</code></h2>\n");
	if (!cJSON_IsTrue(complete))
		html_para(b, "warn",
		          "This report is not marked complete: the run that wrote it "
		          "may have stopped early.");
	if (strcmp(command, "allreduce") == 0)
		rc = html_allreduce(&s);
	else if (strcmp(command, "links") == 0)
		rc = html_links(&s);
	else if (strcmp(command, "scale") == 0)
		rc = html_scale(&s);
	else if (strcmp(command, "congestion") == 0)
		rc = html_congestion(&s);
	else if (strcmp(command, "overlap") == 0)
		rc = html_overlap(&s);
	else if (strcmp(command, "watch") == 0)
		rc = html_watch(&s);
	else if (strcmp(command, "compare") == 0)
		rc = html_compare(&s);
	else if (strcmp(command, "trend") == 0)
		rc = html_trend(&s);
	else if (strcmp(command, "campaign") == 0)
		rc = html_campaign(&s);
	else
		rc = unknown_kind(&s, command);
	html_raw(b, "</section>\n");
	return rc;
}

int html_render_page(struct html_buf *b, const struct html_input *in, size_t n, const char *version,
                     char *err, size_t errlen)
{
	head(b, in, n, version);
	overview(b, in, n);
	for (size_t i = 0; i < n; i++)
		if (section(b, &in[i], i, err, errlen) != 0)
			return -1;
	html_raw(b, "</body>\n</html>\n");
	if (b->failed) {
		snprintf(err, errlen, "cannot render the page: out of memory");
		return -1;
	}
	return 0;
}

static const char *const compare_columns[] = {
    "verdict",
    "point",
    "p50_change_pct",
    "p99_change_pct",
    "busbw_change_pct",
    "latency_p50_change_pct",
    "latency_p99_change_pct",
    "bandwidth_change_pct",
    "baseline_samples",
    "current_samples",
    "p_value",
    "note",
    NULL,
};

int html_compare(struct html_section *s)
{
	const cJSON *config, *summary, *results, *counts = NULL;

	if (report_get_object(&s->at, s->root, "config", false, &config) ||
	    report_get_object(&s->at, s->root, "summary", false, &summary) ||
	    report_get_array(&s->at, s->root, "results", false, &results))
		return -1;
	s->at.where = "summary";
	if (report_get_object(&s->at, summary, "counts", false, &counts))
		return -1;
	s->at.where = "";
	html_raw(s->b, "<h3>Comparison</h3>\n");
	html_object_table(s->b, config);
	html_raw(s->b, "<h3>Verdicts</h3>\n");
	html_object_table(s->b, counts);
	html_array_table(s->b, results, compare_columns, "verdict", "regression");
	return html_context(s);
}
