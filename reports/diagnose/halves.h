/*
 * Which half of an all-reduce is slow (issue 35, item 3): the time of the
 * reduce-scatter and of the all-gather of a traced point whose schedule has
 * both (ring, rabenseifner: sched.halves). Pure: no MPI, no I/O.
 *
 * Per traced iteration, on the common clock of the gather: the iteration
 * starts at the earliest start of any step; the reduce-scatter ends when
 * the last rank ends its last reduce-scatter step; the all-gather then runs
 * until the last step of any rank ends. reduce_scatter = rs_end - start,
 * allgather = end - rs_end (a rank's all-gather steps that overlap another's
 * reduce-scatter count in the first half). The figures are medians over the
 * iterations.
 */
#ifndef COLLSCOPE_HALVES_H
#define COLLSCOPE_HALVES_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/diagnose/hops.h"

struct halves {
	bool known;     /* some iteration had both halves */
	int iterations; /* that had them */
	double reduce_scatter_us, allgather_us;
	double reduce_scatter_share; /* of the two together */
};

/* From the steps of one point (any order). 0, or -1 when out of memory. */
int halves_of(const struct hops_step *steps, size_t n, struct halves *out);

/* Adds "halves" {reduce_scatter_us, allgather_us, reduce_scatter_share, iterations} to trace. */
#include <cjson/cJSON.h>
cJSON *halves_add_json(cJSON *trace, const struct halves *h);

#endif
