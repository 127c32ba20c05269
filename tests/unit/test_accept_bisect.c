/*
 * Culprit isolation (reports/accept/accept_bisect.c), driven by simulated checks:
 * host-level faults that show on any subset holding the culprit, network
 * faults that need a second host to show, two culprits, and faults that
 * need the whole job. The search must name exactly the culprits when it
 * can, never an innocent host, say "not isolated" when it cannot, and never
 * test the full set (known to fail) or an empty one.
 */
#include "reports/accept/accept_bisect.h"

#include <criterion/criterion.h>
#include <string.h>

enum { MAX_HOSTS = 32 };

/* A simulated check: fails when the subset holds a culprit and at least min_hosts hosts. */
struct model {
	int nhosts;
	bool culprit[MAX_HOSTS];
	int min_hosts;  /* 1: a host-level fault; 2: it needs a peer (a slow NIC) */
	bool whole_job; /* no culprit: the check fails only on every host together */
};

static bool passes(const struct model *m, const bool *subset)
{
	int n = 0;
	bool culprit = false;

	for (int h = 0; h < m->nhosts; h++) {
		n += subset[h];
		culprit |= subset[h] && m->culprit[h];
	}
	if (m->whole_job)
		return n < m->nhosts;
	return !(culprit && n >= m->min_hosts);
}

/* Runs the search to the end; returns the tests it ran, b left for inspection. */
static int run(struct accept_bisect *b, const struct model *m)
{
	bool subset[MAX_HOSTS], again[MAX_HOSTS];
	int guard = 0;

	cr_assert_eq(accept_bisect_init(b, m->nhosts), 0);
	while (accept_bisect_next(b, subset)) {
		int n = 0;
		for (int h = 0; h < m->nhosts; h++)
			n += subset[h];
		cr_assert(n > 0 && n < m->nhosts, "%d hosts: a test of %d hosts", m->nhosts, n);
		cr_assert(accept_bisect_next(b, again), "asked again: the same subset");
		cr_assert_eq(memcmp(subset, again, (size_t)m->nhosts * sizeof *subset), 0);
		cr_assert_eq(accept_bisect_result(b, passes(m, subset)), 0);
		cr_assert_lt(++guard, 4 * m->nhosts + 4, "the search does not end");
	}
	cr_assert_eq(accept_bisect_result(b, true), -1, "no test pending after the end");
	cr_assert_eq(accept_bisect_tests(b), guard);
	return guard;
}

/* Every culprit named is one; with exact, the named ones are all of them. */
static void check_named(const struct accept_bisect *b, const struct model *m, bool exact,
                        const char *what)
{
	for (int h = 0; h < m->nhosts; h++) {
		bool named = accept_bisect_role(b, h) == ACCEPT_ROLE_CULPRIT;
		if (named)
			cr_assert(m->culprit[h], "%s, %d hosts: innocent host %d named", what,
			          m->nhosts, h);
		if (exact)
			cr_assert_eq(named, m->culprit[h], "%s, %d hosts: host %d %s", what,
			             m->nhosts, h, named ? "named wrongly" : "not named");
	}
}

static int ceil_log2(int n)
{
	int k = 0;
	while ((1 << k) < n)
		k++;
	return k;
}

Test(accept_bisect, one_culprit_at_every_position)
{
	for (int n = 1; n <= 17; n++)
		for (int c = 0; c < n; c++) {
			struct model m = {.nhosts = n, .min_hosts = 1};
			struct accept_bisect b;
			int culprits[MAX_HOSTS], tests;

			m.culprit[c] = true;
			tests = run(&b, &m);
			check_named(&b, &m, true, "one culprit");
			cr_assert(accept_bisect_isolated(&b));
			cr_assert_eq(accept_bisect_culprits(&b, culprits), 1);
			cr_assert_eq(culprits[0], c);
			cr_assert_leq(tests, 2 * ceil_log2(n), "%d hosts, culprit %d: %d tests", n,
			              c, tests);
			for (int h = 0; h < n; h++)
				cr_assert_eq(accept_bisect_group_of(&b, h), -1);
			accept_bisect_release(&b);
		}
}

Test(accept_bisect, a_fault_that_needs_a_peer_is_found_beside_cleared_hosts)
{
	for (int n = 2; n <= 17; n++)
		for (int c = 0; c < n; c++) {
			struct model m = {.nhosts = n, .min_hosts = 2};
			struct accept_bisect b;
			int tests;

			m.culprit[c] = true;
			tests = run(&b, &m);
			check_named(&b, &m, n >= 4, "a network fault");
			if (n >= 4) {
				cr_assert(accept_bisect_isolated(&b), "%d hosts, culprit %d", n, c);
				cr_assert_leq(tests, 2 * ceil_log2(n), "%d hosts: %d tests", n,
				              tests);
			}
			accept_bisect_release(&b);
		}
}

Test(accept_bisect, two_hosts_and_a_network_fault_cannot_be_told_apart)
{
	struct model m = {.nhosts = 2, .min_hosts = 2, .culprit = {false, true}};
	struct accept_bisect b;

	cr_assert_eq(run(&b, &m), 2, "each host alone, once");
	cr_assert_not(accept_bisect_isolated(&b));
	cr_assert_eq(accept_bisect_role(&b, 0), ACCEPT_ROLE_NOT_ISOLATED);
	cr_assert_eq(accept_bisect_role(&b, 1), ACCEPT_ROLE_NOT_ISOLATED);
	cr_assert_eq(accept_bisect_group_of(&b, 0), 0);
	cr_assert_eq(accept_bisect_group_of(&b, 1), 0);
	accept_bisect_release(&b);
}

