/* See allreduce_trace.h. */
#include <mpi.h>

#include "cmd/run/sweep_trace.h"
#include "cmd/run/run.h"
#include "algorithms/progress.h"
#include "reports/diagnose/halves.h"
#include "reports/io/report_schema.h"
#include "reports/stats/stats.h"
#include "probes/cpu_wait.h"
#include "probes/nic_bytes.h"
#include "probes/topology.h"
#include "algorithms/variant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_trace_start(struct run_trace *t, const struct cmd_ctx *ctx, const char *cmd, bool on,
                    uint64_t entries, const struct report_context *rc, const struct topo_map *map)
{
	memset(t, 0, sizeof *t);
	trace_gathered_init(&t->got);
	if (!on)
		return EXIT_OK;
	t->on = true;
	bool failed = trace_ring_init(&t->ring, (size_t)entries) != 0 ||
	              !(t->scratch = calloc((size_t)entries, sizeof *t->scratch));
	if (!failed && ctx->rank == 0) {
		t->nworld = ctx->nranks;
		t->host_of_rank = calloc((size_t)ctx->nranks, sizeof *t->host_of_rank);
		t->host_index = calloc((size_t)ctx->nranks, sizeof *t->host_index);
		failed = !t->host_of_rank || !t->host_index;
		for (int r = 0; !failed && r < ctx->nranks; r++) {
			int h = map && map->host_of_rank ? map->host_of_rank[r] : -1;
			t->host_index[r] = h;
			t->host_of_rank[r] = h >= 0 && h < rc->nhosts ? rc->hosts[h].name : NULL;
			t->nhosts = h >= t->nhosts ? h + 1 : t->nhosts;
		}
		t->nic_bytes = calloc((size_t)ctx->nranks, sizeof *t->nic_bytes);
		t->cpu_wait_share = calloc((size_t)ctx->nranks, sizeof *t->cpu_wait_share);
		t->nic_gathered = calloc(3 * (size_t)ctx->nranks, sizeof *t->nic_gathered);
		t->nic_cap = ctx->nranks;
		failed = failed || !t->nic_bytes || !t->cpu_wait_share || !t->nic_gathered;
	}
	if (failed)
		cmd_rank_error(ctx, "%s: cannot allocate a trace of %llu entries", cmd,
		               (unsigned long long)entries);
	if (run_any(ctx, failed)) {
		run_trace_stop(t);
		return EXIT_RUNTIME;
	}
	trace_publish(&t->ring);
	return EXIT_OK;
}

/* Rank 0: a point whose suspects are being measured again, and what naming them needs. */
struct run_trace_pending {
	struct hops_result r;
	struct hops_params p;
	cJSON *rec; /* the point's record, in the report */
	int variant, nranks;
	uint64_t bytes;
	const char **hosts;
	int *host_index; /* NULL: hosts not all known */
	int *world_of;   /* NULL: the same ranks */
};

static void pending_free(struct run_trace_pending *q)
{
	if (!q)
		return;
	hops_result_release(&q->r);
	free(q->hosts);
	free(q->host_index);
	free(q->world_of);
	free(q);
}

void run_trace_stop(struct run_trace *t)
{
	pending_free(t->pending);
	if (trace_published() == &t->ring)
		trace_publish(NULL);
	trace_ring_release(&t->ring);
	trace_gathered_release(&t->got);
	free(t->scratch);
	free(t->host_of_rank);
	free(t->host_index);
	free(t->nic_bytes);
	free(t->cpu_wait_share);
	free(t->nic_gathered);
	free(t->findings);
	free(t->halves);
	memset(t, 0, sizeof *t);
}

struct trace_ring *run_trace_ring(struct run_trace *t)
{
	return t->on ? &t->ring : NULL;
}

void run_trace_nic_begin(struct run_trace *t)
{
	if (!t->on)
		return;
	t->nic_known = probe_nic_bytes(&t->nic_begin);
	t->wait_known = probe_cpu_wait_ns(&t->wait_begin_ns);
	t->nic_begin_s = MPI_Wtime();
}

