/*
 * What is slow between hosts, and which way (issue 13). Pure: no MPI, no I/O.
 *
 * Input: the host x host matrix of cross-host bandwidth, cells[i * nhosts +
 * j] the typical bandwidth from host i to host j (the median of the links
 * of their ranks), NAN where unknown or not judged. Every cell is one
 * directed host pair, so a host's NIC, one cable, one direction and the
 * uplink between two racks each leave their own shape in the matrix:
 *   - host, send:     row h slow (what h sends), its column fine
 *   - host, receive:  column h slow, its row fine; both: row and column
 *   - link:           one cell (a->b or b->a) or both cells of one pair slow,
 *                     both hosts fine with every other host
 *   - segment:        the cells between two groups of hosts slow (a->b, b->a
 *                     or both), the cells within each group fine
 *
 * The method:
 * 1. The reference is the fast level, not the median: when the cells split
 *    into two levels (the sorted logs have a gap wider than
 *    CLASSIFY_LEVEL_GAP, 30 %, with at least a quarter of the cells and 2
 *    above it), the cells above the gap are the reference; otherwise all
 *    are. (A slow segment between two racks of equal size holds two thirds
 *    of the cells: their median is the slow level.) The gap is a constant,
 *    not the tolerance: in a noisy matrix a gap of 10 % between neighbours
 *    is chance, and splitting there would judge the cells against their
 *    upper half.
 *    When that reading names no host or segment, a second one: the fast level
 *    is the cells within the gap of the fastest quarter's median, when a
 *    quarter of the cells or more fall below it (an uplink that a round's
 *    pairs share leaves its cells spread from 0.3x to 0.6x, with no gap,
 *    and load fills the gap between levels). From it only hosts and
 *    segments are named, and the first reading's links they explain dropped.
 * 2. A cell is slow when it passes the detector's two tests (detect.h)
 *    against the reference: value < (1 - tolerance) x its median, and a
 *    modified z-score, over the floored MAD of the reference's logs, below
 *    -z_threshold.
 * 2c. A first pass's screen (detect_params.screen_z > 0; links sets
 *    CLASSIFY_SCREEN_Z for its isolated pairs' first pass only): of the rows
 *    and columns step 2b did not name, the CLASSIFY_SCREEN_LINES with the
 *    lowest z below -screen_z (past the tolerance, as in 2b) name their
 *    hosts, after every other verdict and apart from them: the screen changes
 *    nothing steps 1-3 read (a host's line read as slow there broke a rack's
 *    group and hid its uplink), and names no host that a host or a segment's
 *    side already names. Such a host is a suspect to measure again, not a verdict: the
 *    re-tests judge it on its pairs alone against controls (retest.h), and
 *    name it only when they find it again. On 5 namespace hosts under CPU
 *    burners or another job's stream, the one host's row or column of a NIC
 *    20-50% slow was at z -2.3 to -3.4 in 8 of the campaign's misses
 *    (2026-12-07, 7edf327): the reference's spread is the load's (a core
 *    shared by a round's pairs, a stream on a healthy host), not the NIC's,
 *    and what its pairs read alone is not.
 * 3. Hosts i and j are joined when both cells between them are fine; the
 *    groups are the connected parts. A host alone in its group, with more
 *    than half of its row or of its column slow, is named (kind host; send,
 *    receive or both by which of the two are). Two groups of two hosts or
 *    more, with more than half the cells one way between them slow, are a
 *    segment (sides a: the group of the lowest host, b: the other). Every
 *    slow cell no host or segment explains is a link (host_a < host_b).
 * At least 3 hosts and min_class_links cells are needed, else no verdict:
 * with 2 hosts nothing tells a NIC from a cable.
 */
#ifndef COLLSCOPE_CLASSIFY_H
#define COLLSCOPE_CLASSIFY_H

#include "reports/diagnose/detect.h"

/* The smallest gap between two levels of cells that splits them (step 1), as a fraction. */
#define CLASSIFY_LEVEL_GAP 0.3
/* The fewest cells (4 hosts) for step 1's second reading, from the fastest quarter. */
#define CLASSIFY_TOP_LEVEL_CELLS 12

/* Step 2c: the screen's z, and how many rows or columns it may name beyond 2b's. */
#define CLASSIFY_SCREEN_Z 2.0
#define CLASSIFY_SCREEN_LINES 2

/* Up to this many hosts, a host's row and column are judged against the cells that do not touch it. */
#define CLASSIFY_OWN_REFERENCE_HOSTS 64

/* The reference the cells were judged against, for sensitivity and the report. */
struct classify_info {
	int cells;            /* finite cells */
	int reference_cells;  /* of them, the reference (all, or those above the gap) */
	double expected;      /* the reference's median */
	double log_mad;       /* the floored MAD of its logs */
	bool judged;          /* enough hosts and cells */
	int slow_cells;       /* cells that passed both tests */
	struct detect_class as_class; /* the same, as a class for detect_sensitivity */
};

/*
 * Judges cells (nhosts x nhosts) and appends its verdicts to r (kind host,
 * link with between_hosts, or segment; metric bandwidth, class cross_host;
 * loaded as given), the worst first; segment sides go to r->sides. info may
 * be NULL. Returns 0, or -1 for bad arguments or no memory (r then holds
 * what it held before, its sides perhaps grown).
 */
int classify_hosts(const double *cells, int nhosts, const struct detect_params *p, bool loaded,
                   struct detect_result *r, struct classify_info *info);

/*
 * The smallest slowdown (a fraction) of a host's whole row or column of
 * cells cells that step 2b names, against the reference info was judged by:
 * the tolerance, or the z-score of the row's median with its gain
 * sqrt(2k / pi), whichever asks more. Below a single cell's figure
 * (detect_sensitivity of info->as_class) from 3 cells on: a host is judged
 * on all its cells at once. NAN when info was not judged or cells < 3.
 * (Up to CLASSIFY_OWN_REFERENCE_HOSTS hosts each host is judged against the
 * cells that do not touch it, whose spread is near everyone's.)
 */
double classify_host_sensitivity(const struct classify_info *info, const struct detect_params *p,
                                 int cells);

/*
 * After detect_run and classify_hosts judged the same pass into r (from
 * index `from` on, the verdicts of classify_hosts): the detector's own host
 * suspects of cross_host bandwidth are dropped (the classifier judged those
 * hosts), and so are its rank links that a verdict explains (a named host's
 * link, a link of a named host pair, a link across a named segment). Then
 * the two directions of a rank link, both suspect, become one suspect with
 * direction both. Returns the number of suspects removed.
 */
int classify_reconcile(struct detect_result *r, int from);

/*
 * The suspect in one line a person reads, e.g. "host h4 is slow to send: its
 * 12 cross_host links out run at 0.03x the median (0.021 against 0.74 GB/s,
 * z -51.2)" or "segment h1 h2 <-> h3 h4 is slow both ways: ...". host_names
 * may be NULL ("host N"). Returns the length snprintf would write.
 */
int classify_describe(const struct detect_result *r, const struct detect_suspect *s,
                      const char *const *host_names, char *buf, size_t len);

#endif
