/*
 * collscope links: latency and bandwidth between every pair of ranks, then
 * the slow links and hosts named.
 *
 * 1. Every round of the tournament is measured (probes/p2p.c); each rank
 *    summarises the direction it timed into its row of records. With
 *    --pattern shift or both, the shift pattern's steps too, into a row of
 *    shift cells.
 * 2. Rank 0 gathers the rows and runs the detector (reports/diagnose/detect.c) and
 *    the classifier of the host x host matrices (reports/diagnose/classify.c).
 * 3. The pairs of every suspect are measured again (at most
 *    LINKS_RETEST_PAIRS of a host, link or segment): a host's or a link's one
 *    at a time, a segment's across its cut at once and then as many within
 *    its sides at once (links_retest.c, reports/diagnose/retest.h), and the shift pattern
 *    once more when it accused something; the detector and the classifier
 *    run on the new values: only what they accuse twice is reported, so
 *    noise in the first pass accuses nobody.
 * 4. Rank 0 prints the matrix and the suspects (through the command's print
 *    function, cmd/links_print.c) and writes the report.
 */
#include <mpi.h>

#include "cmd/run/links_run.h"
#include "reports/io/links_compact.h"
#include "reports/io/links_coverage.h"
#include "reports/diagnose/scheduler.h"
#include "reports/diagnose/traffic.h"
#include "reports/diagnose/alone.h"
#include "reports/diagnose/segment_links.h"
#include "reports/diagnose/rails.h"
#include "reports/io/report_schema.h"
#include "cmd/run/partial.h"
#include "algorithms/progress.h"
#include "probes/rounds.h"
#include "probes/tournament.h"
#include "cmd/run/watchdog.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void run_release(struct links_run *r)
{
	if (r->probe_ready)
		probe_links_release(&r->probe);
	if (r->plan_ready)
		links_plan_release(&r->plan);
	topo_map_release(&r->map);
	report_context_release(&r->c);
	free(r->mine);
	link_table_release(&r->table);
	free(r->shift_mine);
	free(r->shift_all);
	free(r->cells);
	free(r->host_names);
	free(r->host_judged);
	pair_set_release(&r->pairs);
	free(r->dlinks);
	free(r->retested);
	detect_result_release(&r->first);
	detect_result_release(&r->final);
	detect_result_release(&r->standing);
	detect_result_release(&r->previous);
	cJSON_Delete(r->root);
	run_partial_release(&r->report);
}

/*
 * Rank 0: the report before anything is measured (context, options, no
 * results, "complete": false), so a hang or a killed job still leaves one.
 */
static int start_report(struct links_run *r)
{
	bool failed = false;
	if (r->ctx->rank == 0 && r->o->out.output) {
		r->root = run_report_new("links", &r->c);
		failed =
		    !r->root || !opts_to_json(r->root, &links_spec, r->o) ||
		    !cJSON_AddArrayToObject(r->root, SK_REPORT_RESULTS) ||
		    run_partial_start(&r->report, r->root, r->o->out.output, r->o->out.force) != 0;
		if (failed)
			cmd_error(r->ctx, "links: out of memory while building the report");
	}
	int status = failed ? EXIT_RUNTIME : run_partial_flush(&r->report);
	return run_any(r->ctx, status != EXIT_OK) ? (status != EXIT_OK ? status : EXIT_RUNTIME)
	                                          : EXIT_OK;
}

