/*
 * The plan of a links run and its screening (issue 28): which pairs each
 * round measures (probes/plan.h), --budget, --plan-only, the rounds measured
 * through probes/rounds.h, and after screening the follow-up rounds that
 * reports/diagnose/screen_search.h asks for, only where something was
 * flagged. The judgement and the re-test stay links_run.c's: they are the
 * same for every pattern.
 */
#include <mpi.h>

#include "cmd/run/links_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "algorithms/progress.h"
#include "probes/rounds.h"
#include "probes/tournament.h"
#include "reports/diagnose/screen_search.h"
#include "reports/io/links_coverage.h"

enum { PLAN_TEXT_MAX = 2048 };

int links_plan_make(const struct links_opts *o, int nranks, int nhosts, const int *host_of_rank,
                    struct links_plan *out)
{
	*out = (struct links_plan){.probe = o->probe};
	out->pattern = links_pattern_for(o->pattern, nranks, nhosts, host_of_rank);
	bool screen = out->pattern & LINKS_SCREEN;
	if (probe_plan_build(&out->plan, screen ? PROBE_PLAN_SCREEN : PROBE_PLAN_PAIRS, nranks,
	                     nhosts, host_of_rank) != 0)
		return -1;
	out->plan.rails = screen && o->rails;
	int rounds = out->pattern & LINKS_PAIRS ? probe_plan_rounds(&out->plan) : 0;
	if (out->pattern & LINKS_SHIFT)
		rounds += probe_shift_steps(nranks);
	out->reserve_rounds = LINKS_RETEST_PAIRS + (screen ? SCREEN_FOLLOWUP_ROUNDS : 0);
	out->fit_rounds = probe_plan_fit(rounds, out->reserve_rounds, o->budget_s, &out->probe);
	return 0;
}

void links_plan_release(struct links_plan *p)
{
	probe_plan_release(&p->plan);
}

int links_plan_text(const struct links_plan *p, double budget_s, char *buf, size_t len)
{
	int k = 0;
	if (p->pattern & LINKS_PAIRS)
		k = probe_plan_describe(&p->plan, &p->probe, budget_s, p->reserve_rounds, buf, len);
	else if (len > 0)
		buf[0] = 0;
	size_t at = k > 0 && (size_t)k < len ? (size_t)k : 0;
	int steps = probe_shift_steps(p->plan.nranks);
	if (p->pattern & LINKS_SHIFT && at < len)
		k += snprintf(buf + at, len - at,
		              "# plan: the shift pattern: %d step%s, every rank sending at once, "
		              "about %.0f s\n",
		              steps, steps == 1 ? "" : "s",
		              steps * (3 * p->probe.bw_time_s + PROBE_PLAN_ROUND_OVERHEAD_S));
	return k;
}

/* --plan-only for hosts x ranks, no MPI: ranks placed in blocks, as mpirun does by slot. */
static int plan_for_hosts(const struct links_opts *o)
{
	const int64_t n = (int64_t)o->planning.hosts * o->planning.ranks_per_host;
	struct links_plan plan;
	char text[PLAN_TEXT_MAX];
	int *host = opts_plan_host_of_rank(&o->planning); /* n is checked with the options */
	if (!host || links_plan_make(o, (int)n, o->planning.hosts, host, &plan) != 0) {
		free(host);
		fprintf(stderr,
		        "collscope: error: links: out of memory for the plan of %lld ranks\n",
		        (long long)n);
		return EXIT_RUNTIME;
	}
	links_plan_text(&plan, o->budget_s, text, sizeof text);
	fputs(text, stdout);
	fflush(stdout);
	links_plan_release(&plan);
	free(host);
	return EXIT_OK;
}

int links_plan_only(const struct cmd_ctx *ctx, const struct links_opts *o)
{
	if (!ctx->mpi)
		return plan_for_hosts(o);
	struct report_context c;
	struct topo_map map;
	struct links_plan plan;
	int status = EXIT_OK;
	report_context_init(&c);
	topo_map_init(&map);
	if (run_context_begin(ctx, &c, &map) != 0)
		status = EXIT_RUNTIME;
	else if (ctx->rank == 0) {
		char text[PLAN_TEXT_MAX];
		if (links_plan_make(o, ctx->nranks, map.nhosts, map.host_of_rank, &plan) != 0) {
			cmd_error(ctx, "links: out of memory for the plan");
			status = EXIT_RUNTIME;
		} else {
			links_plan_text(&plan, o->budget_s, text, sizeof text);
			fputs(text, stdout);
			fflush(stdout);
			links_plan_release(&plan);
		}
	}
	topo_map_release(&map);
	report_context_release(&c);
	return status;
}

int links_choose(struct links_run *r)
{
	int rc =
	    links_plan_make(&r->eff, r->ctx->nranks, r->map.nhosts, r->map.host_of_rank, &r->plan);
	if (rc != 0)
		cmd_rank_error(r->ctx, "links: out of memory for the plan");
	if (run_any(r->ctx, rc != 0))
		return EXIT_RUNTIME;
	r->plan_ready = true;
	r->eff.pattern = r->plan.pattern;
	r->eff.probe = r->plan.probe;
	r->start_s = MPI_Wtime();
	r->deadline_s = r->eff.budget_s > 0 ? r->start_s + r->eff.budget_s : 0;
	return EXIT_OK;
}

