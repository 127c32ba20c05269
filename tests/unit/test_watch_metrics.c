/*
 * watch's exports: the OpenMetrics writer (names, units, counters' _total,
 * escaping, numbers, # EOF, refusals), the metrics file of a state, its JSON
 * lines, and the attribution of link changes by the classifier.
 */
#include "reports/watch/watch_jsonl.h"
#include "reports/watch/watch_metrics.h"
#include "reports/watch/watch_openmetrics.h"
#include "reports/watch/watch_state.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(watch_openmetrics, families_samples_and_eof)
{
	struct om_text t;
	om_text_init(&t);
	struct om_label l[] = {{"src_host", "a\"b\\c\nd"}, {"dst_host", "h2"}};
	cr_assert_eq(om_family(&t, "x_seconds", OM_GAUGE, "seconds", "a time"), 0);
	cr_assert_eq(om_sample(&t, l, 2, 0.25), 0);
	cr_assert_eq(om_sample(&t, NULL, 0, NAN), 0);
	cr_assert_eq(om_family(&t, "y", OM_COUNTER, "", "a count"), 0);
	cr_assert_eq(om_sample(&t, NULL, 0, 3), 0);
	cr_assert_eq(om_family(&t, "z", OM_GAUGE, "", "big"), 0);
	cr_assert_eq(om_sample(&t, NULL, 0, INFINITY), 0);
	cr_assert_eq(om_sample(&t, NULL, 0, 0.1), 0);
	cr_assert_eq(om_finish(&t), 0);
	cr_expect_str_eq(t.text, "# TYPE x_seconds gauge\n"
	                         "# UNIT x_seconds seconds\n"
	                         "# HELP x_seconds a time\n"
	                         "x_seconds{src_host=\"a\\\"b\\\\c\\nd\",dst_host=\"h2\"} 0.25\n"
	                         "x_seconds NaN\n"
	                         "# TYPE y counter\n"
	                         "# HELP y a count\n"
	                         "y_total 3\n"
	                         "# TYPE z gauge\n"
	                         "# HELP z big\n"
	                         "z +Inf\n"
	                         "z 0.1\n"
	                         "# EOF\n");
	/* nothing after # EOF */
	cr_expect_eq(om_family(&t, "w", OM_GAUGE, "", "late"), -1);
	om_text_release(&t);
}

/* Each call on a fresh text must be refused, and leave it failed. */
Test(watch_openmetrics, refusals)
{
	struct {
		const char *name, *unit, *help;
		enum om_type type;
	} bad[] = {
	    {"1x", "", "starts with a digit", OM_GAUGE},
	    {"x-y", "", "a dash", OM_GAUGE},
	    {"x_total", "", "a counter's family must not end in _total", OM_COUNTER},
	    {"x_ms", "seconds", "the unit is not the suffix", OM_GAUGE},
	    {"x", "", "two\nlines", OM_GAUGE},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct om_text t;
		om_text_init(&t);
		cr_expect_eq(om_family(&t, bad[i].name, bad[i].type, bad[i].unit, bad[i].help), -1,
		             "%s", bad[i].name);
		cr_expect_eq(om_finish(&t), -1);
		om_text_release(&t);
	}
	struct om_text t;
	struct om_label dup[] = {{"a", "1"}, {"a", "2"}}, badl[] = {{"a:b", "1"}};
	om_text_init(&t);
	cr_expect_eq(om_sample(&t, NULL, 0, 1), -1, "a sample before any family");
	om_text_release(&t);
	om_text_init(&t);
	cr_assert_eq(om_family(&t, "c", OM_COUNTER, "", "count"), 0);
	cr_expect_eq(om_sample(&t, NULL, 0, -1), -1, "a negative counter");
	om_text_release(&t);
	om_text_init(&t);
	cr_assert_eq(om_family(&t, "g", OM_GAUGE, "", "g"), 0);
	cr_expect_eq(om_sample(&t, dup, 2, 1), -1, "a label twice");
	om_text_release(&t);
	om_text_init(&t);
	cr_assert_eq(om_family(&t, "g", OM_GAUGE, "", "g"), 0);
	cr_expect_eq(om_sample(&t, badl, 1, 1), -1, "a colon in a label name");
	om_text_release(&t);
	om_text_init(&t);
	cr_assert_eq(om_family(&t, "g", OM_GAUGE, "", "g"), 0);
	cr_expect_eq(om_family(&t, "g", OM_GAUGE, "", "g"), -1, "a family twice");
	om_text_release(&t);
}

