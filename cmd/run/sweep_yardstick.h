/*
 * The noise yardstick of a sweep (issue 29): a control measurement repeated
 * through the run, so that compare and trend can tell how much the machine
 * itself moved while the points were measured.
 *
 * The control is the library's own all-reduce (`mpi`) of one small fixed
 * message (SWEEP_YARDSTICK_BYTES, or the sweep's largest size when that is
 * smaller), timed as the sweep times its points, in bursts of
 * SWEEP_YARDSTICK_ITERS calls. A burst runs before every point and once
 * after the last; its median is one yardstick sample, and each point's
 * record names the burst before it (yardstick_burst), so that compare can
 * tell whether the machine was disturbed while that point was measured.
 * The samples' relative spread (stats_iqr_spread_pct) says how much it moved
 * over the whole run. The
 * control runs without injected faults (COLLSCOPE_FAULT): a fault models a
 * change of the code under test, which a control must not see.
 *
 * Every function is collective over c->comm unless it says rank 0.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_SWEEP_YARDSTICK_H
#define COLLSCOPE_CMD_SWEEP_YARDSTICK_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/executor.h"

struct sweep;
struct sweep_comm;

enum {
	SWEEP_YARDSTICK_BYTES = 1024,
	SWEEP_YARDSTICK_ITERS = 32,
	SWEEP_YARDSTICK_WARMUP = 2,
	SWEEP_YARDSTICK_MAX_SAMPLES = 4096, /* bursts kept; a longer sweep keeps the first ones */
};

struct sweep_yardstick {
	const struct ar_variant *variant; /* mpi; NULL: no yardstick in this run */
	struct exec_plan plan;
	bool planned, tried; /* tried: the first burst set it up, or found it cannot run */
	size_t count;        /* elements of the sweep's dtype */
	uint64_t bytes;
	int iters;          /* per burst, as the buffers allow */
	double *samples_us; /* rank 0: the bursts' medians, in time order */
	size_t nsamples;
	size_t failed; /* rank 0: bursts with no valid sample (every start late) */
};

/* Not collective: an empty yardstick. */
void sweep_yardstick_init(struct sweep_yardstick *y);
/*
 * One burst on c, the whole job (after sweep_setup): the plan at the first
 * call, the burst, its median into y on c's rank 0. A control that cannot
 * run (an op the library lacks) leaves the run without a yardstick. Returns
 * an exit code, agreed among c's members.
 */
int sweep_yardstick_measure(struct sweep *s, struct sweep_yardstick *y, const struct sweep_comm *c);
/*
 * Rank 0: summary.yardstick (reports/SCHEMA.md) from y, nothing when the run
 * had none; 0, or -1 when out of memory.
 */
int sweep_yardstick_to_json(const struct sweep_yardstick *y, cJSON *summary);
/* The text line "# yardstick: ..." (rank 0), into buf. */
void sweep_yardstick_text(const struct sweep_yardstick *y, char *buf, size_t len);
/* Rank 0: that line on stdout when print, and summary.yardstick: how much the machine moved. */
int sweep_yardstick_summary(const struct sweep_yardstick *y, cJSON *summary, bool print);
void sweep_yardstick_release(struct sweep_yardstick *y);

#endif
