/*
 * collscope: dispatch a subcommand from one table.
 *
 * Every command's options are parsed from its table (cmd/opts.h) before
 * MPI_Init: a bad option costs no MPI start-up, and --help runs anywhere.
 * Commands flagged CMD_NEEDS_MPI then run between MPI_Init and MPI_Finalize
 * on a duplicate of MPI_COMM_WORLD whose errors are returned, not fatal, so
 * every failure reaches the one exit path with a code; what needs the rank
 * count (spec->check_world) is checked once it is known.
 */
#include <mpi.h>

#include "cmd/accept_opts.h"
#include "cmd/allreduce_opts.h"
#include "cmd/congestion_opts.h"
#include "cmd/overlap_opts.h"
#include "cmd/run/run.h"
#include "algorithms/fault.h"
#include "cmd/help.h"
#include "cmd/links_opts.h"
#include "cmd/scale_opts.h"
#include "cmd/tune_opts.h"
#include "cmd/small_opts.h"
#include "cmd/verify_opts.h"
#include "cmd/watch_opts.h"
#include "version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CMD_NEEDS_THREADS: MPI_Init_thread asks for MPI_THREAD_SERIALIZED (overlap's progress thread) */
/* CMD_TUNES_LIBRARY: before MPI_Init, the library lets its algorithms be forced (lib_algs.h) */
enum { CMD_NEEDS_MPI = 1 << 0, CMD_NEEDS_THREADS = 1 << 1, CMD_TUNES_LIBRARY = 1 << 2 };

struct cmd {
	const struct cmd_spec *spec; /* name, options, help */
	int (*run)(void *opts, struct cmd_ctx *ctx);
	unsigned flags;
	const char *summary;
	/* when set, decides CMD_NEEDS_MPI from the options (a command with modes) */
	bool (*needs_mpi)(const void *opts);
};

static int run_help(void *opts, struct cmd_ctx *ctx);

static const struct cmd commands[] = {
    {&allreduce_spec, cmd_allreduce, CMD_NEEDS_MPI,
     "sweep variants x message sizes: time, verify, percentiles, algbw and busbw", NULL},
    {&verify_spec, cmd_verify, CMD_NEEDS_MPI,
     "correctness sweep of every variant over awkward counts, dtypes and ops", NULL},
    {&links_spec, cmd_links, CMD_NEEDS_MPI,
     "latency and bandwidth between ranks (screening or all pairs); name slow links and hosts",
     links_needs_mpi},
    {&topo_spec, cmd_topo, CMD_NEEDS_MPI,
     "where every rank runs: host, cores, NUMA node, binding, oversubscription", NULL},
    {&scale_spec, cmd_scale, CMD_NEEDS_MPI,
     "the all-reduce on 2, 4, ... N ranks: scaling efficiency, cost model, sweet spot", NULL},
    {&tune_spec, cmd_tune, CMD_NEEDS_MPI | CMD_TUNES_LIBRARY,
     "the MPI library's own all-reduce algorithms, each forced in turn, against its decision",
     NULL},
    {&congestion_spec, cmd_congestion, CMD_NEEDS_MPI,
     "groups running all-reduces at once: interference factors, aggressors, where it happens",
     NULL},
    {&overlap_spec, cmd_overlap, CMD_NEEDS_MPI | CMD_NEEDS_THREADS,
     "how much of a non-blocking all-reduce hides behind compute (OSU's and IMB's overlap)", NULL},
    {&watch_spec, cmd_watch, CMD_NEEDS_MPI,
     "soak: fail-slow episodes found as they happen, exported as metrics", NULL},
    {&list_spec, cmd_list, 0, "the all-reduce variants and their restrictions", NULL},
    {&compare_spec, cmd_compare, 0,
     "a report against a baseline: regressions, with statistics; exit 1 on regression", NULL},
    {&report_spec, cmd_report, 0, "render reports as one self-contained HTML page with SVG charts",
     NULL},
    {&schema_spec, cmd_schema, 0, "the report's fields as a JSON Schema, or as reports/SCHEMA.md",
     NULL},
    {&trend_spec, cmd_trend, 0,
     "reports in time order: where each point stepped, by how much, what changed", NULL},
    {&accept_cmd_spec, cmd_accept, CMD_NEEDS_MPI,
     "cluster acceptance from a spec: PASS/FAIL per check and host, culprits isolated",
     accept_needs_mpi},
    {&help_spec, run_help, 0, "a command's help, or the reference as Markdown or a man page", NULL},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

/* The table as the reference sees it (cmd/help_render.h); list has COMMAND_COUNT rows. */
static struct help_catalog catalog(struct help_command *list)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		list[i] = (struct help_command){commands[i].spec, commands[i].summary,
		                                commands[i].flags & CMD_NEEDS_MPI};
	return (struct help_catalog){list, COMMAND_COUNT, COLLSCOPE_VERSION};
}

static int run_help(void *opts, struct cmd_ctx *ctx)
{
	struct help_command list[COMMAND_COUNT];
	struct help_catalog c = catalog(list);
	(void)ctx;
	return help_run(opts, &c);
}

