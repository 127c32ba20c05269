/*
 * A progress thread for a non-blocking all-reduce (overlap, issue 32): while
 * the main thread computes without any MPI call, this thread advances the
 * call it is handed (exec_nb_test) every interval. The two never call MPI at
 * once: the thread calls it only holding the lock with a call handed over,
 * and the main thread takes the call back under the lock before its own MPI
 * calls, so MPI_THREAD_SERIALIZED is enough.
 */
#include <mpi.h>

#ifndef COLLSCOPE_PROGRESS_THREAD_H
#define COLLSCOPE_PROGRESS_THREAD_H

#include <pthread.h>
#include <stdbool.h>

#include "algorithms/exec_nb.h"

struct progress_thread {
	pthread_t thread;
	pthread_mutex_t lock;
	struct exec_nb *call; /* under lock: the call to advance, or NULL */
	bool quit;            /* under lock */
	int rc;               /* under lock: the first MPI error of the thread */
	double interval_us;
	bool started;
};

/* Starts the thread, polling every interval_us (0: as often as it can). 0, or -1. */
int progress_thread_start(struct progress_thread *t, double interval_us);
/* Hands nb over (started, not yet complete) to be advanced. */
void progress_thread_give(struct progress_thread *t, struct exec_nb *nb);
/* Takes it back; the thread's first MPI error since, or MPI_SUCCESS. */
int progress_thread_take(struct progress_thread *t);
/* Stops and joins the thread. */
void progress_thread_stop(struct progress_thread *t);

#endif
