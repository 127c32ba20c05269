/*
 * collscope compare: a report against a baseline, for CI. Reads both reports
 * defensively (every unreadable input exits 2 naming the file and the
 * problem), refuses runs that differ in rank count, host count, dtype or op
 * unless --allow-mismatch, then prints the points worst first and exits 1
 * on any regression (or, with --untestable fail, on an untestable point). The statistics live in reports/compare/compare_points.c.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "reports/compare/compare_points.h"
#include "reports/io/report_read.h"
#include "cmd/small_opts.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

/*
 * Reads and loads one report; EXIT_OK, or after naming the file and the
 * problem EXIT_USAGE (bad input) or EXIT_RUNTIME (out of memory).
 */
static int load(const struct cmd_ctx *ctx, const char *path, cJSON **root, struct cmp_run *run)
{
	char err[1024];
	int rc = report_load(path, root, err, sizeof err);

	if (rc != REPORT_OK || cmp_run_load(run, path, *root, err, sizeof err) != 0) {
		cmd_error(ctx, "compare: %s", err);
		return rc == REPORT_EIO ? EXIT_RUNTIME : EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Same command always; same ranks, hosts, dtype and op unless allowed. */
static int check_comparable(const struct cmd_ctx *ctx, const struct compare_opts *o,
                            const struct cmp_run *base, const struct cmp_run *cur)
{
	char why[1024];

	if (strcmp(base->command, cur->command) != 0) {
		cmd_error(ctx, "compare: cannot compare the %s report '%s' with the %s report '%s'",
		          base->command, base->path, cur->command, cur->path);
		return EXIT_USAGE;
	}
	if (cmp_metric_fits(o->metric, base->kind, why, sizeof why) != 0) {
		cmd_error(ctx, "compare: %s", why);
		return EXIT_USAGE;
	}
	if (cmp_mismatch(base, cur, why, sizeof why) == 0)
		return EXIT_OK;
	if (!o->allow_mismatch) {
		cmd_error(ctx,
		          "compare: the runs differ in %s (baseline '%s' vs current '%s'); "
		          "use --allow-mismatch to compare them anyway",
		          why, base->path, cur->path);
		return EXIT_USAGE;
	}
	if (!o->out.quiet)
		fprintf(stderr, "collscope: warning: compare: the runs differ in %s\n", why);
	return EXIT_OK;
}

/* config.runs: every report, in the order given (--paired: pair by pair). */
static bool add_runs(cJSON *root, const struct compare_opts *o)
{
	cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
	cJSON *runs = cfg ? cJSON_AddArrayToObject(cfg, "runs") : NULL;
	for (int i = 0; runs && i < o->files.count; i++)
		if (!cJSON_AddItemToArray(runs, cJSON_CreateString(o->files.items[i])))
			return false;
	return runs != NULL;
}

static int write_json(const struct cmd_ctx *ctx, const struct compare_opts *o,
                      const struct cmp_run *base, const struct cmp_run *cur,
                      const struct cmp_result *r)
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
	root = run_report_new("compare", &c);
	if (!root || !cmp_to_json(root, base, cur, r, &o->cmp) || !add_runs(root, o)) {
		cmd_error(ctx, "compare: out of memory while building the JSON report");
		goto out;
	}
	rc = run_report_write_or_print(ctx, "compare", o->out.output, root, o->out.force);
out:
	cJSON_Delete(root);
	report_context_release(&c);
	return rc;
}

int cmd_compare(void *opts, struct cmd_ctx *ctx)
{
	const struct compare_opts *o = opts;
	int n = o->files.count;
	struct cmp_run *runs = calloc((size_t)n, sizeof *runs);
	cJSON **roots = calloc((size_t)n, sizeof *roots);
	struct cmp_result result = {0};
	/* -o -: the JSON on standard output, alone (the table would break it) */
	bool to_stdout = o->out.output && strcmp(o->out.output, "-") == 0;
	int rc = to_stdout ? EXIT_OK : run_check_output(ctx, "compare", &o->out);

	if (!runs || !roots) {
		cmd_error(ctx, "compare: out of memory");
		rc = EXIT_RUNTIME;
	}
	for (int i = 0; i < n && rc == EXIT_OK; i++)
		rc = load(ctx, o->files.items[i], &roots[i], &runs[i]);
	/* every run against the first baseline: the pairs must compare with each other too */
	for (int i = 1; i < n && rc == EXIT_OK; i++)
		rc = check_comparable(ctx, o, &runs[0], &runs[i]);
	if (rc != EXIT_OK)
		goto out;
	rc = EXIT_RUNTIME;
	if ((o->cmp.pairs ? cmp_compare_paired(runs, o->cmp.pairs, &o->cmp, &result)
	                  : cmp_compare(&runs[0], &runs[1], &o->cmp, &result)) != 0) {
		cmd_error(ctx, "compare: out of memory");
		goto out;
	}
	if (!o->out.quiet && !to_stdout && cmp_print(stdout, (enum cmp_format)o->format, &runs[0], &runs[1], &result, &o->cmp) != 0) {
		cmd_error(ctx, "compare: cannot write to stdout");
		goto out;
	}
	rc = o->out.output ? write_json(ctx, o, &runs[0], &runs[1], &result) : EXIT_OK;
	if (rc == EXIT_OK && cmp_fails(&result, &o->cmp))
		rc = EXIT_CHECK_FAILED;
out:
	cmp_result_release(&result);
	for (int i = 0; runs && roots && i < n; i++) {
		cmp_run_release(&runs[i]);
		cJSON_Delete(roots[i]);
	}
	free(runs);
	free(roots);
	return rc;
}
