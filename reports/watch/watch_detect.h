/*
 * Online change points of one series (issue 34): trend's method
 * (reports/stats/changepoint.h, E-divisive means on logarithms, so a step
 * is a factor) over a sliding window of the newest values, tested as each
 * value arrives. Pure: no MPI, no I/O.
 *
 * Each value goes into a ring of the newest `window` logarithms. Once it
 * holds 2 x confirm values, the best split with at least `confirm` values a
 * side is found; when the medians either side differ by at least the factor
 * 1 + min_step, trend's permutation test judges that split (cp_find, one
 * change, at alpha; its seed moves on with every test). A change accepted,
 * the values before it leave the window: the new level is the reference
 * for the next change (a recovery is a change of its own).
 *
 * Why both gates: the permutation test alone, run after every value, would
 * raise a false alarm about once every 1 / alpha values of pure noise (the
 * tests overlap, but not much); the step gate keeps the test from running on
 * what is too small to matter, and it costs nothing: the test runs only on
 * the rare windows that pass it. The delay to detect a step is at least
 * confirm values (the new level must hold that long, so one slow sample is
 * not an episode); tests/unit/test_watch_detect.c measures it and the
 * false-alarm rate.
 */
#ifndef COLLSCOPE_WATCH_DETECT_H
#define COLLSCOPE_WATCH_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "reports/watch/watch_ring.h"

#define WATCH_DEFAULT_WINDOW       24
#define WATCH_DEFAULT_CONFIRM      4
#define WATCH_DEFAULT_ALPHA        0.01
#define WATCH_DEFAULT_PERMUTATIONS 199
#define WATCH_DEFAULT_MIN_STEP     0.25

struct watch_detect_params {
	size_t window;       /* values tested, >= 2 x confirm */
	size_t confirm;      /* values each side of a change, >= 2 */
	double alpha;        /* of the permutation test, 0 < alpha < 1 */
	size_t permutations; /* >= 1 */
	double min_step;     /* the smallest step reported, as a fraction (0.25: 1.25x) */
	uint64_t seed;
};

void watch_detect_params_default(struct watch_detect_params *p);

struct watch_detector {
	struct watch_detect_params p;
	struct watch_ring ring; /* struct watch_point: the newest values, as logarithms */
	double *scratch;        /* window values, contiguous, for the test */
	uint64_t tests;         /* permutation tests run */
	uint64_t values;        /* values taken since init */
};

/* A change found: the level stepped from before to after. */
struct watch_change {
	double t_s;           /* the time of the first value of the new level */
	double detected_t_s;  /* the time of the value whose arrival confirmed it */
	double before, after; /* the levels, each the median of its side */
	double step;          /* after / before */
	double p_value;
	size_t delay_values; /* values from the first of the new level to the confirming one */
};

/* 0, or -1 for bad parameters or no memory (nothing to release then). */
int watch_detector_init(struct watch_detector *d, const struct watch_detect_params *p);
void watch_detector_release(struct watch_detector *d);

/*
 * Takes value (> 0 and finite; anything else is ignored: a sample not
 * measured is no evidence) measured at t_s. Returns 1 with *out filled when
 * it confirms a change, 0 when not, -1 when out of memory.
 */
int watch_detector_push(struct watch_detector *d, double t_s, double value,
                        struct watch_change *out);

/*
 * The level of the newest confirm values against the older values of the
 * window (a factor, median over median); 1 when the window holds fewer than
 * confirm + 1 values. What the attribution compares across series.
 */
double watch_detector_recent_step(const struct watch_detector *d);

#endif
