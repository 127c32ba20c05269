/*
 * collscope scale: the same all-reduce over sub-communicators of growing
 * size. Rank counts outer (one MPI_Comm_split each), then sizes, then
 * variants. Ranks outside the current communicator wait in a barrier that
 * sleeps between polls, so that on a small machine they leave the cores to
 * the ranks being measured; every rank meets every other at that barrier
 * after each point, and all agree on the status there.
 */
#include <mpi.h>

#include "allreduce_trace.h"
#include "ar_report.h"
#include "bench.h"
#include "partial.h"
#include "progress.h"
#include "scale.h"
#include "topo.h"
#include "watchdog.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct scale_run {
	struct cmd_ctx *ctx;
	const struct scale_opts *o;
	const struct topo_map *map;
	int *order; /* world ranks in the order they join a communicator */
	struct bench_bufs bufs;
	struct bench_cfg cfg;
	struct exec_plan plans[SCALE_MAX_VARIANTS];
	bool planned[SCALE_MAX_VARIANTS];
	struct scale_results res; /* rank 0 */
	cJSON *results;           /* rank 0 */
	struct cmd_partial report; /* rank 0's root, written after every point and on a hang */
	int done, total;
	struct cmd_trace trace; /* --trace */
};

/* One communicator of the sweep, as this rank sees it. */
struct scale_comm {
	MPI_Comm comm; /* MPI_COMM_NULL when this rank is not in it */
	int rank, nranks, hosts;
};

static int setup(struct scale_run *s)
{
	const struct scale_opts *o = s->o;
	uint64_t need;
	int status =
	    cmd_check_memory(s->ctx, "scale", o->sizes[o->nsizes - 1], o->segment_bytes,
	                     cmd_needs_shared(o->variants), &need);
	if (status != EXIT_OK)
		return status;
	int max_samples = o->iters ? o->iters : SCALE_ADAPTIVE_MAX_ITERS;
	bool failed = bench_bufs_alloc(&s->bufs, o->sizes[o->nsizes - 1],
	                               exec_scratch_bound_bytes(o->segment_bytes), max_samples,
	                               s->ctx->nranks) != 0;
	failed = failed || !(s->order = calloc((size_t)s->ctx->nranks, sizeof *s->order));
	if (failed)
		cmd_rank_error(s->ctx, "scale: cannot allocate %llu bytes of buffers",
		               (unsigned long long)need);
	if (cmd_any(s->ctx, failed))
		return EXIT_RUNTIME;
	status = cmd_alloc_shared(s->ctx, "scale", o->variants, &s->bufs);
	if (status != EXIT_OK)
		return status;
	s->cfg = (struct bench_cfg){.warmup = o->warmup,
	                            .iters = o->iters,
	                            .budget_s = o->time_per_size_s,
	                            .min_iters = SCALE_ADAPTIVE_MIN_ITERS,
	                            .max_iters = SCALE_ADAPTIVE_MAX_ITERS,
	                            .check = o->check};
	for (int i = 0; ar_variants[i]; i++)
		s->total += o->variants[i] ? o->nsizes * o->nranks : 0;
	return EXIT_OK;
}

/* A barrier that naps between polls: waiting ranks leave the cores to the measured ones. */
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

/* Every rank of the job meets here after a point and leaves with the worst status. */
static int agree(const struct scale_run *s, int status)
{
	char msg[MPI_MAX_ERROR_STRING];
	int worst = status;
	int rc = quiet_barrier(s->ctx->comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, s->ctx->comm);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "scale: cannot agree on the status: %s",
		               cmd_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	return worst;
}

