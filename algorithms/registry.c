/* The one table of all-reduce variants. Adding one: see variant.h. */
#include "algorithms/variant.h"

#include <string.h>

const struct ar_variant *const ar_variants[] = {
    &ar_variant_naive,
    &ar_variant_ring,
    &ar_variant_tree,
    &ar_variant_recursive_doubling,
    &ar_variant_rabenseifner,
    &ar_variant_direct,
    &ar_variant_shm,
    &ar_variant_mpi,
    &ar_variant_mpi_reduce_bcast,
    &ar_variant_mpi_rs_allgather,
    &ar_variant_bf16,
    &ar_variant_fp16,
    &ar_variant_int8,
    &ar_variant_topk,
    NULL,
};

_Static_assert(sizeof ar_variants / sizeof ar_variants[0] - 1 <= AR_MAX_VARIANTS,
               "more variants than AR_MAX_VARIANTS: raise it in variant.h");

const struct ar_variant *ar_variant_find(const char *name)
{
	for (size_t i = 0; ar_variants[i]; i++)
		if (strcmp(ar_variants[i]->name, name) == 0)
			return ar_variants[i];
	return NULL;
}

size_t ar_variant_count(void)
{
	size_t n = 0;
	while (ar_variants[n])
		n++;
	return n;
}

bool ar_variant_in_all(const struct ar_variant *v)
{
	return !v->guideline && !v->codec;
}

int ar_variant_index(const struct ar_variant *v)
{
	for (int i = 0; ar_variants[i]; i++)
		if (ar_variants[i] == v)
			return i;
	return -1;
}

const char *ar_variant_unsupported(const struct ar_variant *v, int nranks, enum ar_op op)
{
	if ((v->restrictions & AR_NEEDS_POW2) && (nranks & (nranks - 1)) != 0)
		return "needs a power-of-two rank count";
	if ((v->restrictions & AR_NEEDS_COMMUTATIVE) && !ar_op_is_commutative(op))
		return "needs a commutative operator";
	if ((v->restrictions & AR_NEEDS_FLOAT32_SUM) && op != AR_SUM)
		return "a compressed variant: needs op sum";
	return NULL;
}

const char *ar_variant_unsupported_dtype(const struct ar_variant *v, enum ar_dtype t)
{
	if ((v->restrictions & AR_NEEDS_FLOAT32_SUM) && t != AR_FLOAT32)
		return "a compressed variant: needs dtype float32";
	return NULL;
}

sched_build_fn ar_collective_build(const struct ar_variant *v, enum ar_collective c)
{
	return c == AR_REDUCE_SCATTER ? v->build_reduce_scatter
	       : c == AR_ALLGATHER    ? v->build_allgather
	                              : v->build;
}

int (*ar_collective_run(const struct ar_variant *v, enum ar_collective c))(const struct ar_call *)
{
	return c == AR_REDUCE_SCATTER ? v->run_reduce_scatter
	       : c == AR_ALLGATHER    ? v->run_allgather
	                              : v->run;
}

const char *ar_collective_unsupported(const struct ar_variant *v, enum ar_collective c, int nranks,
                                      int hosts, enum ar_op op)
{
	if (c == AR_ALLREDUCE)
		return ar_variant_unsupported(v, nranks, op);
	if (!ar_collective_build(v, c) && !ar_collective_run(v, c))
		return c == AR_REDUCE_SCATTER ? "no reduce-scatter form" : "no all-gather form";
	if ((v->halves_restrictions & AR_NEEDS_POW2) && (nranks & (nranks - 1)) != 0)
		return "needs a power-of-two rank count";
	if ((v->halves_restrictions & AR_NEEDS_ONE_HOST) && hosts > 1)
		return "needs every rank on one host";
	/* an all-gather reduces nothing: the operator does not matter */
	if (c == AR_REDUCE_SCATTER && (v->halves_restrictions & AR_NEEDS_COMMUTATIVE) &&
	    !ar_op_is_commutative(op))
		return "needs a commutative operator";
	return NULL;
}

const char *ar_restrictions_text(unsigned restrictions)
{
	/* only the compressed variants have it, and no other */
	if (restrictions & AR_NEEDS_FLOAT32_SUM)
		return "float32 and op sum only; inexact (within its format's bound)";
	/* indexed by the bits: commutative 1, power of two 2, one host 4 */
	static const char *const text[] = {
	    "none",
	    "commutative ops",
	    "power-of-two ranks",
	    "power-of-two ranks, commutative ops",
	    "one host",
	    "one host, commutative ops",
	    "one host, power-of-two ranks",
	    "one host, power-of-two ranks, commutative ops",
	};
	return text[restrictions & (AR_NEEDS_COMMUTATIVE | AR_NEEDS_POW2 | AR_NEEDS_ONE_HOST)];
}

const char *ar_variant_restrictions_text(const struct ar_variant *v)
{
	return ar_restrictions_text(v->restrictions);
}