static const char *const hosts[] = {"h1", "h2", "h3", "h4"};

/* A state with latency and bandwidth series and every link of 4 hosts, n rounds of base values. */
static void state(struct watch_state *s, int rounds)
{
	struct watch_detect_params p;
	watch_detect_params_default(&p);
	cr_assert_eq(watch_state_init(s, &p, 8, 64, 16), 0);
	cr_assert_eq(watch_state_set_hosts(s, hosts, 4), 0);
	for (int r = 0; r < rounds; r++) {
		double t = 1000 + 60 * r;
		watch_add(s, (size_t)watch_series_get(s, WATCH_LATENCY, 8, -1, -1), t, 20 + r % 3,
		          (uint64_t)r + 1, NULL);
		watch_add(s, (size_t)watch_series_get(s, WATCH_BANDWIDTH, 1 << 20, -1, -1), t,
		          2 + 0.01 * (r % 3), (uint64_t)r + 1, NULL);
		for (int a = 0; a < 4; a++)
			for (int b = 0; b < 4; b++)
				if (a != b)
					watch_add(
					    s, (size_t)watch_series_get(s, WATCH_LINK, 0, a, b), t,
					    1 + 0.01 * ((r + a + b) % 3), (uint64_t)r + 1, NULL);
		s->rounds++;
	}
}

Test(watch_metrics, a_state_renders_every_family)
{
	struct watch_state s;
	struct om_text t;
	state(&s, 3);
	om_text_init(&t);
	struct watch_figures f = {.start_s = 1000,
	                          .last_round_s = 1120,
	                          .measure_s = 0.5,
	                          .duty_ratio = 0.02,
	                          .rss_bytes = 1 << 20};
	cr_assert_eq(watch_metrics_render(&s, &f, &t), 0);
	cr_expect(strstr(t.text,
	                 "collscope_watch_allreduce_latency_seconds{size_bytes=\"8\"} 2.2e-05\n"));
	cr_expect(strstr(t.text, "collscope_watch_allreduce_bus_bandwidth_bytes_per_second{size_"
	                         "bytes=\"1048576\"} 2.02e+09\n"));
	cr_expect(strstr(
	    t.text,
	    "collscope_watch_link_bandwidth_bytes_per_second{src_host=\"h4\",dst_host=\"h3\"}"));
	cr_expect(strstr(
	    t.text,
	    "collscope_watch_changes_total{series=\"link:h1->h2\",direction=\"slower\"} 0\n"));
	cr_expect(strstr(t.text, "collscope_watch_series_slowdown_ratio{series=\"latency\"} 1\n"));
	cr_expect(strstr(t.text, "collscope_watch_rounds_total 3\n"));
	cr_expect(strstr(t.text, "# UNIT collscope_watch_measure_seconds seconds\n"));
	cr_expect(strstr(t.text, "collscope_watch_measure_seconds_total 0.5\n"));
	cr_expect(!strstr(t.text, "last_change_timestamp_seconds{"), "no change, no sample");
	size_t n = strlen(t.text);
	cr_expect_str_eq(t.text + n - 6, "# EOF\n");
	om_text_release(&t);
	watch_state_release(&s);
}

Test(watch_metrics, a_slowed_link_and_its_recovery_are_named)
{
	struct watch_state s;
	struct watch_detect_params p;
	struct detect_params dp;
	watch_detect_params_default(&p);
	detect_params_default(&dp);
	cr_assert_eq(watch_state_init(&s, &p, 8, 64, 16), 0);
	cr_assert_eq(watch_state_set_hosts(&s, hosts, 4), 0);
	for (int r = 0; r < 30; r++) {
		double slow = r >= 10 && r < 20 ? 0.2 : 1;
		for (int a = 0; a < 4; a++)
			for (int b = 0; b < 4; b++) {
				bool hit = (a == 1 && b == 2) || (a == 2 && b == 1);
				if (a != b)
					watch_add(
					    &s, (size_t)watch_series_get(&s, WATCH_LINK, 0, a, b),
					    1000.0 + 60 * r,
					    (hit ? slow : 1) * (1 + 0.01 * ((r + a + 2 * b) % 3)),
					    (uint64_t)r + 1, NULL);
			}
		cr_assert_eq(watch_attribute_links(&s, (uint64_t)r + 1, &dp), 0);
	}
	cr_assert_eq(s.events.n, 4, "two links, each slowed then restored");
	for (size_t k = 0; k < s.events.n; k++) {
		const struct watch_event *e = watch_ring_at(&s.events, k);
		cr_expect(e->attributed);
		cr_expect(e->attribution.by_classifier, "%s", s.series[e->series].name);
		cr_expect_eq(e->attribution.kind, DETECT_LINK);
		cr_expect_str_eq(e->attribution.who, "h2 <-> h3");
		cr_expect_eq(e->t_s, e->slower ? 1600 : 2200);
		cJSON *line = watch_line_event(&s, e);
		char *text = cJSON_PrintUnformatted(line);
		cr_expect(strstr(text, "\"record\":\"event\""));
		cr_expect(strstr(text, "\"who\":\"h2 <-> h3\""), "%s", text);
		free(text);
		cJSON_Delete(line);
	}
	watch_state_release(&s);
}

