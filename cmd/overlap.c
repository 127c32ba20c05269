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

static void print_steps(const struct overlap_opts *o, const struct overlap_step_row *steps, int n)
{
	if (!n)
		return;
	printf(
	    "# training step: %llu bytes of gradient in %zu bucket%s of %llu bytes, %.3g ms of "
	    "compute; each bucket's all-reduce started as the compute produces it; times are the "
	    "slowest rank's\n",
	    (unsigned long long)o->grad_bytes, steps[0].buckets, steps[0].buckets == 1 ? "" : "s",
	    (unsigned long long)o->bucket_bytes, o->compute_ms);
	printf("%-12s %-7s %12s %12s %12s %12s %8s\n", "algorithm", "compute", "compute_us",
	       "serial_us", "step_us", "exposed_us", "hidden");
	for (int i = 0; i < n; i++) {
		const struct overlap_step_row *r = &steps[i];
		if (r->skipped) {
			printf("%-12s %-7s skipped: %s\n", r->algorithm, r->compute, r->skipped);
			continue;
		}
		char hidden[32];
		report_fixed(hidden, sizeof hidden, 100 * r->s.hidden_fraction, 1, 1);
		printf("%-12s %-7s %12.1f %12.1f %12.1f %12.1f %7s%%%s\n", r->algorithm, r->compute,
		       r->s.compute_us, r->s.serial_us, r->s.step_us, r->s.exposed_us, hidden,
		       r->wrong > 0 ? "  WRONG" : "");
	}
}

static void print(const struct overlap_opts *o, const struct overlap_row *rows, int n,
                  const struct overlap_step_row *steps, int nsteps)
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
	print_steps(o, steps, nsteps);
	fflush(stdout);
}

int cmd_overlap(void *opts, struct cmd_ctx *ctx)
{
	return overlap_measure(ctx, opts, print);
}
