/*
 * The rounds of a plan within a deadline: see rounds.h. Rank 0 keeps the
 * clock: the ranks' clocks need not agree, and one broadcast a round is
 * nothing beside a round's seconds of measurement.
 */
#include <mpi.h>

#include "probes/rounds.h"
#include "probes/tournament.h"

#include <math.h>

bool probe_in_time(MPI_Comm comm, double deadline_s, double est_s)
{
	int rank, go = 1;
	if (!(deadline_s > 0))
		return true;
	MPI_Comm_rank(comm, &rank);
	if (rank == 0)
		go = !(MPI_Wtime() + (isfinite(est_s) ? est_s : 0) > deadline_s);
	/* a failed broadcast: stop, on the ranks that see it; the caller's next step fails too */
	return MPI_Bcast(&go, 1, MPI_INT, 0, comm) == MPI_SUCCESS && go;
}

/* What one step of a loop measures: round, shift step or re-test step k. */
enum loop_kind { LOOP_ROUNDS, LOOP_SHIFT, LOOP_STEPS };

struct loop {
	enum loop_kind kind;
	const struct probe_plan *plan;
	enum probe_mode mode;
	const struct probe_pair *list;
	const int *start; /* LOOP_STEPS: step k is list[start[k] .. start[k + 1] - 1] */
};

/* Re-test step k: its one pair alone, or its pairs at once, each rank with its partner. */
static int step_of_pairs(struct probe_links *p, const struct loop *l, int k)
{
	int from = l->start[k], to = l->start[k + 1], peer = -1;
	if (to - from == 1)
		return probe_links_isolated(p, l->list[from].a, l->list[from].b);
	for (int i = from; i < to; i++)
		if (l->list[i].a == p->rank || l->list[i].b == p->rank)
			peer = l->list[i].a == p->rank ? l->list[i].b : l->list[i].a;
	return probe_links_matched(p, peer);
}

static int step(struct probe_links *p, const struct loop *l, int k)
{
	switch (l->kind) {
	case LOOP_ROUNDS: return probe_links_plan_round(p, l->plan, k, l->mode);
	case LOOP_SHIFT: return probe_links_shift(p, k);
	case LOOP_STEPS: return step_of_pairs(p, l, k);
	}
	return MPI_ERR_ARG;
}

/* Steps from .. to - 1 of l, each started only when the slowest so far still ends in time. */
static int run_loop(struct probe_links *p, const struct loop *l, int from, int to,
                    double deadline_s, double est_s, const struct probe_rounds_hooks *h, int *ran)
{
	double slowest = est_s;
	*ran = 0;
	for (int k = from; k < to; k++) {
		if (!probe_in_time(p->comm, deadline_s, slowest))
			return 0;
		if (h->before)
			h->before(h->arg, k);
		double t = MPI_Wtime();
		int rc = step(p, l, k);
		t = MPI_Wtime() - t;
		/* the first step measured replaces the estimate: it knows this network */
		slowest = *ran == 0 || t > slowest ? t : slowest;
		(*ran)++;
		int stop = h->after ? h->after(h->arg, k, rc) : rc;
		if (stop != 0)
			return stop;
	}
	return 0;
}

int probe_links_rounds(struct probe_links *p, const struct probe_plan *plan, int from, int to,
                       enum probe_mode mode, double deadline_s, double est_round_s,
                       const struct probe_rounds_hooks *h, int *ran)
{
	const struct loop l = {.kind = LOOP_ROUNDS, .plan = plan, .mode = mode};
	return run_loop(p, &l, from, to, deadline_s, est_round_s, h, ran);
}

int probe_links_shift_steps(struct probe_links *p, double deadline_s, double est_step_s,
                            const struct probe_rounds_hooks *h, int *ran)
{
	const struct loop l = {.kind = LOOP_SHIFT};
	return run_loop(p, &l, 1, probe_shift_steps(p->nranks) + 1, deadline_s, est_step_s, h, ran);
}

int probe_links_steps(struct probe_links *p, const struct probe_pair *list, const int *start,
                      int nsteps, double deadline_s, double est_step_s,
                      const struct probe_rounds_hooks *h, int *ran)
{
	const struct loop l = {.kind = LOOP_STEPS, .list = list, .start = start};
	return run_loop(p, &l, 0, nsteps, deadline_s, est_step_s, h, ran);
}
