/* See traffic.h. */
#include "reports/diagnose/traffic.h"
#include "reports/diagnose/classify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool judged_here(const struct detect_suspect *s)
{
	return s->metric == DETECT_BANDWIDTH && s->locality == DETECT_CROSS_HOST;
}

bool traffic_explains(const struct detect_suspect *s, double other_gbps, double tolerance)
{
	if (!judged_here(s) || !(other_gbps > 0) || !isfinite(s->measured) ||
	    !(s->expected > 0))
		return false;
	return s->measured + other_gbps >= (1 - tolerance) * s->expected;
}

int traffic_clear(struct detect_result *r, traffic_other_fn other_of, const void *arg,
                  const struct detect_params *p)
{
	int cleared = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (!s->confirmed || !judged_here(s))
			continue;
		s->other_traffic_gbps = other_of(arg, s, &s->other_traffic_most_gbps);
		if (traffic_explains(s, s->other_traffic_gbps,
		                     detect_tolerance(p, s->metric, s->locality))) {
			s->confirmed = false;
			s->traffic_cleared = true;
			cleared++;
		}
	}
	return cleared;
}

/*
 * A verdict of many cells that the NIC counters speak for: a host, or a link
 * between hosts. Not a rail (rails.h): the room matrix is the host's, which
 * one slow NIC of several does not move, so the room would clear every rail.
 */
static bool cells_verdict(const struct detect_suspect *s, bool loaded)
{
	return judged_here(s) && s->loaded == loaded && !s->rail &&
	       (s->kind == DETECT_HOST || (s->kind == DETECT_LINK && s->between_hosts));
}

/* Does room name what s names: the same host, or the same pair of hosts? */
static bool named_again(const struct detect_result *room, const struct detect_suspect *s)
{
	for (int i = 0; i < room->nsuspects; i++) {
		const struct detect_suspect *x = &room->suspects[i];
		if (x->kind != s->kind)
			continue;
		if (s->kind == DETECT_HOST ? x->host == s->host
		                           : (x->host_a == s->host_a && x->host_b == s->host_b) ||
		                                 (x->host_a == s->host_b && x->host_b == s->host_a))
			return true;
	}
	return false;
}

/*
 * Does room name s's host its way link by link, on cells nothing else
 * crossed? Beside a stream into one of its partners the room lifts that one
 * cell, and the classifier names the host's other links one by one instead
 * of the host (the campaign's seed 3 draws 88 and 96: a host 20-35% slow to
 * send). A link counts only where other (links_other_host_matrix) says its
 * pairs were alone, at most TRAFFIC_QUIET_SHARE of the reference: a stream
 * sender's link into a slow host is slow by the stream (draw 23), not by it.
 */
static bool named_by_quiet_links(const struct detect_result *room,
                                 const struct detect_suspect *s, const double *other,
                                 int nhosts)
{
	int quiet = 0;
	if (!other || s->kind != DETECT_HOST)
		return false;
	for (int i = 0; i < room->nsuspects; i++) {
		const struct detect_suspect *x = &room->suspects[i];
		if (x->kind != DETECT_LINK || !x->between_hosts)
			continue;
		for (int way = 0; way < 2; way++) {
			int from = way ? x->host_b : x->host_a, to = way ? x->host_a : x->host_b;
			bool slow = x->direction == DETECT_DIR_BOTH ||
			            x->direction == (way ? DETECT_DIR_BA : DETECT_DIR_AB);
			bool its_way = (s->direction != DETECT_DIR_BA && from == s->host) ||
			               (s->direction != DETECT_DIR_AB && to == s->host);
			double o = slow && its_way ? other[(size_t)from * (size_t)nhosts + (size_t)to]
			                           : NAN;
			if (isfinite(o) && o <= TRAFFIC_QUIET_SHARE * s->expected) {
				quiet++;
				break;
			}
		}
	}
	return quiet >= TRAFFIC_QUIET_LINKS;
}

