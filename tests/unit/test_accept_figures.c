/*
 * accept's figures taken from the measuring commands' own structures
 * (reports/accept/accept_figures.c): every measured pair of a links view with its
 * locality and typical figures, the confirmed suspects only, and an
 * all-reduce record measured or skipped.
 */
#include "reports/accept/accept_figures.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

enum { N = 4 };

static struct stats_summary summary(double us)
{
	return (struct stats_summary){.min_us = us,
	                              .mean_us = us,
	                              .p50_us = us,
	                              .p90_us = us,
	                              .p99_us = us,
	                              .p999_us = NAN,
	                              .max_us = us,
	                              .n = 10};
}

/* Ranks 0, 1 on host "a", 2, 3 on host "b" (listed b first in the context). */
static void context_hosts(struct accept_figures *f)
{
	static int ra[] = {0, 1}, rb[] = {2, 3};
	struct ctx_host hosts[2] = {
	    {.name = "b", .cores = 4, .numa_nodes = 2, .nranks = 2, .ranks = rb},
	    {.name = "a", .cores = 4, .numa_nodes = 2, .nranks = 2, .ranks = ra}};
	struct report_context c;

	report_context_init(&c);
	c.nhosts = 2;
	c.hosts = hosts;
	accept_figures_init(f);
	cr_assert_eq(accept_figures_set_hosts(f, &c), 0);
	cr_assert_eq(accept_figures_set_hosts(f, &c), -1, "hosts are set once");
}

/* Ranks 0, 1 on host "a", 2, 3 on "b": a links view of records, with numa_of. */
static const int host_of[N] = {0, 0, 1, 1};
static const char *const host_names[] = {"a", "b"};

static struct links_view view_of(const struct link_record *records, const int *numa_of)
{
	return (struct links_view){.nranks = N,
	                           .nhosts = 2,
	                           .records = records,
	                           .host_of_rank = host_of,
	                           .numa_of_rank = numa_of,
	                           .host_names = host_names,
	                           .window_bytes = 8e3};
}

/* Every pair but a rank with itself measured: 1 us of latency and a window of 1 us. */
static void uniform(struct link_record *records)
{
	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++) {
			records[a * N + b] =
			    (struct link_record){.a = a, .b = b, .measured = a != b};
			records[a * N + b].latency_us = summary(1);
			records[a * N + b].window_us = summary(1);
		}
}

Test(accept_figures, from_a_links_view)
{
	static struct link_record records[N * N];
	static const int numa_of[N] = {0, 0, 0, 1};
	struct links_view view = view_of(records, numa_of);
	struct detect_result final;
	struct detect_suspect sus[2] = {
	    {.kind = DETECT_HOST,
	     .host = 1,
	     .a = -1,
	     .b = -1,
	     .host_a = -1,
	     .host_b = -1,
	     .confirmed = true,
	     .metric = DETECT_BANDWIDTH,
	     .locality = DETECT_CROSS_HOST},
	    {.kind = DETECT_LINK,
	     .a = 0,
	     .b = 2,
	     .host_a = 0,
	     .host_b = 1,
	     .host = -1,
	     .confirmed = false},
	};
	struct accept_figures f;

	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++) {
			records[a * N + b] =
			    (struct link_record){.a = a, .b = b, .measured = a != b};
			records[a * N + b].latency_us = summary(1 + a);
			records[a * N + b].window_us = summary(host_of[a] == host_of[b] ? 1 : 4);
		}
	records[1 * N + 3].measured = false;
	detect_result_init(&final);
	final.suspects = sus;
	final.nsuspects = 2;
	context_hosts(&f);
	cr_assert_eq(accept_figures_add_links_view(&f, &view, &final), 0);
	cr_assert(f.has[ACCEPT_LINKS]);
	cr_assert_eq(f.nlinks, N * (N - 1) - 1, "every measured ordered pair");
	for (size_t i = 0; i < f.nlinks; i++) {
		const struct accept_link_figures *l = &f.links[i];
		/* the context lists b first: host indices are the figures', by name */
		cr_assert_eq(l->host_a, host_of[l->a] == 0 ? 1 : 0);
		cr_assert_eq(l->latency_us, 1 + l->a);
		if (l->a == 0 && l->b == 1) {
			cr_assert_eq(l->locality, DETECT_SAME_NUMA);
			cr_assert_eq(l->bandwidth_gbps, 8.0);
		}
		if (l->a == 2 && l->b == 3)
			cr_assert_eq(l->locality, DETECT_SAME_HOST);
		if (l->a == 0 && l->b == 2) {
			cr_assert_eq(l->locality, DETECT_CROSS_HOST);
			cr_assert_eq(l->bandwidth_gbps, 2.0);
		}
	}
	cr_assert_eq(f.nsuspects, 1, "only the confirmed suspect");
	cr_assert_not(accept_figures_segment(&f), "a host suspect is no segment");
	cr_assert_eq(f.suspects[0].host, 0, "host b is the figures' host 0");
	cr_assert_not_null(strstr(f.suspects[0].reason, "b"), "%s", f.suspects[0].reason);
	accept_figures_release(&f);
}

