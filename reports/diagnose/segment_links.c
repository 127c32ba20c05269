/* See segment_links.h. */
#include "reports/diagnose/segment_links.h"

#include <math.h>

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
