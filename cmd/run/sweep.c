/* See sweep.h. */
#include <mpi.h>

#include "cmd/run/run.h"
#include "reports/io/report_schema.h"
#include "reports/render/fixed.h"

#include "algorithms/fault.h"
#include "probes/memory.h"
#include "algorithms/progress.h"
#include "cmd/run/watchdog.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

void sweep_init(struct sweep *s, struct cmd_ctx *ctx, const char *command,
                const struct sweep_opts *o, bool in_place, bool quiet)
{
	*s = (struct sweep){
	    .ctx = ctx, .command = command, .o = o, .in_place = in_place, .quiet = quiet};
	run_partial_init(&s->report, ctx);
	topo_map_init(&s->map);
}

/* Rank 0: one sync's figures into the sweep's, the worst so far. */
static void tally_sync(struct ctx_clock_sync *t, const struct clock_sync_stats *st)
{
	t->error_us = t->done ? fmax(t->error_us, st->error_us) : st->error_us;
	t->bound_us = t->done ? fmax(t->bound_us, st->bound_us) : st->bound_us;
	t->max_offset_us = fmax(t->max_offset_us, st->max_offset_us);
	t->max_drift_ppm = fmax(t->max_drift_ppm, st->max_drift_ppm);
	if (!isnan(st->jump_us))
		t->max_jump_us =
		    isnan(t->max_jump_us) ? st->jump_us : fmax(t->max_jump_us, st->jump_us);
	t->last_duration_us = st->duration_us;
	t->shared_clock_ranks = st->shared_ranks;
	t->measured_ranks = st->measured_ranks;
	t->syncs++;
	t->done = true;
}

/*
 * Every rank of the job: the clocks synced against world rank 0's (the
 * reference of every communicator of the sweep: a sub-communicator's start
 * is set on it too), then the context's figures updated on rank 0.
 */
static int sync_clocks(struct sweep *s)
{
	char msg[MPI_MAX_ERROR_STRING];
	struct clock_sync_stats st;
	int rc = clock_sync_run(s->ctx->comm, s->ctx->rank, s->ctx->nranks, &s->clock, &st);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "%s: cannot synchronise the clocks: %s", s->command,
		               run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	s->clock_synced = s->cfg.synced = true;
	if (s->ctx->rank != 0)
		return EXIT_OK;
	s->clock_at_s = MPI_Wtime();
	tally_sync(&s->clock_stats, &st);
	if (!s->have_context)
		return EXIT_OK; /* sweep_begin copies it */
	run_partial_lock(&s->report);
	s->context.clock = s->clock_stats;
	cJSON *ctx = s->root ? cJSON_GetObjectItemCaseSensitive(s->root, "context") : NULL;
	bool failed = ctx && !report_clock_sync_to_json(ctx, &s->context.clock);
	run_partial_unlock(&s->report);
	if (failed)
		cmd_rank_error(s->ctx, "%s: out of memory while recording the clock sync",
		               s->command);
	return failed ? EXIT_RUNTIME : EXIT_OK;
}

int sweep_resync_if_old(struct sweep *s)
{
	int due = s->ctx->rank == 0 && MPI_Wtime() - s->clock_at_s > s->o->clock_resync_s;
	if (MPI_Bcast(&due, 1, MPI_INT, 0, s->ctx->comm) != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "%s: cannot agree on a clock sync", s->command);
		return EXIT_RUNTIME;
	}
	return due ? sync_clocks(s) : EXIT_OK;
}

