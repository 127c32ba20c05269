/*
 * collscope links: latency and bandwidth between every pair of ranks, then
 * the slow links and hosts named. The measurement and the judgement are the
 * run layer's (cmd/run/links_run.c); this command prints what it finds
 * (links_print.c).
 */
#include <mpi.h>

#include "cmd/links_cmd.h"
#include "cmd/run/run.h"

int cmd_links(void *opts, struct cmd_ctx *ctx)
{
	const struct links_opts *o = opts;
	if (o->planning.only)
		return links_plan_only(ctx, o);
	return links_run(ctx, opts, links_print);
}
