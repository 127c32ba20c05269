/*
 * trend on synthetic series of reports: the step at the fifth of eight is
 * named with its size, noise is steady, the reports are put in time order,
 * mixed setups are refused, the context at a step is listed, and the JSON
 * and the page carry it all.
 */
#include "reports/render/html.h"
#include "report_fixtures.h"
#include "reports/compare/trend_series.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS_MAX 12

static char err[1024];

struct series {
	cJSON *roots[RUNS_MAX];
	struct cmp_run runs[RUNS_MAX];
	size_t n;
	struct trend_options opts;
	struct trend_result result;
};

/*
 * Report k (0-based) of a series: ring, tree and mpi at 1 KiB and 64 KiB,
 * 30 samples spread +-2%; "ring 65536" scaled by factor from report step_at
 * on. Started on day k + 1.
 */
static cJSON *report(size_t k, size_t step_at, double factor, int ranks)
{
	static const char *const algos[] = {"ring", "tree", "mpi"};
	static const double sizes[] = {1024, 65536};
	cJSON *root = fx_report("allreduce", ranks, 1);
	char when[64];

	/* a real date for every k (started_utc is read as a time): 28 days a month */
	snprintf(when, sizeof when, "2026-%02zu-%02zuT00:00:00Z", k / 28 + 1, k % 28 + 1);
	cJSON_AddStringToObject(cJSON_GetObjectItem(root, "context"), "started_utc", when);
	for (size_t a = 0; a < 3; a++)
		for (size_t s = 0; s < 2; s++) {
			bool victim = a == 0 && s == 1 && k >= step_at;
			fx_measured(root, algos[a], sizes[s],
			            (10 + sizes[s] / 1000) * (victim ? factor : 1), 0.02, 30,
			            (unsigned)(k * 10 + a * 2 + s + 1));
		}
	return root;
}

static void load(struct series *s, size_t i, cJSON *root)
{
	char *path = malloc(16);

	snprintf(path, 16, "r%zu.json", i + 1);
	s->roots[i] = root;
	cr_assert_eq(cmp_run_load(&s->runs[i], path, root, err, sizeof err), 0, "%s", err);
}

