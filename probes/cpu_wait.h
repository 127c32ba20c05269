/*
 * How long this thread waited for a CPU: the kernel's run delay (time spent
 * runnable but not running, /proc/thread-self/schedstat). A link probe whose
 * ranks waited for a core a large share of the time measured the scheduler
 * as much as the link: links reports the share beside every pair, so that a
 * "slow link" on a busy host is read for what it is.
 */
#ifndef COLLSCOPE_CPU_WAIT_H
#define COLLSCOPE_CPU_WAIT_H

#include <stdbool.h>
#include <stdint.h>

/* Parse a schedstat line "run_ns wait_ns timeslices"; false when it is not one. */
bool probe_cpu_wait_parse(const char *text, uint64_t *wait_ns);

/* This thread's run delay so far, in ns; false when the kernel does not say. */
bool probe_cpu_wait_ns(uint64_t *wait_ns);

/* wait_ns over wall_s as a share in [0, 1], or NAN when either is unusable. */
double probe_cpu_wait_share(uint64_t wait_ns, double wall_s);

#endif
