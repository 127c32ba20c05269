/* `collscope accept SPEC` under mpirun (cmd/accept_run.c). */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_ACCEPT_RUN_H
#define COLLSCOPE_CMD_ACCEPT_RUN_H

#include "cmd/accept_opts.h"
#include "cmd/cmd.h"

/* Collective: the spec's checks, verdicts, culprit searches, report. Returns an exit code. */
int accept_measure(struct cmd_ctx *ctx, const struct accept_opts *o);

#endif
