/*
 * The measurement of one overlap point (issue 32): a non-blocking all-reduce
 * (algorithms/exec_nb.h) beside real compute (algorithms/compute.h). Every
 * rank, each of `iters` iterations after a barrier:
 *   1. pure: start, wait (the call alone);
 *   2. cpu alone: the compute for the slowest rank's mean pure time (agreed
 *      with an all-reduce MAX, so every rank computes as long);
 *   3. overlapped: start, that compute with a test call every interval
 *      (progress test), or a progress thread testing every interval while
 *      the compute makes no call (progress thread; algorithms/
 *      progress_thread.h), or nothing (none: only the library's own
 *      progress), then wait.
 * Each rank keeps its means (reports/model/overlap_model.h: overlap_times); the
 * last overlapped call's result is verified. Collective over call->comm.
 */
#include <mpi.h>

#ifndef COLLSCOPE_OVERLAP_BENCH_H
#define COLLSCOPE_OVERLAP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "algorithms/compute.h"
#include "algorithms/executor.h"
#include "reports/model/overlap_model.h"

struct overlap_cfg {
	int iters, warmup;
	enum overlap_progress progress; /* what advances the call beside the compute */
	double interval_us;             /* between test calls */
	bool check;
};

/*
 * Fills call->input with the pattern, measures, verifies. *mine: this
 * rank's means; *wrong: wrong elements over all ranks (0 unchecked). An MPI
 * error code, agreed.
 */
int overlap_point(const struct exec_plan *plan, const struct ar_call *call,
                  const struct overlap_cfg *cfg, struct compute *k, struct overlap_times *mine,
                  uint64_t *wrong);

/*
 * Collective over call->comm, after the timed phases: the last call's
 * result checked (when check), the wrong elements summed over the ranks
 * into *wrong, and rc agreed (the worst). overlap_point and step_point end
 * with it.
 */
int overlap_verify_agree(const struct ar_call *call, bool check, int rc, uint64_t *wrong);

#endif
