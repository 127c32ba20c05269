/*
 * collscope verify: every variant over awkward counts, every dtype and op, in
 * place and out of place, every element compared with its exact expected
 * value (cmd/run/verify_run.c). Exit 3 on any wrong element, naming where.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "cmd/verify_opts.h"

int cmd_verify(void *opts, struct cmd_ctx *ctx)
{
	const struct verify_opts *o = opts;
	struct verify_tally tally[AR_MAX_VARIANTS];
	int status = verify_watched(ctx, o, tally);
	for (int i = 0; status == EXIT_OK && ar_variants[i]; i++)
		if (o->variants[i] && tally[i].wrong)
			status = EXIT_WRONG;
	return status;
}