/* The tables of every rank, and on rank 0 those of the whole job. */
static int run_alloc(struct links_run *r)
{
	const int n = r->ctx->nranks, nh = r->map.nhosts;
	const size_t nn = (size_t)n * (size_t)n;
	bool failed = !(r->mine = calloc((size_t)n, sizeof *r->mine)) ||
	              !(r->shift_mine = calloc((size_t)n, sizeof *r->shift_mine));
	if (r->ctx->rank == 0) {
		r->table = (struct link_table){.nranks = n,
		                               .row = calloc((size_t)n + 1, sizeof(size_t))};
		/* nranks^2 only where the shift pattern runs (every pair of it is measured) */
		r->shift_all = calloc(r->o->pattern & LINKS_SHIFT ? nn : 1, sizeof *r->shift_all);
		r->cells = calloc((size_t)nh * (size_t)nh + 1, sizeof *r->cells);
		r->host_names = calloc((size_t)nh, sizeof *r->host_names);
		r->host_judged = calloc((size_t)nh, sizeof *r->host_judged);
		r->dlinks = calloc(1, sizeof *r->dlinks); /* grown to the measured records */
		failed |= !r->table.row || !r->host_names || !r->host_judged ||
		          !r->dlinks || !r->shift_all || !r->cells;
		for (int h = 0; !failed && h < nh; h++) {
			r->host_names[h] = r->c.hosts[h].name;
			r->host_judged[h] =
			    r->o->judge_oversubscribed || !r->map.host_oversubscribed[h];
		}
	}
	for (int b = 0; r->mine && b < n; b++)
		r->mine[b] = (struct link_record){
		    .a = r->ctx->rank, .b = b, .cpu_wait_share = NAN, .cpu_wait_share_lat = NAN,
		    .nic_other_gbps = NAN, .nic_other_sent_gbps = NAN,
		    .nic_other_received_gbps = NAN};
	for (int b = 0; r->shift_mine && b < n; b++)
		r->shift_mine[b] = (struct shift_cell){.send_us = NAN, .recv_us = NAN};
	if (failed)
		cmd_rank_error(r->ctx, "links: out of memory for the tables of %d ranks", n);
	if (run_any(r->ctx, failed))
		return EXIT_RUNTIME;
	int rc = n > 1 ? probe_links_init(&r->probe, r->ctx->comm, &r->o->probe) : MPI_SUCCESS;
	r->probe_ready = n > 1 && rc == MPI_SUCCESS;
	/* one rank per host: the rounds read another job's traffic too (accept's room) */
	r->probe.nic_in_rounds = r->probe_ready && r->map.nhosts == n;
	if (rc != MPI_SUCCESS)
		cmd_rank_error(r->ctx, "links: cannot allocate the message buffers (%zu bytes)",
		               r->o->probe.bw_bytes);
	return run_any(r->ctx, rc != MPI_SUCCESS) ? EXIT_RUNTIME : EXIT_OK;
}

/*
 * --test-slow-link: the pair's windows made slower after the fact; A:*:F,
 * every pair of rank A with a rank of another host (as its own NIC would).
 */
static void slow_down(struct probe_links *p, const struct links_opts *o, const int *host_of_rank)
{
	const struct links_test_slow *s = &o->slow;
	bool hit = s->b < 0 ? (p->rank == s->a || p->peer == s->a) &&
	                          host_of_rank[p->rank] != host_of_rank[p->peer]
	                    : (p->rank == s->a && p->peer == s->b) ||
	                          (p->rank == s->b && p->peer == s->a);
	for (int i = 0; hit && s->factor > 0 && i < p->one_way.windows; i++)
		p->window_us[i] *= s->factor;
	for (int i = 0; hit && s->factor > 0 && i < p->bidir.windows; i++)
		p->bidir_us[i] *= s->factor;
}

/* This rank's samples of rank -> peer into its row; false when out of memory. */
bool links_summarize(struct links_run *r, bool remeasured)
{
	struct probe_links *p = &r->probe;
	if (p->peer < 0)
		return true;
	slow_down(p, r->o, r->map.host_of_rank);
	struct link_record *k = &r->mine[p->peer];
	k->measured = true;
	k->remeasured = remeasured;
	k->cpu_wait_share = p->cpu_wait_share;
	k->cpu_wait_share_lat = p->cpu_wait_share_lat;
	k->nic_other_gbps = p->nic_other_gbps;
	k->nic_other_sent_gbps = p->nic_other_sent_gbps;
	k->nic_other_received_gbps = p->nic_other_received_gbps;
	k->nlatency_samples =
	    link_keep_samples(p->lat_us, (size_t)p->lat_count, k->latency_samples_us);
	k->nwindow_samples =
	    link_keep_samples(p->window_us, (size_t)p->one_way.windows, k->window_samples_us);
	k->window_msgs = p->one_way.msgs;
	k->stopped_by_time = p->one_way.stopped_by_time;
	k->bidir_msgs = p->bidir.msgs;
	k->bidir_stopped_by_time = p->bidir.stopped_by_time;
	return stats_summarize(p->lat_us, (size_t)p->lat_count, &k->latency_us) == 0 &&
	       stats_summarize(p->window_us, (size_t)p->one_way.windows, &k->window_us) == 0 &&
	       stats_summarize(p->bidir_us, (size_t)p->bidir.windows, &k->bidir_window_us) == 0;
}

