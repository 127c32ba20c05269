/*
 * Where this rank is: written by the measuring code at every iteration
 * (a few relaxed atomic stores, outside the timed region), read by the
 * watchdog thread (cmd/watchdog.c), which tells the other ranks.
 * `ticks` counts the operations this rank has started; every rank runs the
 * same sequence of collective operations, so ticks compare across ranks: the
 * ranks with the fewest are the ones that have not arrived.
 */
#ifndef COLLSCOPE_PROGRESS_H
#define COLLSCOPE_PROGRESS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum progress_phase {
	PROGRESS_START,  /* before the first point */
	PROGRESS_WARMUP, /* iteration counts warm-up calls */
	PROGRESS_TIMED,  /* iteration counts timed calls */
	PROGRESS_VERIFY, /* checking and gathering results */
	PROGRESS_DONE,   /* finishing: summary, report */
	PROGRESS_CHECK,  /* iteration counts correctness checks (verify) */
	PROGRESS_IDLE,   /* not in the current sub-communicator: waiting, never late */
};

/*
 * Operations that are not an all-reduce variant take a negative "variant":
 * heartbeats carry numbers only, and every rank can name these.
 */
enum progress_activity {
	PROGRESS_NONE = -1,
	PROGRESS_LINKS_ROUND = -2, /* links: a tournament round; iteration = round */
	PROGRESS_LINKS_AGAIN = -3, /* links: a suspect measured again; iteration = which */
	PROGRESS_SCALE_GROUP = -4, /* scale: forming a sub-communicator */
};

struct progress {
	_Atomic uint64_t ticks;
	_Atomic int variant; /* index into ar_variants, -1 for none */
	_Atomic uint64_t bytes;
	_Atomic int64_t iteration;
	_Atomic int phase;
};

/* The one progress record of this process. */
extern struct progress ar_progress;

void progress_point(int variant, uint64_t bytes);
void progress_step(enum progress_phase phase, int64_t iteration);

/* "ring, 1048576 bytes, timed iteration 17" (buf of at least 128 bytes). */
void progress_describe(char *buf, size_t len, int variant, uint64_t bytes, int phase,
                       int64_t iteration);

#endif
