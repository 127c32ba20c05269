/* The links report of reports/links_report.c: records, detector input, JSON. */
#include "links_report.h"

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
	cJSON *results = links_report_add_results(root, &v);
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

Test(links_report, summary_lists_confirmed_suspects_and_cleared_ones)
{
	struct links_view v = make_view();
	struct detect_suspect s1 = {.kind = DETECT_LINK,
	                            .metric = DETECT_BANDWIDTH,
	                            .locality = DETECT_CROSS_HOST,
	                            .a = 0,
	                            .b = 2,
	                            .host_a = 0,
	                            .host_b = 1,
	                            .host = -1,
	                            .measured = 0.2,
	                            .expected = 2,
	                            .ratio = 0.1,
	                            .score = -9};
	struct detect_suspect s2 = s1;
	s2.a = 1;
	s2.b = 3;
	struct detect_suspect first_v[] = {s1, s2}, final_v[] = {s1};
	final_v[0].confirmed = true;
	struct detect_result first = {.nsuspects = 2, .suspects = first_v};
	struct detect_result final = {.nsuspects = 1, .suspects = final_v};
	cJSON *root = cJSON_CreateObject();
	cJSON *summary = links_report_add_summary(root, &v, &first, &final, 2);
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
	cJSON_Delete(root);
}
