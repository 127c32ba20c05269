/*
 * accept SPEC --plan-only (issue 28): what the spec would run on the job, or
 * on --hosts x --ranks-per-host without mpirun, before anything is measured:
 * each check, its cost, the estimated time of the whole run, and how
 * --budget splits it. The links check's plan is links' own (links_plan_make,
 * with accept's measurement options and its share of the budget); an
 * all-reduce point runs for allreduce's --time-per-size; a failing point's
 * culprit search costs about 2 ceil(log2 hosts) runs of the point to suspect
 * a host and 2 x ACCEPT_EVIDENCE_REPEATS to name it (accept_bisect.h).
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "cmd/run/links_run.h"
#include "cmd/accept_opts.h"
#include "cmd/allreduce_opts.h"
#include "cmd/links_opts.h"
#include "cmd/verify_opts.h"
#include "reports/accept/accept_bisect.h"
#include "reports/accept/accept_spec.h"
#include "reports/io/report_read.h"
#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ACCEPT_PLAN_TEXT = 4096 };

/* verify's checks of the spec's variants at nranks: its default matrix, both placements. */
static long verify_checks(const struct accept_spec *s, int nranks)
{
	struct verify_opts vo;
	char err[256];
	if (opts_defaults(&verify_spec, &vo, err, sizeof err) != EXIT_OK ||
	    verify_spec.check_world(&vo, nranks, err, sizeof err) != EXIT_OK)
		return -1;
	long dtypes = 0, ops = 0;
	for (int i = 0; i < AR_DTYPE_COUNT; i++)
		dtypes += vo.dtypes[i];
	for (int i = 0; i < AR_OP_COUNT; i++)
		ops += vo.ops[i];
	return (long)s->verify.nvariants * vo.ncounts * dtypes * ops * 2;
}

struct plan_figures {
	double links_s, points_s, search_s; /* each repeat's; a failing point's search */
	int search_runs;
};

/* The links check's plan lines into buf and its seconds a repeat; -1 out of memory. */
static int links_part(const struct accept_opts *o, int nranks, int nhosts, const int *host_of_rank,
                      char *buf, size_t len, double *seconds)
{
	struct links_opts lo;
	struct links_plan plan;
	struct probe_plan_cost cost;
	char err[256];
	/* as the run's first repeat: the whole budget left, every repeat to run */
	if (accept_links_opts(o, o->budget_s, o->repeats, &lo, err, sizeof err) != EXIT_OK ||
	    links_plan_make(&lo, nranks, nhosts, host_of_rank, &plan) != 0)
		return -1;
	links_plan_text(&plan, lo.budget_s, buf, len);
	probe_plan_cost(&plan.plan, &plan.probe, &cost);
	*seconds = cost.seconds;
	links_plan_release(&plan);
	return 0;
}

/* The lines of the all-reduce points and of a failing point's search. */
static void points_part(const struct accept_spec *s, int nhosts, struct plan_figures *f)
{
	struct ar_opts ao;
	char err[256], size[32];
	bool p99 = false;
	if (opts_defaults(&allreduce_spec, &ao, err, sizeof err) != EXIT_OK)
		return;
	for (size_t i = 0; i < s->allreduce.npoints; i++)
		p99 |= !isnan(s->allreduce.points[i].max_p99_us);
	double per_point = ao.sweep.time_per_size_s;
	f->points_s = per_point * (double)s->allreduce.npoints;
	f->search_runs = nhosts > 2 ? 2 * (int)ceil(log2(nhosts)) + 2 * ACCEPT_EVIDENCE_REPEATS : 0;
	f->search_s = f->search_runs * per_point;
	printf("# plan: allreduce: %zu point%s (", s->allreduce.npoints,
	       s->allreduce.npoints == 1 ? "" : "s");
	for (size_t i = 0; i < s->allreduce.npoints && i < 4; i++) {
		svg_format_bytes((double)s->allreduce.points[i].bytes, size, sizeof size);
		printf("%s%s %s%s%s", i ? ", " : "", s->allreduce.points[i].variant, size,
		       s->allreduce.points[i].collective ? " " : "",
		       s->allreduce.points[i].collective
		           ? ar_collective_names[s->allreduce.points[i].collective]
		           : "");
	}
	printf("%s), each for about %.3g s (allreduce's --time-per-size; at least %d calls%s, so "
	       "a slow point takes longer): about %.3g s a repeat\n",
	       s->allreduce.npoints > 4 ? ", ..." : "", per_point,
	       p99 ? 100 : SWEEP_ADAPTIVE_MIN_ITERS, p99 ? ": the spec has a p99" : "",
	       f->points_s);
	if (f->search_runs)
		printf(
		    "# plan: a failing point's culprit search: about %d runs of it on subsets of "
		    "the %d hosts (2 x %d to suspect a host, 2 x %d to name it), about %.3g s, "
		    "only where a point fails\n",
		    f->search_runs, nhosts, (int)ceil(log2(nhosts)), ACCEPT_EVIDENCE_REPEATS,
		    f->search_s);
	else
		printf("# plan: no culprit search: %d host%s (a sub-test needs 2 hosts and a "
		       "third to compare with)\n",
		       nhosts, nhosts == 1 ? "" : "s");
}

