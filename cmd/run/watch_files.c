/*
 * collscope watch's signals and files (watch_run.h). Nothing is lost at a
 * stop: every JSON line is written whole and flushed with its round, the
 * metrics file is replaced atomically (a reader sees the old file or the
 * new, never half), and SIGTERM or SIGINT only ask the loop to stop after
 * the round, so its lines and the stop line are written before the exit.
 */
#include <mpi.h>

#include "cmd/run/watch_run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/clock_id.h"
#include "probes/memory.h"
#include "reports/io/report_schema.h"
#include "reports/watch/watch_jsonl.h"
#include "reports/watch/watch_metrics.h"

static volatile sig_atomic_t stop_signal, reopen_pending;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_hup(int sig)
{
	(void)sig;
	reopen_pending = 1;
}

void watch_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART; /* MPI's calls go on; the loop looks between rounds */
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * The files are written with the three signals blocked: report_io's own
 * handlers (reports/io/report_io.h) would remove a temporary being written
 * and fail the write, where the watch wants the write done and the signal
 * seen after it. Blocked, a signal waits the few milliseconds of a write.
 */
static void block_signals(sigset_t *saved)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, saved);
}

int watch_stop_signal(void)
{
	return stop_signal;
}

bool watch_take_reopen(void)
{
	bool pending = reopen_pending;
	reopen_pending = 0;
	return pending;
}

int watch_files_open(struct watch_run *w)
{
	if (!w->o->jsonl)
		return EXIT_OK;
	w->jsonl = fopen(w->o->jsonl, "a");
	if (!w->jsonl) {
		cmd_error(w->ctx, "watch: cannot open '%s' for --jsonl: %s", w->o->jsonl,
		          strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

void watch_files_close(struct watch_run *w)
{
	if (w->jsonl)
		fclose(w->jsonl);
	w->jsonl = NULL;
}

int watch_files_reopen(struct watch_run *w)
{
	watch_files_close(w);
	return watch_files_open(w);
}

int watch_write_line(struct watch_run *w, cJSON *line)
{
	char *text = line ? cJSON_PrintUnformatted(line) : NULL;
	int rc = text ? 0 : -1;
	cJSON_Delete(line);
	if (text && w->jsonl) {
		size_t n = strlen(text);
		text[n] = '\n'; /* one write of the whole line, so a reader never sees half */
		rc = fwrite(text, 1, n + 1, w->jsonl) == n + 1 && fflush(w->jsonl) == 0 ? 0 : -1;
	}
	free(text);
	return rc;
}

static double rss_bytes(void)
{
	uint64_t b;
	return probe_memory_rss_bytes(&b) ? (double)b : NAN;
}

static double duty_ratio(const struct watch_run *w)
{
	double elapsed = clock_local_s() - w->mono0_s;
	return elapsed > 0 ? w->measure_s / elapsed : NAN;
}

static int write_metrics(struct watch_run *w, double rss)
{
	struct om_text t;
	char err[512];
	struct watch_figures f = {.start_s = w->epoch0_s,
	                          .last_round_s = watch_now_s(w),
	                          .measure_s = w->measure_s,
	                          .duty_ratio = duty_ratio(w),
	                          .rss_bytes = rss};
	int status = EXIT_OK;
	if (!w->o->metrics)
		return EXIT_OK;
	om_text_init(&t);
	if (watch_metrics_render(&w->st, &f, &t) != 0) {
		cmd_error(w->ctx, "watch: out of memory for the metrics");
		status = EXIT_RUNTIME;
	} else if (report_write_text_atomic(w->o->metrics, t.text, t.len, true, err, sizeof err) !=
	               REPORT_OK &&
	           /* a signal taken by another thread (the watchdog's) removed the temporary */
	           !(stop_signal && report_write_text_atomic(w->o->metrics, t.text, t.len, true,
	                                                     err, sizeof err) == REPORT_OK)) {
		cmd_error(w->ctx, "watch: %s", err);
		status = EXIT_RUNTIME;
	}
	om_text_release(&t);
	return status;
}

static int write_round(struct watch_run *w, size_t first_event, double round_s);

int watch_write_round(struct watch_run *w, size_t first_event, double round_s)
{
	sigset_t saved;
	block_signals(&saved);
	int status = write_round(w, first_event, round_s);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return status;
}

static int write_round(struct watch_run *w, size_t first_event, double round_s)
{
	double rss = rss_bytes();
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < w->st.nseries; i++)
		if (w->st.series[i].samples && w->st.series[i].last_t_s >= round_s)
			rc = watch_write_line(w, watch_line_sample(&w->st, i, w->round));
	for (size_t k = first_event; rc == 0 && k < w->st.events.n; k++)
		rc = watch_write_line(w, watch_line_event(&w->st, watch_ring_at(&w->st.events, k)));
	if (rc == 0)
		rc = watch_write_line(w, watch_line_round(watch_now_s(w), w->round, w->measure_s,
		                                          100 * duty_ratio(w), rss));
	if (rc != 0) {
		cmd_error(w->ctx, "watch: cannot write to '%s': %s", w->o->jsonl ? w->o->jsonl : "",
		          strerror(errno));
		return EXIT_RUNTIME;
	}
	return write_metrics(w, rss);
}

static int write_end(struct watch_run *w, const char *reason);

int watch_write_end(struct watch_run *w, const char *reason)
{
	sigset_t saved;
	block_signals(&saved);
	int status = write_end(w, reason);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return status;
}

static int write_end(struct watch_run *w, const char *reason)
{
	int status = EXIT_OK;
	if (watch_write_line(w, watch_line_stop(watch_now_s(w), reason, w->st.rounds,
	                                        w->st.events_total)) != 0) {
		cmd_error(w->ctx, "watch: cannot write to '%s'", w->o->jsonl ? w->o->jsonl : "");
		status = EXIT_RUNTIME;
	}
	int m = write_metrics(w, rss_bytes());
	status = status != EXIT_OK ? status : m;
	if (!w->o->out.output)
		return status;
	cJSON *root = run_report_new("watch", &w->c);
	struct watch_totals tot = {.rounds = w->st.rounds,
	                           .measure_s = w->measure_s,
	                           .duty_percent = 100 * duty_ratio(w),
	                           .stopped_by = reason};
	if (!root || !opts_to_json(root, &watch_spec, w->o) ||
	    !watch_report_add(root, &w->st, &tot) ||
	    !cJSON_AddBoolToObject(root, SK_REPORT_COMPLETE, true)) {
		cmd_error(w->ctx, "watch: out of memory while building the report");
		cJSON_Delete(root);
		return EXIT_RUNTIME;
	}
	int r = run_report_write(w->ctx, w->o->out.output, root, w->o->out.force);
	cJSON_Delete(root);
	return status != EXIT_OK ? status : r;
}
