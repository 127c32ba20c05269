/* See progress_thread.h. */
#include <mpi.h>

#include "algorithms/progress_thread.h"

#include <time.h>

static void *loop(void *arg)
{
	struct progress_thread *t = arg;
	const long ns = (long)(t->interval_us * 1e3);
	const struct timespec nap = {ns / 1000000000L, ns % 1000000000L};
	for (;;) {
		pthread_mutex_lock(&t->lock);
		if (t->quit) {
			pthread_mutex_unlock(&t->lock);
			return NULL;
		}
		if (t->call && !t->call->done) {
			bool done;
			int rc = exec_nb_test(t->call, &done);
			if (rc != MPI_SUCCESS && t->rc == MPI_SUCCESS)
				t->rc = rc;
		}
		pthread_mutex_unlock(&t->lock);
		if (t->interval_us > 0)
			nanosleep(&nap, NULL);
		else
			sched_yield();
	}
}

int progress_thread_start(struct progress_thread *t, double interval_us)
{
	*t = (struct progress_thread){.interval_us = interval_us, .rc = MPI_SUCCESS};
	if (pthread_mutex_init(&t->lock, NULL) != 0)
		return -1;
	if (pthread_create(&t->thread, NULL, loop, t) != 0) {
		pthread_mutex_destroy(&t->lock);
		return -1;
	}
	t->started = true;
	return 0;
}

void progress_thread_give(struct progress_thread *t, struct exec_nb *nb)
{
	pthread_mutex_lock(&t->lock);
	t->call = nb;
	pthread_mutex_unlock(&t->lock);
}

int progress_thread_take(struct progress_thread *t)
{
	pthread_mutex_lock(&t->lock);
	t->call = NULL;
	int rc = t->rc;
	t->rc = MPI_SUCCESS;
	pthread_mutex_unlock(&t->lock);
	return rc;
}

void progress_thread_stop(struct progress_thread *t)
{
	if (!t->started)
		return;
	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	pthread_mutex_destroy(&t->lock);
	t->started = false;
}
