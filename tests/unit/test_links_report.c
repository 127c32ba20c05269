/* The links report of reports/io/links_report.c: records, detector input, JSON. */
#include "reports/io/links_report.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

enum { N = 4 };

/* Ranks 0, 1 on host "a" (NUMA 0, 0), ranks 2, 3 on host "b" (NUMA 0, 1). */
static struct link_record records[N * N];
static const int host_of[N] = {0, 0, 1, 1};
static const int numa_of[N] = {0, 0, 0, 1};
static const char *const names[] = {"a", "b"};
static bool judged[] = {true, true};

static struct stats_summary summary(double us, size_t n)
{
	return (struct stats_summary){
	    .min_us = us / 2,
	    .mean_us = us,
	    .stddev_us = n > 1 ? 0.1 : NAN,
	    .p50_us = n > 1 ? us : NAN,
	    .p90_us = NAN,
	    .p99_us = NAN,
	    .p999_us = NAN,
	    .max_us = us * 2,
	    .n = n,
	};
}

/* Window time of a -> b: 1000 us, or 4000 us across hosts; latency 1 us. */
static struct links_view make_view(void)
{
	memset(records, 0, sizeof records);
	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++) {
			struct link_record *r = &records[a * N + b];
			r->a = a;
			r->b = b;
			if (a == b)
				continue;
			r->measured = true;
			r->latency_us = summary(1, 100);
			r->window_us = summary(host_of[a] == host_of[b] ? 1000 : 4000, 5);
			r->bidir_window_us = summary(1500, 5);
		}
	judged[0] = judged[1] = true;
	return (struct links_view){
	    .nranks = N,
	    .nhosts = 2,
	    .records = records,
	    .host_of_rank = host_of,
	    .numa_of_rank = numa_of,
	    .host_names = names,
	    .host_judged = judged,
	    .window_bytes = 8e6,
	};
}

Test(links_report, locality_classes)
{
	struct links_view v = make_view();
	cr_assert_eq(links_locality(&v, 0, 1), DETECT_SAME_NUMA);
	cr_assert_eq(links_locality(&v, 2, 3), DETECT_SAME_HOST);
	cr_assert_eq(links_locality(&v, 1, 2), DETECT_CROSS_HOST);
}

/* The typical pair's wait for a core in its ping-pongs: the median over pairs of the larger end's. */
Test(links_report, the_typical_pair_wait)
{
	struct links_view v = make_view();
	for (int i = 0; i < N * N; i++)
		records[i].cpu_wait_share = records[i].cpu_wait_share_lat = NAN;
	cr_assert(isnan(links_typical_cpu_wait_latency(&v)), "nothing known");
	/* 4 ranks, 6 pairs: the larger end's 0.1, 0.2, 0.3, 0.4, 0.5, 0.9 */
	const double w[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.9};
	for (int a = 0, k = 0; a < N; a++)
		for (int b = a + 1; b < N; b++, k++) {
			records[a * N + b].cpu_wait_share_lat = w[k];
			records[b * N + a].cpu_wait_share_lat = w[k] / 2;
			records[a * N + b].cpu_wait_share = 1; /* the whole pair's: not this */
		}
	cr_assert_float_eq(links_typical_cpu_wait_latency(&v), 0.35, 1e-12);
	cr_assert_float_eq(link_cpu_wait_latency(&v, 1, 0), 0.1, 1e-12, "the larger end's");
}

