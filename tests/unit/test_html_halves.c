/*
 * The allreduce page of a report that measured the all-reduce's halves
 * (--collective reduce_scatter|allgather, issue 35): the collective named in
 * the title, headings and axes with its bus factor; a report mixing
 * collectives charted apart, never one line through two of them; the halves
 * of a traced all-reduce as a table.
 */
#include "algorithms/variant.h"
#include "reports/render/html.h"
#include "report_fixtures.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[1024];

/* The page of one report; NULL (err set) when rendering failed. The caller frees it. */
static char *page_of(const cJSON *root)
{
	struct html_input in = {"halves.json", root};
	struct html_buf b;

	html_buf_init(&b);
	err[0] = '\0';
	if (html_render_page(&b, &in, 1, "0.test", err, sizeof err) != 0) {
		html_buf_release(&b);
		return NULL;
	}
	return b.data;
}

/* A measured point of collective c (NULL: no "collective", as reports before the halves). */
static cJSON *point(cJSON *r, const char *c, const char *algorithm, double bytes, double us)
{
	cJSON *rec = fx_measured(r, algorithm, bytes, us, 0.1, 20, 1);
	if (c)
		cJSON_AddStringToObject(rec, "collective", c);
	return rec;
}

/* The chart whose title is title, as a string of its own (the caller frees it); NULL: none. */
static char *chart(const char *page, const char *title)
{
	char want[256];
	const char *at, *start, *end;

	snprintf(want, sizeof want, "<title>%s</title>", title);
	at = strstr(page, want);
	if (!at)
		return NULL;
	for (start = at; start > page && strncmp(start, "<svg", 4) != 0; start--)
		;
	end = strstr(at, "</svg>");
	cr_assert_not_null(end);
	return strndup(start, (size_t)(end - start));
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

Test(html_halves, collective_names_and_order)
{
	cr_assert_eq(ar_collective_of("allgather"), AR_ALLGATHER);
	cr_assert_eq(ar_collective_of("reduce_scatter"), AR_REDUCE_SCATTER);
	cr_assert_eq(ar_collective_of("allreduce"), AR_ALLREDUCE);
	cr_assert_eq(ar_collective_of("all-gather"), AR_COLLECTIVES);
	cr_assert_eq(ar_collective_of(NULL), AR_COLLECTIVES);
	cr_assert_str_eq(ar_collective_titles[AR_REDUCE_SCATTER], "reduce-scatter");
	cr_assert_str_eq(ar_collective_bus_formula(AR_ALLGATHER), "(n-1)/n");
	cr_assert_str_eq(ar_collective_bus_formula(AR_ALLREDUCE), "2(n-1)/n");
}

Test(html_halves, a_half_is_named_with_its_bus_factor)
{
	cJSON *r = fx_report("allreduce", 4, 1);
	point(r, "reduce_scatter", "ring", 1024, 5);
	point(r, "reduce_scatter", "ring", 2048, 6);
	point(r, "reduce_scatter", "mpi", 1024, 4);
	char *page = page_of(r);

	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(
	    strstr(page, "<title>collscope report: allreduce (reduce-scatter)</title>"));
	cr_assert_not_null(strstr(page, "1. allreduce report (reduce-scatter) <code>"));
	cr_assert_not_null(strstr(page, "<td>allreduce (reduce-scatter)</td>"), "the overview");
	cr_assert_not_null(strstr(page, "<h3>Reduce-scatter: bandwidth and latency against"));
	cr_assert_not_null(strstr(page, "busbw = algbw × (n-1)/n, nccl-tests' bus factor of a "
	                                "reduce-scatter"));
	cr_assert_not_null(strstr(page, "each rank keeps a chunk"));
	cr_assert_not_null(strstr(page, ">reduce-scatter busbw (GB/s) = algbw × (n-1)/n</text>"));
	cr_assert_not_null(strstr(page, "<title>reduce-scatter busbw vs message size: float32 sum, "
	                                "4 ranks</title>"));
	cr_assert_not_null(strstr(page, "<title>reduce-scatter p50 time vs message size"));
	cr_assert_not_null(strstr(page, ">reduce-scatter p50 per call (µs, log scale)</text>"));
	cr_assert_null(strstr(page, "all-reduce busbw"), "no all-reduce chart");
	cr_assert_null(strstr(page, "All-reduce:"), "no all-reduce heading");
	cr_assert_null(strstr(page, "2(n-1)/n"), "nor the all-reduce's bus factor");
	free(page);
	cJSON_Delete(r);

	r = fx_report("allreduce", 4, 1);
	point(r, "allgather", "ring", 1024, 5);
	page = page_of(r);
	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, ">all-gather busbw (GB/s) = algbw × (n-1)/n</text>"));
	cr_assert_not_null(strstr(page, "each rank contributes a chunk"));
	free(page);
	cJSON_Delete(r);
}

Test(html_halves, the_all_reduce_alone_as_before)
{
	cJSON *r = fx_report("allreduce", 4, 1);
	point(r, NULL, "ring", 1024, 5);
	point(r, "allreduce", "ring", 2048, 6);
	char *page = page_of(r);

	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "1. allreduce report <code>"), "no collective suffix");
	cr_assert_not_null(strstr(page, "<title>collscope report: allreduce</title>"));
	cr_assert_not_null(strstr(page, ">all-reduce busbw (GB/s) = algbw × 2(n-1)/n</text>"));
	cr_assert_eq(count(page, "<h3>All-reduce: bandwidth"), 1);
	cr_assert_null(strstr(page, "reduce-scatter"));
	free(page);
	cJSON_Delete(r);
}

