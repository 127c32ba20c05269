/*
 * The attribution of a round's link changes (watch_state.h): the classifier
 * of links (reports/diagnose/classify.h) on the matrix of steps, so a slowed
 * NIC, cable, direction or rack uplink is named as `links` names it.
 */
#include "reports/watch/watch_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reports/diagnose/classify.h"

/*
 * The step of a link series in this round, oriented so that the direction
 * judged looks slow (< 1): a bandwidth that fell keeps its step, one that
 * came back takes the inverse. A series without a change in this round
 * gives its recent step, which is near 1 unless it moves too.
 */
static double cell_step(const struct watch_state *s, size_t i, uint64_t round, bool slower)
{
	const struct watch_event *own = NULL;
	for (size_t k = 0; k < s->events.n; k++) {
		const struct watch_event *e = watch_ring_at(&s->events, k);
		if (e->series == i && e->round == round)
			own = e;
	}
	double step = own ? own->step : watch_detector_recent_step(&s->series[i].det);
	return slower ? step : 1 / step;
}

/* Whether verdict v of r covers the link from host a to host b. */
static bool covers(const struct detect_result *r, const struct detect_suspect *v, int a, int b)
{
	if (v->kind == DETECT_HOST)
		return v->host == a || v->host == b;
	if (v->kind == DETECT_LINK)
		return (v->host_a == a && v->host_b == b) || (v->host_a == b && v->host_b == a);
	const signed char *sides = detect_sides(r, v);
	return sides && sides[a] >= 0 && sides[b] >= 0 && sides[a] != sides[b];
}

static void describe(const struct watch_state *s, const struct detect_result *r,
                     const struct detect_suspect *v, struct watch_attribution *out)
{
	const char *const *names = (const char *const *)s->host_names;
	*out = (struct watch_attribution){.by_classifier = true,
	                                  .kind = v->kind,
	                                  .direction = v->direction,
	                                  .host_a = v->host_a,
	                                  .host_b = v->host_b};
	if (v->kind == DETECT_HOST) {
		out->host_a = v->host;
		out->host_b = -1;
		snprintf(out->who, sizeof out->who, "%s", names[v->host]);
	} else if (v->kind == DETECT_LINK) {
		snprintf(out->who, sizeof out->who, "%s %s %s", names[v->host_a],
		         v->direction == DETECT_DIR_BOTH ? "<->" : "->", names[v->host_b]);
		if (v->direction == DETECT_DIR_BA)
			snprintf(out->who, sizeof out->who, "%s -> %s", names[v->host_b],
			         names[v->host_a]);
	} else {
		const signed char *sides = detect_sides(r, v);
		size_t at = 0;
		for (int side = 0; side < 2 && sides; side++) {
			for (int h = 0; h < s->nhosts && at < sizeof out->who; h++)
				if (sides[h] == side)
					at += (size_t)snprintf(out->who + at, sizeof out->who - at,
					                       "%s%s", at ? " " : "", names[h]);
			if (side == 0 && at < sizeof out->who)
				at += (size_t)snprintf(out->who + at, sizeof out->who - at, " <->");
		}
	}
	classify_describe(r, v, names, out->reason, sizeof out->reason);
}

static void own_link(const struct watch_state *s, const struct watch_series *x,
                     struct watch_attribution *out)
{
	*out = (struct watch_attribution){.kind = DETECT_LINK,
	                                  .direction = DETECT_DIR_AB,
	                                  .host_a = x->host_a,
	                                  .host_b = x->host_b};
	snprintf(out->who, sizeof out->who, "%s -> %s", s->host_names[x->host_a],
	         s->host_names[x->host_b]);
}

/* The events of round in one direction, judged together; -1 when out of memory. */
static int attribute_direction(struct watch_state *s, uint64_t round, bool slower,
                               const struct detect_params *p)
{
	size_t nh = (size_t)s->nhosts;
	double *cells = malloc((nh ? nh * nh : 1) * sizeof *cells);
	struct detect_result r;
	int rc = 0;
	detect_result_init(&r);
	if (!cells)
		return -1;
	for (size_t k = 0; k < nh * nh; k++)
		cells[k] = NAN;
	for (size_t i = 0; i < s->nseries; i++) {
		const struct watch_series *x = &s->series[i];
		if (x->kind == WATCH_LINK && x->samples > 0)
			cells[(size_t)x->host_a * nh + (size_t)x->host_b] =
			    cell_step(s, i, round, slower);
	}
	if (classify_hosts(cells, s->nhosts, p, false, &r, NULL) != 0)
		rc = -1;
	for (size_t k = 0; k < s->events.n; k++) {
		struct watch_event *e = watch_ring_at(&s->events, k);
		const struct watch_series *x = &s->series[e->series];
		if (e->round != round || x->kind != WATCH_LINK || e->slower != slower)
			continue;
		e->attributed = true;
		own_link(s, x, &e->attribution);
		for (int v = 0; rc == 0 && v < r.nsuspects; v++)
			if (covers(&r, &r.suspects[v], x->host_a, x->host_b)) {
				describe(s, &r, &r.suspects[v], &e->attribution);
				break;
			}
	}
	detect_result_release(&r);
	free(cells);
	return rc;
}

int watch_attribute_links(struct watch_state *s, uint64_t round, const struct detect_params *p)
{
	int a = attribute_direction(s, round, true, p);
	int b = attribute_direction(s, round, false, p);
	return a == 0 && b == 0 ? 0 : -1;
}
