/*
 * The HTML page: escaping of every string from a report (including invalid
 * UTF-8 and control characters), the sections by command, a kind the page
 * does not know, and fields of the wrong type named with their file.
 */
#include "reports/render/html.h"
#include "report_fixtures.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

static char err[1024];

static char *escaped(const char *s, size_t max_bytes)
{
	struct html_buf b;

	html_buf_init(&b);
	html_text(&b, s, max_bytes);
	cr_assert_not(b.failed);
	return b.data ? b.data : strdup("");
}

static void assert_escape(const char *in, size_t max_bytes, const char *want)
{
	char *got = escaped(in, max_bytes);

	cr_assert_str_eq(got, want, "html_text(\"%s\")", in);
	free(got);
}

#define FFFD "\xef\xbf\xbd"

Test(html, escapes_markup)
{
	assert_escape("<script>alert('x&y')</script>\"", 0,
	              "&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt;&quot;");
	assert_escape("plain host-1.example", 0, "plain host-1.example");
	assert_escape("", 0, "");
	assert_escape(NULL, 0, "");
}

Test(html, replaces_control_characters_and_invalid_utf8)
{
	assert_escape("a\x01z\x7f", 0, "a" FFFD "z" FFFD);
	assert_escape("tab\tnew\nline\r", 0, "tab\tnew\nline" FFFD);
	assert_escape("\xff", 0, FFFD);
	assert_escape("\xc0\xaf", 0, FFFD FFFD);          /* overlong '/' */
	assert_escape("\xed\xa0\x80", 0, FFFD FFFD FFFD); /* a surrogate */
	assert_escape("\xef\xbf\xbe", 0, FFFD FFFD FFFD); /* U+FFFE: not an XML character */
	assert_escape("\xe2\x82", 0, FFFD FFFD);          /* cut short */
	assert_escape("\xf4\x90\x80\x80", 0, FFFD FFFD FFFD FFFD); /* past U+10FFFF */
	assert_escape("µs \xf0\x9f\x93\x88", 0, "µs \xf0\x9f\x93\x88");
}

/* What reorders or hides text on the page: bidirectional and C1 controls, line separators. */
Test(html, replaces_what_reorders_the_page)
{
	assert_escape("abc\xe2\x80\xae" "cba", 0, "abc" FFFD "cba"); /* U+202E: right-to-left override */
	assert_escape("\xe2\x81\xa6x\xe2\x81\xa9", 0, FFFD "x" FFFD); /* isolates */
	assert_escape("\xe2\x80\x8f\xd8\x9c", 0, FFFD FFFD);          /* RLM, ALM */
	assert_escape("a\xe2\x80\xa8" "b", 0, "a" FFFD "b");           /* line separator */
	assert_escape("\xc2\x9b" "2J\xc2\xa0", 0, FFFD "2J\xc2\xa0");  /* C1 CSI; NBSP is text */
	assert_escape("\xe2\x80\x94 \xe2\x82\xac", 0, "\xe2\x80\x94 \xe2\x82\xac"); /* em dash, euro */
}

Test(html, cuts_at_a_character_boundary)
{
	assert_escape("abcdef", 3, "abc\xe2\x80\xa6");
	assert_escape("aµb", 2, "a\xe2\x80\xa6");
	assert_escape("abc", 3, "abc");
}

Test(html, buffer_grows)
{
	struct html_buf b;

	html_buf_init(&b);
	for (int i = 0; i < 10000; i++)
		html_rawf(&b, "%d,", i);
	html_rawf(&b, "%s", "");
	cr_assert_not(b.failed);
	cr_assert_eq(strlen(b.data), b.len);
	cr_assert_eq(strncmp(b.data + b.len - 5, "9999,", 5), 0);
	html_buf_release(&b);
}

/* Renders the reports; the caller frees the page. NULL when rendering failed. */
static char *page_of(cJSON **roots, size_t n)
{
	struct html_input in[4];
	struct html_buf b;

	for (size_t i = 0; i < n; i++) {
		in[i].path = i ? "second <b>.json" : "first.json";
		in[i].root = roots[i];
	}
	html_buf_init(&b);
	err[0] = '\0';
	if (html_render_page(&b, in, n, "0.test", err, sizeof err) != 0) {
		cr_assert_neq(err[0], '\0', "a failure says why");
		html_buf_release(&b);
		return NULL;
	}
	return b.data;
}

