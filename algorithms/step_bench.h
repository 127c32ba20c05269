/*
 * A data-parallel training step, measured (issue 32, item 2). The gradient
 * (grad_count elements) is cut into buckets of bucket_count (the last one
 * smaller), as PyTorch DDP does (25 MiB by default). The backward compute
 * of compute_us is cut into as many chunks; bucket i's all-reduce starts,
 * non-blocking (algorithms/exec_nb.h), when chunk i ends ("the gradients of
 * bucket i are ready"), and every started bucket is advanced by test calls
 * during the chunks after it; the step ends when the last bucket completes.
 * Every rank, each of iters iterations after a barrier, times:
 *   compute: the compute alone;
 *   serial:  the compute, then every bucket's blocking all-reduce;
 *   step:    the overlapped step above.
 * exposed = step - compute is the communication training waits for; hidden
 * = (serial - step) / (serial - compute) the share of it the overlap saved.
 * The last step's gradient is verified. Collective over call->comm.
 */
#include <mpi.h>

#ifndef COLLSCOPE_STEP_BENCH_H
#define COLLSCOPE_STEP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "algorithms/compute.h"
#include "algorithms/executor.h"
#include "algorithms/buckets.h"

struct step_cfg {
	size_t bucket_count; /* elements of a full bucket */
	double compute_us;   /* the backward compute of one step */
	int iters, warmup;
	double interval_us; /* between test calls */
	bool check;
};

/* This rank's means over the iterations, microseconds. */
struct step_times {
	double compute_us, serial_us, step_us;
};

/*
 * plan_full is built for bucket_count elements, plan_last for the last
 * bucket's (the same plan when it is full); call carries the whole
 * gradient's buffers and count, and scratch for every bucket at once
 * (overlap_buckets x exec_plan_scratch_bytes of plan_full). *wrong: over all
 * ranks (0 unchecked). An MPI error code, agreed.
 */
int step_point(const struct exec_plan *plan_full, const struct exec_plan *plan_last,
               const struct ar_call *call, const struct step_cfg *cfg, struct compute *k,
               struct step_times *mine, uint64_t *wrong);

#endif
