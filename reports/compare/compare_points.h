/*
 * collscope compare: a report against a baseline, point by point, with a
 * significance test, so that noise alone does not fail CI and a large real
 * slowdown does. Pure: libc, libm and cJSON; no MPI. The rendering
 * functions write to a FILE * or into a cJSON tree and nothing else.
 *
 * A point regresses when its gate metric (p50 time by default) is worse by
 * more than threshold_pct AND the two-sided Mann-Whitney U test of the raw
 * samples finds a shift in the same direction at alpha. The test needs at
 * least CMP_MIN_SAMPLES samples a side (its normal approximation is poor
 * below; links records keep LINK_KEPT_SAMPLES of each kind): with fewer, the
 * point gets no significance verdict and is "untested", which does not fail
 * unless untested_fails is set (then the threshold alone decides).
 *
 * The tests of one comparison are one family: their p values are adjusted
 * together (Benjamini-Hochberg by default, Holm, or none) and a verdict of
 * significance needs q < alpha, so a sweep of many points does not fail
 * by chance more often than alpha says. Each tested point also gets its
 * minimum detectable effect (compare_stats.h) at the level a lone change
 * must reach after the adjustment (alpha / m for bh and holm, alpha for
 * none) and power CMP_MDE_POWER; a point whose effect exceeds the threshold
 * is "too noisy" to judge it, and says how many samples would do.
 *
 * Noise (compare_noise.c, issue 29). A collective point's own spread is the
 * relative width of the middle half of its samples (stats_iqr_spread_pct),
 * the wider of both sides; its yardstick figure is how far the control
 * bursts measured just before and after it (summary.yardstick) stood above
 * their run's quiet level (their 10th percentile), the wider of both reports. Noise between
 * moments of a run is what the test of one point's samples cannot see, so
 * the yardstick figure widens the bar a change must pass: threshold +
 * yardstick. When the own spread or the yardstick figure is wider than the
 * threshold, the threshold cannot be tested at that point: it is
 * "untestable" unless its change clears threshold + own spread + yardstick
 * (a point measured inside a disturbance moves by the disturbance's size, and
 * the yardstick with it). Untestable points are printed and
 * counted, and fail only with untestable_fails. Reports without a yardstick (older ones, scale)
 * are judged on the own spread alone; links records have no noise rule.
 */
#ifndef COLLSCOPE_COMPARE_H
#define COLLSCOPE_COMPARE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CMP_MIN_SAMPLES           9
#define CMP_LABEL_BYTES           200
#define CMP_DEFAULT_THRESHOLD_PCT 10.0
#define CMP_DEFAULT_ALPHA         0.01
#define CMP_MDE_POWER             0.8
/* Noise (own spread or yardstick) past this many percent: the point is untestable, whatever
 * its change (compare_noise.c: a descheduled call's change has no bound). */
#define CMP_NOISE_UNJUDGED_PCT 100.0

/* Collective records keyed by (algorithm, dtype, op, bytes, ranks, in_place); links by pair. */
enum cmp_kind { CMP_KIND_POINTS, CMP_KIND_LINKS };

/* Times are worse when larger, bandwidth when smaller. */
enum cmp_metric {
	CMP_P50, /* p50 time, us (links: one-way latency) */
	CMP_P99, /* p99 time, us */
	CMP_BW,  /* busbw, GB/s (links: p50 bandwidth) */
	CMP_METRICS
};

/* In table order: worst first. */
enum cmp_verdict {
	CMP_REGRESSION,      /* worse beyond the threshold (and the noise) and significant */
	CMP_UNTESTABLE,      /* its noise is wider than the threshold: a change that size hides */
	CMP_UNTESTED,        /* beyond the threshold, too few samples for the test */
	CMP_NOT_SIGNIFICANT, /* beyond the threshold, the test finds no shift that way */
	CMP_UNCHANGED,       /* within the threshold */
	CMP_IMPROVED,        /* better beyond the threshold and significant */
	CMP_NOT_COMPARED,    /* skipped on a side, or the gate metric undefined */
	CMP_BASELINE_ONLY,
	CMP_CURRENT_ONLY,
	CMP_VERDICTS
};

/* One record of a report. Strings are borrowed from the report's cJSON tree. */
struct cmp_point {
	const char *algorithm, *dtype, *op; /* "" for links */
	const char *collective;             /* "allreduce" when the record has none; "" for links */
	int64_t bytes, ranks;
	bool in_place;
	int64_t a, b;                /* links: the ordered pair */
	const char *host_a, *host_b; /* links, NULL when not recorded */
	const char *skipped;         /* the reason, NULL when measured */
	double value[CMP_METRICS];   /* NAN when undefined */
	double *samples_us;          /* owned; NULL when the record has none */
	size_t nsamples;
	double *window_samples_us; /* links: window times, for the bandwidth gate; owned */
	size_t nwindow_samples;
	size_t index;            /* in the report's results */
	int64_t yardstick_burst; /* the burst measured just before it; -1: not recorded */
	double spread_pct;       /* own: stats_iqr_spread_pct of samples_us; NAN when undefined */
	double yardstick_pct;    /* the bursts around it above their quiet level; NAN: none */
};