/* A pair whose ranks waited for a core half its ping-pongs has no latency verdict; bandwidth has. */
Test(links_report, a_latency_the_scheduler_held_is_not_judged)
{
	struct links_view v = make_view();
	struct detect_link out[N * N];
	for (int i = 0; i < N * N; i++)
		records[i].cpu_wait_share = records[i].cpu_wait_share_lat = NAN;
	records[0 * N + 2].cpu_wait_share_lat = 0.2;
	records[2 * N + 0].cpu_wait_share_lat = 0.5; /* the larger end's counts */
	records[1 * N + 3].cpu_wait_share_lat = 0.49;
	cr_assert_not(link_latency_judged(&v, 0, 2));
	cr_assert(link_latency_judged(&v, 1, 3));
	cr_assert(link_latency_judged(&v, 0, 1), "unknown: judged");
	cr_assert_eq(links_latency_unjudged(&v), 1);
	size_t k = links_to_detect(&v, DETECT_LATENCY, out);
	for (size_t i = 0; i < k; i++) {
		bool pair02 = (out[i].a == 0 && out[i].b == 2) || (out[i].a == 2 && out[i].b == 0);
		cr_assert_eq(out[i].judged, !pair02, "%d->%d", out[i].a, out[i].b);
	}
	k = links_to_detect(&v, DETECT_BANDWIDTH, out);
	for (size_t i = 0; i < k; i++)
		cr_assert(out[i].judged, "bandwidth %d->%d", out[i].a, out[i].b);
	v.judge_waiting = true; /* --judge-oversubscribed */
	cr_assert(link_latency_judged(&v, 0, 2));
	cr_assert_eq(links_latency_unjudged(&v), 0);
}

/* Inside a host a pair whose ranks waited half its time has no bandwidth verdict; across hosts it has. */
Test(links_report, a_bandwidth_the_scheduler_held_inside_a_host_is_not_judged)
{
	struct links_view v = make_view();
	struct detect_link out[N * N];
	for (int i = 0; i < N * N; i++)
		records[i].cpu_wait_share = records[i].cpu_wait_share_lat = NAN;
	records[0 * N + 1].cpu_wait_share = 0.1;
	records[1 * N + 0].cpu_wait_share = 0.5; /* the larger end's counts */
	records[2 * N + 3].cpu_wait_share = 0.49;
	records[0 * N + 2].cpu_wait_share = 0.9; /* across hosts: judged whatever the wait */
	cr_assert_not(link_bandwidth_judged(&v, 0, 1));
	cr_assert_not(link_bandwidth_judged(&v, 1, 0));
	cr_assert(link_bandwidth_judged(&v, 2, 3));
	cr_assert(link_bandwidth_judged(&v, 0, 2));
	cr_assert_eq(links_bandwidth_unjudged(&v), 1);
	cr_assert_eq(links_latency_unjudged(&v), 0, "the ping-pongs' own wait is unknown");
	size_t k = links_to_detect(&v, DETECT_BANDWIDTH, out);
	for (size_t i = 0; i < k; i++) {
		bool pair01 = (out[i].a == 0 && out[i].b == 1) || (out[i].a == 1 && out[i].b == 0);
		cr_assert_eq(out[i].judged, !pair01, "%d->%d", out[i].a, out[i].b);
	}
	k = links_to_detect(&v, DETECT_LATENCY, out);
	for (size_t i = 0; i < k; i++)
		cr_assert(out[i].judged, "latency %d->%d", out[i].a, out[i].b);
	v.judge_waiting = true; /* --judge-oversubscribed */
	cr_assert(link_bandwidth_judged(&v, 0, 1));
	cr_assert_eq(links_bandwidth_unjudged(&v), 0);
}

Test(links_report, typical_values)
{
	struct links_view v = make_view();
	/* 8e6 bytes in 1000 us: 8 GB/s */
	cr_assert_float_eq(link_bandwidth_gbps(&records[0 * N + 1], v.window_bytes), 8.0, 1e-12);
	cr_assert_float_eq(link_bandwidth_gbps(&records[0 * N + 2], v.window_bytes), 2.0, 1e-12);
	cr_assert_float_eq(link_latency_us(&records[0 * N + 1]), 1.0, 1e-12);
	cr_assert(isnan(link_bandwidth_gbps(&records[0], v.window_bytes)), "the diagonal");
	records[0 * N + 1].window_us = summary(500, 1); /* one sample: p50 undefined, mean used */
	cr_assert_float_eq(link_bandwidth_gbps(&records[0 * N + 1], v.window_bytes), 16.0, 1e-12);
}

