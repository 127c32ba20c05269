/*
 * Options of `collscope scale`: their defaults, their validation (every bad
 * value exits 2 naming it) and their echo into the report's config.
 */
#include <mpi.h>

#include "executor.h"
#include "parse.h"
#include "report_io.h"
#include "scale.h"
#include "trace.h"
#include "watchdog.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cmd_scale_usage[] =
    "usage: mpirun -np N collscope scale [options]\n\n"
    "Measures all-reduce variants on sub-communicators of 2, 4, 8, ... ranks and the\n"
    "whole job: p50/p99 time, busbw, bandwidth efficiency busbw(n)/busbw(n_min) and\n"
    "latency growth t(n)/t(n_min). Fits time = alpha x messages + beta x bytes +\n"
    "gamma x reduced bytes, counted on each variant's own schedule, and predicts\n"
    "larger rank counts. With --compute-ms, the data-parallel step model: weak- and\n"
    "strong-scaling speedup per rank count and the sweet spot past which more ranks\n"
    "make training slower.\n\n"
    "  -a, --algo LIST          variants, comma-separated, or 'all' (default ring,tree,mpi)\n"
    "  -b, --min-bytes SIZE     smallest message (default 8; suffixes K M G T)\n"
    "  -e, --max-bytes SIZE     largest message (default 64M)\n"
    "  -f, --step-factor X      sweep from -b by X up to -e (default: only -b and -e)\n"
    "      --ranks LIST         rank counts, comma-separated, each 1..N\n"
    "                           (default 2, 4, 8, ... below N, and N)\n"
    "      --placement P        packed: fill a host before the next (default);\n"
    "                           spread: round-robin over the hosts\n"
    "      --extrapolate LIST   rank counts to predict, 2..65536, or 'none'\n"
    "                           (default 64,256,1024,4096)\n"
    "      --compute-ms MS      compute time of one training step on one rank:\n"
    "                           turns on the data-parallel step model\n"
    "      --grad-bytes SIZE    gradient all-reduced per step (default -e); it is\n"
    "                           measured as one of the sizes\n"
    "      --overlap F          fraction 0..1 of the all-reduce hidden behind compute\n"
    "                           (default 0; never more than the compute time)\n"
    "  -n, --iters N            timed iterations per point (default adaptive)\n"
    "  -w, --warmup N           untimed iterations per point (default 5)\n"
    "      --time-per-size S    adaptive budget per point in seconds (default 0.25):\n"
    "                           at least 10 and up to 1000 iterations\n"
    "  -d, --dtype T            float32 float64 int32 int64 bfloat16 (default float32)\n"
    "  -r, --op OP              sum prod min max (default sum)\n"
    "  -c, --check 0|1          verify every result (default 1)\n"
    "      --segment-bytes SIZE message segment of the point-to-point variants (256K)\n"
    "  -o, --output FILE        write the JSON report (atomically)\n"
    "      --force              overwrite an existing output file\n"
    "  -q, --quiet              no progress lines on stderr\n"
    "      --trace              record every step of every call and name the slow hops\n"
    "                           of each point (as allreduce --trace)\n"
    "      --trace-entries N    steps each rank keeps, 16 to 4194304 (default 8192)\n"
    "      --timeout SECONDS    watchdog: no progress for this long is a hang, exit 4\n"
    "                           naming the ranks (default 600; 0 disables)\n"
    "  -h, --help               this text\n\n"
    "exit codes: 0 ok, 2 bad usage, 3 wrong results, 4 hang or dead rank,\n"
    "            5 MPI, memory or I/O error\n";

enum {
	OPT_RANKS = 256,
	OPT_PLACEMENT,
	OPT_EXTRAPOLATE,
	OPT_COMPUTE,
	OPT_GRAD,
	OPT_OVERLAP,
	OPT_TIME,
	OPT_SEGMENT,
	OPT_FORCE,
	OPT_TRACE,
	OPT_TRACE_ENTRIES,
};

