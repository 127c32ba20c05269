/*
 * What collscope watch knows (issue 34): its series, each with an online
 * detector (watch_detect.h) and a ring of its recent samples, and a ring of
 * the changes found, with the classifier's attribution for links. All of it
 * is sized at the start (rings, a cap on the series), so the memory of a
 * watch that runs for days stays flat. Pure: no MPI, no I/O.
 *
 * Units: a latency series holds the all-reduce's time in us, a bandwidth
 * series its bus bandwidth in GB/s, a link series the bandwidth from one
 * host to another in GB/s (the median of their ranks' pairs). Times are the
 * watch's clock, in seconds since the epoch.
 */
#ifndef COLLSCOPE_WATCH_STATE_H
#define COLLSCOPE_WATCH_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "reports/diagnose/detect.h"
#include "reports/watch/watch_detect.h"
#include "reports/watch/watch_ring.h"

enum watch_kind { WATCH_LATENCY, WATCH_BANDWIDTH, WATCH_LINK, WATCH_KINDS };
/* "latency", "bandwidth", "link", NULL: the records' "kind" */
extern const char *const watch_kind_names[WATCH_KINDS + 1];
/* "classifier" (named by classify_hosts), "series" (the series' own link), NULL */
extern const char *const watch_attributed_by_names[3];

struct watch_sample {
	double t_s, value;
};

/* Who a change on a link series is blamed on. */
struct watch_attribution {
	bool by_classifier;    /* false: the series' own link, the classifier named nothing */
	enum detect_kind kind; /* link, host or segment */
	enum detect_direction direction;
	int host_a, host_b; /* link: its hosts; host: host_a; segment: -1 */
	char who[128];      /* "h2 -> h3", "h4", "h1 h2 <-> h3 h4" */
	char reason[256];   /* the classifier's line, or "" */
};

struct watch_event {
	double t_s, detected_t_s; /* the first value of the new level; its confirmation */
	size_t series;
	double before, after, step, p_value; /* levels in the series' unit; step = after / before */
	size_t delay_samples;
	bool slower;     /* a latency that grew, a bandwidth that fell */
	uint64_t round;  /* the round that confirmed it */
	bool attributed; /* link series: attribution below is set */
	struct watch_attribution attribution;
};

struct watch_series {
	enum watch_kind kind;
	char name[160];     /* "latency", "bandwidth", "link:h1->h2" */
	uint64_t bytes;     /* latency and bandwidth: the all-reduce's size */
	int host_a, host_b; /* link: from host_a to host_b; else -1 */
	double last, last_t_s;
	double reference;       /* the level before the first change; NAN until one */
	double level;           /* the level after the last change; NAN until one */
	double last_change_t_s; /* NAN: none */
	uint64_t samples, changes, slower_changes;
	struct watch_detector det;
	struct watch_ring history; /* struct watch_sample: the newest keep_samples */
};

struct watch_state {
	struct watch_detect_params params;
	size_t keep_samples, max_series;
	struct watch_series *series; /* max_series slots, nseries used */
	size_t nseries;
	uint64_t series_refused;  /* values of series past max_series, dropped */
	struct watch_ring events; /* struct watch_event: the newest max_events */
	uint64_t events_total, rounds;
	char **host_names; /* nhosts, owned */
	int nhosts;
};

/* 0, or -1 (bad parameters, no memory; nothing to release then). */
int watch_state_init(struct watch_state *s, const struct watch_detect_params *p,
                     size_t keep_samples, size_t max_series, size_t max_events);
void watch_state_release(struct watch_state *s);
/* Copies the host names (the link series' labels); 0 or -1. */
int watch_state_set_hosts(struct watch_state *s, const char *const *names, int n);

/*
 * The index of the series of kind (with bytes, or hosts a -> b for a link),
 * made when new; -1 when max_series are in use (counted in series_refused)
 * or out of memory.
 */
long watch_series_get(struct watch_state *s, enum watch_kind kind, uint64_t bytes, int host_a,
                      int host_b);

/*
 * A value of series i at t_s, in round: into its history and detector.
 * Returns 1 when it confirms a change (then appended to s->events, *ev
 * pointing at it until the next append), 0 when not, -1 when out of memory.
 */
int watch_add(struct watch_state *s, size_t i, double t_s, double value, uint64_t round,
              struct watch_event **ev);

/* How much slower the series is now than before its first change (>= 1 slower; 1: no change). */
double watch_series_slowdown(const struct watch_series *x);

/*
 * The link events of this round (round), each attributed: the classifier
 * (reports/diagnose/classify.h) judges the host x host matrix of steps, one
 * direction at a time (a recovery: the inverse, so the cells that came back
 * look slow), and each event takes the verdict whose hosts cover its link;
 * an event no verdict covers is its own link's (by_classifier false).
 * Returns 0, or -1 when out of memory (the events are then attributed to
 * their own links).
 */
int watch_attribute_links(struct watch_state *s, uint64_t round, const struct detect_params *p);

#endif