/* Each rank's NIC bytes and wait for a core since run_trace_nic_begin, to comm's rank 0. */
static int gather_nic(struct run_trace *t, MPI_Comm comm)
{
	uint64_t end, waited;
	bool known = t->nic_known && probe_nic_bytes(&end) && end >= t->nic_begin;
	bool wait_known = t->wait_known && probe_cpu_wait_ns(&waited) && waited >= t->wait_begin_ns;
	double wall_s = MPI_Wtime() - t->nic_begin_s;
	double mine[3] = {known ? (double)(end - t->nic_begin) : NAN, wall_s,
	                  wait_known ? probe_cpu_wait_share(waited - t->wait_begin_ns, wall_s) : NAN};
	int rank, size;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	/* the communicator's rank 0 is the world's (run_trace_collect), which holds room for all */
	int rc = MPI_Gather(mine, 3, MPI_DOUBLE, t->nic_gathered, 3, MPI_DOUBLE, 0, comm);
	t->nic_wall_s = 0;
	for (int q = 0; rc == MPI_SUCCESS && rank == 0 && q < size && q < t->nic_cap; q++) {
		const double *g = &t->nic_gathered[3 * q];
		t->nic_bytes[q] = g[0];
		t->cpu_wait_share[q] = g[2];
		t->nic_wall_s = fmax(t->nic_wall_s, g[1]);
	}
	return rc;
}

int run_trace_collect(struct run_trace *t, MPI_Comm comm, int variant, uint64_t bytes)
{
	if (!t->on)
		return MPI_SUCCESS;
	int rc = gather_nic(t, comm);
	if (rc != MPI_SUCCESS)
		return rc;
	uint64_t since = t->collected;
	t->collected = trace_written(&t->ring);
	trace_gathered_release(&t->got);
	return trace_gather(&t->ring, since, t->scratch, comm, variant, bytes, PROGRESS_TIMED,
	                    &t->got);
}

double run_trace_error_us(const struct trace_gathered *g)
{
	double e = 0;
	for (int r = 0; r < g->nranks; r++)
		e = fmax(e, g->error_ns[r] / 1e3);
	return e;
}

/* A direct variant: each rank's median call. */
static int record_calls(const struct trace_gathered *g, cJSON *rec, int nranks)
{
	double *per = calloc((size_t)nranks, sizeof *per), *x = calloc(g->n ? g->n : 1, sizeof *x);
	int rc = per && x ? 0 : -1;
	for (int q = 0; rc == 0 && q < nranks; q++) {
		size_t k = 0;
		for (size_t i = 0; i < g->n; i++)
			if (g->rank_of[i] == q)
				x[k++] =
				    (double)(g->entries[i].end_ns - g->entries[i].start_ns) / 1e3;
		per[q] = k ? stats_median(x, k) : NAN;
	}
	if (rc == 0 && !hops_calls_to_json(rec, per, nranks, g->n, run_trace_error_us(g)))
		rc = -1;
	free(per);
	free(x);
	return rc;
}

struct hops_step *run_trace_steps(const struct trace_gathered *g, size_t *n)
{
	struct hops_step *s = calloc(g->n ? g->n : 1, sizeof *s);
	uint64_t t0 = UINT64_MAX;
	*n = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->entries[i].step >= 0 && g->entries[i].start_ns < t0)
			t0 = g->entries[i].start_ns;
	for (size_t i = 0; s && i < g->n; i++) {
		const struct trace_entry *e = &g->entries[i];
		if (e->step < 0)
			continue;
		s[(*n)++] = (struct hops_step){.rank = g->rank_of[i],
		                               .iteration = e->iteration,
		                               .step = e->step,
		                               .half = e->half,
		                               .send_peer = e->send_peer,
		                               .recv_peer = e->recv_peer,
		                               .send_bytes = e->send_bytes,
		                               .recv_bytes = e->recv_bytes,
		                               .start_us = (double)(e->start_ns - t0) / 1e3,
		                               .recv_done_us = (double)(e->recv_done_ns - t0) / 1e3,
		                               .reduced_us = (double)(e->reduced_ns - t0) / 1e3,
		                               .end_us = (double)(e->end_ns - t0) / 1e3,
		                               .reduce_busy_us = (double)e->reduce_busy_ns / 1e3};
	}
	return s;
}

static int keep_findings(struct run_trace *t, const struct hops_result *r, int variant,
                         uint64_t bytes, int nranks, const struct hops_names *nm)
{
	size_t more = r->nnamed + r->nranks;
	if (t->nfindings + more > t->cap) {
		size_t cap = 2 * (t->nfindings + more) + 8;
		struct hops_finding *f = realloc(t->findings, cap * sizeof *f);
		if (!f)
			return -1;
		t->findings = f;
		t->cap = cap;
	}
	t->nfindings += hops_findings(r, ar_variants[variant]->name, bytes, nranks, nm,
	                              t->findings + t->nfindings, more);
	return 0;
}

