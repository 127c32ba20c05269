/* See opts_common.h. */
#include "cmd/opts_common.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse.h"
#include "algorithms/schedule.h"
#include "reports/render/fixed.h"

enum { MAX_LIST_ITEMS = 256 };

const struct opt opts_output[2] = {
    {.name = "output",
     .letter = 'o',
     .kind = OPT_STRING,
     .offset = offsetof(struct cmd_out, output),
     .metavar = "FILE",
     .key = "output",
     .help = "write the JSON report (atomically: a temporary file,\n"
             "then a rename; never replaces a file without --force;\n"
             "'-' is refused: it is standard output only for report,\n"
             "compare and trend)"},
    {.name = "force",
     .kind = OPT_FLAG,
     .offset = offsetof(struct cmd_out, force),
     .key = "force",
     .help = "replace an existing output file (never an input: an output\n"
             "on an input's or another output's file is refused at once)"},
};

const struct opt opts_quiet[1] = {
    {.name = "quiet",
     .letter = 'q',
     .kind = OPT_FLAG,
     .offset = 0,
     .help = "no progress lines on stderr"},
};

const struct opt opts_timeout[1] = {
    {.name = "timeout",
     .kind = OPT_NUMBER,
     .offset = 0,
     .metavar = "SECONDS",
     .def = OPTS_DEFAULT_TIMEOUT,
     .min = 0,
     .max = 7 * 24 * 3600.0,
     .key = "timeout_s",
     .range = "must be seconds from 0 (no watchdog) to 604800 (a week)",
     .help = "watchdog: a rank that makes no progress for this long\n"
             "is a hang: exit 4 naming it ({default}; 0 disables; a\n"
             "watchdog that cannot watch stops the job: exit 5)"},
};

const struct opt opts_plan[3] = {
    {.name = "plan-only",
     .kind = OPT_FLAG,
     .offset = offsetof(struct plan_opts, only),
     .help = "print the plan (rounds, pairs, points, bytes, estimated\n"
             "time) and measure nothing; with --hosts, without mpirun"},
    {.name = "hosts",
     .kind = OPT_INT,
     .offset = offsetof(struct plan_opts, hosts),
     .metavar = "N",
     .def = "0",
     .min = 0,
     .max = 1 << 20,
     .help = "--plan-only: plan for N hosts instead of the job's"},
    {.name = "ranks-per-host",
     .kind = OPT_INT,
     .offset = offsetof(struct plan_opts, ranks_per_host),
     .metavar = "N",
     .def = "1",
     .min = 1,
     .max = 1 << 12,
     .help = "--plan-only: ranks on each of the --hosts"},
};

