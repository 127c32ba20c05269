/*
 * collscope scale: what rank 0 prints on stdout after the sweep. The table
 * (measured and PREDICTED rows, by variant, size and rank count), the fit
 * of every variant, and the data-parallel step model with its sweet spots.
 * Every predicted figure is marked PREDICTED.
 */
#include "cmd/scale_opts.h"
#include "reports/render/fixed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Variant, size, rank count; at the same count, measured first. */
static int entry_order(const void *pa, const void *pb)
{
	const struct scale_entry *x = pa, *y = pb;
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	if (x->row.bytes != y->row.bytes)
		return x->row.bytes < y->row.bytes ? -1 : 1;
	if (x->row.ranks != y->row.ranks)
		return x->row.ranks < y->row.ranks ? -1 : 1;
	return (int)x->row.predicted - (int)y->row.predicted;
}

/* A copy of the rows in print order (owned by the caller), or NULL when out of memory. */
static struct scale_entry *sorted(const struct scale_results *res)
{
	struct scale_entry *e = calloc(res->n + 1, sizeof *e);
	if (!e)
		return NULL;
	memcpy(e, res->e, res->n * sizeof *e);
	qsort(e, res->n, sizeof *e, entry_order);
	return e;
}

void scale_print_table(const struct scale_opts *o, const struct scale_results *res)
{
	char line[512];
	struct scale_entry *e = sorted(res);
	(void)o;
	if (!e)
		return;
	if (scale_format_header(line, sizeof line) == 0)
		printf("%s\n", line);
	for (size_t i = 0; i < res->n; i++)
		if (scale_format_row(line, sizeof line, &e[i].row) == 0)
			printf("%s\n", line);
	printf(
	    "# bw_eff = busbw(n) / busbw(smallest n); lat_x = t(n) / t(smallest n); PREDICTED rows "
	    "are the cost model's, relative to the model at the smallest n\n");
	free(e);
	fflush(stdout);
}

void scale_print_fits(const struct scale_opts *o, const struct scale_results *res)
{
	printf(
	    "# cost model: time = alpha x messages + beta x bytes + gamma x reduced bytes, counted "
	    "on each variant's schedule (the busiest rank); fitted to the p50 times of 2 ranks or "
	    "more\n");
	for (int v = 0; ar_variants[v]; v++) {
		const struct model_fit *f = &res->fit[v];
		if (!o->sweep.variants[v])
			continue;
		if (!res->fitted[v]) {
			printf("#   %-18s no fit: no p50 time at 2 ranks or more (a p50 needs 2 "
			       "iterations)\n",
			       ar_variants[v]->name);
			continue;
		}
		/* fixed notation: beta is a few picoseconds a byte, no "1.2e-05" */
		char gbps[48] = "-", bw[32], alpha[32], beta[32], gamma[32];
		report_fixed(bw, sizeof bw, 1e-3 / f->beta_us_per_byte, 0, 3);
		if (f->beta_us_per_byte > 0)
			snprintf(gbps, sizeof gbps, "%s GB/s", bw);
		report_fixed(alpha, sizeof alpha, f->alpha_us, 0, 3);
		report_fixed(beta, sizeof beta, f->beta_us_per_byte, 0, 3);
		report_fixed(gamma, sizeof gamma, f->gamma_us_per_byte, 0, 3);
		printf("#   %-18s alpha %s us, beta %s us/B (%s), gamma %s us/B; error rms "
		       "%.1f%%, "
		       "max %.1f%% over %zu points",
		       ar_variants[v]->name, alpha, beta, gbps, gamma, 100 * f->rms_error,
		       100 * f->max_error, f->npoints);
		if (res->shape[v] != v)
			printf("; shape of %s (borrowed: %s has no schedule)",
			       ar_variants[res->shape[v]]->name, ar_variants[v]->name);
		if (f->degenerate)
			printf("; dependent terms (e.g. reduced bytes a fixed fraction of bytes): "
			       "the split "
			       "between the coefficients is arbitrary, the predictions are not");
		printf("\n");
	}
	fflush(stdout);
}