/* One report as compare sees it. Borrows from the cJSON root, which must outlive it. */
struct cmp_run {
	const cJSON *root;
	const char *path, *command;
	const char *started_utc; /* context.started_utc, NULL when not recorded */
	enum cmp_kind kind;
	int64_t ranks, hosts; /* from the context; -1 when not recorded */
	char dtypes[256],
	    ops[256]; /* the distinct values of the records, sorted, comma-separated */
	bool complete;
	double *yardstick_us; /* owned: summary.yardstick.samples_us; NULL: no yardstick */
	size_t nyardstick;
	double yardstick_spread_pct; /* stats_iqr_spread_pct of the bursts; NAN when undefined */
	struct cmp_point *points;    /* owned, sorted by key */
	size_t npoints;
};

/* How the p values of one comparison are adjusted together. */
enum cmp_correction { CMP_CORRECT_BH, CMP_CORRECT_HOLM, CMP_CORRECT_NONE, CMP_CORRECTIONS };

struct cmp_options {
	size_t pairs; /* --paired: the runs are this many (baseline, current) pairs; 0: two runs */
	double threshold_pct;
	double alpha;
	enum cmp_metric gate;
	bool untested_fails;   /* an untested point worse beyond the threshold regresses */
	bool untestable_fails; /* an untestable point fails the comparison (exit 1) */
	enum cmp_correction correction;
};

struct cmp_row {
	const struct cmp_point *base, *cur; /* one of them NULL for a one-sided point */
	size_t pairs;                       /* --paired: the pairs that held the point; 0 otherwise */
	/* the values the row shows: its points' own; --paired, the medians over the pairs */
	double base_value[CMP_METRICS], cur_value[CMP_METRICS];
	double t; /* --paired: Student's t of the pairs' log ratios, > 0 when current is larger; NAN */
	double ratio[CMP_METRICS];          /* current / baseline; NAN when undefined */
	double change_pct[CMP_METRICS];     /* (ratio - 1) x 100 */
	double worse_pct;                   /* of the gate metric; positive is worse */
	bool tested;
	size_t tested_base, tested_cur; /* the samples a side that the test was given */
	double u, p_value;              /* U of current against baseline; NAN when not tested */
	double q_value;                 /* p adjusted over the tested points; NAN when not tested */
	double mde_pct;        /* the smallest change of the time it detects; NAN when not tested */
	bool too_noisy;        /* mde_pct above the threshold */
	size_t samples_needed; /* a side, to test the threshold; 0 when not too noisy or unknown */
	double threshold_pct;  /* the options', for the note */
	double spread_pct;     /* own spread, the wider side; NAN when neither has one */
	double yardstick_pct;  /* yardstick figure, the wider report; NAN when neither has one */
	double bar_pct; /* how much worse a regression must be: threshold + yardstick, or past the
	                   threshold's noise, threshold + spread + yardstick; NAN: not compared */
	enum cmp_verdict verdict;
	const char *note; /* static text, or NULL */
	char label[CMP_LABEL_BYTES];
};

/*
 * One difference between the contexts of two reports: "name: baseline ->
 * current". A value absent on a side is "" with its absent flag; a secret
 * (a value recorded as "<redacted>", or a name that looks like one) is
 * "(redacted)", never its value.
 */
#define CMP_DIFF_NAME_BYTES  160
#define CMP_DIFF_VALUE_BYTES 200
#define CMP_DIFF_RANKS_MAX   8 /* rank binding differences listed; the rest counted */

struct cmp_diff {
	char name[CMP_DIFF_NAME_BYTES];
	char baseline[CMP_DIFF_VALUE_BYTES], current[CMP_DIFF_VALUE_BYTES];
	bool base_absent, cur_absent;
};

#define CMP_MAX_PAIRS 64

/*
 * compare --paired, the run as a whole: a build that regressed slowed every
 * point, so each pair's figure is the median over the points tested in every
 * pair of log(current / baseline) of the gate metric, worse positive (a burst
 * of load that hit a few points of a pair moves it little), and Student's t
 * over the pairs' figures tests it, one-sided the way the median moved. It
 * regresses when the median over the pairs is worse than the threshold and
 * p < alpha. On compare_noise.py's kept runs (8 trials of 4 pairs under 3
 * busy loops, every rank 25% slower in half of them, 2026-12-06): 6 of 8
 * slowed trials caught and no false alarm, where the points alone caught 3.
 */
