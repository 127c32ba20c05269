/*
 * compare's noise rule (issue 29): a point whose own spread (the middle half
 * of its samples) or whose yardstick (the control bursts its run measured
 * around it) is wider than the threshold is untestable, not a regression,
 * unless it changed by more than the threshold and both noises added; a
 * yardstick below the threshold widens the bar;
 * reports without a yardstick compare as before.
 */
#include "reports/compare/compare_points.h"
#include "reports/stats/compare_stats.h"
#include "report_fixtures.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[1024];

struct pair {
	cJSON *base_root, *cur_root;
	struct cmp_run base, cur;
	struct cmp_result result;
	struct cmp_options opts;
};

static void compare_pair(struct pair *p, cJSON *base, cJSON *cur)
{
	p->base_root = base;
	p->cur_root = cur;
	cr_assert_eq(cmp_run_load(&p->base, "base.json", base, err, sizeof err), 0, "%s", err);
	cr_assert_eq(cmp_run_load(&p->cur, "cur.json", cur, err, sizeof err), 0, "%s", err);
	cr_assert_eq(cmp_compare(&p->base, &p->cur, &p->opts, &p->result), 0);
}

static void release_pair(struct pair *p)
{
	cmp_result_release(&p->result);
	cmp_run_release(&p->base);
	cmp_run_release(&p->cur);
	cJSON_Delete(p->base_root);
	cJSON_Delete(p->cur_root);
}

/* summary.yardstick with these burst medians; record i gets yardstick_burst i. */
static void add_yardstick(cJSON *report, const double *bursts, int n)
{
	cJSON *summary = cJSON_AddObjectToObject(report, "summary");
	cJSON *y = cJSON_AddObjectToObject(summary, "yardstick");
	cJSON *a = cJSON_AddArrayToObject(y, "samples_us");
	int i = 0;

	cJSON_AddStringToObject(y, "algorithm", "mpi");
	for (int k = 0; k < n; k++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(bursts[k]));
	for (cJSON *rec = cJSON_GetObjectItem(report, "results")->child; rec; rec = rec->next, i++)
		cJSON_AddNumberToObject(rec, "yardstick_burst", i < n ? i : n - 1);
}

/* Two points measured in this order: a (1 KiB) then b (64 KiB), tight samples unless spread. */
static cJSON *two_points(double factor_a, double factor_b, double spread, unsigned seed)
{
	cJSON *r = fx_report("allreduce", 2, 1);

	fx_measured(r, "ring", 1024, 20.0 * factor_a, spread, 200, seed);
	fx_measured(r, "ring", 65536, 80.0 * factor_b, spread, 200, seed + 1);
	return r;
}

static const struct cmp_row *row_of(const struct pair *p, double bytes)
{
	for (size_t i = 0; i < p->result.nrows; i++)
		if (p->result.rows[i].base && p->result.rows[i].base->bytes == (int64_t)bytes)
			return &p->result.rows[i];
	cr_assert_fail("no row of %g bytes", bytes);
	return NULL;
}

Test(compare_noise, iqr_spread_is_the_middle_half)
{
	const double x[] = {10, 10, 11, 12, 12, 13, 100, 1000};
	const double bad[] = {10, 0, 11, 12};

	/* p25 = 10.75, p75 = 34.75 (type 7) */
	cr_assert_float_eq(stats_iqr_spread_pct(x, 8), (34.75 / 10.75 - 1) * 100, 1e-9);
	cr_assert(isnan(stats_iqr_spread_pct(x, 3)), "p25 and p75 need 4 values");
	cr_assert(isnan(stats_iqr_spread_pct(bad, 4)), "a time of 0 has no ratio");
}

Test(compare_noise, wide_own_spread_is_untestable_not_unchanged)
{
	struct pair p = {0};

	cmp_options_init(&p.opts);
	/* +-30% uniform: the middle half spans about 35%, wider than 10% */
	compare_pair(&p, two_points(1, 1, 0.3, 1), two_points(1.05, 1, 0.3, 11));
	const struct cmp_row *r = row_of(&p, 1024);
	cr_assert_eq(r->verdict, CMP_UNTESTABLE);
	cr_assert_gt(r->spread_pct, 30);
	cr_assert(isnan(r->yardstick_pct), "no yardstick in these reports");
	cr_assert_not_null(strstr(r->note, "its samples spread wider"), "%s", r->note);
	cr_assert_eq(p.result.count[CMP_UNTESTABLE], 2);
	cr_assert_eq(p.result.untestable_own, 2);
	cr_assert_eq(p.result.untestable_yardstick, 0);
	cr_assert_not(cmp_failed(&p.result));
	cr_assert_not(cmp_fails(&p.result, &p.opts), "untestable alone does not fail");
	cr_assert_str_eq(cmp_status(&p.result), "untestable");
	p.opts.untestable_fails = true;
	cr_assert(cmp_fails(&p.result, &p.opts), "--untestable fail");
	release_pair(&p);
}

