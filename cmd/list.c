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
	}
	return EXIT_OK;
}
