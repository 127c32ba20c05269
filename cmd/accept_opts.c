/* Options of `collscope accept` (cmd/opts.h); the modes exclude each other. */
#include "cmd/accept_opts.h"
#include "cmd/opts_paths.h"

#include "reports/accept/accept_derive.h"
#include "cmd/links_opts.h"

#include <stddef.h>
#include <stdio.h>

static const struct opt accept_only[] = {
    {.name = "derive",
     .kind = OPT_STRING,
     .offset = offsetof(struct accept_opts, derive_out),
     .metavar = "SPEC_OUT",
     .help = "write a spec derived from the REPORTs to SPEC_OUT (atomically)"},
    {.name = "tolerance",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct accept_opts, tolerance_pct),
     .metavar = "PCT",
     .def = "10",
     .min = 0,
     .max = 100,
     .flags = OPT_MAX_OPEN,
     .range = "must be a percentage from 0 to under 100",
     .help = "how far below the median a minimum, and above it a\n"
             "maximum, is set ({default})"},
    {.name = "check-spec",
     .kind = OPT_STRING,
     .offset = offsetof(struct accept_opts, check_spec),
     .metavar = "SPEC",
     .help = "check SPEC and name every bad field; exit 0 when valid"},
    {.name = "repeats",
     .kind = OPT_INT,
     .offset = offsetof(struct accept_opts, repeats),
     .metavar = "N",
     .def = "1",
     .min = 1,
     .max = ACCEPT_MAX_REPEATS,
     .key = "repeats",
     .help = "measuring: every check N times; one that fails some\n"
             "but not all is INTERMITTENT, never a pass"},
    {.name = "budget",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct accept_opts, budget_s),
     .metavar = "DURATION",
     .def = "0",
     .def_text = "",
     .key = "budget_s",
     .parse = opts_parse_duration,
     .echo = opts_echo_duration,
     .help = "measuring: bound the run (90, 90s, 15m, 2h): the links\n"
             "check gets half of what is left (links --budget), no\n"
             "repeat, all-reduce point or culprit search starts past it;\n"
             "a point left out is not measured and fails (default none)"},
    {.name = "junit",
     .kind = OPT_STRING,
     .offset = offsetof(struct accept_opts, junit),
     .metavar = "FILE",
     .key = "junit",
     .help = "measuring: the verdicts as JUnit XML (a testsuite per\n"
             "kind of check, a testcase per check and host)"},
    {.name = "output",
     .letter = 'o',
     .kind = OPT_STRING,
     .offset = offsetof(struct accept_opts, out.output),
     .metavar = "FILE",
     .key = "output",
     .help = "measuring: the JSON report, every measured figure\n"
             "(atomically)"},
    {.name = "force",
     .kind = OPT_FLAG,
     .offset = offsetof(struct accept_opts, out.force),
     .key = "force",
     .help = "replace an existing SPEC_OUT, report or JUnit file (never\n"
             "the spec or a report it reads: refused before measuring)"},
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = offsetof(struct accept_opts, out.quiet),
     .help = "no summary on stdout"},
    {.name = "test-slow-link",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct accept_opts, test_slow),
     .metavar = "A:B:F",
     .key = "test_slow_link",
     .parse = links_parse_test_slow,
     .echo = links_echo_test_slow,
     .help = "testing only: as links' option, in the links check's first\n"
             "measurement of each repeat only, not when a failing host's\n"
             "links are measured again (a transient fault)"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(accept_only, 0),
    OPT_GROUP(opts_plan, offsetof(struct accept_opts, planning)),
    OPT_GROUP(opts_timeout, offsetof(struct accept_opts, timeout_s)),
    OPT_GROUP(links_probe_opts, offsetof(struct accept_opts, links_probe)),
    {NULL, 0, 0},
};

bool accept_needs_mpi(const void *opts)
{
	const struct accept_opts *o = opts;
	return !o->derive_out && !o->check_spec && !(o->planning.only && o->planning.hosts > 0);
}

/* Every output against the spec, the reports and each other, before anything runs. */
static int outputs_apart(const struct accept_opts *o, char *err, size_t len)
{
	struct opts_path paths[OPT_MAX_ARGS + 3] = {{"-o", o->out.output, true},
	                                            {"--junit", o->junit, true},
	                                            {"--derive", o->derive_out, true}};
	int n = 3;
	for (int i = 0; i < o->args.count; i++)
		paths[n++] = (struct opts_path){o->derive_out ? "the report" : "the spec", o->args.items[i],
		                                false};
	return opts_paths_distinct("accept", paths, n, err, len);
}

static int check_world(void *opts, int nranks, char *err, size_t len)
{
	return links_check_test_slow("accept", &((struct accept_opts *)opts)->test_slow, nranks, err,
	                             len);
}

