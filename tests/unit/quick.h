/*
 * The sanitizer run of the unit tests sets COLLSCOPE_UNIT_QUICK=1: a step costs
 * ten times as much there, so the simulator plays fewer rank counts and the
 * tests sized to catch a quadratic return (200k entries) run at a tenth of the
 * size. The plain run, whose timeouts guard the complexity, runs them in full.
 */
#ifndef COLLSCOPE_TESTS_QUICK_H
#define COLLSCOPE_TESTS_QUICK_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool unit_quick(void)
{
	const char *q = getenv("COLLSCOPE_UNIT_QUICK");
	return q && strcmp(q, "1") == 0;
}

#endif
