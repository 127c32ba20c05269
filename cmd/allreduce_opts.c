/*
 * Options of `collscope allreduce` (nccl-tests' letters where they exist),
 * their defaults, their validation and their echo into the report's config.
 */
#include <mpi.h>

#include "allreduce.h"
#include "executor.h"
#include "parse.h"
#include "report_io.h"
#include "trace.h"
#include "watchdog.h"

#include <getopt.h>
#include <math.h>
#include <string.h>

const char cmd_allreduce_usage[] =
	"usage: mpirun -np N collscope allreduce [options]\n\n"
	"Sweeps every selected all-reduce variant across message sizes: times each point\n"
	"(warm-up, then iterations each after a barrier; an iteration's time is the\n"
	"slowest rank's), verifies every result, and prints p50/p99 time, algorithm and\n"
	"bus bandwidth (nccl-tests' definitions) per point, then the peak per variant.\n\n"
	"  -a, --algo LIST          variants, comma-separated, or 'all' (default all)\n"
	"  -b, --min-bytes SIZE     smallest message (default 8; suffixes K M G T)\n"
	"  -e, --max-bytes SIZE     largest message (default 64M)\n"
	"  -f, --step-factor X      size multiplier between points, > 1 (default 2)\n"
	"      --sizes LIST         exactly these sizes, comma-separated (instead of -b/-e/-f)\n"
	"  -n, --iters N            timed iterations per point (default adaptive)\n"
	"  -w, --warmup N           untimed iterations per point (default 5)\n"
	"      --time-per-size S    adaptive budget per point in seconds (default 0.25):\n"
	"                           at least 10 and up to 1000 iterations\n"
	"  -d, --dtype T            float32 float64 int32 int64 bfloat16 (default float32)\n"
	"  -r, --op OP              sum prod min max (default sum)\n"
	"      --in-place           input and output in one buffer (default out of place)\n"
	"  -c, --check 0|1          verify every result (default 1)\n"
	"      --segment-bytes SIZE message segment of the point-to-point variants (256K)\n"
	"      --min-busbw GBPS     acceptance gate: exit 1 naming every variant whose\n"
	"                           busbw at the largest size is below GBPS\n"
	"      --trace              record every step of every call (times, peers, bytes,\n"
	"                           receive waits) and name the slow hops of each point;\n"
	"                           a hang's report then holds each rank's last steps\n"
	"      --trace-entries N    steps each rank keeps, 16 to 4194304 (default 8192)\n"
	"      --timeout SECONDS    watchdog: a rank that makes no progress for this long\n"
	"                           is a hang: exit 4 naming it (default 600; 0 disables)\n"
	"  -o, --output FILE        write the JSON report (atomically, after every point,\n"
	"                           with \"complete\": false until the sweep ends)\n"
	"      --force              overwrite an existing output file\n"
	"      --format table|csv   stdout format (default table)\n"
	"  -q, --quiet              no progress lines on stderr\n"
	"  -h, --help               this text\n\n"
	"exit codes: 0 ok, 1 below --min-busbw, 2 bad usage, 3 wrong results,\n"
	"            4 hang or dead rank, 5 MPI, memory or I/O error\n";

static const struct option longopts[] = {
	{"algo", required_argument, NULL, 'a'},       {"min-bytes", required_argument, NULL, 'b'},
	{"max-bytes", required_argument, NULL, 'e'},  {"step-factor", required_argument, NULL, 'f'},
	{"iters", required_argument, NULL, 'n'},      {"warmup", required_argument, NULL, 'w'},
	{"time-per-size", required_argument, NULL, 'T'},
	{"dtype", required_argument, NULL, 'd'},      {"op", required_argument, NULL, 'r'},
	{"in-place", no_argument, NULL, 'I'},         {"check", required_argument, NULL, 'c'},
	{"segment-bytes", required_argument, NULL, 'S'},
	{"min-busbw", required_argument, NULL, 'G'},  {"output", required_argument, NULL, 'o'},
	{"force", no_argument, NULL, 'F'},            {"format", required_argument, NULL, 'R'},
	{"quiet", no_argument, NULL, 'q'},            {"timeout", required_argument, NULL, 't'},
	{"sizes", required_argument, NULL, 'z'},
	{"trace", no_argument, NULL, 'X'},            {"trace-entries", required_argument, NULL, 'E'},
	{0},
};

static void defaults(struct ar_opts *o)
{
	memset(o, 0, sizeof *o);
	for (size_t i = 0; i < ar_variant_count(); i++)
		o->variants[i] = true;
	o->min_bytes = 8;
	o->max_bytes = (uint64_t)64 << 20;
	o->step_factor = 2;
	o->warmup = 5;
	o->time_per_size_s = 0.25;
	o->dtype = AR_FLOAT32;
	o->op = AR_SUM;
	o->check = true;
	o->segment_bytes = EXEC_DEFAULT_SEGMENT_BYTES;
	o->min_busbw_gbps = NAN;
	o->timeout_s = WATCHDOG_DEFAULT_TIMEOUT_S;
	o->trace_entries = TRACE_DEFAULT_ENTRIES;
}

