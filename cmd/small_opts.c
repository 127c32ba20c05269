/* See small_opts.h: one table each (cmd/opts.h). */
#include "cmd/small_opts.h"
#include "cmd/opts_paths.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "reports/io/report_schema.h"

/* Standard input can be read once: at most one of the files is '-'. */
static bool stdin_twice(const struct opt_args *files)
{
	int dashes = 0;
	for (int i = 0; i < files->count; i++)
		dashes += strcmp(files->items[i], "-") == 0;
	return dashes > 1;
}

/* topo */

static const struct opt topo_quiet[] = {
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, quiet),
     .help = "no tables on stdout"},
};

static const struct opt_group topo_groups[] = {
    OPT_GROUP(opts_output, offsetof(struct topo_opts, out)),
    OPT_GROUP(topo_quiet, offsetof(struct topo_opts, out)),
    {NULL, 0, 0},
};

const struct cmd_spec topo_spec = {
    .name = "topo",
    .synopsis = "mpirun -np N collscope topo [options]",
    .description =
        "Shows where every rank runs: its host, pid, the cpuset it is bound to, its NUMA\n"
        "node and package (from hwloc; '-' when the binding spans several or is unknown),\n"
        "and for every host its cores, PUs, NUMA nodes, packages and ranks. A host with\n"
        "more ranks than cores is oversubscribed: its timings measure the scheduler too.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage, 5 MPI, I/O or runtime error\n",
    .groups = topo_groups,
    .size = sizeof(struct topo_opts),
};

/* list */

static const struct opt list_only[] = {
    {.name = "names",
     .kind = OPT_FLAG,
     .offset = offsetof(struct list_opts, names_only),
     .help = "print the names only, one per line (for scripts)"},
};

static const struct opt_group list_groups[] = {
    OPT_GROUP(list_only, 0),
    {NULL, 0, 0},
};

const struct cmd_spec list_spec = {
    .name = "list",
    .synopsis = "collscope list [--names]",
    .description = "Lists the all-reduce variants with a one-line summary, their cost and their\n"
                   "restrictions. Runs without mpirun. The guideline mock-ups of MPI_Allreduce\n"
                   "from the library's other collectives (mpi-reduce-bcast, mpi-rs-allgather)\n"
                   "are noted: '-a all' leaves them out, they go by name.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage\n",
    .groups = list_groups,
    .size = sizeof(struct list_opts),
};

/* compare */

static const char *const cmp_formats[] = {"table", "markdown", NULL};

static int parse_metric(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	if (cmp_metric_parse(arg, (enum cmp_metric *)((char *)base + o->offset)) == 0)
		return 0;
	snprintf(why, len, "expected p50, p99, busbw, latency_p50, latency_p99 or bandwidth");
	return -1;
}

/* --metric of compare and trend: the gate, and the name as given, to check against the reports. */
static int parse_compare_metric(const char *arg, void *base, const struct opt *o, char *why,
                                size_t len)
{
	if (parse_metric(arg, base, o, why, len) != 0)
		return -1;
	((struct compare_opts *)base)->metric = arg;
	return 0;
}

static int parse_trend_metric(const char *arg, void *base, const struct opt *o, char *why,
                              size_t len)
{
	if (parse_metric(arg, base, o, why, len) != 0)
		return -1;
	((struct trend_opts *)base)->metric = arg;
	return 0;
}

static int parse_correction(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	if (cmp_correction_parse(arg, (enum cmp_correction *)((char *)base + o->offset)) == 0)
		return 0;
	snprintf(why, len, "expected bh, holm or none");
	return -1;
}

static int parse_untested(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	bool *fails = (bool *)((char *)base + o->offset);
	if (strcmp(arg, "pass") != 0 && strcmp(arg, "fail") != 0) {
		snprintf(why, len, "expected pass or fail");
		return -1;
	}
	*fails = strcmp(arg, "fail") == 0;
	return 0;
}

