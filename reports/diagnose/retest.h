/*
 * The chain of re-tests (issue 29): under a bursty load a healthy pair can be
 * slow in the first pass and again in one re-test (the burst lasted), so links
 * re-tests its suspects up to LINKS_RETESTS times, each round only the pairs of
 * what every earlier round confirmed, and accuses only what stood every round
 * (as accept's culprit search asks 3 reproductions). Between rounds the
 * suspects still standing are kept as a detect_result of their own, so that
 * detect_confirm can match the next round against them. Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_RETEST_H
#define COLLSCOPE_RETEST_H

#include "reports/diagnose/detect.h"

/*
 * Into out (initialised here; the caller releases it): the confirmed suspects
 * of r and every segment's sides, each kept with the first pass's figures
 * (measured, ratio, score from first_*, where known), so that a later
 * detect_confirm against out reports the first pass's, and not confirmed.
 * Returns the number kept, or -1 when out of memory (out then empty).
 */
int retest_keep_confirmed(const struct detect_result *r, struct detect_result *out);

#endif