static int bad(const struct cmd_ctx *ctx, const char *opt, const char *value, const char *why)
{
	cmd_error(ctx, "allreduce: bad value '%s' for %s: %s", value, opt, why);
	return EXIT_USAGE;
}

/* --sizes: ascending after sorting, no duplicates, each a byte count. */
static int parse_size_list(const struct cmd_ctx *ctx, char *arg, struct ar_opts *o)
{
	char *items[AR_MAX_SIZES];
	const char *why = NULL;
	int n = parse_list(arg, items, AR_MAX_SIZES, &why);
	if (n < 0)
		return bad(ctx, "--sizes", arg, why);
	o->nsizes = 0;
	for (int i = 0; i < n; i++) {
		uint64_t v;
		if (parse_bytes(items[i], &v, &why) != 0)
			return bad(ctx, "--sizes", items[i], why);
		int at = o->nsizes;
		while (at > 0 && o->sizes[at - 1] > v)
			at--;
		if (at > 0 && o->sizes[at - 1] == v)
			return bad(ctx, "--sizes", items[i], "given twice");
		memmove(&o->sizes[at + 1], &o->sizes[at], (size_t)(o->nsizes - at) * sizeof o->sizes[0]);
		o->sizes[at] = v;
		o->nsizes++;
	}
	o->explicit_sizes = true;
	o->min_bytes = o->sizes[0];
	o->max_bytes = o->sizes[o->nsizes - 1];
	return 0;
}

static int parse_one(const struct cmd_ctx *ctx, int c, char *arg, struct ar_opts *o)
{
	const char *why = "out of range";
	uint64_t u;
	switch (c) {
	case 'a': return cmd_select_variants(ctx, "allreduce", arg, o->variants) ? EXIT_USAGE : 0;
	case 'd': return cmd_select_dtype(ctx, "allreduce", arg, &o->dtype) ? EXIT_USAGE : 0;
	case 'r': return cmd_select_op(ctx, "allreduce", arg, &o->op) ? EXIT_USAGE : 0;
	case 'b':
	case 'e':
		if (parse_bytes(arg, c == 'b' ? &o->min_bytes : &o->max_bytes, &why) != 0)
			return bad(ctx, c == 'b' ? "--min-bytes" : "--max-bytes", arg, why);
		return 0;
	case 'f':
		if (parse_double(arg, 1.0, 1e6, &o->step_factor, &why) != 0 || o->step_factor <= 1)
			return bad(ctx, "--step-factor", arg, "must be a number greater than 1");
		return 0;
	case 'n':
		if (parse_u64(arg, 1, AR_MAX_ITERS, &u, &why) != 0)
			return bad(ctx, "--iters", arg, "must be a whole number from 1 to 100000");
		o->iters = (int)u;
		return 0;
	case 'w':
		if (parse_u64(arg, 0, AR_MAX_ITERS, &u, &why) != 0)
			return bad(ctx, "--warmup", arg, "must be a whole number from 0 to 100000");
		o->warmup = (int)u;
		return 0;
	case 'T':
		if (parse_double(arg, 0.001, 3600, &o->time_per_size_s, &why) != 0)
			return bad(ctx, "--time-per-size", arg, "must be seconds from 0.001 to 3600");
		return 0;
	case 'c':
		if (strcmp(arg, "0") != 0 && strcmp(arg, "1") != 0)
			return bad(ctx, "--check", arg, "must be 0 or 1");
		o->check = arg[0] == '1';
		return 0;
	case 'S':
		if (parse_bytes(arg, &o->segment_bytes, &why) != 0 || o->segment_bytes == 0 ||
		    o->segment_bytes > EXEC_MAX_SEGMENT_BYTES)
			return bad(ctx, "--segment-bytes", arg, "must be from 1 to 1G");
		return 0;
	case 'G':
		if (parse_double(arg, 0, 1e6, &o->min_busbw_gbps, &why) != 0)
			return bad(ctx, "--min-busbw", arg, why);
		return 0;
	case 'R':
		if (strcmp(arg, "table") != 0 && strcmp(arg, "csv") != 0)
			return bad(ctx, "--format", arg, "must be table or csv");
		o->csv = arg[0] == 'c';
		return 0;
	case 'z': return parse_size_list(ctx, arg, o);
	case 'X': o->trace = true; return 0;
	case 'E':
		if (parse_u64(arg, TRACE_MIN_ENTRIES, TRACE_MAX_ENTRIES, &o->trace_entries, &why) != 0)
			return bad(ctx, "--trace-entries", arg, "must be a whole number from 16 to 4194304");
		return 0;
	case 't': return watchdog_parse_timeout(ctx, "allreduce", arg, &o->timeout_s) ? EXIT_USAGE : 0;
	case 'o': o->output = arg; return 0;
	case 'F': o->force = true; return 0;
	case 'I': o->in_place = true; return 0;
	case 'q': o->quiet = true; return 0;
	default: return -1;
	}
}

