/* See segment_links.h. */
#include "reports/diagnose/segment_links.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>

/* Is the way from -> to (hosts) among segment g's slow ways (sides: its row)? */
static bool slow_way(const struct detect_suspect *g, const signed char *sides, int from)
{
	return g->direction == DETECT_DIR_BOTH || (g->direction == DETECT_DIR_AB) == (sides[from] == 0);
}

bool segment_explains_link(const struct detect_result *r, const struct detect_suspect *g,
                           const struct detect_suspect *s, const struct detect_params *p)
{
	const signed char *sides = detect_sides(r, g);
	if (!sides || s->kind != DETECT_LINK || s->metric != g->metric ||
	    s->locality != g->locality || s->loaded != g->loaded ||
	    !detect_sides_cross(sides, r->nhosts, s->host_a, s->host_b))
		return false;
	/* a link a -> b is slow a to b (DIR_AB), b to a (DIR_BA) or both */
	if ((s->direction != DETECT_DIR_BA && !slow_way(g, sides, s->host_a)) ||
	    (s->direction != DETECT_DIR_AB && !slow_way(g, sides, s->host_b)))
		return false;
	if (!isfinite(s->measured) || !isfinite(g->measured))
		return false;
	double t = detect_tolerance(p, s->metric, s->locality);
	return s->metric == DETECT_BANDWIDTH ? s->measured >= (1 - t) * g->measured
	                                     : s->measured * (1 - t) <= g->measured;
}

int segment_clear_links(struct detect_result *r, const struct detect_params *p)
{
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		for (int j = 0; s->confirmed && s->kind == DETECT_LINK && j < r->nsuspects; j++) {
			const struct detect_suspect *g = &r->suspects[j];
			if (g->confirmed && g->kind == DETECT_SEGMENT && segment_explains_link(r, g, s, p)) {
				s->confirmed = false;
				s->segment_cleared = true;
				cleared++;
			}
		}
	}
	return cleared;
}

/*
 * Host h's cells within its side, its slow ways (send: h -> y, receive: y -> h),
 * into own, and the cells within either side that do not touch h into ref; their counts.
 */
static void cells_within(const double *cells, int nh, const signed char *sides, int h,
                         enum detect_direction d, double *own, size_t *nown, double *ref,
                         size_t *nref)
{
	*nown = *nref = 0;
	for (int x = 0; x < nh; x++)
		for (int y = 0; y < nh; y++) {
			double c = cells[(size_t)x * (size_t)nh + (size_t)y];
			if (x == y || sides[x] < 0 || sides[x] != sides[y] || !isfinite(c))
				continue;
			if (x != h && y != h)
				ref[(*nref)++] = c;
			else if ((x == h && d != DETECT_DIR_BA) || (y == h && d != DETECT_DIR_AB))
				own[(*nown)++] = c;
		}
}

/* Are the ways host s is slow across g's cut among g's (sides: g's row)? */
static bool host_ways_are_segments(const struct detect_suspect *g, const signed char *sides,
                                   const struct detect_suspect *s)
{
	int mine = sides[s->host];
	/* what s sends leaves its side; what it receives comes from the other */
	bool send = s->direction != DETECT_DIR_BA, receive = s->direction != DETECT_DIR_AB;
	bool out_slow = g->direction == DETECT_DIR_BOTH || (g->direction == DETECT_DIR_AB) == (mine == 0);
	bool in_slow = g->direction == DETECT_DIR_BOTH || (g->direction == DETECT_DIR_AB) == (mine == 1);
	return (!send || out_slow) && (!receive || in_slow);
}

