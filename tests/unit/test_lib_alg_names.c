/* MPICH's algorithm names from its control variable's description (algorithms/lib_alg_names.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "algorithms/lib_alg_names.h"

/* Debian's MPICH 4.0.2, as MPI_T_cvar_get_info gives it (lines joined). */
static const char mpich_4_0[] =
    "Variable to select allreduce algorithmauto - Internal algorithm selection (can be "
    "overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)nb                       - "
    "Force nonblocking algorithmsmp                      - Force smp "
    "algorithmrecursive_doubling       - Force recursive doubling "
    "algorithmreduce_scatter_allgather - Force reduce scatter allgather algorithm";

Test(lib_alg_names, mpich_4_0_in_its_order)
{
	char names[8][48];
	int n = lib_alg_names_parse(mpich_4_0, names, 8);
	const char *want[] = {"auto", "nb", "smp", "recursive_doubling", "reduce_scatter_allgather"};
	cr_assert_eq(n, 5);
	for (int i = 0; i < n; i++)
		cr_assert_str_eq(names[i], want[i]);
}

Test(lib_alg_names, with_newlines_too)
{
	char names[4][48];
	cr_assert_eq(lib_alg_names_parse("Variable to select allreduce algorithm\nauto - Internal\n"
	                                 "ring     - Force ring algorithm\n", names, 4), 2);
	cr_assert_str_eq(names[1], "ring");
}

Test(lib_alg_names, not_a_list)
{
	char names[2][48];
	cr_assert_eq(lib_alg_names_parse("the short message algorithm will be used", names, 2), -1);
	cr_assert_eq(lib_alg_names_parse(NULL, names, 2), -1);
	/* the first value must be the library's own decision */
	cr_assert_eq(lib_alg_names_parse("nb - Force nonblocking", names, 2), -1);
	/* more entries than room */
	cr_assert_eq(lib_alg_names_parse(mpich_4_0, names, 2), -1);
	/* a name without a word before its dash */
	cr_assert_eq(lib_alg_names_parse("auto - x) - y", names, 2), -1);
}
