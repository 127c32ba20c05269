/*
 * collscope watch's records as JSON (issue 34): the lines of --jsonl, one
 * object a line, and the report of -o. Keys from reports/io/schema_watch.h.
 * Pure: the caller prints them (unformatted, one line each) and writes.
 * Every function returns an object the caller owns (NULL when out of
 * memory), or for the report's parts true when everything was added.
 */
#ifndef COLLSCOPE_WATCH_JSONL_H
#define COLLSCOPE_WATCH_JSONL_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "reports/watch/watch_state.h"

enum watch_record {
	WATCH_START,
	WATCH_SAMPLE,
	WATCH_EVENT,
	WATCH_ROUND,
	WATCH_STOP,
	WATCH_RECORDS
};
/* "start", "sample", "event", "round", "stop", NULL */
extern const char *const watch_record_names[WATCH_RECORDS + 1];
/* "slower", "faster", NULL */
extern const char *const watch_direction_names[3];

cJSON *watch_line_start(double time_s, long pid, int ranks, const struct watch_state *s);
/* The newest sample of series i. */
cJSON *watch_line_sample(const struct watch_state *s, size_t i, uint64_t round);
cJSON *watch_line_event(const struct watch_state *s, const struct watch_event *e);
cJSON *watch_line_round(double time_s, uint64_t round, double measure_s, double duty_percent,
                        double rss_bytes);
cJSON *watch_line_stop(double time_s, const char *reason, uint64_t rounds, uint64_t events);

/* The report's results (a record per series, its recent samples) and summary. */
struct watch_totals {
	uint64_t rounds;
	double measure_s, duty_percent;
	const char *stopped_by;
};
bool watch_report_add(cJSON *root, const struct watch_state *s, const struct watch_totals *t);

#endif
