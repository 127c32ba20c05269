/*
 * collscope allreduce: the main job. Sizes outer, variants inner, so that
 * the variants of one size are measured side by side, minutes apart at most,
 * and a drifting machine biases none of them.
 */
#include <mpi.h>

#include "allreduce.h"
#include "allreduce_trace.h"
#include "ar_report.h"
#include "bench.h"
#include "fault.h"
#include "memory.h"
#include "partial.h"
#include "progress.h"
#include "topo.h"
#include "watchdog.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* What the summary keeps per variant while the sweep goes on. */
struct variant_tally {
	double peak_busbw_gbps;
	uint64_t peak_bytes;
	double busbw_at_max_gbps; /* at the largest size measured */
	uint64_t max_bytes_measured;
	uint64_t wrong;
	int measured, skipped;
	uint64_t last_bytes; /* the previous measured point, for cliffs */
	double last_p50_us;
};

struct cliff {
	int variant;
	uint64_t from_bytes, to_bytes;
	double time_ratio;
};

struct sweep {
	struct cmd_ctx *ctx;
	const struct ar_opts *o;
	struct bench_bufs bufs;
	struct bench_cfg cfg;
	struct exec_plan plans[32];
	bool planned[32];
	struct variant_tally tally[32];
	cJSON *root, *results; /* rank 0 */
	struct cmd_partial report; /* rank 0's root, written as it grows and on a hang */
	int done, total;
	struct cliff cliffs[64];
	int ncliffs;
	double peak_rss_bytes; /* rank 0: the largest of any rank */
	int peak_rss_rank;
	uint64_t my_peak_pss_bytes; /* this rank's, sampled after every point; 0 when unknown */
	double peak_pss_bytes;      /* rank 0: the largest of any rank, NAN when unknown */
	int peak_pss_rank;
	struct cmd_trace trace; /* --trace */
};

static int setup(struct sweep *s)
{
	const struct ar_opts *o = s->o;
	uint64_t need;
	int status = cmd_check_memory(s->ctx, "allreduce", o->max_bytes, o->segment_bytes,
	                              cmd_needs_shared(o->variants), &need);
	if (status != EXIT_OK)
		return status;
	int max_samples = o->iters ? o->iters : AR_ADAPTIVE_MAX_ITERS;
	bool failed = fault_is(FAULT_NOMEM, s->ctx->rank) ||
	              bench_bufs_alloc(&s->bufs, o->max_bytes, exec_scratch_bound_bytes(o->segment_bytes),
	                               max_samples, s->ctx->nranks) != 0;
	if (failed)
		cmd_rank_error(s->ctx, "allreduce: cannot allocate %llu bytes of buffers",
		               (unsigned long long)need);
	if (cmd_any(s->ctx, failed))
		return EXIT_RUNTIME;
	status = cmd_alloc_shared(s->ctx, "allreduce", o->variants, &s->bufs);
	if (status != EXIT_OK)
		return status;
	s->cfg = (struct bench_cfg){.warmup = o->warmup, .iters = o->iters,
	                            .budget_s = o->time_per_size_s,
	                            .min_iters = AR_ADAPTIVE_MIN_ITERS,
	                            .max_iters = AR_ADAPTIVE_MAX_ITERS, .check = o->check};
	for (int i = 0; ar_variants[i]; i++)
		s->total += o->variants[i] ? o->nsizes : 0;
	return EXIT_OK;
}

static void print_row(const struct sweep *s, const struct ar_record *r)
{
	char line[512];
	if (s->ctx->rank != 0 || ar_format_row(line, sizeof line, r, s->o->csv) != 0)
		return;
	printf("%s\n", line);
	fflush(stdout);
}

