/*
 * Line charts for the HTML report: ticks, labels, the plot and its legend
 * (see svg.h). Coordinates are pixels of the SVG's own viewBox.
 */
#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Chart geometry: the plot area is [PLOT_L, PLOT_R] x [PLOT_T, PLOT_B]. */
#define CHART_W           780
#define CHART_H           400
#define PLOT_L            78
#define PLOT_R            570
#define PLOT_T            44
#define PLOT_B            342
#define LEGEND_MAX        16
#define LEGEND_NAME_BYTES 26

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

const char *svg_color(int i)
{
	int n = (int)(sizeof palette / sizeof palette[0]);

	return palette[((i % n) + n) % n];
}

static void push(struct svg_ticks *t, double v)
{
	if (t->n < SVG_MAX_TICKS)
		t->v[t->n++] = v;
}

/*
 * A range too narrow for distinct ticks at double precision (a constant
 * series, or ends within a billionth of their size of each other), or so
 * close to zero that a sixth of it would be a denormal (busbw 5e-324), is
 * widened around its values: by their size, or by 1 when that is below
 * LINEAR_MIN_SPAN too (such values are zero for the eye). Widened upwards
 * unless that overflows. False when no finite range results.
 */
#define LINEAR_MIN_SPAN 1e-290

static bool widen(double *min, double *max, bool from_zero)
{
	double size = fmax(fabs(*min), fabs(*max)), span = *max - *min, w;

	if (span > size * 1e-9 && span >= LINEAR_MIN_SPAN)
		return isfinite(span);
	w = size >= LINEAR_MIN_SPAN ? size : 1;
	if (isfinite(*max + w / 2)) {
		*max += w / 2;
		*min = from_zero && *min == 0 ? 0 : *min - w / 2;
	} else {
		*min -= w;
	}
	span = *max - *min;
	return isfinite(span) && span >= LINEAR_MIN_SPAN && span > size * 1e-9;
}

/*
 * Ticks at whole multiples of a round step: i0 * step .. i1 * step. The step
 * is at least a tenth of the span, which is more than 1e-10 of the values'
 * size, so consecutive ticks differ by far more than a double's precision
 * and i0, i1 stay below 1e11 (exact as doubles). -1 when a tick or the
 * axis length overflows (ranges near DBL_MAX).
 */
static int ticks_linear(double min, double max, bool from_zero, struct svg_ticks *t)
{
	double raw, mag, norm, step, i0, i1;

	if (from_zero) {
		min = fmin(min, 0);
		max = fmax(max, 0);
	}
	if (!widen(&min, &max, from_zero))
		return -1;
	raw = (max - min) / 6;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
	i0 = floor(min / step);
	i1 = ceil(max / step);
	if (!isfinite(step) || !(step > 0) || !isfinite(i0) || !isfinite(i1))
		return -1;
	for (double i = i0; i <= i1 && t->n < SVG_MAX_TICKS; i++) {
		double v = i * step;
		if (!isfinite(v))
			return -1;
		push(t, fabs(v) < step * 1e-9 ? 0 : v);
	}
	if (t->n < 2)
		return -1;
	t->lo = t->v[0];
	t->hi = t->v[t->n - 1];
	return isfinite(t->hi - t->lo) && t->hi > t->lo ? 0 : -1;
}

/* A tick when it is a positive finite double (10^-324 is 0, 2^1024 infinite). */
static void push_positive(struct svg_ticks *t, double v)
{
	if (v > 0 && isfinite(v))
		push(t, v);
}

/*
 * Ticks at powers of base over [min, max] (both > 0 and finite). The axis
 * spans the enclosing powers, clamped to the data where a power is not a
 * double (below the smallest denormal, above DBL_MAX), so that every value
 * drawn has a finite logarithm between the axis ends.
 */
static int ticks_log(double base, double min, double max, struct svg_ticks *t)
{
	double lo, hi, k;
	bool few;

	if (!(min > 0) || !(max > 0))
		return -1;
	lo = floor(log(min) / log(base) + 1e-9);
	hi = ceil(log(max) / log(base) - 1e-9);
	if (!isfinite(lo) || !isfinite(hi))
		return -1;
	if (hi <= lo)
		hi = lo + 1;
	few = base == 10 && hi - lo <= 2;
	k = ceil((hi - lo) / 8);
	hi = lo + k * ceil((hi - lo) / k);
	for (double e = lo; e <= hi && t->n < SVG_MAX_TICKS; e += k) {
		push_positive(t, pow(base, e));
		if (few && e < hi) {
			push_positive(t, 2 * pow(base, e));
			push_positive(t, 5 * pow(base, e));
		}
	}
	t->lo = pow(base, lo);
	t->hi = pow(base, hi);
	if (!(t->lo > 0) || t->lo > min)
		t->lo = min;
	if (!isfinite(t->hi) || t->hi < max)
		t->hi = max;
	return t->n > 0 && log(t->hi) > log(t->lo) && isfinite(log(t->hi) - log(t->lo)) ? 0 : -1;
}

