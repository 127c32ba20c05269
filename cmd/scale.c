/*
 * collscope scale: the same all-reduce over sub-communicators of growing
 * size. Rank counts outer (a sub-communicator each: cmd/run/sweep_sub.c),
 * then sizes, then variants, each point measured by the shared sweep
 * (cmd/run/sweep.h). Ranks
 * outside the current communicator wait in a barrier that naps between
 * polls, so that on a small machine they leave the cores to the ranks being
 * measured; every rank meets every other there after each point, and all
 * agree on the status. The models run on rank 0 afterwards (scale_model.c).
 */
#include <mpi.h>

#include "cmd/scale_opts.h"
#include "reports/model/overlap_model.h"
#include "reports/io/report_schema.h"
#include "cmd/run/run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct scale_run {
	const struct scale_opts *o;
	struct sweep sweep;
	int *order;               /* world ranks in the order they join a communicator */
	struct scale_results res; /* rank 0 */
	int hosts;                /* of the communicator being measured */
};

/* sweep_point_fn: the row for the models, the placement in the record. */
static int on_point(void *arg, int v, const struct ar_record *r, const struct bench_result *br,
                    cJSON *rec)
{
	struct scale_run *run = arg;
	struct scale_entry e = {.variant = v, .count = r->count, .rec = rec};
	if (br) {
		run->res.measured[v]++;
		run->res.wrong[v] += br->wrong;
	} else {
		run->res.skipped[v]++;
	}
	e.row = (struct scale_row){.algorithm = r->algorithm,
	                           .bytes = r->bytes,
	                           .ranks = r->ranks,
	                           .hosts = run->hosts,
	                           .skipped = r->skipped,
	                           .p50_us = r->time.p50_us,
	                           .p99_us = r->time.p99_us,
	                           .busbw_gbps = r->busbw_gbps};
	const char *placement = run->o->placement == SCALE_SPREAD ? "spread" : "packed";
	return cJSON_AddStringToObject(rec, SK_SCALE_PLACEMENT, placement) &&
	               scale_results_add(&run->res, &e)
	           ? 0
	           : -1;
}

static void print_header(const struct scale_run *run)
{
	const struct scale_opts *o = run->o;
	const struct report_context *c = &run->sweep.context;
	printf("# collscope scale: %d ranks on %d host%s%s; %s %s; placement %s; rank counts",
	       run->sweep.ctx->nranks, c->nhosts, c->nhosts == 1 ? "" : "s",
	       c->oversubscribed ? " (oversubscribed)" : "", ar_dtype_name(o->sweep.dtype),
	       ar_op_name(o->sweep.op), o->placement == SCALE_SPREAD ? "spread" : "packed");
	for (int i = 0; i < o->nranks; i++)
		printf("%s%d", i ? "," : " ", o->ranks[i]);
	printf("; sizes");
	for (int i = 0; i < o->sweep.nsizes; i++)
		printf("%s%llu", i ? "," : " ", (unsigned long long)o->sweep.sizes[i]);
	printf(" bytes\n");
	cmd_print_collective_header(o->sweep.collective, c->mpi_library);
	fflush(stdout);
}

/* summary.communicators: the world ranks and hosts of every communicator measured. */
static int add_communicators(const struct scale_run *run, cJSON *root)
{
	cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "summary");
	cJSON *arr = sum ? cJSON_AddArrayToObject(sum, SK_SSUM_COMMUNICATORS) : NULL;
	for (int i = 0; arr && i < run->o->nranks; i++) {
		int n = run->o->ranks[i];
		cJSON *e = cJSON_CreateObject(), *ranks = NULL;
		if (!e || !cJSON_AddItemToArray(arr, e) ||
		    !cJSON_AddNumberToObject(e, SK_COMM_RANKS, n) ||
		    !cJSON_AddNumberToObject(
		        e, "hosts",
		        scale_hosts_spanned(run->sweep.map.host_of_rank, run->order, n)) ||
		    !(ranks = cJSON_AddArrayToObject(e, SK_COMM_WORLD_RANKS)))
			return -1;
		for (int k = 0; k < n; k++)
			if (!cJSON_AddItemToArray(ranks, cJSON_CreateNumber(run->order[k])))
				return -1;
	}
	return arr ? 0 : -1;
}

