/* See alone.h. */
#include "reports/diagnose/alone.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>

/* Is the cell from host i to host j of pairs measured, and within (1 - tolerance) x expected? */
static bool fine(const double *pairs, int nhosts, int i, int j, double floor_gbps)
{
	if (i < 0 || j < 0 || i >= nhosts || j >= nhosts || i == j)
		return false;
	double x = pairs[i * nhosts + j];
	return isfinite(x) && x >= floor_gbps;
}

/* A confirmed link of the shift whose cells alone are all fine: a candidate to clear. */
static bool fine_alone(const struct detect_suspect *s, const double *pairs, int nhosts,
                       double expected, const struct detect_params *p)
{
	if (!s->confirmed || !s->loaded || s->kind != DETECT_LINK || !s->between_hosts ||
	    s->metric != DETECT_BANDWIDTH || s->locality != DETECT_CROSS_HOST)
		return false;
	double floor_gbps = (1 - detect_tolerance(p, s->metric, s->locality)) * expected;
	bool ab = s->direction != DETECT_DIR_BA, ba = s->direction != DETECT_DIR_AB;
	return (!ab || fine(pairs, nhosts, s->host_a, s->host_b, floor_gbps)) &&
	       (!ba || fine(pairs, nhosts, s->host_b, s->host_a, floor_gbps));
}

/*
 * Colours the hosts of the candidates' links two ways, link ends apart
 * (color: -1 none yet), one connected part at a time from host `from`; part[h]
 * its index. Returns whether the part is two groups (no link within a group)
 * of two hosts or more each: a segment's shape.
 */
static bool two_groups(const struct detect_result *r, const bool *cand, int from, int index,
                       signed char *color, int *part)
{
	int count[2] = {1, 0};
	bool odd = false, grew = true;
	color[from] = 0;
	part[from] = index;
	while (grew) { /* a few passes: the candidates are few */
		grew = false;
		for (int i = 0; i < r->nsuspects; i++) {
			const struct detect_suspect *s = &r->suspects[i];
			if (!cand[i])
				continue;
			int a = s->host_a, b = s->host_b;
			if (color[a] < 0 && color[b] < 0)
				continue;
			/* both coloured: an earlier part's link is that part's */
			if (color[a] >= 0 && color[b] >= 0) {
				odd |= part[a] == index && color[a] == color[b];
				continue;
			}
			int known = color[a] >= 0 ? a : b, other = known == a ? b : a;
			color[other] = (signed char)(1 - color[known]);
			part[other] = index;
			count[color[other]]++;
			grew = true;
		}
	}
	return !odd && count[0] >= 2 && count[1] >= 2;
}

int alone_clear(struct detect_result *r, const double *pairs, int nhosts, double expected,
                const struct detect_params *p)
{
	int cleared = 0, parts = 0;
	if (!pairs || !(expected > 0) || nhosts <= 0 || r->nsuspects == 0)
		return 0;
	bool *cand = calloc((size_t)r->nsuspects, sizeof *cand);
	bool *segment = calloc((size_t)nhosts, sizeof *segment); /* by part */
	signed char *color = malloc((size_t)nhosts);
	int *part = malloc((size_t)nhosts * sizeof *part);
	if (!cand || !segment || !color || !part)
		goto out;
	for (int h = 0; h < nhosts; h++)
		color[h] = -1;
	for (int i = 0; i < r->nsuspects; i++)
		cand[i] = fine_alone(&r->suspects[i], pairs, nhosts, expected, p) &&
		          r->suspects[i].host_a >= 0 && r->suspects[i].host_a < nhosts &&
		          r->suspects[i].host_b >= 0 && r->suspects[i].host_b < nhosts;
	for (int i = 0; i < r->nsuspects; i++)
		if (cand[i] && color[r->suspects[i].host_a] < 0) {
			int from = r->suspects[i].host_a;
			segment[parts] = two_groups(r, cand, from, parts, color, part);
			parts++;
		}
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!cand[i] || segment[part[s->host_a]])
			continue;
		s->confirmed = false;
		s->alone_cleared = true;
		cleared++;
	}
out:
	free(cand);
	free(segment);
	free(color);
	free(part);
	return cleared;
}

/* Host h's finite cells of m, out (i -> x) and/or in (x -> i), into v; their count. */
static size_t host_cells_of(const double *m, int nhosts, int h, bool out, bool in, double *v)
{
	size_t k = 0;
	for (int x = 0; x < nhosts; x++) {
		double o = m[(size_t)h * (size_t)nhosts + (size_t)x];
		double i = m[(size_t)x * (size_t)nhosts + (size_t)h];
		if (x != h && out && isfinite(o))
			v[k++] = o;
		if (x != h && in && isfinite(i))
			v[k++] = i;
	}
	return k;
}

int alone_clear_hosts(struct detect_result *r, const double *pairs, const double *bidir,
                      int nhosts, double expected, const struct detect_params *p)
{
	if (!pairs || !bidir || !(expected > 0) || nhosts <= 0)
		return 0;
	size_t cells = (size_t)nhosts * (size_t)nhosts;
	double *v = malloc((cells + 1) * sizeof *v);
	if (!v)
		return -1;
	size_t k;
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!s->confirmed || !s->loaded || s->kind != DETECT_HOST || s->rail ||
		    s->metric != DETECT_BANDWIDTH || s->locality != DETECT_CROSS_HOST || s->host < 0 ||
		    s->host >= nhosts)
			continue;
		double floor = 1 - detect_tolerance(p, s->metric, s->locality);
		bool out = s->direction != DETECT_DIR_BA, in = s->direction != DETECT_DIR_AB;
		k = host_cells_of(pairs, nhosts, s->host, out, in, v);
		double one_way = stats_median_inplace(v, k);
		k = host_cells_of(bidir, nhosts, s->host, true, true, v);
		double both = stats_median_inplace(v, k);
		/* both ways at once, against the cells that do not touch it */
		k = 0;
		for (size_t c = 0; c < cells; c++)
			if (c / (size_t)nhosts != (size_t)s->host &&
			    c % (size_t)nhosts != (size_t)s->host && isfinite(bidir[c]))
				v[k++] = bidir[c];
		double others = stats_median_inplace(v, k);
		if (one_way >= floor * expected && both >= floor * others) {
			s->confirmed = false;
			s->alone_cleared = true;
			cleared++;
		}
	}
	free(v);
	return cleared;
}