/* One line per rank count of v at the gradient size: weak or strong speedup. */
static void print_speedups(const struct scale_opts *o, const struct scale_entry *e, size_t n, int v,
                           bool strong)
{
	char a[128], b[128];
	for (size_t i = 0; i < n; i++) {
		const struct scale_row *r = &e[i].row;
		if (e[i].variant != v || !r->has_step)
			continue;
		scale_format_speedup(a, sizeof a, r->ranks,
		                     strong ? r->step.strong_speedup : r->step.speedup);
		scale_format_speedup(b, sizeof b, r->ranks,
		                     strong ? r->overlapped.strong_speedup : r->overlapped.speedup);
		/* the overlapped figure without its repeated "N ranks: " */
		const char *tail = strchr(b, ':') ? strchr(b, ':') + 2 : b;
		printf("#   %-18s %*s%s", ar_variants[v]->name, 6 - (int)(strchr(a, ' ') - a), "",
		       a);
		char ov[32];
		report_fixed(ov, sizeof ov, r->overlap, 0, 3);
		if (r->overlap > 0 || o->overlap_measured)
			printf("; overlap %s%s: %s", ov, r->overlap_measured ? " measured" : "",
			       tail);
		if (!strong && r->overlap_measured && !r->predicted)
			printf("; step %.2f ms measured, %.2f ms model", r->measured_step_us / 1e3,
			       r->predicted_step_us / 1e3);
		if (r->has_compressed) {
			scale_format_speedup(b, sizeof b, r->ranks,
			                     strong ? r->compressed.strong_speedup
			                            : r->compressed.speedup);
			printf("; compressed: %s", strchr(b, ':') ? strchr(b, ':') + 2 : b);
		}
		printf("%s\n", r->predicted ? "  PREDICTED" : "");
	}
}

static void print_sweet(const char *name, const char *what, const struct scale_sweet *s,
                        bool predicted)
{
	char x[32];
	report_fixed(x, sizeof x, s->speedup, 0, 3);
	printf("#   %-18s %s", name, what);
	if (!s->found)
		printf(": none\n");
	else if (predicted)
		printf(" (1..%d ranks): %d ranks, %sx%s  PREDICTED\n", s->max_ranks, s->ranks, x,
		       s->at_edge ? ", still rising at the largest count" : "");
	else
		printf(": %d ranks, %sx%s\n", s->ranks, x,
		       s->at_edge ? ", the largest count measured" : "");
}

void scale_print_step(const struct scale_opts *o, const struct scale_results *res)
{
	struct scale_entry *e;
	if (isnan(o->compute_ms) || !(e = sorted(res)))
		return;
	char ms[40];
	report_fixed(ms, sizeof ms, o->compute_ms, 0, 6);
	/* with --collective the step's communication is that half alone (FSDP calls both) */
	bool whole = o->sweep.collective == AR_ALLREDUCE;
	printf(
	    "# data-parallel step: compute %s ms on one rank, gradient of %llu bytes %s "
	    "(measured at that size, PREDICTED from the fit)%s\n",
	    ms, (unsigned long long)o->grad_bytes,
	    whole ? "all-reduced" : o->sweep.collective == AR_REDUCE_SCATTER
	                                ? "reduce-scattered (Tar: that half alone)"
	                                : "all-gathered (Tar: that half alone)",
	    o->overlap_measured
	        ? "; overlap measured: the hidden share of a training step measured at "
	          "each rank count (the gradient in buckets, each started as the "
	          "compute produces it), predictions at the largest one's"
	    : o->overlap > 0 ? "; overlap: that fraction of the all-reduce hidden behind compute, "
	                       "never more than the compute"
	                     : "");
	if (!isnan(o->compress_ratio))
		printf("# compressed: Tar x fit(bytes / %g) / fit(bytes) (each variant's fit), plus "
		       "encoding and decoding the gradient at %g GB/s on every rank (%.2f ms)\n",
		       o->compress_ratio, o->cast_gbps, 2.0 * (double)o->grad_bytes / (o->cast_gbps * 1e6));
	printf("# weak scaling (fixed batch per rank): speedup n Tc / (Tc + Tar(n))\n");
	for (int v = 0; ar_variants[v]; v++)
		if (o->sweep.variants[v])
			print_speedups(o, e, res->n, v, false);
	printf("# strong scaling (fixed global batch): speedup Tc / (Tc / n + Tar(n))\n");
	for (int v = 0; ar_variants[v]; v++)
		if (o->sweep.variants[v])
			print_speedups(o, e, res->n, v, true);
	printf("# sweet spot (strong scaling: past it, more ranks make a step slower):\n");
	for (int v = 0; ar_variants[v]; v++) {
		const char *name = ar_variants[v]->name;
		if (!o->sweep.variants[v])
			continue;
		print_sweet(name, "measured", &res->sweet_measured[v][0], false);
		print_sweet(name, "model", &res->sweet_model[v][0], true);
		if (o->overlap > 0 || o->overlap_measured) {
			print_sweet(name, "overlapped, measured", &res->sweet_measured[v][1],
			            false);
			print_sweet(name, "overlapped, model", &res->sweet_model[v][1], true);
		}
	}
	free(e);
	fflush(stdout);
}
