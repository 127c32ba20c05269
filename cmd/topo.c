/*
 * collscope topo: where every rank runs (host, pid, binding, NUMA node,
 * package) and what every host has (cores, NUMA nodes, ranks), with the
 * oversubscribed hosts named. The placement comes from probes/topology.c, the
 * module that fills the context block of every report.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "reports/io/report_schema.h"
#include "reports/render/fixed.h"
#include "cmd/small_opts.h"

#include <string.h>

static void print_index(char *buf, size_t len, int v)
{
	if (v >= 0)
		snprintf(buf, len, "%d", v);
	else
		snprintf(buf, len, "-");
}

static void print_tables(const struct report_context *c)
{
	char numa[16], pkg[16], res[32];
	report_fixed(res, sizeof res, c->timer_resolution_us, 0, 3); /* 1e-03 us is 0.001 */
	printf("# collscope topo: %d rank%s on %d host%s; %s; timer resolution %s us\n",
	       c->nranks, c->nranks == 1 ? "" : "s", c->nhosts, c->nhosts == 1 ? "" : "s",
	       c->mpi_library, res);
	printf("# %4s  %-24s %8s  %-16s %5s %8s  %s\n", "rank", "host", "pid", "cpuset", "numa",
	       "package", "bound");
	for (int r = 0; r < c->nranks; r++) {
		const struct ctx_rank *k = &c->ranks[r];
		print_index(numa, sizeof numa, k->numa_node);
		print_index(pkg, sizeof pkg, k->package);
		printf("  %4d  %-24s %8d  %-16s %5s %8s  %s\n", k->rank, k->host, k->pid, k->cpuset,
		       numa, pkg, k->bound ? "yes" : "no");
	}
	printf("# %-24s %6s %5s %5s %9s %6s  %s\n", "host", "cores", "pus", "numa", "packages",
	       "ranks", "oversubscribed");
	for (int h = 0; h < c->nhosts; h++) {
		const struct ctx_host *ho = &c->hosts[h];
		printf("  %-24s %6d %5d %5d %9d %6d  ", ho->name, ho->cores, ho->pus,
		       ho->numa_nodes, ho->packages, ho->nranks);
		if (ho->oversubscribed)
			printf("yes (%d ranks on %d cores)\n", ho->nranks, ho->cores);
		else
			printf("no\n");
	}
	fflush(stdout);
}

static bool add_rank(cJSON *results, const struct ctx_rank *k)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddNumberToObject(o, SK_CRANK_RANK, k->rank) &&
	       cJSON_AddStringToObject(o, SK_CRANK_HOST, k->host) &&
	       cJSON_AddNumberToObject(o, SK_CRANK_PID, k->pid) &&
	       cJSON_AddStringToObject(o, SK_CRANK_CPUSET, k->cpuset) &&
	       (k->numa_node >= 0 ? cJSON_AddNumberToObject(o, SK_CRANK_NUMA, k->numa_node)
	                          : cJSON_AddNullToObject(o, SK_CRANK_NUMA)) &&
	       (k->package >= 0 ? cJSON_AddNumberToObject(o, SK_CRANK_PACKAGE, k->package)
	                        : cJSON_AddNullToObject(o, SK_CRANK_PACKAGE)) &&
	       cJSON_AddBoolToObject(o, SK_CRANK_BOUND, k->bound);
}

/* config, results (one per rank), summary and complete, after the context. */
static bool fill_report(cJSON *root, const struct report_context *c, const struct topo_opts *o)
{
	cJSON *config = cJSON_AddObjectToObject(root, SK_REPORT_CONFIG);
	cJSON *results = cJSON_AddArrayToObject(root, SK_REPORT_RESULTS);
	cJSON *summary = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	if (!config || !results || !summary ||
	    !(o->out.output ? cJSON_AddStringToObject(config, "output", o->out.output)
	                : cJSON_AddNullToObject(config, "output")) ||
	    !cJSON_AddBoolToObject(config, "force", o->out.force))
		return false;
	for (int r = 0; r < c->nranks; r++)
		if (!add_rank(results, &c->ranks[r]))
			return false;
	cJSON *over = cJSON_AddArrayToObject(summary, SK_TOPOSUM_OVERSUBSCRIBED_HOSTS);
	for (int h = 0; over && h < c->nhosts; h++)
		if (c->hosts[h].oversubscribed &&
		    !cJSON_AddItemToArray(over, cJSON_CreateString(c->hosts[h].name)))
			return false;
	return over && cJSON_AddNumberToObject(summary, SK_TOPOSUM_RANKS, c->nranks) &&
	       cJSON_AddNumberToObject(summary, SK_TOPOSUM_HOSTS, c->nhosts) &&
	       cJSON_AddBoolToObject(summary, SK_TOPOSUM_OVERSUBSCRIBED, c->oversubscribed) &&
	       cJSON_AddBoolToObject(root, SK_REPORT_COMPLETE, true);
}

int cmd_topo(void *opts, struct cmd_ctx *ctx)
{
	const struct topo_opts *o = opts;
	struct report_context c;
	cJSON *root = NULL;
	report_context_init(&c);
	int status = run_check_output(ctx, "topo", &o->out);
	if (status != EXIT_OK)
		goto out;
	if (run_context_begin(ctx, &c, NULL) != 0) {
		status = EXIT_RUNTIME;
		goto out;
	}
	run_context_end(&c);
	if (ctx->rank == 0 && !o->out.quiet)
		print_tables(&c);
	if (ctx->rank == 0 && o->out.output) {
		root = run_report_new("topo", &c);
		if (!root || !fill_report(root, &c, o)) {
			cmd_error(ctx, "topo: out of memory while building the report");
			status = EXIT_RUNTIME;
			goto out;
		}
		status = run_report_write(ctx, o->out.output, root, o->out.force);
	}
out:
	cJSON_Delete(root);
	report_context_release(&c);
	return status;
}
