/*
 * collscope accept SPEC, under mpirun: every check of the spec, --repeats
 * times, judged by reports/accept/accept_verdict.c; each failing job-wide all-reduce
 * point searched for its culprit hosts on sub-communicators
 * (reports/accept/accept_bisect.c), a suspect named only when its sub-test
 * fails and its complement passes, repeatedly, interleaved (else the search
 * is inconclusive); one line per check and per host, the report, the JUnit
 * file and the exit code.
 *
 * Rank 0 reads the spec and sends its text to the others, so a spec on a
 * disk only rank 0 sees is enough. The checks are the runs of the commands,
 * through the run layer's header (cmd/run/run.h): the placement of the
 * context (topo), verify_run, links_measure and the shared sweep
 * (allreduce; one sweep per collective the spec's points hold), each with
 * its command's defaults. Only rank 0 holds figures and verdicts.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "algorithms/progress.h"
#include "cmd/accept_opts.h"
#include "cmd/allreduce_opts.h"
#include "cmd/links_opts.h"
#include "cmd/verify_opts.h"
#include "reports/accept/accept_verdict.h"
#include "reports/io/links_coverage.h"
#include "reports/io/report_schema.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the communicator's rank 0 of a point tells world rank 0 about it. */
struct point_msg {
	double busbw_gbps, p99_us;
	int64_t wrong;
	int ranks;
	char skipped[ACCEPT_REASON_BYTES]; /* "" when measured */
};

struct accept_run {
	const struct accept_opts *o;
	struct cmd_ctx *ctx;
	struct accept_spec spec; /* every rank */
	struct report_context context;
	struct topo_map map;
	struct accept_figures *runs;   /* rank 0: one per repeat */
	struct accept_verdict verdict; /* rank 0 */
	cJSON *root;                   /* rank 0: the report */
	struct run_partial report;
	struct point_msg last; /* the point measured last, on the rank that recorded it */
	double deadline_s;     /* --budget: rank 0's MPI_Wtime past which nothing starts; 0: none */
	int points_left_out, searches_left_out; /* rank 0: what --budget left out */
	/* rank 0: {"coverage": ..., "suspects": [...]} of the links check's last repeat */
	cJSON *links_coverage;
};

/* Whether --budget is spent, by rank 0's clock: every rank gets the same answer. */
static bool budget_spent(struct accept_run *a)
{
	return run_any(a->ctx, a->deadline_s > 0 && a->ctx->rank == 0 && MPI_Wtime() >= a->deadline_s);
}

/* Rank 0's seconds left of --budget, shared: every rank gets the same figure (0 without one). */
static double budget_left(struct accept_run *a)
{
	double left = a->deadline_s > 0 ? a->deadline_s - MPI_Wtime() : 0;
	if (MPI_Bcast(&left, 1, MPI_DOUBLE, 0, a->ctx->comm) != MPI_SUCCESS)
		return -1;
	return left;
}

/* verify of the spec's variants, with verify's default matrix for the job's rank count. */
static int check_verify(struct accept_run *a, struct accept_figures *f)
{
	struct verify_opts vo;
	struct verify_tally tally[AR_MAX_VARIANTS];
	char err[256];
	if (opts_defaults(&verify_spec, &vo, err, sizeof err) != EXIT_OK ||
	    verify_spec.check_world(&vo, a->ctx->nranks, err, sizeof err) != EXIT_OK) {
		cmd_error(a->ctx, "accept: %s", err);
		return EXIT_RUNTIME;
	}
	memset(vo.variants, 0, sizeof vo.variants);
	for (size_t i = 0; i < a->spec.verify.nvariants; i++)
		vo.variants[ar_variant_index(ar_variant_find(a->spec.verify.variants[i]))] = true;
	cmd_progress(a->ctx, a->o->out.quiet, "accept: verify of %zu variant(s)",
	             a->spec.verify.nvariants);
	int status = verify_run(a->ctx, &vo, false, tally);
	for (size_t i = 0; status == EXIT_OK && f && i < a->spec.verify.nvariants; i++) {
		const struct verify_tally *t =
		    &tally[ar_variant_index(ar_variant_find(a->spec.verify.variants[i]))];
		struct accept_verify_figures v = {.checks = (int64_t)t->checks,
		                                  .wrong = (int64_t)t->wrong};
		snprintf(v.variant, sizeof v.variant, "%s", a->spec.verify.variants[i]);
		if (t->checks == 0)
			snprintf(v.skipped, sizeof v.skipped,
			         "every check skipped (%llu): its restrictions exclude this job",
			         (unsigned long long)t->skipped);
		if (accept_figures_add_verify(f, &v) != 0)
			status = EXIT_RUNTIME;
	}
	return status;
}

