/*
 * `collscope congestion`: its options (congestion_opts.c, pure), the run
 * (cmd/congestion.c; the measurement in cmd/run/congestion_run.c, the
 * matrix under load in cmd/run/congestion_where.c) and the factors
 * (reports/diagnose/interference.h).
 */
#ifndef COLLSCOPE_CMD_CONGESTION_OPTS_H
#define COLLSCOPE_CMD_CONGESTION_OPTS_H

#include "cmd/opts.h"
#include "cmd/opts_common.h"

enum congestion_where_when { WHERE_AUTO, WHERE_ALWAYS, WHERE_NEVER };

struct congestion_opts {
	struct sweep_opts sweep; /* the victims' all-reduce */
	int groups;              /* --groups; 0: 2, or a given split's count */
	int split;               /* enum groups_split */
	const char *split_list;  /* --split LIST: checked once the hosts are known */
	uint64_t seed;           /* --split random */
	int aggressors;          /* the last N groups run the congestor */
	int congestor;           /* enum congestor_kind */
	uint64_t congestor_bytes;
	double tolerance; /* a group degraded: its p50 or mean factor >= 1 + this */
	int where;        /* enum congestion_where_when */
	double where_time_s;
	int where_hosts; /* the matrix measures at most this many of a victim's hosts */
	double timeout_s;
	struct cmd_out out;
};

extern const struct cmd_spec congestion_spec;

/* --split as given ("strided", "0,1,0,1") and --congestor's name, for the text output. */
const char *congestion_split_name(const struct congestion_opts *o);
const char *congestion_congestor_name(const struct congestion_opts *o);

#endif
