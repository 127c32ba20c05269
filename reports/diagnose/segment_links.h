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
 *
 * A host on one side of the cut reads the same way: its cells across are the
 * segment's, and when the cut leaves few cells per host (two of a side's
 * host's cells out of eight stay within its side on 5 hosts in racks of 3
 * and 2) the classifier names the host as well (the campaign, seed 11 draw
 * 59: an uplink 90% slow named the segment and hosts h4 and h5 slow both
 * ways, at the segment's 0.07x-0.09x, while h4 <-> h5 ran as fast as the
 * other rack's cells). Such a host is cleared the same way when its host is
 * on a side of a confirmed segment of the same metric, class and pattern, the
 * ways it is slow across the cut are among the segment's, it is no slower
 * than the segment by more than the tolerance, and its own cells within its
 * side (its slow ways) run, their median, within the tolerance of the median
 * of the cells within either side that do not touch it. A host slow of its
 * own is slow within its side too and stays; one with no cell within its
 * side (a side of one host), or no cell to compare it with, stays. A host of
 * the shift pattern is also read on a segment of the isolated pairs and
 * their matrix (what it does within its side alone), without the level test
 * (the two patterns' levels differ): the shift named host h4 both ways beside
 * an uplink 50% slow that the pairs' re-test confirmed (seed 3, draw 1,
 * 2026-12-07), where the isolated pairs had h4 -> h5 and h5 -> h4 at 1.21x
 * and 0.95x of the other rack's cells.
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

/*
 * Does segment g of r explain host suspect s (both of r), as above
 * (confirmation aside)? cells: the host x host matrix (r->nhosts squared)
 * of g's pattern that the classifier judged, NAN where unknown.
 */
bool segment_explains_host(const struct detect_result *r, const struct detect_suspect *g,
                           const struct detect_suspect *s, const double *cells,
                           const struct detect_params *p);

/*
 * Un-confirms every confirmed host of r that a confirmed segment of r of the
 * pattern loaded explains on cells (that pattern's matrix, as above: hosts
 * of that pattern, and of the shift too when loaded is false) and sets its
 * segment_cleared. Returns how many, or -1 when out of memory.
 */
int segment_clear_hosts(struct detect_result *r, const double *cells, bool loaded,
                        const struct detect_params *p);

/*
 * One cut, one accusation. links judges each pattern (the isolated pairs, the
 * shift) and a segment's re-test on its own, and each may confirm the uplink:
 * seed 11's draw 51 (an uplink 35% slow) named "h1 h3 <-> h4 h5" from one
 * reading and "h1 h2 h3 <-> h4 h5" from another, the same cable twice, one
 * of them with a host left out. A confirmed segment of the same metric and
 * class as another confirmed segment that names the same cut
 * (detect_same_segment: sides that agree on every host both name) and names
 * no more hosts than it (no fewer, and later in r, on a tie) is un-confirmed
 * and its segment_cleared set. Returns how many. Run after the hosts and
 * links are cleared: each pattern's are judged against its own segment.
 */
int segment_clear_repeats(struct detect_result *r);

#endif