Test(links_report, detector_input)
{
	struct links_view v = make_view();
	struct detect_link out[N * N];
	size_t k = links_to_detect(&v, DETECT_BANDWIDTH, out);
	cr_assert_eq(k, N * (N - 1));
	for (size_t i = 0; i < k; i++) {
		cr_assert_neq(out[i].a, out[i].b);
		cr_assert(out[i].judged);
		cr_assert_eq(out[i].host_a, host_of[out[i].a]);
	}
	judged[1] = false; /* an oversubscribed host: its links are not judged */
	k = links_to_detect(&v, DETECT_LATENCY, out);
	for (size_t i = 0; i < k; i++)
		cr_assert_eq(out[i].judged, out[i].host_a == 0 && out[i].host_b == 0, "%d->%d",
		             out[i].a, out[i].b);
	records[1 * N + 3].measured = false;
	cr_assert_eq(links_to_detect(&v, DETECT_LATENCY, out), N * (N - 1) - 1);
}

Test(links_report, host_matrix_and_class_medians)
{
	struct links_view v = make_view();
	double m[4];
	int links;
	cr_assert_eq(links_host_matrix(&v, m), 0);
	cr_assert_float_eq(m[0], 8.0, 1e-12);
	cr_assert_float_eq(m[1], 2.0, 1e-12);
	cr_assert_float_eq(m[2], 2.0, 1e-12);
	cr_assert_float_eq(m[3], 8.0, 1e-12);
	cr_assert_float_eq(links_class_median(&v, DETECT_BANDWIDTH, DETECT_CROSS_HOST, &links), 2.0,
	                   1e-12);
	cr_assert_eq(links, 8);
	links_class_median(&v, DETECT_LATENCY, DETECT_SAME_NUMA, &links);
	cr_assert_eq(links, 2);
}

Test(links_report, results_json)
{
	struct links_view v = make_view();
	cJSON *root = cJSON_CreateObject();
	cJSON *results = links_report_add_results_v1(root, &v);
	cr_assert(results);
	cr_assert_eq(cJSON_GetArraySize(results), N * (N - 1));
	cJSON *r = cJSON_GetArrayItem(results, 1); /* 0 -> 2 */
	cr_assert_eq(cJSON_GetObjectItem(r, "b")->valueint, 2);
	cr_assert_str_eq(cJSON_GetObjectItem(r, "host_b")->valuestring, "b");
	cr_assert_str_eq(cJSON_GetObjectItem(r, "locality")->valuestring, "cross_host");
	cJSON *bw = cJSON_GetObjectItem(r, "bandwidth_gbps");
	/* the slowest window (max time 8000 us) is the minimum bandwidth */
	cr_assert_float_eq(cJSON_GetObjectItem(bw, "min")->valuedouble, 1.0, 1e-12);
	cr_assert_float_eq(cJSON_GetObjectItem(bw, "max")->valuedouble, 4.0, 1e-12);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(bw, "p10")), "an undefined percentile is null");
	cJSON *bi = cJSON_GetObjectItem(r, "bidirectional_gbps");
	cr_assert_float_eq(cJSON_GetObjectItem(bi, "p50")->valuedouble, 16e6 / 1.5e6, 1e-12);
	cJSON *lat = cJSON_GetObjectItem(r, "latency_us");
	cr_assert_eq(cJSON_GetObjectItem(lat, "iterations")->valueint, 100);
	cJSON_Delete(root);
}

/* The link 0 -> 2 (host a -> host b) accused in the cross-host class, as the detector names one. */
static struct detect_suspect link_0_to_2(enum detect_metric m, double measured, double expected,
                                         double score)
{
	return (struct detect_suspect){.kind = DETECT_LINK,
	                               .metric = m,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = 0,
	                               .b = 2,
	                               .host_a = 0,
	                               .host_b = 1,
	                               .host = -1,
	                               .measured = measured,
	                               .expected = expected,
	                               .ratio = measured / expected,
	                               .score = score,
	                               .direction = DETECT_DIR_AB,
	                               .side = -1,
	                               .first_measured = NAN,
	                               .cpu_wait_fraction = NAN,
	                               .other_traffic_gbps = NAN};
}