int sweep_setup(struct sweep *s, int total_points)
{
	const struct sweep_opts *o = s->o;
	uint64_t need, largest = o->sizes[o->nsizes - 1];
	int status = run_check_memory(s->ctx, s->command, largest, o->segment_bytes,
	                              run_needs_shared(o->variants), &need);
	if (status != EXIT_OK)
		return status;
	int max_samples = o->iters ? o->iters : SWEEP_ADAPTIVE_MAX_ITERS;
	bool failed =
	    fault_is(FAULT_NOMEM, s->ctx->rank) ||
	    bench_bufs_alloc(&s->bufs, largest, exec_scratch_bound_bytes(o->segment_bytes),
	                     max_samples, s->ctx->nranks) != 0;
	if (failed)
		cmd_rank_error(s->ctx, "%s: cannot allocate %llu bytes of buffers", s->command,
		               (unsigned long long)need);
	if (run_any(s->ctx, failed))
		return EXIT_RUNTIME;
	status = run_alloc_shared(s->ctx, s->command, o->variants, &s->bufs);
	if (status != EXIT_OK)
		return status;
	bool oversubscribed = run_host_oversubscribed(s->ctx);
	bool any_oversubscribed = run_any(s->ctx, oversubscribed);
	enum timing_method timing = o->timing != SWEEP_TIMING_AUTO ? (enum timing_method)o->timing
	                            : o->trace && !any_oversubscribed ? TIMING_WINDOW
	                                                              : TIMING_BARRIER;
	s->cfg = (struct bench_cfg){.warmup = o->warmup,
	                            .iters = o->iters,
	                            .budget_s = o->time_per_size_s,
	                            .min_iters = SWEEP_ADAPTIVE_MIN_ITERS,
	                            .max_iters = SWEEP_ADAPTIVE_MAX_ITERS,
	                            .ci_width = o->ci_width_pct / 100,
	                            .check = o->check,
	                            .timing = timing,
	                            .clock = &s->clock,
	                            .yield = oversubscribed};
	s->total = total_points;
	/* a start common to all needs every rank on a core at once; the report's late_starts shows
	 * it */
	if (any_oversubscribed && s->cfg.timing == TIMING_WINDOW && s->ctx->rank == 0)
		fprintf(stderr,
		        "%s: warning: --timing window with more ranks than cores on a host: ranks "
		        "cannot all be running at a common start, so most starts will be late and "
		        "points timed from their last arrival (--timing barrier measures such "
		        "hosts)\n",
		        s->command);
	clock_model_init(&s->clock);
	s->clock_stats =
	    (struct ctx_clock_sync){.max_jump_us = NAN, .interval_s = o->clock_resync_s};
	return sync_clocks(s);
}

/* The report's config.timing: the method that runs (--timing auto settled by sweep_setup). */
static bool settled_timing(struct sweep *s)
{
	cJSON *cfg = cJSON_GetObjectItemCaseSensitive(s->root, "config");
	if (!cfg || !cJSON_GetObjectItemCaseSensitive(cfg, "timing"))
		return cfg != NULL; /* a command without --timing */
	cJSON *name = cJSON_CreateString(timing_method_name(s->cfg.timing));
	if (name && cJSON_ReplaceItemInObjectCaseSensitive(cfg, "timing", name))
		return true;
	cJSON_Delete(name);
	return false;
}

int sweep_begin(struct sweep *s, const struct cmd_spec *spec, const void *opts,
                const struct cmd_out *out, double timeout_s)
{
	struct cmd_ctx *ctx = s->ctx;
	if (run_context_begin(ctx, &s->context, &s->map) != 0)
		return EXIT_RUNTIME;
	s->have_context = true;
	s->context.clock = s->clock_stats;
	if (ctx->rank == 0) {
		s->root = run_report_new(s->command, &s->context);
		if (s->root && opts_to_json(s->root, spec, opts) && settled_timing(s) &&
		    run_partial_start(&s->report, s->root, out->output, out->force) == 0)
			s->results = cJSON_AddArrayToObject(s->root, SK_REPORT_RESULTS);
	}
	if (run_any(ctx, ctx->rank == 0 && !s->results)) {
		cmd_error(ctx, "%s: out of memory for the report", s->command);
		return EXIT_RUNTIME;
	}
	int status = ctx->rank == 0 ? run_partial_flush(&s->report) : EXIT_OK;
	if (run_any(ctx, status != EXIT_OK))
		return status != EXIT_OK ? status : EXIT_RUNTIME;
	status = run_trace_start(&s->trace, ctx, s->command, s->o->trace, s->o->trace_entries,
	                         &s->context, &s->map);
	if (status != EXIT_OK)
		return status;
	if (watchdog_start(ctx, s->command, timeout_s, run_partial_on_hang, &s->report) != 0)
		return EXIT_RUNTIME;
	return EXIT_OK;
}