/* The links check's figures, and its coverage and suspects for the report (the last repeat's). */
struct links_hand {
	struct accept_figures *figures;
	cJSON **coverage; /* rank 0: an object holding "coverage" and "suspects" */
};

static int links_to_figures(void *arg, const struct links_view *v,
                            const struct detect_result *final,
                            const struct links_coverage *coverage)
{
	struct links_hand *h = arg;
	cJSON *c = cJSON_CreateObject();
	if (!c || !links_report_add_coverage(c, coverage) ||
	    !links_report_add_confirmed(c, v, final)) {
		cJSON_Delete(c);
		return -1;
	}
	cJSON_Delete(*h->coverage);
	*h->coverage = c;
	return accept_figures_add_links_view(h->figures, v, final);
}

int accept_links_opts(const struct accept_opts *o, double left_s, int repeats_left,
                      struct links_opts *lo, char *err, size_t len)
{
	if (opts_defaults(&links_spec, lo, err, len) != EXIT_OK ||
	    links_spec.check(lo, err, len) != EXIT_OK)
		return EXIT_RUNTIME;
	lo->probe = o->links_probe;
	lo->out.quiet = o->out.quiet;
	lo->timeout_s = 0;
	if (o->budget_s > 0) /* a budget of 0 is none: what is spent leaves a sliver */
		lo->budget_s = fmax(left_s * 0.5 / repeats_left, 0.001);
	return EXIT_OK;
}

/* links as accept_links_opts sets it; the watchdog the job's. */
static int check_links(struct accept_run *a, struct accept_figures *f, int repeats_left)
{
	double left = budget_left(a);
	struct links_opts lo;
	char err[256];
	if (accept_links_opts(a->o, left, repeats_left, &lo, err, sizeof err) != EXIT_OK) {
		cmd_error(a->ctx, "accept: %s", err);
		return EXIT_RUNTIME;
	}
	struct links_hand hand = {.figures = f, .coverage = &a->links_coverage};
	lo.slow = a->o->test_slow; /* the first measurement only: never when measured again */
	int status = links_measure(a->ctx, &lo, links_to_figures, &hand);
	if (status == EXIT_OK && f)
		accept_figures_mark(f, ACCEPT_LINKS);
	return status;
}

/*
 * Rank 0: the hosts whose own links checks failed on f (their count), and
 * beside them control hosts: rank 0's (it holds the figures) and hosts that
 * passed them and that links did not name, two such in all where there are,
 * so a host's cross-host links have partners, the controls have a link
 * between them to compare with, and the figures are of one moment.
 */
static int hosts_to_measure_again(struct accept_run *a, const struct accept_figures *f,
                                  bool *member, bool *control)
{
	int failing = accept_links_failing_hosts(&a->spec, f, member, control);
	if (failing == 0)
		return 0;
	int h0 = a->map.host_of_rank[0], controls = control[h0];
	member[h0] = true;
	for (int h = 0; h < a->map.nhosts && controls < 2; h++)
		if (!member[h] && control[h]) {
			member[h] = true;
			controls++;
		}
	cmd_progress(a->ctx, a->o->out.quiet,
	             "accept: %d host(s) failed their own links checks: their links measured again, "
	             "beside control hosts, before any is named",
	             failing);
	return failing;
}

/*
 * The communicator of the ranks on hosts[] (by world rank: world rank 0 is its
 * rank 0 when it is in), errors returned; MPI_COMM_NULL elsewhere. An MPI
 * code (named, on the rank that saw it, as the communicator of what).
 */
static int split_hosts(struct accept_run *a, const bool *hosts, const char *what, MPI_Comm *comm,
                       int *rank, int *size)
{
	char msg[MPI_MAX_ERROR_STRING];
	int in = hosts[a->map.host_of_rank[a->ctx->rank]];
	int rc = MPI_Comm_split(a->ctx->comm, in ? 0 : MPI_UNDEFINED, a->ctx->rank, comm);
	if (rc == MPI_SUCCESS && in)
		rc = MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS && in)
		rc = MPI_Comm_rank(*comm, rank);
	if (rc == MPI_SUCCESS && in)
		rc = MPI_Comm_size(*comm, size);
	if (rc != MPI_SUCCESS)
		cmd_rank_error(a->ctx, "accept: cannot make the communicator of %s: %s", what,
		               run_mpi_error_text(rc, msg, sizeof msg));
	return rc;
}

/*
 * The links of the hosts in member[] measured again, on their communicator,
 * into *again (rank 0, always a member: the communicator's rank 0 too).
 */
