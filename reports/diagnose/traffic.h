/*
 * Another job's traffic, told from a slow link (issue 29). Pure: no MPI, no
 * I/O.
 *
 * A cluster is shared: while links measures a pair again alone, another
 * job may be moving data through the same host's NIC, and the pair then
 * gets what is left. That host's links are really slower for this run, but
 * nothing is wrong with it: pulling it would be a false accusation. Each
 * rank reads its host's interface counters around the pair's one-way
 * bandwidth phases (probes/nic_bytes.h) and what they carried besides the
 * pair's own bytes is the other traffic. A confirmed bandwidth suspect
 * across hosts is cleared as traffic when its measured bandwidth plus the
 * other traffic of its re-tested pairs (the median over them, each the way
 * the suspect is slow in: the sender's host's other traffic out, the
 * receiver's in) reaches what the class allows: measured + other >=
 * (1 - tolerance) x expected. The room was there; someone else used it.
 * A NIC that is slow and also shared stays named when the traffic does not
 * make up the difference.
 */
#ifndef COLLSCOPE_TRAFFIC_H
#define COLLSCOPE_TRAFFIC_H

#include "reports/diagnose/detect.h"

/* Does other_gbps of other traffic explain suspect s (tolerance: the bandwidth's)? */
bool traffic_explains(const struct detect_suspect *s, double other_gbps, double tolerance);

/*
 * Un-confirms every confirmed cross-host bandwidth suspect of r that its
 * other traffic explains, with other_of(arg, s) the other traffic of s's
 * re-tested pairs in GB/s (NAN: unknown, nothing cleared) and into *most the
 * most of one pair, recorded in its other_traffic_gbps and
 * other_traffic_most_gbps, and sets traffic_cleared. Returns how many it cleared.
 */
typedef double (*traffic_other_fn)(const void *arg, const struct detect_suspect *s,
                                   double *most);
int traffic_clear(struct detect_result *r, traffic_other_fn other_of, const void *arg,
                  const struct detect_params *p);

/*
 * The same told cell by cell, for the verdicts of many cells (classify.h):
 * another job's stream through one host's NIC slows every cell of that host,
 * and beside a real fault (an uplink, a slow link) the classifier then reads
 * a host whose cells are part the fault's and part the stream's as slow
 * itself (the fault campaign: an uplink at 30 % beside a stream named the
 * segment and the three hosts of its rack). room: the host matrix with what
 * each pair's NICs carried besides it that way added to its bandwidth
 * (links_room_host_matrix), of the isolated pairs or (loaded) of the shift
 * pattern. It is classified again, and every confirmed host or link between
 * hosts of r from that pattern with other traffic in the way of one of its
 * pairs at least (other_traffic_most_gbps > 0, set by traffic_clear: its
 * median may be nothing, a host beside an uplink whose one pair met a
 * stream) that the room's verdicts do not name again is cleared as traffic:
 * the same host or link, or a host's links its way, at least
 * TRAFFIC_QUIET_LINKS of them on cells where other (nhosts x nhosts, may be
 * NULL: none counts) has at most TRAFFIC_QUIET_SHARE of the reference in the
 * way. Segments stay: an uplink is no one host's NIC. When it
 * cleared any, a segment the room names and r does not is added, confirmed:
 * the stream had hidden it behind its hosts (an uplink at 10 % read as its
 * rack's hosts); and r's segment of the same cut takes the room's sides when
 * they differ (the stream's host had been left out of its rack). Returns how
 * many it cleared, or -1 when out of memory.
 */
enum { TRAFFIC_QUIET_LINKS = 2 };
#define TRAFFIC_QUIET_SHARE 0.05
int traffic_clear_cells(struct detect_result *r, const double *room, const double *other,
                        int nhosts, bool loaded, const struct detect_params *p);

#endif