/* Rank 0: turn one measured (or skipped) point into a row, a record and a tally. */
static int record_point(struct sweep *s, int v, struct ar_record *r, const struct bench_result *br)
{
	struct variant_tally *t = &s->tally[v];
	if (br) {
		if (cmd_record_measured(r, br, &s->bufs, s->o->check) != 0)
			return -1;
		if (t->measured && s->ncliffs < 64 &&
		    ar_is_cliff(t->last_bytes, t->last_p50_us, r->bytes, r->time.p50_us))
			s->cliffs[s->ncliffs++] = (struct cliff){v, t->last_bytes, r->bytes,
			                                         r->time.p50_us / t->last_p50_us};
		t->last_bytes = r->bytes;
		t->last_p50_us = r->time.p50_us;
		t->measured++;
		t->wrong += br->wrong;
		if (isfinite(r->busbw_gbps) && r->busbw_gbps > t->peak_busbw_gbps) {
			t->peak_busbw_gbps = r->busbw_gbps;
			t->peak_bytes = r->bytes;
		}
		if (r->bytes >= t->max_bytes_measured) {
			t->max_bytes_measured = r->bytes;
			t->busbw_at_max_gbps = r->busbw_gbps;
		}
		if (br->wrong)
			cmd_describe_wrong(s->ctx, r, br);
	} else {
		t->skipped++;
	}
	print_row(s, r);
	if (r->skipped)
		cmd_progress(s->ctx, s->o->quiet, "allreduce: [%d/%d] %s %llu bytes: skipped (%s)",
		             ++s->done, s->total, r->algorithm, (unsigned long long)r->bytes, r->skipped);
	else
		cmd_progress(s->ctx, s->o->quiet,
		             "allreduce: [%d/%d] %s %llu bytes: p50 %.2f us, busbw %.3f GB/s, %d iterations%s",
		             ++s->done, s->total, r->algorithm, (unsigned long long)r->bytes,
		             r->time.p50_us, r->busbw_gbps, r->iterations, br->wrong ? ", WRONG" : "");
	return ar_record_to_json(s->results, r) ? 0 : -1;
}

/* After a point, untimed: every buffer it used is resident now. */
static void sample_pss(struct sweep *s)
{
	uint64_t pss;
	if (probe_memory_pss_bytes(&pss) && pss > s->my_peak_pss_bytes)
		s->my_peak_pss_bytes = pss;
}

