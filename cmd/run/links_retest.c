/*
 * The re-tests of a links run (step 3 of links_run.c): each round measures
 * again the pairs of what still stands, a host's or a link's alone and a
 * segment's in two steps at once (reports/diagnose/retest.h), and rank 0
 * judges the round and keeps what it found again.
 */
#include <mpi.h>

#include "cmd/run/links_run.h"
#include "algorithms/progress.h"
#include "probes/rounds.h"
#include "probes/tournament.h"

#include <stdlib.h>
#include <string.h>

/* A struct retest_pair is broadcast as ints. */
#define RETEST_PAIR_INTS 5
_Static_assert(sizeof(struct retest_pair) == RETEST_PAIR_INTS * sizeof(int), "a pair is 5 ints");

/* A re-test round's pairs, in steps (reports/diagnose/retest.h); every rank has them. */
struct retest_list {
	struct retest_pair *pairs;
	int count, nsteps;
	struct probe_pair *list; /* the pairs, for the probe */
	int *start;              /* nsteps + 1: step k is list[start[k] .. start[k + 1] - 1] */
};

static void retest_list_release(struct retest_list *l)
{
	free(l->pairs);
	free(l->list);
	free(l->start);
}

/* Everyone's list and steps from the pairs rank 0 planned; false when out of memory. */
static bool retest_list_steps(struct retest_list *l)
{
	l->list = calloc((size_t)l->count + 1, sizeof *l->list);
	l->start = calloc((size_t)l->count + 2, sizeof *l->start);
	if (!l->list || !l->start)
		return false;
	for (int i = 0; i < l->count; i++) {
		l->list[i] = (struct probe_pair){.a = l->pairs[i].a, .b = l->pairs[i].b};
		if (i == 0 || l->pairs[i].step != l->pairs[i - 1].step)
			l->start[l->nsteps++] = i;
	}
	l->start[l->nsteps] = l->count;
	return true;
}

/*
 * Rank 0 plans the pairs of what accused names to measure again (r->pairs
 * marks them, this round's only); everyone gets the list (released by the caller).
 */
static int share_pairs(struct links_run *r, const struct detect_result *accused,
                       struct retest_list *l)
{
	const int n = r->ctx->nranks;
	int k = 0, rc;
	*l = (struct retest_list){0};
	if (r->ctx->rank == 0) {
		struct links_view v = links_view_of(r);
		size_t nl = links_to_detect(&v, DETECT_BANDWIDTH, r->dlinks);
		pair_set_clear(&r->pairs);
		k = retest_plan(accused, r->dlinks, nl, n, LINKS_RETEST_PAIRS, &r->pairs, &l->pairs);
	}
	rc = MPI_Bcast(&k, 1, MPI_INT, 0, r->ctx->comm);
	if (links_step_failed(r, rc, true, "sharing the suspects"))
		return EXIT_RUNTIME;
	if (k < 0) {
		cmd_error(r->ctx, "links: out of memory in the detector");
		return EXIT_RUNTIME;
	}
	l->count = k;
	if (r->ctx->rank != 0)
		l->pairs = calloc((size_t)k + 1, sizeof *l->pairs);
	else if (!l->pairs)
		l->pairs = calloc(1, sizeof *l->pairs);
	if (links_step_failed(r, MPI_SUCCESS, l->pairs != NULL, "sharing the suspects"))
		return EXIT_RUNTIME;
	rc = MPI_Bcast(l->pairs, RETEST_PAIR_INTS * k, MPI_INT, 0, r->ctx->comm);
	return links_step_failed(r, rc, rc != MPI_SUCCESS || retest_list_steps(l),
	                         "sharing the suspects")
	           ? EXIT_RUNTIME
	           : EXIT_OK;
}

struct retest_hooks {
	struct links_run *r;
	const struct retest_list *l;
};

static void before_retest(void *arg, int k)
{
	const struct retest_hooks *t = arg;
	const struct links_run *r = t->r;
	const struct retest_list *l = t->l;
	int from = l->start[k], pairs = l->start[k + 1] - from;
	if (pairs == 1)
		cmd_progress(r->ctx, r->o->out.quiet,
		             "links: measuring %d-%d %s, alone (step %d of %d, re-test %d of at most %d)",
		             l->list[from].a, l->list[from].b,
		             l->pairs[from].suspect == RETEST_CONTROL ? "as a control" : "again", k + 1,
		             l->nsteps, r->retest_rounds + 1, r->retest_limit);
	else
		cmd_progress(r->ctx, r->o->out.quiet,
		             "links: measuring %d pairs again, at once (a segment's), %d-%d first (step "
		             "%d of %d, re-test %d of at most %d)",
		             pairs, l->list[from].a, l->list[from].b, k + 1, l->nsteps,
		             r->retest_rounds + 1, r->retest_limit);
	progress_point(PROGRESS_LINKS_AGAIN, r->o->probe.bw_bytes);
	progress_step(PROGRESS_TIMED, k + 1);
}

static int after_retest(void *arg, int k, int rc)
{
	const struct retest_hooks *t = arg;
	char what[96];
	snprintf(what, sizeof what, "measuring step %d of the re-test again", k + 1);
	return links_step_failed(t->r, rc, rc != MPI_SUCCESS || links_summarize(t->r, true), what)
	           ? EXIT_RUNTIME
	           : 0;
}

