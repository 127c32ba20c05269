/*
 * collscope accept: the verdicts. From the spec and the figures of each
 * repeat, one result per check and per host: PASS, FAIL or INTERMITTENT
 * (failed in some repeats, not all: never a pass), the measured figure
 * against the threshold, and a stable fault code per kind of failure
 * (README.md, "collscope accept"). Then per host: whether it failed its own
 * checks, or was named by a culprit search on evidence (accept_bisect.h); a
 * host the search suspected on noise is INCONCLUSIVE, not failed
 * (accept_search.c). Pure: no MPI, no I/O; text lines are formatted into
 * buffers, JSON into a cJSON tree.
 *
 * A figure the spec asks for and a repeat did not deliver (a point not run,
 * a class of links not measured, a variant skipped) is a failure of that
 * repeat, never a pass. A kind of check a repeat did not run at all (has[]
 * false) does not count for that repeat; one no repeat ran fails as
 * *_NOT_MEASURED.
 */
#ifndef COLLSCOPE_ACCEPT_VERDICT_H
#define COLLSCOPE_ACCEPT_VERDICT_H

#include "reports/accept/accept_bisect.h"
#include "reports/accept/accept_figures.h"
#include "reports/accept/accept_spec.h"
#include "reports/render/html.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * In order of severity. INCONCLUSIVE: a host's own links check failed, but
 * the failure did not reproduce when its links were measured again: noise,
 * not evidence against the host (it does not fail the host; the run still
 * exits 1, as the figure did fail).
 */
enum accept_status { ACCEPT_PASS, ACCEPT_INCONCLUSIVE, ACCEPT_INTERMITTENT, ACCEPT_FAIL };
#define ACCEPT_STATUSES (ACCEPT_FAIL + 1)

/* Stable fault codes: their names are an interface (scripts grep them). Append only. */
enum accept_fault {
	ACCEPT_NO_FAULT,
	ACCEPT_TOPO_HOSTS,          /* not the host count of the spec */
	ACCEPT_TOPO_RANKS,          /* a host runs another number of ranks */
	ACCEPT_TOPO_CORES,          /* a host has another number of cores */
	ACCEPT_TOPO_NUMA,           /* a host has another number of NUMA nodes */
	ACCEPT_TOPO_OVERSUBSCRIBED, /* a host runs more ranks than it has cores */
	ACCEPT_TOPO_NOT_MEASURED,   /* the placement was not measured */
	ACCEPT_VERIFY_WRONG,        /* a variant gave wrong elements */
	ACCEPT_VERIFY_NOT_RUN,      /* a variant of the spec was not verified (skipped, absent) */
	ACCEPT_LINK_BW_LOW,         /* median bandwidth of a class below the minimum */
	ACCEPT_LINK_LAT_HIGH,       /* median latency of a class above the maximum */
	ACCEPT_LINK_SUSPECT,        /* links named a suspect link or host */
	ACCEPT_LINK_NOT_MEASURED,   /* no link of a class the spec has a threshold for */
	ACCEPT_AR_BUSBW_LOW,        /* busbw of a point below the minimum */
	ACCEPT_AR_P99_HIGH,         /* p99 time of a point above the maximum */
	ACCEPT_AR_WRONG,            /* a point gave wrong elements */
	ACCEPT_AR_NOT_MEASURED,     /* a point not run, skipped, or its figure undefined */
	ACCEPT_FAULTS
};

/* "PASS", "INCONCLUSIVE", "INTERMITTENT", "FAIL". */
const char *accept_status_name(enum accept_status s);
/* "TOPO_HOSTS", ...; "" for ACCEPT_NO_FAULT. */
const char *accept_fault_name(enum accept_fault f);
/* What the fault means, in a few words (the table of reports/accept/README.md). */
const char *accept_fault_meaning(enum accept_fault f);