static void analyze(struct series *s)
{
	if (s->opts.threshold_pct == 0)
		trend_options_init(&s->opts);
	cr_assert_eq(trend_sort_runs(s->runs, s->n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(trend_check_setup(s->runs, s->n, err, sizeof err), 0, "%s", err);
	cr_assert_eq(trend_analyze(s->runs, s->n, &s->opts, &s->result), 0);
}

static void make(struct series *s, size_t n, size_t step_at, double factor)
{
	s->n = n;
	for (size_t i = 0; i < n; i++)
		load(s, i, report(i, step_at, factor, 4));
	analyze(s);
}

static void release(struct series *s)
{
	trend_result_release(&s->result);
	for (size_t i = 0; i < s->n; i++) {
		free((char *)s->runs[i].path);
		cmp_run_release(&s->runs[i]);
		cJSON_Delete(s->roots[i]);
	}
}

static const struct trend_series *find(const struct trend_result *r, const char *label)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (strcmp(r->series[i].label, label) == 0)
			return &r->series[i];
	cr_assert_fail("no series '%s'", label);
	return NULL;
}

Test(trend, step_at_the_fifth_of_eight_is_named)
{
	struct series s = {0};
	const struct trend_series *ring;

	make(&s, 8, 4, 1.3);
	cr_assert_eq(s.result.nseries, 6);
	ring = &s.result.series[0];
	cr_assert_str_eq(ring->label, "ring 65536 B float32 sum 4 ranks");
	cr_assert_eq(ring->verdict, TREND_REGRESSION);
	cr_assert_eq(ring->nsteps, 1);
	cr_assert_eq(ring->steps[0].run, 4);
	cr_assert_str_eq(s.result.runs[ring->steps[0].run].path, "r5.json");
	cr_assert_float_eq(ring->steps[0].change_pct, 30, 3);
	cr_assert_float_eq(ring->level[0], ring->steps[0].before, 0);
	cr_assert_float_eq(ring->level[7], ring->steps[0].after, 0);
	for (size_t i = 1; i < s.result.nseries; i++)
		cr_assert_eq(s.result.series[i].verdict, TREND_STEADY, "%s",
		             s.result.series[i].label);
	cr_assert(trend_failed(&s.result));
	cr_assert_eq(s.result.nchanges, 1);
	cr_assert_eq(s.result.changes[0].run, 4);
	release(&s);
}

/* summary.yardstick of report root: quiet bursts, one of them (after record 1) at 2.5x. */
static void disturbed_yardstick(cJSON *root)
{
	const double bursts[] = {10, 10, 25, 10, 10, 10, 10};
	cJSON *y = cJSON_AddObjectToObject(cJSON_AddObjectToObject(root, "summary"), "yardstick");
	cJSON *a = cJSON_AddArrayToObject(y, "samples_us");
	int i = 0;

	for (size_t k = 0; k < sizeof bursts / sizeof bursts[0]; k++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(bursts[k]));
	for (cJSON *rec = cJSON_GetObjectItem(root, "results")->child; rec; rec = rec->next)
		cJSON_AddNumberToObject(rec, "yardstick_burst", i++);
}

Test(trend, a_step_inside_the_noise_is_untestable)
{
	struct series s = {0};
	const struct trend_series *ring;

	/* as above, but the reports after the step measured ring 65536 (record 1) while the
	   yardstick around it ran 2.5x slower than its quiet level: issue 29 */
	s.n = 8;
	for (size_t i = 0; i < 8; i++) {
		cJSON *root = report(i, 4, 1.3, 4);
		if (i >= 4)
			disturbed_yardstick(root);
		load(&s, i, root);
	}
	analyze(&s);
	ring = find(&s.result, "ring 65536 B float32 sum 4 ranks");
	cr_assert_eq(ring->nsteps, 1);
	cr_assert_eq(ring->verdict, TREND_UNTESTABLE);
	cr_assert_lt(ring->noise_before_pct, 10, "its own samples spread 2%%");
	cr_assert_float_eq(ring->noise_after_pct, 150, 1e-9);
	cr_assert_eq(s.result.count[TREND_UNTESTABLE], 1);
	cr_assert_not(trend_failed(&s.result));
	cr_assert_str_eq(trend_status(&s.result), "untestable");
	/* the first point sits between quiet bursts 0 and 1: steady, with its noise known */
	cr_assert_eq(find(&s.result, "ring 1024 B float32 sum 4 ranks")->verdict, TREND_STEADY);
	release(&s);
}

Test(trend, improvement_and_small_shift_do_not_fail)
{
	struct series faster = {0}, shifted = {0};

	make(&faster, 8, 4, 0.7);
	cr_assert_eq(faster.result.series[0].verdict, TREND_IMPROVED);
	cr_assert_not(trend_failed(&faster.result));
	make(&shifted, 10, 5, 1.06);
	cr_assert_eq(find(&shifted.result, "ring 65536 B float32 sum 4 ranks")->verdict,
	             TREND_SHIFTED);
	cr_assert_not(trend_failed(&shifted.result));
	release(&faster);
	release(&shifted);
}

Test(trend, noise_alone_is_steady)
{
	size_t stepped = 0, points = 0;

	for (size_t t = 0; t < 6; t++) {
		struct series s = {0};
		s.n = 10;
		for (size_t i = 0; i < s.n; i++)
			load(&s, i, report(i + 20 * t, 99, 1, 4));
		analyze(&s);
		for (size_t i = 0; i < s.result.nseries; i++) {
			stepped += s.result.series[i].nsteps > 0;
			cr_assert_neq(s.result.series[i].verdict, TREND_REGRESSION);
		}
		points += s.result.nseries;
		release(&s);
	}
	cr_assert_leq(stepped, points / 8, "%zu of %zu noise series stepped", stepped, points);
}

Test(trend, reports_are_put_in_time_order)
{
	struct series s = {0};
	const size_t order[] = {6, 2, 0, 7, 4, 1, 5, 3};

	s.n = 8;
	for (size_t i = 0; i < 8; i++)
		load(&s, i, report(order[i], 4, 1.3, 4));
	analyze(&s);
	for (size_t i = 1; i < 8; i++)
		cr_assert_lt(strcmp(s.runs[i - 1].started_utc, s.runs[i].started_utc), 0);
	cr_assert_eq(s.result.series[0].steps[0].run, 4);
	cr_assert_str_eq(s.runs[4].started_utc, "2026-01-05T00:00:00Z");
	release(&s);
}

Test(trend, mixed_setups_and_undated_reports_are_refused)
{
	struct series s = {0};
	cJSON *links = fx_report("links", 4, 1), *undated = fx_report("allreduce", 4, 1);

	s.n = 3;
	load(&s, 0, report(0, 9, 1, 4));
	load(&s, 1, report(1, 9, 1, 2));
	load(&s, 2, report(2, 9, 1, 4));
	cr_assert_eq(trend_check_setup(s.runs, 3, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "differ in ranks 4 vs 2"), "%s", err);
	cr_assert_not_null(strstr(err, "r2.json"), "%s", err);
	cmp_run_release(&s.runs[1]);
	cJSON_Delete(s.roots[1]);
	cJSON_AddStringToObject(cJSON_GetObjectItem(links, "context"), "started_utc", "x");
	free((char *)s.runs[1].path);
	load(&s, 1, links);
	cr_assert_eq(trend_check_setup(s.runs, 3, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "different commands"), "%s", err);
	cmp_run_release(&s.runs[1]);
	cJSON_Delete(s.roots[1]);
	free((char *)s.runs[1].path);
	load(&s, 1, undated);
	cr_assert_eq(trend_sort_runs(s.runs, 3, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "r2.json': context.started_utc is missing"), "%s", err);
	release(&s);
}

Test(trend, context_at_the_step_is_listed)
{
	struct series s = {0};
	char text[600];

	s.n = 8;
	for (size_t i = 0; i < 8; i++) {
		cJSON *root = report(i, 4, 1.3, 4);
		cJSON *mpi = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "context"), "mpi");
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(mpi, "cvars"),
		                        "coll_tuned_allreduce_algorithm", i >= 4 ? 4 : 0);
		load(&s, i, root);
	}
	analyze(&s);
	cr_assert_eq(s.result.nchanges, 1);
	cr_assert_eq(s.result.changes[0].ndiffs, 1);
	cmp_diff_text(&s.result.changes[0].diffs[0], text, sizeof text);
	cr_assert_str_eq(text, "coll_tuned_allreduce_algorithm: 0 -> 4");
	release(&s);
}

