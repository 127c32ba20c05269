/*
 * SVG charts: ticks on linear, log2 and log10 axes, tick labels, and what
 * the line chart and the heatmap write (escaped names, markers, suspects).
 * The CLI suite parses whole rendered pages as XML.
 */
#include "reports/render/svg.h"

#include <criterion/criterion.h>
#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

Test(svg, log2_ticks_are_powers_of_two_and_cover_the_range)
{
	struct svg_ticks t;

	cr_assert_eq(svg_ticks(SVG_LOG2_BYTES, 8, 1048576, false, &t), 0);
	cr_assert_leq(t.n, 9);
	cr_assert_geq(t.n, 4);
	cr_assert_leq(t.lo, 8);
	cr_assert_geq(t.hi, 1048576);
	for (size_t i = 0; i < t.n; i++) {
		int e;
		cr_assert_eq(frexp(t.v[i], &e), 0.5, "%g is not a power of two", t.v[i]);
	}
	cr_assert_eq(t.v[0], t.lo);
	cr_assert_eq(t.v[t.n - 1], t.hi);
}

Test(svg, log2_ticks_of_one_value_widen)
{
	struct svg_ticks t;

	cr_assert_eq(svg_ticks(SVG_LOG2, 64, 64, false, &t), 0);
	cr_assert_lt(t.lo, t.hi);
	cr_assert_leq(t.lo, 64);
	cr_assert_geq(t.hi, 64);
}

Test(svg, log10_ticks)
{
	struct svg_ticks t;

	cr_assert_eq(svg_ticks(SVG_LOG10, 1.5, 850, false, &t), 0);
	cr_assert_eq(t.lo, 1);
	cr_assert_eq(t.hi, 1000);
	cr_assert_eq(t.n, 4);
	cr_assert_eq(t.v[2], 100);
	/* within two decades: 2 and 5 between */
	cr_assert_eq(svg_ticks(SVG_LOG10, 2, 40, false, &t), 0);
	cr_assert_eq(t.n, 7);
	cr_assert_eq(t.v[1], 2);
	cr_assert_eq(t.v[2], 5);
}

Test(svg, linear_ticks_are_round_and_start_at_zero)
{
	struct svg_ticks t;

	cr_assert_eq(svg_ticks(SVG_LINEAR, 0.003, 6.27, true, &t), 0);
	cr_assert_eq(t.lo, 0);
	cr_assert_geq(t.hi, 6.27);
	cr_assert_leq(t.n, 9);
	for (size_t i = 1; i < t.n; i++)
		cr_assert_float_eq(t.v[i] - t.v[i - 1], t.v[1] - t.v[0], 1e-12);
	cr_assert_eq(t.v[1], 2);
	/* a constant series still gets an axis */
	cr_assert_eq(svg_ticks(SVG_LINEAR, 5, 5, false, &t), 0);
	cr_assert_lt(t.lo, 5);
	cr_assert_gt(t.hi, 5);
	cr_assert_eq(svg_ticks(SVG_LINEAR, 0, 0, true, &t), 0);
	cr_assert_eq(t.lo, 0);
	cr_assert_gt(t.hi, 0);
}

Test(svg, impossible_ranges)
{
	struct svg_ticks t;

	cr_assert_eq(svg_ticks(SVG_LOG2, 0, 8, false, &t), -1);
	cr_assert_eq(svg_ticks(SVG_LOG10, -1, 8, false, &t), -1);
	cr_assert_eq(svg_ticks(SVG_LINEAR, NAN, 8, false, &t), -1);
	cr_assert_eq(svg_ticks(SVG_LINEAR, 0, INFINITY, false, &t), -1);
	cr_assert_eq(svg_ticks(SVG_LINEAR, 9, 8, false, &t), -1);
	cr_assert_eq(svg_ticks(SVG_LINEAR, -1e308, 1e308, false, &t), -1);
}

Test(svg, labels)
{
	char buf[32];

	svg_format_bytes(8, buf, sizeof buf);
	cr_assert_str_eq(buf, "8 B");
	svg_format_bytes(1024, buf, sizeof buf);
	cr_assert_str_eq(buf, "1 KiB");
	svg_format_bytes(1536, buf, sizeof buf);
	cr_assert_str_eq(buf, "1.5 KiB");
	svg_format_bytes(64.0 * 1048576, buf, sizeof buf);
	cr_assert_str_eq(buf, "64 MiB");
	svg_format_bytes(4.0 * 1073741824, buf, sizeof buf);
	cr_assert_str_eq(buf, "4 GiB");
	svg_format_number(10000, buf, sizeof buf);
	cr_assert_str_eq(buf, "10000");
	svg_format_number(0.5, buf, sizeof buf);
	cr_assert_str_eq(buf, "0.5");
	svg_format_number(0, buf, sizeof buf);
	cr_assert_str_eq(buf, "0");
	svg_format_number(1e6, buf, sizeof buf);
	cr_assert_str_eq(buf, "1e+06");
}

