/*
 * The all-reduce variants and their one registry.
 *
 * A point-to-point variant is a pure schedule builder (build); a variant
 * that is not a schedule (the MPI library's own MPI_Allreduce) runs
 * directly (run). Exactly one of the two is set. Restrictions are data: the
 * harness checks them and records the point as skipped with the reason; a
 * variant is never replaced by another one.
 *
 * Adding a variant: one file algorithms/ar_<name>.c defining
 * `const struct ar_variant ar_variant_<name>`, and one line in registry.c.
 * A guideline mock-up (ar_variant.guideline) is registered the same way; it
 * is selected by name only, never by 'all' (ar_variant_in_all).
 */
#ifndef COLLSCOPE_VARIANT_H
#define COLLSCOPE_VARIANT_H

#include <stdbool.h>

#include "algorithms/codec.h"
#include "algorithms/dtype.h"
#include "algorithms/schedule.h"

struct ar_call; /* one MPI call's arguments: algorithms/executor.h */

enum ar_restriction {
	AR_NEEDS_COMMUTATIVE = 1u << 0, /* reorders operands */
	AR_NEEDS_POW2 = 1u << 1,        /* power-of-two rank counts only */
	AR_NEEDS_ONE_HOST = 1u << 2,    /* every rank on one host (shared memory alone) */
	AR_NEEDS_FLOAT32_SUM = 1u << 3, /* a compressed variant: float32 input, op sum */
};

/*
 * The collective a point measures (issue 35): the all-reduce, or one of its
 * halves as FSDP and ZeRO call them. Sizes are the whole buffer, as
 * nccl-tests states them: a reduce-scatter reduces count elements and
 * leaves rank r its block r (the balanced split of sched_part_offset); an
 * all-gather starts with block r of every rank r's input and ends with all
 * count elements everywhere.
 */
enum ar_collective { AR_ALLREDUCE, AR_REDUCE_SCATTER, AR_ALLGATHER, AR_COLLECTIVES };
/* "allreduce", "reduce_scatter", "allgather"; NULL-terminated, in the enum's order. */
extern const char *const ar_collective_names[];
/* nccl-tests' bus bandwidth factor: 2(n-1)/n for the all-reduce, (n-1)/n for a half; 0 at n = 1. */
double ar_collective_bus_factor(enum ar_collective c, int nranks);
/* That factor as people write it: "2(n-1)/n" or "(n-1)/n". */
const char *ar_collective_bus_formula(enum ar_collective c);
/* As pages and headings name them: "all-reduce", "reduce-scatter", "all-gather". */
extern const char *const ar_collective_titles[];
/* The collective of ar_collective_names named name, or AR_COLLECTIVES for none (or NULL). */
enum ar_collective ar_collective_of(const char *name);

struct ar_variant {
	const char *name;
	const char *summary;   /* one line, for `collscope list` */
	const char *algorithm; /* cost in steps and bytes, for `collscope list` */
	unsigned restrictions; /* enum ar_restriction bits */
	sched_build_fn build;
	int (*run)(const struct ar_call *call); /* returns an MPI error code */
	/*
	 * A direct variant's non-blocking form (overlap): posts the call, the
	 * MPI_Request to complete it in *(MPI_Request *)request; NULL: none.
	 * Schedules need none: algorithms/exec_nb.h steps them by test calls.
	 */
	int (*start)(const struct ar_call *call, void *request);
	bool shared_buffers; /* input and result must come from a shm_arena (shm_arena.h) */
	/*
	 * The halves (issue 35): a schedule each or a direct form each; none of
	 * either: the variant does not offer that collective. Their restrictions
	 * (enum ar_restriction) are halves_restrictions, not restrictions.
	 */
	sched_build_fn build_reduce_scatter, build_allgather;
	int (*run_reduce_scatter)(const struct ar_call *call);
	int (*run_allgather)(const struct ar_call *call);
	unsigned halves_restrictions;
	/*
	 * A mock-up of MPI_Allreduce from the library's other collectives
	 * (PGChecker's performance guidelines, issue 33: MPI_Reduce +
	 * MPI_Bcast, ...), which `tune` holds mpi against: selected by name
	 * only, never by 'all', so that default runs and the test suites do not
	 * pay for it. `list` says so.
	 */
	bool guideline;
	/*
	 * A compressed variant (issue 40): its schedule's messages go through
	 * this codec (algorithms/exec_codec.h), so its results are inexact and
	 * checked against the bound of the codec's format. Selected by name
	 * only, never by 'all', like the guideline mock-ups.
	 */
	const struct ar_codec *codec;
};

/*
 * Per-variant arrays (a selection, a plan each, a tally each) are sized by
 * this; registry.c fails to compile when the registry outgrows it.
 */
enum { AR_MAX_VARIANTS = 32 };

/* NULL-terminated, in the order `list` and reports show them. */
extern const struct ar_variant *const ar_variants[];

const struct ar_variant *ar_variant_find(const char *name);
size_t ar_variant_count(void);
/* Whether 'all' selects v: every variant but the guideline mock-ups and the compressed ones. */
bool ar_variant_in_all(const struct ar_variant *v);
/* Position of v in ar_variants, or -1. */
int ar_variant_index(const struct ar_variant *v);
/* NULL when v can run nranks with op, else why not (a static string). */
const char *ar_variant_unsupported(const struct ar_variant *v, int nranks, enum ar_op op);
/* NULL when v can run dtype t, else why not (a static string): compressed variants need float32. */
const char *ar_variant_unsupported_dtype(const struct ar_variant *v, enum ar_dtype t);
/*
 * The same for collective c on nranks ranks over hosts hosts: also "no
 * reduce-scatter form" and the halves' restrictions.
 */
const char *ar_collective_unsupported(const struct ar_variant *v, enum ar_collective c, int nranks,
                                      int hosts, enum ar_op op);
/* v's schedule builder for c (NULL: none, or a direct form), and its direct run (NULL: none). */
sched_build_fn ar_collective_build(const struct ar_variant *v, enum ar_collective c);
int (*ar_collective_run(const struct ar_variant *v, enum ar_collective c))(const struct ar_call *);
/* "none", or the restrictions (enum ar_restriction bits) in words (static string). */
const char *ar_restrictions_text(unsigned restrictions);
/* The all-reduce's: ar_restrictions_text(v->restrictions). */
const char *ar_variant_restrictions_text(const struct ar_variant *v);

extern const struct ar_variant ar_variant_naive;
extern const struct ar_variant ar_variant_ring;
extern const struct ar_variant ar_variant_tree;
extern const struct ar_variant ar_variant_recursive_doubling;
extern const struct ar_variant ar_variant_rabenseifner;
extern const struct ar_variant ar_variant_direct;
extern const struct ar_variant ar_variant_shm;
extern const struct ar_variant ar_variant_mpi;
extern const struct ar_variant ar_variant_mpi_reduce_bcast;
extern const struct ar_variant ar_variant_mpi_rs_allgather;
extern const struct ar_variant ar_variant_bf16;
extern const struct ar_variant ar_variant_fp16;
extern const struct ar_variant ar_variant_int8;
extern const struct ar_variant ar_variant_topk;

/* direct's schedule (ar_direct.c), which the compressed variants run. */
int sched_build_direct(struct sched *s);

#endif