/* The halves of a point whose schedule has them: into its trace, and a line for the text. */
static int record_halves(struct run_trace *t, cJSON *rec, const struct hops_step *steps, size_t n,
                         int variant, uint64_t bytes, int nranks)
{
	struct halves h;
	cJSON *trace = cJSON_GetObjectItemCaseSensitive(rec, SK_AR_TRACE);
	if (halves_of(steps, n, &h) != 0)
		return -1;
	if (!h.known || !trace)
		return 0;
	if (!halves_add_json(trace, &h))
		return -1;
	if (t->nhalves == t->cap_halves) {
		size_t cap = t->cap_halves ? 2 * t->cap_halves : 8;
		char(*more)[160] = realloc(t->halves, cap * sizeof *more);
		if (!more)
			return -1;
		t->halves = more;
		t->cap_halves = cap;
	}
	snprintf(t->halves[t->nhalves++], sizeof t->halves[0],
	         "halves: %s, %llu bytes on %d ranks: reduce-scatter %.1f us (%.0f%%), all-gather "
	         "%.1f us (%.0f%%)",
	         ar_variants[variant]->name, (unsigned long long)bytes, nranks, h.reduce_scatter_us,
	         100 * h.reduce_scatter_share, h.allgather_us, 100 * (1 - h.reduce_scatter_share));
	return 0;
}

/*
 * Holds r (moved) and the point's names, for its suspects' re-measurement:
 * the pending point takes hosts and host_index (NULL: hosts not all known).
 */
static int hold(struct run_trace *t, struct hops_result *r, const struct hops_params *p,
                cJSON *rec, int variant, uint64_t bytes, int nranks, const char **hosts,
                int *host_index, const int *world_of)
{
	struct run_trace_pending *q = calloc(1, sizeof *q);
	int *world = world_of ? malloc((size_t)nranks * sizeof *world) : NULL;
	if (!q || (world_of && !world)) {
		free(q);
		free(world);
		return -1;
	}
	if (world_of)
		memcpy(world, world_of, (size_t)nranks * sizeof *world);
	*q = (struct run_trace_pending){.r = *r,
	                                .p = *p,
	                                .rec = rec,
	                                .variant = variant,
	                                .nranks = nranks,
	                                .bytes = bytes,
	                                .hosts = hosts,
	                                .host_index = host_index,
	                                .world_of = world};
	hops_result_init(r);
	t->pending = q;
	return 0;
}

/* Slow hops and suspects of r that another job's traffic explains, cleared (hops.h). */
static int clear_traffic(struct run_trace *t, struct hops_result *r, const struct hops_params *p,
                         const struct hops_step *steps, size_t n, const int *host_index,
                         int nranks)
{
	double *other = malloc((size_t)(t->nhosts ? t->nhosts : 1) * sizeof *other);
	double *own = malloc((size_t)nranks * sizeof *own);
	int rc = -1;
	if (other && own && nranks <= t->nic_cap) {
		hops_cross_host_bytes(steps, n, host_index, nranks, own);
		rc = hops_host_other_gbps(t->nic_bytes, own, host_index, nranks, t->nhosts,
		                          t->nic_wall_s, other) == 0
		         ? hops_clear_traffic(r, host_index, other, p)
		         : -1;
		if (rc >= 0)
			hops_clear_busy_reducers(r, host_index, other, own, nranks, t->nic_wall_s,
			                         p);

	}
	free(other);
	free(own);
	return rc;
}

int run_trace_record(struct run_trace *t, cJSON *rec, int variant, uint64_t bytes, int nranks,
                     const int *world_of)
{
	struct hops_params p;
	struct hops_result r;
	size_t n = 0;
	if (!t->on)
		return 0;
	t->points++;
	pending_free(t->pending);
	t->pending = NULL;
	if (ar_variants[variant]->run)
		return record_calls(&t->got, rec, nranks);
	const char **hosts = calloc((size_t)nranks, sizeof *hosts);
	int *host_index = calloc((size_t)nranks, sizeof *host_index);
	struct hops_step *steps = run_trace_steps(&t->got, &n);
	bool known = true;
	int rc = -1;
	for (int q = 0; hosts && host_index && q < nranks; q++) {
		int w = world_of ? world_of[q] : q;
		hosts[q] = w >= 0 && w < t->nworld ? t->host_of_rank[w] : NULL;
		host_index[q] = w >= 0 && w < t->nworld ? t->host_index[w] : -1;
		known = known && host_index[q] >= 0;
	}
	struct hops_names nm = {.report_rank = world_of, .host = hosts};
	hops_params_default(&p);
	if (hosts && host_index && steps &&
	    hops_analyse(steps, n, nranks, known ? host_index : NULL, &p, &r) == 0) {
		rc = known && clear_traffic(t, &r, &p, steps, n, host_index, nranks) < 0 ? -1 : 0;
		if (rc == 0 && hops_clear_waiting_reducers(&r, t->cpu_wait_share, nranks, &p) < 0)
			rc = -1;
		if (rc == 0)
			rc = hops_point_to_json(rec, &r, &nm, run_trace_error_us(&t->got),
			                        t->got.dropped) &&
			             record_halves(t, rec, steps, n, variant, bytes, nranks) == 0
			         ? 0
			         : -1;
		if (rc == 0 && r.nsuspects && p.retests > 0) {
			if (!known) {
				free(host_index);
				host_index = NULL;
			}
			rc = hold(t, &r, &p, rec, variant, bytes, nranks, hosts, host_index,
			          world_of);
			if (rc == 0) { /* the pending point owns them now */
				hosts = NULL;
				host_index = NULL;
			}
		} else if (rc == 0)
			rc = keep_findings(t, &r, variant, bytes, nranks, &nm);
		hops_result_release(&r);
	}
	free(steps);
	free(hosts);
	free(host_index);
	return rc;
}

