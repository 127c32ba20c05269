/*
 * collscope watch (issue 34): rounds of a small all-reduce, a large one and
 * a links round, within a duty cycle, until --duration or a signal.
 *
 * 1. Setup: the context (hosts), the library's all-reduce as a sweep of two
 *    sizes (buffers once, at the larger), the watchdog, the files.
 * 2. A round: each all-reduce (cmd/run/sweep.c; rank 0 keeps the median time
 *    and the bus bandwidth), every --links-every rounds a links round
 *    (links_measure, the links command's own measurement: rank 0 takes the
 *    host x host bandwidth matrix), each value into its series' online
 *    detector (reports/watch/watch_state.h); link changes are attributed by
 *    the classifier; rank 0 writes the round's lines and the metrics.
 * 3. A nap until the next round: from the round's start, the larger of
 *    --period and the round's own time x 100 / --duty-percent. The ranks nap
 *    in slices, agreeing after each whether a rank caught SIGTERM or SIGINT,
 *    so a stop never waits out a long period; each slice ticks the progress
 *    the watchdog reads (a nap is no hang).
 */
#include <mpi.h>

#include "cmd/run/watch_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "algorithms/clock_id.h"
#include "algorithms/progress.h"
#include "cmd/links_opts.h"
#include "reports/watch/watch_jsonl.h"

enum { NAP_SLICE_MS = 100, WATCH_MAX_EVENTS = 1024 };

/* The wall clock to the nanosecond: time() lagged every stamp by up to 1 s. */
static double epoch_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double watch_now_s(const struct watch_run *w)
{
	return w->epoch0_s + (clock_local_s() - w->mono0_s) * w->o->clock_factor;
}

/* sweep_point_fn: the point, for rank 0 to take into its series. */
static int keep_point(void *arg, int v, const struct ar_record *r, const struct bench_result *br,
                      cJSON *rec)
{
	struct watch_run *w = arg;
	(void)v;
	(void)br;
	(void)rec;
	w->last = *r;
	return 0;
}

/* The library's all-reduce (mpi) at both sizes, barrier-timed: no clock sync to keep fresh. */
static int sweep_options(struct watch_run *w)
{
	char err[256];
	struct sweep_opts *s = &w->ao.sweep;
	if (opts_defaults(&allreduce_spec, &w->ao, err, sizeof err) != EXIT_OK) {
		cmd_error(w->ctx, "watch: %s", err);
		return EXIT_RUNTIME;
	}
	memset(s->variants, 0, sizeof s->variants);
	s->variants[ar_variant_index(ar_variant_find("mpi"))] = true;
	s->sizes[0] = w->o->small_bytes < w->o->large_bytes ? w->o->small_bytes : w->o->large_bytes;
	s->sizes[1] = w->o->small_bytes < w->o->large_bytes ? w->o->large_bytes : w->o->small_bytes;
	s->nsizes = 2;
	s->iters = w->o->small_iters > w->o->large_iters ? w->o->small_iters : w->o->large_iters;
	s->warmup = 1;
	s->timing = TIMING_BARRIER;
	s->clock_resync_s = 1e9;
	return EXIT_OK;
}

