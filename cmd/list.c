/* collscope list: the variants, what they cost and what they cannot do. */
#include <mpi.h>

#include "cmd.h"
#include "variant.h"

#include <getopt.h>
#include <string.h>

const char cmd_list_usage[] =
	"usage: collscope list [--names]\n\n"
	"Lists the all-reduce variants with a one-line summary, their cost and their\n"
	"restrictions. Runs without mpirun.\n\n"
	"  --names   print the names only, one per line (for scripts)\n";

int cmd_list(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {{"names", no_argument, NULL, 'N'}, {0}};
	bool names_only = false;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'N')
			names_only = true;
		else
			return cmd_usage_error(ctx, "list", argc, argv);
	}
	if (optind < argc) {
		cmd_error(ctx, "list: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	for (size_t i = 0; ar_variants[i]; i++) {
		const struct ar_variant *v = ar_variants[i];
		if (names_only) {
			printf("%s\n", v->name);
			continue;
		}
		printf("%-20s %s\n", v->name, v->summary);
		printf("%-20s   cost: %s; restrictions: %s\n", "", v->algorithm,
		       ar_variant_restrictions_text(v));
	}
	return EXIT_OK;
}