static const struct opt compare_only[] = {
    {.name = "threshold",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct compare_opts, cmp.threshold_pct),
     .metavar = "PCT",
     .def = "10",
     .min = 0,
     .max = 1e6,
     .help = "change that counts, in percent"},
    {.name = "alpha",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct compare_opts, cmp.alpha),
     .metavar = "P",
     .def = "0.01",
     .min = 0,
     .max = 1,
     .flags = OPT_MIN_OPEN | OPT_MAX_OPEN,
     .help = "significance level, 0 < P < 1"},
    {.name = "correction",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct compare_opts, cmp.correction),
     .metavar = "bh|holm|none",
     .def = "bh",
     .parse = parse_correction,
     .help = "multiple comparisons: Benjamini-Hochberg false discovery\n"
             "rate (bh), Holm's family-wise (holm), or none"},
    {.name = "metric",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct compare_opts, cmp.gate),
     .metavar = "NAME",
     .def_text = "p50, links: latency_p50",
     .parse = parse_compare_metric,
     .help = "the gate: p50, p99 or busbw (links: latency_p50,\n"
             "latency_p99, bandwidth); a name of the other kind is refused"},
    {.name = "untested",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct compare_opts, cmp.untested_fails),
     .metavar = "pass|fail",
     .def = "pass",
     .parse = parse_untested,
     .help = "an untested point worse than --threshold: no failure\n"
             "(pass) or a regression (fail)"},
    {.name = "untestable",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct compare_opts, cmp.untestable_fails),
     .metavar = "pass|fail",
     .def = "pass",
     .parse = parse_untested,
     .help = "a point whose noise is wider than --threshold (its\n"
             "samples, or the yardstick around it): printed and\n"
             "counted (pass), or a failure, exit 1 (fail)"},
    {.name = "paired",
     .kind = OPT_FLAG,
     .offset = offsetof(struct compare_opts, paired),
     .help = "the reports are pairs measured one after the other,\n"
             "BASELINE1 CURRENT1 BASELINE2 CURRENT2 ... (2 to 64 pairs):\n"
             "each point judged on its median change over the pairs and\n"
             "a paired t-test of the pairs' log ratios, which the load's\n"
             "drift between minutes does not move (no point is\n"
             "untestable; 4 pairs or more, or the test is weak); and the\n"
             "run as a whole: each pair's median change over its points,\n"
             "t-tested over the pairs (summary.whole_run; a build slower\n"
             "everywhere fails it where a burst of load hid each point)"},
    {.name = "allow-mismatch",
     .kind = OPT_FLAG,
     .offset = offsetof(struct compare_opts, allow_mismatch),
     .help = "compare runs that differ in ranks, hosts, dtype or op"},
    {.name = "format",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct compare_opts, format),
     .metavar = "table|markdown",
     .def = "table",
     .choices = cmp_formats,
     .help = "stdout format (markdown for a CI job summary)"},
};

static const struct opt compare_output[] = {
    {.name = "output",
     .letter = 'o',
     .kind = OPT_STRING,
     .offset = offsetof(struct cmd_out, output),
     .metavar = "FILE",
     .help = "the comparison as JSON (atomically; '-': on standard\n"
             "output, instead of the table)"},
    {.name = "force",
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, force),
     .help = "overwrite an existing output file"},
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, quiet),
     .help = "no table on stdout"},
};

static const struct opt_group compare_groups[] = {
    OPT_GROUP(compare_only, 0),
    OPT_GROUP(compare_output, offsetof(struct compare_opts, out)),
    {NULL, 0, 0},
};

/* The output against every input and standard input twice (opts_paths.h). */
static int outputs_apart(const char *cmd, const struct cmd_out *out, const struct opt_args *files,
                         const char *input, char *err, size_t len)
{
	struct opts_path paths[OPT_MAX_ARGS + 1] = {{"-o", out->output, true}};
	for (int i = 0; i < files->count; i++)
		paths[i + 1] = (struct opts_path){input, files->items[i], false};
	return opts_paths_distinct(cmd, paths, files->count + 1, err, len);
}

