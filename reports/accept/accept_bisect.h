/*
 * collscope accept: culprit isolation. A job-wide check (an all-reduce below
 * its busbw) failed on all hosts together; which hosts drag it down? The
 * command re-runs the check on sub-communicators of the hosts this state
 * machine hands out, and reports each outcome back. Pure: no MPI, no I/O.
 *
 *   accept_bisect_init(&b, nhosts);
 *   while (accept_bisect_next(&b, subset))       // subset[h]: host h takes part
 *           accept_bisect_result(&b, run_check_on(subset));
 *   accept_bisect_role(&b, h) ...                 // culprit, cleared, not isolated
 *
 * The search. The failing set F (first all hosts) is split into halves A
 * and B (A the first ceil(|F|/2) hosts), and each half is tested together
 * with every host already cleared (the "pad"): a half alone may be too small
 * to show a fault that needs a network peer (a slow NIC passes on one host),
 * and with cleared hosts beside it the test still crosses hosts. Then:
 *   - one half fails, the other passes: the passing one is cleared, the
 *     search goes on in the failing one;
 *   - both fail: each holds a culprit (two culprits), both are searched;
 *   - both pass: the fault needs F's hosts together (or the full job): F is
 *     "not isolated", honestly, and no host of it is named; unless a half was
 *     a single host tested alone, which proves little: F is tried again once
 *     hosts are cleared elsewhere (then alone, with them), else not isolated.
 * A set of one host whose test failed is a culprit. A host is cleared only
 * by a passing test of two hosts or more; a single host that passed alone,
 * beside a failing half, is tested again with cleared hosts when there are
 * some. No test is ever the full set of hosts (that one is known to fail):
 * every conclusion rests on sub-communicators.
 *
 * Cost: one culprit among n hosts takes 2 ceil(log2 n) tests (2 per level),
 * a few more for n = 3; every test but the first two has at least one
 * cleared host. Assumes a host-level fault: a test fails when it holds a
 * culprit (and enough hosts to show it). A fault between two given hosts (a
 * cable) may name one end, or none; the links check is the tool for those.
 */
#ifndef COLLSCOPE_ACCEPT_BISECT_H
#define COLLSCOPE_ACCEPT_BISECT_H

#include <stdbool.h>
#include <stddef.h>

enum accept_role {
	ACCEPT_ROLE_UNTESTED,     /* never in a test that decided anything about it */
	ACCEPT_ROLE_CLEARED,      /* in a passing test of two hosts or more */
	ACCEPT_ROLE_CULPRIT,      /* in a failing test whose other hosts were cleared */
	ACCEPT_ROLE_NOT_ISOLATED, /* in a set that fails together, not further divisible */
};

/* A set of hosts still to search: order[lo .. hi), and how it is known. */
struct accept_bisect_group {
	int lo, hi;
	unsigned flags;
};

/* The search state; fields are private to accept_bisect.c. */
struct accept_bisect {
	int nhosts;
	int *order;             /* a permutation of the hosts; groups are ranges of it */
	enum accept_role *role; /* per host */
	int *group;             /* per host: its not-isolated set (0, 1, ...), or -1 */
	int ngroups;            /* not-isolated sets */
	bool *subset;           /* the subset handed out last */
	struct accept_bisect_group *queue, cur;
	size_t qcap, qhead, qlen;
	int phase;
	bool pending; /* a subset awaits its result */
	bool a_passed;
	int a_size, last_size; /* hosts in the first half's test, in the last test */
	int tests;
};

/* 0, or -1 for nhosts < 1 or no memory. Release with accept_bisect_release. */
int accept_bisect_init(struct accept_bisect *b, int nhosts);
void accept_bisect_release(struct accept_bisect *b);

/*
 * The next subset to test into hosts_in_subset[0 .. nhosts) and true, or
 * false when the search is over. Asked again before the result is given, it
 * hands out the same subset.
 */
bool accept_bisect_next(struct accept_bisect *b, bool *hosts_in_subset);

/* Whether the check passed on the subset last handed out; -1 when none is pending. */
int accept_bisect_result(struct accept_bisect *b, bool passed);

/* After the search: a host's role, the culprits (into hosts, at most nhosts), tests run. */
enum accept_role accept_bisect_role(const struct accept_bisect *b, int host);
int accept_bisect_culprits(const struct accept_bisect *b, int *hosts);
/* The not-isolated set of host (0 .. ngroups - 1), or -1. */
int accept_bisect_group_of(const struct accept_bisect *b, int host);
int accept_bisect_tests(const struct accept_bisect *b);
/* Culprits named and no set left not isolated. */
bool accept_bisect_isolated(const struct accept_bisect *b);

/* "untested", "cleared", "culprit", "not isolated". */
const char *accept_role_name(enum accept_role r);

#endif