Test(links_report, summary_lists_confirmed_suspects_and_cleared_ones)
{
	struct links_view v = make_view();
	struct detect_suspect s1 = link_0_to_2(DETECT_BANDWIDTH, 0.2, 2, -9);
	s1.first_measured = 0.25;
	struct detect_suspect s2 = s1;
	s2.a = 1;
	s2.b = 3;
	struct detect_suspect first_v[] = {s1, s2}, final_v[] = {s1};
	final_v[0].confirmed = true;
	struct detect_result first = {.nsuspects = 2, .suspects = first_v};
	struct detect_result final = {.nsuspects = 1, .suspects = final_v};
	cJSON *root = cJSON_CreateObject();
	struct links_judgement j = {.first = &first, .final = &final, .remeasured_pairs = 2};
	cJSON *summary = links_report_add_summary(root, &v, &j);
	cr_assert(summary);
	cJSON *suspects = cJSON_GetObjectItem(summary, "suspects");
	cJSON *cleared = cJSON_GetObjectItem(summary, "cleared");
	cr_assert_eq(cJSON_GetArraySize(suspects), 1);
	cr_assert_eq(cJSON_GetArraySize(cleared), 1);
	cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(suspects, 0), "who")->valuestring,
	                 "0->2");
	cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cleared, 0), "who")->valuestring,
	                 "1->3");
	cr_assert_eq(cJSON_GetObjectItem(summary, "suspects_count")->valueint, 1);
	cr_assert_eq(cJSON_GetObjectItem(summary, "pairs")->valueint, 6);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(summary, "hosts")), 2);
	cJSON *k = cJSON_GetArrayItem(suspects, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(k, "direction")->valuestring, "a->b");
	cr_assert_str_eq(cJSON_GetObjectItem(k, "pattern")->valuestring, "pairs");
	cJSON *retest = cJSON_GetObjectItem(k, "retest");
	cr_assert_float_eq(cJSON_GetObjectItem(retest, "first_measured")->valuedouble, 0.25, 1e-12);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(retest, "confirmed")));
	cr_assert(strstr(cJSON_GetObjectItem(k, "line")->valuestring, "link 0->2 (a -> b)"), "%s",
	          cJSON_GetObjectItem(k, "line")->valuestring);
	cJSON_Delete(root);
}

/* A latency the scheduler explains (scheduler.h) is cleared by it, once, with its wait. */
Test(links_report, a_suspect_the_scheduler_explains_is_cleared_by_it)
{
	struct links_view v = make_view();
	struct detect_suspect s1 = link_0_to_2(DETECT_LATENCY, 969, 97, 12);
	struct detect_suspect s2 = s1;
	s2.a = 1;
	s2.b = 3;
	struct detect_suspect first_v[] = {s1, s2}, final_v[] = {s1};
	final_v[0].cpu_wait_fraction = 0.9;
	final_v[0].scheduler_cleared = true; /* confirmed, then cleared */
	struct detect_result first = {.nsuspects = 2, .suspects = first_v};
	struct detect_result final = {.nsuspects = 1, .suspects = final_v};
	cJSON *root = cJSON_CreateObject();
	struct links_judgement j = {.first = &first, .final = &final, .remeasured_pairs = 2};
	cJSON *summary = links_report_add_summary(root, &v, &j);
	cr_assert(summary);
	cJSON *cleared = cJSON_GetObjectItem(summary, "cleared");
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(summary, "suspects")), 0);
	cr_assert_eq(cJSON_GetArraySize(cleared), 2, "0->2 by the scheduler, 1->3 by the re-test");
	cJSON *k = cJSON_GetArrayItem(cleared, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(k, "who")->valuestring, "0->2");
	cr_assert_str_eq(cJSON_GetObjectItem(k, "cleared_by")->valuestring, "scheduler");
	cr_assert_float_eq(cJSON_GetObjectItem(k, "cpu_wait_fraction")->valuedouble, 0.9, 1e-12);
	k = cJSON_GetArrayItem(cleared, 1);
	cr_assert_str_eq(cJSON_GetObjectItem(k, "who")->valuestring, "1->3");
	cr_assert_str_eq(cJSON_GetObjectItem(k, "cleared_by")->valuestring, "retest");
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(k, "cpu_wait_fraction")));
	cr_assert_eq(cJSON_GetObjectItem(summary, "suspects_count")->valueint, 0);
	cJSON_Delete(root);
}