int opts_plan_check(const char *command, const struct plan_opts *p, char *err, size_t len)
{
	if (!p->only && (p->hosts > 0 || p->ranks_per_host != 1)) {
		snprintf(err, len, "%s: --hosts and --ranks-per-host go with --plan-only", command);
		return EXIT_USAGE;
	}
	if (p->ranks_per_host != 1 && p->hosts == 0) {
		snprintf(err, len, "%s: --ranks-per-host %d needs --hosts", command, p->ranks_per_host);
		return EXIT_USAGE;
	}
	if ((int64_t)p->hosts * p->ranks_per_host > OPTS_PLAN_MAX_RANKS) {
		snprintf(err, len, "%s: --hosts %d x --ranks-per-host %d is %lld ranks: at most %d",
		         command, p->hosts, p->ranks_per_host,
		         (long long)p->hosts * p->ranks_per_host, OPTS_PLAN_MAX_RANKS);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int *opts_plan_host_of_rank(const struct plan_opts *p)
{
	size_t n = (size_t)p->hosts * (size_t)p->ranks_per_host;
	int *host = malloc((n ? n : 1) * sizeof *host);
	for (size_t r = 0; host && r < n; r++)
		host[r] = (int)(r / (size_t)p->ranks_per_host);
	return host;
}

const struct opt opts_sweep_range[2] = {
    {.name = "min-bytes",
     .letter = 'b',
     .kind = OPT_BYTES,
     .offset = offsetof(struct sweep_opts, min_bytes),
     .metavar = "SIZE",
     .def = "8",
     .min = 0,
     .max = 1.8e19,
     .key = "min_bytes",
     .help = "smallest message ({default}; suffixes K M G T)"},
    {.name = "max-bytes",
     .letter = 'e',
     .kind = OPT_BYTES,
     .offset = offsetof(struct sweep_opts, max_bytes),
     .metavar = "SIZE",
     .def = "64M",
     .min = 0,
     .max = 1.8e19,
     .key = "max_bytes",
     .help = "largest message"},
};

/* --timing's choices are timing.h's names, in the order of enum timing_method. */
_Static_assert(sizeof(enum timing_method) == sizeof(int), "an OPT_CHOICE is stored as an int");

static const char *const sizes_conflicts[] = {"min-bytes", "max-bytes", "step-factor", NULL};

const struct opt opts_sweep_points[5] = {
    {.name = "sizes",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, sizes),
     .metavar = "LIST",
     .parse = opts_parse_sizes,
     .conflicts = sizes_conflicts,
     .help = "exactly these sizes, comma-separated, each a whole number\n"
             "of elements (instead of -b/-e/-f: given with any of them,\n"
             "refused; -b/-e/-f sizes are rounded down to whole elements)"},
    {.name = "iters",
     .letter = 'n',
     .kind = OPT_INT,
     .offset = offsetof(struct sweep_opts, iters),
     .metavar = "N",
     .def_text = "adaptive",
     .min = 1,
     .max = SWEEP_MAX_ITERS,
     .key = "iters",
     .echo = opts_echo_adaptive,
     .help = "timed iterations per point, at least 2 (p50 needs two\n"
             "samples; p99 is null below 100)"},
    {.name = "warmup",
     .letter = 'w',
     .kind = OPT_INT,
     .offset = offsetof(struct sweep_opts, warmup),
     .metavar = "N",
     .def = "5",
     .min = 0,
     .max = SWEEP_MAX_ITERS,
     .key = "warmup",
     .help = "untimed iterations per point"},
    {.name = "time-per-size",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, time_per_size_s),
     .metavar = "S",
     .def = "0.25",
     .min = 0.001,
     .max = 3600,
     .key = "time_per_size_s",
     .range = "must be seconds from 0.001 to 3600",
     .help = "adaptive budget per point in seconds ({default}):\n"
             "at least 10 and up to 1000 iterations"},
    {.name = "ci-width",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, ci_width_pct),
     .metavar = "PCT",
     .def = "2",
     .min = 0,
     .max = 100,
     .key = "ci_width_pct",
     .range = "must be a percentage from 0 to 100",
     .help = "adaptive: a point stops once its p50's 95% confidence\n"
             "interval lies within +-PCT% of it ({default}; 0: never, the\n"
             "budget is spent), checked at 100 samples where the budget\n"
             "allows 100 (p99 needs them), else at 10, then at each doubling"},
};

const struct opt opts_sweep_collective[1] = {
    {.name = "collective",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct sweep_opts, collective),
     .metavar = "C",
     .def = "allreduce",
     .choices = ar_collective_names,
     .key = "collective",
     .help = "allreduce, or one of its halves: reduce_scatter (rank r\n"
             "keeps chunk r, reduced) or allgather (every rank's chunk\n"
             "to all); sizes are the whole buffer, as nccl-tests states\n"
             "them, busbw = algbw x (n-1)/n for a half ({default})"},
};

const struct opt opts_sweep_data[3] = {
    {.name = "dtype",
     .letter = 'd',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, dtype),
     .metavar = "T",
     .def = "float32",
     .key = "dtype",
     .parse = opts_parse_dtype,
     .echo = opts_echo_dtype,
     .help = "float32 float64 int32 int64 bfloat16"},
    {.name = "op",
     .letter = 'r',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, op),
     .metavar = "OP",
     .def = "sum",
     .key = "op",
     .parse = opts_parse_op,
     .echo = opts_echo_op,
     .help = "sum prod min max"},
    {.name = "check",
     .letter = 'c',
     .kind = OPT_BOOL01,
     .offset = offsetof(struct sweep_opts, check),
     .metavar = "0|1",
     .def = "1",
     .key = "check",
     .help = "verify every result"},
};

static int say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* --timing: a method's name, or auto. */
static int parse_timing(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	int *field = (int *)((char *)base + o->offset);
	enum timing_method m;
	if (strcmp(arg, "auto") == 0) {
		*field = SWEEP_TIMING_AUTO;
		return 0;
	}
	if (timing_method_parse(arg, &m) != 0)
		return say(why, len, "must be window, barrier, pipelined or auto");
	*field = (int)m;
	return 0;
}