/* One (size, variant) point on every rank. Returns an exit code. */
static int run_point(struct sweep *s, int v, uint64_t size_bytes)
{
	const struct ar_variant *var = ar_variants[v];
	const struct ar_opts *o = s->o;
	struct cmd_ctx *ctx = s->ctx;
	char msg[MPI_MAX_ERROR_STRING];
	size_t w = ar_dtype_bytes(o->dtype);
	struct ar_record r = {.algorithm = var->name, .dtype = ar_dtype_name(o->dtype),
	                      .op = ar_op_name(o->op), .count = size_bytes / w, .ranks = ctx->nranks,
	                      .in_place = o->in_place, .straggler_rank = -1};
	struct bench_result br;
	r.bytes = r.count * w;
	progress_point(v, r.bytes);
	r.skipped = bench_variant_skipped(&s->bufs, var, ctx->nranks, o->op);
	if (!r.skipped && r.count == 0)
		r.skipped = "message smaller than one element";
	if (r.skipped) {
		if (ctx->rank != 0)
			return EXIT_OK;
		cmd_partial_lock(&s->report);
		int failed_rec = record_point(s, v, &r, NULL);
		cmd_partial_unlock(&s->report);
		return failed_rec ? EXIT_RUNTIME : cmd_partial_flush(&s->report);
	}

	bool failed = s->planned[v] ? exec_plan_rebuild(&s->plans[v], ctx->rank, ctx->nranks, r.count,
	                                                o->dtype, o->segment_bytes) != 0
	                            : exec_plan_init(&s->plans[v], var, ctx->rank, ctx->nranks, r.count,
	                                             o->dtype, o->segment_bytes) != 0;
	s->planned[v] = true;
	if (cmd_any(ctx, failed)) {
		cmd_error(ctx, "allreduce: %s: cannot build the schedule of %llu bytes", var->name,
		          (unsigned long long)r.bytes);
		return EXIT_RUNTIME;
	}
	struct ar_call call = {.comm = ctx->comm, .rank = ctx->rank, .nranks = ctx->nranks,
	                       .count = r.count, .dtype = o->dtype, .op = o->op,
	                       .trace = cmd_trace_ring(&s->trace)};
	int rc = bench_point(&s->plans[v], &call, o->in_place, &s->cfg, &s->bufs, &br);
	if (rc == MPI_SUCCESS)
		rc = cmd_trace_collect(&s->trace, ctx->comm, v, r.bytes);
	sample_pss(s);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(ctx, "allreduce: %s at %llu bytes: %s", var->name,
		               (unsigned long long)r.bytes, cmd_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	if (ctx->rank == 0) {
		cmd_partial_lock(&s->report);
		int failed_rec = record_point(s, v, &r, &br);
		if (failed_rec == 0)
			failed_rec = cmd_trace_record(&s->trace, cJSON_GetArrayItem(s->results,
			                              cJSON_GetArraySize(s->results) - 1),
			                              v, r.bytes, ctx->nranks, NULL);
		cmd_partial_unlock(&s->report);
		if (failed_rec != 0) {
			cmd_error(ctx, "allreduce: out of memory while recording results");
			return EXIT_RUNTIME;
		}
		return cmd_partial_flush(&s->report);
	}
	return EXIT_OK;
}

static void print_header(const struct sweep *s, const struct report_context *c)
{
	char line[512];
	const struct ar_opts *o = s->o;
	if (s->ctx->rank != 0)
		return;
	if (!o->csv) {
		printf("# collscope allreduce: %d ranks on %d host%s%s; %s %s, %s; %d sizes from %llu to "
		       "%llu bytes\n",
		       s->ctx->nranks, c->nhosts, c->nhosts == 1 ? "" : "s",
		       c->oversubscribed ? " (oversubscribed)" : "", ar_dtype_name(o->dtype),
		       ar_op_name(o->op), o->in_place ? "in place" : "out of place", o->nsizes,
		       (unsigned long long)o->min_bytes, (unsigned long long)o->max_bytes);
		printf("# %s; times are the slowest rank's; busbw = algbw x 2(n-1)/n\n", c->mpi_library);
	}
	if (ar_format_header(line, sizeof line, o->csv) == 0)
		printf("%s\n", line);
	fflush(stdout);
}

/* Time that grows much faster than size: printed, and listed in the summary. */
static int add_cliffs(const struct sweep *s, cJSON *sum)
{
	cJSON *a = cJSON_AddArrayToObject(sum, "cliffs");
	for (int i = 0; a && i < s->ncliffs; i++) {
		const struct cliff *c = &s->cliffs[i];
		double size_ratio = (double)c->to_bytes / (double)c->from_bytes;
		if (!s->o->csv)
			printf("# cliff: %s takes %.1fx the time from %llu to %llu bytes (%.0fx the size)%s\n",
			       ar_variants[c->variant]->name, c->time_ratio, (unsigned long long)c->from_bytes,
			       (unsigned long long)c->to_bytes, size_ratio,
			       strcmp(ar_variants[c->variant]->name, "mpi") == 0
			               ? ": the library allocates per call? (try MALLOC_MMAP_THRESHOLD_)"
			               : "");
		cJSON *e = cJSON_CreateObject();
		if (!e || !cJSON_AddItemToArray(a, e) ||
		    !cJSON_AddStringToObject(e, "algorithm", ar_variants[c->variant]->name) ||
		    !cJSON_AddNumberToObject(e, "from_bytes", (double)c->from_bytes) ||
		    !cJSON_AddNumberToObject(e, "to_bytes", (double)c->to_bytes) ||
		    !cJSON_AddNumberToObject(e, "time_ratio", c->time_ratio) ||
		    !cJSON_AddNumberToObject(e, "size_ratio", size_ratio))
			return -1;
	}
	return a ? 0 : -1;
}

/*
 * The hungriest rank's memory against the budget of issue 9: 4 x the largest
 * message + 64 MiB (input, result, scratch, slack). With shared buffers (shm)
 * it is judged on the proportional set size: each rank maps slices of its
 * host peers' shared buffers, which its resident size counts in full although
 * the host holds them once (probes/memory.h); without them, on the kernel's
 * resident high-water mark, which also sees what a call allocates and frees.
 */
static int add_memory(const struct sweep *s, cJSON *sum)
{
	bool on_pss = cmd_needs_shared(s->o->variants) && isfinite(s->peak_pss_bytes);
	double budget = 4.0 * (double)s->o->max_bytes + 64.0 * 1024 * 1024;
	double judged = on_pss ? s->peak_pss_bytes : s->peak_rss_bytes;
	cJSON *m = cJSON_AddObjectToObject(sum, "memory");
	if (!s->o->csv)
		printf("# peak memory: %.1f MiB resident on rank %d, %.1f MiB proportional on rank %d; "
		       "budget %.1f MiB (4 x the largest message + 64 MiB, against the %s)\n",
		       s->peak_rss_bytes / 1048576.0, s->peak_rss_rank, s->peak_pss_bytes / 1048576.0,
		       s->peak_pss_rank, budget / 1048576.0,
		       on_pss ? "proportional size: shared pages counted once per host" : "resident size");
	return m && cJSON_AddNumberToObject(m, "peak_rss_bytes", s->peak_rss_bytes) &&
	               cJSON_AddNumberToObject(m, "peak_rss_rank", s->peak_rss_rank) &&
	               cJSON_AddNumberToObject(m, "peak_pss_bytes", s->peak_pss_bytes) &&
	               cJSON_AddNumberToObject(m, "peak_pss_rank", s->peak_pss_rank) &&
	               cJSON_AddNumberToObject(m, "budget_bytes", budget) &&
	               cJSON_AddStringToObject(m, "judged_on", on_pss ? "peak_pss_bytes" : "peak_rss_bytes") &&
	               cJSON_AddBoolToObject(m, "within_budget", judged <= budget)
	           ? 0
	           : -1;
}

/*
 * Every rank's peak resident set size (getrusage) and peak proportional set
 * size (probes/memory.h), the largest of each on rank 0.
 */
static void gather_peak_memory(struct sweep *s)
{
	struct rusage ru;
	struct {
		double bytes;
		int rank;
	} mine[2] = {{0, s->ctx->rank}, {(double)s->my_peak_pss_bytes, s->ctx->rank}}, top[2] = {0};
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		mine[0].bytes = (double)ru.ru_maxrss * 1024.0;
	/* one rank that could not read its PSS makes the figure unknown */
	int known = s->my_peak_pss_bytes > 0, all_known = 0;
	if (MPI_Reduce(mine, top, 2, MPI_DOUBLE_INT, MPI_MAXLOC, 0, s->ctx->comm) == MPI_SUCCESS &&
	    MPI_Reduce(&known, &all_known, 1, MPI_INT, MPI_MIN, 0, s->ctx->comm) == MPI_SUCCESS) {
		s->peak_rss_bytes = top[0].bytes;
		s->peak_rss_rank = top[0].rank;
		s->peak_pss_bytes = all_known ? top[1].bytes : NAN;
		s->peak_pss_rank = top[1].rank;
	}
}

/* Peak busbw per variant on stdout, the acceptance gate, and the JSON summary. */
static int summarize(struct sweep *s, cJSON *root)
{
	const struct ar_opts *o = s->o;
	bool gate = isfinite(o->min_busbw_gbps), below_any = false;
	uint64_t wrong = 0;
	cJSON *sum = cJSON_AddObjectToObject(root, "summary");
	cJSON *vars = sum ? cJSON_AddArrayToObject(sum, "variants") : NULL;
	cJSON *below = sum ? cJSON_AddArrayToObject(sum, "below_min_busbw") : NULL;
	if (!vars || !below)
		return -1;
	if (!o->csv)
		printf("# peak busbw per variant:\n");
	for (int v = 0; ar_variants[v]; v++) {
		const struct variant_tally *t = &s->tally[v];
		if (!o->variants[v])
			continue;
		wrong += t->wrong;
		bool low = gate && t->measured && !(t->busbw_at_max_gbps >= o->min_busbw_gbps);
		if (!o->csv && t->measured)
			printf("#   %-20s %10.3f GB/s at %llu bytes; %.3f GB/s at %llu bytes%s\n",
			       ar_variants[v]->name, t->peak_busbw_gbps, (unsigned long long)t->peak_bytes,
			       t->busbw_at_max_gbps, (unsigned long long)t->max_bytes_measured,
			       low ? "  BELOW --min-busbw" : "");
		if (low) {
			below_any = true;
			cJSON_AddItemToArray(below, cJSON_CreateString(ar_variants[v]->name));
			cmd_error(s->ctx, "allreduce: %s: busbw %.3f GB/s at %llu bytes is below --min-busbw %g",
			          ar_variants[v]->name, t->busbw_at_max_gbps,
			          (unsigned long long)t->max_bytes_measured, o->min_busbw_gbps);
		}
		cJSON *e = cJSON_CreateObject();
		if (!e || !cJSON_AddItemToArray(vars, e) ||
		    !cJSON_AddStringToObject(e, "algorithm", ar_variants[v]->name) ||
		    !report_add_number(e, "peak_busbw_gbps", t->measured ? t->peak_busbw_gbps : NAN) ||
		    !cJSON_AddNumberToObject(e, "peak_busbw_bytes", (double)t->peak_bytes) ||
		    !report_add_number(e, "busbw_at_max_bytes_gbps", t->measured ? t->busbw_at_max_gbps : NAN) ||
		    !cJSON_AddNumberToObject(e, "points", t->measured) ||
		    !cJSON_AddNumberToObject(e, "skipped", t->skipped) ||
		    !cJSON_AddNumberToObject(e, "wrong", (double)t->wrong))
			return -1;
	}
	if (add_cliffs(s, sum) != 0 || add_memory(s, sum) != 0 ||
	    cmd_trace_summarize(&s->trace, sum, o->csv) != 0)
		return -1;
	fflush(stdout);
	if (!cJSON_AddNumberToObject(sum, "wrong_total", (double)wrong) ||
	    !report_add_number(sum, "min_busbw_gbps", o->min_busbw_gbps) ||
	    !cJSON_AddStringToObject(sum, "verdict", wrong ? "wrong results" : below_any ? "below min busbw" : "ok"))
		return -1;
	return wrong ? EXIT_WRONG : below_any ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* Rank 0: the report's skeleton, "complete": false until finish_report. */
static int start_report(struct sweep *s, const struct report_context *rc)
{
	if (s->ctx->rank == 0) {
		s->root = cmd_report_new("allreduce", rc);
		if (s->root && ar_opts_to_json(s->root, s->o) &&
		    cmd_partial_start(&s->report, s->root, s->o->output, s->o->force) == 0)
			s->results = cJSON_AddArrayToObject(s->root, "results");
	}
	if (cmd_any(s->ctx, s->ctx->rank == 0 && !s->results)) {
		cmd_error(s->ctx, "allreduce: out of memory for the report");
		return EXIT_RUNTIME;
	}
	return s->ctx->rank == 0 ? cmd_partial_flush(&s->report) : EXIT_OK;
}

/* Rank 0: summary, finish time, "complete": true, the last write. Returns the verdict. */
static int finish_report(struct sweep *s, struct report_context *rc)
{
	cmd_partial_lock(&s->report);
	int verdict = summarize(s, s->root);
	cmd_context_end(rc);
	if (verdict < 0) {
		cmd_error(s->ctx, "allreduce: out of memory for the report");
		verdict = EXIT_RUNTIME;
	} else {
		int wrc = cmd_partial_complete_locked(&s->report, rc->finished_utc);
		verdict = wrc != EXIT_OK ? wrc : verdict;
	}
	cmd_partial_unlock(&s->report);
	return verdict;
}

/* Every rank leaves a point with the same status: the worst of them. */
static int agree(const struct cmd_ctx *ctx, int status)
{
	int worst = status;
	if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, ctx->comm) != MPI_SUCCESS)
		return EXIT_RUNTIME;
	return worst;
}