void links_print_plan(const struct links_run *r, bool to_stdout)
{
	char text[PLAN_TEXT_MAX];
	if (r->ctx->rank != 0 || r->ctx->nranks < 2 || r->eff.out.quiet || !r->plan_ready)
		return;
	links_plan_text(&r->plan, r->eff.budget_s, text, sizeof text);
	fputs(text, to_stdout ? stdout : stderr);
	fflush(to_stdout ? stdout : stderr);
}

static void before_round(void *arg, int k)
{
	struct links_run *r = arg;
	const struct probe_plan *p = &r->plan.plan;
	long long pairs = (long long)probe_plan_round_pairs(p, k);
	cmd_progress(r->ctx, r->o->out.quiet, "links: round %d of %d (%s): %lld pair%s, %s", k + 1,
	             probe_plan_rounds(p), probe_round_kind_name(probe_plan_kind(p, k)), pairs,
	             pairs == 1 ? "" : "s",
	             r->o->mode == PROBE_CONCURRENT ? "concurrent" : "isolated");
	progress_point(PROGRESS_LINKS_ROUND, r->o->probe.bw_bytes);
	progress_step(PROGRESS_TIMED, k + 1);
}

static int after_round(void *arg, int k, int rc)
{
	struct links_run *r = arg;
	char what[64];
	snprintf(what, sizeof what, "round %d", k + 1);
	return links_step_failed(r, rc, rc != MPI_SUCCESS || links_summarize(r, false), what)
	           ? EXIT_RUNTIME
	           : 0;
}

static int rounds(struct links_run *r, int from, int to)
{
	const struct probe_rounds_hooks hooks = {before_round, after_round, r};
	int ran = 0;
	int rc =
	    probe_links_rounds(&r->probe, &r->plan.plan, from, to, (enum probe_mode)r->o->mode,
	                       r->deadline_s, probe_plan_round_seconds(&r->o->probe), &hooks, &ran);
	r->rounds_run += ran;
	if (rc == 0 && ran < to - from) {
		r->stopped_by_budget = true;
		cmd_progress(r->ctx, r->o->out.quiet,
		             "links: --budget %g s: %d of %d rounds fit, the rest not measured",
		             r->o->budget_s, ran, to - from);
	}
	return rc != 0 ? EXIT_RUNTIME : EXIT_OK;
}

/* Rank 0 plans the next follow-up round; every rank gets it. The pairs, or -1. */
static int next_followup(struct links_run *r, int *pairing, struct screen_search_info *info)
{
	const int nh = r->map.nhosts;
	int k = 0;
	if (r->ctx->rank == 0) {
		struct links_view v = links_view_of(r);
		k = links_judged_host_matrix(&v, false, r->cells) != 0
		        ? -1
		        : screen_followup(r->cells, nh, &r->o->detect, pairing, info);
	}
	int rc = MPI_Bcast(&k, 1, MPI_INT, 0, r->ctx->comm);
	if (rc == MPI_SUCCESS && k > 0)
		rc = MPI_Bcast(pairing, nh, MPI_INT, 0, r->ctx->comm);
	if (links_step_failed(r, rc, k >= 0, "planning the follow-up"))
		return -1;
	return k;
}

/* Screening flagged something: follow-up rounds until the search asks nothing more. */
static int follow_up(struct links_run *r)
{
	const int nh = r->map.nhosts;
	int *pairing = calloc((size_t)nh, sizeof *pairing);
	int status = EXIT_OK;
	if (links_step_failed(r, MPI_SUCCESS, pairing != NULL, "planning the follow-up"))
		status = EXIT_RUNTIME;
	while (status == EXIT_OK && r->followup_rounds < SCREEN_FOLLOWUP_ROUNDS) {
		struct screen_search_info info = {0};
		int k = next_followup(r, pairing, &info);
		if (k <= 0) {
			status = k < 0 ? EXIT_RUNTIME : EXIT_OK;
			break;
		}
		cmd_progress(r->ctx, r->o->out.quiet,
		             "links: follow-up %d: %d host pair%s (screening flagged %d host%s, "
		             "%d slow cell%s)",
		             r->followup_rounds + 1, k, k == 1 ? "" : "s", info.flagged_hosts,
		             info.flagged_hosts == 1 ? "" : "s", info.slow_cells,
		             info.slow_cells == 1 ? "" : "s");
		int rc = probe_plan_add_followup(&r->plan.plan, pairing);
		if (links_step_failed(r, MPI_SUCCESS, rc == 0, "planning the follow-up"))
			status = EXIT_RUNTIME;
		int at = r->plan.plan.cross_rounds - 1, before = r->rounds_run;
		if (status == EXIT_OK)
			status = rounds(r, at, at + 1);
		if (status == EXIT_OK && r->rounds_run == before)
			break; /* the budget */
		r->followup_rounds++;
		if (status == EXIT_OK)
			status = links_gather_rows(r);
	}
	free(pairing);
	return status;
}