/* Nothing in the page loads anything, and no markup came from a report. */
static void assert_self_contained(const char *page)
{
	cr_assert_null(strstr(page, "<script"));
	cr_assert_null(strstr(page, "<img"));
	cr_assert_null(strstr(page, "<iframe"));
	cr_assert_null(strstr(page, "<link"));
	cr_assert_null(strstr(page, "url("));
	cr_assert_null(strstr(page, "@import"));
	cr_assert_null(strstr(page, "http"));
}

Test(html, allreduce_page_escapes_hosts_and_argv)
{
	cJSON *r = fx_report("allreduce", 2, 1);
	cJSON *ctx = cJSON_GetObjectItem(r, "context");
	char *page;

	cJSON_SetValuestring(cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "hosts"), 0)->child,
	                     "<img src=x onerror=alert(1)>");
	cJSON_AddItemToArray(cJSON_GetObjectItem(ctx, "argv"),
	                     cJSON_CreateString("<script>alert(1)</script>"));
	fx_measured(r, "ring", 1024, 5, 0.1, 20, 1);
	fx_measured(r, "ring", 2048, 6, 0.1, 20, 1);
	fx_measured(r, "tree", 1024, 5, 0.1, 20, 1);
	page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	assert_self_contained(page);
	cr_assert_not_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	cr_assert_not_null(strstr(page, "&lt;img src=x onerror=alert(1)&gt;"));
	cr_assert_not_null(strstr(page, "busbw vs message size"));
	cr_assert_not_null(strstr(page, "p50 time vs message size"));
	cr_assert_not_null(strstr(page, "p99 time vs message size"));
	cr_assert_not_null(strstr(page, "message size (bytes, log2 scale)"));
	cr_assert_not_null(strstr(page, "Test MPI 1.0"));
	free(page);
	cJSON_Delete(r);
}

Test(html, links_page_marks_suspects)
{
	cJSON *r = fx_report("links", 3, 2);
	cJSON *summary = cJSON_AddObjectToObject(r, "summary");
	cJSON *suspects = cJSON_AddArrayToObject(summary, "suspects");
	cJSON *s = cJSON_CreateObject();
	char *page;

	fx_link(r, 0, 1, "node0", "node1", 5, 10);
	fx_link(r, 1, 0, "node1", "node0", 5, 1);
	fx_link(r, 2, 0, "node1", "node0", 5, 9);
	cJSON_AddStringToObject(s, "kind", "link");
	cJSON_AddNumberToObject(s, "a", 1);
	cJSON_AddNumberToObject(s, "b", 0);
	cJSON_AddStringToObject(s, "metric", "bandwidth");
	cJSON_AddStringToObject(s, "reason", "10x below its class");
	cJSON_AddItemToArray(suspects, s);
	s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "kind", "host");
	cJSON_AddStringToObject(s, "who", "node1");
	cJSON_AddItemToArray(suspects, s);
	page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "p50 bandwidth from rank to rank (GB/s)"));
	cr_assert_not_null(strstr(page, "1 to 0: 1 GB/s 10x below its class"));
	cr_assert_not_null(strstr(page, "<rect x=\"92\" y=\"110\" width=\"32\" height=\"32\" "));
	cr_assert_not_null(strstr(page, "class=\"suspect\"><title>1 to 0"));
	cr_assert_not_null(strstr(page, "class=\"tick sus\""), "ranks of the suspect host");
	cr_assert_not_null(strstr(page, "<h3>Suspects</h3>"));
	free(page);
	cJSON_Delete(r);
}

