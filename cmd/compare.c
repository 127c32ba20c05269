/*
 * collscope compare: a report against a baseline, for CI. Reads both reports
 * defensively (every unreadable input exits 2 naming the file and the
 * problem), refuses runs that differ in rank count, host count, dtype or op
 * unless --allow-mismatch, then prints the points worst first and exits 1
 * on any regression. The statistics live in reports/compare.c.
 */
#include <mpi.h>

#include "cmd.h"
#include "compare.h"
#include "parse.h"
#include "report_read.h"
#include "version.h"

#include <getopt.h>
#include <string.h>

const char cmd_compare_usage[] =
    "usage: collscope compare [options] BASELINE.json CURRENT.json\n\n"
    "Compares a report with a baseline, point by point: allreduce and scale records\n"
    "by (algorithm, dtype, op, bytes, ranks), links records by ordered pair. For each\n"
    "point: the change of p50 time, p99 time and busbw as ratio and percent, and a\n"
    "two-sided Mann-Whitney U test of the raw samples. A point regresses only when\n"
    "the change of --metric is worse than --threshold AND the test finds a shift that\n"
    "way at --alpha (links: their ping-pongs for the latency metrics, their window\n"
    "times for bandwidth). With fewer than 9 samples a side the test has no\n"
    "verdict: the point is 'untested' and says so, and it does not fail\n"
    "unless --untested fail. Points of one run only are listed. Reports are read from\n"
    "regular files only; '-' is standard input. Runs without mpirun.\n\n"
    "      --threshold PCT       change that counts, in percent (default 10)\n"
    "      --alpha P             significance level, 0 < P < 1 (default 0.01)\n"
    "      --metric NAME         the gate: p50, p99 or busbw (links: latency_p50,\n"
    "                            latency_p99, bandwidth); default p50\n"
    "      --untested pass|fail  an untested point worse than --threshold: no failure\n"
    "                            (pass, the default) or a regression (fail)\n"
    "      --allow-mismatch      compare runs that differ in ranks, hosts, dtype or op\n"
    "      --format table|markdown  stdout format (markdown for a CI job summary)\n"
    "  -o, --output FILE         the comparison as JSON (atomically)\n"
    "      --force               overwrite an existing output file\n"
    "  -q, --quiet               no table on stdout\n"
    "  -h, --help                this text\n\n"
    "exit codes: 0 no regression, 1 a regression, 2 bad usage or a report that cannot\n"
    "            be read or compared, 5 I/O error or out of memory\n";

struct compare_opts {
	struct cmp_options cmp;
	enum cmp_format format;
	bool allow_mismatch, force, quiet;
	const char *output;
	const char *paths[2]; /* baseline, current */
};

static const struct option longopts[] = {
    {"threshold", required_argument, NULL, 't'}, {"alpha", required_argument, NULL, 'A'},
    {"metric", required_argument, NULL, 'M'},    {"untested", required_argument, NULL, 'U'},
    {"allow-mismatch", no_argument, NULL, 'X'},  {"format", required_argument, NULL, 'R'},
    {"output", required_argument, NULL, 'o'},    {"force", no_argument, NULL, 'F'},
    {"quiet", no_argument, NULL, 'q'},           {0},
};

static int bad(const struct cmd_ctx *ctx, const char *opt, const char *value, const char *why)
{
	cmd_error(ctx, "compare: bad value '%s' for %s: %s", value, opt, why);
	return EXIT_USAGE;
}

/* One option; EXIT_OK or EXIT_USAGE after saying why. */
static int set_option(const struct cmd_ctx *ctx, int c, const char *arg, struct compare_opts *o)
{
	const char *why = NULL;

	switch (c) {
	case 't':
		if (parse_double(arg, 0, 1e6, &o->cmp.threshold_pct, &why) != 0)
			return bad(ctx, "--threshold", arg, why);
		return EXIT_OK;
	case 'A':
		if (parse_double(arg, 0, 1, &o->cmp.alpha, &why) != 0 || o->cmp.alpha <= 0 ||
		    o->cmp.alpha >= 1)
			return bad(ctx, "--alpha", arg, why ? why : "not between 0 and 1");
		return EXIT_OK;
	case 'M':
		if (cmp_metric_parse(arg, &o->cmp.gate) != 0)
			return bad(
			    ctx, "--metric", arg,
			    "expected p50, p99, busbw, latency_p50, latency_p99 or bandwidth");
		return EXIT_OK;
	case 'U':
		if (strcmp(arg, "pass") != 0 && strcmp(arg, "fail") != 0)
			return bad(ctx, "--untested", arg, "expected pass or fail");
		o->cmp.untested_fails = strcmp(arg, "fail") == 0;
		return EXIT_OK;
	case 'R':
		if (strcmp(arg, "table") != 0 && strcmp(arg, "markdown") != 0)
			return bad(ctx, "--format", arg, "expected table or markdown");
		o->format = strcmp(arg, "markdown") == 0 ? CMP_FORMAT_MARKDOWN : CMP_FORMAT_TABLE;
		return EXIT_OK;
	case 'X': o->allow_mismatch = true; return EXIT_OK;
	case 'o': o->output = arg; return EXIT_OK;
	case 'F': o->force = true; return EXIT_OK;
	case 'q': o->quiet = true; return EXIT_OK;
	default: return -1;
	}
}

