/*
 * `collscope watch` (issue 34): its options (watch_opts.c, pure), the run
 * (cmd/watch.c; the loop in cmd/run/watch_run.c), the detector, the state and
 * the exports (reports/watch/).
 */
#ifndef COLLSCOPE_CMD_WATCH_OPTS_H
#define COLLSCOPE_CMD_WATCH_OPTS_H

#include <stdint.h>

#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "probes/probe_opts.h"

struct watch_opts {
	double duration_s;    /* 0: until SIGTERM or SIGINT */
	double period_s;      /* from one round's start to the next, at least */
	double duty_percent;  /* at most this share of the time measuring */
	uint64_t small_bytes; /* the latency all-reduce */
	uint64_t large_bytes; /* the bandwidth all-reduce */
	int small_iters, large_iters;
	int links_every; /* a links round every this many rounds; 0: none */
	struct probe_link_opts links_probe;
	const char *metrics; /* the OpenMetrics file, replaced each round; NULL: none */
	const char *jsonl;   /* JSON lines, appended; NULL: none */
	int window, confirm; /* the detector's */
	double min_step_percent, alpha;
	int keep_samples; /* per series, in the report */
	int max_series;
	double clock_factor; /* testing: the watch's clock runs this much faster */
	double timeout_s;
	struct cmd_out out;
};

extern const struct cmd_spec watch_spec;

#endif