/* A host confirmed slow whose NIC carried another job's traffic: cleared by it, with the figure. */
Test(links_report, a_suspect_other_traffic_explains_is_cleared_by_it)
{
	struct links_view v = make_view();
	struct detect_suspect s = link_0_to_2(DETECT_BANDWIDTH, 0.7, 1.0, -6);
	struct detect_suspect first_v[] = {s}, final_v[] = {s};
	final_v[0].other_traffic_gbps = 0.3;
	final_v[0].traffic_cleared = true;
	struct detect_result first = {.nsuspects = 1, .suspects = first_v};
	struct detect_result final = {.nsuspects = 1, .suspects = final_v};
	cJSON *root = cJSON_CreateObject();
	struct links_judgement j = {.first = &first, .final = &final, .remeasured_pairs = 1};
	cJSON *summary = links_report_add_summary(root, &v, &j);
	cr_assert(summary);
	cJSON *cleared = cJSON_GetObjectItem(summary, "cleared");
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(summary, "suspects")), 0);
	cr_assert_eq(cJSON_GetArraySize(cleared), 1, "once: by traffic, not again by the re-test");
	cJSON *k = cJSON_GetArrayItem(cleared, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(k, "cleared_by")->valuestring, "traffic");
	cr_assert_float_eq(cJSON_GetObjectItem(k, "other_traffic_gbps")->valuedouble, 0.3, 1e-12);
	cJSON_Delete(root);
}

/*
 * The other traffic of a suspect: over its re-tested pairs, the way it is
 * slow in, the median of what the sender's host sent and the receiver's
 * received besides each pair.
 */
Test(links_report, other_traffic_of_a_suspect_from_its_retested_pairs)
{
	struct links_view v = make_view();
	double most;
	for (int i = 0; i < N * N; i++)
		records[i].nic_other_sent_gbps = records[i].nic_other_received_gbps = NAN;
	struct detect_suspect s = link_0_to_2(DETECT_BANDWIDTH, 0.7, 1.0, -6);
	cr_assert(isnan(links_other_traffic(&v, &s, &most)), "not re-tested: not known");
	records[0 * N + 2].remeasured = records[2 * N + 0].remeasured = true;
	records[0 * N + 2].nic_other_sent_gbps = 0.05;     /* 0's host sent besides 0 -> 2 */
	records[2 * N + 0].nic_other_received_gbps = 0.4;  /* 2's host received besides 0 -> 2 */
	records[2 * N + 0].nic_other_sent_gbps = 0.9;      /* 2's host sent besides 2 -> 0 */
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.4, 1e-12, "the receiver's way in");
	s.direction = DETECT_DIR_BA; /* slow 2 -> 0: 2's way out */
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.9, 1e-12);
	/* a host slow to send: its pairs out alone, not what its partners sent */
	s.kind = DETECT_HOST;
	s.host = host_of[0];
	s.a = s.b = -1;
	s.direction = DETECT_DIR_AB;
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.4, 1e-12);
	s.host = host_of[2];
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.9, 1e-12);
	s.direction = DETECT_DIR_BA; /* slow to receive: 2's pairs in */
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.4, 1e-12);
	s.kind = DETECT_SEGMENT;
	cr_assert(isnan(links_other_traffic(&v, &s, &most)), "a segment: no one NIC");
}

/*
 * The campaign's seed 3 draw 96: 5 hosts of one rank, h3 slow to send,
 * another job's stream h0 -> h1 beside it. Of h3's pairs out only the one
 * into h1 had traffic in its way, so the median is nothing and h3 stays
 * named; counted whole at both ends, the stream made two of its four busy.
 * h0 itself, slow to send for the stream, is explained by it.
 */