/* After a collective step: any rank's failure fails all, named by the rank that saw it. */
int links_step_failed(struct links_run *r, int rc, bool summarized, const char *what)
{
	char msg[MPI_MAX_ERROR_STRING];
	if (rc != MPI_SUCCESS)
		cmd_rank_error(r->ctx, "links: %s: %s", what,
		               run_mpi_error_text(rc, msg, sizeof msg));
	else if (!summarized)
		cmd_rank_error(r->ctx, "links: %s: out of memory for the statistics", what);
	return run_any(r->ctx, rc != MPI_SUCCESS || !summarized);
}

/* This rank's cells of shift step just measured; false when out of memory. */
static bool summarize_shift(struct links_run *r)
{
	const struct probe_links *p = &r->probe;
	const size_t k = (size_t)p->shift.windows;
	if (p->shift_dest < 0 || k == 0)
		return true;
	struct shift_cell *to = &r->shift_mine[p->shift_dest],
	                  *from = &r->shift_mine[p->shift_source];
	to->send_us = stats_median(p->shift_send_us, k);
	to->send_windows = (int)k;
	to->msgs = p->shift.msgs;
	to->stopped_by_time = p->shift.stopped_by_time;
	from->recv_us = stats_median(p->shift_recv_us, k);
	from->recv_windows = (int)k;
	return !isnan(to->send_us) && !isnan(from->recv_us);
}

/* The hooks of the shift's steps: progress, then this rank's cells of the step. */
struct shift_hooks {
	struct links_run *r;
	bool again;
};

static void before_shift(void *arg, int d)
{
	const struct shift_hooks *s = arg;
	const struct links_run *r = s->r;
	cmd_progress(r->ctx, r->o->out.quiet, "links: shift step %d of %d%s: every rank to rank+%d",
	             d, probe_shift_steps(r->ctx->nranks), s->again ? " (again)" : "", d);
	progress_point(s->again ? PROGRESS_LINKS_AGAIN : PROGRESS_LINKS_ROUND,
	               r->o->probe.bw_bytes);
	progress_step(PROGRESS_TIMED, d);
}

static int after_shift(void *arg, int d, int rc)
{
	struct links_run *r = ((const struct shift_hooks *)arg)->r;
	char what[64];
	snprintf(what, sizeof what, "shift step %d", d);
	return links_step_failed(r, rc, rc != MPI_SUCCESS || summarize_shift(r), what)
	           ? EXIT_RUNTIME
	           : 0;
}

int links_measure_shift(struct links_run *r, bool again)
{
	const int n = r->ctx->nranks;
	struct shift_hooks s = {r, again};
	const struct probe_rounds_hooks hooks = {before_shift, after_shift, &s};
	int ran = 0;
	double est = 3 * r->o->probe.bw_time_s + PROBE_PLAN_ROUND_OVERHEAD_S;
	if (probe_links_shift_steps(&r->probe, r->deadline_s, est, &hooks, &ran) != 0)
		return EXIT_RUNTIME;
	r->stopped_by_budget |= ran < probe_shift_steps(n);
	int bytes = n * (int)sizeof *r->shift_mine;
	int rc = MPI_Gather(r->shift_mine, bytes, MPI_BYTE, r->shift_all, bytes, MPI_BYTE, 0,
	                    r->ctx->comm);
	return links_step_failed(r, rc, true, "gathering the shift pattern") ? EXIT_RUNTIME
	                                                                     : EXIT_OK;
}

enum { LINKS_ROW_TAG = 7411 };

/*
 * This rank's measured records, packed; rank 0 then takes them rank by rank
 * into its table (a stream: it holds what was measured, never nranks^2
 * records, and no message is larger than one row).
 */
