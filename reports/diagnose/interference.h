/*
 * How much one group's all-reduce suffers from what runs beside it (issue
 * 31). Pure: no MPI, no I/O.
 *
 * A victim test is measured twice: its group alone (every other group
 * idle), then together (every group at once, aggressors running their
 * congestor). The factors are written so that 1 is no interference and a
 * larger number is worse:
 *   busbw: alone / together (busbw, from the p50 time);
 *   mean, p50, p99: together / alone (time).
 * GPCNeT's congestion impact factor is congested / isolated for a latency
 * test and isolated / congested for a bandwidth test, on the mean and on
 * the 99th percentile; for a bandwidth test at fixed bytes that is the time
 * ratio, so `mean` and `p99` are its two figures for every test.
 */
#ifndef COLLSCOPE_INTERFERENCE_H
#define COLLSCOPE_INTERFERENCE_H

#include <stdbool.h>

/* One measurement of a victim test: NAN where unknown. */
struct interference_figures {
	double mean_us, p50_us, p99_us, busbw_gbps;
};

struct interference_factors {
	double busbw, mean, p50, p99; /* NAN when either side is unknown or not positive */
};

void interference_factors_of(const struct interference_figures *alone,
                             const struct interference_figures *together,
                             struct interference_factors *out);

/*
 * The group degraded at this point: its p50 or mean factor is at least
 * 1 + tolerance. The p99 alone does not decide (one stall moves it), nor
 * does busbw (the p50's twin).
 */
bool interference_degraded(const struct interference_factors *f, double tolerance);

/* num / den when both are finite and positive, else NAN: every factor's rule. */
double interference_ratio(double num, double den);

#endif