int links_measure_plan(struct links_run *r)
{
	int n =
	    r->eff.pattern & LINKS_PAIRS && r->probe_ready ? probe_plan_rounds(&r->plan.plan) : 0;
	int status = rounds(r, 0, n);
	if (status == EXIT_OK)
		status = links_gather_rows(r);
	if (status == EXIT_OK && r->eff.pattern & LINKS_SCREEN && n > 0 && !r->stopped_by_budget)
		status = follow_up(r);
	return status;
}

/* Rank 0: distinct hosts each host was measured with, from the host matrix. */
static void host_partners(const struct links_run *r, int *fewest, int *covered, int64_t *pairs)
{
	const int nh = r->map.nhosts;
	*fewest = nh > 1 ? nh - 1 : 0;
	*covered = 0;
	*pairs = 0;
	for (int h = 0; h < nh; h++) {
		int k = 0;
		for (int x = 0; x < nh; x++)
			k += x != h &&
			     (isfinite(r->cells[h * nh + x]) || isfinite(r->cells[x * nh + h]));
		*fewest = k < *fewest ? k : *fewest;
		*covered += k >= PROBE_PLAN_MIN_PARTNERS || k == nh - 1;
		*pairs += k;
	}
	*pairs /= 2;
}

void links_coverage_of(const struct links_run *r, struct links_coverage *out)
{
	const int n = r->ctx->nranks, nh = r->map.nhosts;
	const struct probe_plan *p = &r->plan.plan;
	struct links_view v = links_view_of(r);
	*out = (struct links_coverage){
	    .pattern = links_pattern_name(r->eff.pattern),
	    .rounds = r->rounds_run,
	    .screening_rounds = p->pattern == PROBE_PLAN_SCREEN ? p->screen_rounds : 0,
	    .followup_rounds = r->followup_rounds,
	    .intra_host_rounds = p->pattern == PROBE_PLAN_SCREEN ? p->intra_rounds : 0,
	    .pairs_total = (int64_t)n * (n - 1) / 2,
	    .host_pairs_total = (int64_t)nh * (nh - 1) / 2,
	    .budget_s = r->eff.budget_s > 0 ? r->eff.budget_s : NAN,
	    .elapsed_s = MPI_Wtime() - r->start_s,
	    .stopped_by_budget = r->stopped_by_budget,
	};
	size_t at = 0;
	for (int a, b; links_next_measured(&v, &at, &a, &b);) /* each pair once */
		out->pairs_measured += a < b || !links_view_record(&v, b, a)->measured;
	int covered = 0;
	if (nh > 1 && links_judged_host_matrix(&v, false, r->cells) == 0)
		host_partners(r, &out->min_partners, &covered, &out->host_pairs_measured);
	/*
	 * A slow cell is named from this slowdown on (the classifier's reference,
	 * both tests): a link, and a segment, whose cells each must pass. A host
	 * is judged on its whole row or column at once (its median, step 2b of
	 * classify.h), so less slows it enough, with as few cells as the host
	 * with the fewest partners has; under 3 its cells are judged one by one.
	 */
	const struct classify_info *ci = &r->info_pairs[1];
	double s =
	    ci->judged ? detect_sensitivity(&ci->as_class, DETECT_BANDWIDTH, &r->o->detect) : NAN;
	double host = classify_host_sensitivity(ci, &r->o->detect, out->min_partners);
	for (int k = 0; k < DETECT_KINDS; k++) {
		out->rules_out[k].slowdown_percent = 100 * (k == DETECT_HOST && isfinite(host) ? host : s);
		out->rules_out[k].covered =
		    k == DETECT_LINK ? (int)out->host_pairs_measured : covered;
		out->rules_out[k].of = k == DETECT_LINK ? (int)out->host_pairs_total : nh;
	}
}

void links_print_coverage(const struct links_run *r)
{
	struct links_coverage c;
	if (r->ctx->rank != 0 || r->ctx->nranks < 2 ||
	    !(r->eff.pattern & LINKS_SCREEN || r->eff.budget_s > 0))
		return;
	links_coverage_of(r, &c);
	printf("# coverage: %s, %d round%s (%d follow-up), %lld of %lld pairs, %lld of %lld host pairs, "
	       "every host against %d or more",
	       c.pattern, c.rounds, c.rounds == 1 ? "" : "s", c.followup_rounds,
	       (long long)c.pairs_measured, (long long)c.pairs_total,
	       (long long)c.host_pairs_measured, (long long)c.host_pairs_total, c.min_partners);
	double host = c.rules_out[DETECT_HOST].slowdown_percent,
	       cell = c.rules_out[DETECT_LINK].slowdown_percent;
	if (isfinite(host) && isfinite(cell))
		printf("; a host %.0f%% slower, a segment or measured host pair %.0f%% slower would have "
		       "been named",
		       host, cell);
	if (c.stopped_by_budget)
		printf("; --budget %g s cut the run short", c.budget_s);
	printf(" (%.0f s)\n", c.elapsed_s);
	fflush(stdout);
}