/* One check, on the whole job (host -1) or on one host, over every repeat. */
struct accept_result {
	enum accept_kind kind;
	int check;                       /* what is judged (private to accept_verdict.c) */
	int host;                        /* -1: the job */
	int index;                       /* the locality class, or the spec point */
	char variant[ACCEPT_NAME_BYTES]; /* verify and allreduce: the variant ("" for any) */
	char label[128];        /* "links bandwidth cross_host", "allreduce ring 4 MiB busbw" */
	char spec_path[128];    /* of the threshold: "checks.links.min_bandwidth_gbps.cross_host" */
	const char *unit;       /* "GB/s", "us", "hosts", ... (static) */
	const char *comparison; /* ">=", "<=" or "==" (static) */
	double threshold;       /* NAN when none */
	enum accept_status status;
	enum accept_fault fault; /* of the failing repeats (also when intermittent) */
	double measured;    /* the worst repeat's figure (a failing one if any); NAN when none */
	double again;       /* that repeat's figure measured again (a host's links); NAN: not */
	double *per_repeat; /* owned: one per repeat, NAN where not measured */
	int measured_repeats, failed_repeats;
	int unconfirmed_repeats; /* failed, but not when measured again (not in failed_repeats) */
	char detail[ACCEPT_REASON_BYTES]; /* of that repeat: "median of 12 links, 12 below" */
};

struct accept_verdict;

/* What one culprit search found (a copy of the state of accept_bisect). */
struct accept_isolation {
	size_t result; /* the job-wide result that was searched */
	int tests;
	enum accept_role *role;                   /* owned: per host */
	int *group;                               /* owned: per host, its not-isolated set or -1 */
	enum accept_group_reason *reason;         /* owned: per not-isolated set */
	struct accept_evidence *evidence;         /* owned: per host (tested: a suspect) */
	int ngroups;
};

/* A search's verdict: culprits named; inconclusive (a suspect noise explains, none named);
 * not isolated; nobody named. */
enum accept_search_verdict {
	ACCEPT_SEARCH_ISOLATED,
	ACCEPT_SEARCH_INCONCLUSIVE,
	ACCEPT_SEARCH_NOT_ISOLATED,
	ACCEPT_SEARCH_NOBODY,
};
enum accept_search_verdict accept_search_verdict(const struct accept_verdict *v, size_t i);
/* 1.4826 x the MAD of a suspect's figures, each from its own side's median, pooled; NAN: none. */
double accept_evidence_spread(const struct accept_evidence *e);
/* "isolated", "inconclusive", "not isolated", "nobody named". */
const char *accept_search_verdict_name(enum accept_search_verdict s);

struct accept_verdict {
	int nhosts;
	char (*host_names)[CTX_NAME_BYTES]; /* owned */
	int repeats;
	struct accept_result *results; /* owned, in check order: job first, then each host */
	size_t nresults;
	struct accept_isolation *isolations; /* owned */
	size_t nisolations;
};

/* A host's verdict, from its results and the searches. */
struct accept_host_verdict {
	/* FAIL when it failed a check or was named; else its worst (INCONCLUSIVE: only noise) */
	enum accept_status status;
	bool failed_own;           /* FAIL or INTERMITTENT in one of its own checks */
	bool isolated;             /* named a culprit by a search */
	bool not_isolated;         /* in a set a search could not divide */
	bool inconclusive;         /* suspected by a search, but noise explains it: not failed */
	bool unconfirmed_own;      /* an own check INCONCLUSIVE: not reproduced measured again */
	unsigned own_faults;       /* bit 1 << fault of its own failing checks */
	unsigned unconfirmed_faults; /* bit 1 << fault of its own INCONCLUSIVE checks */
	unsigned isolated_faults;  /* bit 1 << fault of the searched checks it was named by */
};

void accept_verdict_init(struct accept_verdict *v);
void accept_verdict_release(struct accept_verdict *v);

/*
 * Judges runs[0 .. nruns) (one per repeat; nruns >= 1) against spec into
 * *v (initialised here). The hosts are those of runs[0]; every run must name
 * the same hosts in the same order. 0, or -1 with err (at most len bytes)
 * when the runs disagree on the hosts or memory runs out.
 */
int accept_judge(const struct accept_spec *spec, const struct accept_figures *runs, size_t nruns,
                 struct accept_verdict *v, char *err, size_t len);