static bool echo_timing(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	int m = *(const int *)((const char *)base + o->offset);
	return cJSON_AddStringToObject(cfg, key,
	                               m == SWEEP_TIMING_AUTO ? "auto" : timing_method_name(m)) !=
	       NULL;
}

const struct opt opts_sweep_timing[2] = {
    {.name = "timing",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, timing),
     .metavar = "METHOD",
     .def = "auto",
     .parse = parse_timing,
     .echo = echo_timing,
     .key = "timing",
     .help = "window: a common start on synchronised clocks, late\n"
             "starts dropped (most late: timed from the last arrival);\n"
             "barrier: each rank times its own call\n"
             "after a barrier; pipelined: calls back to back, as\n"
             "nccl-tests and OSU time them; auto: window with --trace\n"
             "(only a common start names a late rank) where no host has\n"
             "more ranks than cores, else barrier ({default}; the\n"
             "report's config says which ran)"},
    {.name = "clock-resync",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, clock_resync_s),
     .metavar = "S",
     .def = "5",
     .min = 0.1,
     .max = 86400,
     .key = "clock_resync_s",
     .range = "must be seconds from 0.1 to 86400",
     .help = "before a point, sync the clocks again once the last\n"
             "sync is this old ({default}): clocks drift apart"},
};

const struct opt opts_trace[2] = {
    {.name = "trace",
     .kind = OPT_FLAG,
     .offset = offsetof(struct sweep_opts, trace),
     .key = "trace",
     .help = "time every step of the schedule on every rank, gathered\n"
             "after each point, and name the slow hops and the ranks slow\n"
             "at their reductions (a point with a marginal one is measured\n"
             "up to twice more: it is named only if every re-measurement\n"
             "finds it again)"},
    {.name = "trace-entries",
     .kind = OPT_U64,
     .offset = offsetof(struct sweep_opts, trace_entries),
     .metavar = "N",
     .def = "8192",
     .min = 16,
     .max = 4194304,
     .key = "trace_entries",
     .help = "steps each rank's trace ring holds; rank 0 gathers every\n"
             "rank's, and that must fit 256 MiB (about 1.0M / ranks)"},
};

const struct opt opts_compress[3] = {
    {.name = "topk-ratio",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, codec.topk_ratio),
     .metavar = "R",
     .def = "0.01",
     .min = 0,
     .max = CODEC_TOPK_RATIO_MAX,
     .flags = OPT_MIN_OPEN,
     .key = "topk_ratio",
     .range = "must be a share above 0 and at most 0.5",
     .help = "topk: the share of each message's values sent, with\n"
             "their indices ({default}; past 0.5 the indices cost more\n"
             "than the values dropped save)"},
    {.name = "error-feedback",
     .kind = OPT_FLAG,
     .offset = offsetof(struct sweep_opts, codec.error_feedback),
     .key = "error_feedback",
     .help = "compressed variants (meant for topk): what a call's codec\n"
             "dropped is added to the next call's input on that rank;\n"
             "with -c, each point then makes 8-64 more calls from a zero\n"
             "residual and reports their summed error (feedback_rel_l2_error)"},
    {.name = "stochastic-rounding",
     .kind = OPT_FLAG,
     .offset = offsetof(struct sweep_opts, codec.stochastic),
     .key = "stochastic_rounding",
     .help = "int8: round stochastically (unbiased, error below one\n"
             "step) instead of to nearest (half a step)"},
};

const struct opt opts_segment[1] = {
    {.name = "segment-bytes",
     .kind = OPT_BYTES,
     .offset = 0,
     .metavar = "SIZE",
     .def = "256K",
     .min = 1,
     .max = (double)SCHED_MAX_SEGMENT_BYTES,
     .key = "segment_bytes",
     .help = "message segment of the point-to-point variants; the schedule\n"
             "of the largest message must fit 256 MiB (segments of about\n"
             "1/1000000 of it)"},
};


/*
 * Splits a copy of arg (argv itself stays whole: the report records the
 * command line as given) and calls each(item) in order; 0, or the first
 * non-zero of each, or -1 with why for a malformed list.
 */
static int for_each_item(const char *arg, int (*each)(const char *item, void *ctx), void *ctx,
                         char *why, size_t len)
{
	char *copy = strdup(arg), *items[MAX_LIST_ITEMS];
	const char *reason = NULL;
	int rc;
	if (!copy)
		return say(why, len, "out of memory");
	int n = parse_list(copy, items, MAX_LIST_ITEMS, &reason);
	if (n < 0)
		say(why, len, "%s (at most %d items)", reason, MAX_LIST_ITEMS);
	rc = n < 0 ? -1 : 0;
	for (int i = 0; rc == 0 && i < n; i++)
		rc = each(items[i], ctx);
	free(copy);
	return rc;
}