static int measure_again(struct accept_run *a, const bool *member, double left, int repeats_left,
                         struct accept_figures *again)
{
	struct cmd_ctx sub = *a->ctx;
	struct links_opts lo;
	cJSON *coverage = NULL;
	int in = member[a->map.host_of_rank[a->ctx->rank]];
	int rc = split_hosts(a, member, "a links re-test", &sub.comm, &sub.rank, &sub.nranks);
	int status = rc == MPI_SUCCESS ? EXIT_OK : EXIT_RUNTIME;
	if (!in) /* waiting for the members, never late (the watchdog) */
		progress_step(PROGRESS_IDLE, 0);
	if (status == EXIT_OK && in) {
		char err[256];
		struct links_hand hand = {.figures = again, .coverage = &coverage};
		status = accept_links_opts(a->o, left, repeats_left, &lo, err, sizeof err);
		if (status == EXIT_OK)
			status = links_measure(&sub, &lo, links_to_figures, &hand);
		else
			cmd_error(a->ctx, "accept: %s", err);
	}
	cJSON_Delete(coverage);
	if (in && sub.comm != MPI_COMM_NULL)
		MPI_Comm_free(&sub.comm);
	return run_any(a->ctx, status != EXIT_OK) ? (status != EXIT_OK ? status : EXIT_RUNTIME)
	                                          : EXIT_OK;
}

/*
 * A host's own links failure is named only where it reproduces (issue 29):
 * on a busy machine, a host's one pair measured while its cores were taken
 * read a tenth of its rate, and the host was failed on it. The failing
 * hosts' links are measured again at once, beside control hosts; the
 * verdict calls a failure that passes there INCONCLUSIVE
 * (figures.links_again). Past --budget, a failure stands on one measurement.
 */
static int check_links_again(struct accept_run *a, struct accept_figures *f, int repeats_left)
{
	int nhosts = a->map.nhosts, failing = 0, status = EXIT_OK;
	bool *member = calloc((size_t)(nhosts > 0 ? nhosts : 1), sizeof *member);
	/* rank 0: the hosts that may stand beside them as controls */
	bool *control = a->ctx->rank == 0 ? calloc((size_t)(nhosts > 0 ? nhosts : 1), sizeof(bool))
	                                  : NULL;
	bool no_memory = !member || (a->ctx->rank == 0 && !control);
	struct accept_figures *again = NULL;
	if (!no_memory && a->ctx->rank == 0)
		failing = hosts_to_measure_again(a, f, member, control);
	free(control);
	if (run_any(a->ctx, no_memory)) {
		cmd_rank_error(a->ctx, "accept: out of memory for a links re-test");
		free(member);
		return EXIT_RUNTIME;
	}
	if (MPI_Bcast(&failing, 1, MPI_INT, 0, a->ctx->comm) != MPI_SUCCESS ||
	    (failing > 0 && MPI_Bcast(member, nhosts, MPI_C_BOOL, 0, a->ctx->comm) != MPI_SUCCESS))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && failing > 0 && budget_spent(a)) {
		cmd_progress(a->ctx, a->o->out.quiet,
		             "# --budget spent: the links of %d failing host(s) not measured again",
		             failing);
		failing = 0;
	}
	double left = status == EXIT_OK && failing > 0 ? budget_left(a) : 0;
	if (status == EXIT_OK && failing > 0 && a->ctx->rank == 0) {
		again = calloc(1, sizeof *again);
		if (again)
			accept_figures_init(again);
		if (!again || accept_figures_set_hosts(again, &a->context) != 0)
			status = EXIT_RUNTIME;
	}
	if (failing > 0 && run_any(a->ctx, status != EXIT_OK))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && failing > 0)
		status = measure_again(a, member, left, repeats_left, again);
	if (status == EXIT_OK && again) {
		f->links_again = again;
		again = NULL;
	}
	if (again) {
		accept_figures_release(again);
		free(again);
	}
	free(member);
	return status;
}