static const struct option longopts[] = {
    {"algo", required_argument, NULL, 'a'},
    {"min-bytes", required_argument, NULL, 'b'},
    {"max-bytes", required_argument, NULL, 'e'},
    {"step-factor", required_argument, NULL, 'f'},
    {"ranks", required_argument, NULL, OPT_RANKS},
    {"placement", required_argument, NULL, OPT_PLACEMENT},
    {"extrapolate", required_argument, NULL, OPT_EXTRAPOLATE},
    {"compute-ms", required_argument, NULL, OPT_COMPUTE},
    {"grad-bytes", required_argument, NULL, OPT_GRAD},
    {"overlap", required_argument, NULL, OPT_OVERLAP},
    {"iters", required_argument, NULL, 'n'},
    {"warmup", required_argument, NULL, 'w'},
    {"time-per-size", required_argument, NULL, OPT_TIME},
    {"dtype", required_argument, NULL, 'd'},
    {"op", required_argument, NULL, 'r'},
    {"check", required_argument, NULL, 'c'},
    {"segment-bytes", required_argument, NULL, OPT_SEGMENT},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, OPT_FORCE},
    {"timeout", required_argument, NULL, 'D'},
    {"quiet", no_argument, NULL, 'q'},
    {"trace", no_argument, NULL, OPT_TRACE},
    {"trace-entries", required_argument, NULL, OPT_TRACE_ENTRIES},
    {0},
};

static void defaults(struct scale_opts *o)
{
	static const int extrapolate[] = {64, 256, 1024, 4096};
	memset(o, 0, sizeof *o);
	o->timeout_s = WATCHDOG_DEFAULT_TIMEOUT_S;
	for (int i = 0; ar_variants[i]; i++)
		o->variants[i] = strcmp(ar_variants[i]->name, "ring") == 0 ||
		                 strcmp(ar_variants[i]->name, "tree") == 0 ||
		                 strcmp(ar_variants[i]->name, "mpi") == 0;
	o->min_bytes = 8;
	o->max_bytes = (uint64_t)64 << 20;
	o->nextrapolate = (int)(sizeof extrapolate / sizeof extrapolate[0]);
	memcpy(o->extrapolate, extrapolate, sizeof extrapolate);
	o->compute_ms = NAN;
	o->warmup = 5;
	o->time_per_size_s = 0.25;
	o->dtype = AR_FLOAT32;
	o->op = AR_SUM;
	o->check = true;
	o->segment_bytes = EXEC_DEFAULT_SEGMENT_BYTES;
	o->trace_entries = TRACE_DEFAULT_ENTRIES;
}

