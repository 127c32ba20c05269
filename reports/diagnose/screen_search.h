/*
 * The follow-up after screening (issue 28): which host pairs to measure
 * next, given what screening found. Pure: no MPI, no I/O.
 *
 * Screening (probes/plan.h) measures every host against a few partners, so
 * the host x host matrix (classify.h) has most cells unknown. The
 * classifier's verdicts rest on groups: hosts joined by fine cells both ways.
 * A host whose few partners all happen to sit across a slow segment is alone
 * in its group and would be named as a slow host; a side of a segment whose
 * hosts never met each other splits into parts and is named as two segments.
 * The search asks only the questions that decide a verdict, as group tests:
 *   1. the cells are judged as the classifier judges them (its reference,
 *      its two tests) and the groups formed the same way;
 *   2. a group is flagged when one of its hosts has a slow cell; nothing
 *      flagged: no follow-up at all (a clean cluster costs screening alone);
 *   3. for a flagged group G and any other group G' with no cell measured
 *      between them, the open question "is G slow against G'?" is asked by
 *      one pair, a host of each: fine joins the two groups (a segment's
 *      side grows whole, a host alone finds its own side), slow keeps them
 *      apart (a host's NIC: slow against every group; a segment: against
 *      the other side only). Questions of hosts alone in their group go
 *      first (they risk a wrong host verdict), then larger groups first;
 *   4. a host alone keeps being asked (new partners of groups it has not
 *      met, then of any group) until it has SCREEN_SOLO_PARTNERS partners:
 *      so a host is named only when slow against partners of several groups.
 * Each call plans one round: a matching of hosts (every host in one pair at
 * most). The caller measures it, rebuilds the matrix and calls again, until
 * a call plans no pair or SCREEN_FOLLOWUP_ROUNDS rounds have run. A link
 * between two hosts that are fine with everyone else needs no question: it
 * is already a slow cell inside one group.
 */
#ifndef COLLSCOPE_SCREEN_SEARCH_H
#define COLLSCOPE_SCREEN_SEARCH_H

#include "reports/diagnose/detect.h"

#define SCREEN_SOLO_PARTNERS   5
#define SCREEN_FOLLOWUP_ROUNDS 4

struct screen_search_info {
	bool judged;       /* enough cells: the classifier judged them */
	int slow_cells;    /* cells that pass both tests */
	int flagged_hosts; /* hosts with a slow cell */
	int groups;        /* connected parts of the fine cells */
	int questions;     /* open questions left before this round */
	int pairs;         /* host pairs planned for this round */
};

/*
 * cells: nhosts x nhosts, cells[i * nhosts + j] the bandwidth i -> j, NAN
 * where not measured or not judged. host_partner (nhosts) gets the next
 * round's pairs (symmetric, -1 for a host without one). Returns the number
 * of pairs (0: nothing more to ask), or -1 for bad arguments or no memory.
 * info may be NULL.
 */
int screen_followup(const double *cells, int nhosts, const struct detect_params *p,
                    int *host_partner, struct screen_search_info *info);

#endif