Test(trend, too_few_values_are_not_judged)
{
	struct series s = {0};

	s.n = 3;
	for (size_t i = 0; i < 3; i++)
		load(&s, i, report(i, 1, 2.0, 4));
	analyze(&s);
	for (size_t i = 0; i < s.result.nseries; i++)
		cr_assert_eq(s.result.series[i].verdict, TREND_TOO_FEW);
	cr_assert_not(trend_failed(&s.result));
	release(&s);
}

/* Renders into a string; the caller frees it. */
static char *printed(const struct series *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(trend_print(f, &s->result, &s->opts), 0);
	fclose(f);
	return text;
}

Test(trend, text_json_and_page)
{
	struct series s = {0};
	cJSON *root;
	const cJSON *first, *step;
	char *text;
	struct html_buf b;
	struct html_input in;

	make(&s, 8, 4, 1.3);
	text = printed(&s);
	cr_assert_not_null(strstr(text, "\nregression      ring 65536 B float32 sum 4 ranks"), "%s",
	                   text);
	cr_assert_not_null(
	    strstr(text, "#   step at report 5 of 8 'r5.json' (2026-01-05T00:00:00Z)"), "%s", text);
	cr_assert_not_null(strstr(text, "# regression: 1 regression, 0 untestable, 0 improved"), "%s", text);
	free(text);
	root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "schema_version", 1);
	cJSON_AddStringToObject(root, "command", "trend");
	cr_assert_not_null(trend_to_json(root, &s.result, &s.opts));
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
	cr_assert_str_eq(cJSON_GetObjectItem(first, "verdict")->valuestring, "regression");
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(first, "p50_us")), 8);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(first, "level_p50_us")), 8);
	step = cJSON_GetArrayItem(cJSON_GetObjectItem(first, "steps"), 0);
	cr_assert_eq(cJSON_GetObjectItem(step, "report_number")->valueint, 5);
	cr_assert_str_eq(cJSON_GetObjectItem(step, "report")->valuestring, "r5.json");
	cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(step, "before_p50_us")));
	cr_assert_str_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(root, "summary"), "verdict")->valuestring,
	    "regression");
	cr_assert_eq(
	    cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "config"), "reports")),
	    8);
	html_buf_init(&b);
	in = (struct html_input){"trend.json", root};
	cr_assert_eq(html_render_page(&b, &in, 1, "test", err, sizeof err), 0, "%s", err);
	cr_assert_not_null(strstr(b.data, "Where points stepped"));
	cr_assert_not_null(strstr(b.data, "ring 65536 B float32 sum 4 ranks: regression"));
	cr_assert_not_null(strstr(b.data, "<svg"));
	cr_assert_null(strstr(b.data, "does not know how to chart"));
	html_buf_release(&b);
	cJSON_Delete(root);
	release(&s);
}

/* started_utc is read as a time, not compared as text: anything else is refused. */
Test(trend, parse_utc)
{
	double t = -1;
	cr_assert_eq(trend_parse_utc("1970-01-01T00:00:00Z", &t), 0);
	cr_expect_eq(t, 0);
	cr_assert_eq(trend_parse_utc("2026-02-01T03:00:00Z", &t), 0);
	cr_expect_eq(t, 1769914800);
	cr_assert_eq(trend_parse_utc("2000-02-29T23:59:59.5Z", &t), 0);
	cr_expect_eq(t, 951868799.5);
	const char *bad[] = {"yesterday", "", "2026-02-01", "2026-02-01T03:00:00", "2026-13-01T00:00:00Z",
	                     "2026-02-01T03:00:00+01:00", "2026-02-01T03:00:00.Z", "2026-2-1T3:0:0Z",
	                     "2026-02-01T03:00:00Zjunk"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_expect_eq(trend_parse_utc(bad[i], &t), -1, "%s", bad[i]);
}
