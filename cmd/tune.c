/*
 * collscope tune (issue 33): the MPI library's own all-reduce algorithms,
 * each forced in turn beside its own decision (cmd/run/tune_run.c), and per
 * rank count and size the fastest against the decision. Rank 0 prints and
 * writes the summary.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "cmd/tune_opts.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The p50 of a set, NAN when it has no sample or a wrong one. */
static double p50_of(const struct tune_kept *s)
{
	if (s->skipped || s->wrong || s->nsamples == 0)
		return NAN;
	double *x = malloc(s->nsamples * sizeof *x);
	if (!x)
		return NAN;
	memcpy(x, s->samples_us, s->nsamples * sizeof *x);
	double m = stats_median(x, s->nsamples);
	free(x);
	return m;
}

/* One (ranks, bytes): the decision's p50 and the fastest forced algorithm's, printed and kept. */
static int add_point(const struct tune_run *t, int ranks, uint64_t bytes, cJSON *points)
{
	double def = NAN, best = NAN;
	const char *fastest = NULL;
	for (size_t i = 0; i < t->nsets; i++) {
		const struct tune_kept *s = &t->sets[i];
		if (s->ranks != ranks || s->bytes != bytes)
			continue;
		double m = p50_of(s);
		if (s->alg == 0)
			def = m;
		else if (!isnan(m) && (isnan(best) || m < best)) {
			best = m;
			fastest = s->alg_name;
		}
	}
	double gain = def / best;
	printf("%6d %12llu %14.2f  %-22s %14.2f %8.2f\n", ranks, (unsigned long long)bytes, def,
	       fastest ? fastest : "-", best, gain);
	cJSON *p = cJSON_CreateObject();
	if (!p || !cJSON_AddItemToArray(points, p)) {
		cJSON_Delete(p);
		return -1;
	}
	bool ok = cJSON_AddNumberToObject(p, SK_TBEST_RANKS, ranks) &&
	          cJSON_AddNumberToObject(p, SK_TBEST_BYTES, (double)bytes) &&
	          report_add_number(p, SK_TBEST_DEFAULT_P50_US, def) &&
	          (fastest ? cJSON_AddStringToObject(p, SK_TBEST_FASTEST, fastest)
	                   : cJSON_AddNullToObject(p, SK_TBEST_FASTEST)) &&
	          report_add_number(p, SK_TBEST_FASTEST_P50_US, best) &&
	          report_add_number(p, SK_TBEST_GAIN, gain);
	return ok ? 0 : -1;
}

static int add_library(const struct tune_run *t, cJSON *sum)
{
	cJSON *names = cJSON_AddArrayToObject(sum, SK_TSUM_LIBRARY_ALGORITHMS);
	for (int a = 0; names && a < t->nalgs; a++)
		if (!cJSON_AddItemToArray(names, cJSON_CreateString(t->lib.name[t->algs[a]])))
			return -1;
	bool ok = names &&
	          (t->lib.variable[0]
	               ? cJSON_AddStringToObject(sum, SK_TSUM_LIBRARY_VARIABLE, t->lib.variable)
	               : cJSON_AddNullToObject(sum, SK_TSUM_LIBRARY_VARIABLE)) &&
	          (t->lib.n > 1 ? cJSON_AddNullToObject(sum, SK_TSUM_NOT_FORCED)
	                        : cJSON_AddStringToObject(sum, SK_TSUM_NOT_FORCED, t->lib.why));
	return ok ? 0 : -1;
}

/* sweep_finish's callback (rank 0): the fastest per point, the summary, the verdict. */
static int summarize(void *arg, cJSON *root)
{
	struct tune_run *t = arg;
	const struct tune_opts *o = t->o;
	cJSON *sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	cJSON *points = sum ? cJSON_AddArrayToObject(sum, SK_TSUM_POINTS) : NULL;
	int rc = points && add_library(t, sum) == 0 ? 0 : -1;
	if (o->prove)
		printf("# --prove %s: the library's decision with that rules file in effect; "
		       "`collscope compare` of the run without against this one proves it\n",
		       o->prove);
	else
		printf("# per rank count and size: the library's decision against its fastest "
		       "forced algorithm (p50); gain = default / fastest\n");
	printf("%6s %12s %14s  %-22s %14s %8s\n", "ranks", "size_bytes", "default_p50_us",
	       "fastest", "fastest_p50_us", "gain");
	for (int i = 0; rc == 0 && i < o->nranks; i++)
		for (int k = 0; rc == 0 && k < o->sweep.nsizes; k++)
			rc = add_point(t, o->ranks[i], o->sweep.sizes[k], points);
	bool ok = rc == 0 && cJSON_AddNumberToObject(sum, SK_TSUM_WRONG_TOTAL, (double)t->wrong) &&
	          cJSON_AddStringToObject(sum, SK_TSUM_VERDICT, t->wrong ? "wrong results" : "ok");
	if (!ok) {
		cmd_error(t->sweep.ctx, "tune: out of memory for the summary");
		return EXIT_RUNTIME;
	}
	return t->wrong ? EXIT_WRONG : EXIT_OK;
}

static void print_header(const struct tune_run *t)
{
	const struct report_context *c = &t->sweep.context;
	printf("# collscope tune: %d ranks on %d host%s%s; %s %s; rank counts", t->sweep.ctx->nranks,
	       c->nhosts, c->nhosts == 1 ? "" : "s", c->oversubscribed ? " (oversubscribed)" : "",
	       ar_dtype_name(t->o->sweep.dtype), ar_op_name(t->o->sweep.op));
	for (int i = 0; i < t->o->nranks; i++)
		printf("%s%d", i ? "," : " ", t->o->ranks[i]);
	printf("; forcing %s:", t->lib.variable[0] ? t->lib.variable : "nothing");
	for (int a = 0; a < t->nalgs; a++)
		printf(" %s", t->lib.name[t->algs[a]]);
	printf("\n");
	cmd_print_collective_header(0, c->mpi_library);
	fflush(stdout);
}

int cmd_tune(void *opts, struct cmd_ctx *ctx)
{
	const struct tune_opts *o = opts;
	struct tune_run t;
	int status = tune_run_begin(&t, ctx, o);
	if (status == EXIT_OK && ctx->rank == 0)
		print_header(&t);
	if (status == EXIT_OK)
		status = tune_run_measure(&t);
	sweep_end(&t.sweep);
	if (status == EXIT_OK && ctx->rank == 0)
		status = sweep_finish(&t.sweep, summarize, &t);
	tune_run_release(&t);
	return status;
}