static int check_sizes(const struct cmd_ctx *ctx, struct ar_opts *o)
{
	if (o->explicit_sizes)
		return 0;
	if (o->min_bytes > o->max_bytes) {
		cmd_error(ctx, "allreduce: --min-bytes %llu is larger than --max-bytes %llu",
		          (unsigned long long)o->min_bytes, (unsigned long long)o->max_bytes);
		return EXIT_USAGE;
	}
	o->nsizes = 0;
	for (uint64_t s = o->min_bytes; s <= o->max_bytes;) {
		if (o->nsizes == AR_MAX_SIZES) {
			cmd_error(ctx, "allreduce: more than %d message sizes from %llu to %llu bytes by %g",
			          AR_MAX_SIZES, (unsigned long long)o->min_bytes,
			          (unsigned long long)o->max_bytes, o->step_factor);
			return EXIT_USAGE;
		}
		o->sizes[o->nsizes++] = s;
		double next = floor((double)s * o->step_factor);
		if (next > (double)o->max_bytes)
			break;
		s = (uint64_t)next > s ? (uint64_t)next : s + 1;
	}
	return 0;
}

int ar_opts_parse(int argc, char **argv, const struct cmd_ctx *ctx, struct ar_opts *o)
{
	char err[512];
	int c;
	defaults(o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "a:b:e:f:n:w:d:r:c:o:q", longopts, NULL)) != -1) {
		int rc = parse_one(ctx, c, optarg, o);
		if (rc < 0)
			return cmd_usage_error(ctx, "allreduce", argc, argv);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		cmd_error(ctx, "allreduce: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (check_sizes(ctx, o) != 0)
		return EXIT_USAGE;
	if (o->output && report_check_output_path(o->output, o->force, err, sizeof err) != REPORT_OK) {
		cmd_error(ctx, "allreduce: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static bool add_sizes(cJSON *cfg, const struct ar_opts *o)
{
	cJSON *a = cJSON_AddArrayToObject(cfg, "sizes_bytes");
	for (int i = 0; a && i < o->nsizes; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber((double)o->sizes[i])))
			return false;
	return a != NULL;
}

cJSON *ar_opts_to_json(cJSON *root, const struct ar_opts *o)
{
	cJSON *cfg = cJSON_AddObjectToObject(root, "config");
	cJSON *algos = cfg ? cJSON_AddArrayToObject(cfg, "algorithms") : NULL;
	for (size_t i = 0; algos && ar_variants[i]; i++)
		if (o->variants[i])
			cJSON_AddItemToArray(algos, cJSON_CreateString(ar_variants[i]->name));
	bool ok = algos && cJSON_AddNumberToObject(cfg, "min_bytes", (double)o->min_bytes) &&
	          cJSON_AddNumberToObject(cfg, "max_bytes", (double)o->max_bytes) &&
	          cJSON_AddNumberToObject(cfg, "step_factor", o->step_factor) &&
	          add_sizes(cfg, o) &&
	          (o->iters ? cJSON_AddNumberToObject(cfg, "iters", o->iters)
	                    : cJSON_AddStringToObject(cfg, "iters", "adaptive")) &&
	          cJSON_AddNumberToObject(cfg, "warmup", o->warmup) &&
	          cJSON_AddNumberToObject(cfg, "time_per_size_s", o->time_per_size_s) &&
	          cJSON_AddNumberToObject(cfg, "adaptive_min_iters", AR_ADAPTIVE_MIN_ITERS) &&
	          cJSON_AddNumberToObject(cfg, "adaptive_max_iters", AR_ADAPTIVE_MAX_ITERS) &&
	          cJSON_AddStringToObject(cfg, "dtype", ar_dtype_name(o->dtype)) &&
	          cJSON_AddStringToObject(cfg, "op", ar_op_name(o->op)) &&
	          cJSON_AddBoolToObject(cfg, "in_place", o->in_place) &&
	          cJSON_AddBoolToObject(cfg, "check", o->check) &&
	          cJSON_AddNumberToObject(cfg, "segment_bytes", (double)o->segment_bytes) &&
	          report_add_number(cfg, "min_busbw_gbps", o->min_busbw_gbps) &&
	          cJSON_AddStringToObject(cfg, "format", o->csv ? "csv" : "table") &&
	          (o->output ? cJSON_AddStringToObject(cfg, "output", o->output)
	                     : cJSON_AddNullToObject(cfg, "output")) &&
	          cJSON_AddBoolToObject(cfg, "force", o->force) &&
	          cJSON_AddNumberToObject(cfg, "timeout_s", o->timeout_s) &&
	          cJSON_AddBoolToObject(cfg, "trace", o->trace) &&
	          cJSON_AddNumberToObject(cfg, "trace_entries", (double)o->trace_entries);
	return ok ? cfg : NULL;
}