struct cmp_whole {
	bool judged;                           /* --paired, with 2 points or more */
	size_t points;                         /* tested in every pair */
	double pair_change_pct[CMP_MAX_PAIRS]; /* each pair's figure, as a change; worse positive */
	double change_pct;                     /* the median over the pairs; worse positive */
	double t, p_value;                     /* t > 0: worse; p one-sided */
	enum cmp_verdict verdict; /* regression, improved, unchanged or not-significant */
};

struct cmp_result {
	struct cmp_whole whole; /* --paired only (judged false otherwise) */
	struct cmp_diff *diffs; /* owned: what differs between the runs' contexts */
	size_t ndiffs;
	struct cmp_row *rows; /* owned, worst first */
	size_t nrows;
	size_t count[CMP_VERDICTS];
	size_t tested;    /* the family: points with a p value */
	size_t too_noisy; /* tested points whose mde_pct exceeds the threshold */
	size_t untestable_own, untestable_yardstick; /* why points were untestable (both may) */
	double mde_alpha;                            /* the level the detectable effects assume */
};

void cmp_options_init(struct cmp_options *o);

/*
 * Reads the records of root (read from path by report_read) into *run.
 * Refuses, with err naming path and the problem: a command compare does not
 * know (it compares allreduce, scale and links reports), a record field of
 * the wrong type or out of range, two records for the same point. Rows
 * marked "predicted": true (scale) are left out: only measurements compare.
 * Returns 0 or -1; on -1 *run holds nothing to release.
 */
int cmp_run_load(struct cmp_run *run, const char *path, const cJSON *root, char *err,
                 size_t errlen);
void cmp_run_release(struct cmp_run *run);
/* The key order of the points (algorithm, dtype, op, ranks, in_place, bytes, a, b). */
int cmp_point_order(const struct cmp_point *x, const struct cmp_point *y);

/*
 * The keys on which two runs differ (ranks, hosts, dtype, op), as
 * "ranks 2 vs 4, hosts 1 vs 2" into buf; returns how many. Unknown
 * values (-1) never differ.
 */
int cmp_mismatch(const struct cmp_run *base, const struct cmp_run *cur, char *buf, size_t len);

/*
 * What differs between the contexts of two reports (compare_context.c), in
 * this order: collscope's version, the MPI library, its control variables
 * (context.mpi.cvars, by name), the environment's OMPI_MCA_*, MPIR_CVAR_*
 * and COLLSCOPE_* settings (not the launcher's own per-job bookkeeping:
 * OMPI_MCA_orte_*, _ess*, _pmix*, _initial_wdir), the hosts (names, and per
 * host its CPU model, kernel, cores, PUs, oversubscription), the binding of
 * every rank (host, cpuset, bound; past CMP_DIFF_RANKS_MAX ranks, counted),
 * oversubscription and every option of config that can change a
 * measurement. *out is owned by the caller (free); 0, or -1 when out of memory.
 */
int cmp_context_diff(const cJSON *base_root, const cJSON *cur_root, struct cmp_diff **out,
                     size_t *n);
/* "coll_tuned_allreduce_algorithm: 0 -> 1", absent sides as "(unset)"; control characters '?'. */
void cmp_diff_text(const struct cmp_diff *d, char *buf, size_t len);
struct cmp_result;
/* root's "context_differences": [{name, baseline, current}], an absent side null; false: no memory.
 */
bool cmp_diffs_to_json(cJSON *root, const struct cmp_result *r);

/*
 * Internal to reports/compare/: the samples the gate's test uses (a link's bandwidth gate its
 * window times when windows, else the call times); q of every tested row adjusted together (0,
 * or -1 when out of memory); the rows' order, worst first (by verdict, then by how much worse,
 * undefined last, then by name).
 */
void cmp_tested_samples(const struct cmp_point *p, bool windows, const double **x, size_t *n);
int cmp_adjust_family(struct cmp_result *out, enum cmp_correction correction);
int cmp_row_order(const void *pa, const void *pb);

/* Matches, tests and orders, and lists the context differences; 0, or -1 when out of memory. */
int cmp_compare(const struct cmp_run *base, const struct cmp_run *cur, const struct cmp_options *o,
                struct cmp_result *out);
void cmp_result_release(struct cmp_result *r);

