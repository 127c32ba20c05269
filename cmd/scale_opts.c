/*
 * Options of `collscope scale`: one table (cmd/opts.h) gives their parsing,
 * help, defaults and config echo; the checks relate them to each other and,
 * for --ranks, to the job's size.
 */
#include "cmd/scale_opts.h"
#include "cmd/opts_memory.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse.h"
#include "reports/model/overlap_model.h"

static const char *const placements[] = {"packed", "spread", NULL};

static int parse_ranks(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct scale_opts *s = base;
	int scratch[SCALE_MAX_RANK_COUNTS], n;
	/* the values are checked once N is known; the list's shape now */
	int rc = opts_parse_int_list(arg, o->name, 1, INT32_MAX, scratch, SCALE_MAX_RANK_COUNTS, &n,
	                             why, len);
	if (rc != 0)
		return rc;
	s->ranks_arg = arg;
	return 0;
}

static bool echo_ranks(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct scale_opts *s = base;
	(void)o;
	return opts_echo_ints(cfg, key, s->ranks, s->nranks);
}

static int parse_extrapolate(const char *arg, void *base, const struct opt *o, char *why,
                             size_t len)
{
	struct scale_opts *s = base;
	if (strcmp(arg, "none") == 0) {
		s->nextrapolate = 0;
		return 0;
	}
	return opts_parse_int_list(arg, o->name, 2, SCALE_MAX_EXTRAPOLATE_RANKS, s->extrapolate,
	                           SCALE_MAX_EXTRAPOLATE, &s->nextrapolate, why, len);
}

static bool echo_extrapolate(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct scale_opts *s = base;
	(void)o;
	return opts_echo_ints(cfg, key, s->extrapolate, s->nextrapolate);
}

static int parse_grad(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct scale_opts *s = base;
	const char *reason = NULL;
	(void)o;
	if (parse_bytes(arg, &s->grad_bytes, &reason) != 0) {
		snprintf(why, len, "%s", reason);
		return -1;
	}
	s->grad_given = true;
	return 0;
}

static int parse_overlap(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct scale_opts *s = base;
	const char *reason = NULL;
	(void)o;
	s->overlap_given = true;
	if (strcmp(arg, "measured") == 0) {
		s->overlap_measured = true;
		s->overlap = 0;
		return 0;
	}
	if (parse_double(arg, 0, 1, &s->overlap, &reason) != 0) {
		snprintf(why, len, "must be a fraction from 0 to 1, or 'measured'");
		return -1;
	}
	s->overlap_measured = false;
	return 0;
}

static bool echo_overlap(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct scale_opts *s = base;
	(void)o;
	return (s->overlap_measured ? cJSON_AddStringToObject(cfg, key, "measured")
	                            : cJSON_AddNumberToObject(cfg, key, s->overlap)) != NULL;
}

static bool echo_grad(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct scale_opts *s = base;
	(void)o;
	return isnan(s->compute_ms)
	           ? cJSON_AddNullToObject(cfg, key) != NULL
	           : cJSON_AddNumberToObject(cfg, key, (double)s->grad_bytes) != NULL;
}

static bool echo_step(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	double f = *(const double *)((const char *)base + o->offset);
	return f > 0 ? cJSON_AddNumberToObject(cfg, key, f) != NULL
	             : cJSON_AddNullToObject(cfg, key) != NULL;
}

static const struct opt variants_opt[] = {
    {.name = "algo",
     .letter = 'a',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, variants),
     .metavar = "LIST",
     .def = "ring,tree,mpi",
     .key = "algorithms",
     .parse = opts_parse_variants,
     .echo = opts_echo_variants,
     .help = "variants, comma-separated ({default}), or 'all':\n"
             "every variant but the guideline mock-ups, which go by\n"
             "name (see 'list')"},
};

static const struct opt step_opt[] = {
    {.name = "step-factor",
     .letter = 'f',
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, step_factor),
     .metavar = "X",
     .def_text = "only -b and -e",
     .min = 1,
     .max = 1e6,
     .flags = OPT_MIN_OPEN,
     .key = "step_factor",
     .echo = echo_step,
     .help = "sweep from -b by X up to -e"},
};

