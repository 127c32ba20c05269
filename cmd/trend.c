/*
 * collscope trend: reports of one setup in time order; where each point's
 * metric stepped, in which report and by how much, and what differs in the
 * context there. Reads every report as compare does (exit 2 naming the file
 * and the problem), refuses reports of different commands or setups, prints
 * the points worst first and exits 1 when some point's last step is a
 * regression beyond --threshold. The analysis lives in reports/trend.c.
 */
#include <mpi.h>

#include "cmd.h"
#include "parse.h"
#include "report_read.h"
#include "trend.h"
#include "version.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char cmd_trend_usage[] =
    "usage: collscope trend [options] REPORT.json...\n\n"
    "Follows reports of one setup (the same command, ranks, hosts, dtype and op) in\n"
    "time order (context.started_utc) and finds, for every point, where its metric\n"
    "stepped: change points of the series by E-divisive means (energy distance of\n"
    "the logarithms, binary segmentation, a permutation test at --alpha; at least 2\n"
    "reports on each side of a step). For each step: the report where it happened,\n"
    "the levels before and after (medians) and the change, and what differs in the\n"
    "context from the report before. A point regresses when its last step is worse\n"
    "than --threshold. Needs at least 3 reports; runs without mpirun.\n\n"
    "      --metric NAME         p50 (default), p99 or busbw (links: latency_p50,\n"
    "                            latency_p99, bandwidth)\n"
    "      --threshold PCT       a last step worse than this fails (default 10)\n"
    "      --alpha P             significance of a step, 0 < P < 1 (default 0.05)\n"
    "      --permutations N      of the test, 19..100000 (default 499)\n"
    "  -o, --output FILE         the trend as JSON (atomically; `collscope report`\n"
    "                            charts it)\n"
    "      --force               overwrite an existing output file\n"
    "  -q, --quiet               no table on stdout\n"
    "  -h, --help                this text\n\n"
    "exit codes: 0 no regression, 1 a point's last step is a regression, 2 bad usage,\n"
    "            a report that cannot be read, or reports of different setups, 5 I/O error\n";

struct trend_opts {
	struct trend_options trend;
	bool force, quiet;
	const char *output;
	int first, count; /* the reports in argv */
};

static const struct option longopts[] = {
    {"metric", required_argument, NULL, 'M'}, {"threshold", required_argument, NULL, 't'},
    {"alpha", required_argument, NULL, 'A'},  {"permutations", required_argument, NULL, 'P'},
    {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'F'},
    {"quiet", no_argument, NULL, 'q'},        {0},
};

static int bad(const struct cmd_ctx *ctx, const char *opt, const char *value, const char *why)
{
	cmd_error(ctx, "trend: bad value '%s' for %s: %s", value, opt, why);
	return EXIT_USAGE;
}

/* One option; EXIT_OK, EXIT_USAGE after saying why, or -1 for an unknown one. */
static int set_option(const struct cmd_ctx *ctx, int c, const char *arg, struct trend_opts *o)
{
	const char *why = NULL;
	double v;

	switch (c) {
	case 'M':
		if (cmp_metric_parse(arg, &o->trend.metric) != 0)
			return bad(
			    ctx, "--metric", arg,
			    "expected p50, p99, busbw, latency_p50, latency_p99 or bandwidth");
		return EXIT_OK;
	case 't':
		if (parse_double(arg, 0, 1e6, &o->trend.threshold_pct, &why) != 0)
			return bad(ctx, "--threshold", arg, why);
		return EXIT_OK;
	case 'A':
		if (parse_double(arg, 0, 1, &o->trend.cp.alpha, &why) != 0 ||
		    o->trend.cp.alpha <= 0 || o->trend.cp.alpha >= 1)
			return bad(ctx, "--alpha", arg, why ? why : "not between 0 and 1");
		return EXIT_OK;
	case 'P':
		if (parse_double(arg, 19, 100000, &v, &why) != 0 || v != (double)(size_t)v)
			return bad(ctx, "--permutations", arg, why ? why : "not a whole number");
		o->trend.cp.permutations = (size_t)v;
		return EXIT_OK;
	case 'o': o->output = arg; return EXIT_OK;
	case 'F': o->force = true; return EXIT_OK;
	case 'q': o->quiet = true; return EXIT_OK;
	default: return -1;
	}
}

static int parse_args(const struct cmd_ctx *ctx, int argc, char **argv, struct trend_opts *o)
{
	char err[1024];
	int c, rc;

	memset(o, 0, sizeof *o);
	trend_options_init(&o->trend);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:q", longopts, NULL)) != -1) {
		rc = set_option(ctx, c, optarg, o);
		if (rc < 0)
			return cmd_usage_error(ctx, "trend", argc, argv);
		if (rc != EXIT_OK)
			return rc;
	}
	o->first = optind;
	o->count = argc - optind;
	if (o->count < TREND_MIN_REPORTS) {
		cmd_error(
		    ctx,
		    "trend: expected at least %d reports, got %d (see 'collscope trend --help')",
		    TREND_MIN_REPORTS, o->count);
		return EXIT_USAGE;
	}
	if (o->output && report_check_output_path(o->output, o->force, err, sizeof err) != 0) {
		cmd_error(ctx, "trend: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Every report read and loaded, then in time order and checked for one setup; EXIT_OK or
 * EXIT_USAGE. */
static int load_all(const struct cmd_ctx *ctx, char **paths, int n, cJSON **roots,
                    struct cmp_run *runs)
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
	    trend_check_setup(runs, (size_t)n, err, sizeof err) != 0) {
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
	root = cmd_report_new("trend", &c);
	if (!root || !trend_to_json(root, r, &o->trend)) {
		cmd_error(ctx, "trend: out of memory while building the JSON report");
		goto out;
	}
	rc = cmd_report_write(ctx, o->output, root, o->force);
out:
	cJSON_Delete(root);
	report_context_release(&c);
	return rc;
}

int cmd_trend(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct trend_opts o;
	struct trend_result result = {0};
	struct cmp_run *runs = NULL;
	cJSON **roots = NULL;
	int n = 0, rc = parse_args(ctx, argc, argv, &o);

	if (rc != EXIT_OK)
		return rc;
	n = o.count;
	runs = calloc((size_t)n, sizeof *runs);
	roots = calloc((size_t)n, sizeof *roots);
	rc = runs && roots ? load_all(ctx, argv + o.first, n, roots, runs) : EXIT_RUNTIME;
	if (rc != EXIT_OK)
		goto out;
	rc = EXIT_RUNTIME;
	if (trend_analyze(runs, (size_t)n, &o.trend, &result) != 0) {
		cmd_error(ctx, "trend: out of memory");
		goto out;
	}
	if (!o.quiet && trend_print(stdout, &result, &o.trend) != 0) {
		cmd_error(ctx, "trend: cannot write to stdout");
		goto out;
	}
	rc = o.output ? write_json(ctx, &o, &result) : EXIT_OK;
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
