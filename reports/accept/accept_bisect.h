/*
 * collscope accept: culprit isolation. A job-wide check (an all-reduce below
 * its busbw) failed on all hosts together; which hosts drag it down? The
 * command re-runs the check on sub-communicators of the hosts this state
 * machine hands out, and reports each outcome back. Pure: no MPI, no I/O.
 *
 *   accept_bisect_init(&b, nhosts);
 *   while (accept_bisect_next(&b, subset))       // subset[h]: host h takes part
 *           accept_bisect_record(&b, outcome_on(subset), figure_on(subset));
 *   accept_bisect_role(&b, h) ...                 // culprit, cleared, inconclusive, ...
 *
 * A test of one host is never run: it crosses no network, and on one rank an
 * all-reduce moves no data (busbw 0), so it is no evidence either way. A test
 * whose figure was not measured (skipped at that rank count) is UNKNOWN:
 * no evidence either.
 *
 * The search. The failing set F (first all hosts) is split into halves A
 * and B (A the first ceil(|F|/2) hosts), and each half is tested together
 * with every host already cleared (the "pad"), so a test still crosses hosts
 * and a fault that needs a network peer shows. Then:
 *   - one half fails, the other passes: the passing one is cleared, the
 *     search goes on in the failing one;
 *   - both fail: each holds a culprit, both are searched;
 *   - both pass: the fault needs F's hosts together: F is "not isolated";
 *   - a half not tested (one host with no pad, or unknown) is tested again
 *     once hosts are cleared, beside them;
 *   - both halves are single hosts x, y and no host is cleared yet: each is
 *     paired with a host z outside F, {x, z} and {y, z}: a passing pair is
 *     cleared, and the other host, failing beside cleared z, is a suspect;
 *     with no host outside F (two hosts in all) F is not isolated, too small
 *     to split.
 * A set of one host whose test beside cleared hosts failed is a suspect. A
 * host is cleared only by a passing test (always of two hosts or more). No
 * test is ever the full set of hosts (that one is known to fail).
 *
 * The evidence. A suspect is not yet a culprit: noise on a busy machine
 * fails a healthy host's test now and then. Each suspect h is tested again,
 * `repeats` times (default ACCEPT_EVIDENCE_REPEATS), interleaved and
 * back to back: its sub-test S = h with the cleared hosts but one, and the
 * complement C = the cleared hosts (as many hosts as S, without h). h is a
 * CULPRIT only when S failed every time and C passed every time; otherwise
 * it is INCONCLUSIVE (noise explains its failure), and never named. Under
 * noise alone a test fails with some probability p; S failing and C passing
 * three times each then has probability p^3 (1 - p)^3 <= 1/64 at worst (p =
 * 1/2), on top of the failures that made h a suspect. With fewer than two
 * cleared hosts there is no complement to compare with: inconclusive.
 *
 * Two culprits or more are then tested together, without the cleared hosts
 * (once, with repeats > 0): failing, they stand; passing, they are fine among
 * themselves and slow only with the others, which is the path between the two
 * sets (a rack's uplink), not the hosts: not isolated, ACCEPT_GROUP_ACROSS.
 * The campaign (issue 39, seed 3, draw 34) had the search name both hosts of
 * the rack behind an uplink 90% slow where links had not confirmed the segment.
 *
 * Cost: one culprit among n hosts takes about 2 ceil(log2 n) tests to be
 * suspected and 2 x repeats to be confirmed. Assumes a host-level fault; a
 * fault between two given hosts (a cable) may name one end, or none; the
 * links check is the tool for those.
 */
#ifndef COLLSCOPE_ACCEPT_BISECT_H
#define COLLSCOPE_ACCEPT_BISECT_H

#include <stdbool.h>
#include <stddef.h>

/* Tests of a suspect and of its complement, each, before it is named. */
#define ACCEPT_EVIDENCE_REPEATS 3
#define ACCEPT_EVIDENCE_MAX     10

enum accept_role {
	ACCEPT_ROLE_UNTESTED,     /* never in a test that decided anything about it */
	ACCEPT_ROLE_CLEARED,      /* in a passing test (two hosts or more) */
	ACCEPT_ROLE_CULPRIT,      /* suspected, and the evidence separates it from the rest */
	ACCEPT_ROLE_NOT_ISOLATED, /* in a set that fails together, or too small to split */
	ACCEPT_ROLE_INCONCLUSIVE, /* suspected, but noise explains it: not named */
};

