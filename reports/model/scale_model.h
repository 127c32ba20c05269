/*
 * collscope scale, after the sweep (rank 0): the alpha-beta-gamma fit of
 * every variant (terms counted on its own schedule, algorithms/cost.h), the
 * predicted rows, the data-parallel step model and its sweet spots, and the
 * report's results and summary. Pure: no MPI, no printing (scale_print.c
 * prints what this computes), so the unit tests run it on synthetic rows.
 */
#ifndef COLLSCOPE_SCALE_MODEL_H
#define COLLSCOPE_SCALE_MODEL_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "reports/model/model.h"
#include "reports/io/scale_report.h"
#include "algorithms/variant.h"

/* The variant whose schedule models `mpi`, which has none of its own (its halves: the ring's). */
#define SCALE_MPI_SHAPE "rabenseifner"

/* What the models need of scale's options (cmd/scale_opts.c: scale_model_input). */
struct scale_model_in {
	const bool *variants; /* AR_MAX_VARIANTS: variants[i] selects ar_variants[i] */
	enum ar_dtype dtype;
	enum ar_op op;
	enum ar_collective collective; /* the all-reduce, or the half measured (--collective) */
	uint64_t segment_bytes;
	const uint64_t *sizes; /* nsizes, ascending: the message sizes measured */
	int nsizes;
	const int *ranks; /* nranks, ascending: the rank counts measured */
	int nranks;
	const int *extrapolate; /* nextrapolate, ascending: the rank counts predicted */
	int nextrapolate;
	double compute_ms;     /* NAN: no step model */
	uint64_t grad_bytes;   /* whole elements */
	double overlap;        /* 0..1 */
	bool overlap_measured; /* --overlap measured: scale_results.step_overlap, per rank count */
	uint64_t bucket_bytes; /* its steps' buckets */
	double compress_ratio; /* 0: no compressed step model; else with cast_gbps */
	double cast_gbps;
};

/* One measured or predicted row, with its record in the report. */
struct scale_entry {
	struct scale_row row;
	int variant; /* index into ar_variants */
	uint64_t count;
	cJSON *rec; /* measured: its record in results (borrowed), else NULL */
};

/* The rank count that maximises the strong-scaling speedup. */
struct scale_sweet {
	bool found;
	int ranks;
	double speedup;
	bool at_edge;  /* the largest rank count looked at: the speedup may still rise past it */
	int max_ranks; /* the largest rank count looked at */
};

/* Rank 0's results, filled by the measurement and completed by the models. */
struct scale_results {
	struct scale_entry *e;
	size_t n, cap;
	uint64_t wrong[AR_MAX_VARIANTS];
	int measured[AR_MAX_VARIANTS], skipped[AR_MAX_VARIANTS];
	struct model_fit fit[AR_MAX_VARIANTS];
	bool fitted[AR_MAX_VARIANTS];
	int shape[AR_MAX_VARIANTS]; /* the variant whose schedule models it */
	/* [0] without overlap, [1] with --overlap; measured rank counts, and the model's */
	struct scale_sweet sweet_measured[AR_MAX_VARIANTS][2];
	struct scale_sweet sweet_model[AR_MAX_VARIANTS][2];
	/*
	 * --overlap measured: per variant, the hidden fraction of the step at
	 * the largest rank count measured (NAN: none), which predictions use;
	 * the measured rows carry their own (scale_row.measured_overlap).
	 */
	double step_overlap[AR_MAX_VARIANTS];
	/* a prediction the model had to leave out, in words ("" when none) */
	char warning[256];
};

/* Appends a row (copied); NULL when out of memory. */
struct scale_entry *scale_results_add(struct scale_results *res, const struct scale_entry *e);
void scale_results_release(struct scale_results *res);

/*
 * Fits the model of every variant from the measured rows, adds the
 * predicted rows, derives every row (world: the job's rank count, for the
 * model's grid), fills the report's results (predictions) and summary.
 * Returns EXIT_OK, EXIT_WRONG when a measured point was wrong, or
 * EXIT_RUNTIME when out of memory.
 */
int scale_model_run(const struct scale_model_in *o, int world, struct scale_results *res,
                    cJSON *root);

#endif
