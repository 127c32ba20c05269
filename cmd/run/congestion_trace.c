/*
 * Where a victim slows, from its own all-reduce (issue 31, item 3): its last
 * point, run again under the load with every step of every rank traced
 * (algorithms/trace.h), gathered on the group's rank 0 (trace_gather, clocks
 * aligned) and judged hop by hop (reports/diagnose/hops.h): a hop that alone
 * explains the delay is named with its hosts. The group's rank 0 ships the
 * trace and the named hops, as JSON, to rank 0: the where entry's "trace"
 * and "slow_hops". A direct variant (mpi) has no steps: it is not traced.
 */
#include <mpi.h>

#include "cmd/run/congestion_run.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/progress.h"
#include "algorithms/trace_gather.h"
#include "reports/diagnose/halves.h"
#include "reports/diagnose/hops.h"
#include "reports/io/report_schema.h"

enum {
	TRACE_ITERS = 20,
	TRACE_ENTRIES = 1 << 15,
	TRACE_FINDINGS_MAX = 64,
	TAG_TRACE_BYTES = 7305,
	TAG_TRACE = 7306,
	MAX_TRACE_TEXT = 1 << 24,
};

/* A two-halves schedule's halves into the trace (nothing for others); false: no memory. */
static bool add_halves(cJSON *o, const struct hops_step *steps, size_t n)
{
	struct halves h;
	cJSON *trace = cJSON_GetObjectItemCaseSensitive(o, SK_AR_TRACE);
	if (halves_of(steps, n, &h) != 0)
		return false;
	return !h.known || !trace || halves_add_json(trace, &h);
}

/* The group's rank 0: the hops judged, as {"trace": {...}, "slow_hops": [...]} text (owned). */
static char *judge(const struct congestion_run *run, const struct trace_gathered *got, int g,
                   const char *const *names)
{
	const int n = run->group.nranks;
	int *world = malloc((size_t)n * sizeof *world), *host = malloc((size_t)n * sizeof *host);
	const char **hname = malloc((size_t)n * sizeof *hname);
	struct hops_finding *f = malloc(TRACE_FINDINGS_MAX * sizeof *f);
	size_t nsteps = 0;
	struct hops_step *steps = run_trace_steps(got, &nsteps);
	cJSON *o = cJSON_CreateObject(), *lines = NULL;
	char *text = NULL;
	struct hops_result r;
	struct hops_params p;
	hops_params_default(&p);
	hops_result_init(&r);
	for (int w = 0, q = 0; world && host && hname && w < run->sweep.ctx->nranks; w++)
		if (run->group_of_rank[w] == g) {
			world[q] = w;
			host[q] = run->sweep.map.host_of_rank[w];
			hname[q++] = names[run->sweep.map.host_of_rank[w]];
		}
	struct hops_names nm = {.report_rank = world, .host = hname};
	if (world && host && hname && f && steps && o &&
	    hops_analyse(steps, nsteps, n, host, &p, &r) == 0 &&
	    hops_point_to_json(o, &r, &nm, run_trace_error_us(got), got->dropped) &&
	    add_halves(o, steps, nsteps) &&
	    (lines = cJSON_AddArrayToObject(o, SK_CWHERE_SLOW_HOPS))) {
		size_t k = hops_findings(&r, ar_variants[run->busy_variant]->name,
		                         run->busy_count * ar_dtype_bytes(run->o->sweep.dtype), n,
		                         &nm, f, TRACE_FINDINGS_MAX);
		bool ok = true;
		for (size_t i = 0; ok && i < k; i++) {
			char line[512];
			hops_finding_describe(&f[i], line, sizeof line);
			ok = cJSON_AddItemToArray(lines, cJSON_CreateString(line));
		}
		text = ok ? cJSON_PrintUnformatted(o) : NULL;
	}
	hops_result_release(&r);
	cJSON_Delete(o);
	free(steps);
	free(world);
	free(host);
	free(hname);
	free(f);
	return text;
}

