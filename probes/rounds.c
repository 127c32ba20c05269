/*
 * The rounds of a plan within a deadline: see rounds.h. Rank 0 keeps the
 * clock: the ranks' clocks need not agree, and one broadcast a round is
 * nothing beside a round's seconds of measurement.
 */
#include <mpi.h>

#include "probes/rounds.h"

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

int probe_links_rounds(struct probe_links *p, const struct probe_plan *plan, int from, int to,
                       enum probe_mode mode, double deadline_s, double est_round_s,
                       const struct probe_rounds_hooks *h, int *ran)
{
	double slowest = est_round_s;
	*ran = 0;
	for (int k = from; k < to; k++) {
		if (!probe_in_time(p->comm, deadline_s, slowest))
			return 0;
		if (h->before)
			h->before(h->arg, k);
		double t = MPI_Wtime();
		int rc = probe_links_plan_round(p, plan, k, mode);
		t = MPI_Wtime() - t;
		/* the first round measured replaces the estimate: it knows this network */
		slowest = *ran == 0 || t > slowest ? t : slowest;
		(*ran)++;
		int stop = h->after ? h->after(h->arg, k, rc) : rc;
		if (stop != 0)
			return stop;
	}
	return 0;
}