/* sweep_point_fn: the point, kept for the rank that measured it to tell rank 0. */
static int keep_point(void *arg, int v, const struct ar_record *r, const struct bench_result *br,
                      cJSON *rec)
{
	struct accept_run *a = arg;
	(void)v;
	(void)br;
	(void)rec;
	a->last = (struct point_msg){.busbw_gbps = r->skipped ? NAN : r->busbw_gbps,
	                             .p99_us = r->skipped ? NAN : r->time.p99_us,
	                             .wrong = r->skipped ? -1 : r->wrong,
	                             .ranks = r->ranks};
	if (r->skipped)
		snprintf(a->last.skipped, sizeof a->last.skipped, "%s", r->skipped);
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/*
 * The sweep options of the spec's points of collective c: allreduce's
 * defaults, the spec's dtype and op, those points' variants and sizes.
 */
static int sweep_options(const struct accept_run *a, enum ar_collective c, struct ar_opts *ao)
{
	char err[256];
	const struct accept_allreduce_spec *s = &a->spec.allreduce;
	if (opts_defaults(&allreduce_spec, ao, err, sizeof err) != EXIT_OK)
		return -1;
	memset(ao->sweep.variants, 0, sizeof ao->sweep.variants);
	ao->sweep.nsizes = 0;
	ao->sweep.collective = (int)c;
	ar_dtype_parse(s->dtype, &ao->sweep.dtype);
	ar_op_parse(s->op, &ao->sweep.op);
	ao->in_place = s->in_place;
	for (size_t i = 0; i < s->npoints; i++) {
		bool seen = false;
		if (s->points[i].collective != c)
			continue;
		ao->sweep.variants[ar_variant_index(ar_variant_find(s->points[i].variant))] = true;
		for (int k = 0; k < ao->sweep.nsizes; k++)
			seen |= ao->sweep.sizes[k] == s->points[i].bytes;
		if (!seen && ao->sweep.nsizes < SWEEP_MAX_SIZES)
			ao->sweep.sizes[ao->sweep.nsizes++] = s->points[i].bytes;
	}
	/* ascending: the buffers are sized on the last */
	qsort(ao->sweep.sizes, (size_t)ao->sweep.nsizes, sizeof ao->sweep.sizes[0], cmp_u64);
	return 0;
}

/* The point the communicator's rank 0 recorded, to world rank 0 (everyone calls it). */
static int share_point(struct accept_run *a, int from)
{
	int rc = MPI_Bcast(&a->last, sizeof a->last, MPI_BYTE, from, a->ctx->comm);
	return rc == MPI_SUCCESS ? EXIT_OK : EXIT_RUNTIME;
}

static int add_point(struct accept_run *a, struct accept_figures *f, size_t point)
{
	const struct accept_ar_point *p = &a->spec.allreduce.points[point];
	struct accept_point_figures fig = {.collective = p->collective,
	                                   .in_place = a->spec.allreduce.in_place,
	                                   .bytes = p->bytes,
	                                   .ranks = a->last.ranks,
	                                   .busbw_gbps = a->last.busbw_gbps,
	                                   .p99_us = a->last.p99_us,
	                                   .wrong = a->last.wrong};
	snprintf(fig.variant, sizeof fig.variant, "%s", p->variant);
	snprintf(fig.dtype, sizeof fig.dtype, "%s", a->spec.allreduce.dtype);
	snprintf(fig.op, sizeof fig.op, "%s", a->spec.allreduce.op);
	snprintf(fig.skipped, sizeof fig.skipped, "%s", a->last.skipped);
	return accept_figures_add_point(f, &fig) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* Whether run_points measures spec point i of collective coll: all (only < 0) or `only`. */
static bool runs_point(const struct accept_run *a, enum ar_collective coll, long only, size_t i)
{
	return a->spec.allreduce.points[i].collective == coll && (only < 0 || (size_t)only == i);
}

/*
 * The points of collective coll of run_points, in one sweep: its plans are
 * built for one collective (sweep_plan). Progress and errors name a half:
 * "accept: reduce_scatter: ...".
 */
static int run_collective(struct accept_run *a, enum ar_collective coll, const struct sweep_comm *c,
                          int lowest, long only, bool p99, struct accept_figures *f)
{
	static const char *const command[AR_COLLECTIVES] = {"accept", "accept: reduce_scatter",
	                                                    "accept: allgather"};
	struct ar_opts ao;
	struct sweep s;
	int status = sweep_options(a, coll, &ao) == 0 ? EXIT_OK : EXIT_RUNTIME, total = 0;
	for (size_t i = 0; i < a->spec.allreduce.npoints; i++)
		total += runs_point(a, coll, only, i);
	sweep_init(&s, a->ctx, command[coll], &ao.sweep, ao.in_place, a->o->out.quiet);
	s.on_point = keep_point;
	s.on_point_arg = a;
	if (status == EXIT_OK)
		status = sweep_setup(&s, total);
	if (p99)
		s.cfg.min_iters = 100;
	for (size_t i = 0; status == EXIT_OK && i < a->spec.allreduce.npoints; i++) {
		const struct accept_ar_point *p = &a->spec.allreduce.points[i];
		if (!runs_point(a, coll, only, i))
			continue;
		int v = ar_variant_index(ar_variant_find(p->variant));
		if (budget_spent(a)) {
			/* not measured: the check fails on it (a gate never passes on nothing) */
			a->last = (struct point_msg){.busbw_gbps = NAN, .p99_us = NAN, .wrong = -1,
			                             .ranks = c->nranks};
			snprintf(a->last.skipped, sizeof a->last.skipped, "--budget spent");
			a->points_left_out += a->ctx->rank == 0;
		} else {
			status = sweep_point(&s, v, p->bytes, c);
			if (status == EXIT_OK)
				status = share_point(a, lowest);
		}
		if (status == EXIT_OK && a->ctx->rank == 0)
			status = add_point(a, f, i);
	}
	sweep_release(&s);
	return status;
}

/*
 * Points of the spec on communicator c (the job, or a subset of hosts whose
 * lowest world rank is `lowest`): all of them (only < 0) or point `only`, into
 * f on rank 0, one sweep per collective they hold (every rank holds the spec:
 * all agree on which). p99: enough iterations for a p99 (reports/README.md: 100).
 */
static int run_points(struct accept_run *a, const struct sweep_comm *c, int lowest, long only,
                      bool p99, struct accept_figures *f)
{
	int status = EXIT_OK;
	for (int k = 0; status == EXIT_OK && k < AR_COLLECTIVES; k++) {
		enum ar_collective coll = (enum ar_collective)k;
		bool any = false;
		for (size_t i = 0; i < a->spec.allreduce.npoints; i++)
			any |= runs_point(a, coll, only, i);
		if (any)
			status = run_collective(a, coll, c, lowest, only, p99, f);
	}
	return status;
}

/* One repeat of every check of the spec; f on rank 0 only. */
static int run_repeat(struct accept_run *a, int repeat, struct accept_figures *f)
{
	int status = EXIT_OK;
	cmd_progress(a->ctx, a->o->out.quiet, "accept: repeat %d of %d", repeat + 1, a->o->repeats);
	if (f && accept_figures_set_hosts(f, &a->context) != 0)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && a->spec.has[ACCEPT_VERIFY])
		status = check_verify(a, f);
	if (status == EXIT_OK && a->spec.has[ACCEPT_LINKS])
		status = check_links(a, f, a->o->repeats - repeat);
	if (status == EXIT_OK && a->spec.has[ACCEPT_LINKS])
		status = check_links_again(a, f, a->o->repeats - repeat);
	if (status == EXIT_OK && a->spec.has[ACCEPT_ALLREDUCE]) {
		struct sweep_comm world = {.comm = a->ctx->comm,
		                           .rank = a->ctx->rank,
		                           .nranks = a->ctx->nranks,
		                           .hosts = a->map.nhosts,
		                           .whole = true};
		bool p99 = false;
		for (size_t i = 0; i < a->spec.allreduce.npoints; i++)
			p99 |= !isnan(a->spec.allreduce.points[i].max_p99_us);
		status = run_points(a, &world, 0, -1, p99, f);
	}
	return status;
}

/* Which spec point a searchable result judges: its index (accept_result.index). */
static long point_of(const struct accept_verdict *v, size_t result)
{
	return v->results[result].index;
}

/*
 * One test of a culprit search: the point on the ranks of the hosts in
 * subset[] (broadcast by rank 0), judged by rank 0: *outcome and *figure on
 * rank 0 (UNKNOWN when the point was not measured there: no evidence).
 */
static int test_subset(struct accept_run *a, const bool *subset, long point, bool p99,
                       size_t result, enum accept_outcome *outcome, double *figure)
{
	struct sweep_comm c = {.comm = MPI_COMM_NULL};
	struct accept_figures f;
	int lowest = -1, hosts = 0;
	for (int r = 0; r < a->ctx->nranks && lowest < 0; r++)
		if (subset[a->map.host_of_rank[r]])
			lowest = r;
	for (int h = 0; h < a->map.nhosts; h++)
		hosts += subset[h];
	int rc = split_hosts(a, subset, "a search", &c.comm, &c.rank, &c.nranks);
	if (run_any(a->ctx, rc != MPI_SUCCESS))
		return EXIT_RUNTIME;
	c.hosts = hosts;
	accept_figures_init(&f);
	int status = a->ctx->rank == 0 && accept_figures_set_hosts(&f, &a->context) != 0
	                 ? EXIT_RUNTIME
	                 : EXIT_OK;
	if (run_any(a->ctx, status != EXIT_OK))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = run_points(a, &c, lowest, point, p99, a->ctx->rank == 0 ? &f : NULL);
	if (status == EXIT_OK && a->ctx->rank == 0)
		*outcome = accept_result_outcome(&a->spec, &a->verdict, result, &f, figure);
	accept_figures_release(&f);
	if (c.comm != MPI_COMM_NULL)
		MPI_Comm_free(&c.comm);
	return status;
}

/* Rank 0 steers the search of one result; every rank runs its tests. */
static int search(struct accept_run *a, size_t result)
{
	struct accept_bisect b;
	int nh = a->map.nhosts, status = EXIT_OK;
	bool *subset = calloc((size_t)nh, sizeof *subset);
	long point = a->ctx->rank == 0 ? point_of(&a->verdict, result) : 0;
	/* only a p99 search pays for 100 iterations a test */
	int p99 = a->ctx->rank == 0 && a->verdict.results[result].fault == ACCEPT_AR_P99_HIGH;
	bool failed = !subset || (a->ctx->rank == 0 && accept_bisect_init(&b, nh) != 0);
	if (run_any(a->ctx, failed)) {
		free(subset);
		return EXIT_RUNTIME;
	}
	if (MPI_Bcast(&point, 1, MPI_LONG, 0, a->ctx->comm) != MPI_SUCCESS ||
	    MPI_Bcast(&p99, 1, MPI_INT, 0, a->ctx->comm) != MPI_SUCCESS)
		status = EXIT_RUNTIME;
	for (int step = 0; status == EXIT_OK; step++) {
		int more = a->ctx->rank == 0 ? accept_bisect_next(&b, subset) : 0;
		enum accept_outcome outcome = ACCEPT_TEST_UNKNOWN;
		double figure = NAN;
		if (MPI_Bcast(&more, 1, MPI_INT, 0, a->ctx->comm) != MPI_SUCCESS ||
		    (more && MPI_Bcast(subset, nh, MPI_C_BOOL, 0, a->ctx->comm) != MPI_SUCCESS)) {
			status = EXIT_RUNTIME;
			break;
		}
		if (!more)
			break;
		cmd_progress(a->ctx, a->o->out.quiet, "accept: culprit search, test %d", step + 1);
		status = test_subset(a, subset, point, p99, result, &outcome, &figure);
		if (status == EXIT_OK && a->ctx->rank == 0 &&
		    accept_bisect_record(&b, outcome, figure) != 0)
			status = EXIT_RUNTIME;
		if (run_any(a->ctx, status != EXIT_OK))
			status = EXIT_RUNTIME;
	}
	if (status == EXIT_OK && a->ctx->rank == 0 &&
	    accept_verdict_add_isolation(&a->verdict, result, &b) != 0)
		status = EXIT_RUNTIME;
	if (a->ctx->rank == 0)
		accept_bisect_release(&b);
	free(subset);
	return status;
}

/*
 * Of the searchable results, those a test on a subset of hosts can judge:
 * the all-reduce points (a verify result names no single point to rerun),
 * each point once: when both its bandwidth and its p99 failed, the first
 * listed (bandwidth) is searched, so the search costs one per failing point.
 */
static size_t one_per_point(const struct accept_verdict *v, size_t *list, size_t n)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		const struct accept_result *r = &v->results[list[i]];
		bool seen = r->kind != ACCEPT_ALLREDUCE;
		for (size_t k = 0; k < kept && !seen; k++)
			seen = v->results[list[k]].index == r->index;
		if (!seen)
			list[kept++] = list[i];
	}
	return kept;
}

