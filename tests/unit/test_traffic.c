/* Another job's traffic told from a slow link: reports/diagnose/traffic.c. */
#include <criterion/criterion.h>
#include <math.h>

#include "reports/diagnose/traffic.h"

static struct detect_suspect host_send(double measured, double expected)
{
	return (struct detect_suspect){.kind = DETECT_HOST,
	                               .metric = DETECT_BANDWIDTH,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = -1,
	                               .b = -1,
	                               .host = 2,
	                               .measured = measured,
	                               .expected = expected,
	                               .ratio = measured / expected,
	                               .confirmed = true,
	                               .cpu_wait_fraction = NAN,
	                               .other_traffic_gbps = NAN};
}

Test(traffic, room_another_job_used_explains_a_slow_host)
{
	struct detect_suspect s = host_send(0.70, 1.0);
	/* 0.70 + 0.25 = 0.95 >= 0.9: its NIC was busy */
	cr_assert(traffic_explains(&s, 0.25, 0.1));
	/* 0.70 + 0.1 = 0.8 < 0.9: slow beyond what the traffic took */
	cr_assert_not(traffic_explains(&s, 0.1, 0.1));
	cr_assert_not(traffic_explains(&s, 0, 0.1), "no other traffic");
	cr_assert_not(traffic_explains(&s, NAN, 0.1), "not known");
}

Test(traffic, only_bandwidth_across_hosts)
{
	struct detect_suspect s = host_send(0.70, 1.0);
	s.metric = DETECT_LATENCY;
	cr_assert_not(traffic_explains(&s, 10, 0.1), "latency");
	s = host_send(0.70, 1.0);
	s.locality = DETECT_SAME_HOST;
	cr_assert_not(traffic_explains(&s, 10, 0.1), "inside a host: no NIC");
}

static double fixed_other(const void *arg, const struct detect_suspect *s)
{
	(void)s;
	return *(const double *)arg;
}

Test(traffic, clearing_unconfirms_and_records)
{
	struct detect_suspect v[3] = {host_send(0.70, 1.0), host_send(0.70, 1.0),
	                              host_send(0.30, 1.0)};
	v[1].confirmed = false; /* not confirmed: left alone */
	struct detect_result r = {.nsuspects = 3, .suspects = v};
	struct detect_params p;
	detect_params_default(&p);
	double other = 0.3;
	cr_assert_eq(traffic_clear(&r, fixed_other, &other, &p), 1);
	cr_assert(!v[0].confirmed && v[0].traffic_cleared);
	cr_assert_float_eq(v[0].other_traffic_gbps, 0.3, 1e-12);
	cr_assert(!v[1].traffic_cleared && isnan(v[1].other_traffic_gbps));
	/* 0.3 + 0.3 < 0.9: a NIC at a third of its class stays named, traffic or not */
	cr_assert(v[2].confirmed && !v[2].traffic_cleared);
	cr_assert_float_eq(v[2].other_traffic_gbps, 0.3, 1e-12);
}
