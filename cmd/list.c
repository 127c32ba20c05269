/* collscope list: the variants, what they cost and what they cannot do. */
#include <mpi.h>

#include "cmd/cmd.h"
#include "algorithms/variant.h"

#include "cmd/small_opts.h"

int cmd_list(void *opts, struct cmd_ctx *ctx)
{
	const struct list_opts *o = opts;
	(void)ctx;
	for (size_t i = 0; ar_variants[i]; i++) {
		const struct ar_variant *v = ar_variants[i];
		if (o->names_only) {
			printf("%s\n", v->name);
			continue;
		}
		printf("%-20s %s\n", v->name, v->summary);
		printf("%-20s   cost: %s; restrictions: %s\n", "", v->algorithm,
		       ar_variant_restrictions_text(v));
		/* --collective: which halves it offers, restrictions as data (registry.c) */
		bool rs = !ar_collective_unsupported(v, AR_REDUCE_SCATTER, 2, 1, AR_SUM),
		     ag = !ar_collective_unsupported(v, AR_ALLGATHER, 2, 1, AR_SUM);
		printf("%-20s   halves: %s%s%s%s", "", rs ? "reduce_scatter" : "",
		       rs && ag ? ", " : "", ag ? "allgather" : "", rs || ag ? "" : "none");
		if (rs || ag)
			printf("; restrictions: %s", ar_restrictions_text(v->halves_restrictions));
		printf("\n");
		if (v->codec)
			printf("%-20s   selected by name only, never by 'all': compressed, its results "
			       "checked against its format's bound\n",
			       "");
		else if (!ar_variant_in_all(v))
			printf("%-20s   selected by name only, never by 'all': a guideline mock-up "
			       "that tune holds mpi against\n",
			       "");
	}
	return EXIT_OK;
}
