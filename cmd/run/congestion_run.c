/*
 * collscope congestion, measured (issue 31). The job is split into groups
 * (probes/groups.h), a communicator each. For every point (size outer,
 * variant inner) each victim group is measured alone while every other rank
 * naps in a barrier, then every victim group at once while the aggressors
 * run their congestor. A group that finishes first keeps running its
 * all-reduce, untimed, until every rank of the job has entered one
 * MPI_Ibarrier: the load on the others holds until the last group is done,
 * as it would beside another job. Each group's rank 0 measures its point
 * through the sweep (cmd/run/sweep.h) and ships its record, as JSON, to
 * rank 0, which keeps the figures (reports/io/congestion_report.h) and
 * writes the record into the report with its group and phase.
 */
#include <mpi.h>

#include "cmd/run/congestion_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algorithms/progress.h"
#include "probes/groups.h"
#include "reports/io/report_schema.h"
#include "reports/render/fixed.h"

enum { TAG_RECORD_BYTES = 7301, TAG_RECORD = 7302, MAX_RECORD_BYTES = 1 << 24 };

static const char *const phase_names[] = {"alone", "together"};

/* Every rank: the same split from the same inputs, so no rank needs telling. */
static int split_units(struct congestion_run *run, bool by_host, int nunits, int *unit_group,
                       char *why, size_t len)
{
	const struct congestion_opts *o = run->o;
	const char *unit = by_host ? "host" : "rank";
	if (o->split == GROUPS_GIVEN) {
		if (groups_parse_given(o->split_list, nunits, unit, unit_group, &run->k, why, len))
			return -1;
		if (o->groups && o->groups != run->k) {
			snprintf(why, len, "--groups %d but --split '%s' makes %d groups",
			         o->groups, o->split_list, run->k);
			return -1;
		}
		return 0;
	}
	run->k = o->groups ? o->groups : 2;
	if (run->k > nunits) {
		snprintf(why, len,
		         "--groups %d needs %d %ss; the job has %d (a group owns whole %ss)",
		         run->k, run->k, unit, nunits, unit);
		return -1;
	}
	if (groups_split_units((enum groups_split)o->split, run->k, nunits, o->seed, unit_group)) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	return 0;
}

/* group_of_rank and root_of_group; a group of one rank, or no victim, is refused. */
static int assign(struct congestion_run *run, char *why, size_t len)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	const struct topo_map *map = &run->sweep.map;
	bool by_host = map->nhosts >= 2;
	int nunits = by_host ? map->nhosts : ctx->nranks;
	int *unit_group = malloc((size_t)nunits * sizeof *unit_group);
	int rc = -1;
	run->sum.by_host = by_host;
	if (!unit_group || split_units(run, by_host, nunits, unit_group, why, len) != 0)
		goto out;
	run->victims = run->k - run->o->aggressors;
	run->group_of_rank = malloc((size_t)ctx->nranks * sizeof *run->group_of_rank);
	run->root_of_group = malloc((size_t)run->k * sizeof *run->root_of_group);
	if (!run->group_of_rank || !run->root_of_group) {
		snprintf(why, len, "out of memory");
		goto out;
	}
	if (run->victims < 1) {
		snprintf(why, len, "--aggressors %d leaves no victim among %d groups",
		         run->o->aggressors, run->k);
		goto out;
	}
	int smallest = groups_of_ranks(unit_group, by_host, map->host_of_rank, ctx->nranks, run->k,
	                               run->group_of_rank);
	if (smallest < 2) {
		snprintf(why, len, "a group of %d rank%s: every group needs 2 ranks or more",
		         smallest, smallest == 1 ? "" : "s");
		goto out;
	}
	for (int g = 0; g < run->k; g++)
		run->root_of_group[g] = -1;
	for (int r = ctx->nranks - 1; r >= 0; r--)
		run->root_of_group[run->group_of_rank[r]] = r;
	rc = 0;
out:
	free(unit_group);
	return rc;
}

