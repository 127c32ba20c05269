/*
 * A link a confirmed segment explains (issue 39). Pure: no MPI, no I/O.
 *
 * A slow uplink makes every link across it slow: the segment is the fault,
 * and its links are its cells, not faults of their own. The classifier reads
 * the cells as a segment when they agree; beside another job's stream they
 * do not: the stream's hosts' cells are slower or, in the room matrix (what
 * each pair's NICs carried besides it added, traffic.h), faster one way than
 * the other, and the classifier names those links one way besides the
 * segment (the fault campaign, seed 11 draw 29: an uplink 90% slow and a
 * stream h3 -> h1 within its rack named the segment and the links h1 -> h4,
 * h1 -> h5, h4 -> h3, h5 -> h3, every one at the segment's 0.10x; accept then
 * failed h1, h3, h4 and h5 on them). Such a link is cleared (segment_cleared;
 * cleared_by segment) when it crosses the cut of a confirmed segment of the
 * same metric, class and pattern, its slow ways are among the segment's,
 * and it is no slower than the segment by more than the class's tolerance.
 * A link slower than that is a fault beside the segment and stays.
 */
#ifndef COLLSCOPE_SEGMENT_LINKS_H
#define COLLSCOPE_SEGMENT_LINKS_H

#include "reports/diagnose/detect.h"

/* Does segment g of r explain link s (both of r), as above (confirmation aside)? */
bool segment_explains_link(const struct detect_result *r, const struct detect_suspect *g,
                           const struct detect_suspect *s, const struct detect_params *p);

/*
 * Un-confirms every confirmed link of r that a confirmed segment of r
 * explains and sets its segment_cleared. Returns how many.
 */
int segment_clear_links(struct detect_result *r, const struct detect_params *p);

#endif
