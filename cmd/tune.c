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
#include "reports/tune/consistency.h"
#include "reports/tune/rules_mpich.h"
#include "reports/tune/rules_ompi.h"
#include "reports/tune/tune_decide.h"
#include "version.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_choice(const struct tune_choice *c)
{
	char p[32], again[32], again_p[32];
	snprintf(p, sizeof p, isnan(c->p_value) ? "-" : "%.2g", c->p_value);
	snprintf(again, sizeof again, isnan(c->confirm_gain) ? "-" : "%.2f", c->confirm_gain);
	snprintf(again_p, sizeof again_p, isnan(c->confirm_p_value) ? "-" : "%.2g",
	         c->confirm_p_value);
	printf("%6d %12llu %14.2f  %-20s %14.2f %7.2f %9s %7s %9s  %s%s%s\n", c->ranks,
	       (unsigned long long)c->bytes, c->default_p50_us,
	       c->changed ? c->alg_name : "default", c->chosen_p50_us, c->gain, p, again, again_p,
	       tune_why_text(c->why), !c->changed && c->candidate_name ? ": " : "",
	       !c->changed && c->candidate_name ? c->candidate_name : "");
}

static bool add_choice(cJSON *choices, const struct tune_choice *c)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(choices, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddNumberToObject(o, SK_TCHOICE_RANKS, c->ranks) &&
	       cJSON_AddNumberToObject(o, SK_TCHOICE_BYTES, (double)c->bytes) &&
	       cJSON_AddStringToObject(o, SK_TCHOICE_CHOICE, c->changed ? c->alg_name : "default") &&
	       cJSON_AddBoolToObject(o, SK_TCHOICE_CHANGED, c->changed) &&
	       report_add_number(o, SK_TCHOICE_DEFAULT_P50_US, c->default_p50_us) &&
	       report_add_number(o, SK_TCHOICE_CHOSEN_P50_US, c->chosen_p50_us) &&
	       (c->candidate_name
	            ? cJSON_AddStringToObject(o, SK_TCHOICE_CANDIDATE, c->candidate_name)
	            : cJSON_AddNullToObject(o, SK_TCHOICE_CANDIDATE)) &&
	       report_add_number(o, SK_TCHOICE_CANDIDATE_P50_US, c->candidate_p50_us) &&
	       report_add_number(o, SK_TCHOICE_GAIN, c->gain) &&
	       report_add_number(o, SK_TCHOICE_P_VALUE, c->p_value) &&
	       report_add_number(o, SK_TCHOICE_CONFIRM_GAIN, c->confirm_gain) &&
	       report_add_number(o, SK_TCHOICE_CONFIRM_P_VALUE, c->confirm_p_value) &&
	       cJSON_AddStringToObject(o, SK_TCHOICE_REASON, tune_why_text(c->why));
}

/* The heap the algorithms were measured with (--heap), as the header and the rules say it. */
static const char *heap_text(char *buf, size_t len)
{
	const char *env;
	if (tune_heap_state(&env))
		snprintf(buf, len, "glibc's heap held steady: run the job with %s (mpirun -x)",
		         heap_steady_env);
	else if (env)
		snprintf(buf, len, "glibc's heap as the environment's %s sets it: run the job with "
		         "the same", env);
	else
		snprintf(buf, len, "glibc's adaptive heap (--heap as-is): a job's heap may map, "
		         "unmap or trim the library's scratch at every call");
	return buf;
}

/*
 * --rules under MPICH (rank 0): its selection JSON, MPICH's built-in tree
 * with the all-reduce entry replaced (reports/tune/rules_mpich.h). JSON has
 * no comments: how to use it is printed instead. The text, or NULL (printed).
 */