Test(links_report, a_host_slow_to_send_beside_a_stream_into_a_partner_keeps_its_traffic_low)
{
	enum { H = 5 };
	static struct link_record recs[H * H];
	static const int one_each[H] = {0, 1, 2, 3, 4};
	for (int a = 0; a < H; a++)
		for (int b = 0; b < H; b++)
			recs[a * H + b] = (struct link_record){
			    .a = a,
			    .b = b,
			    .measured = a != b,
			    .remeasured = a != b,
			    /* the stream: out of h0, into h1 (its acknowledgements aside) */
			    .nic_other_sent_gbps = a == 0 ? 0.0105 : 0,
			    .nic_other_received_gbps = a == 1 ? 0.0105 : 0,
			};
	struct links_view v = {.nranks = H, .nhosts = H, .records = recs, .host_of_rank = one_each};
	double most;
	struct detect_suspect s = {.kind = DETECT_HOST, .host = 3, .a = -1, .b = -1,
	                           .metric = DETECT_BANDWIDTH, .direction = DETECT_DIR_AB};
	double other = links_other_traffic(&v, &s, &most);
	cr_assert_float_eq(other, 0, 1e-12, "%g: one of its four pairs out met the stream", other);
	cr_assert_float_eq(most, 0.0105, 1e-12, "that one: judged again on the room matrix");
	s.host = 0;
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.0105, 1e-12, "the stream's own sender");
	s.host = 1;
	s.direction = DETECT_DIR_BA;
	cr_assert_float_eq(links_other_traffic(&v, &s, &most), 0.0105, 1e-12, "and its receiver");
	/* cell by cell: what was in each host pair's way, the stream's row and column */
	double cells[H * H];
	cr_assert_eq(links_other_host_matrix(&v, cells), 0);
	for (int a = 0; a < H; a++)
		for (int b = 0; b < H; b++)
			if (a == b)
				cr_assert(isnan(cells[a * H + b]));
			else
				cr_assert_float_eq(cells[a * H + b], a == 0 || b == 1 ? 0.0105 : 0, 1e-12,
				                   "%d -> %d", a, b);
}

/* A segment names its two sides, their hosts and their ranks. */
Test(links_report, a_segment_suspect_names_both_sides)
{
	struct links_view v = make_view();
	signed char sides[] = {0, 1};
	struct detect_suspect seg = {.kind = DETECT_SEGMENT,
	                             .direction = DETECT_DIR_BOTH,
	                             .metric = DETECT_BANDWIDTH,
	                             .locality = DETECT_CROSS_HOST,
	                             .a = -1,
	                             .b = -1,
	                             .host = -1,
	                             .host_a = -1,
	                             .host_b = -1,
	                             .side = 0,
	                             .measured = 0.1,
	                             .expected = 2,
	                             .ratio = 0.05,
	                             .score = -20,
	                             .confirmed = true,
	                             .loaded = true};
	struct detect_result r = {
	    .nsuspects = 1, .suspects = &seg, .nhosts = 2, .nsides = 1, .sides = sides};
	cJSON *array = cJSON_CreateArray();
	cJSON *o = links_report_add_suspect(array, &v, &r, &seg);
	cr_assert(o);
	cr_assert_str_eq(cJSON_GetObjectItem(o, "kind")->valuestring, "segment");
	cr_assert_str_eq(cJSON_GetObjectItem(o, "who")->valuestring, "a<->b");
	cr_assert_str_eq(cJSON_GetObjectItem(o, "pattern")->valuestring, "shift");
	cJSON *ra = cJSON_GetObjectItem(o, "ranks_a"), *rb = cJSON_GetObjectItem(o, "ranks_b");
	cr_assert_eq(cJSON_GetArraySize(ra), 2);
	cr_assert_eq(cJSON_GetArrayItem(rb, 1)->valueint, 3);
	cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "hosts_b"), 0)->valuestring, "b");
	cr_assert(strstr(cJSON_GetObjectItem(o, "reason")->valuestring, "segment: 0 of 0 cross_host"),
	          "%s", cJSON_GetObjectItem(o, "reason")->valuestring);
	cJSON_Delete(array);
}

