/* Options of `collscope watch`: one table (cmd/opts.h). */
#include "cmd/watch_opts.h"

#include <stdio.h>

#include "cmd/links_opts.h"
#include "reports/watch/watch_detect.h"

static const struct opt loop_opts[] = {
    {.name = "duration",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct watch_opts, duration_s),
     .metavar = "DURATION",
     .def = "0",
     .key = "duration_s",
     .parse = opts_parse_duration,
     .echo = opts_echo_duration,
     .help = "how long to watch: seconds, or with s, m or h (at most a\n"
             "week); 0: until SIGTERM or SIGINT ({default})"},
    {.name = "period",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct watch_opts, period_s),
     .metavar = "DURATION",
     .def = "60",
     .key = "period_s",
     .parse = opts_parse_duration,
     .echo = opts_echo_duration,
     .help = "from the start of one round to the next, at least; longer\n"
             "when --duty-percent needs it ({default})"},
    {.name = "duty-percent",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct watch_opts, duty_percent),
     .metavar = "PCT",
     .def = "2",
     .min = 0,
     .max = 100,
     .flags = OPT_MIN_OPEN,
     .key = "duty_percent",
     .range = "must be a percentage above 0, at most 100",
     .help = "the largest share of the time spent measuring: after a\n"
             "round of M seconds the next waits at least M x (100 / PCT\n"
             "- 1) ({default})"},
    {.name = "small-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct watch_opts, small_bytes),
     .metavar = "SIZE",
     .def = "8",
     .min = 4,
     .max = (double)(1u << 20),
     .key = "small_bytes",
     .help = "the latency all-reduce, float32 sum ({default})"},
    {.name = "large-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct watch_opts, large_bytes),
     .metavar = "SIZE",
     .def = "4M",
     .min = 4,
     .max = (double)(1u << 30),
     .key = "large_bytes",
     .help = "the bandwidth all-reduce ({default})"},
    {.name = "small-iters",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, small_iters),
     .metavar = "N",
     .def = "50",
     .min = 1,
     .max = 100000,
     .key = "small_iters",
     .help = "timed calls of the small all-reduce a round ({default});\n"
             "the sample is their median"},
    {.name = "large-iters",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, large_iters),
     .metavar = "N",
     .def = "5",
     .min = 1,
     .max = 100000,
     .key = "large_iters",
     .help = "timed calls of the large all-reduce a round ({default})"},
    {.name = "links-every",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, links_every),
     .metavar = "N",
     .def = "1",
     .min = 0,
     .max = 1000000,
     .key = "links_every",
     .help = "a links round every N rounds ({default}; 0: none), in\n"
             "links' auto pattern: screening where it costs less than\n"
             "all pairs"},
};

static const struct opt output_opts[] = {
    {.name = "metrics",
     .kind = OPT_STRING,
     .offset = offsetof(struct watch_opts, metrics),
     .metavar = "FILE",
     .key = "metrics",
     .help = "OpenMetrics text for node_exporter's textfile collector\n"
             "(name it *.prom in its directory), replaced atomically\n"
             "after every round"},
    {.name = "jsonl",
     .kind = OPT_STRING,
     .offset = offsetof(struct watch_opts, jsonl),
     .metavar = "FILE",
     .key = "jsonl",
     .help = "JSON lines appended: start, every sample, every change,\n"
             "every round, stop; SIGHUP reopens it (log rotation)"},
};