/*
 * compare --paired (compare_paired.c, issue 29). On a busy machine the load
 * moves between the minutes of a baseline and those of the current run, by
 * more than the change a gate looks for, and no test of two runs' samples
 * can tell the two apart. Measured alternately (baseline, current,
 * baseline, current, ...: runs[2i] and runs[2i+1] are pair i, measured one
 * after the other), each pair shares its minutes, and a real change shows
 * in every pair while the load's drift does not. The pair is the unit of
 * the test, not the sample: the load moves all of a run's samples together.
 * Per point, with every pair holding it:
 *   - the change of each metric is the median over the pairs of current /
 *     baseline (a pair caught in a burst of load moves the median little);
 *   - the test is Student's paired t of d = log(current / baseline) of the
 *     gate metric over the pairs (npairs - 1 degrees of freedom), its p
 *     values adjusted over the points as in cmp_compare.
 * A point regresses when its median change is worse than the threshold and
 * the test finds a shift that way at q < alpha; it improves likewise. Its
 * own spread and the yardstick (noise between moments, which the pairs'
 * spread measures) are not applied: a point is never untestable. It is not
 * compared when a pair lacks it or skipped it, untested when its gate
 * metric is not positive in a pair. With few pairs the test is weak (2
 * pairs: |t| above 64 at 0.01; 4: above 5.8): more pairs, more power. Rows
 * name pair 1's points; their figures are the pairs'. The run as a whole is
 * judged too (struct cmp_whole). npairs from 2 to CMP_MAX_PAIRS; 0, or -1 for
 * another npairs or when out of memory.
 */
int cmp_compare_paired(const struct cmp_run *runs, size_t npairs, const struct cmp_options *o,
                       struct cmp_result *out);
/* Any regression, of a point or (--paired) of the run as a whole. */
bool cmp_failed(const struct cmp_result *r);
/* Exit status material: any regression, or with untestable_fails any untestable point. */
bool cmp_fails(const struct cmp_result *r, const struct cmp_options *o);
/* "regression", "untestable" (no regression, some point untestable) or "ok". */
const char *cmp_status(const struct cmp_result *r);

/*
 * compare_noise.c: each point's own spread and yardstick figure, from the
 * run's summary.yardstick (optional) and the records' yardstick_burst;
 * refuses (err names the file and the record) a burst index that names no
 * burst. 0, or -1 (also when out of memory).
 */
int cmp_noise_load(struct cmp_run *run, char *err, size_t errlen);
/* The row's spread, yardstick figure and bar; true when its noise is wider than the threshold. */
bool cmp_noise_measure(struct cmp_row *r, double threshold_pct);

const char *cmp_verdict_name(enum cmp_verdict v);
/* "bh", "holm", "none"; cmp_correction_parse: 0 or -1. */
const char *cmp_correction_name(enum cmp_correction c);
int cmp_correction_parse(const char *s, enum cmp_correction *out);
/*
 * The row's note as printed: its static note, and for a too-noisy point
 * "too noisy for 10%: detects 23%, needs ~140 samples a side to test 10%".
 */
void cmp_row_note(const struct cmp_row *r, char *buf, size_t len);
/* "p50", "p99", "busbw" (links: "latency_p50", "latency_p99", "bandwidth"). */
const char *cmp_metric_name(enum cmp_metric m, enum cmp_kind kind);
/* The kind whose names include s; 0, or -1 for no metric's name. */
int cmp_metric_kind(const char *s, enum cmp_kind *kind);
/*
 * 0 when the metric named (NULL: the default, which fits any kind) is one of
 * kind's names; else -1 with err naming it and the kind's metrics.
 */
int cmp_metric_fits(const char *name, enum cmp_kind kind, char *err, size_t len);
/* Accepts either kind's names; 0 or -1. */
int cmp_metric_parse(const char *s, enum cmp_metric *out);
/* The point as people read it, terminal controls escaped (report_text.h): "ring 1048576 B float32
 * sum x4". */
void cmp_point_label(const struct cmp_run *run, const struct cmp_point *p, char *buf, size_t len);

/* stdout formats (compare_render.c). */
enum cmp_format { CMP_FORMAT_TABLE, CMP_FORMAT_MARKDOWN };

/* The table, one-sided points and the summary; 0, or -1 on a write error. */
int cmp_print(FILE *f, enum cmp_format fmt, const struct cmp_run *base, const struct cmp_run *cur,
              const struct cmp_result *r, const struct cmp_options *o);

/*
 * Adds "config" (files, options), "results" (one record per row, every
 * field of the table and the keys of the point) and "summary" (counts per
 * verdict, "verdict": "regression" or "ok") to root. Returns root, or NULL
 * when out of memory.
 */
cJSON *cmp_to_json(cJSON *root, const struct cmp_run *base, const struct cmp_run *cur,
                   const struct cmp_result *r, const struct cmp_options *o);

#endif
