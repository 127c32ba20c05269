/*
 * One measured all-reduce point: its record, the formulas that derive
 * bandwidth from time (reports/README.md), and the one table of output
 * fields that drives both the text table and the JSON record, so the two
 * cannot drift apart. Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_AR_REPORT_H
#define COLLSCOPE_AR_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/timing.h"
#include "algorithms/variant.h"
#include "reports/stats/stats.h"

struct ar_record {
	const char *algorithm, *dtype, *op; /* borrowed static names */
	enum ar_collective collective;      /* the all-reduce (0), or one of its halves */
	uint64_t bytes, count;
	int ranks;
	bool in_place;
	const char *skipped; /* NULL when measured, else the reason (borrowed) */
	int iterations;
	int64_t wrong; /* wrong elements over all ranks; -1 when not checked */
	struct stats_summary time;
	double algbw_gbps, busbw_gbps;           /* from the p50 time */
	double algbw_mean_gbps, busbw_mean_gbps; /* from the mean time */
	const double *samples_us;                /* borrowed: per iteration, max over ranks */
	size_t nsamples;
	const double *rank_mean_us; /* borrowed: per rank, mean time inside the call */
	/*
	 * The one everyone waited for (algorithms/timing.h): set by the caller,
	 * or -1 for ar_record_compute to take the rank with the least time
	 * inside the call.
	 */
	int straggler_rank;
	bool timing_known;           /* false: timing and the cause are not written */
	enum timing_method timing;   /* how the point was timed */
	int calls_per_sample;        /* pipelined's batch; 1 otherwise */
	int late_starts;             /* window: attempts dropped, a rank having come late */
	int late_starts_retimed;     /* window: late attempts kept, timed from the last arrival */
	enum timing_from timed_from; /* window: the samples' origin; NONE otherwise */
	double window_lead_us;       /* window: the lead of the last start; NAN otherwise */
	double start_error_us;       /* window: timing_result.start_error_us; NAN otherwise */
	const double
	    *rank_late_us; /* borrowed: per rank, mean arrival after the start; NULL: none */
	const double *rank_learnt_late_us; /* borrowed: window, per rank (timing_rank_learnt_late);
	                                      NULL: none */
	enum timing_cause straggler_cause; /* TIMING_CAUSE_NONE: not known (null) */
	double straggler_us; /* the straggler's own delay per iteration; NAN: not known */
	int straggler_count;       /* iterations it was the last (algorithms/timing.h) */
	double straggler_p_value;  /* NAN: not known */
	bool straggler_persistent; /* timing_straggler_persistent */
	double p50_ci_lo_us, p50_ci_hi_us; /* the p50's 95% interval; NAN: none */
	const char *stop; /* why sampling stopped (algorithms/sample_stop.h); NULL: not written */
	/* a compressed variant's (issue 40): written when compressed is set; NAN: not known */
	bool compressed;
	double sent_bytes, compression_ratio, wire_busbw_gbps;
	double max_abs_error, rel_l2_error, beyond_bound_share;
	int feedback_calls; /* error feedback's drift: the calls summed; 0: not run */
	double feedback_rel_l2_error; /* NAN: not run */
};

/* algbw = bytes / time; NAN for a time that is not positive. */
double ar_algbw_gbps(uint64_t bytes, double time_us);
/* nccl-tests' all-reduce bus factor 2(n-1)/n (0 at one rank). */
double ar_busbw_factor(int nranks);
/*
 * Fill time and bandwidths from the samples (every figure NAN when there are
 * none: the sweep then stops with an error), and the straggler from the per-rank means
 * unless it is set.
 */
int ar_record_compute(struct ar_record *r);
/*
 * The point was measured: not skipped, and its samples give a time (a
 * finite p50). A point without is "not measured": no gate passes on it.
 */
bool ar_record_has_time(const struct ar_record *r);

/*
 * A cliff: between two consecutive measured sizes of one variant, the time
 * grows more than AR_CLIFF_FACTOR times faster than the size, in the
 * bandwidth regime (from 256 KiB). Open MPI 4.1's MPI_Allreduce shows one at
 * 32 MiB, where each call's scratch buffer becomes a fresh mmap.
 */
#define AR_CLIFF_FACTOR    3.0
#define AR_CLIFF_MIN_BYTES ((uint64_t)256 * 1024)
bool ar_is_cliff(uint64_t bytes_a, double time_a_us, uint64_t bytes_b, double time_b_us);

/* The text table: header line (starts with '#') and one row per record. */
int ar_format_header(char *buf, size_t len, bool csv);
int ar_format_row(char *buf, size_t len, const struct ar_record *r, bool csv);

/* Append the record to the JSON array `results`; NULL on allocation failure. */
cJSON *ar_record_to_json(cJSON *results, const struct ar_record *r);

#endif
