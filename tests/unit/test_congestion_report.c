/* The congestion summary (reports/io/congestion_report.c): factors, verdicts, where. */
#include "reports/io/congestion_report.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diagnose/classify.h"

static const char *const names[] = {"h1", "h2", "h3", "h4", "h5", "h6"};

/* 6 hosts, racks {0,1,2} and {3,4,5}: cells across the racks at `across`, within at 1. */
static double *two_racks(double across)
{
	double *m = malloc(36 * sizeof *m);
	cr_assert(m);
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 6; j++)
			m[i * 6 + j] = i == j ? NAN : (i < 3) == (j < 3) ? 1.0 : across;
	return m;
}

static void add_where(struct congestion_summary *s, double loaded, double alone)
{
	struct detect_params p;
	detect_params_default(&p);
	p.tolerance = 0.25;
	struct congestion_where *w = &s->where[s->nwhere++];
	w->group = 0;
	w->nhosts = 6;
	w->hosts = malloc(6 * sizeof *w->hosts);
	for (int h = 0; h < 6; h++)
		w->hosts[h] = h;
	w->loaded_gbps = two_racks(loaded);
	w->alone_gbps = two_racks(alone);
	detect_result_init(&w->loaded);
	detect_result_init(&w->alone);
	cr_assert_eq(classify_hosts(w->loaded_gbps, 6, &p, true, &w->loaded, NULL), 0);
	cr_assert_eq(classify_hosts(w->alone_gbps, 6, &p, false, &w->alone, NULL), 0);
}

static struct congestion_summary summary(void)
{
	struct congestion_summary s;
	congestion_summary_init(&s);
	s.by_host = true;
	s.tolerance = 0.25;
	s.host_names = names;
	s.ngroups = 1;
	s.groups = calloc(1, sizeof *s.groups);
	s.groups[0].nranks = 2;
	s.groups[0].world_ranks = calloc(2, sizeof(int));
	s.groups[0].world_ranks[1] = 1;
	s.groups[0].nhosts = 1;
	s.groups[0].hosts = calloc(1, sizeof(int));
	s.where = calloc(1, sizeof *s.where);
	return s;
}

static const cJSON *at(const cJSON *o, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); o && k;
	     k = strtok_r(NULL, ".", &save))
		o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(k)) : cJSON_GetObjectItem(o, k);
	return o;
}

Test(congestion_report, segment_under_load_only_is_interference)
{
	struct congestion_summary s = summary();
	struct congestion_point p = {.algorithm = "ring",
	                             .bytes = 1024,
	                             .group = 0,
	                             .alone = {10, 10, 12, 2},
	                             .together = {20, 18, 30, 1.1}};
	cr_assert_eq(congestion_summary_add(&s, &p), 0);
	cr_expect(s.points[0].degraded);
	cr_expect(congestion_group_degraded(&s, 0));
	add_where(&s, 0.5, 1.0);
	cr_assert_eq(s.where[0].loaded.nsuspects, 1);
	cr_expect_eq(s.where[0].loaded.suspects[0].kind, DETECT_SEGMENT);
	cr_expect(!congestion_also_alone(&s.where[0], &s.where[0].loaded.suspects[0]));
	cJSON *root = cJSON_CreateObject();
	const char *verdict = NULL;
	cr_assert(congestion_report_add_summary(root, &s, &verdict));
	cr_expect_str_eq(verdict, "interference");
	cr_expect_str_eq(at(root, "summary.where.0.verdicts.0.kind")->valuestring, "segment");
	cr_expect(cJSON_IsFalse(at(root, "summary.where.0.verdicts.0.also_alone")));
	cr_expect_eq(cJSON_GetArraySize(at(root, "summary.where.0.verdicts.0.hosts_a")), 3);
	cr_expect_float_eq(at(root, "summary.points.0.factor_busbw")->valuedouble, 2 / 1.1, 1e-9);
	cr_expect_float_eq(at(root, "summary.overall.0.factor_busbw")->valuedouble, 2 / 1.1, 1e-9);
	cr_expect_eq(at(root, "summary.degraded_groups.0")->valueint, 0);
	cJSON_Delete(root);
	congestion_summary_release(&s);
}

Test(congestion_report, segment_slow_alone_too_is_not_interference)
{
	struct congestion_summary s = summary();
	add_where(&s, 0.5, 0.5);
	cr_assert_eq(s.where[0].loaded.nsuspects, 1);
	cr_expect(congestion_also_alone(&s.where[0], &s.where[0].loaded.suspects[0]));
	cJSON *root = cJSON_CreateObject();
	const char *verdict = NULL;
	cr_assert(congestion_report_add_summary(root, &s, &verdict));
	cr_expect_str_eq(verdict, "no interference");
	cr_expect(cJSON_IsTrue(at(root, "summary.where.0.verdicts.0.also_alone")));
	cJSON_Delete(root);
	congestion_summary_release(&s);
}

Test(congestion_report, wrong_results_win)
{
	struct congestion_summary s = summary();
	struct congestion_point p = {.algorithm = "ring",
	                             .bytes = 8,
	                             .wrong = 3,
	                             .alone = {1, 1, 1, 1},
	                             .together = {1, 1, 1, 1}};
	cr_assert_eq(congestion_summary_add(&s, &p), 0);
	cJSON *root = cJSON_CreateObject();
	const char *verdict = NULL;
	cr_assert(congestion_report_add_summary(root, &s, &verdict));
	cr_expect_str_eq(verdict, "wrong results");
	cr_expect_eq(at(root, "summary.wrong_total")->valueint, 3);
	cJSON_Delete(root);
	congestion_summary_release(&s);
}
