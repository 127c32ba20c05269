/*
 * collscope overlap: how much of a non-blocking all-reduce hides behind
 * compute (issue 32). Parse (overlap_opts.c), run (cmd/run/overlap_run.c),
 * print (here).
 */
#include <mpi.h>

#include "cmd/overlap_opts.h"
#include "cmd/run/run.h"
#include "reports/io/overlap_report.h"
#include "reports/render/fixed.h"

#include <stdio.h>

static void print(const struct overlap_opts *o, const struct overlap_row *rows, int n)
{
	if (o->out.quiet)
		return;
	printf("# collscope overlap: %d ranks; %s %s; test calls every %.0f us of compute\n",
	       n ? rows[0].ranks : 0, ar_dtype_name(o->sweep.dtype), ar_op_name(o->sweep.op),
	       o->interval_us);
	printf("# overlap %%: OSU = max(0, 100 - 100 (overall - (cpu - test)) / pure), means over "
	       "ranks; IMB = 100 max(0, min(1, (pure + cpu_alone - overall) / max(pure, "
	       "cpu_alone))), slowest rank\n");
	printf("%-12s %10s %-7s %-8s %11s %13s %12s %10s %8s %8s %8s\n", "algorithm", "bytes",
	       "compute", "progress", "pure_us", "cpu_alone_us", "overall_us", "test_us", "tests",
	       "osu_pct", "imb_pct");
	for (int i = 0; i < n; i++) {
		const struct overlap_row *r = &rows[i];
		if (r->skipped) {
			printf("%-12s %10llu %-7s %-8s skipped: %s\n", r->algorithm,
			       (unsigned long long)r->bytes, r->compute, r->progress, r->skipped);
			continue;
		}
		char osu[32], imb[32];
		report_fixed(osu, sizeof osu, r->osu_pct, 1, 1);
		report_fixed(imb, sizeof imb, r->imb_pct, 1, 1);
		printf("%-12s %10llu %-7s %-8s %11.1f %13.1f %12.1f %10.1f %8.1f %8s %8s%s\n",
		       r->algorithm, (unsigned long long)r->bytes, r->compute, r->progress,
		       r->mean.pure_us, r->mean.cpu_alone_us, r->mean.overall_us, r->mean.test_us,
		       r->mean.tests, osu, imb, r->wrong > 0 ? "  WRONG" : "");
	}
	fflush(stdout);
}

int cmd_overlap(void *opts, struct cmd_ctx *ctx)
{
	return overlap_measure(ctx, opts, print);
}