/* The failing job-wide points searched one after another. */
static int search_all(struct accept_run *a)
{
	size_t *list = NULL;
	long n = 0;
	bool segment = false;
	if (a->ctx->rank == 0) {
		list = calloc(a->verdict.nresults + 1, sizeof *list);
		n = list ? (long)one_per_point(&a->verdict, list,
		                               accept_verdict_searchable(&a->verdict, list))
		         : -1;
		for (int k = 0; k < a->o->repeats; k++)
			segment |= accept_figures_segment(&a->runs[k]);
		/* a slow segment explains the point; a search would name the hosts behind it */
		if (n > 0 && segment) {
			if (!a->o->out.quiet)
				printf("SEARCH  none: links confirmed a slow segment between sets of hosts, "
				       "which explains the failing point%s (the links suspects line names "
				       "it); a search would name the hosts on one side of it\n",
				       n > 1 ? "s" : "");
			n = 0;
		}
	}
	if (MPI_Bcast(&n, 1, MPI_LONG, 0, a->ctx->comm) != MPI_SUCCESS || n < 0 ||
	    run_any(a->ctx, a->ctx->rank == 0 && !list)) {
		free(list);
		return EXIT_RUNTIME;
	}
	int status = EXIT_OK;
	/* one host: nothing to split; past --budget no search starts */
	for (long i = 0; status == EXIT_OK && a->map.nhosts > 1 && i < n; i++) {
		if (budget_spent(a)) {
			a->searches_left_out = (int)(n - i);
			break;
		}
		status = search(a, a->ctx->rank == 0 ? list[i] : 0);
	}
	free(list);
	return status;
}