/* Rank 0: one measured (br) or skipped (NULL) point into its record and its row. */
static int record_point(struct scale_run *s, int v, struct ar_record *r, int hosts,
                        const struct bench_result *br)
{
	struct scale_entry e = {.variant = v, .count = r->count};
	if (br) {
		if (cmd_record_measured(r, br, &s->bufs, s->o->check) != 0)
			return -1;
		s->res.measured[v]++;
		s->res.wrong[v] += br->wrong;
		if (br->wrong)
			cmd_describe_wrong(s->ctx, r, br);
	} else {
		s->res.skipped[v]++;
	}
	e.row = (struct scale_row){.algorithm = r->algorithm,
	                           .bytes = r->bytes,
	                           .ranks = r->ranks,
	                           .hosts = hosts,
	                           .skipped = r->skipped,
	                           .p50_us = r->time.p50_us,
	                           .p99_us = r->time.p99_us,
	                           .busbw_gbps = r->busbw_gbps};
	e.rec = ar_record_to_json(s->results, r);
	/* the communicator's rank 0 is the world's (the placement order starts with it) */
	if (e.rec && br && cmd_trace_record(&s->trace, e.rec, v, r->bytes, r->ranks, s->order) != 0)
		return -1;
	if (!e.rec ||
	    !cJSON_AddStringToObject(e.rec, "placement", s->o->spread ? "spread" : "packed") ||
	    !scale_results_add(&s->res, &e))
		return -1;
	if (r->skipped)
		cmd_progress(s->ctx, s->o->quiet,
		             "scale: [%d/%d] %s %llu bytes on %d ranks: skipped (%s)", ++s->done,
		             s->total, r->algorithm, (unsigned long long)r->bytes, r->ranks,
		             r->skipped);
	else
		cmd_progress(
		    s->ctx, s->o->quiet,
		    "scale: [%d/%d] %s %llu bytes on %d ranks (%d host%s): p50 %.2f us, busbw "
		    "%.3f GB/s, %d iterations%s",
		    ++s->done, s->total, r->algorithm, (unsigned long long)r->bytes, r->ranks,
		    hosts, hosts == 1 ? "" : "s", r->time.p50_us, r->busbw_gbps, r->iterations,
		    br->wrong ? ", WRONG" : "");
	return 0;
}

/* Members of c: measure one (variant, size) point on it. Returns an exit code. */
static int measure(struct scale_run *s, int v, const struct scale_comm *c, struct ar_record *r,
                   struct bench_result *br)
{
	const struct ar_variant *var = ar_variants[v];
	const struct scale_opts *o = s->o;
	char msg[MPI_MAX_ERROR_STRING];
	bool failed = s->planned[v] ? exec_plan_rebuild(&s->plans[v], c->rank, c->nranks, r->count,
	                                                o->dtype, o->segment_bytes) != 0
	                            : exec_plan_init(&s->plans[v], var, c->rank, c->nranks,
	                                             r->count, o->dtype, o->segment_bytes) != 0;
	s->planned[v] = true;
	if (failed) {
		cmd_rank_error(s->ctx, "scale: %s: cannot build the schedule of %llu bytes",
		               var->name, (unsigned long long)r->bytes);
		return EXIT_RUNTIME;
	}
	struct ar_call call = {.comm = c->comm,
	                       .rank = c->rank,
	                       .nranks = c->nranks,
	                       .count = r->count,
	                       .dtype = o->dtype,
	                       .op = o->op,
	                       .trace = cmd_trace_ring(&s->trace)};
	int rc = bench_point(&s->plans[v], &call, false, &s->cfg, &s->bufs, br);
	if (rc == MPI_SUCCESS)
		rc = cmd_trace_collect(&s->trace, c->comm, v, r->bytes);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "scale: %s at %llu bytes on %d ranks: %s", var->name,
		               (unsigned long long)r->bytes, c->nranks,
		               cmd_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* One (variant, size) point: members measure, rank 0 records, everyone agrees. */
static int run_point(struct scale_run *s, int v, uint64_t size_bytes, const struct scale_comm *c)
{
	const struct scale_opts *o = s->o;
	size_t w = ar_dtype_bytes(o->dtype);
	struct bench_result br;
	struct ar_record r = {.algorithm = ar_variants[v]->name,
	                      .dtype = ar_dtype_name(o->dtype),
	                      .op = ar_op_name(o->op),
	                      .count = size_bytes / w,
	                      .ranks = c->nranks,
	                      .straggler_rank = -1};
	int status = EXIT_OK;
	r.bytes = r.count * w;
	/* every rank ticks once per point, members or not: idle ranks are not hung */
	progress_point(v, r.bytes);
	progress_step(c->comm != MPI_COMM_NULL ? PROGRESS_START : PROGRESS_IDLE, c->nranks);
	r.skipped = bench_variant_skipped(&s->bufs, ar_variants[v], c->nranks, o->op);
	if (!r.skipped && c->comm != MPI_COMM_NULL)
		status = measure(s, v, c, &r, &br);
	if (status == EXIT_OK && s->ctx->rank == 0) {
		cmd_partial_lock(&s->report);
		int failed = record_point(s, v, &r, c->hosts, r.skipped ? NULL : &br);
		cmd_partial_unlock(&s->report);
		if (failed)
			cmd_error(s->ctx, "scale: out of memory while recording results");
		status = failed ? EXIT_RUNTIME : cmd_partial_flush(&s->report);
	}
	return agree(s, status);
}

/* The communicator of the first n ranks of the placement order, and every point on it. */
static int run_count(struct scale_run *s, int n)
{
	char msg[MPI_MAX_ERROR_STRING];
	struct scale_comm c = {.comm = MPI_COMM_NULL, .nranks = n};
	int pos = -1, status = EXIT_OK;
	for (int i = 0; i < n; i++)
		if (s->order[i] == s->ctx->rank)
			pos = i;
	c.hosts = scale_hosts_spanned(s->map->host_of_rank, s->order, n);
	int rc = MPI_Comm_split(s->ctx->comm, pos >= 0 ? 0 : MPI_UNDEFINED, pos, &c.comm);
	if (rc == MPI_SUCCESS && c.comm != MPI_COMM_NULL)
		rc = MPI_Comm_set_errhandler(c.comm, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS && c.comm != MPI_COMM_NULL)
		rc = MPI_Comm_rank(c.comm, &c.rank);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "scale: cannot make the communicator of %d ranks: %s", n,
		               cmd_mpi_error_text(rc, msg, sizeof msg));
		status = EXIT_RUNTIME;
	}
	status = agree(s, status);
	for (int i = 0; i < s->o->nsizes && status == EXIT_OK; i++)
		for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
			if (s->o->variants[v])
				status = run_point(s, v, s->o->sizes[i], &c);
	if (c.comm != MPI_COMM_NULL)
		MPI_Comm_free(&c.comm);
	return status;
}

