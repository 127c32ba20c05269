/*
 * An in-process simulator of point-to-point all-reduce schedules.
 *
 * It builds the schedule of every rank, gives each rank an input filled by
 * ar_pattern_fill and a result buffer (out of place: filled with 0x5A bytes
 * so that an element never written is caught; in place: the input itself),
 * then plays all ranks at once with rendezvous semantics: a transfer happens
 * only when the receiver's current step receives from the sender and the
 * sender's current step sends to the receiver, so any schedule that could
 * block under MPI's synchronous sends is reported as a deadlock. A step's
 * send reads the sender's buffer when the transfer happens; its COPY or
 * REDUCE is applied when both of its halves are done, as in the executor.
 *
 * Checked: peers in range and not the rank itself, every offset + count
 * within the buffer, no message above segment_count, no receive above
 * max_recv_count, equal counts on both sides of every message, no COPY into
 * the range the same step sends from, progress (else a deadlock, naming the
 * stuck ranks and their steps), every element of every rank's result
 * (ar_pattern_check), and out of place, that no input was modified.
 * Test code only: no MPI.
 */
#ifndef COLLSCOPE_SIM_H
#define COLLSCOPE_SIM_H

#include <stdbool.h>
#include <stddef.h>

#include "algorithms/dtype.h"
#include "algorithms/schedule.h"
#include "algorithms/variant.h"

struct sim_config {
	sched_build_fn build;
	int nranks;
	size_t count;
	size_t segment_count;
	enum ar_dtype dtype;
	enum ar_op op;
	bool in_place;
	enum ar_collective collective; /* what the results are checked as: 0 the all-reduce */
};

struct sim_result {
	bool ok;
	size_t steps_total;     /* steps completed, over all ranks */
	size_t transfers_total; /* messages delivered */
	char message[1024];     /* why it failed, for assertions; "" when ok */
};

/* Play cfg; 0 when every rank finished with the right result, else -1 and res->message. */
int sim_run(const struct sim_config *cfg, struct sim_result *res);

#endif
