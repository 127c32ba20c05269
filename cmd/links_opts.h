/* `collscope links`: its options (links_opts.c, pure), the run (links.c), stdout (links_print.c).
 */
#ifndef COLLSCOPE_CMD_LINKS_OPTS_H
#define COLLSCOPE_CMD_LINKS_OPTS_H

#include "reports/diagnose/detect.h"
#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "probes/probe_opts.h"

/* Which patterns run: isolated pairs (the tournament), mpiGraph's shift, or both. */
enum links_pattern { LINKS_PAIRS = 1, LINKS_SHIFT = 2, LINKS_BOTH = 3 };

/* At most this many pairs of one host, link or segment suspect are measured again. */
#define LINKS_RETEST_PAIRS 4

struct links_opts {
	struct probe_link_opts probe;
	int mode; /* enum probe_mode */
	enum links_pattern pattern;
	struct detect_params detect;
	bool judge_oversubscribed, fail_on_suspect;
	bool keep_samples; /* every pair's raw samples in the report, not a bounded sample */
	double timeout_s; /* watchdog; 0 disables */
	struct cmd_out out;
	/* testing only: the window times of the pair slow_a-slow_b are multiplied by this (0: off)
	 */
	int slow_a, slow_b;
	double slow_factor;
};

extern const struct cmd_spec links_spec;

/* The options of the measurement itself (struct probe_link_opts), which accept shares. */
enum { LINKS_PROBE_OPTS = 9 };
extern const struct opt links_probe_opts[LINKS_PROBE_OPTS];

/* "pairs", "shift", "both". */
const char *links_pattern_name(enum links_pattern p);

#endif
