/*
 * The measurement loop of `links` (issue 27: probes/ owns it): the rounds of
 * a plan (probes/plan.h) one after the other, within a deadline. Collective
 * over the communicator of the struct probe_links; nothing is printed: the
 * caller's hooks print progress and keep each round's samples.
 */
#include <mpi.h>

#ifndef COLLSCOPE_ROUNDS_H
#define COLLSCOPE_ROUNDS_H

#include "probes/p2p.h"
#include "probes/plan.h"

struct probe_rounds_hooks {
	/* Before round `round`, on every rank (the caller's progress line). May be NULL. */
	void (*before)(void *arg, int round);
	/*
	 * After round `round`, on every rank, with this rank's MPI code of the
	 * round; may be collective (keep the samples, agree on failures).
	 * Non-zero stops the loop: it must return the same on every rank.
	 */
	int (*after)(void *arg, int round, int rc);
	void *arg;
};

/*
 * Rounds from .. to - 1 of plan, in mode. With a deadline (an MPI_Wtime of
 * rank 0; 0 or NAN: none), rank 0 decides before each round whether it
 * still ends in time (the slowest round so far, or est_round_s before the
 * first, from now) and tells every rank: a round is never cut in the
 * middle. *ran gets the rounds measured. Returns 0, the hook's non-zero, or
 * an MPI error code of the agreement (every rank the same).
 */
int probe_links_rounds(struct probe_links *p, const struct probe_plan *plan, int from, int to,
                       enum probe_mode mode, double deadline_s, double est_round_s,
                       const struct probe_rounds_hooks *h, int *ran);

/*
 * The steps d = 1 .. N - 1 of the shift pattern (probe_links_shift), within
 * the deadline as above; the hooks get d. The same returns.
 */
int probe_links_shift_steps(struct probe_links *p, double deadline_s, double est_step_s,
                            const struct probe_rounds_hooks *h, int *ran);

/*
 * The re-test's steps, within the deadline as above: step k is the pairs
 * list[start[k] .. start[k + 1] - 1], no rank in two of them; one pair is
 * measured alone while the others wait (probe_links_isolated), more at once
 * (probe_links_matched). The hooks get k, *ran the steps measured. The same
 * returns.
 */
struct probe_pair;
int probe_links_steps(struct probe_links *p, const struct probe_pair *list, const int *start,
                      int nsteps, double deadline_s, double est_step_s,
                      const struct probe_rounds_hooks *h, int *ran);

/*
 * Collective: does a step of est_s seconds still end before deadline_s
 * (rank 0's clock, broadcast)? True without a deadline.
 */
bool probe_in_time(MPI_Comm comm, double deadline_s, double est_s);

#endif