/* One item of the links check's (of its last repeat) into the report's summary as key. */
static bool move_links_item(struct accept_run *a, cJSON *summary, const char *from,
                            const char *key)
{
	cJSON *x = cJSON_DetachItemFromObjectCaseSensitive(a->links_coverage, from);
	if (!x)
		return true;
	if (cJSON_AddItemToObject(summary, key, x))
		return true;
	cJSON_Delete(x);
	return false;
}

/*
 * The links check's coverage and confirmed suspects (of its last repeat)
 * into the report's summary; false: no memory.
 */
static bool add_coverage(struct accept_run *a)
{
	cJSON *summary = cJSON_GetObjectItemCaseSensitive(a->root, SK_REPORT_SUMMARY);
	return summary && move_links_item(a, summary, SK_LSUM_COVERAGE, SK_ACCSUM_COVERAGE) &&
	       move_links_item(a, summary, SK_LSUM_SUSPECTS, SK_ACCSUM_LINKS_SUSPECTS);
}

/* Rank 0: every line, the report's verdict, the JUnit file. */
static int conclude(struct accept_run *a)
{
	char line[1024];
	const struct accept_verdict *v = &a->verdict;
	/* the lines hold host names and a spec's strings as they are: printed escaped */
	for (size_t i = 0; i < v->nresults; i++)
		if (accept_format_result(v, i, line, sizeof line) >= 0)
			cmd_print("%s", line);
	for (size_t i = 0; i < v->nisolations; i++)
		if (accept_format_isolation(v, i, line, sizeof line) >= 0)
			cmd_print("%s", line);
	for (int h = 0; h < v->nhosts; h++)
		if (accept_format_host(v, h, line, sizeof line) >= 0)
			cmd_print("%s", line);
	if (accept_format_summary(v, line, sizeof line) >= 0)
		cmd_print("%s", line);
	fflush(stdout);
	int status = EXIT_OK;
	if (a->o->junit) {
		struct html_buf x;
		char err[1024];
		html_buf_init(&x);
		if (accept_junit(v, &x) != 0 || x.failed) {
			cmd_error(a->ctx, "accept: out of memory for the JUnit file");
			status = EXIT_RUNTIME;
		} else {
			int rc = report_write_text_atomic(a->o->junit, x.data, x.len,
			                                  a->o->out.force, err, sizeof err);
			if (rc != REPORT_OK)
				cmd_error(a->ctx, "accept: %s", err);
			status = rc == REPORT_OK       ? EXIT_OK
			         : rc == REPORT_EUSAGE ? EXIT_USAGE
			                               : EXIT_RUNTIME;
		}
		html_buf_release(&x);
	}
	run_partial_lock(&a->report);
	run_context_end(&a->context);
	if (a->root && (!accept_verdict_to_json(a->root, v) || !add_coverage(a))) {
		cmd_error(a->ctx, "accept: out of memory for the report");
		status = EXIT_RUNTIME;
	} else if (a->root) {
		int wrc = run_partial_complete_locked(&a->report, a->context.finished_utc);
		status = status == EXIT_OK ? wrc : status;
	}
	run_partial_unlock(&a->report);
	if (status == EXIT_OK && accept_verdict_failed(v))
		status = EXIT_CHECK_FAILED;
	return status;
}

