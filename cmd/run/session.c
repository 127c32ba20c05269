/*
 * The MPI session of a command (cmd/main.c's dispatcher runs a command that
 * needs MPI between these two): a duplicate of MPI_COMM_WORLD whose errors
 * are returned, not fatal, so every failure reaches the one exit path.
 */
#include <mpi.h>

#include "cmd/run/run.h"

#include <stdio.h>

int run_mpi_start(struct cmd_ctx *ctx, int *argc, char ***argv, bool threads)
{
	char msg[MPI_MAX_ERROR_STRING];
	ctx->thread_level = MPI_THREAD_SINGLE;
	int rc = threads ? MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &ctx->thread_level)
	                 : MPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_dup(MPI_COMM_WORLD, &ctx->comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(ctx->comm, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_rank(ctx->comm, &ctx->rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(ctx->comm, &ctx->nranks);
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "collscope: error: MPI initialisation failed: %s\n",
		        run_mpi_error_text(rc, msg, sizeof msg));
		return -1;
	}
	ctx->mpi = true;
	return 0;
}

/* Every rank leaves with the same code: the worst (highest) of them. */
int run_mpi_finish(struct cmd_ctx *ctx, int status)
{
	int worst = status;
	if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, ctx->comm) != MPI_SUCCESS)
		worst = status ? status : EXIT_RUNTIME;
	MPI_Comm_free(&ctx->comm);
	MPI_Finalize();
	return worst;
}
