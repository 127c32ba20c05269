/* `collscope accept`: its options (accept_opts.c, pure) and its modes (accept.c). */
#ifndef COLLSCOPE_CMD_ACCEPT_OPTS_H
#define COLLSCOPE_CMD_ACCEPT_OPTS_H

#include "opts.h"
#include "opts_common.h"

struct accept_opts {
	const char *derive_out; /* --derive: write a spec derived from the reports */
	const char *check_spec; /* --check-spec: check one */
	double tolerance_pct;
	struct cmd_out out; /* --force and -q; the spec's path is derive_out */
	struct opt_args reports;
};

/* `accept_spec` is the spec itself (reports/accept_spec.h); this is the command's table. */
extern const struct cmd_spec accept_cmd_spec;

#endif
