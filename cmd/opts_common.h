/*
 * Options that several commands share, declared once (cmd/opts.h): the
 * report's -o/--force/-q, the watchdog's --timeout, the all-reduce sweep of
 * allreduce and scale; and the value parsers for names (variants, dtypes,
 * ops) and size lists that the tables use. Pure: no MPI, no printing.
 */
#ifndef COLLSCOPE_CMD_OPTS_COMMON_H
#define COLLSCOPE_CMD_OPTS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/dtype.h"
#include "algorithms/timing.h"
#include "cmd/opts.h"
#include "algorithms/variant.h"

/* -o/--output and --force (opts_output), -q/--quiet (opts_quiet, a bool at its base). */
struct cmd_out {
	const char *output; /* NULL: no report */
	bool force, quiet;
};
extern const struct opt opts_output[2];
extern const struct opt opts_quiet[1];

/* --timeout: the watchdog's, in seconds; 0 disables. */
#define OPTS_DEFAULT_TIMEOUT "600"
extern const struct opt opts_timeout[1];
/*
 * --plan-only, --hosts, --ranks-per-host (links, accept): print what a run
 * would measure and cost, measure nothing; with hosts, for hosts x
 * ranks_per_host without mpirun (ranks placed in blocks, as mpirun by slot).
 */
struct plan_opts {
	bool only;
	int hosts, ranks_per_host; /* hosts 0: the job's */
};
extern const struct opt opts_plan[3];
/* The most ranks a plan is made for: 2^24 (1,024 hosts of 8 are 2^13). */
#define OPTS_PLAN_MAX_RANKS (1 << 24)
/*
 * --hosts or --ranks-per-host without --plan-only, ranks without hosts, or
 * more than OPTS_PLAN_MAX_RANKS ranks in all: EXIT_USAGE into err.
 */
int opts_plan_check(const char *command, const struct plan_opts *p, char *err, size_t len);
/*
 * The host of each of the hosts x ranks_per_host ranks, in blocks as mpirun
 * places them by slot: an array the caller frees, or NULL out of memory.
 */
int *opts_plan_host_of_rank(const struct plan_opts *p);

/* --segment-bytes: a uint64_t; allreduce, scale and verify. */
extern const struct opt opts_segment[1];

enum {
	SWEEP_MAX_SIZES = 1024,
	SWEEP_MAX_ITERS = 100000,
	SWEEP_ADAPTIVE_MIN_ITERS = 10,
	SWEEP_ADAPTIVE_MAX_ITERS = 1000, /* enough for p99.9; keeps raw samples in reports small */
};

/*
 * What allreduce and scale sweep: variants x sizes, and how each point is
 * measured. -a and -f are declared by each command (their defaults and
 * meaning differ); -b/-e by opts_sweep_range, the rest by opts_sweep_points,
 * opts_sweep_data and opts_sweep_timing
 * and opts_segment.
 */
struct sweep_opts {
	bool variants[AR_MAX_VARIANTS]; /* variants[i]: ar_variants[i] is selected */
	uint64_t min_bytes, max_bytes;
	double step_factor;              /* > 1, or 0: only -b and -e */
	uint64_t sizes[SWEEP_MAX_SIZES]; /* ascending, distinct, after sweep_sizes() */
	int nsizes;
	bool explicit_sizes; /* --sizes given: -b/-e/-f are derived from it */
	int iters;           /* 0: adaptive */
	int warmup;
	double time_per_size_s;
	double ci_width_pct; /* --ci-width: adaptive points stop at this interval width; 0 never */
	enum ar_dtype dtype;
	enum ar_op op;
	bool check;
	uint64_t segment_bytes;
	int timing; /* --timing: an enum timing_method, or SWEEP_TIMING_AUTO (settled by sweep_setup) */
	double clock_resync_s;     /* --clock-resync: a sync this old is redone before a point */
	bool trace;                /* --trace: every step of every rank, its slow hops named */
	int collective;         /* enum ar_collective: --collective (0: the all-reduce) */
	uint64_t trace_entries; /* per rank */
	struct codec_cfg codec; /* the compressed variants' options (issue 40) */
};
/*
 * --timing auto, the default: window under --trace where no host has more ranks than cores,
 * else barrier. A late rank is named only from a common start (algorithms/timing.h), which
 * a trace is run to find; an oversubscribed host cannot start its ranks together.
 */
