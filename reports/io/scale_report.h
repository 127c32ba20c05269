/*
 * The rows of `collscope scale`: one per (variant, size, rank count),
 * measured or predicted, with what is derived from them (bandwidth
 * efficiency, latency growth, the data-parallel step model), their text
 * table and their JSON fields. Pure: libc, libm and cJSON; no MPI.
 */
#ifndef COLLSCOPE_SCALE_REPORT_H
#define COLLSCOPE_SCALE_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reports/model/model.h"

/* The data-parallel step at one rank count (reports/model/README.md). */
struct scale_step {
	double efficiency;     /* weak scaling: Tc / (Tc + exposed Tar(n)) */
	double speedup;        /* weak scaling: n x efficiency */
	double strong_speedup; /* strong scaling: Tc / (Tc / n + exposed Tar(n)) */
};

struct scale_step_cfg {
	bool on;             /* a compute time was given */
	double compute_us;   /* Tc: one step's compute on one rank */
	uint64_t grad_bytes; /* the rows of this size carry the step model */
	double overlap;      /* fraction of the all-reduce hidden behind compute */
	double compress_ratio; /* the step model with a compressed gradient (issue 40); 0: none */
};

struct scale_row {
	const char *algorithm; /* borrowed */
	uint64_t bytes;
	int ranks;
	int hosts; /* hosts spanned; -1 for predictions */
	bool predicted;
	const char *skipped;   /* borrowed reason, or NULL */
	double p50_us, p99_us; /* p99 NAN when undefined (predictions have none) */
	double busbw_gbps;
	/* the reference: the smallest rank count of the same algorithm and size */
	double ref_p50_us, ref_busbw_gbps;
	/* derived by scale_row_derive */
	double bw_efficiency;  /* busbw(n) / busbw(n_min) */
	double latency_growth; /* t(n) / t(n_min) */
	bool has_step;
	struct scale_step step, overlapped;
	/*
	 * --overlap measured: overlap_measured, with the hidden fraction of the
	 * measured step at this rank count (a prediction: at the largest rank
	 * count measured) and the step's time (NAN for a prediction). Else the
	 * configured overlap. scale_row_derive sets overlap to the one used and
	 * predicted_step_us to the model's step: Tc + Tar exposed at it.
	 */
	bool overlap_measured;
	double measured_overlap, measured_step_us;
	double overlap, predicted_step_us;
	/* the cost model at this point (has_model): terms of the critical path and its time */
	bool has_model;
	const char *shape;   /* the schedule walked (borrowed), e.g. "ring" */
	bool shape_borrowed; /* the variant has no schedule (mpi): another variant's shape */
	struct model_terms terms;
	bool sampled; /* the terms come from a sample of ranks (algorithms/cost.h) */
	double model_us;
	/*
	 * --compress-ratio: Tar with the gradient compressed (the caller sets
	 * it: the fit at bytes / ratio plus the cast's cost; NAN: no fit), and
	 * the step model at it (has_compressed).
	 */
	double compressed_tar_us;
	bool has_compressed;
	struct scale_step compressed;
};

/*
 * The order in which ranks join the sub-communicators: the first n world
 * ranks of order form the communicator of n ranks, in that order (so
 * order[0], the lowest rank of the first host, is its rank 0). Hosts go in
 * order of their lowest rank. Packed fills a host (ranks ascending) before
 * the next; spread takes the next rank of every host in turn. host_of_rank
 * has nranks entries in 0..nhosts-1. Returns 0, or -1 on bad input or no memory.
 */
int scale_placement_order(const int *host_of_rank, int nranks, int nhosts, bool spread, int *order);

/* How many distinct hosts order[0..n) spans. */
int scale_hosts_spanned(const int *host_of_rank, const int *order, int n);

/*
 * Sets ref_p50_us of every measured, not skipped row to the p50 of the
 * measured row with the fewest ranks among those of the same algorithm and
 * size, and ref_busbw_gbps to the busbw of the one with the fewest ranks
 * from 2 up (one rank has no bus bandwidth). Predicted rows are left alone
 * (their reference is the model's own, set by the caller).
 */
void scale_rows_reference(struct scale_row *rows, size_t n);

/* Bandwidth efficiency, latency growth and, at the gradient size, the step model. */
void scale_row_derive(struct scale_row *r, const struct scale_step_cfg *cfg);

/* The step model at one rank count for an all-reduce time of tar_us. */
void scale_step_at(int ranks, double tar_us, double compute_us, double overlap,
                   struct scale_step *out);

/* The text table: header line (starts with '#') and one row. 0, or -1 when buf is too small. */
int scale_format_header(char *buf, size_t len);
int scale_format_row(char *buf, size_t len, const struct scale_row *r);

/* "256 ranks: 201x of 256 ideal (78%)"; 0, or -1 when buf is too small. */
int scale_format_speedup(char *buf, size_t len, int ranks, double speedup);

/*
 * Adds the derived fields of r to its record rec (an object already in
 * results): predicted, hosts (measured rows), bandwidth_efficiency,
 * latency_growth, the step model (efficiency, speedup, strong_speedup,
 * strong_efficiency and "overlapped" {...}) and "model" {...}. NULL when
 * out of memory, else rec.
 */
cJSON *scale_row_add_json(cJSON *rec, const struct scale_row *r);

/*
 * Appends the record of a predicted row to results: algorithm, collective
 * (its name, as measured records carry it), bytes, count, dtype, op, ranks,
 * in_place, "predicted": true, time_us {p50}, algbw_gbps, busbw_gbps and the
 * derived fields. NULL when out of memory.
 */
cJSON *scale_prediction_to_json(cJSON *results, const struct scale_row *r, uint64_t count,
                                const char *collective, const char *dtype, const char *op,
                                bool in_place);

/* Adds "fit": {...} (alpha_us, beta_us_per_byte, gamma_us_per_byte, ...) to parent. */
cJSON *scale_fit_to_json(cJSON *parent, const struct model_fit *f, const char *shape,
                         bool borrowed);

#endif