/* Rank 0: the report's skeleton (context, config with the spec), written at once. */
static int start_report(struct accept_run *a)
{
	bool failed = false;
	if (a->ctx->rank == 0 && a->o->out.output) {
		cJSON *cfg = NULL, *spec = NULL;
		a->root = run_report_new("accept", &a->context);
		failed =
		    !a->root || !(cfg = opts_to_json(a->root, &accept_cmd_spec, a->o)) ||
		    !cJSON_AddStringToObject(cfg, "spec_path", a->o->args.items[0]) ||
		    !(spec = cJSON_AddObjectToObject(cfg, "spec")) ||
		    !accept_spec_to_json(spec, &a->spec) ||
		    run_partial_start(&a->report, a->root, a->o->out.output, a->o->out.force) != 0;
		if (failed)
			cmd_error(a->ctx, "accept: out of memory for the report");
	}
	int status = failed ? EXIT_RUNTIME : run_partial_flush(&a->report);
	return run_any(a->ctx, status != EXIT_OK) ? (status ? status : EXIT_RUNTIME) : EXIT_OK;
}

static void print_header(const struct accept_run *a)
{
	const struct accept_spec *s = &a->spec;
	if (a->ctx->rank == 0 && s->fragile)
		fprintf(stderr,
		        "collscope: warning: accept: spec '%s' is fragile: some thresholds come from a "
		        "single run, with no run-to-run spread measured (its derived.fragile_thresholds)"
		        "; a clean run may fail them\n",
		        a->o->args.items[0]);
	if (a->ctx->rank != 0 || a->o->out.quiet)
		return;
	cmd_print("# collscope accept: spec '%s'%s%s%s, %d ranks on %d host%s; %d repeat%s; "
	          "checks:%s%s%s%s",
	       a->o->args.items[0], s->name[0] ? " (" : "", s->name, s->name[0] ? ")" : "",
	       a->ctx->nranks, a->context.nhosts, a->context.nhosts == 1 ? "" : "s", a->o->repeats,
	       a->o->repeats == 1 ? "" : "s", s->has[ACCEPT_TOPOLOGY] ? " topology" : "",
	       s->has[ACCEPT_VERIFY] ? " verify" : "", s->has[ACCEPT_LINKS] ? " links" : "",
	       s->has[ACCEPT_ALLREDUCE] ? " allreduce" : "");
	fflush(stdout);
}

