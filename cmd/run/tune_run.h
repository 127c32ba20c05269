/*
 * collscope tune's measurement (cmd/tune.c prints and summarizes): for each
 * rank count, for each of the library's algorithms (its own decision first),
 * the algorithm forced (algorithms/lib_algs.h) and a communicator made for
 * it, the shared sweep of the mpi variant at every size, records named
 * mpi/<algorithm>. Rank 0 keeps every point's samples for the decision.
 * Collective over ctx->comm unless a function says rank 0.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_TUNE_RUN_H
#define COLLSCOPE_CMD_TUNE_RUN_H

#include "algorithms/heap_steady.h"
#include "algorithms/lib_algs.h"
#include "cmd/run/sweep.h"

struct tune_opts; /* cmd/tune_opts.h */

/* One measured point, kept on rank 0 for the decision: samples_us owned (nsamples). */
struct tune_kept {
	bool consistency; /* measured for the self-consistency checks: variant says which */
	bool confirmation; /* measured again after the choice at its rank count (tune_confirm) */
	int variant;      /* index into ar_variants */
	int ranks;
	uint64_t bytes;
	int alg; /* position in the run's lib_algs: 0 the library's decision */
	const char *alg_name; /* borrowed from the run's lib_algs */
	double *samples_us;
	size_t nsamples;
	uint64_t wrong;
	bool skipped;
};

struct tune_run {
	const struct tune_opts *o;
	struct sweep sweep;
	struct lib_algs lib;
	int algs[LIB_ALGS_MAX]; /* positions in lib to measure, 0 first */
	int nalgs;
	char labels[LIB_ALGS_MAX][LIB_ALG_NAME_BYTES + 8]; /* "mpi/<name>", by position in lib */
	char confirm_labels[LIB_ALGS_MAX][LIB_ALG_NAME_BYTES + 16]; /* "mpi/<name>/confirm" */
	int current;                                       /* the position being measured */
	bool lib_variants[AR_MAX_VARIANTS];  /* mpi alone: the library's algorithms */
	bool cons_variants[AR_MAX_VARIANTS]; /* the self-consistency's (none with --prove) */
	bool consistency;                    /* measuring those now */
	bool confirmation;                   /* measuring the choices again now */
	struct sweep_yardstick yard; /* the noise control before every point, for compare */
	int *order; /* world ranks in the order they join a communicator (packed) */
	struct tune_kept *sets; /* rank 0 */
	size_t nsets, cap;
	uint64_t wrong;
};

/*
 * The library's points as the decision takes them (borrowed from t; not the
 * self-consistency's): the first measurement, or (confirmation) the second;
 * at `ranks` only when > 0. *n of them; NULL when out of memory.
 */
struct tune_set *tune_run_sets(const struct tune_run *t, bool confirmation, int ranks, size_t *n);

/*
 * Before MPI_Init: the library set up to force algorithms, or to read --prove's
 * rules (EXIT_USAGE with err when that file is not in the format this build's
 * library reads), and the heap (--heap).
 */
int tune_prepare(const void *opts, char *err, size_t len);
/*
 * MPICH's built-in selection tree, found in its library's file (the one that
 * holds MPI_Init): *tree, which the caller deletes. 0, or -1 with err.
 */
int tune_library_tree(cJSON **tree, char *err, size_t len);
/* What tune_prepare did with --heap: true when held steady; else *env_name is the
 * environment's variable that rules instead, or NULL (--heap as-is) */
bool tune_heap_state(const char **env_name);

/*
 * Up to the report's first write: the library's algorithms (names checked
 * against --library-algorithms), the sweep's setup and report, the order.
 * An exit code, agreed; on failure *why (static) may say what is missing.
 */
int tune_run_begin(struct tune_run *t, struct cmd_ctx *ctx, const struct tune_opts *o);
/* Every rank count x algorithm x size. An exit code, agreed. */
int tune_run_measure(struct tune_run *t);
/* The library's decision restored, the sweep and the sets released. */
void tune_run_release(struct tune_run *t);

#endif