/* What one test of a subset showed. */
enum accept_outcome {
	ACCEPT_TEST_PASS,
	ACCEPT_TEST_FAIL,
	ACCEPT_TEST_UNKNOWN, /* not measured there (skipped, undefined): no evidence */
};

/* Why a set is not isolated. */
enum accept_group_reason {
	ACCEPT_GROUP_TOGETHER,  /* both halves passed: the fault needs them together */
	ACCEPT_GROUP_TOO_SMALL, /* its halves are single hosts with no cleared host beside */
	ACCEPT_GROUP_ACROSS,    /* culprits that passed together: slow only with the others */
};

/* The evidence about one suspect: its sub-test S and the complement C, interleaved. */
struct accept_evidence {
	bool tested;   /* h was a suspect */
	bool possible; /* a complement of two cleared hosts or more existed */
	int repeats;   /* pairs run */
	int s_hosts, c_hosts;
	int s_failed, c_passed;
	double s_figure[ACCEPT_EVIDENCE_MAX], c_figure[ACCEPT_EVIDENCE_MAX]; /* NAN: none */
};

/* A set of hosts still to search: order[lo .. hi), and how it is known. */
struct accept_bisect_group {
	int lo, hi;
	unsigned flags;
};

/* The search state; fields are private to accept_bisect.c. */
struct accept_bisect {
	int nhosts;
	int *order;                       /* a permutation of the hosts; groups are ranges of it */
	enum accept_role *role;           /* per host */
	int *group;                       /* per host: its not-isolated set (0, 1, ...), or -1 */
	enum accept_group_reason *reason; /* per not-isolated set */
	int ngroups;                      /* not-isolated sets */
	bool *subset;                     /* the subset handed out last */
	struct accept_bisect_group *queue, cur;
	size_t qcap, qhead, qlen;
	int phase;
	bool pending; /* a subset awaits its result */
	enum accept_outcome a_outcome;
	int last_size; /* hosts in the last test */
	int tests;
	int repeats;                      /* of the evidence */
	struct accept_evidence *evidence; /* per host */
	int ev_host, ev_step;             /* the suspect being tested, and its test */
	int pair_z;                       /* the host beside which single hosts are paired */
};

/* 0, or -1 for nhosts < 1 or no memory. Release with accept_bisect_release. */
int accept_bisect_init(struct accept_bisect *b, int nhosts);
void accept_bisect_release(struct accept_bisect *b);

/* Before the first test: the evidence's repeats (0: suspects are named untested). -1: out of
 * 0 .. ACCEPT_EVIDENCE_MAX, or too late. */
int accept_bisect_set_repeats(struct accept_bisect *b, int repeats);

/*
 * The next subset to test into hosts_in_subset[0 .. nhosts) and true, or
 * false when the search is over. Asked again before the result is given, it
 * hands out the same subset. Every subset has two hosts or more.
 */
bool accept_bisect_next(struct accept_bisect *b, bool *hosts_in_subset);

/* What the subset last handed out showed, and its figure (NAN: none); -1 when none is pending. */
int accept_bisect_record(struct accept_bisect *b, enum accept_outcome outcome, double figure);
/* accept_bisect_record with PASS or FAIL and no figure. */
int accept_bisect_result(struct accept_bisect *b, bool passed);

/* After the search: a host's role, the culprits (into hosts, at most nhosts), tests run. */
enum accept_role accept_bisect_role(const struct accept_bisect *b, int host);
int accept_bisect_culprits(const struct accept_bisect *b, int *hosts);
/* The not-isolated set of host (0 .. ngroups - 1), or -1; why a set is not isolated. */
int accept_bisect_group_of(const struct accept_bisect *b, int host);
enum accept_group_reason accept_bisect_group_reason(const struct accept_bisect *b, int group);
int accept_bisect_tests(const struct accept_bisect *b);
/* Culprits named and no set left not isolated. */
bool accept_bisect_isolated(const struct accept_bisect *b);
/* The evidence about host (tested false when it was never a suspect). */
const struct accept_evidence *accept_bisect_evidence(const struct accept_bisect *b, int host);

/* "together", "too small", "across": a not-isolated set's reason in the report. */
const char *accept_group_reason_name(enum accept_group_reason r);
/* "untested", "cleared", "culprit", "not isolated", "inconclusive". */
const char *accept_role_name(enum accept_role r);

#endif