static const struct opt detect_opts[] = {
    {.name = "detect-window",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, window),
     .metavar = "N",
     .def = "24",
     .min = 4,
     .max = 1000,
     .key = "detect_window",
     .help = "samples of a series the change-point test sees ({default})"},
    {.name = "confirm",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, confirm),
     .metavar = "N",
     .def = "4",
     .min = 2,
     .max = 500,
     .key = "confirm",
     .help = "samples a new level must hold to be a change (the delay\n"
             "to detect one); at most half of --detect-window ({default})"},
    {.name = "min-step-percent",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct watch_opts, min_step_percent),
     .metavar = "PCT",
     .def = "25",
     .min = 0,
     .max = 1e6,
     .key = "min_step_percent",
     .range = "must be a percentage from 0 to 1e6",
     .help = "the smallest step reported, medians either side ({default})"},
    {.name = "alpha",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct watch_opts, alpha),
     .metavar = "P",
     .def = "0.01",
     .min = 0,
     .max = 1,
     .flags = OPT_MIN_OPEN | OPT_MAX_OPEN,
     .key = "alpha",
     .range = "must be a probability between 0 and 1, both excluded",
     .help = "significance of trend's permutation test ({default})"},
    {.name = "keep",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, keep_samples),
     .metavar = "N",
     .def = "1440",
     .min = 1,
     .max = 1000000,
     .key = "keep_samples",
     .help = "recent samples of each series kept for -o, a ring\n"
             "({default})"},
    {.name = "max-series",
     .kind = OPT_INT,
     .offset = offsetof(struct watch_opts, max_series),
     .metavar = "N",
     .def = "4096",
     .min = 2,
     .max = 1000000,
     .key = "max_series",
     .help = "series watched at most ({default}); host pairs past it\n"
             "are dropped"},
    {.name = "clock-factor",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct watch_opts, clock_factor),
     .metavar = "F",
     .def = "1",
     .min = 1,
     .max = 1e7,
     .key = "clock_factor",
     .range = "must be a factor from 1 to 1e7",
     .help = "testing: the watch's clock (times, --duration, --period)\n"
             "runs F times faster than real time ({default})"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(loop_opts, 0),
    OPT_GROUP(links_probe_opts, offsetof(struct watch_opts, links_probe)),
    OPT_GROUP(output_opts, 0),
    OPT_GROUP(detect_opts, 0),
    OPT_GROUP(opts_output, offsetof(struct watch_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct watch_opts, out.quiet)),
    OPT_GROUP(opts_timeout, offsetof(struct watch_opts, timeout_s)),
    {NULL, 0, 0},
};

static int check(void *opts, char *err, size_t len)
{
	struct watch_opts *o = opts;
	if (2 * o->confirm > o->window) {
		snprintf(err, len, "watch: --confirm %d is more than half of --detect-window %d",
		         o->confirm, o->window);
		return EXIT_USAGE;
	}
	if (o->period_s <= 0) {
		snprintf(err, len, "watch: --period must be more than 0 seconds");
		return EXIT_USAGE;
	}
	o->small_bytes -= o->small_bytes % 4; /* whole float32 elements */
	o->large_bytes -= o->large_bytes % 4;
	return EXIT_OK;
}

const struct cmd_spec watch_spec = {
    .name = "watch",
    .synopsis = "mpirun -np N collscope watch [options]",
    .description =
        "A soak mode that finds fail-slow episodes as they happen. Every --period, within a\n"
        "duty cycle of at most --duty-percent, one round: the library's all-reduce of\n"
        "--small-bytes (latency: the median of --small-iters calls), of --large-bytes (bus\n"
        "bandwidth), and every --links-every rounds a links round (the bandwidth from each\n"
        "host to each other). Each series goes through an online form of trend's change-point\n"
        "test (E-divisive means over the newest --detect-window samples, a step of at least\n"
        "--min-step-percent holding --confirm samples); a change is printed and written with\n"
        "its time, series and step, and on a link series with the links classifier's\n"
        "attribution (host, link or segment, and direction). --metrics is OpenMetrics text for\n"
        "node_exporter's textfile collector, --jsonl every sample and change; memory stays\n"
        "flat (rings). SIGTERM and SIGINT end the watch after the current round, everything\n"
        "written; SIGHUP reopens --jsonl (the metrics file is replaced every round).\n",
    .exit_codes = "exit codes: 0 watched (changes found or not), 2 bad usage, 3 wrong results,\n"
                  "            4 hang or dead rank, 5 MPI, memory or I/O error\n",
    .groups = groups,
    .size = sizeof(struct watch_opts),
    .check = check,
};