/* Any result not a PASS: the command exits 1. */
bool accept_verdict_failed(const struct accept_verdict *v);
/*
 * Failed, but only in job-wide results whose searches were inconclusive and
 * in hosts' own results that did not reproduce (INCONCLUSIVE): noise
 * explains the failure, no host is to blame (still exit 1: a check failed).
 * The summary's verdict is then INCONCLUSIVE, not FAIL.
 */
bool accept_verdict_inconclusive(const struct accept_verdict *v);

/*
 * The job-wide results worth a culprit search: failed (or intermittent)
 * all-reduce points, whose figure belongs to no single host. Writes their
 * indices into out (at most v->nresults) and returns the count.
 */
size_t accept_verdict_searchable(const struct accept_verdict *v, size_t *out);

/*
 * The hosts whose own links checks (a class's bandwidth or latency) fail on
 * figures f and that nothing explains yet, into failing[0 .. f->nhosts)
 * (every host's flag set); their count. Their links are measured again
 * before a failure is named (figures.links_again): a host's failure that does
 * not reproduce there is INCONCLUSIVE. control[h]: host h can stand beside
 * them, as it passes its own links checks and links did not name it.
 */
int accept_links_failing_hosts(const struct accept_spec *spec, const struct accept_figures *f,
                               bool *failing, bool *control);

/*
 * Whether figures f pass the check of results[result] (one test of a culprit
 * search: f holds what the check measured on the subset of hosts). A figure
 * f does not hold fails.
 */
bool accept_result_passes(const struct accept_spec *spec, const struct accept_verdict *v,
                          size_t result, const struct accept_figures *f);
/*
 * The same as one test of a culprit search: PASS, FAIL, or UNKNOWN when f
 * does not hold the figure (not run, skipped, undefined, one rank: no
 * evidence either way); the figure into *figure (NAN when none).
 */
enum accept_outcome accept_result_outcome(const struct accept_spec *spec,
                                          const struct accept_verdict *v, size_t result,
                                          const struct accept_figures *f, double *figure);

/* Records what the search of results[result] found. 0, or -1 (bad index, no memory). */
int accept_verdict_add_isolation(struct accept_verdict *v, size_t result,
                                 const struct accept_bisect *b);

void accept_host_verdict(const struct accept_verdict *v, int host, struct accept_host_verdict *out);

/*
 * Text lines (accept_format.c), each into buf (len bytes, no newline),
 * returning the length snprintf would write:
 *   "FAIL         LINK_BW_LOW          h4     links bandwidth cross_host: 0.021 GB/s < min 8.8 GB/s
 * (...)" "SEARCH  allreduce ring 4 MiB busbw: culprit h4 (4 runs)" "HOST    h4     FAIL  own
 * checks: LINK_BW_LOW; named by the search of ...: AR_BUSBW_LOW" "accept: FAIL: 3 of 41 checks
 * failed, 1 intermittent; hosts failing: h4" Host names and a spec's strings are as they are:
 * a terminal printer escapes the line (cmd_print).
 */
int accept_format_result(const struct accept_verdict *v, size_t i, char *buf, size_t len);
int accept_format_isolation(const struct accept_verdict *v, size_t i, char *buf, size_t len);
int accept_format_host(const struct accept_verdict *v, int host, char *buf, size_t len);
int accept_format_summary(const struct accept_verdict *v, char *buf, size_t len);

/*
 * Adds "results" (one record per result: kind, check, label, host, status,
 * fault, measured, threshold, unit, comparison, repeats, failed_repeats,
 * measured_per_repeat, detail) and "summary" (verdict, counts, hosts with
 * their verdicts, isolations) to root. Returns root, or NULL when out of memory.
 */
cJSON *accept_verdict_to_json(cJSON *root, const struct accept_verdict *v);

/*
 * The verdict as JUnit XML (accept_junit.c): a testsuite per kind of check,
 * a testcase per check and host, failures with the fault code as type.
 * 0, or -1 when out of memory.
 */
int accept_junit(const struct accept_verdict *v, struct html_buf *out);

#endif