/* Pen lifts in every path: the 'M' commands inside d="...". */
static size_t path_moves(const char *svg)
{
	size_t n = 0;

	for (const char *d = strstr(svg, " d=\""); d; d = strstr(d + 1, " d=\""))
		for (const char *p = d + 4; *p && *p != '"'; p++)
			n += *p == 'M';
	return n;
}

static const double xs[] = {0, 8, 16, 32, 64};
static const double ring[] = {1, 2, 4, NAN, 8};
static const double tree[] = {1, 1.5, 3, 4, 5};

Test(svg, line_chart_has_axes_legend_and_escaped_names)
{
	struct svg_series s[] = {
	    {"ring", xs, ring, 5, 0, false},
	    {"<tree & \"co\">", xs, tree, 5, 1, true},
	};
	struct svg_chart c = {"busbw <vs> size",
	                      "GB/s",
	                      {"message size (bytes)", SVG_LOG2_BYTES, false},
	                      {"busbw (GB/s)", SVG_LINEAR, true},
	                      s,
	                      2};
	struct html_buf b;

	html_buf_init(&b);
	svg_line_chart(&b, &c);
	cr_assert_not(b.failed);
	cr_assert_eq(strncmp(b.data, "<svg ", 5), 0);
	cr_assert_not_null(strstr(b.data, "</svg>\n"));
	cr_assert_not_null(strstr(b.data, "busbw &lt;vs&gt; size"));
	cr_assert_not_null(strstr(b.data, "&lt;tree &amp; &quot;co&quot;&gt;"));
	cr_assert_null(strstr(b.data, "<tree"));
	cr_assert_not_null(strstr(b.data, "message size (bytes)"));
	cr_assert_not_null(strstr(b.data, ">busbw (GB/s)</text>"));
	cr_assert_not_null(strstr(b.data, ">8 B</text>"));
	cr_assert_not_null(strstr(b.data, "(predicted)"));
	cr_assert_not_null(strstr(b.data, "stroke-dasharray"));
	/* 3 + 4 drawable markers, 2 in the legend; the point at 0 bytes is counted, not drawn */
	cr_assert_eq(count(b.data, "<circle"), 9);
	cr_assert_not_null(strstr(b.data, "2 points at or below 0 not drawn"));
	/* the NAN breaks ring's line into two pieces */
	cr_assert_eq(path_moves(b.data), 2 + 1);
	html_buf_release(&b);
}

Test(svg, empty_chart_says_so)
{
	struct svg_chart c = {"nothing", "", {"x", SVG_LOG2, false}, {"y", SVG_LOG10, false},
	                      NULL,      0};
	struct html_buf b;

	html_buf_init(&b);
	svg_line_chart(&b, &c);
	cr_assert_not_null(strstr(b.data, "no data to draw"));
	cr_assert_null(strstr(b.data, "<circle"));
	html_buf_release(&b);
}

Test(svg, heatmap_marks_suspects)
{
	double v[9] = {NAN, 10, 9, 1, NAN, 10, 9, 10, NAN};
	bool marked[9] = {false, false, false, true};
	bool ranks[3] = {false, false, true};
	const char *tips[9] = {NULL, NULL, NULL, "slow <link>"};
	struct svg_heatmap h = {"bandwidth", "GB/s", "sender", "receiver", 3,
	                        v,           marked, ranks,    tips,       true, NULL};
	struct html_buf b;

	html_buf_init(&b);
	svg_heatmap(&b, &h);
	cr_assert_not(b.failed);
	cr_assert_eq(count(b.data, "<rect x=") - 2 - 10, 9, "9 cells, bg, no data, 10 scale steps");
	cr_assert_eq(count(b.data, "class=\"suspect\""), 2, "the cell and the legend");
	cr_assert_not_null(strstr(b.data, "1 to 0: 1 GB/s slow &lt;link&gt;"));
	cr_assert_not_null(strstr(b.data, "0 to 0: no data"));
	cr_assert_not_null(strstr(b.data, "class=\"tick sus\""));
	cr_assert_not_null(strstr(b.data, "10 (best)"));
	cr_assert_not_null(strstr(b.data, "1 (worst)"));
	html_buf_release(&b);
}

/* Hostile ranges (a busbw of 5e-324, zero, NaN, infinity, DBL_MAX): every tick finite and ordered. */
static const double awkward[] = {0,       5e-324,   -5e-324, 1e-310, 2.2250738585072014e-308,
                                 1e-300,  1e-12,    1,       1 + 1e-15, 3,
                                 1e15,    1e300,    1.7976931348623157e308,
                                 -1.7976931348623157e308, -1, NAN, INFINITY, -INFINITY};