static char *rules_mpich(const struct tune_run *t, const struct tune_choice *c, size_t n)
{
	char err[512], heap[200];
	cJSON *base = NULL, *root = cJSON_CreateObject();
	char *text = NULL;
	if (tune_library_tree(&base, err, sizeof err) != 0 || !root ||
	    rules_mpich_build(root, c, n, base, err, sizeof err) != 0 ||
	    !(text = rules_mpich_text(root)))
		cmd_error(t->sweep.ctx, "tune: the rules: %s", root ? err : "out of memory");
	else
		printf("# --rules %s: MPICH's selection file, measured with %s; use it: "
		       "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=%s; prove it: collscope tune "
		       "--prove %s, then collscope compare the run without against it\n",
		       t->o->rules, heap_text(heap, sizeof heap), t->o->rules, t->o->rules);
	cJSON_Delete(base);
	cJSON_Delete(root);
	return text;
}

/* --rules under Open MPI (rank 0): its classic format, with comments. The text, or NULL. */
static char *rules_ompi(const struct tune_run *t, const struct tune_choice *c, size_t n,
                        size_t *len_out)
{
	const struct tune_opts *o = t->o;
	char err[512], head[4][256], heap[200];
	snprintf(head[0], sizeof head[0], "collscope tune %s: %s %s, the fastest of %s", COLLSCOPE_VERSION,
	         ar_dtype_name(o->sweep.dtype), ar_op_name(o->sweep.op), t->lib.variable);
	snprintf(head[1], sizeof head[1], "prove it: mpirun ... collscope tune --prove %s, then "
	         "collscope compare the run without against it", o->rules);
	snprintf(head[2], sizeof head[2], "use it: --mca coll_tuned_use_dynamic_rules 1 --mca "
	         "coll_tuned_dynamic_rules_filename %s", o->rules);
	snprintf(head[3], sizeof head[3], "measured with %s", heap_text(heap, sizeof heap));
	const char *const lines[] = {head[0], head[1], head[2], head[3], NULL};
	long len = rules_ompi_format(NULL, 0, c, n, lines, err, sizeof err);
	char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (len < 0 || !text || rules_ompi_format(text, (size_t)len + 1, c, n, lines, err,
	                                          sizeof err) != len) {
		cmd_error(t->sweep.ctx, "tune: the rules: %s", len < 0 ? err : "out of memory");
		free(text);
		return NULL;
	}
	*len_out = (size_t)len;
	return text;
}

/*
 * --rules (rank 0): the library's rules file of the choices, written atomically.
 * EXIT_OK, EXIT_USAGE (nothing forced, or a file in the way) or EXIT_RUNTIME.
 */