/* One all-reduce of bytes, iters times; rank 0 adds its sample to series kind. */
static int measure_allreduce(struct watch_run *w, enum watch_kind kind, uint64_t bytes, int iters)
{
	struct sweep_comm whole = sweep_comm_whole(&w->sweep);
	w->sweep.cfg.iters = iters;
	w->last = (struct ar_record){0};
	int status =
	    sweep_point(&w->sweep, ar_variant_index(ar_variant_find("mpi")), bytes, &whole);
	if (status != EXIT_OK || w->ctx->rank != 0)
		return status;
	if (w->last.wrong > 0) {
		cmd_error(w->ctx, "watch: wrong result of the all-reduce of %llu bytes",
		          (unsigned long long)bytes);
		return EXIT_WRONG;
	}
	long i = watch_series_get(&w->st, kind, bytes, -1, -1);
	double v = kind == WATCH_LATENCY ? w->last.time.p50_us : w->last.busbw_gbps;
	if (i >= 0 && watch_add(&w->st, (size_t)i, watch_now_s(w), v, w->round, NULL) < 0) {
		cmd_error(w->ctx, "watch: out of memory");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* The watch's index of a host name of a links run (each run captures its own context). */
static int host_index(const struct watch_state *s, const char *name)
{
	for (int h = 0; h < s->nhosts; h++)
		if (strcmp(s->host_names[h], name) == 0)
			return h;
	return -1;
}

/* links_outcome_fn, rank 0: every host pair's bandwidth into its series. */
static int take_links(void *arg, const struct links_view *v, const struct detect_result *final,
                      const struct links_coverage *coverage)
{
	(void)coverage; /* a round's matrix is what watch follows */
	struct watch_run *w = arg;
	size_t nh = (size_t)v->nhosts;
	double *cells = malloc((nh ? nh * nh : 1) * sizeof *cells), t = watch_now_s(w);
	int rc = cells && links_host_matrix(v, cells) == 0 ? 0 : -1;
	(void) final;
	for (size_t a = 0; rc == 0 && a < nh; a++)
		for (size_t b = 0; rc == 0 && b < nh; b++) {
			int ha = host_index(&w->st, v->host_names[a]),
			    hb = host_index(&w->st, v->host_names[b]);
			if (a == b || ha < 0 || hb < 0 || !isfinite(cells[a * nh + b]))
				continue;
			long i = watch_series_get(&w->st, WATCH_LINK, 0, ha, hb);
			if (i >= 0 &&
			    watch_add(&w->st, (size_t)i, t, cells[a * nh + b], w->round, NULL) < 0)
				rc = -1;
		}
	if (rc == 0)
		rc = watch_attribute_links(&w->st, w->round, &w->detect);
	free(cells);
	return rc;
}

static int measure_links(struct watch_run *w)
{
	struct links_opts lo;
	char err[256];
	if (opts_defaults(&links_spec, &lo, err, sizeof err) != EXIT_OK ||
	    links_spec.check(&lo, err, sizeof err) != EXIT_OK) {
		cmd_error(w->ctx, "watch: %s", err);
		return EXIT_RUNTIME;
	}
	lo.probe = w->o->links_probe;
	lo.out.quiet = true;
	lo.timeout_s = 0; /* the watch's watchdog */
	return links_measure(w->ctx, &lo, take_links, w);
}

/* One round, measured and written; an exit code, agreed. */
static int one_round(struct watch_run *w)
{
	double t0 = clock_local_s(), round_s = w->ctx->rank == 0 ? watch_now_s(w) : 0;
	uint64_t before = w->st.events_total;
	w->round++;
	int status = measure_allreduce(w, WATCH_LATENCY, w->o->small_bytes, w->o->small_iters);
	if (status == EXIT_OK)
		status =
		    measure_allreduce(w, WATCH_BANDWIDTH, w->o->large_bytes, w->o->large_iters);
	if (status == EXIT_OK && w->o->links_every && w->ctx->nranks > 1 &&
	    (w->round - 1) % (uint64_t)w->o->links_every == 0)
		status = measure_links(w);
	w->measure_s += clock_local_s() - t0;
	if (w->ctx->rank == 0 && status == EXIT_OK) {
		w->st.rounds = w->round;
		/* the ring may have dropped old events: the new ones are the last n */
		size_t fresh = (size_t)(w->st.events_total - before);
		size_t first_event = fresh > w->st.events.n ? 0 : w->st.events.n - fresh;
		for (size_t k = first_event; w->print && !w->o->out.quiet && k < w->st.events.n;
		     k++)
			w->print(&w->st, watch_ring_at(&w->st.events, k), w->epoch0_s);
		status = watch_write_round(w, first_event, round_s);
	}
	return run_any(w->ctx, status != EXIT_OK) ? (status != EXIT_OK ? status : EXIT_RUNTIME)
	                                          : EXIT_OK;
}

/*
 * Rank 0's real seconds until the next round: from the round's start t0,
 * the larger of --period (on the watch's clock) and the round's time
 * stretched to the duty cycle; never past the end of --duration.
 */
static double nap_length(const struct watch_run *w, double t0, double round_s)
{
	const struct watch_opts *o = w->o;
	double next = t0 + fmax(o->period_s / o->clock_factor, round_s * 100 / o->duty_percent);
	if (o->duration_s > 0)
		next = fmin(next, w->mono0_s + o->duration_s / o->clock_factor);
	return next - clock_local_s();
}

/*
 * Collective: naps until rank 0's next round, in slices; true when a rank
 * caught a stop signal or rank 0 could not reopen --jsonl after SIGHUP
 * (w->reopen_failed, named). Rank 0 says how long is left, so all wake together.
 */
static bool nap(struct watch_run *w, double t0, double round_s)
{
	for (int64_t slice = 0;; slice++) {
		double mine[2] = {watch_stop_signal() != 0 || w->reopen_failed, 0}, all[2];
		if (w->ctx->rank == 0)
			mine[1] = nap_length(w, t0, round_s);
		if (MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, w->ctx->comm) != MPI_SUCCESS)
			return true;
		if (all[0] > 0)
			return true;
		if (w->ctx->rank == 0 && watch_take_reopen() && watch_files_reopen(w) != EXIT_OK)
			w->reopen_failed = true; /* the next slice tells every rank */
		if (all[1] <= 0)
			return false;
		progress_point(PROGRESS_NONE, 0);
		progress_step(PROGRESS_IDLE, slice);
		double s = fmin(all[1], NAP_SLICE_MS / 1000.0);
		struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
		nanosleep(&ts, NULL);
	}
}

static const char *stop_reason(const struct watch_run *w, int status)
{
	int sig = watch_stop_signal();
	if (status != EXIT_OK)
		return "error";
	if (sig)
		return sig == SIGINT ? "SIGINT" : "SIGTERM";
	return w->expired ? "duration" : "signal";
}

/* The rounds until --duration, a stop signal or a failure; an exit code. */
static int loop(struct watch_run *w)
{
	int status = EXIT_OK;
	for (;;) {
		bool over = w->ctx->rank == 0 && w->o->duration_s > 0 &&
		            clock_local_s() - w->mono0_s >= w->o->duration_s / w->o->clock_factor;
		w->expired = over;
		if (run_any(w->ctx, over || watch_stop_signal() != 0))
			break;
		double t0 = clock_local_s();
		status = one_round(w);
		if (status != EXIT_OK || nap(w, t0, clock_local_s() - t0))
			break;
	}
	return status == EXIT_OK && w->reopen_failed ? EXIT_RUNTIME : status;
}

/*
 * Before anything is measured: --metrics can be replaced (its directory
 * exists, it is no directory itself) and --jsonl opens for appending. Rank 0
 * names what is wrong; every rank agrees; EXIT_OK or EXIT_USAGE.
 */
static int check_files(struct watch_run *w)
{
	char err[1024] = "";
	bool bad = false;
	if (w->ctx->rank == 0 && w->o->metrics &&
	    report_check_output_path(w->o->metrics, true, err, sizeof err) != REPORT_OK) {
		cmd_error(w->ctx, "watch: --metrics: %s", err);
		bad = true;
	}
	if (w->ctx->rank == 0 && !bad)
		bad = watch_files_open(w) != EXIT_OK;
	return run_any(w->ctx, bad) ? EXIT_USAGE : EXIT_OK;
}

/* Context, state, sweep: every rank agrees; an exit code. */
static int setup(struct watch_run *w)
{
	int status = run_check_output(w->ctx, "watch", &w->o->out);
	if (status == EXIT_OK)
		status = check_files(w);
	if (status == EXIT_OK && run_context_begin(w->ctx, &w->c, &w->map) != 0)
		status = EXIT_RUNTIME;
	if (status != EXIT_OK)
		return status;
	struct watch_detect_params p;
	watch_detect_params_default(&p);
	p.window = (size_t)w->o->window;
	p.confirm = (size_t)w->o->confirm;
	p.alpha = w->o->alpha;
	p.min_step = w->o->min_step_percent / 100;
	detect_params_default(&w->detect);
	bool failed = false;
	if (w->ctx->rank == 0) {
		const char **names = calloc((size_t)w->c.nhosts + 1, sizeof *names);
		for (int h = 0; names && h < w->c.nhosts; h++)
			names[h] = w->c.hosts[h].name;
		failed = !names ||
		         watch_state_init(&w->st, &p, (size_t)w->o->keep_samples,
		                          (size_t)w->o->max_series, WATCH_MAX_EVENTS) != 0 ||
		         watch_state_set_hosts(&w->st, names, w->c.nhosts) != 0;
		free(names);
		if (failed)
			cmd_error(w->ctx, "watch: out of memory for the series");
	}
	if (run_any(w->ctx, failed))
		return EXIT_RUNTIME;
	if ((status = sweep_options(w)) != EXIT_OK)
		return status;
	sweep_init(&w->sweep, w->ctx, "watch", &w->ao.sweep, false, true);
	w->sweep.on_point = keep_point;
	w->sweep.on_point_arg = w;
	w->sweep_ready = true;
	return sweep_setup(&w->sweep, 2);
}

static void release(struct watch_run *w)
{
	if (w->sweep_ready)
		sweep_release(&w->sweep);
	watch_files_close(w);
	watch_state_release(&w->st);
	topo_map_release(&w->map);
	report_context_release(&w->c);
}

int watch_measure(struct cmd_ctx *ctx, const struct watch_opts *o, watch_event_fn print)
{
	struct watch_run w = {.ctx = ctx, .o = o, .print = print};
	report_context_init(&w.c);
	topo_map_init(&w.map);
	watch_signals_install();
	w.mono0_s = clock_local_s();
	w.epoch0_s = epoch_s();
	int status = setup(&w);
	if (status == EXIT_OK && watchdog_start(ctx, "watch", o->timeout_s, NULL, NULL) != 0)
		status = EXIT_RUNTIME;
	bool watched = status == EXIT_OK;
	if (watched && ctx->rank == 0 &&
	    watch_write_line(
	        &w, watch_line_start(w.epoch0_s, (long)getpid(), ctx->nranks, &w.st)) != 0) {
		cmd_error(ctx, "watch: cannot write to '%s'", o->jsonl);
		status = EXIT_RUNTIME;
	}
	if (run_any(ctx, status != EXIT_OK))
		status = status != EXIT_OK ? status : EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = loop(&w);
	if (watched)
		watchdog_stop();
	if (watched && ctx->rank == 0) {
		int end = watch_write_end(&w, stop_reason(&w, status));
		status = status != EXIT_OK ? status : end;
	}
	release(&w);
	return status;
}