static size_t occurrences(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * 1e5 host suspects over every pair of 32 ranks on 8 hosts (the review's
 * case took 14 s when each suspect walked every pair): the page renders,
 * marks exactly the ranks of the suspect hosts, and lists the first 500
 * suspects. The work is linear by construction (html_links.c's host index).
 */
Test(html, links_page_with_many_host_suspects)
{
	enum { RANKS = 32, HOSTS = 8, SUSPECTS = 100000 };
	cJSON *r = fx_report("links", RANKS, HOSTS);
	cJSON *summary = cJSON_AddObjectToObject(r, "summary");
	cJSON *suspects = cJSON_AddArrayToObject(summary, "suspects");
	char host_a[16], host_b[16], *page;
	size_t labels = 0;

	for (int a = 0; a < RANKS; a++)
		for (int b = 0; b < RANKS; b++) {
			if (a == b)
				continue;
			snprintf(host_a, sizeof host_a, "node%d", a % HOSTS);
			snprintf(host_b, sizeof host_b, "node%d", b % HOSTS);
			fx_link(r, a, b, host_a, host_b, 5, 10);
		}
	for (int i = 0; i < SUSPECTS; i++) {
		cJSON *s = cJSON_CreateObject();
		snprintf(host_a, sizeof host_a, i == 0 ? "elsewhere" : "node%d", i % (HOSTS / 2));
		cJSON_AddStringToObject(s, "kind", "host");
		cJSON_AddStringToObject(s, "who", host_a);
		cJSON_AddStringToObject(s, "reason", "many-suspects-reason");
		cJSON_AddStringToObject(s, "line", "many-suspects-line");
		cJSON_AddItemToArray(suspects, s);
	}
	page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	/* ranks of node0..node3 marked: 16 ranks, a row and a column label each, two heatmaps,
	   and the legend of each heatmap */
	for (int rank = 0; rank < RANKS; rank++)
		labels += rank % HOSTS < HOSTS / 2;
	cr_assert_eq(occurrences(page, "class=\"tick sus\""), labels * 2 * 2 + 2);
	cr_assert_eq(occurrences(page, "many-suspects-line"), 500, "the table's first 500 rows");
	cr_assert_not_null(strstr(page, "The first 500 rows of 100000."));
	free(page);
	cJSON_Delete(r);
}

Test(html, scale_page_draws_predicted_apart)
{
	cJSON *r = fx_report("scale", 8, 1), *results = cJSON_GetObjectItem(r, "results");
	char *page;

	for (int n = 2; n <= 16; n *= 2) {
		cJSON *rec = cJSON_CreateObject();
		cJSON_AddStringToObject(rec, "algorithm", "ring");
		cJSON_AddNumberToObject(rec, "bytes", 1 << 20);
		cJSON_AddNumberToObject(rec, "ranks", n);
		cJSON_AddNumberToObject(rec, "efficiency", 1.0 / n);
		cJSON_AddNumberToObject(rec, "speedup", 1.0);
		cJSON_AddBoolToObject(rec, "predicted", n > 8);
		cJSON_AddItemToArray(results, rec);
	}
	page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "scaling efficiency (weak) vs ranks: 1 MiB"));
	cr_assert_not_null(strstr(page, "speedup (weak) vs ranks: 1 MiB"));
	cr_assert_not_null(strstr(page, "stroke-dasharray"));
	cr_assert_not_null(strstr(page, "ring (predicted)"));
	cr_assert_not_null(strstr(page, "ranks (log2 scale)"));
	cr_assert_null(strstr(page, "bandwidth efficiency vs ranks"), "no such field: no chart");
	free(page);
	cJSON_Delete(r);
}

Test(html, unknown_kind_is_shown_not_charted)
{
	cJSON *r = fx_report("topo", 2, 1);
	cJSON *summary = cJSON_AddObjectToObject(r, "summary");
	char *page;

	cJSON_AddStringToObject(summary, "verdict", "<ok>");
	page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "does not know how to chart 'topo' reports"));
	cr_assert_not_null(strstr(page, "&lt;ok&gt;"));
	cr_assert_null(strstr(page, "<svg"));
	free(page);
	cJSON_Delete(r);
}

Test(html, two_reports_two_sections)
{
	cJSON *r[2] = {fx_report("allreduce", 2, 1), fx_report("mystery", 2, 1)};
	char *page;

	fx_measured(r[0], "ring", 1024, 5, 0.1, 20, 1);
	page = page_of(r, 2);
	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "<section id=\"r1\">"));
	cr_assert_not_null(strstr(page, "<section id=\"r2\">"));
	cr_assert_not_null(strstr(page, "second &lt;b&gt;.json"));
	cr_assert_not_null(strstr(page, "</html>\n"));
	free(page);
	cJSON_Delete(r[0]);
	cJSON_Delete(r[1]);
}

Test(html, wrong_types_are_named)
{
	cJSON *r = fx_report("allreduce", 2, 1);

	cJSON_AddItemToArray(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "context"), "argv"),
	                     cJSON_CreateNumber(3));
	cr_assert_null(page_of(&r, 1));
	cr_assert_not_null(strstr(err, "report 'first.json': context.argv[2] is not a string"),
	                   "%s", err);
	cJSON_Delete(r);

	r = fx_report("allreduce", 2, 1);
	cJSON_AddStringToObject(fx_point(r, "ring", 8, "float32", "sum", 2), "samples_us", "x");
	cr_assert_null(page_of(&r, 1));
	cr_assert_not_null(strstr(err, "results[0].samples_us is not an array"), "%s", err);
	cJSON_Delete(r);

	r = fx_report("links", 2, 1);
	fx_link(r, 0, 1, "a", "b", 1, 1);
	cJSON *sus = cJSON_AddArrayToObject(cJSON_AddObjectToObject(r, "summary"), "suspects");
	cJSON *s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "kind", "link");
	cJSON_AddNumberToObject(s, "a", 7);
	cJSON_AddItemToArray(sus, s);
	cr_assert_null(page_of(&r, 1));
	cr_assert_not_null(strstr(err, "summary.suspects[0].a is out of range"), "%s", err);
	cJSON_Delete(r);
}