static int write_rules(const struct tune_run *t, const struct tune_choice *c, size_t n)
{
	const struct tune_opts *o = t->o;
	char err[512];
	size_t len = 0;
	if (t->lib.n <= 1) {
		cmd_error(t->sweep.ctx, "tune: --rules '%s' not written: nothing was forced (%s)",
		          o->rules, t->lib.why);
		return EXIT_USAGE;
	}
	char *text = t->lib.mpich ? rules_mpich(t, c, n) : rules_ompi(t, c, n, &len);
	if (!text)
		return EXIT_RUNTIME;
	if (t->lib.mpich)
		len = strlen(text);
	int rc = report_write_text_atomic(o->rules, text, len, o->out.force, err, sizeof err);
	free(text);
	if (rc != REPORT_OK) {
		cmd_error(t->sweep.ctx, "tune: --rules: %s", err);
		return rc == REPORT_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* The decision per rank count and size: printed, into the summary, and --rules. */
static int decide(const struct tune_run *t, cJSON *sum, int *status)
{
	char err[256];
	size_t n = 0, changed = 0, nsets = 0, nagain = 0;
	struct tune_set *sets = tune_run_sets(t, false, 0, &nsets);
	struct tune_set *again = tune_run_sets(t, true, 0, &nagain);
	struct tune_choice *c = calloc(t->nsets + 1, sizeof *c);
	struct tune_decide_opts d;
	tune_decide_opts_init(&d);
	cJSON *choices = cJSON_AddArrayToObject(sum, SK_TSUM_CHOICES);
	int rc = sets && again && c && choices
	             ? tune_decide(sets, nsets, &d, c, &n, err, sizeof err)
	             : -1;
	/* with --prove nothing was chosen, so nothing was measured again */
	if (rc == 0 && tune_confirm(c, n, again, nagain, &d, err, sizeof err) < 0)
		rc = -1;
	if (rc == 0) {
		printf("# per rank count and size: the library's decision, or a forced algorithm "
		       "faster by %.2fx or more at p < %g (Mann-Whitney U), and faster again when "
		       "measured a second time (again, again_p)\n", d.min_gain, d.alpha);
		printf("%6s %12s %14s  %-20s %14s %7s %9s %7s %9s  %s\n", "ranks", "size_bytes",
		       "default_p50_us", "choice", "chosen_p50_us", "gain", "p_value", "again",
		       "again_p", "why");
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		changed += c[i].changed;
		print_choice(&c[i]);
		rc = add_choice(choices, &c[i]) ? 0 : -1;
	}
	bool ok = rc == 0 && cJSON_AddNumberToObject(sum, SK_TSUM_CHANGED, (double)changed) &&
	          report_add_number(sum, SK_TSUM_ALPHA, d.alpha) &&
	          report_add_number(sum, SK_TSUM_MIN_GAIN, d.min_gain);
	if (!ok)
		cmd_error(t->sweep.ctx, "tune: the decision: %s", rc == 0 ? "out of memory" : err);
	*status = ok ? EXIT_OK : EXIT_RUNTIME;
	if (ok && t->o->rules)
		*status = write_rules(t, c, n);
	ok = ok && (*status == EXIT_OK && t->o->rules
	                ? cJSON_AddStringToObject(sum, SK_TSUM_RULES_FILE, t->o->rules)
	                : cJSON_AddNullToObject(sum, SK_TSUM_RULES_FILE));
	free(sets);
	free(again);
	free(c);
	return ok ? 0 : -1;
}

/* A kept point as a series of the checks: no samples when skipped or wrong. */
static struct tune_series series_of(const struct tune_kept *k)
{
	bool usable = !k->skipped && !k->wrong;
	return (struct tune_series){.name = ar_variants[k->variant]->name,
	                            .samples_us = usable ? k->samples_us : NULL,
	                            .n = usable ? k->nsamples : 0};
}

/* Per size, the self-consistency's series; own[] holds AR_MAX_VARIANTS per size. */
static void fill_points(const struct tune_run *t, struct tune_point *p, struct tune_series *own)
{
	const struct sweep_opts *so = &t->o->sweep;
	for (int i = 0; i < so->nsizes; i++)
		p[i] = (struct tune_point){.bytes = so->sizes[i], .own = &own[i * AR_MAX_VARIANTS]};
	for (size_t k = 0; k < t->nsets; k++) {
		const struct tune_kept *e = &t->sets[k];
		int i = 0;
		while (i < so->nsizes && so->sizes[i] != e->bytes)
			i++;
		if (!e->consistency || i == so->nsizes)
			continue;
		const char *name = ar_variants[e->variant]->name;
		if (strcmp(name, "mpi") == 0)
			p[i].mpi = series_of(e);
		else if (strcmp(name, "mpi-reduce-bcast") == 0)
			p[i].reduce_bcast = series_of(e);
		else if (strcmp(name, "mpi-rs-allgather") == 0)
			p[i].rs_allgather = series_of(e);
		else
			own[i * AR_MAX_VARIANTS + p[i].nown++] = series_of(e);
	}
}

/* The library against its guidelines (issue 33, item 4): printed and into the summary. */
static int consistency(const struct tune_run *t, cJSON *sum)
{
	int n = t->o->sweep.nsizes, rc = -1;
	if (t->o->prove)
		return cJSON_AddNullToObject(sum, SK_TSUM_CONSISTENCY) ? 0 : -1;
	struct tune_point *p = calloc((size_t)n, sizeof *p);
	struct tune_series *own = calloc((size_t)n * AR_MAX_VARIANTS, sizeof *own);
	struct tune_consistency res = {0};
	cJSON *c = cJSON_AddObjectToObject(sum, SK_TSUM_CONSISTENCY), *v = NULL;
	if (!p || !own || !c)
		goto out;
	fill_points(t, p, own);
	if (tune_consistency_check(p, (size_t)n, NULL, &res) != 0)
		goto out;
	printf("# self-consistency on %d ranks (after ReproMPI's PGChecker): MPI_Allreduce against "
	       "MPI_Reduce + MPI_Bcast, MPI_Reduce_scatter + MPI_Allgatherv, collscope's own "
	       "variants, and itself at the next size: %zu checks, %zu untested, %zu violation%s "
	       "(Mann-Whitney U, Holm-adjusted q < 0.01, and 1.1x or more)\n",
	       t->sweep.ctx->nranks, res.nchecks, res.nuntested, res.nviolations,
	       res.nviolations == 1 ? "" : "s");
	for (size_t i = 0; i < res.nviolations; i++) {
		char line[512];
		if (tune_violation_format(&res.violations[i], line, sizeof line) == 0)
			printf("#   %s\n", line);
	}
	if (cJSON_AddNumberToObject(c, SK_TCONS_RANKS, t->sweep.ctx->nranks) &&
	    cJSON_AddNumberToObject(c, SK_TCONS_CHECKS, (double)res.nchecks) &&
	    cJSON_AddNumberToObject(c, SK_TCONS_UNTESTED, (double)res.nuntested) &&
	    (v = cJSON_AddArrayToObject(c, SK_TCONS_VIOLATIONS)) &&
	    tune_violations_to_json(v, res.violations, res.nviolations) == 0)
		rc = 0;
out:
	tune_consistency_release(&res);
	free(p);
	free(own);
	return rc;
}

static int add_library(const struct tune_run *t, cJSON *sum)
{
	const char *env;
	cJSON *names = cJSON_AddArrayToObject(sum, SK_TSUM_LIBRARY_ALGORITHMS);
	for (int a = 0; names && a < t->nalgs; a++)
		if (!cJSON_AddItemToArray(names, cJSON_CreateString(t->lib.name[t->algs[a]])))
			return -1;
	bool ok = names &&
	          (t->lib.variable[0]
	               ? cJSON_AddStringToObject(sum, SK_TSUM_LIBRARY_VARIABLE, t->lib.variable)
	               : cJSON_AddNullToObject(sum, SK_TSUM_LIBRARY_VARIABLE)) &&
	          (t->lib.n > 1 ? cJSON_AddNullToObject(sum, SK_TSUM_NOT_FORCED)
	                        : cJSON_AddStringToObject(sum, SK_TSUM_NOT_FORCED, t->lib.why)) &&
	          (t->o->prove ? cJSON_AddStringToObject(sum, SK_TSUM_PROVE, t->o->prove)
	                       : cJSON_AddNullToObject(sum, SK_TSUM_PROVE)) &&
	          cJSON_AddBoolToObject(sum, SK_TSUM_HEAP_HELD, tune_heap_state(&env));
	return ok ? 0 : -1;
}

/* sweep_finish's callback (rank 0): the decision, the summary, the verdict. */
static int summarize(void *arg, cJSON *root)
{
	struct tune_run *t = arg;
	const struct tune_opts *o = t->o;
	int status = EXIT_OK;
	cJSON *sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	if (o->prove)
		printf("# --prove %s: the library's decision with that rules file in effect; "
		       "`collscope compare` of the run without against this one proves it\n",
		       o->prove);
	bool ok = sum && add_library(t, sum) == 0 && decide(t, sum, &status) == 0 &&
	          consistency(t, sum) == 0 && sweep_yardstick_summary(&t->yard, sum, true) == 0 &&
	          cJSON_AddNumberToObject(sum, SK_TSUM_WRONG_TOTAL, (double)t->wrong) &&
	          cJSON_AddStringToObject(sum, SK_TSUM_VERDICT, t->wrong ? "wrong results" : "ok");
	if (!ok) {
		cmd_error(t->sweep.ctx, "tune: out of memory for the summary");
		return EXIT_RUNTIME;
	}
	if (status != EXIT_OK)
		return status;
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
	char heap[200];
	printf("# measured with %s\n", heap_text(heap, sizeof heap));
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