static const struct opt scale_only[] = {
    {.name = "ranks",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct scale_opts, ranks),
     .metavar = "LIST",
     .def_text = "2, 4, 8, ... below N, and N",
     .key = "ranks",
     .parse = parse_ranks,
     .echo = echo_ranks,
     .help = "rank counts, comma-separated, each 1..N\n({default})"},
    {.name = "placement",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct scale_opts, placement),
     .metavar = "P",
     .def = "packed",
     .def_text = "",
     .choices = placements,
     .key = "placement",
     .help = "packed: fill a host before the next (default);\n"
             "spread: round-robin over the hosts"},
    {.name = "extrapolate",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct scale_opts, extrapolate),
     .metavar = "LIST",
     .def = "64,256,1024,4096",
     .key = "extrapolate",
     .parse = parse_extrapolate,
     .echo = echo_extrapolate,
     .help = "rank counts to predict, 2..65536, or 'none'\n({default})"},
    {.name = "compute-ms",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct scale_opts, compute_ms),
     .metavar = "MS",
     .min = 1e-6,
     .max = 1e9,
     .flags = OPT_NAN_DEFAULT,
     .key = "compute_ms",
     .range = "must be milliseconds from 1e-6 to 1e9",
     .help = "compute time of one training step on one rank:\n"
             "turns on the data-parallel step model"},
    {.name = "compress-ratio",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct scale_opts, compress_ratio),
     .metavar = "R",
     .min = 1,
     .max = 1e6,
     .flags = OPT_NAN_DEFAULT,
     .key = "compress_ratio",
     .range = "must be a ratio from 1 to 1e6",
     .help = "the step model again with the gradient compressed R times\n"
             "on the wire (a compressed variant's compression_ratio:\n"
             "bf16 2, int8 3.98): Tar x fit(bytes / R) / fit(bytes),\n"
             "each variant's fit, plus the cast's cost (--cast-gbps);\n"
             "needs --compute-ms"},
    {.name = "cast-gbps",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct scale_opts, cast_gbps),
     .metavar = "G",
     .min = 0,
     .max = 1e6,
     .flags = OPT_NAN_DEFAULT | OPT_MIN_OPEN,
     .key = "cast_gbps",
     .range = "must be GB/s above 0, at most 1e6",
     .help = "with --compress-ratio: the rate at which one rank encodes,\n"
             "and then decodes, its gradient (make bench's codec kernel\n"
             "rate per core); costs 2 x grad_bytes / G per step"},
    {.name = "grad-bytes",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct scale_opts, grad_bytes),
     .metavar = "SIZE",
     .def_text = "-e",
     .key = "grad_bytes",
     .parse = parse_grad,
     .echo = echo_grad,
     .help = "gradient all-reduced per step ({default}); it is\n"
             "measured as one of the sizes"},
    {.name = "overlap",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct scale_opts, overlap),
     .metavar = "F|measured",
     .def_text = "0",
     .key = "overlap",
     .parse = parse_overlap,
     .echo = echo_overlap,
     .help = "fraction 0..1 of the all-reduce hidden behind compute\n"
             "({default}; never more than the compute time), or\n"
             "'measured': at each rank count a training step is measured\n"
             "(overlap --step: the gradient in --bucket-bytes buckets,\n"
             "each started as the compute produces it) and its hidden\n"
             "share is the overlap there; predictions take the largest\n"
             "rank count's"},
    {.name = "bucket-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct scale_opts, bucket_bytes),
     .metavar = "SIZE",
     .def = "25M",
     .min = 1,
     .max = (double)(4ULL << 30),
     .key = "bucket_bytes",
     .help = "--overlap measured: a bucket of the step ({default})"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(variants_opt, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(opts_sweep_collective, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(opts_sweep_range, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(step_opt, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(scale_only, 0),
    OPT_GROUP(opts_sweep_points, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(opts_sweep_data, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(opts_sweep_timing, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(opts_segment, offsetof(struct scale_opts, sweep.segment_bytes)),
    OPT_GROUP(opts_trace, offsetof(struct scale_opts, sweep)),
    OPT_GROUP(opts_output, offsetof(struct scale_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct scale_opts, out.quiet)),
    OPT_GROUP(opts_timeout, offsetof(struct scale_opts, timeout_s)),
    {NULL, 0, 0},
};

static int usage(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int usage(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* The options that only mean something together, and the gradient's default. */
static int check_step(struct scale_opts *o, char *err, size_t len)
{
	size_t w = ar_dtype_bytes(o->sweep.dtype);
	bool step = !isnan(o->compute_ms);
	if (!step && (o->grad_given || o->overlap_given))
		return usage(err, len,
		             "scale: %s needs --compute-ms (the step model's compute time)",
		             o->grad_given ? "--grad-bytes" : "--overlap");
	if (isnan(o->overlap))
		o->overlap = 0;
	if (isnan(o->compress_ratio) != isnan(o->cast_gbps))
		return usage(err, len, "scale: %s needs %s (the compressed step model takes both)",
		             isnan(o->cast_gbps) ? "--compress-ratio" : "--cast-gbps",
		             isnan(o->cast_gbps) ? "--cast-gbps" : "--compress-ratio");
	if (!step && !isnan(o->compress_ratio))
		return usage(err, len,
		             "scale: --compress-ratio needs --compute-ms (the step model's compute time)");
	if (!o->grad_given)
		o->grad_bytes = o->sweep.max_bytes;
	if (step && o->grad_bytes < w)
		return usage(err, len,
		             "scale: --grad-bytes %llu is less than one %s element (%zu bytes)",
		             (unsigned long long)o->grad_bytes, ar_dtype_name(o->sweep.dtype), w);
	o->grad_bytes = o->grad_bytes / w * w;
	if (o->overlap_measured && o->sweep.collective != AR_ALLREDUCE)
		return usage(err, len,
		             "scale: --overlap measured measures a step of all-reduce buckets, not of "
		             "--collective %s: give --overlap F",
		             ar_collective_names[o->sweep.collective]);
	if (o->overlap_measured && o->bucket_bytes < w)
		return usage(err, len,
		             "scale: --bucket-bytes %llu is less than one %s element (%zu bytes)",
		             (unsigned long long)o->bucket_bytes, ar_dtype_name(o->sweep.dtype), w);
	o->bucket_bytes = o->bucket_bytes / w * w;
	if (o->overlap_measured &&
	    overlap_buckets(o->grad_bytes / w, o->bucket_bytes / w) > OVERLAP_MAX_BUCKETS)
		return usage(
		    err, len,
		    "scale: --grad-bytes %llu in --bucket-bytes %llu is more than %d buckets",
		    (unsigned long long)o->grad_bytes, (unsigned long long)o->bucket_bytes,
		    OVERLAP_MAX_BUCKETS);
	return EXIT_OK;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The sizes of the sweep, the gradient's added; whole elements, ascending, distinct. */
static int check_sizes(struct scale_opts *o, char *err, size_t len)
{
	struct sweep_opts *s = &o->sweep;
	size_t w = ar_dtype_bytes(s->dtype);
	int status = sweep_sizes("scale", s, err, len);
	if (status != EXIT_OK)
		return status;
	for (int i = 0; i < s->nsizes; i++) {
		if (s->sizes[i] < w)
			return usage(err, len,
			             "scale: %s %llu is less than one %s element (%zu bytes)",
			             s->explicit_sizes ? "the size" : "--min-bytes",
			             (unsigned long long)s->sizes[i], ar_dtype_name(s->dtype), w);
		s->sizes[i] = s->sizes[i] / w * w;
	}
	if (!isnan(o->compute_ms)) {
		if (s->nsizes == SWEEP_MAX_SIZES)
			return usage(err, len, "scale: too many message sizes with --grad-bytes");
		s->sizes[s->nsizes++] = o->grad_bytes;
	}
	qsort(s->sizes, (size_t)s->nsizes, sizeof s->sizes[0], cmp_u64);
	int n = 0;
	for (int i = 0; i < s->nsizes; i++)
		if (n == 0 || s->sizes[n - 1] != s->sizes[i])
			s->sizes[n++] = s->sizes[i];
	s->nsizes = n;
	return EXIT_OK;
}

static int check(void *opts, char *err, size_t len)
{
	struct scale_opts *o = opts;
	int status = check_step(o, err, len);
	return status != EXIT_OK ? status : check_sizes(o, err, len);
}

/* --ranks, or 2, 4, 8, ... below the world size and the world size. */
static int check_world(void *opts, int nranks, char *err, size_t len)
{
	struct scale_opts *o = opts;
	char why[512];
	if (opts_rank_counts(o->ranks_arg, 1, nranks, o->ranks, SCALE_MAX_RANK_COUNTS, &o->nranks,
	                     why, sizeof why) != 0)
		return usage(err, len, "scale: %s (the job has %d ranks)", why, nranks);
	return opts_memory_check_sweep("scale", &o->sweep, nranks, err, len);
}

static bool echo(cJSON *cfg, const void *opts)
{
	const struct scale_opts *o = opts;
	return sweep_echo(cfg, &o->sweep) && cJSON_AddBoolToObject(cfg, "in_place", false);
}

const struct cmd_spec scale_spec = {
    .name = "scale",
    .synopsis = "mpirun -np N collscope scale [options]",
    .description =
        "Measures all-reduce variants on sub-communicators of 2, 4, 8, ... ranks and the\n"
        "whole job: p50/p99 time, busbw, bandwidth efficiency busbw(n)/busbw(n_min) and\n"
        "latency growth t(n)/t(n_min). Fits time = alpha x messages + beta x bytes +\n"
        "gamma x reduced bytes, counted on each variant's own schedule, and predicts\n"
        "larger rank counts. With --compute-ms, the data-parallel step model: weak- and\n"
        "strong-scaling speedup per rank count and the sweet spot past which more ranks\n"
        "make training slower.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage, 3 wrong results, 4 hang or dead rank,\n"
                  "            5 MPI, memory or I/O error\n",
    .groups = groups,
    .size = sizeof(struct scale_opts),
    .check = check,
    .check_world = check_world,
    .echo = echo,
};

struct scale_model_in scale_model_input(const struct scale_opts *o)
{
	return (struct scale_model_in){.variants = o->sweep.variants,
	                               .dtype = o->sweep.dtype,
	                               .op = o->sweep.op,
	                               .collective = (enum ar_collective)o->sweep.collective,
	                               .segment_bytes = o->sweep.segment_bytes,
	                               .sizes = o->sweep.sizes,
	                               .nsizes = o->sweep.nsizes,
	                               .ranks = o->ranks,
	                               .nranks = o->nranks,
	                               .extrapolate = o->extrapolate,
	                               .nextrapolate = o->nextrapolate,
	                               .compute_ms = o->compute_ms,
	                               .grad_bytes = o->grad_bytes,
	                               .overlap = o->overlap,
	                               .overlap_measured = o->overlap_measured,
	                               .bucket_bytes = o->bucket_bytes,
	                               .compress_ratio = isnan(o->compress_ratio) ? 0 : o->compress_ratio,
	                               .cast_gbps = o->cast_gbps};
}
