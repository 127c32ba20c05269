/*
 * The collectives' names and bus factors (variant.h): pure and on their own,
 * so that the reports' code links them without the variants.
 */
#include "algorithms/variant.h"

const char *const ar_collective_names[] = {"allreduce", "reduce_scatter", "allgather", NULL};

double ar_collective_bus_factor(enum ar_collective c, int nranks)
{
	if (nranks <= 1)
		return 0;
	double f = (double)(nranks - 1) / nranks;
	return c == AR_ALLREDUCE ? 2 * f : f;
}