static int check(void *opts, char *err, size_t len)
{
	struct accept_opts *o = opts;
	const char *why = NULL;
	bool measuring = !o->derive_out && !o->check_spec; /* or planning a measurement */
	if (opts_plan_check("accept", &o->planning, err, len) != EXIT_OK)
		return EXIT_USAGE;
	if (o->planning.only && !measuring)
		why = "accept: --plan-only plans a measurement against SPEC, not --derive or "
		      "--check-spec";
	else if (o->derive_out && o->check_spec)
		why = "accept: --derive and --check-spec are different modes: give one";
	else if (o->derive_out && o->args.count == 0)
		why = "accept: --derive needs the known-good reports to derive from";
	else if (!measuring && (o->junit || o->out.output || o->repeats != 1))
		why = "accept: --junit, -o and --repeats are for measuring against a spec, not for "
		      "--derive or --check-spec";
	else if (measuring && o->args.count != 1)
		why = o->args.count == 0
		          ? "accept: expected SPEC, the spec to measure against (see "
		            "'collscope accept --help')"
		          : NULL;
	if (!why && ((o->check_spec && o->args.count > 0) || (measuring && o->args.count > 1))) {
		snprintf(err, len, "accept: unexpected argument '%s'",
		         o->args.items[measuring ? 1 : 0]);
		return EXIT_USAGE;
	}
	if (!why)
		return outputs_apart(o, err, len);
	snprintf(err, len, "%s", why);
	return EXIT_USAGE;
}

const struct cmd_spec accept_cmd_spec = {
    .name = "accept",
    .synopsis = "mpirun -np N collscope accept [options] SPEC\n"
                "       collscope accept --derive SPEC_OUT [--tolerance PCT] [--force] REPORT...\n"
                "       collscope accept --check-spec SPEC",
    .description =
        "Cluster acceptance from a spec: a JSON file listing the checks (topology, verify,\n"
        "links, allreduce) and their thresholds (reports/accept/README.md).\n\n"
        "Under mpirun it runs every check the spec lists, --repeats times, and prints one\n"
        "line per check and per host: PASS, FAIL or INTERMITTENT, the measured figure\n"
        "against the threshold and a stable fault code. When an all-reduce point fails\n"
        "on the whole job, the hosts are split and the point run again on the halves\n"
        "(then halves of the failing half, beside hosts already cleared; never one host\n"
        "alone: it crosses no network) until a host that drags it down is suspected,\n"
        "in about log2(hosts) extra rounds. A suspect is named only on evidence: its\n"
        "sub-test fails and the complement (the cleared hosts, without it) passes, 3\n"
        "times each, interleaved; otherwise the search is INCONCLUSIVE, with the\n"
        "figures and their spread, and names no host. A host that fails its own links\n"
        "checks has its links measured again at once, beside control hosts, and fails\n"
        "only if that reproduces and the controls pass; else its check is INCONCLUSIVE\n"
        "(noise: the host is not failed). A host's verdict says whether it failed its\n"
        "own checks or was isolated this way. The links check measures as 'collscope\n"
        "links' does; -n, -w, --lat-time and the --bw-*, --lat-bytes and --window\n"
        "options below set how (links' defaults). The all-reduce points run\n"
        "with allreduce's defaults, at least 100 iterations when the spec has a p99; a\n"
        "point with \"collective\": \"reduce_scatter\" or \"allgather\" measures that half\n"
        "(allreduce --collective), and its lines name it. --plan-only prints what the\n"
        "spec would run and cost (each check, a failing point's search, the total)\n"
        "and measures nothing; with --hosts, without mpirun.\n\n"
        "--derive writes a spec from known-good topo, links and allreduce reports, each\n"
        "report one run: per locality class for links and per collective, variant and\n"
        "size for allreduce, a minimum is the lower of median x e^(-3 s) (s: 1.4826 x\n"
        "MAD of the runs' logarithms) and the lowest run, x (1 - PCT/100); a maximum the\n"
        "higher of median x e^(3 s) and the highest run, x (1 + PCT/100). The spec\n"
        "records how each was derived and from how many runs; one from a single run has\n"
        "no measured spread and the spec says it is fragile (and warns): derive from 3\n"
        "or more runs. A point keeps its reports' collective (allreduce --collective).\n"
        "Reports that are not complete, have suspects or wrong elements are refused.\n"
        "Runs without mpirun.\n"
        "--check-spec reads a spec and names every bad field with its JSON path.\n",
    .exit_codes =
        "exit codes: 0 every check passed (a spec or a derivation written), 1 a check\n"
        "            failed or was intermittent (also INCONCLUSIVE: a figure failed,\n"
        "            but noise explains it and no host is to blame), 2 bad usage,\n"
        "            a bad spec (every bad field named with its path) or a report\n"
        "            that cannot be used,\n"
        "            4 hang or dead rank, 5 MPI, memory or I/O error\n",
    .groups = groups,
    .size = sizeof(struct accept_opts),
    .args_name = "reports, or a spec",
    .min_args = 0,
    .max_args = -1,
    .args_offset = offsetof(struct accept_opts, args),
    .check = check,
    .check_world = check_world,
};
