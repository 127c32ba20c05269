/*
 * The chain of re-tests (issue 29): under a bursty load a healthy pair can be
 * slow in the first pass and again in one re-test (the burst lasted), so links
 * re-tests its suspects up to LINKS_RETESTS times, each round only the pairs of
 * what still stands, and accuses only what the last round found again and no
 * more than max_misses rounds before it did not (as accept's culprit search
 * asks reproductions). A miss is allowed because the load cuts both ways: the
 * campaign (issue 39) saw a host 35% slow to receive, named by the first pass,
 * cleared by a re-test under CPU load, and named in the next run. Between rounds the
 * suspects still standing are kept as a detect_result of their own, so that
 * detect_confirm can match the next round against them. Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_RETEST_H
#define COLLSCOPE_RETEST_H

#include "reports/diagnose/detect.h"

/*
 * Into out (initialised here; the caller releases it) what stands for the
 * next round after round now was matched against before (detect_confirm):
 * every confirmed suspect of now, and every suspect of before that no
 * confirmed suspect of now found again while it has missed fewer than
 * max_misses rounds (its retest_misses then counts this one). Each is kept
 * with the first pass's figures (measured, ratio, score from first_*, where
 * known) and not confirmed, with the sides of its segment, so that a later
 * detect_confirm against out reports the first pass's. before may be NULL
 * (nothing carried). Returns the number kept, or -1 when out of memory (out
 * then empty).
 */
int retest_keep_standing(const struct detect_result *now, const struct detect_result *before,
                         int max_misses, struct detect_result *out);

#endif