struct names_ctx {
	bool *sel;
	int nsel;
	const char *what;
	bool (*lookup)(const char *name, int *idx);
	bool (*in_all)(int idx); /* NULL: 'all' is every name */
	char *why;
	size_t len;
};

static int select_name(const char *item, void *p)
{
	struct names_ctx *c = p;
	int idx;
	if (strcmp(item, "all") == 0) {
		for (int j = 0; j < c->nsel; j++)
			c->sel[j] |= !c->in_all || c->in_all(j);
		return 0;
	}
	if (!c->lookup(item, &idx)) {
		snprintf(c->why, c->len, "unknown %s '%s' (see 'collscope list')", c->what, item);
		return -1;
	}
	c->sel[idx] = true;
	return 0;
}

static int select_names(const char *arg, bool *sel, int nsel, const char *what,
                        bool (*lookup)(const char *, int *), bool (*in_all)(int), char *why,
                        size_t len)
{
	struct names_ctx c = {sel, nsel, what, lookup, in_all, why, len};
	memset(sel, 0, (size_t)nsel * sizeof *sel);
	return for_each_item(arg, select_name, &c, why, len);
}

static bool lookup_variant(const char *name, int *idx)
{
	for (int i = 0; ar_variants[i]; i++)
		if (strcmp(ar_variants[i]->name, name) == 0) {
			*idx = i;
			return true;
		}
	return false;
}

/* The guideline mock-ups are named, never implied: 'all,mpi-reduce-bcast' adds one. */
static bool variant_in_all(int idx)
{
	return ar_variant_in_all(ar_variants[idx]);
}

static bool lookup_dtype(const char *name, int *idx)
{
	enum ar_dtype t;
	if (!ar_dtype_parse(name, &t))
		return false;
	*idx = (int)t;
	return true;
}

static bool lookup_op(const char *name, int *idx)
{
	enum ar_op op;
	if (!ar_op_parse(name, &op))
		return false;
	*idx = (int)op;
	return true;
}

int opts_parse_variants(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	return select_names(arg, (bool *)((char *)base + o->offset), (int)ar_variant_count(),
	                    "algorithm", lookup_variant, variant_in_all, why, len);
}

bool opts_echo_variants(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const bool *sel = (const bool *)((const char *)base + o->offset);
	cJSON *a = cJSON_AddArrayToObject(cfg, key);
	for (int i = 0; a && ar_variants[i]; i++)
		if (sel[i] && !cJSON_AddItemToArray(a, cJSON_CreateString(ar_variants[i]->name)))
			return false;
	return a != NULL;
}

/* DURATION: seconds, or a number with s, m or h; 0 is no budget. */
int opts_parse_duration(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	char *end = NULL;
	double v = strtod(arg, &end);
	double unit = 1;
	if (end && end != arg && *end && !end[1])
		unit = *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : NAN;
	else if (end && end != arg && *end)
		unit = NAN;
	if (end == arg || isnan(unit) || !isfinite(v) || v < 0 || v * unit > 7 * 24 * 3600.0) {
		snprintf(why, len,
		         "must be a duration: seconds, or a number with s, m or h "
		         "(90, 90s, 15m, 2h), at most a week; 0: none");
		return -1;
	}
	double seconds = v * unit;
	memcpy((char *)base + o->offset, &seconds, sizeof seconds);
	return 0;
}

bool opts_echo_duration(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	double v;
	memcpy(&v, (const char *)base + o->offset, sizeof v);
	return cJSON_AddNumberToObject(cfg, key, v) != NULL;
}

int opts_parse_dtypes(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	return select_names(arg, (bool *)((char *)base + o->offset), AR_DTYPE_COUNT, "dtype",
	                    lookup_dtype, NULL, why, len);
}

int opts_parse_ops(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	return select_names(arg, (bool *)((char *)base + o->offset), AR_OP_COUNT, "op", lookup_op,
	                    NULL, why, len);
}

int opts_parse_dtype(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	if (ar_dtype_parse(arg, (enum ar_dtype *)((char *)base + o->offset)))
		return 0;
	return say(why, len, "unknown dtype '%s' (float32, float64, int32, int64, bfloat16)", arg);
}

