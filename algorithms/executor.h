/*
 * The executor: runs any variant over MPI. Point-to-point variants run
 * their schedule (schedule.h); direct variants (`mpi`) run themselves.
 *
 * A plan is built once per (variant, rank count, count, dtype, segment) and
 * run many times: nothing is allocated while it runs, so a timed loop
 * measures the collective and not the harness.
 *
 * Tracing (trace.h): with call->trace set, every step of a schedule writes
 * one entry (its times, peers and bytes, and the call's variant, size, phase
 * and iteration from algorithms/progress.h), a direct variant one entry per
 * call (step TRACE_WHOLE_CALL). The schedule loop is compiled twice, with
 * and without the trace, so an untraced call pays one branch per call, none
 * per step. Traced or not, every step stores where it waits in
 * ar_progress.where (two relaxed stores per step) for the watchdog.
 */
#include <mpi.h>

#ifndef COLLSCOPE_EXECUTOR_H
#define COLLSCOPE_EXECUTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/dtype.h"
#include "algorithms/schedule.h"
#include "algorithms/trace.h"
#include "algorithms/variant.h"

/* Bytes a rank sent through a codec (compressed variants), counted as they are sent. */
struct exec_tally {
	uint64_t wire_bytes;    /* what went on the wire */
	uint64_t logical_bytes; /* the float32 bytes those messages carried */
	uint64_t calls;
};

struct exec_codec_state; /* a compressed variant's residual and call count: exec_codec.h */

/* One all-reduce call. input == result means in place. */
struct ar_call {
	MPI_Comm comm;
	int rank, nranks;
	const void *input;
	void *result;
	size_t count;
	enum ar_dtype dtype;
	enum ar_op op;
	void *scratch;                 /* exec_plan_scratch_bytes() bytes, or NULL when that is 0 */
	size_t mpi_max_count;          /* direct variants: elements per MPI call; 0 = INT_MAX */
	struct trace_ring *trace;      /* NULL: not traced; else one entry per step (borrowed) */
	enum ar_collective collective; /* what is checked: the all-reduce (0), or a half */
	const struct codec_cfg *codec_cfg; /* compressed variants: their options; NULL: defaults */
	struct exec_tally *tally;          /* compressed variants: bytes sent, added to; or NULL */
};

struct exec_plan {
	const struct ar_variant *variant;
	enum ar_collective collective; /* the all-reduce, or one of its halves */
	struct sched sched;            /* built when the variant has a builder for it */
	size_t elem_bytes;
	struct exec_codec_state *codec; /* compressed variants (owned), else NULL */
};

/* Returns 0, or -1 when the schedule cannot be allocated. The all-reduce. */
int exec_plan_init(struct exec_plan *p, const struct ar_variant *v, int rank, int nranks,
                   size_t count, enum ar_dtype t, size_t segment_bytes);
/* The same for collective c (ar_collective_unsupported(v, c, ...) must be NULL). */
int exec_plan_init_collective(struct exec_plan *p, const struct ar_variant *v, enum ar_collective c,
                              int rank, int nranks, size_t count, enum ar_dtype t,
                              size_t segment_bytes);
/* Rebuild for another count, reusing the storage. */
int exec_plan_rebuild(struct exec_plan *p, int rank, int nranks, size_t count, enum ar_dtype t,
                      size_t segment_bytes);
void exec_plan_release(struct exec_plan *p);
size_t exec_plan_scratch_bytes(const struct exec_plan *p);
/* Upper bound of exec_plan_scratch_bytes for any count, dtype and variant. */
size_t exec_scratch_bound_bytes(size_t segment_bytes);

/* Run one all-reduce; returns MPI_SUCCESS or an MPI error code. */
int exec_run(const struct exec_plan *p, const struct ar_call *call);

/* --trace: the call's identity, from the progress record that the harness keeps (progress.h). */
struct trace_entry exec_call_entry(void);

#endif
