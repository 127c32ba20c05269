/*
 * collscope trend: reports of one setup in time order; where each point's
 * metric stepped, in which report and by how much, and what differs in the
 * context there. Reads every report as compare does (exit 2 naming the file
 * and the problem), refuses reports of different commands or setups, prints
 * the points worst first and exits 1 when some point's last step is a
 * regression beyond --threshold. The analysis lives in reports/compare/trend_series.c.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "reports/io/report_read.h"
#include "cmd/small_opts.h"
#include "reports/compare/trend_series.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

/* Every report read and loaded, then in time order and checked for one setup; EXIT_OK or
 * EXIT_USAGE. */
static int load_all(const struct cmd_ctx *ctx, const char *metric, char *const *paths, int n,
                    cJSON **roots, struct cmp_run *runs)
{
	char err[1024];

	for (int i = 0; i < n; i++) {
		roots[i] = report_read(paths[i], err, sizeof err);
		if (!roots[i] || cmp_run_load(&runs[i], paths[i], roots[i], err, sizeof err) != 0) {
			cmd_error(ctx, "trend: %s", err);
			return EXIT_USAGE;
		}
	}
	if (trend_sort_runs(runs, (size_t)n, err, sizeof err) != 0 ||
	    trend_check_setup(runs, (size_t)n, err, sizeof err) != 0 ||
	    cmp_metric_fits(metric, runs[0].kind, err, sizeof err) != 0) {
		cmd_error(ctx, "trend: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int write_json(const struct cmd_ctx *ctx, const struct trend_opts *o,
                      const struct trend_result *r)
{
	struct report_context c;
	cJSON *root = NULL;
	int rc = EXIT_RUNTIME;

	report_context_init(&c);
	c.tool_version = COLLSCOPE_VERSION;
	c.tool_git = COLLSCOPE_GIT;
	c.argc = ctx->argc_all;
	c.argv = ctx->argv_all;
	report_utc_now(c.started_utc, sizeof c.started_utc);
	report_utc_now(c.finished_utc, sizeof c.finished_utc);
	root = run_report_new("trend", &c);
	if (!root || !trend_to_json(root, r, &o->trend)) {
		cmd_error(ctx, "trend: out of memory while building the JSON report");
		goto out;
	}
	rc = run_report_write_or_print(ctx, "trend", o->out.output, root, o->out.force);
out:
	cJSON_Delete(root);
	report_context_release(&c);
	return rc;
}

int cmd_trend(void *opts, struct cmd_ctx *ctx)
{
	const struct trend_opts *o = opts;
	struct trend_result result = {0};
	int n = o->files.count;
	struct cmp_run *runs = calloc((size_t)n, sizeof *runs);
	cJSON **roots = calloc((size_t)n, sizeof *roots);
	/* -o -: the JSON on standard output, alone (the table would break it) */
	bool to_stdout = o->out.output && strcmp(o->out.output, "-") == 0;
	int rc = to_stdout ? EXIT_OK : run_check_output(ctx, "trend", &o->out);

	if (rc == EXIT_OK)
		rc = runs && roots ? load_all(ctx, o->metric, o->files.items, n, roots, runs) : EXIT_RUNTIME;
	if (rc != EXIT_OK)
		goto out;
	rc = EXIT_RUNTIME;
	if (trend_analyze(runs, (size_t)n, &o->trend, &result) != 0) {
		cmd_error(ctx, "trend: out of memory");
		goto out;
	}
	if (!o->out.quiet && !to_stdout && trend_print(stdout, &result, &o->trend) != 0) {
		cmd_error(ctx, "trend: cannot write to stdout");
		goto out;
	}
	rc = o->out.output ? write_json(ctx, o, &result) : EXIT_OK;
	if (rc == EXIT_OK && trend_failed(&result))
		rc = EXIT_CHECK_FAILED;
out:
	trend_result_release(&result);
	for (int i = 0; runs && roots && i < n; i++) {
		cmp_run_release(&runs[i]);
		cJSON_Delete(roots[i]);
	}
	free(runs);
	free(roots);
	return rc;
}
