/*
 * The heatmap of the HTML report: one cell per ordered pair of ranks, a
 * colour scale from bad (dark) to good (light), suspects outlined in red
 * (see svg.h).
 */
#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>

#define HM_LEFT        92
#define HM_TOP         78
#define HM_LEGEND_W    190
#define HM_GRID_MAX_PX 560
#define HM_LABEL_PX    15  /* a rank label needs this much room */
#define HM_STEPS       10  /* colour steps in the legend */
#define HM_MIN_W       480 /* room for the title */

/* Viridis at five stops: dark purple (bad) to yellow (good). */
static const unsigned char stops[5][3] = {
    {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c},
    {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25},
};

static void color_at(double t, char *buf, size_t len)
{
	double pos = fmin(fmax(t, 0), 1) * 4;
	int i = (int)fmin(floor(pos), 3);
	double f = pos - i;
	int rgb[3];

	for (int k = 0; k < 3; k++)
		rgb[k] = (int)lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]));
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* 0 for the worst value, 1 for the best. */
static double goodness(const struct svg_heatmap *h, double v, double lo, double hi)
{
	double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;

	return h->low_is_bad ? t : 1 - t;
}

static int cell_px(size_t n)
{
	int px = n ? HM_GRID_MAX_PX / (int)n : 32;

	return px > 32 ? 32 : px < 3 ? 3 : px;
}

static void labels(struct html_buf *b, const struct svg_heatmap *h, int cell)
{
	int every = (HM_LABEL_PX + cell - 1) / cell;
	int grid = cell * (int)h->n;

	for (size_t i = 0; i < h->n; i += (size_t)every) {
		const char *cls = h->marked_ranks && h->marked_ranks[i] ? "tick sus" : "tick";
		int mid = (int)i * cell + cell / 2;
		html_rawf(
		    b,
		    "<text class=\"%s\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu</text>"
		    "<text class=\"%s\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%zu</text>\n",
		    cls, HM_LEFT - 6, HM_TOP + mid + 4, i, cls, HM_LEFT + mid, HM_TOP - 8, i);
	}
	html_rawf(b, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
	          HM_LEFT + grid / 2, HM_TOP - 28);
	html_text(b, h->col_label, 0);
	html_rawf(b,
	          "</text><text class=\"label\" x=\"22\" y=\"%d\" text-anchor=\"middle\" "
	          "transform=\"rotate(-90 22 %d)\">",
	          HM_TOP + grid / 2, HM_TOP + grid / 2);
	html_text(b, h->row_label, 0);
	html_raw(b, "</text>\n");
}

static void cell(struct html_buf *b, const struct svg_heatmap *h, size_t r, size_t c, int px,
                 double lo, double hi)
{
	size_t k = r * h->n + c;
	double v = h->values[k];
	bool marked = h->marked && h->marked[k];
	int x = HM_LEFT + (int)c * px, y = HM_TOP + (int)r * px;
	char fill[8] = "#eeeeee";

	if (isfinite(v))
		color_at(goodness(h, v, lo, hi), fill, sizeof fill);
	html_rawf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s><title>", x,
	          y, px, px, fill, marked ? " class=\"suspect\"" : "");
	if (isfinite(v))
		html_rawf(b, "%zu to %zu: %.4g ", r, c, v);
	else
		html_rawf(b, "%zu to %zu: no data ", r, c);
	html_text(b, h->unit, 0);
	if (h->tooltips && h->tooltips[k]) {
		html_raw(b, " ");
		html_text(b, h->tooltips[k], 0);
	}
	html_raw(b, "</title></rect>\n");
	if (marked && px >= 12)
		html_rawf(
		    b, "<text class=\"mark\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">!</text>\n",
		    x + px / 2, y + px / 2 + 5);
}

static void scale_legend(struct html_buf *b, const struct svg_heatmap *h, int x, double lo,
                         double hi)
{
	char fill[8];

	html_rawf(b, "<text class=\"label\" x=\"%d\" y=\"%d\">", x, HM_TOP - 8);
	html_text(b, h->unit, 0);
	html_raw(b, "</text>\n");
	/* best at the top, worst at the bottom */
	for (int i = 0; i < HM_STEPS; i++) {
		color_at(1 - (i + 0.5) / HM_STEPS, fill, sizeof fill);
		html_rawf(b, "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"16\" fill=\"%s\"/>\n",
		          x, HM_TOP + i * 16, fill);
	}
	html_rawf(b,
	          "<text class=\"tick\" x=\"%d\" y=\"%d\">%.4g (best)</text>"
	          "<text class=\"tick\" x=\"%d\" y=\"%d\">%.4g (worst)</text>\n",
	          x + 24, HM_TOP + 11, h->low_is_bad ? hi : lo, x + 24, HM_TOP + HM_STEPS * 16 - 3,
	          h->low_is_bad ? lo : hi);
	html_rawf(
	    b,
	    "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"16\" fill=\"#eeeeee\"/>"
	    "<text class=\"tick\" x=\"%d\" y=\"%d\">no data</text>\n"
	    "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"16\" fill=\"#ffffff\" "
	    "class=\"suspect\"/><text class=\"tick\" x=\"%d\" y=\"%d\">suspect link</text>\n"
	    "<text class=\"tick sus\" x=\"%d\" y=\"%d\">n</text><text class=\"tick\" x=\"%d\" "
	    "y=\"%d\">",
	    x, HM_TOP + 176, x + 24, HM_TOP + 188, x, HM_TOP + 200, x + 24, HM_TOP + 212, x + 4,
	    HM_TOP + 236, x + 24, HM_TOP + 236);
	html_text(b, h->marked_rank_label ? h->marked_rank_label : "rank on a suspect host", 0);
	html_raw(b, "</text>\n");
}

void svg_heatmap(struct html_buf *b, const struct svg_heatmap *h)
{
	int px = cell_px(h->n), grid = px * (int)h->n;
	int width = HM_LEFT + grid + HM_LEGEND_W, height = HM_TOP + grid + 24;
	double lo = INFINITY, hi = -INFINITY;

	if (height < HM_TOP + 250)
		height = HM_TOP + 250;
	if (width < HM_MIN_W)
		width = HM_MIN_W;
	for (size_t k = 0; k < h->n * h->n; k++)
		if (isfinite(h->values[k])) {
			lo = fmin(lo, h->values[k]);
			hi = fmax(hi, h->values[k]);
		}
	html_rawf(b,
	          "<svg class=\"chart heatmap\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	          "role=\"img\"><title>",
	          width, height, width, height);
	html_text(b, h->title, 0);
	html_rawf(b,
	          "</title>\n<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>\n"
	          "<text class=\"title\" x=\"%d\" y=\"24\">",
	          width, height, HM_LEFT);
	html_text(b, h->title, 0);
	html_raw(b, "</text>\n");
	labels(b, h, px);
	for (size_t r = 0; r < h->n; r++)
		for (size_t c = 0; c < h->n; c++)
			cell(b, h, r, c, px, lo, hi);
	if (lo <= hi)
		scale_legend(b, h, HM_LEFT + grid + 24, lo, hi);
	else
		html_rawf(b, "<text class=\"note\" x=\"%d\" y=\"%d\">no data</text>\n",
		          HM_LEFT + grid + 24, HM_TOP + 12);
	html_raw(b, "</svg>\n");
}
