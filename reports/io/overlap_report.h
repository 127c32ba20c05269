/*
 * What `collscope overlap` measured (rank 0) and its report: a record per
 * point, the summary (reports/io/schema_overlap.h). Pure: cJSON, no MPI.
 */
#ifndef COLLSCOPE_OVERLAP_REPORT_H
#define COLLSCOPE_OVERLAP_REPORT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "reports/model/overlap_model.h"

struct overlap_row {
	const char *algorithm, *dtype, *op, *compute, *progress; /* borrowed static names */
	uint64_t bytes, count;
	int ranks, iterations;
	const char *skipped; /* static: why not measured, or NULL */
	int64_t wrong;       /* -1: not checked */
	double interval_us;
	struct overlap_times mean; /* over ranks */
	int imb_rank;              /* the rank with the largest overall */
	double osu_pct, imb_pct;
	const double *rank_overall_us; /* borrowed, ranks entries; NULL: not kept */
};

/*
 * The row's figures from every rank's times (ranks of them): the means,
 * the slowest rank and both overlaps.
 */
void overlap_row_figures(struct overlap_row *row, const struct overlap_times *per_rank);
/* The row as a record appended to results; NULL when out of memory. */
cJSON *overlap_row_to_json(cJSON *results, const struct overlap_row *row);
/* One variant's measured training step (--step). */
struct overlap_step_row {
	const char *algorithm, *compute; /* borrowed static names */
	int ranks;
	uint64_t grad_bytes, bucket_bytes;
	size_t buckets;
	const char *skipped; /* static, or NULL */
	struct overlap_step s;
	int64_t wrong; /* -1: not checked */
};

/*
 * Adds "summary" (largest_size, steps when nsteps > 0, wrong_total,
 * verdict); NULL when out of memory.
 */
cJSON *overlap_report_add_summary(cJSON *root, const struct overlap_row *rows, int n,
                                  const struct overlap_step_row *steps, int nsteps);

#endif
