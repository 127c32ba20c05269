/*
 * The executor of the compressed variants (issue 40): a schedule whose
 * messages go through the variant's codec (algorithms/codec.h).
 *
 * Step semantics are schedule.h's, with these differences:
 *   - a send encodes its float32 range into a wire buffer and sends the
 *     bytes the codec wrote; the bytes are added to call->tally as sent;
 *   - a receive lands in a wire buffer; SCHED_REDUCE decodes it and adds it
 *     to the left operand in float32, SCHED_COPY decodes it into the result;
 *   - before the all-gather (sched.ag_first_step) a rank rounds the chunk it
 *     owns through the codec in place, segment by segment as it will send
 *     them: every codec's decoded values encode to themselves (codec.h), so
 *     the owner keeps exactly what every other rank decodes.
 * With --trace every step writes one entry as executor.c's do, its bytes
 * those on the wire.
 * With error feedback (codec_cfg.error_feedback) a rank adds its residual to
 * its input where it sends or reduces it, and keeps what the codec dropped
 * (the residual of its sends and of its rounded chunk) for the next call.
 *
 * On the direct schedule (sched_build_direct) every value is encoded once on
 * its way to the chunk's owner and the sum once on its way back, so the error
 * does not grow with the rank count.
 */
#include <mpi.h>

#ifndef COLLSCOPE_EXEC_CODEC_H
#define COLLSCOPE_EXEC_CODEC_H

#include "algorithms/executor.h"

struct exec_codec_state {
	float *residual; /* count floats: error feedback's, zero at every resize */
	size_t count;
	uint64_t calls; /* seeds the stochastic rounding */
};

/* (Re)allocate *st for count elements, residual zeroed; 0 or -1. */
int exec_codec_state_resize(struct exec_codec_state **st, size_t count);
void exec_codec_state_free(struct exec_codec_state **st);
/* Scratch of a plan whose messages have at most segment_count elements. */
size_t exec_codec_scratch_bytes(size_t segment_count);

/* Run one compressed all-reduce; returns MPI_SUCCESS or an MPI error code. */
int exec_codec_run(const struct exec_plan *p, const struct ar_call *c);

#endif