/* The index of r's segment of s's pattern that cuts where s of room does, or -1. */
static int same_segment(const struct detect_result *r, const struct detect_result *room,
                        const struct detect_suspect *s)
{
	for (int i = 0; i < r->nsuspects; i++)
		if (r->suspects[i].kind == DETECT_SEGMENT && r->suspects[i].loaded == s->loaded &&
		    detect_same_segment(r, &r->suspects[i], room, s))
			return i;
	return -1;
}

/*
 * r's segment x takes the sides and figures of the room's s, the same cut
 * with its hosts all placed: a host the stream slowed was left out of its rack.
 */
static void refit_segment(struct detect_result *r, struct detect_suspect *x,
                          const struct detect_result *room, const struct detect_suspect *s)
{
	const signed char *sides = detect_sides(room, s);
	if (!sides || x->side < 0 || x->side >= r->nsides || r->nhosts != room->nhosts)
		return;
	signed char *mine = r->sides + (size_t)x->side * (size_t)r->nhosts;
	if (memcmp(mine, sides, (size_t)r->nhosts) == 0)
		return;
	memcpy(mine, sides, (size_t)r->nhosts);
	x->direction = s->direction;
	x->measured = s->measured;
	x->expected = s->expected;
	x->ratio = s->ratio;
	x->score = s->score;
	x->links_suspect = s->links_suspect;
}

/* Appends segment s of room to r, confirmed, with its sides; -1 when out of memory. */
static int adopt_segment(struct detect_result *r, const struct detect_result *room,
                         const struct detect_suspect *s)
{
	const signed char *sides = detect_sides(room, s);
	size_t row = (size_t)room->nhosts;
	if (!sides || (r->nsides > 0 && r->nhosts != room->nhosts))
		return 0;
	struct detect_suspect *v = realloc(r->suspects, (size_t)(r->nsuspects + 1) * sizeof *v);
	if (!v)
		return -1;
	r->suspects = v;
	signed char *w = realloc(r->sides, (size_t)(r->nsides + 1) * row);
	if (!w)
		return -1;
	r->sides = w;
	r->nhosts = room->nhosts;
	memcpy(w + (size_t)r->nsides * row, sides, row);
	v[r->nsuspects] = *s;
	v[r->nsuspects].side = r->nsides++;
	v[r->nsuspects++].confirmed = true;
	return 0;
}

int traffic_clear_cells(struct detect_result *r, const double *room, const double *other,
                        int nhosts, bool loaded, const struct detect_params *p)
{
	int cleared = 0, rc = 0;
	bool asked = false;
	for (int i = 0; i < r->nsuspects; i++)
		asked |= r->suspects[i].confirmed && cells_verdict(&r->suspects[i], loaded) &&
		         r->suspects[i].other_traffic_most_gbps > 0;
	if (!asked)
		return 0;
	struct detect_result again;
	detect_result_init(&again);
	if (classify_hosts(room, nhosts, p, loaded, &again, NULL) != 0) {
		detect_result_release(&again);
		return -1;
	}
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (s->confirmed && cells_verdict(s, loaded) && s->other_traffic_most_gbps > 0 &&
		    !named_again(&again, s) && !named_by_quiet_links(&again, s, other, nhosts)) {
			s->confirmed = false;
			s->traffic_cleared = true;
			cleared++;
		}
	}
	for (int i = 0; cleared > 0 && rc == 0 && i < again.nsuspects; i++) {
		const struct detect_suspect *s = &again.suspects[i];
		int k = s->kind == DETECT_SEGMENT ? same_segment(r, &again, s) : -2;
		if (k >= 0)
			refit_segment(r, &r->suspects[k], &again, s);
		else if (k == -1)
			rc = adopt_segment(r, &again, s);
	}
	detect_result_release(&again);
	return rc == 0 ? cleared : -1;
}
