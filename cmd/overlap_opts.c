/* Options of `collscope overlap`: one table (cmd/opts.h). */
#include "cmd/overlap_opts.h"
#include "cmd/opts_memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse.h"
#include "reports/model/overlap_model.h"

/* A comma-separated subset of names into bool[n]. */
static int parse_set(const char *arg, const char *const *names, int n, bool *out, char *why,
                     size_t len)
{
	char *copy = strdup(arg), *items[16];
	const char *reason = NULL;
	int k = copy ? parse_list(copy, items, 16, &reason) : -1, rc = k > 0 ? 0 : -1;
	if (k <= 0)
		snprintf(why, len, "%s", copy ? reason : "out of memory");
	memset(out, 0, (size_t)n * sizeof *out);
	for (int i = 0; rc == 0 && i < k; i++) {
		int j = 0;
		while (j < n && strcmp(items[i], names[j]) != 0)
			j++;
		if (j == n) {
			/* every name: the message listed the first two, and --progress has three */
			size_t at =
			    (size_t)snprintf(why, len, "unknown '%s' (one or more of", items[i]);
			for (int m = 0; m < n && at < len; m++)
				at += (size_t)snprintf(why + at, len - at, "%s %s", m ? "," : "",
				                       names[m]);
			if (at < len)
				snprintf(why + at, len - at, ")");
			rc = -1;
		} else {
			out[j] = true;
		}
	}
	free(copy);
	return rc;
}

static int parse_compute(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	return parse_set(arg, compute_kind_names, COMPUTE_KINDS, (bool *)((char *)base + o->offset),
	                 why, len);
}

static int parse_progress(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	return parse_set(arg, overlap_progress_names, OVERLAP_PROGRESS_KINDS,
	                 (bool *)((char *)base + o->offset), why, len);
}

static bool echo_set(cJSON *cfg, const char *key, const bool *set, const char *const *names, int n)
{
	cJSON *a = cJSON_AddArrayToObject(cfg, key);
	for (int i = 0; a && i < n; i++)
		if (set[i] && !cJSON_AddItemToArray(a, cJSON_CreateString(names[i])))
			return false;
	return a != NULL;
}

static bool echo_compute(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	return echo_set(cfg, key, (const bool *)((const char *)base + o->offset),
	                compute_kind_names, COMPUTE_KINDS);
}

static bool echo_progress(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	return echo_set(cfg, key, (const bool *)((const char *)base + o->offset),
	                overlap_progress_names, OVERLAP_PROGRESS_KINDS);
}

static const struct opt sweep_part[] = {
    {.name = "algo",
     .letter = 'a',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, variants),
     .metavar = "LIST",
     .def = "mpi,ring",
     .key = "algorithms",
     .parse = opts_parse_variants,
     .echo = opts_echo_variants,
     .help = "variants, comma-separated, or 'all': mpi is the\n"
             "library's MPI_Iallreduce, a schedule (ring, tree, ...) is\n"
             "stepped by the test calls; shm and the guideline mock-ups\n"
             "have no non-blocking form\n"
             "({default})"},
    {.name = "sizes",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, sizes),
     .metavar = "LIST",
     .def_text = "1M,16M",
     .parse = opts_parse_sizes,
     .help = "message sizes, comma-separated, each a whole number of\n"
             "elements ({default})"},
    {.name = "iters",
     .letter = 'n',
     .kind = OPT_INT,
     .offset = offsetof(struct sweep_opts, iters),
     .metavar = "N",
     .def = "20",
     .min = 1,
     .max = SWEEP_MAX_ITERS,
     .key = "iters",
     .help = "iterations of each phase (pure, compute alone, overlapped)"},
    {.name = "warmup",
     .letter = 'w',
     .kind = OPT_INT,
     .offset = offsetof(struct sweep_opts, warmup),
     .metavar = "N",
     .def = "3",
     .min = 0,
     .max = SWEEP_MAX_ITERS,
     .key = "warmup",
     .help = "untimed calls first"},
};

static const struct opt check_opt[] = {
    {.name = "check",
     .letter = 'c',
     .kind = OPT_BOOL01,
     .offset = offsetof(struct sweep_opts, check),
     .metavar = "0|1",
     .def = "1",
     .key = "check",
     .help = "verify the last overlapped call's result of each point"},
};