/* One round: the pairs of what accused names, measured again in steps; an exit code. */
static int retest_round(struct links_run *r, const struct detect_result *accused, int *count_out)
{
	struct retest_list l;
	int status = share_pairs(r, accused, &l), ran = 0;
	r->planned = accused;
	struct retest_hooks t = {r, &l};
	const struct probe_rounds_hooks hooks = {before_retest, after_retest, &t};
	if (status == EXIT_OK &&
	    probe_links_steps(&r->probe, l.list, l.start, l.nsteps, r->deadline_s,
	                      probe_plan_round_seconds(&r->o->probe), &hooks, &ran) != 0)
		status = EXIT_RUNTIME;
	int measured = status == EXIT_OK ? l.start[ran] : 0;
	if (status == EXIT_OK && ran < l.nsteps) {
		cmd_progress(
		    r->ctx, r->o->out.quiet,
		    "links: --budget: %d of %d re-tests left out (their suspects cannot be "
		    "confirmed)",
		    l.count - measured, l.count);
		r->stopped_by_budget = true;
		/* not measured again: what they accuse cannot be confirmed */
		for (int i = measured; r->ctx->rank == 0 && i < l.count; i++)
			pair_set_remove(&r->pairs, l.list[i].a, l.list[i].b);
	}
	r->remeasured += measured;
	if (status == EXIT_OK && ran > 0)
		status = links_gather_rows(r);
	*count_out = l.count;
	/* rank 0 keeps what was measured, for the segments' own verdicts (judge_round) */
	free(r->retested);
	r->retested = r->ctx->rank == 0 ? l.pairs : NULL;
	r->nretested = r->retested ? measured : 0;
	if (r->retested)
		l.pairs = NULL;
	retest_list_release(&l);
	return status;
}

int links_judge_round(struct links_run *r, const struct detect_result *planned,
                      const struct detect_result *accused, struct detect_result *out)
{
	if (links_judge(r, out, 1) != 0)
		return -1;
	struct links_view v = links_view_of(r);
	size_t nl = links_to_detect(&v, DETECT_BANDWIDTH, r->dlinks);
	if (r->nretested > 0 && (retest_judge_segments(out, planned, r->retested, r->nretested,
	                                               r->dlinks, nl, &r->o->detect) != 0 ||
	                         retest_judge_alone(out, planned, r->retested, r->nretested,
	                                            r->dlinks, nl, &r->o->detect) != 0))
		return -1;
	return detect_confirm(out, accused, &r->pairs);
}

/*
 * Rank 0, after a round that is not the last: what it confirmed of the suspects
 * standing (the first pass's, before any round) stands for the next; -1 when out of memory.
 */
static int narrow_standing(struct links_run *r)
{
	struct detect_result now, kept;
	const struct detect_result *before = r->has_standing ? &r->standing : &r->first;
	if (links_judge_round(r, before, before, &now) < 0) {
		detect_result_release(&now);
		return -1;
	}
	int rc = retest_keep_standing(&now, before, LINKS_RETEST_MISSES, &kept);
	detect_result_release(&now);
	if (rc < 0)
		return -1;
	/* kept: the round just judged was planned from it, and conclude judges that round
	   again against what stands now (a segment's index differs between the two) */
	detect_result_release(&r->previous);
	r->previous = r->standing;
	if (r->planned == &r->standing)
		r->planned = &r->previous;
	r->standing = kept;
	r->has_standing = true;
	return 0;
}

/* Rank 0: the rounds the suspects standing need, LINKS_RETESTS and one per miss. */
static int rounds_needed(const struct links_run *r)
{
	int misses = 0;
	for (int i = 0; r->has_standing && i < r->standing.nsuspects; i++)
		if (r->standing.suspects[i].retest_misses > misses)
			misses = r->standing.suspects[i].retest_misses;
	return LINKS_RETESTS + misses;
}

int links_remeasure(struct links_run *r)
{
	int status = EXIT_OK, count = 0;
	r->retest_limit = LINKS_RETESTS;
	for (r->retest_rounds = 0; status == EXIT_OK && r->retest_rounds < r->retest_limit;) {
		status = retest_round(r, r->has_standing ? &r->standing : &r->first, &count);
		if (status != EXIT_OK || count == 0)
			break;
		r->retest_rounds++;
		/* a miss in the round that would have been the last costs one more too */
		bool more = r->retest_rounds < LINKS_RETESTS + LINKS_RETEST_MISSES;
		bool failed = more && r->ctx->rank == 0 && narrow_standing(r) != 0;
		if (failed)
			cmd_error(r->ctx, "links: out of memory in the detector");
		if (run_any(r->ctx, failed))
			status = EXIT_RUNTIME;
		if (status == EXIT_OK && more) {
			int limit = r->ctx->rank == 0 ? rounds_needed(r) : 0;
			int rc = MPI_Bcast(&limit, 1, MPI_INT, 0, r->ctx->comm);
			if (links_step_failed(r, rc, true, "sharing the re-tests' count"))
				status = EXIT_RUNTIME;
			r->retest_limit = limit > r->retest_limit ? limit : r->retest_limit;
		}
	}
	/* the shift pattern once more, whole, when it accused anything */
	int again = 0;
	for (int i = 0; r->ctx->rank == 0 && i < r->first.nsuspects; i++)
		again |= r->first.suspects[i].loaded;
	int rc = status == EXIT_OK ? MPI_Bcast(&again, 1, MPI_INT, 0, r->ctx->comm) : MPI_SUCCESS;
	if (status == EXIT_OK && links_step_failed(r, rc, true, "sharing the shift's suspects"))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && again) {
		r->shift_retested = true;
		status = links_measure_shift(r, true);
	}
	return status;
}