static int compare_check(void *opts, char *err, size_t len)
{
	struct compare_opts *o = opts;
	int n = o->files.count;
	if (!o->paired && n != 2) {
		snprintf(err, len,
		         "compare: %d reports given: BASELINE and CURRENT, or with --paired the "
		         "pairs measured one after the other",
		         n);
		return EXIT_USAGE;
	}
	if (o->paired && (n % 2 || n < 4 || n > 2 * CMP_MAX_PAIRS)) {
		snprintf(err, len,
		         "compare: --paired takes 2 to %d pairs, BASELINE1 CURRENT1 BASELINE2 "
		         "CURRENT2 ...: %d report%s given%s",
		         CMP_MAX_PAIRS, n, n == 1 ? "" : "s", n % 2 ? ", an odd count" : "");
		return EXIT_USAGE;
	}
	o->cmp.pairs = o->paired ? (size_t)n / 2 : 0;
	if (!stdin_twice(&o->files))
		return outputs_apart("compare", &o->out, &o->files, "the input", err, len);
	snprintf(err, len, "compare: only one of BASELINE and CURRENT can be '-' (standard input)");
	return EXIT_USAGE;
}

const struct cmd_spec compare_spec = {
    .name = "compare",
    .synopsis = "collscope compare [options] BASELINE.json CURRENT.json\n"
                "       collscope compare --paired [options] BASELINE1.json CURRENT1.json "
                "BASELINE2.json CURRENT2.json ...",
    .description =
        "Compares a report with a baseline, point by point: allreduce and scale records\n"
        "by (algorithm, dtype, op, bytes, ranks), links records by ordered pair. For each\n"
        "point: the change of p50 time, p99 time and busbw as ratio and percent, and a\n"
        "two-sided Mann-Whitney U test of the raw samples. A point regresses only when\n"
        "the change of --metric is worse than --threshold AND the test finds a shift that\n"
        "way at --alpha (links: their ping-pongs for the latency metrics, their window\n"
        "times for bandwidth), its p values adjusted together over every tested point\n"
        "(--correction). Each tested point also gives the smallest change it could\n"
        "detect (mde_pct); where that exceeds --threshold it says how many samples\n"
        "would do. With fewer than 9 samples a side the test has no\n"
        "verdict: the point is 'untested' and says so, and it does not fail\n"
        "unless --untested fail. A point whose noise is wider than --threshold (the\n"
        "middle half of its samples, or the yardstick that allreduce re-measures around\n"
        "every point, in either report) is 'untestable' unless it changed by more than\n"
        "the threshold and both noises added (bar_pct); below the threshold, the\n"
        "yardstick's figure widens the threshold.\n"
        "Untestable points are counted and printed; they fail only with --untestable\n"
        "fail. Points of one run only are listed. Reports are read from\n"
        "regular files only; '-' is standard input. Runs without mpirun.\n",
    .exit_codes =
        "exit codes: 0 no regression (the status says ok or untestable), 1 a regression\n"
        "            (or an untestable point with --untestable fail), 2 bad usage or a\n"
        "            report that cannot be read or compared, 5 I/O error or out of memory\n",
    .groups = compare_groups,
    .size = sizeof(struct compare_opts),
    .args_name = "reports (BASELINE and CURRENT; --paired: 2 to 64 pairs)",
    .min_args = 2,
    .max_args = 2 * CMP_MAX_PAIRS,
    .args_offset = offsetof(struct compare_opts, files),
    .check = compare_check,
};

/* trend */

