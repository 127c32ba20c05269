/*
 * A link the shift pattern names that is fine alone (issue 39). Pure: no
 * MPI, no I/O.
 *
 * The shift pattern (mpiGraph's) loads every host at once: every rank sends
 * and receives in each step. What it names that the isolated pairs do not
 * is what load does: a segment two flows share, a host's NIC that cannot
 * send and receive at full rate together. But a single link named by the
 * shift alone, whose pair measured alone runs within its class, is no slow
 * link: in each step one flow crosses it, and the same flow alone was fine,
 * so something else of the step slowed it (on a host under CPU load, its
 * ranks waiting for a core while five flows share two; the fault campaign
 * named such links at 0.81-0.88x under CPU burners, their pairs alone at
 * 0.94-1.00x). Such a confirmed link is cleared (alone_cleared; cleared_by
 * alone) when every cell it names of the isolated pairs' host matrix is at
 * least (1 - tolerance) x that matrix's reference. The re-tests measure a
 * shift link's pairs alone (detect_remeasure_pairs), so its cells are read
 * alone, not as the first pass's rounds left them (a healthy link h5 -> h2 of
 * the campaign's seed 3 stood at 0.81x there under CPU burners and was named).
 * A cell not measured keeps the verdict. So do such links that together run between two
 * groups of two hosts or more (every link from one group to the other, none
 * within one): that is a segment's shape, flows of a step sharing an uplink
 * that one flow alone fills (the campaign's uplink at 95% of a host's rate:
 * four links across it at 0.46x in the shift, each fine alone).
 */
#ifndef COLLSCOPE_ALONE_H
#define COLLSCOPE_ALONE_H

#include "reports/diagnose/detect.h"

/*
 * Un-confirms the confirmed links between hosts of r found in the shift
 * pattern (loaded) whose cells of pairs (nhosts x nhosts, the isolated
 * pairs' host matrix, NAN unknown) are all at least (1 - tolerance) x
 * expected (that matrix's reference, classify_info.expected), but those of a
 * segment's shape, and sets their alone_cleared. Returns how many; 0 when
 * expected is not a positive number or out of memory.
 */
int alone_clear(struct detect_result *r, const double *pairs, int nhosts, double expected,
                const struct detect_params *p);

/*
 * A host the shift pattern names is read the same way, with one more test.
 * The shift's own reason to name a host is a NIC that cannot send and
 * receive at full rate together, which its pairs one way at a time would not
 * show; the pairs' bidirectional windows (a window each way at once) do. So a
 * confirmed host of the shift (bandwidth between hosts, not a rail) is
 * cleared (alone_cleared) when the median of its isolated pairs' cells its
 * slow ways (out for send, in for receive) is at least (1 - tolerance) x
 * expected, and the median of its cells of bidir (both ways at once, nhosts x
 * nhosts, NAN unknown) is at least (1 - tolerance) x the median of the
 * finite cells of bidir that do not touch it. A host without such cells keeps the verdict. The
 * campaign's links draws of seed 3 (2026-12-07, under 2 CPU burners on the 2
 * cores the 5 hosts share) named under the shift alone h5 slow to send where
 * h5 received 20% slow; its pairs ran at 0.98x one way and 1.05x both ways at
 * once. Returns how many it cleared, or -1 when out of memory.
 */
int alone_clear_hosts(struct detect_result *r, const double *pairs, const double *bidir,
                      int nhosts, double expected, const struct detect_params *p);

#endif
