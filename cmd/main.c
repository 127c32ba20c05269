/*
 * collscope: dispatch a subcommand from one table.
 *
 * Commands flagged CMD_NEEDS_MPI run between MPI_Init and MPI_Finalize on a
 * duplicate of MPI_COMM_WORLD whose errors are returned, not fatal, so every
 * failure reaches the one exit path with a code. `--help` of any command, and
 * the commands that need no MPI, run without mpirun.
 */
#include <mpi.h>

#include "cmd.h"
#include "fault.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

enum { CMD_NEEDS_MPI = 1 << 0 };

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct cmd_ctx *ctx);
	const char *usage;
	unsigned flags;
	const char *summary;
};

static const struct cmd commands[] = {
	{"allreduce", cmd_allreduce, cmd_allreduce_usage, CMD_NEEDS_MPI,
	 "sweep variants x message sizes: time, verify, percentiles, algbw and busbw"},
	{"verify", cmd_verify, cmd_verify_usage, CMD_NEEDS_MPI,
	 "correctness sweep of every variant over awkward counts, dtypes and ops"},
	{"links", cmd_links, cmd_links_usage, CMD_NEEDS_MPI,
	 "pairwise latency and bandwidth between all ranks; name slow links and hosts"},
	{"topo", cmd_topo, cmd_topo_usage, CMD_NEEDS_MPI,
	 "where every rank runs: host, cores, NUMA node, binding, oversubscription"},
	{"scale", cmd_scale, cmd_scale_usage, CMD_NEEDS_MPI,
	 "the all-reduce on 2, 4, ... N ranks: scaling efficiency, cost model, sweet spot"},
	{"list", cmd_list, cmd_list_usage, 0, "the all-reduce variants and their restrictions"},
	{"compare", cmd_compare, cmd_compare_usage, 0,
	 "a report against a baseline: regressions, with statistics; exit 1 on regression"},
	{"report", cmd_report, cmd_report_usage, 0,
	 "render reports as one self-contained HTML page with SVG charts"},
	{"accept", cmd_accept, cmd_accept_usage, 0, "cluster acceptance: --derive a spec, --check-spec"},
};

static void print_help(FILE *f)
{
	fprintf(f, "usage: collscope [--version] [--help] <command> [options]\n"
	           "       mpirun -np N collscope <command> [options]   (commands that measure)\n\n"
	           "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s%s\n", commands[i].name, commands[i].summary,
		        commands[i].flags & CMD_NEEDS_MPI ? " (under mpirun)" : "");
	fprintf(f, "\n'collscope <command> --help' describes a command.\n"
	           "exit codes: 0 ok, 1 a check failed, 2 bad usage or input, 3 wrong results,\n"
	           "            4 hang or dead rank, 5 runtime, MPI or I/O error\n");
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	return false;
}

static int mpi_start(struct cmd_ctx *ctx, int *argc, char ***argv)
{
	char msg[MPI_MAX_ERROR_STRING];
	int rc = MPI_Init(argc, argv);
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
		        cmd_mpi_error_text(rc, msg, sizeof msg));
		return -1;
	}
	ctx->mpi = true;
	return 0;
}

/* Every rank leaves with the same code: the worst (highest) of them. */
static int mpi_finish(struct cmd_ctx *ctx, int status)
{
	int worst = status;
	if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, ctx->comm) != MPI_SUCCESS)
		worst = status ? status : EXIT_RUNTIME;
	MPI_Comm_free(&ctx->comm);
	MPI_Finalize();
	return worst;
}

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = {.comm = MPI_COMM_NULL, .rank = 0, .nranks = 1, .argc_all = argc,
	                      .argv_all = argv};
	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_help(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("collscope %s (git %s)\n", COLLSCOPE_VERSION, COLLSCOPE_GIT);
		return EXIT_OK;
	}
	const struct cmd *cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "collscope: error: unknown command '%s' (see 'collscope --help')\n",
		        argv[1]);
		return EXIT_USAGE;
	}
	int cargc = argc - 1;
	char **cargv = argv + 1;
	if (wants_help(cargc, cargv)) {
		fputs(cmd->usage, stdout);
		return EXIT_OK;
	}
	if (!(cmd->flags & CMD_NEEDS_MPI))
		return cmd->fn(cargc, cargv, &ctx);
	const char *why = NULL;
	if (fault_load(&why) != 0) {
		fprintf(stderr, "collscope: error: bad COLLSCOPE_FAULT '%s': %s\n",
		        getenv("COLLSCOPE_FAULT"), why);
		return EXIT_USAGE;
	}
	if (mpi_start(&ctx, &argc, &argv) != 0)
		return EXIT_RUNTIME;
	return mpi_finish(&ctx, cmd->fn(cargc, cargv, &ctx));
}