static int parse_args(const struct cmd_ctx *ctx, int argc, char **argv, struct compare_opts *o)
{
	char err[1024];
	int c, rc;

	memset(o, 0, sizeof *o);
	cmp_options_init(&o->cmp);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:q", longopts, NULL)) != -1) {
		rc = set_option(ctx, c, optarg, o);
		if (rc < 0)
			return cmd_usage_error(ctx, "compare", argc, argv);
		if (rc != EXIT_OK)
			return rc;
	}
	if (argc - optind != 2) {
		cmd_error(ctx,
		          "compare: expected two reports, BASELINE and CURRENT, got %d (see "
		          "'collscope compare --help')",
		          argc - optind);
		return EXIT_USAGE;
	}
	o->paths[0] = argv[optind];
	o->paths[1] = argv[optind + 1];
	if (strcmp(o->paths[0], "-") == 0 && strcmp(o->paths[1], "-") == 0) {
		cmd_error(ctx, "compare: only one of BASELINE and CURRENT can be '-' (standard input)");
		return EXIT_USAGE;
	}
	if (o->output && report_check_output_path(o->output, o->force, err, sizeof err) != 0) {
		cmd_error(ctx, "compare: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

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
	if (cmp_mismatch(base, cur, why, sizeof why) == 0)
		return EXIT_OK;
	if (!o->allow_mismatch) {
		cmd_error(ctx,
		          "compare: the runs differ in %s (baseline '%s' vs current '%s'); "
		          "use --allow-mismatch to compare them anyway",
		          why, base->path, cur->path);
		return EXIT_USAGE;
	}
	if (!o->quiet)
		fprintf(stderr, "collscope: warning: compare: the runs differ in %s\n", why);
	return EXIT_OK;
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
	root = cmd_report_new("compare", &c);
	if (!root || !cmp_to_json(root, base, cur, r, &o->cmp)) {
		cmd_error(ctx, "compare: out of memory while building the JSON report");
		goto out;
	}
	rc = cmd_report_write(ctx, o->output, root, o->force);
out:
	cJSON_Delete(root);
	report_context_release(&c);
	return rc;
}

int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_opts o;
	struct cmp_run runs[2] = {0};
	struct cmp_result result = {0};
	cJSON *roots[2] = {NULL, NULL};
	int rc = parse_args(ctx, argc, argv, &o);

	for (int i = 0; i < 2 && rc == EXIT_OK; i++)
		rc = load(ctx, o.paths[i], &roots[i], &runs[i]);
	if (rc == EXIT_OK)
		rc = check_comparable(ctx, &o, &runs[0], &runs[1]);
	if (rc != EXIT_OK)
		goto out;
	rc = EXIT_RUNTIME;
	if (cmp_compare(&runs[0], &runs[1], &o.cmp, &result) != 0) {
		cmd_error(ctx, "compare: out of memory");
		goto out;
	}
	if (!o.quiet && cmp_print(stdout, o.format, &runs[0], &runs[1], &result, &o.cmp) != 0) {
		cmd_error(ctx, "compare: cannot write to stdout");
		goto out;
	}
	rc = o.output ? write_json(ctx, &o, &runs[0], &runs[1], &result) : EXIT_OK;
	if (rc == EXIT_OK && cmp_failed(&result))
		rc = EXIT_CHECK_FAILED;
out:
	cmp_result_release(&result);
	for (int i = 0; i < 2; i++) {
		cmp_run_release(&runs[i]);
		cJSON_Delete(roots[i]);
	}
	return rc;
}
