/* See watch_state.h: the series and the events. The attribution is watch_attr.c's. */
#include "reports/watch/watch_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const watch_kind_names[WATCH_KINDS + 1] = {"latency", "bandwidth", "link", NULL};
const char *const watch_attributed_by_names[3] = {"classifier", "series", NULL};

int watch_state_init(struct watch_state *s, const struct watch_detect_params *p,
                     size_t keep_samples, size_t max_series, size_t max_events)
{
	struct watch_detector probe;
	*s = (struct watch_state){
	    .params = *p, .keep_samples = keep_samples, .max_series = max_series};
	if (keep_samples < 1 || max_series < 1 || watch_detector_init(&probe, p) != 0)
		return -1;
	watch_detector_release(&probe);
	s->series = calloc(max_series, sizeof *s->series);
	if (!s->series ||
	    watch_ring_init(&s->events, max_events, sizeof(struct watch_event)) != 0) {
		free(s->series);
		s->series = NULL;
		return -1;
	}
	return 0;
}

static void free_hosts(struct watch_state *s)
{
	for (int i = 0; i < s->nhosts; i++)
		free(s->host_names[i]);
	free(s->host_names);
	s->host_names = NULL;
	s->nhosts = 0;
}

void watch_state_release(struct watch_state *s)
{
	for (size_t i = 0; i < s->nseries; i++) {
		watch_detector_release(&s->series[i].det);
		watch_ring_release(&s->series[i].history);
	}
	free(s->series);
	watch_ring_release(&s->events);
	free_hosts(s);
	*s = (struct watch_state){0};
}

int watch_state_set_hosts(struct watch_state *s, const char *const *names, int n)
{
	free_hosts(s);
	s->host_names = calloc((size_t)(n > 0 ? n : 1), sizeof *s->host_names);
	if (!s->host_names)
		return -1;
	s->nhosts = n;
	for (int i = 0; i < n; i++)
		if (!(s->host_names[i] = strdup(names[i]))) {
			free_hosts(s);
			return -1;
		}
	return 0;
}

static const char *host_name(const struct watch_state *s, int h)
{
	return h >= 0 && h < s->nhosts ? s->host_names[h] : "?";
}

static bool same(const struct watch_series *x, enum watch_kind kind, uint64_t bytes, int a, int b)
{
	return x->kind == kind &&
	       (kind == WATCH_LINK ? x->host_a == a && x->host_b == b : x->bytes == bytes);
}

long watch_series_get(struct watch_state *s, enum watch_kind kind, uint64_t bytes, int host_a,
                      int host_b)
{
	for (size_t i = 0; i < s->nseries; i++)
		if (same(&s->series[i], kind, bytes, host_a, host_b))
			return (long)i;
	if (s->nseries == s->max_series) {
		s->series_refused++;
		return -1;
	}
	struct watch_series *x = &s->series[s->nseries];
	bool link = kind == WATCH_LINK;
	*x = (struct watch_series){.kind = kind,
	                           .bytes = link ? 0 : bytes,
	                           .host_a = link ? host_a : -1,
	                           .host_b = link ? host_b : -1,
	                           .last = NAN,
	                           .last_t_s = NAN,
	                           .reference = NAN,
	                           .level = NAN,
	                           .last_change_t_s = NAN};
	if (link)
		snprintf(x->name, sizeof x->name, "link:%s->%s", host_name(s, host_a),
		         host_name(s, host_b));
	else
		snprintf(x->name, sizeof x->name, "%s", watch_kind_names[kind]);
	if (watch_detector_init(&x->det, &s->params) != 0)
		return -1;
	if (watch_ring_init(&x->history, s->keep_samples, sizeof(struct watch_sample)) != 0) {
		watch_detector_release(&x->det);
		return -1;
	}
	return (long)s->nseries++;
}

/* A latency that grew or a bandwidth that fell. */
static bool is_slower(enum watch_kind kind, double step)
{
	return kind == WATCH_LATENCY ? step > 1 : step < 1;
}

int watch_add(struct watch_state *s, size_t i, double t_s, double value, uint64_t round,
              struct watch_event **ev)
{
	struct watch_series *x = &s->series[i];
	struct watch_change c;
	*(struct watch_sample *)watch_ring_push(&x->history) = (struct watch_sample){t_s, value};
	x->last = value;
	x->last_t_s = t_s;
	x->samples++;
	int rc = watch_detector_push(&x->det, t_s, value, &c);
	if (rc != 1)
		return rc;
	struct watch_event *e = watch_ring_push(&s->events);
	*e = (struct watch_event){.t_s = c.t_s,
	                          .detected_t_s = c.detected_t_s,
	                          .series = i,
	                          .before = c.before,
	                          .after = c.after,
	                          .step = c.step,
	                          .p_value = c.p_value,
	                          .delay_samples = c.delay_values,
	                          .slower = is_slower(x->kind, c.step),
	                          .round = round};
	if (isnan(x->reference))
		x->reference = c.before;
	x->level = c.after;
	x->last_change_t_s = c.t_s;
	x->changes++;
	x->slower_changes += e->slower;
	s->events_total++;
	if (ev)
		*ev = e;
	return 1;
}

double watch_series_slowdown(const struct watch_series *x)
{
	if (isnan(x->reference) || !(x->level > 0))
		return 1;
	return x->kind == WATCH_LATENCY ? x->level / x->reference : x->reference / x->level;
}
