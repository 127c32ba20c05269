/*
 * Where a victim slows (issue 31, item 3). Its host x host bandwidth is
 * measured twice: under the load (every other group running what it ran:
 * the victims their last all-reduce, the aggressors their congestor) and
 * alone (everyone else napping). One rank per host measures (the group's
 * lowest rank on it), one pair at a time (probes/p2p.h, isolated: the pairs
 * of the victim do not load each other), and rank 0 judges both matrices
 * with the classifier (reports/diagnose/classify.h): a verdict under the
 * load that the matrix alone does not hold is where the interference is.
 */
#include <mpi.h>

#include "cmd/run/congestion_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probes/p2p.h"
#include "reports/diagnose/classify.h"
#include "reports/stats/stats.h"

enum { TAG_MATRIX = 7303, WHERE_BW_BYTES = 256 << 10, WHERE_WINDOW = 4 };

/* The probe of one cell: a short ping-pong, then windows within --where-time. */
static struct probe_link_opts where_probe(const struct congestion_opts *o)
{
	return (struct probe_link_opts){.lat_bytes = 8,
	                                .bw_bytes = WHERE_BW_BYTES,
	                                .window = WHERE_WINDOW,
	                                .lat_iters = 20,
	                                .lat_warmup = 2,
	                                .bw_iters = 50,
	                                .bw_warmup = 1,
	                                .lat_time_s = 0.01,
	                                .bw_time_s = o->where_time_s};
}

/* GB/s of the pair this rank timed last: a window's bytes over the median window time. */
static double cell_gbps(const struct probe_links *p)
{
	if (p->one_way.windows < 1)
		return NAN;
	double us = stats_median(p->window_us, (size_t)p->one_way.windows);
	return us > 0 ? (double)p->opts.window * (double)p->opts.bw_bytes / us / 1e3 : NAN;
}

/* The leaders: every pair once, isolated; the matrix on the leaders' rank 0 (owned). */
static int measure_leaders(const struct congestion_run *run, MPI_Comm lcomm, double **matrix)
{
	struct probe_links p;
	struct probe_link_opts po = where_probe(run->o);
	int me, n, rc = probe_links_init(&p, lcomm, &po);
	MPI_Comm_rank(lcomm, &me);
	MPI_Comm_size(lcomm, &n);
	double *row = malloc((size_t)n * sizeof *row);
	double *all = me == 0 ? malloc((size_t)n * (size_t)n * sizeof *all) : NULL;
	if (!row || (me == 0 && !all))
		rc = rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc;
	for (int j = 0; row && j < n; j++)
		row[j] = NAN;
	/* every leader takes every pair, even after an error here: none is left waiting */
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			int prc = probe_links_isolated(&p, a, b);
			rc = rc == MPI_SUCCESS ? prc : rc;
			if (row && (me == a || me == b))
				row[me == a ? b : a] = cell_gbps(&p);
		}
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(row, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, lcomm);
	probe_links_release(&p);
	free(row);
	if (rc != MPI_SUCCESS) {
		free(all);
		all = NULL;
	}
	*matrix = all;
	return rc;
}

/*
 * The ranks that measure group g's matrix, ascending (world ranks, into out,
 * nranks at most): the group's lowest rank on each of its hosts, and past
 * --where-hosts of them that many, evenly spread over the list (hosts are
 * numbered rack by rack when racks are dealt in order, so every rack keeps
 * its share). Returns how many; *hosts_total the group's hosts. -1 when out
 * of memory.
 */
static int leaders(const struct congestion_run *run, int g, int *out, int *hosts_total)
{
	const int n = run->sweep.ctx->nranks, max = run->o->where_hosts;
	const int *host = run->sweep.map.host_of_rank;
	bool *seen = calloc((size_t)(run->sweep.map.nhosts ? run->sweep.map.nhosts : 1), 1);
	int all = 0;
	if (!seen)
		return -1;
	for (int r = 0; r < n; r++)
		if (run->group_of_rank[r] == g && !seen[host[r]]) {
			seen[host[r]] = true;
			out[all++] = r;
		}
	free(seen);
	*hosts_total = all;
	if (all <= max)
		return all;
	for (int i = 0; i < max; i++) /* ascending: i * all / max only grows */
		out[i] = out[(int64_t)i * all / max];
	return max;
}

