/*
 * The coverage of a links run (issue 28): what was measured, against what
 * all pairs would have measured, and per verdict class the smallest
 * slowdown the run would have named, the report's summary.coverage. Pure:
 * no MPI; the figures are the run layer's (cmd/run/links_screen.c).
 */
#ifndef COLLSCOPE_LINKS_COVERAGE_H
#define COLLSCOPE_LINKS_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "reports/diagnose/detect.h"

struct links_rules_out {
	double slowdown_percent; /* NAN: not judged */
	int covered, of;         /* link: host pairs measured, of all; host, segment: hosts
	                            with 3 partners or more (all there are), of all */
};

struct links_coverage {
	const char *pattern; /* "screen", "pairs", "shift", "both" */
	int rounds;          /* measured, every kind */
	int screening_rounds, followup_rounds, intra_host_rounds;
	int64_t pairs_measured, pairs_total;           /* unordered rank pairs */
	int64_t host_pairs_measured, host_pairs_total; /* unordered host pairs */
	int min_partners; /* the fewest hosts any host was measured with */
	double budget_s;  /* NAN: none */
	double elapsed_s; /* from the plan to the verdict */
	bool stopped_by_budget;
	struct links_rules_out rules_out[DETECT_KINDS]; /* by enum detect_kind */
};

/* summary.coverage of c into summary; false when out of memory. */
bool links_report_add_coverage(cJSON *summary, const struct links_coverage *c);

#endif