struct scale_entry *scale_results_add(struct scale_results *res, const struct scale_entry *e)
{
	if (res->n == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 64;
		struct scale_entry *grown = realloc(res->e, cap * sizeof *grown);
		if (!grown)
			return NULL;
		res->e = grown;
		res->cap = cap;
	}
	res->e[res->n] = *e;
	return &res->e[res->n++];
}

void scale_results_release(struct scale_results *res)
{
	free(res->e);
	memset(res, 0, sizeof *res);
}

static void print_header(const struct scale_run *s, const struct report_context *c)
{
	const struct scale_opts *o = s->o;
	if (s->ctx->rank != 0)
		return;
	printf("# collscope scale: %d ranks on %d host%s%s; %s %s; placement %s; rank counts",
	       s->ctx->nranks, c->nhosts, c->nhosts == 1 ? "" : "s",
	       c->oversubscribed ? " (oversubscribed)" : "", ar_dtype_name(o->dtype),
	       ar_op_name(o->op), o->spread ? "spread" : "packed");
	for (int i = 0; i < o->nranks; i++)
		printf("%s%d", i ? "," : " ", o->ranks[i]);
	printf("; sizes");
	for (int i = 0; i < o->nsizes; i++)
		printf("%s%llu", i ? "," : " ", (unsigned long long)o->sizes[i]);
	printf(" bytes\n# %s; times are the slowest rank's; busbw = algbw x 2(n-1)/n\n",
	       c->mpi_library);
	fflush(stdout);
}

/* summary.communicators: the world ranks and hosts of every communicator measured. */
static int add_communicators(const struct scale_run *s, cJSON *root)
{
	cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "summary");
	cJSON *arr = sum ? cJSON_AddArrayToObject(sum, "communicators") : NULL;
	for (int i = 0; arr && i < s->o->nranks; i++) {
		int n = s->o->ranks[i];
		cJSON *e = cJSON_CreateObject(), *ranks = NULL;
		if (!e || !cJSON_AddItemToArray(arr, e) ||
		    !cJSON_AddNumberToObject(e, "ranks", n) ||
		    !cJSON_AddNumberToObject(
		        e, "hosts", scale_hosts_spanned(s->map->host_of_rank, s->order, n)) ||
		    !(ranks = cJSON_AddArrayToObject(e, "world_ranks")))
			return -1;
		for (int k = 0; k < n; k++)
			if (!cJSON_AddItemToArray(ranks, cJSON_CreateNumber(s->order[k])))
				return -1;
	}
	return arr ? 0 : -1;
}