Test(watch_metrics, report_and_lines_hold_bounded_history)
{
	struct watch_state s;
	state(&s, 20);
	cJSON *root = cJSON_CreateObject();
	struct watch_totals tot = {
	    .rounds = 20, .measure_s = 1, .duty_percent = 2, .stopped_by = "duration"};
	cr_assert(watch_report_add(root, &s, &tot));
	cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(first, "values")), 8, "keep 8");
	cr_expect_eq(cJSON_GetObjectItem(first, "samples_count")->valuedouble, 20);
	cJSON_Delete(root);
	cJSON *line = watch_line_sample(&s, 0, 20);
	char *text = cJSON_PrintUnformatted(line);
	cr_expect(strstr(text, "\"latency_us\":"), "%s", text);
	cr_expect(!strchr(text, '\n'));
	free(text);
	cJSON_Delete(line);
	watch_state_release(&s);
}

/* Rounds on 5 hosts with slow(a, b) the factor of the cell a -> b from round 10 on. */
static void rounds_5(struct watch_state *s, double (*slow)(int a, int b))
{
	static const char *const five[] = {"h1", "h2", "h3", "h4", "h5"};
	struct watch_detect_params p;
	struct detect_params dp;
	watch_detect_params_default(&p);
	detect_params_default(&dp);
	cr_assert_eq(watch_state_init(s, &p, 8, 64, 64), 0);
	cr_assert_eq(watch_state_set_hosts(s, five, 5), 0);
	for (int r = 0; r < 20; r++) {
		for (int a = 0; a < 5; a++)
			for (int b = 0; b < 5; b++)
				if (a != b)
					watch_add(s,
					          (size_t)watch_series_get(s, WATCH_LINK, 0, a, b),
					          60.0 * r,
					          (r >= 10 ? slow(a, b) : 1) *
					              (1 + 0.01 * ((r + a + 2 * b) % 3)),
					          (uint64_t)r + 1, NULL);
		cr_assert_eq(watch_attribute_links(s, (uint64_t)r + 1, &dp), 0);
	}
}

static double h4_sends_slowly(int a, int b)
{
	(void)b;
	return a == 3 ? 0.1 : 1;
}

static double racks_apart(int a, int b)
{
	return (a < 2) != (b < 2) ? 0.2 : 1; /* h1 h2 | h3 h4 h5 */
}

Test(watch_metrics, a_host_and_a_segment_are_named_with_their_direction)
{
	struct watch_state s;
	rounds_5(&s, h4_sends_slowly);
	cr_assert_eq(s.events.n, 4, "h4's four links out");
	for (size_t k = 0; k < s.events.n; k++) {
		const struct watch_event *e = watch_ring_at(&s.events, k);
		cr_expect_eq(e->attribution.kind, DETECT_HOST);
		cr_expect_str_eq(e->attribution.who, "h4");
		cr_expect_str_eq(detect_direction_name(DETECT_HOST, e->attribution.direction),
		                 "send");
	}
	watch_state_release(&s);
	rounds_5(&s, racks_apart);
	cr_assert_eq(s.events.n, 12, "every link between the groups, both ways");
	for (size_t k = 0; k < s.events.n; k++) {
		const struct watch_event *e = watch_ring_at(&s.events, k);
		cr_expect_eq(e->attribution.kind, DETECT_SEGMENT, "%s", s.series[e->series].name);
		cr_expect_str_eq(e->attribution.who, "h1 h2 <-> h3 h4 h5");
	}
	watch_state_release(&s);
}