/* A traced ring of 8 ranks whose hop 3 -> 4 is slow; a direct variant's trace has no hops. */
static cJSON *traced_report(void)
{
	cJSON *r = fx_report("allreduce", 8, 4);
	cJSON *rec = fx_measured(r, "ring", 1 << 20, 900, 0.1, 20, 1);
	cJSON *hops = cJSON_AddArrayToObject(cJSON_AddObjectToObject(rec, "trace"), "hops");
	for (int a = 0; a < 8; a++) {
		cJSON *h = cJSON_CreateObject(), *hosts = cJSON_AddArrayToObject(h, "hosts");
		cJSON_AddNumberToObject(h, "from_rank", a);
		cJSON_AddNumberToObject(h, "to_rank", (a + 1) % 8);
		cJSON_AddItemToArray(hosts, cJSON_CreateString(a == 3 ? "<h2>" : "node0"));
		cJSON_AddItemToArray(hosts, cJSON_CreateString("node1"));
		cJSON_AddNumberToObject(h, "messages", 280);
		cJSON_AddNumberToObject(h, "hop_time_us", a == 3 ? 10500 : 1000);
		cJSON_AddNumberToObject(h, "wait_us", a == 3 ? 10600 : 9000);
		cJSON_AddNumberToObject(h, "median_hop_us", 1000);
		cJSON_AddNumberToObject(h, "ratio", a == 3 ? 10.5 : 1);
		cJSON_AddNumberToObject(h, "score", a == 3 ? 25 : 0);
		cJSON_AddBoolToObject(h, "slow", a == 3);
		cJSON_AddItemToArray(hops, h);
	}
	cJSON *mpi = fx_measured(r, "mpi", 1 << 20, 800, 0.1, 20, 1);
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(mpi, "trace"), "calls", 160);
	cJSON *sum = cJSON_AddObjectToObject(r, "summary");
	cJSON *slow = cJSON_CreateObject();
	cJSON_AddStringToObject(slow, "algorithm", "ring");
	cJSON_AddNumberToObject(slow, "from_rank", 3);
	cJSON_AddNumberToObject(slow, "to_rank", 4);
	cJSON_AddNumberToObject(slow, "ratio", 10.5);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(sum, "slow_hops"), slow);
	cJSON_AddArrayToObject(sum, "slow_ranks");
	return r;
}

Test(html, traced_point_gets_a_per_hop_chart)
{
	cJSON *r = traced_report();
	char *page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	assert_self_contained(page);
	cr_assert_not_null(strstr(page, "<h3>Per-hop times (--trace)</h3>"));
	cr_assert_not_null(strstr(page, "<p class=\"warn\">Slow hops:</p>"));
	cr_assert_not_null(strstr(page, "per-hop time vs hop: ring, 1 MiB, 8 ranks"));
	cr_assert_null(strstr(page, "per-hop time vs hop: mpi"), "a direct variant has no hops");
	cr_assert_not_null(strstr(page, "class=\"tick sus\" x=\"182\""), "the slow hop's label in red");
	cr_assert_not_null(strstr(page, "3 → 4 (&lt;h2&gt; → node1)"), "hosts escaped");
	cr_assert_not_null(strstr(page, "fill=\"#d62728\"><title>3 to 4 (&lt;h2&gt; to node1): "
	                                "the hop's own time 10500.0 µs, 10.50x the median hop, "
	                                "z 25.0, 280 messages, SLOW</title>"));
	cr_assert_not_null(strstr(page, "receiver's wait 9000.0 µs"));
	cr_assert_not_null(strstr(page, "median per message (µs)"));
	free(page);
	cJSON_Delete(r);
}

Test(html, untraced_report_has_no_trace_section)
{
	cJSON *r = fx_report("allreduce", 2, 1);
	fx_measured(r, "ring", 1024, 5, 0.1, 20, 1);
	char *page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	cr_assert_null(strstr(page, "Per-hop"));
	free(page);
	cJSON_Delete(r);
}

