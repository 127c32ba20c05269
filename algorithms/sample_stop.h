/*
 * When an adaptive point has enough samples: its median's 95% interval
 * (reports/stats/median_ci.h) lies within +-ci_width of the median, checked
 * after `floor` samples and then each time the count doubles, up to the
 * ceiling its time budget allows. The floor is 100 where the budget allows
 * 100 (p99 needs them: a point keeps the tail it had), else the sweep's
 * minimum. A fixed count (-n) is never cut short. Pure.
 */
#ifndef COLLSCOPE_SAMPLE_STOP_H
#define COLLSCOPE_SAMPLE_STOP_H

#include <stdbool.h>
#include <stddef.h>

#define SAMPLE_STOP_CONF 0.95
enum { SAMPLE_STOP_TAIL_FLOOR = 100 };

/* Why a point stopped taking samples. */
enum sample_stop {
	SAMPLE_STOP_FIXED,     /* -n: the count asked for */
	SAMPLE_STOP_CONVERGED, /* the interval within the width asked for */
	SAMPLE_STOP_SAMPLES,   /* the ceiling on samples */
	SAMPLE_STOP_TIME,      /* the time budget (--time-per-size) */
	SAMPLE_STOP_COUNT
};

/* "fixed", "converged", "samples", "time", NULL-terminated: the report's values. */
extern const char *const sample_stop_names[SAMPLE_STOP_COUNT + 1];
/* sample_stop_names[s]; static. */
const char *sample_stop_name(enum sample_stop s);

/* The fewest samples before a point may converge, under a ceiling of `ceiling`. */
int sample_stop_floor(int ceiling, int min_iters);

/* The count at which to check next, after `done` (0 before any): floor, then doubling. */
int sample_stop_next_check(int done, int floor, int ceiling);

/*
 * The median's 95% interval of samples[0..n) into *lo, *hi (sorted into
 * scratch, n doubles); true when it lies within +-ci_width of the median.
 * Too few samples for an interval: false, *lo and *hi NAN.
 */
bool sample_stop_converged(const double *samples, size_t n, double ci_width, double *scratch,
                           double *lo, double *hi);

#endif
