/* `collscope allreduce`: its options (allreduce_opts.c, pure) and the sweep (allreduce.c). */
#ifndef COLLSCOPE_CMD_ALLREDUCE_OPTS_H
#define COLLSCOPE_CMD_ALLREDUCE_OPTS_H

#include "cmd/opts.h"
#include "cmd/opts_common.h"

enum ar_format { AR_FORMAT_TABLE, AR_FORMAT_CSV };

struct ar_opts {
	struct sweep_opts sweep;
	bool in_place;
	int format;            /* enum ar_format */
	double min_busbw_gbps; /* NAN: no gate */
	double timeout_s;      /* watchdog; 0 disables */
	struct cmd_out out;
};

extern const struct cmd_spec allreduce_spec;

#endif
