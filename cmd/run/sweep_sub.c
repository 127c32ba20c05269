/*
 * A sweep on a sub-communicator (collscope scale): the first n ranks of a
 * placement order measure every point of the sweep; the others idle in the
 * sweep's napping barrier, so that on a small machine they leave the cores to
 * the ranks being measured.
 */
#include <mpi.h>

#include "cmd/run/run.h"

int sweep_on_first_ranks(struct sweep *s, const int *order, int n, int hosts)
{
	return sweep_on_first_ranks_of(s, order, n, hosts, s->o->variants);
}

int sweep_on_first_ranks_of(struct sweep *s, const int *order, int n, int hosts,
                            const bool *variants)
{
	char msg[MPI_MAX_ERROR_STRING];
	struct sweep_comm c = {.comm = MPI_COMM_NULL, .nranks = n, .hosts = hosts, .world_of = order};
	int pos = -1, status = EXIT_OK;
	/* the yardstick's communicator: the whole job, made before anything was forced */
	const struct sweep_comm world = sweep_comm_whole(s);
	for (int i = 0; i < n; i++)
		if (order[i] == s->ctx->rank)
			pos = i;
	int rc = MPI_Comm_split(s->ctx->comm, pos >= 0 ? 0 : MPI_UNDEFINED, pos, &c.comm);
	if (rc == MPI_SUCCESS && c.comm != MPI_COMM_NULL)
		rc = MPI_Comm_set_errhandler(c.comm, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS && c.comm != MPI_COMM_NULL)
		rc = MPI_Comm_rank(c.comm, &c.rank);
	if (rc != MPI_SUCCESS) {
		cmd_rank_error(s->ctx, "%s: cannot make the communicator of %d ranks: %s", s->command, n,
		               run_mpi_error_text(rc, msg, sizeof msg));
		status = EXIT_RUNTIME;
	}
	if (run_any(s->ctx, status != EXIT_OK))
		status = EXIT_RUNTIME;
	for (int i = 0; i < s->o->nsizes && status == EXIT_OK; i++)
		for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
			if (variants[v]) {
				status = s->yard ? sweep_yardstick_measure(s, s->yard, &world) : EXIT_OK;
				if (status == EXIT_OK)
					status = sweep_point(s, v, s->o->sizes[i], &c);
			}
	if (c.comm != MPI_COMM_NULL)
		MPI_Comm_free(&c.comm);
	return status;
}