/* Rank 0: who is in each group, for the summary. */
static int describe_groups(struct congestion_run *run)
{
	const struct topo_map *map = &run->sweep.map;
	const int n = run->sweep.ctx->nranks;
	struct congestion_summary *sum = &run->sum;
	sum->ngroups = run->k;
	sum->groups = calloc((size_t)run->k, sizeof *sum->groups);
	if (!sum->groups)
		return -1;
	for (int g = 0; g < run->k; g++) {
		struct congestion_group *gr = &sum->groups[g];
		gr->aggressor = g >= run->victims;
		gr->world_ranks = malloc((size_t)n * sizeof *gr->world_ranks);
		gr->hosts = malloc((size_t)map->nhosts * sizeof *gr->hosts);
		if (!gr->world_ranks || !gr->hosts)
			return -1;
		for (int h = 0; h < map->nhosts; h++) {
			bool in = false;
			for (int r = 0; r < n; r++)
				in |= map->host_of_rank[r] == h && run->group_of_rank[r] == g;
			if (in)
				gr->hosts[gr->nhosts++] = h;
		}
		for (int r = 0; r < n; r++)
			if (run->group_of_rank[r] == g)
				gr->world_ranks[gr->nranks++] = r;
	}
	return 0;
}

/* This rank's group communicator; the aggressors' congestor. An exit code, agreed. */
static int make_groups(struct congestion_run *run)
{
	struct cmd_ctx *ctx = run->sweep.ctx;
	char why[512], msg[MPI_MAX_ERROR_STRING];
	if (assign(run, why, sizeof why) != 0) {
		cmd_error(ctx, "congestion: %s", why);
		return EXIT_USAGE;
	}
	run->my_group = run->group_of_rank[ctx->rank];
	run->aggressor = run->my_group >= run->victims;
	struct sweep_comm *c = &run->group;
	int rc = MPI_Comm_split(ctx->comm, run->my_group, ctx->rank, &c->comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_rank(c->comm, &c->rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(c->comm, &c->nranks);
	if (rc == MPI_SUCCESS && run->aggressor)
		rc =
		    congestor_init(&run->congestor, c->comm, (enum congestor_kind)run->o->congestor,
		                   run->o->congestor_bytes);
	if (rc != MPI_SUCCESS)
		cmd_rank_error(ctx, "congestion: cannot make group %d: %s", run->my_group,
		               run_mpi_error_text(rc, msg, sizeof msg));
	bool failed = rc != MPI_SUCCESS || (ctx->rank == 0 && describe_groups(run) != 0);
	if (run_any(ctx, failed))
		return EXIT_RUNTIME;
	c->hosts = ctx->rank == 0 ? run->sum.groups[run->my_group].nhosts : 0;
	return EXIT_OK;
}

struct ar_call congestion_busy_call(const struct congestion_run *run)
{
	const struct sweep *s = &run->sweep;
	void *in, *out;
	bench_bufs_of(&s->bufs, ar_variants[run->busy_variant], &in, &out);
	return (struct ar_call){.comm = run->group.comm,
	                        .rank = run->group.rank,
	                        .nranks = run->group.nranks,
	                        .input = in,
	                        .result = out,
	                        .count = run->busy_count,
	                        .dtype = s->o->dtype,
	                        .op = s->o->op,
	                        .scratch = s->bufs.scratch};
}

/* One untimed all-reduce of this rank's group: the point it measured last. */
static int busy_allreduce(struct congestion_run *run)
{
	struct ar_call call = congestion_busy_call(run);
	return exec_run(&run->sweep.plans[run->busy_variant], &call);
}

int congestion_hold_load(struct congestion_run *run, MPI_Request *done, bool idle)
{
	const struct timespec nap = {0, 200000L}; /* 0.2 ms */
	bool load = !idle && (run->aggressor || run->busy_ready);
	int rc = MPI_SUCCESS, seen = 0, any = 0;
	for (int64_t round = 0; rc == MPI_SUCCESS && !any; round++) {
		if (load)
			rc =
			    run->aggressor ? congestor_round(&run->congestor) : busy_allreduce(run);
		progress_step(PROGRESS_TIMED, round);
		if (rc == MPI_SUCCESS && !seen)
			rc = MPI_Test(done, &seen, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && load) /* the group leaves together */
			rc = MPI_Allreduce(&seen, &any, 1, MPI_INT, MPI_MAX, run->group.comm);
		else
			any = seen;
		if (rc == MPI_SUCCESS && !any && !load)
			nanosleep(&nap, NULL);
	}
	if (rc == MPI_SUCCESS && !seen)
		rc = MPI_Wait(done, MPI_STATUS_IGNORE);
	return rc;
}

/* A group's rank 0: its point as a record, printed to a string (owned; NULL: no memory). */
static char *record_text(struct congestion_run *run, struct ar_record *r,
                         const struct bench_result *br)
{
	struct sweep *s = &run->sweep;
	cJSON *arr = cJSON_CreateArray();
	char *text = NULL;
	if (arr && (!br || run_record_measured(r, br, &s->bufs, s->o->check) == 0) &&
	    ar_record_to_json(arr, r))
		text = cJSON_PrintUnformatted(arr->child);
	cJSON_Delete(arr);
	return text;
}

static double number_at(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* Rank 0: a shipped record into the report (with its group and phase) and the figures. */
static int keep_record(struct congestion_run *run, int g, int phase, const char *text,
                       struct congestion_point *p)
{
	struct sweep *s = &run->sweep;
	cJSON *rec = cJSON_Parse(text);
	const cJSON *t = rec ? cJSON_GetObjectItemCaseSensitive(rec, SK_AR_TIME_US) : NULL;
	struct interference_figures f = {.mean_us = number_at(t, SK_TIME_MEAN),
	                                 .p50_us = number_at(t, SK_TIME_P50),
	                                 .p99_us = number_at(t, SK_TIME_P99),
	                                 .busbw_gbps = number_at(rec, SK_AR_BUSBW_GBPS)};
	double iters = number_at(rec, SK_AR_ITERATIONS), wrong = number_at(rec, SK_AR_WRONG);
	*(phase ? &p->together : &p->alone) = f;
	*(phase ? &p->iterations_together : &p->iterations_alone) = isnan(iters) ? 0 : (int)iters;
	if (isnan(wrong))
		p->wrong = -1;
	else if (wrong > 0)
		p->wrong = (p->wrong > 0 ? p->wrong : 0) + (int64_t)wrong;
	bool ok = rec && cJSON_AddNumberToObject(rec, SK_CONG_GROUP, g) &&
	          cJSON_AddStringToObject(rec, SK_CONG_PHASE, phase_names[phase]);
	run_partial_lock(&s->report);
	ok = ok && cJSON_AddItemToArray(s->results, rec);
	run_partial_unlock(&s->report);
	if (!ok)
		cJSON_Delete(rec);
	return ok ? 0 : -1;
}

/*
 * Every victim group's rank 0 sends its record text (mine, when this rank is
 * one) to rank 0, which keeps them into points[g]. An exit code, agreed.
 */
static int ship(struct congestion_run *run, int phase, int only_group, char *mine,
                struct congestion_point *points)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	int failed = 0;
	for (int g = 0; g < run->victims; g++) {
		if (only_group >= 0 && g != only_group)
			continue;
		int root = run->root_of_group[g];
		if (ctx->rank == root && root != 0) {
			int n = mine ? (int)strlen(mine) + 1 : 0;
			failed |= MPI_Send(&n, 1, MPI_INT, 0, TAG_RECORD_BYTES, ctx->comm) !=
			              MPI_SUCCESS ||
			          (n && MPI_Send(mine, n, MPI_CHAR, 0, TAG_RECORD, ctx->comm) !=
			                    MPI_SUCCESS);
		}
		if (ctx->rank != 0)
			continue;
		char *text = root == 0 ? mine : NULL;
		int n = 0;
		if (root != 0) {
			failed |= MPI_Recv(&n, 1, MPI_INT, root, TAG_RECORD_BYTES, ctx->comm,
			                   MPI_STATUS_IGNORE) != MPI_SUCCESS;
			text = n > 0 && n <= MAX_RECORD_BYTES ? malloc((size_t)n) : NULL;
			if (text)
				failed |= MPI_Recv(text, n, MPI_CHAR, root, TAG_RECORD, ctx->comm,
				                   MPI_STATUS_IGNORE) != MPI_SUCCESS;
		}
		failed |= !text || keep_record(run, g, phase, text, &points[g]) != 0;
		if (text != mine)
			free(text);
	}
	if (run_any(ctx, failed)) {
		cmd_error(ctx, "congestion: cannot gather the groups' records");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/*
 * The members of this rank's group measure (v, size) when `measure`, its
 * rank 0 returning the record text in *text; the others' r is only checked
 * for a skip. An exit code, agreed within the group.
 */
static int measure_group(struct congestion_run *run, int v, uint64_t size, bool measure,
                         char **text)
{
	struct sweep *s = &run->sweep;
	struct ar_record r;
	struct bench_result br;
	int status = EXIT_OK;
	sweep_record_init(s, v, size, &run->group, &r);
	if (!measure)
		return EXIT_OK;
	if (!r.skipped)
		status = sweep_measure(s, v, &run->group, &r, &br);
	if (status == EXIT_OK && !r.skipped) {
		run->busy_variant = v;
		run->busy_count = r.count;
		run->busy_ready = true;
	}
	if (status == EXIT_OK && run->group.rank == 0 &&
	    !(*text = record_text(run, &r, r.skipped ? NULL : &br)))
		status = EXIT_RUNTIME;
	return status;
}

/* Each victim alone, the others napping. */
static int phase_alone(struct congestion_run *run, int v, uint64_t size,
                       struct congestion_point *points)
{
	int status = EXIT_OK;
	for (int g = 0; g < run->victims && status == EXIT_OK; g++) {
		char *text = NULL;
		run->busy_ready = false;
		status = measure_group(run, v, size, run->my_group == g, &text);
		status = sweep_agree(&run->sweep, status);
		if (status == EXIT_OK)
			status = ship(run, 0, g, text, points);
		free(text);
	}
	return status;
}

/* Every victim at once, the aggressors loading, each holding its load until all are done. */
static int phase_together(struct congestion_run *run, int v, uint64_t size,
                          struct congestion_point *points)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	char *text = NULL, msg[MPI_MAX_ERROR_STRING];
	MPI_Request done;
	run->busy_ready = false;
	int status = measure_group(run, v, size, !run->aggressor, &text);
	int rc = MPI_Ibarrier(ctx->comm, &done);
	if (rc == MPI_SUCCESS)
		/* whether this group loads is busy_ready, which its members agree on (a status
		   may be one rank's: its record's memory) */
		rc = congestion_hold_load(run, &done, false);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(ctx, "congestion: while holding the load: %s",
		               run_mpi_error_text(rc, msg, sizeof msg));
		status = EXIT_RUNTIME;
	}
	status = sweep_agree(&run->sweep, status);
	if (status == EXIT_OK)
		status = ship(run, 1, -1, text, points);
	free(text);
	return status;
}

static void progress_line(struct congestion_run *run, const struct congestion_point *p, int n)
{
	char line[1024];
	size_t used = 0;
	for (int i = 0; i < n && used < sizeof line; i++) {
		char a[32], t[32];
		report_fixed(a, sizeof a, p[i].alone.busbw_gbps, 3, 3);
		report_fixed(t, sizeof t, p[i].together.busbw_gbps, 3, 3);
		int k = snprintf(line + used, sizeof line - used,
		                 "%sgroup %d busbw %s alone, %s together (x%.2f)", i ? "; " : "",
		                 p[i].group, a, t, p[i].f.busbw);
		used += k > 0 ? (size_t)k : 0;
	}
	cmd_progress(run->sweep.ctx, run->o->out.quiet, "congestion: [%d/%d] %s %llu bytes: %s",
	             ++run->sweep.done, run->sweep.total, p[0].algorithm,
	             (unsigned long long)p[0].bytes, line);
}

static int point(struct congestion_run *run, int v, uint64_t size)
{
	struct congestion_point *points = calloc((size_t)run->victims, sizeof *points);
	int status = points ? sweep_resync_if_old(&run->sweep) : EXIT_RUNTIME;
	if (run_any(run->sweep.ctx, status != EXIT_OK))
		status = status != EXIT_OK ? status : EXIT_RUNTIME;
	for (int g = 0; points && g < run->victims; g++)
		points[g] = (struct congestion_point){
		    .algorithm = ar_variants[v]->name, .bytes = size, .group = g};
	if (status == EXIT_OK)
		status = phase_alone(run, v, size, points);
	if (status == EXIT_OK)
		status = phase_together(run, v, size, points);
	if (status == EXIT_OK && run->sweep.ctx->rank == 0) {
		size_t w = ar_dtype_bytes(run->o->sweep.dtype);
		for (int g = 0; g < run->victims && status == EXIT_OK; g++) {
			points[g].bytes = size / w * w;
			if (congestion_summary_add(&run->sum, &points[g]) != 0)
				status = EXIT_RUNTIME;
			points[g] = run->sum.points[run->sum.npoints - 1];
		}
		if (status == EXIT_OK)
			progress_line(run, points, run->victims);
		status = status == EXIT_OK ? run_partial_flush(&run->sweep.report) : status;
	}
	free(points);
	return sweep_agree(&run->sweep, status);
}

/* sweep_finish's callback: the summary, the table. */
static int summarize(void *arg, cJSON *root)
{
	struct congestion_run *run = arg;
	const char *verdict;
	if (!congestion_report_add_summary(root, &run->sum, &verdict)) {
		cmd_error(run->sweep.ctx, "congestion: out of memory for the summary");
		return EXIT_RUNTIME;
	}
	run->print(run->o, &run->sum, &run->sweep.context);
	return strcmp(verdict, "wrong results") == 0 ? EXIT_WRONG : EXIT_OK;
}

/* Rank 0: the hosts' names, for the summary (borrowed from the context). */
static int host_names(struct congestion_run *run)
{
	const struct report_context *c = &run->sweep.context;
	const char **names = calloc((size_t)(c->nhosts ? c->nhosts : 1), sizeof *names);
	for (int h = 0; names && h < c->nhosts; h++)
		names[h] = c->hosts[h].name;
	run->names = names;
	run->sum.host_names = names;
	return names ? 0 : -1;
}

int congestion_measure(struct cmd_ctx *ctx, const struct congestion_opts *o,
                       congestion_print_fn print)
{
	struct congestion_run run = {.o = o, .print = print, .group = {.comm = MPI_COMM_NULL}};
	struct sweep *s = &run.sweep;
	int nvariants = 0;
	for (int v = 0; ar_variants[v]; v++)
		nvariants += o->sweep.variants[v];
	congestion_summary_init(&run.sum);
	run.sum.tolerance = o->tolerance;
	sweep_init(s, ctx, "congestion", &o->sweep, false, o->out.quiet);
	int status = run_check_output(ctx, "congestion", &o->out);
	if (status == EXIT_OK)
		status = sweep_setup(s, o->sweep.nsizes * nvariants);
	if (status == EXIT_OK)
		status = sweep_begin(s, &congestion_spec, o, &o->out, o->timeout_s);
	if (status == EXIT_OK && run_any(ctx, ctx->rank == 0 && host_names(&run) != 0))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = make_groups(&run);
	for (int i = 0; i < o->sweep.nsizes && status == EXIT_OK; i++)
		for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
			if (o->sweep.variants[v])
				status = point(&run, v, o->sweep.sizes[i]);
	if (status == EXIT_OK && o->where != WHERE_NEVER)
		status = congestion_where(&run);
	sweep_end(s);
	if (status == EXIT_OK && ctx->rank == 0)
		status = sweep_finish(s, summarize, &run);
	if (run.aggressor)
		congestor_release(&run.congestor);
	if (run.group.comm != MPI_COMM_NULL)
		MPI_Comm_free(&run.group.comm);
	sweep_release(s);
	congestion_summary_release(&run.sum);
	free(run.group_of_rank);
	free(run.root_of_group);
	free(run.names);
	return status;
}