Test(accept_bisect, three_hosts_and_a_network_fault_on_the_last)
{
	struct model m = {.nhosts = 3, .min_hosts = 2, .culprit = {false, false, true}};
	struct accept_bisect b;

	/* {0,1} passes, {2} alone proves nothing, {0,2} (never all three) fails */
	cr_assert_eq(run(&b, &m), 3);
	check_named(&b, &m, true, "three hosts");
	accept_bisect_release(&b);
}

Test(accept_bisect, two_culprits_are_both_named)
{
	for (int n = 2; n <= 12; n++)
		for (int c1 = 0; c1 < n; c1++)
			for (int c2 = c1 + 1; c2 < n; c2++) {
				struct model m = {.nhosts = n, .min_hosts = 1};
				struct accept_bisect b;
				int culprits[MAX_HOSTS];

				m.culprit[c1] = m.culprit[c2] = true;
				run(&b, &m);
				check_named(&b, &m, true, "two culprits");
				cr_assert(accept_bisect_isolated(&b));
				cr_assert_eq(accept_bisect_culprits(&b, culprits), 2);
				cr_assert_eq(culprits[0], c1);
				cr_assert_eq(culprits[1], c2);
				accept_bisect_release(&b);
			}
}

Test(accept_bisect, two_network_culprits_never_accuse_an_innocent_host)
{
	int isolated = 0, runs = 0;

	for (int n = 3; n <= 12; n++)
		for (int c1 = 0; c1 < n; c1++)
			for (int c2 = c1 + 1; c2 < n; c2++) {
				struct model m = {.nhosts = n, .min_hosts = 2};
				struct accept_bisect b;

				m.culprit[c1] = m.culprit[c2] = true;
				run(&b, &m);
				check_named(&b, &m, false, "two network culprits");
				if (accept_bisect_isolated(&b)) {
					check_named(&b, &m, true, "two network culprits, isolated");
					isolated++;
				} else {
					/* what is not named is said to be not isolated, or untested
					 */
					for (int h = 0; h < n; h++)
						if (m.culprit[h])
							cr_assert_neq(
							    accept_bisect_role(&b, h),
							    ACCEPT_ROLE_CLEARED,
							    "%d hosts: culprit %d cleared", n, h);
				}
				runs++;
				accept_bisect_release(&b);
			}
	cr_assert_gt(isolated, runs / 2, "isolated %d of %d", isolated, runs);
}

Test(accept_bisect, a_fault_that_needs_the_whole_job_is_not_isolated)
{
	for (int n = 2; n <= 17; n++) {
		struct model m = {.nhosts = n, .whole_job = true};
		struct accept_bisect b;
		int culprits[MAX_HOSTS];

		/* both halves pass; n = 3 retries its lone host beside the cleared ones */
		cr_assert_leq(run(&b, &m), 3);
		cr_assert_not(accept_bisect_isolated(&b));
		cr_assert_eq(accept_bisect_culprits(&b, culprits), 0, "%d hosts: nobody named", n);
		for (int h = 0; h < n; h++)
			cr_assert_neq(accept_bisect_role(&b, h), ACCEPT_ROLE_CULPRIT);
		cr_assert(accept_bisect_group_of(&b, n - 1) >= 0, "%d hosts: a set not isolated",
		          n);
		accept_bisect_release(&b);
	}
}

Test(accept_bisect, no_culprit_in_any_subset)
{
	/* the full job failed, every subset passes: the same as a fault of the whole job */
	struct model m = {.nhosts = 8, .min_hosts = 1};
	struct accept_bisect b;

	cr_assert_eq(run(&b, &m), 2);
	cr_assert_not(accept_bisect_isolated(&b));
	for (int h = 0; h < 8; h++) {
		cr_assert_eq(accept_bisect_role(&b, h), ACCEPT_ROLE_NOT_ISOLATED);
		cr_assert_eq(accept_bisect_group_of(&b, h), 0);
	}
	accept_bisect_release(&b);
}

Test(accept_bisect, one_host_is_its_own_culprit_without_a_test)
{
	struct accept_bisect b;
	bool subset[1];

	cr_assert_eq(accept_bisect_init(&b, 1), 0);
	cr_assert_not(accept_bisect_next(&b, subset));
	cr_assert_eq(accept_bisect_role(&b, 0), ACCEPT_ROLE_CULPRIT);
	cr_assert(accept_bisect_isolated(&b));
	cr_assert_eq(accept_bisect_tests(&b), 0);
	accept_bisect_release(&b);
}

Test(accept_bisect, misuse)
{
	struct accept_bisect b;
	bool subset[4];

	cr_assert_eq(accept_bisect_init(&b, 0), -1);
	cr_assert_not(accept_bisect_next(&b, subset), "a failed init hands out nothing");
	cr_assert_eq(accept_bisect_init(&b, 4), 0);
	cr_assert_eq(accept_bisect_result(&b, true), -1, "a result before any test");
	cr_assert(accept_bisect_next(&b, subset));
	cr_assert(subset[0] && subset[1] && !subset[2] && !subset[3], "the first half first");
	cr_assert_eq(accept_bisect_result(&b, false), 0);
	cr_assert_eq(accept_bisect_result(&b, false), -1, "one result per test");
	cr_assert_eq(accept_bisect_role(&b, 7), ACCEPT_ROLE_UNTESTED);
	cr_assert_str_eq(accept_role_name(ACCEPT_ROLE_NOT_ISOLATED), "not isolated");
	accept_bisect_release(&b);
}
