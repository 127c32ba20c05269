/* `collscope links`: its options (links_opts.c, pure), the run (links.c), stdout (links_print.c).
 */
#ifndef COLLSCOPE_CMD_LINKS_OPTS_H
#define COLLSCOPE_CMD_LINKS_OPTS_H

#include "detect.h"
#include "opts.h"
#include "opts_common.h"
#include "probe_opts.h"

struct links_opts {
	struct probe_link_opts probe;
	int mode; /* enum probe_mode */
	struct detect_params detect;
	bool judge_oversubscribed, fail_on_suspect;
	double timeout_s; /* watchdog; 0 disables */
	struct cmd_out out;
	/* testing only: the window times of the pair slow_a-slow_b are multiplied by this (0: off)
	 */
	int slow_a, slow_b;
	double slow_factor;
};

extern const struct cmd_spec links_spec;

#endif
