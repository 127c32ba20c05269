/*
 * accept's spec on every rank (see accept_load_spec in run.h): rank 0 reads
 * it, so a spec on a disk only rank 0 sees is enough, and sends its text;
 * every rank parses it against the registry's names.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "reports/accept/accept_spec.h"
#include "reports/io/report_read.h"

#include <stdlib.h>
#include <string.h>

void accept_registry_names(struct accept_names *n, const char **variants, bool *in_all,
                           const char **dtypes, const char **ops)
{
	for (size_t i = 0; ar_variants[i]; i++) {
		variants[i] = ar_variants[i]->name;
		in_all[i] = ar_variant_in_all(ar_variants[i]);
	}
	for (int i = 0; i < AR_DTYPE_COUNT; i++)
		dtypes[i] = ar_dtype_name((enum ar_dtype)i);
	for (int i = 0; i < AR_OP_COUNT; i++)
		ops[i] = ar_op_name((enum ar_op)i);
	*n = (struct accept_names){variants, ar_variant_count(), dtypes, AR_DTYPE_COUNT,
	                           ops,      AR_OP_COUNT,        in_all};
}

/* Every line of err as one error about the spec. */
static void print_spec_errors(const struct cmd_ctx *ctx, const char *path, char *err)
{
	char *save = NULL;
	for (char *line = strtok_r(err, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cmd_error(ctx, "accept: spec '%s': %s", path, line);
}

int accept_load_spec(struct cmd_ctx *ctx, const char *path, struct accept_spec *spec)
{
	const char *variants[AR_MAX_VARIANTS], *dtypes[AR_DTYPE_COUNT], *ops[AR_OP_COUNT];
	bool in_all[AR_MAX_VARIANTS];
	struct accept_names names;
	char *err = malloc(16384), *text = NULL;
	cJSON *root = NULL;
	int status = err ? EXIT_OK : EXIT_RUNTIME;
	long long len = 0;
	accept_registry_names(&names, variants, in_all, dtypes, ops);
	if (ctx->rank == 0 && status == EXIT_OK) {
		int rc = report_load(path, &root, err, 16384);
		if (rc != REPORT_OK) {
			cmd_error(ctx, "accept: %s", err);
			status = rc == REPORT_EIO ? EXIT_RUNTIME : EXIT_USAGE;
		} else if (!(text = cJSON_PrintUnformatted(root))) {
			cmd_error(ctx, "accept: out of memory for the spec");
			status = EXIT_RUNTIME;
		}
		len = text ? (long long)strlen(text) + 1 : 0;
	}
	int rc = MPI_Bcast(&status, 1, MPI_INT, 0, ctx->comm);
	if (rc == MPI_SUCCESS && status == EXIT_OK)
		rc = MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, ctx->comm);
	if (rc == MPI_SUCCESS && status == EXIT_OK && ctx->rank != 0 &&
	    !(text = malloc((size_t)len)))
		status = EXIT_RUNTIME;
	if (run_any(ctx, status != EXIT_OK) || rc != MPI_SUCCESS)
		goto out;
	if (MPI_Bcast(text, (int)len, MPI_CHAR, 0, ctx->comm) != MPI_SUCCESS) {
		status = EXIT_RUNTIME;
		goto out;
	}
	if (ctx->rank != 0)
		root = cJSON_Parse(text);
	if (!root || accept_spec_parse_names(root, &names, spec, err, 16384) != 0) {
		if (root && ctx->rank == 0)
			print_spec_errors(ctx, path, err);
		status = root ? EXIT_USAGE : EXIT_RUNTIME;
	}
out:
	if (rc != MPI_SUCCESS)
		status = EXIT_RUNTIME;
	if (run_any(ctx, status != EXIT_OK) && status == EXIT_OK)
		status = EXIT_RUNTIME;
	cJSON_Delete(root);
	free(text);
	free(err);
	return status;
}

int accept_read_spec(const struct cmd_ctx *ctx, const char *path, struct accept_spec *spec)
{
	const char *variants[AR_MAX_VARIANTS], *dtypes[AR_DTYPE_COUNT], *ops[AR_OP_COUNT];
	bool in_all[AR_MAX_VARIANTS];
	struct accept_names names;
	char *err = malloc(16384);
	cJSON *root = NULL;
	if (!err) {
		cmd_error(ctx, "accept: out of memory for the spec");
		return EXIT_RUNTIME;
	}
	accept_registry_names(&names, variants, in_all, dtypes, ops);
	int rc = report_load(path, &root, err, 16384), status = EXIT_OK;
	if (rc != REPORT_OK) {
		cmd_error(ctx, "accept: %s", err);
		status = rc == REPORT_EIO ? EXIT_RUNTIME : EXIT_USAGE;
	} else if (accept_spec_parse_names(root, &names, spec, err, 16384) != 0) {
		print_spec_errors(ctx, path, err);
		status = EXIT_USAGE;
	}
	cJSON_Delete(root);
	free(err);
	return status;
}
