/*
 * The run of `collscope overlap` (issue 32), shared by its two files:
 * overlap_run.c (the points: a call beside compute) and overlap_step.c
 * (--step: the measured training step). Collective unless said otherwise.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_RUN_OVERLAP_RUN_H
#define COLLSCOPE_CMD_RUN_OVERLAP_RUN_H

#include "algorithms/compute.h"
#include "cmd/overlap_opts.h"
#include "cmd/run/run.h"
#include "reports/io/overlap_report.h"

struct overlap_run {
	const struct overlap_opts *o;
	struct sweep sweep;
	struct compute kernels[COMPUTE_KINDS];
	struct overlap_times *all; /* rank 0: every rank's, one point */
	double *rank_overall;      /* rank 0: every rank's overall, one point */
	struct overlap_row *rows;  /* rank 0 */
	int nrows;
	struct overlap_step_row *steps; /* rank 0, --step */
	int nsteps;
	overlap_print_fn print;
};

/* Every rank: the selected compute kernels' operands. An exit code, agreed. */
int overlap_kernels(struct overlap_run *run);
/* --step: every selected variant and compute kind's training step. An exit code, agreed. */
int overlap_steps(struct overlap_run *run);

#endif