Test(accept_figures, a_confirmed_segment_or_link_suspect_explains_its_links)
{
	static struct link_record records[N * N];
	static const int numa_of[N] = {0, 0, 0, 0};
	static signed char sides[2] = {0, 1}; /* host a on one side of the cut, b on the other */
	struct links_view view = view_of(records, numa_of);
	struct detect_result final;
	struct detect_suspect sus[3] = {
	    {.kind = DETECT_SEGMENT, .a = -1, .b = -1, .host_a = -1, .host_b = -1, .host = -1,
	     .side = 0, .confirmed = true, .metric = DETECT_BANDWIDTH},
	    {.kind = DETECT_LINK, .a = 0, .b = 1, .host_a = 0, .host_b = 0, .host = -1,
	     .side = -1, .confirmed = true, .metric = DETECT_LATENCY},
	    {.kind = DETECT_LINK, .a = 2, .b = 3, .host_a = 1, .host_b = 1, .host = -1,
	     .side = -1, .confirmed = false, .metric = DETECT_LATENCY},
	};
	struct accept_figures f;

	uniform(records);
	detect_result_init(&final);
	final.suspects = sus;
	final.nsuspects = 3;
	final.nhosts = 2;
	final.nsides = 1;
	final.sides = sides;
	context_hosts(&f);
	cr_assert_eq(accept_figures_add_links_view(&f, &view, &final), 0);
	for (int h = 0; h < 2; h++)
		cr_assert_not(f.hosts[h].traffic_cleared, "no suspect was cleared by traffic");
	cr_assert(accept_figures_segment(&f), "the confirmed segment: no culprit search");
	for (size_t i = 0; i < f.nlinks; i++) {
		const struct accept_link_figures *l = &f.links[i];
		bool across = host_of[l->a] != host_of[l->b];
		bool pair01 = (l->a == 0 && l->b == 1) || (l->a == 1 && l->b == 0);
		cr_assert_eq(l->explained_bw, across, "%d->%d: the segment's, bandwidth", l->a,
		             l->b);
		cr_assert_eq(l->explained_lat, pair01, "%d->%d: the confirmed link's, latency", l->a,
		             l->b);
	}
	accept_figures_release(&f);
}

