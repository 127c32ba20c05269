/*
 * What `collscope congestion` found, held by rank 0, and its summary in the
 * report (reports/io/schema_congestion.h). Pure: cJSON, no MPI.
 */
#ifndef COLLSCOPE_CONGESTION_REPORT_H
#define COLLSCOPE_CONGESTION_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "reports/diagnose/detect.h"
#include "reports/diagnose/interference.h"

/* One victim group at one point. */
struct congestion_point {
	const char *algorithm; /* borrowed static name */
	uint64_t bytes;
	int group;
	struct interference_figures alone, together;
	int iterations_alone, iterations_together;
	int64_t wrong; /* both phases, -1 when not checked */
	struct interference_factors f;
	bool degraded;
};

/* One victim's host x host matrices and the classifier's verdicts. */
struct congestion_where {
	int group;
	int nhosts;
	int *hosts;          /* owned: host indices (report_context.hosts) in the matrices' order */
	int hosts_total;     /* the group's hosts: more than nhosts when --where-hosts sampled */
	const char *skipped; /* static: why not measured, or NULL */
	double *loaded_gbps, *alone_gbps;   /* owned: nhosts x nhosts, row sends; NAN unknown */
	struct detect_result loaded, alone; /* classify_hosts of each */
	/* its all-reduce traced under the load: {"trace": {...}, "slow_hops": [...]}, owned */
	cJSON *trace;
	const char *trace_skipped; /* static: why not traced, or NULL */
};

struct congestion_group {
	bool aggressor;
	int nranks;
	int *world_ranks; /* owned */
	int nhosts;
	int *hosts; /* owned: host indices */
};

struct congestion_summary {
	bool by_host; /* unit: host, else rank */
	double tolerance;
	int ngroups;
	struct congestion_group *groups; /* owned */
	int npoints, cap_points;
	struct congestion_point *points; /* owned */
	int nwhere;
	struct congestion_where *where; /* owned, ngroups at most */
	const char *const *host_names;  /* borrowed: report_context.hosts names */
};

void congestion_summary_init(struct congestion_summary *s);
void congestion_summary_release(struct congestion_summary *s);
/* Appends p with its factors and degraded computed; -1 when out of memory. */
int congestion_summary_add(struct congestion_summary *s, const struct congestion_point *p);
/* True when any point of group g is degraded. */
bool congestion_group_degraded(const struct congestion_summary *s, int g);
/* A verdict of w->loaded that w->alone holds too (same kind, direction and hosts). */
bool congestion_also_alone(const struct congestion_where *w, const struct detect_suspect *v);
/* Adds "summary" to root; its verdict string in *verdict (static). NULL when out of memory. */
cJSON *congestion_report_add_summary(cJSON *root, const struct congestion_summary *s,
                                     const char **verdict);

#endif