Test(links_report, judged_host_matrix_and_shift)
{
	struct links_view v = make_view();
	double m[4];
	struct shift_cell cells[N * N];
	cr_assert_eq(links_judged_host_matrix(&v, false, m), 0);
	cr_assert(isnan(m[0]) && isnan(m[3]));
	cr_assert_float_eq(m[1], 2.0, 1e-12); /* 8e6 bytes in 4000 us */
	judged[1] = false;
	cr_assert_eq(links_judged_host_matrix(&v, false, m), 0);
	cr_assert(isnan(m[1]) && isnan(m[2]), "a host not judged leaves no cell");
	judged[1] = true;
	/* the shift: rank a sent to a+1 in 800 us and received from a-1 in 1600 us */
	for (int i = 0; i < N * N; i++)
		cells[i] = (struct shift_cell){.send_us = NAN, .recv_us = NAN};
	for (int a = 0; a < N; a++)
		for (int x = 0; x < N; x++)
			if (a != x)
				cells[a * N + x] = (struct shift_cell){
				    .send_us = 800, .recv_us = 1600, .send_windows = 3, .recv_windows = 3, .msgs = 2};
	v.shift = cells;
	cr_assert_float_eq(shift_bandwidth_gbps(&v, 0, 2, true), 10.0, 1e-12);
	cr_assert_float_eq(shift_bandwidth_gbps(&v, 0, 2, false), 5.0, 1e-12);
	cr_assert_eq(links_judged_host_matrix(&v, true, m), 0);
	cr_assert_float_eq(m[1], 5.0, 1e-12);
	cJSON *root = cJSON_CreateObject();
	cJSON *shift = links_report_add_shift(root, &v);
	cr_assert(shift && shift != root);
	cr_assert_eq(cJSON_GetObjectItem(shift, "steps")->valueint, N - 1);
	cJSON *recv = cJSON_GetObjectItem(shift, "receive_gbps");
	cr_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(recv, 1), 1)));
	cr_assert_float_eq(cJSON_GetArrayItem(cJSON_GetArrayItem(recv, 1), 2)->valuedouble, 5.0, 1e-12);
	cJSON *w = cJSON_GetObjectItem(shift, "window_messages");
	cr_assert_eq(cJSON_GetArrayItem(cJSON_GetArrayItem(w, 0), 3)->valueint, 2);
	cJSON_Delete(root);
}

/*
 * The room matrix: a pair measured again alone gains what its NICs carried
 * besides it that way: what the sender's host sent, or the receiver's received.
 */
Test(links_report, room_host_matrix_adds_other_traffic_of_retested_pairs)
{
	struct links_view v = make_view();
	double m[4];
	for (int i = 0; i < N * N; i++)
		records[i].nic_other_sent_gbps = records[i].nic_other_received_gbps = NAN;
	/* every cross pair at 2 GB/s; 0-2 re-tested while host b received 0.4 GB/s else */
	records[0 * N + 2].remeasured = records[2 * N + 0].remeasured = true;
	records[0 * N + 2].nic_other_sent_gbps = 0.05;
	records[2 * N + 0].nic_other_received_gbps = 0.4;
	cr_assert_float_eq(link_other_way(&v, 0, 2), 0.4, 1e-12, "the busier end that way");
	cr_assert(isnan(link_other_way(&v, 2, 0)), "nothing known of b's sending, a's receiving");
	cr_assert_eq(links_room_host_matrix(&v, false, m), 0);
	cr_assert(isnan(m[0]) && isnan(m[3]));
	/* host a -> b: pairs 0->2 (2.4), 0->3, 1->2, 1->3 (2.0): the median 2.0 */
	cr_assert_float_eq(m[1], 2.0, 1e-12);
	for (int a = 0; a < 2; a++)
		for (int b = 2; b < 4; b++) {
			records[a * N + b].remeasured = records[b * N + a].remeasured = true;
			records[b * N + a].nic_other_received_gbps = 0.4;
		}
	cr_assert_eq(links_room_host_matrix(&v, false, m), 0);
	cr_assert_float_eq(m[1], 2.4, 1e-12, "what b received besides added to a -> b");
	cr_assert_float_eq(m[2], 2.0, 1e-12, "b -> a: b's sending and a's receiving were free");
	cr_assert_eq(links_judged_host_matrix(&v, false, m), 0);
	cr_assert_float_eq(m[1], 2.0, 1e-12, "the judged matrix stays as measured");
	/* the shift: its pairs at once, so a cell gains its hosts' medians: a sent nothing else
	   known, b received 0.4 */
	struct shift_cell cells[N * N];
	for (int a = 0; a < N; a++)
		for (int x = 0; x < N; x++)
			cells[a * N + x] = (struct shift_cell){
			    .send_us = 800, .recv_us = 1600, .send_windows = 3, .recv_windows = 3};
	v.shift = cells;
	cr_assert_eq(links_room_host_matrix(&v, true, m), 0);
	cr_assert_float_eq(m[1], 5.4, 1e-12, "a -> b: 5 GB/s and b's 0.4 in");
	cr_assert_float_eq(m[2], 5.0, 1e-12, "b -> a: nothing else known");
	records[0 * N + 2].remeasured = false;
	cr_assert(isnan(link_other_way(&v, 0, 2)), "measured with the others: not known");
}

