/*
 * Inline SVG charts for the HTML report: line charts with axes, units, ticks
 * and a legend, and a heatmap. Pure: writes markup into an html_buf; every
 * string given here (titles, series names, labels) is escaped.
 */
#ifndef COLLSCOPE_SVG_H
#define COLLSCOPE_SVG_H

#include "reports/render/html.h"

#include <stdbool.h>
#include <stddef.h>

#define SVG_MAX_TICKS 24

/* Axis scales. LOG2_BYTES labels powers of two as sizes (8 B, 4 KiB, 1 MiB). */
enum svg_scale { SVG_LINEAR, SVG_LOG2, SVG_LOG2_BYTES, SVG_LOG10 };

/* Tick positions and the axis range they span (lo is the first tick, hi the last). */
struct svg_ticks {
	double v[SVG_MAX_TICKS];
	size_t n;
	double lo, hi;
};

/*
 * Ticks over [min, max] (finite; for the log scales both > 0): linear at
 * 1, 2 or 5 times a power of ten (from 0 when from_zero), at most about 8;
 * log2 at powers of two, every k-th so that there are at most 9; log10 at
 * every decade (with 2 and 5 between when the range is within two decades).
 * A degenerate range is widened. Returns 0, or -1 for a range the scale
 * cannot show (no finite values, non-positive on a log scale).
 */
int svg_ticks(enum svg_scale scale, double min, double max, bool from_zero, struct svg_ticks *t);

/* "8 B", "512 B", "1 KiB", "64 MiB", "2 GiB"; other values as "1.5 KiB". */
void svg_format_bytes(double bytes, char *buf, size_t len);
/* A tick label: no trailing zeros ("0.5", "10000"); exponent form from 1e6 and below 1e-3. */
void svg_format_number(double v, char *buf, size_t len);

struct svg_series {
	const char *name; /* legend */
	const double *x,
	    *y; /* n points, x ascending; a point that cannot be drawn breaks the line */
	size_t n;
	int color;      /* index into the palette */
	bool predicted; /* dashed, hollow markers, "(predicted)" in the legend */
};

struct svg_axis {
	const char *label; /* with its unit, e.g. "busbw (GB/s)" */
	enum svg_scale scale;
	bool from_zero; /* linear: start at 0 */
};

struct svg_chart {
	const char *title;
	const char *unit; /* of y, in the tooltips */
	struct svg_axis x, y;
	const struct svg_series *series;
	size_t nseries;
};

/* A line chart; points a log axis cannot show are left out and counted under the chart. */
void svg_line_chart(struct html_buf *b, const struct svg_chart *c);

struct svg_heatmap {
	const char *title, *unit;
	const char *row_label, *col_label; /* axis titles */
	size_t n;                          /* n x n cells */
	const double *values;              /* [row * n + col]; NAN: no data (the diagonal) */
	const bool *marked;                /* [row * n + col]: suspect cells, or NULL */
	const bool *marked_ranks;          /* n: ranks on a suspect host, or NULL */
	const char *const *tooltips;       /* [row * n + col] extra text, or NULL */
	bool low_is_bad;                   /* bandwidth: low values are the dark ones */
	const char *marked_rank_label;     /* the legend of marked_ranks; NULL: "rank on a suspect host" */
};

/* A heatmap with a colour scale legend; suspects outlined in red and marked "!". */
void svg_heatmap(struct html_buf *b, const struct svg_heatmap *h);

/* The palette colour of index i (wraps), as "#rrggbb". */
const char *svg_color(int i);

#endif
