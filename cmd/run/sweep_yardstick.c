/* See sweep_yardstick.h. */
#include <mpi.h>

#include "cmd/run/run.h"
#include "cmd/run/sweep_yardstick.h"

#include "algorithms/fault.h"
#include "algorithms/progress.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"
#include "reports/stats/compare_stats.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sweep_yardstick_init(struct sweep_yardstick *y)
{
	*y = (struct sweep_yardstick){0};
}

/* The first burst: the variant, its message and its plan; -1 when it cannot run here. */
static int setup(struct sweep *s, struct sweep_yardstick *y, const struct sweep_comm *c)
{
	const struct sweep_opts *o = s->o;
	const struct ar_variant *v = ar_variant_find("mpi");
	size_t w = ar_dtype_bytes(o->dtype);
	uint64_t largest = o->sizes[o->nsizes - 1];
	uint64_t bytes = largest < SWEEP_YARDSTICK_BYTES ? largest : SWEEP_YARDSTICK_BYTES;

	y->count = bytes / w ? bytes / w : 1;
	y->bytes = y->count * w;
	y->iters = s->bufs.max_samples < SWEEP_YARDSTICK_ITERS ? s->bufs.max_samples
	                                                       : SWEEP_YARDSTICK_ITERS;
	if (!v || y->bytes > s->bufs.bytes || bench_variant_skipped(&s->bufs, v, c->nranks, o->op))
		return -1;
	if (c->rank == 0 &&
	    !(y->samples_us = calloc(SWEEP_YARDSTICK_MAX_SAMPLES, sizeof *y->samples_us)))
		return -1;
	if (exec_plan_init(&y->plan, v, c->rank, c->nranks, y->count, o->dtype, 0) != 0)
		return -1;
	y->planned = true;
	y->variant = v;
	return 0;
}

/* Rank 0: the burst's median into the samples (a burst of late starts only counts as failed). */
static void keep(struct sweep_yardstick *y, const struct bench_bufs *b,
                 const struct bench_result *br)
{
	double m = br->iterations > 0 ? stats_median(b->max_us, (size_t)br->iterations) : NAN;

	if (!isfinite(m))
		y->failed++;
	else if (y->nsamples < SWEEP_YARDSTICK_MAX_SAMPLES)
		y->samples_us[y->nsamples++] = m;
}

int sweep_yardstick_measure(struct sweep *s, struct sweep_yardstick *y, const struct sweep_comm *c)
{
	char msg[MPI_MAX_ERROR_STRING];
	struct bench_result br;
	struct bench_cfg cfg = s->cfg;
	struct fault saved = ar_fault;
	int rc;

	if (c->comm == MPI_COMM_NULL)
		return EXIT_OK;
	if (!y->tried) {
		bool failed = setup(s, y, c) != 0;
		y->tried = true;
		/* every member must agree: the burst below is collective */
		if (run_any(s->ctx, failed)) {
			sweep_yardstick_release(y);
			y->tried = true;
			return EXIT_OK; /* the run goes on without a yardstick */
		}
	}
	if (!y->variant)
		return EXIT_OK;
	struct ar_call call = {.comm = c->comm,
	                       .rank = c->rank,
	                       .nranks = c->nranks,
	                       .count = y->count,
	                       .dtype = s->o->dtype,
	                       .op = s->o->op};
	cfg.iters = y->iters;
	cfg.warmup = SWEEP_YARDSTICK_WARMUP;
	cfg.check = false;
	/* the control sees no injected fault: a fault stands for a change of the code under test */
	ar_fault = (struct fault){.kind = FAULT_NONE, .rank = -1};
	/* the watchdog names this burst as what it is: before the first point a rank's
	 * heartbeat would otherwise say "timed iteration" of no variant */
	progress_point(ar_variant_index(y->variant), y->bytes);
	rc = bench_point(&y->plan, &call, s->in_place, &cfg, &s->bufs, &br);
	ar_fault = saved;
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "%s: the yardstick (mpi, %llu bytes): %s", s->command,
		               (unsigned long long)y->bytes,
		               run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	if (c->rank == 0)
		keep(y, &s->bufs, &br);
	return EXIT_OK;
}

int sweep_yardstick_to_json(const struct sweep_yardstick *y, cJSON *summary)
{
	if (!y->variant || !y->samples_us)
		return 0;
	const double *x = y->samples_us;
	size_t n = y->nsamples;
	cJSON *o = cJSON_AddObjectToObject(summary, SK_ARSUM_YARDSTICK);
	cJSON *a = o ? cJSON_AddArrayToObject(o, SK_YARD_SAMPLES_US) : NULL;
	for (size_t i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber(x[i])))
			return -1;
	return a && cJSON_AddStringToObject(o, SK_YARD_ALGORITHM, y->variant->name) &&
	               cJSON_AddNumberToObject(o, SK_YARD_BYTES, (double)y->bytes) &&
	               cJSON_AddNumberToObject(o, SK_YARD_ITERATIONS, y->iters) &&
	               cJSON_AddNumberToObject(o, SK_YARD_SAMPLES, (double)n) &&
	               cJSON_AddNumberToObject(o, SK_YARD_FAILED, (double)y->failed) &&
	               report_add_number(o, SK_YARD_MIN_US, n ? stats_min(x, n) : NAN) &&
	               report_add_number(o, SK_YARD_P50_US, n ? stats_median(x, n) : NAN) &&
	               report_add_number(o, SK_YARD_MAX_US, n ? stats_max(x, n) : NAN) &&
	               report_add_number(o, SK_YARD_SPREAD_PERCENT, stats_iqr_spread_pct(x, n))
	           ? 0
	           : -1;
}

void sweep_yardstick_text(const struct sweep_yardstick *y, char *buf, size_t len)
{
	const double *x = y->samples_us;
	size_t n = y->nsamples;

	if (!y->variant || !x || n == 0) {
		snprintf(buf, len,
		         "# yardstick: none (the library's all-reduce could not run here)");
		return;
	}
	double spread = stats_iqr_spread_pct(x, n);
	char spread_text[48] = "spread undefined below 4 bursts";
	if (!isnan(spread))
		snprintf(spread_text, sizeof spread_text, "spread %.1f%% (p75/p25)", spread);
	snprintf(buf, len,
	         "# yardstick: mpi %llu bytes, %zu bursts of %d calls through the run: median %.2f "
	         "us (%.2f-%.2f), %s",
	         (unsigned long long)y->bytes, n, y->iters, stats_median(x, n), stats_min(x, n),
	         stats_max(x, n), spread_text);
}

void sweep_yardstick_release(struct sweep_yardstick *y)
{
	if (y->planned)
		exec_plan_release(&y->plan);
	free(y->samples_us);
	*y = (struct sweep_yardstick){0};
}

int sweep_yardstick_summary(const struct sweep_yardstick *y, cJSON *summary, bool print)
{
	char line[256];
	if (print) {
		sweep_yardstick_text(y, line, sizeof line);
		printf("%s\n", line);
	}
	return sweep_yardstick_to_json(y, summary);
}
