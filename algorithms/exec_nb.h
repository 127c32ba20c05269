/*
 * An all-reduce started now and completed later (overlap, issue 32): the
 * steps of a schedule advanced by test calls, or a direct variant's
 * non-blocking form (the library's MPI_Iallreduce). Between the calls the
 * caller computes; whatever moves the data meanwhile is the library's own
 * progress. The step semantics are schedule.h's: a step posts its receive
 * and its send, and when both have completed its reduction runs and the
 * next step posts. Unlike exec_run, the next receive is not posted early:
 * every step is as the schedule says, so what the test calls buy is plain.
 */
#include <mpi.h>

#ifndef COLLSCOPE_EXEC_NB_H
#define COLLSCOPE_EXEC_NB_H

#include <stdbool.h>
#include <stddef.h>

#include "algorithms/executor.h"
#include "algorithms/buckets.h"

struct exec_nb {
	const struct exec_plan *p;
	struct ar_call c;
	size_t k;           /* the step in flight */
	MPI_Request req[2]; /* its receive and its send; a direct variant's request in req[0] */
	bool posted, done;
	int tag; /* of its messages: calls in flight at once need their own */
};

/* Can v run non-blocking: a schedule, or a direct variant with a start. */
bool exec_nb_supported(const struct ar_variant *v);
/*
 * Starts the call (buffers in c, borrowed until it is done); calls in flight
 * at once on one communicator take distinct tags (0 .. EXEC_NB_TAGS - 1).
 * An MPI error code.
 */
enum { EXEC_NB_TAGS = OVERLAP_MAX_BUCKETS };
int exec_nb_start(struct exec_nb *nb, const struct exec_plan *p, const struct ar_call *c, int tag);
/* Advances without blocking; *done when the call has completed. An MPI error code. */
int exec_nb_test(struct exec_nb *nb, bool *done);
/* Blocks until the call has completed. An MPI error code. */
int exec_nb_wait(struct exec_nb *nb);

#endif
