/*
 * The fuzz target runs (fuzz.h): compare's and trend's inputs. One input
 * holds up to 8 reports, separated by a line "@@"; its first byte, when it
 * is not '{', picks the options (metric, correction, threshold). Each report
 * is read (report_load_text) and loaded as a run (cmp_run_load); then every
 * neighbouring pair is compared, and the runs in order form a trend.
 * Oracles: a refusal names its problem; compare's tables and trend's
 * printout hold nothing a terminal acts on.
 */
#include "fuzz.h"

#include "reports/compare/compare_points.h"
#include "reports/compare/trend_series.h"
#include "reports/io/report_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS_MAX = 8 };

/* What f wrote (print), checked for terminal controls. */
static void printed(const char *what, int (*print)(FILE *, const void *), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	print(f, arg);
	fclose(f);
	fuzz_terminal_text(text, len, what);
	free(text);
}

struct pair {
	const struct cmp_run *a, *b;
	const struct cmp_result *r;
	const struct cmp_options *o;
	enum cmp_format fmt;
};

static int print_pair(FILE *f, const void *arg)
{
	const struct pair *p = arg;
	return cmp_print(f, p->fmt, p->a, p->b, p->r, p->o);
}

static void compare_pair(const struct cmp_run *a, const struct cmp_run *b,
                         const struct cmp_options *o)
{
	struct cmp_result r;
	cJSON *out;

	if (cmp_compare(a, b, o, &r) != 0)
		return;
	for (int fmt = CMP_FORMAT_TABLE; fmt <= CMP_FORMAT_MARKDOWN; fmt++) {
		struct pair p = {a, b, &r, o, (enum cmp_format)fmt};
		printed("compare's table", print_pair, &p);
	}
	out = cJSON_CreateObject();
	if (out)
		cmp_to_json(out, a, b, &r, o);
	cJSON_Delete(out);
	cmp_result_release(&r);
}

struct trend_print_arg {
	const struct trend_result *r;
	const struct trend_options *o;
};

static int print_trend(FILE *f, const void *arg)
{
	const struct trend_print_arg *t = arg;
	return trend_print(f, t->r, t->o);
}

static void trend_of(struct cmp_run *runs, size_t n, const struct trend_options *o)
{
	char err[1024] = "";
	struct trend_result r = {0};
	cJSON *out;

	if (trend_sort_runs(runs, n, err, sizeof err) != 0 ||
	    trend_check_setup(runs, n, err, sizeof err) != 0) {
		fuzz_explained("trend's setup", err);
		return;
	}
	if (trend_analyze(runs, n, o, &r) != 0)
		return;
	struct trend_print_arg t = {&r, o};
	printed("trend's printout", print_trend, &t);
	out = cJSON_CreateObject();
	if (out)
		trend_to_json(out, &r, o);
	cJSON_Delete(out);
	trend_result_release(&r);
}

/* The options the first byte picks (a byte that may begin a report picks the defaults). */
static void options_of(uint8_t b, struct cmp_options *c, struct trend_options *t)
{
	static const double thresholds[] = {10, 0, 0.5, 50, 1000};

	cmp_options_init(c);
	trend_options_init(t);
	if (b == '{' || b == ' ' || b == '\n')
		return;
	c->gate = t->metric = (enum cmp_metric)(b % CMP_METRICS);
	c->correction = (enum cmp_correction)((b / CMP_METRICS) % 3);
	c->threshold_pct = t->threshold_pct = thresholds[(b / 9) % 5];
	c->untested_fails = b & 0x80;
}

int fuzz_runs(const uint8_t *data, size_t size)
{
	struct cmp_run runs[RUNS_MAX];
	cJSON *roots[RUNS_MAX] = {0};
	struct cmp_options co;
	struct trend_options to;
	char err[1024], *text = fuzz_strndup(data, size), *p, *sep;
	size_t n = 0;

	if (!text)
		return 0;
	options_of(size ? data[0] : '{', &co, &to);
	for (p = text + (size && data[0] != '{' ? 1 : 0); p && n < RUNS_MAX; p = sep) {
		sep = strstr(p, "\n@@\n");
		if (sep) {
			*sep = '\0';
			sep += 4;
		}
		err[0] = '\0';
		if (report_load_text("run.json", p, strlen(p), &roots[n], err, sizeof err) != REPORT_OK) {
			fuzz_explained("the reader", err);
			continue;
		}
		err[0] = '\0';
		if (cmp_run_load(&runs[n], "run.json", roots[n], err, sizeof err) != 0) {
			fuzz_explained("compare's loader", err);
			cJSON_Delete(roots[n]);
			roots[n] = NULL;
			continue;
		}
		n++;
	}
	for (size_t i = 0; i + 1 < n; i++)
		compare_pair(&runs[i], &runs[i + 1], &co);
	if (n >= 2)
		trend_of(runs, n, &to);
	for (size_t i = 0; i < n; i++) {
		cmp_run_release(&runs[i]);
		cJSON_Delete(roots[i]);
	}
	free(text);
	return 0;
}