/* Members of g: the traced iterations and their gather; *text on the group's rank 0. */
static int traced(struct congestion_run *run, int g, const char *const *names, char **text)
{
	struct sweep *s = &run->sweep;
	struct trace_ring ring = {0};
	struct trace_entry *scratch = calloc(TRACE_ENTRIES, sizeof *scratch);
	struct trace_gathered got;
	trace_gathered_init(&got);
	int rc =
	    scratch && trace_ring_init(&ring, TRACE_ENTRIES) == 0 ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	int any = rc != MPI_SUCCESS, worst = any;
	if (MPI_Allreduce(&any, &worst, 1, MPI_INT, MPI_MAX, run->group.comm) != MPI_SUCCESS ||
	    worst)
		rc = rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc;
	struct ar_call call = congestion_busy_call(run);
	call.trace = &ring;
	uint64_t bytes = run->busy_count * ar_dtype_bytes(s->o->dtype);
	progress_point(run->busy_variant, bytes);
	for (int i = 0; i < TRACE_ITERS && rc == MPI_SUCCESS; i++) {
		progress_step(PROGRESS_TIMED, i);
		rc = exec_run(&s->plans[run->busy_variant], &call);
	}
	if (rc == MPI_SUCCESS)
		rc = trace_gather(&ring, 0, scratch, run->group.comm, run->busy_variant, bytes,
		                  PROGRESS_TIMED, &got);
	if (rc == MPI_SUCCESS && run->group.rank == 0 && !(*text = judge(run, &got, g, names)))
		rc = MPI_ERR_NO_MEM;
	trace_gathered_release(&got);
	trace_ring_release(&ring);
	free(scratch);
	return rc;
}

/* The group's rank 0 sends its text to rank 0, which keeps it in w (NULL elsewhere). */
static int ship(const struct congestion_run *run, int g, char *text, struct congestion_where *w)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	int root = run->root_of_group[g], n = text ? (int)strlen(text) + 1 : 0, rc = MPI_SUCCESS;
	if (ctx->rank == root && root != 0)
		rc = MPI_Send(&n, 1, MPI_INT, 0, TAG_TRACE_BYTES, ctx->comm);
	if (rc == MPI_SUCCESS && ctx->rank == root && root != 0 && n)
		rc = MPI_Send(text, n, MPI_CHAR, 0, TAG_TRACE, ctx->comm);
	if (ctx->rank != 0 || rc != MPI_SUCCESS)
		return rc;
	char *got = root == 0 ? text : NULL;
	if (root != 0) {
		rc = MPI_Recv(&n, 1, MPI_INT, root, TAG_TRACE_BYTES, ctx->comm, MPI_STATUS_IGNORE);
		got = rc == MPI_SUCCESS && n > 0 && n <= MAX_TRACE_TEXT ? malloc((size_t)n) : NULL;
		if (got)
			rc = MPI_Recv(got, n, MPI_CHAR, root, TAG_TRACE, ctx->comm,
			              MPI_STATUS_IGNORE);
	}
	w->trace = got && rc == MPI_SUCCESS ? cJSON_Parse(got) : NULL;
	if (got != text)
		free(got);
	return rc == MPI_SUCCESS && !w->trace ? MPI_ERR_NO_MEM : rc;
}

int congestion_trace(struct congestion_run *run, int g, const char *const *names,
                     struct congestion_where *w)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	char *text = NULL, msg[MPI_MAX_ERROR_STRING];
	MPI_Request done;
	/* the group's rank 0 says whether its last point can be traced: every rank branches alike
	 */
	int root = run->root_of_group[g];
	int ok = ctx->rank == root && run->busy_ready && ar_variants[run->busy_variant]->build;
	int rc = MPI_Bcast(&ok, 1, MPI_INT, root, ctx->comm);
	if (rc == MPI_SUCCESS && !ok) {
		if (w)
			w->trace_skipped =
			    "its last point ran a direct variant (mpi): no steps to trace";
		return EXIT_OK;
	}
	bool member = run->my_group == g;
	if (member)
		rc = traced(run, g, names, &text);
	int rc2 = MPI_Ibarrier(ctx->comm, &done);
	if (rc2 == MPI_SUCCESS)
		rc2 = congestion_hold_load(run, &done, member);
	rc = rc == MPI_SUCCESS ? rc2 : rc;
	if (rc == MPI_SUCCESS)
		rc = ship(run, g, text, w);
	free(text);
	if (rc != MPI_SUCCESS)
		cmd_rank_error(ctx, "congestion: group %d's trace under the load: %s", g,
		               run_mpi_error_text(rc, msg, sizeof msg));
	return run_any(ctx, rc != MPI_SUCCESS) ? EXIT_RUNTIME : EXIT_OK;
}