int svg_ticks(enum svg_scale scale, double min, double max, bool from_zero, struct svg_ticks *t)
{
	memset(t, 0, sizeof *t);
	if (!isfinite(min) || !isfinite(max) || min > max)
		return -1;
	if (scale == SVG_LINEAR)
		return ticks_linear(min, max, from_zero, t);
	return ticks_log(scale == SVG_LOG10 ? 10 : 2, min, max, t);
}

void svg_format_bytes(double bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	size_t u = 0;

	while (fabs(bytes) >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%.4g %s", bytes, units[u]);
}

void svg_format_number(double v, char *buf, size_t len)
{
	if (v != 0 && (fabs(v) >= 1e6 || fabs(v) < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.6g", v);
}

static bool drawable(enum svg_scale s, double v)
{
	return isfinite(v) && (s == SVG_LINEAR || v > 0);
}

/* Position of v along an axis of ticks t: 0 at lo, 1 at hi. */
static double frac(enum svg_scale s, const struct svg_ticks *t, double v)
{
	if (s == SVG_LINEAR)
		return (v - t->lo) / (t->hi - t->lo);
	return (log(v) - log(t->lo)) / (log(t->hi) - log(t->lo));
}

static double px_x(const struct svg_chart *c, const struct svg_ticks *t, double v)
{
	return PLOT_L + frac(c->x.scale, t, v) * (PLOT_R - PLOT_L);
}

static double px_y(const struct svg_chart *c, const struct svg_ticks *t, double v)
{
	return PLOT_B - frac(c->y.scale, t, v) * (PLOT_B - PLOT_T);
}

static void format_tick(enum svg_scale s, double v, char *buf, size_t len)
{
	if (s == SVG_LOG2_BYTES)
		svg_format_bytes(v, buf, len);
	else
		svg_format_number(v, buf, len);
}

/* The data range of the drawable points; the number left out. False when nothing is drawable. */
static bool data_range(const struct svg_chart *c, double *x0, double *x1, double *y0, double *y1,
                       size_t *left_out)
{
	*x0 = *y0 = INFINITY;
	*x1 = *y1 = -INFINITY;
	*left_out = 0;
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];
			if (!isfinite(y) || !isfinite(x))
				continue; /* undefined, not left out */
			if (!drawable(c->x.scale, x) || !drawable(c->y.scale, y)) {
				(*left_out)++;
				continue;
			}
			*x0 = fmin(*x0, x);
			*x1 = fmax(*x1, x);
			*y0 = fmin(*y0, y);
			*y1 = fmax(*y1, y);
		}
	return *x0 <= *x1;
}

static void axes(struct html_buf *b, const struct svg_chart *c, const struct svg_ticks *tx,
                 const struct svg_ticks *ty)
{
	char label[48];

	for (size_t i = 0; i < tx->n; i++) {
		double x = px_x(c, tx, tx->v[i]);
		format_tick(c->x.scale, tx->v[i], label, sizeof label);
		html_rawf(
		    b,
		    "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		    "<line class=\"axis\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		    x, PLOT_T, x, PLOT_B, x, PLOT_B, x, PLOT_B + 5, x, PLOT_B + 19, label);
	}
	for (size_t i = 0; i < ty->n; i++) {
		double y = px_y(c, ty, ty->v[i]);
		format_tick(c->y.scale, ty->v[i], label, sizeof label);
		html_rawf(
		    b,
		    "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		    "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		    "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    PLOT_L, y, PLOT_R, y, PLOT_L - 5, y, PLOT_L, y, PLOT_L - 8, y + 4, label);
	}
}

static void frame(struct html_buf *b, const struct svg_chart *c)
{
	html_rawf(b,
	          "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
	          "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
	          PLOT_L, PLOT_B, PLOT_R, PLOT_B, PLOT_L, PLOT_T, PLOT_L, PLOT_B);
	html_rawf(b, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
	          (PLOT_L + PLOT_R) / 2, CHART_H - 14);
	html_text(b, c->x.label, 0);
	html_rawf(b,
	          "</text>\n<text class=\"label\" x=\"18\" y=\"%d\" text-anchor=\"middle\" "
	          "transform=\"rotate(-90 18 %d)\">",
	          (PLOT_T + PLOT_B) / 2, (PLOT_T + PLOT_B) / 2);
	html_text(b, c->y.label, 0);
	html_raw(b, "</text>\n");
}

/* One marker with its tooltip. */
static void marker(struct html_buf *b, const struct svg_chart *c, const struct svg_series *s,
                   double px, double py, double x, double y)
{
	char xs[48], ys[48];

	format_tick(c->x.scale, x, xs, sizeof xs);
	snprintf(ys, sizeof ys, "%.4g", y);
	html_rawf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\" stroke=\"%s\"><title>",
	          px, py, s->predicted ? "#ffffff" : svg_color(s->color), svg_color(s->color));
	html_text(b, s->name, 0);
	html_rawf(b, "%s: %s, %s ", s->predicted ? " (predicted)" : "", xs, ys);
	html_text(b, c->unit, 0);
	html_raw(b, "</title></circle>\n");
}

static void series(struct html_buf *b, const struct svg_chart *c, const struct svg_series *s,
                   const struct svg_ticks *tx, const struct svg_ticks *ty)
{
	bool pen_down = false;

	html_rawf(b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s d=\"",
	          svg_color(s->color), s->predicted ? " stroke-dasharray=\"7 4\"" : "");
	for (size_t i = 0; i < s->n; i++) {
		if (!drawable(c->x.scale, s->x[i]) || !drawable(c->y.scale, s->y[i])) {
			pen_down = false;
			continue;
		}
		html_rawf(b, "%s%.1f %.1f ", pen_down ? "L" : "M", px_x(c, tx, s->x[i]),
		          px_y(c, ty, s->y[i]));
		pen_down = true;
	}
	html_raw(b, "\"/>\n");
	for (size_t i = 0; i < s->n; i++)
		if (drawable(c->x.scale, s->x[i]) && drawable(c->y.scale, s->y[i]))
			marker(b, c, s, px_x(c, tx, s->x[i]), px_y(c, ty, s->y[i]), s->x[i],
			       s->y[i]);
}

static void legend(struct html_buf *b, const struct svg_chart *c)
{
	int x = PLOT_R + 16;

	for (size_t i = 0; i < c->nseries && i < LEGEND_MAX; i++) {
		const struct svg_series *s = &c->series[i];
		int y = PLOT_T + 8 + (int)i * 19;
		html_rawf(
		    b,
		    "<g class=\"legend\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"%s\" stroke-width=\"2\"%s/><circle cx=\"%d\" cy=\"%d\" r=\"3.2\" "
		    "fill=\"%s\" stroke=\"%s\"/><text x=\"%d\" y=\"%d\"><title>",
		    x, y, x + 26, y, svg_color(s->color),
		    s->predicted ? " stroke-dasharray=\"7 4\"" : "", x + 13, y,
		    s->predicted ? "#ffffff" : svg_color(s->color), svg_color(s->color), x + 32,
		    y + 4);
		html_text(b, s->name, 0);
		html_raw(b, "</title>");
		html_text(b, s->name, LEGEND_NAME_BYTES);
		html_raw(b, s->predicted ? " (predicted)</text></g>\n" : "</text></g>\n");
	}
	if (c->nseries > LEGEND_MAX)
		html_rawf(b, "<text class=\"note\" x=\"%d\" y=\"%d\">and %zu more</text>\n", x,
		          PLOT_T + 8 + LEGEND_MAX * 19 + 4, c->nseries - LEGEND_MAX);
}

void svg_line_chart(struct html_buf *b, const struct svg_chart *c)
{
	struct svg_ticks tx, ty;
	double x0, x1, y0, y1;
	size_t left_out;
	bool any = data_range(c, &x0, &x1, &y0, &y1, &left_out);

	html_rawf(b,
	          "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	          "role=\"img\"><title>",
	          CHART_W, CHART_H, CHART_W, CHART_H);
	html_text(b, c->title, 0);
	html_rawf(b,
	          "</title>\n<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>\n"
	          "<text class=\"title\" x=\"%d\" y=\"24\">",
	          CHART_W, CHART_H, PLOT_L);
	html_text(b, c->title, 0);
	html_raw(b, "</text>\n");
	if (any && svg_ticks(c->x.scale, x0, x1, c->x.from_zero, &tx) == 0 &&
	    svg_ticks(c->y.scale, y0, y1, c->y.from_zero, &ty) == 0) {
		axes(b, c, &tx, &ty);
		for (size_t s = 0; s < c->nseries; s++)
			series(b, c, &c->series[s], &tx, &ty);
	} else {
		html_rawf(b,
		          "<text class=\"note\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		          "no data to draw</text>\n",
		          (PLOT_L + PLOT_R) / 2, (PLOT_T + PLOT_B) / 2);
	}
	frame(b, c);
	legend(b, c);
	if (left_out)
		html_rawf(b,
		          "<text class=\"note\" x=\"%d\" y=\"24\" text-anchor=\"end\">%zu "
		          "point%s at or below 0 not drawn (log axis)</text>\n",
		          CHART_W - 8, left_out, left_out == 1 ? "" : "s");
	html_raw(b, "</svg>\n");
}