Test(links_report, sensitivity_per_class_and_pattern)
{
	struct detect_params p;
	struct detect_result final;
	struct classify_info shift = {.judged = true};
	detect_params_default(&p);
	detect_result_init(&final);
	final.classes[DETECT_BANDWIDTH][DETECT_SAME_NUMA] =
	    (struct detect_class){.links = 8, .median = 8, .log_mad = 0.01, .judged = true};
	final.classes[DETECT_LATENCY][DETECT_CROSS_HOST] =
	    (struct detect_class){.links = 8, .median = 30, .log_mad = 0.3, .judged = true};
	final.classes[DETECT_BANDWIDTH][DETECT_CROSS_HOST] =
	    (struct detect_class){.links = 3, .median = 1, .log_mad = 0.01, .judged = false};
	shift.as_class = (struct detect_class){.links = 12, .median = 0.5, .log_mad = 0.02, .judged = true};
	struct links_judgement j = {.final = &final, .params = &p, .shift_info = &shift};
	struct links_sensitivity out[LINKS_SENSITIVITY_MAX];
	int k = links_sensitivity(&j, out);
	cr_assert_eq(k, 3, "two judged classes and the shift: %d", k);
	cr_assert_float_eq(out[0].fraction, 0.3, 1e-12, "same_numa: 30%% at least (detect_tolerance)");
	cr_assert_eq(out[1].metric, DETECT_LATENCY);
	cr_assert(out[1].fraction > 0.43, "%g", out[1].fraction);
	cr_assert_eq(out[2].pattern, SUSPECT_SHIFT);
	cJSON *root = cJSON_CreateObject();
	struct link_record none[N * N] = {0};
	struct links_view v = make_view();
	v.records = none;
	cJSON *summary = links_report_add_summary(root, &v, &j);
	cr_assert(summary);
	cJSON *s = cJSON_GetObjectItem(summary, "sensitivity");
	cr_assert_eq(cJSON_GetArraySize(s), 3);
	cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(s, 0), "slowdown_percent")->valuedouble,
	                   30, 1e-9);
	cJSON_Delete(root);
}

/* The per-host aggregates (one pass over the pairs, links_hosts.c): each class of each host. */
Test(links_report, host_aggregates_per_class)
{
	struct links_view v = make_view();
	records[2 * N + 0].window_us = summary(8000, 5); /* 2 -> 0: 1 GB/s, the worst of host a's */
	struct detect_result none = {0};
	struct links_judgement j = {.first = &none, .final = &none};
	cJSON *root = cJSON_CreateObject();
	cJSON *summary_o = links_report_add_summary(root, &v, &j);
	cr_assert(summary_o);
	cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(summary_o, "hosts"), 0);
	cJSON *cross = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "classes"), "cross_host");
	cr_assert_eq(cJSON_GetObjectItem(cross, "links")->valueint, 8);
	cJSON *bw = cJSON_GetObjectItem(cross, "bandwidth_gbps");
	cr_assert_float_eq(cJSON_GetObjectItem(bw, "median")->valuedouble, 2.0, 1e-12);
	cr_assert_float_eq(cJSON_GetObjectItem(bw, "min")->valuedouble, 1.0, 1e-12);
	cJSON *numa = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "classes"), "same_numa");
	cr_assert_eq(cJSON_GetObjectItem(numa, "links")->valueint, 2);
	cr_assert_float_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(numa, "latency_us"), "max")->valuedouble, 1.0,
	    1e-12);
	cr_assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(a, "classes"), "same_host"));
	cJSON *b = cJSON_GetArrayItem(cJSON_GetObjectItem(summary_o, "hosts"), 1);
	cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(b, "classes"),
	                                                     "same_host"),
	                                 "links")
	                 ->valueint,
	             2);
	cJSON_Delete(root);
}