/* Group g's matrix, under the load or alone; on rank 0 in *out (owned). An exit code, agreed. */
static int matrix(struct congestion_run *run, int g, bool loaded, double **out)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	char msg[MPI_MAX_ERROR_STRING];
	int *chosen = malloc((size_t)ctx->nranks * sizeof *chosen), total = 0;
	int k = chosen ? leaders(run, g, chosen, &total) : -1;
	bool leader = false;
	for (int i = 0; i < k; i++)
		leader |= chosen[i] == ctx->rank;
	free(chosen);
	if (run_any(ctx, k < 0))
		return EXIT_RUNTIME;
	MPI_Comm lcomm = MPI_COMM_NULL;
	MPI_Request done;
	double *m = NULL;
	int n = 0, rc = MPI_Comm_split(ctx->comm, leader ? 0 : MPI_UNDEFINED, ctx->rank, &lcomm);
	if (rc == MPI_SUCCESS && leader) {
		MPI_Comm_size(lcomm, &n);
		rc = measure_leaders(run, lcomm, &m);
	}
	int rc2 = MPI_Ibarrier(ctx->comm, &done);
	if (rc2 == MPI_SUCCESS)
		rc2 = congestion_hold_load(run, &done, leader || run->my_group == g || !loaded);
	rc = rc == MPI_SUCCESS ? rc2 : rc;
	/* the group's rank 0 is its first leader: it holds the matrix */
	int root = run->root_of_group[g];
	if (rc == MPI_SUCCESS && root != 0 && ctx->rank == root)
		rc = MPI_Send(m, n * n, MPI_DOUBLE, 0, TAG_MATRIX, ctx->comm);
	if (rc == MPI_SUCCESS && root != 0 && ctx->rank == 0) {
		n = run->sum.groups[g].nhosts;
		m = malloc((size_t)n * (size_t)n * sizeof *m);
		rc = m ? MPI_Recv(m, n * n, MPI_DOUBLE, root, TAG_MATRIX, ctx->comm,
		                  MPI_STATUS_IGNORE)
		       : MPI_ERR_NO_MEM;
	}
	if (lcomm != MPI_COMM_NULL)
		MPI_Comm_free(&lcomm);
	if (rc != MPI_SUCCESS)
		cmd_rank_error(ctx, "congestion: group %d's host matrix %s: %s", g,
		               loaded ? "under the load" : "alone",
		               run_mpi_error_text(rc, msg, sizeof msg));
	if (ctx->rank == 0)
		*out = m;
	else
		free(m);
	return run_any(ctx, rc != MPI_SUCCESS) ? EXIT_RUNTIME : EXIT_OK;
}

/*
 * Rank 0: both matrices judged; the classifier needs 3 hosts. Its tolerance
 * is --tolerance: a cell shared with another group's flow loses a fraction
 * of its bandwidth, not the most of it that a faulty link does.
 */
static int judge(struct congestion_where *w, double tolerance)
{
	struct detect_params p;
	detect_params_default(&p);
	p.tolerance = tolerance;
	detect_result_init(&w->loaded);
	detect_result_init(&w->alone);
	return classify_hosts(w->loaded_gbps, w->nhosts, &p, true, &w->loaded, NULL) != 0 ||
	               classify_hosts(w->alone_gbps, w->nhosts, &p, false, &w->alone, NULL) != 0
	           ? -1
	           : 0;
}

/* Rank 0: why group g's matrix cannot be measured, or NULL. */
static const char *cannot(const struct congestion_run *run, int g)
{
	if (!run->sum.by_host)
		return "the job runs on one host: no host x host matrix";
	if (run->sum.groups[g].nhosts < 3)
		return "fewer than 3 hosts: the classifier cannot tell a host from a link";
	return NULL;
}

/*
 * Every host's name on every rank (rank 0 holds them): the trace's judge, on
 * a group's rank 0, names hosts. names and their storage owned by the caller.
 */
