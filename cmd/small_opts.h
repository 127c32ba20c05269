/*
 * The options of the commands that have only a few: topo, list, compare,
 * trend, report and schema (small_opts.c, pure). Their runs are cmd/<name>.c.
 */
#ifndef COLLSCOPE_CMD_SMALL_OPTS_H
#define COLLSCOPE_CMD_SMALL_OPTS_H

#include "reports/compare/compare_points.h"
#include "reports/compare/trend_series.h"
#include "cmd/opts.h"
#include "cmd/opts_common.h"

struct topo_opts {
	struct cmd_out out;
};

struct list_opts {
	bool names_only;
};

struct compare_opts {
	struct cmp_options cmp;
	int format; /* enum cmp_format */
	bool allow_mismatch;
	bool paired; /* --paired: files are (baseline, current) pairs, cmp.pairs of them */
	const char *metric; /* --metric as given (NULL: the default); must fit the reports' kind */
	struct cmd_out out;
	struct opt_args files; /* baseline, current; --paired: baseline1, current1, ... */
};

struct trend_opts {
	struct trend_options trend;
	const char *metric; /* --metric as given (NULL: the default); must fit the reports' kind */
	struct cmd_out out;
	struct opt_args files; /* the reports, any order (sorted by their start time) */
};

struct schema_opts {
	bool markdown;
	struct opt_args command; /* at most one: the command whose reports are described */
};

struct report_opts {
	struct cmd_out out; /* output is required; "-" for stdout */
	struct opt_args files;
};

extern const struct cmd_spec topo_spec, list_spec, compare_spec, trend_spec, report_spec,
    schema_spec;

#endif
