/*
 * collscope overlap, measured (issue 32): sizes outer, then variants,
 * compute kinds and progress methods, each point measured on the whole job
 * by algorithms/overlap_bench.h. Every rank's means go to rank 0, which
 * derives both overlaps (reports/model/overlap_model.h) and writes the record.
 * The sweep (cmd/run/sweep.h) provides the buffers, the plans, the report
 * as it grows and the watchdog.
 */
#include <mpi.h>

#include "cmd/run/overlap_run.h"

#include <stdlib.h>

#include "algorithms/exec_nb.h"
#include "algorithms/overlap_bench.h"
#include "algorithms/progress.h"
#include "reports/io/overlap_report.h"

/* See overlap_run.h. */
int overlap_kernels(struct overlap_run *run)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	bool failed = false;
	for (int k = 0; k < COMPUTE_KINDS; k++)
		failed |= run->o->compute[k] && compute_init(&run->kernels[k], k) != 0;
	if (ctx->rank == 0) {
		run->all = calloc((size_t)ctx->nranks, sizeof *run->all);
		run->rank_overall = calloc((size_t)ctx->nranks, sizeof *run->rank_overall);
		failed |= !run->all || !run->rank_overall;
	}
	if (run_any(ctx, failed)) {
		cmd_error(ctx, "overlap: out of memory for the compute's operands");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Rank 0: the row into the report and the table; the progress line. */
static int keep(struct overlap_run *run, struct overlap_row *row)
{
	struct sweep *s = &run->sweep;
	struct overlap_row *more = realloc(run->rows, (size_t)(run->nrows + 1) * sizeof *more);
	if (!more)
		return EXIT_RUNTIME;
	run->rows = more;
	run_partial_lock(&s->report);
	bool ok = overlap_row_to_json(s->results, row) != NULL;
	run_partial_unlock(&s->report);
	row->rank_overall_us = NULL; /* borrowed for the record only */
	run->rows[run->nrows++] = *row;
	if (row->skipped)
		cmd_progress(s->ctx, run->o->out.quiet,
		             "overlap: [%d/%d] %s %llu bytes: skipped (%s)", ++s->done, s->total,
		             row->algorithm, (unsigned long long)row->bytes, row->skipped);
	else
		cmd_progress(s->ctx, run->o->out.quiet,
		             "overlap: [%d/%d] %s %llu bytes, %s, progress %s: pure %.1f us, "
		             "overlap %.0f%% (OSU), %.0f%% (IMB)",
		             ++s->done, s->total, row->algorithm, (unsigned long long)row->bytes,
		             row->compute, row->progress, row->mean.pure_us, row->osu_pct,
		             row->imb_pct);
	return ok ? run_partial_flush(&s->report) : EXIT_RUNTIME;
}

static int point(struct overlap_run *run, int v, uint64_t size, int kind, int prog)
{
	struct sweep *s = &run->sweep;
	const struct cmd_ctx *ctx = s->ctx;
	const struct sweep_opts *so = s->o;
	struct sweep_comm c = {.comm = ctx->comm, .rank = ctx->rank, .nranks = ctx->nranks};
	struct ar_record r;
	char msg[MPI_MAX_ERROR_STRING];
	sweep_record_init(s, v, size, &c, &r);
	struct overlap_row row = {.algorithm = r.algorithm,
	                          .dtype = r.dtype,
	                          .op = r.op,
	                          .compute = compute_kind_names[kind],
	                          .progress = overlap_progress_names[prog],
	                          .bytes = r.bytes,
	                          .count = r.count,
	                          .ranks = ctx->nranks,
	                          .iterations = so->iters,
	                          .skipped = r.skipped,
	                          .interval_us = run->o->interval_us,
	                          .wrong = so->check ? 0 : -1};
	if (!row.skipped && !exec_nb_supported(ar_variants[v]))
		row.skipped = "no non-blocking form";
	if (!row.skipped && prog == PROGRESS_BY_THREAD && ctx->thread_level < MPI_THREAD_SERIALIZED)
		row.skipped = "the MPI library provides no MPI_THREAD_SERIALIZED: no progress thread";
	int status = EXIT_OK, rc = MPI_SUCCESS;
	struct overlap_times mine = {0};
	uint64_t wrong = 0;
	if (!row.skipped) {
		bool failed = sweep_plan(s, v, &c, r.count) != 0;
		if (run_any(ctx, failed)) {
			cmd_error(ctx, "overlap: cannot build the schedule of %s", r.algorithm);
			return EXIT_RUNTIME;
		}
		void *in, *out;
		bench_bufs_of(&s->bufs, ar_variants[v], &in, &out);
		struct ar_call call = {.comm = ctx->comm,
		                       .rank = ctx->rank,
		                       .nranks = ctx->nranks,
		                       .input = in,
		                       .result = out,
		                       .count = r.count,
		                       .dtype = so->dtype,
		                       .op = so->op,
		                       .scratch = s->bufs.scratch};
		struct overlap_cfg cfg = {.iters = so->iters,
		                          .warmup = so->warmup,
		                          .progress = prog,
		                          .interval_us = run->o->interval_us,
		                          .check = so->check};
		rc = overlap_point(&s->plans[v], &call, &cfg, &run->kernels[kind], &mine, &wrong);
		if (rc == MPI_SUCCESS)
			rc = MPI_Gather(&mine, sizeof mine, MPI_BYTE, run->all, sizeof mine,
			                MPI_BYTE, 0, ctx->comm);
		if (rc != MPI_SUCCESS) {
			cmd_rank_error(ctx, "overlap: %s at %llu bytes: %s", r.algorithm,
			               (unsigned long long)r.bytes,
			               run_mpi_error_text(rc, msg, sizeof msg));
			status = EXIT_RUNTIME;
		}
	}
	if (status == EXIT_OK && ctx->rank == 0) {
		if (!row.skipped) {
			for (int q = 0; q < ctx->nranks; q++)
				run->rank_overall[q] = run->all[q].overall_us;
			row.rank_overall_us = run->rank_overall;
			row.wrong = so->check ? (int64_t)wrong : -1;
			overlap_row_figures(&row, run->all);
		}
		status = keep(run, &row);
	}
	return sweep_agree(s, status);
}

static int summarize(void *arg, cJSON *root)
{
	struct overlap_run *run = arg;
	if (!overlap_report_add_summary(root, run->rows, run->nrows, run->steps, run->nsteps)) {
		cmd_error(run->sweep.ctx, "overlap: out of memory for the summary");
		return EXIT_RUNTIME;
	}
	run->print(run->o, run->rows, run->nrows, run->steps, run->nsteps);
	int64_t wrong = 0;
	for (int i = 0; i < run->nrows; i++)
		wrong += run->rows[i].wrong > 0 ? run->rows[i].wrong : 0;
	for (int i = 0; i < run->nsteps; i++)
		wrong += run->steps[i].wrong > 0 ? run->steps[i].wrong : 0;
	return wrong ? EXIT_WRONG : EXIT_OK;
}

int overlap_measure(struct cmd_ctx *ctx, const struct overlap_opts *o, overlap_print_fn print)
{
	struct overlap_run run = {.o = o, .print = print};
	struct sweep *s = &run.sweep;
	int per_size = 0, steps = 0;
	for (int v = 0; ar_variants[v]; v++)
		for (int k = 0; k < COMPUTE_KINDS; k++)
			for (int p = 0; p < OVERLAP_PROGRESS_KINDS; p++)
				per_size += o->sweep.variants[v] && o->compute[k] && o->progress[p];
	for (int v = 0; o->step && ar_variants[v]; v++)
		for (int k = 0; k < COMPUTE_KINDS; k++)
			steps += o->sweep.variants[v] && o->compute[k];
	sweep_init(s, ctx, "overlap", &o->sweep, false, o->out.quiet);
	int status = run_check_output(ctx, "overlap", &o->out);
	if (status == EXIT_OK)
		status = sweep_setup(s, o->sweep.nsizes * per_size + steps);
	if (status == EXIT_OK)
		status = sweep_begin(s, &overlap_spec, o, &o->out, o->timeout_s);
	if (status == EXIT_OK)
		status = overlap_kernels(&run);
	for (int i = 0; i < o->sweep.nsizes && status == EXIT_OK; i++)
		for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
			for (int k = 0; k < COMPUTE_KINDS && status == EXIT_OK; k++)
				for (int p = 0; p < OVERLAP_PROGRESS_KINDS && status == EXIT_OK;
				     p++)
					if (o->sweep.variants[v] && o->compute[k] && o->progress[p])
						status = point(&run, v, o->sweep.sizes[i], k, p);
	if (status == EXIT_OK && o->step)
		status = overlap_steps(&run);
	sweep_end(s);
	if (status == EXIT_OK && ctx->rank == 0)
		status = sweep_finish(s, summarize, &run);
	sweep_release(s);
	for (int k = 0; k < COMPUTE_KINDS; k++)
		compute_release(&run.kernels[k]);
	free(run.all);
	free(run.rank_overall);
	free(run.rows);
	free(run.steps);
	return status;
}
