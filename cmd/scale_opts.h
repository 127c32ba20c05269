/*
 * `collscope scale`: its options (scale_opts.c, pure), the measurement over
 * sub-communicators (scale.c), the models (reports/model/scale_model.c, pure)
 * and the text output (scale_print.c).
 */
#ifndef COLLSCOPE_CMD_SCALE_OPTS_H
#define COLLSCOPE_CMD_SCALE_OPTS_H

#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "reports/model/scale_model.h"

enum {
	SCALE_MAX_RANK_COUNTS = 64,
	SCALE_MAX_EXTRAPOLATE = 32,
	/* past COST_EXACT_MAX_STEPS the cost walk samples ranks; this bounds its memory */
	SCALE_MAX_EXTRAPOLATE_RANKS = 65536,
};

enum scale_placement { SCALE_PACKED, SCALE_SPREAD };

/* --overlap measured: each step's test calls, and its iterations (overlap --step's defaults) */
#define SCALE_STEP_TEST_INTERVAL_US 50.0
enum { SCALE_STEP_ITERS = 5 };

struct scale_opts {
	struct sweep_opts sweep;          /* sizes: whole elements, the gradient's included */
	const char *ranks_arg;            /* --ranks as given: checked once N is known */
	int ranks[SCALE_MAX_RANK_COUNTS]; /* ascending, distinct, 1..world */
	int nranks;
	int placement;                          /* enum scale_placement */
	int extrapolate[SCALE_MAX_EXTRAPOLATE]; /* ascending, distinct */
	int nextrapolate;
	double compute_ms;   /* NAN: no step model */
	uint64_t grad_bytes; /* rounded down to whole elements */
	bool grad_given;
	double overlap; /* NAN until checked: then 0 when not given (or measured) */
	bool overlap_given;
	bool overlap_measured; /* --overlap measured: a step measured at each rank count */
	uint64_t bucket_bytes; /* its buckets, whole elements */
	double compress_ratio; /* NAN: no compressed step model (issue 40) */
	double cast_gbps;      /* NAN until given */
	double timeout_s;      /* watchdog; 0 disables */
	struct cmd_out out;
};

extern const struct cmd_spec scale_spec;

/* The models' view of o (borrowed: valid while o is). */
struct scale_model_in scale_model_input(const struct scale_opts *o);

/* scale_print.c: the text output of what scale_model_run computed (rank 0). */
void scale_print_table(const struct scale_opts *o, const struct scale_results *res);
void scale_print_fits(const struct scale_opts *o, const struct scale_results *res);
void scale_print_step(const struct scale_opts *o, const struct scale_results *res);

#endif
