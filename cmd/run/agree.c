/*
 * The ranks agree before they decide: a failure seen on one rank becomes the
 * same branch on every rank (STYLE.md), and MPI's error codes become text.
 */
#include <mpi.h>

#include "cmd/run/run.h"

#include <stdio.h>

const char *run_mpi_error_text(int rc, char *buf, int len)
{
	int n = 0;
	if (MPI_Error_string(rc, buf, &n) != MPI_SUCCESS || len <= 0)
		snprintf(buf, (size_t)len, "MPI error %d", rc);
	return buf;
}

bool run_any(const struct cmd_ctx *ctx, bool mine)
{
	int in = mine, out = mine;
	if (ctx->mpi && ctx->nranks > 1)
		MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, ctx->comm);
	return out != 0;
}