Test(compare_noise, a_change_inside_threshold_and_noise_is_untestable)
{
	struct pair p = {0};

	cmp_options_init(&p.opts);
	/* the middle half spans about 35%: a point measured inside a disturbance moves by the
	   disturbance's size, so 30% slower (past the threshold, inside the bar) is not judged */
	compare_pair(&p, two_points(1, 1, 0.3, 1), two_points(1.3, 1.05, 0.3, 11));
	const struct cmp_row *r = row_of(&p, 1024);
	cr_assert_eq(r->verdict, CMP_UNTESTABLE, "%s", cmp_verdict_name(r->verdict));
	cr_assert_float_eq(r->bar_pct, 10 + r->spread_pct, 1e-9, "threshold + the own spread");
	cr_assert_eq(row_of(&p, 65536)->verdict, CMP_UNTESTABLE);
	cr_assert_not(cmp_failed(&p.result));
	cr_assert_str_eq(cmp_status(&p.result), "untestable");
	release_pair(&p);
}

/* twice as slow, measured with a spread of about 35%: past threshold and noise, a regression */
Test(compare_noise, a_change_past_threshold_and_noise_is_judged)
{
	struct pair p = {0};

	cmp_options_init(&p.opts);
	compare_pair(&p, two_points(1, 1, 0.3, 1), two_points(2, 1.05, 0.3, 11));
	const struct cmp_row *r = row_of(&p, 1024);
	cr_assert_gt(r->spread_pct, 30);
	cr_assert_lt(r->bar_pct, 100);
	cr_assert_eq(r->verdict, CMP_REGRESSION, "%s", cmp_verdict_name(r->verdict));
	cr_assert_eq(row_of(&p, 65536)->verdict, CMP_UNTESTABLE, "5%: inside the noise");
	cr_assert(cmp_failed(&p.result));
	release_pair(&p);
}

Test(compare_noise, wide_yardstick_around_a_point_is_untestable_there_only)
{
	struct pair p = {0};
	/* 10 quiet bursts; the burst after the second point ran at twice the quiet level */
	const double quiet[] = {10, 10.2, 10.1, 9.9, 10, 10.1, 10, 9.8, 10.2, 10};
	const double moved[] = {10, 10.2, 20, 9.9, 10, 10.1, 10, 9.8, 10.2, 10};
	cJSON *base = two_points(1, 1, 0.02, 1), *cur = two_points(1.3, 1.3, 0.02, 11);

	cmp_options_init(&p.opts);
	add_yardstick(base, quiet, 10);
	add_yardstick(cur, moved, 10);
	compare_pair(&p, base, cur);
	/* the first point sits between bursts 0 and 1: quiet, a 30% slowdown regresses */
	cr_assert_eq(row_of(&p, 1024)->verdict, CMP_REGRESSION);
	cr_assert_lt(row_of(&p, 1024)->yardstick_pct, 5);
	/* the second between bursts 1 and 2: the machine moved by 100% there */
	const struct cmp_row *r = row_of(&p, 65536);
	cr_assert_eq(r->verdict, CMP_UNTESTABLE);
	cr_assert_gt(r->yardstick_pct, 90);
	cr_assert_lt(r->spread_pct, 5, "its own samples are tight");
	cr_assert_not_null(strstr(r->note, "yardstick"), "%s", r->note);
	cr_assert_eq(p.result.untestable_yardstick, 1);
	cr_assert_float_eq(p.cur.yardstick_spread_pct, stats_iqr_spread_pct(moved, 10), 1e-12);
	release_pair(&p);
}

Test(compare_noise, the_baselines_yardstick_counts_too)
{
	struct pair p = {0};
	const double moved[] = {25, 10, 10, 10, 10, 10, 10, 10, 10, 10};
	cJSON *base = two_points(1, 1, 0.02, 1), *cur = two_points(1.3, 1, 0.02, 11);

	cmp_options_init(&p.opts);
	add_yardstick(base, moved, 10);
	compare_pair(&p, base, cur);
	cr_assert_eq(row_of(&p, 1024)->verdict, CMP_UNTESTABLE, "the baseline's burst before it");
	cr_assert_gt(row_of(&p, 1024)->yardstick_pct, 100);
	cr_assert(isnan(row_of(&p, 1024)->cur->yardstick_pct), "the current run has none");
	release_pair(&p);
}