/* Rank 0, after the sweep: models, tables, summary and the report on disk. */
static int finish(struct scale_run *s, cJSON *root, struct report_context *rc)
{
	cmd_partial_lock(&s->report);
	int status = scale_model_run(s->ctx, s->o, &s->res, root), wrc = EXIT_OK;
	if (status == EXIT_OK || status == EXIT_WRONG) {
		cmd_context_end(rc);
		if (add_communicators(s, root) != 0 ||
		    cmd_trace_summarize(&s->trace, cJSON_GetObjectItemCaseSensitive(root, "summary"),
		                        false) != 0) {
			cmd_error(s->ctx, "scale: out of memory for the report");
			status = EXIT_RUNTIME;
		} else {
			wrc = cmd_partial_complete_locked(&s->report, rc->finished_utc);
		}
	}
	cmd_partial_unlock(&s->report);
	return wrc != EXIT_OK ? wrc : status;
}

/* Context, placement order and the report's skeleton; every rank. */
static int begin(struct scale_run *s, struct report_context *rc, struct topo_map *map, cJSON **root)
{
	if (cmd_context_begin(s->ctx, rc, map) != 0)
		return EXIT_RUNTIME;
	bool failed = scale_placement_order(map->host_of_rank, s->ctx->nranks, map->nhosts,
	                                    s->o->spread, s->order) != 0;
	if (!failed && s->ctx->rank == 0) {
		*root = cmd_report_new("scale", rc);
		s->results = *root && scale_opts_to_json(*root, s->o) &&
		                     cmd_partial_start(&s->report, *root, s->o->output, s->o->force) == 0
		                 ? cJSON_AddArrayToObject(*root, "results")
		                 : NULL;
		failed = !s->results;
	}
	if (cmd_any(s->ctx, failed)) {
		cmd_error(s->ctx, "scale: out of memory for the report");
		return EXIT_RUNTIME;
	}
	int status = s->ctx->rank == 0 ? cmd_partial_flush(&s->report) : EXIT_OK;
	if (cmd_any(s->ctx, status != EXIT_OK))
		return status != EXIT_OK ? status : EXIT_RUNTIME;
	print_header(s, rc);
	return EXIT_OK;
}

int cmd_scale(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct scale_opts o;
	struct report_context rc;
	struct topo_map map;
	struct scale_run s = {.ctx = ctx, .o = &o, .map = &map};
	cJSON *root = NULL;
	cmd_partial_init(&s.report, ctx);
	bool have_context = false;
	topo_map_init(&map);
	int status = scale_opts_parse(argc, argv, ctx, &o);
	if (status == EXIT_OK)
		status = setup(&s);
	if (status == EXIT_OK) {
		have_context = true;
		status = begin(&s, &rc, &map, &root);
	}
	if (status == EXIT_OK)
		status = cmd_trace_start(&s.trace, ctx, "scale", o.trace, o.trace_entries, &rc, &map);
	if (status == EXIT_OK && watchdog_start(ctx, "scale", o.timeout_s, cmd_partial_on_hang, &s.report) != 0)
		status = EXIT_RUNTIME;
	for (int i = 0; i < o.nranks && status == EXIT_OK; i++)
		status = run_count(&s, o.ranks[i]);
	progress_step(PROGRESS_DONE, 0);
	watchdog_stop();
	if (status == EXIT_OK && ctx->rank == 0)
		status = finish(&s, root, &rc);
	for (int v = 0; v < SCALE_MAX_VARIANTS; v++)
		if (s.planned[v])
			exec_plan_release(&s.plans[v]);
	cmd_trace_stop(&s.trace);
	bench_bufs_free(&s.bufs);
	free(s.order);
	scale_results_release(&s.res);
	cJSON_Delete(root);
	if (have_context)
		report_context_release(&rc);
	topo_map_release(&map);
	cmd_partial_release(&s.report);
	return status;
}