#define NAWKWARD (sizeof awkward / sizeof awkward[0])

Test(svg, ticks_of_hostile_ranges_are_finite_and_ordered)
{
	static const enum svg_scale scales[] = {SVG_LINEAR, SVG_LOG2, SVG_LOG2_BYTES, SVG_LOG10};
	struct svg_ticks t;

	for (size_t s = 0; s < 4; s++)
		for (size_t i = 0; i < NAWKWARD; i++)
			for (size_t j = 0; j < NAWKWARD; j++)
				for (int z = 0; z < 2; z++) {
					double lo = awkward[i], hi = awkward[j];
					if (svg_ticks(scales[s], lo, hi, z, &t) != 0)
						continue;
					cr_assert(isfinite(lo) && isfinite(hi) && lo <= hi);
					cr_assert_geq(t.n, 1, "scale %zu [%g, %g]", s, lo, hi);
					cr_assert(isfinite(t.lo) && isfinite(t.hi) && t.lo < t.hi,
					          "scale %zu [%g, %g]: axis %g..%g", s, lo, hi, t.lo,
					          t.hi);
					cr_assert(isfinite(t.hi - t.lo));
					for (size_t k = 0; k < t.n; k++) {
						cr_assert(isfinite(t.v[k]), "[%g, %g] tick %zu", lo, hi, k);
						cr_assert(k == 0 || t.v[k] > t.v[k - 1],
						          "scale %zu [%g, %g]: ticks not increasing", s, lo,
						          hi);
					}
					if (scales[s] != SVG_LINEAR) {
						cr_assert(t.lo > 0 && t.lo <= lo && t.hi >= hi,
						          "log axis %g..%g does not hold [%g, %g]", t.lo,
						          t.hi, lo, hi);
						cr_assert(isfinite(log(t.hi) - log(t.lo)));
					}
				}
	/* the case of the review: a single busbw of 5e-324 on a linear axis from zero */
	cr_assert_eq(svg_ticks(SVG_LINEAR, 5e-324, 5e-324, true, &t), 0);
	cr_assert_geq(t.n, 2);
	cr_assert_eq(t.lo, 0);
}

/* Any "nan" or "inf" in the markup is a coordinate or a label gone wrong. */
static void assert_all_finite(const char *svg, const char *what)
{
	for (const char *p = svg; *p; p++) {
		cr_assert(strncasecmp(p, "nan", 3) != 0 || (p > svg && isalpha((unsigned char)p[-1])),
		          "%s: NaN in the markup near '%.60s'", what, p > svg + 30 ? p - 30 : svg);
		cr_assert(strncasecmp(p, "inf", 3) != 0 || (p > svg && isalpha((unsigned char)p[-1])),
		          "%s: infinity in the markup near '%.60s'", what, p > svg + 30 ? p - 30 : svg);
	}
}

Test(svg, charts_of_hostile_values_have_finite_coordinates)
{
	static const enum svg_scale yscales[] = {SVG_LINEAR, SVG_LOG10};
	double x[NAWKWARD], y[NAWKWARD];
	struct html_buf b;
	char what[96];

	for (size_t i = 0; i < NAWKWARD; i++)
		x[i] = 8.0 * (double)(i + 1);
	/* every value alone, every pair, and all of them in one series */
	for (size_t i = 0; i < NAWKWARD; i++)
		for (size_t j = 0; j <= NAWKWARD; j++)
			for (size_t s = 0; s < 2; s++)
				for (int z = 0; z < 2; z++) {
					size_t n = j == NAWKWARD ? NAWKWARD : 2;
					for (size_t k = 0; k < n; k++)
						y[k] = j == NAWKWARD ? awkward[k] : k ? awkward[j] : awkward[i];
					struct svg_series ser = {"s", x, y, n, 0, false};
					struct svg_chart c = {"t",  "GB/s", {"x", SVG_LOG2_BYTES, false},
					                      {"y", yscales[s], z}, &ser, 1};
					html_buf_init(&b);
					svg_line_chart(&b, &c);
					cr_assert_not(b.failed);
					snprintf(what, sizeof what, "y %g and %g, scale %zu, from zero %d",
					         awkward[i], j < NAWKWARD ? awkward[j] : 0.0, s, z);
					assert_all_finite(b.data, what);
					html_buf_release(&b);
				}
	/* a heatmap over the same values */
	double cells[16];
	for (size_t k = 0; k < 16; k++)
		cells[k] = awkward[k % NAWKWARD];
	struct svg_heatmap h = {"bw", "GB/s", "a", "b", 4, cells, NULL, NULL, NULL, true, NULL};
	html_buf_init(&b);
	svg_heatmap(&b, &h);
	cr_assert_not(b.failed);
	assert_all_finite(b.data, "heatmap");
	html_buf_release(&b);
}
