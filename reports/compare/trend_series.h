/*
 * collscope trend: a series of reports of one setup in time order, and for
 * every point where its metric (p50 time by default) stepped: the change
 * points of the series (changepoint.h, on the logarithms, so a step is a
 * factor), the report where each step happened and its size, and what
 * differs in the context at that report (compare.h's cmp_context_diff).
 * A point regresses when its last step is worse than the threshold, unless
 * the reports on either side of that step measured it with more noise than
 * the threshold (the median over them of its own spread or its yardstick,
 * compare.h): that step is untestable, which does not fail.
 * Pure: libc, libm, cJSON; the rendering writes to a FILE * or a cJSON
 * tree only (trend_render.c).
 */
#ifndef COLLSCOPE_TREND_H
#define COLLSCOPE_TREND_H

#include "reports/stats/changepoint.h"
#include "reports/compare/compare_points.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TREND_MIN_REPORTS           3
#define TREND_DEFAULT_THRESHOLD_PCT 10.0

/* In table order: worst first. */
enum trend_verdict {
	TREND_REGRESSION, /* the last step is worse than the threshold */
	TREND_UNTESTABLE, /* the last step is beyond the threshold, inside the reports' noise */
	TREND_IMPROVED,   /* the last step is better than the threshold */
	TREND_SHIFTED,    /* the last step is within the threshold */
	TREND_STEADY,     /* no step */
	TREND_TOO_FEW,    /* fewer than 2 min_segment values: nothing can be told */
	TREND_VERDICTS
};

struct trend_options {
	enum cmp_metric metric;
	double threshold_pct;
	struct cp_options cp;
};

struct trend_step {
	size_t run;           /* the first report of the new level, index into the runs */
	double before, after; /* medians of the metric over the segments either side */
	double change_pct;    /* (after / before - 1) x 100 */
	double worse_pct;     /* positive is worse (for bandwidth, -change_pct) */
	double p_value;
};

struct trend_series {
	const struct cmp_point *key; /* the point in the first run that has it */
	char label[CMP_LABEL_BYTES];
	double *values; /* nruns entries: the metric, NAN where the run has none; owned */
	double *level; /* nruns entries: the median of the value's segment, NAN where none; owned */
	size_t nvalues;           /* runs with a value */
	struct trend_step *steps; /* owned, in time order */
	size_t nsteps;
	enum trend_verdict verdict;
	/* the median noise (compare.h) of the reports before and after the last step; NAN: none */
	double noise_before_pct, noise_after_pct;
};

/* What differs in the context at a report where some point stepped, from the report before. */
struct trend_change {
	size_t run;
	struct cmp_diff *diffs; /* owned */
	size_t ndiffs;
};

struct trend_result {
	const struct cmp_run *runs; /* borrowed, in time order */
	size_t nruns;
	struct trend_series *series; /* owned, worst first */
	size_t nseries;
	struct trend_change *changes; /* owned, by run */
	size_t nchanges;
	size_t count[TREND_VERDICTS];
};

void trend_options_init(struct trend_options *o);
const char *trend_verdict_name(enum trend_verdict v);

/*
 * Puts runs in time order by context.started_utc, read as a time (equal
 * times keep their given order). Refuses, with err naming the file and the
 * value: a report without started_utc, or one that is not a UTC time. 0 or -1.
 */
/* "YYYY-MM-DDTHH:MM:SS[.fff]Z" as seconds since 1970; 0, or -1 for anything else. */
int trend_parse_utc(const char *s, double *out_s);
int trend_sort_runs(struct cmp_run *runs, size_t n, char *err, size_t errlen);

/*
 * One setup only: every run of the same command as the first, with the same
 * ranks, hosts, dtype and op (cmp_mismatch). -1 with err naming both files
 * and what differs ("the reports differ in ranks 4 vs 2 (a.json vs b.json)").
 */
int trend_check_setup(const struct cmp_run *runs, size_t n, char *err, size_t errlen);

/* The series of every point, their steps and verdicts; 0, or -1 when out of memory or bad options.
 */
int trend_analyze(const struct cmp_run *runs, size_t n, const struct trend_options *o,
                  struct trend_result *out);
void trend_result_release(struct trend_result *r);
/* Exit status material: some point's last step is a regression. */
bool trend_failed(const struct trend_result *r);
/* "regression", "untestable" (no regression, some step untestable) or "ok". */
const char *trend_status(const struct trend_result *r);

/* The text: a table of the points, worst first, each step, and the context at each step. */
int trend_print(FILE *f, const struct trend_result *r, const struct trend_options *o);
/*
 * Adds "config" (reports in time order, options, method), "results" (one
 * record per point: keys, values and levels, steps, verdict) and "summary"
 * (counts, verdict, context_changes) to root; root, or NULL when out of memory.
 */
cJSON *trend_to_json(cJSON *root, const struct trend_result *r, const struct trend_options *o);

#endif
