/*
 * Options that pick variants, dtypes and ops by name: comma-separated lists,
 * 'all' for every one; an unknown name is an error that names it.
 */
#include <mpi.h>

#include "cmd.h"
#include "parse.h"
#include "variant.h"

#include <string.h>

enum { MAX_ITEMS = 64 };

static bool lookup_variant(const char *name, int *idx)
{
	for (int i = 0; ar_variants[i]; i++)
		if (strcmp(ar_variants[i]->name, name) == 0) {
			*idx = i;
			return true;
		}
	return false;
}

static bool lookup_dtype(const char *name, int *idx)
{
	enum ar_dtype t;
	if (!ar_dtype_parse(name, &t))
		return false;
	*idx = (int)t;
	return true;
}

static bool lookup_op(const char *name, int *idx)
{
	enum ar_op op;
	if (!ar_op_parse(name, &op))
		return false;
	*idx = (int)op;
	return true;
}

static int select_names(const struct cmd_ctx *ctx, const char *cmd, const char *what, char *arg,
                        bool *sel, int nsel, bool (*lookup)(const char *, int *))
{
	char *items[MAX_ITEMS];
	const char *why = NULL;
	int n = parse_list(arg, items, MAX_ITEMS, &why);
	if (n < 0)
		return cmd_error(ctx, "%s: bad %s list '%s': %s", cmd, what, arg, why);
	memset(sel, 0, (size_t)nsel * sizeof *sel);
	for (int i = 0; i < n; i++) {
		int idx;
		if (strcmp(items[i], "all") == 0) {
			for (int j = 0; j < nsel; j++)
				sel[j] = true;
		} else if (lookup(items[i], &idx)) {
			sel[idx] = true;
		} else {
			return cmd_error(ctx, "%s: unknown %s '%s' (see 'collscope list')", cmd, what,
			                 items[i]);
		}
	}
	return 0;
}

int cmd_select_variants(const struct cmd_ctx *ctx, const char *cmd, char *arg, bool *sel)
{
	return select_names(ctx, cmd, "algorithm", arg, sel, (int)ar_variant_count(), lookup_variant);
}

int cmd_select_dtypes(const struct cmd_ctx *ctx, const char *cmd, char *arg, bool *sel)
{
	return select_names(ctx, cmd, "dtype", arg, sel, AR_DTYPE_COUNT, lookup_dtype);
}

int cmd_select_ops(const struct cmd_ctx *ctx, const char *cmd, char *arg, bool *sel)
{
	return select_names(ctx, cmd, "op", arg, sel, AR_OP_COUNT, lookup_op);
}

/* A single dtype (allreduce measures one at a time). */
int cmd_select_dtype(const struct cmd_ctx *ctx, const char *cmd, const char *arg,
                     enum ar_dtype *out)
{
	if (!ar_dtype_parse(arg, out))
		return cmd_error(ctx, "%s: unknown dtype '%s' (float32, float64, int32, int64, bfloat16)",
		                 cmd, arg);
	return 0;
}

int cmd_select_op(const struct cmd_ctx *ctx, const char *cmd, const char *arg, enum ar_op *out)
{
	if (!ar_op_parse(arg, out))
		return cmd_error(ctx, "%s: unknown op '%s' (sum, prod, min, max)", cmd, arg);
	return 0;
}