bool opts_echo_dtype(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	enum ar_dtype t = *(const enum ar_dtype *)((const char *)base + o->offset);
	return cJSON_AddStringToObject(cfg, key, ar_dtype_name(t)) != NULL;
}

int opts_parse_op(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	if (ar_op_parse(arg, (enum ar_op *)((char *)base + o->offset)))
		return 0;
	return say(why, len, "unknown op '%s' (sum, prod, min, max)", arg);
}

bool opts_echo_op(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	enum ar_op op = *(const enum ar_op *)((const char *)base + o->offset);
	return cJSON_AddStringToObject(cfg, key, ar_op_name(op)) != NULL;
}

bool opts_echo_adaptive(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	int n = *(const int *)((const char *)base + o->offset);
	return n ? cJSON_AddNumberToObject(cfg, key, n) != NULL
	         : cJSON_AddStringToObject(cfg, key, "adaptive") != NULL;
}

struct ints_ctx {
	const char *arg, *name;
	int min, max, *out, max_items, n;
	char *why;
	size_t len;
};

static int take_int(const char *item, void *p)
{
	struct ints_ctx *c = p;
	const char *reason = NULL;
	uint64_t u;
	if (c->n == c->max_items) {
		snprintf(c->why, c->len, "bad value '%s' for --%s: more than %d items", c->arg,
		         c->name, c->max_items);
		return OPT_WHOLE_MESSAGE;
	}
	if (parse_u64(item, (uint64_t)c->min, (uint64_t)c->max, &u, &reason) != 0) {
		snprintf(c->why, c->len,
		         "bad value '%s' in --%s '%s': each must be a whole number from "
		         "%d to %d",
		         item, c->name, c->arg, c->min, c->max);
		return OPT_WHOLE_MESSAGE;
	}
	c->out[c->n++] = (int)u;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int opts_parse_int_list(const char *arg, const char *name, int min, int max, int *out,
                        int max_items, int *nout, char *why, size_t len)
{
	struct ints_ctx c = {arg, name, min, max, out, max_items, 0, why, len};
	int rc = for_each_item(arg, take_int, &c, why, len);
	if (rc == -1) { /* the list's shape: say it with the whole list */
		char reason[256];
		snprintf(reason, sizeof reason, "%s", why);
		snprintf(why, len, "bad value '%s' for --%s: %s", arg, name, reason);
	}
	if (rc != 0)
		return OPT_WHOLE_MESSAGE;
	qsort(out, (size_t)c.n, sizeof *out, cmp_int);
	*nout = 0;
	for (int i = 0; i < c.n; i++)
		if (*nout == 0 || out[*nout - 1] != out[i])
			out[(*nout)++] = out[i];
	return 0;
}

int opts_rank_counts(const char *arg, int min, int nranks, int *out, int max_items, int *nout,
                     char *why, size_t len)
{
	if (arg)
		return opts_parse_int_list(arg, "ranks", min, nranks, out, max_items, nout, why, len);
	/* max_items is at least 32: the powers of two below any int and nranks fit */
	*nout = 0;
	for (int n = 2; n < nranks; n *= 2)
		out[(*nout)++] = n;
	out[(*nout)++] = nranks;
	return 0;
}

bool opts_echo_ints(cJSON *cfg, const char *key, const int *v, int n)
{
	cJSON *a = cJSON_AddArrayToObject(cfg, key);
	for (int i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i])))
			return false;
	return a != NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

struct sizes_ctx {
	struct sweep_opts *o;
	char *why;
	size_t len;
};

static int take_size(const char *item, void *p)
{
	struct sizes_ctx *c = p;
	const char *reason = NULL;
	uint64_t v;
	if (parse_bytes(item, &v, &reason) != 0)
		return say(c->why, c->len, "'%s': %s", item, reason);
	for (int i = 0; i < c->o->nsizes; i++)
		if (c->o->sizes[i] == v)
			return say(c->why, c->len, "'%s': %s", item, "given twice");
	if (c->o->nsizes == SWEEP_MAX_SIZES)
		return say(c->why, c->len, "more than %d sizes", SWEEP_MAX_SIZES);
	c->o->sizes[c->o->nsizes++] = v;
	return 0;
}

