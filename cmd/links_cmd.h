/* `collscope links`: options (links_opts.c), the run (links.c), stdout (links_print.c). */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_LINKS_CMD_H
#define COLLSCOPE_CMD_LINKS_CMD_H

#include <cjson/cJSON.h>

#include "cmd.h"
#include "detect.h"
#include "links.h"
#include "links_report.h"

/* Which patterns run: isolated pairs (the tournament), mpiGraph's shift, or both. */
enum links_pattern { LINKS_PAIRS = 1, LINKS_SHIFT = 2, LINKS_BOTH = 3 };

/* At most this many pairs of one host, link or segment suspect are measured again. */
#define LINKS_RETEST_PAIRS 4

struct links_opts {
	struct probe_link_opts probe;
	enum probe_mode mode;
	enum links_pattern pattern;
	struct detect_params detect;
	bool judge_oversubscribed;
	bool fail_on_suspect, force, quiet;
	double timeout_s; /* watchdog; 0 disables */
	const char *output;
	/* testing only: the window times of the pair slow_a-slow_b are multiplied by this (0: off)
	 */
	int slow_a, slow_b;
	double slow_factor;
};

/* EXIT_OK, or an exit code after printing why (rank 0). */
int links_opts_parse(int argc, char **argv, const struct cmd_ctx *ctx, struct links_opts *o);
/* Adds "config" with every option in force; NULL on allocation failure. */
cJSON *links_opts_to_json(cJSON *root, const struct links_opts *o);

/* "pairs", "shift", "both". */
const char *links_pattern_name(enum links_pattern p);

/*
 * Rank 0's stdout: the bandwidth matrix (and the shift's), the classes, the
 * suspects one line each, and with none what the run rules out.
 */
void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct links_judgement *j);

#endif