Test(compare_noise, a_small_yardstick_widens_the_bar)
{
	struct pair p = {0}, q = {0};
	/* the bursts around the first point 8% above the quiet level: within 10% */
	const double bursts[] = {10.8, 10, 10, 10, 10, 10, 10, 10, 10, 10};
	cJSON *cur = two_points(1.15, 1, 0.02, 11);

	cmp_options_init(&p.opts);
	cmp_options_init(&q.opts);
	compare_pair(&q, two_points(1, 1, 0.02, 1), cJSON_Duplicate(cur, 1));
	cr_assert_eq(row_of(&q, 1024)->verdict, CMP_REGRESSION, "15% without a yardstick");
	add_yardstick(cur, bursts, 10);
	compare_pair(&p, two_points(1, 1, 0.02, 1), cur);
	const struct cmp_row *r = row_of(&p, 1024);
	cr_assert_float_eq(r->bar_pct, 18, 1e-9);
	cr_assert_eq(r->verdict, CMP_NOT_SIGNIFICANT, "15%% is within 10%% + the yardstick's 8%%");
	cr_assert_not_null(strstr(r->note, "yardstick"), "%s", r->note);
	cr_assert_not(cmp_failed(&p.result));
	release_pair(&p);
	release_pair(&q);
}

Test(compare_noise, old_reports_without_a_yardstick_still_compare)
{
	struct pair p = {0}, q = {0};
	const double bursts[] = {10, 10, 10, 10};
	cJSON *cur = two_points(1.3, 1, 0.02, 11);

	cmp_options_init(&p.opts);
	cmp_options_init(&q.opts);
	compare_pair(&p, two_points(1, 1, 0.02, 1), two_points(1.3, 1, 0.02, 11));
	cr_assert_eq(p.base.nyardstick, 0);
	cr_assert(isnan(p.base.yardstick_spread_pct));
	cr_assert_eq(row_of(&p, 1024)->verdict, CMP_REGRESSION);
	cr_assert_eq(row_of(&p, 65536)->verdict, CMP_UNCHANGED);
	cr_assert_str_eq(cmp_status(&p.result), "regression");
	/* an old baseline against a new run with a quiet yardstick: the same verdicts */
	add_yardstick(cur, bursts, 4);
	compare_pair(&q, two_points(1, 1, 0.02, 1), cur);
	cr_assert_eq(row_of(&q, 1024)->verdict, CMP_REGRESSION);
	cr_assert_eq(row_of(&q, 65536)->verdict, CMP_UNCHANGED);
	cr_assert_float_eq(row_of(&q, 1024)->yardstick_pct, 0, 1e-12);
	release_pair(&p);
	release_pair(&q);
}

Test(compare_noise, a_burst_index_that_names_no_burst_is_refused)
{
	struct cmp_run run;
	const double bursts[] = {10, 10};
	cJSON *r = two_points(1, 1, 0.02, 1);

	add_yardstick(r, bursts, 2);
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "results"), 1),
	                          "yardstick_burst", cJSON_CreateNumber(2));
	cr_assert_eq(cmp_run_load(&run, "r.json", r, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "results[1].yardstick_burst 2 names no burst"), "%s", err);
	cJSON_Delete(r);
}

static char *printed(const struct pair *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	cr_assert_eq(cmp_print(f, CMP_FORMAT_TABLE, &p->base, &p->cur, &p->result, &p->opts), 0);
	fclose(f);
	return text;
}

Test(compare_noise, text_and_json_say_untestable)
{
	struct pair p = {0};
	cJSON *root = cJSON_CreateObject(), *summary, *first;
	char *text;

	cmp_options_init(&p.opts);
	compare_pair(&p, two_points(1, 1, 0.3, 1), two_points(1.05, 1, 0.3, 11));
	text = printed(&p);
	cr_assert_not_null(strstr(text, "\nuntestable      ring 1024 B float32 sum 2 ranks"), "%s",
	                   text);
	cr_assert_not_null(strstr(text, "# untestable: 0 regression, 2 untestable"), "%s", text);
	cr_assert_not_null(strstr(text, "the baseline has no yardstick"), "%s", text);
	cr_assert_not_null(cmp_to_json(root, &p.base, &p.cur, &p.result, &p.opts));
	summary = cJSON_GetObjectItem(root, "summary");
	cr_assert_str_eq(cJSON_GetObjectItem(summary, "verdict")->valuestring, "untestable");
	cr_assert_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(summary, "counts"), "untestable")->valuedouble,
	    2);
	cr_assert_eq(cJSON_GetObjectItem(summary, "untestable_by_spread")->valuedouble, 2);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(summary, "baseline_yardstick_spread_pct")));
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
	cr_assert_str_eq(cJSON_GetObjectItem(first, "verdict")->valuestring, "untestable");
	cr_assert_gt(cJSON_GetObjectItem(first, "noise_pct")->valuedouble, 30);
	cr_assert_float_eq(cJSON_GetObjectItem(first, "bar_pct")->valuedouble,
	                   10 + cJSON_GetObjectItem(first, "noise_pct")->valuedouble, 1e-9,
	                   "untestable: the bar its change did not clear, threshold + noise");
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(first, "current_yardstick_pct")));
	free(text);
	cJSON_Delete(root);
	release_pair(&p);
}
