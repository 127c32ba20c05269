/* Suspects the scheduler explains (reports/diagnose/scheduler.h). */
#include "reports/diagnose/scheduler.h"

#include <criterion/criterion.h>
#include <math.h>

static struct detect_suspect link_suspect(enum detect_metric m, double measured, double expected)
{
	return (struct detect_suspect){.kind = DETECT_LINK,
	                               .metric = m,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = 0,
	                               .b = 3,
	                               .host_a = 0,
	                               .host_b = 1,
	                               .host = -1,
	                               .measured = measured,
	                               .expected = expected,
	                               .ratio = measured / expected,
	                               .confirmed = true,
	                               .side = -1,
	                               .first_measured = NAN,
	                               .cpu_wait_fraction = NAN};
}

/* the accept suite's case: 969 us against 97 us while the ranks waited 90% of the time */
Test(scheduler, a_latency_the_wait_explains_is_cleared)
{
	struct detect_suspect s = link_suspect(DETECT_LATENCY, 969, 97);
	cr_assert_float_eq(scheduler_discounted(&s, 0.9, NAN), 96.9, 1e-9);
	cr_assert(scheduler_explains(&s, 0.9, 0, 0.3));
}

/* a link 10x slow while its ranks waited a tenth of the time is still slow */
Test(scheduler, a_slow_link_with_a_little_waiting_stays_accused)
{
	struct detect_suspect s = link_suspect(DETECT_LATENCY, 970, 97);
	cr_assert_float_eq(scheduler_discounted(&s, 0.1, 0), 873, 1e-9);
	cr_assert_not(scheduler_explains(&s, 0.1, 0, 0.3));
}

/* between hosts a bandwidth window keeps the wire busy while a rank waits: never excused */
Test(scheduler, a_bandwidth_between_hosts_is_never_excused)
{
	struct detect_suspect s = link_suspect(DETECT_BANDWIDTH, 0.2, 0.5);
	cr_assert(isnan(scheduler_discounted(&s, 0.9, NAN)));
	cr_assert_not(scheduler_explains(&s, 0.9, 0, 0.3));
}

/* inside a host the ranks copy every byte: a rank waiting for a core moves nothing */
Test(scheduler, a_bandwidth_inside_a_host_the_wait_explains_is_cleared)
{
	/* the accept suite's case: 0.2 GB/s against 0.592 while its ranks waited 70%, 10% typical
	 */
	struct detect_suspect s = link_suspect(DETECT_BANDWIDTH, 0.2, 0.592);
	s.locality = DETECT_SAME_NUMA;
	cr_assert_float_eq(scheduler_discounted(&s, 0.7, 0.1), 0.2 * 0.9 / 0.3, 1e-12);
	cr_assert(scheduler_explains(&s, 0.7, 0.1, 0.3));
	cr_assert_not(scheduler_explains(&s, 0.3, 0.1, 0.3), "0.2 x 0.9 / 0.7 = 0.26: still slow");
	s.locality = DETECT_SAME_HOST;
	cr_assert(scheduler_explains(&s, 0.7, 0.1, 0.3));
}

/* every pair waits alike (namespace hosts on two cores): the wait explains no one pair */
Test(scheduler, only_the_wait_beyond_the_typical_pair_counts)
{
	struct detect_suspect s = link_suspect(DETECT_LATENCY, 969, 97);
	cr_assert_float_eq(scheduler_discounted(&s, 0.75, 0.75), 969, 1e-9);
	cr_assert_not(scheduler_explains(&s, 0.75, 0.75, 0.3));
	cr_assert_float_eq(scheduler_discounted(&s, 0.5, 0.75), 969, 1e-9,
	                   "waited less than typical");
	/* waited 97.5% where the typical pair waited 75%: 969 x 0.025 / 0.25 */
	cr_assert_float_eq(scheduler_discounted(&s, 0.975, 0.75), 96.9, 1e-9);
	cr_assert(scheduler_explains(&s, 0.975, 0.75, 0.3));
	cr_assert_not(scheduler_explains(&s, 0.9, 0.75, 0.3),
	              "969 x 0.1 / 0.25 = 388 us: still slow");
}

/* no schedstat, or a share out of range: nothing is explained */
Test(scheduler, an_unknown_wait_explains_nothing)
{
	struct detect_suspect s = link_suspect(DETECT_LATENCY, 969, 97);
	cr_assert(isnan(scheduler_discounted(&s, NAN, 0)));
	cr_assert_not(scheduler_explains(&s, NAN, 0, 0.3));
	cr_assert_not(scheduler_explains(&s, 1.0, 0, 0.3));
	cr_assert_not(scheduler_explains(&s, -0.1, 0, 0.3));
}

/* hosts, segments and links between hosts are many pairs' figures: never cleared here */
Test(scheduler, only_a_link_of_two_ranks_is_judged)
{
	struct detect_suspect s = link_suspect(DETECT_LATENCY, 969, 97);
	s.between_hosts = true;
	s.a = s.b = -1;
	cr_assert_not(scheduler_explains(&s, 0.9, 0, 0.3));
	s = link_suspect(DETECT_LATENCY, 969, 97);
	s.kind = DETECT_HOST;
	s.host = 1;
	cr_assert_not(scheduler_explains(&s, 0.9, 0, 0.3));
}

static double waits(const void *arg, int a, int b, enum detect_metric m)
{
	const double *w = arg;
	return m == DETECT_LATENCY ? w[a * 4 + b] : NAN;
}

Test(scheduler, clear_unconfirms_only_what_the_wait_explains)
{
	double w[16];
	for (int i = 0; i < 16; i++)
		w[i] = NAN;
	struct detect_suspect v[4] = {
	    link_suspect(DETECT_LATENCY, 969, 97), /* 0->3: waited 90%: cleared */
	    link_suspect(DETECT_LATENCY, 969, 97), /* 1->2: waited 5%: stays */
	    link_suspect(DETECT_LATENCY, 969, 97), /* 2->1: unknown: stays */
	    link_suspect(DETECT_LATENCY, 969, 97), /* 0->3 again, not confirmed: not counted */
	};
	v[1].a = 1, v[1].b = 2;
	v[2].a = 2, v[2].b = 1;
	v[3].confirmed = false;
	w[0 * 4 + 3] = 0.9;
	w[1 * 4 + 2] = 0.05;
	struct detect_result r = {.nsuspects = 4, .suspects = v};
	const double typical[DETECT_METRICS] = {0, 0};
	struct detect_params p;
	detect_params_default(&p);
	p.latency_tolerance = 0.3;
	cr_assert_eq(scheduler_clear(&r, waits, w, typical, &p), 1);
	cr_assert(!v[0].confirmed && v[0].scheduler_cleared);
	cr_assert_float_eq(v[0].cpu_wait_fraction, 0.9, 1e-12);
	cr_assert(v[1].confirmed && !v[1].scheduler_cleared);
	cr_assert_float_eq(v[1].cpu_wait_fraction, 0.05, 1e-12);
	cr_assert(v[2].confirmed && isnan(v[2].cpu_wait_fraction));
	cr_assert(!v[3].confirmed && !v[3].scheduler_cleared);
}
