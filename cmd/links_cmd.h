/* `collscope links`: options (links_opts.c), the run (links.c), stdout (links_print.c). */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_LINKS_CMD_H
#define COLLSCOPE_CMD_LINKS_CMD_H

#include <cjson/cJSON.h>

#include "cmd.h"
#include "detect.h"
#include "links.h"
#include "links_report.h"

struct links_opts {
	struct probe_link_opts probe;
	enum probe_mode mode;
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

/* Rank 0's stdout: the bandwidth matrix, the classes, then the suspects. */
void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct detect_result *first, const struct detect_result *final,
                 int remeasured_pairs);

#endif