/* --sizes: byte counts, each once; sorted. */
int opts_parse_sizes(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct sweep_opts *s = base;
	struct sizes_ctx c = {s, why, len};
	(void)o;
	s->nsizes = 0;
	if (for_each_item(arg, take_size, &c, why, len) != 0)
		return -1;
	qsort(s->sizes, (size_t)s->nsizes, sizeof s->sizes[0], cmp_u64);
	s->explicit_sizes = true;
	s->min_bytes = s->sizes[0];
	s->max_bytes = s->sizes[s->nsizes - 1];
	return 0;
}

/*
 * -n 1 leaves no percentile (q needs 1 / (1 - q) samples, p50 two), and a
 * size below one element would be measured as 0 bytes: both refused.
 */
static int sweep_points_exist(const char *cmd, const struct sweep_opts *o, char *err, size_t len)
{
	size_t w = ar_dtype_bytes(o->dtype);
	if (o->iters == 1) {
		snprintf(err, len,
		         "%s: -n 1 gives no p50 or p99 (a percentile q needs at least 1 / (1 - q) "
		         "samples: p50 2, p99 100): give -n 2 or more, or leave -n out (adaptive)",
		         cmd);
		return EXIT_USAGE;
	}
	for (int i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > 0 && o->sizes[i] < w) {
			snprintf(err, len, "%s: %s %llu is less than one %s element (%zu bytes)",
			         cmd,
			         !o->explicit_sizes && o->sizes[i] == o->min_bytes ? "--min-bytes"
			                                                           : "the size",
			         (unsigned long long)o->sizes[i], ar_dtype_name(o->dtype), w);
			return EXIT_USAGE;
		}
	/* a size given by name is measured as given or refused: never quietly another one */
	for (int i = 0; o->explicit_sizes && i < o->nsizes; i++)
		if (o->sizes[i] % w) {
			snprintf(
			    err, len,
			    "%s: the size %llu is not a whole number of %s elements (%zu bytes): "
			    "give %llu or %llu",
			    cmd, (unsigned long long)o->sizes[i], ar_dtype_name(o->dtype), w,
			    (unsigned long long)(o->sizes[i] / w * w),
			    (unsigned long long)(o->sizes[i] / w * w + w));
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

int sweep_sizes(const char *cmd, struct sweep_opts *o, char *err, size_t len)
{
	if (o->explicit_sizes)
		return sweep_points_exist(cmd, o, err, len);
	if (o->min_bytes > o->max_bytes) {
		snprintf(err, len, "%s: --min-bytes %llu is larger than --max-bytes %llu", cmd,
		         (unsigned long long)o->min_bytes, (unsigned long long)o->max_bytes);
		return EXIT_USAGE;
	}
	o->nsizes = 0;
	if (o->step_factor == 0) {
		o->sizes[o->nsizes++] = o->min_bytes;
		if (o->max_bytes != o->min_bytes)
			o->sizes[o->nsizes++] = o->max_bytes;
		return sweep_points_exist(cmd, o, err, len);
	}
	for (uint64_t s = o->min_bytes; s <= o->max_bytes;) {
		if (o->nsizes == SWEEP_MAX_SIZES) {
			char f[32];
			report_fixed(f, sizeof f, o->step_factor, 0, 6);
			snprintf(err, len,
			         "%s: more than %d message sizes from %llu to %llu bytes by %s",
			         cmd, SWEEP_MAX_SIZES, (unsigned long long)o->min_bytes,
			         (unsigned long long)o->max_bytes, f);
			return EXIT_USAGE;
		}
		o->sizes[o->nsizes++] = s;
		double next = floor((double)s * o->step_factor);
		/* 2^64 is where a double of -e = 2^64 - 1 rounds to: no uint64 holds it */
		if (next > (double)o->max_bytes || next >= 18446744073709551616.0)
			break;
		s = (uint64_t)next > s ? (uint64_t)next : s + 1;
	}
	return sweep_points_exist(cmd, o, err, len);
}

bool sweep_echo(cJSON *cfg, const struct sweep_opts *o)
{
	cJSON *a = cJSON_AddArrayToObject(cfg, "sizes_bytes");
	for (int i = 0; a && i < o->nsizes; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber((double)o->sizes[i])))
			return false;
	return a && cJSON_AddNumberToObject(cfg, "adaptive_min_iters", SWEEP_ADAPTIVE_MIN_ITERS) &&
	       cJSON_AddNumberToObject(cfg, "adaptive_max_iters", SWEEP_ADAPTIVE_MAX_ITERS);
}