static const struct opt trend_only[] = {
    {.name = "metric",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct trend_opts, trend.metric),
     .metavar = "NAME",
     .def_text = "p50, links: latency_p50",
     .parse = parse_trend_metric,
     .help = "p50, p99 or busbw (links: latency_p50, latency_p99,\n"
             "bandwidth); a name of the other kind is refused"},
    {.name = "threshold",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct trend_opts, trend.threshold_pct),
     .metavar = "PCT",
     .def = "10",
     .min = 0,
     .max = 1e6,
     .help = "a last step worse than this fails"},
    {.name = "alpha",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct trend_opts, trend.cp.alpha),
     .metavar = "P",
     .def = "0.05",
     .min = 0,
     .max = 1,
     .flags = OPT_MIN_OPEN | OPT_MAX_OPEN,
     .help = "significance of a step, 0 < P < 1"},
    {.name = "permutations",
     .kind = OPT_U64,
     .offset = offsetof(struct trend_opts, trend.cp.permutations), /* size_t is 64 bits here */
     .metavar = "N",
     .def = "499",
     .min = 19,
     .max = 100000,
     .help = "of the permutation test"},
};

static const struct opt trend_output[] = {
    {.name = "output",
     .letter = 'o',
     .kind = OPT_STRING,
     .offset = offsetof(struct cmd_out, output),
     .metavar = "FILE",
     .help = "the trend as JSON (atomically; `collscope report` charts it;\n"
             "'-': on standard output, instead of the table)"},
    {.name = "force",
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, force),
     .help = "overwrite an existing output file"},
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, quiet),
     .help = "no table on stdout"},
};

static const struct opt_group trend_groups[] = {
    OPT_GROUP(trend_only, 0),
    OPT_GROUP(trend_output, offsetof(struct trend_opts, out)),
    {NULL, 0, 0},
};

/* The change-point test's other parameters, around the two that are options. */
static int trend_check(void *opts, char *err, size_t len)
{
	struct trend_opts *o = opts;
	struct trend_options given = o->trend;
	trend_options_init(&o->trend);
	o->trend.metric = given.metric;
	o->trend.threshold_pct = given.threshold_pct;
	o->trend.cp.alpha = given.cp.alpha;
	o->trend.cp.permutations = given.cp.permutations;
	return outputs_apart("trend", &o->out, &o->files, "the report", err, len);
}

const struct cmd_spec trend_spec = {
    .name = "trend",
    .synopsis = "collscope trend [options] REPORT.json...",
    .description =
        "Follows reports of one setup (the same command, ranks, hosts, dtype and op) in\n"
        "time order (context.started_utc) and finds, for every point, where its metric\n"
        "stepped: change points of the series by E-divisive means (energy distance of\n"
        "the logarithms, binary segmentation, a permutation test at --alpha; at least 2\n"
        "reports on each side of a step). For each step: the report where it happened,\n"
        "the levels before and after (medians) and the change, and what differs in the\n"
        "context from the report before. A point regresses when its last step is worse\n"
        "than --threshold, unless the reports either side of the step measured it with\n"
        "more noise than that (the median of its samples' spread or of the yardstick\n"
        "around it, as compare judges): then it is 'untestable', counted and printed,\n"
        "not a failure. Needs at least 3 reports; runs without mpirun.\n",
    .exit_codes =
        "exit codes: 0 no regression, 1 a point's last step is a regression, 2 bad usage,\n"
        "            a report that cannot be read, or reports of different setups, 5 I/O error\n",
    .groups = trend_groups,
    .size = sizeof(struct trend_opts),
    .args_name = "reports",
    .min_args = TREND_MIN_REPORTS,
    .max_args = -1,
    .args_offset = offsetof(struct trend_opts, files),
    .check = trend_check,
};

/* report */

static const struct opt report_output[] = {
    {.name = "output",
     .letter = 'o',
     .kind = OPT_STRING,
     .offset = offsetof(struct cmd_out, output),
     .metavar = "FILE",
     .help = "the page ('-' for stdout); required"},
    {.name = "force",
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, force),
     .help = "overwrite an existing FILE"},
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, quiet),
     .help = "do not print the path written"},
};