static int share_names(const struct congestion_run *run, char **buf, const char ***names)
{
	const int n = run->sweep.map.nhosts;
	*buf = calloc((size_t)(n ? n : 1), CTX_NAME_BYTES);
	*names = calloc((size_t)(n ? n : 1), sizeof **names);
	if (!*buf || !*names)
		return MPI_ERR_NO_MEM;
	for (int h = 0; run->sweep.ctx->rank == 0 && h < n && h < run->sweep.context.nhosts; h++)
		memcpy(*buf + (size_t)h * CTX_NAME_BYTES, run->sweep.context.hosts[h].name,
		       CTX_NAME_BYTES);
	for (int h = 0; h < n; h++)
		(*names)[h] = *buf + (size_t)h * CTX_NAME_BYTES;
	return MPI_Bcast(*buf, n * CTX_NAME_BYTES, MPI_CHAR, 0, run->sweep.ctx->comm);
}

/* Rank 0 decides which victims are examined (--where), every rank learns. */
static int choose(struct congestion_run *run, int *want)
{
	for (int g = 0; run->sweep.ctx->rank == 0 && g < run->victims; g++)
		want[g] = run->o->where == WHERE_ALWAYS || congestion_group_degraded(&run->sum, g);
	return MPI_Bcast(want, run->victims, MPI_INT, 0, run->sweep.ctx->comm);
}

int congestion_where(struct congestion_run *run)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	int *want = calloc((size_t)run->victims, sizeof *want);
	char *name_buf = NULL;
	const char **names = NULL;
	int status = run_any(ctx, !want || choose(run, want) != MPI_SUCCESS ||
	                              share_names(run, &name_buf, &names) != MPI_SUCCESS)
	                 ? EXIT_RUNTIME
	                 : EXIT_OK;
	if (ctx->rank == 0 && status == EXIT_OK &&
	    !(run->sum.where = calloc((size_t)run->victims, sizeof *run->sum.where)))
		status = EXIT_RUNTIME;
	if (run_any(ctx, status != EXIT_OK))
		status = EXIT_RUNTIME;
	for (int g = 0; g < run->victims && status == EXIT_OK; g++) {
		if (!want[g])
			continue;
		int skip = ctx->rank == 0 && cannot(run, g);
		if (MPI_Bcast(&skip, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS) {
			status = EXIT_RUNTIME;
			break;
		}
		struct congestion_where *w =
		    ctx->rank == 0 ? &run->sum.where[run->sum.nwhere++] : NULL;
		if (w) {
			const struct congestion_group *gr = &run->sum.groups[g];
			w->group = g;
			w->skipped = cannot(run, g);
			/* the matrices' order: the leaders' world ranks, ascending */
			int *chosen = malloc((size_t)ctx->nranks * sizeof *chosen);
			int k = chosen ? leaders(run, g, chosen, &w->hosts_total) : -1;
			w->hosts =
			    k >= 0
			        ? malloc((size_t)(gr->nhosts ? gr->nhosts : 1) * sizeof *w->hosts)
			        : NULL;
			for (int i = 0; w->hosts && i < k; i++)
				w->hosts[w->nhosts++] = run->sweep.map.host_of_rank[chosen[i]];
			free(chosen);
		}
		cmd_progress(ctx, run->o->out.quiet,
		             "congestion: group %d's all-reduce traced under the load%s", g,
		             skip ? ""
		                  : ", then its host x host bandwidth under the load and alone");
		status = congestion_trace(run, g, names, w);
		if (status == EXIT_OK && !skip)
			status = matrix(run, g, true, w ? &w->loaded_gbps : NULL);
		if (status == EXIT_OK && !skip)
			status = matrix(run, g, false, w ? &w->alone_gbps : NULL);
		if (status == EXIT_OK && w && !skip &&
		    (!w->hosts || judge(w, run->o->tolerance) != 0))
			status = EXIT_RUNTIME;
		if (run_any(ctx, status != EXIT_OK))
			status = status != EXIT_OK ? status : EXIT_RUNTIME;
	}
	free(want);
	free(name_buf);
	free(names);
	return status;
}
