/*
 * What decides performance besides the code, as the library and the hosts
 * say it: the MPI library's control variables in force (MPI_T) that choose
 * how a collective runs, and each host's CPU model and kernel.
 *
 * probe_mpit_fill_context is collective over comm; it needs the hosts and
 * ranks of c filled by topo_fill_context first (rank 0). It fills, on rank
 * 0: c->cvars (report_cvar_wanted names only, read with MPI_T_cvar_read;
 * a library without MPI_T, or a variable that cannot be read, is left out:
 * that is not an error) and every host's cpu_model and kernel (from the
 * first rank of that host). Returns MPI_SUCCESS, or an MPI error code
 * (the same on every rank) when the gather fails or memory runs out.
 */
#include <mpi.h>

#ifndef COLLSCOPE_MPIT_H
#define COLLSCOPE_MPIT_H

#include "reports/io/context.h"

int probe_mpit_fill_context(MPI_Comm comm, struct report_context *c);

#endif