int cmd_allreduce(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct ar_opts o;
	struct report_context rc;
	struct topo_map map;
	struct sweep s = {.ctx = ctx, .o = &o};
	bool have_context = false;
	cmd_partial_init(&s.report, ctx);
	topo_map_init(&map);
	int status = ar_opts_parse(argc, argv, ctx, &o);
	if (status == EXIT_OK)
		status = setup(&s);
	if (status == EXIT_OK) {
		have_context = cmd_context_begin(ctx, &rc, &map) == 0;
		status = have_context ? agree(ctx, start_report(&s, &rc)) : EXIT_RUNTIME;
	}
	if (status == EXIT_OK)
		status = cmd_trace_start(&s.trace, ctx, "allreduce", o.trace, o.trace_entries, &rc, &map);
	if (status == EXIT_OK && watchdog_start(ctx, "allreduce", o.timeout_s, cmd_partial_on_hang, &s.report) != 0)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		print_header(&s, &rc);
	for (int i = 0; i < o.nsizes && status == EXIT_OK; i++)
		for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
			if (o.variants[v])
				status = agree(ctx, run_point(&s, v, o.sizes[i]));
	progress_step(PROGRESS_DONE, 0);
	watchdog_stop();
	if (status == EXIT_OK)
		gather_peak_memory(&s);
	if (status == EXIT_OK && ctx->rank == 0)
		status = finish_report(&s, &rc);
	for (int v = 0; v < 32; v++)
		if (s.planned[v])
			exec_plan_release(&s.plans[v]);
	cmd_trace_stop(&s.trace);
	bench_bufs_free(&s.bufs);
	cJSON_Delete(s.root);
	if (have_context)
		report_context_release(&rc);
	topo_map_release(&map);
	cmd_partial_release(&s.report);
	return status;
}