/*
 * ring's all-gather at 1-2 KiB and its all-reduce at 4-8 KiB: sorted by
 * collective and then variant, they are neighbours, and a series cut only
 * where the variant changes joined them in one line of four points.
 */
Test(html_halves, mixed_collectives_are_charted_apart)
{
	cJSON *r = fx_report("allreduce", 4, 1);
	point(r, "allgather", "ring", 1024, 5);
	point(r, "allgather", "ring", 2048, 6);
	point(r, "allreduce", "ring", 4096, 9);
	point(r, "allreduce", "ring", 8192, 12);
	point(r, "allreduce", "tree", 4096, 10);
	char *page = page_of(r), *ag, *ar;

	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "1. allreduce report (all-reduce, all-gather) <code>"));
	cr_assert(strstr(page, "<h3>All-reduce: bandwidth") <
	              strstr(page, "<h3>All-gather: bandwidth"),
	          "the all-reduce first, in the collectives' order");
	ag = chart(page, "all-gather busbw vs message size: float32 sum, 4 ranks");
	ar = chart(page, "all-reduce busbw vs message size: float32 sum, 4 ranks");
	cr_assert_not_null(ag);
	cr_assert_not_null(ar);
	cr_assert_eq(count(ag, "<path "), 1, "one series: ring's all-gather");
	cr_assert_eq(count(ag, " L"), 1, "of its two points, not four");
	cr_assert_not_null(strstr(ag, "<title>ring: 2 KiB,"));
	cr_assert_null(strstr(ag, "<title>ring: 4 KiB,"), "no all-reduce point in the all-gather");
	cr_assert_null(strstr(ag, ">tree</text>"));
	cr_assert_not_null(strstr(ag, ">all-gather busbw (GB/s) = algbw × (n-1)/n</text>"));
	cr_assert_eq(count(ar, "<path "), 2, "ring and tree");
	cr_assert_null(strstr(ar, "<title>ring: 1 KiB,"), "no all-gather point in the all-reduce");
	cr_assert_not_null(strstr(ar, ">all-reduce busbw (GB/s) = algbw × 2(n-1)/n</text>"));
	free(ag);
	free(ar);
	free(page);
	cJSON_Delete(r);
}

Test(html_halves, a_collective_this_build_does_not_know_is_escaped)
{
	cJSON *r = fx_report("allreduce", 4, 1);
	point(r, "<b>alltoall</b>", "ring", 1024, 5);
	char *page = page_of(r);

	cr_assert_not_null(page, "%s", err);
	cr_assert_null(strstr(page, "<b>"));
	cr_assert_not_null(
	    strstr(page, "1. allreduce report (&lt;b&gt;alltoall&lt;/b&gt;) <code>"));
	cr_assert_not_null(strstr(page, "busbw as recorded"));
	free(page);
	cJSON_Delete(r);
}

static cJSON *halves_of(cJSON *rec, double rs_us, double ag_us, int iterations)
{
	cJSON *h = cJSON_AddObjectToObject(cJSON_AddObjectToObject(rec, "trace"), "halves");
	cJSON_AddNumberToObject(h, "reduce_scatter_us", rs_us);
	cJSON_AddNumberToObject(h, "allgather_us", ag_us);
	cJSON_AddNumberToObject(h, "reduce_scatter_share", rs_us / (rs_us + ag_us));
	cJSON_AddNumberToObject(h, "iterations", iterations);
	return h;
}

Test(html_halves, traced_halves_are_a_table)
{
	cJSON *r = fx_report("allreduce", 4, 1);
	halves_of(point(r, NULL, "ring", 1 << 20, 100), 60, 40, 20);
	cJSON *h = halves_of(point(r, NULL, "rabenseifner", 1 << 20, 90), 50, 45, 20);
	cJSON_ReplaceItemInObject(h, "allgather_us", cJSON_CreateNull());
	point(r, NULL, "mpi", 1 << 20, 80);
	char *page = page_of(r);

	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "<h3>The all-reduce's halves (--trace)</h3>"));
	cr_assert_not_null(
	    strstr(page, "<th>reduce-scatter half (µs)</th><th>all-gather half (µs)"));
	cr_assert_not_null(strstr(page,
	                          "<tr><td>ring</td><td class=\"num\">1 MiB</td><td class=\"num\">4"
	                          "</td><td class=\"num\">"));
	cr_assert_not_null(strstr(page, "<td class=\"num\">60.00</td><td class=\"num\">40.00</td>"
	                                "<td class=\"num\">60%</td><td class=\"num\">20</td>"));
	cr_assert_not_null(
	    strstr(page, "<td class=\"num\">50.00</td><td class=\"num\">&#8212;</td>"),
	    "an undefined half is a dash");
	cr_assert_null(strstr(page, "<tr><td>mpi</td><td class=\"num\">1 MiB"),
	               "no halves: no row");
	free(page);
	cJSON_Delete(r);

	r = fx_report("allreduce", 4, 1);
	point(r, NULL, "ring", 1024, 5);
	page = page_of(r);
	cr_assert_not_null(page, "%s", err);
	cr_assert_null(strstr(page, "halves (--trace)"), "untraced: no table");
	free(page);
	cJSON_Delete(r);
}

Test(html_halves, halves_of_the_wrong_type_are_named)
{
	cJSON *r = fx_report("allreduce", 4, 1);
	cJSON *h = halves_of(point(r, NULL, "ring", 1024, 5), 3, 2, 20);
	cJSON_ReplaceItemInObject(h, "allgather_us", cJSON_CreateString("2"));

	cr_assert_null(page_of(r));
	cr_assert_not_null(strstr(err, "results[0].trace.halves.allgather_us is not a number"),
	                   "%s", err);
	cJSON_Delete(r);
}