/* True on every member of comm when any member passes true. */
static bool any_in(MPI_Comm comm, bool mine)
{
	int in = mine, out = mine;
	if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
		return true;
	return out != 0;
}

/* A barrier that naps between polls: ranks that wait leave the cores to the measured ones. */
static int quiet_barrier(MPI_Comm comm)
{
	const struct timespec nap = {0, 200000L}; /* 0.2 ms */
	MPI_Request req;
	int done = 0, rc = MPI_Ibarrier(comm, &req);
	while (rc == MPI_SUCCESS && !done) {
		rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && !done)
			nanosleep(&nap, NULL);
	}
	return rc;
}

int sweep_agree(const struct sweep *s, int status)
{
	char msg[MPI_MAX_ERROR_STRING];
	int worst = status;
	int rc = quiet_barrier(s->ctx->comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, s->ctx->comm);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "%s: cannot agree on the status: %s", s->command,
		               run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	return worst;
}

/* After a point, untimed: every buffer it used is resident now. */
static void sample_pss(struct sweep *s)
{
	uint64_t pss;
	if (probe_memory_pss_bytes(&pss) && pss > s->my_peak_pss_bytes)
		s->my_peak_pss_bytes = pss;
}

int sweep_plan(struct sweep *s, int v, const struct sweep_comm *c, size_t count)
{
	const struct sweep_opts *o = s->o;
	bool failed = s->planned[v] ? exec_plan_rebuild(&s->plans[v], c->rank, c->nranks, count,
	                                                o->dtype, o->segment_bytes) != 0
	                            : exec_plan_init_collective(&s->plans[v], ar_variants[v],
	                                                        (enum ar_collective)o->collective,
	                                                        c->rank, c->nranks, count, o->dtype,
	                                                        o->segment_bytes) != 0;
	s->planned[v] = true;
	return failed ? -1 : 0;
}

