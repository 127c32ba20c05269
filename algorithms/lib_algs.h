/*
 * The MPI library's own all-reduce algorithms, forced one at a time
 * (collscope tune, issue 33). Open MPI's coll/tuned reads its forced
 * algorithm, the MPI_T control variable coll_tuned_allreduce_algorithm
 * (an enum: 0 "ignore" is its fixed decision, 1 basic_linear ... 6
 * rabenseifner), when a communicator is made, and only when
 * coll_tuned_use_dynamic_rules was on at MPI_Init: lib_algs_prepare turns it
 * on before MPI_Init (unless the user set it), and a communicator made after
 * lib_algs_force uses the algorithm forced. Every rank must force the same
 * algorithm (the variable's scope is "all").
 *
 * MPICH exposes MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM as a plain integer
 * whose values its description lists (lib_alg_names.h); MPICH reads it at
 * every call. Its device's own all-reduce (MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE,
 * on by default) ignores it, so a forced algorithm turns the device's off and
 * the library's decision ("default") turns it back on. Never prints, never exits.
 */
#ifndef COLLSCOPE_LIB_ALGS_H
#define COLLSCOPE_LIB_ALGS_H

#include <mpi.h>

#include <stdbool.h>

enum { LIB_ALGS_MAX = 16, LIB_ALG_NAME_BYTES = 48 };

struct lib_algs {
	int n;                                   /* algorithms; [0] is the library's own decision */
	int value[LIB_ALGS_MAX];                 /* what is written to force it */
	char name[LIB_ALGS_MAX][LIB_ALG_NAME_BYTES]; /* [0] "default", then the library's names */
	char variable[64];                       /* the control variable, "" when none */
	const char *why;  /* n <= 1: why nothing can be forced (static) */
	bool mpi_t;       /* MPI_T_init_thread succeeded: lib_algs_close finalizes it */
	int index;        /* the control variable's MPI_T index */
	MPI_T_cvar_handle handle;
	bool mpich;       /* MPICH's variable: a rules file is its selection JSON */
	bool has_device;  /* MPICH: the device's all-reduce switch, and its value at start */
	int device_on;
	MPI_T_cvar_handle device;
};

/*
 * Before MPI_Init: Open MPI's coll/tuned reads forced algorithms only with
 * dynamic rules on (the user's own setting wins); with rules (a path, else
 * NULL) it reads that rules file (coll_tuned_dynamic_rules_filename) instead
 * of its fixed decision, and dynamic rules are turned on whatever was set.
 * MPICH reads rules, its selection JSON (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE),
 * in its own selection, where the device's all-reduce hands over to it (Debian's
 * MPICH 4.0, ch4:ucx, on one host: checked by the functions each call ran).
 */
void lib_algs_prepare(const char *rules);
/* The rules file this build's library reads is JSON (MPICH's), else Open MPI's classic. */
bool lib_algs_rules_json(void);
/* After MPI_Init, on every rank: what this library can force. MPI error code. */
int lib_algs_open(struct lib_algs *l);
/* Algorithm k (0: the library's own decision) for every communicator made next. Collective. */
int lib_algs_force(struct lib_algs *l, int k);
/* The position of name in l, or -1. */
int lib_algs_find(const struct lib_algs *l, const char *name);
void lib_algs_close(struct lib_algs *l);

#endif
