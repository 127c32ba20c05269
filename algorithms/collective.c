/*
 * The collectives' names and bus factors (variant.h): pure and on their own,
 * so that the reports' code links them without the variants.
 */
#include "algorithms/variant.h"

#include <string.h>

const char *const ar_collective_names[] = {"allreduce", "reduce_scatter", "allgather", NULL};
const char *const ar_collective_titles[] = {"all-reduce", "reduce-scatter", "all-gather", NULL};

double ar_collective_bus_factor(enum ar_collective c, int nranks)
{
	if (nranks <= 1)
		return 0;
	double f = (double)(nranks - 1) / nranks;
	return c == AR_ALLREDUCE ? 2 * f : f;
}

const char *ar_collective_bus_formula(enum ar_collective c)
{
	return c == AR_ALLREDUCE ? "2(n-1)/n" : "(n-1)/n";
}

enum ar_collective ar_collective_of(const char *name)
{
	for (int c = 0; name && c < AR_COLLECTIVES; c++)
		if (strcmp(name, ar_collective_names[c]) == 0)
			return (enum ar_collective)c;
	return AR_COLLECTIVES;
}
