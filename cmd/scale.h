/*
 * `collscope scale`: options (scale_opts.c), the measurement over
 * sub-communicators (scale.c), and the models and their output
 * (scale_model.c, scale_print.c).
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_SCALE_H
#define COLLSCOPE_CMD_SCALE_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "cmd.h"
#include "cost.h"
#include "model.h"
#include "scale_report.h"
#include "variant.h"

enum {
	SCALE_MAX_SIZES = 64,
	SCALE_MAX_RANK_COUNTS = 64,
	SCALE_MAX_EXTRAPOLATE = 32,
	/* past COST_EXACT_MAX_STEPS the cost walk samples ranks; this bounds its memory */
	SCALE_MAX_EXTRAPOLATE_RANKS = 65536,
	SCALE_MAX_ITERS = 100000,
	SCALE_ADAPTIVE_MIN_ITERS = 10,
	SCALE_ADAPTIVE_MAX_ITERS = 1000,
	SCALE_MAX_VARIANTS = 32,
};

struct scale_opts {
	bool variants[SCALE_MAX_VARIANTS];
	uint64_t min_bytes, max_bytes;
	double step_factor;              /* 0: only -b and -e */
	uint64_t sizes[SCALE_MAX_SIZES]; /* whole elements, ascending, distinct; the gradient's
	                                    included */
	int nsizes;
	int ranks[SCALE_MAX_RANK_COUNTS]; /* ascending, distinct, 1..world */
	int nranks;
	bool spread;                            /* placement: round-robin over hosts, else packed */
	int extrapolate[SCALE_MAX_EXTRAPOLATE]; /* ascending, distinct */
	int nextrapolate;
	double compute_ms;   /* NAN: no step model */
	uint64_t grad_bytes; /* rounded down to whole elements */
	double overlap;
	int iters; /* 0: adaptive */
	int warmup;
	double time_per_size_s;
	enum ar_dtype dtype;
	enum ar_op op;
	uint64_t segment_bytes;
	bool check, force, quiet;
	double timeout_s; /* watchdog; 0 disables */
	const char *output;
	bool trace;             /* --trace: per-step trace, slow-hop attribution */
	uint64_t trace_entries; /* --trace-entries: entries of each rank's trace ring */
};

/* EXIT_OK, or an exit code after printing why. */
int scale_opts_parse(int argc, char **argv, const struct cmd_ctx *ctx, struct scale_opts *o);
/* Adds "config" with every option in force; NULL on allocation failure. */
cJSON *scale_opts_to_json(cJSON *root, const struct scale_opts *o);

/* One measured or predicted row on rank 0, with its record in the report. */
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
	uint64_t wrong[SCALE_MAX_VARIANTS];
	int measured[SCALE_MAX_VARIANTS], skipped[SCALE_MAX_VARIANTS];
	struct model_fit fit[SCALE_MAX_VARIANTS];
	bool fitted[SCALE_MAX_VARIANTS];
	int shape[SCALE_MAX_VARIANTS]; /* the variant whose schedule models it */
	/* [0] without overlap, [1] with --overlap; measured rank counts, and the model's */
	struct scale_sweet sweet_measured[SCALE_MAX_VARIANTS][2];
	struct scale_sweet sweet_model[SCALE_MAX_VARIANTS][2];
};

/* Appends a row (copied); NULL when out of memory. */
struct scale_entry *scale_results_add(struct scale_results *res, const struct scale_entry *e);
void scale_results_release(struct scale_results *res);

/*
 * Rank 0, after the measurement: fits the model of every variant, adds the
 * predicted rows, derives every row, prints the tables and fills the
 * report's results (predictions) and summary. Returns an exit code.
 */
int scale_model_run(const struct cmd_ctx *ctx, const struct scale_opts *o,
                    struct scale_results *res, cJSON *root);

/* scale_print.c: the text output of scale_model_run (rank 0). */
void scale_print_table(const struct scale_opts *o, const struct scale_results *res);
void scale_print_fits(const struct scale_opts *o, const struct scale_results *res);
void scale_print_step(const struct scale_opts *o, const struct scale_results *res);

#endif