int accept_measure(struct cmd_ctx *ctx, const struct accept_opts *o)
{
	struct accept_run a = {.o = o, .ctx = ctx};
	accept_spec_init(&a.spec);
	accept_verdict_init(&a.verdict);
	topo_map_init(&a.map);
	report_context_init(&a.context);
	run_partial_init(&a.report, ctx);
	int status = run_check_output(ctx, "accept", &o->out);
	if (status == EXIT_OK && o->junit) {
		struct cmd_out j = {.output = o->junit, .force = o->out.force};
		status = run_check_output(ctx, "accept", &j);
	}
	if (status == EXIT_OK)
		status = accept_load_spec(ctx, o->args.items[0], &a.spec);
	if (status == EXIT_OK && run_context_begin(ctx, &a.context, &a.map) != 0)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = start_report(&a);
	if (status == EXIT_OK &&
	    watchdog_start(ctx, "accept", o->timeout_s, run_partial_on_hang, &a.report) != 0)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && ctx->rank == 0 &&
	    !(a.runs = calloc((size_t)o->repeats, sizeof *a.runs)))
		status = EXIT_RUNTIME;
	if (run_any(ctx, status == EXIT_OK && ctx->rank == 0 && !a.runs))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		print_header(&a);
	if (status == EXIT_OK && o->budget_s > 0)
		a.deadline_s = MPI_Wtime() + o->budget_s;
	for (int r = 0; a.runs && r < o->repeats; r++)
		accept_figures_init(&a.runs[r]);
	int done = 0;
	for (; status == EXIT_OK && done < o->repeats; done++) {
		if (done > 0 && budget_spent(&a))
			break; /* the first repeat always runs: the verdict needs one */
		status = run_repeat(&a, done, ctx->rank == 0 ? &a.runs[done] : NULL);
	}
	if (status == EXIT_OK && done < o->repeats)
		cmd_progress(ctx, o->out.quiet, "accept: --budget spent: %d of %d repeats judged",
		             done, o->repeats);
	if (status == EXIT_OK && ctx->rank == 0) {
		char err[1024];
		if (accept_judge(&a.spec, a.runs, (size_t)done, &a.verdict, err, sizeof err) != 0) {
			cmd_error(ctx, "accept: %s", err);
			status = EXIT_RUNTIME;
		}
	}
	if (run_any(ctx, status != EXIT_OK) && status == EXIT_OK)
		status = EXIT_RUNTIME;
	if (status == EXIT_OK)
		status = search_all(&a);
	if (status == EXIT_OK && ctx->rank == 0 && (a.points_left_out || a.searches_left_out))
		cmd_print("# --budget spent: %d all-reduce point%s not measured (each fails), %d "
		          "culprit search%s not run",
		          a.points_left_out, a.points_left_out == 1 ? "" : "s", a.searches_left_out,
		       a.searches_left_out == 1 ? "" : "es");
	progress_step(PROGRESS_DONE, 0);
	watchdog_stop();
	if (status == EXIT_OK && ctx->rank == 0)
		status = conclude(&a);
	for (int r = 0; a.runs && r < o->repeats; r++)
		accept_figures_release(&a.runs[r]);
	free(a.runs);
	accept_verdict_release(&a.verdict);
	accept_spec_release(&a.spec);
	cJSON_Delete(a.root);
	cJSON_Delete(a.links_coverage);
	report_context_release(&a.context);
	topo_map_release(&a.map);
	run_partial_release(&a.report);
	return status;
}