Test(accept_figures, a_suspect_cleared_by_other_traffic_marks_its_hosts)
{
	static struct link_record records[N * N];
	static const int numa_of[N] = {0, 0, 0, 0};
	struct links_view view = view_of(records, numa_of);
	struct detect_result final;
	struct detect_suspect s = {.kind = DETECT_LINK, .a = 0, .b = 2, .host_a = 0, .host_b = 1,
	                           .host = -1, .side = -1, .metric = DETECT_BANDWIDTH,
	                           .locality = DETECT_CROSS_HOST, .traffic_cleared = true};
	struct accept_figures f;

	uniform(records);
	detect_result_init(&final);
	final.suspects = &s;
	final.nsuspects = 1;
	context_hosts(&f);
	cr_assert_eq(accept_figures_add_links_view(&f, &view, &final), 0);
	cr_assert(f.hosts[0].traffic_cleared && f.hosts[1].traffic_cleared, "both ends of the link");
	cr_assert_eq(f.nsuspects, 0, "a cleared suspect is no suspect");
	accept_figures_release(&f);
}

Test(accept_figures, from_allreduce_records)
{
	struct ar_record r = {.algorithm = "ring",
	                      .dtype = "float32",
	                      .op = "sum",
	                      .bytes = 1 << 20,
	                      .ranks = 4,
	                      .wrong = 0,
	                      .busbw_gbps = 3.5};
	struct accept_figures f;

	r.time = summary(250);
	context_hosts(&f);
	cr_assert_eq(accept_figures_add_ar_record(&f, &r), 0);
	r.skipped = "needs a power-of-two rank count";
	r.algorithm = "rabenseifner";
	cr_assert_eq(accept_figures_add_ar_record(&f, &r), 0);
	cr_assert(f.has[ACCEPT_ALLREDUCE]);
	cr_assert_eq(f.npoints, 2);
	cr_assert_str_eq(f.points[0].variant, "ring");
	cr_assert_eq(f.points[0].busbw_gbps, 3.5);
	cr_assert_eq(f.points[0].p99_us, 250);
	cr_assert_eq(f.points[0].wrong, 0);
	cr_assert_eq(f.points[0].skipped[0], '\0');
	cr_assert_str_eq(f.points[1].skipped, "needs a power-of-two rank count");
	cr_assert(isnan(f.points[1].busbw_gbps), "a skipped point has no figures");
	cr_assert_eq(f.points[1].wrong, -1);
	accept_figures_release(&f);
}

/* Host names that differ only in a control character are two hosts, not one. */
Test(accept_figures, names_differing_in_a_control_character_stay_apart)
{
	static int r0[] = {0}, r1[] = {1}, r2[] = {2};
	struct ctx_host hosts[3] = {{.name = "node\x01", .cores = 1, .nranks = 1, .ranks = r0},
	                            {.name = "node\x02", .cores = 1, .nranks = 1, .ranks = r1},
	                            {.name = "node\x1b[2J", .cores = 1, .nranks = 1, .ranks = r2}};
	struct report_context c;
	struct accept_figures f;

	report_context_init(&c);
	c.nhosts = 3;
	c.hosts = hosts;
	accept_figures_init(&f);
	cr_assert_eq(accept_figures_set_hosts(&f, &c), 0);
	cr_assert_eq(accept_figures_host(&f, "node\x01"), 0);
	cr_assert_eq(accept_figures_host(&f, "node\x02"), 1);
	cr_assert_eq(accept_figures_host(&f, "node\x1b[2J"), 2);
	cr_assert_eq(accept_figures_host(&f, "node?"), -1);
	cr_assert_str_eq(f.hosts[1].name, "node\x02", "kept as it is; printers escape");
	accept_figures_release(&f);
}

Test(accept_figures, adders_refuse_unknown_hosts)
{
	struct accept_figures f;
	struct accept_link_figures l = {.host_a = 0, .host_b = 2};
	struct accept_suspect_figures s = {.host = 5};

	context_hosts(&f);
	cr_assert_eq(accept_figures_add_link(&f, &l), -1);
	cr_assert_eq(accept_figures_add_suspect(&f, &s), -1);
	cr_assert_eq(accept_figures_host(&f, "a"), 1);
	cr_assert_eq(accept_figures_host(&f, "c"), -1);
	accept_figures_release(&f);
}