/* segment_explains_host with scratch own and ref of nhosts^2 entries each. */
static bool explains_host(const struct detect_result *r, const struct detect_suspect *g,
                          const struct detect_suspect *s, const double *cells,
                          const struct detect_params *p, double *own, double *ref)
{
	const signed char *sides = detect_sides(r, g);
	/* a host of the shift may be read on the isolated pairs' segment and matrix */
	bool same = s->loaded == g->loaded;
	if (!sides || s->kind != DETECT_HOST || s->metric != DETECT_BANDWIDTH ||
	    s->metric != g->metric || s->locality != g->locality || (!same && g->loaded) ||
	    s->host < 0 || s->host >= r->nhosts || sides[s->host] < 0 ||
	    !host_ways_are_segments(g, sides, s) || !isfinite(s->measured) ||
	    !isfinite(g->measured))
		return false;
	double t = detect_tolerance(p, s->metric, s->locality);
	if (same && s->measured < (1 - t) * g->measured)
		return false; /* slower than the segment: a fault of its own */
	size_t nown, nref;
	cells_within(cells, r->nhosts, sides, s->host, s->direction, own, &nown, ref, &nref);
	double mine = stats_median_inplace(own, nown), others = stats_median_inplace(ref, nref);
	return isfinite(mine) && isfinite(others) && mine >= (1 - t) * others;
}

static bool scratch(int nhosts, double **own, double **ref)
{
	size_t n = (size_t)nhosts * (size_t)nhosts + 1;
	*own = malloc(n * sizeof **own);
	*ref = malloc(n * sizeof **ref);
	if (*own && *ref)
		return true;
	free(*own);
	free(*ref);
	return false;
}

bool segment_explains_host(const struct detect_result *r, const struct detect_suspect *g,
                           const struct detect_suspect *s, const double *cells,
                           const struct detect_params *p)
{
	double *own, *ref;
	if (!cells || !scratch(r->nhosts, &own, &ref))
		return false;
	bool yes = explains_host(r, g, s, cells, p, own, ref);
	free(own);
	free(ref);
	return yes;
}

/* Is there a confirmed host of pattern loaded and a confirmed segment of it in r? */
static bool any_candidate(const struct detect_result *r, bool loaded)
{
	bool host = false, segment = false;
	for (int i = 0; i < r->nsuspects; i++) {
		const struct detect_suspect *s = &r->suspects[i];
		host |= s->confirmed && (s->loaded == loaded || !loaded) && s->kind == DETECT_HOST;
		segment |= s->confirmed && s->loaded == loaded && s->kind == DETECT_SEGMENT;
	}
	return host && segment;
}

int segment_clear_hosts(struct detect_result *r, const double *cells, bool loaded,
                        const struct detect_params *p)
{
	if (!cells || !any_candidate(r, loaded))
		return 0;
	double *own, *ref;
	if (!scratch(r->nhosts, &own, &ref))
		return -1;
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!s->confirmed || s->kind != DETECT_HOST || (s->loaded != loaded && loaded))
			continue;
		for (int j = 0; s->confirmed && j < r->nsuspects; j++) {
			const struct detect_suspect *g = &r->suspects[j];
			if (g->confirmed && g->kind == DETECT_SEGMENT && g->loaded == loaded &&
			    explains_host(r, g, s, cells, p, own, ref)) {
				s->confirmed = false;
				s->segment_cleared = true;
				cleared++;
			}
		}
	}
	free(own);
	free(ref);
	return cleared;
}

/* How many hosts segment g's sides name. */
static int hosts_named(const struct detect_result *r, const struct detect_suspect *g)
{
	const signed char *sides = detect_sides(r, g);
	int n = 0;
	for (int h = 0; sides && h < r->nhosts; h++)
		n += sides[h] >= 0;
	return n;
}

int segment_clear_repeats(struct detect_result *r)
{
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		for (int j = 0; s->confirmed && s->kind == DETECT_SEGMENT && j < r->nsuspects; j++) {
			const struct detect_suspect *g = &r->suspects[j];
			if (j == i || !g->confirmed || g->kind != DETECT_SEGMENT ||
			    g->metric != s->metric || g->locality != s->locality ||
			    !detect_same_segment(r, g, r, s))
				continue;
			int mine = hosts_named(r, s), theirs = hosts_named(r, g);
			if (theirs > mine || (theirs == mine && j < i)) {
				s->confirmed = false;
				s->segment_cleared = true;
				cleared++;
			}
		}
	}
	return cleared;
}