/* Every line of the plan on stdout. */
static int print_plan(const struct accept_opts *o, const struct accept_spec *s, int nranks,
                      int nhosts, const int *host_of_rank)
{
	struct plan_figures f = {0};
	printf("# plan: accept '%s'%s%s%s: %d host%s, %d ranks, %d repeat%s; checks:%s%s%s%s\n",
	       o->args.items[0], s->name[0] ? " (" : "", s->name, s->name[0] ? ")" : "", nhosts,
	       nhosts == 1 ? "" : "s", nranks, o->repeats, o->repeats == 1 ? "" : "s",
	       s->has[ACCEPT_TOPOLOGY] ? " topology" : "", s->has[ACCEPT_VERIFY] ? " verify" : "",
	       s->has[ACCEPT_LINKS] ? " links" : "", s->has[ACCEPT_ALLREDUCE] ? " allreduce" : "");
	if (s->has[ACCEPT_TOPOLOGY])
		printf(
		    "# plan: topology: the job's placement, read at the start, nothing measured\n");
	if (s->has[ACCEPT_VERIFY])
		printf(
		    "# plan: verify: %zu variant%s, %ld checks (verify's matrix at %d ranks), each "
		    "a verified call; not timed here\n",
		    s->verify.nvariants, s->verify.nvariants == 1 ? "" : "s",
		    verify_checks(s, nranks), nranks);
	if (s->has[ACCEPT_LINKS]) {
		char text[ACCEPT_PLAN_TEXT];
		if (links_part(o, nranks, nhosts, host_of_rank, text, sizeof text, &f.links_s) !=
		    0) {
			fprintf(stderr, "collscope: error: accept: out of memory for the plan\n");
			return EXIT_RUNTIME;
		}
		printf("# plan: links, each repeat:\n%s", text);
		printf("# plan: a host failing its own links checks: the links of every such host "
		       "measured again, at once, beside 2 control hosts (at most one more links "
		       "check), before any is failed\n");
	}
	if (s->has[ACCEPT_ALLREDUCE])
		points_part(s, nhosts, &f);
	double total = o->repeats * ((isfinite(f.links_s) ? f.links_s : 0) + f.points_s);
	printf("# plan: about %.3g s in all (links %.3g s and allreduce %.3g s a repeat, x %d), "
	       "before verify and any culprit search%s\n",
	       total, isfinite(f.links_s) ? f.links_s : 0, f.points_s, o->repeats,
	       o->budget_s > 0 ? "" : "; --budget DURATION bounds it");
	if (o->budget_s > 0)
		printf(
		    "# plan: --budget %.6g s: the links check gets half of what is left, shared by "
		    "the repeats still to run; no repeat, point or search starts past it (a "
		    "point left out fails)\n",
		    o->budget_s);
	fflush(stdout);
	return EXIT_OK;
}

/* --hosts x --ranks-per-host, no MPI: ranks in blocks, as mpirun places them by slot. */
static int plan_for_hosts(const struct cmd_ctx *ctx, const struct accept_opts *o)
{
	const int64_t n = (int64_t)o->planning.hosts * o->planning.ranks_per_host;
	struct accept_spec spec;
	accept_spec_init(&spec);
	int status = accept_read_spec(ctx, o->args.items[0], &spec);
	if (status != EXIT_OK) {
		accept_spec_release(&spec);
		return status;
	}
	int *host = opts_plan_host_of_rank(&o->planning); /* n is checked with the options */
	if (!host) {
		fprintf(stderr,
		        "collscope: error: accept: out of memory for the plan of %lld ranks\n",
		        (long long)n);
		status = EXIT_RUNTIME;
	} else {
		status = print_plan(o, &spec, (int)n, o->planning.hosts, host);
	}
	free(host);
	accept_spec_release(&spec);
	return status;
}

int accept_plan_only(struct cmd_ctx *ctx, const struct accept_opts *o)
{
	if (!ctx->mpi)
		return plan_for_hosts(ctx, o);
	struct accept_spec spec;
	struct report_context c;
	struct topo_map map;
	report_context_init(&c);
	topo_map_init(&map);
	accept_spec_init(&spec);
	int status = accept_load_spec(ctx, o->args.items[0], &spec);
	if (status == EXIT_OK && run_context_begin(ctx, &c, &map) != 0)
		status = EXIT_RUNTIME;
	else if (status == EXIT_OK && ctx->rank == 0)
		status = print_plan(o, &spec, ctx->nranks, map.nhosts, map.host_of_rank);
	accept_spec_release(&spec);
	topo_map_release(&map);
	report_context_release(&c);
	return status;
}
