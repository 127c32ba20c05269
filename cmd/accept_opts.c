/* Options of `collscope accept` (cmd/opts.h); the modes exclude each other. */
#include "accept_opts.h"

#include "accept_derive.h"

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
    {.name = "force",
     .kind = OPT_FLAG,
     .offset = offsetof(struct accept_opts, out.force),
     .help = "replace SPEC_OUT if it exists"},
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = offsetof(struct accept_opts, out.quiet),
     .help = "no summary on stdout"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(accept_only, 0),
    {NULL, 0, 0},
};

static int check(void *opts, char *err, size_t len)
{
	struct accept_opts *o = opts;
	const char *why = NULL;
	if (o->derive_out && o->check_spec)
		why = "accept: --derive and --check-spec are different modes: give one";
	else if (!o->derive_out && !o->check_spec)
		why = "accept: measuring against a spec is not in this build yet: use --check-spec "
		      "SPEC to check one, --derive SPEC_OUT REPORT... to write one (see 'collscope "
		      "accept --help')";
	else if (o->derive_out && o->reports.count == 0)
		why = "accept: --derive needs the known-good reports to derive from";
	if (!why && o->check_spec && o->reports.count > 0) {
		snprintf(err, len, "accept: unexpected argument '%s'", o->reports.items[0]);
		return EXIT_USAGE;
	}
	if (!why)
		return EXIT_OK;
	snprintf(err, len, "%s", why);
	return EXIT_USAGE;
}

const struct cmd_spec accept_cmd_spec = {
    .name = "accept",
    .synopsis = "collscope accept --derive SPEC_OUT [--tolerance PCT] [--force] REPORT...\n"
                "       collscope accept --check-spec SPEC",
    .description =
        "Cluster acceptance from a spec: a JSON file listing the checks (topology, verify,\n"
        "links, allreduce) and their thresholds (README, \"collscope accept\").\n\n"
        "--derive writes a spec from known-good topo, links and allreduce reports: each\n"
        "threshold is the median of what they measured, a minimum x (1 - PCT/100) and a\n"
        "maximum x (1 + PCT/100), per locality class for links and per variant and size\n"
        "for allreduce; the spec records where each came from. Reports that are not\n"
        "complete, have suspects or wrong elements are refused. Runs without mpirun.\n"
        "--check-spec reads a spec and names every bad field with its JSON path.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage, a bad spec or a report that cannot be used,\n"
                  "            5 I/O error\n",
    .groups = groups,
    .size = sizeof(struct accept_opts),
    .args_name = "reports",
    .min_args = 0,
    .max_args = -1,
    .args_offset = offsetof(struct accept_opts, reports),
    .check = check,
};