int sweep_measure(struct sweep *s, int v, const struct sweep_comm *c, struct ar_record *r,
                  struct bench_result *br)
{
	const struct ar_variant *var = ar_variants[v];
	const struct sweep_opts *o = s->o;
	char msg[MPI_MAX_ERROR_STRING];
	bool failed = sweep_plan(s, v, c, r->count) != 0;
	if (failed)
		cmd_rank_error(s->ctx, "%s: %s: cannot build the schedule of %llu bytes",
		               s->command, var->name, (unsigned long long)r->bytes);
	/* bench_point is collective: no member may enter it alone */
	if (any_in(c->comm, failed))
		return EXIT_RUNTIME;
	struct ar_call call = {.comm = c->comm,
	                       .rank = c->rank,
	                       .nranks = c->nranks,
	                       .count = r->count,
	                       .dtype = o->dtype,
	                       .op = o->op,
	                       .trace = run_trace_ring(&s->trace),
	                       .collective = (enum ar_collective)o->collective,
	                       .codec_cfg = &o->codec};
	run_trace_nic_begin(&s->trace);
	int rc = bench_point(&s->plans[v], &call, s->in_place, &s->cfg, &s->bufs, br);
	if (rc == MPI_SUCCESS) /* outside the timed region: the point's steps to its rank 0 */
		rc = run_trace_collect(&s->trace, c->comm, v, r->bytes);
	sample_pss(s);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "%s: %s at %llu bytes on %d ranks: %s", s->command,
		               var->name, (unsigned long long)r->bytes, c->nranks,
		               run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static void progress_line(struct sweep *s, const struct ar_record *r, int hosts,
                          const struct bench_result *br, bool whole)
{
	char where[64] = "";
	if (!whole)
		snprintf(where, sizeof where, " on %d ranks", r->ranks);
	if (r->skipped) {
		cmd_progress(s->ctx, s->quiet, "%s: [%d/%d] %s %llu bytes%s: skipped (%s)",
		             s->command, ++s->done, s->total, r->algorithm,
		             (unsigned long long)r->bytes, where, r->skipped);
		return;
	}
	if (!whole)
		snprintf(where, sizeof where, " on %d ranks (%d host%s)", r->ranks, hosts,
		         hosts == 1 ? "" : "s");
	char late[96] = "";
	if (r->late_starts)
		snprintf(late, sizeof late, " (%d late starts dropped)", r->late_starts);
	if (r->late_starts_retimed)
		snprintf(late, sizeof late, " (%d late starts: timed from the last arrival)",
		         r->late_starts_retimed);
	char busbw[48], wire[160] = "";
	report_fixed(busbw, sizeof busbw, r->busbw_gbps, 3, 3);
	if (r->compressed)
		snprintf(wire, sizeof wire,
		         " (wire %.3g GB/s: %.0f bytes sent, %.3gx less; max error %.3g, relative L2 "
		         "%.3g)",
		         r->wire_busbw_gbps, r->sent_bytes, r->compression_ratio, r->max_abs_error,
		         r->rel_l2_error);
	cmd_progress(s->ctx, s->quiet,
	             "%s: [%d/%d] %s %llu bytes%s: p50 %.2f us, busbw %s GB/s%s, %d iterations%s%s",
	             s->command, ++s->done, s->total, r->algorithm, (unsigned long long)r->bytes,
	             where, r->time.p50_us, busbw, wire, r->iterations, late,
	             br->wrong ? ", WRONG" : "");
}

/* Rank 0, under the lock: one measured (br) or skipped (NULL) point into the report. */
static int record(struct sweep *s, int v, struct ar_record *r, const struct bench_result *br,
                  const struct sweep_comm *c)
{
	if (br && run_record_measured(r, br, &s->bufs, s->o->check) != 0)
		return -1;
	if (br && br->wrong)
		run_describe_wrong(s->ctx, r, br);
	/* without a report (a sweep inside accept), the point goes to on_point alone */
	cJSON *rec = s->results ? ar_record_to_json(s->results, r) : NULL;
	if ((s->results && !rec) ||
	    (s->on_point && s->on_point(s->on_point_arg, v, r, br, rec) != 0))
		return -1;
	if (rec && br && run_trace_record(&s->trace, rec, v, r->bytes, r->ranks, c->world_of) != 0)
		return -1;
	progress_line(s, r, c->hosts, br, c->whole);
	return 0;
}

/*
 * The communicator's rank 0: a measured point left without a valid sample
 * (its record is in the report, its figures null) ends the run with a
 * runtime error naming it, never a table of nan and a passing exit.
 */
static int no_sample(const struct sweep *s, const struct ar_record *r,
                     const struct bench_result *br)
{
	int (*say)(const struct cmd_ctx *, const char *, ...) =
	    s->ctx->rank == 0 ? cmd_error : cmd_rank_error;
	say(s->ctx,
	    "%s: %s at %llu bytes on %d ranks: no valid sample of %d attempts (%d late starts "
	    "dropped): the point was not measured",
	    s->command, r->algorithm, (unsigned long long)r->bytes, r->ranks, br->attempts,
	    r->late_starts);
	return EXIT_RUNTIME;
}

struct sweep_comm sweep_comm_whole(const struct sweep *s)
{
	return (struct sweep_comm){.comm = s->ctx->comm,
	                           .rank = s->ctx->rank,
	                           .nranks = s->ctx->nranks,
	                           .hosts = s->map.nhosts,
	                           .whole = true};
}

void sweep_record_init(const struct sweep *s, int v, uint64_t size_bytes,
                       const struct sweep_comm *c, struct ar_record *r)
{
	const struct sweep_opts *o = s->o;
	size_t w = ar_dtype_bytes(o->dtype);
	*r = (struct ar_record){.algorithm = s->label ? s->label : ar_variants[v]->name,
	                        .dtype = ar_dtype_name(o->dtype),
	                        .op = ar_op_name(o->op),
	                        .count = size_bytes / w,
	                        .ranks = c->nranks,
	                        .in_place = s->in_place,
	                        .straggler_rank = -1};
	r->bytes = r->count * w;
	/* every rank ticks once per point, member or not: an idle rank is not hung */
	progress_point(v, r->bytes);
	progress_step(c->comm != MPI_COMM_NULL ? PROGRESS_START : PROGRESS_IDLE, c->nranks);
	r->collective = (enum ar_collective)o->collective;
	r->skipped = bench_collective_skipped(&s->bufs, ar_variants[v], r->collective, c->nranks,
	                                      c->hosts, o->op);
	if (!r->skipped)
		r->skipped = ar_variant_unsupported_dtype(ar_variants[v], o->dtype);
	if (!r->skipped && r->count == 0)
		r->skipped = "message smaller than one element";
}

/*
 * A traced point whose analysis left suspect hops (reports/diagnose/hops.h,
 * "Suspects") is measured again, up to the analysis' retests, while one
 * stands; then its hops are named or cleared and the report written again.
 * Collective over c->comm; its rank 0 decides. status: the point's so far.
 */
static int retest_hops(struct sweep *s, int v, const struct sweep_comm *c, struct ar_record *r,
                       int status)
{
	char what[128];
	int round = 0;
	if (!s->trace.on || c->comm == MPI_COMM_NULL || r->skipped)
		return status;
	for (;;) {
		int again = c->rank == 0 && status == EXIT_OK && run_trace_retest_wanted(&s->trace);
		if (MPI_Bcast(&again, 1, MPI_INT, 0, c->comm) != MPI_SUCCESS)
			return EXIT_RUNTIME;
		if (!again)
			break;
		if (c->rank == 0) {
			run_trace_suspect_name(&s->trace, what, sizeof what);
			cmd_progress(s->ctx, s->quiet,
			             "%s: %s %llu bytes: a suspect, %s: measured again (%d of at most %d)",
			             s->command, r->algorithm, (unsigned long long)r->bytes, what, ++round,
			             run_trace_retests(&s->trace));
		}
		struct bench_result br;
		status = sweep_measure(s, v, c, r, &br);
		if (status == EXIT_OK && c->rank == 0 && run_trace_retest(&s->trace) != 0) {
			cmd_rank_error(s->ctx, "%s: out of memory while judging a trace", s->command);
			status = EXIT_RUNTIME;
		}
	}
	if (c->rank == 0 && s->trace.pending) {
		run_partial_lock(&s->report);
		int failed = run_trace_settle(&s->trace);
		run_partial_unlock(&s->report);
		if (failed)
			cmd_rank_error(s->ctx, "%s: out of memory while recording results", s->command);
		if (status == EXIT_OK)
			status = failed ? EXIT_RUNTIME : run_partial_flush(&s->report);
	}
	return status;
}

int sweep_point(struct sweep *s, int v, uint64_t size_bytes, const struct sweep_comm *c)
{
	struct bench_result br;
	struct ar_record r;
	int status = sweep_resync_if_old(s);
	if (status != EXIT_OK)
		return sweep_agree(s, status);
	sweep_record_init(s, v, size_bytes, c, &r);
	if (!r.skipped && c->comm != MPI_COMM_NULL)
		status = sweep_measure(s, v, c, &r, &br);
	/* the communicator's rank 0 has the samples: world rank 0 for allreduce and scale
	   (scale's order starts with it), any rank for accept's subsets of hosts */
	if (status == EXIT_OK && c->comm != MPI_COMM_NULL && c->rank == 0) {
		run_partial_lock(&s->report);
		int failed = record(s, v, &r, r.skipped ? NULL : &br, c);
		run_partial_unlock(&s->report);
		if (failed)
			cmd_rank_error(s->ctx, "%s: out of memory while recording results",
			               s->command);
		/* adaptive points end within their budget: a second of them per write loses at
		   most a second's points to a kill (a hang's hook writes them all) */
		bool short_points = s->cfg.iters == 0 && s->cfg.budget_s < PARTIAL_MIN_INTERVAL_S;
		status = failed ? EXIT_RUNTIME
		                : run_partial_flush_every(&s->report,
		                                          short_points ? PARTIAL_MIN_INTERVAL_S : 0);
		if (status == EXIT_OK && !r.skipped && !ar_record_has_time(&r))
			status = no_sample(s, &r, &br);
	}
	status = retest_hops(s, v, c, &r, status);
	return sweep_agree(s, status);
}

int sweep_trace_summary(const struct sweep *s, cJSON *summary, bool quiet_text)
{
	return run_trace_summarize(&s->trace, summary, quiet_text);
}

void sweep_end(struct sweep *s)
{
	(void)s;
	progress_step(PROGRESS_DONE, 0);
	watchdog_stop();
}

int sweep_finish(struct sweep *s, int (*summarize)(void *arg, cJSON *root), void *arg)
{
	run_partial_lock(&s->report);
	int verdict = summarize(arg, s->root);
	run_context_end(&s->context);
	/* a verdict on the measurements is written; a failure to reach one is not */
	if (verdict == EXIT_OK || verdict == EXIT_CHECK_FAILED || verdict == EXIT_WRONG) {
		int wrc = run_partial_complete_locked(&s->report, s->context.finished_utc);
		verdict = wrc != EXIT_OK ? wrc : verdict;
	}
	run_partial_unlock(&s->report);
	return verdict;
}

void sweep_release(struct sweep *s)
{
	run_trace_stop(&s->trace); /* after the watchdog, which may read the ring */
	for (int v = 0; v < AR_MAX_VARIANTS; v++)
		if (s->planned[v])
			exec_plan_release(&s->plans[v]);
	bench_bufs_free(&s->bufs);
	cJSON_Delete(s->root);
	if (s->have_context)
		report_context_release(&s->context);
	topo_map_release(&s->map);
	run_partial_release(&s->report);
}

/*
 * Every rank's peak resident set size (getrusage) and peak proportional set
 * size (probes/memory.h), the largest of each on rank 0.
 */
void sweep_peak_memory(const struct sweep *s, struct run_peak_memory *out)
{
	const struct cmd_ctx *ctx = s->ctx;
	struct rusage ru;
	struct {
		double bytes;
		int rank;
	} mine[2] = {{0, ctx->rank}, {(double)s->my_peak_pss_bytes, ctx->rank}}, top[2] = {0};
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		mine[0].bytes = (double)ru.ru_maxrss * 1024.0;
	/* one rank that could not read its PSS makes the figure unknown */
	int known = s->my_peak_pss_bytes > 0, all_known = 0;
	if (MPI_Reduce(mine, top, 2, MPI_DOUBLE_INT, MPI_MAXLOC, 0, ctx->comm) == MPI_SUCCESS &&
	    MPI_Reduce(&known, &all_known, 1, MPI_INT, MPI_MIN, 0, ctx->comm) == MPI_SUCCESS) {
		out->rss_bytes = top[0].bytes;
		out->rss_rank = top[0].rank;
		out->pss_bytes = all_known ? top[1].bytes : NAN;
		out->pss_rank = top[1].rank;
	}
}
