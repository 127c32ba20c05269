/*
 * collscope congestion: several all-reduces at once, the interference each
 * suffers, and where (issue 31). Parse (congestion_opts.c), run
 * (cmd/run/congestion_run.c), print (here).
 */
#include <mpi.h>

#include "cmd/congestion_opts.h"
#include "cmd/run/run.h"
#include "reports/diagnose/classify.h"
#include "reports/io/congestion_report.h"
#include "reports/render/fixed.h"

#include <stdio.h>
#include <stdlib.h>

static void print_groups(const struct congestion_opts *o, const struct congestion_summary *s,
                         const struct report_context *c)
{
	printf("# collscope congestion: %d groups by %s (%s); %s %s; %s\n", s->ngroups,
	       s->by_host ? "host" : "rank", congestion_split_name(o),
	       ar_dtype_name(o->sweep.dtype), ar_op_name(o->sweep.op), c->mpi_library);
	for (int g = 0; g < s->ngroups; g++) {
		const struct congestion_group *gr = &s->groups[g];
		char hosts[512];
		size_t used = 0;
		hosts[0] = 0;
		for (int h = 0; h < gr->nhosts && used < sizeof hosts; h++) {
			int k = snprintf(hosts + used, sizeof hosts - used, "%s%s", h ? " " : "",
			                 s->host_names[gr->hosts[h]]);
			used += k > 0 ? (size_t)k : 0;
		}
		cmd_print("# group %d: %s, %d ranks on %s", g,
		          gr->aggressor ? congestion_congestor_name(o) : "victim", gr->nranks,
		          hosts);
	}
}

static void print_factor(int width, double f)
{
	char buf[32];
	report_fixed(buf, sizeof buf, f, 2, 2);
	printf(" %*s", width, buf);
}

static void print_points(const struct congestion_summary *s)
{
	printf("# factors: busbw alone/together, time together/alone; 1 is no interference\n");
	printf("%-12s %10s %5s %13s %13s %12s %12s %12s %12s %9s %12s %11s %11s\n", "algorithm",
	       "bytes", "group", "p50_alone_us", "p50_toghr_us", "p99_alone_us", "p99_toghr_us",
	       "busbw_alone", "busbw_toghr", "f_busbw", "f_mean", "f_p50", "f_p99");
	for (int i = 0; i < s->npoints; i++) {
		const struct congestion_point *p = &s->points[i];
		char a[32], t[32], pa[32], pt[32], qa[32], qt[32];
		report_fixed(pa, sizeof pa, p->alone.p50_us, 2, 2);
		report_fixed(pt, sizeof pt, p->together.p50_us, 2, 2);
		report_fixed(qa, sizeof qa, p->alone.p99_us, 2, 2);
		report_fixed(qt, sizeof qt, p->together.p99_us, 2, 2);
		report_fixed(a, sizeof a, p->alone.busbw_gbps, 3, 3);
		report_fixed(t, sizeof t, p->together.busbw_gbps, 3, 3);
		printf("%-12s %10llu %5d %13s %13s %12s %12s %12s %12s", p->algorithm,
		       (unsigned long long)p->bytes, p->group, pa, pt, qa, qt, a, t);
		print_factor(9, p->f.busbw);
		print_factor(12, p->f.mean);
		print_factor(11, p->f.p50);
		print_factor(11, p->f.p99);
		printf("%s\n", p->degraded ? "  DEGRADED" : "");
	}
}

/* The named hops of a victim's traced all-reduce, or why there are none. */
static void print_trace(const struct congestion_where *w)
{
	const cJSON *hops =
	    w->trace ? cJSON_GetObjectItemCaseSensitive(w->trace, "slow_hops") : NULL;
	const cJSON *h;
	if (w->trace_skipped)
		printf("# where: group %d not traced: %s\n", w->group, w->trace_skipped);
	else if (w->trace && cJSON_GetArraySize(hops) == 0)
		printf("# where: group %d's all-reduce under the load: no hop stands out\n",
		       w->group);
	cJSON_ArrayForEach(h, hops)
	{
		if (cJSON_IsString(h))
			cmd_print("# where: group %d's all-reduce under the load: %s", w->group,
			          h->valuestring);
	}
}

/* The classifier's verdicts on a victim's matrix under the load. */
static void print_matrix(const struct congestion_summary *s, const struct congestion_where *w)
{
	const char **names = malloc((size_t)(w->nhosts ? w->nhosts : 1) * sizeof *names);
	for (int h = 0; names && h < w->nhosts; h++)
		names[h] = s->host_names[w->hosts[h]];
	if (w->loaded.nsuspects == 0)
		printf("# where: group %d: under the load no segment, host or link of its hosts "
		       "stands out\n",
		       w->group);
	for (int k = 0; names && k < w->loaded.nsuspects; k++) {
		char line[1024];
		const struct detect_suspect *v = &w->loaded.suspects[k];
		classify_describe(&w->loaded, v, names, line, sizeof line);
		cmd_print("# where: group %d under the load: %s%s", w->group, line,
		          congestion_also_alone(w, v) ? " (also alone: not interference)"
		                                      : " (not alone: interference)");
	}
	free(names);
}

static void print_where(const struct congestion_summary *s)
{
	for (int i = 0; i < s->nwhere; i++) {
		const struct congestion_where *w = &s->where[i];
		print_trace(w);
		if (w->skipped)
			printf("# where: group %d's host x host matrix not measured: %s\n",
			       w->group, w->skipped);
		else
			print_matrix(s, w);
	}
}

static void print(const struct congestion_opts *o, const struct congestion_summary *s,
                  const struct report_context *c)
{
	if (o->out.quiet)
		return;
	print_groups(o, s, c);
	print_points(s);
	print_where(s);
	int degraded = 0;
	for (int g = 0; g < s->ngroups; g++)
		degraded += congestion_group_degraded(s, g);
	printf("# %d of %d victim group%s degraded (p50 or mean time together >= %.2fx alone)\n",
	       degraded, s->ngroups - o->aggressors, s->ngroups - o->aggressors == 1 ? "" : "s",
	       1 + o->tolerance);
	fflush(stdout);
}

int cmd_congestion(void *opts, struct cmd_ctx *ctx)
{
	return congestion_measure(ctx, opts, print);
}
