/*
 * `collscope overlap`: its options (overlap_opts.c, pure), the run
 * (cmd/overlap.c; the measurement in cmd/run/overlap_run.c over
 * algorithms/overlap_bench.h) and the formulas (reports/model/overlap_model.h).
 */
#ifndef COLLSCOPE_CMD_OVERLAP_OPTS_H
#define COLLSCOPE_CMD_OVERLAP_OPTS_H

#include "algorithms/compute.h"
#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "reports/model/overlap_model.h"

struct overlap_opts {
	struct sweep_opts sweep; /* variants, sizes, iters, warmup, dtype, op, check, segment */
	bool compute[COMPUTE_KINDS];
	bool progress[OVERLAP_PROGRESS_KINDS];
	double interval_us;
	bool step;             /* --step: also the measured training step */
	uint64_t grad_bytes;   /* its gradient, whole elements */
	uint64_t bucket_bytes; /* a bucket, whole elements */
	double compute_ms;     /* its backward compute */
	double timeout_s;
	struct cmd_out out;
};

extern const struct cmd_spec overlap_spec;

#endif
