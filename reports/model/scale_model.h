/*
 * collscope scale, after the sweep (rank 0): the alpha-beta-gamma fit of
 * every variant (terms counted on its own schedule, algorithms/cost.h), the
 * predicted rows, the data-parallel step model and its sweet spots, and the
 * report's results and summary. Pure: no MPI, no printing (scale_print.c
 * prints what this computes), so the unit tests run it on synthetic rows.
 */
#ifndef COLLSCOPE_CMD_SCALE_MODEL_H
#define COLLSCOPE_CMD_SCALE_MODEL_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "reports/model/model.h"
#include "cmd/scale_opts.h"
#include "reports/io/scale_report.h"
#include "algorithms/variant.h"

/* The variant whose schedule models `mpi`, which has none of its own. */
#define SCALE_MPI_SHAPE "rabenseifner"

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
int scale_model_run(const struct scale_opts *o, int world, struct scale_results *res, cJSON *root);

/* scale_print.c: the text output of what scale_model_run computed (rank 0). */
void scale_print_table(const struct scale_opts *o, const struct scale_results *res);
void scale_print_fits(const struct scale_opts *o, const struct scale_results *res);
void scale_print_step(const struct scale_opts *o, const struct scale_results *res);

#endif