Test(html, trace_of_the_wrong_type_is_named)
{
	cJSON *r = traced_report();
	cJSON *h = cJSON_GetArrayItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "results"), 0),
	                                            "trace"),
	                        "hops"),
	    2);
	cJSON_ReplaceItemInObject(h, "hop_time_us", cJSON_CreateString("slow"));
	cr_assert_null(page_of(&r, 1));
	cr_assert_not_null(strstr(err, "results[0].trace.hops[2].hop_time_us is not a number"), "%s", err);
	cJSON_Delete(r);
	r = traced_report();
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "results"), 1), "trace",
	                          cJSON_CreateString("x"));
	cr_assert_null(page_of(&r, 1));
	cr_assert_not_null(strstr(err, "results[1].trace is not an object"), "%s", err);
	cJSON_Delete(r);
}

Test(html, congestion_page_charts_factors_and_escapes_verdicts)
{
	cJSON *r = fx_report("congestion", 8, 1);
	cJSON *sum = cJSON_AddObjectToObject(r, "summary");
	cJSON *points = cJSON_AddArrayToObject(sum, "points");
	for (int g = 0; g < 2; g++)
		for (int b = 8; b <= 1 << 20; b *= 1024) {
			cJSON *p = cJSON_CreateObject();
			cJSON_AddNumberToObject(p, "group", g);
			cJSON_AddNumberToObject(p, "bytes", b);
			cJSON_AddNumberToObject(p, "factor_busbw", 1.5 + g);
			if (g == 1)
				cJSON_AddStringToObject(p, "factor_p99", "fast"); /* a wrong type */
			else
				cJSON_AddNumberToObject(p, "factor_p99", 2.0);
			cJSON_AddItemToArray(points, p);
		}
	cJSON *w = cJSON_CreateObject(), *v = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(sum, "where"), w);
	cJSON_AddNumberToObject(w, "group", 0);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(w, "verdicts"), v);
	cJSON_AddStringToObject(v, "line", "segment <b>h1</b> <-> h3 is slow");
	cJSON *rows = cJSON_AddArrayToObject(w, "loaded_gbps");
	for (int i = 0; i < 3; i++) {
		cJSON *row = cJSON_CreateArray();
		for (int j = 0; j < 3; j++)
			cJSON_AddItemToArray(row, i == j ? cJSON_CreateNull() : cJSON_CreateNumber(1 + i));
		cJSON_AddItemToArray(rows, row);
	}
	char *page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	assert_self_contained(page);
	cr_assert_not_null(strstr(page, "interference: busbw alone / together"));
	cr_assert_not_null(strstr(page, "interference: p99 time together / alone"));
	cr_assert_not_null(strstr(page, "host x host bandwidth under the load"));
	cr_assert_null(strstr(page, "host x host bandwidth alone"), "no such matrix: no heatmap");
	cr_assert_not_null(strstr(page, "&lt;b&gt;h1&lt;/b&gt;"), "the verdict is escaped");
	cr_assert_not_null(strstr(page, "2 values are not a number"));
	cr_assert_null(strstr(page, "does not know how to chart"));
	free(page);
	cJSON_Delete(r);
}

Test(html, overlap_page_charts_overlap_and_stacks_the_step)
{
	cJSON *r = fx_report("overlap", 8, 1), *results = cJSON_GetObjectItem(r, "results");
	for (int b = 1024; b <= 1 << 20; b *= 32) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "algorithm", "<ring>");
		cJSON_AddStringToObject(p, "compute", "gemm");
		cJSON_AddStringToObject(p, "progress", "test");
		cJSON_AddNumberToObject(p, "bytes", b);
		cJSON_AddNumberToObject(p, "overlap_osu_percent", 40);
		cJSON_AddItemToArray(results, p);
	}
	cJSON *sum = cJSON_AddObjectToObject(r, "summary");
	cJSON *st = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(sum, "steps"), st);
	cJSON_AddStringToObject(st, "algorithm", "mpi");
	cJSON_AddStringToObject(st, "compute", "stream");
	cJSON_AddNumberToObject(st, "compute_us", 100);
	cJSON_AddNumberToObject(st, "serial_us", 160);
	cJSON_AddNumberToObject(st, "step_us", 130);
	cJSON_AddNumberToObject(st, "exposed_us", 30);
	char *page = page_of(&r, 1);
	cr_assert_not_null(page, "%s", err);
	assert_self_contained(page);
	cr_assert_not_null(strstr(page, "overlap (OSU) beside gemm compute"));
	cr_assert_null(strstr(page, "beside stream compute"), "no stream point: no chart");
	cr_assert_not_null(strstr(page, "&lt;ring&gt;, progress test"), "names escaped");
	cr_assert_not_null(strstr(page, "<title>exposed 30 us</title>"));
	cr_assert_not_null(strstr(page, "<title>hidden 30 us</title>"));
	cr_assert_null(strstr(page, "does not know how to chart"));
	free(page);
	cJSON_Delete(r);
}