static const struct opt_group report_groups[] = {
    OPT_GROUP(report_output, offsetof(struct report_opts, out)),
    {NULL, 0, 0},
};

static int report_check(void *opts, char *err, size_t len)
{
	const struct report_opts *o = opts;
	if (stdin_twice(&o->files)) {
		snprintf(err, len, "report: only one FILE can be '-' (standard input)");
		return EXIT_USAGE;
	}
	if (o->out.output)
		return outputs_apart("report", &o->out, &o->files, "the input", err, len);
	snprintf(err, len, "report: -o FILE is required (see 'collscope report --help')");
	return EXIT_USAGE;
}

const struct cmd_spec report_spec = {
    .name = "report",
    .synopsis = "collscope report [options] FILE... -o report.html",
    .description = "Renders one or more JSON reports as one self-contained HTML page (no script,\n"
                   "no network, no external style or font) with inline SVG charts: for allreduce,\n"
                   "busbw, p50 and p99 time against message size (log2 axis) per variant, each\n"
                   "collective (the all-reduce, or a half: --collective) apart and named with its\n"
                   "bus factor, and a traced all-reduce's halves (--trace) as a table; for\n"
                   "links, the rank-to-rank bandwidth and latency heatmaps with the suspects\n"
                   "marked; for scale, efficiency and speedup against ranks, measured and\n"
                   "predicted drawn apart; for compare, the verdicts. Every report's context\n"
                   "(hosts, MPI library, command line) and verdicts are tables. A kind of report\n"
                   "the page cannot chart gets its context and summary, and a note saying so.\n"
                   "Runs without mpirun.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage or a report that cannot be read (the message\n"
                  "            names the file and the problem), 5 I/O error\n",
    .groups = report_groups,
    .size = sizeof(struct report_opts),
    .args_name = "report to render",
    .min_args = 1,
    .max_args = -1,
    .args_offset = offsetof(struct report_opts, files),
    .check = report_check,
};

/* schema */

static const struct opt schema_only[] = {
    {.name = "markdown",
     .kind = OPT_FLAG,
     .offset = offsetof(struct schema_opts, markdown),
     .help = "every command's fields as Markdown (reports/SCHEMA.md)"},
};

static const struct opt_group schema_groups[] = {
    OPT_GROUP(schema_only, 0),
    {NULL, 0, 0},
};

static int schema_check(void *opts, char *err, size_t len)
{
	const struct schema_opts *o = opts;
	enum report_command c;
	if (o->command.count && o->markdown) {
		snprintf(err, len, "schema: --markdown describes every command: no '%s' with it",
		         o->command.items[0]);
		return EXIT_USAGE;
	}
	if (o->command.count == 0 || report_command_parse(o->command.items[0], &c) == 0)
		return EXIT_OK;
	size_t used =
	    (size_t)snprintf(err, len, "schema: bad command '%s': expected", o->command.items[0]);
	for (int i = 0; i < REPORT_COMMANDS && used < len; i++)
		used += (size_t)snprintf(err + used, len - used, "%s %s", i ? "," : "",
		                         schema_command_names[i]);
	return EXIT_USAGE;
}

const struct cmd_spec schema_spec = {
    .name = "schema",
    .synopsis = "collscope schema [--markdown] [COMMAND]",
    .description =
        "Prints the JSON Schema (draft 2020-12) of the reports COMMAND writes (allreduce,\n"
        "links, scale, ...), or without COMMAND of the envelope every report shares; with\n"
        "--markdown, every command's fields as reports/SCHEMA.md. Both come from one table\n"
        "(reports/io/schema_table.h), the one the writers and readers take their keys\n"
        "from. Runs without mpirun.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage or an unknown COMMAND, 5 out of memory\n",
    .groups = schema_groups,
    .size = sizeof(struct schema_opts),
    .args_name = "command",
    .min_args = 0,
    .max_args = 1,
    .args_offset = offsetof(struct schema_opts, command),
    .check = schema_check,
};