static int bad(const struct cmd_ctx *ctx, const char *opt, const char *value, const char *why)
{
	cmd_error(ctx, "scale: bad value '%s' for %s: %s", value, opt, why);
	return EXIT_USAGE;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* A list of whole numbers in [min, max], sorted and without repeats, into out. */
static int parse_counts(const struct cmd_ctx *ctx, const char *opt, const char *arg, int min,
                        int max, int *out, int *nout, int max_items)
{
	char buf[1024], *items[SCALE_MAX_RANK_COUNTS];
	char why_range[96];
	const char *why = NULL;
	uint64_t u;
	if (strlen(arg) >= sizeof buf)
		return bad(ctx, opt, arg, "list too long");
	snprintf(buf, sizeof buf, "%s", arg);
	int n = parse_list(buf, items, max_items, &why);
	if (n < 0)
		return bad(ctx, opt, arg, why);
	snprintf(why_range, sizeof why_range, "each must be a whole number from %d to %d", min,
	         max);
	for (int i = 0; i < n; i++) {
		if (parse_u64(items[i], (uint64_t)min, (uint64_t)max, &u, &why) != 0) {
			cmd_error(ctx, "scale: bad value '%s' in %s '%s': %s", items[i], opt, arg,
			          why_range);
			return EXIT_USAGE;
		}
		out[i] = (int)u;
	}
	qsort(out, (size_t)n, sizeof *out, cmp_int);
	*nout = 0;
	for (int i = 0; i < n; i++)
		if (*nout == 0 || out[*nout - 1] != out[i])
			out[(*nout)++] = out[i];
	return 0;
}

static int parse_size(const struct cmd_ctx *ctx, const char *opt, const char *arg, uint64_t *out)
{
	const char *why = "out of range";
	if (parse_bytes(arg, out, &why) != 0)
		return bad(ctx, opt, arg, why);
	return 0;
}

static int parse_number(const struct cmd_ctx *ctx, int c, const char *arg, struct scale_opts *o)
{
	const char *why = NULL;
	uint64_t u;
	switch (c) {
	case 'f':
		if (parse_double(arg, 1.0, 1e6, &o->step_factor, &why) != 0 || o->step_factor <= 1)
			return bad(ctx, "--step-factor", arg, "must be a number greater than 1");
		return 0;
	case OPT_COMPUTE:
		if (parse_double(arg, 1e-6, 1e9, &o->compute_ms, &why) != 0)
			return bad(ctx, "--compute-ms", arg,
			           "must be milliseconds from 1e-6 to 1e9");
		return 0;
	case OPT_OVERLAP:
		if (parse_double(arg, 0, 1, &o->overlap, &why) != 0)
			return bad(ctx, "--overlap", arg, "must be a fraction from 0 to 1");
		return 0;
	case 'n':
	case 'w':
		if (parse_u64(arg, c == 'n' ? 1 : 0, SCALE_MAX_ITERS, &u, &why) != 0)
			return bad(ctx, c == 'n' ? "--iters" : "--warmup", arg,
			           c == 'n' ? "must be a whole number from 1 to 100000"
			                    : "must be a whole number from 0 to 100000");
		*(c == 'n' ? &o->iters : &o->warmup) = (int)u;
		return 0;
	case OPT_TIME:
		if (parse_double(arg, 0.001, 3600, &o->time_per_size_s, &why) != 0)
			return bad(ctx, "--time-per-size", arg,
			           "must be seconds from 0.001 to 3600");
		return 0;
	case OPT_TRACE_ENTRIES:
		if (parse_u64(arg, TRACE_MIN_ENTRIES, TRACE_MAX_ENTRIES, &o->trace_entries, &why) != 0)
			return bad(ctx, "--trace-entries", arg,
			           "must be a whole number from 16 to 4194304");
		return 0;
	default: return -1;
	}
}

/* Flags seen, for the checks that relate options to each other. */
struct seen {
	bool ranks, grad, overlap;
	char *ranks_arg;
};

static int parse_one(const struct cmd_ctx *ctx, int c, char *arg, struct scale_opts *o,
                     struct seen *seen)
{
	switch (c) {
	case 'a': return cmd_select_variants(ctx, "scale", arg, o->variants) ? EXIT_USAGE : 0;
	case 'd': return cmd_select_dtype(ctx, "scale", arg, &o->dtype) ? EXIT_USAGE : 0;
	case 'r': return cmd_select_op(ctx, "scale", arg, &o->op) ? EXIT_USAGE : 0;
	case 'b': return parse_size(ctx, "--min-bytes", arg, &o->min_bytes);
	case 'e': return parse_size(ctx, "--max-bytes", arg, &o->max_bytes);
	case OPT_GRAD:
		seen->grad = true;
		return parse_size(ctx, "--grad-bytes", arg, &o->grad_bytes);
	case OPT_SEGMENT:
		if (parse_size(ctx, "--segment-bytes", arg, &o->segment_bytes) != 0)
			return EXIT_USAGE;
		if (o->segment_bytes == 0 || o->segment_bytes > EXEC_MAX_SEGMENT_BYTES)
			return bad(ctx, "--segment-bytes", arg, "must be from 1 to 1G");
		return 0;
	case OPT_RANKS:
		seen->ranks = true;
		seen->ranks_arg = arg;
		return 0; /* checked once N is known */
	case OPT_PLACEMENT:
		if (strcmp(arg, "packed") != 0 && strcmp(arg, "spread") != 0)
			return bad(ctx, "--placement", arg, "must be packed or spread");
		o->spread = arg[0] == 's';
		return 0;
	case OPT_EXTRAPOLATE:
		if (strcmp(arg, "none") == 0) {
			o->nextrapolate = 0;
			return 0;
		}
		return parse_counts(ctx, "--extrapolate", arg, 2, SCALE_MAX_EXTRAPOLATE_RANKS,
		                    o->extrapolate, &o->nextrapolate, SCALE_MAX_EXTRAPOLATE);
	case 'c':
		if (strcmp(arg, "0") != 0 && strcmp(arg, "1") != 0)
			return bad(ctx, "--check", arg, "must be 0 or 1");
		o->check = arg[0] == '1';
		return 0;
	case 'o': o->output = arg; return 0;
	case OPT_FORCE: o->force = true; return 0;
	case 'q': o->quiet = true; return 0;
	case OPT_TRACE: o->trace = true; return 0;
	case 'D': return watchdog_parse_timeout(ctx, "scale", arg, &o->timeout_s) ? EXIT_USAGE : 0;
	case OPT_OVERLAP: seen->overlap = true; return parse_number(ctx, c, arg, o);
	default: return parse_number(ctx, c, arg, o);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Appends size rounded down to whole elements; -1 when the list is full. */
static int add_size(struct scale_opts *o, uint64_t size)
{
	uint64_t w = ar_dtype_bytes(o->dtype);
	if (o->nsizes == SCALE_MAX_SIZES)
		return -1;
	o->sizes[o->nsizes++] = size / w * w;
	return 0;
}

/* The sizes: -b and -e, or the sweep by -f; the gradient's added; whole elements, distinct. */
static int check_sizes(const struct cmd_ctx *ctx, struct scale_opts *o)
{
	size_t w = ar_dtype_bytes(o->dtype);
	if (o->min_bytes > o->max_bytes) {
		cmd_error(ctx, "scale: --min-bytes %llu is larger than --max-bytes %llu",
		          (unsigned long long)o->min_bytes, (unsigned long long)o->max_bytes);
		return EXIT_USAGE;
	}
	if (o->min_bytes < w) {
		cmd_error(ctx, "scale: --min-bytes %llu is less than one %s element (%zu bytes)",
		          (unsigned long long)o->min_bytes, ar_dtype_name(o->dtype), w);
		return EXIT_USAGE;
	}
	o->nsizes = 0;
	for (uint64_t s = o->min_bytes; o->step_factor > 0 && s <= o->max_bytes;) {
		if (add_size(o, s) != 0) {
			cmd_error(ctx,
			          "scale: more than %d message sizes from %llu to %llu bytes by %g",
			          SCALE_MAX_SIZES - 1, (unsigned long long)o->min_bytes,
			          (unsigned long long)o->max_bytes, o->step_factor);
			return EXIT_USAGE;
		}
		double next = floor((double)s * o->step_factor);
		if (next > (double)o->max_bytes)
			break;
		s = (uint64_t)next > s ? (uint64_t)next : s + 1;
	}
	if (o->step_factor == 0) {
		add_size(o, o->min_bytes);
		add_size(o, o->max_bytes);
	}
	if (!isnan(o->compute_ms) && add_size(o, o->grad_bytes) != 0) {
		cmd_error(ctx, "scale: too many message sizes with --grad-bytes");
		return EXIT_USAGE;
	}
	o->grad_bytes = o->grad_bytes / w * w;
	qsort(o->sizes, (size_t)o->nsizes, sizeof *o->sizes, cmp_u64);
	int n = 0;
	for (int i = 0; i < o->nsizes; i++)
		if (n == 0 || o->sizes[n - 1] != o->sizes[i])
			o->sizes[n++] = o->sizes[i];
	o->nsizes = n;
	return EXIT_OK;
}

/* --ranks, or 2, 4, 8, ... below the world size and the world size. */
static int check_ranks(const struct cmd_ctx *ctx, struct scale_opts *o, const struct seen *seen)
{
	if (seen->ranks)
		return parse_counts(ctx, "--ranks", seen->ranks_arg, 1, ctx->nranks, o->ranks,
		                    &o->nranks, SCALE_MAX_RANK_COUNTS);
	o->nranks = 0;
	for (int n = 2; n < ctx->nranks; n *= 2)
		o->ranks[o->nranks++] = n;
	o->ranks[o->nranks++] = ctx->nranks;
	return EXIT_OK;
}

/* The options that only mean something together, and the gradient's default. */
static int check_step(const struct cmd_ctx *ctx, struct scale_opts *o, const struct seen *seen)
{
	size_t w = ar_dtype_bytes(o->dtype);
	if (isnan(o->compute_ms) && (seen->grad || seen->overlap)) {
		cmd_error(ctx, "scale: %s needs --compute-ms (the step model's compute time)",
		          seen->grad ? "--grad-bytes" : "--overlap");
		return EXIT_USAGE;
	}
	if (!seen->grad)
		o->grad_bytes = o->max_bytes;
	if (!isnan(o->compute_ms) && o->grad_bytes < w) {
		cmd_error(ctx, "scale: --grad-bytes %llu is less than one %s element (%zu bytes)",
		          (unsigned long long)o->grad_bytes, ar_dtype_name(o->dtype), w);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int scale_opts_parse(int argc, char **argv, const struct cmd_ctx *ctx, struct scale_opts *o)
{
	struct seen seen = {0};
	char err[512];
	int c, rc = EXIT_OK;
	defaults(o);
	opterr = 0;
	optind = 1;
	while (rc == EXIT_OK &&
	       (c = getopt_long(argc, argv, "a:b:e:f:n:w:d:r:c:o:q", longopts, NULL)) != -1) {
		rc = parse_one(ctx, c, optarg, o, &seen);
		if (rc < 0)
			return cmd_usage_error(ctx, "scale", argc, argv);
	}
	if (rc != EXIT_OK)
		return rc;
	if (optind < argc) {
		cmd_error(ctx, "scale: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = check_step(ctx, o, &seen)) != EXIT_OK || (rc = check_sizes(ctx, o)) != EXIT_OK ||
	    (rc = check_ranks(ctx, o, &seen)) != EXIT_OK)
		return rc;
	if (o->output &&
	    report_check_output_path(o->output, o->force, err, sizeof err) != REPORT_OK) {
		cmd_error(ctx, "scale: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static cJSON *add_ints(cJSON *cfg, const char *name, const int *v, int n)
{
	cJSON *a = cJSON_AddArrayToObject(cfg, name);
	for (int i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i])))
			return NULL;
	return a;
}

static cJSON *add_lists(cJSON *cfg, const struct scale_opts *o)
{
	cJSON *algos = cJSON_AddArrayToObject(cfg, "algorithms");
	cJSON *sizes = cJSON_AddArrayToObject(cfg, "sizes_bytes");
	for (size_t i = 0; algos && ar_variants[i]; i++)
		if (o->variants[i] &&
		    !cJSON_AddItemToArray(algos, cJSON_CreateString(ar_variants[i]->name)))
			return NULL;
	for (int i = 0; sizes && i < o->nsizes; i++)
		if (!cJSON_AddItemToArray(sizes, cJSON_CreateNumber((double)o->sizes[i])))
			return NULL;
	bool ok = algos && sizes && add_ints(cfg, "ranks", o->ranks, o->nranks) &&
	          add_ints(cfg, "extrapolate", o->extrapolate, o->nextrapolate);
	return ok ? cfg : NULL;
}

cJSON *scale_opts_to_json(cJSON *root, const struct scale_opts *o)
{
	cJSON *cfg = cJSON_AddObjectToObject(root, "config");
	bool step = !isnan(o->compute_ms);
	bool ok = cfg && add_lists(cfg, o) &&
	          cJSON_AddNumberToObject(cfg, "min_bytes", (double)o->min_bytes) &&
	          cJSON_AddNumberToObject(cfg, "max_bytes", (double)o->max_bytes) &&
	          (o->step_factor > 0 ? cJSON_AddNumberToObject(cfg, "step_factor", o->step_factor)
	                              : cJSON_AddNullToObject(cfg, "step_factor")) &&
	          cJSON_AddStringToObject(cfg, "placement", o->spread ? "spread" : "packed") &&
	          report_add_number(cfg, "compute_ms", o->compute_ms) &&
	          (step ? cJSON_AddNumberToObject(cfg, "grad_bytes", (double)o->grad_bytes)
	                : cJSON_AddNullToObject(cfg, "grad_bytes")) &&
	          cJSON_AddNumberToObject(cfg, "overlap", o->overlap) &&
	          (o->iters ? cJSON_AddNumberToObject(cfg, "iters", o->iters)
	                    : cJSON_AddStringToObject(cfg, "iters", "adaptive")) &&
	          cJSON_AddNumberToObject(cfg, "warmup", o->warmup) &&
	          cJSON_AddNumberToObject(cfg, "time_per_size_s", o->time_per_size_s) &&
	          cJSON_AddNumberToObject(cfg, "adaptive_min_iters", SCALE_ADAPTIVE_MIN_ITERS) &&
	          cJSON_AddNumberToObject(cfg, "adaptive_max_iters", SCALE_ADAPTIVE_MAX_ITERS) &&
	          cJSON_AddStringToObject(cfg, "dtype", ar_dtype_name(o->dtype)) &&
	          cJSON_AddStringToObject(cfg, "op", ar_op_name(o->op)) &&
	          cJSON_AddBoolToObject(cfg, "in_place", false) &&
	          cJSON_AddBoolToObject(cfg, "check", o->check) &&
	          cJSON_AddNumberToObject(cfg, "segment_bytes", (double)o->segment_bytes) &&
	          (o->output ? cJSON_AddStringToObject(cfg, "output", o->output)
	                     : cJSON_AddNullToObject(cfg, "output")) &&
	          cJSON_AddBoolToObject(cfg, "force", o->force) &&
	          cJSON_AddNumberToObject(cfg, "timeout_s", o->timeout_s) &&
	          cJSON_AddBoolToObject(cfg, "trace", o->trace) &&
	          cJSON_AddNumberToObject(cfg, "trace_entries", (double)o->trace_entries);
	return ok ? cfg : NULL;
}