static int pack_row(const struct links_run *r, struct link_record *out)
{
	int k = 0;
	for (int b = 0; b < r->ctx->nranks; b++)
		if (r->mine[b].measured && b != r->ctx->rank)
			out[k++] = r->mine[b];
	return k;
}

static int receive_rows(struct links_run *r, const struct link_record *own, const int *counts)
{
	struct link_table *t = &r->table;
	for (int q = 0; q < r->ctx->nranks; q++) {
		struct link_record *to = t->recs + t->row[q];
		size_t bytes = (size_t)counts[q] * sizeof *to;
		if (q == 0) {
			if (bytes)
				memcpy(to, own, bytes);
			continue;
		}
		int rc = MPI_Recv(to, (int)bytes, MPI_BYTE, q, LINKS_ROW_TAG, r->ctx->comm,
		                  MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

/* Every row's measured records to rank 0's table. */
int links_gather_rows(struct links_run *r)
{
	const int n = r->ctx->nranks;
	struct link_record *own = malloc((size_t)n * sizeof *own);
	int *counts = r->ctx->rank == 0 ? calloc((size_t)n, sizeof *counts) : NULL;
	int k = own ? pack_row(r, own) : 0;
	bool ready = own && (r->ctx->rank != 0 || counts);
	int rc = MPI_Gather(&k, 1, MPI_INT, counts, 1, MPI_INT, 0, r->ctx->comm);
	if (rc == MPI_SUCCESS && ready && r->ctx->rank == 0) {
		size_t total = 0;
		for (int q = 0; q < n; q++)
			total += (size_t)counts[q];
		link_table_release(&r->table);
		r->table = (struct link_table){.nranks = n,
		                               .row = malloc(((size_t)n + 1) * sizeof(size_t)),
		                               .recs = malloc((total ? total : 1) * sizeof *own)};
		struct detect_link *d = realloc(r->dlinks, (total ? total : 1) * sizeof *d);
		r->dlinks = d ? d : r->dlinks;
		ready = r->table.row && r->table.recs && d;
		for (int q = 0; ready && q <= n; q++) /* where each rank's row lands */
			r->table.row[q] = q ? r->table.row[q - 1] + (size_t)counts[q - 1] : 0;
	}
	if (links_step_failed(r, rc, ready, "gathering the results")) {
		free(own);
		free(counts);
		return EXIT_RUNTIME;
	}
	if (r->ctx->rank == 0)
		rc = receive_rows(r, own, counts);
	else
		rc = MPI_Send(own, k * (int)sizeof *own, MPI_BYTE, 0, LINKS_ROW_TAG, r->ctx->comm);
	bool valid = rc != MPI_SUCCESS || r->ctx->rank != 0 ||
	             link_table_index(&r->table, counts) == 0;
	free(own);
	free(counts);
	return links_step_failed(r, rc, valid, "gathering the results") ? EXIT_RUNTIME : EXIT_OK;
}

/* A small job keeps every pair's samples, so that compare can test every pair. */
static bool keeps_every_sample(const struct links_run *r)
{
	size_t n = (size_t)r->ctx->nranks;
	return r->o->keep_samples || n * (n - 1) <= LINKS_SAMPLES_ALL_UP_TO;
}

struct links_view links_view_of(const struct links_run *r)
{
	return (struct links_view){
	    .nranks = r->ctx->nranks,
	    .nhosts = r->map.nhosts,
	    .table = &r->table,
	    .host_of_rank = r->map.host_of_rank,
	    .numa_of_rank = r->map.numa_of_rank,
	    .host_names = r->host_names,
	    .host_judged = r->host_judged,
	    .window_bytes = (double)r->o->probe.window * (double)r->o->probe.bw_bytes,
	    .shift = r->o->pattern & LINKS_SHIFT && r->ctx->nranks > 1 ? r->shift_all : NULL,
	    .keep_all_samples = keeps_every_sample(r),
	    .judge_waiting = r->o->judge_oversubscribed,
	    .rails = r->o->rails,
	};
}

/* rails_cells_fn over a links view: rail k's matrix of the isolated pairs. */
struct rail_cells {
	const struct links_view *v;
	const int *pos;
};

static int rail_cells(void *arg, int rail, double *out)
{
	const struct rail_cells *c = arg;
	return links_rail_host_matrix(c->v, c->pos, rail, out);
}

/*
 * links --rails: each rail's matrix judged too, so a slow NIC is named as its
 * rail (rails.h). The plan knows each rank's position on its host and the
 * ranks of each host in order.
 */
static int judge_rails(const struct links_view *v, const struct probe_plan *plan,
                       const struct detect_params *p, struct detect_result *out)
{
	int nr = plan->max_host_ranks;
	if (nr < RAILS_MIN_JUDGED)
		return 0;
	int *rank_at = malloc((size_t)nr * (size_t)v->nhosts * sizeof *rank_at);
	if (!rank_at)
		return -1;
	for (int h = 0; h < v->nhosts; h++)
		for (int k = 0; k < nr; k++)
			rank_at[(size_t)h * nr + k] =
			    k < plan->host_size[h] ? plan->by_host[plan->host_start[h] + k] : -1;
	struct rail_cells c = {v, plan->local};
	int rc = rails_classify(rail_cells, &c, nr, v->nhosts, rank_at, p, out) < 0 ? -1 : 0;
	free(rank_at);
	return rc;
}

int links_judge(struct links_run *r, struct detect_result *out, int pass)
{
	struct links_view v = links_view_of(r);
	detect_result_init(out);
	r->info_pairs[pass] = r->info_shift[pass] = (struct classify_info){0};
	if (r->o->pattern & LINKS_PAIRS) {
		for (int m = 0; m < DETECT_METRICS; m++) {
			size_t k = links_to_detect(&v, (enum detect_metric)m, r->dlinks);
			if (detect_run(r->dlinks, k, v.nhosts, (enum detect_metric)m, &r->o->detect,
			               out) != 0)
				return -1;
		}
		int from = out->nsuspects;
		/* the first pass screens hosts for the re-tests to judge (classify.h, step 2c) */
		struct detect_params hosts = r->o->detect;
		hosts.screen_z = pass == 0 ? CLASSIFY_SCREEN_Z : 0;
		if (links_judged_host_matrix(&v, false, r->cells) != 0 ||
		    classify_hosts(r->cells, v.nhosts, &hosts, false, out, &r->info_pairs[pass]) != 0)
			return -1;
		classify_reconcile(out, from);
		if (v.rails && r->plan_ready &&
		    judge_rails(&v, &r->plan.plan, &r->o->detect, out) != 0)
			return -1;
	}
	if (v.shift && (links_judged_host_matrix(&v, true, r->cells) != 0 ||
	                classify_hosts(r->cells, v.nhosts, &r->o->detect, true, out,
	                               &r->info_shift[pass]) != 0))
		return -1;
	return 0;
}

static struct links_judgement judgement_of(const struct links_run *r)
{
	return (struct links_judgement){
	    .first = &r->first,
	    .final = &r->final,
	    .remeasured_pairs = r->remeasured,
	    .params = &r->o->detect,
	    .pairs_info = r->o->pattern & LINKS_PAIRS ? &r->info_pairs[1] : NULL,
	    .shift_info = r->o->pattern & LINKS_SHIFT ? &r->info_shift[1] : NULL,
	    .shift_retested = r->shift_retested,
	};
}

static int write_report(struct links_run *r)
{
	struct links_view v = links_view_of(r);
	struct links_judgement j = judgement_of(r);
	int status = EXIT_RUNTIME;
	run_partial_lock(&r->report);
	cJSON *root = r->root;
	/* the results replace the skeleton's empty array */
	cJSON_DeleteItemFromObjectCaseSensitive(root, "results");
	struct links_coverage cov;
	links_coverage_of(r, &cov);
	if (!links_report_add_results(root, &v) || !links_report_add_shift(root, &v) ||
	    !links_report_add_summary(root, &v, &j) ||
	    !links_report_add_coverage(cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_SUMMARY),
	                               &cov))
		cmd_error(r->ctx, "links: out of memory while building the report");
	else
		status = run_partial_complete_locked(&r->report, r->c.finished_utc);
	run_partial_unlock(&r->report);
	return status;
}

/*
 * scheduler_clear's view of a pair: the larger share of its two ranks'
 * waits, in its ping-pongs for a latency, over its whole time for a bandwidth.
 */
static double wait_of_pair(const void *view, int a, int b, enum detect_metric m)
{
	return m == DETECT_LATENCY ? link_cpu_wait_latency(view, a, b) : link_cpu_wait(view, a, b);
}

/* traffic_clear's view of a suspect. */
static double other_traffic(const void *view, const struct detect_suspect *s, double *most)
{
	return links_other_traffic(view, s, most);
}

/* Did the pattern run: the shift (shift true) or the isolated pairs? */
static bool pattern_ran(const struct links_run *r, const struct links_view *v, bool shift)
{
	return shift ? v->shift != NULL : (r->o->pattern & LINKS_PAIRS) != 0;
}

/*
 * traffic_clear_cells on each pattern's room; the isolated pairs say which
 * cells were alone (the shift's ran at once). How many, or -1 out of memory.
 */
static int clear_by_cells(struct links_run *r, const struct links_view *v)
{
	size_t nh = (size_t)v->nhosts;
	double *other = malloc((nh * nh + 1) * sizeof *other);
	int cleared = other ? 0 : -1;
	for (int shift = 0; cleared >= 0 && shift < 2; shift++) {
		if (!pattern_ran(r, v, shift))
			continue;
		if (links_room_host_matrix(v, shift, r->cells) != 0 ||
		    (!shift && links_other_host_matrix(v, other) != 0)) {
			cleared = -1;
			break;
		}
		int n = traffic_clear_cells(&r->final, r->cells, shift ? NULL : other, v->nhosts,
		                            shift, &r->o->detect);
		cleared = n < 0 ? -1 : cleared + n;
	}
	free(other);
	return cleared;
}

/*
 * A link or a host only the shift names, fine alone (alone.h): how many it
 * cleared, or -1 when out of memory.
 */
static int clear_alone(struct links_run *r, const struct links_view *v)
{
	if (!pattern_ran(r, v, true) || !pattern_ran(r, v, false))
		return 0;
	if (links_judged_host_matrix(v, false, r->cells) != 0)
		return -1;
	int cleared = alone_clear(&r->final, r->cells, v->nhosts, r->info_pairs[1].expected,
	                          &r->o->detect);
	size_t nh = (size_t)v->nhosts;
	double *bidir = malloc((nh * nh + 1) * sizeof *bidir);
	int n = !bidir || links_bidir_host_matrix(v, bidir) != 0
	            ? -1
	            : alone_clear_hosts(&r->final, r->cells, bidir, v->nhosts,
	                                r->info_pairs[1].expected, &r->o->detect);
	free(bidir);
	return n < 0 ? -1 : cleared + n;
}

/*
 * What a confirmed segment explains (segment_links.h), each pattern's hosts on
 * its matrix, then links; then one cut, one accusation. How many, or -1.
 */
static int clear_by_segments(struct links_run *r, const struct links_view *v)
{
	int cleared = 0;
	for (int shift = 0; shift < 2; shift++) {
		if (!pattern_ran(r, v, shift))
			continue;
		int n = links_judged_host_matrix(v, shift, r->cells) != 0
		            ? -1
		            : segment_clear_hosts(&r->final, r->cells, shift, &r->o->detect);
		if (n < 0)
			return -1;
		cleared += n;
	}
	cleared += segment_clear_links(&r->final, &r->o->detect);
	return cleared + segment_clear_repeats(&r->final);
}

/*
 * Rank 0: un-confirms the final suspects that the scheduler or another job's
 * traffic explains (scheduler.h, traffic.h), that are fine alone, or that a
 * segment explains; how many, or -1 when out of memory.
 */
static int clear_busy(struct links_run *r, const struct links_view *v)
{
	double typical[DETECT_METRICS] = {[DETECT_LATENCY] = links_typical_cpu_wait_latency(v),
	                                  [DETECT_BANDWIDTH] = links_typical_cpu_wait(v)};
	int cleared = scheduler_clear(&r->final, wait_of_pair, v, typical, &r->o->detect);
	cleared += traffic_clear(&r->final, other_traffic, v, &r->o->detect);
	/* then cell by cell, each pattern: a host beside a fault and a stream (traffic.h) */
	int by_cells = clear_by_cells(r, v);
	int alone = by_cells < 0 ? -1 : clear_alone(r, v);
	/* last: a segment the clearings above confirmed explains its cells named as hosts or links */
	int by_segments = alone < 0 ? -1 : clear_by_segments(r, v);
	return by_segments < 0 ? -1 : cleared + by_cells + alone + by_segments;
}

/* Rank 0: the verdict, stdout, the report and the exit code. */
static int conclude(struct links_run *r)
{
	struct links_view v = links_view_of(r);
	struct links_judgement j = judgement_of(r);
	int status = EXIT_OK, confirmed;
	detect_result_release(&r->final);
	const struct detect_result *accused = r->has_standing ? &r->standing : &r->first;
	confirmed = links_judge_round(r, r->planned ? r->planned : accused, accused, &r->final);
	if (confirmed < 0) {
		cmd_error(r->ctx, "links: out of memory in the detector");
		return EXIT_RUNTIME;
	}
	if (clear_busy(r, &v) < 0) {
		cmd_error(r->ctx, "links: out of memory in the detector");
		return EXIT_RUNTIME;
	}
	/* counted again: a clearing may also confirm a segment the traffic had hidden */
	confirmed = detect_confirmed_count(&r->final);
	run_context_end(&r->c);
	if (r->hand) { /* inside another command, which says what it makes of it */
		struct links_coverage cov;
		links_coverage_of(r, &cov);
		return r->hand(r->hand_arg, &v, &r->final, &cov) == 0 ? EXIT_OK : EXIT_RUNTIME;
	}
	r->print(&v, r->o, &j);
	links_print_coverage(r);
	if (r->o->out.output)
		status = write_report(r);
	if (status == EXIT_OK && confirmed > 0 && r->o->fail_on_suspect)
		status = EXIT_CHECK_FAILED;
	return status;
}

static int run(struct links_run *r)
{
	int status = run_alloc(r);
	if (status == EXIT_OK)
		status = links_measure_plan(r);
	if (status == EXIT_OK && r->o->pattern & LINKS_SHIFT && r->ctx->nranks > 1)
		status = links_measure_shift(r, false);
	bool failed = status == EXIT_OK && r->ctx->rank == 0 && links_judge(r, &r->first, 0) != 0;
	if (failed)
		cmd_error(r->ctx, "links: out of memory in the detector");
	if (status == EXIT_OK && run_any(r->ctx, failed))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = links_remeasure(r);
	if (status == EXIT_OK && r->ctx->rank == 0)
		status = conclude(r);
	return status;
}

int links_measure(const struct cmd_ctx *ctx, const struct links_opts *o, links_outcome_fn hand,
                  void *arg)
{
	struct links_run r = {.ctx = ctx, .eff = *o, .hand = hand, .hand_arg = arg};
	r.o = &r.eff;
	topo_map_init(&r.map);
	report_context_init(&r.c);
	detect_result_init(&r.first);
	detect_result_init(&r.final);
	run_partial_init(&r.report, ctx);
	int status = run_context_begin(ctx, &r.c, &r.map) == 0 ? links_choose(&r) : EXIT_RUNTIME;
	links_print_plan(&r, false);
	if (status == EXIT_OK)
		status = run(&r);
	run_release(&r);
	return status;
}

int links_run(const struct cmd_ctx *ctx, const struct links_opts *o, links_print_fn print)
{
	struct links_run r = {.ctx = ctx, .eff = *o, .print = print};
	r.o = &r.eff;
	topo_map_init(&r.map);
	report_context_init(&r.c);
	detect_result_init(&r.first);
	detect_result_init(&r.final);
	run_partial_init(&r.report, ctx);
	int status = run_check_output(ctx, "links", &o->out);
	if (status == EXIT_OK && run_context_begin(ctx, &r.c, &r.map) != 0)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = links_choose(&r);
	if (status == EXIT_OK) {
		links_print_plan(&r, true);
		status = start_report(&r);
	}
	if (status == EXIT_OK &&
	    watchdog_start(ctx, "links", o->timeout_s, run_partial_on_hang, &r.report) != 0)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = run(&r);
	progress_step(PROGRESS_DONE, 0);
	watchdog_stop();
	run_release(&r);
	return status;
}