bool run_trace_retest_wanted(const struct run_trace *t)
{
	const struct run_trace_pending *q = t->pending;
	if (!q || !q->r.nsuspects)
		return false;
	for (size_t i = 0; i < q->r.nhops; i++)
		if (q->r.hops[i].suspect && q->r.hops[i].retests < q->p.retests)
			return true;
	for (size_t i = 0; i < q->r.nrank_suspects; i++)
		if (q->r.rank_suspects[i].retests < q->p.retests)
			return true;
	return false;
}

int run_trace_retest(struct run_trace *t)
{
	struct run_trace_pending *q = t->pending;
	struct hops_result again;
	size_t n = 0;
	if (!q)
		return 0;
	struct hops_step *steps = run_trace_steps(&t->got, &n);
	int rc = steps && hops_analyse(steps, n, q->nranks, q->host_index, &q->p, &again) == 0
	             ? 0
	             : -1;
	if (rc == 0) {
		hops_retest(&q->r, &again, &q->p);
		hops_result_release(&again);
	}
	free(steps);
	return rc;
}

int run_trace_settle(struct run_trace *t)
{
	struct run_trace_pending *q = t->pending;
	if (!q)
		return 0;
	struct hops_names nm = {.report_rank = q->world_of, .host = q->hosts};
	int rc = hops_name_confirmed(&q->r, q->p.retests) < 0 ||
	                 hops_point_update_json(q->rec, &q->r, &nm) != 0 ||
	                 keep_findings(t, &q->r, q->variant, q->bytes, q->nranks, &nm) != 0
	             ? -1
	             : 0;
	pending_free(q);
	t->pending = NULL;
	return rc;
}

int run_trace_retests(const struct run_trace *t)
{
	return t->pending ? t->pending->p.retests : 0;
}

void run_trace_suspect_name(const struct run_trace *t, char *buf, size_t len)
{
	const struct run_trace_pending *q = t->pending;
	snprintf(buf, len, "a hop");
	for (size_t i = 0; q && i < q->r.nhops; i++) {
		const struct hops_hop *h = &q->r.hops[i];
		if (!h->suspect)
			continue;
		const struct hops_names nm = {.report_rank = q->world_of, .host = q->hosts};
		const char *ha = hops_host_of(&nm, h->from_rank), *hb = hops_host_of(&nm, h->to_rank);
		snprintf(buf, len, "hop %d->%d (%s -> %s) at %.2fx its peers",
		         hops_report_rank(&nm, h->from_rank), hops_report_rank(&nm, h->to_rank),
		         ha ? ha : "?", hb ? hb : "?", h->ratio);
		return;
	}
}

int run_trace_summarize(const struct run_trace *t, cJSON *summary, bool quiet_text)
{
	char line[512];
	if (!t->on)
		return 0;
	if (!quiet_text) {
		for (size_t i = 0; i < t->nfindings; i++) {
			hops_finding_describe(&t->findings[i], line, sizeof line);
			printf("# %s\n", line);
		}
		if (!t->nfindings)
			printf("# slow hops: none (%d point%s traced)\n", t->points,
			       t->points == 1 ? "" : "s");
		for (size_t i = 0; i < t->nhalves; i++)
			printf("# %s\n", t->halves[i]);
		fflush(stdout);
	}
	return hops_findings_to_json(summary, t->findings, t->nfindings);
}
