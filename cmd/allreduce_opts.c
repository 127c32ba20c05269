/*
 * Options of `collscope allreduce` (nccl-tests' letters where they exist):
 * one table (cmd/opts.h) gives their parsing, help, defaults and config echo.
 */
#include "cmd/allreduce_opts.h"
#include "cmd/opts_memory.h"

#include <stddef.h>
#include <stdio.h>

#include "algorithms/timing.h"

static const char *const formats[] = {"table", "csv", NULL};

static const struct opt variants_opt[] = {
    {.name = "algo",
     .letter = 'a',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, variants),
     .metavar = "LIST",
     .def = "all",
     .key = "algorithms",
     .parse = opts_parse_variants,
     .echo = opts_echo_variants,
     .help = "variants, comma-separated, or 'all' ({default}); 'all'\n"
             "is every variant but the guideline mock-ups and the\n"
             "compressed ones, which go by name (see 'list')"},
};

static const struct opt step_opt[] = {
    {.name = "step-factor",
     .letter = 'f',
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, step_factor),
     .metavar = "X",
     .def = "2",
     .min = 1,
     .max = 1e6,
     .flags = OPT_MIN_OPEN,
     .key = "step_factor",
     .help = "size multiplier between points, > 1"},
};

static const struct opt allreduce_only[] = {
    {.name = "in-place",
     .kind = OPT_FLAG,
     .offset = offsetof(struct ar_opts, in_place),
     .key = "in_place",
     .help = "input and output in one buffer (default out of place)"},
    {.name = "min-busbw",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct ar_opts, min_busbw_gbps),
     .metavar = "GBPS",
     .min = 0,
     .max = 1e6,
     .flags = OPT_NAN_DEFAULT,
     .key = "min_busbw_gbps",
     .help = "acceptance gate: exit 1 naming every variant whose\n"
             "busbw at the largest size is below GBPS, or was not\n"
             "measured (skipped, or no valid sample)"},
    {.name = "format",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct ar_opts, format),
     .metavar = "table|csv",
     .def = "table",
     .choices = formats,
     .key = "format",
     .help = "stdout format"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(variants_opt, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_sweep_collective, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_sweep_range, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(step_opt, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_sweep_points, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_sweep_data, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_sweep_timing, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_segment, offsetof(struct ar_opts, sweep.segment_bytes)),
    OPT_GROUP(opts_trace, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(opts_compress, offsetof(struct ar_opts, sweep)),
    OPT_GROUP(allreduce_only, 0),
    OPT_GROUP(opts_timeout, offsetof(struct ar_opts, timeout_s)),
    OPT_GROUP(opts_output, offsetof(struct ar_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct ar_opts, out.quiet)),
    {NULL, 0, 0},
};

static int check(void *opts, char *err, size_t len)
{
	struct ar_opts *o = opts;
	if (o->in_place && o->sweep.timing == TIMING_PIPELINED) {
		snprintf(err, len,
		         "allreduce: --timing pipelined cannot be --in-place: back-to-back "
		         "calls would reduce each other's results (use out-of-place)");
		return EXIT_USAGE;
	}
	return sweep_sizes("allreduce", &o->sweep, err, len);
}

static bool echo(cJSON *cfg, const void *opts)
{
	const struct ar_opts *o = opts;
	return sweep_echo(cfg, &o->sweep);
}

/* What the options cost in memory at this rank count (opts_memory.h). */
static int check_world(void *opts, int nranks, char *err, size_t len)
{
	return opts_memory_check_sweep("allreduce", &((struct ar_opts *)opts)->sweep, nranks, err,
	                               len);
}

const struct cmd_spec allreduce_spec = {
    .name = "allreduce",
    .synopsis = "mpirun -np N collscope allreduce [options]",
    .description =
        "Sweeps every selected all-reduce variant across message sizes: times each point\n"
        "(warm-up, then timed iterations by the --timing method; an iteration ends when\n"
        "the slowest rank's call does), verifies every result, and prints p50/p99 time,\n"
        "algorithm and bus bandwidth (nccl-tests' definitions) per point, then the peak\n"
        "per variant. The report is rewritten as points end (at most once a second), with\n"
        "\"complete\": false until the sweep ends.\n",
    .exit_codes = "exit codes: 0 ok, 1 below --min-busbw, 2 bad usage, 3 wrong results,\n"
                  "            4 hang or dead rank, 5 MPI, memory or I/O error, or a point\n"
                  "            left without a valid sample\n",
    .groups = groups,
    .size = sizeof(struct ar_opts),
    .check = check,
    .check_world = check_world,
    .echo = echo,
};
