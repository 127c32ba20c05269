/*
 * How much of a non-blocking all-reduce hides behind compute (issue 32),
 * by the two published definitions. Pure: no MPI, no I/O.
 *
 * The times of one rank, means over its iterations (microseconds):
 *   pure:      the call alone, start to completion (MPI_Iallreduce + MPI_Wait);
 *   cpu_alone: the compute alone, as long as the slowest rank's pure time;
 *   overall:   start, the same compute with test calls, completion;
 *   cpu:       of overall, the compute's wall time, test calls included;
 *   test:      of cpu, the time inside the test calls.
 * OSU (osu_iallreduce), on the means over ranks:
 *   overlap % = max(0, 100 - 100 (overall - (cpu - test)) / pure)
 * IMB-NBC, on the rank with the largest overall:
 *   overlap % = 100 max(0, min(1, (pure + cpu_alone - overall) / max(pure, cpu_alone)))
 * 100 is a call hidden entirely, 0 one that ran after the compute.
 */
#ifndef COLLSCOPE_OVERLAP_MODEL_H
#define COLLSCOPE_OVERLAP_MODEL_H

#include "algorithms/buckets.h"

#include <stddef.h>

/*
 * What advances the call while the compute runs: test calls inside the
 * compute, a progress thread, or nothing until the wait.
 */
enum overlap_progress {
	PROGRESS_BY_TEST,
	PROGRESS_BY_THREAD,
	PROGRESS_BY_NONE,
	OVERLAP_PROGRESS_KINDS
};
/* "test", "thread", "none"; NULL-terminated, in the enum's order. */
extern const char *const overlap_progress_names[];

struct overlap_times {
	double pure_us, cpu_alone_us, overall_us, cpu_us, test_us;
	double tests; /* test calls per iteration */
};

/* The mean over n ranks of each time; n >= 1. */
struct overlap_times overlap_mean(const struct overlap_times *r, int n);
/* The rank with the largest overall time (the first of equals); n >= 1. */
int overlap_slowest(const struct overlap_times *r, int n);
/* NAN when pure is not positive or a time is not finite. */
double overlap_osu_percent(const struct overlap_times *mean);
/* NAN when max(pure, cpu_alone) is not positive or a time is not finite. */
double overlap_imb_percent(const struct overlap_times *slowest);

/*
 * A measured training step (algorithms/step_bench.h), the job's figures:
 * each of compute, serial and step the slowest rank's mean (the step ends
 * when its last rank does); exposed = step - compute, the communication the
 * step waits for; hidden = (serial - step) / (serial - compute), the share
 * of the communication the overlap hid (NAN when serial <= compute).
 */
struct overlap_step {
	double compute_us, serial_us, step_us, exposed_us, hidden_fraction;
};
/* From every rank's three means (rank-major: compute, serial, step); n >= 1. */
struct overlap_step overlap_step_of(const double *per_rank, int n);

#endif