#define SWEEP_TIMING_AUTO TIMING_METHOD_COUNT
extern const struct opt opts_sweep_range[2];
/* --trace and --trace-entries (allreduce, scale), at offsets into struct sweep_opts. */
extern const struct opt opts_trace[2];
/* --sizes, -n, -w, --time-per-size; -d, -r, -c; --timing, --clock-resync (in that order in --help).
 */
extern const struct opt opts_sweep_points[5];
extern const struct opt opts_sweep_data[3];
extern const struct opt opts_sweep_timing[2];
/* --topk-ratio, --error-feedback, --stochastic-rounding: the compressed variants' (allreduce). */
extern const struct opt opts_compress[3];
/* --collective (allreduce, scale): the all-reduce or one of its halves. */
extern const struct opt opts_sweep_collective[1];

/*
 * The sizes of the sweep: --sizes as given, else -b, -b x f, ... up to -e
 * (f = 0: -b and -e only). EXIT_OK, or EXIT_USAGE with the reason in err
 * (prefixed with cmd).
 */
int sweep_sizes(const char *cmd, struct sweep_opts *o, char *err, size_t len);
/* Adds sizes_bytes, adaptive_min_iters and adaptive_max_iters to a config. */
bool sweep_echo(cJSON *cfg, const struct sweep_opts *o);

/* Value parsers and echoes for the tables (opt_parse_fn, opt_echo_fn). */
/* --sizes: a list of byte counts into a struct sweep_opts (at the option's base); explicit_sizes.
 */
int opts_parse_sizes(const char *arg, void *base, const struct opt *o, char *why, size_t len);
int opts_parse_variants(const char *arg, void *base, const struct opt *o, char *why, size_t len);
bool opts_echo_variants(cJSON *cfg, const char *key, const void *base, const struct opt *o);
/* DURATION (a double of seconds): seconds, or a number with s, m or h, at most a week; 0: none. */
int opts_parse_duration(const char *arg, void *base, const struct opt *o, char *why, size_t len);
bool opts_echo_duration(cJSON *cfg, const char *key, const void *base, const struct opt *o);
int opts_parse_dtype(const char *arg, void *base, const struct opt *o, char *why, size_t len);
bool opts_echo_dtype(cJSON *cfg, const char *key, const void *base, const struct opt *o);
int opts_parse_op(const char *arg, void *base, const struct opt *o, char *why, size_t len);
bool opts_echo_op(cJSON *cfg, const char *key, const void *base, const struct opt *o);
/* Lists of dtypes and ops into bool[AR_DTYPE_COUNT] and bool[AR_OP_COUNT] (verify). */
int opts_parse_dtypes(const char *arg, void *base, const struct opt *o, char *why, size_t len);
int opts_parse_ops(const char *arg, void *base, const struct opt *o, char *why, size_t len);
/* An int that reads "adaptive" when 0. */
bool opts_echo_adaptive(cJSON *cfg, const char *key, const void *base, const struct opt *o);

/*
 * A comma-separated list of whole numbers in [min, max], the value of
 * option --name, into out, sorted and without repeats; 0, or
 * OPT_WHOLE_MESSAGE with the message in why ("bad value 'x' in --ranks
 * '1,x': each must be a whole number from 1 to 8").
 */
int opts_parse_int_list(const char *arg, const char *name, int min, int max, int *out,
                        int max_items, int *nout, char *why, size_t len);

/*
 * The rank counts of --ranks (scale, tune) once the job's size is known:
 * arg's, each from min to nranks (opts_parse_int_list), or with arg NULL
 * 2, 4, 8, ... below nranks, and nranks. 0, or OPT_WHOLE_MESSAGE with why.
 */
int opts_rank_counts(const char *arg, int min, int nranks, int *out, int max_items, int *nout,
                     char *why, size_t len);

/* A config echo of n ints as an array named key. */
bool opts_echo_ints(cJSON *cfg, const char *key, const int *v, int n);

#endif
