/*
 * The MPI library held to its own performance guidelines (issue 33, after
 * ReproMPI's PGChecker): at every message size, MPI_Allreduce (`mpi`)
 * should be no slower than its mock-ups from the library's other
 * collectives (`mpi-reduce-bcast`, `mpi-rs-allgather`) nor than collscope's
 * fastest own variant, and a larger message should never be faster. Pure:
 * libc, libm and cJSON; `tune` measures, calls this and prints.
 *
 * A violation needs statistical support on two counts: the two-sided
 * Mann-Whitney U test of mpi's samples against the other's, its p value
 * adjusted across every check of the run, below alpha (0.01), with the rank
 * test's shift pointing the same way; and the ratio of the p50s,
 * mpi / other, above min_ratio (1.10): a significant 2% is no finding.
 *
 * The adjustment is Holm's by default (TUNE_CORRECT_HOLM), not
 * Benjamini-Hochberg's as in compare:
 *   - the checks share samples, and not always the same way: mpi at size s
 *     is the slow side of the monotonic check (s, s') and the fast side of
 *     (s'', s), so those two are negatively dependent. BH's guarantee needs
 *     independent or positively dependent tests; Holm's holds for any;
 *   - a violation is a claim against the library (a bug report): Holm
 *     bounds the chance that the list holds any false one, not their
 *     expected share;
 *   - it costs little: a real violation is a gap of 1.1x and more over
 *     tens of samples, whose p values (1e-7 and below at 20 a side with no
 *     overlap) clear alpha / m for any family of a few hundred checks.
 *     (5 samples a side never reach p < 0.01 at all: at best 0.012.)
 * Every tested check is in the family, whether or not its ratio passes:
 * leaving out the small ratios would pick the family from the data.
 *
 * Collscope's own variants: each is a check of its own (so picking the
 * fastest is paid for in the adjustment, not a winner's curse on one
 * test); a size lists at most one such violation, against the fastest own
 * variant that mpi is found slower than.
 *
 * Monotonic: sizes in ascending order, mpi at each size against mpi at the
 * next measured one: mpi at the smaller size (bytes) slower than at the
 * larger (other_bytes), by the same standard. A cliff upwards (Open MPI
 * 4.1's at 32 MiB, where every call's scratch buffer becomes a fresh mmap)
 * is no such violation, time still grows with size: it shows as mpi slower
 * than its mock-ups or the own variants at those sizes, when they do not
 * pay the same.
 */
#ifndef COLLSCOPE_TUNE_CONSISTENCY_H
#define COLLSCOPE_TUNE_CONSISTENCY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#define TUNE_DEFAULT_ALPHA     0.01
#define TUNE_DEFAULT_MIN_RATIO 1.10

/* One variant's samples at one size; borrowed (n = 0: not measured there). */
struct tune_series {
	const char *name; /* "mpi", "mpi-reduce-bcast", "ring", ... */
	const double *samples_us;
	size_t n;
};

/* Everything measured at one message size; borrowed. */
struct tune_point {
	uint64_t bytes;
	struct tune_series mpi;          /* MPI_Allreduce */
	struct tune_series reduce_bcast; /* MPI_Reduce + MPI_Bcast */
	struct tune_series rs_allgather; /* MPI_Reduce_scatter + MPI_Allgatherv */
	const struct tune_series *own;   /* collscope's own variants (nown of them) */
	size_t nown;
};

enum tune_correction { TUNE_CORRECT_HOLM, TUNE_CORRECT_BH };

struct tune_consistency_opts {
	double alpha;     /* an adjusted p below this; in (0, 1) */
	double min_ratio; /* a p50 ratio above this; finite, >= 1 */
	enum tune_correction correction;
};

/* alpha 0.01, min_ratio 1.10, Holm. */
struct tune_consistency_opts tune_consistency_defaults(void);

enum tune_violation_kind {
	TUNE_SLOWER_THAN_REDUCE_BCAST,
	TUNE_SLOWER_THAN_RS_ALLGATHER,
	TUNE_SLOWER_THAN_OWN_VARIANT,
	TUNE_NOT_MONOTONIC,
	TUNE_VIOLATION_KINDS
};

/* "slower_than_reduce_bcast", "slower_than_rs_allgather", "slower_than_own_variant",
   "not_monotonic"; NULL out of range. */
const char *tune_violation_kind_name(enum tune_violation_kind k);

struct tune_violation {
	enum tune_violation_kind kind;
	uint64_t bytes;       /* the size at which mpi is the slower */
	uint64_t other_bytes; /* the other's size: bytes, or for not_monotonic the larger one */
	const char *other;    /* the other's name, borrowed from the input ("mpi" when monotonic) */
	double mpi_p50_us, other_p50_us;
	double ratio;   /* mpi_p50_us / other_p50_us, above min_ratio */
	double p_value; /* two-sided Mann-Whitney, before the adjustment */
	double q_value; /* adjusted across the family, below alpha */
	size_t mpi_samples, other_samples;
};

struct tune_consistency {
	struct tune_violation *violations; /* owned; by size, then in the order of the kinds */
	size_t nviolations;
	size_t nchecks;   /* tested checks: the family the adjustment spans */
	size_t nuntested; /* checks with both sides measured but under 2 samples on one */
};

/*
 * Checks points[0 .. npoints) (any order; sizes distinct) and fills *out
 * (initialised here; release it). opts NULL: the defaults. Returns 0, or -1
 * for bad arguments (NULL, a repeated size, bad opts) or no memory; *out is
 * then empty. The names in the violations are the input's: keep the input
 * alive while they are used.
 */
int tune_consistency_check(const struct tune_point *points, size_t npoints,
                           const struct tune_consistency_opts *opts, struct tune_consistency *out);
void tune_consistency_release(struct tune_consistency *c);

/*
 * Appends one object per violation to array: kind, bytes, other_bytes, other,
 * mpi_p50_us, other_p50_us, ratio, p_value, q_value, mpi_samples,
 * other_samples. 0, or -1 when out of memory (array keeps what was added).
 */
int tune_violations_to_json(cJSON *array, const struct tune_violation *v, size_t n);

/*
 * One violation as a line of text, without a newline, e.g. "1048576 bytes:
 * mpi p50 812.4 us is 1.42x mpi-rs-allgather's 572.1 us (p 3.1e-12,
 * adjusted 2.8e-10): MPI_Allreduce slower than MPI_Reduce_scatter +
 * MPI_Allgatherv". 0, or -1 when it does not fit in len bytes (cut, still
 * terminated) or for bad arguments.
 */
int tune_violation_format(const struct tune_violation *v, char *buf, size_t len);

#endif