static const struct opt overlap_only[] = {
    {.name = "compute",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct overlap_opts, compute),
     .metavar = "LIST",
     .def = "gemm,stream",
     .key = "compute",
     .parse = parse_compute,
     .echo = echo_compute,
     .help = "the compute beside the call: gemm (dense matrix multiply,\n"
             "compute-bound), stream (a triad over 32 MiB arrays,\n"
             "memory-bound: it competes with the reduction) ({default})"},
    {.name = "progress",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct overlap_opts, progress),
     .metavar = "LIST",
     .def = "test,thread,none",
     .key = "progress",
     .parse = parse_progress,
     .echo = echo_progress,
     .help = "test: a test call every --test-interval inside the\n"
             "compute; thread: a progress thread tests every\n"
             "--test-interval while the compute makes no call (needs\n"
             "MPI_THREAD_SERIALIZED); none: no call until the wait\n"
             "(what the library moves on its own) ({default})"},
    {.name = "test-interval",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct overlap_opts, interval_us),
     .metavar = "US",
     .def = "50",
     .min = 0,
     .max = 1e9,
     .key = "test_interval_us",
     .range = "must be microseconds from 0 (after every unit of compute) to 1e9",
     .help = "microseconds of compute between test calls, or\n"
             "between the progress thread's ({default})"},
    {.name = "step",
     .kind = OPT_FLAG,
     .offset = offsetof(struct overlap_opts, step),
     .key = "step",
     .help = "also measure a data-parallel training step: the gradient\n"
             "in buckets, each bucket's all-reduce started as the\n"
             "backward compute produces it, against the compute alone\n"
             "and compute then all-reduce in series"},
    {.name = "grad-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct overlap_opts, grad_bytes),
     .metavar = "SIZE",
     .def = "64M",
     .min = 1,
     .max = (double)(4ULL << 30),
     .key = "grad_bytes",
     .help = "--step: the gradient all-reduced each step ({default})"},
    {.name = "bucket-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct overlap_opts, bucket_bytes),
     .metavar = "SIZE",
     .def = "25M",
     .min = 1,
     .max = (double)(4ULL << 30),
     .key = "bucket_bytes",
     .help = "--step: a bucket, as PyTorch DDP's bucket_cap_mb ({default})"},
    {.name = "compute-ms",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct overlap_opts, compute_ms),
     .metavar = "MS",
     .def = "20",
     .min = 0.001,
     .max = 1e6,
     .key = "compute_ms",
     .range = "must be milliseconds from 0.001 to 1e6",
     .help = "--step: the backward compute of one step ({default})"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(sweep_part, offsetof(struct overlap_opts, sweep)),
    /* -d and -r as every sweep has them; -c its own: only the last call of a point is checked */
    {opts_sweep_data, 2, offsetof(struct overlap_opts, sweep)},
    OPT_GROUP(check_opt, offsetof(struct overlap_opts, sweep)),
    OPT_GROUP(overlap_only, 0),
    OPT_GROUP(opts_segment, offsetof(struct overlap_opts, sweep.segment_bytes)),
    OPT_GROUP(opts_output, offsetof(struct overlap_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct overlap_opts, out.quiet)),
    OPT_GROUP(opts_timeout, offsetof(struct overlap_opts, timeout_s)),
    {NULL, 0, 0},
};

static int check(void *opts, char *err, size_t len)
{
	struct overlap_opts *o = opts;
	struct sweep_opts *s = &o->sweep;
	if (!s->explicit_sizes) {
		s->min_bytes = 1 << 20;
		s->max_bytes = 16 << 20;
	}
	s->clock_resync_s = 86400; /* overlap times each rank's own calls: no common clock */
	int status = sweep_sizes("overlap", s, err, len);
	size_t w = ar_dtype_bytes(s->dtype);
	if (o->grad_bytes < w || o->bucket_bytes < w) {
		snprintf(err, len, "overlap: --%s %llu is less than one %s element (%zu bytes)",
		         o->grad_bytes < w ? "grad-bytes" : "bucket-bytes",
		         (unsigned long long)(o->grad_bytes < w ? o->grad_bytes : o->bucket_bytes),
		         ar_dtype_name(s->dtype), w);
		return EXIT_USAGE;
	}
	o->grad_bytes = o->grad_bytes / w * w;
	o->bucket_bytes = o->bucket_bytes / w * w;
	size_t buckets = overlap_buckets(o->grad_bytes / w, o->bucket_bytes / w);
	if (buckets > OVERLAP_MAX_BUCKETS) {
		snprintf(
		    err, len,
		    "overlap: --grad-bytes %llu in --bucket-bytes %llu is %zu buckets: at most %d",
		    (unsigned long long)o->grad_bytes, (unsigned long long)o->bucket_bytes, buckets,
		    OVERLAP_MAX_BUCKETS);
		return EXIT_USAGE;
	}
	for (int i = 0; status == EXIT_OK && i < s->nsizes; i++)
		s->sizes[i] = s->sizes[i] < w ? w : s->sizes[i] / w * w;
	return status;
}

static int check_world(void *opts, int nranks, char *err, size_t len)
{
	struct overlap_opts *o = opts;
	return opts_memory_check_sweep("overlap", &o->sweep, nranks, err, len);
}

static bool echo(cJSON *cfg, const void *opts)
{
	const struct overlap_opts *o = opts;
	return sweep_echo(cfg, &o->sweep) && cJSON_AddBoolToObject(cfg, "in_place", false);
}

const struct cmd_spec overlap_spec = {
    .name = "overlap",
    .synopsis = "mpirun -np N collscope overlap [options]",
    .description =
        "How much of a non-blocking all-reduce hides behind real compute. Per variant, size,\n"
        "compute kind and progress method, every rank times: the call alone (start, wait),\n"
        "the compute alone (as long as the slowest rank's call), and the call started, the\n"
        "compute run with test calls every --test-interval (or none), then the wait. Prints\n"
        "the overlap by OSU's definition (osu_iallreduce: max(0, 100 - 100 x (overall -\n"
        "(cpu - test)) / pure), means over iterations then ranks) and IMB-NBC's (100 x\n"
        "max(0, min(1, (pure + cpu - overall) / max(pure, cpu))), from the rank with the\n"
        "largest overall). mpi runs MPI_Iallreduce; a schedule runs step by step, each step\n"
        "posted when the last completed, so with no test calls it can only move inside the\n"
        "wait. Results are verified.\n",
    .exit_codes = "exit codes: 0 measured, 2 bad usage, 3 wrong results, 4 hang or dead rank,\n"
                  "            5 MPI, memory or I/O error\n",
    .groups = groups,
    .size = sizeof(struct overlap_opts),
    .check = check,
    .check_world = check_world,
    .echo = echo,
};
