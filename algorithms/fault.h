/*
 * Fault injection, FOR TESTING ONLY: proves that the checks catch what they
 * claim to catch. Read from the environment variable COLLSCOPE_FAULT:
 *   flip:rank=R            flip one bit of rank R's result after each measured call
 *                          (the check then finds it)
 *   stall:rank=R,after=K   rank R stops making progress after K timed iterations
 *                          (the watchdog then finds it)
 *   nomem:rank=R           rank R's buffer allocation fails (all ranks must agree)
 *   delay:rank=R,us=N      rank R waits N us before each timed call, after the
 *                          iteration's start: it arrives late (the straggler's
 *                          cause is then late_arrival)
 *   slow:rank=R,us=N       rank R waits N us inside each timed call, after the
 *                          all-reduce and before its end is stamped (slow_inside)
 *   slow:rank=R,pct=P      the same, P percent of the call's own time: a run made
 *                          P% slower at every size (compare must catch it)
 *   slow:rank=all,...      the same on every rank: a regression of the code path is
 *                          in every rank's build, and one rank's slack can hide it
 *                          (a rank whose part ends early spins while the others wait
 *                          on a busy link: 35% of its time cost the point 0%)
 *   compute:rank=R,pct=P   every reduction of rank R's schedules takes P percent
 *                          longer (it spins that share of the reduction's own time
 *                          after it): a core slower at its own work, as a throttled
 *                          or shared one is (--trace judges ranks by reduction rate)
 *   stranger:rank=0        before the ranks reach the watchdog's port, two connections
 *                          that are not ranks come first (one silent, one with the wrong
 *                          answer): the rendezvous must drop them and go on
 *   rendezvous:rank=0      rank 0's watchdog rendezvous fails after the others have
 *                          connected: every rank must agree that it cannot watch and
 *                          stop with exit 5, none hang
 * Pure: no MPI, no printing.
 */
#ifndef COLLSCOPE_FAULT_H
#define COLLSCOPE_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fault_kind {
	FAULT_NONE,
	FAULT_FLIP,
	FAULT_STALL,
	FAULT_NOMEM,
	FAULT_STRANGER,
	FAULT_DELAY,
	FAULT_SLOW,
	FAULT_RENDEZVOUS,
	FAULT_COMPUTE
};

enum { FAULT_EVERY_RANK = -2 }; /* slow:rank=all */

struct fault {
	enum fault_kind kind;
	int rank; /* or FAULT_EVERY_RANK */
	int64_t after;
	int64_t us;  /* delay and slow */
	int64_t pct; /* slow: percent of the call's time, instead of us; compute: of a reduction's */
};

/* The process's fault, parsed once by fault_load. */
extern struct fault ar_fault;

/* Parse a spec ("" or NULL: no fault). 0, or -1 with *why. */
int fault_parse(const char *spec, struct fault *out, const char **why);
/* Parse getenv("COLLSCOPE_FAULT") into ar_fault; -1 with *why for a bad spec. */
int fault_load(const char **why);

bool fault_is(enum fault_kind kind, int rank);
/* Flip one bit of the middle element of buf (count elements of elem_bytes). */
void fault_flip(void *buf, size_t count, size_t elem_bytes);
/* Sleeps us microseconds (delay and slow). */
void fault_wait_us(int64_t us);
/* Spins (no sleep: a slow core is busy) for ns nanoseconds of CLOCK_MONOTONIC (compute). */
void fault_spin_ns(uint64_t ns);
/* Never returns: the stalled rank sleeps until something kills it. */
void fault_stall(void);

#endif
