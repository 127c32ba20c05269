/*
 * Synthetic links of a job of one rank per host, healthy or with one fault
 * of each class the classifier knows (classify.h), for the unit tests and
 * the scale benchmark (tests/bench/scale_analysis.c). Pure: libc and libm;
 * the values come from a fixed generator, so a seed gives the same job.
 *
 * Which pairs are measured:
 *   - all pairs: every ordered pair (what --pattern pairs measures);
 *   - screening: the pairings of recursive doubling (h with h xor 2^k, for
 *     every k below log2 of the hosts rounded up) and 3 shifted matchings
 *     (h with h + s mod n, both ways): every host against ceil(log2 n) + 3
 *     partners or so, both directions, O(n log n) pairs in all; or the
 *     rounds of host matchings a caller gives (the benchmark gives
 *     probes/plan.c's screening plan, what links measures).
 * Bandwidth is 10 GB/s and latency 20 us, each times (1 +- 5 %) of noise;
 * a slow cell runs at slow_factor of that.
 */
#ifndef COLLSCOPE_SYNTH_H
#define COLLSCOPE_SYNTH_H

#include "reports/diagnose/detect.h"

#include <stdbool.h>
#include <stddef.h>

enum synth_fault {
	SYNTH_HEALTHY,
	SYNTH_HOST_SEND,    /* culprit's NIC slow to send */
	SYNTH_HOST_RECEIVE, /* culprit's NIC slow to receive */
	SYNTH_LINK_ONE_WAY, /* culprit -> culprit ^ 1 slow, the other way fine */
	SYNTH_SEGMENT,      /* the hosts below nhosts / 2 against the others, both ways */
	SYNTH_FAULTS
};

/* "healthy", "host-send", "host-receive", "link-one-way", "segment", NULL. */
extern const char *const synth_fault_names[SYNTH_FAULTS + 1];

struct synth_job {
	int nhosts;
	enum synth_fault fault;
	int culprit;        /* a host; link: the sender, its partner is culprit ^ 1 */
	double slow_factor; /* of the bandwidth of a slow cell, e.g. 0.2 */
	bool all_pairs;     /* false: the screening pairs */
	unsigned seed;
	/* screening from a plan: partner[r * nhosts + h], host h's in round r (-1 none), or NULL */
	const int *partner;
	int rounds;
};

/*
 * The measured ordered pairs of job, as the detector takes them (rank = host,
 * class cross_host, judged): *out (owned by the caller, free) of *n entries,
 * sorted by (a, b), unique. metric picks bandwidth or latency. 0, or -1 for
 * bad arguments (fewer than 2 hosts, a culprit out of range) or no memory.
 */
int synth_links(const struct synth_job *job, enum detect_metric metric, struct detect_link **out,
                size_t *n);

/*
 * The host x host matrix of links (n of them, bandwidth) into cells
 * (nhosts x nhosts, NAN where nothing was measured and on the diagonal): one
 * rank per host, so a cell is its pair's value.
 */
void synth_host_matrix(const struct detect_link *links, size_t n, int nhosts, double *cells);

#endif