static int print_help(FILE *f)
{
	struct help_command list[COMMAND_COUNT];
	struct help_catalog c = catalog(list);
	char *text = help_overview(&c);
	if (!text) {
		fprintf(stderr, "collscope: error: out of memory\n");
		return EXIT_RUNTIME;
	}
	fputs(text, f);
	free(text);
	return EXIT_OK;
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].spec->name, name) == 0)
			return &commands[i];
	return NULL;
}

/*
 * Before MPI_Init the rank is not known, but the launcher says it: only
 * the first process of a job prints a usage error, not every rank.
 * NULL when no launcher started this process.
 */
static const char *launcher_rank(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
	                                   "SLURM_PROCID"};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

/*
 * Open MPI's mpirun ends the whole job as soon as one process exits with an
 * error: were that a silent one, the first could be killed before it has said
 * anything (seen under load: exit 2 and no message). So under mpirun the
 * others wait, at most this long, for mpirun to end them once the first has
 * printed and exited. (Hydra and srun let the others be: they exit at once.)
 */
#define USAGE_WAIT_S 3

static int usage_error(const char *msg)
{
	const char *rank = launcher_rank();
	if (!rank || strcmp(rank, "0") == 0) {
		fprintf(stderr, "collscope: error: %s\n", msg);
		return EXIT_USAGE;
	}
	if (getenv("OMPI_COMM_WORLD_RANK")) {
		struct timespec left = {.tv_sec = USAGE_WAIT_S};
		while (nanosleep(&left, &left) != 0 && errno == EINTR)
			;
	}
	return EXIT_USAGE;
}

/*
 * What was printed must have reached stdout: a full disk or a closed pipe
 * is an I/O error (exit 5), not a success that lost its table. A command
 * that already failed keeps its own code (it has said why).
 */
static int check_stdout(int status)
{
	errno = 0;
	bool flushed = fflush(stdout) == 0;
	if (flushed && !ferror(stdout))
		return status;
	fprintf(stderr, "collscope: error: cannot write to stdout: %s\n",
	        !flushed && errno ? strerror(errno) : "a write failed");
	return status == EXIT_OK ? EXIT_RUNTIME : status;
}

/* The checks that need the rank count; the same on every rank, so rank 0 alone speaks. */
static int check_world(const struct cmd *cmd, void *opts, const struct cmd_ctx *ctx)
{
	char err[1024];
	if (!cmd->spec->check_world ||
	    cmd->spec->check_world(opts, ctx->nranks, err, sizeof err) == EXIT_OK)
		return EXIT_OK;
	cmd_error(ctx, "%s", err);
	return EXIT_USAGE;
}

/* Parse, then run with MPI or without; the command's exit code. */
static int dispatch(const struct cmd *cmd, int argc, char **argv, void *opts, struct cmd_ctx *ctx)
{
	char err[1024];
	int status;
	switch (opts_parse(cmd->spec, argc - 1, argv + 1, opts, err, sizeof err)) {
	case OPTS_HELP: {
		char *text = opts_usage(cmd->spec);
		if (!text || fputs(text, stdout) == EOF || fflush(stdout) != 0) {
			free(text);
			fprintf(stderr, "collscope: error: cannot print the help of %s\n",
			        cmd->spec->name);
			return EXIT_RUNTIME;
		}
		free(text);
		return EXIT_OK;
	}
	case OPTS_ERROR: return usage_error(err);
	case OPTS_RUN: break;
	}
	bool mpi = cmd->needs_mpi ? cmd->needs_mpi(opts) : (cmd->flags & CMD_NEEDS_MPI) != 0;
	if (!mpi) {
		status = check_world(cmd, opts, ctx);
		return check_stdout(status == EXIT_OK ? cmd->run(opts, ctx) : status);
	}
	const char *why = NULL;
	if (fault_load(&why) != 0) {
		snprintf(err, sizeof err, "bad COLLSCOPE_FAULT '%s': %s", getenv("COLLSCOPE_FAULT"),
		         why);
		return usage_error(err);
	}
	if ((cmd->flags & CMD_TUNES_LIBRARY) && tune_prepare(opts, err, sizeof err) != EXIT_OK)
		return usage_error(err);
	if (run_mpi_start(ctx, &argc, &argv, (cmd->flags & CMD_NEEDS_THREADS) != 0) != 0)
		return EXIT_RUNTIME;
	status = check_world(cmd, opts, ctx);
	if (status == EXIT_OK)
		status = cmd->run(opts, ctx);
	return run_mpi_finish(ctx, check_stdout(status));
}

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = {
	    .comm = MPI_COMM_NULL, .rank = 0, .nranks = 1, .argc_all = argc, .argv_all = argv};
	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return check_stdout(print_help(stdout));
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("collscope %s (git %s)\n", COLLSCOPE_VERSION, COLLSCOPE_GIT);
		return check_stdout(EXIT_OK);
	}
	const struct cmd *cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "collscope: error: unknown command '%s' (see 'collscope --help')\n",
		        argv[1]);
		return EXIT_USAGE;
	}
	void *opts = calloc(1, cmd->spec->size);
	if (!opts) {
		fprintf(stderr, "collscope: error: out of memory\n");
		return EXIT_RUNTIME;
	}
	int status = dispatch(cmd, argc, argv, opts, &ctx);
	free(opts);
	return status;
}