/* sweep_finish's callback: the models, their tables, the summary. */
static int summarize(void *arg, cJSON *root)
{
	struct scale_run *run = arg;
	const struct scale_opts *o = run->o;
	const struct cmd_ctx *ctx = run->sweep.ctx;
	cmd_progress(ctx, o->out.quiet,
	             "scale: fitting the cost model and predicting %d rank count%s",
	             o->nextrapolate, o->nextrapolate == 1 ? "" : "s");
	struct scale_model_in in = scale_model_input(o);
	int status = scale_model_run(&in, ctx->nranks, &run->res, root);
	if (run->res.warning[0])
		cmd_error(ctx, "scale: %s", run->res.warning);
	if (status == EXIT_RUNTIME || add_communicators(run, root) != 0 ||
	    sweep_trace_summary(&run->sweep, cJSON_GetObjectItemCaseSensitive(root, "summary"),
	                        false) != 0) {
		cmd_error(ctx, "scale: out of memory while modelling the results");
		return EXIT_RUNTIME;
	}
	scale_print_table(o, &run->res);
	scale_print_fits(o, &run->res);
	scale_print_step(o, &run->res);
	return status;
}

/*
 * --overlap measured: the training step at rank count n; rank 0 gives each
 * measured row of the gradient's size its hidden fraction (clamped to 0..1:
 * noise can put a step past serial, or below the compute) and step time.
 */
static int measured_steps(struct scale_run *run, int n)
{
	const struct scale_opts *o = run->o;
	struct overlap_step got[AR_MAX_VARIANTS];
	struct scale_step_req q = {.grad_bytes = o->grad_bytes,
	                           .bucket_bytes = o->bucket_bytes,
	                           .compute_ms = o->compute_ms,
	                           .interval_us = SCALE_STEP_TEST_INTERVAL_US,
	                           .iters = SCALE_STEP_ITERS,
	                           .quiet = o->out.quiet};
	int status = scale_measure_steps(&run->sweep, &q, run->order, n, got);
	for (size_t i = 0; status == EXIT_OK && run->sweep.ctx->rank == 0 && i < run->res.n; i++) {
		struct scale_entry *e = &run->res.e[i];
		if (e->row.predicted || e->row.ranks != n || e->row.bytes != o->grad_bytes ||
		    isnan(got[e->variant].step_us))
			continue;
		double f = fmin(1, fmax(0, got[e->variant].hidden_fraction));
		e->row.overlap_measured = true;
		e->row.measured_overlap = isnan(f) ? 0 : f;
		e->row.measured_step_us = got[e->variant].step_us;
		run->res.step_overlap[e->variant] = e->row.measured_overlap;
	}
	return status;
}

/* The order in which the ranks join the communicators, on every rank. */
static int placement_order(struct scale_run *run)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	bool failed =
	    !(run->order = calloc((size_t)ctx->nranks, sizeof *run->order)) ||
	    scale_placement_order(run->sweep.map.host_of_rank, ctx->nranks, run->sweep.map.nhosts,
	                          run->o->placement == SCALE_SPREAD, run->order) != 0;
	if (run_any(ctx, failed)) {
		cmd_error(ctx, "scale: out of memory for the placement order");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_scale(void *opts, struct cmd_ctx *ctx)
{
	const struct scale_opts *o = opts;
	struct scale_run run = {.o = o};
	for (int v = 0; v < AR_MAX_VARIANTS; v++)
		run.res.step_overlap[v] = NAN;
	struct sweep *s = &run.sweep;
	int points = 0;
	for (int i = 0; ar_variants[i]; i++)
		points += o->sweep.variants[i] ? o->sweep.nsizes * o->nranks : 0;
	sweep_init(s, ctx, "scale", &o->sweep, false, o->out.quiet);
	s->on_point = on_point;
	s->on_point_arg = &run;
	int status = run_check_output(ctx, "scale", &o->out);
	if (status == EXIT_OK)
		status = sweep_setup(s, points);
	if (status == EXIT_OK)
		status = sweep_begin(s, &scale_spec, o, &o->out, o->timeout_s);
	if (status == EXIT_OK)
		status = placement_order(&run);
	if (status == EXIT_OK && ctx->rank == 0)
		print_header(&run);
	for (int i = 0; i < o->nranks && status == EXIT_OK; i++) {
		int n = o->ranks[i];
		run.hosts = scale_hosts_spanned(s->map.host_of_rank, run.order, n);
		status = sweep_on_first_ranks(s, run.order, n, run.hosts);
		if (status == EXIT_OK && o->overlap_measured)
			status = measured_steps(&run, n);
	}
	sweep_end(s);
	if (status == EXIT_OK && ctx->rank == 0)
		status = sweep_finish(s, summarize, &run);
	sweep_release(s);
	free(run.order);
	scale_results_release(&run.res);
	return status;
}
